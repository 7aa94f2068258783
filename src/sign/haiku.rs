//! The skill-directory digest of haiku.skills (package.md, "Skill directories signed the
//! haiku.skills way"): what `hash_skill_directory` in haiku's `signing.py` computes and signs,
//! reproduced byte for byte for POSIX systems.
//!
//! The digest is SHA-256 over, for each selected file in haiku's order, its relative
//! `/`-separated path (UTF-8) immediately followed by its content. There is no separator and
//! no length: `a` holding `bc` and `ab` holding `c` hash alike. That is haiku's format, kept.
//!
//! - Order: haiku sorts `Path` objects, which compare component by component, so `a/x` comes
//!   before `a-b/x` (whole strings would put `-` first). A depth-first walk that visits each
//!   directory's entries sorted by name (UTF-8 bytes, which is code-point order) yields it.
//! - Walk: `rglob("*")` does not descend into symbolic links to directories; `is_file()`
//!   follows links, so a link to a regular file is hashed with its target's content. Dangling
//!   links, links to directories, FIFOs, sockets and devices are not files: skipped, never
//!   opened.
//! - Excluded: a path with a component starting with `.`, or equal to `__pycache__` or
//!   `node_modules` (whole subtrees, so they are not walked); a file named `SKILL.sigstore` at
//!   any depth; a `Path.suffix` of `.pyc` or `.pyo` (case-sensitive); what the `.gitignore`
//!   files exclude ([`Ignore`]).
//!
//! skillc's own decisions, where haiku has none (it would crash, or read anything): a name
//! that is not UTF-8, a `.gitignore` that is not UTF-8 or over [`MAX_GITIGNORE`], a pattern
//! haiku's pathspec refuses, a directory that cannot be listed, and a hashed symbolic link
//! whose target is outside the skill directory are errors; so are more than [`MAX_FILES`]
//! hashed files, [`MAX_ENTRIES`] walked entries or [`MAX_PATTERNS`] patterns.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use regex_automata::meta::Regex;
use sha2::{Digest as _, Sha256};

/// The bundle haiku.skills writes into a signed skill directory.
pub const BUNDLE_FILE: &str = "SKILL.sigstore";

/// The most files hashed: a directory with more is refused.
pub const MAX_FILES: usize = 10_000;
/// The most directory entries walked (outside the excluded subtrees).
pub const MAX_ENTRIES: usize = 20_000;
/// The largest `.gitignore` read, in bytes.
pub const MAX_GITIGNORE: u64 = 1 << 20;
/// The most `.gitignore` patterns (lines that are not blank or comments), all files together:
/// each hashed file is matched against each pattern.
pub const MAX_PATTERNS: usize = 10_000;

/// A skill directory's digest as haiku.skills computes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirDigest {
    pub sha256: [u8; 32],
    /// hashed files, in hashed order, '/'-separated relative paths
    pub files: Vec<String>,
}

/// The directories haiku never descends into for hashing (any component so named excludes).
const EXCLUDED_DIRS: [&str; 2] = ["__pycache__", "node_modules"];

