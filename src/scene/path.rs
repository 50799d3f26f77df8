//! A* scenes: one tile per search, side by side. Heights as shades with
//! numbers, walls crossed, cliffs as thick edges between the cells the
//! cost rule forbids; open cells as rings and closed cells as filled
//! squares; g/h/f per cell, parent arrows, the current cell, the path; the
//! open list in priority order and the hovered cell's move costs as panels.

use super::{Camera, Frame, P, Panel, Rgba, Scene, Shape, View, Viewport, color, f16_text};
use crate::i18n::Lang;
use crate::sim::path::{
    Blocked, CLOSED, DIAGONALS, Moves, PathEvent, PathSim, SQRT2_16, SearchState, Status, TieBreak,
    diagonal_cost, link_offset,
};
use crate::sim::{AnySim, Cell, Grid, Sim};
use crate::tr;

/// Height of a tile's title line, in pixels at scale 100.
const TITLE: i32 = 52;
/// Height of the "h may overestimate" line, at scale 100.
const WARN_LINE: i32 = 22;
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

/// The part of a tile under its title line.
fn map_area(tile: Viewport, title: i32) -> Viewport {
    Viewport {
        x: tile.x,
        y: tile.y + title,
        w: tile.w,
        h: (tile.h - title).max(1),
    }
}

/// Cell size and top-left of the map inside a tile.
fn layout(grid: &Grid, tile: Viewport, cam: &Camera, title: i32) -> (i32, P) {
    super::grid_layout(
        grid.width() as i32,
        grid.height() as i32,
        map_area(tile, title),
        4,
        cam.zoom,
        cam.center,
    )
}

/// The title lines' height for a camera: the label and the status, and a
/// third line in every tile when some search's heuristic may
/// overestimate (so the maps stay level with each other).
fn title_h(cfg: &crate::sim::path::PathConfig, cam: &Camera) -> i32 {
    let warn = cfg
        .searches
        .iter()
        .any(|s| !s.heuristic.is_admissible(s.moves));
    let band = if cam.callout_band { CALLOUT_BAND } else { 0 };
    (TITLE + band + if warn { WARN_LINE } else { 0 }) * i32::from(cam.scale) / 100
}

/// The band under a tile's title that the beat's callouts about its
/// search take, at scale 100 (a 22-px callout on its box).
const CALLOUT_BAND: i32 = 38;

/// The search and cell under a screen point.
pub fn tile_cell_at(sim: &AnySim, cam: &Camera, at: P) -> Option<(usize, Cell)> {
    let AnySim::Path(s) = sim else { return None };
    let grid = &s.config().grid;
    for (i, t) in search_tiles(s.config().searches.len(), cam.viewport)
        .into_iter()
        .enumerate()
    {
        let title = title_h(s.config(), cam);
        let (cell, o) = layout(grid, t, cam, title);
        let (dx, dy) = (at[0] - o[0], at[1] - o[1]);
        if dx >= 0 && dy >= 0 && at[1] >= t.y + title {
            let c = Cell::new(dx / cell, dy / cell);
            if grid.contains(c) {
                return Some((i, c));
            }
        }
    }
    None
}

/// Where search `search`'s map is drawn: its top-left corner and the
/// size of a cell, in pixels (cell (x, y) spans `cell` pixels from
/// `origin + (x, y) · cell`).
pub fn tile_map_at(sim: &AnySim, cam: &Camera, search: usize) -> Option<(P, i32)> {
    let AnySim::Path(s) = sim else { return None };
    let t = *search_tiles(s.config().searches.len(), cam.viewport).get(search)?;
    let (cell, o) = layout(&s.config().grid, t, cam, title_h(s.config(), cam));
    Some((o, cell))
}

fn center(o: P, cell: i32, c: Cell) -> P {
    [o[0] + c.x * cell + cell / 2, o[1] + c.y * cell + cell / 2]
}

pub(super) fn build(sim: &PathSim, frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let tiles = search_tiles(sim.config().searches.len(), cam.viewport);
    let focused = focus(sim, view);
    for (si, tile) in tiles.iter().enumerate() {
        draw_tile(sim, si, *tile, si == focused, view, cam, out);
        let (cell, o) = layout(&sim.config().grid, *tile, cam, title_h(sim.config(), cam));
        corner_cuts(sim, si, frame, view, (o, cell), out);
        // A callout keeps clear of the walls, the start, the goal and the
        // beat's framed cells (a small map's: a large one's walls are too
        // many to tell apart anyway).
        let grid = &sim.config().grid;
        let small = grid.width() * grid.height() <= 4096;
        let mut keep: Vec<Cell> = view.highlighted_cells();
        keep.extend([sim.config().start, sim.config().goal]);
        if small {
            for y in 0..grid.height() as i32 {
                keep.extend(
                    (0..grid.width() as i32)
                        .map(|x| Cell::new(x, y))
                        .filter(|&c| grid.is_wall(c)),
                );
            }
        }
        for c in keep {
            out.keep_clear
                .push([o[0] + c.x * cell, o[1] + c.y * cell, cell, cell]);
        }
        // Side by side, each tile is framed: zoomed maps would otherwise
        // run into each other.
        if tiles.len() > 1 {
            out.push(Shape::Clip { area: *tile });
            out.push(Shape::Frame {
                at: [tile.x + 1, tile.y + 1],
                size: [tile.w - 2, tile.h - 2],
                width: view.lw(2, 2),
                color: color::DIM,
            });
        }
    }
    // Each map was clipped to its tile (a zoomed map stays in its own).
    if tiles.len() > 1 {
        out.push(Shape::Clip { area: cam.viewport });
    }
    panels(sim, frame, focused, view, out);
}

