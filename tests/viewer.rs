//! The viewer without a window: the app state machine driven by commands
//! and frame times, live sessions with history, replays, interventions
//! saved as replays, damaged files, and restoring recorded states.

mod common;

use flockstep::bundled::find_bundled;
use flockstep::num::{Fx, Pcg32, Vec3};
use flockstep::replay::codec;
use flockstep::replay::file::Replay;
use flockstep::replay::run::{self, Verdict};
use flockstep::sim::{AnySim, AnyState, Cell, Input};
use flockstep::viewer::app::{
    App, Cmd, Prompt, STATUS_US, Screen, locale_language, picker_entries,
};
use flockstep::viewer::timeline::Command;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    common::scratch(name)
}

/// Per-tick hashes of a plain run of a bundled lesson.
fn reference(id: &str, ticks: u64) -> Vec<u64> {
    let lesson = flockstep::bundled::source(id, &[])
        .unwrap()
        .lesson()
        .unwrap();
    let mut sim = AnySim::new(&lesson.scenario).unwrap();
    let mut out = vec![sim.state_hash()];
    for _ in 0..ticks {
        sim.step();
        out.push(sim.state_hash());
    }
    out
}

fn open(id: &str) -> App {
    let mut app = App::new();
    app.open(id, &[]);
    assert!(app.error.is_none(), "{id}: {:?}", app.error);
    app
}

fn tick_and_hash(app: &App) -> (u64, u64) {
    let p = app.player().unwrap();
    (p.session.tick(), p.session.sim().state_hash())
}

/// Whatever way the teacher reaches a tick — stepping, stepping back,
/// scrubbing, jumping beats, playing at any speed under any frame times —
/// the state shown is the one a plain run has at that tick.
#[test]
fn any_way_to_a_tick_shows_the_same_state() {
    for id in [
        "flock-obstacle",
        "path-open-list",
        "line-chase-arc",
        "flock-aquarium",
    ] {
        let mut app = open(id);
        let last = app.player().unwrap().timeline.last();
        let refs = reference(id, last);
        let mut rng = Pcg32::new(7, 1);
        for _ in 0..150 {
            let cmd = match rng.next_u32() % 9 {
                0 | 1 => Cmd::Time(Command::StepForward),
                2 => Cmd::Time(Command::StepBack),
                3 => Cmd::Time(Command::Scrub(u64::from(rng.next_u32()) % (last + 1))),
                4 => Cmd::Time(Command::NextBeat),
                5 => Cmd::Time(Command::PrevBeat),
                6 => Cmd::Time(Command::TogglePlay),
                7 => Cmd::Time(if rng.next_u32().is_multiple_of(2) {
                    Command::Faster
                } else {
                    Command::Slower
                }),
                _ => Cmd::Frame(u64::from(rng.next_u32() % 200_000)),
            };
            app.handle(cmd.clone());
            assert!(app.error.is_none(), "{id}: {cmd:?}: {:?}", app.error);
            let (t, h) = tick_and_hash(&app);
            assert_eq!(t, app.player().unwrap().timeline.tick(), "{id}");
            assert_eq!(h, refs[t as usize], "{id}: tick {t} after {cmd:?}");
        }
    }
}

/// A pause beat stops playback exactly at its tick, and Space goes on.
#[test]
fn playback_holds_at_pause_beats() {
    let mut app = open("line-chase-arc");
    // Past the pause beats at tick 0.
    while app.player().unwrap().timeline.held().is_some() {
        app.handle(Cmd::Time(Command::Continue));
    }
    let p = app.player().unwrap();
    let pause = p
        .session
        .lesson
        .beats
        .iter()
        .find(|b| b.pause && b.at > 0)
        .map(|b| b.at)
        .expect("a pause beat");
    if !app.player().unwrap().timeline.playing() {
        app.handle(Cmd::Time(Command::TogglePlay));
    }
    for _ in 0..100 {
        app.handle(Cmd::Frame(1_000_000));
    }
    assert_eq!(app.player().unwrap().session.tick(), pause);
    app.handle(Cmd::Time(Command::TogglePlay));
    app.handle(Cmd::Frame(1_000_000));
    assert!(app.player().unwrap().session.tick() > pause);
}

