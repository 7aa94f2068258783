//! Body rules: SK401–SK405 and SK407 — the instructions and the links they hold. The files the
//! links lead to (SK406, SK412) are followed in [`super::references`].

use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::diagnostic::Span;
use crate::files::{Entry, SkillTree};
use crate::fix::{Applicability, Fix};
use crate::markdown::Link;
use crate::skill::{Reporter, Text};
use crate::source::{Layout, SkillFile};

crate::rule::declare! {
    SK401 "body-too-long" Warning Both
        needs(frontmatter)
        "The body has more than 500 lines.";
    SK402 "body-too-many-tokens" Warning Both
        tags(tokens)
        needs(frontmatter)
        "The body has more than 5000 tokens.";
    SK403 "empty-body" Warning Both
        needs(frontmatter)
        "The body has no non-blank line.";
    SK404 "broken-link" Error Both
        needs(frontmatter)
        fix(unsafe relinks "link the near match (`reference/x.md` → `references/x.md`), when it needs no escaping in a link")
        "A relative link or image in the body names a file that does not exist.";
    SK405 "link-escapes-skill" Warning Both
        needs(frontmatter)
        "A link resolves to an existing file outside the skill directory, or is absolute.";
    SK407 "windows-path" Warning Both
        needs(frontmatter)
        fix(safe relinks "`\\` → `/` in the link")
        "A link uses `\\` as a path separator.";
}

/// The most tokens a body should have (SK402).
pub const BODY_MAX_TOKENS: usize = 5000;

/// The most lines a body should have.
pub const BODY_MAX_LINES: usize = 500;

/// At most this many broken links of one skill get a near-match search (the rest are over
/// the per-rule cap anyway).
const MAX_NEAR_MATCH_SEARCHES: usize = 100;

/// Where a link destination leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Not checked: a URL, an anchor, empty, or a template holding a placeholder that none of
    /// the skill's targets substitutes (`${X}`, `{{x}}`, `<x>`, `{x}`, `$X`).
    Unchecked,
    /// An absolute path (`/…`, `C:/…`, `~/…`), `/`-separated.
    Absolute(String),
    /// A path inside the skill: relative to its root, `/`-separated, without `.` or `..`
    /// (empty for the root itself).
    Inside(String),
    /// A path outside the skill, resolved lexically. `plugin`: reached through the plugin-root
    /// placeholder and still inside the plugin, which is installed whole.
    Outside { path: PathBuf, plugin: bool },
}

/// Resolves link destinations for one skill: against its real directory, after substituting
/// its targets' placeholders. Resolution is lexical: nothing is read, no link is followed.
#[derive(Debug, Clone, Copy)]
pub struct Resolver<'a> {
    /// The skill's canonical directory.
    pub skill: &'a Path,
    /// Placeholders and the directories they stand for (runtimes.md).
    pub placeholders: &'a [(&'static str, PathBuf)],
    /// The folder installed together with the skill, when every target installs more than the
    /// skill (a Claude Code plugin): links to files in it keep working.
    pub installed_with: Option<&'a Path>,
}

