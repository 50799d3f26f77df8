//! Scene snapshots: every bundled lesson at each of its beats, built the way
//! the viewer builds it (app → player → scene) for a 1280×720 window, as
//! text — shape counts by kind and colour, a few coordinates, the labels,
//! the panels. A change here is a change in what a class sees.

use flockstep::bundled::BUNDLED;
use flockstep::scene::{self, Camera, Frame, Shape, View, Viewport, color};
use flockstep::sim::{AnySim, Sim};
use flockstep::viewer::app::{App, Cmd, Layout};
use flockstep::viewer::timeline::Command;

fn layout() -> Layout {
    Layout::of(1280, 720, 100, 3)
}

#[test]
fn every_lesson_at_every_beat() {
    for b in BUNDLED {
        let mut app = App::new();
        app.open(b.id, &[]);
        assert!(app.error.is_none(), "{}: {:?}", b.id, app.error);
        let beats: Vec<u64> = {
            let p = app.player().unwrap();
            p.session.lesson.beats.iter().map(|b| b.at).collect()
        };
        assert!(!beats.is_empty(), "{}: a lesson without beats", b.id);
        let mut out = String::new();
        for (i, at) in beats.iter().enumerate() {
            app.handle(Cmd::Time(Command::Beat(i)));
            assert!(app.error.is_none(), "{} beat {i}: {:?}", b.id, app.error);
            let p = app.player().unwrap();
            assert_eq!(p.session.tick(), *at, "{} beat {i}", b.id);
            let s = p.scene(layout().scene, 100);
            assert!(!s.shapes.is_empty(), "{} beat {i}: an empty scene", b.id);
            out.push_str(&format!(
                "== beat {} at tick {at} · overlays {:?}\n{}\n",
                i + 1,
                p.overlays(),
                s.summary()
            ));
        }
        insta::assert_snapshot!(b.id, out);
    }
}

/// Every shape of every lesson's scene at its last beat lies in the window
/// or crosses it (nothing is drawn at absurd coordinates).
#[test]
fn shapes_stay_near_the_window() {
    for b in BUNDLED {
        let mut app = App::new();
        app.open(b.id, &[]);
        let last = app.player().unwrap().session.lesson.ticks;
        app.handle(Cmd::Time(Command::Scrub(last.min(300))));
        let s = app.player().unwrap().scene(layout().scene, 100);
        for sh in &s.shapes {
            let pts: Vec<[i32; 2]> = match sh {
                Shape::Rect { at, .. } | Shape::Frame { at, .. } | Shape::Text { at, .. } => {
                    vec![*at]
                }
                Shape::Line { a, b, .. } => vec![*a, *b],
                Shape::Disc { c, .. } | Shape::Ring { c, .. } => vec![*c],
                Shape::Tri { p, .. } => p.to_vec(),
                // A pane's clip lies within the scene's part of the window.
                Shape::Clip { area } => {
                    let v = layout().scene;
                    assert!(
                        area.x >= v.x
                            && area.y >= v.y
                            && area.x + area.w <= v.x + v.w
                            && area.y + area.h <= v.y + v.h,
                        "{}: {sh:?} leaves {v:?}",
                        b.id
                    );
                    vec![[area.x, area.y]]
                }
            };
            for p in pts {
                assert!(
                    (-5000..7000).contains(&p[0]) && (-5000..7000).contains(&p[1]),
                    "{}: {sh:?}",
                    b.id
                );
            }
        }
    }
}

