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
use crate::sim::line::{Line, LineEvent, LineSim, Status, Step, Stepper};
use crate::sim::{AnySim, Cell, Grid, Sim};

/// Each chaser's colour, by id (cycled): its disc, plan and walked cells.
const CHASER: [Rgba; 4] = [color::ORANGE, color::PURPLE, color::BLUE, color::VERMILLION];

/// A chaser's colour.
pub fn chaser_color(i: usize) -> Rgba {
    CHASER[i % CHASER.len()]
}

/// The colour of the cells a chaser has walked: its colour, darker (the
/// chaser's disc stands out on its own walk).
pub fn walk_color(i: usize) -> Rgba {
    let c = chaser_color(i);
    Rgba(
        (u16::from(c.0) * 3 / 5) as u8,
        (u16::from(c.1) * 3 / 5) as u8,
        (u16::from(c.2) * 3 / 5) as u8,
        255,
    )
}

/// Cell size and top-left of the map in the viewport.
fn layout(grid: &Grid, cam: &Camera) -> (i32, P) {
    super::grid_layout(
        grid.width() as i32,
        grid.height() as i32,
        cam.viewport,
        8,
        cam.zoom,
        cam.center,
    )
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
            numbers_from: if view.on("heights") { view.px(22) } else { 0 },
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
        for (i, walk) in frame.walks.iter().enumerate() {
            draw_walk(walk, i, g, view, out);
        }
        out.credit("walked", n);
    }
    for &i in &focus {
        draw_plan(sim, i, g, view, out);
    }
    for &i in &focus {
        draw_sight(sim, i, g, view, out);
    }
    super::cell_marks(out, grid, o, cell, view);
    draw_actors(sim, g, view, out);
    panels(sim, &focus, events, view, out);
    legend(sim, view, out);
}

