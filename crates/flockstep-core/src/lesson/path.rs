//! The `path` scenario: A* searches on one height map (see
//! [`crate::sim::path`]), stepped side by side.
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `map` | ASCII map: `0`–`9` heights, `#` walls | — |
//! | `width`, `height`, `levels`, `seed` | or a generated terrain (article 001's value noise), 1–4096 a side, heights `1..=levels` (1–9) | levels 5, seed 0 |
//! | `walls` | extra wall cells `[[x, y], …]` | none |
//! | `start`, `goal` | `[x, y]` | — |
//! | `heuristic` | `"euclidean"` (the article's), `"manhattan"`, `"zero"` (Dijkstra), `"octile"` (the cost to go over open ground with 8-way moves: straight, then diagonal) | euclidean |
//! | `heuristic_weight` | `w` in `w·h`: above 1 is not admissible (greedy when large) | 1 |
//! | `tie_break` | `"fifo"` (the article's), `"lifo"`, `"larger_g"`, `"smaller_h"` | fifo |
//! | `moves` | `4` (left, up, right, down: the article's) or `8` (the diagonals too, each costing √2 × the rule's cost, cutting no corner; costs get decimals) | 4 |
//! | `closed_set` | `false`: the article's list without a closed set, expanding every popped entry (stale copies too) | true |
//! | `uphill_weight`, `downhill_weight` | extra cost per level up / down, 0–10,000 | 1, 0 |
//! | `max_climb`, `max_drop` | the largest step up / down, 0–9 | 2, 2 |
//! | `label` | a name for the search in pictures | from the heuristic |
//! | `label_translations` | the name by language, `{ ja = "…" }` | none |
//! | `[[scenario.searches]]` | several searches side by side: each takes the search keys above (`heuristic` … `label`), defaulting to the top-level values; at most 8 | one search |

use super::LessonError;
use super::line::{add_walls, is_cell, map_grid, open_cell};
use super::node::Params;
use super::variants::{PaneName, name_translations};
use crate::num::Fx;
use crate::sim::path::{
    CostRule, Heuristic, HeuristicKind, MAX_WEIGHT, Moves, PathConfig, SearchConfig, TieBreak,
    generate,
};

/// The overlays a path lesson can show.
pub const OVERLAYS: &[&str] = &[
    "heights",
    "walls",
    "cliffs",
    "open",
    "closed",
    "g",
    "h",
    "f",
    "parents",
    "current",
    "open_list",
    "path",
    "costs",
    "expansions",
];

/// Checks a highlight name: `cell:X,Y`, `search:N`, `start`, `goal`.
pub fn check_highlight(h: &str) -> Result<(), String> {
    let ok = match h.split_once(':') {
        Some(("search", n)) => n.parse::<u32>().is_ok(),
        Some(("cell", xy)) => is_cell(xy),
        None => matches!(h, "start" | "goal" | "current"),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "unknown highlight `{h}` for sim path; use cell:X,Y, search:N, start, goal or current"
        ))
    }
}

const HEURISTICS: &[(&str, HeuristicKind)] = &[
    ("euclidean", HeuristicKind::Euclidean),
    ("manhattan", HeuristicKind::Manhattan),
    ("zero", HeuristicKind::Zero),
    ("octile", HeuristicKind::Octile),
];

/// Reads the search keys of a table, defaulting to `base`.
fn search_keys(p: &mut Params, base: &SearchConfig) -> Result<SearchConfig, LessonError> {
    let kind = p.choice("heuristic", base.heuristic.kind, HEURISTICS)?;
    let weight = p.fx(
        "heuristic_weight",
        base.heuristic.weight,
        Fx::ZERO..=Fx::from_int(1000),
    )?;
    let tie_break = p.choice("tie_break", base.tie_break, TieBreak::NAMES)?;
    let closed_set = p.bool("closed_set", base.closed_set)?;
    let moves = match p.take("moves") {
        None => base.moves,
        Some(n) => match p.int_of("moves", &n, 4..=8)? {
            4 => Moves::Four,
            8 => Moves::Eight,
            v => {
                return Err(p
                    .ctx()
                    .err(&n, format!("`moves` = {v}: a cell has 4 or 8 moves")));
            }
        },
    };
    let mw = MAX_WEIGHT as i64;
    let rule = CostRule {
        uphill_weight: p.int("uphill_weight", base.rule.uphill_weight as i64, 0..=mw)? as u32,
        downhill_weight: p.int("downhill_weight", base.rule.downhill_weight as i64, 0..=mw)? as u32,
        max_climb: p.int("max_climb", base.rule.max_climb as i64, 0..=9)? as u8,
        max_drop: p.int("max_drop", base.rule.max_drop as i64, 0..=9)? as u8,
    };
    let heuristic = Heuristic { kind, weight };
    let label = match p.string("label")? {
        Some((l, _)) => l,
        None if base.label.is_empty() || base.heuristic != heuristic => default_label(&heuristic),
        None => base.label.clone(),
    };
    Ok(SearchConfig {
        label,
        rule,
        heuristic,
        tie_break,
        closed_set,
        moves,
    })
}

