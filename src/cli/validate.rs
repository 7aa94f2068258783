//! `skillc validate [PATH]...` (alias `check`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::skills::{Loaded, SkillArgs};
use super::{ColorChoice, Outcome, fail};
use crate::config::{Overrides, Settings};
use crate::diagnostic::{Diagnostic, counted};
use crate::discover::NotFound;
use crate::fix;
use crate::render::{self, Format, Summary};
use crate::rewrite::{self, Failure, Mode};
use crate::rule::{self, FixEffect, SK006, Tag};
use crate::skill::{Keep, SkillReport};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    skills: SkillArgs,
    /// Output format (`--format` is the same flag).
    #[arg(
        long = "output-format",
        visible_alias = "format",
        value_name = "FORMAT",
        value_enum,
        env = "SKILLC_OUTPUT_FORMAT",
        default_value = "full"
    )]
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
    /// These rules too, beside the selection (`--extend-select security`: the security
    /// rules with the defaults).
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    extend_select: Vec<String>,
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
    /// Apply the safe fixes, then print what remains.
    #[arg(long)]
    fix: bool,
    /// Apply the unsafe fixes too (with `--fix` or `--diff`), and mark them fixable.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print a unified diff of what `--fix` would change, and change nothing (exit 1 when
    /// there is something to fix).
    #[arg(long)]
    diff: bool,
    /// With `--fix`: list what was fixed, per file.
    #[arg(long)]
    show_fixes: bool,
    /// Lint standard input (PATH `-`) as if it were the skill file at this path; with `--fix`,
    /// print the fixed text.
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,
    /// Print the skill files this run would check, one per line, and check nothing.
    #[arg(long, conflicts_with = "show_settings")]
    show_files: bool,
    /// Write a suppression comment for every current diagnostic one can cover (for adopting
    /// skillc on a repository that has problems); change nothing else.
    #[arg(long, conflicts_with_all = ["fix", "diff", "stdin_filename"])]
    add_noqa: bool,
    /// Print the settings in force and where each came from (a flag, skillc.toml, the
    /// default), and check nothing.
    #[arg(long)]
    show_settings: bool,
}

pub fn run(args: Args, color: ColorChoice) -> Outcome {
    let mode = Mode {
        unsafe_fixes: args.unsafe_fixes,
    };
    let extra = Overrides {
        strict: args.strict,
        select: args.select.clone(),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
        extra_fields: args.extra_fields.clone(),
        ..Overrides::default()
    };
    let dash = |p: &PathBuf| p.as_os_str() == "-";
    let stdin = args.skills.paths.iter().any(dash);
    match (&args.stdin_filename, stdin) {
        (Some(path), true) if args.skills.paths.iter().all(dash) => {
            run_stdin(&args, extra, path, mode, color)
        }
        (Some(_), _) => fail(
            Outcome::Usage,
            "--stdin-filename lints standard input: pass `-` as the only PATH",
        ),
        // Without --stdin-filename, `-` is a path like any other (a directory may be named so).
        (None, _) => run_paths(&args, extra, mode, color),
    }
}

/// What the run keeps of each skill: only the full format shows source lines.
fn keep(args: &Args) -> Keep {
    Keep {
        details: !args.statistics,
        lines: args.format == Format::Full && !args.statistics,
        ..Keep::default()
    }
}

