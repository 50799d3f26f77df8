//! The real window driven by a real mouse and keyboard: `flockstep view`
//! under Xvfb, with `xdotool` pressing keys and dragging. A stroke of the
//! map brush paints walls and a drag on a parameter slider changes a
//! search's heuristic; Ctrl+S saves the session; the saved replay holds
//! those inputs, verifies, and differs from the lesson as written.
//!
//! Needs Xvfb (`xvfb-run`) and `xdotool`; skipped loudly without them,
//! and failed instead under CI (`.ci/run` installs both), as the other
//! window tests are. Its keys and drags come quicker than a slow frame
//! (Ctrl+S is one chord), as a script's do: the window must read them
//! from its events, not from the keyboard and mouse at the next frame.

mod common;

use flockstep::replay::Replay;
use flockstep::replay::run::{self, Verdict};
use flockstep::scene;
use flockstep::sim::{Cell, Ground, Input};
use flockstep::viewer::app::{App, Cmd, PanelCmd};
use flockstep::viewer::panel;
use std::path::Path;
use std::process::Command;

const W: i32 = 1280;
const H: i32 = 720;

/// Whether the tools are here; under CI their absence fails the test.
/// One window at a time: concurrent `xvfb-run -a` can pick the same
/// display number.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs a shell script under its own Xvfb, in `dir`.
fn in_xvfb(script: &str, dir: &Path) -> std::process::Output {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24", "bash", "-c", script])
        .current_dir(dir)
        .output()
        .unwrap()
}

fn tools() -> bool {
    let have = |c: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {c}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if have("xvfb-run") && have("xdotool") {
        return true;
    }
    const INSTALL: &str = "apt-get install xvfb xauth xdotool libgl1-mesa-dri";
    assert!(
        std::env::var_os("CI").is_none(),
        "the window input test cannot run under CI without xvfb-run and xdotool; install: {INSTALL}"
    );
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** WINDOW INPUT TEST SKIPPED: xvfb-run or xdotool missing.\n*** Install with: {INSTALL}\n"
    );
    false
}

/// The pixel at the middle of `cell` in a 1280×720 window showing `app`.
fn cell_pixel(app: &App, cell: Cell) -> [i32; 2] {
    let l = app.framed(W, H).layout;
    let p = app.player().unwrap();
    let cam = p.camera(l.scene, l.scale);
    let (mut sx, mut sy, mut n) = (0i64, 0i64, 0i64);
    for y in (l.scene.y..l.scene.y + l.scene.h).step_by(2) {
        for x in (l.scene.x..l.scene.x + l.scene.w).step_by(2) {
            // As the window finds the cell under the mouse; the first
            // search's copy of it (each search shows the map).
            let (_, sim, pcam) = scene::pane_at(p.session.sim(), &cam, [x, y]).unwrap_or((
                0,
                &p.session.sim().panes()[0],
                scene::pane_camera(p.session.sim(), &cam, 0),
            ));
            if scene::tile_cell_at(sim, &pcam, [x, y]) == Some((0, cell)) {
                (sx, sy, n) = (sx + i64::from(x), sy + i64::from(y), n + 1);
            }
        }
    }
    assert!(n > 0, "{cell} is on the screen");
    [(sx / n) as i32, (sy / n) as i32]
}

