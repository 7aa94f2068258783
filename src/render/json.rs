//! `--format json`: one versioned JSON document (output.md), serialized straight from the
//! reports (nothing is copied into an intermediate document).

use std::borrow::Cow;

use serde::Serialize;

use super::{Summary, slash_path};
use crate::diagnostic::{Diagnostic, Severity};
use crate::skill::SkillReport;

/// The document's fields before its two arrays.
#[derive(Serialize)]
struct Head {
    version: u32,
    tool: Tool,
    summary: Counts,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Counts {
    skills: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
}

#[derive(Serialize)]
struct SkillEntry<'a> {
    path: Cow<'a, str>,
    file: Option<Cow<'a, str>>,
    dialect: Option<&'static str>,
    key: Option<&'a str>,
    tier: &'static str,
    targets: Vec<&'static str>,
    valid: bool,
    l1_tokens: Option<usize>,
}

impl<'a> SkillEntry<'a> {
    fn of(r: &'a SkillReport) -> SkillEntry<'a> {
        SkillEntry {
            path: slash_path(&r.dir.dir),
            file: r.dir.file.as_deref().map(slash_path),
            dialect: r.dialect.map(|d| d.as_str()),
            key: r.key.as_deref(),
            tier: r.dir.tier.as_str(),
            targets: r.targets.names(),
            valid: r.io_error().is_none()
                && !r.diagnostics.iter().any(|d| d.severity == Severity::Error),
            l1_tokens: r.l1_tokens,
        }
    }
}

#[derive(Serialize)]
struct DiagnosticEntry<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    message: &'a str,
    help: Option<&'a str>,
    path: Cow<'a, str>,
    skill: Cow<'a, str>,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    offset: Option<usize>,
    length: Option<usize>,
    /// The rule's documentation page.
    url: String,
    fix: Option<FixEntry<'a>>,
}

/// A diagnostic's fix: its edits in bytes of the file, as `offset`/`length` are.
#[derive(Serialize)]
struct FixEntry<'a> {
    applicability: &'static str,
    /// Whether this run applies it (`--fix`, `--unsafe-fixes`, `fixable`).
    available: bool,
    message: &'a str,
    edits: Vec<EditEntry<'a>>,
}

#[derive(Serialize)]
struct EditEntry<'a> {
    offset: usize,
    length: usize,
    content: &'a str,
}

impl<'a> DiagnosticEntry<'a> {
    fn of(d: &'a Diagnostic) -> DiagnosticEntry<'a> {
        let r = d.region;
        DiagnosticEntry {
            code: d.rule.code,
            name: d.rule.name,
            severity: d.severity.as_str(),
            message: &d.message,
            help: d.help.as_deref(),
            path: slash_path(&d.path),
            skill: slash_path(&d.skill),
            line: r.map(|r| r.line),
            column: r.map(|r| r.column),
            end_line: r.map(|r| r.end_line),
            end_column: r.map(|r| r.end_column),
            offset: r.map(|r| r.offset),
            length: r.map(|r| r.length),
            url: crate::rule::doc_url(d.rule.code),
            fix: d.fix.as_deref().map(|f| FixEntry {
                applicability: f.applicability.as_str(),
                available: f.available,
                message: &f.message,
                edits: f
                    .edits
                    .iter()
                    .map(|e| EditEntry {
                        offset: e.span.start,
                        length: e.span.len(),
                        content: &e.content,
                    })
                    .collect(),
            }),
        }
    }
}

pub fn render(reports: &[SkillReport]) -> String {
    super::collect(|out| write(reports, out))
}

/// [`render`] to `sink`, as it is serialized.
pub fn write(reports: &[SkillReport], sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let summary = Summary::of(reports);
    let head = Head {
        version: 1,
        tool: Tool {
            name: "skillc",
            version: env!("CARGO_PKG_VERSION"),
        },
        summary: Counts {
            skills: summary.skills,
            errors: summary.errors,
            warnings: summary.warnings,
            infos: summary.infos,
        },
    };
    // The document is `head` with two more fields, its arrays, written as the pretty printer
    // would write the whole: `head`'s text up to its closing brace, then the arrays.
    let head = crate::render::json_text(&head);
    let Some(head) = head.strip_suffix("\n}") else {
        return Err(std::io::Error::other(
            "the JSON document's head did not end its object",
        ));
    };
    sink.write_all(head.as_bytes())?;
    sink.write_all(b",\n  \"skills\": ")?;
    array(reports, sink, |r| std::iter::once(SkillEntry::of(r)))?;
    sink.write_all(b",\n  \"diagnostics\": ")?;
    array(reports, sink, |r| {
        r.diagnostics.iter().map(DiagnosticEntry::of)
    })?;
    sink.write_all(b"\n}\n")
}

/// An array of the document: the entries `entries` gives for each report, in order, as the
/// pretty printer writes them two levels deep, rendered on several cores at once
/// ([`crate::parallel::write_in_order`]).
fn array<'a, E: Serialize, I: Iterator<Item = E>>(
    reports: &'a [SkillReport],
    sink: &mut dyn std::io::Write,
    entries: impl Fn(&'a SkillReport) -> I + Sync,
) -> std::io::Result<()> {
    // The report of the array's first entry: a separator comes before every other entry.
    let Some(opening) = reports.iter().position(|r| entries(r).next().is_some()) else {
        return sink.write_all(b"[]");
    };
    sink.write_all(b"[")?;
    crate::parallel::write_in_order(reports, sink, |block, first| {
        let mut out = Vec::new();
        for (i, report) in block.iter().enumerate() {
            for (k, entry) in entries(report).enumerate() {
                let leads = first + i == opening && k == 0;
                out.extend_from_slice(if leads { b"\n    " } else { b",\n    " });
                crate::render::json_nested(&mut out, 2, &entry)?;
            }
        }
        Ok(out)
    })?;
    sink.write_all(b"\n  ]")
}
