//! The weighted model (article 004, a Unity demo): three averaged rules
//! combined with weights 5 : 2 : 1, walls as virtual boids.
//!
//! Each tick every boid first integrates the acceleration its rules gave
//! last tick: `Δpos = v·dt + ½·a·dt²`, `v += a·dt`, the speed is clamped
//! to `[min_speed, max_speed]` (a zero velocity stays zero), `pos += Δpos`.
//! Then, from the moved flock, neighbours are the other boids within `fov`
//! (inclusive, distance only), and:
//! - **rule 1, separation**: the mean over neighbours *and virtual boids*
//!   of `−unit(diff) · strength / |diff|²`. With `bounds = "walls"` each
//!   wall within `fov` (signed distance, so a boid already outside still
//!   counts — and is pushed further out, the demo's quirk) puts a virtual
//!   boid at the foot of the perpendicular; each obstacle within `fov` of
//!   its surface puts one at the nearest surface point. As in the article,
//!   nothing floors the distance, except where the push would overflow:
//!   below [`WeightedParams::push_floor`] (where `strength / d²` reaches
//!   10⁶: 0.0032 for the article's strength) the push stops growing. The
//!   article's floats reach infinity there, and exactly on top of another
//!   boid 0 · ∞ = NaN; here a boid exactly on top adds nothing. The
//!   `min_distance` switch (not in the article) raises the floor.
//! - **rule 2, alignment**: mean neighbour velocity − own velocity;
//! - **rule 3, cohesion**: mean neighbour position − own position (summed
//!   as relative positions, so the sum cannot overflow).
//!
//! `acc = (w₁·r₁ + w₂·r₂ + w₃·r₃) / (w₁ + w₂ + w₃)`, kept for the next tick
//! (computed with the weights pre-divided by their sum).
//! The demo used Unity's frame time as `dt`; here `dt` is fixed (default
//! 1/60 s) unless a lesson makes it jitter to show what that breaks.

use super::grid::radius2_q32;
use super::{
    BoidExplain, Bounds, Clamp, Divider, FlockSim, Model, ModelState, Rule, Steer, Update, mean,
    raw, unraw,
};
use crate::num::rsqrt::inv_sqrt_wide;
use crate::num::wide::{mul_i64, mul_u64};
use crate::num::{Fx, Vec3};
use crate::sim::SimError;

/// Parameters of the weighted model; defaults are article 004's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedParams {
    /// Neighbour distance (`BoidFOV = 5`).
    pub fov: Fx,
    /// Separation strength (the `10.0` in rule 1).
    pub strength: Fx,
    /// Separation distances below this count as this: a switch, not in
    /// the article (0, the default, is the article: no floor but the cap
    /// of [`MAX_PUSH`]; else 0.001–10,000).
    pub min_distance: Fx,
    /// Weight of rule 1 (`Rule1Factor = 5`).
    pub w_separation: Fx,
    /// Weight of rule 2 (`Rule2Factor = 2`).
    pub w_alignment: Fx,
    /// Weight of rule 3 (`Rule3Factor = 1`).
    pub w_cohesion: Fx,
    /// Slowest speed (`BoidMinV = 2`).
    pub min_speed: Fx,
    /// Fastest speed (`BoidMaxV = 5`).
    pub max_speed: Fx,
}

impl Default for WeightedParams {
    fn default() -> WeightedParams {
        WeightedParams {
            fov: Fx::from_int(5),
            strength: Fx::from_int(10),
            min_distance: Fx::ZERO,
            w_separation: Fx::from_int(5),
            w_alignment: Fx::from_int(2),
            w_cohesion: Fx::ONE,
            min_speed: Fx::from_int(2),
            max_speed: Fx::from_int(5),
        }
    }
}

/// The largest separation push a mate or wall gives, in units of
/// acceleration: the article's `strength / d²` grows without bound as `d`
/// shrinks (its floats reach infinity at 0), so below the distance where it
/// reaches this it stops growing. Keeps every acceleration, and every
/// `½·a·dt²`, far from the fixed-point limit.
pub const MAX_PUSH: i64 = 1_000_000;

