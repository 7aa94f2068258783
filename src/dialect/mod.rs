//! The two skill dialects: detection, their frontmatter schemas, and PAR's field grammars.

pub mod fields;
pub mod par;
pub mod schema;

use crate::yaml::Node;

/// Keys only PAR defines: a skill with one of them is a PAR skill that may have forgotten
/// `schema_version` (formats.md, dialect detection).
pub const PAR_ONLY_FIELDS: [&str; 5] = [
    "id",
    "system_prompt_override",
    "tool_filter",
    "trigger",
    "expected_output",
];

/// A skill format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
pub enum Dialect {
    /// PAR skills, `schema_version: 1`, in `.par/skills/<id>/skill.md`.
    Par,
    /// The open Agent Skills format (`SKILL.md`).
    #[value(name = "agentskills")]
    AgentSkills,
}

impl Dialect {
    /// The dialect's name in output and configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Par => "par",
            Dialect::AgentSkills => "agentskills",
        }
    }

    pub fn parse(text: &str) -> Option<Dialect> {
        match text {
            "par" => Some(Dialect::Par),
            "agentskills" => Some(Dialect::AgentSkills),
            _ => None,
        }
    }

    /// Detects a skill's dialect: `schema_version`, a place in `.par/skills/`, or more than
    /// one key only PAR defines means PAR. One such key alone (`trigger: explicit` in an Agent
    /// Skills file) is a stray field of the open format: calling the skill PAR would advise a
    /// rename to `skill.md` and an `id` that break it in every other runtime.
    pub fn detect(root: Option<&Node>, in_par_folder: bool) -> Dialect {
        let has = |key: &str| root.and_then(|r| r.get(key)).is_some();
        let par_only = PAR_ONLY_FIELDS.iter().filter(|k| has(k)).count();
        if in_par_folder || has("schema_version") || par_only > 1 {
            Dialect::Par
        } else {
            Dialect::AgentSkills
        }
    }

    /// The skill file name the dialect's runtime loads.
    pub fn file_name(self) -> &'static str {
        match self {
            Dialect::Par => "skill.md",
            Dialect::AgentSkills => "SKILL.md",
        }
    }

    /// The frontmatter field that holds the skill's key.
    pub fn key_field(self) -> &'static str {
        match self {
            Dialect::Par => "id",
            Dialect::AgentSkills => "name",
        }
    }

    /// The JSON Schema of the dialect's frontmatter (the file in `schema/`).
    pub fn schema_text(self) -> &'static str {
        match self {
            Dialect::Par => include_str!("../../schema/par-skill.v1.schema.json"),
            Dialect::AgentSkills => include_str!("../../schema/agentskills.schema.json"),
        }
    }
}
