//! Line-of-sight and chase scenes: the grid, the ideal line and the cells
//! of each chaser's coming plan, the cells each has walked (its own
//! colour), the error-term table and the formula with numbers filled in,
//! line of sight as the cells of each line (chaser → target, target →
//! chaser) with the first blocking cell crossed and the cells where the two
//! directions differ marked, the chasers (discs) and targets (rings) with
//! their names.
//!
//! The plan shown is the one the chaser follows at the *coming* step
//! ([`LineSim::coming_plan`]): at tick 0, before anyone moved, it is the
//! line each chaser is about to walk; a chaser that recomputes every tick
//! shows the fresh line from where it stands; after a target moved, the
//! new line.

use super::{Camera, Frame, P, Panel, Rgba, Scene, Shape, View, color, with_alpha};
use crate::i18n::Lang;
use crate::num::Angle;
use crate::sim::line::{Line, LineEvent, LineSim, Status, Step, Stepper};
use crate::sim::{AnySim, Cell, Grid, Sim};
use crate::tr;

/// Each chaser's colour, by id (cycled): its disc, plan and walked cells.
const CHASER: [Rgba; 8] = [
    color::ORANGE,
    color::PURPLE,
    color::BLUE,
    color::GREEN,
    color::VERMILLION,
    // Yellow-green: the selection's yellow marks the emphasised chaser.
    Rgba(160, 215, 90, 255),
    // Lavender: sky blue is the targets' and the ideal line's colour.
    Rgba(175, 150, 255, 255),
    color::BOID,
];

/// A chaser's colour.
pub fn chaser_color(i: usize) -> Rgba {
    CHASER[i % CHASER.len()]
}

/// The colour of the cells a chaser has walked: its colour, a quarter of
/// the way to the background (the chaser's disc, outlined, stands out on
/// its own walk; the darkest colours still show on the grid).
pub fn walk_color(i: usize) -> Rgba {
    let (c, b) = (chaser_color(i), color::BACKGROUND);
    let mix = |x: u8, y: u8| ((u16::from(x) * 3 + u16::from(y)) / 4) as u8;
    Rgba(mix(c.0, b.0), mix(c.1, b.1), mix(c.2, b.2), 255)
}

/// Cell size and top-left of the map in the viewport (above the side
/// view, when the camera keeps room for one).
fn layout(grid: &Grid, cam: &Camera) -> (i32, P) {
    super::grid_layout(
        grid.width() as i32,
        grid.height() as i32,
        areas(cam).0,
        8,
        cam.zoom,
        cam.center,
    )
}

/// The map's part of the viewport and, when the camera keeps room for
/// it, the side view's box along the bottom.
fn areas(cam: &Camera) -> (super::Viewport, Option<super::Viewport>) {
    let vp = cam.viewport;
    if !cam.side_view {
        return (vp, None);
    }
    let px = |n: i32| n * i32::from(cam.scale) / 100;
    let h = (vp.h * 30 / 100).min(px(200)).max(px(90)).min(vp.h / 2);
    let m = px(8);
    let side = super::Viewport {
        x: vp.x + m,
        y: vp.y + vp.h - h - m,
        w: vp.w - 2 * m,
        h,
    };
    let map = super::Viewport {
        h: (vp.h - h - m).max(1),
        ..vp
    };
    (map, Some(side))
}

/// The grid cell under a screen point.
pub fn cell_at(sim: &AnySim, cam: &Camera, at: P) -> Option<Cell> {
    let AnySim::Line(s) = sim else { return None };
    let grid = &s.config().grid;
    let (cell, o) = layout(grid, cam);
    let (dx, dy) = (at[0] - o[0], at[1] - o[1]);
    if dx < 0 || dy < 0 {
        return None;
    }
    let c = Cell::new(dx / cell, dy / cell);
    grid.contains(c).then_some(c)
}

/// The screen centre of a cell (for tests and the viewer's drags).
pub fn cell_center(sim: &AnySim, cam: &Camera, c: Cell) -> Option<P> {
    let AnySim::Line(s) = sim else { return None };
    let (cell, o) = layout(&s.config().grid, cam);
    Some(center(o, cell, c))
}

fn center(o: P, cell: i32, c: Cell) -> P {
    [o[0] + c.x * cell + cell / 2, o[1] + c.y * cell + cell / 2]
}

/// The steps a plan has taken so far, recomputed from its line.
fn walked(line: &Line, done: u64) -> Vec<Step> {
    line.stepper().take(done as usize).collect()
}

/// The chasers whose plans and tables are drawn: the selected one, else
/// the beat's focus, else its highlights, else all.
fn focus(sim: &LineSim, view: &View) -> Vec<usize> {
    let n = sim.state().chasers.len();
    let f: Vec<usize> = view
        .focused("chaser")
        .into_iter()
        .map(|i| i as usize)
        .filter(|&i| i < n)
        .collect();
    if f.is_empty() { (0..n).collect() } else { f }
}

pub(super) fn build(sim: &LineSim, frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let grid = &sim.config().grid;
    let (cell, o) = layout(grid, cam);
    let g = Geo { o, cell };
    let events: &[LineEvent] = match frame.explain {
        super::Explain::Line(e) => e,
        _ => &[],
    };
    let n = out.count();
    super::terrain(
        out,
        grid,
        o,
        cell,
        &super::TerrainStyle {
            heights: view.on("heights"),
            // The numbers go on top, after the chasers (see below).
            numbers_from: 0,
            number_px: view.font(16),
            flat: 52,
            gap: false,
            zeros: false,
            number_at: |cell, size| [cell / 12 + 1, cell / 12 + size * 9 / 10],
        },
    );
    if view.on("heights") {
        out.credit("heights", n);
    }
    if view.on("grid") {
        let n = out.count();
        draw_grid(grid, g, out);
        out.credit("grid", n);
    }
    let focus = focus(sim, view);
    if view.on("walked") {
        let n = out.count();
        // Which chasers walked each cell, in id order: a cell one chaser
        // walked gets the full square, a shared one a square per chaser.
        let mut by_cell: std::collections::BTreeMap<Cell, Vec<usize>> = Default::default();
        for (i, walk) in frame.walks.iter().enumerate() {
            for &c in walk {
                let ids = by_cell.entry(c).or_default();
                if ids.last() != Some(&i) {
                    ids.push(i);
                }
            }
        }
        for (i, walk) in frame.walks.iter().enumerate() {
            let rank = |c: &Cell| by_cell[c].iter().position(|&k| k == i).unwrap_or(0);
            draw_walk(walk, i, rank, g, view, out);
        }
        out.credit("walked", n);
    }
    for &i in &focus {
        draw_ideal(sim, i, g, view, out);
    }
    for &i in &focus {
        draw_sight(sim, i, g, view, out);
    }
    super::cell_marks(out, grid, o, cell, view);
    draw_actors(sim, g, (view, cam.viewport), out);
    // The plans' frames on top of the discs and names: at tick 0 a fanned
    // chaser's disc and name sit on its plan's first cell, which a class
    // counting the cells must see.
    for &i in &focus {
        draw_plan(sim, i, g, view, out);
    }
    if view.on("heights") && cell >= view.px(22) {
        let n = out.count();
        // Heights grow with the cells when the camera zooms in: a chip a
        // class reads across the room, never under 14 px.
        let px = (cell * 2 / 5).clamp(i32::from(view.font(14)), i32::from(view.font(28)));
        super::height_labels(out, grid, o, cell, px as u16);
        out.credit("heights", n);
    }
    if view.on("decision")
        && let Some(&i) = focus.first()
    {
        let n = out.count();
        draw_decision(sim, i, g, view, out);
        out.credit("decision", n);
    }
    if view.on("profile")
        && let (Some(&i), (_, Some(side))) = (focus.first(), areas(cam))
    {
        let n = out.count();
        draw_profile(sim, i, view, side, out);
        out.credit("profile", n);
    }
    panels(sim, &focus, events, view, out);
}

