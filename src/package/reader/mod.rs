//! Reading archives from strangers: only regular files (and directories) inside one top-level
//! `{key}/` directory named like a skill, clean relative paths, bounded counts and sizes, no
//! expansion bombs.
//!
//! `verify` is a gate in front of other extractors (GNU tar, bsdtar, Python, unzip), so the
//! reader accepts only constructions that every one of them reads the same way: what skillc's
//! own writer produces, parsed here byte by byte ([`gzip`], [`tar`], [`zip`]) rather than through
//! general-purpose parsers whose leniency differs from tool to tool.

mod gzip;
mod tar;
mod zip;

use std::collections::{HashMap, HashSet};

use unicode_normalization::UnicodeNormalization;

/// At most this many entries.
pub const MAX_ENTRIES: usize = 10_000;
/// At most this many bytes in one file.
pub const MAX_FILE: u64 = 64 * 1024 * 1024;
/// At most this many bytes in all files together.
pub const MAX_TOTAL: u64 = 256 * 1024 * 1024;
/// The files may add up to at most this many times the archive's size.
pub const MAX_RATIO: u64 = 100;
/// At most this many bytes in an entry path (a GNU long name is refused above it before it is
/// read).
pub const MAX_NAME: usize = 4096;
/// The most bytes an archive can have and still be read: [`MAX_TOTAL`] plus, for every entry,
/// room for its headers and name (tar: header, long-name header and name, padding; zip: local
/// and central headers and two copies of the name), plus slack for compression overhead.
pub const MAX_ARCHIVE: u64 =
    MAX_TOTAL + (MAX_ENTRIES as u64) * (3 * 512 + 2 * MAX_NAME as u64) + 1024 * 1024;
/// Names quoted in messages are cut to this many characters.
pub const SHOWN_MAX: usize = 200;

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
    /// The single top-level directory, a valid skill name.
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
    if bytes.len() as u64 > MAX_ARCHIVE {
        return Err(format!(
            "the archive is {} bytes; the limit is {MAX_ARCHIVE}",
            bytes.len()
        ));
    }
    match sniff(bytes) {
        Some(super::archive::Format::TarGz) => tar::read(bytes),
        Some(super::archive::Format::Zip) => zip::read(bytes),
        None => Err("not a tar.gz or zip archive".into()),
    }
}

/// A name from an archive or manifest as it may be printed: escaped (no control characters or
/// terminal escapes reach the output) and cut to [`SHOWN_MAX`] characters with `…`.
pub fn shown(text: &str) -> String {
    let mut out: String = text.escape_debug().take(SHOWN_MAX + 1).collect();
    if out.chars().count() > SHOWN_MAX {
        out = out.chars().take(SHOWN_MAX).collect();
        out.push('…');
    }
    out
}

/// [`shown`] for raw bytes that may not be UTF-8.
pub fn shown_bytes(raw: &[u8]) -> String {
    let cut = &raw[..raw.len().min(4 * SHOWN_MAX + 4)];
    let mut out = shown(&String::from_utf8_lossy(cut));
    if cut.len() < raw.len() && !out.ends_with('…') {
        out.push('…');
    }
    out
}

/// Whether a top-level directory name is a valid skill key: 1-64 lowercase ASCII letters,
/// digits and single hyphens, not at either end (the PAR id rule, which is also the portable
/// subset of Agent Skills names). Anything else could be `.git`, `.cargo` or a terminal escape.
pub fn valid_key(name: &str) -> bool {
    crate::rules::identity::id_problem(name).is_none()
}

/// Refuses permission bits other than those `pack` writes (0644, or 0755 for a file with an
/// execute bit) and, for a directory entry (which `pack` never writes, but which `tar` and
/// `zip` of an unpacked skill add), other than the 0755 `unpack` gives directories: GNU tar,
/// bsdtar and unzip run as root reproduce whatever the archive says (a world-writable script,
/// a `000` directory). `mode` holds permission bits only.
fn permissions(shown: &str, mode: u32, is_dir: bool) -> Result<(), String> {
    let allowed: &[u32] = if is_dir { &[0o755] } else { &[0o644, 0o755] };
    if allowed.contains(&mode) {
        return Ok(());
    }
    Err(if is_dir {
        format!("entry `{shown}` has mode {mode:04o}; a directory's mode must be 0755")
    } else {
        format!("entry `{shown}` has mode {mode:04o}; a file's mode must be 0644 or 0755")
    })
}

/// Tracks the caps while entries are read.
struct Budget {
    compressed: u64,
    total: u64,
    entries: usize,
    /// Paths seen, folded (lowercase, NFC), to the path as written: two entries that land on
    /// the same file on a case-insensitive or normalizing file system are refused.
    seen: HashMap<String, String>,
    key: Option<String>,
}

