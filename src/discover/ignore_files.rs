//! `.gitignore`, `.ignore`, `.git/info/exclude` and the global git excludes file, read by us
//! (capped, never through a symbolic link, never blocking on a FIFO) and matched with the
//! `ignore` crate's gitignore globs, with the precedence of `ignore` 0.4's `WalkBuilder`:
//! for each kind of file the deepest directory with a matching line wins (a `!` line
//! re-includes), `.ignore` beats `.gitignore`, which beats `info/exclude`, which beats the
//! global file; ignore files in the search root's parent directories count too.
//!
//! A glob costs far more compiled than read (70,000 one-line globs, under the size cap, took
//! 1 GB and seconds), so one run compiles at most [`MAX_PATTERNS`] patterns and
//! [`MAX_PATTERN_BYTES`] of them, over all its ignore files: a file that does not fit in what
//! is left is skipped whole, with a warning naming it, as a file over the size cap is. A
//! directory's ignore files are compiled once per run, whichever searches reach it.

use foldhash::HashMap;
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::clean;
use crate::input::{self, Links};

/// The largest ignore file read; a committed `.gitignore` is rarely over a few KiB.
pub const IGNORE_FILE_CAP: u64 = 1 << 20;

/// The most patterns (lines neither blank nor comments) one run compiles, over all its ignore
/// files: a committed `.gitignore` holds tens of them (at most 48 in the public skill
/// repositories), the largest real ones a few thousand. Compiled, a glob such as `d1/**/*.md`
/// costs about 0.1 ms and 15 KB, and each directory whose name has that extension is matched
/// against each such glob in turn.
pub const MAX_PATTERNS: usize = 2_000;

/// The most bytes of patterns one run compiles, over all its ignore files: a long glob costs
/// more than a short one (one of 64 KiB alone about 50 MB).
pub const MAX_PATTERN_BYTES: usize = 32 * 1024;

/// The largest git config file or `.git` file read while looking for ignore files.
const GIT_FILE_CAP: u64 = 1 << 20;

/// The ignore files of one directory, with those of the directories above it.
#[derive(Debug)]
pub struct Level {
    ignore: Gitignore,
    gitignore: Gitignore,
    exclude: Gitignore,
    parent: Option<Rc<Level>>,
}

/// The rules in force in a directory (`None`: no ignore file above it).
pub type Rules = Option<Rc<Level>>;

/// Which ignore files a directory's listing holds (so directories without any are not probed).
#[derive(Debug, Default, Clone, Copy)]
pub struct Present {
    pub ignore: bool,
    pub gitignore: bool,
    pub git: bool,
}

impl Present {
    /// Notes one entry name of a directory listing.
    pub fn note(&mut self, name: &std::ffi::OsStr) {
        match name.to_str() {
            Some(".ignore") => self.ignore = true,
            Some(".gitignore") => self.gitignore = true,
            Some(".git") => self.git = true,
            _ => {}
        }
    }

    fn any(self) -> bool {
        self.ignore || self.gitignore || self.git
    }
}

/// Reads ignore files and answers whether a path is ignored.
#[derive(Debug)]
pub struct Ignores {
    global: Gitignore,
    /// What is left to compile in this run.
    budget: Cell<Budget>,
    /// The rules of each directory whose ignore files were met, by its absolute path (so that
    /// searches reaching a directory twice compile, charge and warn about its files once).
    compiled: RefCell<HashMap<PathBuf, Rules>>,
}

/// The patterns and bytes of patterns a run may still compile.
#[derive(Debug, Clone, Copy)]
struct Budget {
    patterns: usize,
    bytes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            patterns: MAX_PATTERNS,
            bytes: MAX_PATTERN_BYTES,
        }
    }
}

