//! The pipeline: each skill is read, parsed and linted once, by one of a pool of workers
//! (discover → read → parse → dialect → rules → diagnostics), and what a worker hands back is
//! only what output needs ([`SkillReport`]); then the collection rules run over those reports,
//! and the configured selection, severities and suppressions are applied.

mod check;
mod collect;
mod pipeline;
mod settle;

pub use collect::{Collected, collect_among, collected_before, collection_facts, marketplaces};
pub use pipeline::{Progress, discover_and_lint};
pub use settle::{costs, keep_lines};

use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::discover::{NotFound, SkillDir};

use crate::skill::{Keep, SkillReport};

use self::check::{ReadFrom, lint_skill};
use self::collect::conclude;
use self::pipeline::{internal_error, leave_files_to, lint_one, nested_skills};
use self::settle::settle;

/// Lints every skill, using up to the machine's cores, and applies collection rules,
/// selection, severities and suppressions. Reports come back in discovery (path) order.
pub fn lint_all(
    skills: Vec<SkillDir>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> Vec<SkillReport> {
    let inner = nested_skills(&skills);
    let work: Vec<(SkillDir, Vec<PathBuf>)> = skills.into_iter().zip(inner).collect();
    let mut reports = crate::parallel::map_owned(
        work,
        |(dir, inner)| lint_one(dir, None, &inner, settings, cwd, keep),
        |_| internal_error(Path::new("")),
    );
    conclude(&mut reports, settings, cwd);
    reports
}

/// Lints one skill whose skill file's bytes are given — an editor's unsaved buffer, standard
/// input, or exactly the bytes `pack` packs — in the context of its directory (the files
/// beside it are read from disk) and settings, with the same results as from disk.
/// `dir.file` is the path shown for the skill file.
pub fn lint_buffer(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> SkillReport {
    lint_buffer_among(dir, bytes, settings, cwd, keep, &mut Vec::new())
}

/// [`lint_buffer`] among other skills: the collection rules (duplicate keys, catalog budgets,
/// tools across skills) see the buffer's skill in place of its report in `others` (the reports
/// of a workspace's skills in path order, as [`discover_and_lint`] gives them) and report
/// only on the buffer's skill; `others` are left with no diagnostics.
pub fn lint_buffer_among(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
    others: &mut Vec<SkillReport>,
) -> SkillReport {
    let mut report = lint_buffer_alone(dir, bytes, settings, cwd, keep);
    collect_among(&mut report, others, settings, cwd);
    report
}

/// [`lint_buffer`] up to the collection rules: what [`collect_among`] or
/// [`collected_before`] then completes.
pub fn lint_buffer_alone(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> SkillReport {
    let mut dir = dir;
    if dir.file.is_none() {
        dir.file = Some(dir.dir.join("SKILL.md").into());
    }
    let (mut report, sources) = lint_skill(dir, ReadFrom::Buffer(bytes), settings);
    // The skills nested in it, as discovery would find them, report their own files.
    let inner: Vec<PathBuf> = sources
        .tree
        .nested_roots()
        .iter()
        .map(|root| report.dir.dir.join(root.trim_end_matches('/')))
        .collect();
    leave_files_to(&inner, &mut report.diagnostics);
    settle(&mut report, sources, settings, cwd, keep);
    report
}

/// [`lint_buffer`] for the skill file at `path` (which need not exist yet): its skill
/// directory, tier and nesting are found as discovery would find them. Other paths a run may
/// reach the skill by (a symbolic link in `.claude/skills/`) are not known from one path: pass
/// the [`SkillDir`] discovery found to [`lint_buffer`] for those.
pub fn lint_text(
    path: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> Result<SkillReport, NotFound> {
    let dir = crate::discover::skill_of_file(path, cwd)?;
    Ok(lint_buffer(dir, bytes, settings, cwd, keep))
}
