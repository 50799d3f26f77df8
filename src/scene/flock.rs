//! Flock scenes: boids as oriented triangles (2-D) or depth-sorted fish in
//! a tank seen by an orbit camera (3-D), and for the inspected boids each
//! rule's contribution, the view radius and field of view, neighbours,
//! the nearest mate, feelers, wall boids and clamps.

use super::{Camera, Frame, Map2, P, Panel, Rgba, Scene, Shape, View, color, fx2, with_alpha};
use crate::num::{Angle, Fx, Vec3};
use crate::sim::Sim;
use crate::sim::flock::{
    BoidExplain, Bounds, Clamp, FlockEvent, FlockSim, Model, ModelState, Rule, Steer,
};

/// Glyph size in pixels: tip ahead of the boid's position, tail behind,
/// half the width.
const TIP: i32 = 9;
const TAIL: i32 = 5;
const HALF_WIDTH: i32 = 4;

/// Flocks up to this size show every boid's trail; larger ones only the
/// inspected boids'.
pub const TRAIL_ALL_MAX: usize = 1_000;

/// The colour of a rule's arrow.
pub(super) fn rule_color(r: Rule) -> Rgba {
    match r {
        Rule::Separation => color::VERMILLION,
        Rule::Alignment => color::BLUE,
        Rule::Cohesion => color::GREEN,
        Rule::Obstacle => color::ORANGE,
        Rule::Cruising => color::PURPLE,
    }
}

fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::Separation => "separation",
        Rule::Alignment => "alignment",
        Rule::Cohesion => "cohesion",
        Rule::Obstacle => "obstacle",
        Rule::Cruising => "cruising",
    }
}

/// World to screen for a flock: a plane map in 2-D, a perspective orbit
/// camera in 3-D.
enum Proj {
    Flat(Map2),
    Orbit(Orbit),
}

struct Orbit {
    center: Vec3,
    /// 1 / the world's half-diagonal: points are normalised to about unit size.
    inv_r: Fx,
    /// The camera's rotation (rows: screen x, screen up, depth).
    rx: [Fx; 3],
    ry: [Fx; 3],
    /// The rotation's rows scaled by `inv_r` (for points).
    px: [Fx; 3],
    py: [Fx; 3],
    pz: [Fx; 3],
    dist: Fx,
    /// Pixels per normalised unit at depth 1.
    f: Fx,
    c: P,
}

impl Orbit {
    fn new(center: Vec3, inv_r: Fx, yaw: Angle, pitch: Angle, dist: Fx, f: Fx, c: P) -> Orbit {
        let (cy, sy, cp, sp) = (yaw.cos(), yaw.sin(), pitch.cos(), pitch.sin());
        // Turn by the yaw around the vertical, then tilt by the pitch.
        let rx = [cy, Fx::ZERO, -sy];
        let ry = [-(sy * sp), cp, -(cy * sp)];
        let rz = [sy * cp, sp, cy * cp];
        let scaled = |r: [Fx; 3]| r.map(|v| v * inv_r);
        Orbit {
            center,
            inv_r,
            px: scaled(rx),
            py: scaled(ry),
            pz: scaled(rz),
            rx,
            ry,
            dist,
            f,
            c,
        }
    }

    /// Screen position, depth and pixels per world unit there of a world
    /// point (`None` behind the camera).
    #[inline]
    fn project(&self, p: Vec3) -> Option<(P, Fx, Fx)> {
        let r = p - self.center;
        let x1 = r.x * self.px[0] + r.z * self.px[2];
        let y2 = r.x * self.py[0] + r.y * self.py[1] + r.z * self.py[2];
        let z2 = r.x * self.pz[0] + r.y * self.pz[1] + r.z * self.pz[2];
        let d = self.dist + z2;
        if d < Fx::from_bits(1 << 28) {
            // Nearer than 1/16: behind or at the eye.
            return None;
        }
        // f / d through a 64-bit reciprocal of d (d ≥ 1/16, so 1/d ≤ 16):
        // one integer division instead of a 128-bit one.
        let inv_d = Fx::from_bits(((1i64 << 62) / d.to_bits()) << 2);
        let k = self.f.saturating_mul(inv_d);
        Some((
            [
                super::px(self.c[0], x1.saturating_mul(k)),
                super::px(self.c[1], -y2.saturating_mul(k)),
            ],
            d,
            k.saturating_mul(self.inv_r),
        ))
    }

