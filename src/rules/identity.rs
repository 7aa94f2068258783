//! Identity and description rules: SK101–SK104 (Agent Skills), SK105–SK107 (PAR) and
//! SK110–SK114.

use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

use super::{SK101, SK102, SK103, SK104, SK105, SK106, SK107, SK110, SK111, SK112, SK113, SK114};
use crate::dialect::Dialect;
use crate::lint::{Reporter, Skill};

/// Whether text is empty or only whitespace — Unicode whitespace and the separators U+001C to
/// U+001F, which Python's `str.strip()` (and so skills-ref and PyYAML-based loaders) also strips.
pub fn is_blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// The most characters (Unicode scalar values) a description may have.
pub const DESCRIPTION_MAX: usize = 1024;

/// Phrases that tell the model when to use a skill (SK113), lower case.
const TRIGGER_PHRASES: &[&str] = &[
    "use when",
    "use this",
    "use for",
    "use it",
    "used when",
    "used for",
    "when the user",
    "when you",
    "when asked",
    "whenever",
    "if the user",
    "if you",
    "for ",
    "trigger",
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

/// SK101–SK104.
fn agentskills_name(skill: &Skill, out: &mut Reporter) {
    let Some((raw, node)) = skill.str_field("name") else {
        return;
    };
    let name: String = raw.nfkc().collect();
    let problem = name_problem(raw);
    let suggestion = suggest_name(raw);
    if let Some(message) = problem {
        let d = out.emit(&SK101, Some(node.span), message);
        d.label("invalid name");
        if !suggestion.is_empty() {
            d.help(format!(
                "use `name: {suggestion}` (and name the directory `{suggestion}`)"
            ));
        } else {
            d.help("use 1-64 lowercase letters, digits and single hyphens, e.g. `name: pdf-tools`");
        }
    } else if !name.is_ascii() {
        out.emit(&SK102, Some(node.span), format!("the name `{raw}` is not ASCII"))
            .label("non-ASCII")
            .help(if suggestion.is_empty() || suggestion == name {
                "some uploaders and clients accept only `a-z`, `0-9` and `-`; consider an ASCII name".to_string()
            } else {
                format!("some uploaders and clients accept only `a-z`, `0-9` and `-`; consider `name: {suggestion}`")
            });
    }
    let dir_name: String = skill.dir.name().nfkc().collect();
    if !is_blank(&name) && name != dir_name {
        out.emit(
            &SK103,
            Some(node.span),
            format!(
                "the name `{raw}` does not match the directory name `{}`",
                skill.dir.name()
            ),
        )
        .label("differs from the directory name")
        .help(format!(
            "rename the directory to `{raw}`, or set `name: {dir_name}`"
        ));
    }
    let lower = name.to_lowercase();
    if let Some(word) = ["anthropic", "claude"]
        .into_iter()
        .find(|w| lower.contains(w))
    {
        out.emit(&SK104, Some(node.span), format!("the name `{raw}` contains the reserved word `{word}`"))
            .label("reserved word")
            .help("Anthropic's skill upload rejects names containing `anthropic` or `claude`; choose another name");
    }
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
    let dir_name = skill.dir.name();
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
    let name: String = raw.nfkc().collect();
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
        out.emit(&SK111, Some(node.span), format!("description is {chars} characters long; the limit is {DESCRIPTION_MAX}"))
            .label(format!("{chars} characters"))
            .help("shorten the description to what the skill does and when to use it; move details into the body");
    } else if skill.dialect == Dialect::Par && text.len() > DESCRIPTION_MAX {
        out.emit(
            &SK114,
            Some(node.span),
            format!("description is {} bytes in UTF-8 ({chars} characters); PAR's loader rejects more than {DESCRIPTION_MAX} bytes", text.len()),
        )
        .label(format!("{} bytes", text.len()))
        .help("shorten the description: PAR measures its length in bytes, and non-ASCII characters take 2-4 bytes each");
    }
    if let Some(at) = text.find(['<', '>']) {
        let c = &text[at..at + 1];
        out.emit(&SK112, Some(skill.sub_span(node, at..at + 1)), format!("the description contains `{c}`"))
            .label("markup character")
            .help("reword without `<` and `>`: Claude.ai rejects XML tags in descriptions and some prompt formats break");
    }
    let lower = text.to_lowercase();
    if !TRIGGER_PHRASES.iter().any(|p| lower.contains(p)) {
        out.emit(
            &SK113,
            Some(node.span),
            "the description says what the skill does, not when to use it",
        )
        .label("no trigger")
        .help("add when to load it, e.g. \"Use when the user asks to ...\"");
    }
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
    fn suggestions() {
        assert_eq!(suggest_key("My Skill"), "my-skill");
        assert_eq!(suggest_key("My_Skill--v2!"), "my-skill-v2");
        assert_eq!(suggest_key("--"), "");
        assert_eq!(suggest_key(&"a".repeat(70)).len(), 64);
    }
}
