//! The attacks of the robustness review, through the real binary: values
//! at the edges of their ranges, absurd keys, special files, concurrent
//! recorders and hand-made replays. Each gets exit 0 or exit 2 with one
//! message naming the file and the place; never a panic, a hang, or a file
//! the tool wrote but cannot read.

mod common;
use common::{Dir, flockstep, text};
use flockstep::bundled::find_bundled;
use flockstep::replay::file::{DEFAULT_KEYFRAME_EVERY, Header, Meta, Writer};
use flockstep::sim::{AnySim, Scenario};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Exit code 2 and a message containing every one of `want`; no panic,
/// nothing on standard output.
fn rejects(args: &[&str], want: &[&str]) -> String {
    let o = flockstep(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in want {
        assert!(err.contains(w), "{args:?}: expected {w:?} in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one message:\n{err}");
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout on failure");
    err
}

fn runs(args: &[&str]) -> String {
    let o = flockstep(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

/// Item 2: the gems model at the smallest values it accepts runs, in every
/// update order and with a view angle; smaller ones are refused by name.
#[test]
fn gems_runs_at_the_bottom_of_its_ranges_and_refuses_below() {
    for key in ["perception", "separation_dist", "max_speed"] {
        for extra in ["update=double_buffered", "update=in_place", "view_angle=90"] {
            let set = format!("{key}=0.001");
            runs(&[
                "run",
                "flock-aquarium",
                "--set",
                &set,
                "--set",
                extra,
                "--ticks",
                "5",
            ]);
        }
        for v in ["0.0009", "0.00001", "0.000000001", "0.0000000004"] {
            let set = format!("{key}={v}");
            rejects(
                &["run", "flock-aquarium", "--set", &set, "--ticks", "5"],
                &[
                    "lessons/flock-aquarium.toml",
                    &format!("--set {set}"),
                    "expected 0.001..=10000",
                ],
            );
        }
    }
}

/// Item 3: a key of 25,000 dotted parts is refused before anything walks
/// it, on the command line and inside a replay's overrides.
#[test]
fn absurd_keys_are_refused_on_the_command_line_and_in_replays() {
    let key = vec!["a"; 25_000].join(".");
    let set = format!("{key}=1");
    rejects(
        &["run", "flock-weights", "--set", &set, "--ticks", "1"],
        &["at most 16 dotted parts", "this one has 25000"],
    );
    // The same override inside a recording (written by hand: the recorder
    // refuses it too).
    let d = Dir::new("keys");
    let f = d.file("deep.fsr");
    let b = find_bundled("flock-weights").unwrap();
    let lesson = flockstep::bundled::source("flock-weights", &[])
        .unwrap()
        .lesson()
        .unwrap();
    let mut sim = AnySim::new(&lesson.scenario).unwrap();
    let meta = Meta {
        flockstep: "0.1.0".into(),
        lesson_id: lesson.id.clone(),
        lesson_file: b.path.into(),
        lesson_source: b.source().into(),
        overrides: vec![set.clone()],
    };
    let header = Header::new(
        flockstep::lesson::sims::by_name("flock").unwrap(),
        sim.dt().to_bits(),
        0,
        DEFAULT_KEYFRAME_EVERY,
    );
    let mut w = Writer::new(std::fs::File::create(&f).unwrap(), &header, &meta).unwrap();
    w.frame(0, &[], sim.snapshot(), sim.state_hash()).unwrap();
    sim.step();
    w.frame(1, &[], sim.snapshot(), sim.state_hash()).unwrap();
    w.finish().unwrap();
    rejects(&["verify", &f], &[&f, "at most 16 dotted parts"]);
    let o = flockstep(&["info", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("does not load with this flockstep"),
        "{}",
        text(&o.stdout)
    );
    assert!(text(&o.stdout).len() < 4000, "the key is not echoed whole");
}

/// Values that are not TOML are named as such, not as strings; dates too.
#[test]
fn values_say_what_is_wrong_with_them() {
    rejects(
        &["run", "flock-weights", "--set", "boids=9223372036854775808"],
        &["`9223372036854775808` is not a value", "out of range"],
    );
    rejects(
        &["run", "flock-weights", "--set", "boids=1979-05-27"],
        &["a date or time, which no parameter takes"],
    );
    let deep = format!("boids={}{}", "[".repeat(30_000), "]".repeat(30_000));
    let e = rejects(
        &["run", "flock-weights", "--set", &deep],
        &["is not a value"],
    );
    assert!(e.len() < 1000, "a long value is clipped: {} bytes", e.len());
    rejects(
        &["run", "flock-weights", "--set", "model=gems"],
        &[
            "lessons/flock-weights.toml:13:8",
            "the gems model is 3-D; `dims` is 2",
        ],
    );
    rejects(&["run", "weights"], &["Did you mean `flock-weights`?"]);
    rejects(
        &["run", "aquarium"],
        &["`flock-aquarium` or `flock-aquarium-view-angle`"],
    );
}

/// Item 4: `line` refuses a cell count it cannot print instead of aborting.
#[test]
fn line_refuses_more_cells_than_it_prints() {
    let o = flockstep(&[
        "line",
        "-2147483648,0",
        "2147483647,0",
        "--max-cells",
        "18446744073709551615",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("not in 1..=10000000"));
    rejects(
        &["line", "-2147483648,0", "2147483647,0", "--json"],
        &["has 4294967295 cells, more than --max-cells 1000000"],
    );
}

/// Item 6 and bounded inputs: a FIFO is refused as a replay at once (it
/// would block), `/dev/zero` as a lesson or a map after the size bound.
#[cfg(unix)]
#[test]
fn special_files_are_named_not_waited_on() {
    let d = Dir::new("special");
    let fifo = d.file("f.fsr");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let f2 = fifo.clone();
    std::thread::spawn(move || {
        for cmd in [
            vec!["info", f2.as_str()],
            vec!["verify", f2.as_str()],
            vec!["dump", f2.as_str(), "--tick", "0"],
            vec!["render", f2.as_str(), "--tick", "0", "-o", "/dev/null"],
        ] {
            tx.send((cmd.join(" "), flockstep(&cmd))).unwrap();
        }
    });
    for _ in 0..4 {
        let (cmd, o) = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("a FIFO must not hang the reader");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains("is a FIFO (named pipe), not a replay file"),
            "{cmd}: {err}"
        );
    }
    rejects(
        &["info", "/dev/zero"],
        &["/dev/zero: is a character device, not a replay file"],
    );
    rejects(
        &["run", "/dev/zero"],
        &["/dev/zero: more than 4194304 bytes; a lesson is at most 4 MiB"],
    );
    let o = Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .args(["path", "-", "--from", "0,0", "--to", "1,1"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("standard input: more than 33554432 bytes"));
}

/// Item 7: devices and standard output are written in place, never
/// replaced; a full device is an error; the lesson is never the output.
#[cfg(unix)]
#[test]
fn outputs_that_are_not_regular_files_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    rejects(
        &["record", "line-error-term", "-o", "/dev/full"],
        &["/dev/full: cannot write the replay: No space left on device"],
    );
    assert!(
        std::fs::metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let o = flockstep(&["record", "line-error-term", "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // To standard output: the bytes are the replay, the summary goes to
    // standard error.
    let d = Dir::new("outputs");
    for out in ["-", "/dev/stdout"] {
        let o = flockstep(&["record", "line-error-term", "-o", out]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains("recorded  line-error-term"));
        let f = d.file("stdout.fsr");
        std::fs::write(&f, &o.stdout).unwrap();
        assert!(runs(&["verify", &f]).contains("every state hash matches"));
    }
    // The lesson being recorded, directly or through a link.
    let lesson = d.file("l.toml");
    let src = find_bundled("line-error-term").unwrap().source();
    std::fs::write(&lesson, src).unwrap();
    rejects(
        &["record", &lesson, "-o", &lesson],
        &["is the lesson being recorded"],
    );
    let link = d.file("link.toml");
    std::os::unix::fs::symlink(&lesson, &link).unwrap();
    rejects(
        &["record", &lesson, "-o", &link],
        &["is the lesson being recorded"],
    );
    assert_eq!(std::fs::read_to_string(&lesson).unwrap(), src);
    // A link planted where the temporary file goes is not followed.
    let victim = d.file("victim.txt");
    std::fs::write(&victim, "keep").unwrap();
    let o2 = d.file("o2.fsr");
    std::os::unix::fs::symlink(&victim, format!("{o2}.partial")).unwrap();
    rejects(
        &["record", &lesson, "-o", &o2],
        &["o2.fsr.partial: is a symbolic link, where the recorder writes"],
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // A link to a replay: the file it names is replaced, the link stays.
    let real = d.file("real.fsr");
    let out = d.file("out.fsr");
    std::os::unix::fs::symlink(&real, &out).unwrap();
    runs(&["record", &lesson, "-o", &out]);
    assert!(
        std::fs::symlink_metadata(&out)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(runs(&["verify", &real]).contains("every state hash matches"));
}

/// Item 8: a second recorder to the same output is refused while the first
/// holds its temporary file; afterwards recording works.
#[test]
fn a_second_recorder_to_one_output_is_refused() {
    let d = Dir::new("lock");
    let out = d.file("c.fsr");
    let partial = std::fs::File::create(format!("{out}.partial")).unwrap();
    partial.lock().unwrap(); // as a running recorder holds it
    rejects(
        &["record", "line-error-term", "-o", &out],
        &["c.fsr.partial: another recorder is writing", "c.fsr"],
    );
    partial.unlock().unwrap();
    drop(partial);
    runs(&["record", "line-error-term", "-o", &out]);
    assert!(runs(&["verify", &out]).contains("every state hash matches"));
    assert!(!Path::new(&format!("{out}.partial")).exists());
}

/// A trailer and index rewritten (with valid checksums) to count fewer
/// frames than the file holds is not "integrity ok".
#[test]
fn a_trailer_that_hides_frames_is_reported() {
    let d = Dir::new("trailer");
    let f = d.file("t.fsr");
    runs(&["record", "line-error-term", "-o", &f]);
    let mut b = std::fs::read(&f).unwrap();
    let n = b.len();
    let index_at = u64::from_le_bytes(b[n - 24..n - 16].try_into().unwrap()) as usize;
    let frames = u64::from_le_bytes(b[n - 16..n - 8].try_into().unwrap());
    let fewer = (frames - 3).to_le_bytes();
    // The index: tag, count, frames, entries, crc.
    b[index_at + 8..index_at + 16].copy_from_slice(&fewer);
    let crc_at = n - 24 - 4;
    let c = crc32c::crc32c(&b[index_at..crc_at]);
    b[crc_at..crc_at + 4].copy_from_slice(&c.to_le_bytes());
    // The trailer: index offset, frames, tag, crc.
    b[n - 16..n - 8].copy_from_slice(&fewer);
    let c = crc32c::crc32c(&b[n - 24..n - 4]);
    b[n - 4..].copy_from_slice(&c.to_le_bytes());
    std::fs::write(&f, &b).unwrap();
    for cmd in ["info", "verify"] {
        rejects(&[cmd, &f], &[&f, "but the index starts at byte"]);
    }
}

/// A header's sim is its registered number (bytes 22-23, little-endian;
/// flock is 2, as before the registration existed); a number no sim has
/// is refused by name and place, never read as another sim.
#[test]
fn an_unknown_sim_id_is_refused_not_guessed() {
    let d = Dir::new("simid");
    let f = d.file("s.fsr");
    runs(&["record", "flock-weights", "--ticks", "3", "-o", &f]);
    let good = std::fs::read(&f).unwrap();
    assert_eq!(good[22..24], [2, 0], "flock's header number");
    for (id, shown) in [([9u8, 0u8], "9"), ([2, 1], "258"), ([0, 0], "0")] {
        let mut b = good.clone();
        b[22..24].copy_from_slice(&id);
        let c = crc32c::crc32c(&b[..60]);
        b[60..64].copy_from_slice(&c.to_le_bytes());
        std::fs::write(&f, &b).unwrap();
        for cmd in [&["info"][..], &["verify"], &["dump", "--tick", "0"]] {
            rejects(
                &[cmd, &[f.as_str()]].concat(),
                &[
                    &f,
                    "byte 22",
                    &format!("unknown sim id {shown}"),
                    "2 (flock)",
                ],
            );
        }
    }
}

/// `dump --json --field` keeps the field's leaves; a field that matches
/// nothing is an error in both forms.
#[test]
fn dump_json_honours_the_field() {
    let d = Dir::new("dump");
    let f = d.file("d.fsr");
    runs(&["record", "flock-alignment", "--ticks", "3", "-o", &f]);
    for json in [true, false] {
        let mut args = vec!["dump", f.as_str(), "--tick", "2", "--field", "nope"];
        if json {
            args.push("--json");
        }
        rejects(&args, &["no field starts with `nope`"]);
    }
    let out = runs(&[
        "dump",
        &f,
        "--tick",
        "2",
        "--field",
        "panes[0].boids[1].pos",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let fields = v["fields"].as_array().unwrap();
    let paths: Vec<&str> = fields.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "panes[0].boids[1].pos.x",
            "panes[0].boids[1].pos.y",
            "panes[0].boids[1].pos.z"
        ]
    );
    assert!(
        fields[0]["value"].is_i64(),
        "raw I32F32 bits, as in the state"
    );
    assert!(v.get("state").is_none());
}

/// Control characters recorded in a replay's metadata (here, the lesson's
/// file name) reach the terminal escaped.
#[cfg(unix)]
#[test]
fn escape_sequences_in_metadata_are_escaped() {
    let d = Dir::new("escapes");
    let lesson = d.file("evil\x1b[2J.toml");
    std::fs::write(&lesson, find_bundled("line-error-term").unwrap().source()).unwrap();
    let f = d.file("e.fsr");
    runs(&["record", &lesson, "-o", &f]);
    let info = runs(&["info", &f]);
    assert!(!info.contains('\x1b'), "{info:?}");
    assert!(info.contains("evil\\u{1b}[2J.toml"), "{info}");
}

/// Item 5: every state the recorder accepts, the reader accepts. A flock's
/// state grows by a fixed number of bytes per boid: at the most boids a
/// lesson may have, every model fits the reader's limit. A path scenario
/// whose state cannot fit is refused before its sim is built.
#[test]
fn the_recorder_accepts_only_states_the_reader_accepts() {
    use flockstep::replay::codec::MAX_PAYLOAD;
    use flockstep::replay::run::state_bytes;
    use flockstep::sim::flock::MAX_BOIDS;
    // A state's bytes and the boids it holds, in every pane.
    let bytes = |id: &str, n: u64| {
        let set = format!("boids={n}");
        let lesson = flockstep::bundled::source(id, &[&set])
            .unwrap()
            .lesson()
            .unwrap();
        let boids: u64 = (lesson.scenario.panes().iter())
            .map(|s| match s {
                Scenario::Flock(c) => c.boid_count(),
                _ => 0,
            })
            .sum();
        let sim = AnySim::new(&lesson.scenario).unwrap();
        (state_bytes(&sim.snapshot()), boids)
    };
    for id in [
        "flock-alignment",
        "flock-aquarium",
        "flock-weights",
        "flock-walls",
    ] {
        let ((a, na), (b, nb)) = (bytes(id, 1000), bytes(id, 2000));
        let per_boid = (b - a) / (nb - na);
        let largest = a - na * per_boid + u64::from(MAX_BOIDS) * per_boid;
        assert!(
            largest <= MAX_PAYLOAD as u64,
            "{id}: {per_boid} bytes a boid, {largest} bytes at {MAX_BOIDS} boids"
        );
    }
    let d = Dir::new("limits");
    let out = d.file("big.fsr");
    let eight = "searches=[{},{},{},{},{},{},{},{}]";
    rejects(
        &[
            "record",
            "path-ties",
            "--set",
            "width=2048",
            "--set",
            "height=2048",
            "--set",
            eight,
            "-o",
            &out,
        ],
        &[
            "its state takes at least 301989888 bytes",
            "at most 256 MiB",
        ],
    );
    assert!(!Path::new(&out).exists() && !Path::new(&format!("{out}.partial")).exists());
    rejects(
        &[
            "run",
            "path-ties",
            "--set",
            "searches=[{},{},{},{},{},{},{},{},{}]",
        ],
        &["runs 1..=8 searches, not 9"],
    );
    // Four panes of 250,001 boids would be 1,000,004 in all.
    rejects(
        &["run", "flock-weights", "--set", "boids=250001"],
        &["4 variants hold 1000004 boids in all", "at most 1000000"],
    );
}
