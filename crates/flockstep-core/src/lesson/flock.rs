//! The `flock` scenario: parameters of the boid sims (see
//! [`crate::sim::flock`]). Numbers may be integers, decimals or strings
//! (`"0.05"`, `"1/60"`); angles are in degrees.
//!
//! Every key — its type, range, default, unit and help, per model — is in
//! [`PARAMS`], which the reader below reads through: `flockstep params
//! flock [--model NAME]` lists it, and `docs/params.md` is written from it.
//! The model parameters' defaults are the articles' (each model's
//! `Default`, checked against the schema by the tests).

use super::node::{Node, Params};
use super::schema::{DefaultValue, Param, Ty, ratio, text, unit};
use super::sims::UnknownHighlight;
use super::{LessonError, LessonErrorKind};
use crate::num::{Angle, Fx, Vec3};
use crate::sim::flock::{
    BoidInit, Bounds, COORD_LIMIT, FlockConfig, GemsParams, HeadingParams, MAX_BOIDS, MAX_RADIUS,
    MAX_SPEED, MIN_LENGTH, Model, Numbering, Obstacle, Search, Spawn, Update, WeightedParams,
};

/// The overlays a flock lesson can show.
pub const OVERLAYS: &[&str] = &[
    "boids",
    "velocity",
    "view_radius",
    "fov",
    "neighbours",
    "nearest",
    "separation",
    "alignment",
    "cohesion",
    "obstacle",
    "cruising",
    "feelers",
    "wall_boids",
    "clamps",
    "steering",
    "grid",
    "trails",
    "attitude",
];

/// Checks a highlight name: `boid:N`, `obstacle:N`, `rule:NAME`.
pub fn check_highlight(h: &str) -> Result<(), UnknownHighlight> {
    let ok = match h.split_once(':') {
        Some(("boid" | "obstacle", n)) => n.parse::<u32>().is_ok(),
        Some(("rule", r)) => matches!(
            r,
            "separation" | "alignment" | "cohesion" | "obstacle" | "cruising" | "walls"
        ),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(UnknownHighlight {
            highlight: h.to_owned(),
            sim: "flock",
            forms: "boid:N, obstacle:N or rule:NAME (separation, alignment, cohesion, obstacle, cruising, walls)",
        })
    }
}

fn inside(min: Vec3, max: Vec3, p: Vec3, dims: u8) -> bool {
    p.x >= min.x
        && p.x <= max.x
        && p.y >= min.y
        && p.y <= max.y
        && (dims == 2 || (p.z >= min.z && p.z <= max.z))
}

/// The models, as `model` names them.
const MODELS: [&str; 3] = ["heading", "gems", "weighted"];
const HEADING: &[&str] = &["heading"];
const GEMS: &[&str] = &["gems"];
const WEIGHTED: &[&str] = &["weighted"];
const MOVING: &[&str] = &["gems", "weighted"];

const fn int(n: i32) -> Fx {
    Fx::from_int(n)
}

/// The largest radius and speed, as numbers.
const R: Fx = int(MAX_RADIUS);
const S: Fx = int(MAX_SPEED);

/// A distance parameter: from the smallest step up to the largest radius.
const fn dist(key: &'static str, default: i32) -> Param {
    Param::number(key, Fx::DELTA, R, int(default)).unit(unit::LENGTH)
}

/// An angle parameter in degrees, `0..=max`.
const fn degrees(key: &'static str, max: i32, default: i32) -> Param {
    Param::number(key, Fx::ZERO, int(max), int(default)).unit(unit::DEGREES)
}

/// A speed parameter, `0..=MAX_SPEED`.
const fn speed(key: &'static str, default: Fx) -> Param {
    Param::number(key, Fx::ZERO, S, default).unit(unit::SPEED)
}

/// A point in the world, within ±`COORD_LIMIT`.
const fn point(key: &'static str) -> Param {
    Param::new(key, Ty::Vector { limit: COORD_LIMIT }).unit(unit::LENGTH)
}