impl WeightedParams {
    /// The distance below which a mate's push stops growing: the
    /// `min_distance` switch when set, else where `strength / d²` reaches
    /// [`MAX_PUSH`] (√(strength / 10⁶): 0.0032 for the article's 10), and
    /// never below 0.001.
    pub fn push_floor(&self) -> Fx {
        // strength / d² ≤ 10⁶ in bits is d_bits² · 10⁶ ≥ strength_bits · 2³²:
        // the smallest such d_bits.
        let need = ((self.strength.to_bits().max(0) as u128) << 32).div_ceil(MAX_PUSH as u128);
        let mut d = need.isqrt();
        if d * d < need {
            d += 1;
        }
        Fx::from_bits(d as i64)
            .max(self.min_distance)
            .max(super::MIN_LENGTH)
    }

    /// Checks the parameters against their documented ranges.
    pub fn check(&self) -> Result<(), SimError> {
        self.check_text().map_err(SimError::config)
    }

    fn check_text(&self) -> Result<(), String> {
        let r = Fx::from_int(super::MAX_RADIUS);
        if self.fov <= Fx::ZERO || self.fov > r {
            return Err(format!("fov must be in (0, {}]", super::MAX_RADIUS));
        }
        if self.min_distance != Fx::ZERO
            && (self.min_distance < super::MIN_LENGTH || self.min_distance > r)
        {
            return Err(format!(
                "min_distance must be 0 (none, the article) or in 0.001..={}",
                super::MAX_RADIUS
            ));
        }
        if self.strength < Fx::ZERO || self.strength > Fx::from_int(MAX_PUSH as i32) {
            return Err(format!("strength must be in 0..={MAX_PUSH}"));
        }
        let hundred = Fx::from_int(100);
        for (name, w) in [
            ("w_separation", self.w_separation),
            ("w_alignment", self.w_alignment),
            ("w_cohesion", self.w_cohesion),
        ] {
            if w < Fx::ZERO || w > hundred {
                return Err(format!("{name} must be in 0..=100"));
            }
        }
        if self.w_separation + self.w_alignment + self.w_cohesion == Fx::ZERO {
            return Err("at least one weight must be positive".into());
        }
        let s = Fx::from_int(super::MAX_SPEED);
        if self.min_speed < Fx::ZERO || self.min_speed > self.max_speed || self.max_speed > s {
            return Err(format!(
                "speeds must satisfy 0 ≤ min_speed ≤ max_speed ≤ {}",
                super::MAX_SPEED
            ));
        }
        Ok(())
    }
}

/// `Δpos = v·dt + ½·a·dt²`, `v += a·dt`, speed clamp; returns the new
/// position (unbounded), the new velocity and the clamp that fired.
#[inline]
fn integrate(
    pos: Vec3,
    vel: Vec3,
    acc: Vec3,
    dt: Fx,
    half_dt2: Fx,
    p: &WeightedParams,
) -> (Vec3, Vec3, Option<Clamp>) {
    let dpos = vel * dt + acc * half_dt2;
    let mut v = vel + acc * dt;
    let s = v.fast_length();
    let mut clamp = None;
    if s != Fx::ZERO {
        if s < p.min_speed {
            v = v.fast_with_length(p.min_speed);
            clamp = Some(Clamp::MinSpeed(s));
        } else if s > p.max_speed {
            v = v.fast_with_length(p.max_speed);
            clamp = Some(Clamp::MaxSpeed(s));
        }
    }
    (pos + dpos, v, clamp)
}

/// `1/|d|` as raw fixed-point bits, for `d2 = |d|²` exact at scale 2⁶⁴.
#[inline(always)]
fn inv_len(d2: u128) -> i128 {
    let (y, s) = inv_sqrt_wide(d2);
    // 1/√d2 = y·2⁻ˢ at scale 2⁻³² of the length, so 1/|d| = y·2^(64−s)
    // raw bits at scale 2³² (at most 2⁶⁵ for the smallest non-zero d2).
    let sh = s - 64;
    if sh >= 0 {
        (y >> sh) as i128
    } else {
        (y as i128) << (-sh)
    }
}

/// `|d|²` exact, at scale 2⁶⁴ (offsets below 2⁵³ raw, so no overflow).
#[inline(always)]
fn len2_wide(d: [i64; 3]) -> u128 {
    d.iter()
        .map(|&c| mul_u64(c.unsigned_abs(), c.unsigned_abs()))
        .sum()
}

/// `c · x / 2³²` rounded towards zero, so that `scale(−x) = −scale(x)`:
/// the separation term of a pair is then exactly the negation of the
/// term of the reversed pair, which lets a pair be evaluated once.
#[inline(always)]
fn scale(x: i64, c: u128) -> i64 {
    // The coefficient fits 64 bits but in the rare clamped case.
    let m = match u64::try_from(c) {
        Ok(c) => (mul_u64(x.unsigned_abs(), c) >> 32) as i64,
        Err(_) => ((x.unsigned_abs() as u128 * c) >> 32) as i64,
    };
    if x < 0 { -m } else { m }
}

