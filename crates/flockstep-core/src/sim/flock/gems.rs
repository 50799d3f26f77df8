//! The gems model (article 002, after *Game Programming Gems*' flocking
//! chapter): fish in a wrap-around aquarium.
//!
//! Each tick every fish first moves by its velocity (`pos += vel · dt`);
//! then it looks for mates closer than `perception` (strictly; no view
//! angle unless `view_angle` is set), keeps the first `max_visible` of them
//! by id, and finds the nearest (smallest distance, then smallest id —
//! among *all* visible mates, as the article's loop does). If it sees any:
//! - **separation** (`KeepDistance`): the unit vector towards the nearest
//!   mate times `clamp(distance / separation_dist, min_urgency,
//!   max_urgency)`, negated when closer than `separation_dist`, zero when
//!   exactly there;
//! - **alignment** (`MatchHeading`): the nearest mate's unit velocity times
//!   `min_urgency`;
//! - **cohesion** (`SteerToCenter`): the unit vector towards the centre of
//!   the listed mates times `min_urgency`.
//!
//! Always, **cruising**: `diff = (speed − desired_speed) / max_speed`,
//! `urgency = clamp(|diff|, min_urgency, max_urgency)`; a random nudge of
//! `min_urgency · sign(diff)` is added to one axis of a copy of the velocity
//! (x with probability 45 %, z 45 %, y 10 %), and the result is resized to
//! `urgency`, pointing against `diff` (`sign(0)` is +1, as the C macro).
//! The article's `Cruising` uses its vector before declaring it; this is
//! the intent, as in the book.
//!
//! The sum is clamped to `max_change`, added to the velocity, the speed is
//! clamped to `max_speed`, roll/pitch/yaw are derived, and the position
//! wraps around the tank. Distances are plain (not wrapped) distances, as
//! in the article.

use super::grid::{Runs, Snapshot, radius2_q32};
use super::{
    Attitude, Boid, BoidExplain, Clamp, FlockConfig, FlockSim, Model, ModelState, Rule, Steer,
    Update, raw, unraw,
};
use crate::num::{Angle, Fx, Vec3};
use crate::sim::SimError;

/// Parameters of the gems model. The article names the constants but not
/// their values; the defaults are the book's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemsParams {
    /// How far a fish sees (`Default_Perception_Range = 8`).
    pub perception: Fx,
    /// Most mates kept in the visible list (`MAX_FRIENDS_VISIBLE = 10`).
    pub max_visible: u32,
    /// The comfortable distance to the nearest mate (`SEPARATION_DIST = 5`).
    pub separation_dist: Fx,
    /// Smallest urgency (`MIN_URGENCY = 0.05`).
    pub min_urgency: Fx,
    /// Largest urgency (`MAX_URGENCY = 0.1`).
    pub max_urgency: Fx,
    /// Top speed (`MAX_SPEED = 1`).
    pub max_speed: Fx,
    /// Cruising speed (`DESIRED_SPEED = MAX_SPEED / 2`).
    pub desired_speed: Fx,
    /// Largest velocity change per tick (`MAX_CHANGE = MAX_SPEED · MAX_URGENCY`).
    pub max_change: Fx,
    /// Gravity for the roll angle (`GRAVITY = 9.806`).
    pub gravity: Fx,
    /// A field of view in degrees (`None` = the article: all around). With
    /// one, fish pile into each other from behind.
    pub view_angle: Option<Angle>,
}

impl Default for GemsParams {
    fn default() -> GemsParams {
        GemsParams {
            perception: Fx::from_int(8),
            max_visible: 10,
            separation_dist: Fx::from_int(5),
            min_urgency: Fx::from_ratio(5, 100).expect("constant"),
            max_urgency: Fx::from_ratio(1, 10).expect("constant"),
            max_speed: Fx::ONE,
            desired_speed: Fx::HALF,
            max_change: Fx::from_ratio(1, 10).expect("constant"),
            gravity: Fx::from_ratio(9806, 1000).expect("constant"),
            view_angle: None,
        }
    }
}

impl GemsParams {
    /// Checks the parameters against their documented ranges.
    pub fn check(&self) -> Result<(), SimError> {
        self.check_text().map_err(SimError::config)
    }