impl Resolver<'_> {
    /// Resolves `dest` written in a file whose directory is `from` (relative to the skill root,
    /// `/`-separated; empty for the skill file). URL schemes, `//host` and `#anchors` are not
    /// files; `#fragment` and `?query` are dropped; percent-encoding is decoded; `\` counts as
    /// a separator.
    pub fn resolve(&self, dest: &str, from: &str) -> Target {
        let dest = dest.trim();
        if dest.is_empty() || dest.starts_with('#') || dest.starts_with("//") || has_scheme(dest) {
            return Target::Unchecked;
        }
        let path = dest.split(['#', '?']).next().unwrap_or("");
        let path = String::from_utf8_lossy(&crate::encode::percent_decode(path)).replace('\\', "/");
        if path.is_empty() {
            return Target::Unchecked;
        }
        // A placeholder stands for a directory: a path goes on after a `/` (`{baseDir}x.md`
        // would name a sibling of the skill, not a file in it, so it is not resolved).
        let (base, rest, plugin) = match self.placeholders.iter().find(|(text, _)| {
            path.strip_prefix(text)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        }) {
            Some((text, dir)) => (
                dir.clone(),
                path[text.len()..].to_string(),
                dir.as_path() != self.skill,
            ),
            None if is_template(&path) || is_command(&path) => return Target::Unchecked,
            None if is_absolute(&path) => return Target::Absolute(path),
            None => (self.skill.join(from), path, false),
        };
        if is_template(&rest) {
            return Target::Unchecked;
        }
        let resolved = join(&base, &rest);
        match resolved.strip_prefix(self.skill) {
            Ok(rel) => Target::Inside(
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/"),
            ),
            Err(_) => Target::Outside {
                plugin: (plugin && resolved.starts_with(&base))
                    || self
                        .installed_with
                        .is_some_and(|dir| resolved.starts_with(dir)),
                path: resolved,
            },
        }
    }
}

/// `base` joined with the `/`-separated `rel`, `.` and `..` applied lexically (`..` at the file
/// system's root stays there, as the system does).
fn join(base: &Path, rel: &str) -> PathBuf {
    let mut path = base.to_path_buf();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                path.pop();
            }
            other => path.push(other),
        }
    }
    path
}

/// A Claude Code command reference such as `/plugin:skill`: an invocation, not a file.
fn is_command(path: &str) -> bool {
    path.strip_prefix('/').is_some_and(|rest| {
        rest.contains(':')
            && !rest.starts_with(':')
            && rest.bytes().all(|b| {
                b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_' || b == b':'
            })
    })
}

/// `/…`, a drive (`C:`) or the home directory (`~/…`).
fn is_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with('/')
        || path == "~"
        || path.starts_with("~/")
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
}

/// Whether a path holds a placeholder of some template language: `${…}`, `$NAME`, `{{…}}`,
/// `<…>` or `{word}`. Such a link is filled in by something skillc does not know.
fn is_template(path: &str) -> bool {
    if path.contains("{{") || path.contains("${") || (path.contains('<') && path.contains('>')) {
        return true;
    }
    let bytes = path.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        match b {
            b'$' => next.is_ascii_alphabetic() || next == b'_',
            b'{' => path[i + 1..].split_once('}').is_some_and(|(word, _)| {
                !word.is_empty()
                    && word
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
            }),
            _ => false,
        }
    })
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

/// A path as printed: without a leading `./`.
pub fn shown(path: &str) -> &str {
    let mut path = path;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest;
    }
    path
}

