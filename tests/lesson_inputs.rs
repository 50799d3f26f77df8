//! A lesson's own inputs (`[lesson] inputs`): a what-if the teacher
//! scripted, made every time the lesson plays — recorded as any input,
//! kept when a class makes changes of its own, never doubled when a
//! session is saved, and carried into a saved what-if lesson.

use flockstep::replay::run::{self, Source, Verdict};
use flockstep::replay::{Replay, live};
use flockstep::sim::{AnySim, Cell, Ground, Input, Sim as _};
use flockstep::viewer::session::Session;
use std::collections::BTreeMap;
use std::io::Cursor;

const ID: &str = "path-unreachable";

fn source() -> Source {
    flockstep::bundled::source(ID, &[]).unwrap()
}

fn climb(v: u8) -> Input {
    Input::Set {
        pane: None,
        key: "max_climb".into(),
        value: v.to_string(),
    }
}

fn wall(x: i32, y: i32) -> Input {
    Input::Ground {
        at: Cell::new(x, y),
        to: Ground::Wall,
    }
}

/// The bundled lesson's text without its `inputs` line.
fn without_inputs() -> Source {
    let mut s = source();
    assert!(s.text.contains("\ninputs = ["), "the lesson scripts inputs");
    s.text = s
        .text
        .lines()
        .filter(|l| !l.starts_with("inputs = ["))
        .collect::<Vec<_>>()
        .join("\n");
    s
}

/// Records with `inputs` (besides the lesson's own): the file's bytes,
/// checked to verify, and the inputs its frames hold.
fn recorded(
    src: &Source,
    ticks: u64,
    inputs: &BTreeMap<u64, Vec<Input>>,
) -> (Vec<u8>, u64, BTreeMap<u64, Vec<Input>>) {
    let (bytes, rec) = run::record(Vec::new(), src, ticks, None, inputs, |_| {}).unwrap();
    let mut r = Replay::from_reader(Cursor::new(&bytes[..]), "mem.fsr").unwrap();
    assert!(matches!(
        run::verify(&mut r, |_| {}),
        Ok(Verdict::Match { .. })
    ));
    let mut held = BTreeMap::new();
    for f in r.frames() {
        let f = f.unwrap();
        if !f.inputs.is_empty() {
            held.insert(f.tick, f.inputs);
        }
    }
    (bytes, rec.final_hash, held)
}

fn path_status(sim: &AnySim) -> String {
    let AnySim::Path(p) = sim else {
        panic!("a path sim")
    };
    format!("{:?}", p.state().searches[0].status)
}

#[test]
fn the_lessons_own_inputs_are_recorded_as_record_input_would_make_them() {
    let lesson = source().lesson().unwrap();
    assert_eq!(lesson.inputs.len(), 1);
    assert_eq!(
        (lesson.inputs[0].tick, &lesson.inputs[0].input),
        (121, &climb(5))
    );
    let (_, scripted, held) = recorded(&source(), 240, &BTreeMap::new());
    assert_eq!(held, BTreeMap::from([(121, vec![climb(5)])]));
    let by_hand = BTreeMap::from([(121, vec![climb(5)])]);
    let (_, same, _) = recorded(&without_inputs(), 240, &by_hand);
    assert_eq!(scripted, same, "as `--input 121:set:max_climb=5` makes it");
    let (_, plain, _) = recorded(&without_inputs(), 240, &BTreeMap::new());
    assert_ne!(scripted, plain, "the input changes the run");
}

#[test]
fn the_scripted_change_reaches_the_goal_the_lesson_says() {
    let mut s = Session::lesson(source()).unwrap();
    s.seek(120, &[]).unwrap();
    assert!(path_status(s.sim()).contains("Unreachable"));
    s.seek(164, &[]).unwrap();
    assert_eq!(path_status(s.sim()), "Found(12)", "beat 7: found, cost 12");
    s.seek(163, &[]).unwrap();
    assert!(path_status(s.sim()).contains("Searching"));
    assert!(s.inputs.is_empty() && s.intervention_ticks().is_empty());
    assert_eq!(s.applied().len(), 1, "the lesson's own, not the class's");
}

