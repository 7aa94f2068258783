//! Hover: on a frontmatter key, what the field means for the skill's dialect and which of its
//! targets read or ignore it; on `description`, the skill's L1 cost and its share of each
//! target's catalog budget; on a diagnostic, its rule's documentation.

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use crate::config::Settings;
use crate::diagnostic::thousands;
use crate::dialect::{Dialect, fields};
use crate::server::frontmatter::Frontmatter;
use crate::server::position::Lines;
use crate::server::state::{Document, Server, own};
use crate::targets::Unit;

/// `textDocument/hover`.
pub fn handle(server: &mut Server, params: HoverParams) -> Option<Hover> {
    let at = &params.text_document_position_params;
    server
        .at(&at.text_document.uri, at.position, hover)
        .flatten()
}

/// The hover at byte `at` of `document`, if there is something to say there.
fn hover(document: &Document, settings: &Settings, lines: &Lines, at: usize) -> Option<Hover> {
    let report = document.report.as_ref()?;
    let mut sections = Vec::new();
    let mut range = None;
    if let Some(frontmatter) = Frontmatter::parse(&document.text)
        && let Some((key, value)) = frontmatter.entry_at(at)
    {
        let name = key.key_text().unwrap_or_default();
        let dialect = report.dialect.unwrap_or(Dialect::AgentSkills);
        sections.push(field(&name, dialect, report.targets));
        if name == "description" {
            sections.push(cost(report, settings));
        }
        let over = if key.span.start <= at && at <= key.span.end {
            key.span
        } else {
            value.span
        };
        range = Some(lines.range(over.start, over.end));
    }
    for d in own(report).filter(|d| {
        d.region
            .is_some_and(|r| r.offset <= at && at <= r.offset + r.length)
    }) {
        if let (None, Some(r)) = (range, d.region) {
            range = Some(lines.range(r.offset, r.offset + r.length));
        }
        if let Some(rule) = crate::rule::find(d.rule.code) {
            sections.push(format!(
                "**{} {}** ({})\n\n{}\n\n{}",
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.summary,
                rule.doc.trim_end()
            ));
        }
    }
    if sections.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range,
    })
}

/// What `name` means, and which of `targets` read it.
fn field(name: &str, dialect: Dialect, targets: crate::targets::Targets) -> String {
    let Some(meaning) = fields::meaning(dialect, name) else {
        return format!(
            "`{name}` is not a field of the {} dialect nor of any of the skill's targets: no \
             runtime reads it.",
            dialect.as_str()
        );
    };
    let mut text = format!("**`{name}`** — {meaning}");
    if dialect == Dialect::AgentSkills {
        let (read, ignored): (Vec<_>, Vec<_>) = targets.iter().partition(|r| r.reads(name));
        let titles = |runtimes: &[&crate::targets::Runtime]| {
            runtimes
                .iter()
                .map(|r| r.title)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !read.is_empty() {
            text += &format!("\n\nRead by: {}.", titles(&read));
        }
        if !ignored.is_empty() {
            text += &format!("\n\nIgnored by: {}.", titles(&ignored));
        }
    }
    text
}

/// The skill's L1 cost and its share of each target's catalog budget.
fn cost(report: &crate::skill::SkillReport, settings: &Settings) -> String {
    let Some(tokenizer) = crate::tokens::tokenizer(settings.encoding) else {
        return String::new();
    };
    let entry = crate::tokens::l1_entry(
        report.key.as_deref().unwrap_or(""),
        report.description.as_deref().unwrap_or(""),
    );
    let mut text = format!(
        "**L1 cost: {} tokens** ({}): the catalog line every session loads.",
        thousands(tokenizer.count(&entry)),
        crate::tokens::encoding_name(settings.encoding)
    );
    for runtime in report.targets.iter() {
        let Some((budget, unit)) = settings.catalog_budget(runtime) else {
            continue;
        };
        let line = crate::catalog::entry(report, runtime, settings);
        let (used, what) = match unit {
            Unit::Chars => (line.chars().count(), "listing"),
            Unit::Tokens => (tokenizer.count(&line), "catalog"),
        };
        let per_mille = (used as u64 * 1000).checked_div(budget).unwrap_or(0);
        text += &format!(
            "\n- {} {what}: {} of {} {} ({}.{}%)",
            runtime.title,
            thousands(used),
            thousands(budget as usize),
            unit.as_str(),
            per_mille / 10,
            per_mille % 10
        );
    }
    text
}
