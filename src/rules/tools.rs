//! Bundled tools: SK601–SK605 for `schema.json` / `tools.json` at the skill root.

use foldhash::{HashMap, HashMapExt};
use serde_json::Value;

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Region, Span};
use crate::discover::SkillDir;
use crate::files::SkillTree;
use crate::input::{Links, Read, read_capped};
use crate::json::{self, Step};
use crate::skill::{BundledTool, Reporter};
use crate::source::SkillFile;

crate::rule::declare! {
    // The tool rules run in the bundle phase, after the skill file's fields are read: they are
    // handed the skill's key and body, and judge the tools together with them.
    SK601 "invalid-tool-schema" Error Both
        needs(fields)
        "A bundled tool file is not a JSON array of valid tool definitions.";
    SK602 "duplicate-tool-name" Error Both
        needs(fields)
        tags(collection)
        "Two tools share a name, in one skill or across the skills of a run.";
    SK603 "tool-named-like-skill" Warning Both
        needs(fields)
        "A bundled tool has the same name as its skill.";
    SK604 "too-many-tools" Warning Both
        needs(fields)
        "A skill bundles more than 8 tools.";
    SK605 "undocumented-tool" Warning Both
        needs(fields)
        "A bundled tool's name never appears in the body.";
}

/// The files that hold tool definitions.
pub const TOOL_FILES: [&str; 2] = ["schema.json", "tools.json"];
/// More tools than this in one skill earn SK604.
pub const MAX_TOOLS: usize = 8;
/// At most this many meta-schema errors are reported per tool.
const MAX_SCHEMA_ERRORS: usize = 5;

