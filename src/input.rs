//! Reading files that strangers control: regular files only, under a size cap, and never
//! blocking on a FIFO or a device. Every file skillc reads from a skill, an archive's
//! surroundings or a repository goes through [`read_capped`].

use std::io::Read as _;
use std::path::Path;

/// A file read under a size limit.
#[derive(Debug)]
pub enum Read {
    Bytes(Vec<u8>),
    /// The file is larger than the limit (its size, or the limit plus one when it grew).
    TooLarge(u64),
}

/// Whether the last component of a path may be a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Links {
    Follow,
    /// A symbolic link is refused (as git does for `.gitignore`).
    Refuse,
}

/// The error for a symbolic link that [`Links::Refuse`] does not follow.
#[derive(Debug)]
struct LinkRefused;

impl std::fmt::Display for LinkRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a symbolic link (not followed)")
    }
}

impl std::error::Error for LinkRefused {}

fn link_refused() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, LinkRefused)
}

/// Whether `err` says that the file is a symbolic link, not followed ([`Links::Refuse`]).
pub fn is_link_refused(err: &std::io::Error) -> bool {
    err.get_ref().is_some_and(|inner| inner.is::<LinkRefused>())
}

/// Reads a file unless it is larger than `limit`: the file is opened without blocking (a FIFO
/// opens at once), then checked to be a regular file through its open handle (no race with a
/// rename), and read through a cap (a file that grows or lies about its size costs no more
/// than `limit`).
pub fn read_capped(path: &Path, limit: u64, links: Links) -> std::io::Result<Read> {
    let (file, meta) = open_regular(path, links)?;
    if meta.len() > limit {
        return Ok(Read::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(Read::TooLarge(bytes.len() as u64));
    }
    Ok(Read::Bytes(bytes))
}

/// Reads a file as [`read_capped`] does, turning a file over the cap into an error that names
/// the cap (for files that have no diagnostic of their own: manifests, bundles, keys).
pub fn read_bounded(path: &Path, limit: u64, links: Links) -> std::io::Result<Vec<u8>> {
    match read_capped(path, limit, links)? {
        Read::Bytes(bytes) => Ok(bytes),
        Read::TooLarge(size) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the file is {size} bytes; the limit is {limit}"),
        )),
    }
}

/// Opens a regular file for reading as [`open`] does, and refuses anything else (a FIFO, a
/// device, a directory) through the open handle, so a name swapped after it was listed cannot
/// make the read block; with the handle's metadata.
pub fn open_regular(
    path: &Path,
    links: Links,
) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let file = open(path, links)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((file, meta))
}

/// Opens a file for reading without blocking (a FIFO opens at once) and, with
/// [`Links::Refuse`], without following a final symbolic link; the caller checks the handle's
/// metadata (for callers that stream rather than read whole).
#[cfg(unix)]
pub fn open(path: &Path, links: Links) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
    if links == Links::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| {
            if links == Links::Refuse && e.raw_os_error() == Some(libc::ELOOP) {
                link_refused()
            } else {
                e
            }
        })?;
    Ok(file)
}

#[cfg(not(unix))]
pub fn open(path: &Path, links: Links) -> std::io::Result<std::fs::File> {
    if links == Links::Refuse && std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(link_refused());
    }
    std::fs::File::open(path)
}

/// A directory's entries, read once and shared by whoever walks that directory (the search for
/// skills, then the skill's own file walk): each entry's name, its type as listed, and a look
/// at it, made at most once and through the listing's own handle.
#[derive(Debug, Default)]
pub struct Listing {
    pub items: Vec<Item>,
    /// The error that ended the listing early (the entries before it are kept).
    pub error: Option<std::io::Error>,
}

/// One entry of a [`Listing`].
#[derive(Debug)]
pub struct Item {
    pub name: std::ffi::OsString,
    /// Its type as the listing shows it; `None` when that could not be told.
    pub file_type: Option<std::fs::FileType>,
    /// The handle to look through, until [`Listing::detach`].
    entry: Option<std::fs::DirEntry>,
    /// The look (`lstat`): `None` inside when it failed. Boxed: a registry's folder lists
    /// 60,000 names, whose looks are made later, one by one, through the handles taken from
    /// the listing; with the look in place the listing took 13 MB, boxed 4 MB.
    look: std::cell::OnceCell<Option<Box<std::fs::Metadata>>>,
}

