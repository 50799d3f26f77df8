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

use super::grid::{Runs, Snapshot, radius2_q32};
use super::{
    Boid, BoidExplain, Bounds, Clamp, Divider, FlockConfig, FlockSim, Model, ModelState, Obstacle,
    Rule, Steer, Update, mean, raw, unraw,
};
use crate::num::rsqrt::inv_sqrt_wide;
use crate::num::wide::mul_u64;
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
    // The speed and the direction from one reciprocal square root.
    let (s, unit) = v.fast_length_and_unit();
    let mut clamp = None;
    if s != Fx::ZERO {
        if s < p.min_speed {
            v = unit * p.min_speed;
            clamp = Some(Clamp::MinSpeed(s));
        } else if s > p.max_speed {
            v = unit * p.max_speed;
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
    // The sign without a branch (offsets' signs are unpredictable):
    // m when x ≥ 0, −m when x < 0.
    let sign = x >> 63;
    (m ^ sign).wrapping_sub(sign)
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
    // Every factor is ≥ 0 (strength is checked so), so the products are
    // the magnitudes' (no sign to handle: cheaper in the web build).
    let inv = inv as u64; // ≤ 1 / push_floor ≤ 1000
    let inv2 = (mul_u64(inv, inv) >> 32) as u64;
    let mag = (mul_u64(strength as u64, inv2) >> 32) as u64;
    let coef = mul_u64(mag, inv) >> 32;
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

/// The largest term of any kind a mate adds to a sum, in raw bits: a push
/// of `strength / push_floor²`, a velocity of `max_speed`, an offset of
/// `fov`.
fn largest_term(p: &WeightedParams) -> u128 {
    let push =
        ((p.strength.to_bits() as u128) << 64) / ((p.push_floor().to_bits() as u128).pow(2)).max(1);
    push.max(p.max_speed.to_bits() as u128)
        .max(p.fov.to_bits() as u128)
        .max(1)
}

/// The most mates whose terms of every kind ([`largest_term`]) are sure to
/// sum inside `i64`, with room to spare for the neighbour metric's
/// rounding. The pair pass adds in wrapping `i64`; a boid with at most
/// this many mates has its exact sums, and one with more (thousands, at
/// the article's strength) is summed again by its own query, in `i128`.
fn mates_summed_in_i64(p: &WeightedParams) -> u32 {
    let most = (i64::MAX as u128 / largest_term(p)).saturating_sub(1);
    u32::try_from(most).unwrap_or(u32::MAX)
}

/// What every boid's rules share in one tick, in raw bits: the radius,
/// the separation constants, the walls, the obstacles and the weights
/// divided by their sum (so the weighted mean is three multiplications per
/// boid: (w₁·r₁ + w₂·r₂ + w₃·r₃) / (w₁ + w₂ + w₃) computed as
/// r₁·(w₁/Σ) + r₂·(w₂/Σ) + r₃·(w₃/Σ)).
struct Shared<'a> {
    p: &'a WeightedParams,
    obstacles: &'a [Obstacle],
    radius: i64,
    fov2: u64,
    min2: u128,
    inv_min: i128,
    strength: i64,
    /// The world box's low and high corners when its sides are walls.
    walls: Option<([i64; 3], [i64; 3])>,
    weights: [Fx; 3],
    /// [`mates_summed_in_i64`].
    most: u32,
}

impl<'a> Shared<'a> {
    fn new(cfg: &'a FlockConfig, p: &'a WeightedParams) -> Shared<'a> {
        let min2 = (p.push_floor().to_bits() as u128).pow(2);
        let wsum = p.w_separation + p.w_alignment + p.w_cohesion;
        Shared {
            p,
            obstacles: &cfg.obstacles,
            radius: p.fov.to_bits(),
            fov2: radius2_q32(p.fov),
            min2,
            inv_min: inv_len(min2),
            strength: p.strength.to_bits(),
            walls: (cfg.bounds == Bounds::Walls).then(|| (raw(cfg.world_min), raw(cfg.world_max))),
            weights: [
                p.w_separation / wsum,
                p.w_alignment / wsum,
                p.w_cohesion / wsum,
            ],
            most: mates_summed_in_i64(p),
        }
    }

    /// Rule 1's term for one mate or virtual boid at offset `diff`.
    #[inline(always)]
    fn push<const D3: bool>(&self, diff: [i64; 3]) -> ([i64; 3], bool) {
        self.push_fn::<D3>()(diff)
    }

    /// [`Shared::push`] as a closure over copies of the constants, for the
    /// hot loops: values the compiler keeps in registers, not loads through
    /// a reference it must assume the loop's stores may change.
    #[inline(always)]
    fn push_fn<const D3: bool>(&self) -> impl Fn([i64; 3]) -> ([i64; 3], bool) + use<D3> {
        let (min2, strength, inv_min) = (self.min2, self.strength, self.inv_min);
        move |diff| {
            if D3 {
                separation::<3>(diff, min2, strength, inv_min)
            } else {
                separation::<2>(diff, min2, strength, inv_min)
            }
        }
    }
}

