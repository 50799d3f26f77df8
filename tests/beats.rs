//! Every beat of every bundled lesson, checked the way a class meets it:
//!
//! - it is reachable — by PgDn from Home and PgUp from the end, one beat
//!   per press, also when beats share a tick; by its numbered tab on the
//!   scrub bar (tabs never overlap, so each can be clicked); by `render
//!   --beat N`;
//! - every overlay it lists draws at least one shape or panel there, at
//!   1280×720, 1920×1080 and 3840×2160 (an overlay that draws nothing is
//!   narration the picture does not carry);
//! - what it focuses on exists, and the focused entities' overlays draw
//!   without a click;
//! - the bundled font has a glyph for every character of its narration in
//!   every language, and of every label and panel line drawn there.
//!
//! Failures are collected and reported together, each naming the lesson,
//! the beat and what is wrong.

use flockstep::bundled::BUNDLED;
use flockstep::lesson::Lesson;
use flockstep::scene::Shape;
use flockstep::viewer::app::{App, Cmd, Layout, RenderAt, RenderOptions, prepare_render};
use flockstep::viewer::text::has_glyph;
use flockstep::viewer::timeline::Command;

fn lessons() -> Vec<Lesson> {
    BUNDLED
        .iter()
        .map(|b| Lesson::parse(b.source(), b.path).unwrap())
        .collect()
}

fn open(id: &str) -> App {
    let mut app = App::new();
    app.open(id, &[]);
    assert!(app.error.is_none(), "{id}: {:?}", app.error);
    app
}

/// (beat index, tick) shown by the player.
fn at(app: &App) -> (Option<usize>, u64) {
    let p = app.player().unwrap();
    (p.timeline.beat(), p.session.tick())
}

