//! What frontmatter fields mean and which values those with a grammar take: the text the
//! language server shows on hover and offers in completion. The open specification's and
//! PAR's fields are described by their dialect's schema; the fields runtimes add (runtimes.md)
//! are described here.

use super::{Dialect, schema};

/// A field a runtime defines beyond the open specification.
struct RuntimeField {
    name: &'static str,
    meaning: &'static str,
}

/// The fields of `targets::RUNTIMES`' `fields` lists, as their runtimes document them.
static RUNTIME_FIELDS: &[RuntimeField] = &[
    RuntimeField {
        name: "when_to_use",
        meaning: "When the model should use the skill. Claude Code lists it after the description; \
                  the two share the listing's cap.",
    },
    RuntimeField {
        name: "argument-hint",
        meaning: "The arguments the skill expects, shown when it is invoked by name \
                  (`[issue-number]`).",
    },
    RuntimeField {
        name: "arguments",
        meaning: "The skill's named arguments, substituted into the body when it is invoked \
                  with arguments.",
    },
    RuntimeField {
        name: "disable-model-invocation",
        meaning: "`true`: only the user invokes the skill (`/name`); the model never loads it on \
                  its own, and it leaves the listing.",
    },
    RuntimeField {
        name: "user-invocable",
        meaning: "`false`: the skill is hidden from the `/` menu; only the model loads it.",
    },
    RuntimeField {
        name: "model",
        meaning: "The model used while the skill is active: an alias (`sonnet`, `opus`, \
                  `haiku`), a full model name, or `inherit`.",
    },
    RuntimeField {
        name: "effort",
        meaning: "The effort level while the skill is active, overriding the session's \
                  (which levels exist depends on the model).",
    },
    RuntimeField {
        name: "context",
        meaning: "`fork`: the skill runs in a forked subagent, with a context of its own.",
    },
    RuntimeField {
        name: "agent",
        meaning: "The subagent that runs the skill with `context: fork` (`Explore`, `Plan`, \
                  `general-purpose`, or one of the project's agents).",
    },
    RuntimeField {
        name: "hooks",
        meaning: "Hooks that run during the skill's lifecycle, written as in Claude Code's \
                  settings.",
    },
    RuntimeField {
        name: "paths",
        meaning: "Glob patterns: the model loads the skill on its own only when working with \
                  files they match.",
    },
    RuntimeField {
        name: "shell",
        meaning: "The shell that runs the body's `!` command lines: `bash` (the default) or \
                  `powershell`.",
    },
];

/// The values of fields with a grammar, as completion offers them (`$1` and `$0` are snippet
/// tab stops). PAR's grammars are formats.md's; Claude Code's are the values its
/// documentation lists.
static VALUES: &[(Dialect, &str, &[&str])] = &[
    (
        Dialect::Par,
        "trigger",
        &["Auto", "Manual", "Keyword [$1]$0"],
    ),
    (
        Dialect::Par,
        "tool_filter",
        &["All", "Only [$1]$0", "Except [$1]$0"],
    ),
    (Dialect::Par, "schema_version", &["1"]),
    (
        Dialect::AgentSkills,
        "model",
        &["inherit", "sonnet", "opus", "haiku"],
    ),
    (
        Dialect::AgentSkills,
        "effort",
        &["low", "medium", "high", "xhigh", "max"],
    ),
    (Dialect::AgentSkills, "context", &["fork"]),
    (Dialect::AgentSkills, "shell", &["bash", "powershell"]),
    (
        Dialect::AgentSkills,
        "disable-model-invocation",
        &["true", "false"],
    ),
    (Dialect::AgentSkills, "user-invocable", &["true", "false"]),
];

/// What the top-level field `field` of a `dialect` skill means, when skillc knows it.
pub fn meaning(dialect: Dialect, field: &str) -> Option<&'static str> {
    schema::meaning(dialect, field).or_else(|| match dialect {
        Dialect::AgentSkills => RUNTIME_FIELDS
            .iter()
            .find(|f| f.name == field)
            .map(|f| f.meaning),
        Dialect::Par => None,
    })
}

/// The values `field` takes, as snippets (empty: any text).
pub fn values(dialect: Dialect, field: &str) -> &'static [&'static str] {
    VALUES
        .iter()
        .find(|(d, f, _)| *d == dialect && *f == field)
        .map_or(&[], |(_, _, values)| values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::RUNTIMES;

    #[test]
    fn every_field_a_runtime_defines_is_described() {
        for runtime in RUNTIMES {
            for field in runtime.fields.iter().filter(|f| !f.contains('.')) {
                assert!(
                    meaning(Dialect::AgentSkills, field).is_some(),
                    "{}: {field}",
                    runtime.name
                );
            }
        }
        for dialect in [Dialect::AgentSkills, Dialect::Par] {
            for field in schema::fields(dialect) {
                assert!(meaning(dialect, field).is_some_and(|m| !m.is_empty()));
            }
        }
        assert_eq!(meaning(Dialect::Par, "model"), None);
    }

    #[test]
    fn values_of_fields_with_a_grammar() {
        assert_eq!(
            values(Dialect::AgentSkills, "shell"),
            ["bash", "powershell"]
        );
        assert_eq!(values(Dialect::Par, "shell"), [] as [&str; 0]);
        // Each PAR value parses (its snippet stops removed and an item filled in).
        let filled = |field| {
            values(Dialect::Par, field)
                .iter()
                .map(|v| v.replace("$1", "a").replace("$0", ""))
        };
        for value in filled("trigger") {
            assert!(super::super::par::parse_trigger(&value).is_ok(), "{value}");
        }
        for value in filled("tool_filter") {
            assert!(
                super::super::par::parse_tool_filter(&value).is_ok(),
                "{value}"
            );
        }
    }
}
