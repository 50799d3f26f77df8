//! The boids and their world: glyphs with velocity lines and names, trails, 3-D attitude arrows, the world box, the neighbour grid and the obstacles.

use super::*;

/// The screen directions a focused boid's drawing takes from its centre:
/// its heading (ahead, and behind where feelers run) and every rule's and
/// the steering's arrow.
pub(super) fn arrow_dirs(
    sim: &FlockSim,
    proj: &Proj,
    (ex, id): (Option<&BoidExplain>, u32),
    near: i32,
) -> Vec<(Fx, Fx)> {
    let dir = facing(sim, id as usize);
    let mut dirs = vec![unit2(proj.rot(dir)), unit2(proj.rot(-dir))];
    // And the mates close by on screen (their rings and names).
    let st = sim.state();
    if let Some((c, _)) = proj.at(st.boids[id as usize].pos) {
        for &m in ex.iter().flat_map(|e| e.neighbours.iter()) {
            if let Some((q, _)) = st.boids.get(m as usize).and_then(|b| proj.at(b.pos)) {
                let (dx, dy) = (q[0] - c[0], q[1] - c[1]);
                if dx.abs() < near && dy.abs() < near && (dx, dy) != (0, 0) {
                    dirs.push(unit2((Fx::from_int(dx), Fx::from_int(dy))));
                }
            }
        }
    }
    let d3 = sim.config().dims == 3;
    for s in ex
        .iter()
        .flat_map(|e| e.rules.iter().map(|r| r.1).chain([e.steering]))
    {
        match s {
            Steer::Vector(v) if !v.is_zero() => dirs.push(unit2(proj.rot(v))),
            Steer::Turn(t) if t != 0 => dirs.push(unit2(proj.rot(turned(dir, t, d3)))),
            _ => {}
        }
    }
    dirs
}

/// A fish's attitude (the gems model), drawn on it: a fin bar across its
/// body, banked by its roll about its heading (level when the roll is 0),
/// an arrow square to the bar out of the fish's top, and its roll,
/// pitch and yaw in degrees beside it. The bar and stroke are the fish's
/// body axes seen through the camera, so a fin pointing at the viewer
/// draws short.
pub(super) fn draw_attitude(
    sim: &FlockSim,
    proj: &Proj,
    id: u32,
    (view, grow): (&View, i32),
    (vp, taken): (Viewport, &mut Vec<[i32; 4]>),
    out: &mut Scene,
) {
    let st = sim.state();
    let ModelState::Gems { attitude } = &st.model else {
        return;
    };
    let (Some(a), Some(b)) = (attitude.get(id as usize), st.boids.get(id as usize)) else {
        return;
    };
    let Some((c, _)) = proj.at(b.pos) else {
        return;
    };
    // The body axes: forward, right (level, square to forward) and top.
    let fwd = facing(sim, id as usize);
    let right = fwd.cross(Vec3::new(Fx::ZERO, Fx::ONE, Fx::ZERO));
    let right = if right.is_zero() {
        Vec3::new(Fx::ONE, Fx::ZERO, Fx::ZERO)
    } else {
        right.fast_normalize()
    };
    let top = right.cross(fwd);
    let (s, co) = (a.roll.sin(), a.roll.cos());
    let fin = right * co + top * s;
    let dorsal = top * co - right * s;
    let len = i64::from(view.px(52) * grow.min(125) / 100);
    let to = |v: Vec3, k: i64| {
        let (x, y) = proj.rot(v);
        [
            c[0] + x.mul_int(k).round_int(),
            c[1] + y.mul_int(k).round_int(),
        ]
    };
    let ends = [to(fin, -len), to(fin, len), to(dorsal, len)];
    out.line(ends[0], ends[1], view.lw(4, 3), color::TEXT);
    out.arrow(c, ends[2], view.lw(3, 2), view.px(10), color::TEXT);
    // The label keeps off the bar and the arrow.
    let (x0, x1) = (ends.map(|e| e[0]), ends.map(|e| e[1]));
    let lo = [x0.into_iter().min(), x1.into_iter().min()].map(|v| v.unwrap_or(c[0]));
    let hi = [x0.into_iter().max(), x1.into_iter().max()].map(|v| v.unwrap_or(c[1]));
    taken.push([lo[0], lo[1], hi[0] - lo[0] + 1, hi[1] - lo[1] + 1]);
    // Signed degrees, −180..180, from the exact binary units.
    let deg = |x: Angle| fx2(Fx::from_bits(i64::from(x.0 as i32) * 360));
    let r = view.px(30) * grow.min(125) / 100;
    out.label_near(
        (c, r),
        (view.font(17), color::TEXT),
        tr!(view.lang, F_ATTITUDE, deg(a.roll), deg(a.pitch), deg(a.yaw)),
        (vp, taken),
    );
}

