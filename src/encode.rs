//! Text in the forms other formats take, written once: paths as percent-encoded URI paths
//! (SARIF, GitHub links, `file:` URIs), their decoding (links, `file:` URIs), and JSON files
//! as stored (manifests, signature bundles).

use std::fmt::Write;

/// `bytes` as a URI path: unreserved characters and `/` as they are, every other byte as
/// `%XX` (upper-case hex).
pub fn percent_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The bytes `text` percent-encodes: every `%` and two hex digits (either case) as the byte;
/// any other `%` as it is.
pub fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(high), Some(low)) = (
                bytes.get(i + 1).and_then(|&b| hex(b)),
                bytes.get(i + 2).and_then(|&b| hex(b)),
            )
        {
            out.push((high * 16 + low) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// A JSON file as skillc stores it (a manifest, a bundle): serde_json's pretty form (two-space
/// indent) and a final newline. Its bytes are what readers compare, so it escapes no more
/// than serde_json does (unlike the printed outputs, `crate::render::json_text`).
pub fn json_file(value: &impl serde::Serialize) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_encoding_round_trips() {
        assert_eq!(percent_encode("a b/技.md".as_bytes()), "a%20b/%E6%8A%80.md");
        assert_eq!(percent_encode(b"A-z_0.9~/%"), "A-z_0.9~/%25");
        assert_eq!(percent_decode("a%20b/%e6%8A%80.md"), "a b/技.md".as_bytes());
        assert_eq!(percent_decode("100%"), b"100%");
        assert_eq!(percent_decode("%zz%4"), b"%zz%4");
    }

    #[test]
    fn json_files_are_pretty_with_a_final_newline() {
        let value = serde_json::json!({"a": [1], "b": "\u{202e}"});
        assert_eq!(
            String::from_utf8(json_file(&value)).unwrap(),
            "{\n  \"a\": [\n    1\n  ],\n  \"b\": \"\u{202e}\"\n}\n"
        );
    }
}
