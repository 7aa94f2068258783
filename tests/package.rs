//! Packaging and signing: reproducible archives, tamper evidence, interoperability with an
//! independent Sigstore verifier, and no data loss.

mod common;

use common::{skillc, skillc_env, write};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A skill with scripts, references, ignored files and an executable.
fn make_skill(root: &Path, order: &[&str]) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = root.join("pdf-tools");
    let files = [
        (
            "SKILL.md",
            "---\nname: pdf-tools\ndescription: Reads PDFs. Use when the user shares a PDF.\n---\n\nRun [the script](scripts/run.py); see [notes](references/notes.md).\n",
        ),
        ("scripts/run.py", "#!/usr/bin/env python3\nprint('ok')\n"),
        ("references/notes.md", "# Notes\n"),
        ("assets/logo.txt", "logo\n"),
        (".env", "SECRET=1\n"),
        ("scripts/__pycache__/run.cpython-311.pyc", "junk"),
        ("build/out.log", "log\n"),
        (".skillignore", "build/\n"),
    ];
    for name in order {
        let (path, text) = files.iter().find(|(p, _)| p == name).unwrap();
        write(&dir.join(path), text);
    }
    fs::set_permissions(
        dir.join("scripts/run.py"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    dir
}

const ORDER: [&str; 8] = [
    "SKILL.md",
    "scripts/run.py",
    "references/notes.md",
    "assets/logo.txt",
    ".env",
    "scripts/__pycache__/run.cpython-311.pyc",
    "build/out.log",
    ".skillignore",
];

#[test]
fn file_set_manifest_and_listing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = make_skill(tmp.path(), &ORDER);
    let run = skillc(tmp.path(), &["pack", "pdf-tools", "--list"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "SKILL.md\nassets/logo.txt\nreferences/notes.md\nscripts/run.py\n"
    );
    let run = skillc(tmp.path(), &["pack", "pdf-tools", "--dry-run", "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        !tmp.path().join("pdf-tools.skill.tar.gz").exists(),
        "--dry-run writes nothing"
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["key"], "pdf-tools");
    assert_eq!(doc["file_count"], 4);
    assert_eq!(doc["files"][3]["path"], "scripts/run.py");
    assert_eq!(doc["sha256"].as_str().unwrap().len(), 64);
    assert!(
        run.stderr.contains("Would pack `pdf-tools` (agentskills):"),
        "{}",
        run.stderr
    );
    // The manifest inside the archive.
    let run = skillc(tmp.path(), &["pack", "pdf-tools"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bytes = fs::read(tmp.path().join("pdf-tools.skill.tar.gz")).unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
    let mut names = Vec::new();
    let mut manifest = String::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let header = entry.header().clone();
        assert_eq!(header.entry_type(), tar::EntryType::Regular);
        assert_eq!((header.uid().unwrap(), header.gid().unwrap()), (0, 0));
        assert_eq!(header.username().unwrap(), Some(""));
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        let mode = header.mode().unwrap();
        assert_eq!(
            mode,
            if name.ends_with("run.py") {
                0o755
            } else {
                0o644
            },
            "{name}"
        );
        if name.ends_with(".skill-manifest.json") {
            std::io::Read::read_to_string(&mut entry, &mut manifest).unwrap();
        }
        names.push(name);
    }
    assert_eq!(
        names,
        [
            "pdf-tools/.skill-manifest.json",
            "pdf-tools/SKILL.md",
            "pdf-tools/assets/logo.txt",
            "pdf-tools/references/notes.md",
            "pdf-tools/scripts/run.py"
        ]
    );
    assert!(manifest.starts_with("{\n  \"manifest_version\": 1,\n  \"skill\": {\n    \"key\": \"pdf-tools\",\n    \"dialect\": \"agentskills\"\n  },\n  \"files\": [\n"), "{manifest}");
    assert!(manifest.ends_with("]\n}\n"));
    assert!(
        manifest.contains("\"path\": \"scripts/run.py\",\n      \"size\": 35,\n"),
        "{manifest}"
    );
    assert!(manifest.contains("\"executable\": true"));
    // gzip header: mtime 0, no name, OS byte 255.
    assert_eq!(&bytes[..4], &[0x1f, 0x8b, 8, 0]);
    assert_eq!(&bytes[4..8], &[0, 0, 0, 0]);
    assert_eq!(bytes[9], 255);
    drop(dir);
}

#[test]
fn packing_is_reproducible() {
    use std::os::unix::fs::PermissionsExt;
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    make_skill(a.path(), &ORDER);
    let mut reversed = ORDER;
    reversed.reverse();
    let dir_b = make_skill(b.path(), &reversed);
    // Touch every mtime and change modes that do not matter (no execute bit change).
    for entry in ["SKILL.md", "references/notes.md", "assets/logo.txt"] {
        let f = fs::File::options()
            .append(true)
            .open(dir_b.join(entry))
            .unwrap();
        f.set_modified(
            std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_234_567_890),
        )
        .unwrap();
        fs::set_permissions(dir_b.join(entry), fs::Permissions::from_mode(0o600)).unwrap();
    }
    for format in ["tar.gz", "zip"] {
        let ra = skillc(
            a.path(),
            &["pack", "pdf-tools", "--format", format, "-o", "out"],
        );
        assert_eq!(ra.code, Some(0), "{}", ra.stderr);
        // A different umask for the second run.
        let out = Command::new("sh")
            .current_dir(b.path())
            .arg("-c")
            .arg(format!(
                "umask 077 && exec {} pack pdf-tools --format {format} -o out",
                env!("CARGO_BIN_EXE_skillc")
            ))
            .env("HOME", b.path())
            .env_remove("SOURCE_DATE_EPOCH")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (x, y) = (
            fs::read(a.path().join("out")).unwrap(),
            fs::read(b.path().join("out")).unwrap(),
        );
        assert_eq!(x, y, "{format} archives differ");
        fs::remove_file(a.path().join("out")).unwrap();
        fs::remove_file(b.path().join("out")).unwrap();
    }
    // SOURCE_DATE_EPOCH sets the entry times.
    let r1 = skillc_env(
        a.path(),
        &["pack", "pdf-tools", "-o", "e1"],
        &[("SOURCE_DATE_EPOCH", "1700000000")],
    );
    assert_eq!(r1.code, Some(0));
    let r2 = skillc(a.path(), &["pack", "pdf-tools", "-o", "e2"]);
    assert_eq!(r2.code, Some(0));
    assert_ne!(
        fs::read(a.path().join("e1")).unwrap(),
        fs::read(a.path().join("e2")).unwrap()
    );
}

/// Keys, a signed archive and its bundle in `dir`.
fn signed(dir: &Path) -> (PathBuf, PathBuf) {
    make_skill(dir, &ORDER);
    assert_eq!(skillc(dir, &["keygen", "--out", "me"]).code, Some(0));
    let run = skillc(dir, &["pack", "pdf-tools", "--key", "me.key"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    (
        dir.join("pdf-tools.skill.tar.gz"),
        dir.join("pdf-tools.skill.tar.gz.sigstore.json"),
    )
}

#[test]
fn keys_bundles_and_verification() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let (archive, bundle) = signed(tmp.path());
    let key_mode = fs::metadata(tmp.path().join("me.key"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(key_mode, 0o600);
    assert!(
        fs::read_to_string(tmp.path().join("me.pub"))
            .unwrap()
            .starts_with("-----BEGIN PUBLIC KEY-----\n")
    );
    let doc: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&bundle).unwrap()).unwrap();
    assert_eq!(
        doc["mediaType"],
        "application/vnd.dev.sigstore.bundle.v0.3+json"
    );
    assert_eq!(
        doc["messageSignature"]["messageDigest"]["algorithm"],
        "SHA2_256"
    );
    let keys: Vec<&str> = doc
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["mediaType", "verificationMaterial", "messageSignature"]
    );
    let run = skillc(
        tmp.path(),
        &["verify", "pdf-tools.skill.tar.gz", "--key", "me.pub"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("OK: pdf-tools.skill.tar.gz (key hint "),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains(", skill pdf-tools)"), "{}", run.stderr);
    let run = skillc(
        tmp.path(),
        &[
            "verify",
            "pdf-tools.skill.tar.gz",
            "--key",
            "me.pub",
            "--format",
            "json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["ok"], true);
    let names: Vec<&str> = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bundle", "digest", "signature", "archive"]);
    // Without a key: usage error, unless integrity only is asked for.
    assert_eq!(
        skillc(tmp.path(), &["verify", "pdf-tools.skill.tar.gz"]).code,
        Some(2)
    );
    let run = skillc(
        tmp.path(),
        &[
            "verify",
            "pdf-tools.skill.tar.gz",
            "--insecure-skip-signature",
        ],
    );
    assert_eq!(run.code, Some(0));
    assert!(run.stderr.starts_with("INTEGRITY OK: "), "{}", run.stderr);
    assert!(!run.stderr.contains("\nOK"));
    // A wrong public key fails.
    assert_eq!(
        skillc(tmp.path(), &["keygen", "--out", "other"]).code,
        Some(0)
    );
    let run = skillc(
        tmp.path(),
        &["verify", "pdf-tools.skill.tar.gz", "--key", "other.pub"],
    );
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.starts_with(
            "FAIL: pdf-tools.skill.tar.gz: signature check failed: the bundle's key hint"
        ),
        "{}",
        run.stderr
    );
    // sign works on any file, and refuses to overwrite a bundle.
    write(&tmp.path().join("notes.txt"), "hello");
    assert_eq!(
        skillc(tmp.path(), &["sign", "notes.txt", "--key", "me.key"]).code,
        Some(0)
    );
    let run = skillc(tmp.path(), &["sign", "notes.txt", "--key", "me.key"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("already exists; pass --force"),
        "{}",
        run.stderr
    );
    assert_eq!(
        skillc(
            tmp.path(),
            &["sign", "notes.txt", "--key", "me.key", "--force"]
        )
        .code,
        Some(0)
    );
    assert_eq!(
        skillc(tmp.path(), &["verify", "notes.txt", "--key", "me.pub"]).code,
        Some(0)
    );
    drop((archive, bundle));
}

#[test]
fn encrypted_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let pw = [("SKILLC_KEY_PASSWORD", "correct horse")];
    let run = skillc_env(tmp.path(), &["keygen", "--out", "enc"], &pw);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        fs::read_to_string(tmp.path().join("enc.key"))
            .unwrap()
            .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    );
    write(&tmp.path().join("a.txt"), "a");
    let run = skillc(tmp.path(), &["sign", "a.txt", "--key", "enc.key"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: `enc.key` is encrypted: set SKILLC_KEY_PASSWORD to its password\n"
    );
    let run = skillc_env(
        tmp.path(),
        &["sign", "a.txt", "--key", "enc.key"],
        &[("SKILLC_KEY_PASSWORD", "wrong")],
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("cannot decrypt the key"),
        "{}",
        run.stderr
    );
    assert_eq!(
        skillc_env(tmp.path(), &["sign", "a.txt", "--key", "enc.key"], &pw).code,
        Some(0)
    );
    assert_eq!(
        skillc(tmp.path(), &["verify", "a.txt", "--key", "enc.pub"]).code,
        Some(0)
    );
}

#[test]
fn tampering_is_detected() {
    let tmp = tempfile::tempdir().unwrap();
    let (archive, bundle) = signed(tmp.path());
    let original = fs::read(&archive).unwrap();
    let pem = fs::read_to_string(tmp.path().join("me.pub")).unwrap();
    let key = skillc::sign::verifying_key(&pem).unwrap();
    let (parsed, signature) = skillc::sign::Bundle::parse(&fs::read(&bundle).unwrap()).unwrap();
    // Every single-byte flip of the archive fails check 2 (digest) or 3 (signature).
    for i in 0..original.len() {
        let mut bytes = original.clone();
        bytes[i] ^= 0x01;
        let digest = skillc::sign::check_digest(&signature, &bytes);
        let sig = skillc::sign::check_signature(&parsed, &signature, &key, &bytes);
        assert!(digest.is_err() && sig.is_err(), "flip at {i} not detected");
    }
    // And through the command, for a few positions.
    for i in [0, original.len() / 2, original.len() - 1] {
        let mut bytes = original.clone();
        bytes[i] ^= 0x80;
        fs::write(&archive, &bytes).unwrap();
        let run = skillc(
            tmp.path(),
            &["verify", "pdf-tools.skill.tar.gz", "--key", "me.pub"],
        );
        assert_eq!(run.code, Some(1));
        assert!(
            run.stderr
                .starts_with("FAIL: pdf-tools.skill.tar.gz: digest check failed"),
            "{}",
            run.stderr
        );
    }
    fs::write(&archive, &original).unwrap();
    // Flipping the bundle's digest or signature.
    let text = fs::read_to_string(&bundle).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (field, expected) in [
        ("digest", "digest check failed"),
        ("signature", "signature check failed"),
    ] {
        let value = if field == "digest" {
            doc["messageSignature"]["messageDigest"]["digest"]
                .as_str()
                .unwrap()
        } else {
            doc["messageSignature"]["signature"].as_str().unwrap()
        };
        let mut chars: Vec<char> = value.chars().collect();
        chars[10] = if chars[10] == 'A' { 'B' } else { 'A' };
        let flipped: String = chars.into_iter().collect();
        fs::write(&bundle, text.replace(value, &flipped)).unwrap();
        let run = skillc(
            tmp.path(),
            &["verify", "pdf-tools.skill.tar.gz", "--key", "me.pub"],
        );
        assert_eq!(run.code, Some(1), "{field}");
        assert!(run.stderr.contains(expected), "{field}: {}", run.stderr);
    }
}

/// Re-packs `archive` with `change` applied to its entries, as a hostile tool would, with a
/// correct gzip stream, and returns the new bytes.
fn repack(original: &[u8], change: impl Fn(&mut Vec<(String, Vec<u8>)>)) -> Vec<u8> {
    let mut entries = Vec::new();
    // Modes are kept, so that only the intended change differs from the manifest.
    let mut modes = std::collections::HashMap::new();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(original));
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        modes.insert(name.clone(), entry.header().mode().unwrap());
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut data).unwrap();
        entries.push((name, data));
    }
    change(&mut entries);
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    ));
    for (name, data) in &entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(modes.get(name).copied().unwrap_or(0o644));
        builder.append_data(&mut header, name, &data[..]).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

