//! `--format concise`: `path:line:col: severity[CODE] message`.

use std::fmt::Write;

use super::{diagnostics, slash_path};
use crate::lint::SkillReport;

pub fn render(reports: &[SkillReport]) -> String {
    let mut out = String::new();
    for d in diagnostics(reports) {
        let path = slash_path(&d.path);
        let _ = match d.region {
            Some(r) => writeln!(
                out,
                "{path}:{}:{}: {}[{}] {}",
                r.line,
                r.column,
                d.severity.as_str(),
                d.rule.code,
                d.message
            ),
            None => writeln!(
                out,
                "{path}: {}[{}] {}",
                d.severity.as_str(),
                d.rule.code,
                d.message
            ),
        };
    }
    out
}
