//! The bit index: a skill's files and folders by every way a text can name them, and the bits
//! that tell most words at once that they name none of them.

use foldhash::{HashMap, HashMapExt};

use super::glob::Globs;
use super::kinds::{CODE, DISCOVERABLE, PACKAGE_FILES, TextKind, is_candidate};
use super::mention::{Token, lowered};
use super::path::{has_extension, parent};
use crate::files::{Kind, LinkTarget, SkillTree};

/// At most this many trailing components of a path are indexed: a longer module path or folder
/// is looked up by its last ones and checked against the whole path, so the index stays
/// proportional to the tree however deep it is.
const MAX_TAIL: usize = 4;
/// At most this many indexed paths are checked against longer keys per skill; past it, what
/// the skill reaches cannot be told and SK412 is not reported.
pub(super) const MAX_LOOKUP_WORK: usize = 1 << 22;

/// The skill's files and folders, by every way a text can name them. The files and folders of
/// skills nested in the skill are not in it: they are the nested skill's (SK016), which follows
/// and reports them.
pub(super) struct Index<'t> {
    /// Every file, sorted.
    pub(super) files: Vec<&'t str>,
    /// Whether each file is a plain file (not a symbolic link).
    pub(super) plain: Vec<bool>,
    /// Whether each file is one SK412 reports when nothing mentions it: under references/,
    /// resources/ or scripts/, neither ignored nor tooling.
    pub(super) candidate: Vec<bool>,
    /// How many files are candidates.
    pub(super) candidates: usize,
    pub(super) by_rel: HashMap<&'t str, usize>,
    /// By file name, lower-cased (`pack.py`; `FORMS.md` names `forms.md`).
    pub(super) by_name: HashMap<String, Vec<usize>>,
    /// Source files by module path without extension (`scripts/office/pack`, `office/pack`,
    /// `pack`), and packages by folder path (to their `__init__.py` or `index.js`).
    pub(super) by_module: Tails<'t, usize>,
    /// Folders by path and by their tails of two or more components (`office/schemas`).
    pub(super) dirs: Tails<'t, &'t str>,
    /// Folders by name, for string literals in scripts (`Path(__file__).parent / "schemas"`).
    pub(super) dir_names: HashMap<&'t str, Vec<&'t str>>,
    /// The byte lengths of the file and folder names that have no dot or path separator (bit
    /// `n`, 63 for 63 and more): a plain word of another length names none of them. Most
    /// names have an extension, and then no plain word is looked up at all.
    pub(super) name_lengths: u64,
    /// The first bytes of those names, lower-cased (bit `b`; all bits once a name begins with
    /// a non-ASCII character): a plain ASCII word that begins with another names none of them.
    pub(super) name_firsts: u128,
}

/// The bits of [`Index::name_firsts`] for a name.
pub(super) fn first_bit(name: &str) -> u128 {
    match name.as_bytes().first() {
        Some(&b) if b < 0x80 => 1 << b.to_ascii_lowercase(),
        _ => u128::MAX,
    }
}

/// The bit of [`Index::name_lengths`] for a name of `len` bytes.
pub(super) fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

impl<'t> Index<'t> {
    pub(super) fn new(tree: &'t SkillTree) -> Self {
        let mut index = Index {
            files: Vec::new(),
            plain: Vec::new(),
            candidate: Vec::new(),
            candidates: 0,
            by_rel: HashMap::new(),
            by_name: HashMap::new(),
            by_module: Tails::default(),
            dirs: Tails::default(),
            dir_names: HashMap::new(),
            name_lengths: 0,
            name_firsts: 0,
        };
        let nested = Nested::new(tree);
        for entry in &tree.entries {
            let rel = entry.rel.as_str();
            if nested.holds(rel) {
                continue;
            }
            if entry.is_file() {
                index.add_file(rel, matches!(entry.kind, Kind::File { .. }));
            } else if matches!(entry.kind, Kind::Dir | Kind::Symlink(LinkTarget::InsideDir))
                && !DISCOVERABLE.contains(&rel)
            {
                index.add_dir(rel);
            }
        }
        index
    }

