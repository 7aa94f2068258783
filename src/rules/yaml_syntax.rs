//! YAML syntax rules for both dialects: SK006 (invalid YAML, with its hints and the fixes that
//! quote a value), SK008–SK010 (what the YAML tree builder noticed), and the writing of YAML
//! values in place that the fixes of other rules share.

use crate::diagnostic::Span;
use crate::fix::{Applicability, Fix};
use crate::skill::Reporter;
use crate::source::SkillFile;
use crate::yaml::{self, Finding, Value};

crate::rule::declare! {
    SK006 "yaml-syntax" Error Both
        unsuppressible
        needs(frontmatter)
        stops(fields)
        tags(form)
        fix(safe "quote a one-line plain value that holds `: ` or begins with an indicator (`key: Use when: x`, `key: [draft] x`, `key: *bold* x`), in the quote style that needs no escapes where one does, and only when the quoted value reads back as exactly the text written. No fix where quoting may not be what was meant or not all that is wrong: a value holding ` #`, a block indicator (`|`, `>`), a value that goes on over the next lines, a flow collection (`{a: b: c}`), an anchor, alias or tag (`&a x`, `*a`, `!!int 4`), a key in quotes; a double-quoted value none of whose `\\` starts an escape (`\"C:\\data\"`) is single-quoted as written (`'C:\\data'`). No fix for a value holding NEL, LS or PS (line breaks to YAML 1.1 loaders such as PyYAML, text to YAML 1.2), nor for one mixing escapes and non-escapes (`\"C:\\new\\data\"`); a fix is offered only when the frontmatter then parses past its line")
        "The frontmatter is not valid YAML.";
    SK008 "duplicate-key" Error Both
        needs(fields)
        tags(form)
        "A key appears twice in one mapping.";
    SK009 "yaml-non-portable" Warning Both
        needs(fields)
        tags(form)
        "The frontmatter uses YAML features that strict or simple loaders reject.";
    SK010 "yaml-1-1-ambiguity" Warning Both
        needs(fields)
        tags(form)
        fix(safe retypes "quote a number that loses digits (`1.10` → `\"1.10\"`, `010` → `\"010\"`)")
        fix(unsafe retypes "quote `yes`/`no`/`on`/`off`/`y`/`n` (text or boolean: a guess); `~` has no fix")
        "A plain scalar that YAML 1.1 loaders read as a boolean, null or a different number.";
    SK020 "comment-cut-value" Warning Both
        needs(fields)
        tags(form)
        "A plain value that YAML ends at ` #`: the rest of its line became a comment.";
    SK021 "escape-in-quoted-value" Warning Both
        needs(fields)
        tags(form)
        "A double-quoted path whose `\\` escapes turn it into control characters.";
}

/// SK006: the frontmatter (at `frontmatter`) is not valid YAML.
pub fn yaml_syntax(
    file: &SkillFile,
    frontmatter: Span,
    err: &yaml::SyntaxError,
    out: &mut Reporter,
) {
    let hint = yaml_hint(file, err);
    let d = out.emit(
        &SK006,
        Some(err.span),
        format!("invalid YAML: {}", err.message),
    );
    d.label("here");
    if let Some((help, fix)) = hint {
        d.help(help);
        if let Some(fix) = fix.filter(|fix| fixes_the_line(file, frontmatter, fix)) {
            d.fix(fix);
        }
    }
}

/// Whether the frontmatter (at `frontmatter`) with `fix` made parses, or stops on a later line
/// than the one fixed: the line read alone may not be the whole story (a `{…}` mapping around
/// it, a broken key), and a fix that does not fix is none.
fn fixes_the_line(file: &SkillFile, frontmatter: Span, fix: &Fix) -> bool {
    let [edit] = fix.edits.as_slice() else {
        return false;
    };
    let (Some(before), Some(after)) = (
        file.text.get(frontmatter.start..edit.span.start),
        file.text.get(edit.span.end..frontmatter.end),
    ) else {
        return false;
    };
    let text = format!("{before}{}{after}", edit.content);
    let line = |offset: usize| text.get(..offset).map_or(0, |t| t.matches('\n').count());
    match yaml::parse(&text, 0) {
        Ok(_) => true,
        Err(e) => line(e.span.start) > line(before.len()),
    }
}

