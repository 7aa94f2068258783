//! The collection phase: the rules that compare a skill with the other skills of a run, then
//! the suppressions that named no rule or suppressed nothing (SK018, SK019's checks live in
//! [`crate::suppress`]).

use std::path::Path;

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::dialect::Dialect;
use crate::rules;
use crate::skill::SkillReport;

use super::settle::apply_settings;

/// The collection rules over every report, then each report they added to finished again.
pub(super) fn conclude(reports: &mut [SkillReport], settings: &Settings, cwd: &Path) {
    let before: Vec<usize> = reports.iter().map(|r| r.diagnostics.len()).collect();
    rules::collection::check(reports, settings, cwd);
    for (report, n) in reports.iter_mut().zip(before) {
        if report.diagnostics.len() != n {
            apply_settings(report, settings, cwd);
        }
        suppression_problems(report, settings, cwd);
    }
}

/// SK018 and SK019, once every rule has run on a report: its suppressions that name no rule or
/// suppressed nothing. (Like the collection rules' diagnostics, they are kept as diagnostics
/// even when the run keeps only counts.)
pub(super) fn suppression_problems(report: &mut SkillReport, settings: &Settings, cwd: &Path) {
    if report.suppressions.is_empty() {
        return;
    }
    let abs_path = crate::discover::absolute(cwd, report.path());
    let abs_dir = crate::discover::absolute(cwd, &report.dir.dir);
    let dialect = report.dialect;
    // A rule "ran" when it is selected, not ignored for this file, of the skill's dialect, and
    // not a collection rule (what they find depends on the other skills a run checks: a run
    // over one skill cannot tell that a suppression of SK501 is unused).
    let ran = |rule: &crate::rule::Rule| {
        let of_dialect = !matches!(
            (rule.dialects, dialect),
            (crate::rule::Dialects::Par, Some(Dialect::AgentSkills))
                | (crate::rule::Dialects::AgentSkills, Some(Dialect::Par))
        );
        settings.enabled(rule)
            && !settings.ignored_for(rule, &abs_path, &abs_dir)
            && of_dialect
            && !rule.has(crate::rule::Tag::Collection)
    };
    let found = report.suppressions.problems(&report.dir.dir, ran);
    if !found.is_empty() {
        report.diagnostics.extend(found);
        apply_settings(report, settings, cwd);
    }
}

/// Completes a report of [`lint_buffer_alone`] with the collection rules run among `others`
/// (as [`lint_buffer_among`] does). Returns what they did to it: the diagnostics they added,
/// and the fixes of its name-fix diagnostics after them (a name another skill takes has
/// none) — what [`collected_before`] applies again while nothing they read has changed.
pub fn collect_among(
    report: &mut SkillReport,
    others: &mut Vec<SkillReport>,
    settings: &Settings,
    cwd: &Path,
) -> Collected {
    let before = report.diagnostics.len();
    check_among(report, others, settings, cwd);
    let collected = Collected {
        added: report.diagnostics[before.min(report.diagnostics.len())..].to_vec(),
        name_fixes: name_fixes(report).map(|d| d.fix.clone()).collect(),
    };
    apply_settings(report, settings, cwd);
    suppression_problems(report, settings, cwd);
    collected
}

/// What the collection rules did to one report ([`collect_among`]).
#[derive(Debug, Clone)]
pub struct Collected {
    added: Vec<Diagnostic>,
    name_fixes: Vec<Option<Box<crate::fix::Fix>>>,
}

/// Completes a report of [`lint_buffer_alone`] as [`collect_among`] did before, for the same
/// facts among the same other skills (the caller knows they are the same).
pub fn collected_before(
    report: &mut SkillReport,
    collected: &Collected,
    settings: &Settings,
    cwd: &Path,
) {
    for (d, fix) in report
        .diagnostics
        .iter_mut()
        .filter(|d| crate::fix::sets_key(d))
        .zip(&collected.name_fixes)
    {
        d.fix.clone_from(fix);
    }
    report.diagnostics.extend(collected.added.iter().cloned());
    apply_settings(report, settings, cwd);
    suppression_problems(report, settings, cwd);
}

