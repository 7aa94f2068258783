//! Inline suppressions: `# skillc: ignore[...]` and `# skillc: ignore-file[...]` in the
//! frontmatter, `<!-- skillc: ignore[...] -->` in the body. Each directive remembers whether it
//! suppressed anything, so that one that names no rule (SK018) or suppresses nothing (SK019)
//! is reported once the run is complete.

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::diagnostic::{Diagnostic, Region};
use crate::rule::{self, Rule};
use crate::source::{Layout, SkillFile};

rule::declare! {
    SK018 "unknown-suppression" Warning Both
        needs(frontmatter)
        "A suppression comment names no rule.";
    SK019 "unused-suppression" Warning Both
        needs(frontmatter)
        "A suppression comment suppresses nothing.";
}

/// The suppressions one skill file declares (most declare none, and take no memory).
#[derive(Debug, Default)]
pub struct Suppressions(Option<Box<Directives>>);

#[derive(Debug)]
struct Directives {
    /// One per selector of a directive.
    entries: Vec<Entry>,
    /// The entries that cover each line (line directives), by line and code.
    lines: HashMap<(usize, &'static str), Covering>,
    /// The file-wide entries, by code.
    file_wide: HashMap<&'static str, Covering>,
    /// Selectors that name no rule, where they are written.
    /// Selectors that name no rule or only rules no suppression hides, where they are
    /// written (and which of the two).
    unknown: Vec<(String, Region, Unknown)>,
    /// The skill file: line directives cover its lines, not those of other files.
    path: Arc<std::path::Path>,
}

impl Default for Directives {
    fn default() -> Self {
        Directives {
            entries: Vec::new(),
            lines: HashMap::new(),
            file_wide: HashMap::new(),
            unknown: Vec::new(),
            path: Arc::from(std::path::Path::new("")),
        }
    }
}

/// The entries that cover one code (on one line, or file-wide), and whether they have all
/// been marked used: then a diagnostic is looked up in constant time, however many
/// directives name its rule.
#[derive(Debug, Default)]
struct Covering {
    entries: Vec<usize>,
    /// 0: not yet asked; 1: marked, none of them active; 2: marked, some active.
    marked: std::sync::atomic::AtomicU8,
}

impl Covering {
    /// Whether an active entry covers the code, marking them used the first time.
    fn suppresses(&self, entries: &[Entry]) -> bool {
        match self.marked.load(Ordering::Relaxed) {
            1 => return false,
            2 => return true,
            _ => {}
        }
        let mut any = false;
        for entry in self.entries.iter().filter_map(|&i| entries.get(i)) {
            if !entry.inert {
                entry.used.store(true, Ordering::Relaxed);
                any = true;
            }
        }
        self.marked
            .store(if any { 2 } else { 1 }, Ordering::Relaxed);
        any
    }
}

/// One selector of a directive: a code, a prefix or a name, and the rules it names.
#[derive(Debug)]
struct Entry {
    codes: Vec<&'static str>,
    /// `ignore-file`: the whole skill.
    file_wide: bool,
    /// The selector as written, and where (what SK019 points at).
    written: String,
    at: Region,
    used: AtomicBool,
    /// Written inside a value (a YAML string): text, not a directive.
    inert: bool,
}

impl Suppressions {
    /// Reads the suppression comments of a file with frontmatter.
    pub fn parse(file: &SkillFile, layout: &Layout) -> Suppressions {
        // Most files have no directive at all: one (SIMD) search saves a scan per line.
        if memchr::memmem::find(file.text.as_bytes(), b"skillc:").is_none() {
            return Suppressions::default();
        }
        let mut out = Directives {
            path: file.path.clone(),
            ..Directives::default()
        };
        // Whether a body line is inside a fenced code block (a directive there is text).
        let mut fenced = false;
        for n in 1..=file.line_count() {
            let span = file.line_span(n);
            let line = file.slice(span);
            let in_body = !layout.body.is_empty() && span.start >= layout.body.start;
            if in_body {
                let trimmed = line.trim_start_matches(' ');
                if line.len() - trimmed.len() <= 3
                    && (trimmed.starts_with("```") || trimmed.starts_with("~~~"))
                {
                    fenced = !fenced;
                    continue;
                }
            }
            if !line.contains("skillc:") {
                continue;
            }
            if in_body {
                let marker = "<!-- skillc: ignore[";
                // Not in a fence, an indented code block or a code span.
                let in_code = fenced
                    || line.starts_with("    ")
                    || line.starts_with('\t')
                    || line
                        .find(marker)
                        .is_some_and(|at| line[..at].matches('`').count() % 2 == 1);
                if !in_code && let Some(found) = directive(line, marker) {
                    out.add(file, span.start, found, &[n, n + 1], false);
                }
            } else if span.start >= layout.frontmatter.start && span.start < layout.frontmatter.end
            {
                // A YAML comment starts the line or follows a space: in `a#b` the `#` is text.
                let comment = |marker: &str| {
                    let at = line
                        .match_indices(marker)
                        .map(|(at, _)| at)
                        .find(|&at| line[..at].is_empty() || line[..at].ends_with([' ', '\t']))?;
                    directive(&line[at..], marker).map(|found| {
                        let shift = |r: std::ops::Range<usize>| r.start + at..r.end + at;
                        found
                            .into_iter()
                            .map(|(s, r)| (s, shift(r)))
                            .collect::<Vec<_>>()
                    })
                };
                if let Some(found) = comment("# skillc: ignore-file[") {
                    out.add(file, span.start, found, &[], true);
                } else if let Some(found) = comment("# skillc: ignore[") {
                    // A comment on a line of its own covers the next line.
                    let lines: &[usize] = if line.trim_start().starts_with('#') {
                        &[n, n + 1]
                    } else {
                        &[n]
                    };
                    out.add(file, span.start, found, lines, false);
                }
            }
        }
        Suppressions(Some(Box::new(out)))
    }

