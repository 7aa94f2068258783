//! Runs every fixture: `fixtures/ok` must lint clean under `--strict`; each `fixtures/err/<case>`
//! must print exactly its `expected.txt` (concise format, paths relative to the case); a
//! `pass-*` case must print nothing.
//!
//! `SKILLC_BLESS=1 cargo test --test fixtures` rewrites the expected files; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

use regex::Regex;

/// Every `err` case, sorted, with its arguments (`args.txt`, one per line; default `.`).
fn err_cases() -> Vec<(PathBuf, Vec<String>)> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("err"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    cases
        .into_iter()
        .map(|case| {
            let args = match std::fs::read_to_string(case.join("args.txt")) {
                Ok(text) => text
                    .lines()
                    .map(str::to_string)
                    .filter(|l| !l.is_empty())
                    .collect(),
                Err(_) => vec![".".to_string()],
            };
            (case, args)
        })
        .collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn skillc(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillc"));
    cmd.current_dir(dir)
        // Each case's own `home/` is the user's home: `home/.par/skills` is the user tier.
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("NO_COLOR");
    cmd
}

#[test]
fn ok_fixtures_lint_clean() {
    let out = skillc(&root())
        .args(["validate", "--strict", "--format", "concise", "ok"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("Checked 13 skills: 0 errors, 0 warnings, 0 infos."),
        "{stderr}"
    );
}

#[test]
fn err_fixtures_match_expected_output() {
    let bless = std::env::var_os("SKILLC_BLESS").is_some();
    let cases = err_cases();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for (case, args) in &cases {
        let out = skillc(case)
            .args(["validate", "--format", "concise", "--quiet"])
            .args(args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let expected_path = case.join("expected.txt");
        if bless {
            std::fs::write(&expected_path, &stdout).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        if stdout != expected {
            failures.push(format!(
                "{name}:\n--- expected\n{expected}--- actual\n{stdout}"
            ));
            continue;
        }
        // `pass-*` cases must lint clean; every other case must report something.
        if stdout.is_empty() != name.starts_with("pass-") {
            failures.push(format!(
                "{name}: a `pass-` case must print nothing, any other case something"
            ));
        }
        let has_error = stdout.lines().any(|l| l.contains(": error["));
        let expected_code = if has_error { 1 } else { 0 };
        if out.status.code() != Some(expected_code) {
            failures.push(format!(
                "{name}: exit code {:?}, expected {expected_code}\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

static SARIF_HELP: LazyLock<Regex> = LazyLock::new(|| Regex::new(r" \(help: [^\n]*\)$").unwrap());
static GITHUB_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^::(error|warning|notice) file=([^,]*)(?:,line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+)?,title=skillc \((SK\d+)\)::(.*)$").unwrap()
});
static FULL_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(error|warning|info)\[(SK\d+)\]: (.*)\n *--> (.*?)(?::(\d+):(\d+))?$").unwrap()
});

/// One diagnostic as every format must agree on it: path, line, column, severity, code, message.
type Row = (String, Option<(u64, u64)>, String, String, String);

fn concise_rows(stdout: &str) -> Vec<Row> {
    let re = regex::Regex::new(r"^(.*?)(?::(\d+):(\d+))?: (error|warning|info)\[(SK\d+)\] (.*)$")
        .unwrap();
    stdout
        .lines()
        .map(|line| {
            let c = re
                .captures(line)
                .unwrap_or_else(|| panic!("concise line: {line}"));
            let pos = c
                .get(2)
                .map(|l| (l.as_str().parse().unwrap(), c[3].parse().unwrap()));
            (
                c[1].to_string(),
                pos,
                c[4].to_string(),
                c[5].to_string(),
                c[6].to_string(),
            )
        })
        .collect()
}

/// A SARIF URI back to the path it encodes.
fn percent_decode(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            out.push(u8::from_str_radix(&uri[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

/// Every case renders in every format, and the formats agree with `concise` on every
/// diagnostic and on the exit code (a renderer that panics, drops or invents one fails here).
#[test]
fn err_fixtures_render_in_every_format() {
    let mut failures = Vec::new();
    for (case, args) in err_cases() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let run = |format: &str| {
            let out = skillc(&case)
                .args([
                    "validate", "--quiet", "--color", "never", "--format", format,
                ])
                .args(&args)
                .output()
                .unwrap();
            (String::from_utf8(out.stdout).unwrap(), out.status.code())
        };
        let (concise, code) = run("concise");
        let rows = concise_rows(&concise);
        for format in ["full", "json", "sarif", "github"] {
            let (stdout, format_code) = run(format);
            if format_code != code {
                failures.push(format!(
                    "{name} --format {format}: exit {format_code:?}, concise exits {code:?}"
                ));
                continue;
            }
            let got: Vec<Row> = match format {
                "json" => {
                    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                    doc["diagnostics"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|d| {
                            let pos = d["line"]
                                .as_u64()
                                .map(|l| (l, d["column"].as_u64().unwrap()));
                            let s = |k: &str| d[k].as_str().unwrap().to_string();
                            (s("path"), pos, s("severity"), s("code"), s("message"))
                        })
                        .collect()
                }
                "sarif" => {
                    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                    doc["runs"][0]["results"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|r| {
                            let loc = &r["locations"][0]["physicalLocation"];
                            let region = &loc["region"];
                            let pos = region["startLine"]
                                .as_u64()
                                .map(|l| (l, region["startColumn"].as_u64().unwrap()));
                            let level = match r["level"].as_str().unwrap() {
                                "note" => "info",
                                other => other,
                            };
                            (
                                percent_decode(loc["artifactLocation"]["uri"].as_str().unwrap()),
                                pos,
                                level.to_string(),
                                r["ruleId"].as_str().unwrap().to_string(),
                                // SARIF's message carries the help after the message.
                                SARIF_HELP
                                    .replace(r["message"]["text"].as_str().unwrap(), "")
                                    .to_string(),
                            )
                        })
                        .collect()
                }
                "github" => {
                    let re = &*GITHUB_LINE;
                    stdout
                        .lines()
                        .map(|line| {
                            let c = re
                                .captures(line)
                                .unwrap_or_else(|| panic!("{name}: github line: {line}"));
                            let pos = c
                                .get(3)
                                .map(|l| (l.as_str().parse().unwrap(), c[4].parse().unwrap()));
                            let level = if &c[1] == "notice" { "info" } else { &c[1] };
                            let unescape = |t: &str| {
                                t.replace("%3A", ":")
                                    .replace("%2C", ",")
                                    .replace("%0A", "\n")
                                    .replace("%0D", "\r")
                                    .replace("%25", "%")
                            };
                            (
                                unescape(&c[2]),
                                pos,
                                level.to_string(),
                                c[5].to_string(),
                                unescape(&c[6]),
                            )
                        })
                        .collect()
                }
                _ => {
                    // full: a header per diagnostic, then its `-->` location.
                    let re = &*FULL_HEADER;
                    let lines: Vec<&str> = stdout.lines().collect();
                    lines
                        .windows(2)
                        .filter_map(|w| {
                            re.captures(&format!("{}\n{}", w[0], w[1])).map(|c| {
                                let pos = c
                                    .get(5)
                                    .map(|l| (l.as_str().parse().unwrap(), c[6].parse().unwrap()));
                                (
                                    c[4].to_string(),
                                    pos,
                                    c[1].to_string(),
                                    c[2].to_string(),
                                    c[3].to_string(),
                                )
                            })
                        })
                        .collect()
                }
            };
            if got != rows {
                failures.push(format!(
                    "{name} --format {format}:\n  concise: {rows:?}\n  {format}: {got:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
