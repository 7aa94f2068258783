//! `skillc keygen [--out PREFIX]`: an ECDSA P-256 key pair.

use std::path::PathBuf;

use super::{Outcome, fail};
use crate::package::archive::write_atomic;
use crate::render::escaped;
use crate::sign;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Environment:\n  SKILLC_KEY_PASSWORD  encrypts the private key (PKCS#8, scrypt + AES-256-CBC, as OpenSSL reads); \
                  `sign` and `pack --key` read the password from it. Without it the \
                  private key is written unencrypted, readable by its owner only (mode 0600)."
)]
pub struct Args {
    /// Write PREFIX.key and PREFIX.pub.
    #[arg(long, value_name = "PREFIX", default_value = "skillc")]
    out: PathBuf,
}

pub fn run(args: &Args) -> Outcome {
    let private = PathBuf::from(format!("{}.key", args.out.display()));
    let public = PathBuf::from(format!("{}.pub", args.out.display()));
    for path in [&private, &public] {
        if path.exists() || path.is_symlink() {
            return fail(
                Outcome::Usage,
                format!(
                    "`{}` already exists; keygen never overwrites a key (choose another --out)",
                    escaped(&path.display().to_string())
                ),
            );
        }
    }
    let password = std::env::var(sign::PASSWORD_ENV)
        .ok()
        .filter(|p| !p.is_empty());
    let (private_pem, public_pem) = match sign::generate(password.as_deref()) {
        Ok(pair) => pair,
        Err(e) => return fail(Outcome::Failure, e),
    };
    if let Err(e) = write_atomic(&private, private_pem.as_bytes(), false, 0o600) {
        return fail(Outcome::Failure, e);
    }
    if let Err(e) = write_atomic(&public, public_pem.as_bytes(), false, 0o644) {
        return fail(Outcome::Failure, e);
    }
    let hint = sign::verifying_key(&public_pem)
        .map(|k| sign::hint(&k))
        .unwrap_or_default();
    let encrypted = if password.is_some() {
        " (encrypted with SKILLC_KEY_PASSWORD)"
    } else {
        ""
    };
    eprintln!(
        "private key: {}{encrypted}",
        escaped(&private.display().to_string())
    );
    eprintln!("public key:  {}", escaped(&public.display().to_string()));
    eprintln!("key hint:    {hint}");
    if password.is_none() {
        eprintln!(
            "warning: the private key is not encrypted (set SKILLC_KEY_PASSWORD to encrypt it); keep it out of the repository"
        );
    }
    Outcome::Success
}
