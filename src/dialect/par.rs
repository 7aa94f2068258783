//! PAR's `tool_filter` and `trigger` grammars (formats.md).

use std::ops::Range;

/// A name in a bracketed list, with its byte range in the field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub text: String,
    pub range: Range<usize>,
}

/// A parsed `tool_filter`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolFilter {
    All,
    Only(Vec<Item>),
    Except(Vec<Item>),
}

/// How a keyword trigger activates the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeywordMode {
    /// No mode given: PAR's default.
    Default,
    Confirm,
    Deterministic,
}

/// A parsed `trigger`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    Auto,
    Manual,
    Keyword(Vec<Item>, KeywordMode),
}

/// Why a value does not match a grammar, and where (byte range in the value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrammarError {
    pub message: String,
    pub range: Range<usize>,
}

struct Cursor<'a> {
    chars: Vec<char>,
    pos: usize,
    text: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            chars: text.chars().collect(),
            pos: 0,
            text,
        }
    }

    fn skip_ws(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.chars.len()
    }

    fn word(&mut self) -> (String, Range<usize>) {
        self.skip_ws();
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.pos += 1;
        }
        (
            self.chars[start..self.pos].iter().collect(),
            start..self.pos,
        )
    }

    fn error(&self, message: impl Into<String>, range: Range<usize>) -> GrammarError {
        let _ = self.text;
        GrammarError {
            message: message.into(),
            range,
        }
    }

    fn rest(&self) -> Range<usize> {
        self.pos..self.chars.len().max(self.pos + 1)
    }

    /// `"[" [ item ( "," item )* "]"`; `item` reads one entry.
    fn list(
        &mut self,
        what: &str,
        mut item: impl FnMut(&mut Self) -> Result<Item, GrammarError>,
    ) -> Result<Vec<Item>, GrammarError> {
        self.skip_ws();
        if self.peek() != Some('[') {
            return Err(self.error(
                format!("expected `[` to start the {what} list"),
                self.rest(),
            ));
        }
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            self.skip_ws();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']') => {
                    self.pos += 1;
                    return Ok(items);
                }
                None => {
                    return Err(self.error(
                        format!("the {what} list is not closed with `]`"),
                        open..self.chars.len(),
                    ));
                }
                Some(c) => {
                    return Err(self.error(
                        format!("expected `,` or `]` in the {what} list, found `{c}`"),
                        self.pos..self.pos + 1,
                    ));
                }
            }
        }
    }

    fn quoted(&mut self, what: &str) -> Result<Item, GrammarError> {
        let start = self.pos;
        self.pos += 1;
        let mut text = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == '"' {
                return Ok(Item {
                    text,
                    range: start..self.pos,
                });
            }
            text.push(c);
        }
        Err(self.error(format!("unterminated quoted {what}"), start..self.pos))
    }

    fn tool(&mut self) -> Result<Item, GrammarError> {
        self.skip_ws();
        let start = self.pos;
        let item = if self.peek() == Some('"') {
            self.quoted("tool name")?
        } else {
            while self.peek().is_some_and(is_tool_char) {
                self.pos += 1;
            }
            Item {
                text: self.chars[start..self.pos].iter().collect(),
                range: start..self.pos,
            }
        };
        if item.text.is_empty() || !item.text.chars().all(is_tool_char) {
            let end = if item.text.is_empty() {
                (self.pos + 1).min(self.chars.len()).max(start + 1)
            } else {
                self.pos
            };
            let found = self
                .chars
                .get(start)
                .map_or("the end".to_string(), |c| format!("`{c}`"));
            return Err(self.error(
                format!("expected a tool name ([A-Za-z0-9_.:-]+), found {found}"),
                start..end,
            ));
        }
        Ok(item)
    }

    fn keyword(&mut self) -> Result<Item, GrammarError> {
        self.skip_ws();
        if self.peek() == Some('"') {
            return self.quoted("keyword");
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c != ',' && c != ']') {
            self.pos += 1;
        }
        let raw: String = self.chars[start..self.pos].iter().collect();
        let lead = raw.len() - raw.trim_start().len();
        let text = raw.trim().to_string();
        if text.is_empty() {
            return Err(self.error("empty keyword", start..self.pos.max(start + 1)));
        }
        let first = start + raw[..lead].chars().count();
        Ok(Item {
            range: first..first + text.chars().count(),
            text,
        })
    }
}