/// Characters that cannot begin a plain value where the YAML parser stopped: the indicators of
/// rules.md, and quotes (a value that opens with a quoted word and goes on after it).
const VALUE_INDICATORS: [char; 13] = [
    '*', '&', '!', '-', '|', '>', '@', '`', '%', '[', '{', '"', '\'',
];

/// SK006's hint for the line the parser stopped on: tabs, a plain value that begins with an
/// indicator, or a value holding `: `; with the fix that quotes the value, when quoting it
/// certainly gives the text written.
fn yaml_hint(file: &SkillFile, err: &yaml::SyntaxError) -> Option<(String, Option<Fix>)> {
    let line_no = file.line_of(err.span.start);
    let line_span = file.line_span(line_no);
    let line = file.slice(line_span).trim_end_matches(['\r', '\n']);
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    if indent.contains('\t') || err.message.contains("tab") {
        return Some((
            "indent with spaces: YAML does not allow tabs for indentation".to_string(),
            None,
        ));
    }
    let (key, rest) = body.split_once(": ")?;
    // A key that begins with an indicator (`>escription:`) is what is broken, not the value.
    if key.starts_with([
        '*', '&', '!', '|', '>', '@', '`', '%', '[', '{', '?', ',', ']', '}', '#',
    ]) || (key.starts_with('-') && !key.starts_with("- "))
    {
        return None;
    }
    // YAML's white space is spaces and tabs: a no-break space is text.
    let value = rest.trim_matches([' ', '\t']);
    let value_start = line_span.start
        + indent.len()
        + key.len()
        + 2
        + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    if err.message.contains("while parsing a quoted scalar") && err.message.contains("escape") {
        return escape_hint(
            key,
            Span::new(value_start, value_start + value.len()),
            value,
        );
    }
    // A line break to YAML 1.1 loaders (PyYAML), text to YAML 1.2: the two read different
    // keys, and quoting would keep only YAML 1.2's reading.
    if let Some(c) = value.chars().find(|c| YAML11_BREAKS.contains(c)) {
        return Some((
            format!(
                "remove the U+{:04X} in the value of `{key}`, or replace it with a space: YAML 1.1 loaders (PyYAML) read it as a line break, YAML 1.2 loaders as text",
                u32::from(c)
            ),
            None,
        ));
    }
    let indicator = value.starts_with(VALUE_INDICATORS);
    let colon = err.message.contains("mapping values are not allowed");
    if key.is_empty() || value.is_empty() || !(indicator || colon) {
        return None;
    }
    if let Some(start) = continued_from(file, line_no, indent.len()) {
        return colon.then(|| {
            (
                format!(
                    "quote the value that begins on line {start}: a plain value cannot hold `: `"
                ),
                None,
            )
        });
    }
    // `key: a: b` is the value's own `: `; without one, the error is about something else
    // (text before the line, say), and quoting this value would not help.
    if colon && !indicator && !value.contains(": ") {
        return None;
    }
    let fixed = format!("`{key}: {}`", quoted(value));
    if value.starts_with(['|', '>']) {
        // A block of text may be what was meant: no fix can tell.
        let block = &value[..1];
        return Some((
            format!(
                "quote the value: {fixed} (or, for a block of text, write `{key}: {block}` and the text on the lines below it, indented)"
            ),
            None,
        ));
    }
    // No fix where quoting may not be what was meant, or may not be all that is wrong: a key
    // in quotes (its `: ` may be the one split on), a flow collection (`{a: b: c}` was meant
    // as one), an anchor, alias or tag (`&a x`, `*a`, `!!int 4`), a value that goes on below.
    let judgment = key.starts_with(['"', '\''])
        || is_flow_collection(value)
        || is_node_property(value)
        || continues_below(file, line_no, indent.len());
    let fix = if judgment {
        None
    } else {
        quote_fix(Span::new(value_start, value_start + value.len()), value)
    };
    Some((format!("quote the value: {fixed}"), fix))
}

