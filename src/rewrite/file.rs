//! Fixing one skill file: its fixes are applied round after round, the text linted again after
//! each, until none is left to apply; the result is kept only when it is no worse than the
//! file was, and written only when it differs, atomically, and only when the file did not
//! change on disk meanwhile.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::Mode;
use crate::config::Settings;
use crate::discover::SkillDir;
use crate::files::{mentions_own_name, rename_breaks, same_file};
use crate::fix::{Fix, apply};
use crate::input::{Links, Read, read_capped};
use crate::lint::lint_buffer;
use crate::rule::{FixEffect, Needs, Rule, SK006, SK011, SK012, Tag};
use crate::skill::{Keep, SkillReport};
use crate::suppress::SK019;

/// At most this many rounds of fixes (each lints the text again). A round makes every fix
/// that does not overlap another, but a parser reports one syntax error at a time (SK006) and
/// a rule at most 100 problems per skill: a file with more rounds' worth than this needs
/// another run.
pub const MAX_ROUNDS: usize = 50;

/// What fixing a skill file's text did.
#[derive(Debug)]
pub struct Fixed {
    /// The text fixed (the same bytes when nothing applied).
    pub text: Vec<u8>,
    /// The fixes applied, as rule codes and how many of each, in code order.
    pub applied: BTreeMap<&'static str, usize>,
    /// The skill's report for the fixed text.
    pub report: SkillReport,
    /// The name the skill file is to get (a fix of [`fix_text`]'s text cannot rename it;
    /// [`fix_file`] does, and counts it in `applied`).
    pub rename: Option<String>,
    /// What [`fix_file`] changed on disk: the file it wrote (the skill file, or the file a link
    /// leads to), and the skill file's path before a rename.
    pub written: Option<PathBuf>,
    pub renamed_from: Option<PathBuf>,
    /// What [`fix_file`] did not do, and why (a rename refused).
    pub notes: Vec<String>,
}

impl Fixed {
    pub fn count(&self) -> usize {
        self.applied.values().sum()
    }
}

/// Why a file was not fixed.
#[derive(Debug)]
pub enum Failure {
    /// The fixes would leave the skill worse: a bug of these rules' fixes.
    Worse {
        rules: Vec<&'static str>,
        new: Vec<&'static str>,
    },
    /// The file cannot be read or written as it is (a link out of the skill, changed on disk,
    /// an I/O error).
    Refused(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Worse { rules, new } => write!(
                f,
                "internal error: the fixes of {} would add {}; the file is left as it was (this is a bug: please report it)",
                rules.join(", "),
                new.join(", ")
            ),
            Failure::Refused(why) => f.write_str(why),
        }
    }
}