    fn add_file(&mut self, rel: &'t str, plain: bool) {
        let i = self.files.len();
        self.files.push(rel);
        self.plain.push(plain);
        let candidate = is_candidate(rel);
        self.candidate.push(candidate);
        self.candidates += usize::from(candidate);
        self.by_rel.insert(rel, i);
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let lower = name.to_lowercase();
        self.plain_name(&lower);
        self.by_name.entry(lower).or_default().push(i);
        if PACKAGE_FILES.contains(&name) {
            self.by_module.insert(parent(rel), 1, i);
        } else if has_extension(rel, &CODE) {
            let stem = rel.rsplit_once('.').map_or(rel, |(stem, _)| stem);
            self.by_module.insert(stem, 1, i);
        }
    }

    fn add_dir(&mut self, rel: &'t str) {
        self.dirs.insert(rel, 2, rel);
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.plain_name(name);
        self.dir_names.entry(name).or_default().push(rel);
    }

    /// Notes a file or folder name in [`Index::name_lengths`] and [`Index::name_firsts`] when
    /// a plain word can be it: only a word without a dot or a path separator is looked up
    /// by its name ([`Index::may_name`]), so `guide.md` never needs to be.
    fn plain_name(&mut self, name: &str) {
        if !name.contains(['.', '/', '\\']) {
            self.name_lengths |= length_bit(name.len());
            self.name_firsts |= first_bit(name);
        }
    }

    /// Whether a token can name anything: one with a path separator or a dot may; a plain word
    /// (most of a text's tokens) only when it is a file's name, or, as [`Reach::token`] reads
    /// it, a folder's name in a code literal or a top folder in a code span. Deciding this
    /// without building the token's keys keeps scanning prose cheap.
    pub(super) fn may_name(&self, token: &Token, kind: TextKind) -> bool {
        // [`Reach::token`] drops the dots that end a token first: the word that ends a
        // sentence (`instead.`) is a word, and decided as one.
        let text = token.text.trim_end_matches('.');
        if (token.dotted && memchr::memchr3(b'.', b'/', b'\\', text.as_bytes()).is_some())
            || (kind != TextKind::Code && token.code_span && DISCOVERABLE.contains(&text))
        {
            return true;
        }
        // Here `text` has no dot or separator: only a name without one can be it. Lower-casing
        // an ASCII word keeps its length and its first byte's place in the alphabet; a word
        // with other characters is looked up.
        if token.ascii
            && (self.name_lengths & length_bit(text.len()) == 0
                || self.name_firsts & first_bit(text) == 0)
        {
            return false;
        }
        self.by_name.contains_key(lowered(text).as_ref())
            || (kind == TextKind::Code && token.quoted && self.dir_names.contains_key(text))
    }

    /// Whether `rel` is one of the skill's own files.
    pub(super) fn has(&self, rel: &str) -> bool {
        self.by_rel.contains_key(rel)
    }

    /// The files at or below `rel` (a file or a folder).
    pub(super) fn at_or_below(&self, rel: &str) -> Vec<usize> {
        let prefix = format!("{rel}/");
        let start = self.files.partition_point(|f| *f < prefix.as_str());
        let below = (start..self.files.len()).take_while(|&i| self.files[i].starts_with(&prefix));
        self.by_rel
            .get(rel)
            .copied()
            .into_iter()
            .chain(below)
            .collect()
    }

    /// What a link to or a mention of the folder `rel` reaches: the files directly inside a top
    /// folder (`scripts/`: the model lists it and sees its files, while each sub-folder is a
    /// unit of its own that needs its own mention), every file below any other folder.
    pub(super) fn folder(&self, rel: &str) -> Vec<usize> {
        if !DISCOVERABLE.contains(&rel) {
            return self.at_or_below(rel);
        }
        self.at_or_below(rel)
            .into_iter()
            .filter(|&i| parent(self.files[i]) == rel)
            .collect()
    }

