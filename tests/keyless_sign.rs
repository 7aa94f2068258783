//! `skillc sign --keyless` and `pack --keyless` up to the network (package.md, "`skillc sign
//! --keyless`"): where the identity token comes from and in which order, what is wrong with a
//! malformed one, GitHub Actions' ambient token fetched from a local server, and a failure at
//! the (unreachable) certificate authority that leaves nothing behind. The services' URLs are
//! pointed at a closed local port (SKILLC_SIGSTORE_URLS_FOR_TESTS), so no test reaches Sigstore.
//! A build without the `keyless-sign` feature: tests/keyless_sign_disabled.rs.

#![cfg(feature = "keyless-sign")]

mod common;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{Run, skill, write};

const NO_TOKEN: &str = "error: no identity token: pass --identity-token, set SIGSTORE_ID_TOKEN, or run in GitHub Actions with `permissions: id-token: write`\n";

/// A JWT with these claims (the header and signature are not read by skillc; Fulcio checks
/// them).
fn jwt(claims: &str) -> String {
    format!(
        "{}.{}.c2lnbmF0dXJl",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"RS256","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(claims)
    )
}

/// An e-mail token valid until 2100.
fn email_token(email: &str) -> String {
    jwt(&format!(
        r#"{{"iss":"https://oauth2.sigstore.dev/auth","sub":"1234","aud":"sigstore","exp":4102444800,"email":"{email}","email_verified":true}}"#
    ))
}

/// A GitHub Actions token valid until 2100.
fn github_token() -> String {
    jwt(
        r#"{"iss":"https://token.actions.githubusercontent.com","sub":"repo:o/r:ref:refs/heads/main","aud":"sigstore","exp":4102444800,"job_workflow_ref":"o/r/.github/workflows/keyless.yml@refs/heads/main"}"#,
    )
}

/// A local port nothing listens on.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Runs `skillc ARGS` in `dir` with no identity token anywhere in the environment (unless
/// `env` gives one), stdin not a terminal, and every Sigstore service at `port` (closed).
fn skillc(dir: &Path, port: u16, args: &[&str], env: &[(&str, &str)]) -> Run {
    let urls = format!(
        "fulcio=http://127.0.0.1:{port},rekor=http://127.0.0.1:{port},tsa=http://127.0.0.1:{port}/api/v1/timestamp,oidc=http://127.0.0.1:{port}/auth"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SIGSTORE_ID_TOKEN")
        .env_remove("ACTIONS_ID_TOKEN_REQUEST_URL")
        .env_remove("ACTIONS_ID_TOKEN_REQUEST_TOKEN")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("SKILLC_KEY_PASSWORD")
        .env("SKILLC_SIGSTORE_URLS_FOR_TESTS", urls)
        .envs(env.iter().copied())
        .args(args)
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        max_rss_kib: 0,
    }
}

/// The files in `dir`, sorted (to show that nothing was written).
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The message of a failure at the certificate authority on the closed `port`.
fn fulcio_unreachable(port: u16) -> String {
    format!(
        "error: requesting a certificate from http://127.0.0.1:{port}: HTTP error: error sending request for url (http://127.0.0.1:{port}/api/v2/signingCert)\n"
    )
}

/// A one-request HTTP server standing in for GitHub Actions' token endpoint: it answers with
/// `status` and `body`, and hands back the request line and headers it got.
fn token_server(status: &str, body: String) -> (u16, std::thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let status = status.to_string();
    listener.set_nonblocking(true).unwrap();
    let handle = std::thread::spawn(move || {
        // Waits 30 s at most: a client that never comes fails the test instead of hanging it.
        let started = std::time::Instant::now();
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(_) if started.elapsed().as_secs() < 30 => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("no request came: {e}"),
            }
        };
        stream.set_nonblocking(false).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut request = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                break;
            }
            request.push_str(&line);
        }
        let mut stream = stream;
        write!(
            stream,
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        stream.flush().unwrap();
        // Drain whatever else the client sends until it closes.
        let _ = reader.read_to_end(&mut Vec::new());
        request
    });
    (port, handle)
}

