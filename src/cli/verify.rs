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

use super::identity::IdentityArgs;
use super::{Outcome, fail};
use crate::input::{self, Links};
use crate::package::manifest::{MANIFEST, Manifest};
use crate::package::reader::{self, Archive};
use crate::package::verify::{Facts, check_archive, check_files};
use crate::render::escaped;
use crate::sign::haiku;
use crate::sign::keyless::{self, Policy, Signed, Trust};
use crate::sign::{self, Bundle, Kept, KeyError};
use p256::pkcs8::EncodePublicKey as _;

/// The largest manifest read: one lists at most `MAX_ENTRIES` files, each entry about 150
/// bytes of JSON plus its path, so 1 KiB an entry leaves room for long paths.
pub const MAX_MANIFEST: u64 = reader::MAX_ENTRIES as u64 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The signed file; `sha256:HEX` (its digest, without the file); a skill directory signed
    /// the haiku.skills way (`DIR/SKILL.sigstore`); or an unpacked skill directory holding
    /// `.skill-manifest.json`.
    artifact: PathBuf,
    /// The public key (SPKI PEM) of a key-based bundle.
    #[arg(long, value_name = "PUB")]
    key: Option<PathBuf>,
    #[command(flatten)]
    identity: IdentityArgs,
    /// The bundle (default ARTIFACT.sigstore.json).
    #[arg(long, value_name = "PATH")]
    bundle: Option<PathBuf>,
    /// Check only integrity (digest and archive), not the signature: prints INTEGRITY OK.
    #[arg(long)]
    insecure_skip_signature: bool,
    /// Output format (`--format` is the same flag).
    #[arg(
        long = "output-format",
        visible_alias = "format",
        value_name = "FORMAT",
        value_enum,
        default_value = "text"
    )]
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
    /// Who signed, from a verified keyless (or logged) bundle.
    signer: Option<Signed>,
    /// What the signature covered, when it is not the file itself (a directory's digest).
    subject: Option<String>,
    /// What lies in a haiku-signed directory that its digest does not cover.
    uncovered: Option<haiku::Uncovered>,
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

    /// Records a keyless verification: the failed check, or the signature and the signer.
    fn push_signed(&mut self, result: Result<Signed, keyless::Failure>) -> bool {
        match result {
            Ok(signed) => {
                self.push(
                    "signature",
                    Ok(
                        "certificate chain, SCT, transparency log, signature and digest verify"
                            .into(),
                    ),
                );
                self.signer = Some(signed);
                true
            }
            Err(failure) => {
                self.checks.push(Check {
                    name: failure.check,
                    ok: false,
                    detail: failure.detail,
                });
                false
            }
        }
    }

    /// Records a check; returns whether it passed.
    fn push(&mut self, name: &'static str, result: Result<String, String>) -> bool {
        let ok = result.is_ok();
        let detail = result.unwrap_or_else(|e| e);
        self.checks.push(Check { name, ok, detail });
        ok
    }
}

/// What the signature is checked with.
pub enum Signature<'a> {
    /// A public key: a key-based bundle, offline (or, when the bundle carries transparency-log
    /// entries, those too, against the trust).
    Key(&'a p256::ecdsa::VerifyingKey, &'a Trust),
    /// A keyless bundle: the certificate, log and signature against the trust, and the signer
    /// against the policy.
    Keyless(&'a Policy, &'a Trust),
    /// Integrity only (digest and archive).
    Unchecked,
}

/// Runs the checks of package.md with the bundle at `bundle_path`, which must exist.
pub fn verify(artifact: &Path, bundle_path: &Path, signature: &Signature<'_>) -> Verdict {
    check(artifact, bundle_path, true, signature)
}

