//! The viewer's state machine: the lesson picker, the player of one lesson
//! or replay, the error shown in the window, the help overlay, presenter
//! scale. Every key and mouse action becomes a [`Cmd`]; [`App::handle`]
//! applies it. No window, no clock, no floating point: tests drive it
//! with commands and frame times and look at the result.
#![deny(clippy::float_arithmetic)]

use super::session::Session;
use super::timeline::{Command, Mark, Timeline};
use crate::lesson::{BUNDLED, Lesson};
use crate::num::{Angle, Fx};
use crate::replay::run::Source;
use crate::scene::{self, Camera, View, Viewport};
use crate::sim::{AnySim, Cell, Input};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The keys that toggle overlays, in the order of the sim's overlay list
/// (the help overlay shows which is which).
pub const OVERLAY_KEYS: [&str; 18] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "Q", "W", "E", "R", "T", "Y", "U", "I",
];

/// The overlays of a sim, as lessons name them.
pub fn overlays_of(sim: &str) -> &'static [&'static str] {
    match sim {
        "flock" => crate::lesson::FLOCK_OVERLAYS,
        "path" => crate::lesson::PATH_OVERLAYS,
        _ => crate::lesson::LINE_OVERLAYS,
    }
}

/// The overlays shown when the current beat names none.
pub fn default_overlays(sim: &str) -> &'static [&'static str] {
    match sim {
        "flock" => &[
            "boids",
            "velocity",
            "view_radius",
            "neighbours",
            "separation",
            "alignment",
            "cohesion",
            "obstacle",
            "cruising",
            "steering",
        ],
        "path" => &[
            "heights",
            "walls",
            "cliffs",
            "open",
            "closed",
            "current",
            "path",
            "open_list",
            "expansions",
            "costs",
        ],
        _ => &[
            "grid",
            "heights",
            "ideal_line",
            "plan",
            "walked",
            "sight",
            "formula",
            "error_table",
        ],
    }
}

/// One entry of the lesson picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The lesson id.
    pub id: String,
    /// Its sim.
    pub sim: String,
    /// Its title.
    pub title: String,
    /// Its summary.
    pub summary: String,
}

/// The bundled lessons, grouped by sim (flock, line, path), then by id.
pub fn picker_entries() -> Vec<Entry> {
    let mut v: Vec<Entry> = BUNDLED
        .iter()
        .filter_map(|b| {
            let l = Lesson::parse(b.source, b.path).ok()?;
            Some(Entry {
                id: l.id,
                sim: l.scenario.sim_name().to_owned(),
                title: l.title,
                summary: l.summary,
            })
        })
        .collect();
    v.sort_by(|a, b| (&a.sim, &a.id).cmp(&(&b.sim, &b.id)));
    v
}

/// What a teacher can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// A clock command (play, step, scrub, speed, beats, restart).
    Time(Command),
    /// Real time passed (microseconds since the last frame).
    Frame(u64),
    /// Toggle the overlay at this index of the sim's list.
    ToggleOverlay(usize),
    /// Inspect a boid or chaser (or nothing).
    Select(Option<u32>),
    /// The cell under the mouse.
    Hover(Option<Cell>),
    /// Turn the 3-D camera (degrees around the vertical, degrees of tilt).
    Orbit(i32, i32),
    /// Zoom in (positive) or out (negative) by steps of 10 %.
    Zoom(i32),
    /// Presenter mode: larger (+1) or smaller (−1) text, 10 % a step.
    TextScale(i32),
    /// Show or hide the help overlay.
    Help,
    /// Back to the picker (or dismiss an error).
    Back,
    /// Move the picker's selection.
    PickerMove(i32),
    /// Open the selected (or the given) picker entry.
    PickerOpen(Option<usize>),
    /// An intervention at the current tick.
    Intervene(Input),
    /// Save the session as a replay.
    Save(PathBuf),
    /// Record the session as a replay in memory, to be handed to the
    /// user under this file name (the web build's download).
    Download(String),
    /// Open a file given as bytes (dropped on the window or picked on the
    /// web page): a replay or a lesson, told apart as on the command line.
    OpenFile {
        /// Its name, for messages.
        name: String,
        /// Its contents.
        bytes: Vec<u8>,
    },
    /// Close the window.
    Quit,
}

