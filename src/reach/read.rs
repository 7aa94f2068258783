//! The read cache: a skill's own files read under the caps, each text read for one rule kept
//! for the next (SK412 follows the files SK406 read).

use foldhash::{HashMap, HashMapExt};
use std::io::Read as _;
use std::path::Path;

use super::index::Index;
use super::{MAX_READ, MAX_SCANNED_BYTES, MAX_SCANNED_FILES};
use crate::input::Links;

/// Reads the skill's own files (those of the [`Index`]) under the caps.
pub(super) struct Reader<'a, 't> {
    root: &'a Path,
    index: &'a Index<'t>,
    files: usize,
    bytes: u64,
    /// A read was refused because the caps were reached.
    pub(super) capped: bool,
    /// Whether texts read are kept for the next rule's reader ([`Reader::keep`]).
    hands_on: bool,
    /// Texts another rule read already, by index, with their length as read: taken, not read
    /// again (SK412 follows the files SK406 read). At most [`MAX_KEPT`] bytes of text.
    kept: HashMap<usize, (u64, String)>,
    kept_bytes: u64,
    /// Texts read in full and no longer needed here, by path: handed to the rules that read a
    /// skill's files after reach (the security rules), which then need not read them again.
    done: Vec<(String, String)>,
    /// Texts of the skill's files read whole before reach (by path from the root), taken
    /// rather than read again.
    given: &'a [(String, String)],
}

/// At most this many bytes of texts read are kept for the next rule (a skill whose linked
/// files are larger has the rest read again, rather than held).
const MAX_KEPT: u64 = MAX_READ;

impl<'a, 't> Reader<'a, 't> {
    pub(super) fn new(root: &'a Path, index: &'a Index<'t>, hands_on: bool) -> Self {
        Reader {
            root,
            index,
            files: 0,
            bytes: 0,
            capped: false,
            hands_on,
            kept: HashMap::new(),
            kept_bytes: 0,
            done: Vec::new(),
            given: &[],
        }
    }

    /// This reader, taking the texts in `given` (by path from the root) rather than reading
    /// them.
    pub(super) fn given(self, given: &'a [(String, String)]) -> Self {
        Reader { given, ..self }
    }

    /// A reader for the next rule, with its own caps, that takes the texts kept by this one
    /// (and keeps none).
    pub(super) fn pass_on(self) -> Self {
        Reader {
            kept: self.kept,
            kept_bytes: self.kept_bytes,
            done: self.done,
            given: self.given,
            ..Reader::new(self.root, self.index, false)
        }
    }

    /// Records that the text of `rel` is no longer needed by this reader.
    pub(super) fn done(&mut self, rel: &str, len: u64, text: String) {
        if len < MAX_READ {
            self.done.push((rel.to_string(), text));
        }
    }

    /// Every text this reader and the ones before it read in full, by path.
    pub(super) fn finish(mut self) -> Vec<(String, String)> {
        let index = self.index;
        let mut kept: Vec<(usize, String)> = self
            .kept
            .drain()
            .filter(|(_, (len, _))| *len < MAX_READ)
            .map(|(i, (_, text))| (i, text))
            .collect();
        kept.sort_by_key(|(i, _)| *i);
        self.done.extend(
            kept.into_iter()
                .filter_map(|(i, text)| Some((index.files.get(i)?.to_string(), text))),
        );
        self.done
    }

    /// The text of the file at `rel` (its first [`MAX_READ`] bytes, invalid UTF-8 replaced)
    /// and how many bytes were read, when it is one of the skill's own files and the caps allow.
    pub(super) fn read(&mut self, rel: &str) -> Option<(String, u64)> {
        let &i = self.index.by_rel.get(rel)?;
        if self.files >= MAX_SCANNED_FILES || self.bytes >= MAX_SCANNED_BYTES {
            self.capped = true;
            return None;
        }
        self.files += 1;
        if let Some((len, text)) = self.kept.remove(&i) {
            self.kept_bytes -= text.len() as u64;
            self.bytes += len;
            return Some((text, len));
        }
        if let Some((_, text)) = self.given.iter().find(|(r, _)| r == rel) {
            let len = text.len() as u64;
            self.bytes += len;
            return Some((text.clone(), len));
        }
        let plain = self.index.plain.get(i).copied().unwrap_or(false);
        let bytes = self.load(rel, plain)?;
        let len = bytes.len() as u64;
        self.bytes += len;
        let text = crate::input::text_lossy(bytes);
        Some((text, len))
    }

    /// Keeps the text of `rel` (read by [`Reader::read`], `len` bytes as read) for the reader
    /// [`Reader::pass_on`] makes, when this one hands texts on, within [`MAX_KEPT`] bytes of
    /// text (invalid UTF-8 replaced can make a text longer than the bytes read).
    pub(super) fn keep(&mut self, rel: &str, len: u64, text: String) {
        let size = text.len() as u64;
        if self.hands_on
            && let Some(&i) = self.index.by_rel.get(rel)
            && self.kept_bytes + size <= MAX_KEPT
            && !self.kept.contains_key(&i)
        {
            self.kept_bytes += size;
            self.kept.insert(i, (len, text));
        } else {
            self.done(rel, len, text);
        }
    }

