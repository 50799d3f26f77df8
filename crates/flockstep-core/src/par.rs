//! Double-buffered flock ticks on several cores: the core's one door to
//! threads (`tests/tidy.rs` keeps them out of `num` and `sim`).
//!
//! Under double buffering every boid reads only the previous tick's
//! snapshot and writes only its own new state, so the boids can be split
//! into contiguous ranges of the snapshot, one per thread. Nothing a
//! thread computes depends on another thread's timing: each writes its
//! own range, and what two threads share (the weighted model's pairs
//! across a range's edge) is added afterwards in range order, as exact
//! integer sums. So a tick on any number of threads is bit-identical to
//! one thread (`tests/flock.rs` compares state hashes for 1, 2 and 8).
//! Updates in place stay sequential (each boid reads the ones before it);
//! the web build has one thread.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The fewest boids worth a thread of their own: below this a thread's
/// start costs more than it saves.
pub const MIN_PER_THREAD: usize = 2_048;

/// The most threads a tick uses.
pub const MAX_THREADS: usize = 64;

/// The threads new flocks use (0: one per core).
static DEFAULT: AtomicUsize = AtomicUsize::new(0);

/// Sets how many threads new flocks step on: `0` for one per core (the
/// default), `1` for the calling thread only. A flock's own
/// [`crate::sim::flock::FlockSim::set_threads`] overrides it. The result never
/// depends on it.
pub fn set_default_threads(n: usize) {
    DEFAULT.store(n.min(MAX_THREADS), Ordering::Relaxed);
}

thread_local! {
    /// Whether flocks made on this thread step on it alone
    /// ([`one_thread_here`]).
    static ALONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The machine's cores, asked once (the answer reads the system's files).
static CORES: AtomicUsize = AtomicUsize::new(0);

/// Makes flocks created from now on on the calling thread step on it
/// alone: for a worker of work already spread over the cores, one flock a
/// core ([`crate::replay::run::par_map`]).
pub fn one_thread_here() {
    ALONE.with(|a| a.set(true));
}

/// The threads a new flock steps on: 1 on a [`one_thread_here`] thread
/// and in the web build, else [`set_default_threads`]'s, or one per core.
pub fn default_threads() -> usize {
    if cfg!(target_arch = "wasm32") || ALONE.with(std::cell::Cell::get) {
        return 1;
    }
    match DEFAULT.load(Ordering::Relaxed) {
        0 => cores(),
        n => n,
    }
}

/// The machine's cores (at most [`MAX_THREADS`]).
fn cores() -> usize {
    match CORES.load(Ordering::Relaxed) {
        0 => {
            let n = std::thread::available_parallelism()
                .map_or(1, std::num::NonZero::get)
                .min(MAX_THREADS);
            CORES.store(n, Ordering::Relaxed);
            n
        }
        n => n,
    }
}

/// How many ranges `len` boids are split into for `threads` threads, when
/// each range must hold at least `min` boids.
pub fn parts(len: usize, threads: usize, min: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    threads.min(len / min.max(MIN_PER_THREAD)).max(1)
}

/// The snapshot indices of range `i` of `n` over `len` boids.
pub fn range(len: usize, n: usize, i: usize) -> std::ops::Range<usize> {
    len * i / n..len * (i + 1) / n
}

/// Runs `f(i, item)` for each item on a thread of its own (the first on
/// the calling thread), and returns when all are done.
pub fn each<T: Send>(items: Vec<T>, f: impl Fn(usize, T) + Sync) {
    let mut items = items.into_iter().enumerate();
    let Some((i0, first)) = items.next() else {
        return;
    };
    std::thread::scope(|s| {
        for (i, item) in items {
            let f = &f;
            s.spawn(move || f(i, item));
        }
        f(i0, first);
    });
}

/// `v` split into the chunks of [`range`]`(v.len(), n, i)`.
pub fn chunks<T>(v: &mut [T], n: usize) -> Vec<&mut [T]> {
    let len = v.len();
    let mut out = Vec::with_capacity(n);
    let mut rest = v;
    for i in 0..n {
        let (c, r) = rest.split_at_mut(range(len, n, i).len());
        out.push(c);
        rest = r;
    }
    out
}

/// Puts `v`, in snapshot order, in id order: `v[id[k]] = old v[k]`, in
/// place, one cycle of the permutation at a time.
pub fn to_id_order<T: Copy>(v: &mut [T], id: &[u32]) {
    // Which places a cycle has been through: a bit each.
    let mut moved = vec![0u64; v.len().div_ceil(64)];
    for start in 0..v.len() {
        if moved[start / 64] >> (start % 64) & 1 == 1 {
            continue;
        }
        let (mut k, mut carry) = (start, v[start]);
        loop {
            let to = id[k] as usize;
            moved[k / 64] |= 1 << (k % 64);
            carry = std::mem::replace(&mut v[to], carry);
            if to == start {
                break;
            }
            k = to;
        }
    }
}

/// Computes `f(k, scratch)` for every snapshot index `k`, a contiguous
/// range of them on each of `parts` threads (each with a scratch of its
/// own), and stores it by id: `out.0[id[k]]`, `out.1[id[k]]`. Each thread
/// writes its own range of `out` (in snapshot order), which is then put in
/// id order.
pub fn in_id_order<A: Copy + Send, B: Copy + Send, S: Default>(
    id: &[u32],
    parts: usize,
    (a, b): (&mut [A], &mut [B]),
    f: impl Fn(usize, &mut S) -> (A, B) + Sync,
) {
    let n = id.len();
    let jobs: Vec<_> = chunks(a, parts).into_iter().zip(chunks(b, parts)).collect();
    each(jobs, |i, (ca, cb)| {
        let mut scratch = S::default();
        for (j, k) in range(n, parts, i).enumerate() {
            (ca[j], cb[j]) = f(k, &mut scratch);
        }
    });
    to_id_order(a, id);
    to_id_order(b, id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_boid_once_in_order() {
        for (len, n) in [(10, 3), (4096, 2), (50_000, 7), (5, 1)] {
            let all: Vec<usize> = (0..n).flat_map(|i| range(len, n, i)).collect();
            assert_eq!(all, (0..len).collect::<Vec<_>>());
        }
        assert_eq!(parts(1_000, 8, 1), 1);
        assert_eq!(
            parts(10_000, 2, 1),
            if cfg!(target_arch = "wasm32") { 1 } else { 2 }
        );
        assert_eq!(parts(10_000, 8, 3_000), 3);
    }

    #[test]
    fn a_worker_of_spread_work_steps_its_flocks_alone() {
        let there = std::thread::spawn(|| {
            one_thread_here();
            default_threads()
        });
        assert_eq!(there.join().unwrap(), 1);
    }

    #[test]
    fn values_in_snapshot_order_go_to_their_ids() {
        // Snapshot index k holds id id[k]: cycles of several lengths.
        let id = [3u32, 0, 4, 1, 2, 5, 7, 6];
        let mut v: Vec<u32> = id.to_vec();
        to_id_order(&mut v, &id);
        assert_eq!(v, (0..8).collect::<Vec<_>>());
        let (mut a, mut b) = (vec![0u32; 8], vec![0u64; 8]);
        in_id_order(&id, 3, (&mut a, &mut b), |k, _: &mut ()| {
            (id[k], u64::from(id[k]) * 10)
        });
        assert_eq!(a, (0..8).collect::<Vec<_>>());
        assert_eq!(b, (0..8).map(|i| i * 10).collect::<Vec<_>>());
    }
}
