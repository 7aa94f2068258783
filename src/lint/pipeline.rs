//! The run over many skills: discovery hands skills to a pool of workers as it finds them,
//! each skill is linted once in its final form, and the reports come back in path order.

use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::diagnostic::Diagnostic;
use crate::discover::{NotFound, SkillDir};
use crate::files::SkillTree;
use crate::skill::{Keep, SkillReport};

use super::check::{ReadFrom, lint_skill};
use super::collect::conclude;
use super::settle::settle;

/// Skills found and not yet taken by a worker, at most.
pub(super) const QUEUE: usize = 1024;

/// Skills handed to a worker at once, at most: one hand-over per skill woke a sleeping thread
/// per skill (47,700 context switches in a 61,000-skill run; 6,800 in batches). The
/// first hand-overs are smaller (1, 2, 4, …), so that a run over a few skills starts linting
/// at once.
pub(super) const BATCH: usize = 32;

/// The batch size and the queue's length in batches for `threads` workers: the queue, the
/// batch being filled and the batch each worker holds stay within [`QUEUE`] skills together.
pub(super) fn batching(threads: usize) -> (usize, usize) {
    let batch = BATCH.min(QUEUE / (2 * (threads + 1))).max(1);
    (batch, (QUEUE / 2 / batch).max(1))
}

/// Skills found, numbered in the order found, with their file trees when the search read them.
pub(super) type Batch = Vec<(usize, SkillDir, Option<SkillTree>)>;

/// How far a run is: skills found, and skills checked (read by a progress display while the
/// run goes on).
#[derive(Debug, Default)]
pub struct Progress {
    pub found: std::sync::atomic::AtomicUsize,
    pub checked: std::sync::atomic::AtomicUsize,
}

/// Discovers the skills `paths` name and lints each as soon as discovery finds it, on a pool of
/// workers, while the search goes on; then the collection rules, selection, severities and
/// suppressions. A skill whose final form differs from the one found early (another path
/// reaches it, or skills are nested in it) is linted again in its final form, so the reports
/// are exactly those of [`super::lint_all`] over the discovery's skills. Reports come back in path
/// order; `progress` counts the skills found and checked as it goes.
pub fn discover_and_lint(
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
pub(super) fn reconcile(
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
pub(super) fn in_found_order<T>(seqs: &mut [usize], items: &mut [T]) -> bool {
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
pub(super) fn lint_one(
    dir: SkillDir,
    tree: Option<SkillTree>,
    inner: &[PathBuf],
    settings: &Settings,
    cwd: &Path,
    keep: Keep,
) -> SkillReport {
    let shown = dir.dir.clone();
    let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (mut report, sources) = lint_skill(dir, ReadFrom::Disk(tree), settings);
        leave_files_to(inner, &mut report.diagnostics);
        settle(&mut report, sources, settings, cwd, keep);
        report
    }));
    linted.unwrap_or_else(|_| internal_error(shown))
}

/// The report of a skill whose checking failed on a bug (a rule panicked): the run goes on,
/// says so, and fails.
pub(super) fn internal_error(dir: impl Into<std::sync::Arc<Path>>) -> SkillReport {
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

/// For each skill, the skill directories nested below it (SK016): each is a skill of its own,
/// which reports its own files.
pub(super) fn nested_skills(skills: &[SkillDir]) -> Vec<Vec<PathBuf>> {
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

/// Drops a skill's diagnostics about files inside skills nested in it (the rules tagged
/// [`Tag::Files`](crate::rule::Tag::Files)): the nested skill reports them.
pub(super) fn leave_files_to(inner: &[PathBuf], diagnostics: &mut Vec<Diagnostic>) {
    if inner.is_empty() {
        return;
    }
    diagnostics.retain(|d| {
        !d.rule.has(crate::rule::Tag::Files) || !inner.iter().any(|dir| d.path.starts_with(dir))
    });
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
