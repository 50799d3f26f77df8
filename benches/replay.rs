//! Replay costs, measured against the simulation they record (the peer is
//! the same run without a recorder, in the same process):
//!
//! - **size**: bytes per simulated boid per tick (every pane's boids
//!   counted: `flock-weights` runs four panes), of a 2-D flock of 1,000
//!   boids recorded for 10,000 ticks; and of the cases issue 18 names, a
//!   dense weighted 2-D flock (about 12 mates each, target ≤ 8) and the
//!   gems 3-D tank (target ≤ 12), 1,000 ticks each;
//! - **recording overhead**: record time / simulate time − 1 (target ≤ 15 %);
//! - **verify speed**: simulate time / verify time (target ≥ 0.9×);
//! - **seeking**: open a replay and decode a random tick, in a 100,000-tick
//!   recording (target ≤ 50 ms), worst and median of many.
//!
//! Runs alternate (simulate, record, verify, …) and medians are reported,
//! so drift on a noisy machine hits all of them alike.
//! `REPLAY_BENCH_QUICK=1` records 1,000 ticks instead of 10,000 and seeks in
//! a 10,000-tick file.

use criterion::{Criterion, criterion_group};
use flockstep::num::Pcg32;
use flockstep::replay::Replay;
use flockstep::replay::run::{self, Source, Verdict};
use flockstep::sim::AnySim;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn source(id: &str, sets: &[&str]) -> Source {
    flockstep::bundled::source(id, sets).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-replays");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn simulate(src: &Source, ticks: u64) -> Duration {
    let lesson = src.lesson().unwrap();
    let mut sim = AnySim::new(&lesson.scenario).unwrap();
    let t = Instant::now();
    for _ in 0..ticks {
        sim.step();
    }
    black_box(sim.tick());
    t.elapsed()
}

fn record(src: &Source, ticks: u64, path: &Path) -> Duration {
    let t = Instant::now();
    let f = BufWriter::with_capacity(1 << 16, std::fs::File::create(path).unwrap());
    run::record(f, src, ticks, None, &BTreeMap::new(), |_| {}).unwrap();
    t.elapsed()
}

fn verify(path: &Path, ticks: u64) -> Duration {
    let t = Instant::now();
    let mut r = Replay::open(path).unwrap();
    let v = run::verify(&mut r, |_| {}).unwrap();
    assert_eq!(
        v,
        Verdict::Match {
            first: 0,
            last: ticks
        }
    );
    t.elapsed()
}

/// The boids a state simulates, every pane's.
fn boids_in(s: &flockstep::sim::AnyState) -> u64 {
    use flockstep::sim::AnyState;
    match s {
        AnyState::Flock(f) => f.boids.len() as u64,
        AnyState::Panes(p) => p.iter().map(boids_in).sum(),
        _ => 0,
    }
}

/// Bytes per simulated boid per tick of `path`, and the boids.
fn per_boid(path: &Path, ticks: u64) -> (f64, u64) {
    let mut r = Replay::open(path).unwrap();
    let boids = boids_in(&r.state_at(0).unwrap().0);
    let per = (r.len - r.data_start) as f64 / (boids * (ticks + 1)) as f64;
    (per, boids)
}

