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

mod boids;
mod callouts;
mod panels;
mod proj;
mod rules;
use boids::*;
pub(in crate::scene) use callouts::*;
pub(in crate::scene) use panels::*;
use proj::*;
pub(in crate::scene) use rules::*;

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
    let c = Ctx {
        sim,
        proj: &proj,
        view,
        cam,
        events,
        grow,
    };
    let mut taken = kept_clear(&c, &focus, out);
    name_obstacles(sim, &proj, view, (cam.viewport, &mut taken), out);
    let framed = frame_highlighted(&c, &focus, &mut taken, out);
    mark_parted(&c, out);
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
    let r = framed_half(&c);
    for &(id, at) in &framed {
        // With its heading in the heading model (what the narration
        // compares).
        let text = named_with_heading(sim, view, id);
        if !super::on_screen(cam.viewport, at) {
            continue;
        }
        out.label_near(
            (at, r),
            (view.font(17), color::SELECTED),
            text,
            (cam.viewport, &mut taken),
        );
    }
    for &id in &focus {
        draw_focused(&c, id, &mut under, &mut taken, out);
    }
    draw_overlays_on_top(&c, frame, &focus, &mut taken, out);
    // What a callout keeps clear of: what the names kept clear of, and
    // every boid's glyph in a flock small enough to tell them apart.
    out.keep_clear.extend(taken);
    out.keep_clear.extend(out.avoid.clone());
    panels(sim, events, frame.ahead, &focus, view, out);
}

/// What the steps of [`build`] share.
struct Ctx<'a> {
    sim: &'a FlockSim,
    proj: &'a Proj,
    view: &'a View,
    cam: &'a Camera,
    events: &'a [FlockEvent],
    /// How much glyphs grow with the zoom, in percent.
    grow: i32,
}

/// What names keep off: the focused boids' glyphs (drawn large, on top)
/// and, with `wall_boids`, the wall boids' squares; and (in
/// `out.avoid`) every other glyph while there are few enough.
fn kept_clear(c: &Ctx, focus: &[u32], out: &mut Scene) -> Vec<[i32; 4]> {
    let (st, view, grow) = (c.sim.state(), c.view, c.grow);
    let mut taken: Vec<[i32; 4]> = focus
        .iter()
        .filter_map(|&id| c.proj.at(st.boids.get(id as usize)?.pos))
        .map(|(p, _)| {
            let s = view.px(28) * grow.min(125) / 100;
            [p[0] - s, p[1] - s, 2 * s, 2 * s]
        })
        .collect();
    // A name beside a wall boid's square reads as its.
    if view.on("wall_boids") {
        for &id in focus {
            if let Some(ex) = explain_of(c.events, id) {
                let half = wall_square_half(view) + 1;
                taken.extend(ex.wall_boids.iter().filter_map(|w| {
                    let (q, _) = c.proj.at(*w)?;
                    Some([q[0] - half, q[1] - half, 2 * half + 1, 2 * half + 1])
                }));
            }
        }
    }
    // The other glyphs, which names avoid while they have room.
    out.avoid.clear();
    if st.boids.len() <= AVOID_MAX {
        let g = view.px(9) * grow / 100;
        let glyphs = st.boids.iter().filter_map(|b| c.proj.at(b.pos));
        out.avoid
            .extend(glyphs.map(|(p, _)| [p[0] - g, p[1] - g, 2 * g, 2 * g]));
    }
    taken
}

/// Half the side of a highlighted boid's frame.
fn framed_half(c: &Ctx) -> i32 {
    c.view.px(15) * c.grow / 100
}

/// Two runs compared: the boids that differ from the other run, each in a
/// wide square of the comparison's own colour (a ring would read as a
/// mate seen), outside any frame of the beat's.
fn mark_parted(c: &Ctx, out: &mut Scene) {
    let st = c.sim.state();
    let r = framed_half(c) * 3 / 2;
    for id in super::ids_of(&c.view.parted, "boid") {
        let Some(b) = st.boids.get(id as usize) else {
            continue;
        };
        if let Some((p, _)) = c.proj.at(b.pos) {
            out.push(Shape::Frame {
                at: [p[0] - r, p[1] - r],
                size: [2 * r, 2 * r],
                width: c.view.lw(4, 3),
                color: color::PURPLE,
            });
        }
    }
}

