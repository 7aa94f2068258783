//! `skillc rule [CODE|NAME]`.

use super::{Outcome, fail};
use crate::rule::{self, RULES};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A rule code (`SK111`) or name (`description-too-long`); omit for the table of all rules.
    rule: Option<String>,
    /// Output format: the documentation as text, or the rule's facts as JSON (an array of
    /// every rule without RULE).
    #[arg(
        long = "output-format",
        value_enum,
        value_name = "FORMAT",
        default_value = "text"
    )]
    output_format: super::OutputFormat,
}

pub fn run(args: &Args) -> Outcome {
    let json = args.output_format == super::OutputFormat::Json;
    let Some(wanted) = &args.rule else {
        let text = if json {
            let all: Vec<serde_json::Value> = RULES.iter().map(|r| facts(r, false)).collect();
            pretty(&serde_json::Value::Array(all))
        } else {
            table()
        };
        return super::emit(&text).unwrap_or(Outcome::Success);
    };
    match rule::find(wanted) {
        Some(rule) if json => super::emit(&pretty(&facts(rule, true))).unwrap_or(Outcome::Success),
        Some(rule) => {
            let mut text = format!(
                "{} {}\nSeverity: {} · Dialects: {} · Fix: {}{}{}\n\n{}\n\n{}",
                rule.code,
                rule.name,
                rule.severity.as_str(),
                rule.dialects.as_str(),
                fix_of(rule),
                tags_of(rule),
                security_of(rule),
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
            format!(
                "unknown rule `{wanted}`{}",
                crate::rule::suggestion(wanted, "run `skillc rule` for the list")
            ),
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

/// Whether a rule fixes, and how safely: "none", "safe", "unsafe", "safe or unsafe".
fn fix_of(rule: &rule::Rule) -> &'static str {
    use crate::fix::Applicability::{Safe, Unsafe};
    let has = |a| rule.fixes.iter().any(|f| f.applicability == a);
    match (has(Safe), has(Unsafe)) {
        (false, false) => "none",
        (true, false) => "safe",
        (false, true) => "unsafe",
        (true, true) => "safe or unsafe",
    }
}

/// What a security rule adds, "\nSecurity: critical · CWE-494, CWE-78 · Default: off", or
/// nothing (and " · Default: off" for another rule that is off by default).
fn security_of(rule: &rule::Rule) -> String {
    let default = if rule.default { "" } else { " · Default: off" };
    let Some(security) = rule.security else {
        return default.to_string();
    };
    let cwes: Vec<String> = security.cwe.iter().map(|n| format!("CWE-{n}")).collect();
    format!(
        "\nSecurity: {} · {}{default}",
        security.severity.as_str(),
        cwes.join(", ")
    )
}

/// " · Tags: collection, tokens", or nothing for a rule without tags.
fn tags_of(rule: &rule::Rule) -> String {
    if rule.tags.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = rule.tags.iter().map(|t| t.as_str()).collect();
    format!(" · Tags: {}", names.join(", "))
}

/// A rule as JSON: what `skillc rule` prints in words, and its documentation (Markdown) when
/// `doc`.
fn facts(rule: &rule::Rule, doc: bool) -> serde_json::Value {
    let mut value = serde_json::json!({
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.as_str(),
        "dialects": rule.dialects.as_str(),
        "default": rule.default,
        "tags": rule.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
        "summary": rule.summary,
        "fixes": rule.fixes.iter().map(|f| serde_json::json!({
            "what": f.what,
            "applicability": f.applicability.as_str(),
        })).collect::<Vec<_>>(),
        "security": rule.security.map(|s| serde_json::json!({
            "severity": s.severity.as_str(),
            "cwe": s.cwe.iter().map(|n| format!("CWE-{n}")).collect::<Vec<_>>(),
        })),
        "url": crate::rule::doc_url(rule.code),
    });
    if doc {
        value["documentation"] = serde_json::Value::from(rule.doc);
    }
    value
}

fn pretty(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}
