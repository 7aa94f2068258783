//! Links in a skill's Markdown body, found with a CommonMark parser (so code spans, fenced and
//! indented code blocks, escapes and reference definitions are handled as renderers do).

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Parser, Tag};

/// A link or image destination in the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The destination as written (after Markdown unescaping).
    pub dest: String,
    /// Byte range of the destination (or of the whole link when it cannot be pinned) in the body.
    pub span: Range<usize>,
}

/// Every inline link, image and reference definition of `body`, in source order.
pub fn links(body: &str) -> Vec<Link> {
    // Every inline link has `](` and every definition `]:`; most bodies have neither, and a
    // substring search is far cheaper than parsing.
    if !body.contains("](") && !body.contains("]:") {
        return Vec::new();
    }
    let mut parser = Parser::new(body).into_offset_iter();
    let mut out = Vec::new();
    for (event, range) in parser.by_ref() {
        let (link_type, dest) = match &event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            })
            | Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => (*link_type, dest_url),
            _ => continue,
        };
        // Reference links are reported at their definition; autolinks are URLs.
        if matches!(link_type, LinkType::Inline) {
            out.push(Link {
                dest: dest.to_string(),
                span: pin(body, range, dest),
            });
        }
    }
    for (_, def) in parser.reference_definitions().iter() {
        out.push(Link {
            dest: def.dest.to_string(),
            span: pin(body, def.span.clone(), &def.dest),
        });
    }
    out.sort_by_key(|l| l.span.start);
    out
}

/// Narrows a link's range to its destination when the destination appears in it as written.
fn pin(body: &str, range: Range<usize>, dest: &str) -> Range<usize> {
    let Some(text) = body.get(range.clone()) else {
        return range;
    };
    if dest.is_empty() {
        return range;
    }
    // The destination follows the last `](` (inline) or the `]:` (definition).
    let from = text
        .rfind("](")
        .or_else(|| text.find("]:"))
        .map_or(0, |i| i + 2);
    match text[from..].find(dest) {
        Some(i) => range.start + from + i..range.start + from + i + dest.len(),
        None => range,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_links_images_and_definitions_but_not_code() {
        let body = "See [a](references/a.md) and ![img](assets/x.png \"t\").\n\
                    `[no](code.md)` and [ref][r].\n\n```\n[no](fenced.md)\n```\n\n    [no](indented.md)\n\n\
                    [r]: references/r.md\n<https://example.com>\n";
        let all = links(body);
        let found: Vec<&str> = all.iter().map(|l| l.dest.as_str()).collect();
        assert_eq!(
            found,
            ["references/a.md", "assets/x.png", "references/r.md"]
        );
        let first = &all[0];
        assert_eq!(&body[first.span.clone()], "references/a.md");
    }
}
