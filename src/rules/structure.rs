//! Structure and syntax rules for both dialects: SK001–SK015.

use crate::diagnostic::{Region, Span};
use crate::dialect::Dialect;
use crate::dialect::schema::{self, Violation};
use crate::discover::SkillDir;
use crate::fix::{Applicability, Edit, Fix};
use crate::skill::{Reporter, Skill};
use crate::source::{LayoutError, MissingHint, SkillFile};
use crate::yaml::{self, Finding, Node, Value};

crate::rule::declare! {
    SK001 "missing-skill-file" Error Both
        "A directory given as a skill has no `SKILL.md` or `skill.md`.";
    SK002 "invalid-utf8" Error Both
        unsuppressible
        "The skill file is not valid UTF-8.";
    SK003 "missing-frontmatter" Error Both
        unsuppressible
        stops(frontmatter)
        "The skill file does not begin with a `---` line.";
    SK004 "byte-order-mark" Warning Both
        fix(safe "remove the BOM")
        "The skill file begins with a UTF-8 byte-order mark.";
    SK005 "unclosed-frontmatter" Error Both
        unsuppressible
        stops(frontmatter)
        "The frontmatter has no closing `---` line.";
    SK006 "yaml-syntax" Error Both
        unsuppressible
        needs(frontmatter)
        stops(fields)
        tags(form)
        fix(safe "quote a one-line plain value that holds `: ` or begins with an indicator (`key: Use when: x`, `key: [draft] x`, `key: *bold* x`), in the quote style that needs no escapes where one does, and only when the quoted value reads back as exactly the text written. No fix where quoting may not be what was meant or not all that is wrong: a value holding ` #`, a block indicator (`|`, `>`), a value that goes on over the next lines, a flow collection (`{a: b: c}`), an anchor, alias or tag (`&a x`, `*a`, `!!int 4`), a key in quotes; a double-quoted value none of whose `\\` starts an escape (`\"C:\\data\"`) is single-quoted as written (`'C:\\data'`). No fix for a value holding NEL, LS or PS (line breaks to YAML 1.1 loaders such as PyYAML, text to YAML 1.2), nor for one mixing escapes and non-escapes (`\"C:\\new\\data\"`); a fix is offered only when the frontmatter then parses past its line")
        "The frontmatter is not valid YAML.";
    SK007 "frontmatter-not-mapping" Error Both
        unsuppressible
        needs(fields)
        stops(fields)
        "The frontmatter is a YAML list or scalar, not a mapping.";
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
    SK011 "file-too-large" Error Both
        "The skill file exceeds `max-file-size`.";
    SK012 "skill-file-name" Warning Both
        needs(fields)
        fix(unsafe "rename the skill file to the dialect's name (`skill.md` → `SKILL.md`); not when a file of that name exists, or a symbolic link or a Markdown file of the skill (or of the skill it is nested in) names the file")
        "The skill file name is not the one the dialect's runtime loads.";
    SK013 "unknown-field" Error Both
        needs(fields)
        tags(form unnecessary)
        fix(unsafe "move an unknown top-level `key: value` written on one line under `metadata:` as a string (creating `metadata:` at the end of the frontmatter when there is none); not for a likely typo, a list or mapping, an anchor or alias, or a key `metadata` already has; not in a `{…}` frontmatter (the help says so), nor a line followed by an indented line or holding a lone CR, NEL, LS or PS; `metadata:` is created before a `...` document end; plain text YAML 1.1 reads as a date or number is quoted")
        "A frontmatter key that neither the dialect, nor the skill's targets, nor `extra-fields` defines.";
    SK014 "field-type" Error Both
        needs(fields)
        tags(form)
        fix(safe retypes "quote a number or boolean where text is required (`description: 42`); write `schema_version: \"1\"` as the integer `1`")
        "A known field has the wrong YAML type.";
    SK015 "missing-field" Error Both
        needs(fields)
        "A required field is absent or null.";
    SK016 "nested-skill-file" Info Both
        tags(unnecessary)
        "A skill file below another skill's directory: runtimes do not load it as a skill.";
    SK017 "skill-file-case" Warning Both
        "A file named like a skill file in another case (`SKILL.MD`, `Skill.md`).";
}

