//! Agent Skills field rules: SK301–SK304.

use crate::diagnostic::Span;
use crate::fix::{Applicability, Fix};
use crate::skill::{Reporter, Skill};
use crate::yaml::{Node, Value};

crate::rule::declare! {
    SK301 "compatibility-length" Error AgentSkills
        needs(fields)
        "`compatibility` is empty or longer than 500 characters.";
    SK302 "metadata-not-mapping" Error AgentSkills
        needs(fields)
        tags(form)
        "`metadata` is not a mapping.";
    SK303 "metadata-value-type" Warning AgentSkills
        needs(fields)
        tags(form)
        fix(safe retypes "quote a number as the digits written (`1.10` stays `\"1.10\"`)")
        fix(unsafe retypes "quote a boolean or null: as text it is a guess")
        "A `metadata` value is not a string.";
    SK304 "allowed-tools-format" Warning AgentSkills
        needs(fields)
        tags(form)
        fix(unsafe retypes "a YAML list or commas → one space-separated string, only when no tool holds a comma or a space (`Bash(git log, git diff)` keeps its list) and no comment sits in or before the value; not when the value holds an anchor, alias or tag (the help says so); unsafe: a runtime that reads lists or commas may not read spaces")
        "`allowed-tools` is a list or uses commas instead of one space-separated string.";
}

/// The most characters `compatibility` may have.
pub const COMPATIBILITY_MAX: usize = 500;

pub fn check(skill: &Skill, out: &mut Reporter) {
    if skill.dialect != crate::dialect::Dialect::AgentSkills {
        return;
    }
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
            format!(
                "`compatibility` is {} characters long; the limit is {}",
                crate::diagnostic::thousands(chars),
                crate::diagnostic::thousands(COMPATIBILITY_MAX)
            ),
        )
        .label(format!(
            "{} characters",
            crate::diagnostic::thousands(chars)
        ))
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
    for (key, written_value) in entries {
        let value = skill.resolve(written_value);
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
            // The digits written are the text meant; a boolean or null as text is a guess.
            let applicability = if matches!(value.value, Value::Int(_) | Value::Float(_)) {
                Applicability::Safe
            } else {
                Applicability::Unsafe
            };
            // An alias's value is written elsewhere, for other keys too: no fix.
            if !written.contains(['"', '\\', '\n'])
                && !matches!(written_value.value, Value::Alias(_))
                && super::yaml_syntax::bare_scalar_at(&skill.file.text, value.span)
            {
                d.fix(Fix::replace(
                    applicability,
                    "quote it",
                    value.span,
                    format!("\"{written}\""),
                ));
            }
        } else {
            d.help("metadata maps strings to strings; encode structured values as a string");
        }
    }
}

fn allowed_tools(skill: &Skill, out: &mut Reporter) {
    let Some(node) = skill.field("allowed-tools") else {
        return;
    };
    // Claude Code documents `allowed-tools: Read, Grep, Glob`, and reads a YAML list (its
    // own plugins write one): for skills only it loads, both are its format.
    let runtime_reads =
        !skill.targets.is_empty() && skill.targets.iter().all(|r| r.tools_with_commas);
    match &node.value {
        Value::Seq(_) if runtime_reads => {}
        Value::Seq(items) => {
            let tools: Option<Vec<&str>> =
                items.iter().map(|i| skill.resolve(i).as_str()).collect();
            let help = match &tools {
                Some(tools) => string_help(tools),
                None => "write the tools as one space-separated string of tool names".to_string(),
            };
            let fix = tools.and_then(|tools| tools_fix(skill, &tools));
            let d = out.emit(
                &SK304,
                Some(node.span),
                "`allowed-tools` is a YAML list; the format is one space-separated string",
            );
            d.label("a list").help(with_anchor_note(skill, help));
            if let Some(fix) = fix {
                d.fix(fix);
            }
        }
        Value::Str(text) => {
            let tools = top_level(text, |c| c == ',');
            if tools.len() < 2 || runtime_reads {
                return;
            }
            let fix = tools_fix(skill, &tools);
            let d = out.emit(
                &SK304,
                Some(node.span),
                "`allowed-tools` separates tools with commas; the format is space-separated",
            );
            d.label("commas")
                .help(with_anchor_note(skill, string_help(&tools)));
            if let Some(fix) = fix {
                d.fix(fix);
            }
        }
        _ => {}
    }
}

/// SK304's help, saying why there is no fix when an anchor, alias or tag keeps it from being
/// made.
fn with_anchor_note(skill: &Skill, help: String) -> String {
    let anchored = skill
        .root
        .and_then(|root| root.get("allowed-tools"))
        .is_some_and(|(_, written)| has_node_properties(skill, written));
    if anchored {
        format!(
            "{help} (not fixed automatically: the value holds a YAML anchor, alias or tag, which rewriting it would drop)"
        )
    } else {
        help
    }
}

