//! Runs every fixture: `fixtures/ok` must lint clean under `--strict`; each `fixtures/err/<case>`
//! must print exactly its `expected.txt` (concise format, paths relative to the case); a
//! `pass-*` case must print nothing.
//!
//! `SKILLC_BLESS=1 cargo test --test fixtures` rewrites the expected files; review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

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
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("err"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let args: Vec<String> = match std::fs::read_to_string(case.join("args.txt")) {
            Ok(text) => text
                .lines()
                .map(str::to_string)
                .filter(|l| !l.is_empty())
                .collect(),
            Err(_) => vec![".".to_string()],
        };
        let out = skillc(case)
            .args(["validate", "--format", "concise", "--quiet"])
            .args(&args)
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
