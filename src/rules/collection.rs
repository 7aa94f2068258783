//! Collection rules over all skills of one run: SK501, SK502, SK503, SK504, and SK602 across
//! skills.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::borrow::Cow;

use std::path::Path;

use super::SK602;
use crate::catalog;
use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::dialect::Dialect;
use crate::discover::Tier;
use crate::skill::SkillReport;
use crate::targets::{Namespace, Unit};

crate::rule::declare! {
    SK501 "duplicate-skill" Error Both
        needs(collection)
        tags(collection)
        "Two skills of the same tier and namespace share a key.";
    SK502 "shadowed-skill" Info Both
        needs(collection)
        tags(collection)
        "A skill shadows a skill of a lower tier (or a PAR builtin) with the same key.";
    SK503 "budget-exceeded" Error Both
        needs(collection)
        tags(collection tokens)
        "One install root's L1 tokens exceed its target's token budget; names the skills that would be dropped.";
    SK504 "listing-budget" Warning Both
        needs(collection)
        tags(collection)
        "One install root's catalog exceeds its target's character budget (Claude Code, Codex).";
}

/// The names a name fix (SK101, SK103: the directory's name) may not give a skill: every
/// skill's key, and the directory names two skills share (both would be offered it).
pub fn taken_names(reports: &[SkillReport]) -> HashSet<Cow<'_, str>> {
    let mut dirs: HashMap<Cow<str>, usize> = HashMap::new();
    for report in reports {
        let name = match super::identity::listed_name(&report.dir) {
            Cow::Borrowed(name) => super::identity::nfkc(name),
            Cow::Owned(name) => Cow::Owned(super::identity::nfkc(&name).into_owned()),
        };
        *dirs.entry(name).or_default() += 1;
    }
    reports
        .iter()
        .filter_map(|r| r.key.as_deref().map(Cow::Borrowed))
        .chain(
            dirs.into_iter()
                .filter(|(_, n)| *n > 1)
                .map(|(name, _)| name),
        )
        .collect()
}

/// PAR's builtin skills, which every PAR skill of the same key shadows.
pub const PAR_BUILTINS: [&str; 4] = ["code-reviewer", "summarizer", "translator", "rag-assistant"];

pub fn check(reports: &mut [SkillReport], settings: &Settings, cwd: &Path) {
    // A name fix that would give a skill another skill's key, or the name another skill's
    // fix gives it, is not offered (SK501 would report it).
    // Only a run with a name fix pays for the names (most have none).
    let name_fix = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(|d| crate::fix::sets_key(d) && d.fix.is_some());
    if name_fix {
        let taken = taken_names(reports);
        let collide: Vec<(usize, usize)> = reports
            .iter()
            .enumerate()
            .flat_map(|(i, r)| {
                r.diagnostics
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| crate::fix::gives_taken_name(d, &taken))
                    .map(move |(j, _)| (i, j))
            })
            .collect();
        drop(taken);
        for (i, j) in collide {
            reports[i].diagnostics[j].fix = None;
        }
    }
    let mut found: Vec<(usize, Diagnostic)> = Vec::new();
    // The catalogs first: what they hold while they are measured is freed before the
    // duplicate keys are reported (a registry has thousands).
    budget(reports, settings, cwd, &mut found);
    // The skills of each key in path order: one list sorted by key and index, not a map of
    // vectors (61,000 skills of 40,000 keys).
    let mut keyed: Vec<(&str, usize)> = reports
        .iter()
        .enumerate()
        // A nested skill file (SK016) is loaded by no runtime: it collides with nothing.
        .filter_map(|(i, report)| match (&report.key, report.dir.nested_in()) {
            (Some(key), None) => Some((key.as_str(), i)),
            _ => None,
        })
        .collect();
    keyed.sort_unstable();
    for group in keyed.chunk_by(|a, b| a.0 == b.0) {
        let key = group[0].0;
        let indices = || group.iter().map(|&(_, j)| j);
        for (n, i) in indices().enumerate() {
            let this = &reports[i];
            let tier = this.dir.tier;
            if let Some(first) = indices()
                .take(n)
                .find(|&j| reports[j].dir.tier == tier && same_namespace(this, &reports[j]))
            {
                let other = reports[first].path().display().to_string();
                found.push((
                    i,
                    diagnostic(
                        this,
                        &SK501,
                        format!("duplicate skill key `{key}`: also used by `{other}`"),
                        "rename one of them: a runtime loads only one skill per key",
                    ),
                ));
            }
            let lower = indices()
                .filter(|&j| reports[j].dir.tier < tier)
                .min_by_key(|&j| reports[j].dir.tier);
            if let Some(j) = lower {
                let other = &reports[j];
                found.push((
                    i,
                    diagnostic(
                        this,
                        &SK502,
                        format!(
                            "`{key}` shadows the {} skill `{}`",
                            other.dir.tier.as_str(),
                            other.path().display()
                        ),
                        "this skill replaces the other one; rename it if that is not intended",
                    ),
                ));
            } else if this.dialect == Some(Dialect::Par)
                && PAR_BUILTINS.contains(&key)
                && tier > Tier::Builtin
            {
                found.push((
                    i,
                    diagnostic(
                        this,
                        &SK502,
                        format!("`{key}` shadows PAR's builtin skill `{key}`"),
                        "this skill replaces the builtin one; rename it if that is not intended",
                    ),
                ));
            }
        }
    }
    drop(keyed);
    tools_across_skills(reports, &mut found);
    // Each report's diagnostics grow by what is found on it, no more (a push gives an empty
    // one room for four: 15,000 duplicate keys of a registry would hold 13 MB).
    let mut added: HashMap<usize, usize> = HashMap::new();
    for (i, _) in &found {
        *added.entry(*i).or_default() += 1;
    }
    for (i, n) in added {
        reports[i].diagnostics.reserve_exact(n);
    }
    for (i, d) in found {
        reports[i].diagnostics.push(d);
    }
}