/// The lesson or replay being played.
pub struct Player {
    /// What is watched.
    pub session: Session,
    /// Its clock.
    pub timeline: Timeline,
    /// Overlays the teacher switched on or off, against the beat's choice
    /// (cleared when the beat changes).
    pub toggled: BTreeSet<String>,
    /// The inspected boid or chaser.
    pub selected: Option<u32>,
    /// The cell under the mouse.
    pub hover: Option<Cell>,
    /// 3-D camera.
    pub yaw: Angle,
    /// 3-D camera tilt.
    pub pitch: Angle,
    /// Zoom in percent.
    pub zoom: i32,
    beat: Option<usize>,
}

impl Player {
    /// A player at the session's first tick.
    pub fn new(session: Session) -> Player {
        let marks: Vec<Mark> = session
            .lesson
            .beats
            .iter()
            .map(|b| Mark {
                at: b.at,
                pause: b.pause,
            })
            .collect();
        let tick_us = match session.sim() {
            AnySim::Flock(_) => {
                // dt seconds → microseconds, exactly: dt · 10⁶ rounded.
                let bits = session.sim().dt().to_bits() as i128;
                ((bits * 1_000_000 + (1 << 31)) >> 32).max(1) as u64
            }
            _ => 250_000,
        };
        let mut timeline = Timeline::new(session.last_tick(), tick_us, &marks);
        let first = session.first_tick();
        if first > 0 {
            timeline.apply(Command::Scrub(first));
        }
        let cam = Camera::fit(Viewport {
            x: 0,
            y: 0,
            w: 1,
            h: 1,
        });
        let mut p = Player {
            session,
            timeline,
            toggled: BTreeSet::new(),
            selected: None,
            hover: None,
            yaw: cam.yaw,
            pitch: cam.pitch,
            zoom: 100,
            beat: None,
        };
        p.beat = p.timeline.beat();
        p
    }

    /// The overlays in force: the beat's (or the sim's defaults) with the
    /// teacher's toggles applied.
    pub fn overlays(&self) -> BTreeSet<String> {
        let sim = self.session.sim().sim_name();
        let beat = self
            .timeline
            .beat()
            .and_then(|i| self.session.lesson.beats.get(i));
        let mut on: BTreeSet<String> = match beat.filter(|b| !b.overlays.is_empty()) {
            Some(b) => b.overlays.iter().cloned().collect(),
            None => default_overlays(sim)
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
        };
        for t in &self.toggled {
            if !on.remove(t) {
                on.insert(t.clone());
            }
        }
        on
    }

    /// The view the scene is built with.
    pub fn view(&self, text_scale: u16) -> View {
        let beat = self
            .timeline
            .beat()
            .and_then(|i| self.session.lesson.beats.get(i));
        View {
            overlays: self.overlays(),
            selected: self.selected,
            hover: self.hover,
            highlight: beat.map(|b| b.highlight.clone()).unwrap_or_default(),
            text_scale,
        }
    }

    /// The camera for a scene viewport.
    pub fn camera(&self, viewport: Viewport) -> Camera {
        Camera {
            viewport,
            yaw: self.yaw,
            pitch: self.pitch,
            zoom: Fx::from_ratio(i64::from(self.zoom), 100).unwrap_or(Fx::ONE),
        }
    }

    /// The boids whose reasoning the overlays need.
    fn watch(&self) -> Vec<u32> {
        match self.selected {
            Some(s) => vec![s],
            None => self.view(100).highlighted("boid"),
        }
    }

    /// Brings the session to the timeline's tick.
    fn sync(&mut self) -> Result<(), String> {
        if self.timeline.beat() != self.beat {
            self.beat = self.timeline.beat();
            self.toggled.clear();
        }
        let t = self.timeline.tick();
        if t == self.session.tick() {
            return self.refresh_trail();
        }
        let watch = self.watch();
        if let Err(m) = self.session.seek(t, &watch) {
            // Stay where the session is.
            self.timeline.apply(Command::Scrub(self.session.tick()));
            if self.timeline.playing() {
                self.timeline.apply(Command::TogglePlay);
            }
            return Err(m);
        }
        self.refresh_trail()
    }

    fn refresh_trail(&mut self) -> Result<(), String> {
        if self.overlays().contains("trails") {
            self.session.ensure_trail()
        } else {
            Ok(())
        }
    }

