//! The figures a beat's callouts name (`{sees}`, `{separation}`, `{outside}`, …) and where they are anchored.

use super::*;

/// The figures a pane's title gives for a flock: with `dt` (some pane's
/// dt varies), this tick's dt; for the aquarium, the pairs of fish closer
/// than 1; the first focused boid's heading (2-D) or speed, and the mates
/// it saw in the step shown.
pub(in crate::scene) fn pane_figures(
    sim: &FlockSim,
    frame: &Frame,
    view: &View,
    dt: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let st = sim.state();
    let lang = view.lang;
    if dt {
        out.push(match (sim.config().dt_jitter == Fx::ZERO, st.tick) {
            (true, _) => tr!(lang, F_FIG_DT_FIXED, dt_text(st.dt)),
            (false, 0) => tr!(lang, F_FIG_DT_NONE).to_owned(),
            (false, _) => tr!(lang, F_FIG_DT, crate::scene::fx_places(st.dt, 4)),
        });
    }
    if matches!(st.model, ModelState::Gems { .. }) {
        out.extend(close_pairs(&st.boids).map(|n| tr!(lang, F_FIG_PAIRS, n)));
    }
    match boid_figure(sim, frame, view) {
        Some(figs) => out.extend(figs),
        None => out.extend(flock_figures(sim, frame, lang)),
    }
    out
}

/// How many boids lie outside a walled box (0 without walls).
pub(super) fn outside_count(sim: &FlockSim) -> usize {
    sim.state()
        .boids
        .iter()
        .filter(|b| outside(sim, b.pos).is_some())
        .count()
}

/// How far `p` lies outside the box of a flock with walls (`None` inside,
/// or without walls).
pub(super) fn outside(sim: &FlockSim, p: Vec3) -> Option<Fx> {
    let cfg = sim.config();
    if cfg.bounds != Bounds::Walls {
        return None;
    }
    let (lo, hi) = (cfg.world_min, cfg.world_max);
    let excess = |v: Fx, a: Fx, b: Fx| (a - v).max(v - b).max(Fx::ZERO);
    let e = Vec3::new(
        excess(p.x, lo.x, hi.x),
        excess(p.y, lo.y, hi.y),
        excess(p.z, lo.z, hi.z),
    );
    (!e.is_zero()).then(|| e.fast_length())
}

/// With no boid in focus, figures of the whole flock (at most 100,000
/// boids): in the heading model, how many boids saw no one in the step
/// shown (they fly straight on: leaders); in the others the mean speed
/// and, inside walls or unbounded, the spread: the mean distance to the
/// flock's centre, and with walls how many boids are outside the box.
pub(super) fn flock_figures(sim: &FlockSim, frame: &Frame, lang: Lang) -> Vec<String> {
    let st = sim.state();
    let n = st.boids.len() as i128;
    if n == 0 || n > 100_000 {
        return Vec::new();
    }
    if matches!(st.model, ModelState::Heading { .. }) {
        let crate::scene::Explain::Flock(events) = frame.explain else {
            return Vec::new();
        };
        return events
            .iter()
            .find_map(|e| match e {
                FlockEvent::Alone(1) => Some(tr!(lang, F_FIG_ALONE_ONE).to_owned()),
                FlockEvent::Alone(n) => Some(tr!(lang, F_FIG_ALONE, n)),
                _ => None,
            })
            .into_iter()
            .collect();
    }
    let gone = outside_count(sim);
    let mut out: Vec<String> = (gone > 0)
        .then(|| tr!(lang, F_FIG_OUTSIDE, gone))
        .into_iter()
        .collect();
    out.push(tr!(lang, F_FIG_SPEED, fx2(mean_speed(sim))));
    if sim.config().bounds != Bounds::Wrap {
        out.push(tr!(lang, F_FIG_SPREAD, fx2(spread(sim))));
    }
    out
}

/// How many pairs of boids are closer than 1 (the aquarium's pile-ups,
/// measured as `tests/flock.rs` counts them), for a flock of at most 400:
/// every pair is measured, every frame.
pub(super) fn close_pairs(boids: &[crate::sim::flock::Boid]) -> Option<usize> {
    if boids.len() > 400 {
        return None;
    }
    Some(
        boids
            .iter()
            .enumerate()
            .map(|(i, a)| {
                boids[i + 1..]
                    .iter()
                    .filter(|b| (a.pos - b.pos).fast_length() < Fx::ONE)
                    .count()
            })
            .sum(),
    )
}

