//! `--format github`: GitHub Actions workflow commands, one per diagnostic.

use std::fmt::Write;

use super::{printable, slash_path};
use crate::diagnostic::Severity;
use crate::skill::SkillReport;

pub fn render(reports: &[SkillReport]) -> String {
    super::collect(|out| write(reports, out))
}

/// [`render`] to `sink`, a report at a time.
pub fn write(reports: &[SkillReport], sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    super::by_report(reports, sink, render_report)
}

fn render_report(report: &SkillReport, out: &mut String) {
    for d in &report.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let mut props = format!("file={}", property(&printable(&slash_path(&d.path))));
        if let Some(r) = d.region {
            let _ = write!(
                props,
                ",line={},col={},endLine={},endColumn={}",
                r.line, r.column, r.end_line, r.end_column
            );
        }
        let _ = write!(
            props,
            ",title={}",
            property(&format!("skillc ({})", d.rule.code))
        );
        // The help goes into the annotation's text: a pull request shows nothing else.
        let mut text = data(&printable(&d.message));
        if let Some(help) = &d.help {
            let _ = write!(text, "%0Ahelp: {}", data(&printable(help)));
        }
        let _ = writeln!(out, "::{command} {props}::{text}");
    }
}

/// GitHub shows at most this many annotations of each kind (error, warning, notice) per step.
pub const ANNOTATIONS_PER_STEP: usize = 10;

/// At most this many diagnostics are listed in the step summary.
const SUMMARY_DIAGNOSTICS: usize = 50;

/// The annotations of a run beyond GitHub's per-step limit, as "6 errors and 9 warnings are"
/// (`None`: every one is shown).
pub fn beyond_limit(reports: &[SkillReport]) -> Option<String> {
    let mut by_kind = [0usize; 3];
    for d in super::diagnostics(reports) {
        by_kind[kind(d.severity)] += 1;
    }
    let names = ["error", "warning", "notice"];
    let hidden: Vec<String> = by_kind
        .iter()
        .zip(names)
        .filter(|(n, _)| **n > ANNOTATIONS_PER_STEP)
        .map(|(n, name)| {
            let n = n - ANNOTATIONS_PER_STEP;
            format!("{n} {name}{}", if n == 1 { "" } else { "s" })
        })
        .collect();
    let one = hidden.len() == 1 && hidden[0].starts_with("1 ");
    (!hidden.is_empty()).then(|| {
        format!(
            "{} {}",
            hidden.join(" and "),
            if one { "is" } else { "are" }
        )
    })
}

fn kind(severity: Severity) -> usize {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// Where the checked files are in the repository on GitHub: the files' links.
pub struct Commit<'a> {
    /// `https://github.com`.
    pub server: &'a str,
    /// `owner/name`.
    pub repository: &'a str,
    pub sha: &'a str,
    /// The current directory relative to the repository's root, `/`-separated, empty or
    /// ending in `/`.
    pub prefix: String,
}

/// The Markdown a run appends to `$GITHUB_STEP_SUMMARY`: the summary line, the count of each
/// rule, and the first diagnostics, linked to their lines (when the workflow's repository and
/// commit are known) and to their rules' documentation.
pub fn step_summary(
    reports: &[SkillReport],
    summary_line: &str,
    commit: Option<&Commit>,
) -> String {
    // The summary line is skillc's own text.
    let mut out = format!("## skillc\n\n{summary_line}\n");
    let rows = super::statistics::rows(reports);
    if !rows.is_empty() {
        out += "\n| rule | name | severity | count |\n|---|---|---|---:|\n";
        for row in &rows {
            let _ = writeln!(
                out,
                "| [{code}]({}) | {} | {} | {} |",
                crate::rule::doc_url(row.code),
                row.name,
                row.severity,
                row.count,
                code = row.code
            );
        }
    }
    let total = super::diagnostics(reports).count();
    if total > 0 {
        let _ = writeln!(
            out,
            "\n### {}\n",
            if total > SUMMARY_DIAGNOSTICS {
                format!("The first {SUMMARY_DIAGNOSTICS} of {total} diagnostics")
            } else {
                "Diagnostics".to_string()
            }
        );
        for d in super::diagnostics(reports).take(SUMMARY_DIAGNOSTICS) {
            let path = slash_path(&d.path);
            let line = d.region.map(|r| r.line);
            let place = match line {
                Some(line) => format!("{path}:{line}"),
                None => path.to_string(),
            };
            let place = match commit {
                Some(c) => format!(
                    "[{}]({}/{}/blob/{}/{}{}{})",
                    cell(&place),
                    c.server,
                    c.repository,
                    c.sha,
                    c.prefix,
                    url_path(path.trim_start_matches("./")),
                    line.map(|l| format!("#L{l}")).unwrap_or_default()
                ),
                None => cell(&place),
            };
            let _ = writeln!(
                out,
                "- {} {place} [{}]({}): {}",
                d.severity.as_str(),
                d.rule.code,
                crate::rule::doc_url(d.rule.code),
                cell(&d.message)
            );
        }
    }
    out
}

/// A path as a URL's path: bytes other than unreserved ones and `/` escaped.
fn url_path(path: &str) -> String {
    crate::encode::percent_encode(path.as_bytes())
}

/// Text from a skill made safe for the middle of one Markdown line: printable, one line, the
/// characters that open inline Markdown backslash-escaped and HTML's as entities, so that no
/// link, image, emphasis, code, HTML or table cell can be written by a skill.
fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in printable(text).chars() {
        match c {
            '\u{240a}' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            // What opens inline Markdown (the text never starts a line).
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '!' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes a command's message as the Actions toolkit does.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property as the Actions toolkit does.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_text_writes_no_markdown_in_the_summary() {
        assert_eq!(
            cell("[click](https://e.x) ![p](https://e.x/p.png) **b** <b>|`c`\n&"),
            "\\[click\\]\\(https://e.x\\) \\!\\[p\\]\\(https://e.x/p.png\\) \\*\\*b\\*\\* &lt;b&gt;\\|\\`c\\` &amp;"
        );
    }

    #[test]
    fn escaping() {
        assert_eq!(data("100% done\r\nnext"), "100%25 done%0D%0Anext");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
