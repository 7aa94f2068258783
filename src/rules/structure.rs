//! Structure rules for both dialects: the skill file's place, size, encoding and layout
//! (SK001–SK005, SK011, SK016, SK017), its frontmatter's shape (SK007) and schema (SK012–SK015).
//! The YAML syntax rules (SK006, SK008–SK010) are [`super::yaml_syntax`]'s.

use crate::diagnostic::{Diagnostic, Region, Span};
use crate::dialect::Dialect;
use crate::dialect::schema::{self, Violation};
use crate::discover::SkillDir;
use crate::fix::{Applicability, Edit, Fix};
use crate::skill::{Reporter, Skill};
use crate::source::{LayoutError, MissingHint, SkillFile};
use crate::yaml::{self, Node, Value};

use super::yaml_syntax::{YAML11_BREAKS, bare_scalar_at, plain_or_quoted};
// The pipeline names the YAML syntax rules here.

crate::rule::declare! {
    SK001 "missing-skill-file" Error Both
        "A directory given as a skill has no `SKILL.md` or `skill.md`.";
    SK002 "invalid-utf8" Error Both
        unsuppressible
        "The skill file is not valid UTF-8.";
    SK003 "missing-frontmatter" Error Both
        unsuppressible
        stops(frontmatter)
        "The skill file does not begin with a `---` line.";
    SK004 "byte-order-mark" Warning Both
        fix(safe "remove the BOM")
        "The skill file begins with a UTF-8 byte-order mark.";
    SK005 "unclosed-frontmatter" Error Both
        unsuppressible
        stops(frontmatter)
        "The frontmatter has no closing `---` line.";
    SK007 "frontmatter-not-mapping" Error Both
        unsuppressible
        needs(fields)
        stops(fields)
        "The frontmatter is a YAML list or scalar, not a mapping.";
    SK011 "file-too-large" Error Both
        "The skill file exceeds `max-file-size`.";
    SK012 "skill-file-name" Warning Both
        needs(fields)
        fix(unsafe "rename the skill file to the dialect's name (`skill.md` → `SKILL.md`); not when a file of that name exists, or a symbolic link or a Markdown file of the skill (or of the skill it is nested in) names the file")
        "The skill file name is not the one the dialect's runtime loads.";
    SK013 "unknown-field" Error Both
        needs(fields)
        tags(form unnecessary)
        fix(unsafe "move an unknown top-level `key: value` written on one line under `metadata:` as a string (creating `metadata:` at the end of the frontmatter when there is none); not for a likely typo, a list or mapping, an anchor or alias, or a key `metadata` already has; not when `metadata` is written twice; not in a `{…}` frontmatter (the help says so), nor a line followed by an indented line or holding a lone CR, NEL, LS or PS; `metadata:` is created before a `...` document end or a `---` that starts a second document; not a key YAML 1.1 reads as a boolean (`on`, `yes`) when another top-level key reads as the same one (`true`): YAML 1.1 loaders would then read the other's value; plain text YAML 1.1 reads as a date or number is quoted")
        "A frontmatter key that neither the dialect, nor the skill's targets, nor `extra-fields` defines.";
    SK014 "field-type" Error Both
        needs(fields)
        tags(form)
        fix(safe retypes "quote a number or boolean where text is required (`description: 42`); write `schema_version: \"1\"` as the integer `1` (a tab before the value becomes a space)")
        "A known field has the wrong YAML type.";
    SK015 "missing-field" Error Both
        needs(fields)
        "A required field is absent or null.";
    SK016 "nested-skill-file" Info Both
        tags(unnecessary)
        "A skill file below another skill's directory: runtimes do not load it as a skill.";
    SK017 "skill-file-case" Warning Both
        "A file named like a skill file in another case (`SKILL.MD`, `Skill.md`).";
}

