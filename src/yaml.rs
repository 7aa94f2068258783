//! YAML (1.2 core schema) to a value tree that keeps the span of every key and value.
//!
//! Built on saphyr-parser's event stream so that the things loaders disagree on — anchors,
//! tags, merge keys, duplicate keys, YAML 1.1 look-alikes — are seen, not resolved away.

use foldhash::{HashMap, HashMapExt};

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use crate::diagnostic::Span;

/// Nesting deeper than this is refused: no frontmatter needs it, and it bounds every walk.
pub const MAX_DEPTH: usize = 64;

/// A YAML node with its span in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

/// The kinds of YAML value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string, with whether it was written as a plain (unquoted) scalar.
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
    /// An alias to the anchor with this id (not expanded).
    Alias(usize),
}

impl Node {
    /// The mapping entry for `key`, if this is a mapping holding it (the first, when repeated).
    pub fn get(&self, key: &str) -> Option<&(Node, Node)> {
        match &self.value {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key)),
            _ => None,
        }
    }

    /// The text of a scalar used as a mapping key (non-string scalars as YAML writes them);
    /// `None` for a collection or alias.
    pub fn key_text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Null => Some("null".to_string()),
            _ => None,
        }
    }

    /// The string value, when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A short name of the value's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
            Value::Alias(_) => "an alias",
        }
    }
}

/// Something a strict loader or a YAML 1.1 loader would treat differently.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    DuplicateKey {
        key: String,
        first: Span,
        second: Span,
    },
    Anchor(Span),
    Alias(Span),
    Tag(Span, String),
    MergeKey(Span),
    NonStringKey(Span),
    ExtraDocument(Span),
    /// A plain scalar YAML 1.1 reads as a boolean or null.
    Yaml11Bool(Span, String),
    /// A plain scalar YAML 1.1 (or a round trip through a number) changes.
    Yaml11Number(Span, String),
    /// A plain scalar that YAML ends at ` #`: the comment that follows it on its line, which
    /// reads as part of the text (`#p1 …`: no space after the `#`).
    CommentCut(Span, String),
    /// A double-quoted scalar that reads as a path (`"C:\temp"`) and holds an escape that
    /// makes a control character of it: the escape as written (`\t`).
    ControlEscape(Span, String),
}

/// A parsed frontmatter document.
#[derive(Debug)]
pub struct Document {
    /// The first document's root; `None` when the text holds no node at all.
    pub root: Option<Node>,
    /// Where each anchored node sits in the tree; see [`Document::aliases`].
    anchors: Anchors,
    pub findings: Vec<Finding>,
}

impl Document {
    /// What the document's aliases point to.
    pub fn aliases(&self) -> Aliases<'_> {
        Aliases {
            root: self.root.as_ref(),
            anchors: &self.anchors,
        }
    }
}

/// Not in the first document's tree (a later document's nodes are not kept).
const DETACHED: usize = usize::MAX;

/// Where each anchored node sits in the tree, kept as a place rather than a copy: a copy at
/// every anchor would cost the size of the subtree per level of nested anchors (quadratic in
/// the file's size). Each collection opened is one `(parent, index)` pair: its parent
/// collection (or [`DETACHED`]; the root's parent is the root place itself) and its index in
/// it, so the path to any node is found by walking up at most [`MAX_DEPTH`] collections.
#[derive(Debug, Default)]
struct Anchors {
    /// For each collection opened, in order: its parent's number (`DETACHED` above the
    /// root) and its index there (a mapping's entry `i` is `2i` for the key, `2i + 1` for
    /// the value).
    collections: Vec<(usize, usize)>,
    /// For each anchor id, the place of its node: the collection holding it (`ROOT` for
    /// the root node itself) and its index there.
    places: HashMap<usize, (usize, usize)>,
}

/// The parent of the root node: the place of a node at the top of the first document.
const ROOT: usize = usize::MAX - 1;

