//! The skill model the rules work on: a parsed [`Skill`], the [`Reporter`] that collects its
//! diagnostics, and the [`SkillReport`] that is kept of it once it is linted.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, PackedRegion, Region, Severity, Span};
use crate::dialect::Dialect;
use crate::discover::SkillDir;
use crate::rule::Rule;
use crate::source::{Excerpt, Layout, SkillFile};
use crate::suppress::Suppressions;
use crate::targets::{Placement, Targets};
use crate::tokens::Costs;
use crate::yaml::{Node, Value};

/// Collects the diagnostics of one skill.
pub struct Reporter<'a> {
    file: Option<&'a SkillFile>,
    path: Arc<Path>,
    skill: Arc<Path>,
    pub diagnostics: Vec<Diagnostic>,
    /// Once set, what the run will show is known as each diagnostic is reported: see
    /// [`Reporter::gate`].
    gate: Option<Gate<'a>>,
}

/// What decides, when a diagnostic is reported, whether the run could show it: the rules
/// selected and the file's suppressions (final once the frontmatter is parsed). A diagnostic
/// that cannot be shown is not kept: only counted, when the per-rule cap hides it.
struct Gate<'a> {
    settings: &'a Settings,
    suppressions: Suppressions,
    /// Per-file ignores are judged on absolute paths when the skill is finished, before the
    /// suppressions: with any, nothing is decided early.
    active: bool,
    /// Per rule: the diagnostics kept that the run will show, and the last place among them.
    kept: foldhash::HashMap<&'static str, Shown>,
    /// Where a diagnostic that is not kept is built (and then dropped).
    scratch: Option<Box<Diagnostic>>,
}

struct Shown {
    count: usize,
    last: (Arc<Path>, usize, usize),
    /// The index of the first diagnostic hidden by the cap, which counts the others.
    hidden: Option<usize>,
}

impl<'a> Reporter<'a> {
    pub fn new(
        file: Option<&'a SkillFile>,
        path: impl Into<Arc<Path>>,
        skill: impl Into<Arc<Path>>,
    ) -> Self {
        Reporter {
            file,
            path: path.into(),
            skill: skill.into(),
            diagnostics: Vec::new(),
            gate: None,
        }
    }

    /// From now on, diagnostics that `settings` do not select or that `suppressions` suppress
    /// are dropped as they are reported, and past the first [`MAX_PER_RULE`] of a rule (in
    /// output order) one is only counted: memory and work stay proportional to what is shown,
    /// whatever a file holds. [`Reporter::take_suppressions`] gives the suppressions back.
    ///
    /// [`MAX_PER_RULE`]: crate::config::MAX_PER_RULE
    pub fn gate(&mut self, settings: &'a Settings, suppressions: Suppressions) {
        self.gate = Some(Gate {
            settings,
            suppressions,
            active: !settings.has_per_file_ignores(),
            kept: foldhash::HashMap::default(),
            scratch: None,
        });
    }

    /// The suppressions given to [`Reporter::gate`], if any.
    pub fn take_suppressions(&mut self) -> Option<Suppressions> {
        self.gate.take().map(|g| g.suppressions)
    }

    /// Resolves a span of the skill file.
    pub fn region(&self, span: Span) -> Option<Region> {
        self.file.map(|f| f.region(span))
    }

