//! Flock ticks per second compiled to wasm32 and run by Node.js (V8, the
//! engine Chromium runs the web build with) next to the same workload
//! native: [`flockstep::selftest::bench_flock`], the weighted model in 2-D
//! with about a dozen boids in view of each, N = 1,000 and 5,000 boids.
//!
//! The wasm side is the web build's own `flockstep.wasm` (build it first
//! with `web/build.sh`; this bench says so if it is missing), timed by
//! `web/selftest.mjs bench` in a Node.js process; the native side is timed
//! here, on one thread as the web build. Both end in the same state hash,
//! which is checked. Prints `RATIO`
//! lines (time per tick, wasm / native).

use criterion::{Criterion, criterion_group};
use flockstep::selftest::bench_flock;
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const TICKS: u64 = 100;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wasm = root.join("target/web/flockstep.wasm");
    // The web build has one thread: so has the native side here.
    flockstep::par::set_default_threads(1);
    for boids in [1000u32, 5000] {
        bench_flock(boids, TICKS).unwrap(); // warm-up
        let mut times: Vec<f64> = (0..10)
            .map(|_| {
                let t0 = Instant::now();
                black_box(bench_flock(boids, TICKS).unwrap());
                t0.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let native_ms = times[times.len() / 2];
        let hash = format!("{:016x}", bench_flock(boids, TICKS).unwrap());
        c.bench_function(&format!("flock_bench_native_{boids}x{TICKS}"), |b| {
            b.iter(|| black_box(bench_flock(boids, TICKS).unwrap()))
        });
        if !wasm.is_file() {
            println!(
                "RATIO  wasm/native: no {} — build it with web/build.sh",
                wasm.display()
            );
            continue;
        }
        let out = Command::new("node")
            .current_dir(root)
            .args(["web/selftest.mjs", wasm.to_str().unwrap(), "bench"])
            .args([boids.to_string(), TICKS.to_string(), "10".into()])
            .output();
        let line = match out {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_owned(),
            Ok(o) => {
                println!(
                    "RATIO  wasm/native: node failed: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                continue;
            }
            Err(e) => {
                println!("RATIO  wasm/native: cannot run node ({e})");
                continue;
            }
        };
        let field = |k: &str| {
            let mut it = line.split(' ');
            it.find(|w| *w == k)
                .and_then(|_| it.next())
                .unwrap_or("?")
                .to_owned()
        };
        let wasm_ms: f64 = field("median_ms").parse().unwrap_or(f64::NAN);
        assert_eq!(
            field("hash"),
            hash,
            "wasm and native ended in different states"
        );
        let tps = |ms: f64| TICKS as f64 * 1e3 / ms;
        println!(
            "RATIO  flock {boids} boids x {TICKS} ticks   wasm (node) {wasm_ms:>8.2} ms = {:>7.0} ticks/s   native {native_ms:>8.2} ms = {:>7.0} ticks/s   wasm/native time {:.2}x",
            tps(wasm_ms),
            tps(native_ms),
            wasm_ms / native_ms
        );
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
