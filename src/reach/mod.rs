//! The reach of references: which of a skill's files the model is led to, from the skill
//! file's links and mentions through every text it reaches, and the reference chains among
//! them. Computed once per skill, for the rules that report on it (SK406, SK412).
//!
//! A read cache (`read.rs`) over a bit index of the skill's files (`index.rs`, which `kinds.rs`
//! sorts), a tokenizer that finds what texts mention (`mention.rs`), the globs they write
//! (`glob.rs`, matched by `globset`), and the reachability that follows them (`follow.rs`).
//!
//! Files are read only inside the skill's real directory and outside the skills nested in it,
//! each at most once per rule and under a cap (the first [`MAX_READ`] bytes of each,
//! [`MAX_SCANNED_BYTES`] and [`MAX_SCANNED_FILES`] per skill); links are resolved lexically and
//! never followed out of the skill. All work is linear in the skill's files and texts.

mod follow;
mod glob;
mod index;
mod kinds;
mod mention;
mod path;
mod read;

use foldhash::{HashSet, HashSetExt};
use std::path::Path;

use crate::diagnostic::Span;
use crate::files::SkillTree;
use crate::markdown;
use follow::{Key, Mentions, Names, Reach};
use index::Index;
use kinds::{IMAGES, MARKDOWN, PACKAGE_FILES, TextKind, ignored, is_candidate};
use path::{has_extension, parent};
use read::Reader;

/// At most this much of each file is read to follow its links and mentions (the first bytes
/// of a larger file: as much as a model reads of it).
pub const MAX_READ: u64 = crate::input::TEXT_READ;
/// At most this many bytes are read per skill to follow mentions.
pub const MAX_SCANNED_BYTES: u64 = 32 << 20;
/// At most this many files are read per skill to follow mentions.
pub const MAX_SCANNED_FILES: usize = 4096;

/// Where a link destination (`dest`, written in a text whose folder is `from`, relative to the
/// skill's root) leads inside the skill: its path from the root (empty for the root itself), or
/// `None` when it leads elsewhere or is not a file's.
pub type Resolve<'a> = dyn Fn(&str, &str) -> Option<String> + 'a;

/// What the skill file says, as the body rules saw it.
pub struct Body<'a> {
    /// The whole skill file (the frontmatter's hooks and allowed tools name scripts too).
    pub file: &'a str,
    /// The body.
    pub text: &'a str,
    /// The skill file's name (`SKILL.md`).
    pub skill_file: &'a str,
    /// The files and folders of the skill the body links, in order.
    pub linked: &'a [String],
    /// Other files of the skill read whole already, by path from its root: not read again.
    pub read: &'a [(String, String)],
}

/// The facts a run needs: each is computed only when asked for.
#[derive(Debug, Clone, Copy)]
pub struct Wants {
    /// The reference chains ([`Reached::chains`]).
    pub chains: bool,
    /// Whether each discoverable file is reached ([`Reached::discoverable`]).
    pub discoverable: bool,
    /// The full texts of the Markdown files the skill file links ([`Reached::read`]).
    pub linked: bool,
}

/// A Markdown file the skill file links that links on to files of the skill the skill file
/// neither links nor mentions.
#[derive(Debug)]
pub struct Chain {
    /// The linked file, from the skill's root.
    pub first: String,
    /// Its text, up to the end of the line of its last second hop.
    pub text: String,
    /// Each link of it to such a file (its span in `text`) and that file, in order.
    pub hops: Vec<(Span, String)>,
}

/// The reach of a skill's references.
#[derive(Debug, Default)]
pub struct Reached<'t> {
    /// The reference chains (the skill file → a file it links → a file only that one links),
    /// once per file reached that way; none when what the skill file mentions cannot be told.
    pub chains: Vec<Chain>,
    /// The files under references/, resources/ or scripts/ that the model should be told about
    /// (neither caches nor tooling, outside nested skills), sorted, each with whether something
    /// the model reads mentions it; `None` when not asked for, when there are none, or when it
    /// cannot be told (past the caps, or a lookup given up).
    pub discoverable: Option<Vec<(&'t str, bool)>>,
    /// The texts read in full on the way, by path (below [`MAX_READ`] bytes), for the rules
    /// that read the skill's files after these.
    pub read: Vec<(String, String)>,
}