/// Computes the digest haiku.skills signs for the skill directory `dir`.
pub fn digest(dir: &Path) -> Result<DirDigest, String> {
    let shown = dir.display();
    let meta = std::fs::metadata(dir).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if !meta.is_dir() {
        return Err(format!("`{shown}` is not a directory"));
    }
    let root = std::fs::canonicalize(dir).map_err(|e| format!("cannot resolve `{shown}`: {e}"))?;
    let ignore = Ignore::collect(&root)?;

    let mut hasher = Sha256::new();
    let mut files = Vec::new();
    let mut walked = 0usize;
    let mut stack = vec![Frame::list(dir.to_path_buf(), String::new(), &mut walked)?];
    while let Some(frame) = stack.last_mut() {
        let Some(name) = frame.names.get(frame.next).cloned() else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        let bytes = name_bytes(&name);
        if bytes.first() == Some(&b'.') || EXCLUDED_DIRS.iter().any(|d| d.as_bytes() == &*bytes) {
            continue;
        }
        let path = frame.dir.join(&name);
        let Some(text) = name.to_str() else {
            return Err(format!(
                "`{}` has a name that is not valid UTF-8; haiku.skills cannot hash it",
                path.display()
            ));
        };
        let rel = if frame.rel.is_empty() {
            text.to_string()
        } else {
            format!("{}/{text}", frame.rel)
        };
        let link = match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => {
                let next = Frame::list(path, rel, &mut walked)?;
                stack.push(next);
                continue;
            }
            Ok(m) => m.file_type().is_symlink(),
            Err(e) if ignorable(&e) => continue,
            Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
        };
        // `is_file()`: through a symbolic link; a dangling or looping one is no file.
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => {}
            Ok(_) => continue,
            Err(e) if ignorable(&e) => continue,
            Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
        }
        if text == BUNDLE_FILE || excluded_suffix(text) || ignore.excludes(&rel) {
            continue;
        }
        if link {
            let target = std::fs::canonicalize(&path)
                .map_err(|e| format!("cannot resolve `{}`: {e}", path.display()))?;
            if !target.starts_with(&root) {
                return Err(format!(
                    "`{}` links outside the skill directory; skillc does not read files outside it",
                    path.display()
                ));
            }
        }
        if files.len() >= MAX_FILES {
            return Err(format!(
                "`{shown}` has more than {MAX_FILES} files to hash; skillc refuses a skill \
                 directory that large"
            ));
        }
        hasher.update(rel.as_bytes());
        hash_file(&path, &mut hasher)?;
        files.push(rel);
    }
    Ok(DirDigest {
        sha256: hasher.finalize().into(),
        files,
    })
}

/// What lies under a skill directory that its haiku digest does not cover: every file,
/// symbolic link or special file except the hashed ones and the top-level bundle, as sorted
/// `/`-separated relative paths (names that are not UTF-8, lossily). Directories are walked,
/// links to them are not; at most [`MAX_ENTRIES`] entries are looked at, `more` says whether
/// there were others.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Uncovered {
    pub paths: Vec<String>,
    pub more: bool,
}

/// Lists what `digest` left out of the digest of `dir` (haiku's exclusions: hidden paths,
/// caches, compiled Python, ignored files, links to directories, special files).
pub fn uncovered(dir: &Path, hashed: &[String]) -> Result<Uncovered, String> {
    let hashed: std::collections::HashSet<&str> = hashed.iter().map(String::as_str).collect();
    let mut out = Uncovered::default();
    let mut walked = 0usize;
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, prefix)) = stack.pop() {
        let entries = std::fs::read_dir(&path)
            .map_err(|e| format!("cannot list `{}`: {e}", path.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list `{}`: {e}", path.display()))?;
            walked += 1;
            if walked > MAX_ENTRIES {
                out.more = true;
                stack.clear();
                break;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let rel = if prefix.is_empty() {
                name.into_owned()
            } else {
                format!("{prefix}/{name}")
            };
            let kind = entry
                .file_type()
                .map_err(|e| format!("cannot read `{}`: {e}", entry.path().display()))?;
            if kind.is_dir() {
                stack.push((entry.path(), rel));
            } else if rel != BUNDLE_FILE && !hashed.contains(rel.as_str()) {
                out.paths.push(rel);
            }
        }
    }
    out.paths.sort_unstable();
    Ok(out)
}

/// A directory being walked: its entries sorted by name, and the next to visit.
struct Frame {
    dir: PathBuf,
    /// Its path relative to the skill directory (`""` for the skill directory).
    rel: String,
    names: Vec<OsString>,
    next: usize,
}

impl Frame {
    fn list(dir: PathBuf, rel: String, walked: &mut usize) -> Result<Frame, String> {
        let shown = dir.display();
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot list `{shown}`: {e}"))?;
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list `{shown}`: {e}"))?;
            *walked += 1;
            if *walked > MAX_ENTRIES {
                return Err(format!(
                    "the skill directory has more than {MAX_ENTRIES} entries (at `{shown}`); \
                     skillc refuses a skill directory that large"
                ));
            }
            names.push(entry.file_name());
        }
        names.sort_unstable_by(|a, b| name_bytes(a).cmp(&name_bytes(b)));
        Ok(Frame {
            dir,
            rel,
            names,
            next: 0,
        })
    }
}