/// The aliases' targets of one document, resolved by reference.
#[derive(Debug, Clone, Copy)]
pub struct Aliases<'a> {
    root: Option<&'a Node>,
    anchors: &'a Anchors,
}

impl<'a> Aliases<'a> {
    /// The node that anchor `id` names, when it is in the first document.
    pub fn get(&self, id: usize) -> Option<&'a Node> {
        let &(mut parent, index) = self.anchors.places.get(&id)?;
        let mut path = vec![index];
        while parent != ROOT {
            let &(up, index) = self.anchors.collections.get(parent)?;
            if path.len() > MAX_DEPTH + 1 {
                return None;
            }
            path.push(index);
            parent = up;
        }
        // The last index is the root's place (0); walk down from the root.
        path.pop();
        let mut node = self.root?;
        for &index in path.iter().rev() {
            node = match &node.value {
                Value::Seq(items) => items.get(index)?,
                Value::Map(entries) => {
                    let (k, v) = entries.get(index / 2)?;
                    if index % 2 == 0 { k } else { v }
                }
                _ => return None,
            };
        }
        Some(node)
    }
}

/// A YAML syntax error at a position.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

enum Frame {
    Seq {
        start: Span,
        /// The collection's number in [`Anchors::collections`].
        number: usize,
        items: Vec<Node>,
    },
    Map {
        start: Span,
        number: usize,
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
        /// The first span of each string key, for SK008 in constant time.
        seen: HashMap<String, Span>,
    },
}

/// The place the next node will take: its collection's number and its index there.
fn next_place(stack: &[Frame], doc: &Document, documents: usize) -> (usize, usize) {
    match stack.last() {
        None if documents <= 1 && doc.root.is_none() => (ROOT, 0),
        None => (DETACHED, 0),
        Some(Frame::Seq { number, items, .. }) => (*number, items.len()),
        Some(Frame::Map {
            number,
            entries,
            key,
            ..
        }) => (*number, entries.len() * 2 + usize::from(key.is_some())),
    }
}

/// Maps the parser's character indices to byte offsets. Positions arrive almost in order, so
/// a cursor that walks from the last answer makes the whole parse linear.
struct Locator<'a> {
    text: &'a str,
    base: usize,
    cursor: std::cell::Cell<(usize, usize)>,
}

impl Locator<'_> {
    /// The byte offset in the file of character `index` of the text.
    fn at(&self, index: usize) -> usize {
        let (mut chars, mut bytes) = self.cursor.get();
        if index < chars / 2 {
            (chars, bytes) = (0, 0);
        }
        while chars > index {
            bytes -= 1;
            while !self.text.is_char_boundary(bytes) {
                bytes -= 1;
            }
            chars -= 1;
        }
        while chars < index && bytes < self.text.len() {
            // Most of a frontmatter is ASCII: a run of it is one character per byte.
            let ahead =
                &self.text.as_bytes()[bytes..bytes + (index - chars).min(self.text.len() - bytes)];
            let ascii = if ahead.is_ascii() {
                ahead.len()
            } else {
                ahead.iter().take_while(|b| b.is_ascii()).count()
            };
            if ascii > 0 {
                bytes += ascii;
                chars += ascii;
                continue;
            }
            bytes += self.text[bytes..].chars().next().map_or(1, char::len_utf8);
            chars += 1;
        }
        self.cursor.set((chars, bytes));
        self.base + bytes
    }
}

/// Parses `text`, which starts at byte `base` of its file; spans are byte ranges of the file.
/// The comment that ends a plain scalar on its line (`after`: the text from the scalar's end),
/// when it reads as part of the text: ` #p1 and #p2`, a `#` followed by a word. A comment
/// written as one (`  # the skill's id`) is not returned.
fn cut_comment(after: &str) -> Option<&str> {
    let line = after
        .split('\n')
        .next()
        .unwrap_or("")
        .trim_end_matches('\r');
    let rest = line.trim_start_matches([' ', '\t']);
    if rest.len() == line.len() {
        return None;
    }
    let word = rest.strip_prefix('#')?;
    word.chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric())
        .then_some(rest)
}