/// The first focused boid's heading (2-D; "at rest" when it stands) or
/// speed, and the mates it saw.
pub(super) fn boid_figure(sim: &FlockSim, frame: &Frame, view: &View) -> Option<Vec<String>> {
    let id = *view.focused("boid").first()?;
    let st = sim.state();
    let b = st.boids.get(id as usize)?;
    let name = boid_name(sim, view, id);
    let lang = view.lang;
    let mut out = vec![match &st.model {
        ModelState::Heading { heading } => {
            tr!(
                lang,
                F_FIG_HEADS,
                name,
                fx2(heading[id as usize].to_degrees())
            )
        }
        // A boid at rest has no heading to show.
        _ if b.vel.is_zero() => tr!(lang, F_FIG_REST, name),
        _ if sim.config().dims == 2 => {
            let a = Angle::atan2(b.vel.y, b.vel.x);
            tr!(lang, F_FIG_HEADS, name, fx2(a.to_degrees()))
        }
        _ => tr!(lang, F_FIG_BOID_SPEED, name, fx2(b.vel.fast_length())),
    }];
    if let Some(d) = outside(sim, b.pos) {
        out.push(tr!(lang, F_FIG_FAR_OUT, fx2(d)));
    }
    if let crate::scene::Explain::Flock(events) = frame.explain
        && let Some(ex) = explain_of(events, id)
    {
        out.push(tr!(lang, F_FIG_SEES, ex.neighbours.len()));
    }
    Some(out)
}