/// One boid's exact sums over its mates and virtual boids (raw bits).
struct Sums {
    /// Rule 1's terms, mates and virtual boids.
    sep: [i128; 3],
    /// The mates' velocities (rule 2).
    vel: [i128; 3],
    /// The mates' offsets from the boid (rule 3).
    off: [i128; 3],
    mates: u32,
    virtuals: u32,
    /// Terms whose push was capped at the floor distance.
    capped: u32,
    /// The nearest mate as (distance², id), traced ticks only.
    nearest: (u64, u32),
}

impl Sums {
    fn new() -> Sums {
        Sums {
            sep: [0; 3],
            vel: [0; 3],
            off: [0; 3],
            mates: 0,
            virtuals: 0,
            capped: 0,
            nearest: (u64::MAX, u32::MAX),
        }
    }

    /// The sums a pair pass's slot holds.
    fn of_slot(slot: &Slot) -> Sums {
        let wide = |v: [i64; 3]| v.map(i128::from);
        Sums {
            sep: wide(slot.s),
            vel: wide(slot.v),
            off: wide(slot.p),
            mates: slot.n,
            ..Sums::new()
        }
    }
}

/// A boid's sums in the pair pass (raw, wrapping): its mates' count,
/// velocities, offsets, and rule 1's terms.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Slot {
    v: [i64; 3],
    p: [i64; 3],
    s: [i64; 3],
    n: u32,
}

impl Slot {
    const ZERO: Slot = Slot {
        v: [0; 3],
        p: [0; 3],
        s: [0; 3],
        n: 0,
    };

    /// Adds the pair of a boid with the mate at offset `d`, moving at `v`,
    /// whose rule-1 term is `t`.
    #[inline(always)]
    fn add(&mut self, d: [i64; 3], v: [i64; 3], t: [i64; 3]) {
        self.n += 1;
        for a in 0..3 {
            self.v[a] = self.v[a].wrapping_add(v[a]);
            self.p[a] = self.p[a].wrapping_add(d[a]);
            self.s[a] = self.s[a].wrapping_add(t[a]);
        }
    }

    /// Both slots' sums.
    #[inline(always)]
    fn plus(mut self, o: &Slot) -> Slot {
        self.n += o.n;
        for a in 0..3 {
            self.v[a] = self.v[a].wrapping_add(o.v[a]);
            self.p[a] = self.p[a].wrapping_add(o.p[a]);
            self.s[a] = self.s[a].wrapping_add(o.s[a]);
        }
        self
    }
}

/// Integrates last tick's accelerations while the snapshot is built —
/// everyone first, unless updating in place, where each boid moves just
/// before it looks ([`move_in_place`]). Returns each boid's clamps when
/// tracing.
fn integrate_all<const TRACE: bool, const D3: bool>(
    snap: &mut Snapshot,
    boids: &mut [Boid],
    cfg: &FlockConfig,
    (p, acc): (&WeightedParams, &[Vec3]),
    (dt, half_dt2): (Fx, Fx),
) -> Vec<(Option<Clamp>, bool)> {
    let in_place = cfg.update == Update::InPlace;
    let brute = in_place || cfg.search == super::Search::Brute;
    let mut pre_clamps = Vec::new();
    snap.rebuild(
        boids,
        |i, b| {
            if in_place {
                return;
            }
            let (np, nv, c) = integrate(b.pos, b.vel, acc[i], dt, half_dt2, p);
            let (np, lim) = FlockSim::bound(cfg, np);
            b.pos = np;
            b.vel = nv;
            if TRACE {
                pre_clamps.push((c, lim));
            }
        },
        None,
        cfg.world_min,
        cfg.world_max,
        p.fov.to_bits(),
        brute,
        D3,
    );
    pre_clamps
}

