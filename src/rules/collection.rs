//! Collection rules over all skills of one run: SK501, SK502, and SK602 across skills.

use std::collections::HashMap;

use super::{SK501, SK502, SK503, SK602};
use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::dialect::Dialect;
use crate::discover::Tier;
use crate::lint::SkillReport;
use crate::tokens;

/// PAR's builtin skills, which every PAR skill of the same key shadows.
pub const PAR_BUILTINS: [&str; 4] = ["code-reviewer", "summarizer", "translator", "rag-assistant"];

pub fn check(reports: &mut [SkillReport], settings: &Settings) {
    let mut by_key: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, report) in reports.iter().enumerate() {
        if let Some(key) = &report.key {
            by_key.entry(key.as_str()).or_default().push(i);
        }
    }
    let mut found: Vec<(usize, Diagnostic)> = Vec::new();
    for (key, indices) in &by_key {
        for (n, &i) in indices.iter().enumerate() {
            let this = &reports[i];
            let tier = this.dir.tier;
            if let Some(&first) = indices[..n].iter().find(|&&j| reports[j].dir.tier == tier) {
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
            let lower = indices
                .iter()
                .filter(|&&j| reports[j].dir.tier < tier)
                .min_by_key(|&&j| reports[j].dir.tier);
            if let Some(&j) = lower {
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
                && PAR_BUILTINS.contains(key)
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
    tools_across_skills(reports, &mut found);
    budget(reports, settings, &mut found);
    for (i, d) in found {
        reports[i].diagnostics.push(d);
    }
}

/// SK602 across skills: a tool name bundled by an earlier skill (in path order).
fn tools_across_skills(reports: &[SkillReport], found: &mut Vec<(usize, Diagnostic)>) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, report) in reports.iter().enumerate() {
        for tool in &report.tools {
            match first.get(tool.name.as_str()) {
                Some(&j) if j != i => {
                    let other = reports[j].tools.iter().find(|t| t.name == tool.name);
                    let where_ =
                        other.map_or_else(String::new, |t| format!(" (`{}`)", t.path.display()));
                    found.push((i, Diagnostic {
                        rule: &SK602,
                        severity: SK602.severity,
                        message: format!("tool `{}` is also bundled by skill `{}`{where_}", tool.name, reports[j].dir.dir.display()),
                        label: Some("repeated".into()),
                        help: Some("tool names must be unique across the skills an agent loads: rename one".into()),
                        path: tool.path.clone(),
                        skill: report.dir.dir.clone(),
                        region: Some(tool.region),
                        secondary: Vec::new(),
                        count: 1,
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
        path: report.path().to_path_buf(),
        skill: report.dir.dir.clone(),
        region: report.key_region,
        secondary: Vec::new(),
        count: 1,
    }
}

/// SK503: the L1 catalog exceeds the budget. Tokens are counted only when the catalog's bytes
/// exceed the budget (a token is at least one byte), and then on all cores.
fn budget(reports: &mut [SkillReport], settings: &Settings, found: &mut Vec<(usize, Diagnostic)>) {
    if !settings.enabled(&SK503) {
        return;
    }
    let budget = settings.budget.unwrap_or(crate::config::DEFAULT_BUDGET) as usize;
    let catalog = tokens::catalog(reports);
    let entries: Vec<String> = catalog
        .iter()
        .map(|&i| {
            tokens::l1_entry(
                reports[i].key.as_deref().unwrap_or(""),
                reports[i].description.as_deref().unwrap_or(""),
            )
        })
        .collect();
    if !tokens::may_exceed(&entries.concat(), budget) {
        return;
    }
    let Some(tokenizer) = tokens::tokenizer(settings.encoding) else {
        return;
    };
    let counts = crate::parallel::map(&entries, |entry| tokenizer.count(entry));
    let mut costs = Vec::new();
    for (&i, count) in catalog.iter().zip(counts) {
        let tokens = count.unwrap_or(0);
        reports[i].l1_tokens = Some(tokens);
        costs.push(tokens::Entry {
            key: reports[i].key.clone().unwrap_or_default(),
            tier: reports[i].dir.tier,
            tokens,
        });
    }
    let dropped = tokens::drop_order(&costs, budget);
    let Some(first) = dropped.first() else { return };
    let total: usize = costs.iter().map(|c| c.tokens).sum();
    let Some(&i) = catalog
        .iter()
        .find(|&&i| reports[i].key.as_deref() == Some(first))
    else {
        return;
    };
    let keys: Vec<String> = dropped.iter().map(|k| format!("`{k}`")).collect();
    let mut d = diagnostic(
        &reports[i],
        &SK503,
        format!(
            "the L1 catalog is {total} tokens, over the budget of {budget}: the runtime drops {} (in this order)",
            keys.join(", ")
        ),
        "shorten descriptions (the largest first), remove skills, or raise `budget` in skillc.toml",
    );
    d.label = Some("dropped first".into());
    found.push((i, d));
}
