//! What the viewer draws, as data: a pure function from a sim (its
//! configuration and state), the explain record of the step that produced
//! that state, the view options and the camera to a list of shapes, text
//! panels and a legend.
//!
//! Nothing here draws, reads a clock or touches floating point: positions
//! are whole pixels computed in fixed point, colours are bytes, so a scene
//! is the same on every machine and its text form can be snapshotted
//! ([`Scene::summary`]). The viewer (`crate::viewer`) turns shapes into
//! macroquad calls one to one, in order: later shapes cover earlier ones.
//!
//! Colours come from the Okabe–Ito palette, which stays distinct under the
//! common colour-vision deficiencies, and every state that matters is told
//! by shape as well as colour (open cells are rings, closed cells filled
//! squares, walls crossed, blocked sight a cross on the blocker).
//!
//! Sizes follow the classroom rules (see `CLASSROOM.md`) at a 1280×720
//! window and scale with [`View::scale`]: labels at least 12 px, numbers in
//! cells at least 14 px, lines at least 2 px, arrows 3 px with 10-px heads,
//! the focused entity at least 24 px across and every other one 10 px.
//!
//! Which way is up: grids (path, line) are drawn as their maps are written,
//! x to the right and y down the rows, (0,0) top left; flock worlds are
//! drawn as in mathematics, x to the right and y **up**, headings measured
//! counter-clockwise from +x, so a positive turn is a turn to the left on
//! screen — as in the articles' own pictures and the ASCII pictures of
//! `flockstep run --narrate`.
#![deny(clippy::float_arithmetic)]

mod callout;
mod custom;
mod flock;
mod line;
mod panes;
mod path;
mod summary;
pub mod text;

use crate::i18n::Lang;
use crate::num::{Angle, Fx, Vec3};
use crate::sim::flock::FlockEvent;
use crate::sim::line::LineEvent;
use crate::sim::path::PathEvent;
use crate::sim::{AnySim, Cell};
use crate::tr;
use std::collections::BTreeSet;

pub use callout::{Shown as ShownCallout, entity_shown};
pub use flock::{boid_glyph_center, pick_boid, pick_obstacle, world_at};
pub use line::{
    cell_at as line_cell_at, cell_center as line_cell_center, chaser_color, walk_color,
};
pub use panes::{focused_pane, pane_at, pane_camera, pane_tiles, short_hash};
pub use path::{search_tiles, tile_cell_at, tile_map_at};
pub use summary::{color_name, shape_color};

/// A colour: red, green, blue, alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

/// The palette (Okabe–Ito, plus greys for the chrome).
pub mod color {
    use super::Rgba;
    /// The background.
    pub const BACKGROUND: Rgba = Rgba(24, 26, 32, 255);
    /// Panels behind text.
    pub const PANEL: Rgba = Rgba(36, 39, 48, 255);
    /// Ordinary text.
    pub const TEXT: Rgba = Rgba(230, 230, 230, 255);
    /// Secondary text and thin guides.
    pub const DIM: Rgba = Rgba(140, 144, 156, 255);
    /// Boids, chasers' trails, grid lines.
    pub const BOID: Rgba = Rgba(205, 208, 218, 255);
    /// The selected (inspected) boid.
    pub const SELECTED: Rgba = Rgba(240, 228, 66, 255);
    /// The band behind a beat's question.
    pub const QUESTION_BAND: Rgba = Rgba(70, 64, 24, 255);
    /// Orange.
    pub const ORANGE: Rgba = Rgba(230, 159, 0, 255);
    /// Sky blue.
    pub const SKY: Rgba = Rgba(86, 180, 233, 255);
    /// Bluish green.
    pub const GREEN: Rgba = Rgba(0, 158, 115, 255);
    /// Blue.
    pub const BLUE: Rgba = Rgba(0, 114, 178, 255);
    /// Vermillion.
    pub const VERMILLION: Rgba = Rgba(213, 94, 0, 255);
    /// Reddish purple.
    pub const PURPLE: Rgba = Rgba(204, 121, 167, 255);
    /// Walls.
    pub const WALL: Rgba = Rgba(8, 8, 10, 255);
    /// Velocity lines: a neutral grey, darker than the boids' glyphs, so
    /// no rule's arrow (the alignment's blue above all) is read as one.
    pub const VELOCITY: Rgba = Rgba(158, 162, 174, 255);
}

/// The legend's swatch for terrain heights (a middle shade).
const HEIGHT_KEY: Rgba = Rgba(150, 150, 156, 255);

/// Where a label's baseline goes so that the label lies inside `vp`.
fn inside(vp: Viewport, at: P, size: u16, text: &str) -> P {
    let (s, w) = (i32::from(size), text::width(text, size));
    let (asc, desc) = text::ascent_descent(size);
    let pad = (s / 5).max(2) + 2;
    [
        at[0].min(vp.x + vp.w - w - pad).max(vp.x + pad),
        at[1].min(vp.y + vp.h - desc - pad).max(vp.y + asc + pad),
    ]
}

/// Whether a point lies inside a viewport: a name for something drawn
/// outside it is left out rather than pinned to the edge, where it would
/// look like its place.
fn on_screen(vp: Viewport, p: P) -> bool {
    p[0] >= vp.x && p[1] >= vp.y && p[0] < vp.x + vp.w && p[1] < vp.y + vp.h
}

