//! Identity and description rules: SK101–SK104 (Agent Skills), SK105–SK107 (PAR) and
//! SK110–SK115.

use std::borrow::Cow;
use std::path::{Component, Path};

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

use crate::diagnostic::Span;
use crate::dialect::Dialect;
use crate::discover::SkillDir;
use crate::fix::{Applicability, Fix};
use crate::skill::{Reporter, Skill};
use crate::yaml::Value;

crate::rule::declare! {
    SK101 "invalid-name" Error AgentSkills
        needs(fields)
        fix(unsafe sets_key "set `name:` to the directory's name, when no rule objects to it (valid, ASCII, no reserved word), no other skill of the run has it as its key (a name another fix frees in the same run counts as free), and no other skill's directory has that name (the skill's key changes); a block scalar (`name: |`) is replaced with its header, its line break kept; a value YAML 1.1 reads as a number or date (`2024-01-02`) is quoted; a tab between `name:` and the value becomes a space (saphyr rejects a plain value after a tab)")
        "The `name` breaks the character, length or hyphen rules.";
    SK102 "non-ascii-name" Warning AgentSkills
        needs(fields)
        "A valid `name` that is not ASCII.";
    SK103 "name-directory-mismatch" Error AgentSkills
        needs(fields)
        fix(unsafe sets_key "set `name:` to the directory's name, when no rule objects to it (valid, ASCII, no reserved word), no other skill of the run has it as its key (a name another fix frees in the same run counts as free), and no other skill's directory has that name (the skill's key changes); a block scalar (`name: |`) is replaced with its header, its line break kept; a value YAML 1.1 reads as a number or date (`2024-01-02`) is quoted; a tab between `name:` and the value becomes a space (saphyr rejects a plain value after a tab)")
        "The `name` differs from the directory name (both NFKC-normalised).";
    SK104 "reserved-name" Warning AgentSkills
        needs(fields)
        "The `name` contains `anthropic` or `claude`.";
    SK105 "invalid-id" Error Par
        needs(fields)
        "The `id` breaks `^[a-z0-9]+(-[a-z0-9]+)*$` or the 1–64 character limit.";
    SK106 "id-directory-mismatch" Error Par
        needs(fields)
        "The `id` differs from the skill's directory name.";
    SK107 "empty-name" Error Par
        needs(fields)
        "The display `name` is empty or whitespace.";
    SK110 "empty-description" Error Both
        needs(fields)
        "The description is empty or whitespace.";
    SK111 "description-too-long" Error Both
        needs(fields)
        "The description is longer than 1024 characters.";
    SK112 "description-markup" Warning Both
        needs(fields)
        "The description contains `<` or `>`.";
    SK113 "description-no-trigger" Info Both
        needs(fields)
        "The description says what the skill does but not when to use it.";
    SK114 "description-bytes" Warning Par
        needs(fields)
        "The description is longer than 1024 UTF-8 bytes.";
    SK115 "description-placeholder" Warning Both
        needs(fields)
        "The description is unfinished placeholder text.";
}

/// Whether text is empty or only whitespace — Unicode whitespace and the separators U+001C to
/// U+001F, which Python's `str.strip()` (and so skills-ref and PyYAML-based loaders) also strips.
pub fn is_blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// The most characters (Unicode scalar values) a description may have.
pub const DESCRIPTION_MAX: usize = 1024;