/// A default by model: heading, gems, weighted.
macro_rules! per3 {
    ($h:expr, $g:expr, $w:expr $(,)?) => {
        DefaultValue::Per(&[("heading", $h), ("gems", $g), ("weighted", $w)])
    };
}

/// The keys of a `[[scenario.variants]]` table besides scenario keys.
pub const VARIANT_PARAMS: &[Param] = &[
    Param::new("name", Ty::Text).help("the pane's title (1–40 characters)", "枠の題 (1–40 文字)"),
    Param::new("name_translations", Ty::Translations)
        .absent(text("none", "なし"))
        .help("the title by language", "言語ごとの題"),
];

const BOID_PARAMS: &[Param] = &[
    point("at").help("where the boid starts", "ボイドの初期位置"),
    degrees("heading", 360, 0)
        .only(HEADING)
        .help("its initial heading", "初期の向き"),
    speed("speed", int(2))
        .only(HEADING)
        .help("its speed", "速さ"),
    Param::new("vel", Ty::Vector { limit: MAX_SPEED })
        .absent(text("at rest", "静止"))
        .unit(unit::SPEED)
        .only(MOVING)
        .help("its initial velocity", "初速度"),
    Param::new("name", Ty::Name)
        .absent(text("boid N", "boid N"))
        .help("its name, drawn and listed", "名前 (描画と一覧に出る)"),
];

const OBSTACLE_PARAMS: &[Param] = &[
    point("at").help("the obstacle's centre", "障害物の中心"),
    Param::number("radius", Fx::ZERO, R, Fx::ZERO)
        .unit(unit::LENGTH)
        .help("its radius (0: a point)", "半径 (0 は点)"),
];

