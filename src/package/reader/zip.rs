//! zip, parsed record by record: the end record exactly at the end, a central directory whose
//! every entry matches its local header, entries laid out back to back from offset 0, so that
//! readers that trust the central directory (unzip, Python) and readers that stream local
//! headers (bsdtar) see the same files. No extra fields, encryption, data descriptors or zip64.

use std::collections::HashSet;

use super::{Archive, ArchiveFile, Budget, MAX_ENTRIES, finish, shown_bytes};

const LOCAL: &[u8; 4] = b"PK\x03\x04";
const CENTRAL: &[u8; 4] = b"PK\x01\x02";
const END: &[u8; 4] = b"PK\x05\x06";
const ZIP64_LOCATOR: &[u8; 4] = b"PK\x06\x07";
const LOCAL_LEN: usize = 30;
const CENTRAL_LEN: usize = 46;
const END_LEN: usize = 22;

/// General-purpose flags: bit 11 says the name is UTF-8; bits 1-2 only describe how hard
/// deflate tried.
const FLAG_UTF8: u16 = 1 << 11;
const FLAG_DEFLATE_LEVEL: u16 = 0b110;

/// Which system wrote the entry, as the high byte of "version made by" says.
const HOST_DOS: u8 = 0;
const HOST_UNIX: u8 = 3;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Reads a zip.
pub(super) fn read(bytes: &[u8]) -> Result<Archive, String> {
    let mut budget = Budget::new(bytes.len());
    let (count, cd_start) = end_record(bytes)?;
    let end = bytes.len() - END_LEN;
    let mut files = Vec::new();
    let mut dirs: HashSet<String> = HashSet::new();
    let mut names: HashSet<&[u8]> = HashSet::new();
    let mut at = cd_start;
    // Where the next local header must start: entries are contiguous from offset 0.
    let mut next_local = 0usize;
    for _ in 0..count {
        budget.entry()?;
        let fixed = bytes
            .get(at..at + CENTRAL_LEN)
            .filter(|_| at + CENTRAL_LEN <= end)
            .ok_or("reading the archive: the central directory is shorter than its entry count")?;
        if &fixed[0..4] != CENTRAL {
            return Err(
                "reading the archive: a central directory entry has a bad signature".into(),
            );
        }
        let name_len = usize::from(u16_at(fixed, 28));
        let extra_len = u16_at(fixed, 30);
        let comment_len = u16_at(fixed, 32);
        let name = bytes
            .get(at + CENTRAL_LEN..at + CENTRAL_LEN + name_len)
            .filter(|_| at + CENTRAL_LEN + name_len <= end)
            .ok_or("reading the archive: a central directory entry runs past the directory")?;
        let shown = shown_bytes(name);
        at += CENTRAL_LEN + name_len;
        if extra_len != 0 || comment_len != 0 {
            return Err(format!(
                "entry `{shown}` has extra fields or a comment (tools interpret them: Unicode paths, zip64, timestamps)"
            ));
        }
        if !names.insert(name) {
            return Err(format!(
                "entry `{shown}` appears twice in the central directory"
            ));
        }
        let host = (u16_at(fixed, 4) >> 8) as u8;
        // Version needed to extract: 2.0 covers deflate and directories; unzip skips an entry
        // that asks for more and Python refuses the archive, while bsdtar extracts it.
        let needed = u16_at(fixed, 6);
        if needed > 20 {
            return Err(format!(
                "entry `{shown}` needs zip version {}.{} to extract; only 2.0 and lower are read",
                needed / 10,
                needed % 10
            ));
        }
        let flags = u16_at(fixed, 8);
        let method = u16_at(fixed, 10);
        let crc = u32_at(fixed, 16);
        let csize = u32_at(fixed, 20);
        let usize_ = u32_at(fixed, 24);
        let disk = u16_at(fixed, 34);
        let external = u32_at(fixed, 38);
        let offset = u32_at(fixed, 42);
        if flags & 1 != 0 {
            return Err(format!("entry `{shown}` is encrypted"));
        }
        if flags & (1 << 3) != 0 {
            return Err(format!(
                "entry `{shown}` uses a data descriptor (sizes after the data)"
            ));
        }
        let allowed = FLAG_UTF8 | if method == 8 { FLAG_DEFLATE_LEVEL } else { 0 };
        if flags & !allowed != 0 {
            return Err(format!(
                "entry `{shown}` has unsupported flags {flags:#06x}"
            ));
        }
        if method != 0 && method != 8 {
            return Err(format!(
                "entry `{shown}` uses compression method {method}; only stored (0) and deflate (8) are read"
            ));
        }
        if disk != 0 || csize == u32::MAX || usize_ == u32::MAX || offset == u32::MAX {
            return Err(format!("entry `{shown}` uses zip64 or spans disks"));
        }
        if !name.is_ascii() && flags & FLAG_UTF8 == 0 {
            return Err(format!(
                "entry `{shown}` has a non-ASCII name without the UTF-8 flag (unzip and Python would decode it as CP437)"
            ));
        }
        // The local header must repeat the central entry exactly, where the previous entry ended.
        if offset as usize != next_local {
            return Err(format!(
                "entry `{shown}`'s local header is at offset {offset}, not right after the previous entry ({next_local})"
            ));
        }
        let local_at = next_local;
        let local = bytes
            .get(local_at..local_at + LOCAL_LEN)
            .ok_or_else(|| format!("entry `{shown}`'s local header lies past the end"))?;
        if &local[0..4] != LOCAL {
            return Err(format!(
                "entry `{shown}`'s local header has a bad signature"
            ));
        }
        // Version needed, flags, method, time, date, CRC-32 and both sizes, byte for byte.
        if local[4..26] != fixed[6..28] {
            return Err(format!(
                "entry `{shown}`'s local header disagrees with the central directory (flags, method, times, CRC-32 or sizes)"
            ));
        }
        let local_name_len = usize::from(u16_at(local, 26));
        let local_extra_len = u16_at(local, 28);
        let data_at = local_at + LOCAL_LEN + local_name_len;
        let local_name = bytes.get(local_at + LOCAL_LEN..data_at);
        if local_name != Some(name) {
            return Err(format!(
                "entry `{shown}`'s local header names `{}`",
                shown_bytes(local_name.unwrap_or_default())
            ));
        }
        if local_extra_len != 0 {
            return Err(format!(
                "entry `{shown}`'s local header has extra fields (tools interpret them: Unicode paths, zip64, timestamps)"
            ));
        }
        let data_end = data_at + csize as usize;
        if data_end > cd_start {
            return Err(format!(
                "entry `{shown}`'s data runs into the central directory"
            ));
        }
        next_local = data_end;
        let data = &bytes[data_at..data_end];

        let (is_dir, executable) = kind(&shown, name, host, external)?;
        let Some(path) = budget.path(name, is_dir)? else {
            continue;
        };
        if is_dir {
            if csize != 0 || usize_ != 0 {
                return Err(format!("entry `{shown}` is a directory that holds data"));
            }
            dirs.insert(path);
            continue;
        }
        budget.declared(&shown, u64::from(usize_))?;
        let contents = if method == 0 {
            if csize != usize_ {
                return Err(format!(
                    "entry `{shown}` is stored with {csize} bytes but declares {usize_}"
                ));
            }
            data.to_vec()
        } else {
            inflate(&shown, data, usize_ as usize)?
        };
        let mut check = flate2::Crc::new();
        check.update(&contents);
        if check.sum() != crc {
            return Err(format!("entry `{shown}` does not match its CRC-32"));
        }
        budget.add(u64::from(usize_))?;
        files.push(ArchiveFile {
            path,
            bytes: contents,
            executable,
        });
    }
    if at != end {
        return Err(
            "reading the archive: the central directory's size does not match its entries".into(),
        );
    }
    if next_local != cd_start {
        return Err(format!(
            "reading the archive: {} bytes lie between the last entry and the central directory",
            cd_start - next_local
        ));
    }
    finish(budget, files, &dirs)
}

