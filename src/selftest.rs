//! The cross-platform determinism report: every bundled lesson run for a
//! fixed number of ticks, with each tick's state hash, and recorded to a
//! replay in memory, whose length and checksum stand for its bytes.
//!
//! The same function runs natively (in `tests/web.rs`) and compiled to
//! wasm32 (called from Node.js through the exported
//! `flockstep_selftest`, see `web/selftest.mjs`); the two reports must be
//! equal line for line. [`first_difference`] names the lesson and the
//! first tick where two reports part.
//!
//! [`bench_flock`] is the flock workload whose ticks per second are
//! compared between wasm and native (`cargo bench --bench wasm`).

use crate::replay::run::{Source, record, tick_hashes};
use crate::sim::AnySim;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Every lesson runs at least this many ticks (more if the lesson is
/// longer): each lesson's whole length, and well past where most settle.
pub const MIN_TICKS: u64 = 600;

/// The first line of a report; names the format.
pub const HEADER: &str = "flockstep selftest 1";

/// The flock that the wasm/native speed comparison runs: article 004's
/// weighted model in 2-D, walls on, about a dozen boids in view of each
/// (`boids` is set per run).
pub const BENCH_LESSON: &str = r#"[lesson]
id = "flock-bench"
title = "Benchmark flock"
summary = "The weighted model in a 2-D box, sized for about a dozen boids in view of each."
ticks = 100

[scenario]
sim = "flock"
model = "weighted"
dims = 2
boids = 1000
seed = 7
world_min = [0, 0]
world_max = [1000, 1000]
"#;

/// The report for every bundled lesson (see the module docs): one
/// `lesson ID ticks N` line, then `TICK HASH` for ticks `0..=N`, then
/// `replay ID bytes LEN crc32c CRC`.
pub fn report() -> Result<String, String> {
    let mut out = String::new();
    let _ = writeln!(out, "{HEADER}");
    for b in crate::bundled::BUNDLED {
        let source =
            crate::bundled::source(b.id, &[]).ok_or_else(|| format!("{}: vanished", b.id))?;
        let lesson = source.lesson()?;
        let ticks = lesson.ticks.max(MIN_TICKS);
        let hashes = tick_hashes(&source, ticks)?;
        let _ = writeln!(out, "lesson {} ticks {ticks}", b.id);
        for (t, h) in hashes.iter().enumerate() {
            let _ = writeln!(out, "{t} {h:016x}");
        }
        let (bytes, _) = record(Vec::new(), &source, ticks, None, &BTreeMap::new(), |_| {})?;
        let _ = writeln!(
            out,
            "replay {} bytes {} crc32c {:08x}",
            b.id,
            bytes.len(),
            crc32c::crc32c(&bytes)
        );
    }
    Ok(out)
}

/// Where two reports first part: the lesson and tick (or line) and both
/// sides, as one sentence; `None` when they are equal.
pub fn first_difference(native: &str, other: &str, other_name: &str) -> Option<String> {
    let mut lesson = "(before the first lesson)".to_owned();
    let (mut a, mut b) = (native.lines(), other.lines());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if x == y => {
                if let Some(rest) = x.strip_prefix("lesson ") {
                    lesson = rest.split(' ').next().unwrap_or(rest).to_owned();
                }
            }
            (x, y) => {
                let (x, y) = (x.unwrap_or("(end)"), y.unwrap_or("(end)"));
                let tick = |l: &str| {
                    l.split_once(' ')
                        .filter(|(t, _)| t.parse::<u64>().is_ok())
                        .map(|(t, h)| (t.to_owned(), h.to_owned()))
                };
                return Some(match (tick(x), tick(y)) {
                    (Some((t, hx)), Some((u, hy))) if t == u => format!(
                        "lesson {lesson}: first differing tick {t}: native hash {hx}, {other_name} {hy}"
                    ),
                    _ => format!("lesson {lesson}: native has `{x}`, {other_name} has `{y}`"),
                });
            }
        }
    }
}

/// Runs [`BENCH_LESSON`] with `boids` boids for `ticks` ticks and returns
/// the final state hash (so both sides can be checked to have done the
/// same work). Only the last state is hashed: the time is the stepping.
pub fn bench_flock(boids: u32, ticks: u64) -> Result<u64, String> {
    let source = Source {
        file: "flock-bench".into(),
        text: BENCH_LESSON.into(),
        overrides: vec![format!("boids={boids}")],
    };
    let lesson = source.lesson()?;
    let mut sim = AnySim::new(&lesson.scenario).map_err(|m| format!("flock-bench: {m}"))?;
    for _ in 0..ticks {
        sim.step();
    }
    Ok(sim.state_hash())
}

/// The functions Node.js calls in the wasm build (`web/selftest.mjs`).
/// Results are left in a buffer that `exports::flockstep_out_ptr`
/// points at.
#[cfg(target_arch = "wasm32")]
pub mod exports {
    use std::cell::RefCell;

    thread_local! {
        static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    fn put(text: String) -> u32 {
        OUT.with(|o| {
            *o.borrow_mut() = text.into_bytes();
            o.borrow().len() as u32
        })
    }

    /// Writes the report (or `error: …`) to the buffer; returns its length.
    #[unsafe(no_mangle)]
    pub extern "C" fn flockstep_selftest() -> u32 {
        put(super::report().unwrap_or_else(|m| format!("error: {m}")))
    }

    /// Runs the bench flock; returns its final hash (0 on error, with the
    /// message in the buffer).
    #[unsafe(no_mangle)]
    pub extern "C" fn flockstep_bench_flock(boids: u32, ticks: u32) -> u64 {
        match super::bench_flock(boids, u64::from(ticks)) {
            Ok(h) => h,
            Err(m) => {
                put(format!("error: {m}"));
                0
            }
        }
    }

    /// Where the last result's bytes start in the module's memory.
    #[unsafe(no_mangle)]
    pub extern "C" fn flockstep_out_ptr() -> *const u8 {
        OUT.with(|o| o.borrow().as_ptr())
    }
}
