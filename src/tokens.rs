//! Token accounting (tokens.md): a BPE tokenizer behind a small trait, initialised lazily and
//! once per process; L1 catalog entries, the budget and its drop order.

use std::sync::OnceLock;

use crate::config::Encoding;
use crate::discover::Tier;

mod bpe;
mod hash;
mod split;

/// Counts tokens of text.
pub trait Tokenizer: Sync {
    fn count(&self, text: &str) -> usize;

    /// The tokens of `text` when they are more than `limit`; may stop counting as soon as it
    /// knows they are not.
    fn count_over(&self, text: &str, limit: usize) -> Option<usize> {
        let n = self.count(text);
        (n > limit).then_some(n)
    }
}

impl Tokenizer for bpe::Bpe {
    fn count(&self, text: &str) -> usize {
        bpe::Bpe::count(self, text)
    }

    fn count_over(&self, text: &str, limit: usize) -> Option<usize> {
        bpe::Bpe::count_over(self, text, limit)
    }
}

/// The tokenizer of an encoding, ready on first use in a few milliseconds (its ranks are
/// embedded as tables; only the pre-tokenizer regex is compiled); `None` only if that regex
/// fails to compile, which would be a build defect.
pub fn tokenizer(encoding: Encoding) -> Option<&'static dyn Tokenizer> {
    static O200K: OnceLock<Option<bpe::Bpe>> = OnceLock::new();
    static CL100K: OnceLock<Option<bpe::Bpe>> = OnceLock::new();
    let cell = match encoding {
        Encoding::O200kBase => O200K.get_or_init(bpe::Bpe::o200k_base),
        Encoding::Cl100kBase => CL100K.get_or_init(bpe::Bpe::cl100k_base),
    };
    cell.as_ref().map(|bpe| bpe as &dyn Tokenizer)
}

/// The name of an encoding as printed.
pub fn encoding_name(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::O200kBase => "o200k_base",
        Encoding::Cl100kBase => "cl100k_base",
    }
}

/// Whether `text` may exceed `limit` tokens. Every BPE token is at least one byte, so text of
/// at most `limit` bytes cannot: no tokenizer is needed to know it.
pub fn may_exceed(text: &str, limit: usize) -> bool {
    text.len() > limit
}

/// The tokens of `text` when they are more than `limit`, counting no more than needed: nothing
/// when its bytes already fit, and only until the tokens so far plus the bytes left cannot
/// pass the limit; text over the limit is counted once, in full.
pub fn count_over(tokenizer: &dyn Tokenizer, text: &str, limit: usize) -> Option<usize> {
    if !may_exceed(text, limit) {
        return None;
    }
    tokenizer.count_over(text, limit)
}

/// Whether `text` has more than `limit` tokens ([`count_over`]).
pub fn exceeds(tokenizer: &dyn Tokenizer, text: &str, limit: usize) -> bool {
    count_over(tokenizer, text, limit).is_some()
}

/// The L1 catalog line of a skill: `- {key}: {description}\n`, with runs of whitespace in the
/// description collapsed to one space.
pub fn l1_entry(key: &str, description: &str) -> String {
    let collapsed: Vec<&str> = description.split_whitespace().collect();
    format!("- {key}: {}\n", collapsed.join(" "))
}

/// One file of the L3 layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L3File {
    /// Relative to the skill, `/`-separated.
    pub path: String,
    pub bytes: u64,
    /// `None` for a binary file (NUL bytes or not UTF-8) or one over the size limit.
    pub tokens: Option<usize>,
}

/// A skill's costs in the three layers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Costs {
    pub l1: usize,
    pub l2: usize,
    pub l3: Vec<L3File>,
}

/// Counts a skill's L1 entry (`key`, `description`), its body (L2), and each other file of
/// its directory listing (L3; files are read here, once, up to `max_file_size`).
pub fn costs(
    tokenizer: &dyn Tokenizer,
    (key, description): (&str, &str),
    body: &str,
    dir: &crate::discover::SkillDir,
    tree: &crate::files::SkillTree,
    max_file_size: u64,
) -> Costs {
    let l1 = tokenizer.count(&l1_entry(key, description));
    let l2 = tokenizer.count(body);
    let skill_file = dir
        .file
        .as_ref()
        .and_then(|f| f.file_name())
        .and_then(|n| n.to_str());
    let mut l3 = Vec::new();
    for entry in &tree.entries {
        if !entry.is_file() || Some(entry.rel.as_str()) == skill_file {
            continue;
        }
        let bytes = match entry.kind {
            crate::files::Kind::File { size, .. }
            | crate::files::Kind::Symlink(crate::files::LinkTarget::InsideFile(size)) => size,
            _ => 0,
        };
        let tokens = match crate::input::read_capped(
            &dir.real_path().join(&entry.rel),
            max_file_size,
            crate::input::Links::Follow,
        ) {
            Ok(crate::input::Read::Bytes(data)) if !data.contains(&0) => String::from_utf8(data)
                .ok()
                .map(|text| tokenizer.count(&text)),
            _ => None,
        };
        l3.push(L3File {
            path: entry.rel.clone(),
            bytes,
            tokens,
        });
    }
    Costs { l1, l2, l3 }
}