/// Runs the body rules. `placeholders` are the skill's targets' path placeholders with the
/// directories they stand for (runtimes.md). Returns the other files that diagnostics point
/// into (linked Markdown files, for SK406).
#[allow(clippy::too_many_arguments)]
pub fn check(text: &Text, out: &mut Reporter) -> Vec<SkillFile> {
    let Text {
        dir,
        file,
        layout,
        tree,
        links,
        settings,
        placeholders,
        installed_with,
        read,
    } = *text;
    let body = file.slice(layout.body);
    length(file, layout, body, out);
    tokens(layout, body, settings, out);
    let real = dir.real_path();
    let resolver = Resolver {
        skill: &real,
        placeholders,
        installed_with,
    };
    let linked = check_links(&resolver, layout, tree, links, out);
    if settings.enabled(&super::mentions::SK414) {
        super::mentions::check(
            &resolver,
            tree,
            body,
            layout.body.start,
            "",
            Some(links),
            out,
        );
    }
    let skill_file = file.path.file_name().map_or_else(
        || "SKILL.md".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let body = super::references::Body {
        file: &file.text,
        text: body,
        skill_file: &skill_file,
        linked: &linked,
        read,
    };
    super::references::check(dir, &resolver, tree, &body, settings, out)
}

/// SK407's fix: every `\\` of the destination written at `span` as `/`, when what is written
/// is the destination itself, its backslashes escaped (`\\\\`) or not, with no other escape (not
/// the whole link either).
fn slash_fix(written: Option<&str>, dest: &str, span: Span) -> Option<Fix> {
    let written = written?;
    (written == dest || written.replace("\\\\", "\\") == dest).then(|| {
        Fix::replace(
            Applicability::Safe,
            "use `/`",
            span,
            written.replace("\\\\", "/").replace('\\', "/"),
        )
    })
}

/// Whether any enabled rule reads the body's links (SK404, SK405, SK407 on the links
/// themselves; SK406, SK412 and SK414 through the files they lead to): when none does, the
/// body is not parsed for them (`--select security` runs no body rule).
pub fn wants_links(settings: &Settings) -> bool {
    [
        &SK404,
        &SK405,
        &SK407,
        &super::references::SK406,
        &super::references::SK412,
        &super::mentions::SK414,
    ]
    .iter()
    .any(|rule| settings.enabled(rule))
}

/// SK404, SK405 and SK407 on the body's links; returns the files and directories of the skill
/// they lead to, in order.
fn check_links(
    resolver: &Resolver,
    layout: &Layout,
    tree: &SkillTree,
    links: &[Link],
    out: &mut Reporter,
) -> Vec<String> {
    let mut linked = Vec::new();
    let mut near = NearMatch::new(&tree.entries);
    for link in links {
        let span = Span::new(
            layout.body.start + link.span.start,
            layout.body.start + link.span.end,
        );
        let dest = shown(&link.dest);
        if link.dest.contains('\\') {
            let fix = slash_fix(out.text(span), &link.dest, span);
            let d = out
                .emit(
                    &SK407,
                    Some(span),
                    format!("link `{dest}` uses `\\` as a path separator"),
                )
                .label("backslash")
                .help(format!("use `/`: `{}`", dest.replace('\\', "/")));
            if let Some(fix) = fix {
                d.fix(fix);
            }
        }
        match resolver.resolve(&link.dest, "") {
            Target::Unchecked => {}
            Target::Absolute(path) => {
                out.emit(&SK405, Some(span), format!("link `{dest}` is an absolute path"))
                    .label("outside the skill")
                    .help(format!("link files inside the skill with paths relative to its root; `{path}` will not exist where the skill is installed"));
            }
            Target::Inside(rel) if rel.is_empty() => {}
            Target::Inside(rel) => {
                if tree.contains(resolver.skill, &rel) {
                    linked.push(rel);
                    continue;
                }
                let hint = near.find(&rel);
                // The near match replaces a destination written as a plain path from the
                // skill's root; whether it is the file meant is a guess.
                // A name a link destination cannot hold as it is (a space, brackets) is no fix.
                let fix = hint
                    .as_ref()
                    .filter(|near| !near.contains([' ', '(', ')', '<', '>', '\\']))
                    .and_then(|near| {
                        (out.text(span)? == link.dest && link.dest == rel).then(|| {
                            Fix::replace(
                                Applicability::Unsafe,
                                format!("link `{near}`"),
                                span,
                                near.to_string(),
                            )
                        })
                    });
                let d = out
                    .emit(
                        &SK404,
                        Some(span),
                        format!("link `{dest}` names a file that does not exist in the skill"),
                    )
                    .label("no such file");
                match hint {
                    Some(near) => d.help(format!("did you mean `{near}`?")),
                    None => d.help(format!("create `{rel}` or fix the link")),
                };
                if let Some(fix) = fix {
                    d.fix(fix);
                }
            }
            Target::Outside { path, plugin } => outside(resolver, span, dest, &path, plugin, out),
        }
    }
    linked
}

/// A link that leads out of the skill: fine inside its plugin, SK405 when the file exists,
/// SK404 when it does not (only its existence is checked; it is never read).
fn outside(
    resolver: &Resolver,
    span: Span,
    dest: &str,
    path: &Path,
    plugin: bool,
    out: &mut Reporter,
) {
    let exists = std::fs::metadata(path).is_ok();
    if plugin && exists {
        return;
    }
    if !exists {
        let d = out
            .emit(
                &SK404,
                Some(span),
                format!("link `{dest}` names a file that does not exist"),
            )
            .label("no such file");
        match plugin_relative(resolver, path).filter(|_| plugin) {
            Some((_, rel)) => d.help(format!("the plugin has no `{rel}`: fix the path or add the file")),
            None => d.help("fix the path; a file the skill needs belongs inside it (e.g. under references/), as only the skill directory is installed"),
        };
        return;
    }
    let d = out
        .emit(
            &SK405,
            Some(span),
            format!("link `{dest}` resolves outside the skill directory"),
        )
        .label("outside the skill");
    match plugin_relative(resolver, path) {
        Some((placeholder, rel)) => d.help(format!("the skill's plugin is installed whole: link it as `{placeholder}/{rel}`, or copy the file into the skill")),
        None => d.help("copy the file into the skill (e.g. under references/) and link it there: only the skill directory is installed"),
    };
}

/// The plugin-root placeholder and the path below it, when `path` lies inside the skill's
/// plugin.
fn plugin_relative(resolver: &Resolver, path: &Path) -> Option<(&'static str, String)> {
    resolver.placeholders.iter().find_map(|(text, dir)| {
        if dir.as_path() == resolver.skill {
            return None;
        }
        let rel = path.strip_prefix(dir).ok()?;
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        (!rel.is_empty()).then(|| (*text, rel.join("/")))
    })
}

/// At most this much work (components compared, characters scanned, table cells filled) is
/// spent on near-match searches per skill; later broken links get the plain help.
const MAX_NEAR_MATCH_WORK: usize = 1 << 25;

/// The most edits a near match may differ by, in all.
const MAX_NEAR_EDITS: usize = 2;

/// Near-match searches for one skill's broken links, under [`MAX_NEAR_MATCH_SEARCHES`] and
/// [`MAX_NEAR_MATCH_WORK`]. The entries' lower-cased components are made once, at the first
/// search.
pub(super) struct NearMatch<'t> {
    tree: &'t [Entry],
    /// Each entry's components, lower-cased, with their lengths in characters.
    entries: Option<Vec<Vec<(String, usize)>>>,
    searches: usize,
    work: usize,
}