#[test]
fn without_a_token_it_says_where_one_comes_from() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let run = skillc(
        temp.path(),
        closed_port(),
        &["sign", "a.txt", "--keyless"],
        &[],
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(2), NO_TOKEN));
    assert_eq!(listing(temp.path()), ["a.txt"]);
    // In GitHub Actions without `id-token: write` (no request URL), the same.
    let run = skillc(
        temp.path(),
        closed_port(),
        &["sign", "a.txt", "--keyless"],
        &[("GITHUB_ACTIONS", "true"), ("SIGSTORE_ID_TOKEN", " ")],
    );
    assert_eq!((run.code, run.stderr.as_str()), (Some(2), NO_TOKEN));
}

#[test]
fn a_malformed_token_is_named_before_any_request() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let header = URL_SAFE_NO_PAD.encode("{}");
    let cases = [
        (
            "not-a-jwt".to_string(),
            "the identity token is not a JWT: it has 1 part(s) separated by `.`, not 3 (header.payload.signature)",
        ),
        (
            "a.b.c.d".to_string(),
            "the identity token is not a JWT: it has 4 part(s) separated by `.`, not 3 (header.payload.signature)",
        ),
        (
            format!("{header}.e30=.c2ln"),
            "the identity token's payload (its second part) is not base64url: Invalid padding",
        ),
        (
            format!("{header}.!!!.c2ln"),
            "the identity token's payload (its second part) is not base64url: Invalid symbol 33, offset 0.",
        ),
        (
            format!("{header}.{}.c2ln", URL_SAFE_NO_PAD.encode("not json")),
            "the identity token's payload is not JSON: expected ident at line 1 column 2",
        ),
        (
            jwt(r#""a string""#),
            "the identity token's payload is not a JSON object of claims",
        ),
        (
            jwt(r#"{"sub":"x","exp":4102444800,"email":"a@example.com"}"#),
            "the identity token has no `iss` (issuer) claim",
        ),
        (
            jwt(r#"{"iss":"https://accounts.example","sub":"x","exp":4102444800}"#),
            "the identity token names no identity: it has no `email` claim, nor the `job_workflow_ref` claim of a GitHub Actions token",
        ),
        (
            jwt(r#"{"iss":"https://accounts.example","sub":"x","email":"a@example.com"}"#),
            "the identity token has no `exp` (expiry) claim",
        ),
        (
            jwt(
                r#"{"iss":"https://accounts.example","sub":"x","exp":1000000000,"email":"a@example.com"}"#,
            ),
            "the identity token expired at 2001-09-09T01:46:40Z",
        ),
    ];
    for (token, message) in &cases {
        // The services are unreachable: a request would fail with exit 1, not 2.
        let run = skillc(
            temp.path(),
            closed_port(),
            &["sign", "a.txt", "--keyless", "--identity-token", token],
            &[],
        );
        assert_eq!(run.code, Some(2), "{token}: {}", run.stderr);
        let expected = format!("error: --identity-token: {message}");
        assert!(
            run.stderr.starts_with(&expected) && run.stderr.lines().count() == 1,
            "{token}:\n{}\nexpected: {expected}",
            run.stderr
        );
        let run = skillc(
            temp.path(),
            closed_port(),
            &["sign", "a.txt", "--keyless"],
            &[("SIGSTORE_ID_TOKEN", token)],
        );
        assert_eq!(run.code, Some(2), "{token}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with(&format!("error: SIGSTORE_ID_TOKEN: {message}")),
            "{token}: {}",
            run.stderr
        );
    }
    assert_eq!(listing(temp.path()), ["a.txt"]);
}

#[test]
fn the_flag_comes_before_the_environment_which_comes_before_github_actions() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let port = closed_port();
    // The flag is read, the environment is not: a malformed flag is the error ...
    let run = skillc(
        temp.path(),
        port,
        &["sign", "a.txt", "--keyless", "--identity-token", "x.y"],
        &[("SIGSTORE_ID_TOKEN", &email_token("env@example.com"))],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: --identity-token: the identity token is not a JWT: it has 2 part(s) separated by `.`, not 3 (header.payload.signature)\n"
        )
    );
    // ... and a good flag goes on to the certificate authority, whatever the environment holds.
    let run = skillc(
        temp.path(),
        port,
        &[
            "sign",
            "a.txt",
            "--keyless",
            "--identity-token",
            &email_token("flag@example.com"),
        ],
        &[("SIGSTORE_ID_TOKEN", "x.y")],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), fulcio_unreachable(port).as_str())
    );
    // SIGSTORE_ID_TOKEN is read before GitHub Actions is asked: the server gets no request.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let server = format!(
        "http://127.0.0.1:{}/token",
        listener.local_addr().unwrap().port()
    );
    let run = skillc(
        temp.path(),
        port,
        &["sign", "a.txt", "--keyless"],
        &[
            ("SIGSTORE_ID_TOKEN", "x.y"),
            ("GITHUB_ACTIONS", "true"),
            ("ACTIONS_ID_TOKEN_REQUEST_URL", &server),
            ("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "request-token"),
        ],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: SIGSTORE_ID_TOKEN: the identity token is not a JWT: it has 2 part(s) separated by `.`, not 3 (header.payload.signature)\n"
        )
    );
    assert!(listener.accept().is_err(), "GitHub Actions was asked");
    assert_eq!(listing(temp.path()), ["a.txt"]);
}

