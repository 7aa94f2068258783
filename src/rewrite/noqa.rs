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
    if !d.rule.suppressible || *d.path != *shown || lone_cr(text) {
        return None;
    }
    let region = d.region?;
    let file = crate::source::SkillFile::new(path.to_path_buf(), text.to_string());
    let layout = file.layout().ok()?;
    let code = d.rule.code;
    let (at, comment, in_frontmatter) = place(text, &layout, region.offset, &[code])?;
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

/// Where the suppression comment for `codes` on the line at byte `offset` of `text` goes, and
/// what it is (see [`comment_for`]), and whether that line is in the frontmatter; `None` where
/// no comment may go. Nothing is linted here; a text with lone `\r` line ends is the caller's
/// to refuse ([`lone_cr`]).
fn place(
    text: &str,
    layout: &crate::source::Layout,
    offset: usize,
    codes: &[&str],
) -> Option<(usize, String, bool)> {
    let offset = offset.min(text.len());
    let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let end = text
        .get(start..)?
        .find('\n')
        .map_or(text.len(), |i| start + i);
    let line = text.get(start..end)?;
    let content_end = end - usize::from(line.ends_with('\r'));
    let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    let in_frontmatter = start > layout.open.start && start < layout.close.start;
    let codes = codes.join(", ");
    let (at, comment) = if in_frontmatter {
        // A directive on the line above (of its own) takes one more code.
        let above = text.get(..start.saturating_sub(1))?;
        let above_start = above.rfind('\n').map_or(0, |i| i + 1);
        let above_line = above.get(above_start..)?.trim_end_matches('\r');
        match extend(above_line, "# skillc: ignore[") {
            Some(at)
                if above_line.trim_start().starts_with('#') && above_start > layout.open.start =>
            {
                (above_start + at, format!(", {codes}"))
            }
            _ => {
                let eol = if line.ends_with('\r') { "\r\n" } else { "\n" };
                (start, format!("{indent}# skillc: ignore[{codes}]{eol}"))
            }
        }
    } else {
        let content = &line[..content_end - start];
        if let Some(at) = extend(content, "<!-- skillc: ignore[") {
            (start + at, format!(", {codes}"))
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
            (content_end, format!(" <!-- skillc: ignore[{codes}] -->"))
        }
    };
    Some((at, comment, in_frontmatter))
}