/// One catalog entry for the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub tier: Tier,
    pub tokens: usize,
}

/// The keys dropped, in drop order, until the total fits `budget`: lowest tier first
/// (builtin, user, project); within a tier the largest cost first; ties by key in reverse
/// alphabetical order.
pub fn drop_order(entries: &[Entry], budget: usize) -> Vec<String> {
    let mut total: usize = entries.iter().map(|e| e.tokens).sum();
    if total <= budget {
        return Vec::new();
    }
    let mut order: Vec<&Entry> = entries.iter().collect();
    order.sort_by(|a, b| {
        a.tier
            .cmp(&b.tier)
            .then(b.tokens.cmp(&a.tokens))
            .then(b.key.cmp(&a.key))
    });
    let mut dropped = Vec::new();
    for entry in order {
        if total <= budget {
            break;
        }
        total -= entry.tokens;
        dropped.push(entry.key.clone());
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, tier: Tier, tokens: usize) -> Entry {
        Entry {
            key: key.into(),
            tier,
            tokens,
        }
    }

    #[test]
    fn l1_entries_collapse_whitespace() {
        assert_eq!(
            l1_entry("pdf", "  Reads\n PDFs.\t Use when  asked. "),
            "- pdf: Reads PDFs. Use when asked.\n"
        );
    }

    #[test]
    fn drop_order_follows_tier_then_size_then_reverse_key() {
        let entries = [
            entry("a", Tier::Project, 50),
            entry("b", Tier::User, 10),
            entry("c", Tier::User, 30),
            entry("d", Tier::Project, 50),
            entry("e", Tier::User, 30),
        ];
        // Total 170; the user tier goes first, largest first, ties by reverse key: e, c, b.
        assert_eq!(drop_order(&entries, 170), Vec::<String>::new());
        assert_eq!(drop_order(&entries, 140), ["e"]);
        assert_eq!(drop_order(&entries, 100), ["e", "c", "b"]);
        assert_eq!(drop_order(&entries, 60), ["e", "c", "b", "d"]);
        assert_eq!(drop_order(&entries, 0), ["e", "c", "b", "d", "a"]);
    }

    #[test]
    fn exceeds_is_exact_at_the_limit_in_both_encodings() {
        let text: String = (0..400)
            .map(|i| {
                format!("Line {i}: résumé, 技能 and 😀 — code `x = {i};`\n  indented\n/slash\n")
            })
            .collect();
        for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
            let tokenizer = tokenizer(encoding).unwrap();
            let whole = tokenizer.count(&text);
            assert!(exceeds(tokenizer, &text, whole - 1));
            assert_eq!(count_over(tokenizer, &text, whole - 1), Some(whole));
            assert_eq!(count_over(tokenizer, &text, 10), Some(whole));
            assert_eq!(count_over(tokenizer, &text, whole), None);
            assert!(!exceeds(tokenizer, &text, whole));
            assert!(exceeds(tokenizer, &text, 10));
            assert!(!exceeds(tokenizer, "short", 4));
        }
    }

    #[test]
    fn counts_are_the_same_from_every_thread() {
        let tokenizer = tokenizer(Encoding::O200kBase).unwrap();
        let texts: Vec<String> = (0..64).map(|i| format!("word{i} ").repeat(i * 7)).collect();
        let expected: Vec<usize> = texts.iter().map(|t| tokenizer.count(t)).collect();
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    for (text, &n) in texts.iter().zip(&expected).rev() {
                        assert_eq!(tokenizer.count(text), n);
                    }
                });
            }
        });
    }

    #[test]
    fn byte_bound() {
        assert!(!may_exceed("abc", 3));
        assert!(may_exceed("abcd", 3));
    }
}