/// The centre of a `w`×`h` label `dist` pixels from `c`, in the one of
/// eight screen directions (lower left first, on ties) farthest from every
/// direction in `dirs` whose box is clear of the `taken` ones (which it
/// joins) and inside `vp`, off the glyphs in `avoid` if one is; else the
/// first clear one; if none is clear, the farthest from `dirs`.
pub(super) fn label_spot(
    c: P,
    dirs: &[(Fx, Fx)],
    (w, h): (i32, i32),
    dist: i32,
    (vp, taken): (crate::scene::Viewport, &mut Vec<[i32; 4]>),
    avoid: &[[i32; 4]],
) -> P {
    let d = Fx::from_ratio(7071, 10_000).unwrap_or(Fx::HALF);
    let (o, l) = (Fx::ZERO, Fx::ONE);
    let candidates = [
        (-d, d),
        (d, d),
        (-l, o),
        (l, o),
        (o, l),
        (-d, -d),
        (d, -d),
        (o, -l),
    ];
    let closeness = |u: &(Fx, Fx)| {
        dirs.iter()
            .map(|v| u.0 * v.0 + u.1 * v.1)
            .max()
            .unwrap_or(-Fx::ONE)
    };
    // Farthest from the arrows first; the sort is stable, so ties keep
    // the order above.
    let mut order = candidates;
    order.sort_by_key(closeness);
    // Far enough that the label's near edge is `dist` away.
    let spot = |u: &(Fx, Fx)| {
        let reach = i64::from(dist)
            + u.0.abs().mul_int(i64::from(w / 2)).round_int() as i64
            + u.1.abs().mul_int(i64::from(h / 2)).round_int() as i64;
        [
            c[0] + u.0.mul_int(reach).round_int(),
            c[1] + u.1.mul_int(reach).round_int(),
        ]
    };
    let boxed = |m: P| [m[0] - w / 2, m[1] - h / 2, w, h];
    let clear = |b: [i32; 4]| !taken.iter().any(|&t| crate::scene::overlaps(b, t));
    let uncrowded = |b: [i32; 4]| !avoid.iter().any(|&t| crate::scene::overlaps(b, t));
    let within = |b: [i32; 4]| {
        b[0] >= vp.x && b[1] >= vp.y && b[0] + b[2] <= vp.x + vp.w && b[1] + b[3] <= vp.y + vp.h
    };
    let mid = order
        .iter()
        .map(spot)
        .find(|&m| clear(boxed(m)) && within(boxed(m)) && uncrowded(boxed(m)))
        .or_else(|| {
            order
                .iter()
                .map(spot)
                .find(|&m| clear(boxed(m)) && within(boxed(m)))
        })
        .or_else(|| order.iter().map(spot).find(|&m| clear(boxed(m))))
        .unwrap_or_else(|| spot(&order[0]));
    taken.push(boxed(mid));
    mid
}

