//! What `skillc verify --key` accepts, every common extractor extracts identically: GNU tar,
//! bsdtar (libarchive), Python's tarfile and zipfile, and Info-ZIP unzip each unpack a real
//! signed skill (long paths, non-ASCII names, an executable script, nested directories) to
//! exactly the manifest's files, bytes and execute bits. Some hostile constructions are fed to
//! the extractors too, to show the ambiguity skillc refuses.
//!
//! A missing extractor is skipped with a note, unless `SKILLC_REQUIRE_EXTRACTORS=1` (CI), where
//! it fails the test.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{skillc, write};
use flate2::Compression;
use flate2::write::GzEncoder;

const KEY: &str = "interop-skill";

/// Whether `tool` runs; when it does not, fails under `SKILLC_REQUIRE_EXTRACTORS=1`, else
/// prints that it is skipped.
fn available(tool: &str, probe: &[&str]) -> bool {
    let ok = Command::new(tool)
        .args(probe)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("SKILLC_REQUIRE_EXTRACTORS").as_deref() != Ok("1"),
            "`{tool}` is required (SKILLC_REQUIRE_EXTRACTORS=1) but does not run"
        );
        eprintln!("skipped: `{tool}` is not installed");
    }
    ok
}

const PY_TAR: &str = "import sys, tarfile\n\
t = tarfile.open(sys.argv[1])\n\
kw = {'filter': 'tar'} if hasattr(tarfile, 'tar_filter') else {}\n\
t.extractall(sys.argv[2], **kw)\n";
const PY_ZIP: &str = "import sys, zipfile\nzipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])\n";

/// An extractor: its name, whether it keeps execute bits, and how to run it.
struct Extractor {
    name: &'static str,
    keeps_modes: bool,
    program: &'static str,
    probe: &'static [&'static str],
    args: fn(&Path, &Path) -> Vec<String>,
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

fn tar_extractors() -> Vec<Extractor> {
    vec![
        Extractor {
            name: "GNU tar",
            keeps_modes: true,
            program: "tar",
            probe: &["--version"],
            args: |a, d| vec!["-xzf".into(), s(a), "-C".into(), s(d)],
        },
        Extractor {
            name: "bsdtar",
            keeps_modes: true,
            program: "bsdtar",
            probe: &["--version"],
            args: |a, d| vec!["-xf".into(), s(a), "-C".into(), s(d)],
        },
        Extractor {
            name: "python tarfile",
            keeps_modes: true,
            program: "python3",
            probe: &["--version"],
            args: |a, d| vec!["-c".into(), PY_TAR.into(), s(a), s(d)],
        },
    ]
}

fn zip_extractors() -> Vec<Extractor> {
    vec![
        Extractor {
            name: "unzip",
            keeps_modes: true,
            program: "unzip",
            probe: &["-v"],
            args: |a, d| vec!["-q".into(), s(a), "-d".into(), s(d)],
        },
        Extractor {
            name: "bsdtar",
            keeps_modes: true,
            program: "bsdtar",
            probe: &["--version"],
            args: |a, d| vec!["-xf".into(), s(a), "-C".into(), s(d)],
        },
        Extractor {
            // zipfile never restores permissions.
            name: "python zipfile",
            keeps_modes: false,
            program: "python3",
            probe: &["--version"],
            args: |a, d| vec!["-c".into(), PY_ZIP.into(), s(a), s(d)],
        },
    ]
}

/// Extracts `archive` into a new directory under `root`; `None` when the tool is missing.
fn extract(x: &Extractor, archive: &Path, root: &Path, label: &str) -> Option<PathBuf> {
    if !available(x.program, x.probe) {
        return None;
    }
    let dest = root.join(format!("out-{label}-{}", x.name.replace(' ', "-")));
    fs::create_dir_all(&dest).unwrap();
    let out = Command::new(x.program)
        .args((x.args)(archive, &dest))
        .env("LC_ALL", "C.UTF-8")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} failed on {}: {}",
        x.name,
        archive.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(dest)
}