/// Whether boxes `a` and `b` (x, y, w, h) overlap.
fn overlaps(a: [i32; 4], b: [i32; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// Marks the segment `a`–`b` (`r` pixels either side) as taken, as
/// boxes every `r` pixels along it: labels placed after keep off it.
fn keep_clear(taken: &mut Vec<[i32; 4]>, a: P, b: P, r: i32) {
    let r = r.max(2);
    let (dx, dy) = (i64::from(b[0] - a[0]), i64::from(b[1] - a[1]));
    let len = ((dx * dx + dy * dy) as u64).isqrt() as i64;
    let steps = (len / i64::from(r)).clamp(1, 200);
    for k in 0..=steps {
        let x = a[0] + (dx * k / steps) as i32;
        let y = a[1] + (dy * k / steps) as i32;
        taken.push([x - r, y - r, 2 * r, 2 * r]);
    }
}

/// The backing box of a label drawn over the scene.
const LABEL_BACK: Rgba = Rgba(24, 26, 32, 210);

/// A point in whole screen pixels (x right, y down).
pub type P = [i32; 2];

/// One thing to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A filled rectangle.
    Rect {
        /// Top-left corner.
        at: P,
        /// Width and height.
        size: P,
        /// Fill.
        color: Rgba,
    },
    /// A rectangle's outline.
    Frame {
        /// Top-left corner.
        at: P,
        /// Width and height.
        size: P,
        /// Line width in pixels.
        width: u16,
        /// Colour.
        color: Rgba,
    },
    /// A straight line.
    Line {
        /// From.
        a: P,
        /// To.
        b: P,
        /// Width in pixels.
        width: u16,
        /// Colour.
        color: Rgba,
    },
    /// A filled disc.
    Disc {
        /// Centre.
        c: P,
        /// Radius in pixels.
        r: i32,
        /// Fill.
        color: Rgba,
    },
    /// A circle's outline.
    Ring {
        /// Centre.
        c: P,
        /// Radius in pixels.
        r: i32,
        /// Line width.
        width: u16,
        /// Colour.
        color: Rgba,
    },
    /// A filled triangle.
    Tri {
        /// Corners.
        p: [P; 3],
        /// Fill.
        color: Rgba,
    },
    /// A label; `at` is the left end of its baseline.
    Text {
        /// What it is to a reader (see [`Role`]).
        role: Role,
        /// Where.
        at: P,
        /// Font size in pixels.
        size: u16,
        /// Colour.
        color: Rgba,
        /// What it says.
        text: String,
        /// The widest it may be drawn, in pixels (0: any); a longer text
        /// is cut with an ellipsis.
        fit: i32,
    },
    /// From here on, draw only inside `area` (within the scene's own
    /// part of the window): each pane of a lesson's variants is clipped to
    /// its tile, labels included.
    Clip {
        /// The area.
        area: Viewport,
    },
}

/// What a text on screen is to its reader: the narration, a title, a
/// label on an entity, a figure called out for the narration, … The
/// viewer reports every text it draws with its role
/// (`flockstep render --text`), as a screen reader would read the frame
/// and as the tests check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The beat's narration.
    Narration,
    /// The beat's question (a prediction asked of the class).
    Question,
    /// The lesson's title in the status line.
    Title,
    /// The status line's figures: beat, tick, speed, whether the clock
    /// holds, the state hash.
    Status,
    /// A pane's or a search's name and the figures under it.
    PaneTitle,
    /// The side panel's lines.
    Panel,
    /// What a colour means, under the scene.
    Legend,
    /// A name or value drawn next to an entity.
    Label,
    /// A number written inside a grid cell (a height, g, h, f).
    Cell,
    /// A figure a beat calls out on the picture, next to what it is about.
    Callout,
    /// A numbered beat tab on the scrub bar.
    Tab,
    /// A mark that says more is hidden (a panel's or the narration's).
    More,
    /// The lesson picker's text.
    Picker,
    /// The help box.
    Help,
    /// A prompt that asks the teacher to choose.
    Prompt,
    /// An error.
    Error,
    /// A passing remark (a file saved).
    Remark,
}

/// A block of text for the side panel (inspector, open list, error table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    /// Its heading.
    pub title: String,
    /// Its lines, top to bottom.
    pub lines: Vec<String>,
    /// What it is to the beat: 0, what the beat is about (the focused
    /// entity's numbers, the open list, the error table), shown first
    /// and always; 1 and up, context, dropped (highest first) when the
    /// side panel has no room for it.
    pub rank: u8,
}

/// Everything the viewer draws for one frame of a sim.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scene {
    /// Shapes in drawing order.
    pub shapes: Vec<Shape>,
    /// Text panels, in order.
    pub panels: Vec<Panel>,
    /// What each colour means (rule arrows, cell states).
    pub legend: Vec<(Rgba, String)>,
    /// How many shapes and panels each overlay drew (an overlay a beat
    /// lists that draws nothing is a lesson whose words and picture
    /// disagree; a test checks every beat).
    pub drawn: std::collections::BTreeMap<&'static str, u32>,
    /// Boxes a beat's callouts keep clear of besides the labels: the
    /// entities and arrows the picture is about, walls and framed cells.
    pub keep_clear: Vec<[i32; 4]>,
    /// Boxes a name label avoids while it has another spot beside its
    /// thing: the glyphs of the entities nobody named (in flocks small
    /// enough to tell them apart).
    pub avoid: Vec<[i32; 4]>,
}

/// The part of the window the scene may use, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

/// How the world is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Camera {
    /// Where on screen.
    pub viewport: Viewport,
    /// 3-D flocks: turn around the vertical axis.
    pub yaw: Angle,
    /// 3-D flocks: tilt (positive looks down on the tank).
    pub pitch: Angle,
    /// Zoom: 1 fits the world in the viewport.
    pub zoom: Fx,
    /// The world point (flock) or cell (grids, in cells) put at the
    /// viewport's centre; `None`: the world's centre.
    pub center: Option<Vec3>,
    /// The size of the scene's chrome (a path tile's title line), in
    /// percent, as [`View::scale`].
    pub scale: u16,
    /// Path tiles keep a band under their titles for the beat's callouts
    /// about each search, so none sits on the map.
    pub callout_band: bool,
    /// Side-by-side panes centred each on its own copy of the focused
    /// entities (a close-up on a boid that sits elsewhere in another
    /// pane): each pane's centre, in pane order; `None` keeps `center`.
    pub pane_centers: [Option<Vec3>; crate::sim::MAX_PANES],
    /// Line maps keep room along the bottom for the side view of a sight
    /// line (the `profile` overlay).
    pub side_view: bool,
}

