//! Two runs side by side (issue 46): the view finds the divergence and
//! the fields `flockstep diff` finds on the same pair, ringing the
//! entities that differ in both panes; its key walks from the first
//! divergence to each next entity that parts; runs of different sims are
//! refused; and the frame shows both panes, the divergence on the
//! timeline and the cause in the side panel.

use flockstep::replay::Replay;
use flockstep::replay::fields::entity_of;
use flockstep::replay::run::{self, Verdict};
use flockstep::sim::Input;
use flockstep::viewer::app::{
    App, Cmd, Player, RenderAt, RenderOptions, Screen, compared, prepare_render_compare,
};
use flockstep::viewer::compare::{Bytes, Compare, DriftKind, Run};
use flockstep::viewer::draw::compose;
use std::collections::BTreeMap;
use std::io::Cursor;

/// A bundled lesson recorded for `ticks` with planted inputs, in memory.
fn run_of(id: &str, ticks: u64, inputs: &[(u64, &str)], name: &str) -> Run {
    let source = flockstep::bundled::source(id, &[]).unwrap();
    let mut map: BTreeMap<u64, Vec<Input>> = BTreeMap::new();
    for (t, i) in inputs {
        map.entry(*t).or_default().push(Input::parse(i).unwrap());
    }
    let (bytes, _) = run::record(Vec::new(), &source, ticks, None, &map, |_| {}).unwrap();
    Run {
        name: name.to_owned(),
        bytes: Bytes::Memory(bytes.into()),
    }
}

fn replay(r: &Run) -> Replay<Cursor<Vec<u8>>> {
    let Bytes::Memory(b) = &r.bytes else {
        unreachable!()
    };
    Replay::from_reader(Cursor::new(b.to_vec()), &r.name).unwrap()
}

/// flock-separation for 90 ticks, and the same with the separation
/// distance raised to 3 at tick 40.
fn separation_pair() -> (Run, Run) {
    let a = run_of("flock-separation", 90, &[], "a.fsr");
    let b = run_of(
        "flock-separation",
        90,
        &[(40, "set:min_distance=3")],
        "b.fsr",
    );
    (a, b)
}

/// `flockstep diff`'s divergence of the pair.
fn diffed(a: &Run, b: &Run) -> run::Divergence {
    match run::diff(&mut replay(a), &mut replay(b)).unwrap() {
        Verdict::Diverged(d) => d,
        v => panic!("the planted change parts the runs: {v:?}"),
    }
}

/// The player of the pair, moved to `tick`.
fn player_at(a: &Run, b: &Run, tick: u64) -> App {
    let mut app = App::new();
    app.screen = Screen::Player(Box::new(compared(a, b).unwrap()));
    app.handle(Cmd::Time(flockstep::viewer::timeline::Command::Scrub(tick)));
    app
}

fn compare_of(app: &App) -> &Compare {
    app.player().unwrap().compare.as_deref().unwrap()
}

#[test]
fn the_view_parts_where_diff_does_with_the_same_fields() {
    // A* with another heuristic from tick 6: no entity has a position to
    // compare, so every field is compared, as `diff` compares them.
    let a = run_of("path-heuristics", 40, &[], "a.fsr");
    let b = run_of("path-heuristics", 40, &[(6, "set:heuristic=zero")], "b.fsr");
    let d = diffed(&a, &b);
    let app = player_at(&a, &b, d.tick);
    let c = compare_of(&app);
    assert_eq!(c.first, Some(d.tick));
    assert_eq!(c.now.tick, d.tick);
    assert_eq!(c.now.total, d.total, "as many fields differ as diff counts");
    let shown: Vec<_> = c
        .now
        .fields
        .iter()
        .map(|f| (&f.path, &f.old, &f.new))
        .collect();
    let diff: Vec<_> = d.fields.iter().map(|f| (&f.path, &f.old, &f.new)).collect();
    assert!(!shown.is_empty());
    assert_eq!(
        shown[..],
        diff[..shown.len()],
        "the same fields, a's and b's values"
    );
    assert!(
        c.now.entities.iter().any(|e| e.starts_with("search:")),
        "a search differs: {:?}",
        c.now.entities
    );
    // The tick before, nothing differs.
    let app = player_at(&a, &b, d.tick - 1);
    assert_eq!(compare_of(&app).now.total, 0);
    assert!(compare_of(&app).now.entities.is_empty());
}

