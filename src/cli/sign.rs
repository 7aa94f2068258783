//! `skillc sign ARTIFACT --key KEY`: a Sigstore bundle v0.3 for any file.

use std::path::{Path, PathBuf};

use super::{Outcome, fail};
use crate::package::archive::write_atomic;
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

/// Reads a private key file.
pub fn read_key(path: &Path) -> Result<p256::ecdsa::SigningKey, Outcome> {
    let pem = std::fs::read_to_string(path).map_err(|e| {
        fail(
            Outcome::Usage,
            format!("reading the key `{}`: {e}", path.display()),
        )
    })?;
    let password = std::env::var(sign::PASSWORD_ENV).ok();
    sign::signing_key(&pem, password.as_deref()).map_err(|e| match e {
        KeyError::NeedsPassword => fail(
            Outcome::Usage,
            format!(
                "`{}` is encrypted: set {} to its password",
                path.display(),
                sign::PASSWORD_ENV
            ),
        ),
        KeyError::Invalid(m) => fail(Outcome::Usage, format!("`{}`: {m}", path.display())),
    })
}

/// Signs `artifact` into `bundle`.
pub fn sign_file(artifact: &Path, key: &Path, bundle: &Path, force: bool) -> Result<(), Outcome> {
    let key = read_key(key)?;
    let bytes = std::fs::read(artifact).map_err(|e| {
        fail(
            Outcome::Failure,
            format!("reading `{}`: {e}", artifact.display()),
        )
    })?;
    let signed = sign::sign(&key, &bytes);
    write_atomic(bundle, &signed.to_bytes(), force, 0o644).map_err(|e| {
        let outcome = if e.contains("already exists") {
            Outcome::Usage
        } else {
            Outcome::Failure
        };
        fail(outcome, e)
    })
}

pub fn run(args: &Args) -> Outcome {
    if !args.artifact.is_file() {
        return fail(
            Outcome::Usage,
            format!("path not found: {}", args.artifact.display()),
        );
    }
    let bundle = args
        .bundle
        .clone()
        .unwrap_or_else(|| default_bundle(&args.artifact));
    match sign_file(&args.artifact, &args.key, &bundle, args.force) {
        Ok(()) => {
            eprintln!("signed {} -> {}", args.artifact.display(), bundle.display());
            Outcome::Success
        }
        Err(outcome) => outcome,
    }
}