/// A callout's figure (see [`crate::lesson::callout`]) for a flock: of
/// the whole flock (`world`), of a boid, or of an obstacle (what the
/// focused boid's feeler measured of it).
pub(in crate::scene) fn callout_figure(
    sim: &FlockSim,
    frame: &Frame,
    view: &View,
    at: &str,
    key: &str,
) -> Option<String> {
    let st = sim.state();
    let events: &[FlockEvent] = match frame.explain {
        crate::scene::Explain::Flock(e) => e,
        _ => &[],
    };
    if key == "tick" {
        return Some(st.tick.to_string());
    }
    match at.split_once(':') {
        None => match key {
            "mean_speed" => Some(fx2(mean_speed(sim))),
            "spread" => Some(fx2(spread(sim))),
            "outside" => Some(outside_count(sim).to_string()),
            "pairs" => close_pairs(&st.boids).map(|p| p.to_string()),
            "alone" => events.iter().find_map(|e| match e {
                FlockEvent::Alone(k) => Some(k.to_string()),
                _ => None,
            }),
            "boids" => Some(st.boids.len().to_string()),
            "dt" => Some(crate::scene::fx_places(st.dt, 4)),
            _ => None,
        },
        Some(("boid", i)) => boid_callout(sim, events, i.parse().ok()?, key, view.lang),
        Some(("obstacle", i)) => {
            let i: u32 = i.parse().ok()?;
            let o = sim.config().obstacles.get(i as usize)?;
            let feeler = view.focused("boid").iter().find_map(|&b| {
                explain_of(events, b)?
                    .feelers
                    .iter()
                    .find(|f| f.obstacle == i)
                    .cloned()
            });
            match key {
                "radius" => Some(fx2(o.radius)),
                "ahead" => feeler.map(|f| fx2(f.projection)),
                "off" => feeler.map(|f| fx2(f.perpendicular)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The mean speed of a flock's boids.
pub(super) fn mean_speed(sim: &FlockSim) -> Fx {
    let st = sim.state();
    let n = st.boids.len().max(1) as i128;
    let sum: i128 = st
        .boids
        .iter()
        .map(|b| b.vel.fast_length().to_bits() as i128)
        .sum();
    Fx::from_bits((sum / n) as i64)
}

/// The mean distance of a flock's boids to its centre.
pub(super) fn spread(sim: &FlockSim) -> Fx {
    let st = sim.state();
    let n = st.boids.len().max(1) as i128;
    let mut sum = [0i128; 3];
    for b in &st.boids {
        for (s, v) in sum.iter_mut().zip([b.pos.x, b.pos.y, b.pos.z]) {
            *s += v.to_bits() as i128;
        }
    }
    let m = |s: i128| Fx::from_bits((s / n) as i64);
    let c = Vec3::new(m(sum[0]), m(sum[1]), m(sum[2]));
    let dist: i128 = st
        .boids
        .iter()
        .map(|b| (b.pos - c).fast_length().to_bits() as i128)
        .sum();
    Fx::from_bits((dist / n) as i64)
}

/// A boid's figure for a callout: its speed, heading, position, how far
/// outside the walls, and from the step shown the mates it saw, how far
/// the nearest is, and each rule's contribution (a length, or a turn in
/// the heading model).
pub(super) fn boid_callout(
    sim: &FlockSim,
    events: &[FlockEvent],
    id: u32,
    key: &str,
    lang: Lang,
) -> Option<String> {
    let st = sim.state();
    let b = st.boids.get(id as usize)?;
    let ex = explain_of(events, id);
    let size = |s: &Steer| match s {
        Steer::Turn(t) => turn_text(*t, lang),
        Steer::Vector(v) => crate::scene::grouped(&fx2(v.fast_length())),
    };
    let rule = |r: Rule| {
        ex?.rules
            .iter()
            .find(|(x, _)| *x == r)
            .map(|(_, s)| size(s))
    };
    match key {
        "speed" => Some(fx2(b.vel.fast_length())),
        "heading" => Some(match &st.model {
            ModelState::Heading { heading } => fx2(heading[id as usize].to_degrees()),
            _ => fx2(Angle::atan2(b.vel.y, b.vel.x).to_degrees()),
        }),
        "x" => Some(fx2(b.pos.x)),
        "y" => Some(fx2(b.pos.y)),
        "roll" | "pitch" | "yaw" => match &st.model {
            ModelState::Gems { attitude } => {
                let a = attitude[id as usize];
                let deg = |x: Angle| fx2(Fx::from_bits(i64::from(x.0 as i32) * 360));
                Some(match key {
                    "roll" => deg(a.roll),
                    "pitch" => deg(a.pitch),
                    _ => deg(a.yaw),
                })
            }
            _ => None,
        },
        "out" => Some(fx2(outside(sim, b.pos).unwrap_or(Fx::ZERO))),
        "sees" => ex.map(|e| e.neighbours.len().to_string()),
        "nearest" => {
            let m = st.boids.get(ex?.nearest? as usize)?;
            Some(fx2(separation(sim, b.pos, m.pos)))
        }
        "separation" => rule(Rule::Separation),
        "alignment" => rule(Rule::Alignment),
        "cohesion" => rule(Rule::Cohesion),
        "obstacle" => rule(Rule::Obstacle),
        "cruising" => rule(Rule::Cruising),
        "steering" => ex.map(|e| size(&e.steering)),
        // What a clamp cut: the rules' sum a max_change cut, or the speed
        // a speed limit changed.
        "unclamped" => ex?.clamps.iter().find_map(|c| match c {
            Clamp::MaxChange(v) | Clamp::MaxSpeed(v) | Clamp::MinSpeed(v) => {
                Some(crate::scene::fx_near(*v, lang))
            }
            _ => None,
        }),
        _ => None,
    }
}

/// Where a flock callout points: a boid's or an obstacle's centre on
/// screen, with the radius of what is drawn there.
pub(in crate::scene) fn callout_anchor(
    sim: &FlockSim,
    cam: &Camera,
    view: &View,
    at: &str,
) -> Option<(P, i32)> {
    let proj = Proj::new(sim, cam);
    match at.split_once(':')? {
        ("boid", i) => {
            let id: u32 = i.parse().ok()?;
            let b = sim.state().boids.get(id as usize)?;
            let (p, _) = proj.at(b.pos)?;
            // A focused boid is drawn large.
            let grow = cam.zoom.mul_int(100).round_int().clamp(100, 200);
            let r = if focus(sim, view).contains(&id) {
                26
            } else {
                14
            };
            Some((p, view.px(r) * grow.min(125) / 100))
        }
        ("obstacle", i) => {
            let o = sim.config().obstacles.get(i.parse::<usize>().ok()?)?;
            let (p, d) = proj.at(o.center)?;
            Some((p, proj.len(o.radius, d).max(view.px(8))))
        }
        _ => None,
    }
}