/// Every boid's last positions (in large flocks only the focused boids').
/// Under the glyphs, the other boids' trails (every boid's in
/// lesson-sized flocks; in large ones none: thousands of trails are a grey
/// smear); with `focused`, the inspected boids' trails, over the glyphs,
/// in their colour with a dot at every tick, so each tick's turn shows.
pub(super) fn draw_trails(
    sim: &FlockSim,
    proj: &Proj,
    trail: &[Vec<Vec3>],
    (view, focused): (&View, bool),
    out: &mut Scene,
) {
    let st = sim.state();
    let watched = focus(sim, view);
    let all = st.boids.len() <= TRAIL_ALL_MAX;
    let shown = if all { st.boids.len() } else { watched.len() };
    // At most TRAIL_SEGMENTS segments in all: the newest positions of each.
    let keep = (TRAIL_SEGMENTS / shown.max(1)).clamp(24, trail.len().max(24));
    let trail = &trail[trail.len().saturating_sub(keep)..];
    for i in 0..st.boids.len() {
        let mine = watched.contains(&(i as u32));
        if mine == focused && (all || mine) {
            draw_trail(sim, proj, (trail, i), view, focused, out);
        }
    }
}

/// One boid's trail, fading from alpha 50 at the oldest point to 200 at
/// the boid (`dots`: a dot at every point, in the selection's colour).
/// A segment is drawn once the trail has moved a line's width on screen
/// from where the last one ended (a boid moves a fraction of a pixel a
/// tick: shorter pieces are hidden under the line's own width, and a
/// flock's trails would be tens of thousands of them).
pub(super) fn draw_trail(
    sim: &FlockSim,
    proj: &Proj,
    (trail, i): (&[Vec<Vec3>], usize),
    view: &View,
    dots: bool,
    out: &mut Scene,
) {
    let (lo, hi) = world_box(sim);
    let jump = (hi.x - lo.x).max(hi.y - lo.y) / Fx::from_int(2);
    let w = view.lw(3, 2);
    let base = if dots { color::SELECTED } else { color::DIM };
    let fade = |k: usize| with_alpha(base, (50 + 150 * k / trail.len().max(1)) as u8);
    let mut prev: Option<(Vec3, P)> = None;
    let now = sim.state().boids[i].pos;
    let points = trail.iter().map(|t| t.get(i).copied()).chain([Some(now)]);
    for (k, pts) in points.enumerate() {
        let Some(p) = pts else {
            prev = None;
            continue;
        };
        let Some((s, _)) = proj.at(p) else { continue };
        let last = k == trail.len();
        if let Some((q, sq)) = prev {
            let moved = (s[0] - sq[0]).abs().max((s[1] - sq[1]).abs());
            if (p - q).fast_length() >= jump {
                // Wrapped round the world: a new piece starts here.
                prev = Some((p, s));
            } else if moved >= i32::from(w) || (last && moved > 0) {
                out.line(sq, s, w, fade(k));
                prev = Some((p, s));
            }
        } else {
            prev = Some((p, s));
        }
        if dots {
            out.push(Shape::Disc {
                c: s,
                r: view.px(3).max(2),
                color: fade(k),
            });
        }
    }
}

/// A boid as [`draw_boids`] places it: index, screen point, raw depth.
pub(super) type Placed = (usize, P, i64);

