//! `textDocument/didChange`: the new text of an open skill file, linted once no message waits.

use lsp_types::DidChangeTextDocumentParams;

use crate::server::state::Server;

pub fn handle(server: &mut Server, params: DidChangeTextDocumentParams) -> bool {
    // Full synchronisation: each change is the whole text.
    if let Some(change) = params.content_changes.into_iter().last() {
        let document = params.text_document;
        server.change(&document.uri, change.text, Some(document.version));
    }
    false
}
