//! The side panel (the inspector, the model's parameters) and the legend.

use super::*;

/// The panels and the legend of a flock scene.
pub(super) fn panels(
    sim: &FlockSim,
    events: &[FlockEvent],
    ahead: bool,
    focus: &[u32],
    view: &View,
    out: &mut Scene,
) {
    let cfg = sim.config();
    let st = sim.state();
    let lang = view.lang;
    let model = match cfg.model {
        Model::Weighted(_) => tr!(lang, F_MODEL_WEIGHTED),
        Model::Heading(_) => tr!(lang, F_MODEL_HEADING),
        Model::Gems(_) => tr!(lang, F_MODEL_GEMS),
    };
    let radius = num(cfg.model.radius());
    let mut p = Panel {
        rank: 1,
        title: tr!(lang, F_TITLE, model, cfg.dims),
        lines: vec![
            match cfg.model {
                Model::Gems(_) => &crate::i18n::F_SUMMARY_FISH,
                _ => &crate::i18n::F_SUMMARY,
            }
            .with(
                lang,
                &[&st.boids.len(), &bounds_name(cfg.bounds, lang), &radius],
            ),
            match cfg.update {
                Update::DoubleBuffered => tr!(lang, F_UPDATE_DOUBLE).into(),
                Update::InPlace => tr!(lang, F_UPDATE_IN_PLACE).into(),
            },
        ],
    };
    p.lines.extend(model_lines(sim, view));
    if cfg.dt_jitter == Fx::ZERO {
        p.lines
            .push(tr!(lang, F_TICK_FIXED, st.tick, dt_text(st.dt)));
    } else {
        let percent = cfg.dt_jitter.mul_int(100).round_int();
        p.lines.push(tr!(
            lang,
            F_TICK_JITTER,
            st.tick,
            dt_text(cfg.dt),
            percent,
            cfg.frame_seed
        ));
        p.lines.push(if st.tick == 0 {
            tr!(lang, F_DT_NONE).to_owned()
        } else {
            tr!(lang, F_DT_THIS, crate::scene::fx_places(st.dt, 4))
        });
    }
    if focus.is_empty() {
        p.lines.push(tr!(lang, F_CLICK).into());
    }
    out.panels.push(p);
    for &id in focus {
        out.panels.push(inspector(sim, events, ahead, id, view));
    }
}

/// The model's numbers a beat's picture depends on: the world's size,
/// the aquarium's cap on mates, the feelers' reach when they are drawn.
pub(super) fn model_lines(sim: &FlockSim, view: &View) -> Vec<String> {
    let cfg = sim.config();
    let lang = view.lang;
    let size = cfg.world_max - cfg.world_min;
    let mut world = if cfg.dims == 3 {
        tr!(lang, F_WORLD_3D, num(size.x), num(size.y), num(size.z))
    } else {
        tr!(lang, F_WORLD_2D, num(size.x), num(size.y))
    };
    if cfg.bounds == Bounds::Walls {
        let gone = tr!(lang, F_OUTSIDE_WALLS, outside_count(sim));
        world = format!("{world} · {gone}");
    }
    let mut out = vec![world];
    match &cfg.model {
        Model::Gems(p) => {
            let most = tr!(lang, F_MAX_SEEN, p.max_visible);
            out[0] = format!("{} · {most}", out[0]);
        }
        Model::Heading(p) if view.on("feelers") => out.push(tr!(
            lang,
            F_FEELERS,
            num(p.check_distance),
            num(p.check_range),
            fx2(p.avoid_turn.to_degrees())
        )),
        _ => {}
    }
    out
}

