//! A* scenes: one tile per search, side by side. Heights as shades with
//! numbers, walls crossed, cliffs as thick edges between the cells the
//! cost rule forbids; open cells as rings and closed cells as filled
//! squares; g/h/f per cell, parent arrows, the current cell, the path; the
//! open list in priority order and the hovered cell's move costs as panels.

use super::{Camera, Frame, P, Panel, Scene, Shape, View, Viewport, color, f16_text};
use crate::sim::path::{Blocked, CLOSED, NO_PARENT, PathEvent, PathSim, SearchState, Status};
use crate::sim::{AnySim, Cell, Grid, Sim};

/// Height of a tile's title line, in pixels.
const TITLE: i32 = 24;
/// Neighbour offsets in the sim's order (a link is the direction to the parent).
const DIRS: [(i32, i32); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];

/// The screen tile of each search: up to three side by side, more in two rows.
pub fn search_tiles(searches: usize, vp: Viewport) -> Vec<Viewport> {
    let n = searches.max(1) as i32;
    let (cols, rows) = if n <= 3 { (n, 1) } else { ((n + 1) / 2, 2) };
    let (w, h) = (vp.w / cols, vp.h / rows);
    (0..n)
        .map(|i| Viewport {
            x: vp.x + (i % cols) * w,
            y: vp.y + (i / cols) * h,
            w,
            h,
        })
        .collect()
}

/// Cell size and top-left of the map inside a tile.
fn layout(grid: &Grid, tile: Viewport) -> (i32, P) {
    let (gw, gh) = (grid.width() as i32, grid.height() as i32);
    let cell = ((tile.w - 8) / gw).min((tile.h - TITLE - 8) / gh).max(1);
    let (mw, mh) = (cell * gw, cell * gh);
    (
        cell,
        [
            tile.x + (tile.w - mw) / 2,
            tile.y + TITLE + (tile.h - TITLE - mh) / 2,
        ],
    )
}

/// The search and cell under a screen point.
pub fn tile_cell_at(sim: &AnySim, cam: &Camera, at: P) -> Option<(usize, Cell)> {
    let AnySim::Path(s) = sim else { return None };
    let grid = &s.config().grid;
    for (i, t) in search_tiles(s.config().searches.len(), cam.viewport)
        .into_iter()
        .enumerate()
    {
        let (cell, o) = layout(grid, t);
        let (dx, dy) = (at[0] - o[0], at[1] - o[1]);
        if dx >= 0 && dy >= 0 {
            let c = Cell::new(dx / cell, dy / cell);
            if grid.contains(c) {
                return Some((i, c));
            }
        }
    }
    None
}

fn center(o: P, cell: i32, c: Cell) -> P {
    [o[0] + c.x * cell + cell / 2, o[1] + c.y * cell + cell / 2]
}

