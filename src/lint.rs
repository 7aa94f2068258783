//! The per-skill pipeline: read → split → parse → dialect → rules; then the collection rules,
//! the configured selection and the suppressions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Region, Span};
use crate::dialect::Dialect;
use crate::discover::SkillDir;
use crate::files::SkillTree;
use crate::input::{Links, Read, read_capped};
use crate::markdown;
use crate::rules::{self, Rule};
use crate::source::{Layout, SkillFile};
use crate::suppress::Suppressions;
use crate::targets::{Placement, Targets};
use crate::yaml::{self, Node, Value};

/// Collects the diagnostics of one skill.
pub struct Reporter<'a> {
    file: Option<&'a SkillFile>,
    path: PathBuf,
    skill: PathBuf,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Reporter<'a> {
    pub fn new(file: Option<&'a SkillFile>, path: PathBuf, skill: PathBuf) -> Self {
        Reporter {
            file,
            path,
            skill,
            diagnostics: Vec::new(),
        }
    }

    /// Resolves a span of the skill file.
    pub fn region(&self, span: Span) -> Option<Region> {
        self.file.map(|f| f.region(span))
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

    /// Reports a diagnostic about another file of the skill (no position).
    pub fn emit_file(
        &mut self,
        rule: &'static Rule,
        path: PathBuf,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let d = self.emit_at(rule, None, message);
        d.path = path;
        d
    }

    /// Reports a diagnostic at an already resolved region.
    pub fn emit_at(
        &mut self,
        rule: &'static Rule,
        region: Option<Region>,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diagnostics.push(Diagnostic {
            rule,
            severity: rule.severity,
            message: message.into(),
            label: None,
            help: None,
            path: self.path.clone(),
            skill: self.skill.clone(),
            region,
            secondary: Vec::new(),
            count: 1,
        });
        let last = self.diagnostics.len() - 1;
        &mut self.diagnostics[last]
    }
}

/// A parsed skill as the dialect rules see it.
pub struct Skill<'a> {
    pub dir: &'a SkillDir,
    pub file: &'a SkillFile,
    pub layout: Layout,
    /// The frontmatter mapping (`None` when empty).
    pub root: Option<&'a Node>,
    pub anchors: &'a HashMap<usize, Node>,
    pub dialect: Dialect,
    pub settings: &'a Settings,
    /// The runtimes expected to load the skill.
    pub targets: Targets,
    pub placement: &'a Placement,
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
            Value::Alias(id) => self.anchors.get(&id).unwrap_or(node),
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

/// The result of linting one skill directory.
#[derive(Debug)]
pub struct SkillReport {
    pub dir: SkillDir,
    /// The skill file as read (absent for SK001, unreadable or oversized files).
    pub file: Option<SkillFile>,
    pub dialect: Option<Dialect>,
    /// Where the skill sits: the targets its location implies, its plugin and install root.
    pub placement: Placement,
    /// The runtimes expected to load the skill (runtimes.md).
    pub targets: Targets,
    /// The skill's key (`id` or `name`) when it is a string.
    pub key: Option<String>,
    pub key_region: Option<Region>,
    /// The description, when it is a string (for the L1 catalog entry).
    pub description: Option<String>,
    /// Top-level frontmatter fields: the string value, or the source text of another value.
    pub fields: Vec<(String, String)>,
    /// The body's span in the skill file, when the file has frontmatter.
    pub body: Option<Span>,
    /// The skill directory's listing.
    pub tree: SkillTree,
    /// The L1 cost, when it was counted.
    pub l1_tokens: Option<usize>,
    /// Other files diagnostics point into (bundled tool schemas).
    pub other_files: Vec<SkillFile>,
    /// The tools the skill bundles (SK602 across skills).
    pub tools: Vec<rules::tools::BundledTool>,
    pub diagnostics: Vec<Diagnostic>,
    pub suppressions: Suppressions,
    /// An I/O failure that kept the skill from being checked.
    pub io_error: Option<String>,
}

impl SkillReport {
    /// A report with nothing found yet.
    pub fn empty(dir: SkillDir) -> SkillReport {
        SkillReport {
            file: None,
            dialect: None,
            placement: Placement::default(),
            targets: Targets::spec(),
            key: None,
            key_region: None,
            description: None,
            fields: Vec::new(),
            body: None,
            tree: SkillTree::default(),
            l1_tokens: None,
            other_files: Vec::new(),
            tools: Vec::new(),
            diagnostics: Vec::new(),
            suppressions: Suppressions::default(),
            io_error: None,
            dir,
        }
    }

    /// The path diagnostics of this skill name: the skill file, or the directory.
    pub fn path(&self) -> &Path {
        self.dir.file.as_deref().unwrap_or(&self.dir.dir)
    }
}

