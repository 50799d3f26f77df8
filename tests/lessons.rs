//! Every bundled lesson is a test: it loads, it runs, its hashes are
//! golden, and what each beat shows is snapshotted for review.

use flockstep::bundled::BUNDLED;
use flockstep::lesson::Lesson;
use flockstep::replay::live::LessonRun;
use flockstep::sim::flock::FlockSim;
use flockstep::sim::line::{LineEvent, LineSim};
use flockstep::sim::path::PathSim;
use flockstep::sim::{NoTrace, Scenario, Sim};
use std::fmt::Write as _;

fn lessons() -> Vec<Lesson> {
    BUNDLED
        .iter()
        .map(|b| Lesson::parse(b.source(), b.path).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// A bundled lesson as it plays, with its own inputs.
fn played(l: &Lesson) -> LessonRun {
    let source = flockstep::bundled::source(&l.id, &[]).unwrap();
    LessonRun::new(&source, &Default::default()).unwrap()
}

fn line_sim(l: &Lesson) -> LineSim {
    let Scenario::Line(cfg) = &l.scenario.panes()[0] else {
        panic!("{} is not a line lesson", l.id)
    };
    LineSim::new(cfg.clone()).unwrap()
}

#[test]
fn every_lesson_file_is_bundled_and_named_after_its_id() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .map(|n| n.trim_end_matches(".toml").to_owned())
        .collect();
    on_disk.sort();
    let bundled: Vec<&str> = BUNDLED.iter().map(|b| b.id).collect();
    assert_eq!(on_disk, bundled);
    for (b, l) in BUNDLED.iter().zip(lessons()) {
        assert_eq!(
            b.id, l.id,
            "{}: [lesson] id must equal the file name",
            b.path
        );
    }
    let count = |sim: &str| {
        lessons()
            .iter()
            .filter(|l| l.scenario.sim_name() == sim)
            .count()
    };
    assert!(count("line") >= 3, "at least three line lessons");
    assert!(count("flock") >= 10, "at least ten flock lessons");
}

/// Every bundled lesson has a place in a course: each track belongs to one
/// sim and numbers its lessons 1, 2, 3, … without gaps; the picker and
/// `flockstep lessons` list them in that order.
#[test]
fn every_lesson_has_a_place_in_its_sims_course() {
    use std::collections::BTreeMap;
    let mut tracks: BTreeMap<String, (&'static str, Vec<u32>)> = BTreeMap::new();
    for l in lessons() {
        let (track, place) = l
            .course
            .clone()
            .unwrap_or_else(|| panic!("{}: no course", l.id));
        let e = tracks
            .entry(track.clone())
            .or_insert((l.scenario.sim_name(), Vec::new()));
        assert_eq!(e.0, l.scenario.sim_name(), "track {track} mixes sims");
        e.1.push(place);
    }
    for (track, (_, mut places)) in tracks {
        places.sort_unstable();
        let want: Vec<u32> = (1..=places.len() as u32).collect();
        assert_eq!(places, want, "track {track}: places 1..=n, each once");
    }
    let mut listed = lessons();
    listed.sort_by(|a, b| a.listing_key().cmp(&b.listing_key()));
    let picker: Vec<String> = flockstep::viewer::app::picker_entries()
        .into_iter()
        .map(|e| e.id)
        .collect();
    let ids: Vec<String> = listed.iter().map(|l| l.id.clone()).collect();
    assert_eq!(picker, ids);
    assert_eq!(
        &ids[..3],
        ["flock-separation", "flock-alignment", "flock-cohesion"]
    );
    let table = flockstep::cli::lessons_table();
    let at = |id: &str| table.find(&format!("\n{id} ")).unwrap();
    assert!(at("line-error-term") < at("line-octants"));
    assert!(at("line-octants") < at("line-chase-arc"));
    assert!(table.contains("boids 2 "), "{table}");
}

#[test]
fn every_beat_is_translated_into_japanese() {
    for l in lessons() {
        for (i, b) in l.beats.iter().enumerate() {
            assert!(
                b.translations.contains_key("ja"),
                "{} beat {} has no ja text",
                l.id,
                i + 1
            );
        }
        // The title bar, the picker and the panes speak the class's
        // language too.
        assert_ne!(l.title_in(Some("ja")), l.title, "{}: no ja title", l.id);
        assert_ne!(
            l.summary_in(Some("ja")),
            l.summary,
            "{}: no ja summary",
            l.id
        );
        for p in &l.panes {
            // "A*" reads the same in every language.
            assert!(
                p.name == "A*" || p.translations.contains_key("ja"),
                "{}: `{}` has no ja name",
                l.id,
                p.name
            );
        }
    }
}

/// The golden hashes: each lesson at its own length and at 500 ticks (or
/// its length, if longer). CI runs this in debug and in release: both must match the file.
#[test]
fn golden_hashes() {
    let mut out = String::new();
    for l in lessons() {
        // The lesson as it plays: its own inputs too.
        let mut run = played(&l);
        let _ = write!(out, "{:<26} tick 0 {:#018x}", l.id, run.sim.state_hash());
        run.step_to(l.ticks).unwrap();
        let _ = write!(out, "  tick {} {:#018x}", l.ticks, run.sim.state_hash());
        let end = l.ticks.max(500);
        run.step_to(end).unwrap();
        let _ = writeln!(out, "  tick {end} {:#018x}", run.sim.state_hash());
    }
    insta::assert_snapshot!("golden_hashes", out);
}

/// What each beat shows: the picture and the chasers' state at the beat's
/// tick, with the first words of its narration.
#[test]
fn per_beat_state() {
    for l in lessons() {
        let mut run = played(&l);
        let mut out = String::new();
        for (i, b) in l.beats.iter().enumerate() {
            run.step_to(b.at).unwrap();
            let sim = &run.sim;
            let words: Vec<&str> = b.text.split_whitespace().take(12).collect();
            let _ = writeln!(
                out,
                "== beat {} at tick {}{}: {} …\noverlays: {}\nhighlight: {}",
                i + 1,
                b.at,
                if b.pause { " (pause)" } else { "" },
                words.join(" "),
                b.overlays.join(", "),
                b.highlight.join(", ")
            );
            if let Some(q) = &b.question {
                let _ = writeln!(out, "question: {q}");
            }
            out.push_str(&sim.render_text());
            out.push('\n');
        }
        insta::assert_snapshot!(format!("beats_{}", l.id), out);
    }
}

/// The explain record of the error-term lesson, step by step.
#[test]
fn explain_events_of_the_error_term_lesson() {
    let l = lessons()
        .into_iter()
        .find(|l| l.id == "line-error-term")
        .unwrap();
    let mut sim = line_sim(&l);
    let mut out = String::new();
    while sim.tick() < l.ticks {
        let mut events: Vec<LineEvent> = Vec::new();
        sim.step(&mut events);
        for e in events {
            let _ = writeln!(out, "tick {:>2}: {e:?}", sim.tick());
        }
    }
    insta::assert_snapshot!("explain_line_error_term", out);
}

/// Runs `$body` with `$s` bound to a fresh sim of the lesson's own type,
/// once per pane of a lesson with variants.
macro_rules! with_sim {
    ($l:expr, $s:ident => $body:expr) => {
        for pane in $l.scenario.panes() {
            with_pane!(pane, $s => $body)
        }
    };
}

macro_rules! with_pane {
    ($pane:expr, $s:ident => $body:expr) => {
        match $pane {
            Scenario::Line(c) => {
                let $s = LineSim::new(c.clone()).unwrap();
                $body
            }
            Scenario::Flock(c) => {
                let $s = FlockSim::new(c.clone()).unwrap();
                $body
            }
            Scenario::Path(c) => {
                let $s = PathSim::new(c.clone()).unwrap();
                $body
            }
            Scenario::Panes(_) => unreachable!("a pane never holds variants"),
            Scenario::Custom(_) => unreachable!("flockstep's lessons are of its own sims"),
        }
    };
}

fn tracing_is_invisible<S: Sim + Clone>(a: S, id: &str) {
    let (mut a, mut b) = (a.clone(), a);
    let mut events = Vec::new();
    for _ in 0..120 {
        a.step(&mut NoTrace);
        b.step(&mut events);
        assert_eq!(a.state(), b.state(), "{id}");
    }
    assert!(!events.is_empty());
}

/// Tracing observes; it never changes the run.
#[test]
fn tracing_does_not_change_the_state() {
    for l in lessons() {
        with_sim!(l, s => tracing_is_invisible(s, &l.id));
    }
}

fn repeatable<S: Sim + Clone>(a: S, id: &str) {
    let (mut a, mut b) = (a.clone(), a);
    let mut hashes = Vec::new();
    for t in 0..200 {
        a.step(&mut NoTrace);
        b.step(&mut NoTrace);
        assert_eq!(a.state_hash(), b.state_hash(), "{id} tick {t}");
        hashes.push(a.state_hash());
    }
    let mut c = a.clone();
    for _ in 0..30 {
        a.step(&mut NoTrace);
        c.step(&mut NoTrace);
    }
    assert_eq!(a.state(), c.state());
    // The hash actually follows the state: not every tick hashes alike.
    hashes.sort();
    hashes.dedup();
    assert!(hashes.len() > 10, "{id}: the state hash barely changes");
}

/// Same inputs, same states; a clone taken mid-run continues identically.
#[test]
fn runs_are_repeatable_and_clones_continue_identically() {
    for l in lessons() {
        with_sim!(l, s => repeatable(s, &l.id));
    }
}

fn codec_round_trip<S: Sim>(mut sim: S) {
    for _ in 0..17 {
        sim.step(&mut NoTrace);
    }
    let bytes = flockstep::replay::codec::encode(sim.state()).unwrap();
    let back: S::State = flockstep::replay::codec::decode(&bytes).unwrap();
    assert_eq!(&back, sim.state());
    assert_eq!(flockstep::canon::state_hash(&back), sim.state_hash());
}

/// States survive the replay codec bit for bit.
#[test]
fn states_round_trip_through_the_codec() {
    for l in lessons() {
        with_sim!(l, s => codec_round_trip(s));
    }
}

/// Seeded random target moves: the seed matters, and the same seed repeats.
#[test]
fn random_moves_follow_the_seed() {
    let l = lessons()
        .into_iter()
        .find(|l| l.id == "line-chase-arc")
        .unwrap();
    let Scenario::Line(cfg) = &l.scenario.panes()[0] else {
        panic!("{} is not a line lesson", l.id)
    };
    let run = |seed: u64| {
        let mut c = cfg.clone();
        c.seed = seed;
        c.random_every = 2;
        c.random_radius = 3;
        let mut s = LineSim::new(c).unwrap();
        let mut targets = Vec::new();
        for _ in 0..60 {
            s.step(&mut NoTrace);
            targets.push(s.state().targets[0]);
        }
        targets
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
    let moves = run(1).windows(2).filter(|w| w[0] != w[1]).count();
    assert!(moves > 10, "the target hardly moved: {moves}");
}

/// A chaser follows one plan for at most `max_path` cells, then waits for
/// the target to move (the article's NEXT_POS_MAX).
#[test]
fn a_plan_is_followed_for_at_most_max_path_cells() {
    let l = lessons()
        .into_iter()
        .find(|l| l.id == "line-chase-arc")
        .unwrap();
    let Scenario::Line(cfg) = &l.scenario.panes()[0] else {
        panic!("{} is not a line lesson", l.id)
    };
    let mut c = cfg.clone();
    c.max_path = 5;
    c.moves.clear();
    let mut s = LineSim::new(c).unwrap();
    for _ in 0..30 {
        s.step(&mut NoTrace);
    }
    let a = &s.state().chasers[0];
    assert_eq!(a.status, flockstep::sim::line::Status::PlanExhausted);
    assert_eq!(a.plan.unwrap().done(), 5);
    // The recomputing chaser starts a new plan each tick and is never held.
    assert_eq!(
        s.state().chasers[1].status,
        flockstep::sim::line::Status::Arrived
    );
}