/// One boid's glyph (and velocity line), `size` percent of the base glyph.
pub(super) fn draw_glyph(
    sim: &FlockSim,
    proj: &Proj,
    vel: Option<&Velocity>,
    out: &mut Scene,
    (i, c, depth_bits): Placed,
    (size, fill, least): (i32, Rgba, i32),
) {
    let b = &sim.state().boids[i];
    // The velocity on screen gives both the glyph's direction and the
    // velocity line (a standing boid faces its heading, or +x).
    let rv = proj.rot(b.vel);
    let (dx, dy) = if b.vel.is_zero() {
        unit2(proj.rot(facing(sim, i)))
    } else {
        unit2(rv)
    };
    let size = if sim.config().dims == 3 {
        // Nearer fish are larger: 300 % / depth, within 70 %..200 %
        // (an integer division of the raw depth), never under `least` (the
        // base glyph's size; a focused one's own, which does not shrink).
        let depth = ((300i64 << 32) / depth_bits.max(1)).clamp(70, 200) as i32;
        (size * depth / 100).max(least)
    } else {
        size
    };
    let corners = glyph(c, dx, dy, size);
    out.push(Shape::Tri {
        p: corners,
        color: fill,
    });
    if let Some(v) = vel
        && !b.vel.is_zero()
    {
        // From the glyph's tip, `v.px` pixels (of a base glyph) at the
        // model's top speed: readable at any zoom, and a slower boid's
        // line is shorter (in 3-D, the speed across the screen).
        let across = Vec3::new(rv.0, rv.1, Fx::ZERO).fast_length();
        let frac = across.checked_div(v.top).unwrap_or(Fx::ONE);
        let len = frac
            .min(Fx::from_int(2))
            .mul_int(i64::from(v.px * size / 100))
            .round_int();
        let tip = corners[0];
        let e = [
            tip[0] + dx.mul_int(len.into()).round_int(),
            tip[1] + dy.mul_int(len.into()).round_int(),
        ];
        // A small head, so the line does not read as a tail.
        if v.heads {
            out.arrow(tip, e, v.width, v.head * size / 100, color::VELOCITY);
        } else {
            // A crowd's line is a needle, one triangle from the line's
            // width at the glyph's tip to a point at its end: half a
            // line's triangles, in a texture where the taper is lost.
            let half = i64::from(v.width.div_ceil(2));
            let (px, py) = (
                (-dy).mul_int(half).round_int(),
                dx.mul_int(half).round_int(),
            );
            out.push(Shape::Tri {
                p: [[tip[0] + px, tip[1] + py], [tip[0] - px, tip[1] - py], e],
                color: color::VELOCITY,
            });
        }
    }
}

/// How velocity lines are drawn this frame.
pub(super) struct Velocity {
    /// The speed drawn at full length (see [`top_speed`]).
    pub(super) top: Fx,
    /// The full length beyond the tip, in pixels of a base-size glyph.
    pub(super) px: i32,
    /// Whether lines get heads.
    pub(super) heads: bool,
    /// Line width.
    pub(super) width: u16,
    /// A head's length, in percent of a base glyph.
    pub(super) head: i32,
    /// The width of a line drawn at full length (see [`Velocity::full`]).
    pub(super) full_width: u16,
}

impl Velocity {
    /// The velocity style of a frame, if the overlay is on. A crowd is a
    /// texture, not a field of arrows: beyond [`CROWD`] boids the lines
    /// shorten as 1/√n (a third as long at 2,000) and beyond
    /// [`CROWD_HEADS`] lose their heads (the glyphs show which way).
    pub(super) fn of(sim: &FlockSim, view: &View) -> Option<Velocity> {
        if !view.on("velocity") {
            return None;
        }
        let boids = sim.state().boids.len() as u64;
        let crowd = if boids > CROWD {
            (CROWD * 10_000 / boids).isqrt() as i32
        } else {
            100
        };
        // Lines are measured in glyph sizes, and a crowd's glyphs shrink
        // too (`draw_boids`): the length in pixels is as set out above.
        // A few boids' lines are arrows a class reads across the room;
        // a crowd's are thinner, with smaller heads.
        let few = boids <= CROWD;
        Some(Velocity {
            top: top_speed(sim),
            px: VELOCITY * crowd / crowd_pct(boids, CROWD),
            heads: boids <= CROWD_HEADS,
            width: view.lw(if few { 3 } else { 2 }, 2),
            head: if few { 10 } else { 7 },
            full_width: view.lw(3, 2),
        })
    }