#[test]
fn a_brush_stroke_and_a_slider_drag_are_recorded_and_replay() {
    if !tools() {
        return;
    }
    let id = "path-heuristics";
    // Where things are, from the same layout code the window uses.
    let mut app = App::new();
    app.open(id, &[]);
    let wall: Vec<Cell> = (5..=9).map(|y| Cell::new(12, y)).collect();
    let from = cell_pixel(&app, wall[0]);
    let to = cell_pixel(&app, *wall.last().unwrap());
    app.handle(Cmd::Panel(PanelCmd::Toggle));
    let p = app.player().unwrap();
    let l = app.framed(W, H).layout;
    let h = p
        .panel
        .controls
        .iter()
        .position(|c| c.key == "heuristic")
        .unwrap();
    let r = panel::rects(p, &l)
        .into_iter()
        .find(|r| r.control == h)
        .expect("the heuristic's slider is shown");
    // The slider's far right: its last value, another than the lesson's.
    let last = p.panel.controls[h].values.len() - 1;
    assert_ne!(p.panel.current(h, &Default::default(), 0), last);
    let expected = p.panel.controls[h].values[last].clone();
    let slider = [r.track.x + r.track.w - 1, r.track.y + r.track.h / 2];

    let dir = common::scratch_dir("input");
    let bin = env!("CARGO_BIN_EXE_flockstep");
    let script = format!(
        r#"set -e
"{bin}" view {id} --lang en & V=$!
W=$(xdotool search --sync --onlyvisible --name '^flockstep$' | head -1)
xdotool windowmove $W 0 0; xdotool windowfocus $W || true; sleep 5
mv() {{ xdotool mousemove --window $W $1 $2; sleep 0.4; }}
xdotool key m; sleep 0.4
mv {fx} {fy}; xdotool mousedown 1; sleep 0.3
for i in 1 2 3 4 5 6 7 8; do mv {fx} $(( {fy} + ({ty} - {fy}) * i / 8 )); done
xdotool mouseup 1; sleep 0.3
xdotool key m; sleep 0.3; xdotool key p; sleep 0.4
mv {sx} {sy}; xdotool mousedown 1; sleep 0.4; xdotool mouseup 1; sleep 0.4
# Save, and wait for the file (a busy machine draws slowly).
for i in $(seq 1 120); do
    [ -e {id}-session-1.fsr ] && break
    [ $i = 1 ] || [ $i = 40 ] || [ $i = 80 ] && xdotool key ctrl+s
    sleep 0.25
done
sleep 0.5
kill $V; wait $V || true
"#,
        fx = from[0],
        fy = from[1],
        ty = to[1],
        sx = slider[0],
        sy = slider[1],
    );
    let out = in_xvfb(&script, &dir);
    let saved = dir.join(format!("{id}-session-1.fsr"));
    assert!(
        saved.exists(),
        "Ctrl+S saved the session: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    check_saved(&saved, &wall, &expected);
}

/// The saved session: walls painted along the stroke, the heuristic set
/// from the slider, verifying, and parting from the lesson as written.
fn check_saved(saved: &Path, wall: &[Cell], heuristic: &str) {
    let mut r = Replay::open(saved).unwrap();
    assert!(matches!(
        run::verify(&mut r, |_| {}),
        Ok(Verdict::Match { .. })
    ));
    let inputs: Vec<Input> = r.frames().flat_map(|f| f.unwrap().inputs).collect();
    let last = r.last_tick.unwrap();
    let source = flockstep::bundled::source("path-heuristics", &[]).unwrap();
    let (_, plain) =
        run::record(Vec::new(), &source, last, None, &Default::default(), |_| {}).unwrap();
    assert_ne!(
        r.state_at(last).unwrap().1.hash,
        plain.final_hash,
        "the run parted from the lesson as written"
    );
    let painted: Vec<Cell> = inputs
        .iter()
        .filter_map(|i| match i {
            Input::Ground {
                at,
                to: Ground::Wall,
            } => Some(*at),
            _ => None,
        })
        .collect();
    for c in wall {
        assert!(painted.contains(c), "{c} painted: {inputs:?}");
    }
    assert!(
        inputs.iter().any(|i| matches!(i, Input::Set { key, value, .. } if key == "heuristic" && value == heuristic)),
        "the slider's last value, {heuristic}: {inputs:?}"
    );
}

/// Issue 46: G in the viewer saves the current beat as a GIF clip, from
/// its tick to the next beat's, one frame a tick as `render --gif` draws.
#[test]
fn g_saves_the_beat_as_a_gif_clip() {
    if !tools() {
        return;
    }
    let id = "line-error-term";
    let l = flockstep::lesson::Lesson::parse(
        flockstep::bundled::find_bundled(id).unwrap().source(),
        "x.toml",
    )
    .unwrap();
    let from = l.beats[0].at;
    let to = l
        .beats
        .iter()
        .map(|b| b.at)
        .find(|&t| t > from)
        .unwrap_or(l.ticks);
    let rate = l.rate.unwrap_or_else(|| l.sim.default_rate());
    let (every, _) = flockstep::viewer::clip::timing(rate, 1);
    let want = (from..=to).step_by(every as usize).count();
    let dir = common::scratch_dir("clip");
    let bin = env!("CARGO_BIN_EXE_flockstep");
    let script = format!(
        r#"set -e
"{bin}" view {id} --lang en & V=$!
W=$(xdotool search --sync --onlyvisible --name '^flockstep$' | head -1)
xdotool windowmove $W 0 0; xdotool windowfocus $W || true; sleep 5
for i in $(seq 1 240); do
    [ -e {id}-beat1.gif ] && break
    [ $i = 1 ] || [ $i = 80 ] || [ $i = 160 ] && xdotool key g
    sleep 0.25
done
sleep 0.5
kill $V; wait $V || true
"#
    );
    let out = in_xvfb(&script, &dir);
    let clip = dir.join(format!("{id}-beat1.gif"));
    assert!(
        clip.exists(),
        "G saved the beat: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut d = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&clip).unwrap())
        .unwrap();
    let mut frames = 0;
    while d.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, want, "ticks {from}..={to}, every {every}");
    let _ = std::fs::remove_dir_all(&dir);
}
