//! The pipeline: each skill is read, parsed and linted once, by one of a pool of workers
//! (discover → read → parse → dialect → rules → diagnostics), and what a worker hands back is
//! only what output needs ([`SkillReport`]); then the collection rules run over those reports,
//! and the configured selection, severities and suppressions are applied.

use foldhash::{HashMap, HashMapExt};
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Region, Span};
use crate::dialect::Dialect;
use crate::discover::{NotFound, SkillDir};
use crate::files::SkillTree;
use crate::input::{Links, Read, read_capped};
use crate::markdown;
use crate::rules;
use crate::skill::{Keep, Reporter, Skill, SkillReport};
use crate::source::SkillFile;
use crate::suppress::Suppressions;
use crate::targets::{Placement, Targets};
use crate::tokens::Costs;
use crate::yaml::{self, Node, Value};

/// Lints every skill, using up to the machine's cores, and applies collection rules,
/// selection, severities and suppressions. Reports come back in discovery (path) order.
pub fn lint_all(
    skills: Vec<SkillDir>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> Vec<SkillReport> {
    let inner = nested_skills(&skills);
    let work: Vec<(SkillDir, Vec<PathBuf>)> = skills.into_iter().zip(inner).collect();
    let mut reports = crate::parallel::map_owned(
        work,
        |(dir, inner)| lint_one(dir, None, &inner, settings, cwd, keep),
        |_| internal_error(Path::new("")),
    );
    conclude(&mut reports, settings, cwd);
    reports
}

/// Discovers the skills `paths` name and lints each as soon as discovery finds it, on a pool of
/// workers, while the search goes on; then the collection rules, selection, severities and
/// suppressions. A skill whose final form differs from the one found early (another path
/// reaches it, or skills are nested in it) is linted again in its final form, so the reports
/// are exactly those of [`lint_all`] over the discovery's skills. Reports come back in path
/// order.
pub fn discover_and_lint(
    paths: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    options: crate::discover::Options,
    keep: Keep,
) -> Result<(crate::discover::Discovery, Vec<SkillReport>), NotFound> {
    discover_and_lint_counted(paths, settings, cwd, options, keep, &Progress::default())
}

/// Skills found and not yet taken by a worker, at most.
const QUEUE: usize = 1024;

/// Skills handed to a worker at once, at most: one hand-over per skill woke a sleeping thread
/// per skill (47,700 context switches in a 61,000-skill run; 6,800 in batches). The
/// first hand-overs are smaller (1, 2, 4, …), so that a run over a few skills starts linting
/// at once.
const BATCH: usize = 32;

/// The batch size and the queue's length in batches for `threads` workers: the queue, the
/// batch being filled and the batch each worker holds stay within [`QUEUE`] skills together.
fn batching(threads: usize) -> (usize, usize) {
    let batch = BATCH.min(QUEUE / (2 * (threads + 1))).max(1);
    (batch, (QUEUE / 2 / batch).max(1))
}

/// Skills found, numbered in the order found, with their file trees when the search read them.
type Batch = Vec<(usize, SkillDir, Option<SkillTree>)>;

/// How far a run is: skills found, and skills checked (read by a progress display while the
/// run goes on).
#[derive(Debug, Default)]
pub struct Progress {
    pub found: std::sync::atomic::AtomicUsize,
    pub checked: std::sync::atomic::AtomicUsize,
}

/// [`discover_and_lint`], counting in `progress` as it goes.
pub fn discover_and_lint_counted(
    paths: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    options: crate::discover::Options,
    keep: Keep,
    progress: &Progress,
) -> Result<(crate::discover::Discovery, Vec<SkillReport>), NotFound> {
    use std::sync::atomic::Ordering::Relaxed;
    let threads = crate::parallel::cores();
    // A bounded queue: a search that runs ahead of the workers waits rather than holding the
    // skills (and their listings) it found, so memory does not grow with the skills found.
    let (most, queued) = batching(threads);
    let (found, queue) = std::sync::mpsc::sync_channel::<Batch>(queued);
    let queue = std::sync::Mutex::new(queue);
    // Workers put their reports here as they finish, each with the number of its skill in the
    // order found: none waits in a channel.
    // (Two vectors, not one of pairs: the reports are then taken as they are, not copied.)
    let linted: std::sync::Mutex<(Vec<usize>, Vec<SkillReport>)> =
        std::sync::Mutex::new((Vec::new(), Vec::new()));
    let discovery = std::thread::scope(|scope| {
        let mut workers = 0;
        let mut handed = 0;
        let mut batch: Batch = Vec::new();
        let mut limit = 1;
        let discovery =
            crate::discover::discover_streaming(paths, settings, cwd, options, &mut |dir, lent| {
                // Workers start with the first skills found: a run over one skill starts none.
                if workers < threads {
                    workers += 1;
                    let (queue, linted) = (&queue, &linted);
                    scope.spawn(move || {
                        loop {
                            let next = match queue.lock() {
                                Ok(queue) => queue.recv().ok(),
                                Err(_) => None,
                            };
                            let Some(batch) = next else { break };
                            let mut done = Vec::with_capacity(batch.len());
                            for (seq, dir, tree) in batch {
                                done.push((seq, lint_one(dir, tree, &[], settings, cwd, keep)));
                                progress.checked.fetch_add(1, Relaxed);
                            }
                            if let Ok(mut linted) = linted.lock() {
                                for (seq, report) in done {
                                    linted.0.push(seq);
                                    linted.1.push(report);
                                }
                            }
                        }
                    });
                }
                progress.found.fetch_add(1, Relaxed);
                // The skill's files are listed here, from the listing the search read, and the
                // search takes the listings of the directories below it: each is read once.
                let tree = lent.map(|lent| {
                    SkillTree::build(&dir.real_path(), Some(lent.listing), Some(lent.below))
                });
                batch.push((handed, dir, tree));
                handed += 1;
                if batch.len() >= limit {
                    let _ = found.send(std::mem::take(&mut batch));
                    limit = (limit * 2).min(most);
                }
            });
        if !batch.is_empty() {
            let _ = found.send(batch);
        }
        drop(found);
        discovery
    });
    let (found_at, early) = linted.into_inner().unwrap_or_default();
    let mut discovery = discovery?;
    let skills = std::mem::take(&mut discovery.skills);
    let mut reports = reconcile(skills, found_at, early, settings, cwd, keep);
    conclude(&mut reports, settings, cwd);
    Ok((discovery, reports))
}

/// The reports of `skills` (sorted by path), taking each from those linted early when it was
/// linted in its final form, and linting the others now.
fn reconcile(
    skills: Vec<SkillDir>,
    mut found_at: Vec<usize>,
    mut early: Vec<SkillReport>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> Vec<SkillReport> {
    // The search finds skills in path order but for a few (links, several PATHs): put in the
    // order found, the reports are sorted by path once that is checked, with no comparison of
    // paths in a sort. Unstable: no scratch copy of the reports (equal paths are the same skill).
    let in_order = in_found_order(&mut found_at, &mut early);
    drop(found_at);
    if !in_order || !early.is_sorted_by(|a, b| a.dir.dir <= b.dir.dir) {
        early.sort_unstable_by(|a, b| a.dir.dir.cmp(&b.dir.dir));
    }
    let inner = nested_skills(&skills);
    // Most often every skill was linted early in its final form: the sorted reports are the
    // answer, and nothing is moved.
    let all_final = early.len() == skills.len()
        && early
            .iter()
            .zip(&skills)
            .zip(&inner)
            .all(|((report, dir), inner)| report.dir == *dir && inner.is_empty());
    if all_final {
        return early;
    }
    let mut early = early.into_iter().peekable();
    let mut reports = Vec::with_capacity(skills.len());
    let mut again: Vec<(usize, (SkillDir, Vec<PathBuf>))> = Vec::new();
    for (i, (dir, inner)) in skills.into_iter().zip(inner).enumerate() {
        while early.next_if(|r| r.dir.dir < dir.dir).is_some() {}
        match early.next_if(|r| r.dir == dir && inner.is_empty()) {
            Some(report) => reports.push(report),
            None => {
                reports.push(SkillReport::empty(dir.clone()));
                again.push((i, (dir, inner)));
            }
        }
    }
    drop(early);
    let (at, work): (Vec<usize>, Vec<_>) = again.into_iter().unzip();
    let linted = crate::parallel::map_owned(
        work,
        |(dir, inner)| lint_one(dir, None, &inner, settings, cwd, keep),
        |_| internal_error(Path::new("")),
    );
    for (i, report) in at.into_iter().zip(linted) {
        reports[i] = report;
    }
    reports
}

/// Puts `items`, numbered by `seqs` (`0..items.len()` in some order), in the order of their
/// numbers, by swapping each into its place; `false` (and some order) when the numbers are not
/// those.
fn in_found_order<T>(seqs: &mut [usize], items: &mut [T]) -> bool {
    let n = items.len();
    if seqs.len() != n || seqs.iter().any(|&seq| seq >= n) {
        return false;
    }
    for i in 0..n {
        while seqs[i] != i {
            let j = seqs[i];
            if seqs[j] == j {
                return false;
            }
            seqs.swap(i, j);
            items.swap(i, j);
        }
    }
    true
}

/// Lints one skill in a worker and settles its report; a bug (a rule's panic) becomes an
/// internal error of that skill instead of ending the run.
fn lint_one(
    dir: SkillDir,
    tree: Option<SkillTree>,
    inner: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> SkillReport {
    let shown = dir.dir.clone();
    let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (mut report, sources) = lint_skill(dir, tree, settings);
        leave_files_to(inner, &mut report.diagnostics);
        settle(&mut report, sources, settings, cwd, keep);
        report
    }));
    linted.unwrap_or_else(|_| internal_error(shown))
}