/// What checking a skill's tool files produced.
#[derive(Debug, Default)]
pub struct Bundle {
    pub files: Vec<SkillFile>,
    pub tools: Vec<BundledTool>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn check(
    dir: &SkillDir,
    tree: &SkillTree,
    key: Option<&str>,
    body: &str,
    settings: &Settings,
) -> Bundle {
    let mut bundle = Bundle::default();
    let real = dir.real_path();
    for name in TOOL_FILES {
        if !tree.entries.iter().any(|e| e.rel == name && e.is_file()) {
            continue;
        }
        let path = dir.path_of(name);
        let mut out = Reporter::new(None, path.clone(), dir.dir.clone());
        let text = match read_capped(&real.join(name), settings.max_file_size, Links::Follow) {
            Ok(Read::Bytes(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    out.emit(
                        &SK601,
                        None,
                        format!("`{name}` is not UTF-8 (invalid byte at offset {at})"),
                    )
                    .help("save the file as UTF-8 JSON");
                    bundle.diagnostics.extend(out.diagnostics);
                    continue;
                }
            },
            Ok(Read::TooLarge(size)) => {
                out.emit(
                    &SK601,
                    None,
                    format!(
                        "`{name}` is {size} bytes; `max-file-size` is {} bytes",
                        settings.max_file_size
                    ),
                )
                .help("split the tools across skills, or raise `max-file-size`");
                bundle.diagnostics.extend(out.diagnostics);
                continue;
            }
            Err(e) => {
                out.emit(&SK601, None, format!("cannot read `{name}`: {e}"));
                bundle.diagnostics.extend(out.diagnostics);
                continue;
            }
        };
        check_source(SkillFile::new(path, text), &dir.dir, key, body, &mut bundle);
    }
    bundle
}

/// Checks one tool schema file already in memory (`skill`: the skill directory shown),
/// adding its diagnostics, its tools and the file itself to `bundle`.
pub fn check_source(
    file: SkillFile,
    skill: &std::path::Path,
    key: Option<&str>,
    body: &str,
    bundle: &mut Bundle,
) {
    let path = file.path.clone();
    let mut out = Reporter::new(Some(&file), path.clone(), skill.to_path_buf());
    check_file(&file, &path, key, body, &mut out, &mut bundle.tools);
    bundle.diagnostics.extend(out.diagnostics);
    bundle.files.push(file);
}

fn check_file(
    file: &SkillFile,
    path: &std::path::Path,
    key: Option<&str>,
    body: &str,
    out: &mut Reporter,
    tools: &mut Vec<BundledTool>,
) {
    let text = file.text.as_str();
    let span_at = |steps: &[Step]| json::locate(text, steps).map(|r| Span::new(r.start, r.end));
    let doc: Value = match serde_json::from_str(text) {
        Ok(doc) => doc,
        Err(e) => {
            // serde_json's column counts bytes.
            let line = file.line_span(e.line().max(1));
            let at = file.char_boundary((line.start + e.column().saturating_sub(1)).min(line.end));
            let message = e.to_string();
            let message = message
                .rfind(" at line ")
                .map_or(message.as_str(), |i| &message[..i]);
            out.emit(
                &SK601,
                Some(Span::new(at, at)),
                format!("invalid JSON: {message}"),
            )
            .label("here")
            .help("the file must be a JSON array of tool definitions");
            return;
        }
    };
    let Value::Array(items) = &doc else {
        out.emit(
            &SK601,
            span_at(&[]),
            format!(
                "expected a JSON array of tool definitions, found {}",
                kind(&doc)
            ),
        )
        .label("not an array")
        .help("write `[{\"name\": ..., \"description\": ..., \"parameters\": {...}}, ...]`");
        return;
    };
    if items.len() > MAX_TOOLS {
        let open = span_at(&[]).map(|s| Span::new(s.start, s.start + 1));
        out.emit(
            &SK604,
            open,
            format!(
                "the skill bundles {} tools; keep it to {MAX_TOOLS} or fewer",
                items.len()
            ),
        )
        .label("too many tools")
        .help("split the tools across focused skills: models choose worse among many tools");
    }
    // Where each tool begins, found once: a path into tool `i` is looked up from there, not
    // by walking the tools before it again (quadratic in a file of thousands of tools).
    let starts = json::item_starts(text);
    let mut seen: HashMap<&str, Option<Region>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let at = |rest: &[Step]| {
            let start = *starts.get(i)?;
            json::locate_from(text, start, rest).map(|r| Span::new(r.start, r.end))
        };
        let Value::Object(tool) = item else {
            out.emit(
                &SK601,
                at(&[]),
                format!("tool {} is {}, not an object", i + 1, kind(item)),
            )
            .label("not a tool object");
            continue;
        };
        let name = match tool.get("name") {
            None => {
                out.emit(&SK601, at(&[]), format!("tool {} has no `name`", i + 1))
                    .label("no name")
                    .help("add `\"name\": \"my_tool\"`");
                None
            }
            Some(Value::String(name)) if valid_name(name) => Some(name.as_str()),
            Some(other) => {
                out.emit(
                    &SK601,
                    at(&[Step::Key("name".into())]),
                    format!("tool name {other} must be a string matching ^[A-Za-z0-9_-]{{1,64}}$"),
                )
                .label("invalid name")
                .help("use letters, digits, `_` and `-` only, at most 64 characters");
                None
            }
        };
        let shown = name.map_or_else(|| format!("tool {}", i + 1), |n| format!("tool `{n}`"));
        match tool.get("description") {
            Some(Value::String(_)) => {}
            None => {
                out.emit(&SK601, at(&[]), format!("{shown} has no `description`"))
                    .label("no description")
                    .help("add a `description` that says what the tool does and when to call it");
            }
            Some(other) => {
                out.emit(
                    &SK601,
                    at(&[Step::Key("description".into())]),
                    format!(
                        "the description of {shown} is {}, not a string",
                        kind(other)
                    ),
                )
                .label("not a string");
            }
        }
        let field = ["parameters", "input_schema"]
            .into_iter()
            .find(|f| tool.contains_key(*f));
        match field.and_then(|f| tool.get(f).map(|v| (f, v))) {
            None => {
                out.emit(
                    &SK601,
                    at(&[]),
                    format!("{shown} has neither `parameters` nor `input_schema`"),
                )
                .label("no schema")
                .help("add `\"parameters\": {\"type\": \"object\", \"properties\": {...}}`");
            }
            Some((f, Value::Object(_))) => {
                let schema = &tool[f];
                for error in meta_validator(schema)
                    .iter_errors(schema)
                    .take(MAX_SCHEMA_ERRORS)
                {
                    let mut steps = vec![Step::Key(f.to_string())];
                    steps.extend(error.instance_path().iter().map(|seg| match seg {
                        jsonschema::paths::LocationSegment::Property(p) => Step::Key(p.to_string()),
                        jsonschema::paths::LocationSegment::Index(n) => Step::Index(n),
                    }));
                    out.emit(&SK601, at(&steps), format!("`{f}` of {shown} is not a valid JSON Schema: {error}"))
                        .label("invalid schema")
                        .help("check it against the JSON Schema specification (the `$schema` draft, else 2020-12)");
                }
            }
            Some((f, other)) => {
                out.emit(
                    &SK601,
                    at(&[Step::Key(f.into())]),
                    format!(
                        "`{f}` of {shown} is {}, not a JSON Schema object",
                        kind(other)
                    ),
                )
                .label("not an object");
            }
        }
        let Some(name) = name else { continue };
        let Some(span) = at(&[Step::Key("name".into())]) else {
            continue;
        };
        if let Some(&first) = seen.get(name) {
            out.emit(&SK602, Some(span), format!("two tools are named `{name}`"))
                .label("repeated")
                .secondary(first, "first defined here")
                .help("give each tool a distinct name: a model cannot tell them apart");
        } else {
            // Its region is kept, not its span: a later duplicate far along a long line would
            // count its way back to it.
            let region = out.region(span);
            seen.insert(name, region);
            if let Some(region) = region {
                tools.push(BundledTool {
                    name: name.to_string(),
                    path: path.to_path_buf(),
                    region,
                });
            }
        }
        if key == Some(name) {
            out.emit(
                &SK603,
                Some(span),
                format!("tool `{name}` has the same name as its skill"),
            )
            .label("same as the skill")
            .help("rename the tool after what it does: models call the skill's name as a tool");
        }
        if !body.contains(name) {
            out.emit(
                &SK605,
                Some(span),
                format!("tool `{name}` is never mentioned in the body"),
            )
            .label("undocumented")
            .help(format!(
                "say in the body when to call `{name}` and with what"
            ));
        }
    }
}

fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The meta-schema validator for a schema's `$schema` draft; 2020-12 when absent or unknown.
fn meta_validator(schema: &Value) -> jsonschema::meta::MetaValidator<'static> {
    let draft = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
    if draft.contains("draft-04") {
        jsonschema::draft4::meta::validator()
    } else if draft.contains("draft-06") {
        jsonschema::draft6::meta::validator()
    } else if draft.contains("draft-07") {
        jsonschema::draft7::meta::validator()
    } else if draft.contains("2019-09") {
        jsonschema::draft201909::meta::validator()
    } else {
        jsonschema::draft202012::meta::validator()
    }
}
