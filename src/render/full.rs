//! `--format full`: rustc-style diagnostics with the source lines, the span underlined and
//! labelled, and help lines. The header is written here; the source lines, marks and help are
//! laid out by `annotate-snippets` (the renderer of rustc and cargo), which puts carets under
//! the right columns after wide characters and tabs and draws spans over several lines.

use std::fmt::Write;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use anstyle::{AnsiColor, Style};

use super::{severity_style, style};

use super::snippet::{Mark, shown};
use super::{printable, slash_path};
use crate::diagnostic::{Diagnostic, Severity};
use crate::skill::SkillReport;
use crate::source::Excerpt;

fn renderer(color: bool) -> Renderer {
    if !color {
        return Renderer::plain();
    }
    let gutter = style(true, AnsiColor::Blue);
    Renderer::styled()
        .error(style(true, AnsiColor::Red))
        .warning(style(true, AnsiColor::Yellow))
        .info(style(true, AnsiColor::Cyan))
        .help(style(true, AnsiColor::Cyan))
        .line_num(gutter)
        .context(gutter)
        // What the crate styles so is the `help` of `= help:` (no title is rendered by it).
        .emphasis(style(true, AnsiColor::Cyan))
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
    let renderer = renderer(color);
    super::by_report(reports, sink, |report, out| {
        for d in &report.diagnostics {
            render_one(out, d, report.excerpt(&d.path), &renderer, color);
            out.push('\n');
        }
    })
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

fn render_one(
    out: &mut String,
    d: &Diagnostic,
    file: Option<&Excerpt>,
    renderer: &Renderer,
    color: bool,
) {
    let sev = severity_style(color, d.severity);
    let bold = if color {
        Style::new().bold()
    } else {
        Style::new()
    };
    let _ = writeln!(
        out,
        "{sev}{}[{}]{sev:#}{}{bold}: {}{bold:#}",
        d.severity.as_str(),
        d.rule.code,
        super::fix_marker(d),
        printable(&d.message),
    );
    let path = slash_path(&d.path);
    let path = printable(&path);
    let gutter = style(color, AnsiColor::Blue);
    let help = d.help.as_deref().map(printable);
    let help = help.as_deref().map(|h| Level::HELP.message(h));
    let mut marks: Vec<Mark> = d
        .region
        .map(|region| Mark {
            region,
            label: d.label.as_deref(),
            primary: true,
        })
        .into_iter()
        .collect();
    marks.extend(d.secondary.iter().map(|l| Mark {
        region: l.region,
        label: Some(l.message.as_str()),
        primary: false,
    }));
    let shown = match (d.region, file) {
        (Some(_), Some(file)) => shown(&marks, file),
        _ => None,
    };
    let (Some(region), Some(shown)) = (d.region, shown) else {
        // No source to show: the place, and the help.
        let place = match d.region {
            Some(r) => format!("{path}:{}:{}", r.line, r.column),
            None => path.into_owned(),
        };
        let _ = writeln!(out, " {gutter}-->{gutter:#} {place}");
        if let Some(help) = help {
            let group = Group::with_level(level(d.severity)).element(help);
            push_rendered(out, renderer, group);
        }
        return;
    };
    let lines = shown.text.matches('\n').count();
    let width = (shown.line + lines).to_string().len();
    let _ = writeln!(
        out,
        "{:width$}{gutter}-->{gutter:#} {path}:{}:{}",
        "", region.line, region.column
    );
    let labels: Vec<Option<std::borrow::Cow<str>>> =
        marks.iter().map(|m| m.label.map(printable)).collect();
    let annotations = marks
        .iter()
        .zip(&shown.ranges)
        .zip(&labels)
        .map(|((m, range), label)| {
            let kind = if m.primary {
                AnnotationKind::Primary
            } else {
                AnnotationKind::Context
            };
            kind.span(range.clone()).label(label.as_deref())
        });
    let snippet = Snippet::source(shown.text.as_str())
        .line_start(shown.line)
        .annotations(annotations);
    let mut group = Group::with_level(level(d.severity)).element(snippet);
    if let Some(help) = help {
        group = group.element(help);
    }
    push_rendered(out, renderer, group);
}

/// The crate's rendering of one group, each line ending in a line end.
fn push_rendered(out: &mut String, renderer: &Renderer, group: Group) {
    out.push_str(&renderer.render(&[group]));
    out.push('\n');
}
