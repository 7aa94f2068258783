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

/// The lines after a span's first that `--format full` shows; annotate-snippets folds the rest
/// but the last two (its `SourceMap::annotated_lines`).
const SPAN_HEAD: usize = 4;

impl Region {
    /// The lines of the region a rendering shows, for the lines a report keeps
    /// ([`crate::lint::keep_lines`]): its first few and its last two.
    pub fn shown_lines(&self) -> impl Iterator<Item = usize> + use<> {
        let (first, last) = (self.line, self.end_line.max(self.line));
        let head = first..=last.min(first + SPAN_HEAD);
        let tail = last.saturating_sub(1).max(first)..=last;
        head.chain(tail)
    }
}

/// A [`Region`] in half its size, for what every report keeps until the end of a run (its
/// key's place): the positions in a file the bounded reader reads fit in 32 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackedRegion {
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    offset: u32,
    length: u32,
}

impl PackedRegion {
    /// `None` for a region with a position past `u32::MAX` (no file is read that large).
    pub fn pack(region: Region) -> Option<PackedRegion> {
        let n = |position: usize| u32::try_from(position).ok();
        Some(PackedRegion {
            line: n(region.line)?,
            column: n(region.column)?,
            end_line: n(region.end_line)?,
            end_column: n(region.end_column)?,
            offset: n(region.offset)?,
            length: n(region.length)?,
        })
    }

    pub fn unpack(self) -> Region {
        let n = |packed: u32| packed as usize;
        Region {
            line: n(self.line),
            column: n(self.column),
            end_line: n(self.end_line),
            end_column: n(self.end_column),
            offset: n(self.offset),
            length: n(self.length),
        }
    }
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

/// `1873` → `1,873`: counts as people read them.
/// `1 error`, `2 errors`, `1,234 infos`: a count and its noun, in the singular or the plural.
pub fn counted(n: usize, noun: &str) -> String {
    let shown = thousands(n);
    if n == 1 {
        format!("{shown} {noun}")
    } else {
        format!("{shown} {noun}s")
    }
}

pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_region_unpacks_to_itself_and_one_too_far_is_not_packed() {
        let region = Region {
            line: 3,
            column: 7,
            end_line: 4,
            end_column: 1,
            offset: u32::MAX as usize,
            length: 12,
        };
        assert_eq!(
            PackedRegion::pack(region).map(PackedRegion::unpack),
            Some(region)
        );
        let far = Region {
            offset: u32::MAX as usize + 1,
            ..region
        };
        assert_eq!(PackedRegion::pack(far), None);
        assert!(
            std::mem::size_of::<Option<PackedRegion>>() < std::mem::size_of::<Option<Region>>()
        );
    }
}
