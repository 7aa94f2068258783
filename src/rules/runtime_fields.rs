//! Rules about what the skill's targets read (runtimes.md): which fields are a target's own
//! (SK013's allowance and help), which one target reads and another ignores (SK305), and Claude
//! Code's listing cap (SK306).

use crate::dialect::{Dialect, schema};
use crate::skill::{Reporter, Skill};
use crate::targets::{self, Targets};
use crate::yaml::Value;

crate::rule::declare! {
    SK305 "runtime-specific-field" Info AgentSkills
        needs(fields)
        "A field that one of the skill's targets reads and another ignores.";
    SK306 "description-listing-cut" Warning AgentSkills
        needs(fields)
        "Claude Code: description plus `when_to_use` is longer than the listing shows.";
}

/// Whether `field` is allowed for this skill beyond its dialect's own fields: one of its
/// targets reads it, or `extra-fields` names it.
pub fn allowed(skill: &Skill, field: &str) -> bool {
    skill.settings.extra_fields.contains(field)
        || (skill.dialect == Dialect::AgentSkills
            && !skill
                .targets
                .filter(|r| r.fields.contains(&field))
                .is_empty())
        || (undetected(skill) && !targets::defining(field).is_empty())
}

/// Whether no runtime was detected for the skill: its only target is `spec` by default (no
/// runtime folder, no plugin, no configured targets), or by the cross-client `.agents/skills/`
/// folder that every runtime reads. A field some runtime reads is then SK305, not SK013: the
/// skill may well be for that runtime.
pub(crate) fn undetected(skill: &Skill) -> bool {
    skill.dialect == Dialect::AgentSkills
        && skill.settings.targets.is_none()
        && skill.targets == Targets::spec()
}

/// When every target of an Agent Skills skill loads it whatever other keys its frontmatter
/// holds (none of them is `spec`, whose validator rejects them, or PAR), their titles and the
/// verb (`Claude Code ignores`, `Claude Code and Codex ignore`): an unknown field is then a
/// warning, not an error (runtimes.md, "What each target accepts").
pub(crate) fn all_ignore_unknown(skill: &Skill) -> Option<String> {
    if skill.dialect != Dialect::AgentSkills
        || skill.targets.is_empty()
        || !skill.targets.filter(|r| r.rejects_unknown).is_empty()
    {
        return None;
    }
    let titles: Vec<&str> = skill.targets.iter().map(|r| r.title).collect();
    let verb = if titles.len() == 1 {
        "ignores"
    } else {
        "ignore"
    };
    Some(format!("{} {verb}", and_list(&titles)))
}

/// SK013's help for a field a runtime that is not among the skill's targets defines: which
/// runtime reads it and how to target it. `None` for a field no runtime defines.
pub fn unknown_field_help(field: &str) -> Option<String> {
    let defining = targets::defining(field);
    let first = defining.iter().next()?;
    let titles: Vec<&str> = defining.iter().map(|r| r.title).collect();
    let folders: Vec<String> = defining
        .iter()
        .filter_map(|r| r.folders.first())
        .map(|f| format!("`{f}/`"))
        .collect();
    let plugin = if defining.contains("claude-code") {
        ", or in a Claude Code plugin,"
    } else {
        ""
    };
    Some(format!(
        "`{field}` is read by {} ({}): skills under {}{plugin} target it; elsewhere set `targets = [\"{}\"]` in skillc.toml or pass `--target {}`",
        and_list(&titles),
        targets::names(defining),
        or_list(&folders),
        first.name,
        first.name,
    ))
}

fn and_list(items: &[&str]) -> String {
    join_last(items, "and")
}

fn or_list(items: &[String]) -> String {
    let items: Vec<&str> = items.iter().map(String::as_str).collect();
    join_last(&items, "or")
}

