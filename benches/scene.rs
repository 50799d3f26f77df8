//! Scene building: the viewer's per-frame work outside macroquad, for
//! 10,000 boids with every flock overlay on and one boid inspected, next to
//! the named peer of the same process — one untraced tick of the same
//! flock (the work a playing viewer does per tick at 1×). Target: a scene
//! in at most 2 ms (it must fit a 60 fps frame next to the tick).
//!
//! Prints `SCENE` lines (median and worst time per scene, shapes) and
//! `RATIO` lines (scene time / tick time).

use criterion::{Criterion, criterion_group};
use flockstep::replay::run::Source;
use flockstep::scene::Viewport;
use flockstep::viewer::app::{Cmd, Player, overlays_of};
use flockstep::viewer::session::Session;
use flockstep::viewer::timeline::Command;
use std::hint::black_box;
use std::time::{Duration, Instant};

const VIEWPORT: Viewport = Viewport {
    x: 0,
    y: 30,
    w: 920,
    h: 580,
};

/// A lesson of `n` boids at about 12 neighbours each.
fn lesson(model: &str, n: u32) -> String {
    let (dims, world) = match model {
        "weighted" => (2, {
            let side = ((n as f64) * std::f64::consts::PI * 25.0 / 12.0)
                .sqrt()
                .ceil();
            format!("world_min = [0, 0]\nworld_max = [{side}, {side}]\nbounds = \"walls\"")
        }),
        _ => (3, {
            let side = ((n as f64) * 4.0 / 3.0 * std::f64::consts::PI * 512.0 / 12.0)
                .cbrt()
                .ceil();
            format!(
                "world_min = [0, 0, 0]\nworld_max = [{side}, {side}, {side}]\nbounds = \"wrap\""
            )
        }),
    };
    format!(
        "[lesson]\nid = \"scene-bench\"\ntitle = \"bench\"\nsummary = \"bench\"\nticks = 100\n\n[scenario]\nsim = \"flock\"\nmodel = \"{model}\"\ndims = {dims}\nboids = {n}\nseed = 5\n{world}\n"
    )
}

fn player(model: &str, n: u32) -> Player {
    let s = Session::lesson(Source {
        file: "bench.toml".into(),
        text: lesson(model, n),
        overrides: Vec::new(),
    })
    .unwrap();
    let mut p = Player::new(s);
    let mut app_like = |c: Cmd| match c {
        Cmd::Time(t) => p.timeline.apply(t),
        _ => unreachable!(),
    };
    app_like(Cmd::Time(Command::Scrub(20)));
    p.selected = Some(0);
    // Every overlay on.
    let all: std::collections::BTreeSet<String> = overlays_of("flock")
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    p.toggled = p.overlays().symmetric_difference(&all).cloned().collect();
    p
}

fn median(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], v[v.len() - 1])
}

fn bench(c: &mut Criterion) {
    for (model, label) in [("weighted", "weighted 2-D"), ("gems", "gems 3-D")] {
        let n = 10_000;
        let mut p = player(model, n);
        // Bring the session to the timeline's tick with the inspected boid
        // traced (what the app's sync does).
        p.session.seek(20, &[0]).unwrap();
        p.session.ensure_trail().unwrap();
        let shapes = p.scene(VIEWPORT, 100).shapes.len();
        let mut scene_t = Vec::new();
        let mut tick_t = Vec::new();
        let mut sim = p.session.sim().clone();
        for _ in 0..31 {
            let t0 = Instant::now();
            black_box(p.scene(VIEWPORT, 100));
            scene_t.push(t0.elapsed());
            let t0 = Instant::now();
            sim.step();
            tick_t.push(t0.elapsed());
        }
        let (sm, sw) = median(scene_t);
        let (tm, _) = median(tick_t);
        println!(
            "SCENE  {label} x {n} boids, every overlay, one inspected: median {:.3} ms, worst {:.3} ms, {shapes} shapes (target 2 ms)",
            sm.as_secs_f64() * 1e3,
            sw.as_secs_f64() * 1e3
        );
        println!(
            "RATIO  {label} scene/tick   flockstep-scene {:>7.3} ms   one tick {:>7.3} ms   ratio {:.3}x",
            sm.as_secs_f64() * 1e3,
            tm.as_secs_f64() * 1e3,
            sm.as_secs_f64() / tm.as_secs_f64()
        );
        c.bench_function(&format!("scene_{model}_{n}"), |b| {
            b.iter(|| black_box(p.scene(VIEWPORT, 100)))
        });
    }
}