/// Interventions become inputs: a session with a dragged target, goal or
/// obstacle and a dropped boid saves as a replay that `verify` re-simulates
/// identically, and that the viewer plays back with the same states.
#[test]
fn interventions_save_as_replays_that_replay_identically() {
    let cases: Vec<(&str, Vec<(u64, Input)>)> = vec![
        (
            "line-chase-arc",
            vec![(
                4,
                Input::MoveTarget {
                    target: 0,
                    to: Cell::new(2, 2),
                },
            )],
        ),
        (
            "path-open-list",
            vec![(
                3,
                Input::MoveGoal {
                    to: Cell::new(4, 0),
                },
            )],
        ),
        (
            "flock-obstacle",
            vec![
                (
                    5,
                    Input::AddBoid {
                        pos: Vec3::from_ints(100, 100, 0),
                        vel: Vec3::from_ints(1, 1, 0),
                    },
                ),
                (
                    9,
                    Input::MoveObstacle {
                        obstacle: 0,
                        to: Vec3::from_ints(200, 150, 0),
                    },
                ),
            ],
        ),
    ];
    for (id, inputs) in cases {
        let mut app = open(id);
        for (at, input) in &inputs {
            app.handle(Cmd::Time(Command::Scrub(*at)));
            app.handle(Cmd::Intervene(input.clone()));
            assert!(app.error.is_none(), "{id}: {:?}", app.error);
        }
        app.handle(Cmd::Time(Command::Scrub(20)));
        let live = tick_and_hash(&app);
        assert_eq!(live.0, 20);
        // Back and forth past the interventions: the same states.
        app.handle(Cmd::Time(Command::Scrub(2)));
        app.handle(Cmd::Time(Command::Scrub(20)));
        assert_eq!(tick_and_hash(&app), live, "{id}");

        let file = temp(&format!("{id}-session.fsr"));
        app.handle(Cmd::Save(file.clone()));
        assert!(app.error.is_none(), "{id}: {:?}", app.error);
        assert!(app.status.as_deref().unwrap_or("").contains("saved"));
        let verdict = run::verify(&mut Replay::open(&file).unwrap(), |_| {}).unwrap();
        assert!(
            matches!(verdict, Verdict::Match { .. }),
            "{id}: {verdict:?}"
        );

        // The web build's download: the same bytes as the saved file,
        // and opened from bytes (a drop, the page's file picker) it plays
        // like the file.
        app.handle(Cmd::Download(format!("{id}-session.fsr")));
        let (name, bytes) = app.download.take().expect("a download");
        assert_eq!(name, format!("{id}-session.fsr"));
        assert_eq!(
            bytes,
            std::fs::read(&file).unwrap(),
            "{id}: download != file"
        );
        let mut d = App::new();
        d.handle(Cmd::OpenFile { name, bytes });
        assert!(d.error.is_none(), "{id}: {:?}", d.error);
        d.handle(Cmd::Time(Command::Scrub(20)));
        assert_eq!(tick_and_hash(&d), live, "{id}: the dropped replay");

        let mut r = App::new();
        r.open(file.to_str().unwrap(), &[]);
        assert!(r.error.is_none(), "{id}: {:?}", r.error);
        r.handle(Cmd::Time(Command::Scrub(20)));
        assert_eq!(
            tick_and_hash(&r),
            live,
            "{id}: the replay shows another state"
        );
        // Replays cannot be changed.
        r.handle(Cmd::Intervene(inputs[0].1.clone()));
        assert!(
            r.error
                .as_deref()
                .unwrap_or("")
                .contains("cannot be changed")
        );
    }
}

/// Going back before the frontier and intervening starts a new branch:
/// the later interventions are forgotten.
#[test]
fn intervening_in_the_past_starts_a_new_branch() {
    let mut app = open("line-chase-arc");
    let a = Input::MoveTarget {
        target: 0,
        to: Cell::new(2, 2),
    };
    app.handle(Cmd::Time(Command::Scrub(8)));
    app.handle(Cmd::Intervene(a));
    app.handle(Cmd::Time(Command::Scrub(15)));
    app.handle(Cmd::Time(Command::Scrub(3)));
    let b = Input::MoveTarget {
        target: 0,
        to: Cell::new(3, 3),
    };
    app.handle(Cmd::Intervene(b.clone()));
    let p = app.player().unwrap();
    assert_eq!(
        p.session.inputs.iter().collect::<Vec<_>>(),
        vec![(&4, &vec![b])]
    );
    // An intervention that does not fit is refused with a message.
    app.handle(Cmd::Intervene(Input::MoveGoal {
        to: Cell::new(0, 0),
    }));
    assert!(
        app.error
            .as_deref()
            .unwrap_or("")
            .contains("does not apply")
    );
}

fn golden(id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings")
        .join(format!("{id}.fsr"))
}

/// A replay plays back its recorded states, and the overlays' reasoning
/// at a tick is the same as a live lesson's.
#[test]
fn replays_show_their_recorded_states_and_the_same_reasoning() {
    for id in [
        "flock-obstacle",
        "flock-separation",
        "path-cliffs",
        "line-of-sight",
    ] {
        let path = golden(id);
        let mut replay = Replay::open(&path).unwrap();
        let mut app = App::new();
        app.open(path.to_str().unwrap(), &[]);
        assert!(app.error.is_none(), "{id}: {:?}", app.error);
        let mut live = open(id);
        let ticks: Vec<u64> = [1u64, 17, 3, 100, 42, 150]
            .into_iter()
            .filter(|&t| replay.has_tick(t))
            .collect();
        for t in ticks {
            app.handle(Cmd::Time(Command::Scrub(t)));
            app.handle(Cmd::Select(Some(0)));
            live.handle(Cmd::Time(Command::Scrub(t)));
            live.handle(Cmd::Select(Some(0)));
            let (state, info) = replay.state_at(t).unwrap();
            let (tick, hash) = tick_and_hash(&app);
            assert_eq!((tick, hash), (t, info.hash), "{id}");
            assert_eq!(state.state_hash(), hash);
            let rp = app.player().unwrap();
            let lp = live.player().unwrap();
            assert!(rp.session.note.is_none(), "{id}: {:?}", rp.session.note);
            assert_eq!(
                format!("{:?}", rp.session.explain()),
                format!("{:?}", lp.session.explain()),
                "{id}: tick {t}"
            );
            let vp = flockstep::scene::Viewport {
                x: 0,
                y: 0,
                w: 900,
                h: 600,
            };
            assert_eq!(rp.scene(vp, 100), lp.scene(vp, 100), "{id}: tick {t}");
        }
    }
}

