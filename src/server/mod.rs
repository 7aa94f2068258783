//! `skillc server`: the Language Server Protocol over stdio, on rust-analyzer's synchronous
//! `lsp-server`. Open skill files are linted from the editor's text (unsaved changes included)
//! in the context of their directory and the workspace's skillc.toml, as `validate` lints them
//! from disk; every fix is a quick fix, and `source.fixAll.skillc` applies the safe ones.

mod text;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CodeDescription, DiagnosticRelatedInformation,
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, InitializeParams, Location, NumberOrString,
    PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextEdit, Uri, WorkspaceEdit,
};

use crate::config::{Overrides, Settings, Source};
use crate::diagnostic::{Diagnostic, Severity};
use crate::fix::{Applicability, Mode};
use crate::skill::{Keep, SkillReport};
use text::{Encoding, Lines};

/// The code action kind of "fix all safe problems".
const FIX_ALL: &str = "source.fixAll.skillc";

/// Serves one client on stdin and stdout until it shuts down or goes away.
pub fn run() -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| format!("initializing: {e}"))?;
    let init: InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("initialize parameters: {e}"))?;
    let encoding = Encoding::negotiate(
        init.capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let capabilities = ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("initializing: {e}"))?;
    let root = workspace_root(&init).unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
    // Files beside a skill change its diagnostics (a linked file created, a schema or
    // skillc.toml edited): the client is asked to say when any file changes.
    let watch = init
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    if watch {
        let registration = serde_json::json!({"registrations": [{
            "id": "skillc-files",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": {"watchers": [{"globPattern": "**/*"}]},
        }]});
        let request = Request::new(
            lsp_server::RequestId::from("skillc-watch".to_string()),
            "client/registerCapability".into(),
            registration,
        );
        let _ = connection.sender.send(Message::Request(request));
    }
    let mut server = Server {
        connection: &connection,
        encoding,
        root,
        documents: HashMap::new(),
    };
    // The channel closes when the client goes away: the loop ends with it.
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).unwrap_or(true) {
                    break;
                }
                server.request(request);
            }
            Message::Notification(notification) => server.notification(notification),
            Message::Response(_) => {}
        }
    }
    drop(server);
    drop(connection);
    io_threads.join().map_err(|e| format!("closing: {e}"))
}

/// The workspace's root directory: its first folder, else the root the client names.
fn workspace_root(init: &InitializeParams) -> Option<PathBuf> {
    let folder = init
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .map(|f| &f.uri);
    #[allow(deprecated)]
    let uri = folder.or(init.root_uri.as_ref())?;
    path_of(uri)
}

/// The local path a `file:` URI names.
fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///p` or `file://host/p`: the path starts at the first `/`.
    let path = &rest[rest.find('/')?..];
    let mut bytes = Vec::with_capacity(path.len());
    let raw = path.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            raw[i],
            raw.get(i + 1).copied().and_then(hex),
            raw.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(high), Some(low)) => {
                bytes.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        String::from_utf8(bytes).ok().map(PathBuf::from)
    }
}

/// An open skill file: its path and the editor's text.
struct Document {
    path: PathBuf,
    text: String,
}

struct Server<'c> {
    connection: &'c Connection,
    encoding: Encoding,
    root: PathBuf,
    documents: HashMap<String, Document>,
}

impl Server<'_> {
    fn notification(&mut self, notification: Notification) {
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) =
                    serde_json::from_value::<DidOpenTextDocumentParams>(notification.params)
                {
                    self.open(p.text_document.uri, p.text_document.text);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) =
                    serde_json::from_value::<DidChangeTextDocumentParams>(notification.params)
                    && let Some(change) = p.content_changes.into_iter().last()
                {
                    // Full synchronisation: each change is the whole text.
                    self.open(p.text_document.uri, change.text);
                }
            }
            // A file beside an open skill (or the skill file on disk) changed: lint them again.
            "workspace/didChangeWatchedFiles" | "textDocument/didSave" => self.relint_all(),
            "textDocument/didClose" => {
                if let Ok(p) =
                    serde_json::from_value::<DidCloseTextDocumentParams>(notification.params)
                {
                    self.documents.remove(p.text_document.uri.as_str());
                    self.publish(&p.text_document.uri, Vec::new());
                }
            }
            _ => {}
        }
    }

    fn request(&mut self, request: Request) {
        let result = match request.method.as_str() {
            "textDocument/codeAction" => serde_json::from_value::<CodeActionParams>(request.params)
                .map_err(|e| e.to_string())
                .map(|p| serde_json::to_value(self.code_actions(&p)).unwrap_or_default()),
            other => Err(format!("unsupported request `{other}`")),
        };
        let response = match result {
            Ok(value) => Response::new_ok(request.id, value),
            Err(message) => Response::new_err(
                request.id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                message,
            ),
        };
        let _ = self.connection.sender.send(Message::Response(response));
    }

    /// Lints every open skill file again, from the editor's text.
    fn relint_all(&mut self) {
        let open: Vec<(String, String)> = self
            .documents
            .iter()
            .map(|(uri, d)| (uri.clone(), d.text.clone()))
            .collect();
        for (uri, text) in open {
            if let Ok(uri) = uri.parse::<Uri>() {
                self.open(uri, text);
            }
        }
    }

    /// Keeps the text of a skill file and publishes its diagnostics.
    fn open(&mut self, uri: Uri, text: String) {
        let Some(path) = path_of(&uri).filter(|p| is_skill_file(p)) else {
            return;
        };
        let diagnostics = match self.lint(&path, &text) {
            Some(report) => {
                let lines = Lines::new(&text, self.encoding);
                own(&report)
                    .map(|d| self.diagnostic(d, &lines, &uri))
                    .collect()
            }
            None => Vec::new(),
        };
        self.documents
            .insert(uri.as_str().to_string(), Document { path, text });
        self.publish(&uri, diagnostics);
    }

    fn publish(&self, uri: &Uri, diagnostics: Vec<lsp_types::Diagnostic>) {
        let params = PublishDiagnosticsParams::new(uri.clone(), diagnostics, None);
        let notification = Notification::new("textDocument/publishDiagnostics".into(), params);
        let _ = self
            .connection
            .sender
            .send(Message::Notification(notification));
    }

    /// The skill's report for `text` as its skill file at `path`, every fix marked available
    /// (quick fixes offer the unsafe ones too, labelled).
    fn lint(&self, path: &Path, text: &str) -> Option<SkillReport> {
        let settings = self.settings()?;
        let dir = crate::discover::skill_of_file(path, &self.root).ok()?;
        let mut report = crate::lint::lint_buffer(
            dir,
            text.as_bytes().to_vec(),
            &settings,
            &self.root,
            Keep::default(),
        );
        Mode { unsafe_fixes: true }.settle(&settings, &mut report.diagnostics);
        Some(report)
    }

    /// The workspace's settings (its skillc.toml), read anew: it may have been edited.
    fn settings(&self) -> Option<Settings> {
        Settings::load(&Source::Discover, &self.root, &Overrides::default()).ok()
    }

    fn diagnostic(&self, d: &Diagnostic, lines: &Lines, uri: &Uri) -> lsp_types::Diagnostic {
        let range = |offset: usize, length: usize| lines.range(offset, offset + length);
        let message = match &d.help {
            Some(help) => format!("{}\nhelp: {help}", d.message),
            None => d.message.clone(),
        };
        let related: Vec<DiagnosticRelatedInformation> = d
            .secondary
            .iter()
            .map(|label| DiagnosticRelatedInformation {
                location: Location::new(
                    uri.clone(),
                    range(label.region.offset, label.region.length),
                ),
                message: label.message.clone(),
            })
            .collect();
        lsp_types::Diagnostic {
            range: d
                .region
                .map_or_else(|| range(0, 0), |r| range(r.offset, r.length)),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
            }),
            code: Some(NumberOrString::String(d.rule.code.to_string())),
            code_description: rule_url(d.rule.code).map(|href| CodeDescription { href }),
            source: Some("skillc".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            tags: None,
            data: None,
        }
    }

    /// Quick fixes for the diagnostics in the requested range, and "fix all safe problems".
    fn code_actions(&self, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        let Some(document) = self.documents.get(uri.as_str()) else {
            return Vec::new();
        };
        let Some(report) = self.lint(&document.path, &document.text) else {
            return Vec::new();
        };
        let lines = Lines::new(&document.text, self.encoding);
        let wanted = |kind: &CodeActionKind| {
            params.context.only.as_ref().is_none_or(|only| {
                only.iter().any(|o| {
                    kind.as_str() == o.as_str()
                        || kind.as_str().starts_with(&format!("{}.", o.as_str()))
                })
            })
        };
        let mut actions = Vec::new();
        if wanted(&CodeActionKind::QUICKFIX) {
            for d in own(&report) {
                let diagnostic = self.diagnostic(d, &lines, uri);
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
                if let Some((at, comment)) = self.suppression(document, &report, d) {
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
            && let Some(settings) = self.settings()
            && let Ok(fixed) = crate::fix::fix_text(
                &report.dir,
                document.text.as_bytes().to_vec(),
                &settings,
                &self.root,
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
}

impl Server<'_> {
    /// The suppression comment for `d` — on a line of its own above the diagnostic's line:
    /// `# skillc: ignore[CODE]` in the frontmatter, `<!-- skillc: ignore[CODE] -->` in the
    /// body — and where it goes, when linting the text with it shows that it suppresses `d`'s
    /// rule there and changes nothing else (not inside a block of text or a code fence).
    fn suppression(
        &self,
        document: &Document,
        report: &SkillReport,
        d: &Diagnostic,
    ) -> Option<(usize, String)> {
        let text = &document.text;
        let offset = d.region?.offset.min(text.len());
        let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
        let line = text.get(start..)?.split('\n').next().unwrap_or("");
        let eol = if line.ends_with('\r') { "\r\n" } else { "\n" };
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        let file = crate::source::SkillFile::new(document.path.clone(), text.clone());
        let in_frontmatter = file
            .layout()
            .is_ok_and(|layout| start > layout.open.start && start < layout.close.start);
        let code = d.rule.code;
        let comment = if in_frontmatter {
            format!("{indent}# skillc: ignore[{code}]{eol}")
        } else {
            format!("<!-- skillc: ignore[{code}] -->{eol}")
        };
        let mut with = text.clone();
        with.insert_str(start, &comment);
        let after = self.lint(&document.path, &with)?;
        let counts = |report: &SkillReport| {
            let mut counts: HashMap<&'static str, usize> = HashMap::new();
            for d in own(report) {
                *counts.entry(d.rule.code).or_default() += 1;
            }
            counts
        };
        let (mut was, mut now) = (counts(report), counts(&after));
        let fewer = now.get(code).copied().unwrap_or(0) < was.get(code).copied().unwrap_or(0);
        was.remove(code);
        now.remove(code);
        (fewer && was == now).then_some((start, comment))
    }
}

/// The diagnostics of a report about its skill file itself.
fn own(report: &SkillReport) -> impl Iterator<Item = &Diagnostic> {
    let file = report.dir.file.clone();
    report
        .diagnostics
        .iter()
        .filter(move |d| Some(&d.path) == file.as_ref())
}

fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit::new(HashMap::from([(uri.clone(), edits)]))
}

/// Where a rule's documentation is read online (what `skillc rule CODE` prints).
fn rule_url(code: &str) -> Option<Uri> {
    format!(
        "{}/blob/main/src/rules/docs/{code}.md",
        env!("CARGO_PKG_HOMEPAGE")
    )
    .parse()
    .ok()
}

/// `SKILL.md` or `skill.md`.
fn is_skill_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| crate::discover::SKILL_FILE_NAMES.iter().any(|n| name == *n))
}
