//! From the PATHs on the command line to the skill directories of a run (cli.md, Discovery).

mod ignore_files;
mod walk;

use foldhash::{HashMap, HashMapExt, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::config::Settings;
use crate::input::Listed;

pub use walk::is_skipped as is_skipped_dir;
pub use walk::{Lent, UNPACK_TEMP_PREFIX};

/// The skill file names, in preference order.
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// Where a skill comes from; lower tiers are shadowed by higher ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    Builtin,
    User,
    Project,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Builtin => "builtin",
            Tier::User => "user",
            Tier::Project => "project",
        }
    }
}

/// A skill directory found by discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillDir {
    /// The directory as displayed (relative to the current directory when below it).
    /// The paths are shared: discovery, the worker and the report hold one copy of each.
    pub dir: Arc<Path>,
    /// The skill file, or `None` when the directory was given explicitly without one (SK001).
    pub file: Option<Arc<Path>>,
    /// The canonical directory ([`SkillDir::real_path`]), for dedup, tiers, the real directory
    /// name and reading the skill's files.
    pub real: Real,
    pub tier: Tier,
    /// What few skills have, boxed so that a skill without it costs one pointer (see
    /// [`SkillDir::near_miss`], [`SkillDir::nested_in`], [`SkillDir::aliases`]); `None` rather
    /// than an empty one, so that equal skills compare equal.
    pub rare: Option<Box<Rare>>,
    /// What the search's listing of the directory showed (nothing when it was not listed).
    pub listed: Listed,
}

/// Where a skill directory really is (no symbolic links).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Real {
    /// At this canonical path.
    At(Arc<Path>),
    /// At the directory as displayed, made absolute against this: the run's real current
    /// directory, shared by every skill. Most skills are, and then their real path costs
    /// nothing to keep.
    Below(Arc<Path>),
}

impl Real {
    /// `real`, the canonical path of the directory displayed as `dir`, given the real current
    /// directory `base`.
    pub fn of(real: &Path, dir: &Path, base: &Arc<Path>) -> Real {
        if below(base, dir) == real {
            Real::Below(base.clone())
        } else {
            Real::At(real.into())
        }
    }

    /// The canonical path of the directory displayed as `dir`.
    pub fn path(&self, dir: &Path) -> std::borrow::Cow<'_, Path> {
        match self {
            Real::At(real) => std::borrow::Cow::Borrowed(real),
            Real::Below(base) => std::borrow::Cow::Owned(below(base, dir)),
        }
    }
}

/// `dir` made absolute against `base` (as [`absolute`], without its work for the plain
/// relative paths most skills are displayed at).
fn below(base: &Path, dir: &Path) -> PathBuf {
    if !dir.is_absolute() && is_plain(dir, false) {
        joined(base, dir)
    } else if dir.components().all(|c| matches!(c, Component::Normal(_))) {
        base.join(dir)
    } else {
        absolute(base, dir)
    }
}

/// Whether `path` is spelt as its components joined by `/` (an optional leading `/`, no
/// empty or `.` components, and `..` only when `parents`), so that it needs no normalising:
/// a look at its bytes, cheaper than taking it apart.
#[cfg(unix)]
fn is_plain(path: &Path, parents: bool) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let rel = bytes.strip_prefix(b"/").unwrap_or(bytes);
    !rel.is_empty()
        && rel
            .split(|&b| b == b'/')
            .all(|part| !part.is_empty() && part != b"." && (parents || part != b".."))
}

#[cfg(not(unix))]
fn is_plain(_path: &Path, _parents: bool) -> bool {
    false
}

/// `base.join(rel)` for a relative `rel`, allocated once.
fn joined(base: &Path, rel: &Path) -> PathBuf {
    let mut out = PathBuf::with_capacity(base.as_os_str().len() + 1 + rel.as_os_str().len());
    out.push(base);
    out.push(rel);
    out
}

