//! The protocol's framing over stdin and stdout (`Content-Length` headers, JSON bodies), by
//! two threads. Unlike `lsp-server`'s own, the reader survives bad input: a body that is not
//! a message is answered with a parse error (-32700) and reading goes on, and a declared length
//! over [`MAX_BODY`] is skipped without being held.

use std::io::{BufRead, Read};
use std::thread::JoinHandle;

use crossbeam_channel::{Sender, bounded, unbounded};
use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};

/// The largest body read (a buffer of `max-file-size` is far smaller).
const MAX_BODY: usize = 64 << 20;
/// The longest header line kept.
const MAX_HEADER: usize = 1024;

/// What the server sends the writer last: it stops there, every message before it written.
pub const STOP: &str = "$/skillc/stop";

/// A connection over stdin and stdout, and the writer thread (joined after [`STOP`] is sent,
/// so that every message sent is written). The reader thread ends with stdin, or the process.
pub fn stdio() -> (Connection, JoinHandle<()>) {
    let (to_writer, from_server) = bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        let mut stdout = std::io::stdout().lock();
        // Once stdout fails (the client closed it), messages are still taken and dropped:
        // the server's sends never fail (`lsp-server`'s handshake would panic on a closed
        // channel), and it ends when stdin does.
        let mut open = true;
        for message in from_server {
            if matches!(&message, Message::Notification(n) if n.method == STOP) {
                break;
            }
            open = open && message.write(&mut stdout).is_ok();
        }
    });
    let (to_server, from_reader) = unbounded::<Message>();
    let errors = to_writer.clone();
    std::thread::spawn(move || read(&mut std::io::stdin().lock(), &to_server, &errors));
    (
        Connection {
            sender: to_writer,
            receiver: from_reader,
        },
        writer,
    )
}

/// Reads messages until the input ends or the server stops listening.
pub fn read(input: &mut impl BufRead, to_server: &Sender<Message>, errors: &Sender<Message>) {
    let parse_error = |message: String| {
        let response = Response::new_err(
            RequestId::from(String::new()),
            ErrorCode::ParseError as i32,
            message,
        );
        let _ = errors.send(Message::Response(response));
    };
    loop {
        let mut length: Option<usize> = None;
        loop {
            let mut line = Vec::new();
            match input
                .by_ref()
                .take(MAX_HEADER as u64)
                .read_until(b'\n', &mut line)
            {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&line);
            let line = line.trim();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().ok();
            }
        }
        let Some(length) = length else {
            parse_error("a message without a valid Content-Length header".into());
            continue;
        };
        if length > MAX_BODY {
            // Skipped, never held: the declared length is read and dropped.
            if std::io::copy(
                &mut input.by_ref().take(length as u64),
                &mut std::io::sink(),
            )
            .is_err()
            {
                return;
            }
            parse_error(format!(
                "a message of {length} bytes (the limit is {MAX_BODY})"
            ));
            continue;
        }
        let mut body = vec![0; length];
        if input.read_exact(&mut body).is_err() {
            return;
        }
        match serde_json::from_slice::<Message>(&body) {
            Ok(message) => {
                if to_server.send(message).is_err() {
                    return;
                }
            }
            Err(e) => parse_error(format!("not a JSON-RPC message: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_answered_and_reading_goes_on() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = format!(
            "Content-Length: 4\r\n\r\n{{no}}Content-Length: 3\r\n\r\n[1]X-Other: 1\r\n\r\nContent-Length: {}\r\n\r\n{good}Content-Length: 99999999999\r\n\r\n",
            good.len()
        );
        let (to_server, from_reader) = unbounded();
        let (errors, answers) = unbounded();
        read(&mut input.as_bytes(), &to_server, &errors);
        let got: Vec<Message> = from_reader.try_iter().collect();
        assert!(
            matches!(&got[..], [Message::Notification(n)] if n.method == "initialized"),
            "{got:?}"
        );
        // `{no}`, `[1]`, no length, and a length over the limit (skipped to the input's end).
        let errors: Vec<Message> = answers.try_iter().collect();
        assert_eq!(errors.len(), 4, "{errors:?}");
    }
}
