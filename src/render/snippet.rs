//! The source a `full` diagnostic shows: the kept lines its marks lie on, each cut to a window
//! around its marks, made safe to print, and the marks as byte ranges of that text — what
//! `annotate-snippets` lays out (display widths, tabs, multi-line spans).

use std::ops::Range;

use crate::diagnostic::Region;
use crate::source::Excerpt;

/// Lines longer than this (in characters) are shown as a window around their marks.
const MAX_LINE: usize = 120;
/// The most characters of one line handed to the renderer (which cuts it to the terminal's
/// width around the marks): what bounds the work on a long line (minified JSON).
const MAX_SHOWN: usize = 8 * MAX_LINE;
/// How many characters of a long line are shown before the first mark on it.
const BEFORE: usize = MAX_LINE / 3;
/// A mark to draw: where, its label, and whether it is the primary one.
pub struct Mark<'a> {
    pub region: Region,
    pub label: Option<&'a str>,
    pub primary: bool,
}

/// The text to show and, for each mark in order, its byte range in that text.
pub struct Shown {
    /// The first line's number.
    pub line: usize,
    pub text: String,
    pub ranges: Vec<Range<usize>>,
}

/// One line as shown: where it starts in the file and in the shown text, and its window.
struct Row<'a> {
    number: usize,
    /// The line in the file (without its line end); empty when it was not kept.
    text: &'a str,
    /// The byte offset of the line in the file.
    start: usize,
    /// The window of `text` shown, in bytes.
    window: Range<usize>,
    /// Where the window starts in the shown text (after any `...`).
    at: usize,
}

/// The source of a diagnostic whose marks lie in `file`'s kept lines; `None` when none of
/// their lines was kept.
pub fn shown(marks: &[Mark], file: &Excerpt) -> Option<Shown> {
    let ends: Vec<(usize, usize)> = marks.iter().map(|m| end_of(&m.region, file)).collect();
    let first = marks.iter().map(|m| m.region.line).min()?;
    let last = ends.iter().map(|&(line, _)| line).max()?;
    file.line(first)?;
    let mut rows: Vec<Row> = Vec::with_capacity(last - first + 1);
    let mut text = String::new();
    for number in first..=last {
        if number > first {
            text.push('\n');
        }
        let (start, line) = file.line(number).unwrap_or((0, ""));
        // The window opens a little before the first mark that starts on the line.
        let opens = marks
            .iter()
            .filter(|m| m.region.line == number)
            .map(|m| within(line, m.region.offset.saturating_sub(start)))
            .min()
            .unwrap_or(0);
        let from = line[..opens]
            .char_indices()
            .rev()
            .nth(BEFORE - 1)
            .map_or(0, |(i, _)| i);
        // It closes MAX_LINE characters on, or a little after the start of the last mark on
        // the line, and never more than MAX_SHOWN characters from where it opens.
        let closes = marks
            .iter()
            .filter(|m| m.region.line == number)
            .map(|m| within(line, m.region.offset.saturating_sub(start)))
            .max()
            .unwrap_or(0)
            .max(from);
        let shown = line[from..closes].chars().count() + BEFORE;
        let to = line[from..]
            .char_indices()
            .nth(shown.clamp(MAX_LINE, MAX_SHOWN))
            .map_or(line.len(), |(i, _)| from + i);
        if from > 0 {
            text.push_str("...");
        }
        let at = text.len();
        push_safe(&mut text, &line[from..to]);
        if to < line.len() {
            text.push_str("...");
        }
        rows.push(Row {
            number,
            text: line,
            start,
            window: from..to,
            at,
        });
    }
    let place = |line: usize, offset: usize| {
        let row = &rows[line - first];
        let at = within(row.text, offset.saturating_sub(row.start))
            .clamp(row.window.start, row.window.end);
        row.at + safe_len(&row.text[row.window.start..at])
    };
    let ranges = marks
        .iter()
        .zip(&ends)
        .map(|(m, &(end_line, end))| {
            let start = place(m.region.line, m.region.offset);
            let end = place(end_line, end);
            start..end.max(start)
        })
        .collect();
    Some(Shown {
        line: rows.first().map_or(first, |r| r.number),
        text,
        ranges,
    })
}

