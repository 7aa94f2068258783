//! Archive integrity: the manifest comes first and accounts for every file exactly: path,
//! size, SHA-256 and execute bit.

use sha2::{Digest, Sha256};

use super::manifest::{MANIFEST, Manifest};
use super::reader::{self, Archive, ArchiveFile, shown};
use super::{PackFile, hex};

/// Reads an archive safely and checks it against its manifest: the first entry is the
/// manifest, every other entry is listed with the same size, SHA-256 and execute bit, every
/// listed file is present, nothing else is. The archive's files still include the manifest,
/// first.
pub fn check_archive(bytes: &[u8]) -> Result<(Archive, Manifest), String> {
    let archive = reader::read(bytes)?;
    let first = archive.files.first().ok_or("the archive holds no files")?;
    if first.path != MANIFEST {
        return Err(format!(
            "the first entry is `{}/{}`, not the manifest `{MANIFEST}`",
            archive.key,
            shown(&first.path)
        ));
    }
    if first.executable {
        return Err(format!("the manifest `{MANIFEST}` is executable"));
    }
    let manifest = Manifest::parse(&first.bytes).map_err(|e| reader::without_controls(&e))?;
    if manifest.skill.key != archive.key {
        return Err(format!(
            "the manifest names the skill `{}` but the archive's directory is `{}/`",
            shown(&manifest.skill.key),
            archive.key
        ));
    }
    check_files(&manifest, archive.files[1..].iter())?;
    Ok((archive, manifest))
}

/// A file to compare with its manifest entry.
pub trait Checked {
    /// The path below the skill directory, `/`-separated.
    fn path(&self) -> &str;
    /// The contents.
    fn bytes(&self) -> &[u8];
    /// Whether it is executable, when known (`None` skips the comparison).
    fn executable(&self) -> Option<bool>;
}

impl Checked for (&str, &[u8]) {
    fn path(&self) -> &str {
        self.0
    }
    fn bytes(&self) -> &[u8] {
        self.1
    }
    fn executable(&self) -> Option<bool> {
        None
    }
}

impl Checked for (&str, &[u8], bool) {
    fn path(&self) -> &str {
        self.0
    }
    fn bytes(&self) -> &[u8] {
        self.1
    }
    fn executable(&self) -> Option<bool> {
        Some(self.2)
    }
}

impl Checked for &ArchiveFile {
    fn path(&self) -> &str {
        &self.path
    }
    fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    fn executable(&self) -> Option<bool> {
        Some(self.executable)
    }
}

impl Checked for &PackFile {
    fn path(&self) -> &str {
        &self.path
    }
    fn bytes(&self) -> &[u8] {
        &self.bytes
    }
    fn executable(&self) -> Option<bool> {
        Some(self.executable)
    }
}

/// Compares files with a manifest: each listed once with the same size, SHA-256 and (when the
/// file's execute bit is known) `executable` flag, and every listed file present.
pub fn check_files<T: Checked>(
    manifest: &Manifest,
    files: impl Iterator<Item = T>,
) -> Result<(), String> {
    let mut listed: std::collections::HashMap<&str, &super::manifest::FileEntry> = manifest
        .files
        .iter()
        .map(|f| (f.path.as_str(), f))
        .collect();
    for file in files {
        let path = file.path();
        let bytes = file.bytes();
        let Some(entry) = listed.remove(path) else {
            return Err(format!("`{}` is not listed in the manifest", shown(path)));
        };
        if entry.size != bytes.len() as u64 {
            return Err(format!(
                "`{}` is {} bytes; the manifest says {}",
                shown(path),
                bytes.len(),
                entry.size
            ));
        }
        if entry.sha256 != hex(&Sha256::digest(bytes)) {
            return Err(format!(
                "`{}` does not match its SHA-256 in the manifest",
                shown(path)
            ));
        }
        match file.executable() {
            Some(true) if !entry.executable => {
                return Err(format!(
                    "`{}` is executable but the manifest says it is not",
                    shown(path)
                ));
            }
            Some(false) if entry.executable => {
                return Err(format!(
                    "`{}` is not executable but the manifest says it is",
                    shown(path)
                ));
            }
            _ => {}
        }
    }
    let mut missing: Vec<&str> = listed.into_keys().collect();
    missing.sort_unstable();
    match missing.first() {
        Some(path) => Err(format!(
            "`{}` is listed in the manifest but missing",
            shown(path)
        )),
        None => Ok(()),
    }
}
