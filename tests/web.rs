//! The web build, for real: `web/build.sh` builds it (the same command the
//! README gives), then
//! - Node.js runs the core compiled to wasm32 — every bundled lesson, each
//!   tick's state hash, each lesson recorded to a replay — and the report
//!   must equal the native one line for line; a failure names the lesson
//!   and the first differing tick;
//! - headless Chromium (software WebGL) opens the page: the first frame
//!   must show the lesson picker; Down + Enter opens a lesson; Ctrl+S
//!   downloads a replay that `verify` accepts; Esc goes back; a click on
//!   a row opens that lesson and a click on the scrub bar moves the tick;
//!   the downloaded replay dropped back on the page plays; a corrupt
//!   replay, a picture and a stray text file, dropped on the page or
//!   chosen in its file picker, show the very messages the desktop shows
//!   for them, and nothing panics.
//!
//! These tests need the wasm32 target, clang, Node.js and Chromium. Where
//! one is missing they are skipped, loudly (on the terminal, past the test
//! harness's capture), with the one command that installs what they need
//! — unless `CI` is set: then a missing tool is a failure, so `.ci/run`
//! (which installs them) can never skip them. `FLOCKSTEP_SKIP_WEB_TESTS=1`
//! skips them deliberately anywhere but under `CI`.

use flockstep::replay::file::Replay;
use flockstep::replay::run::{Verdict, verify};
use flockstep::scene::{Rgba, color};
use flockstep::selftest;
use flockstep::viewer::app::App;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The budget: 3 MB uncompressed.
const MAX_WASM_BYTES: u64 = 3_000_000;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[path = "common/web_tools.rs"]
mod web_tools;
use web_tools::skipped;

/// The site built by `web/build.sh` (once per test run).
fn site() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let out = root().join("target").join("web");
        let o = Command::new(root().join("web/build.sh"))
            .arg(&out)
            .output()
            .expect("web/build.sh runs");
        assert!(
            o.status.success(),
            "web/build.sh failed:\n{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        out
    })
}

fn node(args: &[&str]) -> std::process::Output {
    Command::new("node").args(args).output().expect("node runs")
}

#[test]
fn a_report_difference_names_the_lesson_and_the_first_differing_tick() {
    let native = "flockstep selftest 1\nlesson a ticks 2\n0 00\n1 11\n2 22\nreplay a bytes 9 crc32c 1\nlesson b ticks 2\n0 00\n1 11\n2 22\nreplay b bytes 9 crc32c 2\n";
    assert_eq!(selftest::first_difference(native, native, "wasm"), None);
    let tick = native.replacen("1 11\n2 22\nreplay b", "1 11\n2 2f\nreplay b", 1);
    assert_eq!(
        selftest::first_difference(native, &tick, "wasm").as_deref(),
        Some("lesson b: first differing tick 2: native hash 22, wasm 2f")
    );
    let bytes = native.replace("replay a bytes 9", "replay a bytes 10");
    assert_eq!(
        selftest::first_difference(native, &bytes, "wasm").as_deref(),
        Some(
            "lesson a: native has `replay a bytes 9 crc32c 1`, wasm has `replay a bytes 10 crc32c 1`"
        )
    );
    let short = &native[..native.len() - 30];
    assert!(
        selftest::first_difference(native, short, "wasm")
            .unwrap()
            .starts_with("lesson b: native has `")
    );
}

