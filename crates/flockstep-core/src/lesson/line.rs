//! The `line` scenario: parameters of the line-of-sight and chase sim
//! (see [`crate::sim::line`]).
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `map` | ASCII map: `0`–`9` heights, `#` walls (or `width` + `height` for open ground) | — |
//! | `width`, `height` | size of an open grid, 1–4096 | — |
//! | `walls` | extra wall cells `[[x, y], …]` | none |
//! | `targets` | where the targets start `[[x, y], …]` (1–64) | — |
//! | `[[scenario.chasers]]` (at most 64) | `at = [x, y]`, `target = 0`, `recompute_every_tick = false`, `name` (drawn and listed; default A, B, C, …) | — |
//! | `target_names` | names of the targets, in order (default a, b, c, …) | — |
//! | `[[scenario.moves]]` | `tick`, `target = 0`, `to = [x, y]`: scripted target moves | none |
//! | `random_every` | every N ticks each target steps randomly (0 = never) | 0 |
//! | `random_radius` | largest random step per axis | 1 |
//! | `eye_height` | eye level above the ground for line of sight | 1 |
//! | `max_path` | most cells followed on one plan (the article's `NEXT_POS_MAX`) | 100 |
//! | `seed` | seed of the random moves | 0 |

use super::LessonError;
use super::node::{Ctx, Node, Params};
use crate::sim::line::{ChaserConfig, LineConfig, TargetMove};
use crate::sim::{Cell, Grid};

/// The overlays a line lesson can show.
pub const OVERLAYS: &[&str] = &[
    "grid",
    "heights",
    "ideal_line",
    "plan",
    "walked",
    "error_table",
    "formula",
    "sight",
    "sight_back",
    "profile",
    "decision",
];

/// Checks a highlight name: `chaser:N`, `target:N`, `cell:X,Y`, `blocker`,
/// `error_term` (the start value), `rule` (the derived inequality),
/// `minor_step` (the coming step, when it moves both axes).
pub fn check_highlight(h: &str) -> Result<(), String> {
    let ok = match h.split_once(':') {
        Some(("chaser" | "target", n)) => n.parse::<u32>().is_ok(),
        Some(("cell", xy)) => is_cell(xy),
        None => matches!(h, "blocker" | "error_term" | "rule" | "minor_step"),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "unknown highlight `{h}` for sim line; use chaser:N, target:N, cell:X,Y, blocker, error_term, rule or minor_step"
        ))
    }
}

/// Whether `xy` is `X,Y` with two integers (the `cell:X,Y` highlight).
pub(super) fn is_cell(xy: &str) -> bool {
    xy.split_once(',')
        .is_some_and(|(x, y)| x.parse::<i32>().is_ok() && y.parse::<i32>().is_ok())
}

/// The optional `walls = [[x, y], …]` key: each cell, checked to be on the
/// grid, becomes a wall.
pub(super) fn add_walls(p: &mut Params, grid: &mut Grid) -> Result<(), LessonError> {
    let ctx = p.ctx();
    for (c, n) in p.cells("walls")? {
        if !grid.contains(c) {
            return Err(ctx.err(
                &n,
                format!(
                    "wall {c} is off the {}×{} grid",
                    grid.width(),
                    grid.height()
                ),
            ));
        }
        grid.set_wall(c);
    }
    Ok(())
}

/// Checks that `c` is on the grid and not a wall (`what` names it).
pub(super) fn open_cell(
    ctx: &Ctx,
    grid: &Grid,
    c: Cell,
    n: &Node,
    what: &str,
) -> Result<(), LessonError> {
    if !grid.contains(c) {
        Err(ctx.err(
            n,
            format!(
                "{what} {c} is off the {}×{} grid",
                grid.width(),
                grid.height()
            ),
        ))
    } else if grid.is_wall(c) {
        Err(ctx.err(n, format!("{what} {c} is inside a wall")))
    } else {
        Ok(())
    }
}

/// The `map` key, if present: an ASCII map whose errors point inside the
/// lesson's multi-line string (or name the `--set` argument). `width` and
/// `height` may not be given with it.
pub fn map_grid(p: &mut Params) -> Result<Option<Grid>, LessonError> {
    let ctx = p.ctx();
    let Some((text, node)) = p.string("map")? else {
        return Ok(None);
    };
    for key in ["width", "height"] {
        let key: &'static str = key;
        if let Some(n) = p.peek(key) {
            return Err(ctx.err(
                n,
                format!("`{key}` cannot be used with `map`: the map sets the size"),
            ));
        }
    }
    Grid::parse(&text)
        .map(Some)
        .map_err(|e| ctx.grid_err(&node, &e))
}