    /// A world vector turned into camera space: its on-screen x and y
    /// (y down), in world units, without perspective.
    #[inline]
    fn rot(&self, v: Vec3) -> (Fx, Fx) {
        let x1 = v.x * self.rx[0] + v.z * self.rx[2];
        let y2 = v.x * self.ry[0] + v.y * self.ry[1] + v.z * self.ry[2];
        (x1, -y2)
    }

    /// Pixels per world unit at depth `d`.
    fn scale_at(&self, d: Fx) -> Fx {
        self.f
            .checked_div(d)
            .unwrap_or(Fx::ONE)
            .saturating_mul(self.inv_r)
    }
}

impl Proj {
    fn new(sim: &FlockSim, cam: &Camera) -> Proj {
        let cfg = sim.config();
        let (lo, hi) = world_box(sim);
        if cfg.dims == 3 {
            let center = Vec3::new(
                (lo.x + hi.x) / Fx::from_int(2),
                (lo.y + hi.y) / Fx::from_int(2),
                (lo.z + hi.z) / Fx::from_int(2),
            );
            let r = (hi - center).length().max(Fx::ONE);
            let vp = cam.viewport;
            let dist = Fx::from_int(3)
                .checked_div(cam.zoom.max(Fx::from_ratio(1, 8).unwrap_or(Fx::ONE)))
                .unwrap_or(Fx::from_int(3));
            let f =
                Fx::from_int(vp.w.min(vp.h)) * Fx::from_ratio(46, 100).unwrap_or(Fx::HALF) * dist;
            Proj::Orbit(Orbit::new(
                center,
                Fx::ONE.checked_div(r).unwrap_or(Fx::ONE),
                cam.yaw,
                cam.pitch,
                dist,
                f,
                [vp.x + vp.w / 2, vp.y + vp.h / 2],
            ))
        } else {
            Proj::Flat(Map2::fit(
                [lo.x, lo.y],
                [hi.x, hi.y],
                cam.viewport,
                12,
                cam.zoom,
            ))
        }
    }

    #[inline]
    fn at(&self, p: Vec3) -> Option<(P, Fx)> {
        self.at_scaled(p).map(|(c, d, _)| (c, d))
    }

    /// Screen point, depth and pixels per world unit there.
    #[inline]
    fn at_scaled(&self, p: Vec3) -> Option<(P, Fx, Fx)> {
        match self {
            Proj::Flat(m) => Some((m.at(p.x, p.y), Fx::ONE, m.scale())),
            Proj::Orbit(o) => o.project(p),
        }
    }

    /// A world vector on screen, in world units (see [`Orbit::rot`]).
    #[inline]
    fn rot(&self, v: Vec3) -> (Fx, Fx) {
        match self {
            Proj::Flat(_) => (v.x, v.y),
            Proj::Orbit(o) => o.rot(v),
        }
    }

    /// Pixels per world unit near a point of depth `d`.
    fn scale(&self, d: Fx) -> Fx {
        match self {
            Proj::Flat(m) => m.scale(),
            Proj::Orbit(o) => o.scale_at(d),
        }
    }

    /// A world length at depth `d` in pixels.
    fn len(&self, l: Fx, d: Fx) -> i32 {
        l.saturating_mul(self.scale(d))
            .round_int()
            .clamp(0, super::FAR)
    }
}

