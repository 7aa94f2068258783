//! `skillc rule [CODE|NAME]`.

use super::{Outcome, fail};
use crate::rules::{self, RULES};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A rule code (`SK111`) or name (`description-too-long`); omit for the table of all rules.
    rule: Option<String>,
}

pub fn run(args: &Args) -> Outcome {
    let Some(wanted) = &args.rule else {
        print!("{}", table());
        return Outcome::Success;
    };
    match rules::find(wanted) {
        Some(rule) => {
            println!("{} {}", rule.code, rule.name);
            println!(
                "Severity: {} · Dialects: {}",
                rule.severity.as_str(),
                rule.dialects.as_str()
            );
            println!();
            println!("{}", rule.summary);
            println!();
            print!("{}", rule.doc);
            if !rule.doc.ends_with('\n') {
                println!();
            }
            Outcome::Success
        }
        None => fail(
            Outcome::Usage,
            format!("unknown rule `{wanted}`; run `skillc rule` for the list"),
        ),
    }
}

/// The table of all rules: code, name, severity, dialects.
pub fn table() -> String {
    let width = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut out = format!(
        "{:<6} {:<width$} {:<8} {}\n",
        "code", "name", "severity", "dialects"
    );
    for rule in RULES {
        out += &format!(
            "{:<6} {:<width$} {:<8} {}\n",
            rule.code,
            rule.name,
            rule.severity.as_str(),
            rule.dialects.as_str()
        );
    }
    out
}