/// Reads a line scenario from the `[scenario]` parameters.
pub fn scenario(p: &mut Params, names: &mut super::Names) -> Result<LineConfig, LessonError> {
    let ctx = p.ctx();
    let seed = p.int("seed", 0, 0..=i64::MAX)? as u64;
    let mut grid = match map_grid(p)? {
        Some(g) => g,
        None => {
            let (w, _) = p.req_int("width", 1..=4096)?;
            let (h, _) = p.req_int("height", 1..=4096)?;
            Grid::open(w as u32, h as u32)
        }
    };
    add_walls(p, &mut grid)?;
    let targets = p.cells("targets")?;
    if targets.is_empty() {
        return Err(p.table_err("missing `targets`: a list of at least one [x, y] cell"));
    }
    for (i, (c, n)) in targets.iter().enumerate() {
        open_cell(ctx, &grid, *c, n, &format!("target {i}"))?;
    }
    let n_targets = targets.len() as i64;
    let target_names = p.names("target_names")?;
    if target_names.len() > targets.len() {
        return Err(p.table_err(format!(
            "`target_names` names {} targets, but there are {}",
            target_names.len(),
            targets.len()
        )));
    }
    for (i, name) in target_names.into_iter().enumerate() {
        names.insert(format!("target:{i}"), name);
    }
    let mut chasers = Vec::new();
    for (i, (mut t, _)) in p.tables("chasers")?.into_iter().enumerate() {
        let (start, n) = t.req_cell("at")?;
        open_cell(ctx, &grid, start, &n, &format!("chaser {i}"))?;
        let target = t.int("target", 0, 0..=n_targets - 1)? as u32;
        let recompute_every_tick = t.bool("recompute_every_tick", false)?;
        if let Some(name) = t.name("name")? {
            names.insert(format!("chaser:{i}"), name);
        }
        t.finish()?;
        chasers.push(ChaserConfig {
            start,
            target,
            recompute_every_tick,
        });
    }
    if chasers.is_empty() {
        return Err(
            p.table_err("missing `[[scenario.chasers]]`: at least one chaser (at = [x, y])")
        );
    }
    let mut moves: Vec<TargetMove> = Vec::new();
    for (i, (mut t, _)) in p.tables("moves")?.into_iter().enumerate() {
        let (tick, tick_node) = t.req_int("tick", 0..=super::MAX_TICKS as i64)?;
        let target = t.int("target", 0, 0..=n_targets - 1)? as u32;
        let (to, n) = t.req_cell("to")?;
        open_cell(ctx, &grid, to, &n, &format!("moves[{i}] destination"))?;
        t.finish()?;
        if let Some(prev) = moves.last()
            && prev.tick > tick as u64
        {
            return Err(ctx.err(
                &tick_node,
                format!("moves[{i}] is at tick {tick}, before the previous move (tick {}): list moves in tick order", prev.tick),
            ));
        }
        moves.push(TargetMove {
            tick: tick as u64,
            target,
            to,
        });
    }
    let random_every = p.int("random_every", 0, 0..=1_000_000)? as u32;
    let random_radius = p.int("random_radius", 1, 0..=1000)? as i32;
    let eye_height = p.int("eye_height", 1, 0..=9)? as i32;
    let max_path = p.int("max_path", 100, 1..=1_000_000)? as u32;
    let cfg = LineConfig {
        grid,
        seed,
        targets: targets.into_iter().map(|(c, _)| c).collect(),
        chasers,
        moves,
        random_every,
        random_radius,
        eye_height,
        max_path,
    };
    // Everything above was checked with its position; this is a backstop.
    cfg.check().map_err(|m| p.table_err(m))?;
    Ok(cfg)
}

/// The line sim's registration ([`super::sims`]).
pub static REGISTRATION: super::sims::Builtin = super::sims::Builtin {
    id: super::sims::LINE,
    name: "line",
    // A cell a quarter second.
    rate: 4,
    overlays: OVERLAYS,
    default_overlays: &[
        "grid",
        "heights",
        "ideal_line",
        "plan",
        "walked",
        "sight",
        "formula",
        "error_table",
    ],
    focus_kinds: &["chaser", "target", "cell", "pane"],
    parts: "panes",
    check_highlight,
    callout_keys,
    scenario: |params, names, _| Ok(crate::sim::Scenario::Line(scenario(params, names)?)),
};

/// The figures a callout at an entity of `kind` may name (besides
/// `{param.NAME}`).
fn callout_keys(kind: &str) -> &'static [&'static str] {
    match kind {
        "world" => &["tick", "hash"],
        "chaser" => &["f", "step", "walked", "dx", "dy", "pos", "tick"],
        "target" | "cell" => &["height", "tick"],
        _ => &[],
    }
}
