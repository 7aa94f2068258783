//! `skillc verify ARTIFACT --key PUB`: signature, digest, and the archive's integrity; and
//! `skillc verify DIR`: an unpacked skill's files against its manifest.
//!
//! Everything read here is untrusted: the artifact is hashed while streamed (only an archive
//! small enough for the reader is held in memory), the bundle, the key and the manifest are
//! read under caps, and every string that came from them or from a path is printed escaped.

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde_json::json;
use sha2::{Digest, Sha256};

use super::{Outcome, fail};
use crate::input::{self, Links};
use crate::package::manifest::{MANIFEST, Manifest};
use crate::package::reader::{self, Archive};
use crate::package::verify::{Facts, check_archive, check_files};
use crate::render::escaped;
use crate::sign::{self, Bundle, Kept, KeyError, MessageSignature};

/// The largest manifest read: one lists at most `MAX_ENTRIES` files, each entry about 150
/// bytes of JSON plus its path, so 1 KiB an entry leaves room for long paths.
pub const MAX_MANIFEST: u64 = reader::MAX_ENTRIES as u64 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The signed file, or an unpacked skill directory holding `.skill-manifest.json`.
    artifact: PathBuf,
    /// The public key (SPKI PEM).
    #[arg(long, value_name = "PUB")]
    key: Option<PathBuf>,
    /// The bundle (default ARTIFACT.sigstore.json).
    #[arg(long, value_name = "PATH")]
    bundle: Option<PathBuf>,
    /// Check only integrity (digest and archive), not the signature: prints INTEGRITY OK.
    #[arg(long)]
    insecure_skip_signature: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: VerifyFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VerifyFormat {
    Text,
    Json,
}

/// One check's result.
struct Check {
    name: &'static str,
    ok: bool,
    detail: String,
}

/// The result of verifying: the checks run, in order, stopping at the first failure.
pub struct Verdict {
    checks: Vec<Check>,
    key_hint: Option<String>,
    skill: Option<String>,
    /// The archive, when the artifact is one and it was read.
    pub archive: Option<Archive>,
}

impl Verdict {
    /// Whether at least one check ran and every check passed: a verdict with no passed check
    /// vouches for nothing.
    pub fn ok(&self) -> bool {
        !self.checks.is_empty() && self.checks.iter().all(|c| c.ok)
    }

    fn failure(&self) -> Option<&Check> {
        self.checks.iter().find(|c| !c.ok)
    }

    /// Records a check; returns whether it passed.
    fn push(&mut self, name: &'static str, result: Result<String, String>) -> bool {
        let ok = result.is_ok();
        let detail = result.unwrap_or_else(|e| e);
        self.checks.push(Check { name, ok, detail });
        ok
    }
}

/// Runs the checks of package.md with the bundle at `bundle_path`, which must exist.
/// `key: None` skips check 3 (integrity only).
pub fn verify(
    artifact: &Path,
    bundle_path: &Path,
    key: Option<&p256::ecdsa::VerifyingKey>,
) -> Verdict {
    check(artifact, bundle_path, true, key)
}

/// Runs the checks. Without a key and with `bundle_required` false, an absent bundle skips
/// the digest check; if no check at all could run, that is the failure.
fn check(
    artifact: &Path,
    bundle_path: &Path,
    bundle_required: bool,
    key: Option<&p256::ecdsa::VerifyingKey>,
) -> Verdict {
    let mut v = Verdict {
        checks: Vec::new(),
        key_hint: key.map(sign::hint),
        skill: None,
        archive: None,
    };
    let read = match sign::read_artifact(
        artifact,
        |head| reader::sniff(head).is_some(),
        reader::MAX_ARCHIVE,
    ) {
        Ok(read) => read,
        Err(e) => {
            v.push("artifact", Err(format!("cannot read the artifact: {e}")));
            return v;
        }
    };
    let bundle = match read_bundle(bundle_path, bundle_required || key.is_some()) {
        Ok(Some((bundle, signature))) => {
            v.push(
                "bundle",
                Ok(format!("{} with a message signature", bundle.media_type)),
            );
            Some((bundle, signature))
        }
        Ok(None) => None,
        Err(e) => {
            v.push("bundle", Err(e));
            return v;
        }
    };
    if let Some((bundle, signature)) = &bundle {
        let sha256 = read.digest.clone().finalize();
        if !v.push(
            "digest",
            sign::check_sha256(signature, &sha256).map(|()| "SHA-256 matches".into()),
        ) {
            return v;
        }
        if let Some(key) = key
            && !v.push(
                "signature",
                sign::check_signature_digest(bundle, signature, key, read.digest.clone())
                    .map(|()| "verifies with the public key".into()),
            )
        {
            return v;
        }
    }
    match read.kept {
        Kept::Streamed if bundle.is_none() => {
            v.push(
                "integrity",
                Err(format!(
                    "nothing was checked: `{}` is not a skill archive and has no bundle \
                     (`{}` does not exist); pass --bundle PATH, or --key PUB to check a signature",
                    artifact.display(),
                    bundle_path.display()
                )),
            );
        }
        Kept::Streamed => {}
        Kept::TooLarge(size) => {
            v.push(
                "archive",
                Err(format!(
                    "the archive is {size} bytes; skillc reads archives of at most \
                     {} bytes",
                    reader::MAX_ARCHIVE
                )),
            );
        }
        Kept::Bytes(bytes) => match check_archive(&bytes).and_then(|(archive, manifest)| {
            crate::package::verify::validate_skill(&archive).map(|()| (archive, manifest))
        }) {
            Ok((archive, manifest)) => {
                v.push(
                    "archive",
                    Ok(format!(
                        "{} files match the manifest; the skill validates",
                        manifest.files.len()
                    )),
                );
                v.skill = Some(manifest.skill.key);
                v.archive = Some(archive);
            }
            Err(e) => {
                v.push("archive", Err(e));
            }
        },
    }
    v
}

