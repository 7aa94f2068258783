//! Structure and syntax rules for both dialects: SK001–SK015.

use super::{
    SK001, SK002, SK003, SK004, SK005, SK006, SK007, SK008, SK009, SK010, SK011, SK012, SK013,
    SK014, SK015, SK016, SK017,
};
use crate::diagnostic::{Region, Span};
use crate::dialect::Dialect;
use crate::dialect::schema::{self, Violation};
use crate::discover::SkillDir;
use crate::lint::{Reporter, Skill};
use crate::source::{LayoutError, MissingHint, SkillFile};
use crate::yaml::{self, Finding, Node, Value};

/// SK001: a directory given explicitly holds no skill file.
pub fn missing_skill_file(dir: &SkillDir, out: &mut Reporter) {
    let shown = dir.dir.display();
    match &dir.near_miss {
        Some(near) => {
            out.emit(&SK001, None, format!("`{shown}` has no SKILL.md or skill.md, but holds `{near}`"))
                .help(format!(
                    "skill files are named exactly `SKILL.md` (or `skill.md` for PAR); rename it: mv {} {}",
                    dir.path_of(near).display(),
                    dir.path_of("SKILL.md").display()
                ));
        }
        None => {
            out.emit(&SK001, None, format!("no skill file (SKILL.md or skill.md) in `{shown}` or below it"))
                .help("a skill is a directory holding a SKILL.md with YAML frontmatter (`name`, `description`) and instructions");
        }
    }
}

