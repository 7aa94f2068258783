//! Positions in JSON text: the byte range of the value at a path. `serde_json` gives values,
//! not where they are; diagnostics about tool schemas need both.

use std::ops::Range;

/// One step of a path into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// The byte range of the value at `path` in `text` (valid JSON, as checked by serde_json, so
/// nesting is bounded by its recursion limit).
pub fn locate(text: &str, path: &[Step]) -> Option<Range<usize>> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
    };
    s.ws();
    s.find(path)
}

/// Where each item of the array `text` holds begins, as far as [`locate`] reaches them: item
/// `n` is where `locate` looks for the rest of a path that starts with `Step::Index(n)`. One
/// pass over the text, so that the items of a long array are found in linear time in all.
pub fn item_starts(text: &str) -> Vec<usize> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
    };
    let mut starts = Vec::new();
    if s.eat(b'[').is_none() {
        return starts;
    }
    loop {
        s.ws();
        starts.push(s.i);
        if s.skip().is_none() || s.eat(b',').is_none() {
            return starts;
        }
    }
}

/// [`locate`] of `path` from `start`, an item's start given by [`item_starts`]: the same as
/// `locate` of `Step::Index(n)` followed by `path`, without walking the items before it.
pub fn locate_from(text: &str, start: usize, path: &[Step]) -> Option<Range<usize>> {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: start,
    };
    s.find(path)
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    fn find(&mut self, path: &[Step]) -> Option<Range<usize>> {
        self.ws();
        let start = self.i;
        let Some((step, rest)) = path.split_first() else {
            self.skip()?;
            return Some(start..self.i);
        };
        match step {
            Step::Key(key) => {
                self.eat(b'{')?;
                loop {
                    self.ws();
                    let name = self.string()?;
                    self.eat(b':')?;
                    if name == *key {
                        return self.find(rest);
                    }
                    self.ws();
                    self.skip()?;
                    self.eat(b',')?;
                }
            }
            Step::Index(n) => {
                self.eat(b'[')?;
                for _ in 0..*n {
                    self.ws();
                    self.skip()?;
                    self.eat(b',')?;
                }
                self.find(rest)
            }
        }
    }

    /// Skips one value.
    fn skip(&mut self) -> Option<()> {
        match *self.b.get(self.i)? {
            b'"' => self.string().map(drop),
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.i += 1;
                if self.eat(close).is_some() {
                    return Some(());
                }
                loop {
                    self.ws();
                    if open == b'{' {
                        self.string()?;
                        self.eat(b':')?;
                        self.ws();
                    }
                    self.skip()?;
                    if self.eat(b',').is_none() {
                        return self.eat(close);
                    }
                }
            }
            _ => {
                while self
                    .b
                    .get(self.i)
                    .is_some_and(|c| !matches!(c, b',' | b']' | b'}') && !c.is_ascii_whitespace())
                {
                    self.i += 1;
                }
                Some(())
            }
        }
    }

    /// Reads a string, decoding escapes.
    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i + 1;
        self.i += 1;
        loop {
            match *self.b.get(self.i)? {
                b'\\' => self.i += 2,
                b'"' => break,
                _ => self.i += 1,
            }
        }
        let raw = std::str::from_utf8(self.b.get(start..self.i)?).ok()?;
        self.i += 1;
        serde_json::from_str(&format!("\"{raw}\"")).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_nested_values() {
        let text =
            r#"[ {"name": "a"}, {"n\u0061me": "b", "parameters": {"type": ["x", {"y": 1}]}} ]"#;
        let at = |path: &[Step]| locate(text, path).map(|r| &text[r]);
        assert_eq!(
            at(&[Step::Index(1), Step::Key("name".into())]),
            Some("\"b\"")
        );
        assert_eq!(
            at(&[
                Step::Index(1),
                Step::Key("parameters".into()),
                Step::Key("type".into()),
                Step::Index(1)
            ]),
            Some("{\"y\": 1}")
        );
        assert_eq!(at(&[Step::Index(0)]), Some("{\"name\": \"a\"}"));
        assert_eq!(at(&[Step::Index(5)]), None);
    }

    /// A path from an item's start finds what the same path after `Step::Index` finds, for
    /// every item and past the last, in arrays that are empty, spaced, nested, or broken.
    #[test]
    fn item_starts_lead_where_indices_do() {
        let texts = [
            "[]",
            " [ ] ",
            r#"[{"name": "a"},{"name":"b","x":[1,2]} , 3, "s" ]"#,
            "[\n  {\"name\": \"a\"},\n  {\"n\\u0061me\": \"b\"}\n]",
            r#"[{"name": "a"}, {"name": "b", "bad": "#,
            r#"[{"name": "a"} {"name": "b"}]"#,
            r#"{"name": "a"}"#,
            "",
        ];
        let paths: [&[Step]; 3] = [
            &[],
            &[Step::Key("name".into())],
            &[Step::Key("x".into()), Step::Index(1)],
        ];
        for text in texts {
            let starts = item_starts(text);
            for n in 0..6 {
                for rest in paths {
                    let mut path = vec![Step::Index(n)];
                    path.extend_from_slice(rest);
                    let from = starts.get(n).and_then(|&at| locate_from(text, at, rest));
                    assert_eq!(from, locate(text, &path), "{text:?} item {n} {rest:?}");
                }
            }
        }
    }
}