/// SK304's fix: `allowed-tools` written as the one space-separated string of `tools`, when no
/// tool needs its commas or holds a space (`Bash(git log, git diff)`), and nothing but spaces
/// lies between the key and its value (a comment there is kept, so no fix). Unsafe: a runtime
/// that reads lists or commas may not read spaces.
fn tools_fix(skill: &Skill, tools: &[&str]) -> Option<Fix> {
    let (key, value) = skill.entry("allowed-tools")?;
    let tools: Vec<&str> = tools.iter().map(|t| t.trim()).collect();
    if tools.is_empty()
        || tools
            .iter()
            .any(|t| t.is_empty() || t.contains(|c: char| c == ',' || c.is_whitespace()))
    {
        return None;
    }
    if skill
        .root
        .and_then(|root| root.get("allowed-tools"))
        .is_none_or(|(_, written)| has_node_properties(skill, written))
    {
        return None;
    }
    let between = Span::new(key.span.end, value.span.start);
    let gap = out_text(skill, between)?;
    if !gap.starts_with(':') || !gap[1..].chars().all(|c| matches!(c, ' ' | '\n' | '\r')) {
        return None;
    }
    // A block scalar's last line break (`>` … `Read, Grep⏎`) stays: what follows keeps its line.
    let written = out_text(skill, value.span)?;
    let mut end = value.span.start + written.trim_end_matches([' ', '\t', '\r', '\n']).len();
    // A flow list (`[Read, Grep]`) ends at its bracket.
    if out_text(skill, value.span)?.starts_with('[') {
        let rest = skill.file.text.get(end..)?;
        let close = rest.find(|c: char| c != ' ')?;
        if !rest[close..].starts_with(']') {
            return None;
        }
        end += close + 1;
    }
    // A comment inside the list would be lost with it.
    if out_text(skill, Span::new(value.span.start, end))?.contains('#') {
        return None;
    }
    Some(Fix::replace(
        Applicability::Unsafe,
        "write the tools as one space-separated string",
        Span::new(key.span.end, end),
        format!(
            ": {}",
            super::yaml_syntax::plain_or_quoted(&tools.join(" "))
        ),
    ))
}

/// Whether the value written for `allowed-tools` (`value`, its alias not resolved) is an
/// alias, or it or one of its items carries an anchor or a tag: rewriting it would drop an
/// anchor an alias elsewhere may use (the alias then names nothing, or another node).
fn has_node_properties(skill: &Skill, value: &Node) -> bool {
    let text = skill.file.text.as_str();
    let property = |span: Span| {
        text.get(span.start..span.end)
            .is_none_or(|t| t.starts_with(['&', '!']))
    };
    match &value.value {
        Value::Alias(_) => true,
        Value::Seq(items) => {
            // Between the items lie `[`, `,`, `-`, spaces and line breaks, and node properties.
            let mut at = value.span.start;
            property(value.span)
                || items.iter().any(|item| {
                    let gap = text.get(at..item.span.start).unwrap_or("&");
                    at = item.span.end;
                    gap.contains(['&', '!']) || property(item.span)
                })
        }
        _ => property(value.span),
    }
}

/// The skill file's text at `span`.
fn out_text<'a>(skill: &Skill<'a>, span: Span) -> Option<&'a str> {
    skill.file.text.get(span.start..span.end)
}

/// SK304's help: the one space-separated string that holds `tools`, each written as it was
/// (a `Tool(a, b)` pattern keeps its commas and spaces) — unless a tool name holds a space,
/// which no space-separated string can.
fn string_help(tools: &[&str]) -> String {
    let tools: Vec<&str> = tools
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .collect();
    if let Some(spaced) = tools
        .iter()
        .find(|t| top_level(t, char::is_whitespace).len() > 1)
    {
        return format!(
            "`{spaced}` contains a space, which a space-separated string cannot express; check the tool's name in the runtime you target"
        );
    }
    if tools.is_empty() {
        return "list the tools separated by spaces, or remove the field".to_string();
    }
    format!(
        "write `allowed-tools: {}`",
        super::yaml_syntax::plain_or_quoted(&tools.join(" "))
    )
}

/// The pieces of `text` between separators that are outside parentheses (a `Tool(a, b)`
/// pattern is one piece); empty pieces dropped.
fn top_level(text: &str, separator: impl Fn(char) -> bool) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 && separator(c) => {
                pieces.push(&text[start..at]);
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces.retain(|p| !p.trim().is_empty());
    pieces
}

#[cfg(test)]
mod tests {
    use super::{string_help, top_level};

    #[test]
    fn commas_inside_patterns_are_kept() {
        assert_eq!(
            top_level("Read, Bash(git log, git diff), Grep", |c| c == ','),
            ["Read", " Bash(git log, git diff)", " Grep"]
        );
        assert_eq!(top_level("Bash(a, b) Read", |c| c == ',').len(), 1);
        assert_eq!(
            string_help(&["Read", " Bash(git log, git diff)", " Grep"]),
            "write `allowed-tools: Read Bash(git log, git diff) Grep`"
        );
        assert_eq!(
            string_help(&["Read", "Bash(ls *)"]),
            "write `allowed-tools: Read Bash(ls *)`"
        );
    }

    #[test]
    fn no_string_for_names_with_spaces() {
        assert_eq!(
            string_help(&["Read", "Web Search"]),
            "`Web Search` contains a space, which a space-separated string cannot express; check the tool's name in the runtime you target"
        );
    }

    #[test]
    fn quotes_what_yaml_would_misread() {
        assert_eq!(
            string_help(&["Bash(git:*)", "Read"]),
            "write `allowed-tools: Bash(git:*) Read`"
        );
        assert_eq!(
            string_help(&["Bash(echo a #b)", "Read"]),
            "write `allowed-tools: 'Bash(echo a #b) Read'`"
        );
    }
}