/// A cliff's colour: red, apart from the open list's orange.
const CLIFF: Rgba = Rgba(235, 64, 52, 255);

/// What the colours drawn mean (the overlays that are on).
pub(super) fn legend(sim: &PathSim, view: &View) -> Vec<(Rgba, String)> {
    let lang = view.lang;
    let mut out: Vec<(Rgba, String)> = [
        ("start", color::GREEN, tr!(lang, P_LEG_START)),
        ("goal", color::PURPLE, tr!(lang, P_LEG_GOAL)),
        ("heights", super::HEIGHT_KEY, tr!(lang, P_LEG_HEIGHTS)),
        ("open", color::ORANGE, tr!(lang, P_LEG_OPEN)),
        ("closed", color::BLUE, tr!(lang, P_LEG_CLOSED)),
        ("path", color::GREEN, tr!(lang, P_LEG_PATH)),
        ("parents", color::TEXT, tr!(lang, P_LEG_PARENTS)),
        ("cliffs", CLIFF, tr!(lang, P_LEG_CLIFF)),
    ]
    .into_iter()
    .filter(|(o, ..)| matches!(*o, "start" | "goal") || view.on(o))
    .map(|(_, c, n)| (c, n.to_owned()))
    .collect();
    // The red crosses of `corner_cuts`: the step's, or the costs cell's.
    let cfg = sim.config();
    let eight = cfg.searches.iter().any(|s| s.moves == Moves::Eight);
    let costs_cuts = |at: Cell| {
        cfg.searches.iter().any(|s| {
            s.moves == Moves::Eight
                && DIAGONALS
                    .iter()
                    .any(|&d| diagonal_cost(&cfg.grid, &s.rule, at, d) == Err(Blocked::Corner))
        })
    };
    let costs_at = view
        .hover
        .or_else(|| view.highlighted_cells().first().copied());
    if view.on("cliffs") && has_one_way(sim) {
        out.push((CLIFF, tr!(lang, P_LEG_ONE_WAY).to_owned()));
    }
    if eight && view.on("current") || view.on("costs") && costs_at.is_some_and(costs_cuts) {
        out.push((CLIFF, tr!(lang, P_LEG_CUT).to_owned()));
    }
    // Walls are drawn whatever the overlays.
    out.extend(super::wall_key(&sim.config().grid, lang));
    out
}

/// The search whose open list and costs the panels show: the beat's
/// focused (or highlighted) search, else the first.
fn focus(sim: &PathSim, view: &View) -> usize {
    view.focused("search")
        .first()
        .map_or(0, |&i| i as usize)
        .min(sim.state().searches.len().saturating_sub(1))
}

/// One search's tile: title, terrain, cliffs, search state, start, goal.
fn draw_tile(
    sim: &PathSim,
    si: usize,
    tile: Viewport,
    focused: bool,
    view: &View,
    cam: &Camera,
    out: &mut Scene,
) {
    let cfg = sim.config();
    let grid = &cfg.grid;
    let (s, sc) = (&sim.state().searches[si], &cfg.searches[si]);
    let title = title_h(cfg, cam);
    let (cell, o) = layout(grid, tile, cam, title);
    if cfg.searches.len() > 1 {
        out.push(Shape::Clip { area: tile });
    }
    draw_tile_title(sim, si, tile, focused, view, out);
    if cfg.searches.len() > 1 {
        out.push(Shape::Clip {
            area: map_area(tile, title),
        });
    }
    draw_tile_terrain(grid, (o, cell), view, out);
    if view.on("cliffs") {
        let n = out.count();
        draw_cliffs(grid, sc, o, cell, view, out);
        out.credit("cliffs", n);
    }
    draw_search(s, sc, cfg.goal, o, cell, grid, view, out);
    let map = Viewport {
        x: o[0],
        y: o[1],
        w: cell * grid.width() as i32,
        h: cell * grid.height() as i32,
    };
    draw_ends((cfg.start, cfg.goal), map, (o, cell), view, out);
    search_numbers(s, (sc, cfg.goal), (o, cell), grid, view, out);
    super::cell_marks(out, grid, o, cell, view);
}

/// A tile's title: the search's label, its status below (cut to the
/// tile's width) and, for a heuristic that overestimates, a warning.
fn draw_tile_title(
    sim: &PathSim,
    si: usize,
    tile: Viewport,
    focused: bool,
    view: &View,
    out: &mut Scene,
) {
    let cfg = sim.config();
    let (s, sc) = (&sim.state().searches[si], &cfg.searches[si]);
    let lang = view.lang;
    let status = match s.status {
        // Whether it is over, or what its path cost, may be the question.
        _ if view.asking => tr!(lang, P_HELD).to_owned(),
        Status::Searching => tr!(lang, P_SEARCHING).to_owned(),
        Status::Found(c) => tr!(lang, P_FOUND, g_text(sc.moves, c)),
        // A search that gave up says why, in red, above its map (a banner
        // on the map hid the closed cells a class counts).
        Status::Unreachable => tr!(lang, P_UNREACHABLE).to_owned(),
    };
    let strong = focused && sim.state().searches.len() > 1
        || view.highlighted("search").contains(&(si as u32));
    let n = out.count();
    let status = if view.on("expansions") {
        tr!(lang, P_EXPANDED, status, expanded(s, lang))
    } else {
        status
    };
    let (f1, f2) = (view.font(18), view.font(15));
    let (x, fit) = (tile.x + view.px(8), tile.w - 2 * view.px(8));
    let top = tile.y + i32::from(f1);
    let title_color = if strong { color::SELECTED } else { color::TEXT };
    out.text_fit(
        [x, top + view.px(4)],
        f1,
        title_color,
        label(view, sc, si),
        fit,
    );
    let status_color = if s.status == Status::Unreachable {
        CLIFF
    } else {
        color::TEXT
    };
    let at = [x, top + i32::from(f2) + view.px(9)];
    out.text_fit(at, f2, status_color, status, fit);
    // A fact of the set-up, yet on a question's beat a hint at its answer.
    if !sc.heuristic.is_admissible(sc.moves) && !view.asking {
        let at = [x, top + 2 * i32::from(f2) + view.px(14)];
        out.text_fit(at, f2, color::ORANGE, tr!(lang, P_OVERESTIMATE), fit);
    }
    if view.on("expansions") {
        out.credit("expansions", n);
    }
}