/// The facts of a [`SkillDir`] that few skills have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rare {
    /// For SK001: a file with a near-miss name such as `Skill.md`.
    pub near_miss: Option<String>,
    /// For SK016: the directory of the skill this one lies below, as displayed (runtimes do
    /// not load a skill file inside another skill).
    pub nested_in: Option<PathBuf>,
    /// The other paths the run reached this skill by (symlinks to it), as displayed: a skill
    /// linked into `.claude/skills` and `.codex/skills` is loaded by both runtimes.
    pub aliases: Vec<PathBuf>,
}

impl SkillDir {
    /// For SK001: a file with a near-miss name such as `Skill.md`.
    pub fn near_miss(&self) -> Option<&str> {
        self.rare.as_ref()?.near_miss.as_deref()
    }

    /// For SK016: the directory of the skill this one lies below, as displayed.
    pub fn nested_in(&self) -> Option<&Path> {
        self.rare.as_ref()?.nested_in.as_deref()
    }

    /// The other paths the run reached this skill by, as displayed.
    pub fn aliases(&self) -> &[PathBuf] {
        self.rare.as_ref().map_or(&[], |rare| &rare.aliases)
    }

    /// Changes the rare facts, keeping `None` for none.
    pub fn edit_rare(&mut self, edit: impl FnOnce(&mut Rare)) {
        let mut rare = self.rare.take().unwrap_or_default();
        edit(&mut rare);
        if *rare != Rare::default() {
            self.rare = Some(rare);
        }
    }

    /// The rare facts given, boxed only when there are some.
    pub fn rare_of(near_miss: Option<String>, nested_in: Option<PathBuf>) -> Option<Box<Rare>> {
        (near_miss.is_some() || nested_in.is_some()).then(|| {
            Box::new(Rare {
                near_miss,
                nested_in,
                aliases: Vec::new(),
            })
        })
    }

    /// The displayed path of `rel` (`/`-separated, from the skill directory): no `./` prefix
    /// when the skill is the current directory.
    pub fn path_of(&self, rel: &str) -> PathBuf {
        clean(&self.dir.join(rel))
    }

