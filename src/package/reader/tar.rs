//! tar, parsed header by header: only the constructions skillc writes (GNU or ustar regular
//! files, directories and GNU long names), each field checked, so that GNU tar, bsdtar, Python
//! and this reader cannot see different entries in the same bytes.

use std::collections::HashSet;
use std::io::Read;

use super::gzip::{self, Member};
use super::{Archive, ArchiveFile, Budget, MAX_ARCHIVE, MAX_NAME, finish, shown_bytes};

/// How many zero bytes may follow the first end-of-archive block (tar pads the stream to its
/// record size: 10 KiB by default, more with a large blocking factor).
const MAX_ZERO_TAIL: u64 = 1024 * 1024;

/// The name of a GNU long-name header.
const LONG_LINK: &[u8] = b"././@LongLink";

/// What a header says, once checked.
struct Header {
    /// The path: `name`, or `prefix/name` for ustar.
    name: Vec<u8>,
    typeflag: u8,
    size: u64,
    mode: u64,
    /// Whether the link-name field holds anything.
    has_link: bool,
}

/// Reads a tar.gz: one gzip member holding a tar stream that ends with a zero block followed
/// by zeros only.
pub(super) fn read(bytes: &[u8]) -> Result<Archive, String> {
    let mut budget = Budget::new(bytes.len());
    let mut gz = Member::new(bytes, MAX_ARCHIVE);
    let mut files = Vec::new();
    let mut dirs: HashSet<String> = HashSet::new();
    let mut long: Option<Vec<u8>> = None;
    loop {
        let mut block = [0u8; 512];
        read_exact(&mut gz, &mut block)?;
        if block.iter().all(|&b| b == 0) {
            if long.is_some() {
                return Err(
                    "reading the archive: a GNU long name is followed by the end of the archive"
                        .into(),
                );
            }
            break;
        }
        let header = parse(&block)?;
        if header.typeflag == b'L' {
            if long.is_some() {
                return Err("reading the archive: two GNU long names in a row".into());
            }
            long = Some(long_name(&mut gz, &header)?);
            continue;
        }
        budget.entry()?;
        let raw = long.take().unwrap_or(header.name);
        let shown = shown_bytes(&raw);
        let is_dir = match header.typeflag {
            b'0' | 0 => false,
            b'5' => true,
            b'2' => return Err(format!("entry `{shown}` is a symbolic link")),
            b'1' => return Err(format!("entry `{shown}` is a hard link")),
            b'3' | b'4' => return Err(format!("entry `{shown}` is a device")),
            b'6' => return Err(format!("entry `{shown}` is a FIFO")),
            b'x' | b'g' => {
                return Err(format!(
                    "entry `{shown}` is a PAX extended header; skillc archives hold none (tools disagree on how PAX records combine with GNU names)"
                ));
            }
            b'K' => return Err(format!("entry `{shown}` is a GNU long link name")),
            b'S' => return Err(format!("entry `{shown}` is a GNU sparse file")),
            other => {
                return Err(format!(
                    "entry `{shown}` has an unsupported type ({})",
                    std::ascii::escape_default(other)
                ));
            }
        };
        if header.has_link {
            return Err(format!("entry `{shown}` has a link name"));
        }
        if header.mode & !0o777 != 0 {
            return Err(format!(
                "entry `{shown}` has mode {:o}; only permission bits (0777) are allowed",
                header.mode
            ));
        }
        // Within 0777, as checked above.
        super::permissions(&shown, header.mode as u32, is_dir)?;
        if is_dir && header.size != 0 {
            return Err(format!(
                "entry `{shown}` is a directory that declares {} bytes",
                header.size
            ));
        }
        let Some(path) = budget.path(&raw, is_dir)? else {
            continue;
        };
        if is_dir {
            dirs.insert(path);
            continue;
        }
        budget.declared(&shown, header.size)?;
        let data =
            read_data(&mut gz, header.size).map_err(|e| format!("reading entry `{shown}`: {e}"))?;
        if data.len() as u64 != header.size {
            return Err(format!(
                "entry `{shown}` holds {} bytes but declares {}",
                data.len(),
                header.size
            ));
        }
        skip_padding(&mut gz, header.size)?;
        budget.add(header.size)?;
        files.push(ArchiveFile {
            path,
            bytes: data,
            executable: header.mode == 0o755,
        });
    }
    gz.finish(MAX_ZERO_TAIL)?;
    finish(budget, files, &dirs)
}