/// The inspected boid is drawn last, in the selection colour, around its
/// projected position — in 2-D and in the 3-D tank, from any camera angle.
#[test]
fn the_selected_boid_is_drawn_on_top_where_it_is() {
    for (id, boid) in [
        ("flock-walls", 3),
        ("flock-aquarium", 3),
        ("flock-field-of-view", 1),
    ] {
        let mut app = App::new();
        app.open(id, &[]);
        app.handle(Cmd::Time(Command::Scrub(20)));
        app.handle(Cmd::Select(Some(boid)));
        for (yaw, pitch) in [(0, 0), (40, 10), (100, -30)] {
            app.handle(Cmd::Orbit(yaw, pitch));
            let p = app.player().unwrap();
            let cam = p.camera(layout().scene, 100);
            let s = p.scene(layout().scene, 100);
            let centre = scene::boid_glyph_center(p.session.sim(), &cam, boid).unwrap();
            let last_tri = s
                .shapes
                .iter()
                .rev()
                .find_map(|sh| match sh {
                    Shape::Tri { p, color } if *color == color::SELECTED => Some(*p),
                    _ => None,
                })
                .expect("a selected glyph");
            let inside = |q: [[i32; 2]; 3]| {
                let s = |a: [i32; 2], b: [i32; 2], c: [i32; 2]| {
                    (b[0] - a[0]) as i64 * (c[1] - a[1]) as i64
                        - (b[1] - a[1]) as i64 * (c[0] - a[0]) as i64
                };
                let (d1, d2, d3) = (
                    s(q[0], q[1], centre),
                    s(q[1], q[2], centre),
                    s(q[2], q[0], centre),
                );
                !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0))
            };
            assert!(inside(last_tri), "{id}: {centre:?} not in {last_tri:?}");
            assert_eq!(
                scene::pick_boid(p.session.sim(), &cam, centre),
                Some(boid),
                "{id}"
            );
        }
    }
}

/// Open cells are rings and closed cells filled squares, exactly where the
/// search state says, in every tile.
#[test]
fn a_star_cells_are_drawn_where_the_state_says() {
    let mut app = App::new();
    app.open("path-dijkstra-astar-greedy", &[]);
    app.handle(Cmd::Time(Command::Scrub(15)));
    let p = app.player().unwrap();
    let AnySim::Path(ps) = p.session.sim() else {
        panic!()
    };
    let vp = layout().scene;
    let view = View {
        overlays: ["open", "closed"].iter().map(|s| s.to_string()).collect(),
        ..View::default()
    };
    let frame = Frame::bare(p.session.sim());
    let s = scene::build(&frame, &view, &Camera::fit(vp));
    let w = ps.config().grid.width();
    let tiles = scene::search_tiles(ps.state().searches.len(), vp);
    let cam = Camera::fit(vp);
    for (t, st) in ps.state().searches.iter().enumerate() {
        let (mut open, mut closed) = (0, 0);
        for (i, g) in st.g.iter().enumerate() {
            if *g == u64::MAX {
                continue;
            }
            let c = flockstep::sim::Cell::new((i as u32 % w) as i32, (i as u32 / w) as i32);
            let hit = |sh: &Shape| {
                let at = match sh {
                    Shape::Ring { c, .. } => *c,
                    Shape::Rect { at, size, .. } => [at[0] + size[0] / 2, at[1] + size[1] / 2],
                    _ => return false,
                };
                scene::tile_cell_at(p.session.sim(), &cam, at) == Some((t, c))
            };
            if st.is_closed(i as u32) {
                closed += 1;
                assert!(
                    s.shapes.iter().any(|sh| matches!(sh, Shape::Rect { color, .. } if color.2 == color::BLUE.2 && color.0 == color::BLUE.0) && hit(sh)),
                    "closed {c} of search {t}"
                );
            } else {
                open += 1;
                assert!(
                    s.shapes.iter().any(
                        |sh| matches!(sh, Shape::Ring { color, .. } if *color == color::ORANGE)
                            && hit(sh)
                    ),
                    "open {c} of search {t}"
                );
            }
        }
        assert!(
            open > 0 && closed > 0,
            "search {t}: {open} open, {closed} closed"
        );
        assert!(tiles[t].w > 0);
    }
}