/// What the colours drawn mean: the rules and marks of an inspected boid
/// (none without one).
pub(in crate::scene) fn legend(sim: &FlockSim, view: &View) -> Vec<(Rgba, String)> {
    let mut out = Vec::new();
    let lang = view.lang;
    if view.on("velocity") {
        out.push((color::VELOCITY, tr!(lang, F_LEG_VELOCITY).to_owned()));
    }
    let focused = !focus(sim, view).is_empty();
    if view.on("trails") {
        // As `draw_trails` draws them.
        if sim.state().boids.len() <= TRAIL_ALL_MAX {
            out.push((color::DIM, tr!(lang, F_LEG_TRAILS).to_owned()));
        }
        if focused {
            out.push((color::SELECTED, tr!(lang, F_LEG_TRAIL_DOTS).to_owned()));
        }
    }
    if !focused {
        return out;
    }
    for r in [
        Rule::Separation,
        Rule::Alignment,
        Rule::Cohesion,
        Rule::Obstacle,
        Rule::Cruising,
    ] {
        if view.on(rule_name(r)) {
            out.push((rule_color(r), rule_words(r, lang)));
        }
    }
    // Only a crowd has dots (see `draw_mates`).
    let seen = if sim.state().boids.len() as u64 > CROWD {
        tr!(lang, F_LEG_SEEN_DOTS)
    } else {
        tr!(lang, F_LEG_SEEN)
    };
    let extra = [
        ("steering", color::TEXT, tr!(lang, F_LEG_STEERING)),
        ("wall_boids", color::SKY, tr!(lang, F_LEG_WALL_BOIDS)),
        (
            "view_radius",
            with_alpha(color::SKY, 190),
            tr!(lang, F_LEG_VIEW),
        ),
        ("neighbours", color::SKY, seen),
        ("nearest", color::SELECTED, tr!(lang, F_LEG_NEAREST)),
        ("fov", BLIND, tr!(lang, F_BLIND)),
        ("attitude", color::TEXT, tr!(lang, F_LEG_ATTITUDE)),
    ];
    for (overlay, c, name) in extra {
        if view.on(overlay) {
            out.push((c, name.into()));
        }
    }
    if view.on("neighbours") && sim.config().update == Update::InPlace {
        out.push((color::GREEN, tr!(lang, F_LEG_MOVED).into()));
    }
    out
}

/// An edge policy in words.
pub(super) fn bounds_name(b: Bounds, lang: Lang) -> &'static str {
    match b {
        Bounds::Wrap => tr!(lang, F_EDGES_WRAP),
        Bounds::Walls => tr!(lang, F_EDGES_WALLS),
        Bounds::Open => tr!(lang, F_EDGES_OPEN),
    }
}

/// A number as a person writes it: whole numbers without decimals, else
/// two decimals.
pub(super) fn num(v: Fx) -> String {
    if v.to_bits() & 0xFFFF_FFFF == 0 {
        v.round_int().to_string()
    } else {
        fx2(v)
    }
}

/// A tick length: `1/60` when it is one over a whole number, else with
/// two decimals.
pub(super) fn dt_text(dt: Fx) -> String {
    if let Some(inv) = Fx::ONE.checked_div(dt) {
        let n = inv.round_int();
        if n > 1 && (dt.mul_int(i64::from(n)) - Fx::ONE).abs() < Fx::from_bits(1 << 8) {
            return format!("1/{n}");
        }
    }
    fx2(dt)
}

/// A boid's name, with its heading in the heading model.
pub(super) fn named_with_heading(sim: &FlockSim, view: &View, id: u32) -> String {
    let name = boid_name(sim, view, id);
    match &sim.state().model {
        ModelState::Heading { heading } => {
            let deg = fx2(heading[id as usize].to_degrees());
            tr!(view.lang, F_NAME_HEADING, name, deg)
        }
        _ => name,
    }
}

pub(super) fn clamp_text(c: &Clamp, lang: Lang) -> String {
    match c {
        Clamp::MaxChange(v) => tr!(lang, F_CLAMP_MAX_CHANGE, crate::scene::fx_near(*v, lang)),
        Clamp::MaxSpeed(v) => tr!(lang, F_CLAMP_MAX_SPEED, crate::scene::fx_near(*v, lang)),
        Clamp::MinSpeed(v) => tr!(lang, F_CLAMP_MIN_SPEED, crate::scene::fx_near(*v, lang)),
        Clamp::PushCapped(n) => tr!(lang, F_CLAMP_PUSH, n),
        Clamp::ListFull(n) => tr!(lang, F_CLAMP_LIST, n),
        Clamp::CoordLimit => tr!(lang, F_CLAMP_COORD).into(),
    }
}

