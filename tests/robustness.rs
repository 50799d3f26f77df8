//! Bad input never panics: mangled lessons, maps and literals, and a sim
//! driven to the documented extremes of every parameter.

use flockstep::bundled::BUNDLED;
use flockstep::lesson::{Lesson, Override};
use flockstep::num::{Pcg32, parse_angle, parse_fx};
use flockstep::sim::line::{ChaserConfig, LineConfig, LineSim};
use flockstep::sim::{Cell, Grid, NoTrace, Sim};
use std::panic::catch_unwind;

/// Byte-level damage: flips, deletions, duplications, truncation.
fn mangle(rng: &mut Pcg32, src: &str) -> String {
    let mut b = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if b.is_empty() {
            break;
        }
        let i = rng.below(b.len() as u32) as usize;
        match rng.below(5) {
            0 => {
                let alphabet = b"=[]{}\"'#.,-0123456789abcxyz \n";
                b[i] = alphabet[rng.below(alphabet.len() as u32) as usize];
            }
            1 => {
                b.remove(i);
            }
            2 => {
                let j = (i + 1 + rng.below(40) as usize).min(b.len());
                let chunk = b[i..j].to_vec();
                b.splice(i..i, chunk);
            }
            3 => b.truncate(i),
            _ => b[i] ^= 1 << rng.below(8),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mangled_lessons_are_errors_not_panics() {
    let mut rng = Pcg32::new(77, 1);
    let mut loaded = 0;
    for round in 0..3000 {
        let b = &BUNDLED[round % BUNDLED.len()];
        let src = mangle(&mut rng, b.source());
        let r = catch_unwind(|| Lesson::parse(&src, "mangled.toml"));
        match r {
            Err(_) => panic!("the lesson parser panicked on:\n{src}"),
            Ok(Ok(l)) => {
                loaded += 1;
                // Whatever loads must also run (a mangled digit can ask for
                // a million boids: those are built but stepped only once).
                let mut sim = flockstep::sim::AnySim::new(&l.scenario).unwrap();
                let big = matches!(&l.scenario, flockstep::sim::Scenario::Flock(c) if c.boid_count() > 2000);
                for _ in 0..if big { 1 } else { 20 } {
                    sim.step();
                }
            }
            Ok(Err(e)) => {
                assert!(!e.message.is_empty());
                assert!(e.line >= 1 && e.column >= 1, "{e}");
            }
        }
    }
    // Some mutations are harmless (inside narration); most are not.
    assert!(loaded > 0 && loaded < 3000, "{loaded}");
}

#[test]
fn arbitrary_overrides_are_errors_not_panics() {
    let src = BUNDLED[0].source();
    let values = [
        "",
        "[",
        "]",
        "1e999",
        "-1",
        "[[0,0]]",
        "{a=1}",
        "\"x\"",
        "true",
        "99999999999999999999",
        "[1,2,3]",
    ];
    let keys = [
        "seed",
        "map",
        "targets",
        "chasers",
        "chasers.0",
        "chasers.0.at",
        "chasers.9.at",
        "moves.0.tick",
        "width",
        "a.b.c",
        "sim",
    ];
    for k in keys {
        for v in values {
            let o = Override::parse(&format!("{k}={v}")).unwrap();
            let r = catch_unwind(|| Lesson::parse_with(src, "x.toml", std::slice::from_ref(&o)));
            assert!(r.is_ok(), "--set {k}={v} panicked");
        }
    }
}

#[test]
fn random_maps_and_literals_are_errors_not_panics() {
    let mut rng = Pcg32::new(5, 5);
    let alphabet = b"0123456789#\n\r x.-+e_degradturn\xc2\xb0";
    for _ in 0..20_000 {
        let len = rng.below(24) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u32) as usize])
            .collect();
        let s = String::from_utf8_lossy(&bytes).into_owned();
        assert!(
            catch_unwind(|| Grid::parse(&s)).is_ok(),
            "Grid::parse({s:?})"
        );
        assert!(catch_unwind(|| parse_fx(&s)).is_ok(), "parse_fx({s:?})");
        assert!(
            catch_unwind(|| parse_angle(&s)).is_ok(),
            "parse_angle({s:?})"
        );
    }
}

/// The largest grid, far-apart cells, the largest random steps and plans:
/// the line sim runs without overflow (every operation is checked).
#[test]
fn line_sim_at_its_documented_extremes() {
    let side = flockstep::sim::grid::MAX_SIDE;
    let far = Cell::new(side as i32 - 1, side as i32 - 1);
    let cfg = LineConfig {
        grid: Grid::open(side, side),
        seed: u64::MAX,
        targets: vec![far, Cell::new(0, side as i32 - 1)],
        chasers: vec![
            ChaserConfig {
                start: Cell::new(0, 0),
                target: 0,
                recompute_every_tick: false,
            },
            ChaserConfig {
                start: Cell::new(0, 0),
                target: 1,
                recompute_every_tick: true,
            },
        ],
        moves: Vec::new(),
        random_every: 1,
        random_radius: 1000,
        eye_height: 9,
        max_path: 1_000_000,
    };
    let mut sim = LineSim::new(cfg).unwrap();
    for _ in 0..2000 {
        sim.step(&mut NoTrace);
    }
    for (c, t) in sim.state().chasers.iter().zip(&sim.state().targets) {
        assert!(sim.config().grid.contains(c.pos) && sim.config().grid.contains(*t));
    }
    assert_eq!(sim.tick(), 2000);
}
