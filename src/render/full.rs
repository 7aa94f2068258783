//! `--format full`: rustc-style diagnostics with the source line, the span underlined and
//! labelled, and help lines.

use std::fmt::Write;

use anstyle::{AnsiColor, Style};

use super::{printable, slash_path};
use crate::diagnostic::{Diagnostic, Region, Severity};
use crate::skill::SkillReport;
use crate::source::Excerpt;

/// Lines longer than this (in characters) are shown as a window around the span.
const MAX_LINE: usize = 120;

struct Palette {
    error: Style,
    warning: Style,
    info: Style,
    gutter: Style,
    bold: Style,
    help: Style,
}

impl Palette {
    fn new(color: bool) -> Palette {
        let style = |c: AnsiColor| {
            if color {
                Style::new().fg_color(Some(c.into())).bold()
            } else {
                Style::new()
            }
        };
        Palette {
            error: style(AnsiColor::Red),
            warning: style(AnsiColor::Yellow),
            info: style(AnsiColor::Cyan),
            gutter: style(AnsiColor::Blue),
            bold: if color {
                Style::new().bold()
            } else {
                Style::new()
            },
            help: style(AnsiColor::Cyan),
        }
    }

    fn severity(&self, severity: Severity) -> Style {
        match severity {
            Severity::Error => self.error,
            Severity::Warning => self.warning,
            Severity::Info => self.info,
        }
    }
}

/// Renders the reports' diagnostics with the source lines their skills kept
/// ([`crate::skill::Keep::lines`]).
pub fn render(reports: &[SkillReport], color: bool) -> String {
    super::collect(|out| write(reports, color, out))
}

/// [`render`] to `sink`, a report at a time.
pub fn write(
    reports: &[SkillReport],
    color: bool,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let palette = Palette::new(color);
    super::by_report(reports, sink, |report, out| {
        for d in &report.diagnostics {
            render_one(out, d, report.excerpt(&d.path), &palette);
            out.push('\n');
        }
    })
}

fn render_one(out: &mut String, d: &Diagnostic, file: Option<&Excerpt>, p: &Palette) {
    let sev = p.severity(d.severity);
    let _ = writeln!(
        out,
        "{sev}{}[{}]{sev:#}{}{bold}: {}{bold:#}",
        d.severity.as_str(),
        d.rule.code,
        super::fix_marker(d),
        printable(&d.message),
        bold = p.bold
    );
    let path = slash_path(&d.path);
    let path = printable(&path);
    let g = p.gutter;
    let (Some(region), Some(file)) = (d.region, file) else {
        let _ = writeln!(out, "  {g}-->{g:#} {path}");
        write_help(out, d, 2, p);
        return;
    };
    let mut marks: Vec<(Region, Option<&str>, bool)> = vec![(region, d.label.as_deref(), true)];
    marks.extend(
        d.secondary
            .iter()
            .map(|l| (l.region, Some(l.message.as_str()), false)),
    );
    marks.sort_by_key(|(r, _, _)| (r.line, r.column));
    let width = marks
        .iter()
        .map(|(r, _, _)| r.line)
        .max()
        .unwrap_or(1)
        .to_string()
        .len();
    let pad = " ".repeat(width);
    let _ = writeln!(
        out,
        "{pad}{g}-->{g:#} {path}:{}:{}",
        region.line, region.column
    );
    let _ = writeln!(out, "{pad} {g}|{g:#}");
    let mut last_line = 0;
    for (r, label, primary) in &marks {
        if last_line != 0 && r.line > last_line + 1 {
            let _ = writeln!(out, "{g}...{g:#}");
        }
        let (line_start, text) = file.line(r.line).unwrap_or((r.offset, ""));
        // Regions come from rules; snap them to characters so no region can split one.
        let within = |offset: usize| {
            let mut at = offset.clamp(line_start, line_start + text.len()) - line_start;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let start = within(r.offset);
        let end = if r.end_line == r.line {
            within(r.offset + r.length)
        } else {
            text.len()
        };
        // Only a window of a long line is shown; all work here is bounded by the window.
        let from = text[..start]
            .char_indices()
            .rev()
            .nth(MAX_LINE / 3 - 1)
            .map_or(0, |(i, _)| i);
        let to = text[from..]
            .char_indices()
            .nth(MAX_LINE)
            .map_or(text.len(), |(i, _)| from + i);
        let (open, close) = (
            if from > 0 { "..." } else { "" },
            if to < text.len() { "..." } else { "" },
        );
        let shown = format!(
            "{open}{}{close}",
            printable(&text[from..to].replace('\t', " "))
        );
        let lead = open.len() + text[from..start.max(from)].chars().count();
        let marked = text[start.min(to)..end.clamp(start.min(to), to)]
            .chars()
            .count()
            .max(1);
        if r.line != last_line {
            let _ = writeln!(out, "{g}{:>width$} |{g:#} {shown}", r.line);
        }
        last_line = r.line;
        let marker = if *primary { '^' } else { '-' };
        let style = if *primary { sev_style(p, d) } else { g };
        let underline: String = std::iter::repeat_n(marker, marked).collect();
        let label = label
            .map(|l| format!(" {}", printable(l)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{pad} {g}|{g:#} {}{style}{underline}{label}{style:#}",
            " ".repeat(lead)
        );
    }
    write_help(out, d, width, p);
}

fn sev_style(p: &Palette, d: &Diagnostic) -> Style {
    p.severity(d.severity)
}

fn write_help(out: &mut String, d: &Diagnostic, width: usize, p: &Palette) {
    if let Some(help) = &d.help {
        let g = p.gutter;
        let h = p.help;
        let pad = " ".repeat(width);
        let _ = writeln!(out, "{pad} {g}={g:#} {h}help{h:#}: {}", printable(help));
    }
}