/// Bresenham's decision for chaser `i`'s coming step, drawn as article
/// 003 derives it: the border half a cell past the current minor row
/// (j + ½) across the next major column, and where the ideal line
/// crosses that column's centre (a dashed tick marks it: the rule
/// compares there, not where the line meets the border) — past the
/// border, the step moves the minor axis too (f ≥ 0), short of it, only
/// the major axis (f < 0). On a question's beat only the border and the
/// tick are drawn: where the line falls is the answer.
fn draw_decision(sim: &LineSim, i: usize, g: Geo, view: &View, out: &mut Scene) {
    let Some(plan) = shown_plan(sim, i) else {
        return;
    };
    let Some(next) = plan.peek() else {
        return;
    };
    let line = *plan.line();
    let here = plan.pos();
    let (major_x, k) = (line.x_major(), plan.done() as i64 + 1);
    // The next major column, and the current minor row's centre there.
    let col = if major_x {
        Cell::new(here.x + line.sx, here.y)
    } else {
        Cell::new(here.x, here.y + line.sy)
    };
    let c = g.center(col);
    let half = g.cell / 2;
    let w = view.lw(3, 2);
    // The border j + ½, towards the minor step.
    let border = if major_x {
        let y = c[1] + line.sy * half;
        ([c[0] - half, y], [c[0] + half, y])
    } else {
        let x = c[0] + line.sx * half;
        ([x, c[1] - half], [x, c[1] + half])
    };
    out.line(border.0, border.1, w, color::SELECTED);
    // The column's centre, where the rule compares: a dashed tick across
    // the row and the border (the line may cross the border elsewhere in
    // the column; only its height at the centre counts).
    let (across, sign) = if major_x { (1, line.sy) } else { (0, line.sx) };
    for k in 0..4 {
        let (a, b) = (
            -half + k * half * 3 / 4,
            -half + k * half * 3 / 4 + half * 3 / 8,
        );
        let (mut p, mut q) = (c, c);
        p[across] += sign * a;
        q[across] += sign * b;
        out.line(p, q, view.lw(2, 2), color::SELECTED);
    }
    // A callout keeps off the next column's cell and its border, where
    // the decision is drawn.
    let m = half + half / 2;
    out.keep_clear.push([c[0] - m, c[1] - m, 2 * m, 2 * m]);
    let lang = view.lang;
    let f = view.font(16);
    out.label_as(
        super::Role::Label,
        [border.1[0] + view.px(6), border.1[1] + i32::from(f) / 3],
        (f, color::SELECTED),
        tr!(lang, L_BORDER),
    );
    if view.withhold_next {
        return;
    }
    // The ideal line at the column's centre: from the start cell's centre,
    // k steps along the major axis, the minor axis has moved
    // k·d(minor)/d(major) cells.
    let start = g.center(line.from);
    let (dmaj, dmin) = if major_x {
        (line.dx, line.dy)
    } else {
        (line.dy, line.dx)
    };
    let along = (i64::from(g.cell) * k * dmin / dmaj.max(1)) as i32;
    let p = if major_x {
        [c[0], start[1] + line.sy * along]
    } else {
        [start[0] + line.sx * along, c[1]]
    };
    let r = view.px(6).max(4);
    let col_ink = if next.minor_stepped {
        color::GREEN
    } else {
        color::SKY
    };
    out.push(Shape::Disc {
        c: p,
        r,
        color: col_ink,
    });
    out.line(c, p, view.lw(2, 2), col_ink);
}

/// A side view of chaser `i`'s sight line, in a box along the bottom of
/// the scene: the cells it crosses in walk order, k = 0 (the chaser) to n
/// (its target), one column each, as bars of their ground heights
/// (walls hatched to the top); the eyes at the ends, `eye_height` above
/// the ground; the straight sight line between them. The line's height
/// over cell k is zA + (zB − zA)·k/n, so a bar that rises above it blocks
/// (one that only reaches it does not): the first such bar is crossed out
/// and the line beyond it drawn in the blocked colour. What the sight
/// panel's integers decide, drawn.
fn draw_profile(sim: &LineSim, i: usize, view: &View, b: super::Viewport, out: &mut Scene) {
    let g = Profile::new(sim, i, view, b);
    // The box.
    out.push(Shape::Rect {
        at: [b.x, b.y],
        size: [b.w, b.h],
        color: color::PANEL,
    });
    out.push(Shape::Frame {
        at: [b.x, b.y],
        size: [b.w, b.h],
        width: view.lw(2, 2),
        color: color::DIM,
    });
    out.keep_clear.push([b.x, b.y, b.w, b.h]);
    g.levels(view, b, out);
    g.ground(sim, out);
    g.sight(sim, view, out);
    g.ends(sim, i, view, out);
}