/// The first escape of a double-quoted scalar (`written`, quotes included) that turns a
/// Windows path into a control character (`"C:\temp"`: `\t` is a tab), when the text reads as
/// such a path: a drive (`C:\`), a share (`\\server`) or a relative one (`.\`, `..\`).
fn control_escape(written: &str) -> Option<String> {
    let inner = written.strip_prefix('"')?.strip_suffix('"')?;
    let bytes = inner.as_bytes();
    let drive = bytes
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b':' && w[2] == b'\\');
    let pathlike =
        drive || inner.starts_with("\\\\") || inner.starts_with(".\\") || inner.starts_with("..\\");
    if !pathlike {
        return None;
    }
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            continue;
        }
        match chars.next() {
            Some(e @ ('0' | 'a' | 'b' | 't' | 'n' | 'v' | 'f' | 'r' | 'e')) => {
                return Some(format!("\\{e}"));
            }
            _ => continue,
        }
    }
    None
}

pub fn parse(text: &str, base: usize) -> Result<Document, SyntaxError> {
    // A byte-order mark here is skipped by the parser without counting: skip it ourselves.
    let (text, base) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, base + 3),
        None => (text, base),
    };
    let locator = Locator {
        text,
        base,
        cursor: std::cell::Cell::new((0, 0)),
    };
    let span_of =
        |s: &saphyr_parser::Span| Span::new(locator.at(s.start.index()), locator.at(s.end.index()));
    let mut doc = Document {
        root: None,
        anchors: Anchors::default(),
        findings: Vec::new(),
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut documents = 0;
    let mut parser = Parser::new_from_str(text).keep_tags(true);
    while let Some(item) = parser.next_event() {
        let (event, raw_span) = item.map_err(|e| syntax_error(&e, &locator))?;
        let span = span_of(&raw_span);
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    doc.findings.push(Finding::ExtraDocument(span));
                }
                continue;
            }
            Event::Scalar(value, style, anchor, tag) => {
                let tag = tag.map(|t| tag_name(&t));
                if let Some(tag) = &tag {
                    doc.findings.push(Finding::Tag(span, tag.clone()));
                }
                if style == ScalarStyle::Plain {
                    check_yaml11(&value, span, &mut doc.findings);
                    if let Some(comment) = text
                        .get(span.end.saturating_sub(base)..)
                        .and_then(cut_comment)
                    {
                        doc.findings
                            .push(Finding::CommentCut(span, comment.to_string()));
                    }
                } else if style == ScalarStyle::DoubleQuoted
                    && let Some(escape) = text
                        .get(span.start.saturating_sub(base)..span.end.saturating_sub(base))
                        .and_then(control_escape)
                {
                    doc.findings.push(Finding::ControlEscape(span, escape));
                }
                let forced_str = tag.as_deref().is_some_and(|t| t.ends_with("str"));
                let value = if style == ScalarStyle::Plain && !forced_str {
                    resolve_plain(&value)
                } else {
                    Value::Str(value.into_owned())
                };
                if anchor != 0 {
                    doc.findings.push(Finding::Anchor(span));
                    let place = next_place(&stack, &doc, documents);
                    doc.anchors.places.insert(anchor, place);
                }
                Node { value, span }
            }
            Event::Alias(id) => {
                doc.findings.push(Finding::Alias(span));
                Node {
                    value: Value::Alias(id),
                    span,
                }
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                if let Some(tag) = tag {
                    doc.findings.push(Finding::Tag(span, tag_name(tag)));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(SyntaxError {
                        span,
                        message: format!("the frontmatter nests deeper than {MAX_DEPTH} levels"),
                    });
                }
                let place = next_place(&stack, &doc, documents);
                let number = doc.anchors.collections.len();
                doc.anchors.collections.push(place);
                if anchor != 0 {
                    doc.findings.push(Finding::Anchor(span));
                    doc.anchors.places.insert(anchor, place);
                }
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq {
                        start: span,
                        number,
                        items: Vec::new(),
                    }
                } else {
                    Frame::Map {
                        start: span,
                        number,
                        entries: Vec::new(),
                        key: None,
                        seen: HashMap::new(),
                    }
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else { continue };
                match frame {
                    Frame::Seq { start, items, .. } => {
                        let end = items.last().map_or(start.end, |n| n.span.end);
                        Node {
                            value: Value::Seq(items),
                            span: Span::new(start.start, end),
                        }
                    }
                    Frame::Map { start, entries, .. } => {
                        let end = entries.last().map_or(start.end, |(_, v)| v.span.end);
                        Node {
                            value: Value::Map(entries),
                            span: Span::new(start.start, end),
                        }
                    }
                }
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {
                continue;
            }
        };
        attach(node, &mut stack, &mut doc, documents);
    }
    Ok(doc)
}

