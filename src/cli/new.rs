//! `skillc new NAME` and `skillc init [DIR]`: scaffold a skill from a template.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::{Outcome, fail};
use crate::dialect::Dialect;
use crate::rules::identity;
use crate::scaffold::{self, Values};

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The skill's key: its `name` (agentskills) or `id` (par), and its directory name.
    name: String,
    /// The skill format.
    #[arg(long, value_enum, default_value = "agentskills")]
    dialect: Dialect,
    /// What to start from: `minimal` (the required fields and a short body), `standard`
    /// (every field, and a body that teaches the structure of a good skill), `scripts`
    /// (standard plus scripts/, references/ and assets/), or a template of --template-dir.
    #[arg(long, value_name = "NAME", default_value = "standard")]
    template: String,
    /// The description (asked for on a terminal when omitted, unless --yes).
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
    /// The parent directory (default `.`; `.par/skills` for --dialect par).
    #[arg(long, value_name = "DIR")]
    path: Option<PathBuf>,
    /// Use templates from this directory (same layout as the built-in `templates/`).
    #[arg(long, value_name = "DIR")]
    template_dir: Option<PathBuf>,
    /// Allow writing into an existing empty directory (never overwrites a file).
    #[arg(long)]
    force: bool,
    /// Ask nothing.
    #[arg(long)]
    yes: bool,
}

#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The directory to turn into a skill (default `.`); the skill is named after it.
    dir: Option<PathBuf>,
    /// The skill format.
    #[arg(long, value_enum, default_value = "agentskills")]
    dialect: Dialect,
    /// The description (asked for on a terminal when omitted, unless --yes).
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
    /// Ask nothing.
    #[arg(long)]
    yes: bool,
}

/// The problem with a key in a dialect, and a valid suggestion.
fn check_key(dialect: Dialect, key: &str) -> Result<(), (String, String)> {
    let (problem, suggestion) = match dialect {
        Dialect::AgentSkills => (identity::name_problem(key), identity::suggest_name(key)),
        Dialect::Par => (identity::id_problem(key), identity::suggest_key(key)),
    };
    if let Some(problem) = problem {
        // The suggestion must pass too: without a reserved word (SK104).
        let suggestion = match dialect {
            Dialect::AgentSkills => without_reserved(&suggestion),
            Dialect::Par => suggestion,
        };
        return Err((problem, suggestion));
    }
    // A name Anthropic's upload rejects (SK104) would fail `validate --strict` from the start.
    match identity::reserved_word(key).filter(|_| dialect == Dialect::AgentSkills) {
        Some(word) => Err((
            format!(
                "`{key}` contains the reserved word `{word}`, which Anthropic's skill upload rejects ({})",
                crate::rule::SK104.code
            ),
            without_reserved(key),
        )),
        None => Ok(()),
    }
}

/// A valid name without the words Anthropic's upload rejects (empty when nothing is left).
fn without_reserved(name: &str) -> String {
    let rest: Vec<&str> = name
        .split('-')
        .filter(|part| identity::reserved_word(part).is_none())
        .collect();
    let suggestion = identity::suggest_name(&rest.join("-"));
    if identity::reserved_word(&suggestion).is_some()
        || identity::name_problem(&suggestion).is_some()
    {
        String::new()
    } else {
        suggestion
    }
}

/// This command line with its NAME argument replaced by `name` (quoted for a POSIX shell
/// where needed): what to run instead.
fn command_with_name(given: &str, name: &str) -> String {
    let mut replaced = false;
    let words: Vec<String> = std::env::args()
        .skip(1)
        .map(|arg| {
            if !replaced && arg == given {
                replaced = true;
                name.to_string()
            } else {
                arg
            }
        })
        .map(|arg| shell_quoted(&arg))
        .collect();
    format!("skillc {}", words.join(" "))
}

