//! The tokenizer: the runs of a text that may name a skill's files (paths, names, string
//! literals, code spans), the runs that may be globs, and the modules a Python text imports.

use super::glob::{MAX_GLOB_LEN, is_placeholder_piece};

/// `text` lower-cased, copied only when that changes it: most words are ASCII without an
/// upper-case letter.
pub(super) fn lowered(text: &str) -> std::borrow::Cow<'_, str> {
    if text
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
    {
        text.to_lowercase().into()
    } else {
        text.into()
    }
}

/// `a.b.c` made of identifiers: a module path (`scripts.run_eval`, `office.pack`).
pub(super) fn is_dotted_module(text: &str) -> bool {
    text.contains('.')
        && text.split('.').all(|p| {
            !p.is_empty()
                && !p.starts_with(|c: char| c.is_ascii_digit())
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// The prefixes of a dotted module path with at least `min` components, as paths
/// (`a.b.c` → `a/b`, `a/b/c` for 2).
pub(super) fn prefixes(module: &str, min: usize) -> Vec<String> {
    let parts: Vec<&str> = module.split('.').filter(|p| !p.is_empty()).collect();
    (min.max(1)..=parts.len())
        .map(|n| parts[..n].join("/"))
        .collect()
}

/// A run of path characters in a text, and whether it is a whole string literal.
pub(super) struct Token<'a> {
    pub(super) text: &'a str,
    pub(super) quoted: bool,
    /// A whole code span (`` `scripts` ``).
    pub(super) code_span: bool,
    /// Holds `/`, `\\` or `.`: may be a path or a file name.
    pub(super) dotted: bool,
    /// Made of ASCII only.
    pub(super) ascii: bool,
}

/// Byte classes of ASCII for [`scan`].
const PATH: u8 = 1;
/// `*`, `<`, `>`, `{`, `}`: glob characters that are not path characters.
const GLOB: u8 = 2;
/// `/`, `\\`, `.`.
const DOT: u8 = 4;
/// `N`, `X`: a run may hold a placeholder piece.
const NX: u8 = 8;
/// `*`, `<`, `{`: a run may be a glob.
const WILD: u8 = 16;
/// A letter or digit outside ASCII (never in the table).
const WIDE: u8 = 32;

/// A byte outside ASCII, in [`BYTES`] only: [`class_at`] classes its character.
const MULTI: u8 = 64;

/// The class of every byte: that of its character for ASCII, [`MULTI`] otherwise, so that
/// one look tells a byte the scan takes as it is from one [`class_at`] must decode.
const BYTES: [u8; 256] = {
    let mut table = [MULTI; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = CLASSES[b];
        b += 1;
    }
    table
};

const CLASSES: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let mut class = 0;
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'/' | b'\\') {
            class |= PATH;
        }
        if matches!(c, b'*' | b'<' | b'>' | b'{' | b'}') {
            class |= GLOB;
        }
        if matches!(c, b'.' | b'/' | b'\\') {
            class |= DOT;
        }
        if matches!(c, b'N' | b'X') {
            class |= NX;
        }
        if matches!(c, b'*' | b'<' | b'{') {
            class |= WILD;
        }
        table[b] = class;
        b += 1;
    }
    table
};

/// The class of the character at `i` (letters and digits of any script are path characters)
/// and its length in bytes.
#[inline]
fn class_at(text: &str, i: usize) -> (u8, usize) {
    match text.as_bytes().get(i) {
        Some(&b) if b < 0x80 => (CLASSES[usize::from(b)], 1),
        _ => match text.get(i..).and_then(|rest| rest.chars().next()) {
            Some(c) => (
                if c.is_alphanumeric() { PATH | WIDE } else { 0 },
                c.len_utf8(),
            ),
            None => (0, 1),
        },
    }
}