#[test]
fn the_core_compiled_to_wasm_hashes_every_tick_as_native_does() {
    if skipped() {
        return;
    }
    let native = selftest::report().unwrap();
    // The report covers every bundled lesson for at least MIN_TICKS ticks,
    // so equality below cannot be vacuous.
    let lessons: Vec<&str> = native
        .lines()
        .filter(|l| l.starts_with("lesson "))
        .collect();
    assert_eq!(lessons.len(), flockstep::bundled::BUNDLED.len());
    let hashes = native
        .lines()
        .filter(|l| l.contains(' ') && l.as_bytes()[0].is_ascii_digit());
    assert!(hashes.count() as u64 > lessons.len() as u64 * selftest::MIN_TICKS);

    let wasm = site().join("flockstep.wasm");
    let o = node(&["web/selftest.mjs", wasm.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "the wasm selftest failed: {report}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    if let Some(d) = selftest::first_difference(&native, &report, "wasm") {
        panic!("wasm32 and native differ: {d}");
    }

    // The bench flock (1,000 boids) ends in the same state too.
    let o = node(&[
        "web/selftest.mjs",
        wasm.to_str().unwrap(),
        "bench",
        "1000",
        "50",
        "1",
    ]);
    let line = String::from_utf8_lossy(&o.stdout);
    let native_hash = format!("{:016x}", selftest::bench_flock(1000, 50).unwrap());
    assert!(
        line.trim_end().ends_with(&format!("hash {native_hash}")),
        "bench flock: native {native_hash}, wasm: {line}"
    );
}

#[test]
fn the_site_is_complete_and_small() {
    if skipped() {
        return;
    }
    let site = site();
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    for f in ["mq_js_bundle.js", "flockstep.js", "flockstep.wasm"] {
        assert!(html.contains(f), "index.html does not load {f}");
        assert!(site.join(f).is_file(), "{f} missing from the site");
    }
    // The font, fetched beside the page, is the bundled one, with its
    // licence.
    assert_eq!(
        std::fs::read(site.join("flockstep-sans.otf")).unwrap(),
        flockstep::viewer::text::FONT,
        "the site's font is not the bundled one"
    );
    assert!(site.join("flockstep-sans-OFL.txt").is_file());
    let js = std::fs::read_to_string(site.join("flockstep.js")).unwrap();
    assert!(js.contains("version: 1"), "plugin version");
    let wasm = std::fs::metadata(site.join("flockstep.wasm"))
        .unwrap()
        .len();
    eprintln!("flockstep.wasm: {wasm} bytes");
    assert!(
        wasm <= MAX_WASM_BYTES,
        "flockstep.wasm is {wasm} bytes, over the 3 MB budget"
    );
    // Everything the page and the selftest call is exported, and the only
    // imports are the loader's (module `env`): no wasm-bindgen glue.
    let script = "const m = new WebAssembly.Module(require('fs').readFileSync(process.argv[1]));\
        console.log(JSON.stringify({e: WebAssembly.Module.exports(m).map(x => x.name),\
        i: WebAssembly.Module.imports(m).map(x => x.module + '.' + x.name)}))";
    let o = node(&["-e", script, site.join("flockstep.wasm").to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names = |k: &str| -> Vec<String> {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_owned())
            .collect()
    };
    let exports = names("e");
    for e in [
        "main",
        "flockstep_selftest",
        "flockstep_bench_flock",
        "flockstep_alloc",
        "flockstep_file",
        "flockstep_open_lesson",
        "flockstep_save",
        "flockstep_set_lang",
        "flockstep_crate_version",
    ] {
        assert!(exports.iter().any(|x| x == e), "{e} is not exported");
    }
    let foreign: Vec<String> = names("i")
        .into_iter()
        .filter(|i| !i.starts_with("env."))
        .collect();
    assert!(
        foreign.is_empty(),
        "imports outside the loader: {foreign:?}"
    );
}

/// A screenshot, as RGB.
struct Shot {
    w: usize,
    h: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    fn read(p: &Path) -> Shot {
        let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(p).unwrap()));
        let mut r = d.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        let n = match info.color_type {
            png::ColorType::Rgba => 4,
            png::ColorType::Rgb => 3,
            other => panic!("{}: unexpected colour type {other:?}", p.display()),
        };
        buf.truncate(info.buffer_size());
        Shot {
            w: info.width as usize,
            h: info.height as usize,
            rgb: buf.chunks_exact(n).map(|p| [p[0], p[1], p[2]]).collect(),
        }
    }

    fn rows_with(&self, c: [u8; 3], min: usize) -> Vec<usize> {
        self.rows_near(c, 3, min)
    }

    /// Rows with at least `min` pixels within `tol` of `c` in every
    /// channel (antialiased text is rarely exactly its colour).
    fn rows_near(&self, c: [u8; 3], tol: u8, min: usize) -> Vec<usize> {
        (0..self.h)
            .filter(|y| {
                self.rgb[y * self.w..(y + 1) * self.w]
                    .iter()
                    .filter(|p| p.iter().zip(c).all(|(x, y)| x.abs_diff(y) <= tol))
                    .count()
                    >= min
            })
            .collect()
    }

    fn count(&self, c: [u8; 3]) -> usize {
        self.rgb.iter().filter(|p| near(**p, c)).count()
    }
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 3)
}