/// Records `ticks` ticks and prints the size only.
fn size_only(label: &str, src: &Source, ticks: u64) {
    let path = scratch(&format!("{label}.fsr"));
    record(src, ticks, &path);
    let (per, boids) = per_boid(&path, ticks);
    println!(
        "REPLAY {label}: {boids} simulated boids x {ticks} ticks: {} bytes, {per:.2} bytes/boid/tick",
        std::fs::metadata(&path).unwrap().len()
    );
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Opens `path` afresh and decodes `samples` random ticks, one open each;
/// returns (median, worst).
fn seeks(path: &Path, ticks: u64, samples: u32) -> (Duration, Duration) {
    let mut rng = Pcg32::new(9, 9);
    let mut times = Vec::new();
    for i in 0..samples {
        // Every tenth sample is a worst case: the tick before a keyframe.
        let k = u64::from(Replay::open(path).unwrap().header.keyframe_every);
        let t = if i % 10 == 0 {
            (rng.below((ticks / k) as u32) as u64 + 1) * k - 1
        } else {
            rng.below(ticks as u32 + 1) as u64
        };
        let start = Instant::now();
        let mut r = Replay::open(path).unwrap();
        black_box(r.state_at(t).unwrap());
        times.push(start.elapsed());
    }
    let worst = *times.iter().max().unwrap();
    (median(times), worst)
}

fn compare(label: &str, src: &Source, ticks: u64, rounds: usize) {
    // Timing: many alternating rounds of a tenth of the run; size and
    // seeking: the whole run.
    let path = scratch(&format!("{label}.fsr"));
    let (mut sim, mut rec, mut ver) = (Vec::new(), Vec::new(), Vec::new());
    let short = ticks / 10;
    for _ in 0..rounds {
        sim.push(simulate(src, short));
        rec.push(record(src, short, &path));
        ver.push(verify(&path, short));
    }
    record(src, ticks, &path);
    let r = Replay::open(&path).unwrap();
    let (per, boids) = per_boid(&path, ticks);
    let (s, c, v) = (median(sim), median(rec), median(ver));
    println!(
        "REPLAY {label}: {boids} simulated boids x {ticks} ticks: {} bytes, {per:.2} bytes/boid/tick, keyframe every {}",
        r.len, r.header.keyframe_every
    );
    println!(
        "RATIO  {label} record/simulate   flockstep-record {:>8.1} ms   simulate {:>8.1} ms   ratio {:.3}x (overhead {:+.1} %)",
        c.as_secs_f64() * 1e3,
        s.as_secs_f64() * 1e3,
        c.as_secs_f64() / s.as_secs_f64(),
        (c.as_secs_f64() / s.as_secs_f64() - 1.0) * 100.0
    );
    println!(
        "RATIO  {label} verify speed      flockstep-verify {:>8.1} ms   simulate {:>8.1} ms   speed {:.3}x of simulation",
        v.as_secs_f64() * 1e3,
        s.as_secs_f64() * 1e3,
        s.as_secs_f64() / v.as_secs_f64()
    );
    let (m, w) = seeks(&path, ticks, 100);
    println!(
        "SEEK   {label}: open + decode a random tick: median {:.2} ms, worst {:.2} ms",
        m.as_secs_f64() * 1e3,
        w.as_secs_f64() * 1e3
    );
}

fn bench(c: &mut Criterion) {
    let quick = std::env::var_os("REPLAY_BENCH_QUICK").is_some();
    let (ticks, rounds, long) = if quick {
        (1_000, 3, 10_000)
    } else {
        (10_000, 9, 100_000)
    };
    compare(
        "weighted-2d",
        &source(
            "flock-weights",
            &["boids=1000", "world_min=[-150,-150]", "world_max=[150,150]"],
        ),
        ticks,
        rounds,
    );
    compare(
        "heading-2d",
        // 1,000 boids at the density the flock bench uses (about 9 within
        // each boid's 75-unit radius).
        &source(
            "flock-field-of-view",
            &["boids=1000", "world_min=[0,0]", "world_max=[1600,1200]"],
        ),
        ticks,
        rounds,
    );
    // Issue 18's cases: size only.
    size_only(
        "weighted-2d-dense",
        &source(
            "flock-weights",
            &["boids=1000", "world_min=[0,0]", "world_max=[81,81]"],
        ),
        1_000,
    );
    size_only("gems-3d", &source("flock-aquarium", &["boids=1000"]), 1_000);
    // A long recording: the lesson as shipped (40 boids).
    let src = source("flock-weights", &[]);
    let path = scratch("long.fsr");
    let t = record(&src, long, &path);
    let len = std::fs::metadata(&path).unwrap().len();
    println!(
        "REPLAY flock-weights x {long} ticks: {len} bytes, recorded in {:.2} s",
        t.as_secs_f64()
    );
    let (m, w) = seeks(&path, long, 400);
    println!(
        "SEEK   flock-weights x {long} ticks: open + decode a random tick: median {:.2} ms, worst {:.2} ms (target 50 ms)",
        m.as_secs_f64() * 1e3,
        w.as_secs_f64() * 1e3
    );
    let mut r = Replay::open(&path).unwrap();
    c.bench_function("replay_seek_before_keyframe_40_boids", |b| {
        b.iter(|| {
            r.state_at(511).unwrap();
            r.state_at(255).unwrap();
        })
    });
}

criterion_group!(benches, bench);

fn main() {
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
