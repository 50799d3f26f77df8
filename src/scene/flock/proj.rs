//! Where a flock is drawn: the flat map (2-D, y up) and the orbit camera around a 3-D tank, the world box, a glyph's corners.

use super::*;

/// World to screen for a flock: a plane map in 2-D, a perspective orbit
/// camera in 3-D.
pub(super) enum Proj {
    Flat(Map2),
    Orbit(Orbit),
}

pub(super) struct Orbit {
    pub(super) center: Vec3,
    /// 1 / the world's half-diagonal: points are normalised to about unit size.
    pub(super) inv_r: Fx,
    /// The camera's rotation (rows: screen x, screen up, depth).
    pub(super) rx: [Fx; 3],
    pub(super) ry: [Fx; 3],
    /// The rotation's rows scaled by `inv_r` (for points).
    pub(super) px: [Fx; 3],
    pub(super) py: [Fx; 3],
    pub(super) pz: [Fx; 3],
    pub(super) dist: Fx,
    /// Pixels per normalised unit at depth 1.
    pub(super) f: Fx,
    pub(super) c: P,
}

impl Orbit {
    pub(super) fn new(
        center: Vec3,
        inv_r: Fx,
        yaw: Angle,
        pitch: Angle,
        dist: Fx,
        f: Fx,
        c: P,
    ) -> Orbit {
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
    pub(super) fn project(&self, p: Vec3) -> Option<(P, Fx, Fx)> {
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
                crate::scene::px(self.c[0], x1.saturating_mul(k)),
                crate::scene::px(self.c[1], -y2.saturating_mul(k)),
            ],
            d,
            k.saturating_mul(self.inv_r),
        ))
    }

    /// A world vector turned into camera space: its on-screen x and y
    /// (y down), in world units, without perspective.
    #[inline]
    pub(super) fn rot(&self, v: Vec3) -> (Fx, Fx) {
        let x1 = v.x * self.rx[0] + v.z * self.rx[2];
        let y2 = v.x * self.ry[0] + v.y * self.ry[1] + v.z * self.ry[2];
        (x1, -y2)
    }

    /// Pixels per world unit at depth `d`.
    pub(super) fn scale_at(&self, d: Fx) -> Fx {
        self.f
            .checked_div(d)
            .unwrap_or(Fx::ONE)
            .saturating_mul(self.inv_r)
    }
}

impl Proj {
    pub(super) fn new(sim: &FlockSim, cam: &Camera) -> Proj {
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
    pub(super) fn at(&self, p: Vec3) -> Option<(P, Fx)> {
        self.at_scaled(p).map(|(c, d, _)| (c, d))
    }

    /// Screen point, depth and pixels per world unit there.
    #[inline]
    pub(super) fn at_scaled(&self, p: Vec3) -> Option<(P, Fx, Fx)> {
        match self {
            Proj::Flat(m) => Some((m.at(p.x, p.y), Fx::ONE, m.scale())),
            Proj::Orbit(o) => o.project(p),
        }
    }

    /// A world vector on screen, in world units, y down (see
    /// [`Orbit::rot`]; the flat map draws y up).
    #[inline]
    pub(super) fn rot(&self, v: Vec3) -> (Fx, Fx) {
        match self {
            Proj::Flat(_) => (v.x, -v.y),
            Proj::Orbit(o) => o.rot(v),
        }
    }

    /// Pixels per world unit near a point of depth `d`.
    pub(super) fn scale(&self, d: Fx) -> Fx {
        match self {
            Proj::Flat(m) => m.scale(),
            Proj::Orbit(o) => o.scale_at(d),
        }
    }

    /// A world length at depth `d` in pixels.
    pub(super) fn len(&self, l: Fx, d: Fx) -> i32 {
        l.saturating_mul(self.scale(d))
            .round_int()
            .clamp(0, crate::scene::FAR)
    }
}

/// The box drawn around the world: the configured one, except for open
/// bounds, where it is the box of the boids and obstacles too.
pub(super) fn world_box(sim: &FlockSim) -> (Vec3, Vec3) {
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
pub(super) fn facing(sim: &FlockSim, i: usize) -> Vec3 {
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
pub(super) fn glyph(c: P, dx: Fx, dy: Fx, size: i32) -> [P; 3] {
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
pub(super) fn unit2((x, y): (Fx, Fx)) -> (Fx, Fx) {
    let v = Vec3::new(x, y, Fx::ZERO);
    if v.is_zero() {
        (Fx::ZERO, -Fx::ONE)
    } else {
        let n = v.fast_normalize();
        (n.x, n.y)
    }
}