fn attach(node: Node, stack: &mut [Frame], doc: &mut Document, documents: usize) {
    match stack.last_mut() {
        None => {
            if documents <= 1 && doc.root.is_none() {
                doc.root = Some(node);
            }
        }
        Some(Frame::Seq { items, .. }) => items.push(node),
        Some(Frame::Map {
            entries, key, seen, ..
        }) => match key.take() {
            None => {
                match &node.value {
                    Value::Str(s) if s == "<<" => doc.findings.push(Finding::MergeKey(node.span)),
                    Value::Str(_) | Value::Alias(_) => {}
                    _ => doc.findings.push(Finding::NonStringKey(node.span)),
                }
                *key = Some(node);
            }
            Some(k) => {
                if let Value::Str(name) = &k.value {
                    match seen.get(name) {
                        Some(first) => doc.findings.push(Finding::DuplicateKey {
                            key: name.clone(),
                            first: *first,
                            second: k.span,
                        }),
                        None => {
                            seen.insert(name.clone(), k.span);
                        }
                    }
                }
                entries.push((k, node));
            }
        },
    }
}

/// A tag as written: `!!str` rather than its resolved `tag:yaml.org,2002:str`.
fn tag_name(tag: &saphyr_parser::Tag) -> String {
    match tag.handle.as_str() {
        "tag:yaml.org,2002:" => format!("!!{}", tag.suffix),
        handle => format!("{handle}{}", tag.suffix),
    }
}

fn syntax_error(e: &ScanError, locator: &Locator) -> SyntaxError {
    let at = locator.at(e.marker().index());
    SyntaxError {
        span: Span::new(at, at),
        message: e.info().to_string(),
    }
}

/// Resolves a plain scalar with the YAML 1.2 core schema.
fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Value::Float(f64::INFINITY);
        }
        "-.inf" | "-.Inf" | "-.INF" => return Value::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Value::Float(f64::NAN),
        _ => {}
    }
    if let Some(hex) = text.strip_prefix("0x") {
        if let Ok(n) = i64::from_str_radix(hex, 16) {
            return Value::Int(n);
        }
    } else if let Some(oct) = text.strip_prefix("0o") {
        if let Ok(n) = i64::from_str_radix(oct, 8) {
            return Value::Int(n);
        }
    } else if is_decimal_int(text) {
        return text.parse().map_or_else(
            |_| Value::Float(text.parse().unwrap_or(f64::NAN)),
            Value::Int,
        );
    } else if is_float(text)
        && let Ok(f) = text.parse()
    {
        return Value::Float(f);
    }
    Value::Str(text.to_string())
}

fn is_decimal_int(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_float(text: &str) -> bool {
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    // A number starts with a digit or a dot: most plain scalars are words, told here without
    // a search of the whole text for an exponent.
    if !text.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return false;
    }
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match frac {
        Some(f) => digits(int) && digits(f) && !(int.is_empty() && f.is_empty()),
        None => !int.is_empty() && digits(int),
    };
    let exponent_ok = exponent.is_none_or(is_decimal_int);
    mantissa_ok && exponent_ok
}

