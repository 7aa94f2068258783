//! The search of one root directory for skill directories. The walk is ours (not the `ignore`
//! crate's) so that it can promise to end: it visits each real directory at most once, follows
//! a symbolic link only to a directory inside the search root (unless asked to leave it), and
//! stops at a depth and an entry budget. It enters skill directories too: a skill file below
//! another skill's directory is a skill of its own (SK016), and a directory whose only skill file
//! is in another case (`SKILL.MD`) is a skill at that file (SK017).

use foldhash::{HashMap, HashMapExt, HashSet};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::FileType;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::ignore_files::{Ignores, Present, Rules};
use super::{
    Nearest, Options, Real, SKILL_FILE_NAMES, Tier, absolute, clean, is_file_or_dangling,
    is_other_case, skill_file_in, tier_of, with_folder,
};
use crate::config::Settings;
use crate::input::{Item, Listed, Listing};

/// Directories never searched.
const SKIPPED_DIRS: &[&str] = &[".git", "node_modules", "target", "__pycache__", ".venv"];

/// The directories of [`SKIPPED_DIRS`] that may be skills (a skill may be named `target`).
const SKIPPED_SKILL_NAMES: &[&str] = &["node_modules", "target", "__pycache__", ".venv"];

/// The prefix of the temporary directories `skillc unpack` works in; one left behind by a
/// killed run is not a skill of the repository.
pub const UNPACK_TEMP_PREFIX: &str = ".skillc-unpack-";

/// How many directories deep below a search root the walk goes.
pub const MAX_DEPTH: usize = 64;

/// How many directory entries one search lists before it gives up.
pub const MAX_ENTRIES: usize = 2_000_000;

/// What a directory's listing shows the walk.
struct Shown {
    /// Its subdirectories and links (not the skipped ones), as indices into the listing,
    /// sorted by name.
    dirs: Vec<usize>,
    /// The ignore files it holds.
    present: Present,
    /// Its first file named like a skill file in another case (`SKILL.MD`).
    other_case: Option<OsString>,
    /// Its skill file by its exact name, when it has one.
    skill_file: Option<&'static str>,
    listed: Listed,
    /// It lists a `.git` (of any type): it may be a repository's root.
    git: bool,
}

/// What the search lends the one it hands a skill to, when the skill was found by its
/// directory's listing: that listing, and a place for the listings of the directories below
/// it that the skill's own walk reads, which the search then takes instead of reading them
/// again.
pub struct Lent<'a> {
    pub listing: &'a Listing,
    pub below: &'a mut HashMap<PathBuf, Listing>,
}

/// A skill found.
#[derive(Debug)]
pub struct Found {
    /// Its directory as displayed.
    pub dir: Arc<Path>,
    pub file: Arc<Path>,
    /// Its real directory.
    pub real: Real,
    pub tier: Tier,
    pub listed: Listed,
    /// The nearest skill above it (SK016), as the walk saw the directories it listed.
    pub above: Nearest,
}

/// What identifies a directory, whatever path reaches it: a real path is not enough, since a
/// bind mount gives one directory two.
#[cfg(unix)]
type Key = (u64, u64);
#[cfg(not(unix))]
type Key = PathBuf;

#[cfg(unix)]
fn key_of(meta: &std::fs::Metadata, _path: &Path) -> Option<Key> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn key_of(_meta: &std::fs::Metadata, path: &Path) -> Option<Key> {
    path.canonicalize().ok()
}

/// The directories searched, by [`Key`]. A search of a registry lists one directory per skill
/// and more: on Unix the inode numbers are kept per device (almost always one), 8 bytes a
/// directory rather than 16.
#[derive(Default)]
struct Visited {
    #[cfg(unix)]
    by_device: HashMap<u64, HashSet<u64>>,
    #[cfg(not(unix))]
    keys: HashSet<Key>,
}

impl Visited {
    /// Adds `key`; `false` when it was there already.
    #[cfg(unix)]
    fn insert(&mut self, (dev, ino): Key) -> bool {
        self.by_device.entry(dev).or_default().insert(ino)
    }

    #[cfg(unix)]
    fn contains(&self, (dev, ino): &Key) -> bool {
        self.by_device
            .get(dev)
            .is_some_and(|inodes| inodes.contains(ino))
    }

    #[cfg(not(unix))]
    fn insert(&mut self, key: Key) -> bool {
        self.keys.insert(key)
    }

