//! A skill file in memory: its text, a line index, and the frontmatter/body split.

pub mod line_index;

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Region, Span};
pub use line_index::LineIndex;

const BOM: &str = "\u{feff}";

/// A skill file read once and kept for rules and renderers.
#[derive(Debug)]
pub struct SkillFile {
    /// Shared with the report and its diagnostics (and the excerpt kept of it).
    pub path: Arc<Path>,
    pub text: String,
    /// Where its lines start: the line model the server shares.
    /// Built on first use: most files are read, checked and never asked for a line.
    index: std::cell::OnceCell<LineIndex>,
    /// The last position asked for (byte offset, line, column): a position on the same line
    /// counts its column from there, forwards or back, so that the positions of many
    /// diagnostics on one long line (minified JSON) cost what lies between them, not the line
    /// up to each.
    last: std::cell::Cell<(usize, usize, usize)>,
    /// The characters before every [`CHECKPOINT`] bytes, for columns far into a long line.
    checkpoints: std::cell::OnceCell<Box<[usize]>>,
}

/// Columns further than [`FAR`] from the line's start and from the position asked before are
/// counted from checkpoints every this many bytes.
const CHECKPOINT: usize = 4096;
const FAR: usize = 2 * CHECKPOINT;

/// How many characters start in `bytes` (UTF-8: every byte but continuation bytes).
fn starts_of_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Some lines of a file, kept for output after the file itself is dropped: what a rendered
/// diagnostic shows of its source.
#[derive(Debug, Clone)]
pub struct Excerpt {
    pub path: Arc<Path>,
    /// (line number, byte offset of the line's start, the line without its line end), by line.
    lines: Box<[(usize, usize, Box<str>)]>,
}

impl Excerpt {
    /// Whether no line was kept.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The byte offset and text of line `n` (1-based), when it was kept.
    pub fn line(&self, n: usize) -> Option<(usize, &str)> {
        let i = self
            .lines
            .binary_search_by_key(&n, |(line, _, _)| *line)
            .ok()?;
        let (_, start, text) = &self.lines[i];
        Some((*start, text))
    }
}

/// Where the frontmatter and body lie in a file that has both.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// The opening `---` line (without its line end).
    pub open: Span,
    /// The YAML between the delimiter lines.
    pub frontmatter: Span,
    /// The closing `---` line (without its line end).
    pub close: Span,
    /// Everything after the closing `---` line.
    pub body: Span,
    /// The line number (1-based) of the first frontmatter line.
    pub frontmatter_line: usize,
}

/// Why a file has no usable frontmatter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutError {
    /// The file does not begin with `---`; `near` says what stands there instead.
    Missing(MissingHint),
    /// No closing `---` line; `dots` is a `...` line that was probably meant as one.
    Unclosed { open: Span, dots: Option<Span> },
}

/// What precedes or replaces the opening delimiter, for SK003's hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingHint {
    None,
    BlankLinesFirst(Span),
    WrongDashes(Span),
    TextFirst(Span),
}

impl SkillFile {
    pub fn new(path: impl Into<Arc<Path>>, text: String) -> SkillFile {
        SkillFile {
            path: path.into(),
            index: std::cell::OnceCell::new(),
            text,
            last: std::cell::Cell::new((0, 1, 1)),
            checkpoints: std::cell::OnceCell::new(),
        }
    }

