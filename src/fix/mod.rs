//! Fixes: what a diagnostic may carry to repair what it reports — edits of the skill file's
//! bytes — and applying them to a text. Which fixes a run applies is the run's choice (`--fix`,
//! `--unsafe-fixes`, `fixable`/`unfixable` in skillc.toml), and fixing files on disk is
//! `rewrite`'s.

use crate::diagnostic::{Diagnostic, Span};

/// Whether applying a fix is safe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Applicability {
    /// Every runtime then reads what the author evidently meant (`--fix`).
    Safe,
    /// It changes what a runtime sees, or guesses (`--unsafe-fixes`).
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement of a byte range of the skill file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub content: String,
}

/// A repair of what a diagnostic reports: edits of the skill file, applied together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What it does, imperative: "quote the value".
    pub message: String,
    /// Sorted, not overlapping.
    pub edits: Vec<Edit>,
    /// The new name of the skill file (in its directory), applied after the edits; never over
    /// an existing file.
    pub rename: Option<String>,
    /// Fixes that share this are made one per round (each creates what the others then use:
    /// SK013's `metadata:`).
    pub exclusive: Option<&'static str>,
    /// Whether this run applies it (its rule is fixable and, when unsafe, unsafe fixes are on):
    /// set by `rewrite::Mode::settle`; the renderers mark such diagnostics `[*]`.
    pub available: bool,
}

impl Fix {
    /// A fix of one edit.
    pub fn replace(
        applicability: Applicability,
        message: impl Into<String>,
        span: Span,
        content: impl Into<String>,
    ) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits: vec![Edit {
                span,
                content: content.into(),
            }],
            rename: None,
            exclusive: None,
            available: false,
        }
    }

    /// A fix that renames the skill file to `name`.
    pub fn rename(applicability: Applicability, message: impl Into<String>, name: &str) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits: Vec::new(),
            rename: Some(name.to_string()),
            exclusive: None,
            available: false,
        }
    }

    fn start(&self) -> usize {
        self.edits.first().map_or(0, |e| e.span.start)
    }
}

/// Whether `d` is of a rule whose fix sets the skill's name (declared `fix(… sets_key …)`).
pub fn sets_key(d: &Diagnostic) -> bool {
    d.rule.fix_effect(crate::rule::FixEffect::SetsKey)
}

/// Drops the fixes that would give a skill a name `taken` holds (another skill's key, which
/// SK501 would then report).
pub fn drop_taken_names<S, H>(
    diagnostics: &mut [Diagnostic],
    taken: &std::collections::HashSet<S, H>,
) where
    S: std::borrow::Borrow<str> + std::hash::Hash + Eq,
    H: std::hash::BuildHasher,
{
    for d in diagnostics {
        if gives_taken_name(d, taken) {
            d.fix = None;
        }
    }
}

/// Whether `d` is a name fix that gives a name in `taken`.
pub fn gives_taken_name<S, H>(d: &Diagnostic, taken: &std::collections::HashSet<S, H>) -> bool
where
    S: std::borrow::Borrow<str> + std::hash::Hash + Eq,
    H: std::hash::BuildHasher,
{
    sets_key(d)
        && d.fix.as_deref().is_some_and(|fix| {
            fix.edits
                .iter()
                .any(|e| taken.contains(e.content.trim_matches(['\'', '"'])))
        })
}

/// How many fixes of `diagnostics` this run applies, and how many more `--unsafe-fixes` would.
pub fn counts(diagnostics: &[Diagnostic]) -> (usize, usize) {
    diagnostics
        .iter()
        .filter_map(|d| d.fix.as_deref())
        .fold((0, 0), |(on, hidden), fix| {
            if fix.available {
                (on + 1, hidden)
            } else if fix.applicability == Applicability::Unsafe {
                (on, hidden + 1)
            } else {
                (on, hidden)
            }
        })
}

