//! The reports on the files a skill's body leads to: SK406 (reference chains) and SK412 (files
//! nothing the model reads mentions). What the body leads to is [`crate::reach`]'s.

use foldhash::{HashSet, HashSetExt};

use super::body::{Resolver, Target};
use crate::config::Settings;
use crate::discover::SkillDir;
use crate::files::SkillTree;
use crate::reach::{self, Chain, Wants};
use crate::skill::Reporter;
use crate::source::SkillFile;

crate::rule::declare! {
    SK406 "reference-chain" Warning Both
        needs(frontmatter)
        tags(follows_links)
        "A file the body links links on to a file of the skill the body does not link.";
    SK412 "unreferenced-file" Info Both
        needs(frontmatter)
        tags(files)
        "A file under `references/`, `resources/` or `scripts/` that nothing the model reads mentions.";
}

pub use crate::reach::Body;

/// Runs SK406 and SK412; returns the files SK406 reports into.
pub fn check(
    dir: &SkillDir,
    resolver: &Resolver,
    tree: &SkillTree,
    body: &Body,
    settings: &Settings,
    out: &mut Reporter,
) -> Vec<SkillFile> {
    let wants = Wants {
        chains: settings.enabled(&SK406),
        discoverable: settings.enabled(&SK412),
        linked: settings.enabled(&super::mentions::SK414),
    };
    if !wants.chains && !wants.discoverable && !wants.linked {
        return Vec::new();
    }
    let resolve = |dest: &str, from: &str| match resolver.resolve(dest, from) {
        Target::Inside(rel) => Some(rel),
        _ => None,
    };
    let reached = reach::of(resolver.skill, tree, &resolve, body, wants);
    let mut files: Vec<SkillFile> = reached
        .chains
        .into_iter()
        .map(|chain| chains(dir, body, chain, out))
        .collect();
    // The other files read whole, for the rules that read the skill's files next: a chain's
    // file, kept up to its last hop, is replaced by its whole text (the security rules then
    // need not read it again; output keeps only the lines diagnostics point at).
    for (rel, text) in reached.read {
        let file = SkillFile::new(dir.path_of(&rel), text);
        let partial = files.iter().position(|f| f.path == file.path);
        let mut here = Reporter::new(Some(&file), file.path.clone(), dir.dir.clone());
        if wants.linked && body.linked.contains(&rel) && instructions(&rel) {
            super::mentions::check(resolver, tree, &file.text, 0, parent(&rel), None, &mut here);
        }
        out.diagnostics.extend(here.diagnostics);
        match partial {
            Some(i) => files[i] = file,
            None => files.push(file),
        }
    }
    if let Some(discoverable) = &reached.discoverable {
        unreferenced(dir, discoverable, out);
    }
    files
}

/// SK406: a Markdown file the body links that links on to a file of the skill the body neither
/// links nor mentions (a folder or a glob included), reported at that second link, once per file
/// reached that way. Returns the linked file, as far as the diagnostics show it.
fn chains(dir: &SkillDir, body: &Body, chain: Chain, out: &mut Reporter) -> SkillFile {
    let Chain { first, text, hops } = chain;
    let file = SkillFile::new(dir.path_of(&first), text);
    let mut here = Reporter::new(Some(&file), file.path.clone(), dir.dir.clone());
    // A chain that ends at an example, a template or a script is progressive disclosure
    // (`rules/animations.md` → `rules/assets/typewriter.tsx`): only instructions two links
    // away are read too late.
    for (span, second) in hops.into_iter().filter(|(_, second)| instructions(second)) {
        let skill = body.skill_file;
        here.emit(&SK406, Some(span), format!("`{second}` is two links away from the skill file: {skill} → {first} → {second}"))
            .label("second hop")
            .help(format!("link `{second}` from {skill} where the agent needs it, or merge it into `{first}`: keep references one level deep"));
    }
    out.diagnostics.extend(here.diagnostics);
    file
}

/// Whether a file of the skill holds instructions the agent reads (Markdown or text), by its
/// extension.
fn instructions(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let Some((_, ext)) = name.rsplit_once('.') else {
        return false;
    };
    ["md", "markdown", "mdx", "txt", "rst"]
        .iter()
        .any(|e| ext.eq_ignore_ascii_case(e))
}

/// The folder of `rel` (empty at the skill's root).
fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(folder, _)| folder)
}

