//! Suppression comments written for diagnostics: the language server's "Ignore SKxxx on this
//! line" and `validate --add-noqa`. A comment is written only where linting the text with it
//! shows that it suppresses exactly its diagnostic's rule on that line and changes nothing else.

use std::collections::HashMap;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::skill::SkillReport;

/// The suppression comment for `d` (a diagnostic of `report`, the report of `text` as the
/// skill file at `path`) and where it goes: added to a directive already there, else
/// `# skillc: ignore[CODE]` on a line of its own above the diagnostic's line in the
/// frontmatter, ` <!-- skillc: ignore[CODE] -->` at the end of its line in the body (a
/// directive covers its own line). `None` unless linting the text with it (`lint`) shows that
/// it suppresses exactly `d`'s rule on that line and changes nothing else: the frontmatter's
/// values, the body's links (a comment inside a block of text would be text, one after a
/// reference definition ends it). Never in a table row or a code fence, after a hard line
/// break, nor in a file whose lines a lone `\r` ends.
pub fn comment_for(
    path: &Path,
    text: &str,
    report: &SkillReport,
    d: &Diagnostic,
    lint: &dyn Fn(&str) -> Option<SkillReport>,
) -> Option<(usize, String)> {
    // The skill file as the report names it (the diagnostics' path).
    let shown = report.dir.file.clone()?;
    if !d.rule.suppressible || text.replace("\r\n", "").contains('\r') || *d.path != *shown {
        return None;
    }
    let region = d.region?;
    let offset = region.offset.min(text.len());
    let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let end = text
        .get(start..)?
        .find('\n')
        .map_or(text.len(), |i| start + i);
    let line = text.get(start..end)?;
    let content_end = end - usize::from(line.ends_with('\r'));
    let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    let file = crate::source::SkillFile::new(path.to_path_buf(), text.to_string());
    let layout = file.layout().ok()?;
    let in_frontmatter = start > layout.open.start && start < layout.close.start;
    let code = d.rule.code;
    let (at, comment) = if in_frontmatter {
        // A directive on the line above (of its own) takes one more code.
        let above = text.get(..start.saturating_sub(1))?;
        let above_start = above.rfind('\n').map_or(0, |i| i + 1);
        let above_line = above.get(above_start..)?.trim_end_matches('\r');
        match extend(above_line, "# skillc: ignore[") {
            Some(at)
                if above_line.trim_start().starts_with('#') && above_start > layout.open.start =>
            {
                (above_start + at, format!(", {code}"))
            }
            _ => {
                let eol = if line.ends_with('\r') { "\r\n" } else { "\n" };
                (start, format!("{indent}# skillc: ignore[{code}]{eol}"))
            }
        }
    } else {
        let content = &line[..content_end - start];
        if let Some(at) = extend(content, "<!-- skillc: ignore[") {
            (start + at, format!(", {code}"))
        } else {
            // Not in a table row or a code fence; not after a hard line break (`\` or two
            // spaces at the end); not on a reference definition (the comment would end it).
            // Nor where the line ends inside a code span or an HTML tag (the comment would be
            // shown as code or become part of the tag), nor in an indented code block.
            let open_tag = content
                .rfind('<')
                .is_some_and(|lt| !content[lt..].contains('>'));
            if line.trim_start().starts_with('|')
                || content.ends_with('\\')
                || content.ends_with("  ")
                || content.matches('`').count() % 2 == 1
                || open_tag
                || content.starts_with("    ")
                || content.starts_with('\t')
                || is_reference_definition(content)
                || in_code_fence(text.get(layout.body.start..start)?)
            {
                return None;
            }
            (content_end, format!(" <!-- skillc: ignore[{code}] -->"))
        }
    };
    let mut with = text.to_string();
    with.insert_str(at, &comment);
    let after = lint(&with)?;
    let own = |report: &SkillReport| -> Vec<(&'static str, usize)> {
        report
            .diagnostics
            .iter()
            .filter(|x| *x.path == *shown)
            .map(|x| (x.rule.code, x.region.map_or(0, |r| r.line)))
            .collect()
    };
    let counts = |report: &SkillReport| {
        let mut counts: HashMap<&'static str, usize> = HashMap::new();
        for (code, _) in own(report) {
            *counts.entry(code).or_default() += 1;
        }
        counts
    };
    let on_line = own(report)
        .iter()
        .filter(|(c, line)| *c == code && *line == region.line)
        .count();
    let (mut was, mut now) = (counts(report), counts(&after));
    let exact = now.remove(code).unwrap_or(0) + on_line == was.remove(code).unwrap_or(0);
    let same_values = !in_frontmatter || frontmatter_value(text) == frontmatter_value(&with);
    let dests = |text: &str| -> Vec<String> {
        crate::markdown::links(text.get(layout.body.start..).unwrap_or(""))
            .into_iter()
            .map(|link| link.dest)
            .collect()
    };
    let same_links = dests(text) == dests(&with);
    (exact && was == now && same_values && same_links).then_some((at, comment))
}

/// Where a directive `marker…]` on `line` takes one more code: the offset of its `]`.
fn extend(line: &str, marker: &str) -> Option<usize> {
    let start = line.find(marker)? + marker.len();
    Some(start + line[start..].find(']')?)
}

/// Whether a Markdown line is a link reference definition (`[label]: destination`).
pub fn is_reference_definition(line: &str) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    indent <= 3
        && rest.starts_with('[')
        && rest
            .find("]:")
            .is_some_and(|end| end > 1 && !rest[1..end].contains(']'))
}

/// Whether the Markdown `before` (a body up to a line) leaves that line inside a fenced code
/// block.
pub fn in_code_fence(before: &str) -> bool {
    before
        .lines()
        .filter(|line| {
            let line = line.trim_start_matches(' ');
            line.starts_with("```") || line.starts_with("~~~")
        })
        .count()
        % 2
        == 1
}

