//! Inline suppressions: `# skillc: ignore[...]` and `# skillc: ignore-file[...]` in the
//! frontmatter, `<!-- skillc: ignore[...] -->` in the body.

use std::collections::{HashMap, HashSet};

use crate::diagnostic::Diagnostic;
use crate::source::{Layout, SkillFile};

/// The suppressions one skill file declares (most declare none, and take no memory).
#[derive(Debug, Default)]
pub struct Suppressions(Option<Box<Directives>>);

#[derive(Debug, Default)]
struct Directives {
    file: HashSet<&'static str>,
    lines: HashMap<usize, HashSet<&'static str>>,
    /// The skill file: line directives cover its lines, not those of other files.
    path: std::path::PathBuf,
}

impl Suppressions {
    /// Reads the suppression comments of a file with frontmatter.
    pub fn parse(file: &SkillFile, layout: &Layout) -> Suppressions {
        // Most files have no directive at all: one search saves a scan per line.
        if !file.text.contains("skillc:") {
            return Suppressions::default();
        }
        let mut out = Directives {
            path: file.path.clone(),
            ..Directives::default()
        };
        for n in 1..=file.line_count() {
            let span = file.line_span(n);
            let line = file.slice(span);
            if !line.contains("skillc:") {
                continue;
            }
            if !layout.body.is_empty() && span.start >= layout.body.start {
                if let Some(codes) = directive(line, "<!-- skillc: ignore[") {
                    out.add_line(n, &codes);
                    out.add_line(n + 1, &codes);
                }
            } else if span.start >= layout.frontmatter.start && span.start < layout.frontmatter.end
            {
                if let Some(codes) = directive(line, "# skillc: ignore-file[") {
                    out.file.extend(codes);
                } else if let Some(codes) = directive(line, "# skillc: ignore[") {
                    out.add_line(n, &codes);
                    // A comment on a line of its own covers the next line.
                    if line.trim_start().starts_with('#') {
                        out.add_line(n + 1, &codes);
                    }
                }
            }
        }
        Suppressions(Some(Box::new(out)))
    }

    /// Whether a diagnostic is suppressed.
    pub fn suppresses(&self, d: &Diagnostic) -> bool {
        self.0.as_ref().is_some_and(|s| s.suppresses(d))
    }
}

impl Directives {
    fn add_line(&mut self, line: usize, codes: &[&'static str]) {
        self.lines
            .entry(line)
            .or_default()
            .extend(codes.iter().copied());
    }

    fn suppresses(&self, d: &Diagnostic) -> bool {
        self.file.contains(d.rule.code)
            || (*d.path == *self.path
                && d.region
                    .and_then(|r| self.lines.get(&r.line))
                    .is_some_and(|codes| codes.contains(d.rule.code)))
    }
}

/// The rule codes of a directive `marker...]` on a line (codes, prefixes or names).
fn directive(line: &str, marker: &str) -> Option<Vec<&'static str>> {
    let start = line.find(marker)? + marker.len();
    let end = start + line[start..].find(']')?;
    Some(
        line[start..end]
            .split(',')
            .filter_map(|s| crate::rule::select(s.trim()))
            .flatten()
            .map(|r| r.code)
            .collect(),
    )
}