/// The reach of the references of the skill whose real directory is `root` and whose files are
/// `tree`, followed from its skill file (`body`), links resolved by `resolve`.
pub fn of<'t>(
    root: &Path,
    tree: &'t SkillTree,
    resolve: &Resolve,
    body: &Body,
    wants: Wants,
) -> Reached<'t> {
    // Most skills hold nothing either fact looks at: no Markdown file beside the skill file
    // (no chain can start), no file under references/, resources/ or scripts/ that could be
    // unmentioned. Their bodies are not scanned at all.
    let other_markdown = tree
        .entries
        .iter()
        .any(|e| e.is_file() && has_extension(&e.rel, &MARKDOWN) && e.rel != body.skill_file);
    let discoverable = tree
        .entries
        .iter()
        .any(|e| e.is_file() && is_candidate(&e.rel));
    let want_chains = wants.chains && other_markdown;
    let want_linked = wants.linked && other_markdown && !body.linked.is_empty();
    let want_discoverable = wants.discoverable && discoverable;
    let mut reached = Reached::default();
    if !want_chains && !want_discoverable && !want_linked {
        return reached;
    }
    let index = Index::new(tree);
    // Its candidates may all be files of skills nested in it: then none can be unmentioned.
    let want_discoverable = want_discoverable && index.candidates > 0;
    if !want_chains && !want_discoverable && !want_linked {
        return reached;
    }
    // What the skill file mentions, scanned only when a fact needs more than its links.
    let mentions = std::cell::OnceCell::new();
    let mentions =
        || mentions.get_or_init(|| Mentions::of(&index, resolve, body.file, "", TextKind::Prose));
    // The chains' reader keeps what it read for the discoverable files', when they are wanted.
    let mut reader = Reader::new(root, &index, want_discoverable || want_linked).given(body.read);
    if want_chains || want_linked {
        // What the skill file itself links or mentions: one level, nothing followed further;
        // a path names the files it can be the end of, not every file of that name. Needed
        // only once a linked file links on to a file the body does not link.
        let direct = std::cell::OnceCell::new();
        let direct = || {
            direct.get_or_init(|| {
                let mut direct = Reach::new(&index, Names::ByPath);
                direct.follow_skill_file(body, mentions());
                direct
            })
        };
        reached.chains = chains(resolve, body, &index, direct, &mut reader, want_chains);
    }
    if want_discoverable {
        let mut reach = Reach::new(&index, Names::Loose);
        for rel in body.linked {
            reach.follow(Key::Path(rel.clone()));
        }
        // Every discoverable file is linked: the body's words cannot change that.
        if reach.pending > 0 {
            reach.take(mentions(), "", TextKind::Prose);
        }
        // Its own caps, and the texts the chains' reader read already.
        reader = reader.pass_on();
        reached.discoverable = followed(resolve, reach, &mut reader);
    }
    reached.read = reader.finish();
    reached
}

/// The reference chains: a Markdown file the body links that links on to a file of the skill
/// the body neither links nor mentions (`direct`: by the rules of SK412, a folder or a glob
/// included), at that second link, once per file reached that way. None when what the body
/// mentions cannot be told ([`Reach::incomplete`]). Each linked Markdown file read is kept for
/// [`Reached::read`]; its links are followed only when `hops_wanted`.
fn chains<'i, 't: 'i>(
    resolve: &Resolve,
    body: &Body,
    index: &'i Index<'t>,
    direct: impl Fn() -> &'i Reach<'i, 't>,
    reader: &mut Reader,
    hops_wanted: bool,
) -> Vec<Chain> {
    let linked: HashSet<&str> = body.linked.iter().map(String::as_str).collect();
    let mut chains = Vec::new();
    // Each file of the skill is judged once: reported as a second hop, or not one.
    let mut judged: HashSet<String> = HashSet::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for first in body.linked {
        if !seen.insert(first) || !has_extension(first, &MARKDOWN) || !index.has(first) {
            continue;
        }
        let Some((text, len)) = reader.read(first) else {
            continue;
        };
        let mut hops = Vec::new();
        let links = if hops_wanted {
            markdown::links(&text)
        } else {
            Vec::new()
        };
        for link in links {
            let Some(second) = resolve(&link.dest, parent(first)) else {
                continue;
            };
            if second == *first || !index.has(&second) || judged.contains(&second) {
                continue;
            }
            judged.insert(second.clone());
            if second.eq_ignore_ascii_case(body.skill_file)
                || linked.contains(second.as_str())
                || body.text.contains(second.as_str())
                || has_extension(&second, &IMAGES)
            {
                continue;
            }
            if direct().incomplete() {
                return Vec::new();
            }
            if direct().has(&second) {
                continue;
            }
            hops.push((Span::new(link.span.start, link.span.end), second));
        }
        let Some(last) = hops.iter().map(|(span, _)| span.end).max() else {
            reader.keep(first, len, text);
            continue;
        };
        // The snippets need the text up to the end of the last hop's line, no more.
        let end = text
            .get(last..)
            .and_then(|rest| rest.find('\n'))
            .map_or(text.len(), |i| last + i);
        let snippet = text.get(..end).unwrap_or(&text).to_string();
        reader.keep(first, len, text);
        chains.push(Chain {
            first: first.clone(),
            text: snippet,
            hops,
        });
    }
    chains
}