/// A name's bytes (on POSIX, exactly; elsewhere its UTF-8, lossily).
fn name_bytes(name: &OsStr) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        std::borrow::Cow::Borrowed(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match name.to_string_lossy() {
            std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
        }
    }
}

/// The errors Python's `pathlib` takes for "no such file" in `is_file()` / `is_dir()`.
fn ignorable(e: &std::io::Error) -> bool {
    if e.kind() == std::io::ErrorKind::NotFound {
        return true;
    }
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::ENOENT | libc::ENOTDIR | libc::EBADF | libc::ELOOP)
        )
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// `Path.suffix in {".pyc", ".pyo"}`: the suffix starts at the last `.`, which must not be the
/// name's first character.
fn excluded_suffix(name: &str) -> bool {
    match name.rfind('.') {
        Some(at) if at > 0 => matches!(&name[at..], ".pyc" | ".pyo"),
        _ => false,
    }
}

/// Streams a regular file into the hasher (opened without blocking, checked through its
/// handle: a file swapped for a FIFO after the walk looked is refused, not waited on).
fn hash_file(path: &Path, hasher: &mut Sha256) -> Result<(), String> {
    let shown = path.display();
    let mut file = crate::input::open(path, crate::input::Links::Follow)
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "`{shown}` is no longer a regular file; it changed while being hashed"
        ));
    }
    std::io::copy(&mut file, hasher).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    Ok(())
}

/// The `.gitignore` patterns haiku applies: every `.gitignore` from the skill directory
/// (resolved) up to the directory holding a `.git` directory, or to the filesystem root, in
/// that order, combined into one pathspec `PathSpec` of "gitwildmatch" patterns. Each pattern
/// applies to the path relative to the skill directory, wherever its file is; the last pattern
/// that matches decides, and a `!` pattern re-includes even inside an excluded directory.
#[derive(Debug, Default)]
pub struct Ignore {
    patterns: Vec<Pattern>,
}

#[derive(Debug)]
struct Pattern {
    regex: Regex,
    /// Excludes the files it matches; `false` for a `!` pattern, which re-includes them.
    excludes: bool,
}

impl Ignore {
    /// Reads the `.gitignore` files for the resolved skill directory `root`.
    pub fn collect(root: &Path) -> Result<Ignore, String> {
        let mut lines: Vec<(String, PathBuf)> = Vec::new();
        let mut current = root;
        loop {
            let gitignore = current.join(".gitignore");
            if is(&gitignore, std::fs::Metadata::is_file)? {
                let bytes = match crate::input::read_capped(
                    &gitignore,
                    MAX_GITIGNORE,
                    crate::input::Links::Follow,
                ) {
                    Ok(crate::input::Read::Bytes(bytes)) => bytes,
                    Ok(crate::input::Read::TooLarge(size)) => {
                        return Err(format!(
                            "`{}` is {size} bytes; skillc reads a .gitignore of at most \
                             {MAX_GITIGNORE} bytes",
                            gitignore.display()
                        ));
                    }
                    Err(e) => return Err(format!("cannot read `{}`: {e}", gitignore.display())),
                };
                let text = String::from_utf8(bytes).map_err(|_| {
                    format!(
                        "`{}` is not valid UTF-8; haiku.skills cannot read it",
                        gitignore.display()
                    )
                })?;
                lines.extend(
                    split_lines(&text)
                        .into_iter()
                        .map(|line| (line.to_string(), gitignore.clone())),
                );
            }
            if is(&current.join(".git"), std::fs::Metadata::is_dir)? {
                break;
            }
            match current.parent() {
                Some(parent) => current = parent,
                None => break,
            }
        }
        let mut translated = Vec::new();
        for (line, file) in &lines {
            let at = |e: String| format!("`{}`: the pattern `{line}` {e}", file.display());
            if let Some(pattern) = translate(line).map_err(at)? {
                if translated.len() >= MAX_PATTERNS {
                    return Err(format!(
                        "the .gitignore files of the skill directory (`{}` and above) hold more \
                         than {MAX_PATTERNS} patterns; skillc refuses that many",
                        root.display()
                    ));
                }
                translated.push((pattern, line, file));
            }
        }
        let mut ignore = Ignore::default();
        for ((source, excludes), line, file) in translated {
            let regex = compile(&source)
                .map_err(|e| format!("`{}`: the pattern `{line}` {e}", file.display()))?;
            ignore.patterns.push(Pattern { regex, excludes });
        }
        Ok(ignore)
    }