/// The side view's geometry: the cells of the sight line, the heights of
/// its two eyes, and where columns and levels fall, in whole pixels.
struct Profile {
    cells: Vec<Cell>,
    /// The cells crossed after the chaser's (the target's is the last).
    n: i32,
    /// The eyes' heights: the chaser's and the target's.
    za: i32,
    zb: i32,
    /// The highest level drawn.
    top: i32,
    left: i32,
    base: i32,
    roof: i32,
    col: i32,
    unit: i32,
}

impl Profile {
    fn new(sim: &LineSim, i: usize, view: &View, b: super::Viewport) -> Profile {
        let cfg = sim.config();
        let (from, to) = ends(sim, i);
        let line = Line::new(from, to);
        let n = line.len() as i32;
        let mut cells = vec![from];
        cells.extend(line.stepper().map(|s| s.cell));
        let height = |c: Cell| i32::from(cfg.grid.height_at(c).unwrap_or(0));
        let eye = cfg.eye_height;
        let (za, zb) = (height(from) + eye, height(to) + eye);
        let top = cells
            .iter()
            .map(|&c| height(c))
            .max()
            .unwrap_or(0)
            .max(za)
            .max(zb)
            .max(1)
            + 1;
        let m = view.px(8);
        let label = view.font(15);
        let left = b.x + super::text::width("9", label) + view.px(14);
        let (base, roof) = (b.y + b.h - view.px(10), b.y + i32::from(label) + view.px(8));
        let col = ((b.x + b.w - m - left) / (n + 1)).max(2);
        let unit = ((base - roof) / top).max(1);
        Profile {
            cells,
            n,
            za,
            zb,
            top,
            left,
            base,
            roof,
            col,
            unit,
        }
    }

    fn x_of(&self, k: i32) -> i32 {
        self.left + k * self.col + self.col / 2
    }

    /// The y of twice a height (half levels are where a line may pass).
    fn y_of(&self, z2: i32) -> i32 {
        self.base - z2 * self.unit / 2
    }

    fn height(sim: &LineSim, c: Cell) -> i32 {
        i32::from(sim.config().grid.height_at(c).unwrap_or(0))
    }

    /// Levels: a faint line each, and their numbers as often as they fit.
    fn levels(&self, view: &View, b: super::Viewport, out: &mut Scene) {
        let label = view.font(15);
        let every = ((i32::from(label) + 2 + self.unit - 1) / self.unit).max(1);
        for z in 0..=self.top {
            let y = self.y_of(2 * z);
            out.line(
                [self.left, y],
                [self.left + (self.n + 1) * self.col, y],
                1,
                with_alpha(color::DIM, 90),
            );
            if z % every == 0 {
                let at = [b.x + view.px(6), y + i32::from(label) / 3];
                out.text_as(super::Role::Cell, at, (label, color::DIM), z.to_string());
            }
        }
    }

    /// The ground under each cell, walls hatched to the top.
    fn ground(&self, sim: &LineSim, out: &mut Scene) {
        let (base, roof, col) = (self.base, self.roof, self.col);
        for (k, &c) in self.cells.iter().enumerate() {
            let x = self.left + k as i32 * col + 1;
            if sim.config().grid.is_wall(c) {
                out.push(Shape::Rect {
                    at: [x, roof],
                    size: [col - 2, base - roof],
                    color: color::WALL,
                });
                super::wall_hatch(out, [x, base - col.min(base - roof)], col.min(base - roof));
            } else {
                let y = self.y_of(2 * Profile::height(sim, c));
                out.push(Shape::Rect {
                    at: [x, y],
                    size: [col - 2, base - y],
                    color: super::HEIGHT_KEY,
                });
            }
        }
    }

    /// The sight line, clear up to the first cell above it and blocked
    /// beyond, that cell crossed out.
    fn sight(&self, sim: &LineSim, view: &View, out: &mut Scene) {
        let (n, za, zb) = (self.n, self.za, self.zb);
        let (a, z) = (
            [self.x_of(0), self.y_of(2 * za)],
            [self.x_of(n), self.y_of(2 * zb)],
        );
        let grid = &sim.config().grid;
        let blocker = self
            .cells
            .iter()
            .enumerate()
            .skip(1)
            .take((n - 1).max(0) as usize)
            .find(|&(k, &c)| {
                grid.is_wall(c) || Profile::height(sim, c) * n > za * n + (zb - za) * k as i32
            })
            .map(|(k, _)| k as i32);
        let w = view.lw(3, 2);
        let Some(k) = blocker else {
            out.line(a, z, w, color::GREEN);
            return;
        };
        let at = |k: i32| {
            [
                self.x_of(k),
                self.y_of((2 * za * n + 2 * (zb - za) * k) / n.max(1)),
            ]
        };
        out.line(a, at(k), w, color::GREEN);
        out.line(at(k), z, w, color::VERMILLION);
        let h = Profile::height(sim, self.cells[k as usize]).min(self.top);
        let c = [self.x_of(k), self.y_of(2 * h)];
        let r = (self.col / 3).clamp(view.px(6), view.px(14));
        out.line(
            [c[0] - r, c[1] - r],
            [c[0] + r, c[1] + r],
            w,
            color::VERMILLION,
        );
        out.line(
            [c[0] - r, c[1] + r],
            [c[0] + r, c[1] - r],
            w,
            color::VERMILLION,
        );
    }

    /// The eyes at the two ends, named with their heights.
    fn ends(&self, sim: &LineSim, i: usize, view: &View, out: &mut Scene) {
        let (za, zb) = (self.za, self.zb);
        let (a, z) = (
            [self.x_of(0), self.y_of(2 * za)],
            [self.x_of(self.n), self.y_of(2 * zb)],
        );
        let r = view.px(7);
        out.push(Shape::Disc {
            c: a,
            r,
            color: chaser_color(i),
        });
        out.push(Shape::Ring {
            c: z,
            r,
            width: view.lw(3, 2),
            color: color::SKY,
        });
        let (name, tname) = (
            view.name("chaser", i as u32),
            view.name("target", sim.config().chasers[i].target),
        );
        let f = view.font(16);
        out.label(
            [a[0] + r + view.px(4), a[1] - r - view.px(2)],
            f,
            chaser_color(i),
            format!("{name} zA = {za}"),
        );
        let tw = super::text::width(&format!("{tname} zB = {zb}"), f);
        out.label(
            [z[0] - tw - r - view.px(4), z[1] - r - view.px(2)],
            f,
            color::SKY,
            format!("{tname} zB = {zb}"),
        );
    }
}