    /// The lines of the skill file where SK018 or SK019 may point once the run is complete
    /// (their excerpts are kept for then).
    pub fn lines(&self) -> Vec<usize> {
        let Some(directives) = &self.0 else {
            return Vec::new();
        };
        let unknown = directives.unknown.iter().map(|(_, at, _)| at.line);
        let entries = directives.entries.iter().filter(|e| !e.inert);
        unknown.chain(entries.map(|e| e.at.line)).collect()
    }

    /// Whether the file declares no directive (most do not).
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Forgets the directives written where `is_text` says the frontmatter holds a value's
    /// text (a block or quoted string): they are text, not comments.
    pub fn forget_within(&mut self, is_text: impl Fn(usize) -> bool) {
        if let Some(directives) = &mut self.0 {
            for entry in &mut directives.entries {
                entry.inert |= is_text(entry.at.offset);
            }
            // What was marked may have changed.
            for covering in directives.lines.values_mut() {
                covering.marked = Default::default();
            }
            for covering in directives.file_wide.values_mut() {
                covering.marked = Default::default();
            }
            directives.unknown.retain(|(_, at, _)| !is_text(at.offset));
        }
    }

    /// Whether a diagnostic is suppressed (and the directive that does it is marked used).
    pub fn suppresses(&self, d: &Diagnostic) -> bool {
        self.0.as_ref().is_some_and(|s| s.suppresses(d))
    }

    /// SK018 for each selector that names no rule, and SK019 for each rule a directive names
    /// that suppressed nothing — to be asked once every rule (the collection rules too) has
    /// run. `enabled` says which rules ran: a directive for a rule that did not run is not
    /// unused.
    pub fn problems(
        &self,
        skill: &Arc<std::path::Path>,
        enabled: impl Fn(&Rule) -> bool,
    ) -> Vec<Diagnostic> {
        let Some(directives) = &self.0 else {
            return Vec::new();
        };
        let diagnostic =
            |rule: &'static Rule, at: Region, message: String, help: &str| Diagnostic {
                rule,
                severity: rule.severity,
                message,
                label: None,
                help: Some(help.to_string()),
                path: directives.path.clone(),
                skill: skill.clone(),
                region: Some(at),
                secondary: Vec::new(),
                count: 1,
                fix: None,
            };
        let mut out: Vec<Diagnostic> = directives
            .unknown
            .iter()
            .map(|(written, at, why)| match why {
                Unknown::NoRule => diagnostic(
                    &SK018,
                    *at,
                    format!("`{written}` is not a rule: this suppression suppresses nothing"),
                    &format!(
                        "write a rule's code (`{}`), a code prefix (`{}`) or its name (`{}`); `skillc rule` lists them",
                        rule::SK404.code,
                        &rule::SK404.code[..3],
                        rule::SK404.name
                    ),
                ),
                Unknown::Unsuppressible => diagnostic(
                    &SK018,
                    *at,
                    format!(
                        "`{written}` cannot be suppressed: a skill file that cannot be parsed is always reported"
                    ),
                    &format!("fix the file instead; {} are never suppressed", unsuppressible()),
                ),
            })
            .collect();
        for entry in directives.entries.iter().filter(|e| !e.inert) {
            let ran = entry
                .codes
                .iter()
                .any(|code| crate::rule::find(code).is_some_and(&enabled));
            if ran && !entry.used.load(Ordering::Relaxed) {
                out.push(diagnostic(
                    &SK019,
                    entry.at,
                    format!(
                        "unused suppression: no `{}` diagnostic {}",
                        entry.written,
                        if entry.file_wide {
                            "in this skill"
                        } else {
                            "here"
                        }
                    ),
                    "remove it: a stale suppression would hide the next problem of this rule",
                ));
            }
        }
        out
    }
}