/// The separation term `−unit(diff) · strength / max(|diff|, min)²` (raw),
/// and whether the minimum distance applied. The distance is exact (the
/// Q16 metric only decides who is a neighbour). Antisymmetric: `term(−diff) = −term(diff)` exactly.
///
/// Unclamped, the term is `−diff · (strength / |d|³)`: one coefficient per
/// pair and one widening multiply per axis. Every intermediate fits its
/// type because `|d| ≥ push_floor ≥ 0.001` and `strength / push_floor² ≤ 10⁶`
/// (so the coefficient is at most 10⁹ at scale 2³², and each term at most
/// 10⁶ units).
#[inline(always)]
fn separation<const DIMS: usize>(
    diff: [i64; 3],
    min2: u128,
    strength: i64,
    inv_min: i128,
) -> ([i64; 3], bool) {
    let mut t = [0i64; 3];
    let d2 = len2_wide(diff);
    if d2 == 0 {
        return (t, true);
    }
    let inv = inv_len(d2);
    if d2 < min2 {
        // Closer than min_distance: the direction from the true distance,
        // the magnitude from min_distance. Rare, so all in 128 bits.
        let mag = ((strength as i128 * ((inv_min * inv_min) >> 32)) >> 32) as u128;
        for a in 0..DIMS {
            let unit = scale(diff[a], inv as u128);
            t[a] = -scale(unit, mag);
        }
        return (t, true);
    }
    let inv = inv as i64; // ≤ 1 / push_floor ≤ 1000
    let inv2 = (mul_i64(inv, inv) >> 32) as i64;
    let mag = (mul_i64(strength, inv2) >> 32) as i64;
    let coef = (mul_i64(mag, inv) >> 32) as u128;
    for a in 0..DIMS {
        t[a] = -scale(diff[a], coef);
    }
    (t, false)
}

#[inline(always)]
fn add3(sum: &mut [i128; 3], t: [i64; 3]) {
    for a in 0..3 {
        sum[a] += t[a] as i128;
    }
}

/// Whether `n` terms of every kind fit a 64-bit sum, so the pair pass may
/// accumulate in `i64` (it is exact either way; this only picks storage).
fn sums_fit_i64(n: usize, p: &WeightedParams) -> bool {
    let term =
        ((p.strength.to_bits() as u128) << 64) / ((p.push_floor().to_bits() as u128).pow(2)).max(1);
    let largest = term
        .max(p.max_speed.to_bits() as u128)
        .max(p.fov.to_bits() as u128);
    (n as u128 + 1) * largest < (i64::MAX as u128)
}

