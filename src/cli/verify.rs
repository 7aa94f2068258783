//! `skillc verify ARTIFACT --key PUB`: signature, digest, and the archive's integrity.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::{Outcome, fail};
use crate::config::Settings;
use crate::diagnostic::Severity;
use crate::package::manifest::{MANIFEST, Manifest};
use crate::package::reader::{self, Archive};
use crate::package::verify::{check_archive, check_files};
use crate::sign::{self, Bundle};

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
    pub fn ok(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }

    fn failure(&self) -> Option<&Check> {
        self.checks.iter().find(|c| !c.ok)
    }
}

/// Runs the checks of package.md. `key: None` skips checks 1 and 3 (integrity only).
pub fn verify(
    artifact: &Path,
    bundle_path: &Path,
    key: Option<&p256::ecdsa::VerifyingKey>,
) -> Verdict {
    let mut v = Verdict {
        checks: Vec::new(),
        key_hint: key.map(sign::hint),
        skill: None,
        archive: None,
    };
    let push = |v: &mut Verdict, name, result: Result<String, String>| {
        let ok = result.is_ok();
        let detail = result.unwrap_or_else(|e| e);
        v.checks.push(Check { name, ok, detail });
        ok
    };
    let bytes = match std::fs::read(artifact) {
        Ok(bytes) => bytes,
        Err(e) => {
            push(
                &mut v,
                "artifact",
                Err(format!("cannot read the artifact: {e}")),
            );
            return v;
        }
    };
    let bundle = std::fs::read(bundle_path)
        .map_err(|e| format!("cannot read the bundle `{}`: {e}", bundle_path.display()))
        .and_then(|b| Bundle::parse(&b));
    match (key, bundle) {
        (Some(key), bundle) => {
            let Some((bundle, signature)) = (match bundle {
                Ok(pair) => {
                    push(
                        &mut v,
                        "bundle",
                        Ok(format!("{} with a message signature", pair.0.media_type)),
                    );
                    Some(pair)
                }
                Err(e) => {
                    push(&mut v, "bundle", Err(e));
                    None
                }
            }) else {
                return v;
            };
            if !push(
                &mut v,
                "digest",
                sign::check_digest(&signature, &bytes).map(|()| "SHA-256 matches".into()),
            ) {
                return v;
            }
            if !push(
                &mut v,
                "signature",
                sign::check_signature(&bundle, &signature, key, &bytes)
                    .map(|()| "verifies with the public key".into()),
            ) {
                return v;
            }
        }
        (None, Ok((_, signature))) => {
            if !push(
                &mut v,
                "digest",
                sign::check_digest(&signature, &bytes).map(|()| "SHA-256 matches".into()),
            ) {
                return v;
            }
        }
        (None, Err(_)) => {}
    }
    if reader::sniff(&bytes).is_some() {
        match check_archive(&bytes)
            .and_then(|(archive, manifest)| validate(&archive).map(|()| (archive, manifest)))
        {
            Ok((archive, manifest)) => {
                push(
                    &mut v,
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
                push(&mut v, "archive", Err(e));
            }
        }
    }
    v
}

/// Extracts the archive into a temporary directory and lints the skill: no errors allowed.
fn validate(archive: &Archive) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| format!("creating a temporary directory: {e}"))?;
    let dir = tmp.path().join(&archive.key);
    reader::write_tree(&dir, &archive.files)?;
    let settings = Settings::default();
    let skill = crate::discover::SkillDir {
        file: crate::discover::skill_file_in(&dir),
        real: dir.canonicalize().unwrap_or_else(|_| dir.clone()),
        dir: dir.clone(),
        tier: crate::discover::Tier::Project,
        near_miss: None,
    };
    let reports = crate::lint::lint_all(vec![skill], &settings, tmp.path());
    let errors: Vec<String> = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.rule.code, d.message))
        .collect();
    match errors.first() {
        Some(first) => Err(format!(
            "the skill inside does not validate: {} error(s), first: {first}",
            errors.len()
        )),
        None => Ok(()),
    }
}

/// Integrity of an unpacked skill directory against its manifest.
fn verify_dir(dir: &Path) -> Result<String, String> {
    let manifest_path = dir.join(MANIFEST);
    let manifest = Manifest::parse(
        &std::fs::read(&manifest_path)
            .map_err(|e| format!("cannot read `{}`: {e}", manifest_path.display()))?,
    )?;
    let files = crate::package::file_set(
        dir,
        crate::package::Limits {
            max_size: reader::MAX_TOTAL,
        },
    )
    .map_err(|e| e.0)?;
    check_files(
        &manifest,
        files.iter().map(|f| (f.path.as_str(), f.bytes.as_slice())),
    )?;
    Ok(manifest.skill.key)
}

pub fn run(args: &Args) -> Outcome {
    let shown = args.artifact.display().to_string();
    if args.artifact.is_dir() {
        return match verify_dir(&args.artifact) {
            Ok(key) => {
                eprintln!(
                    "INTEGRITY OK: {shown} (skill {key}; files match the manifest; no signature checked)"
                );
                Outcome::Success
            }
            Err(e) => {
                eprintln!("FAIL: {shown}: {e}");
                Outcome::Problems
            }
        };
    }
    if !args.artifact.is_file() {
        return fail(Outcome::Usage, format!("path not found: {shown}"));
    }
    let key = match (&args.key, args.insecure_skip_signature) {
        (Some(path), _) => {
            let pem = match std::fs::read_to_string(path) {
                Ok(pem) => pem,
                Err(e) => {
                    return fail(
                        Outcome::Usage,
                        format!("reading the public key `{}`: {e}", path.display()),
                    );
                }
            };
            match sign::verifying_key(&pem) {
                Ok(key) => Some(key),
                Err(e) => return fail(Outcome::Usage, format!("`{}`: {e}", path.display())),
            }
        }
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
    let verdict = verify(&args.artifact, &bundle, key.as_ref());
    report(&verdict, &shown, args.format, key.is_some())
}

/// Prints a verdict and returns the outcome.
pub fn report(verdict: &Verdict, shown: &str, format: VerifyFormat, signed: bool) -> Outcome {
    if format == VerifyFormat::Json {
        let doc = json!({
            "artifact": shown,
            "ok": verdict.ok(),
            "checks": verdict.checks.iter().map(|c| json!({"name": c.name, "ok": c.ok, "detail": c.detail})).collect::<Vec<_>>(),
            "key_hint": verdict.key_hint,
            "skill": verdict.skill,
        });
        if let Some(outcome) =
            super::emit(&(serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"))
        {
            return outcome;
        }
    }
    match verdict.failure() {
        Some(check) => {
            eprintln!(
                "FAIL: {shown}: {} check failed: {}",
                check.name, check.detail
            );
            Outcome::Problems
        }
        None if signed => {
            let hint = verdict.key_hint.as_deref().unwrap_or("");
            let skill = verdict
                .skill
                .as_deref()
                .map_or(String::new(), |s| format!(", skill {s}"));
            eprintln!("OK: {shown} (key hint {hint}{skill})");
            Outcome::Success
        }
        None => {
            let skill = verdict
                .skill
                .as_deref()
                .map_or(String::new(), |s| format!(" (skill {s})"));
            eprintln!("INTEGRITY OK: {shown}{skill}; the signature was not checked");
            Outcome::Success
        }
    }
}
