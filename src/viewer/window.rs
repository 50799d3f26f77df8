//! The macroquad window: turns keys and the mouse into [`Cmd`]s, and
//! draws the app — status line, scene, side panels, narration, scrub bar,
//! help and errors. The only module with floating point: coordinates are
//! converted to `f32` for macroquad here and nowhere else.
//!
//! `flockstep render` uses the same drawing code to draw one frame in a
//! window of the asked size, reads the pixels back (macroquad gives them
//! bottom-up; they are flipped) and writes a PNG.

use super::app::{App, Cmd, Layout, OVERLAY_KEYS, Screen, overlays_of, wrap};
use super::timeline::{Command, SPEEDS};
use crate::scene::{self, Rgba, Scene, Shape, Viewport, color};
use crate::sim::{AnySim, Input, Sim as _};
use macroquad::prelude::*;
use std::path::PathBuf;

/// Whether a window can be opened: an X display must be named and, for a
/// local one, its socket must exist.
pub fn display_available() -> Result<(), String> {
    let hint = "no display to open a window on (DISPLAY is not set or its X server is not running); on a machine without a screen, run under Xvfb: xvfb-run -a -s '-screen 0 1280x720x24' flockstep …";
    let Ok(d) = std::env::var("DISPLAY") else {
        return Err(hint.to_owned());
    };
    if d.trim().is_empty() {
        return Err(hint.to_owned());
    }
    if let Some(rest) = d.strip_prefix(':') {
        let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if !n.is_empty() && !std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
            return Err(hint.to_owned());
        }
    }
    Ok(())
}

fn conf(title: &str, w: i32, h: i32) -> Conf {
    Conf {
        window_title: title.to_owned(),
        window_width: w,
        window_height: h,
        high_dpi: false,
        window_resizable: true,
        ..Default::default()
    }
}

/// Opens the viewer window on `app` and runs it until it is closed. In
/// the web build this starts the page's animation loop and returns; the
/// page's files, links and Save button arrive through `viewer::web` (wasm32 only).
pub fn run(app: App) -> Result<(), String> {
    #[cfg(not(target_arch = "wasm32"))]
    display_available()?;
    macroquad::Window::from_config(conf("flockstep", 1280, 800), async move {
        let mut app = app;
        let mut shown_error: Option<String> = None;
        loop {
            let (w, h) = (screen_width() as i32, screen_height() as i32);
            let layout = Layout::of(w, h, app.text_scale);
            for f in get_dropped_files() {
                let name = f
                    .path
                    .map_or_else(|| "dropped file".to_owned(), |p| p.display().to_string());
                match f.bytes {
                    Some(bytes) => app.handle(Cmd::OpenFile { name, bytes }),
                    None => app.error = Some(format!("{name}: the dropped file could not be read")),
                }
            }
            page_events(&mut app);
            input(&mut app, &layout);
            // Real time in whole microseconds; the timeline keeps remainders.
            let us = (get_frame_time().clamp(0.0, 0.5) * 1_000_000.0) as u64;
            app.handle(Cmd::Frame(us));
            if app.error != shown_error {
                if let Some(e) = &app.error {
                    #[cfg(target_arch = "wasm32")]
                    super::web::report_error(e);
                    #[cfg(not(target_arch = "wasm32"))]
                    eprintln!("flockstep: {e}");
                }
                shown_error = app.error.clone();
            }
            if app.quit {
                if cfg!(target_arch = "wasm32") {
                    app.quit = false; // a web page is closed by its tab
                } else {
                    break;
                }
            }
            draw_app(&app, w, h);
            #[cfg(target_arch = "wasm32")]
            super::web::publish_status(status_json(&app, &layout, h));
            next_frame().await;
            #[cfg(target_arch = "wasm32")]
            super::web::frame_drawn();
        }
        std::process::exit(0);
    });
    Ok(())
}

