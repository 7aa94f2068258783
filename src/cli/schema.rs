//! `skillc schema [--dialect par|agentskills]`.

use super::Outcome;
use crate::dialect::Dialect;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which dialect's frontmatter schema to print.
    #[arg(long, value_enum, default_value = "agentskills")]
    dialect: Dialect,
    /// Output format: the schema is JSON (accepted so that every command takes the flag).
    #[arg(
        long = "output-format",
        value_enum,
        value_name = "FORMAT",
        default_value = "json"
    )]
    output_format: SchemaFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SchemaFormat {
    Json,
}

pub fn run(args: &Args) -> Outcome {
    super::emit(args.dialect.schema_text()).unwrap_or(Outcome::Success)
}
