//! `skillc validate [PATH]...` (alias `check`).

use std::path::PathBuf;

use super::{ColorChoice, Outcome, current_dir, fail};
use crate::config::{DialectSetting, Encoding, Overrides, Settings, Source};
use crate::discover::{self, NotFound};
use crate::lint;
use crate::render::{self, Format, Summary};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Skill directories, skill files, files inside skills, or directories to search.
    paths: Vec<PathBuf>,
    /// The dialect of every skill (default: detected per skill).
    #[arg(long, value_enum)]
    dialect: Option<DialectSetting>,
    /// Output format.
    #[arg(long, value_enum, env = "SKILLC_FORMAT", default_value = "full")]
    format: Format,
    /// Write diagnostics to this file instead of stdout.
    #[arg(short = 'o', long, value_name = "PATH")]
    output_file: Option<PathBuf>,
    /// Warnings fail the run too.
    #[arg(long)]
    strict: bool,
    /// Only these rules: codes, code prefixes or names, comma-separated.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    select: Vec<String>,
    /// Not these rules (added to the config's `ignore`).
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Allow this frontmatter key beyond the dialect's own (repeatable; `@claude-code` for
    /// Claude Code's fields).
    #[arg(long = "extra-field", value_name = "NAME")]
    extra_fields: Vec<String>,
    /// L1 token budget.
    #[arg(long, value_name = "N")]
    budget: Option<u64>,
    /// Tokenizer encoding.
    #[arg(long, value_enum)]
    encoding: Option<Encoding>,
    /// Use this config file instead of looking for skillc.toml.
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Use no config file.
    #[arg(long)]
    no_config: bool,
    /// Do not honour .gitignore and .ignore files.
    #[arg(long)]
    no_ignore: bool,
    /// Print a count per rule instead of the diagnostics.
    #[arg(long)]
    statistics: bool,
    /// Exit 0 even when problems are found.
    #[arg(long)]
    exit_zero: bool,
    /// No summary line.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args, color: ColorChoice) -> Outcome {
    let cwd = match current_dir() {
        Ok(cwd) => cwd,
        Err(outcome) => return outcome,
    };
    let source = match (&args.config, args.no_config) {
        (_, true) => Source::None,
        (Some(path), false) => Source::File(path.clone()),
        (None, false) => Source::Discover,
    };
    let overrides = Overrides {
        dialect: args.dialect,
        strict: args.strict,
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        extra_fields: args.extra_fields.clone(),
        budget: args.budget,
        encoding: args.encoding,
    };
    let settings = match Settings::load(&source, &cwd, &overrides) {
        Ok(settings) => settings,
        Err(e) => return fail(Outcome::Usage, e),
    };
    let options = discover::Options {
        no_ignore: args.no_ignore,
    };
    let discovery = match discover::discover(&args.paths, &settings, &cwd, options) {
        Ok(discovery) => discovery,
        Err(NotFound(path)) => {
            return fail(
                Outcome::Usage,
                format!("path not found: {}", path.display()),
            );
        }
    };
    for warning in &discovery.warnings {
        eprintln!("warning: {warning}");
    }
    if discovery.empty_default && !args.quiet {
        eprintln!(
            "warning: no skill found under the current directory (looked for SKILL.md and skill.md)"
        );
    }
    let reports = lint::lint_all(discovery.skills, &settings, &cwd);
    let mut io_failed = false;
    for report in &reports {
        if let Some(error) = &report.io_error {
            eprintln!("error: {error}");
            io_failed = true;
        }
    }

    let to_file = args.output_file.is_some();
    let color = color.enabled(!to_file && std::io::IsTerminal::is_terminal(&std::io::stdout()));
    let text = if args.statistics {
        render::statistics::render(&reports)
    } else {
        match args.format {
            Format::Full => render::full::render(&reports, color),
            Format::Concise => render::concise::render(&reports),
            Format::Json => render::json::render(&reports),
            Format::Sarif => render::sarif::render(&reports),
            Format::Github => render::github::render(&reports),
        }
    };
    match &args.output_file {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                return fail(
                    Outcome::Failure,
                    format!("writing `{}`: {e}", path.display()),
                );
            }
        }
        None => {
            if let Some(outcome) = super::emit(&text) {
                return outcome;
            }
        }
    }
    let summary = Summary::of(&reports);
    let machine = matches!(args.format, Format::Json | Format::Sarif);
    if !args.quiet && (!machine || args.statistics) {
        eprintln!("{}", summary.line());
    }
    if io_failed {
        return Outcome::Failure;
    }
    let failing = summary.errors > 0 || (settings.strict && summary.warnings > 0);
    if failing && !args.exit_zero {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}
