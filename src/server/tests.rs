//! The message loop in memory ([`serve_in`]): what a session does, counted.

use std::path::Path;

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

use super::{Ended, Session, serve_in};

/// A client of a server running on a thread of its own, in memory.
struct Client {
    to_server: Sender<Message>,
    from_server: Receiver<Message>,
    session: std::thread::JoinHandle<Session>,
    next_id: i32,
}

impl Client {
    /// A server in `root`, sent `before` ahead of everything else (initialized first).
    fn start(root: &Path, before: Vec<Message>) -> Client {
        let (to_server, from_client) = unbounded();
        let (to_client, from_server) = unbounded();
        let initialize = Request::new(
            RequestId::from(0),
            "initialize".into(),
            json!({"capabilities": {}}),
        );
        to_server.send(initialize.into()).unwrap();
        to_server
            .send(notification("initialized", json!({})))
            .unwrap();
        for message in before {
            to_server.send(message).unwrap();
        }
        let root = root.to_path_buf();
        let session = std::thread::spawn(move || {
            let connection = Connection {
                sender: to_client,
                receiver: from_client,
            };
            serve_in(&connection, &root)
        });
        Client {
            to_server,
            from_server,
            session,
            next_id: 1,
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        let request = Request::new(id.clone(), method.into(), params);
        self.to_server.send(request.into()).unwrap();
        loop {
            match self.from_server.recv().unwrap() {
                Message::Response(r) if r.id == id => match r.response_result {
                    Ok(result) => return result,
                    Err(e) => panic!("{method}: {e:?}"),
                },
                _ => {}
            }
        }
    }

    /// Shuts the server down and exits: what the session did.
    fn end(mut self) -> Session {
        self.request("shutdown", Value::Null);
        self.to_server
            .send(notification("exit", Value::Null))
            .unwrap();
        let session = self.session.join().unwrap();
        assert_eq!(session.ended, Ended::Clean);
        session
    }
}

fn notification(method: &str, params: Value) -> Message {
    Notification::new(method.into(), params).into()
}

const SKILL: &str =
    "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\n\nBody.\n";

/// A workspace of `skills` skills besides `pdf` (the one opened), with `config` as skillc.toml.
fn workspace(skills: usize, config: &str) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::write(root.join("skillc.toml"), config).unwrap();
    for i in 0..skills {
        let dir = root.join(format!("skills/s{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let text = SKILL.replace("name: pdf", &format!("name: s{i}"));
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
    }
    std::fs::create_dir_all(root.join("skills/pdf")).unwrap();
    std::fs::write(root.join("skills/pdf/SKILL.md"), SKILL).unwrap();
    let uri = format!("file://{}/skills/pdf/SKILL.md", root.display());
    (tmp, root, uri)
}

fn open(uri: &str, text: &str) -> Message {
    notification(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    )
}

fn hover_at_name(client: &mut Client, uri: &str) -> Value {
    client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}),
    )
}

/// 300 saves while the first scan of the workspace runs: one more scan is due, not 300, and
/// the settings are read once for all of them and the requests after.
#[test]
fn saves_during_a_scan_start_one_more_scan_and_settings_are_read_once() {
    let (_tmp, root, uri) = workspace(200, "max-file-size = 100000\n");
    let mut before = vec![open(&uri, SKILL)];
    let save = || {
        notification(
            "textDocument/didSave",
            json!({"textDocument": {"uri": uri}}),
        )
    };
    before.extend((0..300).map(|_| save()));
    let mut client = Client::start(&root, before);
    for _ in 0..20 {
        let hover = hover_at_name(&mut client, &uri);
        assert!(
            hover["contents"]["value"]
                .as_str()
                .is_some_and(|v| v.starts_with("**`name`**")),
            "{hover}"
        );
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri},
                   "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
                   "context": {"diagnostics": []}}),
        );
        assert_eq!(actions, json!([]));
    }
    let session = client.end();
    // The first scan, and at most one more per scan that ended while saves came in (each
    // takes far longer than the loop takes to read 300 saves).
    assert!((1..=3).contains(&session.scans), "{session:?}");
    assert_eq!(session.settings_loads, 1, "{session:?}");
}

/// The settings are read again once skillc.toml changes: a cap that the open document is now
/// over is in force at the next request.
#[test]
fn settings_are_read_again_when_the_config_changes() {
    let (_tmp, root, uri) = workspace(0, "max-file-size = 100000\n");
    let mut client = Client::start(&root, vec![open(&uri, SKILL)]);
    for _ in 0..10 {
        assert!(hover_at_name(&mut client, &uri)["contents"].is_object());
    }
    std::fs::write(root.join("skillc.toml"), "max-file-size = 50\n").unwrap();
    for _ in 0..10 {
        assert_eq!(hover_at_name(&mut client, &uri), Value::Null);
    }
    // Deleted: the default cap again.
    std::fs::remove_file(root.join("skillc.toml")).unwrap();
    assert!(hover_at_name(&mut client, &uri)["contents"].is_object());
    let session = client.end();
    assert_eq!(session.settings_loads, 3, "{session:?}");
}

