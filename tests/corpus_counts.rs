//! Pins what skillc prints on the four real repositories of
//! `../shared/corpus/public-skills.tar.gz`, run from each repository's root:
//! - the per-rule diagnostic counts of a default run (`validate --no-config --statistics`), so
//!   that any change in what skillc reports on real skills — more noise or a lost finding — is
//!   deliberate and shows in review (`tests/data/corpus-counts.txt`);
//! - the exact bytes of every output format of `validate`, and of `tokens` and `list` (a
//!   SHA-256 and length per output, `tests/data/corpus-outputs.txt`), so that a change to how
//!   skills are read, linted or rendered cannot change a byte of output unnoticed. On a
//!   mismatch the actual outputs are written to `target/corpus-outputs/` for diffing.
//!
//! `SKILLC_BLESS=1 cargo test --test corpus_counts` rewrites both files.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

mod common;

const REPOSITORIES: [&str; 4] = [
    "anthropics+claude-plugins-official",
    "anthropics+skills",
    "obra+superpowers",
    "trailofbits+skills",
];

/// The commands whose outputs are pinned byte for byte (after `--no-config`, before `.`).
const OUTPUTS: [&[&str]; 8] = [
    &["validate", "--format", "full"],
    &["validate", "--format", "concise"],
    &["validate", "--format", "json"],
    &["validate", "--format", "sarif"],
    &["validate", "--format", "github"],
    &["validate", "--statistics"],
    &["tokens", "--format", "json"],
    &["list", "--format", "json"],
];

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus extracted once per test process (`None`: not on this machine).
fn corpus() -> Option<&'static Path> {
    static EXTRACTED: OnceLock<Option<tempfile::TempDir>> = OnceLock::new();
    EXTRACTED
        .get_or_init(|| {
            let tmp = common::extract_corpus()?;
            std::fs::create_dir_all(tmp.path().join("home")).unwrap();
            Some(tmp)
        })
        .as_ref()
        .map(|tmp| tmp.path())
}

/// Runs skillc in `repo` with `args`; stdout, stderr and the exit code.
fn run(root: &Path, repo: &str, args: &[&str]) -> (Vec<u8>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .args(&args[..1])
        .arg("--no-config")
        .args(&args[1..])
        .arg(".")
        .current_dir(root.join(repo))
        .env("HOME", root.join("home"))
        .env_remove("SKILLC_FORMAT")
        .env_remove("SKILLC_OUTPUT_FORMAT")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let code = out.status.code().map_or("signal".into(), |c| c.to_string());
    (out.stdout, out.stderr, code)
}

/// Compares `actual` with the pinned file, or rewrites it under `SKILLC_BLESS`.
fn check_pinned(name: &str, actual: &str, what: &str) {
    let expected_path = manifest().join("tests/data").join(name);
    if std::env::var_os("SKILLC_BLESS").is_some() {
        std::fs::write(&expected_path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    assert_eq!(
        actual, expected,
        "{what}; if that is intended, rerun with SKILLC_BLESS=1 and explain the change in review"
    );
}

#[test]
fn corpus_counts_are_pinned() {
    let Some(root) = corpus() else { return };
    let mut actual = String::new();
    for repo in REPOSITORIES {
        let (stdout, stderr, code) = run(root, repo, &["validate", "--statistics"]);
        actual += &format!(
            "== {repo}\n{}{}exit {code}\n",
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(&stderr)
        );
    }
    check_pinned(
        "corpus-counts.txt",
        &actual,
        "the diagnostics on the real corpus changed",
    );
}

#[test]
fn corpus_outputs_are_byte_identical() {
    let Some(root) = corpus() else { return };
    let dump = manifest().join("target/corpus-outputs");
    let mut actual = String::new();
    for repo in REPOSITORIES {
        for args in OUTPUTS {
            let (stdout, stderr, code) = run(root, repo, args);
            let name = format!("{repo}.{}", args.join("_").replace("--", ""));
            let _ = std::fs::create_dir_all(&dump);
            let _ = std::fs::write(dump.join(format!("{name}.stdout")), &stdout);
            actual += &format!(
                "{repo} {}: exit {code}, stdout {} bytes sha256 {:x}, stderr {}",
                args.join(" "),
                stdout.len(),
                Sha256::digest(&stdout),
                String::from_utf8_lossy(&stderr)
            );
            if !actual.ends_with('\n') {
                actual.push('\n');
            }
        }
    }
    check_pinned(
        "corpus-outputs.txt",
        &actual,
        "an output on the real corpus changed (the actual outputs are in target/corpus-outputs/)",
    );
}
