//! Archive integrity: the manifest comes first and accounts for every file exactly.

use sha2::{Digest, Sha256};

use super::hex;
use super::manifest::{MANIFEST, Manifest};
use super::reader::{self, Archive};

/// Reads an archive safely and checks it against its manifest: the first entry is the
/// manifest, every other entry is listed with the same size and SHA-256, every listed file is
/// present, nothing else is. The archive's files still include the manifest, first.
pub fn check_archive(bytes: &[u8]) -> Result<(Archive, Manifest), String> {
    let archive = reader::read(bytes)?;
    let first = archive.files.first().ok_or("the archive holds no files")?;
    if first.path != MANIFEST {
        return Err(format!(
            "the first entry is `{}/{}`, not the manifest `{MANIFEST}`",
            archive.key, first.path
        ));
    }
    let manifest = Manifest::parse(&first.bytes)?;
    if manifest.skill.key != archive.key {
        return Err(format!(
            "the manifest names the skill `{}` but the archive's directory is `{}/`",
            manifest.skill.key, archive.key
        ));
    }
    check_files(
        &manifest,
        archive.files[1..]
            .iter()
            .map(|f| (f.path.as_str(), f.bytes.as_slice())),
    )?;
    Ok((archive, manifest))
}

/// Compares files (path, contents) with a manifest.
pub fn check_files<'a>(
    manifest: &Manifest,
    files: impl Iterator<Item = (&'a str, &'a [u8])>,
) -> Result<(), String> {
    let mut listed: std::collections::HashMap<&str, &super::manifest::FileEntry> = manifest
        .files
        .iter()
        .map(|f| (f.path.as_str(), f))
        .collect();
    for (path, bytes) in files {
        let Some(entry) = listed.remove(path) else {
            return Err(format!("`{path}` is not listed in the manifest"));
        };
        if entry.size != bytes.len() as u64 {
            return Err(format!(
                "`{path}` is {} bytes; the manifest says {}",
                bytes.len(),
                entry.size
            ));
        }
        if entry.sha256 != hex(&Sha256::digest(bytes)) {
            return Err(format!(
                "`{path}` does not match its SHA-256 in the manifest"
            ));
        }
    }
    let mut missing: Vec<&str> = listed.into_keys().collect();
    missing.sort_unstable();
    match missing.first() {
        Some(path) => Err(format!("`{path}` is listed in the manifest but missing")),
        None => Ok(()),
    }
}