/// Character ranges (what the parser counts in) to byte ranges (what spans need).
struct Bytes(Vec<usize>);

impl Bytes {
    fn of(text: &str) -> Bytes {
        let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        offsets.push(text.len());
        Bytes(offsets)
    }

    fn range(&self, r: &Range<usize>) -> Range<usize> {
        let at = |i: usize| self.0.get(i).or(self.0.last()).copied().unwrap_or(0);
        at(r.start)..at(r.end)
    }

    fn items(&self, items: &mut [Item]) {
        for item in items {
            item.range = self.range(&item.range);
        }
    }

    fn error(&self, mut e: GrammarError) -> GrammarError {
        e.range = self.range(&e.range);
        e
    }
}

/// Parses `tool_filter := "All" | "Only" list | "Except" list`.
pub fn parse_tool_filter(text: &str) -> Result<ToolFilter, GrammarError> {
    let bytes = Bytes::of(text);
    match tool_filter_chars(text) {
        Ok(ToolFilter::Only(mut items)) => {
            bytes.items(&mut items);
            Ok(ToolFilter::Only(items))
        }
        Ok(ToolFilter::Except(mut items)) => {
            bytes.items(&mut items);
            Ok(ToolFilter::Except(items))
        }
        Ok(all) => Ok(all),
        Err(e) => Err(bytes.error(e)),
    }
}

/// Parses `trigger := "Auto" | "Manual" | "Keyword" list [ mode ]` (`auto`, `manual` too).
pub fn parse_trigger(text: &str) -> Result<Trigger, GrammarError> {
    let bytes = Bytes::of(text);
    match trigger_chars(text) {
        Ok(Trigger::Keyword(mut items, mode)) => {
            bytes.items(&mut items);
            Ok(Trigger::Keyword(items, mode))
        }
        Ok(other) => Ok(other),
        Err(e) => Err(bytes.error(e)),
    }
}

fn is_tool_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-')
}

/// Parses `tool_filter := "All" | "Only" list | "Except" list`.
fn tool_filter_chars(text: &str) -> Result<ToolFilter, GrammarError> {
    let mut cur = Cursor::new(text);
    let (word, range) = cur.word();
    let filter = match word.as_str() {
        "All" => ToolFilter::All,
        "Only" => ToolFilter::Only(cur.list("tool", Cursor::tool)?),
        "Except" => ToolFilter::Except(cur.list("tool", Cursor::tool)?),
        _ => {
            let shown = if word.is_empty() { text.trim() } else { &word };
            return Err(cur.error(
                format!("expected `All`, `Only [...]` or `Except [...]`, found `{shown}`"),
                range.start..range.end.max(range.start + 1),
            ));
        }
    };
    if !cur.at_end() {
        return Err(cur.error("unexpected text after the tool filter", cur.rest()));
    }
    Ok(filter)
}

