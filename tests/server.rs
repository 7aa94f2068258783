//! `skillc server` end to end: a client process speaking the Language Server Protocol to the
//! real binary over stdio (JSON-RPC with `Content-Length` headers).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

mod common;

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pending: Vec<Value>,
}

impl Client {
    /// Starts the server in `root` and initializes it, offering `encodings`.
    fn start(root: &Path, encodings: Option<&[&str]>) -> (Client, Value) {
        let capabilities = match encodings {
            Some(encodings) => json!({"general": {"positionEncodings": encodings}}),
            None => json!({}),
        };
        Client::start_with(root, capabilities)
    }

    /// Starts the server in `root` and initializes it with the client `capabilities`.
    fn start_with(root: &Path, capabilities: Value) -> (Client, Value) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skillc"))
            .arg("server")
            .current_dir(root)
            .env("HOME", root.join("home"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 1,
            pending: Vec::new(),
        };
        let root_uri = format!("file://{}", root.display());
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": capabilities}),
        );
        client.notify("initialized", json!({}));
        (client, result)
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{message}");
                return message["result"].clone();
            }
            self.pending.push(message);
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let found = self.pending.iter().position(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
            });
            if let Some(i) = found {
                let message = self.pending.remove(i);
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
            let message = self.receive();
            self.pending.push(message);
        }
    }
}

/// A skill `pdf` whose description holds `: ` after an emoji (SK006, a safe fix).
const EMOJI: &str =
    "---\nname: pdf\ndescription: 😀 Use when: forms.\n---\n\n# PDF\n\nFill forms.\n";

fn workspace() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    common::write(&tmp.path().join("pdf/SKILL.md"), EMOJI);
    let uri = format!("file://{}/pdf/SKILL.md", tmp.path().display());
    (tmp, uri)
}

fn open(client: &mut Client, uri: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}),
    );
}

#[test]
fn diagnostics_land_on_the_right_character_in_utf16_and_utf8() {
    let (tmp, uri) = workspace();
    // The parser stops at the `:` after `when`: 13 characters of `description: `, the emoji
    // (2 UTF-16 units, 4 bytes), then ` Use when`.
    for (offered, encoding, character) in [
        (None, "utf-16", 24),
        (Some(&["utf-8", "utf-16"][..]), "utf-8", 26),
    ] {
        let (mut client, init) = Client::start(tmp.path(), offered);
        assert_eq!(init["capabilities"]["positionEncoding"], encoding);
        assert_eq!(init["serverInfo"]["name"], "skillc");
        open(&mut client, &uri, EMOJI);
        let diagnostics = client.diagnostics(&uri);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let d = &diagnostics[0];
        assert_eq!(d["code"], "SK006");
        assert_eq!(d["source"], "skillc");
        assert_eq!(d["severity"], 1);
        assert_eq!(
            d["range"],
            json!({"start": {"line": 2, "character": character}, "end": {"line": 2, "character": character}}),
            "{encoding}"
        );
        assert!(
            d["message"]
                .as_str()
                .unwrap()
                .starts_with("invalid YAML: mapping values are not allowed in this context\nhelp: quote the value"),
            "{d}"
        );
        assert_eq!(
            d["codeDescription"]["href"],
            "https://github.com/skillc/skillc/blob/main/src/rules/docs/SK006.md"
        );
        client.request("shutdown", Value::Null);
        client.notify("exit", Value::Null);
        assert_eq!(client.child.wait().unwrap().code(), Some(0));
    }
}

/// A lone `\r` is a character of its line, not a line break, for the server as for the CLI:
/// a diagnostic after one is where `validate` puts it (its line and column, in UTF-16 units).
#[test]
fn a_lone_cr_is_no_line_break_for_the_server_either() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "---\nname: pdf\ndescription: Fills PDF forms. Use when asked to fill a form.\n---\n\n# PDF\r😀 See [gone](references/missing.md).\n";
    common::write(&tmp.path().join("pdf/SKILL.md"), text);
    let uri = format!("file://{}/pdf/SKILL.md", tmp.path().display());
    let run = common::skillc(tmp.path(), &["validate", "--format", "json", "pdf"]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let cli = &report["diagnostics"][0];
    assert_eq!(cli["code"], "SK404", "{report}");
    // The CLI's 1-based line and column (in characters) as the protocol's 0-based UTF-16
    // position.
    let utf16 = |line: &Value, column: &Value| {
        let line = line.as_u64().unwrap() as usize;
        let column = column.as_u64().unwrap() as usize;
        let text = text.split('\n').nth(line - 1).unwrap();
        let units: usize = text.chars().take(column - 1).map(char::len_utf16).sum();
        json!({"line": line - 1, "character": units})
    };
    let range = json!({
        "start": utf16(&cli["line"], &cli["column"]),
        "end": utf16(&cli["end_line"], &cli["end_column"]),
    });
    // After `# PDF\r😀 See [gone](`, on line 6 (5 counted from 0).
    assert_eq!(range["start"], json!({"line": 5, "character": 20}));
    let (mut client, _) = Client::start(tmp.path(), None);
    open(&mut client, &uri, text);
    let diagnostics = client.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "SK404");
    assert_eq!(diagnostics[0]["range"], range);
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

