//! `skillc completions SHELL`: clap's script for the shell, with every rule code and name as
//! the values of `skillc rule` and of the rule-list flags, and (bash, zsh, fish) the keys of the
//! skills under the current directory for `skillc show`, asked of `skillc list` when completing.

use clap::CommandFactory;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap_complete::Shell;

use super::{Cli, Outcome};
use crate::rule::{RULES, Tag};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    shell: Shell,
}

/// The arguments that take rules: `skillc rule RULE`, `--select`, `--extend-select`, `--ignore`.
const RULE_ARGS: [&str; 4] = ["rule", "select", "extend_select", "ignore"];

/// The keys of the skills under the current directory, one per line (`list`'s first column).
const KEYS: &str = "skillc list 2>/dev/null | awk 'NR > 1 { print $1 }'";

pub fn run(args: &Args) -> Outcome {
    let mut command = Cli::command().mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            if RULE_ARGS.contains(&arg.get_id().as_str()) {
                arg.value_parser(PossibleValuesParser::new(rule_values()))
            } else {
                arg
            }
        })
    });
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "skillc", &mut script);
    let script = with_skill_keys(args.shell, String::from_utf8_lossy(&script).into_owned());
    super::emit(&script).unwrap_or(Outcome::Success)
}

/// Every rule's code (described by its name) and name (by its code), and `security`.
fn rule_values() -> Vec<PossibleValue> {
    let mut values: Vec<PossibleValue> = RULES
        .iter()
        .flat_map(|r| {
            [
                PossibleValue::new(r.code).help(r.name),
                PossibleValue::new(r.name).help(r.code),
            ]
        })
        .collect();
    values.push(PossibleValue::new(Tag::Security.as_str()).help("every security rule"));
    values
}

/// `script` with `skillc show`'s key completed from the skills under the current directory.
fn with_skill_keys(shell: Shell, script: String) -> String {
    match shell {
        Shell::Bash => {
            let wrapper = format!(
                r#"
# `skillc show KEY`: the keys of the skills under the current directory.
_skillc_with_keys() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}"
    if [[ ${{COMP_CWORD}} -eq 2 && "${{COMP_WORDS[1]}}" == show && "${{cur}}" != -* ]]; then
        COMPREPLY=( $(compgen -W "$({KEYS})" -- "${{cur}}") )
        return 0
    fi
    _skillc "$@"
}}
"#
            );
            let script = script.replace("complete -F _skillc ", "complete -F _skillc_with_keys ");
            match script.find("\nif [[ \"${BASH_VERSINFO[0]}\"") {
                Some(at) => format!("{}{wrapper}{}", &script[..at], &script[at..]),
                None => format!("{script}{wrapper}"),
            }
        }
        Shell::Zsh => {
            let function = format!(
                "\n# `skillc show KEY`: the keys of the skills under the current directory.\n_skillc_keys() {{\n    local -a keys\n    keys=(${{(f)\"$({KEYS})\"}})\n    _describe 'skill key' keys\n    _files\n}}\n"
            );
            let script: String = script
                .lines()
                .map(|line| {
                    if line.starts_with("':key -- ") && line.ends_with(":_default' \\") {
                        line.replace(":_default' \\", ":_skillc_keys' \\")
                    } else {
                        line.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            format!("{function}{script}\n")
        }
        Shell::Fish => format!(
            "{script}\n# `skillc show KEY`: the keys of the skills under the current directory.\ncomplete -c skillc -n \"__fish_skillc_using_subcommand show\" -f -a \"({})\"\n",
            KEYS.replace('$', "\\$")
        ),
        _ => script,
    }
}
