//! The catalogs of a run (runtimes.md): for each target with a budget, the skills one install
//! of it would list together — one `.claude/skills` folder, one plugin, one `.par/skills` with
//! the user's own — measured in the target's unit against its budget. SK503, SK504 and
//! `skillc tokens` all read them.

use std::collections::BTreeMap;
use std::path::Path;

use crate::config::Settings;
use crate::discover::Tier;
use crate::skill::SkillReport;
use crate::targets::{Install, Namespace, RUNTIMES, Runtime, Unit};
use crate::tokens;

/// The skills one install of a runtime lists, and its budget.
#[derive(Debug)]
pub struct Catalog {
    pub runtime: &'static Runtime,
    /// The install (`None`: the skills of the run that lie in no runtime folder or plugin).
    pub root: Option<Install>,
    /// Indices into the reports, in path order: one per key, the highest tier winning.
    pub members: Vec<usize>,
    /// The budget in its unit.
    pub budget: u64,
    pub unit: Unit,
}

/// The catalogs of the run that have a budget: each runtime's own, or a token budget for every
/// target when `budget` is configured.
pub fn catalogs(reports: &[SkillReport], settings: &Settings) -> Vec<Catalog> {
    let mut out = Vec::new();
    for runtime in RUNTIMES {
        let Some((budget, unit)) = settings.catalog_budget(runtime) else {
            continue;
        };
        for (root, members) in installs(reports, runtime) {
            let members = one_per_key(reports, &members);
            // One budget for every target (`budget`): the same skills are measured once.
            if settings.budget.is_some()
                && out
                    .iter()
                    .any(|c: &Catalog| c.root == root && c.members == members)
            {
                continue;
            }
            out.push(Catalog {
                runtime,
                root,
                members,
                budget,
                unit,
            });
        }
    }
    out
}

/// The skills of `runtime` grouped by install root. Skills of the user's tier (PAR's
/// `~/.par/skills`) are loaded beside every project's, so they join each project install.
fn installs(reports: &[SkillReport], runtime: &Runtime) -> Vec<(Option<Install>, Vec<usize>)> {
    let mut by_root: BTreeMap<Option<Install>, Vec<usize>> = BTreeMap::new();
    let mut shared = Vec::new();
    for (i, report) in reports.iter().enumerate() {
        if !report.targets.contains(runtime.name)
            || report.description.is_none()
            || report.dir.nested_in().is_some()
            || (runtime.namespace == Namespace::Plugin && report.placement().unclaimed)
        {
            continue;
        }
        if runtime.namespace == Namespace::Tier && report.dir.tier == Tier::User {
            shared.push(i);
            continue;
        }
        let root = report.placement().install_for(runtime).cloned();
        by_root.entry(root).or_default().push(i);
    }
    if by_root.is_empty() && !shared.is_empty() {
        return vec![(None, shared)];
    }
    by_root
        .into_iter()
        .map(|(root, mut members)| {
            members.extend(&shared);
            members.sort_unstable();
            (root, members)
        })
        .collect()
}

/// One skill per key: the highest tier wins, and within a tier the first in path order.
fn one_per_key(reports: &[SkillReport], members: &[usize]) -> Vec<usize> {
    let mut best: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in members {
        let Some(key) = reports[i].key.as_deref() else {
            continue;
        };
        match best.get(key) {
            Some(&j) if reports[j].dir.tier >= reports[i].dir.tier => {}
            _ => {
                best.insert(key, i);
            }
        }
    }
    let mut chosen: Vec<usize> = best.into_values().collect();
    chosen.sort_unstable();
    chosen
}

/// A skill's catalog line as `runtime` lists it: the L1 entry, with Claude Code's
/// `when_to_use` after the description and the text cut at the listing cap.
pub fn entry(report: &SkillReport, runtime: &Runtime, settings: &Settings) -> String {
    let key = report.key.as_deref().unwrap_or("");
    let description = report.description.as_deref().unwrap_or("");
    let when = runtime
        .fields
        .contains(&"when_to_use")
        .then(|| {
            report
                .fields()
                .iter()
                .find(|(k, _)| k == "when_to_use")
                .map(|(_, v)| v.as_str())
        })
        .flatten();
    let text = match when {
        Some(when) => format!("{description} {when}"),
        None => description.to_string(),
    };
    let text = match settings.listing_cap(runtime) {
        Some(cap) => text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .take(cap)
            .collect(),
        None => text,
    };
    tokens::l1_entry(key, &text)
}

/// Members below which a catalog is measured on the calling thread: a registry has thousands
/// of small catalogs (one per plugin), and starting threads for each cost more than measuring
/// it (2,400 thread starts, a third of a second of a 61,000-skill run, most of it waiting).
const PARALLEL_MEMBERS: usize = 512;

