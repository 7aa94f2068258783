//! `--format concise`: one line per diagnostic,
//! `path:line:col: severity[CODE] message (help: …)`; coloured like `full` on a terminal.

use std::fmt::Write;

use anstyle::{AnsiColor, Style};

use super::{printable, severity_style, slash_path, style};
use crate::skill::SkillReport;

pub fn render(reports: &[SkillReport], color: bool) -> String {
    super::collect(|out| write(reports, color, out))
}

/// [`render`] to `sink`, a report at a time.
pub fn write(
    reports: &[SkillReport],
    color: bool,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    super::by_report(reports, sink, |report, out| {
        render_report(report, color, out)
    })
}

fn render_report(report: &SkillReport, color: bool, out: &mut String) {
    let bold = if color {
        Style::new().bold()
    } else {
        Style::new()
    };
    let help_style = style(color, AnsiColor::Cyan);
    for d in &report.diagnostics {
        let path = slash_path(&d.path);
        let path = printable(&path);
        let sev = severity_style(color, d.severity);
        let _ = write!(out, "{bold}{path}");
        if let Some(r) = d.region {
            let _ = write!(out, ":{}:{}", r.line, r.column);
        }
        let _ = write!(
            out,
            ":{bold:#} {sev}{}[{}]{sev:#}{} {}",
            d.severity.as_str(),
            d.rule.code,
            super::fix_marker(d),
            printable(&d.message)
        );
        // The help stays on the line: one line per diagnostic, as `grep` and editors read it.
        if let Some(help) = &d.help {
            let _ = write!(
                out,
                " ({help_style}help:{help_style:#} {})",
                printable(help)
            );
        }
        out.push('\n');
    }
}
