//! The `path` scenario: A* searches on one height map (see
//! [`crate::sim::path`]), stepped side by side. Every key — type, range,
//! default, unit and help — is in [`PARAMS`], which the reader reads
//! through (the search keys again in each `[[scenario.searches]]` table,
//! defaulting there to the top-level values); `flockstep params path`
//! lists it and `docs/params.md` is written from it.

use super::LessonError;
use super::line::{add_walls, is_cell, map_grid, open_cell};
use super::node::Params;
use super::schema::{Param, Ty, concat, text, unit};
use super::sims::UnknownHighlight;
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
pub fn check_highlight(h: &str) -> Result<(), UnknownHighlight> {
    let ok = match h.split_once(':') {
        Some(("search", n)) => n.parse::<u32>().is_ok(),
        Some(("cell", xy)) => is_cell(xy),
        None => matches!(h, "start" | "goal" | "current"),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(UnknownHighlight {
            highlight: h.to_owned(),
            sim: "path",
            forms: "cell:X,Y, search:N, start, goal or current",
        })
    }
}

const HEURISTICS: [HeuristicKind; 4] = [
    HeuristicKind::Euclidean,
    HeuristicKind::Manhattan,
    HeuristicKind::Zero,
    HeuristicKind::Octile,
];

const TIE_BREAKS: [&str; 4] = [
    TieBreak::NAMES[0].0,
    TieBreak::NAMES[1].0,
    TieBreak::NAMES[2].0,
    TieBreak::NAMES[3].0,
];

/// An integer cost-rule key, `0..=max`.
const fn rule(key: &'static str, max: i64, default: i64, u: schema::Text) -> Param {
    Param::int(key, 0, max, default).unit(u).vary()
}

use super::schema;

/// The keys of one search: at the top level, and again in each
/// `[[scenario.searches]]` table (defaulting there to the top level's).
const SEARCH_PARAMS: [Param; 11] = [
    Param::choice("heuristic", &["euclidean", "manhattan", "zero", "octile"], "euclidean")
        .vary()
        .help(
            "the estimate to the goal: euclidean (the article's), manhattan, zero (Dijkstra), octile (8-way open ground)",
            "ゴールまでの見積もり: euclidean (記事), manhattan, zero (ダイクストラ), octile (8 方向の平地)",
        ),
    Param::number("heuristic_weight", Fx::ZERO, Fx::from_int(1000), Fx::ONE)
        .vary()
        .help(
            "w in w·h: above 1 is not admissible (greedy when large)",
            "w·h の w: 1 を超えると許容的でない (大きいと貪欲)",
        ),
    Param::choice("tie_break", &TIE_BREAKS, "fifo").vary().help(
        "which of equal f comes first: fifo (the article's), lifo, larger_g, smaller_h",
        "f が等しい時の順: fifo (記事), lifo, larger_g, smaller_h",
    ),
    Param::flag("closed_set", true).vary().help(
        "false: the article's list without a closed set (expands stale copies too)",
        "false: 記事の閉リストなし (古い複製も展開する)",
    ),
    Param::int("moves", 4, 8, 4).vary().help(
        "4 (the article's) or 8: diagonals too, √2 × the cost, cutting no corner",
        "4 (記事) か 8: 斜めも (コスト √2 倍, 角は切らない)",
    ),
    rule("uphill_weight", MAX_WEIGHT as i64, 1, unit::COST).help(
        "extra cost per level up",
        "1 段上るごとの追加コスト",
    ),
    rule("downhill_weight", MAX_WEIGHT as i64, 0, unit::COST).help(
        "extra cost per level down",
        "1 段下るごとの追加コスト",
    ),
    rule("max_climb", 9, 2, unit::LEVELS).help("the largest step up", "上れる最大の段差"),
    rule("max_drop", 9, 2, unit::LEVELS).help("the largest step down", "下りられる最大の段差"),
    Param::new("label", Ty::Text)
        .absent(text("from the heuristic", "ヒューリスティックから"))
        .help("the search's name in pictures", "図での探索の名前"),
    Param::new("label_translations", Ty::Translations)
        .absent(text("none", "なし"))
        .help("the name by language", "言語ごとの名前"),
];

/// The path scenario's parameters, in the order they are read.
pub static PARAMS: &[Param] = &{
    let [map, width, height] = super::line::map_params!(
        "size of a generated terrain (article 001's value noise)",
        "生成する地形の大きさ (記事 001 のバリューノイズ)"
    );
    let head = [
        Param::new("sim", Ty::Text).help("the sim: \"path\"", "シミュレーション: \"path\""),
        map,
        width,
        height,
        Param::int("levels", 1, 9, 5).unit(unit::LEVELS).help(
            "a generated terrain's heights, 1..=levels",
            "生成する地形の高さ 1..=levels",
        ),
        Param::int("seed", 0, i64::MAX, 0).help("a generated terrain's seed", "生成する地形の種"),
        super::line::WALLS,
        Param::new("start", Ty::Cell).help("where the searches start", "探索の出発点"),
        Param::new("goal", Ty::Cell).help("where they go", "目的地"),
    ];
    let tail = [Param::new("searches", Ty::Tables(&SEARCH_PARAMS))
        .absent(text("one search", "1 つの探索"))
        .help(
            "up to 8 searches side by side, each setting the search keys",
            "最大 8 つの探索を並べる; 各表は探索のキーを上書き",
        )];
    concat::<20, 1, 21>(concat::<9, 11, 20>(head, SEARCH_PARAMS), tail)
};

/// Reads the search keys of a table, defaulting to `base`.
fn search_keys(p: &mut Params, base: &SearchConfig) -> Result<SearchConfig, LessonError> {
    let kind = p.get_choice_or("heuristic", &HEURISTICS, base.heuristic.kind)?;
    let weight = p.get_fx_or("heuristic_weight", base.heuristic.weight)?;
    let ties: Vec<TieBreak> = TieBreak::NAMES.iter().map(|(_, t)| *t).collect();
    let tie_break = p.get_choice_or("tie_break", &ties, base.tie_break)?;
    let closed_set = p.get_bool_or("closed_set", base.closed_set)?;
    let moves = match p.peek("moves").cloned() {
        None => base.moves,
        Some(n) => match p.get_int("moves")? {
            4 => Moves::Four,
            8 => Moves::Eight,
            v => {
                let msg = format!("`moves` = {v}: a cell has 4 or 8 moves");
                return Err(p.ctx().err(&n, msg));
            }
        },
    };
    let r = &base.rule;
    let rule = CostRule {
        uphill_weight: p.get_int_or("uphill_weight", r.uphill_weight as i64)? as u32,
        downhill_weight: p.get_int_or("downhill_weight", r.downhill_weight as i64)? as u32,
        max_climb: p.get_int_or("max_climb", r.max_climb as i64)? as u8,
        max_drop: p.get_int_or("max_drop", r.max_drop as i64)? as u8,
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
            let (w, _) = p.req_int_p("width")?;
            let (h, _) = p.req_int_p("height")?;
            let levels = p.get_int("levels")? as u8;
            let seed = p.get_int("seed")? as u64;
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
    for (mut t, _) in p.get_tables("searches")? {
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
    params: PARAMS,
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
