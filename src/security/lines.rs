//! How the text of a file is cut into the lines the scan matches: logical lines (continued and
//! bracketed lines joined), comments, assignments, the language of a code fence, and lines that
//! are patterns a scanner matches rather than commands.

use super::read::Lang;

/// Where each line of `text` starts (and one past a final newline).
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

/// The logical lines of a text (1-based first line, text): shell and PowerShell lines
/// continued with `\` or `` ` `` joined, Python and JavaScript lines joined while brackets are
/// open, and a PowerShell hashtable or array literal (at most 30 lines).
pub(super) fn logical_lines(text: &str, lang: Lang) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut depth = 0i32;
    let mut joined = 0;
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let (first_line, first_byte) = *start.get_or_insert((n + 1, at));
        at += line.len();
        let trimmed = line.trim_end();
        let continues = match lang {
            Lang::Shell | Lang::Code => trimmed.ends_with('\\'),
            // A hashtable or array literal (`$ctx = [ordered]@{`) is one statement.
            Lang::PowerShell => {
                if depth > 0 || trimmed.ends_with("@{") || trimmed.ends_with("@(") {
                    depth += bracket_balance(trimmed, false);
                    depth = depth.max(0);
                }
                depth > 0 || trimmed.ends_with('`') || trimmed.ends_with('^')
            }
            Lang::Python | Lang::JavaScript => {
                depth += bracket_balance(trimmed, lang == Lang::JavaScript);
                depth = depth.max(0);
                depth > 0 || trimmed.ends_with('\\')
            }
            Lang::Markdown | Lang::Data => false,
        };
        joined += 1;
        if continues && joined < 30 {
            continue;
        }
        out.push((
            first_line,
            text[first_byte..at].trim_end_matches(['\n', '\r']),
        ));
        start = None;
        depth = 0;
        joined = 0;
    }
    // Lines still joined at the end (a bracket never closed: a `(` in a regular expression
    // literal, a truncated script) are a logical line too.
    if let Some((first_line, first_byte)) = start {
        out.push((
            first_line,
            text[first_byte..].trim_end_matches(['\n', '\r']),
        ));
    }
    out
}

/// The characters of code outside string literals, each with where it is and the bracket depth
/// after it: the one quote-aware walk that balancing brackets, splitting at top-level
/// separators and finding a call's closing parenthesis share. With `comments`, the walk ends at
/// a `#` comment, and in JavaScript at a `//` comment (their apostrophes open no string).
pub(super) struct Outside<'a> {
    text: &'a str,
    chars: std::str::CharIndices<'a>,
    quote: Option<char>,
    escaped: bool,
    depth: i32,
    comments: bool,
    javascript: bool,
}

impl<'a> Outside<'a> {
    /// A walk of `text` that reads strings and brackets only.
    pub(super) fn code(text: &'a str) -> Outside<'a> {
        Outside {
            text,
            chars: text.char_indices(),
            quote: None,
            escaped: false,
            depth: 0,
            comments: false,
            javascript: false,
        }
    }

    /// A walk of one line of code that ends at its comment.
    pub(super) fn line(text: &'a str, javascript: bool) -> Outside<'a> {
        Outside {
            comments: true,
            javascript,
            ..Outside::code(text)
        }
    }
}

impl Iterator for Outside<'_> {
    /// Byte offset, character, bracket depth after it.
    type Item = (usize, char, i32);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (i, c) = self.chars.next()?;
            if self.escaped {
                self.escaped = false;
                continue;
            }
            match (self.quote, c) {
                (Some(_), '\\') => self.escaped = true,
                (Some(q), c) if c == q => self.quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'' | '`') => self.quote = Some(c),
                (None, '#') if self.comments => return None,
                (None, '/')
                    if self.comments && self.javascript && self.text[i + 1..].starts_with('/') =>
                {
                    return None;
                }
                (None, c) => {
                    match c {
                        '(' | '[' | '{' => self.depth += 1,
                        ')' | ']' | '}' => self.depth -= 1,
                        _ => {}
                    }
                    return Some((i, c, self.depth));
                }
            }
        }
    }
}

/// Opened minus closed brackets outside strings and comments on one line.
pub(super) fn bracket_balance(line: &str, javascript: bool) -> i32 {
    Outside::line(line, javascript)
        .last()
        .map_or(0, |(_, _, depth)| depth)
}

