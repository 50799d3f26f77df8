//! The viewer's state machine: the lesson picker, the player of one lesson
//! or replay, the error shown in the window, the help overlay, presenter
//! scale. Every key and mouse action becomes a [`Cmd`]; [`App::handle`]
//! applies it. No window, no clock, no floating point: tests drive it
//! with commands and frame times and look at the result.
#![deny(clippy::float_arithmetic)]

use super::compare::{self, Compare};
pub use super::layout::{Layout, NARRATION_PX, Run, Style, literal, unliteral, wrap, wrap_rich};
use super::panel::Panel;
use super::session::Session;
use super::timeline::{Command, Mark, Timeline};
use crate::bundled::BUNDLED;
use crate::i18n::Lang;
use crate::lesson::Lesson;
use crate::lesson::sims;
use crate::num::{Angle, Fx, Vec3};
use crate::replay::live;
use crate::replay::run::Source;
use crate::scene::{self, Camera, View, Viewport};
use crate::sim::{AnySim, Cell, Input};
use crate::tr;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The keys that toggle overlays, in the order of the sim's overlay list
/// (the help overlay shows which is which).
pub const OVERLAY_KEYS: [&str; 18] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "Q", "W", "E", "R", "T", "Y", "U", "I",
];

/// The overlays of a sim, as lessons name them (none for a sim this
/// build does not know).
pub fn overlays_of(sim: &str) -> &'static [&'static str] {
    sims::by_name(sim).map_or(&[], |r| r.overlays())
}

/// The overlays shown when the current beat names none.
pub fn default_overlays(sim: &str) -> &'static [&'static str] {
    sims::by_name(sim).map_or(&[], |r| r.default_overlays())
}

/// One entry of the lesson picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The lesson id.
    pub id: String,
    /// Its sim.
    pub sim: String,
    /// Its title, by language (`None`: English).
    pub title: BTreeMap<Option<String>, String>,
    /// Its summary, by language.
    pub summary: BTreeMap<Option<String>, String>,
    /// Its place in its sim's course, if it has one.
    pub place: Option<u32>,
}

/// The bundled lessons, grouped by sim (flock, line, path), each sim's in
/// course order ([`Lesson::listing_key`]).
pub fn picker_entries() -> Vec<Entry> {
    let mut lessons: Vec<Lesson> = BUNDLED
        .iter()
        .filter_map(|b| Lesson::parse(b.source(), b.path).ok())
        .collect();
    lessons.sort_by(|a, b| a.listing_key().cmp(&b.listing_key()));
    lessons
        .into_iter()
        .map(|l| Entry {
            place: l.course.as_ref().map(|c| c.1),
            sim: l.scenario.sim_name().to_owned(),
            id: l.id,
            title: by_lang(l.title, l.title_translations),
            summary: by_lang(l.summary, l.summary_translations),
        })
        .collect()
}

/// A text in English (key `None`) and its translations.
fn by_lang(
    english: String,
    translations: BTreeMap<String, String>,
) -> BTreeMap<Option<String>, String> {
    let mut out: BTreeMap<Option<String>, String> = translations
        .into_iter()
        .map(|(k, v)| (Some(k), v))
        .collect();
    out.insert(None, english);
    out
}

impl Entry {
    /// The title in `lang`, else in English.
    pub fn title_in(&self, lang: Option<&str>) -> &str {
        self.title
            .get(&lang.map(str::to_owned))
            .or_else(|| self.title.get(&None))
            .map_or("", String::as_str)
    }

    /// The summary in `lang`, else in English.
    pub fn summary_in(&self, lang: Option<&str>) -> &str {
        self.summary
            .get(&lang.map(str::to_owned))
            .or_else(|| self.summary.get(&None))
            .map_or("", String::as_str)
    }
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
    /// Show a pane's panels, of a lesson's variants.
    Pane(u32),
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
    /// The next narration language (English, then each translation; L).
    Language,
    /// The window wrapped the narration into this many pages.
    Pages(usize),
    /// Scroll the picker by rows (the mouse wheel).
    PickerScroll(i32),
    /// Scroll the side panel by lines (the wheel over it).
    SideScroll(i32),
    /// Answer to the restart prompt: the lesson as written.
    RestartAsWritten,
    /// Answer to the restart prompt: the run with its interventions, from
    /// tick 0.
    RestartKeep,
    /// Back to the picker (or dismiss an error).
    Back,
    /// Move the picker's selection.
    PickerMove(i32),
    /// Open the selected (or the given) picker entry.
    PickerOpen(Option<usize>),
    /// An intervention at the current tick.
    Intervene(Input),
    /// The parameter panel: open or close it, choose a control, change a
    /// value (a recorded [`Input::Set`]).
    Panel(PanelCmd),
    /// The map brush on or off (M; path and line lessons): the mouse
    /// paints walls and heights, each cell a recorded [`Input::Ground`].
    Brush,
    /// Save the session as a replay.
    Save(PathBuf),
    /// Record the session as a replay in memory, to be handed to the
    /// user under this file name (the web build's download).
    Download(String),
    /// Save the what-if (the lesson with the parameters, map and moves in
    /// force) as a new lesson file (Ctrl+L).
    SaveLesson(PathBuf),
    /// The same, handed to the user under this name (the web build's
    /// download).
    DownloadLesson(String),
    /// Open a file given as bytes (dropped on the window or picked on the
    /// web page): a replay or a lesson, told apart as on the command line.
    OpenFile {
        /// Its name, for messages.
        name: String,
        /// Its contents.
        bytes: Vec<u8>,
    },
    /// Two files given together (dropped on the window, or picked on
    /// the web page): their runs side by side.
    CompareFiles {
        /// Run a's file name and contents.
        a: (String, Vec<u8>),
        /// Run b's.
        b: (String, Vec<u8>),
    },
    /// Two runs compared: go to the first divergence, then to each next
    /// tick at which another entity starts to differ (D).
    Diverge,
    /// Close the window.
    Quit,
}

/// What the parameter panel is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelCmd {
    /// Open or close it (P).
    Toggle,
    /// Select the control this many rows down (Up/Down while open).
    Move(i32),
    /// Step the selected control's value (`,` and `.`).
    Step(i32),
    /// Set control `control` to the value at `index` of its ladder (a
    /// click or drag on its slider); selects it.
    Set {
        /// The control.
        control: usize,
        /// The value's index.
        index: usize,
    },
    /// The selected control back to the lesson's value (Backspace).
    Reset,
    /// Changes go to the next pane: every pane, then each (Tab).
    Pane,
}

/// How long the camera takes to ease to a beat's framing, in microseconds.
pub const EASE_US: u64 = 600_000;

/// The camera's zoom range in percent (the wheel's; a lesson's `zoom` may
/// ask for the same range).
pub const ZOOM: (i32, i32) = (20, 3200);