/// Whether two skills of one tier share a namespace in some runtime that loads both: Claude
/// Code keeps each plugin apart (`plugin:name`); the other runtimes have one namespace.
fn same_namespace(a: &SkillReport, b: &SkillReport) -> bool {
    a.targets
        .intersection(b.targets)
        .iter()
        .any(|runtime| match runtime.namespace {
            Namespace::Run | Namespace::Tier => true,
            // A skill no plugin claims is loaded by no plugin: it collides with nothing.
            Namespace::Plugin => {
                !a.placement().unclaimed
                    && !b.placement().unclaimed
                    && a.placement().plugin == b.placement().plugin
            }
        })
}

/// SK602 across skills: a tool name bundled by an earlier skill (in path order).
fn tools_across_skills(reports: &[SkillReport], found: &mut Vec<(usize, Diagnostic)>) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, report) in reports.iter().enumerate() {
        for tool in report.tools() {
            match first.get(tool.name.as_str()) {
                Some(&j) if j != i => {
                    let other = reports[j].tools().iter().find(|t| t.name == tool.name);
                    let where_ =
                        other.map_or_else(String::new, |t| format!(" (`{}`)", t.path.display()));
                    found.push((i, Diagnostic {
                        rule: &SK602,
                        severity: SK602.severity,
                        message: format!("tool `{}` is also bundled by skill `{}`{where_}", tool.name, reports[j].dir.dir.display()),
                        label: Some("repeated".into()),
                        help: Some("tool names must be unique across the skills an agent loads: rename one".into()),
                        path: tool.path.as_path().into(),
                        skill: report.dir.dir.clone(),
                        region: Some(tool.region),
                        secondary: Vec::new(),
                        count: 1,
                        fix: None,
                    }));
                }
                Some(_) => {}
                None => {
                    first.insert(&tool.name, i);
                }
            }
        }
    }
}

fn diagnostic(
    report: &SkillReport,
    rule: &'static super::Rule,
    message: String,
    help: &str,
) -> Diagnostic {
    Diagnostic {
        rule,
        severity: rule.severity,
        message,
        label: Some("this key".into()),
        help: Some(help.into()),
        path: report.shared_path(),
        skill: report.dir.dir.clone(),
        region: report.key_region(),
        secondary: Vec::new(),
        count: 1,
        fix: None,
    }
}

/// SK503 and SK504: an install's catalog exceeds its target's budget (tokens: SK503, an error;
/// characters: SK504, a warning). Reported once per catalog, at the first skill dropped.
fn budget(
    reports: &mut [SkillReport],
    settings: &Settings,
    cwd: &Path,
    found: &mut Vec<(usize, Diagnostic)>,
) {
    if !settings.enabled(&SK503) && !settings.enabled(&SK504) {
        return;
    }
    for cat in catalog::catalogs(reports, settings) {
        let rule = match cat.unit {
            Unit::Tokens => &SK503,
            Unit::Chars => &SK504,
        };
        if !settings.enabled(rule) {
            continue;
        }
        let Some(costs) = catalog::costs(&cat, reports, settings, false) else {
            continue;
        };
        if cat.unit == Unit::Tokens && cat.runtime.listing_cap.is_none() {
            for (&i, &cost) in cat.members.iter().zip(&costs) {
                reports[i].l1_tokens = Some(cost);
            }
        }
        let dropped = catalog::dropped(&cat, reports, &costs);
        let Some(first) = dropped.first() else {
            continue;
        };
        let Some(&at) = cat
            .members
            .iter()
            .find(|&&i| reports[i].key.as_deref() == Some(first))
        else {
            continue;
        };
        let total: usize = costs.iter().sum();
        let unit = cat.unit.as_str();
        let keys = catalog::key_list(&dropped);
        let (consequence, help) = match cat.unit {
            Unit::Tokens => (
                format!("the runtime drops {keys} (in this order)"),
                "shorten descriptions (the largest first; `skillc tokens` lists them), remove skills, or set `budget` in skillc.toml",
            ),
            Unit::Chars => (
                format!("{keys} would be shortened or listed by name only (in this order)"),
                "shorten descriptions (the largest first; `skillc tokens` lists them), split the skills into separately installed plugins, or set `context-window` in skillc.toml",
            ),
        };
        let mut d = diagnostic(
            &reports[at],
            rule,
            format!(
                "{} is {total} {unit}, over its budget of {} {unit}: {consequence}",
                catalog::describe(&cat, cwd),
                cat.budget,
            ),
            help,
        );
        d.label = Some("dropped first".into());
        found.push((at, d));
    }
}
