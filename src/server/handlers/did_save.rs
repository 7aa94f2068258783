//! `textDocument/didSave`: the skill on disk changed, and what the collection rules read of it
//! may have: every open skill is linted again, and the workspace scanned again.

use lsp_types::DidSaveTextDocumentParams;

use crate::server::state::Server;

pub fn handle(server: &mut Server, _: DidSaveTextDocumentParams) -> bool {
    server.relint_all();
    true
}
