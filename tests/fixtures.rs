//! Runs every fixture: `fixtures/ok` must lint clean under `--strict`; each `fixtures/err/<case>`
//! must print exactly its `expected.txt` (concise format, paths relative to the case) and its
//! `expected-full.txt` (the `full` format, without colour, read in review as it renders); a
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
        .env_remove("SKILLC_OUTPUT_FORMAT")
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
        let full = skillc(case)
            .args([
                "validate", "--format", "full", "--color", "never", "--quiet",
            ])
            .args(args)
            .output()
            .unwrap();
        let full = String::from_utf8_lossy(&full.stdout).into_owned();
        let full_path = case.join("expected-full.txt");
        if bless {
            // A case that prints nothing (`pass-*`) has no file to read.
            match full.is_empty() {
                true => drop(std::fs::remove_file(&full_path)),
                false => std::fs::write(&full_path, &full).unwrap(),
            }
        }
        let expected_full = std::fs::read_to_string(&full_path).unwrap_or_default();
        if full != expected_full {
            failures.push(format!(
                "{name} --format full:\n--- expected\n{expected_full}--- actual\n{full}"
            ));
        }
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
    Regex::new(r"^(error|warning|info)\[(SK\d+)\](?: \[\*\])?: (.*)\n *--> (.*?)(?::(\d+):(\d+))?$")
        .unwrap()
});

static FULL_HEADER_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(error|warning|info)\[SK\d+\]").unwrap());

/// One diagnostic as every format must agree on it: path, line, column, severity, code, message.
type Row = (String, Option<(u64, u64)>, String, String, String);