    /// The patterns of `lines`, in order, as `PathSpec.from_lines("gitwildmatch", lines)`.
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Result<Ignore, String> {
        let mut ignore = Ignore::default();
        for line in lines {
            if let Some(pattern) =
                Ignore::compile(line).map_err(|e| format!("the pattern `{line}` {e}"))?
            {
                ignore.patterns.push(pattern);
            }
        }
        Ok(ignore)
    }

    /// `match_file(rel)`: whether the last pattern that matches `rel` excludes it.
    pub fn excludes(&self, rel: &str) -> bool {
        self.patterns
            .iter()
            .rev()
            .find(|p| p.regex.is_match(rel))
            .is_some_and(|p| p.excludes)
    }

    fn compile(line: &str) -> Result<Option<Pattern>, String> {
        let Some((source, excludes)) = translate(line)? else {
            return Ok(None);
        };
        Ok(Some(Pattern {
            regex: compile(&source)?,
            excludes,
        }))
    }
}

fn compile(source: &str) -> Result<Regex, String> {
    Regex::new(source)
        .map_err(|e| format!("cannot be compiled (regular expression `{source}`): {e}"))
}

/// `Path.is_file()` / `is_dir()`: through symbolic links; "no such file" is `false`, other
/// errors (which make Python raise) are errors.
fn is(path: &Path, kind: fn(&std::fs::Metadata) -> bool) -> Result<bool, String> {
    match std::fs::metadata(path) {
        Ok(m) => Ok(kind(&m)),
        Err(e) if ignorable(&e) => Ok(false),
        Err(e) => Err(format!("cannot read `{}`: {e}", path.display())),
    }
}

/// Python's `str.splitlines()`: lines end at `\n`, `\r\n`, `\r`, `\v`, `\f`, `\x1c`, `\x1d`,
/// `\x1e`, `\x85`, `\u2028` and `\u2029`; a final line break makes no empty last line.
fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = match c {
            '\r' => match chars.peek() {
                Some(&(_, '\n')) => {
                    chars.next();
                    at + 2
                }
                _ => at + 1,
            },
            '\n' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}'
            | '\u{2029}' => at + c.len_utf8(),
            _ => continue,
        };
        out.push(&text[start..at]);
        start = next;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Python's `str.isspace()` (what `str.rstrip()` removes): Unicode's White_Space and the four