/// SK001: a directory given explicitly holds no skill file.
pub fn missing_skill_file(dir: &SkillDir, out: &mut Reporter) {
    let shown = dir.dir.display();
    match dir.near_miss() {
        Some(near) => {
            out.emit(&SK001, None, format!("`{shown}` has no SKILL.md or skill.md, but holds `{near}`"))
                .help(format!(
                    "skill files are named exactly `SKILL.md` (or `skill.md` for PAR); rename it: mv {} {}",
                    dir.path_of(near).display(),
                    dir.path_of("SKILL.md").display()
                ));
        }
        None => {
            out.emit(&SK001, None, format!("no skill file (SKILL.md or skill.md) in `{shown}` or below it"))
                .help("a skill is a directory holding a SKILL.md with YAML frontmatter (`name`, `description`) and instructions");
        }
    }
}

/// SK016 and SK017: where discovery found the skill file `path` — below another skill, or
/// named in another case.
pub fn where_found(dir: &SkillDir, path: &std::path::Path, out: &mut Reporter) {
    let shown = dir.dir.display();
    if let Some(outer) = dir.nested_in() {
        let outer = outer.display();
        out.emit(&SK016, None, format!("this skill file lies inside the skill `{outer}`: runtimes do not load it as a skill"))
            .help(format!("if it is meant to be a skill, move `{shown}` out of `{outer}`, beside the other skills; a template or an example needs nothing"));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if crate::discover::is_other_case(name) {
        out.emit(&SK017, None, format!("`{name}` is not `SKILL.md`: only case-insensitive file systems (macOS, Windows) load it"))
            .help(format!("rename it: git mv {} {} (or skill.md for PAR)", path.display(), dir.path_of("SKILL.md").display()));
    }
}

/// SK011: the file exceeds `max-file-size`.
pub fn file_too_large(size: u64, limit: u64, out: &mut Reporter) {
    out.emit(&SK011, None, format!("the skill file is {size} bytes; `max-file-size` is {limit} bytes"))
        .help("move long material into files under references/ that the body links, or raise `max-file-size` in skillc.toml");
}

/// SK002: the file is not UTF-8.
pub fn invalid_utf8(byte: u8, region: Region, out: &mut Reporter) {
    out.emit_at(
        &SK002,
        Some(region),
        format!(
            "the skill file is not valid UTF-8: byte 0x{byte:02X} at offset {}",
            region.offset
        ),
    )
    .label("not UTF-8")
    .help("save the file as UTF-8");
}

/// SK004: a byte-order mark before the frontmatter.
pub fn byte_order_mark(out: &mut Reporter) {
    out.emit(
        &SK004,
        Some(Span::new(0, 3)),
        "the file begins with a UTF-8 byte-order mark",
    )
    .label("byte-order mark")
    .help("save the file as UTF-8 without a BOM; several parsers then see no frontmatter")
    .fix(Fix::replace(
        Applicability::Safe,
        "remove the byte-order mark",
        Span::new(0, 3),
        "",
    ));
}

/// SK003 and SK005: no frontmatter, or no end to it.
pub fn layout_error(file: &SkillFile, err: LayoutError, out: &mut Reporter) {
    match err {
        LayoutError::Missing(hint) => {
            let first = file.line_span(1);
            let message = "the file does not begin with a `---` line";
            match hint {
                MissingHint::BlankLinesFirst(open) => {
                    let line = file.line_of(open.start);
                    out.emit(&SK003, Some(first), message)
                        .label("expected `---` here")
                        .help(format!("remove the blank lines before the `---` on line {line}: the frontmatter must start the file"));
                }
                MissingHint::WrongDashes(_) => {
                    out.emit(&SK003, Some(first), message)
                        .label("not `---`")
                        .help("the delimiter is exactly three dashes: `---`");
                }
                MissingHint::TextFirst(open) => {
                    let line = file.line_of(open.start);
                    out.emit(&SK003, Some(first), message)
                        .label("text before the frontmatter")
                        .help(format!(
                            "move the frontmatter that starts on line {line} to the top of the file"
                        ));
                }
                MissingHint::None => {
                    out.emit(&SK003, Some(first), message)
                        .label("expected `---` here")
                        .help("start the file with `---`, the YAML frontmatter (`name:`, `description:`), and a closing `---` line");
                }
            }
        }
        LayoutError::Unclosed { open, dots } => {
            let d = out.emit(&SK005, Some(open), "the frontmatter is never closed");
            d.label("opened here");
            match dots {
                Some(dots) => {
                    let line = file.line_of(dots.start);
                    let region = file.region(dots);
                    d.secondary(Some(region), "`...` does not close frontmatter")
                        .help(format!("replace the `...` on line {line} with `---`"));
                }
                None => {
                    d.help("add a `---` line after the last frontmatter key");
                }
            }
        }
    }
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
            Finding::DuplicateKey { .. } | Finding::Yaml11Bool(..) | Finding::Yaml11Number(..)
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
            let value = if text.eq_ignore_ascii_case("y")
                || ["yes", "on"].iter().any(|w| text.eq_ignore_ascii_case(w))
            {
                "true"
            } else {
                "false"
            };
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

/// SK007: the frontmatter is not a mapping.
pub fn not_mapping(node: &Node, out: &mut Reporter) {
    out.emit(
        &SK007,
        Some(node.span),
        format!("the frontmatter is {}, not a mapping", node.type_name()),
    )
    .label("expected `key: value` lines")
    .help(
        "write the frontmatter as `key: value` lines, e.g. `name: my-skill` and `description: ...`",
    );
}

/// SK012 and the schema rules SK013–SK015.
pub fn check(skill: &Skill, out: &mut Reporter) {
    file_name(skill, out);
    schema_rules(skill, out);
}

fn file_name(skill: &Skill, out: &mut Reporter) {
    let expected = skill.dialect.file_name();
    let actual = skill
        .file
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    // A skill file name in another case (`SKILL.MD`) is SK017's.
    if actual == expected || crate::discover::is_other_case(actual) {
        return;
    }
    let runtime = match skill.dialect {
        Dialect::Par => "PAR loads",
        Dialect::AgentSkills => "Agent Skills clients load",
    };
    // Unsafe: the runtimes that read the other name no longer find the skill. Never over
    // another file of that name.
    let to = skill.file.path.with_file_name(expected);
    let free = (std::fs::symlink_metadata(&to).is_err()
        || crate::files::same_file(&skill.file.path, &to))
        && !crate::files::rename_breaks(skill.dir, &skill.file.path, Some(skill.tree))
        && !crate::files::mentions_own_name(&skill.file.path, skill.file.text.as_bytes());
    let d = out
        .emit(
            &SK012,
            None,
            format!(
                "{runtime} `{expected}`, but this {} skill is in `{actual}`",
                skill.dialect.as_str()
            ),
        )
        .help(format!("rename the file to `{expected}`"));
    if free {
        d.fix(Fix::rename(
            Applicability::Unsafe,
            format!("rename the file to `{expected}`"),
            expected,
        ));
    }
}

fn schema_rules(skill: &Skill, out: &mut Reporter) {
    let empty = Node {
        value: Value::Map(Vec::new()),
        span: skill.layout.open,
    };
    let root = skill.root.unwrap_or(&empty);
    let known: Vec<&str> = schema::fields(skill.dialect)
        .iter()
        .map(String::as_str)
        .collect();
    // The schemas forbid other top-level keys: their values are not read, nor copied.
    let mut budget = 10_000;
    let json = yaml::fields_to_json(root, skill.aliases, &mut budget, |key| known.contains(&key));
    // Looked up once: a frontmatter may have thousands of unknown keys.
    let metadata = root.get("metadata");
    for violation in schema::validate(skill.dialect, root, &json) {
        match violation {
            Violation::Unknown { key, value } => {
                let text = key.key_text().unwrap_or_default();
                let name = text.as_str();
                if super::runtime_fields::allowed(skill, name) {
                    continue;
                }
                let Some(d) = out.emit_shown(
                    &SK013,
                    Some(key.span),
                    format!(
                        "unknown field `{name}` for the {} dialect",
                        skill.dialect.as_str()
                    ),
                ) else {
                    continue;
                };
                d.label("not a field of this dialect");
                let allow =
                    format!("or allow it with `extra-fields = [\"{name}\"]` in skillc.toml");
                let runtime = super::runtime_fields::unknown_field_help(name);
                // `metadata` maps strings to strings: only a scalar moves there as it is.
                let scalar = !matches!(skill.resolve(value).value, Value::Map(_) | Value::Seq(_));
                match (closest(name, &known), runtime) {
                    (_, Some(help)) if skill.dialect == Dialect::AgentSkills => d.help(help),
                    (Some(near), _) => d.help(format!("did you mean `{near}`? {allow}")),
                    (None, _) if skill.dialect == Dialect::AgentSkills && scalar => {
                        if let Some(fix) = to_metadata(skill, root, metadata, key, value) {
                            d.fix(fix);
                        }
                        // Lines move only in a block mapping: a `{…}` one would need its commas
                        // and braces rewritten.
                        let note = if is_flow(skill, root) {
                            " (not fixed automatically: the frontmatter is a `{…}` flow mapping)"
                        } else {
                            ""
                        };
                        d.help(format!(
                            "move it under `metadata:` as a string (`metadata:` / `  {name}: \"...\"`), {allow}{note}"
                        ))
                    }
                    (None, _) if skill.dialect == Dialect::AgentSkills => d.help(format!(
                        "no runtime reads `{name}`: remove it, write it in the body, or {}",
                        allow.trim_start_matches("or ")
                    )),
                    (None, _) => d.help(format!("PAR's fields are {}; {allow}", known.join(", "))),
                };
            }
            Violation::Missing { field } => {
                if field == "name" && super::runtime_fields::name_optional(skill) {
                    continue;
                }
                let present = root.get(&field).is_some();
                let message = if present {
                    format!("required field `{field}` is empty")
                } else {
                    format!("missing required field `{field}`")
                };
                out.emit(&SK015, Some(skill.layout.open), message)
                    .label("in this frontmatter")
                    .help(format!(
                        "add `{field}: {}`",
                        placeholder(skill.dialect, &field)
                    ));
            }
            Violation::WrongType {
                field,
                node,
                expected,
            } => {
                let Some(rule) = type_rule(skill.dialect, &field) else {
                    continue;
                };
                let d = out.emit(
                    rule,
                    Some(node.span),
                    format!("`{field}` must be {expected}, found {}", node.type_name()),
                );
                d.label(format!("expected {expected}"));
                let written = skill.source(node);
                if expected == "a string"
                    && matches!(node.value, Value::Int(_) | Value::Float(_) | Value::Bool(_))
                {
                    d.help(format!("quote it: `{field}: \"{written}\"`"));
                    // The field takes text: the text written is what was meant.
                    if !written.contains(['"', '\\', '\n'])
                        && bare_scalar_at(&skill.file.text, node.span)
                    {
                        d.fix(Fix::replace(
                            Applicability::Safe,
                            "quote it",
                            node.span,
                            format!("\"{written}\""),
                        ));
                    }
                } else if expected == "an integer" {
                    let digits = written.trim_matches(['"', '\'']);
                    let whole = digits.parse::<f64>().ok().filter(|f| f.fract() == 0.0);
                    if let Some(n) = whole {
                        d.help(format!("write it as a plain integer: `{field}: {n}`"));
                        if matches!(node.value, Value::Str(_))
                            && n.abs() < 1e15
                            && bare_scalar_at(&skill.file.text, node.span)
                        {
                            d.fix(Fix::replace(
                                Applicability::Safe,
                                "write it as an integer",
                                node.span,
                                format!("{n}"),
                            ));
                        }
                    }
                }
            }
        }
    }
}

/// SK013's fix for an unknown top-level `key: value` on one line, a scalar: the line moves to
/// the end of the `metadata:` block (created at the end of the frontmatter when there is
/// none: by one such fix a round), its value as a string. Unsafe: a runtime that read the key
/// at the top no longer does.
///
/// `root` is the frontmatter's mapping and `metadata` its `metadata:` entry, if any; `key` is
/// the first key written
/// with its text (a string key: `1:` is not moved).
fn to_metadata(
    skill: &Skill,
    root: &Node,
    metadata: Option<&(Node, Node)>,
    key: &Node,
    value: &Node,
) -> Option<Fix> {
    let text = skill.file.text.as_str();
    let name = key.as_str()?.to_string();
    // The entry's own line, and nothing after the value but spaces (a comment stays put).
    let before = text.get(..key.span.start)?;
    if !(before.is_empty() || before.ends_with('\n')) || is_flow(skill, root) {
        return None;
    }
    let start = key.span.start;
    let end = text.get(value.span.end..)?.find('\n')? + value.span.end;
    let line = text.get(start..end)?;
    let after = text.get(value.span.end..end)?;
    if !after.trim_end_matches('\r').trim().is_empty() {
        return None;
    }
    // A line YAML 1.1 loaders break elsewhere (NEL, LS, PS) is not one line to them, nor one
    // holding a lone CR to any loader.
    if line.contains(YAML11_BREAKS) || line.trim_end_matches('\r').contains('\r') {
        return None;
    }
    let eol = if line.ends_with('\r') { "\r\n" } else { "\n" };
    let written = skill.source(value);
    // An anchor, alias or tag would change what it refers to once moved.
    if written.starts_with(['&', '*', '!']) {
        return None;
    }
    // The key as written (`"123"` stays a string key).
    let key_written = skill.source(key);
    let string = match &value.value {
        // Text written plain that YAML 1.1 reads otherwise (`2024-01-02`) is quoted there: the
        // move makes it a string.
        Value::Str(text) if !written.starts_with(['"', '\'']) && text == written => {
            plain_or_quoted(text)
        }
        Value::Str(_) => written.to_string(),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Null
            if !written.is_empty() && !written.contains(['"', '\\']) =>
        {
            format!("\"{written}\"")
        }
        _ => return None,
    };
    if string.contains('\n') {
        return None;
    }
    // An indented line after it (a comment, say) would join the value above it once the line
    // is gone: a block scalar (`>-`) takes it as text.
    let next = text
        .get(end + 1..skill.layout.close.start)
        .unwrap_or("")
        .split_inclusive('\n')
        .find(|l| !l.trim().is_empty());
    if next.is_some_and(|l| l.starts_with([' ', '\t'])) {
        return None;
    }
    let delete = Edit {
        span: Span::new(start, end + 1),
        content: String::new(),
    };
    let insert = match metadata {
        None => {
            // Before a `...` that ends the YAML document: after it, `metadata:` would start
            // a second one.
            let at = document_end(text, root.span.end, skill.layout.close.start)
                .unwrap_or(skill.layout.close.start);
            Edit {
                span: Span::new(at, at),
                content: format!("metadata:{eol}  {key_written}: {string}{eol}"),
            }
        }
        Some((metadata_key, metadata)) => {
            let Value::Map(entries) = &metadata.value else {
                return None;
            };
            // An anchored (or tagged) `metadata:` is repeated by its aliases: no key joins it.
            // A `{…}` one would need a comma.
            if is_flow(skill, metadata)
                || text
                    .get(metadata_key.span.end..metadata.span.start)?
                    .contains(['&', '!'])
                || skill.source(metadata).starts_with(['&', '!'])
            {
                return None;
            }
            // The key there already: a second one would be a duplicate.
            if metadata.get(&name).is_some() {
                return None;
            }
            let (first, _) = entries.first()?;
            let (_, last) = entries.last()?;
            let first_line = text
                .get(..first.span.start)?
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let indent = text.get(first_line..first.span.start)?;
            if indent.is_empty() || !indent.chars().all(|c| c == ' ') {
                return None;
            }
            // After the line the block's last value ends on.
            let at = text.get(last.span.end.saturating_sub(1)..)?.find('\n')?
                + last.span.end.saturating_sub(1)
                + 1;
            if at > skill.layout.close.start {
                return None;
            }
            Edit {
                span: Span::new(at, at),
                content: format!("{indent}{key_written}: {string}{eol}"),
            }
        }
    };
    let mut edits = vec![insert, delete];
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    if edits[0].span.end > edits[1].span.start {
        return None;
    }
    let creates = metadata.is_none();
    Some(Fix {
        applicability: Applicability::Unsafe,
        message: format!("move `{name}` under `metadata:`"),
        edits,
        rename: None,
        exclusive: creates.then_some("metadata:"),
        available: false,
    })
}

/// Whether the collection `node` is written in flow style (`{…}`, `[…]`).
fn is_flow(skill: &Skill, node: &Node) -> bool {
    skill.source(node).starts_with(['{', '['])
}

/// The start of the first `...` line (a YAML document end) between bytes `from` and `to` of
/// `text`, from the start of the line after `from`.
fn document_end(text: &str, from: usize, to: usize) -> Option<usize> {
    let mut at = if text.get(..from)?.ends_with('\n') {
        from
    } else {
        text.get(from..to)?.find('\n')? + from + 1
    };
    for line in text.get(at..to)?.split_inclusive('\n') {
        let marker = line
            .trim_end_matches(['\r', '\n'])
            .strip_prefix("...")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']));
        if marker {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// The rule a type error of `field` (a dotted path) belongs to; `None` for fields whose types
/// a rule of their own checks (PAR's `expected_output`: SK204; `metadata`: SK302, SK303).
fn type_rule(dialect: Dialect, field: &str) -> Option<&'static super::Rule> {
    let top = field.split('.').next().unwrap_or(field);
    match (dialect, top) {
        (Dialect::Par, "expected_output") | (Dialect::AgentSkills, "metadata") => None,
        _ => Some(&SK014),
    }
}

fn placeholder(dialect: Dialect, field: &str) -> &'static str {
    match (dialect, field) {
        (_, "description") => "<what the skill does and when to use it>",
        (Dialect::Par, "schema_version") => "1",
        (Dialect::Par, "id") => "<the directory name>",
        (Dialect::Par, "name") => "<a display name>",
        (Dialect::AgentSkills, "name") => "<the directory name>",
        _ => "...",
    }
}

/// The known field closest to `name`, when it is a likely typo.
fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (distance(name, k), *k))
        .filter(|(d, k)| *d <= 2.min(k.len() / 3).max(1))
        .min()
        .map(|(_, k)| k)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
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