/// The flock scenario's parameters, in the order they are read.
pub static PARAMS: &[Param] = &[
    Param::new("sim", Ty::Text).help("the sim: \"flock\"", "シミュレーション: \"flock\""),
    Param::new("variants", Ty::Tables(VARIANT_PARAMS))
        .absent(text("one run", "1 本の実行"))
        .help(
            "2–4 runs side by side; each table sets any scenario keys",
            "2–4 本を並べて実行; 各表は任意のシナリオキーを上書き",
        ),
    Param::new("model", Ty::Choice(&MODELS)).help(
        "the article's model: heading (000), gems (002), weighted (004)",
        "記事のモデル: heading (000), gems (002), weighted (004)",
    ),
    Param::int("dims", 2, 3, 3)
        .default(per3!(
            DefaultValue::Int(2),
            DefaultValue::Int(3),
            DefaultValue::Int(3)
        ))
        .help(
            "2-D or 3-D (heading is 2-D, gems 3-D)",
            "2 次元か 3 次元 (heading は 2, gems は 3)",
        ),
    point("world_min")
        .default(per3!(
            DefaultValue::Rule(text("[0, 0]", "[0, 0]")),
            DefaultValue::Rule(text("[0, 0, 0]", "[0, 0, 0]")),
            DefaultValue::Rule(text(
                "[-10, 0, -10] (2-D: [-10, 0])",
                "[-10, 0, -10] (2 次元: [-10, 0])"
            )),
        ))
        .help("the world box's low corner", "世界の箱の最小の角"),
    point("world_max")
        .default(per3!(
            DefaultValue::Rule(text("[640, 480]", "[640, 480]")),
            DefaultValue::Rule(text("[100, 50, 100]", "[100, 50, 100]")),
            DefaultValue::Rule(text(
                "[10, 20, 10] (2-D: [10, 20])",
                "[10, 20, 10] (2 次元: [10, 20])"
            )),
        ))
        .help("the world box's high corner", "世界の箱の最大の角"),
    Param::choice("bounds", &["wrap", "walls", "none"], "wrap")
        .default(per3!(
            DefaultValue::Choice("wrap"),
            DefaultValue::Choice("wrap"),
            DefaultValue::Choice("walls"),
        ))
        .vary()
        .help(
            "at the box's edge: wrap around, walls as virtual boids (weighted), or none",
            "箱の端で: 反対側へ回り込む, 仮想ボイドの壁 (weighted), なし",
        ),
    Param::choice(
        "update",
        &["double_buffered", "in_place"],
        "double_buffered",
    )
    .vary()
    .help(
        "read the last tick's flock, or boids updated earlier this tick",
        "前の tick の群れを読むか, この tick で先に更新したボイドを読むか",
    ),
    Param::choice("numbering", &["as_placed", "reversed"], "as_placed").help(
        "reversed: the same boids, the last placed is boid 0",
        "reversed: 同じボイドで, 最後に置いたものが boid 0",
    ),
    Param::choice("search", &["grid", "brute"], "grid").help(
        "how mates are found: a grid of cells, or every pair",
        "仲間の探し方: セルの格子か, 全組",
    ),
    Param::number("dt", Fx::DELTA, int(10), Fx::ONE)
        .default(per3!(
            DefaultValue::Number(Fx::ONE),
            DefaultValue::Number(Fx::ONE),
            DefaultValue::Number(ratio(1, 60)),
        ))
        .unit(unit::TIME)
        .help("the length of a tick", "1 tick の長さ"),
    Param::number("dt_jitter", Fx::ZERO, ratio(9, 10), Fx::ZERO)
        .unit(unit::FRACTION)
        .help(
            "each tick's dt varies by up to ± this fraction",
            "各 tick の dt をこの割合まで ± に揺らす",
        ),
    Param::int("frame_seed", 0, i64::MAX, 0).help(
        "seed of the varying frame times (stands in for a machine)",
        "揺れるフレーム時間の種 (機械の代わり)",
    ),
    Param::int("seed", 0, i64::MAX, 0).help(
        "seed of placement and of the gems wobble",
        "配置と gems の揺らぎの種",
    ),
    // heading (article 000)
    degrees("fov", 360, 180)
        .only(HEADING)
        .vary()
        .help("the field of view, centred ahead", "視野角 (前方中心)"),
    dist("view_range", 75)
        .only(HEADING)
        .vary()
        .help("how far a boid sees its mates", "仲間が見える距離"),
    dist("separate_range", 30).only(HEADING).vary().help(
        "closer than this, a boid turns away from its nearest mate",
        "これより近いと最も近い仲間から離れる",
    ),
    degrees("separate_turn", 180, 60).only(HEADING).help(
        "how far it turns away, at most, per tick",
        "1 tick で離れる向きに回る最大角",
    ),
    dist("check_distance", 80).only(HEADING).help(
        "how far ahead it looks for obstacles",
        "障害物を探す前方の距離",
    ),
    dist("check_range", 60).only(HEADING).help(
        "how far off its course an obstacle still counts",
        "進路からこの距離までの障害物を数える",
    ),
    degrees("avoid_turn", 180, 60).only(HEADING).help(
        "how far it turns from an obstacle, at most, per tick",
        "1 tick で障害物から回る最大角",
    ),
    Param::flag("naive_angle_average", false)
        .only(HEADING)
        .vary()
        .help(
            "average headings as plain numbers (the pitfall at 0°/360°)",
            "向きを単なる数として平均する (0°/360° の落とし穴)",
        ),
    Param::flag("ignore_obstacles_behind", false)
        .only(HEADING)
        .help("skip obstacles behind the boid", "後ろの障害物を無視する"),
    Param::flag("count_self", true).only(HEADING).help(
        "the averages count the boid itself (the article)",
        "平均に自分自身も数える (記事どおり)",
    ),
    // gems (article 002)
    degrees("view_angle", 360, 360)
        .absent(text("all around (the article)", "全周 (記事どおり)"))
        .only(GEMS)
        .vary()
        .help("the field of view, centred ahead", "視野角 (前方中心)"),
    speed("min_urgency", ratio(5, 100)).only(GEMS).help(
        "the least steering a rule asks for",
        "規則が求める最小の操舵",
    ),
    speed("max_urgency", ratio(1, 10))
        .at_least("min_urgency")
        .only(GEMS)
        .help(
            "the most steering a rule asks for",
            "規則が求める最大の操舵",
        ),
    Param::number("max_speed", MIN_LENGTH, S, Fx::ONE)
        .unit(unit::SPEED)
        .only(GEMS)
        .vary()
        .help("the speed clamp", "速さの上限"),
    Param::number("perception", MIN_LENGTH, R, int(8))
        .unit(unit::LENGTH)
        .only(GEMS)
        .vary()
        .help("how far a fish sees its mates", "仲間が見える距離"),
    Param::int("max_visible", 1, 1000, 10).only(GEMS).help(
        "how many of the nearest mates count",
        "数に入れる最も近い仲間の数",
    ),
    Param::number("separation_dist", MIN_LENGTH, R, int(5))
        .unit(unit::LENGTH)
        .only(GEMS)
        .vary()
        .help(
            "the distance kept from the nearest mate",
            "最も近い仲間と保つ距離",
        ),
    speed("desired_speed", Fx::ZERO)
        .default(DefaultValue::Rule(text("max_speed / 2", "max_speed / 2")))
        .at_most("max_speed")
        .only(GEMS)
        .vary()
        .help("the cruising speed", "巡航速度"),
    speed("max_change", Fx::ZERO)
        .default(DefaultValue::Rule(text("max_speed / 10", "max_speed / 10")))
        .only(GEMS)
        .help(
            "the largest change of velocity per tick",
            "1 tick の速度変化の上限",
        ),
    Param::number("gravity", Fx::ZERO, int(1000), ratio(9806, 1000))
        .only(GEMS)
        .help("pulls the fish level (roll)", "魚を水平に戻す (ロール)"),
    // weighted (article 004)
    speed("min_speed", int(2))
        .only(WEIGHTED)
        .vary()
        .help("the lower speed clamp", "速さの下限"),
    speed("max_speed", int(5))
        .at_least("min_speed")
        .only(WEIGHTED)
        .vary()
        .help("the upper speed clamp", "速さの上限"),
    dist("fov", 5).only(WEIGHTED).vary().help(
        "how far a boid sees (a distance, the article's name)",
        "見える距離 (記事の名前では fov)",
    ),
    Param::number("strength", Fx::ZERO, int(1_000_000), int(10))
        .only(WEIGHTED)
        .help(
            "separation's push: strength / d²",
            "分離の押す力: strength / d²",
        ),
    Param::number("min_distance", Fx::ZERO, R, Fx::ZERO)
        .unit(unit::LENGTH)
        .only(WEIGHTED)
        .vary()
        .help(
            "a floor under d in strength / d² (0: none, the article; else from 0.001)",
            "strength / d² の d の下限 (0 はなし, 記事どおり; 他は 0.001 から)",
        ),
    Param::number("w_separation", Fx::ZERO, int(100), int(5))
        .only(WEIGHTED)
        .vary()
        .help("the weight of separation", "分離の重み"),
    Param::number("w_alignment", Fx::ZERO, int(100), int(2))
        .only(WEIGHTED)
        .vary()
        .help("the weight of alignment", "整列の重み"),
    Param::number("w_cohesion", Fx::ZERO, int(100), Fx::ONE)
        .only(WEIGHTED)
        .vary()
        .help("the weight of cohesion", "結合の重み"),
    // boids and obstacles
    Param::int("boids", 0, MAX_BOIDS as i64, 0)
        .unit(unit::BOIDS)
        .vary()
        .help(
            "how many boids the seeded placer adds",
            "種から配置するボイドの数",
        ),
    Param::new("boid", Ty::Tables(BOID_PARAMS))
        .absent(text("none", "なし"))
        .help(
            "boids placed by hand (numbered first)",
            "手で置くボイド (番号は先)",
        ),
    point("spawn_min")
        .absent(text("the world box", "世界の箱"))
        .help("the placer's region, low corner", "配置する範囲の最小の角"),
    point("spawn_max")
        .absent(text("the world box", "世界の箱"))
        .help("the placer's region, high corner", "配置する範囲の最大の角"),
    speed("speed_min", int(2))
        .default(per3!(
            DefaultValue::Number(int(2)),
            DefaultValue::Number(ratio(3, 10)),
            DefaultValue::Number(int(2)),
        ))
        .help(
            "the placed boids' least initial speed",
            "配置するボイドの初速の下限",
        ),
    speed("speed_max", int(2))
        .default(per3!(
            DefaultValue::Number(int(2)),
            DefaultValue::Number(ratio(6, 10)),
            DefaultValue::Number(int(2)),
        ))
        .at_least("speed_min")
        .help(
            "the placed boids' greatest initial speed",
            "配置するボイドの初速の上限",
        ),
    Param::new("obstacles", Ty::Tables(OBSTACLE_PARAMS))
        .absent(text("none", "なし"))
        .only(&["heading", "weighted"])
        .help("round obstacles to steer around", "避ける円形の障害物"),
];

