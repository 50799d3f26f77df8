//! The macroquad window: turns keys and the mouse into [`Cmd`]s and paints
//! the app's frame ([`super::draw::compose`], a [`Canvas`]). With `batch`,
//! the only module with floating point: coordinates are converted to `f32`
//! for macroquad here and nowhere else.
//!
//! The window opens at 1280×720 and may be resized to anything; every
//! part is laid out from its size each frame. The bundled font is set as
//! macroquad's default before the first frame (the web build fetches it
//! beside the page).
//!
//! `flockstep render` uses the same drawing code to draw one frame in a
//! window of the asked size, reads the pixels back (macroquad gives them
//! bottom-up; they are flipped) and writes a PNG.

use super::app::{App, Cmd, Layout, PanelCmd, Screen};
use super::batch::Batch;
use super::canvas::{Canvas, Op};
use super::draw::compose;
use super::panel;
use super::timeline::Command;
use crate::i18n::Lang;
use crate::scene;
use crate::sim::{AnySim, Ground, Input, Sim as _};
use crate::tr;
use macroquad::prelude::*;
use std::path::PathBuf;

/// The font's file name beside the web page.
#[cfg(target_arch = "wasm32")]
pub const FONT_FILE: &str = "flockstep-sans.otf";

/// Makes the bundled font macroquad's default, or says why it could not.
async fn install_font() -> Result<(), String> {
    #[cfg(not(target_arch = "wasm32"))]
    let bytes: &[u8] = super::text::FONT;
    #[cfg(target_arch = "wasm32")]
    let bytes: &'static [u8] = {
        let b = macroquad::file::load_file(FONT_FILE)
            .await
            // in English: the font's failure (drawn before any font can draw another script)
            .map_err(|e| format!("{FONT_FILE}: the font did not load ({e})"))?;
        // Kept for the life of the page: the metrics read it too.
        let b: &'static [u8] = Box::leak(b.into_boxed_slice());
        super::text::install(b)?;
        b
    };
    // in English: the font's failure (drawn before any font can draw another script)
    let font = load_ttf_font_from_bytes(bytes).map_err(|e| format!("the bundled font: {e}"))?;
    set_default_font(font);
    Ok(())
}

/// A palette colour for macroquad.
fn c(c: scene::Rgba) -> Color {
    Color::from_rgba(c.0, c.1, c.2, c.3)
}

/// A pixel's centre.
fn mid(p: [i32; 2]) -> [f32; 2] {
    [p[0] as f32 + 0.5, p[1] as f32 + 0.5]
}

/// One shape into the batch.
fn shape(b: &mut Batch, sh: &scene::Shape) {
    use scene::Shape;
    let xy = |p: [i32; 2]| [p[0] as f32, p[1] as f32];
    match sh {
        Shape::Rect { at, size, color } => b.rect(xy(*at), xy(*size), c(*color)),
        Shape::Frame {
            at,
            size,
            width,
            color,
        } => b.outline(xy(*at), xy(*size), f32::from(*width), c(*color)),
        Shape::Line {
            a,
            b: to,
            width,
            color,
        } => b.line(mid(*a), mid(*to), f32::from(*width), c(*color)),
        Shape::Disc { c: p, r, color } => b.disc(mid(*p), *r as f32, c(*color)),
        Shape::Ring {
            c: p,
            r,
            width,
            color,
        } => b.ring(mid(*p), *r as f32, f32::from(*width), c(*color)),
        Shape::Tri { p, color } => b.tri([mid(p[0]), mid(p[1]), mid(p[2])], c(*color)),
        // The canvas holds text and clips as operations of their own.
        Shape::Text { .. } | Shape::Clip { .. } => {}
    }
}

/// Restricts drawing to a viewport (`None`: the whole window).
fn scissor(v: Option<scene::Viewport>) {
    // SAFETY: the context is macroquad's own, used on its thread between
    // its frame's start and end, as every draw_* call does.
    let gl = unsafe { get_internal_gl() };
    gl.quad_gl.scissor(v.map(|v| (v.x, v.y, v.w, v.h)));
}

/// Puts every glyph a frame draws into the font's atlas before anything
/// is drawn. The atlas doubles when a new glyph does not fit, and replaces
/// its texture as it does; glyphs queued earlier in the same frame still
/// point at the texture it replaced and are drawn as black blocks — the
/// first frame of a lesson, whose status line, legend and labels bring
/// many new glyphs, was such a frame in Chromium. Cached first, no glyph
/// is ever added while a frame is being drawn.
fn cache_glyphs(cv: &Canvas) {
    let font = get_default_font();
    let dpi = miniquad::window::dpi_scale();
    for (size, chars) in cv.glyphs() {
        let chars: Vec<char> = chars.into_iter().collect();
        font.populate_font_cache(&chars, (f32::from(size) * dpi).ceil() as u16);
    }
}

/// Paints a frame: its glyphs cached, then its operations in order, each
/// layer's text over its shapes (see [`super::canvas`]).
pub fn paint(cv: &Canvas) {
    thread_local! {
        static BATCH: std::cell::RefCell<Batch> = std::cell::RefCell::default();
    }
    cache_glyphs(cv);
    clear_background(c(scene::color::BACKGROUND));
    BATCH.with(|b| {
        let b = &mut *b.borrow_mut();
        let mut queued: Vec<usize> = Vec::new();
        let flush = |b: &mut Batch, queued: &mut Vec<usize>| {
            b.flush();
            for i in queued.drain(..) {
                let t = &cv.texts[i];
                draw_text(
                    &t.text,
                    t.at[0] as f32,
                    t.at[1] as f32,
                    f32::from(t.px),
                    c(t.color),
                );
            }
        };
        for op in &cv.ops {
            match op {
                Op::Shape(s) => shape(b, s),
                Op::Text(i) => queued.push(*i),
                Op::FlushText => flush(b, &mut queued),
                Op::Clip(v) => {
                    flush(b, &mut queued);
                    scissor(*v);
                }
                Op::Dim => {
                    flush(b, &mut queued);
                    let (w, h) = (cv.w as f32, cv.h as f32);
                    draw_rectangle(0.0, 0.0, w, h, Color::from_rgba(0, 0, 0, 150));
                }
            }
        }
        flush(b, &mut queued);
        scissor(None);
    });
}

