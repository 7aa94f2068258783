//! What a skill will do, as text to match: every file of the skill read once under caps
//! ([`read`]), each cut into the lines the security rules judge ([`Scan`]) — logical lines with
//! their context (code, prose, a code fence, an HTML comment, documentation of an attack), the
//! commands rebuilt from literal pieces (`build.rs`) and the payloads decoded (`decode.rs`).
//! Nothing is executed and nothing leaves the skill's directory.

mod build;
mod decode;
mod keywords;
mod lines;
mod read;
mod scan;
mod url;

pub(crate) use lines::line_starts;
pub use read::{Binary, Lang, Source, read};
pub use scan::{Context, Origin, Scan, Unit, family};
pub use url::{Url, host_allowed, named_for_attack, reserved, urls};

/// At most this many bytes of each file are read (the first bytes of a larger one).
pub const MAX_READ: u64 = crate::input::TEXT_READ;
/// At most this many bytes are read per skill.
pub const MAX_SKILL_BYTES: u64 = 16 << 20;
/// At most this many files are read per skill.
pub const MAX_FILES: usize = 2000;
/// At most this many bytes are decoded per skill, all payloads and depths together.
pub const MAX_DECODED: usize = 4 << 20;
/// Payloads inside payloads are decoded this deep.
pub const MAX_DEPTH: usize = 3;

/// Words one of which a pattern needs, to look for before running it (one pass that skips
/// most texts a long pattern would walk for nothing). Case-insensitive as `(?i)` is: a text
/// with `ſ` or `K` (Unicode's other `s` and `k`) always passes.
pub struct Needs(Option<aho_corasick::AhoCorasick>);

impl Needs {
    pub fn new(words: &[&str]) -> Needs {
        let all = words.iter().copied().chain(["\u{17f}", "\u{212a}"]);
        Needs(
            aho_corasick::AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .build(all)
                .ok(),
        )
    }

    /// Whether `text` may match (always, if the words could not be compiled).
    pub fn may_match(&self, text: &str) -> bool {
        self.0.as_ref().is_none_or(|words| words.is_match(text))
    }
}

/// Compiles one of the security rules' patterns (all written in the source, tested by the
/// rules' tests, so compiling them cannot fail). Word boundaries are ASCII (`(?-u:\b)`): a
/// Unicode `\b` sends the regex engine off its fast path on any non-ASCII text, and the words
/// matched are ASCII.
pub fn regex(pattern: &str) -> regex::Regex {
    let mut ascii = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            ascii.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => ascii.push_str("(?-u:\\b)"),
            Some('B') => ascii.push_str("(?-u:\\B)"),
            Some(next) => {
                ascii.push(c);
                ascii.push(next);
            }
            None => ascii.push(c),
        }
    }
    regex::RegexBuilder::new(&ascii)
        .dfa_size_limit(8 << 20)
        .build()
        .unwrap_or_else(|_| unreachable!())
}

#[cfg(test)]
mod tests {
    use super::Needs;

    #[test]
    fn needs_finds_its_words_in_any_ascii_case_and_lets_the_other_s_and_k_through() {
        let needs = Needs::new(&["send", "webhook"]);
        for text in ["SEND it", "a Webhook", "resend", "x sEnD"] {
            assert!(needs.may_match(text), "{text}");
        }
        for text in ["", "nothing here", "sen d", "webhoo"] {
            assert!(!needs.may_match(text), "{text}");
        }
        // `(?i)` matches `ſ` (U+017F) for `s` and `K` (U+212A) for `k`: such a text is run.
        let pattern = regex::Regex::new("(?i)send|webhook").unwrap();
        for text in ["\u{17f}end", "webhoo\u{212a}", "WEBHOO\u{212a}"] {
            assert!(pattern.is_match(text), "{text}");
            assert!(needs.may_match(text), "{text}");
        }
    }
}
