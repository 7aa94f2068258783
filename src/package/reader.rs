//! Reading archives from strangers: only regular files (and directories) inside one top-level
//! `{key}/` directory, clean relative paths, bounded counts and sizes, no expansion bombs.

use std::collections::HashSet;
use std::io::Read;

/// Caps on what an archive may hold.
pub const MAX_ENTRIES: usize = 10_000;
pub const MAX_FILE: u64 = 64 * 1024 * 1024;
pub const MAX_TOTAL: u64 = 256 * 1024 * 1024;
pub const MAX_RATIO: u64 = 100;

/// A file read from an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveFile {
    /// The path below `{key}/`, `/`-separated.
    pub path: String,
    pub bytes: Vec<u8>,
    pub executable: bool,
}

/// A safely read archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archive {
    /// The single top-level directory.
    pub key: String,
    /// Regular files in archive order.
    pub files: Vec<ArchiveFile>,
}

/// What kind of archive bytes are.
pub fn sniff(bytes: &[u8]) -> Option<super::archive::Format> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        Some(super::archive::Format::TarGz)
    } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Some(super::archive::Format::Zip)
    } else {
        None
    }
}

/// Reads an archive (tar.gz or zip) defensively; any violation refuses the whole archive.
pub fn read(bytes: &[u8]) -> Result<Archive, String> {
    match sniff(bytes) {
        Some(super::archive::Format::TarGz) => read_tar_gz(bytes),
        Some(super::archive::Format::Zip) => read_zip(bytes),
        None => Err("not a tar.gz or zip archive".into()),
    }
}

/// Tracks the caps while entries are read.
struct Budget {
    compressed: u64,
    total: u64,
    entries: usize,
    seen: HashSet<String>,
    key: Option<String>,
}

impl Budget {
    fn new(compressed: usize) -> Budget {
        Budget {
            compressed: compressed as u64,
            total: 0,
            entries: 0,
            seen: HashSet::new(),
            key: None,
        }
    }

    fn entry(&mut self) -> Result<(), String> {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} entries"));
        }
        Ok(())
    }

    /// Refuses a file that declares more than any cap allows, before reading it, naming the
    /// cap.
    fn declared(&self, shown: &str, size: u64) -> Result<(), String> {
        if size > MAX_FILE {
            return Err(format!(
                "entry `{shown}` declares {size} bytes; the limit per file is {MAX_FILE}"
            ));
        }
        self.fits(size).map_err(|reason| {
            format!("entry `{shown}` declares {size} bytes: the archive would hold {reason}")
        })
    }

    fn fits(&self, size: u64) -> Result<(), String> {
        let total = self.total.saturating_add(size);
        if total > MAX_TOTAL {
            return Err(format!("more than {MAX_TOTAL} bytes in total"));
        }
        if total > self.compressed.max(1).saturating_mul(MAX_RATIO) {
            return Err(format!(
                "more than {MAX_RATIO} times its compressed size (an expansion bomb)"
            ));
        }
        Ok(())
    }

    fn add(&mut self, size: u64) -> Result<(), String> {
        self.fits(size)
            .map_err(|reason| format!("the archive holds {reason}"))?;
        self.total += size;
        Ok(())
    }

    /// Checks an entry path and returns the part below `{key}/` (`None` for the directory itself).
    fn path(&mut self, raw: &[u8], is_dir: bool) -> Result<Option<String>, String> {
        let text =
            std::str::from_utf8(raw).map_err(|_| "an entry path is not UTF-8".to_string())?;
        let shown = text.escape_debug().to_string();
        if text.contains('\0') {
            return Err(format!("entry `{shown}` has a NUL in its path"));
        }
        if text.contains('\\') {
            return Err(format!("entry `{shown}` has a backslash in its path"));
        }
        if text.starts_with('/') || text.as_bytes().get(1) == Some(&b':') {
            return Err(format!("entry `{shown}` has an absolute path"));
        }
        let trimmed = if is_dir {
            text.strip_suffix('/').unwrap_or(text)
        } else {
            text
        };
        let parts: Vec<&str> = trimmed.split('/').collect();
        if parts
            .iter()
            .any(|p| p.is_empty() || *p == "." || *p == "..")
        {
            return Err(format!(
                "entry `{shown}` has an empty, `.` or `..` path component"
            ));
        }
        let top = parts[0].to_string();
        match &self.key {
            None => self.key = Some(top.clone()),
            Some(key) if *key != top => {
                return Err(format!(
                    "entry `{shown}` is outside the top-level `{key}/` directory"
                ));
            }
            Some(_) => {}
        }
        if parts.len() == 1 {
            return if is_dir {
                Ok(None)
            } else {
                Err(format!(
                    "entry `{shown}` is not inside a `{top}/` directory"
                ))
            };
        }
        let rest = parts[1..].join("/");
        if !is_dir && !self.seen.insert(rest.clone()) {
            return Err(format!("entry `{shown}` appears twice"));
        }
        Ok(Some(rest))
    }
}