/// Each chaser's colour (when there are few), the target, and the two
/// line-of-sight colours.
pub(super) fn legend(sim: &LineSim, view: &View) -> Vec<(Rgba, String)> {
    let mut out = Vec::new();
    let lang = view.lang;
    let n = sim.state().chasers.len();
    if n <= 4 {
        for i in 0..n {
            let name = view.name("chaser", i as u32);
            out.push((chaser_color(i), tr!(lang, L_LEG_CHASER, name)));
        }
    } else {
        out.push((color::ORANGE, tr!(lang, L_LEG_CHASERS).to_owned()));
    }
    out.push((color::SKY, tr!(lang, L_LEG_TARGET).to_owned()));
    out.extend(super::wall_key(&sim.config().grid, lang));
    if view.on("heights") {
        out.push((super::HEIGHT_KEY, tr!(lang, P_LEG_HEIGHTS).to_owned()));
    }
    if view.on("profile") {
        out.push((color::DIM, tr!(lang, L_LEG_PROFILE).to_owned()));
    }
    if view.on("decision") {
        // Without the dot while the coming step is held back.
        let key = if view.withhold_next {
            tr!(lang, L_LEG_BORDER)
        } else {
            tr!(lang, L_LEG_DECISION)
        };
        out.push((color::SELECTED, key.to_owned()));
    }
    if view.on("ideal_line") {
        out.push((color::SKY, tr!(lang, L_LEG_IDEAL).to_owned()));
    }
    let words = |pairs: &[(Rgba, &str)]| -> Vec<(Rgba, String)> {
        pairs.iter().map(|&(c, s)| (c, s.to_owned())).collect()
    };
    if view.on("sight") && view.on("sight_back") {
        out.extend(words(&[
            (color::GREEN, tr!(lang, L_LEG_THERE)),
            (color::SKY, tr!(lang, L_LEG_BACK)),
            (color::VERMILLION, tr!(lang, L_LEG_BLOCKED_TO)),
            (color::SELECTED, tr!(lang, L_LEG_ONE_WAY)),
        ]));
    } else if view.on("sight") || view.on("sight_back") {
        out.extend(words(&[
            (color::GREEN, tr!(lang, L_LEG_CLEAR)),
            (color::VERMILLION, tr!(lang, L_LEG_BLOCKED)),
        ]));
    }
    out
}

/// Where the grid is on screen.
#[derive(Clone, Copy)]
struct Geo {
    o: P,
    cell: i32,
}

impl Geo {
    fn corner(&self, c: Cell) -> P {
        [self.o[0] + c.x * self.cell, self.o[1] + c.y * self.cell]
    }

    fn center(&self, c: Cell) -> P {
        center(self.o, self.cell, c)
    }

    /// A filled square inside a cell, inset by `m` pixels on every side.
    fn inset(&self, c: Cell, m: i32, color: Rgba) -> Shape {
        let at = self.corner(c);
        Shape::Rect {
            at: [at[0] + m, at[1] + m],
            size: [self.cell - 2 * m, self.cell - 2 * m],
            color,
        }
    }
}

fn draw_grid(grid: &Grid, g: Geo, out: &mut Scene) {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let c = with_alpha(color::DIM, 100);
    for x in 0..=w {
        let a = g.corner(Cell::new(x, 0));
        out.line(a, [a[0], a[1] + h * g.cell], 1, c);
    }
    for y in 0..=h {
        let a = g.corner(Cell::new(0, y));
        out.line(a, [a[0] + w * g.cell, a[1]], 1, c);
    }
}

/// The cells a chaser stood on, in its colour, joined in order: on a cell
/// several chasers walked, each a smaller square than the one before
/// (`rank`: this chaser's place among them), so every one shows.
fn draw_walk(
    walk: &[Cell],
    i: usize,
    rank: impl Fn(&Cell) -> usize,
    g: Geo,
    view: &View,
    out: &mut Scene,
) {
    // The start is not a cell of the line: a diamond, not a square (the
    // plan's cells are framed squares).
    for (k, c) in walk.iter().enumerate() {
        let m = g.cell / 8 + (rank(c) % 3) as i32 * g.cell / 10;
        if k == 0 {
            let p = g.center(*c);
            let r = g.cell / 2 - m;
            let d = [
                [p[0], p[1] - r],
                [p[0] + r, p[1]],
                [p[0], p[1] + r],
                [p[0] - r, p[1]],
            ];
            for s in 0..4 {
                out.line(d[s], d[(s + 1) % 4], view.lw(3, 2), walk_color(i));
            }
        } else {
            out.push(g.inset(*c, m, walk_color(i)));
        }
    }
    for pair in walk.windows(2) {
        out.line(
            g.center(pair[0]),
            g.center(pair[1]),
            view.lw(3, 2),
            chaser_color(i),
        );
    }
}

/// The plan shown for chaser `i`: the one it follows at the coming step,
/// or, once it has arrived, the one it walked.
fn shown_plan(sim: &LineSim, i: usize) -> Option<Stepper> {
    sim.coming_plan(i).or(sim.state().chasers[i].plan)
}

/// Chaser `i`'s plan: the cells left to walk (frames) and, when the beat
/// points at it, the coming diagonal step.
fn draw_plan(sim: &LineSim, i: usize, g: Geo, view: &View, out: &mut Scene) {
    let Some(plan) = shown_plan(sim, i) else {
        return;
    };
    let col = chaser_color(i);
    if view.on("plan") {
        let n = out.count();
        let left = (sim.config().max_path as u64).saturating_sub(plan.done()) as usize;
        // Inset by id, so plans that coincide show each chaser's frame.
        let m = g.cell / 10 + 1 + (i % 3) as i32 * g.cell / 8;
        // One plan in big enough cells: each frame numbered by its step
        // along the line, as the error table counts them (at tick 0,
        // "after four ticks" is the frame marked 4). Not over heights or
        // sight dots, whose marks share the cell.
        let numbered = focus(sim, view).len() == 1
            && g.cell >= view.px(24)
            && !["heights", "sight", "sight_back"]
                .iter()
                .any(|o| view.on(o));
        // As large as the cell allows, in the frame's corner the ideal
        // line keeps away from (it crosses a cell near its centre, entering
        // on the far side of the major axis and the near side of the minor),
        // so neither the line nor the decision's dot strikes the number.
        let size = view
            .font(13)
            .max((g.cell / 3).min(i32::from(view.font(24))) as u16);
        let line = *plan.line();
        let (right, below) = if line.x_major() {
            (line.sx < 0, line.sy > 0)
        } else {
            (line.sx > 0, line.sy < 0)
        };
        for (k, s) in plan.take(left).enumerate() {
            let at = g.corner(s.cell);
            out.push(Shape::Frame {
                at: [at[0] + m, at[1] + m],
                size: [g.cell - 2 * m, g.cell - 2 * m],
                width: view.lw(3, 2),
                color: col,
            });
            if numbered {
                let t = (plan.done() + k as u64 + 1).to_string();
                let (w, h) = (super::text::width(&t, size), i32::from(size));
                let pad = m + view.px(4);
                let x = if right {
                    at[0] + g.cell - pad - w
                } else {
                    at[0] + pad
                };
                let y = if below {
                    at[1] + g.cell - pad - h / 5
                } else {
                    at[1] + pad + h * 4 / 5
                };
                out.text_as(super::Role::Cell, [x, y], (size, col), t);
            }
        }
        // The coming diagonal step, when the beat points at it.
        if let Some(next) = plan.peek().filter(|s| {
            !view.withhold_next
                && s.minor_stepped
                && view.highlight.iter().any(|h| h == "minor_step")
        }) {
            let at = g.corner(next.cell);
            out.push(Shape::Frame {
                at: [at[0] - 2, at[1] - 2],
                size: [g.cell + 4, g.cell + 4],
                width: view.lw(4, 3),
                color: color::SELECTED,
            });
        }
        out.credit("plan", n);
    }
}

