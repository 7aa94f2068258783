//! o200k_base's pre-tokenizer over ASCII, by hand: the end of the piece that starts at a
//! position, decided from ASCII bytes alone, as the encoding's pattern (see [`super::bpe`])
//! would match it. A piece whose end depends on a non-ASCII character (a letter, a digit, a
//! space or a symbol outside ASCII may extend it) is left to the regex. Most skill text is
//! ASCII, and this is several times faster than the regex on it.

/// What [`peek`] sees past the end of the text.
const END: u16 = 0x100;

/// The byte at `i` (`END` past the end), or `None` when it is not ASCII.
#[inline]
fn peek(s: &[u8], i: usize) -> Option<u16> {
    match s.get(i) {
        None => Some(END),
        Some(&b) if b < 0x80 => Some(u16::from(b)),
        Some(_) => None,
    }
}

/// `\s` in ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
#[inline]
fn is_space(b: u16) -> bool {
    matches!(b, 0x09..=0x0D | 0x20)
}

#[inline]
fn is_upper(b: u16) -> bool {
    (u16::from(b'A')..=u16::from(b'Z')).contains(&b)
}

#[inline]
fn is_lower(b: u16) -> bool {
    (u16::from(b'a')..=u16::from(b'z')).contains(&b)
}

#[inline]
fn is_digit(b: u16) -> bool {
    (u16::from(b'0')..=u16::from(b'9')).contains(&b)
}

/// `[^\s\p{L}\p{N}]` in ASCII: punctuation, symbols and control characters.
#[inline]
fn is_symbol(b: u16) -> bool {
    b < 0x80 && !is_space(b) && !is_upper(b) && !is_lower(b) && !is_digit(b)
}

#[inline]
fn is_newline(b: u16) -> bool {
    b == u16::from(b'\r') || b == u16::from(b'\n')
}

/// The end of o200k_base's piece at `at` (a character boundary before the end of `s`), or
/// `None` when a non-ASCII character has a say.
#[inline]
pub fn o200k(s: &[u8], at: usize) -> Option<usize> {
    let c = peek(s, at)?;
    if c == END {
        return None;
    }
    // `[^\r\n\p{L}\p{N}]?[\p{Lu}…]*[\p{Ll}…]+(contraction)?` and its upper-case twin.
    if is_upper(c) || is_lower(c) {
        return word(s, at)?;
    }
    // `\p{N}{1,3}`
    if is_digit(c) {
        let mut i = at;
        while i - at < 3 && is_digit(peek(s, i)?) {
            i += 1;
        }
        return Some(i);
    }
    // The same two alternatives with `c` as their optional first character.
    if !is_newline(c)
        && let Some(end) = word(s, at + 1)?
    {
        return Some(end);
    }
    // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
    if !is_space(c) {
        return symbols(s, at);
    }
    if c == u16::from(b' ') && is_symbol(peek(s, at + 1)?) {
        return symbols(s, at + 1);
    }
    // Whitespace: `\s*[\r\n]+`, then `\s+$`, `\s+(?!\S)`, `\s+`.
    let mut i = at;
    let mut newline = None;
    loop {
        let b = peek(s, i)?;
        if !is_space(b) {
            break;
        }
        if is_newline(b) {
            newline = Some(i);
        }
        i += 1;
    }
    Some(match newline {
        Some(k) => k + 1,
        None if i == s.len() => i,
        None if i - at >= 2 => i - 1,
        None => i,
    })
}

/// Upper-case letters then lower-case ones (at least one of either kind, lower-case ones
/// required when there is no upper-case one), then a contraction: the end, `Some(None)` when
/// no letter is at `q`.
fn word(s: &[u8], q: usize) -> Option<Option<usize>> {
    let mut i = q;
    while is_upper(peek(s, i)?) {
        i += 1;
    }
    let j = lower_run(s, i);
    // A character outside ASCII after the run may extend it: the regex's to decide.
    peek(s, j)?;
    if j == q {
        return Some(None);
    }
    Some(Some(contraction(s, j)?))
}

/// The end of the run of ASCII lower-case letters at `at`: eight bytes at a time while they
/// fit (most words end within the first eight, found without a branch per letter), then byte
/// by byte.
#[inline]
fn lower_run(s: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = s.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // Per byte, its low seven bits plus an offset whose sum sets the high bit from `a`
        // (from `{` for the second): at most 0x7f + 0x1f, so no sum carries into the next byte.
        let low = x & !HIGH;
        let from_a = low.wrapping_add(ONES * (0x80 - u64::from(b'a')));
        let past_z = low.wrapping_add(ONES * (0x80 - u64::from(b'z') - 1));
        let lower = from_a & !past_z & !x & HIGH;
        let other = !lower & HIGH;
        if other != 0 {
            return at + (other.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while s.get(at).is_some_and(u8::is_ascii_lowercase) {
        at += 1;
    }
    at
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` at `at`: where it ends.
fn contraction(s: &[u8], at: usize) -> Option<usize> {
    if peek(s, at)? != u16::from(b'\'') {
        return Some(at);
    }
    // Case-insensitively, `s` is also `ſ` (U+017F): a non-ASCII letter here is the regex's.
    let first = peek(s, at + 1)?;
    let lower = |b: u16| if is_upper(b) { b + 32 } else { b };
    let second = |want: u8| -> Option<bool> { Some(lower(peek(s, at + 2)?) == u16::from(want)) };
    let end = match u8::try_from(lower(first)).unwrap_or(0) {
        b's' | b't' | b'm' | b'd' => at + 2,
        b'r' | b'v' if second(b'e')? => at + 3,
        b'l' if second(b'l')? => at + 3,
        _ => at,
    };
    Some(end)
}

/// `[^\s\p{L}\p{N}]+[\r\n/]*` at `at`: where it ends.
fn symbols(s: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while is_symbol(peek(s, i)?) {
        i += 1;
    }
    // Only ASCII can continue the tail: a non-ASCII character after it ends it.
    while let Some(&b) = s.get(i) {
        if !matches!(b, b'\r' | b'\n' | b'/') {
            break;
        }
        i += 1;
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every place of runs of every length up to 20, at every offset:
    /// as a byte-by-byte walk finds the end.
    #[test]
    fn lower_run_ends_where_the_first_other_byte_is() {
        let by_bytes = |s: &[u8], mut at: usize| {
            while s.get(at).is_some_and(u8::is_ascii_lowercase) {
                at += 1;
            }
            at
        };
        for len in 0..20 {
            for other in 0..=255u8 {
                for place in 0..=len {
                    let mut s: Vec<u8> = (0..len).map(|i| b'a' + (i * 7 % 26) as u8).collect();
                    if place < len {
                        s[place] = other;
                    }
                    for at in 0..=len {
                        assert_eq!(lower_run(&s, at), by_bytes(&s, at), "{s:?} {at}");
                    }
                }
            }
        }
    }
}
