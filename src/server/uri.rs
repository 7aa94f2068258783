//! `file:` URIs and the paths they name.

use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// The local path a `file:` URI names.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    path_of_str(uri.as_str())
}

/// The local path a `file:` URI names (`file:///p`, `file://host/p`, `file:/p`; a query or
/// fragment is not part of it).
pub fn path_of_str(uri: &str) -> Option<PathBuf> {
    let (scheme, rest) = uri.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let path = match rest.strip_prefix("//") {
        // The path starts at the first `/` after the host.
        Some(authority) => &authority[authority.find('/')?..],
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = crate::encode::percent_decode(path);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        String::from_utf8(bytes).ok().map(PathBuf::from)
    }
}

/// The `file:` URI of an absolute path (bytes other than unreserved ones and `/` escaped).
pub fn uri_of_path(path: &Path) -> Option<Uri> {
    let path = crate::encode::percent_encode(path.as_os_str().as_encoded_bytes());
    format!("file://{path}").parse().ok()
}

/// `SKILL.md` or `skill.md`.
pub fn is_skill_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| crate::discover::SKILL_FILE_NAMES.iter().any(|n| name == *n))
}
