//! Links in a skill's Markdown, found with a CommonMark parser (so code spans, fenced and
//! indented code blocks, escapes and reference definitions are handled as renderers do).

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Parser, Tag};

/// A link or image destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The destination as written (after Markdown unescaping).
    pub dest: String,
    /// Byte range of the destination as written (or of the whole link when it cannot be
    /// pinned) in the text.
    pub span: Range<usize>,
}

/// Every inline link and image of `text`, and every reference definition that a link uses
/// (once, at the definition), in source order. Definitions no link uses are not links: a
/// renderer never shows them.
pub fn links(text: &str) -> Vec<Link> {
    let Some(end) = parsed_end(text) else {
        return Vec::new();
    };
    let mut parser = Parser::new(&text[..end]).into_offset_iter();
    let mut out = Vec::new();
    let mut used: Vec<(String, String)> = Vec::new();
    for (event, range) in parser.by_ref() {
        let (link_type, dest, id) = match &event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                id,
                ..
            })
            | Event::Start(Tag::Image {
                link_type,
                dest_url,
                id,
                ..
            }) => (*link_type, dest_url, id),
            _ => continue,
        };
        match link_type {
            LinkType::Inline => out.push(Link {
                dest: dest.to_string(),
                span: pin_inline(text, range, dest),
            }),
            LinkType::Reference | LinkType::Collapsed | LinkType::Shortcut => {
                used.push((id.to_string(), dest.to_string()));
            }
            // Autolinks are URLs; unknown references have no destination.
            _ => {}
        }
    }
    let defs = parser.reference_definitions();
    // Definitions by destination, built once when a link's label does not find its own.
    let mut by_dest: Option<HashMap<&str, Range<usize>>> = None;
    let mut seen: HashSet<usize> = HashSet::new();
    for (id, dest) in &used {
        let span = match defs.get(id).filter(|d| d.dest.as_ref() == dest) {
            Some(def) => def.span.clone(),
            None => {
                let map = by_dest.get_or_insert_with(|| {
                    let mut map: HashMap<&str, Range<usize>> = HashMap::new();
                    for (_, def) in defs.iter() {
                        let first = map.entry(def.dest.as_ref()).or_insert(def.span.clone());
                        if def.span.start < first.start {
                            *first = def.span.clone();
                        }
                    }
                    map
                });
                let Some(span) = map.get(dest.as_str()) else {
                    continue;
                };
                span.clone()
            }
        };
        if !seen.insert(span.start) {
            continue;
        }
        out.push(Link {
            dest: dest.clone(),
            span: pin_definition(text, span, dest),
        });
    }
    out.sort_by_key(|l| l.span.start);
    out
}

/// How much of `text` holds every link: `None` when no link can be in it, else up to the
/// blank line that ends the paragraph of the last `](` (inline links have it; a substring
/// search is far cheaper than parsing). A block's inline content never runs past a blank line,
/// and nothing after a block changes how the text before it parses, except a reference
/// definition (`]:`) for the links that use it: a text with one is parsed whole. A blank
/// line inside a code block or an HTML comment cuts that block short, which changes nothing
/// before it either.
fn parsed_end(text: &str) -> Option<usize> {
    // `]` is rare in prose: each is found with SIMD and the byte after it read.
    let bytes = text.as_bytes();
    let mut last = None;
    for i in memchr::memchr_iter(b']', bytes) {
        match bytes.get(i + 1) {
            Some(b':') => return Some(text.len()),
            Some(b'(') => last = Some(i),
            _ => {}
        }
    }
    let mut at = last?;
    while let Some(newline) = memchr::memchr(b'\n', &text.as_bytes()[at..]) {
        let line_start = at + newline + 1;
        let line_end = memchr::memchr(b'\n', &text.as_bytes()[line_start..])
            .map_or(text.len(), |i| line_start + i);
        if text[line_start..line_end]
            .bytes()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r'))
        {
            return Some(line_end);
        }
        at = line_end;
    }
    Some(text.len())
}

/// How much reading a link's or definition's candidate destinations may cost, in bytes per
/// byte of the link (and a little more for short ones): a candidate costs twice the bytes from
/// its `](` or `]:` to the end of its destination (read, then compared), or to the end of the
/// link when it has none.
const PIN_WORK_PER_BYTE: usize = 4;
const PIN_WORK_MIN: usize = 256;

