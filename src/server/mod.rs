//! `skillc server`: the Language Server Protocol over stdio, on rust-analyzer's synchronous
//! `lsp-server`. Open skill files are linted from the editor's text (unsaved changes included)
//! in the context of their directory and the workspace's skillc.toml, as `validate` lints them
//! from disk; every fix is a quick fix, and `source.fixAll.skillc` applies the safe ones.

mod complete;
mod hover;
mod settings;
mod text;
mod transport;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CodeDescription, CompletionOptions, CompletionParams,
    DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, HoverParams, HoverProviderCapability,
    Location, NumberOrString, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};

use crate::autofix::Mode;
use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Severity};
use crate::fix::Applicability;
use crate::skill::{Keep, SkillReport};
use text::{Encoding, Lines};

/// At most this many "ignore on this line" actions are checked per request.
const MAX_IGNORE_CHECKS: usize = 8;

/// The code action kind of "fix all safe problems".
const FIX_ALL: &str = "source.fixAll.skillc";

/// The most workers a workspace scan (or any parallel work) starts: with the threads of the
/// loop, the transport and the scan, the server stays well under 32 threads on any machine.
const MAX_WORKERS: usize = 8;

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The client shut down and exited, or went away.
    Clean,
    /// The client exited without shutting down (the protocol's exit code 1).
    WithoutShutdown,
}

/// What a session did: how it ended, how many workspace scans it started and how many times
/// it loaded the settings (read skillc.toml and compiled its globs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Session {
    pub ended: Ended,
    pub scans: u64,
    pub settings_loads: u64,
}

impl Session {
    fn ended(ended: Ended) -> Session {
        Session {
            ended,
            scans: 0,
            settings_loads: 0,
        }
    }
}

/// Serves one client on stdin and stdout until it exits or goes away.
pub fn run() -> Ended {
    crate::parallel::limit(MAX_WORKERS);
    let (connection, writer) = transport::stdio();
    let ended = serve(&connection, None).ended;
    // Every message sent is written before the process ends; the reader thread, blocked on
    // stdin, ends with the process.
    let stop = Notification::new(transport::STOP.into(), serde_json::Value::Null);
    let _ = connection.sender.send(Message::Notification(stop));
    let _ = writer.join();
    ended
}

/// Reads framed messages (as on stdin) from `input` into `messages` until it ends; what is not
/// a message is answered on `errors` (the fuzz target reads its input so).
pub fn read_framed(
    input: &mut impl std::io::BufRead,
    messages: &crossbeam_channel::Sender<Message>,
    errors: &crossbeam_channel::Sender<Message>,
) {
    transport::read(input, messages, errors);
}

/// Serves one client over `connection` (an in-memory one: the fuzz target, tests) in the
/// workspace `root`, whatever root the client names, leaving the process's current directory
/// alone. Returns once the client exits or the connection closes and the workspace scan under
/// way, if any, has ended.
pub fn serve_in(connection: &Connection, root: &Path) -> Session {
    serve(connection, Some(root))
}