/// Applies the fixes `mode` allows to `text`, the skill file of `dir`, until none is left (at
/// most [`MAX_ROUNDS`] rounds). A fix that would give the skill a name in `taken` (another
/// skill's key) is not applied. Fails when the result has a problem the text did not have,
/// judged by every rule (not only those the run selects).
pub fn fix_text(
    dir: &SkillDir,
    text: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    mode: Mode,
    taken: &HashSet<String>,
) -> Result<Fixed, Failure> {
    let lint_with = |settings: &Settings, text: &[u8]| {
        let mut report = lint_buffer(dir.clone(), text.to_vec(), settings, cwd, Keep::default());
        crate::fix::drop_taken_names(&mut report.diagnostics, taken);
        report
    };
    let every_rule = settings.with_every_rule();
    let mut report = lint_with(settings, &text);
    let original = text.clone();
    let mut text = text;
    let mut applied: BTreeMap<&'static str, usize> = BTreeMap::new();
    // The lines type fixes wrote, by their text.
    let mut typed_lines: HashSet<String> = HashSet::new();
    for _ in 0..MAX_ROUNDS {
        mode.settle(settings, &mut report.diagnostics);
        let file = report.dir.file.clone();
        let fixes: Vec<(&'static Rule, &Fix)> = report
            .diagnostics
            .iter()
            .filter(|d| Some(&d.path) == file.as_ref())
            .filter_map(|d| Some((d.rule, d.fix.as_deref().filter(|f| f.available)?)))
            .filter(|(_, f)| !f.edits.is_empty())
            .collect();
        if fixes.is_empty() {
            break;
        }
        // Fixes that change a value's type go in rounds of their own: the lines they write are
        // then known (what the rules on those values say next is unmasked, see below).
        let retypes = |rule: &Rule| rule.fix_effect(FixEffect::Retypes);
        let typed = fixes.iter().any(|(rule, _)| retypes(rule));
        let fixes: Vec<(&'static Rule, &Fix)> = fixes
            .into_iter()
            .filter(|(rule, _)| !typed || retypes(rule))
            .collect();
        let only: Vec<&Fix> = fixes.iter().map(|(_, f)| *f).collect();
        let (next, done) = apply(&text, &only);
        if done.is_empty() || next == text {
            break;
        }
        for i in done {
            *applied.entry(fixes[i].0.code).or_default() += 1;
        }
        if typed {
            typed_lines.extend(inserted_lines(&text, &next));
        }
        text = next;
        report = lint_with(settings, &text);
    }
    if !applied.is_empty() {
        check_no_worse(
            &lint_with(&every_rule, &original),
            &lint_with(&every_rule, &text),
            &lines_holding(&text, &typed_lines),
            &applied,
        )?;
    }
    mode.settle(settings, &mut report.diagnostics);
    let rename = report
        .diagnostics
        .iter()
        .filter_map(|d| d.fix.as_deref().filter(|f| f.available)?.rename.clone())
        .next();
    Ok(Fixed {
        text,
        applied,
        report,
        rename,
        written: None,
        renamed_from: None,
        notes: Vec::new(),
    })
}

/// Fails when `after` (the report of the fixed text) has a problem `before` did not.
///
/// What the rules could not judge before is not new: a frontmatter that could not be read
/// kept every frontmatter rule from running, and a value of the wrong type (`description: 42`)
/// kept the rules on its text from running until a fix gave it its type — their diagnostics
/// on the lines such a fix wrote are unmasked, not made, unless they are about the value's
/// form again. And a syntax error may stay only when the fixes moved it further down.
fn check_no_worse(
    before: &SkillReport,
    after: &SkillReport,
    unmasked: &[usize],
    applied: &BTreeMap<&'static str, usize>,
) -> Result<(), Failure> {
    let mut new = new_problems(&codes(before, &[]), &codes(after, unmasked));
    // A link fixed leads to a file whose own links the rules that follow links now follow.
    if applied
        .keys()
        .any(|code| crate::rule::find(code).is_some_and(|r| r.fix_effect(FixEffect::Relinks)))
    {
        new.retain(|code| !crate::rule::find(code).is_some_and(|r| r.has(Tag::FollowsLinks)));
    }
    let first_error = |report: &SkillReport| {
        report
            .diagnostics
            .iter()
            .filter(|d| *d.rule == SK006)
            .filter_map(|d| d.region.map(|r| r.line))
            .min()
    };
    // A fix that removes what a directive suppressed (a duplicate key moved under
    // `metadata:`) leaves the directive unused: SK019 then says so, rightly. Had the fix moved
    // the problem away from its directive instead, the problem itself would be new.
    new.retain(|code| *code != SK019.code);
    // A syntax error that an SK006 fix did not move down was not fixed by it.
    if let (Some(was), Some(now)) = (first_error(before), first_error(after))
        && now <= was
        && applied.contains_key(SK006.code)
        && !new.contains(&SK006.code)
    {
        new.push(SK006.code);
    }
    if new.is_empty() {
        return Ok(());
    }
    // A file the fixes grow past `max-file-size` is not read at all: no bug of a rule's fix,
    // but not a file to write either.
    if new.contains(&SK011.code) {
        let rules: Vec<&str> = applied.keys().copied().collect();
        return Err(Failure::Refused(format!(
            "the fixes of {} would make the file larger than `max-file-size` ({}); the file is left as it was",
            rules.join(", "),
            SK011.code
        )));
    }
    Err(Failure::Worse {
        rules: applied.keys().copied().collect(),
        new,
    })
}

/// The rules that report more in `after` than in `baseline` (diagnostic counts per rule). When
/// the frontmatter could not be read before, only those rules count: no other could run.
fn new_problems(
    baseline: &BTreeMap<&'static str, usize>,
    after: &BTreeMap<&'static str, usize>,
) -> Vec<&'static str> {
    // No `---` frontmatter: nothing but the rules that say what could not be read could judge
    // the file. A frontmatter that is not YAML (or not a mapping): no rule of its fields could.
    let stopped = |needs: Needs| {
        baseline
            .keys()
            .any(|code| crate::rule::find(code).is_some_and(|r| r.stops == Some(needs)))
    };
    let (undelimited, unparsed) = (stopped(Needs::Frontmatter), stopped(Needs::Fields));
    after
        .iter()
        .filter(|(code, n)| {
            let was = baseline.get(*code).copied().unwrap_or(0);
            let rule = crate::rule::find(code);
            let masked = if undelimited {
                rule.is_none_or(|r| r.stops.is_none())
            } else {
                unparsed && rule.is_some_and(|r| r.needs >= Needs::Fields)
            };
            **n > was && !masked
        })
        .map(|(code, _)| *code)
        .collect()
}

/// How many diagnostics of each rule a report holds, but for those on the `skipped` lines
/// (other than those of the rules about a value's form, [`Tag::Form`]).
fn codes(report: &SkillReport, skipped: &[usize]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for d in &report.diagnostics {
        if d.region.is_some_and(|r| skipped.contains(&r.line)) && !d.rule.has(Tag::Form) {
            continue;
        }
        *counts.entry(d.rule.code).or_default() += d.count;
    }
    counts
}

/// The text of the lines of `after` that are not lines of `before`.
fn inserted_lines(before: &[u8], after: &[u8]) -> Vec<String> {
    let (before, after) = (
        String::from_utf8_lossy(before),
        String::from_utf8_lossy(after),
    );
    similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Insert)
        .map(|c| c.value().trim_end_matches(['\r', '\n']).to_string())
        .collect()
}