/// A turn in degrees with its side: `120.0° left`, `22.5° right`.
pub(super) fn turn_text(t: i64, lang: Lang) -> String {
    let tenths = (t as i128 * 3600 + (1 << 31)).div_euclid(1 << 32);
    let m = tenths.unsigned_abs();
    let deg = format!("{}.{}", m / 10, m % 10);
    match tenths.signum() {
        1 => tr!(lang, F_TURN_LEFT, deg),
        -1 => tr!(lang, F_TURN_RIGHT, deg),
        _ => format!("{deg}°"),
    }
}

pub(super) fn steer_text(s: &Steer, d3: bool, lang: Lang) -> String {
    match s {
        Steer::Turn(t) => turn_text(*t, lang),
        Steer::Vector(v) if d3 => format!("({}, {}, {})", fx2(v.x), fx2(v.y), fx2(v.z)),
        Steer::Vector(v) => format!("({}, {})", fx2(v.x), fx2(v.y)),
    }
}

pub(super) fn inspector(
    sim: &FlockSim,
    events: &[FlockEvent],
    ahead: bool,
    id: u32,
    view: &View,
) -> Panel {
    let st = sim.state();
    let b = st.boids[id as usize];
    let d3 = sim.config().dims == 3;
    let v3 = |v: Vec3| {
        if d3 {
            format!("({}, {}, {})", fx2(v.x), fx2(v.y), fx2(v.z))
        } else {
            format!("({}, {})", fx2(v.x), fx2(v.y))
        }
    };
    let lang = view.lang;
    let mut lines = vec![
        tr!(lang, F_POS, v3(b.pos)),
        tr!(lang, F_VEL, v3(b.vel), fx2(b.vel.fast_length())),
    ];
    match &st.model {
        ModelState::Heading { heading } => {
            lines.push(tr!(lang, F_HEADING, fx2(heading[id as usize].to_degrees())))
        }
        ModelState::Gems { attitude } => {
            let a = attitude[id as usize];
            // Signed degrees, −180..180, from the exact binary units.
            let deg = |x: Angle| fx2(Fx::from_bits(i64::from(x.0 as i32) * 360));
            lines.push(tr!(lang, F_ATTITUDE, deg(a.roll), deg(a.pitch), deg(a.yaw)));
        }
        ModelState::Weighted { .. } => {}
    }
    if let Some(ex) = explain_of(events, id) {
        if let Model::Weighted(w) = &sim.config().model
            && let Some(line) = weights_line(w, lang)
        {
            lines.push(line);
        }
        lines.push(if ahead {
            tr!(lang, F_COMING, st.tick, st.tick + 1)
        } else {
            tr!(lang, F_INTO, st.tick.saturating_sub(1), st.tick)
        });
        let shares = |r: Rule| match (&sim.config().model, r) {
            (Model::Weighted(p), Rule::Separation | Rule::Alignment | Rule::Cohesion) => {
                let w = [p.w_separation, p.w_alignment, p.w_cohesion];
                let k = [Rule::Separation, Rule::Alignment, Rule::Cohesion]
                    .iter()
                    .position(|&x| x == r)
                    .unwrap_or(0);
                format!("  ×{}/{}", num(w[k]), num(w[0] + w[1] + w[2]))
            }
            _ => String::new(),
        };
        // Rules weighted 0 add nothing: left out.
        let mut ex = ex.clone();
        ex.rules.retain(|&(r, _)| share(sim, r) != Some(Fx::ZERO));
        // How far the nearest mate is now (across the wrap, in a wrapping
        // world).
        let away = ex
            .nearest
            .and_then(|n| st.boids.get(n as usize))
            .map(|m| fx2(separation(sim, b.pos, m.pos)));
        let name = |n| boid_name(sim, view, n);
        let fish = matches!(sim.config().model, Model::Gems(_));
        reasoning_lines(&ex, (&name, &shares, away), (d3, fish, lang), &mut lines);
    }
    Panel {
        title: boid_name(sim, view, id),
        lines,
        rank: 0,
    }
}

