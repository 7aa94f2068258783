//! The strict archive reader (package.md, "unpack"): every construction that some extractor
//! reads differently from another is refused with an exact message, nothing is unpacked, and
//! the names in messages are escaped and truncated. Archives are built byte by byte here, so
//! that no library's writer tidies the hostile part away.

mod common;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use common::skillc;
use flate2::Compression;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};

const SKILL_MD: &[u8] = b"---\nname: good\ndescription: Use when testing.\n---\n\nBody.\n";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A manifest for `key` listing (path, contents, executable).
fn manifest_for(key: &str, files: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let listed: Vec<serde_json::Value> = files
        .iter()
        .map(|(path, bytes, exec)| {
            serde_json::json!({
                "path": path,
                "size": bytes.len(),
                "sha256": hex(&Sha256::digest(bytes)),
                "executable": exec,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "manifest_version": 1,
        "skill": {"key": key, "dialect": "agentskills"},
        "files": listed,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap();
    text.push('\n');
    text.into_bytes()
}

fn manifest() -> Vec<u8> {
    manifest_for("good", &[("SKILL.md", SKILL_MD, false)])
}

/// Writes `bytes` as `DIR/{name}`, unpacks it into `DIR/dest` and checks the exact first line
/// of stderr, exit 1, and that nothing was unpacked.
fn assert_refused(name: &str, bytes: &[u8], reason: &str) {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join(name), bytes).unwrap();
    let run = skillc(tmp.path(), &["unpack", name, "-C", "dest"]);
    let first = run.stderr.lines().next().unwrap_or("");
    assert_eq!(
        first,
        format!("FAIL: {name}: {reason}"),
        "{name}: stderr:\n{}",
        run.stderr
    );
    assert_eq!(run.code, Some(1), "{name}");
    assert!(run.stderr.ends_with("nothing was unpacked\n"), "{name}");
    let left: Vec<_> = fs::read_dir(tmp.path().join("dest"))
        .map(|rd| rd.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{name}: DEST holds {left:?}");
    // verify, the gate in front of other extractors, refuses it for the same reason.
    let run = skillc(tmp.path(), &["verify", name, "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1), "{name}: verify: {}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("archive check failed: {reason}")),
        "{name}: verify: {}",
        run.stderr
    );
}

fn assert_unpacks(name: &str, bytes: &[u8]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join(name), bytes).unwrap();
    let run = skillc(tmp.path(), &["unpack", name, "-C", "dest"]);
    assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
    tmp
}

// ---------------------------------------------------------------------------------------------
// tar, byte by byte.

/// Header options beyond the name, type and size.
#[derive(Clone, Copy)]
struct Opts {
    mode: u32,
    gnu: bool,
}

const GNU: Opts = Opts {
    mode: 0o644,
    gnu: true,
};

fn octal_field(field: &mut [u8], value: u64) {
    let text = format!("{value:0width$o}", width = field.len() - 1);
    field[..text.len()].copy_from_slice(text.as_bytes());
    field[text.len()] = 0;
}

/// A 512-byte header with a correct checksum.
fn header(name: &[u8], typeflag: u8, size: u64, opts: Opts) -> [u8; 512] {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name);
    octal_field(&mut h[100..108], u64::from(opts.mode));
    octal_field(&mut h[108..116], 0);
    octal_field(&mut h[116..124], 0);
    octal_field(&mut h[124..136], size);
    octal_field(&mut h[136..148], 315_532_800);
    h[156] = typeflag;
    if opts.gnu {
        h[257..265].copy_from_slice(b"ustar  \0");
    } else {
        h[257..265].copy_from_slice(b"ustar\x0000");
    }
    checksum(&mut h);
    h
}

fn checksum(h: &mut [u8; 512]) {
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    let text = format!("{sum:06o}\0 ");
    h[148..156].copy_from_slice(text.as_bytes());
}

#[derive(Default, Clone)]
struct Tar {
    bytes: Vec<u8>,
}

impl Tar {
    /// The manifest and SKILL.md of `good/`.
    fn based() -> Tar {
        let mut tar = Tar::default();
        tar.file(b"good/.skill-manifest.json", &manifest(), GNU);
        tar.file(b"good/SKILL.md", SKILL_MD, GNU);
        tar
    }

    fn block(&mut self, h: &[u8; 512], data: &[u8]) -> &mut Tar {
        self.bytes.extend_from_slice(h);
        self.bytes.extend_from_slice(data);
        let rem = self.bytes.len() % 512;
        if rem != 0 {
            self.bytes.resize(self.bytes.len() + 512 - rem, 0);
        }
        self
    }

    fn file(&mut self, name: &[u8], data: &[u8], opts: Opts) -> &mut Tar {
        let h = header(name, b'0', data.len() as u64, opts);
        self.block(&h, data)
    }

    /// A GNU long-name entry carrying `name` (NUL added).
    fn long_name(&mut self, name: &[u8]) -> &mut Tar {
        let mut data = name.to_vec();
        data.push(0);
        let h = header(b"././@LongLink", b'L', data.len() as u64, GNU);
        self.block(&h, &data)
    }

    /// A PAX extended header with `records` (key, value).
    fn pax(&mut self, records: &[(&str, &str)]) -> &mut Tar {
        let mut data = Vec::new();
        for (key, value) in records {
            let body = format!(" {key}={value}\n");
            let mut len = body.len() + 1;
            while format!("{len}{body}").len() != len {
                len += 1;
            }
            data.extend_from_slice(format!("{len}{body}").as_bytes());
        }
        let h = header(
            b"./PaxHeaders/x",
            b'x',
            data.len() as u64,
            Opts {
                mode: 0o644,
                gnu: false,
            },
        );
        self.block(&h, &data)
    }

    fn end(&mut self) -> Vec<u8> {
        let mut bytes = self.bytes.clone();
        bytes.extend_from_slice(&[0; 1024]);
        bytes
    }

    fn gz(&mut self) -> Vec<u8> {
        gzip(&self.end())
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

#[test]
fn base_tar_unpacks() {
    let tmp = assert_unpacks("base.tar.gz", &Tar::based().gz());
    assert_eq!(
        fs::read(tmp.path().join("dest/good/SKILL.md")).unwrap(),
        SKILL_MD
    );
}

#[test]
fn ustar_prefix_is_joined_as_posix_says() {
    // `good` in the prefix field, `SKILL.md` in the name field: `good/SKILL.md`.
    let ustar = Opts {
        mode: 0o644,
        gnu: false,
    };
    let mut tar = Tar::default();
    tar.file(b"good/.skill-manifest.json", &manifest(), ustar);
    let mut h = header(b"SKILL.md", b'0', SKILL_MD.len() as u64, ustar);
    h[345..349].copy_from_slice(b"good");
    checksum(&mut h);
    tar.block(&h, SKILL_MD);
    let tmp = assert_unpacks("prefix.tar.gz", &tar.gz());
    assert_eq!(
        fs::read(tmp.path().join("dest/good/SKILL.md")).unwrap(),
        SKILL_MD
    );
}

#[test]
fn gzip_second_member_trailing_garbage_and_bad_crc() {
    let good = Tar::based().gz();
    let mut extra = Tar::default();
    extra.file(b"good/hidden.sh", b"echo hidden\n", GNU);
    let two = [good.clone(), extra.gz()].concat();
    assert_refused(
        "two-members.tar.gz",
        &two,
        "the archive holds a second gzip member; skillc reads exactly one",
    );
    let garbage = [good.clone(), b"garbage".to_vec()].concat();
    assert_refused(
        "garbage.tar.gz",
        &garbage,
        "7 bytes follow the gzip stream; nothing may follow it",
    );
    let mut bad_crc = good.clone();
    let at = bad_crc.len() - 8;
    bad_crc[at] ^= 0xff;
    assert_refused(
        "crc.tar.gz",
        &bad_crc,
        "reading the archive: corrupt gzip stream does not have a matching checksum",
    );
}

#[test]
fn gnu_long_name_with_pax_path() {
    // tar-rs took the GNU name, GNU tar and Python the PAX path: refused either way round.
    let mut tar = Tar::based();
    tar.pax(&[("path", "good/evil.sh")]);
    tar.long_name(format!("good/{}", "n".repeat(120)).as_bytes());
    tar.file(b"good/short", b"x", GNU);
    assert_refused(
        "pax-and-long.tar.gz",
        &tar.gz(),
        "entry `./PaxHeaders/x` is a PAX extended header; skillc archives hold none (tools disagree on how PAX records combine with GNU names)",
    );
    let mut tar = Tar::based();
    tar.long_name(b"good/long-name.md");
    tar.pax(&[("path", "good/evil.sh")]);
    tar.file(b"good/short", b"x", GNU);
    assert_refused(
        "long-and-pax.tar.gz",
        &tar.gz(),
        "entry `good/long-name.md` is a PAX extended header; skillc archives hold none (tools disagree on how PAX records combine with GNU names)",
    );
}

#[test]
fn pax_sparse_and_other_types() {
    let mut tar = Tar::based();
    tar.pax(&[
        ("GNU.sparse.major", "1"),
        ("GNU.sparse.minor", "0"),
        ("GNU.sparse.name", "good/real.md"),
        ("GNU.sparse.realsize", "10"),
    ]);
    tar.file(b"good/GNUSparseFile.0/real.md", b"1\n0\n10\n", GNU);
    assert_refused(
        "sparse-pax.tar.gz",
        &tar.gz(),
        "entry `./PaxHeaders/x` is a PAX extended header; skillc archives hold none (tools disagree on how PAX records combine with GNU names)",
    );
    for (typeflag, name, reason) in [
        (b'S', "gnu-sparse", "is a GNU sparse file"),
        (b'K', "long-link", "is a GNU long link name"),
        (
            b'g',
            "global",
            "is a PAX extended header; skillc archives hold none (tools disagree on how PAX records combine with GNU names)",
        ),
        (b'7', "contiguous", "has an unsupported type (7)"),
        (b'V', "volume", "has an unsupported type (V)"),
    ] {
        let mut tar = Tar::based();
        let h = header(b"good/x", typeflag, 0, GNU);
        tar.block(&h, b"");
        assert_refused(
            &format!("{name}.tar.gz"),
            &tar.gz(),
            &format!("entry `good/x` {reason}"),
        );
    }
}

/// Finding 8: a long name declaring 300 MB cost gigabytes before it was refused; now it is
/// refused on its declared size, at once, with a short message.
#[test]
fn huge_gnu_long_name_is_refused_before_it_is_read() {
    let size: u64 = 300 * 1024 * 1024;
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(&Tar::based().bytes).unwrap();
    gz.write_all(&header(b"././@LongLink", b'L', size, GNU))
        .unwrap();
    let chunk = vec![b'a'; 1024 * 1024];
    for _ in 0..300 {
        gz.write_all(&chunk).unwrap();
    }
    gz.write_all(&header(b"good/x", b'0', 0, GNU)).unwrap();
    gz.write_all(&[0; 1024]).unwrap();
    let bytes = gz.finish().unwrap();
    assert!(bytes.len() < 1024 * 1024, "{} bytes", bytes.len());
    let started = Instant::now();
    assert_refused(
        "long-bomb.tar.gz",
        &bytes,
        "reading the archive: a GNU long name of 314572800 bytes; the limit is 4096",
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn long_name_misuse() {
    let mut tar = Tar::based();
    tar.long_name(b"good/a.md").long_name(b"good/b.md");
    tar.file(b"good/x", b"x", GNU);
    assert_refused(
        "two-long.tar.gz",
        &tar.gz(),
        "reading the archive: two GNU long names in a row",
    );
    let mut tar = Tar::based();
    tar.long_name(b"good/a.md\0good/evil.sh");
    tar.file(b"good/x", b"x", GNU);
    assert_refused(
        "nul-long.tar.gz",
        &tar.gz(),
        "reading the archive: the GNU long name `good/a.md\\0good/evil.sh\\0` is not one NUL-terminated path",
    );
    let mut tar = Tar::based();
    tar.long_name(b"good/a.md");
    assert_refused(
        "dangling-long.tar.gz",
        &tar.gz(),
        "reading the archive: a GNU long name is followed by the end of the archive",
    );
}

#[test]
fn header_fields_are_strict() {
    // Data after the end-of-archive block: GNU tar stops, `tar -i` and others read on.
    let mut bytes = Tar::based().end();
    let mut after = Tar::default();
    after.file(b"good/hidden.sh", b"echo hidden\n", GNU);
    bytes.extend_from_slice(&after.bytes);
    assert_refused(
        "after-end.tar.gz",
        &gzip(&bytes),
        "reading the archive: data follows the end-of-archive blocks",
    );
    // No end-of-archive block at all.
    assert_refused(
        "unterminated.tar.gz",
        &gzip(&Tar::based().bytes),
        "reading the archive: the stream ends without its end-of-archive blocks (truncated?)",
    );
    // A bad checksum.
    let mut tar = Tar::based();
    let mut h = header(b"good/x", b'0', 1, GNU);
    h[0] = b'G';
    tar.block(&h, b"x");
    assert_refused(
        "checksum.tar.gz",
        &tar.gz(),
        "reading the archive: a header's checksum does not match",
    );
    // Base-256 size.
    let mut tar = Tar::based();
    let mut h = header(b"good/x", b'0', 1, GNU);
    h[124..136].copy_from_slice(&[0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    checksum(&mut h);
    tar.block(&h, b"x");
    assert_refused(
        "base256.tar.gz",
        &tar.gz(),
        "entry `good/x` has a malformed size field",
    );
    // GNU magic with bytes in the prefix area, which Python joins as a path prefix.
    let mut tar = Tar::based();
    let mut h = header(b"x.md", b'0', 1, GNU);
    h[345..349].copy_from_slice(b"good");
    checksum(&mut h);
    tar.block(&h, b"x");
    assert_refused(
        "gnu-prefix.tar.gz",
        &tar.gz(),
        "entry `x.md` has data in the GNU header's prefix area (read as a path prefix by some tools)",
    );
    // No magic (v7).
    let mut tar = Tar::based();
    let mut h = header(b"good/x", b'0', 1, GNU);
    h[257..265].fill(0);
    checksum(&mut h);
    tar.block(&h, b"x");
    assert_refused(
        "v7.tar.gz",
        &tar.gz(),
        "entry `good/x` has neither the ustar nor the GNU magic",
    );
    // setuid: GNU tar run as root would keep it.
    let mut tar = Tar::based();
    tar.file(
        b"good/run.sh",
        b"x",
        Opts {
            mode: 0o4755,
            gnu: true,
        },
    );
    assert_refused(
        "setuid.tar.gz",
        &tar.gz(),
        "entry `good/run.sh` has mode 4755; only permission bits (0777) are allowed",
    );
    // A regular file with a link name (libarchive reads some as hard links).
    let mut tar = Tar::based();
    let mut h = header(b"good/x", b'0', 1, GNU);
    h[157..166].copy_from_slice(b"good/SKILL.md"[..9].as_ref());
    checksum(&mut h);
    tar.block(&h, b"x");
    assert_refused(
        "linkname.tar.gz",
        &tar.gz(),
        "entry `good/x` has a link name",
    );
}

/// Finding 9: the top-level name must be a skill name, with or without `--key`.
#[test]
fn top_level_name_must_be_a_skill_name() {
    let invalid = |shown: &str| {
        format!(
            "the top-level directory `{shown}` is not a valid skill name (1-64 lowercase letters, digits and single hyphens)"
        )
    };
    for (key, reason) in [
        (".cargo", invalid(".cargo")),
        (".git", invalid(".git")),
        ("Good", invalid("Good")),
        ("a--b", invalid("a--b")),
        ("-a", invalid("-a")),
        (&"k".repeat(65), invalid(&"k".repeat(65))),
        ("pdf\u{e9}", invalid("pdf\u{e9}")),
        (
            "\u{1b}[2J",
            "entry `\\u{1b}[2J/.skill-manifest.json` has a control character in its path"
                .to_string(),
        ),
    ] {
        let mut tar = Tar::default();
        tar.file(
            format!("{key}/.skill-manifest.json").as_bytes(),
            &manifest_for(key, &[("SKILL.md", SKILL_MD, false)]),
            GNU,
        );
        tar.file(format!("{key}/SKILL.md").as_bytes(), SKILL_MD, GNU);
        assert_refused("key.tar.gz", &tar.gz(), &reason);
    }
}

#[test]
fn names_in_messages_are_escaped_and_truncated() {
    let mut tar = Tar::based();
    tar.file(b"good/a\nFAIL: forged\x1b[2J", b"x", GNU);
    assert_refused(
        "newline.tar.gz",
        &tar.gz(),
        "entry `good/a\\nFAIL: forged\\u{1b}[2J` has a control character in its path",
    );
    let long = format!("good/{}/../x", "d".repeat(400));
    let mut tar = Tar::based();
    tar.long_name(long.as_bytes());
    tar.file(b"good/short", b"x", GNU);
    let cut: String = long.chars().take(200).collect();
    assert_refused(
        "long-shown.tar.gz",
        &tar.gz(),
        &format!("entry `{cut}…` has an empty, `.` or `..` path component"),
    );
}

#[test]
fn manifest_errors_are_escaped() {
    let bad = b"{\"manifest_version\": 1, \"\\u001b[2J\": 0}\n";
    let mut tar = Tar::default();
    tar.file(b"good/.skill-manifest.json", bad, GNU);
    tar.file(b"good/SKILL.md", SKILL_MD, GNU);
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("m.tar.gz"), tar.gz()).unwrap();
    let run = skillc(tmp.path(), &["unpack", "m.tar.gz", "-C", "dest"]);
    assert_eq!(run.code, Some(1));
    assert!(!run.stderr.contains('\u{1b}'), "{:?}", run.stderr);
    assert!(
        run.stderr
            .starts_with("FAIL: m.tar.gz: the manifest is not valid: unknown field `\\u{1b}[2J`"),
        "{:?}",
        run.stderr
    );
}

#[test]
fn paths_that_collide_on_other_file_systems() {
    let mut tar = Tar::based();
    tar.file(b"good/skill.md", b"x", GNU);
    assert_refused(
        "case.tar.gz",
        &tar.gz(),
        "entry `good/skill.md` and `good/SKILL.md` differ only in case or Unicode normalization",
    );
    let mut tar = Tar::based();
    tar.file("good/caf\u{e9}.md".as_bytes(), b"x", GNU);
    tar.file("good/cafe\u{301}.md".as_bytes(), b"x", GNU);
    assert_refused(
        "nfc.tar.gz",
        &tar.gz(),
        "entry `good/cafe\u{301}.md` and `good/caf\u{e9}.md` differ only in case or Unicode normalization",
    );
    // Foldings that lowercasing alone misses (APFS and NTFS fold them).
    for (first, second) in [("\u{3c2}", "\u{3c3}"), ("\u{17f}", "s"), ("\u{df}", "ss")] {
        let mut tar = Tar::based();
        tar.file(format!("good/{first}.md").as_bytes(), b"x", GNU);
        tar.file(format!("good/{second}.md").as_bytes(), b"x", GNU);
        assert_refused(
            &format!("fold-{second}.tar.gz"),
            &tar.gz(),
            &format!(
                "entry `good/{second}.md` and `good/{first}.md` differ only in case or Unicode normalization"
            ),
        );
    }
    // A file and a directory that differ only in case or normalization.
    let mut tar = Tar::based();
    tar.file(b"good/a", b"x", GNU);
    tar.file(b"good/A/x", b"x", GNU);
    assert_refused(
        "file-dir.tar.gz",
        &tar.gz(),
        "`good/A/x` lies below the file `good/a`",
    );
    let mut tar = Tar::based();
    tar.file("good/\u{e9}".as_bytes(), b"x", GNU);
    tar.file("good/e\u{301}/x".as_bytes(), b"x", GNU);
    assert_refused(
        "nfd-dir.tar.gz",
        &tar.gz(),
        "`good/e\u{301}/x` lies below the file `good/\u{e9}`",
    );
}

/// Low: the manifest's `executable` is compared with the entry's mode.
#[test]
fn execute_bits_must_match_the_manifest() {
    let script: &[u8] = b"#!/bin/sh\necho hi\n";
    let build = |listed: bool, mode: u32| {
        let mut tar = Tar::default();
        tar.file(
            b"good/.skill-manifest.json",
            &manifest_for(
                "good",
                &[("SKILL.md", SKILL_MD, false), ("run.sh", script, listed)],
            ),
            GNU,
        );
        tar.file(b"good/SKILL.md", SKILL_MD, GNU);
        tar.file(b"good/run.sh", script, Opts { mode, gnu: true });
        tar.gz()
    };
    assert_refused(
        "exec.tar.gz",
        &build(false, 0o755),
        "`run.sh` is executable but the manifest says it is not",
    );
    assert_refused(
        "noexec.tar.gz",
        &build(true, 0o644),
        "`run.sh` is not executable but the manifest says it is",
    );
    let tmp = assert_unpacks("ok.tar.gz", &build(true, 0o755));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(tmp.path().join("dest/good/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
    }
}

// ---------------------------------------------------------------------------------------------
// zip, byte by byte.

/// One zip entry and the ways it may lie.
#[derive(Clone)]
struct ZipEntry {
    name: Vec<u8>,
    data: Vec<u8>,
    /// 0 stored, 8 deflate, anything else as given.
    method: u16,
    flags: u16,
    /// Version made by (host << 8 | version).
    made_by: u16,
    external: u32,
    /// The local header's name, when it differs.
    local_name: Option<Vec<u8>>,
    extra: Vec<u8>,
    crc: Option<u32>,
}

fn zentry(name: &str, data: &[u8]) -> ZipEntry {
    ZipEntry {
        name: name.as_bytes().to_vec(),
        data: data.to_vec(),
        method: 8,
        flags: if name.is_ascii() { 0 } else { 1 << 11 },
        made_by: (3 << 8) | 20,
        external: (0o100644 << 16),
        local_name: None,
        extra: Vec::new(),
        crc: None,
    }
}

fn zbase() -> Vec<ZipEntry> {
    vec![
        zentry("good/.skill-manifest.json", &manifest()),
        zentry("good/SKILL.md", SKILL_MD),
    ]
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(data);
    crc.sum()
}

fn deflate(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// Lays out the entries (with `gap` bytes of `gap_bytes` before entry `gap_at`), then the
/// central directory listing `central` (indices into `entries`), then the end record and
/// `comment`.
fn zip_bytes(
    entries: &[ZipEntry],
    central: &[usize],
    gap: Option<(usize, Vec<u8>)>,
    comment: &[u8],
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some((at, bytes)) = &gap
            && *at == i
        {
            out.extend_from_slice(bytes);
        }
        offsets.push(out.len() as u32);
        let body = if e.method == 8 {
            deflate(&e.data)
        } else {
            e.data.clone()
        };
        let name = e.local_name.as_ref().unwrap_or(&e.name);
        out.extend_from_slice(b"PK\x03\x04");
        out.extend_from_slice(&20u16.to_le_bytes());
        out.extend_from_slice(&e.flags.to_le_bytes());
        out.extend_from_slice(&e.method.to_le_bytes());
        out.extend_from_slice(&[0, 0, 0x21, 0]); // 1980-01-01 00:00
        out.extend_from_slice(&e.crc.unwrap_or_else(|| crc32(&e.data)).to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&(e.extra.len() as u16).to_le_bytes());
        out.extend_from_slice(name);
        out.extend_from_slice(&e.extra);
        out.extend_from_slice(&body);
    }
    let cd_start = out.len();
    for &i in central {
        let e = &entries[i];
        let body_len = if e.method == 8 {
            deflate(&e.data).len()
        } else {
            e.data.len()
        };
        out.extend_from_slice(b"PK\x01\x02");
        out.extend_from_slice(&e.made_by.to_le_bytes());
        out.extend_from_slice(&20u16.to_le_bytes());
        out.extend_from_slice(&e.flags.to_le_bytes());
        out.extend_from_slice(&e.method.to_le_bytes());
        out.extend_from_slice(&[0, 0, 0x21, 0]);
        out.extend_from_slice(&e.crc.unwrap_or_else(|| crc32(&e.data)).to_le_bytes());
        out.extend_from_slice(&(body_len as u32).to_le_bytes());
        out.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
        out.extend_from_slice(&(e.extra.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes()); // comment
        out.extend_from_slice(&0u16.to_le_bytes()); // disk
        out.extend_from_slice(&0u16.to_le_bytes()); // internal
        out.extend_from_slice(&e.external.to_le_bytes());
        out.extend_from_slice(&offsets[i].to_le_bytes());
        out.extend_from_slice(&e.name);
        out.extend_from_slice(&e.extra);
    }
    let cd_size = out.len() - cd_start;
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&(central.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u16).to_le_bytes());
    out.extend_from_slice(&(cd_size as u32).to_le_bytes());
    out.extend_from_slice(&(cd_start as u32).to_le_bytes());
    out.extend_from_slice(&(comment.len() as u16).to_le_bytes());
    out.extend_from_slice(comment);
    out
}

fn zip_of(entries: &[ZipEntry]) -> Vec<u8> {
    let all: Vec<usize> = (0..entries.len()).collect();
    zip_bytes(entries, &all, None, b"")
}

fn with(extra: ZipEntry) -> Vec<ZipEntry> {
    let mut entries = zbase();
    entries.push(extra);
    entries
}

#[test]
fn base_zip_unpacks_stored_deflated_and_dos() {
    let mut entries = zbase();
    entries[1].method = 0;
    entries.push(ZipEntry {
        made_by: 20,
        external: 0,
        ..zentry("good/dos.txt", b"from dos\n")
    });
    let mut listed = manifest_for(
        "good",
        &[
            ("SKILL.md", SKILL_MD, false),
            ("dos.txt", b"from dos\n", false),
        ],
    );
    entries[0].data = std::mem::take(&mut listed);
    let tmp = assert_unpacks("base.zip", &zip_of(&entries));
    assert_eq!(
        fs::read(tmp.path().join("dest/good/dos.txt")).unwrap(),
        b"from dos\n"
    );
}

#[test]
fn zip_central_directory_repeats_a_name() {
    // The zip crate kept the last `good/SKILL.md` (a symlink); unzip extracts both.
    let mut link = zentry("good/SKILL.md", b"/etc/passwd");
    link.external = 0o120777 << 16;
    link.method = 0;
    assert_refused(
        "dup.zip",
        &zip_of(&with(link)),
        "entry `good/SKILL.md` appears twice in the central directory",
    );
}

#[test]
fn zip_local_header_names_another_file() {
    let mut entries = zbase();
    entries[1].local_name = Some(b"good/SKILL.mx".to_vec());
    assert_refused(
        "local-name.zip",
        &zip_of(&entries),
        "entry `good/SKILL.md`'s local header names `good/SKILL.mx`",
    );
}

#[test]
fn zip_unicode_path_extra_field() {
    // Info-ZIP and Python 3.12+ use the 0x7075 Unicode Path, others the raw name.
    let mut entries = zbase();
    let mut extra = vec![0x75, 0x70];
    let path = b"good/evil.sh";
    extra.extend_from_slice(&((5 + path.len()) as u16).to_le_bytes());
    extra.push(1);
    extra.extend_from_slice(&crc32(b"good/SKILL.md").to_le_bytes());
    extra.extend_from_slice(path);
    entries[1].extra = extra;
    assert_refused(
        "unicode-path.zip",
        &zip_of(&entries),
        "entry `good/SKILL.md` has extra fields or a comment (tools interpret them: Unicode paths, zip64, timestamps)",
    );
}

#[test]
fn zip_layout_must_be_contiguous() {
    // A local entry that the central directory does not list, before the listed ones: bsdtar
    // streams local headers and extracts it, unzip does not.
    let hidden = zentry("good/hidden.sh", b"echo hidden\n");
    let hidden_len = 30 + hidden.name.len() + deflate(&hidden.data).len();
    let mut entries = vec![hidden];
    entries.extend(zbase());
    assert_refused(
        "hidden.zip",
        &zip_bytes(&entries, &[1, 2], None, b""),
        &format!(
            "entry `good/.skill-manifest.json`'s local header is at offset {hidden_len}, not right after the previous entry (0)"
        ),
    );
    // Bytes between two entries.
    assert_refused(
        "gap.zip",
        &zip_bytes(&zbase(), &[0, 1], Some((1, vec![0; 16])), b""),
        &format!(
            "entry `good/SKILL.md`'s local header is at offset {}, not right after the previous entry ({})",
            30 + 25 + deflate(&manifest()).len() + 16,
            30 + 25 + deflate(&manifest()).len()
        ),
    );
    // A comment after the end record.
    assert_refused(
        "comment.zip",
        &zip_bytes(&zbase(), &[0, 1], None, b"hi"),
        "reading the archive: the zip does not end with its end-of-central-directory record (a comment or trailing data?)",
    );
}

#[test]
fn zip_entry_flags_methods_and_names() {
    let cases: Vec<(&str, ZipEntry, &str)> = vec![
        (
            "encrypted",
            ZipEntry {
                flags: 1,
                ..zentry("good/x", b"x")
            },
            "entry `good/x` is encrypted",
        ),
        (
            "descriptor",
            ZipEntry {
                flags: 1 << 3,
                ..zentry("good/x", b"x")
            },
            "entry `good/x` uses a data descriptor (sizes after the data)",
        ),
        (
            "bzip2",
            ZipEntry {
                method: 12,
                ..zentry("good/x", b"x")
            },
            "entry `good/x` uses compression method 12; only stored (0) and deflate (8) are read",
        ),
        (
            "cp437",
            ZipEntry {
                flags: 0,
                ..zentry("good/caf\u{e9}", b"x")
            },
            "entry `good/caf\u{e9}` has a non-ASCII name without the UTF-8 flag (unzip and Python would decode it as CP437)",
        ),
        (
            "crc",
            ZipEntry {
                crc: Some(0xdead_beef),
                ..zentry("good/x", b"x")
            },
            "entry `good/x` does not match its CRC-32",
        ),
        (
            "setuid",
            ZipEntry {
                external: 0o104755 << 16,
                ..zentry("good/x", b"x")
            },
            "entry `good/x` has mode 4755; only permission bits (0777) are allowed",
        ),
        (
            "ntfs",
            ZipEntry {
                made_by: (10 << 8) | 20,
                ..zentry("good/x", b"x")
            },
            "entry `good/x` was made by system 10; only Unix (3) and MS-DOS (0) attributes are read",
        ),
        (
            "dir-mode",
            ZipEntry {
                external: 0o040755 << 16,
                ..zentry("good/x", b"")
            },
            "entry `good/x`'s mode and name disagree on whether it is a directory",
        ),
    ];
    for (name, entry, reason) in cases {
        assert_refused(&format!("{name}.zip"), &zip_of(&with(entry)), reason);
    }
}

#[test]
fn zip_key_and_execute_bit() {
    let mut entries = zbase();
    for e in &mut entries {
        e.name = [b".github/".as_slice(), &e.name[5..]].concat();
    }
    entries[0].data = manifest_for(".github", &[("SKILL.md", SKILL_MD, false)]);
    assert_refused(
        "github.zip",
        &zip_of(&entries),
        "the top-level directory `.github` is not a valid skill name (1-64 lowercase letters, digits and single hyphens)",
    );
    let mut entries = zbase();
    entries[1].external = 0o100755 << 16;
    assert_refused(
        "exec.zip",
        &zip_of(&entries),
        "`SKILL.md` is executable but the manifest says it is not",
    );
}

// ---------------------------------------------------------------------------------------------
// Low: stale staging directories.

/// Sets a directory's mtime.
fn age(path: &Path, by: Duration) {
    let dir = fs::File::open(path).unwrap();
    dir.set_modified(SystemTime::now() - by).unwrap();
}

#[test]
fn unpack_sweeps_its_own_stale_staging_directories_only() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("good.tar.gz"), Tar::based().gz()).unwrap();
    let dest = tmp.path().join("dest");
    fs::create_dir_all(&dest).unwrap();
    let stale = dest.join(".skillc-unpack-AbC123");
    fs::create_dir_all(stale.join("good/sub")).unwrap();
    fs::write(stale.join("good/sub/f"), b"x").unwrap();
    age(&stale, Duration::from_secs(2 * 3600));
    let fresh = dest.join(".skillc-unpack-Fresh1");
    fs::create_dir_all(&fresh).unwrap();
    let other = dest.join(".skillc-unpack-toolongname");
    fs::create_dir_all(&other).unwrap();
    age(&other, Duration::from_secs(2 * 3600));
    // A link named like ours to an old directory: neither it nor its target is touched.
    let target = tmp.path().join("precious");
    fs::create_dir_all(&target).unwrap();
    fs::write(target.join("keep"), b"keep").unwrap();
    age(&target, Duration::from_secs(2 * 3600));
    #[cfg(unix)]
    std::os::unix::fs::symlink(&target, dest.join(".skillc-unpack-Link01")).unwrap();

    let run = skillc(tmp.path(), &["unpack", "good.tar.gz", "-C", "dest"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().next().unwrap(),
        "removed `dest/.skillc-unpack-AbC123`, left by an interrupted unpack"
    );
    assert!(!stale.exists());
    assert!(fresh.is_dir());
    assert!(other.is_dir());
    assert_eq!(fs::read(target.join("keep")).unwrap(), b"keep");
    #[cfg(unix)]
    assert!(dest.join(".skillc-unpack-Link01").is_symlink());
    let mut names: Vec<String> = fs::read_dir(&dest)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".skillc-unpack-Fresh1",
            ".skillc-unpack-Link01",
            ".skillc-unpack-toolongname",
            "good"
        ]
    );
}

/// Device numbers that are not octal: GNU tar and bsdtar extract the entry, Python's tarfile
/// takes the header as the end of the archive and silently extracts fewer files.
#[test]
fn device_number_fields_must_be_octal() {
    for (range, what) in [(329..337, "devmajor"), (337..345, "devminor")] {
        let mut tar = Tar::based();
        let mut h = header(b"good/x", b'0', 1, GNU);
        h[range].copy_from_slice(b"zzzzzzz\0");
        checksum(&mut h);
        tar.block(&h, b"x");
        assert_refused(
            &format!("{what}.tar.gz"),
            &tar.gz(),
            &format!("entry `good/x` has a malformed {what} field"),
        );
    }
}

/// A zip entry that asks for a newer version to extract: unzip skips it, Python refuses the
/// archive, bsdtar extracts it.
#[test]
fn zip_version_needed_is_at_most_two() {
    let mut bytes = zip_of(&zbase());
    for at in 0..bytes.len().saturating_sub(8) {
        if &bytes[at..at + 4] == b"PK\x03\x04" {
            bytes[at + 4..at + 6].copy_from_slice(&63u16.to_le_bytes());
        } else if &bytes[at..at + 4] == b"PK\x01\x02" {
            bytes[at + 6..at + 8].copy_from_slice(&63u16.to_le_bytes());
        }
    }
    assert_refused(
        "needed.zip",
        &bytes,
        "entry `good/.skill-manifest.json` needs zip version 6.3 to extract; only 2.0 and lower are read",
    );
}

/// Names that Windows or HFS+ write differently (or not at all), and foldings beyond
/// lowercase: refused, so no extractor on any file system lands two entries on one file.
#[test]
fn names_other_file_systems_change_are_refused() {
    for (name, why) in [
        (
            "good/SKILL.md.",
            "ends with a dot or a space (Windows drops them)",
        ),
        (
            "good/notes.md ",
            "ends with a dot or a space (Windows drops them)",
        ),
        (
            "good/a.md:x",
            "holds a character Windows does not allow in file names (`:<>\"|?*`)",
        ),
        ("good/nul.md", "is a Windows device name"),
        ("good/com1", "is a Windows device name"),
        (
            "good/a\u{200c}.md",
            "holds an invisible character HFS+ ignores when it compares names",
        ),
    ] {
        let mut tar = Tar::based();
        tar.file(name.as_bytes(), b"x", GNU);
        assert_refused(
            "windows.tar.gz",
            &tar.gz(),
            &format!(
                "entry `{}` has a path component that {why}",
                name.escape_debug()
            ),
        );
    }
    for (first, second) in [
        ("\u{131}", "i"),
        ("\u{131}", "I"),
        ("\u{1fb3}", "\u{3b1}\u{3b9}"),
        ("\u{1c80}", "\u{432}"),
    ] {
        let mut tar = Tar::based();
        tar.file(format!("good/{first}.md").as_bytes(), b"x", GNU);
        tar.file(format!("good/{second}.md").as_bytes(), b"x", GNU);
        assert_refused(
            "fold.tar.gz",
            &tar.gz(),
            &format!(
                "entry `good/{second}.md` and `good/{first}.md` differ only in case or Unicode normalization"
            ),
        );
    }
}

/// An MS-DOS entry whose attributes carry a Unix mode: unzip applies it (here a symbolic link),
/// other tools write a regular file.
#[test]
fn zip_dos_attributes_with_a_unix_mode() {
    let mut entries = zbase();
    entries[1].made_by = 20;
    entries[1].external = 0o120600 << 16;
    assert_refused(
        "dos-link.zip",
        &zip_of(&entries),
        "entry `good/SKILL.md` has MS-DOS attributes with a Unix mode in them (unzip would apply it)",
    );
}

/// Permission bits other than those `pack` writes (files 0644 or 0755; directories, which pack
/// never writes but `tar`/`zip` of an unpacked skill add, 0755): GNU tar, bsdtar and unzip run
/// as root reproduce them (a world-writable script, an unreadable `000` directory), so verify
/// and unpack refuse them, naming the entry. An MS-DOS read-only entry is extracted 0444.
#[test]
fn modes_other_than_pack_writes_are_refused() {
    let file = |mode: u32| Opts { mode, gnu: true };
    for mode in [0o000, 0o777, 0o666, 0o664, 0o600, 0o744, 0o444, 0o700] {
        // Listed in the manifest (executable as the old reader read it: any execute bit), so
        // that nothing but the mode is wrong.
        let listed = manifest_for(
            "good",
            &[
                ("SKILL.md", SKILL_MD, false),
                ("x", b"x", mode & 0o111 != 0),
            ],
        );
        let mut tar = Tar::default();
        tar.file(b"good/.skill-manifest.json", &listed, GNU);
        tar.file(b"good/SKILL.md", SKILL_MD, GNU);
        tar.file(b"good/x", b"x", file(mode));
        assert_refused(
            &format!("file-{mode:o}.tar.gz"),
            &tar.gz(),
            &format!("entry `good/x` has mode {mode:04o}; a file's mode must be 0644 or 0755"),
        );
        let mut entries = zbase();
        entries[0].data = listed;
        entries.push(ZipEntry {
            external: (0o100000 | mode) << 16,
            ..zentry("good/x", b"x")
        });
        assert_refused(
            &format!("file-{mode:o}.zip"),
            &zip_of(&entries),
            &format!("entry `good/x` has mode {mode:04o}; a file's mode must be 0644 or 0755"),
        );
    }
    for mode in [0o000, 0o777, 0o700, 0o775, 0o644] {
        let mut tar = Tar::based();
        tar.block(&header(b"good/sub/", b'5', 0, file(mode)), b"");
        assert_refused(
            &format!("dir-{mode:o}.tar.gz"),
            &tar.gz(),
            &format!("entry `good/sub/` has mode {mode:04o}; a directory's mode must be 0755"),
        );
        let mut entries = zbase();
        entries.insert(
            0,
            ZipEntry {
                external: (0o040000 | mode) << 16,
                ..zentry("good/", b"")
            },
        );
        assert_refused(
            &format!("dir-{mode:o}.zip"),
            &zip_of(&entries),
            &format!("entry `good/` has mode {mode:04o}; a directory's mode must be 0755"),
        );
    }
    let mut entries = zbase();
    entries[1].made_by = 20;
    entries[1].external = 0x21;
    assert_refused(
        "read-only.zip",
        &zip_of(&entries),
        "entry `good/SKILL.md` has the MS-DOS read-only attribute (extracted without write permission); a file's mode must be 0644 or 0755",
    );

    // What pack writes, with 0755 directory entries around it, is accepted by both.
    let script: &[u8] = b"#!/bin/sh\n";
    let listed = manifest_for(
        "good",
        &[("SKILL.md", SKILL_MD, false), ("bin/run.sh", script, true)],
    );
    let mut tar = Tar::default();
    tar.file(b"good/.skill-manifest.json", &listed, GNU);
    tar.block(&header(b"good/", b'5', 0, file(0o755)), b"");
    tar.block(&header(b"good/bin/", b'5', 0, file(0o755)), b"");
    tar.file(b"good/SKILL.md", SKILL_MD, GNU);
    tar.file(b"good/bin/run.sh", script, file(0o755));
    let mut entries = vec![
        zentry("good/.skill-manifest.json", &listed),
        ZipEntry {
            external: 0o040755 << 16,
            method: 0,
            ..zentry("good/bin/", b"")
        },
        zentry("good/SKILL.md", SKILL_MD),
        ZipEntry {
            external: 0o100755 << 16,
            ..zentry("good/bin/run.sh", script)
        },
    ];
    entries[2].made_by = 20;
    entries[2].external = 0x20;
    for (name, bytes) in [("dirs.tar.gz", tar.gz()), ("dirs.zip", zip_of(&entries))] {
        let tmp = assert_unpacks(name, &bytes);
        let run = skillc(tmp.path(), &["verify", name, "--insecure-skip-signature"]);
        assert_eq!(run.code, Some(0), "{name}: verify: {}", run.stderr);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &str| {
                fs::metadata(tmp.path().join("dest/good").join(p))
                    .unwrap()
                    .permissions()
                    .mode()
                    & 0o7777
            };
            assert_eq!(mode("bin/run.sh"), 0o755, "{name}");
            assert_eq!(mode("SKILL.md"), 0o644, "{name}");
        }
    }
}