    /// The style at full length with a head, whatever the crowd: for the
    /// focused boid, the one the class is reading.
    pub(super) fn full(self) -> Velocity {
        Velocity {
            px: VELOCITY,
            heads: true,
            head: 10,
            width: self.full_width,
            ..self
        }
    }
}

/// The speed a velocity line is drawn [`VELOCITY`] pixels long at: the
/// model's top speed (the heading model: its fastest boid's).
pub(super) fn top_speed(sim: &FlockSim) -> Fx {
    match &sim.config().model {
        Model::Weighted(p) => p.max_speed,
        Model::Gems(p) => p.max_speed,
        Model::Heading(_) => sim.speeds().iter().copied().max().unwrap_or(Fx::ONE),
    }
}

/// Every boid, `base` percent of the base glyph (less in a crowd, see
/// [`crowd_pct`]): far ones first in 3-D.
pub(super) fn draw_boids(
    sim: &FlockSim,
    proj: &Proj,
    view: &View,
    (base, vp): (i32, Viewport),
    out: &mut Scene,
) {
    let st = sim.state();
    // Far past the pane (a close-up), a glyph is not drawn at all: its
    // velocity line is the longest thing it could bring into view.
    let m = view.px(200);
    let near = |c: P| {
        c[0] > vp.x - m && c[1] > vp.y - m && c[0] < vp.x + vp.w + m && c[1] < vp.y + vp.h + m
    };
    let base = base * crowd_pct(st.boids.len() as u64, CROWD) / 100;
    let vel = Velocity::of(sim, view);
    let n = out.count();
    let mut glyphs = 0;
    if sim.config().dims == 3 {
        // Far to near, ties by id: one u64 key per boid, depth (higher
        // bits, inverted) then id (low 20 bits; at most 2²⁰ boids).
        let mut at: Vec<P> = Vec::with_capacity(st.boids.len());
        let mut keys: Vec<u64> = Vec::with_capacity(st.boids.len());
        for (i, b) in st.boids.iter().enumerate() {
            match proj.at(b.pos).filter(|&(c, _)| near(c)) {
                Some((c, d)) => {
                    // 1/16 ≤ d < 2¹¹ for anything in front of the camera.
                    let depth = (d.to_bits().clamp(0, (1 << 43) - 1)) as u64;
                    keys.push((((1u64 << 43) - 1 - depth) << 20) | i as u64);
                    at.push(c);
                }
                None => at.push([0, 0]),
            }
        }
        keys.sort_unstable();
        for key in keys {
            let i = (key & 0xF_FFFF) as usize;
            let depth = ((1i64 << 43) - 1) - (key >> 20) as i64;
            let c = at[i];
            draw_glyph(
                sim,
                proj,
                vel.as_ref(),
                out,
                (i, c, depth),
                (base, color::BOID, 100),
            );
            glyphs += 1;
        }
    } else {
        for (i, b) in st.boids.iter().enumerate() {
            if let Some((c, d)) = proj.at(b.pos).filter(|&(c, _)| near(c)) {
                draw_glyph(
                    sim,
                    proj,
                    vel.as_ref(),
                    out,
                    (i, c, d.to_bits()),
                    (base, color::BOID, 100),
                );
                glyphs += 1;
            }
        }
    }
    // The boids overlay is the glyphs; the rest are velocity lines.
    *out.drawn.entry("boids").or_default() += glyphs;
    if vel.is_some() {
        let lines = (out.count() - n) as u32 - glyphs;
        *out.drawn.entry("velocity").or_default() += lines;
    }
}