/// Reads a flock scenario from the `[scenario]` parameters.
pub fn scenario(p: &mut Params, names: &mut super::Names) -> Result<FlockConfig, LessonError> {
    let model_node = model(p)?;
    let kind = p.variant().unwrap_or("heading");
    let dims = dims(p, kind, &model_node)?;
    let (wmin, wmax) = world_box(p, dims)?;
    let bounds = bounds(p, kind)?;
    let update = p.get_choice("update", &[Update::DoubleBuffered, Update::InPlace])?;
    let numbering = p.get_choice("numbering", &[Numbering::AsPlaced, Numbering::Reversed])?;
    let search = p.get_choice("search", &[Search::Grid, Search::Brute])?;
    let dt = p.get_fx("dt")?;
    let dt_jitter = p.get_fx("dt_jitter")?;
    let frame_seed = p.get_int("frame_seed")? as u64;
    let seed = p.get_int("seed")? as u64;
    let model = match kind {
        "heading" => Model::Heading(heading(p)?),
        "gems" => Model::Gems(gems(p)?),
        _ => Model::Weighted(weighted(p)?),
    };
    let world = World {
        min: wmin,
        max: wmax,
        dims,
    };
    let (count, count_node) = match p.peek("boids").cloned() {
        Some(n) => (p.get_int("boids")? as u32, Some(n)),
        None => (0, None),
    };
    let boids = placed_boids(p, &world, names)?;
    let total = boids.len() as u64 + count as u64;
    if total == 0 || total > MAX_BOIDS as u64 {
        let msg = format!(
            "a flock needs 1..={MAX_BOIDS} boids: set `boids = N` or add [[scenario.boid]] tables (found {total})"
        );
        return Err(match &count_node {
            Some(n) => p.ctx().err(n, msg),
            None => p.table_err(msg),
        });
    }
    let spawn = spawn(p, &world, count)?;
    let obstacles = obstacles(p, &world)?;
    let cfg = FlockConfig {
        model,
        dims,
        world_min: wmin,
        world_max: wmax,
        bounds,
        update,
        numbering,
        search,
        dt,
        dt_jitter,
        frame_seed,
        seed,
        boids,
        spawn,
        obstacles,
    };
    // Everything above was checked with its position; this is a backstop.
    cfg.check().map_err(|m| p.table_err(m))?;
    Ok(cfg)
}

