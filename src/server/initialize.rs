//! The handshake, on `lsp-server`'s helpers: `initialize` answered with the server's
//! capabilities (and the position encoding agreed on), then `initialized` awaited; and the
//! registration for file changes that follows it.

use std::path::{Path, PathBuf};

use lsp_server::{Connection, Message, Request, RequestId};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
};

use super::Ended;
use super::handlers::code_action::FIX_ALL;
use super::position::Encoding;

/// What the server takes of `initialize`, read leniently: a parameter it cannot read is as if
/// absent (a client's odd capability or root must not keep it from serving).
pub struct Init {
    pub encoding: Encoding,
    pub watch: bool,
    pub root: PathBuf,
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
            .and_then(super::uri::path_of_str)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        Init {
            encoding: Encoding::negotiate(offered),
            watch,
            root,
        }
    }
}

/// Waits for `initialize`, answers it and waits for `initialized` (`lsp-server`'s
/// `initialize_start` and `initialize_finish`: before `initialize`, requests are refused with
/// -32002). `pinned`: the workspace's root, else the one the client names (the process then
/// works from there). How the session ended when the handshake did not complete.
pub fn handshake(connection: &Connection, pinned: Option<&Path>) -> Result<Init, Ended> {
    // The channel closed: the client went away. Anything else: `exit` (or a response) came
    // instead of `initialize`.
    let ended = |e: lsp_server::ProtocolError| {
        if e.channel_is_disconnected() {
            Ended::Clean
        } else {
            Ended::WithoutShutdown
        }
    };
    let (id, params) = connection.initialize_start().map_err(ended)?;
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
    let result = serde_json::json!({
        "capabilities": capabilities(init.encoding),
        "serverInfo": {"name": "skillc", "version": env!("CARGO_PKG_VERSION")},
    });
    connection.initialize_finish(id, result).map_err(ended)?;
    if init.watch {
        register_watch(connection);
    }
    Ok(init)
}

/// What the server does: full text sync, quick fixes and "fix all", hover, completion.
fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
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
    }
}

/// Files beside a skill change its diagnostics (a linked file created, a schema or
/// skillc.toml edited): the client is asked to say when any file changes.
fn register_watch(connection: &Connection) {
    let registration = serde_json::json!({"registrations": [{
        "id": "skillc-files",
        "method": "workspace/didChangeWatchedFiles",
        "registerOptions": {"watchers": [{"globPattern": "**/*"}]},
    }]});
    let request = Request::new(
        RequestId::from("skillc-watch".to_string()),
        "client/registerCapability".into(),
        registration,
    );
    let _ = connection.sender.send(Message::Request(request));
}