    /// Traces the current tick again (after the inspected boid changed).
    fn retrace(&mut self) -> Result<(), String> {
        let t = self.session.tick();
        if t == self.session.first_tick() {
            return Ok(());
        }
        let watch = self.watch();
        self.session.seek(t - 1, &[])?;
        self.session.seek(t, &watch)
    }

    /// A scene of the current tick.
    pub fn scene(&self, viewport: Viewport, text_scale: u16) -> scene::Scene {
        let view = self.view(text_scale);
        let frame = scene::Frame {
            sim: self.session.sim(),
            explain: self.session.explain().as_scene(),
            trail: if view.on("trails") {
                self.session.trail()
            } else {
                &[]
            },
        };
        scene::build(&frame, &view, &self.camera(viewport))
    }
}

/// Which screen is up.
pub enum Screen {
    /// The lesson picker.
    Picker,
    /// A lesson or replay.
    Player(Box<Player>),
}

/// The whole viewer.
pub struct App {
    /// The screen up.
    pub screen: Screen,
    /// The picker's lessons.
    pub entries: Vec<Entry>,
    /// The picker's selection.
    pub picked: usize,
    /// A problem to show in the window (also printed on standard error
    /// by the window) until dismissed.
    pub error: Option<String>,
    /// A passing remark (a saved file).
    pub status: Option<String>,
    /// Text size in percent.
    pub text_scale: u16,
    /// Whether the help overlay is up.
    pub help: bool,
    /// Whether the window should close.
    pub quit: bool,
    /// A recorded session waiting to be downloaded (file name, bytes).
    pub download: Option<(String, Vec<u8>)>,
}

impl Default for App {
    fn default() -> App {
        App::new()
    }
}

impl App {
    /// The picker.
    pub fn new() -> App {
        App {
            screen: Screen::Picker,
            entries: picker_entries(),
            picked: 0,
            error: None,
            status: None,
            text_scale: 100,
            help: false,
            quit: false,
            download: None,
        }
    }

    /// Opens a lesson (path or bundled id) or a replay (`.fsr`); on failure
    /// the picker is shown with the error.
    pub fn open(&mut self, arg: &str, overrides: &[String]) {
        self.show(open_session(arg, overrides));
    }

    /// Plays a session that opened, or shows why it did not over the
    /// picker.
    fn show(&mut self, opened: Result<Session, String>) {
        match opened {
            Ok(s) => {
                self.screen = Screen::Player(Box::new(Player::new(s)));
                self.error = None;
            }
            Err(m) => {
                self.screen = Screen::Picker;
                self.error = Some(m);
            }
        }
    }

    /// The player, if one is up.
    pub fn player(&self) -> Option<&Player> {
        match &self.screen {
            Screen::Player(p) => Some(p),
            Screen::Picker => None,
        }
    }

