//! `skillc verify` against hostile inputs (package.md, `skillc verify`): manifests, bundles and
//! artifacts that are devices, FIFOs or huge are refused at once and never read whole; a
//! verdict that checked nothing is a failure; `verify DIR` accounts for every file; and names
//! that come from files or paths are printed escaped, so they cannot forge an `OK:` line or
//! drive the terminal.
//!
//! Every run is bounded by a timeout (a hang fails the test), and the large-artifact runs are
//! measured: their peak memory must stay far below the artifact's size.

mod common;

use std::fs;
use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use common::skillc_watched as skillc;

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

fn sparse(path: &Path, head: &[u8], len: u64) {
    let mut file = fs::File::create(path).unwrap();
    file.write_all(head).unwrap();
    file.set_len(len).unwrap();
}

const SKILL_MD: &[u8] = b"---\nname: sk\ndescription: Use when testing.\n---\n\nBody.\n";

/// The manifest of `files`, as listed (paths may be hostile).
fn manifest(key: &str, files: &[(&str, &[u8])]) -> Vec<u8> {
    let files: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, bytes)| {
            let sha: String = Sha256::digest(bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            serde_json::json!({"path": path, "size": bytes.len(), "sha256": sha, "executable": false})
        })
        .collect();
    let doc = serde_json::json!({
        "manifest_version": 1,
        "skill": {"key": key, "dialect": "agentskills"},
        "files": files,
    });
    let mut bytes = serde_json::to_vec_pretty(&doc).unwrap();
    bytes.push(b'\n');
    bytes
}

/// `root/sk`: an unpacked skill whose manifest lists SKILL.md and references/notes.md.
fn unpacked(root: &Path) {
    let dir = root.join("sk");
    fs::create_dir_all(dir.join("references")).unwrap();
    fs::write(dir.join("SKILL.md"), SKILL_MD).unwrap();
    fs::write(dir.join("references/notes.md"), b"# Notes\n").unwrap();
    fs::write(
        dir.join(".skill-manifest.json"),
        manifest(
            "sk",
            &[
                ("SKILL.md", SKILL_MD),
                ("references/notes.md", b"# Notes\n"),
            ],
        ),
    )
    .unwrap();
}

fn keygen(dir: &Path) {
    assert_eq!(skillc(dir, &["keygen", "--out", "me"]).code, Some(0));
}

// ---------------------------------------------------------------------------------------------
// Finding 4: manifests and bundles are read capped, regular files only.

#[test]
fn manifests_that_are_devices_fifos_or_huge_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    unpacked(root);
    let manifest_path = root.join("sk/.skill-manifest.json");
    type Make<'a> = Box<dyn Fn() + 'a>;
    let cases: Vec<(&str, Make)> = vec![
        (
            "a symbolic link (not followed)",
            Box::new(|| std::os::unix::fs::symlink("/dev/zero", &manifest_path).unwrap()),
        ),
        ("not a regular file", Box::new(|| mkfifo(&manifest_path))),
        (
            "the file is 10240001 bytes; the limit is 10240000",
            Box::new(|| sparse(&manifest_path, b"{", 10_240_001)),
        ),
    ];
    for (reason, make) in cases {
        fs::remove_file(&manifest_path).unwrap();
        make();
        let run = skillc(root, &["verify", "sk"]);
        assert_eq!(run.code, Some(1), "{reason}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("FAIL: sk: cannot read `sk/.skill-manifest.json`: {reason}\n")
        );
    }
}

#[test]
fn bundles_that_are_devices_fifos_or_huge_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    keygen(root);
    fs::write(root.join("a.txt"), b"hello\n").unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("a.txt.sigstore.json")).unwrap();
    mkfifo(&root.join("fifo.json"));
    sparse(&root.join("big.json"), b"{", 1024 * 1024 + 1);
    let default = "cannot read the bundle `a.txt.sigstore.json`: not a regular file";
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["--insecure-skip-signature"], default.into()),
        (vec!["--key", "me.pub"], default.into()),
        (
            vec!["--key", "me.pub", "--bundle", "fifo.json"],
            "cannot read the bundle `fifo.json`: not a regular file".into(),
        ),
        (
            vec!["--insecure-skip-signature", "--bundle", "big.json"],
            "cannot read the bundle `big.json`: the file is 1048577 bytes; the limit is 1048576"
                .into(),
        ),
    ];
    for (extra, reason) in cases {
        let mut args = vec!["verify", "a.txt"];
        args.extend(&extra);
        let run = skillc(root, &args);
        assert_eq!(run.code, Some(1), "{extra:?}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("FAIL: a.txt: bundle check failed: {reason}\n"),
            "{extra:?}"
        );
    }
    // unpack --key reads the bundle through verify: same refusal, nothing unpacked.
    let run = skillc(root, &["unpack", "a.txt", "--key", "me.pub", "-C", "dest"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        format!("FAIL: a.txt: bundle check failed: {default}\nnothing was unpacked\n")
    );
    assert!(!root.join("dest").exists());
}

