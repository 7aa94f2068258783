//! `skillc tokens [PATH]...`: L1/L2/L3 per skill, totals, the budget and the drop list.

use std::fmt::Write;

use serde_json::json;

use super::skills::SkillArgs;
use super::{Outcome, fail};
use crate::config::Settings;
use crate::diagnostic::thousands;
use crate::render::slash_path;
use crate::skill::SkillReport;
use crate::targets::Unit;
use crate::tokens::{self, Costs};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    skills: SkillArgs,
    /// Output format (`--format` is the same flag).
    #[arg(
        long = "output-format",
        visible_alias = "format",
        value_name = "FORMAT",
        value_enum,
        default_value = "table"
    )]
    format: TokensFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TokensFormat {
    Table,
    Json,
}

pub fn run(args: &Args) -> Outcome {
    let loaded = match args.skills.load(
        super::skills::without_rules(),
        false,
        crate::skill::Keep {
            costs: true,
            ..crate::skill::Keep::default()
        },
    ) {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let settings = &loaded.settings;
    if tokens::tokenizer(settings.encoding).is_none() {
        return fail(
            Outcome::Failure,
            "the tokenizer's embedded ranks failed to load",
        );
    }
    let reports = &loaded.reports;
    let catalog = crate::catalog::listed(reports);
    let skipped = reports
        .iter()
        .filter(|r| r.key.is_none() || r.description.is_none())
        .count();
    if skipped > 0 {
        eprintln!(
            "warning: {skipped} skill(s) without a string key and description are not in the catalog; run `skillc validate`"
        );
    }
    let costs: Vec<Costs> = catalog
        .iter()
        .map(|&i| reports[i].costs().cloned().unwrap_or_default())
        .collect();
    let budget = settings.budget.unwrap_or(crate::config::DEFAULT_BUDGET) as usize;
    let l1_total: usize = costs.iter().map(|c| c.l1).sum();
    let catalogs = budgets(reports, settings, &loaded.cwd);
    let dropped: Vec<String> = catalogs
        .iter()
        .filter(|c| c.unit == Unit::Tokens)
        .flat_map(|c| c.dropped.iter().cloned())
        .collect();
    let text = match args.format {
        TokensFormat::Json => {
            let skills: Vec<_> = catalog
                .iter()
                .zip(&costs)
                .map(|(&i, c)| {
                    let r = &reports[i];
                    json!({
                        "path": slash_path(&r.dir.dir),
                        "key": r.key,
                        "dialect": r.dialect.map(|d| d.as_str()),
                        "tier": r.dir.tier.as_str(),
                        "targets": r.targets.names(),
                        "l1": c.l1,
                        "l2": c.l2,
                        "l3": c.l3.iter().map(|f| json!({"path": f.path, "bytes": f.bytes, "tokens": f.tokens})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let catalogs: Vec<_> = catalogs
                .iter()
                .map(|c| {
                    json!({
                        "target": c.target,
                        "root": c.root,
                        "plugin": c.plugin,
                        "unit": c.unit.as_str(),
                        "budget": c.budget,
                        "total": c.total,
                        "dropped": c.dropped,
                    })
                })
                .collect();
            let doc = json!({
                "version": 1,
                "encoding": tokens::encoding_name(settings.encoding),
                "budget": budget,
                "l1_total": l1_total,
                "skills": skills,
                "catalogs": catalogs,
                "dropped": dropped,
            });
            crate::render::json_text(&doc) + "\n"
        }
        TokensFormat::Table => table(reports, &catalog, &costs, l1_total, &catalogs, settings),
    };
    if let Some(outcome) = super::emit(&text) {
        return outcome;
    }
    if dropped.is_empty() {
        Outcome::Success
    } else {
        Outcome::Problems
    }
}

/// One install's catalog against its target's budget, for output.
struct Budgeted {
    target: &'static str,
    title: String,
    root: Option<String>,
    plugin: Option<String>,
    unit: Unit,
    budget: u64,
    total: usize,
    dropped: Vec<String>,
}

/// Every catalog of the run with a budget, counted exactly.
fn budgets(reports: &[SkillReport], settings: &Settings, cwd: &std::path::Path) -> Vec<Budgeted> {
    crate::catalog::catalogs(reports, settings)
        .into_iter()
        .filter_map(|cat| {
            let costs = crate::catalog::costs(&cat, reports, settings, true)?;
            Some(Budgeted {
                target: cat.runtime.name,
                title: crate::catalog::describe(&cat, cwd),
                root: cat.root.as_ref().map(|r| {
                    slash_path(std::path::Path::new(&crate::catalog::shown(&r.dir, cwd)))
                        .into_owned()
                }),
                plugin: cat
                    .root
                    .as_ref()
                    .and_then(|r| r.plugin.as_deref().map(str::to_string)),
                unit: cat.unit,
                budget: cat.budget,
                total: costs.iter().sum(),
                dropped: crate::catalog::dropped(&cat, reports, &costs),
            })
        })
        .collect()
}

fn table(
    reports: &[SkillReport],
    catalog: &[usize],
    costs: &[Costs],
    l1_total: usize,
    catalogs: &[Budgeted],
    settings: &Settings,
) -> String {
    let headers = [
        "key",
        "dialect",
        "tier",
        "L1",
        "L2",
        "L3 files",
        "L3 tokens",
    ];
    let mut rows: Vec<[String; 7]> = catalog
        .iter()
        .zip(costs)
        .map(|(&i, c)| {
            let r = &reports[i];
            [
                r.key.clone().unwrap_or_default(),
                r.dialect.map_or("-", |d| d.as_str()).to_string(),
                r.dir.tier.as_str().to_string(),
                thousands(c.l1),
                thousands(c.l2),
                thousands(c.l3.len()),
                thousands(c.l3.iter().filter_map(|f| f.tokens).sum()),
            ]
        })
        .collect();
    let sum = |f: &dyn Fn(&Costs) -> usize| thousands(costs.iter().map(f).sum());
    rows.push([
        "total".into(),
        String::new(),
        String::new(),
        sum(&|c| c.l1),
        sum(&|c| c.l2),
        sum(&|c| c.l3.len()),
        sum(&|c| c.l3.iter().filter_map(|f| f.tokens).sum()),
    ]);
    let mut out = super::skills::table(headers, &rows, &[3, 4, 5, 6]);
    let _ = writeln!(
        out,
        "\nL1 total {} tokens, {}",
        thousands(l1_total),
        tokens::encoding_name(settings.encoding)
    );
    if catalogs.is_empty() {
        let _ = writeln!(
            out,
            "No catalog budget applies to these skills' targets; `--budget N` sets one"
        );
    }
    for c in catalogs {
        let percent = (c.total * 100).checked_div(c.budget as usize).unwrap_or(0);
        let mut title = c.title.clone();
        if let Some(first) = title.get(..1) {
            title = first.to_uppercase() + title.get(1..).unwrap_or("");
        }
        let _ = write!(
            out,
            "{}: {} / {} {} ({percent}%)",
            crate::render::printable(&title),
            thousands(c.total),
            thousands(c.budget as usize),
            c.unit.as_str()
        );
        if !c.dropped.is_empty() {
            let what = match c.unit {
                Unit::Tokens => "over budget: the runtime drops, in this order",
                Unit::Chars => "over budget: shortened or listed by name only, in this order",
            };
            let shown: Vec<&str> = c
                .dropped
                .iter()
                .take(crate::catalog::MAX_NAMED)
                .map(String::as_str)
                .collect();
            let more = c.dropped.len().saturating_sub(crate::catalog::MAX_NAMED);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let _ = write!(
                out,
                "; {what}: {}{more}",
                crate::render::printable(&shown.join(", "))
            );
        }
        let _ = writeln!(out);
    }
    out
}