    fn check_text(&self) -> Result<(), String> {
        let r = Fx::from_int(super::MAX_RADIUS);
        let s = Fx::from_int(super::MAX_SPEED);
        // From 1/1000: the step divides by separation_dist and max_speed
        // (reciprocals up to 1,000, times distances and speeds up to 10,000
        // stay far inside Fx), and a perception radius must survive the
        // Q16 neighbour metric (below 2⁻¹⁶ it would be zero).
        let milli = super::MIN_LENGTH;
        if self.perception < milli || self.perception > r {
            return Err(format!(
                "perception must be in 0.001..={}",
                super::MAX_RADIUS
            ));
        }
        if self.separation_dist < milli || self.separation_dist > r {
            return Err(format!(
                "separation_dist must be in 0.001..={}",
                super::MAX_RADIUS
            ));
        }
        if self.max_visible == 0 || self.max_visible > 1000 {
            return Err("max_visible must be in 1..=1000".into());
        }
        if self.min_urgency < Fx::ZERO
            || self.min_urgency > self.max_urgency
            || self.max_urgency > s
        {
            return Err("urgencies must satisfy 0 ≤ min_urgency ≤ max_urgency ≤ MAX_SPEED".into());
        }
        if self.max_speed < milli || self.max_speed > s {
            return Err(format!("max_speed must be in 0.001..={}", super::MAX_SPEED));
        }
        if self.desired_speed < Fx::ZERO || self.desired_speed > self.max_speed {
            return Err("desired_speed must be in 0..=max_speed".into());
        }
        if self.max_change < Fx::ZERO || self.max_change > s {
            return Err(format!("max_change must be in 0..={}", super::MAX_SPEED));
        }
        if self.gravity < Fx::ZERO || self.gravity > Fx::from_int(1000) {
            return Err("gravity must be in 0..=1000".into());
        }
        Ok(())
    }
}

/// The largest `max_visible` the pair pass keeps lists for (larger lists
/// are found by a query per fish; the memory budget sets the limit).
const PAIR_CAP: usize = 12;

/// Roll, pitch and yaw from the new velocity and the old one.
pub(super) fn attitude(vel: Vec3, old: Vec3, gravity: Fx) -> Attitude {
    attitude_of(vel, vel.fast_normalize(), old, gravity)
}

/// [`attitude`], given the new velocity's `fast_normalize`, `vn`.
fn attitude_of(vel: Vec3, vn: Vec3, old: Vec3, gravity: Fx) -> Attitude {
    let d = vel - old;
    // The article projects the change on lateralDir = unit((v × d) × v),
    // the direction of d's part perpendicular to v; that projection is the
    // length of the perpendicular part, d − (d·v̂)v̂ (never negative, so the
    // article's fish only ever bank one way — a quirk kept as is). Computed
    // this way it takes one product per axis instead of two cross products.
    let lateral_mag = (d - vn * d.dot(vn)).fast_length();
    let roll = if lateral_mag == Fx::ZERO {
        Angle::ZERO
    } else {
        Angle(
            Angle::QUARTER
                .0
                .wrapping_sub(Angle::atan2(gravity, lateral_mag).0),
        )
    };
    let horiz = Vec3::new(vel.x, Fx::ZERO, vel.z).fast_length();
    Attitude {
        pitch: Angle::atan2(vel.y, horiz),
        yaw: Angle::atan2(-vel.x, -vel.z),
        roll,
    }
}

/// What every fish's rules share in one tick: the parameters, the
/// perception radius in the neighbour metric (strictly closer than
/// perception: d2 ≤ perception² − 1, Q32 units), the view cone's cosine,
/// and reciprocals computed once per tick (a fixed-point division costs
/// about 20 multiplications).
struct Shared<'a> {
    p: &'a GemsParams,
    max2: u64,
    cone: Option<Fx>,
    inv_sep: Fx,
    inv_max_speed: Fx,
}