    /// The canonical directory.
    pub fn real_path(&self) -> std::borrow::Cow<'_, Path> {
        self.real.path(&self.dir)
    }

    /// The directory's own name (the real one for `.`).
    pub fn name(&self) -> String {
        self.real_path()
            .file_name()
            .or_else(|| self.dir.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// What discovery found.
#[derive(Debug, Default)]
pub struct Discovery {
    pub skills: Vec<SkillDir>,
    /// Problems met while walking (unreadable directories, links not followed, ignore files
    /// skipped), for stderr: raw text, escaped by whoever prints it.
    pub warnings: Vec<String>,
    /// The default `.` held no skill.
    pub empty_default: bool,
}

/// A PATH that does not exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound(pub PathBuf);

/// Discovery options beyond the settings.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Do not read `.gitignore`, `.ignore` and the git exclude files.
    pub no_ignore: bool,
    /// Follow symbolic links to directories outside the searched PATH (still visiting each
    /// real directory once).
    pub follow_links: bool,
}

/// A skill directory (or an SK001 directory) that a PATH names, not found by a walk.
struct Candidate {
    dir: Arc<Path>,
    file: Option<Arc<Path>>,
    near_miss: Option<String>,
}

impl Candidate {
    /// The skill directory, its real path resolved; `nearest` as [`outer_skill`] takes it.
    fn resolve(
        self,
        cwd: &Path,
        base: &Arc<Path>,
        user_root: Option<&Path>,
        nearest: &mut HashMap<PathBuf, Nearest>,
    ) -> SkillDir {
        let real = self
            .dir
            .canonicalize()
            .unwrap_or_else(|_| cwd.join(&self.dir));
        let nested_in = match self.file {
            Some(_) => outer_skill(&self.dir, Listed::default(), cwd, nearest),
            None => None,
        };
        SkillDir {
            tier: tier_of(&real, user_root),
            real: Real::of(&real, &self.dir, base),
            rare: SkillDir::rare_of(self.near_miss, nested_in),
            dir: self.dir,
            file: self.file,
            listed: Listed::default(),
        }
    }
}

/// Finds the skills that `paths` name (no PATH means `.`).
pub fn discover(
    paths: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    options: Options,
) -> Result<Discovery, NotFound> {
    discover_streaming(paths, settings, cwd, options, &mut |_, _| {})
}

/// [`discover`], handing each skill a search finds to `early` as soon as it is found — as the
/// skill would be if no other path reached it — so that it can be linted while the search goes
/// on. The discovery returned is final: a skill handed early may have been merged with another
/// path to it (an alias) or have moved, and then differs from its final [`SkillDir`].
pub fn discover_streaming(
    paths: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    options: Options,
    early: &mut dyn FnMut(SkillDir, Option<Lent>),
) -> Result<Discovery, NotFound> {
    let default = paths.is_empty();
    let dot = [PathBuf::from(".")];
    let paths = if default { &dot[..] } else { paths };
    let mut out = Discovery::default();
    // Every skill directory each PATH reaches, as it reaches it, nesting settled (SK016).
    let mut found: Vec<SkillDir> = Vec::new();
    // The global excludes file is read once, by the first search that needs it.
    let mut ignores: Option<ignore_files::Ignores> = None;
    let mut nearest = HashMap::new();
    let user_root = user_root();
    let user_root = user_root.as_deref();
    // A path has no symlink components when, made absolute against the real current
    // directory, it is its own canonical form.
    let base: Arc<Path> = cwd
        .canonicalize()
        .unwrap_or_else(|_| cwd.to_path_buf())
        .into();
    // PATHs that do not exist: a warning each while another PATH does (CI configurations name
    // folders some repositories lack); none existing is an error.
    let mut missing: Vec<&PathBuf> = Vec::new();
    // Files given that lie in no skill: said only when nothing else was found (a pre-commit
    // hook passes a README beside the skills it changed).
    let mut astray: Vec<PathBuf> = Vec::new();
    for path in paths {
        let display = display_path(path, cwd);
        let Some(is_dir) = is_dir(path) else {
            missing.push(path);
            continue;
        };
        if !is_dir {
            match from_file(&display) {
                Some(candidate) => {
                    found.push(candidate.resolve(cwd, &base, user_root, &mut nearest));
                }
                None => astray.push(display),
            }
            continue;
        }
        let own = skill_file_in(&display);
        let before = found.len();
        let near_miss = if own.is_some() {
            None
        } else {
            near_miss_in(&display)
        };
        let is_skill = own.is_some();
        if let Some(file) = own {
            let own = Candidate {
                dir: display.as_path().into(),
                file: Some(file.into()),
                near_miss: None,
            };
            found.push(own.resolve(cwd, &base, user_root, &mut nearest));
        }
        if ignores.is_none() && !options.no_ignore {
            ignores = Some(ignore_files::Ignores::new(cwd, &mut out.warnings));
        }
        // What lies above the PATH's directories, for SK016: the walk carries it down.
        let abs = absolute(cwd, &display);
        let above = nearest_above(&abs, &mut nearest);
        let git = abs.join(".git").exists();
        let above = with_folder(|| abs.as_path().into(), is_skill, git, &above);
        // SK016 looks at a skill's ancestors by their lexical paths: after a link, a `..` makes
        // them other directories than the walk lists (`link/..` is the target's parent), and
        // such a PATH's skills are looked at as a named skill is.
        let lexical = display.components().any(|c| c == Component::ParentDir)
            && abs.canonicalize().ok() != display.canonicalize().ok();
        // Below a skill directory: the skill files nested in it (SK016).
        let mut hand_over = |skill: walk::Found, lent: Option<Lent>| {
            let nested = if lexical {
                outer_skill(&skill.dir, skill.listed, cwd, &mut nearest)
            } else {
                nested_in(&skill.dir, skill.listed, &skill.above, cwd)
            };
            let skill = SkillDir {
                rare: SkillDir::rare_of(None, nested),
                tier: skill.tier,
                dir: skill.dir,
                file: Some(skill.file),
                real: skill.real,
                listed: skill.listed,
            };
            early(skill.clone(), lent);
            found.push(skill);
        };
        walk::walk(
            &display,
            walk::Context {
                settings,
                cwd,
                base: &base,
                user_root,
                options,
                ignores: ignores.as_ref(),
                above,
            },
            &mut hand_over,
            &mut out.warnings,
        );
        if is_skill {
            continue;
        }
        if near_miss.is_some() || (found.len() == before && !default) {
            let named = Candidate {
                dir: display.into(),
                file: None,
                near_miss,
            };
            found.push(named.resolve(cwd, &base, user_root, &mut nearest));
        } else if found.len() == before {
            out.empty_default = true;
        }
    }
    // The directories remembered for nesting are not needed beside the skills' list.
    drop(nearest);
    out.skills = dedup(found);
    if missing.len() == paths.len()
        && let Some(first) = missing.first()
    {
        return Err(NotFound((*first).clone()));
    }
    out.warnings.splice(
        0..0,
        missing
            .iter()
            .map(|p| format!("path not found: {}", display_path(p, cwd).display())),
    );
    if out.skills.is_empty() {
        out.warnings.extend(astray.iter().map(|f| {
            format!(
                "`{}` is in no skill: no SKILL.md or skill.md beside it or in a folder above it",
                f.display()
            )
        }));
    }
    // The same unreadable ignore file above several PATHs is reported once.
    let mut said = HashSet::default();
    out.warnings.retain(|w| said.insert(w.clone()));
    Ok(out)
}

/// The skill that the skill file at `file` makes, as discovery would find it — its directory,
/// tier and nesting — whether or not the file exists yet (an editor's new buffer). `NotFound`
/// when its directory does not exist.
pub fn skill_of_file(file: &Path, cwd: &Path) -> Result<SkillDir, NotFound> {
    let display = display_path(file, cwd);
    let dir = parent_of(&display);
    let Ok(real) = absolute(cwd, &dir).canonicalize() else {
        return Err(NotFound(dir));
    };
    if !real.is_dir() {
        return Err(NotFound(dir));
    }
    let nested_in = outer_skill(&dir, Listed::default(), cwd, &mut HashMap::new());
    Ok(SkillDir {
        tier: tier_of(&real, user_root().as_deref()),
        dir: dir.into(),
        file: Some(display.into()),
        real: Real::At(real.into()),
        rare: SkillDir::rare_of(None, nested_in),
        listed: Listed::default(),
    })
}

/// The real path of the user tier's skill folder, `~/.par/skills`, when it exists.
fn user_root() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .map(|home| PathBuf::from(home).join(".par").join("skills"))
        .and_then(|p| p.canonicalize().ok())
}

