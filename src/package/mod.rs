//! Packaging (package.md): the file set, the manifest, deterministic archives, and the
//! defensive reader.

pub mod archive;
pub mod manifest;
pub mod reader;
pub mod verify;

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use sha2::{Digest, Sha256};

/// A file to pack, read once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackFile {
    /// Relative, `/`-separated.
    pub path: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

impl PackFile {
    /// Lowercase hex SHA-256 of the contents.
    pub fn sha256(&self) -> String {
        hex(&Sha256::digest(&self.bytes))
    }
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a file set cannot be packed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSetError(pub String);

/// Limits on what is packed.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Refuse when the files add up to more than this.
    pub max_size: u64,
}

/// Collects the files to pack from `root` (a skill directory): every regular file except
/// paths with a component starting with `.`, `__pycache__`, `node_modules`, `*.pyc`, `*.pyo`,
/// and what `.skillignore` excludes. A symlink to a file inside the skill is stored as that
/// file's content; one that escapes or dangles, a symlinked directory, and special files stop
/// packing. Sorted by the UTF-8 bytes of the path.
pub fn file_set(root: &Path, limits: Limits) -> Result<Vec<PackFile>, FileSetError> {
    let real_root = root
        .canonicalize()
        .map_err(|e| FileSetError(format!("reading `{}`: {e}", root.display())))?;
    let ignore = skillignore(&real_root)?;
    let mut files = Vec::new();
    let mut total: u64 = 0;
    let mut stack: Vec<(PathBuf, String)> = vec![(real_root.clone(), String::new())];
    while let Some((dir, prefix)) = stack.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| FileSetError(format!("reading `{}`: {e}", dir.display())))?;
        for entry in entries {
            let entry =
                entry.map_err(|e| FileSetError(format!("reading `{}`: {e}", dir.display())))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                return Err(FileSetError(format!(
                    "`{}` is not a UTF-8 file name; archives store UTF-8 paths",
                    entry.path().display()
                )));
            };
            if name.starts_with('.') || name == "__pycache__" || name == "node_modules" {
                continue;
            }
            let rel = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}/{name}")
            };
            let path = entry.path();
            let meta = std::fs::symlink_metadata(&path)
                .map_err(|e| FileSetError(format!("reading `{rel}`: {e}")))?;
            let is_dir = meta.is_dir();
            if ignore.matched_path_or_any_parents(&rel, is_dir).is_ignore() {
                continue;
            }
            if is_dir {
                stack.push((path, rel));
                continue;
            }
            if name.ends_with(".pyc") || name.ends_with(".pyo") {
                continue;
            }
            if files.len() >= reader::MAX_ENTRIES - 1 {
                return Err(FileSetError(format!(
                    "the skill holds more than {} files; an archive holds at most {} entries with its manifest",
                    reader::MAX_ENTRIES - 1,
                    reader::MAX_ENTRIES
                )));
            }
            let (source, meta) = if meta.is_symlink() {
                let target = std::fs::canonicalize(&path).map_err(|_| {
                    FileSetError(format!(
                        "symlink `{rel}` is dangling ({})",
                        crate::rule::SK408.code
                    ))
                })?;
                if !target.starts_with(&real_root) {
                    return Err(FileSetError(format!(
                        "symlink `{rel}` points outside the skill, to `{}` ({})",
                        target.display(),
                        crate::rule::SK408.code
                    )));
                }
                let target_meta = std::fs::metadata(&target)
                    .map_err(|e| FileSetError(format!("reading `{rel}`: {e}")))?;
                if !target_meta.is_file() {
                    return Err(FileSetError(format!(
                        "symlink `{rel}` does not point to a regular file"
                    )));
                }
                (target, target_meta)
            } else if meta.is_file() {
                (path, meta)
            } else {
                return Err(FileSetError(format!(
                    "`{rel}` is a special file (FIFO, socket or device)"
                )));
            };
            total += meta.len();
            if total > limits.max_size {
                return Err(FileSetError(format!(
                    "the files add up to more than {} bytes (--max-size)",
                    limits.max_size
                )));
            }
            let bytes =
                crate::input::read_bounded(&source, limits.max_size, crate::input::Links::Follow)
                    .map_err(|e| FileSetError(format!("reading `{rel}`: {e}")))?;
            files.push(PackFile {
                path: rel,
                bytes,
                executable: crate::files::is_executable(&meta),
            });
        }
    }
    files.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
    Ok(files)
}

/// Leaves out of `files` (read from `root`) the files that are one of `paths`: the same file
/// by device and inode, so neither a symbolic nor a hard link to it slips through.
pub fn exclude(files: &mut Vec<PackFile>, root: &Path, paths: &[PathBuf]) {
    let ids: Vec<(u64, u64)> = paths.iter().filter_map(|p| file_id(p)).collect();
    if ids.is_empty() {
        return;
    }
    files.retain(|f| file_id(&root.join(&f.path)).is_none_or(|id| !ids.contains(&id)));
}

/// A file's device and inode (following links).
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::hash::{Hash, Hasher};
    let real = path.canonicalize().ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    real.hash(&mut h);
    Some((0, h.finish()))
}

/// What skillc artifact a file is, if it is one: an archive of the skill `key` (one that
/// `verify` reads), or a Sigstore bundle.
pub fn artifact(file: &PackFile, key: &str) -> Option<&'static str> {
    if reader::sniff(&file.bytes).is_some()
        && reader::read(&file.bytes).is_ok_and(|archive| archive.key == key)
    {
        return Some("an archive of this skill");
    }
    if file.path.ends_with(".sigstore.json") && crate::sign::Bundle::parse(&file.bytes).is_ok() {
        return Some("a signature bundle");
    }
    None
}

/// Why a file looks like a secret that must not be published (SK411's names, or a PEM private
/// key whatever its name); `None` for an ordinary file.
pub fn secret(file: &PackFile) -> Option<String> {
    const PRIVATE_KEY: &[u8] = b"PRIVATE KEY-----";
    let name = file.path.rsplit('/').next().unwrap_or(&file.path);
    if memchr::memmem::find(&file.bytes, PRIVATE_KEY).is_some() {
        return Some("it holds a private key".into());
    }
    if crate::rules::files::sensitive(
        name,
        &crate::files::Kind::File {
            size: 0,
            executable: false,
        },
    ) && !name.ends_with(".pem")
    {
        return Some(format!(
            "its name looks like a secret ({})",
            crate::rule::SK411.code
        ));
    }
    None
}

fn skillignore(root: &Path) -> Result<Gitignore, FileSetError> {
    let mut builder = GitignoreBuilder::new(root);
    let file = root.join(".skillignore");
    // Read like every untrusted file: capped, never through a link, never blocking.
    match crate::input::read_bounded(&file, 1024 * 1024, crate::input::Links::Refuse) {
        Ok(bytes) => {
            for line in String::from_utf8_lossy(&bytes).lines() {
                builder
                    .add_line(None, line)
                    .map_err(|e| FileSetError(format!("reading `.skillignore`: {e}")))?;
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileSetError(format!("reading `.skillignore`: {e}"))),
    }
    builder
        .build()
        .map_err(|e| FileSetError(format!("reading `.skillignore`: {e}")))
}