/// The numbers (1-based) of the lines of `text` whose text is one of `lines`.
fn lines_holding(text: &[u8], lines: &HashSet<String>) -> Vec<usize> {
    if lines.is_empty() {
        return Vec::new();
    }
    String::from_utf8_lossy(text)
        .lines()
        .enumerate()
        .filter(|(_, line)| lines.contains(line.trim_end_matches('\r')))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Fixes the skill file of `dir` on disk (with `write`; else only says what would change):
/// returns the text as read and what fixing it did. A file that is read-only (for its owner
/// too: no owner write bit) or has other hard links is not fixed (a fix would split them); a rename that would replace another file,
/// or leave a link in the skill dangling, is not made (said in [`Fixed::notes`]).
pub fn fix_file(
    dir: &SkillDir,
    settings: &Settings,
    cwd: &Path,
    mode: Mode,
    write: bool,
    taken: &HashSet<String>,
) -> Result<(Vec<u8>, Fixed), Failure> {
    let Some(shown) = dir.file.clone() else {
        return Err(Failure::Refused(format!(
            "`{}` has no skill file to fix",
            dir.dir.display()
        )));
    };
    let target = writable(&shown, dir)?;
    let original = read(&target, settings)?;
    let mut fixed = fix_text(dir, original.clone(), settings, cwd, mode, taken)?;
    if let Some(name) = fixed.rename.clone() {
        let to = shown.with_file_name(&name);
        let why = if std::fs::symlink_metadata(&to).is_ok() && !same_file(&shown, &to) {
            Some("a file of that name exists")
        } else if rename_breaks(dir, &shown, None) || mentions_own_name(&shown, &fixed.text) {
            Some("a link in the skill leads to it")
        } else {
            None
        };
        if let Some(why) = why {
            fixed.rename = None;
            fixed.notes.push(format!(
                "not renaming `{}` to `{name}`: {why}",
                shown.display()
            ));
        }
    }
    if write && fixed.text != original {
        write_unchanged(&target, &shown, &original, &fixed.text, settings)?;
        fixed.written = Some(target.clone());
    }
    if let Some(name) = fixed.rename.clone() {
        // The name itself is renamed (a link stays a link), never over another file.
        if write {
            let to = shown.with_file_name(&name);
            if let Err(e) = rename_no_replace(&shown, &to) {
                fixed.rename = None;
                fixed.notes.push(format!(
                    "not renaming `{}` to `{name}`: {e}",
                    shown.display()
                ));
                return Ok((original, fixed));
            }
            fixed.renamed_from = Some(shown.to_path_buf());
        }
        *fixed.applied.entry(SK012.code).or_default() += 1;
    }
    Ok((original, fixed))
}

/// Replaces the file at `target` (shown as `shown`) with `text`, unless it no longer holds
/// `original`: a file that changed on disk since it was read is not written.
fn write_unchanged(
    target: &Path,
    shown: &Path,
    original: &[u8],
    text: &[u8],
    settings: &Settings,
) -> Result<(), Failure> {
    if read(target, settings)? != original {
        return Err(Failure::Refused(format!(
            "not fixing `{}`: it changed on disk while it was being fixed",
            shown.display()
        )));
    }
    replace(target, text)
        .map_err(|e| Failure::Refused(format!("writing `{}`: {e}", shown.display())))
}

/// Writes `text` over the skill file of `dir` whose bytes were `original` (as [`fix_file`]
/// writes: refused for a read-only file, one with other hard links, a link outside the skill,
/// or a file that changed since it was read).
pub fn write_text(
    dir: &SkillDir,
    original: &[u8],
    text: &[u8],
    settings: &Settings,
) -> Result<(), Failure> {
    let Some(shown) = dir.file.clone() else {
        return Err(Failure::Refused(format!(
            "`{}` has no skill file",
            dir.dir.display()
        )));
    };
    let target = writable(&shown, dir)?;
    write_unchanged(&target, &shown, original, text, settings)
}

/// Reads the skill file of `dir` as [`fix_file`] does (bounded, no link outside the skill).
pub fn read_skill_file(dir: &SkillDir, settings: &Settings) -> Result<Vec<u8>, Failure> {
    let Some(shown) = dir.file.clone() else {
        return Err(Failure::Refused(format!(
            "`{}` has no skill file",
            dir.dir.display()
        )));
    };
    read(&linked_target(&shown, dir)?, settings)
}

/// Undoes what [`fix_file`] did to a skill file whose text was `original`: the rename, then
/// the text.
pub fn revert(fixed: &Fixed, original: &[u8]) -> std::io::Result<()> {
    if let (Some(from), Some(name)) = (&fixed.renamed_from, &fixed.rename) {
        rename_no_replace(&from.with_file_name(name), from)?;
    }
    if let Some(written) = &fixed.written {
        replace(written, original)?;
    }
    Ok(())
}

/// Renames `from` to `to` unless `to` is another, existing file.
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(to).is_ok() {
        if same_file(from, to) {
            // Only the case of the name changes, on a file system that ignores it.
            return std::fs::rename(from, to);
        }
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "a file of that name exists",
        ));
    }
    // A hard link fails rather than replace a file created meanwhile; then the old name goes.
    match std::fs::hard_link(from, to) {
        Ok(()) => std::fs::remove_file(from),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
        // A file system without hard links: a plain rename, the target checked just above.
        Err(_) => std::fs::rename(from, to),
    }
}

