//! Live what-ifs (issue 45): a change of a parameter, a painted cell, a
//! moved start or chaser, made at a tick, recorded, replayed and verified
//! identically, and refused as a lesson's `--set` would be.

use flockstep::replay::run::{self, Source, Verdict};
use flockstep::replay::{Replay, live};
use flockstep::sim::{AnySim, AnyState, Cell, Ground, Input};
use std::collections::BTreeMap;
use std::io::Cursor;

fn source(id: &str, sets: &[&str]) -> Source {
    flockstep::bundled::source(id, sets).unwrap()
}

fn set(pane: Option<u32>, key: &str, value: &str) -> Input {
    Input::Set {
        pane,
        key: key.into(),
        value: value.into(),
    }
}

fn at(list: &[(u64, Input)]) -> BTreeMap<u64, Vec<Input>> {
    let mut m: BTreeMap<u64, Vec<Input>> = BTreeMap::new();
    for (t, i) in list {
        m.entry(*t).or_default().push(i.clone());
    }
    m
}

/// Records `ticks` ticks with `inputs`, checks the file verifies, and
/// gives every state.
fn recorded(src: &Source, ticks: u64, inputs: &BTreeMap<u64, Vec<Input>>) -> Vec<AnyState> {
    let (bytes, _) = run::record(Vec::new(), src, ticks, Some(16), inputs, |_| {}).unwrap();
    let mut r = Replay::from_reader(Cursor::new(&bytes[..]), "mem.fsr").unwrap();
    assert!(
        matches!(run::verify(&mut r, |_| {}), Ok(Verdict::Match { .. })),
        "a recording with inputs verifies"
    );
    let mut listed = BTreeMap::new();
    for f in r.frames() {
        let f = f.unwrap();
        if !f.inputs.is_empty() {
            listed.insert(f.tick, f.inputs);
        }
    }
    assert_eq!(&listed, inputs, "the file holds the inputs at their ticks");
    (0..=ticks).map(|t| r.state_at(t).unwrap().0).collect()
}

/// From the state before the change's tick, a sim built from the lesson
/// with the change as `--set` steps exactly as the recording does: the
/// change took that parameter and nothing else.
fn same_as_set_from_the_start(id: &str, change: (u64, Input), as_set: &[&str], ticks: u64) {
    let src = source(id, &[]);
    let t = change.0;
    let states = recorded(&src, ticks, &at(&[change]));
    let plain = recorded(&src, t, &BTreeMap::new());
    assert_eq!(
        states[..t as usize],
        plain[..t as usize],
        "{id}: before the change, the lesson as written"
    );
    let mut sim = AnySim::new(&source(id, as_set).lesson().unwrap().scenario).unwrap();
    sim.restore(states[t as usize - 1].clone()).unwrap();
    for k in t..=ticks {
        sim.step();
        assert!(sim.state_eq(&states[k as usize]), "{id}: tick {k}");
    }
    assert_ne!(
        states[ticks as usize],
        recorded(&src, ticks, &BTreeMap::new())[ticks as usize],
        "{id}: the change changes the run"
    );
}

#[test]
fn a_weight_changed_mid_run_is_that_weight_from_then_on() {
    same_as_set_from_the_start(
        "flock-weights",
        (40, set(None, "w_cohesion", "0")),
        &[
            "variants.0.w_cohesion=0",
            "variants.1.w_cohesion=0",
            "variants.2.w_cohesion=0",
            "variants.3.w_cohesion=0",
        ],
        80,
    );
    same_as_set_from_the_start(
        "flock-field-of-view",
        (30, set(None, "fov", "90")),
        &["fov=90"],
        60,
    );
    same_as_set_from_the_start(
        "flock-aquarium",
        (20, set(None, "perception", "3")),
        &["perception=3"],
        40,
    );
}

#[test]
fn one_pane_changes_alone() {
    let src = source("flock-alignment", &[]);
    let states = recorded(&src, 60, &at(&[(30, set(Some(1), "fov", "1"))]));
    let plain = recorded(&src, 60, &BTreeMap::new());
    let (AnyState::Panes(a), AnyState::Panes(b)) = (&states[60], &plain[60]) else {
        panic!("variants")
    };
    assert_eq!(a[0], b[0], "pane 0 runs as written");
    assert_ne!(a[1], b[1], "pane 1 sees within 1 from tick 30");
}