    #[cfg(not(unix))]
    fn contains(&self, key: &Key) -> bool {
        self.keys.contains(key)
    }
}

/// A directory still to be searched.
struct Pending {
    /// The path as displayed (relative to the current directory when the root is).
    path: PathBuf,
    /// The path below the canonical root, as the walk reached it (ignore globs match this).
    abs: PathBuf,
    depth: usize,
    /// The ignore rules of its parent directory.
    rules: Rules,
    /// Its real path (no symbolic links): the real root, or a link's resolved target, joined
    /// with the names of the directories below it (no system call per directory).
    real: PathBuf,
    key: Option<Key>,
    /// Whether it holds a skill file by its exact name, when that was settled before it was
    /// listed (links, which are found at their own path; the root, which discovery handles, is
    /// `Some(true)` whatever it holds); `None`: its listing says.
    skill: Option<bool>,
    /// It is a skill directory or lies below one (its links out are the skill's SK408, not
    /// a warning of the search).
    in_skill: bool,
    /// The nearest skill directory above it (see [`Nearest`]).
    above: Nearest,
}

/// What the search's stack holds: a directory to search, or the subdirectories of one still to
/// search. A registry's folder holds 60,000 skill directories: each waits as its name and
/// identity, made a [`Pending`] (three paths) only when its turn comes.
enum Next {
    Dir(Pending),
    Children(Box<Children>),
}

/// The subdirectories of a directory still to search, the next one last.
struct Children {
    /// The directory listed (its paths, depth and what lies above it).
    parent: Pending,
    /// Its ignore rules, what its subdirectories have above them, and whether they lie in
    /// a skill.
    rules: Rules,
    in_skill: bool,
    above: Nearest,
    left: Vec<Identity>,
}

/// A subdirectory's name and identity, known or looked at when its turn comes: a registry's
/// folder lists 60,000 skill directories, and looking at each before the first is searched
/// kept the workers idle for the first fifth of a second.
enum Identity {
    Known(Box<std::ffi::OsStr>, Option<Key>),
    /// The listing's entry, to look through (its name is in it). It keeps its folder open
    /// until the last of them is taken: one folder per level of the walk, at most
    /// [`MAX_DEPTH`].
    Later(std::fs::DirEntry),
}

impl Children {
    /// The subdirectory `identity` names, to search.
    fn pending(&self, identity: Identity) -> Pending {
        let dir = &self.parent;
        let (name, look) = match identity {
            Identity::Known(name, key) => (std::ffi::OsString::from(name), Ok(key)),
            Identity::Later(entry) => (entry.file_name(), Err(entry)),
        };
        let name = name.as_os_str();
        let path = if dir.path == Path::new(".") {
            PathBuf::from(name)
        } else {
            dir.path.join(name)
        };
        // Through the listing's own handle (no lookup of the whole path).
        let key =
            look.unwrap_or_else(|entry| entry.metadata().ok().and_then(|m| key_of(&m, &path)));
        Pending {
            path,
            abs: dir.abs.join(name),
            depth: dir.depth + 1,
            rules: self.rules.clone(),
            real: dir.real.join(name),
            key,
            skill: None,
            in_skill: self.in_skill,
            above: self.above.clone(),
        }
    }
}

struct Walker<'a> {
    settings: &'a Settings,
    cwd: &'a Path,
    base: &'a Arc<Path>,
    user_root: Option<&'a Path>,
    options: Options,
    ignores: Option<&'a Ignores>,
    /// The config's `exclude` applies below the root: not when it matches the root itself, a
    /// PATH named on the command line (`validate fixtures/ok` with `exclude = ["fixtures"]`),
    /// which is searched because it was asked for, as ruff does.
    exclude: bool,
    root: &'a Path,
    root_real: PathBuf,
    /// What the root's subdirectories have above them.
    root_above: Nearest,
    visited: Visited,
    /// Links to directories, searched after every directory reachable without links (so a
    /// skill is found at its path without symlink components when there is one), in path order.
    links: BTreeMap<PathBuf, Pending>,
    entries: usize,
    max_entries: usize,
    stopped: bool,
    too_deep: bool,
    on_found: &'a mut dyn FnMut(Found, Option<Lent>),
    /// The listings read by the walk of the skill whose directory is `lent_root`, for the
    /// directories below it not searched yet.
    lent: HashMap<PathBuf, Listing>,
    lent_root: Option<PathBuf>,
    warnings: &'a mut Vec<String>,
}

