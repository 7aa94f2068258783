//! `skillc unpack ARCHIVE [-C DEST]`: a defensive, all-or-nothing install.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::identity::IdentityArgs;
use super::verify::{self as verify_cmd, Signature, VerifyFormat};
use super::{Outcome, fail};
use crate::input::{Links, read_bounded};
use crate::package::reader;
use crate::package::verify::check_archive;
use crate::sign::keyless::Policy;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The archive (tar.gz or zip).
    archive: PathBuf,
    /// The directory to unpack into (the skill goes to DEST/{key}).
    #[arg(
        short = 'C',
        long = "directory",
        value_name = "DEST",
        default_value = "."
    )]
    dest: PathBuf,
    /// Verify the archive's signature with this public key first; unpack nothing if it fails.
    #[arg(long, value_name = "PUB")]
    key: Option<PathBuf>,
    /// Or verify a keyless signature first (see `skillc verify`): who must have signed it.
    #[command(flatten)]
    identity: IdentityArgs,
    /// The bundle (default ARCHIVE.sigstore.json).
    #[arg(long, value_name = "PATH")]
    bundle: Option<PathBuf>,
    /// Replace an existing DEST/{key}.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Outcome {
    let shown = crate::render::escaped(&args.archive.display().to_string());
    if !args.archive.is_file() {
        return fail(Outcome::Usage, format!("path not found: {shown}"));
    }
    let policy = match args.identity.policy() {
        Ok(policy) => policy,
        Err(e) => return fail(Outcome::Usage, e),
    };
    let trust = args.identity.trust();
    let key = match &args.key {
        Some(key_path) => match verify_cmd::read_public_key(key_path) {
            Ok(key) => Some(key),
            Err(outcome) => return outcome,
        },
        None => None,
    };
    let signature = match (&key, &policy) {
        (Some(key), _) => Some(Signature::Key(key, &trust)),
        (None, Some(policy)) => Some(Signature::Keyless(policy, &trust)),
        (None, None) => None,
    };
    if signature.is_none()
        && (args.bundle.is_some() || args.identity.trusted_root.is_some() || args.identity.staging)
    {
        return fail(
            Outcome::Usage,
            "nothing would check the signature: --bundle, --trusted-root and --staging need \
             --key PUB, or --certificate-identity ID --certificate-oidc-issuer URL, to say who \
             must have signed; nothing was unpacked",
        );
    }
    let archive = if let Some(signature) = &signature {
        let bundle = args
            .bundle
            .clone()
            .unwrap_or_else(|| super::sign::default_bundle(&args.archive));
        let verdict = verify_cmd::verify(&args.archive, &bundle, signature);
        if verdict.ok() && verdict.archive.is_none() {
            return fail(
                Outcome::Problems,
                format!("`{shown}` is not a skill archive (tar.gz or zip); nothing was unpacked"),
            );
        }
        if !verdict.ok() {
            let outcome = verify_cmd::report(&verdict, &shown, VerifyFormat::Text, signature);
            eprintln!("nothing was unpacked");
            return outcome;
        }
        let Some(archive) = verdict.archive else {
            return fail(Outcome::Problems, "not a skill archive");
        };
        archive
    } else {
        let bytes = match read_bounded(&args.archive, reader::MAX_ARCHIVE, Links::Follow) {
            Ok(bytes) => bytes,
            Err(e) => return fail(Outcome::Failure, format!("reading `{shown}`: {e}")),
        };
        match check_archive(&bytes) {
            Ok((archive, _)) => archive,
            Err(e) => {
                eprintln!("FAIL: {shown}: {}", crate::render::escaped(&e));
                eprintln!("nothing was unpacked");
                return Outcome::Problems;
            }
        }
    };
    if let Err(e) = std::fs::create_dir_all(&args.dest) {
        return fail(
            Outcome::Failure,
            format!("creating `{}`: {e}", args.dest.display()),
        );
    }
    let target = args.dest.join(&archive.key);
    if (target.exists() || target.is_symlink()) && !args.force {
        return fail(
            Outcome::Usage,
            format!(
                "`{}` already exists; pass --force to replace it",
                target.display()
            ),
        );
    }
    let staging = match tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .rand_bytes(STAGING_RAND)
        .tempdir_in(&args.dest)
    {
        Ok(dir) => dir,
        Err(e) => {
            return fail(
                Outcome::Failure,
                format!(
                    "creating a temporary directory in `{}`: {e}",
                    args.dest.display()
                ),
            );
        }
    };
    sweep_stale(&args.dest, staging.path());
    let tree = staging.path().join(&archive.key);
    if let Err(e) = reader::write_tree(&tree, &archive.files) {
        return fail(Outcome::Failure, e);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&tree, std::fs::Permissions::from_mode(0o755));
    }
    // Replace an existing tree only after the new one is complete; the old one is moved aside
    // first and removed last, so a failure never leaves neither.
    let old = staging.path().join(".old");
    let had_old = target.exists() || target.is_symlink();
    if had_old && let Err(e) = std::fs::rename(&target, &old) {
        return fail(
            Outcome::Failure,
            format!("moving the existing `{}` aside: {e}", target.display()),
        );
    }
    if let Err(e) = std::fs::rename(&tree, &target) {
        if had_old {
            let _ = std::fs::rename(&old, &target);
        }
        return fail(
            Outcome::Failure,
            format!("moving the skill into `{}`: {e}", target.display()),
        );
    }
    drop(staging);
    let files = archive.files.len() - 1;
    eprintln!(
        "Unpacked `{}` ({files} {} and the manifest) into {}",
        reader::shown(&archive.key),
        if files == 1 { "file" } else { "files" },
        target.display()
    );
    if let Some(note) = signature_note(signature.as_ref()) {
        eprintln!("{note}");
    }
    Outcome::Success
}

