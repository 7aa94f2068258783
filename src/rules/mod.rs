//! The rule groups that produce diagnostics. Each rule's identity and documentation is in the
//! registry, [`crate::rule`], re-exported here so a group names its rules as `super::SK101`.

pub mod agentskills_fields;
pub mod body;
pub mod collection;
pub mod files;
pub mod identity;
pub mod marketplace;
pub mod mentions;
pub mod par_fields;
pub mod references;
pub mod runtime_fields;
pub mod security;
pub mod structure;
pub mod tools;
pub mod yaml_syntax;

pub use crate::rule::*;

use crate::skill::{Reporter, Skill};

/// The checks of the fields phase (rules that `needs(fields)`), in the order they report: each
/// judges one skill whose frontmatter parsed to a mapping, and returns at once when the
/// skill's dialect is not its rules'. The other phases: the file and its tree, and the body
/// (`crate::lint`'s skill phase), and the collection ([`collection::check`]).
pub const FIELD_CHECKS: [fn(&Skill, &mut Reporter); 5] = [
    structure::check,
    runtime_fields::check,
    identity::check,
    par_fields::check,
    agentskills_fields::check,
];