/// The world box and its dimensions, for checking where things start.
struct World {
    min: Vec3,
    max: Vec3,
    dims: u8,
}

impl World {
    fn contains(&self, p: Vec3) -> bool {
        inside(self.min, self.max, p, self.dims)
    }
}

/// Reads `model` and makes it the table's variant; returns its node.
fn model(p: &mut Params) -> Result<Node, LessonError> {
    let Some((name, node)) = p.string("model")? else {
        return Err(p.missing(
            "model",
            "missing `model`: \"heading\", \"gems\" or \"weighted\"",
        ));
    };
    let Some(m) = MODELS.iter().find(|m| **m == name) else {
        let msg = format!(
            "unknown model `{name}`; models: \"heading\" (article 000), \"gems\" (002), \"weighted\" (004)"
        );
        let kind = LessonErrorKind::NotAChoice {
            key: "model".into(),
        };
        return Err(p.ctx().err(&node, msg).with_kind(kind));
    };
    p.set_variant(m);
    Ok(node)
}

/// `dims`: the heading model is 2-D, gems 3-D, weighted either.
fn dims(p: &mut Params, kind: &str, model_node: &Node) -> Result<u8, LessonError> {
    let dims_node = p.peek("dims").cloned();
    let dims = p.get_int("dims")? as u8;
    let fixed = match kind {
        "heading" => Some(2),
        "gems" => Some(3),
        _ => None,
    };
    match fixed {
        Some(d) if d != dims => {
            let msg = format!("the {kind} model is {d}-D; `dims` is {dims}");
            Err(p.ctx().err(dims_node.as_ref().unwrap_or(model_node), msg))
        }
        _ => Ok(dims),
    }
}

