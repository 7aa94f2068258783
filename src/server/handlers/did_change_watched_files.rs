//! `workspace/didChangeWatchedFiles`: a file beside an open skill (or the skill file on disk)
//! changed: the open skills are linted again, and the workspace scanned again when the change
//! may touch what the collection rules read.

use lsp_types::DidChangeWatchedFilesParams;

use crate::server::scan::changes_facts;
use crate::server::state::Server;

pub fn handle(server: &mut Server, params: DidChangeWatchedFilesParams) -> bool {
    server.relint_all();
    params.changes.iter().any(changes_facts)
}
