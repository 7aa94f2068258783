//! `--format github`: GitHub Actions workflow commands, one per diagnostic.

use std::fmt::Write;

use super::{printable, slash_path};
use crate::diagnostic::Severity;
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
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = format!("file={}", property(&printable(&slash_path(&d.path))));
        if let Some(r) = d.region {
            let _ = write!(
                props,
                ",line={},col={},endLine={},endColumn={}",
                r.line, r.column, r.end_line, r.end_column
            );
        }
        let _ = write!(
            props,
            ",title={}",
            property(&format!("skillc ({})", d.rule.code))
        );
        let _ = writeln!(out, "::{command} {props}::{}", data(&printable(&d.message)));
    }
}

/// Escapes a command's message as the Actions toolkit does.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property as the Actions toolkit does.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(data("100% done\r\nnext"), "100%25 done%0D%0Anext");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
