//! `skillc server`.

use super::Outcome;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Speak over stdin and stdout (the only transport; accepted because language clients
    /// such as vscode-languageclient pass it).
    #[arg(long)]
    stdio: bool,
}

pub fn run(_args: &Args) -> Outcome {
    // The protocol's exit codes: 0 after `shutdown` and `exit` (or when the client goes
    // away), 1 for an `exit` without `shutdown`.
    match crate::server::run() {
        crate::server::Ended::Clean => Outcome::Success,
        crate::server::Ended::WithoutShutdown => Outcome::Problems,
    }
}