/// The box drawn around the world: the configured one, except for open
/// bounds, where it is the box of the boids and obstacles too.
fn world_box(sim: &FlockSim) -> (Vec3, Vec3) {
    let cfg = sim.config();
    let (mut lo, mut hi) = (cfg.world_min, cfg.world_max);
    if cfg.bounds == Bounds::Open {
        for b in &sim.state().boids {
            for c in 0..3 {
                lo.set(c, lo.get(c).min(b.pos.get(c)));
                hi.set(c, hi.get(c).max(b.pos.get(c)));
            }
        }
    }
    (lo, hi)
}

/// Unit direction a boid faces (its heading in the heading model, else
/// its velocity; +x when it stands still).
#[inline]
fn facing(sim: &FlockSim, i: usize) -> Vec3 {
    if let ModelState::Heading { heading } = &sim.state().model {
        let u = heading[i].unit();
        return Vec3::new(u.x, u.y, Fx::ZERO);
    }
    let v = sim.state().boids[i].vel;
    if v.is_zero() {
        Vec3::new(Fx::ONE, Fx::ZERO, Fx::ZERO)
    } else {
        v.fast_normalize()
    }
}

/// A glyph's corners around screen point `c` facing screen direction
/// `(dx, dy)` (a unit vector in fixed point), `size` in percent.
#[inline]
fn glyph(c: P, dx: Fx, dy: Fx, size: i32) -> [P; 3] {
    let s = |n: i32, v: Fx| v.mul_int(i64::from(n * size / 100)).round_int();
    let tip = [c[0] + s(TIP, dx), c[1] + s(TIP, dy)];
    let back = [c[0] - s(TAIL, dx), c[1] - s(TAIL, dy)];
    [
        tip,
        [back[0] - s(HALF_WIDTH, dy), back[1] + s(HALF_WIDTH, dx)],
        [back[0] + s(HALF_WIDTH, dy), back[1] - s(HALF_WIDTH, dx)],
    ]
}

/// A screen vector as a unit vector (straight up when it is zero). A
/// world direction's screen direction is `unit2(proj.rot(dir))`: exact in
/// 2-D; in 3-D turned by the camera without the small perspective
/// correction.
#[inline]
fn unit2((x, y): (Fx, Fx)) -> (Fx, Fx) {
    let v = Vec3::new(x, y, Fx::ZERO);
    if v.is_zero() {
        (Fx::ZERO, -Fx::ONE)
    } else {
        let n = v.fast_normalize();
        (n.x, n.y)
    }
}

/// The boids whose reasoning is drawn: the selected one, else those the
/// beat highlights.
fn focus(sim: &FlockSim, view: &View) -> Vec<u32> {
    let n = sim.state().boids.len() as u32;
    let mut ids: Vec<u32> = match view.selected {
        Some(s) => vec![s],
        None => view.highlighted("boid"),
    };
    ids.retain(|&i| i < n);
    ids.dedup();
    ids
}

fn explain_of(events: &[FlockEvent], id: u32) -> Option<&BoidExplain> {
    events.iter().find_map(|e| match e {
        FlockEvent::Boid(b) if b.id == id => Some(&**b),
        _ => None,
    })
}

/// The screen position of boid `id`'s glyph centre as [`super::build`]
/// draws it (`None` if there is no such boid or it is behind the camera).
pub fn boid_glyph_center(sim: &crate::sim::AnySim, cam: &Camera, id: u32) -> Option<P> {
    let crate::sim::AnySim::Flock(s) = sim else {
        return None;
    };
    let b = s.state().boids.get(id as usize)?;
    Proj::new(s, cam).at(b.pos).map(|(p, _)| p)
}

/// The boid whose glyph is nearest to a screen point, within 14 pixels.
pub fn pick_boid(sim: &crate::sim::AnySim, cam: &Camera, at: P) -> Option<u32> {
    let crate::sim::AnySim::Flock(s) = sim else {
        return None;
    };
    let proj = Proj::new(s, cam);
    let mut best: Option<(i64, u32)> = None;
    for (i, b) in s.state().boids.iter().enumerate() {
        if let Some((p, _)) = proj.at(b.pos) {
            let (dx, dy) = (i64::from(p[0] - at[0]), i64::from(p[1] - at[1]));
            let d2 = dx * dx + dy * dy;
            if d2 <= 14 * 14 && best.is_none_or(|(bd, _)| d2 < bd) {
                best = Some((d2, i as u32));
            }
        }
    }
    best.map(|(_, i)| i)
}

