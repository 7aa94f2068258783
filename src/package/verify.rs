//! Archive integrity: the manifest comes first and accounts for every file exactly: path,
//! size, SHA-256 and execute bit.

use sha2::{Digest, Sha256};

use super::hex;
use super::manifest::{FileEntry, MANIFEST, Manifest};
use super::reader::{self, Archive, ArchiveFile, shown};

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
    let manifest = Manifest::parse(&first.bytes).map_err(|e| crate::render::escaped(&e))?;
    if manifest.skill.key != archive.key {
        return Err(format!(
            "the manifest names the skill `{}` but the archive's directory is `{}/`",
            shown(&manifest.skill.key),
            archive.key
        ));
    }
    check_files(
        &manifest,
        archive.files[1..].iter().map(|f| (f.path.as_str(), f)),
        |f: &ArchiveFile, entry| Ok(Facts::of(&f.bytes, f.executable, entry)),
    )?;
    Ok((archive, manifest))
}

/// What is known of one file, to compare with its manifest entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub size: u64,
    /// Lowercase hex; not computed (empty) when the size already differs.
    pub sha256: String,
    pub executable: bool,
}

impl Facts {
    /// The facts of a file in memory.
    pub fn of(bytes: &[u8], executable: bool, entry: &FileEntry) -> Facts {
        let size = bytes.len() as u64;
        Facts {
            size,
            sha256: if size == entry.size {
                hex(&Sha256::digest(bytes))
            } else {
                String::new()
            },
            executable,
        }
    }
}

/// Compares files with a manifest: each file listed once with the same size, SHA-256 and
/// `executable` flag, and every listed file present. `files` gives each file's path and what
/// `facts` needs to learn the rest (given the manifest entry, so that a reader can stop at the
/// listed size).
pub fn check_files<'a, T>(
    manifest: &Manifest,
    files: impl IntoIterator<Item = (&'a str, T)>,
    mut facts: impl FnMut(T, &FileEntry) -> Result<Facts, String>,
) -> Result<(), String> {
    let mut listed: std::collections::HashMap<&str, &FileEntry> = manifest
        .files
        .iter()
        .map(|f| (f.path.as_str(), f))
        .collect();
    for (path, file) in files {
        let Some(entry) = listed.remove(path) else {
            return Err(format!("`{}` is not listed in the manifest", shown(path)));
        };
        let found = facts(file, entry)?;
        if entry.size != found.size {
            return Err(format!(
                "`{}` is {} bytes; the manifest says {}",
                shown(path),
                found.size,
                entry.size
            ));
        }
        if entry.sha256 != found.sha256 {
            return Err(format!(
                "`{}` does not match its SHA-256 in the manifest",
                shown(path)
            ));
        }
        match (found.executable, entry.executable) {
            (true, false) => {
                return Err(format!(
                    "`{}` is executable but the manifest says it is not",
                    shown(path)
                ));
            }
            (false, true) => {
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

/// Extracts the archive into a temporary directory and lints the skill as `verify` does, with
/// default settings (an archive carries no skillc.toml) and every runtime as a target (an
/// archive may be installed anywhere, so any runtime's own field is allowed): no errors allowed.
pub fn validate_skill(archive: &Archive) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| format!("creating a temporary directory: {e}"))?;
    let dir = tmp.path().join(&archive.key);
    reader::write_tree(&dir, &archive.files)?;
    let mut settings = crate::config::Settings::default();
    settings.targets = Some(crate::targets::Targets::all());
    let skill = crate::discover::SkillDir {
        file: crate::discover::skill_file_in(&dir).map(Into::into),
        real: crate::discover::Real::At(dir.canonicalize().unwrap_or_else(|_| dir.clone()).into()),
        dir: dir.clone().into(),
        tier: crate::discover::Tier::Project,
        rare: None,
        listed: Default::default(),
    };
    let reports = crate::lint::lint_all(
        vec![skill],
        &settings,
        tmp.path(),
        crate::skill::Keep::default(),
    );
    let errors: Vec<String> = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| d.severity == crate::diagnostic::Severity::Error)
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
