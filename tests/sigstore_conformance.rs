//! sigstore-conformance's `bundle-verify` suite (vendored in tests/data/sigstore-conformance,
//! Apache-2.0): every case verifies or fails as the suite says, as a file and as a digest.
//!
//! A case is a directory: `bundle.sigstore.json`, optionally `artifact` (else `a.txt`),
//! `identity` and `issuer` (else the suite's defaults), `key.pub` (verify with the key instead
//! of an identity) and `trusted_root.json` (else the embedded public-good root). A name ending
//! in `fail` must fail — with exit code 1 and a `FAIL:` line (or exit 2 for a `key.pub` that is
//! not a key), never another usage error or a crash.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

const DEFAULT_IDENTITY: &str = "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main";
const DEFAULT_ISSUER: &str = "https://token.actions.githubusercontent.com";

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sigstore-conformance/bundle-verify")
}

fn read_or(path: &Path, default: &str) -> String {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| default.to_string())
}

/// Runs one case; returns a description of the mismatch, if any.
fn run(case: &Path, as_digest: bool) -> Option<String> {
    let name = case.file_name()?.to_string_lossy().to_string();
    let artifact = match case.join("artifact") {
        p if p.exists() => p,
        _ => suite().join("a.txt"),
    };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillc"));
    cmd.arg("verify");
    if as_digest {
        let bytes = std::fs::read(&artifact).ok()?;
        cmd.arg(format!("sha256:{:x}", Sha256::digest(&bytes)));
    } else {
        cmd.arg(&artifact);
    }
    cmd.arg("--bundle").arg(case.join("bundle.sigstore.json"));
    let key = case.join("key.pub");
    if key.exists() {
        cmd.arg("--key").arg(key);
    } else {
        cmd.arg("--certificate-identity")
            .arg(read_or(&case.join("identity"), DEFAULT_IDENTITY))
            .arg("--certificate-oidc-issuer")
            .arg(read_or(&case.join("issuer"), DEFAULT_ISSUER));
    }
    let root = case.join("trusted_root.json");
    if root.exists() {
        cmd.arg("--trusted-root").arg(root);
    }
    let out = cmd.output().ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    let how = if as_digest { "digest" } else { "file" };
    let should_fail = name.ends_with("fail");
    let ok = if should_fail {
        // A verification failure; or a key file that is not a key at all, which is a usage
        // error (exit 2) naming the file (the suite asks only that verification fail).
        (code == Some(1) && stderr.starts_with("FAIL: "))
            || (code == Some(2) && stderr.starts_with("error: ") && stderr.contains("key.pub"))
    } else {
        code == Some(0) && stderr.starts_with("OK: ")
    };
    (!ok).then(|| {
        format!(
            "{name} ({how}): expected {}, got exit {code:?}: {}",
            if should_fail { "failure" } else { "success" },
            stderr.trim()
        )
    })
}

#[test]
fn every_case_passes_or_fails_as_the_suite_says() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(suite())
        .expect("the vendored suite")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let mut runs = 0;
    let mut wrong = Vec::new();
    for case in &cases {
        for as_digest in [false, true] {
            runs += 1;
            wrong.extend(run(case, as_digest));
        }
    }
    assert_eq!(runs, 140, "70 cases, each as a file and as a digest");
    assert!(
        wrong.is_empty(),
        "{} of {runs} runs disagree with the suite:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