/// Serves one client; `pinned`: the workspace's root, else the one the client names (the
/// process then works from there).
fn serve(connection: &Connection, pinned: Option<&Path>) -> Session {
    let reply = |response: Response| {
        let _ = connection.sender.send(Message::Response(response));
    };
    // Nothing but `initialize` is answered before it (-32002), and `exit` ends it all.
    let (id, params) = loop {
        match connection.receiver.recv() {
            Err(_) => return Session::ended(Ended::Clean),
            Ok(Message::Request(r)) if r.method == "initialize" => break (r.id, r.params),
            Ok(Message::Request(r)) => reply(Response::new_err(
                r.id,
                ErrorCode::ServerNotInitialized as i32,
                "the server is not initialized".into(),
            )),
            Ok(Message::Notification(n)) if n.method == "exit" => {
                return Session::ended(Ended::WithoutShutdown);
            }
            Ok(_) => {}
        }
    };
    let mut init = Init::of(&params);
    match pinned {
        Some(root) => init.root = root.to_path_buf(),
        // Paths are resolved and shown relative to the current directory, as `validate` run
        // in the workspace's root would: the server works from there.
        None => {
            if std::env::set_current_dir(&init.root).is_err()
                && let Ok(cwd) = std::env::current_dir()
            {
                init.root = cwd;
            }
        }
    }
    let capabilities = ServerCapabilities {
        position_encoding: Some(init.encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]),
            ..CodeActionOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            // `(` starts a link's target, `/` a folder of it, `:` and ` ` a field's value.
            trigger_characters: Some(["(", "/", ":", " "].map(String::from).to_vec()),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    };
    reply(Response::new_ok(
        id,
        serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
        }),
    ));
    // Files beside a skill change its diagnostics (a linked file created, a schema or
    // skillc.toml edited): the client is asked to say when any file changes.
    if init.watch {
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
    let (scanned, scans) = crossbeam_channel::unbounded::<Scan>();
    let mut server = Server {
        connection,
        encoding: init.encoding,
        settings: std::cell::RefCell::new(settings::SettingsCache::new(&init.root)),
        root: init.root,
        documents: HashMap::new(),
        dirty: Vec::new(),
        workspace: std::cell::RefCell::new(Vec::new()),
        generation: 0,
        config_error: std::cell::RefCell::new(None),
        scanned: 0,
        scanning: None,
        scan_pending: false,
        scans_started: 0,
        scan_done: scanned,
        collected: std::cell::RefCell::new(HashMap::new()),
    };
    // The tokenizer (SK402, hover's costs) gets ready off the request path.
    if let Some(settings) = server.settings() {
        let encoding = settings.encoding;
        // No thread to be had: it gets ready on first use instead.
        let _ = std::thread::Builder::new()
            .spawn(move || crate::tokens::tokenizer(encoding).map(|_| ()));
    }
    let mut shut_down = false;
    server.scan();
    let ended = loop {
        let message = crossbeam_channel::select! {
            // The channel closes when the client goes away: the loop ends with it.
            recv(connection.receiver) -> message => match message {
                Ok(message) => message,
                Err(_) => break Ended::Clean,
            },
            recv(scans) -> scan => {
                if let Ok(scan) = scan {
                    server.scanned(scan);
                }
                if connection.receiver.is_empty() {
                    server.flush();
                }
                continue;
            }
        };
        match message {
            Message::Request(r) if shut_down || r.method == "initialize" => {
                reply(Response::new_err(
                    r.id,
                    ErrorCode::InvalidRequest as i32,
                    format!(
                        "`{}` after {}",
                        r.method,
                        if shut_down { "shutdown" } else { "initialize" }
                    ),
                ));
            }
            Message::Request(r) if r.method == "shutdown" => {
                shut_down = true;
                reply(Response::new_ok(r.id, serde_json::Value::Null));
            }
            Message::Request(r) => {
                // A request is answered on the text as last changed.
                server.flush();
                server.request(r);
            }
            Message::Notification(n) if n.method == "exit" => {
                break if shut_down {
                    Ended::Clean
                } else {
                    Ended::WithoutShutdown
                };
            }
            Message::Notification(n) if !shut_down => {
                if server.notification(n) {
                    server.scan();
                }
            }
            Message::Notification(_) | Message::Response(_) => {}
        }
        // Changes are linted once no message waits: a burst of keystrokes is linted once, on
        // its last text.
        if connection.receiver.is_empty() {
            server.flush();
        }
    };
    // A process that ends leaves its scan behind; a session in memory waits for it, so that
    // no thread outlives it.
    if pinned.is_some()
        && let Some(scan) = server.scanning.take()
    {
        let _ = scan.join();
    }
    Session {
        ended,
        scans: server.scans_started,
        settings_loads: server.settings.borrow().loads,
    }
}

/// What the server takes of `initialize`, read leniently: a parameter it cannot read is as if
/// absent (a client's odd capability or root must not keep it from serving).
struct Init {
    encoding: Encoding,
    watch: bool,
    root: PathBuf,
}

impl Init {
    fn of(params: &serde_json::Value) -> Init {
        let capabilities = &params["capabilities"];
        let offered: Vec<&str> = capabilities["general"]["positionEncodings"]
            .as_array()
            .map(|kinds| kinds.iter().filter_map(|k| k.as_str()).collect())
            .unwrap_or_default();
        let watch = capabilities["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"]
            .as_bool()
            .unwrap_or(false);
        // The workspace's first folder, else the root the client names, else the current
        // directory.
        let root = params["workspaceFolders"][0]["uri"]
            .as_str()
            .or(params["rootUri"].as_str())
            .and_then(path_of_str)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        Init {
            encoding: Encoding::negotiate(offered),
            watch,
            root,
        }
    }
}

fn path_of(uri: &Uri) -> Option<PathBuf> {
    path_of_str(uri.as_str())
}