/// A whole session sent at once (the client then hangs up): how it ended and what the server
/// sent.
fn session(root: &Path, messages: Vec<Message>) -> (Session, Vec<Message>) {
    let (to_server, from_client) = unbounded();
    let (to_client, from_server) = unbounded();
    for message in messages {
        to_server.send(message).unwrap();
    }
    drop(to_server);
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    let session = serve_in(&connection, root);
    drop(connection);
    (session, from_server.try_iter().collect())
}

fn request(id: i32, method: &str, params: Value) -> Message {
    Request::new(RequestId::from(id), method.into(), params).into()
}

/// The error code of the answer to request `id`, or `None` for a result; panics when it was
/// not answered.
fn error_of(sent: &[Message], id: i32) -> Option<i32> {
    sent.iter()
        .find_map(|m| match m {
            Message::Response(r) if r.id == RequestId::from(id) => {
                Some(r.response_result.as_ref().err().map(|e| e.code))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no answer to {id}: {sent:?}"))
}

fn answered(sent: &[Message], id: i32) -> bool {
    sent.iter()
        .any(|m| matches!(m, Message::Response(r) if r.id == RequestId::from(id)))
}

/// `lsp-server`'s handshake: a request before `initialize` is refused (-32002); after it, only
/// `initialized` goes on, anything else ends the session as an exit without shutdown.
#[test]
fn the_handshake_is_lsp_servers() {
    let (_tmp, root, uri) = workspace(0, "");
    let hover = json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}});
    let (ended, sent) = session(
        &root,
        vec![
            request(1, "textDocument/hover", hover.clone()),
            request(2, "initialize", json!({"capabilities": {}})),
            notification("exit", Value::Null),
        ],
    );
    assert_eq!(ended.ended, Ended::WithoutShutdown);
    assert_eq!(error_of(&sent, 1), Some(-32002));
    assert_eq!(error_of(&sent, 2), None);
    // A request instead of `initialized`: the session ends, the request unanswered.
    let (ended, sent) = session(
        &root,
        vec![
            request(1, "initialize", json!({"capabilities": {}})),
            request(2, "textDocument/hover", hover),
        ],
    );
    assert_eq!(ended.ended, Ended::WithoutShutdown);
    assert!(!answered(&sent, 2), "{sent:?}");
    // A response before `initialize` is ignored; a refusal does not echo the request.
    let big = json!({"textDocument": {"uri": "x".repeat(100_000)}});
    let (ended, sent) = session(
        &root,
        vec![
            Message::Response(lsp_server::Response::new_ok(
                RequestId::from(99),
                Value::Null,
            )),
            request(1, "textDocument/hover", big),
            request(2, "initialize", json!({"capabilities": {}})),
            notification("initialized", json!({})),
            request(3, "shutdown", Value::Null),
            notification("exit", Value::Null),
        ],
    );
    assert_eq!(ended.ended, Ended::Clean);
    assert_eq!(error_of(&sent, 1), Some(-32002));
    assert!(answered(&sent, 2) && answered(&sent, 3), "{sent:?}");
    let refusal = serde_json::to_string(&sent[0]).unwrap();
    assert!(refusal.len() < 200, "{refusal}");
    // The client goes away before `initialize`: a clean end.
    let (ended, sent) = session(&root, Vec::new());
    assert_eq!((ended.ended, sent.len()), (Ended::Clean, 0));
}

/// Typed dispatch: params that do not read are -32602 for a request and ignored for a
/// notification; a method the server does not support is -32601; a second `initialize` is
/// -32600; after `shutdown`, `exit` ends the session cleanly.
#[test]
fn requests_are_dispatched_by_type() {
    let (_tmp, root, uri) = workspace(0, "");
    let (ended, sent) = session(
        &root,
        vec![
            request(1, "initialize", json!({"capabilities": {}})),
            notification("initialized", json!({})),
            notification("textDocument/didOpen", json!({"textDocument": 3})),
            open(&uri, SKILL),
            request(2, "textDocument/hover", json!({"position": 1})),
            request(3, "textDocument/definition", json!({})),
            request(4, "initialize", json!({"capabilities": {}})),
            request(
                5,
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}),
            ),
            request(6, "shutdown", Value::Null),
            notification("exit", Value::Null),
        ],
    );
    assert_eq!(ended.ended, Ended::Clean);
    assert_eq!(error_of(&sent, 2), Some(-32602));
    assert_eq!(error_of(&sent, 3), Some(-32601));
    assert_eq!(error_of(&sent, 4), Some(-32600));
    assert_eq!(error_of(&sent, 5), None);
    assert_eq!(error_of(&sent, 6), None);
    let published = sent.iter().filter(
        |m| matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics"),
    );
    assert_eq!(published.count(), 1, "{sent:?}");
}
