//! SK505: a Claude Code plugin marketplace (`.claude-plugin/marketplace.json`) that lists a
//! plugin whose local `source` folder does not exist. The marketplace is not a skill: its
//! diagnostics come in a report of their own ([`crate::lint::marketplaces`]).

use std::path::{Path, PathBuf};

use crate::diagnostic::Span;
use crate::plugins;
use crate::skill::Reporter;
use crate::source::SkillFile;

crate::rule::declare! {
    SK505 "marketplace-source-missing" Error Both
        needs(collection)
        tags(collection)
        "A plugin marketplace (`.claude-plugin/marketplace.json`) lists a plugin `source` that does not exist.";
}

/// At most this many missing sources are reported per marketplace (then one more says how many).
const MAX_REPORTED: usize = 256;

/// SK505 on the marketplace `file` (its text read), whose folder (the repository's root, as
/// Claude Code resolves `source`) is `root`: each entry whose `source` is a local path that
/// names nothing, at that path in the file. A marketplace that is not valid JSON is not judged
/// here (Claude Code rejects it whole).
pub fn check(root: &Path, file: &SkillFile, out: &mut Reporter) {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&file.text) else {
        return;
    };
    let mut searched = 0;
    let mut missing = 0;
    for (written, folder) in plugins::local_sources(root, &json) {
        if std::fs::symlink_metadata(&folder).is_ok() {
            continue;
        }
        missing += 1;
        if missing > MAX_REPORTED {
            continue;
        }
        let span = source_span(&file.text, &written, &mut searched);
        let shown = crate::discover::clean(&PathBuf::from(&written));
        out.emit(
            &SK505,
            span,
            format!("plugin source `{written}` does not exist in the repository"),
        )
        .label("no such folder")
        .help(format!(
            "add the plugin at `{}` or fix its `source`: Claude Code cannot install it",
            shown.display()
        ));
    }
    if missing > MAX_REPORTED {
        out.emit(
            &SK505,
            None,
            format!(
                "{} more plugin sources do not exist",
                crate::diagnostic::thousands(missing - MAX_REPORTED)
            ),
        );
    }
}

/// Where the string value `"written"` of a `"source"` key lies in `text`, searching on from
/// byte `from` (entries are listed in file order) and moving it past the value found.
fn source_span(text: &str, written: &str, from: &mut usize) -> Option<Span> {
    let quoted = serde_json::to_string(written).ok()?;
    let mut at = *from;
    while let Some(found) = text.get(at..).and_then(|rest| rest.find(&quoted)) {
        let start = at + found;
        let before = text[..start].trim_end();
        let key = before
            .strip_suffix(':')
            .map(str::trim_end)
            .is_some_and(|k| k.ends_with("\"source\""));
        at = start + quoted.len();
        if key {
            *from = at;
            return Some(Span::new(start, at));
        }
    }
    None
}
