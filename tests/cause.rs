//! The cause of a divergence (issue 46): two runs made by planting one
//! change at one tick part there, and the cause names the entity and the
//! rule the change reached, with the parameter that differs.

use flockstep::replay::cause::{self, Cause};
use flockstep::replay::run::{self, Verdict};
use flockstep::replay::{Replay, live};
use flockstep::sim::Input;
use std::collections::BTreeMap;
use std::io::Cursor;

fn recorded(id: &str, ticks: u64, inputs: &[(u64, &str)]) -> Replay<Cursor<Vec<u8>>> {
    let source = flockstep::bundled::source(id, &[]).unwrap();
    let mut map: BTreeMap<u64, Vec<Input>> = BTreeMap::new();
    for (t, i) in inputs {
        map.entry(*t).or_default().push(Input::parse(i).unwrap());
    }
    let (bytes, _) = run::record(Vec::new(), &source, ticks, None, &map, |_| {}).unwrap();
    Replay::from_reader(Cursor::new(bytes), "mem.fsr").unwrap()
}

/// The cause of the pair's first divergence, which must be at `at`.
fn cause_of(id: &str, ticks: u64, plant: (u64, &str), at: u64) -> Cause {
    let mut a = recorded(id, ticks, &[]);
    let mut b = recorded(id, ticks, &[plant]);
    let Ok(Verdict::Diverged(d)) = run::diff(&mut a, &mut b) else {
        panic!("{id}: the planted change parts the runs")
    };
    assert_eq!(d.tick, at, "{id}: where diff says they part");
    cause::cause(&mut a, &mut b, d.tick).unwrap()
}

#[test]
fn a_changed_separation_distance_is_named_as_the_separation_rule() {
    let c = cause_of("flock-separation", 80, (40, "set:min_distance=3"), 40);
    assert!(c.entity.starts_with("boid "), "{c:?}");
    assert!(
        c.lines.iter().any(|l| l.starts_with("separation: a ")),
        "the separation rule's contribution differs: {c:?}"
    );
    assert!(
        c.params
            .iter()
            .any(|(k, _, b)| k.starts_with("min_distance") && b == "3"),
        "{c:?}"
    );
    let text = cause::report(&c);
    assert!(
        text.starts_with(&format!("cause at tick 40: {}", c.entity)),
        "{text}"
    );
}

#[test]
fn a_changed_weight_leaves_every_contribution_and_names_the_weight() {
    let c = cause_of("flock-weights", 80, (50, "set:w_cohesion=0"), 50);
    assert!(c.entity.starts_with("boid "), "{c:?}");
    assert!(
        c.lines[0].starts_with("every rule's contribution is the same in both"),
        "{c:?}"
    );
    assert!(
        c.params
            .iter()
            .any(|(k, a, b)| k.starts_with("w_cohesion") && a != b && b == "0"),
        "{c:?}"
    );
}

#[test]
fn a_changed_view_radius_names_the_mate_one_run_saw() {
    let c = cause_of("flock-cohesion", 80, (30, "set:fov=2"), 30);
    assert!(
        c.lines
            .iter()
            .any(|l| l.starts_with("mate ") && l.contains("was seen in a and not in b")),
        "{c:?}"
    );
}

#[test]
fn a_changed_heuristic_names_the_search_and_its_first_event() {
    let c = cause_of("path-heuristics", 20, (6, "set:1:heuristic=\"zero\""), 6);
    assert_eq!(c.entity, "search 1", "{c:?}");
    assert!(c.lines[0].starts_with("event "), "{c:?}");
    assert!(
        c.lines
            .iter()
            .any(|l| l.starts_with("a before the step: open:")),
        "{c:?}"
    );
    assert!(
        c.params
            .iter()
            .any(|(k, _, b)| k.starts_with("heuristic") && b.contains("zero")),
        "{c:?}"
    );
}

#[test]
fn a_chaser_switched_to_recompute_names_the_chaser() {
    let c = cause_of(
        "line-chase-arc",
        40,
        (10, "set:chasers.0.recompute_every_tick=true"),
        10,
    );
    assert_eq!(c.entity, "chaser 0", "{c:?}");
}

#[test]
fn runs_that_differ_from_the_start_say_so() {
    let mut a = recorded("flock-weights", 5, &[]);
    let source = flockstep::bundled::source("flock-weights", &["seed=9"]).unwrap();
    let (bytes, _) = run::record(Vec::new(), &source, 5, None, &BTreeMap::new(), |_| {}).unwrap();
    let mut b = Replay::from_reader(Cursor::new(bytes), "b.fsr").unwrap();
    let c = cause::cause(&mut a, &mut b, 0).unwrap();
    assert!(c.lines[0].contains("they start differently"), "{c:?}");
    // The in-force parameters of a recorded run with a change.
    let src = flockstep::bundled::source("flock-weights", &[]).unwrap();
    let changed = BTreeMap::from([(3, vec![Input::parse("set:w_cohesion=0").unwrap()])]);
    let before = live::params_in_force(&src, &changed, 2).unwrap();
    let after = live::params_in_force(&src, &changed, 3).unwrap();
    assert_ne!(before, after);
}

/// The state before the last one read comes from the replay's memory of
/// it, and equals the state decoded afresh.
#[test]
fn the_state_before_the_last_read_is_the_same_from_memory() {
    let mut r = recorded("flock-weights", 300, &[(50, "set:w_cohesion=0")]);
    let mut fresh = recorded("flock-weights", 300, &[(50, "set:w_cohesion=0")]);
    for t in [1, 2, 50, 51, 255, 256, 257, 300] {
        let (now, _) = r.state_at(t).unwrap();
        let (before, info) = r.state_at(t - 1).unwrap();
        assert_eq!(info.tick, t - 1);
        assert_eq!(before, fresh.state_at(t - 1).unwrap().0, "tick {}", t - 1);
        assert_eq!(now, fresh.state_at(t).unwrap().0, "tick {t}");
    }
}