/// The map under a search: heights as shades (numbered on a small map),
/// walls crossed. It is what the heights and walls overlays show.
fn draw_tile_terrain(grid: &Grid, (o, cell): (P, i32), view: &View, out: &mut Scene) {
    let n = out.count();
    let small = grid.width() * grid.height() > 4096;
    super::terrain(
        out,
        grid,
        o,
        cell,
        &super::TerrainStyle {
            heights: view.on("heights"),
            numbers_from: if small { 0 } else { view.px(24) },
            number_px: view.font(15),
            flat: 70,
            gap: true,
            zeros: false,
            number_at: |cell, size| [cell / 2 - size / 4, cell / 2 + size / 3],
        },
    );
    if view.on("heights") {
        out.credit("heights", n);
    }
    if view.on("walls") && grid.has_walls() {
        out.credit("walls", n);
    }
}

/// The diagonals an 8-way search may not take because they cut a corner,
/// as red lines into the cell they would reach, crossed at the corner they
/// would squeeze past: those the last step skipped (with `current` on),
/// and those from the cell the move costs are worked out for (with
/// `costs` on).
fn corner_cuts(
    sim: &PathSim,
    si: usize,
    frame: &Frame,
    view: &View,
    (o, cell): (P, i32),
    out: &mut Scene,
) {
    let cfg = sim.config();
    let sc = &cfg.searches[si];
    if sc.moves != Moves::Eight {
        return;
    }
    let mut cuts: Vec<(Cell, Cell, &str)> = Vec::new();
    if let super::Explain::Path(events) = frame.explain
        && view.on("current")
        && !frame.ahead
    {
        let mine = events.iter().filter(|e| event_search(e) as usize == si);
        let from = mine.clone().find_map(|e| match e {
            PathEvent::Expanded { cell, .. } => Some(*cell),
            _ => None,
        });
        for e in mine {
            if let (
                Some(from),
                PathEvent::Skipped {
                    cell,
                    why: Blocked::Corner,
                    ..
                },
            ) = (from, e)
            {
                cuts.push((from, *cell, "current"));
            }
        }
    }
    if view.on("costs")
        && let Some(at) = view
            .hover
            .or_else(|| view.highlighted_cells().first().copied())
    {
        for d in DIAGONALS {
            if diagonal_cost(&cfg.grid, &sc.rule, at, d) == Err(Blocked::Corner) {
                cuts.push((at, Cell::new(at.x + d.0, at.y + d.1), "costs"));
            }
        }
    }
    let w = view.lw(3, 2).min((cell / 8).max(1) as u16);
    let arm = (cell / 4).max(3);
    for (from, to, overlay) in cuts {
        let n = out.count();
        let (a, b) = (center(o, cell, from), center(o, cell, to));
        let corner = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        out.line(a, b, w, CLIFF);
        out.line(
            [corner[0] - arm, corner[1] - arm],
            [corner[0] + arm, corner[1] + arm],
            w + 1,
            CLIFF,
        );
        out.line(
            [corner[0] - arm, corner[1] + arm],
            [corner[0] + arm, corner[1] - arm],
            w + 1,
            CLIFF,
        );
        out.credit(overlay, n);
    }
}

/// The edges the rule forbids in both directions, as thick lines, and
/// those it allows one way only (a drop too deep to climb back), dashed,
/// with an arrow across them the way a path may go.
fn draw_cliffs(
    grid: &Grid,
    sc: &crate::sim::path::SearchConfig,
    o: P,
    cell: i32,
    view: &View,
    out: &mut Scene,
) {
    let w = view.lw(5, 3);
    for y in 0..grid.height() as i32 {
        for x in 0..grid.width() as i32 {
            let a = Cell::new(x, y);
            let Some(ha) = grid.height_at(a) else {
                continue;
            };
            for (dx, dy) in [(1, 0), (0, 1)] {
                let b = Cell::new(x + dx, y + dy);
                let Some(hb) = grid.height_at(b) else {
                    continue;
                };
                let (ab, ba) = (sc.rule.cost(ha, hb).is_ok(), sc.rule.cost(hb, ha).is_ok());
                if ab && ba {
                    continue;
                }
                let p = [o[0] + (x + dx) * cell, o[1] + (y + dy) * cell];
                let q = if dx == 1 {
                    [p[0], p[1] + cell]
                } else {
                    [p[0] + cell, p[1]]
                };
                if ab || ba {
                    // Across toward b (+x or +y) when a → b is allowed.
                    let sign = if ab { 1 } else { -1 };
                    one_way((p, q), [dx * sign, dy * sign], (cell, w), view, out);
                } else {
                    out.line(p, q, w, CLIFF);
                }
            }
        }
    }
}