/// NEL, LS and PS: line breaks to YAML 1.1 (PyYAML reads `a\u{85}b: c` as two lines), text
/// to YAML 1.2. A fix never rewrites a value holding one: no rewriting keeps both readings.
pub(super) const YAML11_BREAKS: [char; 3] = ['\u{85}', '\u{2028}', '\u{2029}'];

/// The escapes of a double-quoted YAML scalar: `\` and a character from this list (`x`, `u`
/// and `U` then take hexadecimal digits).
const ESCAPES: &str = "0abt\tnvfre \"/\\N_LPxuU";

/// SK006's hint for a double-quoted value (`value`, at `span`) holding a `\` that starts no
/// escape (`"C:\data"`). When no `\` of it starts one, the author evidently meant each `\` as
/// itself: the safe fix writes that text single-quoted. When some do (`"C:\new\data"`), which
/// were meant is a guess: no fix.
fn escape_hint(key: &str, span: Span, value: &str) -> Option<(String, Option<Fix>)> {
    let inner = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .filter(|_| value.len() >= 2)?;
    let mut decoded = None;
    let mut invalid = None;
    let mut chars = inner.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            continue;
        }
        let &(_, next) = chars.peek()?;
        let digits = match next {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => 0,
        };
        let hex = inner.get(at + 2..).is_some_and(|rest| {
            rest.len() >= digits && rest.bytes().take(digits).all(|b| b.is_ascii_hexdigit())
        });
        if ESCAPES.contains(next) && hex {
            decoded.get_or_insert(at);
        } else {
            invalid.get_or_insert(at);
        }
        chars.next();
    }
    let at = invalid?;
    let shown: String = inner[at..].chars().take(2).collect();
    let literal = quoted(inner);
    let help = format!(
        "`{shown}` is no escape in double quotes: write the value in single quotes, where `\\` is itself (`{key}: {literal}`), or write `\\\\` for each `\\`"
    );
    // Quotes inside (the scalar ended before) or characters YAML 1.1 reads otherwise: no fix.
    let fix = (decoded.is_none()
        && !inner.contains('"')
        && !inner.contains(YAML11_BREAKS)
        && !key.starts_with(['"', '\''])
        && reads_as_text(&literal, inner))
    .then(|| Fix::replace(Applicability::Safe, "single-quote the value", span, literal));
    Some((help, fix))
}

/// Whether the scalar at `span` of the file `text` is written there bare: not behind an anchor
/// or a tag (`&a 1.10`, `!!str 1`), not an alias resolved to a node written elsewhere — what
/// precedes it on its line is a key's `:`, a list's `-`, or a flow collection's `[`, `{`, `,`.
/// Only such a scalar can be rewritten in place without changing another value.
pub(super) fn bare_scalar_at(text: &str, span: Span) -> bool {
    let Some(written) = text.get(span.start..span.end) else {
        return false;
    };
    // The last character before it on its line, past spaces: found without walking back to
    // the line's start (a flow list of thousands of items is one line).
    let before = text.as_bytes()[..span.start]
        .iter()
        .rev()
        .find(|&&b| b != b' ' && b != b'\t');
    !written.starts_with(['&', '!', '*'])
        && before.is_some_and(|b| matches!(b, b':' | b'-' | b'[' | b'{' | b','))
}

/// The bytes to replace to write another value in place of the scalar at `span` of the file
/// `text`. A scalar's span is its content: for a block scalar (`|`, `>-`) its header on the
/// line above is taken too, and the line breaks it ends with are not — they end its line, and
/// what follows (a comment, the next key) stays on a line of its own. `None` when the scalar
/// cannot be rewritten in place without changing something else: it is not bare
/// ([`bare_scalar_at`]: an anchor an alias may use, a tag, an alias), or it is a block scalar
/// whose header holds a comment.
pub(super) fn rewritable_scalar(text: &str, span: Span) -> Option<Span> {
    let written = text.get(span.start..span.end)?;
    let end = span.start + written.trim_end_matches([' ', '\t', '\r', '\n']).len();
    if bare_scalar_at(text, span) {
        return Some(Span::new(span.start, end));
    }
    let above = text
        .get(..span.start)?
        .trim_end_matches([' ', '\t', '\r', '\n']);
    let line_start = above.rfind('\n').map_or(0, |i| i + 1);
    let header_at = above
        .get(line_start..)?
        .rfind([' ', '\t'])
        .map_or(line_start, |i| line_start + i + 1);
    let header = above.get(header_at..)?;
    let is_header = header.starts_with(['|', '>'])
        && header[1..]
            .chars()
            .all(|c| c.is_ascii_digit() || c == '+' || c == '-');
    (is_header && bare_scalar_at(text, Span::new(header_at, above.len())))
        // An empty block scalar ends with its header.
        .then(|| Span::new(header_at, if end > span.start { end } else { above.len() }))
}