/// SK016 and SK017: where discovery found the skill file `path` — below another skill, or
/// named in another case.
pub fn where_found(dir: &SkillDir, path: &std::path::Path, out: &mut Reporter) {
    let shown = dir.dir.display();
    if let Some(outer) = &dir.nested_in {
        let outer = outer.display();
        out.emit(&SK016, None, format!("this skill file lies inside the skill `{outer}`: runtimes do not load it as a skill"))
            .help(format!("if it is meant to be a skill, move `{shown}` out of `{outer}`, beside the other skills; a template or an example needs nothing"));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if crate::discover::is_other_case(name) {
        out.emit(&SK017, None, format!("`{name}` is not `SKILL.md`: only case-insensitive file systems (macOS, Windows) load it"))
            .help(format!("rename it: git mv {} {} (or skill.md for PAR)", path.display(), dir.path_of("SKILL.md").display()));
    }
}

/// SK011: the file exceeds `max-file-size`.
pub fn file_too_large(size: u64, limit: u64, out: &mut Reporter) {
    out.emit(&SK011, None, format!("the skill file is {size} bytes; `max-file-size` is {limit} bytes"))
        .help("move long material into files under references/ that the body links, or raise `max-file-size` in skillc.toml");
}

/// SK002: the file is not UTF-8.
pub fn invalid_utf8(byte: u8, region: Region, out: &mut Reporter) {
    out.emit_at(
        &SK002,
        Some(region),
        format!(
            "the skill file is not valid UTF-8: byte 0x{byte:02X} at offset {}",
            region.offset
        ),
    )
    .label("not UTF-8")
    .help("save the file as UTF-8");
}

/// SK004: a byte-order mark before the frontmatter.
pub fn byte_order_mark(out: &mut Reporter) {
    out.emit(
        &SK004,
        Some(Span::new(0, 3)),
        "the file begins with a UTF-8 byte-order mark",
    )
    .label("byte-order mark")
    .help("save the file as UTF-8 without a BOM; several parsers then see no frontmatter");
}

/// SK003 and SK005: no frontmatter, or no end to it.
pub fn layout_error(file: &SkillFile, err: LayoutError, out: &mut Reporter) {
    match err {
        LayoutError::Missing(hint) => {
            let first = file.line_span(1);
            let message = "the file does not begin with a `---` line";
            match hint {
                MissingHint::BlankLinesFirst(open) => {
                    let line = file.line_of(open.start);
                    out.emit(&SK003, Some(first), message)
                        .label("expected `---` here")
                        .help(format!("remove the blank lines before the `---` on line {line}: the frontmatter must start the file"));
                }
                MissingHint::WrongDashes(_) => {
                    out.emit(&SK003, Some(first), message)
                        .label("not `---`")
                        .help("the delimiter is exactly three dashes: `---`");
                }
                MissingHint::TextFirst(open) => {
                    let line = file.line_of(open.start);
                    out.emit(&SK003, Some(first), message)
                        .label("text before the frontmatter")
                        .help(format!(
                            "move the frontmatter that starts on line {line} to the top of the file"
                        ));
                }
                MissingHint::None => {
                    out.emit(&SK003, Some(first), message)
                        .label("expected `---` here")
                        .help("start the file with `---`, the YAML frontmatter (`name:`, `description:`), and a closing `---` line");
                }
            }
        }
        LayoutError::Unclosed { open, dots } => {
            let d = out.emit(&SK005, Some(open), "the frontmatter is never closed");
            d.label("opened here");
            match dots {
                Some(dots) => {
                    let line = file.line_of(dots.start);
                    let region = file.region(dots);
                    d.secondary(Some(region), "`...` does not close frontmatter")
                        .help(format!("replace the `...` on line {line} with `---`"));
                }
                None => {
                    d.help("add a `---` line after the last frontmatter key");
                }
            }
        }
    }
}

/// SK006: the frontmatter is not valid YAML.
pub fn yaml_syntax(file: &SkillFile, err: &yaml::SyntaxError, out: &mut Reporter) {
    let line_no = file.line_of(err.span.start);
    let line = file.slice(file.line_span(line_no));
    let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
    let help = if indent.contains('\t') || err.message.contains("tab") {
        Some("indent with spaces: YAML does not allow tabs for indentation".to_string())
    } else if err.message.contains("mapping values are not allowed") {
        let suggestion = line
            .split_once(": ")
            .map(|(key, value)| {
                let value = value.trim().replace('\\', "\\\\").replace('"', "\\\"");
                format!(": `{}: \"{value}\"`", key.trim_start())
            })
            .unwrap_or_default();
        Some(format!("quote the value{suggestion}"))
    } else {
        None
    };
    let d = out.emit(
        &SK006,
        Some(err.span),
        format!("invalid YAML: {}", err.message),
    );
    d.label("here");
    if let Some(help) = help {
        d.help(help);
    }
}

/// SK008, SK009, SK010: what the YAML tree builder noticed.
pub fn yaml_findings(findings: &[Finding], out: &mut Reporter) {
    use std::mem::discriminant;
    // SK009 is about a feature, not each use of it: its first use is reported, with the count.
    let portable = |f: &Finding| {
        !matches!(
            f,
            Finding::DuplicateKey { .. } | Finding::Yaml11Bool(..) | Finding::Yaml11Number(..)
        )
    };
    let mut counts: Vec<(std::mem::Discriminant<Finding>, usize)> = Vec::new();
    for finding in findings {
        match counts.iter_mut().find(|(d, _)| *d == discriminant(finding)) {
            Some((_, n)) => *n += 1,
            None => counts.push((discriminant(finding), 1)),
        }
    }
    let mut seen = Vec::new();
    for finding in findings {
        if portable(finding) {
            if seen.contains(&discriminant(finding)) {
                continue;
            }
            seen.push(discriminant(finding));
        }
        let count = counts
            .iter()
            .find(|(d, _)| *d == discriminant(finding))
            .map_or(1, |(_, n)| *n);
        let more = if count > 1 {
            format!(" (used {count} times)")
        } else {
            String::new()
        };
        match finding {
            Finding::DuplicateKey { key, first, second } => {
                let first = out.region(*first);
                out.emit(&SK008, Some(*second), format!("duplicate key `{key}`"))
                    .label("repeated here")
                    .secondary(first, "first defined here")
                    .help("remove one of them: loaders disagree on which one wins");
            }
            Finding::Anchor(span) => {
                out.emit(&SK009, Some(*span), format!("YAML anchor in the frontmatter{more}"))
                    .label("anchor")
                    .help("write the value out in full: strict and simple frontmatter loaders reject anchors and aliases");
            }
            Finding::Alias(span) => {
                out.emit(&SK009, Some(*span), format!("YAML alias in the frontmatter{more}"))
                    .label("alias")
                    .help("write the value out in full: strict and simple frontmatter loaders reject anchors and aliases");
            }
            Finding::Tag(span, tag) => {
                out.emit(
                    &SK009,
                    Some(*span),
                    format!("explicit YAML tag `{tag}`{more}"),
                )
                .label("tag")
                .help("remove the tag; quote the value if it must be a string");
            }
            Finding::MergeKey(span) => {
                out.emit(&SK009, Some(*span), format!("YAML merge key `<<`{more}"))
                    .label("merge key")
                    .help("write the merged keys out: `<<` is a YAML 1.1 extension that YAML 1.2 loaders keep as a plain key");
            }
            Finding::NonStringKey(span) => {
                out.emit(
                    &SK009,
                    Some(*span),
                    format!("a mapping key that is not a string{more}"),
                )
                .label("not a string")
                .help("quote the key");
            }
            Finding::ExtraDocument(span) => {
                out.emit(
                    &SK009,
                    Some(*span),
                    "several YAML documents in the frontmatter",
                )
                .label("second document")
                .help("keep one document: remove the `...` or `---` separator and what follows");
            }
            Finding::Yaml11Bool(span, text) => {
                let read = if text == "~" { "null" } else { "a boolean" };
                out.emit(
                    &SK010,
                    Some(*span),
                    format!("`{text}` is {read} in YAML 1.1 loaders such as PyYAML"),
                )
                .label(format!("YAML 1.1 reads {read}"))
                .help(format!("quote it: \"{text}\""));
            }
            Finding::Yaml11Number(span, text) => {
                out.emit(
                    &SK010,
                    Some(*span),
                    format!("`{text}` changes when read as a number"),
                )
                .label("loses digits as a number")
                .help(format!("quote it: \"{text}\""));
            }
        }
    }
}

/// SK007: the frontmatter is not a mapping.
pub fn not_mapping(node: &Node, out: &mut Reporter) {
    out.emit(
        &SK007,
        Some(node.span),
        format!("the frontmatter is {}, not a mapping", node.type_name()),
    )
    .label("expected `key: value` lines")
    .help(
        "write the frontmatter as `key: value` lines, e.g. `name: my-skill` and `description: ...`",
    );
}

/// SK012 and the schema rules SK013–SK015.
pub fn check(skill: &Skill, out: &mut Reporter) {
    file_name(skill, out);
    schema_rules(skill, out);
}

fn file_name(skill: &Skill, out: &mut Reporter) {
    let expected = skill.dialect.file_name();
    let actual = skill
        .file
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    // A skill file name in another case (`SKILL.MD`) is SK017's.
    if actual == expected || crate::discover::is_other_case(actual) {
        return;
    }
    let runtime = match skill.dialect {
        Dialect::Par => "PAR loads",
        Dialect::AgentSkills => "Agent Skills clients load",
    };
    out.emit(
        &SK012,
        None,
        format!(
            "{runtime} `{expected}`, but this {} skill is in `{actual}`",
            skill.dialect.as_str()
        ),
    )
    .help(format!("rename the file to `{expected}`"));
}

fn schema_rules(skill: &Skill, out: &mut Reporter) {
    let empty = Node {
        value: Value::Map(Vec::new()),
        span: skill.layout.open,
    };
    let root = skill.root.unwrap_or(&empty);
    let mut budget = 10_000;
    let json = yaml::to_json(root, skill.anchors, &mut budget);
    let known: Vec<&str> = schema::fields(skill.dialect)
        .iter()
        .map(String::as_str)
        .collect();
    for violation in schema::validate(skill.dialect, root, &json) {
        match violation {
            Violation::Unknown { key } => {
                let text = key.key_text().unwrap_or_default();
                let name = text.as_str();
                if skill.settings.extra_fields.contains(name) {
                    continue;
                }
                let d = out.emit(
                    &SK013,
                    Some(key.span),
                    format!(
                        "unknown field `{name}` for the {} dialect",
                        skill.dialect.as_str()
                    ),
                );
                d.label("not a field of this dialect");
                let allow =
                    format!("or allow it with `extra-fields = [\"{name}\"]` in skillc.toml");
                match closest(name, &known) {
                    Some(near) => d.help(format!("did you mean `{near}`? {allow}")),
                    None if skill.dialect == Dialect::AgentSkills => d.help(format!(
                        "move it under `metadata:` (`metadata:` / `  {name}: ...`), {allow}"
                    )),
                    None => d.help(format!("PAR's fields are {}; {allow}", known.join(", "))),
                };
            }
            Violation::Missing { field } => {
                let present = root.get(&field).is_some();
                let message = if present {
                    format!("required field `{field}` is empty")
                } else {
                    format!("missing required field `{field}`")
                };
                out.emit(&SK015, Some(skill.layout.open), message)
                    .label("in this frontmatter")
                    .help(format!(
                        "add `{field}: {}`",
                        placeholder(skill.dialect, &field)
                    ));
            }
            Violation::WrongType {
                field,
                node,
                expected,
            } => {
                let Some(rule) = type_rule(skill.dialect, &field) else {
                    continue;
                };
                let d = out.emit(
                    rule,
                    Some(node.span),
                    format!("`{field}` must be {expected}, found {}", node.type_name()),
                );
                d.label(format!("expected {expected}"));
                let written = skill.source(node);
                if expected == "a string"
                    && matches!(node.value, Value::Int(_) | Value::Float(_) | Value::Bool(_))
                {
                    d.help(format!("quote it: `{field}: \"{written}\"`"));
                } else if expected == "an integer" {
                    let digits = written.trim_matches(['"', '\'']);
                    let whole = digits.parse::<f64>().ok().filter(|f| f.fract() == 0.0);
                    if let Some(n) = whole {
                        d.help(format!("write it as a plain integer: `{field}: {n}`"));
                    }
                }
            }
        }
    }
}

/// The rule a type error of `field` (a dotted path) belongs to; `None` for fields whose types
/// a rule of their own checks (PAR's `expected_output`: SK204; `metadata`: SK302, SK303).
fn type_rule(dialect: Dialect, field: &str) -> Option<&'static super::Rule> {
    let top = field.split('.').next().unwrap_or(field);
    match (dialect, top) {
        (Dialect::Par, "expected_output") | (Dialect::AgentSkills, "metadata") => None,
        _ => Some(&SK014),
    }
}

fn placeholder(dialect: Dialect, field: &str) -> &'static str {
    match (dialect, field) {
        (_, "description") => "<what the skill does and when to use it>",
        (Dialect::Par, "schema_version") => "1",
        (Dialect::Par, "id") => "<the directory name>",
        (Dialect::Par, "name") => "<a display name>",
        (Dialect::AgentSkills, "name") => "<the directory name>",
        _ => "...",
    }
}

/// The known field closest to `name`, when it is a likely typo.
fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (distance(name, k), *k))
        .filter(|(d, k)| *d <= 2.min(k.len() / 3).max(1))
        .min()
        .map(|(_, k)| k)
}

fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