impl<'a> Shared<'a> {
    fn new(p: &'a GemsParams) -> Shared<'a> {
        Shared {
            p,
            max2: radius2_q32(p.perception) - 1,
            cone: p.view_angle.map(|a| Angle(a.0 / 2).cos()),
            inv_sep: Fx::ONE / p.separation_dist,
            inv_max_speed: Fx::ONE / p.max_speed,
        }
    }
}

/// The sim's scratch for the pair pass, by snapshot index: each fish's
/// list of visible mates (`cap` slots) and its length, and the nearest
/// mate's squared distance and snapshot index; and, on several threads,
/// each range's offers to fish after it.
struct Pairs<'a> {
    cap: usize,
    list: &'a mut Vec<u32>,
    len: &'a mut Vec<u32>,
    near_d2: &'a mut Vec<u64>,
    near_m: &'a mut Vec<u32>,
    spill: &'a mut Vec<Vec<Spill>>,
}

impl Pairs<'_> {
    /// Every fish's lists as one [`Share`].
    fn whole(&mut self) -> Share<'_> {
        Share {
            start: 0,
            cap: self.cap,
            list: &mut self.list[..],
            len: &mut self.len[..],
            near_d2: &mut self.near_d2[..],
            near_m: &mut self.near_m[..],
        }
    }
}

/// An offer of mate `.1` to fish `.0` at squared distance `.2` (snapshot
/// indices), which a range met but the next range's fish hold.
pub(super) type Spill = (u32, u32, u64);

/// The pair lists of the fish `start..` (`len.len()` of them): slices of
/// [`Pairs`]' arrays from fish `start` on.
struct Share<'a> {
    start: usize,
    cap: usize,
    list: &'a mut [u32],
    len: &'a mut [u32],
    near_d2: &'a mut [u64],
    near_m: &'a mut [u32],
}

impl Share<'_> {
    /// Fish `a` (of this share) meets mate `b` at squared distance `d2`:
    /// `b` is offered to its list, and becomes its nearest if nearer (or
    /// as near with a smaller id).
    #[inline(always)]
    fn meet(&mut self, id: &[u32], a: usize, b: usize, d2: u64) {
        let j = a - self.start;
        offer((self.list, self.len, id, self.cap), j, b);
        // With no nearest yet its distance is u64::MAX, more than any
        // mate's: the ids are compared only on a tie.
        let near = self.near_d2[j];
        if d2 < near || (d2 == near && id[b] < id[self.near_m[j] as usize]) {
            self.near_d2[j] = d2;
            self.near_m[j] = b as u32;
        }
    }
}

/// Step 1 (article): every fish moves by its last velocity while the
/// snapshot is built — unless updating in place, where each fish moves
/// just before it looks.
fn move_all(snap: &mut Snapshot, boids: &mut [Boid], cfg: &FlockConfig, p: &GemsParams, dt: Fx) {
    let in_place = cfg.update == Update::InPlace;
    snap.rebuild(
        boids,
        |_, b| {
            if !in_place {
                b.pos += b.vel * dt;
            }
        },
        None,
        cfg.world_min,
        cfg.world_max,
        p.perception.to_bits(),
        in_place || cfg.search == super::Search::Brute,
        true,
    );
}

/// Untraced double-buffered ticks without a view angle (visibility is then
/// symmetric) meet each pair once: both fish update their nearest mate and
/// their list of the `cap` smallest ids. The same sets and the same
/// nearest as [`visible`]'s query per fish, so the same result.
///
/// On `parts` threads each takes a contiguous range of fish and meets the
/// pairs of its fish's forward halves; an offer to a fish of a later range
/// is kept and made after the join. A list keeps the smallest ids and the
/// nearest is the least (distance², id) whatever the order of the offers,
/// so the lists are the same on any number of threads.
fn pair_lists(sn: &Snapshot, pairs: &mut Pairs, max2: u64, parts: usize) {
    let (n, cap) = (sn.len(), pairs.cap);
    // A list's slots past its length are never read: only the lengths
    // start again from zero.
    if pairs.list.len() != n * cap {
        super::refill(pairs.list, n * cap, 0);
    }
    super::refill(pairs.len, n, 0);
    super::refill(pairs.near_d2, n, u64::MAX);
    super::refill(pairs.near_m, n, u32::MAX);
    pairs
        .spill
        .resize_with(parts.max(pairs.spill.len()), Vec::new);
    if parts == 1 {
        sweep(sn, max2, (&mut pairs.whole(), n), &mut Vec::new());
        return;
    }
    // The lists split where the fish do, `cap` slots a fish.
    let mut lists = Vec::with_capacity(parts);
    let mut rest = &mut pairs.list[..];
    for i in 0..parts {
        let (c, r) = rest.split_at_mut(crate::par::range(n, parts, i).len() * cap);
        lists.push(c);
        rest = r;
    }
    let jobs: Vec<_> = lists
        .into_iter()
        .zip(crate::par::chunks(&mut pairs.len[..], parts))
        .zip(
            crate::par::chunks(&mut pairs.near_d2[..], parts)
                .into_iter()
                .zip(crate::par::chunks(&mut pairs.near_m[..], parts)),
        )
        .zip(&mut pairs.spill[..parts])
        .collect();
    crate::par::each(jobs, |i, (((list, len), (near_d2, near_m)), spill)| {
        let r = crate::par::range(n, parts, i);
        let mut share = Share {
            start: r.start,
            cap,
            list,
            len,
            near_d2,
            near_m,
        };
        spill.clear();
        sweep(sn, max2, (&mut share, r.end), spill);
    });
    let spills = std::mem::take(pairs.spill);
    let mut all = pairs.whole();
    for spill in &spills[..parts] {
        for &(a, b, d2) in spill {
            all.meet(&sn.id, a as usize, b as usize, d2);
        }
    }
    *pairs.spill = spills;
}

