//! What the catalog commands (`tokens`, `list`, `show`, `prompt`) share: the PATH and config
//! flags, and loading the skills of a run once.

use std::path::{Path, PathBuf};

use super::{Outcome, current_dir, fail};
use crate::config::{DialectSetting, Encoding, Overrides, Settings, Source};
use crate::diagnostic::thousands;
use crate::discover::{self, NotFound};
use crate::lint;
use crate::skill::{Keep, SkillReport};
use crate::targets::Targets;

#[derive(Debug, Clone, clap::Args)]
pub struct SkillArgs {
    /// Skill directories, skill files, files inside skills, or directories to search
    /// (default `.`).
    pub paths: Vec<PathBuf>,
    /// The dialect of every skill (default: detected per skill).
    #[arg(long, value_enum)]
    pub dialect: Option<DialectSetting>,
    /// The runtimes that load these skills, comma-separated (spec, claude-code, codex, copilot,
    /// gemini, cursor, opencode, par, or all; default: `targets` in skillc.toml, else detected
    /// per skill from its location).
    #[arg(long = "target", value_name = "NAME[,NAME...]", value_parser = parse_targets)]
    pub target: Option<Targets>,
    /// L1 token budget for every target (default: each target's own; `budget` in skillc.toml).
    #[arg(long, value_name = "N")]
    pub budget: Option<u64>,
    /// Tokenizer encoding (default o200k_base, or `encoding` in skillc.toml).
    #[arg(long, value_enum)]
    pub encoding: Option<Encoding>,
    /// Use this config file instead of looking for skillc.toml.
    #[arg(long, value_name = "PATH", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Use no config file.
    #[arg(long)]
    pub no_config: bool,
    /// Do not honour .gitignore and .ignore files.
    #[arg(long)]
    pub no_ignore: bool,
    /// Follow symbolic links to directories outside the searched PATH.
    #[arg(long)]
    pub follow_links: bool,
}

fn parse_targets(text: &str) -> Result<Targets, String> {
    Targets::parse(text)
}

/// The skills of a run, checked once, with the settings in force.
pub struct Loaded {
    pub settings: Settings,
    pub reports: Vec<SkillReport>,
    pub cwd: PathBuf,
    /// A skill could not be read (reported on stderr): exit 3 at the end.
    pub io_failed: bool,
}

/// Rules that count tokens, which commands that show no diagnostics skip.
pub fn without_token_rules() -> Overrides {
    Overrides {
        ignore: crate::rule::RULES
            .iter()
            .filter(|r| r.has(crate::rule::Tag::Tokens))
            .map(|r| r.code.to_string())
            .collect(),
        ..Overrides::default()
    }
}

/// No rule at all: for a command that prints no diagnostics and needs only the skills' facts
/// (`tokens`), which then reads each skill once and scans nothing for rules.
pub fn without_rules() -> Overrides {
    Overrides {
        ignore: vec!["SK".into()],
        ..Overrides::default()
    }
}

impl SkillArgs {
    /// Discovers and checks the skills, with the command's own `extra` settings on top of
    /// these flags and the config file, keeping of each skill what the command's output needs.
    pub fn load(&self, extra: Overrides, quiet: bool, keep: Keep) -> Result<Loaded, Outcome> {
        let (settings, cwd) = self.settings(extra)?;
        self.load_with(settings, cwd, quiet, keep)
    }

    /// The settings in force for these flags and the config file, with the command's own
    /// `extra` settings on top, and the current directory.
    pub fn settings(&self, extra: Overrides) -> Result<(Settings, PathBuf), Outcome> {
        let cwd = current_dir()?;
        let source = match (&self.config, self.no_config) {
            (_, true) => Source::None,
            (Some(path), false) => Source::File(path.clone()),
            (None, false) => Source::Discover,
        };
        let overrides = Overrides {
            dialect: self.dialect,
            budget: self.budget,
            targets: self.target,
            encoding: self.encoding,
            ..extra
        };
        let settings =
            Settings::load(&source, &cwd, &overrides).map_err(|e| fail(Outcome::Usage, e))?;
        Ok((settings, cwd))
    }