    /// Applies a command.
    pub fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Quit => self.quit = true,
            Cmd::Help => self.help = !self.help,
            Cmd::TextScale(d) => {
                self.text_scale = (i32::from(self.text_scale) + 10 * d).clamp(60, 300) as u16;
            }
            Cmd::Back => {
                if self.error.is_some() {
                    self.error = None;
                } else if self.help {
                    self.help = false;
                } else if matches!(self.screen, Screen::Player(_)) {
                    self.screen = Screen::Picker;
                    self.status = None;
                } else {
                    self.quit = true;
                }
            }
            Cmd::PickerMove(d) => {
                if !self.entries.is_empty() {
                    let n = self.entries.len() as i64;
                    self.picked = (self.picked as i64 + i64::from(d)).rem_euclid(n) as usize;
                }
            }
            Cmd::OpenFile { name, bytes } => {
                self.status = None;
                self.show(open_bytes(&name, bytes));
            }
            Cmd::PickerOpen(i) => {
                if let Some(e) = self.entries.get(i.unwrap_or(self.picked)).cloned() {
                    self.picked = i.unwrap_or(self.picked);
                    self.open(&e.id, &[]);
                }
            }
            other => self.handle_player(other),
        }
    }

    fn handle_player(&mut self, cmd: Cmd) {
        let Screen::Player(p) = &mut self.screen else {
            return;
        };
        let result: Result<(), String> = match cmd {
            Cmd::Time(c) => {
                p.timeline.apply(c);
                p.sync()
            }
            Cmd::Frame(us) => {
                p.timeline.advance(us);
                p.sync()
            }
            Cmd::ToggleOverlay(i) => {
                if let Some(name) = overlays_of(p.session.sim().sim_name()).get(i) {
                    let name = (*name).to_owned();
                    if !p.toggled.remove(&name) {
                        p.toggled.insert(name);
                    }
                }
                p.refresh_trail()
            }
            Cmd::Select(s) => {
                if p.selected == s {
                    Ok(())
                } else {
                    p.selected = s;
                    p.retrace()
                }
            }
            Cmd::Hover(c) => {
                p.hover = c;
                Ok(())
            }
            Cmd::Orbit(dy, dp) => {
                p.yaw = p.yaw.add_turn(deg_units(dy));
                let pitch = (p.pitch.add_turn(deg_units(dp)).0 as i32).clamp(
                    -(Angle::from_degrees_int(85).0 as i32),
                    Angle::from_degrees_int(85).0 as i32,
                );
                p.pitch = Angle(pitch as u32);
                Ok(())
            }
            Cmd::Zoom(d) => {
                p.zoom = (p.zoom + 10 * d).clamp(20, 800);
                Ok(())
            }
            Cmd::Intervene(input) => {
                let r = p.session.intervene(input);
                if r.is_ok() {
                    p.timeline.extend_to(p.session.last_tick());
                }
                r
            }
            Cmd::Save(path) => match p.session.save(&path) {
                Ok(bytes) => {
                    self.status = Some(format!("saved {} ({bytes} bytes)", path.display()));
                    Ok(())
                }
                Err(m) => Err(format!("could not save the session: {m}")),
            },
            Cmd::Download(name) => match p.session.save_bytes() {
                Ok(bytes) => {
                    self.status = Some(format!("downloading {name} ({} bytes)", bytes.len()));
                    self.download = Some((name, bytes));
                    Ok(())
                }
                Err(m) => Err(format!("could not save the session: {m}")),
            },
            _ => Ok(()),
        };
        if let Err(m) = result {
            self.error = Some(m);
        }
    }
}

/// The app `flockstep render` draws: `target` opened at `tick`, with
/// exactly `overlays` (empty: the beat's), boid or chaser `select`
/// inspected, at a text scale. Errors name the problem (an unknown
/// overlay lists the known ones).
pub fn prepare_render(
    target: &str,
    overrides: &[String],
    tick: u64,
    overlays: &[String],
    select: Option<u32>,
    text_scale: u16,
) -> Result<App, String> {
    let session = open_session(target, overrides)?;
    let (first, last) = (session.first_tick(), session.last_tick());
    if tick < first || tick > last {
        return Err(format!(
            "{target}: tick {tick} is outside ticks {first}..={last}"
        ));
    }
    let sim = session.sim().sim_name();
    let known = overlays_of(sim);
    if let Some(o) = overlays.iter().find(|o| !known.contains(&o.as_str())) {
        return Err(format!(
            "unknown overlay `{o}` for sim {sim}; known overlays: {}",
            known.join(", ")
        ));
    }
    let mut p = Player::new(session);
    if let Some(s) = select {
        let n = match p.session.sim() {
            AnySim::Flock(f) => crate::sim::Sim::state(&**f).boids.len(),
            AnySim::Line(l) => crate::sim::Sim::state(l).chasers.len(),
            AnySim::Path(_) => 0,
        };
        if s as usize >= n {
            return Err(format!(
                "--select {s}: the {sim} scenario has {n} selectable entities"
            ));
        }
        p.selected = Some(s);
    }
    p.timeline.apply(Command::Scrub(tick));
    p.sync()?;
    if !overlays.is_empty() {
        let want: BTreeSet<String> = overlays.iter().cloned().collect();
        let now = p.overlays();
        p.toggled = now.symmetric_difference(&want).cloned().collect();
        p.refresh_trail()?;
    }
    let mut app = App::new();
    app.text_scale = text_scale;
    app.screen = Screen::Player(Box::new(p));
    Ok(app)
}

/// Binary-angle units of a whole number of degrees.
fn deg_units(deg: i32) -> i32 {
    Angle::from_degrees_int(i64::from(deg)).0 as i32
}