/// The cost of each member of a catalog in its unit (tokens counted on all cores, and only
/// when the catalog's bytes could exceed the budget unless `exact`). `None` when not counted.
pub fn costs(
    catalog: &Catalog,
    reports: &[SkillReport],
    settings: &Settings,
    exact: bool,
) -> Option<Vec<usize>> {
    // Each member's entry is made where it is measured and dropped there: a catalog of a whole
    // registry never holds every entry at once.
    let measure = |of: &(dyn Fn(&str) -> usize + Sync)| -> Vec<usize> {
        if catalog.members.len() < PARALLEL_MEMBERS {
            return catalog
                .members
                .iter()
                .map(|&i| of(&entry(&reports[i], catalog.runtime, settings)))
                .collect();
        }
        crate::parallel::map(&catalog.members, |&i| {
            of(&entry(&reports[i], catalog.runtime, settings))
        })
        .into_iter()
        .map(|cost| cost.unwrap_or(0))
        .collect()
    };
    match catalog.unit {
        Unit::Chars => Some(measure(&|e| e.chars().count())),
        Unit::Tokens => {
            if !exact {
                let bytes: usize = measure(&str::len).iter().sum();
                if bytes as u64 <= catalog.budget {
                    return None;
                }
            }
            let tokenizer = tokens::tokenizer(settings.encoding)?;
            Some(measure(&|e| tokenizer.count(e)))
        }
    }
}

/// The keys a runtime drops (or shortens) from a catalog over its budget, in drop order.
pub fn dropped(catalog: &Catalog, reports: &[SkillReport], costs: &[usize]) -> Vec<String> {
    let entries: Vec<tokens::Entry> = catalog
        .members
        .iter()
        .zip(costs)
        .map(|(&i, &cost)| tokens::Entry {
            key: reports[i].key.clone().unwrap_or_default(),
            tier: reports[i].dir.tier,
            tokens: cost,
        })
        .collect();
    tokens::drop_order(&entries, catalog.budget as usize)
}

/// How a catalog is named in messages: `the Claude Code listing of plugins/x`.
pub fn describe(catalog: &Catalog, cwd: &Path) -> String {
    let what = match catalog.unit {
        Unit::Tokens => "catalog",
        Unit::Chars => "listing",
    };
    match &catalog.root {
        Some(Install {
            dir,
            plugin: Some(name),
        }) => format!(
            "the {} {what} of plugin `{name}` (`{}`)",
            catalog.runtime.title,
            shown(dir, cwd)
        ),
        Some(Install { dir, plugin: None }) => format!(
            "the {} {what} of `{}`",
            catalog.runtime.title,
            shown(dir, cwd)
        ),
        None => format!("the {} {what}", catalog.runtime.title),
    }
}

/// A directory as messages show it: relative to the current directory when below it.
pub fn shown(dir: &Path, cwd: &Path) -> String {
    let path = crate::discover::display_path(dir, cwd);
    if path.as_os_str().is_empty() {
        ".".to_string()
    } else {
        path.display().to_string()
    }
}

/// At most this many keys are named in a message; the rest are counted.
pub const MAX_NAMED: usize = 10;

/// `a`, `b` … and N more, in backticks.
pub fn key_list(keys: &[String]) -> String {
    let named: Vec<String> = keys
        .iter()
        .take(MAX_NAMED)
        .map(|k| format!("`{k}`"))
        .collect();
    let mut text = named.join(", ");
    if keys.len() > MAX_NAMED {
        text.push_str(&format!(" and {} more", keys.len() - MAX_NAMED));
    }
    text
}

/// The skills of a run an agent's catalog holds: those with a key and a description that are
/// not nested in another skill (SK016), one per
/// key — the highest tier wins, and within a tier the first in path order. Indices into
/// `reports`, in path order.
pub fn listed(reports: &[SkillReport]) -> Vec<usize> {
    let mut best: foldhash::HashMap<&str, usize> = foldhash::HashMapExt::new();
    for (i, report) in reports.iter().enumerate() {
        let (Some(key), Some(_), None) =
            (&report.key, &report.description, &report.dir.nested_in())
        else {
            continue;
        };
        match best.get(key.as_str()) {
            Some(&j) if reports[j].dir.tier >= report.dir.tier => {}
            _ => {
                best.insert(key, i);
            }
        }
    }
    let mut chosen: Vec<usize> = best.into_values().collect();
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_lists_are_capped() {
        let keys: Vec<String> = (0..13).map(|i| format!("k{i}")).collect();
        assert_eq!(
            key_list(&keys),
            "`k0`, `k1`, `k2`, `k3`, `k4`, `k5`, `k6`, `k7`, `k8`, `k9` and 3 more"
        );
        assert_eq!(key_list(&keys[..2]), "`k0`, `k1`");
    }
}