fn read_tar_gz(bytes: &[u8]) -> Result<Archive, String> {
    let mut budget = Budget::new(bytes.len());
    let gz = flate2::read::GzDecoder::new(bytes);
    // The decoder is capped too, so that a gzip bomb is refused however the tar looks.
    let capped = gz.take(MAX_TOTAL + 64 * 1024 * 1024);
    let mut archive = tar::Archive::new(capped);
    let mut files = Vec::new();
    let mut dirs: HashSet<String> = HashSet::new();
    let entries = archive
        .entries()
        .map_err(|e| format!("reading the archive: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("reading the archive: {e}"))?;
        budget.entry()?;
        let kind = entry.header().entry_type();
        let raw = entry.path_bytes().into_owned();
        let shown = String::from_utf8_lossy(&raw).escape_debug().to_string();
        let is_dir = match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous => false,
            tar::EntryType::Directory => true,
            tar::EntryType::Symlink => return Err(format!("entry `{shown}` is a symbolic link")),
            tar::EntryType::Link => return Err(format!("entry `{shown}` is a hard link")),
            tar::EntryType::Char | tar::EntryType::Block => {
                return Err(format!("entry `{shown}` is a device"));
            }
            tar::EntryType::Fifo => return Err(format!("entry `{shown}` is a FIFO")),
            other => {
                return Err(format!(
                    "entry `{shown}` has an unsupported type ({other:?})"
                ));
            }
        };
        let Some(path) = budget.path(&raw, is_dir)? else {
            continue;
        };
        if is_dir {
            dirs.insert(path);
            continue;
        }
        let declared = entry
            .header()
            .size()
            .map_err(|e| format!("entry `{shown}`: {e}"))?;
        budget.declared(&shown, declared)?;
        let mut data = Vec::with_capacity(declared as usize);
        (&mut entry)
            .take(declared + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("reading entry `{shown}`: {e}"))?;
        if data.len() as u64 != declared {
            return Err(format!(
                "entry `{shown}` holds {} bytes but declares {declared}",
                data.len()
            ));
        }
        budget.add(declared)?;
        let executable = entry.header().mode().is_ok_and(|m| m & 0o111 != 0);
        files.push(ArchiveFile {
            path,
            bytes: data,
            executable,
        });
    }
    finish(budget, files, &dirs)
}

fn read_zip(bytes: &[u8]) -> Result<Archive, String> {
    let mut budget = Budget::new(bytes.len());
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("reading the archive: {e}"))?;
    if zip.len() > MAX_ENTRIES {
        return Err(format!("more than {MAX_ENTRIES} entries"));
    }
    let mut files = Vec::new();
    let mut dirs: HashSet<String> = HashSet::new();
    for i in 0..zip.len() {
        budget.entry()?;
        let mut file = zip
            .by_index(i)
            .map_err(|e| format!("reading the archive: {e}"))?;
        let raw = file.name_raw().to_vec();
        let shown = String::from_utf8_lossy(&raw).escape_debug().to_string();
        let mode = file.unix_mode().unwrap_or(0);
        let file_type = mode & 0o170000;
        if file_type == 0o120000 {
            return Err(format!("entry `{shown}` is a symbolic link"));
        }
        if file_type != 0 && file_type != 0o100000 && file_type != 0o040000 {
            return Err(format!(
                "entry `{shown}` is not a regular file or directory"
            ));
        }
        let is_dir = file.is_dir();
        let Some(path) = budget.path(&raw, is_dir)? else {
            continue;
        };
        if is_dir {
            dirs.insert(path);
            continue;
        }
        let declared = file.size();
        budget.declared(&shown, declared)?;
        let mut data = Vec::with_capacity(declared as usize);
        (&mut file)
            .take(declared + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("reading entry `{shown}`: {e}"))?;
        if data.len() as u64 != declared {
            return Err(format!(
                "entry `{shown}` holds more bytes than it declares ({declared})"
            ));
        }
        budget.add(declared)?;
        files.push(ArchiveFile {
            path,
            bytes: data,
            executable: mode & 0o111 != 0,
        });
    }
    finish(budget, files, &dirs)
}

fn finish(
    budget: Budget,
    files: Vec<ArchiveFile>,
    dirs: &HashSet<String>,
) -> Result<Archive, String> {
    let Some(key) = budget.key else {
        return Err("the archive is empty".into());
    };
    // A file may not also be a directory, nor have a file as its parent.
    let names: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    for f in &files {
        if dirs.contains(&f.path) {
            return Err(format!("`{key}/{}` is both a file and a directory", f.path));
        }
        let mut parent = f.path.as_str();
        while let Some((up, _)) = parent.rsplit_once('/') {
            if names.contains(up) {
                return Err(format!(
                    "`{key}/{}` lies below the file `{key}/{up}`",
                    f.path
                ));
            }
            parent = up;
        }
    }
    Ok(Archive { key, files })
}

/// Writes an archive's files under `dir` (which must be new and empty), with modes 0644 or
/// 0755 only.
pub fn write_tree(dir: &std::path::Path, files: &[ArchiveFile]) -> Result<(), String> {
    for file in files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("creating `{}`: {e}", parent.display()))?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(if file.executable { 0o755 } else { 0o644 });
        }
        let mut out = options
            .open(&path)
            .map_err(|e| format!("writing `{}`: {e}", path.display()))?;
        std::io::Write::write_all(&mut out, &file.bytes)
            .map_err(|e| format!("writing `{}`: {e}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = if file.executable { 0o755 } else { 0o644 };
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
                .map_err(|e| format!("setting permissions of `{}`: {e}", path.display()))?;
        }
    }
    Ok(())
}