/// `a`, `a and b`, `a, b and c` (with `word` for "and").
fn join_last(items: &[&str], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// Whether `name` may be absent: every target loads a skill without one under its
/// directory's name.
pub fn name_optional(skill: &Skill) -> bool {
    skill.dialect == Dialect::AgentSkills && skill.targets.iter().all(|r| r.name_optional)
}

pub fn check(skill: &Skill, out: &mut Reporter) {
    if skill.dialect != Dialect::AgentSkills {
        return;
    }
    runtime_specific(skill, out);
    listing_cut(skill, out);
}

/// SK305: a field that one target reads and another ignores. PAR reads its own dialect, so it
/// is left out of the comparison.
fn runtime_specific(skill: &Skill, out: &mut Reporter) {
    if undetected(skill) {
        return read_elsewhere(skill, out);
    }
    let targets = skill.targets.filter(|r| r.name != "par");
    if targets.iter().count() < 2 {
        return;
    }
    let Some(Value::Map(entries)) = skill.root.map(|r| &r.value) else {
        return;
    };
    for (key, _) in entries {
        let Some(name) = key.as_str() else { continue };
        let readers = targets.filter(|r| r.reads(name));
        let ignorers = targets.difference(readers);
        if readers.is_empty() || ignorers.is_empty() {
            continue;
        }
        out.emit(
            &SK305,
            Some(key.span),
            format!(
                "`{name}` is read by {} but ignored by {}",
                targets::names(readers),
                targets::names(ignorers)
            ),
        )
        .label("not read everywhere")
        .help(format!(
            "where `{name}` is ignored the skill behaves as if it were absent: say in the body what it enforces, or narrow `targets`"
        ));
    }
}

/// SK305 when no runtime was detected: a field the open specification does not define but a
/// runtime reads (`argument-hint` in a repository's `skills/` folder).
fn read_elsewhere(skill: &Skill, out: &mut Reporter) {
    let Some(Value::Map(entries)) = skill.root.map(|r| &r.value) else {
        return;
    };
    let own = schema::fields(skill.dialect);
    for (key, _) in entries {
        let Some(name) = key.as_str() else { continue };
        let readers = targets::defining(name);
        if readers.is_empty()
            || own.iter().any(|f| f == name)
            || skill.settings.extra_fields.contains(name)
        {
            continue;
        }
        let titles: Vec<&str> = readers.iter().map(|r| r.title).collect();
        let help = unknown_field_help(name).unwrap_or_default();
        out.emit(
            &SK305,
            Some(key.span),
            format!(
                "`{name}` is read by {} only: the Agent Skills specification does not define it, and its validator (`skills-ref validate`) rejects it",
                and_list(&titles)
            ),
        )
        .label("not in the open specification")
        .help(format!(
            "no runtime was detected for this skill, so it is checked against the open specification; {help}. Passing `--target spec` makes this an error ({})",
            crate::rule::SK013.code
        ));
    }
}

/// SK306: description plus `when_to_use` longer than a target's listing cap.
fn listing_cut(skill: &Skill, out: &mut Reporter) {
    let settings = skill.settings;
    let Some((runtime, cap)) = skill
        .targets
        .iter()
        .find_map(|r| Some((r, settings.listing_cap(r)?)))
    else {
        return;
    };
    let Some((description, node)) = skill.str_field("description") else {
        return;
    };
    let when = skill.str_field("when_to_use").map_or("", |(text, _)| text);
    let total = description.chars().count() + when.chars().count();
    if total <= cap {
        return;
    }
    let what = if when.is_empty() {
        "the description is".to_string()
    } else {
        "the description and `when_to_use` are".to_string()
    };
    out.emit(
        &SK306,
        Some(node.span),
        format!(
            "{what} {} characters long; {} shows the first {} in its skill listing",
            crate::diagnostic::thousands(total),
            runtime.title,
            crate::diagnostic::thousands(cap)
        ),
    )
    .label(format!("{} characters", crate::diagnostic::thousands(total)))
    .help("put what the skill does and when to use it first, and move detail into the body: the model never sees the rest");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_names_the_defining_runtime() {
        assert_eq!(
            unknown_field_help("effort").unwrap(),
            "`effort` is read by Claude Code (`claude-code`): skills under `.claude/skills/`, or in a Claude Code plugin, target it; elsewhere set `targets = [\"claude-code\"]` in skillc.toml or pass `--target claude-code`"
        );
        assert_eq!(
            unknown_field_help("argument-hint").unwrap(),
            "`argument-hint` is read by Claude Code and GitHub Copilot (`claude-code` and `copilot`): skills under `.claude/skills/` or `.github/skills/`, or in a Claude Code plugin, target it; elsewhere set `targets = [\"claude-code\"]` in skillc.toml or pass `--target claude-code`"
        );
        assert!(unknown_field_help("version").is_none());
    }
}
