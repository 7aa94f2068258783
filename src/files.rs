//! The files beside a skill file: one bounded walk of the skill directory, shared by the file
//! rules and link checks. Symbolic links are classified, never followed.

use foldhash::HashMap;
use std::path::{Path, PathBuf};

use crate::discover::SkillDir;
use crate::input::{Links, Listing};

/// More entries than this are not listed (the skill is far over SK410's limit anyway).
pub const MAX_ENTRIES: usize = 20_000;
/// At most this many entries of listings are left for the search to reuse (a skill bundling
/// a large `node_modules` is listed again by the search, not held in memory).
const MAX_KEPT: usize = 4096;
/// Directories deeper than this are not entered.
pub const MAX_DEPTH: usize = 32;

/// Where a symbolic link inside the skill points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A file inside the skill, with its size.
    InsideFile(u64),
    /// A directory inside the skill.
    InsideDir,
    /// A FIFO, socket or device inside the skill.
    InsideSpecial,
    /// Somewhere outside the skill directory.
    Outside(PathBuf),
    /// Nowhere.
    Dangling,
}

/// What an entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    File {
        size: u64,
        executable: bool,
    },
    Dir,
    Symlink(LinkTarget),
    /// A FIFO, socket or device.
    Special,
}

/// One entry of the skill directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path relative to the skill root, `/`-separated.
    pub rel: String,
    pub kind: Kind,
}

impl Entry {
    /// The entry's own name.
    pub fn name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }

    /// Whether it is a regular file, or a symlink to one inside the skill.
    pub fn is_file(&self) -> bool {
        matches!(
            self.kind,
            Kind::File { .. } | Kind::Symlink(LinkTarget::InsideFile(_))
        )
    }
}

/// The listing of a skill directory.
#[derive(Debug, Default)]
pub struct SkillTree {
    /// Entries sorted by path.
    pub entries: Vec<Entry>,
    /// The walk stopped at [`MAX_ENTRIES`] or skipped directories below [`MAX_DEPTH`].
    pub truncated: bool,
}

impl SkillTree {
    /// Lists `root` (the skill directory, canonical).
    pub fn walk(root: &Path) -> SkillTree {
        SkillTree::build(root, None, None)
    }