/// Where the camera looks: zoom (1 fits the world) and the point at the
/// viewport's centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pose {
    /// Zoom.
    pub zoom: Fx,
    /// The centre (world units for flocks, cells for grids).
    pub center: Vec3,
    /// 3-D flocks: the turn around the vertical.
    pub yaw: Angle,
    /// 3-D flocks: the tilt.
    pub pitch: Angle,
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
    /// The pane clicked last, of a lesson's variants (its panels show).
    pub pane: Option<u32>,
    /// The cell under the mouse.
    pub hover: Option<Cell>,
    /// 3-D camera.
    pub yaw: Angle,
    /// 3-D camera tilt.
    pub pitch: Angle,
    /// The teacher's zoom in percent (on top of the beat's).
    pub zoom: i32,
    /// The narration language (`None`: English).
    pub lang: Option<String>,
    /// The page of the current beat's narration shown (long narration
    /// pages; PgDn shows the next page before the next beat).
    pub page: usize,
    /// How many pages the narration has at the window's size (the window
    /// tells after wrapping it).
    pub pages: usize,
    /// How far the side panel is scrolled, in lines (when it overflows).
    pub side_scroll: usize,
    beat: Option<usize>,
    /// The boids the current explain record was traced for.
    traced: Vec<u32>,
    /// The camera pose easing is leaving, and the time left.
    ease: Option<(Pose, u64)>,
    /// The parameter panel's controls and choices.
    pub panel: Panel,
    /// Whether the panel is shown.
    pub panel_open: bool,
    /// Whether the mouse paints the map (path and line lessons).
    pub brush: bool,
    /// Run b, when two runs are compared side by side (the session is
    /// run a).
    pub compare: Option<Box<Compare>>,
}

impl Player {
    /// Does what the panel is asked; a change of a value is the input
    /// to make (it is refused, like any intervention, on a replay).
    fn panel_change(&mut self, c: PanelCmd) -> Option<Input> {
        let n = self.panel.controls.len();
        let (inputs, tick) = (self.session.applied(), self.session.in_force_until());
        match c {
            PanelCmd::Toggle => self.panel_open = !self.panel_open,
            PanelCmd::Move(d) if n > 0 => {
                self.panel.selected =
                    (self.panel.selected as i64 + i64::from(d)).rem_euclid(n as i64) as usize;
            }
            PanelCmd::Pane => self.panel.next_pane(),
            PanelCmd::Step(by) if n > 0 => {
                return self.panel.step(self.panel.selected, by, inputs, tick);
            }
            PanelCmd::Reset if n > 0 => return self.panel.reset(self.panel.selected, inputs, tick),
            PanelCmd::Set { control, index } if control < n => {
                self.panel.selected = control;
                let now = self.panel.current(control, inputs, tick);
                return (now != index).then(|| self.panel.set(control, index));
            }
            PanelCmd::Move(_) | PanelCmd::Step(_) | PanelCmd::Reset | PanelCmd::Set { .. } => {}
        }
        None
    }

    /// A player at the session's first tick.
    pub fn new(session: Session) -> Player {
        Player::with(session, None)
    }

    /// Two runs side by side, at run a's first tick: run a is `session`,
    /// run b `compare`'s; the timeline ends at the last tick both have.
    pub fn comparing(session: Session, compare: Compare) -> Player {
        Player::with(session, Some(Box::new(compare)))
    }

    fn with(session: Session, compare: Option<Box<Compare>>) -> Player {
        let marks: Vec<Mark> = session
            .lesson
            .beats
            .iter()
            .map(|b| Mark {
                at: b.at,
                pause: b.pause,
            })
            .collect();
        let rate = session
            .lesson
            .rate
            .unwrap_or_else(|| session.lesson.sim.default_rate());
        let tick_us = 1_000_000 / u64::from(rate.max(1));
        let last = compare.as_ref().map_or(session.last_tick(), |c| c.last());
        let mut timeline = Timeline::new(last, tick_us, &marks);
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
        let panel = Panel::of(&session.lesson, &session.source);
        let mut p = Player {
            session,
            timeline,
            toggled: BTreeSet::new(),
            selected: None,
            pane: None,
            hover: None,
            yaw: cam.yaw,
            pitch: cam.pitch,
            zoom: 100,
            lang: None,
            page: 0,
            pages: 1,
            side_scroll: 0,
            beat: None,
            traced: Vec::new(),
            ease: None,
            panel,
            panel_open: false,
            brush: false,
            compare,
        };
        p.beat = p.timeline.beat();
        p.turn_camera();
        p.invite();
        p.traced = p.watch();
        if !p.traced.is_empty() {
            // The session explained its first tick for no boid in
            // particular; explain it for the beat's focus.
            let _ = p.retrace();
        }
        p
    }

    /// The beat shown, if any.
    pub fn beat(&self) -> Option<&crate::lesson::Beat> {
        self.timeline
            .beat()
            .and_then(|i| self.session.lesson.beats.get(i))
    }

    /// Whether the coming step is withheld: on a question's beat at its
    /// tick; for a line or path, also on the beats leading up to a question
    /// at the same tick (their coming step — the next cell, the next
    /// expansion — is the answer). A flock's beats before a question keep
    /// the coming step's rule arrows: they are the question's premise.
    fn asks_at_this_tick(&self) -> bool {
        let tick = self.session.tick();
        let Some(rest) = self
            .timeline
            .beat()
            .and_then(|i| self.session.lesson.beats.get(i..))
        else {
            return false;
        };
        let upto = if self.session.lesson.sim.id() == sims::FLOCK {
            1
        } else {
            rest.len()
        };
        rest.iter()
            .take(upto)
            .take_while(|b| b.at == tick)
            .any(|b| b.question.is_some())
    }