#[test]
fn github_actions_ambient_token_is_fetched_for_sigstore_then_fulcio_is_unreachable() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let (server, request) = token_server("200 OK", format!(r#"{{"value":"{}"}}"#, github_token()));
    let port = closed_port();
    let url = format!("http://127.0.0.1:{server}/_apis/token?api-version=2.0");
    let run = skillc(
        temp.path(),
        port,
        &["sign", "a.txt", "--keyless"],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("ACTIONS_ID_TOKEN_REQUEST_URL", &url),
            ("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "request-token"),
        ],
    );
    let request = request.join().unwrap();
    let first = request.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "GET /_apis/token?api-version=2.0&audience=sigstore HTTP/1.1"
    );
    assert!(
        request
            .lines()
            .any(|l| l.eq_ignore_ascii_case("authorization: bearer request-token")),
        "{request}"
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), fulcio_unreachable(port).as_str())
    );
    assert_eq!(run.stdout, "");
    assert_eq!(listing(temp.path()), ["a.txt"]);
}

#[test]
fn github_actions_refusing_a_token_is_a_failure_with_its_answer() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let (server, request) = token_server(
        "403 Forbidden",
        r#"{"message":"no id-token permission"}"#.to_string(),
    );
    let url = format!("http://127.0.0.1:{server}/token");
    let run = skillc(
        temp.path(),
        closed_port(),
        &["sign", "a.txt", "--keyless"],
        &[
            ("ACTIONS_ID_TOKEN_REQUEST_URL", &url),
            ("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "request-token"),
        ],
    );
    request.join().unwrap();
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(1),
            "error: requesting an identity token from GitHub Actions (ACTIONS_ID_TOKEN_REQUEST_URL): HTTP 403 Forbidden: {\"message\":\"no id-token permission\"}\n"
        )
    );
    // A token endpoint that is not there at all.
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}/token");
    let run = skillc(
        temp.path(),
        closed_port(),
        &["sign", "a.txt", "--keyless"],
        &[
            ("ACTIONS_ID_TOKEN_REQUEST_URL", &url),
            ("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "request-token"),
        ],
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with(&format!(
            "error: requesting an identity token from GitHub Actions (ACTIONS_ID_TOKEN_REQUEST_URL): error sending request for url (http://127.0.0.1:{port}/token?audience=sigstore)"
        )),
        "{}",
        run.stderr
    );
    assert_eq!(listing(temp.path()), ["a.txt"]);
}

