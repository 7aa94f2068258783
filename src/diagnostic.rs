//! The one diagnostic model: every rule produces it, every renderer reads it.

use std::path::Path;
use std::sync::Arc;

use crate::fix::Fix;
use crate::rule::Rule;
pub use crate::rule::Severity;

/// A byte range in a skill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start,
            end: end.max(start),
        }
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A resolved position: 1-based lines, 1-based columns in Unicode scalar values, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Region {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub offset: usize,
    pub length: usize,
}

/// A secondary label pointing at another place in the same file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub region: Region,
    pub message: String,
}

/// One problem found in one skill.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: &'static Rule,
    pub severity: Severity,
    pub message: String,
    /// Text of the label under the primary span (full format).
    pub label: Option<String>,
    pub help: Option<String>,
    /// The file the diagnostic is about (the skill file, or the directory for SK001). The
    /// paths are shared with the report and the other diagnostics of the file.
    pub path: Arc<Path>,
    /// The skill directory.
    pub skill: Arc<Path>,
    pub region: Option<Region>,
    pub secondary: Vec<Label>,
    /// How many problems this diagnostic stands for: 1, or, for the one that closes a rule's
    /// run at the per-skill cap, the problems it counts (summaries and statistics add them).
    pub count: usize,
    /// What repairs it, when a tool can.
    pub fix: Option<Box<Fix>>,
}

impl Diagnostic {
    /// The key diagnostics are sorted by: path, line, column, code.
    pub fn sort_key(&self) -> (&Path, usize, usize, &'static str) {
        let (line, column) = self.region.map_or((0, 0), |r| (r.line, r.column));
        (&self.path, line, column, self.rule.code)
    }
}

impl Diagnostic {
    /// Sets the help line.
    pub fn help(&mut self, text: impl Into<String>) -> &mut Self {
        self.help = Some(text.into());
        self
    }

    /// Sets the label under the primary span.
    pub fn label(&mut self, text: impl Into<String>) -> &mut Self {
        self.label = Some(text.into());
        self
    }

    /// Attaches a fix.
    pub fn fix(&mut self, fix: Fix) -> &mut Self {
        self.fix = Some(Box::new(fix));
        self
    }

    /// Adds a secondary label.
    pub fn secondary(&mut self, region: Option<Region>, message: impl Into<String>) -> &mut Self {
        if let Some(region) = region {
            self.secondary.push(Label {
                region,
                message: message.into(),
            });
        }
        self
    }
}
