//! `--statistics`: `count<TAB>code<TAB>name` per rule, most frequent first.

use std::collections::HashMap;
use std::fmt::Write;

use crate::skill::SkillReport;

pub fn render(reports: &[SkillReport]) -> String {
    let mut counts: HashMap<&'static str, (usize, &'static str)> = HashMap::new();
    for (rule, _, count) in super::counts(reports) {
        counts.entry(rule.code).or_insert((0, rule.name)).0 += count;
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    let mut out = String::new();
    for (code, (count, name)) in rows {
        let _ = writeln!(out, "{count}\t{code}\t{name}");
    }
    out
}