/// Damaged and missing files open as an error in the window, over the
/// picker, naming the file and the place; a truncated replay plays what
/// it holds.
#[test]
fn bad_files_show_an_error_instead_of_crashing() {
    let bytes = std::fs::read(golden("flock-separation")).unwrap();
    let mut rng = Pcg32::new(3, 3);
    for _ in 0..40 {
        let mut b = bytes.clone();
        let at = (rng.next_u32() as usize) % b.len();
        b[at] ^= 1 << (rng.next_u32() % 8);
        let f = temp("damaged.fsr");
        std::fs::write(&f, &b).unwrap();
        let mut app = App::new();
        app.open(f.to_str().unwrap(), &[]);
        let e = app.error.clone().expect("an error");
        assert!(e.contains("damaged.fsr"), "{e}");
        assert!(matches!(app.screen, Screen::Picker));
        app.handle(Cmd::Back);
        assert!(app.error.is_none() && !app.quit);
        // Dropped on the window (or opened on the web page): the same
        // message.
        let mut dropped = App::new();
        dropped.handle(Cmd::OpenFile {
            name: f.to_str().unwrap().to_owned(),
            bytes: b,
        });
        assert_eq!(dropped.error.as_deref(), Some(e.as_str()));
        assert!(matches!(dropped.screen, Screen::Picker));
    }
    // Foreign files, from a path and as bytes: an empty file, a picture,
    // a text that is no lesson, a replay renamed to .toml.
    for (name, bytes) in [
        ("empty.toml", Vec::new()),
        (
            "image.png",
            vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10, 0, 0, 0, 13, 0xff],
        ),
        ("notes.txt", b"hello\n".to_vec()),
        ("renamed.toml", bytes.clone()),
    ] {
        let f = temp(name);
        std::fs::write(&f, &bytes).unwrap();
        let path = f.to_str().unwrap().to_owned();
        let mut app = App::new();
        app.open(&path, &[]);
        let mut dropped = App::new();
        dropped.handle(Cmd::OpenFile {
            name: path.clone(),
            bytes,
        });
        let e = app.error.clone();
        if name == "renamed.toml" {
            // The magic says replay, whatever the name.
            assert!(e.is_none() && dropped.error.is_none(), "{e:?}");
            continue;
        }
        let e = e.unwrap_or_else(|| panic!("{name} opened"));
        assert!(e.starts_with(&path), "{e}");
        assert_eq!(dropped.error.as_deref(), Some(e.as_str()), "{name}");
    }
    let cut = temp("cut.fsr");
    std::fs::write(&cut, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let mut app = App::new();
    app.open(cut.to_str().unwrap(), &[]);
    assert!(app.error.is_none(), "{:?}", app.error);
    let last = app.player().unwrap().timeline.last();
    let full = Replay::open(&golden("flock-separation"))
        .unwrap()
        .last_tick
        .unwrap();
    assert!(last >= 1 && last < full, "{last} of {full}");
    app.handle(Cmd::Time(Command::Scrub(last)));
    assert_eq!(app.player().unwrap().session.tick(), last);

    for (arg, want) in [
        ("no-such-lesson", "no lesson `no-such-lesson`"),
        ("/nonexistent/x.fsr", "/nonexistent/x.fsr"),
        ("flock-obstacle.toml", "flock-obstacle.toml"),
    ] {
        let mut app = App::new();
        app.open(arg, &[]);
        let e = app.error.clone().expect("an error");
        assert!(e.contains(want), "{arg}: {e}");
    }
    let bad = temp("bad.toml");
    std::fs::write(&bad, "[lesson]\nid = \"x\"\ntitle = \"t\"\nsummary = \"s\"\nticks = 5\n[scenario]\nsim = \"flok\"\n").unwrap();
    let mut app = App::new();
    app.open(bad.to_str().unwrap(), &[]);
    let e = app.error.clone().unwrap();
    assert!(
        e.contains("bad.toml:7:7") && e.contains("did you mean `flock`"),
        "{e}"
    );
}

/// A recorded state that a step could not take is refused by `restore`;
/// one it accepts steps without panicking. Random byte flips of real
/// states from every sim.
#[test]
fn restore_accepts_only_states_a_step_can_take() {
    let mut refused = 0;
    let mut accepted = 0;
    for id in [
        "flock-obstacle",
        "flock-aquarium",
        "flock-weights",
        "path-cliffs",
        "line-of-sight",
        "line-chase-arc",
    ] {
        let lesson = flockstep::bundled::source(id, &[])
            .unwrap()
            .lesson()
            .unwrap();
        let mut sim = AnySim::new(&lesson.scenario).unwrap();
        for _ in 0..12 {
            sim.step();
        }
        let bytes = codec::encode(&sim.snapshot()).unwrap();
        let mut rng = Pcg32::new(11, id.len() as u64);
        for trial in 0..300 {
            let mut b = bytes.clone();
            for _ in 0..1 + trial % 3 {
                let at = rng.next_u32() as usize % b.len();
                b[at] = rng.next_u32() as u8;
            }
            let Ok(state) = codec::decode::<AnyState>(&b) else {
                continue;
            };
            let mut s = AnySim::new(&lesson.scenario).unwrap();
            match s.restore(state) {
                Err(_) => refused += 1,
                Ok(()) => {
                    accepted += 1;
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        for _ in 0..3 {
                            s.step();
                        }
                        let _ = flockstep::scene::build(
                            &flockstep::scene::Frame::bare(&s),
                            &flockstep::scene::View::default(),
                            &flockstep::scene::Camera::fit(flockstep::scene::Viewport {
                                x: 0,
                                y: 0,
                                w: 800,
                                h: 600,
                            }),
                        );
                    }));
                    assert!(
                        r.is_ok(),
                        "{id}: trial {trial}: a restored state panicked a step"
                    );
                }
            }
        }
        // The sim's own states are accepted.
        let mut s = AnySim::new(&lesson.scenario).unwrap();
        s.restore(sim.snapshot()).unwrap();
        assert_eq!(s.state_hash(), sim.state_hash());
        // Another sim's state is not.
        let other = if id.starts_with("flock") {
            "path-cliffs"
        } else {
            "flock-obstacle"
        };
        let o = AnySim::new(
            &flockstep::bundled::source(other, &[])
                .unwrap()
                .lesson()
                .unwrap()
                .scenario,
        )
        .unwrap();
        assert!(s.restore(o.snapshot()).is_err());
    }
    assert!(
        refused > 50 && accepted > 50,
        "refused {refused}, accepted {accepted}"
    );
}