/// Everything under `dir`: relative path → (bytes, executable); directories are only listed
/// as implied by files, anything else fails.
fn tree(dir: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, (Vec<u8>, bool)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = path.symlink_metadata().unwrap();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            if meta.is_dir() {
                walk(root, &path, out);
            } else {
                assert!(meta.is_file(), "`{rel}` is not a regular file");
                use std::os::unix::fs::PermissionsExt;
                let exec = meta.permissions().mode() & 0o111 != 0;
                out.insert(rel, (fs::read(&path).unwrap(), exec));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The skill's files: (path, bytes, executable).
fn skill_files() -> Vec<(String, Vec<u8>, bool)> {
    let deep = format!(
        "references/{}/{}/notes-with-a-rather-long-name.md",
        "a-fairly-long-directory-name".repeat(2),
        "and-another-nested-level-to-pass-one-hundred-bytes".repeat(2)
    );
    vec![
        (
            "SKILL.md".into(),
            format!(
                "---\nname: {KEY}\ndescription: Checks extraction. Use when testing archives.\n---\n\nRun [the script](scripts/run.sh); read [the notes]({deep}) and [r\u{e9}sum\u{e9}](docs/r\u{e9}sum\u{e9}-\u{65e5}\u{672c}.md).\n"
            )
            .into_bytes(),
            false,
        ),
        (
            "scripts/run.sh".into(),
            b"#!/bin/sh\necho ok\n".to_vec(),
            true,
        ),
        (deep, b"# Deep notes\n".to_vec(), false),
        (
            "docs/r\u{e9}sum\u{e9}-\u{65e5}\u{672c}.md".into(),
            "# R\u{e9}sum\u{e9}\n".as_bytes().to_vec(),
            false,
        ),
        ("assets/data.bin".into(), (0..=255u8).collect(), false),
    ]
}

#[test]
fn signed_archives_extract_identically_everywhere() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let files = skill_files();
    assert!(files.iter().any(|(p, _, _)| KEY.len() + 1 + p.len() > 100));
    for (path, bytes, exec) in &files {
        let full = root.join(KEY).join(path);
        write(&full, bytes);
        let mode = if *exec { 0o755 } else { 0o644 };
        fs::set_permissions(&full, fs::Permissions::from_mode(mode)).unwrap();
    }
    assert_eq!(skillc(root, &["keygen"]).code, Some(0));
    for (format, archive, extractors) in [
        ("tar.gz", "skill.tar.gz", tar_extractors()),
        ("zip", "skill.zip", zip_extractors()),
    ] {
        let run = skillc(
            root,
            &[
                "pack",
                KEY,
                "--format",
                format,
                "-o",
                archive,
                "--key",
                "skillc.key",
            ],
        );
        assert_eq!(run.code, Some(0), "{format}: pack: {}", run.stderr);
        let run = skillc(root, &["verify", archive, "--key", "skillc.pub"]);
        assert_eq!(run.code, Some(0), "{format}: verify: {}", run.stderr);
        assert!(
            run.stderr.starts_with(&format!("OK: {archive}")),
            "{}",
            run.stderr
        );

        // What the manifest promises, plus the manifest itself.
        let manifest_bytes = fs::read(
            {
                let out = root.join(format!("unpacked-{format}"));
                let run = skillc(root, &["unpack", archive, "-C", out.to_str().unwrap()]);
                assert_eq!(run.code, Some(0), "{format}: unpack: {}", run.stderr);
                out
            }
            .join(KEY)
            .join(".skill-manifest.json"),
        )
        .unwrap();
        let manifest: serde_json::Value = serde_json::from_slice(&manifest_bytes).unwrap();
        let mut expected: BTreeMap<String, (Vec<u8>, bool)> = BTreeMap::new();
        for entry in manifest["files"].as_array().unwrap() {
            let path = entry["path"].as_str().unwrap();
            let (_, bytes, exec) = files.iter().find(|(p, _, _)| p == path).unwrap();
            assert_eq!(entry["executable"].as_bool(), Some(*exec), "{path}");
            expected.insert(format!("{KEY}/{path}"), (bytes.clone(), *exec));
        }
        assert_eq!(
            expected.len(),
            files.len(),
            "{format}: the manifest lists every file"
        );
        expected.insert(
            format!("{KEY}/.skill-manifest.json"),
            (manifest_bytes.clone(), false),
        );

        for x in &extractors {
            let Some(dest) = extract(x, &root.join(archive), root, format) else {
                continue;
            };
            let mut got = tree(&dest);
            let mut want = expected.clone();
            if !x.keeps_modes {
                got.values_mut().for_each(|v| v.1 = false);
                want.values_mut().for_each(|v| v.1 = false);
            }
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                want.keys().collect::<Vec<_>>(),
                "{format}: {} extracts other paths",
                x.name
            );
            assert!(
                got == want,
                "{format}: {} extracts other bytes or modes",
                x.name
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Ambiguous constructions: what the extractors do, and skillc's refusal.

fn octal_field(field: &mut [u8], value: u64) {
    let text = format!("{value:0width$o}", width = field.len() - 1);
    field[..text.len()].copy_from_slice(text.as_bytes());
}

fn gnu_header(name: &[u8], size: u64, prefix: &[u8]) -> [u8; 512] {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name);
    octal_field(&mut h[100..108], 0o644);
    octal_field(&mut h[108..116], 0);
    octal_field(&mut h[116..124], 0);
    octal_field(&mut h[124..136], size);
    octal_field(&mut h[136..148], 315_532_800);
    h[156] = b'0';
    h[257..265].copy_from_slice(b"ustar  \0");
    h[345..345 + prefix.len()].copy_from_slice(prefix);
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    h
}

fn tar_file(out: &mut Vec<u8>, name: &[u8], data: &[u8], prefix: &[u8]) {
    out.extend_from_slice(&gnu_header(name, data.len() as u64, prefix));
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

const SKILL_MD: &[u8] = b"---\nname: good\ndescription: Use when testing.\n---\n\nBody.\n";

fn refused(root: &Path, name: &str, bytes: &[u8], reason: &str) {
    fs::write(root.join(name), bytes).unwrap();
    let run = skillc(root, &["verify", name, "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
    assert_eq!(
        run.stderr.lines().next().unwrap_or(""),
        format!("FAIL: {name}: archive check failed: {reason}"),
        "{name}"
    );
}

#[test]
fn a_second_gzip_member_is_seen_by_gnu_tar() {
    let tmp = tempfile::tempdir().unwrap();
    let mut first = Vec::new();
    tar_file(&mut first, b"good/SKILL.md", SKILL_MD, b"");
    let mut second = Vec::new();
    tar_file(&mut second, b"good/hidden.sh", b"echo hidden\n", b"");
    second.extend_from_slice(&[0; 1024]);
    let bytes = [gzip(&first), gzip(&second)].concat();
    let path = tmp.path().join("two.tar.gz");
    fs::write(&path, &bytes).unwrap();
    if let Some(dest) = extract(&tar_extractors()[0], &path, tmp.path(), "two") {
        assert!(
            dest.join("good/hidden.sh").is_file(),
            "GNU tar reads both members"
        );
    }
    refused(
        tmp.path(),
        "two.tar.gz",
        &bytes,
        "reading the archive: the stream ends without its end-of-archive blocks (truncated?)",
    );
}

#[test]
fn a_gnu_prefix_area_moves_the_file_for_python_only() {
    let tmp = tempfile::tempdir().unwrap();
    let mut tar = Vec::new();
    tar_file(&mut tar, b"x.md", b"x\n", b"good");
    tar.extend_from_slice(&[0; 1024]);
    let bytes = gzip(&tar);
    let path = tmp.path().join("prefix.tar.gz");
    fs::write(&path, &bytes).unwrap();
    let xs = tar_extractors();
    if let Some(dest) = extract(&xs[0], &path, tmp.path(), "prefix") {
        assert!(
            dest.join("x.md").is_file(),
            "GNU tar ignores the GNU prefix area"
        );
    }
    if let Some(dest) = extract(&xs[2], &path, tmp.path(), "prefix") {
        assert!(
            dest.join("good/x.md").is_file(),
            "Python joins it as a prefix"
        );
    }
    refused(
        tmp.path(),
        "prefix.tar.gz",
        &bytes,
        "entry `x.md` has data in the GNU header's prefix area (read as a path prefix by some tools)",
    );
}

/// A stored zip with an extra local entry before the ones the central directory lists.
#[test]
fn a_local_entry_outside_the_central_directory_is_seen_by_bsdtar_only() {
    fn local(out: &mut Vec<u8>, name: &[u8], data: &[u8]) -> u32 {
        let at = out.len() as u32;
        let mut crc = flate2::Crc::new();
        crc.update(data);
        out.extend_from_slice(b"PK\x03\x04\x0a\x00\x00\x00\x00\x00\x00\x00\x21\x00");
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        at
    }
    let mut zip = Vec::new();
    local(&mut zip, b"good/hidden.sh", b"echo hidden\n");
    let at = local(&mut zip, b"good/SKILL.md", SKILL_MD);
    let cd = zip.len() as u32;
    let mut crc = flate2::Crc::new();
    crc.update(SKILL_MD);
    zip.extend_from_slice(b"PK\x01\x02\x14\x03\x0a\x00\x00\x00\x00\x00\x00\x00\x21\x00");
    zip.extend_from_slice(&crc.sum().to_le_bytes());
    zip.extend_from_slice(&(SKILL_MD.len() as u32).to_le_bytes());
    zip.extend_from_slice(&(SKILL_MD.len() as u32).to_le_bytes());
    zip.extend_from_slice(&13u16.to_le_bytes());
    zip.extend_from_slice(&[0; 8]);
    zip.extend_from_slice(&(0o100644u32 << 16).to_le_bytes());
    zip.extend_from_slice(&at.to_le_bytes());
    zip.extend_from_slice(b"good/SKILL.md");
    let cd_size = zip.len() as u32 - cd;
    zip.extend_from_slice(b"PK\x05\x06\0\0\0\0\x01\0\x01\0");
    zip.extend_from_slice(&cd_size.to_le_bytes());
    zip.extend_from_slice(&cd.to_le_bytes());
    zip.extend_from_slice(&[0, 0]);
    let path = tmp_write(&zip);
    let xs = zip_extractors();
    // Reading a pipe, bsdtar streams local headers (a seekable file it reads like unzip).
    let streaming = Extractor {
        name: "bsdtar streaming",
        keeps_modes: true,
        program: "sh",
        probe: &["-c", "command -v bsdtar"],
        args: |a, d| {
            vec![
                "-c".into(),
                "cat \"$1\" | bsdtar -xf - -C \"$2\"".into(),
                "sh".into(),
                s(a),
                s(d),
            ]
        },
    };
    if let Some(dest) = extract(&streaming, &path.1, path.0.path(), "hidden") {
        assert!(
            dest.join("good/hidden.sh").is_file(),
            "bsdtar streams local headers"
        );
    }
    if let Some(dest) = extract(&xs[1], &path.1, path.0.path(), "hidden") {
        assert!(
            !dest.join("good/hidden.sh").exists(),
            "bsdtar on a file seeks"
        );
    }
    if let Some(dest) = extract(&xs[0], &path.1, path.0.path(), "hidden") {
        assert!(
            !dest.join("good/hidden.sh").exists(),
            "unzip reads the central directory"
        );
    }
    refused(
        path.0.path(),
        "hidden.zip",
        &zip,
        &format!(
            "entry `good/SKILL.md`'s local header is at offset {at}, not right after the previous entry (0)"
        ),
    );
}

fn tmp_write(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("hidden.zip");
    fs::write(&path, bytes).unwrap();
    (tmp, path)
}
