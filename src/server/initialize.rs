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

/// Waits for `initialize` ([`initialize_request`]), answers it and waits for `initialized`
/// (`lsp-server`'s `initialize_finish`). `pinned`: the workspace's root, else the one the client names (the process then
/// works from there). How the session ended when the handshake did not complete.
pub fn handshake(connection: &Connection, pinned: Option<&Path>) -> Result<Init, Ended> {
    let (id, params) = initialize_request(connection)?;
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
    // The channel closed: the client went away. Anything but `initialized`: the session ends
    // as an exit without shutdown.
    connection.initialize_finish(id, result).map_err(|e| {
        if e.channel_is_disconnected() {
            Ended::Clean
        } else {
            Ended::WithoutShutdown
        }
    })?;
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

/// Waits for the `initialize` request. Before it, a request is refused with -32002 and a fixed
/// message, a response or another notification is ignored, and `exit` ends the session.
/// (`lsp-server`'s `initialize_start` would end the session on a client's response, and echo a
/// refused request whole into its error: a 15 MB request became a 55 MB reply.)
fn initialize_request(connection: &Connection) -> Result<(RequestId, serde_json::Value), Ended> {
    loop {
        match connection.receiver.recv() {
            Err(_) => return Err(Ended::Clean),
            Ok(Message::Request(r)) if r.method == "initialize" => return Ok((r.id, r.params)),
            Ok(Message::Request(r)) => {
                let refused = lsp_server::Response::new_err(
                    r.id,
                    lsp_server::ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized".into(),
                );
                let _ = connection.sender.send(Message::Response(refused));
            }
            Ok(Message::Notification(n)) if n.method == "exit" => {
                return Err(Ended::WithoutShutdown);
            }
            Ok(_) => {}
        }
    }
}
