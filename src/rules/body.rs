//! Body rules: SK401, SK403–SK407 and SK412 — the instructions and the files they link.

use super::{SK401, SK402, SK403, SK404, SK405, SK406, SK407, SK412};
use crate::config::Settings;
use crate::diagnostic::Span;
use crate::discover::SkillDir;
use crate::files::SkillTree;
use crate::lint::Reporter;
use crate::markdown::Link;
use crate::source::{Layout, SkillFile};

/// The most tokens a body should have (SK402).
pub const BODY_MAX_TOKENS: usize = 5000;

/// The most lines a body should have.
pub const BODY_MAX_LINES: usize = 500;

/// Directories whose files the body should mention (SK412).
const DISCOVERABLE: [&str; 3] = ["references/", "resources/", "scripts/"];

/// A link destination resolved against the skill root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Not a file link: a URL, an anchor, empty.
    NotAFile,
    /// An absolute path.
    Absolute(String),
    /// A relative path that climbs out of the skill.
    Escapes(String),
    /// A normalised path inside the skill (`/`-separated, no `.` or `..`; empty for the root).
    Inside(String),
}

/// Resolves a link destination: URL schemes, `//host` and `#anchors` are not files; `#fragment`
/// and `?query` are dropped; percent-encoding is decoded; `\` counts as a separator.
pub fn resolve(dest: &str) -> Target {
    let dest = dest.trim();
    if dest.is_empty() || dest.starts_with('#') || dest.starts_with("//") || has_scheme(dest) {
        return Target::NotAFile;
    }
    let path = dest.split(['#', '?']).next().unwrap_or("");
    let path = percent_decode(path).replace('\\', "/");
    if path.is_empty() {
        return Target::NotAFile;
    }
    let drive =
        path.len() >= 2 && path.as_bytes()[0].is_ascii_alphabetic() && path.as_bytes()[1] == b':';
    if path.starts_with('/') || drive {
        return Target::Absolute(path);
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Target::Escapes(path);
                }
            }
            other => parts.push(other),
        }
    }
    Target::Inside(parts.join("/"))
}