/// A session for a command-line argument: a replay if it ends in `.fsr`
/// (or starts with the replay magic), else a lesson file or bundled id.
pub fn open_session(arg: &str, overrides: &[String]) -> Result<Session, String> {
    let path = std::path::Path::new(arg);
    if is_replay(path) {
        if !overrides.is_empty() {
            return Err(format!("{arg}: --set applies to lessons, not to replays"));
        }
        return Session::replay_file(path);
    }
    let (text, file) = crate::lesson::source_of(arg)?;
    Session::lesson(Source {
        file,
        text,
        overrides: overrides.to_vec(),
    })
}

/// A session for a file's bytes (dropped on the window, or opened on the
/// web page): the same decision and the same messages as
/// [`open_session`] on a file of that name with those bytes.
pub fn open_bytes(name: &str, bytes: Vec<u8>) -> Result<Session, String> {
    if name.ends_with(".fsr") || bytes.starts_with(&REPLAY_MAGIC) {
        return Session::replay_from(Box::new(std::io::Cursor::new(bytes)), name);
    }
    let text = crate::lesson::lesson_text(name, bytes)?;
    Session::lesson(Source {
        file: name.to_owned(),
        text,
        overrides: Vec::new(),
    })
}

/// The first bytes of every replay file.
const REPLAY_MAGIC: [u8; 4] = [0x89, b'F', b'S', b'R'];

/// Whether a path names a replay: by its extension, or by its first bytes.
pub fn is_replay(path: &std::path::Path) -> bool {
    if path.extension().is_some_and(|e| e == "fsr") {
        return true;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && head == REPLAY_MAGIC
}

/// Where the window's parts go, in pixels, for a window of `w`×`h` at a
/// text scale (percent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The status line at the top.
    pub top: Viewport,
    /// The scene.
    pub scene: Viewport,
    /// The side panel (panels, legend).
    pub side: Viewport,
    /// The narration box.
    pub narration: Viewport,
    /// The scrub bar.
    pub scrub: Viewport,
}

impl Layout {
    /// The layout of a window.
    pub fn of(w: i32, h: i32, text_scale: u16) -> Layout {
        let s = i32::from(text_scale);
        let top_h = 30 * s / 100;
        let scrub_h = 34;
        let narr_h = (76 * s / 100).min(h / 4);
        let side_w = (360 * s / 100).min(w * 2 / 5);
        let body_h = (h - top_h - scrub_h - narr_h).max(1);
        Layout {
            top: Viewport {
                x: 0,
                y: 0,
                w,
                h: top_h,
            },
            scene: Viewport {
                x: 0,
                y: top_h,
                w: (w - side_w).max(1),
                h: body_h,
            },
            side: Viewport {
                x: w - side_w,
                y: top_h,
                w: side_w,
                h: body_h,
            },
            narration: Viewport {
                x: 0,
                y: top_h + body_h,
                w,
                h: narr_h,
            },
            scrub: Viewport {
                x: 0,
                y: h - scrub_h,
                w,
                h: scrub_h,
            },
        }
    }

    /// The tick under a point of the scrub bar.
    pub fn scrub_tick(&self, x: i32, first: u64, last: u64) -> u64 {
        let bar = self.scrub_bar();
        let x = (x - bar.x).clamp(0, bar.w) as u64;
        first + (last - first) * x / bar.w.max(1) as u64
    }

    /// The scrub bar's track inside its strip.
    pub fn scrub_bar(&self) -> Viewport {
        Viewport {
            x: self.scrub.x + 16,
            y: self.scrub.y + self.scrub.h / 2 - 4,
            w: (self.scrub.w - 32).max(1),
            h: 8,
        }
    }

    /// The x of a tick on the scrub bar.
    pub fn scrub_x(&self, tick: u64, first: u64, last: u64) -> i32 {
        let bar = self.scrub_bar();
        let span = (last - first).max(1);
        bar.x + (u128::from(tick.saturating_sub(first)) * bar.w as u128 / u128::from(span)) as i32
    }
}

/// Splits text into lines of at most `chars` characters at spaces.
pub fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.lines() {
        if para.chars().count() <= chars {
            out.push(para.to_owned());
            continue;
        }
        let mut line = String::new();
        for word in para.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > chars {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push(line);
    }
    out
}