/// The collection rules over every report, then each report they added to finished again.
fn conclude(reports: &mut [SkillReport], settings: &Settings, cwd: &Path) {
    let before: Vec<usize> = reports.iter().map(|r| r.diagnostics.len()).collect();
    rules::collection::check(reports, settings, cwd);
    for (report, n) in reports.iter_mut().zip(before) {
        if report.diagnostics.len() != n {
            finish(report, settings, cwd);
        }
        suppression_problems(report, settings, cwd);
    }
}

/// SK018 and SK019, once every rule has run on a report: its suppressions that name no rule or
/// suppressed nothing. (Like the collection rules' diagnostics, they are kept as diagnostics
/// even when the run keeps only counts.)
fn suppression_problems(report: &mut SkillReport, settings: &Settings, cwd: &Path) {
    if report.suppressions.is_empty() {
        return;
    }
    let abs_path = crate::discover::absolute(cwd, report.path());
    let abs_dir = crate::discover::absolute(cwd, &report.dir.dir);
    let dialect = report.dialect;
    // A rule "ran" when it is selected, not ignored for this file, of the skill's dialect, and
    // not a collection rule (what they find depends on the other skills a run checks: a run
    // over one skill cannot tell that a suppression of SK501 is unused).
    let ran = |rule: &crate::rule::Rule| {
        let of_dialect = !matches!(
            (rule.dialects, dialect),
            (crate::rule::Dialects::Par, Some(Dialect::AgentSkills))
                | (crate::rule::Dialects::AgentSkills, Some(Dialect::Par))
        );
        settings.enabled(rule)
            && !settings.ignored_for(rule, &abs_path, &abs_dir)
            && of_dialect
            && !rules::collection::RULES.contains(&rule.code)
    };
    let found = report.suppressions.problems(&report.dir.dir, ran);
    if !found.is_empty() {
        report.diagnostics.extend(found);
        finish(report, settings, cwd);
    }
}