/// information separators `\x1c`-`\x1f`.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// A gitwildmatch pattern as a regular expression (Rust syntax, searched anywhere in the
/// relative path, as pathspec's `regex.search` is), and whether it excludes; `None` for a line
/// that is no pattern (blank, a comment, `/`, or one with an unclosed `[`, which pathspec
/// drops). An error where pathspec raises (and haiku with it): a trailing `\`, a lone `!`, a
/// reversed range such as `[z-a]`.
///
/// Python's regular expressions differ from Rust's in two places the translation keeps: `.`
/// matches anything but `\n` (as Rust's does), and `$` also matches before a final `\n`
/// (written `\n?\z` here, always at the end of the expression).
fn translate(line: &str) -> Result<Option<(String, bool)>, String> {
    // Trailing whitespace is dropped, unless the line ends with an escaped space.
    let text = if line.ends_with("\\ ") {
        line
    } else {
        line.trim_end_matches(is_py_space)
    };
    if text.is_empty() || text.starts_with('#') || text == "/" {
        return Ok(None);
    }
    let (text, excludes) = match text.strip_prefix('!') {
        Some(rest) => (rest, false),
        None => (text, true),
    };
    let mut segs: Vec<&str> = text.split('/').collect();
    let dir_only = segs.last().is_some_and(|s| s.is_empty());

    // Anchoring: a leading `/` anchors (and is dropped); a single name, with or without a
    // trailing `/`, matches at any depth (`**/name`); any other `/` anchors.
    if segs.first().is_some_and(|s| s.is_empty()) {
        segs.remove(0);
    } else if (segs.len() == 1 || (segs.len() == 2 && segs[1].is_empty())) && segs[0] != "**" {
        segs.insert(0, "**");
    }
    let Some(last) = segs.last_mut() else {
        return Err("is invalid (nothing is left to match)".to_string());
    };
    // A trailing `/` matches everything beneath.
    if last.is_empty() {
        *last = "**";
    }
    let mut i = segs.len();
    while i > 1 {
        i -= 1;
        if segs[i - 1] == "**" && segs[i] == "**" {
            segs.remove(i);
        }
    }
    // The forms pathspec short-cuts: `**` and `*` match every path, `**/`, `*/` and `*/**`
    // every path with a `/`.
    match segs.as_slice() {
        ["**"] if dir_only => return Ok(Some(("/".to_string(), excludes))),
        ["**"] | ["**", "*"] => return Ok(Some((".".to_string(), excludes))),
        ["**", "*", "**"] => return Ok(Some(("/".to_string(), excludes))),
        _ => {}
    }

    let mut out = String::new();
    let mut need_slash = false;
    let end = segs.len() - 1;
    for (i, seg) in segs.iter().enumerate() {
        if *seg == "**" {
            if i == 0 {
                // Any leading directories (names without `\n`, as Python's `.`).
                out.push_str(r"\A(?:.+/)?");
            } else if i < end {
                out.push_str("(?:/.+)?");
                need_slash = true;
            } else {
                // Something beneath.
                out.push('/');
            }
            continue;
        }
        if i == 0 {
            out.push_str(r"\A");
        }
        if need_slash {
            out.push('/');
        }
        if *seg == "*" {
            out.push_str("[^/]+");
        } else {
            match glob(seg)? {
                Some(regex) => out.push_str(&regex),
                None => return Ok(None),
            }
        }
        if i == end {
            // The file itself, or anything beneath (Python's `$`: before a final `\n` too).
            out.push_str(r"(?:/|\n?\z)");
        }
        need_slash = true;
    }
    Ok(Some((out, excludes)))
}

/// One path segment's glob (`*`, `?`, `[...]`, `\` escapes) as a regular expression; `None`
/// when a `[` is not closed (pathspec then drops the whole pattern).
fn glob(seg: &str) -> Result<Option<String>, String> {
    let chars: Vec<char> = seg.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => match chars.get(i) {
                Some(&next) => {
                    literal(&mut out, next);
                    i += 1;
                }
                None => return Err("ends with an escaping `\\`".to_string()),
            },
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => {
                // The class ends at the first `]`, not counting one right after the `[` (or
                // after a negating `!` or `^`). Backslashes are literal inside.
                let mut j = i;
                if matches!(chars.get(j), Some('!' | '^')) {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    j += 1;
                }
                while j < chars.len() && chars[j] != ']' {
                    j += 1;
                }
                if j >= chars.len() {
                    return Ok(None);
                }
                let negated = matches!(chars[i], '!' | '^');
                if negated {
                    i += 1;
                }
                out.push_str(&class(&chars[i..=j], negated)?);
                i = j + 1;
            }
            _ => literal(&mut out, c),
        }
    }
    Ok(Some(out))
}

fn literal(out: &mut String, c: char) {
    out.push_str(&format!("\\x{{{:X}}}", c as u32));
}