/// Scenes are pure: the same frame gives the same scene, and building one
/// does not change the sim.
#[test]
fn scenes_are_pure() {
    let mut app = App::new();
    app.open("flock-field-of-view", &[]);
    app.handle(Cmd::Time(Command::Scrub(30)));
    app.handle(Cmd::Select(Some(0)));
    let p = app.player().unwrap();
    let h = p.session.sim().state_hash();
    let a = p.scene(layout().scene, 100);
    let b = p.scene(layout().scene, 100);
    assert_eq!(a, b);
    assert_eq!(h, p.session.sim().state_hash());
    let _ = Viewport {
        x: 0,
        y: 0,
        w: 1,
        h: 1,
    };
    let AnySim::Flock(f) = p.session.sim() else {
        panic!()
    };
    assert_eq!(f.tick(), 30);
}

/// Boids at the edge of the coordinate range, at top speed, seen from any
/// angle at any zoom with every overlay on: the scene is built without
/// overflow, every point clamped near the window.
#[test]
fn extreme_states_draw_without_overflow() {
    use flockstep::num::{Fx, Vec3};
    use flockstep::sim::AnyState;
    use flockstep::sim::flock::{COORD_LIMIT, MAX_SPEED};
    // Open bounds (the box grows to hold the boids) and a one-unit box the
    // boids are far outside of (hundreds of pixels per unit, zoomed 8×).
    let tiny: &[&str] = &[
        "world_min=[0, 0, 0]",
        "world_max=[1, 1, 1]",
        "spawn_min=[0, 0, 0]",
        "spawn_max=[1, 1, 1]",
        "boid=[]",
    ];
    for (id, sets) in [
        ("flock-aquarium", &["bounds=\"none\""][..]),
        ("flock-field-of-view", &["bounds=\"none\""][..]),
        ("flock-walls", tiny),
    ] {
        let lesson = flockstep::bundled::source(id, sets)
            .unwrap()
            .lesson()
            .unwrap();
        let mut sim = AnySim::new(&lesson.scenario).unwrap();
        let AnyState::Flock(mut st) = sim.snapshot() else {
            panic!()
        };
        let (l, v) = (Fx::from_int(COORD_LIMIT), Fx::from_int(MAX_SPEED));
        let d3 = st.boids.iter().any(|b| b.pos.z != Fx::ZERO);
        for (i, b) in st.boids.iter_mut().enumerate() {
            let s = if i % 2 == 0 { Fx::ONE } else { -Fx::ONE };
            let z = if d3 { l * s } else { Fx::ZERO };
            b.pos = Vec3::new(l * s, -(l * s), z);
            b.vel = Vec3::new(v * s, v, if d3 { -v } else { Fx::ZERO });
        }
        sim.restore(AnyState::Flock(st)).unwrap();
        let all: std::collections::BTreeSet<String> = flockstep::viewer::app::overlays_of("flock")
            .iter()
            .map(|s| s.to_string())
            .collect();
        let view = View {
            overlays: all,
            selected: Some(1),
            ..View::default()
        };
        for zoom in [20, 100, 3200] {
            for yaw in [0, 90, 200] {
                let cam = Camera {
                    zoom: Fx::from_ratio(zoom, 100).unwrap(),
                    yaw: flockstep::num::Angle::from_degrees_int(yaw),
                    ..Camera::fit(layout().scene)
                };
                let frame = Frame::bare(&sim);
                let s = scene::build(&frame, &view, &cam);
                assert!(!s.shapes.is_empty(), "{id}");
            }
        }
    }
}

