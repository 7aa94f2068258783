//! The rule groups that produce diagnostics. Each rule's identity and documentation is in the
//! registry, [`crate::rule`], re-exported here so a group names its rules as `super::SK101`.

pub mod agentskills_fields;
pub mod body;
pub mod collection;
pub mod files;
pub mod identity;
pub mod par_fields;
pub mod references;
pub mod runtime_fields;
pub mod structure;
pub mod tools;
pub mod yaml_syntax;

pub use crate::rule::*;