pub(super) fn build(sim: &PathSim, frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let cfg = sim.config();
    let st = sim.state();
    let grid = &cfg.grid;
    let (w, h) = (grid.width(), grid.height());
    let events: &[PathEvent] = match frame.explain {
        super::Explain::Path(e) => e,
        _ => &[],
    };
    let tiles = search_tiles(cfg.searches.len(), cam.viewport);
    let small_text = w * h > 4096;
    let hl_search = view.highlighted("search");
    for (si, ((s, sc), tile)) in st
        .searches
        .iter()
        .zip(&cfg.searches)
        .zip(&tiles)
        .enumerate()
    {
        let (cell, o) = layout(grid, *tile);
        let status = match s.status {
            Status::Searching => "searching".to_owned(),
            Status::Found(c) => format!("found, cost {c}"),
            Status::Unreachable => "unreachable".to_owned(),
        };
        let title_color = if hl_search.contains(&(si as u32)) {
            color::SELECTED
        } else {
            color::TEXT
        };
        let expansions = if view.on("expansions") {
            format!(" · expanded {}", s.expanded)
        } else {
            String::new()
        };
        out.text(
            [tile.x + 6, tile.y + 17],
            view.font(15),
            title_color,
            format!("{} — {status}{expansions}", sc.label),
        );
        super::terrain(
            out,
            grid,
            o,
            cell,
            &super::TerrainStyle {
                heights: view.on("heights"),
                numbers_from: if small_text { 0 } else { 18 },
                flat: 70,
                gap: true,
                zeros: true,
                number_at: |cell| [cell / 2 - 3, cell / 2 + 5],
            },
        );
        // Cliffs: the edges the rule forbids in at least one direction.
        if view.on("cliffs") {
            for y in 0..h as i32 {
                for x in 0..w as i32 {
                    let a = Cell::new(x, y);
                    let Some(ha) = grid.height_at(a) else {
                        continue;
                    };
                    for (dx, dy) in [(1, 0), (0, 1)] {
                        let b = Cell::new(x + dx, y + dy);
                        let Some(hb) = grid.height_at(b) else {
                            continue;
                        };
                        if sc.rule.cost(ha, hb).is_err() || sc.rule.cost(hb, ha).is_err() {
                            let (p, q) = if dx == 1 {
                                (
                                    [o[0] + (x + 1) * cell, o[1] + y * cell],
                                    [o[0] + (x + 1) * cell, o[1] + (y + 1) * cell],
                                )
                            } else {
                                (
                                    [o[0] + x * cell, o[1] + (y + 1) * cell],
                                    [o[0] + (x + 1) * cell, o[1] + (y + 1) * cell],
                                )
                            };
                            out.line(p, q, 4, color::VERMILLION);
                        }
                    }
                }
            }
        }
        draw_search(s, sc, cfg.goal, o, cell, w, view, small_text, out);
        // Start and goal.
        let sp = [o[0] + cfg.start.x * cell, o[1] + cfg.start.y * cell];
        out.push(Shape::Frame {
            at: sp,
            size: [cell, cell],
            width: 3,
            color: color::GREEN,
        });
        out.text(
            [sp[0] + 2, sp[1] + cell - 3],
            view.font(12),
            color::GREEN,
            "S",
        );
        let gp = center(o, cell, cfg.goal);
        out.push(Shape::Ring {
            c: gp,
            r: (cell / 2).max(3),
            width: 3,
            color: color::PURPLE,
        });
        out.text(
            [gp[0] - cell / 2 + 2, gp[1] + cell / 2 - 3],
            view.font(12),
            color::PURPLE,
            "G",
        );
        super::cell_marks(out, grid, o, cell, view);
    }

    // Panels.
    let focus = hl_search
        .first()
        .map_or(0, |&i| i as usize)
        .min(st.searches.len().saturating_sub(1));
    let mut summary = Panel {
        title: format!("A* · tick {}", st.tick),
        lines: Vec::new(),
    };
    for (s, sc) in st.searches.iter().zip(&cfg.searches) {
        summary.lines.push(format!(
            "{}: expanded {}, open {}",
            sc.label,
            s.expanded,
            s.open_in_order().len()
        ));
    }
    out.panels.push(summary);
    if !events.is_empty() {
        let mut p = Panel {
            title: "last step".into(),
            lines: Vec::new(),
        };
        for e in events.iter().take(24) {
            p.lines.push(event_text(e, cfg));
        }
        out.panels.push(p);
    }
    if view.on("open_list")
        && let (Some(s), Some(sc)) = (st.searches.get(focus), cfg.searches.get(focus))
    {
        let open = s.open_in_order();
        let mut p = Panel {
            title: format!(
                "open list · {} · {} entries, best first",
                sc.label,
                open.len()
            ),
            lines: Vec::new(),
        };
        for (k, e) in open.iter().take(12).enumerate() {
            let h16 = e.f16() - (e.g << 16);
            let tie = (e.key >> 32) as u32;
            let same_f = open.get(k + 1).is_some_and(|n| n.f16() == e.f16())
                || (k > 0 && open[k - 1].f16() == e.f16());
            p.lines.push(format!(
                "{:>2}. ({},{}) f={} g={} h={}{}",
                k + 1,
                e.x,
                e.y,
                f16_text(e.f16()),
                e.g,
                f16_text(h16),
                if same_f {
                    format!("  tie: key {tie}, seq {}", e.seq())
                } else {
                    String::new()
                }
            ));
        }
        if open.len() > 12 {
            p.lines.push(format!("… {} more", open.len() - 12));
        }
        out.panels.push(p);
    }
    if view.on("costs")
        && let Some(hv) = view.hover
        && let Some(sc) = cfg.searches.get(focus)
    {
        out.panels.push(costs_panel(grid, hv, sc));
    }
    out.legend.extend([
        (color::ORANGE, "open (ring)".to_owned()),
        (color::BLUE, "closed (square)".to_owned()),
        (color::GREEN, "path".to_owned()),
        (color::VERMILLION, "cliff".to_owned()),
    ]);
}

