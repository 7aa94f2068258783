//! `skillc validate [PATH]...` (alias `check`).

use std::io::Write;
use std::path::PathBuf;

use super::skills::{Loaded, SkillArgs};
use super::{ColorChoice, Outcome, fail};
use crate::config::Overrides;
use crate::render::{self, Format, Summary};
use crate::skill::Keep;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    skills: SkillArgs,
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
    let extra = Overrides {
        strict: args.strict,
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        extra_fields: args.extra_fields.clone(),
        ..Overrides::default()
    };
    // Only the full format shows source lines.
    let keep = Keep {
        details: !args.statistics,
        lines: args.format == Format::Full && !args.statistics,
        ..Keep::default()
    };
    let Loaded {
        settings,
        reports,
        io_failed,
        ..
    } = match args.skills.load(extra, args.quiet, keep) {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };

    let to_file = args.output_file.is_some();
    let color = color.enabled(!to_file && std::io::IsTerminal::is_terminal(&std::io::stdout()));
    // The output is written as it is rendered, never held whole.
    let write = |sink: &mut dyn Write| -> std::io::Result<()> {
        let mut sink = std::io::BufWriter::with_capacity(1 << 16, sink);
        if args.statistics {
            sink.write_all(render::statistics::render(&reports).as_bytes())?;
        } else {
            match args.format {
                Format::Full => render::full::write(&reports, color, &mut sink)?,
                Format::Concise => render::concise::write(&reports, &mut sink)?,
                Format::Json => render::json::write(&reports, &mut sink)?,
                Format::Sarif => sink.write_all(render::sarif::render(&reports).as_bytes())?,
                Format::Github => render::github::write(&reports, &mut sink)?,
            }
        }
        sink.flush()
    };
    match &args.output_file {
        Some(path) => {
            let written = std::fs::File::create(path).and_then(|mut file| write(&mut file));
            if let Err(e) = written {
                return fail(
                    Outcome::Failure,
                    format!("writing `{}`: {e}", path.display()),
                );
            }
        }
        None => match write(&mut std::io::stdout().lock()) {
            Ok(()) => {}
            // A reader that stopped early (`| head`) is not a failure.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => return fail(Outcome::Failure, format!("writing to stdout: {e}")),
        },
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