pub(super) fn build(sim: &FlockSim, frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let cfg = sim.config();
    let st = sim.state();
    let proj = Proj::new(sim, cam);
    let d3 = cfg.dims == 3;
    let events: &[FlockEvent] = match frame.explain {
        super::Explain::Flock(e) => e,
        _ => &[],
    };
    out.shapes
        .reserve(st.boids.len() * if view.on("velocity") { 2 } else { 1 } + 64);

    // The world: its box, the search grid, obstacles.
    draw_world(sim, &proj, view, out);

    // Trails.
    if view.on("trails") && !frame.trail.is_empty() {
        let (lo, hi) = world_box(sim);
        let jump = (hi.x - lo.x).max(hi.y - lo.y) / Fx::from_int(2);
        let trail_color = with_alpha(color::DIM, 150);
        // Every boid's trail in lesson-sized flocks; in large ones only the
        // inspected boids' (thousands of trails are a grey smear).
        let all = st.boids.len() <= TRAIL_ALL_MAX;
        let watched = focus(sim, view);
        for (i, b) in st.boids.iter().enumerate() {
            if !all && !watched.contains(&(i as u32)) {
                continue;
            }
            let mut prev: Option<(Vec3, P)> = None;
            for pts in frame
                .trail
                .iter()
                .map(|t| t.get(i).copied())
                .chain([Some(b.pos)])
            {
                let Some(p) = pts else {
                    prev = None;
                    continue;
                };
                let Some((s, _)) = proj.at(p) else { continue };
                if let Some((q, sq)) = prev
                    && (p - q).fast_length() < jump
                {
                    out.line(sq, s, 1, trail_color);
                }
                prev = Some((p, s));
            }
        }
    }

    // The boids: far ones first in 3-D.
    // Each boid projected once: screen point and depth (3-D: sorted far
    // to near, ties by id).
    let velocity = view.on("velocity");
    let vel_ticks = st.dt.mul_int(10);
    let draw_boid = |out: &mut Scene, i: usize, c: P, depth_bits: i64, k: Fx, fill: Rgba| {
        let b = &st.boids[i];
        // The velocity on screen gives both the glyph's direction and the
        // velocity line (a standing boid faces its heading, or +x).
        let rv = proj.rot(b.vel);
        let (dx, dy) = if b.vel.is_zero() {
            unit2(proj.rot(facing(sim, i)))
        } else {
            unit2(rv)
        };
        let size = if d3 {
            // Nearer fish are larger: 300 % / depth, within 60 %..200 %
            // (an integer division of the raw depth).
            ((300i64 << 32) / depth_bits.max(1)).clamp(60, 200) as i32
        } else {
            100
        };
        out.push(Shape::Tri {
            p: glyph(c, dx, dy, size),
            color: fill,
        });
        if velocity {
            // Where the boid will be in ten ticks, drawn from its glyph.
            let (vx, vy) = (rv.0 * vel_ticks, rv.1 * vel_ticks);
            let e = [
                super::px(c[0], vx.saturating_mul(k)),
                super::px(c[1], vy.saturating_mul(k)),
            ];
            out.line(c, e, 1, color::SKY);
        }
    };
    if d3 {
        // Far to near, ties by id: one u64 key per boid, depth (higher
        // bits, inverted) then id (low 20 bits; at most 2²⁰ boids).
        let mut at: Vec<(P, Fx)> = Vec::with_capacity(st.boids.len());
        let mut keys: Vec<u64> = Vec::with_capacity(st.boids.len());
        for (i, b) in st.boids.iter().enumerate() {
            match proj.at_scaled(b.pos) {
                Some((c, d, k)) => {
                    // 1/16 ≤ d < 2¹¹ for anything in front of the camera.
                    let depth = (d.to_bits().clamp(0, (1 << 43) - 1)) as u64;
                    keys.push((((1u64 << 43) - 1 - depth) << 20) | i as u64);
                    at.push((c, k));
                }
                None => at.push(([0, 0], Fx::ZERO)),
            }
        }
        keys.sort_unstable();
        for key in keys {
            let i = (key & 0xF_FFFF) as usize;
            let depth = ((1i64 << 43) - 1) - (key >> 20) as i64;
            let (c, k) = at[i];
            draw_boid(out, i, c, depth, k, color::BOID);
        }
    } else {
        for (i, b) in st.boids.iter().enumerate() {
            if let Some((c, d, k)) = proj.at_scaled(b.pos) {
                draw_boid(out, i, c, d.to_bits(), k, color::BOID);
            }
        }
    }

    // The inspected boids' reasoning, then the boids themselves on top.
    let focus = focus(sim, view);
    for &id in &focus {
        draw_reasoning(sim, &proj, events, id, view, out);
    }
    for &id in &focus {
        if let Some((c, d, k)) = proj.at_scaled(st.boids[id as usize].pos) {
            draw_boid(out, id as usize, c, d.to_bits(), k, color::SELECTED);
        }
    }

    // Panels and legend.
    let mut p = Panel {
        title: format!("flock · {} model · {}-D", cfg.model.name(), cfg.dims),
        lines: vec![
            format!("boids: {}", st.boids.len()),
            format!("tick: {}   dt: {}", st.tick, fx2(st.dt)),
        ],
    };
    if focus.is_empty() {
        p.lines.push("click a boid to inspect it".into());
    }
    out.panels.push(p);
    for &id in &focus {
        out.panels.push(inspector(sim, events, id));
    }
    if !focus.is_empty() {
        for r in [
            Rule::Separation,
            Rule::Alignment,
            Rule::Cohesion,
            Rule::Obstacle,
            Rule::Cruising,
        ] {
            if view.on(rule_name(r)) {
                out.legend.push((rule_color(r), rule_name(r).into()));
            }
        }
        if view.on("steering") {
            out.legend.push((color::TEXT, "steering".into()));
        }
        if view.on("wall_boids") {
            out.legend.push((color::SKY, "wall boids".into()));
        }
        if view.on("neighbours") {
            out.legend.push((color::SKY, "neighbours".into()));
        }
        if view.on("nearest") {
            out.legend.push((color::SELECTED, "nearest".into()));
        }
    }
}