/// The picker lists every bundled lesson grouped by sim, moves with the
/// arrows (wrapping) and opens the chosen one; Esc goes back, then quits.
#[test]
fn the_picker_groups_lessons_and_opens_them() {
    let e = picker_entries();
    assert_eq!(e.len(), flockstep::bundled::BUNDLED.len());
    let sims: Vec<&str> = e.iter().map(|x| x.sim.as_str()).collect();
    let mut sorted = sims.clone();
    sorted.sort();
    assert_eq!(sims, sorted, "grouped by sim");
    let mut app = App::new();
    app.handle(Cmd::PickerMove(-1));
    assert_eq!(app.picked, e.len() - 1);
    app.handle(Cmd::PickerMove(2));
    assert_eq!(app.picked, 1);
    app.handle(Cmd::PickerOpen(None));
    let p = app.player().expect("a player");
    assert_eq!(p.session.lesson.id, e[1].id);
    assert!(find_bundled(&e[1].id).is_some());
    app.handle(Cmd::Help);
    assert!(app.help);
    app.handle(Cmd::Back);
    assert!(!app.help && app.player().is_some());
    app.handle(Cmd::Back);
    assert!(matches!(app.screen, Screen::Picker));
    app.handle(Cmd::Back);
    assert!(app.quit);
}

/// Overlay keys toggle against the beat's choice; a new beat starts from
/// its own overlays again. Presenter scale and zoom stay in range.
#[test]
fn overlay_toggles_follow_the_beats() {
    let mut app = open("path-open-list");
    let before = app.player().unwrap().overlays();
    let names = flockstep::viewer::app::overlays_of("path");
    let i = names.iter().position(|n| *n == "g").unwrap();
    app.handle(Cmd::ToggleOverlay(i));
    let after = app.player().unwrap().overlays();
    assert_ne!(before.contains("g"), after.contains("g"));
    app.handle(Cmd::Time(Command::NextBeat));
    let beat = app.player().unwrap().timeline.beat().unwrap();
    let want: std::collections::BTreeSet<String> = app.player().unwrap().session.lesson.beats[beat]
        .overlays
        .iter()
        .cloned()
        .collect();
    assert_eq!(app.player().unwrap().overlays(), want);
    for _ in 0..100 {
        app.handle(Cmd::TextScale(1));
        app.handle(Cmd::Zoom(1));
    }
    assert_eq!(app.text_scale, 300);
    assert_eq!(app.player().unwrap().zoom, 3200);
    for _ in 0..100 {
        app.handle(Cmd::Zoom(-1));
    }
    assert_eq!(app.player().unwrap().zoom, 20);
    let _ = Fx::ONE;
}

/// A found search whose parent links go round in a loop is refused (a
/// path drawn from it would never end).
#[test]
fn restore_refuses_parent_loops() {
    let lesson = flockstep::bundled::source("path-open-list", &[])
        .unwrap()
        .lesson()
        .unwrap();
    let mut sim = AnySim::new(&lesson.scenario).unwrap();
    for _ in 0..10_000 {
        sim.step();
    }
    let AnySim::Path(p) = &sim else { panic!() };
    let goal = p.config().goal;
    let w = p.config().grid.width();
    let AnyState::Path(mut st) = sim.snapshot() else {
        panic!()
    };
    assert!(matches!(
        st.searches[0].status,
        flockstep::sim::path::Status::Found(_)
    ));
    // The goal's parent is its left neighbour, whose parent is the goal.
    let g = (goal.y as u32 * w + goal.x as u32) as usize;
    // Directions: 0 left, 1 up, 2 right, 3 down.
    st.searches[0].link[g] &= 0x80;
    st.searches[0].link[g - 1] = (st.searches[0].link[g - 1] & 0x80) | 2;
    let e = sim.restore(AnyState::Path(st)).unwrap_err();
    assert!(e.message.contains("loop"), "{e}");
    assert_eq!(e.kind, flockstep::sim::SimErrorKind::State);
}

/// The trails overlay shows the same positions at a tick whether the
/// teacher stepped there one tick at a time or jumped there.
#[test]
fn trails_depend_on_the_tick_alone() {
    let trails = flockstep::viewer::app::overlays_of("flock")
        .iter()
        .position(|o| *o == "trails")
        .unwrap();
    // From tick 6 (past flock-weights' second beat, whose arrival resets
    // the teacher's toggles; the next is at 300) to past the trail's
    // length, so stepping has dropped its oldest points.
    let from = 6;
    let at = from + flockstep::viewer::session::TRAIL as u64 + 10;
    let stepped = {
        let mut app = open("flock-weights");
        app.handle(Cmd::Time(Command::Scrub(from)));
        if !app.player().unwrap().overlays().contains("trails") {
            app.handle(Cmd::ToggleOverlay(trails));
        }
        for _ in from..at {
            app.handle(Cmd::Time(Command::StepForward));
        }
        let p = app.player().unwrap();
        assert!(p.overlays().contains("trails"));
        assert_eq!(p.session.tick(), at);
        p.session.trail()[0].to_vec()
    };
    assert_eq!(stepped.len(), flockstep::viewer::session::TRAIL);
    let mut app = open("flock-weights");
    app.handle(Cmd::Time(Command::Scrub(at)));
    if !app.player().unwrap().overlays().contains("trails") {
        app.handle(Cmd::ToggleOverlay(trails));
    }
    assert_eq!(app.player().unwrap().session.trail()[0], &stepped[..]);
}

/// The scene a 1280×720 window shows for the app now.
fn scene_of(app: &App) -> flockstep::scene::Scene {
    let l = app.framed(1280, 720).layout;
    app.player().unwrap().scene(l.scene, l.scale)
}