    /// The file's line index.
    fn index(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex::new(&self.text))
    }

    /// Whether the file begins with a UTF-8 byte-order mark.
    pub fn has_bom(&self) -> bool {
        self.text.starts_with(BOM)
    }

    /// The number of lines in the file.
    pub fn line_count(&self) -> usize {
        self.index().len()
    }

    /// The byte span of line `n` (1-based), without its line end.
    pub fn line_span(&self, n: usize) -> Span {
        let start = n
            .checked_sub(1)
            .and_then(|n| self.index().start(n))
            .unwrap_or(self.text.len());
        let end = self
            .index()
            .start(n)
            .map_or(self.text.len(), |next| next.saturating_sub(1))
            .max(start);
        let line = &self.text[start..end];
        Span::new(start, start + line.trim_end_matches('\r').len())
    }

    /// The given lines (1-based, any order, repeats allowed) of the file, kept apart from it.
    pub fn excerpt(&self, lines: impl IntoIterator<Item = usize>) -> Excerpt {
        let mut numbers: Vec<usize> = lines
            .into_iter()
            .filter(|&n| n >= 1 && n <= self.line_count())
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        let lines = numbers
            .into_iter()
            .map(|n| {
                let span = self.line_span(n);
                (n, span.start, self.slice(span).into())
            })
            .collect();
        Excerpt {
            path: self.path.clone(),
            lines,
        }
    }

    /// The text of a span; empty when the span does not fit the file.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.index().line_of(offset) + 1
    }

    /// Resolves a byte span to lines and columns.
    pub fn region(&self, span: Span) -> Region {
        let start = self.clamp(span.start);
        let end = self.clamp(span.end.max(start));
        let (line, column) = self.position(start);
        let (end_line, end_column) = self.position(end);
        Region {
            line,
            column,
            end_line,
            end_column,
            offset: start,
            length: end - start,
        }
    }

    /// The nearest character boundary at or before `offset`.
    pub fn char_boundary(&self, offset: usize) -> usize {
        self.clamp(offset)
    }

    fn clamp(&self, mut offset: usize) -> usize {
        offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    fn position(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let (last_offset, last_line, last_column) = self.last.get();
        let line_start = self.index().start(line - 1).unwrap_or(0);
        let column = if last_line == line && last_offset <= offset && offset - last_offset < FAR {
            last_column + self.text[last_offset..offset].chars().count()
        } else if last_line == line && offset < last_offset && last_offset - offset < FAR {
            last_column - self.text[offset..last_offset].chars().count()
        } else if offset - line_start < FAR {
            self.text[line_start..offset].chars().count() + 1
        } else {
            // Far into a long line: counted from the checkpoints, in time that does not
            // grow with the line (positions asked out of order stay linear in all).
            self.chars_before(offset) - self.chars_before(line_start) + 1
        };
        self.last.set((offset, line, column));
        (line, column)
    }

    /// The characters before byte `offset` (a character boundary), from a table of the count
    /// at every [`CHECKPOINT`] bytes that is made the first time it is needed.
    fn chars_before(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let table = self.checkpoints.get_or_init(|| {
            let mut n = 0;
            std::iter::once(0)
                .chain(bytes.chunks(CHECKPOINT).map(|chunk| {
                    n += starts_of_chars(chunk);
                    n
                }))
                .collect()
        });
        let i = offset / CHECKPOINT;
        let from = (i * CHECKPOINT).min(bytes.len());
        table.get(i).copied().unwrap_or(0) + starts_of_chars(&bytes[from..offset.max(from)])
    }

    /// Splits the file into frontmatter and body.
    pub fn layout(&self) -> Result<Layout, LayoutError> {
        // The lines are walked in place, not through the line index: the frontmatter is the
        // first few lines of a file that may be long, and the index is built only when a
        // diagnostic asks for a line. Each line: its span without its line end (as
        // [`SkillFile::line_span`] has it), and where the next one starts.
        let mut at = 0;
        let mut lines = self.text.split_inclusive('\n').map(move |raw| {
            let start = at;
            at += raw.len();
            let line = raw.strip_suffix('\n').unwrap_or(raw);
            let end = start + line.trim_end_matches('\r').len();
            (Span::new(start, end), at)
        });
        let (first, second) = lines.next().unwrap_or((Span::new(0, 0), 0));
        let first_text = self
            .slice(first)
            .strip_prefix(BOM)
            .unwrap_or(self.slice(first));
        if !is_delimiter(first_text) {
            return Err(LayoutError::Missing(self.missing_hint()));
        }
        let mut dots = None;
        for (span, body_start) in lines {
            let text = self.slice(span);
            if is_delimiter(text) {
                let frontmatter = Span::new(second.min(span.start), span.start);
                return Ok(Layout {
                    open: first,
                    frontmatter,
                    close: span,
                    body: Span::new(body_start, self.text.len()),
                    frontmatter_line: 2,
                });
            }
            if dots.is_none() && text.trim_end() == "..." {
                dots = Some(span);
            }
        }
        Err(LayoutError::Unclosed { open: first, dots })
    }

    fn missing_hint(&self) -> MissingHint {
        let first = self.line_span(1);
        let first_text = self
            .slice(first)
            .strip_prefix(BOM)
            .unwrap_or(self.slice(first));
        if first_text.trim_end().starts_with("---") && first_text.trim_end().len() > 3 {
            return MissingHint::WrongDashes(first);
        }
        for n in 1..=self.line_count().min(200) {
            let span = self.line_span(n);
            let text = self.slice(span).trim_start_matches(BOM);
            if is_delimiter(text.trim_start()) {
                let before_blank = (1..n).all(|m| self.slice(self.line_span(m)).trim().is_empty());
                return if before_blank {
                    MissingHint::BlankLinesFirst(span)
                } else {
                    MissingHint::TextFirst(span)
                };
            }
        }
        MissingHint::None
    }
}