/// Whether `dir/name` is short enough for the system to open by path (`PATH_MAX`): a
/// look through a directory's handle would find a file that no later read by path can open.
#[cfg(unix)]
fn openable(dir: &Path, name: &str) -> bool {
    dir.as_os_str().len() + 1 + name.len() < libc::PATH_MAX as usize
}

#[cfg(not(unix))]
fn openable(_dir: &Path, _name: &str) -> bool {
    false
}

/// Hands each skill directory below `root` (not `root` itself), with its skill file and real
/// path, to `found` as soon as it is found: mostly in path order, but a skill at a symbolic
/// link or past the depth limit comes when its parent is listed, and the skills below a link
/// come last. Nothing is kept: the caller keeps what it needs. Problems met go to `warnings`.
pub fn walk(
    root: &Path,
    context: Context,
    found: &mut dyn FnMut(Found, Option<Lent>),
    warnings: &mut Vec<String>,
) {
    walk_within(root, &context, MAX_ENTRIES, found, warnings)
}

/// What a walk needs besides its root.
pub struct Context<'a> {
    pub settings: &'a Settings,
    pub cwd: &'a Path,
    /// The real current directory (see [`Real`]).
    pub base: &'a Arc<Path>,
    /// The user tier's skill folder, when there is one.
    pub user_root: Option<&'a Path>,
    pub options: Options,
    pub ignores: Option<&'a Ignores>,
    /// The [`Nearest`] of the root's subdirectories: what lies above them, the root included.
    pub above: Nearest,
}

/// [`walk`], listing at most `max_entries` directory entries.
fn walk_within(
    root: &Path,
    context: &Context,
    max_entries: usize,
    on_found: &mut dyn FnMut(Found, Option<Lent>),
    warnings: &mut Vec<String>,
) {
    let Context {
        settings,
        cwd,
        base,
        user_root,
        options,
        ignores,
        ref above,
    } = *context;
    let (root_real, meta) = match root.canonicalize().and_then(|real| {
        let meta = std::fs::metadata(&real)?;
        Ok((real, meta))
    }) {
        Ok(found) => found,
        Err(err) => {
            warnings.push(format!("skipping `{}`: {err}", shown(root)));
            return;
        }
    };
    let rules = ignores.and_then(|ignores| ignores.parents(&root_real, warnings));
    let start = Pending {
        path: root.to_path_buf(),
        abs: root_real.clone(),
        depth: 0,
        rules,
        real: root_real.clone(),
        key: key_of(&meta, &root_real),
        skill: Some(true),
        in_skill: skill_file_in(root).is_some(),
        // The root's own skill is discovery's: the walk needs only what its subdirectories
        // have above them (`root_above`).
        above: Nearest::default(),
    };
    let mut walker = Walker {
        settings,
        cwd,
        base,
        user_root,
        options,
        ignores,
        exclude: true,
        root,
        root_real,
        root_above: above.clone(),
        visited: Visited::default(),
        links: BTreeMap::new(),
        entries: 0,
        max_entries,
        stopped: false,
        too_deep: false,
        on_found,
        lent: HashMap::new(),
        lent_root: None,
        warnings,
    };
    walker.exclude = !walker.excluded(root);
    walker.search(start);
    while let Some((_, link)) = walker.links.pop_first() {
        walker.search(link);
    }
}