/// One pass over `text`: its tokens (the runs of path characters: letters and digits of any
/// script, `_`, `-`, `.`, `/`, `\\`) and the runs that may be globs (path characters with
/// `*`, `<`, `>`, `{`, `}` that hold `*`, `<`, `{` or a placeholder piece
/// such as `N`: most runs are not globs), in order.
pub(super) fn scan<'a>(
    text: &'a str,
    mut token: impl FnMut(Token<'a>),
    mut glob_run: impl FnMut(&'a str),
) {
    let bytes = text.as_bytes();
    let mut emit = |start: usize, end: usize, class: u8| {
        // Quotes are ASCII: the bytes on either side tell.
        let before = start.checked_sub(1).and_then(|i| bytes.get(i)).copied();
        let quoted =
            matches!(before, Some(b'"' | b'\'' | b'`')) && bytes.get(end).copied() == before;
        token(Token {
            text: &text[start..end],
            quoted,
            code_span: quoted && before == Some(b'`'),
            dotted: class & DOT != 0,
            ascii: class & WIDE == 0,
        });
    };
    let mut i = 0;
    while i < bytes.len() {
        // Most bytes between runs are ASCII of no class (spaces, punctuation).
        let Some(skipped) = bytes
            .get(i..)
            .and_then(|rest| rest.iter().position(|&b| BYTES[usize::from(b)] != 0))
        else {
            break;
        };
        i += skipped;
        let (class, len) = class_at(text, i);
        if class == 0 {
            i += len;
            continue;
        }
        // A run of glob characters, made of runs of path characters.
        let start = i;
        let mut classes = 0;
        let mut piece = (i, 0);
        loop {
            // Most bytes of a run are ASCII path characters: taken without `class_at`.
            let mut taken = 0;
            for &b in bytes.get(i..).unwrap_or_default() {
                let class = BYTES[usize::from(b)];
                if class & PATH == 0 {
                    break;
                }
                taken |= class;
                i += 1;
            }
            piece.1 |= taken;
            classes |= taken;
            let (class, len) = if i < bytes.len() {
                class_at(text, i)
            } else {
                (0, 0)
            };
            if class & PATH == 0 {
                if piece.0 < i {
                    emit(piece.0, i, piece.1);
                }
                if class == 0 {
                    break;
                }
                piece = (i + len, 0);
            } else {
                piece.1 |= class;
            }
            classes |= class;
            i += len;
        }
        let run = &text[start..i];
        if run.len() <= MAX_GLOB_LEN
            && (classes & WILD != 0
                || (classes & NX != 0
                    && run
                        .split(['-', '_', '.', '/', '\\'])
                        .any(is_placeholder_piece)))
        {
            glob_run(run);
        }
    }
}

/// The runs of path characters of `text`.
#[cfg(test)]
pub(super) fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    scan(text, |t| out.push(t), |_| {});
    out
}

/// `a.b.d`), relative imports without their dots.
pub(super) fn python_imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in import_lines(text) {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("import ") {
            for part in rest.split(',') {
                if let Some(module) = part.split_whitespace().next() {
                    out.push(module.trim_start_matches('.').to_string());
                }
            }
        } else if let Some(rest) = line.strip_prefix("from ")
            && let Some((module, names)) = rest.split_once(" import ")
        {
            let module = module.trim().trim_start_matches('.');
            if !module.is_empty() {
                out.push(module.to_string());
            }
            let names = names.trim().trim_start_matches('(');
            for name in names.split(',') {
                let Some(name) = name.split_whitespace().next() else {
                    continue;
                };
                let name = name.trim_end_matches(')');
                if name.is_empty() || name == "*" {
                    continue;
                }
                out.push(if module.is_empty() {
                    name.to_string()
                } else {
                    format!("{module}.{name}")
                });
            }
        }
    }
    out
}

/// The lines of `text` (as `str::lines` gives them, in order) that hold `import `: the only
/// ones [`python_imports`] can take a module from (`import a` and `from a import b` both hold
/// it). Found with a SIMD search rather than by walking every line: most texts have none.
fn import_lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut next = 0;
    memchr::memmem::find_iter(bytes, b"import ").filter_map(move |at| {
        if at < next {
            // On a line already given.
            return None;
        }
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        next = end;
        let line = &text[start..end];
        Some(match line.strip_suffix('\n') {
            Some(line) => line.strip_suffix('\r').unwrap_or(line),
            None => line,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_literals() {
        let found: Vec<(&str, bool)> = tokens("run `python scripts/x.py`; d = p / \"schemas\".")
            .iter()
            .map(|t| (t.text, t.quoted))
            .collect();
        assert_eq!(
            found,
            [
                ("run", false),
                ("python", false),
                ("scripts/x.py", false),
                ("d", false),
                ("p", false),
                ("/", false),
                ("schemas", true),
                (".", false)
            ]
        );
    }

    /// `import_lines` gives exactly the lines of `str::lines` that hold `import `, in order,
    /// with their line endings handled alike.
    #[test]
    fn import_lines_are_the_lines_that_hold_import() {
        let texts = [
            "",
            "import ",
            "import os",
            "x\nimport a\r\nfrom b import c\rimport d\n\nimport e import f\n",
            "import a\r",
            "\r\nimport a\r\n\r\n",
            "no imports here\nimporting\n  import   \n",
            "é import x\n日本 import y",
            "import import import \nimport",
        ];
        for text in texts {
            let by_lines: Vec<&str> = text.lines().filter(|l| l.contains("import ")).collect();
            assert_eq!(import_lines(text).collect::<Vec<_>>(), by_lines, "{text:?}");
        }
    }

    #[test]
    fn python_imports_and_modules() {
        let text = "import os, a.b as c\nfrom .base import X\nfrom office.helpers import (m, n)\nfrom . import sib\n";
        assert_eq!(
            python_imports(text),
            [
                "os",
                "a.b",
                "base",
                "base.X",
                "office.helpers",
                "office.helpers.m",
                "office.helpers.n",
                "sib"
            ]
        );
        assert!(is_dotted_module("scripts.run_eval"));
        assert!(!is_dotted_module("v1.2"));
        assert_eq!(prefixes("a.b.c", 2), ["a/b", "a/b/c"]);
    }
}
