//! Positions as the Language Server Protocol counts them: 0-based lines, as the CLI counts
//! them ([`LineIndex`]: ended by `\n` or `\r\n`, not by a lone `\r`), and characters in the
//! encoding the client and the server agreed on — UTF-16 code units (the protocol's default)
//! or UTF-8 bytes.

use lsp_types::{Position, PositionEncodingKind, Range};

use crate::source::LineIndex;

/// The unit of a position's character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it, else UTF-16 (which every client must support).
    pub fn negotiate<'a>(offered: impl IntoIterator<Item = &'a str>) -> Encoding {
        if offered.into_iter().any(|kind| kind == "utf-8") {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    fn units(self, text: &str) -> usize {
        match self {
            Encoding::Utf8 => text.len(),
            Encoding::Utf16 => text.chars().map(char::len_utf16).sum(),
        }
    }
}

/// A document's text with its line index, in the client's encoding.
pub struct Lines<'a> {
    text: &'a str,
    index: LineIndex,
    encoding: Encoding,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str, encoding: Encoding) -> Lines<'a> {
        Lines {
            text,
            index: LineIndex::new(text),
            encoding,
        }
    }

    /// The byte offset the line holding byte `offset` starts at.
    pub fn line_start(&self, offset: usize) -> usize {
        self.index.start(self.index.line_of(offset)).unwrap_or(0)
    }

    /// The position of byte `offset` (clamped to the text and to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.index.line_of(offset);
        let start = self.index.start(line).unwrap_or(0);
        let character = self.encoding.units(&self.text[start..offset]);
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(character).unwrap_or(u32::MAX),
        )
    }

    /// The range of the bytes `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of `position` (a character past the end of its line is the line's end,
    /// before its line break; a line past the last is the end of the text; inside a UTF-16
    /// surrogate pair is the character's start).
    pub fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        if self.index.start(line).is_none() {
            return self.text.len();
        }
        let span = self.index.line_span(self.text, line);
        let (start, content) = (span.start, &self.text[span.start..span.end]);
        let mut units = 0;
        for (i, c) in content.char_indices() {
            let width = match self.encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
            if units + width > position.character as usize {
                return start + i;
            }
            units += width;
        }
        start + content.len()
    }

    /// The range of the whole text.
    pub fn whole(&self) -> Range {
        self.range(0, self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes_after_emoji_and_cjk() {
        let text = "a😀b\r\n技x\rz\n";
        let utf16 = Lines::new(text, Encoding::Utf16);
        let utf8 = Lines::new(text, Encoding::Utf8);
        let cli = crate::source::SkillFile::new(std::path::PathBuf::new(), text.to_string());
        let b = text.find('b').unwrap();
        assert_eq!(utf16.position(b), Position::new(0, 3));
        assert_eq!(utf8.position(b), Position::new(0, 5));
        let x = text.find('x').unwrap();
        assert_eq!(utf16.position(x), Position::new(1, 1));
        assert_eq!(utf8.position(x), Position::new(1, 3));
        // A lone `\r` is a character of its line, as the CLI counts it: `z` is on line 2
        // (1-based), column 4.
        let z = text.find('z').unwrap();
        assert_eq!(utf16.position(z), Position::new(1, 3));
        let r = cli.region(crate::diagnostic::Span::new(z, z));
        assert_eq!((r.line, r.column), (2, 4));
        // Inside a character: its start; past the end: the end.
        assert_eq!(utf8.position(2), Position::new(0, 1));
        assert_eq!(utf8.position(999), Position::new(2, 0));
    }

    #[test]
    fn offsets_are_the_inverse_of_positions() {
        let text = "a😀b\r\n技x\rz\n";
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            let lines = Lines::new(text, encoding);
            for (i, _) in text
                .char_indices()
                .filter(|(i, c)| *c != '\n' && !(*c == '\r' && text[i + 1..].starts_with('\n')))
            {
                assert_eq!(lines.offset(lines.position(i)), i, "{encoding:?} at {i}");
            }
        }
        let utf16 = Lines::new(text, Encoding::Utf16);
        // Inside the emoji's surrogate pair: the emoji; past the line's end: before `\r\n`.
        assert_eq!(utf16.offset(Position::new(0, 2)), 1);
        assert_eq!(utf16.offset(Position::new(0, 99)), 6);
        assert_eq!(utf16.offset(Position::new(9, 0)), text.len());
        // Past the end of a line holding a lone `\r`: before its `\n`, not at the `\r`.
        assert_eq!(
            utf16.offset(Position::new(1, 99)),
            text.find("z\n").unwrap() + 1
        );
    }

    #[test]
    fn utf8_only_when_offered() {
        assert_eq!(Encoding::negotiate([]), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(["utf-16", "utf-8"]), Encoding::Utf8);
        assert_eq!(Encoding::negotiate(["utf-32"]), Encoding::Utf16);
    }
}