impl<'t> NearMatch<'t> {
    pub(super) fn new(tree: &'t [Entry]) -> Self {
        NearMatch {
            tree,
            entries: None,
            searches: 0,
            work: 0,
        }
    }

    /// An entry of the skill whose path is close to the missing `rel`: the same path in another
    /// case, a path whose components differ by at most two edits in all (`reference/` for
    /// `references/`), or a file of the same name elsewhere in the skill. `None` also once the
    /// skill's searches or work are spent.
    pub(super) fn find(&mut self, rel: &str) -> Option<&'t str> {
        self.searches += 1;
        if self.searches > MAX_NEAR_MATCH_SEARCHES || self.work > MAX_NEAR_MATCH_WORK {
            return None;
        }
        let tree = self.tree;
        let entries = self.entries.get_or_insert_with(|| {
            tree.iter()
                .map(|e| e.rel.split('/').map(lowered).collect())
                .collect()
        });
        self.work += entries.len();
        let want: Vec<(String, usize)> = rel.split('/').map(lowered).collect();
        let name = want.last()?;
        let mut best: Option<(usize, usize)> = None;
        for (i, have) in entries.iter().enumerate() {
            if self.work > MAX_NEAR_MATCH_WORK {
                return None;
            }
            let score = if have.len() == want.len() {
                edits(&want, have, &mut self.work).map(|d| d + 1)
            } else {
                None
            };
            let score = score.or_else(|| {
                let same = tree[i].is_file() && have.last() == Some(name);
                same.then_some(10 + have.len())
            });
            if let Some(score) = score
                && best.is_none_or(|(b, _)| score < b)
            {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| tree[i].rel.as_str())
    }
}

/// A path component lower-cased, with its length in characters.
fn lowered(part: &str) -> (String, usize) {
    let lower = part.to_lowercase();
    let chars = lower.chars().count();
    (lower, chars)
}