/// Phrases that tell the model when to use a skill (SK113), as lower-case words: those of
/// rules.md, then the other ways real descriptions say it ("Use it when", "Triggers on",
/// "Activates when asked", "Use immediately after"). A bare "for" is not one: "Extracts text for
/// reports" says what, not when. `when` followed by a word in `-ing` ("when building") is one too.
const TRIGGER_PHRASES: &[&[&str]] = &[
    &["use", "when"],
    &["use", "this"],
    &["use", "for"],
    &["use", "after"],
    &["use", "proactively"],
    &["when", "the", "user"],
    &["when", "you"],
    &["when", "claude"],
    &["whenever"],
    &["if", "the", "user"],
    &["use", "it"],
    &["use", "immediately"],
    &["use", "before"],
    &["use", "to"],
    &["used", "when"],
    &["when", "your"],
    &["when", "asked"],
    &["if", "you"],
    &["trigger", "on"],
    &["triggers", "on"],
    &["triggers", "when"],
    &["triggered", "by"],
    &["activate", "when"],
    &["activates", "when"],
    &["invoke", "when"],
    &["invoke", "for"],
    &["trigger", "for"],
    &["triggers"],
    &["activate", "this", "skill", "when"],
    &["activate", "this", "skill", "for"],
    &["trigger", "when"],
    &["trigger", "if"],
    &["trigger", "whenever"],
    &["triggered", "when"],
    &["use", "if"],
    &["use", "whenever"],
    &["use", "on"],
    &["invoke", "if"],
    &["load", "when"],
    &["apply", "when"],
];

pub fn check(skill: &Skill, out: &mut Reporter) {
    match skill.dialect {
        Dialect::Par => {
            par_id(skill, out);
            par_name(skill, out);
        }
        Dialect::AgentSkills => agentskills_name(skill, out),
    }
    description(skill, out);
}

/// Whether a character may appear in an Agent Skills name: `-`, or a letter or number that
/// lower-casing leaves alone (a lowercase letter, or a letter or number without case).
fn name_char(c: char) -> bool {
    use GeneralCategory::*;
    c == '-'
        || (matches!(
            get_general_category(c),
            LowercaseLetter
                | ModifierLetter
                | OtherLetter
                | DecimalNumber
                | LetterNumber
                | OtherNumber
        ) && c.to_lowercase().eq(std::iter::once(c)))
}

/// The words Anthropic's skill upload rejects in a name (SK104).
const RESERVED: [&str; 2] = ["anthropic", "claude"];

/// The reserved word a name holds (SK104), if any.
pub fn reserved_word(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    RESERVED.into_iter().find(|w| lower.contains(w))
}

/// SK101–SK104.
fn agentskills_name(skill: &Skill, out: &mut Reporter) {
    let Some((raw, node)) = skill.str_field("name") else {
        return;
    };
    let name = nfkc(raw);
    if let Some(message) = name_problem(raw) {
        let suggestion = suggest_name(raw);
        let fix = name_fix(skill, node.span);
        let d = out.emit(&SK101, Some(node.span), message);
        d.label("invalid name");
        if let Some(fix) = fix {
            d.fix(fix);
        }
        if !suggestion.is_empty() {
            d.help(format!(
                "use `name: {suggestion}` (and name the directory `{suggestion}`)"
            ));
        } else {
            d.help("use 1-64 lowercase letters, digits and single hyphens, e.g. `name: pdf-tools`");
        }
    } else {
        // SK102 judges the name as written: `ｍｙ-skill` is valid after NFKC, but an uploader
        // that accepts only `a-z0-9-` sees the fullwidth letters.
        non_ascii_name(skill, raw, &name, node.span, out);
        directory_mismatch(skill, raw, &name, node.span, out);
    }
    let lower = name.to_lowercase();
    if let Some(word) = RESERVED.into_iter().find(|w| lower.contains(w)) {
        out.emit(&SK104, Some(node.span), format!("the name `{raw}` contains the reserved word `{word}`"))
            .label("reserved word")
            .help("Anthropic's skill upload rejects names containing `anthropic` or `claude`; choose another name");
    }
}

/// SK102: a valid name (`name` is its NFKC form) that is not ASCII as written.
fn non_ascii_name(skill: &Skill, raw: &str, name: &str, span: Span, out: &mut Reporter) {
    if raw.is_ascii() {
        return;
    }
    let message = if name.is_ascii() {
        format!("the name `{raw}` is not ASCII as written (its NFKC form is `{name}`)")
    } else {
        format!("the name `{raw}` is not ASCII")
    };
    let why = "some uploaders and clients accept only `a-z`, `0-9` and `-`";
    let help = match ascii_name(raw) {
        Some(ascii) if nfkc(&listed_name(skill.dir)) == ascii => {
            format!("{why}; use `name: {ascii}`")
        }
        Some(ascii) => format!("{why}; use `name: {ascii}` (and name the directory `{ascii}`)"),
        None => format!("{why}; consider an ASCII name"),
    };
    out.emit(&SK102, Some(span), message)
        .label("non-ASCII")
        .help(help);
}