fn concise_rows(stdout: &str) -> Vec<Row> {
    let re = regex::Regex::new(
        r"^(.*?)(?::(\d+):(\d+))?: (error|warning|info)\[(SK\d+)\](?: \[\*\])? (.*?)(?: \(help: .*\))?$",
    )
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
    String::from_utf8(skillc::encode::percent_decode(uri)).unwrap()
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
        // Which diagnostics this run can fix: `[*]` in concise and full, `available` in JSON.
        let marked: Vec<bool> = concise.lines().map(|l| l.contains("] [*] ")).collect();
        let (full, _) = run("full");
        let full_marked: Vec<bool> = full
            .lines()
            .filter(|l| FULL_HEADER_LINE.is_match(l))
            .map(|l| l.contains("] [*]: "))
            .collect();
        let (json, _) = run("json");
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let json_marked: Vec<bool> = doc["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["fix"]["available"] == serde_json::Value::Bool(true))
            .collect();
        if marked != full_marked || marked != json_marked {
            failures.push(format!(
                "{name}: fixable marks differ: concise {marked:?}, full {full_marked:?}, json {json_marked:?}"
            ));
        }
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
                                // The help follows the message on a line of its own.
                                unescape(&c[6])
                                    .split("\nhelp: ")
                                    .next()
                                    .unwrap_or_default()
                                    .to_string(),
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

/// The files of a tree (relative path → bytes; a symbolic link → its target, marked), without
/// the case's own expectations.
fn files(root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if ["expected.txt", "expected-full.txt", "args.txt"].contains(&rel.as_str()) {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                let marked = format!("-> {}", target.display());
                out.insert(rel, marked.into_bytes());
            } else if meta.is_dir() {
                stack.push(path);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// A copy of a case's tree (symbolic links as links) in a scratch directory.
fn scratch_copy(case: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (rel, bytes) in files(case) {
        let to = tmp.path().join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        match bytes.strip_prefix(b"-> ") {
            Some(target)
                if std::fs::symlink_metadata(case.join(&rel))
                    .unwrap()
                    .is_symlink() =>
            {
                std::os::unix::fs::symlink(String::from_utf8_lossy(target).as_ref(), &to).unwrap();
            }
            _ => std::fs::write(&to, &bytes).unwrap(),
        }
    }
    tmp
}

/// Every `err` case, fixed in a scratch copy with `--fix`, then with `--fix --unsafe-fixes`:
/// the files that change are exactly the case's copies in `fixtures/fixed/<case>/`
/// (`fixtures/fixed-unsafe/<case>/`, when the unsafe fixes change more), byte for byte, and
/// the files renamed away are those its `REMOVED.txt` lists; every other file keeps its bytes; and fixing
/// again changes nothing, with `--diff` printing nothing and exiting 0.
#[test]
fn err_fixtures_fix_to_their_fixed_copies() {
    let bless = std::env::var_os("SKILLC_BLESS").is_some();
    let mut failures = Vec::new();
    let mut fixed_cases = 0;
    for (case, args) in err_cases() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let original = files(&case);
        let mut safe_changed = None;
        for (flags, dir) in [
            (&["--fix"][..], "fixed"),
            (&["--fix", "--unsafe-fixes"][..], "fixed-unsafe"),
        ] {
            let tmp = scratch_copy(&case);
            let run = |extra: &[&str]| {
                skillc(tmp.path())
                    .args(["validate", "--quiet", "--format", "concise"])
                    .args(extra)
                    .args(&args)
                    .output()
                    .unwrap()
            };
            run(flags);
            let after = files(tmp.path());
            let mut changed: std::collections::BTreeMap<String, Vec<u8>> = after
                .iter()
                .filter(|(rel, bytes)| original.get(*rel) != Some(bytes))
                .map(|(rel, bytes)| (rel.clone(), bytes.clone()))
                .collect();
            // A file renamed away is listed in `REMOVED.txt`, one path per line.
            let removed: String = original
                .keys()
                .filter(|rel| !after.contains_key(*rel))
                .map(|rel| format!("{rel}\n"))
                .collect();
            if !removed.is_empty() {
                changed.insert("REMOVED.txt".into(), removed.into_bytes());
            }
            let expected_dir = root().join(dir).join(&name);
            if bless {
                let _ = std::fs::remove_dir_all(&expected_dir);
                let same_as_safe = dir == "fixed-unsafe" && safe_changed.as_ref() == Some(&changed);
                if !changed.is_empty() && !same_as_safe {
                    for (rel, bytes) in &changed {
                        let to = expected_dir.join(rel);
                        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                        std::fs::write(to, bytes).unwrap();
                    }
                }
            }
            let expected = if expected_dir.is_dir() {
                files(&expected_dir)
            } else if dir == "fixed-unsafe" {
                safe_changed.clone().unwrap_or_default()
            } else {
                Default::default()
            };
            if changed != expected {
                let show = |m: &std::collections::BTreeMap<String, Vec<u8>>| {
                    m.iter()
                        .map(|(k, v)| format!("{k}:\n{}", String::from_utf8_lossy(v)))
                        .collect::<String>()
                };
                failures.push(format!(
                    "{name} {flags:?}:\n--- expected\n{}--- actual\n{}",
                    show(&expected),
                    show(&changed)
                ));
            }
            if !changed.is_empty() {
                fixed_cases += 1;
                run(flags);
                if files(tmp.path()) != after {
                    failures.push(format!("{name} {flags:?}: a second run changed files"));
                }
                let mut diff_flags = vec!["--diff"];
                diff_flags.extend(flags.iter().filter(|f| **f == "--unsafe-fixes"));
                let diff = run(&diff_flags);
                if !diff.stdout.is_empty() || diff.status.code() != Some(0) {
                    failures.push(format!(
                        "{name} {flags:?}: --diff after fixing printed {:?}, exit {:?}",
                        String::from_utf8_lossy(&diff.stdout),
                        diff.status.code()
                    ));
                }
            }
            if dir == "fixed" {
                safe_changed = Some(changed);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The test proves nothing unless fixes apply to many cases.
    assert!(fixed_cases >= 15, "only {fixed_cases} cases fixed");
}