/// Where to write a plain scalar in place of the value at `span` of `text`, and what to write
/// before it: saphyr rejects a plain scalar after a tab (`key:<tab>value`), and YAML 1.1 loaders
/// (PyYAML) a tab there at all, so a separator that holds a tab becomes one space.
pub(super) fn plain_in_place(text: &str, span: Span) -> (Span, &'static str) {
    let Some(before) = text.get(..span.start) else {
        return (span, "");
    };
    let gap_start = before.trim_end_matches([' ', '\t']).len();
    let after_indicator = before[..gap_start].ends_with([':', '-', '[', '{', ',']);
    if after_indicator && before[gap_start..].contains('\t') {
        (Span::new(gap_start, span.end), " ")
    } else {
        (span, "")
    }
}

/// `[…]` or `{…}` whole: a flow collection, however broken.
fn is_flow_collection(value: &str) -> bool {
    (value.starts_with('[') && value.ends_with(']'))
        || (value.starts_with('{') && value.ends_with('}'))
}

/// A value that begins with an anchor (`&a`), a tag (`!x`) or is an alias (`*a`); not
/// Markdown emphasis (`*bold* text`).
fn is_node_property(value: &str) -> bool {
    let first = value.split([' ', '\t']).next().unwrap_or(value);
    value.starts_with(['&', '!']) || (first.starts_with('*') && !first[1..].contains('*'))
}

/// Whether the plain value on line `line_no` (of a key indented by `indent`) goes on below:
/// the next line that is not blank or a comment is indented more.
fn continues_below(file: &SkillFile, line_no: usize, indent: usize) -> bool {
    let mut n = line_no + 1;
    while n <= file.line_count() {
        let text = file.slice(file.line_span(n));
        let body = text.trim_start_matches([' ', '\t']);
        let blank = body.trim().is_empty() || body.starts_with('#');
        if !blank {
            return text.len() - body.len() > indent;
        }
        n += 1;
    }
    false
}

/// The safe fix that writes the plain value `value` (at `span`) quoted, when the quoted form
/// reads back as exactly the text written: not when a ` #` in it may start a comment that the
/// author meant to keep out of the value.
fn quote_fix(span: Span, value: &str) -> Option<Fix> {
    if value.contains(" #") || value.contains('\t') {
        return None;
    }
    // A value that reads as it is is not what the parser stopped at (and quoting it again
    // would never end).
    if yaml::parse(&format!("k: {value}\n"), 0).is_ok() {
        return None;
    }
    let quoted = quoted(value);
    reads_as_text(&quoted, value)
        .then(|| Fix::replace(Applicability::Safe, "quote the value", span, quoted))
}

/// Whether `written`, as the value of a key, reads as exactly the text `text`.
pub(super) fn reads_as_text(written: &str, text: &str) -> bool {
    yaml::parse(&format!("k: {written}\n"), 0)
        .ok()
        .and_then(|doc| doc.root)
        .and_then(|root| match root.get("k").map(|(_, v)| &v.value) {
            Some(Value::Str(read)) => Some(read == text),
            _ => None,
        })
        .unwrap_or(false)
}