    /// The overlays in force: the beat's (or the sim's defaults) with the
    /// teacher's toggles applied.
    pub fn overlays(&self) -> BTreeSet<String> {
        let sim = self.session.sim().sim_name();
        let mut on: BTreeSet<String> = match self.beat().filter(|b| !b.overlays.is_empty()) {
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

    /// The narration shown: the beat's text in the chosen language (or
    /// English), or the lesson's summary before the first beat.
    pub fn narration(&self) -> String {
        let lang = self.lang.as_deref();
        match self.beat() {
            // Once the class tried the beat's what-if, what to look for.
            Some(b) if self.tried() && b.after.is_some() => {
                format!(
                    "{}\n\n{}",
                    b.text_in(lang),
                    b.after_in(lang).unwrap_or_default()
                )
            }
            Some(b) => b.text_in(lang).to_owned(),
            None => self.session.lesson.summary_in(lang).to_owned(),
        }
    }

    /// The current beat's question, with its label, in the chosen
    /// language: the class predicts before the next beat answers.
    pub fn question(&self) -> Option<String> {
        let lang = self.lang.as_deref();
        let q = self.beat()?.question_in(lang)?;
        Some(format!("{} {q}", question_label(lang)))
    }

    /// The title the status line shows, in the narration's language: the
    /// beat's own, else on a question's beat the lesson's predict title
    /// (a title that does not give the answer away), else the lesson's.
    pub fn title(&self) -> &str {
        let (lesson, lang) = (&self.session.lesson, self.lang.as_deref());
        match self.beat() {
            Some(b) if b.title.is_some() => b.title_in(lang).unwrap_or_default(),
            Some(b) if b.question.is_some() => lesson.predict_title_in(lang),
            _ => lesson.title_in(lang),
        }
    }

    /// The view the scene is built with, at a scale in percent.
    pub fn view(&self, scale: u16) -> View {
        let beat = self.beat();
        let lesson = &self.session.lesson;
        let mut names = lesson.names.clone();
        // Variants title panes, a path lesson's labels title searches.
        let kind = match lesson.scenario {
            crate::sim::Scenario::Path(_) => "search",
            _ => "pane",
        };
        let (changed, params) = self.changed_params();
        for (i, p) in lesson.panes.iter().enumerate() {
            let mut title = p.name_in(self.lang.as_deref()).to_owned();
            // A pane whose parameters a what-if changed says so.
            if let Some(c) = changed.get(i).filter(|c| !c.is_empty()) {
                title = format!("{title} → {}", c.join(", "));
            }
            names.insert(format!("{kind}:{i}"), title);
        }
        let mut highlight = beat.map(|b| b.highlight.clone()).unwrap_or_default();
        if let Some(c) = &self.compare {
            for (i, name) in self.compared_names().into_iter().enumerate() {
                names.insert(format!("pane:{i}"), name);
            }
            // The tick being shown, or about to be (a seek traces them).
            highlight.extend(c.ringed(self.timeline.tick()).iter().cloned());
        }
        let parted = self
            .compare
            .as_ref()
            .map(|c| c.ringed(self.timeline.tick()).to_vec())
            .unwrap_or_default();
        View {
            overlays: self.overlays(),
            selected: self.selected,
            pane: self.pane,
            hover: self.hover,
            highlight,
            focus: beat.map(|b| b.focus.clone()).unwrap_or_default(),
            names,
            scale,
            withhold_next: self.asks_at_this_tick(),
            asking: beat.is_some_and(|b| b.question.is_some()),
            rule_scale: None,
            lang: Lang::of(self.lang.as_deref()),
            callouts: beat
                .map(|b| {
                    b.callouts
                        .iter()
                        .map(|c| scene::ShownCallout {
                            at: c.at.clone(),
                            pane: c.pane,
                            text: c.text_in(self.lang.as_deref()).to_owned(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            params,
            tile: 0,
            parted,
        }
    }

    /// Where the beat wants the camera: its zoom, and its centre — the
    /// beat's `center`, else the focus when zoomed in, else the world's.
    pub fn target_pose(&self) -> Pose {
        let sim = self.session.sim();
        let beat = self.beat();
        let zoom = beat.and_then(|b| b.zoom).unwrap_or(100);
        let center = match beat.and_then(|b| b.center) {
            Some([x, y, z]) => Vec3::new(fx_int(x), fx_int(y), fx_int(z)),
            None => (zoom > 100)
                .then(|| scene::focus_center(sim, &self.view(100)))
                .flatten()
                .unwrap_or_else(|| scene::home_center(sim)),
        };
        Pose {
            zoom: Fx::from_ratio(i64::from(zoom), 100).unwrap_or(Fx::ONE),
            center,
            yaw: self.yaw,
            pitch: self.pitch,
        }
    }

    /// Where each side-by-side pane looks when a beat zooms in on its
    /// focus without a `center`: at its own copy of the focused entities,
    /// offset as the shared pose is from the focused pane's (so the ease
    /// moves every pane alike). `None` for a pane with no copy in view.
    fn pane_centers(&self, pose: &Pose) -> [Option<Vec3>; crate::sim::MAX_PANES] {
        let mut out = [None; crate::sim::MAX_PANES];
        let shown = self.shown();
        let (sim, beat) = (&*shown, self.beat());
        let follows = beat.is_some_and(|b| b.center.is_none() && b.zoom.unwrap_or(100) > 100);
        let AnySim::Panes(panes) = sim else {
            return out;
        };
        if !follows {
            return out;
        }
        let view = self.view(100);
        let Some(mine) = scene::focus_center(sim, &view) else {
            return out;
        };
        for (slot, pane) in out.iter_mut().zip(panes) {
            *slot = scene::focus_center(pane, &view).map(|c| pose.center + (c - mine));
        }
        out
    }

    /// The pose drawn now: the beat's, or on the way to it from the last
    /// beat's (smoothstep over [`EASE_US`]).
    pub fn pose(&self) -> Pose {
        let to = self.target_pose();
        let Some((from, left)) = self.ease else {
            return to;
        };
        // s = 1 − left / EASE, eased as 3s² − 2s³, in fixed point.
        let s = Fx::ONE - Fx::from_ratio(left as i64, EASE_US as i64).unwrap_or(Fx::ZERO);
        let k = s * s * (Fx::from_int(3) - s.mul_int(2));
        let mix = |a: Fx, b: Fx| a.saturating_add((b.saturating_sub(a)).saturating_mul(k));
        // Angles the short way round.
        let turn = |a: Angle, b: Angle| {
            let d = i64::from(b.0.wrapping_sub(a.0) as i32);
            a.add_turn(((i128::from(k.to_bits()) * i128::from(d)) >> 32) as i32)
        };
        Pose {
            zoom: mix(from.zoom, to.zoom),
            center: Vec3::new(
                mix(from.center.x, to.center.x),
                mix(from.center.y, to.center.y),
                mix(from.center.z, to.center.z),
            ),
            yaw: turn(from.yaw, to.yaw),
            pitch: turn(from.pitch, to.pitch),
        }
    }

    /// The camera for a scene viewport, at a scale in percent.
    pub fn camera(&self, viewport: Viewport, scale: u16) -> Camera {
        let pose = self.pose();
        let zoom = pose
            .zoom
            .saturating_mul(Fx::from_ratio(i64::from(self.zoom), 100).unwrap_or(Fx::ONE));
        Camera {
            viewport,
            yaw: pose.yaw,
            pitch: pose.pitch,
            zoom,
            center: Some(pose.center),
            scale,
            pane_centers: self.pane_centers(&pose),
            side_view: self.session.lesson.sim.id() == sims::LINE
                && self.overlays().contains("profile"),
            callout_band: self.session.lesson.sim.id() == sims::PATH
                && self.beat().is_some_and(|b| {
                    b.callouts
                        .iter()
                        .any(|c| matches!(c.kind(), "world" | "search"))
                }),
        }
    }

    /// The boids whose reasoning the overlays need.
    fn watch(&self) -> Vec<u32> {
        if !matches!(self.session.sim().panes()[0], AnySim::Flock(_)) {
            return Vec::new();
        }
        self.view(100).focused("boid")
    }

    /// Brings the session to the timeline's tick (and beat).
    fn sync(&mut self) -> Result<(), String> {
        if self.timeline.beat() != self.beat {
            let from = self.pose();
            self.beat = self.timeline.beat();
            self.toggled.clear();
            self.page = 0;
            self.side_scroll = 0;
            self.turn_camera();
            self.invite();
            if self.target_pose() != from {
                self.ease = Some((from, EASE_US));
            }
        }
        let t = self.timeline.tick();
        let watch = self.watch();
        if t != self.session.tick() {
            if let Err(m) = self.session.seek(t, &watch) {
                // Stay where the session is.
                self.timeline.apply(Command::Scrub(self.session.tick()));
                if self.timeline.playing() {
                    self.timeline.apply(Command::TogglePlay);
                }
                return Err(m);
            }
            self.traced = watch;
        } else if watch != self.traced {
            // A beat of the same tick focuses other boids.
            self.retrace()?;
        }
        if let Some(c) = &mut self.compare {
            // The boids that differ are ringed, and their reasoning drawn,
            // in both panes.
            c.follow(&self.session, &self.traced)?;
        }
        self.refresh_history()
    }

    /// The parameters the what-ifs changed by the coming step, per pane
    /// (`KEY = VALUE`, the last change of each key), and each pane's
    /// parameters with those values (what a callout's `{param.KEY}`
    /// shows).
    fn changed_params(&self) -> (Vec<Vec<String>>, Vec<BTreeMap<String, String>>) {
        changed_params(&self.session)
    }

    /// A beat that invites a what-if (`try = "KEY"`) opens the parameter
    /// panel on that control and marks it; the next beat's invitation
    /// (or none) replaces it.
    fn invite(&mut self) {
        let key = self.beat().and_then(|b| b.try_key.clone());
        self.panel.invited = key.and_then(|k| self.panel.controls.iter().position(|c| c.key == k));
        if let Some(i) = self.panel.invited {
            self.panel.selected = i;
            self.panel_open = true;
            // A beat that highlights one pane (or search) invites a change
            // there.
            let panes: Vec<u32> = self
                .beat()
                .map(|b| {
                    b.highlight
                        .iter()
                        .filter_map(|h| {
                            h.strip_prefix("search:")
                                .or_else(|| h.strip_prefix("pane:"))
                        })
                        .filter_map(|n| n.parse().ok())
                        .collect()
                })
                .unwrap_or_default();
            if let [one] = panes[..]
                && one < self.panel.panes
            {
                self.panel.pane = Some(one);
            }
        }
    }

    /// Whether the class has tried the beat's what-if: changed its `try`
    /// key by the coming step.
    pub fn tried(&self) -> bool {
        let Some(key) = self.beat().and_then(|b| b.try_key.as_deref()) else {
            return false;
        };
        self.session
            .inputs
            .range(..=self.session.tick() + 1)
            .flat_map(|(_, l)| l)
            .any(|i| matches!(i, Input::Set { key: k, .. } if k == key))
    }

    /// Turns the 3-D camera as the beat shown asks (the first beat too);
    /// the teacher orbits on from there.
    fn turn_camera(&mut self) {
        if let Some(b) = self.beat() {
            let (yaw, pitch) = (b.yaw, b.pitch);
            if let Some(y) = yaw {
                self.yaw = Angle::from_degrees_int(i64::from(y));
            }
            if let Some(p) = pitch {
                self.pitch = Angle::from_degrees_int(i64::from(p));
            }
        }
    }

    /// Lets real time pass for the camera's easing.
    fn ease_by(&mut self, us: u64) {
        self.ease = self
            .ease
            .and_then(|(from, left)| (left > us).then(|| (from, left - us)));
    }

    /// The trails (flock) and walks (line) the overlays draw.
    fn refresh_history(&mut self) -> Result<(), String> {
        let on = self.overlays();
        let b = self.compare.as_mut().map(|c| &mut c.other);
        for s in std::iter::once(&mut self.session).chain(b) {
            if on.contains("trails") {
                s.ensure_trail()?;
            }
            if on.contains("walked") {
                s.ensure_walks()?;
            }
        }
        Ok(())
    }

    /// Traces the current tick again (after the inspected boid or the
    /// beat's focus changed).
    fn retrace(&mut self) -> Result<(), String> {
        let t = self.session.tick();
        let watch = self.watch();
        if t > self.session.first_tick() {
            self.session.seek(t - 1, &[])?;
        }
        self.session.seek(t, &watch)?;
        if let Some(c) = &mut self.compare {
            c.retrace(&watch)?;
        }
        self.traced = watch;
        Ok(())
    }

    /// The legend of the scene [`Player::scene`] would build.
    pub fn legend(&self, scale: u16) -> Vec<(scene::Rgba, String)> {
        scene::legend(self.session.sim(), &self.view(scale))
    }

    /// The panes drawn, each a session and its pane: run a's, or when two
    /// runs are compared, a's then b's (every variant of each when they
    /// fit [`crate::sim::MAX_PANES`] panes, else the first of each).
    pub fn shown_panes(&self) -> Vec<(&Session, usize)> {
        let Some(c) = &self.compare else {
            return (0..self.session.sim().panes().len())
                .map(|i| (&self.session, i))
                .collect();
        };
        let n = self.session.sim().panes().len();
        let each = if 2 * n <= crate::sim::MAX_PANES { n } else { 1 };
        let a = (0..each).map(|i| (&self.session, i));
        a.chain((0..each).map(|i| (&c.other, i))).collect()
    }

    /// The sim the scene lays out: run a's, or both runs' panes as one
    /// list of variants (what clicks and the camera place panes by).
    pub fn shown(&self) -> std::borrow::Cow<'_, AnySim> {
        if self.compare.is_none() {
            return std::borrow::Cow::Borrowed(self.session.sim());
        }
        let panes = self
            .shown_panes()
            .into_iter()
            .map(|(s, i)| s.sim().panes()[i].clone())
            .collect();
        std::borrow::Cow::Owned(AnySim::Panes(panes))
    }

    /// The compared panes' titles: `a · FILE` (and the variant's name).
    fn compared_names(&self) -> Vec<String> {
        let Some(c) = &self.compare else {
            return Vec::new();
        };
        let lang = Lang::of(self.lang.as_deref());
        let shown = self.shown_panes();
        let per = shown.len() / 2;
        shown
            .iter()
            .enumerate()
            .map(|(k, (s, i))| {
                let side = if k < per { 0 } else { 1 };
                let file = std::path::Path::new(&c.names[side])
                    .file_name()
                    .map_or_else(
                        || c.names[side].clone(),
                        |f| f.to_string_lossy().into_owned(),
                    );
                let label = ["a", "b"][side];
                let name = match s.lesson.panes.get(*i).filter(|_| s.sim().panes().len() > 1) {
                    Some(v) => tr!(
                        lang,
                        COMPARE_PANE_VARIANT,
                        label,
                        file,
                        v.name_in(self.lang.as_deref())
                    ),
                    None => tr!(lang, COMPARE_PANE, label, file),
                };
                // A pane whose parameters a recorded change set says so.
                match changed_params(s).0.get(*i).filter(|c| !c.is_empty()) {
                    Some(c) => format!("{name} → {}", c.join(", ")),
                    None => name,
                }
            })
            .collect()
    }

    /// A scene of the current tick, at a scale in percent.
    pub fn scene(&self, viewport: Viewport, scale: u16) -> scene::Scene {
        let view = self.view(scale);
        // A question's beat does not show what the coming step will do:
        // that is the answer the class is asked to predict.
        // One decision, the view's: on a question's beat the coming step is
        // withheld. Who sees whom stays (the question's premise); a flock's
        // rule results go, and a path's or line's whole coming step.
        let spoiler = view.withhold_next && self.session.ahead();
        let shown = self.shown_panes();
        let withheld: Vec<Vec<crate::sim::flock::FlockEvent>> = shown
            .iter()
            .map(|(s, i)| match s.explain().pane(*i).as_scene() {
                scene::Explain::Flock(events) if spoiler => events.iter().map(withhold).collect(),
                _ => Vec::new(),
            })
            .collect();
        let frames: Vec<scene::Frame> = shown
            .iter()
            .enumerate()
            .map(|(k, (s, i))| scene::Frame {
                sim: &s.sim().panes()[*i],
                explain: match s.explain().pane(*i).as_scene() {
                    scene::Explain::Flock(_) if spoiler => scene::Explain::Flock(&withheld[k]),
                    _ if spoiler => scene::Explain::None,
                    e => e,
                },
                ahead: s.ahead(),
                trail: s
                    .trail()
                    .get(*i)
                    .filter(|_| view.on("trails"))
                    .map_or(&[], |t| t),
                walks: s
                    .walks()
                    .get(*i)
                    .filter(|_| view.on("walked"))
                    .map_or(&[], |w| w),
                panes: &[],
            })
            .collect();
        let cam = self.camera(viewport, scale);
        let sim = self.shown();
        let mut out = match &*sim {
            AnySim::Panes(_) => {
                let frame = scene::Frame {
                    panes: &frames,
                    ..scene::Frame::bare(&sim)
                };
                scene::build(&frame, &view, &cam)
            }
            _ => scene::build(&frames[0], &view, &cam),
        };
        if let Some(c) = &self.compare {
            out.panels.insert(0, super::compare::panel(c, view.lang));
        }
        out
    }
}

/// The parameters a session's what-ifs changed by its coming step, per
/// pane (`KEY = VALUE`, the last change of each key), and each pane's
/// parameters with those values (what a callout's `{param.KEY}` shows).
fn changed_params(session: &Session) -> (Vec<Vec<String>>, Vec<BTreeMap<String, String>>) {
    let mut params = session.lesson.params.clone();
    let mut changed: Vec<BTreeMap<String, String>> = vec![BTreeMap::new(); params.len()];
    let sets = session
        .applied()
        .range(..=session.in_force_until())
        .flat_map(|(_, l)| l);
    for i in sets {
        let Input::Set { pane, key, value } = i else {
            continue;
        };
        let shown = value.trim_matches('"').to_owned();
        for (k, (c, p)) in changed.iter_mut().zip(params.iter_mut()).enumerate() {
            if pane.is_none_or(|p| p as usize == k) {
                c.insert(key.clone(), shown.clone());
                p.insert(key.clone(), shown.clone());
            }
        }
    }
    let changed = changed
        .into_iter()
        .map(|c| c.into_iter().map(|(k, v)| format!("{k} = {v}")).collect())
        .collect();
    (changed, params)
}

/// A whole number as [`Fx`] (saturating).
fn fx_int(v: i64) -> Fx {
    Fx::from_int(v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// Which screen is up.
pub enum Screen {
    /// The lesson picker.
    Picker,
    /// A lesson or replay.
    Player(Box<Player>),
}

/// A question the window puts to the teacher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// Home after an intervention: the lesson as written, or the run with
    /// its changes?
    Restart,
}

/// How long a passing remark (a saved file) stays up, in microseconds.
pub const STATUS_US: u64 = 8_000_000;

/// The whole viewer.
pub struct App {
    /// The screen up.
    pub screen: Screen,
    /// The picker's lessons.
    pub entries: Vec<Entry>,
    /// The picker's selection.
    pub picked: usize,
    /// How far the picker is scrolled, in rows.
    pub picker_scroll: usize,
    /// A problem to show in the window (also printed on standard error
    /// by the window) until dismissed.
    pub error: Option<String>,
    /// A passing remark (a saved file), shown for [`STATUS_US`].
    pub status: Option<String>,
    status_left: u64,
    /// A question waiting for an answer.
    pub prompt: Option<Prompt>,
    /// Presenter mode: the size of everything, in percent of what the
    /// window's size gives.
    pub text_scale: u16,
    /// The narration language (`None`: English).
    pub lang: Option<String>,
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
            picker_scroll: 0,
            error: None,
            status: None,
            status_left: 0,
            prompt: None,
            text_scale: 100,
            lang: None,
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
        self.show_player(opened.map(Player::new));
    }

    /// Opens two runs side by side (replay files, or lessons recorded in
    /// memory); on failure the picker is shown with the error.
    pub fn open_compare(&mut self, a: &str, b: &str, overrides: &[String]) {
        let runs = compare::Run::open(a, overrides)
            .and_then(|ra| Ok((ra, compare::Run::open(b, overrides)?)));
        self.show_player(runs.and_then(|(ra, rb)| compared(&ra, &rb)));
    }

    fn show_player(&mut self, opened: Result<Player, String>) {
        self.prompt = None;
        match opened {
            Ok(mut p) => {
                p.lang = self.lang.clone();
                self.screen = Screen::Player(Box::new(p));
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

    /// Shows a passing remark for [`STATUS_US`].
    pub fn remark(&mut self, text: String) {
        self.status = Some(text);
        self.status_left = STATUS_US;
    }

    /// The languages the narration can be read in: English (`None`) and
    /// the open lesson's translations (on the picker: those of every
    /// bundled lesson).
    pub fn languages(&self) -> Vec<Option<String>> {
        let tags = match self.player() {
            Some(p) => p.session.lesson.languages(),
            None => {
                let mut all: Vec<String> = BUNDLED
                    .iter()
                    .filter_map(|b| Lesson::parse(b.source(), b.path).ok())
                    .flat_map(|l| l.languages())
                    .collect();
                all.sort();
                all.dedup();
                all
            }
        };
        std::iter::once(None)
            .chain(tags.into_iter().map(Some))
            .collect()
    }

    /// Sets the narration language (`None`: English); a tag no bundled or
    /// open lesson has falls back to English beat by beat.
    pub fn set_language(&mut self, lang: Option<String>) {
        self.lang = lang.clone();
        if let Screen::Player(p) = &mut self.screen {
            p.lang = lang;
            p.page = 0;
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
            Cmd::Language => {
                let langs = self.languages();
                let at = langs.iter().position(|l| *l == self.lang).unwrap_or(0);
                let next = langs[(at + 1) % langs.len()].clone();
                self.set_language(next);
            }
            Cmd::Back => {
                if self.error.is_some() {
                    self.error = None;
                } else if self.prompt.is_some() {
                    self.prompt = None;
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
            Cmd::PickerScroll(d) => {
                let max = self.picker_rows().len().saturating_sub(1) as i64;
                self.picker_scroll =
                    (self.picker_scroll as i64 + i64::from(d)).clamp(0, max) as usize;
            }
            Cmd::OpenFile { name, bytes } => {
                self.status = None;
                self.show(open_bytes(&name, bytes));
            }
            Cmd::CompareFiles { a, b } => {
                self.status = None;
                let runs = compare::Run::of_bytes(&a.0, a.1)
                    .and_then(|ra| Ok((ra, compare::Run::of_bytes(&b.0, b.1)?)));
                self.show_player(runs.and_then(|(ra, rb)| compared(&ra, &rb)));
            }
            Cmd::PickerOpen(i) => {
                if let Some(e) = self.entries.get(i.unwrap_or(self.picked)).cloned() {
                    self.picked = i.unwrap_or(self.picked);
                    self.open(&e.id, &[]);
                }
            }
            Cmd::Frame(us) => {
                self.status_left = self.status_left.saturating_sub(us);
                if self.status_left == 0 {
                    self.status = None;
                }
                self.handle_player(Cmd::Frame(us));
            }
            Cmd::Time(Command::Restart) if self.intervened() => self.prompt = Some(Prompt::Restart),
            Cmd::RestartAsWritten => self.restart_as_written(),
            Cmd::RestartKeep => {
                self.prompt = None;
                self.handle_player(Cmd::Time(Command::Restart));
            }
            other => self.handle_player(other),
        }
    }

    /// Saves the session as a replay at `path` and says where it went (the
    /// whole path), or why it could not.
    fn save_session(&mut self, path: PathBuf) {
        let Some(p) = self.player() else { return };
        match p.session.save(&path) {
            Ok(bytes) => {
                let shown = std::fs::canonicalize(&path).unwrap_or(path);
                let lang = Lang::of(self.lang.as_deref());
                self.remark(tr!(lang, SAVED, shown.display(), bytes));
            }
            Err(m) => self.error = Some(tr!(Lang::of(self.lang.as_deref()), SAVE_FAILED, m)),
        }
    }

    /// Records the session in memory for the page to download as `name`.
    fn download_session(&mut self, name: String) {
        let Some(p) = self.player() else { return };
        match p.session.save_bytes() {
            Ok(bytes) => {
                let lang = Lang::of(self.lang.as_deref());
                self.remark(tr!(lang, DOWNLOADING, name, bytes.len()));
                self.download = Some((name, bytes));
            }
            Err(m) => self.error = Some(tr!(Lang::of(self.lang.as_deref()), SAVE_FAILED, m)),
        }
    }

    /// The what-if as a lesson's text (see [`live::whatif_lesson`]).
    fn whatif_text(&self) -> Result<String, String> {
        // in English: a diagnosis, as the command line gives it
        let p = self.player().ok_or("no lesson is open")?;
        live::whatif_lesson(
            &p.session.source,
            p.session.applied(),
            p.session.tick(),
            p.session.sim(),
        )
        .map_err(|e| e.to_string())
    }

    /// Writes the what-if as a lesson to `path` (beside it first, renamed
    /// when complete).
    fn save_lesson(&mut self, path: Option<PathBuf>) {
        let lang = Lang::of(self.lang.as_deref());
        let Some(path) = path else { return };
        let written = self.whatif_text().and_then(|text| {
            let partial = path.with_extension("toml.partial");
            std::fs::write(&partial, text)
                .and_then(|()| std::fs::rename(&partial, &path))
                .map_err(|e| format!("{}: {e}", path.display()))
        });
        match written {
            Ok(()) => {
                let shown = std::fs::canonicalize(&path).unwrap_or(path);
                self.remark(tr!(lang, SAVED_LESSON, shown.display()));
            }
            Err(m) => self.error = Some(tr!(lang, SAVE_LESSON_FAILED, m)),
        }
    }

    /// Offers the what-if as a lesson for the page to download as `name`.
    fn save_lesson_as(&mut self, name: String) {
        let lang = Lang::of(self.lang.as_deref());
        match self.whatif_text() {
            Ok(text) => {
                self.remark(tr!(lang, DOWNLOADING_LESSON, name));
                self.download = Some((name, text.into_bytes()));
            }
            Err(m) => self.error = Some(tr!(lang, SAVE_LESSON_FAILED, m)),
        }
    }

    /// The link that reopens the what-if on the web page (its query), or
    /// why there is none (a lesson that is not bundled, a replay).
    pub fn share_link(&self) -> Result<String, String> {
        let lang = Lang::of(self.lang.as_deref());
        // in English: a diagnosis, as the command line gives it
        let p = self.player().ok_or("no lesson is open")?;
        let id = &p.session.lesson.id;
        if p.session.replay_file.is_some() || crate::bundled::find_bundled(id).is_none() {
            return Err(tr!(lang, SHARE_NOT_BUNDLED).to_owned());
        }
        Ok(super::link::Link {
            lesson: id.clone(),
            beat: p.timeline.beat().map(|b| b + 1),
            tick: Some(p.session.tick()),
            lang: p.lang.clone(),
            sets: p.session.source.overrides.clone(),
            inputs: p.session.inputs.clone(),
        }
        .query())
    }

    /// Opens what a link names: its lesson with its overrides, its inputs
    /// made as a teacher would make them, at its beat; or says why not.
    pub fn open_link(&mut self, query: &str) {
        let lang = Lang::of(self.lang.as_deref());
        let link = match super::link::Link::parse(query) {
            Ok(l) => l,
            Err(m) => {
                self.error = Some(tr!(lang, LINK_BAD, m));
                return;
            }
        };
        if let Some(l) = &link.lang {
            self.set_language(Some(l.clone()));
        }
        self.open(&link.lesson, &link.sets);
        let Screen::Player(p) = &mut self.screen else {
            return;
        };
        let inputs: Vec<(u64, Input)> = link
            .inputs
            .iter()
            .flat_map(|(t, l)| l.iter().map(|i| (*t, i.clone())))
            .collect();
        let made = make_inputs(p, &inputs).and_then(|()| {
            if let Some(b) = link.beat {
                p.timeline.apply(Command::Beat(b - 1));
            }
            if let Some(t) = link.tick {
                p.timeline.apply(Command::Scrub(t));
            }
            p.sync()
        });
        if let Err(m) = made {
            self.error = Some(tr!(lang, LINK_BAD, m));
        }
    }

    /// Ends the camera's ease to the beat's framing at once: the picture
    /// a frame drawn after the ease shows (for `render --text` frames of
    /// several beats in a row, and tests).
    pub fn settle(&mut self) {
        if let Screen::Player(p) = &mut self.screen {
            p.ease = None;
        }
    }

    /// Whether the run shown has left its lesson (a live lesson with
    /// interventions).
    pub fn intervened(&self) -> bool {
        self.player().is_some_and(|p| {
            p.session.replay_file.is_none() && !p.session.intervention_ticks().is_empty()
        })
    }

    /// Opens the lesson again as written, without the interventions.
    fn restart_as_written(&mut self) {
        self.prompt = None;
        let Screen::Player(p) = &self.screen else {
            return;
        };
        let (source, zoom, scale) = (p.session.source.clone(), p.zoom, self.text_scale);
        self.show(Session::lesson(source));
        self.text_scale = scale;
        if let Screen::Player(p) = &mut self.screen {
            p.zoom = zoom;
        }
    }

    fn handle_player(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Save(path) => return self.save_session(path),
            Cmd::Download(name) => return self.download_session(name),
            Cmd::SaveLesson(path) => return self.save_lesson(Some(path)),
            Cmd::DownloadLesson(name) => return self.save_lesson_as(name),
            _ => {}
        }
        let Screen::Player(p) = &mut self.screen else {
            return;
        };
        let result: Result<(), String> = match cmd {
            // Long narration pages before the beat changes.
            Cmd::Time(Command::NextBeat) if p.page + 1 < p.pages => {
                p.page += 1;
                Ok(())
            }
            Cmd::Time(Command::PrevBeat) if p.page > 0 => {
                p.page -= 1;
                Ok(())
            }
            Cmd::Time(c) => {
                p.timeline.apply(c);
                p.sync()
            }
            Cmd::Frame(us) => {
                p.timeline.advance(us);
                p.ease_by(us);
                p.sync()
            }
            Cmd::SideScroll(d) => {
                p.side_scroll = (p.side_scroll as i64 + i64::from(d)).clamp(0, 10_000) as usize;
                Ok(())
            }
            Cmd::Pages(n) => {
                p.pages = n.max(1);
                p.page = p.page.min(p.pages - 1);
                Ok(())
            }
            Cmd::ToggleOverlay(i) => {
                if let Some(name) = overlays_of(p.session.sim().sim_name()).get(i) {
                    let name = (*name).to_owned();
                    if !p.toggled.remove(&name) {
                        p.toggled.insert(name);
                    }
                }
                p.refresh_history()
            }
            Cmd::Diverge => match p
                .compare
                .as_ref()
                .and_then(|c| c.next_stop(p.session.tick()))
            {
                Some(t) => {
                    if p.timeline.playing() {
                        p.timeline.apply(Command::TogglePlay);
                    }
                    p.timeline.apply(Command::Scrub(t));
                    p.sync()
                }
                None => Ok(()),
            },
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
            Cmd::Pane(i) => {
                p.pane = Some(i);
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
                // A tenth more or less a notch (at least 1 %), so a close-up
                // of a few cells is as quick to reach as the whole world.
                let step = (p.zoom / 10).max(1);
                p.zoom = (p.zoom + step * d.signum()).clamp(ZOOM.0, ZOOM.1);
                Ok(())
            }
            Cmd::Brush => {
                // Only a grid takes paint.
                p.brush = !p.brush
                    && matches!(
                        p.session.sim().panes()[0],
                        AnySim::Path(_) | AnySim::Line(_)
                    );
                Ok(())
            }
            Cmd::Panel(c) => match p.panel_change(c) {
                Some(input) => return self.handle_player(Cmd::Intervene(input)),
                None => Ok(()),
            },
            Cmd::Intervene(_) if p.session.replay_file.is_some() => {
                Err(tr!(Lang::of(p.lang.as_deref()), REPLAY_FIXED).to_owned())
            }
            Cmd::Intervene(input) => {
                let watch = p.watch();
                let r = p.session.intervene(input, &watch);
                if r.is_ok() {
                    p.traced = watch;
                    p.timeline.extend_to(p.session.last_tick());
                    p.refresh_history()
                } else {
                    r
                }
            }
            _ => Ok(()),
        };
        if let Err(m) = result {
            self.error = Some(m);
        }
    }
}

/// Where `flockstep render` puts the player: a tick (the beat in force
/// there), or a beat (1-based, at its tick).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderAt {
    /// A tick.
    Tick(u64),
    /// A beat, 1-based.
    Beat(usize),
}

/// What `flockstep render` draws, besides the lesson and where.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// Exactly these overlays (empty: the beat's).
    pub overlays: Vec<String>,
    /// The boid or chaser inspected.
    pub select: Option<u32>,
    /// Presenter scale in percent (100: none).
    pub text_scale: u16,
    /// The narration language (`None`: English).
    pub lang: Option<String>,
    /// What-ifs made before the frame (`--input TICK:INPUT`), by the
    /// tick they lead into, as the viewer would make them.
    pub inputs: Vec<(u64, Input)>,
    /// Whether the parameter panel is open.
    pub panel: bool,
    /// Whether the map brush is on (path and line lessons).
    pub brush: bool,
}

/// Makes each input at the tick before the one it leads into, in tick
/// order, as a teacher in the window would: checked as the window checks
/// them (a refusal names the input).
fn make_inputs(p: &mut Player, inputs: &[(u64, Input)]) -> Result<(), String> {
    let mut sorted = inputs.to_vec();
    sorted.sort_by_key(|(t, _)| *t);
    for (t, i) in sorted {
        // in English: a diagnosis, as the command line gives it
        let at = |m: String| format!("--input {t}:{i}: {m}");
        p.session.seek(t.saturating_sub(1), &[]).map_err(at)?;
        p.session.intervene(i.clone(), &[]).map_err(at)?;
    }
    p.timeline.extend_to(p.session.last_tick());
    Ok(())
}

/// The app `flockstep render` draws: `target` opened at a tick or beat,
/// with the options. Errors name the problem (an unknown overlay lists
/// the known ones, a beat past the last says how many there are).
pub fn prepare_render(
    target: &str,
    overrides: &[String],
    at: RenderAt,
    o: &RenderOptions,
) -> Result<App, String> {
    let session = open_session(target, overrides)?;
    render_player(Player::new(session), target, at, o)
}

/// The app `flockstep render A B` draws: two runs side by side (replays,
/// or lessons recorded in memory), opened at a tick or beat of run a.
pub fn prepare_render_compare(
    (a, b): (&str, &str),
    overrides: &[String],
    at: RenderAt,
    o: &RenderOptions,
) -> Result<App, String> {
    let p = compared(
        &compare::Run::open(a, overrides)?,
        &compare::Run::open(b, overrides)?,
    )?;
    render_player(p, a, at, o)
}

fn render_player(
    mut p: Player,
    target: &str,
    at: RenderAt,
    o: &RenderOptions,
) -> Result<App, String> {
    let session = &p.session;
    let first = session.first_tick();
    let last = p.timeline.last();
    let sim = session.sim().sim_name();
    if let RenderAt::Tick(tick) = at
        && (tick < first || tick > last)
    {
        return Err(format!(
            // in English: a flockstep render argument refused on the command line
            "{target}: tick {tick} is outside ticks {first}..={last}"
        ));
    }
    let beats = session.lesson.beats.len();
    if let RenderAt::Beat(b) = at
        && !(1..=beats).contains(&b)
    {
        return Err(format!(
            // in English: a flockstep render argument refused on the command line
            "{target}: there is no beat {b}: the lesson has {beats} beat{} (1..={beats})",
            if beats == 1 { "" } else { "s" }
        ));
    }
    if let Some(l) = &o.lang
        && !session.lesson.languages().contains(l)
    {
        return Err(format!(
            // in English: a flockstep render argument refused on the command line
            "--lang {l}: lesson `{}` has no `{l}` narration; it has English{}",
            session.lesson.id,
            session
                .lesson
                .languages()
                .iter()
                .map(|l| format!(", {l}"))
                .collect::<String>()
        ));
    }
    let known = overlays_of(sim);
    if let Some(bad) = o.overlays.iter().find(|x| !known.contains(&x.as_str())) {
        return Err(format!(
            // in English: a flockstep render argument refused on the command line
            "unknown overlay `{bad}` for sim {sim}; known overlays: {}",
            known.join(", ")
        ));
    }
    make_inputs(&mut p, &o.inputs)?;
    p.panel_open = p.panel_open || o.panel;
    if o.brush {
        p.brush = true;
        if !matches!(
            p.session.sim().panes()[0],
            AnySim::Path(_) | AnySim::Line(_)
        ) {
            // in English: a flockstep render argument refused on the command line
            return Err(format!("--brush: a {sim} lesson has no map to paint"));
        }
    }
    if let Some(s) = o.select {
        let n = match &p.session.sim().panes()[0] {
            AnySim::Flock(f) => crate::sim::Sim::state(&**f).boids.len(),
            AnySim::Line(l) => crate::sim::Sim::state(l).chasers.len(),
            _ => 0,
        };
        if s as usize >= n {
            return Err(format!(
                // in English: a flockstep render argument refused on the command line
                "--select {s}: the {sim} scenario has {n} selectable entities"
            ));
        }
        p.selected = Some(s);
    }
    p.lang = o.lang.clone();
    p.timeline.apply(match at {
        RenderAt::Tick(t) => Command::Scrub(t),
        RenderAt::Beat(b) => Command::Beat(b - 1),
    });
    p.sync()?;
    p.retrace()?;
    p.ease = None;
    if !o.overlays.is_empty() {
        let want: BTreeSet<String> = o.overlays.iter().cloned().collect();
        let now = p.overlays();
        p.toggled = now.symmetric_difference(&want).cloned().collect();
        p.refresh_history()?;
    }
    let mut app = App::new();
    app.text_scale = o.text_scale;
    app.lang = o.lang.clone();
    app.screen = Screen::Player(Box::new(p));
    Ok(app)
}

/// The narration language a system locale asks for (`ja_JP.UTF-8` →
/// `ja`), if one of `langs` has it; else English (`None`).
pub fn locale_language(langs: &[Option<String>], locale: Option<&str>) -> Option<String> {
    let tag = locale?.split(['.', '@']).next()?.replace('_', "-");
    let base = tag.split('-').next()?.to_ascii_lowercase();
    langs
        .iter()
        .flatten()
        .find(|l| l.eq_ignore_ascii_case(&tag))
        .or_else(|| {
            langs
                .iter()
                .flatten()
                .find(|l| l.eq_ignore_ascii_case(&base))
        })
        .cloned()
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
            // in English: a flockstep render argument refused on the command line
            return Err(format!("{arg}: --set applies to lessons, not to replays"));
        }
        return Session::replay_file(path);
    }
    let (text, file) = crate::bundled::source_of(arg)?;
    Session::lesson(Source {
        file,
        text,
        overrides: overrides.to_vec(),
    })
}

/// Two runs side by side, as a player.
pub fn compared(a: &compare::Run, b: &compare::Run) -> Result<Player, String> {
    let (session, c) = Compare::open(a, b)?;
    Ok(Player::comparing(session, c))
}

/// A session for a file's bytes (dropped on the window, or opened on the
/// web page): the same decision and the same messages as
/// [`open_session`] on a file of that name with those bytes.
pub fn open_bytes(name: &str, bytes: Vec<u8>) -> Result<Session, String> {
    if looks_like_replay(name, &bytes) {
        return Session::replay_from(Box::new(std::io::Cursor::new(bytes)), name);
    }
    let text = crate::lesson::lesson_text(name, bytes)?;
    Session::lesson(Source {
        file: name.to_owned(),
        text,
        overrides: Vec::new(),
    })
}

/// Whether a file's name or first bytes say it is a replay.
pub fn looks_like_replay(name: &str, bytes: &[u8]) -> bool {
    // in English: a file name's extension
    name.ends_with(".fsr") || bytes.starts_with(&REPLAY_MAGIC)
}

/// The first bytes of every replay file.
const REPLAY_MAGIC: [u8; 4] = [0x89, b'F', b'S', b'R'];

/// Whether a path names a replay: by its extension, or by its first bytes.
pub fn is_replay(path: &std::path::Path) -> bool {
    // in English: a file name's extension
    if path.extension().is_some_and(|e| e == "fsr") {
        return true;
    }
    // Only a regular file is opened to look: a FIFO would block.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && head == REPLAY_MAGIC
}

/// A flock event with the rules' results taken out (what a boid sees is
/// kept): the coming step on a question's beat.
fn withhold(e: &crate::sim::flock::FlockEvent) -> crate::sim::flock::FlockEvent {
    use crate::sim::flock::FlockEvent;
    match e {
        FlockEvent::Boid(ex) => {
            let mut ex = ex.clone();
            ex.rules.clear();
            ex.clamps.clear();
            ex.feelers.clear();
            FlockEvent::Boid(ex)
        }
        other => other.clone(),
    }
}

/// What a frame shows, for `flockstep render --text`: the screen, and on
/// the player the lesson, the beat (1-based), the tick and the language.
pub fn frame_about(app: &App) -> serde_json::Value {
    match app.player() {
        Some(p) => serde_json::json!({
            "screen": "player",
            "lesson": p.session.lesson.id,
            "beat": p.timeline.beat().map(|b| b + 1),
            "tick": p.session.tick(),
            "lang": p.lang.as_deref().unwrap_or("en"),
        }),
        None => serde_json::json!({
            "screen": "picker",
            "lang": app.lang.as_deref().unwrap_or("en"),
        }),
    }
}

/// The word that introduces a beat's question, in a narration language.
pub fn question_label(lang: Option<&str>) -> &'static str {
    tr!(Lang::of(lang), QUESTION)
}

/// A window's layout and its narration, wrapped: what the frame shows of
/// the current beat's text.
pub struct Framed {
    /// Where everything goes.
    pub layout: Layout,
    /// The narration's lines on the page shown.
    pub lines: Vec<Vec<Run>>,
    /// How many pages the narration has.
    pub pages: usize,
}

impl App {
    /// Lays out a `w`×`h` window: wraps the narration to the window's
    /// width (the bundled font's metrics) and makes room for it, up to a
    /// third of the window; longer narration pages.
    pub fn framed(&self, w: i32, h: i32) -> Framed {
        let Some(p) = self.player() else {
            return Framed {
                layout: Layout::of(w, h, self.text_scale, 2),
                lines: Vec::new(),
                pages: 1,
            };
        };
        let probe = Layout::of(w, h, self.text_scale, 2);
        let size = probe.font(NARRATION_PX);
        let width = Layout::narration_text_width(w, h, self.text_scale);
        let measure = |s: &str| super::text::width(s, size);
        let mut all = Vec::new();
        if let Some(q) = p.question() {
            for mut line in wrap_rich(&literal(&q), width, &measure) {
                for r in &mut line {
                    r.style = Style::Question;
                    r.text = unliteral(&r.text);
                }
                all.push(line);
            }
        }
        all.extend(wrap_rich(&p.narration(), width, &measure));
        let max = Layout::narration_max_lines(w, h, self.text_scale).max(2) as usize;
        let (per_page, pages) = if all.len() <= max {
            (max, 1)
        } else {
            // One line of each page is the continuation mark.
            let per = (max - 1).max(1);
            (per, all.len().div_ceil(per))
        };
        let page = p.page.min(pages - 1);
        let lines: Vec<Vec<Run>> = all
            .into_iter()
            .skip(page * per_page)
            .take(per_page)
            .collect();
        let shown = if pages > 1 { max } else { lines.len() };
        let layout = Layout::of(w, h, self.text_scale, shown as i32);
        let rows = layout.legend_lines(&p.legend(layout.scale)).len() as i32;
        Framed {
            layout: layout.with_legend_rows(rows),
            lines,
            pages,
        }
    }
}

/// One row of the lesson picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickerRow {
    /// A sim's heading (`flock lessons`).
    Header(usize),
    /// A lesson, by index into [`App::entries`].
    Lesson(usize),
}

impl App {
    /// The picker's rows: each sim's heading, then its lessons.
    pub fn picker_rows(&self) -> Vec<PickerRow> {
        let mut rows = Vec::new();
        for (i, e) in self.entries.iter().enumerate() {
            if i == 0 || self.entries[i - 1].sim != e.sim {
                rows.push(PickerRow::Header(i));
            }
            rows.push(PickerRow::Lesson(i));
        }
        rows
    }

    /// The first picker row shown when `fit` rows fit: the scroll, moved
    /// as little as needed to show the chosen lesson.
    pub fn picker_first_row(&self, fit: usize) -> usize {
        let rows = self.picker_rows();
        let fit = fit.max(1);
        let max = rows.len().saturating_sub(fit);
        let at = rows
            .iter()
            .position(|r| *r == PickerRow::Lesson(self.picked))
            .unwrap_or(0);
        let first = self.picker_scroll.min(max);
        if at < first {
            at.saturating_sub(1)
        } else if at >= first + fit {
            at + 1 - fit
        } else {
            first
        }
    }
}
