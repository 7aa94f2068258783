//! Fixing one skill file: its fixes are applied round after round, the text linted again after
//! each, until none is left to apply; the result is kept only when it is no worse than the
//! file was, and written only when it differs, atomically, and only when the file did not
//! change on disk meanwhile.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Mode, apply};
use crate::config::Settings;
use crate::discover::SkillDir;
use crate::input::{Links, Read, read_capped};
use crate::lint::lint_buffer;
use crate::skill::{Keep, SkillReport};

/// At most this many rounds of fixes (each lints the text again).
const MAX_ROUNDS: usize = 10;

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
/// most [`MAX_ROUNDS`] rounds). Fails when the result has a problem the text did not have.
pub fn fix_text(
    dir: &SkillDir,
    text: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    mode: Mode,
) -> Result<Fixed, Failure> {
    let lint =
        |text: &[u8]| lint_buffer(dir.clone(), text.to_vec(), settings, cwd, Keep::default());
    let before = lint(&text);
    let baseline = codes(&before, &[]);
    let mut report = before;
    let original = text.clone();
    let mut text = text;
    let mut applied: BTreeMap<&'static str, usize> = BTreeMap::new();
    for _ in 0..MAX_ROUNDS {
        mode.settle(settings, &mut report.diagnostics);
        let file = report.dir.file.clone();
        let fixes: Vec<(&'static str, &super::Fix)> = report
            .diagnostics
            .iter()
            .filter(|d| Some(&d.path) == file.as_ref())
            .filter_map(|d| Some((d.rule.code, d.fix.as_deref().filter(|f| f.available)?)))
            .filter(|(_, f)| !f.edits.is_empty())
            .collect();
        if fixes.is_empty() {
            break;
        }
        let only: Vec<&super::Fix> = fixes.iter().map(|(_, f)| *f).collect();
        let (next, done) = apply(&text, &only);
        if done.is_empty() || next == text {
            break;
        }
        for i in done {
            *applied.entry(fixes[i].0).or_default() += 1;
        }
        text = next;
        report = lint(&text);
    }
    // What the rules could not judge before is not new: a frontmatter that did not parse kept
    // every frontmatter rule from running, and a value of the wrong type (`description: 42`)
    // kept the rules on its text from running, until a fix gave it its type. Their diagnostics
    // on the lines such a fix wrote are unmasked, not made. Otherwise no rule may report more.
    let unmasked = if applied.keys().any(|code| TYPE_FIXES.contains(code)) {
        changed_lines(&original, &text)
    } else {
        Vec::new()
    };
    let new = new_problems(&baseline, &codes(&report, &unmasked));
    if !new.is_empty() && !applied.is_empty() {
        return Err(Failure::Worse {
            rules: applied.keys().copied().collect(),
            new,
        });
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
    })
}

/// The rules that report more in `after` than in `baseline` (diagnostic counts per rule). When
/// the frontmatter did not parse before (SK006), only SK006 counts: no frontmatter rule could
/// run before.
fn new_problems(
    baseline: &BTreeMap<&'static str, usize>,
    after: &BTreeMap<&'static str, usize>,
) -> Vec<&'static str> {
    let unparsed = baseline.contains_key("SK006");
    after
        .iter()
        .filter(|(code, n)| {
            let was = baseline.get(*code).copied().unwrap_or(0);
            **n > was && (!unparsed || **code == "SK006")
        })
        .map(|(code, _)| *code)
        .collect()
}

/// The rules whose fixes change a value's YAML type (a number, a boolean or a list becomes
/// text).
const TYPE_FIXES: [&str; 4] = ["SK010", "SK014", "SK303", "SK304"];

/// How many diagnostics of each rule a report holds, but for those on the `skipped` lines.
fn codes(report: &SkillReport, skipped: &[usize]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for d in &report.diagnostics {
        if d.region.is_some_and(|r| skipped.contains(&r.line)) {
            continue;
        }
        *counts.entry(d.rule.code).or_default() += d.count;
    }
    counts
}

/// The lines (1-based) of `after` that are not lines of `before`.
fn changed_lines(before: &[u8], after: &[u8]) -> Vec<usize> {
    let (before, after) = (
        String::from_utf8_lossy(before),
        String::from_utf8_lossy(after),
    );
    similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Insert)
        .filter_map(|c| c.new_index().map(|i| i + 1))
        .collect()
}

/// Fixes the skill file of `dir` on disk (with `write`; else only says what would change):
/// returns the text as read and what fixing it did.
pub fn fix_file(
    dir: &SkillDir,
    settings: &Settings,
    cwd: &Path,
    mode: Mode,
    write: bool,
) -> Result<(Vec<u8>, Fixed), Failure> {
    let Some(shown) = dir.file.clone() else {
        return Err(Failure::Refused(format!(
            "`{}` has no skill file to fix",
            dir.dir.display()
        )));
    };
    let target = writable(&shown, dir)?;
    let original = read(&target, settings)?;
    let mut fixed = fix_text(dir, original.clone(), settings, cwd, mode)?;
    if write && fixed.text != original {
        write_unchanged(&target, &shown, &original, &fixed.text, settings)?;
        fixed.written = Some(target.clone());
    }
    if let Some(name) = fixed.rename.clone() {
        // The name itself is renamed (a link stays a link), never over another file.
        let to = shown.with_file_name(&name);
        if write {
            rename_no_replace(&shown, &to).map_err(|e| {
                Failure::Refused(format!(
                    "not renaming `{}` to `{name}`: {e}",
                    shown.display()
                ))
            })?;
            fixed.renamed_from = Some(shown.to_path_buf());
        } else if std::fs::symlink_metadata(&to).is_ok() && !same_file(&shown, &to) {
            fixed.rename = None;
            return Ok((original, fixed));
        }
        *fixed.applied.entry("SK012").or_default() += 1;
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

/// Whether two paths name one file (a rename that changes only the case of a name, on a file
/// system that ignores case).
fn same_file(a: &Path, b: &Path) -> bool {
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
    let permissions = std::fs::metadata(path)?.permissions();
    let mut temp = tempfile::Builder::new()
        .prefix(".skillc-fix-")
        .tempfile_in(parent)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    std::fs::set_permissions(temp.path(), permissions)?;
    temp.persist(path).map_err(|e| e.error)?;
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