/// SK412: one diagnostic per unmentioned file, or per folder (below references/, resources/ or
/// scripts/) none of whose files is mentioned. `discoverable`: the files SK412 may report, each
/// with whether it is mentioned ([`reach::Reached::discoverable`]).
fn unreferenced(dir: &SkillDir, discoverable: &[(&str, bool)], out: &mut Reporter) {
    // Folders that hold a mentioned file.
    let mut used: HashSet<&str> = HashSet::new();
    for &(rel, reached) in discoverable {
        if reached {
            let mut at = rel;
            while let Some(slash) = at.rfind('/') {
                at = &at[..slash];
                used.insert(at);
            }
        }
    }
    let mut folders: Vec<(&str, usize)> = Vec::new();
    let mut files: Vec<&str> = Vec::new();
    for &(rel, reached) in discoverable {
        if reached {
            continue;
        }
        // The outermost folder below the top one that holds no mentioned file.
        let folder = rel
            .match_indices('/')
            .skip(1)
            .map(|(at, _)| &rel[..at])
            .find(|f| !used.contains(f));
        match folder {
            Some(f) => match folders.iter_mut().find(|(g, _)| *g == f) {
                Some((_, n)) => *n += 1,
                None => folders.push((f, 1)),
            },
            None => files.push(rel),
        }
    }
    // What is unmentioned, as units (a folder with its file count, or a file), grouped by the
    // folder that holds them: several units in one folder below the top one make one diagnostic.
    let mut units: Vec<(&str, Option<usize>)> =
        folders.into_iter().map(|(f, n)| (f, Some(n))).collect();
    units.extend(files.into_iter().map(|f| (f, None)));
    units.sort_unstable();
    let mut groups: Vec<(&str, Vec<Unit>)> = Vec::new();
    for unit in units {
        let holder = unit.0.rfind('/').map_or("", |i| &unit.0[..i]);
        match groups.last_mut() {
            Some((h, members)) if *h == holder => members.push(unit),
            _ => groups.push((holder, vec![unit])),
        }
    }
    for (holder, members) in groups {
        if members.len() > 1 && holder.contains('/') {
            let names: Vec<String> = members
                .iter()
                .map(|(rel, n)| {
                    let name = rel.rsplit('/').next().unwrap_or(rel);
                    match n {
                        Some(1) => format!("`{name}/` (1 file)"),
                        Some(n) => format!("`{name}/` ({n} files)"),
                        None => format!("`{name}`"),
                    }
                })
                .collect();
            let shown = names
                .iter()
                .take(MAX_NAMED)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let more = names.len().saturating_sub(MAX_NAMED);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            out.emit_file(&SK412, dir.path_of(holder), format!("in `{holder}/`, {shown}{more} are mentioned neither in the body nor in any file it leads to"))
                .help(format!("say in the body when the agent needs them, or remove them: the model cannot discover them otherwise (other files of `{holder}/` are used)"));
            continue;
        }
        for (rel, n) in members {
            match n {
                Some(n) => {
                    let files = if n == 1 { "file" } else { "files" };
                    out.emit_file(&SK412, dir.path_of(rel), format!("`{rel}/` ({n} {files}) is mentioned neither in the body nor in any file it leads to"))
                        .help(format!("say in the body when the agent needs `{rel}/`, or remove it: the model cannot discover it otherwise"));
                }
                None => {
                    let name = rel.rsplit('/').next().unwrap_or(rel);
                    out.emit_file(&SK412, dir.path_of(rel), format!("`{rel}` is mentioned neither in the body nor in any file it leads to"))
                        .help(format!("link it where the agent needs it, e.g. `[{name}]({rel})`, or remove it: the model cannot discover it otherwise"));
                }
            }
        }
    }
}

/// An unmentioned file (`None`) or folder (its file count), by its relative path.
type Unit<'a> = (&'a str, Option<usize>);

/// At most this many unmentioned names are listed in one diagnostic.
const MAX_NAMED: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain's file is handed on whole: SK406 shows it only up to its hop, but the rules
    /// that read the skill's files next (the security rules) take it from here rather than
    /// open it a second time.
    #[test]
    fn a_chain_file_is_handed_on_whole() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("references")).unwrap();
        let skill = "---\nname: x\ndescription: y\n---\nSee [a](references/a.md).\n";
        let linked = "Then [b](b.md).\nWhat follows the hop.\n";
        std::fs::write(root.join("SKILL.md"), skill).unwrap();
        std::fs::write(root.join("references/a.md"), linked).unwrap();
        std::fs::write(root.join("references/b.md"), "b").unwrap();
        let dir = crate::discover::skill_of_file(&root.join("SKILL.md"), &root).unwrap();
        let tree = SkillTree::walk(&root);
        let resolver = Resolver {
            skill: &root,
            placeholders: &[],
            installed_with: None,
        };
        let links = ["references/a.md".to_string()];
        let body = Body {
            file: skill,
            text: skill,
            skill_file: "SKILL.md",
            linked: &links,
            read: &[],
        };
        let mut out = Reporter::new(None, root.join("SKILL.md"), root.clone());
        let files = check(
            &dir,
            &resolver,
            &tree,
            &body,
            &Settings::default(),
            &mut out,
        );
        let codes: Vec<&str> = out.diagnostics.iter().map(|d| d.rule.code).collect();
        assert!(codes.contains(&"SK406"), "{codes:?}");
        let paths: Vec<_> = files.iter().map(|f| f.path.clone()).collect();
        let [a] = files.as_slice() else {
            panic!("{paths:?}");
        };
        assert!(a.path.ends_with("references/a.md"), "{paths:?}");
        assert_eq!(a.text, linked);
    }
}