/// A run that left its lesson says so: the timeline knows where, the
/// panels explain the coming step at once (not the stale last one),
/// Home asks whether to restart the lesson as written or the run with its
/// changes, and either answer does what it says.
#[test]
fn interventions_are_visible_and_home_offers_the_lesson_as_written() {
    let goal = Cell::new(4, 0);
    let mut app = open("path-open-list");
    app.handle(Cmd::Time(Command::Scrub(3)));
    assert!(!app.intervened());
    app.handle(Cmd::Intervene(Input::MoveGoal { to: goal }));
    assert!(app.intervened());
    let p = app.player().unwrap();
    assert_eq!(p.session.intervention_ticks(), [4]);
    assert!(
        p.session.ahead(),
        "after a drag the panels explain what comes next"
    );
    assert!(
        scene_of(&app)
            .panels
            .iter()
            .any(|pa| pa.title.contains("the coming step (3 → 4)")),
        "{:?}",
        scene_of(&app).panels
    );
    // Home asks; Esc keeps going.
    app.handle(Cmd::Time(Command::Restart));
    assert_eq!(app.prompt, Some(Prompt::Restart));
    assert_eq!(
        app.player().unwrap().session.tick(),
        3,
        "nothing happens before the answer"
    );
    app.handle(Cmd::Back);
    assert_eq!(app.prompt, None);
    // The run with its changes, from tick 0.
    app.handle(Cmd::Time(Command::Restart));
    app.handle(Cmd::RestartKeep);
    assert_eq!(app.player().unwrap().session.tick(), 0);
    assert!(app.intervened());
    app.handle(Cmd::Time(Command::Scrub(10)));
    let AnySim::Path(ps) = app.player().unwrap().session.sim() else {
        panic!()
    };
    assert_eq!(ps.config().goal, goal, "the run keeps its moved goal");
    // The lesson as written: no interventions, the lesson's goal.
    app.handle(Cmd::Time(Command::Restart));
    app.handle(Cmd::RestartAsWritten);
    assert!(!app.intervened());
    let p = app.player().unwrap();
    assert_eq!((p.session.tick(), p.timeline.beat()), (0, Some(0)));
    app.handle(Cmd::Time(Command::Scrub(10)));
    let AnySim::Path(ps) = app.player().unwrap().session.sim() else {
        panic!()
    };
    assert_eq!(ps.config().goal, Cell::new(6, 2));
}

/// Saving says where the file went — the whole path — for a while.
#[test]
fn saving_says_where_the_file_went() {
    let mut app = open("line-error-term");
    let file = temp("where.fsr");
    app.handle(Cmd::Save(file.clone()));
    let said = app.status.clone().expect("a remark");
    let full = std::fs::canonicalize(&file).unwrap();
    assert!(said.contains(&full.display().to_string()), "{said}");
    app.handle(Cmd::Frame(STATUS_US / 2));
    assert!(app.status.is_some());
    app.handle(Cmd::Frame(STATUS_US));
    assert!(app.status.is_none(), "the remark goes after a while");
}

/// L switches the narration between English and the lesson's
/// translations; the system locale picks the first language.
#[test]
fn the_narration_language_switches() {
    let mut app = open("line-error-term");
    let english = app.player().unwrap().narration().to_owned();
    app.handle(Cmd::Language);
    assert_eq!(app.lang.as_deref(), Some("ja"));
    let japanese = app.player().unwrap().narration().to_owned();
    assert!(japanese.contains("追跡者"), "{japanese}");
    app.handle(Cmd::Language);
    assert_eq!(app.lang, None);
    assert_eq!(app.player().unwrap().narration(), english);
    // The choice outlives the lesson.
    app.set_language(Some("ja".into()));
    app.open("flock-weights", &[]);
    assert!(app.player().unwrap().narration().contains("記事 004"));
    let langs = app.languages();
    assert_eq!(
        locale_language(&langs, Some("ja_JP.UTF-8")),
        Some("ja".into())
    );
    assert_eq!(locale_language(&langs, Some("de_DE.UTF-8")), None);
    assert_eq!(locale_language(&langs, Some("C")), None);
    assert_eq!(locale_language(&langs, None), None);
}

/// Long narration pages: PgDn shows the next page before the next beat,
/// PgUp the page before.
#[test]
fn long_narration_pages_before_the_beat_changes() {
    let mut app = open("line-error-term");
    app.handle(Cmd::Pages(3));
    app.handle(Cmd::Time(Command::NextBeat));
    assert_eq!(app.player().unwrap().page, 1);
    app.handle(Cmd::Time(Command::NextBeat));
    app.handle(Cmd::Time(Command::PrevBeat));
    assert_eq!(app.player().unwrap().page, 1);
    app.handle(Cmd::Time(Command::NextBeat));
    app.handle(Cmd::Time(Command::NextBeat));
    let p = app.player().unwrap();
    assert_eq!(
        (p.page, p.timeline.beat()),
        (0, Some(1)),
        "past the last page: the next beat"
    );
    // A small window really does page this lesson's longer beats.
    app.handle(Cmd::Time(Command::Beat(2)));
    let small = app.framed(1024, 600);
    let big = app.framed(3840, 2160);
    assert!(small.pages >= 1 && big.pages == 1);
}

/// Every sim explains tick 0 — the coming step: the flock's rules for the
/// focused boid, the open list's first expansion, the line's plan,
/// formula and table.
#[test]
fn tick_zero_explains_the_coming_step() {
    for (id, must) in [
        // Its first beat rings the mates boid 1 will see in step 1.
        ("flock-field-of-view", vec!["neighbours", "fov"]),
        ("line-error-term", vec!["ideal_line"]),
        ("path-open-list", vec!["open", "open_list", "f"]),
    ] {
        let app = open(id);
        let p = app.player().unwrap();
        assert_eq!(p.session.tick(), 0);
        assert!(p.session.ahead(), "{id}");
        let s = scene_of(&app);
        for o in must {
            assert!(
                s.drawn.get(o).copied().unwrap_or(0) > 0,
                "{id}: {o} at tick 0: {:?}",
                s.drawn
            );
        }
    }
    // Beat 4 asks at which step A first moves down: the coming step is
    // withheld (the formula panel says so); beat 5,
    // at tick 1, answers and shows the next step again.
    let mut app = open("line-error-term");
    app.handle(Cmd::Time(Command::Beat(3)));
    let s = scene_of(&app);
    let panel = |s: &flockstep::scene::Scene, title: &str| {
        s.panels
            .iter()
            .find(|p| p.title.starts_with(title))
            .unwrap()
            .clone()
    };
    // No panel gives the coming step away (the table, when shown, has
    // only the steps taken).
    assert!(
        s.panels
            .iter()
            .all(|p| p.lines.iter().all(|l| !l.contains("next 1"))),
        "{:?}",
        s.panels
    );
    assert!(
        panel(&s, "Bresenham")
            .lines
            .iter()
            .any(|l| l == "next step: held back for the question")
    );
    app.handle(Cmd::Time(Command::Beat(4)));
    let table = panel(&scene_of(&app), "error term");
    assert!(
        table
            .lines
            .iter()
            .any(|l| l.contains("next 2") && l.contains("(3,3)")),
        "{table:?}"
    );
}