/// What an unpack that succeeded says of the signature it checked, if it must say anything:
/// nothing when a key or an identity policy vouched for the archive.
fn signature_note(signature: Option<&Signature<'_>>) -> Option<&'static str> {
    match signature {
        None => Some(UNCHECKED_NOTE),
        Some(Signature::Keyless(Policy::AnyIdentity, _)) => Some(SIGNER_UNCHECKED_NOTE),
        Some(_) => None,
    }
}

const UNCHECKED_NOTE: &str = "note: the signature was not checked (its digests were): pass \
     --key PUB to verify who signed it first";
const SIGNER_UNCHECKED_NOTE: &str = "note: the signature was checked, not who signed it \
     (--insecure-ignore-identity): pass --certificate-identity ID --certificate-oidc-issuer URL \
     to verify who signed it first";

/// The staging directory's name: this prefix (which discovery skips) and [`STAGING_RAND`]
/// random ASCII letters and digits (tempfile's alphabet).
const STAGING_PREFIX: &str = crate::discover::UNPACK_TEMP_PREFIX;
const STAGING_RAND: usize = 6;
/// A staging directory older than this was left by an unpack that was killed.
const STALE_AFTER: Duration = Duration::from_secs(60 * 60);

/// Removes staging directories that an unpack killed before it could clean up (`kill -9`, a
/// power cut) left in DEST: only real directories (a symbolic link is never followed) named
/// exactly like ours, owned by the same user as the fresh one at `ours`, and untouched for
/// [`STALE_AFTER`]. A failure to remove one is a warning, not an error.
fn sweep_stale(dest: &Path, ours: &Path) {
    let Ok(mine) = std::fs::symlink_metadata(ours) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dest) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(STAGING_PREFIX)) else {
            continue;
        };
        if rest.len() != STAGING_RAND || !rest.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        let path = entry.path();
        if path == ours {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.file_type().is_dir() || !same_owner(&meta, &mine) {
            continue;
        }
        let stale = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if !stale {
            continue;
        }
        // remove_dir_all removes links inside the tree, never what they point to.
        match std::fs::remove_dir_all(&path) {
            Ok(()) => eprintln!(
                "removed `{}`, left by an interrupted unpack",
                path.display()
            ),
            Err(e) => eprintln!(
                "warning: could not remove `{}`, left by an interrupted unpack: {e}",
                path.display()
            ),
        }
    }
}

#[cfg(unix)]
fn same_owner(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.uid() == b.uid()
}

#[cfg(not(unix))]
fn same_owner(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sign::keyless::{Policy, Trust};

    #[test]
    fn the_closing_note_says_what_was_checked() {
        let trust = Trust::Production;
        // Nothing checked: say so.
        assert_eq!(signature_note(None), Some(UNCHECKED_NOTE));
        // A keyless signature whose signer matched the policy was checked: no note saying it
        // was not.
        let pairs = Policy::exact("a@example.com", "https://issuer.example");
        assert_eq!(
            signature_note(Some(&Signature::Keyless(&pairs, &trust))),
            None
        );
        // --insecure-ignore-identity: the signature was checked, the signer was not.
        assert_eq!(
            signature_note(Some(&Signature::Keyless(&Policy::AnyIdentity, &trust))),
            Some(SIGNER_UNCHECKED_NOTE)
        );
        let key = p256::ecdsa::SigningKey::from_slice(&[7; 32]).unwrap();
        assert_eq!(
            signature_note(Some(&Signature::Key(key.verifying_key(), &trust))),
            None
        );
    }
}