    /// Lists `root` (the skill directory, canonical), taking `top` as its listing when it was
    /// read already (by the search that found the skill); the listings of the directories
    /// below it are left in `keep`, by path, when given (for the search, which goes on into
    /// them: each directory is read once).
    pub fn build(
        root: &Path,
        top: Option<&Listing>,
        mut keep: Option<&mut HashMap<PathBuf, Listing>>,
    ) -> SkillTree {
        let mut tree = SkillTree::default();
        let mut stack = vec![(root.to_path_buf(), String::new(), 0usize)];
        let mut children: Vec<(String, usize)> = Vec::new();
        let mut kept = 0;
        while let Some((dir, prefix, depth)) = stack.pop() {
            let read = match top.filter(|_| depth == 0) {
                Some(_) => None,
                None => match Listing::read(&dir, usize::MAX) {
                    Ok(listing) => Some(listing),
                    Err(_) => continue,
                },
            };
            let Some(listing) = read.as_ref().or(top) else {
                continue;
            };
            // Each name as its path in the skill, made once.
            children.clear();
            children.extend(listing.items.iter().enumerate().map(|(i, item)| {
                let name = item.name.to_string_lossy();
                let mut rel = String::with_capacity(prefix.len() + 1 + name.len());
                if !prefix.is_empty() {
                    rel.push_str(&prefix);
                    rel.push('/');
                }
                rel.push_str(&name);
                (rel, i)
            }));
            children.sort_by(|a, b| a.0.cmp(&b.0));
            // Whether a look at an entry succeeded: a directory that can be listed but not
            // entered (no `x`) lists names that cannot be looked at, and they are skipped.
            let mut entered = false;
            for (rel, i) in children.drain(..) {
                if tree.entries.len() >= MAX_ENTRIES {
                    tree.truncated = true;
                    break;
                }
                let item = &listing.items[i];
                // A directory listed is one (only a directory can be mounted over it): it needs
                // no look once a look inside this directory succeeded. Anything else is looked
                // at, for its size and mode, and for its type (a file mounted over a name).
                let Some(file_type) = item.file_type else {
                    continue;
                };
                let kind = if file_type.is_dir() && entered {
                    Kind::Dir
                } else {
                    let Some(meta) = item.metadata() else {
                        continue;
                    };
                    entered = true;
                    if meta.is_symlink() {
                        Kind::Symlink(classify_link(&dir.join(&item.name), root))
                    } else if meta.is_dir() {
                        Kind::Dir
                    } else if meta.is_file() {
                        Kind::File {
                            size: meta.len(),
                            executable: is_executable(meta),
                        }
                    } else {
                        Kind::Special
                    }
                };
                if kind == Kind::Dir && item.name != ".git" {
                    if depth + 1 < MAX_DEPTH {
                        stack.push((dir.join(&item.name), rel.clone(), depth + 1));
                    } else {
                        tree.truncated = true;
                    }
                }
                tree.entries.push(Entry { rel, kind });
            }
            if let (Some(mut listing), Some(keep)) = (read, keep.as_deref_mut())
                && kept + listing.items.len() <= MAX_KEPT
            {
                kept += listing.items.len();
                listing.detach();
                keep.insert(dir, listing);
            }
        }
        tree.entries.sort_by(|a, b| a.rel.cmp(&b.rel));
        tree
    }

    /// Whether a relative path (normalised, `/`-separated) exists in the skill: looked up in the
    /// listing, then on disk for what the listing cannot show (paths through symlinked
    /// directories, truncated walks).
    pub fn contains(&self, root: &Path, rel: &str) -> bool {
        self.entries
            .binary_search_by(|e| e.rel.as_str().cmp(rel))
            .is_ok()
            || std::fs::metadata(root.join(rel)).is_ok()
    }

    /// The directories (relative, ending in `/`) of the skill files nested in the skill, as
    /// discovery finds them (not through the directories it never searches): each is a skill
    /// of its own (SK016), which reports its own files.
    pub fn nested_roots(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter(|e| e.kind != Kind::Dir && e.name().eq_ignore_ascii_case("skill.md"))
            .filter_map(|e| e.rel.strip_suffix(e.name()))
            .filter(|root| {
                !root.is_empty()
                    && !root
                        .split('/')
                        .any(|part| crate::discover::is_skipped_dir(std::ffi::OsStr::new(part)))
            })
            .map(str::to_string)
            .collect()
    }

    /// Regular files (and symlinks to files inside the skill): count and total size.
    pub fn totals(&self) -> (usize, u64) {
        self.entries
            .iter()
            .fold((0, 0), |(count, size), e| match e.kind {
                Kind::File { size: s, .. } | Kind::Symlink(LinkTarget::InsideFile(s)) => {
                    (count + 1, size + s)
                }
                _ => (count, size),
            })
    }
}

/// Where the symbolic link at `path` leads relative to `root` (canonical).
pub fn classify_link(path: &Path, root: &Path) -> LinkTarget {
    let Ok(target) = std::fs::canonicalize(path) else {
        return LinkTarget::Dangling;
    };
    if !target.starts_with(root) {
        return LinkTarget::Outside(std::fs::read_link(path).unwrap_or(target));
    }
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => LinkTarget::InsideDir,
        Ok(meta) if meta.is_file() => LinkTarget::InsideFile(meta.len()),
        Ok(_) => LinkTarget::InsideSpecial,
        Err(_) => LinkTarget::Dangling,
    }
}

/// Whether any execute bit is set.
#[cfg(unix)]
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
pub fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

