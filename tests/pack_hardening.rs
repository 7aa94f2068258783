//! `pack` publishes only what the author meant: never its own output, bundle or signing key,
//! never a private key without `--allow-secrets`, nothing written before the key is read, and
//! nothing its own `verify` would refuse.

mod common;

use common::{skill, skillc, write};

/// The paths listed in an archive's manifest, via `pack --list`-like JSON output.
fn packed_paths(dir: &std::path::Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["pack", "--json"];
    all.extend_from_slice(args);
    let run = skillc(dir, &all);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

/// Packing in the skill directory itself: the key pair, then an archive, then another.
#[test]
fn own_output_bundle_and_key_are_never_packed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    assert_eq!(skillc(&dir, &["keygen"]).code, Some(0));
    assert_eq!(
        packed_paths(&dir, &["--key", "skillc.key"]),
        ["SKILL.md", "skillc.pub"]
    );
    assert!(dir.join("demo.skill.tar.gz.sigstore.json").is_file());
    // A second pack sees the first archive and its bundle in the directory: neither is packed.
    assert_eq!(
        packed_paths(&dir, &["--key", "skillc.key", "--force"]),
        ["SKILL.md", "skillc.pub"]
    );
    // The same with an explicit output name and the zip format.
    assert_eq!(
        packed_paths(
            &dir,
            &["--format", "zip", "-o", "out.zip", "--key", "./skillc.key"]
        ),
        ["SKILL.md", "skillc.pub"]
    );
    assert_eq!(
        packed_paths(&dir, &["--format", "zip", "--force", "--key", "skillc.key"]),
        ["SKILL.md", "skillc.pub"]
    );
}

#[test]
fn private_keys_are_refused_unless_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    std::fs::create_dir(dir.join("assets")).unwrap();
    assert_eq!(
        skillc(&dir, &["keygen", "--out", "assets/release"]).code,
        Some(0)
    );
    std::fs::rename(dir.join("assets/release.key"), dir.join("assets/notes.txt")).unwrap();
    let run = skillc(&dir, &["pack"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: refusing to pack `assets/notes.txt`: it holds a private key; remove it, list it in .skillignore, or pass --allow-secrets\n"
    );
    assert!(!dir.join("demo.skill.tar.gz").exists());
    write(&dir.join("id_rsa_backup"), "not really\n");
    std::fs::remove_file(dir.join("assets/notes.txt")).unwrap();
    let run = skillc(&dir, &["pack"]);
    assert_eq!(
        run.stderr,
        "error: refusing to pack `id_rsa_backup`: its name looks like a secret (SK411); remove it, list it in .skillignore, or pass --allow-secrets\n"
    );
    assert_eq!(
        packed_paths(&dir, &["--allow-secrets"]),
        ["SKILL.md", "assets/release.pub", "id_rsa_backup"]
    );
    // A certificate is not a secret.
    std::fs::remove_file(dir.join("id_rsa_backup")).unwrap();
    write(
        &dir.join("assets/ca.pem"),
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    );
    assert_eq!(
        packed_paths(&dir, &["--force"]),
        ["SKILL.md", "assets/ca.pem", "assets/release.pub"]
    );
}

#[test]
fn a_bad_key_leaves_no_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    write(&tmp.path().join("bad.key"), "junk\n");
    let run = skillc(&dir, &["pack", "--key", "../bad.key"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("error: `../bad.key`: "),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "only SKILL.md may remain"
    );
}

#[test]
fn pack_refuses_what_verify_would_refuse() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    // 2 MB of zeros compress over 100:1, which the reader refuses as an expansion bomb.
    write(&dir.join("assets/zeros.bin"), vec![0u8; 2 << 20]);
    let run = skillc(&dir, &["pack"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .starts_with("error: cannot pack `.`: `skillc verify` would refuse the archive: "),
        "{}",
        run.stderr
    );
    assert!(!dir.join("demo.skill.tar.gz").exists());
}

#[test]
fn pack_refuses_more_files_than_an_archive_may_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    let assets = dir.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    for i in 0..10_000 {
        std::fs::write(assets.join(format!("{i}.txt")), "x").unwrap();
    }
    let run = skillc(&dir, &["pack", "--no-validate"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: cannot pack `.`: the skill holds more than 9999 files; an archive holds at most 10000 entries with its manifest\n"
    );
}

