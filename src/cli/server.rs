//! `skillc server`.

use super::{Outcome, fail};

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args) -> Outcome {
    match crate::server::run() {
        Ok(()) => Outcome::Success,
        Err(e) => fail(Outcome::Failure, e),
    }
}
