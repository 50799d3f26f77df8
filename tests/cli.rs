//! The command line as a user meets it: the real binary, its output, its
//! exit codes, and one clear message for every kind of bad input.

mod common;

use clap::CommandFactory;
use flockstep::cli::Cli;
use std::process::{Command, Output};

fn flockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit code 2 and one message containing `want`; never a panic.
fn rejects(args: &[&str], want: &str) -> String {
    let o = flockstep(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: expected {want:?} in:\n{err}");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(
        stdout(&o).is_empty(),
        "{args:?} printed to stdout on failure"
    );
    err
}

struct TempLesson(std::path::PathBuf);

impl TempLesson {
    /// `name` in a folder of its own: tests run in parallel, and two that
    /// write the same name must not delete each other's file.
    fn new(name: &str, text: &str) -> TempLesson {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = common::scratch_dir(&n.to_string());
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        TempLesson(p)
    }
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempLesson {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn bundled(id: &str) -> &'static str {
    flockstep::bundled::find_bundled(id).unwrap().source()
}

#[test]
fn clap_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn help_texts() {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = cmd.render_long_help().to_string();
    for sub in ["lessons", "run", "line", "path"] {
        out.push_str(&format!("\n---- flockstep {sub} --help ----\n"));
        out.push_str(
            &cmd.find_subcommand_mut(sub)
                .unwrap()
                .render_long_help()
                .to_string(),
        );
    }
    insta::assert_snapshot!("help", out);
}

#[test]
fn lessons_lists_the_bundled_lessons() {
    let o = flockstep(&["lessons"]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    for b in flockstep::bundled::BUNDLED {
        assert!(s.contains(b.id), "{} missing from:\n{s}", b.id);
    }
    assert!(s.contains("line-chase-arc") && s.contains(" line "));
}

#[test]
fn help_lists_the_commands() {
    let o = flockstep(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    for c in [
        "view", "render", "run", "record", "verify", "diff", "lessons",
    ] {
        assert!(s.contains(&format!("  {c} ")), "{c} missing from:\n{s}");
    }
}

#[test]
fn run_prints_the_golden_final_hash() {
    let o = flockstep(&["run", "line-error-term"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("ticks   13\n"), "{s}");
    assert!(s.contains("ticks/s"), "{s}");
    // The same hash as the library computes (and the golden snapshot holds).
    let l = flockstep::lesson::Lesson::parse(bundled("line-error-term"), "x").unwrap();
    let mut sim = flockstep::sim::AnySim::new(&l.scenario).unwrap();
    while sim.tick() < 13 {
        sim.step();
    }
    assert!(
        s.contains(&format!("hash    {:#018x}\n", sim.state_hash())),
        "{s}"
    );
}

#[test]
fn run_with_ticks_set_and_a_file() {
    let f = TempLesson::new("copy.toml", bundled("line-chase-arc"));
    let by_file = stdout(&flockstep(&["run", f.path(), "--ticks", "7"]));
    let by_id = stdout(&flockstep(&["run", "line-chase-arc", "--ticks", "7"]));
    let hash = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("hash"))
            .unwrap()
            .to_owned()
    };
    assert_eq!(hash(&by_file), hash(&by_id));
    let changed = stdout(&flockstep(&[
        "run",
        "line-chase-arc",
        "--ticks",
        "7",
        "--set",
        "chasers.0.at=[3,3]",
    ]));
    assert_ne!(hash(&changed), hash(&by_id));
}

#[test]
fn narration_in_japanese() {
    let o = flockstep(&["run", "line-error-term", "--narrate", "--lang", "ja"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("追跡者 A は (1,2)"), "{s}");
    assert!(s.contains("== beat 7 of 7 =="), "{s}");
    rejects(
        &["run", "line-error-term", "--narrate", "--lang", "fr"],
        "has no `fr` narration",
    );
    // English is the lessons' own text: `--lang en` is that, not a refusal.
    let en = flockstep(&["run", "line-error-term", "--narrate", "--lang", "en"]);
    assert_eq!(en.status.code(), Some(0), "{}", stderr(&en));
    let plain = flockstep(&["run", "line-error-term", "--narrate"]);
    assert_eq!(stdout(&en).lines().count(), stdout(&plain).lines().count());
    let text = |lang: &[&str]| {
        let mut args = vec!["render", "line-error-term", "--beat", "2", "--text", "-"];
        args.extend_from_slice(lang);
        let o = flockstep(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(text(&["--lang", "en"]), text(&[]));
}

#[test]
fn line_json_output() {
    let o = flockstep(&["line", "0,0", "4,2", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "{\"cells\": [[1,1],[2,1],[3,2],[4,2]], \"errors\": [0,-4,0,-4]}\n"
    );
    let o = flockstep(&["line", "-3,-4", "-3,-6", "--json"]);
    assert_eq!(
        stdout(&o),
        "{\"cells\": [[-3,-5],[-3,-6]], \"errors\": [-2,-2]}\n"
    );
}

#[test]
fn bad_coordinates() {
    rejects(
        &["line", "3,x", "4,5"],
        "y coordinate 'x' is not an integer",
    );
    rejects(&["line", "3", "4,5"], "expected X,Y");
    rejects(
        &["line", "0,0", "2147483648,0"],
        "x coordinate 2147483648 is out of range",
    );
    rejects(
        &["line", "0,0", "99999999999999999999999,0"],
        "out of range",
    );
    rejects(
        &["line", "0,0", "-2147483648,0", "--max-cells", "1000"],
        "more than --max-cells 1000",
    );
}

#[test]
fn bad_tick_counts() {
    rejects(
        &["run", "line-error-term", "--ticks", "-5"],
        "a tick count cannot be negative",
    );
    rejects(
        &["run", "line-error-term", "--ticks", "abc"],
        "is not a tick count",
    );
    rejects(
        &["run", "line-error-term", "--ticks", "99999999999"],
        "more than the limit",
    );
}

#[test]
fn bad_lessons_name_file_line_and_column() {
    let src = bundled("line-error-term").replace("width = 16", "widht = 16");
    let f = TempLesson::new("misspelt.toml", &src);
    // `width` is required, so it is reported missing at the table…
    rejects(&["run", f.path()], "missing `width`");
    // …and an extra unknown key is reported at its own line and column.
    let src = bundled("line-error-term").replace("width = 16", "width = 16\ntcks = 3");
    let f = TempLesson::new("unknown.toml", &src);
    let err = rejects(&["run", f.path()], "unknown key `tcks`");
    assert!(err.contains(&format!("{}:13:1:", f.path())), "{err}");

    let src = bundled("line-error-term").replace("sim = \"line\"", "sim = \"boids\"");
    let f = TempLesson::new("nosim.toml", &src);
    let err = rejects(&["run", f.path()], "unknown sim `boids`");
    assert!(err.contains(":11:7:"), "{err}");

    let f = TempLesson::new("broken.toml", "[lesson\n");
    rejects(&["run", f.path()], "broken.toml:1:");
}

#[test]
fn missing_lessons_and_bad_overrides() {
    rejects(
        &["run", "line-error-trem"],
        "Did you mean `line-error-term`?",
    );
    rejects(
        &["run", "/nonexistent/lesson.toml"],
        "cannot read the lesson",
    );
    rejects(
        &["run", "line-error-term", "--set", "nokey"],
        "is not KEY=VALUE",
    );
    rejects(
        &["run", "line-error-term", "--set", "eye_height=12"],
        "--set eye_height=12: `eye_height` = 12 is out of range",
    );
    rejects(
        &["run", "line-error-term", "--set", "targets=[[99,0]]"],
        "off the 16×9 grid",
    );
}

#[test]
fn closed_stdout_is_not_a_crash() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .args(["line", "0,0", "900000,1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
}

/// The line and column of the first occurrence of `needle` in `src`.
fn line_col_of(src: &str, needle: &str) -> String {
    let at = src
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not found"));
    let line = src[..at].matches('\n').count() + 1;
    let col = src[..at].rfind('\n').map_or(at, |nl| at - nl - 1) + 1;
    format!("{line}:{col}:")
}

#[test]
fn bad_flock_lessons_name_the_place() {
    let base = bundled("flock-weights");
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "boids = 40",
            "boids = 0",
            "0\nseed",
            "a flock needs 1..=1000000 boids",
        ),
        (
            "boids = 40",
            "boids = 10000000",
            "10000000",
            "`boids` = 10000000 is out of range",
        ),
        (
            "boids = 40",
            "boids = 40\nfov = -5",
            "-5",
            "`fov` = -5 is out of range",
        ),
        (
            "boids = 40",
            "boids = 40\nw_cohesion = 250",
            "250",
            "`w_cohesion` = 250 is out of range: expected 0..=100",
        ),
        (
            "boids = 40",
            "boids = 40\n\n[[scenario.obstacles]]\nat = [50, 5]\nradius = 2",
            "[50, 5]",
            "obstacle 0 is outside the world box",
        ),
        (
            "boids = 40",
            "boids = 40\nworld_max = [10, 20, 30]",
            "[10, 20, 30]",
            "must have 2 numbers in a 2-D world",
        ),
        (
            "model = \"weighted\"",
            "model = \"wieghted\"",
            "\"wieghted\"",
            "unknown model `wieghted`",
        ),
        (
            "boids = 40",
            "boids = 40\nbounds = \"torus\"",
            "\"torus\"",
            "`bounds` = \"torus\" is not one of \"wrap\", \"walls\", \"none\"",
        ),
        (
            "boids = 40",
            "boids = 40\nview_angle = 90",
            "view_angle",
            "`view_angle` is a key of the gems model; this scenario's model is \"weighted\"",
        ),
    ];
    for (i, (from, to, at, want)) in cases.iter().enumerate() {
        let src = base.replacen(from, to, 1);
        assert_ne!(src, base, "case {i}");
        let f = TempLesson::new(&format!("bad-flock-{i}.toml"), &src);
        let err = rejects(&["run", f.path()], want);
        let place = format!("{}:{}", f.path(), line_col_of(&src, at));
        assert!(err.contains(&place), "case {i}: want {place} in {err}");
    }
    // Out-of-range values from --set name the argument.
    rejects(
        &["run", "flock-weights", "--set", "boids=0"],
        "--set boids=0: a flock needs 1..=1000000 boids",
    );
    rejects(
        &["run", "flock-aquarium", "--set", "perception=-1"],
        "`perception` = -1 is out of range",
    );
    rejects(
        &["run", "flock-field-of-view", "--set", "bounds=walls"],
        "needs the weighted model",
    );
}

#[test]
fn run_scales_a_flock_lesson() {
    let o = flockstep(&[
        "run",
        "flock-weights",
        "--set",
        "boids=2000",
        "--ticks",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("ticks   5"));
    let o = flockstep(&["run", "flock-aquarium", "--ticks", "2", "--narrate"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("model gems  boids 60"),
        "{}",
        stdout(&o)
    );
}

const HILL: &str = "00000000000000
00000000000000
00011111111000
00122222222100
00123333332100
00122222222100
00011111111000
00000000000000
";

#[test]
fn path_draws_the_map_with_the_path() {
    let f = TempLesson::new("hill.txt", HILL);
    let o = flockstep(&["path", f.path(), "--from", "0,4", "--to", "13,4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    // Everything but the timing line is stable.
    let stable: Vec<&str> = text.lines().filter(|l| !l.starts_with("search ")).collect();
    insta::assert_snapshot!("path_hill_weight_1", stable.join("\n"));
    let o = flockstep(&[
        "path",
        f.path(),
        "--from",
        "0,4",
        "--to",
        "13,4",
        "--uphill-weight",
        "10",
    ]);
    assert!(
        stdout(&o).contains("cost      19 (19 moves)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn path_json_is_exactly_the_documented_object() {
    let f = TempLesson::new("hill.txt", HILL);
    let o = flockstep(&["path", f.path(), "--from", "0,4", "--to", "13,4", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let obj = v.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["cost", "expanded", "micros", "path"]);
    assert_eq!(v["cost"], 16);
    let path = v["path"].as_array().unwrap();
    assert_eq!(path.first().unwrap(), &serde_json::json!([0, 4]));
    assert_eq!(path.last().unwrap(), &serde_json::json!([13, 4]));
    assert_eq!(path.len(), 14);
    assert!(v["expanded"].as_u64().unwrap() > 0);
    assert!(v["micros"].is_u64());

    // Unreachable is an answer: null cost, empty path, exit 0.
    let walled = TempLesson::new("walled.txt", "00#00\n00#00\n00#00\n");
    let o = flockstep(&[
        "path",
        walled.path(),
        "--from",
        "0,0",
        "--to",
        "4,2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["cost"], serde_json::Value::Null);
    assert_eq!(v["path"], serde_json::json!([]));
    assert_eq!(v["expanded"], 6);
}

#[test]
fn path_trace_shows_the_open_list_after_every_step() {
    let f = TempLesson::new("small.txt", "0000\n0#00\n0010\n");
    let o = flockstep(&["path", f.path(), "--from", "0,0", "--to", "3,2", "--trace"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("path_trace_small", stdout(&o));
}

#[test]
fn path_bad_input() {
    let ragged = TempLesson::new("ragged.txt", "000\n0000\n000\n");
    rejects(
        &["path", ragged.path(), "--from", "0,0", "--to", "1,1"],
        "ragged.txt:2:4: ragged map",
    );
    let odd = TempLesson::new("odd.txt", "000\n0x0\n");
    let err = rejects(
        &["path", odd.path(), "--from", "0,0", "--to", "1,0"],
        "odd.txt:2:2:",
    );
    assert!(err.contains("'x'"), "{err}");
    let empty = TempLesson::new("empty.txt", "\n\n");
    rejects(
        &["path", empty.path(), "--from", "0,0", "--to", "0,0"],
        "the map is empty",
    );
    let f = TempLesson::new("hill.txt", HILL);
    rejects(
        &["path", f.path(), "--from", "0,4", "--to", "14,4"],
        "--to (14,4) is off the 14×8 map",
    );
    let w = TempLesson::new("wall.txt", "0#0\n000\n");
    rejects(
        &["path", w.path(), "--from", "1,0", "--to", "2,1"],
        "--from (1,0) is inside a wall",
    );
    rejects(
        &[
            "path",
            f.path(),
            "--from",
            "0,4",
            "--to",
            "13,4",
            "--uphill-weight=-1",
        ],
        "invalid value '-1' for '--uphill-weight <N>'",
    );
    rejects(
        &[
            "path",
            f.path(),
            "--from",
            "0,4",
            "--to",
            "13,4",
            "--heuristic-weight=-2",
        ],
        "out of range",
    );
    rejects(
        &[
            "path",
            f.path(),
            "--from",
            "0,4",
            "--to",
            "13,4",
            "--heuristic",
            "astar",
        ],
        "invalid value 'astar' for '--heuristic <NAME>'",
    );
    rejects(
        &[
            "path",
            "/nonexistent/map.txt",
            "--from",
            "0,0",
            "--to",
            "1,1",
        ],
        "cannot read the map",
    );
    // A lesson that declares a 100,000 × 100,000 map.
    let src = bundled("path-ties").replace("width = 30", "width = 100000");
    let l = TempLesson::new("huge.toml", &src);
    let err = rejects(
        &["run", l.path()],
        "`width` = 100000 is out of range: expected 1..=4096",
    );
    assert!(err.contains(&format!("{}:12:9:", l.path())), "{err}");
    // Start on a wall, in a lesson: file, line and column.
    let src = bundled("path-open-list").replace("start = [0, 2]", "start = [2, 2]");
    let l = TempLesson::new("onwall.toml", &src);
    rejects(&["run", l.path()], "start (2,2) is inside a wall");
}

/// `min_distance` anywhere in its documented range (0 = none, the
/// article, or 0.001..=10,000) runs, with every strength up to 10⁶: the
/// push is capped instead of overflowing (46 → 47 once multiplied past
/// i128).
#[test]
fn min_distance_runs_across_its_whole_range() {
    for v in ["0", "0.001", "0.01", "46", "47", "1000", "10000"] {
        for strength in ["10", "1000000"] {
            let set = format!("min_distance={v}");
            let st = format!("strength={strength}");
            let o = flockstep(&[
                "run",
                "flock-weights",
                "--set",
                &set,
                "--set",
                &st,
                "--ticks",
                "3",
            ]);
            assert_eq!(o.status.code(), Some(0), "{v} {strength}: {}", stderr(&o));
        }
    }
    for bad in [
        "min_distance=0.0005",
        "min_distance=10001",
        "strength=1000001",
    ] {
        let key = bad.split('=').next().unwrap();
        rejects(&["run", "flock-weights", "--set", bad, "--ticks", "1"], key);
    }
}

/// A lesson's `course` is a track name and a place from 1; anything else
/// is named at its line.
#[test]
fn a_bad_course_is_named_at_its_line() {
    let src = bundled("line-error-term");
    for bad in [
        "course = [\"lines\", 0]",
        "course = [\"Lines\", 1]",
        "course = [1, \"lines\"]",
    ] {
        let text = src.replacen("course = [\"lines\", 1]", bad, 1);
        assert_ne!(text, src);
        let l = TempLesson::new("course.toml", &text);
        let err = rejects(&["run", l.path()], "course.toml:8:");
        assert!(
            err.contains("course") || err.contains("invalid type"),
            "{err}"
        );
    }
}

/// `path` reads Moving AI benchmark maps as they are published (4-way
/// moves); a corrupt one is refused at its line and column.
#[test]
fn path_reads_moving_ai_maps() {
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/maze512-1-0.map");
    // The last scenario of maze512-1-0.map.scen: published length 4847.
    let o = flockstep(&["path", map, "--from", "485,107", "--to", "32,33", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("{\"cost\": 4847,"), "{}", stdout(&o));
    let bad = TempLesson::new("bad.map", "type octile\nheight 2\nwidth 3\nmap\n..@\n.x.\n");
    rejects(
        &["path", bad.path(), "--from", "0,0", "--to", "1,0"],
        "bad.map:6:2: unexpected 'x'",
    );
    let ragged = TempLesson::new(
        "ragged.map",
        "type octile\nheight 2\nwidth 3\nmap\n..@\n.\n",
    );
    rejects(
        &["path", ragged.path(), "--from", "0,0", "--to", "1,0"],
        "ragged.map:6:2: ragged map",
    );
}

/// `path --moves 8` and `scen`: a whole `.scen` file run against its map;
/// every 8-way length matches the published one (exit 0), a changed length
/// is reported with its line (exit 1), and a damaged file is refused at
/// its line and column (exit 2).
#[test]
fn scen_checks_the_published_lengths() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/");
    let map = format!("{dir}arena.map");
    // Line 30 of arena.map.scen: (1,24) → (6,32), published 10.0711.
    let o = flockstep(&[
        "path", &map, "--from", "1,24", "--to", "6,32", "--moves", "8",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("cost      10.0711 (8 moves)"),
        "{}",
        stdout(&o)
    );
    let scen = format!("{dir}arena.map.scen");
    let o = flockstep(&["scen", &scen]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("160 scenarios, 8-way moves, octile heuristic"),
        "{out}"
    );
    assert!(
        out.contains("match     160 of 160 within half a unit of the last digit"),
        "{out}"
    );
    assert!(out.contains("ns per expansion"), "{out}");
    // 4-way moves: longer wherever a diagonal helps.
    let o = flockstep(&["scen", &scen, "--moves", "4"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("scenarios differ from the published lengths"));
    // One length changed: that scenario, and only it, differs.
    let text = std::fs::read_to_string(&scen).unwrap();
    let changed = text.replacen("\t10.0711\n", "\t10.0721\n", 1);
    let file = TempLesson::new("arena.map.scen", &changed);
    let o = flockstep(&["scen", file.path(), "--map", &map]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("differ    line 30 (bucket 2): (1,24) → (6,32): ours 10.0710678119, off by -0.0010321881 (more than 0.0000500000), published 10.0721"),
        "{out}"
    );
    assert!(out.contains("match     159 of 160"), "{out}");
    // Issue 43: a length written with fewer decimals (as the StarCraft
    // files write theirs, `100.828`) matches to its own last digit...
    let short = text.replacen("\t10.0711\n", "\t10.071\n", 1);
    let file = TempLesson::new("arena.map.scen", &short);
    let o = flockstep(&["scen", file.path(), "--map", &map]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // ...unless --tolerance asks for more of every line.
    let o = flockstep(&["scen", file.path(), "--map", &map, "--tolerance", "0.00001"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("line 30 (bucket 2)"), "{}", stdout(&o));
    // Without --map, the map must be beside the file.
    rejects(
        &["scen", file.path()],
        "the scenarios' map `maps/dao/arena.map` is not beside it",
    );
    let bad = TempLesson::new(
        "bad.scen",
        "version 1\n0\tarena.map\t49\t49\t1\t11\tx\t12\t1\n",
    );
    rejects(&["scen", bad.path(), "--map", &map], "bad.scen:2:");
    rejects(
        &["scen", bad.path(), "--map", &map],
        "the goal must be a whole number",
    );
    let short = TempLesson::new("short.scen", "version 1\n0\tarena.map\t49\t49\t1\t11\n");
    rejects(
        &["scen", short.path(), "--map", &map],
        "short.scen:2:1: a scenario has 9",
    );
    let size = TempLesson::new(
        "size.scen",
        "version 1\n0\tarena.map\t50\t49\t1\t11\t1\t12\t1\n",
    );
    rejects(
        &["scen", size.path(), "--map", &map],
        "the scenarios are on a 50×49 map",
    );
    let wall = TempLesson::new(
        "wall.scen",
        "version 1\n0\tarena.map\t49\t49\t0\t0\t1\t12\t1\n",
    );
    rejects(
        &["scen", wall.path(), "--map", &map],
        "wall.scen:2: the start (0,0) is inside a wall",
    );
    let none = TempLesson::new("none.scen", "0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n");
    rejects(
        &["scen", none.path(), "--map", &map],
        "none.scen:1:1: a .scen file starts with a `version` line",
    );
}

#[test]
fn params_lists_each_sims_schema_and_the_docs_are_current() {
    for (lang, file) in [("en", "docs/params.md"), ("ja", "docs/params.ja.md")] {
        let o = flockstep(&["params", "--markdown", "--lang", lang]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == stdout(&o),
            "{file} is not what the schemas say; write it again with\n  cargo run --release -- params --markdown --lang {lang} > {file}"
        );
    }
    let text = stdout(&flockstep(&["params", "flock", "--model", "weighted"]));
    assert!(text.starts_with("flock (model = \"weighted\")\n"), "{text}");
    assert!(text.contains("  w_cohesion "), "{text}");
    assert!(
        text.contains("0..=10,000, ≥ min_speed; default 5; units per time unit"),
        "{text}"
    );
    assert!(
        !text.contains("view_range"),
        "a heading key in the weighted listing"
    );
    let ja = stdout(&flockstep(&["params", "line", "--lang", "ja"]));
    assert!(ja.contains("視線の目の高さ"), "{ja}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&flockstep(&["params", "path", "--json"]))).unwrap();
    let keys = &json[0]["params"];
    let tie = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["key"] == "tie_break")
        .unwrap();
    assert_eq!(
        tie["choices"],
        serde_json::json!(["fifo", "lifo", "larger_g", "smaller_h"])
    );
    assert_eq!(tie["default"], "\"fifo\"");
    assert_eq!(tie["vary"], true);
    rejects(
        &["params", "boids"],
        "unknown sim `boids`; known sims: flock, line, path",
    );
    rejects(
        &["params", "flock", "--model", "reynolds"],
        "--model reynolds: the flock sim's models are heading, gems, weighted",
    );
    rejects(
        &["params", "path", "--model", "x"],
        "the path sim has no models",
    );
    rejects(
        &["params", "--lang", "fr"],
        "--lang fr: parameters are described in en and ja",
    );
}