/// The local path a `file:` URI names (`file:///p`, `file://host/p`, `file:/p`; a query or
/// fragment is not part of it).
fn path_of_str(uri: &str) -> Option<PathBuf> {
    let (scheme, rest) = uri.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let path = match rest.strip_prefix("//") {
        // The path starts at the first `/` after the host.
        Some(authority) => &authority[authority.find('/')?..],
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = crate::encode::percent_decode(path);
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

/// The reports of the workspace's skills, from disk (facts only, no diagnostics): what the
/// collection rules compare an open skill with.
struct Scan {
    generation: u64,
    reports: Vec<SkillReport>,
}

/// The `file:` URI of an absolute path (bytes other than unreserved ones and `/` escaped).
fn uri_of_path(path: &Path) -> Option<Uri> {
    let path = crate::encode::percent_encode(path.as_os_str().as_encoded_bytes());
    format!("file://{path}").parse().ok()
}

/// What the collection rules did to each skill file, by path: the scan and the facts they
/// read.
type Memo = HashMap<PathBuf, (u64, String, crate::lint::Collected)>;

/// An open skill file: its path, the editor's text, and its report on that text (`None`
/// until it is linted, or when it cannot be).
struct Document {
    path: PathBuf,
    text: String,
    version: Option<i32>,
    report: Option<SkillReport>,
    /// What was last published for it, and for which version.
    published: Option<(Option<i32>, Vec<lsp_types::Diagnostic>)>,
}

struct Server<'c> {
    connection: &'c Connection,
    encoding: Encoding,
    root: PathBuf,
    /// The workspace's settings, loaded again only when its skillc.toml changes.
    settings: std::cell::RefCell<settings::SettingsCache>,
    documents: HashMap<String, Document>,
    /// Documents changed since they were last linted, in the order they changed.
    dirty: Vec<String>,
    /// The latest scan of the workspace (empty until the first ends).
    workspace: std::cell::RefCell<Vec<SkillReport>>,
    /// The generation of the latest scan started.
    generation: u64,
    /// The generation of the scan the workspace's reports come from.
    scanned: u64,
    /// The scan under way: one at a time, whatever the number of saves.
    scanning: Option<std::thread::JoinHandle<()>>,
    /// Files changed while a scan was under way: one more scan is due when it ends.
    scan_pending: bool,
    /// The scans started so far.
    scans_started: u64,
    /// Where a scan sends its reports.
    scan_done: crossbeam_channel::Sender<Scan>,
    /// For each skill file linted, what the collection rules did to it, for which facts of
    /// it and which scan ([`crate::lint::collected_before`]).
    collected: std::cell::RefCell<Memo>,
    /// The configuration error last shown, while it lasts.
    config_error: std::cell::RefCell<Option<String>>,
}

impl Server<'_> {
    /// Handles a notification; `true` when files changed that the collection rules read, so
    /// that the workspace must be scanned again.
    fn notification(&mut self, notification: Notification) -> bool {
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) =
                    serde_json::from_value::<DidOpenTextDocumentParams>(notification.params)
                {
                    self.change(
                        &p.text_document.uri,
                        p.text_document.text,
                        Some(p.text_document.version),
                    );
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) =
                    serde_json::from_value::<DidChangeTextDocumentParams>(notification.params)
                    && let Some(change) = p.content_changes.into_iter().last()
                {
                    // Full synchronisation: each change is the whole text.
                    self.change(
                        &p.text_document.uri,
                        change.text,
                        Some(p.text_document.version),
                    );
                }
            }
            // A file beside an open skill (or the skill file on disk) changed: lint them again.
            "workspace/didChangeWatchedFiles" => {
                self.relint_all();
                return serde_json::from_value::<lsp_types::DidChangeWatchedFilesParams>(
                    notification.params,
                )
                .is_ok_and(|p| p.changes.iter().any(changes_facts));
            }
            "textDocument/didSave" => {
                self.relint_all();
                return true;
            }
            "textDocument/didClose" => {
                if let Ok(p) =
                    serde_json::from_value::<DidCloseTextDocumentParams>(notification.params)
                {
                    let uri = p.text_document.uri.as_str();
                    if let Some(closed) = self.documents.remove(uri) {
                        self.collected.borrow_mut().remove(&closed.path);
                    }
                    self.dirty.retain(|d| d != uri);
                    self.publish(&p.text_document.uri, Vec::new(), None);
                }
            }
            _ => {}
        }
        false
    }

    /// Scans the workspace's skills on a thread of its own, unless one is under way: then one
    /// more scan starts when it ends (however many times files changed meanwhile).
    fn scan(&mut self) {
        // A scan thread that ended without its reports reaching the loop yet (or at all: it
        // panicked) is no longer under way.
        if self.scanning.as_ref().is_some_and(|t| !t.is_finished()) {
            self.scan_pending = true;
            return;
        }
        let Some(settings) = self.settings() else {
            return;
        };
        self.generation += 1;
        self.scans_started += 1;
        let (generation, root, done) = (self.generation, self.root.clone(), self.scan_done.clone());
        let spawned = std::thread::Builder::new().spawn(move || {
            let keep = Keep {
                details: false,
                lines: false,
                costs: false,
                fields: false,
            };
            let found = crate::lint::discover_and_lint(
                std::slice::from_ref(&root),
                &settings,
                &root,
                crate::discover::Options::default(),
                keep,
            );
            let mut reports = found.map(|(_, reports)| reports).unwrap_or_default();
            for report in &mut reports {
                report.diagnostics.clear();
            }
            let _ = done.send(Scan {
                generation,
                reports,
            });
        });
        // No thread to be had: the workspace stays as last scanned.
        self.scanning = spawned.ok();
    }

    /// Takes a scan's reports (unless later ones are in), lints the open skills again among
    /// them, and starts the scan that files changed since then call for.
    fn scanned(&mut self, scan: Scan) {
        if scan.generation == self.generation
            && let Some(thread) = self.scanning.take()
        {
            // It has sent its reports: it is ending.
            let _ = thread.join();
        }
        if scan.generation < self.scanned {
            return;
        }
        *self.workspace.borrow_mut() = scan.reports;
        self.scanned = scan.generation;
        self.relint_all();
        if std::mem::take(&mut self.scan_pending) {
            self.scan();
        }
    }

    fn request(&mut self, request: Request) {
        let result = match request.method.as_str() {
            "textDocument/codeAction" => serde_json::from_value::<CodeActionParams>(request.params)
                .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
                .map(|p| serde_json::to_value(self.code_actions(&p)).unwrap_or_default()),
            "textDocument/hover" => serde_json::from_value::<HoverParams>(request.params)
                .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
                .map(|p| {
                    let at = &p.text_document_position_params;
                    let hover = self.at(&at.text_document.uri, at.position, hover::hover);
                    serde_json::to_value(hover.flatten()).unwrap_or_default()
                }),
            "textDocument/completion" => serde_json::from_value::<CompletionParams>(request.params)
                .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
                .map(|p| {
                    let at = &p.text_document_position;
                    let items = self
                        .at(&at.text_document.uri, at.position, complete::complete)
                        .unwrap_or_default();
                    serde_json::to_value(items).unwrap_or_default()
                }),
            other => Err((
                ErrorCode::MethodNotFound,
                format!("unsupported request `{other}`"),
            )),
        };
        let response = match result {
            Ok(value) => Response::new_ok(request.id, value),
            Err((code, message)) => Response::new_err(request.id, code as i32, message),
        };
        let _ = self.connection.sender.send(Message::Response(response));
    }

    /// What `answer` says at `position` of an open document, on its settings.
    fn at<T>(
        &self,
        uri: &Uri,
        position: lsp_types::Position,
        answer: impl Fn(&Document, &Settings, &Lines, usize) -> T,
    ) -> Option<T> {
        let document = self.documents.get(uri.as_str())?;
        let settings = self.settings()?;
        if too_large(document, &settings) {
            return None;
        }
        let lines = Lines::new(&document.text, self.encoding);
        let at = lines.offset(position);
        Some(answer(document, &settings, &lines, at))
    }

    /// Lints every open skill file again, from the editor's text.
    fn relint_all(&mut self) {
        for uri in self.documents.keys() {
            if !self.dirty.contains(uri) {
                self.dirty.push(uri.clone());
            }
        }
    }

    /// Keeps the new text of a skill file, to be linted once no message waits.
    fn change(&mut self, uri: &Uri, text: String, version: Option<i32>) {
        let Some(path) = path_of(uri).filter(|p| is_skill_file(p)) else {
            return;
        };
        let key = uri.as_str().to_string();
        if !self.dirty.contains(&key) {
            self.dirty.push(key.clone());
        }
        let published = self.documents.remove(&key).and_then(|d| d.published);
        self.documents.insert(
            key,
            Document {
                path,
                text,
                version,
                report: None,
                published,
            },
        );
    }

    /// Lints the changed documents and publishes their diagnostics.
    fn flush(&mut self) {
        for key in std::mem::take(&mut self.dirty) {
            let Ok(uri) = key.parse::<Uri>() else {
                continue;
            };
            let Some(document) = self.documents.get(&key) else {
                continue;
            };
            let report = self.lint(&document.path, &document.text);
            let diagnostics = match &report {
                Some(report) => {
                    let lines = Lines::new(&document.text, self.encoding);
                    own(report)
                        .map(|d| self.diagnostic(d, &lines, &uri))
                        .collect()
                }
                None => Vec::new(),
            };
            // Linted again with nothing new (a scan, a file that changed nothing): the client
            // is not told again.
            let version = document.version;
            let fresh = Some((version, diagnostics));
            if document.published != fresh
                && let Some((version, diagnostics)) = fresh.clone()
            {
                self.publish(&uri, diagnostics, version);
            }
            if let Some(document) = self.documents.get_mut(&key) {
                document.report = report;
                document.published = fresh;
            }
        }
    }

    fn publish(&self, uri: &Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        let params = PublishDiagnosticsParams::new(uri.clone(), diagnostics, version);
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
        let mut report = crate::lint::lint_buffer_alone(
            dir,
            text.as_bytes().to_vec(),
            &settings,
            &self.root,
            Keep::default(),
        );
        // The collection rules compare the skill with every other of the workspace: run again
        // only when what they read of it (its key, description, targets...) or the workspace
        // changed, not on every keystroke in its body.
        // The settings are part of what they read (a budget set in skillc.toml): those of
        // another load of it count as changed.
        let loads = self.settings.borrow().loads;
        let facts = format!("{}\n{loads}", crate::lint::collection_facts(&report));
        let mut memo = self.collected.borrow_mut();
        match memo.get(path) {
            Some((generation, known, collected))
                if *generation == self.scanned && *known == facts =>
            {
                crate::lint::collected_before(&mut report, collected, &settings, &self.root);
            }
            _ => {
                let collected = crate::lint::collect_among(
                    &mut report,
                    &mut self.workspace.borrow_mut(),
                    &settings,
                    &self.root,
                );
                memo.insert(path.to_path_buf(), (self.scanned, facts, collected));
            }
        }
        Mode { unsafe_fixes: true }.settle(&settings, &mut report.diagnostics);
        Some(report)
    }

    /// The workspace's settings (its skillc.toml), read again when it was edited, created or
    /// deleted. A configuration that does not load is shown to the user (once until it
    /// changes), and no skill is linted until it is fixed.
    fn settings(&self) -> Option<Arc<Settings>> {
        let loaded = self.settings.borrow_mut().get();
        match loaded {
            Ok(settings) => {
                self.config_error.replace(None);
                Some(settings)
            }
            Err(message) => {
                if self.config_error.borrow().as_deref() != Some(&message) {
                    let params = lsp_types::ShowMessageParams {
                        typ: lsp_types::MessageType::ERROR,
                        message: message.clone(),
                    };
                    let notification = Notification::new("window/showMessage".into(), params);
                    let _ = self
                        .connection
                        .sender
                        .send(Message::Notification(notification));
                    self.config_error.replace(Some(message));
                }
                None
            }
        }
    }

    fn diagnostic(&self, d: &Diagnostic, lines: &Lines, uri: &Uri) -> lsp_types::Diagnostic {
        let range = |offset: usize, length: usize| lines.range(offset, offset + length);
        let message = match &d.help {
            Some(help) => format!("{}\nhelp: {help}", d.message),
            None => d.message.clone(),
        };
        let mut related: Vec<DiagnosticRelatedInformation> = d
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
        if d.rule.code == crate::rules::SK501.code {
            related.extend(self.same_key(d));
        }
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
            tags: tags(d.rule.code),
            data: None,
        }
    }

    /// SK501's other skill: the key of the skill of the workspace its message names.
    fn same_key(&self, d: &Diagnostic) -> Option<DiagnosticRelatedInformation> {
        let workspace = self.workspace.borrow();
        let key = d
            .message
            .strip_prefix("duplicate skill key `")?
            .split_once("`: also used by `")?
            .0;
        let other = workspace.iter().find(|r| {
            r.key.as_deref() == Some(key)
                && r.dir.file.as_deref() != Some(&*d.path)
                && d.message
                    .ends_with(&format!("also used by `{}`", r.path().display()))
        })?;
        let path = self.root.join(other.path());
        let region = other.key_region()?;
        // The other file is read only to place the key in the client's encoding.
        let size = std::fs::metadata(&path).ok()?.len();
        let settings = self.settings()?;
        if size > settings.max_file_size {
            return None;
        }
        let text = String::from_utf8(std::fs::read(&path).ok()?).ok()?;
        let lines = Lines::new(&text, self.encoding);
        Some(DiagnosticRelatedInformation {
            location: Location::new(
                uri_of_path(&path)?,
                lines.range(region.offset, region.offset + region.length),
            ),
            message: "the other skill with this key".into(),
        })
    }

    /// Quick fixes for the diagnostics in the requested range, and "fix all safe problems".
    fn code_actions(&self, params: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        let Some(document) = self.documents.get(uri.as_str()) else {
            return Vec::new();
        };
        let Some(report) = &document.report else {
            return Vec::new();
        };
        let Some(settings) = self.settings() else {
            return Vec::new();
        };
        if too_large(document, &settings) {
            return Vec::new();
        }
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
        let mut checked: HashSet<(Option<usize>, &str)> = HashSet::new();
        if wanted(&CodeActionKind::QUICKFIX) {
            for d in own(report) {
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
                // Each check lints the text again: once per rule and line, a few per request.
                let key = (d.region.map(|r| r.line), d.rule.code);
                if checked.len() >= MAX_IGNORE_CHECKS || !checked.insert(key) {
                    continue;
                }
                let lint = |text: &str| self.lint(&document.path, text);
                if let Some((at, comment)) = crate::autofix::noqa::comment_for(
                    &document.path,
                    &document.text,
                    report,
                    d,
                    &lint,
                ) {
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
            && let Ok(fixed) = crate::autofix::fix_text(
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

/// Whether a document is over `max-file-size`: its lint says so (SK011) and nothing else reads
/// it, as `validate` reads no more of such a file.
fn too_large(document: &Document, settings: &Settings) -> bool {
    document.text.len() as u64 > settings.max_file_size
}

/// The frontmatter of a text, parsed (spans are offsets in the text).
struct Frontmatter {
    root: crate::yaml::Node,
}

impl Frontmatter {
    /// `None` when the text has no frontmatter or it does not parse.
    fn parse(text: &str) -> Option<Frontmatter> {
        let file = crate::source::SkillFile::new(PathBuf::new(), text.to_string());
        let layout = file.layout().ok()?;
        let yaml = file.slice(layout.frontmatter);
        let doc = crate::yaml::parse(yaml, layout.frontmatter.start).ok()?;
        Some(Frontmatter { root: doc.root? })
    }

    /// The top-level entry whose key or value holds byte `at`.
    fn entry_at(&self, at: usize) -> Option<&(crate::yaml::Node, crate::yaml::Node)> {
        let crate::yaml::Value::Map(entries) = &self.root.value else {
            return None;
        };
        entries.iter().find(|(key, value)| {
            let holds = |span: crate::diagnostic::Span| span.start <= at && at <= span.end;
            holds(key.span) || holds(value.span)
        })
    }
}

/// Whether a changed file may change what the collection rules know of a skill: its key,
/// description and targets (a skill file), the configuration, a plugin manifest or a tool
/// schema (JSON), anything deleted, or a folder created (a folder of skills moved in is one
/// event).
fn changes_facts(change: &lsp_types::FileEvent) -> bool {
    let name = path_of(&change.uri)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let folder_created = change.typ == lsp_types::FileChangeType::CREATED
        && path_of(&change.uri).is_some_and(|p| p.is_dir());
    change.typ == lsp_types::FileChangeType::DELETED
        || folder_created
        || crate::discover::SKILL_FILE_NAMES.contains(&name.as_str())
        || name == "skillc.toml"
        || name.ends_with(".json")
}

/// The tags of a rule's diagnostics: what runtimes never read is unnecessary (the editor
/// fades it).
fn tags(code: &str) -> Option<Vec<DiagnosticTag>> {
    const UNNECESSARY: [&str; 3] = [
        crate::rules::SK013.code,
        crate::rules::SK016.code,
        crate::rules::SK206.code,
    ];
    UNNECESSARY
        .contains(&code)
        .then(|| vec![DiagnosticTag::UNNECESSARY])
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
    crate::rule::doc_url(code).parse().ok()
}

/// `SKILL.md` or `skill.md`.
fn is_skill_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| crate::discover::SKILL_FILE_NAMES.iter().any(|n| name == *n))
}

#[cfg(test)]
mod tests;