/// Lessons play at a watchable pace: the aquarium (dt = 1) at 60 ticks a
/// second, lines at 4, paths at 10 — or a lesson's own `rate`.
#[test]
fn lessons_play_at_their_rate() {
    for (id, per_second) in [
        ("flock-aquarium-view-angle", 60),
        ("line-chase-arc", 4),
        ("path-ties", 10),
    ] {
        let mut app = open(id);
        // Past the pause beats at tick 0.
        while app.player().unwrap().timeline.held().is_some() {
            app.handle(Cmd::Time(Command::Continue));
        }
        if !app.player().unwrap().timeline.playing() {
            app.handle(Cmd::Time(Command::TogglePlay));
        }
        app.handle(Cmd::Frame(1_000_000));
        // Unless a pause beat comes first and holds the clock.
        let lesson = &app.player().unwrap().session.lesson;
        let held = lesson
            .beats
            .iter()
            .find(|b| b.pause && b.at > 0)
            .map(|b| b.at);
        let want = held.map_or(per_second, |t| t.min(per_second));
        assert_eq!(app.player().unwrap().session.tick(), want, "{id}");
    }
    let src = find_bundled("path-ties")
        .unwrap()
        .source()
        .replace("ticks = 1000", "ticks = 1000\nrate = 100");
    let file = temp("rate.toml");
    std::fs::write(&file, src).unwrap();
    let mut app = open(file.to_str().unwrap());
    app.handle(Cmd::Time(Command::Continue));
    app.handle(Cmd::Frame(500_000));
    assert_eq!(app.player().unwrap().session.tick(), 50);
}

/// The picker scrolls by the wheel within its rows and keeps the chosen
/// lesson on screen.
#[test]
fn the_picker_scrolls() {
    let mut app = App::new();
    let rows = app.picker_rows().len();
    app.handle(Cmd::PickerScroll(1000));
    assert_eq!(app.picker_scroll, rows - 1);
    // The chosen lesson (the first) stays visible in an 8-row window.
    assert!(app.picker_first_row(8) <= 1);
    app.handle(Cmd::PickerScroll(-1000));
    assert_eq!(app.picker_first_row(8), 0);
    for _ in 0..15 {
        app.handle(Cmd::PickerMove(1));
    }
    let first = app.picker_first_row(8);
    let at = app
        .picker_rows()
        .iter()
        .position(|r| *r == flockstep::viewer::app::PickerRow::Lesson(app.picked))
        .unwrap();
    assert!(
        (first..first + 8).contains(&at),
        "row {at} not in {first}..+8"
    );
}

/// A beat's camera applies at the first beat too (opening the lesson), not
/// only when a later beat is reached: `flock-aquarium-view-angle` opens
/// looking down at its tank.
#[test]
fn the_first_beat_turns_the_camera() {
    let app = open("flock-aquarium-view-angle");
    let p = app.player().unwrap();
    assert_eq!(p.beat().map(|b| b.pitch), Some(Some(89)));
    assert_eq!(p.pose().pitch, flockstep::num::Angle::from_degrees_int(89));
    let other = open("flock-aquarium");
    let q = other.player().unwrap();
    assert_ne!(
        q.pose().pitch,
        p.pose().pitch,
        "a lesson without pitch keeps the default"
    );
}

/// A lesson's variants: one titled tile per pane, each clipped to itself;
/// the panels are the first pane's until another is clicked; the titles
/// give each pane's hash, equal where the runs are (and none while the
/// class predicts).
#[test]
fn variants_show_side_by_side_and_the_clicked_pane_has_the_panels() {
    use flockstep::scene::{Role, Shape};
    let mut app = open("flock-variable-dt");
    // The texts drawn, but the callouts' (which `callouts` gives).
    let drawn = |s: &flockstep::scene::Scene, callout: bool| -> Vec<String> {
        s.shapes
            .iter()
            .filter_map(|sh| match sh {
                Shape::Text { text, role, .. } if (*role == Role::Callout) == callout => {
                    Some(text.clone())
                }
                _ => None,
            })
            .collect()
    };
    let texts = |s: &flockstep::scene::Scene| drawn(s, false);
    let callouts = |s: &flockstep::scene::Scene| drawn(s, true);
    // Beat 1 asks whether the replays will agree: no pane shows its hash.
    let t = texts(&scene_of(&app));
    assert!(!t.iter().any(|x| x.starts_with("hash ")), "{t:?}");
    app.handle(Cmd::Time(Command::Scrub(1)));
    let s = scene_of(&app);
    let clips = s
        .shapes
        .iter()
        .filter(|sh| matches!(sh, Shape::Clip { .. }))
        .count();
    // Each pane's world and title, then the whole scene again.
    assert_eq!(clips, 2 * 4 + 1);
    let t = texts(&s);
    for name in ["varying dt · machine 1", "fixed dt · machine 2"] {
        assert!(t.iter().any(|x| x == name), "{name} titles a pane: {t:?}");
    }
    let hashes: Vec<&String> = t.iter().filter(|x| x.starts_with("hash ")).collect();
    assert_eq!(hashes.len(), 4);
    let hash = |s: &str| s.split(' ').nth(1).unwrap().to_owned();
    // The fixed-dt machines agree; the varying ones carry their machines'
    // frame generators and do not.
    assert_eq!(hash(hashes[2]), hash(hashes[3]));
    assert_ne!(hash(hashes[0]), hash(hashes[1]));
    assert!(s.panels[0].title.starts_with("varying dt · machine 1: "));
    app.handle(Cmd::Pane(3));
    let s = scene_of(&app);
    assert!(
        s.panels[0].title.starts_with("fixed dt · machine 2: "),
        "{}",
        s.panels[0].title
    );
    // Each pane is stepped: at tick 300 the fixed pair still agrees.
    app.handle(Cmd::Time(Command::Scrub(300)));
    let t = texts(&scene_of(&app));
    let hashes: Vec<&String> = t.iter().filter(|x| x.starts_with("hash ")).collect();
    assert_eq!(hash(hashes[2]), hash(hashes[3]));
    assert_ne!(hash(hashes[0]), hash(hashes[1]));
    // The beat's `{hash}` figures print each pane's title hash.
    let c = callouts(&scene_of(&app));
    // "speed … · spread … · HASH": the hash is each callout's last word.
    let called: Vec<String> = c
        .iter()
        .filter_map(|x| x.rsplit(' ').next())
        .map(str::to_owned)
        .collect();
    let titled: Vec<String> = hashes.iter().map(|h| hash(h)).collect();
    assert_eq!(called, titled);
}

