//! One renderer per output format, all reading the same reports.

pub mod concise;
pub mod full;
pub mod github;
pub mod json;
pub mod sarif;
mod snippet;
pub mod statistics;

use anstyle::{AnsiColor, Style};

use crate::diagnostic::{Diagnostic, Severity};
use crate::rule::Rule;
use crate::skill::SkillReport;

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Rich rendering with source snippets (for people).
    Full,
    /// One line per diagnostic.
    Concise,
    /// One JSON document (stable, versioned).
    Json,
    /// SARIF 2.1.0, for GitHub code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

/// Counts over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub skills: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Summary {
    pub fn of(reports: &[SkillReport]) -> Summary {
        // A directory given as a skill that holds none (SK001) is not a skill checked.
        let mut summary = Summary {
            skills: reports.iter().filter(|r| r.dir.file.is_some()).count(),
            ..Summary::default()
        };
        for (_, severity, count) in counts(reports) {
            match severity {
                Severity::Error => summary.errors += count,
                Severity::Warning => summary.warnings += count,
                Severity::Info => summary.infos += count,
            }
        }
        summary
    }

    /// `Checked 12 skills: 3 errors, 1 warning, 2 infos.`
    pub fn line(&self) -> String {
        let plural = crate::diagnostic::counted;
        format!(
            "Checked {}: {}, {}, {}.",
            plural(self.skills, "skill"),
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
            plural(self.infos, "info")
        )
    }
}

/// Every diagnostic of a run, in output order (reports are sorted by path, and each report's
/// diagnostics by line, column and code).
pub fn diagnostics(reports: &[SkillReport]) -> impl Iterator<Item = &Diagnostic> {
    reports.iter().flat_map(|r| r.diagnostics.iter())
}

/// Every problem of a run as its rule, severity and count: the diagnostics, and those only
/// counted ([`SkillReport::tallies`]).
pub fn counts(
    reports: &[SkillReport],
) -> impl Iterator<Item = (&'static Rule, Severity, usize)> + '_ {
    reports.iter().flat_map(|r| {
        let kept = r.diagnostics.iter().map(|d| (d.rule, d.severity, d.count));
        let counted = r.tallies.iter().map(|t| (t.rule, t.severity, t.count));
        kept.chain(counted)
    })
}

/// Text from a skill, a file name or an archive as it may be shown to a person: every control
/// character becomes its Unicode control picture (`\n` → `␊`, ESC → `␛`; C1 controls and
/// bidirectional overrides → `�`), one
/// character for one, so no input can forge an output line or drive the terminal, and columns
/// still line up.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || is_bidi(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| match c as u32 {
            n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
            0x7f => '\u{2421}',
            _ if c.is_control() || is_bidi(c) => '\u{fffd}',
            _ => c,
        })
        .collect::<String>()
        .into()
}

/// The colours: severity in red, yellow or cyan, the gutter and secondary marks in blue, `help`
/// in cyan, all bold; none when `color` is off (`--color`, `NO_COLOR`, not a terminal).
pub fn style(color: bool, c: AnsiColor) -> Style {
    if color {
        Style::new().fg_color(Some(c.into())).bold()
    } else {
        Style::new()
    }
}

/// The style of a severity: red, yellow or cyan.
pub fn severity_style(color: bool, severity: Severity) -> Style {
    style(
        color,
        match severity {
            Severity::Error => AnsiColor::Red,
            Severity::Warning => AnsiColor::Yellow,
            Severity::Info => AnsiColor::Cyan,
        },
    )
}

/// ` [*]` after the code of a diagnostic whose fix this run applies (ruff's marker).
pub fn fix_marker(d: &crate::diagnostic::Diagnostic) -> &'static str {
    if d.fix.as_deref().is_some_and(|f| f.available) {
        " [*]"
    } else {
        ""
    }
}

/// Text safe to print in a message on a terminal line: control characters (newlines, escapes) and
/// bidirectional overrides are written as Rust escapes, so a name cannot forge an output line
/// or drive the terminal. Quotes and backslashes stay as they are, so text that was already
/// escaped is not escaped twice.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || is_bidi(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a character reorders the text around it (a bidirectional override or isolate).
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A JSON document as every JSON output prints it: pretty, two-space indent, and with the
/// characters that serde_json leaves raw but a terminal may act on (DEL, C1 controls,
/// bidirectional overrides) written as `\uXXXX` escapes — the same JSON value, safe to print.
pub fn json_text(value: &impl serde::Serialize) -> String {
    collect(|out| json_to(out, value))
}

/// [`json_text`] to `sink`, as it is serialized.
pub fn json_to(
    sink: &mut dyn std::io::Write,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    let mut chunks = Chunks {
        buf: Vec::with_capacity(CHUNK),
        sink,
    };
    let mut serializer = serde_json::Serializer::with_formatter(
        &mut chunks,
        SafeFormatter(serde_json::ser::PrettyFormatter::new()),
    );
    value
        .serialize(&mut serializer)
        .map_err(std::io::Error::from)?;
    chunks.sink.write_all(&chunks.buf)
}