/// What of a report the collection rules read, as text: two reports with the same facts get
/// the same from them among the same other skills.
pub fn collection_facts(report: &SkillReport) -> String {
    let fixes: Vec<_> = name_fixes(report).map(|d| (d.rule.code, &d.fix)).collect();
    format!(
        "{:?}",
        (
            (&report.key, report.key_region(), &report.description),
            (report.fields(), report.targets, &report.dir, report.dialect),
            (report.placement(), report.tools(), fixes),
        )
    )
}

pub(super) fn name_fixes(report: &SkillReport) -> impl Iterator<Item = &Diagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| crate::fix::sets_key(d))
}

/// Runs the collection rules over `others` with `report` in the place of its skill's report,
/// then gives `report` back with what they found on it and clears the others' diagnostics.
pub(super) fn check_among(
    report: &mut SkillReport,
    others: &mut Vec<SkillReport>,
    settings: &Settings,
    cwd: &Path,
) {
    let place = others.binary_search_by(|r| r.dir.dir.cmp(&report.dir.dir));
    let i = match place {
        Ok(i) => {
            std::mem::swap(report, &mut others[i]);
            i
        }
        Err(i) => {
            let placeholder = SkillReport::empty(report.dir.clone());
            others.insert(i, std::mem::replace(report, placeholder));
            i
        }
    };
    rules::collection::check(others, settings, cwd);
    match place {
        Ok(_) => std::mem::swap(report, &mut others[i]),
        Err(_) => *report = others.remove(i),
    }
    for other in others.iter_mut() {
        other.diagnostics.clear();
    }
}

/// The reports of the plugin marketplaces (`.claude-plugin/marketplace.json`) at the root of
/// each of `paths` (the current directory when none is given): not skills, but what they list
/// is installed from the repository ([`rules::marketplace`]). One report per marketplace that
/// has something to say, its directory the marketplace's folder and no skill file (so it is not
/// counted as a skill checked).
pub fn marketplaces(
    paths: &[std::path::PathBuf],
    settings: &Settings,
    cwd: &Path,
    keep: crate::skill::Keep,
) -> Vec<SkillReport> {
    use crate::rules::marketplace::SK505;
    if !settings.enabled(&SK505) {
        return Vec::new();
    }
    let here = [cwd.to_path_buf()];
    let paths = if paths.is_empty() { &here[..] } else { paths };
    let mut seen: Vec<std::path::PathBuf> = Vec::new();
    let mut reports = Vec::new();
    for path in paths {
        let absolute = crate::discover::absolute(cwd, path);
        let manifest = absolute.join(".claude-plugin").join("marketplace.json");
        let Ok(real) = absolute.canonicalize() else {
            continue;
        };
        if seen.contains(&real) || !manifest.is_file() {
            continue;
        }
        seen.push(real.clone());
        let text = match crate::input::read_capped(
            &manifest,
            crate::plugins::MANIFEST_MAX_BYTES,
            crate::input::Links::Follow,
        ) {
            Ok(crate::input::Read::Bytes(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => continue,
            },
            _ => continue,
        };
        let shown_dir = crate::discover::display_path(&absolute, cwd);
        let shown = crate::discover::display_path(&manifest, cwd);
        let file = crate::source::SkillFile::new(shown, text);
        let mut out =
            crate::skill::Reporter::new(Some(&file), file.path.clone(), shown_dir.clone());
        rules::marketplace::check(&real, &file, &mut out);
        if out.diagnostics.is_empty() {
            continue;
        }
        let dir = crate::discover::SkillDir {
            dir: shown_dir.into(),
            file: None,
            real: crate::discover::Real::At(real.into()),
            tier: crate::discover::Tier::Project,
            rare: None,
            listed: crate::input::Listed::default(),
        };
        let mut report = SkillReport::empty(dir);
        report.diagnostics = out.diagnostics;
        apply_settings(&mut report, settings, cwd);
        if keep.lines {
            super::keep_lines(&mut report, Some(&file), &[]);
        }
        reports.push(report);
    }
    reports
}
