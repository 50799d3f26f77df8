//! A user's sim in the web build, for real: `web/build.sh --bin seek-flee`
//! builds the page with this crate's sim registered, headless Chromium
//! opens it, the lesson file is dropped on the page and plays, and the
//! state the browser shows at its tick has the hash the native sim has at
//! that tick.
//!
//! Needs what flockstep's own web tests need (the wasm32 target, clang,
//! Node.js, Chromium); without them the test is skipped with a message,
//! except under `CI`, where it fails. `FLOCKSTEP_SKIP_WEB_TESTS` skips it.

use flockstep_core::lesson::Lesson;
use flockstep_core::sim::AnySim;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

// The same tools and skip rule as flockstep's own web tests.
#[path = "../../../tests/common/web_tools.rs"]
mod web_tools;
use web_tools::skipped;

#[test]
fn the_sim_plays_in_the_browser_as_natively() {
    if skipped() {
        return;
    }
    let root = workspace();
    let site = root.join("target/web-seek-flee");
    let o = Command::new(root.join("web/build.sh"))
        .args(["--bin", "seek-flee"])
        .arg(&site)
        .output()
        .expect("web/build.sh runs");
    assert!(
        o.status.success(),
        "web/build.sh --bin seek-flee failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = std::env::temp_dir().join(format!("seek-flee-web-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let lesson_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/seek-flee.toml");
    let o = Command::new("node")
        .arg(root.join("web/browser-check.mjs"))
        .arg("--open")
        .args([&site, &out, &lesson_path])
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "browser-check: {stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let opened = &report["opened"];
    assert_eq!(opened["lesson"], "seek-flee", "{stdout}");
    assert_eq!(opened["error"], serde_json::Value::Null, "{stdout}");
    assert_eq!(report["lastError"], serde_json::Value::Null, "{stdout}");
    let tick = opened["tick"].as_u64().unwrap();
    assert!(tick > 0, "the lesson did not play: {stdout}");
    // The same state natively.
    seek_flee::register().unwrap();
    let text = std::fs::read_to_string(&lesson_path).unwrap();
    let lesson = Lesson::parse(&text, "seek-flee.toml").unwrap();
    let mut sim = AnySim::new(&lesson.scenario).unwrap();
    for _ in 0..tick {
        sim.step();
    }
    assert_eq!(
        opened["hash"].as_str().unwrap(),
        format!("{:016x}", sim.state_hash()),
        "the browser's state at tick {tick} differs from the native one"
    );
    // Drawn there: the fleer's orange disc and its panic ring (a mark,
    // in the panic overlay's blue) are on the page's picture.
    let (rgb, (w, h)) = pixels(&out.join("opened.png"));
    let count = |c: [u8; 3]| rgb.iter().filter(|p| **p == c).count();
    let (orange, blue) = (count([230, 159, 0]), count(BLUE));
    assert!(
        orange > 50,
        "{orange} pixels of the fleer's orange in {w}×{h}"
    );
    assert!(
        blue > 200,
        "{blue} pixels of the panic ring's blue in {w}×{h}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The panic overlay's colour (the fifth of the default scene's overlay
/// colours: color::BLUE).
const BLUE: [u8; 3] = [0, 114, 178];

/// A PNG's pixels as RGB, and its size.
fn pixels(path: &Path) -> (Vec<[u8; 3]>, (u32, u32)) {
    let d = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(step)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (rgb, (info.width, info.height))
}
