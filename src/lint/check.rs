//! The skill phase: one skill file read once, parsed once, and judged by the rules in phases —
//! what needs only the file and the tree, what needs the frontmatter delimited (the body), and
//! what needs its fields — each phase run only when what it needs could be read.

use std::path::PathBuf;

use crate::config::Settings;
use crate::diagnostic::{Region, Span};
use crate::dialect::Dialect;
use crate::discover::SkillDir;
use crate::files::SkillTree;
use crate::input::{Links, Read, read_capped};
use crate::markdown;
use crate::rules;
use crate::skill::{Reporter, Skill, SkillReport, Text};
use crate::source::SkillFile;
use crate::suppress::Suppressions;
use crate::targets::{Placement, Targets};
use crate::yaml::{self, Node, Value};

use super::settle::Sources;

/// Where a skill file's bytes come from: the disk (with the skill's files when they were
/// listed already), or a buffer (an editor's, standard input, what `pack` packs) whose
/// skill's other files are on disk. Both are linted by the same steps.
pub(super) enum ReadFrom {
    Disk(Option<SkillTree>),
    Buffer(Vec<u8>),
}

/// Lints one skill directory, its skill file read `from` the disk or a buffer; its report, and
/// what was read to make it.
pub(super) fn lint_skill(
    dir: SkillDir,
    from: ReadFrom,
    settings: &Settings,
) -> (SkillReport, Sources) {
    let mut report = SkillReport::empty(dir);
    place(&mut report, settings);
    let Some(path) = report.dir.file.clone() else {
        let mut out = Reporter::new(None, report.dir.dir.clone(), report.dir.dir.clone());
        rules::structure::missing_skill_file(&report.dir, &mut out);
        report.diagnostics = out.diagnostics;
        return (report, Sources::default());
    };
    let mut out = Reporter::new(None, path.clone(), report.dir.dir.clone());
    rules::structure::where_found(&report.dir, &path, &mut out);
    let sources = match from {
        ReadFrom::Disk(tree) => {
            read_and_lint(&mut report, path.to_path_buf(), tree, settings, &mut out)
        }
        ReadFrom::Buffer(bytes) if bytes.len() as u64 > settings.max_file_size => {
            rules::structure::file_too_large(bytes.len() as u64, settings.max_file_size, &mut out);
            Sources::default()
        }
        ReadFrom::Buffer(bytes) => {
            lint_bytes(&mut report, path.to_path_buf(), bytes, None, settings)
        }
    };
    report.diagnostics.append(&mut out.diagnostics);
    (report, sources)
}

/// Reads the skill file and lints it; what stops the reading is reported to `out`.
pub(super) fn read_and_lint(
    report: &mut SkillReport,
    path: PathBuf,
    tree: Option<SkillTree>,
    settings: &Settings,
    out: &mut Reporter,
) -> Sources {
    // Read through a link out of the skill: checked, but never fixed (`--fix` does not write
    // through such a link, so offering a fix would promise what it will not do).
    let mut through_link = false;
    let read = match read_capped(&path, settings.max_file_size, Links::Refuse) {
        // A skill file that is a link out of its skill is reported (SK408, a warning); one to nothing is
        // an error (SK408). Runtimes follow a link where it is (a `.gemini/skills/x/SKILL.md` mirror of
        // `skills/x/SKILL.md`), so a link to another skill file is read and checked in place;
        // a link to any other file is not read, or its first lines would reach the output.
        // (Opening it without following a link tells a link from a file in one call.)
        Err(e) if crate::input::is_link_refused(&e) => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match crate::files::classify_link(&path, &report.dir.real_path()) {
                crate::files::LinkTarget::Outside(target) => {
                    let skill_file = std::fs::canonicalize(&path).is_ok_and(|real| {
                        real.file_name()
                            .is_some_and(|n| n == "SKILL.md" || n == "skill.md")
                    });
                    rules::files::link_outside(&name, &target, skill_file, path.clone(), out);
                    if !skill_file {
                        return Sources::default();
                    }
                    through_link = true;
                    read_capped(&path, settings.max_file_size, Links::Follow)
                }
                crate::files::LinkTarget::Dangling => {
                    rules::files::dangling_skill_file(&name, path, out);
                    return Sources::default();
                }
                _ => read_capped(&path, settings.max_file_size, Links::Follow),
            }
        }
        read => read,
    };
    let bytes = match read {
        Ok(Read::Bytes(bytes)) => bytes,
        Ok(Read::TooLarge(size)) => {
            rules::structure::file_too_large(size, settings.max_file_size, out);
            return Sources::default();
        }
        Err(e) => {
            report.extra_mut().io_error = Some(format!("reading `{}`: {e}", path.display()));
            return Sources::default();
        }
    };
    let sources = lint_bytes(report, path, bytes, tree, settings);
    if through_link {
        for d in &mut report.diagnostics {
            d.fix = None;
        }
    }
    sources
}

