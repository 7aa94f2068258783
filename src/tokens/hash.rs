// The hash of the embedded rank tables: shared by `build.rs`, which lays the tables out, and
// `src/tokens/bpe.rs`, which probes them. Changing it changes the tables, never the counts.

/// A fast multiplicative hash of a byte string, eight bytes at a time.
#[inline]
pub fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = (h.rotate_left(5) ^ tail_word(rest)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// The 1 to 7 bytes of `rest` as a little-endian word padded with zeros, read in at most two
/// loads that may overlap (no copy of a variable length: its stores would stall the load).
#[inline]
fn tail_word(rest: &[u8]) -> u64 {
    let n = rest.len();
    let load4 = |at: usize| {
        let mut word = [0u8; 4];
        if let Some(bytes) = rest.get(at..at + 4) {
            word.copy_from_slice(bytes);
        }
        u64::from(u32::from_le_bytes(word))
    };
    if n >= 4 {
        load4(0) | load4(n - 4) << ((n - 4) * 8)
    } else {
        let byte = |i: usize| u64::from(rest.get(i).copied().unwrap_or(0));
        byte(0)
            | byte(n / 2) << (8 * (n / 2))
            | byte(n.saturating_sub(1)) << (8 * n.saturating_sub(1))
    }
}

/// Slot layout (little-endian u64; 0 is an empty slot): bits 0..18 rank + 1, 18..39 offset of
/// the token's bytes, 39..47 its length, 47..64 the top 17 bits of its hash.
pub const RANK_BITS: u32 = 18;
pub const OFFSET_BITS: u32 = 21;
pub const LEN_SHIFT: u32 = RANK_BITS + OFFSET_BITS;
pub const FINGERPRINT_SHIFT: u32 = 47;