/// The report of a skill whose checking failed on a bug (a rule panicked): the run goes on,
/// says so, and fails.
fn internal_error(dir: impl Into<std::sync::Arc<Path>>) -> SkillReport {
    let dir = dir.into();
    let mut report = SkillReport::empty(SkillDir {
        file: None,
        real: crate::discover::Real::At(dir.clone()),
        tier: crate::discover::Tier::Project,
        rare: None,
        listed: Default::default(),
        dir,
    });
    report.extra_mut().io_error = Some(format!(
        "internal error while checking `{}`",
        report.dir.dir.display()
    ));
    report
}

/// Lints one skill whose skill file's bytes are given — an editor's unsaved buffer, standard
/// input, or exactly the bytes `pack` packs — in the context of its directory (the files
/// beside it are read from disk) and settings, with the same results as from disk.
/// `dir.file` is the path shown for the skill file.
pub fn lint_buffer(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> SkillReport {
    lint_buffer_among(dir, bytes, settings, cwd, keep, &mut Vec::new())
}

/// [`lint_buffer`] among other skills: the collection rules (duplicate keys, catalog budgets,
/// tools across skills) see the buffer's skill in place of its report in `others` (the reports
/// of a workspace's skills in path order, as [`discover_and_lint`] gives them) and report
/// only on the buffer's skill; `others` are left with no diagnostics.
pub fn lint_buffer_among(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
    others: &mut Vec<SkillReport>,
) -> SkillReport {
    let mut report = lint_buffer_alone(dir, bytes, settings, cwd, keep);
    collect_among(&mut report, others, settings, cwd);
    report
}

/// [`lint_buffer`] up to the collection rules: what [`collect_among`] or
/// [`collected_before`] then completes.
pub fn lint_buffer_alone(
    dir: SkillDir,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> SkillReport {
    let path = dir
        .file
        .clone()
        .unwrap_or_else(|| dir.dir.join("SKILL.md").into());
    let mut report = SkillReport::empty(dir);
    report.dir.file = Some(path.clone());
    place(&mut report, settings);
    let mut out = Reporter::new(None, path.clone(), report.dir.dir.clone());
    rules::structure::where_found(&report.dir, &path, &mut out);
    let size = bytes.len() as u64;
    let sources = if size > settings.max_file_size {
        rules::structure::file_too_large(size, settings.max_file_size, &mut out);
        Sources::default()
    } else {
        lint_bytes(&mut report, path.to_path_buf(), bytes, None, settings)
    };
    report.diagnostics.append(&mut out.diagnostics);
    // The skills nested in it, as discovery would find them, report their own files.
    let inner: Vec<PathBuf> = sources
        .tree
        .nested_roots()
        .iter()
        .map(|root| report.dir.dir.join(root.trim_end_matches('/')))
        .collect();
    leave_files_to(&inner, &mut report.diagnostics);
    settle(&mut report, sources, settings, cwd, keep);
    report
}

/// Completes a report of [`lint_buffer_alone`] with the collection rules run among `others`
/// (as [`lint_buffer_among`] does). Returns what they did to it: the diagnostics they added,
/// and the fixes of its name-fix diagnostics after them (a name another skill takes has
/// none) — what [`collected_before`] applies again while nothing they read has changed.
pub fn collect_among(
    report: &mut SkillReport,
    others: &mut Vec<SkillReport>,
    settings: &Settings,
    cwd: &Path,
) -> Collected {
    let before = report.diagnostics.len();
    check_among(report, others, settings, cwd);
    let collected = Collected {
        added: report.diagnostics[before.min(report.diagnostics.len())..].to_vec(),
        name_fixes: name_fixes(report).map(|d| d.fix.clone()).collect(),
    };
    finish(report, settings, cwd);
    suppression_problems(report, settings, cwd);
    collected
}

/// What the collection rules did to one report ([`collect_among`]).
#[derive(Debug, Clone)]
pub struct Collected {
    added: Vec<Diagnostic>,
    name_fixes: Vec<Option<Box<crate::fix::Fix>>>,
}

/// Completes a report of [`lint_buffer_alone`] as [`collect_among`] did before, for the same
/// facts among the same other skills (the caller knows they are the same).
pub fn collected_before(
    report: &mut SkillReport,
    collected: &Collected,
    settings: &Settings,
    cwd: &Path,
) {
    for (d, fix) in report
        .diagnostics
        .iter_mut()
        .filter(|d| crate::fix::NAME_FIXES.contains(&d.rule.code))
        .zip(&collected.name_fixes)
    {
        d.fix.clone_from(fix);
    }
    report.diagnostics.extend(collected.added.iter().cloned());
    finish(report, settings, cwd);
    suppression_problems(report, settings, cwd);
}

/// What of a report the collection rules read, as text: two reports with the same facts get
/// the same from them among the same other skills.
pub fn collection_facts(report: &SkillReport) -> String {
    let fixes: Vec<_> = name_fixes(report).map(|d| (d.rule.code, &d.fix)).collect();
    format!(
        "{:?}",
        (
            (&report.key, report.key_region(), &report.description),
            (report.fields(), report.targets, &report.dir, report.dialect),
            (report.placement(), report.tools(), fixes),
        )
    )
}

fn name_fixes(report: &SkillReport) -> impl Iterator<Item = &Diagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| crate::fix::NAME_FIXES.contains(&d.rule.code))
}