/// Checks the end-of-central-directory record, which must be the last 22 bytes (no comment,
/// one disk, no zip64), and returns the entry count and where the central directory starts
/// (right before the record).
fn end_record(bytes: &[u8]) -> Result<(usize, usize), String> {
    let Some(end) = bytes.len().checked_sub(END_LEN) else {
        return Err("reading the archive: too short for a zip".into());
    };
    let record = &bytes[end..];
    if &record[0..4] != END {
        return Err(
            "reading the archive: the zip does not end with its end-of-central-directory record (a comment or trailing data?)"
                .into(),
        );
    }
    let disk = u16_at(record, 4);
    let cd_disk = u16_at(record, 6);
    let here = u16_at(record, 8);
    let total = u16_at(record, 10);
    let cd_size = u32_at(record, 12) as usize;
    let cd_offset = u32_at(record, 16) as usize;
    let comment = u16_at(record, 20);
    if comment != 0 {
        return Err("reading the archive: the zip has a comment".into());
    }
    if total == u16::MAX || cd_offset == u32::MAX as usize || cd_size == u32::MAX as usize {
        return Err("reading the archive: the zip uses zip64".into());
    }
    if disk != 0 || cd_disk != 0 || here != total {
        return Err("reading the archive: the zip spans several disks".into());
    }
    if usize::from(total) > MAX_ENTRIES {
        return Err(format!("more than {MAX_ENTRIES} entries"));
    }
    if end >= 20 && &bytes[end - 20..end - 16] == ZIP64_LOCATOR {
        return Err("reading the archive: the zip has a zip64 locator".into());
    }
    if cd_offset.checked_add(cd_size) != Some(end) {
        return Err(
            "reading the archive: the central directory does not end where the end record begins"
                .into(),
        );
    }
    Ok((usize::from(total), cd_offset))
}