/// Validates (and with `--fix`/`--diff` fixes) the skills the PATHs name.
fn run_paths(args: &Args, extra: Overrides, mode: Mode, color: ColorChoice) -> Outcome {
    let (settings, cwd) = match args.skills.settings(extra.clone()) {
        Ok(found) => found,
        Err(outcome) => return outcome,
    };
    if args.show_files {
        return super::introspect::show_files(&args.skills, &settings, &cwd);
    }
    if args.show_settings {
        return super::introspect::show_settings(&args.skills, &extra, &settings);
    }
    let load = |settings, keep| {
        args.skills
            .load_with(settings, cwd.clone(), args.quiet, keep)
    };
    let scope = Scope::new(&cwd, &args.skills.paths);
    if args.show_fixes && !args.fix && !args.quiet {
        eprintln!(
            "warning: `--show-fixes` lists what `--fix` fixed: without `--fix` it shows nothing"
        );
    }
    if args.add_noqa {
        return match load(settings, Keep::default()) {
            Ok(loaded) => add_noqa(loaded, &cwd, &scope),
            Err(outcome) => outcome,
        };
    }
    let mut fixing = None;
    let loaded = if args.fix || args.diff {
        let loaded = match load(settings, Keep::default()) {
            Ok(loaded) => loaded,
            Err(outcome) => return outcome,
        };
        let mut done = fix_all(&loaded.reports, &loaded.settings, &scope, mode, !args.diff);
        if args.diff {
            return diff(&done);
        }
        let settings = if done.files.is_empty() {
            loaded.settings
        } else {
            // The collection rules see every skill: a fix may add what they report (a name
            // that another skill has). Such a file goes back to what it was.
            let before = loaded.reports;
            let after = match load(loaded.settings, Keep::default()) {
                Ok(after) => after,
                Err(outcome) => return outcome,
            };
            undo_worse_across_skills(&mut done, &before, &after.reports);
            after.settings
        };
        if args.show_fixes {
            show_fixes(&done);
        }
        fixing = Some((done.count, done.failed));
        load(settings, keep(args))
    } else {
        load(settings, keep(args))
    };
    let Loaded {
        settings,
        mut reports,
        io_failed,
        ..
    } = match loaded {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    // The marketplaces at the PATHs' roots, in path order among the skills.
    for report in crate::lint::marketplaces(&args.skills.paths, &settings, &cwd, keep(args)) {
        let at = reports.partition_point(|r| r.dir.dir < report.dir.dir);
        reports.insert(at, report);
    }
    for report in &mut reports {
        mode.settle(&settings, &mut report.diagnostics);
    }
    let failed = io_failed || fixing.is_some_and(|(_, failed)| failed);
    let output = match &args.output_file {
        Some(path) => Sink::File(path),
        None => Sink::Stdout,
    };
    let outcome = finish(
        args,
        &settings,
        &reports,
        fixing.map(|(n, _)| n),
        failed,
        output,
        color,
    );
    // The process ends with this outcome: freeing each report, one allocation at a time, would
    // only delay it (a tenth of a second on 61,000 skills).
    std::mem::forget(reports);
    outcome
}

/// `--stdin-filename PATH -`: lints standard input as the skill file at PATH; with `--fix`,
/// prints the fixed text on stdout and the remaining diagnostics on stderr.
fn run_stdin(
    args: &Args,
    extra: Overrides,
    path: &Path,
    mode: Mode,
    color: ColorChoice,
) -> Outcome {
    let (settings, cwd) = match args.skills.settings(extra) {
        Ok(found) => found,
        Err(outcome) => return outcome,
    };
    let mut text = Vec::new();
    let limit = settings.max_file_size;
    if let Err(e) = std::io::stdin()
        .lock()
        .take(limit.saturating_add(1))
        .read_to_end(&mut text)
    {
        return fail(Outcome::Failure, format!("reading standard input: {e}"));
    }
    let dir = match crate::discover::skill_of_file(path, &cwd) {
        Ok(dir) => dir,
        Err(NotFound(missing)) => {
            return fail(
                Outcome::Usage,
                format!("path not found: {}", missing.display()),
            );
        }
    };
    let fixing = args.fix || args.diff;
    if fixing && text.len() as u64 > limit {
        // Not all of it was read: nothing can be given back in its place.
        return fail(
            Outcome::Failure,
            format!(
                "standard input is over the limit of {limit} bytes ({}): nothing fixed",
                crate::rule::SK011.code
            ),
        );
    }
    let (reports, count) = if fixing {
        // Another skill's key is not known here; the name fixes stay as the rule made them.
        match rewrite::fix_text(&dir, text.clone(), &settings, &cwd, mode, &HashSet::new()) {
            Ok(fixed) => {
                let mut out = std::io::stdout().lock();
                let written = if args.diff {
                    out.write_all(unified(path, path, &text, &fixed.text).as_bytes())
                } else {
                    out.write_all(&fixed.text)
                };
                if let Err(e) = written.and_then(|()| out.flush()) {
                    return fail(Outcome::Failure, format!("writing to stdout: {e}"));
                }
                if args.diff {
                    let count = fixed.count();
                    eprintln!("Would fix {}.", counted(count, "problem"));
                    return if count > 0 {
                        Outcome::Problems
                    } else {
                        Outcome::Success
                    };
                }
                // The diagnostics of the fixed text, with what the format shows of it.
                let count = fixed.count();
                let report = crate::lint::lint_buffer(dir, fixed.text, &settings, &cwd, keep(args));
                (vec![report], Some(count))
            }
            Err(failure) => {
                // The text goes back unchanged: an editor's buffer is never emptied.
                let mut out = std::io::stdout().lock();
                if !args.diff {
                    let _ = out.write_all(&text).and_then(|()| out.flush());
                }
                return fail(Outcome::Failure, failure.to_string());
            }
        }
    } else {
        let report = crate::lint::lint_buffer(dir, text, &settings, &cwd, keep(args));
        (vec![report], None)
    };
    let mut reports = reports;
    for report in &mut reports {
        // Standard input cannot be renamed.
        for d in &mut report.diagnostics {
            if d.fix.as_deref().is_some_and(|f| f.rename.is_some()) {
                d.fix = None;
            }
        }
        mode.settle(&settings, &mut report.diagnostics);
    }
    // With `--fix`, stdout holds the fixed text: the diagnostics go to stderr.
    let output = if fixing { Sink::Stderr } else { Sink::Stdout };
    finish(args, &settings, &reports, count, false, output, color)
}

/// Where the diagnostics go.
enum Sink<'a> {
    Stdout,
    Stderr,
    File(&'a Path),
}

/// Prints the diagnostics, the fix count and the summary; the exit code.
fn finish(
    args: &Args,
    settings: &Settings,
    reports: &[SkillReport],
    fixed: Option<usize>,
    failed: bool,
    output: Sink,
    color: ColorChoice,
) -> Outcome {
    let terminal = match output {
        Sink::Stdout => std::io::IsTerminal::is_terminal(&std::io::stdout()),
        Sink::Stderr => std::io::IsTerminal::is_terminal(&std::io::stderr()),
        Sink::File(_) => false,
    };
    let color = color.enabled(terminal);
    // The output is written as it is rendered, never held whole.
    let write = |sink: &mut dyn Write| -> std::io::Result<()> {
        let mut sink = std::io::BufWriter::with_capacity(1 << 16, sink);
        if args.statistics && args.format == Format::Json {
            render::statistics::write_json(reports, &mut sink)?;
        } else if args.statistics {
            sink.write_all(render::statistics::render(reports).as_bytes())?;
        } else {
            match args.format {
                Format::Full => render::full::write(reports, color, &mut sink)?,
                Format::Concise => render::concise::write(reports, color, &mut sink)?,
                Format::Json => render::json::write(reports, &mut sink)?,
                Format::Sarif => sink.write_all(render::sarif::render(reports).as_bytes())?,
                Format::Github => render::github::write(reports, &mut sink)?,
            }
        }
        sink.flush()
    };
    let written = match output {
        Sink::File(path) => std::fs::File::create(path)
            .and_then(|mut file| write(&mut file))
            .map_err(|e| format!("writing `{}`: {e}", path.display())),
        Sink::Stdout => write(&mut std::io::stdout().lock())
            .map_err(|e| (e.kind(), format!("writing to stdout: {e}")))
            // A reader that stopped early (`| head`) is not a failure.
            .or_else(|(kind, e)| {
                if kind == std::io::ErrorKind::BrokenPipe {
                    Ok(())
                } else {
                    Err(e)
                }
            }),
        Sink::Stderr => {
            write(&mut std::io::stderr().lock()).map_err(|e| format!("writing to stderr: {e}"))
        }
    };
    if let Err(e) = written {
        return fail(Outcome::Failure, e);
    }
    let summary = Summary::of(reports);
    let machine = matches!(args.format, Format::Json | Format::Sarif);
    let mut line = summary.line();
    if args.format == Format::Github && !args.statistics {
        // GitHub shows only the first annotations of each kind: say what it leaves out.
        if let Some(hidden) = render::github::beyond_limit(reports) {
            line = format!(
                "{} (GitHub annotates {} of each kind per step: {hidden} in the log only).",
                line.trim_end_matches('.'),
                render::github::ANNOTATIONS_PER_STEP
            );
        }
        if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
            append_step_summary(reports, &line, Path::new(&path));
        }
    }
    if let Some(count) = fixed {
        let remaining: usize = reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .map(|d| d.count)
            .sum();
        let remaining = crate::diagnostic::thousands(remaining);
        if count == 0 && remaining == "0" {
            eprintln!("Nothing to fix.");
        } else if count == 0 {
            eprintln!("Nothing fixed ({remaining} remaining).");
        } else {
            eprintln!(
                "Fixed {} ({remaining} remaining).",
                counted(count, "problem")
            );
        }
    }
    // JSON holds its own summary; the other machine formats' statistics are lines of text.
    if !args.quiet && (!machine || (args.statistics && args.format != Format::Json)) {
        // The summary stays the last line (scripts read it there); what is fixable comes first.
        let mode = Mode {
            unsafe_fixes: args.unsafe_fixes,
        };
        if let Some(hint) = fixable_hint(reports, mode, fixed.is_some()) {
            eprintln!("{hint}");
        }
        eprintln!("{line}");
    }
    if failed {
        return Outcome::Failure;
    }
    let failing = summary.errors > 0 || (settings.strict && summary.warnings > 0);
    if failing && !args.exit_zero {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}

/// Where `--fix`, `--diff` and `--add-noqa` may write: below the current directory, below a
/// directory PATH, or in the directory of a skill-file PATH. A file PATH outside any skill
/// makes the run report the skill above it (how pre-commit's file lists work), however far up
/// it is; a fix does not write there, but says which file it leaves.
struct Scope {
    cwd: PathBuf,
    roots: Vec<PathBuf>,
}

impl Scope {
    fn new(cwd: &Path, paths: &[PathBuf]) -> Scope {
        let mut roots = vec![crate::discover::absolute(cwd, Path::new("."))];
        for path in paths {
            let abs = crate::discover::absolute(cwd, path);
            if path.is_dir() {
                roots.push(abs);
            } else if path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| crate::discover::SKILL_FILE_NAMES.contains(&n))
                && let Some(parent) = abs.parent()
            {
                roots.push(parent.to_path_buf());
            }
        }
        Scope {
            cwd: cwd.to_path_buf(),
            roots,
        }
    }

    /// Whether a fix may write the skill file `file` (as displayed); when not, says so.
    fn allows(&self, file: &Path, dir: &Path) -> bool {
        let abs = crate::discover::absolute(&self.cwd, file);
        if self.roots.iter().any(|root| abs.starts_with(root)) {
            return true;
        }
        eprintln!(
            "warning: {}",
            render::escaped(&format!(
                "not fixing `{}`: it lies above the current directory and the PATHs given, which a fix never writes above (pass `{}` to fix it)",
                file.display(),
                dir.display()
            ))
        );
        false
    }
}