/// An opaque colour as drawn over the background.
fn over_background(c: Rgba) -> [u8; 3] {
    let bg = color::BACKGROUND;
    let mix = |f: u8, b: u8| {
        ((u32::from(f) * u32::from(c.3) + u32::from(b) * (255 - u32::from(c.3))) / 255) as u8
    };
    [mix(c.0, bg.0), mix(c.1, bg.1), mix(c.2, bg.2)]
}

/// Separate runs of consecutive rows.
fn bands(rows: &[usize]) -> usize {
    rows.windows(2).filter(|w| w[1] > w[0] + 1).count() + usize::from(!rows.is_empty())
}

#[test]
fn headless_chromium_shows_the_picker_plays_saves_and_reports_bad_files_as_the_desktop() {
    if skipped() {
        return;
    }
    let site = site();
    let out = std::env::temp_dir().join(format!("flockstep-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();

    // Files a student might drop: a damaged replay, a picture, a text
    // file that is not a lesson.
    let golden = std::fs::read(root().join("recordings/line-error-term.fsr")).unwrap();
    let mut broken = golden.clone();
    let at = broken.len() / 2;
    for b in &mut broken[at..at + 8] {
        *b ^= 0x5a;
    }
    let files = [
        ("broken.fsr", broken),
        (
            "picture.png",
            std::fs::read(root().join("docs/screenshots/line.png")).unwrap(),
        ),
        ("notes.txt", b"[lesson]\nid = \"x\"\ntitle = 3\n".to_vec()),
    ];
    let mut args = vec![
        "web/browser-check.mjs".to_owned(),
        site.display().to_string(),
        out.display().to_string(),
    ];
    for (name, bytes) in &files {
        let p = out.join(name);
        std::fs::write(&p, bytes).unwrap();
        args.push(p.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = node(&args);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "browser-check printed no report ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&o.stderr)
        )
    });
    assert!(
        o.status.success() && r["failure"].is_null(),
        "browser-check: {stdout}"
    );
    assert!(r["panic"].is_null(), "the viewer panicked: {}", r["panic"]);
    eprintln!(
        "first frame {:.0} ms after navigation start ({} ms wall, from the navigate command)",
        r["firstFrameMs"].as_f64().unwrap(),
        r["firstFrameWallMs"]
    );

    // The first frame is the picker: mostly background, the chosen row's
    // highlight bar across the window, the three sims' headings in sky
    // blue, the chosen lesson in the selection colour.
    let picker = Shot::read(&out.join("picker.png"));
    let bg = picker.count([
        color::BACKGROUND.0,
        color::BACKGROUND.1,
        color::BACKGROUND.2,
    ]);
    assert!(
        bg > picker.w * picker.h / 2,
        "picker: background is {bg} px"
    );
    let bar = picker.rows_with(over_background(color::PANEL), picker.w * 8 / 10);
    assert!(
        !bar.is_empty(),
        "picker: no highlight bar for the chosen lesson"
    );
    let headings = picker.rows_near([color::SKY.0, color::SKY.1, color::SKY.2], 40, 10);
    assert!(
        bands(&headings) >= 2,
        "picker: {} bands of sky-blue headings",
        bands(&headings)
    );
    // The whole picker fits the page (two columns in a wide one): every
    // sim's heading is on screen.
    assert_eq!(
        r["pickerGroups"],
        serde_json::json!(["flock", "line", "path"])
    );
    assert!(picker.count([color::SELECTED.0, color::SELECTED.1, color::SELECTED.2]) > 50);
    assert_eq!(r["pickerTitle"], "flockstep — pick a lesson");

    // Keys work as on the desktop: Down, Enter opens the second lesson.
    let second = flockstep::viewer::app::picker_entries()[1].id.clone();
    assert_eq!(r["lessonTitle"], format!("{second} — flockstep"));
    let lesson = Shot::read(&out.join("lesson.png"));
    assert!(lesson.rgb != picker.rgb, "the lesson looks like the picker");
    assert!(
        lesson.count([color::SELECTED.0, color::SELECTED.1, color::SELECTED.2]) > 20,
        "the lesson's inspected boid is not drawn"
    );
    // Issue 43: every frame the page showed while the lesson opened
    // draws its glyphs (the first one used to show many as black blocks
    // when the font's atlas grew in the middle of the frame): no pure
    // black pixel anywhere (the darkest colour drawn is the walls',
    // 8,8,10).
    let frames = out.join("frames");
    let mut shown: Vec<PathBuf> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    shown.sort();
    assert!(
        shown.len() >= 3,
        "only {} frames shown while the lesson opened",
        shown.len()
    );
    for f in &shown {
        let black = Shot::read(f).count([0, 0, 0]);
        assert!(black < 50, "{}: {black} black pixels", f.display());
    }
    assert_eq!(r["backTitle"], "flockstep — pick a lesson", "Esc");
    // The mouse as on the desktop: a click on a row opens that lesson, a
    // click on the scrub bar at three quarters goes to about that tick.
    assert_eq!(r["mouseTitle"], "line-error-term — flockstep");
    let (tick, last) = (
        r["scrubbed"]["tick"].as_u64().unwrap(),
        r["scrubbed"]["last"].as_u64().unwrap(),
    );
    assert!(
        last > 4 && (last * 3 / 4).abs_diff(tick) <= 1 + last / 20,
        "clicked the scrub bar at 3/4: tick {tick} of {last}"
    );
    // Beats are steps on the page too: the third beat tab shows beat 3,
    // which shares tick 0 with beats 1, 2 and 4.
    assert_eq!(r["tab"]["beat"], 2, "beat tab 3: {}", r["tab"]);
    assert_eq!(r["tab"]["tick"], 0);
    // The wheel scrolls a picker taller than the page (here it fits).
    if r["wheel"]["shown"].as_u64().unwrap() < 25 {
        assert_eq!(r["wheel"]["scrolled"], true, "the wheel: {}", r["wheel"]);
    }
    // A what-if with the mouse (issue 45): the stroke and the slider are
    // inputs that part the run from the lesson; scrubbing back before the
    // slider's change shows the run before it, forward again the change;
    // the download verifies with every input; the shared link reopens
    // the same state at the same tick.
    let w = &r["whatif"];
    let (plain, painted, changed) = (&w["plain"], &w["painted"], &w["changed"]);
    // Tab went to the panel (every pane → the first), not the browser,
    // and Ctrl+L downloaded the what-if lesson without leaving the canvas.
    assert_eq!(w["tab"]["pane"], serde_json::json!([null, 0]), "{w}");
    assert_eq!(w["tab"]["focus"], "glcanvas", "{w}");
    assert_eq!(w["tab"]["lesson"], "path-heuristics-whatif.toml", "{w}");
    assert_eq!(plain[0], painted[0], "{w}");
    assert_ne!(plain[1], painted[1], "the walls changed the run: {w}");
    assert!(
        painted[2].as_u64().unwrap() >= 4,
        "the stroke painted walls: {w}"
    );
    assert_eq!(
        changed[2].as_u64(),
        painted[2].as_u64().map(|n| n + 1),
        "{w}"
    );
    assert_eq!(
        w["now"].as_u64().unwrap() + 1,
        w["slider"]["values"].as_array().unwrap().len() as u64,
        "the slider's last value: {w}"
    );
    assert_eq!(
        w["back"],
        serde_json::json!([painted[0], painted[1]]),
        "{w}"
    );
    assert_eq!(
        w["again"],
        serde_json::json!([changed[0], changed[1]]),
        "{w}"
    );
    let mut saved = Replay::open(Path::new(w["download"].as_str().unwrap())).unwrap();
    assert!(
        matches!(verify(&mut saved, |_| {}), Ok(Verdict::Match { .. })),
        "{w}"
    );
    let kept: usize = saved.frames().map(|f| f.unwrap().inputs.len()).sum();
    assert_eq!(kept as u64, changed[2].as_u64().unwrap(), "{w}");
    assert!(
        w["link"]
            .as_str()
            .unwrap()
            .contains("?lesson=path-heuristics"),
        "{w}"
    );
    assert_eq!(
        w["reopened"],
        serde_json::json!([changed[0], changed[1], changed[2], null]),
        "the link reopens the same run: {w}"
    );
    // ?lesson=…&lang=ja: the lesson, narrated in Japanese, with the font
    // fetched beside the page, still within the first-frame budget.
    assert_eq!(r["ja"]["lesson"], "line-error-term", "{}", r["ja"]);
    assert_eq!(r["ja"]["lang"], "ja", "{}", r["ja"]);
    // The page's own buttons and hint speak Japanese too (issue 43), from
    // the viewer's catalogue.
    assert_eq!(r["ja"]["open"], flockstep::i18n::WEB_OPEN.ja, "{}", r["ja"]);
    assert_eq!(r["ja"]["hint"], flockstep::i18n::WEB_HINT.ja, "{}", r["ja"]);
    assert_eq!(r["ja"]["htmlLang"], "ja");
    // ... and are drawn: the page's buttons fall back to the viewer's font
    // for glyphs the system lacks (this machine's Chromium has no CJK
    // font, so the face must have been fetched and loaded).
    assert_eq!(r["ja"]["headerFont"], "loaded", "{}", r["ja"]);
    let first = r["ja"]["firstFrameMs"].as_f64().unwrap();
    assert!(
        first < 1500.0,
        "the first frame took {first:.0} ms (budget 1.5 s)"
    );

    // Ctrl+S downloaded the session; it is a replay today's code verifies.
    let download = PathBuf::from(r["downloadFile"].as_str().unwrap());
    assert_eq!(
        download.file_name().unwrap().to_str().unwrap(),
        format!("{second}-session.fsr")
    );
    let mut replay = Replay::open(&download).unwrap();
    assert_eq!(replay.meta.lesson_id, second);
    assert!(matches!(
        verify(&mut replay, |_| {}).unwrap(),
        Verdict::Match { .. }
    ));

    // Dropped back on the page, the download plays.
    assert_eq!(r["droppedReplay"], second.as_str());
    // Dropped twice at once, it opens side by side with itself: the same
    // lesson, both names, no tick at which they part, b at a's tick.
    let c = &r["compared"];
    assert_eq!(c["lesson"], second.as_str());
    assert_eq!(c["compare"]["names"].as_array().unwrap().len(), 2);
    assert!(c["compare"]["first"].is_null(), "{c}");
    assert_eq!(c["compare"]["other_tick"], c["tick"]);

    // Bad files, dropped and picked: the page shows what the desktop
    // shows for the same file.
    let errors = r["errors"].as_array().unwrap();
    assert_eq!(errors.len(), files.len());
    let hows: Vec<&str> = errors.iter().map(|e| e["how"].as_str().unwrap()).collect();
    assert_eq!(hows, ["dropped", "picked", "dropped"]);
    for ((name, _), e) in files.iter().zip(errors) {
        let path = out.join(name).display().to_string();
        let mut app = App::new();
        app.open(&path, &[]);
        let desktop = app
            .error
            .expect("the desktop refuses it")
            .replace(&path, name);
        assert_eq!(e["error"].as_str().unwrap(), desktop, "{name}");
    }
    let error = Shot::read(&out.join("error.png"));
    assert!(
        error.count([
            color::VERMILLION.0,
            color::VERMILLION.1,
            color::VERMILLION.2
        ]) > 400,
        "the error box is not on screen"
    );
    let _ = std::fs::remove_dir_all(&out);
}