impl Budget {
    /// Takes `wanted` from what is left; why not, when it does not fit.
    fn take(&mut self, wanted: Budget) -> Result<(), String> {
        let max = Budget::default();
        let over = |what: &str, has: usize, left: usize, cap: usize| {
            if has > cap {
                format!(
                    "it holds {has} {what}; a run compiles at most {cap}, over all its ignore files"
                )
            } else {
                format!(
                    "it holds {has} {what}, more than the {left} left of the {cap} a run compiles over all its ignore files"
                )
            }
        };
        if wanted.patterns > self.patterns {
            return Err(over(
                "patterns",
                wanted.patterns,
                self.patterns,
                max.patterns,
            ));
        }
        if wanted.bytes > self.bytes {
            return Err(over(
                "bytes of patterns",
                wanted.bytes,
                self.bytes,
                max.bytes,
            ));
        }
        self.patterns -= wanted.patterns;
        self.bytes -= wanted.bytes;
        Ok(())
    }
}

impl Ignores {
    /// The global excludes file, matched relative to `cwd` (as git and `ignore` do).
    pub fn new(cwd: &Path, warnings: &mut Vec<String>) -> Self {
        let budget = Cell::new(Budget::default());
        let global = global_excludes_path()
            .filter(|path| path.is_file())
            .and_then(|path| read_rules(cwd, &path, Links::Follow, &path, &budget, warnings))
            .unwrap_or_else(Gitignore::empty);
        Ignores {
            global,
            budget,
            compiled: RefCell::default(),
        }
    }

    /// The rules of the directories above `root_real` (a canonical path), outermost first.
    pub fn parents(&self, root_real: &Path, warnings: &mut Vec<String>) -> Rules {
        let mut ancestors: Vec<&Path> = root_real.ancestors().skip(1).collect();
        ancestors.reverse();
        let mut rules = None;
        let all = Present {
            ignore: true,
            gitignore: true,
            git: true,
        };
        for dir in ancestors {
            rules = self.child(&rules, dir, dir, all, warnings);
        }
        rules
    }

    /// The rules in directory `dir` (shown as `shown`), whose listing holds `present`; `abs` is
    /// the directory's absolute path as the walk reached it, which its globs are relative to.
    pub fn child(
        &self,
        parent: &Rules,
        abs: &Path,
        shown: &Path,
        present: Present,
        warnings: &mut Vec<String>,
    ) -> Rules {
        if !present.any() {
            return parent.clone();
        }
        if let Some(rules) = self.compiled.borrow().get(abs) {
            return rules.clone();
        }
        let warned = warnings.len();
        let budget = &self.budget;
        let mut read = |name: &str, wanted: bool| {
            if !wanted {
                return None;
            }
            let shown = clean(&shown.join(name));
            read_rules(
                abs,
                &abs.join(name),
                Links::Refuse,
                &shown,
                budget,
                warnings,
            )
        };
        let ignore = read(".ignore", present.ignore);
        let gitignore = read(".gitignore", present.gitignore);
        let exclude = if present.git {
            git_common_dir(abs, shown, warnings).and_then(|git_dir| {
                let shown_dir = clean(&shown.join(&git_dir));
                read_rules(
                    abs,
                    &abs.join(&git_dir).join("info/exclude"),
                    Links::Refuse,
                    &shown_dir.join("info/exclude"),
                    budget,
                    warnings,
                )
            })
        } else {
            None
        };
        let rules = if ignore.is_none() && gitignore.is_none() && exclude.is_none() {
            parent.clone()
        } else {
            Some(Rc::new(Level {
                ignore: ignore.unwrap_or_else(Gitignore::empty),
                gitignore: gitignore.unwrap_or_else(Gitignore::empty),
                exclude: exclude.unwrap_or_else(Gitignore::empty),
                parent: parent.clone(),
            }))
        };
        // Kept when something was compiled or warned about (the rest costs nothing again).
        if warnings.len() > warned || !same(&rules, parent) {
            self.compiled
                .borrow_mut()
                .insert(abs.to_path_buf(), rules.clone());
        }
        rules
    }

