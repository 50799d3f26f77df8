//! `record`, `info`, `dump`, `verify` and `diff` as a user meets them: the
//! real binary on real files, exit codes, and one clear message for every
//! kind of damaged file.

mod common;
use common::{Dir, flockstep, text};
use flockstep::replay::{End, Replay};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn golden(id: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings")
        .join(format!("{id}.fsr"))
        .to_string_lossy()
        .into_owned()
}

/// Exit code 2, a message naming the file and containing `want`, no panic.
fn rejects(args: &[&str], file: &str, want: &str) {
    let o = flockstep(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(file),
        "{args:?}: the message does not name {file}:\n{err}"
    );
    assert!(err.contains(want), "{args:?}: expected {want:?} in:\n{err}");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
}

#[test]
fn record_info_dump_verify() {
    let d = Dir::new("basic");
    let f = d.file("chase.fsr");
    let o = flockstep(&["record", "line-chase-arc", "-o", &f, "--ticks", "20"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("ticks     0..=20"), "{out}");
    assert!(
        o.stderr.is_empty(),
        "no progress bar when stderr is not a terminal"
    );
    assert!(!Path::new(&format!("{f}.partial")).exists());

    let o = flockstep(&["info", &f]);
    assert_eq!(o.status.code(), Some(0));
    let info = text(&o.stdout);
    assert!(info.contains("integrity    ok"), "{info}");
    assert!(info.contains("ticks        0..=20 (21 frames"), "{info}");

    let field = "panes[0].chasers[0].pos";
    let o = flockstep(&["dump", &f, "--tick", "7", "--field", field]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let dump = text(&o.stdout);
    assert!(dump.contains("panes[0].chasers[0].pos.x = "), "{dump}");
    let o = flockstep(&["dump", &f, "--tick", "7", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tick"], 7);
    // The lesson's variants: a list of panes, each its sim's state.
    assert_eq!(v["state"][0]["Line"]["tick"], 7);
    rejects(
        &["dump", &f, "--tick", "21"],
        &f,
        "no such tick: the replay has ticks 0..=20",
    );
    rejects(
        &["dump", &f, "--tick", "3", "--field", "nope"],
        &f,
        "no field starts with `nope`",
    );

    let o = flockstep(&["verify", &f, &golden("path-cliffs")]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert_eq!(text(&o.stdout).matches(": ok, ticks 0..=").count(), 2);
}

/// Issue 43: `dump --json` failed with "number out of range" on every
/// path replay, whose open-list keys are `u128`s. Every sim's golden
/// replay dumps as JSON, whole and by field, and a key reads back exactly
/// (as a decimal string) and equals the text dump's.
#[test]
fn dump_json_of_every_sim_prints_wide_numbers_exactly() {
    for id in ["flock-separation", "path-open-list", "line-of-sight"] {
        let f = golden(id);
        let o = flockstep(&["dump", &f, "--tick", "5", "--json"]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", text(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{id}: not JSON ({e}): {}", text(&o.stdout)));
        assert_eq!(v["tick"], 5, "{id}");
        assert!(v["state"].is_array() || v["state"].is_object(), "{id}: {v}");
    }
    let f = golden("path-open-list");
    let field = "searches[0].open[0].key";
    let o = flockstep(&["dump", &f, "--tick", "5", "--field", field]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let line = text(&o.stdout);
    let digits = line
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field} = ")))
        .unwrap_or_else(|| panic!("no {field} in:\n{line}"))
        .to_owned();
    let key: u128 = digits.parse().unwrap();
    assert!(key > u128::from(u64::MAX), "a key past 64 bits: {key}");
    let o = flockstep(&["dump", &f, "--tick", "5", "--field", field, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["fields"][0]["value"],
        serde_json::Value::from(digits.clone())
    );
    let o = flockstep(&["dump", &f, "--tick", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let whole = v["state"]["searches"][0]["open"][0]["key"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(whole, digits);
}

#[test]
fn info_of_the_format_1_0_recording() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings/formats/v1.0-flock.fsr");
    let o = Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["info", "recordings/formats/v1.0-flock.fsr"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(f.exists());
    insta::assert_snapshot!("info_v1_0_flock", text(&o.stdout));
}

/// A run whose recorded lesson says one thing and whose frames another —
/// what a changed algorithm looks like to `verify`.
#[test]
fn verify_names_the_first_divergent_field() {
    let d = Dir::new("diverge");
    let f = d.file("changed.fsr");
    // Frames from the lesson with w_separation=4, metadata saying the
    // default separation weight (5): verify re-simulates with 5 and finds
    // where the frames part from it.
    common::diverging_golden(&f, 30);

    let o = flockstep(&["verify", &f]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let report = text(&o.stdout).replace(&f, "changed.fsr");
    assert!(report.contains("first divergence at tick 1"), "{report}");
    insta::assert_snapshot!("verify_divergence", report);
    // --explain: today's step traced from the recorded state before it.
    let o = flockstep(&["verify", &f, "--explain"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let why = text(&o.stdout);
    assert!(why.contains("cause at tick 1: boid 0"), "{why}");
    for line in [
        "  recorded: pos (",
        "  now:      pos (",
        "  today's separation: (",
        "  today's steering: (",
    ] {
        assert!(why.contains(line), "{line}: {why}");
    }

    // diff between two recordings says the same, naming both sides.
    let a = d.file("a.fsr");
    let c = d.file("c.fsr");
    assert!(
        flockstep(&["record", "flock-weights", "--ticks", "10", "-o", &a])
            .status
            .success()
    );
    assert!(
        flockstep(&[
            "record",
            "flock-weights",
            "--ticks",
            "10",
            "--set",
            "w_separation=4",
            "-o",
            &c
        ])
        .status
        .success()
    );
    let o = flockstep(&["diff", &a, &c]);
    assert_eq!(o.status.code(), Some(1));
    let report = text(&o.stdout).replace(&a, "a.fsr").replace(&c, "c.fsr");
    assert!(
        report.contains("overrides differ: a none, b w_separation=4"),
        "{report}"
    );
    insta::assert_snapshot!("diff_divergence", report);
    let o = flockstep(&["diff", &a, &a]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).contains("identical: ticks 0..=10"));
}

#[test]
fn a_killed_recorder_leaves_a_readable_file() {
    let d = Dir::new("killed");
    let f = d.file("long.fsr");
    let partial = format!("{f}.partial");
    let mut child = Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .args([
            "record",
            "flock-weights",
            "--set",
            "boids=300",
            "--ticks",
            "1000000000",
            "-o",
            &f,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // Wait for a few hundred kilobytes (several keyframe groups' worth).
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 300_000 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the recorder wrote nothing"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!Path::new(&f).exists(), "nothing under the final name");
    let mut r = Replay::open(Path::new(&partial)).unwrap();
    assert!(matches!(r.end, End::Truncated { .. }));
    let last = r.last_tick.expect("complete frames");
    assert!(last >= 1);
    assert_eq!(r.check_all().unwrap(), last + 1);

    let o = flockstep(&["info", &partial]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stdout).contains("TRUNCATED at byte"),
        "{}",
        text(&o.stdout)
    );
    assert!(text(&o.stderr).contains(&format!("truncated after tick {last}")));
    let o = flockstep(&["verify", &partial]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).contains(&format!(
        "ticks 0..={last} match, but the file is truncated"
    )));
    let o = flockstep(&[
        "dump",
        &partial,
        "--tick",
        &last.to_string(),
        "--field",
        "tick",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        text(&o.stdout).lines().nth(1),
        Some(format!("tick = {last}").as_str())
    );
}

#[test]
fn damaged_files_are_named_with_the_place() {
    let d = Dir::new("damaged");
    let good = std::fs::read(golden("path-open-list")).unwrap();
    let put = |name: &str, bytes: &[u8]| {
        let f = d.file(name);
        std::fs::write(&f, bytes).unwrap();
        f
    };
    let crc = |b: &mut Vec<u8>| {
        let c = crc32c::crc32c(&b[..60]);
        b[60..64].copy_from_slice(&c.to_le_bytes());
    };
    let mut newer = good.clone();
    newer[8] = 7;
    crc(&mut newer);
    let mut codec = good.clone();
    codec[12] = 5;
    crc(&mut codec);
    let mut head = good.clone();
    head[33] ^= 4;
    // Inside the last frame's payload (the index and trailer after it take
    // 60 bytes in this one-keyframe file).
    let mut frame = good.clone();
    let n = frame.len();
    frame[n - 80] ^= 1;
    let cases = [
        (
            put("magic.fsr", b"PK\x03\x04 not a replay at all"),
            "wrong magic",
        ),
        (put("newer.fsr", &newer), "byte 8: format 7.0 is newer"),
        (put("codec.fsr", &codec), "byte 12: unknown payload codec 5"),
        (put("head.fsr", &head), "byte 60: header checksum mismatch"),
        (
            put("frame.fsr", &frame),
            "(tick 32): frame checksum mismatch",
        ),
        (put("zeros.fsr", &vec![0u8; 4096]), "all zeros"),
        (put("empty.fsr", &[]), "empty file"),
        (put("short.fsr", &good[..40]), "inside the 64-byte header"),
    ];
    for (f, want) in &cases {
        for cmd in [
            &["info", f.as_str()][..],
            &["verify", f],
            &["dump", f, "--tick", "1"],
        ] {
            rejects(cmd, f, want);
        }
    }
    // A corrupt frame names its byte offset and tick.
    let o = flockstep(&["info", &cases[4].0]);
    assert!(text(&o.stderr).contains("byte "), "{}", text(&o.stderr));
    // A directory, a missing file.
    let dir = d.0.to_string_lossy().into_owned();
    rejects(&["info", &dir], &dir, "is a directory");
    let missing = d.file("missing.fsr");
    rejects(&["verify", &missing], &missing, "No such file");
    // A truncated file: its complete prefix reads, the rest is reported.
    let cut = put("cut.fsr", &good[..good.len() - 300]);
    let o = flockstep(&["info", &cut]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("truncated after tick"));
    assert!(text(&o.stdout).contains("TRUNCATED at byte"));
    assert!(flockstep(&["dump", &cut, "--tick", "1"]).status.success());
}

#[test]
fn unwritable_outputs_fail_before_simulating_and_lose_nothing() {
    let d = Dir::new("unwritable");
    let nowhere = d.file("no/such/dir/x.fsr");
    rejects(
        &["record", "line-error-term", "-o", &nowhere],
        "x.fsr.partial",
        "cannot write the replay",
    );
    let dir = d.0.to_string_lossy().into_owned();
    rejects(
        &["record", "line-error-term", "-o", &dir],
        &dir,
        "is a directory",
    );
    // An existing replay survives a failed recording.
    let keep = d.file("keep.fsr");
    std::fs::write(&keep, b"precious").unwrap();
    rejects(
        &["record", "line-error-term", "-o", &keep, "--set", "width=0"],
        "line-error-term",
        "width",
    );
    assert_eq!(std::fs::read(&keep).unwrap(), b"precious");
    assert!(!Path::new(&format!("{keep}.partial")).exists());
    rejects(&["record", "no-such-lesson"], "no-such-lesson", "no lesson");
}

/// Flipped bytes all through a recording, through the real binary: `info`
/// (which decodes every frame) reports each one with a byte offset, exit 2.
#[test]
fn flipped_bytes_through_the_cli() {
    let d = Dir::new("flips");
    let good = std::fs::read(golden("line-error-term")).unwrap();
    let f = d.file("flipped.fsr");
    let mut checked = 0;
    for i in (0..good.len()).step_by(good.len() / 60) {
        let mut b = good.clone();
        b[i] ^= 0x40;
        std::fs::write(&f, &b).unwrap();
        let o = flockstep(&["info", &f]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "byte {i}: {err}");
        assert!(err.contains(&format!("{f}: byte ")), "byte {i}: {err}");
        assert!(!err.contains("panicked"), "byte {i}: {err}");
        checked += 1;
    }
    assert!(checked >= 60);
}

/// Issue 45: what-ifs through the command line. `record --input` makes
/// them at their ticks; `info` lists them as `record --input` takes them;
/// `dump` names a tick's; `diff` says where two runs' inputs part and
/// finds the divergence there; a change the lesson refuses is refused
/// before anything is written, with the lesson's own message (exit 2).
#[test]
fn what_ifs_are_recorded_listed_and_compared() {
    let d = Dir::new("whatif");
    let (plain, changed) = (d.file("plain.fsr"), d.file("changed.fsr"));
    let o = flockstep(&["record", "flock-weights", "-o", &plain, "--ticks", "80"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = flockstep(&[
        "record",
        "flock-weights",
        "-o",
        &changed,
        "--ticks",
        "80",
        "--input",
        "50:set:w_cohesion=0",
        "--input",
        "60:set:2:boids=45",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let info = text(&flockstep(&["info", &changed]).stdout);
    assert!(
        info.contains("input        50:set:w_cohesion=0\ninput        60:set:2:boids=45\n"),
        "{info}"
    );
    let dump = text(&flockstep(&["dump", &changed, "--tick", "50", "--field", "tick"]).stdout);
    assert!(
        dump.contains("# inputs before this tick: set:w_cohesion=0"),
        "{dump}"
    );
    let o = flockstep(&["verify", &changed]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let o = flockstep(&["diff", &plain, &changed]);
    assert_eq!(o.status.code(), Some(1));
    let diff = text(&o.stdout);
    assert!(
        diff.contains("the inputs part at tick 50: a makes none, b set:w_cohesion=0"),
        "{diff}"
    );
    assert!(diff.contains("first divergence at tick 50"), "{diff}");
    let o = flockstep(&["diff", &plain, &changed, "--explain"]);
    assert_eq!(o.status.code(), Some(1));
    let why = text(&o.stdout);
    assert!(why.contains("cause at tick 50: boid "), "{why}");
    assert!(
        why.contains("every rule's contribution is the same in both")
            && why.contains("parameter w_cohesion (pane 1): a (default), b 0"),
        "{why}"
    );
    // The same findings as JSON, for programs.
    let o = flockstep(&["diff", &plain, &changed, "--explain", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(j["verdict"], "diverges");
    assert_eq!(
        j["notes"][0],
        "the inputs part at tick 50: a makes none, b set:w_cohesion=0"
    );
    assert_eq!(j["divergence"]["tick"], 50);
    let f0 = &j["divergence"]["fields"][0];
    assert!(
        f0["path"].as_str().unwrap().starts_with("panes[0]."),
        "{f0}"
    );
    assert_ne!(f0["a"], f0["b"]);
    assert!(f0["a"].is_i64(), "fixed point as raw bits: {f0}");
    assert_eq!(j["cause"]["tick"], 50);
    assert!(j["cause"]["entity"].as_str().unwrap().starts_with("boid "));
    assert_eq!(j["cause"]["params"][0][0], "w_cohesion (pane 1)");
    let o = flockstep(&["verify", &changed, &plain, "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l["verdict"] == "ok"), "{lines:?}");
    assert_eq!(lines[0]["file"], changed.as_str());

    let refused = d.file("refused.fsr");
    let o = flockstep(&[
        "record",
        "flock-weights",
        "-o",
        &refused,
        "--input",
        "5:set:w_cohesion=200",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("--input 5:set:w_cohesion=200: lessons/flock-weights.toml: --set w_cohesion=200: `w_cohesion` = 200 is out of range: expected 0..=100"),
        "{e}"
    );
    assert!(!Path::new(&refused).exists() && !Path::new(&format!("{refused}.partial")).exists());
    for (arg, says) in [
        ("0:set:fov=3", "at tick 1 or later"),
        ("5:jump:1,2", "`jump` is not an input"),
        ("x:wall:1,2", "is not a tick"),
    ] {
        let o = flockstep(&["record", "flock-weights", "-o", &refused, "--input", arg]);
        assert_eq!(o.status.code(), Some(2), "{arg}");
        assert!(text(&o.stderr).contains(says), "{arg}: {}", text(&o.stderr));
    }
}

/// A lesson's own inputs through the command line: `record` makes them,
/// `info` marks them, `run` plays them too (the same final hash), and a
/// lesson file with a bad one is refused with its line and column.
#[test]
fn a_lessons_own_inputs_through_the_cli() {
    let d = Dir::new("lesson-inputs");
    let rec = d.file("u.fsr");
    let o = flockstep(&["record", "path-unreachable", "-o", &rec]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let hash = text(&o.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("hash      ").map(str::to_owned))
        .unwrap();
    let info = text(&flockstep(&["info", &rec]).stdout);
    assert!(
        info.contains("input        121:set:max_climb=5   (the lesson's own)\n"),
        "{info}"
    );
    let run = text(&flockstep(&["run", "path-unreachable"]).stdout);
    assert!(run.contains(&format!("hash    {hash}")), "{run}\n{hash}");
    // A class's change is checked after the lesson's own at its tick.
    let o = flockstep(&[
        "record",
        "path-unreachable",
        "-o",
        &d.file("v.fsr"),
        "--input",
        "121:set:max_drop=10",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--input 121:set:max_drop=10:"),
        "{}",
        text(&o.stderr)
    );
    let bad = d.file("bad.toml");
    let src = flockstep::bundled::source("path-unreachable", &[])
        .unwrap()
        .text;
    std::fs::write(
        &bad,
        src.replace("121:set:max_climb=5", "121:set:max_climb=12"),
    )
    .unwrap();
    let o = flockstep(&["record", &bad, "-o", &d.file("w.fsr")]);
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains(":10:11: input `121:set:max_climb=12`: --set max_climb=12: `max_climb` = 12 is out of range: expected 0..=9"),
        "{e}"
    );
}

/// Issue 47: `--threads` chooses how many threads a flock's tick may use,
/// and a recording made on one thread is byte for byte the one made on
/// two; each verifies on any number.
#[test]
fn recordings_are_the_same_bytes_on_any_number_of_threads() {
    let d = Dir::new("threads");
    let (one, two) = (d.file("one.fsr"), d.file("two.fsr"));
    for (threads, out) in [("1", &one), ("2", &two)] {
        let o = flockstep(&[
            "record",
            "flock-walls",
            "--set",
            "boids=6000",
            "--ticks",
            "4",
            "--threads",
            threads,
            "-o",
            out,
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    let o = flockstep(&["verify", &one, "--threads", "2"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    let o = flockstep(&["verify", &two, "--threads", "1"]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    let o = flockstep(&["record", "flock-walls", "--threads", "0", "-o", &one]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}