#[test]
fn a_search_parameter_restarts_only_its_search() {
    let src = source("path-heuristics", &[]);
    let states = recorded(&src, 60, &at(&[(50, set(Some(2), "heuristic", "zero"))]));
    let AnyState::Path(p) = &states[50] else {
        panic!("path")
    };
    let AnyState::Path(before) = &states[49] else {
        panic!("path")
    };
    assert_eq!(
        p.searches[2].expanded, 1,
        "search 2 started again and took one step"
    );
    assert_eq!(
        p.searches[0].expanded,
        before.searches[0].expanded + 1,
        "search 0 went on"
    );
    // From then on, search 2 is the search a lesson with h = 0 runs.
    let fresh = recorded(
        &source("path-heuristics", &["searches.2.heuristic=\"zero\""]),
        11,
        &BTreeMap::new(),
    );
    for k in 0..=10 {
        let (AnyState::Path(a), AnyState::Path(b)) = (&states[50 + k], &fresh[1 + k]) else {
            panic!("path")
        };
        assert_eq!(a.searches[2], b.searches[2], "tick {}", 50 + k);
    }
}

#[test]
fn growing_and_shrinking_a_flock() {
    let count = |s: &AnyState| -> Vec<usize> {
        s.panes()
            .iter()
            .map(|p| match p {
                AnyState::Flock(f) => f.boids.len(),
                _ => panic!("flock"),
            })
            .collect()
    };
    for (id, placed) in [("flock-aquarium", 5), ("flock-in-place", 0)] {
        let src = source(id, &[]);
        let states = recorded(
            &src,
            30,
            &at(&[
                (10, set(None, "boids", "60")),
                (20, set(None, "boids", "30")),
            ]),
        );
        let panes = count(&states[0]).len();
        assert_eq!(count(&states[10]), vec![placed + 60; panes], "{id}");
        assert_eq!(count(&states[20]), vec![placed + 30; panes], "{id}");
        // The new boids are the ones the lesson with 60 starts with.
        let big = AnySim::new(&source(id, &["boids=60"]).lesson().unwrap().scenario).unwrap();
        let grown = AnySim::new(&src.lesson().unwrap().scenario).unwrap();
        let mut sim = grown.clone();
        sim.restore(states[9].clone()).unwrap();
        live::apply(&mut sim, &src, &[], &set(None, "boids", "60")).unwrap();
        let (big, sim) = (big.snapshot(), sim.snapshot());
        let (AnyState::Flock(a), AnyState::Flock(b)) = (&big.panes()[0], &sim.panes()[0]) else {
            panic!("flock")
        };
        assert_eq!(a.boids[placed + 59], b.boids[placed + 59], "{id}");
    }
}

#[test]
fn painting_and_moving_ends_replay() {
    let src = source("path-open-list", &[]);
    let AnySim::Path(p) = AnySim::new(&src.lesson().unwrap().scenario).unwrap() else {
        panic!("path")
    };
    let (s, g) = (p.config().start, p.config().goal);
    let open = (0..p.config().grid.width() as i32)
        .flat_map(|x| (0..p.config().grid.height() as i32).map(move |y| Cell::new(x, y)))
        .find(|&c| !p.config().grid.is_wall(c) && c != s && c != g)
        .unwrap();
    let inputs = at(&[
        (
            5,
            Input::Ground {
                at: open,
                to: Ground::Wall,
            },
        ),
        (
            6,
            Input::Ground {
                at: open,
                to: Ground::Open(7),
            },
        ),
        (7, Input::MoveStart { to: open }),
    ]);
    let states = recorded(&src, 12, &inputs);
    let AnyState::Path(after) = &states[7] else {
        panic!("path")
    };
    assert!(
        after.searches.iter().all(|s| s.expanded == 1),
        "every search started again"
    );

    let line = source("line-of-sight", &[]);
    let to = Cell::new(3, 3);
    let states = recorded(&line, 20, &at(&[(3, Input::MoveChaser { chaser: 0, to })]));
    let AnyState::Line(m) = &states[3] else {
        panic!("line")
    };
    let p = m.chasers[0].pos;
    assert!(
        p == to || p.is_8_adjacent(to),
        "chaser 0 walks on from {to}: {p}"
    );
}