/// The parameter panel without a window: a change is an input at the
/// current tick; the flock flies differently from then on; scrubbing back
/// shows the lesson as written and forward the change again; the panel
/// shows the value in force at each tick; the saved replay verifies; a
/// replay refuses changes.
#[test]
fn the_panel_changes_a_weight_mid_run_and_the_run_replays() {
    use flockstep::viewer::app::PanelCmd;
    let id = "flock-weights";
    let refs = reference(id, 60);
    let mut app = open(id);
    app.handle(Cmd::Panel(PanelCmd::Toggle));
    assert!(app.player().unwrap().panel_open);
    app.handle(Cmd::Time(Command::Scrub(30)));
    let c = app
        .player()
        .unwrap()
        .panel
        .controls
        .iter()
        .position(|c| c.key == "w_cohesion")
        .unwrap();
    for _ in 0..c {
        app.handle(Cmd::Panel(PanelCmd::Move(1)));
    }
    let before = app
        .player()
        .unwrap()
        .panel
        .current(c, &Default::default(), 30);
    app.handle(Cmd::Panel(PanelCmd::Step(1)));
    assert!(app.error.is_none(), "{:?}", app.error);
    let p = app.player().unwrap();
    assert_eq!(p.session.intervention_ticks(), [31]);
    let Input::Set { pane, key, value } = &p.session.inputs[&31][0] else {
        panic!("{:?}", p.session.inputs)
    };
    assert_eq!((pane, key.as_str()), (&None, "w_cohesion"));
    assert_eq!(p.panel.controls[c].values[before + 1], *value);
    assert_eq!(p.session.in_force_until(), 31, "the change shows at once");
    assert_eq!(
        p.panel
            .current(c, &p.session.inputs, p.session.in_force_until()),
        before + 1
    );
    app.handle(Cmd::Time(Command::Scrub(60)));
    let changed = tick_and_hash(&app).1;
    assert_ne!(changed, refs[60], "the flocks fly differently");
    app.handle(Cmd::Time(Command::Scrub(20)));
    assert_eq!(
        tick_and_hash(&app),
        (20, refs[20]),
        "before the change: the lesson"
    );
    let p = app.player().unwrap();
    assert_eq!(p.panel.current(c, &p.session.inputs, 20), before);
    app.handle(Cmd::Time(Command::Scrub(60)));
    assert_eq!(
        tick_and_hash(&app),
        (60, changed),
        "forward again: the change"
    );
    // Reset makes a second change back to the lesson's value.
    app.handle(Cmd::Panel(PanelCmd::Reset));
    let p = app.player().unwrap();
    assert_eq!(p.session.intervention_ticks(), [31, 61]);
    // Saved, it verifies and lists both changes.
    let file = temp("panel.fsr");
    app.handle(Cmd::Save(file.clone()));
    assert!(app.error.is_none(), "{:?}", app.error);
    let mut r = Replay::open(&file).unwrap();
    assert!(matches!(
        run::verify(&mut r, |_| {}),
        Ok(Verdict::Match { .. })
    ));
    let listed: Vec<(u64, String)> = r
        .frames()
        .flat_map(|f| {
            let f = f.unwrap();
            f.inputs.into_iter().map(move |i| (f.tick, i.to_string()))
        })
        .collect();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0].0, 31);
    // A replay's panel makes no change.
    let mut replay = App::new();
    replay.open(&file.display().to_string(), &[]);
    replay.handle(Cmd::Panel(PanelCmd::Toggle));
    replay.handle(Cmd::Panel(PanelCmd::Step(1)));
    assert!(replay.error.is_some(), "a replay is fixed");
}

/// The brush paints a wall across a search's way, and the search goes
/// round it; an out-of-range value from the panel is refused with the
/// lesson's message.
#[test]
fn painting_a_wall_restarts_the_search_round_it() {
    use flockstep::sim::Ground;
    let mut app = open("path-open-list");
    app.handle(Cmd::Brush);
    assert!(app.player().unwrap().brush);
    app.handle(Cmd::Time(Command::Scrub(5)));
    for y in 0..5 {
        if y == 2 {
            continue;
        }
        app.handle(Cmd::Intervene(Input::Ground {
            at: Cell::new(4, y),
            to: Ground::Wall,
        }));
        assert!(app.error.is_none(), "{:?}", app.error);
    }
    app.handle(Cmd::Time(Command::Scrub(200)));
    let AnySim::Path(ps) = app.player().unwrap().session.sim() else {
        panic!()
    };
    assert!(ps.config().grid.is_wall(Cell::new(4, 0)));
    let path =
        flockstep::sim::Sim::state(ps).searches[0].path(ps.config().grid.width(), ps.config().goal);
    assert!(!path.is_empty(), "found");
    assert!(
        path.contains(&Cell::new(4, 2)),
        "through the only gap: {path:?}"
    );
    // A wall on the goal is refused, and the run is unchanged.
    let goal = ps.config().goal;
    let before = tick_and_hash(&app);
    app.handle(Cmd::Intervene(Input::Ground {
        at: goal,
        to: Ground::Wall,
    }));
    assert!(
        app.error
            .as_deref()
            .is_some_and(|e| e.contains("inside a wall")),
        "{:?}",
        app.error
    );
    app.error = None;
    assert_eq!(tick_and_hash(&app), before);
}