/// One thread's share of the pair pass ([`pair_pass`]): its ring of
/// slots, and the sums of its first boids, which wait for the pairs the
/// range before meets with them.
#[derive(Clone, Debug, Default)]
pub(super) struct Part {
    ring: Vec<Slot>,
    held: Vec<Slot>,
}

impl Part {
    /// Heap bytes held.
    pub(super) fn heap_bytes(&self) -> usize {
        (self.ring.capacity() + self.held.capacity()) * size_of::<Slot>()
    }
}

/// Boid `k`'s acceleration from its complete pair sums (or, past
/// [`mates_summed_in_i64`] mates, its own query); whether it met no mate.
#[inline(always)]
fn finish<const D3: bool>(snap: &Snapshot, sh: &Shared, k: usize, mine: &Slot) -> (Vec3, bool) {
    let s = if mine.n <= sh.most {
        Sums::of_slot(mine)
    } else {
        mates::<false, D3>((snap, &mut Runs::new()), k, sh, &mut None)
    };
    (steer::<false, D3>(snap, k, sh, s, &mut None).0, mine.n == 0)
}

/// The pair pass over boids `range` (snapshot indices): each pair of
/// mates met once ([`Snapshot::forward`]), its terms added to both boids
/// (rule 1's term is exactly antisymmetric, the other sums trivially so):
/// boid `k`'s own side in registers, the mate's into the ring, boid `m` in
/// slot `(m − start) mod w` from its first pair until its turn (`w`, the
/// snapshot's pair window, is enough). When `k`'s forward half is scanned
/// its pairs within the range are all met: the boids before `hold` go to
/// `part.held` (pairs with the range before are still to come), the
/// others to `done(k, sums)`. Added wrapping: for a boid with at most
/// [`mates_summed_in_i64`] mates they are the same exact integer sums as
/// [`mates`], in any order, so the same result.
#[inline(always)]
fn sweep<const D3: bool>(
    (snap, sh): (&Snapshot, &Shared),
    (range, hold, w): (std::ops::Range<usize>, usize, usize),
    part: &mut Part,
    mut done: impl FnMut(usize, &Slot),
) {
    super::refill(&mut part.ring, w, Slot::ZERO);
    part.held.clear();
    part.held
        .reserve_exact(hold.saturating_sub(range.start).min(range.len()));
    let ring = &mut part.ring[..];
    let push = sh.push_fn::<D3>();
    let mut base = 0; // (k − start) mod w
    let mut runs = Runs::new();
    for k in range {
        let mut me = Slot::ZERO;
        let vk = [snap.vx[k], snap.vy[k], snap.vz[k]];
        snap.forward::<D3>(k, &mut runs, sh.fov2, |m, dx, dy, dz, _| {
            let d = [dx, dy, dz];
            let t = push(d).0;
            me.add(d, [snap.vx[m], snap.vy[m], snap.vz[m]], t);
            // 0 < m − k < w, so one subtraction wraps it.
            let mut i = base + (m - k);
            if i >= w {
                i -= w;
            }
            ring[i].add(d.map(i64::wrapping_neg), vk, t.map(i64::wrapping_neg));
        });
        let mine = std::mem::replace(&mut ring[base], Slot::ZERO).plus(&me);
        if k < hold {
            part.held.push(mine);
        } else {
            done(k, &mine);
        }
        base += 1;
        if base == w {
            base = 0;
        }
    }
}

