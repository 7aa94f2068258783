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
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    h ^ (h >> 29)
}

/// Slot layout (little-endian u64; 0 is an empty slot): bits 0..18 rank + 1, 18..39 offset of
/// the token's bytes, 39..47 its length, 47..64 the top 17 bits of its hash.
pub const RANK_BITS: u32 = 18;
pub const OFFSET_BITS: u32 = 21;
pub const LEN_SHIFT: u32 = RANK_BITS + OFFSET_BITS;
pub const FINGERPRINT_SHIFT: u32 = 47;
