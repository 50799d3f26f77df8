//! `flockstep review` (issue 46): changed golden replays are walked
//! through one by one; an accept replaces the golden replay with today's
//! run, a reject deletes today's run and leaves the golden replay byte for
//! byte, a skip leaves both; nothing is overwritten without an accept.

mod common;

use common::{Dir, flockstep, text};
use flockstep::replay::Replay;
use flockstep::replay::golden;
use flockstep::replay::run::{self, Verdict};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

fn changed(path: &str) {
    common::diverging_golden(path, 20);
}

fn current(path: &str) {
    let o = flockstep(&["record", "line-of-sight", "--ticks", "20", "-o", path]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// `flockstep review ARGS` with these lines on standard input.
fn review(args: &[&str], answers: &str) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .arg("review")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin
        .take()
        .unwrap()
        .write_all(answers.as_bytes())
        .unwrap();
    c.wait_with_output().unwrap()
}

fn verifies(path: &str) -> bool {
    let mut r = Replay::open(Path::new(path)).unwrap();
    matches!(run::verify(&mut r, |_| {}).unwrap(), Verdict::Match { .. })
}

#[test]
fn accept_replaces_reject_deletes_and_skip_keeps_both() {
    let d = Dir::new("walk");
    let (a, b, c, fine) = (
        d.file("a.fsr"),
        d.file("b.fsr"),
        d.file("c.fsr"),
        d.file("fine.fsr"),
    );
    for f in [&a, &b, &c] {
        changed(f);
    }
    current(&fine);
    let before = |f: &str| std::fs::read(f).unwrap();
    let (b0, c0, fine0) = (before(&b), before(&c), before(&fine));
    let new = |f: &str| golden::new_path(Path::new(f));

    // a accepted, b rejected, c skipped (the input ends).
    let o = review(&[&d.0.display().to_string()], "a\nr\n");
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(
        out.contains("4 golden replays re-simulated; 3 changed"),
        "{out}"
    );
    for i in 1..=3 {
        assert!(out.contains(&format!("[{i}/3] ")), "{out}");
    }
    assert!(out.contains("lesson flock-weights"), "{out}");
    assert!(out.contains("first divergence at tick 1"), "{out}");
    assert!(out.contains("cause at tick 1: boid "), "{out}");
    assert!(out.contains("accepted 1, rejected 1, skipped 1"), "{out}");
    // Accepted: today's run replaced the golden replay, and verifies.
    assert!(verifies(&a) && !new(&a).exists());
    // Rejected: the golden replay as it was, today's run gone.
    assert_eq!(before(&b), b0);
    assert!(!new(&b).exists());
    // Skipped: both stay.
    assert_eq!(before(&c), c0);
    assert!(new(&c).exists());
    // The current one was not touched, and got no new run.
    assert_eq!(before(&fine), fine0);
    assert!(!new(&fine).exists());

    // Again: only c is pending; --reject-all leaves the tree as it was.
    let o = review(&[&c, &fine], "");
    assert!(text(&o.stdout).contains("2 golden replays re-simulated; 1 changed"));
    assert!(new(&c).exists(), "a skip keeps the new run");
    let o = review(&["--reject-all", &c], "");
    assert!(o.status.success());
    assert_eq!(before(&c), c0);
    assert!(!new(&c).exists());
}

#[test]
fn unknown_answers_are_asked_again_and_bad_paths_are_refused() {
    let d = Dir::new("ask");
    let a = d.file("a.fsr");
    changed(&a);
    let a0 = std::fs::read(&a).unwrap();
    let o = review(&[&a], "yes\n\ns\n");
    let out = text(&o.stdout);
    assert!(out.contains("`yes`: answer a, r, s or v"), "{out}");
    assert!(out.contains("accepted 0, rejected 0, skipped 1"), "{out}");
    assert_eq!(std::fs::read(&a).unwrap(), a0);

    let o = review(&[&d.file("missing.fsr")], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("missing.fsr: no such file or directory"));
    let empty = Dir::new("empty");
    let o = review(&[&empty.0.display().to_string()], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no golden replays (*.fsr)"));
}

#[test]
fn the_new_run_goes_beside_the_golden_replay() {
    assert_eq!(
        golden::new_path(Path::new("recordings/flock-weights.fsr")),
        Path::new("recordings/flock-weights.new.fsr")
    );
    let d = Dir::new("list");
    for f in ["b.fsr", "a.fsr", "a.new.fsr", "notes.txt"] {
        std::fs::write(d.file(f), b"").unwrap();
    }
    std::fs::create_dir(d.file("formats")).unwrap();
    let found = golden::goldens(std::slice::from_ref(&d.0)).unwrap();
    let names: Vec<_> = found
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap())
        .collect();
    assert_eq!(names, ["a.fsr", "b.fsr"]);
}

/// The side-by-side view of a golden replay and today's run of it (what
/// `v` opens): with today's code both reason alike, so the panel gives
/// today's step from the golden replay's state — the boid that now ends
/// elsewhere and today's reasoning for it — as `review` prints it.
#[test]
fn side_by_side_a_golden_replay_and_todays_run_name_todays_reasoning() {
    use flockstep::replay::cause;
    use flockstep::viewer::compare::{Compare, Run};
    let d = Dir::new("side");
    let old = d.file("w.fsr");
    changed(&old);
    assert_eq!(golden::renew(Path::new(&old)), Ok(true));
    let new = golden::new_path(Path::new(&old));
    let (a, b) = (
        Run::open(&old, &[]).unwrap(),
        Run::open(new.to_str().unwrap(), &[]).unwrap(),
    );
    let (_, c) = Compare::open(&a, &b).unwrap();
    assert_eq!(c.first, Some(1));
    let why = c.cause.unwrap().unwrap();
    assert!(why.entity.starts_with("boid "), "{why:?}");
    assert_eq!(why.lines[0], cause::ANOTHER_BUILD);
    assert!(
        why.lines
            .iter()
            .any(|l| l.starts_with("today's separation: ")),
        "{why:?}"
    );
    // renew leaves a pending new run as it is.
    let bytes = std::fs::read(&new).unwrap();
    assert_eq!(golden::renew(Path::new(&old)), Ok(true));
    assert_eq!(std::fs::read(&new).unwrap(), bytes);
}