/// Every boid's acceleration by the pair pass ([`sweep`]); returns the
/// count of boids that met no mate, and the threads used. One copy for traced and untraced
/// steps.
///
/// On several threads each takes a contiguous range of the snapshot (at
/// least two pair windows long) and writes its accelerations in snapshot
/// order; then each range's first boids get the pairs the range before met
/// with them (left in that range's ring at its end) and are finished, and
/// the accelerations are put in id order. Exact sums in a fixed order:
/// the same bits on any number of threads.
#[inline(never)]
fn pair_pass<const D3: bool>(
    snap: &Snapshot,
    sh: &Shared,
    (parts_scratch, threads): (&mut Vec<Part>, usize),
    acc: &mut [Vec3],
) -> (u32, usize) {
    let w = snap.pair_window();
    let n = snap.len();
    let np = crate::par::parts(n, threads, 2 * w);
    parts_scratch.resize_with(np.max(parts_scratch.len()), Part::default);
    if np == 1 {
        let mut alone = 0;
        sweep::<D3>(
            (snap, sh),
            (0..n, 0, w),
            &mut parts_scratch[0],
            |k, mine| {
                let (a, lone) = finish::<D3>(snap, sh, k, mine);
                acc[snap.id[k] as usize] = a;
                alone += u32::from(lone);
            },
        );
        return (alone, 1);
    }
    // Accelerations in snapshot order, a chunk per range.
    let chunks = crate::par::chunks(acc, np);
    let alone = std::sync::atomic::AtomicU32::new(0);
    let jobs: Vec<_> = chunks.into_iter().zip(&mut parts_scratch[..np]).collect();
    crate::par::each(jobs, |i, (out, part)| {
        let r = crate::par::range(n, np, i);
        let (start, hold) = (r.start, if i == 0 { r.start } else { r.start + w });
        let mut lone = 0;
        sweep::<D3>((snap, sh), (r, hold, w), part, |k, mine| {
            let (a, l) = finish::<D3>(snap, sh, k, mine);
            out[k - start] = a;
            lone += u32::from(l);
        });
        alone.fetch_add(lone, std::sync::atomic::Ordering::Relaxed);
    });
    let mut alone = alone.into_inner();
    for i in 1..np {
        let (before, r) = (crate::par::range(n, np, i - 1), crate::par::range(n, np, i));
        for (j, held) in parts_scratch[i].held.iter().enumerate() {
            let m = r.start + j;
            let spill = &parts_scratch[i - 1].ring[(m - before.start) % w];
            let (a, lone) = finish::<D3>(snap, sh, m, &held.plus(spill));
            acc[m] = a;
            alone += u32::from(lone);
        }
    }
    crate::par::to_id_order(acc, &snap.id);
    (alone, np)
}

/// Updating in place: snapshot boid `k` integrates its acceleration just
/// before it looks, and the snapshot and the state take its new place.
fn move_in_place<const TRACE: bool>(
    (snap, boids): (&mut Snapshot, &mut [Boid]),
    cfg: &FlockConfig,
    (p, acc): (&WeightedParams, Vec3),
    k: usize,
    (dt, half_dt2): (Fx, Fx),
    ex: &mut Option<BoidExplain>,
) {
    let (np, nv, c) = integrate(
        unraw([snap.x[k], snap.y[k], snap.z[k]]),
        unraw([snap.vx[k], snap.vy[k], snap.vz[k]]),
        acc,
        dt,
        half_dt2,
        p,
    );
    let (np, lim) = FlockSim::bound(cfg, np);
    let (r, v) = (raw(np), raw(nv));
    (snap.x[k], snap.y[k], snap.z[k]) = (r[0], r[1], r[2]);
    (snap.vx[k], snap.vy[k], snap.vz[k]) = (v[0], v[1], v[2]);
    boids[snap.id[k] as usize] = Boid { pos: np, vel: nv };
    if TRACE {
        note_clamps(ex, c, lim);
    }
}

fn note_clamps(ex: &mut Option<BoidExplain>, c: Option<Clamp>, lim: bool) {
    let e = ex.as_mut().expect("tracing");
    e.clamps.extend(c);
    e.clamps.extend(lim.then_some(Clamp::CoordLimit));
}

/// Boid `k`'s mates — the other boids within `fov` — summed for all three
/// rules.
#[inline(always)]
fn mates<const TRACE: bool, const D3: bool>(
    (snap, runs): (&Snapshot, &mut Runs),
    k: usize,
    sh: &Shared,
    ex: &mut Option<BoidExplain>,
) -> Sums {
    let mut s = Sums::new();
    let push = sh.push_fn::<D3>();
    snap.for_each_within::<D3>(k, runs, sh.fov2, |m, dx, dy, dz, d2| {
        s.mates += 1;
        s.vel[0] += snap.vx[m] as i128;
        s.vel[1] += snap.vy[m] as i128;
        s.off[0] += dx as i128;
        s.off[1] += dy as i128;
        if D3 {
            s.vel[2] += snap.vz[m] as i128;
            s.off[2] += dz as i128;
        }
        let (t, c) = push([dx, dy, if D3 { dz } else { 0 }]);
        add3(&mut s.sep, t);
        s.capped += u32::from(c);
        if TRACE {
            ex.as_mut().expect("tracing").neighbours.push(snap.id[m]);
            s.nearest = s.nearest.min((d2, snap.id[m]));
        }
    });
    s
}