/// Whether renaming the skill file `file` of `dir` could break something: a symbolic link in
/// the skill leads to it, or a Markdown file of the skill (or of the skill it is nested in)
/// names it — a link to it would then lead nowhere. `tree` is the skill's, when it was listed
/// already. The skill file's own text is [`mentions_own_name`]'s.
pub fn rename_breaks(dir: &SkillDir, file: &Path, tree: Option<&SkillTree>) -> bool {
    rename_breaks_among(dir, file, tree, &[]).0
}

/// [`rename_breaks`], the texts of the skill's files other rules read already given in `read`
/// (by path from the skill's root): each other Markdown file is read here, once, and its text
/// returned with the answer (by path from the root), for the rules that read the skill's files
/// after this one. A file over [`crate::input::TEXT_READ`] bytes is not searched.
pub fn rename_breaks_among(
    dir: &SkillDir,
    file: &Path,
    tree: Option<&SkillTree>,
    read: &[(&str, &str)],
) -> (bool, Vec<(String, String)>) {
    let walked;
    let tree = match tree {
        Some(tree) => tree,
        None => {
            walked = SkillTree::walk(&dir.real_path());
            &walked
        }
    };
    let mut texts = Vec::new();
    if linked_from_skill(dir, file, tree) {
        return (true, texts);
    }
    let Some(name) = file.file_name().and_then(|n| n.to_str()) else {
        return (true, texts);
    };
    let names = |text: &[u8]| memchr::memmem::find(text, name.as_bytes()).is_some();
    // A Markdown file under `root` (listed in `tree`) that names it.
    let markdown = |tree: &SkillTree| {
        tree.entries
            .iter()
            .filter(|e| e.is_file() && e.rel.to_ascii_lowercase().ends_with(".md"))
            .take(1000)
            .map(|e| e.rel.clone())
            .collect::<Vec<_>>()
    };
    let root = dir.real_path();
    let mut breaks = false;
    for rel in markdown(tree) {
        if rel == name {
            continue;
        }
        if let Some((_, text)) = read.iter().find(|(r, _)| *r == rel) {
            breaks = names(text.as_bytes());
        } else if let Ok(bytes) =
            crate::input::read_bounded(&root.join(&rel), crate::input::TEXT_READ, Links::Refuse)
        {
            breaks = names(&bytes);
            texts.push((rel, crate::input::text_lossy(bytes)));
        }
        if breaks {
            return (true, texts);
        }
    }
    let outer = dir.nested_in().is_some_and(|outer| {
        markdown(&SkillTree::walk(outer)).iter().any(|rel| {
            crate::input::read_bounded(&outer.join(rel), crate::input::TEXT_READ, Links::Refuse)
                .is_ok_and(|bytes| names(&bytes))
        })
    });
    (outer, texts)
}

/// Whether the text of the skill file `file` names the file itself (a link to itself).
pub fn mentions_own_name(file: &Path, text: &[u8]) -> bool {
    file.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| memchr::memmem::find(text, name.as_bytes()).is_some())
}

/// Whether a symbolic link in the skill of `dir` leads to the skill file `file` (renaming it
/// would leave the link dangling).
fn linked_from_skill(dir: &SkillDir, file: &Path, tree: &SkillTree) -> bool {
    let Ok(real) = std::fs::canonicalize(file) else {
        return false;
    };
    let root = dir.real_path();
    tree.entries
        .iter()
        .filter(|e| matches!(e.kind, Kind::Symlink(_)))
        .any(|e| std::fs::canonicalize(root.join(&e.rel)).is_ok_and(|to| to == real))
}

/// Whether two paths name one file (a rename that changes only the case of a name, on a file
/// system that ignores case).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::symlink_metadata(a), std::fs::symlink_metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        a.to_string_lossy()
            .eq_ignore_ascii_case(&b.to_string_lossy())
    }
}