/// Lints every skill, using up to the machine's cores, and applies collection rules,
/// selection, severities and suppressions. Reports come back in discovery (path) order.
pub fn lint_all(skills: Vec<SkillDir>, settings: &Settings, cwd: &Path) -> Vec<SkillReport> {
    let results = crate::parallel::map(&skills, |dir| lint_skill(dir.clone(), settings));
    let mut reports: Vec<SkillReport> = results
        .into_iter()
        .zip(skills)
        .map(|(report, dir)| {
            report.unwrap_or_else(|| {
                let mut report = SkillReport::empty(dir);
                report.io_error = Some(format!(
                    "internal error while checking `{}`",
                    report.dir.dir.display()
                ));
                report
            })
        })
        .collect();
    leave_files_to_nested_skills(&mut reports);
    rules::collection::check(&mut reports, settings, cwd);
    for report in &mut reports {
        finish(report, settings, cwd);
    }
    reports
}

/// A skill file nested in another skill (SK016) is a skill of its own, which reports its own
/// files: the outer skill's diagnostics about files inside it (SK408, SK409, SK411, SK412) go.
fn leave_files_to_nested_skills(reports: &mut [SkillReport]) {
    let nested: Vec<(PathBuf, PathBuf)> = reports
        .iter()
        .filter_map(|r| Some((r.dir.nested_in.clone()?, r.dir.dir.clone())))
        .collect();
    if nested.is_empty() {
        return;
    }
    let file_rules = [
        rules::SK408.code,
        rules::SK409.code,
        rules::SK411.code,
        rules::SK412.code,
    ];
    for report in reports.iter_mut() {
        let inner: Vec<&PathBuf> = nested
            .iter()
            .filter(|(outer, inner)| report.dir.dir.starts_with(outer) && inner != &report.dir.dir)
            .map(|(_, inner)| inner)
            .collect();
        if inner.is_empty() {
            continue;
        }
        report.diagnostics.retain(|d| {
            !file_rules.contains(&d.rule.code) || !inner.iter().any(|dir| d.path.starts_with(dir))
        });
    }
}

/// Lints one skill directory.
pub fn lint_skill(dir: SkillDir, settings: &Settings) -> SkillReport {
    let mut report = SkillReport::empty(dir);
    place(&mut report, settings);
    let Some(path) = report.dir.file.clone() else {
        let mut out = Reporter::new(None, report.dir.dir.clone(), report.dir.dir.clone());
        rules::structure::missing_skill_file(&report.dir, &mut out);
        report.diagnostics = out.diagnostics;
        return report;
    };
    let mut out = Reporter::new(None, path.clone(), report.dir.dir.clone());
    rules::structure::where_found(&report.dir, &path, &mut out);
    let mut report = read_and_lint(report, path, settings, &mut out);
    report.diagnostics.append(&mut out.diagnostics);
    report
}

/// Reads the skill file and lints it; what stops the reading is reported to `out`.
fn read_and_lint(
    mut report: SkillReport,
    path: PathBuf,
    settings: &Settings,
    out: &mut Reporter,
) -> SkillReport {
    // A skill file that is a link out of its skill, or to nothing, is reported (SK408) and
    // never read: its target is not the skill's, and its first lines would reach the output.
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match crate::files::classify_link(&path, &report.dir.real) {
            crate::files::LinkTarget::Outside(target) => {
                rules::files::link_outside(&name, &target, path, out);
                return report;
            }
            crate::files::LinkTarget::Dangling => {
                rules::files::dangling_skill_file(&name, path, out);
                return report;
            }
            _ => {}
        }
    }
    let bytes = match read_capped(&path, settings.max_file_size, Links::Follow) {
        Ok(Read::Bytes(bytes)) => bytes,
        Ok(Read::TooLarge(size)) => {
            rules::structure::file_too_large(size, settings.max_file_size, out);
            return report;
        }
        Err(e) => {
            report.io_error = Some(format!("reading `{}`: {e}", path.display()));
            return report;
        }
    };
    lint_bytes(report, path, bytes, settings)
}

/// Lints a skill whose skill file is already in memory (the files beside it are read from its
/// directory): what `pack` uses to check exactly the bytes it packs, and fuzzing to check any
/// bytes. `dir.file` is the path shown for the skill file.
pub fn lint_skill_bytes(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
) -> SkillReport {
    let path = dir.file.clone().unwrap_or_else(|| dir.dir.join("SKILL.md"));
    let mut report = SkillReport::empty(dir);
    report.dir.file = Some(path.clone());
    place(&mut report, settings);
    let size = bytes.len() as u64;
    let mut report = if size > settings.max_file_size {
        let mut out = Reporter::new(None, path, report.dir.dir.clone());
        rules::structure::file_too_large(size, settings.max_file_size, &mut out);
        report.diagnostics = out.diagnostics;
        report
    } else {
        lint_bytes(report, path, bytes, settings)
    };
    rules::collection::check(std::slice::from_mut(&mut report), settings, cwd);
    finish(&mut report, settings, cwd);
    report
}

