//! Links in a skill's Markdown, found with a CommonMark parser (so code spans, fenced and
//! indented code blocks, escapes and reference definitions are handled as renderers do).

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
    // Every inline link has `](` and every definition `]:`; most texts have neither, and a
    // substring search is far cheaper than parsing.
    if !text.contains("](") && !text.contains("]:") {
        return Vec::new();
    }
    let mut parser = Parser::new(text).into_offset_iter();
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
    let mut seen: Vec<Range<usize>> = Vec::new();
    for (id, dest) in &used {
        let def = defs
            .get(id)
            .filter(|d| d.dest.as_ref() == dest)
            .or_else(|| {
                defs.iter()
                    .map(|(_, d)| d)
                    .find(|d| d.dest.as_ref() == dest)
            });
        let Some(def) = def else { continue };
        if seen.contains(&def.span) {
            continue;
        }
        seen.push(def.span.clone());
        out.push(Link {
            dest: def.dest.to_string(),
            span: pin_definition(text, def.span.clone(), &def.dest),
        });
    }
    out.sort_by_key(|l| l.span.start);
    out
}

/// Narrows an inline link's range to its destination: the destination follows a `](` (the
/// last one whose destination reads as `dest`, so that brackets in the link text do not
/// mislead).
fn pin_inline(text: &str, range: Range<usize>, dest: &str) -> Range<usize> {
    let Some(link) = text.get(range.clone()) else {
        return range;
    };
    let mut end = link.len();
    while let Some(i) = link[..end].rfind("](") {
        if let Some(found) = destination(link, i + 2, false).filter(|r| reads_as(link, r, dest)) {
            return range.start + found.start..range.start + found.end;
        }
        end = i;
    }
    range
}

/// Narrows a reference definition's range to its destination (after the `]:`).
fn pin_definition(text: &str, range: Range<usize>, dest: &str) -> Range<usize> {
    let Some(def) = text.get(range.clone()) else {
        return range;
    };
    let mut from = 0;
    while let Some(i) = def[from..].find("]:") {
        let at = from + i + 2;
        if let Some(found) = destination(def, at, true).filter(|r| reads_as(def, r, dest)) {
            return range.start + found.start..range.start + found.end;
        }
        from = at;
    }
    range
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
}