/// What the weighted model's steering is when only one rule has a
/// weight (otherwise each rule's row gives its share, `×w/Σw`).
pub(super) fn weights_line(w: &crate::sim::flock::WeightedParams, lang: Lang) -> Option<String> {
    let on: Vec<Rule> = [
        (w.w_separation, Rule::Separation),
        (w.w_alignment, Rule::Alignment),
        (w.w_cohesion, Rule::Cohesion),
    ]
    .iter()
    .filter(|(k, _)| *k != Fx::ZERO)
    .map(|(_, r)| *r)
    .collect();
    match on[..] {
        [only] => Some(tr!(lang, F_ONLY_RULE, rule_words(only, lang))),
        _ => None,
    }
}

/// What a boid saw and each rule's contribution, for the inspector.
/// How the inspector names a mate, gives a rule's weight share, and how
/// far the nearest mate is now.
pub(super) type Namers<'a> = (
    &'a dyn Fn(u32) -> String,
    &'a dyn Fn(Rule) -> String,
    Option<String>,
);

/// What a boid saw and each rule's contribution, for the inspector:
/// `name` names a mate, `share` gives a rule's weight share, `away` how
/// far the nearest mate is now.
pub(super) fn reasoning_lines(
    ex: &BoidExplain,
    (name, share, away): Namers<'_>,
    (d3, fish, lang): (bool, bool, Lang),
    lines: &mut Vec<String>,
) {
    let mut shown: Vec<String> = ex.neighbours.iter().take(10).map(u32::to_string).collect();
    if ex.neighbours.len() > 10 {
        shown.push("…".into());
    }
    // The aquarium's boids are fish (counted as fish in Japanese).
    lines.push(match (ex.neighbours.len(), fish) {
        (1, false) => tr!(lang, F_SEES_ONE, shown.join(" ")),
        (1, true) => tr!(lang, F_SEES_FISH_ONE, shown.join(" ")),
        (n, false) => tr!(lang, F_SEES, n, shown.join(" ")),
        (n, true) => tr!(lang, F_SEES_FISH, n, shown.join(" ")),
    });
    if let Some(n) = ex.nearest {
        lines.push(match &away {
            Some(d) => tr!(lang, F_NEAREST, name(n), d),
            None => tr!(lang, F_NEAREST_NAME, name(n)),
        });
    }
    for (r, s) in &ex.rules {
        let words = rule_words(*r, lang);
        lines.push(format!("{words}\t{}{}", steer_text(s, d3, lang), share(*r)));
    }
    for f in &ex.feelers {
        let (ahead, off) = (fx2(f.projection), fx2(f.perpendicular));
        lines.push(if f.steered {
            tr!(lang, F_FEELER_STEERS, f.obstacle, ahead, off)
        } else {
            tr!(lang, F_FEELER, f.obstacle, ahead, off)
        });
    }
    if !ex.wall_boids.is_empty() {
        lines.push(tr!(lang, F_WALL_BOIDS, ex.wall_boids.len()));
    }
    for c in &ex.clamps {
        lines.push(tr!(lang, F_CLAMP, clamp_text(c, lang)));
    }
    if ex.rules.is_empty() {
        // Withheld on a question's beat (every real step has rules).
        lines.push(tr!(lang, F_WITHHELD).to_owned());
        return;
    }
    let steer = steer_text(&ex.steering, d3, lang);
    lines.push(if share(Rule::Separation).is_empty() {
        format!("{}\t{steer}", tr!(lang, F_STEERING))
    } else {
        tr!(lang, F_STEERING_SUM, steer)
    });
}