/// A one-way edge from `p` to `q`: two dashes and, between them, an
/// arrow pointing across it along `dir` (a unit step: ±x or ±y).
fn one_way((p, q): (P, P), dir: [i32; 2], (cell, w): (i32, u16), view: &View, out: &mut Scene) {
    let at = |k: i32| [p[0] + (q[0] - p[0]) * k / 6, p[1] + (q[1] - p[1]) * k / 6];
    out.line(p, at(2), w, CLIFF);
    out.line(at(4), q, w, CLIFF);
    let mid = at(3);
    let s = (cell / 4).max(view.px(6));
    let perp = [dir[1], -dir[0]];
    out.push(Shape::Tri {
        p: [
            [mid[0] + dir[0] * s, mid[1] + dir[1] * s],
            [
                mid[0] - dir[0] * s + perp[0] * s,
                mid[1] - dir[1] * s + perp[1] * s,
            ],
            [
                mid[0] - dir[0] * s - perp[0] * s,
                mid[1] - dir[1] * s - perp[1] * s,
            ],
        ],
        color: CLIFF,
    });
}

/// Whether the rule of any search lets a path cross some edge of the map
/// one way only.
fn has_one_way(sim: &PathSim) -> bool {
    let cfg = sim.config();
    let grid = &cfg.grid;
    let one_way = |ha, hb| {
        cfg.searches
            .iter()
            .any(|s| s.rule.cost(ha, hb).is_ok() != s.rule.cost(hb, ha).is_ok())
    };
    (0..grid.height() as i32).any(|y| {
        (0..grid.width() as i32).any(|x| {
            let Some(ha) = grid.height_at(Cell::new(x, y)) else {
                return false;
            };
            [(1, 0), (0, 1)].iter().any(|&(dx, dy)| {
                grid.height_at(Cell::new(x + dx, y + dy))
                    .is_some_and(|hb| one_way(ha, hb))
            })
        })
    })
}

/// Start (a green frame, S) and goal (a purple ring, G), their letters on
/// backing labels: in the cell's bottom-right corner, clear of the height
/// number at the centre and of g, h and f in the other corners; on its
/// top-right corner, kept inside the map, when the cell is too small for
/// that.
fn draw_ends(ends: (Cell, Cell), map: Viewport, (o, cell): (P, i32), view: &View, out: &mut Scene) {
    let (start, goal) = ends;
    let w = view.lw(4, 3);
    // Never smaller than 20 px across, on maps of tiny cells too.
    let size = cell.max(view.px(20));
    let f = view.font(16);
    let small = cell < i32::from(f) * 5 / 2;
    let letter = |out: &mut Scene, c: Cell, col, s: &str| {
        let m = center(o, cell, c);
        let tw = super::text::width(s, f);
        // In a small cell, centred on its top-right corner: the corners
        // carry no numbers there (heights sit at the centres, g/h/f only in
        // large cells), so no neighbour's height is covered.
        let at = if small {
            [m[0] + cell / 2 - tw / 2, m[1] - cell / 2 + i32::from(f) / 3]
        } else {
            [
                m[0] + cell / 2 - tw - w as i32 - 3,
                m[1] + cell / 2 - w as i32 - 3,
            ]
        };
        out.label_in(map, at, f, col, s);
    };
    let m = center(o, cell, start);
    out.push(Shape::Frame {
        at: [m[0] - size / 2, m[1] - size / 2],
        size: [size, size],
        width: w,
        color: color::GREEN,
    });
    letter(out, start, color::GREEN, "S");
    out.push(Shape::Ring {
        c: center(o, cell, goal),
        r: size * 2 / 5,
        width: w,
        color: color::PURPLE,
    });
    letter(out, goal, color::PURPLE, "G");
}

/// The summary, the last (or coming) step, the open list and the move
/// costs.
fn panels(sim: &PathSim, frame: &Frame, focused: usize, view: &View, out: &mut Scene) {
    let cfg = sim.config();
    let st = sim.state();
    let events: &[PathEvent] = match frame.explain {
        super::Explain::Path(e) => e,
        _ => &[],
    };
    let lang = view.lang;
    let mut summary = Panel {
        title: tr!(lang, P_SUMMARY, st.tick),
        lines: Vec::new(),
        rank: 2,
    };
    for (i, (s, sc)) in st.searches.iter().zip(&cfg.searches).enumerate() {
        summary.lines.push(tr!(
            lang,
            P_COUNTS,
            label(view, sc, i),
            expanded(s, lang),
            s.open_in_order(sc.closed_set).len()
        ));
    }
    out.panels.push(summary);
    if view.on("open_list") {
        let n = out.count();
        out.panels.push(open_list(sim, focused, view));
        out.credit("open_list", n);
    }
    // The move costs from the hovered cell, else the beat's cell; for
    // every search when they are two (their rules are what differs).
    if view.on("costs")
        && let Some(at) = view
            .hover
            .or_else(|| view.highlighted_cells().first().copied())
    {
        let n = out.count();
        let named = |i: usize| (label(view, &cfg.searches[i], i), &cfg.searches[i]);
        let shown: Vec<_> = if cfg.searches.len() <= 2 {
            (0..cfg.searches.len()).map(named).collect()
        } else {
            vec![named(focused)]
        };
        out.panels.push(costs_panel(&cfg.grid, at, &shown, lang));
        out.credit("costs", n);
    }
    // The focused search's part of the step.
    let mine: Vec<String> = events
        .iter()
        .filter(|e| event_search(e) as usize == focused)
        .take(16)
        .map(|e| event_text(e, cfg.searches[focused].moves, lang))
        .collect();
    if !mine.is_empty() {
        let label = label(view, &cfg.searches[focused], focused);
        out.panels.push(Panel {
            title: if frame.ahead {
                tr!(lang, P_COMING, label, st.tick, st.tick + 1)
            } else {
                tr!(lang, P_LAST, label, st.tick.saturating_sub(1), st.tick)
            },
            lines: mine,
            rank: u8::from(view.on("open_list") || view.on("costs")),
        });
    }
}

