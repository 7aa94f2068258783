//! `skillc sign ARTIFACT --key KEY`: a Sigstore bundle v0.3 for any file; `skillc sign
//! ARTIFACT|DIR --keyless`: one for an OIDC identity ([`Keyless`], shared with `pack`).

use std::path::{Path, PathBuf};

use p256::elliptic_curve::zeroize::Zeroizing;

use super::{Outcome, fail};
use crate::package::archive::write_atomic;
use crate::render::escaped;
use crate::sign::{self, KeyError};

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("method").required(true).args(["key", "keyless"]))]
pub struct Args {
    /// The file to sign (normally a skill archive), or with --keyless a skill directory.
    artifact: PathBuf,
    /// The private key (PKCS#8 PEM; encrypted keys read SKILLC_KEY_PASSWORD).
    #[arg(long, value_name = "KEY")]
    key: Option<PathBuf>,
    #[command(flatten)]
    keyless: KeylessArgs,
    /// Where to write the bundle (default ARTIFACT.sigstore.json; DIR/SKILL.sigstore for a
    /// directory).
    #[arg(long, value_name = "PATH")]
    bundle: Option<PathBuf>,
    /// Replace an existing bundle.
    #[arg(long)]
    force: bool,
}

/// `--keyless` and where its identity comes from: shared by `sign` and `pack`.
#[derive(Debug, clap::Args)]
pub struct KeylessArgs {
    /// Sign with a short-lived Sigstore certificate for an OIDC identity instead of a key.
    #[arg(long, conflicts_with = "key")]
    pub keyless: bool,
    /// The OIDC identity token (default: SIGSTORE_ID_TOKEN, else GitHub Actions' token, else
    /// a login on a terminal).
    #[arg(
        long,
        value_name = "TOKEN",
        requires = "keyless",
        conflicts_with = "key"
    )]
    pub identity_token: Option<String>,
    /// Sign with Sigstore's staging instance (for trying it out; not for releases).
    #[arg(long, requires = "keyless", conflicts_with = "key")]
    pub staging: bool,
}

/// `ARTIFACT.sigstore.json`.
pub fn default_bundle(artifact: &Path) -> PathBuf {
    PathBuf::from(format!("{}.sigstore.json", artifact.display()))
}

/// Reads a private key file: capped (a key is small; a FIFO or a device is refused without
/// blocking), then parsed, with a message that says what the file is when it is not a
/// P-256 private key.
pub fn read_key(path: &Path) -> Result<p256::ecdsa::SigningKey, Outcome> {
    let shown = escaped(&path.display().to_string());
    let bytes = crate::input::read_bounded(path, sign::MAX_KEY_FILE, crate::input::Links::Follow)
        .map(Zeroizing::new)
        .map_err(|e| fail(Outcome::Usage, format!("reading the key `{shown}`: {e}")))?;
    let pem = Zeroizing::new(String::from_utf8_lossy(&bytes).into_owned());
    let password = std::env::var(sign::PASSWORD_ENV).ok().map(Zeroizing::new);
    sign::signing_key(&pem, password.as_deref().map(String::as_str)).map_err(|e| {
        let message = match e {
            KeyError::NeedsPassword => format!(
                "`{shown}` is encrypted: set {} to its password",
                sign::PASSWORD_ENV
            ),
            KeyError::PublicKey => match sibling(path, "pub", "key") {
                Some(private) => format!(
                    "`{shown}`: this is a public key; sign with the private key `{}`",
                    escaped(&private.display().to_string())
                ),
                None => format!("`{shown}`: {e}"),
            },
            e => format!("`{shown}`: {e}"),
        };
        fail(Outcome::Usage, message)
    })
}

/// The other half of a key pair that keygen wrote: `release.pub` -> `release.key`, when it
/// exists.
pub fn sibling(path: &Path, from: &str, to: &str) -> Option<PathBuf> {
    if path.extension()? != from {
        return None;
    }
    let other = path.with_extension(to);
    other.is_file().then_some(other)
}