/// `label_translations = { ja = "…" }`, if present.
fn label_translations(
    p: &mut Params,
) -> Result<std::collections::BTreeMap<String, String>, LessonError> {
    match p.take("label_translations") {
        Some(n) => name_translations(p.ctx(), &n),
        None => Ok(Default::default()),
    }
}

/// "A*", "Dijkstra" or "greedy (w = 5)".
pub fn default_label(h: &Heuristic) -> String {
    match (h.kind, h.weight) {
        (HeuristicKind::Zero, _) => "Dijkstra".into(),
        (_, w) if w == Fx::ONE => "A*".into(),
        (_, w) if w > Fx::ONE => format!("weighted A* (w = {w})"),
        (_, w) => format!("A* (w = {w})"),
    }
}

/// Reads a path scenario from the `[scenario]` parameters; `titles` gets
/// each search's label with its translations.
pub fn scenario(p: &mut Params, titles: &mut Vec<PaneName>) -> Result<PathConfig, LessonError> {
    let ctx = p.ctx();
    let mut grid = match map_grid(p)? {
        Some(g) => {
            for key in ["levels", "seed"] {
                if let Some(n) = p.peek(key) {
                    return Err(ctx.err(
                        n,
                        format!("`{key}` generates a terrain and cannot be used with `map`"),
                    ));
                }
            }
            g
        }
        None => {
            let (w, _) = p.req_int("width", 1..=4096)?;
            let (h, _) = p.req_int("height", 1..=4096)?;
            let levels = p.int("levels", 5, 1..=9)? as u8;
            let seed = p.int("seed", 0, 0..=i64::MAX)? as u64;
            generate(w as u32, h as u32, levels, seed)
        }
    };
    add_walls(p, &mut grid)?;
    let (start, sn) = p.req_cell("start")?;
    open_cell(ctx, &grid, start, &sn, "start")?;
    let (goal, gn) = p.req_cell("goal")?;
    open_cell(ctx, &grid, goal, &gn, "goal")?;
    let defaults = SearchConfig::default();
    let base = search_keys(p, &defaults)?;
    let base_tr = label_translations(p)?;
    let mut searches = Vec::new();
    for (mut t, _) in p.tables("searches")? {
        let s = search_keys(&mut t, &base)?;
        // A search that keeps the top-level label keeps its translations.
        let tr = match label_translations(&mut t)? {
            tr if tr.is_empty() && s.label == base.label => base_tr.clone(),
            tr => tr,
        };
        t.finish()?;
        titles.push(PaneName {
            name: s.label.clone(),
            translations: tr,
        });
        searches.push(s);
    }
    if searches.is_empty() {
        titles.push(PaneName {
            name: base.label.clone(),
            translations: base_tr,
        });
        searches.push(base);
    }
    let cfg = PathConfig {
        grid,
        start,
        goal,
        searches,
    };
    cfg.check().map_err(|m| p.table_err(m))?;
    Ok(cfg)
}

/// The path sim's registration ([`super::sims`]).
pub static REGISTRATION: super::sims::Builtin = super::sims::Builtin {
    id: super::sims::PATH,
    name: "path",
    // Ten expansions a second.
    rate: 10,
    overlays: OVERLAYS,
    default_overlays: &[
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
    focus_kinds: &["search", "cell", "start", "goal"],
    parts: "searches",
    check_highlight,
    callout_keys,
    scenario: |params, _, titles| Ok(crate::sim::Scenario::Path(scenario(params, titles)?)),
};

/// The figures a callout at an entity of `kind` may name (besides
/// `{param.NAME}`).
fn callout_keys(kind: &str) -> &'static [&'static str] {
    match kind {
        "world" | "search" => &[
            "expanded", "open", "cost", "moves", "climbs", "status", "tick", "hash",
        ],
        "cell" | "start" | "goal" => &["g", "h", "f", "height", "tick"],
        _ => &[],
    }
}