    /// The skill file's text, when there is a skill file.
    pub fn file_text(&self) -> Option<&'a str> {
        Some(self.file?.text.as_str())
    }

    /// The skill file's text at `span`, when there is a skill file and `span` is in it.
    pub fn text(&self, span: Span) -> Option<&'a str> {
        self.file?.text.get(span.start..span.end)
    }

    /// Reports a diagnostic of `rule` at `span` (`None`: the whole file).
    pub fn emit(
        &mut self,
        rule: &'static Rule,
        span: Option<Span>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let region = span.and_then(|s| self.region(s));
        self.emit_at(rule, region, message)
    }

    /// [`Reporter::emit`], but `None` when the diagnostic will not be shown (not selected,
    /// suppressed, or only counted past the per-rule cap): a rule whose help or fix costs
    /// work skips it then.
    pub fn emit_shown(
        &mut self,
        rule: &'static Rule,
        span: Option<Span>,
        message: impl Into<String>,
    ) -> Option<&mut Diagnostic> {
        let before = self.diagnostics.len();
        self.emit(rule, span, message);
        let last = self.diagnostics.len().checked_sub(1)?;
        // Kept when pushed (a counted one only raises the count of the first hidden).
        (self.diagnostics.len() > before).then(|| &mut self.diagnostics[last])
    }

    /// Reports a diagnostic about another file of the skill (no position).
    pub fn emit_file(
        &mut self,
        rule: &'static Rule,
        path: impl Into<Arc<Path>>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.push(rule, path.into(), None, message.into())
    }

    /// Reports a diagnostic at an already resolved region.
    pub fn emit_at(
        &mut self,
        rule: &'static Rule,
        region: Option<Region>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.push(rule, self.path.clone(), region, message.into())
    }

    fn push(
        &mut self,
        rule: &'static Rule,
        path: Arc<Path>,
        region: Option<Region>,
        message: String,
    ) -> &mut Diagnostic {
        let d = Diagnostic {
            rule,
            severity: rule.severity,
            message,
            label: None,
            help: None,
            path,
            skill: self.skill.clone(),
            region,
            secondary: Vec::new(),
            count: 1,
            fix: None,
        };
        if let Some(gate) = self.gate.as_mut().filter(|gate| gate.active) {
            let shown = gate.settings.enabled(rule) && !gate.suppressions.suppresses(&d);
            if !shown {
                return gate.scratch.insert(Box::new(d));
            }
            let (line, column) = region.map_or((0, 0), |r| (r.line, r.column));
            let tally = gate.kept.entry(rule.code).or_insert_with(|| Shown {
                count: 0,
                last: (d.path.clone(), 0, 0),
                hidden: None,
            });
            let place = (&*d.path, line, column);
            let after = place > (&*tally.last.0, tally.last.1, tally.last.2);
            if tally.count >= crate::config::MAX_PER_RULE && after {
                // At least the cap's number of shown ones come before it: it is not shown.
                match tally.hidden.and_then(|i| self.diagnostics.get_mut(i)) {
                    Some(first) => {
                        first.count += 1;
                        return gate.scratch.insert(Box::new(d));
                    }
                    None => tally.hidden = Some(self.diagnostics.len()),
                }
            } else {
                tally.count += 1;
                if after || tally.count == 1 {
                    tally.last = (d.path.clone(), line, column);
                }
            }
        }
        self.diagnostics.push(d);
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }
}

/// A skill as the rules of its body see it (the body phase): the skill file split at its
/// frontmatter, its files, the body's links and where they may lead — computed once per skill,
/// whether or not the frontmatter then parses.
pub struct Text<'a> {
    pub dir: &'a SkillDir,
    pub file: &'a SkillFile,
    pub layout: &'a Layout,
    pub tree: &'a crate::files::SkillTree,
    /// The body's links and images, in order.
    pub links: &'a [crate::markdown::Link],
    pub settings: &'a Settings,
    /// The placeholders the skill's targets expand in a link (`${CLAUDE_SKILL_DIR}`), with the
    /// directory each stands for.
    pub placeholders: &'a [(&'static str, PathBuf)],
    /// The plugin installed whole with the skill, when every target installs it so: links into
    /// it work.
    pub installed_with: Option<&'a Path>,
    /// Other files of the skill read whole already, by path from its root: not read again.
    pub read: &'a [(String, String)],
}

/// A parsed skill as the dialect rules see it (the fields phase).
pub struct Skill<'a> {
    pub dir: &'a SkillDir,
    pub file: &'a SkillFile,
    pub layout: Layout,
    /// The frontmatter mapping (`None` when empty).
    pub root: Option<&'a Node>,
    pub aliases: crate::yaml::Aliases<'a>,
    pub dialect: Dialect,
    pub settings: &'a Settings,
    /// The runtimes expected to load the skill.
    pub targets: Targets,
    pub placement: &'a Placement,
    /// The skill's files.
    pub tree: &'a crate::files::SkillTree,
}

impl<'a> Skill<'a> {
    /// A top-level field's key and value, the value's alias resolved.
    pub fn entry(&self, key: &str) -> Option<(&'a Node, &'a Node)> {
        let (k, v) = self.root?.get(key)?;
        Some((k, self.resolve(v)))
    }

    /// A top-level field's value, alias resolved.
    pub fn field(&self, key: &str) -> Option<&'a Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// A top-level string field's value.
    pub fn str_field(&self, key: &str) -> Option<(&'a str, &'a Node)> {
        let node = self.field(key)?;
        Some((node.as_str()?, node))
    }

    /// The node an alias points to (the node itself otherwise).
    pub fn resolve(&self, node: &'a Node) -> &'a Node {
        match node.value {
            Value::Alias(id) => self.aliases.get(id).unwrap_or(node),
            _ => node,
        }
    }

    /// The span of bytes `range` of a string value, exact when the value is written on one
    /// line without escapes; otherwise the whole value.
    pub fn sub_span(&self, node: &Node, range: std::ops::Range<usize>) -> Span {
        let Some(value) = node.as_str() else {
            return node.span;
        };
        let written = self.file.slice(node.span);
        let offset = if written == value {
            0
        } else if written.len() == value.len() + 2
            && written.get(1..written.len() - 1) == Some(value)
        {
            1
        } else {
            return node.span;
        };
        let end = range.end.min(value.len());
        let start = range.start.min(end);
        Span::new(
            node.span.start + offset + start,
            node.span.start + offset + end,
        )
    }

    /// The source text of a node, as written.
    pub fn source(&self, node: &Node) -> &'a str {
        self.file.slice(node.span)
    }
}