/// `world_min` and `world_max`, defaulting by model, not empty on any axis.
fn world_box(p: &mut Params, dims: u8) -> Result<(Vec3, Vec3), LessonError> {
    let (dmin, dmax) = match (p.variant(), dims) {
        (Some("heading"), _) => (Vec3::from_ints(0, 0, 0), Vec3::from_ints(640, 480, 0)),
        (Some("gems"), _) => (Vec3::from_ints(0, 0, 0), Vec3::from_ints(100, 50, 100)),
        (_, 3) => (Vec3::from_ints(-10, 0, -10), Vec3::from_ints(10, 20, 10)),
        _ => (Vec3::from_ints(-10, 0, 0), Vec3::from_ints(10, 20, 0)),
    };
    let world_min = p.get_vector("world_min", dims)?;
    let world_max = p.get_vector("world_max", dims)?;
    let (wmin, wmax) = (
        world_min.as_ref().map_or(dmin, |(v, _)| *v),
        world_max.as_ref().map_or(dmax, |(v, _)| *v),
    );
    let axes_ok = wmin.x < wmax.x && wmin.y < wmax.y && (dims == 2 || wmin.z < wmax.z);
    if axes_ok {
        return Ok((wmin, wmax));
    }
    let msg = "the world box is empty: `world_min` must be below `world_max` on every axis";
    Err(match world_max.as_ref().or(world_min.as_ref()) {
        Some((_, n)) => p.ctx().err(n, msg),
        None => p.table_err(msg),
    })
}

/// `bounds`; walls are the weighted model's virtual boids.
fn bounds(p: &mut Params, kind: &str) -> Result<Bounds, LessonError> {
    let node = p.peek("bounds").cloned();
    let bounds = p.get_choice("bounds", &[Bounds::Wrap, Bounds::Walls, Bounds::Open])?;
    if bounds != Bounds::Walls || kind == "weighted" {
        return Ok(bounds);
    }
    let msg = format!(
        "`bounds = \"walls\"` needs the weighted model (walls as virtual boids, article 004); the {kind} model supports \"wrap\" and \"none\""
    );
    Err(match &node {
        Some(n) => p.ctx().err(n, msg),
        None => p.table_err(msg),
    })
}