/// A virtual boid at offset `diff` from the boid at `pr`: rule 1 only.
#[inline(always)]
fn virtual_boid<const TRACE: bool, const D3: bool>(
    diff: [i64; 3],
    pr: [i64; 3],
    sh: &Shared,
    s: &mut Sums,
    ex: &mut Option<BoidExplain>,
) {
    let (t, c) = sh.push::<D3>(diff);
    add3(&mut s.sep, t);
    s.virtuals += 1;
    s.capped += u32::from(c);
    if TRACE {
        let at = unraw([pr[0] + diff[0], pr[1] + diff[1], pr[2] + diff[2]]);
        ex.as_mut().expect("tracing").wall_boids.push(at);
    }
}

/// With `bounds = "walls"`, each wall within `fov` of the boid at `pr`
/// (signed distance: a boid outside still counts) puts a virtual boid at
/// the foot of the perpendicular.
#[inline(always)]
fn wall_boids<const TRACE: bool, const D3: bool>(
    pr: [i64; 3],
    sh: &Shared,
    s: &mut Sums,
    ex: &mut Option<BoidExplain>,
) {
    let Some((wmin, wmax)) = sh.walls else {
        return;
    };
    for a in 0..if D3 { 3 } else { 2 } {
        // Signed distances to the low and the high wall on axis a.
        for (d, toward) in [(pr[a] - wmin[a], -1i64), (wmax[a] - pr[a], 1)] {
            if d <= sh.radius {
                let mut diff = [0i64; 3];
                diff[a] = toward * d;
                virtual_boid::<TRACE, D3>(diff, pr, sh, s, ex);
            }
        }
    }
}

/// Each obstacle within `fov` of its surface puts a virtual boid at the
/// surface point nearest the boid at `pr`.
#[inline(always)]
fn obstacle_boids<const TRACE: bool, const D3: bool>(
    pr: [i64; 3],
    sh: &Shared,
    s: &mut Sums,
    ex: &mut Option<BoidExplain>,
) {
    for o in sh.obstacles {
        let c = raw(o.center);
        let off = unraw([
            pr[0] - c[0],
            pr[1] - c[1],
            if D3 { pr[2] - c[2] } else { 0 },
        ]);
        let (dist, unit) = off.fast_length_and_unit();
        if dist == Fx::ZERO || dist - o.radius > sh.p.fov {
            continue;
        }
        // The nearest surface point: centre + off · radius / dist.
        let foot = raw(unit * o.radius);
        let diff = [
            c[0] + foot[0] - pr[0],
            c[1] + foot[1] - pr[1],
            if D3 { c[2] + foot[2] - pr[2] } else { 0 },
        ];
        virtual_boid::<TRACE, D3>(diff, pr, sh, s, ex);
    }
}

/// Rule 1, separation: the mean push over mates and virtual boids.
fn separation_rule(s: &Sums) -> Vec3 {
    let n = s.mates + s.virtuals;
    if n > 0 { mean(s.sep, n) } else { Vec3::ZERO }
}

