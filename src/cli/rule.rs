//! `skillc rule [CODE|NAME]`.

use super::{Outcome, fail};
use crate::rule::{self, RULES};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A rule code (`SK111`) or name (`description-too-long`); omit for the table of all rules.
    rule: Option<String>,
}

pub fn run(args: &Args) -> Outcome {
    let Some(wanted) = &args.rule else {
        return super::emit(&table()).unwrap_or(Outcome::Success);
    };
    match rule::find(wanted) {
        Some(rule) => {
            let mut text = format!(
                "{} {}\nSeverity: {} · Dialects: {}\n\n{}\n\n{}",
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.dialects.as_str(),
                rule.summary,
                rule.doc
            );
            if !text.ends_with('\n') {
                text.push('\n');
            }
            super::emit(&text).unwrap_or(Outcome::Success)
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