/// The edits between two paths of as many components, when at most [`MAX_NEAR_EDITS`] in all
/// and each changed component keeps more than half its characters. `work` counts what is
/// compared.
fn edits(want: &[(String, usize)], have: &[(String, usize)], work: &mut usize) -> Option<usize> {
    let mut total = 0;
    for ((w, wn), (h, hn)) in want.iter().zip(have) {
        *work += 1;
        if wn.abs_diff(*hn) > MAX_NEAR_EDITS - total {
            return None;
        }
        if w == h {
            continue;
        }
        let d = levenshtein(w, h, MAX_NEAR_EDITS - total, work)?;
        if d * 2 >= (*wn).max(*hn) {
            return None;
        }
        total += d;
    }
    Some(total)
}

/// The edit distance of `a` and `b`, when at most `limit`. Their common prefix and suffix are
/// set aside, and only the cells within `limit` of the diagonal are filled: the work, added to
/// `work`, is linear in the strings' length.
fn levenshtein(a: &str, b: &str, limit: usize, work: &mut usize) -> Option<usize> {
    let prefix = common_prefix(a, b);
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = common_suffix(a, b);
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    *work += prefix + suffix;
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    // Cells outside the band hold `limit + 1`: more than any distance that counts.
    let over = limit + 1;
    let mut prev: Vec<usize> = (0..=b.len()).map(|j| j.min(over)).collect();
    let mut row = vec![over; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        let lo = (i + 1).saturating_sub(limit);
        let hi = (i + 1 + limit).min(b.len());
        row[lo.saturating_sub(1)] = if lo == 0 { (i + 1).min(over) } else { over };
        if let Some(cell) = row.get_mut(hi + 1) {
            *cell = over;
        }
        let mut least = if lo == 0 { row[0] } else { over };
        for j in lo.max(1)..=hi {
            let cost = usize::from(*ca != b[j - 1]);
            let cell = (prev[j - 1] + cost).min(prev[j] + 1).min(row[j - 1] + 1);
            row[j] = cell.min(over);
            least = least.min(row[j]);
        }
        *work += (hi + 1).saturating_sub(lo);
        if least > limit {
            return None;
        }
        std::mem::swap(&mut prev, &mut row);
    }
    prev.last().copied().filter(|&d| d <= limit)
}

/// The length in bytes of the longest common prefix of `a` and `b` made of whole characters.
fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !a.is_char_boundary(n) {
        n -= 1;
    }
    n
}

/// The length in bytes of the longest common suffix of `a` and `b` made of whole characters.
fn common_suffix(a: &str, b: &str) -> usize {
    let mut n = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count();
    while !a.is_char_boundary(a.len() - n) {
        n -= 1;
    }
    n
}

/// The lines of `text`, as `str::lines` counts them (a last line needs no newline), found by
/// a vectorised search for newlines.
fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count()
        + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

fn length(file: &SkillFile, layout: &Layout, body: &str, out: &mut Reporter) {
    if super::identity::is_blank(body) {
        out.emit(&SK403, Some(layout.close), "the body is empty: the skill loads no instructions")
            .label("nothing after this line")
            .help("write the instructions the agent follows when the skill is active: when to use it, the steps, examples");
        return;
    }
    let lines = line_count(body);
    if lines > BODY_MAX_LINES {
        let first = file.line_of(layout.body.start);
        let span = file.line_span(first + BODY_MAX_LINES);
        out.emit(&SK401, Some(span), format!("the body is {} lines long; the limit is {}", crate::diagnostic::thousands(lines), crate::diagnostic::thousands(BODY_MAX_LINES)))
            .label(format!("line {} of the body", BODY_MAX_LINES + 1))
            .help("keep the core steps in the body and move detail into references/ files that it links (progressive disclosure)");
    }
}

