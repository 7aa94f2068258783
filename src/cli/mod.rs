//! The command line: argument definitions and dispatch. One file per command.

mod completions;
mod identity;
mod introspect;
mod keygen;
mod list;
mod new;
mod pack;
mod prompt;
pub mod reference;
mod rule;
mod schema;
mod server;
mod show;
mod sign;
mod skills;
mod tokens;
mod unpack;
mod validate;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// How a command ended, mapped to the exit codes of cli.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// 0: success.
    Success = 0,
    /// 1: the command ran and found problems.
    Problems = 1,
    /// 2: usage or configuration error, path not found, refusing to overwrite.
    Usage = 2,
    /// 3: an I/O or internal failure stopped the command.
    Failure = 3,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> ExitCode {
        ExitCode::from(outcome as u8)
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (or is not) a terminal.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            // FORCE_COLOR or CLICOLOR_FORCE (set, not `0`) colour any stream; NO_COLOR (set,
            // not empty) none; else a terminal is coloured.
            ColorChoice::Auto => {
                let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
                let forced = ["FORCE_COLOR", "CLICOLOR_FORCE"]
                    .iter()
                    .any(|name| set(name).is_some_and(|v| v != "0"));
                forced || (is_terminal && set("NO_COLOR").is_none())
            }
        }
    }
}

/// `--output-format` of the commands that print text or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum OutputFormat {
    Text,
    Json,
}

/// What every command's exit status means (`--help` of skillc and of `validate`).
const EXIT_CODES: &str = "Exit codes:
  0  no errors (and, with --strict, no warnings)
  1  errors found (or warnings with --strict)
  2  usage or configuration error, or no PATH found
  3  a file could not be read (the other skills are still checked)";

#[derive(Debug, Parser)]
#[command(
    name = "skillc",
    version = env!("SKILLC_VERSION"),
    about = "Lint, measure, scaffold, package and sign agent skills",
    after_help = EXIT_CODES,
    propagate_version = true
)]
struct Cli {
    /// When to use colour: auto (a terminal without NO_COLOR; FORCE_COLOR or CLICOLOR_FORCE
    /// colour any output), always, never.
    #[arg(long, value_enum, default_value_t, global = true)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lint skills: frontmatter, fields, grammars, collections.
    #[command(visible_alias = "check", after_help = EXIT_CODES)]
    Validate(validate::Args),
    /// Print one rule's documentation, or a table of all rules.
    Rule(rule::Args),
    /// Print the JSON Schema of a dialect's frontmatter.
    Schema(schema::Args),
    /// Token report: L1/L2/L3 per skill, totals, the budget and the drop list.
    Tokens(tokens::Args),
    /// One line per discovered skill: key, dialect, tier, trigger, L1 tokens, path, shadowing.
    List(list::Args),
    /// Everything about one skill: fields, trigger and tool filter explained, files, costs.
    Show(show::Args),
    /// The L1 catalog exactly as an agent sees it.
    Prompt(prompt::Args),
    /// Create a new skill from a template.
    New(new::NewArgs),
    /// Add a skill file to an existing directory, named after it.
    Init(new::InitArgs),
    /// Pack a skill into a reproducible archive (tar.gz or zip), optionally signed.
    Pack(pack::Args),
    /// Generate an ECDSA P-256 key pair for signing.
    Keygen(keygen::Args),
    /// Sign a file, writing a Sigstore bundle.
    Sign(sign::Args),
    /// Verify who signed a file, an archive, a digest or a skill directory (keyless or key),
    /// and, for an archive, its manifest and the skill inside.
    Verify(verify::Args),
    /// Unpack an archive safely (verifying it first with --key).
    Unpack(unpack::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::Args),
    /// The Language Server Protocol over stdio, for editors.
    Server(server::Args),
}

/// Parses the process arguments and runs the command.
pub fn main() -> ExitCode {
    // `skillc validate --version` prints `skillc 0.1.0`, as `skillc --version` does (clap
    // would name the subcommand `skillc-validate`).
    let command = <Cli as clap::CommandFactory>::command()
        .mut_subcommands(|sub| sub.display_name(env!("CARGO_PKG_NAME")));
    // `SKILLC_FORMAT`, the older name of `SKILLC_OUTPUT_FORMAT`, counts when the newer is unset.
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let command = if !set("SKILLC_OUTPUT_FORMAT") && set("SKILLC_FORMAT") {
        command.mut_subcommands(|sub| {
            sub.mut_args(|arg| {
                if arg.get_env().is_some_and(|e| e == "SKILLC_OUTPUT_FORMAT") {
                    arg.env("SKILLC_FORMAT")
                } else {
                    arg
                }
            })
        })
    } else {
        command
    };
    let parsed = command
        .try_get_matches()
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                Outcome::Usage
            } else {
                Outcome::Success
            }
            .into();
        }
    };
    let outcome = match cli.command {
        Command::Validate(args) => validate::run(args, cli.color),
        Command::Rule(args) => rule::run(&args),
        Command::Schema(args) => schema::run(&args),
        Command::Completions(args) => completions::run(&args),
        Command::Tokens(args) => tokens::run(&args),
        Command::List(args) => list::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Prompt(args) => prompt::run(&args),
        Command::New(args) => new::run_new(args),
        Command::Pack(args) => pack::run(&args, cli.color),
        Command::Keygen(args) => keygen::run(&args),
        Command::Sign(args) => sign::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Unpack(args) => unpack::run(&args),
        Command::Init(args) => new::run_init(args),
        Command::Server(args) => server::run(&args),
    };
    outcome.into()
}

/// Writes command output to stdout. A closed pipe (`skillc list | head`) ends the output
/// quietly; any other write failure is an I/O failure (exit 3) with a message.
pub(crate) fn emit(text: &str) -> Option<Outcome> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => None,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => None,
        Err(e) => Some(fail(Outcome::Failure, format!("writing to stdout: {e}"))),
    }
}

/// Prints a fatal error to stderr and returns its outcome.
pub(crate) fn fail(outcome: Outcome, message: impl std::fmt::Display) -> Outcome {
    eprintln!("error: {message}");
    outcome
}

/// The current directory, or the failure to read it.
pub(crate) fn current_dir() -> Result<PathBuf, Outcome> {
    std::env::current_dir().map_err(|e| {
        fail(
            Outcome::Failure,
            format!("cannot read the current directory: {e}"),
        )
    })
}
