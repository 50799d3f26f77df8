//! Line-of-sight and chase scenes: the grid, the ideal line, the cells of
//! the plan and those walked so far, the error term table and the formula
//! with numbers filled in, line of sight with the first blocking cell, the
//! chasers (discs) and targets (rings).

use super::{Camera, Frame, P, Panel, Scene, Shape, View, color, with_alpha};
use crate::sim::line::{Line, LineEvent, LineSim, Status, Step};
use crate::sim::{AnySim, Cell, Grid, Sim};

/// Cell size and top-left of the map in the viewport.
fn layout(grid: &Grid, cam: &Camera) -> (i32, P) {
    let vp = cam.viewport;
    let (gw, gh) = (grid.width() as i32, grid.height() as i32);
    let cell = ((vp.w - 16) / gw).min((vp.h - 16) / gh).max(1);
    (
        cell,
        [vp.x + (vp.w - cell * gw) / 2, vp.y + (vp.h - cell * gh) / 2],
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

pub(super) fn build(sim: &LineSim, frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let cfg = sim.config();
    let st = sim.state();
    let grid = &cfg.grid;
    let (cell, o) = layout(grid, cam);
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let events: &[LineEvent] = match frame.explain {
        super::Explain::Line(e) => e,
        _ => &[],
    };

    super::terrain(
        out,
        grid,
        o,
        cell,
        &super::TerrainStyle {
            heights: view.on("heights"),
            numbers_from: 16,
            flat: 52,
            gap: false,
            zeros: false,
            number_at: |cell| [3, cell - 4],
        },
    );
    if view.on("grid") {
        for x in 0..=w {
            out.line(
                [o[0] + x * cell, o[1]],
                [o[0] + x * cell, o[1] + h * cell],
                1,
                with_alpha(color::DIM, 90),
            );
        }
        for y in 0..=h {
            out.line(
                [o[0], o[1] + y * cell],
                [o[0] + w * cell, o[1] + y * cell],
                1,
                with_alpha(color::DIM, 90),
            );
        }
    }

    let focus: Vec<usize> = match view.selected {
        Some(s) if (s as usize) < st.chasers.len() => vec![s as usize],
        _ => {
            let hl = view.highlighted("chaser");
            if hl.is_empty() {
                (0..st.chasers.len()).collect()
            } else {
                hl.into_iter()
                    .map(|i| i as usize)
                    .filter(|&i| i < st.chasers.len())
                    .collect()
            }
        }
    };

    for &i in &focus {
        let c = &st.chasers[i];
        let Some(plan) = &c.plan else { continue };
        let line = plan.line();
        if view.on("plan") {
            let left = (cfg.max_path as u64).saturating_sub(plan.done()) as usize;
            for s in plan.take(left) {
                out.push(Shape::Frame {
                    at: [o[0] + s.cell.x * cell + 2, o[1] + s.cell.y * cell + 2],
                    size: [cell - 4, cell - 4],
                    width: 2,
                    color: color::ORANGE,
                });
            }
        }
        if view.on("walked") {
            for s in walked(line, plan.done()) {
                let m = cell / 5;
                out.push(Shape::Rect {
                    at: [o[0] + s.cell.x * cell + m, o[1] + s.cell.y * cell + m],
                    size: [cell - 2 * m, cell - 2 * m],
                    color: color::ORANGE,
                });
            }
        }
        if view.on("ideal_line") {
            out.line(
                center(o, cell, line.from),
                center(o, cell, line.to),
                2,
                color::SKY,
            );
        }
    }

    // Line of sight, both ways.
    for &i in &focus {
        let c = &st.chasers[i];
        let Some(t) = cfg
            .chasers
            .get(i)
            .and_then(|cc| st.targets.get(cc.target as usize))
        else {
            continue;
        };
        for (on, sight, from, to, offset) in [
            (view.on("sight"), c.sight, c.pos, *t, 0),
            (view.on("sight_back"), c.sight_back, *t, c.pos, 3),
        ] {
            if !on {
                continue;
            }
            let a = center(o, cell, from);
            let a = [a[0] + offset, a[1] + offset];
            match sight.blocker {
                None if sight.visible => {
                    let b = center(o, cell, to);
                    out.line(a, [b[0] + offset, b[1] + offset], 2, color::GREEN);
                }
                Some(bl) => {
                    let b = center(o, cell, bl);
                    out.line(a, [b[0] + offset, b[1] + offset], 2, color::VERMILLION);
                    let r = cell / 2 - 2;
                    out.line(
                        [b[0] - r, b[1] - r],
                        [b[0] + r, b[1] + r],
                        4,
                        color::VERMILLION,
                    );
                    out.line(
                        [b[0] - r, b[1] + r],
                        [b[0] + r, b[1] - r],
                        4,
                        color::VERMILLION,
                    );
                }
                None => {}
            }
        }
    }

    super::cell_marks(out, grid, o, cell, view);

    // Targets (rings) and chasers (discs) on top.
    let hl_t = view.highlighted("target");
    for (i, t) in st.targets.iter().enumerate() {
        let p = center(o, cell, *t);
        out.push(Shape::Ring {
            c: p,
            r: (cell * 2 / 5).max(3),
            width: if hl_t.contains(&(i as u32)) { 5 } else { 3 },
            color: color::SKY,
        });
        out.text(
            [p[0] + cell / 2, p[1] - cell / 2],
            view.font(13),
            color::SKY,
            format!("T{i}"),
        );
    }
    let hl_c = view.highlighted("chaser");
    for (i, c) in st.chasers.iter().enumerate() {
        let p = center(o, cell, c.pos);
        let strong = hl_c.contains(&(i as u32)) || view.selected == Some(i as u32);
        out.push(Shape::Disc {
            c: p,
            r: (cell / 3).max(3),
            color: if strong {
                color::SELECTED
            } else {
                color::VERMILLION
            },
        });
        out.text(
            [p[0] + cell / 2, p[1] + cell / 2 + 8],
            view.font(13),
            color::VERMILLION,
            format!("C{i}"),
        );
    }

    // Panels.
    let mut status = Panel {
        title: format!("line of sight · tick {}", st.tick),
        lines: Vec::new(),
    };
    for (i, (c, cc)) in st.chasers.iter().zip(&cfg.chasers).enumerate() {
        let s = match c.status {
            Status::Ready => "ready".to_owned(),
            Status::Walking => "walking".to_owned(),
            Status::Arrived => "arrived".to_owned(),
            Status::Blocked { wall } => format!("blocked by the wall at {wall}"),
            Status::PlanExhausted => format!("stopped after {} cells", cfg.max_path),
        };
        let sees = match (c.sight.visible, c.sight.blocker) {
            (true, _) => "sees its target".to_owned(),
            (false, Some(b)) => format!("sight blocked at {b}"),
            (false, None) => "cannot see".to_owned(),
        };
        status
            .lines
            .push(format!("C{i} at {} → T{}: {s}; {sees}", c.pos, cc.target));
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
                "T{target} moved {from} → {to}{}",
                if *random { " (random)" } else { "" }
            ));
        }
    }
    out.panels.push(status);

    let emphasise = |on: bool| if on { "▶ " } else { "  " };
    for &i in focus.iter().take(2) {
        let Some(plan) = &st.chasers[i].plan else {
            continue;
        };
        let line = plan.line();
        let (major, minor, mj, mn) = if line.x_major() {
            (line.dx, line.dy, "dx", "dy")
        } else {
            (line.dy, line.dx, "dy", "dx")
        };
        if view.on("formula") {
            let mut lines = vec![
                format!(
                    "line {} → {}: dx = {}, dy = {} ({}-major)",
                    line.from,
                    line.to,
                    line.dx,
                    line.dy,
                    if line.x_major() { "x" } else { "y" }
                ),
                format!(
                    "{}f₀ = 2·{mn} − {mj} = 2·{minor} − {major} = {}",
                    emphasise(view.highlight.iter().any(|h| h == "error_term")),
                    line.f0()
                ),
                format!("f < 0: major step only, f += 2·{mn} = {}", 2 * minor),
                format!(
                    "f ≥ 0: major and minor step, f += 2·{mn} − 2·{mj} = {}",
                    2 * minor - 2 * major
                ),
            ];
            if let Some(next) = plan.peek() {
                lines.push(format!(
                    "{}next: f = {} {} → {}, f becomes {}",
                    emphasise(
                        view.highlight.iter().any(|h| h == "minor_step") && next.minor_stepped
                    ),
                    next.f_before,
                    if next.minor_stepped { "≥ 0" } else { "< 0" },
                    next.cell,
                    next.f_after
                ));
            } else {
                lines.push("the plan is walked to its end".into());
            }
            out.panels.push(Panel {
                title: format!("Bresenham · C{i}"),
                lines,
            });
        }
        if view.on("error_table") {
            let steps = walked(line, plan.done());
            let mut lines = vec!["step  f before  decision          f after".to_owned()];
            let skip = steps.len().saturating_sub(12);
            if skip > 0 {
                lines.push(format!("… {skip} earlier steps"));
            }
            for s in steps.iter().skip(skip) {
                lines.push(format!(
                    "{:>4}  {:>8}  {:<16}  {:>7}",
                    s.index,
                    s.f_before,
                    if s.minor_stepped {
                        format!("minor → {}", s.cell)
                    } else {
                        format!("major → {}", s.cell)
                    },
                    s.f_after
                ));
            }
            out.panels.push(Panel {
                title: format!("error term · C{i}"),
                lines,
            });
        }
    }
    out.legend.extend([
        (color::VERMILLION, "chaser (disc)".to_owned()),
        (color::SKY, "target (ring)".to_owned()),
        (color::ORANGE, "plan / walked".to_owned()),
        (color::GREEN, "visible".to_owned()),
    ]);
}