/// The web page's requests (files, `?lesson=`, Save) become commands,
/// and a recorded session goes out as a download.
#[cfg(target_arch = "wasm32")]
fn page_events(app: &mut App) {
    use super::web::{PageEvent, download, take_events};
    for e in take_events() {
        match e {
            PageEvent::File { name, bytes } => app.handle(Cmd::OpenFile { name, bytes }),
            PageEvent::Lesson(id) => match app.entries.iter().position(|e| e.id == id) {
                Some(i) => app.handle(Cmd::PickerOpen(Some(i))),
                None => {
                    app.error = Some(format!(
                        "the address asks for lesson `{id}`, which is not bundled; pick one below"
                    ))
                }
            },
            PageEvent::Save => {
                if let Some(name) = app.player().map(|p| save_name(&p.session.lesson.id)) {
                    app.handle(Cmd::Download(name));
                } else {
                    app.error = Some(
                        "Download replay records the lesson or replay being watched: open one first"
                            .into(),
                    );
                }
            }
        }
    }
    if let Some((name, bytes)) = app.download.take() {
        download(&name, &bytes);
    }
    super::web::set_title(&match app.player() {
        Some(p) => format!("{} — flockstep", p.session.lesson.id),
        None => "flockstep — pick a lesson".to_owned(),
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn page_events(_: &mut App) {}

/// What is on screen, for the web page: the screen, the lesson and tick,
/// the error, and where the picker's rows and the scrub bar are (canvas
/// pixels).
#[cfg(target_arch = "wasm32")]
fn status_json(app: &App, l: &Layout, h: i32) -> String {
    let bar = l.scrub_bar();
    let v = match app.player() {
        Some(p) => serde_json::json!({
            "screen": "player",
            "lesson": p.session.lesson.id,
            "tick": p.session.tick(),
            "last": p.timeline.last(),
            "scrub": [bar.x, bar.y, bar.w, bar.h],
            "error": app.error,
        }),
        None => serde_json::json!({
            "screen": "picker",
            "picked": app.picked,
            "rows": app.entries.iter().zip(picker_rows(app, h))
                .map(|(e, r)| serde_json::json!({"id": e.id, "y": r.y}))
                .collect::<Vec<_>>(),
            "error": app.error,
        }),
    };
    v.to_string()
}

/// The file name a session is saved under (`ID-session.fsr`; on the
/// desktop the first of `ID-session-N.fsr` not already taken).
fn save_name(id: &str) -> String {
    format!("{id}-session.fsr")
}

/// What `flockstep render` draws.
pub struct RenderJob {
    /// The app, with its player at the tick to draw.
    pub app: App,
    /// Window size.
    pub size: (i32, i32),
    /// The PNG to write.
    pub out: PathBuf,
    /// Draw this many frames before the one saved and print their times
    /// (0: just the frames needed).
    pub time_frames: u32,
}

/// Draws one frame of `job.app` in a window and writes it as a PNG; the
/// process exits when done (0, or 2 with a message if the PNG cannot be
/// written).
pub fn render(job: RenderJob) -> Result<(), String> {
    display_available()?;
    let (w, h) = job.size;
    macroquad::Window::from_config(conf("flockstep render", w, h), async move {
        let job = job;
        // Two frames settle the window's size; the third is saved. With
        // --time-frames, that many more are drawn and timed first (each
        // from the start of drawing to the end of the buffer swap).
        let timed = job.time_frames as usize;
        let mut times = Vec::with_capacity(timed);
        for frame in 0..3 + timed {
            let start = std::time::Instant::now();
            let (sw, sh) = (screen_width() as i32, screen_height() as i32);
            draw_app(&job.app, sw, sh);
            if frame == 2 + timed {
                if timed > 0 {
                    times.sort();
                    let mean = times.iter().sum::<std::time::Duration>() / timed as u32;
                    println!(
                        "frames: {timed} at {sw}x{sh}, {} shapes: mean {:.2} ms, median {:.2} ms, worst {:.2} ms",
                        job.app.player().map_or(0, |p| p
                            .scene(
                                Layout::of(sw, sh, job.app.text_scale).scene,
                                job.app.text_scale
                            )
                            .shapes
                            .len()),
                        mean.as_secs_f64() * 1e3,
                        times[timed / 2].as_secs_f64() * 1e3,
                        times[timed - 1].as_secs_f64() * 1e3
                    );
                }
                let img = get_screen_data();
                let code = match write_png(&img, &job.out) {
                    Ok(()) => 0,
                    Err(m) => {
                        eprintln!("flockstep: {m}");
                        2
                    }
                };
                std::process::exit(code);
            }
            next_frame().await;
            if frame >= 2 {
                times.push(start.elapsed());
            }
        }
    });
    Ok(())
}

/// Writes the screen (bottom-up RGBA) as an upright PNG, through a
/// temporary file renamed into place.
fn write_png(img: &Image, out: &std::path::Path) -> Result<(), String> {
    let (w, h) = (img.width as u32, img.height as u32);
    let row = w as usize * 4;
    let mut upright = Vec::with_capacity(img.bytes.len());
    for y in (0..h as usize).rev() {
        upright.extend_from_slice(&img.bytes[y * row..(y + 1) * row]);
    }
    // Opaque: the framebuffer's alpha is not part of the picture.
    for px in upright.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let tmp = out.with_extension("png.partial");
    let io = |e: std::io::Error| format!("{}: {e}", out.display());
    let f = std::fs::File::create(&tmp).map_err(io)?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(f), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let res = enc
        .write_header()
        .and_then(|mut wr| wr.write_image_data(&upright));
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{}: {e}", out.display()));
    }
    std::fs::rename(&tmp, out).map_err(io)
}

fn c(c: Rgba) -> Color {
    Color::from_rgba(c.0, c.1, c.2, c.3)
}

/// Text the default font can draw: a few symbols spelled in ASCII.
fn ascii(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let s = s.replace(" · ", " - ");
    for ch in s.chars() {
        match ch {
            '→' => out.push_str("->"),
            '←' => out.push_str("<-"),
            '·' => out.push('*'),
            '≥' => out.push_str(">="),
            '≤' => out.push_str("<="),
            '−' | '—' | '–' => out.push('-'),
            '…' => out.push_str("..."),
            '°' => out.push_str(" deg"),
            '▶' => out.push('>'),
            '×' => out.push('x'),
            '₀' => out.push('0'),
            '²' => out.push('2'),
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// How many characters of the (monospaced) font at `size` fit in `width`
/// pixels: measured, so wrapping fits whatever the text scale.
fn fit_chars(width: i32, size: u16) -> usize {
    let ten = measure_text("MMMMMMMMMM", None, size, 1.0).width.max(1.0);
    ((width.max(0) as f32) * 10.0 / ten).max(10.0) as usize
}

fn text(s: &str, x: i32, y: i32, size: u16, col: Rgba) {
    draw_text(ascii(s), x as f32, y as f32, f32::from(size), c(col));
}

/// Draws a scene's shapes, in order.
pub fn draw_scene(s: &Scene) {
    for sh in &s.shapes {
        match sh {
            Shape::Rect { at, size, color } => draw_rectangle(
                at[0] as f32,
                at[1] as f32,
                size[0] as f32,
                size[1] as f32,
                c(*color),
            ),
            Shape::Frame {
                at,
                size,
                width,
                color,
            } => draw_rectangle_lines(
                at[0] as f32,
                at[1] as f32,
                size[0] as f32,
                size[1] as f32,
                f32::from(*width),
                c(*color),
            ),
            Shape::Line { a, b, width, color } => draw_line(
                a[0] as f32 + 0.5,
                a[1] as f32 + 0.5,
                b[0] as f32 + 0.5,
                b[1] as f32 + 0.5,
                f32::from(*width),
                c(*color),
            ),
            Shape::Disc { c: p, r, color } => {
                draw_circle(p[0] as f32 + 0.5, p[1] as f32 + 0.5, *r as f32, c(*color))
            }
            Shape::Ring {
                c: p,
                r,
                width,
                color,
            } => draw_circle_lines(
                p[0] as f32 + 0.5,
                p[1] as f32 + 0.5,
                *r as f32,
                f32::from(*width),
                c(*color),
            ),
            Shape::Tri { p, color } => draw_triangle(
                vec2(p[0][0] as f32 + 0.5, p[0][1] as f32 + 0.5),
                vec2(p[1][0] as f32 + 0.5, p[1][1] as f32 + 0.5),
                vec2(p[2][0] as f32 + 0.5, p[2][1] as f32 + 0.5),
                c(*color),
            ),
            Shape::Text {
                at,
                size,
                color,
                text: t,
            } => text(t, at[0], at[1], *size, *color),
        }
    }
}

fn panel_box(v: Viewport) {
    draw_rectangle(
        v.x as f32,
        v.y as f32,
        v.w as f32,
        v.h as f32,
        c(color::PANEL),
    );
}

/// Draws the whole app in a `w`×`h` window.
pub fn draw_app(app: &App, w: i32, h: i32) {
    clear_background(c(color::BACKGROUND));
    let l = Layout::of(w, h, app.text_scale);
    let font = |px: u16| (u32::from(px) * u32::from(app.text_scale) / 100) as u16;
    match &app.screen {
        Screen::Picker => draw_picker(app, w, h, &font),
        Screen::Player(p) => {
            let s = p.session.sim();
            let cam = l.scene;
            let scene = p.scene(cam, app.text_scale);
            draw_scene(&scene);

            // Status line.
            panel_box(l.top);
            let beat = p.timeline.beat();
            let beats = p.session.lesson.beats.len();
            let speed = SPEEDS
                .iter()
                .position(|&x| x == p.timeline.speed_milli())
                .map_or(String::new(), |_| {
                    let m = p.timeline.speed_milli();
                    if m % 1000 == 0 {
                        format!("{}x", m / 1000)
                    } else {
                        format!("{}.{}x", m / 1000, (m % 1000) / 100)
                    }
                });
            let state = if p.timeline.held().is_some() {
                "held at a beat (Space continues)"
            } else if p.timeline.playing() {
                "playing"
            } else {
                "paused"
            };
            let origin = match &p.session.replay_file {
                Some(f) => format!("replay {f}"),
                None => format!("lesson {}", p.session.lesson.id),
            };
            text(
                &format!(
                    "{} - {origin} | tick {}/{} | hash {:016x} | beat {}/{beats} | {speed} {state}",
                    p.session.lesson.title,
                    p.session.tick(),
                    p.timeline.last(),
                    s.state_hash(),
                    beat.map_or(0, |b| b + 1),
                ),
                8,
                l.top.y + l.top.h * 7 / 10,
                font(17),
                color::TEXT,
            );

            // Side panels and legend.
            panel_box(l.side);
            let mut y = l.side.y + font(18) as i32;
            let lh = font(15) as i32 + 3;
            let chars = fit_chars(l.side.w - 22, font(14));
            for panel in &scene.panels {
                if y > l.side.y + l.side.h - lh {
                    break;
                }
                text(&panel.title, l.side.x + 8, y, font(16), color::SELECTED);
                y += lh + 2;
                for line in &panel.lines {
                    for part in wrap(&ascii(line), chars) {
                        if y > l.side.y + l.side.h - lh {
                            break;
                        }
                        text(&part, l.side.x + 14, y, font(14), color::TEXT);
                        y += lh;
                    }
                }
                y += lh / 2;
            }
            for (col, name) in &scene.legend {
                if y > l.side.y + l.side.h - 4 {
                    break;
                }
                draw_rectangle((l.side.x + 10) as f32, (y - 10) as f32, 12.0, 12.0, c(*col));
                text(name, l.side.x + 28, y, font(14), color::TEXT);
                y += lh;
            }

            // Narration.
            panel_box(l.narration);
            let narration = beat
                .and_then(|i| p.session.lesson.beats.get(i))
                .map_or(p.session.lesson.summary.as_str(), |b| b.text.as_str());
            let nchars = fit_chars(l.narration.w - 24, font(19));
            let mut ny = l.narration.y + font(20) as i32;
            for line in wrap(&ascii(narration), nchars).iter().take(3) {
                text(line, 12, ny, font(19), color::TEXT);
                ny += font(19) as i32 + 4;
            }
            if let Some(note) = app.status.as_ref().or(p.session.note.as_ref()) {
                text(
                    note,
                    12,
                    l.narration.y + l.narration.h - 6,
                    font(13),
                    color::DIM,
                );
            }

            // Scrub bar with beat marks.
            let (first, last) = (p.session.first_tick(), p.timeline.last());
            let bar = l.scrub_bar();
            draw_rectangle(
                bar.x as f32,
                bar.y as f32,
                bar.w as f32,
                bar.h as f32,
                c(color::DIM),
            );
            let x = l.scrub_x(p.timeline.tick(), first, last);
            draw_rectangle(
                bar.x as f32,
                bar.y as f32,
                (x - bar.x) as f32,
                bar.h as f32,
                c(color::SKY),
            );
            for b in &p.session.lesson.beats {
                let bx = l.scrub_x(b.at, first, last);
                let col = if b.pause {
                    color::VERMILLION
                } else {
                    color::SELECTED
                };
                draw_rectangle(
                    (bx - 1) as f32,
                    (bar.y - 6) as f32,
                    3.0,
                    (bar.h + 12) as f32,
                    c(col),
                );
            }
            draw_circle(x as f32, (bar.y + bar.h / 2) as f32, 8.0, c(color::TEXT));
            if app.help {
                draw_help(app, s, w, h, &font);
            }
        }
    }
    if let Some(e) = &app.error {
        draw_error(e, w, h, &font);
    }
}

fn draw_picker(app: &App, w: i32, h: i32, font: &dyn Fn(u16) -> u16) {
    let lh = font(17) as i32 + 6;
    let mut last = 0;
    for (i, (e, row)) in app.entries.iter().zip(picker_rows(app, h)).enumerate() {
        if let Some(hy) = row.header {
            text(&format!("{} lessons", e.sim), 24, hy, font(18), color::SKY);
        }
        if i == app.picked {
            let top = (row.y - lh + 6) as f32;
            draw_rectangle(16.0, top, (w - 32) as f32, lh as f32, c(color::PANEL));
        }
        let col = if i == app.picked {
            color::SELECTED
        } else {
            color::TEXT
        };
        text(
            &format!("{:<28} {}", e.id, e.title),
            36,
            row.y,
            font(16),
            col,
        );
        last = row.y;
    }
    // The title and the chosen lesson's summary stay in place over the list.
    let (title_y, sub_y) = (font(30) as i32 + 10, font(30) as i32 + font(16) as i32 + 20);
    draw_rectangle(
        0.0,
        0.0,
        w as f32,
        (sub_y + 10) as f32,
        c(color::BACKGROUND),
    );
    text(
        "flockstep - pick a lesson",
        24,
        title_y,
        font(30),
        color::TEXT,
    );
    text(
        if cfg!(target_arch = "wasm32") {
            "Up/Down and Enter, or click. Open or drop a replay (.fsr) or lesson (.toml) on the page."
        } else {
            "Up/Down and Enter, or click. Esc quits. Drop a replay (.fsr) or lesson (.toml) here."
        },
        24,
        sub_y,
        font(16),
        color::DIM,
    );
    if let Some(e) = app.entries.get(app.picked) {
        let y = (last + 16 + lh).min(h - 12);
        draw_rectangle(
            0.0,
            (y - lh) as f32,
            w as f32,
            (h - y + lh) as f32,
            c(color::BACKGROUND),
        );
        text(&e.summary, 24, y, font(16), color::DIM);
    }
}

/// One picker row: its baseline, and the baseline of the sim heading
/// above it when it starts a group.
struct PickerRow {
    y: i32,
    header: Option<i32>,
}

/// The picker's rows in a window `h` pixels high, scrolled so that the
/// chosen lesson is on screen.
fn picker_rows(app: &App, h: i32) -> Vec<PickerRow> {
    let font = |px: u16| (u32::from(px) * u32::from(app.text_scale) / 100) as u16;
    let lh = font(17) as i32 + 6;
    // Below the title and the hint line (see draw_picker).
    let mut y = font(30) as i32 + font(16) as i32 + 30 + lh;
    let mut sim = "";
    let mut rows = Vec::new();
    for e in &app.entries {
        let mut header = None;
        if e.sim != sim {
            sim = &e.sim;
            header = Some(y + 6);
            y += 6 + lh;
        }
        rows.push(PickerRow { y, header });
        y += lh;
    }
    // Keep the chosen row above the summary line at the bottom.
    let bottom = h - 2 * lh - 16;
    let shift = rows.get(app.picked).map_or(0, |r| (r.y - bottom).max(0));
    for r in &mut rows {
        r.y -= shift;
        r.header = r.header.map(|hy| hy - shift);
    }
    rows
}

fn draw_help(app: &App, sim: &AnySim, w: i32, h: i32, font: &dyn Fn(u16) -> u16) {
    let Screen::Player(p) = &app.screen else {
        return;
    };
    let on = p.overlays();
    let mut lines: Vec<String> = vec![
        "Space play/pause (continues a held beat)   Left/Right one tick   PgUp/PgDn beats".into(),
        "Home restart   +/- speed   drag the bar to scrub   Ctrl+/Ctrl- text size".into(),
        if cfg!(target_arch = "wasm32") {
            "click: inspect a boid / chaser   Ctrl+S download the session as a replay   Ctrl+O open a file   Esc back"
        } else {
            "click: inspect a boid / chaser   Ctrl+S save the session as a replay   Esc back"
        }
        .into(),
    ];
    match sim {
        AnySim::Flock(f) if f.config().dims == 3 => lines
            .push("right-drag or Shift+arrows: orbit   wheel: zoom   B: drop a boid (2-D)".into()),
        AnySim::Flock(_) => lines
            .push("B: drop a boid at the mouse   drag an obstacle to move it   wheel: zoom".into()),
        AnySim::Path(_) => {
            lines.push("drag the goal (G) to move it; hover a cell to see its move costs".into())
        }
        AnySim::Line(_) => lines.push("drag a target (ring) to move it".into()),
    }
    lines.push(String::new());
    lines.push("overlays:".into());
    for (i, name) in overlays_of(sim.sim_name()).iter().enumerate() {
        let key = OVERLAY_KEYS.get(i).copied().unwrap_or("-");
        lines.push(format!(
            "  {key}  [{}] {name}",
            if on.contains(*name) { "x" } else { " " }
        ));
    }
    modal(
        &lines,
        w,
        h,
        font(15),
        (Color::from_rgba(20, 22, 28, 245), 2.0, color::SKY),
        None,
    );
}

/// A box in the middle of the window with lines of text (and a dimmer
/// footer): the help and the error.
fn modal(
    lines: &[String],
    w: i32,
    h: i32,
    px: u16,
    (fill, border, edge): (Color, f32, Rgba),
    footer: Option<&str>,
) {
    let lh = px as i32 + 4;
    let bh = lh * (lines.len() as i32 + 1 + i32::from(footer.is_some())) + 16;
    let (bx, by, bw) = (w / 8, (h - bh).max(0) / 2, w * 3 / 4);
    draw_rectangle(bx as f32, by as f32, bw as f32, bh as f32, fill);
    draw_rectangle_lines(bx as f32, by as f32, bw as f32, bh as f32, border, c(edge));
    let mut y = by + lh + 6;
    for l in lines {
        text(l, bx + 16, y, px, color::TEXT);
        y += lh;
    }
    if let Some(f) = footer {
        text(f, bx + 16, y + 6, px.saturating_sub(2), color::DIM);
    }
}

fn draw_error(e: &str, w: i32, h: i32, font: &dyn Fn(u16) -> u16) {
    let lines = wrap(&ascii(e), fit_chars(w * 3 / 4 - 32, font(16)).max(20));
    modal(
        &lines,
        w,
        h,
        font(16),
        (Color::from_rgba(40, 16, 16, 245), 3.0, color::VERMILLION),
        Some("Esc to dismiss"),
    );
}

/// Keys and mouse → commands.
fn input(app: &mut App, l: &Layout) {
    let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
    let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
    let (mx, my) = mouse_position();
    let m = [mx as i32, my as i32];
    if is_key_pressed(KeyCode::Escape) {
        app.handle(Cmd::Back);
    }
    if ctrl && (is_key_pressed(KeyCode::Equal) || is_key_pressed(KeyCode::KpAdd)) {
        app.handle(Cmd::TextScale(1));
        return;
    }
    if ctrl && (is_key_pressed(KeyCode::Minus) || is_key_pressed(KeyCode::KpSubtract)) {
        app.handle(Cmd::TextScale(-1));
        return;
    }
    match &app.screen {
        Screen::Picker => {
            if pressed_or_repeat(KeyCode::Down) {
                app.handle(Cmd::PickerMove(1));
            }
            if pressed_or_repeat(KeyCode::Up) {
                app.handle(Cmd::PickerMove(-1));
            }
            if is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter) {
                app.handle(Cmd::PickerOpen(None));
            }
            if is_mouse_button_pressed(MouseButton::Left) && app.error.is_none() {
                let f = |px: i32| px * i32::from(app.text_scale) / 100;
                let (lh, header) = (f(17) + 6, f(30) + f(16) + 30);
                if let Some(i) = picker_rows(app, screen_height() as i32)
                    .iter()
                    .position(|r| m[1] > header && m[1] > r.y - lh + 6 && m[1] <= r.y + 6)
                {
                    app.handle(Cmd::PickerOpen(Some(i)));
                }
            }
        }
        Screen::Player(p) => {
            let sim_name = p.session.sim().sim_name();
            let d3 = matches!(p.session.sim(), AnySim::Flock(f) if f.config().dims == 3);
            let cam = p.camera(l.scene);
            let keys = [
                (KeyCode::Space, Command::TogglePlay),
                (KeyCode::PageDown, Command::NextBeat),
                (KeyCode::PageUp, Command::PrevBeat),
                (KeyCode::Home, Command::Restart),
            ];
            let mut cmds: Vec<Cmd> = keys
                .iter()
                .filter(|(k, _)| is_key_pressed(*k))
                .map(|(_, c)| Cmd::Time(*c))
                .collect();
            if !shift && pressed_or_repeat(KeyCode::Right) {
                cmds.push(Cmd::Time(Command::StepForward));
            }
            if !shift && pressed_or_repeat(KeyCode::Left) {
                cmds.push(Cmd::Time(Command::StepBack));
            }
            if !ctrl && (is_key_pressed(KeyCode::Equal) || is_key_pressed(KeyCode::KpAdd)) {
                cmds.push(Cmd::Time(Command::Faster));
            }
            if !ctrl && (is_key_pressed(KeyCode::Minus) || is_key_pressed(KeyCode::KpSubtract)) {
                cmds.push(Cmd::Time(Command::Slower));
            }
            if is_key_pressed(KeyCode::H) {
                cmds.push(Cmd::Help);
            }
            if ctrl && is_key_pressed(KeyCode::S) {
                let base = &p.session.lesson.id;
                if cfg!(target_arch = "wasm32") {
                    cmds.push(Cmd::Download(save_name(base)));
                } else {
                    let path = (1..1000)
                        .map(|n| PathBuf::from(format!("{base}-session-{n}.fsr")))
                        .find(|f| !f.exists())
                        .unwrap_or_else(|| PathBuf::from(save_name(base)));
                    cmds.push(Cmd::Save(path));
                }
            }
            let overlay_codes = [
                KeyCode::Key1,
                KeyCode::Key2,
                KeyCode::Key3,
                KeyCode::Key4,
                KeyCode::Key5,
                KeyCode::Key6,
                KeyCode::Key7,
                KeyCode::Key8,
                KeyCode::Key9,
                KeyCode::Key0,
                KeyCode::Q,
                KeyCode::W,
                KeyCode::E,
                KeyCode::R,
                KeyCode::T,
                KeyCode::Y,
                KeyCode::U,
                KeyCode::I,
            ];
            if !ctrl {
                for (i, k) in overlay_codes.iter().enumerate() {
                    if is_key_pressed(*k) {
                        cmds.push(Cmd::ToggleOverlay(i));
                    }
                }
            }
            if d3 {
                let (mut dy, mut dp) = (0, 0);
                if shift && is_key_down(KeyCode::Left) {
                    dy -= 2;
                }
                if shift && is_key_down(KeyCode::Right) {
                    dy += 2;
                }
                if shift && is_key_down(KeyCode::Up) {
                    dp += 2;
                }
                if shift && is_key_down(KeyCode::Down) {
                    dp -= 2;
                }
                if is_mouse_button_down(MouseButton::Right) {
                    let d = mouse_delta_position();
                    dy += (d.x * 200.0) as i32;
                    dp -= (d.y * 200.0) as i32;
                }
                if dy != 0 || dp != 0 {
                    cmds.push(Cmd::Orbit(dy, dp));
                }
            }
            let (_, wheel) = mouse_wheel();
            if wheel > 0.0 {
                cmds.push(Cmd::Zoom(1));
            } else if wheel < 0.0 {
                cmds.push(Cmd::Zoom(-1));
            }
            let in_scene = m[0] >= cam.viewport.x
                && m[0] < cam.viewport.x + cam.viewport.w
                && m[1] >= cam.viewport.y
                && m[1] < cam.viewport.y + cam.viewport.h;
            let hover = match sim_name {
                "path" => scene::tile_cell_at(p.session.sim(), &cam, m).map(|(_, c)| c),
                "line" => scene::line_cell_at(p.session.sim(), &cam, m),
                _ => None,
            };
            if hover != p.hover {
                cmds.push(Cmd::Hover(hover));
            }
            // The scrub bar.
            let bar = l.scrub;
            if is_mouse_button_down(MouseButton::Left) && m[1] >= bar.y && app.error.is_none() {
                let t = l.scrub_tick(m[0], p.session.first_tick(), p.timeline.last());
                if t != p.timeline.tick() {
                    cmds.push(Cmd::Time(Command::Scrub(t)));
                }
            }
            // Clicks and drags in the scene.
            if in_scene && app.error.is_none() {
                let sim = p.session.sim();
                if is_mouse_button_pressed(MouseButton::Left) {
                    match sim_name {
                        "flock" => cmds.push(Cmd::Select(scene::pick_boid(sim, &cam, m))),
                        "line" => {
                            if let (AnySim::Line(ls), Some(cell)) = (sim, hover) {
                                let hit = ls.state().chasers.iter().position(|c| c.pos == cell);
                                cmds.push(Cmd::Select(hit.map(|i| i as u32)));
                            }
                        }
                        _ => {}
                    }
                }
                if is_mouse_button_released(MouseButton::Left) {
                    drag_end(p, &cam, m, &mut cmds);
                }
                if sim_name == "flock"
                    && is_key_pressed(KeyCode::B)
                    && !d3
                    && let (Some(pos), AnySim::Flock(f)) = (scene::world_at(sim, &cam, m), sim)
                {
                    // The new boid flies like boid 0 (or along +x at speed 1).
                    let vel = f.state().boids.first().map_or(
                        crate::num::Vec3::new(
                            crate::num::Fx::ONE,
                            crate::num::Fx::ZERO,
                            crate::num::Fx::ZERO,
                        ),
                        |b| b.vel,
                    );
                    cmds.push(Cmd::Intervene(Input::AddBoid { pos, vel }));
                }
            }
            if is_mouse_button_pressed(MouseButton::Left) && in_scene {
                DRAG_FROM.with(|d| d.set(Some(m)));
            }
            for cmd in cmds {
                app.handle(cmd);
            }
        }
    }
}

/// A key press, repeated while the key is held (after 0.4 s, every 50 ms):
/// holding → steps through ticks, ↓ runs down the picker.
fn pressed_or_repeat(k: KeyCode) -> bool {
    thread_local! {
        static HELD: std::cell::RefCell<Vec<(KeyCode, f64)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let now = get_time();
    HELD.with(|h| {
        let mut h = h.borrow_mut();
        if is_key_pressed(k) {
            h.retain(|(c, _)| *c != k);
            h.push((k, now + 0.4));
            return true;
        }
        if !is_key_down(k) {
            h.retain(|(c, _)| *c != k);
            return false;
        }
        match h.iter_mut().find(|(c, _)| *c == k) {
            Some((_, next)) if now >= *next => {
                *next = now + 0.05;
                true
            }
            _ => false,
        }
    })
}

thread_local! {
    /// Where the left button went down (a drag starts there).
    static DRAG_FROM: std::cell::Cell<Option<[i32; 2]>> = const { std::cell::Cell::new(None) };
}

/// A drag that ended at `m`: moves the goal, a target or an obstacle that
/// was under the press.
fn drag_end(p: &super::app::Player, cam: &scene::Camera, m: [i32; 2], cmds: &mut Vec<Cmd>) {
    let Some(from) = DRAG_FROM.with(|d| d.take()) else {
        return;
    };
    if (from[0] - m[0]).abs() + (from[1] - m[1]).abs() < 4 {
        return;
    }
    let sim = p.session.sim();
    match sim {
        AnySim::Path(ps) => {
            if let (Some((_, a)), Some((_, b))) = (
                scene::tile_cell_at(sim, cam, from),
                scene::tile_cell_at(sim, cam, m),
            ) && a == ps.config().goal
            {
                cmds.push(Cmd::Intervene(Input::MoveGoal { to: b }));
            }
        }
        AnySim::Line(ls) => {
            if let (Some(a), Some(b)) = (
                scene::line_cell_at(sim, cam, from),
                scene::line_cell_at(sim, cam, m),
            ) && let Some(t) = ls.state().targets.iter().position(|&t| t == a)
            {
                cmds.push(Cmd::Intervene(Input::MoveTarget {
                    target: t as u32,
                    to: b,
                }));
            }
        }
        AnySim::Flock(_) => {
            if let (Some(o), Some(to)) = (
                scene::pick_obstacle(sim, cam, from),
                scene::world_at(sim, cam, m),
            ) {
                cmds.push(Cmd::Intervene(Input::MoveObstacle { obstacle: o, to }));
            }
        }
    }
}