impl Directives {
    fn add(
        &mut self,
        file: &SkillFile,
        line_start: usize,
        found: Vec<(Selector, std::ops::Range<usize>)>,
        lines: &[usize],
        file_wide: bool,
    ) {
        for (selector, range) in found {
            let at = file.region(crate::diagnostic::Span::new(
                line_start + range.start,
                line_start + range.end,
            ));
            match selector {
                Selector::Unknown(written, why) => self.unknown.push((written, at, why)),
                Selector::Rules(written, rules) => {
                    let index = self.entries.len();
                    let codes: Vec<&'static str> = rules.iter().map(|r| r.code).collect();
                    for &code in &codes {
                        if file_wide {
                            self.file_wide.entry(code).or_default().entries.push(index);
                        }
                        for &line in lines {
                            let covering = self.lines.entry((line, code)).or_default();
                            covering.entries.push(index);
                        }
                    }
                    self.entries.push(Entry {
                        codes,
                        file_wide,
                        written,
                        at,
                        used: AtomicBool::new(false),
                        inert: false,
                    });
                }
            }
        }
    }

    fn suppresses(&self, d: &Diagnostic) -> bool {
        let code = d.rule.code;
        let on_line = (*d.path == *self.path)
            .then(|| d.region.and_then(|r| self.lines.get(&(r.line, code))))
            .flatten()
            .is_some_and(|covering| covering.suppresses(&self.entries));
        let file_wide = self
            .file_wide
            .get(code)
            .is_some_and(|covering| covering.suppresses(&self.entries));
        on_line | file_wide
    }
}

/// What one selector of a directive names.
enum Selector {
    /// The rules of a code, prefix or name, as written (those a suppression may hide).
    Rules(String, Vec<&'static Rule>),
    Unknown(String, Unknown),
}

/// Why a selector suppresses nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unknown {
    NoRule,
    /// It names only rules that are never suppressed ([`Rule::suppressible`]).
    Unsuppressible,
}

/// The selectors of a directive `marker...]` on a line, each with its byte range in the line.
fn directive(line: &str, marker: &str) -> Option<Vec<(Selector, std::ops::Range<usize>)>> {
    let start = line.find(marker)? + marker.len();
    let end = start + line[start..].find(']')?;
    let mut out = Vec::new();
    let mut at = start;
    for part in line[start..end].split(',') {
        let trimmed = part.trim();
        let offset = at + (part.len() - part.trim_start().len());
        at += part.len() + 1;
        if trimmed.is_empty() {
            continue;
        }
        let range = offset..offset + trimmed.len();
        out.push((
            match crate::rule::select(trimmed) {
                Some(mut rules) => {
                    rules.retain(|r| r.suppressible);
                    if rules.is_empty() {
                        Selector::Unknown(trimmed.to_string(), Unknown::Unsuppressible)
                    } else {
                        Selector::Rules(trimmed.to_string(), rules)
                    }
                }
                None => Selector::Unknown(trimmed.to_string(), Unknown::NoRule),
            },
            range,
        ));
    }
    Some(out)
}

/// The rules no suppression hides, as a list in words: "SK002, SK003 and SK007".
fn unsuppressible() -> String {
    let codes: Vec<&str> = rule::RULES
        .iter()
        .filter(|r| !r.suppressible)
        .map(|r| r.code)
        .collect();
    match codes.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
