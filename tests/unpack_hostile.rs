//! `skillc unpack` against hostile archives (package.md, `skillc unpack`): every archive below
//! must be refused with exit 1, a `FAIL: ` line naming the reason and `nothing was unpacked`, and
//! must leave DEST empty and everything outside it untouched. A positive control checks that a
//! real packed skill does unpack, and that `--force` is needed to replace it.
//!
//! The archives are built here, byte by byte where the `tar` crate would refuse the path. Each
//! hostile archive starts with a well-formed `good/.skill-manifest.json` and `good/SKILL.md`, so
//! the hostile entry, not a missing manifest, is what has to be refused (`base_archives_unpack`
//! proves the base alone is accepted).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use flate2::Compression;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};
use tar::{EntryType, Header};
use zip::ZipWriter;
use zip::write::SimpleFileOptions;

const KEY: &str = "good";
const SKILL_MD: &[u8] = b"---\nname: good\ndescription: Use when testing.\n---\n\nBody.\n";
const SENTINEL: &[u8] = b"sentinel: must never change\n";

// ---------------------------------------------------------------------------------------------
// The sandbox: a tempdir with an empty DEST, a sentinel outside it, and the archive.

struct Sandbox {
    tmp: tempfile::TempDir,
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Sandbox {
    fn new() -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("dest")).unwrap();
        fs::create_dir_all(tmp.path().join("outside")).unwrap();
        fs::write(tmp.path().join("outside/sentinel.txt"), SENTINEL).unwrap();
        Sandbox { tmp }
    }

    fn root(&self) -> &Path {
        self.tmp.path()
    }

    fn dest(&self) -> PathBuf {
        self.root().join("dest")
    }

    /// `<tmp>/evil.txt`, where the path-escaping archives aim.
    fn evil(&self) -> PathBuf {
        self.root().join("evil.txt")
    }

    /// `<tmp>/outside`, where the link archives point.
    fn outside(&self) -> PathBuf {
        self.root().join("outside")
    }

    fn skillc(&self, args: &[&str]) -> Run {
        let out = Command::new(env!("CARGO_BIN_EXE_skillc"))
            .current_dir(self.root())
            .env("HOME", self.root().join("home"))
            .env_remove("SKILLC_FORMAT")
            .env_remove("SKILLC_OUTPUT_FORMAT")
            .env_remove("NO_COLOR")
            .args(args)
            .output()
            .unwrap();
        Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    fn unpack(&self, archive: &Path, extra: &[&str]) -> Run {
        let archive = archive.to_str().unwrap();
        let dest = self.dest();
        let mut args = vec!["unpack", archive, "-C", dest.to_str().unwrap()];
        args.extend_from_slice(extra);
        self.skillc(&args)
    }

    /// Writes `bytes` as `<tmp>/{name}`, unpacks it and checks that it is refused for `reason`
    /// (any one of `reasons`) and that nothing was written anywhere. Panics with every problem
    /// found and the observed output.
    fn assert_refused(&self, name: &str, bytes: &[u8], reasons: &[&str]) {
        let archive = self.root().join(name);
        fs::write(&archive, bytes).unwrap();
        let before = snapshot(self.root());
        let run = self.unpack(&archive, &[]);
        let after = snapshot(self.root());

        let mut problems = Vec::new();
        if run.code != Some(1) {
            problems.push(format!("exit code {:?}, expected Some(1)", run.code));
        }
        let first = run.stderr.lines().next().unwrap_or("");
        if !first.starts_with("FAIL: ") {
            problems.push("stderr does not start with `FAIL: `".to_string());
        }
        if !reasons.iter().any(|r| first.contains(r)) {
            problems.push(format!(
                "the FAIL line names none of the reasons {reasons:?}"
            ));
        }
        if !run.stderr.lines().any(|l| l == "nothing was unpacked") {
            problems.push("no `nothing was unpacked` line".to_string());
        }
        let left: Vec<String> = fs::read_dir(self.dest())
            .map(|rd| {
                rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_else(|e| vec![format!("<DEST unreadable: {e}>")]);
        if !left.is_empty() {
            problems.push(format!("DEST is not empty: {left:?}"));
        }
        if fs::read(self.outside().join("sentinel.txt"))
            .ok()
            .as_deref()
            != Some(SENTINEL)
        {
            problems.push("the sentinel outside DEST changed".to_string());
        }
        for target in [self.evil(), self.outside().join("evil.txt")] {
            if target.symlink_metadata().is_ok() {
                problems.push(format!("`{}` was created", target.display()));
            }
        }
        if before != after {
            problems.push(format!(
                "the sandbox changed:\n{}",
                diff(&before, &after).join("\n")
            ));
        }
        assert!(
            problems.is_empty(),
            "{name}: unpack misbehaved:\n  - {}\n--- exit: {:?}\n--- stdout:\n{}--- stderr:\n{}",
            problems.join("\n  - "),
            run.code,
            run.stdout,
            run.stderr
        );
    }
}

/// Everything under `root`: path → kind, mode and content (or link target).
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, String>) {
        let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let meta = path.symlink_metadata().unwrap();
            let mode = mode_of(&meta);
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap();
                out.insert(rel, format!("symlink -> {}", target.display()));
            } else if meta.is_dir() {
                out.insert(rel, format!("dir {mode:o}"));
                walk(root, &path, out);
            } else if meta.is_file() {
                let digest = Sha256::digest(fs::read(&path).unwrap());
                out.insert(rel, format!("file {mode:o} {}", hex(&digest)));
            } else {
                out.insert(rel, format!("special {mode:o}"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn diff(before: &BTreeMap<PathBuf, String>, after: &BTreeMap<PathBuf, String>) -> Vec<String> {
    let mut lines = Vec::new();
    for (path, was) in before {
        match after.get(path) {
            None => lines.push(format!("    removed {} ({was})", path.display())),
            Some(now) if now != was => {
                lines.push(format!("    changed {} ({was} -> {now})", path.display()));
            }
            Some(_) => {}
        }
    }
    for (path, now) in after {
        if !before.contains_key(path) {
            lines.push(format!("    added {} ({now})", path.display()));
        }
    }
    lines
}

#[cfg(unix)]
fn mode_of(meta: &fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn mode_of(_: &fs::Metadata) -> u32 {
    0
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---------------------------------------------------------------------------------------------
// Building archives.

/// A manifest for `good/` listing `files` (path below `good/`, contents), sorted by path.
fn manifest(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut files: Vec<_> = files.to_vec();
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let listed: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, bytes)| {
            serde_json::json!({
                "path": path,
                "size": bytes.len(),
                "sha256": hex(&Sha256::digest(bytes)),
                "executable": false,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "manifest_version": 1,
        "skill": {"key": KEY, "dialect": "agentskills"},
        "files": listed,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap();
    text.push('\n');
    text.into_bytes()
}

/// The base entries every hostile archive starts with: a manifest that lists `SKILL.md`, then
/// `SKILL.md` itself.
fn base_entries() -> Vec<(String, Vec<u8>)> {
    vec![
        (
            format!("{KEY}/.skill-manifest.json"),
            manifest(&[("SKILL.md", SKILL_MD)]),
        ),
        (format!("{KEY}/SKILL.md"), SKILL_MD.to_vec()),
    ]
}

/// A tar header with a raw name (and link name), written without the `tar` crate's path checks.
fn header(name: &[u8], kind: EntryType, size: u64, link: Option<&[u8]>) -> Header {
    let mut h = Header::new_gnu();
    let old = h.as_old_mut();
    assert!(
        name.len() <= old.name.len(),
        "name too long for a raw header"
    );
    old.name[..name.len()].copy_from_slice(name);
    if let Some(link) = link {
        assert!(
            link.len() <= old.linkname.len(),
            "link too long for a raw header"
        );
        old.linkname[..link.len()].copy_from_slice(link);
    }
    h.set_entry_type(kind);
    h.set_size(size);
    h.set_mode(if kind == EntryType::Symlink {
        0o777
    } else {
        0o644
    });
    h.set_uid(0);
    h.set_gid(0);
    h.set_mtime(1_700_000_000);
    h.set_cksum();
    h
}

/// A tar stream assembled by hand, so that headers may lie about their data.
#[derive(Default)]
struct RawTar {
    bytes: Vec<u8>,
}

impl RawTar {
    /// Starts with the base entries.
    fn based() -> RawTar {
        let mut tar = RawTar::default();
        for (path, data) in base_entries() {
            tar.file(path.as_bytes(), &data);
        }
        tar
    }

    /// A header followed by exactly `data`, padded to the next 512-byte block.
    fn entry(&mut self, header: &Header, data: &[u8]) -> &mut RawTar {
        self.bytes.extend_from_slice(header.as_bytes());
        self.raw(data);
        self.pad();
        self
    }

    fn file(&mut self, name: &[u8], data: &[u8]) -> &mut RawTar {
        let h = header(name, EntryType::Regular, data.len() as u64, None);
        self.entry(&h, data)
    }

    fn raw(&mut self, data: &[u8]) -> &mut RawTar {
        self.bytes.extend_from_slice(data);
        self
    }

    fn pad(&mut self) -> &mut RawTar {
        let rem = self.bytes.len() % 512;
        if rem != 0 {
            self.bytes.resize(self.bytes.len() + 512 - rem, 0);
        }
        self
    }

    /// Adds the end-of-archive blocks and gzips the stream.
    fn gz(&mut self) -> Vec<u8> {
        self.pad();
        self.bytes.extend_from_slice(&[0; 1024]);
        gzip(&self.bytes)
    }

    /// Gzips the stream as it is, without end-of-archive blocks.
    fn gz_unterminated(&self) -> Vec<u8> {
        gzip(&self.bytes)
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// The base entries plus one extra raw-named entry of kind `kind`.
fn tar_with(name: &[u8], kind: EntryType, data: &[u8], link: Option<&[u8]>) -> Vec<u8> {
    let mut tar = RawTar::based();
    let h = header(name, kind, data.len() as u64, link);
    tar.entry(&h, data).gz()
}

/// A zip of the base entries plus `extra` (name, contents, unix mode or `None` for a symlink
/// to the contents).
fn zip_with(extra: &[(&str, &[u8], Option<u32>)]) -> Vec<u8> {
    let mut zip = ZipWriter::new(io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().unix_permissions(0o644);
    for (path, data) in base_entries() {
        zip.start_file(path, options).unwrap();
        zip.write_all(&data).unwrap();
    }
    for (name, data, mode) in extra {
        match mode {
            Some(mode) => {
                // `unix_permissions` keeps only the permission bits; a file type needs the raw
                // external attributes.
                let options = if mode & 0o170000 != 0 {
                    options.external_attributes(mode << 16)
                } else {
                    options.unix_permissions(*mode)
                };
                zip.start_file(*name, options).unwrap();
                zip.write_all(data).unwrap();
            }
            None => {
                let target = std::str::from_utf8(data).unwrap();
                zip.add_symlink(*name, target, options.unix_permissions(0o120777))
                    .unwrap();
            }
        }
    }
    zip.finish().unwrap().into_inner()
}

fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_str().unwrap().as_bytes().to_vec()
}

// ---------------------------------------------------------------------------------------------
// Controls: the base archives are accepted, and a real packed skill unpacks.

#[test]
fn base_archives_unpack() {
    for (name, bytes) in [
        ("base.tar.gz", RawTar::based().gz()),
        ("base.zip", zip_with(&[])),
    ] {
        let sandbox = Sandbox::new();
        let archive = sandbox.root().join(name);
        fs::write(&archive, bytes).unwrap();
        let run = sandbox.unpack(&archive, &[]);
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
        let got = fs::read(sandbox.dest().join("good/SKILL.md")).unwrap();
        assert_eq!(got, SKILL_MD, "{name}");
        assert_eq!(dir_names(&sandbox.dest()), ["good"], "{name}");
    }
}

fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn packed_skill_unpacks_and_needs_force_to_replace() {
    for format in ["tar.gz", "zip"] {
        let sandbox = Sandbox::new();
        let src = sandbox.root().join("src/good");
        fs::create_dir_all(&src).unwrap();
        fs::write(src.join("SKILL.md"), SKILL_MD).unwrap();
        let archive = sandbox.root().join(format!("good.{format}"));
        let run = sandbox.skillc(&[
            "pack",
            src.to_str().unwrap(),
            "--format",
            format,
            "-o",
            archive.to_str().unwrap(),
        ]);
        assert_eq!(run.code, Some(0), "{format}: pack: {}", run.stderr);

        // A fresh unpack.
        let run = sandbox.unpack(&archive, &[]);
        assert_eq!(run.code, Some(0), "{format}: unpack: {}", run.stderr);
        let skill_md = sandbox.dest().join("good/SKILL.md");
        assert_eq!(fs::read(&skill_md).unwrap(), SKILL_MD, "{format}");
        assert!(
            sandbox.dest().join("good/.skill-manifest.json").is_file(),
            "{format}"
        );
        #[cfg(unix)]
        {
            let mode = mode_of(&fs::metadata(&skill_md).unwrap());
            assert_eq!(mode, 0o644, "{format}: SKILL.md mode {mode:o}");
        }
        assert_eq!(dir_names(&sandbox.dest()), ["good"], "{format}");

        // A local change marks the existing tree; without --force it must survive untouched.
        fs::write(sandbox.dest().join("good/local.txt"), b"mine\n").unwrap();
        let before = snapshot(sandbox.root());
        let run = sandbox.unpack(&archive, &[]);
        assert_eq!(run.code, Some(2), "{format}: no --force: {}", run.stderr);
        assert!(
            run.stderr.contains("already exists") && run.stderr.contains("--force"),
            "{format}: {}",
            run.stderr
        );
        let after = snapshot(sandbox.root());
        assert!(
            before == after,
            "{format}: the tree changed without --force:\n{}",
            diff(&before, &after).join("\n")
        );

        // With --force the tree is replaced, and nothing is left beside it.
        let run = sandbox.unpack(&archive, &["--force"]);
        assert_eq!(run.code, Some(0), "{format}: --force: {}", run.stderr);
        assert!(
            !sandbox.dest().join("good/local.txt").exists(),
            "{format}: not replaced"
        );
        assert_eq!(fs::read(&skill_md).unwrap(), SKILL_MD, "{format}");
        assert_eq!(dir_names(&sandbox.dest()), ["good"], "{format}");
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile archives. Each must be refused, leaving nothing behind.

const DOTDOT: &str = "has an empty, `.` or `..` path component";

#[test]
fn tar_dotdot_path() {
    let sandbox = Sandbox::new();
    // From DEST, `good/../../evil.txt` is `<tmp>/evil.txt`.
    let tar = tar_with(b"good/../../evil.txt", EntryType::Regular, b"pwned\n", None);
    sandbox.assert_refused("dotdot.tar.gz", &tar, &[DOTDOT]);
    let tar = tar_with(b"good/../evil.txt", EntryType::Regular, b"pwned\n", None);
    sandbox.assert_refused("dotdot1.tar.gz", &tar, &[DOTDOT]);
}

#[test]
fn tar_dotdot_in_gnu_long_name() {
    // The path comes from a GNU long-name entry, not the header's name field.
    let sandbox = Sandbox::new();
    let long = format!("good/{}/../../../evil.txt", "d".repeat(120));
    let mut tar = RawTar::based();
    let mut name = long.into_bytes();
    name.push(0);
    let h = header(
        b"././@LongLink",
        EntryType::GNULongName,
        name.len() as u64,
        None,
    );
    tar.entry(&h, &name);
    let h = header(b"good/short", EntryType::Regular, 6, None);
    tar.entry(&h, b"pwned\n");
    sandbox.assert_refused("longname.tar.gz", &tar.gz(), &[DOTDOT]);
}

#[test]
fn tar_absolute_path() {
    let sandbox = Sandbox::new();
    let evil = path_bytes(&sandbox.evil());
    let tar = tar_with(&evil, EntryType::Regular, b"pwned\n", None);
    sandbox.assert_refused("absolute.tar.gz", &tar, &["has an absolute path"]);
}

#[test]
fn tar_drive_letter_path() {
    let sandbox = Sandbox::new();
    let tar = tar_with(b"C:/evil.txt", EntryType::Regular, b"pwned\n", None);
    sandbox.assert_refused("drive.tar.gz", &tar, &["has an absolute path"]);
}

#[test]
fn tar_symlink() {
    let sandbox = Sandbox::new();
    let target = path_bytes(&sandbox.outside().join("sentinel.txt"));
    let tar = tar_with(b"good/link", EntryType::Symlink, b"", Some(&target));
    sandbox.assert_refused("symlink.tar.gz", &tar, &["is a symbolic link"]);
}

#[test]
fn tar_hard_link() {
    let sandbox = Sandbox::new();
    let target = path_bytes(&sandbox.outside().join("sentinel.txt"));
    let tar = tar_with(b"good/hard", EntryType::Link, b"", Some(&target));
    sandbox.assert_refused("hardlink.tar.gz", &tar, &["is a hard link"]);
}

#[test]
fn tar_symlink_then_file_through_it() {
    // `good/link -> <tmp>/outside`, then `good/link/evil.txt` would land in `<tmp>/outside`.
    let sandbox = Sandbox::new();
    let target = path_bytes(&sandbox.outside());
    let mut tar = RawTar::based();
    let h = header(b"good/link", EntryType::Symlink, 0, Some(&target));
    tar.entry(&h, b"");
    tar.file(b"good/link/evil.txt", b"pwned\n");
    sandbox.assert_refused("symlink-dir.tar.gz", &tar.gz(), &["is a symbolic link"]);
}

#[test]
fn tar_char_device() {
    let sandbox = Sandbox::new();
    let mut h = header(b"good/null", EntryType::Char, 0, None);
    h.set_device_major(1).unwrap();
    h.set_device_minor(3).unwrap();
    h.set_cksum();
    let tar = RawTar::based().entry(&h, b"").gz();
    sandbox.assert_refused("chardev.tar.gz", &tar, &["is a device"]);
}

#[test]
fn tar_block_device() {
    let sandbox = Sandbox::new();
    let mut h = header(b"good/sda", EntryType::Block, 0, None);
    h.set_device_major(8).unwrap();
    h.set_device_minor(0).unwrap();
    h.set_cksum();
    let tar = RawTar::based().entry(&h, b"").gz();
    sandbox.assert_refused("blockdev.tar.gz", &tar, &["is a device"]);
}

#[test]
fn tar_fifo() {
    let sandbox = Sandbox::new();
    let tar = tar_with(b"good/pipe", EntryType::Fifo, b"", None);
    sandbox.assert_refused("fifo.tar.gz", &tar, &["is a FIFO"]);
}

#[test]
fn tar_duplicate_entry() {
    let sandbox = Sandbox::new();
    let tar = tar_with(b"good/SKILL.md", EntryType::Regular, b"replaced\n", None);
    sandbox.assert_refused("duplicate.tar.gz", &tar, &["appears twice"]);
}

#[test]
fn tar_too_many_entries() {
    let sandbox = Sandbox::new();
    let mut tar = RawTar::based();
    for i in 0..20_000 {
        tar.file(format!("good/f/{i}").as_bytes(), b"x");
    }
    sandbox.assert_refused("many.tar.gz", &tar.gz(), &["more than 10000 entries"]);
}

/// 300 MiB of zeros in one entry, streamed through the gzip encoder (about 300 KB compressed).
#[test]
fn tar_gzip_bomb() {
    let sandbox = Sandbox::new();
    let size: u64 = 300 * 1024 * 1024;
    let gz = GzEncoder::new(Vec::new(), Compression::default());
    let mut builder = tar::Builder::new(gz);
    for (path, data) in base_entries() {
        let h = header(path.as_bytes(), EntryType::Regular, data.len() as u64, None);
        builder.append(&h, data.as_slice()).unwrap();
    }
    let h = header(b"good/zeros.bin", EntryType::Regular, size, None);
    builder.append(&h, io::repeat(0).take(size)).unwrap();
    let bytes = builder.into_inner().unwrap().finish().unwrap();
    assert!(
        bytes.len() < 2 * 1024 * 1024,
        "bomb is {} bytes",
        bytes.len()
    );
    // The reader refuses on the declared size, before inflating anything.
    sandbox.assert_refused(
        "bomb.tar.gz",
        &bytes,
        &["declares 314572800 bytes; the limit per file is 67108864"],
    );
}

/// Many files each far under 64 MiB whose total expands more than 100 times.
#[test]
fn tar_ratio_bomb_of_small_files() {
    let sandbox = Sandbox::new();
    let chunk = vec![0u8; 1024 * 1024];
    let mut tar = RawTar::based();
    for i in 0..64 {
        tar.file(format!("good/z/{i}").as_bytes(), &chunk);
    }
    sandbox.assert_refused(
        "ratio.tar.gz",
        &tar.gz(),
        &["more than 100 times its compressed size (an expansion bomb)"],
    );
}

#[test]
fn tar_file_larger_than_declared() {
    // Declares 10 bytes, carries 2000: the rest is read as the next header, which is garbage.
    let sandbox = Sandbox::new();
    let mut tar = RawTar::based();
    let h = header(b"good/big.txt", EntryType::Regular, 10, None);
    tar.bytes.extend_from_slice(h.as_bytes());
    tar.raw(&[b'A'; 2000]);
    sandbox.assert_refused(
        "larger.tar.gz",
        &tar.gz(),
        &["holds", "reading the archive"],
    );
}

#[test]
fn tar_file_shorter_than_declared() {
    // Declares 2000 bytes, carries 10, then the stream ends.
    let sandbox = Sandbox::new();
    let mut tar = RawTar::based();
    let h = header(b"good/short.txt", EntryType::Regular, 2000, None);
    tar.bytes.extend_from_slice(h.as_bytes());
    tar.raw(&[b'A'; 10]);
    sandbox.assert_refused(
        "shorter.tar.gz",
        &tar.gz_unterminated(),
        &["holds 10 bytes but declares 2000", "reading"],
    );
}

#[test]
fn tar_truncated() {
    let sandbox = Sandbox::new();
    let mut tar = RawTar::based();
    tar.file(b"good/notes.md", &b"notes\n".repeat(2000));
    let whole = tar.gz();
    let half = &whole[..whole.len() / 2];
    sandbox.assert_refused(
        "truncated.tar.gz",
        half,
        &["reading the archive", "reading entry", "holds"],
    );
}

#[test]
fn tar_two_top_level_directories() {
    let sandbox = Sandbox::new();
    let tar = tar_with(b"other/evil.txt", EntryType::Regular, b"pwned\n", None);
    sandbox.assert_refused("two-tops.tar.gz", &tar, &["is outside the top-level"]);
}

#[test]
fn tar_backslash_path() {
    let sandbox = Sandbox::new();
    let tar = tar_with(
        b"good\\..\\..\\evil.txt",
        EntryType::Regular,
        b"pwned\n",
        None,
    );
    // The first entry sets the key, so a backslash entry later is refused for its backslash.
    sandbox.assert_refused("backslash.tar.gz", &tar, &["has a backslash in its path"]);
}

#[test]
fn zip_symlink() {
    let sandbox = Sandbox::new();
    let target = sandbox.outside().join("sentinel.txt");
    let zip = zip_with(&[("good/link", target.to_str().unwrap().as_bytes(), None)]);
    sandbox.assert_refused("symlink.zip", &zip, &["is a symbolic link"]);
}

#[test]
fn zip_dotdot_path() {
    let sandbox = Sandbox::new();
    let zip = zip_with(&[("good/../../evil.txt", b"pwned\n", Some(0o644))]);
    sandbox.assert_refused("dotdot.zip", &zip, &[DOTDOT]);
}

#[test]
fn zip_absolute_path() {
    let sandbox = Sandbox::new();
    let evil = sandbox.evil();
    let zip = zip_with(&[(evil.to_str().unwrap(), b"pwned\n", Some(0o644))]);
    sandbox.assert_refused("absolute.zip", &zip, &["has an absolute path"]);
}

#[test]
fn zip_fifo() {
    let sandbox = Sandbox::new();
    let zip = zip_with(&[("good/pipe", b"", Some(0o010644))]);
    sandbox.assert_refused("fifo.zip", &zip, &["is not a regular file or directory"]);
}