#[test]
fn edits_relint_and_quick_fixes_fix() {
    let (tmp, uri) = workspace();
    let (mut client, _) = Client::start(tmp.path(), None);
    open(&mut client, &uri, EMOJI);
    assert_eq!(client.diagnostics(&uri).len(), 1);

    // The unsaved buffer is linted, not the file on disk.
    let changed = EMOJI.replace("name: pdf", "name: other");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": changed}]}),
    );
    let codes: Vec<Value> = client
        .diagnostics(&uri)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(
        codes,
        vec![json!("SK006")],
        "the name is checked once the YAML parses"
    );

    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
            "context": {"diagnostics": []}
        }),
    );
    let actions = actions.as_array().unwrap();
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    // A syntax error is never suppressed: no "Ignore SK006" action.
    assert_eq!(
        titles,
        ["SK006: quote the value", "Fix all safe problems (skillc)"]
    );
    let quick = &actions[0];
    assert_eq!(quick["kind"], "quickfix");
    assert_eq!(quick["isPreferred"], true);
    assert_eq!(
        quick["edit"]["changes"][&uri],
        json!([{
            "range": {"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 32}},
            "newText": "'😀 Use when: forms.'"
        }])
    );
    let fixed = changed.replace("😀 Use when: forms.", "'😀 Use when: forms.'");
    assert_eq!(actions[1]["kind"], "source.fixAll.skillc");
    assert_eq!(actions[1]["edit"]["changes"][&uri][0]["newText"], fixed);

    // Once fixed, the name rule speaks: an unsafe fix, labelled so.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": fixed}]}),
    );
    let diagnostics = client.diagnostics(&uri);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["SK103"]);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 6}},
            "context": {"diagnostics": [], "only": ["quickfix"]}
        }),
    );
    assert_eq!(actions[0]["title"], "SK103: set `name: pdf` (unsafe)");
    assert_eq!(actions[0]["isPreferred"], false);
    assert_eq!(actions[1]["title"], "Ignore SK103 on this line");
    assert_eq!(actions.as_array().unwrap().len(), 2);

    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

#[test]
fn a_client_that_goes_away_ends_the_server() {
    let (tmp, uri) = workspace();
    let (mut client, _) = Client::start(tmp.path(), None);
    // Hostile buffers get diagnostics, never a crash.
    for text in [
        "\u{0}\u{ff}---\n\t: [\n",
        "---\n",
        "",
        "\u{feff}\u{feff}---\r\nname: &a *a\r\n---\r",
        &format!(
            "---\nname: pdf\ndescription: {}\n---\n{}",
            "x".repeat(100_000),
            "[a](b)".repeat(5_000)
        ),
    ] {
        open(&mut client, &uri, text);
        client.diagnostics(&uri);
    }
    drop(client.stdin.take());
    let status = client.child.wait().unwrap();
    assert!(
        status.code().is_some(),
        "the server ended by itself: {status:?}"
    );
}