/// The line a multi-line plain value began on, when line `line_no` (indented by `indent`)
/// continues it rather than starting a `key: value` of its own: the nearest line above that is
/// indented less is a `key: value` whose value goes on.
fn continued_from(file: &SkillFile, line_no: usize, indent: usize) -> Option<usize> {
    if indent == 0 {
        return None;
    }
    let (n, body) = (1..line_no).rev().find_map(|n| {
        let text = file.slice(file.line_span(n));
        let body = text.trim_start();
        let blank = body.trim().is_empty() || body.starts_with('#');
        (!blank && text.len() - body.len() < indent).then_some((n, body))
    })?;
    let value = body.split_once(':').map(|(_, v)| v.trim())?;
    (!value.is_empty() && !value.starts_with(['|', '>', '#'])).then_some(n)
}

/// `text` as a YAML value: plain when a YAML loader reads it back as this very text, else
/// [`quoted`].
pub(super) fn plain_or_quoted(text: &str) -> String {
    let plain = !text.is_empty()
        && text.trim() == text
        && !text.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ])
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.ends_with(':')
        && !text.contains(['\n', '\r', '\t'])
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "~"
        )
        && text.parse::<f64>().is_err()
        && !yaml11_not_text(text)
        && !text.contains(YAML11_BREAKS)
        // What YAML reads as something else (`0x10`, `.inf`, `0o7`) is quoted.
        && reads_as_text(text, text);
    if plain {
        text.to_string()
    } else {
        quoted(text)
    }
}

/// Whether YAML 1.1 (PyYAML) reads the plain scalar `text` as something other than text where
/// YAML 1.2 reads text: the numbers, dates and keys of its own resolver (`0b1`, `1_000`,
/// `1:20`, `2024-01-02`, `2024-01-02 10:00:00`, `=`, `<<`).
fn yaml11_not_text(text: &str) -> bool {
    static RESOLVED: std::sync::LazyLock<Option<regex_automata::meta::Regex>> =
        std::sync::LazyLock::new(|| {
            // PyYAML's int, float and timestamp patterns (yaml/resolver.py).
            regex_automata::meta::Regex::new(concat!(
                r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+",
                r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
                r"|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?",
                r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
                r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]",
                r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9]",
                r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?|=|<<)$",
            ))
            .ok()
        });
    // Without the pattern (it compiles), whatever begins like a number counts.
    match &*RESOLVED {
        Some(re) => re.is_match(text),
        None => text.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '.'),
    }
}

/// `text` as a YAML quoted scalar, needing no escapes where that is possible: single quotes;
/// double quotes when the text holds `'` but no `"` or `\`; else single quotes with each `'`
/// doubled.
pub(super) fn quoted(text: &str) -> String {
    if !text.contains('\'') {
        format!("'{text}'")
    } else if !text.contains(['"', '\\']) {
        format!("\"{text}\"")
    } else {
        format!("'{}'", text.replace('\'', "''"))
    }
}

