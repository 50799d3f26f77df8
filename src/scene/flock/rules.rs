//! What a focused boid reasons: its view radius and field of view, its mates, feelers and wall boids, and each rule's arrow with their sum and the clamp.

use super::*;

/// The colour of a rule's arrow.
pub(in crate::scene) fn rule_color(r: Rule) -> Rgba {
    match r {
        Rule::Separation => color::VERMILLION,
        Rule::Alignment => color::BLUE,
        Rule::Cohesion => color::GREEN,
        Rule::Obstacle => color::ORANGE,
        Rule::Cruising => color::PURPLE,
    }
}

/// A rule's overlay (as lessons name it).
pub(super) fn rule_name(r: Rule) -> &'static str {
    r.name()
}

/// A rule's name in words.
pub(super) fn rule_words(r: Rule, lang: Lang) -> String {
    match r {
        Rule::Separation => tr!(lang, F_RULE_SEPARATION),
        Rule::Alignment => tr!(lang, F_RULE_ALIGNMENT),
        Rule::Cohesion => tr!(lang, F_RULE_COHESION),
        Rule::Obstacle => tr!(lang, F_RULE_OBSTACLE),
        Rule::Cruising => tr!(lang, F_RULE_CRUISING),
    }
    .to_owned()
}

/// The shade of a blind zone.
pub(super) const BLIND: Rgba = Rgba(140, 144, 156, 70);

