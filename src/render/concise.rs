//! `--format concise`: `path:line:col: severity[CODE] message`.

use std::fmt::Write;

use super::{diagnostics, printable, slash_path};
use crate::skill::SkillReport;

pub fn render(reports: &[SkillReport]) -> String {
    let mut out = String::new();
    for d in diagnostics(reports) {
        let path = slash_path(&d.path);
        let path = printable(&path);
        let message = printable(&d.message);
        let _ = match d.region {
            Some(r) => writeln!(
                out,
                "{path}:{}:{}: {}[{}] {}",
                r.line,
                r.column,
                d.severity.as_str(),
                d.rule.code,
                message
            ),
            None => writeln!(
                out,
                "{path}: {}[{}] {}",
                d.severity.as_str(),
                d.rule.code,
                message
            ),
        };
    }
    out
}