/// Where the skill sits, and the targets that implies before its dialect is known.
fn place(report: &mut SkillReport, settings: &Settings) {
    let shown = std::iter::once(&report.dir.dir)
        .chain(&report.dir.aliases)
        .map(PathBuf::as_path);
    report.placement = Placement::of(&report.dir.real, shown);
    report.targets = targets_of(settings, &report.placement, None);
}

/// A skill's targets (runtimes.md): the configured ones, else `par` for a PAR skill, else
/// those of its location, else `spec`.
pub fn targets_of(settings: &Settings, placement: &Placement, dialect: Option<Dialect>) -> Targets {
    if let Some(targets) = settings.targets {
        return targets;
    }
    if dialect == Some(Dialect::Par) {
        return Targets::named("par").unwrap_or_else(Targets::spec);
    }
    placement.targets.unwrap_or_else(Targets::spec)
}

/// The rules of one skill over the skill file's bytes.
fn lint_bytes(
    mut report: SkillReport,
    path: PathBuf,
    bytes: Vec<u8>,
    settings: &Settings,
) -> SkillReport {
    let mut out = Reporter::new(None, path.clone(), report.dir.dir.clone());
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            // The first invalid sequence is shown as U+FFFD at the same offset: the region is
            // that one character, its length the invalid bytes in the file.
            let invalid = e.utf8_error().error_len();
            let bytes = e.into_bytes();
            let file = SkillFile::new(path, String::from_utf8_lossy(&bytes).into_owned());
            let mut region = file.region(Span::new(
                valid,
                valid + char::REPLACEMENT_CHARACTER.len_utf8(),
            ));
            region.length = invalid.unwrap_or(bytes.len() - valid);
            rules::structure::invalid_utf8(
                bytes.get(valid).copied().unwrap_or(0),
                region,
                &mut out,
            );
            report.diagnostics = out.diagnostics;
            report.file = Some(file);
            return report;
        }
    };
    let file = SkillFile::new(path.clone(), text);
    let mut out = Reporter::new(Some(&file), path, report.dir.dir.clone());
    let facts = check_file(&report.dir, &report.placement, &file, settings, &mut out);
    let body = facts.body.map_or("", |span| file.slice(span));
    let bundle = rules::tools::check(
        &report.dir,
        &facts.tree,
        facts.key.as_deref(),
        body,
        settings,
    );
    report.diagnostics = out.diagnostics;
    report.diagnostics.extend(bundle.diagnostics);
    report.other_files = bundle.files;
    report.other_files.extend(facts.other_files);
    report.tools = bundle.tools;
    report.dialect = facts.dialect;
    report.targets = targets_of(settings, &report.placement, facts.dialect);
    report.key = facts.key;
    report.key_region = facts.key_region;
    report.description = facts.description;
    report.fields = facts.fields;
    report.body = facts.body;
    report.tree = facts.tree;
    report.suppressions = facts.suppressions;
    report.file = Some(file);
    report
}

/// What checking a skill file learned, for the rules that come after it.
#[derive(Default)]
struct Facts {
    dialect: Option<Dialect>,
    key: Option<String>,
    key_region: Option<Region>,
    description: Option<String>,
    fields: Vec<(String, String)>,
    /// The body, when the file has frontmatter.
    body: Option<Span>,
    tree: SkillTree,
    suppressions: Suppressions,
    /// Other files of the skill that diagnostics point into (linked Markdown files).
    other_files: Vec<SkillFile>,
}