/// The tier of a skill at real path `real`.
fn tier_of(real: &Path, user_root: Option<&Path>) -> Tier {
    match user_root {
        Some(root) if real.starts_with(root) => Tier::User,
        _ => Tier::Project,
    }
}

/// Whether `path` is a directory; `None` when nothing is there. A dangling symbolic link is
/// there (a file): a skill file that dangles is SK408, not a missing PATH.
fn is_dir(path: &Path) -> Option<bool> {
    match std::fs::metadata(path) {
        Ok(meta) => Some(meta.is_dir()),
        Err(_) => std::fs::symlink_metadata(path).ok().map(|_| false),
    }
}

/// What a file PATH names: its directory when it is a skill file, else the nearest skill
/// above it, else (a skill file in another case, `Skill.md`) its directory for SK001.
fn from_file(display: &Path) -> Option<Candidate> {
    let name = display.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if SKILL_FILE_NAMES.contains(&name) {
        return Some(Candidate {
            dir: parent_of(display).into(),
            file: Some(display.into()),
            near_miss: None,
        });
    }
    if let Some((dir, file)) = enclosing_skill(display) {
        return Some(Candidate {
            dir: dir.into(),
            file: Some(file.into()),
            near_miss: None,
        });
    }
    is_other_case(name).then(|| Candidate {
        dir: parent_of(display).into(),
        file: None,
        near_miss: Some(name.to_string()),
    })
}