/// SK103: a valid name that differs from the directory name, both NFKC-normalised (not for a
/// nested skill file, which no runtime lists).
fn directory_mismatch(skill: &Skill, raw: &str, name: &str, span: Span, out: &mut Reporter) {
    // A skill file nested in another skill (SK016) is listed by no runtime: its directory's
    // name is nobody's key.
    if skill.dir.nested_in().is_some() {
        return;
    }
    let dir = listed_name(skill.dir);
    let dir_name = nfkc(&dir);
    if dir.is_empty() || name == dir_name {
        return;
    }
    let fix = name_fix(skill, span);
    let d = out.emit(
        &SK103,
        Some(span),
        format!("the name `{raw}` does not match the directory name `{dir}`"),
    );
    d.label("differs from the directory name");
    if let Some(fix) = fix {
        d.fix(fix);
    }
    // The name is valid (SK101 did not fire); the directory name may not be: never offer it.
    if name_problem(&dir).is_none() {
        d.help(format!(
            "rename the directory to `{name}`, or set `name: {dir_name}`"
        ));
    } else {
        d.help(format!("rename the directory to `{name}`"));
    }
}

/// The fix that sets `name` (written at `span`) to the directory's name, when that is a valid
/// name (not for a nested skill file, whose directory no runtime lists). Unsafe: the skill's
/// key changes for every runtime that reads `name`.
fn name_fix(skill: &Skill, span: Span) -> Option<Fix> {
    if skill.dir.nested_in().is_some() {
        return None;
    }
    let listed = listed_name(skill.dir);
    let dir = nfkc(&listed);
    // Only a name no rule objects to: valid (SK101), ASCII (SK102), no reserved word (SK104).
    let reserved = RESERVED.iter().any(|w| dir.to_lowercase().contains(w));
    if dir.is_empty() || name_problem(&dir).is_some() || !dir.is_ascii() || reserved {
        return None;
    }
    // Only the scalar itself: an anchored or aliased name is another value's too, and a block
    // scalar's last line break keeps what follows it on its own line.
    let span = super::yaml_syntax::rewritable_scalar(&skill.file.text, span)?;
    let (span, space) = super::yaml_syntax::plain_in_place(&skill.file.text, span);
    Some(Fix::replace(
        Applicability::Unsafe,
        format!("set `name: {dir}`"),
        span,
        format!("{space}{}", super::yaml_syntax::plain_or_quoted(&dir)),
    ))
}

/// The NFKC form of `text` (ASCII is its own: most names are).
pub fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    }
}

/// The directory name a runtime lists for a skill: the last component of the path the skill
/// was found at — a symlink's own name, not its target's — or, for `.` and `..`, the real
/// directory's name.
pub fn listed_name(dir: &SkillDir) -> Cow<'_, str> {
    listed_name_of(&dir.dir).unwrap_or_else(|| Cow::Owned(dir.name()))
}

/// The last component of a path when it is a name (not `.`, `..` or a root).
fn listed_name_of(shown: &Path) -> Option<Cow<'_, str>> {
    match shown.components().next_back() {
        Some(Component::Normal(name)) => Some(name.to_string_lossy()),
        _ => None,
    }
}

/// An ASCII name for a valid non-ASCII one, when every character has an ASCII form after
/// compatibility decomposition without accents (`café` → `cafe`, `ｍｙ-skill` → `my-skill`,
/// `v²` → `v2`); `None` when one has not (`技能`, `ß`).
fn ascii_name(raw: &str) -> Option<String> {
    use GeneralCategory::*;
    let bare: String = raw
        .nfkd()
        .filter(|c| {
            !matches!(
                get_general_category(*c),
                NonspacingMark | SpacingMark | EnclosingMark
            )
        })
        .collect();
    let name = suggest_key(&bare);
    (bare.is_ascii() && !name.is_empty()).then_some(name)
}