/// `--add-noqa`: a suppression comment for every diagnostic of each skill file that one can
/// cover, each checked by linting the text with it among the run's other skills.
fn add_noqa(loaded: Loaded, cwd: &Path, scope: &Scope) -> Outcome {
    let Loaded {
        settings,
        reports,
        io_failed,
        ..
    } = loaded;
    let dirs: Vec<crate::discover::SkillDir> = reports
        .iter()
        .filter(|r| {
            r.dir
                .file
                .as_deref()
                .is_some_and(|file| !r.diagnostics.is_empty() && scope.allows(file, &r.dir.dir))
        })
        .map(|r| r.dir.clone())
        .collect();
    let others = std::cell::RefCell::new(reports);
    let (mut comments, mut files, mut left, mut failed) = (0, 0, 0, io_failed);
    for dir in dirs {
        let original = match rewrite::read_skill_file(&dir, &settings) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("error: {}", render::escaped(&failure_text(&e)));
                failed = true;
                continue;
            }
        };
        let Ok(text) = String::from_utf8(original.clone()) else {
            continue;
        };
        let lint = |text: &str| {
            Some(crate::lint::lint_buffer_among(
                dir.clone(),
                text.as_bytes().to_vec(),
                &settings,
                cwd,
                Keep::default(),
                &mut others.borrow_mut(),
            ))
        };
        let path = dir.file.as_deref().unwrap_or(Path::new(""));
        let added = rewrite::noqa::add_all(path, &text, &lint);
        left += added.left;
        if added.comments == 0 {
            continue;
        }
        match rewrite::write_text(&dir, &original, added.text.as_bytes(), &settings) {
            Ok(()) => {
                comments += added.comments;
                files += 1;
            }
            Err(e) => {
                eprintln!("error: {}", render::escaped(&failure_text(&e)));
                failed = true;
            }
        }
    }
    eprintln!(
        "Added {comments} suppression {} in {files} {}.{}",
        if comments == 1 { "comment" } else { "comments" },
        if files == 1 { "file" } else { "files" },
        if left == 0 {
            String::new()
        } else {
            format!(
                " {left} {} no comment can cover (about a whole skill or another file, or where a comment would change the skill): `skillc validate` lists {}.",
                if left == 1 {
                    "diagnostic"
                } else {
                    "diagnostics"
                },
                if left == 1 { "it" } else { "them" }
            )
        }
    );
    if failed {
        Outcome::Failure
    } else {
        Outcome::Success
    }
}