/// Chaser `i`'s ideal line, from its plan's start to its end.
fn draw_ideal(sim: &LineSim, i: usize, g: Geo, view: &View, out: &mut Scene) {
    let Some(plan) = shown_plan(sim, i) else {
        return;
    };
    if view.on("ideal_line") {
        let n = out.count();
        let line = plan.line();
        out.line(
            g.center(line.from),
            g.center(line.to),
            view.lw(3, 2),
            color::SKY,
        );
        out.credit("ideal_line", n);
    }
}

/// Line of sight both ways: the cells each line passes as dots — on the
/// left of the cell for chaser → target, on the right for target →
/// chaser — filled up to the first cell that blocks it (crossed), hollow
/// after it; with both directions on, the cells only one of the two lines
/// passes are framed.
fn draw_sight(sim: &LineSim, i: usize, g: Geo, view: &View, out: &mut Scene) {
    let (c, t) = ends(sim, i);
    let st = &sim.state().chasers[i];
    let there: Vec<Cell> = Line::new(c, t).stepper().map(|s| s.cell).collect();
    let back: Vec<Cell> = Line::new(t, c).stepper().map(|s| s.cell).collect();
    let both = view.on("sight") && view.on("sight_back");
    let r = (g.cell / 7).max(view.px(4));
    for (overlay, sight, cells, other, dx) in [
        ("sight", st.sight, &there, &back, -g.cell / 5),
        ("sight_back", st.sight_back, &back, &there, g.cell / 5),
    ] {
        if !view.on(overlay) {
            continue;
        }
        let n = out.count();
        let (from, to) = if overlay == "sight" { (c, t) } else { (t, c) };
        // The dots take the direction's colour, the line the verdict's.
        let dir = sight_color(overlay);
        let col = if sight.visible {
            dir
        } else {
            color::VERMILLION
        };
        let a = g.center(from);
        let b = g.center(sight.blocker.unwrap_or(to));
        out.line([a[0] + dx, a[1]], [b[0] + dx, b[1]], view.lw(3, 2), col);
        let mut blocked = false;
        for &cell in cells.iter() {
            let p = g.center(cell);
            let dot = [p[0] + dx, p[1]];
            // The blocker gets its cross, not a clear dot under it.
            let blocker = Some(cell) == sight.blocker;
            if blocked {
                out.push(Shape::Ring {
                    c: dot,
                    r,
                    width: view.lw(2, 2),
                    color: color::DIM,
                });
            } else if !blocker {
                out.push(Shape::Disc {
                    c: dot,
                    r,
                    color: dir,
                });
            }
            if both && !other.contains(&cell) && cell != from && cell != to {
                out.push(Shape::Frame {
                    at: g.corner(cell),
                    size: [g.cell, g.cell],
                    width: view.lw(3, 2),
                    color: color::SELECTED,
                });
            }
            if blocker {
                cross(out, p, g.cell / 3, view.lw(5, 3), color::VERMILLION);
                blocked = true;
            }
        }
        out.credit(overlay, n);
    }
}

/// The colour of a sight direction's dots: chaser → target green,
/// target → chaser sky blue (the target's own colour).
fn sight_color(overlay: &str) -> Rgba {
    if overlay == "sight_back" {
        color::SKY
    } else {
        color::GREEN
    }
}

/// Chaser `i`'s cell and its target's.
fn ends(sim: &LineSim, i: usize) -> (Cell, Cell) {
    let st = sim.state();
    let t = sim.config().chasers[i].target as usize;
    (st.chasers[i].pos, st.targets[t])
}

fn cross(out: &mut Scene, p: P, r: i32, w: u16, col: Rgba) {
    out.line([p[0] - r, p[1] - r], [p[0] + r, p[1] + r], w, col);
    out.line([p[0] - r, p[1] + r], [p[0] + r, p[1] - r], w, col);
}

/// Targets (rings) and chasers (discs in their colours), named.
fn draw_actors(sim: &LineSim, g: Geo, (view, vp): (&View, super::Viewport), out: &mut Scene) {
    draw_targets(sim, g, (view, vp), out);
    let st = sim.state();
    let hl_c = view.highlighted("chaser");
    let strong = |i: usize| hl_c.contains(&(i as u32)) || view.selected == Some(i as u32);
    // The emphasised chasers last: on top of any sharing their cell.
    let mut order: Vec<usize> = (0..st.chasers.len()).collect();
    order.sort_by_key(|&i| strong(i));
    for i in order {
        draw_chaser(sim, i, strong(i), g, (view, vp), out);
    }
}

/// The targets: sky-blue rings, named right of them (left in the last
/// column).
fn draw_targets(sim: &LineSim, g: Geo, (view, vp): (&View, super::Viewport), out: &mut Scene) {
    let hl_t = view.highlighted("target");
    let label = view.font(18);
    for (i, t) in sim.state().targets.iter().enumerate() {
        let p = g.center(*t);
        let strong = hl_t.contains(&(i as u32)) || view.focused("target").contains(&(i as u32));
        out.push(Shape::Ring {
            c: p,
            r: (g.cell * 2 / 5).max(view.px(8)),
            width: view.lw(if strong { 6 } else { 4 }, 3),
            color: color::SKY,
        });
        // A target the camera leaves out is not named at the edge (the
        // name would look like its place).
        if !super::on_screen(vp, p) {
            continue;
        }
        let name = view.name("target", i as u32);
        let right = t.x + 1 < sim.config().grid.width() as i32;
        let x = if right {
            p[0] + g.cell / 2 + 2
        } else {
            p[0] - g.cell / 2 - 2 - super::text::width(&name, label)
        };
        out.label_in(vp, [x, p[1] - g.cell / 4], label, color::SKY, name);
    }
}

