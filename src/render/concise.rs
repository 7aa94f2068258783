//! `--format concise`: `path:line:col: severity[CODE] message`.

use std::fmt::Write;

use super::{printable, slash_path};
use crate::skill::SkillReport;

pub fn render(reports: &[SkillReport]) -> String {
    super::collect(|out| write(reports, out))
}

/// [`render`] to `sink`, a report at a time.
pub fn write(reports: &[SkillReport], sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    super::by_report(reports, sink, render_report)
}

fn render_report(report: &SkillReport, out: &mut String) {
    for d in &report.diagnostics {
        let path = slash_path(&d.path);
        let path = printable(&path);
        let message = printable(&d.message);
        let _ = match d.region {
            Some(r) => writeln!(
                out,
                "{path}:{}:{}: {}[{}]{} {}",
                r.line,
                r.column,
                d.severity.as_str(),
                d.rule.code,
                super::fix_marker(d),
                message
            ),
            None => writeln!(
                out,
                "{path}: {}[{}]{} {}",
                d.severity.as_str(),
                d.rule.code,
                super::fix_marker(d),
                message
            ),
        };
    }
}