fn check_file(
    dir: &SkillDir,
    placement: &Placement,
    file: &SkillFile,
    settings: &Settings,
    out: &mut Reporter,
) -> Facts {
    let mut facts = Facts::default();
    if file.has_bom() {
        rules::structure::byte_order_mark(out);
    }
    facts.tree = SkillTree::walk(&dir.real);
    rules::files::check(dir, &facts.tree, out);
    let layout = match file.layout() {
        Ok(layout) => layout,
        Err(err) => {
            rules::structure::layout_error(file, err, out);
            return facts;
        }
    };
    facts.body = Some(layout.body);
    facts.suppressions = Suppressions::parse(file, &layout);
    let links = markdown::links(file.slice(layout.body));
    let located = targets_of(settings, placement, None);
    let placeholders = crate::targets::placeholders(located, &dir.real, placement.plugin_root());
    // A plugin is installed whole: when every target installs it so, links into it work.
    let installed_with = placement.plugin_root().filter(|_| {
        located
            .iter()
            .all(|r| r.namespace == crate::targets::Namespace::Plugin)
    });
    facts.other_files = rules::body::check(
        dir,
        &placeholders,
        installed_with,
        file,
        &layout,
        &facts.tree,
        &links,
        settings,
        out,
    );
    let doc = match yaml::parse(file.slice(layout.frontmatter), layout.frontmatter.start) {
        Ok(doc) => doc,
        Err(err) => {
            rules::structure::yaml_syntax(file, &err, out);
            return facts;
        }
    };
    rules::structure::yaml_findings(&doc.findings, out);
    let root = match &doc.root {
        None => None,
        Some(
            node @ Node {
                value: Value::Map(_),
                ..
            },
        ) => Some(node),
        Some(other) => {
            rules::structure::not_mapping(other, out);
            return facts;
        }
    };
    let in_par_folder = placement.targets == Targets::named("par");
    let dialect = settings
        .dialect
        .unwrap_or_else(|| Dialect::detect(root, in_par_folder));
    facts.dialect = Some(dialect);
    let skill = Skill {
        dir,
        file,
        layout,
        root,
        anchors: &doc.anchors,
        dialect,
        settings,
        targets: targets_of(settings, placement, Some(dialect)),
        placement,
    };
    if let Some((key, node)) = skill.str_field(dialect.key_field()) {
        facts.key = Some(key.to_string());
        facts.key_region = Some(file.region(node.span));
    } else if skill.field("name").is_none() && rules::runtime_fields::name_optional(&skill) {
        // Claude Code loads a skill without `name` under its directory's name.
        facts.key = Some(dir.name());
    }
    facts.description = skill
        .str_field("description")
        .map(|(text, _)| text.to_string());
    if let Some(Node {
        value: Value::Map(entries),
        ..
    }) = root
    {
        facts.fields = entries
            .iter()
            .filter_map(|(k, v)| {
                let v = skill.resolve(v);
                let text = v
                    .as_str()
                    .map_or_else(|| skill.source(v).to_string(), str::to_string);
                Some((k.key_text()?, text))
            })
            .collect();
    }
    rules::structure::check(&skill, out);
    rules::runtime_fields::check(&skill, out);
    rules::identity::check(&skill, out);
    match dialect {
        Dialect::Par => rules::par_fields::check(&skill, out),
        Dialect::AgentSkills => rules::agentskills_fields::check(&skill, out),
    }
    facts
}

/// Applies selection, per-file ignores, severities and suppressions; sorts and dedups.
fn finish(report: &mut SkillReport, settings: &Settings, cwd: &Path) {
    let abs_path = crate::discover::absolute(cwd, report.path());
    let abs_dir = crate::discover::absolute(cwd, &report.dir.dir);
    let suppressions = &report.suppressions;
    report.diagnostics.retain(|d| {
        settings.enabled(d.rule)
            && !settings.ignored_for(d.rule, &abs_path, &abs_dir)
            && !suppressions.suppresses(d)
    });
    for d in &mut report.diagnostics {
        d.severity = settings.severity(d.rule);
    }
    report.diagnostics.sort_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.message.cmp(&b.message))
    });
    report.diagnostics.dedup_by(|a, b| {
        a.rule.code == b.rule.code && a.region == b.region && a.message == b.message
    });
    cap_per_rule(&mut report.diagnostics);
}

/// At most this many diagnostics of one rule are kept for one skill; the rest are counted.
pub const MAX_PER_RULE: usize = 100;

/// Keeps the first [`MAX_PER_RULE`] diagnostics of each rule (in output order) and replaces
/// the rest with one diagnostic that counts them, at the first one left out: output and memory
/// stay proportional to what a person can act on, whatever a file holds.
fn cap_per_rule(diagnostics: &mut Vec<Diagnostic>) {
    let mut counts: HashMap<&'static str, usize> = HashMap::new();
    for d in diagnostics.iter() {
        *counts.entry(d.rule.code).or_default() += 1;
    }
    if counts.values().all(|&n| n <= MAX_PER_RULE) {
        return;
    }
    let mut seen: HashMap<&'static str, usize> = HashMap::new();
    let mut kept = Vec::with_capacity(diagnostics.len().min(counts.len() * (MAX_PER_RULE + 1)));
    for mut d in diagnostics.drain(..) {
        let n = seen.entry(d.rule.code).or_default();
        *n += 1;
        if *n <= MAX_PER_RULE {
            kept.push(d);
        } else if *n == MAX_PER_RULE + 1 {
            let more = counts.get(d.rule.code).copied().unwrap_or(0) - MAX_PER_RULE;
            d.message = format!(
                "{more} more `{}` diagnostics in this skill are not shown (at most {MAX_PER_RULE} per rule and skill)",
                d.rule.name
            );
            d.label = None;
            d.count = more;
            d.help = Some("fix the ones shown and run skillc again to see the rest".into());
            d.secondary.clear();
            kept.push(d);
        }
    }
    *diagnostics = kept;
}