/// One entry per real skill directory, sorted by path: at its path without symbolic-link
/// components when one of the skills found reaches it that way, else at its first path in
/// sorted order; the others become its aliases. In place: `found` holds the entries.
fn dedup(mut found: Vec<SkillDir>) -> Vec<SkillDir> {
    // Stable: of the skills at one path, the first PATH's wins (the skill file it names, its
    // near miss). One PATH's come sorted unless it holds links (see [`walk::walk`]): then no
    // scratch copy is made.
    if !found.is_sorted_by(|a, b| a.dir <= b.dir) {
        found.sort_by(|a, b| a.dir.cmp(&b.dir));
    }
    // The entries kept are moved to the front, `0..kept`; the others are merged into them.
    // Kept entries by a hash of their real path and kind (no copy of the path), the first of
    // each hash; equal hashes are compared in full, and further entries of a hash (a
    // collision) are in `more`.
    let mut seen: HashMap<u64, usize> = HashMap::with_capacity(found.len());
    let mut more: Vec<(u64, usize)> = Vec::new();
    let key = |real: &Path, has_file: bool| {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (real, has_file).hash(&mut hasher);
        hasher.finish()
    };
    // Whether each kept entry is at a path without symbolic-link components.
    let mut direct: Vec<bool> = Vec::with_capacity(found.len());
    for i in 0..found.len() {
        let kept = direct.len();
        let (front, back) = found.split_at_mut(i);
        let skill = &mut back[0];
        let is_direct = matches!(skill.real, Real::Below(_));
        let has_file = skill.file.is_some();
        let real_path = skill.real_path();
        let hash = key(&real_path, has_file);
        let same = seen
            .get(&hash)
            .into_iter()
            .copied()
            .chain(more.iter().filter(|(h, _)| *h == hash).map(|&(_, i)| i))
            .find(|&at| front[at].real_path() == real_path && front[at].file.is_some() == has_file);
        drop(real_path);
        let Some(at) = same else {
            match seen.entry(hash) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(kept);
                }
                std::collections::hash_map::Entry::Occupied(_) => more.push((hash, kept)),
            }
            direct.push(is_direct);
            found.swap(kept, i);
            continue;
        };
        let first = &mut front[at];
        if is_direct && !direct[at] {
            direct[at] = true;
            // Reached without links now: its real path is its path, and its nesting is this
            // path's.
            std::mem::swap(&mut first.real, &mut skill.real);
            std::mem::swap(&mut first.dir, &mut skill.dir);
            std::mem::swap(&mut first.file, &mut skill.file);
            let alias = skill.dir.to_path_buf();
            let (near_miss, nested_in) = skill
                .rare
                .take()
                .map_or((None, None), |rare| (rare.near_miss, rare.nested_in));
            first.edit_rare(|rare| {
                rare.aliases.push(alias);
                rare.near_miss = near_miss;
                rare.nested_in = nested_in;
            });
        } else {
            first.edit_rare(|rare| rare.aliases.push(skill.dir.to_path_buf()));
        }
    }
    found.truncate(direct.len());
    // Sorted already unless a path without symbolic links replaced another.
    if !found.is_sorted_by(|a, b| a.dir <= b.dir) {
        found.sort_by(|a, b| a.dir.cmp(&b.dir));
    }
    found
}

/// The nearest directory above the skill directory `dir` (whose listing showed `listed`) that
/// holds a skill file, as displayed (SK016); the search stops at the repository root (the
/// directory holding `.git`),
/// and outside a repository at the current directory (a stranger's `/tmp/SKILL.md` makes no
/// skill below it nested). `nearest` remembers, per absolute directory, the nearest skill
/// directory at or above it and whether a repository root bounded the search: skills share
/// their ancestors, so each is looked at once.
fn outer_skill(
    dir: &Path,
    listed: Listed,
    cwd: &Path,
    nearest: &mut HashMap<PathBuf, Nearest>,
) -> Option<PathBuf> {
    let abs = absolute(cwd, dir);
    if listed.git.unwrap_or_else(|| abs.join(".git").exists()) {
        return None;
    }
    let above = nearest_above(&abs, nearest);
    nested_in(dir, Listed::NEITHER, &above, cwd)
}