/// Two runs of `n` boids side by side (issue 46): the work a playing
/// viewer does each frame at 1× — step both runs one tick (each replay
/// decodes its next state and re-steps it traced for the boids ringed),
/// note what differs, build the scene — beside the named peer, one run
/// alone doing the same. Target: the compared frame's share within the
/// viewer's 16 ms budget next to drawing (`render --time-frames`).
fn compare(c: &mut Criterion) {
    use flockstep::viewer::app::{App, Screen, compared};
    use flockstep::viewer::compare::{Bytes, Run};
    let n = 2_000;
    let record = |inputs: &[(u64, &str)]| {
        let source = Source {
            file: "bench.toml".into(),
            text: lesson("weighted", n),
            overrides: Vec::new(),
        };
        let mut map = std::collections::BTreeMap::new();
        for (t, i) in inputs {
            map.insert(*t, vec![flockstep::sim::Input::parse(i).unwrap()]);
        }
        let (bytes, _) =
            flockstep::replay::run::record(Vec::new(), &source, 100, None, &map, |_| {}).unwrap();
        Run {
            name: "bench.fsr".into(),
            bytes: Bytes::Memory(bytes.into()),
        }
    };
    let (a, b) = (record(&[]), record(&[(10, "set:w_separation=3")]));
    let open = |both: bool| {
        let t0 = Instant::now();
        let p = if both {
            compared(&a, &b).unwrap()
        } else {
            let Bytes::Memory(m) = &a.bytes else {
                unreachable!()
            };
            Player::new(
                Session::replay_from(Box::new(std::io::Cursor::new(m.clone())), "a.fsr").unwrap(),
            )
        };
        let mut app = App::new();
        app.screen = Screen::Player(Box::new(p));
        (app, t0.elapsed())
    };
    // Ticks 12..=99 in turn: each frame one tick on, as playing at 1×.
    let frame = |app: &mut App, k: &mut u64| {
        *k = if *k >= 99 { 12 } else { *k + 1 };
        let t0 = Instant::now();
        app.handle(Cmd::Time(Command::Scrub(*k)));
        black_box(app.player().unwrap().scene(VIEWPORT, 100));
        t0.elapsed()
    };
    let (mut one, _) = open(false);
    let (mut two, opened) = open(true);
    let (mut t1, mut t2) = (Vec::new(), Vec::new());
    let (mut k1, mut k2) = (11, 11);
    for _ in 0..80 {
        t1.push(frame(&mut one, &mut k1));
        t2.push(frame(&mut two, &mut k2));
    }
    let ((m1, _), (m2, w2)) = (median(t1), median(t2));
    println!(
        "COMPARE two runs x {n} boids a pane, opened in {:.0} ms (divergence, cause, every tick compared): a tick and a scene, median {:.3} ms, worst {:.3} ms",
        opened.as_secs_f64() * 1e3,
        m2.as_secs_f64() * 1e3,
        w2.as_secs_f64() * 1e3
    );
    println!(
        "RATIO  compare/one   flockstep-compare {:>7.3} ms   one-run {:>7.3} ms   ratio {:.3}x",
        m2.as_secs_f64() * 1e3,
        m1.as_secs_f64() * 1e3,
        m2.as_secs_f64() / m1.as_secs_f64()
    );
    c.bench_function(&format!("compare_frame_{n}"), |bch| {
        bch.iter(|| frame(&mut two, &mut k2))
    });
}

criterion_group!(benches, bench, compare);

fn main() {
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
