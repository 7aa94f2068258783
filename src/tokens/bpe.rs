//! Exact tiktoken BPE (o200k_base, cl100k_base) over tables that need no building: the ranks
//! are laid out at build time (`build.rs`, `data/README.md`) and embedded as they are, so a
//! tokenizer is ready once its pre-tokenizer regex is compiled (about 3 ms for o200k_base).
//!
//! Counting is tiktoken's: the text is split into pieces by the encoding's pattern, and each
//! piece is merged pair by pair, lowest rank first (leftmost on ties), until no adjacent pair is
//! a token; its count is the number of parts left. Long pieces merge with a heap, so that
//! 1 MB without a space takes O(n log n), not O(n²). Whole pieces of up to 27 bytes are
//! memoised per thread: real text repeats its words.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};

use super::hash::{FINGERPRINT_SHIFT, LEN_SHIFT, OFFSET_BITS, RANK_BITS, hash};

/// No rank: the bytes are not a token.
const NONE: u32 = u32::MAX;

/// One encoding's embedded ranks.
pub struct Table {
    /// Token bytes, concatenated in rank order.
    bytes: &'static [u8],
    /// Open-addressing hash table of little-endian u64 slots (`hash.rs` gives the layout).
    slots: &'static [u8],
}

pub static O200K_BASE: Table = Table {
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bytes")),
    slots: include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.slots")),
};

pub static CL100K_BASE: Table = Table {
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.bytes")),
    slots: include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.slots")),
};

/// Whether two short byte strings are equal, by two overlapping word loads where they fit
/// (most pieces and tokens are 2 to 16 bytes: cheaper than a call to `memcmp`).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    #[inline]
    fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
        let mut w = [0u8; N];
        if let Some(part) = s.get(at..at + N) {
            w.copy_from_slice(part);
        }
        w
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4),
        8..=16 => word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8),
        _ => a == b,
    }
}

impl Table {
    /// The rank of `bytes` (whose hash is `h`), or `NONE`.
    #[inline]
    fn rank_hashed(&self, bytes: &[u8], h: u64) -> u32 {
        let count = self.slots.len() / 8;
        if count == 0 || !count.is_power_of_two() {
            return NONE;
        }
        let mask = count - 1;
        let want =
            ((bytes.len() as u64) << LEN_SHIFT) | ((h >> FINGERPRINT_SHIFT) << FINGERPRINT_SHIFT);
        let mut at = h as usize & mask;
        // The table is at most half full, so a probe sequence always reaches an empty slot.
        for _ in 0..count {
            let Some(slot) = self.slots.get(8 * at..8 * at + 8) else {
                return NONE;
            };
            let mut word = [0u8; 8];
            word.copy_from_slice(slot);
            let slot = u64::from_le_bytes(word);
            if slot == 0 {
                return NONE;
            }
            if slot & !((1 << LEN_SHIFT) - 1) == want {
                let offset = ((slot >> RANK_BITS) & ((1 << OFFSET_BITS) - 1)) as usize;
                if self
                    .bytes
                    .get(offset..offset + bytes.len())
                    .is_some_and(|token| same(token, bytes))
                {
                    return (slot & ((1 << RANK_BITS) - 1)) as u32 - 1;
                }
            }
            at = (at + 1) & mask;
        }
        NONE
    }

    #[inline]
    fn rank(&self, bytes: &[u8]) -> u32 {
        self.rank_hashed(bytes, hash(bytes))
    }

    /// Tokens of one piece that is not itself a token (at least two bytes).
    fn merge(&self, piece: &[u8]) -> usize {
        if piece.len() <= 64 {
            self.merge_short(piece)
        } else {
            self.merge_long(piece)
        }
    }

    /// tiktoken's merge: parts as (start, rank of merging it with the next part); each round
    /// merges the lowest rank, leftmost first.
    fn merge_short(&self, piece: &[u8]) -> usize {
        let n = piece.len();
        let mut parts: Vec<(usize, u32)> = Vec::with_capacity(n + 1);
        for i in 0..n.saturating_sub(1) {
            parts.push((i, self.rank(&piece[i..i + 2])));
        }
        parts.push((n.saturating_sub(1), NONE));
        parts.push((n, NONE));
        // The rank of merging part i with part i + 1 (both as they are now).
        let pair = |parts: &[(usize, u32)], i: usize| match (parts.get(i), parts.get(i + 2)) {
            (Some(&(start, _)), Some(&(end, _))) => self.rank(&piece[start..end]),
            _ => NONE,
        };
        loop {
            let mut min = (NONE, 0);
            for (i, &(_, rank)) in parts.iter().enumerate() {
                if rank < min.0 {
                    min = (rank, i);
                }
            }
            if min.0 == NONE {
                break;
            }
            let i = min.1;
            parts.remove(i + 1);
            parts[i].1 = pair(&parts, i);
            if i > 0 {
                parts[i - 1].1 = pair(&parts, i - 1);
            }
        }
        parts.len() - 1
    }