/// Checks a header block: checksum, magic, numeric fields, and the GNU prefix area.
fn parse(block: &[u8; 512]) -> Result<Header, String> {
    let stored = octal(&block[148..156], false).ok_or(
        "reading the archive: a header's checksum field is not octal (not a tar archive?)",
    )?;
    let sum: u64 = block
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                u64::from(b)
            }
        })
        .sum();
    if stored != sum {
        return Err("reading the archive: a header's checksum does not match".into());
    }
    let name = until_nul(&block[0..100]);
    let gnu = match (&block[257..263], &block[263..265]) {
        (b"ustar ", b" \0") => true,
        (b"ustar\0", b"00") => false,
        _ => {
            return Err(format!(
                "entry `{}` has neither the ustar nor the GNU magic",
                shown_bytes(name)
            ));
        }
    };
    let prefix = &block[345..500];
    let name = if gnu {
        // In GNU headers this area holds times and sparse maps, not a path, yet Python's
        // tarfile joins whatever is there as a prefix: it must be empty.
        if prefix.iter().any(|&b| b != 0) {
            return Err(format!(
                "entry `{}` has data in the GNU header's prefix area (read as a path prefix by some tools)",
                shown_bytes(name)
            ));
        }
        name.to_vec()
    } else {
        let prefix = until_nul(prefix);
        if prefix.is_empty() {
            name.to_vec()
        } else {
            [prefix, b"/", name].concat()
        }
    };
    let field = |range: std::ops::Range<usize>, what: &str, empty_is_zero: bool| {
        octal(&block[range], empty_is_zero).ok_or_else(|| {
            format!(
                "entry `{}` has a malformed {what} field",
                shown_bytes(&name)
            )
        })
    };
    let mode = field(100..108, "mode", false)?;
    field(108..116, "uid", true)?;
    field(116..124, "gid", true)?;
    let size = field(124..136, "size", false)?;
    field(136..148, "mtime", true)?;
    // Device numbers mean nothing for a regular file, but Python's tarfile stops reading the
    // archive (silently, after the first entry) at one that is not octal.
    field(329..337, "devmajor", true)?;
    field(337..345, "devminor", true)?;
    Ok(Header {
        typeflag: block[156],
        has_link: block[157..257].iter().any(|&b| b != 0),
        name,
        size,
        mode,
    })
}

/// The bytes of a field up to its first NUL, as every tar reader takes them.
fn until_nul(field: &[u8]) -> &[u8] {
    field
        .iter()
        .position(|&b| b == 0)
        .map_or(field, |end| &field[..end])
}

/// A numeric field as writers store it: optional leading spaces, octal digits, then NULs or
/// spaces only. Base-256, signs and other bytes are refused; so is an empty field (which tools
/// read differently) except where `empty_is_zero` (uid, gid and mtime, which do not change what
/// is extracted and which some writers leave empty).
fn octal(field: &[u8], empty_is_zero: bool) -> Option<u64> {
    let spaces = field.iter().take_while(|&&b| b == b' ').count();
    let field = &field[spaces..];
    let digits = field
        .iter()
        .take_while(|b| (b'0'..=b'7').contains(b))
        .count();
    if field[digits..].iter().any(|&b| b != 0 && b != b' ') {
        return None;
    }
    if digits == 0 {
        return empty_is_zero.then_some(0);
    }
    field[..digits].iter().try_fold(0u64, |n, &d| {
        n.checked_mul(8)?.checked_add(u64::from(d - b'0'))
    })
}

/// Reads a GNU long name: capped before it is read, NUL-terminated with no other NUL, and the
/// header named as GNU tar names it.
fn long_name(gz: &mut Member<'_>, header: &Header) -> Result<Vec<u8>, String> {
    if header.name != LONG_LINK || header.has_link {
        return Err(format!(
            "reading the archive: a GNU long-name header is named `{}`, not `././@LongLink`",
            shown_bytes(&header.name)
        ));
    }
    if header.size > MAX_NAME as u64 + 1 {
        return Err(format!(
            "reading the archive: a GNU long name of {} bytes; the limit is {MAX_NAME}",
            header.size
        ));
    }
    let data = read_data(gz, header.size).map_err(gzip::gzip_error)?;
    if data.len() as u64 != header.size {
        return Err("reading the archive: the stream ends inside a GNU long name".into());
    }
    skip_padding(gz, header.size)?;
    match data.split_last() {
        Some((0, name)) if !name.is_empty() && !name.contains(&0) => Ok(name.to_vec()),
        _ => Err(format!(
            "reading the archive: the GNU long name `{}` is not one NUL-terminated path",
            shown_bytes(&data)
        )),
    }
}

fn read_exact(gz: &mut Member<'_>, buf: &mut [u8]) -> Result<(), String> {
    gz.read_exact(buf).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            "reading the archive: the stream ends without its end-of-archive blocks (truncated?)"
                .to_string()
        } else {
            gzip::gzip_error(e)
        }
    })
}

/// Reads up to `size` bytes (already checked against the caps).
fn read_data(gz: &mut Member<'_>, size: u64) -> std::io::Result<Vec<u8>> {
    let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    gz.take(size).read_to_end(&mut data)?;
    Ok(data)
}

/// Skips the padding to the next 512-byte block.
fn skip_padding(gz: &mut Member<'_>, size: u64) -> Result<(), String> {
    let pad = (512 - size % 512) % 512;
    let mut buf = [0u8; 512];
    read_exact(gz, &mut buf[..pad as usize])
}

#[cfg(test)]
mod tests {
    use super::octal;

    #[test]
    fn octal_fields_are_strict() {
        assert_eq!(octal(b"0000644\0", false), Some(0o644));
        assert_eq!(octal(b"  644 \0\0", false), Some(0o644));
        assert_eq!(octal(b"000644\0 ", false), Some(0o644));
        assert_eq!(octal(b"\0\0\0\0\0\0\0\0", false), None);
        assert_eq!(octal(b"\0\0\0\0\0\0\0\0", true), Some(0));
        assert_eq!(octal(b"0000648\0", false), None);
        assert_eq!(octal(b"00006 4\0", false), None);
        assert_eq!(octal(&[0x80, 0, 0, 0, 0, 0, 0, 1], false), None);
        assert_eq!(octal(b"-000001\0", false), None);
    }
}