// ---------------------------------------------------------------------------------------------
// Finding 7: a verdict with no passed check is a failure.

#[test]
fn integrity_only_fails_when_nothing_could_be_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    keygen(root);
    fs::write(root.join("passwd"), b"root:x:0:0:root:/root:/bin/sh\n").unwrap();
    let run = skillc(root, &["verify", "passwd", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "FAIL: passwd: integrity check failed: nothing was checked: `passwd` is not a skill \
         archive and has no bundle (`passwd.sigstore.json` does not exist); pass --bundle PATH, \
         or --key PUB to check a signature\n"
    );
    let run = skillc(
        root,
        &[
            "verify",
            "passwd",
            "--insecure-skip-signature",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, Some(1));
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["checks"][0]["name"], "integrity");
    assert_eq!(doc["checks"].as_array().unwrap().len(), 1);
    // A bundle the user named must exist.
    let run = skillc(
        root,
        &[
            "verify",
            "passwd",
            "--insecure-skip-signature",
            "--bundle",
            "nope.json",
        ],
    );
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "FAIL: passwd: bundle check failed: cannot read the bundle `nope.json`: No such file or \
         directory (os error 2)\n"
    );
    // A default bundle that exists but does not parse is a failure, not a skipped check.
    fs::write(root.join("passwd.sigstore.json"), b"{").unwrap();
    let run = skillc(root, &["verify", "passwd", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with(
            "FAIL: passwd: bundle check failed: the bundle is not valid JSON of a Sigstore bundle: "
        ),
        "{}",
        run.stderr
    );
    // With a real bundle the digest is checked, and the line says so.
    fs::remove_file(root.join("passwd.sigstore.json")).unwrap();
    assert_eq!(
        skillc(root, &["sign", "passwd", "--key", "me.key"]).code,
        Some(0)
    );
    let run = skillc(root, &["verify", "passwd", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "INTEGRITY OK: passwd (checked: digest); the signature was not checked\n"
    );
    fs::write(root.join("passwd"), b"root::0:0:root:/root:/bin/sh\n").unwrap();
    let run = skillc(root, &["verify", "passwd", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "FAIL: passwd: digest check failed: the artifact's SHA-256 does not match the bundle's \
         messageDigest\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Artifacts: regular files only, streamed, only archives held in memory and only when small.

#[test]
fn artifacts_that_are_not_regular_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    keygen(root);
    mkfifo(&root.join("fifo"));
    std::os::unix::fs::symlink("/dev/zero", root.join("zero.tar.gz")).unwrap();
    for name in ["fifo", "zero.tar.gz", "/dev/zero"] {
        let run = skillc(root, &["verify", name, "--insecure-skip-signature"]);
        assert_eq!(run.code, Some(2), "{name}");
        assert_eq!(
            run.stderr,
            format!(
                "error: `{name}` is not a regular file; verify checks a file, `sha256:HEX` or a \
                 skill directory\n"
            )
        );
        let run = skillc(root, &["sign", name, "--key", "me.key"]);
        assert_eq!(run.code, Some(2), "{name}");
        assert_eq!(
            run.stderr,
            format!("error: `{name}` is not a regular file; sign signs a file's bytes\n")
        );
    }
}

#[test]
fn verify_dir_accounts_for_hidden_ignored_and_cache_files() {
    type Change = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Change, &str)> = vec![
        (
            "hidden",
            Box::new(|d| {
                fs::create_dir(d.join(".hidden")).unwrap();
                fs::write(d.join(".hidden/payload.sh"), b"x").unwrap();
            }),
            "`.hidden/payload.sh` is not listed in the manifest",
        ),
        (
            "pycache",
            Box::new(|d| {
                fs::create_dir(d.join("__pycache__")).unwrap();
                fs::write(d.join("__pycache__/m.cpython-311.pyc"), b"x").unwrap();
            }),
            "`__pycache__/m.cpython-311.pyc` is not listed in the manifest",
        ),
        (
            "node_modules",
            Box::new(|d| {
                fs::create_dir(d.join("node_modules")).unwrap();
                fs::write(d.join("node_modules/x.js"), b"x").unwrap();
            }),
            "`node_modules/x.js` is not listed in the manifest",
        ),
        (
            "pyc",
            Box::new(|d| fs::write(d.join("references/evil.pyc"), b"x").unwrap()),
            "`references/evil.pyc` is not listed in the manifest",
        ),
        (
            "skillignored",
            Box::new(|d| {
                fs::write(d.join(".skillignore"), b"evil.sh\n").unwrap();
                fs::write(d.join("evil.sh"), b"x").unwrap();
            }),
            "`.skillignore` is not listed in the manifest",
        ),
        (
            "symlink",
            Box::new(|d| std::os::unix::fs::symlink("SKILL.md", d.join("link.md")).unwrap()),
            "`link.md` is a symbolic link; an unpacked skill holds regular files only",
        ),
        (
            "listed file replaced by a symlink",
            Box::new(|d| {
                fs::rename(d.join("SKILL.md"), d.join("../SKILL.md")).unwrap();
                std::os::unix::fs::symlink("../SKILL.md", d.join("SKILL.md")).unwrap();
            }),
            "`SKILL.md` is a symbolic link; an unpacked skill holds regular files only",
        ),
        (
            "fifo",
            Box::new(|d| mkfifo(&d.join("pipe"))),
            "`pipe` is a special file (FIFO, socket or device); an unpacked skill holds regular \
             files only",
        ),
        (
            "resized",
            Box::new(|d| fs::write(d.join("references/notes.md"), b"# N\n").unwrap()),
            "`references/notes.md` is 4 bytes; the manifest says 8",
        ),
        (
            "altered",
            Box::new(|d| fs::write(d.join("references/notes.md"), b"# Notez\n").unwrap()),
            "`references/notes.md` does not match its SHA-256 in the manifest",
        ),
        (
            "removed",
            Box::new(|d| fs::remove_file(d.join("references/notes.md")).unwrap()),
            "`references/notes.md` is listed in the manifest but missing",
        ),
        (
            "made executable",
            Box::new(|d| {
                use std::os::unix::fs::PermissionsExt;
                let notes = d.join("references/notes.md");
                fs::set_permissions(notes, fs::Permissions::from_mode(0o755)).unwrap();
            }),
            "`references/notes.md` is executable but the manifest says it is not",
        ),
    ];
    for (name, change, reason) in cases {
        let tmp = tempfile::tempdir().unwrap();
        unpacked(tmp.path());
        let run = skillc(tmp.path(), &["verify", "sk"]);
        assert_eq!(
            run.stderr,
            "INTEGRITY OK: sk (skill sk; files match the manifest; no signature checked)\n"
        );
        change(&tmp.path().join("sk"));
        let run = skillc(tmp.path(), &["verify", "sk"]);
        assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
        assert_eq!(run.stderr, format!("FAIL: sk: {reason}\n"), "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Untrusted strings are printed escaped: one line per verdict, no terminal escapes.

#[test]
fn names_from_files_and_paths_cannot_forge_lines_or_escape_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // A manifest path holding a newline and a forged OK line.
    unpacked(root);
    fs::write(
        root.join("sk/.skill-manifest.json"),
        manifest(
            "sk",
            &[
                ("SKILL.md", SKILL_MD),
                ("references/notes.md", b"# Notes\n"),
                ("x\nOK: sk (key hint AAAA)", b""),
            ],
        ),
    )
    .unwrap();
    let run = skillc(root, &["verify", "sk"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "FAIL: sk: `x\\nOK: sk (key hint AAAA)` is listed in the manifest but missing\n"
    );
    // A file name holding a terminal escape.
    fs::write(
        root.join("sk/.skill-manifest.json"),
        manifest(
            "sk",
            &[
                ("SKILL.md", SKILL_MD),
                ("references/notes.md", b"# Notes\n"),
            ],
        ),
    )
    .unwrap();
    fs::write(root.join("sk/\u{1b}]0;pwned\u{7}.md"), b"x").unwrap();
    let run = skillc(root, &["verify", "sk"]);
    assert_eq!(
        run.stderr,
        "FAIL: sk: `\\u{1b}]0;pwned\\u{7}.md` is not listed in the manifest\n"
    );
    fs::remove_file(root.join("sk/\u{1b}]0;pwned\u{7}.md")).unwrap();
    // A skill key holding escapes, on the OK line.
    fs::write(
        root.join("sk/.skill-manifest.json"),
        manifest(
            "sk\u{1b}[2J\u{202e}",
            &[
                ("SKILL.md", SKILL_MD),
                ("references/notes.md", b"# Notes\n"),
            ],
        ),
    )
    .unwrap();
    let run = skillc(root, &["verify", "sk"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stderr,
        "INTEGRITY OK: sk (skill sk\\u{1b}[2J\\u{202e}; files match the manifest; no signature \
         checked)\n"
    );
    // An artifact path holding a newline.
    fs::write(root.join("a\nOK: b"), b"x").unwrap();
    let run = skillc(root, &["verify", "a\nOK: b", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let json = skillc(
        root,
        &[
            "verify",
            "a\nOK: b",
            "--insecure-skip-signature",
            "--format",
            "json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["artifact"], "a\nOK: b", "JSON carries the name as is");
    assert!(
        run.stderr
            .starts_with("FAIL: a\\u{a}OK: b: integrity check failed: nothing was checked: "),
        "{}",
        run.stderr
    );
    // A bundle's media type holding a newline.
    fs::write(root.join("a.txt"), b"x").unwrap();
    fs::write(
        root.join("a.txt.sigstore.json"),
        br#"{"mediaType": "x\nOK: a.txt", "verificationMaterial": {}}"#,
    )
    .unwrap();
    let run = skillc(root, &["verify", "a.txt", "--insecure-skip-signature"]);
    assert_eq!(
        run.stderr,
        "FAIL: a.txt: bundle check failed: unsupported bundle media type `x\\u{a}OK: a.txt`\n"
    );
    // An archive whose manifest lists a name holding a terminal escape.
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    ));
    let listing = manifest("sk", &[("SKILL.md", SKILL_MD), ("z\u{1b}[2Jgone.md", b"")]);
    for (path, bytes) in [
        ("sk/.skill-manifest.json", listing.as_slice()),
        ("sk/SKILL.md", SKILL_MD),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, path, bytes).unwrap();
    }
    fs::write(
        root.join("sk.tar.gz"),
        tar.into_inner().unwrap().finish().unwrap(),
    )
    .unwrap();
    let run = skillc(root, &["verify", "sk.tar.gz", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "FAIL: sk.tar.gz: archive check failed: `z\\u{1b}[2Jgone.md` is listed in the manifest \
         but missing\n"
    );
}

/// A signed file that is not a skill archive (a plain tar, say) gets a signature verdict that
/// says so, and `unpack` refuses it without printing `OK:`.
#[test]
fn files_that_are_not_skill_archives_say_what_was_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    keygen(root);
    fs::write(root.join("plain.tar"), b"not a skill archive\n").unwrap();
    assert_eq!(
        skillc(root, &["sign", "plain.tar", "--key", "me.key"]).code,
        Some(0)
    );
    let run = skillc(root, &["verify", "plain.tar", "--key", "me.pub"]);
    assert_eq!(run.code, Some(0));
    assert!(
        run.stderr.starts_with("OK: plain.tar (key hint ")
            && run
                .stderr
                .ends_with("; not a skill archive: only the signature and digest were checked)\n"),
        "{}",
        run.stderr
    );
    let run = skillc(
        root,
        &["unpack", "plain.tar", "--key", "me.pub", "-C", "out"],
    );
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: `plain.tar` is not a skill archive (tar.gz or zip); nothing was unpacked\n"
    );
    assert!(!root.join("out").exists() || fs::read_dir(root.join("out")).unwrap().count() == 0);
}