fn failure_text(failure: &Failure) -> String {
    match failure {
        Failure::Refused(e) => e.clone(),
        Failure::Worse { rules, new } => {
            format!(
                "internal error: {} would add {}",
                rules.join(", "),
                new.join(", ")
            )
        }
    }
}

/// Appends the run's Markdown summary to the step summary file GitHub Actions names; a
/// failure to write it is a warning (the check itself ran).
fn append_step_summary(reports: &[SkillReport], line: &str, path: &Path) {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let (server, repository, sha) = (
        var("GITHUB_SERVER_URL"),
        var("GITHUB_REPOSITORY"),
        var("GITHUB_SHA"),
    );
    // Paths are shown relative to the current directory; links need them from the root.
    let prefix = var("GITHUB_WORKSPACE")
        .and_then(|root| {
            let cwd = std::env::current_dir().ok()?;
            let relative = cwd.strip_prefix(root).ok()?.to_path_buf();
            Some(render::slash_path(&relative).into_owned())
        })
        .filter(|p| !p.is_empty())
        .map(|p| format!("{p}/"))
        .unwrap_or_default();
    let commit = match (&server, &repository, &sha) {
        (Some(server), Some(repository), Some(sha)) => Some(render::github::Commit {
            server,
            repository,
            sha,
            prefix,
        }),
        _ => None,
    };
    let markdown = render::github::step_summary(reports, line, commit.as_ref());
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut file| file.write_all(markdown.as_bytes()));
    if let Err(e) = appended {
        eprintln!(
            "warning: writing the step summary `{}`: {e}",
            render::escaped(&path.display().to_string())
        );
    }
}