/// Runs the collection rules over `others` with `report` in the place of its skill's report,
/// then gives `report` back with what they found on it and clears the others' diagnostics.
fn check_among(
    report: &mut SkillReport,
    others: &mut Vec<SkillReport>,
    settings: &Settings,
    cwd: &Path,
) {
    let place = others.binary_search_by(|r| r.dir.dir.cmp(&report.dir.dir));
    let i = match place {
        Ok(i) => {
            std::mem::swap(report, &mut others[i]);
            i
        }
        Err(i) => {
            let placeholder = SkillReport::empty(report.dir.clone());
            others.insert(i, std::mem::replace(report, placeholder));
            i
        }
    };
    rules::collection::check(others, settings, cwd);
    match place {
        Ok(_) => std::mem::swap(report, &mut others[i]),
        Err(_) => *report = others.remove(i),
    }
    for other in others.iter_mut() {
        other.diagnostics.clear();
    }
}

/// [`lint_buffer`] for the skill file at `path` (which need not exist yet): its skill
/// directory, tier and nesting are found as discovery would find them. Other paths a run may
/// reach the skill by (a symbolic link in `.claude/skills/`) are not known from one path: pass
/// the [`SkillDir`] discovery found to [`lint_buffer`] for those.
pub fn lint_text(
    path: &Path,
    bytes: Vec<u8>,
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> Result<SkillReport, NotFound> {
    let dir = crate::discover::skill_of_file(path, cwd)?;
    Ok(lint_buffer(dir, bytes, settings, cwd, keep))
}

/// For each skill, the skill directories nested below it (SK016): each is a skill of its own,
/// which reports its own files.
fn nested_skills(skills: &[SkillDir]) -> Vec<Vec<PathBuf>> {
    let nested: Vec<(&Path, &Path)> = skills
        .iter()
        .filter_map(|s| Some((s.nested_in()?, &*s.dir)))
        .collect();
    skills
        .iter()
        .map(|skill| {
            nested
                .iter()
                .filter(|(_, inner)| inner.starts_with(&skill.dir) && **inner != *skill.dir)
                .map(|(_, inner)| inner.to_path_buf())
                .collect()
        })
        .collect()
}

/// Drops a skill's diagnostics about files inside skills nested in it (SK408, SK409, SK411,
/// SK412): the nested skill reports them.
fn leave_files_to(inner: &[PathBuf], diagnostics: &mut Vec<Diagnostic>) {
    if inner.is_empty() {
        return;
    }
    let file_rules = [
        rules::SK408.code,
        rules::SK409.code,
        rules::SK411.code,
        rules::SK412.code,
    ];
    diagnostics.retain(|d| {
        !file_rules.contains(&d.rule.code) || !inner.iter().any(|dir| d.path.starts_with(dir))
    });
}

/// What a worker read of a skill, needed only until its report is settled.
#[derive(Default)]
struct Sources {
    file: Option<SkillFile>,
    /// Other files diagnostics point into (linked Markdown files, bundled tool schemas).
    others: Vec<SkillFile>,
    /// The body's span in the skill file, when the file has frontmatter.
    body: Option<Span>,
    tree: SkillTree,
}

/// Finishes a skill's own diagnostics and keeps of its sources only what output needs: the
/// lines its diagnostics (and the collection rules' ones, at its key and its tools) point
/// at, and its token costs, as `keep` says.
fn settle(report: &mut SkillReport, sources: Sources, settings: &Settings, cwd: &Path, keep: Keep) {
    finish(report, settings, cwd);
    if keep.details {
        report.diagnostics.shrink_to_fit();
    } else {
        // Only the rule, severity and count of each is printed (`--statistics`).
        report.tallies = crate::skill::Tally::of(&report.diagnostics);
        report.diagnostics = Vec::new();
    }
    if !keep.fields {
        let fields = &mut report.extra_mut().fields;
        fields.retain(|(key, _)| crate::skill::CATALOG_FIELDS.contains(&key.as_str()));
        fields.shrink_to_fit();
    }
    if keep.costs {
        report.extra_mut().costs = count_costs(report, &sources, settings);
    }
    if keep.lines {
        keep_lines(report, sources.file.as_ref(), &sources.others);
    }
    report.tidy();
}

/// A skill's token costs (L1, L2, L3): what `skillc show` prints for one skill.
pub fn costs(dir: &SkillDir, settings: &Settings) -> Option<Costs> {
    let (report, sources) = lint_skill(dir.clone(), None, settings);
    count_costs(&report, &sources, settings)
}

fn count_costs(report: &SkillReport, sources: &Sources, settings: &Settings) -> Option<Costs> {
    let tokenizer = crate::tokens::tokenizer(settings.encoding)?;
    let body = match (&sources.file, sources.body) {
        (Some(file), Some(body)) => file.slice(body),
        _ => "",
    };
    let entry = (
        report.key.as_deref().unwrap_or(""),
        report.description.as_deref().unwrap_or(""),
    );
    Some(crate::tokens::costs(
        tokenizer,
        entry,
        body,
        &report.dir,
        &sources.tree,
        settings.max_file_size,
    ))
}

/// Keeps the lines of `file` (the skill file) and `others` that the report's diagnostics point
/// at, and those the collection rules may point at later (the key, the bundled tools).
pub fn keep_lines(report: &mut SkillReport, file: Option<&SkillFile>, others: &[SkillFile]) {
    let excerpts = file
        .into_iter()
        .chain(others)
        .map(|source| {
            let at = |region: &Region| region.line;
            let mut lines: Vec<usize> = Vec::new();
            for d in report
                .diagnostics
                .iter()
                .filter(|d| *d.path == *source.path)
            {
                lines.extend(d.region.iter().flat_map(Region::shown_lines));
                lines.extend(d.secondary.iter().map(|l| l.region.line));
            }
            if file.is_some_and(|f| f.path == source.path) {
                lines.extend(report.key_region().iter().map(at));
                lines.extend(report.suppressions.lines());
            }
            let tools = report.tools().iter().filter(|t| *t.path == *source.path);
            lines.extend(tools.map(|t| t.region.line));
            source.excerpt(lines)
        })
        .filter(|excerpt| !excerpt.is_empty())
        .collect();
    report.set_excerpts(excerpts);
}

/// Lints one skill directory (whose files are listed in `tree` when they were already);
/// its report, and what was read to make it.
fn lint_skill(
    dir: SkillDir,
    tree: Option<SkillTree>,
    settings: &Settings,
) -> (SkillReport, Sources) {
    let mut report = SkillReport::empty(dir);
    place(&mut report, settings);
    let Some(path) = report.dir.file.clone() else {
        let mut out = Reporter::new(None, report.dir.dir.clone(), report.dir.dir.clone());
        rules::structure::missing_skill_file(&report.dir, &mut out);
        report.diagnostics = out.diagnostics;
        return (report, Sources::default());
    };
    let mut out = Reporter::new(None, path.clone(), report.dir.dir.clone());
    rules::structure::where_found(&report.dir, &path, &mut out);
    let sources = read_and_lint(&mut report, path.to_path_buf(), tree, settings, &mut out);
    report.diagnostics.append(&mut out.diagnostics);
    (report, sources)
}

/// Reads the skill file and lints it; what stops the reading is reported to `out`.
fn read_and_lint(
    report: &mut SkillReport,
    path: PathBuf,
    tree: Option<SkillTree>,
    settings: &Settings,
    out: &mut Reporter,
) -> Sources {
    let read = match read_capped(&path, settings.max_file_size, Links::Refuse) {
        // A skill file that is a link out of its skill, or to nothing, is reported (SK408) and
        // never read: its target is not the skill's, and its first lines would reach the
        // output. (Opening it without following a link tells a link from a file in one call.)
        Err(e) if crate::input::is_link_refused(&e) => {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match crate::files::classify_link(&path, &report.dir.real_path()) {
                crate::files::LinkTarget::Outside(target) => {
                    rules::files::link_outside(&name, &target, path, out);
                    return Sources::default();
                }
                crate::files::LinkTarget::Dangling => {
                    rules::files::dangling_skill_file(&name, path, out);
                    return Sources::default();
                }
                _ => read_capped(&path, settings.max_file_size, Links::Follow),
            }
        }
        read => read,
    };
    let bytes = match read {
        Ok(Read::Bytes(bytes)) => bytes,
        Ok(Read::TooLarge(size)) => {
            rules::structure::file_too_large(size, settings.max_file_size, out);
            return Sources::default();
        }
        Err(e) => {
            report.extra_mut().io_error = Some(format!("reading `{}`: {e}", path.display()));
            return Sources::default();
        }
    };
    lint_bytes(report, path, bytes, tree, settings)
}

/// Where the skill sits, and the targets that implies before its dialect is known.
fn place(report: &mut SkillReport, settings: &Settings) {
    let shown =
        std::iter::once(&*report.dir.dir).chain(report.dir.aliases().iter().map(PathBuf::as_path));
    report.set_placement(Placement::of(
        &report.dir.real_path(),
        shown,
        report.dir.listed,
    ));
    report.targets = targets_of(settings, report.placement(), None);
}

/// A skill's targets (runtimes.md): the configured ones, else `par` for a PAR skill, else
/// those of its location, else `spec`.
pub fn targets_of(settings: &Settings, placement: &Placement, dialect: Option<Dialect>) -> Targets {
    if let Some(targets) = settings.targets {
        return targets;
    }
    if dialect == Some(Dialect::Par) {
        return Targets::named("par").unwrap_or_else(Targets::spec);
    }
    placement.targets.unwrap_or_else(Targets::spec)
}

/// The rules of one skill over the skill file's bytes.
fn lint_bytes(
    report: &mut SkillReport,
    path: PathBuf,
    bytes: Vec<u8>,
    tree: Option<SkillTree>,
    settings: &Settings,
) -> Sources {
    // The diagnostics share the report's copy of the path.
    let shared = Some(report.shared_path())
        .filter(|shared| **shared == *path)
        .unwrap_or_else(|| path.as_path().into());
    let mut out = Reporter::new(None, shared.clone(), report.dir.dir.clone());
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            // The first invalid sequence is shown as U+FFFD at the same offset: the region is
            // that one character, its length the invalid bytes in the file.
            let invalid = e.utf8_error().error_len();
            let bytes = e.into_bytes();
            let file = SkillFile::new(shared, String::from_utf8_lossy(&bytes).into_owned());
            let mut region = file.region(Span::new(
                valid,
                valid + char::REPLACEMENT_CHARACTER.len_utf8(),
            ));
            region.length = invalid.unwrap_or(bytes.len() - valid);
            rules::structure::invalid_utf8(
                bytes.get(valid).copied().unwrap_or(0),
                region,
                &mut out,
            );
            report.diagnostics = out.diagnostics;
            return Sources {
                file: Some(file),
                ..Sources::default()
            };
        }
    };
    let file = SkillFile::new(shared.clone(), text);
    let mut out = Reporter::new(Some(&file), shared, report.dir.dir.clone());
    let facts = check_file(
        &report.dir,
        report.placement(),
        &file,
        tree,
        settings,
        &mut out,
    );
    let body = facts.body.map_or("", |span| file.slice(span));
    let bundle = rules::tools::check(
        &report.dir,
        &facts.tree,
        facts.key.as_deref(),
        body,
        settings,
    );
    report.suppressions = out.take_suppressions().unwrap_or_default();
    report.diagnostics = out.diagnostics;
    report.diagnostics.extend(bundle.diagnostics);
    report.extra_mut().tools = bundle.tools;
    report.dialect = facts.dialect;
    report.targets = targets_of(settings, report.placement(), facts.dialect);
    report.key = facts.key;
    report.set_key_region(facts.key_region);
    report.description = facts.description;
    report.extra_mut().fields = facts.fields;
    let mut others = bundle.files;
    others.extend(facts.other_files);
    Sources {
        file: Some(file),
        others,
        body: facts.body,
        tree: facts.tree,
    }
}

