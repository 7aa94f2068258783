//! `skillc unpack ARCHIVE [-C DEST]`: a defensive, all-or-nothing install.

use std::path::PathBuf;

use super::verify::{self as verify_cmd, VerifyFormat};
use super::{Outcome, fail};
use crate::package::reader;
use crate::package::verify::check_archive;
use crate::sign;

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
    /// The bundle (default ARCHIVE.sigstore.json).
    #[arg(long, value_name = "PATH")]
    bundle: Option<PathBuf>,
    /// Replace an existing DEST/{key}.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Outcome {
    let shown = args.archive.display().to_string();
    if !args.archive.is_file() {
        return fail(Outcome::Usage, format!("path not found: {shown}"));
    }
    let archive = if let Some(key_path) = &args.key {
        let pem = match std::fs::read_to_string(key_path) {
            Ok(pem) => pem,
            Err(e) => {
                return fail(
                    Outcome::Usage,
                    format!("reading the public key `{}`: {e}", key_path.display()),
                );
            }
        };
        let key = match sign::verifying_key(&pem) {
            Ok(key) => key,
            Err(e) => return fail(Outcome::Usage, format!("`{}`: {e}", key_path.display())),
        };
        let bundle = args
            .bundle
            .clone()
            .unwrap_or_else(|| super::sign::default_bundle(&args.archive));
        let verdict = verify_cmd::verify(&args.archive, &bundle, Some(&key));
        if !verdict.ok() || verdict.archive.is_none() {
            let outcome = verify_cmd::report(&verdict, &shown, VerifyFormat::Text, true);
            if verdict.ok() {
                return fail(Outcome::Problems, format!("{shown} is not a skill archive"));
            }
            eprintln!("nothing was unpacked");
            return outcome;
        }
        let Some(archive) = verdict.archive else {
            return fail(Outcome::Problems, "not a skill archive");
        };
        archive
    } else {
        let bytes = match std::fs::read(&args.archive) {
            Ok(bytes) => bytes,
            Err(e) => return fail(Outcome::Failure, format!("reading `{shown}`: {e}")),
        };
        match check_archive(&bytes) {
            Ok((archive, _)) => archive,
            Err(e) => {
                eprintln!("FAIL: {shown}: {e}");
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
        .prefix(".skillc-unpack-")
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
    eprintln!(
        "Unpacked `{}` ({} files and the manifest) into {}",
        archive.key,
        archive.files.len() - 1,
        target.display()
    );
    Outcome::Success
}