/// A search's label in the view's language (the lesson's
/// `label_translations`), else its own.
fn label(view: &View, sc: &crate::sim::path::SearchConfig, i: usize) -> String {
    view.names
        .get(&format!("search:{i}"))
        .cloned()
        .unwrap_or_else(|| sc.label.clone())
}

/// The expansions so far, with the repeats when there are any: `26 (4
/// again)`.
fn expanded(s: &SearchState, lang: Lang) -> String {
    match s.repeats() {
        0 => s.expanded.to_string(),
        n => tr!(lang, P_AGAIN, s.expanded, n),
    }
}

/// How many entries a list holds, in words.
fn entries(n: usize, lang: Lang) -> String {
    match n {
        1 => tr!(lang, P_ENTRY).to_owned(),
        n => tr!(lang, P_ENTRIES, n),
    }
}

/// The open list of one search in priority order, ties explained.
fn open_list(sim: &PathSim, i: usize, view: &View) -> Panel {
    let (s, sc) = (&sim.state().searches[i], &sim.config().searches[i]);
    let mut open = s.open_in_order(sc.closed_set);
    // A question about the coming step: the entries in the order they
    // were pushed, so the list's order does not answer it.
    if view.withhold_next {
        open.sort_by_key(|e| e.seq());
    }
    let lang = view.lang;
    let order = if view.withhold_next {
        &crate::i18n::P_OPEN_PUSHED
    } else {
        &crate::i18n::P_OPEN_BEST
    };
    let ties = match sc.tie_break {
        TieBreak::Fifo => tr!(lang, P_TIE_FIFO),
        TieBreak::Lifo => tr!(lang, P_TIE_LIFO),
        TieBreak::LargerG => tr!(lang, P_TIE_LARGER_G),
        TieBreak::SmallerH => tr!(lang, P_TIE_SMALLER_H),
    };
    let mut p = Panel {
        title: order.with(lang, &[&label(view, sc, i), &entries(open.len(), lang)]),
        lines: vec![
            tr!(lang, P_OPEN_TIES, ties),
            tr!(lang, P_OPEN_HEAD).to_owned(),
        ],
        rank: 0,
    };
    // Numbers with one decimal, or with two throughout when one would make
    // different f of neighbouring entries look equal (7.08 and 7.10 are
    // not a tie). Two always under 8-way moves, whose g are 1.41 apart.
    let fine = sc.moves == Moves::Eight
        || open
            .windows(2)
            .take(12)
            .any(|p| p[0].f16() != p[1].f16() && f16_text(p[0].f16()) == f16_text(p[1].f16()));
    let num = |v: u64| {
        if fine {
            super::f16_text2(v)
        } else {
            f16_text(v)
        }
    };
    for (k, e) in open.iter().take(12).enumerate() {
        let h16 = e.f16() - (e.g << (16 - sc.moves.frac_bits()));
        let (f, h) = (num(e.f16()), num(h16));
        let g = match sc.moves {
            Moves::Four => e.g.to_string(),
            Moves::Eight => num(e.g),
        };
        let tie = match sc.tie_break {
            TieBreak::Fifo | TieBreak::Lifo => tr!(lang, P_PUSHED, e.seq()),
            TieBreak::LargerG => tr!(lang, P_PUSHED_G, g, e.seq()),
            TieBreak::SmallerH => tr!(lang, P_PUSHED_H, f16_text(h16), e.seq()),
        };
        let same_f = open.get(k + 1).is_some_and(|n| n.f16() == e.f16())
            || (k > 0 && open[k - 1].f16() == e.f16());
        let mut line = format!("{}.\t({},{})\t{} = {} + {}", k + 1, e.x, e.y, f, g, h);
        if e.is_stale(&s.g) {
            let now = g_text(sc.moves, s.g[e.cell as usize]);
            line.push('\t');
            line.push_str(&tr!(lang, P_STALE, now));
        } else if same_f {
            line.push('\t');
            line.push_str(&tie);
        }
        p.lines.push(line);
    }
    if open.len() > 12 {
        p.lines.push(tr!(lang, P_MORE, open.len() - 12));
    }
    if open.is_empty() {
        p.lines.push(tr!(lang, P_EMPTY).into());
    }
    p
}

/// The g, h and f of every cell the search reached, in the cells'
/// corners on their backing boxes: drawn over the rings, the path and the
/// start and goal, which would otherwise cross them.
fn search_numbers(
    s: &SearchState,
    (sc, goal): (&crate::sim::path::SearchConfig, Cell),
    (o, cell): (P, i32),
    grid: &Grid,
    view: &View,
    out: &mut Scene,
) {
    // g, h and f need two rows of numbers at least 14 px high (at scale
    // 100), and a cell wide enough for "h6.1 g10".
    let nf = (cell / 5).clamp(12, i32::from(view.font(26))) as u16;
    if nf < view.font(14) || cell < i32::from(nf) * 4 {
        return;
    }
    let w = grid.width();
    for (i, &g) in s.g.iter().enumerate() {
        if g == u64::MAX {
            continue;
        }
        let c = Cell::new((i as u32 % w) as i32, (i as u32 / w) as i32);
        let at = [o[0] + c.x * cell, o[1] + c.y * cell];
        let h16 = sc.heuristic.h16(c.x.abs_diff(goal.x), c.y.abs_diff(goal.y));
        cell_numbers(out, view, (at, cell, nf), (g, sc.moves), h16);
    }
}

