//! Rules as data: each rule's code, name, default severity, dialects and documentation, in
//! one registry (`RULES`). Everything that names a rule — the rules, the diagnostics, the
//! config, suppressions and renderers — looks it up here; this module depends on nothing.

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The lower-case name used in every output format and the config.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }

    /// Parses a severity as written in the config.
    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            _ => None,
        }
    }
}

/// Which dialects a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialects {
    Both,
    Par,
    AgentSkills,
}

impl Dialects {
    /// As printed in `skillc rule`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialects::Both => "par, agentskills",
            Dialects::Par => "par",
            Dialects::AgentSkills => "agentskills",
        }
    }
}

/// A lint rule's identity and documentation.
#[derive(Debug)]
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub dialects: Dialects,
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// Markdown: What it checks / Why it matters / Example / Fix.
    pub doc: &'static str,
    /// Whether a suppression comment may hide it. A file that cannot be parsed is never
    /// silent (as in ruff): the rules that say so are marked `unsuppressible` below.
    pub suppressible: bool,
}

macro_rules! registry {
    (@suppressible) => { true };
    (@suppressible unsuppressible) => { false };
    ($($code:ident $name:literal $severity:ident $dialects:ident $($marker:ident)? $summary:literal;)*) => {
        $(
            #[doc = $summary]
            pub static $code: Rule = Rule {
                code: stringify!($code),
                name: $name,
                severity: Severity::$severity,
                dialects: Dialects::$dialects,
                summary: $summary,
                doc: include_str!(concat!("rules/docs/", stringify!($code), ".md")),
                suppressible: registry!(@suppressible $($marker)?),
            };
        )*
        /// Every rule, in code order.
        pub static RULES: &[&Rule] = &[$(&$code),*];
    };
}

registry! {
    SK001 "missing-skill-file" Error Both "A directory given as a skill has no `SKILL.md` or `skill.md`.";
    SK002 "invalid-utf8" Error Both unsuppressible "The skill file is not valid UTF-8.";
    SK003 "missing-frontmatter" Error Both unsuppressible "The skill file does not begin with a `---` line.";
    SK004 "byte-order-mark" Warning Both "The skill file begins with a UTF-8 byte-order mark.";
    SK005 "unclosed-frontmatter" Error Both unsuppressible "The frontmatter has no closing `---` line.";
    SK006 "yaml-syntax" Error Both unsuppressible "The frontmatter is not valid YAML.";
    SK007 "frontmatter-not-mapping" Error Both unsuppressible "The frontmatter is a YAML list or scalar, not a mapping.";
    SK008 "duplicate-key" Error Both "A key appears twice in one mapping.";
    SK009 "yaml-non-portable" Warning Both "The frontmatter uses YAML features that strict or simple loaders reject.";
    SK010 "yaml-1-1-ambiguity" Warning Both "A plain scalar that YAML 1.1 loaders read as a boolean, null or a different number.";
    SK011 "file-too-large" Error Both "The skill file exceeds `max-file-size`.";
    SK012 "skill-file-name" Warning Both "The skill file name is not the one the dialect's runtime loads.";
    SK013 "unknown-field" Error Both "A frontmatter key that neither the dialect, nor the skill's targets, nor `extra-fields` defines.";
    SK014 "field-type" Error Both "A known field has the wrong YAML type.";
    SK015 "missing-field" Error Both "A required field is absent or null.";
    SK016 "nested-skill-file" Info Both "A skill file below another skill's directory: runtimes do not load it as a skill.";
    SK017 "skill-file-case" Warning Both "A file named like a skill file in another case (`SKILL.MD`, `Skill.md`).";
    SK018 "unknown-suppression" Warning Both "A suppression comment names no rule.";
    SK019 "unused-suppression" Warning Both "A suppression comment suppresses nothing.";
    SK101 "invalid-name" Error AgentSkills "The `name` breaks the character, length or hyphen rules.";
    SK102 "non-ascii-name" Warning AgentSkills "A valid `name` that is not ASCII.";
    SK103 "name-directory-mismatch" Error AgentSkills "The `name` differs from the directory name (both NFKC-normalised).";
    SK104 "reserved-name" Warning AgentSkills "The `name` contains `anthropic` or `claude`.";
    SK105 "invalid-id" Error Par "The `id` breaks `^[a-z0-9]+(-[a-z0-9]+)*$` or the 1–64 character limit.";
    SK106 "id-directory-mismatch" Error Par "The `id` differs from the skill's directory name.";
    SK107 "empty-name" Error Par "The display `name` is empty or whitespace.";
    SK110 "empty-description" Error Both "The description is empty or whitespace.";
    SK111 "description-too-long" Error Both "The description is longer than 1024 characters.";
    SK112 "description-markup" Warning Both "The description contains `<` or `>`.";
    SK113 "description-no-trigger" Info Both "The description says what the skill does but not when to use it.";
    SK114 "description-bytes" Warning Par "The description is longer than 1024 UTF-8 bytes.";
    SK115 "description-placeholder" Warning Both "The description is unfinished placeholder text.";
    SK201 "unsupported-schema-version" Error Par "`schema_version` is an integer other than 1.";
    SK202 "invalid-tool-filter" Error Par "`tool_filter` does not match the grammar.";
    SK203 "invalid-trigger" Error Par "`trigger` does not match the grammar.";
    SK204 "invalid-expected-output" Error Par "`expected_output` is not a mapping, a JSON object string or null.";
    SK205 "empty-tool-list" Warning Par "`tool_filter` has an empty list.";
    SK206 "duplicate-list-entry" Warning Par "A tool or keyword is repeated in a list.";
    SK207 "unknown-tool" Warning Par "`tool_filter` names a tool that is not in the configured `tools`.";
    SK301 "compatibility-length" Error AgentSkills "`compatibility` is empty or longer than 500 characters.";
    SK302 "metadata-not-mapping" Error AgentSkills "`metadata` is not a mapping.";
    SK303 "metadata-value-type" Warning AgentSkills "A `metadata` value is not a string.";
    SK304 "allowed-tools-format" Warning AgentSkills "`allowed-tools` is a list or uses commas instead of one space-separated string.";
    SK305 "runtime-specific-field" Info AgentSkills "A field that one of the skill's targets reads and another ignores.";
    SK306 "description-listing-cut" Warning AgentSkills "Claude Code: description plus `when_to_use` is longer than the listing shows.";
    SK401 "body-too-long" Warning Both "The body has more than 500 lines.";
    SK402 "body-too-many-tokens" Warning Both "The body has more than 5000 tokens.";
    SK403 "empty-body" Warning Both "The body has no non-blank line.";
    SK404 "broken-link" Error Both "A relative link or image in the body names a file that does not exist.";
    SK405 "link-escapes-skill" Warning Both "A link resolves to an existing file outside the skill directory, or is absolute.";
    SK406 "reference-chain" Warning Both "A file the body links links on to a file of the skill the body does not link.";
    SK407 "windows-path" Warning Both "A link uses `\\` as a path separator.";
    SK408 "symlink-escape" Error Both "A symlink inside the skill points outside it, or dangles.";
    SK409 "script-not-runnable" Warning Both "A file directly in `scripts/` that is neither a known script nor data, not executable and without `#!`.";
    SK410 "skill-too-large" Warning Both "The skill directory holds more than 8 MiB or more than 1000 files.";
    SK411 "sensitive-file" Warning Both "The skill holds a file that looks like a secret or version-control data.";
    SK412 "unreferenced-file" Info Both "A file under `references/`, `resources/` or `scripts/` that nothing the model reads mentions.";
    SK501 "duplicate-skill" Error Both "Two skills of the same tier and namespace share a key.";
    SK502 "shadowed-skill" Info Both "A skill shadows a skill of a lower tier (or a PAR builtin) with the same key.";
    SK503 "budget-exceeded" Error Both "One install root's L1 tokens exceed its target's token budget; names the skills that would be dropped.";
    SK504 "listing-budget" Warning Both "One install root's catalog exceeds its target's character budget (Claude Code, Codex).";
    SK601 "invalid-tool-schema" Error Both "A bundled tool file is not a JSON array of valid tool definitions.";
    SK602 "duplicate-tool-name" Error Both "Two tools share a name, in one skill or across the skills of a run.";
    SK603 "tool-named-like-skill" Warning Both "A bundled tool has the same name as its skill.";
    SK604 "too-many-tools" Warning Both "A skill bundles more than 8 tools.";
    SK605 "undocumented-tool" Warning Both "A bundled tool's name never appears in the body.";
}