/// Rules 2 and 3, alignment and cohesion: the mates' mean velocity less
/// the boid's own, and the mates' mean offset (their centre, relative).
fn alignment_and_cohesion(s: &Sums, own_v: Vec3) -> (Vec3, Vec3) {
    if s.mates == 0 {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    let by = Divider::new(s.mates);
    (by.vec(s.vel) - own_v, by.vec(s.off))
}

/// The explain record of a boid whose rules gave `r` and steering `a`.
fn explained(mut e: BoidExplain, s: &Sums, r: [Vec3; 3], a: Vec3) -> BoidExplain {
    e.neighbours.sort_unstable();
    e.nearest = (s.nearest.1 != u32::MAX).then_some(s.nearest.1);
    e.rules.push((Rule::Separation, Steer::Vector(r[0])));
    e.rules.push((Rule::Alignment, Steer::Vector(r[1])));
    e.rules.push((Rule::Cohesion, Steer::Vector(r[2])));
    if s.capped > 0 {
        e.clamps.push(Clamp::PushCapped(s.capped));
    }
    e.steering = Steer::Vector(a);
    e
}

/// Boid `k`'s acceleration from its sums over its mates: the virtual
/// boids of the walls and obstacles added, the three rules, their weighted
/// mean. Returns it, the rules, and the sums complete.
#[inline(always)]
fn steer<const TRACE: bool, const D3: bool>(
    snap: &Snapshot,
    k: usize,
    sh: &Shared,
    mut s: Sums,
    ex: &mut Option<BoidExplain>,
) -> (Vec3, [Vec3; 3], Sums) {
    let pr = [snap.x[k], snap.y[k], snap.z[k]];
    wall_boids::<TRACE, D3>(pr, sh, &mut s, ex);
    obstacle_boids::<TRACE, D3>(pr, sh, &mut s, ex);
    let own_v = unraw([snap.vx[k], snap.vy[k], snap.vz[k]]);
    let (r2, r3) = alignment_and_cohesion(&s, own_v);
    let r = [separation_rule(&s), r2, r3];
    let [w1, w2, w3] = sh.weights;
    (r[0] * w1 + r[1] * w2 + r[2] * w3, r, s)
}

/// One tick of the weighted model. Traced, each boid's reasoning goes
/// into `explains` — only the boids of `only` when it names some: then
/// every boid steps by the untraced pair pass and those few are explained
/// from the same snapshot (the same exact sums, so the same result), and
/// the count of boids that saw no mate is returned.
pub(super) fn step<const TRACE: bool, const D3: bool>(
    sim: &mut FlockSim,
    dt: Fx,
    (explains, only): (&mut [Option<BoidExplain>], Option<&[u32]>),
) -> Option<u32> {
    let FlockSim {
        cfg,
        state,
        snap,
        pair_parts,
        threads,
        used,
        ..
    } = sim;
    let Model::Weighted(p) = &cfg.model else {
        unreachable!("weighted::step runs the weighted model")
    };
    let ModelState::Weighted { acc } = &mut state.model else {
        unreachable!("the weighted model keeps accelerations")
    };
    let boids = &mut state.boids;
    let in_place = cfg.update == Update::InPlace;
    let dts = (dt, dt * dt / Fx::from_int(2));
    let pre_clamps = integrate_all::<TRACE, D3>(snap, boids, cfg, (p, acc), dts);
    let sh = Shared::new(cfg, p);
    if !in_place && (!TRACE || only.is_some()) {
        let (alone, parts) = pair_pass::<D3>(snap, &sh, (pair_parts, *threads), acc);
        *used = parts;
        if TRACE {
            for &id in only.unwrap_or_default() {
                let Some(k) = snap.id.iter().position(|&i| i == id) else {
                    continue;
                };
                let id = id as usize;
                let mut ex = Some(BoidExplain::new(id as u32));
                let (c, lim) = pre_clamps[id];
                note_clamps(&mut ex, c, lim);
                let s = mates::<true, D3>((snap, &mut Runs::new()), k, &sh, &mut ex);
                let (a, r, s) = steer::<true, D3>(snap, k, &sh, s, &mut ex);
                debug_assert_eq!(
                    a, acc[id],
                    "boid {id} explained as the pair pass stepped it"
                );
                if let Some(e) = ex {
                    explains[id] = Some(explained(e, &s, r, a));
                }
            }
        }
        return TRACE.then_some(alone);
    }
    *used = 1;
    let mut runs = Runs::new();
    for k in 0..snap.len() {
        let id = snap.id[k] as usize;
        let mut ex = TRACE.then(|| BoidExplain::new(id as u32));
        if in_place {
            move_in_place::<TRACE>((snap, boids), cfg, (p, acc[id]), k, dts, &mut ex);
        } else if TRACE {
            let (c, lim) = pre_clamps[id];
            note_clamps(&mut ex, c, lim);
        }
        let s = mates::<TRACE, D3>((snap, &mut runs), k, &sh, &mut ex);
        let (a, r, s) = steer::<TRACE, D3>(snap, k, &sh, s, &mut ex);
        acc[id] = a;
        if let Some(e) = ex {
            explains[id] = Some(explained(e, &s, r, a));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_pass_keeps_sums_only_where_they_are_exact() {
        let strongest = WeightedParams {
            strength: Fx::from_int(MAX_PUSH as i32),
            ..WeightedParams::default()
        };
        for p in [WeightedParams::default(), strongest] {
            let (most, big) = (u128::from(mates_summed_in_i64(&p)), largest_term(&p));
            // `most` terms of the largest size, and one more for rounding,
            // fit an i64; a few more do not (the bound is tight).
            assert!((most + 1) * big <= i64::MAX as u128);
            assert!((most + 3) * big > i64::MAX as u128);
        }
        // The article's strength: a push of at most 10⁶ (2³² raw each), so
        // about two thousand mates.
        assert_eq!(mates_summed_in_i64(&WeightedParams::default()), 2146);
    }
}