/// Chaser `i`: a disc in its colour (ringed when emphasised), named.
fn draw_chaser(
    sim: &LineSim,
    i: usize,
    strong: bool,
    g: Geo,
    (view, vp): (&View, super::Viewport),
    out: &mut Scene,
) {
    let st = sim.state();
    let c = &st.chasers[i];
    let sharing = st.chasers.iter().filter(|o| o.pos == c.pos).count() as u64;
    let same = st.chasers[..i].iter().filter(|o| o.pos == c.pos).count() as i32;
    let mut p = g.center(c.pos);
    let mut r = (g.cell / 3).max(view.px(7));
    // Chasers that share a cell stand in a small circle round it: each
    // towards its own target when their targets lie in different
    // directions (named beside its disc), else the first on the left
    // and on clockwise (two: A left, B right, as their names read
    // below the cell).
    let fanned = shared_spot(sim, i, sharing, same);
    if let Some((turn, _)) = fanned {
        let u = turn.unit();
        r = (g.cell / 6).max(view.px(5));
        // Far enough out that the discs do not overlap.
        let off = i64::from((g.cell * 3 / 10).max(r * sharing as i32 * 2 / 5 + 1));
        p = [
            p[0] + u.x.mul_int(off).round_int(),
            p[1] - u.y.mul_int(off).round_int(),
        ];
    }
    out.push(Shape::Disc {
        c: p,
        r: r + view.px(if strong { 5 } else { 3 }),
        color: if strong { color::SELECTED } else { color::WALL },
    });
    out.push(Shape::Disc {
        c: p,
        r,
        color: chaser_color(i),
    });
    if !super::on_screen(vp, p) {
        return;
    }
    let label = view.font(18);
    if let Some((turn, true)) = fanned {
        // Beside its disc, outwards.
        let u = turn.unit();
        let name = view.name("chaser", i as u32);
        let w = super::text::width(&name, label);
        let out_by = i64::from(r + view.px(4) + w.max(i32::from(label)) * 6 / 10);
        let at = [
            p[0] + u.x.mul_int(out_by).round_int() - w / 2,
            p[1] - u.y.mul_int(out_by).round_int() + i32::from(label) / 3,
        ];
        out.label_in(vp, at, label, chaser_color(i), name);
        return;
    }
    name_below(sim, i, (sharing, same), g, (view, vp), out);
}

/// Chaser `i`'s name below its cell, in id order with the others there
/// (above the cell on the bottom row, or when another chaser stands where
/// the name would go below and not where it would go above).
fn name_below(
    sim: &LineSim,
    i: usize,
    (sharing, same): (u64, i32),
    g: Geo,
    (view, vp): (&View, super::Viewport),
    out: &mut Scene,
) {
    let st = sim.state();
    let c = &st.chasers[i];
    let label = view.font(18);
    let mid = g.center(c.pos);
    // The rows a name spans in small cells.
    let reach = 1 + i32::from(label) / g.cell.max(1);
    let near = |dir: i32| {
        st.chasers
            .iter()
            .any(|o| o.pos.x == c.pos.x && (1..=reach).any(|k| o.pos.y == c.pos.y + dir * k))
    };
    let bottom = c.pos.y + 1 >= sim.config().grid.height() as i32 || (near(1) && !near(-1));
    // The row of names moves left as a whole where it would leave the
    // pane (names one-letter wide: `px(14)` apart).
    let row = view.px(14) * sharing as i32 + view.px(6);
    let left = (mid[0] - view.px(2)).min(vp.x + vp.w - row);
    let y = if bottom {
        mid[1] - g.cell / 2 - i32::from(label) / 4
    } else {
        mid[1] + g.cell / 2 + i32::from(label)
    };
    // Right of the cell's height chip (its top-left corner).
    let at = [left + same * view.px(14), y];
    out.label_in(
        vp,
        at,
        label,
        chaser_color(i),
        view.name("chaser", i as u32),
    );
}

/// Where chaser `i`, one of `sharing` on a cell (`same` of them before it
/// in id order), stands: the turn (counter-clockwise from +x, y up on
/// screen) of its offset from the cell's centre, and whether that is the
/// direction of its own target (the chasers on the cell all head different
/// ways); `None` when it has the cell to itself.
fn shared_spot(sim: &LineSim, i: usize, sharing: u64, same: i32) -> Option<(Angle, bool)> {
    if sharing < 2 {
        return None;
    }
    let st = sim.state();
    let pos = st.chasers[i].pos;
    let towards = |k: usize| {
        let t = st.targets[sim.config().chasers[k].target as usize];
        let (dx, dy) = (t.x - pos.x, t.y - pos.y);
        ((dx, dy) != (0, 0)).then(|| {
            Angle::of(crate::num::Vec2::new(
                crate::num::Fx::from_int(dx),
                crate::num::Fx::from_int(-dy),
            ))
        })
    };
    let group: Vec<Option<Angle>> = (0..st.chasers.len())
        .filter(|&k| st.chasers[k].pos == pos)
        .map(towards)
        .collect();
    // Apart by at least half the fan's spacing, pairwise.
    let gap = (1u64 << 32) / (2 * sharing);
    let distinct = group.iter().all(Option::is_some)
        && group.iter().enumerate().all(|(a, x)| {
            group[a + 1..].iter().all(|y| {
                let d = x
                    .unwrap_or(Angle::ZERO)
                    .0
                    .wrapping_sub(y.unwrap_or(Angle::ZERO).0);
                u64::from(d.min(d.wrapping_neg())) >= gap
            })
        });
    if distinct && let Some(Some(a)) = group.get(same as usize) {
        return Some((*a, true));
    }
    let step = ((same as u64) << 32).checked_div(sharing).unwrap_or(0) as u32;
    Some((Angle(Angle::HALF.0.wrapping_sub(step)), false))
}