    /// The same merges in O(n log n): a linked list of parts and a heap of (rank, start) with
    /// stale entries skipped. A part's pair only ever grows, so its rank never repeats: an entry
    /// is current exactly when it equals the part's rank now.
    fn merge_long(&self, piece: &[u8]) -> usize {
        let n = piece.len();
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut rank: Vec<u32> = vec![NONE; n];
        let mut first = Vec::with_capacity(n);
        for i in 0..n - 1 {
            rank[i] = self.rank(&piece[i..i + 2]);
            if rank[i] != NONE {
                first.push(Reverse(((rank[i] as u64) << 32) | i as u64));
            }
        }
        let mut heap = BinaryHeap::from(first);
        let mut parts = n;
        while let Some(Reverse(key)) = heap.pop() {
            let (r, i) = ((key >> 32) as u32, (key & 0xffff_ffff) as usize);
            if rank[i] != r {
                continue;
            }
            let j = next[i];
            rank[j] = NONE;
            next[i] = next[j];
            if next[i] < n {
                prev[next[i]] = i;
            }
            parts -= 1;
            let after = next[i];
            rank[i] = if after < n {
                self.rank(&piece[i..next[after]])
            } else {
                NONE
            };
            if rank[i] != NONE {
                heap.push(Reverse(((rank[i] as u64) << 32) | i as u64));
            }
            let p = prev[i];
            if p != usize::MAX {
                rank[p] = self.rank(&piece[p..after]);
                if rank[p] != NONE {
                    heap.push(Reverse(((rank[p] as u64) << 32) | p as u64));
                }
            }
        }
        parts
    }
}

/// Longest piece memoised.
const KEY: usize = 27;
/// Memoised pieces per thread and encoding (direct-mapped): 512 KiB. With 4,096 slots the
/// 61,000 generated skills of `bench/pipeline.sh` took 6% more CPU; 65,536 gained nothing
/// measurable.
const SLOTS: usize = 16384;

/// Bytes of one memoised piece: its bytes (`KEY`), their length (one byte) and its count
/// (four bytes, little-endian).
const SLOT: usize = KEY + 5;

/// Memoised pieces, direct-mapped. All zeros is an empty slot, so a memo is allocated zeroed:
/// pages a short run never touches cost nothing. Slots start at a multiple of [`SLOT`] bytes
/// in memory, so that none straddles two cache lines (an allocation is only 16-byte aligned:
/// every other slot did, and its look-up missed the cache twice).
struct Memo {
    bytes: Vec<u8>,
    /// Where the first slot starts in `bytes`.
    base: usize,
}

impl Memo {
    fn new() -> Memo {
        let bytes = vec![0u8; SLOTS * SLOT + SLOT];
        let base = (SLOT - bytes.as_ptr() as usize % SLOT) % SLOT;
        Memo { bytes, base }
    }

    #[inline]
    fn slot(&self, index: usize) -> Option<&[u8; SLOT]> {
        let at = self.base + index * SLOT;
        self.bytes.get(at..at + SLOT)?.try_into().ok()
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> Option<&mut [u8; SLOT]> {
        let at = self.base + index * SLOT;
        self.bytes.get_mut(at..at + SLOT)?.try_into().ok()
    }
}

/// What one thread keeps for one encoding: the regex's scratch space and the memo.
struct State {
    cache: Cache,
    memo: Memo,
}

thread_local! {
    static STATES: RefCell<[Option<State>; 2]> = const { RefCell::new([None, None]) };
}

/// An encoding: its ranks and its pre-tokenizer.
pub struct Bpe {
    table: &'static Table,
    /// The encoding's pattern as three alternatives: tiktoken's `\s+(?!\S)` is matched as
    /// `\s+\s` with its last character given back (the regex crate has no look-ahead), after
    /// the others and before the plain `\s+`. The same rewriting as the `bpe-openai` crate.
    regex: Regex,
    /// Whether o200k_base's pattern by hand over ASCII ([`super::split`]) applies: called
    /// directly, not through a pointer, so that it is inlined into the counting loop.
    ascii: bool,
    /// Index into the thread's states.
    slot: usize,
}

const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+$",
);