/// Where a rule's documentation (`skillc rule CODE`) is read online.
pub fn doc_url(code: &str) -> String {
    format!(
        "{}/blob/main/src/rules/docs/{code}.md",
        env!("CARGO_PKG_HOMEPAGE")
    )
}

/// Finds a rule by code (`SK101`, case-insensitive) or name (`invalid-name`).
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .copied()
        .find(|rule| rule.code.eq_ignore_ascii_case(code_or_name) || rule.name == code_or_name)
}

/// The rules a selector names: a code, a code prefix (`SK1`, `SK`), or a name. `None` when the
/// selector names nothing.
pub fn select(selector: &str) -> Option<Vec<&'static Rule>> {
    let selector = selector.trim();
    if let Some(rule) = find(selector) {
        return Some(vec![rule]);
    }
    let upper = selector.to_ascii_uppercase();
    let is_prefix = upper.starts_with("SK") && upper[2..].bytes().all(|b| b.is_ascii_digit());
    if !is_prefix || upper.len() > 5 {
        return None;
    }
    let rules: Vec<_> = RULES
        .iter()
        .copied()
        .filter(|rule| rule.code.starts_with(&upper))
        .collect();
    (!rules.is_empty()).then_some(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sorted_unique_and_documented() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} before {}",
                pair[0].code,
                pair[1].code
            );
        }
        for rule in RULES {
            for section in [
                "## What it checks",
                "## Why it matters",
                "## Example",
                "## Fix",
            ] {
                assert!(rule.doc.contains(section), "{} lacks {section}", rule.code);
            }
        }
    }

    #[test]
    fn selectors() {
        assert_eq!(select("SK111").unwrap()[0].name, "description-too-long");
        assert_eq!(select("invalid-id").unwrap()[0].code, "SK105");
        assert!(
            select("SK1")
                .unwrap()
                .iter()
                .all(|r| r.code.starts_with("SK1"))
        );
        assert_eq!(select("SK").unwrap().len(), RULES.len());
        assert!(select("SK9").is_none());
        assert!(select("bogus").is_none());
    }
}