/// Signs `artifact` into `bundle`: the artifact is hashed while streamed, never held whole.
pub fn sign_file(artifact: &Path, key: &Path, bundle: &Path, force: bool) -> Result<(), Outcome> {
    let key = read_key(key)?;
    let shown = escaped(&artifact.display().to_string());
    let read = sign::read_artifact(artifact, |_| false, 0).map_err(|e| {
        let outcome = if e.kind() == std::io::ErrorKind::InvalidInput {
            Outcome::Usage
        } else {
            Outcome::Failure
        };
        fail(outcome, format!("reading `{shown}`: {e}"))
    })?;
    let signed = sign::sign_digest(&key, read.digest);
    write_atomic(bundle, &signed.to_bytes(), force, 0o644).map_err(|e| {
        let outcome = if e.contains("already exists") {
            Outcome::Usage
        } else {
            Outcome::Failure
        };
        fail(outcome, escaped(&e))
    })
}

pub fn run(args: &Args) -> Outcome {
    let Some(key) = &args.key else {
        return match sign_keyless(args) {
            Ok(()) => Outcome::Success,
            Err(outcome) => outcome,
        };
    };
    let shown = escaped(&args.artifact.display().to_string());
    match std::fs::metadata(&args.artifact) {
        Err(_) => return fail(Outcome::Usage, format!("path not found: {shown}")),
        Ok(meta) if !meta.is_file() => {
            return fail(
                Outcome::Usage,
                format!("`{shown}` is not a regular file; sign signs a file's bytes"),
            );
        }
        Ok(_) => {}
    }
    let bundle = args
        .bundle
        .clone()
        .unwrap_or_else(|| default_bundle(&args.artifact));
    match sign_file(&args.artifact, key, &bundle, args.force) {
        Ok(()) => {
            eprintln!(
                "signed {shown} -> {}",
                escaped(&bundle.display().to_string())
            );
            Outcome::Success
        }
        Err(outcome) => outcome,
    }
}

/// `sign --keyless`: a file's SHA-256, or a skill directory's digest as haiku.skills computes
/// it (written to `DIR/SKILL.sigstore`, where haiku.skills looks).
fn sign_keyless(args: &Args) -> Result<(), Outcome> {
    let shown = escaped(&args.artifact.display().to_string());
    let meta = std::fs::metadata(&args.artifact)
        .map_err(|_| fail(Outcome::Usage, format!("path not found: {shown}")))?;
    let directory = meta.is_dir();
    if directory && crate::discover::skill_file_in(&args.artifact).is_none() {
        return Err(fail(
            Outcome::Usage,
            format!(
                "`{shown}` holds no SKILL.md; a directory is signed as a skill (its SKILL.sigstore)"
            ),
        ));
    }
    if !directory && !meta.is_file() {
        return Err(fail(
            Outcome::Usage,
            format!("`{shown}` is not a regular file or a skill directory"),
        ));
    }
    let bundle = match &args.bundle {
        Some(bundle) => bundle.clone(),
        None if directory => args.artifact.join(DIRECTORY_BUNDLE),
        None => default_bundle(&args.artifact),
    };
    if directory && covered_by_digest(&args.artifact, &bundle) {
        return Err(fail(
            Outcome::Usage,
            format!(
                "`{}` is inside `{shown}`, where the directory's digest would cover it; write the bundle outside, or as {DIRECTORY_BUNDLE} (the default)",
                escaped(&bundle.display().to_string())
            ),
        ));
    }
    refuse_overwrite(&bundle, args.force)?;
    let keyless = Keyless::begin(&args.keyless)?;
    let sha256 = if directory {
        crate::sign::haiku::digest(&args.artifact)
            .map_err(|e| fail(Outcome::Failure, format!("hashing `{shown}`: {e}")))?
            .sha256
    } else {
        let read = sign::read_artifact(&args.artifact, |_| false, 0)
            .map_err(|e| fail(Outcome::Failure, format!("reading `{shown}`: {e}")))?;
        <sha2::Sha256 as sha2::Digest>::finalize(read.digest).into()
    };
    let json = keyless.sign(sha256)?;
    write_atomic(&bundle, &json, args.force, 0o644).map_err(|e| {
        let outcome = if e.contains("already exists") {
            Outcome::Usage
        } else {
            Outcome::Failure
        };
        fail(outcome, escaped(&e))
    })?;
    keyless.check_written(sha256, &bundle)?;
    eprintln!(
        "Signed {shown} as {}; bundle: {}",
        keyless.signer(),
        escaped(&bundle.display().to_string())
    );
    Ok(())
}