fn angle(p: &mut Params, key: &str) -> Result<Angle, LessonError> {
    Ok(Angle::from_degrees(p.get_fx(key)?))
}

fn heading(p: &mut Params) -> Result<HeadingParams, LessonError> {
    let fov = p.get_fx("fov")?;
    Ok(HeadingParams {
        view_range: p.get_fx("view_range")?,
        fov_half: Angle::from_degrees(fov / Fx::from_int(2)),
        separate_range: p.get_fx("separate_range")?,
        separate_turn: angle(p, "separate_turn")?,
        check_distance: p.get_fx("check_distance")?,
        check_range: p.get_fx("check_range")?,
        avoid_turn: angle(p, "avoid_turn")?,
        naive_angle_average: p.get_bool("naive_angle_average")?,
        ignore_obstacles_behind: p.get_bool("ignore_obstacles_behind")?,
        count_self: p.get_bool("count_self")?,
    })
}

fn gems(p: &mut Params) -> Result<GemsParams, LessonError> {
    let view_angle = p.get_fx_opt("view_angle")?.map(Angle::from_degrees);
    let min_urgency = p.get_fx("min_urgency")?;
    let max_urgency = p.get_fx("max_urgency")?;
    let max_speed = p.get_fx("max_speed")?;
    Ok(GemsParams {
        perception: p.get_fx("perception")?,
        max_visible: p.get_int("max_visible")? as u32,
        separation_dist: p.get_fx("separation_dist")?,
        min_urgency,
        max_urgency,
        max_speed,
        desired_speed: p.get_fx_or("desired_speed", max_speed / Fx::from_int(2))?,
        max_change: p.get_fx_or("max_change", max_speed * GemsParams::default().max_urgency)?,
        gravity: p.get_fx("gravity")?,
        view_angle,
    })
}

fn weighted(p: &mut Params) -> Result<WeightedParams, LessonError> {
    let min_speed = p.get_fx("min_speed")?;
    let max_speed = p.get_fx("max_speed")?;
    let wp = WeightedParams {
        fov: p.get_fx("fov")?,
        strength: p.get_fx("strength")?,
        min_distance: p.get_fx("min_distance")?,
        w_separation: p.get_fx("w_separation")?,
        w_alignment: p.get_fx("w_alignment")?,
        w_cohesion: p.get_fx("w_cohesion")?,
        min_speed,
        max_speed,
    };
    wp.check().map_err(|m| p.table_err(m))?;
    Ok(wp)
}

/// The `[[scenario.boid]]` tables: boids placed by hand, named in `names`.
fn placed_boids(
    p: &mut Params,
    world: &World,
    names: &mut super::Names,
) -> Result<Vec<BoidInit>, LessonError> {
    let ctx = p.ctx();
    let heading_model = p.variant() == Some("heading");
    let mut boids = Vec::new();
    for (i, (mut t, _)) in p.get_tables("boid")?.into_iter().enumerate() {
        let Some((pos, n)) = t.get_vector("at", world.dims)? else {
            return Err(t.missing("at", "missing `at`: where the boid starts"));
        };
        if !world.contains(pos) {
            return Err(ctx.err(&n, format!("boid {i} starts outside the world box")));
        }
        let b = if heading_model {
            BoidInit {
                pos,
                vel: Vec3::ZERO,
                heading: angle(&mut t, "heading")?,
                speed: t.get_fx("speed")?,
            }
        } else {
            let vel = t.get_vector("vel", world.dims)?;
            BoidInit {
                pos,
                vel: vel.map_or(Vec3::ZERO, |(v, _)| v),
                heading: Angle::ZERO,
                speed: Fx::ZERO,
            }
        };
        if let Some(name) = t.name("name")? {
            names.insert(format!("boid:{i}"), name);
        }
        t.finish()?;
        boids.push(b);
    }
    Ok(boids)
}