/// The spans of the string values below `node` (depth-bounded as the parser is).
fn string_spans(node: &Node, out: &mut Vec<Span>, depth: usize) {
    if depth > yaml::MAX_DEPTH {
        return;
    }
    match &node.value {
        Value::Str(_) => out.push(node.span),
        Value::Seq(items) => items.iter().for_each(|n| string_spans(n, out, depth + 1)),
        Value::Map(entries) => entries
            .iter()
            .for_each(|(_, v)| string_spans(v, out, depth + 1)),
        _ => {}
    }
}

/// Whether `at` is inside one of `spans` (sorted by start; string values do not overlap).
fn within(spans: &[Span], at: usize) -> bool {
    let after = spans.partition_point(|s| s.start <= at);
    after > 0 && spans.get(after - 1).is_some_and(|s| at < s.end)
}

/// What checking a skill file learned, for the rules that come after it.
#[derive(Default)]
struct Facts {
    dialect: Option<Dialect>,
    key: Option<String>,
    key_region: Option<Region>,
    description: Option<String>,
    fields: Vec<(String, String)>,
    /// The body, when the file has frontmatter.
    body: Option<Span>,
    tree: SkillTree,
    /// Other files of the skill that diagnostics point into (linked Markdown files).
    other_files: Vec<SkillFile>,
}