impl Camera {
    /// A camera that fits the world into `viewport`, the 3-D one looking
    /// slightly down and from the side.
    pub fn fit(viewport: Viewport) -> Camera {
        Camera {
            viewport,
            yaw: Angle::from_degrees_int(30),
            pitch: Angle::from_degrees_int(20),
            zoom: Fx::ONE,
            center: None,
            scale: 100,
            callout_band: false,
            pane_centers: [None; crate::sim::MAX_PANES],
            side_view: false,
        }
    }
}

/// The view options: what is shown and what is looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The overlays switched on (names from the lesson schema, such as
    /// `separation` or `open_list`).
    pub overlays: BTreeSet<String>,
    /// The inspected boid (flock) or chaser (line).
    pub selected: Option<u32>,
    /// The pane clicked last, of a lesson's variants: its panels show
    /// (`None`: the beat's `pane:N` focus, else the first).
    pub pane: Option<u32>,
    /// The cell under the mouse (path, line).
    pub hover: Option<Cell>,
    /// The current beat's highlights (`boid:3`, `cell:4,5`, `start`).
    pub highlight: Vec<String>,
    /// The current beat's focus (`boid:0`, `chaser:1`): entities whose
    /// overlays draw without a click; empty: the entity highlights.
    pub focus: Vec<String>,
    /// Names the lesson gives its entities (`chaser:0` → `A`).
    pub names: crate::lesson::Names,
    /// Size of everything drawn, in percent: text, lines, glyphs, arrows
    /// (100 at a 1280×720 window; the window's size and presenter mode
    /// scale it).
    pub scale: u16,
    /// The beat asks the class to predict the coming step, so nothing shows
    /// it: the player leaves the coming step's events out of the frame,
    /// and the line's panels, which compute the next step from the state,
    /// leave out that step and its row of the error table.
    pub withhold_next: bool,
    /// The beat itself asks the class a question (a beat leading up to a
    /// question at the same tick withholds the coming step too, without
    /// saying why).
    pub asking: bool,
    /// The world length drawn as a full-length rule arrow; `None`: each
    /// focused boid's longest rule or steering. Side-by-side panes share
    /// one, so arrows compare across panes (the panes builder sets it).
    pub rule_scale: Option<crate::num::Fx>,
    /// The language of every word drawn.
    pub lang: Lang,
    /// The current beat's callouts, in `lang`.
    pub callouts: Vec<callout::Shown>,
    /// The scalar scenario values of each pane (a variant, or a path
    /// lesson's search), for callouts' `{param.NAME}`.
    pub params: Vec<std::collections::BTreeMap<String, String>>,
    /// The pane being drawn, of a lesson's variants (0 otherwise).
    pub tile: u32,
    /// Two runs compared: the entities that differ from the other run
    /// at this tick (`boid:13`), marked in both panes in a colour of
    /// their own.
    pub parted: Vec<String>,
}

impl Default for View {
    fn default() -> View {
        View {
            overlays: BTreeSet::new(),
            selected: None,
            pane: None,
            hover: None,
            highlight: Vec::new(),
            focus: Vec::new(),
            names: Default::default(),
            scale: 100,
            withhold_next: false,
            asking: false,
            rule_scale: None,
            lang: Lang::En,
            callouts: Vec::new(),
            params: Vec::new(),
            tile: 0,
            parted: Vec::new(),
        }
    }
}

impl View {
    /// Whether an overlay is on.
    pub fn on(&self, name: &str) -> bool {
        self.overlays.contains(name)
    }

    /// The ids named by highlights of a kind (`boid` for `boid:3`).
    pub fn highlighted(&self, kind: &str) -> Vec<u32> {
        ids_of(&self.highlight, kind)
    }

    /// The entities of a kind whose overlays draw: the selected one, else
    /// the beat's focus of that kind, else its highlights of that kind.
    pub fn focused(&self, kind: &str) -> Vec<u32> {
        if let Some(s) = self.selected {
            return vec![s];
        }
        let f = ids_of(&self.focus, kind);
        // A pane is not an entity: focusing one leaves the highlights on.
        if f.is_empty() && self.focus.iter().all(|r| r.starts_with("pane:")) {
            self.highlighted(kind)
        } else {
            f
        }
    }

    /// The name drawn for an entity: the lesson's, else the default —
    /// chasers A, B, C, …, targets a, b, c, …, otherwise `KIND N`.
    pub fn name(&self, kind: &str, i: u32) -> String {
        if let Some(n) = self.names.get(&format!("{kind}:{i}")) {
            return n.clone();
        }
        let lang = self.lang;
        match kind {
            "chaser" => letters(i, b'A'),
            "target" => letters(i, b'a'),
            "pane" => tr!(lang, NAME_PANE, i + 1),
            "search" => tr!(lang, NAME_SEARCH, i + 1),
            "boid" => tr!(lang, NAME_BOID, i),
            "obstacle" => tr!(lang, NAME_OBSTACLE, i),
            _ => tr!(lang, NAME_OTHER, kind, i),
        }
    }

    /// A length in pixels at this view's scale (`n` at 1280×720).
    pub fn px(&self, n: i32) -> i32 {
        (i64::from(n) * i64::from(self.scale) / 100).clamp(-FAR as i64, FAR as i64) as i32
    }

    /// A line width at this view's scale, never under `min` pixels.
    pub fn lw(&self, n: u16, min: u16) -> u16 {
        (u32::from(n) * u32::from(self.scale) / 100).clamp(u32::from(min), 64) as u16
    }