/// `[*] N fixable with --fix` under the summary, when there is anything to fix. After a run
/// that fixed (`fixing`), what `--fix` could fix and still shows was not written (a read-only
/// file, said already): only the fixes it does not apply are offered.
pub(super) fn fixable_hint(reports: &[SkillReport], mode: Mode, fixing: bool) -> Option<String> {
    let (on, hidden) = reports
        .iter()
        .map(|r| fix::counts(&r.diagnostics))
        .fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    let on = if fixing { 0 } else { on };
    let more = match hidden {
        0 => String::new(),
        1 => " (1 more with `--fix --unsafe-fixes`)".to_string(),
        n => format!(" ({n} more with `--fix --unsafe-fixes`)"),
    };
    match (on, hidden) {
        (0, 0) => None,
        (0, n) => Some(format!(
            "No fixes available with `--fix` ({n} with `--fix --unsafe-fixes`)."
        )),
        (n, _) if mode.unsafe_fixes => {
            Some(format!("[*] {n} fixable with `--fix --unsafe-fixes`."))
        }
        (n, _) => Some(format!("[*] {n} fixable with `--fix`{more}.")),
    }
}

/// What fixing the skills of a run did.
struct Done {
    /// Per skill file fixed (or that would be).
    files: Vec<FileFix>,
    count: usize,
    /// A file could not be fixed (said on stderr).
    failed: bool,
}

/// One skill file fixed: its skill's directory, its path, its text before, and what fixing did.
struct FileFix {
    dir: PathBuf,
    path: PathBuf,
    original: Vec<u8>,
    fixed: rewrite::Fixed,
}