fn draw_world(sim: &FlockSim, proj: &Proj, view: &View, out: &mut Scene) {
    let cfg = sim.config();
    let (lo, hi) = world_box(sim);
    let edge = if cfg.bounds == Bounds::Walls {
        color::DIM
    } else {
        with_alpha(color::DIM, 110)
    };
    match proj {
        Proj::Flat(m) => {
            let a = m.at(lo.x, lo.y);
            let b = m.at(hi.x, hi.y);
            out.push(Shape::Frame {
                at: a,
                size: [b[0] - a[0], b[1] - a[1]],
                width: if cfg.bounds == Bounds::Walls { 3 } else { 1 },
                color: edge,
            });
            if view.on("grid") {
                // The neighbour search's cells: one view radius wide.
                let r = cfg.model.radius().max(Fx::ONE);
                let mut x = lo.x;
                let mut lines = 0;
                while x <= hi.x && lines < 200 {
                    out.line(m.at(x, lo.y), m.at(x, hi.y), 1, with_alpha(color::DIM, 70));
                    x = x.saturating_add(r);
                    lines += 1;
                }
                let mut y = lo.y;
                while y <= hi.y && lines < 400 {
                    out.line(m.at(lo.x, y), m.at(hi.x, y), 1, with_alpha(color::DIM, 70));
                    y = y.saturating_add(r);
                    lines += 1;
                }
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
                        out.line(a, b, 1, edge);
                    }
                }
            }
        }
    }
    let hl = view.highlighted("obstacle");
    for (i, o) in cfg.obstacles.iter().enumerate() {
        let Some((c, d)) = proj.at(o.center) else {
            continue;
        };
        let strong = hl.contains(&(i as u32));
        let r = proj.len(o.radius, d);
        if r < 2 {
            out.push(Shape::Disc {
                c,
                r: 3,
                color: color::ORANGE,
            });
        } else {
            out.push(Shape::Ring {
                c,
                r,
                width: if strong { 4 } else { 2 },
                color: color::ORANGE,
            });
        }
        if strong {
            out.text(
                [c[0] + r + 4, c[1]],
                view.font(14),
                color::ORANGE,
                format!("obstacle {i}"),
            );
        }
    }
}