impl Walker<'_> {
    /// Searches `start` and the real directories below it, depth first.
    fn search(&mut self, start: Pending) {
        let mut stack = vec![Next::Dir(start)];
        while let Some(next) = stack.pop() {
            let dir = match next {
                Next::Dir(dir) => dir,
                Next::Children(mut children) => {
                    let Some(identity) = children.left.pop() else {
                        continue;
                    };
                    let dir = children.pending(identity);
                    if !children.left.is_empty() {
                        stack.push(Next::Children(children));
                    }
                    dir
                }
            };
            // A directory not listed — the search stopped, it was reached before (a bind
            // mount), or it cannot be listed — is still a skill when its skill file is there by
            // name, as its parent's listing promised.
            if self.stopped {
                self.skill_unlisted(&dir);
                continue;
            }
            if let Some(key) = dir.key
                && !self.visited.insert(key)
            {
                self.skill_unlisted(&dir);
                continue;
            }
            let Some((mut listing, shown)) = self.list(&dir) else {
                self.skill_unlisted(&dir);
                continue;
            };
            // A directory's skill file is seen in its own listing (no look of its own).
            let skill = dir.skill.unwrap_or_else(|| match shown.skill_file {
                Some(name) => {
                    let file = clean(&dir.path.join(name));
                    let found = (file, shown.listed, dir.above.clone());
                    self.record(&dir.path, found, &dir.real, Some(&listing));
                    true
                }
                None => false,
            });
            if !skill && let Some(name) = shown.other_case {
                let file = clean(&dir.path.join(name));
                let found = (file, shown.listed, dir.above.clone());
                self.record(&dir.path, found, &dir.real, Some(&listing));
            }
            // What its subdirectories have above them: it, when it holds a skill file (the
            // root's is settled by discovery), and it bounds the search when it is a
            // repository's root (a `.git` that a look reaches).
            let below = if dir.depth == 0 {
                self.root_above.clone()
            } else {
                let git = shown.git && dir.path.join(".git").exists();
                let folder = || absolute(self.cwd, &dir.path).into();
                with_folder(folder, skill, git, &dir.above)
            };
            // The root's and a link's `in_skill` counts their own skill file already.
            let in_skill = dir.in_skill || (dir.skill.is_none() && skill);
            let rules = match self.ignores {
                Some(ignores) => ignores.child(
                    &dir.rules,
                    &dir.abs,
                    &dir.path,
                    shown.present,
                    self.warnings,
                ),
                None => None,
            };
            let mut left = Vec::new();
            for i in shown.dirs {
                let Some(item) = listing.items.get(i) else {
                    continue;
                };
                let (name, Some(file_type)) = (&item.name, item.file_type) else {
                    continue;
                };
                let path = if dir.path == Path::new(".") {
                    PathBuf::from(name)
                } else {
                    dir.path.join(name)
                };
                let abs = dir.abs.join(name);
                let depth = dir.depth + 1;
                if file_type.is_symlink() && !self.leads_to_dir(&path, in_skill) {
                    continue;
                }
                if self
                    .ignores
                    .is_some_and(|ignores| ignores.is_ignored(&rules, &abs, true))
                    || self.excluded(&path)
                {
                    continue;
                }
                if file_type.is_symlink() {
                    self.link(path, abs, depth, &rules, in_skill, &below);
                    continue;
                }
                if self.deep(&path, depth) {
                    // Not searched, but a skill all the same.
                    self.skill_at(&path, &dir.real.join(name), &below);
                    continue;
                }
                // The directory's identity, from the listing's own handle when its turn comes.
                let identity = match listing.items.get_mut(i).and_then(Item::take_handle) {
                    Some(entry) => Identity::Later(entry),
                    None => match listing.items.get(i) {
                        Some(item) => Identity::Known(
                            item.name.as_os_str().into(),
                            item.metadata().and_then(|m| key_of(m, &path)),
                        ),
                        None => continue,
                    },
                };
                left.push(identity);
            }
            if !left.is_empty() {
                // Reversed, so that they are taken in name order.
                left.reverse();
                stack.push(Next::Children(Box::new(Children {
                    parent: dir,
                    rules,
                    in_skill,
                    above: below,
                    left,
                })));
            }
        }
    }

    /// Records the skill of a directory that is not listed, unless it was settled already.
    fn skill_unlisted(&mut self, dir: &Pending) {
        if dir.skill.is_none() {
            self.skill_at(&dir.path, &dir.real, &dir.above);
        }
    }

    /// Whether `path` (real path `real`, below the directories of `above`) holds a skill file
    /// by its exact name; records it.
    fn skill_at(&mut self, path: &Path, real: &Path, above: &Nearest) -> bool {
        let Some(file) = skill_file_in(path) else {
            return false;
        };
        self.record(path, (file, Listed::default(), above.clone()), real, None);
        true
    }

    /// Records the skill in `dir` (real path `real`) — its skill file, what its listing
    /// showed and what lies above it — and hands it over at once, lending the directory's
    /// listing when it was read.
    fn record(
        &mut self,
        dir: &Path,
        (file, listed, above): (PathBuf, Listed, Nearest),
        real: &Path,
        listing: Option<&Listing>,
    ) {
        let dir = clean(dir);
        let found = Found {
            real: Real::of(real, &dir, self.base),
            tier: tier_of(real, self.user_root),
            dir: dir.into(),
            file: file.into(),
            listed,
            above,
        };
        let lent = listing.map(|listing| {
            // Listings lent before are kept only while the walk is below their skill.
            if self
                .lent_root
                .as_ref()
                .is_none_or(|root| !real.starts_with(root))
            {
                self.lent.clear();
                self.lent_root = Some(real.to_path_buf());
            }
            Lent {
                listing,
                below: &mut self.lent,
            }
        });
        (self.on_found)(found, lent);
    }

    /// The listing of `dir`: the one a skill's walk read already, else read now (with a
    /// warning when it cannot be); what it shows the walk. `None` also when the walk's entry
    /// budget runs out in it.
    fn list(&mut self, dir: &Pending) -> Option<(Listing, Shown)> {
        let listing = match self.lent(&dir.real) {
            Some(listing) => listing,
            None => {
                let budget = self.max_entries.saturating_sub(self.entries);
                match Listing::read(&dir.path, budget.saturating_add(1)) {
                    Ok(listing) => listing,
                    Err(err) => {
                        self.warnings
                            .push(format!("skipping `{}`: {err}", shown(&dir.path)));
                        return None;
                    }
                }
            }
        };
        let in_skills_folder = dir.abs.file_name().is_some_and(|name| name == "skills");
        let shown = self.show(&dir.path, &listing, in_skills_folder)?;
        Some((listing, shown))
    }

    /// The lent listing of the directory at `real`, if any; leaving the lending skill's
    /// directory lets go of the rest.
    fn lent(&mut self, real: &Path) -> Option<Listing> {
        let root = self.lent_root.as_ref()?;
        if !real.starts_with(root) {
            self.lent.clear();
            self.lent_root = None;
            return None;
        }
        self.lent.remove(real)
    }

    /// Counts one directory entry against the search's budget; `false` (with a warning, and
    /// the search stopped) when it is over.
    fn count_entry(&mut self) -> bool {
        self.entries += 1;
        if self.entries <= self.max_entries {
            return true;
        }
        self.warnings.push(format!(
            "stopped searching `{}` after {} directory entries (pass a narrower PATH)",
            shown(self.root),
            self.max_entries
        ));
        self.stopped = true;
        false
    }

    /// What `listing` (of `dir`) shows the walk; `None` when the entry budget runs out in it.
    /// In a folder named `skills` (a runtime's, `.claude/skills`, or a plugin's), a directory
    /// skipped by name that holds a skill file is a skill a runtime loads: it is searched.
    fn show(&mut self, dir: &Path, listing: &Listing, in_skills_folder: bool) -> Option<Shown> {
        let mut present = Present::default();
        let mut entries: Vec<usize> = Vec::new();
        let mut other_case: Option<&OsString> = None;
        // Each skill file name's listed type, and whether it is searched further.
        let mut exact: [Option<(FileType, Option<usize>)>; SKILL_FILE_NAMES.len()] =
            Default::default();
        let mut listed = Listed::NEITHER;
        let mut git = false;
        for (i, item) in listing.items.iter().enumerate() {
            if !self.count_entry() {
                return None;
            }
            let name = &item.name;
            present.note(name);
            git |= name == ".git";
            let Some(file_type) = item.file_type else {
                listed = Listed::default();
                continue;
            };
            listed.note(name, file_type);
            let skill_name = SKILL_FILE_NAMES.iter().position(|n| name == *n);
            if !file_type.is_dir()
                && let Some(text) = name.to_str()
                && is_other_case(text)
                && other_case.is_none_or(|first| name < first)
            {
                other_case = Some(name);
            }
            let searched = file_type.is_dir() || file_type.is_symlink();
            if !searched || (is_skipped(name) && !self.skipped_skill(dir, name, in_skills_folder)) {
                if let Some(n) = skill_name {
                    exact[n] = Some((file_type, Some(i)));
                }
                continue;
            }
            if let Some(n) = skill_name {
                exact[n] = Some((file_type, None));
            }
            entries.push(i);
        }
        // The error that ended the listing counts as an entry, as it did when the walk read
        // the listing entry by entry.
        if let Some(err) = &listing.error {
            if !self.count_entry() {
                return None;
            }
            self.warnings
                .push(format!("skipping part of `{}`: {err}", shown(dir)));
            listed = Listed::default();
        }
        entries.sort_by(|&a, &b| listing.items[a].name.cmp(&listing.items[b].name));
        // The first name listed that `skill_file_in` takes: a regular file, or a link to one or
        // to nothing (SK408). One look decides it: a directory that can be listed but not
        // entered (no `x`) lists names that cannot be reached, and a name's listed type is not
        // always what a look sees (a file mounted over it). Only a directory stays one.
        // A name listed as a regular file is looked at through the listing's own handle (no
        // lookup of the whole path) when its path can be opened; a link, or a path too long to
        // open (which is then no skill file, as every other file there), is looked at by path.
        let skill_file = SKILL_FILE_NAMES
            .iter()
            .zip(exact)
            .find(|(name, listed_as)| match listed_as {
                Some((file_type, _)) if file_type.is_dir() => false,
                Some((_, Some(i))) if openable(dir, name) => listing.items[*i]
                    .metadata()
                    .is_some_and(|meta| meta.is_file()),
                Some(_) => is_file_or_dangling(&dir.join(name)),
                None => false,
            })
            .map(|(name, _)| *name);
        // What the listing shows is reachable only when a look inside succeeded.
        if skill_file.is_none() {
            listed = Listed::default();
        }
        Some(Shown {
            dirs: entries,
            present,
            other_case: other_case.cloned(),
            skill_file,
            listed,
            git,
        })
    }

    /// Whether the directory `dir/name`, skipped by its name, is searched all the same: a
    /// tool or dependency directory (not `.git`, not an unpack temp directory) that holds a
    /// skill file, in a `skills` folder. Elsewhere such a skill is skipped with a warning
    /// (runtimes load no skill from there, but it is not hidden silently).
    fn skipped_skill(
        &mut self,
        dir: &Path,
        name: &std::ffi::OsStr,
        in_skills_folder: bool,
    ) -> bool {
        if !SKIPPED_SKILL_NAMES.iter().any(|n| name == *n) {
            return false;
        }
        let path = dir.join(name);
        if skill_file_in(&path).is_none() {
            return false;
        }
        if in_skills_folder {
            return true;
        }
        self.warnings.push(format!(
            "skipping `{}`: it holds a skill file, but a search never enters `{}` directories outside a `skills` folder (pass it as a PATH to check it)",
            shown(&clean(&path)),
            name.to_string_lossy()
        ));
        false
    }

    /// A symbolic link to a directory: a skill, a directory to search later (once), or a way
    /// out of the root that is not taken (quietly inside a skill, whose SK408 reports it).
    fn link(
        &mut self,
        path: PathBuf,
        abs: PathBuf,
        depth: usize,
        rules: &Rules,
        in_skill: bool,
        above: &Nearest,
    ) {
        let Ok(real) = path.canonicalize() else {
            return;
        };
        if !self.options.follow_links && !real.starts_with(&self.root_real) {
            if in_skill {
                return;
            }
            self.warnings.push(format!(
                "skipping `{}`: a symbolic link to `{}`, outside `{}` (pass it as a PATH, or use --follow-links)",
                shown(&path),
                shown(&real),
                shown(self.root)
            ));
            return;
        }
        let skill = self.skill_at(&path, &real, above);
        if self.deep(&path, depth) {
            return;
        }
        let key = std::fs::metadata(&real)
            .ok()
            .and_then(|m| key_of(&m, &real));
        if key.as_ref().is_some_and(|k| self.visited.contains(k)) {
            return;
        }
        self.links.entry(path.clone()).or_insert(Pending {
            path,
            abs,
            depth,
            rules: rules.clone(),
            real,
            key,
            skill: Some(skill),
            in_skill: skill || in_skill,
            above: above.clone(),
        });
    }

    /// Whether the link `path` leads to a directory; a dangling link is passed over quietly,
    /// one that cannot be resolved (a loop of links, or more than the system resolves in one
    /// path) with a warning, unless it is in a skill (whose SK408 reports it).
    fn leads_to_dir(&mut self, path: &Path, in_skill: bool) -> bool {
        match std::fs::metadata(path) {
            Ok(meta) => meta.is_dir(),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound || in_skill => false,
            Err(err) => {
                self.warnings
                    .push(format!("skipping `{}`: {err}", shown(path)));
                false
            }
        }
    }

    /// Whether `path` is below the depth limit (warned about once per search).
    fn deep(&mut self, path: &Path, depth: usize) -> bool {
        if depth <= MAX_DEPTH {
            return false;
        }
        if !self.too_deep {
            self.too_deep = true;
            self.warnings.push(format!(
                "skipping `{}` and anything else more than {MAX_DEPTH} directories below `{}`",
                shown(path),
                shown(self.root)
            ));
        }
        true
    }

    /// Whether the config's `exclude` globs match `path`.
    fn excluded(&self, path: &Path) -> bool {
        let exclude = &self.settings.exclude;
        self.exclude
            && !exclude.is_empty()
            && absolute(self.cwd, path)
                .strip_prefix(&self.settings.base)
                .is_ok_and(|rel| exclude.is_match(rel))
    }
}