/// The forward halves of the fish of `share` (up to `end`): each pair
/// met once, both fish's lists and nearest updated, or the later fish's
/// kept in `spill` when it is past `end`.
#[inline(always)]
fn sweep(sn: &Snapshot, max2: u64, (share, end): (&mut Share, usize), spill: &mut Vec<Spill>) {
    let mut runs = Runs::new();
    for k in share.start..end {
        sn.forward::<true>(k, &mut runs, max2, |m, _, _, _, d2| {
            share.meet(&sn.id, k, m, d2);
            if m < end {
                share.meet(&sn.id, m, k, d2);
            } else {
                spill.push((m as u32, k as u32, d2));
            }
        });
    }
}

/// Offers mate `m` to fish `k`'s list (`cap` slots from `k · cap`, `len[k]`
/// used): the list keeps the `cap` smallest ids. A full list keeps its
/// largest id first, so turning a mate away is one comparison.
#[inline(always)]
fn offer((list, len, id, cap): (&mut [u32], &mut [u32], &[u32], usize), k: usize, m: usize) {
    let l = &mut list[k * cap..(k + 1) * cap];
    let used = len[k] as usize;
    if used < cap {
        l[used] = m as u32;
        len[k] += 1;
        if used + 1 == cap {
            largest_first(l, id);
        }
    } else if id[m] < id[l[0] as usize] {
        l[0] = m as u32;
        largest_first(l, id);
    }
}

/// Swaps the entry of the largest id into slot 0.
#[inline(always)]
fn largest_first(l: &mut [u32], id: &[u32]) {
    // (id, slot) in one word, so the maximum is taken without a branch
    // (which slot wins is unpredictable); ids are unique.
    let mut most = 0u64;
    for (j, &e) in l.iter().enumerate() {
        most = most.max(u64::from(id[e as usize]) << 32 | j as u64);
    }
    l.swap(0, most as u32 as usize);
}

/// The mates fish `k` (moving at `vel`) sees, into `seen` (snapshot
/// indices): closer than perception and, with a view angle, within half of
/// it of the velocity (a fish at rest has no facing and sees all around).
/// Returns the nearest as (distance², id, snapshot index), `u64::MAX` when
/// none.
#[inline(always)]
fn visible(
    snap: &Snapshot,
    k: usize,
    vel: Vec3,
    sh: &Shared,
    (seen, runs): (&mut Vec<u32>, &mut Runs),
) -> (u64, u32, usize) {
    let speed_len = vel.fast_length();
    let mut nearest = (u64::MAX, u32::MAX, 0usize);
    let cone = sh.cone; // a copy the loop keeps in a register
    snap.for_each_within::<true>(k, runs, sh.max2, |m, dx, dy, dz, d2| {
        if let Some(c) = cone
            && speed_len > Fx::ZERO
        {
            let off = unraw([dx, dy, dz]);
            let dot = off.dot(vel);
            let need = c * off.fast_length() * speed_len;
            if dot < need {
                return;
            }
        }
        seen.push(m as u32);
        nearest = nearest.min((d2, snap.id[m], m));
    });
    nearest
}