/// Each chaser's colour (when there are few), the target, and the two
/// line-of-sight colours.
fn legend(sim: &LineSim, view: &View, out: &mut Scene) {
    let n = sim.state().chasers.len();
    if n <= CHASER.len() {
        for i in 0..n {
            out.legend.push((
                chaser_color(i),
                format!("{}: disc, plan, walk", view.name("chaser", i as u32)),
            ));
        }
    } else {
        out.legend.push((
            color::ORANGE,
            "chasers: disc, plan, walk, each its colour".to_owned(),
        ));
    }
    out.legend.push((color::SKY, "target (ring)".to_owned()));
    if view.on("sight") || view.on("sight_back") {
        out.legend.extend([
            (color::GREEN, "sight: clear".to_owned()),
            (color::VERMILLION, "blocked (×)".to_owned()),
            (color::SELECTED, "one direction only (frame)".to_owned()),
        ]);
    }
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

/// The cells a chaser stood on, in its colour, joined in order: the
/// first chaser's squares outermost, each later one's smaller, so cells
/// two chasers share show both.
fn draw_walk(walk: &[Cell], i: usize, g: Geo, view: &View, out: &mut Scene) {
    let m = g.cell / 6 + (i % 4) as i32 * g.cell / 10;
    for &c in walk {
        out.push(g.inset(c, m, walk_color(i)));
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

/// Chaser `i`'s plan: the cells left to walk (frames), the ideal line
/// from its start to its end.
fn draw_plan(sim: &LineSim, i: usize, g: Geo, view: &View, out: &mut Scene) {
    let Some(plan) = shown_plan(sim, i) else {
        return;
    };
    let col = chaser_color(i);
    if view.on("plan") {
        let n = out.count();
        let left = (sim.config().max_path as u64).saturating_sub(plan.done()) as usize;
        let m = g.cell / 10 + 1;
        for s in plan.take(left) {
            let at = g.corner(s.cell);
            out.push(Shape::Frame {
                at: [at[0] + m, at[1] + m],
                size: [g.cell - 2 * m, g.cell - 2 * m],
                width: view.lw(3, 2),
                color: col,
            });
        }
        out.credit("plan", n);
    }
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
        let col = if sight.visible {
            color::GREEN
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
            if blocked {
                out.push(Shape::Ring {
                    c: dot,
                    r,
                    width: view.lw(2, 2),
                    color: color::DIM,
                });
            } else {
                out.push(Shape::Disc {
                    c: dot,
                    r,
                    color: col,
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
            if Some(cell) == sight.blocker {
                cross(out, p, g.cell / 3, view.lw(5, 3), color::VERMILLION);
                blocked = true;
            }
        }
        out.credit(overlay, n);
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
fn draw_actors(sim: &LineSim, g: Geo, view: &View, out: &mut Scene) {
    let st = sim.state();
    let hl_t = view.highlighted("target");
    let label = view.font(18);
    for (i, t) in st.targets.iter().enumerate() {
        let p = g.center(*t);
        let strong = hl_t.contains(&(i as u32)) || view.focused("target").contains(&(i as u32));
        out.push(Shape::Ring {
            c: p,
            r: (g.cell * 2 / 5).max(view.px(8)),
            width: view.lw(if strong { 6 } else { 4 }, 3),
            color: color::SKY,
        });
        out.text(
            [p[0] + g.cell / 2 + 2, p[1] - g.cell / 4],
            label,
            color::SKY,
            view.name("target", i as u32),
        );
    }
    let hl_c = view.highlighted("chaser");
    let strong = |i: usize| hl_c.contains(&(i as u32)) || view.selected == Some(i as u32);
    // The emphasised chasers last: on top of any sharing their cell.
    let mut order: Vec<usize> = (0..st.chasers.len()).collect();
    order.sort_by_key(|&i| strong(i));
    for i in order {
        let c = &st.chasers[i];
        let p = g.center(c.pos);
        let strong = strong(i);
        let r = (g.cell / 3).max(view.px(7));
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
        // Chasers that share a cell fan their names out below it.
        let same = st.chasers[..i].iter().filter(|o| o.pos == c.pos).count() as i32;
        out.text(
            [
                p[0] - g.cell / 4 + same * view.px(14),
                p[1] + g.cell / 2 + i32::from(label),
            ],
            label,
            chaser_color(i),
            view.name("chaser", i as u32),
        );
    }
}

fn status_text(s: Status, max_path: u32) -> String {
    match s {
        Status::Ready => "ready".to_owned(),
        Status::Walking => "walking".to_owned(),
        Status::Arrived => "arrived".to_owned(),
        Status::Blocked { wall } => format!("blocked by the wall at {wall}"),
        Status::PlanExhausted => format!("stopped after {max_path} cells"),
    }
}

fn panels(sim: &LineSim, focus: &[usize], events: &[LineEvent], view: &View, out: &mut Scene) {
    let cfg = sim.config();
    let st = sim.state();
    let mut status = Panel {
        title: format!("line of sight · tick {}", st.tick),
        lines: Vec::new(),
    };
    for (i, (c, cc)) in st.chasers.iter().zip(&cfg.chasers).enumerate() {
        let (name, tname) = (
            view.name("chaser", i as u32),
            view.name("target", cc.target),
        );
        let sees = match (c.sight.visible, c.sight.blocker) {
            (true, _) => format!("sees {tname}"),
            (false, Some(b)) => format!("sight blocked at {b}"),
            (false, None) => format!("cannot see {tname}"),
        };
        let back = if c.sight_back.visible {
            format!("{tname} sees {name}")
        } else {
            format!("{tname} does not see {name}")
        };
        status.lines.push(format!(
            "{name} at {} → {tname} {}: {}; {sees}; {back}",
            c.pos,
            st.targets[cc.target as usize],
            if c.status == Status::Arrived && c.pos != st.targets[cc.target as usize] {
                "the target moved: a new line at the next step".to_owned()
            } else {
                status_text(c.status, cfg.max_path)
            }
        ));
    }
    for e in events {
        if let LineEvent::TargetMoved {
            target,
            from,
            to,
            random,
        } = e
        {
            status.lines.push(format!(
                "{} moved {from} → {to}{}",
                view.name("target", *target),
                if *random { " (random)" } else { "" }
            ));
        }
    }
    out.panels.push(status);
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
    let mut lines = vec![
        format!(
            "line {} → {}: dx = {}, dy = {}, sx = {:+}, sy = {:+}, {}-major",
            line.from,
            line.to,
            line.dx,
            line.dy,
            line.sx,
            line.sy,
            if line.x_major() { "x" } else { "y" }
        ),
        format!(
            "{}start: f = 2·{mn} − {mj} = 2·{minor} − {major} = {}",
            mark(view.highlight.iter().any(|h| h == "error_term")),
            line.f0()
        ),
        format!("f < 0: major step only; f += 2·{mn} = {}", 2 * minor),
        format!(
            "f ≥ 0: major and minor step; f += 2·{mn} − 2·{mj} = {}",
            2 * minor - 2 * major
        ),
    ];
    match plan.peek() {
        Some(next) => lines.push(format!(
            "{}next (step {}): f = {} {} → {}, then f = {}",
            mark(view.highlight.iter().any(|h| h == "minor_step") && next.minor_stepped),
            next.index,
            next.f_before,
            if next.minor_stepped {
                "≥ 0: both axes"
            } else {
                "< 0: major axis only"
            },
            next.cell,
            next.f_after
        )),
        None => lines.push("the plan is walked to its end".into()),
    }
    Panel {
        title: format!("Bresenham · {name}"),
        lines,
    }
}

/// The error-term table of a plan: the steps taken, then the coming one.
fn error_table(plan: &Stepper, name: &str, view: &View) -> Panel {
    let steps = walked(plan.line(), plan.done());
    let mut lines = vec!["step\tf before\tdecision\tcell\tf after".to_owned()];
    let skip = steps.len().saturating_sub(12);
    if skip > 0 {
        lines.push(format!(
            "… {skip} earlier step{}",
            if skip == 1 { "" } else { "s" }
        ));
    }
    let row = |s: &Step, mark: &str| {
        format!(
            "{mark}{}\t{}\t{}\t{}\t{}",
            s.index,
            s.f_before,
            if s.minor_stepped {
                "f ≥ 0: both"
            } else {
                "f < 0: major"
            },
            s.cell,
            s.f_after
        )
    };
    for s in steps.iter().skip(skip) {
        lines.push(row(s, ""));
    }
    if let Some(next) = plan.peek() {
        let emphasise = view.highlight.iter().any(|h| h == "error_term");
        lines.push(row(&next, if emphasise { "▶ next " } else { "next " }));
    }
    Panel {
        title: format!("error term · {name}"),
        lines,
    }
}