#[test]
fn a_flock_pair_rings_the_boids_apart_in_both_panes_and_plots_their_drift() {
    let (a, b) = separation_pair();
    let d = diffed(&a, &b);
    assert_eq!(d.tick, 40);
    let app = player_at(&a, &b, 60);
    let p = app.player().unwrap();
    let c = compare_of(&app);
    assert!(c.now.boids, "a flock compares its boids");
    assert!(!c.now.entities.is_empty());
    // Every boid named differs in position or velocity, and the fields
    // listed are theirs, with both values.
    let (sa, sb) = (p.session.sim().snapshot(), c.other.sim().snapshot());
    let (fa, fb) = (sa.panes(), sb.panes());
    for f in &c.now.fields {
        let e = entity_of(&f.path).unwrap();
        assert!(c.now.entities.contains(&e), "{e}");
        assert_ne!(f.old, f.new);
    }
    let id: usize = c.now.entities[0]["boid:".len()..].parse().unwrap();
    let moved = fa.iter().zip(fb).any(|(x, y)| match (x, y) {
        (flockstep::sim::AnyState::Flock(x), flockstep::sim::AnyState::Flock(y)) => {
            x.boids[id] != y.boids[id]
        }
        _ => false,
    });
    assert!(moved, "boid {id} stands or moves apart");
    // The ringed boids are the view's highlights in both panes.
    let view = p.view(100);
    assert!(!c.ringed(60).is_empty());
    for e in c.ringed(60) {
        assert!(view.highlight.contains(e), "{e} is highlighted");
        assert!(c.now.entities.contains(e), "{e} differs at tick 60");
    }
    // The drift is a distance, zero before the divergence, and grows.
    assert_eq!(c.drift.kind, DriftKind::Distance);
    assert_eq!(c.drift.at(39), 0);
    assert!(
        c.drift.at(89) > c.drift.at(41),
        "{:?}",
        &c.drift.values[..4]
    );
    // The cause is the planted rule.
    let cause = c.cause.as_ref().unwrap().as_ref().unwrap();
    assert_eq!(cause.tick, 40);
    assert!(
        cause.lines.iter().any(|l| l.starts_with("separation: a ")),
        "{cause:?}"
    );
}

#[test]
fn the_divergence_key_goes_to_the_first_divergence_then_each_next_entity() {
    let (a, b) = separation_pair();
    let mut app = player_at(&a, &b, 0);
    app.handle(Cmd::Diverge);
    let tick = |app: &App| app.player().unwrap().session.tick();
    assert_eq!(tick(&app), 40);
    let c = compare_of(&app);
    let starts: Vec<u64> = c.starts.iter().map(|(t, _)| *t).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "in tick order");
    assert_eq!(starts[0], 40);
    let mut later: Vec<u64> = starts.iter().copied().filter(|&t| t > 40).collect();
    later.dedup();
    for want in later.iter().take(3) {
        app.handle(Cmd::Diverge);
        assert_eq!(
            tick(&app),
            *want,
            "the next tick at which another boid parts"
        );
        assert_eq!(compare_of(&app).other.tick(), *want, "b follows a");
    }
    // Past the last, the key goes back to the first divergence.
    let mut app = player_at(&a, &b, 90);
    app.handle(Cmd::Diverge);
    assert_eq!(tick(&app), 40);
}