/// Rotates a unit direction by a turn in binary-angle units.
fn turned(dir: Vec3, turn: i64) -> Vec3 {
    let a = Angle::of(crate::num::Vec2::new(dir.x, dir.y)).add_turn(turn as i32);
    let u = a.unit();
    Vec3::new(u.x, u.y, Fx::ZERO)
}

fn draw_reasoning(
    sim: &FlockSim,
    proj: &Proj,
    events: &[FlockEvent],
    id: u32,
    view: &View,
    out: &mut Scene,
) {
    let cfg = sim.config();
    let st = sim.state();
    let i = id as usize;
    let b = st.boids[i];
    let Some((c, d)) = proj.at(b.pos) else { return };
    let dir = facing(sim, i);
    let radius = cfg.model.radius();
    let r_px = proj.len(radius, d);

    if view.on("view_radius") {
        out.push(Shape::Ring {
            c,
            r: r_px,
            width: 1,
            color: with_alpha(color::SKY, 160),
        });
    }
    if view.on("fov") {
        let half = match &cfg.model {
            Model::Heading(p) => Some(p.fov_half),
            Model::Gems(p) => p.view_angle.map(|a| Angle(a.0 / 2)),
            Model::Weighted(_) => None,
        };
        if let Some(half) = half.filter(|h| h.0 < Angle::HALF.0) {
            // The two edges of the field of view; behind them, the blind zone.
            for s in [1i64, -1] {
                let e = turned(dir, s * i64::from(half.0));
                if let Some((q, _)) = proj.at(b.pos + e * radius) {
                    out.line(c, q, 2, with_alpha(color::SKY, 200));
                }
            }
            if let Some((q, _)) = proj.at(b.pos - dir * (radius / Fx::from_int(2))) {
                out.text(q, view.font(13), color::DIM, "blind zone");
            }
        }
    }
    let Some(ex) = explain_of(events, id) else {
        if events.is_empty() && st.tick > 0 {
            out.text(
                [c[0] + 12, c[1] - 12],
                view.font(13),
                color::DIM,
                "(no explain for this tick)",
            );
        }
        return;
    };
    if view.on("neighbours") {
        for &n in &ex.neighbours {
            if let Some(nb) = st.boids.get(n as usize)
                && let Some((q, _)) = proj.at(nb.pos)
            {
                out.push(Shape::Ring {
                    c: q,
                    r: 8,
                    width: 2,
                    color: color::SKY,
                });
            }
        }
    }
    if view.on("nearest")
        && let Some(n) = ex.nearest
        && let Some(nb) = st.boids.get(n as usize)
        && let Some((q, _)) = proj.at(nb.pos)
    {
        out.line(c, q, 2, color::SELECTED);
    }
    if view.on("feelers")
        && let Model::Heading(p) = &cfg.model
    {
        if let Some((q, _)) = proj.at(b.pos + dir * p.check_distance) {
            out.line(c, q, 1, with_alpha(color::ORANGE, 160));
        }
        for f in &ex.feelers {
            if let Some(o) = cfg.obstacles.get(f.obstacle as usize)
                && let Some((q, _)) = proj.at(o.center)
            {
                let col = if f.steered {
                    color::ORANGE
                } else {
                    with_alpha(color::DIM, 160)
                };
                out.line(c, q, if f.steered { 2 } else { 1 }, col);
            }
        }
    }
    if view.on("wall_boids") {
        for w in &ex.wall_boids {
            if let Some((q, _)) = proj.at(*w) {
                out.line(c, q, 1, with_alpha(color::SKY, 120));
                out.push(Shape::Rect {
                    at: [q[0] - 3, q[1] - 3],
                    size: [7, 7],
                    color: color::SKY,
                });
            }
        }
    }

    // Rule arrows: vectors share one scale (the longest is 70 pixels);
    // turns point where the rule turns the boid, longer for larger turns.
    let longest = ex
        .rules
        .iter()
        .map(|(_, s)| *s)
        .chain([ex.steering])
        .filter_map(|s| match s {
            Steer::Vector(v) => Some(v.fast_length()),
            Steer::Turn(_) => None,
        })
        .max()
        .unwrap_or(Fx::ZERO);
    let hl_rules: Vec<&str> = view
        .highlight
        .iter()
        .filter_map(|h| h.strip_prefix("rule:"))
        .collect();
    let arrow = |out: &mut Scene, s: Steer, col: Rgba, strong: bool| {
        let w = if strong { 4 } else { 2 };
        match s {
            Steer::Vector(v) if !v.is_zero() && longest > Fx::ZERO => {
                let unit = v.fast_normalize();
                let frac = v.fast_length().checked_div(longest).unwrap_or(Fx::ONE);
                let len = (frac.mul_int(70)).round_int().max(6);
                let (dx, dy) = unit2(proj.rot(unit));
                let e = [
                    c[0] + dx.mul_int(len.into()).round_int(),
                    c[1] + dy.mul_int(len.into()).round_int(),
                ];
                out.arrow(c, e, w, 8, col);
            }
            Steer::Turn(t) if t != 0 => {
                let deg = ((t.unsigned_abs() as u128 * 360) >> 32) as i32;
                let len = 18 + deg.min(60);
                let e3 = turned(dir, t.signum() * (1i64 << 29).min(t.abs()).max(1 << 26));
                let (dx, dy) = unit2(proj.rot(e3));
                let e = [
                    c[0] + dx.mul_int(len.into()).round_int(),
                    c[1] + dy.mul_int(len.into()).round_int(),
                ];
                out.arrow(c, e, w, 8, col);
            }
            _ => {}
        }
    };
    for (rule, s) in &ex.rules {
        let name = rule_name(*rule);
        if view.on(name) {
            arrow(out, *s, rule_color(*rule), hl_rules.contains(&name));
        }
    }
    if view.on("steering") {
        arrow(out, ex.steering, color::TEXT, false);
    }
    if view.on("clamps") && !ex.clamps.is_empty() {
        let text: Vec<String> = ex.clamps.iter().map(clamp_text).collect();
        out.text(
            [c[0] + 12, c[1] + 18],
            view.font(13),
            color::VERMILLION,
            text.join(", "),
        );
    }
    out.text(
        [c[0] + 12, c[1] - 10],
        view.font(13),
        color::SELECTED,
        format!("#{id}"),
    );
}