/// A valid Agent Skills name derived from any text: like [`suggest_key`], but keeping
/// non-ASCII lowercase letters.
pub fn suggest_name(text: &str) -> String {
    let mut out = String::new();
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if c != '-' && name_char(c) {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed: String = out.trim_matches('-').chars().take(64).collect();
    trimmed.trim_end_matches('-').to_string()
}

fn par_id(skill: &Skill, out: &mut Reporter) {
    let Some((id, node)) = skill.str_field("id") else {
        return;
    };
    let problem = id_problem(id);
    if let Some(message) = problem {
        let d = out.emit(&SK105, Some(node.span), message);
        d.label("must match ^[a-z0-9]+(-[a-z0-9]+)*$, 1-64 characters");
        let suggestion = suggest_key(id);
        if !suggestion.is_empty() {
            d.help(format!(
                "use `id: {suggestion}` (and name the directory `{suggestion}`)"
            ));
        }
        return;
    }
    let dir_name = listed_name(skill.dir);
    if id != dir_name {
        out.emit(
            &SK106,
            Some(node.span),
            format!("id `{id}` does not match the directory name `{dir_name}`"),
        )
        .label("differs from the directory name")
        .help(format!(
            "rename the directory to `{id}`, or set `id: {dir_name}`"
        ));
    }
}

/// What is wrong with a PAR id (SK105), if anything.
pub fn id_problem(id: &str) -> Option<String> {
    let count = id.chars().count();
    if id.is_empty() {
        Some("the id is empty".to_string())
    } else if count > 64 {
        Some(format!(
            "the id is {count} characters long; the limit is 64"
        ))
    } else if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        Some(format!(
            "invalid id `{id}`: only lowercase letters a-z, digits and hyphens are allowed"
        ))
    } else if id.starts_with('-') || id.ends_with('-') {
        Some(format!(
            "invalid id `{id}`: it must not start or end with a hyphen"
        ))
    } else if id.contains("--") {
        Some(format!("invalid id `{id}`: hyphens must not be doubled"))
    } else {
        None
    }
}

/// What is wrong with an Agent Skills name (SK101), if anything. Checked on the NFKC form, as
/// the reference validator does.
pub fn name_problem(raw: &str) -> Option<String> {
    let name = nfkc(raw);
    let count = name.chars().count().max(raw.chars().count());
    if is_blank(&name) {
        Some("the name is empty".to_string())
    } else if name.trim() != name {
        Some(format!(
            "the name `{raw}` has leading or trailing whitespace"
        ))
    } else if count > 64 {
        Some(format!(
            "the name is {count} characters long; the limit is 64"
        ))
    } else if let Some(c) = name
        .chars()
        .find(|c| c.to_lowercase().ne(std::iter::once(*c)))
    {
        Some(format!("the name `{raw}` must be lowercase (found `{c}`)"))
    } else if let Some(c) = name.chars().find(|c| !name_char(*c)) {
        Some(format!(
            "the name `{raw}` contains `{}`; only lowercase letters, digits and `-` are allowed",
            c.escape_debug()
        ))
    } else if name.starts_with('-') || name.ends_with('-') {
        Some(format!("the name `{raw}` must not start or end with `-`"))
    } else if name.contains("--") {
        Some(format!("the name `{raw}` must not contain `--`"))
    } else {
        None
    }
}

/// A valid key derived from any text: lower-cased, other characters to `-`, hyphens collapsed
/// and trimmed, at most 64 characters.
pub fn suggest_key(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed: String = out.trim_matches('-').chars().take(64).collect();
    trimmed.trim_end_matches('-').to_string()
}

fn par_name(skill: &Skill, out: &mut Reporter) {
    if let Some((name, node)) = skill.str_field("name")
        && is_blank(name)
    {
        out.emit(&SK107, Some(node.span), "the display name is empty")
            .label("empty")
            .help("set `name:` to a short human-readable title, e.g. `name: Log triage`");
    }
}