fn status_text(s: Status, max_path: u32, lang: Lang) -> String {
    match s {
        Status::Ready => tr!(lang, L_READY).to_owned(),
        Status::Walking => tr!(lang, L_WALKING).to_owned(),
        Status::Arrived => tr!(lang, L_ARRIVED).to_owned(),
        Status::Blocked { wall } => tr!(lang, L_BLOCKED_AT, wall),
        Status::PlanExhausted => tr!(lang, L_STOPPED, max_path),
    }
}

fn panels(sim: &LineSim, focus: &[usize], events: &[LineEvent], view: &View, out: &mut Scene) {
    let cfg = sim.config();
    let st = sim.state();
    let sight_on = view.on("sight") || view.on("sight_back");
    let lang = view.lang;
    let mut status = Panel {
        rank: 0,
        title: if sight_on {
            tr!(lang, L_TITLE_EYES, st.tick, cfg.eye_height)
        } else {
            tr!(lang, L_TITLE, st.tick)
        },
        lines: Vec::new(),
    };
    for (i, (c, cc)) in st.chasers.iter().zip(&cfg.chasers).enumerate() {
        let (name, tname) = (
            view.name("chaser", i as u32),
            view.name("target", cc.target),
        );
        let sees = match (c.sight.visible, c.sight.blocker) {
            (true, _) => tr!(lang, L_SEES, tname),
            (false, Some(b)) => tr!(lang, L_SIGHT_BLOCKED, b),
            (false, None) => tr!(lang, L_CANNOT_SEE, tname),
        };
        let back = if c.sight_back.visible {
            tr!(lang, L_SEEN_BACK, tname, name)
        } else {
            tr!(lang, L_NOT_SEEN_BACK, tname, name)
        };
        // Each direction's verdict shows with its overlay: a question
        // about the look back is not answered here before it is drawn.
        let mut sight = String::new();
        for (on, verdict) in [(view.on("sight"), sees), (view.on("sight_back"), back)] {
            if on {
                sight.push_str(&tr!(lang, L_AND, verdict));
            }
        }
        let at = st.targets[cc.target as usize];
        let moved =
            c.plan.is_some_and(|p| p.line().to != at) || c.status == Status::Arrived && c.pos != at;
        let doing = if moved {
            tr!(lang, L_TARGET_MOVED).to_owned()
        } else {
            status_text(c.status, cfg.max_path, lang)
        };
        status
            .lines
            .push(tr!(lang, L_CHASER, name, c.pos, tname, at, doing, sight));
    }
    for e in events {
        if let LineEvent::TargetMoved {
            target,
            from,
            to,
            random,
        } = e
        {
            let m = if *random {
                &crate::i18n::L_MOVED_RANDOM
            } else {
                &crate::i18n::L_MOVED
            };
            let name = view.name("target", *target);
            status.lines.push(m.with(lang, &[&name, from, to]));
        }
    }
    out.panels.push(status);
    if view.on("sight")
        && let Some(&i) = focus.first()
    {
        let n = out.count();
        out.panels.push(sight_panel(sim, i, view));
        out.credit("sight", n);
    }
    for &i in focus.iter().take(2) {
        let Some(plan) = shown_plan(sim, i) else {
            continue;
        };
        let name = view.name("chaser", i as u32);
        if view.on("formula") {
            let n = out.count();
            out.panels.push(formula(&plan, &name, view));
            out.credit("formula", n);
        }
        if view.on("error_table") {
            let n = out.count();
            out.panels.push(error_table(&plan, &name, view));
            out.credit("error_table", n);
        }
    }
}

/// Chaser `i`'s line-of-sight test with its integers: the eye heights at
/// both ends, the number of steps, and the first cell that blocks (or the
/// one that comes closest to blocking), as `h·n` against
/// `zA·n + (zB − zA)·k` — the test of [`crate::sim::line::line_of_sight`].
fn sight_panel(sim: &LineSim, i: usize, view: &View) -> Panel {
    let cfg = sim.config();
    let (from, to) = ends(sim, i);
    let (name, tname) = (
        view.name("chaser", i as u32),
        view.name("target", cfg.chasers[i].target),
    );
    let height = |c: Cell| i64::from(cfg.grid.height_at(c).unwrap_or(0));
    let eye = i64::from(cfg.eye_height);
    let (za, zb) = (height(from) + eye, height(to) + eye);
    let line = Line::new(from, to);
    let n = line.len() as i64;
    let lang = view.lang;
    if n == 0 {
        let same = tr!(lang, L_SAME_CELL, name, tname);
        return titled(vec![same], (&name, &tname), lang);
    }
    let (hf, ht) = (height(from), height(to));
    let mut lines = vec![
        tr!(lang, L_EYES, name, hf, eye, za, tname, ht, zb),
        tr!(lang, L_STEPS, n),
        "h·n > zA·n + (zB − zA)·k".to_owned(),
    ];
    // The blocker, else the cell with the least room under the ray.
    let mut closest: Option<(i64, Step, i64, i64)> = None;
    for s in line.stepper().take_while(|s| s.cell != to) {
        let k = s.index as i64;
        if cfg.grid.is_wall(s.cell) {
            lines.push(tr!(lang, L_WALL_BLOCKS, k, s.cell));
            return titled(lines, (&name, &tname), lang);
        }
        let (lhs, rhs) = (height(s.cell) * n, za * n + (zb - za) * k);
        if lhs > rhs {
            let sign = if zb >= za { "+" } else { "−" };
            let (h, rise) = (height(s.cell), (zb - za).abs());
            lines.push(tr!(
                lang,
                L_CELL_BLOCKS,
                k,
                s.cell,
                h,
                n,
                lhs,
                za,
                sign,
                rise,
                rhs
            ));
            return titled(lines, (&name, &tname), lang);
        }
        if closest.is_none_or(|c| rhs - lhs < c.0) {
            closest = Some((rhs - lhs, s, lhs, rhs));
        }
    }
    match closest {
        Some((_, s, lhs, rhs)) => {
            let h = height(s.cell);
            lines.push(tr!(
                lang, L_CLOSEST, s.index, s.cell, h, lhs, rhs, name, tname
            ));
        }
        None => lines.push(tr!(lang, L_NOTHING_BETWEEN, name, tname)),
    }
    titled(lines, (&name, &tname), lang)
}

fn titled(lines: Vec<String>, (name, tname): (&str, &str), lang: Lang) -> Panel {
    Panel {
        title: tr!(lang, L_SIGHT_TITLE, name, tname),
        lines,
        rank: 0,
    }
}