/// Narrows an inline link's range to its destination: the destination follows a `](` (the
/// last one whose destination reads as `dest`, so that brackets in the link text do not
/// mislead). The `](` are tried from the end, within a budget linear in the link's length
/// (only a destination that does not read back as written, such as one with an entity, has them
/// all tried); the whole link when none fits.
fn pin_inline(text: &str, range: Range<usize>, dest: &str) -> Range<usize> {
    let Some(link) = text.get(range.clone()) else {
        return range;
    };
    let mut budget = pin_budget(link);
    let mut end = link.len();
    while let Some(i) = link[..end].rfind("](") {
        match try_pin(link, i + 2, false, dest, &mut budget) {
            Some(Ok(found)) => return range.start + found.start..range.start + found.end,
            Some(Err(())) => end = i,
            None => break,
        }
    }
    range
}

/// Narrows a reference definition's range to its destination (after the first `]:` whose
/// destination reads as `dest`, within the same budget as [`pin_inline`]).
fn pin_definition(text: &str, range: Range<usize>, dest: &str) -> Range<usize> {
    let Some(def) = text.get(range.clone()) else {
        return range;
    };
    let mut budget = pin_budget(def);
    let mut from = 0;
    while let Some(i) = def[from..].find("]:") {
        let at = from + i + 2;
        match try_pin(def, at, true, dest, &mut budget) {
            Some(Ok(found)) => return range.start + found.start..range.start + found.end,
            Some(Err(())) => from = at,
            None => break,
        }
    }
    range
}

fn pin_budget(text: &str) -> usize {
    text.len()
        .saturating_mul(PIN_WORK_PER_BYTE)
        .saturating_add(PIN_WORK_MIN)
}

/// The destination after the marker ending at `at` when it reads as `dest` (`Ok`), another
/// (`Err`), or `None` once the budget is spent.
fn try_pin(
    text: &str,
    at: usize,
    definition: bool,
    dest: &str,
    budget: &mut usize,
) -> Option<Result<Range<usize>, ()>> {
    let found = destination(text, at, definition);
    // Nothing found may have cost a search to the end (an unclosed `<`).
    let read = found.as_ref().map_or(text.len(), |r| r.end) - at;
    let cost = read * 2 + 2;
    *budget = budget.checked_sub(cost)?;
    match found {
        Some(r) if reads_as(text, &r, dest) => Some(Ok(r)),
        _ => Some(Err(())),
    }
}

/// The raw destination starting at `at` (after `](` or `]:`): spaces (and, for a definition,
/// one line break) skipped, then `<…>` or a run without spaces and with balanced parentheses.
fn destination(text: &str, at: usize, definition: bool) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut i = at;
    let mut newline = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' => i += 1,
            b'\r' | b'\n' if definition && !newline => {
                newline = true;
                i += 1;
            }
            _ => break,
        }
    }
    if bytes.get(i) == Some(&b'<') {
        let start = i + 1;
        let len = text[start..].find(['>', '\n'])?;
        return Some(start..start + len);
    }
    let start = i;
    let mut depth = 0usize;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' if bytes.get(i + 1).is_some_and(|c| c.is_ascii_punctuation()) => i += 2,
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' if depth == 0 => break,
            b')' => {
                depth -= 1;
                i += 1;
            }
            b if b.is_ascii_whitespace() || b.is_ascii_control() => break,
            _ => i += 1,
        }
    }
    (i > start).then_some(start..i)
}