/// A bracket expression's members (`body` ends with the closing `]`), read as Python's `re`
/// reads the class pathspec writes: a `]` first is literal, `a-z` is a range (an error when
/// reversed), a `-` first or last is literal; every other character stands for itself.
fn class(body: &[char], negated: bool) -> Result<String, String> {
    let mut out = String::from(if negated { "[^" } else { "[" });
    let mut k = 0;
    let mut any = false;
    loop {
        let Some(&this) = body.get(k) else {
            return Err("has an unterminated character class".to_string());
        };
        k += 1;
        if this == ']' && any {
            break;
        }
        any = true;
        if body.get(k) == Some(&'-') {
            let Some(&that) = body.get(k + 1) else {
                return Err("has an unterminated character class".to_string());
            };
            k += 2;
            if that == ']' {
                literal(&mut out, this);
                literal(&mut out, '-');
                break;
            }
            if that < this {
                return Err(format!(
                    "has a bad character range `{this}-{that}` (Python's `re` refuses it)"
                ));
            }
            literal(&mut out, this);
            out.push('-');
            literal(&mut out, that);
        } else {
            literal(&mut out, this);
        }
    }
    if k != body.len() {
        return Err("has a character class that cannot be read".to_string());
    }
    out.push(']');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(lines: &[&str]) -> Ignore {
        match Ignore::from_lines(lines.iter().copied()) {
            Ok(ignore) => ignore,
            Err(e) => panic!("{e}"),
        }
    }

    /// Asserts which of `paths` the patterns exclude.
    fn check(lines: &[&str], excluded: &[&str], kept: &[&str]) {
        let ignore = spec(lines);
        for path in excluded {
            assert!(ignore.excludes(path), "{lines:?} should exclude {path:?}");
        }
        for path in kept {
            assert!(!ignore.excludes(path), "{lines:?} should keep {path:?}");
        }
    }

    #[test]
    fn translations() {
        let t = translate;
        assert_eq!(t(""), Ok(None));
        assert_eq!(t("   "), Ok(None));
        assert_eq!(t("# comment"), Ok(None));
        assert_eq!(t("/"), Ok(None));
        assert_eq!(t("a[b"), Ok(None));
        assert_eq!(t("*"), Ok(Some((".".into(), true))));
        assert_eq!(t("**"), Ok(Some((".".into(), true))));
        assert_eq!(t("**/"), Ok(Some(("/".into(), true))));
        assert_eq!(t("*/"), Ok(Some(("/".into(), true))));
        assert_eq!(t("!*/**"), Ok(Some((r"\A[^/]+/".into(), false))));
        assert_eq!(
            t("a"),
            Ok(Some((r"\A(?:.+/)?\x{61}(?:/|\n?\z)".into(), true)))
        );
        assert_eq!(
            t("/a/*"),
            Ok(Some((r"\A\x{61}/[^/]+(?:/|\n?\z)".into(), true)))
        );
        assert_eq!(
            t("a/**/b/"),
            Ok(Some((r"\A\x{61}(?:/.+)?/\x{62}/".into(), true)))
        );
        assert_eq!(
            t("[!a-c]?"),
            Ok(Some((
                r"\A(?:.+/)?[^\x{61}-\x{63}][^/](?:/|\n?\z)".into(),
                true
            )))
        );
        assert!(t("a\\").is_err());
        assert!(t("!").is_err());
        assert!(t("[z-a]").is_err());
    }

    #[test]
    fn splitlines_like_python() {
        assert_eq!(split_lines("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(split_lines("a\n"), ["a"]);
        assert_eq!(split_lines("a\n\nb"), ["a", "", "b"]);
        assert_eq!(
            split_lines("a\x0bb\x0cc\x1cd\x1de\x1ef\u{85}g\u{2028}h\u{2029}i\x1fj"),
            ["a", "b", "c", "d", "e", "f", "g", "h", "i\x1fj"]
        );
        assert_eq!(split_lines("\r\r\n"), ["", ""]);
        assert!(split_lines("").is_empty());
    }

    #[test]
    fn suffixes() {
        assert!(excluded_suffix("a.pyc"));
        assert!(excluded_suffix("a.b.pyo"));
        assert!(!excluded_suffix("a.PYC"));
        assert!(!excluded_suffix(".pyc"));
        assert!(excluded_suffix("..pyc"));
        assert!(!excluded_suffix("a.pyc."));
        assert!(!excluded_suffix("pyc"));
    }

    #[test]
    fn unanchored_names_match_at_any_depth() {
        check(
            &["*.log", "build"],
            &[
                "x.log",
                "a/b/x.log",
                "build",
                "build/x",
                "a/build/y",
                "x.log/z",
            ],
            &["x.logs", "builder", "a/xbuild"],
        );
    }

    #[test]
    fn a_slash_anchors() {
        check(
            &["/top", "a/b", "dir/"],
            &["top", "top/x", "a/b", "a/b/c", "dir/x", "q/dir/x"],
            &["x/top", "x/a/b", "dir"],
        );
    }

    #[test]
    fn double_stars() {
        check(
            &["a/**/z"],
            &["a/z", "a/b/z", "a/b/c/z", "a/z/q"],
            &["b/a/z"],
        );
        check(&["**/m"], &["m", "x/m", "x/y/m/q"], &["xm"]);
        check(&["d/**"], &["d/x", "d/x/y"], &["d", "e/d/x"]);
        check(&["**"], &["a", "a/b"], &[]);
        check(&["**/"], &["a/b"], &["a"]);
        check(&["*/"], &["a/b"], &["a"]);
        check(&["*"], &["a", "a/b"], &[]);
        check(&["a**b"], &["ab", "axxb", "q/ab"], &["a/b"]);
    }

    #[test]
    fn last_match_decides_and_negation_reaches_into_excluded_dirs() {
        check(
            &["build/", "!build/keep.txt", "*.txt", "!important.txt"],
            &["build/x", "a.txt", "build/keep.txt"],
            &["important.txt", "x/important.txt"],
        );
        check(
            &["build/", "!build/keep.md"],
            &["build/x"],
            &["build/keep.md"],
        );
    }

    #[test]
    fn classes_and_escapes() {
        check(
            &["[ab]1", "[!xy]2", "[^xy]3", "[]]4", "[a-]5", "[!]a]6"],
            &["a1", "b1", "z2", "z3", "]4", "a5", "-5", "x6"],
            &["c1", "x2", "y3", "a4", "b5", "]6", "a6"],
        );
        check(
            &["\\#lit", "\\!bang", "q\\*", "sp\\ ", "x\\[y"],
            &["#lit", "!bang", "q*", "sp ", "x[y"],
            &["qa", "sp", "#litx"],
        );
        // A backslash is literal in a class; `[[:alpha:]]` is a class of `[:alph` then `]`.
        check(&["[\\]x"], &["\\x"], &["]x"]);
        check(&["[[:alpha:]]"], &["a]", ":]"], &["a", "b]"]);
    }

    #[test]
    fn whitespace_and_comments() {
        check(
            &["trail  ", "# not", "  lead", "tab\t"],
            &["trail", "  lead", "tab"],
            &["trail  ", "lead", "# not"],
        );
    }

    #[test]
    fn python_dot_and_dollar() {
        // `.` does not match `\n`, `$` matches before a final `\n`.
        check(&["*"], &["a"], &["\n"]);
        check(&["foo"], &["foo\n", "x/foo\n"], &["foo\nx"]);
        check(&["**/x"], &["a/x"], &["a\nb/x"]);
    }

    #[test]
    fn order_is_by_component() {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        for rel in ["a/x", "a-b/x", "a.b", "b", "A", "é"] {
            let path = dir.path().join(rel);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(&path, rel);
        }
        let got = match digest(dir.path()) {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(got.files, ["A", "a/x", "a-b/x", "a.b", "b", "é"]);
        let mut want = Sha256::new();
        for f in &got.files {
            want.update(f.as_bytes());
            want.update(f.as_bytes());
        }
        let want: [u8; 32] = want.finalize().into();
        assert_eq!(got.sha256, want);
    }

    #[test]
    fn exclusions() {
        let dir = match tempfile::tempdir() {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        for rel in [
            "SKILL.md",
            "SKILL.sigstore",
            "sub/SKILL.sigstore",
            ".hidden",
            "sub/.h/x",
            "__pycache__/m.pyc",
            "deep/node_modules/p/i.js",
            "m.pyc",
            "m.pyo",
            "m.PYC",
            "a.",
            "sub/ok",
        ] {
            let path = dir.path().join(rel);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(&path, rel);
        }
        let got = match digest(dir.path()) {
            Ok(d) => d,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(got.files, ["SKILL.md", "a.", "m.PYC", "sub/ok"]);
    }
}