/// Where the skill sits, and the targets that implies before its dialect is known.
pub(super) fn place(report: &mut SkillReport, settings: &Settings) {
    let shown =
        std::iter::once(&*report.dir.dir).chain(report.dir.aliases().iter().map(PathBuf::as_path));
    report.set_placement(Placement::of(
        &report.dir.real_path(),
        shown,
        report.dir.listed,
    ));
    report.targets = targets_of(settings, report.placement(), None);
}

/// A skill's targets (runtimes.md): the configured ones, else `par` for a PAR skill, else
/// those of its location, else `spec`.
pub(super) fn targets_of(
    settings: &Settings,
    placement: &Placement,
    dialect: Option<Dialect>,
) -> Targets {
    if let Some(targets) = settings.targets {
        return targets;
    }
    if dialect == Some(Dialect::Par) {
        return Targets::named("par").unwrap_or_else(Targets::spec);
    }
    placement.targets.unwrap_or_else(Targets::spec)
}

/// The rules of one skill over the skill file's bytes.
pub(super) fn lint_bytes(
    report: &mut SkillReport,
    path: PathBuf,
    bytes: Vec<u8>,
    tree: Option<SkillTree>,
    settings: &Settings,
) -> Sources {
    // The diagnostics share the report's copy of the path.
    let shared = Some(report.shared_path())
        .filter(|shared| **shared == *path)
        .unwrap_or_else(|| path.as_path().into());
    let mut out = Reporter::new(None, shared.clone(), report.dir.dir.clone());
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            // The first invalid sequence is shown as U+FFFD at the same offset: the region is
            // that one character, its length the invalid bytes in the file.
            let invalid = e.utf8_error().error_len();
            let bytes = e.into_bytes();
            let file = SkillFile::new(shared, String::from_utf8_lossy(&bytes).into_owned());
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
            return Sources {
                file: Some(file),
                ..Sources::default()
            };
        }
    };
    let file = SkillFile::new(shared.clone(), text);
    let mut out = Reporter::new(Some(&file), shared, report.dir.dir.clone());
    let facts = check_file(
        &report.dir,
        report.placement(),
        &file,
        tree,
        settings,
        &mut out,
    );
    let body = facts.body.map_or("", |span| file.slice(span));
    let bundle = rules::tools::check(
        &report.dir,
        &facts.tree,
        facts.key.as_deref(),
        body,
        settings,
    );
    // What the rules read so far, by path from the skill's root, for those that read the
    // skill's files after them.
    let root = &*report.dir.dir;
    let kept: Vec<(String, &str)> = bundle
        .files
        .iter()
        .chain(&facts.other_files)
        .filter_map(|f| {
            let rel = f.path.strip_prefix(root).ok()?;
            Some((rel.to_string_lossy().replace('\\', "/"), f.text.as_str()))
        })
        .collect();
    let mut read: Vec<(&str, &str)> = kept
        .iter()
        .map(|(r, t)| (r.as_str(), *t))
        .chain(facts.read.iter().map(|(r, t)| (r.as_str(), t.as_str())))
        .collect();
    let named_in = rules::structure::settle_rename(
        &mut out.diagnostics,
        &report.dir,
        &file.path,
        &facts.tree,
        &read,
    );
    read.extend(
        named_in
            .iter()
            .map(|(rel, text)| (rel.as_str(), text.as_str())),
    );
    let (security, security_files) = if rules::security::wanted(settings) {
        let about = format!(
            "{} {}",
            facts.key.as_deref().unwrap_or(""),
            facts
                .description
                .as_deref()
                .or(facts.unparsed.as_deref())
                .unwrap_or("")
        );
        rules::security::check(&report.dir, &facts.tree, &file, &read, &about, settings)
    } else {
        (Vec::new(), Vec::new())
    };
    report.suppressions = out.take_suppressions().unwrap_or_default();
    report.diagnostics = out.diagnostics;
    report.diagnostics.extend(bundle.diagnostics);
    report.diagnostics.extend(security);
    report.extra_mut().tools = bundle.tools;
    report.dialect = facts.dialect;
    report.targets = targets_of(settings, report.placement(), facts.dialect);
    report.key = facts.key;
    report.set_key_region(facts.key_region);
    report.description = facts.description;
    report.extra_mut().fields = facts.fields;
    let mut others = bundle.files;
    others.extend(facts.other_files);
    others.extend(security_files);
    Sources {
        file: Some(file),
        others,
        body: facts.body,
        tree: facts.tree,
    }
}