/// Whether a bundle written at `bundle` would be one of the files haiku.skills' digest of `dir`
/// covers (anything directly in it but `SKILL.sigstore` and hidden files), so that the signed
/// directory would no longer match its digest.
fn covered_by_digest(dir: &Path, bundle: &Path) -> bool {
    let Some(name) = bundle.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if name == DIRECTORY_BUNDLE || name.starts_with('.') {
        return false;
    }
    let parent = bundle
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    match (parent.canonicalize(), dir.canonicalize()) {
        (Ok(parent), Ok(dir)) => parent.starts_with(dir),
        _ => false,
    }
}

/// Refuses (exit 2) to replace an existing bundle without `--force`, before any work.
fn refuse_overwrite(bundle: &Path, force: bool) -> Result<(), Outcome> {
    if !force && (bundle.exists() || bundle.is_symlink()) {
        return Err(fail(
            Outcome::Usage,
            format!(
                "`{}` already exists; pass --force to replace it",
                escaped(&bundle.display().to_string())
            ),
        ));
    }
    Ok(())
}

/// The bundle of a skill directory signed the haiku.skills way, inside it.
const DIRECTORY_BUNDLE: &str = "SKILL.sigstore";

/// The message for `no identity token`, exit 2.
#[cfg(feature = "keyless-sign")]
const NO_TOKEN: &str = "no identity token: pass --identity-token, set SIGSTORE_ID_TOKEN, or run in GitHub Actions with `permissions: id-token: write`";

/// Keyless signing, ready: an identity token whose claims were read, and the network.
#[cfg(feature = "keyless-sign")]
pub struct Keyless {
    network: crate::sign::keyless::sign::Network,
    token: crate::sign::keyless::token::IdentityToken,
    instance: crate::sign::keyless::sign::Instance,
}

#[cfg(feature = "keyless-sign")]
impl Keyless {
    /// Finds the identity token, in order: `--identity-token`, `SIGSTORE_ID_TOKEN`, GitHub
    /// Actions' ambient credentials, a login when stdin and stderr are terminals. A token
    /// given is read (exit 2 if malformed) before any request.
    pub fn begin(args: &KeylessArgs) -> Result<Keyless, Outcome> {
        use crate::sign::keyless::sign::{Instance, Network};
        use crate::sign::keyless::token::{self, IdentityToken};
        use std::io::IsTerminal as _;
        let instance = if args.staging {
            Instance::Staging
        } else {
            Instance::Production
        };
        let now = token::now();
        let given = match &args.identity_token {
            Some(raw) => Some(("--identity-token", raw.clone())),
            None => std::env::var("SIGSTORE_ID_TOKEN")
                .ok()
                .filter(|v| !v.trim().is_empty())
                .map(|raw| ("SIGSTORE_ID_TOKEN", raw)),
        };
        let given = match given {
            Some((from, raw)) => Some(
                IdentityToken::parse(&raw, now)
                    .map_err(|e| fail(Outcome::Usage, format!("{from}: {e}")))?,
            ),
            None => None,
        };
        let network = Network::new().map_err(|e| fail(Outcome::Failure, e))?;
        let token = match given {
            Some(token) => token,
            None => {
                let (from, raw) = match network.ambient_github() {
                    Some(fetched) => (
                        "the token from GitHub Actions",
                        fetched.map_err(|e| fail(Outcome::Problems, e))?,
                    ),
                    None if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() => (
                        "the token from the login",
                        network
                            .interactive(instance)
                            .map_err(|e| fail(Outcome::Problems, e))?,
                    ),
                    None => return Err(fail(Outcome::Usage, NO_TOKEN)),
                };
                IdentityToken::parse(&raw, now)
                    .map_err(|e| fail(Outcome::Problems, format!("{from}: {e}")))?
            }
        };
        Ok(Keyless {
            network,
            token,
            instance,
        })
    }

