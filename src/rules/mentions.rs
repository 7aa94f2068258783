//! SK414: the paths of the skill that the body's text and code spans name, or those of a
//! Markdown file the body links (not their links, which are SK404's), and that do not exist.

use super::body::{NearMatch, Resolver, Target};
use crate::diagnostic::Span;
use crate::files::SkillTree;
use crate::markdown::Link;
use crate::skill::Reporter;

crate::rule::declare! {
    SK414 "missing-mentioned-file" Warning Both
        needs(frontmatter)
        "A path of the skill named in the text or code spans of the body or of a Markdown file it links names a file that does not exist.";
}

/// Folders a skill keeps its files in by convention: a path that starts with one names a file
/// of the skill even when the folder is missing (SK414).
const SKILL_FOLDERS: [&str; 6] = [
    "scripts",
    "references",
    "resources",
    "assets",
    "templates",
    "examples",
];

/// Words before a path on its line that make it a file the agent is told to make, not one it
/// is told to use (SK414): `Create scripts/helper.py`, `… > references/notes.md`.
const MAKES: [&str; 23] = [
    "create", "write", "save", "generat", "output", "produc", "touch ", "mkdir", ">", "-o ",
    "--out", "new ", "add ", "rename", "move", "export", "download", "place", "put ", "becomes",
    "will be", "copy", "build",
];

/// Words that make the paths of a line, or of the list it introduces, examples of what a skill
/// could hold (a skill about writing skills: `**Example**: scripts/rotate_pdf.py`), not files
/// of this one (SK414).
const HYPOTHETICAL: [&str; 8] = [
    "example",
    "e.g.",
    "for instance",
    "such as",
    "would",
    "could",
    "might",
    "suppose",
];

/// SK414: a path of the skill written in the body's text or code spans (not in a link, which
/// is SK404's, nor in a code fence) that names a file that does not exist: `scripts/run.py`,
/// `` `references/guide.md` ``, `python scripts/research.py --query …`. A path counts when it
/// starts with a folder the skill has or keeps files in by convention ([`SKILL_FOLDERS`]) and
/// its last part has an extension; one per path. `body` is the body (at `offset` in its file)
/// or a linked file (in `folder`; its links parsed here when `links` is `None`): a
/// path of a linked file may also be written from its folder.
pub fn check(
    resolver: &Resolver,
    tree: &SkillTree,
    body: &str,
    offset: usize,
    folder: &str,
    links: Option<&[Link]>,
    out: &mut Reporter,
) {
    let folders: Vec<&str> = tree
        .entries
        .iter()
        .filter(|e| matches!(e.kind, crate::files::Kind::Dir) && !e.rel.contains('/'))
        .map(|e| e.rel.as_str())
        .collect();
    // What a path of the skill starts with, to pass over the other runs of path characters
    // (`src/app.ts`, URLs) before anything is resolved.
    let starts: Vec<String> = SKILL_FOLDERS
        .iter()
        .chain(folders.iter())
        .map(|f| format!("{f}/"))
        .collect();
    // One pass over the body's slashes finds the lines worth a look: those with a folder of
    // the skill (a word of `starts`) before a `/`.
    let bytes = body.as_bytes();
    let word_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    let mut wanted: Vec<usize> = memchr::memchr_iter(b'/', bytes)
        .filter(|&slash| {
            let from = bytes[..slash]
                .iter()
                .rposition(|&b| !word_byte(b))
                .map_or(0, |i| i + 1);
            let word = &body[from..slash];
            SKILL_FOLDERS.contains(&word) || folders.contains(&word)
        })
        .collect();
    if wanted.is_empty() {
        return;
    }
    wanted.reverse();
    let parsed;
    let links = match links {
        Some(links) => links,
        None => {
            parsed = crate::markdown::links(body);
            &parsed
        }
    };
    let mut near = NearMatch::new(&tree.entries);
    let mut reported: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    // The line that introduced the current list (or paragraph), lower-cased: its words hold
    // for the list's items.
    let mut lead_in = "";
    let mut at = 0;
    let mut lines = body.split_inclusive('\n');
    while let Some(raw) = lines.next() {
        let start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_ascii_start();
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        let item = ["- ", "* ", "+ "].iter().any(|m| trimmed.starts_with(m))
            || (digits > 0 && matches!(trimmed.as_bytes().get(digits), Some(b'.' | b')')));
        if trimmed.starts_with('#') {
            lead_in = "";
        } else if !item && !trimmed.is_empty() && fence.is_none() {
            lead_in = trimmed;
        }
        if let Some(m @ ('`' | '~')) = trimmed.chars().next() {
            let len = trimmed.chars().take_while(|&c| c == m).count();
            if len >= 3 {
                fence = match fence {
                    Some((open, n))
                        if open == m && len >= n && trimmed[len..].trim().is_empty() =>
                    {
                        None
                    }
                    None => Some((m, len)),
                    other => other,
                };
                continue;
            }
        }
        // The slashes before this line's end are behind: is one of them on it?
        let mut here = false;
        while wanted.last().is_some_and(|&slash| slash < at) {
            here |= wanted.pop().is_some_and(|slash| slash >= start);
        }
        if fence.is_some() || !here {
            if wanted.is_empty() {
                break;
            }
            continue;
        }
        let runs: Vec<(usize, usize)> = path_runs(line)
            .into_iter()
            .filter(|&(a, b)| starts.iter().any(|s| line[a..b].contains(s.as_str())))
            .collect();
        if runs.is_empty() {
            continue;
        }
        // A reference definition (`[id]: references/x.md`) is a link, used or not.
        if trimmed.starts_with('[') && trimmed.contains("]:") {
            continue;
        }
        // A path that labels the code block below it (`**scripts/check.sh:**`, `### scripts/
        // check.sh`) gives that file's contents: a file to write, not one the skill has.
        let label = trimmed.trim_matches(|c: char| matches!(c, '*' | '_' | '#' | '`' | ':' | ' '));
        if runs
            .iter()
            .any(|&(a, b)| line[a..b].trim_end_matches([':', '.']) == label)
            && lines
                .clone()
                .find(|next| !next.trim().is_empty())
                .is_some_and(|next| {
                    let next = next.trim_start();
                    next.starts_with("```") || next.starts_with("~~~")
                })
        {
            continue;
        }
        let mut hidden = link_ranges(line);
        // The parser's links on this line (autolinks, HTML, definitions), in the line's bytes.
        hidden.extend(links.iter().filter_map(|l| {
            let a = l.span.start.checked_sub(start)?;
            let b = l.span.end.checked_sub(start)?;
            (a < line.len()).then_some((a, b.min(line.len())))
        }));
        let lower = line.to_lowercase();
        let context = if item {
            lead_in.to_lowercase()
        } else {
            String::new()
        };
        if HYPOTHETICAL
            .iter()
            .any(|w| lower.contains(w) || context.contains(w))
            || MAKES.iter().any(|w| context.contains(w))
        {
            continue;
        }
        for (from, to) in runs {
            if hidden.iter().any(|&(a, b)| from < b && to > a) {
                continue;
            }
            let written = line[from..to].trim_end_matches(['.', ',', ':', ';', '!', '?']);
            let Some(rel) = mentioned_path(resolver, written, &folders) else {
                continue;
            };
            // A plugin is installed whole: a path may name a file of the plugin beside the
            // skill (`scripts/build_plan.py` at the plugin's root).
            let in_plugin = resolver
                .installed_with
                .is_some_and(|plugin| std::fs::symlink_metadata(plugin.join(&rel)).is_ok());
            let beside = !folder.is_empty()
                && matches!(resolver.resolve(written, folder), Target::Inside(near) if tree.contains(resolver.skill, &near));
            if in_plugin || beside || tree.contains(resolver.skill, &rel) || reported.contains(&rel)
            {
                continue;
            }
            let before = lower.get(..from).unwrap_or("");
            if MAKES.iter().any(|w| before.contains(w)) {
                continue;
            }
            let span = Span::new(offset + start + from, offset + start + from + written.len());
            let d = out
                .emit(
                    &SK414,
                    Some(span),
                    format!("`{written}` names a file that does not exist in the skill"),
                )
                .label("no such file");
            match near.find(&rel) {
                Some(found) => d.help(format!("did you mean `{found}`?")),
                None => d.help(format!(
                    "add `{rel}` to the skill or fix the path: the agent will fail at this step"
                )),
            };
            reported.push(rel);
            if reported.len() > 256 {
                return;
            }
        }
    }
}