/// The discoverable files, each with whether it is reached. Followed from the skill file: every
/// file it links or names is read in turn (Markdown for its links and names, scripts for their
/// names, imports and folder literals), each once, until every discoverable file is reached.
fn followed<'t>(
    resolve: &Resolve,
    mut reach: Reach<'_, 't>,
    reader: &mut Reader,
) -> Option<Vec<(&'t str, bool)>> {
    // Once every discoverable file is reached, reading on cannot change the result.
    while reach.pending > 0
        && let Some(i) = reach.queue.pop_front()
    {
        let rel = reach.index.files[i];
        let Some(kind) = TextKind::of(rel) else {
            continue;
        };
        if ignored(rel) && !PACKAGE_FILES.iter().any(|p| rel.ends_with(p)) {
            continue;
        }
        let Some((text, len)) = reader.read(rel) else {
            continue;
        };
        reach.scan(resolve, &text, parent(rel), kind);
        reader.done(rel, len, text);
    }
    // Past the caps, a file may be mentioned only in what was not read: nothing is judged.
    if reader.capped || reach.incomplete() {
        return None;
    }
    let index = reach.index;
    Some(
        index
            .files
            .iter()
            .enumerate()
            .filter(|&(i, _)| index.candidate.get(i).copied().unwrap_or(false))
            .map(|(i, rel)| (*rel, reach.reached.get(i).copied().unwrap_or(false)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reach_of_a_skill_is_its_chains_and_its_discoverable_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let skill_file = "---\nname: x\n---\nSee [a](references/a.md); run `scripts/used.py`.\n";
        for (rel, text) in [
            ("SKILL.md", skill_file),
            ("references/a.md", "Then [b](b.md).\nMore.\n"),
            ("references/b.md", "b"),
            ("scripts/run.py", ""),
            ("scripts/used.py", ""),
        ] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let tree = SkillTree::walk(&root);
        let linked = ["references/a.md".to_string()];
        let body = Body {
            file: skill_file,
            text: skill_file,
            skill_file: "SKILL.md",
            linked: &linked,
            read: &[],
        };
        let resolve = |dest: &str, from: &str| path::resolve_lexically(from, dest);
        let all = Wants {
            chains: true,
            discoverable: true,
            linked: true,
        };
        let reached = of(&root, &tree, &resolve, &body, all);
        let [chain] = reached.chains.as_slice() else {
            panic!("{:?}", reached.chains);
        };
        assert_eq!(chain.first, "references/a.md");
        assert_eq!(chain.text, "Then [b](b.md).");
        let hops: Vec<&str> = chain.hops.iter().map(|(_, to)| to.as_str()).collect();
        assert_eq!(hops, ["references/b.md"]);
        assert_eq!(
            reached.discoverable.unwrap(),
            [
                ("references/a.md", true),
                ("references/b.md", true),
                ("scripts/run.py", false),
                ("scripts/used.py", true)
            ]
        );
        // Nothing asked for, nothing followed.
        let none = Wants {
            chains: false,
            discoverable: false,
            linked: false,
        };
        let reached = of(&root, &tree, &resolve, &body, none);
        assert!(reached.chains.is_empty() && reached.discoverable.is_none());
    }
}