/// SK001: a directory given explicitly holds no skill file.
pub fn missing_skill_file(dir: &SkillDir, out: &mut Reporter) {
    let shown = dir.dir.display();
    match dir.near_miss() {
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
    if let Some(outer) = dir.nested_in() {
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
    out.emit(&SK011, None, format!("the skill file is {} bytes; `max-file-size` is {} bytes", crate::diagnostic::thousands(size as usize), crate::diagnostic::thousands(limit as usize)))
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
    .help("save the file as UTF-8 without a BOM; several parsers then see no frontmatter")
    .fix(Fix::replace(
        Applicability::Safe,
        "remove the byte-order mark",
        Span::new(0, 3),
        "",
    ));
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
    // A skill file name in another case (`SKILL.MD`) is SK017's. Whether its fix is safe
    // reads the skill's Markdown files: not when the rule is off.
    if actual == expected
        || crate::discover::is_other_case(actual)
        || !skill.settings.enabled(&SK012)
    {
        return;
    }
    let runtime = match skill.dialect {
        Dialect::Par => "PAR loads",
        Dialect::AgentSkills => "Agent Skills clients load",
    };
    // Unsafe: the runtimes that read the other name no longer find the skill. Never over
    // another file of that name. Whether another file names it is settled once the other rules
    // have read the skill's files ([`settle_rename`]).
    let to = skill.file.path.with_file_name(expected);
    let free = (std::fs::symlink_metadata(&to).is_err()
        || crate::files::same_file(&skill.file.path, &to))
        && !crate::files::mentions_own_name(&skill.file.path, skill.file.text.as_bytes());
    let d = out
        .emit(
            &SK012,
            None,
            format!(
                "{runtime} `{expected}`, but this {} skill is in `{actual}`",
                skill.dialect.as_str()
            ),
        )
        .help(format!("rename the file to `{expected}`"));
    if free {
        d.fix(Fix::rename(
            Applicability::Unsafe,
            format!("rename the file to `{expected}`"),
            expected,
        ));
    }
}

/// SK012's fix (renaming the skill file `file` of `dir`) is withdrawn when a Markdown file of
/// the skill, or a link in it, leads to the file by its name. `read`: the texts of the skill's
/// files the rules read already (by path from the skill's root); the other Markdown files are
/// read here, and returned for the rules after this one.
pub fn settle_rename(
    diagnostics: &mut [Diagnostic],
    dir: &SkillDir,
    file: &std::path::Path,
    tree: &crate::files::SkillTree,
    read: &[(&str, &str)],
) -> Vec<(String, String)> {
    let Some(d) = diagnostics
        .iter_mut()
        .find(|d| d.rule.code == SK012.code && d.fix.is_some())
    else {
        return Vec::new();
    };
    let (breaks, texts) = crate::files::rename_breaks_among(dir, file, Some(tree), read);
    if breaks {
        d.fix = None;
    }
    texts
}

fn schema_rules(skill: &Skill, out: &mut Reporter) {
    let empty = Node {
        value: Value::Map(Vec::new()),
        span: skill.layout.open,
    };
    let root = skill.root.unwrap_or(&empty);
    let known: Vec<&str> = schema::fields(skill.dialect)
        .iter()
        .map(String::as_str)
        .collect();
    // The schemas forbid other top-level keys: their values are not read, nor copied.
    let mut budget = 10_000;
    let json = yaml::fields_to_json(root, skill.aliases, &mut budget, |key| known.contains(&key));
    // Looked up once: a frontmatter may have thousands of unknown keys. A `metadata` written
    // twice (SK008) is read as its last by some loaders and refused by others: nothing moves
    // into either.
    let metadata = root.get("metadata");
    let metadata_once = match &root.value {
        Value::Map(entries) => {
            entries
                .iter()
                .filter(|(k, _)| matches!(&k.value, Value::Str(s) if s == "metadata"))
                .count()
                <= 1
        }
        _ => true,
    };
    for violation in schema::validate(skill.dialect, root, &json) {
        match violation {
            Violation::Unknown { key, value } => {
                let text = key.key_text().unwrap_or_default();
                let name = text.as_str();
                if super::runtime_fields::allowed(skill, name) {
                    continue;
                }
                let Some(d) = out.emit_shown(
                    &SK013,
                    Some(key.span),
                    format!(
                        "unknown field `{name}` for the {} dialect",
                        skill.dialect.as_str()
                    ),
                ) else {
                    continue;
                };
                d.label("not a field of this dialect");
                if let Some(ignoring) = super::runtime_fields::all_ignore_unknown(skill) {
                    // Nothing breaks: the field has no effect where the skill is loaded.
                    d.severity = crate::diagnostic::Severity::Warning;
                    d.message.push_str(&format!(": {ignoring} it"));
                }
                let allow =
                    format!("or allow it with `extra-fields = [\"{name}\"]` in skillc.toml");
                let runtime = super::runtime_fields::unknown_field_help(name);
                // `metadata` maps strings to strings: only a scalar moves there as it is.
                let scalar = !matches!(skill.resolve(value).value, Value::Map(_) | Value::Seq(_));
                // `tools` for `allowed-tools`: a compound field's last word is as close as a typo.
                let near = crate::suggest::closest(name, known.iter().copied()).or_else(|| {
                    known
                        .iter()
                        .copied()
                        .find(|k| k.strip_suffix(name).is_some_and(|p| p.ends_with('-')))
                });
                match (near, runtime) {
                    (_, Some(help)) if skill.dialect == Dialect::AgentSkills => d.help(help),
                    (Some(near), _) => d.help(format!("did you mean `{near}`? {allow}")),
                    (None, _) if skill.dialect == Dialect::AgentSkills && scalar => {
                        if metadata_once
                            && let Some(fix) = to_metadata(skill, root, metadata, key, value)
                        {
                            d.fix(fix);
                        }
                        // Lines move only in a block mapping: a `{…}` one would need its commas
                        // and braces rewritten.
                        let note = if is_flow(skill, root) {
                            " (not fixed automatically: the frontmatter is a `{…}` flow mapping)"
                        } else {
                            ""
                        };
                        d.help(format!(
                            "move it under `metadata:` as a string (`metadata:` / `  {name}: \"...\"`), {allow}{note}"
                        ))
                    }
                    (None, _) if skill.dialect == Dialect::AgentSkills => d.help(format!(
                        "no runtime reads `{name}`: remove it, write it in the body, or {}",
                        allow.trim_start_matches("or ")
                    )),
                    (None, _) => d.help(format!("PAR's fields are {}; {allow}", known.join(", "))),
                };
            }
            Violation::Missing { field } => {
                if field == "name" && super::runtime_fields::name_optional(skill) {
                    continue;
                }
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
                    // The field takes text: the text written is what was meant.
                    if !written.contains(['"', '\\', '\n'])
                        && bare_scalar_at(&skill.file.text, node.span)
                    {
                        d.fix(Fix::replace(
                            Applicability::Safe,
                            "quote it",
                            node.span,
                            format!("\"{written}\""),
                        ));
                    }
                } else if expected == "an integer" {
                    let digits = written.trim_matches(['"', '\'']);
                    let whole = digits.parse::<f64>().ok().filter(|f| f.fract() == 0.0);
                    if let Some(n) = whole {
                        d.help(format!("write it as a plain integer: `{field}: {n}`"));
                        if matches!(node.value, Value::Str(_))
                            && n.abs() < 1e15
                            && bare_scalar_at(&skill.file.text, node.span)
                        {
                            let (span, space) =
                                super::yaml_syntax::plain_in_place(&skill.file.text, node.span);
                            d.fix(Fix::replace(
                                Applicability::Safe,
                                "write it as an integer",
                                span,
                                format!("{space}{n}"),
                            ));
                        }
                    }
                }
            }
        }
    }
}

/// SK013's fix for an unknown top-level `key: value` on one line, a scalar: the line moves to
/// the end of the `metadata:` block (created at the end of the frontmatter when there is
/// none: by one such fix a round), its value as a string. Unsafe: a runtime that read the key
/// at the top no longer does.
///
/// `root` is the frontmatter's mapping and `metadata` its `metadata:` entry, if any; `key` is
/// the first key written
/// with its text (a string key: `1:` is not moved).
fn to_metadata(
    skill: &Skill,
    root: &Node,
    metadata: Option<&(Node, Node)>,
    key: &Node,
    value: &Node,
) -> Option<Fix> {
    let text = skill.file.text.as_str();
    let name = key.as_str()?.to_string();
    // A key YAML 1.1 reads as a boolean (`on`) is one key to it with every other that does
    // (`true`): moving one would change the value YAML 1.1 loaders read for the other.
    if let (Some(truth), Value::Map(entries)) = (yaml::yaml11_bool(skill.source(key)), &root.value)
        && entries
            .iter()
            .any(|(k, _)| k.span != key.span && yaml::yaml11_bool(skill.source(k)) == Some(truth))
    {
        return None;
    }
    // The entry's own line, and nothing after the value but spaces (a comment stays put).
    let before = text.get(..key.span.start)?;
    if !(before.is_empty() || before.ends_with('\n')) || is_flow(skill, root) {
        return None;
    }
    let start = key.span.start;
    let end = text.get(value.span.end..)?.find('\n')? + value.span.end;
    let line = text.get(start..end)?;
    let after = text.get(value.span.end..end)?;
    if !after.trim_end_matches('\r').trim().is_empty() {
        return None;
    }
    // A line YAML 1.1 loaders break elsewhere (NEL, LS, PS) is not one line to them, nor one
    // holding a lone CR to any loader.
    if line.contains(YAML11_BREAKS) || line.trim_end_matches('\r').contains('\r') {
        return None;
    }
    let eol = if line.ends_with('\r') { "\r\n" } else { "\n" };
    let written = skill.source(value);
    // An anchor, alias or tag would change what it refers to once moved.
    if written.starts_with(['&', '*', '!']) {
        return None;
    }
    // The key as written (`"123"` stays a string key).
    let key_written = skill.source(key);
    let string = match &value.value {
        // Text written plain that YAML 1.1 reads otherwise (`2024-01-02`) is quoted there: the
        // move makes it a string.
        Value::Str(text) if !written.starts_with(['"', '\'']) && text == written => {
            plain_or_quoted(text)
        }
        Value::Str(_) => written.to_string(),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Null
            if !written.is_empty() && !written.contains(['"', '\\']) =>
        {
            format!("\"{written}\"")
        }
        _ => return None,
    };
    if string.contains('\n') {
        return None;
    }
    // An indented line after it (a comment, say) would join the value above it once the line
    // is gone: a block scalar (`>-`) takes it as text.
    let next = text
        .get(end + 1..skill.layout.close.start)
        .unwrap_or("")
        .split_inclusive('\n')
        .find(|l| !l.trim().is_empty());
    if next.is_some_and(|l| l.starts_with([' ', '\t'])) {
        return None;
    }
    let delete = Edit {
        span: Span::new(start, end + 1),
        content: String::new(),
    };
    let insert = match metadata {
        None => {
            // Before a `...` or `---` that ends the YAML document: after it, `metadata:` would
            // join a second one.
            let at = document_end(text, root.span.end, skill.layout.close.start)
                .unwrap_or(skill.layout.close.start);
            Edit {
                span: Span::new(at, at),
                content: format!("metadata:{eol}  {key_written}: {string}{eol}"),
            }
        }
        Some((metadata_key, metadata)) => {
            let Value::Map(entries) = &metadata.value else {
                return None;
            };
            // An anchored (or tagged) `metadata:` is repeated by its aliases: no key joins it.
            // A `{…}` one would need a comma.
            if is_flow(skill, metadata)
                || text
                    .get(metadata_key.span.end..metadata.span.start)?
                    .contains(['&', '!'])
                || skill.source(metadata).starts_with(['&', '!'])
            {
                return None;
            }
            // The key there already: a second one would be a duplicate.
            if metadata.get(&name).is_some() {
                return None;
            }
            let (first, _) = entries.first()?;
            let (_, last) = entries.last()?;
            let first_line = text
                .get(..first.span.start)?
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let indent = text.get(first_line..first.span.start)?;
            if indent.is_empty() || !indent.chars().all(|c| c == ' ') {
                return None;
            }
            // After the line the block's last value ends on.
            let at = text.get(last.span.end.saturating_sub(1)..)?.find('\n')?
                + last.span.end.saturating_sub(1)
                + 1;
            if at > skill.layout.close.start {
                return None;
            }
            Edit {
                span: Span::new(at, at),
                content: format!("{indent}{key_written}: {string}{eol}"),
            }
        }
    };
    let mut edits = vec![insert, delete];
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    if edits[0].span.end > edits[1].span.start {
        return None;
    }
    let creates = metadata.is_none();
    Some(Fix {
        applicability: Applicability::Unsafe,
        message: format!("move `{name}` under `metadata:`"),
        edits,
        rename: None,
        exclusive: creates.then_some("metadata:"),
        available: false,
    })
}

/// Whether the collection `node` is written in flow style (`{…}`, `[…]`).
fn is_flow(skill: &Skill, node: &Node) -> bool {
    skill.source(node).starts_with(['{', '['])
}

/// The start of the first line that ends the YAML document — a `...` (document end) or a
/// `---` (the next document's start, which may hold a value: `--- text`) — between bytes
/// `from` and `to` of `text`, from the start of the line after `from`.
fn document_end(text: &str, from: usize, to: usize) -> Option<usize> {
    let mut at = if text.get(..from)?.ends_with('\n') {
        from
    } else {
        text.get(from..to)?.find('\n')? + from + 1
    };
    for line in text.get(at..to)?.split_inclusive('\n') {
        let content = line.trim_end_matches(['\r', '\n']);
        let marker = ["...", "---"].iter().any(|m| {
            content
                .strip_prefix(m)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
        });
        if marker {
            return Some(at);
        }
        at += line.len();
    }
    None
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