    /// The cells named by `cell:X,Y` highlights.
    pub fn highlighted_cells(&self) -> Vec<Cell> {
        cells_of(&self.highlight)
    }

    /// A font size at this view's scale, never under 12 px.
    pub fn font(&self, px: u16) -> u16 {
        (u32::from(px) * u32::from(self.scale) / 100).clamp(12, 400) as u16
    }
}

/// The ids of the references of a kind (`boid` in `boid:3`).
fn ids_of(refs: &[String], kind: &str) -> Vec<u32> {
    refs.iter()
        .filter_map(|h| h.split_once(':'))
        .filter(|(k, _)| *k == kind)
        .filter_map(|(_, n)| n.parse().ok())
        .collect()
}

/// Spreadsheet-style letters: 0 → A, 25 → Z, 26 → AA (from `base`, `b'A'`
/// or `b'a'`).
pub fn letters(mut i: u32, base: u8) -> String {
    let mut out = Vec::new();
    loop {
        out.push(base + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// What the step into the current tick explained (nothing at tick 0, or
/// when the viewer did not trace it).
#[derive(Clone, Copy, Debug, Default)]
pub enum Explain<'a> {
    /// Nothing known.
    #[default]
    None,
    /// A flock step's events (possibly only the inspected boids').
    Flock(&'a [FlockEvent]),
    /// A path step's events.
    Path(&'a [PathEvent]),
    /// A line step's events.
    Line(&'a [LineEvent]),
}

/// Everything a scene is built from.
#[derive(Clone, Copy, Debug)]
pub struct Frame<'a> {
    /// The sim: configuration and current state.
    pub sim: &'a AnySim,
    /// What the step into this state explained — or, when `ahead`, what
    /// the coming step will do (tick 0, and right after an intervention).
    pub explain: Explain<'a>,
    /// Whether `explain` is the coming step's.
    pub ahead: bool,
    /// Earlier flock positions for the `trails` overlay, oldest first
    /// (each a list of boid positions).
    pub trail: &'a [Vec<crate::num::Vec3>],
    /// Line sims: the cells each chaser has stood on so far, in order.
    pub walks: &'a [Vec<Cell>],
    /// A lesson's variants: each pane's own frame, in pane order (empty
    /// otherwise, or to draw the panes bare).
    pub panes: &'a [Frame<'a>],
}

impl<'a> Frame<'a> {
    /// A frame of a sim with no explain record, trail or walks.
    pub fn bare(sim: &'a AnySim) -> Frame<'a> {
        Frame {
            sim,
            explain: Explain::None,
            ahead: false,
            trail: &[],
            walks: &[],
            panes: &[],
        }
    }
}

/// Where a camera looks when nothing is framed: the centre of the flock's
/// world box, or of the grid (in cells).
pub fn home_center(sim: &AnySim) -> Vec3 {
    let grid = match sim {
        AnySim::Panes(p) => return p.first().map_or(Vec3::ZERO, home_center),
        AnySim::Flock(s) => return flock::world_center(s),
        AnySim::Custom(s) => return custom::world_center(s),
        AnySim::Line(s) => &s.config().grid,
        AnySim::Path(s) => &s.config().grid,
    };
    let half = |n: u32| Fx::from_ratio(i64::from(n) - 1, 2).unwrap_or(Fx::ZERO);
    Vec3::new(half(grid.width()), half(grid.height()), Fx::ZERO)
}

/// The middle of what a view focuses on (boids, chasers, targets, cells,
/// start, goal), or `None` when it focuses on nothing there is.
pub fn focus_center(sim: &AnySim, view: &View) -> Option<Vec3> {
    let cells: Vec<Cell> = match sim {
        AnySim::Panes(p) => return focus_center(&p[focused_pane(view, p.len())], view),
        AnySim::Flock(_) => return flock::focus_center(sim, view),
        AnySim::Custom(_) => return None,
        AnySim::Line(s) => {
            let st = crate::sim::Sim::state(s);
            let mut v: Vec<Cell> = view
                .focused("chaser")
                .iter()
                .filter_map(|&i| st.chasers.get(i as usize).map(|c| c.pos))
                .collect();
            v.extend(
                ids_of(&view.focus, "target")
                    .iter()
                    .filter_map(|&i| st.targets.get(i as usize).copied()),
            );
            v.extend(cells_of(&view.focus));
            v
        }
        AnySim::Path(s) => {
            let cfg = s.config();
            let mut v = cells_of(&view.focus);
            for (name, c) in [("start", cfg.start), ("goal", cfg.goal)] {
                if view.focus.iter().any(|f| f == name) {
                    v.push(c);
                }
            }
            v
        }
    };
    if cells.is_empty() {
        return None;
    }
    let n = cells.len() as i64;
    let mean = |sum: i64| Fx::from_ratio(sum, n).unwrap_or(Fx::ZERO);
    Some(Vec3::new(
        mean(cells.iter().map(|c| i64::from(c.x)).sum()),
        mean(cells.iter().map(|c| i64::from(c.y)).sum()),
        Fx::ZERO,
    ))
}

/// The cells named by `cell:X,Y` references.
fn cells_of(refs: &[String]) -> Vec<Cell> {
    refs.iter()
        .filter_map(|h| h.strip_prefix("cell:"))
        .filter_map(|xy| xy.split_once(','))
        .filter_map(|(x, y)| Some(Cell::new(x.trim().parse().ok()?, y.trim().parse().ok()?)))
        .collect()
}

/// Builds the scene of a frame.
pub fn build(frame: &Frame, view: &View, cam: &Camera) -> Scene {
    let mut out = Scene::default();
    build_one(frame, view, cam, &mut out);
    out.legend = legend(frame.sim, view);
    out
}

/// The shapes and panels of a frame, without the legend; a pane's
/// callouts over them.
fn build_one(frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let from = out.shapes.len();
    match frame.sim {
        AnySim::Flock(s) => flock::build(s, frame, view, cam, out),
        AnySim::Path(s) => path::build(s, frame, view, cam, out),
        AnySim::Line(s) => line::build(s, frame, view, cam, out),
        AnySim::Custom(s) => custom::build(s, frame, view, cam, out),
        AnySim::Panes(p) => return panes::build(p, frame, view, cam, out),
    }
    drop_cut_cells(out, from, cam.viewport);
    callout::draw(frame, view, cam, from, out);
}

/// Leaves out the numbers of cells that the edge of their area cuts (a
/// zoomed map's edge cells: half a height or `g` reads as another
/// number), with their backing boxes.
fn drop_cut_cells(out: &mut Scene, from: usize, area: Viewport) {
    let mut clip = area;
    let mut gone = vec![false; out.shapes.len()];
    for i in from..out.shapes.len() {
        match &out.shapes[i] {
            Shape::Clip { area } => clip = *area,
            Shape::Text {
                role: Role::Cell,
                at,
                size,
                text,
                ..
            } => {
                let (asc, desc) = text::ascent_descent(*size);
                let w = text::width(text, *size);
                let whole = at[0] >= clip.x
                    && at[1] - asc >= clip.y
                    && at[0] + w <= clip.x + clip.w
                    && at[1] + desc <= clip.y + clip.h;
                if !whole {
                    gone[i] = true;
                    if i > from
                        && matches!(out.shapes[i - 1], Shape::Rect { color, .. } if color == LABEL_BACK)
                    {
                        gone[i - 1] = true;
                    }
                }
            }
            _ => {}
        }
    }
    let mut k = 0;
    out.shapes.retain(|_| {
        k += 1;
        !gone[k - 1]
    });
}

/// What each colour of a scene means, for the strip under it: a function
/// of the sim and the view alone, so the window can make room for it
/// before the scene is built.
pub fn legend(sim: &AnySim, view: &View) -> Vec<(Rgba, String)> {
    let mut out = match sim {
        AnySim::Flock(s) => flock::legend(s, view),
        AnySim::Path(s) => path::legend(s, view),
        AnySim::Line(s) => line::legend(s, view),
        AnySim::Custom(s) => custom::legend(s, view),
        AnySim::Panes(p) => return p.first().map_or_else(Vec::new, |s| legend(s, view)),
    };
    if !view.parted.is_empty() && matches!(sim, AnySim::Flock(_)) {
        out.insert(
            0,
            (color::PURPLE, tr!(view.lang, COMPARE_LEGEND).to_owned()),
        );
    }
    out
}

impl Scene {
    fn push(&mut self, s: Shape) {
        self.shapes.push(s);
    }

    /// Shapes and panels so far (see [`Scene::credit`]).
    fn count(&self) -> usize {
        self.shapes.len() + self.panels.len()
    }

    /// Credits what was added since `before` (a [`Scene::count`]) to an
    /// overlay.
    fn credit(&mut self, overlay: &'static str, before: usize) {
        let n = self.count().saturating_sub(before) as u32;
        *self.drawn.entry(overlay).or_default() += n;
    }

    fn line(&mut self, a: P, b: P, width: u16, color: Rgba) {
        self.push(Shape::Line { a, b, width, color });
    }

    /// A text of a given [`Role`].
    fn text_as(&mut self, role: Role, at: P, (size, color): (u16, Rgba), text: impl Into<String>) {
        self.push(Shape::Text {
            role,
            at,
            size,
            color,
            text: text.into(),
            fit: 0,
        });
    }

    /// A label on a dark backing box (so it reads over rings, arrows and
    /// cells), measured with the font the window draws with; `at` is the
    /// left end of its baseline, as for [`Shape::Text`].
    fn label(&mut self, at: P, size: u16, color: Rgba, text: impl Into<String>) {
        self.label_as(Role::Label, at, (size, color), text);
    }

    /// A [`Scene::label`] of another [`Role`] (a number in a cell).
    fn label_as(&mut self, role: Role, at: P, (size, color): (u16, Rgba), text: impl Into<String>) {
        let text = text.into();
        let s = i32::from(size);
        let pad = (s / 5).max(2);
        self.push(Shape::Rect {
            at: [at[0] - pad, at[1] - s * 9 / 10 - pad / 2],
            size: [text::width(&text, size) + 2 * pad, s * 12 / 10 + pad],
            color: LABEL_BACK,
        });
        self.text_as(role, at, (size, color), text);
    }

    /// A label for the thing drawn at `c` (a disc of radius `r`): right of
    /// it, else left, below, above or at a corner, whichever first overlaps
    /// none of the boxes in `taken` (to which it adds its own) and lies
    /// inside `vp` (else the first clear one moved inside `vp`);
    /// when all are taken, the nearest clear spot further out in one of
    /// those directions. A name never lands on another boid's glyph or name when
    /// there is room beside its own, and one that had to move away is tied
    /// to its thing by a leader line.
    fn label_near(
        &mut self,
        (c, r): (P, i32),
        (size, color): (u16, Rgba),
        text: impl Into<String>,
        (vp, taken): (Viewport, &mut Vec<[i32; 4]>),
    ) {
        let text = text.into();
        let s = i32::from(size);
        let pad = (s / 5).max(2);
        let (w, h) = (text::width(&text, size) + 2 * pad, s * 12 / 10 + pad);
        let gap = pad + 3;
        let boxed = |at: P| [at[0] - pad, at[1] - s * 9 / 10 - pad / 2, w, h];
        let hits = |b: [i32; 4]| taken.iter().any(|&t| overlaps(b, t));
        let crowds = |b: [i32; 4]| self.avoid.iter().any(|&t| overlaps(b, t));
        let (right, left) = (c[0] + r + gap, c[0] - r - gap - w + pad);
        let (below, above) = (c[1] + r + gap + s, c[1] - r - gap - s / 4);
        let candidates = [
            [right, c[1] + s / 3],
            [left, c[1] + s / 3],
            [c[0] - w / 2 + pad, below],
            [c[0] - w / 2 + pad, above],
            // Then the corners.
            [right, above],
            [right, below],
            [left, above],
            [left, below],
        ];
        // A spot that fits where it is (clear of other glyphs if one is),
        // else one moved inside `vp` (which may sit over the thing it names).
        let fit = |at: P| inside(vp, at, size, &text) == at && !hits(boxed(at));
        let uncrowded = candidates
            .iter()
            .copied()
            .find(|&at| fit(at) && !crowds(boxed(at)));
        let fits = uncrowded.or_else(|| candidates.iter().copied().find(|&at| fit(at)));
        let free = fits.or_else(|| {
            candidates
                .iter()
                .map(|&at| inside(vp, at, size, &text))
                .find(|&at| !hits(boxed(at)))
        });
        // None clear: each spot moved further out in its own direction, a
        // line at a time (at most twelve), the nearest clear one that fits;
        // else right of it, kept inside `vp`.
        const OUT: [(i32, i32); 8] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, -1),
            (1, 1),
            (-1, -1),
            (-1, 1),
        ];
        let farther = || {
            (1..=12).find_map(|k| {
                candidates.iter().zip(OUT).find_map(|(&at, (dx, dy))| {
                    let at = [at[0] + dx * k * (h + 1), at[1] + dy * k * (h + 1)];
                    (inside(vp, at, size, &text) == at && !hits(boxed(at))).then_some(at)
                })
            })
        };
        let at = free
            .or_else(farther)
            .unwrap_or_else(|| inside(vp, candidates[0], size, &text));
        let b = boxed(at);
        taken.push(b);
        // A name moved away from its thing is tied to it by a line.
        let near = [c[0].clamp(b[0], b[0] + b[2]), c[1].clamp(b[1], b[1] + b[3])];
        let (dx, dy) = (i64::from(near[0] - c[0]), i64::from(near[1] - c[1]));
        let d = ((dx * dx + dy * dy) as u64).isqrt() as i64;
        if d > i64::from(r + gap + 2) {
            let edge = [
                c[0] + (dx * i64::from(r) / d) as i32,
                c[1] + (dy * i64::from(r) / d) as i32,
            ];
            self.line(edge, near, (s / 9).clamp(2, 4) as u16, color);
        }
        self.label(at, size, color, text);
    }

    /// A [`Scene::label`] moved, if it must, to lie inside `vp`.
    fn label_in(&mut self, vp: Viewport, at: P, size: u16, color: Rgba, text: impl Into<String>) {
        let text = text.into();
        let at = inside(vp, at, size, &text);
        self.label(at, size, color, text);
    }

    /// A pane title cut to `fit` pixels (see [`Shape::Text`]).
    fn text_fit(&mut self, at: P, size: u16, color: Rgba, text: impl Into<String>, fit: i32) {
        self.push(Shape::Text {
            role: Role::PaneTitle,
            at,
            size,
            color,
            text: text.into(),
            fit: fit.max(1),
        });
    }

    /// An arrow from `a` to `b` with a head `head` pixels long.
    fn arrow(&mut self, a: P, b: P, width: u16, head: i32, color: Rgba) {
        let (dx, dy) = (
            i64::from(b[0]) - i64::from(a[0]),
            i64::from(b[1]) - i64::from(a[1]),
        );
        let len = ((dx * dx + dy * dy) as u64).isqrt() as i64;
        if len == 0 {
            return;
        }
        let head = i64::from(head).min(len);
        self.line(a, b, width, color);
        // Unit direction scaled to the head length, integer only.
        let (ux, uy) = (dx * head / len, dy * head / len);
        let base = [b[0] - ux as i32, b[1] - uy as i32];
        let (px, py) = (-uy / 2, ux / 2);
        self.push(Shape::Tri {
            p: [
                b,
                [base[0] + px as i32, base[1] + py as i32],
                [base[0] - px as i32, base[1] - py as i32],
            ],
            color,
        });
    }
}

/// A colour with another alpha.
pub fn with_alpha(c: Rgba, a: u8) -> Rgba {
    Rgba(c.0, c.1, c.2, a)
}

/// A number with two decimals, rounded half away from zero, from its exact
/// fixed-point bits.
pub fn fx2(v: Fx) -> String {
    let bits = i128::from(v.to_bits());
    let hundredths = (bits.abs() * 100 + (1 << 31)) >> 32;
    let sign = if bits < 0 && hundredths != 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", hundredths / 100, hundredths % 100)
}

/// A number as written (`-62500.00`) with its whole part in groups of
/// three (`-62,500.00`), as the narration writes large pushes.
pub fn grouped(num: &str) -> String {
    let (sign, rest) = num.strip_prefix('-').map_or(("", num), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, ""), |(i, f)| (i, f));
    let mut out = String::from(sign);
    for (k, c) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() || rest.contains('.') {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A number with `places` decimals (at most 9), rounded half away from
/// zero.
pub fn fx_places(v: Fx, places: u32) -> String {
    let places = places.min(9);
    let unit = 10i128.pow(places);
    let bits = i128::from(v.to_bits());
    let scaled = (bits.abs() * unit + (1 << 31)) >> 32;
    let sign = if bits < 0 && scaled != 0 { "-" } else { "" };
    if places == 0 {
        return format!("{sign}{scaled}");
    }
    let (int, frac) = (scaled / unit, scaled % unit);
    format!("{sign}{int}.{frac:0w$}", w = places as usize)
}

/// A number with two decimals, or with as many (up to six) as it takes
/// not to look like a limit it is not at: 1.9999 is not shown as 2.00,
/// and what six decimals cannot tell is "just under 2" or "just over 2".
pub fn fx_near(v: Fx, lang: Lang) -> String {
    if v.to_bits() & 0xFFFF_FFFF == 0 {
        return fx2(v);
    }
    for places in [2, 4, 6] {
        let s = fx_places(v, places);
        if !s.ends_with(&"0".repeat(places as usize)) {
            return s;
        }
    }
    let whole = fx_places(v, 0);
    if v < Fx::from_int(v.round_int()) {
        tr!(lang, JUST_UNDER, whole)
    } else {
        tr!(lang, JUST_OVER, whole)
    }
}

/// A number with 16 fractional bits (A*'s `f` and `h`) with one decimal,
/// or as a whole number when it is one.
pub fn f16_text(v: u64) -> String {
    f16_decimals(v, 1)
}

/// A number with 16 fractional bits with two decimals (or whole), for
/// values one decimal would show as equal when they are not.
pub fn f16_text2(v: u64) -> String {
    f16_decimals(v, 2)
}

/// `v / 2¹⁶` rounded to `digits` decimals, or whole when it is whole.
fn f16_decimals(v: u64, digits: u32) -> String {
    if v & 0xFFFF == 0 {
        return format!("{}", v >> 16);
    }
    let scale = 10u128.pow(digits);
    let n = (u128::from(v) * scale + (1 << 15)) >> 16;
    format!("{}.{:0w$}", n / scale, n % scale, w = digits as usize)
}

/// How [`terrain`] draws a map.
pub(crate) struct TerrainStyle {
    /// Shade the ground by height (the `heights` overlay).
    pub heights: bool,
    /// Write each height on cells at least this many pixels wide (0: never).
    pub numbers_from: i32,
    /// The heights' font size.
    pub number_px: u16,
    /// The ground's grey when heights are not shaded.
    pub flat: u8,
    /// Leave a 1-pixel gap between cells (a grid without grid lines).
    pub gap: bool,
    /// Where a height is written (its baseline's left end), from the
    /// cell's top-left corner, for a cell and font size in pixels.
    pub number_at: fn(i32, i32) -> P,
    /// Whether height 0 is written too.
    pub zeros: bool,
}

/// A height map: walls black and crossed (shape, not only colour), ground
/// grey or shaded by height with the heights written in a colour that
/// reads on the shade.
/// Every cell's height as a small label on a backing box at its top-left
/// corner, drawn over whatever stands on the cell (the line scene, where
/// discs, crosses and plan frames would hide a plain digit).
pub(crate) fn height_labels(out: &mut Scene, grid: &crate::sim::Grid, o: P, cell: i32, px: u16) {
    let pad = (i32::from(px) / 5).max(2);
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            if let Some(v) = grid.height_at(Cell::new(x, y)).filter(|&v| v > 0) {
                let at = [
                    o[0] + x * cell + pad + 1,
                    o[1] + y * cell + i32::from(px) + 1,
                ];
                out.label(at, px, color::TEXT, v.to_string());
            }
        }
    }
}

/// A wall's hatching: three parallel strokes (`///`), the drafting sign
/// for a solid; a cross would read as the "blocked" mark.
fn wall_hatch(out: &mut Scene, at: P, cell: i32) {
    let (m, h) = (cell / 6, cell / 2);
    let w = (cell / 14).clamp(1, 5) as u16;
    let c = color::DIM;
    let p = |x: i32, y: i32| [at[0] + x, at[1] + y];
    out.line(p(m, h), p(h, m), w, c);
    out.line(p(m, cell - m), p(cell - m, m), w, c);
    out.line(p(h, cell - m), p(cell - m, h), w, c);
}

/// The legend's entry for walls, when the grid has any.
pub(crate) fn wall_key(grid: &crate::sim::Grid, lang: Lang) -> Option<(Rgba, String)> {
    grid.has_walls()
        .then(|| (color::DIM, tr!(lang, P_LEG_WALL).to_owned()))
}

pub(crate) fn terrain(
    out: &mut Scene,
    grid: &crate::sim::Grid,
    o: P,
    cell: i32,
    st: &TerrainStyle,
) {
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            let at = [o[0] + x * cell, o[1] + y * cell];
            match grid.height_at(Cell::new(x, y)) {
                None => {
                    out.push(Shape::Rect {
                        at,
                        size: [cell, cell],
                        color: color::WALL,
                    });
                    if cell >= 8 {
                        wall_hatch(out, at, cell);
                    }
                }
                Some(v) => {
                    let shade = if st.heights {
                        (48 + u32::from(v.min(9)) * 17) as u8
                    } else {
                        st.flat
                    };
                    let side = cell - i32::from(st.gap && cell > 6);
                    out.push(Shape::Rect {
                        at,
                        size: [side, side],
                        color: Rgba(shade, shade, shade.saturating_add(6), 255),
                    });
                    if st.heights
                        && st.numbers_from > 0
                        && cell >= st.numbers_from
                        && (v > 0 || st.zeros)
                    {
                        let d = (st.number_at)(cell, i32::from(st.number_px));
                        // Dark on light shades, light on dark.
                        let ink = if shade > 120 {
                            color::WALL
                        } else {
                            color::TEXT
                        };
                        out.text_as(
                            Role::Cell,
                            [at[0] + d[0], at[1] + d[1]],
                            (st.number_px, ink),
                            v.to_string(),
                        );
                    }
                }
            }
        }
    }
}