    /// The files named like the end of `path` (lower-cased) whose path and `path` end alike;
    /// each file of that name checked counts in `work` (none once it is over
    /// [`MAX_LOOKUP_WORK`]).
    pub(super) fn tail(&self, path: &str, work: &mut usize) -> Vec<usize> {
        let name = path.rsplit('/').next().unwrap_or(path);
        let Some(named) = self.by_name.get(name) else {
            return Vec::new();
        };
        *work += named.len();
        if *work > MAX_LOOKUP_WORK {
            return Vec::new();
        }
        let compatible = |rel: &str| {
            let rel = rel.to_lowercase();
            rel == path
                || rel
                    .strip_suffix(path)
                    .is_some_and(|head| head.ends_with('/'))
                || path
                    .strip_suffix(rel.as_str())
                    .is_some_and(|head| head.ends_with('/'))
        };
        named
            .iter()
            .copied()
            .filter(|&i| compatible(self.files[i]))
            .collect()
    }

    /// The files each glob key matches (see [`super::glob::glob`]), in the keys' order.
    pub(super) fn globs(&self, keys: &[&str]) -> Vec<Vec<usize>> {
        Globs::new(keys).matches(&self.files)
    }
}

/// The directories of the skills nested in a skill (sorted, none inside another).
struct Nested(Vec<String>);

impl Nested {
    fn new(tree: &SkillTree) -> Self {
        let mut roots = tree.nested_roots();
        roots.sort_unstable();
        let mut kept: Vec<String> = Vec::new();
        for root in roots {
            if !kept.last().is_some_and(|k| root.starts_with(k.as_str())) {
                kept.push(root);
            }
        }
        Nested(kept)
    }

    /// Whether `rel` lies in a nested skill's directory: the paths with a given prefix are
    /// contiguous in sorted order, so only the greatest directory not after `rel` can hold it.
    fn holds(&self, rel: &str) -> bool {
        let at = self.0.partition_point(|root| root.as_str() <= rel);
        at > 0 && rel.starts_with(self.0[at - 1].as_str())
    }
}

/// Paths looked up by their ends: each path under its tails of `min` to [`MAX_TAIL`]
/// components, as slices of itself (a path of fewer than `min` components under itself).
pub(super) struct Tails<'t, T> {
    map: HashMap<&'t str, Vec<(&'t str, T)>>,
}

impl<T> Default for Tails<'_, T> {
    fn default() -> Self {
        Tails {
            map: HashMap::new(),
        }
    }
}

impl<'t, T: Copy> Tails<'t, T> {
    fn insert(&mut self, path: &'t str, min: usize, value: T) {
        for tail in tails(path, min) {
            self.map.entry(tail).or_default().push((path, value));
        }
    }

    /// What is indexed under the paths that end with `key` (whole components). A key of more
    /// than [`MAX_TAIL`] components is looked up by its last ones, and each path found there is
    /// checked against it, counted in `work`; `None` once `work` is over [`MAX_LOOKUP_WORK`].
    pub(super) fn get(&self, key: &str, work: &mut usize) -> Option<Vec<T>> {
        let values = |found: &[(&'t str, T)]| found.iter().map(|(_, v)| *v).collect();
        let Some(last) = tails(key, MAX_TAIL)
            .next()
            .filter(|last| last.len() < key.len())
        else {
            return Some(
                self.map
                    .get(key)
                    .map_or_else(Vec::new, |found| values(found)),
            );
        };
        let found = self.map.get(last).map_or(&[][..], Vec::as_slice);
        *work += found.len();
        if *work > MAX_LOOKUP_WORK {
            return None;
        }
        let ends_with_key = |path: &str| {
            path.strip_suffix(key)
                .is_some_and(|head| head.is_empty() || head.ends_with('/'))
        };
        Some(
            found
                .iter()
                .filter(|(path, _)| ends_with_key(path))
                .map(|(_, v)| *v)
                .collect(),
        )
    }
}

/// The tails of a `/`-separated path, as slices of it: those of `min` (or, for a shorter path,
/// all its) to [`MAX_TAIL`] components, longest first.
fn tails(path: &str, min: usize) -> impl Iterator<Item = &str> {
    let path = path.trim_matches('/');
    // Byte by byte: these paths are short, and `/` is one byte of UTF-8 that no other
    // character's bytes contain.
    let slashes = || {
        path.bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'/')
            .map(|(i, _)| i)
    };
    let count = if path.is_empty() {
        0
    } else {
        slashes().count() + 1
    };
    let starts = std::iter::once(0).chain(slashes().map(|i| i + 1));
    let first = count.saturating_sub(MAX_TAIL);
    let last = count.saturating_sub(min.min(count).max(1));
    starts
        .enumerate()
        .filter(move |&(k, _)| count > 0 && k >= first && k <= last)
        .map(move |(_, start)| &path[start..])
}

#[cfg(test)]
mod tests {
    use super::super::mention::tokens;
    use super::*;

