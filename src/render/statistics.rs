//! `--statistics`: `count<TAB>code<TAB>name` per rule, most frequent first; with
//! `--format json`, the same rows in a versioned JSON document.

use foldhash::{HashMap, HashMapExt};
use std::fmt::Write;

use serde::Serialize;

use crate::diagnostic::Severity;
use crate::skill::SkillReport;

/// One rule's count.
#[derive(Serialize)]
pub struct Row {
    pub count: usize,
    pub code: &'static str,
    pub name: &'static str,
    pub severity: &'static str,
}

/// The rules with problems, most frequent first (then by code).
pub fn rows(reports: &[SkillReport]) -> Vec<Row> {
    let mut counts: HashMap<&'static str, Row> = HashMap::new();
    for (rule, severity, count) in super::counts(reports) {
        let severity = match severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        counts
            .entry(rule.code)
            .or_insert(Row {
                count: 0,
                code: rule.code,
                name: rule.name,
                severity,
            })
            .count += count;
    }
    let mut rows: Vec<Row> = counts.into_values().collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    rows
}

pub fn render(reports: &[SkillReport]) -> String {
    let mut out = String::new();
    for row in rows(reports) {
        let _ = writeln!(out, "{}\t{}\t{}", row.count, row.code, row.name);
    }
    out
}

/// `--statistics --format json`: `{"version": 1, "tool": …, "summary": …, "statistics":
/// [{"count", "code", "name", "severity"}]}`.
pub fn write_json(reports: &[SkillReport], sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let summary = super::Summary::of(reports);
    let doc = serde_json::json!({
        "version": 1,
        "tool": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
        "summary": {
            "skills": summary.skills,
            "errors": summary.errors,
            "warnings": summary.warnings,
            "infos": summary.infos,
        },
        "statistics": rows(reports),
    });
    crate::render::json_to(sink, &doc)?;
    sink.write_all(b"\n")
}