fn clamp_text(c: &Clamp) -> String {
    match c {
        Clamp::MaxChange(v) => format!("max change (was {})", fx2(*v)),
        Clamp::MaxSpeed(v) => format!("max speed (was {})", fx2(*v)),
        Clamp::MinSpeed(v) => format!("min speed (was {})", fx2(*v)),
        Clamp::MinDistance(n) => format!("min distance ×{n}"),
        Clamp::ListFull(n) => format!("list full ({n} seen)"),
        Clamp::CoordLimit => "coordinate limit".into(),
    }
}

fn steer_text(s: &Steer) -> String {
    match s {
        Steer::Turn(_) => s.to_string(),
        Steer::Vector(v) => format!("({}, {}, {})", fx2(v.x), fx2(v.y), fx2(v.z)),
    }
}

fn inspector(sim: &FlockSim, events: &[FlockEvent], id: u32) -> Panel {
    let st = sim.state();
    let b = st.boids[id as usize];
    let v3 = |v: Vec3| {
        if sim.config().dims == 3 {
            format!("({}, {}, {})", fx2(v.x), fx2(v.y), fx2(v.z))
        } else {
            format!("({}, {})", fx2(v.x), fx2(v.y))
        }
    };
    let mut lines = vec![
        format!("pos {}", v3(b.pos)),
        format!("vel {}", v3(b.vel)),
        format!("speed {}", fx2(b.vel.fast_length())),
    ];
    if let ModelState::Heading { heading } = &st.model {
        lines.push(format!(
            "heading {}°",
            fx2(heading[id as usize].to_degrees())
        ));
    }
    match explain_of(events, id) {
        None => lines.push("(step to see its reasoning)".into()),
        Some(ex) => {
            let shown: Vec<String> = ex.neighbours.iter().take(10).map(u32::to_string).collect();
            lines.push(format!(
                "sees {} mate{}: {}{}",
                ex.neighbours.len(),
                if ex.neighbours.len() == 1 { "" } else { "s" },
                shown.join(" "),
                if ex.neighbours.len() > 10 { " …" } else { "" }
            ));
            if let Some(n) = ex.nearest {
                lines.push(format!("nearest: #{n}"));
            }
            for (r, s) in &ex.rules {
                lines.push(format!("{:<10} {}", rule_name(*r), steer_text(s)));
            }
            for f in &ex.feelers {
                lines.push(format!(
                    "feeler obstacle {}: ahead {}, off {}{}",
                    f.obstacle,
                    fx2(f.projection),
                    fx2(f.perpendicular),
                    if f.steered { " → steers" } else { "" }
                ));
            }
            if !ex.wall_boids.is_empty() {
                lines.push(format!("wall boids: {}", ex.wall_boids.len()));
            }
            for c in &ex.clamps {
                lines.push(format!("clamp: {}", clamp_text(c)));
            }
            lines.push(format!("steering {}", steer_text(&ex.steering)));
        }
    }
    Panel {
        title: format!("boid #{id}"),
        lines,
    }
}