/// SK008, SK009, SK010: what the YAML tree builder noticed.
pub fn yaml_findings(findings: &[Finding], out: &mut Reporter) {
    use std::mem::discriminant;
    // SK009 is about a feature, not each use of it: its first use is reported, with the count.
    let portable = |f: &Finding| {
        !matches!(
            f,
            Finding::DuplicateKey { .. }
                | Finding::Yaml11Bool(..)
                | Finding::Yaml11Number(..)
                | Finding::CommentCut(..)
                | Finding::ControlEscape(..)
        )
    };
    let mut counts: Vec<(std::mem::Discriminant<Finding>, usize)> = Vec::new();
    for finding in findings {
        match counts.iter_mut().find(|(d, _)| *d == discriminant(finding)) {
            Some((_, n)) => *n += 1,
            None => counts.push((discriminant(finding), 1)),
        }
    }
    let mut seen = Vec::new();
    // Where each repeated key is first defined, found once: positions asked back and forth
    // along a long line would each count the line again.
    let mut firsts: foldhash::HashMap<usize, crate::diagnostic::Region> =
        foldhash::HashMap::default();
    for finding in findings {
        if portable(finding) {
            if seen.contains(&discriminant(finding)) {
                continue;
            }
            seen.push(discriminant(finding));
        }
        let count = counts
            .iter()
            .find(|(d, _)| *d == discriminant(finding))
            .map_or(1, |(_, n)| *n);
        let more = if count > 1 {
            format!(" (used {count} times)")
        } else {
            String::new()
        };
        match finding {
            Finding::DuplicateKey { key, first, second } => {
                let first = match firsts.get(&first.start) {
                    Some(region) => Some(*region),
                    None => {
                        let region = out.region(*first);
                        if let Some(region) = region {
                            firsts.insert(first.start, region);
                        }
                        region
                    }
                };
                out.emit(&SK008, Some(*second), format!("duplicate key `{key}`"))
                    .label("repeated here")
                    .secondary(first, "first defined here")
                    .help("remove one of them: loaders disagree on which one wins");
            }
            Finding::Anchor(span) => {
                out.emit(&SK009, Some(*span), format!("YAML anchor in the frontmatter{more}"))
                    .label("anchor")
                    .help("write the value out in full: strict and simple frontmatter loaders reject anchors and aliases");
            }
            Finding::Alias(span) => {
                out.emit(&SK009, Some(*span), format!("YAML alias in the frontmatter{more}"))
                    .label("alias")
                    .help("write the value out in full: strict and simple frontmatter loaders reject anchors and aliases");
            }
            Finding::Tag(span, tag) => {
                out.emit(
                    &SK009,
                    Some(*span),
                    format!("explicit YAML tag `{tag}`{more}"),
                )
                .label("tag")
                .help("remove the tag; quote the value if it must be a string");
            }
            Finding::MergeKey(span) => {
                out.emit(&SK009, Some(*span), format!("YAML merge key `<<`{more}"))
                    .label("merge key")
                    .help("write the merged keys out: `<<` is a YAML 1.1 extension that YAML 1.2 loaders keep as a plain key");
            }
            Finding::NonStringKey(span) => {
                out.emit(
                    &SK009,
                    Some(*span),
                    format!("a mapping key that is not a string{more}"),
                )
                .label("not a string")
                .help("quote the key");
            }
            Finding::ExtraDocument(span) => {
                out.emit(
                    &SK009,
                    Some(*span),
                    "several YAML documents in the frontmatter",
                )
                .label("second document")
                .help("keep one document: remove the `...` or `---` separator and what follows");
            }
            Finding::Yaml11Bool(span, text) => yaml11_scalar(*span, text, out),
            Finding::Yaml11Number(span, text) => yaml11_number(*span, text, out),
            Finding::CommentCut(span, comment) => {
                let shown: String = comment.chars().take(40).collect();
                let more = if shown.len() < comment.len() {
                    " …"
                } else {
                    ""
                };
                let shown = shown.trim_end();
                out.emit(
                    &SK020,
                    Some(*span),
                    format!("YAML ends this value before ` {shown}{more}`: the rest of the line is a comment, not part of the value"),
                )
                .label("the value ends here")
                .help("quote the whole value (`'…'`, doubling any `'` inside) or use a block scalar (`>`) so that the `#` and what follows are kept; a comment meant as one is written after two spaces and `# `");
            }
            Finding::ControlEscape(span, escape) => {
                let written = out.text(*span).unwrap_or_default();
                let inner = written
                    .strip_prefix('"')
                    .and_then(|w| w.strip_suffix('"'))
                    .unwrap_or(written);
                let literal = quoted(inner);
                out.emit(
                    &SK021,
                    Some(*span),
                    format!("`{escape}` in this double-quoted path is an escape: YAML reads a control character there, not a `\\`"),
                )
                .label(format!("`{escape}` is one control character"))
                .help(format!(
                    "write the path in single quotes, where `\\` is itself ({literal}), or double each `\\`"
                ));
            }
        }
    }
}