/// A what-if saved as a lesson loads and plays from tick 0 with the
/// parameters, map and start as changed; a link to it reopens the same
/// run, input for input, at the same beat.
#[test]
fn a_whatif_saves_as_a_lesson_and_shares_as_a_link() {
    use flockstep::sim::Ground;
    let mut app = open("path-heuristics");
    app.handle(Cmd::Time(Command::Scrub(20)));
    let wall = Cell::new(12, 6);
    app.handle(Cmd::Intervene(Input::Ground {
        at: wall,
        to: Ground::Wall,
    }));
    app.handle(Cmd::Intervene(Input::Ground {
        at: Cell::new(12, 7),
        to: Ground::Wall,
    }));
    app.handle(Cmd::Intervene(Input::MoveStart {
        to: Cell::new(3, 12),
    }));
    app.handle(Cmd::Intervene(Input::Set {
        pane: Some(3),
        key: "heuristic_weight".into(),
        value: "3".into(),
    }));
    assert!(app.error.is_none(), "{:?}", app.error);
    app.handle(Cmd::Time(Command::Scrub(40)));
    let file = temp("whatif.toml");
    app.handle(Cmd::SaveLesson(file.clone()));
    assert!(app.error.is_none(), "{:?}", app.error);
    let text = std::fs::read_to_string(&file).unwrap();
    let lesson = flockstep::lesson::Lesson::parse(&text, "whatif.toml").unwrap();
    assert_eq!(lesson.id, "path-heuristics-whatif");
    let AnySim::Path(ps) = AnySim::new(&lesson.scenario).unwrap() else {
        panic!()
    };
    let cfg = ps.config();
    assert!(cfg.grid.is_wall(wall) && cfg.grid.is_wall(Cell::new(12, 7)));
    assert_eq!(cfg.start, Cell::new(3, 12));
    assert_eq!(cfg.searches[3].heuristic.weight, Fx::from_int(3));
    assert_eq!(
        cfg.searches[2].heuristic.weight,
        Fx::ONE,
        "only search 3 changed"
    );
    let AnySim::Path(was) = app.player().unwrap().session.sim() else {
        panic!()
    };
    assert_eq!(
        cfg.grid,
        was.config().grid,
        "the map as painted, heights and all"
    );

    // The link: the same inputs, the same state at the same beat.
    app.handle(Cmd::Time(Command::NextBeat));
    let (tick, hash) = tick_and_hash(&app);
    let query = app.share_link().unwrap();
    assert!(
        query.starts_with("?lesson=path-heuristics&beat="),
        "{query}"
    );
    assert!(
        query.contains("w=21:12,6;12,7"),
        "a stroke is written compactly: {query}"
    );
    let mut other = App::new();
    other.open_link(&query);
    assert!(other.error.is_none(), "{:?}", other.error);
    let p = other.player().unwrap();
    assert_eq!(p.session.inputs, app.player().unwrap().session.inputs);
    assert_eq!(tick_and_hash(&other), (tick, hash));
    // A broken link says why.
    let mut broken = App::new();
    broken.open_link("?lesson=path-heuristics&i=5:wall:999,1");
    assert!(
        broken
            .error
            .as_deref()
            .is_some_and(|e| e.contains("--input 5:wall:999,1") && e.contains("off the")),
        "{:?}",
        broken.error
    );
}

/// A beat that invites a what-if opens the panel on its control, for the
/// pane it highlights; once the class changes that key, the narration
/// adds what to look for; the search at weight 2 finds the route around.
#[test]
fn a_beat_invites_a_what_if_and_says_what_to_see_after() {
    use flockstep::viewer::app::PanelCmd;
    let mut app = open("path-uphill-weight");
    app.handle(Cmd::Time(Command::Beat(6)));
    let p = app.player().unwrap();
    assert!(p.panel_open, "the invitation opens the panel");
    let c = p.panel.selected;
    assert_eq!(p.panel.controls[c].key, "uphill_weight");
    assert_eq!((p.panel.invited, p.panel.pane), (Some(c), Some(1)));
    let before = p.narration();
    assert!(!before.contains("tie rule"), "{before}");
    // Down to 2 from the lesson's 10 (the ladder 0, 1, 2, …, 9, 10).
    for _ in 0..8 {
        app.handle(Cmd::Panel(PanelCmd::Step(-1)));
    }
    let p = app.player().unwrap();
    let Input::Set { pane, key, value } = p.session.inputs.values().flatten().last().unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (pane, key.as_str(), value.as_str()),
        (&Some(1), "uphill_weight", "2")
    );
    assert!(p.narration().contains("tie rule"), "{}", p.narration());
    app.handle(Cmd::Time(Command::Scrub(240)));
    let AnySim::Path(ps) = app.player().unwrap().session.sim() else {
        panic!()
    };
    let s = flockstep::sim::Sim::state(ps);
    let path = s.searches[1].path(ps.config().grid.width(), ps.config().goal);
    assert_eq!(path.len(), 20, "19 moves around the hill: {path:?}");
    let heights: Vec<u8> = path
        .iter()
        .map(|c| ps.config().grid.height_at(*c).unwrap())
        .collect();
    assert!(heights.iter().all(|h| *h == 0), "no climb: {heights:?}");
}
