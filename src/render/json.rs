//! `--format json`: one versioned JSON document (output.md).

use serde_json::{Value, json};

use super::{Summary, diagnostics, slash_path};
use crate::diagnostic::Severity;
use crate::lint::SkillReport;

pub fn render(reports: &[SkillReport]) -> String {
    let summary = Summary::of(reports);
    let skills: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "path": slash_path(&r.dir.dir),
                "file": r.dir.file.as_deref().map(slash_path),
                "dialect": r.dialect.map(|d| d.as_str()),
                "key": r.key,
                "tier": r.dir.tier.as_str(),
                "targets": r.targets.names(),
                "valid": r.io_error.is_none() && !r.diagnostics.iter().any(|d| d.severity == Severity::Error),
                "l1_tokens": r.l1_tokens,
            })
        })
        .collect();
    let diagnostics: Vec<Value> = diagnostics(reports)
        .map(|d| {
            let r = d.region;
            json!({
                "code": d.rule.code,
                "name": d.rule.name,
                "severity": d.severity.as_str(),
                "message": d.message,
                "help": d.help,
                "path": slash_path(&d.path),
                "skill": slash_path(&d.skill),
                "line": r.map(|r| r.line),
                "column": r.map(|r| r.column),
                "end_line": r.map(|r| r.end_line),
                "end_column": r.map(|r| r.end_column),
                "offset": r.map(|r| r.offset),
                "length": r.map(|r| r.length),
                "url": Value::Null,
            })
        })
        .collect();
    let doc = json!({
        "version": 1,
        "tool": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
        "summary": {
            "skills": summary.skills,
            "errors": summary.errors,
            "warnings": summary.warnings,
            "infos": summary.infos,
        },
        "skills": skills,
        "diagnostics": diagnostics,
    });
    let mut text = crate::render::json_text(&doc);
    text.push('\n');
    text
}