/// The boolean a YAML 1.1 loader reads a plain scalar as, if it does: PyYAML's resolver
/// (`yes`/`no`/`on`/`off`/`true`/`false`, each in lower, title or upper case; `yEs` is text).
/// go-yaml v2 also reads `y` and `n`, which PyYAML leaves text.
pub fn yaml11_bool(text: &str) -> Option<bool> {
    match text {
        "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => Some(true),
        "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

fn check_yaml11(text: &str, span: Span, findings: &mut Vec<Finding>) {
    // The booleans YAML 1.1 reads and YAML 1.2 does not (it shares `true` and `false`), go-yaml
    // v2's `y` and `n`, and the null `~`.
    let differs = yaml11_bool(text).is_some()
        && !text.eq_ignore_ascii_case("true")
        && !text.eq_ignore_ascii_case("false");
    if differs || matches!(text, "y" | "Y" | "n" | "N" | "~") {
        findings.push(Finding::Yaml11Bool(span, text.to_string()));
        return;
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let leading_zero = digits.len() > 1 && digits.starts_with('0') && is_decimal_int(digits);
    let trailing_zero = is_float(digits)
        && !digits.contains(['e', 'E'])
        && digits
            .split_once('.')
            .is_some_and(|(_, f)| f.len() >= 2 && f.ends_with('0'));
    if leading_zero || trailing_zero {
        findings.push(Finding::Yaml11Number(span, text.to_string()));
    }
}

/// Converts a node to JSON for schema validation, resolving aliases. Only nodes reached
/// through aliases count against `budget` (the rest is bounded by the file size); past it an
/// alias expands to null, so that an alias bomb stays cheap. Nesting deeper than
/// [`MAX_DEPTH`] — only reachable through aliases, such as an anchor that contains an alias to
/// itself — is null too, so the recursion stays shallow.
pub fn to_json(node: &Node, aliases: Aliases, budget: &mut usize) -> serde_json::Value {
    convert(node, aliases, budget, false, 0)
}

/// [`to_json`] of a mapping whose values are converted only for the keys `wanted` names (the
/// others are null): what a schema that forbids other keys needs, and no copy of values that
/// no schema reads.
pub fn fields_to_json(
    root: &Node,
    aliases: Aliases,
    budget: &mut usize,
    wanted: impl Fn(&str) -> bool,
) -> serde_json::Value {
    let Value::Map(entries) = &root.value else {
        return to_json(root, aliases, budget);
    };
    let mut map = serde_json::Map::new();
    for (k, v) in entries {
        let Some(key) = k.key_text() else { continue };
        if !map.contains_key(&key) {
            let value = if wanted(&key) {
                convert(v, aliases, budget, false, 1)
            } else {
                serde_json::Value::Null
            };
            map.insert(key, value);
        }
    }
    serde_json::Value::Object(map)
}

fn convert(
    node: &Node,
    anchors: Aliases,
    budget: &mut usize,
    aliased: bool,
    depth: usize,
) -> serde_json::Value {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return J::Null;
    }
    if aliased {
        if *budget == 0 {
            return J::Null;
        }
        *budget -= 1;
    }
    match &node.value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.clone()),
        Value::Seq(items) => J::Array(
            items
                .iter()
                .map(|n| convert(n, anchors, budget, aliased, depth + 1))
                .collect(),
        ),
        Value::Map(entries) => {
            let mut map = serde_json::Map::new();
            for (k, v) in entries {
                let Some(key) = k.key_text() else { continue };
                if !map.contains_key(&key) {
                    let value = convert(v, anchors, budget, aliased, depth + 1);
                    map.insert(key, value);
                }
            }
            J::Object(map)
        }
        Value::Alias(id) => match anchors.get(*id) {
            Some(target) => convert(target, anchors, budget, true, depth + 1),
            None => J::Null,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Document, SyntaxError> {
        parse(text, 0)
    }

    /// Every character index, asked in order, backwards and by jumps, is the byte offset of
    /// that character (the end of the text past it), over ASCII runs and wider characters.
    #[test]
    fn the_locator_maps_character_indices_to_byte_offsets() {
        let text = "ab é x\u{1F600}yz — last: ✓\nq";
        let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        offsets.push(text.len());
        let locator = Locator {
            text,
            base: 100,
            cursor: std::cell::Cell::new((0, 0)),
        };
        let n = offsets.len();
        let order = (0..n)
            .chain((0..n).rev())
            .chain((0..n).step_by(3))
            .chain((0..n).rev().step_by(2))
            .chain([n + 5, 0, usize::MAX, n - 1, 2]);
        for index in order {
            let want = 100 + offsets.get(index).copied().unwrap_or(text.len());
            assert_eq!(locator.at(index), want, "character {index}");
        }
    }

    /// As the pattern `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` reads them.
    #[test]
    fn floats_are_told_as_the_pattern_tells_them() {
        for (text, float) in [
            ("1", true),
            ("1.5", true),
            ("-1.5", true),
            ("+.5", true),
            (".5", true),
            ("1.", true),
            ("1e5", true),
            ("1.0E-3", true),
            ("", false),
            ("+", false),
            (".", false),
            ("e5", false),
            ("E5", false),
            ("1e", false),
            ("abc", false),
            ("1.2.3", false),
            ("é1", false),
            ("-", false),
            (" 1", false),
            ("Use when the user asks for 1.5", false),
        ] {
            assert_eq!(is_float(text), float, "{text:?}");
        }
    }

    #[test]
    fn core_schema_typing() {
        assert_eq!(resolve_plain("yes"), Value::Str("yes".into()));
        assert_eq!(resolve_plain("true"), Value::Bool(true));
        assert_eq!(resolve_plain("1"), Value::Int(1));
        assert_eq!(resolve_plain("1.0"), Value::Float(1.0));
        assert_eq!(resolve_plain("0x1f"), Value::Int(31));
        assert_eq!(resolve_plain("1.2.3"), Value::Str("1.2.3".into()));
        assert_eq!(resolve_plain(""), Value::Null);
    }

    #[test]
    fn spans_of_keys_and_values() {
        let doc = parse_str("name: pdf\ndescription: 'é x'\n").unwrap();
        let root = doc.root.unwrap();
        let (k, v) = root.get("description").unwrap();
        assert_eq!((k.span.start, k.span.end), (10, 21));
        assert_eq!(v.as_str(), Some("é x"));
        assert_eq!(v.span.start, 23);
    }

    #[test]
    fn findings() {
        let doc = parse_str("a: &x 1\nb: *x\na: !!str 2\n<<: {c: 1}\n1: on\nv: 1.10\n").unwrap();
        let kinds: Vec<_> = doc
            .findings
            .iter()
            .map(|f| {
                format!("{f:?}")
                    .split(['(', ' '])
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "Anchor",
                "Alias",
                "Tag",
                "DuplicateKey",
                "MergeKey",
                "NonStringKey",
                "Yaml11Bool",
                "Yaml11Number"
            ]
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = "a: ".to_string() + &"[".repeat(10_000) + &"]".repeat(10_000);
        let err = parse_str(&text).unwrap_err();
        assert!(
            err.message.contains("deeper than 64") || err.message.contains("recursion"),
            "{}",
            err.message
        );
    }

    #[test]
    fn alias_bomb_is_cheap() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let prev = (b'a' + i - 1) as char;
            let cur = (b'a' + i) as char;
            text += &format!(
                "{cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
            );
        }
        let doc = parse_str(&text).unwrap();
        let mut budget = 10_000;
        let json = to_json(doc.root.as_ref().unwrap(), doc.aliases(), &mut budget);
        assert!(json.is_object());
        assert_eq!(budget, 0);
    }
}