/// Reads and parses the bundle under [`sign::MAX_BUNDLE`]. `Ok(None)`: it does not exist and
/// was not required (the default path, integrity only).
fn read_bundle(path: &Path, required: bool) -> Result<Option<(Bundle, MessageSignature)>, String> {
    match input::read_bounded(path, sign::MAX_BUNDLE, Links::Follow) {
        Ok(bytes) => Bundle::parse(&bytes).map(Some),
        Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read the bundle `{}`: {e}", path.display())),
    }
}

/// Integrity of an unpacked skill directory against its manifest: every regular file under
/// DIR, hidden, ignored and cache files included, must be listed with its size and SHA-256,
/// every listed file must be present, and nothing else (no symlink, no special file) may be.
fn verify_dir(dir: &Path) -> Result<String, String> {
    let manifest_path = dir.join(MANIFEST);
    let bytes = input::read_bounded(&manifest_path, MAX_MANIFEST, Links::Refuse)
        .map_err(|e| format!("cannot read `{}`: {e}", manifest_path.display()))?;
    let manifest = Manifest::parse(&bytes)?;
    if manifest.files.len() > reader::MAX_ENTRIES {
        return Err(format!(
            "the manifest lists {} files; the limit is {}",
            manifest.files.len(),
            reader::MAX_ENTRIES
        ));
    }
    let files = files_under(dir)?;
    check_files(
        &manifest,
        files.iter().map(|path| (path.as_str(), path)),
        |path, entry| file_facts(&dir.join(path), path, entry.size),
    )?;
    Ok(manifest.skill.key)
}

/// Every regular file under `dir` except the top-level manifest, as sorted `/`-separated
/// relative paths. A symlink, a special file or a non-UTF-8 name is an error, and so is a
/// tree larger than any manifest can describe.
fn files_under(dir: &Path) -> Result<BTreeSet<String>, String> {
    let mut files = BTreeSet::new();
    let mut seen: usize = 0;
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, prefix)) = stack.pop() {
        let entries =
            std::fs::read_dir(&path).map_err(|e| format!("reading `{}`: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("reading `{}`: {e}", path.display()))?;
            seen += 1;
            if seen > 2 * reader::MAX_ENTRIES {
                return Err(format!(
                    "the directory holds more than {} entries; a manifest lists at most {} files",
                    2 * reader::MAX_ENTRIES,
                    reader::MAX_ENTRIES
                ));
            }
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return Err(format!(
                    "`{}` is not a UTF-8 file name; manifests list UTF-8 paths",
                    entry.path().display()
                ));
            };
            let rel = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}/{name}")
            };
            let kind = entry
                .file_type()
                .map_err(|e| format!("reading `{rel}`: {e}"))?;
            if kind.is_dir() {
                stack.push((entry.path(), rel));
            } else if kind.is_symlink() {
                return Err(format!(
                    "`{rel}` is a symbolic link; an unpacked skill holds regular files only"
                ));
            } else if !kind.is_file() {
                return Err(format!(
                    "`{rel}` is a special file (FIFO, socket or device); an unpacked skill \
                     holds regular files only"
                ));
            } else if rel != MANIFEST {
                files.insert(rel);
            }
        }
    }
    Ok(files)
}

/// One file's size and execute bit, then its SHA-256 while streaming it when the size is the
/// listed one (never following a link, never reading more than the listed size plus one byte).
fn file_facts(path: &Path, rel: &str, size: u64) -> Result<Facts, String> {
    let reading = |e: std::io::Error| format!("reading `{}`: {e}", escaped(rel));
    let file = input::open(path, Links::Refuse).map_err(reading)?;
    let meta = file.metadata().map_err(reading)?;
    if !meta.is_file() {
        return Err(format!("`{}` is not a regular file", escaped(rel)));
    }
    let executable = crate::files::is_executable(&meta);
    if meta.len() != size {
        return Ok(Facts {
            size: meta.len(),
            sha256: String::new(),
            executable,
        });
    }
    let mut digest = Sha256::new();
    let read =
        std::io::copy(&mut file.take(size.saturating_add(1)), &mut digest).map_err(reading)?;
    if read != size {
        return Err(format!(
            "`{}` changed while being read ({read} bytes; the manifest says {size})",
            escaped(rel)
        ));
    }
    Ok(Facts {
        size,
        sha256: crate::package::hex(&digest.finalize()),
        executable,
    })
}

