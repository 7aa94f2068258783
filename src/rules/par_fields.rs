//! PAR field rules: SK201–SK207.

use crate::dialect::par::{self, Item, ToolFilter, Trigger};
use crate::skill::{Reporter, Skill};
use crate::yaml::{Node, Value};

crate::rule::declare! {
    SK201 "unsupported-schema-version" Error Par
        needs(fields)
        "`schema_version` is an integer other than 1.";
    SK202 "invalid-tool-filter" Error Par
        needs(fields)
        "`tool_filter` does not match the grammar.";
    SK203 "invalid-trigger" Error Par
        needs(fields)
        "`trigger` does not match the grammar.";
    SK204 "invalid-expected-output" Error Par
        needs(fields)
        "`expected_output` is not a mapping, a JSON object string or null.";
    SK205 "empty-tool-list" Warning Par
        needs(fields)
        "`tool_filter` has an empty list.";
    SK206 "duplicate-list-entry" Warning Par
        needs(fields)
        tags(unnecessary)
        "A tool or keyword is repeated in a list.";
    SK207 "unknown-tool" Warning Par
        needs(fields)
        "`tool_filter` names a tool that is not in the configured `tools`.";
}

pub fn check(skill: &Skill, out: &mut Reporter) {
    if skill.dialect != crate::dialect::Dialect::Par {
        return;
    }
    schema_version(skill, out);
    tool_filter(skill, out);
    trigger(skill, out);
    expected_output(skill, out);
}

fn schema_version(skill: &Skill, out: &mut Reporter) {
    if let Some(node) = skill.field("schema_version")
        && let Value::Int(n) = node.value
        && n != 1
    {
        out.emit(&SK201, Some(node.span), format!("skill targets schema_version {n}, current is 1. See MIGRATION.md."))
            .label("unsupported version")
            .help("this skillc knows schema_version 1; migrate the skill to it or use a skillc that supports its version");
    }
}

fn tool_filter(skill: &Skill, out: &mut Reporter) {
    let Some((text, node)) = skill.str_field("tool_filter") else {
        return;
    };
    let filter = match par::parse_tool_filter(text) {
        Ok(filter) => filter,
        Err(err) => {
            out.emit(&SK202, Some(skill.sub_span(node, err.range)), format!("invalid tool_filter: {}", err.message))
                .label("here")
                .help("PAR's runtime silently uses `All` (every tool) when tool_filter is invalid; write `All`, `Only [tool, ...]` or `Except [tool, ...]`");
            return;
        }
    };
    let (items, only) = match &filter {
        ToolFilter::All => return,
        ToolFilter::Only(items) => (items, true),
        ToolFilter::Except(items) => (items, false),
    };
    if items.is_empty() {
        if only {
            out.emit(
                &SK205,
                Some(node.span),
                "`Only []` gives the skill no tools",
            )
            .label("empty list")
            .help("list the tools the skill needs, e.g. `Only [read_file]`");
        } else {
            out.emit(
                &SK205,
                Some(node.span),
                "`Except []` excludes nothing: it is the same as `All`",
            )
            .label("empty list")
            .help("write `tool_filter: All`");
        }
    }
    duplicates(skill, node, items, "tool", out);
    if let Some(tools) = &skill.settings.tools {
        for item in items {
            if !tools.contains(&item.text) {
                out.emit(
                    &SK207,
                    Some(skill.sub_span(node, item.range.clone())),
                    format!("tool `{}` is not in the configured `tools`", item.text),
                )
                .label("unknown tool")
                .help(format!(
                    "known tools: {}; fix the name or add it to `tools` in skillc.toml",
                    tools.join(", ")
                ));
            }
        }
    }
}

fn trigger(skill: &Skill, out: &mut Reporter) {
    let Some((text, node)) = skill.str_field("trigger") else {
        return;
    };
    match par::parse_trigger(text) {
        Ok(Trigger::Keyword(items, _)) => duplicates(skill, node, &items, "keyword", out),
        Ok(_) => {}
        Err(err) => {
            out.emit(&SK203, Some(skill.sub_span(node, err.range)), format!("invalid trigger: {}", err.message))
                .label("here")
                .help("PAR's runtime silently uses `Auto` when trigger is invalid; write `Auto`, `Manual` or `Keyword [word, ...]` with an optional `confirm` or `deterministic`");
        }
    }
}

/// SK206: an entry repeated in a list.
fn duplicates(skill: &Skill, node: &Node, items: &[Item], what: &str, out: &mut Reporter) {
    let mut first: std::collections::HashMap<&str, &Item> = std::collections::HashMap::new();
    for item in items {
        let Some(earlier) = first.get(item.text.as_str()) else {
            first.insert(&item.text, item);
            continue;
        };
        let first_region = out.region(skill.sub_span(node, earlier.range.clone()));
        out.emit(
            &SK206,
            Some(skill.sub_span(node, item.range.clone())),
            format!("{what} `{}` is listed twice", item.text),
        )
        .label("repeated")
        .secondary(first_region, "first listed here")
        .help("remove the repeated entry");
    }
}

fn expected_output(skill: &Skill, out: &mut Reporter) {
    let Some(node) = skill.field("expected_output") else {
        return;
    };
    let text = match &node.value {
        Value::Str(text) => text,
        Value::Map(_) | Value::Null => return,
        _ => {
            out.emit(&SK204, Some(node.span), format!("expected_output must be a mapping, a string holding a JSON object, or null; found {}", node.type_name()))
                .label("not a JSON object")
                .help("write a JSON object such as '{\"type\": \"object\"}', or the same as a YAML mapping");
            return;
        }
    };
    let problem = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => return,
        Ok(other) => {
            let kind = match other {
                serde_json::Value::Array(_) => "an array",
                serde_json::Value::String(_) => "a string",
                serde_json::Value::Number(_) => "a number",
                serde_json::Value::Bool(_) => "a boolean",
                _ => "null",
            };
            format!("expected_output must hold a JSON object, found {kind}")
        }
        Err(e) => format!("expected_output is not valid JSON: {e}"),
    };
    out.emit(&SK204, Some(node.span), problem)
        .label("not a JSON object")
        .help(
            "write a JSON object such as '{\"type\": \"object\"}', or the same as a YAML mapping",
        );
}
