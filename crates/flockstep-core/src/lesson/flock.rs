//! The `flock` scenario: parameters of the boid sims (see
//! [`crate::sim::flock`]). Numbers may be integers, decimals or strings
//! (`"0.05"`); angles are in degrees.
//!
//! | key | meaning | default |
//! |---|---|---|
//! | `model` | `"heading"` (article 000), `"gems"` (002) or `"weighted"` (004) | — |
//! | `dims` | 2 or 3 | heading 2, gems 3, weighted 3 |
//! | `world_min`, `world_max` | the world box corners `[x, y(, z)]` | heading `[0, 0]`–`[640, 480]`; gems `[0, 0, 0]`–`[100, 50, 100]`; weighted `[-10, 0, -10]`–`[10, 20, 10]` (2-D: `[-10, 0]`–`[10, 20]`) |
//! | `bounds` | `"wrap"`, `"walls"` (virtual boids; weighted only) or `"none"` | heading, gems `wrap`; weighted `walls` |
//! | `update` | `"double_buffered"` or `"in_place"` | `double_buffered` |
//! | `numbering` | `"as_placed"` or `"reversed"` (the same boids, the last placed is boid 0) | `as_placed` |
//! | `search` | `"grid"` or `"brute"` | `grid` |
//! | `dt` | tick length | heading, gems 1 (one frame); weighted 1/60 |
//! | `dt_jitter` | each tick's `dt` varies by up to ± this fraction (0–0.9) | 0 |
//! | `frame_seed` | seed of the varying frame times (stands in for a machine) | 0 |
//! | `seed` | seed of placement and of the gems wobble | 0 |
//! | `boids` | how many boids the generator places, 0–1,000,000 | 0 |
//! | `spawn_min`, `spawn_max` | the region they are placed in | the world box |
//! | `speed_min`, `speed_max` | their initial speed range | heading 2–2; gems 0.3–0.6; weighted 2–2 |
//! | `[[scenario.boid]]` | one boid: `at = [x, y(, z)]`, and `heading` (degrees) + `speed` (heading model) or `vel = [..]`; `name` (drawn and listed; default `boid N`) | none |
//! | `[[scenario.obstacles]]` | `at = [x, y(, z)]`, `radius` (0 = a point) | none |
//!
//! Model parameters (defaults are the articles'; see each model's docs):
//! - heading: `view_range` 75, `fov` 180, `separate_range` 30,
//!   `separate_turn` 60, `check_distance` 80, `check_range` 60,
//!   `avoid_turn` 60, `naive_angle_average` false,
//!   `ignore_obstacles_behind` false, `count_self` true (the averages
//!   count the boid itself);
//! - gems: `perception` 8, `max_visible` 10, `separation_dist` 5,
//!   `min_urgency` 0.05, `max_urgency` 0.1, `max_speed` 1 (these three
//!   from 0.001),
//!   `desired_speed` 0.5, `max_change` 0.1, `gravity` 9.806, `view_angle`
//!   (degrees; absent = all around, as the article);
//! - weighted: `fov` 5 (a distance, the article's name), `strength` 10,
//!   `min_distance` 0 (none: the article; a floor from 0.001 when set),
//!   `w_separation` 5, `w_alignment` 2,
//!   `w_cohesion` 1, `min_speed` 2, `max_speed` 5.

use super::LessonError;
use super::node::{Node, Params};
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
pub fn check_highlight(h: &str) -> Result<(), String> {
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
        Err(format!(
            "unknown highlight `{h}` for sim flock; use boid:N, obstacle:N or rule:NAME (separation, alignment, cohesion, obstacle, cruising, walls)"
        ))
    }
}

/// A vector `[x, y]` (2-D) or `[x, y, z]` (3-D) with every component
/// within ±`limit`: a point (limit `COORD_LIMIT`) or a velocity
/// (`MAX_SPEED`).
fn vec_of(
    p: &mut Params,
    key: &'static str,
    dims: u8,
    limit: i32,
) -> Result<Option<(Vec3, Node)>, LessonError> {
    let ctx = p.ctx();
    let lim = Fx::from_int(limit);
    let Some((v, n)) = p.fx_list(key, -lim..=lim)? else {
        return Ok(None);
    };
    match (dims, v.as_slice()) {
        (2, [x, y]) => Ok(Some((Vec3::new(*x, *y, Fx::ZERO), n))),
        (3, [x, y, z]) => Ok(Some((Vec3::new(*x, *y, *z), n))),
        _ => Err(ctx.err(
            &n,
            format!(
                "`{key}` must have {dims} numbers in a {dims}-D world, found {}",
                v.len()
            ),
        )),
    }
}

