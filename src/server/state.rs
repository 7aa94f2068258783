//! What the server keeps between messages: the open documents, the workspace's settings and
//! latest scan, and what the collection rules did; and linting a document's text with them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::ShowMessage;
use lsp_types::{MessageType, ShowMessageParams, Uri};

use super::position::{Encoding, Lines};
use super::scan::Scan;
use super::settings::SettingsCache;
use super::{Ended, Session};
use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::rewrite::Mode;
use crate::skill::{Keep, SkillReport};

/// What the collection rules did to each skill file, by path: the scan and the facts they
/// read.
type Memo = HashMap<PathBuf, (u64, String, crate::lint::Collected)>;

/// An open skill file: its path, the editor's text, and its report on that text (`None`
/// until it is linted, or when it cannot be).
pub struct Document {
    pub path: PathBuf,
    pub text: String,
    pub version: Option<i32>,
    pub report: Option<SkillReport>,
    /// What was last published for it, and for which version.
    pub published: Option<(Option<i32>, Vec<lsp_types::Diagnostic>)>,
}

pub struct Server<'c> {
    pub connection: &'c Connection,
    pub encoding: Encoding,
    pub root: PathBuf,
    /// The process's current directory, against which discovery resolves and shows paths: the
    /// root itself, except for a session pinned to a root ([`super::serve_in`]).
    pub cwd: PathBuf,
    /// The workspace's settings, loaded again only when its skillc.toml changes.
    pub settings: RefCell<SettingsCache>,
    pub documents: HashMap<String, Document>,
    /// Documents changed since they were last linted, in the order they changed.
    pub dirty: Vec<String>,
    /// The latest scan of the workspace (empty until the first ends).
    pub workspace: RefCell<Vec<SkillReport>>,
    /// The generation of the latest scan started.
    pub generation: u64,
    /// The generation of the scan the workspace's reports come from.
    pub scanned: u64,
    /// The scan under way: one at a time, whatever the number of saves.
    pub scanning: Option<std::thread::JoinHandle<()>>,
    /// Files changed while a scan was under way: one more scan is due when it ends.
    pub scan_pending: bool,
    /// The scans started so far.
    pub scans_started: u64,
    /// Where a scan sends its reports.
    pub scan_done: crossbeam_channel::Sender<Scan>,
    /// For each skill file linted, what the collection rules did to it, for which facts of
    /// it and which scan ([`crate::lint::collected_before`]).
    pub collected: RefCell<Memo>,
    /// The configuration error last shown, while it lasts.
    pub config_error: RefCell<Option<String>>,
}

impl<'c> Server<'c> {
    pub fn new(
        connection: &'c Connection,
        encoding: Encoding,
        root: PathBuf,
        scan_done: crossbeam_channel::Sender<Scan>,
    ) -> Server<'c> {
        Server {
            connection,
            encoding,
            settings: RefCell::new(SettingsCache::new(&root)),
            cwd: std::env::current_dir().unwrap_or_else(|_| root.clone()),
            root,
            documents: HashMap::new(),
            dirty: Vec::new(),
            workspace: RefCell::new(Vec::new()),
            generation: 0,
            config_error: RefCell::new(None),
            scanned: 0,
            scanning: None,
            scan_pending: false,
            scans_started: 0,
            scan_done,
            collected: RefCell::new(HashMap::new()),
        }
    }

    /// What the session did, ended so.
    pub fn session(&self, ended: Ended) -> Session {
        Session {
            ended,
            scans: self.scans_started,
            settings_loads: self.settings.borrow().loads,
        }
    }

    /// Sends the client a notification.
    pub fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let notification = Notification::new(N::METHOD.into(), params);
        let _ = self
            .connection
            .sender
            .send(Message::Notification(notification));
    }

    /// The skill's report for `text` as its skill file at `path`, every fix marked available
    /// (quick fixes offer the unsafe ones too, labelled).
    pub fn lint(&self, path: &Path, text: &str) -> Option<SkillReport> {
        let settings = self.settings()?;
        let dir = crate::discover::skill_of_file(path, &self.cwd).ok()?;
        let mut report = crate::lint::lint_buffer_alone(
            dir,
            text.as_bytes().to_vec(),
            &settings,
            &self.cwd,
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
                crate::lint::collected_before(&mut report, collected, &settings, &self.cwd);
            }
            _ => {
                let collected = crate::lint::collect_among(
                    &mut report,
                    &mut self.workspace.borrow_mut(),
                    &settings,
                    &self.cwd,
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
    pub fn settings(&self) -> Option<Arc<Settings>> {
        let loaded = self.settings.borrow_mut().get();
        match loaded {
            Ok(settings) => {
                self.config_error.replace(None);
                Some(settings)
            }
            Err(message) => {
                if self.config_error.borrow().as_deref() != Some(&message) {
                    self.notify::<ShowMessage>(ShowMessageParams {
                        typ: MessageType::ERROR,
                        message: message.clone(),
                    });
                    self.config_error.replace(Some(message));
                }
                None
            }
        }
    }

    /// What `answer` says at `position` of an open document, on its settings.
    pub fn at<T>(
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
}

/// Whether a document is over `max-file-size`: its lint says so (SK011) and nothing else reads
/// it, as `validate` reads no more of such a file.
pub fn too_large(document: &Document, settings: &Settings) -> bool {
    document.text.len() as u64 > settings.max_file_size
}

/// The diagnostics of a report about its skill file itself.
pub fn own(report: &SkillReport) -> impl Iterator<Item = &Diagnostic> {
    let file = report.dir.file.clone();
    report
        .diagnostics
        .iter()
        .filter(move |d| Some(&d.path) == file.as_ref())
}