#[test]
fn shrinking_below_a_beats_boid_is_refused_as_the_lesson_would() {
    let m = refused("flock-in-place", set(None, "boids", "5"));
    assert!(m.contains("`boid:10`: the scenario has 5 boids"), "{m}");
}

/// What `record` says of a change it refuses.
fn refused(id: &str, input: Input) -> String {
    let src = source(id, &[]);
    let e = run::record(Vec::new(), &src, 20, None, &at(&[(10, input)]), |_| {}).unwrap_err();
    match e {
        run::RunError::Input { tick: 10, error } => error.message,
        e => panic!("{e}"),
    }
}

#[test]
fn refusals_say_what_a_lesson_would() {
    // Out of range: the message a lesson's --set gets.
    let lesson = flockstep::bundled::source("flock-weights", &["w_cohesion=200"])
        .unwrap()
        .lesson()
        .unwrap_err()
        .to_string();
    let live = refused("flock-weights", set(None, "w_cohesion", "200"));
    assert_eq!(live, lesson);
    assert!(
        live.contains("`w_cohesion` = 200 is out of range: expected 0..=100"),
        "{live}"
    );
    for (id, input, says) in [
        (
            "flock-weights",
            set(None, "seed", "3"),
            "`seed` does not change while a flock sim runs",
        ),
        (
            "flock-weights",
            set(Some(9), "fov", "3"),
            "the lesson has 4 variants, not a pane 9",
        ),
        (
            "flock-field-of-view",
            set(Some(1), "fov", "3"),
            "one pane, not a pane 1",
        ),
        (
            "line-chase-arc",
            set(Some(1), "chasers.0.recompute_every_tick", "true"),
            "changes every pane at once in a lesson with variants",
        ),
        (
            "path-heuristics",
            set(None, "w_cohesion", "1"),
            "`w_cohesion` does not change while a path sim runs",
        ),
        (
            "flock-weights",
            Input::Ground {
                at: Cell::new(1, 1),
                to: Ground::Wall,
            },
            "does not apply to a flock sim",
        ),
        (
            "path-open-list",
            Input::Ground {
                at: Cell::new(999, 1),
                to: Ground::Wall,
            },
            "is off the",
        ),
        (
            "line-of-sight",
            Input::MoveChaser {
                chaser: 7,
                to: Cell::new(1, 1),
            },
            "there is no chaser 7",
        ),
    ] {
        let m = refused(id, input.clone());
        assert!(m.contains(says), "{id} {input}: {m}");
    }
}

#[test]
fn a_change_is_checked_with_the_changes_before_it() {
    // gems: min_speed may not exceed max_speed; raising both in turn is fine
    // only because the first change is remembered.
    let src = source("flock-aquarium", &[]);
    let first = set(None, "max_speed", "9");
    let second = set(None, "desired_speed", "8");
    live::scenario_with(&src, &[&first], &second).unwrap();
    let alone = live::scenario_with(&src, &[], &second);
    assert!(
        alone.is_err(),
        "desired_speed 8 is above the lesson's max_speed"
    );
}

#[test]
fn a_chaser_switch_changes_every_pane_of_a_lesson_with_variants() {
    let src = source("line-chase-arc", &[]);
    let on = set(None, "chasers.0.recompute_every_tick", "true");
    let states = recorded(&src, 60, &at(&[(3, on)]));
    let plain = recorded(&src, 60, &BTreeMap::new());
    assert_eq!(states[2], plain[2]);
    for pane in 0..plain[60].panes().len() {
        let chaser = |s: &AnyState| match &s.panes()[pane] {
            AnyState::Line(l) => (l.chasers[0], l.chasers[1].pos),
            _ => panic!("line"),
        };
        let parted = (3..=60).find(|&t| chaser(&states[t]).0 != chaser(&plain[t]).0);
        assert!(
            parted.is_some(),
            "pane {pane}: chaser 0 recomputes from tick 3"
        );
        for t in 0..=60 {
            assert_eq!(
                chaser(&states[t]).1,
                chaser(&plain[t]).1,
                "pane {pane}: chaser 1, tick {t}"
            );
        }
    }
}