    /// Signs a SHA-256 digest; returns the bundle (nothing is written). Exit 1 on a service's
    /// failure.
    pub fn sign(&self, sha256: [u8; 32]) -> Result<Vec<u8>, Outcome> {
        self.network
            .sign(sha256, &self.token, self.instance)
            .map_err(|e| fail(Outcome::Problems, escaped(&e)))
    }

    /// Verifies the bundle as written, offline, against the token's identity and issuer and
    /// the instance's trusted root; a bundle that does not verify is removed (exit 1).
    pub fn check_written(&self, sha256: [u8; 32], bundle: &Path) -> Result<(), Outcome> {
        use crate::sign::keyless::sign::Instance;
        use crate::sign::keyless::{self, Policy, Subject, Trust};
        let shown = escaped(&bundle.display().to_string());
        let trust = match self.instance {
            Instance::Production => Trust::Production,
            Instance::Staging => Trust::Staging,
        };
        let verified =
            crate::input::read_bounded(bundle, sign::MAX_BUNDLE, crate::input::Links::Follow)
                .map_err(|e| format!("reading `{shown}` back: {e}"))
                .and_then(|written| {
                    let policy = Policy::exact(&self.token.identity, &self.token.issuer);
                    let root = trust.load().map_err(|e| e.to_string())?;
                    keyless::verify(Subject::Sha256(sha256), &written, &policy, &root)
                        .map_err(|e| e.to_string())
                });
        match verified {
            Ok(_) => Ok(()),
            Err(e) => {
                let removed = match std::fs::remove_file(bundle) {
                    Ok(()) => "removed it".to_string(),
                    Err(r) => format!("and could not remove it: {r}"),
                };
                Err(fail(
                    Outcome::Problems,
                    format!(
                        "the bundle written to `{shown}` does not verify as {}: {}; {removed}",
                        self.signer(),
                        escaped(&e)
                    ),
                ))
            }
        }
    }

    /// `IDENTITY (issuer ISSUER)`.
    pub fn signer(&self) -> String {
        format!(
            "{} (issuer {})",
            escaped(&self.token.identity),
            escaped(&self.token.issuer)
        )
    }
}

/// Without the `keyless-sign` feature: `--keyless` is refused (exit 2) and never gets further,
/// so there is no value of this type.
#[cfg(not(feature = "keyless-sign"))]
pub enum Keyless {}

#[cfg(not(feature = "keyless-sign"))]
impl Keyless {
    pub fn begin(_args: &KeylessArgs) -> Result<Keyless, Outcome> {
        Err(fail(
            Outcome::Usage,
            "this skillc was built without signing support (the `keyless-sign` feature): --keyless cannot sign; sign with --key, or use a build with the feature (the default)",
        ))
    }

    pub fn sign(&self, _sha256: [u8; 32]) -> Result<Vec<u8>, Outcome> {
        match *self {}
    }

    pub fn check_written(&self, _sha256: [u8; 32], _bundle: &Path) -> Result<(), Outcome> {
        match *self {}
    }

    pub fn signer(&self) -> String {
        match *self {}
    }
}
