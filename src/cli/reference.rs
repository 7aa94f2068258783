//! The flag tables of `docs/cli.md`, made from the same definitions `--help` prints: a test
//! compares them with the file, so the reference cannot drift from the binary.

use std::fmt::Write;

/// One Markdown section per command: its summary, usage and a table of its arguments.
pub fn flag_tables() -> String {
    let mut command = <super::Cli as clap::CommandFactory>::command();
    command.build();
    let mut out = String::new();
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        let _ = writeln!(out, "### `skillc {name}`\n");
        if let Some(about) = sub.get_about() {
            let _ = writeln!(out, "{about}.\n");
        }
        let aliases: Vec<&str> = sub.get_visible_aliases().collect();
        if !aliases.is_empty() {
            let _ = writeln!(out, "Alias: `skillc {}`.\n", aliases.join("`, `skillc "));
        }
        out.push_str("| argument | description |\n|---|---|\n");
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            let id = arg.get_id().as_str();
            // `--color` is every command's: said once, above the tables.
            if id == "help" || id == "version" || arg.is_global_set() {
                continue;
            }
            let _ = writeln!(out, "| {} | {} |", spelling(arg), describe(arg));
        }
        out.push('\n');
    }
    out
}

/// `-q`, `--quiet`, `--format <FORMAT>`, `[PATH]...` as a table cell.
fn spelling(arg: &clap::Arg) -> String {
    let value = arg
        .get_value_names()
        .map(|names| {
            names
                .iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|_| arg.get_action().takes_values())
        .unwrap_or_default();
    let mut forms = Vec::new();
    if let Some(short) = arg.get_short() {
        forms.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        forms.push(format!("--{long}"));
    }
    for alias in arg.get_visible_aliases().unwrap_or_default() {
        forms.push(format!("--{alias}"));
    }
    if forms.is_empty() {
        let name = arg.get_id().as_str().to_uppercase();
        let many = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            "..."
        } else {
            ""
        };
        return format!("`{name}{many}`");
    }
    let forms: Vec<String> = forms
        .iter()
        .map(|f| {
            if value.is_empty() {
                format!("`{f}`")
            } else {
                format!("`{f} {value}`")
            }
        })
        .collect();
    forms.join(", ")
}

/// The help text on one line, with its possible values and default.
fn describe(arg: &clap::Arg) -> String {
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let mut text = help.split_whitespace().collect::<Vec<_>>().join(" ");
    if !text.is_empty() && !text.ends_with('.') {
        text.push('.');
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !values.is_empty() && arg.get_action().takes_values() {
        let _ = write!(text, " One of {}.", values.join(", "));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && arg.get_action().takes_values() {
        let _ = write!(text, " Default: `{}`.", defaults.join(","));
    }
    text.replace('|', "\\|")
}
