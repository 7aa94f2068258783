//! `skillc sign ARTIFACT --key KEY`: a Sigstore bundle v0.3 for any file.

use std::path::{Path, PathBuf};

use p256::elliptic_curve::zeroize::Zeroizing;

use super::{Outcome, fail};
use crate::package::archive::write_atomic;
use crate::render::escaped;
use crate::sign::{self, KeyError};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to sign (normally a skill archive).
    artifact: PathBuf,
    /// The private key (PKCS#8 PEM; encrypted keys read SKILLC_KEY_PASSWORD).
    #[arg(long, value_name = "KEY")]
    key: PathBuf,
    /// Where to write the bundle (default ARTIFACT.sigstore.json).
    #[arg(long, value_name = "PATH")]
    bundle: Option<PathBuf>,
    /// Replace an existing bundle.
    #[arg(long)]
    force: bool,
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
    match sign_file(&args.artifact, &args.key, &bundle, args.force) {
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
