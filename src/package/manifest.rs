//! `.skill-manifest.json`: what an archive holds, with sizes and SHA-256 digests.

use serde::{Deserialize, Serialize};

use super::PackFile;

/// The manifest's file name inside `{key}/`.
pub const MANIFEST: &str = ".skill-manifest.json";

/// The manifest document (keys in this order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub manifest_version: u32,
    pub skill: SkillId,
    pub files: Vec<FileEntry>,
}

/// Which skill the archive holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillId {
    pub key: String,
    pub dialect: String,
}

/// One packed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub executable: bool,
}

impl Manifest {
    /// The manifest of a file set (already sorted by path bytes).
    pub fn new(key: &str, dialect: &str, files: &[PackFile]) -> Manifest {
        Manifest {
            manifest_version: 1,
            skill: SkillId {
                key: key.to_string(),
                dialect: dialect.to_string(),
            },
            files: files
                .iter()
                .map(|f| FileEntry {
                    path: f.path.clone(),
                    size: f.bytes.len() as u64,
                    sha256: f.sha256(),
                    executable: f.executable,
                })
                .collect(),
        }
    }

    /// The manifest as stored: two-space indent, final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text.into_bytes()
    }

    /// Parses a stored manifest.
    pub fn parse(bytes: &[u8]) -> Result<Manifest, String> {
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|e| format!("the manifest is not valid: {e}"))?;
        if manifest.manifest_version != 1 {
            return Err(format!(
                "unsupported manifest_version {}",
                manifest.manifest_version
            ));
        }
        Ok(manifest)
    }
}