    /// Whether `abs` (an absolute path as the walk reached it) is ignored under `rules`.
    pub fn is_ignored(&self, rules: &Rules, abs: &Path, is_dir: bool) -> bool {
        let (mut by_ignore, mut by_gitignore, mut by_exclude) =
            (Match::None, Match::None, Match::None);
        let mut level = rules.as_deref();
        while let Some(l) = level {
            if by_ignore.is_none() {
                by_ignore = l.ignore.matched(abs, is_dir);
            }
            if by_gitignore.is_none() {
                by_gitignore = l.gitignore.matched(abs, is_dir);
            }
            if by_exclude.is_none() {
                by_exclude = l.exclude.matched(abs, is_dir);
            }
            level = l.parent.as_deref();
        }
        by_ignore
            .or(by_gitignore)
            .or(by_exclude)
            .or(self.global.matched(abs, is_dir))
            .is_ignore()
    }
}

/// Whether two rules are the same level (or both none).
fn same(a: &Rules, b: &Rules) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// Compiles one ignore file, relative to `root`, charging its patterns to `budget`; `None`
/// when it is absent, unreadable, more than the budget has left or not compiled (then one
/// warning names it, as git's "unable to access" does).
fn read_rules(
    root: &Path,
    path: &Path,
    links: Links,
    shown: &Path,
    budget: &Cell<Budget>,
    warnings: &mut Vec<String>,
) -> Option<Gitignore> {
    let bytes = match input::read_bounded(path, IGNORE_FILE_CAP, links) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return None,
        Err(err) => {
            warnings.push(format!("skipping ignore file `{}`: {err}", shown.display()));
            return None;
        }
    };
    let lines = || {
        bytes.split(|&b| b == b'\n').enumerate().map(|(i, line)| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            // Git skips a UTF-8 byte order mark at the start of the file.
            match (i, line.strip_prefix("\u{feff}".as_bytes())) {
                (0, Some(rest)) => rest,
                _ => line,
            }
        })
    };
    // What compiling costs: the patterns, not the blank lines and comments.
    let mut wanted = Budget {
        patterns: 0,
        bytes: 0,
    };
    for line in lines() {
        let line = line.trim_ascii_end();
        if !line.is_empty() && !line.starts_with(b"#") {
            wanted.patterns += 1;
            wanted.bytes += line.len();
        }
    }
    let mut left = budget.get();
    if let Err(why) = left.take(wanted) {
        warnings.push(format!("skipping ignore file `{}`: {why}", shown.display()));
        return None;
    }
    budget.set(left);
    let mut builder = GitignoreBuilder::new(root);
    for line in lines() {
        // A line that is not a valid glob is skipped, as git skips it.
        let _ = builder.add_line(None, &String::from_utf8_lossy(line));
    }
    match builder.build() {
        Ok(rules) => Some(rules),
        Err(err) => {
            warnings.push(format!("skipping ignore file `{}`: {err}", shown.display()));
            None
        }
    }
}

/// Where `dir/.git`'s `info/exclude` lives: `.git` itself, or for a worktree (a `.git` file
/// saying `gitdir: …`) the common directory named by its `commondir` file.
fn git_common_dir(dir: &Path, shown: &Path, warnings: &mut Vec<String>) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    let meta = std::fs::metadata(&dot_git).ok()?;
    if meta.is_dir() {
        return Some(PathBuf::from(".git"));
    }
    let text = match input::read_bounded(&dot_git, GIT_FILE_CAP, Links::Refuse) {
        Ok(bytes) => bytes,
        Err(err) => {
            warnings.push(format!(
                "skipping `{}`: {err}",
                clean(&shown.join(".git")).display()
            ));
            return None;
        }
    };
    let git_dir = PathBuf::from(first_line(&text)?.strip_prefix("gitdir: ")?);
    let git_dir = dir.join(git_dir);
    let common =
        input::read_bounded(&git_dir.join("commondir"), GIT_FILE_CAP, Links::Follow).ok()?;
    Some(git_dir.join(first_line(&common)?))
}

fn first_line(bytes: &[u8]) -> Option<String> {
    let line = bytes.split(|&b| b == b'\n').next()?;
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    std::str::from_utf8(line).ok().map(str::to_string)
}