fn check_file<'a>(
    dir: &SkillDir,
    placement: &Placement,
    file: &'a SkillFile,
    tree: Option<SkillTree>,
    settings: &'a Settings,
    out: &mut Reporter<'a>,
) -> Facts {
    let mut facts = Facts::default();
    if file.has_bom() {
        rules::structure::byte_order_mark(out);
    }
    facts.tree = tree.unwrap_or_else(|| SkillTree::walk(&dir.real_path()));
    rules::files::check(dir, &facts.tree, out);
    let layout = match file.layout() {
        Ok(layout) => layout,
        Err(err) => {
            rules::structure::layout_error(file, err, out);
            return facts;
        }
    };
    facts.body = Some(layout.body);
    // The suppressions are final once the frontmatter is parsed (a directive inside a string
    // value is text): from then on, what cannot be shown is dropped as it is reported.
    let mut suppressions = Suppressions::parse(file, &layout);
    let parsed = yaml::parse(file.slice(layout.frontmatter), layout.frontmatter.start);
    if let Ok(root) = parsed.as_ref().map(|doc| doc.root.as_ref())
        && let Some(root) = root.filter(|_| !suppressions.is_empty())
    {
        let mut strings = Vec::new();
        string_spans(root, &mut strings, 0);
        strings.sort_unstable_by_key(|s| s.start);
        suppressions.forget_within(|at| within(&strings, at));
    }
    out.gate(settings, suppressions);
    let links = markdown::links(file.slice(layout.body));
    let located = targets_of(settings, placement, None);
    let placeholders =
        crate::targets::placeholders(located, &dir.real_path(), placement.plugin_root());
    // A plugin is installed whole: when every target installs it so, links into it work.
    let installed_with = placement.plugin_root().filter(|_| {
        located
            .iter()
            .all(|r| r.namespace == crate::targets::Namespace::Plugin)
    });
    facts.other_files = rules::body::check(
        dir,
        &placeholders,
        installed_with,
        file,
        &layout,
        &facts.tree,
        &links,
        settings,
        out,
    );
    let doc = match parsed {
        Ok(doc) => doc,
        Err(err) => {
            rules::structure::yaml_syntax(file, layout.frontmatter, &err, out);
            return facts;
        }
    };
    rules::structure::yaml_findings(&doc.findings, out);
    let root = match &doc.root {
        None => None,
        Some(
            node @ Node {
                value: Value::Map(_),
                ..
            },
        ) => Some(node),
        Some(other) => {
            rules::structure::not_mapping(other, out);
            return facts;
        }
    };
    let in_par_folder = placement.targets == Targets::named("par");
    let dialect = settings
        .dialect
        .unwrap_or_else(|| Dialect::detect(root, in_par_folder));
    facts.dialect = Some(dialect);
    let skill = Skill {
        dir,
        file,
        layout,
        root,
        aliases: doc.aliases(),
        dialect,
        settings,
        targets: targets_of(settings, placement, Some(dialect)),
        placement,
        tree: &facts.tree,
    };
    if let Some((key, node)) = skill.str_field(dialect.key_field()) {
        facts.key = Some(key.to_string());
        facts.key_region = Some(file.region(node.span));
    } else if skill.field("name").is_none() && rules::runtime_fields::name_optional(&skill) {
        // Claude Code loads a skill without `name` under its directory's name.
        facts.key = Some(dir.name());
    }
    facts.description = skill
        .str_field("description")
        .map(|(text, _)| text.to_string());
    if let Some(Node {
        value: Value::Map(entries),
        ..
    }) = root
    {
        facts.fields = entries
            .iter()
            .filter_map(|(k, v)| {
                let v = skill.resolve(v);
                let text = v
                    .as_str()
                    .map_or_else(|| skill.source(v).to_string(), str::to_string);
                Some((k.key_text()?, text))
            })
            .collect();
    }
    rules::structure::check(&skill, out);
    rules::runtime_fields::check(&skill, out);
    rules::identity::check(&skill, out);
    match dialect {
        Dialect::Par => rules::par_fields::check(&skill, out),
        Dialect::AgentSkills => rules::agentskills_fields::check(&skill, out),
    }
    facts
}