/// The sight panel's integer test reaches the sim's verdict: at every tick
/// of `line-of-sight`, for each chaser inspected, "→ blocked" exactly when
/// the chaser does not see its target, naming the sim's blocking cell.
#[test]
fn sight_panel_agrees_with_the_sim() {
    let mut app = App::new();
    app.open("line-of-sight", &[]);
    let last = app.player().unwrap().session.lesson.ticks;
    let (mut blocked, mut seen) = (0, 0);
    for tick in 0..=last {
        app.handle(Cmd::Time(Command::Scrub(tick)));
        for chaser in 0..2u32 {
            app.handle(Cmd::Select(Some(chaser)));
            let p = app.player().unwrap();
            let AnySim::Line(sim) = p.session.sim() else {
                panic!("a line lesson")
            };
            let sight = sim.state().chasers[chaser as usize].sight;
            let view = View {
                overlays: ["sight".to_string()].into(),
                selected: Some(chaser),
                ..View::default()
            };
            let cam = Camera::fit(layout().scene);
            let s = scene::build(&Frame::bare(p.session.sim()), &view, &cam);
            let panel = s
                .panels
                .iter()
                .find(|pn| pn.title.starts_with("sight"))
                .unwrap_or_else(|| panic!("tick {tick} chaser {chaser}: no sight panel"));
            let verdict = panel.lines.last().unwrap();
            if sight.visible {
                seen += 1;
                assert!(
                    verdict.contains("sees"),
                    "tick {tick} chaser {chaser}: {verdict}"
                );
            } else {
                blocked += 1;
                let b = sight.blocker.unwrap().to_string();
                assert!(
                    verdict.contains("blocked") && verdict.contains(&b),
                    "tick {tick} chaser {chaser}: {verdict} (blocker {b})"
                );
            }
        }
    }
    assert!(blocked > 5 && seen > 5, "{blocked} blocked, {seen} seen");
}

/// A crowd's velocity lines shorten as 1/√n beyond 200 boids and beyond
/// 500 lose their heads and become needles, one triangle each (a texture,
/// not a field of arrows), while the focused boid's line keeps its full
/// length and head.
#[test]
fn a_crowd_draws_short_velocity_lines_but_the_focused_boid_a_full_one() {
    // (lines, heads, mean length in pixels) of the sky-blue velocity lines
    // and needles (a triangle whose base is at most 3 pixels wide).
    let sky = |boids: u32| {
        let mut app = App::new();
        app.open("flock-walls", &[format!("boids={boids}")]);
        app.handle(Cmd::Time(Command::Beat(1)));
        let flock = flockstep::viewer::app::overlays_of("flock");
        let v = flock.iter().position(|o| *o == "velocity").unwrap();
        app.handle(Cmd::ToggleOverlay(v));
        let p = app.player().unwrap();
        assert!(
            p.overlays().iter().any(|o| o == "velocity"),
            "{:?}",
            p.overlays()
        );
        let s = p.scene(layout().scene, 100);
        let (mut n, mut heads, mut len) = (0i64, 0, 0i64);
        let length = |a: [i32; 2], b: [i32; 2]| {
            ((b[0] - a[0]) as f64).hypot((b[1] - a[1]) as f64).round() as i64
        };
        for sh in &s.shapes {
            match sh {
                Shape::Line { a, b, color, .. } if *color == color::VELOCITY => {
                    n += 1;
                    len += length(*a, *b);
                }
                Shape::Tri { p, color } if *color == color::VELOCITY && length(p[0], p[1]) <= 3 => {
                    n += 1;
                    let mid = [(p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2];
                    len += length(mid, p[2]);
                }
                Shape::Tri { color, .. } if *color == color::VELOCITY => heads += 1,
                _ => {}
            }
        }
        (n, heads, len / n.max(1))
    };
    let (n100, heads100, len100) = sky(100);
    let (n2000, heads2000, len2000) = sky(2000);
    assert!(
        n100 > 50 && heads100 as i64 >= n100 - 5,
        "{n100} {heads100}"
    );
    assert!(n2000 > 500, "{n2000}");
    assert_eq!(heads2000, 1, "only the focused boid's line has a head");
    // √(200/2000) ≈ 0.32: about a third as long on average.
    assert!(len2000 * 2 < len100, "{len2000} vs {len100}");
}