/// What the pair pass found for fish `k`: its list into `seen`, and its
/// nearest mate as [`visible`] returns it.
fn listed(snap: &Snapshot, pairs: &Pairs, k: usize, seen: &mut Vec<u32>) -> (u64, u32, usize) {
    let used = pairs.len[k] as usize;
    seen.extend_from_slice(&pairs.list[k * pairs.cap..k * pairs.cap + used]);
    match pairs.near_m[k] {
        u32::MAX => (u64::MAX, u32::MAX, 0),
        m => (pairs.near_d2[k], snap.id[m as usize], m as usize),
    }
}

/// Separation (`KeepDistance`): the unit vector towards the nearest mate,
/// `to_near` away, times `clamp(distance / separation_dist, min_urgency,
/// max_urgency)`; negated when closer than `separation_dist`, zero when
/// exactly there.
fn separation(to_near: Vec3, sh: &Shared) -> Vec3 {
    let p = sh.p;
    // Exact offsets, not the Q16 metric.
    let (dist, unit) = to_near.fast_length_and_unit();
    let ratio = (dist * sh.inv_sep).clamp(p.min_urgency, p.max_urgency);
    if dist < p.separation_dist {
        unit * -ratio
    } else if dist > p.separation_dist {
        unit * ratio
    } else {
        Vec3::ZERO
    }
}

/// Alignment (`MatchHeading`): the nearest mate's unit velocity times
/// `min_urgency`.
fn alignment(near_vel: Vec3, p: &GemsParams) -> Vec3 {
    near_vel.fast_normalize() * p.min_urgency
}

/// Cohesion (`SteerToCenter`): the unit vector towards the centre of the
/// `seen` mates of the fish at `pr`, times `min_urgency`. The direction to
/// the centre is the direction of the summed offsets: no division needed.
fn cohesion(snap: &Snapshot, seen: &[u32], pr: [i64; 3], p: &GemsParams) -> Vec3 {
    // At most max_visible (≤ 1,000) offsets under perception (≤ 10⁴
    // units, < 2⁴⁶ raw) each: the sum is below 2⁵⁶, so 64 bits hold it
    // and no add can wrap (nor an offset: coordinates are within
    // ±COORD_LIMIT); wrapping operations spare the checks.
    let mut sum = [0i64; 3];
    for &m in seen {
        let m = m as usize;
        sum[0] = sum[0].wrapping_add(snap.x[m].wrapping_sub(pr[0]));
        sum[1] = sum[1].wrapping_add(snap.y[m].wrapping_sub(pr[1]));
        sum[2] = sum[2].wrapping_add(snap.z[m].wrapping_sub(pr[2]));
    }
    let sum = sum.map(Fx::from_bits);
    Vec3::new(sum[0], sum[1], sum[2]).fast_normalize() * p.min_urgency
}

/// Separation, alignment and cohesion of the fish at `pr` that sees the
/// `seen` mates, the nearest at snapshot index `nm`.
fn flock_rules(snap: &Snapshot, seen: &[u32], pr: [i64; 3], nm: usize, sh: &Shared) -> [Vec3; 3] {
    let to_near = unraw([snap.x[nm] - pr[0], snap.y[nm] - pr[1], snap.z[nm] - pr[2]]);
    let near_vel = unraw([snap.vx[nm], snap.vy[nm], snap.vz[nm]]);
    [
        separation(to_near, sh),
        alignment(near_vel, sh.p),
        cohesion(snap, seen, pr, sh.p),
    ]
}

/// Cruising: towards `desired_speed`, with the fish's wobble (`draw`, of
/// 100) nudging one axis of a copy of its velocity.
fn cruising(vel: Vec3, draw: u32, sh: &Shared) -> Vec3 {
    let p = sh.p;
    let diff = (vel.fast_length() - p.desired_speed) * sh.inv_max_speed;
    let urgency = diff.abs().clamp(p.min_urgency, p.max_urgency);
    let sign_diff = if diff < Fx::ZERO { -Fx::ONE } else { Fx::ONE };
    let sign_neg = if -diff < Fx::ZERO { -Fx::ONE } else { Fx::ONE };
    let nudge = p.min_urgency * sign_diff;
    let mut wobble = vel;
    match draw {
        0..45 => wobble.x += nudge,
        45..90 => wobble.z += nudge,
        _ => wobble.y += nudge,
    }
    wobble.fast_normalize() * (urgency * sign_neg)
}