#[test]
fn a_rule_can_be_ignored_on_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "---\nname: other\ndescription: Use when testing.\n---\n\n# PDF\n\nRead [the guide](references/guide.md).\n";
    common::write(&tmp.path().join("pdf/SKILL.md"), text);
    let uri = format!("file://{}/pdf/SKILL.md", tmp.path().display());
    let (mut client, _) = Client::start(tmp.path(), None);
    open(&mut client, &uri, text);
    let codes: Vec<Value> = client
        .diagnostics(&uri)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, [json!("SK103"), json!("SK404")]);
    let action = |client: &mut Client, line: u32, title: &str| {
        let actions = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                "context": {"diagnostics": []}
            }),
        );
        actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["title"] == title)
            .unwrap_or_else(|| panic!("no `{title}` in {actions}"))["edit"]["changes"][&uri]
            .clone()
    };
    // In the frontmatter, a YAML comment above the line; in the body, an HTML comment.
    assert_eq!(
        action(&mut client, 1, "Ignore SK103 on this line"),
        json!([{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
                "newText": "# skillc: ignore[SK103]\n"}])
    );
    assert_eq!(
        action(&mut client, 7, "Ignore SK404 on this line"),
        json!([{"range": {"start": {"line": 7, "character": 38}, "end": {"line": 7, "character": 38}},
                "newText": " <!-- skillc: ignore[SK404] -->"}])
    );
    // Never inside a block of text, where a comment would be text.
    let block =
        "---\nname: pdf\ndescription: |\n  Use when testing.\n  Has <tag> here.\n---\n\nBody.\n";
    let block_uri = format!("file://{}/pdf/SKILL.md", tmp.path().display());
    open(&mut client, &block_uri, block);
    let codes: Vec<Value> = client
        .diagnostics(&block_uri)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, [json!("SK112")]);
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": block_uri},
            "range": {"start": {"line": 2, "character": 0}, "end": {"line": 4, "character": 0}},
            "context": {"diagnostics": []}
        }),
    );
    assert_eq!(actions, json!([]), "no action inside the block");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

#[test]
fn a_file_created_beside_the_skill_is_seen() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "---\nname: pdf\ndescription: Use when testing.\n---\n\nRead [the guide](references/guide.md).\n";
    common::write(&tmp.path().join("pdf/SKILL.md"), text);
    let uri = format!("file://{}/pdf/SKILL.md", tmp.path().display());
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let (mut client, _) = Client::start_with(tmp.path(), capabilities);
    open(&mut client, &uri, text);
    let codes: Vec<Value> = client
        .diagnostics(&uri)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, [json!("SK404")]);
    // The server asked to hear of every file's changes.
    let registration = client
        .pending
        .iter()
        .find(|m| m["method"] == "client/registerCapability")
        .cloned()
        .expect("a registration request");
    assert_eq!(
        registration["params"]["registrations"][0]["method"],
        "workspace/didChangeWatchedFiles"
    );
    common::write(&tmp.path().join("pdf/references/guide.md"), "# Guide\n");
    let created = format!("file://{}/pdf/references/guide.md", tmp.path().display());
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": created, "type": 1}]}),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

#[test]
fn bad_messages_are_answered_and_the_protocol_ends_as_it_says() {
    let (tmp, uri) = workspace();
    let (mut client, _) = Client::start(tmp.path(), None);
    // A body that is not JSON, and one that is not a message: parse errors, and serving goes on.
    for body in ["{not json", "[1]"] {
        let stdin = client.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
        let error = client.receive();
        assert_eq!(error["error"]["code"], -32700, "{error}");
    }
    open(&mut client, &uri, EMOJI);
    assert_eq!(client.diagnostics(&uri).len(), 1);
    client.request("shutdown", Value::Null);
    // After shutdown only `exit` is awaited (`lsp-server`'s `handle_shutdown`): a request ends
    // the session, unanswered, as shut down (exit code 0).
    client.send(
        &json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/codeAction", "params": {}}),
    );
    let mut rest = Vec::new();
    client.stdout.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    assert_eq!(client.child.wait().unwrap().code(), Some(0));

    // `shutdown` then `exit`: exit code 0.
    let (mut client, _) = Client::start(tmp.path(), None);
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));

    // `exit` without `shutdown`: exit code 1.
    let (mut client, _) = Client::start(tmp.path(), None);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(1));
}