/// The spans of the string values below `node` (depth-bounded as the parser is).
pub(super) fn string_spans(node: &Node, out: &mut Vec<Span>, depth: usize) {
    if depth > yaml::MAX_DEPTH {
        return;
    }
    match &node.value {
        Value::Str(_) => out.push(node.span),
        Value::Seq(items) => items.iter().for_each(|n| string_spans(n, out, depth + 1)),
        Value::Map(entries) => entries
            .iter()
            .for_each(|(_, v)| string_spans(v, out, depth + 1)),
        _ => {}
    }
}

/// Whether `at` is inside one of `spans` (sorted by start; string values do not overlap).
pub(super) fn within(spans: &[Span], at: usize) -> bool {
    let after = spans.partition_point(|s| s.start <= at);
    after > 0 && spans.get(after - 1).is_some_and(|s| at < s.end)
}

/// What checking a skill file learned, for the rules that come after it.
#[derive(Default)]
pub(super) struct Facts {
    dialect: Option<Dialect>,
    key: Option<String>,
    key_region: Option<Region>,
    description: Option<String>,
    /// The frontmatter's text when it is not YAML: what the skill says of itself, for the
    /// security rules' tests of what it is about.
    unparsed: Option<String>,
    fields: Vec<(String, String)>,
    /// The body, when the file has frontmatter.
    body: Option<Span>,
    tree: SkillTree,
    /// Other files of the skill that diagnostics point into (linked Markdown files).
    other_files: Vec<SkillFile>,
    /// Other files of the skill read whole on the way, by path from the skill's root.
    read: Vec<(String, String)>,
}

/// The `name:` and `description:` lines (with their indented continuations) of frontmatter
/// that is not YAML: what the skill says of itself, as the fields would say it.
fn said_of_itself(frontmatter: &str) -> String {
    let mut said = String::new();
    let mut keep = false;
    for line in frontmatter.lines() {
        if !line.starts_with([' ', '\t']) {
            keep = line.starts_with("name:") || line.starts_with("description:");
        }
        if keep {
            said.push_str(line);
            said.push('\n');
        }
    }
    said
}

pub(super) fn check_file<'a>(
    dir: &SkillDir,
    placement: &Placement,
    file: &'a SkillFile,
    tree: Option<SkillTree>,
    settings: &'a Settings,
    out: &mut Reporter<'a>,
) -> Facts {
    let mut facts = Facts::default();
    if file.has_bom() {
        rules::structure::byte_order_mark(out);
    }
    facts.tree = tree.unwrap_or_else(|| SkillTree::walk(&dir.real_path()));
    facts.read = rules::files::check(dir, &facts.tree, out);
    let layout = match file.layout() {
        Ok(layout) => layout,
        Err(err) => {
            rules::structure::layout_error(file, err, out);
            return facts;
        }
    };
    facts.body = Some(layout.body);
    // The suppressions are final once the frontmatter is parsed (a directive inside a string
    // value is text): from then on, what cannot be shown is dropped as it is reported.
    let mut suppressions = Suppressions::parse(file, &layout);
    let parsed = yaml::parse(file.slice(layout.frontmatter), layout.frontmatter.start);
    if let Ok(root) = parsed.as_ref().map(|doc| doc.root.as_ref())
        && let Some(root) = root.filter(|_| !suppressions.is_empty())
    {
        let mut strings = Vec::new();
        string_spans(root, &mut strings, 0);
        strings.sort_unstable_by_key(|s| s.start);
        suppressions.forget_within(|at| within(&strings, at));
    }
    out.gate(settings, suppressions);
    let links = if rules::body::wants_links(settings) {
        markdown::links(file.slice(layout.body))
    } else {
        Vec::new()
    };
    let located = targets_of(settings, placement, None);
    let placeholders =
        crate::targets::placeholders(located, &dir.real_path(), placement.plugin_root());
    // A plugin is installed whole: when every target installs it so, links into it work.
    let installed_with = placement.plugin_root().filter(|_| {
        located
            .iter()
            .all(|r| r.namespace == crate::targets::Namespace::Plugin)
    });
    let text = Text {
        dir,
        file,
        layout: &layout,
        tree: &facts.tree,
        links: &links,
        settings,
        placeholders: &placeholders,
        installed_with,
        read: &facts.read,
    };
    facts.other_files = rules::body::check(&text, out);
    let doc = match parsed {
        Ok(doc) => doc,
        Err(err) => {
            rules::yaml_syntax::yaml_syntax(file, layout.frontmatter, &err, out);
            facts.unparsed = Some(said_of_itself(file.slice(layout.frontmatter)));
            return facts;
        }
    };
    rules::yaml_syntax::yaml_findings(&doc.findings, out);
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
        aliases: doc.aliases(),
        dialect,
        settings,
        targets: targets_of(settings, placement, Some(dialect)),
        placement,
        tree: &facts.tree,
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
    for check in rules::FIELD_CHECKS {
        check(&skill, out);
    }
    facts
}
