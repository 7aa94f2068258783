//! Pins the per-rule diagnostic counts of a default run (`skillc validate --no-config
//! --statistics`, from each repository's root) on the four real repositories of
//! `../shared/corpus/public-skills.tar.gz`, so that any change in what skillc reports on real
//! skills — more noise or a lost finding — is deliberate and shows in review.
//!
//! `SKILLC_BLESS=1 cargo test --test corpus_counts` rewrites `tests/data/corpus-counts.txt`.

use std::path::{Path, PathBuf};
use std::process::Command;

const REPOSITORIES: [&str; 4] = [
    "anthropics+claude-plugins-official",
    "anthropics+skills",
    "obra+superpowers",
    "trailofbits+skills",
];

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public-skills.tar.gz")
}

fn counts(repo: &Path, home: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
        .args(["validate", "--no-config", "--statistics", "."])
        .current_dir(repo)
        .env("HOME", home)
        .env_remove("SKILLC_FORMAT")
        .output()
        .unwrap();
    let code = out.status.code().map_or("signal".into(), |c| c.to_string());
    format!(
        "{}{}exit {code}\n",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn corpus_counts_are_pinned() {
    let archive = corpus();
    if !archive.exists() {
        eprintln!("skipped: {} is not on this machine", archive.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(
        status.success(),
        "tar failed to extract {}",
        archive.display()
    );
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut actual = String::new();
    for name in REPOSITORIES {
        actual += &format!("== {name}\n{}", counts(&tmp.path().join(name), &home));
    }
    let expected_path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus-counts.txt");
    if std::env::var_os("SKILLC_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    assert_eq!(
        actual, expected,
        "the diagnostics on the real corpus changed; if that is intended, rerun with SKILLC_BLESS=1 and explain the change in review"
    );
}