    /// [`SkillArgs::load`] with the settings given.
    pub fn load_with(
        &self,
        settings: Settings,
        cwd: PathBuf,
        quiet: bool,
        keep: Keep,
    ) -> Result<Loaded, Outcome> {
        let options = discover::Options {
            no_ignore: self.no_ignore,
            follow_links: self.follow_links,
        };
        let progress = lint::Progress::default();
        let done = std::sync::atomic::AtomicBool::new(false);
        let run = || {
            let found =
                lint::discover_and_lint(&self.paths, &settings, &cwd, options, keep, &progress);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            found
        };
        // A run that takes more than a second shows how far it is, on a terminal only.
        let show = !quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
        let found = if show {
            std::thread::scope(|scope| {
                scope.spawn(|| show_progress(&progress, &done));
                run()
            })
        } else {
            run()
        };
        let (discovery, reports) = found.map_err(|NotFound(path)| {
            fail(
                Outcome::Usage,
                format!("path not found: {}", path.display()),
            )
        })?;
        for warning in &discovery.warnings {
            eprintln!("warning: {}", crate::render::escaped(warning));
        }
        if discovery.empty_default && !quiet {
            eprintln!(
                "warning: no skill found under the current directory (looked for SKILL.md and skill.md){}",
                ignored_hint(&self.paths, &settings, &cwd, options)
            );
        }
        let mut io_failed = false;
        for report in &reports {
            if let Some(error) = report.io_error() {
                eprintln!("error: {}", crate::render::escaped(error));
                io_failed = true;
            }
        }
        Ok(Loaded {
            settings,
            reports,
            cwd,
            io_failed,
        })
    }
}

/// Draws `Checking skills: N of M…` on stderr, from one second into the run until `done`, and
/// erases it.
fn show_progress(progress: &lint::Progress, done: &std::sync::atomic::AtomicBool) {
    use std::io::Write;
    use std::sync::atomic::Ordering::Relaxed;
    let start = std::time::Instant::now();
    // `SKILLC_PROGRESS_AFTER` (milliseconds; tests set it to 0).
    let after = std::env::var("SKILLC_PROGRESS_AFTER")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(
            std::time::Duration::from_secs(1),
            std::time::Duration::from_millis,
        );
    let draw = || {
        let (checked, found) = (progress.checked.load(Relaxed), progress.found.load(Relaxed));
        eprint!(
            "\r\x1b[2KChecking skills: {} of {} found…",
            thousands(checked),
            thousands(found)
        );
        let _ = std::io::stderr().flush();
    };
    // Shown from the start when asked to be (however fast the run).
    let mut drawn = after.is_zero();
    if drawn {
        draw();
    }
    while !done.load(Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(if drawn {
            100
        } else {
            20
        }));
        if start.elapsed() < after || done.load(Relaxed) {
            continue;
        }
        draw();
        drawn = true;
    }
    if drawn {
        eprint!("\r\x1b[2K");
        let _ = std::io::stderr().flush();
    }
}

/// When a search found no skill but ignore files hid some: how many, the first, and the flag
/// that checks them (empty otherwise).
fn ignored_hint(
    paths: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    options: discover::Options,
) -> String {
    if options.no_ignore {
        return String::new();
    }
    let all = discover::Options {
        no_ignore: true,
        ..options
    };
    let Ok(found) = discover::discover(paths, settings, cwd, all) else {
        return String::new();
    };
    let hidden: Vec<&discover::SkillDir> =
        found.skills.iter().filter(|s| s.file.is_some()).collect();
    match hidden.first() {
        None => String::new(),
        Some(first) => format!(
            "; .gitignore or .ignore hides {} (`{}`{}): `--no-ignore` checks {}",
            if hidden.len() == 1 {
                "1 skill".to_string()
            } else {
                format!("{} skills", hidden.len())
            },
            crate::render::escaped(&first.dir.display().to_string()),
            if hidden.len() > 1 { ", …" } else { "" },
            if hidden.len() == 1 { "it" } else { "them" },
        ),
    }
}

/// Column-aligned text: a header row, then the rows; columns in `right` are right-aligned
/// (numbers), the rest left-aligned. Trailing spaces are trimmed.
/// Cells come from skills (keys, paths), so control characters are shown as control pictures.
pub fn table<const N: usize>(headers: [&str; N], rows: &[[String; N]], right: &[usize]) -> String {
    let rows: Vec<[String; N]> = rows
        .iter()
        .map(|row| {
            row.clone()
                .map(|cell| crate::render::printable(&cell).into_owned())
        })
        .collect();
    let rows = &rows[..];
    let widths: Vec<usize> = (0..N)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([headers[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let header: [String; N] = headers.map(String::from);
    for cells in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (c, cell) in cells.iter().enumerate() {
            let pad = " ".repeat(widths[c] - cell.chars().count());
            if right.contains(&c) {
                line += &format!("{pad}{cell}  ");
            } else {
                line += &format!("{cell}{pad}  ");
            }
        }
        out += line.trim_end();
        out.push('\n');
    }
    out
}