#[test]
fn altered_archives_fail_the_manifest_check() {
    let tmp = tempfile::tempdir().unwrap();
    make_skill(tmp.path(), &ORDER);
    assert_eq!(skillc(tmp.path(), &["pack", "pdf-tools"]).code, Some(0));
    let original = fs::read(tmp.path().join("pdf-tools.skill.tar.gz")).unwrap();
    type Change = Box<dyn Fn(&mut Vec<(String, Vec<u8>)>)>;
    let cases: Vec<(&str, Change, &str)> = vec![
        (
            "added",
            Box::new(|e| e.push(("pdf-tools/extra.md".into(), b"x".to_vec()))),
            "`extra.md` is not listed in the manifest",
        ),
        (
            "removed",
            Box::new(|e| {
                e.retain(|(n, _)| !n.ends_with("notes.md"));
            }),
            "`references/notes.md` is listed in the manifest but missing",
        ),
        (
            "renamed",
            Box::new(|e| {
                for (n, _) in e.iter_mut() {
                    if n.ends_with("logo.txt") {
                        *n = "pdf-tools/assets/logo2.txt".into();
                    }
                }
            }),
            "`assets/logo2.txt` is not listed in the manifest",
        ),
        (
            "altered",
            Box::new(|e| {
                for (n, d) in e.iter_mut() {
                    if n.ends_with("SKILL.md") {
                        let at = d.len() - 2;
                        d[at] = b'!';
                    }
                }
            }),
            "`SKILL.md` does not match its SHA-256 in the manifest",
        ),
        (
            "reordered",
            Box::new(|e| e.rotate_left(1)),
            "not the manifest",
        ),
    ];
    for (name, change, reason) in cases {
        fs::write(tmp.path().join("bad.tar.gz"), repack(&original, change)).unwrap();
        let run = skillc(
            tmp.path(),
            &["verify", "bad.tar.gz", "--insecure-skip-signature"],
        );
        assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with("FAIL: bad.tar.gz: archive check failed: "),
            "{name}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(reason), "{name}: {}", run.stderr);
        let run = skillc(tmp.path(), &["unpack", "bad.tar.gz", "-C", "dest"]);
        assert_eq!(run.code, Some(1), "{name}");
        assert!(
            !tmp.path().join("dest/pdf-tools").exists(),
            "{name}: unpacked anyway"
        );
    }
}