/// verify lints the packed files with default settings and every runtime as a target: a field
/// only this repository's config allows (one no runtime reads), or a link to a file that is not
/// packed, stops pack instead of failing verify later.
#[test]
fn pack_validates_what_verify_will_see() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    write(
        &dir.join("SKILL.md"),
        "---\nname: demo\ndescription: Use when testing demo.\nowner: qa\n---\nSee [notes](.notes/a.md).\n",
    );
    write(&dir.join(".notes/a.md"), "hidden notes\n");
    write(
        &tmp.path().join("skillc.toml"),
        "extra-fields = [\"owner\"]\n",
    );
    let run = skillc(tmp.path(), &["validate", "--format", "concise", "demo"]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let run = skillc(tmp.path(), &["pack", "demo"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: cannot pack `demo`: `skillc verify` would refuse the archive: the skill inside does \
         not validate: 2 error(s), first: SK013 unknown field `owner` for the agentskills dialect \
         (verify lints with default \
         settings: no skillc.toml, only packed files)\n"
    );
    assert!(!tmp.path().join("demo.skill.tar.gz").exists());
}

/// Packing from outside the skill: an archive packed earlier inside it, and a hard link to the
/// key, are not packed.
#[test]
fn earlier_archives_and_hard_links_to_the_key_are_not_packed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    assert_eq!(skillc(tmp.path(), &["keygen", "--out", "k"]).code, Some(0));
    assert_eq!(skillc(&dir, &["pack", "--key", "../k.key"]).code, Some(0));
    assert!(dir.join("demo.skill.tar.gz.sigstore.json").is_file());
    std::fs::hard_link(tmp.path().join("k.key"), dir.join("release.key")).unwrap();
    let run = skillc(
        tmp.path(),
        &[
            "pack",
            "demo",
            "--key",
            "k.key",
            "-o",
            "out.tar.gz",
            "--json",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let paths: Vec<&str> = doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["SKILL.md"]);
}

/// `.skillignore` is read like every untrusted file: never through a link, never a FIFO.
#[test]
fn skillignore_is_read_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    std::os::unix::fs::symlink("/dev/zero", dir.join(".skillignore")).unwrap();
    let run = skillc(&dir, &["pack"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: cannot pack `.`: reading `.skillignore`: a symbolic link (not followed)\n"
    );
    std::fs::remove_file(dir.join(".skillignore")).unwrap();
    let c = std::ffi::CString::new(dir.join(".skillignore").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let run = skillc(&dir, &["pack"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: cannot pack `.`: reading `.skillignore`: not a regular file\n"
    );
}

/// An earlier archive of the skill and its bundle, under names pack did not choose, are left
/// out (and named); any other archive is content.
#[test]
fn earlier_archives_under_other_names_are_recognised() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    assert_eq!(skillc(tmp.path(), &["keygen", "--out", "k"]).code, Some(0));
    let run = skillc(&dir, &["pack", "-o", "release.tgz", "--key", "../k.key"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    std::fs::copy(dir.join("release.tgz"), dir.join("old-copy.bin")).unwrap();
    let other = skill(tmp.path(), "other");
    assert_eq!(
        skillc(&other, &["pack", "-o", "../other.tgz"]).code,
        Some(0)
    );
    std::fs::copy(tmp.path().join("other.tgz"), dir.join("assets-other.tgz")).unwrap();
    let run = skillc(&dir, &["pack", "--list"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "SKILL.md\nassets-other.tgz\n");
    assert_eq!(
        run.stderr,
        "note: not packing `old-copy.bin`: an archive of this skill\n\
         note: not packing `release.tgz`: an archive of this skill\n\
         note: not packing `release.tgz.sigstore.json`: a signature bundle\n"
    );
}

/// Names in pack's errors are escaped like everywhere else.
#[test]
fn pack_errors_escape_names() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = skill(tmp.path(), "demo");
    std::os::unix::fs::symlink("nowhere", dir.join("l\u{1b}[2J")).unwrap();
    let run = skillc(&dir, &["pack"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "error: cannot pack `.`: symlink `l\\u{1b}[2J` is dangling (SK408)\n"
    );
}