fn point(p: &mut Params, key: &'static str, dims: u8) -> Result<Option<(Vec3, Node)>, LessonError> {
    vec_of(p, key, dims, COORD_LIMIT)
}

fn degrees(
    p: &mut Params,
    key: &'static str,
    default: i64,
    max: i32,
) -> Result<Angle, LessonError> {
    let d = p.fx(
        key,
        Fx::from_int(default as i32),
        Fx::ZERO..=Fx::from_int(max),
    )?;
    Ok(Angle::from_degrees(d))
}

fn ratio(n: i64, d: i64) -> Fx {
    Fx::from_ratio(n, d).expect("constant ratio")
}

fn inside(min: Vec3, max: Vec3, p: Vec3, dims: u8) -> bool {
    p.x >= min.x
        && p.x <= max.x
        && p.y >= min.y
        && p.y <= max.y
        && (dims == 2 || (p.z >= min.z && p.z <= max.z))
}

/// Reads a flock scenario from the `[scenario]` parameters.
pub fn scenario(p: &mut Params, names: &mut super::Names) -> Result<FlockConfig, LessonError> {
    let ctx = p.ctx();
    let Some((model_name, model_node)) = p.string("model")? else {
        return Err(p.table_err("missing `model`: \"heading\", \"gems\" or \"weighted\""));
    };
    let kind = match model_name.as_str() {
        "heading" | "gems" | "weighted" => model_name.clone(),
        other => {
            return Err(ctx.err(
                &model_node,
                format!("unknown model `{other}`; models: \"heading\" (article 000), \"gems\" (002), \"weighted\" (004)"),
            ));
        }
    };
    let default_dims = if kind == "heading" { 2 } else { 3 };
    let dims_node = p.peek("dims").cloned();
    let dims = p.int("dims", default_dims, 2..=3)? as u8;
    let fixed_dims = match kind.as_str() {
        "heading" => Some(2),
        "gems" => Some(3),
        _ => None,
    };
    if let Some(d) = fixed_dims
        && d != dims
    {
        let msg = format!("the {kind} model is {d}-D; `dims` is {dims}");
        return Err(match &dims_node {
            Some(n) => ctx.err(n, msg),
            None => ctx.err(&model_node, msg),
        });
    }
    let (dmin, dmax) = match (kind.as_str(), dims) {
        ("heading", _) => (Vec3::from_ints(0, 0, 0), Vec3::from_ints(640, 480, 0)),
        ("gems", _) => (Vec3::from_ints(0, 0, 0), Vec3::from_ints(100, 50, 100)),
        (_, 3) => (Vec3::from_ints(-10, 0, -10), Vec3::from_ints(10, 20, 10)),
        _ => (Vec3::from_ints(-10, 0, 0), Vec3::from_ints(10, 20, 0)),
    };
    let world_min = point(p, "world_min", dims)?;
    let world_max = point(p, "world_max", dims)?;
    let (wmin, wmax) = (
        world_min.as_ref().map_or(dmin, |(v, _)| *v),
        world_max.as_ref().map_or(dmax, |(v, _)| *v),
    );
    let axes_ok = wmin.x < wmax.x && wmin.y < wmax.y && (dims == 2 || wmin.z < wmax.z);
    if !axes_ok {
        let msg = "the world box is empty: `world_min` must be below `world_max` on every axis";
        return Err(match world_max.as_ref().or(world_min.as_ref()) {
            Some((_, n)) => ctx.err(n, msg),
            None => p.table_err(msg),
        });
    }
    let default_bounds = if kind == "weighted" {
        Bounds::Walls
    } else {
        Bounds::Wrap
    };
    let bounds_node = p.peek("bounds").cloned();
    let bounds = p.choice(
        "bounds",
        default_bounds,
        &[
            ("wrap", Bounds::Wrap),
            ("walls", Bounds::Walls),
            ("none", Bounds::Open),
        ],
    )?;
    if bounds == Bounds::Walls && kind != "weighted" {
        let msg = format!(
            "`bounds = \"walls\"` needs the weighted model (walls as virtual boids, article 004); the {kind} model supports \"wrap\" and \"none\""
        );
        return Err(match &bounds_node {
            Some(n) => ctx.err(n, msg),
            None => p.table_err(msg),
        });
    }
    let update = p.choice(
        "update",
        Update::DoubleBuffered,
        &[
            ("double_buffered", Update::DoubleBuffered),
            ("in_place", Update::InPlace),
        ],
    )?;
    let numbering = p.choice(
        "numbering",
        Numbering::AsPlaced,
        &[
            ("as_placed", Numbering::AsPlaced),
            ("reversed", Numbering::Reversed),
        ],
    )?;
    let search = p.choice(
        "search",
        Search::Grid,
        &[("grid", Search::Grid), ("brute", Search::Brute)],
    )?;
    let default_dt = if kind == "weighted" {
        ratio(1, 60)
    } else {
        Fx::ONE
    };
    let dt = p.fx("dt", default_dt, Fx::DELTA..=Fx::from_int(10))?;
    let dt_jitter = p.fx("dt_jitter", Fx::ZERO, Fx::ZERO..=ratio(9, 10))?;
    let frame_seed = p.int("frame_seed", 0, 0..=i64::MAX)? as u64;
    let seed = p.int("seed", 0, 0..=i64::MAX)? as u64;
    let r = Fx::from_int(MAX_RADIUS);
    let s = Fx::from_int(MAX_SPEED);
    let dist = |p: &mut Params, key: &'static str, default: Fx| p.fx(key, default, Fx::DELTA..=r);

    let model = match kind.as_str() {
        "heading" => {
            let d = HeadingParams::default();
            let fov = p.fx("fov", Fx::from_int(180), Fx::ZERO..=Fx::from_int(360))?;
            Model::Heading(HeadingParams {
                view_range: dist(p, "view_range", d.view_range)?,
                fov_half: Angle::from_degrees(fov / Fx::from_int(2)),
                separate_range: dist(p, "separate_range", d.separate_range)?,
                separate_turn: degrees(p, "separate_turn", 60, 180)?,
                check_distance: dist(p, "check_distance", d.check_distance)?,
                check_range: dist(p, "check_range", d.check_range)?,
                avoid_turn: degrees(p, "avoid_turn", 60, 180)?,
                naive_angle_average: p.bool("naive_angle_average", false)?,
                ignore_obstacles_behind: p.bool("ignore_obstacles_behind", false)?,
                count_self: p.bool("count_self", true)?,
            })
        }
        "gems" => {
            let d = GemsParams::default();
            let view_angle = match p.peek("view_angle") {
                Some(_) => Some(degrees(p, "view_angle", 360, 360)?),
                None => None,
            };
            let min_urgency = p.fx("min_urgency", d.min_urgency, Fx::ZERO..=s)?;
            let max_urgency = p.fx("max_urgency", d.max_urgency, min_urgency..=s)?;
            // 1/1000 keeps 1/separation_dist and 1/max_speed (by which the
            // rules scale) and the neighbour radius in the Q16 metric in range.
            let milli = MIN_LENGTH;
            let max_speed = p.fx("max_speed", d.max_speed, milli..=s)?;
            Model::Gems(GemsParams {
                perception: p.fx("perception", d.perception, milli..=r)?,
                max_visible: p.int("max_visible", d.max_visible as i64, 1..=1000)? as u32,
                separation_dist: p.fx("separation_dist", d.separation_dist, milli..=r)?,
                min_urgency,
                max_urgency,
                max_speed,
                desired_speed: p.fx(
                    "desired_speed",
                    max_speed / Fx::from_int(2),
                    Fx::ZERO..=max_speed,
                )?,
                max_change: p.fx("max_change", max_speed * d.max_urgency, Fx::ZERO..=s)?,
                gravity: p.fx("gravity", d.gravity, Fx::ZERO..=Fx::from_int(1000))?,
                view_angle,
            })
        }
        _ => {
            let d = WeightedParams::default();
            let w = Fx::ZERO..=Fx::from_int(100);
            let min_speed = p.fx("min_speed", d.min_speed, Fx::ZERO..=s)?;
            let max_speed = p.fx("max_speed", d.max_speed.max(min_speed), min_speed..=s)?;
            let wp = WeightedParams {
                fov: dist(p, "fov", d.fov)?,
                strength: p.fx("strength", d.strength, Fx::ZERO..=Fx::from_int(1_000_000))?,
                min_distance: p.fx("min_distance", d.min_distance, Fx::ZERO..=r)?,
                w_separation: p.fx("w_separation", d.w_separation, w.clone())?,
                w_alignment: p.fx("w_alignment", d.w_alignment, w.clone())?,
                w_cohesion: p.fx("w_cohesion", d.w_cohesion, w)?,
                min_speed,
                max_speed,
            };
            wp.check().map_err(|m| p.table_err(m))?;
            Model::Weighted(wp)
        }
    };

    // Boids.
    let (count, count_node) = match p.peek("boids").cloned() {
        Some(n) => (p.int("boids", 0, 0..=MAX_BOIDS as i64)? as u32, Some(n)),
        None => (0, None),
    };
    let heading_model = kind == "heading";
    let mut boids = Vec::new();
    for (i, (mut t, _)) in p.tables("boid")?.into_iter().enumerate() {
        let Some((pos, n)) = point(&mut t, "at", dims)? else {
            return Err(t.table_err("missing `at`: where the boid starts"));
        };
        if !inside(wmin, wmax, pos, dims) {
            return Err(ctx.err(&n, format!("boid {i} starts outside the world box")));
        }
        let b = if heading_model {
            let heading = degrees(&mut t, "heading", 0, 360)?;
            let speed = t.fx("speed", Fx::from_int(2), Fx::ZERO..=s)?;
            BoidInit {
                pos,
                vel: Vec3::ZERO,
                heading,
                speed,
            }
        } else {
            let vel = vec_of(&mut t, "vel", dims, MAX_SPEED)?.map_or(Vec3::ZERO, |(v, _)| v);
            BoidInit {
                pos,
                vel,
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
    let total = boids.len() as u64 + count as u64;
    if total == 0 || total > MAX_BOIDS as u64 {
        let msg = format!(
            "a flock needs 1..={MAX_BOIDS} boids: set `boids = N` or add [[scenario.boid]] tables (found {total})"
        );
        return Err(match &count_node {
            Some(n) => ctx.err(n, msg),
            None => p.table_err(msg),
        });
    }
    let spawn_min = point(p, "spawn_min", dims)?;
    let spawn_max = point(p, "spawn_max", dims)?;
    for (v, n) in spawn_min.iter().chain(spawn_max.iter()) {
        if !inside(wmin, wmax, *v, dims) {
            return Err(ctx.err(n, "the spawn region must lie inside the world box"));
        }
    }
    let (smin, smax) = (
        spawn_min.as_ref().map_or(wmin, |(v, _)| *v),
        spawn_max.as_ref().map_or(wmax, |(v, _)| *v),
    );
    if smin.x > smax.x || smin.y > smax.y || smin.z > smax.z {
        let n = spawn_max
            .as_ref()
            .or(spawn_min.as_ref())
            .map(|(_, n)| n.clone());
        let msg = "`spawn_min` must not be above `spawn_max` on any axis";
        return Err(match n {
            Some(n) => ctx.err(&n, msg),
            None => p.table_err(msg),
        });
    }
    let (dsmin, dsmax) = match kind.as_str() {
        "gems" => (ratio(3, 10), ratio(6, 10)),
        _ => (Fx::from_int(2), Fx::from_int(2)),
    };
    let speed_min = p.fx("speed_min", dsmin, Fx::ZERO..=s)?;
    let speed_max = p.fx("speed_max", dsmax.max(speed_min), speed_min..=s)?;
    let mut obstacles = Vec::new();
    for (i, (mut t, _)) in p.tables("obstacles")?.into_iter().enumerate() {
        let Some((center, n)) = point(&mut t, "at", dims)? else {
            return Err(t.table_err("missing `at`: the obstacle's centre"));
        };
        if !inside(wmin, wmax, center, dims) {
            return Err(ctx.err(&n, format!("obstacle {i} is outside the world box")));
        }
        let radius = t.fx("radius", Fx::ZERO, Fx::ZERO..=r)?;
        t.finish()?;
        obstacles.push(Obstacle { center, radius });
    }
    if !obstacles.is_empty() && kind == "gems" {
        return Err(p.table_err(
            "the gems model has no obstacle rule (article 002): remove [[scenario.obstacles]] or use the heading or weighted model",
        ));
    }
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
        spawn: (count > 0).then_some(Spawn {
            count,
            min: smin,
            max: smax,
            speed_min,
            speed_max,
        }),
        obstacles,
    };
    // Everything above was checked with its position; this is a backstop.
    cfg.check().map_err(|m| p.table_err(m))?;
    Ok(cfg)
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
