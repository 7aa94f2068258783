//! The session: the handshake, then messages from the client and scans of the workspace as
//! they come, until `shutdown` and `exit` (`lsp-server`'s `handle_shutdown`) or the client goes
//! away.

use std::path::Path;

use lsp_server::{Connection, ErrorCode, Message, Response};
use lsp_types::notification::{Exit, Notification as _};
use lsp_types::request::{Initialize, Request as _};

use super::state::Server;
use super::{Ended, Session, dispatch, initialize};

/// Serves one client; `pinned`: the workspace's root, else the one the client names.
pub fn serve(connection: &Connection, pinned: Option<&Path>) -> Session {
    let init = match initialize::handshake(connection, pinned) {
        Ok(init) => init,
        Err(ended) => return Session::ended(ended),
    };
    let (scan_done, scans) = crossbeam_channel::unbounded();
    let mut server = Server::new(connection, init.encoding, init.root, scan_done);
    // The tokenizer (SK402, hover's costs) gets ready off the request path.
    if let Some(settings) = server.settings() {
        let encoding = settings.encoding;
        // No thread to be had: it gets ready on first use instead.
        let _ = std::thread::Builder::new()
            .spawn(move || crate::tokens::tokenizer(encoding).map(|_| ()));
    }
    server.scan();
    let ended = loop {
        let message = crossbeam_channel::select! {
            // The channel closes when the client goes away: the loop ends with it.
            recv(connection.receiver) -> message => match message {
                Ok(message) => message,
                Err(_) => break Ended::Clean,
            },
            recv(scans) -> scan => {
                if let Ok(scan) = scan {
                    server.scanned(scan);
                }
                if connection.receiver.is_empty() {
                    server.flush();
                }
                continue;
            }
        };
        match message {
            Message::Request(request) => {
                // `shutdown` is answered and `exit` awaited; whatever comes instead of `exit`
                // (or nothing within 30 s) ends the session too, shut down.
                if connection.handle_shutdown(&request).unwrap_or(true) {
                    break Ended::Clean;
                }
                if request.method == Initialize::METHOD {
                    let response = Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        "`initialize` after initialize".into(),
                    );
                    let _ = connection.sender.send(Message::Response(response));
                } else {
                    // A request is answered on the text as last changed.
                    server.flush();
                    dispatch::request(&mut server, request);
                }
            }
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                break Ended::WithoutShutdown;
            }
            Message::Notification(notification) => {
                if dispatch::notification(&mut server, notification) {
                    server.scan();
                }
            }
            Message::Response(_) => {}
        }
        // Changes are linted once no message waits: a burst of keystrokes is linted once, on
        // its last text.
        if connection.receiver.is_empty() {
            server.flush();
        }
    };
    // A process that ends leaves its scan behind; a session in memory waits for it, so that
    // no thread outlives it.
    if pinned.is_some() {
        server.join_scan();
    }
    server.session(ended)
}
