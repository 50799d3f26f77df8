//! The sim through flockstep's own command line, in this crate's
//! `seek-flee` binary: a lesson of a sim flockstep does not know is
//! recorded, verified, compared, dumped and drawn like one of its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_seek-flee"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("seek-flee-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn record_verify_diff_dump_and_info() {
    let a = tmp("a.fsr");
    let b = tmp("b.fsr");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    ok(&[
        "record",
        "lessons/seek-flee.toml",
        "--ticks",
        "200",
        "-o",
        a,
    ]);
    ok(&[
        "record",
        "lessons/seek-flee.toml",
        "--ticks",
        "200",
        "--set",
        "fleer_speed=0.46",
        "-o",
        b,
    ]);
    assert!(ok(&["verify", a]).contains("every state hash matches"));
    let info = ok(&["info", a]);
    assert!(info.contains("sim          seek-flee"), "{info}");
    // The fleer is faster from the first tick it moves: the fleer's
    // velocity is the first field to differ, the seeker's not at all yet.
    let o = run(&["diff", a, b]);
    let out = text(&o.stdout) + &text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("fleer.vel"), "{out}");
    assert!(!out.contains("seeker."), "{out}");
    // Why (issue 46): a user's sim explains nothing, so the cause is the
    // parameter in force that differs.
    let o = run(&["diff", a, b, "--explain"]);
    let why = text(&o.stdout);
    assert!(why.contains("cause at tick "), "{why}");
    assert!(
        why.contains("parameter fleer_speed: a 0.45, b 0.46"),
        "{why}"
    );
    // And side by side, as `seek-flee view a b` shows them: the same
    // divergence, the fields of the user's state with both values.
    seek_flee::register().unwrap();
    let (ra, rb) = (
        flockstep::viewer::compare::Run::open(a, &[]).unwrap(),
        flockstep::viewer::compare::Run::open(b, &[]).unwrap(),
    );
    let p = flockstep::viewer::app::compared(&ra, &rb).unwrap();
    let c = p.compare.as_ref().unwrap();
    let first = c.first.unwrap();
    assert!(
        out.contains(&format!("first divergence at tick {first}")),
        "{out}"
    );
    let why = c.cause.as_ref().unwrap().as_ref().unwrap();
    assert!(
        why.params.iter().any(|(k, _, _)| k == "fleer_speed"),
        "{why:?}"
    );
    assert!(
        c.now.entities.is_empty(),
        "a user's state names no entities"
    );
    let dump = ok(&["dump", a, "--tick", "91"]);
    assert!(dump.contains("catches = 1"), "{dump}");
    let json = ok(&["dump", a, "--tick", "91", "--json"]);
    assert!(json.contains("\"catches\""), "{json}");
    // The golden replay verifies through the CLI too.
    ok(&["verify", "recordings/seek-flee.fsr"]);
}

#[test]
fn bad_scenarios_are_refused_by_line_and_column() {
    let f = tmp("bad.toml");
    let text_of = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/seek-flee.toml"),
    )
    .unwrap();
    std::fs::write(
        &f,
        text_of.replace("fleer = [30, 20]", "fleer = [30, 20, 1]"),
    )
    .unwrap();
    let o = run(&[
        "record",
        f.to_str().unwrap(),
        "-o",
        tmp("x.fsr").to_str().unwrap(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.toml:") && err.contains("`fleer` must have 2 numbers, found 3"),
        "{err}"
    );
    std::fs::write(&f, text_of.replace("margin = 3", "margins = 3")).unwrap();
    let o = run(&[
        "record",
        f.to_str().unwrap(),
        "-o",
        tmp("x.fsr").to_str().unwrap(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("margins"), "{err}");
}

/// The viewer's default scene of a sim it does not know: both agents by
/// name where the sim puts them, the legend of their kinds, the state's
/// fields in the side panel (as `flockstep render --text` reports it,
/// no window needed).
#[test]
fn the_default_scene_names_the_agents_and_lists_the_fields() {
    let json = ok(&[
        "render",
        "lessons/seek-flee.toml",
        "--beat",
        "5",
        "--text",
        "-",
    ]);
    for want in [
        r#""role":"label","text":"seeker""#,
        r#""role":"label","text":"fleer""#,
        r#""role":"legend","text":"seeker""#,
        r#""role":"panel","text":"state at tick 91""#,
        r#""role":"panel","text":"catches = 1""#,
    ] {
        assert!(json.contains(want), "{want} not in\n{json}");
    }
    // The fleer starts again at (3, 3): bottom left of the world box, the
    // seeker caught it top right.
    let rect = |who: &str| -> [i64; 2] {
        let at = json
            .find(&format!(r#""role":"label","text":"{who}""#))
            .unwrap();
        let r = &json[at..];
        let r = &r[r.find("\"rect\":[").unwrap() + 8..];
        let v: Vec<i64> = r[..r.find(']').unwrap()]
            .split(',')
            .map(|n| n.trim().parse().unwrap())
            .collect();
        [v[0], v[1]]
    };
    let (s, f) = (rect("seeker"), rect("fleer"));
    assert!(f[0] < s[0] && f[1] > s[1], "seeker {s:?}, fleer {f:?}");
}

/// The same frame in a real window (under Xvfb when there is no display):
/// a PNG of the window's size with the seeker's colour (sky blue) on it.
#[test]
fn the_default_scene_draws_in_a_window() {
    let png = tmp("beat5.png");
    let args = [
        "render",
        "lessons/seek-flee.toml",
        "--beat",
        "5",
        "-o",
        png.to_str().unwrap(),
    ];
    let bin = env!("CARGO_BIN_EXE_seek-flee");
    let o = if flockstep::viewer::window::display_available().is_ok() {
        run(&args)
    } else {
        match Command::new("xvfb-run")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["-a", "-s", "-screen 0 1280x720x24", bin])
            .args(args)
            .output()
        {
            Ok(o) => o,
            Err(e) => {
                assert!(
                    std::env::var_os("CI").is_none(),
                    "no display and no xvfb-run under CI: {e}"
                );
                eprintln!("\n*** WINDOW TEST SKIPPED: no X display and no xvfb-run ({e})\n");
                return;
            }
        }
    };
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1280, 720));
    let sky = [86u8, 180, 233];
    let n = buf.chunks(4).filter(|p| p[..3] == sky).count();
    assert!(n > 50, "{n} pixels of the seeker's colour");
}

#[test]
fn params_lists_the_sims_own_schema_and_set_is_checked_by_it() {
    let list = ok(&["params", "seek-flee"]);
    assert!(list.starts_with("seek-flee\n"), "{list}");
    assert!(
        list.contains("panic_distance") && list.contains("0..=10,000; default 10; world units"),
        "{list}"
    );
    let ja = ok(&["params", "seek-flee", "--lang", "ja"]);
    assert!(ja.contains("この距離より近い追う側からだけ逃げる"), "{ja}");
    // Every sim, flockstep's and this one, in one listing.
    let all = ok(&["params"]);
    assert!(
        all.contains("\nseek-flee\n") && all.contains("\nflock (models:"),
        "{all}"
    );
    let o = run(&[
        "run",
        "lessons/seek-flee.toml",
        "--ticks",
        "1",
        "--set",
        "panic_distanse=3",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unknown key `panic_distanse` in [scenario] (did you mean `panic_distance`?)"),
        "{err}"
    );
    let o = run(&["run", "lessons/seek-flee.toml", "--set", "max_force=11"]);
    let err = text(&o.stderr);
    assert!(
        err.contains("`max_force` = 11 is out of range: expected 0.001..=10"),
        "{err}"
    );
}