/// `text` with `fixes` applied. Fixes are taken in order of position (then of `fixes`), each
/// when none of its edits overlaps an edit of one taken before (a fix that does waits for the
/// next round); then all their edits are made in order of position, insertions at one place in
/// the order of their fixes. Returns the new text and the indices of the fixes applied.
pub fn apply(text: &[u8], fixes: &[&Fix]) -> (Vec<u8>, Vec<usize>) {
    let mut order: Vec<usize> = (0..fixes.len()).collect();
    order.sort_by_key(|&i| (fixes[i].start(), i));
    // Two edits clash when their ranges share a byte, or one inserts strictly inside the other.
    let clash = |a: Span, b: Span| {
        if a.is_empty() && b.is_empty() {
            false
        } else if a.is_empty() {
            b.start < a.start && a.start < b.end
        } else if b.is_empty() {
            a.start < b.start && b.start < a.end
        } else {
            a.start < b.end && b.start < a.end
        }
    };
    let mut taken: Vec<(Span, usize, &str)> = Vec::new();
    let mut applied = Vec::new();
    let mut exclusive: Vec<&str> = Vec::new();
    for (rank, i) in order.into_iter().enumerate() {
        let fix = fixes[i];
        if fix.exclusive.is_some_and(|key| exclusive.contains(&key)) {
            continue;
        }
        let fits = fix.edits.iter().all(|e| e.span.end <= text.len())
            && fix
                .edits
                .windows(2)
                .all(|w| w[0].span.end <= w[1].span.start)
            && fix
                .edits
                .iter()
                .all(|e| taken.iter().all(|(span, _, _)| !clash(e.span, *span)));
        if !fits {
            continue;
        }
        taken.extend(fix.edits.iter().map(|e| (e.span, rank, e.content.as_str())));
        exclusive.extend(fix.exclusive);
        applied.push(i);
    }
    // Insertions before the replacement that starts at the same place.
    taken.sort_by_key(|(span, rank, _)| (span.start, !span.is_empty(), *rank));
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    for (span, _, content) in taken {
        out.extend_from_slice(&text[at..span.start]);
        out.extend_from_slice(content.as_bytes());
        at = span.end;
    }
    out.extend_from_slice(&text[at..]);
    applied.sort_unstable();
    (out, applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(start: usize, end: usize, content: &str) -> Fix {
        Fix::replace(Applicability::Safe, "x", Span::new(start, end), content)
    }

    #[test]
    fn fixes_apply_in_order_and_overlapping_ones_wait() {
        let text = b"abcdefgh";
        let (a, b, c, d) = (
            fix(6, 7, "G"),
            fix(0, 2, ""),
            fix(1, 3, "X"),
            fix(8, 8, "!"),
        );
        let (out, applied) = apply(text, &[&a, &b, &c, &d]);
        assert_eq!(out, b"cdefGh!");
        assert_eq!(applied, vec![0, 1, 3]);
    }

    #[test]
    fn insertions_at_one_place_go_in_the_order_of_the_fixes() {
        let (a, b, c) = (fix(2, 2, "1"), fix(2, 2, "2"), fix(2, 3, "C"));
        let (out, applied) = apply(b"abcd", &[&a, &b, &c]);
        assert_eq!(out, b"ab12Cd");
        assert_eq!(applied, vec![0, 1, 2]);
    }

    /// Two moves to one place (SK013's: each deletes its line and inserts it at the end of a
    /// block) interleave: both are made in one round, in order.
    #[test]
    fn fixes_of_several_edits_interleave() {
        let edits = |del: (usize, usize), ins: &str| Fix {
            applicability: Applicability::Unsafe,
            message: "move".into(),
            edits: vec![
                Edit {
                    span: Span::new(del.0, del.1),
                    content: String::new(),
                },
                Edit {
                    span: Span::new(8, 8),
                    content: ins.into(),
                },
            ],
            rename: None,
            exclusive: None,
            available: true,
        };
        let (a, b) = (edits((0, 2), "A;"), edits((2, 4), "B;"));
        let (out, applied) = apply(b"a;b;c;d;", &[&a, &b]);
        assert_eq!(out, b"c;d;A;B;");
        assert_eq!(applied, vec![0, 1]);
        // An insertion inside a range another fix replaces waits.
        let c = fix(1, 1, "x");
        let (out, applied) = apply(b"a;b;c;d;", &[&a, &c]);
        assert_eq!(out, b"b;c;d;A;");
        assert_eq!(applied, vec![0]);
    }

    #[test]
    fn an_edit_past_the_end_is_not_applied() {
        let a = fix(3, 9, "");
        let (out, applied) = apply(b"abcd", &[&a]);
        assert_eq!(out, b"abcd");
        assert!(applied.is_empty());
    }
}