/// Whether the raw text at `range` reads as `dest` once backslash escapes are removed.
fn reads_as(text: &str, range: &Range<usize>, dest: &str) -> bool {
    let Some(raw) = text.get(range.clone()) else {
        return false;
    };
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&next) = chars.peek()
            && next.is_ascii_punctuation()
        {
            out.push(next);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out == dest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_images_and_used_definitions_but_not_code() {
        let body = "See [a](references/a.md) and ![img](assets/x.png \"t\").\n\
                    `[no](code.md)` and [ref][r], [again][R].\n\n```\n[no](fenced.md)\n```\n\n    [no](indented.md)\n\n\
                    [r]: references/r.md\n[unused]: references/unused.md\n<https://example.com>\n";
        let all = links(body);
        let found: Vec<&str> = all.iter().map(|l| l.dest.as_str()).collect();
        assert_eq!(
            found,
            ["references/a.md", "assets/x.png", "references/r.md"]
        );
        for link in &all {
            assert_eq!(&body[link.span.clone()], link.dest);
        }
    }

    #[test]
    fn parses_up_to_the_paragraph_of_the_last_inline_link() {
        // The paragraph goes on past the link's line (a title on the next line); the blank
        // line after it ends the parse.
        let body = "# T\n\n[a](a.md\n\"t\") and\n[b](b.md) more\n \t\r\n[no link]\n";
        assert_eq!(parsed_end(body), Some(body.find(" \t\r\n").unwrap() + 3));
        let found: Vec<String> = links(body).into_iter().map(|l| l.dest).collect();
        assert_eq!(found, ["a.md", "b.md"]);
        // The last `](` is in a fence: the cut leaves the fence open, which changes nothing
        // before it.
        let body = "[a](a.md)\n\n```\n[b](b.md)\n\n```\n";
        assert_eq!(parsed_end(body), Some(body.rfind("\n\n").unwrap() + 1));
        let found: Vec<String> = links(body).into_iter().map(|l| l.dest).collect();
        assert_eq!(found, ["a.md"]);
        // No blank line after the last link, or no line break at all: the whole text.
        assert_eq!(parsed_end("x\n[a](a.md)\nmore"), Some(16));
        assert_eq!(parsed_end("[a](a.md)\r\r"), Some(11));
        // A definition, wherever it is, may serve a link before the cut: the whole text.
        let body = "[a](a.md)\n\n[r]\n\nmore\n\n[r]: r.md\n";
        assert_eq!(parsed_end(body), Some(body.len()));
        let found: Vec<String> = links(body).into_iter().map(|l| l.dest).collect();
        assert_eq!(found, ["a.md", "r.md"]);
        assert_eq!(parsed_end("no links [here]"), None);
    }

    #[test]
    fn pins_escaped_bracketed_and_nested_destinations() {
        let body = "[a](refs\\\\api.md) [b](<my file.md> \"t\") [![i](x.png)](y.md) [c](a(b).md)\n\n[d]\n\n[d]:\n  <z.md>\n";
        let all = links(body);
        let spans: Vec<&str> = all.iter().map(|l| &body[l.span.clone()]).collect();
        assert_eq!(
            spans,
            [
                "refs\\\\api.md",
                "my file.md",
                "x.png",
                "y.md",
                "a(b).md",
                "z.md"
            ]
        );
        assert_eq!(all[0].dest, "refs\\api.md");
    }

    #[test]
    fn pins_in_linear_time_whatever_the_link_text_holds() {
        // A code span full of `](` (or `](<`) and a destination that does not read back as
        // written (an entity): every `](` used to be tried, each at the cost of the rest of the
        // link (hours for these). The link is then shown whole.
        for piece in ["](a", "](<"] {
            let body = format!("[`{}`](x&amp;y) [ok](a.md)\n", piece.repeat(300_000));
            let all = links(&body);
            assert_eq!(all.len(), 2);
            assert_eq!(all[0].dest, "x&y");
            assert_eq!(all[0].span, 0..body.find(" [ok]").unwrap());
            assert_eq!(&body[all[1].span.clone()], "a.md");
        }
        // A title with `](` in it still leaves the destination found.
        let body = format!("[a](b.md \"{}\")", "see [x](y) ".repeat(12));
        assert_eq!(&body[links(&body)[0].span.clone()], "b.md");
        // Many reference links, each to a definition of its own (each used to be compared with
        // every definition already found).
        let mut refs: String = (0..40_000).map(|i| format!("[a][{i}]\n")).collect();
        refs.push('\n');
        refs.extend((0..40_000).map(|i| format!("[{i}]: #d{i}\n")));
        let all = links(&refs);
        assert_eq!(all.len(), 40_000);
        assert_eq!(&refs[all[39_999].span.clone()], "#d39999");
    }
}