/// Cell states (open rings, closed squares), parent arrows, the current
/// cell, the path and its step costs.
#[allow(clippy::too_many_arguments)]
fn draw_search(
    s: &SearchState,
    sc: &crate::sim::path::SearchConfig,
    goal: Cell,
    o: P,
    cell: i32,
    grid: &Grid,
    view: &View,
    out: &mut Scene,
) {
    let w = grid.width();
    for (i, (&g, &link)) in s.g.iter().zip(&s.link).enumerate() {
        if g == u64::MAX {
            continue;
        }
        let c = Cell::new((i as u32 % w) as i32, (i as u32 / w) as i32);
        let at = [o[0] + c.x * cell, o[1] + c.y * cell];
        let mid = center(o, cell, c);
        let closed = link & CLOSED != 0;
        if closed && view.on("closed") {
            let n = out.count();
            let m = cell / 4;
            out.push(Shape::Rect {
                at: [at[0] + m, at[1] + m],
                size: [cell - 2 * m, cell - 2 * m],
                color: color::BLUE,
            });
            out.credit("closed", n);
        } else if !closed && view.on("open") {
            let n = out.count();
            out.push(Shape::Ring {
                c: mid,
                r: (cell * 3 / 10).max(3),
                width: view.lw(3, 2),
                color: color::ORANGE,
            });
            out.credit("open", n);
        }
        if view.on("parents") {
            let n = out.count();
            parent_arrow(out, view, (mid, cell), link);
            out.credit("parents", n);
        }
    }
    if view.on("current")
        && let Some(cur) = s.current
    {
        let n = out.count();
        let c = Cell::new((cur % w) as i32, (cur / w) as i32);
        out.push(Shape::Frame {
            at: [o[0] + c.x * cell, o[1] + c.y * cell],
            size: [cell, cell],
            width: view.lw(4, 3),
            color: color::SELECTED,
        });
        out.credit("current", n);
    }
    if view.on("path") {
        let n = out.count();
        let path = s.path(w, goal);
        // Wider in big cells, so it reads under the parent arrows.
        let width = (cell / 8).clamp(i32::from(view.lw(5, 3)), 16) as u16;
        for pair in path.windows(2) {
            out.line(
                center(o, cell, pair[0]),
                center(o, cell, pair[1]),
                width,
                color::GREEN,
            );
        }
        // The parents of the path's cells again, over its line: reading
        // them back from the goal is how the path is found.
        if view.on("parents") {
            for c in &path {
                let link = s.link[(c.y as u32 * w + c.x as u32) as usize];
                parent_arrow(out, view, (center(o, cell, *c), cell), link);
            }
        }
        out.credit("path", n);
        if view.on("costs") {
            let n = out.count();
            step_costs(&path, sc, grid, o, cell, view, out);
            out.credit("costs", n);
        }
    }
}

/// The arrow from a reached cell towards its parent (none for the start),
/// along a diagonal for a diagonal move.
fn parent_arrow(out: &mut Scene, view: &View, (mid, cell): (P, i32), link: u8) {
    if let Some((dx, dy)) = link_offset(link) {
        // A diagonal arrow as long as a straight one.
        let len = if dx != 0 && dy != 0 {
            cell * 2 / 7
        } else {
            cell * 2 / 5
        };
        let e = [mid[0] + dx * len, mid[1] + dy * len];
        // The classroom's 3 px and 10 px heads where the cell has room.
        let head = (cell / 4).clamp(3, view.px(14).max(3));
        let w = view.lw(3, 2).min((cell / 8).max(1) as u16);
        out.arrow(mid, e, w, head, color::TEXT);
    }
}

/// A cost (`g`) as the search counts it: whole numbers for 4-way moves,
/// two decimals for 8-way moves (whose costs have 16 fractional bits).
fn g_text(moves: Moves, g: u64) -> String {
    match moves {
        Moves::Four => g.to_string(),
        Moves::Eight => super::f16_text2(g),
    }
}

/// A cell's g and h (top left and right) and f (bottom left), those the
/// overlays ask for, at font size `nf`; g to one decimal under 8-way moves.
fn cell_numbers(
    out: &mut Scene,
    view: &View,
    (at, cell, nf): (P, i32, u16),
    (g, moves): (u64, Moves),
    h16: u64,
) {
    let pad = cell / 16 + 1;
    let top = at[1] + i32::from(nf) + pad;
    let g16 = g << (16 - moves.frac_bits());
    let gt = match moves {
        Moves::Four => g.to_string(),
        Moves::Eight => f16_text(g),
    };
    for (overlay, p, col, text) in [
        ("g", [at[0] + pad, top], color::TEXT, format!("g{gt}")),
        (
            "h",
            [at[0] + cell / 2 + pad, top],
            color::SKY,
            format!("h{}", f16_text(h16)),
        ),
        (
            "f",
            [at[0] + pad, at[1] + cell - pad - 1],
            color::SELECTED,
            format!("f{}", f16_text(g16 + h16)),
        ),
    ] {
        if view.on(overlay) {
            let n = out.count();
            // On a backing box: an open cell's ring passes the corners.
            out.label_as(super::Role::Cell, p, (nf, col), text);
            out.credit(overlay, n);
        }
    }
}