fn description(skill: &Skill, out: &mut Reporter) {
    let Some((text, node)) = skill.str_field("description") else {
        return;
    };
    if is_blank(text) {
        out.emit(&SK110, Some(node.span), "the description is empty")
            .label("empty")
            .help("say what the skill does and when to use it: the model decides from this text alone");
        return;
    }
    let chars = text.chars().count();
    if chars > DESCRIPTION_MAX {
        out.emit(&SK111, Some(node.span), format!("description is {} characters long; the limit is {}", crate::diagnostic::thousands(chars), crate::diagnostic::thousands(DESCRIPTION_MAX)))
            .label(format!("{} characters", crate::diagnostic::thousands(chars)))
            .help("shorten the description to what the skill does and when to use it; move details into the body");
    } else if skill.dialect == Dialect::Par && text.len() > DESCRIPTION_MAX {
        out.emit(
            &SK114,
            Some(node.span),
            format!("description is {} bytes in UTF-8 ({} characters); PAR's loader rejects more than {} bytes", crate::diagnostic::thousands(text.len()), crate::diagnostic::thousands(chars), crate::diagnostic::thousands(DESCRIPTION_MAX)),
        )
        .label(format!("{} bytes", crate::diagnostic::thousands(text.len())))
        .help("shorten the description: PAR measures its length in bytes, and non-ASCII characters take 2-4 bytes each");
    }
    if let Some(at) = text.find(['<', '>']) {
        let c = &text[at..at + 1];
        out.emit(&SK112, Some(skill.sub_span(node, at..at + 1)), format!("the description contains `{c}`"))
            .label("markup character")
            .help("reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break");
    }
    if let Some(what) = placeholder(text) {
        out.emit(
            &SK115,
            Some(node.span),
            format!("the description is unfinished: it {what}"),
        )
        .label("placeholder")
        .help("write what the skill does and when to use it: the model decides from this text alone whether to load the skill");
    }
    // Claude Code lists `when_to_use` after the description: a trigger there counts.
    let when_to_use = skill
        .targets
        .iter()
        .any(|r| r.reads("when_to_use"))
        .then(|| skill.str_field("when_to_use"))
        .flatten()
        .map_or("", |(text, _)| text);
    // A skill only the user invokes (`disable-model-invocation: true`, where a target reads
    // it or no runtime was detected) is never chosen by the model from its description: it
    // needs no trigger.
    let user_only = (super::runtime_fields::undetected(skill)
        || skill
            .targets
            .iter()
            .any(|r| r.reads("disable-model-invocation")))
        && matches!(
            skill
                .entry("disable-model-invocation")
                .map(|(_, v)| &v.value),
            Some(Value::Bool(true))
        );
    // `when_to_use` says when by its very name: any text in it will do.
    if !user_only && !has_trigger(text) && is_blank(when_to_use) {
        out.emit(
            &SK113,
            Some(node.span),
            "the description says what the skill does, not when to use it",
        )
        .label("no trigger")
        .help("add when to load it, e.g. \"Use when the user asks to ...\"");
    }
}

/// Markers of text still to be written, as whole words in capitals.
const PLACEHOLDER_MARKERS: [&str; 3] = ["TODO", "TBD", "FIXME"];

/// How a description shows it is unfinished (SK115): it starts with a `TODO`-like marker (or
/// holds one followed by `:`), or ends with an ellipsis standing alone — the sentence left for
/// the author to complete (`asks for ...`). A description about TODO comments, or a list that
/// ends `XLSX...`, is not one.
fn placeholder(text: &str) -> Option<String> {
    let trimmed = text.trim();
    for marker in PLACEHOLDER_MARKERS {
        let leading = trimmed.strip_prefix(marker).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with([':', ' ', '.', '!', '(', '-'])
        });
        let labelled = trimmed.match_indices(&format!("{marker}:")).any(|(at, _)| {
            trimmed[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '-')
        });
        if leading || labelled {
            return Some(format!("holds `{marker}`"));
        }
    }
    let detached = ["...", "…"].iter().any(|ellipsis| {
        trimmed
            .strip_suffix(ellipsis)
            .is_some_and(|before| before.is_empty() || before.ends_with(char::is_whitespace))
    });
    detached
        .then(|| "ends with an ellipsis".to_string())
        .or_else(|| vague_trigger(trimmed))
}