#[test]
fn every_beat_is_reachable_by_pgdn_pgup_tabs_and_render() {
    let mut bad = Vec::new();
    for l in lessons() {
        let n = l.beats.len();
        let mut app = open(&l.id);
        app.handle(Cmd::Time(Command::Restart));
        let mut seen = vec![at(&app)];
        for _ in 1..n {
            app.handle(Cmd::Pages(1));
            app.handle(Cmd::Time(Command::NextBeat));
            seen.push(at(&app));
        }
        let want: Vec<(Option<usize>, u64)> = l
            .beats
            .iter()
            .enumerate()
            .map(|(i, b)| (Some(i), b.at))
            .collect();
        if seen != want {
            bad.push(format!(
                "{}: PgDn from Home shows {seen:?}, not {want:?}",
                l.id
            ));
        }
        let mut back = vec![at(&app)];
        for _ in 1..n {
            app.handle(Cmd::Time(Command::PrevBeat));
            back.push(at(&app));
        }
        back.reverse();
        if back != want {
            bad.push(format!("{}: PgUp from the last beat shows {back:?}", l.id));
        }
        for (w, h) in [(1280, 720), (1920, 1080), (1024, 600)] {
            let layout = Layout::of(w, h, 100, 3);
            let ticks: Vec<u64> = l.beats.iter().map(|b| b.at).collect();
            let tabs = layout.beat_tabs(&ticks, 0, l.ticks);
            for (i, pair) in tabs.windows(2).enumerate() {
                if pair[0].x + pair[0].w > pair[1].x {
                    bad.push(format!(
                        "{}: at {w}×{h} the tabs of beats {} and {} overlap",
                        l.id,
                        i + 1,
                        i + 2
                    ));
                }
            }
            if tabs.iter().any(|t| t.x < 0 || t.x + t.w > w) {
                bad.push(format!("{}: at {w}×{h} a beat tab is off screen", l.id));
            }
        }
        for (i, b) in l.beats.iter().enumerate() {
            app.handle(Cmd::Time(Command::Beat(i)));
            if at(&app) != (Some(i), b.at) {
                bad.push(format!(
                    "{} beat {}: its tab shows {:?}",
                    l.id,
                    i + 1,
                    at(&app)
                ));
            }
            let r = prepare_render(&l.id, &[], RenderAt::Beat(i + 1), &RenderOptions::default())
                .unwrap();
            if at(&r) != (Some(i), b.at) {
                bad.push(format!(
                    "{} beat {}: render --beat shows {:?}",
                    l.id,
                    i + 1,
                    at(&r)
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_overlay_a_beat_lists_draws_something() {
    let mut bad = Vec::new();
    for l in lessons() {
        for (i, b) in l.beats.iter().enumerate() {
            let app = prepare_render(
                &l.id,
                &[],
                RenderAt::Beat(i + 1),
                &RenderOptions {
                    text_scale: 100,
                    ..RenderOptions::default()
                },
            )
            .unwrap();
            let p = app.player().unwrap();
            for (w, h) in [(1280, 720), (1920, 1080), (3840, 2160)] {
                let layout = app.framed(w, h).layout;
                let scene = p.scene(layout.scene, layout.scale);
                for o in &b.overlays {
                    if scene.drawn.get(o.as_str()).copied().unwrap_or(0) == 0 {
                        bad.push(format!(
                            "{} beat {} (tick {}) at {w}×{h}: overlay `{o}` draws nothing",
                            l.id,
                            i + 1,
                            b.at
                        ));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn what_a_beat_focuses_on_exists_and_draws_without_a_click() {
    let mut bad = Vec::new();
    for l in lessons() {
        for (i, b) in l.beats.iter().enumerate() {
            if b.focus.is_empty() {
                continue;
            }
            let app = prepare_render(&l.id, &[], RenderAt::Beat(i + 1), &RenderOptions::default())
                .unwrap();
            let p = app.player().unwrap();
            let view = p.view(100);
            for f in &b.focus {
                let (kind, id) = f.split_once(':').unwrap_or((f, ""));
                if let Ok(n) = id.parse::<u32>()
                    && ["boid", "chaser"].contains(&kind)
                    && !view.focused(kind).contains(&n)
                {
                    bad.push(format!(
                        "{} beat {}: focus `{f}` is not what the view draws",
                        l.id,
                        i + 1
                    ));
                }
            }
            // A flock beat that focuses a boid and lists a per-rule
            // overlay shows its reasoning without a click.
            if b.focus.iter().any(|f| f.starts_with("boid:")) {
                let layout = app.framed(1280, 720).layout;
                let scene = p.scene(layout.scene, layout.scale);
                if !scene.panels.iter().any(|pa| {
                    pa.lines
                        .iter()
                        .any(|x| x.starts_with("the coming step") || x.starts_with("the step into"))
                }) {
                    bad.push(format!(
                        "{} beat {}: the focused boid's reasoning is not in the inspector",
                        l.id,
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_font_draws_every_character_of_every_beat_and_label() {
    let mut bad = Vec::new();
    let mut check = |what: String, text: &str| {
        let missing: String = text
            .chars()
            .filter(|c| !c.is_control() && !has_glyph(*c))
            .collect();
        if !missing.is_empty() {
            bad.push(format!(
                "{what}: no glyph for {:?} (run src/viewer/fonts/make.py)",
                missing
            ));
        }
    };
    for l in lessons() {
        check(format!("{} title", l.id), &l.title);
        check(format!("{} summary", l.id), &l.summary);
        for (i, b) in l.beats.iter().enumerate() {
            check(format!("{} beat {} (en)", l.id, i + 1), &b.text);
            for (lang, t) in &b.translations {
                check(format!("{} beat {} ({lang})", l.id, i + 1), t);
            }
            if let Some(q) = &b.question {
                let label = flockstep::viewer::app::question_label(None);
                check(
                    format!("{} beat {} question", l.id, i + 1),
                    &format!("{label} {q}"),
                );
                for (lang, t) in &b.question_translations {
                    let label = flockstep::viewer::app::question_label(Some(lang));
                    check(
                        format!("{} beat {} question ({lang})", l.id, i + 1),
                        &format!("{label} {t}"),
                    );
                }
            }
            let app = prepare_render(&l.id, &[], RenderAt::Beat(i + 1), &RenderOptions::default())
                .unwrap();
            let p = app.player().unwrap();
            let layout = app.framed(1280, 720).layout;
            let scene = p.scene(layout.scene, layout.scale);
            for s in &scene.shapes {
                if let Shape::Text { text, .. } = s {
                    check(format!("{} beat {} label", l.id, i + 1), text);
                }
            }
            for pa in &scene.panels {
                check(format!("{} beat {} panel", l.id, i + 1), &pa.title);
                for line in &pa.lines {
                    check(format!("{} beat {} panel {}", l.id, i + 1, pa.title), line);
                }
            }
        }
    }
    // The font is a real one: it lacks what no lesson needs.
    assert!(
        !has_glyph('\u{1F600}'),
        "an emoji glyph: is this the bundled font?"
    );
    assert!(has_glyph('漢') && has_glyph('ア') && has_glyph('°') && has_glyph('→'));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