/// The seeded placer's region and speeds, when it places `count > 0`.
fn spawn(p: &mut Params, world: &World, count: u32) -> Result<Option<Spawn>, LessonError> {
    let ctx = p.ctx();
    let spawn_min = p.get_vector("spawn_min", world.dims)?;
    let spawn_max = p.get_vector("spawn_max", world.dims)?;
    for (v, n) in spawn_min.iter().chain(spawn_max.iter()) {
        if !world.contains(*v) {
            return Err(ctx.err(n, "the spawn region must lie inside the world box"));
        }
    }
    let (min, max) = (
        spawn_min.as_ref().map_or(world.min, |(v, _)| *v),
        spawn_max.as_ref().map_or(world.max, |(v, _)| *v),
    );
    if min.x > max.x || min.y > max.y || min.z > max.z {
        let msg = "`spawn_min` must not be above `spawn_max` on any axis";
        return Err(match spawn_max.as_ref().or(spawn_min.as_ref()) {
            Some((_, n)) => ctx.err(n, msg),
            None => p.table_err(msg),
        });
    }
    let speed_min = p.get_fx("speed_min")?;
    let speed_max = p.get_fx("speed_max")?;
    Ok((count > 0).then_some(Spawn {
        count,
        min,
        max,
        speed_min,
        speed_max,
    }))
}

/// The `[[scenario.obstacles]]` tables (heading and weighted models).
fn obstacles(p: &mut Params, world: &World) -> Result<Vec<Obstacle>, LessonError> {
    let ctx = p.ctx();
    if p.variant() == Some("gems") {
        if p.peek("obstacles").is_some() {
            return Err(p.table_err(
                "the gems model has no obstacle rule (article 002): remove [[scenario.obstacles]] or use the heading or weighted model",
            ));
        }
        return Ok(Vec::new());
    }
    let mut obstacles = Vec::new();
    for (i, (mut t, _)) in p.get_tables("obstacles")?.into_iter().enumerate() {
        let Some((center, n)) = t.get_vector("at", world.dims)? else {
            return Err(t.missing("at", "missing `at`: the obstacle's centre"));
        };
        if !world.contains(center) {
            return Err(ctx.err(&n, format!("obstacle {i} is outside the world box")));
        }
        let radius = t.get_fx("radius")?;
        t.finish()?;
        obstacles.push(Obstacle { center, radius });
    }
    Ok(obstacles)
}

/// The flock sim's registration ([`super::sims`]).
pub static REGISTRATION: super::sims::Builtin = super::sims::Builtin {
    id: super::sims::FLOCK,
    name: "flock",
    // A tick a frame.
    rate: 60,
    overlays: OVERLAYS,
    default_overlays: &[
        "boids",
        "velocity",
        "view_radius",
        "neighbours",
        "separation",
        "alignment",
        "cohesion",
        "obstacle",
        "cruising",
        "steering",
    ],
    focus_kinds: &["boid", "obstacle", "pane"],
    parts: "panes",
    check_highlight,
    callout_keys,
    params: PARAMS,
    scenario: |params, names, _| Ok(crate::sim::Scenario::Flock(scenario(params, names)?)),
};

/// The figures a callout at an entity of `kind` may name (besides
/// `{param.NAME}`).
fn callout_keys(kind: &str) -> &'static [&'static str] {
    match kind {
        "world" => &[
            "mean_speed",
            "spread",
            "outside",
            "pairs",
            "alone",
            "boids",
            "tick",
            "dt",
            "hash",
        ],
        "boid" => &[
            "speed",
            "heading",
            "sees",
            "nearest",
            "out",
            "separation",
            "alignment",
            "cohesion",
            "obstacle",
            "cruising",
            "steering",
            "unclamped",
            "x",
            "y",
            "roll",
            "pitch",
            "yaw",
            "tick",
        ],
        "obstacle" => &["radius", "ahead", "off", "tick"],
        _ => &[],
    }
}