#[test]
fn nothing_is_replaced_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    make_skill(tmp.path(), &ORDER);
    assert_eq!(skillc(tmp.path(), &["keygen"]).code, Some(0));
    let key = fs::read(tmp.path().join("skillc.key")).unwrap();
    let run = skillc(tmp.path(), &["keygen"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("`skillc.key` already exists"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read(tmp.path().join("skillc.key")).unwrap(), key);
    write(&tmp.path().join("pdf-tools.skill.tar.gz"), "precious");
    let run = skillc(tmp.path(), &["pack", "pdf-tools"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        fs::read_to_string(tmp.path().join("pdf-tools.skill.tar.gz")).unwrap(),
        "precious"
    );
    assert_eq!(
        skillc(tmp.path(), &["pack", "pdf-tools", "--force"]).code,
        Some(0)
    );
    assert_ne!(
        fs::read_to_string(tmp.path().join("pdf-tools.skill.tar.gz")).unwrap_or_default(),
        "precious"
    );
    let leftovers: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".skillc-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A failed write (unwritable directory) leaves nothing behind.
    let ro = tmp.path().join("ro");
    fs::create_dir(&ro).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    if fs::write(ro.join("probe"), "x").is_err() {
        let run = skillc(tmp.path(), &["pack", "pdf-tools", "-o", "ro/out.tar.gz"]);
        assert_eq!(run.code, Some(3), "{}", run.stderr);
        assert_eq!(fs::read_dir(&ro).unwrap().count(), 0);
    }
}

#[test]
fn escaping_symlinks_and_errors_stop_packing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = make_skill(tmp.path(), &ORDER);
    std::os::unix::fs::symlink("/etc/hostname", dir.join("assets/host")).unwrap();
    let run = skillc(tmp.path(), &["pack", "pdf-tools", "--no-validate"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .contains("symlink `assets/host` points outside the skill"),
        "{}",
        run.stderr
    );
    fs::remove_file(dir.join("assets/host")).unwrap();
    write(
        &dir.join("SKILL.md"),
        "---\nname: Wrong Name\ndescription: x\n---\nBody\n",
    );
    let run = skillc(tmp.path(), &["pack", "pdf-tools"]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("error[SK101]"), "{}", run.stderr);
    assert!(!tmp.path().join("pdf-tools.skill.tar.gz").exists());
}

#[test]
fn bundles_verify_with_sigstore_js() {
    let interop = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop");
    if !interop.join("node_modules/@sigstore/verify").is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "@sigstore/verify is missing: run `npm ci` in tests/interop (.ci/run does)"
        );
        eprintln!("skipping: run `npm ci` in tests/interop");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (archive, bundle) = signed(tmp.path());
    let node = |artifact: &Path, bundle: &Path, key: &Path| {
        Command::new("node")
            .arg(interop.join("verify.mjs"))
            .args([artifact, bundle, key])
            .output()
            .unwrap()
    };
    let out = node(&archive, &bundle, &tmp.path().join("me.pub"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "verified");
    // Tampered artifact and wrong key are rejected by the independent verifier too.
    let mut bytes = fs::read(&archive).unwrap();
    bytes[20] ^= 1;
    let tampered = tmp.path().join("tampered.tar.gz");
    fs::write(&tampered, &bytes).unwrap();
    assert_eq!(
        node(&tampered, &bundle, &tmp.path().join("me.pub"))
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        skillc(tmp.path(), &["keygen", "--out", "other"]).code,
        Some(0)
    );
    assert_eq!(
        node(&archive, &bundle, &tmp.path().join("other.pub"))
            .status
            .code(),
        Some(1)
    );
    // An encrypted key's bundle too.
    let run = skillc_env(
        tmp.path(),
        &["keygen", "--out", "enc"],
        &[("SKILLC_KEY_PASSWORD", "pw")],
    );
    assert_eq!(run.code, Some(0));
    let run = skillc_env(
        tmp.path(),
        &["sign", "tampered.tar.gz", "--key", "enc.key"],
        &[("SKILLC_KEY_PASSWORD", "pw")],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = node(
        &tampered,
        &tmp.path().join("tampered.tar.gz.sigstore.json"),
        &tmp.path().join("enc.pub"),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn zip_archives_verify_and_unpack() {
    let tmp = tempfile::tempdir().unwrap();
    make_skill(tmp.path(), &ORDER);
    assert_eq!(skillc(tmp.path(), &["keygen", "--out", "me"]).code, Some(0));
    let run = skillc(
        tmp.path(),
        &["pack", "pdf-tools", "--format", "zip", "--key", "me.key"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(tmp.path(), &["verify", "pdf-tools.zip", "--key", "me.pub"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // A bundle or a trust named without a key or a signer to check it against asks for a
    // verification that would not happen: refused, nothing unpacked.
    for asked in [
        &["--bundle", "pdf-tools.zip.sigstore.json"][..],
        &["--staging"],
    ] {
        let mut args = vec!["unpack", "pdf-tools.zip", "-C", "out"];
        args.extend_from_slice(asked);
        let run = skillc(tmp.path(), &args);
        assert_eq!(run.code, Some(2), "{asked:?}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with("error: nothing would check the signature: "),
            "{}",
            run.stderr
        );
        assert!(!tmp.path().join("out").exists());
    }
    let run = skillc(
        tmp.path(),
        &["unpack", "pdf-tools.zip", "--key", "me.pub", "-C", "out"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(tmp.path(), &["verify", "out/pdf-tools"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("INTEGRITY OK: out/pdf-tools"),
        "{}",
        run.stderr
    );
    // The manifest is not signed: asking for a signer cannot be answered with an integrity
    // check and exit 0.
    for asked in [
        &["--key", "me.pub"][..],
        &[
            "--certificate-identity",
            "a@example.com",
            "--certificate-oidc-issuer",
            "https://github.com/login/oauth",
        ],
        &["--insecure-ignore-identity"],
        &["--staging"],
    ] {
        let mut args = vec!["verify", "out/pdf-tools"];
        args.extend_from_slice(asked);
        let run = skillc(tmp.path(), &args);
        assert_eq!(run.code, Some(2), "{asked:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with(
                "error: `out/pdf-tools` holds no signature to check: no `SKILL.sigstore` \
                 (pass --bundle PATH for one elsewhere), and an unpacked skill's \
                 `.skill-manifest.json` is not signed"
            ),
            "{}",
            run.stderr
        );
    }
    // --format json answers in JSON here too, not with an empty stdout.
    let run = skillc(tmp.path(), &["verify", "out/pdf-tools", "--format", "json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["artifact"], "out/pdf-tools");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["skill"], "pdf-tools");
    assert_eq!(doc["checks"][0]["name"], "manifest");
    write(&tmp.path().join("out/pdf-tools/extra.md"), "x");
    let run = skillc(tmp.path(), &["verify", "out/pdf-tools", "--format", "json"]);
    assert_eq!(run.code, Some(1));
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["ok"], false);
    assert!(
        doc["checks"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("`extra.md` is not listed in the manifest"),
        "{doc}"
    );
    let run = skillc(tmp.path(), &["verify", "out/pdf-tools"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .contains("`extra.md` is not listed in the manifest"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_runtime_s_own_fields_pack_and_verify() {
    // A Claude Code skill may use Claude Code's fields; the archive, which any runtime may
    // install, is verified with every runtime as a target, so they are not unknown there either.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".claude/skills/tuned");
    write(
        &dir.join("SKILL.md"),
        "---\nname: tuned\ndescription: Use when the answer must be careful.\neffort: high\n---\n\nSteps.\n",
    );
    let run = skillc(tmp.path(), &["pack", ".claude/skills/tuned"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(
        tmp.path(),
        &["verify", "tuned.skill.tar.gz", "--insecure-skip-signature"],
    );
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    // Outside any runtime's folder no runtime is detected: the field is an info (SK305) and
    // pack goes on; with the open specification named as the target it is unknown, and pack
    // refuses it.
    let plain = tmp.path().join("plain/tuned");
    write(
        &plain.join("SKILL.md"),
        "---\nname: tuned\ndescription: Use when the answer must be careful.\neffort: high\n---\n\nSteps.\n",
    );
    let run = skillc(tmp.path(), &["pack", "plain/tuned", "-o", "out"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    write(&tmp.path().join("skillc.toml"), "targets = [\"spec\"]\n");
    let run = skillc(tmp.path(), &["pack", "plain/tuned", "-o", "out2"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("error[SK013] unknown field `effort`"),
        "{}",
        run.stderr
    );
}