/// Every skill file the fixtures and fuzz seeds hold (the hostile inputs `validate` survives),
/// sent as the text of one open buffer: each is linted and published, hover, completion and
/// code actions are answered at a few places of it, and the server still ends cleanly.
#[test]
fn every_fixture_as_a_buffer_is_served() {
    let (tmp, uri) = workspace();
    let mut texts = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["fixtures", "fuzz/seeds/skill_file"] {
        for entry in walkdir(&root.join(dir)) {
            let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if (dir.starts_with("fuzz") || name.eq_ignore_ascii_case("skill.md"))
                && let Ok(bytes) = std::fs::read(&entry)
            {
                texts.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    assert!(texts.len() > 250, "{}", texts.len());
    let (mut client, _) = Client::start(tmp.path(), Some(&["utf-16"]));
    open(&mut client, &uri, EMOJI);
    client.diagnostics(&uri);
    for (i, text) in texts.iter().enumerate() {
        let version = i as i64 + 2;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
        // Each version is published (a new version always is).
        client.diagnostics(&uri);
        for (line, character) in [(0, 0), (1, 3), (2, 40), (5, 1), (1000, 1000)] {
            let position = json!({"line": line, "character": character});
            let document = json!({"uri": uri});
            client.request(
                "textDocument/hover",
                json!({"textDocument": document, "position": position}),
            );
            client.request(
                "textDocument/completion",
                json!({"textDocument": document, "position": position}),
            );
            client.request(
                "textDocument/codeAction",
                json!({"textDocument": document, "range": {"start": position, "end": position},
                       "context": {"diagnostics": []}}),
            );
        }
    }
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

/// A document over `max-file-size` is treated as `validate` treats such a file: one SK011
/// diagnostic, and nothing parsed, so hover, completion and code actions have nothing to say
/// (its frontmatter, an alias bomb, would otherwise be parsed by hover).
#[test]
fn an_oversized_document_is_not_parsed() {
    let (tmp, uri) = workspace();
    common::write(&tmp.path().join("skillc.toml"), "max-file-size = 2000\n");
    let mut bomb = String::from(
        "---\nname: pdf\ndescription: Use when testing.\nx0: &a0 [x, x, x, x, x, x, x, x]\n",
    );
    for i in 1..12 {
        let p = i - 1;
        bomb += &format!("x{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n");
    }
    bomb += "---\n\n";
    bomb += &"Body text.\n".repeat(150);
    assert!(bomb.len() > 2000, "{}", bomb.len());
    let (mut client, _) = Client::start(tmp.path(), Some(&["utf-16"]));
    open(&mut client, &uri, &bomb);
    let diagnostics = client.diagnostics(&uri);
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["SK011"]);
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!(
                "the skill file is {} bytes; `max-file-size` is 2,000 bytes",
                skillc::diagnostic::thousands(bomb.len())
            )),
        "{}",
        diagnostics[0]
    );
    let document = json!({"uri": uri});
    for (line, character) in [(1, 2), (4, 3), (15, 0), (20, 5)] {
        let position = json!({"line": line, "character": character});
        let hover = client.request(
            "textDocument/hover",
            json!({"textDocument": document, "position": position}),
        );
        assert_eq!(hover, Value::Null, "{line}:{character}");
        let completion = client.request(
            "textDocument/completion",
            json!({"textDocument": document, "position": position}),
        );
        assert!(
            completion.is_null() || completion == json!([]),
            "{completion}"
        );
        let actions = client.request(
            "textDocument/codeAction",
            json!({"textDocument": document, "range": {"start": position, "end": position},
                   "context": {"diagnostics": []}}),
        );
        assert_eq!(actions, json!([]), "{line}:{character}");
    }
    // Within the cap again, it is parsed: the hover on `name` speaks.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": EMOJI.replace("😀 Use when: forms.", "Use when testing.")}]}),
    );
    assert_eq!(client.diagnostics(&uri), Vec::<Value>::new());
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": document, "position": {"line": 1, "character": 2}}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("**`name`**"),
        "{hover}"
    );
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

/// 300 saves in a burst on a workspace of 300 skills: scans run one at a time (one more is due
/// when files changed meanwhile), so the server's threads stay few, and a hover is answered.
#[cfg(target_os = "linux")]
#[test]
fn a_burst_of_saves_keeps_the_threads_bounded() {
    let (tmp, uri) = workspace();
    for i in 0..300 {
        common::write(
            &tmp.path().join(format!("skills/s{i}/SKILL.md")),
            format!("---\nname: s{i}\ndescription: Use when testing {i}.\n---\n\nBody.\n"),
        );
    }
    let (mut client, _) = Client::start(tmp.path(), None);
    let text = EMOJI.replace("😀 Use when: forms.", "Use when testing.");
    open(&mut client, &uri, &text);
    client.diagnostics(&uri);
    let tasks = format!("/proc/{}/task", client.child.id());
    let threads = || std::fs::read_dir(&tasks).unwrap().count();
    let mut most = threads();
    for i in 0..300 {
        client.notify(
            "textDocument/didSave",
            json!({"textDocument": {"uri": uri}}),
        );
        if i % 10 == 0 {
            most = most.max(threads());
        }
    }
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}),
    );
    most = most.max(threads());
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("**`name`**"),
        "{hover}"
    );
    assert!(most < 32, "{most} threads");
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().unwrap().code(), Some(0));
}

/// The files below `dir`, in sorted order (symbolic links not followed).
fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}