/// Verbs that open a trigger clause, and the words that introduce its situation.
const TRIGGER_VERBS: [&str; 6] = ["use", "invoke", "trigger", "activate", "apply", "load"];
const TRIGGER_LINKS: [&str; 4] = ["when", "whenever", "if", "for"];

/// Words that name no situation: a trigger clause made only of them (`Use when this capability
/// is needed.`, `Use when appropriate.`) tells the model nothing.
const VAGUE_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "it",
    "its",
    "skill",
    "skills",
    "capability",
    "capabilities",
    "functionality",
    "feature",
    "features",
    "tool",
    "is",
    "are",
    "be",
    "being",
    "was",
    "needed",
    "need",
    "needs",
    "required",
    "requires",
    "necessary",
    "appropriate",
    "relevant",
    "applicable",
    "useful",
    "helpful",
    "suitable",
    "desired",
    "wanted",
    "you",
    "your",
    "user",
    "users",
    "one",
    "as",
    "such",
    "in",
    "any",
    "case",
    "cases",
    "situation",
    "situations",
    "scenario",
    "scenarios",
    "task",
    "tasks",
    "to",
    "do",
    "so",
    "or",
    "and",
    "when",
    "if",
    "where",
    "there",
    "something",
    "like",
    "related",
    "fits",
    "warranted",
    "applies",
    "possible",
    "want",
    "wants",
    "would",
    "could",
    "might",
    "may",
    "help",
    "benefit",
    "from",
    "with",
    "of",
    "purpose",
    "purposes",
    "work",
    "context",
];

/// A sentence of the description that opens a trigger clause naming no situation (SK115).
fn vague_trigger(text: &str) -> Option<String> {
    // Sentences end at punctuation, not at line breaks: a block scalar wraps them.
    text.split(['.', '!', '?', ';'])
        .map(str::trim)
        .find(|sentence| {
            // Most sentences open with another word: looked at before anything is copied.
            let first = sentence
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            if !TRIGGER_VERBS.iter().any(|v| first.eq_ignore_ascii_case(v)) {
                return false;
            }
            let lower = sentence.to_lowercase();
            let words: Vec<&str> = lower
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .filter(|w| !w.is_empty())
                .collect();
            let Some(first) = words.first() else {
                return false;
            };
            if !TRIGGER_VERBS.contains(first) {
                return false;
            }
            // `Use when …`, `Use this skill when …`, `Use it for …`.
            let Some(link) = words.iter().take(4).position(|w| TRIGGER_LINKS.contains(w)) else {
                return false;
            };
            let situation = &words[link + 1..];
            !situation.is_empty() && situation.iter().all(|w| VAGUE_WORDS.contains(w))
        })
        .map(|sentence| format!("has a trigger that names no situation (\"{sentence}\")"))
}