/// Reads a public key file: capped, then parsed, with a message that says what the file is
/// when it is not a P-256 public key.
pub fn read_public_key(path: &Path) -> Result<p256::ecdsa::VerifyingKey, Outcome> {
    let shown = escaped(&path.display().to_string());
    let bytes = input::read_bounded(path, sign::MAX_KEY_FILE, Links::Follow).map_err(|e| {
        fail(
            Outcome::Usage,
            format!("reading the public key `{shown}`: {e}"),
        )
    })?;
    sign::verifying_key(&String::from_utf8_lossy(&bytes)).map_err(|e| {
        let message = match (&e, super::sign::sibling(path, "key", "pub")) {
            (KeyError::PrivateKey, Some(public)) => format!(
                "`{shown}`: this is a private key; verify with the public key `{}`",
                escaped(&public.display().to_string())
            ),
            _ => format!("`{shown}`: {e}"),
        };
        fail(Outcome::Usage, message)
    })
}

pub fn run(args: &Args) -> Outcome {
    let shown = escaped(&args.artifact.display().to_string());
    if args.artifact.is_dir() {
        return match verify_dir(&args.artifact) {
            Ok(key) => {
                eprintln!(
                    "INTEGRITY OK: {shown} (skill {}; files match the manifest; no signature checked)",
                    escaped(&key)
                );
                Outcome::Success
            }
            Err(e) => {
                eprintln!("FAIL: {shown}: {}", escaped(&e));
                Outcome::Problems
            }
        };
    }
    match std::fs::metadata(&args.artifact) {
        Err(_) => return fail(Outcome::Usage, format!("path not found: {shown}")),
        Ok(meta) if !meta.is_file() => {
            return fail(
                Outcome::Usage,
                format!(
                    "`{shown}` is not a regular file; verify checks a file or an unpacked \
                     skill directory"
                ),
            );
        }
        Ok(_) => {}
    }
    let key = match (&args.key, args.insecure_skip_signature) {
        (Some(path), _) => match read_public_key(path) {
            Ok(key) => Some(key),
            Err(outcome) => return outcome,
        },
        (None, true) => None,
        (None, false) => {
            return fail(
                Outcome::Usage,
                "verify needs --key PUB (or --insecure-skip-signature to check integrity only)",
            );
        }
    };
    let bundle = args
        .bundle
        .clone()
        .unwrap_or_else(|| super::sign::default_bundle(&args.artifact));
    let verdict = check(&args.artifact, &bundle, args.bundle.is_some(), key.as_ref());
    let named = args.artifact.display().to_string();
    report(&verdict, &named, args.format, key.is_some())
}

/// Prints a verdict and returns the outcome. `named` is the artifact as the user named it:
/// JSON carries it as is, text prints it [`printable`].
pub fn report(verdict: &Verdict, named: &str, format: VerifyFormat, signed: bool) -> Outcome {
    if format == VerifyFormat::Json {
        let doc = json!({
            "artifact": named,
            "ok": verdict.ok(),
            "checks": verdict.checks.iter().map(|c| json!({"name": c.name, "ok": c.ok, "detail": c.detail})).collect::<Vec<_>>(),
            "key_hint": verdict.key_hint,
            "skill": verdict.skill,
        });
        if let Some(outcome) = super::emit(&(crate::render::json_text(&doc) + "\n")) {
            return outcome;
        }
    }
    let shown = escaped(named);
    let skill = verdict.skill.as_deref().map(escaped);
    match verdict.failure() {
        Some(check) => {
            eprintln!(
                "FAIL: {shown}: {} check failed: {}",
                check.name,
                escaped(&check.detail)
            );
            Outcome::Problems
        }
        None if !verdict.ok() => {
            eprintln!("FAIL: {shown}: no check ran");
            Outcome::Problems
        }
        None if signed => {
            let hint = verdict.key_hint.as_deref().unwrap_or("");
            // Only a skill archive (tar.gz or zip) is read and checked against its manifest;
            // any other file gets a signature verdict, and says so.
            let skill = skill.map_or(
                "; not a skill archive: only the signature and digest were checked".to_string(),
                |s| format!(", skill {s}"),
            );
            eprintln!("OK: {shown} (key hint {hint}{skill})");
            Outcome::Success
        }
        None => {
            let checked: Vec<&str> = verdict
                .checks
                .iter()
                .map(|c| c.name)
                .filter(|name| matches!(*name, "digest" | "archive"))
                .collect();
            let skill = skill.map_or(String::new(), |s| format!("; skill {s}"));
            eprintln!(
                "INTEGRITY OK: {shown} (checked: {}{skill}); the signature was not checked",
                checked.join(", ")
            );
            Outcome::Success
        }
    }
}