const CL100K_PATTERN: &str = concat!(
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)",
    r"|[^\r\n\p{L}\p{N}]?\p{L}+",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*",
    r"|\s*[\r\n]+",
    r"|\s+$",
);

impl Bpe {
    pub fn o200k_base() -> Option<Bpe> {
        Bpe::new(&O200K_BASE, O200K_PATTERN, true, 0)
    }

    pub fn cl100k_base() -> Option<Bpe> {
        Bpe::new(&CL100K_BASE, CL100K_PATTERN, false, 1)
    }

    fn new(table: &'static Table, pattern: &str, ascii: bool, slot: usize) -> Option<Bpe> {
        let regex = Regex::new_many(&[pattern, r"\s+\s", r"\s+"]).ok()?;
        Some(Bpe {
            table,
            regex,
            ascii,
            slot,
        })
    }

    /// The tokens of `text`.
    pub fn count(&self, text: &str) -> usize {
        self.with_state(|state| {
            let mut total = 0;
            let mut at = 0;
            while let Some((start, end)) = self.next_piece(&mut state.cache, text, at) {
                total += self.count_piece(&mut state.memo, &text.as_bytes()[start..end]);
                at = end;
            }
            total
        })
    }

    /// The tokens of `text` when they are more than `limit`, counted once; `None` as soon as
    /// the tokens so far plus the bytes left (every token is at least one byte) cannot pass
    /// the limit.
    pub fn count_over(&self, text: &str, limit: usize) -> Option<usize> {
        self.with_state(|state| {
            let mut total = 0;
            let mut at = 0;
            while at < text.len() {
                if total + (text.len() - at) <= limit {
                    return None;
                }
                let Some((start, end)) = self.next_piece(&mut state.cache, text, at) else {
                    break;
                };
                total += self.count_piece(&mut state.memo, &text.as_bytes()[start..end]);
                at = end;
            }
            (total > limit).then_some(total)
        })
    }

    /// Runs `run` with this thread's state for this encoding (a fresh one if it is in use).
    fn with_state<R>(&self, run: impl Fn(&mut State) -> R) -> R {
        let shared = STATES.try_with(|states| {
            let Ok(mut states) = states.try_borrow_mut() else {
                return None;
            };
            let state = states.get_mut(self.slot)?;
            Some(run(state.get_or_insert_with(|| self.state())))
        });
        match shared {
            Ok(Some(result)) => result,
            _ => run(&mut self.state()),
        }
    }

    fn state(&self) -> State {
        State {
            cache: self.regex.create_cache(),
            memo: Memo::new(),
        }
    }

    /// The next piece at or after `at`, as tiktoken's leftmost-first matches find it.
    #[inline]
    fn next_piece(&self, cache: &mut Cache, text: &str, at: usize) -> Option<(usize, usize)> {
        if self.ascii
            && let Some(end) = super::split::o200k(text.as_bytes(), at)
        {
            return Some((at, end));
        }
        self.regex_piece(cache, text, at)
    }

    /// [`Bpe::next_piece`] by the regex alone.
    fn regex_piece(&self, cache: &mut Cache, text: &str, at: usize) -> Option<(usize, usize)> {
        let rest = text.get(at..)?;
        let anchored = Input::new(rest).anchored(Anchored::Yes);
        let found = match self.regex.search_with(cache, &anchored) {
            Some(m) => m,
            // Every character starts a piece of these patterns; this is only a safeguard that
            // skips what no alternative matches, as tiktoken's iteration does.
            None => self.regex.search_with(cache, &Input::new(rest))?,
        };
        let start = at + found.start();
        let mut end = at + found.end();
        if found.pattern().as_usize() == 1 {
            let last = text[start..end]
                .chars()
                .next_back()
                .map_or(0, char::len_utf8);
            if end - last > start {
                end -= last;
            }
        }
        if end <= start {
            // Unreachable with these patterns (no alternative matches empty); never loop.
            end = start + text[start..].chars().next().map_or(1, char::len_utf8);
        }
        Some((start, end))
    }

