//! Work spread over the machine's cores: skills are independent, so each worker takes the next
//! unclaimed item until none is left.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Items per worker below which another thread is not worth starting.
const MIN_ITEMS_PER_THREAD: usize = 16;

/// The most workers a run may start ([`limit`]).
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The cores this process may use, asked once (the answer reads cgroup files), or fewer when
/// [`limit`] says so.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    cores.min(LIMIT.load(Ordering::Relaxed))
}

/// Caps the workers of every later run at `most` (at least one): a long-lived process (the
/// language server) keeps its thread count bounded whatever the machine.
pub fn limit(most: usize) {
    LIMIT.store(most.max(1), Ordering::Relaxed);
}

/// How many workers `items` items are worth.
fn threads_for(items: usize) -> usize {
    cores().min(items / MIN_ITEMS_PER_THREAD + 1)
}

/// Applies `f` to every item, in parallel, returning results in item order. A result is `None`
/// only if its worker died (a bug: `f` panicked).
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<Option<R>> {
    let threads = threads_for(items.len());
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

/// Applies `f` to every item, in parallel, taking each item by value, and returns the results
/// in item order. Each result is placed as soon as those before it are in, so only one copy of
/// the results is ever held; an item whose `f` panicked (a bug) gets `lost(index)` instead.
pub fn map_owned<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(T) -> R + Sync,
    lost: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    let count = items.len();
    let threads = threads_for(count);
    if threads == 1 {
        // Not worth a thread: in order, here.
        return items
            .into_iter()
            .enumerate()
            .map(|(i, item)| catch_unwind(AssertUnwindSafe(|| f(item))).unwrap_or_else(|_| lost(i)))
            .collect();
    }
    let queue = Mutex::new(items.into_iter().enumerate());
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    let mut out: Vec<R> = Vec::with_capacity(count);
    let mut early: BTreeMap<usize, R> = BTreeMap::new();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (queue, f, lost) = (&queue, &f, &lost);
            scope.spawn(move || {
                loop {
                    // The lock is held only to take the next item; nothing panics under it.
                    let next = match queue.lock() {
                        Ok(mut items) => items.next(),
                        Err(_) => None,
                    };
                    let Some((i, item)) = next else { break };
                    let result =
                        catch_unwind(AssertUnwindSafe(|| f(item))).unwrap_or_else(|_| lost(i));
                    if sender.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (i, result) in receiver {
            early.insert(i, result);
            while let Some(result) = early.remove(&out.len()) {
                out.push(result);
            }
        }
    });
    while out.len() < count {
        let i = out.len();
        out.push(early.remove(&i).unwrap_or_else(|| lost(i)));
    }
    out
}

/// Items rendered together by one thread in [`write_in_order`].
const BLOCK: usize = 512;
/// The most threads [`write_in_order`] renders on: a round holds `BLOCK` items' text per
/// thread, and rendering is cheap beside linting.
const MAX_RENDER_THREADS: usize = 8;

/// Writes what `render` makes of each block of `items` to `sink`, in item order. Blocks are
/// rendered on several cores at once (at most [`MAX_RENDER_THREADS`]), a round of one block per
/// thread at a time, and each round is written before the next begins: only one round's text
/// is ever held. `render` is given a block and the index of its first item. A block whose
/// rendering failed or panicked (a bug) fails the write with an error, rather than leaving a
/// hole in the output; a thread the system refuses to start leaves its block to this one.
pub fn write_in_order<'a, T: Sync>(
    items: &'a [T],
    sink: &mut dyn std::io::Write,
    render: impl Fn(&'a [T], usize) -> std::io::Result<Vec<u8>> + Sync,
) -> std::io::Result<()> {
    let threads = cores().clamp(1, MAX_RENDER_THREADS);
    let lost = || std::io::Error::other("rendering the output failed (a bug)");
    let here =
        |block: &'a [T], first: usize| catch_unwind(AssertUnwindSafe(|| render(block, first))).ok();
    for (r, round) in items.chunks(BLOCK * threads).enumerate() {
        let first = r * BLOCK * threads;
        let blocks: Vec<&'a [T]> = round.chunks(BLOCK).collect();
        let texts: Vec<Option<std::io::Result<Vec<u8>>>> = if blocks.len() == 1 {
            vec![here(round, first)]
        } else {
            std::thread::scope(|scope| {
                let render = &render;
                let others: Vec<_> = blocks
                    .iter()
                    .enumerate()
                    .skip(1)
                    .map(|(b, &block)| {
                        let at = first + b * BLOCK;
                        std::thread::Builder::new()
                            .spawn_scoped(scope, move || render(block, at))
                            .map_err(|_| (block, at))
                    })
                    .collect();
                let mine = here(blocks[0], first);
                std::iter::once(mine)
                    .chain(others.into_iter().map(|other| match other {
                        Ok(thread) => thread.join().ok(),
                        Err((block, at)) => here(block, at),
                    }))
                    .collect()
            })
        };
        for text in texts {
            sink.write_all(&text.ok_or_else(lost)??)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_owned_keeps_item_order_and_replaces_what_panicked() {
        let items: Vec<usize> = (0..1000).collect();
        let out = map_owned(
            items,
            |n| {
                assert!(n != 500, "the bug this test plants");
                n * 2
            },
            |i| i + 1_000_000,
        );
        let expected: Vec<usize> = (0..1000)
            .map(|n| if n == 500 { 1_000_500 } else { n * 2 })
            .collect();
        assert_eq!(out, expected);
    }

    #[test]
    fn write_in_order_writes_every_block_in_order_and_fails_on_a_panic() {
        let items: Vec<usize> = (0..5000).collect();
        let mut out = Vec::new();
        let result = write_in_order(&items, &mut out, |block, first| {
            assert_eq!(block.first(), Some(&first));
            Ok(block
                .iter()
                .map(|n| format!("{n},"))
                .collect::<String>()
                .into_bytes())
        });
        assert!(result.is_ok());
        let expected: String = (0..5000).map(|n| format!("{n},")).collect();
        assert_eq!(String::from_utf8(out).ok(), Some(expected));
        let mut out = Vec::new();
        // The planted panic prints its message to stderr; the write fails with an error.
        let result = write_in_order(&items, &mut out, |block, _| {
            assert!(!block.contains(&4000), "the bug this test plants");
            Ok(vec![b'x'; block.len()])
        });
        assert_eq!(
            result.map_err(|e| e.to_string()),
            Err("rendering the output failed (a bug)".to_string())
        );
        // What came before the failed block was written; nothing after it.
        assert_eq!(out.len(), 4000 / BLOCK * BLOCK);
    }
}