fn shell_quoted(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// The description given (checked: a skill that fails SK110, SK111 or SK114 is not written),
/// asked for, or the placeholder.
fn description(given: Option<String>, yes: bool, dialect: Dialect) -> Result<String, Outcome> {
    if let Some(text) = given {
        return match description_problem(&text, dialect) {
            Some(problem) => Err(fail(
                Outcome::Usage,
                format!("{problem}; nothing was written"),
            )),
            None => Ok(text),
        };
    }
    let stdin = std::io::stdin();
    if yes || !stdin.is_terminal() {
        return Ok(scaffold::DEFAULT_DESCRIPTION.to_string());
    }
    eprint!("Description (what it does and when to use it; Enter for a placeholder): ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|e| fail(Outcome::Failure, format!("reading the description: {e}")))?;
    let line = line.trim();
    Ok(if line.is_empty() {
        scaffold::DEFAULT_DESCRIPTION.to_string()
    } else {
        line.to_string()
    })
}

pub fn run_new(args: NewArgs) -> Outcome {
    if let Err((problem, suggestion)) = check_key(args.dialect, &args.name) {
        let hint = if suggestion.is_empty() {
            "use 1-64 lowercase letters, digits and single hyphens".to_string()
        } else {
            format!("try: {}", command_with_name(&args.name, &suggestion))
        };
        // The name is echoed as text: no control character reaches the terminal.
        return fail(
            Outcome::Usage,
            format!(
                "invalid skill name: {}\n  help: {}",
                crate::render::escaped(&problem),
                crate::render::escaped(&hint)
            ),
        );
    }
    // A template that cannot exist is refused before anything is asked or written (one of
    // --template-dir is looked for there when rendered).
    if args.template_dir.is_none() && scaffold::Template::named(&args.template).is_none() {
        let where_ = format!(
            "`--template-dir DIR` adds DIR/{}/{}/",
            args.dialect.as_str(),
            args.template
        );
        return fail(
            Outcome::Usage,
            format!(
                "no template `{}`: the built-in ones are `minimal`, `standard` and `scripts`; {where_}",
                crate::render::escaped(&args.template)
            ),
        );
    }
    let parent = match (&args.path, args.dialect) {
        (Some(path), _) => path.clone(),
        (None, Dialect::Par) => PathBuf::from(".par/skills"),
        (None, Dialect::AgentSkills) => PathBuf::from("."),
    };
    let target = crate::discover::clean(&parent.join(&args.name));
    if target.exists() || target.is_symlink() {
        let empty =
            target.is_dir() && std::fs::read_dir(&target).is_ok_and(|mut d| d.next().is_none());
        if !empty {
            return fail(
                Outcome::Usage,
                format!(
                    "`{}` already exists; choose another name or --path (nothing was written)",
                    target.display()
                ),
            );
        }
        if !args.force {
            return fail(
                Outcome::Usage,
                format!(
                    "`{}` already exists (empty); pass --force to create the skill in it",
                    target.display()
                ),
            );
        }
    }
    let description = match description(args.description, args.yes, args.dialect) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    let values = Values {
        key: args.name.clone(),
        display_name: scaffold::display_name(&args.name),
        description,
        date: scaffold::today(),
    };
    let files = match scaffold::render(
        args.dialect,
        &args.template,
        args.template_dir.as_deref(),
        &values,
    ) {
        Ok(files) => files,
        Err(scaffold::Error::Template(m)) => return fail(Outcome::Usage, m),
        Err(e) => return fail(Outcome::Failure, e),
    };
    if let Err(e) = scaffold::write(&target, &files, args.force) {
        return fail(Outcome::Failure, e);
    }
    eprintln!(
        "Created skill `{}` ({}, {} template):",
        args.name,
        args.dialect.as_str(),
        args.template
    );
    for file in &files {
        eprintln!("  {}", target.join(&file.path).display());
    }
    let skill_file = target.join(args.dialect.file_name());
    eprintln!(
        "Next: edit {} (description and instructions), then run: skillc validate {}",
        skill_file.display(),
        target.display()
    );
    Outcome::Success
}

pub fn run_init(args: InitArgs) -> Outcome {
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    // A directory that does not exist yet is created (as `cargo init` does), once the name
    // it gives the skill is known to be valid.
    let create = !dir.exists() && !dir.is_symlink();
    if !create && !dir.is_dir() {
        return fail(
            Outcome::Usage,
            format!("`{}` is not a directory", dir.display()),
        );
    }
    if let Some(existing) = crate::discover::SKILL_FILE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.exists())
    {
        return fail(
            Outcome::Usage,
            format!(
                "`{}` already exists; nothing was written",
                existing.display()
            ),
        );
    }
    let name = if create {
        crate::discover::clean(&dir)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
    } else {
        dir.canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
    }
    .unwrap_or_default();
    if let Err((problem, suggestion)) = check_key(args.dialect, &name) {
        let help = if suggestion.is_empty() {
            "rename the directory to a valid skill name first (1-64 lowercase letters, digits and single hyphens)".to_string()
        } else {
            format!("rename the directory to `{suggestion}` first")
        };
        return fail(
            Outcome::Usage,
            format!(
                "the directory name cannot be a skill name: {}\n  help: {help}",
                crate::render::escaped(&problem)
            ),
        );
    }
    let description = match description(args.description, args.yes, args.dialect) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    let values = Values {
        display_name: scaffold::display_name(&name),
        key: name,
        description,
        date: scaffold::today(),
    };
    let files = match scaffold::render(args.dialect, "standard", None, &values) {
        Ok(files) => files,
        Err(e) => return fail(Outcome::Failure, e),
    };
    let Some(skill_file) = files
        .iter()
        .find(|f| f.path == Path::new(args.dialect.file_name()))
    else {
        return fail(Outcome::Failure, "the built-in template has no skill file");
    };
    if create && let Err(e) = std::fs::create_dir_all(&dir) {
        return fail(
            Outcome::Failure,
            format!("creating `{}`: {e}", dir.display()),
        );
    }
    let path = dir.join(&skill_file.path);
    // Written beside and renamed into place, never over an existing file: a failed write (a full
    // disk) leaves no empty skill file behind to block the next `init`.
    if let Err(e) =
        crate::package::archive::write_atomic(&path, skill_file.contents.as_bytes(), false, 0o644)
    {
        let outcome = if e.contains("already exists") {
            Outcome::Usage
        } else {
            Outcome::Failure
        };
        return fail(outcome, e);
    }
    eprintln!("Created {}", path.display());
    eprintln!(
        "Next: edit it (description and instructions), then run: skillc validate {}",
        dir.display()
    );
    Outcome::Success
}

/// Why `text` cannot be a description of `dialect`, as the rules that would reject it say.
fn description_problem(text: &str, dialect: Dialect) -> Option<String> {
    use crate::rules::identity::{DESCRIPTION_MAX, SK110, SK111, SK114};
    let chars = text.chars().count();
    let limit = crate::diagnostic::thousands(DESCRIPTION_MAX);
    if text.trim().is_empty() {
        Some(format!("the description is empty ({})", SK110.code))
    } else if chars > DESCRIPTION_MAX {
        Some(format!(
            "the description is {} characters long; the limit is {limit} ({})",
            crate::diagnostic::thousands(chars),
            SK111.code
        ))
    } else if dialect == Dialect::Par && text.len() > DESCRIPTION_MAX {
        Some(format!(
            "the description is {} bytes in UTF-8; PAR's loader rejects more than {limit} ({})",
            crate::diagnostic::thousands(text.len()),
            SK114.code
        ))
    } else {
        None
    }
}
