//! Open documents changed, linted once no message waits, and their diagnostics published
//! (only when they changed).

use lsp_types::notification::PublishDiagnostics;
use lsp_types::{PublishDiagnosticsParams, Uri};

use super::position::Lines;
use super::state::{Document, Server, own};
use super::uri::{is_skill_file, path_of};

impl Server<'_> {
    /// Keeps the new text of a skill file, to be linted once no message waits.
    pub fn change(&mut self, uri: &Uri, text: String, version: Option<i32>) {
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

    /// Forgets a closed document, and clears its diagnostics.
    pub fn close(&mut self, uri: &Uri) {
        if let Some(closed) = self.documents.remove(uri.as_str()) {
            self.collected.borrow_mut().remove(&closed.path);
        }
        self.dirty.retain(|d| d != uri.as_str());
        self.publish(uri, Vec::new(), None);
    }

    /// Lints every open skill file again, from the editor's text.
    pub fn relint_all(&mut self) {
        for uri in self.documents.keys() {
            if !self.dirty.contains(uri) {
                self.dirty.push(uri.clone());
            }
        }
    }

    /// Lints the changed documents and publishes their diagnostics.
    pub fn flush(&mut self) {
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
        self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(
            uri.clone(),
            diagnostics,
            version,
        ));
    }
}