/// Whether an entry is a directory, and whether it is executable, from its name and external
/// attributes. Only Unix and MS-DOS attributes are read; a Unix mode must be a regular file or
/// a directory with the permission bits `pack` writes, and agree with the name's trailing `/`;
/// an MS-DOS entry may not be read-only.
fn kind(shown: &str, name: &[u8], host: u8, external: u32) -> Result<(bool, bool), String> {
    let named_dir = name.ends_with(b"/");
    match host {
        HOST_UNIX => {
            let mode = external >> 16;
            let is_dir = match mode & 0o170000 {
                0o120000 => return Err(format!("entry `{shown}` is a symbolic link")),
                0o100000 => false,
                0o040000 => true,
                0 => named_dir,
                _ => {
                    return Err(format!(
                        "entry `{shown}` is not a regular file or directory"
                    ));
                }
            };
            if mode & 0o7000 != 0 {
                return Err(format!(
                    "entry `{shown}` has mode {:o}; only permission bits (0777) are allowed",
                    mode & 0o7777
                ));
            }
            if is_dir != named_dir {
                return Err(format!(
                    "entry `{shown}`'s mode and name disagree on whether it is a directory"
                ));
            }
            super::permissions(shown, mode & 0o777, is_dir)?;
            Ok((is_dir, !is_dir && mode & 0o777 == 0o755))
        }
        HOST_DOS => {
            // Info-ZIP's unzip reads the high half as a Unix mode even for MS-DOS entries (a
            // symbolic link, an execute bit): it must be empty.
            if external >> 16 != 0 {
                return Err(format!(
                    "entry `{shown}` has MS-DOS attributes with a Unix mode in them (unzip would apply it)"
                ));
            }
            if (external & 0x10 != 0) != named_dir {
                return Err(format!(
                    "entry `{shown}`'s attributes and name disagree on whether it is a directory"
                ));
            }
            // unzip and bsdtar drop the write bits of a read-only entry (mode 0444 or 0555).
            if external & 0x01 != 0 {
                return Err(format!(
                    "entry `{shown}` has the MS-DOS read-only attribute (extracted without write permission); a file's mode must be 0644 or 0755"
                ));
            }
            Ok((named_dir, false))
        }
        other => Err(format!(
            "entry `{shown}` was made by system {other}; only Unix (3) and MS-DOS (0) attributes are read"
        )),
    }
}

/// Inflates exactly one complete deflate stream that uses all of `data` and yields exactly
/// `size` bytes (already checked against the caps).
fn inflate(shown: &str, data: &[u8], size: usize) -> Result<Vec<u8>, String> {
    let mut out = vec![0u8; size + 1];
    let mut inflater = flate2::Decompress::new(false);
    let status = inflater
        .decompress(data, &mut out, flate2::FlushDecompress::Finish)
        .map_err(|e| format!("reading entry `{shown}`: {e}"))?;
    let produced = inflater.total_out() as usize;
    if produced > size {
        return Err(format!(
            "entry `{shown}` inflates to more than the {size} bytes it declares"
        ));
    }
    if status != flate2::Status::StreamEnd || inflater.total_in() as usize != data.len() {
        return Err(format!(
            "entry `{shown}` is not one complete deflate stream of exactly its {} compressed bytes",
            data.len()
        ));
    }
    if produced != size {
        return Err(format!(
            "entry `{shown}` holds {produced} bytes but declares {size}"
        ));
    }
    out.truncate(size);
    Ok(out)
}
