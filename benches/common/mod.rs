//! Shared by the benchmarks: the in-process ratio against a named peer.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times `ours` and `peer` (each processing one batch of `items` and
/// returning a checksum) alternately for about `budget`, and prints
/// nanoseconds per item and the ratio ours / peer.
pub fn ratio(
    label: &str,
    items: usize,
    mut ours: impl FnMut() -> u64,
    peer_name: &str,
    mut peer: impl FnMut() -> u64,
) {
    let budget = Duration::from_millis(300);
    let (mut t_ours, mut t_peer) = (Duration::ZERO, Duration::ZERO);
    let (mut n_ours, mut n_peer) = (0u64, 0u64);
    // Warm up both, then alternate so drift hits both equally.
    black_box(ours());
    black_box(peer());
    while t_ours + t_peer < budget {
        let t = Instant::now();
        black_box(ours());
        t_ours += t.elapsed();
        n_ours += 1;
        let t = Instant::now();
        black_box(peer());
        t_peer += t.elapsed();
        n_peer += 1;
    }
    let per = |d: Duration, n: u64| d.as_secs_f64() * 1e9 / (n as f64 * items as f64);
    let (a, b) = (per(t_ours, n_ours), per(t_peer, n_peer));
    println!(
        "RATIO {label:<28} flockstep {a:>8.2} ns/op   {peer_name} {b:>8.2} ns/op   ratio {:.2}x",
        a / b
    );
}
