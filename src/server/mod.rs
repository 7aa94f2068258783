//! `skillc server`: the Language Server Protocol over stdio, on rust-analyzer's synchronous
//! `lsp-server`. Open skill files are linted from the editor's text (unsaved changes included)
//! in the context of their directory and the workspace's skillc.toml, as `validate` lints them
//! from disk; every fix is a quick fix, and `source.fixAll.skillc` applies the safe ones.
//!
//! The session ([`main_loop`]) is `lsp-server`'s handshake ([`initialize`]) and shutdown around
//! a loop that hands each request and notification, typed ([`dispatch`]), to its handler (one
//! file each under [`handlers`]). Positions are those of the CLI's line index, in the client's
//! encoding ([`position`]).

mod diagnostics;
mod dispatch;
mod frontmatter;
mod handlers;
mod initialize;
mod main_loop;
mod position;
mod publish;
mod scan;
mod settings;
mod state;
mod transport;
mod uri;

use std::path::Path;

use lsp_server::{Connection, Message, Notification};

/// The most workers a workspace scan (or any parallel work) starts: with the threads of the
/// loop, the transport and the scan, the server stays well under 32 threads on any machine.
const MAX_WORKERS: usize = 8;

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The client shut down and exited (or, shut down, sent something else or nothing for 30
    /// s), or went away.
    Clean,
    /// The client exited without shutting down, or broke the handshake (the protocol's exit
    /// code 1).
    WithoutShutdown,
}

/// What a session did: how it ended, how many workspace scans it started and how many times
/// it loaded the settings (read skillc.toml and compiled its globs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Session {
    pub ended: Ended,
    pub scans: u64,
    pub settings_loads: u64,
}

impl Session {
    fn ended(ended: Ended) -> Session {
        Session {
            ended,
            scans: 0,
            settings_loads: 0,
        }
    }
}

/// Serves one client on stdin and stdout until it exits or goes away.
pub fn run() -> Ended {
    crate::parallel::limit(MAX_WORKERS);
    let (connection, writer) = transport::stdio();
    let ended = main_loop::serve(&connection, None).ended;
    // Every message sent is written before the process ends; the reader thread, blocked on
    // stdin, ends with the process.
    let stop = Notification::new(transport::STOP.into(), serde_json::Value::Null);
    let _ = connection.sender.send(Message::Notification(stop));
    let _ = writer.join();
    ended
}

/// Reads framed messages (as on stdin) from `input` into `messages` until it ends; what is not
/// a message is answered on `errors` (the fuzz target reads its input so).
pub fn read_framed(
    input: &mut impl std::io::BufRead,
    messages: &crossbeam_channel::Sender<Message>,
    errors: &crossbeam_channel::Sender<Message>,
) {
    transport::read(input, messages, errors);
}

/// Serves one client over `connection` (an in-memory one: the fuzz target, tests) in the
/// workspace `root`, whatever root the client names, leaving the process's current directory
/// alone. Returns once the client exits or the connection closes and the workspace scan under
/// way, if any, has ended. The receiving end of `connection.sender` must stay open while it
/// serves (`lsp-server`'s handshake fails loudly on a closed one).
pub fn serve_in(connection: &Connection, root: &Path) -> Session {
    main_loop::serve(connection, Some(root))
}

#[cfg(test)]
mod tests;