/// The world point under a screen pixel of a 2-D flock (where a dropped
/// boid or a dragged obstacle goes); `None` for 3-D flocks.
pub fn world_at(sim: &crate::sim::AnySim, cam: &Camera, at: P) -> Option<Vec3> {
    let crate::sim::AnySim::Flock(s) = sim else {
        return None;
    };
    match Proj::new(s, cam) {
        Proj::Flat(m) => {
            let [x, y] = m.inverse(at);
            Some(Vec3::new(x, y, Fx::ZERO))
        }
        Proj::Orbit(_) => None,
    }
}

/// The obstacle whose centre is nearest a screen point, within 16 pixels
/// or its drawn radius.
pub fn pick_obstacle(sim: &crate::sim::AnySim, cam: &Camera, at: P) -> Option<u32> {
    let crate::sim::AnySim::Flock(s) = sim else {
        return None;
    };
    let proj = Proj::new(s, cam);
    let mut best: Option<(i64, u32)> = None;
    for (i, o) in s.config().obstacles.iter().enumerate() {
        if let Some((p, d)) = proj.at(o.center) {
            let r = i64::from(proj.len(o.radius, d).max(16));
            let (dx, dy) = (i64::from(p[0] - at[0]), i64::from(p[1] - at[1]));
            let d2 = dx * dx + dy * dy;
            if d2 <= r * r && best.is_none_or(|(bd, _)| d2 < bd) {
                best = Some((d2, i as u32));
            }
        }
    }
    best.map(|(_, i)| i)
}