/// The rules' sum clamped to `max_change`, added to `vel`, the speed
/// clamped to `max_speed`: the steering, the new velocity and its
/// `fast_normalize`, and the clamps that fired when tracing. (A length and
/// a direction of one vector come from one reciprocal square root.)
fn limit<const TRACE: bool>(
    acc: Vec3,
    vel: Vec3,
    p: &GemsParams,
) -> (Vec3, (Vec3, Vec3), Vec<Clamp>) {
    let mut acc = acc;
    let (acc_len, acc_unit) = acc.fast_length_and_unit();
    let mut clamps = Vec::new();
    if acc_len > p.max_change {
        acc = acc_unit * p.max_change;
        if TRACE {
            clamps.push(Clamp::MaxChange(acc_len));
        }
    }
    let mut new_vel = vel + acc;
    let (new_speed, mut unit) = new_vel.fast_length_and_unit();
    if new_speed > p.max_speed {
        new_vel = unit * p.max_speed;
        unit = new_vel.fast_normalize();
        if TRACE {
            clamps.push(Clamp::MaxSpeed(new_speed));
        }
    }
    (acc, (new_vel, unit), clamps)
}

/// One fish's rules: separation, alignment and cohesion (when it sees a
/// mate; else zero and not listed), cruising.
struct Rules {
    mates: Option<[Vec3; 3]>,
    cruising: Vec3,
}

/// The explain record of fish `id`: its mates, rules, clamps, steering.
fn explained(
    id: usize,
    (snap, seen): (&Snapshot, &[u32]),
    (count, nearest): (u32, u32),
    rules: &Rules,
    (acc, clamps, max_visible): (Vec3, Vec<Clamp>, u32),
) -> BoidExplain {
    let mut e = BoidExplain::new(id as u32);
    e.neighbours = seen.iter().map(|&m| snap.id[m as usize]).collect();
    e.neighbours.sort_unstable();
    e.nearest = (count > 0).then_some(nearest);
    if let Some([r_sep, r_align, r_coh]) = rules.mates {
        e.rules.push((Rule::Separation, Steer::Vector(r_sep)));
        e.rules.push((Rule::Alignment, Steer::Vector(r_align)));
        e.rules.push((Rule::Cohesion, Steer::Vector(r_coh)));
    }
    e.rules
        .push((Rule::Cruising, Steer::Vector(rules.cruising)));
    if count > max_visible {
        e.clamps.push(Clamp::ListFull(count));
    }
    e.clamps.extend(clamps);
    e.steering = Steer::Vector(acc);
    e
}

/// What fish `k` does this tick, from the snapshot (and the pair pass's
/// lists when `pairs` is given): the mates it saw (in `seen`) and how
/// many, its nearest mate's id, its rules, its steering, its new velocity
/// and attitude, and the clamps that fired.
struct Move {
    count: u32,
    nearest: u32,
    rules: Rules,
    acc: Vec3,
    vel: Vec3,
    attitude: Attitude,
    clamps: Vec<Clamp>,
}

/// Fish `k`'s [`Move`] (at `pr`, moving at `vel`, with its wobble draw).
#[inline(always)]
fn next<const TRACE: bool>(
    (snap, sh, pairs): (&Snapshot, &Shared, Option<&Pairs>),
    (k, pr, vel, draw): (usize, [i64; 3], Vec3, u32),
    (seen, runs): (&mut Vec<u32>, &mut Runs),
) -> Move {
    let p = sh.p;
    seen.clear();
    let nearest = match pairs {
        Some(pairs) => listed(snap, pairs, k, seen),
        None => visible(snap, k, vel, sh, (seen, runs)),
    };
    let count = seen.len() as u32;
    if count > p.max_visible {
        // Keep the first max_visible by id, as the article's list does
        // (which ones, not their order: the centre is an exact sum).
        let cap = p.max_visible as usize;
        seen.select_nth_unstable_by_key(cap - 1, |&m| snap.id[m as usize]);
        seen.truncate(cap);
    }
    let rules = Rules {
        mates: (count > 0).then(|| flock_rules(snap, seen, pr, nearest.2, sh)),
        cruising: cruising(vel, draw, sh),
    };
    let sum = rules.mates.map_or(Vec3::ZERO, |[a, b, c]| a + b + c);
    let (acc, (new_vel, unit), clamps) = limit::<TRACE>(sum + rules.cruising, vel, p);
    Move {
        count,
        nearest: nearest.1,
        rules,
        acc,
        vel: new_vel,
        attitude: attitude_of(new_vel, unit, vel, p.gravity),
        clamps,
    }
}