/// Fixes every skill of `reports` that has a fix `mode` applies (writing them when `write`).
fn fix_all(
    reports: &[SkillReport],
    settings: &Settings,
    scope: &Scope,
    mode: Mode,
    write: bool,
) -> Done {
    let cwd = scope.cwd.as_path();
    let mut done = Done {
        files: Vec::new(),
        count: 0,
        failed: false,
    };
    // A name fix may not give a skill another skill's key, nor a name two skills would get;
    // a name a fix frees (the skill's old key) may then be another skill's fix.
    let mut keys: HashMap<String, usize> = HashMap::new();
    for key in reports.iter().filter_map(|r| r.key.clone()) {
        *keys.entry(key).or_default() += 1;
    }
    let shared = crate::rules::collection::taken_names(reports);
    let taken_now = |keys: &HashMap<String, usize>| -> HashSet<String> {
        shared
            .iter()
            .filter(|name| keys.get(name.as_ref()).is_none_or(|n| *n > 0))
            .map(|name| name.to_string())
            .chain(keys.iter().filter(|(_, n)| **n > 0).map(|(k, _)| k.clone()))
            .collect()
    };
    let renaming = |d: &Diagnostic| fix::sets_key(d);
    // The skills whose name a fix may yet set, once another fix frees the name.
    let mut waiting: Vec<usize> = Vec::new();
    let mut queue: Vec<usize> = Vec::new();
    for (i, report) in reports.iter().enumerate() {
        let fixable = report.diagnostics.iter().any(|d| {
            Some(&d.path) == report.dir.file.as_ref()
                && d.fix
                    .as_deref()
                    .is_some_and(|f| mode.applies(settings, d.rule.code, f))
        });
        let renames = mode.unsafe_fixes && report.diagnostics.iter().any(renaming);
        if (fixable || renames) && !scope.allows(report.path(), &report.dir.dir) {
            continue;
        }
        if fixable {
            queue.push(i);
        }
        if renames {
            waiting.push(i);
        }
    }
    while !queue.is_empty() {
        let mut progress = false;
        for i in std::mem::take(&mut queue) {
            let report = &reports[i];
            let taken = taken_now(&keys);
            match rewrite::fix_file(&report.dir, settings, cwd, mode, write, &taken) {
                Ok((before, fixed)) => {
                    for note in &fixed.notes {
                        eprintln!("warning: {}", render::escaped(note));
                    }
                    if fixed.count() > 0 && (fixed.text != before || fixed.rename.is_some()) {
                        if fixed.applied.keys().any(|code| {
                            rule::find(code).is_some_and(|r| r.fix_effect(FixEffect::SetsKey))
                        }) {
                            if let Some(old) = &report.key {
                                keys.entry(old.clone())
                                    .and_modify(|n| *n = n.saturating_sub(1));
                            }
                            if let Some(new) = &fixed.report.key {
                                *keys.entry(new.clone()).or_default() += 1;
                            }
                            waiting.retain(|&w| w != i);
                            progress = true;
                        }
                        // A renamed file is not found at its old path again.
                        if fixed.renamed_from.is_some() {
                            waiting.retain(|&w| w != i);
                        }
                        done.count += fixed.count();
                        // A file fixed in a later pass is one entry, with its first text.
                        match done.files.iter_mut().find(|f| f.path == report.path()) {
                            Some(file) => {
                                merge(&mut file.fixed, fixed);
                            }
                            None => done.files.push(FileFix {
                                dir: report.dir.dir.to_path_buf(),
                                path: report.path().to_path_buf(),
                                original: before,
                                fixed,
                            }),
                        }
                    }
                }
                Err(failure) => {
                    eprintln!(
                        "error: {}: {}",
                        render::escaped(&report.path().display().to_string()),
                        render::escaped(&failure.to_string())
                    );
                    // Not fixing what was asked is a failure (exit 3) either way.
                    done.failed = true;
                }
            }
        }
        // A skill whose name fix waited for a name another fix has freed is tried again.
        if progress {
            queue = waiting.clone();
        }
    }
    done
}