/// Whether a window can be opened: an X display must be named and, for a
/// local one, its socket must exist.
pub fn display_available() -> Result<(), String> {
    // in English: the command line's message and what it reads
    let hint = "no display to open a window on (DISPLAY is not set or its X server is not running); on a machine without a screen, run under Xvfb: xvfb-run -a -s '-screen 0 1280x720x24' flockstep …";
    // in English: the command line's message and what it reads
    let Ok(d) = std::env::var("DISPLAY") else {
        return Err(hint.to_owned());
    };
    if d.trim().is_empty() {
        return Err(hint.to_owned());
    }
    if let Some(rest) = d.strip_prefix(':') {
        let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
        // in English: the command line's message and what it reads
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
    // in English: the window's title
    macroquad::Window::from_config(conf("flockstep", 1280, 720), async move {
        let mut app = app;
        if let Err(e) = install_font().await {
            app.error = Some(e);
        }
        let mut shown_error: Option<String> = None;
        let mut between = Between::new();
        #[cfg(not(target_arch = "wasm32"))]
        let mut recording: Option<Recording> = None;
        loop {
            let (w, h) = (screen_width() as i32, screen_height() as i32);
            let framed = app.framed(w, h);
            if app.player().is_some_and(|p| p.pages != framed.pages) {
                app.handle(Cmd::Pages(framed.pages));
            }
            let layout = framed.layout;
            dropped(&mut app, get_dropped_files());
            page_events(&mut app);
            between.catch_up();
            #[cfg(not(target_arch = "wasm32"))]
            if let Some(r) = &mut recording {
                // A clip being recorded: one tick a frame, drawn as
                // `render` draws it; Esc stops it.
                if is_key_pressed(KeyCode::Escape) {
                    r.stop(&mut app, false);
                } else {
                    r.show_next(&mut app);
                }
                let frame = compose(&app, w, h);
                paint(&frame);
                if r.capture(&mut app) {
                    recording = None;
                }
                next_frame().await;
                continue;
            }
            input(&mut app, &layout, &mut between);
            #[cfg(not(target_arch = "wasm32"))]
            if between.plain(KeyCode::G) {
                recording = Recording::of_beat(&mut app);
            }
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
            paint(&compose(&app, w, h));
            #[cfg(target_arch = "wasm32")]
            super::web::publish_status(status_json(&app, &layout, w, h));
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
        let lang = Lang::of(app.lang.as_deref());
        match e {
            PageEvent::File { name, bytes } => app.handle(Cmd::OpenFile { name, bytes }),
            PageEvent::Pair { a, b } => app.handle(Cmd::CompareFiles { a, b }),
            PageEvent::Language { tag, asked } => {
                let langs = app.languages();
                if langs.contains(&Some(tag.clone())) {
                    app.set_language(Some(tag));
                } else if asked && tag != "en" {
                    let others: String = langs.iter().flatten().map(|l| format!(", {l}")).collect();
                    app.error = Some(tr!(lang, WEB_NO_LANG, tag, others));
                } else if !asked {
                    app.set_language(super::app::locale_language(&langs, Some(&tag)));
                }
            }
            PageEvent::Lesson(id) => match app.entries.iter().position(|e| e.id == id) {
                Some(i) => app.handle(Cmd::PickerOpen(Some(i))),
                None => app.error = Some(tr!(lang, WEB_NO_LESSON, id)),
            },
            PageEvent::Save => {
                if let Some(name) = app.player().map(|p| save_name(&p.session.lesson.id)) {
                    app.handle(Cmd::Download(name));
                } else {
                    app.error = Some(tr!(lang, WEB_SAVE_NOTHING).into());
                }
            }
            PageEvent::SaveLesson => {
                if let Some(id) = app.player().map(|p| p.session.lesson.id.clone()) {
                    app.handle(Cmd::DownloadLesson(format!("{id}-whatif.toml")));
                } else {
                    app.error = Some(tr!(lang, WEB_SAVE_NOTHING).into());
                }
            }
            PageEvent::Share => match app.share_link() {
                Ok(q) => {
                    super::web::shared(&q);
                    app.remark(tr!(lang, SHARED, q));
                }
                Err(m) => app.error = Some(m),
            },
            PageEvent::Link(q) => app.open_link(&q),
        }
    }
    if let Some((name, bytes)) = app.download.take() {
        download(&name, &bytes);
    }
    super::web::set_title(&match app.player() {
        // in English: the browser tab's title, which the page's tests read
        Some(p) => format!("{} — flockstep", p.session.lesson.id),
        // in English: the browser tab's title, which the page's tests read
        None => "flockstep — pick a lesson".to_owned(),
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn page_events(_: &mut App) {}

/// What is on screen, for the web page: the screen, the lesson and tick,
/// the error, and where the picker's rows and the scrub bar are (canvas
/// pixels); and the page's own words (its buttons and hint) in the
/// screen's language, from the catalogue.
#[cfg(target_arch = "wasm32")]
fn status_json(app: &App, l: &Layout, w: i32, h: i32) -> String {
    let bar = l.scrub_bar();
    let lang = Lang::of(app.lang.as_deref());
    let page = serde_json::json!({
        "lang": if lang == Lang::Ja { "ja" } else { "en" },
        "open": tr!(lang, WEB_OPEN),
        "open_tip": tr!(lang, WEB_OPEN_TIP),
        "save": tr!(lang, WEB_SAVE),
        "save_tip": tr!(lang, WEB_SAVE_TIP),
        "save_lesson": tr!(lang, WEB_SAVE_LESSON),
        "save_lesson_tip": tr!(lang, WEB_SAVE_LESSON_TIP),
        "share": tr!(lang, WEB_SHARE),
        "share_tip": tr!(lang, WEB_SHARE_TIP),
        "hint": tr!(lang, WEB_HINT),
    });
    let mut v = match app.player() {
        Some(p) => {
            let ticks: Vec<u64> = p.session.lesson.beats.iter().map(|b| b.at).collect();
            let tabs = l.beat_tabs(&ticks, p.session.first_tick(), p.timeline.last());
            serde_json::json!({
                "screen": "player",
                "lesson": p.session.lesson.id,
                "tick": p.session.tick(),
                "hash": format!("{:016x}", p.session.sim().state_hash()),
                "last": p.timeline.last(),
                "beat": p.timeline.beat(),
                "tabs": tabs.iter().map(|t| [t.x, t.y, t.w, t.h]).collect::<Vec<_>>(),
                "scrub": [bar.x, bar.y, bar.w, bar.h],
                "lang": app.lang,
                "error": app.error,
                "inputs": p.session.inputs.values().map(Vec::len).sum::<usize>(),
                "brush": p.brush,
                "map": map_status(p, l),
                "panel": panel_status(p, l),
                "compare": p.compare.as_ref().map(|c| serde_json::json!({
                    "names": c.names,
                    "first": c.first,
                    "other_tick": c.other.tick(),
                })),
            })
        }
        None => serde_json::json!({
            "screen": "picker",
            "picked": app.picked,
            "rows": super::draw::picker_layout(app, w, h, l).shown.iter()
                .map(|(r, [x, y])| match r {
                    super::app::PickerRow::Lesson(i) => serde_json::json!({"id": app.entries[*i].id, "x": x, "y": y}),
                    super::app::PickerRow::Header(i) => serde_json::json!({"sim": app.entries[*i].sim, "x": x, "y": y}),
                })
                .collect::<Vec<_>>(),
            "lang": app.lang,
            "error": app.error,
        }),
    };
    v["page"] = page;
    v.to_string()
}

/// Where the first search's map is (a path lesson): `[x, y, cell]`.
#[cfg(target_arch = "wasm32")]
fn map_status(p: &super::app::Player, l: &Layout) -> serde_json::Value {
    let cam = p.camera(l.scene, l.scale);
    let pcam = scene::pane_camera(p.session.sim(), &cam, 0);
    match scene::tile_map_at(&p.session.sim().panes()[0], &pcam, 0) {
        Some((o, cell)) => serde_json::json!([o[0], o[1], cell]),
        None => serde_json::Value::Null,
    }
}

/// The parameter panel: open or not, and each slider shown (its key, its
/// track, how many values, the one in force).
#[cfg(target_arch = "wasm32")]
fn panel_status(p: &super::app::Player, l: &Layout) -> serde_json::Value {
    let sliders: Vec<serde_json::Value> = if p.panel_open {
        panel::rects(p, l)
            .iter()
            .map(|r| {
                let c = &p.panel.controls[r.control];
                serde_json::json!({
                    "key": c.key,
                    "track": [r.track.x, r.track.y, r.track.w, r.track.h],
                    "values": c.values,
                    "now": p.panel.current(r.control, p.session.applied(), p.session.in_force_until()),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    serde_json::json!({ "open": p.panel_open, "pane": p.panel.pane, "sliders": sliders })
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
    /// Also write the saved frame's text as JSON here (`--text`).
    pub text: Option<PathBuf>,
}

/// Draws one frame of `job.app` in a window and writes it as a PNG; the
/// process exits when done (0, or 2 with a message if the PNG cannot be
/// written).
const FIRSTN: usize = 2;
pub fn render(job: RenderJob) -> Result<(), String> {
    display_available()?;
    let (w, h) = job.size;
    // in English: the window's title
    macroquad::Window::from_config(conf("flockstep render", w, h), async move {
        let job = job;
        if let Err(e) = install_font().await {
            eprintln!("flockstep: {e}");
            std::process::exit(2);
        }
        // Two frames settle the window's size; the third is saved. With
        // --time-frames, that many more are drawn and timed first (each
        // from the start of drawing to the end of the buffer swap).
        let timed = job.time_frames as usize;
        let mut times = Vec::with_capacity(timed);
        for n in 0..3 + timed {
            let start = std::time::Instant::now();
            let (sw, sh) = (screen_width() as i32, screen_height() as i32);
            let frame = compose(&job.app, sw, sh);
            paint(&frame);
            if n == FIRSTN + timed {
                if timed > 0 {
                    times.sort();
                    let mean = times.iter().sum::<std::time::Duration>() / timed as u32;
                    println!(
                        // in English: a timing printed on the terminal
                        "frames: {timed} at {sw}x{sh}, {} shapes: mean {:.2} ms, median {:.2} ms, worst {:.2} ms",
                        job.app.player().map_or(0, |p| {
                            let l = job.app.framed(sw, sh).layout;
                            p.scene(l.scene, l.scale).shapes.len()
                        }),
                        mean.as_secs_f64() * 1e3,
                        times[timed / 2].as_secs_f64() * 1e3,
                        times[timed - 1].as_secs_f64() * 1e3
                    );
                }
                let img = get_screen_data();
                let written = write_png(&img, &job.out).and_then(|()| match &job.text {
                    Some(path) => write_text(&job.app, &frame, path),
                    None => Ok(()),
                });
                let code = match written {
                    Ok(()) => 0,
                    Err(m) => {
                        eprintln!("flockstep: {m}");
                        2
                    }
                };
                std::process::exit(code);
            }
            next_frame().await;
            if n >= 2 {
                times.push(start.elapsed());
            }
        }
    });
    Ok(())
}

/// What `flockstep render --gif` draws: `app` at each of `ticks`, a
/// frame each, shown `delay` hundredths of a second.
#[cfg(not(target_arch = "wasm32"))]
pub struct ClipJob {
    /// The app, with its player open.
    pub app: App,
    /// Window size.
    pub size: (i32, i32),
    /// The GIF to write.
    pub out: PathBuf,
    /// The ticks, in order.
    pub ticks: Vec<u64>,
    /// How long each frame shows, in hundredths of a second.
    pub delay: u16,
}

/// Draws each tick of a clip in a window, as `render` draws one (the
/// beat in force, the camera settled), and writes them as an animated
/// GIF ([`super::clip`]); the process exits when done (0, or 2 with a
/// message).
#[cfg(not(target_arch = "wasm32"))]
pub fn render_clip(job: ClipJob) -> Result<(), String> {
    display_available()?;
    let (w, h) = job.size;
    // in English: the window's title
    macroquad::Window::from_config(conf("flockstep render", w, h), async move {
        let mut job = job;
        if let Err(e) = install_font().await {
            eprintln!("flockstep: {e}");
            std::process::exit(2);
        }
        let tmp = job.out.with_extension("gif.partial");
        let mut clip = None;
        let mut code = 0;
        for n in 0..FIRSTN + job.ticks.len() {
            if let Some(&t) = n.checked_sub(FIRSTN).and_then(|k| job.ticks.get(k)) {
                job.app
                    .handle(Cmd::Time(super::timeline::Command::Scrub(t)));
                job.app.settle();
            }
            let (sw, sh) = (screen_width() as i32, screen_height() as i32);
            paint(&compose(&job.app, sw, sh));
            if n >= FIRSTN {
                let img = get_screen_data();
                let added = clip_frame(&mut clip, &tmp, &img, job.delay);
                if let Err(m) = added {
                    // in English: a message on the terminal
                    eprintln!("flockstep: {}: {m}", job.out.display());
                    code = 2;
                    break;
                }
            }
            next_frame().await;
        }
        if code == 0 {
            let done = clip
                // in English: a message on the terminal
                .ok_or_else(|| "no frames".to_owned())
                .and_then(|c: super::clip::Clip<std::io::BufWriter<std::fs::File>>| c.finish())
                .and_then(|w| w.into_inner().map_err(|e| e.to_string()))
                .and_then(|f| f.sync_all().map_err(|e| e.to_string()))
                .and_then(|()| std::fs::rename(&tmp, &job.out).map_err(|e| e.to_string()));
            if let Err(m) = done {
                // in English: a message on the terminal
                eprintln!("flockstep: {}: {m}", job.out.display());
                code = 2;
            }
        }
        if code != 0 {
            let _ = std::fs::remove_file(&tmp);
        }
        std::process::exit(code);
    });
    Ok(())
}

/// The viewer's G: the current beat recorded as a GIF clip, from its
/// tick to the next beat's (or the run's end, at most [`CLIP_TICKS`]
/// ticks), one tick a frame as `render --gif` draws them, into
/// `ID-beatN.gif`; then back where the teacher was.
#[cfg(not(target_arch = "wasm32"))]
struct Recording {
    ticks: Vec<u64>,
    next: usize,
    clip: Option<super::clip::Clip<std::io::BufWriter<std::fs::File>>>,
    out: PathBuf,
    tmp: PathBuf,
    delay: u16,
    back: u64,
}

/// The longest clip G records, in ticks.
#[cfg(not(target_arch = "wasm32"))]
pub const CLIP_TICKS: u64 = 600;

#[cfg(not(target_arch = "wasm32"))]
impl Recording {
    fn of_beat(app: &mut App) -> Option<Recording> {
        let p = app.player()?;
        let lesson = &p.session.lesson;
        let now = p.session.tick();
        let beat = p.timeline.beat();
        let from = beat.map_or(now, |b| lesson.beats[b].at);
        let to = lesson
            .beats
            .iter()
            .map(|b| b.at)
            .find(|&t| t > from)
            .unwrap_or(p.timeline.last())
            .min(from + CLIP_TICKS)
            .max(from);
        let rate = lesson.rate.unwrap_or_else(|| lesson.sim.default_rate());
        let (every, delay) = super::clip::timing(rate, 1);
        let n = beat.map_or(0, |b| b + 1);
        let out = PathBuf::from(format!("{}-beat{n}.gif", lesson.id));
        if p.timeline.playing() {
            app.handle(Cmd::Time(Command::TogglePlay));
        }
        Some(Recording {
            ticks: (from..=to).step_by(every as usize).collect(),
            next: 0,
            clip: None,
            tmp: out.with_extension("gif.partial"),
            out,
            delay,
            back: now,
        })
    }

    fn show_next(&mut self, app: &mut App) {
        if let Some(&t) = self.ticks.get(self.next) {
            app.handle(Cmd::Time(Command::Scrub(t)));
            app.settle();
        }
    }

    /// Adds the screen as a frame; `true` when the clip is done (saved,
    /// or failed with the error shown).
    fn capture(&mut self, app: &mut App) -> bool {
        if self.next >= self.ticks.len() {
            return true;
        }
        let img = get_screen_data();
        if let Err(m) = clip_frame(&mut self.clip, &self.tmp, &img, self.delay) {
            app.error = Some(format!("{}: {m}", self.out.display()));
            self.stop(app, false);
            return true;
        }
        self.next += 1;
        if self.next == self.ticks.len() {
            self.stop(app, true);
            return true;
        }
        false
    }

    /// Ends the recording: saves the clip (`keep`) or drops it, and goes
    /// back to the tick the teacher was at.
    fn stop(&mut self, app: &mut App, keep: bool) {
        let lang = Lang::of(app.lang.as_deref());
        let clip = self.clip.take();
        let saved = match clip {
            Some(c) if keep => c
                .finish()
                .and_then(|w| w.into_inner().map_err(|e| e.to_string()))
                .and_then(|f| f.sync_all().map_err(|e| e.to_string()))
                .and_then(|()| std::fs::rename(&self.tmp, &self.out).map_err(|e| e.to_string())),
            _ => Err(String::new()),
        };
        match saved {
            Ok(()) => {
                let shown = std::fs::canonicalize(&self.out).unwrap_or(self.out.clone());
                app.remark(tr!(lang, SAVED_CLIP, shown.display(), self.ticks.len()));
            }
            Err(m) => {
                let _ = std::fs::remove_file(&self.tmp);
                if !m.is_empty() {
                    app.error = Some(format!("{}: {m}", self.out.display()));
                }
            }
        }
        self.next = self.ticks.len();
        app.handle(Cmd::Time(Command::Scrub(self.back)));
        app.settle();
    }
}

/// Adds the screen as the clip's next frame (opening the clip's file at
/// the first).
#[cfg(not(target_arch = "wasm32"))]
fn clip_frame(
    clip: &mut Option<super::clip::Clip<std::io::BufWriter<std::fs::File>>>,
    tmp: &std::path::Path,
    img: &Image,
    delay: u16,
) -> Result<(), String> {
    let (w, h) = (img.width as u32, img.height as u32);
    if clip.is_none() {
        let f = std::fs::File::create(tmp).map_err(|e| e.to_string())?;
        *clip = Some(super::clip::Clip::new(
            std::io::BufWriter::new(f),
            (w, h),
            delay,
        )?);
    }
    // in English: a program error
    let c = clip.as_mut().expect("opened above");
    c.frame(&upright(img))
}

/// Writes a frame's text (see [`Canvas::text_json`]) to `path`, through
/// a temporary file renamed into place.
fn write_text(app: &App, frame: &Canvas, path: &std::path::Path) -> Result<(), String> {
    let json = frame.text_json(super::app::frame_about(app));
    Ok(crate::files::write_atomic(path, json.as_bytes())?)
}

/// The screen (bottom-up RGBA) upright and opaque: the framebuffer's
/// alpha is not part of the picture.
fn upright(img: &Image) -> Vec<u8> {
    let row = usize::from(img.width) * 4;
    let mut out = Vec::with_capacity(img.bytes.len());
    for y in (0..usize::from(img.height)).rev() {
        out.extend_from_slice(&img.bytes[y * row..(y + 1) * row]);
    }
    for px in out.chunks_exact_mut(4) {
        px[3] = 255;
    }
    out
}

/// Writes the screen (bottom-up RGBA) as an upright PNG, through a
/// temporary file renamed into place.
fn write_png(img: &Image, out: &std::path::Path) -> Result<(), String> {
    let (w, h) = (img.width as u32, img.height as u32);
    let upright = upright(img);
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

/// What the window's events said between two frames that the keyboard
/// and mouse state at the frame no longer says: a quick Ctrl+S on a slow
/// frame has let go of Ctrl before the frame reads the keyboard, and a
/// fast brush stroke crosses cells between two frames' mouse positions.
struct Between {
    subscriber: usize,
    /// Keys pressed this frame with Ctrl held, as their events said.
    ctrl: Vec<KeyCode>,
    /// The cell the brush changed last frame, while a button stays down.
    stroke: Option<crate::sim::Cell>,
}

impl Between {
    fn new() -> Self {
        Self {
            subscriber: macroquad::input::utils::register_input_subscriber(),
            ctrl: Vec::new(),
            stroke: None,
        }
    }

    /// Reads the events since the last frame.
    fn catch_up(&mut self) {
        self.ctrl.clear();
        let id = self.subscriber;
        macroquad::input::utils::repeat_all_miniquad_input(self, id);
    }

    /// `k` was pressed with Ctrl held.
    fn ctrl(&self, k: KeyCode) -> bool {
        self.ctrl.contains(&k)
    }

    /// `k` was pressed without Ctrl.
    fn plain(&self, k: KeyCode) -> bool {
        is_key_pressed(k) && !self.ctrl(k)
    }
}

impl macroquad::miniquad::EventHandler for Between {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn key_down_event(&mut self, k: KeyCode, mods: macroquad::miniquad::KeyMods, repeat: bool) {
        if mods.ctrl && !repeat {
            self.ctrl.push(k);
        }
    }
}

/// Keys and mouse → commands.
fn input(app: &mut App, l: &Layout, between: &mut Between) {
    let (mx, my) = mouse_position();
    let m = [mx as i32, my as i32];
    if is_key_pressed(KeyCode::Escape) {
        app.handle(Cmd::Back);
    }
    // Text and pictures larger or smaller: + and − (with or without Ctrl,
    // Shift+= included); playback speed has keys of its own ([ and ]).
    if is_key_pressed(KeyCode::Equal) || is_key_pressed(KeyCode::KpAdd) {
        app.handle(Cmd::TextScale(1));
    }
    if is_key_pressed(KeyCode::Minus) || is_key_pressed(KeyCode::KpSubtract) {
        app.handle(Cmd::TextScale(-1));
    }
    if between.plain(KeyCode::L) {
        app.handle(Cmd::Language);
    }
    if app.prompt.is_some() {
        if is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter) {
            app.handle(Cmd::RestartAsWritten);
        } else if is_key_pressed(KeyCode::K) {
            app.handle(Cmd::RestartKeep);
        }
        return;
    }
    match &app.screen {
        Screen::Picker => picker_input(app, l, m),
        Screen::Player(p) => {
            let cmds = player_input(app, p, l, m, between);
            for cmd in cmds {
                app.handle(cmd);
            }
        }
    }
}

fn picker_input(app: &mut App, l: &Layout, m: [i32; 2]) {
    if pressed_or_repeat(KeyCode::Down) {
        app.handle(Cmd::PickerMove(1));
    }
    if pressed_or_repeat(KeyCode::Up) {
        app.handle(Cmd::PickerMove(-1));
    }
    if is_key_pressed(KeyCode::Enter) || is_key_pressed(KeyCode::KpEnter) {
        app.handle(Cmd::PickerOpen(None));
    }
    let (w, h) = (screen_width() as i32, screen_height() as i32);
    let rows = super::draw::picker_layout(app, w, h, l);
    let (_, wheel) = mouse_wheel();
    if wheel != 0.0 {
        // Scroll from what is shown, not from a scroll the chosen row
        // overrides.
        let first = app.picker_first_row(rows.shown.len());
        app.picker_scroll = first;
        app.handle(Cmd::PickerScroll(if wheel > 0.0 { -2 } else { 2 }));
    }
    if is_mouse_button_pressed(MouseButton::Left) && app.error.is_none() {
        let hit = rows.shown.iter().find_map(|(r, [x, y])| match r {
            super::app::PickerRow::Lesson(i)
                if m[1] > y - rows.row_h * 3 / 4
                    && m[1] <= y + rows.row_h / 4
                    && m[0] >= x - 8
                    && m[0] < x + rows.col_w =>
            {
                Some(*i)
            }
            _ => None,
        });
        if let Some(i) = hit {
            app.handle(Cmd::PickerOpen(Some(i)));
        }
    }
}

/// A player's keys and mouse, as commands.
fn player_input(
    app: &App,
    p: &super::app::Player,
    l: &Layout,
    m: [i32; 2],
    between: &mut Between,
) -> Vec<Cmd> {
    let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
    let d3 = matches!(&p.session.sim().panes()[0], AnySim::Flock(f) if f.config().dims == 3);
    let cam = p.camera(l.scene, l.scale);
    // With variants (or two runs compared), the mouse works in the pane
    // under it.
    let shown = p.shown();
    let (pane, sim, pcam) = scene::pane_at(&shown, &cam, m).unwrap_or((
        0,
        &shown.panes()[0],
        scene::pane_camera(&shown, &cam, 0),
    ));
    let mut cmds = key_input(p, shift, between);
    if d3 {
        orbit_input(shift, &mut cmds);
    }
    let inside =
        |v: scene::Viewport| m[0] >= v.x && m[0] < v.x + v.w && m[1] >= v.y && m[1] < v.y + v.h;
    let (_, wheel) = mouse_wheel();
    if wheel != 0.0 {
        let d = if wheel > 0.0 { 1 } else { -1 };
        if inside(l.side) {
            cmds.push(Cmd::SideScroll(-3 * d));
        } else {
            cmds.push(Cmd::Zoom(d));
        }
    }
    let hover = match sim {
        AnySim::Path(_) => scene::tile_cell_at(sim, &pcam, m).map(|(_, c)| c),
        AnySim::Line(_) => scene::line_cell_at(sim, &pcam, m),
        AnySim::Flock(_) | AnySim::Custom(_) | AnySim::Panes(_) => None,
    };
    if hover != p.hover {
        cmds.push(Cmd::Hover(hover));
    }
    if app.error.is_none() {
        scrub_input(p, l, m, &mut cmds);
        panel_input(p, l, m, between, &mut cmds);
    }
    let brushing = p.brush && inside(cam.viewport) && app.error.is_none();
    if !brushing {
        between.stroke = None;
    }
    if brushing {
        brush_input(sim, hover, &mut between.stroke, &mut cmds);
    } else if inside(cam.viewport) && app.error.is_none() {
        let at = SceneAt {
            pane,
            sim,
            pcam: &pcam,
            m,
            hover,
        };
        scene_mouse(p, &cam, &at, d3, &mut cmds);
    }
    cmds
}

/// The keys a player presses: time, help, save, overlays.
fn key_input(p: &super::app::Player, shift: bool, between: &Between) -> Vec<Cmd> {
    let keys = [
        (KeyCode::Space, Command::TogglePlay),
        (KeyCode::PageDown, Command::NextBeat),
        (KeyCode::PageUp, Command::PrevBeat),
        (KeyCode::Home, Command::Restart),
        (KeyCode::RightBracket, Command::Faster),
        (KeyCode::LeftBracket, Command::Slower),
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
    if is_key_pressed(KeyCode::H) {
        cmds.push(Cmd::Help);
    }
    if between.plain(KeyCode::D) {
        cmds.push(Cmd::Diverge);
    }
    if between.plain(KeyCode::M) {
        cmds.push(Cmd::Brush);
    }
    if between.ctrl(KeyCode::L) {
        let base = format!("{}-whatif", p.session.lesson.id);
        if cfg!(target_arch = "wasm32") {
            cmds.push(Cmd::DownloadLesson(format!("{base}.toml")));
        } else {
            let path = std::iter::once(PathBuf::from(format!("{base}.toml")))
                .chain((2..1000).map(|n| PathBuf::from(format!("{base}-{n}.toml"))))
                .find(|f| !f.exists())
                .unwrap_or_else(|| PathBuf::from(format!("{base}.toml")));
            cmds.push(Cmd::SaveLesson(path));
        }
    }
    if between.ctrl(KeyCode::S) {
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
    for (i, k) in OVERLAY_CODES.iter().enumerate() {
        if between.plain(*k) {
            cmds.push(Cmd::ToggleOverlay(i));
        }
    }
    cmds
}

/// Where the mouse is in the scene: the pane under it, its sim and
/// camera, the pixel and the cell it hovers.
struct SceneAt<'a> {
    pane: usize,
    sim: &'a AnySim,
    pcam: &'a scene::Camera,
    m: [i32; 2],
    hover: Option<crate::sim::Cell>,
}

/// Clicks and drags in the scene: choose a pane, select a boid or
/// chaser, drag, drop a boid (B, 2-D flocks).
fn scene_mouse(
    p: &super::app::Player,
    cam: &scene::Camera,
    at: &SceneAt,
    d3: bool,
    cmds: &mut Vec<Cmd>,
) {
    let (sim, m) = (at.sim, at.m);
    if is_mouse_button_pressed(MouseButton::Left) {
        if p.compare.is_some() || matches!(p.session.sim(), AnySim::Panes(_)) {
            cmds.push(Cmd::Pane(at.pane as u32));
        }
        match (sim, at.hover) {
            (AnySim::Flock(_), _) => cmds.push(Cmd::Select(scene::pick_boid(sim, at.pcam, m))),
            (AnySim::Line(ls), Some(cell)) => {
                let hit = ls.state().chasers.iter().position(|c| c.pos == cell);
                cmds.push(Cmd::Select(hit.map(|i| i as u32)));
            }
            (AnySim::Line(_), None)
            | (AnySim::Path(_) | AnySim::Custom(_) | AnySim::Panes(_), _) => {}
        }
        DRAG_FROM.with(|d| d.set(Some(m)));
    }
    if is_mouse_button_released(MouseButton::Left) {
        drag_end(p, cam, m, cmds);
    }
    if is_key_pressed(KeyCode::B)
        && !d3
        && let (Some(pos), AnySim::Flock(f)) = (scene::world_at(sim, at.pcam, m), sim)
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

/// The parameter panel's keys (P opens it; while open ↑ ↓ choose, `,`
/// `.` change, Backspace resets, Tab picks the pane) and its sliders (a
/// press or drag on a track sets the value under the mouse).
fn panel_input(
    p: &super::app::Player,
    l: &Layout,
    m: [i32; 2],
    between: &Between,
    cmds: &mut Vec<Cmd>,
) {
    if between.plain(KeyCode::P) {
        cmds.push(Cmd::Panel(PanelCmd::Toggle));
    }
    if !p.panel_open {
        return;
    }
    for (k, c) in [
        (KeyCode::Up, PanelCmd::Move(-1)),
        (KeyCode::Down, PanelCmd::Move(1)),
        (KeyCode::Comma, PanelCmd::Step(-1)),
        (KeyCode::Period, PanelCmd::Step(1)),
    ] {
        if pressed_or_repeat(k) {
            cmds.push(Cmd::Panel(c));
        }
    }
    if is_key_pressed(KeyCode::Backspace) {
        cmds.push(Cmd::Panel(PanelCmd::Reset));
    }
    if is_key_pressed(KeyCode::Tab) {
        cmds.push(Cmd::Panel(PanelCmd::Pane));
    }
    // A press and release between two frames still sets the value.
    if !held(MouseButton::Left) {
        return;
    }
    for r in panel::rects(p, l) {
        let t = r.track;
        let slop = t.h / 2;
        if m[0] >= t.x - slop
            && m[0] <= t.x + t.w + slop
            && m[1] >= t.y - slop
            && m[1] < t.y + t.h + slop
        {
            let len = p.panel.controls[r.control].values.len();
            cmds.push(Cmd::Panel(PanelCmd::Set {
                control: r.control,
                index: panel::index_at(t, m[0], len),
            }));
        }
    }
}

/// The map brush: a press or drag paints the cell under the mouse a wall
/// (left) or clears it to open ground (right), and every cell on the line
/// from the one it changed last frame, so a fast stroke leaves no gaps;
/// Z and X raise and lower its height. A cell already so is left alone,
/// so a stroke records each cell it changes once.
fn brush_input(
    sim: &AnySim,
    hover: Option<crate::sim::Cell>,
    stroke: &mut Option<crate::sim::Cell>,
    cmds: &mut Vec<Cmd>,
) {
    let grid = match sim {
        AnySim::Path(s) => &s.config().grid,
        AnySim::Line(s) => &s.config().grid,
        _ => return,
    };
    let (left, right) = (held(MouseButton::Left), held(MouseButton::Right));
    let Some(at) = hover.filter(|_| left || right) else {
        *stroke = None;
        return key_brush(grid, hover, cmds);
    };
    let from = stroke.filter(|s| grid.contains(*s)).unwrap_or(at);
    // The line's cells exclude its start: the stroke's first cell is `at`.
    let first = stroke.is_none().then_some(at);
    for c in first
        .into_iter()
        .chain(crate::sim::line::bresenham::cells(from, at))
    {
        let to = if left {
            (!grid.is_wall(c)).then_some(Ground::Wall)
        } else {
            grid.is_wall(c).then_some(Ground::Open(0))
        };
        if let Some(to) = to {
            cmds.push(Cmd::Intervene(Input::Ground { at: c, to }));
        }
    }
    *stroke = Some(at);
}

/// Z and X raise and lower the height of the cell under the brush.
fn key_brush(grid: &crate::sim::Grid, hover: Option<crate::sim::Cell>, cmds: &mut Vec<Cmd>) {
    let Some(at) = hover else { return };
    let height = grid.height_at(at);
    let to = if is_key_pressed(KeyCode::Z) {
        height.filter(|h| *h < 9).map(|h| Ground::Open(h + 1))
    } else if is_key_pressed(KeyCode::X) {
        height.filter(|h| *h > 0).map(|h| Ground::Open(h - 1))
    } else {
        None
    };
    if let Some(to) = to {
        cmds.push(Cmd::Intervene(Input::Ground { at, to }));
    }
}

/// The keys that toggle overlays, in [`super::app::OVERLAY_KEYS`] order.
const OVERLAY_CODES: [KeyCode; 18] = [
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

/// Files dropped on the window: one opens; two dropped together open
/// side by side (the first is run a).
fn dropped(app: &mut App, files: Vec<macroquad::DroppedFile>) {
    let lang = Lang::of(app.lang.as_deref());
    let mut got = Vec::new();
    for f in files {
        let name = f.path.map_or_else(
            || tr!(lang, DROPPED_FILE).to_owned(),
            |p| p.display().to_string(),
        );
        match f.bytes {
            Some(bytes) => got.push((name, bytes)),
            None => app.error = Some(tr!(lang, DROPPED_UNREADABLE, name)),
        }
    }
    let mut it = got.into_iter();
    match (it.next(), it.next()) {
        (Some(a), Some(b)) => app.handle(Cmd::CompareFiles { a, b }),
        (Some((name, bytes)), None) => app.handle(Cmd::OpenFile { name, bytes }),
        _ => {}
    }
}

/// Shift+arrows and right-drag turn the 3-D camera.
fn orbit_input(shift: bool, cmds: &mut Vec<Cmd>) {
    let (mut dy, mut dp) = (0, 0);
    for (k, y, p) in [
        (KeyCode::Left, -2, 0),
        (KeyCode::Right, 2, 0),
        (KeyCode::Up, 0, 2),
        (KeyCode::Down, 0, -2),
    ] {
        if shift && is_key_down(k) {
            dy += y;
            dp += p;
        }
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

/// The scrub strip: a click on a beat tab goes to that beat; pressing or
/// dragging on the bar scrubs.
fn scrub_input(p: &super::app::Player, l: &Layout, m: [i32; 2], cmds: &mut Vec<Cmd>) {
    if m[1] < l.scrub.y {
        return;
    }
    let ticks: Vec<u64> = p.session.lesson.beats.iter().map(|b| b.at).collect();
    let tabs = l.beat_tabs(&ticks, p.session.first_tick(), p.timeline.last());
    let on_tab = tabs
        .iter()
        .position(|t| m[0] >= t.x && m[0] < t.x + t.w && m[1] >= t.y && m[1] < t.y + t.h);
    match on_tab {
        Some(i) if is_mouse_button_pressed(MouseButton::Left) => {
            cmds.push(Cmd::Time(Command::Beat(i)));
        }
        Some(_) => {}
        None if held(MouseButton::Left) => {
            let t = l.scrub_tick(m[0], p.session.first_tick(), p.timeline.last());
            if t != p.timeline.tick() {
                cmds.push(Cmd::Time(Command::Scrub(t)));
            }
        }
        None => {}
    }
}

/// The button is down, or was pressed since the last frame (a click
/// quicker than a slow frame is down and up again before the frame).
fn held(b: MouseButton) -> bool {
    is_mouse_button_down(b) || is_mouse_button_pressed(b)
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
    // With variants, the drag works in the pane it started in (and moves
    // the thing in every pane).
    let shown = p.shown();
    let Some((_, sim, pcam)) = scene::pane_at(&shown, cam, from) else {
        return;
    };
    let cam = &pcam;
    match sim {
        AnySim::Path(ps) => {
            if let (Some((_, a)), Some((_, b))) = (
                scene::tile_cell_at(sim, cam, from),
                scene::tile_cell_at(sim, cam, m),
            ) {
                if a == ps.config().goal {
                    cmds.push(Cmd::Intervene(Input::MoveGoal { to: b }));
                } else if a == ps.config().start {
                    cmds.push(Cmd::Intervene(Input::MoveStart { to: b }));
                }
            }
        }
        AnySim::Line(ls) => {
            if let (Some(a), Some(b)) = (
                scene::line_cell_at(sim, cam, from),
                scene::line_cell_at(sim, cam, m),
            ) {
                if let Some(t) = ls.state().targets.iter().position(|&t| t == a) {
                    cmds.push(Cmd::Intervene(Input::MoveTarget {
                        target: t as u32,
                        to: b,
                    }));
                } else if let Some(c) = ls.state().chasers.iter().position(|c| c.pos == a) {
                    cmds.push(Cmd::Intervene(Input::MoveChaser {
                        chaser: c as u32,
                        to: b,
                    }));
                }
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
        AnySim::Custom(_) | AnySim::Panes(_) => {}
    }
}