/// The byte ranges of `line` taken by Markdown links and images (`[text](dest)`): their paths
/// are SK404's.
fn link_ranges(line: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut search = 0;
    while let Some(found) = line.get(search..).and_then(|rest| rest.find("](")) {
        let mid = search + found;
        let open = line[..mid].rfind('[').unwrap_or(mid);
        let close = line[mid..].find(')').map_or(line.len(), |c| mid + c + 1);
        ranges.push((open, close));
        search = close.max(mid + 2);
    }
    ranges
}

/// The runs of `line` made of path characters (letters, digits, `_-./~$@+{}`), as byte ranges.
fn path_runs(line: &str) -> Vec<(usize, usize)> {
    let path_char = |c: char| {
        c.is_alphanumeric()
            || matches!(c, '_' | '-' | '.' | '/' | '~' | '$' | '@' | '+' | '{' | '}')
    };
    let mut runs = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (path_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, line.len()));
    }
    runs.retain(|&(a, b)| line[a..b].contains('/'));
    runs
}

/// The path of the skill `written` names (relative to its root), when it names a file of the
/// skill: resolved inside it, starting with one of its `folders` or a conventional one, its last
/// part with an extension, no glob or placeholder left.
fn mentioned_path(resolver: &Resolver, written: &str, folders: &[&str]) -> Option<String> {
    if written.contains("//") || written.contains("..") {
        return None;
    }
    let Target::Inside(rel) = resolver.resolve(written, "") else {
        return None;
    };
    let (first, _) = rel.split_once('/')?;
    if !SKILL_FOLDERS.contains(&first) && !folders.contains(&first) {
        return None;
    }
    let name = rel.rsplit('/').next()?;
    let (stem, ext) = name.rsplit_once('.')?;
    let placeholder = |part: &str| {
        part.contains(['{', '}', '$', '~', '@', '+'])
            || part
                .split(['-', '_', '.'])
                .any(|p| matches!(p, "N" | "X" | "XX" | "NN" | "n"))
    };
    let plain_ext = (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric());
    (!stem.is_empty() && plain_ext && !rel.split('/').any(placeholder)).then_some(rel)
}
