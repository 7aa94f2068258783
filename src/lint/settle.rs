//! What a report keeps once its rules have run: the configured selection, severities and
//! suppressions applied, sorted and capped ([`apply_settings`]), and of what was read only what
//! output needs ([`settle`]).

use foldhash::{HashMap, HashMapExt};
use std::path::Path;

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Region, Span};
use crate::discover::SkillDir;
use crate::files::SkillTree;
use crate::skill::{Keep, SkillReport};
use crate::source::SkillFile;
use crate::tokens::Costs;

use super::check::{ReadFrom, lint_skill};

/// What a worker read of a skill, needed only until its report is settled.
#[derive(Default)]
pub(super) struct Sources {
    pub(super) file: Option<SkillFile>,
    /// Other files diagnostics point into (linked Markdown files, bundled tool schemas).
    pub(super) others: Vec<SkillFile>,
    /// The body's span in the skill file, when the file has frontmatter.
    pub(super) body: Option<Span>,
    pub(super) tree: SkillTree,
}

/// Finishes a skill's own diagnostics and keeps of its sources only what output needs: the
/// lines its diagnostics (and the collection rules' ones, at its key and its tools) point
/// at, and its token costs, as `keep` says.
pub(super) fn settle(
    report: &mut SkillReport,
    sources: Sources,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) {
    apply_settings(report, settings, cwd);
    if keep.details {
        report.diagnostics.shrink_to_fit();
    } else {
        // Only the rule, severity and count of each is printed (`--statistics`).
        report.tallies = crate::skill::Tally::of(&report.diagnostics);
        report.diagnostics = Vec::new();
    }
    // (A report with no fields is left without an [`Extra`](crate::skill::Extra) to trim.)
    if !keep.fields && !report.fields().is_empty() {
        let fields = &mut report.extra_mut().fields;
        fields.retain(|(key, _)| crate::skill::CATALOG_FIELDS.contains(&key.as_str()));
        fields.shrink_to_fit();
    }
    if keep.costs {
        report.extra_mut().costs = count_costs(report, &sources, settings);
    }
    if keep.lines {
        keep_lines(report, sources.file.as_ref(), &sources.others);
    }
    report.tidy();
}

/// A skill's token costs (L1, L2, L3): what `skillc show` prints for one skill.
pub fn costs(dir: &SkillDir, settings: &Settings) -> Option<Costs> {
    let (report, sources) = lint_skill(dir.clone(), ReadFrom::Disk(None), settings);
    count_costs(&report, &sources, settings)
}

pub(super) fn count_costs(
    report: &SkillReport,
    sources: &Sources,
    settings: &Settings,
) -> Option<Costs> {
    let tokenizer = crate::tokens::tokenizer(settings.encoding)?;
    let body = match (&sources.file, sources.body) {
        (Some(file), Some(body)) => file.slice(body),
        _ => "",
    };
    let entry = (
        report.key.as_deref().unwrap_or(""),
        report.description.as_deref().unwrap_or(""),
    );
    Some(crate::tokens::costs(
        tokenizer,
        entry,
        body,
        &report.dir,
        &sources.tree,
        settings.max_file_size,
    ))
}

/// Keeps the lines of `file` (the skill file) and `others` that the report's diagnostics point
/// at, and those the collection rules may point at later (the key, the bundled tools).
pub fn keep_lines(report: &mut SkillReport, file: Option<&SkillFile>, others: &[SkillFile]) {
    let excerpts = file
        .into_iter()
        .chain(others)
        .map(|source| {
            let at = |region: &Region| region.line;
            let mut lines: Vec<usize> = Vec::new();
            for d in report
                .diagnostics
                .iter()
                .filter(|d| *d.path == *source.path)
            {
                lines.extend(d.region.iter().flat_map(Region::shown_lines));
                lines.extend(d.secondary.iter().map(|l| l.region.line));
            }
            if file.is_some_and(|f| f.path == source.path) {
                lines.extend(report.key_region().iter().map(at));
                lines.extend(report.suppressions.lines());
            }
            let tools = report.tools().iter().filter(|t| *t.path == *source.path);
            lines.extend(tools.map(|t| t.region.line));
            source.excerpt(lines)
        })
        .filter(|excerpt| !excerpt.is_empty())
        .collect();
    report.set_excerpts(excerpts);
}

/// Applies selection, per-file ignores, severities and suppressions; sorts, dedups and caps.
/// Finishing again after more diagnostics are added (the collection rules') gives what one
/// pass over them all would give.
pub(super) fn apply_settings(report: &mut SkillReport, settings: &Settings, cwd: &Path) {
    // The absolute paths `per-file-ignores` matches, made only when it names files.
    let abs = settings.has_per_file_ignores().then(|| {
        (
            crate::discover::absolute(cwd, report.path()),
            crate::discover::absolute(cwd, &report.dir.dir),
        )
    });
    let suppressions = &report.suppressions;
    report.diagnostics.retain(|d| {
        settings.enabled(d.rule)
            && !abs
                .as_ref()
                .is_some_and(|(path, dir)| settings.ignored_for(d.rule, path, dir))
            && !suppressions.suppresses(d)
    });
    for d in &mut report.diagnostics {
        // A rule may report one case at another severity than its own (SK408: a link that
        // works is a warning); a severity configured for the rule applies to all of them.
        if let Some(severity) = settings.configured_severity(d.rule) {
            d.severity = severity;
        }
    }
    report.diagnostics.sort_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.message.cmp(&b.message))
    });
    // One that counts others hidden by the cap is kept: its count would go with it.
    report.diagnostics.dedup_by(|a, b| {
        a.count == 1 && a.rule.code == b.rule.code && a.region == b.region && a.message == b.message
    });
    cap_per_rule(&mut report.diagnostics, crate::config::MAX_PER_RULE);
}

/// Keeps the first `cap` diagnostics of each rule (in output order) and replaces
/// the rest with one diagnostic that counts them, at the first one left out: output and memory
/// stay proportional to what a person can act on, whatever a file holds. Capping again is
/// harmless: a counting diagnostic already there is left out again and its count carried over.
pub(super) fn cap_per_rule(diagnostics: &mut Vec<Diagnostic>, cap: usize) {
    let mut entries: HashMap<&'static str, usize> = HashMap::new();
    let mut problems: HashMap<&'static str, usize> = HashMap::new();
    for d in diagnostics.iter() {
        *entries.entry(d.rule.code).or_default() += 1;
        *problems.entry(d.rule.code).or_default() += d.count;
    }
    if entries.values().all(|&n| n <= cap) {
        return;
    }
    let mut seen: HashMap<&'static str, (usize, usize)> = HashMap::new();
    let mut kept = Vec::with_capacity(
        diagnostics
            .len()
            .min(entries.len().saturating_mul(cap.saturating_add(1))),
    );
    for mut d in diagnostics.drain(..) {
        let (n, shown) = seen.entry(d.rule.code).or_default();
        *n += 1;
        if *n <= cap {
            *shown += d.count;
            kept.push(d);
        } else if *n == cap + 1 {
            let more = problems.get(d.rule.code).copied().unwrap_or(0) - *shown;
            d.message = format!(
                "{more} more `{}` diagnostics in this skill are not shown (at most {cap} per rule and skill)",
                d.rule.name
            );
            d.label = None;
            d.count = more;
            d.help = Some("fix the ones shown and run skillc again to see the rest".into());
            d.secondary.clear();
            kept.push(d);
        }
    }
    *diagnostics = kept;
}
