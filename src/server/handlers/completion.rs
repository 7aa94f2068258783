//! Completion: frontmatter keys the dialect and the skill's targets define (those not yet
//! present), the values of fields with a grammar, and the skill's own files inside a Markdown
//! link of the body.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse, CompletionTextEdit,
    Documentation, InsertTextFormat, TextEdit,
};

use crate::config::Settings;
use crate::dialect::{Dialect, fields, schema};
use crate::server::position::Lines;
use crate::server::state::{Document, Server};

/// At most this many files are offered in a link.
const MAX_FILES: usize = 500;

/// `textDocument/completion`: a list, empty where there is nothing to offer.
pub fn handle(server: &mut Server, params: CompletionParams) -> Option<CompletionResponse> {
    let at = &params.text_document_position;
    let items = server
        .at(&at.text_document.uri, at.position, complete)
        .unwrap_or_default();
    Some(CompletionResponse::Array(items))
}

/// The completions at byte `at` of `document`.
fn complete(
    document: &Document,
    settings: &Settings,
    lines: &Lines,
    at: usize,
) -> Vec<CompletionItem> {
    let text = &document.text;
    let Some(before) = text.get(..at) else {
        return Vec::new();
    };
    let line_start = lines.line_start(at);
    let Some(prefix) = before.get(line_start..) else {
        return Vec::new();
    };
    let file = crate::source::SkillFile::new(document.path.clone(), text.clone());
    let layout = file.layout().ok();
    let in_frontmatter = match &layout {
        Some(layout) => line_start > layout.open.start && line_start < layout.close.start,
        // While the closing `---` is not written yet: the lines after an opening `---` line,
        // up to the first blank one (after it, text is prose).
        None => {
            let mut lines = text[..line_start].lines();
            lines.next().is_some_and(|first| first.trim_end() == "---")
                && lines.all(|line| !line.trim().is_empty())
                && line_start > 0
        }
    };
    let report = document.report.as_ref();
    let dialect = report
        .and_then(|r| r.dialect)
        .unwrap_or(Dialect::AgentSkills);
    let replace = |from: usize, new_text: String| {
        Some(CompletionTextEdit::Edit(TextEdit::new(
            lines.range(from, at),
            new_text,
        )))
    };
    if in_frontmatter {
        // `key: partial` on a top-level line: the values of a field with a grammar.
        if let Some((key, value)) = prefix.split_once(':')
            && !key.starts_with([' ', '\t', '#', '-'])
        {
            let partial = value.trim_start();
            let from = at - partial.len();
            return fields::values(dialect, key.trim())
                .iter()
                .map(|snippet| {
                    let label = snippet.replace("$1", "…").replace("$0", "");
                    CompletionItem {
                        label,
                        kind: Some(CompletionItemKind::VALUE),
                        insert_text_format: Some(if snippet.contains('$') {
                            InsertTextFormat::SNIPPET
                        } else {
                            InsertTextFormat::PLAIN_TEXT
                        }),
                        text_edit: replace(from, (*snippet).to_string()),
                        ..CompletionItem::default()
                    }
                })
                .collect();
        }
        // A key being written at the start of a line, with nothing after it: the fields not
        // yet present.
        let rest = text[at..].split('\n').next().unwrap_or("");
        if rest.trim().is_empty()
            && prefix
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            let present = present_keys(text, layout.as_ref().map(|l| l.close.start));
            let targets = report.map(|r| r.targets).unwrap_or_default();
            let mut names: Vec<&str> = schema::fields(dialect).iter().map(String::as_str).collect();
            if dialect == Dialect::AgentSkills {
                for runtime in targets.iter() {
                    names.extend(runtime.fields.iter().filter(|f| !f.contains('.')));
                }
                names.extend(settings.extra_fields.iter().map(String::as_str));
            }
            let mut seen = std::collections::HashSet::new();
            return names
                .into_iter()
                .filter(|name| !present.contains(name) && seen.insert(*name))
                .map(|name| {
                    let readers: Vec<&str> = targets
                        .iter()
                        .filter(|r| r.reads(name))
                        .map(|r| r.title)
                        .collect();
                    CompletionItem {
                        label: name.to_string(),
                        kind: Some(CompletionItemKind::FIELD),
                        detail: (dialect == Dialect::AgentSkills && !readers.is_empty())
                            .then(|| format!("read by {}", readers.join(", "))),
                        documentation: fields::meaning(dialect, name)
                            .map(|m| Documentation::String(m.to_string())),
                        text_edit: replace(line_start, format!("{name}: ")),
                        ..CompletionItem::default()
                    }
                })
                .collect();
        }
        return Vec::new();
    }
    // In the body, inside a link's target: `[text](partial` or `![alt](partial`.
    let in_body = layout.as_ref().is_some_and(|l| line_start >= l.body.start);
    let Some(open) = prefix.rfind("](") else {
        return Vec::new();
    };
    let partial = &prefix[open + 2..];
    if !in_body || partial.contains([')', ' ', '#']) || partial.contains("://") {
        return Vec::new();
    }
    // Not in code (a fence, an indented block, a code span) nor in an HTML comment: a link
    // there is text.
    let body_start = layout.as_ref().map_or(0, |l| l.body.start);
    let in_code =
        crate::rewrite::noqa::in_code_fence(text.get(body_start..line_start).unwrap_or(""))
            || prefix.starts_with("    ")
            || prefix.starts_with('\t')
            || prefix.matches('`').count() % 2 == 1
            || prefix
                .rfind("<!--")
                .is_some_and(|i| !prefix[i..].contains("-->"));
    if in_code {
        return Vec::new();
    }
    let from = at - partial.len();
    let Some(dir) = document.path.parent() else {
        return Vec::new();
    };
    let tree = crate::files::SkillTree::walk(dir);
    let own_name = document.path.file_name().and_then(|n| n.to_str());
    tree.entries
        .iter()
        .filter(|e| e.is_file() && Some(e.rel.as_str()) != own_name)
        .take(MAX_FILES)
        .map(|e| CompletionItem {
            label: e.rel.clone(),
            kind: Some(CompletionItemKind::FILE),
            text_edit: replace(from, e.rel.clone()),
            ..CompletionItem::default()
        })
        .collect()
}

/// The top-level keys written in the frontmatter (read line by line: the YAML may not parse
/// while it is being written).
fn present_keys(text: &str, end: Option<usize>) -> Vec<&str> {
    let frontmatter = text.get(..end.unwrap_or(text.len())).unwrap_or(text);
    frontmatter
        .lines()
        .skip(1)
        .filter(|line| !line.starts_with([' ', '\t', '#', '-']))
        .filter_map(|line| {
            let (key, _) = line.split_once(':')?;
            Some(key.trim().trim_matches(['"', '\'']))
        })
        .collect()
}
