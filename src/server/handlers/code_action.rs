//! `textDocument/codeAction`: quick fixes for the diagnostics in the requested range (each
//! rule's fix, labelled when unsafe, and "ignore on this line"), and "fix all safe problems"
//! (`source.fixAll.skillc`).

use std::collections::{HashMap, HashSet};

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    TextEdit, Uri, WorkspaceEdit,
};

use crate::fix::Applicability;
use crate::rewrite::Mode;
use crate::server::position::Lines;
use crate::server::state::{Server, own, too_large};

/// The code action kind of "fix all safe problems".
pub const FIX_ALL: &str = "source.fixAll.skillc";

/// At most this many "ignore on this line" actions are checked per request.
const MAX_IGNORE_CHECKS: usize = 8;

/// `textDocument/codeAction`: a list, empty where there is nothing to offer.
pub fn handle(server: &mut Server, params: CodeActionParams) -> Option<CodeActionResponse> {
    Some(code_actions(server, &params))
}

/// Quick fixes for the diagnostics in the requested range, and "fix all safe problems".
fn code_actions(server: &Server, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
    let uri = &params.text_document.uri;
    let Some(document) = server.documents.get(uri.as_str()) else {
        return Vec::new();
    };
    let Some(report) = &document.report else {
        return Vec::new();
    };
    let Some(settings) = server.settings() else {
        return Vec::new();
    };
    if too_large(document, &settings) {
        return Vec::new();
    }
    let lines = Lines::new(&document.text, server.encoding);
    let wanted = |kind: &CodeActionKind| {
        params.context.only.as_ref().is_none_or(|only| {
            only.iter().any(|o| {
                kind.as_str() == o.as_str()
                    || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            })
        })
    };
    let mut actions = Vec::new();
    let mut checked: HashSet<(Option<usize>, &str)> = HashSet::new();
    if wanted(&CodeActionKind::QUICKFIX) {
        for d in own(report) {
            let diagnostic = server.diagnostic(d, &lines, uri);
            // Offered on the lines the diagnostic covers, wherever the cursor is on them.
            let lines_apart = diagnostic.range.end.line < params.range.start.line
                || params.range.end.line < diagnostic.range.start.line;
            if lines_apart {
                continue;
            }
            if let Some(fix) = d.fix.as_deref().filter(|f| !f.edits.is_empty()) {
                let edits = fix
                    .edits
                    .iter()
                    .map(|e| {
                        TextEdit::new(lines.range(e.span.start, e.span.end), e.content.clone())
                    })
                    .collect();
                let unsafe_fix = fix.applicability == Applicability::Unsafe;
                let title = format!(
                    "{}: {}{}",
                    d.rule.code,
                    fix.message,
                    if unsafe_fix { " (unsafe)" } else { "" }
                );
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic.clone()]),
                    edit: Some(workspace_edit(uri, edits)),
                    is_preferred: Some(!unsafe_fix),
                    ..CodeAction::default()
                }));
            }
            // Each check lints the text again: once per rule and line, a few per request.
            let key = (d.region.map(|r| r.line), d.rule.code);
            if checked.len() >= MAX_IGNORE_CHECKS || !checked.insert(key) {
                continue;
            }
            let lint = |text: &str| server.lint(&document.path, text);
            if let Some((at, comment)) =
                crate::rewrite::noqa::comment_for(&document.path, &document.text, report, d, &lint)
            {
                let range = lines.range(at, at);
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: format!("Ignore {} on this line", d.rule.code),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![diagnostic]),
                    edit: Some(workspace_edit(uri, vec![TextEdit::new(range, comment)])),
                    is_preferred: Some(false),
                    ..CodeAction::default()
                }));
            }
        }
    }
    let fix_all = CodeActionKind::new(FIX_ALL);
    if wanted(&fix_all)
        && let Ok(fixed) = crate::rewrite::fix_text(
            &report.dir,
            document.text.as_bytes().to_vec(),
            &settings,
            &server.root,
            Mode::default(),
            &HashSet::new(),
        )
        && fixed.count() > 0
        && let Ok(text) = String::from_utf8(fixed.text)
    {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "Fix all safe problems (skillc)".into(),
            kind: Some(fix_all),
            edit: Some(workspace_edit(
                uri,
                vec![TextEdit::new(lines.whole(), text)],
            )),
            ..CodeAction::default()
        }));
    }
    actions
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)]))
}