/// SK010 for a word that some loaders read as a boolean or null. `yes`/`no`/`on`/`off` are
/// booleans in every YAML 1.1 loader; `y`/`n` only in go-yaml v2 (PyYAML's resolver leaves them
/// strings); `~` is null in YAML 1.1 and 1.2 loaders but text to line parsers and string-only
/// loaders such as strictyaml.
fn yaml11_scalar(span: Span, text: &str, out: &mut Reporter) {
    let (message, label, help) = match text {
        "~" => (
            "`~` is null in YAML loaders such as PyYAML, but the text `~` in line parsers and strictyaml".to_string(),
            "null or text".to_string(),
            "write `null` if no value is meant, or quote it: \"~\"".to_string(),
        ),
        _ => {
            // go-yaml v2's `y` and `n` aside, the spellings PyYAML's resolver reads.
            let truth = yaml::yaml11_bool(text).unwrap_or(text.eq_ignore_ascii_case("y"));
            let value = if truth { "true" } else { "false" };
            let (loaders, others) = if text.len() == 1 {
                ("go-yaml v2", "PyYAML and YAML 1.2")
            } else {
                ("YAML 1.1 loaders (PyYAML, go-yaml v2)", "YAML 1.2")
            };
            (
                format!("`{text}` is the boolean {value} in {loaders}, the text `{text}` in {others}"),
                format!("{value} in YAML 1.1"),
                format!("quote it: \"{text}\"; write `{value}` if a boolean is meant"),
            )
        }
    };
    let in_place = out.text(span).is_some_and(|written| written == text)
        && out
            .file_text()
            .is_some_and(|file| bare_scalar_at(file, span));
    let d = out.emit(&SK010, Some(span), message);
    d.label(label).help(help);
    // Text or a boolean: which was meant is a guess.
    if text != "~" && in_place {
        d.fix(Fix::replace(
            Applicability::Unsafe,
            "quote it",
            span,
            format!("\"{text}\""),
        ));
    }
}

/// SK010 for a number written with digits that its value drops (`1.10`, `010`).
fn yaml11_number(span: Span, text: &str, out: &mut Reporter) {
    let digits = text.trim_start_matches(['-', '+']);
    let negative = text.starts_with('-');
    let message = if digits.contains('.') {
        let read = text
            .parse::<f64>()
            .map_or_else(|_| "a number".to_string(), |v| format!("the number {v}"));
        format!("`{text}` is {read}, not the text `{text}`")
    } else {
        let sign = if negative { "-" } else { "" };
        let decimal = digits.trim_start_matches('0');
        let decimal = if decimal.is_empty() { "0" } else { decimal };
        match u64::from_str_radix(digits, 8) {
            Ok(octal) => format!(
                "`{text}` is the number {sign}{decimal} in YAML 1.2 and {sign}{octal} (octal) in YAML 1.1, not the text `{text}`"
            ),
            _ => {
                format!("`{text}` is the number {sign}{decimal} in YAML 1.2, not the text `{text}`")
            }
        }
    };
    let in_place = out.text(span).is_some_and(|written| written == text)
        && out
            .file_text()
            .is_some_and(|file| bare_scalar_at(file, span));
    let d = out
        .emit(&SK010, Some(span), message)
        .label("loses digits as a number")
        .help(format!("quote it: \"{text}\""));
    if in_place {
        d.fix(Fix::replace(
            Applicability::Safe,
            "quote it",
            span,
            format!("\"{text}\""),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{plain_or_quoted, quoted};

    #[test]
    fn quotes_need_no_escapes() {
        assert_eq!(quoted("*bold* text"), "'*bold* text'");
        assert_eq!(quoted("it's: here"), "\"it's: here\"");
        assert_eq!(quoted("it's \"x\""), "'it''s \"x\"'");
        assert_eq!(quoted("it's \\d"), "'it''s \\d'");
    }

    #[test]
    fn plain_only_when_read_back_as_text() {
        assert_eq!(plain_or_quoted("Read Bash(git:*)"), "Read Bash(git:*)");
        assert_eq!(plain_or_quoted("0x10 Read"), "0x10 Read");
        assert_eq!(plain_or_quoted("0.1.0"), "0.1.0");
        for text in [
            "yes",
            "1.10",
            "[x]",
            "a: b",
            "a #b",
            "-x",
            "",
            "0b101",
            "1_000",
            "1:20",
            "2024-01-02",
            "2024-01-02 10:00:00",
            "+1",
            ".5",
            "=",
            "<<",
            "a\u{85}b",
        ] {
            assert!(plain_or_quoted(text).starts_with('\''), "{text}");
        }
    }
}