    #[test]
    fn index_keeps_a_few_tails_and_leaves_nested_skills_out() {
        let dir = tempfile::tempdir().unwrap();
        let deep = "scripts/a/b/c/d/e";
        for rel in [
            format!("{deep}/pack.py"),
            "scripts/q/c/d/e/pack.py".to_string(),
            "sub/SKILL.md".to_string(),
            "sub/scripts/t.py".to_string(),
            "subway/x.py".to_string(),
        ] {
            let path = dir.path().join(&rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let tree = SkillTree::walk(dir.path());
        let index = Index::new(&tree);
        assert_eq!(
            index.files,
            [
                "scripts/a/b/c/d/e/pack.py",
                "scripts/q/c/d/e/pack.py",
                "subway/x.py"
            ]
        );
        // At most MAX_TAIL keys a file, however deep.
        let keys: usize = index.by_module.map.values().map(Vec::len).sum();
        assert_eq!(keys, 4 + 4 + 2);
        let module = |key: &str| index.by_module.get(key, &mut 0).unwrap();
        assert_eq!(module("scripts/a/b/c/d/e/pack"), [0]);
        assert_eq!(module("a/b/c/d/e/pack"), [0]);
        assert_eq!(module("b/c/d/e/pack"), [0]);
        assert_eq!(module("c/d/e/pack"), [0, 1]);
        assert_eq!(module("pack"), [0, 1]);
        assert!(module("z/b/c/d/e/pack").is_empty());
        assert!(module("xb/c/d/e/pack").is_empty());
        let dirs = |key: &str| index.dirs.get(key, &mut 0).unwrap();
        assert_eq!(dirs(deep), [deep]);
        assert_eq!(dirs("b/c/d/e"), [deep]);
        assert_eq!(dirs("scripts/a"), ["scripts/a"]);
        assert!(dirs("a").is_empty());
        assert_eq!(dirs("subway"), ["subway"]);
        // Past the budget, long keys are given up.
        let mut work = MAX_LOOKUP_WORK;
        assert_eq!(index.by_module.get("a/b/c/d/e/pack", &mut work), None);
    }

    #[test]
    fn tails_of_paths() {
        assert_eq!(
            tails("scripts/office/pack", 2).collect::<Vec<_>>(),
            ["scripts/office/pack", "office/pack"]
        );
        assert_eq!(
            tails("a/b/c/d/e/f", 1).collect::<Vec<_>>(),
            ["c/d/e/f", "d/e/f", "e/f", "f"]
        );
        assert_eq!(tails("a", 2).collect::<Vec<_>>(), ["a"]);
        assert_eq!(tails("", 1).count(), 0);
    }

    #[test]
    fn a_word_that_ends_a_sentence_is_decided_as_a_word() {
        let file = |rel: &str| crate::files::Entry {
            rel: rel.to_string(),
            kind: Kind::File {
                size: 1,
                executable: false,
            },
        };
        let tree = SkillTree {
            entries: vec![file("references/forms.md"), file("scripts/pack")],
            truncated: false,
        };
        let index = Index::new(&tree);
        // Only `pack` can be a plain word: `forms.md` is never looked up by one.
        assert_eq!(
            (index.name_lengths, index.name_firsts),
            (length_bit(4), first_bit("p"))
        );
        let text = "Run it instead. Then pack. See forms.md. Or a.b, x/y... and `scripts.`";
        let named: Vec<&str> = tokens(text)
            .into_iter()
            .filter(|t| index.may_name(t, TextKind::Prose))
            .map(|t| t.text)
            .collect();
        assert_eq!(named, ["pack.", "forms.md.", "a.b", "x/y...", "scripts."]);
    }
}