/// The line and byte offset in the file where a region ends: a region that ends at the start
/// of a line (it takes in the line end before it) ends on the line before, after its text.
fn end_of(region: &Region, file: &Excerpt) -> (usize, usize) {
    let end = region.offset + region.length;
    if region.end_line > region.line && region.end_column <= 1 {
        let line = region.end_line - 1;
        if let Some((start, text)) = file.line(line) {
            return (line, start + text.len());
        }
    }
    (region.end_line.max(region.line), end)
}

/// A byte offset into `line`, inside it and on a character boundary (regions come from rules:
/// none may split a character).
fn within(line: &str, at: usize) -> usize {
    let mut at = at.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `text` as the renderer may print it: every control character but the tab (which the
/// renderer expands) as its control picture, and C1 controls and bidirectional marks as `�`
/// ([`super::printable`]), so no line of a skill can drive the terminal.
fn push_safe(out: &mut String, text: &str) {
    for c in text.chars() {
        out.push(safe(c));
    }
}

fn safe_len(text: &str) -> usize {
    text.chars().map(|c| safe(c).len_utf8()).sum()
}

fn safe(c: char) -> char {
    if c == '\t' {
        return c;
    }
    let mut buf = [0u8; 4];
    super::printable(c.encode_utf8(&mut buf))
        .chars()
        .next()
        .unwrap_or('\u{fffd}')
}

#[cfg(test)]
mod tests {
    use super::{Mark, shown};
    use crate::diagnostic::Span;
    use crate::source::SkillFile;

    /// The shown text and the text each mark covers in it, for marks at `spans` of `text`.
    fn marked(text: &str, spans: &[(usize, usize)]) -> (String, Vec<String>) {
        let file = SkillFile::new(std::path::Path::new("SKILL.md"), text.to_string());
        let marks: Vec<Mark> = spans
            .iter()
            .map(|&(start, end)| Mark {
                region: file.region(Span::new(start, end)),
                label: None,
                primary: true,
            })
            .collect();
        let lines = marks.iter().flat_map(|m| m.region.shown_lines());
        let shown = shown(&marks, &file.excerpt(lines)).unwrap();
        let covered = shown
            .ranges
            .iter()
            .map(|r| shown.text[r.clone()].to_string());
        (shown.text.clone(), covered.collect())
    }

    #[test]
    fn marks_cover_their_text_after_wide_characters_and_tabs() {
        let text = "# T\n请先阅读[指南](references/guide.md)\n🎉\ta\u{9b}b [x](y.md)\n";
        let at = text.find("references").unwrap();
        let (_, covered) = marked(text, &[(at, at + 19)]);
        assert_eq!(covered, ["references/guide.md"]);
        let at = text.find("y.md").unwrap();
        let (shown, covered) = marked(text, &[(at, at + 4)]);
        // The tab is left to the renderer; a C1 control cannot reach the terminal.
        assert_eq!(shown, "🎉\ta\u{fffd}b [x](y.md)");
        assert_eq!(covered, ["y.md"]);
    }

    #[test]
    fn a_span_over_lines_keeps_its_first_and_last_lines() {
        let text: String = (1..=12).map(|n| format!("line {n}\n")).collect();
        let end = text.find("line 12").unwrap() + 7;
        let (shown, covered) = marked(&text, &[(0, end)]);
        assert!(shown.starts_with("line 1\nline 2\nline 3\nline 4\nline 5\n"));
        assert!(shown.ends_with("\nline 11\nline 12"));
        // The lines the renderer folds away are not kept.
        assert!(!shown.contains("line 8"));
        assert!(covered[0].starts_with("line 1\n") && covered[0].ends_with("line 12"));
    }

    #[test]
    fn a_long_line_is_cut_around_its_marks() {
        let text = format!("{}[x](y.md){}\n", "a".repeat(5000), "b".repeat(5000));
        let at = text.find("y.md").unwrap();
        let (shown, covered) = marked(&text, &[(at, at + 4)]);
        assert_eq!(covered, ["y.md"]);
        assert!(shown.starts_with("...") && shown.ends_with("...") && shown.len() < 200);
    }
}