pub(super) fn step<const TRACE: bool>(
    sim: &mut FlockSim,
    dt: Fx,
    explains: &mut [Option<BoidExplain>],
) {
    let FlockSim {
        cfg,
        state,
        snap,
        draws,
        seen,
        pair_list,
        pair_len,
        near_d2,
        near_m,
        near_spill,
        threads,
        used,
        ..
    } = sim;
    let Model::Gems(p) = &cfg.model else {
        unreachable!("gems::step runs the gems model")
    };
    let ModelState::Gems { attitude: att } = &mut state.model else {
        unreachable!("the gems model keeps attitudes")
    };
    let in_place = cfg.update == Update::InPlace;
    // The wobble: one draw per fish, in id order, before anyone steers.
    draws.clear();
    draws.reserve_exact(state.boids.len());
    draws.extend((0..state.boids.len()).map(|_| state.rng.below(100)));
    move_all(snap, &mut state.boids, cfg, p, dt);
    let sh = Shared::new(p);
    let mut pairs = Pairs {
        cap: p.max_visible as usize,
        list: pair_list,
        len: pair_len,
        near_d2,
        near_m,
        spill: near_spill,
    };
    let parts = crate::par::parts(snap.len(), *threads, 1);
    *used = if !TRACE && !in_place { parts } else { 1 };
    let pairwise = !TRACE && !in_place && sh.cone.is_none() && pairs.cap <= PAIR_CAP;
    if pairwise {
        pair_lists(snap, &mut pairs, sh.max2, *used);
    }
    let pairs = pairwise.then_some(&pairs);
    if *used > 1 {
        // Each thread steps its own fish, from the pair lists or (with a
        // view angle, or long lists) its own queries.
        let snap = &*snap;
        let out = (&mut state.boids[..], &mut att[..]);
        crate::par::in_id_order(
            &snap.id,
            parts,
            out,
            |k, (seen, runs): &mut (Vec<u32>, Runs)| {
                let pr = [snap.x[k], snap.y[k], snap.z[k]];
                let vel = unraw([snap.vx[k], snap.vy[k], snap.vz[k]]);
                let draw = draws[snap.id[k] as usize];
                let m = next::<false>((snap, &sh, pairs), (k, pr, vel, draw), (seen, runs));
                let (pos, _) = FlockSim::bound(cfg, unraw(pr));
                (Boid { pos, vel: m.vel }, m.attitude)
            },
        );
        return;
    }
    let mut runs = Runs::new();
    for k in 0..snap.len() {
        let id = snap.id[k] as usize;
        let vel = unraw([snap.vx[k], snap.vy[k], snap.vz[k]]);
        if in_place {
            let moved = unraw([snap.x[k], snap.y[k], snap.z[k]]) + vel * dt;
            let r = raw(moved);
            (snap.x[k], snap.y[k], snap.z[k]) = (r[0], r[1], r[2]);
        }
        let pr = [snap.x[k], snap.y[k], snap.z[k]];
        let m = next::<TRACE>(
            (snap, &sh, pairs),
            (k, pr, vel, draws[id]),
            (seen, &mut runs),
        );
        let (np, _) = FlockSim::bound(cfg, unraw(pr));
        state.boids[id].pos = np;
        state.boids[id].vel = m.vel;
        att[id] = m.attitude;
        if in_place {
            let (r, v) = (raw(np), raw(m.vel));
            (snap.x[k], snap.y[k], snap.z[k]) = (r[0], r[1], r[2]);
            (snap.vx[k], snap.vy[k], snap.vz[k]) = (v[0], v[1], v[2]);
        }
        if TRACE {
            let about = (m.acc, m.clamps, p.max_visible);
            explains[id] = Some(explained(
                id,
                (snap, seen),
                (m.count, m.nearest),
                &m.rules,
                about,
            ));
        }
    }
}