/// `scheme:` with a scheme of two or more characters (a single letter is a drive).
fn has_scheme(dest: &str) -> bool {
    let Some(colon) = dest.find(':') else {
        return false;
    };
    let scheme = &dest[..colon];
    scheme.len() >= 2
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).and_then(|&b| hex(b)),
                bytes.get(i + 2).and_then(|&b| hex(b)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Runs the body rules. `placeholders` are the skill's targets' path placeholders with the
/// directories they stand for (runtimes.md).
#[allow(clippy::too_many_arguments)]
pub fn check(
    dir: &SkillDir,
    placeholders: &[(&'static str, std::path::PathBuf)],
    file: &SkillFile,
    layout: &Layout,
    tree: &SkillTree,
    links: &[Link],
    settings: &Settings,
    out: &mut Reporter,
) {
    let _ = placeholders;
    let body = file.slice(layout.body);
    length(file, layout, body, out);
    tokens(layout, body, settings, out);
    let mut linked = Vec::new();
    for link in links {
        let span = Span::new(
            layout.body.start + link.span.start,
            layout.body.start + link.span.end,
        );
        if link.dest.contains('\\') {
            out.emit(
                &SK407,
                Some(span),
                format!("link `{}` uses `\\` as a path separator", link.dest),
            )
            .label("backslash")
            .help(format!("use `/`: `{}`", link.dest.replace('\\', "/")));
        }
        match resolve(&link.dest) {
            Target::NotAFile => {}
            Target::Absolute(path) => {
                out.emit(&SK405, Some(span), format!("link `{}` is an absolute path", link.dest))
                    .label("outside the skill")
                    .help(format!("link files inside the skill with paths relative to its root; `{path}` will not exist where the skill is installed"));
            }
            Target::Escapes(_) => {
                out.emit(&SK405, Some(span), format!("link `{}` resolves outside the skill directory", link.dest))
                    .label("outside the skill")
                    .help("copy the file into the skill (e.g. under references/) and link it there: only the skill directory is installed");
            }
            Target::Inside(rel) if rel.is_empty() => {}
            Target::Inside(rel) => {
                if !tree.contains(&dir.real, &rel) {
                    out.emit(
                        &SK404,
                        Some(span),
                        format!(
                            "link `{}` names a file that does not exist in the skill",
                            link.dest
                        ),
                    )
                    .label("no such file")
                    .help(format!("create `{rel}` or fix the link"));
                } else if rel.matches('/').count() > 1 {
                    out.emit(&SK406, Some(span), format!("`{rel}` is more than one directory below the skill root"))
                        .label("too deep")
                        .help("agents read references one level deep: move it directly under references/ (or link it from a file there)");
                }
                linked.push(rel);
            }
        }
    }
    unreferenced(dir, body, tree, &linked, out);
}

fn length(file: &SkillFile, layout: &Layout, body: &str, out: &mut Reporter) {
    if super::identity::is_blank(body) {
        out.emit(&SK403, Some(layout.close), "the body is empty: the skill loads no instructions")
            .label("nothing after this line")
            .help("write the instructions the agent follows when the skill is active: when to use it, the steps, examples");
        return;
    }
    let lines = body.lines().count();
    if lines > BODY_MAX_LINES {
        let first = file.line_of(layout.body.start);
        let span = file.line_span(first + BODY_MAX_LINES);
        out.emit(&SK401, Some(span), format!("the body is {lines} lines long; the limit is {BODY_MAX_LINES}"))
            .label(format!("line {} of the body", BODY_MAX_LINES + 1))
            .help("keep the core steps in the body and move detail into references/ files that it links (progressive disclosure)");
    }
}

/// SK402: more than [`BODY_MAX_TOKENS`] tokens, with the exact count. A body of at most that
/// many bytes cannot have more tokens, so most skills are never tokenized; a body that stays
/// under the limit is counted only until that is certain; only a body over it is counted in full.
fn tokens(layout: &Layout, body: &str, settings: &Settings, out: &mut Reporter) {
    if !crate::tokens::may_exceed(body, BODY_MAX_TOKENS) || !settings.enabled(&SK402) {
        return;
    }
    let Some(tokenizer) = crate::tokens::tokenizer(settings.encoding) else {
        return;
    };
    if !crate::tokens::exceeds(tokenizer, body, BODY_MAX_TOKENS) {
        return;
    }
    let count = grouped(tokenizer.count(body));
    let encoding = crate::tokens::encoding_name(settings.encoding);
    let start = Span::new(layout.body.start, layout.body.start);
    out.emit(&SK402, Some(start), format!("the body has {count} tokens; the limit is {BODY_MAX_TOKENS} ({encoding})"))
        .label("the body starts here")
        .help("an agent loads the whole body when the skill activates: keep the core steps here and move detail into references/ files that it links");
}

/// `6123` → `6,123`, as `skillc tokens` prints counts.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// SK412: files under references/, resources/ or scripts/ that the body never names.
fn unreferenced(
    dir: &SkillDir,
    body: &str,
    tree: &SkillTree,
    linked: &[String],
    out: &mut Reporter,
) {
    for entry in &tree.entries {
        if !entry.is_file()
            || !DISCOVERABLE.iter().any(|d| entry.rel.starts_with(d))
            || entry
                .rel
                .split('/')
                .any(|part| part.starts_with('.') || part == "__pycache__")
            || entry.rel.ends_with(".pyc")
        {
            continue;
        }
        if body.contains(&entry.rel) || linked.contains(&entry.rel) {
            continue;
        }
        out.emit_file(&SK412, dir.dir.join(&entry.rel), format!("`{}` is never mentioned in the body", entry.rel))
            .help(format!("link it where the agent needs it, e.g. `[{}]({})`, or remove it: the model cannot discover it otherwise", entry.name(), entry.rel));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_destinations() {
        assert_eq!(resolve("https://x.y/z"), Target::NotAFile);
        assert_eq!(resolve("mailto:a@b.c"), Target::NotAFile);
        assert_eq!(resolve("#usage"), Target::NotAFile);
        assert_eq!(
            resolve("references/a%20b.md#part?x"),
            Target::Inside("references/a b.md".into())
        );
        assert_eq!(
            resolve("./scripts/../scripts/run.py"),
            Target::Inside("scripts/run.py".into())
        );
        assert_eq!(
            resolve("references\\api.md"),
            Target::Inside("references/api.md".into())
        );
        assert_eq!(
            resolve("../other/x.md"),
            Target::Escapes("../other/x.md".into())
        );
        assert_eq!(
            resolve("/etc/passwd"),
            Target::Absolute("/etc/passwd".into())
        );
        assert_eq!(resolve("C:\\x.md"), Target::Absolute("C:/x.md".into()));
    }
}