/// The global excludes file: `core.excludesFile` from the git config files (in the order the
/// `ignore` crate reads them), else `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`.
fn global_excludes_path() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|x| !x.is_empty())
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let env_path = |name: &str| {
        std::env::var_os(name)
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
    };
    let configs = [
        env_path("GIT_CONFIG_GLOBAL"),
        home.as_ref().map(|h| h.join(".gitconfig")),
        xdg.as_ref().map(|x| x.join("git/config")),
        Some(env_path("GIT_CONFIG_SYSTEM").unwrap_or_else(|| PathBuf::from("/etc/gitconfig"))),
    ];
    configs
        .into_iter()
        .flatten()
        .find_map(|config| {
            let bytes = input::read_bounded(&config, GIT_FILE_CAP, Links::Follow).ok()?;
            excludes_file_setting(&bytes, home.as_deref())
        })
        .or_else(|| xdg.map(|x| x.join("git/ignore")))
}

/// The first `excludesfile = PATH` line of a git config file (as loosely as `ignore` reads it),
/// with `~` expanded.
fn excludes_file_setting(config: &[u8], home: Option<&Path>) -> Option<PathBuf> {
    let text = String::from_utf8_lossy(config);
    text.lines().find_map(|line| {
        let line = line.trim();
        let key = line.get(.."excludesfile".len())?;
        if !key.eq_ignore_ascii_case("excludesfile") {
            return None;
        }
        let rest = line["excludesfile".len()..]
            .trim_start()
            .strip_prefix('=')?;
        let rest = rest.trim();
        let rest = rest.strip_prefix('"').unwrap_or(rest).trim_start();
        let value = rest.strip_suffix('"').unwrap_or(rest).trim_end();
        if value.is_empty() || value.contains(char::is_whitespace) {
            return None;
        }
        let value = match home {
            Some(home) => value.replace('~', &home.to_string_lossy()),
            None => value.to_string(),
        };
        Some(PathBuf::from(value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_excludes_file_setting() {
        let home = Path::new("/home/u");
        let read = |s: &str| excludes_file_setting(s.as_bytes(), Some(home));
        assert_eq!(
            read("[core]\n\texcludesFile = ~/.gitignore_global\n"),
            Some(PathBuf::from("/home/u/.gitignore_global"))
        );
        assert_eq!(
            read("[core]\n  ExcludesFile=\"/etc/ig\"\r\n"),
            Some(PathBuf::from("/etc/ig"))
        );
        assert_eq!(read("[core]\n excludesfile = a b\n"), None);
        assert_eq!(read("[core]\n excludesfiles = a\n"), None);
    }

    #[test]
    fn deeper_files_and_dot_ignore_take_precedence() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join(".gitignore"), "a\nb\n").unwrap();
        std::fs::write(root.join(".ignore"), "!b\n").unwrap();
        std::fs::write(root.join("sub/.gitignore"), "\u{feff}!a\r\n[\n").unwrap();
        let mut warnings = Vec::new();
        let ignores = Ignores {
            global: Gitignore::empty(),
            budget: Cell::new(Budget::default()),
            compiled: RefCell::default(),
        };
        let all = Present {
            ignore: true,
            gitignore: true,
            git: false,
        };
        let top = ignores.child(&None, &root, Path::new("."), all, &mut warnings);
        let sub = ignores.child(
            &top,
            &root.join("sub"),
            Path::new("sub"),
            all,
            &mut warnings,
        );
        assert!(warnings.is_empty());
        assert!(ignores.is_ignored(&top, &root.join("a"), true));
        assert!(!ignores.is_ignored(&top, &root.join("b"), true));
        assert!(ignores.is_ignored(&top, &root.join("sub/a"), true));
        assert!(!ignores.is_ignored(&sub, &root.join("sub/a"), true));
        assert!(!ignores.is_ignored(&sub, &root.join("sub/c"), true));
    }
}