/// On a map: the beat's highlighted cells (a thick frame) and the cell
/// under the mouse (a thin one).
pub(crate) fn cell_marks(out: &mut Scene, grid: &crate::sim::Grid, o: P, cell: i32, view: &View) {
    for c in view.highlighted_cells() {
        if grid.contains(c) {
            out.push(Shape::Frame {
                at: [o[0] + c.x * cell - 2, o[1] + c.y * cell - 2],
                size: [cell + 4, cell + 4],
                width: 3,
                color: color::SELECTED,
            });
        }
    }
    if let Some(hv) = view.hover.filter(|c| grid.contains(*c)) {
        out.push(Shape::Frame {
            at: [o[0] + hv.x * cell, o[1] + hv.y * cell],
            size: [cell, cell],
            width: 2,
            color: color::TEXT,
        });
    }
}

/// The farthest a point is placed from the origin, in pixels: far
/// off-screen, yet small enough that the offsets added to it (glyphs,
/// arrows, labels) cannot overflow `i32`.
pub const FAR: i32 = 1 << 28;

/// `origin + offset`, rounded and kept within ±[`FAR`].
#[inline]
pub(crate) fn px(origin: i32, offset: Fx) -> i32 {
    (i64::from(origin) + i64::from(offset.round_int())).clamp(-i64::from(FAR), i64::from(FAR))
        as i32
}

