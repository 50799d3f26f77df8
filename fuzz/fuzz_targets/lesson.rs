//! Lessons and `--set` overrides on arbitrary input: a bundled lesson's
//! text, with a stretch of it replaced by arbitrary text, and overrides of
//! known and unknown keys with edge and arbitrary values is parsed,
//! checked and, when it loads and is small, simulated for a few ticks and
//! recorded to memory and read back. Every step must return an error or
//! succeed: never panic, overflow, hang or allocate without bound; a
//! recording that succeeds must read back with the same final hash.
#![no_main]

use flockstep::lesson::{Lesson, Override};
use flockstep::bundled::BUNDLED;
use flockstep::replay::Replay;
use flockstep::replay::run::{Source, record};
use flockstep::sim::{AnySim, Scenario};
use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::io::Cursor;

/// Every scenario key of every sim, and a few nested ones.
const KEYS: &[&str] = &[
    "sim", "model", "dims", "world_min", "world_max", "bounds", "update", "search", "dt",
    "dt_jitter", "frame_seed", "seed", "boids", "spawn_min", "spawn_max", "speed_min",
    "speed_max", "boid", "boid.0.at", "boid.0.vel", "boid.0.heading", "boid.0.speed",
    "boid.0.name", "obstacles", "obstacles.0.at", "obstacles.0.radius", "view_range", "fov",
    "separate_range", "separate_turn", "check_distance", "check_range", "avoid_turn",
    "naive_angle_average", "ignore_obstacles_behind", "perception", "max_visible",
    "separation_dist", "min_urgency", "max_urgency", "max_speed", "desired_speed",
    "max_change", "gravity", "view_angle", "strength", "min_distance", "w_separation",
    "w_alignment", "w_cohesion", "min_speed", "map", "width", "height", "levels", "walls",
    "start", "goal", "heuristic", "heuristic_weight", "tie_break", "uphill_weight",
    "downhill_weight", "max_climb", "max_drop", "label", "searches", "searches.0.heuristic",
    "searches.1.tie_break", "targets", "chasers", "chasers.0.at", "chasers.0.target",
    "chasers.0.recompute_every_tick", "chasers.1.name", "target_names", "moves",
    "moves.0.tick", "moves.0.to", "random_every", "random_radius", "eye_height", "max_path",
];

/// Values the fuzzer's strings are mixed with: the edges of every range.
const VALUES: &[&str] = &[
    "0", "1", "-1", "2", "3", "9", "10", "360", "1000", "4096", "10000", "10001", "1000000",
    "0.001", "0.0000000003", "0.00001", "2147483647", "-2147483648", "9223372036854775807",
    "\"1/60\"", "[0,0]", "[0,0,0]", "[-1000000,-1000000]", "[1000000,1000000,1000000]",
    "[[0,0]]", "[[4095,4095]]", "true", "false", "\"wrap\"", "in_place", "gems", "heading",
    "weighted", "none", "zero", "lifo", "[]", "{}",
];

#[derive(Arbitrary, Debug)]
struct Case {
    /// Which bundled lesson the text starts from.
    base: u8,
    /// Bytes `at..at + cut` of its text replaced by `text` (when `splice`).
    splice: bool,
    at: u16,
    cut: u8,
    text: String,
    sets: Vec<(u8, u8, String)>,
    raw_sets: Vec<String>,
    ticks: u8,
}

/// Small enough to simulate in a fuzz iteration.
fn small(s: &Scenario) -> bool {
    match s {
        Scenario::Flock(f) => f.boid_count() <= 300,
        Scenario::Path(p) => p.grid.width() * p.grid.height() <= 1 << 16 && p.searches.len() <= 4,
        Scenario::Line(l) => {
            l.grid.width() * l.grid.height() <= 1 << 16 && l.chasers.len() <= 16
        }
    }
}

fuzz_target!(|c: Case| {
    let b = &BUNDLED[c.base as usize % BUNDLED.len()];
    let (mut text, file) = (b.source.to_owned(), b.path.to_owned());
    if c.splice {
        let mut at = c.at as usize % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + c.cut as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        text.replace_range(at..end, &c.text);
    }
    let mut args: Vec<String> = c
        .sets
        .iter()
        .take(8)
        .map(|(k, v, s)| {
            let key = KEYS[*k as usize % KEYS.len()];
            let value = if *v as usize % 4 == 0 {
                s.clone()
            } else {
                VALUES[*v as usize % VALUES.len()].to_owned()
            };
            format!("{key}={value}")
        })
        .collect();
    args.extend(c.raw_sets.iter().take(4).cloned());
    let overrides: Vec<Override> = args.iter().filter_map(|a| Override::parse(a).ok()).collect();
    let Ok(lesson) = Lesson::parse_with(&text, &file, &overrides) else {
        return;
    };
    if !small(&lesson.scenario) {
        return;
    }
    let Ok(mut sim) = AnySim::new(&lesson.scenario) else {
        return;
    };
    let ticks = u64::from(c.ticks % 24);
    for _ in 0..ticks {
        sim.step();
    }
    // Recorded to memory and read back: the same code `record` and
    // `verify` use, the same final hash.
    let source = Source {
        file,
        text,
        overrides: overrides.iter().map(|o| o.arg.clone()).collect(),
    };
    let Ok((bytes, rec)) = record(Vec::new(), &source, ticks, None, &BTreeMap::new(), |_| {})
    else {
        return;
    };
    let mut r = Replay::from_reader(Cursor::new(&bytes[..]), "fuzz.fsr").expect("reads back");
    let (_, info) = r.state_at(ticks).expect("every tick reads back");
    assert_eq!(info.hash, rec.final_hash);
    assert_eq!(sim.snapshot().state_hash(), rec.final_hash);
});
