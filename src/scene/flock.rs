//! Flock scenes: boids as oriented triangles (2-D, y up) or depth-sorted
//! fish in a tank seen by an orbit camera (3-D), and for the focused boids
//! (the inspected one, else the beat's focus) each rule's contribution,
//! the view radius and field of view with the blind zone shaded,
//! neighbours, the nearest mate, feelers, wall boids and clamps.

use super::{
    Camera, Frame, Map2, P, Panel, Rgba, Scene, Shape, View, Viewport, color, fx2, with_alpha,
};
use crate::i18n::Lang;
use crate::num::{Angle, Fx, Vec3};
use crate::sim::Sim;
use crate::sim::flock::{
    BoidExplain, Bounds, Clamp, FlockEvent, FlockSim, Model, ModelState, Rule, Steer, Update,
};
use crate::tr;

/// Glyph size in pixels at scale 100: tip ahead of the boid's position,
/// tail behind, half the width (10 px across: the classroom minimum; long
/// and narrow, so the heading reads).
const TIP: i32 = 12;
const TAIL: i32 = 6;
const HALF_WIDTH: i32 = 5;
/// A focused boid's glyph is this many percent of the others' (24 px
/// across at scale 100).
const FOCUS_SIZE: i32 = 240;
/// A velocity line's length beyond the glyph's tip at the top speed, in
/// pixels of a base-size glyph.
const VELOCITY: i32 = 30;
/// Flocks larger than this draw shorter velocity lines (see `draw_glyph`).
const CROWD: u64 = 200;
/// Flocks larger than this draw velocity lines without heads.
const CROWD_HEADS: u64 = 500;
/// In a crowd (over [`CROWD`] boids), more seen mates than this are marked
/// with dots, not rings: past it the rings merge into one blue mass, and
/// the dots still show who is seen (each ring's square of pixels is what a
/// software renderer pays for).
const CROWD_RINGS: u64 = 40;

/// The largest flock whose glyphs names avoid (and callouts keep clear
/// of): beyond it a name finds no glyph-free spot anyway.
const AVOID_MAX: usize = 400;

/// The size (percent of full) of each of `n` like marks in one picture:
/// full up to `crowd`, then shrinking as 1/√n, never under half. Past a
/// crowd the marks merge into a mass anyway; smaller ones leave the
/// flock's shape visible between them (and a software renderer fills
/// fewer pixels).
fn crowd_pct(n: u64, crowd: u64) -> i32 {
    if n <= crowd {
        100
    } else {
        ((crowd * 10_000 / n).isqrt() as i32).max(50)
    }
}

/// Flocks up to this size show every boid's trail; larger ones only the
/// inspected boids'.
pub const TRAIL_ALL_MAX: usize = 1_000;
/// The most trail segments drawn (a frame stays cheap in large flocks).
const TRAIL_SEGMENTS: usize = 24_000;

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

/// A rule's overlay (as lessons name it).
fn rule_name(r: Rule) -> &'static str {
    match r {
        Rule::Separation => "separation",
        Rule::Alignment => "alignment",
        Rule::Cohesion => "cohesion",
        Rule::Obstacle => "obstacle",
        Rule::Cruising => "cruising",
    }
}