/// A frontmatter delimiter line: exactly `---`, trailing spaces, tabs and `\r` ignored.
fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches([' ', '\t', '\r']) == "---"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SkillFile {
        SkillFile::new(std::path::PathBuf::from("SKILL.md"), text.to_string())
    }

    /// Every column, asked in order, backwards and by jumps between the two ends of a line far
    /// longer than a checkpoint, is the count of characters before it on its line (plus one).
    #[test]
    fn columns_on_long_lines_are_exact_in_any_order() {
        let line = "ab é x\u{1F600}yz — ✓ ".repeat(2_000);
        let text = format!("first\n{line}\nlast é\n");
        let f = file(&text);
        let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let want = |offset: usize| {
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let line = 1 + text[..offset].matches('\n').count();
            (line, text[line_start..offset].chars().count() + 1)
        };
        let n = starts.len();
        let order = (0..n)
            .step_by(7)
            .chain((0..n).rev().step_by(13))
            .chain((0..n / 2).flat_map(|i| [i * 2 % n, n - 1 - i]).step_by(11))
            .chain([0, n - 1, n / 2, 1, n - 2]);
        for index in order {
            let offset = starts[index];
            assert_eq!(f.position(offset), want(offset), "offset {offset}");
        }
    }

    #[test]
    fn splits_lf_and_crlf() {
        for text in ["---\na: 1\n---\nbody\n", "---\r\na: 1\r\n---  \r\nbody\r\n"] {
            let f = file(text);
            let layout = f.layout().unwrap();
            assert_eq!(f.slice(layout.frontmatter).trim_end(), "a: 1");
            assert_eq!(f.slice(layout.body).trim_end(), "body");
        }
    }

    #[test]
    fn layout_spans_agree_with_the_line_index() {
        // Layout walks the lines itself; its spans are the index's lines.
        for text in [
            "---\n---",
            "---\n---\n",
            "\u{FEFF}---\na: 1\n---\nbody",
            "---\r\na: 1\r\n---\r\n\r\nbody\r\n",
            "---\na: 1\n...\nb: 2\n---\n",
        ] {
            let f = file(text);
            let layout = f.layout().unwrap();
            let close_line = f.line_of(layout.close.start);
            assert_eq!(layout.open, f.line_span(1), "{text:?}");
            assert_eq!(layout.close, f.line_span(close_line), "{text:?}");
            assert_eq!(layout.frontmatter.start, f.line_span(2).start, "{text:?}");
            assert_eq!(layout.frontmatter.end, layout.close.start, "{text:?}");
            let body = f.line_span(close_line + 1).start.min(text.len());
            let body = if close_line == f.line_count() {
                text.len()
            } else {
                body
            };
            assert_eq!(layout.body, Span::new(body, text.len()), "{text:?}");
        }
        for text in ["", "---", "---\na: 1\n...\n"] {
            assert!(file(text).layout().is_err(), "{text:?}");
        }
    }

    #[test]
    fn dashes_inside_values_do_not_close() {
        let f = file("---\ndescription: a --- b\n---\n");
        let layout = f.layout().unwrap();
        assert_eq!(f.slice(layout.frontmatter), "description: a --- b\n");
        assert!(layout.body.is_empty());
    }

    #[test]
    fn dots_do_not_close() {
        let f = file("---\na: 1\n...\nbody\n");
        assert!(matches!(
            f.layout(),
            Err(LayoutError::Unclosed { dots: Some(_), .. })
        ));
    }

    #[test]
    fn missing_hints() {
        assert!(matches!(
            file("\n---\na: 1\n---\n").layout(),
            Err(LayoutError::Missing(MissingHint::BlankLinesFirst(_)))
        ));
        assert!(matches!(
            file("----\na: 1\n----\n").layout(),
            Err(LayoutError::Missing(MissingHint::WrongDashes(_)))
        ));
        assert!(matches!(
            file("# Title\n---\na: 1\n---\n").layout(),
            Err(LayoutError::Missing(MissingHint::TextFirst(_)))
        ));
    }

    #[test]
    fn regions_count_characters() {
        let f = file("---\r\nd: é技<x>\r\n---\r\n");
        let start = f.text.find('<').unwrap();
        let r = f.region(Span::new(start, start + 3));
        assert_eq!((r.line, r.column, r.end_line, r.end_column), (2, 6, 2, 9));
    }

    /// Positions asked for in any order (forwards on one line, back, onto other lines) are
    /// those of a file that was asked nothing before.
    #[test]
    fn positions_do_not_depend_on_the_questions_before() {
        let text = "ab é技 x\n[{\"name\": \"é\"}, {\"name\": \"b\"}]\r\nz\n";
        let boundaries: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let f = file(text);
        let order = boundaries
            .iter()
            .chain(boundaries.iter().rev())
            .chain(boundaries.iter().step_by(3))
            .chain(boundaries.iter().rev().step_by(2));
        for &at in order {
            assert_eq!(f.position(at), file(text).position(at), "offset {at}");
        }
    }
}