/// Runs the checks. Without a signature check and with `bundle_required` false, an absent
/// bundle skips the digest check; if no check at all could run, that is the failure.
fn check(
    artifact: &Path,
    bundle_path: &Path,
    bundle_required: bool,
    signature: &Signature<'_>,
) -> Verdict {
    let key = match signature {
        Signature::Key(key, _) => Some(*key),
        _ => None,
    };
    let mut v = Verdict {
        checks: Vec::new(),
        key_hint: key.map(sign::hint),
        skill: None,
        archive: None,
        signer: None,
        subject: None,
        uncovered: None,
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
    let required = bundle_required || !matches!(signature, Signature::Unchecked);
    let bundle_bytes = match read_bundle_bytes(bundle_path, required) {
        Ok(bytes) => bytes,
        Err(e) => {
            v.push("bundle", Err(e));
            return v;
        }
    };
    let logged = bundle_bytes
        .as_deref()
        .is_some_and(keyless::has_tlog_entries);
    let keyless_check = match signature {
        Signature::Keyless(policy, trust) => Some(((*policy).clone(), *trust)),
        Signature::Key(key, trust) if logged => key
            .to_public_key_der()
            .ok()
            .map(|der| (Policy::Key(der.as_bytes().to_vec()), *trust)),
        _ => None,
    };
    if let (Some((policy, trust)), Some(bytes)) = (keyless_check, &bundle_bytes) {
        let sha256: [u8; 32] = read.digest.clone().finalize().into();
        let subject = match &read.kept {
            Kept::Bytes(archive) => keyless::Subject::Bytes(archive),
            _ => keyless::Subject::File {
                path: artifact,
                sha256,
            },
        };
        if !v.push_signed(verify_keyless(subject, bytes, &policy, trust)) {
            return v;
        }
    } else if let Some(bytes) = &bundle_bytes {
        let (bundle, signature) = match Bundle::parse(bytes) {
            Ok(parsed) => parsed,
            Err(e) => {
                v.push("bundle", Err(e));
                return v;
            }
        };
        v.push(
            "bundle",
            Ok(format!("{} with a message signature", bundle.media_type)),
        );
        let sha256 = read.digest.clone().finalize();
        if !v.push(
            "digest",
            sign::check_sha256(&signature, &sha256).map(|()| "SHA-256 matches".into()),
        ) {
            return v;
        }
        if let Some(key) = key
            && !v.push(
                "signature",
                sign::check_signature_digest(&bundle, &signature, key, read.digest.clone())
                    .map(|()| "verifies with the public key".into()),
            )
        {
            return v;
        }
    }
    match read.kept {
        Kept::Streamed if bundle_bytes.is_none() => {
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

/// A keyless (or logged key-based) bundle against its trust and policy.
fn verify_keyless(
    subject: keyless::Subject<'_>,
    bundle: &[u8],
    policy: &Policy,
    trust: &Trust,
) -> Result<Signed, keyless::Failure> {
    let root = trust.load()?;
    keyless::verify(subject, bundle, policy, &root)
}

/// Reads the bundle under [`sign::MAX_BUNDLE`]. `Ok(None)`: it does not exist and was not
/// required (the default path, integrity only).
fn read_bundle_bytes(path: &Path, required: bool) -> Result<Option<Vec<u8>>, String> {
    match input::read_bounded(path, sign::MAX_BUNDLE, Links::Follow) {
        Ok(bytes) => Ok(Some(bytes)),
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
    let policy = match args.identity.policy() {
        Ok(policy) => policy,
        Err(e) => return fail(Outcome::Usage, e),
    };
    let trust = args.identity.trust();
    if let Some(digest) = args.artifact.to_str().and_then(keyless::parse_sha256) {
        let digest = match digest {
            Ok(digest) => digest,
            Err(e) => return fail(Outcome::Usage, e),
        };
        return verify_digest(args, digest, policy.as_ref(), &trust);
    }
    if args.artifact.is_dir() {
        let haiku_bundle = args
            .bundle
            .clone()
            .unwrap_or_else(|| args.artifact.join(haiku::BUNDLE_FILE));
        if args.bundle.is_some() || std::fs::symlink_metadata(&haiku_bundle).is_ok() {
            return verify_haiku_dir(args, &haiku_bundle, policy.as_ref(), &trust);
        }
        if args.key.is_some()
            || policy.is_some()
            || args.identity.trusted_root.is_some()
            || args.identity.staging
        {
            return fail(
                Outcome::Usage,
                format!(
                    "`{shown}` holds no signature to check: no `{}` (pass --bundle PATH for \
                     one elsewhere), and an unpacked skill's `{MANIFEST}` is not signed \
                     (`skillc verify {shown}` checks the files against it, integrity only); \
                     verify the signed archive instead",
                    haiku::BUNDLE_FILE
                ),
            );
        }
        let result = verify_dir(&args.artifact);
        if args.format == VerifyFormat::Json {
            let (ok, detail, skill) = match &result {
                Ok(key) => (
                    true,
                    "the files match the manifest (no signature checked)".to_string(),
                    Some(key.clone()),
                ),
                Err(e) => (false, e.clone(), None),
            };
            let doc = json!({
                "artifact": args.artifact.display().to_string(),
                "ok": ok,
                "checks": [{"name": "manifest", "ok": ok, "detail": detail}],
                "key_hint": null,
                "skill": skill,
            });
            if let Some(outcome) = super::emit(&(crate::render::json_text(&doc) + "\n")) {
                return outcome;
            }
        }
        return match result {
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
                    "`{shown}` is not a regular file; verify checks a file, `sha256:HEX` or a \
                     skill directory"
                ),
            );
        }
        Ok(_) => {}
    }
    let key = match &args.key {
        Some(path) => match read_public_key(path) {
            Ok(key) => Some(key),
            Err(outcome) => return outcome,
        },
        None => None,
    };
    let bundle = args
        .bundle
        .clone()
        .unwrap_or_else(|| super::sign::default_bundle(&args.artifact));
    let signature = match (&key, &policy, args.insecure_skip_signature) {
        (Some(key), _, _) => Signature::Key(key, &trust),
        (None, Some(policy), _) => Signature::Keyless(policy, &trust),
        (None, None, true) => Signature::Unchecked,
        (None, None, false) => return fail(Outcome::Usage, NEEDS_POLICY),
    };
    let verdict = check(&args.artifact, &bundle, args.bundle.is_some(), &signature);
    let named = args.artifact.display().to_string();
    report(&verdict, &named, args.format, &signature)
}

/// Who must have signed what is verified by its digest alone (`sha256:HEX`, a haiku.skills
/// directory): the key of a logged key-based bundle, or the identity policy.
fn digest_policy(
    args: &Args,
    policy: Option<&Policy>,
    what: &str,
) -> Result<(Option<p256::ecdsa::VerifyingKey>, Policy), Outcome> {
    let key = args.key.as_deref().map(read_public_key).transpose()?;
    let policy = match (&key, policy) {
        (Some(key), _) => match key.to_public_key_der() {
            Ok(der) => Policy::Key(der.as_bytes().to_vec()),
            Err(e) => return Err(fail(Outcome::Usage, format!("the public key: {e}"))),
        },
        (None, Some(policy)) => policy.clone(),
        (None, None) => return Err(fail(Outcome::Usage, needs_policy_signed_only(what))),
    };
    Ok((key, policy))
}

/// `verify DIR` where DIR holds `SKILL.sigstore` (or `--bundle` names one): the directory by
/// haiku.skills' digest, against a keyless (or logged key-based) bundle.
fn verify_haiku_dir(
    args: &Args,
    bundle_path: &Path,
    policy: Option<&Policy>,
    trust: &Trust,
) -> Outcome {
    let named = args.artifact.display().to_string();
    let (key, policy) = match digest_policy(
        args,
        policy,
        "a skill directory signed the haiku.skills way",
    ) {
        Ok(resolved) => resolved,
        Err(outcome) => return outcome,
    };
    let mut v = Verdict {
        checks: Vec::new(),
        key_hint: key.as_ref().map(sign::hint),
        skill: None,
        archive: None,
        signer: None,
        subject: None,
        uncovered: None,
    };
    let mut uncovered_error = None;
    let bundle = match read_bundle_bytes(bundle_path, true) {
        Ok(Some(bytes)) => Some(bytes),
        Ok(None) => None,
        Err(e) => {
            v.push("bundle", Err(e));
            None
        }
    };
    if let Some(bundle) = bundle {
        match haiku::digest(&args.artifact) {
            Ok(digest) => {
                v.subject = Some(format!(
                    "; {} by haiku.skills' directory digest",
                    plural(digest.files.len(), "file", "files")
                ));
                if v.push_signed(verify_keyless(
                    keyless::Subject::Sha256(digest.sha256),
                    &bundle,
                    &policy,
                    trust,
                )) {
                    match haiku::uncovered(&args.artifact, &digest.files) {
                        Ok(uncovered) => v.uncovered = Some(uncovered),
                        Err(e) => uncovered_error = Some(e),
                    }
                }
            }
            Err(e) => {
                v.push("digest", Err(e));
            }
        }
    }
    let signature = match &key {
        Some(key) => Signature::Key(key, trust),
        None => Signature::Keyless(&policy, trust),
    };
    let outcome = report(&v, &named, args.format, &signature);
    if v.ok() {
        if let Some(e) = uncovered_error {
            eprintln!(
                "note: skillc could not list what the signature does not cover: {}",
                escaped(&e)
            );
        }
        if let Some(uncovered) = v.uncovered.as_ref().filter(|u| !u.paths.is_empty()) {
            eprintln!("{}", uncovered_note(&named, uncovered));
        }
    }
    if v.ok() && args.format == VerifyFormat::Text {
        eprintln!("{HAIKU_NOTE}");
    }
    outcome
}

/// The most uncovered paths named in the note.
const UNCOVERED_SHOWN: usize = 10;

/// Names what is in a haiku-signed directory that its signature does not vouch for.
fn uncovered_note(named: &str, uncovered: &haiku::Uncovered) -> String {
    let count = uncovered.paths.len();
    let mut shown: Vec<String> = uncovered
        .paths
        .iter()
        .take(UNCOVERED_SHOWN)
        .map(|p| escaped(p))
        .collect();
    let rest = count - shown.len();
    if rest > 0 || uncovered.more {
        shown.push(if uncovered.more {
            format!("and more (skillc looked at {} entries)", haiku::MAX_ENTRIES)
        } else {
            format!("and {rest} more")
        });
    }
    format!(
        "note: {} under {} {} not covered by the signature (haiku.skills leaves out hidden, \
         ignored, cache and compiled files, links to directories and special files, so anyone \
         may have added or changed them): {}",
        plural(count, "file", "files"),
        escaped(named),
        if count == 1 { "is" } else { "are" },
        shown.join(", ")
    )
}

/// What a haiku.skills directory digest does not vouch for.
const HAIKU_NOTE: &str = "note: haiku.skills' directory digest has no separators between a \
     path and its content or between files, so another set of files can have the same digest \
     (`a.md` holding `bc` and `a.mdb` holding `c`); for new skills, `skillc pack` and sign the \
     archive, whose manifest lists every path, size and SHA-256";

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// What `verify` says when it was given nothing to check a signature with.
const NEEDS_POLICY: &str = "verify needs who signed: --key PUB for a key-based bundle, or \
     --certificate-identity ID --certificate-oidc-issuer URL for a keyless one (or \
     --insecure-skip-signature to check integrity only)";

/// What `verify` says when given nothing to check the signature of something that has no
/// integrity without it (a haiku-signed directory, a digest): no `--insecure-skip-signature`.
fn needs_policy_signed_only(what: &str) -> String {
    format!(
        "verify needs who signed: --key PUB for a key-based bundle, or --certificate-identity \
         ID --certificate-oidc-issuer URL for a keyless one; {what} has nothing to check but its \
         signature, so --insecure-skip-signature does not apply (--insecure-ignore-identity \
         checks the signature without the signer)"
    )
}

/// `verify sha256:HEX --bundle PATH`: a keyless (or logged) bundle against a digest.
fn verify_digest(args: &Args, digest: [u8; 32], policy: Option<&Policy>, trust: &Trust) -> Outcome {
    let named = args.artifact.display().to_string();
    let Some(bundle_path) = &args.bundle else {
        return fail(
            Outcome::Usage,
            format!(
                "verifying `{}` (a digest) needs --bundle PATH",
                escaped(&named)
            ),
        );
    };
    let (key, policy) = match digest_policy(args, policy, "a digest") {
        Ok(resolved) => resolved,
        Err(outcome) => return outcome,
    };
    let mut v = Verdict {
        checks: Vec::new(),
        key_hint: key.as_ref().map(sign::hint),
        skill: None,
        archive: None,
        signer: None,
        subject: None,
        uncovered: None,
    };
    match read_bundle_bytes(bundle_path, true) {
        Ok(Some(bytes)) => {
            v.push_signed(verify_keyless(
                keyless::Subject::Sha256(digest),
                &bytes,
                &policy,
                trust,
            ));
        }
        Ok(None) => {
            v.push("bundle", Err("no bundle".into()));
        }
        Err(e) => {
            v.push("bundle", Err(e));
        }
    };
    let signature = match &key {
        Some(key) => Signature::Key(key, trust),
        None => Signature::Keyless(&policy, trust),
    };
    report(&v, &named, args.format, &signature)
}

/// Prints a verdict and returns the outcome. `named` is the artifact as the user named it:
/// JSON carries it as is, text prints it escaped.
pub fn report(
    verdict: &Verdict,
    named: &str,
    format: VerifyFormat,
    signature: &Signature<'_>,
) -> Outcome {
    let identity_checked = !matches!(signature, Signature::Keyless(Policy::AnyIdentity, _));
    if format == VerifyFormat::Json {
        let doc = json!({
            "artifact": named,
            "ok": verdict.ok(),
            "checks": verdict.checks.iter().map(|c| json!({"name": c.name, "ok": c.ok, "detail": c.detail})).collect::<Vec<_>>(),
            "key_hint": verdict.key_hint,
            "skill": verdict.skill,
            "signer": verdict.signer.as_ref().map(|s| json!({
                "identity": s.identity,
                "issuer": s.issuer,
                "logged_at": s.logged_at,
                "identity_checked": identity_checked,
            })),
        });
        let mut doc = doc;
        if let Some(uncovered) = &verdict.uncovered {
            doc["not_covered"] = json!(uncovered.paths);
            if uncovered.more {
                doc["not_covered_truncated"] = json!(true);
            }
        }
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
        None if matches!(signature, Signature::Unchecked) => {
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
        None => {
            // Only a skill archive (tar.gz or zip) is read and checked against its manifest;
            // any other file gets a signature verdict, and says so.
            let skill = match (skill, &verdict.subject) {
                (Some(s), _) => format!(", skill {s}"),
                (None, Some(subject)) => subject.clone(),
                (None, None) if named.starts_with("sha256:") => String::new(),
                (None, None) => {
                    "; not a skill archive: only the signature and digest were checked".to_string()
                }
            };
            let mut facts = Vec::new();
            if let Some(hint) = &verdict.key_hint {
                facts.push(format!("key hint {hint}"));
            }
            if let Some(signer) = &verdict.signer {
                if let Some(identity) = &signer.identity {
                    facts.push(format!("identity {}", escaped(identity)));
                }
                if let Some(issuer) = &signer.issuer {
                    facts.push(format!("issuer {}", escaped(issuer)));
                }
                if let Some(at) = &signer.logged_at {
                    facts.push(format!("logged at {at}"));
                }
            }
            let facts = facts.join(", ");
            if identity_checked {
                eprintln!("OK: {shown} ({facts}{skill})");
            } else {
                eprintln!(
                    "SIGNATURE OK, SIGNER NOT CHECKED (--insecure-ignore-identity): {shown} \
                     (signed by {facts}{skill})"
                );
            }
            Outcome::Success
        }
    }
}
