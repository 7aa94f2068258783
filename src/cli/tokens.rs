//! `skillc tokens [PATH]...`: L1/L2/L3 per skill, totals, the budget and the drop list.

use std::fmt::Write;

use serde_json::json;

use super::skills::{SkillArgs, thousands};
use super::{Outcome, fail};
use crate::config::Settings;
use crate::lint::SkillReport;
use crate::render::slash_path;
use crate::tokens::{self, Costs};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    skills: SkillArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: TokensFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TokensFormat {
    Table,
    Json,
}

pub fn run(args: &Args) -> Outcome {
    let loaded = match args
        .skills
        .load(super::skills::without_token_rules(), false)
    {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let settings = &loaded.settings;
    let Some(tokenizer) = tokens::tokenizer(settings.encoding) else {
        return fail(
            Outcome::Failure,
            "the tokenizer's embedded ranks failed to load",
        );
    };
    let reports = &loaded.reports;
    let catalog = tokens::catalog(reports);
    let skipped = reports
        .iter()
        .filter(|r| r.key.is_none() || r.description.is_none())
        .count();
    if skipped > 0 {
        eprintln!(
            "warning: {skipped} skill(s) without a string key and description are not in the catalog; run `skillc validate`"
        );
    }
    let costs: Vec<Costs> = crate::parallel::map(&catalog, |&i| {
        tokens::costs(&reports[i], tokenizer, settings.max_file_size)
    })
    .into_iter()
    .map(|c| {
        c.unwrap_or(Costs {
            l1: 0,
            l2: 0,
            l3: Vec::new(),
        })
    })
    .collect();
    let entries: Vec<tokens::Entry> = catalog
        .iter()
        .zip(&costs)
        .map(|(&i, c)| tokens::Entry {
            key: reports[i].key.clone().unwrap_or_default(),
            tier: reports[i].dir.tier,
            tokens: c.l1,
        })
        .collect();
    let budget = settings.budget.unwrap_or(crate::config::DEFAULT_BUDGET) as usize;
    let l1_total: usize = costs.iter().map(|c| c.l1).sum();
    let dropped = tokens::drop_order(&entries, budget);
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
                        "l1": c.l1,
                        "l2": c.l2,
                        "l3": c.l3.iter().map(|f| json!({"path": f.path, "bytes": f.bytes, "tokens": f.tokens})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let doc = json!({
                "version": 1,
                "encoding": tokens::encoding_name(settings.encoding),
                "budget": budget,
                "l1_total": l1_total,
                "skills": skills,
                "dropped": dropped,
            });
            crate::render::json_text(&doc) + "\n"
        }
        TokensFormat::Table => table(
            reports, &catalog, &costs, l1_total, budget, &dropped, settings,
        ),
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

fn table(
    reports: &[SkillReport],
    catalog: &[usize],
    costs: &[Costs],
    l1_total: usize,
    budget: usize,
    dropped: &[String],
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
    let percent = (l1_total * 100).checked_div(budget).unwrap_or(0);
    let _ = writeln!(
        out,
        "\nL1 total {} / {} tokens ({percent}%), {}",
        thousands(l1_total),
        thousands(budget),
        tokens::encoding_name(settings.encoding)
    );
    if !dropped.is_empty() {
        let _ = writeln!(
            out,
            "Over budget: the runtime drops, in this order: {}",
            dropped.join(", ")
        );
    }
    out
}