/// The file to write for the skill file `shown`: itself, or, when it is a symbolic link, the
/// file it leads to when that lies inside the skill.
fn writable(shown: &Path, dir: &SkillDir) -> Result<PathBuf, Failure> {
    let target = linked_target(shown, dir)?;
    let meta = std::fs::metadata(&target)
        .map_err(|e| Failure::Refused(format!("reading `{}`: {e}", shown.display())))?;
    if meta.permissions().readonly() {
        return Err(Failure::Refused(format!(
            "not fixing `{}`: it is read-only",
            shown.display()
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Its owner took the write bit away (0464: the group may write, the owner may not);
        // root, or a group member, could write it all the same, but a fix must not.
        if meta.mode() & 0o200 == 0 {
            return Err(Failure::Refused(format!(
                "not fixing `{}`: it is read-only for its owner (mode {:04o})",
                shown.display(),
                meta.mode() & 0o7777
            )));
        }
        if meta.nlink() > 1 {
            return Err(Failure::Refused(format!(
                "not fixing `{}`: it has {} hard links, which writing a fixed copy would split",
                shown.display(),
                meta.nlink()
            )));
        }
    }
    Ok(target)
}

/// The skill file `shown` itself, or, when it is a symbolic link, the file it leads to when
/// that lies inside the skill.
fn linked_target(shown: &Path, dir: &SkillDir) -> Result<PathBuf, Failure> {
    let meta = std::fs::symlink_metadata(shown)
        .map_err(|e| Failure::Refused(format!("reading `{}`: {e}", shown.display())))?;
    if !meta.file_type().is_symlink() {
        return Ok(shown.to_path_buf());
    }
    let target = std::fs::canonicalize(shown).ok();
    let root = std::fs::canonicalize(dir.real_path()).ok();
    match (target, root) {
        (Some(target), Some(root)) if target.starts_with(&root) => Ok(target),
        _ => Err(Failure::Refused(format!(
            "not fixing `{}`: it is a symbolic link to a file outside the skill",
            shown.display()
        ))),
    }
}

fn read(path: &Path, settings: &Settings) -> Result<Vec<u8>, Failure> {
    match read_capped(path, settings.max_file_size, Links::Refuse) {
        Ok(Read::Bytes(bytes)) => Ok(bytes),
        Ok(Read::TooLarge(size)) => Err(Failure::Refused(format!(
            "not fixing `{}`: it is {size} bytes, over the limit of {}",
            path.display(),
            settings.max_file_size
        ))),
        Err(e) => Err(Failure::Refused(format!(
            "reading `{}`: {e}",
            path.display()
        ))),
    }
}

/// Replaces the file at `path` with `bytes` atomically: a temporary file beside it, with its
/// permissions, renamed over it.
fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let meta = std::fs::metadata(path)?;
    let mut temp = tempfile::Builder::new()
        .prefix(".skillc-fix-")
        .tempfile_in(parent)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    std::fs::set_permissions(temp.path(), meta.permissions())?;
    keep_owner(temp.path(), &meta)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Gives the file at `path` the owner and group of `meta` (a fixed copy written by root keeps
/// its user's ownership). A group that cannot be kept is not an error; an owner is.
#[cfg(unix)]
fn keep_owner(path: &Path, meta: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let now = std::fs::metadata(path)?;
    if now.uid() == meta.uid() && now.gid() == meta.gid() {
        return Ok(());
    }
    match std::os::unix::fs::chown(path, Some(meta.uid()), Some(meta.gid())) {
        Ok(()) => Ok(()),
        Err(_) if now.uid() == meta.uid() => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn keep_owner(_path: &Path, _meta: &std::fs::Metadata) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_reporting_more_is_new_unless_the_frontmatter_did_not_parse() {
        let counts = |pairs: &[(&'static str, usize)]| pairs.iter().copied().collect();
        let before = counts(&[("SK013", 1), ("SK402", 1)]);
        assert_eq!(
            new_problems(&before, &counts(&[("SK013", 2), ("SK101", 1)])),
            vec!["SK013", "SK101"]
        );
        assert!(new_problems(&before, &counts(&[("SK402", 1)])).is_empty());
        let unparsed = counts(&[("SK006", 1)]);
        assert!(new_problems(&unparsed, &counts(&[("SK101", 1), ("SK006", 1)])).is_empty());
        assert_eq!(
            new_problems(&unparsed, &counts(&[("SK006", 2)])),
            vec!["SK006"]
        );
        // The body's rules ran before: they count.
        assert_eq!(
            new_problems(&unparsed, &counts(&[("SK006", 1), ("SK404", 1)])),
            vec!["SK404"]
        );
        // With no `---` frontmatter at all, nothing but the layout rules could judge the file.
        let undelimited = counts(&[("SK003", 1)]);
        assert!(new_problems(&undelimited, &counts(&[("SK403", 1)])).is_empty());
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_not_written() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("SKILL.md");
        std::fs::write(&file, "changed meanwhile\n").unwrap();
        let settings = Settings::default();
        let refused = write_unchanged(&file, &file, b"as read\n", b"fixed\n", &settings);
        assert!(
            matches!(&refused, Err(Failure::Refused(why)) if why.ends_with("it changed on disk while it was being fixed")),
            "{refused:?}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"changed meanwhile\n");
        write_unchanged(&file, &file, b"changed meanwhile\n", b"fixed\n", &settings).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"fixed\n");
        // No temporary file is left beside it.
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }
}