/// `later`, a second pass's fixing of a file, added to `first`.
fn merge(first: &mut rewrite::Fixed, later: rewrite::Fixed) {
    for (code, n) in later.applied {
        *first.applied.entry(code).or_default() += n;
    }
    first.text = later.text;
    first.report = later.report;
    first.written = later.written.or(first.written.take());
    first.rename = later.rename.or(first.rename.take());
    first.renamed_from = later.renamed_from.or(first.renamed_from.take());
}

/// Puts back the skill files whose fixes made the collection rules ([`Tag::Collection`]) report more of
/// their skill than before, saying so; they leave the fix count. A skill whose frontmatter did
/// not parse before had nothing for those rules to judge (what they report now is unmasked).
fn undo_worse_across_skills(done: &mut Done, before: &[SkillReport], after: &[SkillReport]) {
    // The collection rules' diagnostics of the skill in `dir`, per rule, and SK006's.
    let collection = |reports: &[SkillReport], dir: &Path| -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for d in reports
            .iter()
            .filter(|r| *r.dir.dir == *dir)
            .flat_map(|r| &r.diagnostics)
        {
            if d.rule.has(Tag::Collection) || *d.rule == SK006 {
                *counts.entry(d.rule.code).or_default() += d.count;
            }
        }
        counts
    };
    let mut kept = Vec::new();
    for file in std::mem::take(&mut done.files) {
        let was = collection(before, &file.dir);
        let now = collection(after, &file.dir);
        let new: Vec<&'static str> = now
            .iter()
            .filter(|(code, n)| **n > was.get(*code).copied().unwrap_or(0))
            .map(|(code, _)| *code)
            .collect();
        if new.is_empty() || was.contains_key(SK006.code) {
            kept.push(file);
            continue;
        }
        let failure = Failure::Worse {
            rules: file.fixed.applied.keys().copied().collect(),
            new,
        };
        let undone = rewrite::revert(&file.fixed, &file.original);
        eprintln!(
            "error: {}: {}{}",
            render::escaped(&file.path.display().to_string()),
            render::escaped(&failure.to_string()),
            match undone {
                Ok(()) => String::new(),
                Err(e) => format!(" (putting it back failed: {e})"),
            }
        );
        done.count -= file.fixed.count();
        done.failed = true;
    }
    done.files = kept;
}

/// `--diff`: the unified diff of every file fixing would change; exit 1 when there is one.
fn diff(done: &Done) -> Outcome {
    let mut out = std::io::stdout().lock();
    for FileFix {
        path,
        original,
        fixed,
        ..
    } in &done.files
    {
        let renamed = fixed.rename.as_ref().map(|name| path.with_file_name(name));
        let diff = unified(
            path,
            renamed.as_deref().unwrap_or(path),
            original,
            &fixed.text,
        );
        let _ = out.write_all(diff.as_bytes());
    }
    let _ = out.flush();
    eprintln!("Would fix {}.", counted(done.count, "problem"));
    if done.failed {
        Outcome::Failure
    } else if done.count > 0 {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}

/// The unified diff of the file `from` (renamed to `to`, or not) from `before` to `after`; a
/// rename alone is its two header lines. An absolute path loses its leading `/` after the
/// `a/` and `b/` prefixes, as in `git diff` (`a/work/x`, not `a//work/x`).
pub(super) fn unified(from: &Path, to: &Path, before: &[u8], after: &[u8]) -> String {
    let (from, to) = (render::slash_path(from), render::slash_path(to));
    let (from, to) = (from.trim_start_matches('/'), to.trim_start_matches('/'));
    let (before, after) = (
        String::from_utf8_lossy(before),
        String::from_utf8_lossy(after),
    );
    let diff = similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{from}"), &format!("b/{to}"))
        .to_string();
    if diff.is_empty() && from != to {
        format!("--- a/{from}\n+++ b/{to}\n")
    } else {
        diff
    }
}

/// `--show-fixes`: what was fixed, per file, on stderr.
fn show_fixes(done: &Done) {
    if done.files.is_empty() {
        return;
    }
    eprintln!("Fixed {}:", counted(done.count, "problem"));
    for FileFix { path, fixed, .. } in &done.files {
        eprintln!("- {}:", render::escaped(&render::slash_path(path)));
        for (code, n) in &fixed.applied {
            let name = crate::rule::find(code).map_or("", |r| r.name);
            eprintln!("    {n} × {code} ({name})");
        }
    }
}
