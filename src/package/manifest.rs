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
        crate::encode::json_file(self)
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
        // One way to read it: sorted, each path once, and byte for byte what `pack` writes (no
        // unknown keys that another reader might honour, no second copy of a key).
        if let Some(pair) = manifest
            .files
            .windows(2)
            .find(|w| w[0].path.as_bytes() >= w[1].path.as_bytes())
        {
            return Err(if pair[0].path == pair[1].path {
                format!("the manifest lists `{}` twice", pair[0].path)
            } else {
                "the manifest's files are not sorted by path".to_string()
            });
        }
        if manifest.to_bytes() != bytes {
            return Err(
                "the manifest is not in the form `skillc pack` writes (keys, order or spacing differ)"
                    .to_string(),
            );
        }
        Ok(manifest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str) -> FileEntry {
        FileEntry {
            path: path.to_string(),
            size: 0,
            sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".into(),
            executable: false,
        }
    }

    fn manifest(paths: &[&str]) -> Manifest {
        Manifest {
            manifest_version: 1,
            skill: SkillId {
                key: "sk".into(),
                dialect: "agentskills".into(),
            },
            files: paths.iter().map(|p| entry(p)).collect(),
        }
    }

    #[test]
    fn only_the_canonical_form_parses() {
        let good = manifest(&["SKILL.md", "a.md"]).to_bytes();
        assert_eq!(
            Manifest::parse(&good).unwrap(),
            manifest(&["SKILL.md", "a.md"])
        );
        assert_eq!(
            Manifest::parse(&manifest(&["a.md", "a.md"]).to_bytes()).unwrap_err(),
            "the manifest lists `a.md` twice"
        );
        assert_eq!(
            Manifest::parse(&manifest(&["b.md", "a.md"]).to_bytes()).unwrap_err(),
            "the manifest's files are not sorted by path"
        );
        let text = String::from_utf8(good).unwrap();
        let reordered = text
            .replacen("  \"manifest_version\": 1,\n", "", 1)
            .replacen(
                "\n  \"files\"",
                "\n  \"manifest_version\": 1,\n  \"files\"",
                1,
            );
        let compact = text.replace("\n  ", "\n");
        for other in [reordered, compact, text.trim_end().to_string()] {
            assert_eq!(
                Manifest::parse(other.as_bytes()).unwrap_err(),
                "the manifest is not in the form `skillc pack` writes (keys, order or spacing differ)"
            );
        }
    }
}