/// Each step of a path that costs more than a level move, its extra cost
/// (`+N`) on a label at the grid corner beside the crossing from one cell
/// to the next, clear of the height numbers (a climb's price is
/// what the uphill weight changes).
fn step_costs(
    path: &[Cell],
    sc: &crate::sim::path::SearchConfig,
    grid: &Grid,
    o: P,
    cell: i32,
    view: &View,
    out: &mut Scene,
) {
    // 16 px where the cells have room, else 14 px (the least a number
    // in a cell may be).
    let f = if cell >= view.px(26) {
        view.font(16)
    } else {
        view.font(14)
    };
    if cell < i32::from(f) * 3 / 2 {
        return;
    }
    for pair in path.windows(2) {
        let (Some(ha), Some(hb)) = (grid.height_at(pair[0]), grid.height_at(pair[1])) else {
            continue;
        };
        if let Ok(c) = sc.rule.cost(ha, hb)
            && c > 1
        {
            // On the grid corner beside the crossing: clear of the
            // height numbers at the cells' centres.
            // A diagonal crosses at a corner: its label sits half a cell
            // to the right of it, on the edge beside the path's line.
            let (a, b) = (center(o, cell, pair[0]), center(o, cell, pair[1]));
            let mut mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
            let diagonal = a[0] != b[0] && a[1] != b[1];
            if a[1] == b[1] {
                mid[1] -= cell / 2;
            } else {
                mid[0] += cell / 2;
            }
            let text = if diagonal {
                format!("+{}", super::f16_text2((c as u64 - 1) * SQRT2_16))
            } else {
                format!("+{}", c - 1)
            };
            let w = super::text::width(&text, f);
            out.label(
                [mid[0] - w / 2, mid[1] + i32::from(f) / 3],
                f,
                color::SELECTED,
                text,
            );
        }
    }
}

/// The search an event belongs to.
fn event_search(e: &PathEvent) -> u32 {
    e.search()
}

/// What an event says, for the step panel (which names the search); costs
/// as `moves` count them, and f and h to two decimals as g under 8-way
/// moves.
fn event_text(e: &PathEvent, moves: Moves, lang: Lang) -> String {
    let g_text = |g: u64| g_text(moves, g);
    let f16_text = |v: u64| match moves {
        Moves::Four => f16_text(v),
        Moves::Eight => super::f16_text2(v),
    };
    match *e {
        PathEvent::NotAdmissible { .. } => tr!(lang, P_EV_NOT_ADMISSIBLE).to_owned(),
        PathEvent::Expanded {
            cell, g, f16, held, ..
        } => {
            let stale = if held < g {
                tr!(lang, P_EV_STALE, g_text(held))
            } else {
                String::new()
            };
            tr!(lang, P_EV_EXPAND, cell, g_text(g), f16_text(f16), stale)
        }
        PathEvent::Pushed { cell, g, h16, .. } => {
            tr!(lang, P_EV_PUSH, cell, g_text(g), f16_text(h16))
        }
        PathEvent::Improved {
            cell,
            old_g,
            g,
            reopened,
            ..
        } => {
            let m = if reopened {
                &crate::i18n::P_EV_REOPEN
            } else {
                &crate::i18n::P_EV_IMPROVE
            };
            m.with(lang, &[&cell, &g_text(old_g), &g_text(g)])
        }
        PathEvent::Skipped { cell, why, .. } => tr!(lang, P_EV_SKIP, cell, blocked_text(why, lang)),
        PathEvent::Found { cost, .. } => tr!(lang, P_EV_FOUND, g_text(cost)),
        PathEvent::Unreachable { .. } => tr!(lang, P_EV_EMPTY).to_owned(),
    }
}

fn blocked_text(b: Blocked, lang: Lang) -> String {
    match b {
        Blocked::Outside => tr!(lang, P_OFF_MAP).into(),
        Blocked::Wall => tr!(lang, P_WALL).into(),
        Blocked::Climb(n) => tr!(lang, P_CLIFF_UP, n),
        Blocked::Drop(n) => tr!(lang, P_CLIFF_DOWN, n),
        Blocked::Corner => tr!(lang, P_CORNER).into(),
    }
}

/// What one move costs under a search's rule (heights `ha` to `hb`), or
/// why it cannot be made.
fn move_cost(
    grid: &Grid,
    sc: &crate::sim::path::SearchConfig,
    at: Cell,
    (dx, dy): (i32, i32),
    (ha, hb): (u8, u8),
    lang: Lang,
) -> String {
    if dx == 0 || dy == 0 {
        return match sc.rule.cost(ha, hb) {
            Ok(c) => c.to_string(),
            Err(why) => blocked_text(why, lang),
        };
    }
    match (sc.moves, diagonal_cost(grid, &sc.rule, at, (dx, dy))) {
        (Moves::Four, _) => tr!(lang, P_NO_DIAGONAL).into(),
        (Moves::Eight, Ok(c)) => super::f16_text2(c),
        (Moves::Eight, Err(why)) => blocked_text(why, lang),
    }
}

