//! skillc: lint, measure, scaffold, package and sign agent skills.
//!
//! Modules are listed in the order data flows through them, and each imports only from those
//! above it: the foundation (bounded reading, the rule registry, the diagnostic model), the
//! parsers, the settings and runtime facts, discovery, the skill model (with the reach of its
//! references), the rules, the pipeline that runs them ([`lint`]), and what reads its reports
//! (renderers, packaging, the CLI).

// Foundation.
pub mod diagnostic;
pub mod encode;
pub mod fix;
pub mod input;
pub mod json;
pub mod parallel;
pub mod rule;
pub mod suggest;
pub mod time;
// Parse: a skill file's text, frontmatter and body.
pub mod dialect;
pub mod markdown;
pub mod source;
pub mod yaml;
// Settings and what each runtime does.
pub mod config;
pub mod plugins;
pub mod targets;
// Discover: skill directories and the files in them.
pub mod discover;
pub mod files;
// The skill model, its suppressions, token costs and the reach of its references.
pub mod catalog;
pub mod reach;
pub mod security;
pub mod skill;
pub mod suppress;
pub mod tokens;
// The rules, and the pipeline: discover → read → parse → dialect → rules → diagnostics.
pub mod lint;
pub mod rules;
// What reads the reports.
pub mod cli;
pub mod fuzz;
pub mod package;
pub mod render;
pub mod rewrite;
pub mod scaffold;
pub mod server;
pub mod sign;