/// A tool a skill bundles (SK602 across skills).
#[derive(Debug, Clone)]
pub struct BundledTool {
    pub name: String,
    pub path: PathBuf,
    pub region: Region,
}

/// What is kept of one skill once its worker is done: its diagnostics and the few facts the
/// collection rules and the outputs need — never the file text, which is dropped as soon as the
/// skill is linted, so memory grows with what is reported, not with what is read.
#[derive(Debug)]
pub struct SkillReport {
    pub dir: SkillDir,
    pub dialect: Option<Dialect>,
    /// Where the skill sits ([`SkillReport::placement`]); `None` for [`Placement::NOWHERE`],
    /// so that most skills hold no copy of it.
    placed: Option<Box<Placement>>,
    /// The runtimes expected to load the skill (runtimes.md).
    pub targets: Targets,
    /// The skill's key (`id` or `name`) when it is a string.
    pub key: Option<String>,
    /// Where the key is written ([`SkillReport::key_region`]).
    key_at: Option<PackedRegion>,
    /// The description, when it is a string (for the L1 catalog entry).
    pub description: Option<String>,
    /// The L1 cost, when it was counted.
    pub l1_tokens: Option<usize>,
    pub diagnostics: Vec<Diagnostic>,
    /// The skill's own diagnostics as counts, when the run keeps no details ([`Keep::details`]:
    /// `--statistics`); the collection rules' are in `diagnostics` all the same.
    pub tallies: Box<[Tally]>,
    pub suppressions: Suppressions,
    /// What few reports hold, boxed so that the others cost one pointer (`None`: nothing).
    extra: Option<Box<Extra>>,
    /// The source lines the diagnostics point at, and those the collection rules may point at
    /// (the key's), when the output shows them ([`Keep::lines`]): then every report holds
    /// some, so not in [`Extra`].
    excerpts: Box<[Excerpt]>,
}

/// The facts of a [`SkillReport`] that most skills do not have, or that only some runs keep.
#[derive(Debug, Default)]
pub struct Extra {
    /// Top-level frontmatter fields: the string value, or the source text of another value.
    /// All of them when the run keeps them ([`Keep::fields`]); else only those the catalog
    /// rules read ([`CATALOG_FIELDS`]).
    pub fields: Vec<(String, String)>,
    /// The tools the skill bundles (SK602 across skills).
    pub tools: Vec<BundledTool>,
    /// An I/O failure that kept the skill from being checked.
    pub io_error: Option<String>,
    /// The skill's token costs, when the run counts them ([`Keep::costs`]).
    pub costs: Option<Costs>,
}

impl Extra {
    fn is_empty(&self) -> bool {
        self.fields.is_empty()
            && self.tools.is_empty()
            && self.io_error.is_none()
            && self.costs.is_none()
    }
}

/// Diagnostics of one rule counted, not kept.
#[derive(Debug, Clone, Copy)]
pub struct Tally {
    pub rule: &'static Rule,
    pub severity: Severity,
    /// The problems they stand for (their [`Diagnostic::count`]s added).
    pub count: usize,
}

impl Tally {
    /// The diagnostics counted per rule, in the order the rules first appear.
    pub fn of(diagnostics: &[Diagnostic]) -> Box<[Tally]> {
        let mut tallies: Vec<Tally> = Vec::new();
        for d in diagnostics {
            match tallies
                .iter_mut()
                .find(|t| std::ptr::eq(t.rule, d.rule) && t.severity == d.severity)
            {
                Some(tally) => tally.count += d.count,
                None => tallies.push(Tally {
                    rule: d.rule,
                    severity: d.severity,
                    count: d.count,
                }),
            }
        }
        tallies.into_boxed_slice()
    }
}

/// What a run keeps of each skill beyond its diagnostics' rules, severities and counts and
/// the skill's facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// Each diagnostic, with its message, help and labels: everything but `--statistics`
    /// prints them; without, a skill's own are counted ([`SkillReport::tallies`]).
    pub details: bool,
    /// The source lines diagnostics point at (`--format full` shows them).
    pub lines: bool,
    /// The L1, L2 and L3 token costs (`skillc tokens`).
    pub costs: bool,
    /// Every frontmatter field (`skillc list`, `skillc show`).
    pub fields: bool,
}

impl Default for Keep {
    fn default() -> Self {
        Keep {
            details: true,
            lines: false,
            costs: false,
            fields: false,
        }
    }
}

