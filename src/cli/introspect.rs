//! `validate --show-files` (the skill files a run would check) and `--show-settings` (the
//! resolved configuration, and where each value came from), ruff's names for the same.

use std::fmt::Write;
use std::path::Path;

use super::skills::SkillArgs;
use super::{Outcome, fail};
use crate::config::{Overrides, Settings};
use crate::discover;
use crate::render::escaped;
use crate::rule::RULES;

/// Prints the skill files the PATHs reach, one per line, in the order they are checked.
pub fn show_files(skills: &SkillArgs, settings: &Settings, cwd: &Path) -> Outcome {
    let options = discover::Options {
        no_ignore: skills.no_ignore,
        follow_links: skills.follow_links,
    };
    let found = match discover::discover(&skills.paths, settings, cwd, options) {
        Ok(found) => found,
        Err(discover::NotFound(path)) => {
            return fail(
                Outcome::Usage,
                format!("path not found: {}", path.display()),
            );
        }
    };
    let text: String = found
        .skills
        .iter()
        .filter_map(|skill| skill.file.as_deref())
        .map(|file| format!("{}\n", escaped(&file.display().to_string())))
        .collect();
    super::emit(&text).unwrap_or(Outcome::Success)
}

/// Prints the settings in force, one per line: name, value, and where it came from (a flag,
/// the config file, or the default).
pub fn show_settings(skills: &SkillArgs, flags: &Overrides, settings: &Settings) -> Outcome {
    // What the config file sets, read again as a table: which keys it holds.
    let file = settings.file.as_ref().and_then(|path| {
        let text = std::fs::read_to_string(path).ok()?;
        let table: toml::Table = text.parse().ok()?;
        Some((path, table))
    });
    let in_file = |key: &str| {
        file.as_ref()
            .is_some_and(|(_, table)| match key.split_once('.') {
                Some((outer, inner)) => table
                    .get(outer)
                    .and_then(|t| t.as_table())
                    .is_some_and(|t| t.contains_key(inner)),
                None => table.contains_key(key),
            })
    };
    // The file by its name (the first line gives its path).
    let file_name = file
        .as_ref()
        .and_then(|(path, _)| path.file_name())
        .map(|name| escaped(&name.to_string_lossy()))
        .unwrap_or_default();
    let source = |flag: Option<&str>, key: &str| -> String {
        match (in_file(key), flag) {
            (true, Some(flag)) => format!("{file_name}, {flag}"),
            (false, Some(flag)) => flag.to_string(),
            (true, None) => file_name.clone(),
            (false, None) => "default".into(),
        }
    };
    let mut rows: Vec<(&str, String, String)> = Vec::new();
    let dialect = settings
        .dialect
        .map_or("auto (detected per skill)", |d| d.as_str());
    rows.push((
        "dialect",
        dialect.into(),
        source(skills.dialect.map(|_| "--dialect"), "dialect"),
    ));
    rows.push((
        "strict",
        settings.strict.to_string(),
        source(flags.strict.then_some("--strict"), "strict"),
    ));
    let targets = settings.targets.map_or_else(
        || "detected per skill from its location".to_string(),
        |targets| targets.names().join(", "),
    );
    rows.push((
        "targets",
        targets,
        source(skills.target.map(|_| "--target"), "targets"),
    ));
    rows.push((
        "budget",
        settings
            .budget
            .map_or("each target's own".into(), |n| format!("{n} tokens")),
        source(skills.budget.map(|_| "--budget"), "budget"),
    ));
    rows.push((
        "encoding",
        crate::tokens::encoding_name(settings.encoding).into(),
        source(skills.encoding.map(|_| "--encoding"), "encoding"),
    ));
    rows.push((
        "context-window",
        format!("{} tokens", settings.context_window),
        source(None, "context-window"),
    ));
    rows.push((
        "max-file-size",
        format!("{} bytes", settings.max_file_size),
        source(None, "max-file-size"),
    ));
    let mut extra: Vec<&str> = settings.extra_fields.iter().map(String::as_str).collect();
    extra.sort_unstable();
    rows.push((
        "extra-fields",
        list(&extra),
        source(
            (!flags.extra_fields.is_empty()).then_some("--extra-field"),
            "extra-fields",
        ),
    ));
    rows.push((
        "tools",
        settings.tools.as_ref().map_or(
            format!("any ({} is off)", crate::rule::SK207.code),
            |tools| list(tools),
        ),
        source(None, "tools"),
    ));
    let exclude: Vec<String> = file
        .as_ref()
        .and_then(|(_, table)| table.get("exclude")?.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    rows.push(("exclude", list(&exclude), source(None, "exclude")));
    // What a selection left out, beside the rules that are off unless selected.
    let off: Vec<&str> = RULES
        .iter()
        .filter(|r| !settings.enabled(r) && r.default)
        .map(|r| r.code)
        .collect();
    let dormant = RULES
        .iter()
        .filter(|r| !settings.enabled(r) && !r.default)
        .count();
    let selection_flag = match (flags.select.is_empty(), flags.ignore.is_empty()) {
        (false, false) => Some("--select, --ignore"),
        (false, true) => Some("--select"),
        (true, false) => Some("--ignore"),
        (true, true) => None,
    };
    let selection_key = if in_file("rules.select") {
        "rules.select"
    } else {
        "rules.ignore"
    };
    rows.push((
        "rules",
        format!(
            "{} of {} selected{}{}",
            RULES.len() - off.len() - dormant,
            RULES.len(),
            if off.is_empty() {
                String::new()
            } else {
                format!(" (not {})", abbreviated(&off))
            },
            if dormant == 0 {
                String::new()
            } else {
                format!(" ({dormant} off unless selected: `--extend-select security`)")
            }
        ),
        source(selection_flag, selection_key),
    ));
    let changed: Vec<String> = RULES
        .iter()
        .filter(|r| settings.severity(r) != r.severity)
        .map(|r| format!("{} = {}", r.code, settings.severity(r).as_str()))
        .collect();
    rows.push((
        "severity",
        if changed.is_empty() {
            "each rule's own".into()
        } else {
            changed.join(", ")
        },
        source(None, "rules.severity"),
    ));
    let unfixable: Vec<&str> = RULES
        .iter()
        .filter(|r| !settings.fixable(r.code))
        .map(|r| r.code)
        .collect();
    let fixable_key = if in_file("rules.fixable") {
        "rules.fixable"
    } else {
        "rules.unfixable"
    };
    rows.push((
        "fixable",
        if unfixable.is_empty() {
            "every rule's fix".into()
        } else {
            format!("all but {}", abbreviated(&unfixable))
        },
        source(None, fixable_key),
    ));
    rows.push((
        "per-file-ignores",
        match settings.per_file_ignore_count() {
            0 => "none".into(),
            1 => "1 pattern".into(),
            n => format!("{n} patterns"),
        },
        source(None, "per-file-ignores"),
    ));
    let mut runtimes: Vec<String> = settings
        .runtimes
        .iter()
        .map(|(name, table)| {
            let mut parts = Vec::new();
            if let Some(cap) = table.listing_cap {
                parts.push(format!("listing-cap {cap}"));
            }
            if let Some(budget) = table.budget {
                parts.push(format!("budget {budget}"));
            }
            format!("{name}: {}", parts.join(", "))
        })
        .collect();
    runtimes.sort();
    rows.push((
        "runtime",
        if runtimes.is_empty() {
            "the runtime table's".into()
        } else {
            runtimes.join("; ")
        },
        source(None, "runtime"),
    ));
    let mut out = match &file {
        Some((path, _)) => format!("config file: {}\n", escaped(&path.display().to_string())),
        None if skills.no_config => "config file: none (--no-config)\n".into(),
        None => "config file: none (no skillc.toml or .skillc.toml here or above)\n".into(),
    };
    let width = rows.iter().map(|(name, ..)| name.len()).max().unwrap_or(0);
    let value_width = rows
        .iter()
        .map(|(_, value, _)| value.chars().count())
        .max()
        .unwrap_or(0)
        .min(48);
    for (name, value, from) in rows {
        let _ = writeln!(
            out,
            "{name:<width$}  {value:<value_width$}  ({from})",
            value = escaped(&value)
        );
    }
    super::emit(&out).unwrap_or(Outcome::Success)
}

fn list<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// At most 8 codes, then how many more.
fn abbreviated(codes: &[&str]) -> String {
    let shown = codes.iter().take(8).copied().collect::<Vec<_>>().join(", ");
    match codes.len().saturating_sub(8) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}