/// Directories skipped by name: tool and dependency directories, and skillc's own temporary
/// directories.
pub fn is_skipped(name: &std::ffi::OsStr) -> bool {
    let name = name.to_str().unwrap_or("");
    SKIPPED_DIRS.contains(&name) || name.starts_with(UNPACK_TEMP_PREFIX)
}

/// A path for a warning line (the CLI escapes warnings when it prints them).
fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skills a walk of `root` listing at most `budget` entries finds (relative to `root`),
    /// sorted, and its warnings.
    fn walk_with_budget(root: &Path, budget: usize) -> (Vec<PathBuf>, Vec<String>) {
        let (mut found, warnings) = walk_in_order(root, budget);
        found.sort();
        (found, warnings)
    }

    /// The skills a walk of `root` listing at most `budget` entries finds (relative to `root`),
    /// in the order found, and its warnings.
    fn walk_in_order(root: &Path, budget: usize) -> (Vec<PathBuf>, Vec<String>) {
        let settings = Settings::default();
        let base: Arc<Path> = root.into();
        let context = Context {
            settings: &settings,
            cwd: root,
            base: &base,
            user_root: None,
            options: Options::default(),
            ignores: None,
            above: Nearest::default(),
        };
        let mut warnings = Vec::new();
        let mut found = Vec::new();
        walk_within(
            root,
            &context,
            budget,
            &mut |f, _| found.push(f.dir.strip_prefix(root).unwrap().to_path_buf()),
            &mut warnings,
        );
        (found, warnings)
    }

    /// A folder's subdirectories wait as names until their turn ([`Children`]): the skills
    /// still come in name order, depth first, each subdirectory's before the next one's.
    #[test]
    fn the_subdirectories_of_a_folder_are_searched_in_name_order_depth_first() {
        let tmp = tempfile::tempdir().unwrap();
        for dir in ["c/skills/y", "a", "b/x", "c/skills/x", "a/nested", "d"] {
            let dir = tmp.path().join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        }
        std::fs::create_dir_all(tmp.path().join("b/empty")).unwrap();
        let (found, _) = walk_in_order(tmp.path(), MAX_ENTRIES);
        let want = ["a", "a/nested", "b/x", "c/skills/x", "c/skills/y", "d"];
        assert_eq!(found, want.map(PathBuf::from));
    }

    #[test]
    fn the_entry_budget_stops_the_walk_with_a_warning() {
        let tmp = tempfile::tempdir().unwrap();
        for name in ["a", "b", "c", "d"] {
            let dir = tmp.path().join(name).join("s");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        }
        let root = tmp.path();
        let (found, warnings) = walk_with_budget(root, 8);
        // The root lists 4 entries, `a` and `b` one each (their skill), and each skill one (its
        // skill file: skills are searched for nested ones); `c`'s would be the 9th.
        assert_eq!(found, [PathBuf::from("a/s"), PathBuf::from("b/s")]);
        assert_eq!(
            warnings,
            [format!(
                "stopped searching `{}` after 8 directory entries (pass a narrower PATH)",
                root.display()
            )]
        );
    }

    #[test]
    fn a_search_stopped_by_the_budget_still_finds_the_skills_already_listed() {
        // The root lists `aa`, `big` and `zz` (3 entries), `aa` its skill file (4); `big`'s
        // listing passes the budget; `zz`, listed by the root but never searched, is a skill
        // by its skill file's name, as it was before listings decided.
        let tmp = tempfile::tempdir().unwrap();
        for name in ["aa", "zz"] {
            let dir = tmp.path().join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        }
        let big = tmp.path().join("big");
        std::fs::create_dir_all(&big).unwrap();
        for i in 0..5 {
            std::fs::write(big.join(format!("f{i}")), "").unwrap();
        }
        let (found, warnings) = walk_with_budget(tmp.path(), 6);
        assert_eq!(found, [PathBuf::from("aa"), PathBuf::from("zz")]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }
}