/// [`outer_skill`] for a skill whose ancestors' [`Nearest`] is known already (`above`: a walk
/// carries it down from the directories it listed, and looks at none of them again).
pub fn nested_in(dir: &Path, listed: Listed, above: &Nearest, cwd: &Path) -> Option<PathBuf> {
    let abs = std::cell::OnceCell::new();
    let abs = || abs.get_or_init(|| absolute(cwd, dir));
    if listed.git.unwrap_or_else(|| abs().join(".git").exists()) {
        return None;
    }
    let (outer, bounded) = above;
    let outer = outer.as_deref()?;
    let ceiling = if abs().starts_with(cwd) {
        cwd
    } else {
        abs().as_path()
    };
    (*bounded || outer.starts_with(ceiling)).then(|| display_path(outer, cwd))
}

/// The [`Nearest`] of the directories above the absolute directory `abs`, looking at each
/// directory not in `nearest` yet and remembering it there.
fn nearest_above(abs: &Path, nearest: &mut HashMap<PathBuf, Nearest>) -> Nearest {
    let Some(parent) = abs.parent() else {
        return Nearest::default();
    };
    // The directories not looked at yet, nearest first, whether each is a repository's root,
    // and what lies above them.
    let mut pending: Vec<(&Path, bool)> = Vec::new();
    let mut above = Nearest::default();
    for ancestor in parent.ancestors() {
        if let Some(hit) = nearest.get(ancestor) {
            above = hit.clone();
            break;
        }
        let root = ancestor.join(".git").exists();
        pending.push((ancestor, root));
        if root {
            break;
        }
    }
    for (folder, root) in pending.into_iter().rev() {
        let skill = skill_file_in(folder).is_some();
        let here = with_folder(|| folder.into(), skill, root, &above);
        nearest.insert(folder.to_path_buf(), here.clone());
        above = here;
    }
    above
}

/// The [`Nearest`] of the directories below `folder` (absolute, made when needed), from its facts
/// (whether it holds a skill file, whether it is a repository's root) and the [`Nearest`]
/// above it: a repository's root bounds the search, and nothing above it counts.
pub fn with_folder(
    folder: impl FnOnce() -> Arc<Path>,
    skill: bool,
    git: bool,
    above: &Nearest,
) -> Nearest {
    if skill {
        (Some(folder()), above.1 || git)
    } else if git {
        (None, true)
    } else {
        above.clone()
    }
}

/// The nearest skill directory at or above a directory (absolute), and whether a repository's
/// root bounded the search.
pub type Nearest = (Option<Arc<Path>>, bool);

/// The skill file in `dir`, by its exact name.
pub fn skill_file_in(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES.iter().find_map(|name| {
        let file = dir.join(name);
        // On case-insensitive file systems `SKILL.md` also finds `Skill.md`: check the real name.
        let exact =
            is_file_or_dangling(&file) && (cfg!(target_os = "linux") || has_exact_entry(dir, name));
        exact.then(|| clean(&file))
    })
}

/// A regular file (through links), or a link that leads nowhere (a dangling skill file is
/// still the skill's file: SK408).
fn is_file_or_dangling(file: &Path) -> bool {
    // Most names looked for are absent: one look without following says so.
    match std::fs::symlink_metadata(file) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::metadata(file).map_or(true, |target| target.is_file())
        }
        Ok(meta) => meta.is_file(),
        Err(_) => false,
    }
}

/// Whether `name` is a skill file name in another case (`SKILL.MD`, `Skill.md`): SK017 when
/// met while searching, SK001's near miss when named.
pub fn is_other_case(name: &str) -> bool {
    name.eq_ignore_ascii_case("skill.md") && !SKILL_FILE_NAMES.contains(&name)
}

fn has_exact_entry(dir: &Path, name: &str) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_str() == Some(name))
    })
}