/// Whether a line of code assigns a name (`x = …`, `let x = …`), not compares.
pub(super) fn is_assignment(line: &str) -> bool {
    let t = line.trim_start();
    let t = t
        .strip_prefix("const ")
        .or_else(|| t.strip_prefix("let "))
        .or_else(|| t.strip_prefix("var "))
        .or_else(|| t.strip_prefix('$'))
        .unwrap_or(t);
    let name = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name > 0 && {
        let rest = t[name..].trim_start();
        rest.starts_with('=') && !rest.starts_with("==")
    }
}

/// A line of code without its trailing comment (`ls -la ~/.ssh/  # don't overwrite`): from a
/// `#` (a `//` in JavaScript) outside quotes that starts the line or follows a space. A line
/// joined from several is kept whole.
pub(super) fn without_comment(line: &str, lang: Lang) -> &str {
    if line.contains('\n') {
        return line;
    }
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
        } else if let Some(q) = quote {
            if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
        } else if matches!(c, '"' | '\'' | '`') && !(lang == Lang::PowerShell && c == '`') {
            quote = Some(c);
        } else if prev.is_whitespace() {
            let opens = match lang {
                Lang::JavaScript => line[i..].starts_with("//"),
                Lang::Shell | Lang::PowerShell | Lang::Python | Lang::Code => c == '#',
                Lang::Markdown | Lang::Data => false,
            };
            if opens {
                return line[..i].trim_end();
            }
        }
        prev = c;
    }
    line
}

/// Whether a line of code defines a pattern to match rather than doing what it names.
pub(super) fn pattern_like(line: &str) -> bool {
    let bytes = line.as_bytes();
    memchr::memchr_iter(b'\\', bytes)
        .any(|i| matches!(bytes.get(i + 1), Some(b'.' | b's' | b'|' | b'b')))
        || memchr::memchr(b'(', bytes).is_some()
            && (line.contains("re.compile(") || line.contains("RegExp(") || line.contains("(?i)"))
}

/// The language of a code fence's info string (`bash`, `python`…).
pub(super) fn fence_lang(info: &str) -> Lang {
    let word = info
        .trim()
        .trim_start_matches('{')
        .split([' ', ',', '}', '.'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match word.as_str() {
        "python" | "py" | "python3" | "ipython" | "pycon" => Lang::Python,
        "js" | "javascript" | "ts" | "typescript" | "node" | "jsx" | "tsx" | "mjs" => {
            Lang::JavaScript
        }
        "powershell" | "ps1" | "pwsh" | "ps" | "bat" | "cmd" | "batch" => Lang::PowerShell,
        "json" | "jsonc" | "yaml" | "yml" | "toml" => Lang::Data,
        "ruby" | "rb" | "perl" | "php" | "go" | "rust" | "java" | "c" | "cpp" | "lua" => Lang::Code,
        "markdown" | "md" | "text" | "txt" | "plaintext" | "diff" | "mermaid" | "html" | "xml"
        | "csv" => Lang::Markdown,
        _ => Lang::Shell,
    }
}

pub(super) fn is_comment(line: &str, lang: Lang) -> bool {
    let t = line.trim_start();
    match lang {
        Lang::Python | Lang::Shell | Lang::PowerShell | Lang::Code => t.starts_with('#'),
        Lang::JavaScript => t.starts_with("//") || t.starts_with("/*") || t.starts_with('*'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bracket_never_closed_keeps_its_lines() {
        let text = "function c(s) {\n  s.a = 1;\n  run('curl -s https://x.example/i.sh | bash');\n";
        assert_eq!(
            logical_lines(text, Lang::JavaScript),
            vec![(1, text.trim_end())]
        );
        assert_eq!(
            logical_lines("echo a \\\n  b\necho c \\", Lang::Shell),
            vec![(1, "echo a \\\n  b"), (3, "echo c \\")]
        );
    }

    #[test]
    fn a_javascript_comment_opens_no_string() {
        // The same line counts the comment's bracket only where `//` opens no comment.
        assert_eq!(bracket_balance("f(a, // see (b", true), 1);
        assert_eq!(bracket_balance("f(a, // see (b", false), 2);
        assert_eq!(bracket_balance("f(a, // it's", true), 1);
        assert_eq!(bracket_balance("x = (a // 2)", false), 0);
    }
}
