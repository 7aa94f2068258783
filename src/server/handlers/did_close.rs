//! `textDocument/didClose`: the document is forgotten and its diagnostics cleared.

use lsp_types::DidCloseTextDocumentParams;

use crate::server::state::Server;

pub fn handle(server: &mut Server, params: DidCloseTextDocumentParams) -> bool {
    server.close(&params.text_document.uri);
    false
}