/// SK402: more than [`BODY_MAX_TOKENS`] tokens, with the exact count. A body of at most that
/// many bytes cannot have more tokens, so most skills are never tokenized; a body that stays
/// under the limit is counted only until that is certain; a body over it is counted once, in
/// full.
fn tokens(layout: &Layout, body: &str, settings: &Settings, out: &mut Reporter) {
    if !crate::tokens::may_exceed(body, BODY_MAX_TOKENS) || !settings.enabled(&SK402) {
        return;
    }
    let Some(tokenizer) = crate::tokens::tokenizer(settings.encoding) else {
        return;
    };
    let Some(count) = crate::tokens::count_over(tokenizer, body, BODY_MAX_TOKENS) else {
        return;
    };
    let count = crate::diagnostic::thousands(count);
    let encoding = crate::tokens::encoding_name(settings.encoding);
    let start = Span::new(layout.body.start, layout.body.start);
    let limit = crate::diagnostic::thousands(BODY_MAX_TOKENS);
    out.emit(&SK402, Some(start), format!("the body has {count} tokens; the limit is {limit} ({encoding})"))
        .label("the body starts here")
        .help("an agent loads the whole body when the skill activates: keep the core steps here and move detail into references/ files that it links");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_count_counts_as_lines_does() {
        for text in [
            "",
            "a",
            "a\n",
            "\n",
            "\n\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\n\nb\n\n",
            " ",
        ] {
            assert_eq!(line_count(text), text.lines().count(), "{text:?}");
        }
    }

    fn resolve(dest: &str) -> Target {
        let skill = Path::new("/r/plugin/skills/s");
        let placeholders = [
            ("${CLAUDE_SKILL_DIR}", skill.to_path_buf()),
            ("{baseDir}", skill.to_path_buf()),
            ("${CLAUDE_PLUGIN_ROOT}", PathBuf::from("/r/plugin")),
        ];
        let resolver = Resolver {
            skill,
            placeholders: &placeholders,
            installed_with: None,
        };
        resolver.resolve(dest, "")
    }

    fn inside(rel: &str) -> Target {
        Target::Inside(rel.into())
    }

    #[test]
    fn resolves_destinations() {
        assert_eq!(resolve("https://x.y/z"), Target::Unchecked);
        assert_eq!(resolve("mailto:a@b.c"), Target::Unchecked);
        assert_eq!(resolve("#usage"), Target::Unchecked);
        assert_eq!(
            resolve("references/a%20b.md#part?x"),
            inside("references/a b.md")
        );
        assert_eq!(
            resolve("./scripts/../scripts/run.py"),
            inside("scripts/run.py")
        );
        assert_eq!(resolve("references\\api.md"), inside("references/api.md"));
        assert_eq!(resolve("../s/x.md"), inside("x.md"));
        assert_eq!(
            resolve("../other/x.md"),
            Target::Outside {
                path: "/r/plugin/skills/other/x.md".into(),
                plugin: false
            }
        );
        assert_eq!(
            resolve("/etc/passwd"),
            Target::Absolute("/etc/passwd".into())
        );
        assert_eq!(resolve("C:\\x.md"), Target::Absolute("C:/x.md".into()));
        assert_eq!(resolve("~/notes.md"), Target::Absolute("~/notes.md".into()));
        // Claude Code's command references are invocations, not files.
        assert_eq!(resolve("/uipath:uipath-solution"), Target::Unchecked);
        assert_eq!(resolve("/etc:x/y"), Target::Absolute("/etc:x/y".into()));
    }

    #[test]
    fn substitutes_placeholders_and_skips_templates() {
        assert_eq!(
            resolve("{baseDir}/references/x.md"),
            inside("references/x.md")
        );
        assert_eq!(resolve("{baseDir}references/x.md"), Target::Unchecked);
        assert_eq!(
            resolve("${CLAUDE_SKILL_DIR}/jobs/a.md"),
            inside("jobs/a.md")
        );
        assert_eq!(
            resolve("${CLAUDE_PLUGIN_ROOT}/skills/s/a.md"),
            inside("a.md")
        );
        assert_eq!(
            resolve("${CLAUDE_PLUGIN_ROOT}/scripts"),
            Target::Outside {
                path: "/r/plugin/scripts".into(),
                plugin: true
            }
        );
        assert_eq!(
            resolve("${CLAUDE_PLUGIN_ROOT}/../x.md"),
            Target::Outside {
                path: "/r/x.md".into(),
                plugin: false
            }
        );
        for template in [
            "${OTHER}/x.md",
            "{{ dir }}/x.md",
            "<skill-dir>/x.md",
            "{dir}/x.md",
            "$HOME/x.md",
            "references/{name}.md",
        ] {
            assert_eq!(resolve(template), Target::Unchecked, "{template}");
        }
    }

    #[test]
    fn finds_near_matches() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("references")).unwrap();
        std::fs::write(dir.path().join("references/api.md"), "").unwrap();
        std::fs::write(dir.path().join("Guide.md"), "").unwrap();
        let tree = SkillTree::walk(dir.path());
        let mut near = NearMatch::new(&tree.entries);
        assert_eq!(near.find("reference/api.md"), Some("references/api.md"));
        assert_eq!(near.find("guide.md"), Some("Guide.md"));
        assert_eq!(near.find("api.md"), Some("references/api.md"));
        assert_eq!(near.find("references/other.md"), None);
        assert_eq!(shown("././a/b.md"), "a/b.md");
    }

    /// The edit distance by the whole table, to check the banded one against.
    fn full_distance(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut row = vec![i + 1; b.len() + 1];
            for (j, cb) in b.iter().enumerate() {
                let cost = usize::from(ca != cb);
                row[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
            }
            prev = row;
        }
        prev[b.len()]
    }

    #[test]
    fn banded_distance_agrees_with_the_whole_table() {
        // Every pair of strings over a small alphabet up to length 5, and a few long ones.
        let mut words = vec![String::new()];
        for len in 1..=5 {
            let mut next = Vec::new();
            for w in words.iter().filter(|w| w.chars().count() == len - 1) {
                for c in ['a', 'b', 'é'] {
                    next.push(format!("{w}{c}"));
                }
            }
            words.extend(next);
        }
        let sample: Vec<&String> = words.iter().step_by(7).collect();
        for a in &sample {
            for b in &sample {
                let want = full_distance(a, b);
                for limit in 0..=3 {
                    let got = levenshtein(a, b, limit, &mut 0);
                    assert_eq!(got, (want <= limit).then_some(want), "{a} {b} {limit}");
                }
            }
        }
        let long = "x".repeat(300);
        let cases = [
            (format!("a{long}b"), format!("c{long}d"), Some(2)),
            (format!("{long}1"), format!("{long}1q"), Some(1)),
            (format!("{long}ab"), format!("{long}ba"), Some(2)),
            (format!("ab{long}"), format!("{long}ab"), None),
        ];
        for (a, b, want) in cases {
            assert_eq!(levenshtein(&a, &b, 2, &mut 0), want);
        }
    }

    /// Thousands of long names and a hundred broken links: the search is bounded (before, each
    /// link compared every entry with a full table: hours).
    #[test]
    fn near_match_searches_are_bounded() {
        let long = "x".repeat(240);
        let mut entries: Vec<Entry> = (0..20_000)
            .map(|i| Entry {
                rel: format!("r/{long}{i}"),
                kind: crate::files::Kind::File {
                    size: 0,
                    executable: false,
                },
            })
            .collect();
        entries.sort_by(|a, b| a.rel.cmp(&b.rel));
        let mut near = NearMatch::new(&entries);
        let first = near.find(&format!("r/{long}5q"));
        assert_eq!(first, Some(format!("r/{long}5").as_str()));
        for i in 0..MAX_NEAR_MATCH_SEARCHES {
            near.find(&format!("r/{long}{i}q"));
        }
        assert!(near.work <= MAX_NEAR_MATCH_WORK + 20_000 * 300);
        assert_eq!(near.find(&format!("r/{long}5q")), None);
    }
}