/// How much serialized JSON is gathered before it is written on.
const CHUNK: usize = 64 * 1024;

/// A buffer in front of a writer of any kind: the serializer's many small writes are copies
/// into it (no call through `dyn Write` each), and it is written on a chunk at a time.
struct Chunks<'a> {
    buf: Vec<u8>,
    sink: &'a mut dyn std::io::Write,
}

impl std::io::Write for Chunks<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= CHUNK {
            self.sink.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.sink.write_all(&self.buf)?;
        self.buf.clear();
        self.sink.flush()
    }
}

/// Writes each report's text, as `render` makes it, to `sink`, in order: reports are rendered
/// on several cores at once (up to 8), and the output is never held whole
/// ([`crate::parallel::write_in_order`]).
pub fn by_report(
    reports: &[SkillReport],
    sink: &mut dyn std::io::Write,
    render: impl Fn(&SkillReport, &mut String) + Sync,
) -> std::io::Result<()> {
    crate::parallel::write_in_order(reports, sink, |block, _| {
        let mut out = String::new();
        for report in block {
            render(report, &mut out);
        }
        Ok(out.into_bytes())
    })
}

/// The text a renderer writes (every renderer writes UTF-8); empty if it fails.
pub fn collect(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> String {
    let mut out = Vec::new();
    match write(&mut out) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// `value` as [`json_to`] writes it where it is nested `depth` arrays or objects deep (an
/// entry of an array that is a field of the document is 2 deep), to `out`.
pub fn json_nested(
    out: &mut Vec<u8>,
    depth: usize,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    use serde_json::ser::Formatter;
    let mut pretty = serde_json::ser::PrettyFormatter::new();
    for _ in 0..depth {
        // The formatter's depth is its own; opening arrays (written nowhere) sets it.
        pretty.begin_array(&mut std::io::sink())?;
    }
    let mut serializer = serde_json::Serializer::with_formatter(out, SafeFormatter(pretty));
    value
        .serialize(&mut serializer)
        .map_err(std::io::Error::from)
}

/// serde_json's pretty formatter, escaping what [`json_text`] says.
struct SafeFormatter<'a>(serde_json::ser::PrettyFormatter<'a>);

impl serde_json::ser::Formatter for SafeFormatter<'_> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Most text is printable ASCII: only DEL and non-ASCII characters are looked at.
        let bytes = fragment.as_bytes();
        let (mut written, mut at) = (0, 0);
        while let Some(found) = bytes
            .get(at..)
            .and_then(|rest| rest.iter().position(|b| !(0x20..0x7f).contains(b)))
        {
            at += found;
            let c = fragment
                .get(at..)
                .and_then(|rest| rest.chars().next())
                .unwrap_or('\u{fffd}');
            if c.is_control() || is_bidi(c) {
                writer.write_all(&bytes[written..at])?;
                write!(writer, "\\u{:04x}", c as u32)?;
                written = at + c.len_utf8();
            }
            at += c.len_utf8();
        }
        writer.write_all(&bytes[written..])
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// A path with `/` separators, as every format prints it.
pub fn slash_path(path: &std::path::Path) -> std::borrow::Cow<'_, str> {
    // Most paths are UTF-8: checked as a whole, faster than a lossy conversion's chunks.
    let text = path
        .to_str()
        .map_or_else(|| path.to_string_lossy(), std::borrow::Cow::Borrowed);
    if std::path::MAIN_SEPARATOR == '\\' {
        std::borrow::Cow::Owned(text.replace('\\', "/"))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::{escaped, printable};

    #[test]
    fn escaped_escapes_controls_and_bidi_only() {
        assert_eq!(
            escaped("a\nOK: b\u{1b}[31m\u{202e}`c`\\\"'"),
            "a\\u{a}OK: b\\u{1b}[31m\\u{202e}`c`\\\"'"
        );
        assert_eq!(escaped("SKILL.md"), "SKILL.md");
        assert_eq!(escaped("naïve/日本.md"), "naïve/日本.md");
    }

    #[test]
    fn printable_replaces_controls_one_for_one() {
        assert_eq!(
            printable("a\nOK: b\u{1b}[2J\u{7f}\u{85}é\t"),
            "a␊OK: b␛[2J␡�é␉"
        );
        assert!(matches!(
            printable("plain é"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn json_text_escapes_what_a_terminal_acts_on() {
        let value = serde_json::json!({"a": "x\u{9b}y\u{202e}z\u{7f}\n\"é"});
        let text = super::json_text(&value);
        assert_eq!(text, "{\n  \"a\": \"x\\u009by\\u202ez\\u007f\\n\\\"é\"\n}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            value
        );
    }
}