    fn count_piece(&self, memo: &mut Memo, piece: &[u8]) -> usize {
        if piece.len() <= 1 {
            return piece.len();
        }
        let h = hash(piece);
        if piece.len() > KEY {
            return if self.table.rank_hashed(piece, h) != NONE {
                1
            } else {
                self.table.merge(piece)
            };
        }
        let index = (h >> 20) as usize & (SLOTS - 1);
        if let Some(m) = memo.slot(index)
            && usize::from(m[KEY]) == piece.len()
            && same(&m[..piece.len()], piece)
        {
            let mut count = [0; 4];
            count.copy_from_slice(&m[KEY + 1..]);
            return u32::from_le_bytes(count) as usize;
        }
        let count = if self.table.rank_hashed(piece, h) != NONE {
            1
        } else {
            self.table.merge(piece)
        };
        if let Some(m) = memo.slot_mut(index) {
            m[..piece.len()].copy_from_slice(piece);
            m[KEY] = piece.len() as u8;
            m[KEY + 1..].copy_from_slice(&(count as u32).to_le_bytes());
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of `text`, by `piece`.
    fn pieces(
        bpe: &Bpe,
        text: &str,
        piece: impl Fn(&Bpe, &mut Cache, &str, usize) -> Option<(usize, usize)>,
    ) -> Vec<(usize, usize)> {
        let mut cache = bpe.regex.create_cache();
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let Some((start, end)) = piece(bpe, &mut cache, text, at) else {
                break;
            };
            out.push((start, end));
            at = end;
        }
        out
    }

    /// The hash as it was first written (a copy of the last bytes into a zeroed word): the
    /// embedded tables are laid out by it, so every way of computing it must agree.
    fn hash_by_copy(bytes: &[u8]) -> u64 {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = bytes.len() as u64;
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
        }
        h ^ (h >> 29)
    }

    #[test]
    fn the_hash_reads_every_tail_length_as_a_copy_would() {
        for n in 0..40usize {
            let bytes: Vec<u8> = (0..n)
                .map(|i| (i as u8).wrapping_mul(97).wrapping_add(13))
                .collect();
            assert_eq!(hash(&bytes), hash_by_copy(&bytes), "{n}");
            let high: Vec<u8> = bytes.iter().map(|b| b | 0x80).collect();
            assert_eq!(hash(&high), hash_by_copy(&high), "{n} high");
        }
    }

    #[test]
    fn same_compares_every_byte_at_every_length() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert!(same(&a, &a.clone()), "{n}");
            assert!(!same(&a, &a[..n.saturating_sub(1)]) || n == 0, "{n}");
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x20;
                assert!(!same(&a, &b), "{n} {i}");
            }
        }
    }

    /// Every way the hand-written ASCII pre-tokenizer can decide, against the regex: texts
    /// drawn from characters of every class (ASCII and not: letters, digits, spaces and
    /// symbols that could extend a piece, the contraction letters, `ſ`).
    #[test]
    fn the_ascii_pre_tokenizer_splits_as_the_regex_does() {
        let Some(bpe) = Bpe::o200k_base() else {
            panic!("o200k_base builds");
        };
        let alphabet: Vec<&str> = vec![
            "a", "z", "A", "Z", "s", "S", "t", "r", "e", "E", "v", "l", "L", "m", "d", "D", "0",
            "9", " ", " ", "\t", "\n", "\r", "\u{b}", "\u{c}", "'", "'", "/", "-", "_", ".", "*",
            "(", "`", "\u{0}", "\u{1f}", "\u{7f}", "é", "É", "ſ", "²", "٣", "\u{a0}", "\u{85}",
            "\u{2003}", "—", "😀", "技", "ǅ", "ʰ", "\u{301}",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut ascii_pieces = 0;
        for round in 0..20_000 {
            let len = 1 + next(if round % 10 == 0 { 40 } else { 12 });
            let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            let fast = pieces(&bpe, &text, Bpe::next_piece);
            let slow = pieces(&bpe, &text, Bpe::regex_piece);
            assert_eq!(fast, slow, "{text:?}");
            ascii_pieces += fast
                .iter()
                .filter(|&&(start, _)| super::super::split::o200k(text.as_bytes(), start).is_some())
                .count();
        }
        // The fast path decides most pieces (the test would prove nothing otherwise).
        assert!(ascii_pieces > 40_000, "{ascii_pieces}");
    }
}