/// Whether a description holds one of [`TRIGGER_PHRASES`] as whole words, in any case and
/// however its words are spaced, punctuated or broken across lines.
fn has_trigger(text: &str) -> bool {
    let lower = text.to_lowercase();
    // A label: `TRIGGER: …`, `Triggers: …`, `Use when: …`.
    let labelled = ["trigger:", "triggers:", "trigger -", "triggers -"]
        .iter()
        .any(|label| {
            lower.match_indices(label).any(|(at, _)| {
                lower[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
            })
        });
    if labelled {
        return true;
    }
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    (0..words.len()).any(|i| {
        let rest = &words[i..];
        TRIGGER_PHRASES
            .iter()
            .any(|phrase| rest.starts_with(phrase))
            || (rest.len() > 1 && rest[0] == "when" && rest[1].ends_with("ing"))
            // A description that opens with "When …" says when.
            || (i == 0 && rest.first() == Some(&"when"))
    })
}

#[cfg(test)]
mod tests {
    use super::suggest_key;

    #[test]
    fn name_characters() {
        use super::name_char;
        for ok in ['a', 'z', '0', '-', 'é', '技', 'ß', '²'] {
            assert!(name_char(ok), "{ok}");
        }
        // Uppercase, titlecase, a combining vowel sign (Python's isalnum rejects it), `_`, space.
        for bad in ['A', 'ǅ', '\u{93f}', '_', ' ', 'Ⅻ'] {
            assert!(!name_char(bad), "{bad}");
        }
        assert_eq!(super::suggest_name("Café Tools!"), "café-tools");
    }

    #[test]
    fn triggers() {
        use super::has_trigger;
        for yes in [
            "Formats SQL. Use when the user pastes a query.",
            "Formats SQL. USE\n  WHEN asked.",
            "Use proactively after edits.",
            "Runs whenever a PDF appears.",
            "Reviews code (when Claude finishes a change).",
            "Brand colors. Use it when style guidelines apply.",
            "Scans code. Triggers on \"run codeql\".",
            "Guidance for visual design when building new UI.",
            "When user is asking which Azure role to assign.",
            "Publishes packages. TRIGGERS - publish to PyPI.",
            "Workflow files. Always invoke for .xaml edits.",
            "Exam prep. Activate this skill when a learner asks.",
            "Audits ledgers. TRIGGER when: the user mentions a reconciliation.",
            "Audits ledgers. Trigger when the books do not balance.",
            "Audits ledgers. TRIGGER: month-end close, reconciliation.",
            "Audits ledgers. Use if the books do not balance.",
            "Audits ledgers; load when reconciling accounts.",
        ] {
            assert!(has_trigger(yes), "{yes}");
        }
        for vague in [
            "Formats SQL. Use when this capability is needed.",
            "Formats SQL. Use when appropriate.",
            "Formats SQL. Use this skill when the user needs it!",
            "Formats SQL. Use for relevant tasks.",
        ] {
            assert!(super::vague_trigger(vague).is_some(), "{vague}");
        }
        for precise in [
            "Formats SQL. Use when the user pastes a query.",
            "Formats SQL. Use this whenever the user wants to\n  format a migration.",
            "Formats SQL. Use when formatting is needed in a migration.",
            "Use this skill for PDF forms.",
            "Formats SQL for the user when needed.",
        ] {
            assert_eq!(super::vague_trigger(precise), None, "{precise}");
        }
        // A bare "for" is not a trigger; a phrase inside a word is not one either.
        for no in [
            "Extracts text for reports.",
            "Formats SQL because this matters.",
            "Used for formatting.",
            "Shows when the build finished.",
        ] {
            assert!(!has_trigger(no), "{no}");
        }
    }

    #[test]
    fn ascii_names() {
        use super::ascii_name;
        assert_eq!(ascii_name("café").as_deref(), Some("cafe"));
        assert_eq!(ascii_name("ｍｙ-skill").as_deref(), Some("my-skill"));
        assert_eq!(ascii_name("v²").as_deref(), Some("v2"));
        assert_eq!(ascii_name("技能"), None);
        assert_eq!(ascii_name("straße"), None);
    }

    #[test]
    fn listed_names() {
        use std::path::Path;
        let listed = |shown: &str| super::listed_name_of(Path::new(shown)).map(|n| n.into_owned());
        // A symlink is listed under its own name; `.` and `..` under the real one.
        assert_eq!(listed(".claude/skills/pdf").as_deref(), Some("pdf"));
        assert_eq!(listed("a/.").as_deref(), Some("a"));
        assert_eq!(listed("."), None);
        assert_eq!(listed("../.."), None);
        assert_eq!(listed("/"), None);
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest_key("My Skill"), "my-skill");
        assert_eq!(suggest_key("My_Skill--v2!"), "my-skill-v2");
        assert_eq!(suggest_key("--"), "");
        assert_eq!(suggest_key(&"a".repeat(70)).len(), 64);
    }
}