/// Bresenham's rule for a plan, with its numbers filled in, and the
/// coming step's decision.
fn formula(plan: &Stepper, name: &str, view: &View) -> Panel {
    let line = plan.line();
    let (major, minor, mj, mn) = if line.x_major() {
        (line.dx, line.dy, "dx", "dy")
    } else {
        (line.dy, line.dx, "dy", "dx")
    };
    let mark = |on: bool| if on { "▶ " } else { "" };
    let lang = view.lang;
    let axis = if line.x_major() { "x" } else { "y" };
    let marked = |what: &str| mark(view.highlight.iter().any(|h| h == what));
    let mut lines = vec![
        tr!(lang, L_LINE, line.from, line.to, axis),
        format!(
            "dx = {}, dy = {}, sx = {:+}, sy = {:+}",
            line.dx, line.dy, line.sx, line.sy,
        ),
        tr!(
            lang,
            L_START,
            marked("error_term"),
            mn,
            mj,
            minor,
            major,
            line.f0()
        ),
        tr!(lang, L_BELOW, mn, 2 * minor),
        tr!(lang, L_ABOVE, mn, mj, 2 * minor - 2 * major),
        tr!(lang, L_CLOSED_FORM, marked("rule"), mn, mj),
    ];
    if plan.peek().is_some() {
        let (i, j) = (plan.done() as i64, plan.minor_done() as i64);
        let value = 2 * minor * (i + 1) - major * (2 * j + 1);
        let (ma, mi) = (&mj[1..], &mn[1..]);
        let (i1, j1) = (i + 1, 2 * j + 1);
        lines.push(tr!(
            lang, L_SO_FAR, i, ma, j, mi, minor, i1, major, j1, value
        ));
    }
    match plan.peek() {
        Some(_) if view.withhold_next => {
            if view.asking {
                lines.push(tr!(lang, L_NEXT_HELD).into());
            }
        }
        Some(next) => {
            let m = mark(view.highlight.iter().any(|h| h == "minor_step") && next.minor_stepped);
            let decided = if next.minor_stepped {
                tr!(lang, L_BOTH)
            } else {
                tr!(lang, L_MAJOR)
            };
            let (k, fb, cell, fa) = (next.index, next.f_before, next.cell, next.f_after);
            lines.push(tr!(lang, L_NEXT, m, k, fb, decided, cell, fa));
        }
        None => lines.push(tr!(lang, L_DONE).into()),
    }
    Panel {
        title: tr!(lang, L_FORMULA_TITLE, name),
        lines,
        rank: 0,
    }
}

/// The error-term table of a plan: the steps taken, then the coming one.
fn error_table(plan: &Stepper, name: &str, view: &View) -> Panel {
    let steps = walked(plan.line(), plan.done());
    let lang = view.lang;
    let mut lines = vec![tr!(lang, L_TABLE_HEAD).to_owned()];
    let skip = steps.len().saturating_sub(14);
    if skip > 0 {
        lines.push(if skip == 1 {
            tr!(lang, L_EARLIER_ONE).to_owned()
        } else {
            tr!(lang, L_EARLIER, skip)
        });
    }
    let row = |s: &Step, mark: &str| {
        let decided = if s.minor_stepped {
            tr!(lang, L_DECIDE_BOTH)
        } else {
            tr!(lang, L_DECIDE_MAJOR)
        };
        let (k, fb, cell, fa) = (s.index, s.f_before, s.cell, s.f_after);
        format!("{mark}{k}\t{fb}\t{decided}\t{cell}\t{fa}")
    };
    for s in steps.iter().skip(skip) {
        lines.push(row(s, ""));
    }
    if let Some(next) = plan.peek().filter(|_| !view.withhold_next) {
        let emphasise = view
            .highlight
            .iter()
            .any(|h| h == "error_term" || h == "minor_step" && next.minor_stepped);
        let mark = if emphasise {
            tr!(lang, L_NEXT_ROW_MARKED)
        } else {
            tr!(lang, L_NEXT_ROW)
        };
        lines.push(row(&next, mark));
    }
    Panel {
        title: tr!(lang, L_TABLE_TITLE, name),
        lines,
        rank: 0,
    }
}

/// A callout's figure (see [`crate::lesson::callout`]) for a line sim: of
/// a chaser (its plan's coming error term, the steps of its plan so far,
/// the cells it has walked, its plan's dx and dy), or the height of a
/// target's or a cell's ground.
pub(super) fn callout_figure(
    sim: &LineSim,
    frame: &Frame,
    view: &View,
    at: &str,
    key: &str,
) -> Option<String> {
    let st = sim.state();
    if key == "tick" {
        return Some(st.tick.to_string());
    }
    let grid = &sim.config().grid;
    match at.split_once(':')? {
        ("chaser", i) => {
            let i: usize = i.parse().ok()?;
            let plan = shown_plan(sim, i);
            match key {
                "f" if view.withhold_next => None,
                "f" => plan?.peek().map(|s| s.f_before.to_string()),
                "step" => plan.map(|p| p.done().to_string()),
                "walked" => frame
                    .walks
                    .get(i)
                    .map(|w| w.len().saturating_sub(1).to_string()),
                "pos" => st.chasers.get(i).map(|c| c.pos.to_string()),
                "dx" => plan.map(|p| p.line().dx.to_string()),
                "dy" => plan.map(|p| p.line().dy.to_string()),
                _ => None,
            }
        }
        ("target", i) => {
            let t = st.targets.get(i.parse::<usize>().ok()?)?;
            (key == "height").then(|| grid.height_at(*t).map(|h| h.to_string()))?
        }
        ("cell", _) => {
            let c = *super::cells_of(&[at.to_owned()]).first()?;
            (key == "height").then(|| grid.height_at(c).map(|h| h.to_string()))?
        }
        _ => None,
    }
}

/// Where a line callout points: the centre of its chaser's, target's or
/// cell's cell, with half a cell as its radius.
pub(super) fn callout_anchor(sim: &LineSim, cam: &Camera, at: &str) -> Option<(P, i32)> {
    let st = sim.state();
    let cell = match at.split_once(':')? {
        ("chaser", i) => st.chasers.get(i.parse::<usize>().ok()?)?.pos,
        ("target", i) => *st.targets.get(i.parse::<usize>().ok()?)?,
        ("cell", _) => *super::cells_of(&[at.to_owned()]).first()?,
        _ => return None,
    };
    let (size, o) = layout(&sim.config().grid, cam);
    Some((center(o, size, cell), size / 2))
}