/// Rotates a unit direction by a turn in binary-angle units: in the x–y
/// plane (2-D), or around the vertical axis (3-D, fish swim mostly level).
pub(super) fn turned(dir: Vec3, turn: i64, d3: bool) -> Vec3 {
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
pub(super) fn draw_view(
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
        let half = crate::scene::text::width(blind, f) / 2;
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
pub(super) fn draw_reasoning(
    sim: &FlockSim,
    proj: &Proj,
    (events, ahead): (&[FlockEvent], bool),
    (id, first): (u32, bool),
    (view, grow): (&View, i32),
    (vp, taken): (crate::scene::Viewport, &mut Vec<[i32; 4]>),
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
pub(super) fn draw_mates(
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
pub(super) fn name_mates(
    sim: &FlockSim,
    names: &[(u32, P, Rgba)],
    (view, grow): (&View, i32),
    (vp, taken): (crate::scene::Viewport, &mut Vec<[i32; 4]>),
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
        .filter(|n| crate::scene::on_screen(vp, n.1) && !named(n.0))
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
pub(super) fn wall_square_half(view: &View) -> i32 {
    view.px(5).max(4)
}

/// The wall boids as squares with a dark edge, drawn after the glyphs: a
/// wall boid right under its boid still shows.
pub(super) fn draw_wall_squares(proj: &Proj, ex: &BoidExplain, view: &View, out: &mut Scene) {
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
pub(super) fn draw_feelers(
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
pub(super) fn draw_rules(
    sim: &FlockSim,
    proj: &Proj,
    ex: &BoidExplain,
    (c, dir): (P, Vec3),
    (view, grow): (&View, i32),
    (vp, taken): (crate::scene::Viewport, &mut Vec<[i32; 4]>),
    out: &mut Scene,
) {
    if ex.rules.is_empty() {
        // Withheld: the coming step is a question's answer.
        return;
    }
    // The weighted model's rules drawn as their shares of the steering
    // (w/Σw times the rule), so the arrows add up to the steering arrow.
    let rules = shares(sim, ex);
    let mut arrows = RuleArrows {
        proj,
        view,
        grow,
        longest: view.rule_scale.unwrap_or_else(|| longest_rule(ex, &rules)),
        full: 0,
        at: (c, dir),
        d3: sim.config().dims == 3,
    };
    let vectors: Vec<Steer> = rules.iter().map(|r| r.1).chain([ex.steering]).collect();
    arrows.full = arrows.full_length(&vectors, vp);
    let hl_rules: Vec<&str> = view
        .highlight
        .iter()
        .filter_map(|h| h.strip_prefix("rule:"))
        .collect();
    // The steering first, under the rules and wider: where one rule is
    // the whole steering, its colour shows on top with a white edge.
    if view.on("steering") {
        let n = out.count();
        let strong = hl_rules.contains(&"steering");
        let wide = view.px(4);
        arrows.draw(out, taken, ex.steering, color::TEXT, (0, wide), strong);
        out.credit("steering", n);
    }
    // Last rule first: turns of about the same size are drawn longer for
    // later rules (see `RuleArrows::draw`), so the shorter ones end up on
    // top.
    for (k, (rule, s)) in rules.iter().enumerate().rev() {
        let name = rule_name(*rule);
        if view.on(name) {
            let n = out.count();
            let (col, strong) = (rule_color(*rule), hl_rules.contains(&name));
            arrows.draw(out, taken, *s, col, (k as i32 + 1, 0), strong);
            out.credit(name, n);
        }
    }
}

/// How a boid's rule arrows are drawn: on one scale, from its centre.
struct RuleArrows<'a> {
    proj: &'a Proj,
    view: &'a View,
    /// How much glyphs grow with the zoom, in percent.
    grow: i32,
    /// The longest vector's length (the scale).
    longest: Fx,
    /// The pixels the longest vector is drawn at.
    full: i32,
    /// The boid's centre on screen and its direction.
    at: (P, Vec3),
    d3: bool,
}

impl RuleArrows<'_> {
    fn long(&self, n: i32) -> i32 {
        self.view.px(n) * self.grow / 100
    }

    /// The vector as it lies across the screen (in 3-D, its length
    /// foreshortened like the world's), so the arrows add up on screen as
    /// the vectors do: its direction and length at `full` pixels for the
    /// longest.
    fn across(&self, v: Vec3, full: i32) -> ((Fx, Fx), i32) {
        let (sx, sy) = self.proj.rot(v);
        let across = Vec3::new(sx, sy, Fx::ZERO).fast_length();
        let frac = across.checked_div(self.longest).unwrap_or(Fx::ONE);
        let len = frac.mul_int(i64::from(full)).round_int().max(self.long(18));
        let dir = if across == Fx::ZERO {
            unit2(self.proj.rot(v.fast_normalize()))
        } else {
            (
                sx.checked_div(across).unwrap_or(Fx::ZERO),
                sy.checked_div(across).unwrap_or(Fx::ZERO),
            )
        };
        (dir, len)
    }

    /// The longest `long(90)` pixels, or less where that would run an
    /// arrow out of the pane (all shorter alike: they still add up).
    fn full_length(&self, vectors: &[Steer], vp: crate::scene::Viewport) -> i32 {
        let c = self.at.0;
        vectors
            .iter()
            .filter_map(|s| match *s {
                Steer::Vector(v) if !v.is_zero() && self.longest > Fx::ZERO => {
                    Some(self.across(v, self.long(90)))
                }
                _ => None,
            })
            .map(|(d, len)| self.long(90) * room(vp, c, d, self.view.px(6)) / len.max(1))
            .fold(self.long(90), i32::min)
            .max(self.long(30))
    }

    /// One arrow. `k`: its place in the drawing order; turns of about the
    /// same size get lengths a little apart, so neither hides the other.
    /// `wide`: extra pixels of width, a halo for the arrow drawn under the
    /// others.
    fn draw(
        &self,
        out: &mut Scene,
        taken: &mut Vec<[i32; 4]>,
        s: Steer,
        col: Rgba,
        (k, wide): (i32, i32),
        strong: bool,
    ) {
        let (view, (c, dir)) = (self.view, self.at);
        let w = view.lw(if strong { 6 } else { 4 }, 3) + wide as u16;
        let head = view.px(if strong { 16 } else { 13 }).max(10) + 2 * wide;
        let len = match s {
            Steer::Vector(v) if !v.is_zero() && self.longest > Fx::ZERO => {
                Some(self.across(v, self.full))
            }
            Steer::Turn(t) if t != 0 => {
                // The new direction, at its true angle (up to half a
                // turn), longer for larger turns.
                let deg = ((t.unsigned_abs() as u128 * 360) >> 32) as i32;
                let shown = t.clamp(-(1i64 << 31), 1i64 << 31);
                let len = self.long(40 + deg.min(180) / 3 + 9 * k);
                Some((unit2(self.proj.rot(turned(dir, shown, self.d3))), len))
            }
            _ => None,
        };
        let Some(((dx, dy), len)) = len else {
            return;
        };
        let e = [
            c[0] + dx.mul_int(len.into()).round_int(),
            c[1] + dy.mul_int(len.into()).round_int(),
        ];
        out.arrow(c, e, w, head, col);
        crate::scene::keep_clear(taken, c, e, i32::from(w) / 2 + 3);
        if let Steer::Turn(t) = s {
            let shown = t.clamp(-(1i64 << 31), 1i64 << 31);
            sweep(
                out,
                self.proj,
                c,
                dir,
                shown,
                len * 6 / 10,
                view,
                col,
                self.d3,
            );
        }
    }
}

/// A boid's rules as drawn: the weighted model's as their shares of the
/// steering (w/Σw times the rule), so the arrows add up to the steering.
pub(super) fn shares(sim: &FlockSim, ex: &BoidExplain) -> Vec<(Rule, Steer)> {
    ex.rules
        .iter()
        .map(|&(r, s)| match (share(sim, r), s) {
            (Some(w), Steer::Vector(v)) => (r, Steer::Vector(v * w)),
            _ => (r, s),
        })
        .collect()
}

/// The longest of a boid's rule shares and steering, in world units.
pub(super) fn longest_rule(ex: &BoidExplain, rules: &[(Rule, Steer)]) -> Fx {
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
pub(in crate::scene) fn pane_rule_scale(sim: &FlockSim, frame: &Frame, view: &View) -> Option<Fx> {
    let crate::scene::Explain::Flock(events) = frame.explain else {
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
pub(super) fn room(vp: crate::scene::Viewport, c: P, (dx, dy): (Fx, Fx), margin: i32) -> i32 {
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
pub(super) fn separation(sim: &FlockSim, a: Vec3, b: Vec3) -> Fx {
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
pub(super) fn share(sim: &FlockSim, r: Rule) -> Option<Fx> {
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
pub(super) fn sweep(
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
