//! Writing archives deterministically: the same content gives the same bytes, whatever the
//! files' mtimes, owners, umask, directory order or the machine.

use std::io::Write;

use flate2::{Compression, GzBuilder};

use super::PackFile;
use super::manifest::MANIFEST;

/// The mtime of every entry when `SOURCE_DATE_EPOCH` is not set: 1980-01-01T00:00:00Z, the
/// earliest time a zip can hold.
pub const DEFAULT_MTIME: u64 = 315_532_800;

/// The archive formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[value(name = "tar.gz")]
    TarGz,
    Zip,
}

impl Format {
    /// The default file name for a skill.
    pub fn file_name(self, key: &str) -> String {
        match self {
            Format::TarGz => format!("{key}.skill.tar.gz"),
            Format::Zip => format!("{key}.zip"),
        }
    }
}

/// The entry time: `SOURCE_DATE_EPOCH` when set, else [`DEFAULT_MTIME`].
pub fn mtime() -> u64 {
    crate::time::source_date_epoch()
        .and_then(|t| u64::try_from(t).ok())
        .unwrap_or(DEFAULT_MTIME)
}

/// The archive's entries in order: the manifest, then the files.
fn entries<'a>(
    key: &str,
    manifest: &'a [u8],
    files: &'a [PackFile],
) -> Vec<(String, &'a [u8], bool)> {
    let mut out = vec![(format!("{key}/{MANIFEST}"), manifest, false)];
    out.extend(files.iter().map(|f| {
        (
            format!("{key}/{}", f.path),
            f.bytes.as_slice(),
            f.executable,
        )
    }));
    out
}

/// Builds the archive in memory.
pub fn build(
    format: Format,
    key: &str,
    manifest: &[u8],
    files: &[PackFile],
) -> std::io::Result<Vec<u8>> {
    let entries = entries(key, manifest, files);
    match format {
        Format::TarGz => tar_gz(&entries),
        Format::Zip => zip(&entries),
    }
}

fn tar_gz(entries: &[(String, &[u8], bool)]) -> std::io::Result<Vec<u8>> {
    let mtime = mtime();
    let gz = GzBuilder::new()
        .mtime(0)
        .operating_system(255)
        .write(Vec::new(), Compression::new(9));
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    for (path, bytes, executable) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Regular);
        header.set_size(bytes.len() as u64);
        header.set_mode(if *executable { 0o755 } else { 0o644 });
        header.set_uid(0);
        header.set_gid(0);
        header.set_mtime(mtime);
        header.set_username("")?;
        header.set_groupname("")?;
        tar.append_data(&mut header, path, *bytes)?;
    }
    let gz = tar.into_inner()?;
    gz.finish()
}

fn zip(entries: &[(String, &[u8], bool)]) -> std::io::Result<Vec<u8>> {
    let time = dos_time(mtime());
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (path, bytes, executable) in entries {
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(9))
            .last_modified_time(time)
            .unix_permissions(if *executable { 0o755 } else { 0o644 })
            .large_file(false);
        writer
            .start_file(path.as_str(), options)
            .map_err(std::io::Error::other)?;
        writer.write_all(bytes)?;
    }
    let cursor = writer.finish().map_err(std::io::Error::other)?;
    Ok(cursor.into_inner())
}

/// A Unix time as a zip (DOS) timestamp, clamped to the range a zip can hold.
fn dos_time(epoch: u64) -> zip::DateTime {
    let (y, mo, d) = crate::time::civil(epoch.max(DEFAULT_MTIME) as i64 / 86_400);
    let secs = epoch % 86_400;
    zip::DateTime::from_date_and_time(
        y.clamp(1980, 2107) as u16,
        mo as u8,
        d as u8,
        (secs / 3600) as u8,
        (secs % 3600 / 60) as u8,
        (secs % 60) as u8,
    )
    .unwrap_or_default()
}

/// Writes `bytes` to `target` through a temporary file beside it, renamed into place: an
/// interrupted write leaves no partial file, and an existing file is replaced only with
/// `force`.
pub fn write_atomic(
    target: &std::path::Path,
    bytes: &[u8],
    force: bool,
    mode: u32,
) -> Result<(), String> {
    if !force && (target.exists() || target.is_symlink()) {
        return Err(format!(
            "`{}` already exists; pass --force to replace it",
            target.display()
        ));
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(".skillc-")
        .tempfile_in(dir)
        .map_err(|e| format!("creating a temporary file in `{}`: {e}", dir.display()))?;
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|e| format!("writing `{}`: {e}", target.display()))?;
    set_mode(temp.path(), mode)?;
    if force {
        temp.persist(target)
            .map_err(|e| format!("writing `{}`: {}", target.display(), e.error))?;
    } else {
        temp.persist_noclobber(target)
            .map_err(|e| format!("writing `{}`: {}", target.display(), e.error))?;
    }
    Ok(())
}

/// Sets a file's permission bits (a no-op where there are none).
#[cfg(unix)]
pub fn set_mode(path: &std::path::Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("setting permissions of `{}`: {e}", path.display()))
}

#[cfg(not(unix))]
pub fn set_mode(_path: &std::path::Path, _mode: u32) -> Result<(), String> {
    Ok(())
}