/// Whether a line of `text` ends with a lone `\r` (where a comment's lines would be misread).
fn lone_cr(text: &str) -> bool {
    memchr::memchr_iter(b'\r', text.as_bytes()).any(|i| text.as_bytes().get(i + 1) != Some(&b'\n'))
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
/// values and the body's links are unchanged. The report of the text with it comes back too.
pub fn file_comment_for(
    path: &Path,
    text: &str,
    report: &SkillReport,
    code: &'static str,
    lint: &dyn Fn(&str) -> Option<SkillReport>,
) -> Option<(usize, String, SkillReport)> {
    let suppressible = crate::rule::find(code).is_some_and(|rule| rule.suppressible);
    if !suppressible || lone_cr(text) {
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
    (gone && unchanged).then_some((at, comment, after))
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
/// cover: in passes, each of which lints once, places one comment on every line that has
/// diagnostics (naming all their rules), and lints once more to check that exactly those
/// diagnostics went and the frontmatter's values and the body's links are unchanged. A batch
/// that fails the check is split in two and each half tried alone, down to single lines,
/// which are refused. A pass sees at most 100 diagnostics of a rule (the cap), so a file with
/// more takes a pass more per 100; what no line comment covers gets an `ignore-file` directive
/// per rule, if that works ([`file_comment_for`]).
pub fn add_all(path: &Path, text: &str, lint: &dyn Fn(&str) -> Option<SkillReport>) -> Added {
    let mut out = Added {
        text: text.to_string(),
        ..Added::default()
    };
    // What is left is counted once the comments are in, outside the budget below.
    let problems = |report: &SkillReport| report.diagnostics.iter().map(|d| d.count).sum();
    let unbounded = lint;
    // Lints left for this file: the work stays bounded whatever the file holds (each pass
    // takes at least one, so they bound the passes too).
    let budget = std::cell::Cell::new(MAX_LINTS);
    let lint = &|text: &str| {
        let left = budget.get().checked_sub(1)?;
        budget.set(left);
        unbounded(text)
    };
    if lone_cr(text) {
        out.left = unbounded(text).map_or(0, |r| problems(&r));
        return out;
    }
    // Lines refused, by their rules and text (line numbers move as comments go in).
    let mut refused: std::collections::HashSet<(Vec<&'static str>, String)> =
        std::collections::HashSet::new();
    // The report of the text as it is now, when known.
    let mut current = None;
    // Each pass covers at least one line or ends; a pass covers up to 100 per rule.
    while let Some(report) = lint(&out.text) {
        let file = crate::source::SkillFile::new(path.to_path_buf(), out.text.clone());
        let Ok(layout) = file.layout() else { break };
        let shown = report.dir.file.clone();
        // The diagnostics each line has, by line: their rules and the line's first offset.
        let mut lines: std::collections::BTreeMap<usize, (usize, Vec<&'static str>)> =
            std::collections::BTreeMap::new();
        // A rule reported on more lines than anyone would read comments on gets one
        // `ignore-file` directive below, not a comment on every line.
        let mut per_rule: HashMap<&'static str, usize> = HashMap::new();
        for d in &report.diagnostics {
            *per_rule.entry(d.rule.code).or_default() += d.count;
        }
        let lined = |code: &str| per_rule.get(code).is_some_and(|&n| n <= MAX_LINED);
        for d in report.diagnostics.iter().filter(|d| {
            Some(&d.path) == shown.as_ref()
                && d.rule.suppressible
                && d.count == 1
                && lined(d.rule.code)
        }) {
            let Some(region) = d.region else { continue };
            let (offset, codes) = lines
                .entry(region.line)
                .or_insert((region.offset, Vec::new()));
            *offset = (*offset).min(region.offset);
            if !codes.contains(&d.rule.code) {
                codes.push(d.rule.code);
            }
        }
        let mut batch = Vec::new();
        for (line, (offset, mut codes)) in lines {
            codes.sort_unstable();
            let key = (codes.clone(), file.slice(file.line_span(line)).to_string());
            if refused.contains(&key) {
                continue;
            }
            match place(&out.text, &layout, offset, &codes) {
                Some((at, comment, in_frontmatter)) => batch.push(Placed {
                    line,
                    codes,
                    at,
                    comment,
                    in_frontmatter,
                    key,
                }),
                None => {
                    refused.insert(key);
                }
            }
        }
        if batch.is_empty() {
            current = Some(report);
            break;
        }
        let accepted = settle(
            &out.text,
            &report,
            &layout,
            batch,
            lint,
            &budget,
            &mut refused,
        );
        if accepted.is_empty() {
            continue;
        }
        out.comments += accepted.iter().map(|p| p.codes.len()).sum::<usize>();
        let refs: Vec<&Placed> = accepted.iter().collect();
        out.text = insert_all(&out.text, &refs);
    }
    // What no line comment covers: one `ignore-file` directive per rule, if it works.
    let Some(mut report) = current.or_else(|| lint(&out.text)) else {
        out.left = unbounded(&out.text).map_or(0, |r| problems(&r));
        return out;
    };
    let mut codes: Vec<&'static str> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.suppressible)
        .map(|d| d.rule.code)
        .collect();
    codes.sort_unstable();
    codes.dedup();
    for code in codes {
        if let Some((at, comment, after)) = file_comment_for(path, &out.text, &report, code, lint) {
            out.text.insert_str(at, &comment);
            out.comments += 1;
            report = after;
        }
    }
    out.left = problems(&report);
    out
}

/// Lints of one file by [`add_all`] at most: a pass and its check take two, a batch that
/// fails its check two more per half tried.
const MAX_LINTS: usize = 48;

/// Line comments of one rule in one file at most; a rule reported more often gets an
/// `ignore-file` directive. A pass sees the first 100 of a rule (the cap on what a run shows),
/// so this is ten passes' worth.
const MAX_LINED: usize = 1_000;

/// A comment placed for one line's diagnostics.
struct Placed {
    line: usize,
    codes: Vec<&'static str>,
    at: usize,
    comment: String,
    in_frontmatter: bool,
    /// What the line is remembered by if it is refused.
    key: (Vec<&'static str>, String),
}

/// `text` with every comment of `placed` inserted (each at its offset in `text`).
fn insert_all(text: &str, placed: &[&Placed]) -> String {
    let mut order: Vec<&&Placed> = placed.iter().collect();
    order.sort_by_key(|p| p.at);
    let mut with =
        String::with_capacity(text.len() + placed.iter().map(|p| p.comment.len()).sum::<usize>());
    let mut from = 0;
    for p in order {
        with.push_str(text.get(from..p.at).unwrap_or(""));
        with.push_str(&p.comment);
        from = p.at;
    }
    with.push_str(text.get(from..).unwrap_or(""));
    with
}

/// The comments of `batch` that can go in together: the whole batch when linting `text` with
/// it shows only their diagnostics gone, else each half tried alone (a single line that fails
/// is refused).
fn settle(
    text: &str,
    report: &SkillReport,
    layout: &crate::source::Layout,
    batch: Vec<Placed>,
    lint: &dyn Fn(&str) -> Option<SkillReport>,
    budget: &std::cell::Cell<usize>,
    refused: &mut std::collections::HashSet<(Vec<&'static str>, String)>,
) -> Vec<Placed> {
    if budget.get() == 0 {
        return Vec::new();
    }
    let refs: Vec<&Placed> = batch.iter().collect();
    if covers_exactly(text, report, layout, &refs, lint) {
        return batch;
    }
    if batch.len() == 1 {
        refused.extend(batch.into_iter().map(|p| p.key));
        return Vec::new();
    }
    // Halves by position (a comment that breaks its neighbours stays with them).
    let mut batch = batch;
    let second = batch.split_off(batch.len() / 2);
    let mut kept = settle(text, report, layout, batch, lint, budget, refused);
    // The second half is checked on the text with the first half's comments in.
    if kept.is_empty() {
        return settle(text, report, layout, second, lint, budget, refused);
    }
    let refs: Vec<&Placed> = kept.iter().chain(&second).collect();
    if covers_exactly(text, report, layout, &refs, lint) {
        kept.extend(second);
        return kept;
    }
    // Tried alone against the original text, then together with the first half once more.
    let more = settle(text, report, layout, second, lint, budget, refused);
    let refs: Vec<&Placed> = kept.iter().chain(&more).collect();
    if more.is_empty() || covers_exactly(text, report, layout, &refs, lint) {
        kept.extend(more);
    }
    kept
}

/// Whether `text` with the comments of `placed` in has exactly the diagnostics of `report`
/// less those of the lines and rules the comments name, and the same frontmatter values and
/// body links.
fn covers_exactly(
    text: &str,
    report: &SkillReport,
    layout: &crate::source::Layout,
    placed: &[&Placed],
    lint: &dyn Fn(&str) -> Option<SkillReport>,
) -> bool {
    let with = insert_all(text, placed);
    let Some(after) = lint(&with) else {
        return false;
    };
    let Some(shown) = report.dir.file.clone() else {
        return false;
    };
    let covered: std::collections::HashSet<(usize, &'static str)> = placed
        .iter()
        .flat_map(|p| p.codes.iter().map(|&c| (p.line, c)))
        .collect();
    // Per rule: the problems expected to remain (those not on a covered line), and those left.
    let mut expected: HashMap<&'static str, usize> = HashMap::new();
    for d in &report.diagnostics {
        let line = d.region.map_or(0, |r| r.line);
        let gone = *d.path == *shown && d.count == 1 && covered.contains(&(line, d.rule.code));
        if !gone {
            *expected.entry(d.rule.code).or_default() += d.count;
        }
    }
    let mut left: HashMap<&'static str, usize> = HashMap::new();
    for d in &after.diagnostics {
        *left.entry(d.rule.code).or_default() += d.count;
    }
    let frontmatter = placed.iter().any(|p| p.in_frontmatter);
    // The body starts later in `with` by the comments placed above it.
    let shift: usize = placed
        .iter()
        .filter(|p| p.at < layout.body.start)
        .map(|p| p.comment.len())
        .sum();
    let dests = |text: &str, body: usize| -> Vec<String> {
        crate::markdown::links(text.get(body..).unwrap_or(""))
            .into_iter()
            .map(|link| link.dest)
            .collect()
    };
    expected == left
        && (!frontmatter || frontmatter_value(text) == frontmatter_value(&with))
        && dests(text, layout.body.start) == dests(&with, layout.body.start + shift)
}
