//! skillc's diagnostics as the protocol's: ranges in the client's encoding, severity, the
//! rule's code and documentation link, secondary labels as related information, and the tag
//! that fades what runtimes never read.

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location,
    NumberOrString, Uri,
};

use super::position::Lines;
use super::state::Server;
use super::uri::uri_of_path;
use crate::diagnostic::{Diagnostic, Severity};

impl Server<'_> {
    /// The protocol's diagnostic for `d`, on the document of `lines` at `uri`.
    pub fn diagnostic(&self, d: &Diagnostic, lines: &Lines, uri: &Uri) -> lsp_types::Diagnostic {
        let range = |offset: usize, length: usize| lines.range(offset, offset + length);
        let message = match &d.help {
            Some(help) => format!("{}\nhelp: {help}", d.message),
            None => d.message.clone(),
        };
        let mut related: Vec<DiagnosticRelatedInformation> = d
            .secondary
            .iter()
            .map(|label| DiagnosticRelatedInformation {
                location: Location::new(
                    uri.clone(),
                    range(label.region.offset, label.region.length),
                ),
                message: label.message.clone(),
            })
            .collect();
        if is_duplicate_key(d) {
            related.extend(self.same_key(d));
        }
        lsp_types::Diagnostic {
            range: d
                .region
                .map_or_else(|| range(0, 0), |r| range(r.offset, r.length)),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
            }),
            code: Some(NumberOrString::String(d.rule.code.to_string())),
            code_description: rule_url(d.rule.code).map(|href| CodeDescription { href }),
            source: Some("skillc".into()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            tags: tags(d.rule),
            data: None,
        }
    }

    /// SK501's other skill: the key of the skill of the workspace its message names.
    fn same_key(&self, d: &Diagnostic) -> Option<DiagnosticRelatedInformation> {
        let workspace = self.workspace.borrow();
        let key = d
            .message
            .strip_prefix("duplicate skill key `")?
            .split_once("`: also used by `")?
            .0;
        let other = workspace.iter().find(|r| {
            r.key.as_deref() == Some(key)
                && r.dir.file.as_deref() != Some(&*d.path)
                && d.message
                    .ends_with(&format!("also used by `{}`", r.path().display()))
        })?;
        let path = self.cwd.join(other.path());
        let region = other.key_region()?;
        // The other file is read only to place the key in the client's encoding.
        let size = std::fs::metadata(&path).ok()?.len();
        let settings = self.settings()?;
        if size > settings.max_file_size {
            return None;
        }
        let text = String::from_utf8(std::fs::read(&path).ok()?).ok()?;
        let lines = Lines::new(&text, self.encoding);
        Some(DiagnosticRelatedInformation {
            location: Location::new(
                uri_of_path(&path)?,
                lines.range(region.offset, region.offset + region.length),
            ),
            message: "the other skill with this key".into(),
        })
    }
}

/// Whether `d` is SK501's duplicate key, whose message names the other skill with the key (the
/// server links to it).
fn is_duplicate_key(d: &Diagnostic) -> bool {
    *d.rule == crate::rules::SK501
}

/// The tags of a rule's diagnostics: what runtimes never read is unnecessary (the editor fades
/// it).
fn tags(rule: &crate::rule::Rule) -> Option<Vec<DiagnosticTag>> {
    rule.has(crate::rule::Tag::Unnecessary)
        .then(|| vec![DiagnosticTag::UNNECESSARY])
}

/// Where a rule's documentation is read online (what `skillc rule CODE` prints).
fn rule_url(code: &str) -> Option<Uri> {
    crate::rule::doc_url(code).parse().ok()
}
