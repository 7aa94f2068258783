//! Agent Skills field rules: SK301–SK304.

use super::{SK301, SK302, SK303, SK304};
use crate::lint::{Reporter, Skill};
use crate::yaml::Value;

/// The most characters `compatibility` may have.
pub const COMPATIBILITY_MAX: usize = 500;

pub fn check(skill: &Skill, out: &mut Reporter) {
    compatibility(skill, out);
    metadata(skill, out);
    allowed_tools(skill, out);
}

fn compatibility(skill: &Skill, out: &mut Reporter) {
    let Some((text, node)) = skill.str_field("compatibility") else {
        return;
    };
    let chars = text.chars().count();
    if super::identity::is_blank(text) {
        out.emit(&SK301, Some(node.span), "`compatibility` is empty")
            .label("empty")
            .help("say what the skill needs (e.g. `compatibility: Requires Python 3.10+ and network access`), or remove the field");
    } else if chars > COMPATIBILITY_MAX {
        out.emit(
            &SK301,
            Some(node.span),
            format!("`compatibility` is {chars} characters long; the limit is {COMPATIBILITY_MAX}"),
        )
        .label(format!("{chars} characters"))
        .help("keep it to the environment requirements; move details into the body");
    }
}

fn metadata(skill: &Skill, out: &mut Reporter) {
    let Some(node) = skill.field("metadata") else {
        return;
    };
    let entries = match &node.value {
        Value::Map(entries) => entries,
        Value::Null => return,
        _ => {
            out.emit(
                &SK302,
                Some(node.span),
                format!("`metadata` must be a mapping, found {}", node.type_name()),
            )
            .label("not a mapping")
            .help("write `metadata:` followed by indented `key: \"value\"` lines");
            return;
        }
    };
    for (key, value) in entries {
        let value = skill.resolve(value);
        if matches!(value.value, Value::Str(_)) {
            continue;
        }
        let name = key.as_str().unwrap_or("?");
        let d = out.emit(
            &SK303,
            Some(value.span),
            format!(
                "metadata value `{name}` is {}, not a string",
                value.type_name()
            ),
        );
        d.label("not a string");
        let written = skill.source(value);
        if matches!(
            value.value,
            Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Null
        ) && !written.is_empty()
        {
            d.help(format!(
                "quote it: `{name}: \"{written}\"` (numbers lose digits: 1.10 becomes 1.1)"
            ));
        } else {
            d.help("metadata maps strings to strings; encode structured values as a string");
        }
    }
}

fn allowed_tools(skill: &Skill, out: &mut Reporter) {
    let Some(node) = skill.field("allowed-tools") else {
        return;
    };
    match &node.value {
        Value::Seq(items) => {
            let joined: Vec<&str> = items.iter().filter_map(|i| i.as_str()).collect();
            out.emit(
                &SK304,
                Some(node.span),
                "`allowed-tools` is a YAML list; the format is one space-separated string",
            )
            .label("a list")
            .help(format!("write `allowed-tools: {}`", joined.join(" ")));
        }
        Value::Str(text) if text.contains(',') => {
            let fixed: Vec<&str> = text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect();
            out.emit(
                &SK304,
                Some(node.span),
                "`allowed-tools` separates tools with commas; the format is space-separated",
            )
            .label("commas")
            .help(format!("write `allowed-tools: {}`", fixed.join(" ")));
        }
        _ => {}
    }
}