/// A cell's moves (the diagonals too when a search takes them), with
/// their costs worked out under each search's rule: one column per
/// search, the rules written above.
fn costs_panel(
    grid: &Grid,
    at: Cell,
    searches: &[(String, &crate::sim::path::SearchConfig)],
    lang: Lang,
) -> Panel {
    let mut lines = Vec::new();
    let Some(ha) = grid.height_at(at) else {
        return Panel {
            title: tr!(lang, P_MOVES_FROM, at),
            lines: vec![tr!(lang, P_WALL_NO_MOVES).into()],
            rank: 0,
        };
    };
    for (name, sc) in searches {
        let r = sc.rule;
        let drop = if r.downhill_weight == 0 {
            String::new()
        } else {
            tr!(lang, P_RULE_DROP, r.downhill_weight)
        };
        let diagonal = match sc.moves {
            Moves::Four => "",
            Moves::Eight => tr!(lang, P_RULE_DIAGONAL),
        };
        let (up, most_up, most_down) = (r.uphill_weight, r.max_climb, r.max_drop);
        lines.push(tr!(
            lang, P_RULE, name, up, drop, most_up, most_down, diagonal
        ));
    }
    let labels: Vec<&str> = searches.iter().map(|(name, _)| name.as_str()).collect();
    lines.push(if searches.len() > 1 {
        tr!(lang, P_COSTS_HEAD_MANY, labels.join(" / "))
    } else {
        tr!(lang, P_COSTS_HEAD).to_owned()
    });
    // The diagonals too when a search takes them (a 4-way search's column
    // says so).
    let eight = searches.iter().any(|(_, sc)| sc.moves == Moves::Eight);
    use crate::i18n::{
        P_DOWN, P_DOWN_LEFT, P_DOWN_RIGHT, P_LEFT, P_RIGHT, P_UP, P_UP_LEFT, P_UP_RIGHT,
    };
    let straight = [&P_LEFT, &P_UP, &P_RIGHT, &P_DOWN];
    let slanted = [&P_UP_LEFT, &P_UP_RIGHT, &P_DOWN_RIGHT, &P_DOWN_LEFT];
    let diagonals = slanted.into_iter().zip(DIAGONALS).filter(|_| eight);
    for (name, (dx, dy)) in straight.into_iter().zip(DIRS).chain(diagonals) {
        let b = Cell::new(at.x + dx, at.y + dy);
        let mut row = vec![name.with(lang, &[&b])];
        match grid.height_at(b) {
            None if !grid.contains(b) => row.push(tr!(lang, P_OFF_MAP).into()),
            None => row.push(tr!(lang, P_WALL).into()),
            Some(hb) => {
                row.push(match hb.cmp(&ha) {
                    std::cmp::Ordering::Greater => tr!(lang, P_CLIMB, hb - ha),
                    std::cmp::Ordering::Less => tr!(lang, P_DROP, ha - hb),
                    std::cmp::Ordering::Equal => tr!(lang, P_LEVEL).into(),
                });
                let costs: Vec<String> = searches
                    .iter()
                    .map(|(_, sc)| move_cost(grid, sc, at, (dx, dy), (ha, hb), lang))
                    .collect();
                row.push(costs.join(" / "));
            }
        }
        lines.push(row.join("\t"));
    }
    Panel {
        title: tr!(lang, P_MOVES_FROM_HEIGHT, at, ha),
        lines,
        rank: 0,
    }
}

/// A callout's figure (see [`crate::lesson::callout`]) in search `si`'s
/// tile: of the search (`world`, `search:N`) or of a cell (`cell:X,Y`,
/// `start`, `goal`).
pub(super) fn callout_figure(
    sim: &PathSim,
    view: &View,
    si: usize,
    at: &str,
    key: &str,
) -> Option<String> {
    let (s, sc) = (
        sim.state().searches.get(si)?,
        sim.config().searches.get(si)?,
    );
    let lang = view.lang;
    if key == "tick" {
        return Some(sim.state().tick.to_string());
    }
    let Some(c) = callout_cell(sim, at) else {
        return match key {
            "expanded" => Some(expanded(s, lang)),
            "moves" | "climbs" => {
                let path = s.path(sim.config().grid.width(), sim.config().goal);
                (!path.is_empty()).then(|| {
                    let grid = &sim.config().grid;
                    let climbs = path
                        .windows(2)
                        .filter(|w| grid.height_at(w[1]) > grid.height_at(w[0]))
                        .count();
                    if key == "moves" {
                        (path.len() - 1).to_string()
                    } else {
                        climbs.to_string()
                    }
                })
            }
            "open" => Some(s.open_in_order(sc.closed_set).len().to_string()),
            "cost" => match s.status {
                Status::Found(c) => Some(g_text(sc.moves, c)),
                _ => None,
            },
            "status" => Some(
                match s.status {
                    Status::Searching => tr!(lang, P_SEARCHING),
                    Status::Found(_) => tr!(lang, P_CALLOUT_FOUND),
                    Status::Unreachable => tr!(lang, P_CALLOUT_UNREACHABLE),
                }
                .to_owned(),
            ),
            _ => None,
        };
    };
    let grid = &sim.config().grid;
    let goal = sim.config().goal;
    let h16 = sc.heuristic.h16(c.x.abs_diff(goal.x), c.y.abs_diff(goal.y));
    let idx = grid
        .contains(c)
        .then(|| c.y as usize * grid.width() as usize + c.x as usize)?;
    let g = s.g.get(idx).copied().filter(|&g| g != u64::MAX);
    let g16 = |g: u64| g << (16 - sc.moves.frac_bits());
    match key {
        "g" => g.map(|g| g_text(sc.moves, g)),
        "h" => Some(super::f16_text2(h16)),
        "f" => g.map(|g| super::f16_text2(g16(g) + h16)),
        "height" => grid.height_at(c).map(|h| h.to_string()),
        _ => None,
    }
}

/// The cell a path callout is at (`None`: the search itself).
fn callout_cell(sim: &PathSim, at: &str) -> Option<Cell> {
    match at {
        "start" => Some(sim.config().start),
        "goal" => Some(sim.config().goal),
        _ => super::cells_of(&[at.to_owned()]).first().copied(),
    }
}

/// Where search `si`'s callouts go: its map's part of its tile, and the
/// centre of the cell a callout is at (with half a cell as its radius).
pub(super) fn callout_place(
    sim: &PathSim,
    cam: &Camera,
    si: usize,
    at: &str,
) -> Option<(Viewport, Option<(P, i32)>)> {
    let cfg = sim.config();
    let tile = *search_tiles(cfg.searches.len(), cam.viewport).get(si)?;
    let title = title_h(cfg, cam);
    let (cell, o) = layout(&cfg.grid, tile, cam, title);
    let Some(c) = callout_cell(sim, at) else {
        // The search's own figures: in the band under the title when the
        // camera keeps one, else over the map's top.
        let band = if cam.callout_band {
            CALLOUT_BAND * i32::from(cam.scale) / 100
        } else {
            0
        };
        let vp = Viewport {
            y: tile.y + title - band,
            h: if band > 0 { band } else { tile.h - title },
            ..tile
        };
        return Some((vp, None));
    };
    Some((map_area(tile, title), Some((center(o, cell, c), cell / 2))))
}
