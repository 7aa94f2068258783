//! `skillc prompt [PATH]... [--style list|xml]`: the L1 catalog as an agent sees it.

use super::Outcome;
use super::skills::SkillArgs;
use crate::tokens;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    skills: SkillArgs,
    /// `list`: the `- key: description` lines the budget counts; `xml`: `<available_skills>`.
    #[arg(long, value_enum, default_value = "list")]
    style: Style,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Style {
    List,
    Xml,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

pub fn run(args: &Args) -> Outcome {
    let loaded = match args.skills.load(
        super::skills::without_token_rules(),
        false,
        crate::skill::Keep::default(),
    ) {
        Ok(loaded) => loaded,
        Err(outcome) => return outcome,
    };
    let reports = &loaded.reports;
    let mut catalog = crate::catalog::listed(reports);
    catalog.sort_by(|&a, &b| reports[a].key.cmp(&reports[b].key));
    // The catalog is printed exactly as an agent sees it; on a terminal, control characters
    // from skills are shown as control pictures instead of reaching the terminal.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let shown = |text: &str| -> String {
        if terminal {
            crate::render::printable(text).into_owned()
        } else {
            text.to_string()
        }
    };
    let mut out = String::new();
    match args.style {
        Style::List => {
            for &i in &catalog {
                let r = &reports[i];
                out += &tokens::l1_entry(
                    &shown(r.key.as_deref().unwrap_or("")),
                    &shown(r.description.as_deref().unwrap_or("")),
                );
            }
        }
        Style::Xml => {
            out += "<available_skills>\n";
            for &i in &catalog {
                let r = &reports[i];
                let description: Vec<&str> = r
                    .description
                    .as_deref()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect();
                let location = r
                    .dir
                    .file
                    .as_ref()
                    .map(|f| crate::discover::absolute(&loaded.cwd, f))
                    .unwrap_or_default();
                out += &format!(
                    "<skill>\n<name>{}</name>\n<description>{}</description>\n<location>{}</location>\n</skill>\n",
                    escape(&shown(r.key.as_deref().unwrap_or(""))),
                    escape(&shown(&description.join(" "))),
                    escape(&shown(&location.to_string_lossy()))
                );
            }
            out += "</available_skills>\n";
        }
    }
    super::emit(&out).unwrap_or(Outcome::Success)
}
