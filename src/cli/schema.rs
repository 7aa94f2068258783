//! `skillc schema [--dialect par|agentskills]`.

use super::Outcome;
use crate::dialect::Dialect;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which dialect's frontmatter schema to print.
    #[arg(long, value_enum, default_value = "agentskills")]
    dialect: Dialect,
}

pub fn run(args: &Args) -> Outcome {
    super::emit(args.dialect.schema_text()).unwrap_or(Outcome::Success)
}