/// Applies selection, per-file ignores, severities and suppressions; sorts, dedups and caps.
/// Finishing again after more diagnostics are added (the collection rules') gives what one
/// pass over them all would give.
fn finish(report: &mut SkillReport, settings: &Settings, cwd: &Path) {
    // The absolute paths `per-file-ignores` matches, made only when it names files.
    let abs = settings.has_per_file_ignores().then(|| {
        (
            crate::discover::absolute(cwd, report.path()),
            crate::discover::absolute(cwd, &report.dir.dir),
        )
    });
    let suppressions = &report.suppressions;
    report.diagnostics.retain(|d| {
        settings.enabled(d.rule)
            && !abs
                .as_ref()
                .is_some_and(|(path, dir)| settings.ignored_for(d.rule, path, dir))
            && !suppressions.suppresses(d)
    });
    for d in &mut report.diagnostics {
        d.severity = settings.severity(d.rule);
    }
    report.diagnostics.sort_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.message.cmp(&b.message))
    });
    // One that counts others hidden by the cap is kept: its count would go with it.
    report.diagnostics.dedup_by(|a, b| {
        a.count == 1 && a.rule.code == b.rule.code && a.region == b.region && a.message == b.message
    });
    cap_per_rule(&mut report.diagnostics, crate::config::MAX_PER_RULE);
}