/// Maps a 2-D world box onto a viewport, keeping its aspect ratio, with
/// y **up** (see the module docs): the box's top edge is its `max` y.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Map2 {
    /// The world point drawn at `origin`: the box's top-left corner
    /// (min x, max y), or whatever the centre moved there.
    top_left: [Fx; 2],
    /// Pixels per world unit.
    scale: Fx,
    origin: P,
}

impl Map2 {
    /// Fits `[min, max]` into `vp` with `margin` pixels around, centred on
    /// `center` (a world point) or on the box.
    pub(crate) fn fit(
        min: [Fx; 2],
        max: [Fx; 2],
        vp: Viewport,
        margin: i32,
        zoom: Fx,
        center: Option<[Fx; 2]>,
    ) -> Map2 {
        let w = (max[0] - min[0]).max(Fx::DELTA);
        let h = (max[1] - min[1]).max(Fx::DELTA);
        let aw = Fx::from_int((vp.w - 2 * margin).max(1));
        let ah = Fx::from_int((vp.h - 2 * margin).max(1));
        let sx = aw.checked_div(w).unwrap_or(Fx::ONE);
        let sy = ah.checked_div(h).unwrap_or(Fx::ONE);
        let scale = sx.min(sy).saturating_mul(zoom).max(Fx::from_bits(1 << 16));
        let half = |v: Fx| v / Fx::from_int(2);
        let c = center.unwrap_or([min[0] + half(w), min[1] + half(h)]);
        // The viewport's centre shows `c`: its top-left corner shows the
        // point half a viewport left of and above it.
        let (hw, hh) = (
            Fx::from_int(vp.w / 2)
                .checked_div(scale)
                .unwrap_or(Fx::ZERO),
            Fx::from_int(vp.h / 2)
                .checked_div(scale)
                .unwrap_or(Fx::ZERO),
        );
        Map2 {
            top_left: [c[0].saturating_sub(hw), c[1].saturating_add(hh)],
            scale,
            origin: [vp.x, vp.y],
        }
    }

