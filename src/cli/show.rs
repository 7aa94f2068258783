//! `skillc show KEY|DIR [PATH]...`: everything about one skill.

use std::fmt::Write;

use super::skills::SkillArgs;
use super::{Outcome, fail};
use crate::diagnostic::thousands;
use crate::dialect::par;
use crate::render::{printable, slash_path};
use crate::skill::SkillReport;
use crate::tokens;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The skill's key (`name` or `id`), or its directory or skill file.
    key: String,
    #[command(flatten)]
    skills: SkillArgs,
    /// Output format.
    #[arg(
        long = "output-format",
        value_enum,
        value_name = "FORMAT",
        default_value = "text"
    )]
    output_format: super::OutputFormat,
}

pub fn run(args: &Args) -> Outcome {
    // A path that exists names the skill there: it is searched alone.
    let as_path = std::path::Path::new(&args.key);
    let skill_file = as_path.is_file()
        && as_path
            .file_name()
            .is_some_and(|n| crate::discover::SKILL_FILE_NAMES.iter().any(|f| n == *f));
    let by_path = args.skills.paths.is_empty()
        && (skill_file || crate::discover::skill_file_in(as_path).is_some());
    let mut skills = args.skills.clone();
    if by_path {
        skills.paths = vec![as_path.to_path_buf()];
    }
    let loaded = match skills.load(
        crate::config::Overrides::default(),
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
    let mut matches: Vec<usize> = (0..reports.len())
        .filter(|&i| {
            let skill = &reports[i];
            if by_path {
                // The skill the path names (not one nested below it).
                skill.dir.file.is_some()
                    && skill.dir.nested_in().is_none()
                    && (skill.dir.dir.as_ref() == crate::discover::clean(as_path)
                        || skill.dir.file.as_deref() == Some(&crate::discover::clean(as_path)))
            } else {
                skill.key.as_deref() == Some(args.key.as_str())
            }
        })
        .collect();
    if matches.is_empty() {
        return fail(
            Outcome::Usage,
            match crate::suggest::closest(
                &args.key,
                reports.iter().filter_map(|r| r.key.as_deref()),
            ) {
                Some(key) => format!(
                    "no skill with key `{}` found: did you mean `{}`?",
                    crate::render::escaped(&args.key),
                    crate::render::escaped(key)
                ),
                None => format!(
                    "no skill with key `{}` found; `skillc list` shows the keys",
                    crate::render::escaped(&args.key)
                ),
            },
        );
    }
    // The one an agent loads: the highest tier, then the first by path.
    matches.sort_by(|&a, &b| {
        reports[b]
            .dir
            .tier
            .cmp(&reports[a].dir.tier)
            .then(a.cmp(&b))
    });
    let i = matches[0];
    let r = &reports[i];
    if tokens::tokenizer(loaded.settings.encoding).is_none() {
        return fail(
            Outcome::Failure,
            "the tokenizer's embedded ranks failed to load",
        );
    }
    if args.output_format == super::OutputFormat::Json {
        let shadowed = matches[1..].iter().map(|&o| &reports[o]);
        let doc = facts(r, reports, i, &loaded.settings, shadowed);
        return super::emit(&(crate::render::json_text(&doc) + "\n")).unwrap_or(Outcome::Success);
    }
    let mut text = describe(r, reports, i, &loaded.settings, &loaded.cwd);
    for &other in &matches[1..] {
        text += &format!(
            "  also:        {} ({}, shadowed)\n",
            printable(&slash_path(reports[other].path())),
            reports[other].dir.tier.as_str()
        );
    }
    super::emit(&text).unwrap_or(Outcome::Success)
}

/// The targets, each with what it changes for this skill: `claude-code (plugin plugins/x)`.
fn target_line(r: &SkillReport, cwd: &std::path::Path) -> String {
    let names = r.targets.names().join(", ");
    match &r.placement().plugin {
        Some(plugin) if r.targets.contains("claude-code") => format!(
            "{names} (Claude Code plugin {}`{}`)",
            plugin
                .name
                .as_ref()
                .map_or(String::new(), |n| format!("`{}` in ", printable(n))),
            printable(&crate::catalog::shown(&plugin.root, cwd))
        ),
        _ if r.placement().unclaimed => {
            format!("{names} (in a plugin tree, but no plugin loads it)")
        }
        _ => names,
    }
}

fn describe(
    r: &SkillReport,
    reports: &[SkillReport],
    i: usize,
    settings: &crate::config::Settings,
    cwd: &std::path::Path,
) -> String {
    let mut out = String::new();
    let dialect = r.dialect.map_or("-", |d| d.as_str());
    let _ = writeln!(
        out,
        "{} ({dialect}, {})",
        printable(r.key.as_deref().unwrap_or("-")),
        r.dir.tier.as_str()
    );
    let _ = writeln!(out, "  path:        {}", printable(&slash_path(r.path())));
    let _ = writeln!(out, "  targets:     {}", target_line(r, cwd));
    let note = super::list::shadowing(reports, i, &super::list::by_key(reports));
    if !note.is_empty() {
        let _ = writeln!(out, "  note:        {}", printable(&note));
    }
    for (key, value) in r.fields() {
        let shown: Vec<&str> = value.split_whitespace().collect();
        let mut shown = shown.join(" ");
        if shown.chars().count() > 200 {
            shown = shown.chars().take(200).collect::<String>() + "...";
        }
        let _ = writeln!(
            out,
            "  {:<12} {}",
            format!("{}:", printable(key)),
            printable(&shown)
        );
        if r.dialect == Some(crate::dialect::Dialect::Par) {
            let explained = match key.as_str() {
                "trigger" => par::parse_trigger(value).map(|t| t.explain()).ok(),
                "tool_filter" => par::parse_tool_filter(value).map(|f| f.explain()).ok(),
                _ => None,
            };
            if let Some(text) = explained {
                let _ = writeln!(out, "  {:<12} → {}", "", printable(&text));
            }
        }
    }
    if r.dialect == Some(crate::dialect::Dialect::Par)
        && !r.fields().iter().any(|(k, _)| k == "trigger")
    {
        let _ = writeln!(
            out,
            "  {:<12} (none: Auto) → {}",
            "trigger:",
            par::Trigger::Auto.explain()
        );
    }
    let costs = crate::lint::costs(&r.dir, settings).unwrap_or_default();
    let _ = writeln!(
        out,
        "  files:       {} beside the skill file",
        costs.l3.len()
    );
    for file in &costs.l3 {
        let tokens = file
            .tokens
            .map_or("binary".to_string(), |n| format!("{} tokens", thousands(n)));
        let _ = writeln!(
            out,
            "    {} ({} bytes, {tokens})",
            printable(&file.path),
            thousands(file.bytes as usize)
        );
    }
    let _ = writeln!(
        out,
        "  tokens:      L1 {} · L2 {} · L3 {} ({})",
        thousands(costs.l1),
        thousands(costs.l2),
        thousands(costs.l3.iter().filter_map(|f| f.tokens).sum()),
        tokens::encoding_name(settings.encoding)
    );
    use crate::diagnostic::counted;
    // The run's counts for this skill alone, those past the per-rule cap included.
    let counts = crate::render::Summary::of(std::slice::from_ref(r));
    let _ = writeln!(
        out,
        "  diagnostics: {}, {}, {} (skillc validate {})",
        counted(counts.errors, "error"),
        counted(counts.warnings, "warning"),
        counted(counts.infos, "info"),
        printable(&slash_path(&r.dir.dir))
    );
    out
}

/// What [`describe`] says, as a JSON document (versioned, as skillc's others are).
fn facts<'r>(
    r: &SkillReport,
    reports: &[SkillReport],
    i: usize,
    settings: &crate::config::Settings,
    shadowed: impl Iterator<Item = &'r SkillReport>,
) -> serde_json::Value {
    let costs = crate::lint::costs(&r.dir, settings).unwrap_or_default();
    // The run's counts for this skill alone, those past the per-rule cap included.
    let counts = crate::render::Summary::of(std::slice::from_ref(r));
    let note = super::list::shadowing(reports, i, &super::list::by_key(reports));
    let fields: serde_json::Map<String, serde_json::Value> = r
        .fields()
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str())))
        .collect();
    serde_json::json!({
        "version": 1,
        "tool": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
        "key": r.key,
        "dialect": r.dialect.map(|d| d.as_str()),
        "tier": r.dir.tier.as_str(),
        "path": slash_path(r.path()),
        "targets": r.targets.names(),
        "plugin": r.placement().plugin.as_ref().map(|p| serde_json::json!({
            "name": p.name.as_deref(),
            "root": slash_path(&p.root),
        })),
        "note": Some(note).filter(|n| !n.is_empty()),
        "fields": fields,
        "files": costs.l3.iter().map(|f| serde_json::json!({
            "path": f.path,
            "bytes": f.bytes,
            "tokens": f.tokens,
        })).collect::<Vec<_>>(),
        "tokens": {
            "encoding": tokens::encoding_name(settings.encoding),
            "l1": costs.l1,
            "l2": costs.l2,
            "l3": costs.l3.iter().filter_map(|f| f.tokens).sum::<usize>(),
        },
        "diagnostics": {
            "errors": counts.errors,
            "warnings": counts.warnings,
            "infos": counts.infos,
        },
        "shadowed": shadowed.map(|o| serde_json::json!({
            "path": slash_path(o.path()),
            "tier": o.dir.tier.as_str(),
        })).collect::<Vec<_>>(),
    })
}