/// Parses `trigger := "Auto" | "Manual" | "Keyword" list [ mode ]` (`auto`, `manual` too).
fn trigger_chars(text: &str) -> Result<Trigger, GrammarError> {
    let mut cur = Cursor::new(text);
    let (word, range) = cur.word();
    let trigger = match word.as_str() {
        "Auto" | "auto" => Trigger::Auto,
        "Manual" | "manual" => Trigger::Manual,
        "Keyword" => {
            let list_start = {
                cur.skip_ws();
                cur.pos
            };
            let items = cur.list("keyword", Cursor::keyword)?;
            if items.is_empty() {
                return Err(cur.error("`Keyword []` names no keyword", list_start..cur.pos));
            }
            let (mode, mode_range) = cur.word();
            let mode = match mode.as_str() {
                "" => KeywordMode::Default,
                "confirm" => KeywordMode::Confirm,
                "deterministic" => KeywordMode::Deterministic,
                other => {
                    return Err(cur.error(
                        format!(
                            "unknown keyword mode `{other}`; expected `confirm` or `deterministic`"
                        ),
                        mode_range,
                    ));
                }
            };
            Trigger::Keyword(items, mode)
        }
        _ => {
            let shown = if word.is_empty() { text.trim() } else { &word };
            return Err(cur.error(
                format!("expected `Auto`, `Manual` or `Keyword [...]`, found `{shown}`"),
                range.start..range.end.max(range.start + 1),
            ));
        }
    };
    if !cur.at_end() {
        return Err(cur.error("unexpected text after the trigger", cur.rest()));
    }
    Ok(trigger)
}

/// `a`, `a and b`, `a, b and c`.
fn words(items: &[Item], quote: bool) -> String {
    let shown: Vec<String> = items
        .iter()
        .map(|i| {
            if quote {
                format!("\"{}\"", i.text)
            } else {
                i.text.clone()
            }
        })
        .collect();
    match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => shown.concat(),
    }
}

impl Trigger {
    /// What the trigger means, in words.
    pub fn explain(&self) -> String {
        match self {
            Trigger::Auto => "the model decides when to activate it, from its description".into(),
            Trigger::Manual => "activates only when the user invokes it explicitly".into(),
            Trigger::Keyword(items, mode) => {
                let how = match mode {
                    KeywordMode::Deterministic => "immediately, no model confirmation",
                    KeywordMode::Confirm => "after the model confirms it fits",
                    KeywordMode::Default => "in PAR's default keyword mode",
                };
                format!(
                    "activates when the message contains {} — {how}",
                    words(items, true).replace(" and ", " or ")
                )
            }
        }
    }
}

impl ToolFilter {
    /// What the filter allows, in words.
    pub fn explain(&self) -> String {
        match self {
            ToolFilter::All => "may use every tool".into(),
            ToolFilter::Only(items) if items.is_empty() => "may use no tool at all".into(),
            ToolFilter::Only(items) => format!("may use only {}", words(items, false)),
            ToolFilter::Except(items) if items.is_empty() => {
                "may use every tool (`Except []` excludes nothing)".into()
            }
            ToolFilter::Except(items) => {
                format!("may use every tool except {}", words(items, false))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(items: &[Item]) -> Vec<&str> {
        items.iter().map(|i| i.text.as_str()).collect()
    }

    #[test]
    fn tool_filters() {
        assert_eq!(parse_tool_filter("All"), Ok(ToolFilter::All));
        match parse_tool_filter(r#"Except ["shell", web.fetch , a:b-c]"#) {
            Ok(ToolFilter::Except(items)) => {
                assert_eq!(names(&items), ["shell", "web.fetch", "a:b-c"])
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_tool_filter("Only []"), Ok(ToolFilter::Only(vec![])));
        for bad in [
            "Some [x]",
            "Only [a b",
            "Only [a,]",
            "All extra",
            "Only a",
            "",
            "only [a]",
        ] {
            assert!(parse_tool_filter(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn triggers() {
        assert_eq!(parse_trigger("manual"), Ok(Trigger::Manual));
        match parse_trigger(r#"Keyword [deploy, "release, notes", stack trace ] deterministic"#) {
            Ok(Trigger::Keyword(items, KeywordMode::Deterministic)) => {
                assert_eq!(names(&items), ["deploy", "release, notes", "stack trace"]);
                assert_eq!(items[2].range, 35..46);
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            "Keyword []",
            "Keyword [a] fast",
            "Sometimes",
            "Keyword [a, , b]",
            "Keyword",
        ] {
            assert!(parse_trigger(bad).is_err(), "{bad}");
        }
    }
}