    /// The world box `[lo, hi]` (x and y) as a 2-D camera frames it: 12
    /// pixels of margin, its zoom and centre.
    pub(crate) fn of_camera(lo: Vec3, hi: Vec3, cam: &Camera) -> Map2 {
        Map2::fit(
            [lo.x, lo.y],
            [hi.x, hi.y],
            cam.viewport,
            12,
            cam.zoom,
            cam.center.map(|c| [c.x, c.y]),
        )
    }

    /// Pixels per world unit.
    pub(crate) fn scale(&self) -> Fx {
        self.scale
    }

    /// A world point on screen.
    #[inline]
    pub(crate) fn at(&self, x: Fx, y: Fx) -> P {
        [
            px(
                self.origin[0],
                x.saturating_sub(self.top_left[0])
                    .saturating_mul(self.scale),
            ),
            px(
                self.origin[1],
                self.top_left[1]
                    .saturating_sub(y)
                    .saturating_mul(self.scale),
            ),
        ]
    }

    /// The world point under a screen pixel.
    pub(crate) fn inverse(&self, p: P) -> [Fx; 2] {
        let u = |d: i32| Fx::from_int(d).checked_div(self.scale).unwrap_or(Fx::ZERO);
        [
            self.top_left[0].saturating_add(u(p[0] - self.origin[0])),
            self.top_left[1].saturating_sub(u(p[1] - self.origin[1])),
        ]
    }
}