pub(super) fn step<const TRACE: bool, const D3: bool>(
    sim: &mut FlockSim,
    dt: Fx,
    explains: &mut [Option<BoidExplain>],
) {
    let dims: usize = if D3 { 3 } else { 2 };
    let Model::Weighted(p) = &sim.cfg.model else {
        unreachable!("weighted::step runs the weighted model")
    };
    let ModelState::Weighted { acc } = &mut sim.state.model else {
        unreachable!("the weighted model keeps accelerations")
    };
    let in_place = sim.cfg.update == Update::InPlace;
    let brute = in_place || sim.cfg.search == super::Search::Brute;
    let half_dt2 = dt * dt / Fx::from_int(2);
    let mut pre_clamps: Vec<(Option<Clamp>, bool)> = Vec::new();
    let radius = p.fov.to_bits();
    // Integrate last tick's acceleration — everyone first, while the
    // snapshot is built, unless updating in place, where each boid moves
    // just before it looks.
    let cfg = &sim.cfg;
    let old_acc = &*acc;
    sim.snap.rebuild(
        &mut sim.state.boids,
        |i, b| {
            if in_place {
                return;
            }
            let (np, nv, c) = integrate(b.pos, b.vel, old_acc[i], dt, half_dt2, p);
            let (np, lim) = FlockSim::bound(cfg, np);
            b.pos = np;
            b.vel = nv;
            if TRACE {
                pre_clamps.push((c, lim));
            }
        },
        None,
        sim.cfg.world_min,
        sim.cfg.world_max,
        radius,
        brute,
        D3,
    );
    let snap = &mut sim.snap;
    let fov2 = radius2_q32(p.fov);
    let min2 = (p.push_floor().to_bits() as u128).pow(2);
    let inv_min = inv_len(min2);
    let strength = p.strength.to_bits();
    let walls = sim.cfg.bounds == Bounds::Walls;
    let wmin = raw(sim.cfg.world_min);
    let wmax = raw(sim.cfg.world_max);
    // The weights divided by their sum once, so the weighted mean is three
    // multiplications per boid: (w₁·r₁ + w₂·r₂ + w₃·r₃) / (w₁ + w₂ + w₃)
    // computed as r₁·(w₁/Σ) + r₂·(w₂/Σ) + r₃·(w₃/Σ).
    let wsum = p.w_separation + p.w_alignment + p.w_cohesion;
    let (w1, w2, w3) = (
        p.w_separation / wsum,
        p.w_alignment / wsum,
        p.w_cohesion / wsum,
    );
    // Untraced double-buffered ticks meet each pair once and add its terms
    // to both boids (the separation term is exactly antisymmetric, the other
    // sums trivially so); traced and in-place ticks query boid by boid.
    // Both give the same exact integer sums, so the same result.
    let n = snap.len();
    let pairwise = !TRACE && !in_place && sums_fit_i64(n, p);
    if pairwise {
        let (pn, pv, pp) = (&mut sim.pair_n, &mut sim.pair_v, &mut sim.pair_p);
        pn.clear();
        pn.resize(n, 0);
        pv.clear();
        pv.resize(n, [0; 3]);
        pp.clear();
        pp.resize(n, [0; 3]);
        // The accelerations were integrated above, so until the new ones
        // are written the array is free: slot k holds the separation sum of
        // snapshot index k (raw), next to its neighbours' slots in memory.
        acc.fill(Vec3::ZERO);
        let sn = &*snap;
        sn.for_each_pair::<D3>(fov2, |k, m, dx, dy, dz, _| {
            pn[k] += 1;
            pn[m] += 1;
            for (a, (vk, vm)) in [
                (sn.vx[k], sn.vx[m]),
                (sn.vy[k], sn.vy[m]),
                (sn.vz[k], sn.vz[m]),
            ]
            .into_iter()
            .enumerate()
            {
                pv[k][a] += vm;
                pv[m][a] += vk;
            }
            let d = [dx, dy, dz];
            for a in 0..3 {
                pp[k][a] += d[a];
                pp[m][a] -= d[a];
            }
            let (t, _) = if D3 {
                separation::<3>(d, min2, strength, inv_min)
            } else {
                separation::<2>(d, min2, strength, inv_min)
            };
            let t = unraw(t);
            acc[k] += t;
            acc[m] -= t;
        });
    }
    for k in 0..n {
        let id = snap.id[k] as usize;
        let mut ex = if TRACE {
            Some(BoidExplain::new(id as u32))
        } else {
            None
        };
        if in_place {
            let (np, nv, c) = integrate(
                unraw([snap.x[k], snap.y[k], snap.z[k]]),
                unraw([snap.vx[k], snap.vy[k], snap.vz[k]]),
                acc[id],
                dt,
                half_dt2,
                p,
            );
            let (np, lim) = FlockSim::bound(&sim.cfg, np);
            let (r, v) = (raw(np), raw(nv));
            (snap.x[k], snap.y[k], snap.z[k]) = (r[0], r[1], r[2]);
            (snap.vx[k], snap.vy[k], snap.vz[k]) = (v[0], v[1], v[2]);
            sim.state.boids[id] = super::Boid { pos: np, vel: nv };
            if TRACE {
                let e = ex.as_mut().expect("tracing");
                e.clamps.extend(c);
                e.clamps.extend(lim.then_some(Clamp::CoordLimit));
            }
        } else if TRACE {
            let (c, lim) = pre_clamps[id];
            let e = ex.as_mut().expect("tracing");
            e.clamps.extend(c);
            e.clamps.extend(lim.then_some(Clamp::CoordLimit));
        }
        let pr = [snap.x[k], snap.y[k], snap.z[k]];
        let mut sep = [0i128; 3];
        let mut vsum = [0i128; 3];
        let mut psum = [0i128; 3];
        let mut real = 0u32;
        let mut near_min = 0u32;
        let mut nearest = (u64::MAX, u32::MAX);
        if pairwise {
            real = sim.pair_n[k];
            let (v, q, t) = (sim.pair_v[k], sim.pair_p[k], raw(acc[k]));
            vsum = [v[0] as i128, v[1] as i128, v[2] as i128];
            psum = [q[0] as i128, q[1] as i128, q[2] as i128];
            sep = [t[0] as i128, t[1] as i128, t[2] as i128];
        } else {
            snap.for_each_within::<D3>(k, pr, fov2, |m, dx, dy, dz, d2| {
                real += 1;
                vsum[0] += snap.vx[m] as i128;
                vsum[1] += snap.vy[m] as i128;
                psum[0] += dx as i128;
                psum[1] += dy as i128;
                if D3 {
                    vsum[2] += snap.vz[m] as i128;
                    psum[2] += dz as i128;
                }
                let (t, c) = if D3 {
                    separation::<3>([dx, dy, dz], min2, strength, inv_min)
                } else {
                    separation::<2>([dx, dy, 0], min2, strength, inv_min)
                };
                add3(&mut sep, t);
                if c {
                    near_min += 1;
                }
                if TRACE {
                    ex.as_mut().expect("tracing").neighbours.push(snap.id[m]);
                    if (d2, snap.id[m]) < nearest {
                        nearest = (d2, snap.id[m]);
                    }
                }
            });
        }
        let mut virt = 0u32;
        let mut add_virtual =
            |diff: [i64; 3], sep: &mut [i128; 3], ex: &mut Option<BoidExplain>| {
                let (t, c) = if D3 {
                    separation::<3>(diff, min2, strength, inv_min)
                } else {
                    separation::<2>(diff, min2, strength, inv_min)
                };
                add3(sep, t);
                virt += 1;
                if c {
                    near_min += 1;
                }
                if TRACE {
                    let at = unraw([pr[0] + diff[0], pr[1] + diff[1], pr[2] + diff[2]]);
                    ex.as_mut().expect("tracing").wall_boids.push(at);
                }
            };
        if walls {
            for a in 0..dims {
                // Signed distances to the low and the high wall on axis a.
                for (d, toward) in [(pr[a] - wmin[a], -1i64), (wmax[a] - pr[a], 1)] {
                    if d <= radius {
                        let mut diff = [0i64; 3];
                        diff[a] = toward * d;
                        add_virtual(diff, &mut sep, &mut ex);
                    }
                }
            }
        }
        for o in &sim.cfg.obstacles {
            let c = raw(o.center);
            let off = unraw([
                pr[0] - c[0],
                pr[1] - c[1],
                if D3 { pr[2] - c[2] } else { 0 },
            ]);
            let dist = off.fast_length();
            if dist == Fx::ZERO || dist - o.radius > p.fov {
                continue;
            }
            // The nearest surface point: centre + off · radius / dist.
            let foot = raw(off.fast_with_length(o.radius));
            let diff = [
                c[0] + foot[0] - pr[0],
                c[1] + foot[1] - pr[1],
                if D3 { c[2] + foot[2] - pr[2] } else { 0 },
            ];
            add_virtual(diff, &mut sep, &mut ex);
        }
        let own_v = unraw([snap.vx[k], snap.vy[k], snap.vz[k]]);
        let r1 = if real + virt > 0 {
            mean(sep, real + virt)
        } else {
            Vec3::ZERO
        };
        let (r2, r3) = if real > 0 {
            let by = Divider::new(real);
            (by.vec(vsum) - own_v, by.vec(psum))
        } else {
            (Vec3::ZERO, Vec3::ZERO)
        };
        let a = r1 * w1 + r2 * w2 + r3 * w3;
        if pairwise {
            // Slot `id` may still hold a sum not yet read: park the result
            // in the consumed offset sum, and move it after the loop.
            sim.pair_p[k] = raw(a);
        } else {
            acc[id] = a;
        }
        if TRACE {
            let mut e = ex.take().expect("tracing");
            e.neighbours.sort_unstable();
            e.nearest = (nearest.1 != u32::MAX).then_some(nearest.1);
            e.rules.push((Rule::Separation, Steer::Vector(r1)));
            e.rules.push((Rule::Alignment, Steer::Vector(r2)));
            e.rules.push((Rule::Cohesion, Steer::Vector(r3)));
            if near_min > 0 {
                e.clamps.push(Clamp::PushCapped(near_min));
            }
            e.steering = Steer::Vector(a);
            explains[id] = Some(e);
        }
    }
    if pairwise {
        for (k, &id) in snap.id.iter().enumerate() {
            acc[id as usize] = unraw(sim.pair_p[k]);
        }
    }
}