pub(super) fn draw_world(sim: &FlockSim, proj: &Proj, view: &View, out: &mut Scene) {
    let cfg = sim.config();
    let (lo, hi) = world_box(sim);
    let walls = cfg.bounds == Bounds::Walls;
    let edge = if walls {
        color::DIM
    } else {
        with_alpha(color::DIM, 140)
    };
    let w = view.lw(if walls { 3 } else { 2 }, 2);
    match proj {
        Proj::Flat(m) => {
            // Four lines (not a frame): each edge is drawn even when the
            // box is larger than the pane.
            let (a, b) = (m.at(lo.x, hi.y), m.at(hi.x, lo.y));
            for (p, q) in [
                (a, [b[0], a[1]]),
                ([b[0], a[1]], b),
                (b, [a[0], b[1]]),
                ([a[0], b[1]], a),
            ] {
                out.line(p, q, w, edge);
            }
            if view.on("grid") {
                let n = out.count();
                draw_grid(sim, m, out);
                out.credit("grid", n);
            }
        }
        Proj::Orbit(_) => {
            let corner = |i: u8| {
                Vec3::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                )
            };
            for i in 0u8..8 {
                for bit in [1u8, 2, 4] {
                    if i & bit == 0
                        && let (Some((a, _)), Some((b, _))) =
                            (proj.at(corner(i)), proj.at(corner(i | bit)))
                    {
                        out.line(a, b, w, edge);
                    }
                }
            }
        }
    }
    draw_obstacles(sim, proj, view, out);
}

/// The neighbour search's cells: one view radius wide.
pub(super) fn draw_grid(sim: &FlockSim, m: &Map2, out: &mut Scene) {
    let (lo, hi) = world_box(sim);
    let r = sim.config().model.radius().max(Fx::ONE);
    let c = with_alpha(color::DIM, 80);
    let mut x = lo.x;
    let mut lines = 0;
    while x <= hi.x && lines < 200 {
        out.line(m.at(x, lo.y), m.at(x, hi.y), 1, c);
        x = x.saturating_add(r);
        lines += 1;
    }
    let mut y = lo.y;
    while y <= hi.y && lines < 400 {
        out.line(m.at(lo.x, y), m.at(hi.x, y), 1, c);
        y = y.saturating_add(r);
        lines += 1;
    }
}

pub(super) fn draw_obstacles(sim: &FlockSim, proj: &Proj, view: &View, out: &mut Scene) {
    let hl = view.highlighted("obstacle");
    let focused = view.focused("obstacle");
    for (i, o) in sim.config().obstacles.iter().enumerate() {
        let Some((c, d)) = proj.at(o.center) else {
            continue;
        };
        let strong = hl.contains(&(i as u32)) || focused.contains(&(i as u32));
        let r = proj.len(o.radius, d).max(view.px(6));
        out.push(Shape::Ring {
            c,
            r,
            width: view.lw(if strong { 5 } else { 3 }, 2),
            color: color::ORANGE,
        });
        out.push(Shape::Disc {
            c,
            r: view.px(3).max(2),
            color: color::ORANGE,
        });
    }
}

/// The obstacles' names, beside their rings clear of the focused boids
/// (in `taken`, which the names join); none for an obstacle the camera
/// leaves out (a name pinned to the edge would look like its place).
pub(super) fn name_obstacles(
    sim: &FlockSim,
    proj: &Proj,
    view: &View,
    (vp, taken): (Viewport, &mut Vec<[i32; 4]>),
    out: &mut Scene,
) {
    let strong =
        |i: u32| view.highlighted("obstacle").contains(&i) || view.focused("obstacle").contains(&i);
    for (i, o) in sim.config().obstacles.iter().enumerate() {
        let Some((c, d)) = proj.at(o.center) else {
            continue;
        };
        let r = proj.len(o.radius, d).max(view.px(6));
        let shown = c[0] + r >= vp.x
            && c[0] - r < vp.x + vp.w
            && c[1] + r >= vp.y
            && c[1] - r < vp.y + vp.h;
        if !shown {
            continue;
        }
        let f = view.font(if strong(i as u32) { 18 } else { 14 });
        out.label_near(
            (c, r),
            (f, color::ORANGE),
            view.name("obstacle", i as u32),
            (vp, taken),
        );
    }
}