/// A file in `dir` whose name is close to a skill file name (`Skill.md`, `SKILL.markdown`).
fn near_miss_in(dir: &Path) -> Option<String> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|name| {
            let lower = name.to_ascii_lowercase();
            matches!(
                lower.as_str(),
                "skill.md" | "skill.markdown" | "skill.txt" | "skills.md" | "skill" | "skill.mdx"
            )
        })
        .collect();
    names.sort();
    names.into_iter().next()
}

/// The nearest ancestor of a file that holds a skill file (not above a repository root).
fn enclosing_skill(file: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut dir = parent_of(file);
    loop {
        if let Some(skill_file) = skill_file_in(&dir) {
            return Some((dir, skill_file));
        }
        if dir.join(".git").exists() {
            return None;
        }
        let up = dir.join("..");
        let (Ok(here), Ok(there)) = (dir.canonicalize(), up.canonicalize()) else {
            return None;
        };
        if here == there {
            return None;
        }
        dir = if dir == Path::new(".") || dir.ends_with("..") {
            clean(&up)
        } else {
            parent_of(&dir)
        };
    }
}

fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A path as shown to the user: relative to `cwd` when below it, without `./` components.
pub fn display_path(path: &Path, cwd: &Path) -> PathBuf {
    if path.is_absolute()
        && let Ok(rel) = path.strip_prefix(cwd)
    {
        let rel = clean(rel);
        return if rel.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            rel
        };
    }
    clean(path)
}

/// Drops `.` components (`./a/./b` → `a/b`); keeps `.` for the current directory itself.
pub fn clean(path: &Path) -> PathBuf {
    if is_plain(path, true) {
        return path.to_path_buf();
    }
    let mut cleaned: PathBuf = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    if cleaned.as_os_str().is_empty() {
        return PathBuf::from(".");
    }
    // Kept for the whole run, once per skill: no spare capacity.
    cleaned.shrink_to_fit();
    cleaned
}

/// `path` made absolute against `cwd`, with `.` and `..` resolved lexically (config globs
/// match these).
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    if path.is_absolute() && is_plain(path, false) {
        return path.to_path_buf();
    }
    if cwd.is_absolute() && is_plain(cwd, false) && !path.is_absolute() && is_plain(path, false) {
        return joined(cwd, path);
    }
    let mut out = PathBuf::new();
    for component in cwd.join(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `clean`, `absolute` and `below` as they were before their look at the bytes.
    fn cleaned_by_parts(path: &Path) -> PathBuf {
        let cleaned: PathBuf = path
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect();
        if cleaned.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            cleaned
        }
    }

    fn absolute_by_parts(cwd: &Path, path: &Path) -> PathBuf {
        let mut out = PathBuf::new();
        for component in cwd.join(path).components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    }

    #[test]
    fn paths_spelt_plainly_are_taken_as_they_are_and_the_others_as_before() {
        let paths = [
            "a", "a/b", "/a/b", "a/", "a//b", "./a", "a/./b", "a/.", ".", "..", "../a", "a/..",
            "a/../b", "/", "//a", "", ".a/b.", "a/.../b", "/a/b/", "a/b/..", "..a", "a..",
        ];
        for cwd in ["/w", "/w/x", "/", "/w/", "/w/./x", "rel"] {
            let cwd = Path::new(cwd);
            for path in paths {
                let path = Path::new(path);
                assert_eq!(
                    absolute(cwd, path).as_os_str(),
                    absolute_by_parts(cwd, path).as_os_str(),
                    "absolute({cwd:?}, {path:?})"
                );
                let by_parts = if path.components().all(|c| matches!(c, Component::Normal(_))) {
                    cwd.join(path)
                } else {
                    absolute_by_parts(cwd, path)
                };
                assert_eq!(
                    below(cwd, path).as_os_str(),
                    by_parts.as_os_str(),
                    "below({cwd:?}, {path:?})"
                );
            }
        }
        for path in paths {
            let path = Path::new(path);
            assert_eq!(
                clean(path).as_os_str(),
                cleaned_by_parts(path).as_os_str(),
                "clean({path:?})"
            );
        }
    }
}
