//! Work spread over the machine's cores: skills are independent, so each worker takes the next
//! unclaimed item until none is left.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Items per worker below which another thread is not worth starting.
const MIN_ITEMS_PER_THREAD: usize = 16;

/// Applies `f` to every item, in parallel, returning results in item order. A result is `None`
/// only if its worker died (a bug: `f` panicked).
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len() / MIN_ITEMS_PER_THREAD + 1);
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<R>> = Vec::new();
    slots.resize_with(items.len(), || None);
    let done: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        done.push((i, f(item)));
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().filter_map(|w| w.join().ok()).collect()
    });
    for (i, result) in done.into_iter().flatten() {
        slots[i] = Some(result);
    }
    slots
}
