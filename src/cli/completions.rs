//! `skillc completions SHELL`.

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    shell: Shell,
}

pub fn run(args: &Args) -> Outcome {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "skillc", &mut script);
    super::emit(&String::from_utf8_lossy(&script)).unwrap_or(Outcome::Success)
}
