//! The workspace's skills scanned from disk on a thread of their own: what the collection
//! rules compare an open skill with (duplicate keys, the catalog's budget).

use super::state::Server;
use super::uri::path_of;
use crate::skill::{Keep, SkillReport};

/// The reports of the workspace's skills, from disk (facts only, no diagnostics).
pub struct Scan {
    generation: u64,
    reports: Vec<SkillReport>,
}

impl Server<'_> {
    /// Scans the workspace's skills on a thread of its own, unless one is under way: then one
    /// more scan starts when it ends (however many times files changed meanwhile).
    pub fn scan(&mut self) {
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
        let cwd = self.cwd.clone();
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
                &cwd,
                crate::discover::Options::default(),
                keep,
                &crate::lint::Progress::default(),
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
    pub fn scanned(&mut self, scan: Scan) {
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

    /// Waits for the scan under way, if any.
    pub fn join_scan(&mut self) {
        if let Some(scan) = self.scanning.take() {
            let _ = scan.join();
        }
    }
}

/// Whether a changed file may change what the collection rules know of a skill: its key,
/// description and targets (a skill file), the configuration, a plugin manifest or a tool
/// schema (JSON), anything deleted, or a folder created (a folder of skills moved in is one
/// event).
pub fn changes_facts(change: &lsp_types::FileEvent) -> bool {
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