impl Budget {
    fn new(compressed: usize) -> Budget {
        Budget {
            compressed: compressed as u64,
            total: 0,
            entries: 0,
            seen: HashMap::new(),
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
        if raw.len() > MAX_NAME {
            return Err(format!(
                "entry `{}` has a path of {} bytes; the limit is {MAX_NAME}",
                shown_bytes(raw),
                raw.len()
            ));
        }
        let text = std::str::from_utf8(raw)
            .map_err(|_| format!("entry `{}` has a path that is not UTF-8", shown_bytes(raw)))?;
        let shown = shown(text);
        if text.contains('\0') {
            return Err(format!("entry `{shown}` has a NUL in its path"));
        }
        if text.chars().any(char::is_control) {
            return Err(format!(
                "entry `{shown}` has a control character in its path"
            ));
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
        if let Some(why) = parts.iter().find_map(|p| not_portable(p)) {
            return Err(format!("entry `{shown}` has a path component that {why}"));
        }
        let top = parts[0].to_string();
        match &self.key {
            None => {
                if !valid_key(&top) {
                    return Err(format!(
                        "the top-level directory `{}` is not a valid skill name (1-64 lowercase letters, digits and single hyphens)",
                        self::shown(&top)
                    ));
                }
                self.key = Some(top.clone());
            }
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
        if !is_dir {
            let folded = fold(&rest);
            if let Some(first) = self.seen.get(&folded) {
                return Err(if *first == rest {
                    format!("entry `{shown}` appears twice")
                } else {
                    format!(
                        "entry `{shown}` and `{}/{}` differ only in case or Unicode normalization",
                        top,
                        self::shown(first)
                    )
                });
            }
            self.seen.insert(folded, rest.clone());
        }
        Ok(Some(rest))
    }
}

/// Checks what only the whole archive shows, and names its key.
fn finish(
    budget: Budget,
    files: Vec<ArchiveFile>,
    dirs: &HashSet<String>,
) -> Result<Archive, String> {
    let Some(key) = budget.key else {
        return Err("the archive is empty".into());
    };
    // A file may not also be a directory, nor have a file as its parent — compared folded, as
    // a case-insensitive or normalizing file system would see them.
    let names: HashMap<String, &str> = files
        .iter()
        .map(|f| (fold(&f.path), f.path.as_str()))
        .collect();
    let folded_dirs: HashSet<String> = dirs.iter().map(|d| fold(d)).collect();
    for f in &files {
        if folded_dirs.contains(&fold(&f.path)) {
            return Err(format!(
                "`{key}/{}` is both a file and a directory",
                shown(&f.path)
            ));
        }
        let mut parent = f.path.as_str();
        while let Some((up, _)) = parent.rsplit_once('/') {
            if let Some(file) = names.get(&fold(up)) {
                return Err(format!(
                    "`{key}/{}` lies below the file `{key}/{}`",
                    shown(&f.path),
                    shown(file)
                ));
            }
            parent = up;
        }
    }
    Ok(Archive { key, files })
}

/// A path as a case-insensitive, normalizing file system may compare it (APFS, NTFS, HFS+):
/// compatibility-normalized, then uppercased and lowercased, so that pairs lowercase alone
/// keeps apart (`ς`/`σ`, `ß`/`ss`, `ı`/`i`, `ᾳ`/`αι`) fold together too. Erring towards "the
/// same" is the point: such pairs are refused.
fn fold(path: &str) -> String {
    let upper: String = path.nfkc().flat_map(char::to_uppercase).collect();
    let lower: String = upper.chars().flat_map(char::to_lowercase).collect();
    lower.nfkc().collect()
}

/// Why a path component would be written differently, or not at all, on some file system:
/// Windows drops trailing dots and spaces, reads `:` as a stream and refuses `<>"|?*` and device
/// names; HFS+ ignores some invisible characters. (git refuses the same for its checkouts.)
fn not_portable(component: &str) -> Option<&'static str> {
    if component.ends_with(['.', ' ']) {
        return Some("ends with a dot or a space (Windows drops them)");
    }
    if component.contains([':', '<', '>', '"', '|', '?', '*']) {
        return Some("holds a character Windows does not allow in file names (`:<>\"|?*`)");
    }
    let stem = component
        .split('.')
        .next()
        .unwrap_or(component)
        .trim_end()
        .to_ascii_uppercase();
    let device = matches!(
        stem.as_str(),
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
    ) || ((stem.starts_with("COM") || stem.starts_with("LPT"))
        && stem.len() == 4
        && stem.as_bytes()[3].is_ascii_digit());
    if device {
        return Some("is a Windows device name");
    }
    if component.chars().any(|c| {
        matches!(c, '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}')
    }) {
        return Some("holds an invisible character HFS+ ignores when it compares names");
    }
    None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_escapes_and_truncates() {
        assert_eq!(shown("a\nb\u{1b}[2J"), "a\\nb\\u{1b}[2J");
        let long = "x".repeat(300);
        assert_eq!(shown(&long), format!("{}…", "x".repeat(200)));
        assert_eq!(shown(&"x".repeat(200)), "x".repeat(200));
        assert_eq!(shown_bytes(b"a\xffb"), "a\u{fffd}b");
    }

    #[test]
    fn keys() {
        for good in ["pdf", "pdf-tools", "a1", &"k".repeat(64)] {
            assert!(valid_key(good), "{good}");
        }
        for bad in [
            "",
            ".git",
            "Pdf",
            "-a",
            "a-",
            "a--b",
            "caf\u{e9}",
            &"k".repeat(65),
        ] {
            assert!(!valid_key(bad), "{bad}");
        }
    }
}