impl Item {
    /// The entry as `lstat` sees it (a symbolic link is not followed); `None` when the look
    /// fails. Looked at once, on first use.
    pub fn metadata(&self) -> Option<&std::fs::Metadata> {
        self.look
            .get_or_init(|| {
                self.entry
                    .as_ref()
                    .and_then(|e| e.metadata().ok())
                    .map(Box::new)
            })
            .as_deref()
    }
}

impl Item {
    /// The handle to look at the entry through, when no look was made yet: whoever takes it
    /// looks when the look is needed, or never (the item makes none after this).
    pub fn take_handle(&mut self) -> Option<std::fs::DirEntry> {
        if self.look.get().is_some() {
            return None;
        }
        self.entry.take()
    }
}

impl Listing {
    /// The first `limit` entries of `dir` (a search's entry budget stops the reading too).
    pub fn read(dir: &Path, limit: usize) -> std::io::Result<Listing> {
        let mut listing = Listing::default();
        for entry in std::fs::read_dir(dir)?.take(limit) {
            match entry {
                Ok(entry) => listing.items.push(Item {
                    name: entry.file_name(),
                    file_type: entry.file_type().ok(),
                    entry: Some(entry),
                    look: std::cell::OnceCell::new(),
                }),
                Err(err) => {
                    listing.error = Some(err);
                    break;
                }
            }
        }
        Ok(listing)
    }

    /// Looks at every entry now and lets go of the directory's handle: a listing kept for
    /// later holds no open file.
    pub fn detach(&mut self) {
        for item in &mut self.items {
            item.metadata();
            item.entry = None;
        }
    }
}

/// What a directory's listing showed of the names that a skill's placement looks for, so that
/// they need no look of their own: `Some` when the listing settles it, `None` when it does not
/// (the name is a symbolic link, or the directory was not listed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listed {
    /// `.git` exists: the directory is a repository's root.
    pub git: Option<bool>,
    /// `.claude-plugin` is a directory.
    pub claude_plugin: Option<bool>,
}

impl Listed {
    /// A whole listing without either name.
    pub const NEITHER: Listed = Listed {
        git: Some(false),
        claude_plugin: Some(false),
    };

    /// Notes one entry of the listing.
    pub fn note(&mut self, name: &std::ffi::OsStr, file_type: std::fs::FileType) {
        let settled = |is: bool| (!file_type.is_symlink()).then_some(is);
        if name == ".git" {
            self.git = settled(true);
        } else if name == ".claude-plugin" {
            self.claude_plugin = settled(file_type.is_dir());
        }
    }
}

/// At most this many bytes of one file of a skill are read as its text by the rules that search
/// it (the first bytes of a larger file: as much as a model reads of it). One cap for every
/// reader, because a text one rule read is handed on to the next.
pub const TEXT_READ: u64 = 1 << 20;

/// The text of `bytes`, invalid UTF-8 replaced with U+FFFD (no copy when it is valid).
pub fn text_lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_fifos_without_blocking_and_caps_devices() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let err = read_capped(&fifo, 10, Links::Follow).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
        let err = read_capped(Path::new("/dev/zero"), 10, Links::Follow).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
        // What the security reader and the shebang look open: a FIFO or a directory is
        // refused at once, a link to a file is refused or followed as asked.
        let err = open_regular(&fifo, Links::Follow).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
        let err = open_regular(dir.path(), Links::Follow).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file");
        let file = dir.path().join("f");
        std::fs::write(&file, "#!").unwrap();
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(is_link_refused(
            &open_regular(&link, Links::Refuse).unwrap_err()
        ));
        assert_eq!(open_regular(&link, Links::Follow).unwrap().1.len(), 2);
    }

    #[test]
    fn caps_and_links() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, b"0123456789").unwrap();
        assert!(matches!(
            read_capped(&file, 9, Links::Follow).unwrap(),
            Read::TooLarge(10)
        ));
        assert!(
            matches!(read_capped(&file, 10, Links::Follow).unwrap(), Read::Bytes(b) if b == b"0123456789")
        );
        let link = dir.path().join("l");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(matches!(
            read_capped(&link, 10, Links::Follow).unwrap(),
            Read::Bytes(_)
        ));
        let err = read_capped(&link, 10, Links::Refuse).unwrap_err();
        assert_eq!(err.to_string(), "a symbolic link (not followed)");
        assert!(is_link_refused(&err));
        assert!(!is_link_refused(
            &read_capped(&dir.path().join("none"), 10, Links::Refuse).unwrap_err()
        ));
        let err = read_bounded(&file, 4, Links::Follow).unwrap_err();
        assert_eq!(err.to_string(), "the file is 10 bytes; the limit is 4");
    }
}
