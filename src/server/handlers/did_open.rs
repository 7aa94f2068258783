//! `textDocument/didOpen`: a skill file opened is linted from the editor's text.

use lsp_types::DidOpenTextDocumentParams;

use crate::server::state::Server;

pub fn handle(server: &mut Server, params: DidOpenTextDocumentParams) -> bool {
    let document = params.text_document;
    server.change(&document.uri, document.text, Some(document.version));
    false
}
