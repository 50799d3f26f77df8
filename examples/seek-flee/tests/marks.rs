//! The sim's marks (its forces, panic ring and gap, `SeekFlee::marks`) in
//! the default scene: every overlay a beat of its lesson lists draws
//! there, at the classroom's sizes, and the marks carry the figures the
//! narration cites.

use flockstep::viewer::app::{RenderAt, RenderOptions, prepare_render};

fn lesson_path() -> String {
    format!("{}/lessons/seek-flee.toml", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_overlay_a_beat_lists_draws_something() {
    seek_flee::register().unwrap();
    let path = lesson_path();
    let text = std::fs::read_to_string(&path).unwrap();
    let lesson = flockstep::lesson::Lesson::parse(&text, &path).unwrap();
    let mut checked = 0;
    for (i, b) in lesson.beats.iter().enumerate() {
        let options = RenderOptions {
            text_scale: 100,
            ..RenderOptions::default()
        };
        let app = prepare_render(&path, &[], RenderAt::Beat(i + 1), &options).unwrap();
        let p = app.player().unwrap();
        for (w, h) in [(1280, 720), (1920, 1080)] {
            let layout = app.framed(w, h).layout;
            let scene = p.scene(layout.scene, layout.scale);
            for o in &b.overlays {
                let n = scene.drawn.get(o.as_str()).copied().unwrap_or(0);
                assert!(n > 0, "beat {} at {w}×{h}: `{o}` draws nothing", i + 1);
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} overlays checked");
}

#[test]
fn the_cornered_fleer_shows_its_forces_and_the_gap() {
    seek_flee::register().unwrap();
    let options = RenderOptions {
        text_scale: 100,
        ..RenderOptions::default()
    };
    let app = prepare_render(&lesson_path(), &[], RenderAt::Beat(3), &options).unwrap();
    let p = app.player().unwrap();
    let layout = app.framed(1280, 720).layout;
    let scene = p.scene(layout.scene, layout.scale);
    let text = format!("{:?}", scene);
    // Beat 3's narration: flee and containment share one max_force (0.05)
    // and nearly cancel; the fleer is 2.8 from the seeker.
    for want in [
        "flee 0.050",
        "contain 0.050",
        "steering 0.025",
        "distance 2.824",
    ] {
        assert!(text.contains(want), "{want} not drawn");
    }
    assert!(text.contains("why they move"), "no marks panel");
    // The seeker is on course: its seek overlay is off at this beat.
    assert!(
        !text.contains("seek 0."),
        "seek drawn though the beat hides it"
    );
    // Beat 4, a tick before the catch: 1.064 apart, the fleer in the corner.
    let app = prepare_render(&lesson_path(), &[], RenderAt::Beat(4), &options).unwrap();
    let p = app.player().unwrap();
    let text = format!("{:?}", p.scene(layout.scene, layout.scale));
    assert!(text.contains("distance 1.064"), "the gap before the catch");
}

#[test]
fn a_force_that_rounds_to_nothing_draws_no_arrow() {
    seek_flee::register().unwrap();
    // At tick 45 the seeker is on course at full speed: its seek force is
    // below 0.0005, so no arrow claims a direction for it.
    let options = RenderOptions {
        text_scale: 100,
        overlays: vec!["seek".into()],
        ..RenderOptions::default()
    };
    let app = prepare_render(&lesson_path(), &[], RenderAt::Tick(45), &options).unwrap();
    let p = app.player().unwrap();
    let layout = app.framed(1280, 720).layout;
    let scene = p.scene(layout.scene, layout.scale);
    assert_eq!(scene.drawn.get("seek").copied().unwrap_or(0), 0);
    // At tick 0 it is the whole max_force, 0.050.
    let app = prepare_render(&lesson_path(), &[], RenderAt::Tick(0), &options).unwrap();
    let p = app.player().unwrap();
    let scene = p.scene(layout.scene, layout.scale);
    assert!(scene.drawn.get("seek").copied().unwrap_or(0) > 0);
    assert!(format!("{scene:?}").contains("seek 0.050"));
}

/// Every beat at the classroom's sizes: no label's box covers an arrow's
/// head (where it points is what the narration cites), and the rings and
/// lines are drawn clipped to the world box (the panic ring of a fleer
/// near a wall stops at the wall).
#[test]
fn labels_leave_the_arrowheads_free_and_rings_stop_at_the_walls() {
    use flockstep::scene::Shape;
    seek_flee::register().unwrap();
    let path = lesson_path();
    let text = std::fs::read_to_string(&path).unwrap();
    let lesson = flockstep::lesson::Lesson::parse(&text, &path).unwrap();
    let options = RenderOptions {
        text_scale: 100,
        ..RenderOptions::default()
    };
    let (mut heads, mut rings) = (0, 0);
    for beat in 1..=lesson.beats.len() {
        let app = prepare_render(&path, &[], RenderAt::Beat(beat), &options).unwrap();
        let p = app.player().unwrap();
        for (w, h) in [(1280, 720), (1920, 1080)] {
            let layout = app.framed(w, h).layout;
            let scene = p.scene(layout.scene, layout.scale);
            let boxes: Vec<([i32; 2], [i32; 2])> = (scene.shapes.iter())
                .filter_map(|s| match s {
                    Shape::Rect { at, size, .. } => Some((*at, *size)),
                    _ => None,
                })
                .collect();
            let mut clip = None;
            for s in &scene.shapes {
                match s {
                    Shape::Clip { area } => clip = Some(*area),
                    Shape::Tri { p: [tip, ..], .. } => {
                        heads += 1;
                        let hidden = boxes.iter().find(|(a, z)| {
                            (a[0]..a[0] + z[0]).contains(&tip[0])
                                && (a[1]..a[1] + z[1]).contains(&tip[1])
                        });
                        assert!(
                            hidden.is_none(),
                            "beat {beat} at {w}×{h}: an arrowhead at {tip:?} under a label {hidden:?}"
                        );
                    }
                    // The panic ring (the selection's is a few pixels wide).
                    Shape::Ring { r, .. } if *r > 40 => {
                        rings += 1;
                        let area = clip.expect("a ring before any clip");
                        assert!(
                            area.w < layout.scene.w || area.h < layout.scene.h,
                            "beat {beat} at {w}×{h}: a ring clipped to {area:?}, not the world box"
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        heads >= 16 && rings >= 4,
        "{heads} arrowheads, {rings} rings"
    );
}