/// The frontmatter of `text` as data (`None` when it has none or it does not parse).
fn frontmatter_value(text: &str) -> Option<serde_json::Value> {
    let file = crate::source::SkillFile::new(std::path::PathBuf::new(), text.to_string());
    let layout = file.layout().ok()?;
    let doc = crate::yaml::parse(file.slice(layout.frontmatter), layout.frontmatter.start).ok()?;
    let mut budget = 10_000;
    Some(crate::yaml::to_json(
        doc.root.as_ref()?,
        doc.aliases(),
        &mut budget,
    ))
}

/// `# skillc: ignore-file[CODE]` for the diagnostics of `code` that no line comment covers
/// (about the whole skill, or in another of its files): added to the frontmatter's first
/// `ignore-file` directive, else on a line of its own at the frontmatter's start — when
/// linting the text with it shows that only `code`'s diagnostics went, and the frontmatter's
/// values and the body's links are unchanged.
pub fn file_comment_for(
    path: &Path,
    text: &str,
    report: &SkillReport,
    code: &'static str,
    lint: &dyn Fn(&str) -> Option<SkillReport>,
) -> Option<(usize, String)> {
    let suppressible = crate::rule::find(code).is_some_and(|rule| rule.suppressible);
    if !suppressible || text.replace("\r\n", "").contains('\r') {
        return None;
    }
    let file = crate::source::SkillFile::new(path.to_path_buf(), text.to_string());
    let layout = file.layout().ok()?;
    let frontmatter = text.get(layout.frontmatter.start..layout.frontmatter.end)?;
    let existing = frontmatter
        .lines()
        .scan(layout.frontmatter.start, |at, line| {
            let start = *at;
            *at += line.len() + 1;
            Some((start, line))
        });
    let mut insert = None;
    for (start, line) in existing {
        if line.trim_start().starts_with('#')
            && let Some(at) = extend(line, "# skillc: ignore-file[")
        {
            insert = Some((start + at, format!(", {code}")));
            break;
        }
    }
    let eol = if text
        .get(..layout.frontmatter.start)
        .is_some_and(|open| open.ends_with("\r\n"))
    {
        "\r\n"
    } else {
        "\n"
    };
    let (at, comment) = insert.unwrap_or_else(|| {
        (
            layout.frontmatter.start,
            format!("# skillc: ignore-file[{code}]{eol}"),
        )
    });
    let mut with = text.to_string();
    with.insert_str(at, &comment);
    let after = lint(&with)?;
    let others = |report: &SkillReport| -> Vec<(&'static str, String)> {
        let mut all: Vec<(&'static str, String)> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule.code != code && d.rule.code != crate::rules::SK019.code)
            .map(|d| (d.rule.code, d.message.clone()))
            .collect();
        all.sort();
        all
    };
    let gone = !after.diagnostics.iter().any(|d| d.rule.code == code);
    let links = |text: &str| -> Vec<String> {
        crate::markdown::links(text.get(layout.body.start..).unwrap_or(""))
            .into_iter()
            .map(|link| link.dest)
            .collect()
    };
    let unchanged = others(report) == others(&after)
        && frontmatter_value(text) == frontmatter_value(&with)
        && links(text) == links(&with);
    (gone && unchanged).then_some((at, comment))
}

/// What `--add-noqa` did to one file.
#[derive(Debug, Default)]
pub struct Added {
    /// The text with the comments.
    pub text: String,
    /// Comments written (or codes added to a directive).
    pub comments: usize,
    /// Diagnostics of the file no comment could cover.
    pub left: usize,
}

/// Writes a suppression comment for every diagnostic of the skill file `text` that one can
/// cover ([`comment_for`]), one at a time from the end of the file, linting again after each.
pub fn add_all(path: &Path, text: &str, lint: &dyn Fn(&str) -> Option<SkillReport>) -> Added {
    let mut out = Added {
        text: text.to_string(),
        ..Added::default()
    };
    let mut refused: std::collections::HashSet<(&'static str, usize, String)> =
        std::collections::HashSet::new();
    // Each round covers one diagnostic or refuses one: bounded by what the file reports.
    for _ in 0..10_000 {
        let Some(report) = lint(&out.text) else {
            return out;
        };
        let shown = report.dir.file.clone();
        let mut own: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| Some(&d.path) == shown.as_ref() && d.region.is_some())
            .filter(|d| {
                let line = d.region.map_or(0, |r| r.line);
                !refused.contains(&(d.rule.code, line, d.message.clone()))
            })
            .collect();
        own.sort_by_key(|d| std::cmp::Reverse(d.region.map_or(0, |r| r.offset)));
        let Some(d) = own.first() else {
            // What no line comment covers: one `ignore-file` directive per rule, if it works.
            let mut codes: Vec<&'static str> =
                report.diagnostics.iter().map(|d| d.rule.code).collect();
            codes.sort_unstable();
            codes.dedup();
            for code in codes {
                let Some(report) = lint(&out.text) else {
                    break;
                };
                if let Some((at, comment)) = file_comment_for(path, &out.text, &report, code, lint)
                {
                    out.text.insert_str(at, &comment);
                    out.comments += 1;
                }
            }
            out.left = lint(&out.text).map_or(0, |r| r.diagnostics.len());
            return out;
        };
        match comment_for(path, &out.text, &report, d, lint) {
            Some((at, comment)) => {
                out.text.insert_str(at, &comment);
                out.comments += 1;
            }
            None => {
                let line = d.region.map_or(0, |r| r.line);
                refused.insert((d.rule.code, line, d.message.clone()));
            }
        }
    }
    out
}