/// Keeps the first `cap` diagnostics of each rule (in output order) and replaces
/// the rest with one diagnostic that counts them, at the first one left out: output and memory
/// stay proportional to what a person can act on, whatever a file holds. Capping again is
/// harmless: a counting diagnostic already there is left out again and its count carried over.
fn cap_per_rule(diagnostics: &mut Vec<Diagnostic>, cap: usize) {
    let mut entries: HashMap<&'static str, usize> = HashMap::new();
    let mut problems: HashMap<&'static str, usize> = HashMap::new();
    for d in diagnostics.iter() {
        *entries.entry(d.rule.code).or_default() += 1;
        *problems.entry(d.rule.code).or_default() += d.count;
    }
    if entries.values().all(|&n| n <= cap) {
        return;
    }
    let mut seen: HashMap<&'static str, (usize, usize)> = HashMap::new();
    let mut kept = Vec::with_capacity(
        diagnostics
            .len()
            .min(entries.len().saturating_mul(cap.saturating_add(1))),
    );
    for mut d in diagnostics.drain(..) {
        let (n, shown) = seen.entry(d.rule.code).or_default();
        *n += 1;
        if *n <= cap {
            *shown += d.count;
            kept.push(d);
        } else if *n == cap + 1 {
            let more = problems.get(d.rule.code).copied().unwrap_or(0) - *shown;
            d.message = format!(
                "{more} more `{}` diagnostics in this skill are not shown (at most {cap} per rule and skill)",
                d.rule.name
            );
            d.label = None;
            d.count = more;
            d.help = Some("fix the ones shown and run skillc again to see the rest".into());
            d.secondary.clear();
            kept.push(d);
        }
    }
    *diagnostics = kept;
}

#[cfg(test)]
mod tests {
    use super::{BATCH, QUEUE, batching, in_found_order};

    #[test]
    fn batches_keep_the_skills_in_flight_within_the_queue() {
        assert_eq!(batching(2), (BATCH, QUEUE / 2 / BATCH));
        for threads in 1..=256 {
            let (batch, queued) = batching(threads);
            // The queue's batches, the one being filled and one per worker.
            let in_flight = batch * (queued + 1 + threads);
            assert!(in_flight <= QUEUE, "{threads} threads: {in_flight}");
            assert!((1..=BATCH).contains(&batch) && queued >= 1, "{threads}");
        }
    }

    #[test]
    fn in_found_order_places_each_item_by_its_number_or_says_it_cannot() {
        let (mut seqs, mut items) = (vec![2, 0, 3, 1], vec!['c', 'a', 'd', 'b']);
        assert!(in_found_order(&mut seqs, &mut items));
        assert_eq!((seqs, items), (vec![0, 1, 2, 3], vec!['a', 'b', 'c', 'd']));
        // A number out of range (a report lost) or twice: not an order.
        assert!(!in_found_order(&mut [0, 2], &mut ['a', 'c']));
        assert!(!in_found_order(&mut [1, 1, 0], &mut ['a', 'b', 'c']));
        assert!(!in_found_order(&mut [0], &mut ['a', 'b']));
        assert!(in_found_order::<char>(&mut [], &mut []));
    }
}