/// The fields a report keeps when the run does not keep them all: those a runtime's catalog
/// line holds besides the description.
pub const CATALOG_FIELDS: [&str; 1] = ["when_to_use"];

impl SkillReport {
    /// A report with nothing found yet.
    pub fn empty(dir: SkillDir) -> SkillReport {
        SkillReport {
            dialect: None,
            placed: None,
            targets: Targets::spec(),
            key: None,
            key_at: None,
            description: None,
            l1_tokens: None,
            diagnostics: Vec::new(),
            tallies: Box::default(),
            suppressions: Suppressions::default(),
            extra: None,
            excerpts: Box::default(),
            dir,
        }
    }

    /// The path diagnostics of this skill name: the skill file, or the directory.
    pub fn path(&self) -> &Path {
        self.dir.file.as_deref().unwrap_or(&self.dir.dir)
    }

    /// Where the skill's key is written, when it is a field of its skill file.
    pub fn key_region(&self) -> Option<Region> {
        self.key_at.map(PackedRegion::unpack)
    }

    pub fn set_key_region(&mut self, region: Option<Region>) {
        self.key_at = region.and_then(PackedRegion::pack);
    }

    /// Where the skill sits: the targets its location implies, its plugin and install root.
    pub fn placement(&self) -> &Placement {
        static NOWHERE: Placement = Placement::NOWHERE;
        self.placed.as_deref().unwrap_or(&NOWHERE)
    }

    pub fn set_placement(&mut self, placement: Placement) {
        self.placed = (placement != Placement::NOWHERE).then(|| Box::new(placement));
    }

    /// [`SkillReport::path`], shared.
    pub fn shared_path(&self) -> Arc<Path> {
        self.dir
            .file
            .clone()
            .unwrap_or_else(|| self.dir.dir.clone())
    }

    /// The kept lines of a file, for renderers that show source.
    pub fn excerpt(&self, path: &Path) -> Option<&Excerpt> {
        self.excerpts.iter().find(|e| *e.path == *path)
    }

    pub fn set_excerpts(&mut self, excerpts: Vec<Excerpt>) {
        self.excerpts = excerpts.into_boxed_slice();
    }

    fn extra(&self) -> Option<&Extra> {
        self.extra.as_deref()
    }

    /// The facts few reports hold, to change them ([`SkillReport::tidy`] drops them again when
    /// they are left empty).
    pub fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    /// Frees what [`SkillReport::extra_mut`] left empty.
    pub fn tidy(&mut self) {
        if self.extra().is_some_and(Extra::is_empty) {
            self.extra = None;
        }
    }

    /// Top-level frontmatter fields ([`Extra::fields`]).
    pub fn fields(&self) -> &[(String, String)] {
        self.extra().map_or(&[], |e| &e.fields)
    }

    /// The tools the skill bundles.
    pub fn tools(&self) -> &[BundledTool] {
        self.extra().map_or(&[], |e| &e.tools)
    }

    /// An I/O failure that kept the skill from being checked.
    pub fn io_error(&self) -> Option<&str> {
        self.extra()?.io_error.as_deref()
    }

    /// The skill's token costs, when the run counted them.
    pub fn costs(&self) -> Option<&Costs> {
        self.extra()?.costs.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::{SK013, SK404};

    /// Past the first 100 of a rule in output order, a diagnostic is only counted (on the first
    /// one hidden), and one that comes before what is kept is kept whatever the order of
    /// arrival; a rule not selected is not kept at all.
    #[test]
    fn the_gate_keeps_the_first_of_each_rule_in_output_order() {
        let text: String = (0..300).map(|i| format!("line {i}\n")).collect();
        let file = SkillFile::new(PathBuf::from("SKILL.md"), text);
        let overrides = crate::config::Overrides {
            select: vec!["SK013".into()],
            ..Default::default()
        };
        let settings = Settings::from_text(None, None, Path::new("."), &overrides).unwrap();
        let mut out = Reporter::new(Some(&file), PathBuf::from("SKILL.md"), PathBuf::from("."));
        out.gate(&settings, Suppressions::default());
        // Lines 1 to 300, then 50 to 60 again (SK404 is not selected).
        for line in (1..=300).chain(50..=60) {
            let span = file.line_span(line);
            out.emit(&SK013, Some(span), format!("at {line}"));
            out.emit(&SK404, Some(span), "not selected");
        }
        let kept: Vec<(usize, usize)> = out
            .diagnostics
            .iter()
            .map(|d| (d.region.map_or(0, |r| r.line), d.count))
            .collect();
        let want: Vec<(usize, usize)> = (1..=100)
            .map(|l| (l, 1))
            .chain([(101, 200)])
            .chain((50..=60).map(|l| (l, 1)))
            .collect();
        assert_eq!(kept, want);
        assert!(out.diagnostics.iter().all(|d| d.rule.code == "SK013"));
    }
}