/// A rule's name in words.
fn rule_words(r: Rule, lang: Lang) -> String {
    match r {
        Rule::Separation => tr!(lang, F_RULE_SEPARATION),
        Rule::Alignment => tr!(lang, F_RULE_ALIGNMENT),
        Rule::Cohesion => tr!(lang, F_RULE_COHESION),
        Rule::Obstacle => tr!(lang, F_RULE_OBSTACLE),
        Rule::Cruising => tr!(lang, F_RULE_CRUISING),
    }
    .to_owned()
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
        // Turn by the yaw around the vertical, then tilt by the pitch: the
        // eye sits at `-dist` along the depth row `rz`, so a positive pitch
        // (rz's y negative) puts it above the centre, looking down; the
        // camera's right, up and depth (x, y, z) are left-handed, as the
        // aquarium's world is (y up, z forward), so nothing is mirrored.
        let rx = [cy, Fx::ZERO, -sy];
        let ry = [sy * sp, cp, cy * sp];
        let rz = [sy * cp, -sp, cy * cp];
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
            let center = cam.center.unwrap_or(center);
            let r = (hi - lo).length().max(Fx::from_int(2)) / Fx::from_int(2);
            let vp = cam.viewport;
            // Zooming out backs the camera away; zooming in narrows its
            // view (a telephoto lens), so a close-up magnifies without
            // putting the camera inside the tank.
            let zoom = cam.zoom.max(Fx::from_ratio(1, 8).unwrap_or(Fx::ONE));
            let dist = Fx::from_int(3)
                .checked_div(zoom.min(Fx::ONE))
                .unwrap_or(Fx::from_int(3));
            let f = Fx::from_int(vp.w.min(vp.h))
                * Fx::from_ratio(46, 100).unwrap_or(Fx::HALF)
                * Fx::from_int(3)
                * zoom.max(Fx::ONE);
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
            Proj::Flat(Map2::of_camera(lo, hi, cam))
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

    /// A world vector on screen, in world units, y down (see
    /// [`Orbit::rot`]; the flat map draws y up).
    #[inline]
    fn rot(&self, v: Vec3) -> (Fx, Fx) {
        match self {
            Proj::Flat(_) => (v.x, -v.y),
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
/// `(dx, dy)` (a unit vector in fixed point), `size` in percent of the
/// base glyph.
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

/// The boids whose reasoning is drawn: the selected one, else the beat's
/// focus, else those it highlights.
fn focus(sim: &FlockSim, view: &View) -> Vec<u32> {
    let n = sim.state().boids.len() as u32;
    let mut ids = view.focused("boid");
    ids.retain(|&i| i < n);
    ids.dedup();
    ids
}

/// The world point a camera centred on the focused boids looks at: their
/// mean position (`None` without a focus).
pub fn focus_center(sim: &crate::sim::AnySim, view: &View) -> Option<Vec3> {
    let crate::sim::AnySim::Flock(s) = sim else {
        return None;
    };
    let ids = focus(s, view);
    let n = Fx::from_int(ids.len() as i32);
    let sum = ids.iter().fold(Vec3::ZERO, |a, &i| {
        let p = s.state().boids[i as usize].pos;
        Vec3::new(
            a.x.saturating_add(p.x),
            a.y.saturating_add(p.y),
            a.z.saturating_add(p.z),
        )
    });
    (!ids.is_empty()).then(|| {
        Vec3::new(
            sum.x.checked_div(n).unwrap_or(Fx::ZERO),
            sum.y.checked_div(n).unwrap_or(Fx::ZERO),
            sum.z.checked_div(n).unwrap_or(Fx::ZERO),
        )
    })
}

/// A boid's name: the lesson's, else `fish N` in the aquarium (the gems
/// model), `boid N` elsewhere.
fn boid_name(sim: &FlockSim, view: &View, i: u32) -> String {
    match (&sim.config().model, view.names.get(&format!("boid:{i}"))) {
        (_, Some(n)) => n.clone(),
        (Model::Gems(_), None) => tr!(view.lang, NAME_FISH, i),
        _ => view.name("boid", i),
    }
}

/// The centre of a flock's world box (where an unfocused camera looks).
pub fn world_center(sim: &FlockSim) -> Vec3 {
    let (lo, hi) = world_box(sim);
    let two = Fx::from_int(2);
    Vec3::new(
        (lo.x + hi.x) / two,
        (lo.y + hi.y) / two,
        (lo.z + hi.z) / two,
    )
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
    let st = sim.state();
    let proj = Proj::new(sim, cam);
    let events: &[FlockEvent] = match frame.explain {
        super::Explain::Flock(e) => e,
        _ => &[],
    };
    out.shapes
        .reserve(st.boids.len() * if view.on("velocity") { 2 } else { 1 } + 64);

    // The world: its box, the search grid, obstacles.
    draw_world(sim, &proj, view, out);
    if view.on("trails") && !frame.trail.is_empty() {
        let n = out.count();
        draw_trails(sim, &proj, frame.trail, (view, false), out);
        out.credit("trails", n);
    }
    // Glyphs and arrows grow with the zoom (up to 2×), so a close-up
    // shows headings; the focused glyph grows less, not to hide its arrows.
    let most = if sim.config().dims == 3 { 150 } else { 200 };
    let grow = cam.zoom.mul_int(100).round_int().clamp(100, most);
    let base = i32::from(view.scale) * grow / 100;
    draw_boids(sim, &proj, view, (base, cam.viewport), out);

    // The focused boids' reasoning, then the boids themselves on top.
    let focus = focus(sim, view);
    let n = st.boids.len() as u32;
    // Names keep off the focused boids' glyphs (drawn large, on top).
    let mut taken: Vec<[i32; 4]> = focus
        .iter()
        .filter_map(|&id| proj.at(st.boids.get(id as usize)?.pos))
        .map(|(c, _)| {
            let s = view.px(28) * grow.min(125) / 100;
            [c[0] - s, c[1] - s, 2 * s, 2 * s]
        })
        .collect();
    // And off the wall boids' squares: a name beside one reads as its.
    if view.on("wall_boids") {
        for &id in &focus {
            if let Some(ex) = explain_of(events, id) {
                let half = wall_square_half(view) + 1;
                taken.extend(ex.wall_boids.iter().filter_map(|w| {
                    let (q, _) = proj.at(*w)?;
                    Some([q[0] - half, q[1] - half, 2 * half + 1, 2 * half + 1])
                }));
            }
        }
    }
    // The other glyphs, which names avoid while they have room.
    out.avoid.clear();
    if st.boids.len() <= AVOID_MAX {
        let g = view.px(9) * grow / 100;
        let glyphs = st.boids.iter().filter_map(|b| proj.at(b.pos));
        out.avoid
            .extend(glyphs.map(|(c, _)| [c[0] - g, c[1] - g, 2 * g, 2 * g]));
    }
    name_obstacles(sim, &proj, view, (cam.viewport, &mut taken), out);
    // Named in the narration, not inspected: framed (a square, not a
    // ring: rings are the mates a boid sees) and named. The frames first,
    // so no name lands in another's frame.
    let r = view.px(15) * grow / 100;
    let framed: Vec<(u32, P)> = view
        .highlighted("boid")
        .into_iter()
        .filter(|&id| id < n && !focus.contains(&id))
        .filter_map(|id| Some((id, proj.at(st.boids[id as usize].pos)?.0)))
        .collect();
    for &(_, c) in &framed {
        out.push(Shape::Frame {
            at: [c[0] - r, c[1] - r],
            size: [2 * r, 2 * r],
            width: view.lw(3, 2),
            color: color::SELECTED,
        });
        taken.push([c[0] - r, c[1] - r, 2 * r, 2 * r]);
    }
    // The focused glyphs go under their reasoning (moved there once
    // drawn): a short rule arrow stays visible on its boid's body.
    let mut under = out.count();
    for (k, &id) in focus.iter().enumerate() {
        draw_reasoning(
            sim,
            &proj,
            (events, frame.ahead),
            (id, k == 0),
            (view, grow),
            (cam.viewport, &mut taken),
            out,
        );
    }
    // The framed boids' names after the reasoning, clear of its rings.
    for &(id, c) in &framed {
        // With its heading in the heading model (what the narration
        // compares).
        let text = named_with_heading(sim, view, id);
        if !super::on_screen(cam.viewport, c) {
            continue;
        }
        out.label_near(
            (c, r),
            (view.font(17), color::SELECTED),
            text,
            (cam.viewport, &mut taken),
        );
    }
    for &id in &focus {
        if let Some((c, d)) = proj.at(st.boids[id as usize].pos) {
            // Larger than the others, but in a close-up (zoom over 3) not
            // growing further, not to hide its own trail: never under the
            // others nor under the classroom's 24 px across.
            let zoom = cam.zoom.mul_int(100).round_int().max(300);
            let base = FOCUS_SIZE * i32::from(view.scale) / 100;
            let size = (base * grow.min(125) / 100 * 300 / zoom)
                .max(i32::from(view.scale) * grow / 100)
                .max(base);
            let n = out.count();
            let vel = Velocity::of(sim, view).map(Velocity::full);
            draw_glyph(
                sim,
                &proj,
                vel.as_ref(),
                out,
                (id as usize, c, d.to_bits()),
                (size, color::SELECTED, size),
            );
            // Beyond its glyph, what it drew is its velocity line.
            if vel.is_some() {
                out.credit("velocity", n + 1);
            }
            let drawn: Vec<Shape> = out.shapes.drain(n..).collect();
            let outline = match drawn.first() {
                Some(Shape::Tri { p, .. }) => Some(*p),
                _ => None,
            };
            let k = drawn.len();
            out.shapes.splice(under..under, drawn);
            under += k;
            // Its outline over its arrows, which start at its centre and
            // would otherwise hide where it is.
            if let Some(p) = outline {
                for (a, b) in [(p[0], p[1]), (p[1], p[2]), (p[2], p[0])] {
                    out.line(a, b, view.lw(2, 2), color::SELECTED);
                }
            }
            // The name goes where no arrow of the boid points (none for a
            // boid the camera leaves out: it would look like its place).
            if !super::on_screen(cam.viewport, c) {
                continue;
            }
            let name = boid_name(sim, view, id);
            let f = view.font(17);
            let dirs = arrow_dirs(sim, &proj, (explain_of(events, id), id), view.px(110));
            let (w, h) = (super::text::width(&name, f), i32::from(f));
            let mid = label_spot(
                c,
                &dirs,
                (w, h),
                view.px(34) * grow.min(125) / 100,
                (cam.viewport, &mut taken),
                &out.avoid,
            );
            let at = [mid[0] - w / 2, mid[1] + h / 3];
            // Tied to its boid by a short line when it stands off.
            let glyph = view.px(20) * grow.min(125) / 100;
            let near = [
                mid[0].clamp(at[0], at[0] + w),
                mid[1].clamp(at[1] - h, at[1]),
            ];
            let edge = [
                near[0].clamp(c[0] - glyph, c[0] + glyph),
                near[1].clamp(c[1] - glyph, c[1] + glyph),
            ];
            let (dx, dy) = (near[0] - edge[0], near[1] - edge[1]);
            if dx * dx + dy * dy > view.px(8).pow(2) {
                out.line(edge, near, view.lw(2, 2), color::SELECTED);
            }
            out.label_in(cam.viewport, at, f, color::SELECTED, name);
        }
    }
    if view.on("attitude") {
        let n = out.count();
        for &id in &focus {
            draw_attitude(
                sim,
                &proj,
                id,
                (view, grow),
                (cam.viewport, &mut taken),
                out,
            );
        }
        out.credit("attitude", n);
    }
    if view.on("trails") && !frame.trail.is_empty() {
        let n = out.count();
        draw_trails(sim, &proj, frame.trail, (view, true), out);
        out.credit("trails", n);
    }
    if view.on("wall_boids") {
        for &id in &focus {
            if let Some(ex) = explain_of(events, id) {
                draw_wall_squares(&proj, ex, view, out);
            }
        }
    }
    // What a callout keeps clear of: what the names kept clear of, and
    // every boid's glyph in a flock small enough to tell them apart.
    out.keep_clear.extend(taken);
    out.keep_clear.extend(out.avoid.clone());
    panels(sim, events, frame.ahead, &focus, view, out);
}

/// The panels and the legend of a flock scene.
fn panels(
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
            tr!(lang, F_DT_THIS, super::fx_places(st.dt, 4))
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
fn model_lines(sim: &FlockSim, view: &View) -> Vec<String> {
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
pub(super) fn legend(sim: &FlockSim, view: &View) -> Vec<(Rgba, String)> {
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
fn bounds_name(b: Bounds, lang: Lang) -> &'static str {
    match b {
        Bounds::Wrap => tr!(lang, F_EDGES_WRAP),
        Bounds::Walls => tr!(lang, F_EDGES_WALLS),
        Bounds::Open => tr!(lang, F_EDGES_OPEN),
    }
}

/// The screen directions a focused boid's drawing takes from its centre:
/// its heading (ahead, and behind where feelers run) and every rule's and
/// the steering's arrow.
fn arrow_dirs(
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
fn draw_attitude(
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
fn label_spot(
    c: P,
    dirs: &[(Fx, Fx)],
    (w, h): (i32, i32),
    dist: i32,
    (vp, taken): (super::Viewport, &mut Vec<[i32; 4]>),
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
    let clear = |b: [i32; 4]| !taken.iter().any(|&t| super::overlaps(b, t));
    let uncrowded = |b: [i32; 4]| !avoid.iter().any(|&t| super::overlaps(b, t));
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

/// The shade of a blind zone.
const BLIND: Rgba = Rgba(140, 144, 156, 70);

/// Every boid's last positions (in large flocks only the focused boids').
/// Under the glyphs, the other boids' trails (every boid's in
/// lesson-sized flocks; in large ones none: thousands of trails are a grey
/// smear); with `focused`, the inspected boids' trails, over the glyphs,
/// in their colour with a dot at every tick, so each tick's turn shows.
fn draw_trails(
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
fn draw_trail(
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
type Placed = (usize, P, i64);

/// One boid's glyph (and velocity line), `size` percent of the base glyph.
fn draw_glyph(
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
struct Velocity {
    /// The speed drawn at full length (see [`top_speed`]).
    top: Fx,
    /// The full length beyond the tip, in pixels of a base-size glyph.
    px: i32,
    /// Whether lines get heads.
    heads: bool,
    /// Line width.
    width: u16,
    /// A head's length, in percent of a base glyph.
    head: i32,
    /// The width of a line drawn at full length (see [`Velocity::full`]).
    full_width: u16,
}

impl Velocity {
    /// The velocity style of a frame, if the overlay is on. A crowd is a
    /// texture, not a field of arrows: beyond [`CROWD`] boids the lines
    /// shorten as 1/√n (a third as long at 2,000) and beyond
    /// [`CROWD_HEADS`] lose their heads (the glyphs show which way).
    fn of(sim: &FlockSim, view: &View) -> Option<Velocity> {
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
    fn full(self) -> Velocity {
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
fn top_speed(sim: &FlockSim) -> Fx {
    match &sim.config().model {
        Model::Weighted(p) => p.max_speed,
        Model::Gems(p) => p.max_speed,
        Model::Heading(_) => sim.speeds().iter().copied().max().unwrap_or(Fx::ONE),
    }
}

/// Every boid, `base` percent of the base glyph (less in a crowd, see
/// [`crowd_pct`]): far ones first in 3-D.
fn draw_boids(
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

fn draw_world(sim: &FlockSim, proj: &Proj, view: &View, out: &mut Scene) {
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
fn draw_grid(sim: &FlockSim, m: &Map2, out: &mut Scene) {
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

fn draw_obstacles(sim: &FlockSim, proj: &Proj, view: &View, out: &mut Scene) {
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
fn name_obstacles(
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

/// Rotates a unit direction by a turn in binary-angle units: in the x–y
/// plane (2-D), or around the vertical axis (3-D, fish swim mostly level).
fn turned(dir: Vec3, turn: i64, d3: bool) -> Vec3 {
    if d3 {
        let flat = crate::num::Vec2::new(dir.x, dir.z);
        let a = Angle::of(flat).add_turn(turn as i32);
        let len = Vec3::new(dir.x, Fx::ZERO, dir.z).fast_length();
        let u = a.unit();
        return Vec3::new(u.x.saturating_mul(len), dir.y, u.y.saturating_mul(len));
    }
    let a = Angle::of(crate::num::Vec2::new(dir.x, dir.y)).add_turn(turn as i32);
    let u = a.unit();
    Vec3::new(u.x, u.y, Fx::ZERO)
}

/// The view radius and the field of view, with the blind zone shaded.
fn draw_view(
    sim: &FlockSim,
    proj: &Proj,
    id: u32,
    view: &View,
    (label, vp): (bool, Viewport),
    out: &mut Scene,
) {
    let cfg = sim.config();
    let b = sim.state().boids[id as usize];
    let Some((c, d)) = proj.at(b.pos) else { return };
    let dir = facing(sim, id as usize);
    let radius = cfg.model.radius();
    let d3 = cfg.dims == 3;
    if view.on("view_radius") {
        let n = out.count();
        out.push(Shape::Ring {
            c,
            r: proj.len(radius, d),
            width: view.lw(2, 2),
            color: with_alpha(color::SKY, 190),
        });
        out.credit("view_radius", n);
    }
    if !view.on("fov") {
        return;
    }
    let half = match &cfg.model {
        Model::Heading(p) => Some(p.fov_half),
        Model::Gems(p) => p.view_angle.map(|a| Angle(a.0 / 2)),
        Model::Weighted(_) => None,
    };
    let Some(half) = half.filter(|h| h.0 < Angle::HALF.0) else {
        return;
    };
    let n = out.count();
    // The blind zone: a fan of thin triangles from one edge of the view,
    // round the back, to the other.
    let blind = i64::from(u32::MAX - 2 * half.0) + 1;
    let steps = 24i64;
    let edge = |t: i64| proj.at(b.pos + turned(dir, t, d3) * radius).map(|(q, _)| q);
    let start = i64::from(half.0);
    for k in 0..steps {
        let (t0, t1) = (start + blind * k / steps, start + blind * (k + 1) / steps);
        if let (Some(p), Some(q)) = (edge(t0), edge(t1)) {
            out.push(Shape::Tri {
                p: [c, p, q],
                color: BLIND,
            });
        }
    }
    // The two edges of the field of view.
    for s in [1i64, -1] {
        if let Some(q) = edge(s * i64::from(half.0)) {
            out.line(c, q, view.lw(2, 2), with_alpha(color::SKY, 220));
        }
    }
    // The label behind and to the left (not dead behind, where a
    // follower flies).
    let back_left = turned(dir, 3i64 << 29, d3);
    if label
        && let Some((q, _)) =
            proj.at(b.pos + back_left * (radius * Fx::from_ratio(7, 10).unwrap_or(Fx::HALF)))
    {
        let f = view.font(15);
        let blind = tr!(view.lang, F_BLIND);
        let half = super::text::width(blind, f) / 2;
        out.label_in(
            vp,
            [q[0] - half, q[1] + i32::from(f) / 3],
            f,
            color::TEXT,
            blind,
        );
    }
    out.credit("fov", n);
}

/// A focused boid's view and, from the explain record, what it saw and
/// each rule's contribution. `ahead`: the record is the coming step's
/// (drawn from the boid's heading now), else the step into this tick
/// (turns drawn from the heading it had before the step).
fn draw_reasoning(
    sim: &FlockSim,
    proj: &Proj,
    (events, ahead): (&[FlockEvent], bool),
    (id, first): (u32, bool),
    (view, grow): (&View, i32),
    (vp, taken): (super::Viewport, &mut Vec<[i32; 4]>),
    out: &mut Scene,
) {
    draw_view(sim, proj, id, view, (first, vp), out);
    let st = sim.state();
    let Some((c, _)) = proj.at(st.boids[id as usize].pos) else {
        return;
    };
    let Some(ex) = explain_of(events, id) else {
        return;
    };
    let mut dir = facing(sim, id as usize);
    if let (false, Model::Heading(_), Steer::Turn(t)) = (ahead, &sim.config().model, ex.steering) {
        dir = turned(dir, -t, false);
    }
    // The mates' names last, clear of the rings and of the rule arrows.
    let names = draw_mates(sim, proj, ex, c, (view, grow), taken, out);
    draw_feelers(sim, proj, ex, (c, dir), view, out);
    draw_rules(sim, proj, ex, (c, dir), (view, grow), (vp, taken), out);
    name_mates(sim, &names, (view, grow), (vp, taken), out);
    if view.on("clamps") && !ex.clamps.is_empty() {
        let n = out.count();
        let text: Vec<String> = ex.clamps.iter().map(|c| clamp_text(c, view.lang)).collect();
        out.label_near(
            (c, view.px(26) * grow.min(125) / 100),
            (view.font(15), color::TEXT),
            tr!(view.lang, F_CLAMPED, text.join(", ")),
            (vp, taken),
        );
        out.credit("clamps", n);
    }
}

/// Neighbours ringed, the nearest mate linked, wall boids as squares.
/// Returns the mates to name (when they are few: see [`name_mates`]).
fn draw_mates(
    sim: &FlockSim,
    proj: &Proj,
    ex: &BoidExplain,
    c: P,
    (view, grow): (&View, i32),
    taken: &mut Vec<[i32; 4]>,
    out: &mut Scene,
) -> Vec<(u32, P, Rgba)> {
    let st = sim.state();
    let mut names = Vec::new();
    if view.on("neighbours") {
        let n = out.count();
        let r = view.px(12) * grow / 100;
        let dots = ex.neighbours.len() as u64 > CROWD_RINGS && st.boids.len() as u64 > CROWD;
        let dot = view.px(5).max(4);
        let named = ex.neighbours.len() <= 4;
        let in_place = sim.config().update == Update::InPlace;
        // Updating in place, a lower id has already moved this tick: the
        // boid sees it where it now is.
        let rings: Vec<(u32, P, Rgba)> = ex
            .neighbours
            .iter()
            .filter_map(|&m| Some((m, proj.at(st.boids.get(m as usize)?.pos)?.0)))
            .map(|(m, q)| {
                let seen_moved = in_place && m < ex.id;
                (m, q, if seen_moved { color::GREEN } else { color::SKY })
            })
            .collect();
        // The rings first, kept clear of by every name drawn after them
        // (in `taken`, as the focused boids are). In a crowd a ring shrinks
        // to half the way to the nearest other ring or the focused boid,
        // so rings do not pile up over the boids they name.
        let spaced = |q: P| {
            let d2 = rings
                .iter()
                .map(|&(_, o, _)| o)
                .chain([c])
                .filter(|&o| o != q)
                .map(|o| {
                    let (dx, dy) = (i64::from(o[0] - q[0]), i64::from(o[1] - q[1]));
                    dx * dx + dy * dy
                })
                .min()
                .unwrap_or(i64::MAX);
            let half = ((d2.min(1 << 40) as u64).isqrt() / 2) as i32;
            r.min(half - 1).max(view.px(7))
        };
        for &(_, q, col) in &rings {
            let r = spaced(q);
            if dots {
                out.push(Shape::Rect {
                    at: [q[0] - dot / 2, q[1] - dot / 2],
                    size: [dot, dot],
                    color: col,
                });
                continue;
            }
            out.push(Shape::Ring {
                c: q,
                r,
                width: view.lw(2, 2),
                color: col,
            });
            taken.push([q[0] - r, q[1] - r, 2 * r, 2 * r]);
        }
        if named {
            names = rings;
        }
        out.credit("neighbours", n);
    }
    if view.on("nearest")
        && let Some(m) = ex.nearest
        && let Some(nb) = st.boids.get(m as usize)
        && let Some((q, _)) = proj.at(nb.pos)
    {
        let n = out.count();
        out.line(c, q, view.lw(3, 2), color::SELECTED);
        out.push(Shape::Ring {
            c: q,
            r: view.px(17) * grow / 100,
            width: view.lw(3, 2),
            color: color::SELECTED,
        });
        out.credit("nearest", n);
    }
    if view.on("wall_boids") {
        // The lines here; the squares over the glyphs (see
        // [`draw_wall_squares`]).
        let n = out.count();
        for w in &ex.wall_boids {
            if let Some((q, _)) = proj.at(*w) {
                out.line(c, q, view.lw(2, 2), with_alpha(color::SKY, 150));
            }
        }
        out.credit("wall_boids", n);
    }
    names
}

/// The mates [`draw_mates`] ringed, named (with their headings in the
/// heading model) clear of everything in `taken`.
fn name_mates(
    sim: &FlockSim,
    names: &[(u32, P, Rgba)],
    (view, grow): (&View, i32),
    (vp, taken): (super::Viewport, &mut Vec<[i32; 4]>),
    out: &mut Scene,
) {
    if names.is_empty() {
        return;
    }
    let n = out.count();
    let r = view.px(12) * grow / 100;
    // A mate the beat frames, or focuses on, has its name already.
    let named = |m: u32| view.highlighted("boid").contains(&m) || view.focused("boid").contains(&m);
    for &(m, q, col) in names
        .iter()
        .filter(|n| super::on_screen(vp, n.1) && !named(n.0))
    {
        out.label_near(
            (q, r),
            (view.font(15), col),
            named_with_heading(sim, view, m),
            (vp, taken),
        );
    }
    out.credit("neighbours", n);
}

/// Half a wall boid's square, in pixels.
fn wall_square_half(view: &View) -> i32 {
    view.px(5).max(4)
}

/// The wall boids as squares with a dark edge, drawn after the glyphs: a
/// wall boid right under its boid still shows.
fn draw_wall_squares(proj: &Proj, ex: &BoidExplain, view: &View, out: &mut Scene) {
    let n = out.count();
    let half = wall_square_half(view);
    for w in &ex.wall_boids {
        if let Some((q, _)) = proj.at(*w) {
            out.push(Shape::Rect {
                at: [q[0] - half - 1, q[1] - half - 1],
                size: [2 * half + 3, 2 * half + 3],
                color: color::BACKGROUND,
            });
            out.push(Shape::Rect {
                at: [q[0] - half, q[1] - half],
                size: [2 * half + 1, 2 * half + 1],
                color: color::SKY,
            });
        }
    }
    out.credit("wall_boids", n);
}

/// The heading model's feelers: how far ahead it looks, and a line to each
/// obstacle it considered (thick where it steered).
fn draw_feelers(
    sim: &FlockSim,
    proj: &Proj,
    ex: &BoidExplain,
    (c, dir): (P, Vec3),
    view: &View,
    out: &mut Scene,
) {
    let cfg = sim.config();
    let Model::Heading(p) = &cfg.model else {
        return;
    };
    if !view.on("feelers") {
        return;
    }
    let n = out.count();
    let b = sim.state().boids[ex.id as usize];
    // Ahead and, since the article takes the projection's absolute
    // length, behind too (unless the lesson ignores obstacles behind).
    let back: &[Fx] = if p.ignore_obstacles_behind {
        &[]
    } else {
        &[-Fx::ONE]
    };
    for &s in [Fx::ONE].iter().chain(back) {
        if let Some((q, _)) = proj.at(b.pos + dir * (p.check_distance * s)) {
            out.line(c, q, view.lw(2, 2), with_alpha(color::ORANGE, 150));
        }
    }
    for f in &ex.feelers {
        if let Some(o) = cfg.obstacles.get(f.obstacle as usize)
            && let Some((q, _)) = proj.at(o.center)
        {
            let col = if f.steered {
                color::ORANGE
            } else {
                with_alpha(color::DIM, 180)
            };
            out.line(c, q, view.lw(if f.steered { 4 } else { 2 }, 2), col);
        }
    }
    out.credit("feelers", n);
}

/// Each rule's contribution as an arrow, and the steering applied. Vectors
/// share one scale (the longest is 90 pixels at scale 100); turns point
/// where the rule turns the boid, longer for larger turns.
fn draw_rules(
    sim: &FlockSim,
    proj: &Proj,
    ex: &BoidExplain,
    (c, dir): (P, Vec3),
    (view, grow): (&View, i32),
    (vp, taken): (super::Viewport, &mut Vec<[i32; 4]>),
    out: &mut Scene,
) {
    if ex.rules.is_empty() {
        // Withheld: the coming step is a question's answer.
        return;
    }
    let d3 = sim.config().dims == 3;
    let long = |n: i32| view.px(n) * grow / 100;
    // The weighted model's rules drawn as their shares of the steering
    // (w/Σw times the rule), so the arrows add up to the steering arrow.
    let rules = shares(sim, ex);
    let longest = view.rule_scale.unwrap_or_else(|| longest_rule(ex, &rules));
    let hl_rules: Vec<&str> = view
        .highlight
        .iter()
        .filter_map(|h| h.strip_prefix("rule:"))
        .collect();
    // The vector as it lies across the screen (in 3-D, its length
    // foreshortened like the world's), so the arrows add up on screen as
    // the vectors do: its direction and length at `full` pixels for the
    // longest.
    let across = |v: Vec3, full: i32| {
        let (sx, sy) = proj.rot(v);
        let across = Vec3::new(sx, sy, Fx::ZERO).fast_length();
        let frac = across.checked_div(longest).unwrap_or(Fx::ONE);
        let len = frac.mul_int(i64::from(full)).round_int().max(long(18));
        let dir = if across == Fx::ZERO {
            unit2(proj.rot(v.fast_normalize()))
        } else {
            (
                sx.checked_div(across).unwrap_or(Fx::ZERO),
                sy.checked_div(across).unwrap_or(Fx::ZERO),
            )
        };
        (dir, len)
    };
    // The longest `long(90)` pixels, or less where that would run an
    // arrow out of the pane (all shorter alike: they still add up).
    let vectors = rules.iter().map(|r| r.1).chain([ex.steering]);
    let full = vectors
        .filter_map(|s| match s {
            Steer::Vector(v) if !v.is_zero() && longest > Fx::ZERO => Some(across(v, long(90))),
            _ => None,
        })
        .map(|(d, len)| long(90) * room(vp, c, d, view.px(6)) / len.max(1))
        .fold(long(90), i32::min)
        .max(long(30));
    // `k`: the arrow's place in the drawing order; turns of about the same
    // size get lengths a little apart, so neither hides the other.
    // `wide`: extra pixels of width, a halo for the arrow drawn under the
    // others.
    let mut arrow = |out: &mut Scene, s: Steer, col: Rgba, (k, wide): (i32, i32), strong: bool| {
        let w = view.lw(if strong { 6 } else { 4 }, 3) + wide as u16;
        let head = view.px(if strong { 16 } else { 13 }).max(10) + 2 * wide;
        let len = match s {
            Steer::Vector(v) if !v.is_zero() && longest > Fx::ZERO => Some(across(v, full)),
            Steer::Turn(t) if t != 0 => {
                // The new direction, at its true angle (up to half a
                // turn), longer for larger turns.
                let deg = ((t.unsigned_abs() as u128 * 360) >> 32) as i32;
                let shown = t.clamp(-(1i64 << 31), 1i64 << 31);
                let len = long(40 + deg.min(180) / 3 + 9 * k);
                Some((unit2(proj.rot(turned(dir, shown, d3))), len))
            }
            _ => None,
        };
        if let Some(((dx, dy), len)) = len {
            let e = [
                c[0] + dx.mul_int(len.into()).round_int(),
                c[1] + dy.mul_int(len.into()).round_int(),
            ];
            out.arrow(c, e, w, head, col);
            super::keep_clear(taken, c, e, i32::from(w) / 2 + 3);
            if let Steer::Turn(t) = s {
                sweep(
                    out,
                    proj,
                    c,
                    dir,
                    t.clamp(-(1i64 << 31), 1i64 << 31),
                    len * 6 / 10,
                    view,
                    col,
                    d3,
                );
            }
        }
    };
    // The steering first, under the rules and wider: where one rule is
    // the whole steering, its colour shows on top with a white edge.
    if view.on("steering") {
        let n = out.count();
        arrow(
            out,
            ex.steering,
            color::TEXT,
            (0, view.px(4)),
            hl_rules.contains(&"steering"),
        );
        out.credit("steering", n);
    }
    // Last rule first: turns of about the same size are drawn longer for
    // later rules (see `arrow`), so the shorter ones end up on top.
    for (k, (rule, s)) in rules.iter().enumerate().rev() {
        let name = rule_name(*rule);
        if view.on(name) {
            let n = out.count();
            arrow(
                out,
                *s,
                rule_color(*rule),
                (k as i32 + 1, 0),
                hl_rules.contains(&name),
            );
            out.credit(name, n);
        }
    }
}

/// A boid's rules as drawn: the weighted model's as their shares of the
/// steering (w/Σw times the rule), so the arrows add up to the steering.
fn shares(sim: &FlockSim, ex: &BoidExplain) -> Vec<(Rule, Steer)> {
    ex.rules
        .iter()
        .map(|&(r, s)| match (share(sim, r), s) {
            (Some(w), Steer::Vector(v)) => (r, Steer::Vector(v * w)),
            _ => (r, s),
        })
        .collect()
}

/// The longest of a boid's rule shares and steering, in world units.
fn longest_rule(ex: &BoidExplain, rules: &[(Rule, Steer)]) -> Fx {
    rules
        .iter()
        .map(|(_, s)| *s)
        .chain([ex.steering])
        .filter_map(|s| match s {
            Steer::Vector(v) => Some(v.fast_length()),
            Steer::Turn(_) => None,
        })
        .max()
        .unwrap_or(Fx::ZERO)
}

/// The longest rule arrow of the focused boids of a pane (see
/// [`View::rule_scale`]); `None` when none is drawn.
pub(super) fn pane_rule_scale(sim: &FlockSim, frame: &Frame, view: &View) -> Option<Fx> {
    let super::Explain::Flock(events) = frame.explain else {
        return None;
    };
    focus(sim, view)
        .into_iter()
        .filter_map(|id| explain_of(events, id))
        .filter(|ex| !ex.rules.is_empty())
        .map(|ex| longest_rule(ex, &shares(sim, ex)))
        .max()
}

/// How many pixels a ray from `c` along the unit `d` runs before it comes
/// within `margin` of `vp`'s edge (0 when `c` is outside).
fn room(vp: super::Viewport, c: P, (dx, dy): (Fx, Fx), margin: i32) -> i32 {
    let reach = |from: i32, lo: i32, hi: i32, u: Fx| -> i32 {
        let space = if u > Fx::ZERO {
            hi - margin - from
        } else {
            from - lo - margin
        };
        if u == Fx::ZERO {
            return i32::MAX;
        }
        Fx::from_int(space.max(0))
            .checked_div(u.abs())
            .map_or(i32::MAX, |t| t.round_int().clamp(0, 1 << 20))
    };
    reach(c[0], vp.x, vp.x + vp.w, dx).min(reach(c[1], vp.y, vp.y + vp.h, dy))
}

/// The distance between two points of the world; in a wrapping world the
/// shorter way, across the edges if that is shorter.
fn separation(sim: &FlockSim, a: Vec3, b: Vec3) -> Fx {
    let cfg = sim.config();
    let (lo, hi) = (cfg.world_min, cfg.world_max);
    let wrap = |d: Fx, size: Fx| {
        if cfg.bounds != Bounds::Wrap || size <= Fx::ZERO {
            d
        } else if d > size / Fx::from_int(2) {
            d - size
        } else if d < -(size / Fx::from_int(2)) {
            d + size
        } else {
            d
        }
    };
    let d = Vec3::new(
        wrap(b.x - a.x, hi.x - lo.x),
        wrap(b.y - a.y, hi.y - lo.y),
        if cfg.dims == 3 {
            wrap(b.z - a.z, hi.z - lo.z)
        } else {
            Fx::ZERO
        },
    );
    d.fast_length()
}

/// A weighted-model rule's share of the steering, `w / Σw` (`None` for
/// the other models).
fn share(sim: &FlockSim, r: Rule) -> Option<Fx> {
    let Model::Weighted(p) = &sim.config().model else {
        return None;
    };
    let w = match r {
        Rule::Separation => p.w_separation,
        Rule::Alignment => p.w_alignment,
        Rule::Cohesion => p.w_cohesion,
        _ => return None,
    };
    w.checked_div(p.w_separation + p.w_alignment + p.w_cohesion)
}

/// The sweep of a turn: an arc from the boid's heading to its new one.
#[allow(clippy::too_many_arguments)]
fn sweep(
    out: &mut Scene,
    proj: &Proj,
    c: P,
    dir: Vec3,
    turn: i64,
    r: i32,
    view: &View,
    col: Rgba,
    d3: bool,
) {
    let steps = 16i64;
    let at = |k: i64| {
        let (dx, dy) = unit2(proj.rot(turned(dir, turn * k / steps, d3)));
        [
            c[0] + dx.mul_int(r.into()).round_int(),
            c[1] + dy.mul_int(r.into()).round_int(),
        ]
    };
    for k in 0..steps {
        out.line(at(k), at(k + 1), view.lw(2, 2), with_alpha(col, 200));
    }
}

/// A number as a person writes it: whole numbers without decimals, else
/// two decimals.
fn num(v: Fx) -> String {
    if v.to_bits() & 0xFFFF_FFFF == 0 {
        v.round_int().to_string()
    } else {
        fx2(v)
    }
}

/// A tick length: `1/60` when it is one over a whole number, else with
/// two decimals.
fn dt_text(dt: Fx) -> String {
    if let Some(inv) = Fx::ONE.checked_div(dt) {
        let n = inv.round_int();
        if n > 1 && (dt.mul_int(i64::from(n)) - Fx::ONE).abs() < Fx::from_bits(1 << 8) {
            return format!("1/{n}");
        }
    }
    fx2(dt)
}

/// A boid's name, with its heading in the heading model.
fn named_with_heading(sim: &FlockSim, view: &View, id: u32) -> String {
    let name = boid_name(sim, view, id);
    match &sim.state().model {
        ModelState::Heading { heading } => {
            let deg = fx2(heading[id as usize].to_degrees());
            tr!(view.lang, F_NAME_HEADING, name, deg)
        }
        _ => name,
    }
}

fn clamp_text(c: &Clamp, lang: Lang) -> String {
    match c {
        Clamp::MaxChange(v) => tr!(lang, F_CLAMP_MAX_CHANGE, super::fx_near(*v, lang)),
        Clamp::MaxSpeed(v) => tr!(lang, F_CLAMP_MAX_SPEED, super::fx_near(*v, lang)),
        Clamp::MinSpeed(v) => tr!(lang, F_CLAMP_MIN_SPEED, super::fx_near(*v, lang)),
        Clamp::PushCapped(n) => tr!(lang, F_CLAMP_PUSH, n),
        Clamp::ListFull(n) => tr!(lang, F_CLAMP_LIST, n),
        Clamp::CoordLimit => tr!(lang, F_CLAMP_COORD).into(),
    }
}

/// A turn in degrees with its side: `120.0° left`, `22.5° right`.
fn turn_text(t: i64, lang: Lang) -> String {
    let tenths = (t as i128 * 3600 + (1 << 31)).div_euclid(1 << 32);
    let m = tenths.unsigned_abs();
    let deg = format!("{}.{}", m / 10, m % 10);
    match tenths.signum() {
        1 => tr!(lang, F_TURN_LEFT, deg),
        -1 => tr!(lang, F_TURN_RIGHT, deg),
        _ => format!("{deg}°"),
    }
}

fn steer_text(s: &Steer, d3: bool, lang: Lang) -> String {
    match s {
        Steer::Turn(t) => turn_text(*t, lang),
        Steer::Vector(v) if d3 => format!("({}, {}, {})", fx2(v.x), fx2(v.y), fx2(v.z)),
        Steer::Vector(v) => format!("({}, {})", fx2(v.x), fx2(v.y)),
    }
}

fn inspector(sim: &FlockSim, events: &[FlockEvent], ahead: bool, id: u32, view: &View) -> Panel {
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
fn weights_line(w: &crate::sim::flock::WeightedParams, lang: Lang) -> Option<String> {
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
type Namers<'a> = (
    &'a dyn Fn(u32) -> String,
    &'a dyn Fn(Rule) -> String,
    Option<String>,
);

/// What a boid saw and each rule's contribution, for the inspector:
/// `name` names a mate, `share` gives a rule's weight share, `away` how
/// far the nearest mate is now.
fn reasoning_lines(
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

/// The figures a pane's title gives for a flock: with `dt` (some pane's
/// dt varies), this tick's dt; for the aquarium, the pairs of fish closer
/// than 1; the first focused boid's heading (2-D) or speed, and the mates
/// it saw in the step shown.
pub(super) fn pane_figures(sim: &FlockSim, frame: &Frame, view: &View, dt: bool) -> Vec<String> {
    let mut out = Vec::new();
    let st = sim.state();
    let lang = view.lang;
    if dt {
        out.push(match (sim.config().dt_jitter == Fx::ZERO, st.tick) {
            (true, _) => tr!(lang, F_FIG_DT_FIXED, dt_text(st.dt)),
            (false, 0) => tr!(lang, F_FIG_DT_NONE).to_owned(),
            (false, _) => tr!(lang, F_FIG_DT, super::fx_places(st.dt, 4)),
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
fn outside_count(sim: &FlockSim) -> usize {
    sim.state()
        .boids
        .iter()
        .filter(|b| outside(sim, b.pos).is_some())
        .count()
}

/// How far `p` lies outside the box of a flock with walls (`None` inside,
/// or without walls).
fn outside(sim: &FlockSim, p: Vec3) -> Option<Fx> {
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
fn flock_figures(sim: &FlockSim, frame: &Frame, lang: Lang) -> Vec<String> {
    let st = sim.state();
    let n = st.boids.len() as i128;
    if n == 0 || n > 100_000 {
        return Vec::new();
    }
    if matches!(st.model, ModelState::Heading { .. }) {
        let super::Explain::Flock(events) = frame.explain else {
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
fn close_pairs(boids: &[crate::sim::flock::Boid]) -> Option<usize> {
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
fn boid_figure(sim: &FlockSim, frame: &Frame, view: &View) -> Option<Vec<String>> {
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
    if let super::Explain::Flock(events) = frame.explain
        && let Some(ex) = explain_of(events, id)
    {
        out.push(tr!(lang, F_FIG_SEES, ex.neighbours.len()));
    }
    Some(out)
}

/// A callout's figure (see [`crate::lesson::callout`]) for a flock: of
/// the whole flock (`world`), of a boid, or of an obstacle (what the
/// focused boid's feeler measured of it).
pub(super) fn callout_figure(
    sim: &FlockSim,
    frame: &Frame,
    view: &View,
    at: &str,
    key: &str,
) -> Option<String> {
    let st = sim.state();
    let events: &[FlockEvent] = match frame.explain {
        super::Explain::Flock(e) => e,
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
            "dt" => Some(super::fx_places(st.dt, 4)),
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
fn mean_speed(sim: &FlockSim) -> Fx {
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
fn spread(sim: &FlockSim) -> Fx {
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
fn boid_callout(
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
        Steer::Vector(v) => super::grouped(&fx2(v.fast_length())),
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
                Some(super::fx_near(*v, lang))
            }
            _ => None,
        }),
        _ => None,
    }
}

/// Where a flock callout points: a boid's or an obstacle's centre on
/// screen, with the radius of what is drawn there.
pub(super) fn callout_anchor(
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