#[test]
fn a_class_change_keeps_the_lessons_later_inputs_and_a_save_does_not_double_them() {
    let mut s = Session::lesson(source()).unwrap();
    s.seek(50, &[]).unwrap();
    s.intervene(wall(9, 6), &[]).unwrap();
    s.seek(240, &[]).unwrap();
    let made = BTreeMap::from([(51, vec![wall(9, 6)])]);
    let (_, want, _) = recorded(&source(), 240, &made);
    assert_eq!(s.sim().state_hash(), want, "the session is the recording");
    let file = std::env::temp_dir().join(format!("lesson-inputs-{}.fsr", std::process::id()));
    s.save(&file).unwrap();
    let mut r = Replay::open(&file).unwrap();
    assert!(matches!(
        run::verify(&mut r, |_| {}),
        Ok(Verdict::Match { .. })
    ));
    let held: Vec<(u64, Vec<Input>)> = r
        .frames()
        .map(|f| f.unwrap())
        .filter(|f| !f.inputs.is_empty())
        .map(|f| (f.tick, f.inputs))
        .collect();
    assert_eq!(
        held,
        [(51, vec![wall(9, 6)]), (121, vec![climb(5)])],
        "the lesson's own once, the class's once"
    );
    // Opened again, the replay knows which inputs were the class's.
    let again = Session::replay_file(&file).unwrap();
    assert_eq!(again.inputs, made);
    assert_eq!(again.applied().len(), 2);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_class_change_at_the_scripted_tick_comes_after_the_lessons() {
    let mut s = Session::lesson(source()).unwrap();
    s.seek(120, &[]).unwrap();
    s.intervene(climb(4), &[]).unwrap();
    assert_eq!(s.applied()[&121], [climb(5), climb(4)]);
    s.seek(240, &[]).unwrap();
    assert!(
        path_status(s.sim()).contains("Unreachable"),
        "the class's 4 came last: the mesa stays behind cliffs"
    );
    let (_, want, _) = recorded(&source(), 240, &BTreeMap::from([(121, vec![climb(4)])]));
    assert_eq!(s.sim().state_hash(), want);
}

/// A change made at a tick whose inputs a seek had not yet applied is
/// applied with them, in their order, as the recording applies them.
#[test]
fn a_second_change_at_a_tick_after_a_seek_applies_with_the_first() {
    let mut s = Session::lesson(source()).unwrap();
    // Beside the start: the restarted search meets both at once.
    s.seek(30, &[]).unwrap();
    s.intervene(wall(1, 3), &[]).unwrap();
    s.seek(35, &[]).unwrap();
    s.seek(30, &[]).unwrap();
    s.intervene(wall(0, 2), &[]).unwrap();
    s.seek(60, &[]).unwrap();
    let made = BTreeMap::from([(31, vec![wall(1, 3), wall(0, 2)])]);
    let mut r = run::record(Vec::new(), &source(), 60, None, &made, |_| {})
        .map(|(b, _)| Replay::from_reader(Cursor::new(b), "mem.fsr").unwrap())
        .unwrap();
    assert_eq!(
        s.sim().state_hash(),
        r.state_at(60).unwrap().1.hash,
        "both walls, as the recording has them"
    );
}

#[test]
fn a_saved_what_if_keeps_the_lessons_inputs_still_to_come() {
    let src = source();
    let mut s = Session::lesson(src.clone()).unwrap();
    s.seek(50, &[]).unwrap();
    s.intervene(wall(9, 6), &[]).unwrap();
    let early = live::whatif_lesson(&src, s.applied(), s.tick(), s.sim()).unwrap();
    assert!(
        early.contains("inputs = [\"121:set:max_climb=5\"]"),
        "{early}"
    );
    let l = flockstep::lesson::Lesson::parse(&early, "w.toml").unwrap();
    assert_eq!(l.inputs.len(), 1);
    s.seek(130, &[]).unwrap();
    let late = live::whatif_lesson(&src, s.applied(), s.tick(), s.sim()).unwrap();
    assert!(!late.contains("inputs ="), "folded in: {late}");
    assert!(late.contains("max_climb = 5"), "{late}");
}

#[test]
fn merged_and_made_are_inverse() {
    let lesson = source().lesson().unwrap();
    // The inverse of merged: a recorded run's class inputs.
    let made = BTreeMap::from([(121, vec![climb(4)]), (40, vec![wall(9, 6)])]);
    let all = live::merged(&lesson, &made);
    assert_eq!(all[&121], [climb(5), climb(4)]);
    assert_eq!(live::made(&lesson, &all), made);
}