/// Cell size and the top-left corner of a `gw`×`gh` grid in a viewport
/// (inset by `margin`), zoomed by `zoom` around `center` (a cell; `None`:
/// the grid's centre). The cell size is a whole number of pixels.
pub(crate) fn grid_layout(
    gw: i32,
    gh: i32,
    vp: Viewport,
    margin: i32,
    zoom: Fx,
    center: Option<Vec3>,
) -> (i32, P) {
    let fit = ((vp.w - 2 * margin) / gw.max(1))
        .min((vp.h - 2 * margin) / gh.max(1))
        .max(1);
    let cell = zoom.mul_int(i64::from(fit)).round_int().clamp(1, 1 << 16);
    let (cx2, cy2) = match center {
        // Twice the centre, in pixels from the grid's corner (a cell's
        // centre is at x + ½).
        Some(c) => (
            (c.x.mul_int(2).round_int() + 1) * cell,
            (c.y.mul_int(2).round_int() + 1) * cell,
        ),
        None => (gw * cell, gh * cell),
    };
    (
        cell,
        [
            vp.x + vp.w / 2 - (cx2 / 2).clamp(-FAR, FAR),
            vp.y + vp.h / 2 - (cy2 / 2).clamp(-FAR, FAR),
        ],
    )
}

#[cfg(test)]
mod tests;