#[allow(clippy::too_many_arguments)]
fn draw_search(
    s: &SearchState,
    sc: &crate::sim::path::SearchConfig,
    goal: Cell,
    o: P,
    cell: i32,
    w: u32,
    view: &View,
    small_text: bool,
    out: &mut Scene,
) {
    let numbers = cell >= 30 && !small_text;
    for (i, (&g, &link)) in s.g.iter().zip(&s.link).enumerate() {
        if g == u64::MAX {
            continue;
        }
        let c = Cell::new((i as u32 % w) as i32, (i as u32 / w) as i32);
        let at = [o[0] + c.x * cell, o[1] + c.y * cell];
        let mid = center(o, cell, c);
        let closed = link & CLOSED != 0;
        if closed && view.on("closed") {
            let m = cell / 4;
            out.push(Shape::Rect {
                at: [at[0] + m, at[1] + m],
                size: [cell - 2 * m, cell - 2 * m],
                color: color::BLUE,
            });
        } else if !closed && view.on("open") {
            out.push(Shape::Ring {
                c: mid,
                r: (cell * 3 / 10).max(2),
                width: 2,
                color: color::ORANGE,
            });
        }
        if view.on("parents") {
            let dir = link & !CLOSED;
            if dir != NO_PARENT && (dir as usize) < DIRS.len() {
                let (dx, dy) = DIRS[dir as usize];
                let e = [mid[0] + dx * cell * 2 / 5, mid[1] + dy * cell * 2 / 5];
                out.arrow(mid, e, 1, (cell / 6).max(3), color::TEXT);
            }
        }
        if numbers {
            let h16 = sc.heuristic.h16(c.x.abs_diff(goal.x), c.y.abs_diff(goal.y));
            let f = (cell / 4).clamp(8, 13) as u16;
            if view.on("g") {
                out.text(
                    [at[0] + 2, at[1] + i32::from(f)],
                    f,
                    color::TEXT,
                    format!("g{g}"),
                );
            }
            if view.on("h") {
                out.text(
                    [at[0] + cell / 2 + 1, at[1] + i32::from(f)],
                    f,
                    color::SKY,
                    format!("h{}", f16_text(h16)),
                );
            }
            if view.on("f") {
                out.text(
                    [at[0] + 2, at[1] + cell - 3],
                    f,
                    color::SELECTED,
                    format!("f{}", f16_text((g << 16) + h16)),
                );
            }
        }
    }
    if view.on("current")
        && let Some(cur) = s.current
    {
        let c = Cell::new((cur % w) as i32, (cur / w) as i32);
        out.push(Shape::Frame {
            at: [o[0] + c.x * cell, o[1] + c.y * cell],
            size: [cell, cell],
            width: 3,
            color: color::SELECTED,
        });
    }
    if view.on("path") {
        let path = s.path(w, goal);
        for pair in path.windows(2) {
            out.line(
                center(o, cell, pair[0]),
                center(o, cell, pair[1]),
                4,
                color::GREEN,
            );
        }
    }
}

fn event_text(e: &PathEvent, cfg: &crate::sim::path::PathConfig) -> String {
    let label = |s: u32| {
        cfg.searches
            .get(s as usize)
            .map_or("?", |c| c.label.as_str())
            .to_owned()
    };
    match *e {
        PathEvent::NotAdmissible { search } => {
            format!("{}: heuristic may overestimate", label(search))
        }
        PathEvent::Expanded {
            search,
            cell,
            g,
            f16,
        } => {
            format!("{}: expand {cell} g={g} f={}", label(search), f16_text(f16))
        }
        PathEvent::Pushed {
            search,
            cell,
            g,
            h16,
        } => {
            format!("{}: push {cell} g={g} h={}", label(search), f16_text(h16))
        }
        PathEvent::Improved {
            search,
            cell,
            old_g,
            g,
            reopened,
        } => format!(
            "{}: improve {cell} g {old_g}→{g}{}",
            label(search),
            if reopened { " (reopened)" } else { "" }
        ),
        PathEvent::Skipped { search, cell, why } => {
            format!("{}: skip {cell}: {}", label(search), blocked_text(why))
        }
        PathEvent::Found { search, cost } => format!("{}: found, cost {cost}", label(search)),
        PathEvent::Unreachable { search } => format!("{}: open list empty", label(search)),
    }
}

fn blocked_text(b: Blocked) -> String {
    match b {
        Blocked::Outside => "off the map".into(),
        Blocked::Wall => "wall".into(),
        Blocked::Climb(n) => format!("cliff, climb {n}"),
        Blocked::Drop(n) => format!("cliff, drop {n}"),
    }
}

/// The hovered cell's four moves, with their costs worked out.
fn costs_panel(grid: &Grid, at: Cell, sc: &crate::sim::path::SearchConfig) -> Panel {
    let r = sc.rule;
    let mut lines = Vec::new();
    match grid.height_at(at) {
        None => lines.push("a wall: no moves".into()),
        Some(ha) => {
            lines.push(format!(
                "height {ha}; climb ≤ {}, drop ≤ {}; cost 1 + {}·up + {}·down",
                r.max_climb, r.max_drop, r.uphill_weight, r.downhill_weight
            ));
            for (name, (dx, dy)) in ["left", "up", "right", "down"].iter().zip(DIRS) {
                let b = Cell::new(at.x + dx, at.y + dy);
                let line = match grid.height_at(b) {
                    None if !grid.contains(b) => format!("{name:<5} off the map"),
                    None => format!("{name:<5} {b}: wall"),
                    Some(hb) => match r.cost(ha, hb) {
                        Ok(c) if hb > ha => format!(
                            "{name:<5} {b}: up {} → 1 + {}·{} = {c}",
                            hb - ha,
                            r.uphill_weight,
                            hb - ha
                        ),
                        Ok(c) => format!(
                            "{name:<5} {b}: down {} → 1 + {}·{} = {c}",
                            ha - hb,
                            r.downhill_weight,
                            ha - hb
                        ),
                        Err(why) => format!("{name:<5} {b}: {}", blocked_text(why)),
                    },
                };
                lines.push(line);
            }
        }
    }
    Panel {
        title: format!("moves from {at} ({})", sc.label),
        lines,
    }
}