    /// The first [`MAX_READ`] bytes of a file of the skill. A plain file was listed by the walk
    /// below real directories only, so it is opened as it is, refusing a symbolic link in its
    /// place; a symbolic link is read only when its real path is inside the skill.
    fn load(&self, rel: &str, plain: bool) -> Option<Vec<u8>> {
        let (path, links) = if plain {
            (self.root.join(rel), Links::Refuse)
        } else {
            let real = std::fs::canonicalize(self.root.join(rel)).ok()?;
            if !real.starts_with(self.root) {
                return None;
            }
            (real, Links::Follow)
        };
        let file = crate::input::open(&path, links).ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() {
            return None;
        }
        let mut bytes = Vec::with_capacity(meta.len().min(MAX_READ) as usize);
        file.take(MAX_READ).read_to_end(&mut bytes).ok()?;
        Some(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::SkillTree;

    /// A skill whose `references/` holds `a.md` (`len` bytes) and `b.md`.
    fn skill(len: usize) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("references")).unwrap();
        std::fs::write(root.join("references/a.md"), "a".repeat(len)).unwrap();
        std::fs::write(root.join("references/b.md"), "b").unwrap();
        (dir, root)
    }

    #[test]
    fn the_next_rule_takes_a_kept_text_without_reading_it_again() {
        let (_dir, root) = skill(10);
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let mut first = Reader::new(&root, &index, true);
        let (text, len) = first.read("references/a.md").unwrap();
        assert_eq!((text.as_str(), len), ("aaaaaaaaaa", 10));
        first.keep("references/a.md", len, text);
        // Gone from the disk: only the kept text can answer.
        std::fs::remove_file(root.join("references/a.md")).unwrap();
        let mut next = first.pass_on();
        assert_eq!(next.read("references/a.md"), Some(("a".repeat(10), 10)));
        // Counted under the next reader's own caps, as a read.
        assert_eq!((next.files, next.bytes, next.kept_bytes), (1, 10, 0));
        // Taken once: a second read goes to the disk.
        assert_eq!(next.read("references/a.md"), None);
        assert_eq!(next.read("references/b.md"), Some(("b".to_string(), 1)));
    }

    #[test]
    fn a_text_read_before_reach_is_taken_not_read() {
        let (_dir, root) = skill(10);
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let given = [("references/b.md".to_string(), "as read before".to_string())];
        let mut reader = Reader::new(&root, &index, true).given(&given);
        // The disk says `b`: the given text answers, in every reader after this one too.
        assert_eq!(
            reader.read("references/b.md"),
            Some(("as read before".to_string(), 14))
        );
        assert_eq!((reader.files, reader.bytes), (1, 14));
        let mut next = reader.pass_on();
        assert_eq!(
            next.read("references/b.md"),
            Some(("as read before".to_string(), 14))
        );
        assert_eq!(next.read("references/a.md"), Some(("a".repeat(10), 10)));
    }

    #[test]
    fn texts_past_the_kept_bound_are_read_again() {
        let (_dir, root) = skill(MAX_KEPT as usize);
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let mut first = Reader::new(&root, &index, true);
        for rel in ["references/a.md", "references/b.md"] {
            let (text, len) = first.read(rel).unwrap();
            first.keep(rel, len, text);
        }
        // `a.md` fills the bound: `b.md` is not kept.
        assert_eq!(first.kept_bytes, MAX_KEPT);
        std::fs::remove_file(root.join("references/a.md")).unwrap();
        std::fs::remove_file(root.join("references/b.md")).unwrap();
        let mut next = first.pass_on();
        assert_eq!(next.read("references/b.md"), None);
        let (text, _) = next.read("references/a.md").unwrap();
        assert_eq!(text.len(), MAX_KEPT as usize);
    }

    #[test]
    fn the_bound_counts_text_as_kept_and_only_a_reader_that_hands_on_keeps() {
        let (_dir, root) = skill(1);
        // Invalid UTF-8: 10 bytes read, kept as 30 bytes of U+FFFD.
        std::fs::write(root.join("references/a.md"), [0xff; 10]).unwrap();
        let tree = SkillTree::walk(&root);
        let index = Index::new(&tree);
        let mut first = Reader::new(&root, &index, true);
        let (text, len) = first.read("references/a.md").unwrap();
        assert_eq!((text.len(), len), (30, 10));
        first.keep("references/a.md", len, text);
        assert_eq!(first.kept_bytes, 30);
        let mut next = first.pass_on();
        let (text, len) = next.read("references/a.md").unwrap();
        assert_eq!((next.bytes, next.kept_bytes), (10, 0));
        next.keep("references/a.md", len, text);
        assert!(next.kept.is_empty());
    }
}