#[test]
fn identical_runs_compare_with_no_divergence() {
    let a = run_of("line-of-sight", 30, &[], "a.fsr");
    let b = run_of("line-of-sight", 30, &[], "b.fsr");
    let mut app = player_at(&a, &b, 10);
    let c = compare_of(&app);
    assert_eq!(c.first, None);
    assert!(c.starts.is_empty() && c.drift.values.is_empty());
    assert!(matches!(c.cause, Ok(None)));
    app.handle(Cmd::Diverge);
    assert_eq!(app.player().unwrap().session.tick(), 10, "nowhere to go");
}

#[test]
fn runs_of_different_sims_are_refused() {
    let a = run_of("flock-separation", 5, &[], "flock.fsr");
    let b = run_of("path-heuristics", 5, &[], "path.fsr");
    let Err(m) = compared(&a, &b) else {
        panic!("a flock and a path run do not compare")
    };
    assert_eq!(
        m,
        "flock.fsr is a flock run and path.fsr a path run: only runs of one sim compare"
    );
}

#[test]
fn a_lesson_compares_with_a_replay_of_it() {
    // `view LESSON REPLAY`: the lesson is recorded in memory for its
    // whole length, as `record` writes it.
    let lesson = Run::open("line-of-sight", &[]).unwrap();
    let Bytes::Memory(bytes) = &lesson.bytes else {
        panic!("a lesson is recorded in memory")
    };
    let rec = Run {
        name: "rec.fsr".into(),
        bytes: Bytes::Memory(bytes.clone()),
    };
    let p: Player = compared(&lesson, &rec).unwrap();
    assert_eq!(p.compare.as_ref().unwrap().first, None);
    let Err(m) = Run::open("no-such-lesson", &[]) else {
        panic!()
    };
    assert!(m.contains("no-such-lesson"), "{m}");
}

#[test]
fn the_frame_shows_both_runs_and_why_they_part() {
    let dir = std::env::temp_dir().join(format!("flockstep-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pa, pb) = (dir.join("a.fsr"), dir.join("b.fsr"));
    for (p, r) in [
        (&pa, run_of("flock-separation", 90, &[], "a")),
        (
            &pb,
            run_of("flock-separation", 90, &[(40, "set:min_distance=3")], "b"),
        ),
    ] {
        let Bytes::Memory(b) = r.bytes else {
            unreachable!()
        };
        std::fs::write(p, &b[..]).unwrap();
    }
    let (a, b) = (pa.to_str().unwrap(), pb.to_str().unwrap());
    for lang in [None, Some("ja".to_owned())] {
        let o = RenderOptions {
            text_scale: 100,
            lang: lang.clone(),
            ..RenderOptions::default()
        };
        let app = prepare_render_compare((a, b), &[], RenderAt::Tick(60), &o).unwrap();
        let cv = compose(&app, 1280, 720);
        let text: Vec<&str> = cv.texts.iter().map(|t| t.text.as_str()).collect();
        let has = |s: &str| text.iter().any(|t| t.contains(s));
        assert!(has("a · a.fsr") && has("b · b.fsr"), "{text:?}");
        if lang.is_none() {
            assert!(has("first divergence: tick 40"), "{text:?}");
            assert!(has("why they part at tick 40: boid "), "{text:?}");
            assert!(has("separation: a "), "{text:?}");
        } else {
            assert!(has("最初の分岐: ティック 40"), "{text:?}");
        }
    }
    // Refused clearly: a tick past the runs, a missing file.
    let o = RenderOptions {
        text_scale: 100,
        ..RenderOptions::default()
    };
    let Err(m) = prepare_render_compare((a, b), &[], RenderAt::Tick(91), &o) else {
        panic!()
    };
    assert!(m.contains("tick 91 is outside ticks 0..=90"), "{m}");
    let missing = dir.join("missing.fsr");
    let Err(m) = prepare_render_compare((a, missing.to_str().unwrap()), &[], RenderAt::Tick(1), &o)
    else {
        panic!()
    };
    assert!(m.contains("missing.fsr"), "{m}");
    std::fs::remove_dir_all(&dir).unwrap();
}
