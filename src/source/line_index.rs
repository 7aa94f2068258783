//! The one line model of skillc, shared by the CLI (through [`super::SkillFile`]) and the
//! language server: a line ends at `\n` (so at `\r\n` too); a lone `\r` is a character of its
//! line, not a line break.

use crate::diagnostic::Span;

/// The byte offsets the lines of a text start at.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// The first is 0; one more after every `\n`.
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        // Counted first (a SIMD count), so that the index is allocated once at its size.
        let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
        let mut starts = Vec::with_capacity(lines + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The number of lines (a text ending with `\n` has an empty last line).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Never: a text, even an empty one, has a line.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The byte offset line `line` (0-based) starts at, if the text has that line.
    pub fn start(&self, line: usize) -> Option<usize> {
        self.starts.get(line).copied()
    }

    /// The 0-based line holding byte `offset` (an offset past the end: the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) - 1
    }

    /// The byte span of line `line` (0-based) of `text` (the text indexed) without its line
    /// break (`\n` or `\r\n`); a line past the last is empty, at the end of the text.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let Some(start) = self.start(line) else {
            return Span::new(text.len(), text.len());
        };
        let end = self.start(line + 1).map_or(text.len(), |next| next - 1);
        let end = if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') && end < text.len()
        {
            end - 1
        } else {
            end
        };
        Span::new(start, end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_and_crlf_not_at_a_lone_cr() {
        let text = "a\r\nb\rc\nd\r";
        let index = LineIndex::new(text);
        assert_eq!(index.len(), 3);
        let lines: Vec<&str> = (0..index.len())
            .map(|n| {
                let span = index.line_span(text, n);
                &text[span.start..span.end]
            })
            .collect();
        // The lone `\r` inside line 1 and at the very end are characters of their lines.
        assert_eq!(lines, ["a", "b\rc", "d\r"]);
        assert_eq!(index.line_of(text.find('c').unwrap()), 1);
        assert_eq!(index.line_of(999), 2);
        assert_eq!(index.line_span(text, 9), Span::new(text.len(), text.len()));
    }
}