/// Boids named in the narration, not inspected: framed (a square, not a
/// ring: rings are the mates a boid sees), the frames first so no name
/// lands in another's frame. Returns them with their places.
fn frame_highlighted(
    c: &Ctx,
    focus: &[u32],
    taken: &mut Vec<[i32; 4]>,
    out: &mut Scene,
) -> Vec<(u32, P)> {
    let st = c.sim.state();
    let n = st.boids.len() as u32;
    let r = framed_half(c);
    let framed: Vec<(u32, P)> = c
        .view
        .highlighted("boid")
        .into_iter()
        .filter(|&id| id < n && !focus.contains(&id))
        .filter_map(|id| Some((id, c.proj.at(st.boids[id as usize].pos)?.0)))
        .collect();
    for &(_, p) in &framed {
        out.push(Shape::Frame {
            at: [p[0] - r, p[1] - r],
            size: [2 * r, 2 * r],
            width: c.view.lw(3, 2),
            color: color::SELECTED,
        });
        taken.push([p[0] - r, p[1] - r, 2 * r, 2 * r]);
    }
    framed
}

/// A focused boid's glyph, moved under its reasoning (at `under`), its
/// outline over its arrows, and its name where no arrow points.
fn draw_focused(c: &Ctx, id: u32, under: &mut usize, taken: &mut Vec<[i32; 4]>, out: &mut Scene) {
    let (sim, view, grow) = (c.sim, c.view, c.grow);
    let Some((p, d)) = c.proj.at(sim.state().boids[id as usize].pos) else {
        return;
    };
    // Larger than the others, but in a close-up (zoom over 3) not
    // growing further, not to hide its own trail: never under the
    // others nor under the classroom's 24 px across.
    let zoom = c.cam.zoom.mul_int(100).round_int().max(300);
    let base = FOCUS_SIZE * i32::from(view.scale) / 100;
    let size = (base * grow.min(125) / 100 * 300 / zoom)
        .max(i32::from(view.scale) * grow / 100)
        .max(base);
    let n = out.count();
    let vel = Velocity::of(sim, view).map(Velocity::full);
    draw_glyph(
        sim,
        c.proj,
        vel.as_ref(),
        out,
        (id as usize, p, d.to_bits()),
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
    out.shapes.splice(*under..*under, drawn);
    *under += k;
    // Its outline over its arrows, which start at its centre and
    // would otherwise hide where it is.
    if let Some(t) = outline {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            out.line(a, b, view.lw(2, 2), color::SELECTED);
        }
    }
    // The name goes where no arrow of the boid points (none for a
    // boid the camera leaves out: it would look like its place).
    if super::on_screen(c.cam.viewport, p) {
        name_focused(c, id, p, taken, out);
    }
}

/// A focused boid's name, where none of its arrows points, tied to it by
/// a short line when it stands off.
fn name_focused(c: &Ctx, id: u32, p: P, taken: &mut Vec<[i32; 4]>, out: &mut Scene) {
    let (view, grow) = (c.view, c.grow);
    let name = boid_name(c.sim, view, id);
    let f = view.font(17);
    let dirs = arrow_dirs(c.sim, c.proj, (explain_of(c.events, id), id), view.px(110));
    let (w, h) = (super::text::width(&name, f), i32::from(f));
    let mid = label_spot(
        p,
        &dirs,
        (w, h),
        view.px(34) * grow.min(125) / 100,
        (c.cam.viewport, taken),
        &out.avoid,
    );
    let at = [mid[0] - w / 2, mid[1] + h / 3];
    let glyph = view.px(20) * grow.min(125) / 100;
    let near = [
        mid[0].clamp(at[0], at[0] + w),
        mid[1].clamp(at[1] - h, at[1]),
    ];
    let edge = [
        near[0].clamp(p[0] - glyph, p[0] + glyph),
        near[1].clamp(p[1] - glyph, p[1] + glyph),
    ];
    let (dx, dy) = (near[0] - edge[0], near[1] - edge[1]);
    if dx * dx + dy * dy > view.px(8).pow(2) {
        out.line(edge, near, view.lw(2, 2), color::SELECTED);
    }
    out.label_in(c.cam.viewport, at, f, color::SELECTED, name);
}

/// What goes over the boids: the focused fish's attitude, the trails'
/// heads, the wall boids' squares.
fn draw_overlays_on_top(
    c: &Ctx,
    frame: &Frame,
    focus: &[u32],
    taken: &mut Vec<[i32; 4]>,
    out: &mut Scene,
) {
    let view = c.view;
    if view.on("attitude") {
        let n = out.count();
        for &id in focus {
            draw_attitude(
                c.sim,
                c.proj,
                id,
                (view, c.grow),
                (c.cam.viewport, taken),
                out,
            );
        }
        out.credit("attitude", n);
    }
    if view.on("trails") && !frame.trail.is_empty() {
        let n = out.count();
        draw_trails(c.sim, c.proj, frame.trail, (view, true), out);
        out.credit("trails", n);
    }
    if view.on("wall_boids") {
        for &id in focus {
            if let Some(ex) = explain_of(c.events, id) {
                draw_wall_squares(c.proj, ex, view, out);
            }
        }
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