#[test]
fn key_and_keyless_exclude_each_other_and_one_is_required() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    let port = closed_port();
    let run = skillc(
        temp.path(),
        port,
        &["sign", "a.txt", "--keyless", "--key", "k.key"],
        &[],
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: the argument '--keyless' cannot be used with '--key <KEY>'"),
        "{}",
        run.stderr
    );
    let run = skillc(temp.path(), port, &["sign", "a.txt"], &[]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.starts_with(
            "error: the following required arguments were not provided:\n  <--key <KEY>|--keyless>"
        ),
        "{}",
        run.stderr
    );
    let run = skillc(
        temp.path(),
        port,
        &["sign", "a.txt", "--key", "k.key", "--staging"],
        &[],
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: the argument '--key <KEY>' cannot be used with '--staging'"),
        "{}",
        run.stderr
    );
    let dir = skill(temp.path(), "demo");
    let run = skillc(
        temp.path(),
        port,
        &["pack", dir.to_str().unwrap(), "--keyless", "--key", "k.key"],
        &[],
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: the argument '--keyless' cannot be used with '--key <KEY>'"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_existing_bundle_is_not_replaced_without_force() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("a.txt"), "artifact\n");
    write(&temp.path().join("a.txt.sigstore.json"), "old\n");
    let port = closed_port();
    let token = email_token("me@example.com");
    let run = skillc(
        temp.path(),
        port,
        &["sign", "a.txt", "--keyless", "--identity-token", &token],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: `a.txt.sigstore.json` already exists; pass --force to replace it\n"
        )
    );
    // A directory's bundle too.
    let dir = skill(temp.path(), "demo");
    write(&dir.join("SKILL.sigstore"), "old\n");
    let run = skillc(
        temp.path(),
        port,
        &["sign", "demo", "--keyless", "--identity-token", &token],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: `demo/SKILL.sigstore` already exists; pass --force to replace it\n"
        )
    );
    // With --force it goes on to the network, and a failure there keeps the old bundle.
    let run = skillc(
        temp.path(),
        port,
        &[
            "sign",
            "a.txt",
            "--keyless",
            "--identity-token",
            &token,
            "--force",
        ],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), fulcio_unreachable(port).as_str())
    );
    assert_eq!(
        std::fs::read_to_string(temp.path().join("a.txt.sigstore.json")).unwrap(),
        "old\n"
    );
}

#[test]
fn a_directory_is_signed_only_as_a_skill() {
    let temp = tempfile::tempdir().unwrap();
    write(&temp.path().join("notes/README.md"), "# notes\n");
    let port = closed_port();
    let token = email_token("me@example.com");
    let run = skillc(
        temp.path(),
        port,
        &["sign", "notes", "--keyless", "--identity-token", &token],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: `notes` holds no SKILL.md; a directory is signed as a skill (its SKILL.sigstore)\n"
        )
    );
    let run = skillc(
        temp.path(),
        port,
        &["sign", "missing", "--keyless", "--identity-token", &token],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(2), "error: path not found: missing\n")
    );
    // A bundle inside the directory (but SKILL.sigstore) would change the directory's digest.
    skill(temp.path(), "demo");
    let run = skillc(
        temp.path(),
        port,
        &[
            "sign",
            "demo",
            "--keyless",
            "--identity-token",
            &token,
            "--bundle",
            "demo/sig.json",
        ],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: `demo/sig.json` is inside `demo`, where the directory's digest would cover it; write the bundle outside, or as SKILL.sigstore (the default)\n"
        )
    );
    // A skill directory gets as far as the certificate authority, and leaves no SKILL.sigstore.
    let run = skillc(
        temp.path(),
        port,
        &["sign", "demo", "--keyless", "--identity-token", &token],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), fulcio_unreachable(port).as_str())
    );
    assert_eq!(listing(&temp.path().join("demo")), ["SKILL.md"]);
}

#[test]
fn pack_keyless_writes_nothing_without_a_token_or_a_certificate() {
    let temp = tempfile::tempdir().unwrap();
    skill(temp.path(), "demo");
    let port = closed_port();
    let run = skillc(temp.path(), port, &["pack", "demo", "--keyless"], &[]);
    assert_eq!((run.code, run.stderr.as_str()), (Some(2), NO_TOKEN));
    assert_eq!(run.stdout, "");
    assert_eq!(listing(temp.path()), ["demo"]);
    let run = skillc(
        temp.path(),
        port,
        &["pack", "demo", "--keyless", "--identity-token", "x"],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            Some(2),
            "error: --identity-token: the identity token is not a JWT: it has 1 part(s) separated by `.`, not 3 (header.payload.signature)\n"
        )
    );
    assert_eq!(listing(temp.path()), ["demo"]);
    // A good token: the archive is built, signing fails at the certificate authority, and
    // neither the archive nor a bundle is written.
    let token = email_token("me@example.com");
    let run = skillc(
        temp.path(),
        port,
        &["pack", "demo", "--keyless", "--identity-token", &token],
        &[],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (Some(1), fulcio_unreachable(port).as_str())
    );
    assert_eq!(listing(temp.path()), ["demo"]);
    assert_eq!(listing(&temp.path().join("demo")), ["SKILL.md"]);
    // --dry-run and --list ask for no token and sign nothing.
    let run = skillc(
        temp.path(),
        port,
        &["pack", "demo", "--keyless", "--dry-run"],
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(listing(temp.path()), ["demo"]);
}
