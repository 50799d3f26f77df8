//! The `line` scenario: parameters of the line-of-sight and chase sim
//! (see [`crate::sim::line`]). Every key — type, range, default, unit and
//! help — is in [`PARAMS`], which the reader reads through; `flockstep
//! params line` lists it and `docs/params.md` is written from it.

use super::LessonError;
use super::node::{Ctx, Node, Params};
use super::schema::{Param, Ty, text, unit};
use super::sims::UnknownHighlight;
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
pub fn check_highlight(h: &str) -> Result<(), UnknownHighlight> {
    let ok = match h.split_once(':') {
        Some(("chaser" | "target", n)) => n.parse::<u32>().is_ok(),
        Some(("cell", xy)) => is_cell(xy),
        None => matches!(h, "blocker" | "error_term" | "rule" | "minor_step"),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(UnknownHighlight {
            highlight: h.to_owned(),
            sim: "line",
            forms: "chaser:N, target:N, cell:X,Y, blocker, error_term, rule or minor_step",
        })
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

/// The keys of a map: `map`, or an open grid's `width` and `height`,
/// then extra `walls` (shared with the path scenario).
macro_rules! map_params {
    ($what:literal, $ja:literal) => {
        [
            Param::new("map", Ty::Text)
                .absent(text("none: width and height", "なし: width と height"))
                .help(
                    "ASCII map: 0–9 heights, # walls",
                    "ASCII の地図: 0–9 は高さ, # は壁",
                ),
            Param::new("width", Ty::Int { min: 1, max: 4096 })
                .absent(text("required without map", "map がなければ必須"))
                .unit(unit::CELLS)
                .help($what, $ja),
            Param::new("height", Ty::Int { min: 1, max: 4096 })
                .absent(text("required without map", "map がなければ必須"))
                .unit(unit::CELLS)
                .help($what, $ja),
        ]
    };
}
pub(super) use map_params;

/// Extra walls on a map.
pub(super) const WALLS: Param = Param::new("walls", Ty::Cells)
    .absent(text("none", "なし"))
    .help("extra wall cells", "追加の壁のマス");

const CHASER_PARAMS: &[Param] = &[
    Param::new("at", Ty::Cell).help("where the chaser starts", "追跡者の初期位置"),
    Param::int("target", 0, 63, 0).help("the target it chases (its index)", "追う目標 (番号)"),
    Param::flag("recompute_every_tick", false).vary().help(
        "re-plan the line every tick, not only when the target moves",
        "目標が動いた時だけでなく毎 tick 線を引き直す",
    ),
    Param::new("name", Ty::Name)
        .absent(text("A, B, C, …", "A, B, C, …"))
        .help("its name, drawn and listed", "名前 (描画と一覧に出る)"),
];

const MOVE_PARAMS: &[Param] = &[
    Param::new(
        "tick",
        Ty::Int {
            min: 0,
            max: super::MAX_TICKS as i64,
        },
    )
    .unit(unit::TICKS)
    .help("when the target moves", "目標が動く tick"),
    Param::int("target", 0, 63, 0).help("which target (its index)", "どの目標か (番号)"),
    Param::new("to", Ty::Cell).help("where it moves to", "移動先のマス"),
];

/// The line scenario's parameters, in the order they are read.
pub static PARAMS: &[Param] = &{
    let [map, width, height] = map_params!("size of an open grid", "開けた格子の大きさ");
    [
        Param::new("sim", Ty::Text).help("the sim: \"line\"", "シミュレーション: \"line\""),
        Param::new("variants", Ty::Tables(super::flock::VARIANT_PARAMS))
            .absent(text("one run", "1 本の実行"))
            .help(
                "2–4 runs side by side; each table sets any scenario keys",
                "2–4 本を並べて実行; 各表は任意のシナリオキーを上書き",
            ),
        Param::int("seed", 0, i64::MAX, 0).help("seed of the random moves", "ランダム移動の種"),
        map,
        width,
        height,
        WALLS,
        Param::new("targets", Ty::Cells)
            .help("where the targets start (1–64)", "目標の初期位置 (1–64)"),
        Param::new("target_names", Ty::Names)
            .absent(text("a, b, c, …", "a, b, c, …"))
            .help("the targets' names, in order", "目標の名前 (順に)"),
        Param::new("chasers", Ty::Tables(CHASER_PARAMS)).help(
            "the chasers (1–64), each walking a Bresenham line to its target",
            "追跡者 (1–64): 各自が目標へブレゼンハムの線を歩く",
        ),
        Param::new("moves", Ty::Tables(MOVE_PARAMS))
            .absent(text("none", "なし"))
            .help(
                "scripted target moves, in tick order",
                "台本どおりの目標の移動 (tick 順)",
            ),
        Param::int("random_every", 0, 1_000_000, 0)
            .unit(unit::TICKS)
            .help(
                "every N ticks each target steps randomly (0: never)",
                "N tick ごとに各目標がランダムに動く (0 は動かない)",
            ),
        Param::int("random_radius", 0, 1000, 1)
            .unit(unit::CELLS)
            .help(
                "the largest random step per axis",
                "ランダム移動の各軸の最大歩幅",
            ),
        Param::int("eye_height", 0, 9, 1)
            .unit(unit::LEVELS)
            .vary()
            .help(
                "eye level above the ground, for line of sight",
                "視線の目の高さ (地面から)",
            ),
        Param::int("max_path", 1, 1_000_000, 100)
            .unit(unit::CELLS)
            .help(
                "most cells followed on one plan (the article's NEXT_POS_MAX)",
                "1 つの計画でたどる最大マス数 (記事の NEXT_POS_MAX)",
            ),
    ]
};

/// Reads a line scenario from the `[scenario]` parameters.
pub fn scenario(p: &mut Params, names: &mut super::Names) -> Result<LineConfig, LessonError> {
    let ctx = p.ctx();
    let seed = p.get_int("seed")? as u64;
    let mut grid = match map_grid(p)? {
        Some(g) => g,
        None => {
            let (w, _) = p.req_int_p("width")?;
            let (h, _) = p.req_int_p("height")?;
            Grid::open(w as u32, h as u32)
        }
    };
    add_walls(p, &mut grid)?;
    let targets = p.cells("targets")?;
    if targets.is_empty() {
        return Err(p.missing(
            "targets",
            "missing `targets`: a list of at least one [x, y] cell",
        ));
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
    for (i, (mut t, _)) in p.get_tables("chasers")?.into_iter().enumerate() {
        let (start, n) = t.req_cell("at")?;
        open_cell(ctx, &grid, start, &n, &format!("chaser {i}"))?;
        let target = t.int("target", 0, 0..=n_targets - 1)? as u32;
        let recompute_every_tick = t.get_bool("recompute_every_tick")?;
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
        return Err(p.missing(
            "chasers",
            "missing `[[scenario.chasers]]`: at least one chaser (at = [x, y])",
        ));
    }
    let mut moves: Vec<TargetMove> = Vec::new();
    for (i, (mut t, _)) in p.get_tables("moves")?.into_iter().enumerate() {
        let (tick, tick_node) = t.req_int_p("tick")?;
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
    let random_every = p.get_int("random_every")? as u32;
    let random_radius = p.get_int("random_radius")? as i32;
    let eye_height = p.get_int("eye_height")? as i32;
    let max_path = p.get_int("max_path")? as u32;
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
    params: PARAMS,
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
