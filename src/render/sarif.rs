//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning.

use serde_json::{Value, json};

use super::{diagnostics, slash_path};
use crate::diagnostic::Severity;
use crate::fix::Fix;
use crate::rule::{RULES, Rule};
use crate::skill::SkillReport;

/// A SARIF `fix`: the edits as byte-range replacements of the file; whether the fix is safe in
/// `properties`. A rename has no SARIF form (a change's replacements may not be empty).
fn fix_object(fix: &Fix, path: &str) -> Option<Value> {
    if fix.edits.is_empty() {
        return None;
    }
    let replacements: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| {
            json!({
                "deletedRegion": {"byteOffset": e.span.start, "byteLength": e.span.len()},
                "insertedContent": {"text": e.content},
            })
        })
        .collect();
    Some(json!({
        "description": {"text": fix.message},
        "artifactChanges": [{"artifactLocation": {"uri": uri(path)}, "replacements": replacements}],
        "properties": {"applicability": fix.applicability.as_str(), "available": fix.available},
    }))
}

pub fn render(reports: &[SkillReport]) -> String {
    let rules: Vec<Value> = RULES.iter().map(|rule| rule_descriptor(rule)).collect();
    let results: Vec<Value> = diagnostics(reports)
        .map(|d| {
            let mut location = json!({"physicalLocation": {"artifactLocation": {"uri": uri(&slash_path(&d.path))}}});
            if let Some(r) = d.region {
                location["physicalLocation"]["region"] = json!({
                    "startLine": r.line,
                    "startColumn": r.column,
                    "endLine": r.end_line,
                    "endColumn": r.end_column,
                });
            }
            let text = match &d.help {
                Some(help) => format!("{} (help: {help})", d.message),
                None => d.message.clone(),
            };
            let mut result = json!({
                "ruleId": d.rule.code,
                "ruleIndex": RULES.iter().position(|r| r.code == d.rule.code),
                "level": level(d.severity),
                "message": {"text": text},
                "locations": [location],
            });
            if let Some(fix) = d.fix.as_deref().and_then(|f| fix_object(f, &slash_path(&d.path))) {
                result["fixes"] = json!([fix]);
            }
            result
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skillc",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_HOMEPAGE"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut text = crate::render::json_text(&doc);
    text.push('\n');
    text
}

fn rule_descriptor(rule: &Rule) -> Value {
    let mut descriptor = json!({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": section(rule.doc, "What it checks").unwrap_or(rule.summary)},
        "help": {"text": rule.doc, "markdown": rule.doc},
        "defaultConfiguration": {"level": level(rule.severity)},
    });
    // GitHub code scanning ranks a security rule by `security-severity` and files it under
    // the `security` tag and its CWEs.
    if let Some(security) = rule.security {
        let mut tags = vec!["security".to_string()];
        tags.extend(security.cwe.iter().map(|n| format!("external/cwe/cwe-{n}")));
        descriptor["properties"] = json!({
            "tags": tags,
            "security-severity": security.severity.score(),
        });
    }
    descriptor
}

/// The text of one `## heading` section of a rule's documentation.
fn section<'a>(doc: &'a str, heading: &str) -> Option<&'a str> {
    let start = doc.find(&format!("## {heading}\n"))? + heading.len() + 4;
    let rest = &doc[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative path as a URI reference: `/` kept, everything but unreserved characters
/// percent-encoded.
fn uri(path: &str) -> String {
    crate::encode::percent_encode(path.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_and_sections() {
        assert_eq!(uri("a b/技.md"), "a%20b/%E6%8A%80.md");
        assert_eq!(
            section("## What it checks\nX y.\n\n## Why\nZ", "What it checks"),
            Some("X y.")
        );
    }
}
