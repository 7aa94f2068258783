//! `skillc list [PATH]...`: one line per discovered skill.

use std::collections::HashMap;

use serde_json::json;

use super::Outcome;
use super::skills::SkillArgs;
use crate::render::slash_path;
use crate::rules::collection::PAR_BUILTINS;
use crate::skill::SkillReport;
use crate::tokens;

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
    format: ListFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ListFormat {
    Table,
    Json,
}

/// How a skill relates to others with its key. `same` lists the reports sharing each key.
pub fn shadowing(reports: &[SkillReport], i: usize, same: &HashMap<&str, Vec<usize>>) -> String {
    let this = &reports[i];
    let Some(key) = &this.key else {
        return String::new();
    };
    let others: Vec<&SkillReport> = same
        .get(key.as_str())
        .into_iter()
        .flatten()
        .filter(|&&j| j != i)
        .map(|&j| &reports[j])
        .collect();
    if let Some(higher) = others.iter().find(|r| r.dir.tier > this.dir.tier) {
        return format!("shadowed by {}", slash_path(&higher.dir.dir));
    }
    if let Some(lower) = others.iter().find(|r| r.dir.tier < this.dir.tier) {
        return format!(
            "shadows {} {}",
            lower.dir.tier.as_str(),
            slash_path(&lower.dir.dir)
        );
    }
    if this.dialect == Some(crate::dialect::Dialect::Par) && PAR_BUILTINS.contains(&key.as_str()) {
        return "shadows builtin".into();
    }
    String::new()
}

/// The reports sharing each key.
pub fn by_key(reports: &[SkillReport]) -> HashMap<&str, Vec<usize>> {
    let mut map: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, r) in reports.iter().enumerate() {
        if let Some(key) = &r.key {
            map.entry(key.as_str()).or_default().push(i);
        }
    }
    map
}

pub fn run(args: &Args) -> Outcome {
    let loaded = match args.skills.load(
        super::skills::without_token_rules(),
        false,
        crate::skill::Keep {
            fields: true,
            ..crate::skill::Keep::default()
        },
    ) {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let reports = &loaded.reports;
    let same = by_key(reports);
    let tokenizer = tokens::tokenizer(loaded.settings.encoding);
    let l1: Vec<Option<usize>> =
        crate::parallel::map(reports, |r| match (&r.key, &r.description, tokenizer) {
            (Some(key), Some(description), Some(t)) => {
                Some(t.count(&tokens::l1_entry(key, description)))
            }
            _ => None,
        })
        .into_iter()
        .map(Option::flatten)
        .collect();
    let trigger = |r: &SkillReport| {
        r.fields()
            .iter()
            .find(|(k, _)| k == "trigger")
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| {
                if r.dialect == Some(crate::dialect::Dialect::Par) {
                    "Auto".into()
                } else {
                    "-".into()
                }
            })
    };
    if args.format == ListFormat::Json {
        let items: Vec<_> = reports
            .iter()
            .enumerate()
            .map(|(i, r)| {
                json!({
                    "key": r.key,
                    "dialect": r.dialect.map(|d| d.as_str()),
                    "tier": r.dir.tier.as_str(),
                    "targets": r.targets.names(),
                    "trigger": (r.dialect == Some(crate::dialect::Dialect::Par)).then(|| trigger(r)),
                    "l1_tokens": l1[i],
                    "path": slash_path(&r.dir.dir),
                    "shadowing": Some(shadowing(reports, i, &same)).filter(|s| !s.is_empty()),
                })
            })
            .collect();
        // Versioned, as every other JSON document of skillc.
        let doc = json!({
            "version": 1,
            "tool": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
            "skills": items,
        });
        let text = crate::render::json_text(&doc) + "\n";
        return super::emit(&text).unwrap_or(Outcome::Success);
    }
    let rows: Vec<[String; 8]> = reports
        .iter()
        .enumerate()
        .map(|(i, r)| {
            [
                r.key.clone().unwrap_or_else(|| "-".into()),
                r.dialect.map_or("-", |d| d.as_str()).to_string(),
                r.dir.tier.as_str().to_string(),
                r.targets.to_string(),
                trigger(r),
                l1[i].map_or("-".into(), |n| n.to_string()),
                slash_path(&r.dir.dir).into_owned(),
                shadowing(reports, i, &same),
            ]
        })
        .collect();
    let out = super::skills::table(
        [
            "key", "dialect", "tier", "targets", "trigger", "L1", "path", "note",
        ],
        &rows,
        &[5],
    );
    super::emit(&out).unwrap_or(Outcome::Success)
}
