//! The heading model (article 000): a heading angle and a constant speed,
//! steered by adding up turns.
//!
//! For every other boid within `view_range` (inclusive) whose bearing,
//! relative to the own heading, is outside the blind zone
//! `[fov/2, 360° − fov/2]` (inclusive, as the article tests it):
//! - **cohesion** adds its relative position to a sum;
//! - **alignment** adds the shortest signed turn from the own heading to
//!   its heading ([`Angle::turn_to`]; exactly 180° is +180° when the
//!   mate's heading is the larger angle, as the article's `GetRotateRad`
//!   has it, else −180°). With
//!   `naive_angle_average` it adds the turn read in `[0°, 360°)` instead —
//!   the bug the article warns about: neighbours at +30° and −30° (= 330°)
//!   average to 180° rather than 0°;
//! - **separation**, if within `separate_range` (inclusive), turns away by
//!   `separate_turn · (range − distance) / range`: clockwise if the mate is
//!   on the left (bearing ≤ 180°), else counter-clockwise.
//!
//! Then every obstacle: project its offset on the heading; skip it if the
//! projection's *absolute* length exceeds `check_distance` — so obstacles
//! behind the boid steer it too, the article's quirk, unless
//! `ignore_obstacles_behind` — or if it lies `check_range + radius` or more
//! from the heading line; else turn away by
//! `avoid_turn · (check_distance − |projection|) / check_distance`.
//!
//! If anyone was seen, the averages count the boid itself (`n + 1`, adding
//! nothing; `count_self = false` divides by `n`): that scales the
//! alignment turn by `n / (n + 1)` — half of it with one mate — and leaves
//! the direction to the mean position, so cohesion, unchanged. The turn
//! is: the shortest turn towards the average relative position + the
//! average alignment turn + the separation sum + the avoidance sum; otherwise the avoidance sum alone. The heading turns
//! by that much at once — no turn-rate limit — and the boid moves
//! `speed · dt` along its new heading.

use super::grid::{Runs, Snapshot, radius2_q32};
use super::{
    Boid, BoidExplain, Feeler, FlockConfig, FlockSim, Model, Obstacle, Rule, Steer, Update, mean,
    raw, unraw,
};
use crate::num::rsqrt::sqrt_wide;
use crate::num::{Angle, Fx, Vec2, Vec3};
use crate::sim::SimError;

/// Parameters of the heading model; defaults are article 000's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadingParams {
    /// How far a boid sees (`VIEW_RANGE_MAX = 75`).
    pub view_range: Fx,
    /// Half the field of view (`VIEW_RADIUS_MAX / 2 = 90°`); 180° leaves
    /// only the exact rear blind.
    pub fov_half: Angle,
    /// Separation acts within this distance (`SEPARATE_RANGE_MAX = 30`).
    pub separate_range: Fx,
    /// The largest separation turn (`SEPARATE_DIR_MAX = 60°`).
    pub separate_turn: Angle,
    /// Obstacles farther ahead (or behind) than this are ignored
    /// (`CHECK_OBSTACLE_DISTANCE = 80`).
    pub check_distance: Fx,
    /// Obstacles this far or farther from the heading line are ignored
    /// (`CHECK_OBSTACLE_RANGE = 60`, widened by the obstacle's radius).
    pub check_range: Fx,
    /// The largest avoidance turn (`CHECK_OBSTACLE_RADIUS = 60°`).
    pub avoid_turn: Angle,
    /// Average headings as plain numbers (the article's warning).
    pub naive_angle_average: bool,
    /// Skip obstacles behind the boid (off = faithful to the article).
    pub ignore_obstacles_behind: bool,
    /// Count the boid itself in the averages, `n + 1` (on = the article);
    /// off divides by the mates seen, `n`.
    pub count_self: bool,
}

impl Default for HeadingParams {
    fn default() -> HeadingParams {
        HeadingParams {
            view_range: Fx::from_int(75),
            fov_half: Angle::QUARTER,
            separate_range: Fx::from_int(30),
            separate_turn: Angle::from_degrees_int(60),
            check_distance: Fx::from_int(80),
            check_range: Fx::from_int(60),
            avoid_turn: Angle::from_degrees_int(60),
            naive_angle_average: false,
            ignore_obstacles_behind: false,
            count_self: true,
        }
    }
}

impl HeadingParams {
    /// Checks the parameters against their documented ranges.
    pub fn check(&self) -> Result<(), SimError> {
        self.check_text().map_err(SimError::config)
    }

    fn check_text(&self) -> Result<(), String> {
        let r = Fx::from_int(super::MAX_RADIUS);
        for (name, v) in [
            ("view_range", self.view_range),
            ("separate_range", self.separate_range),
            ("check_distance", self.check_distance),
            ("check_range", self.check_range),
        ] {
            if v <= Fx::ZERO || v > r {
                return Err(format!("{name} must be in (0, {}]", super::MAX_RADIUS));
            }
        }
        if self.fov_half > Angle::HALF {
            return Err("fov must be in 0..=360 degrees".into());
        }
        if self.separate_turn > Angle::HALF || self.avoid_turn > Angle::HALF {
            return Err("turn limits must be in 0..=180 degrees".into());
        }
        Ok(())
    }
}

/// `units · num / den` for turn magnitudes (den > 0).
#[inline]
fn scale_turn(units: u32, num: i64, den: i64) -> i64 {
    (units as i128 * num as i128 / den as i128) as i64
}

/// What every boid's rules share in one tick, in raw units: the view and
/// separation radii (the neighbour metric's and the exact one), the blind
/// zone's ends as bearings, the separation turn.
struct Shared<'a> {
    p: &'a HeadingParams,
    view2: u64,
    sep: i64,
    sep2: u64,
    fov_half: u64,
    blind_end: u64,
}

impl<'a> Shared<'a> {
    fn new(p: &'a HeadingParams) -> Shared<'a> {
        let fov_half = p.fov_half.0 as u64;
        Shared {
            p,
            view2: radius2_q32(p.view_range),
            sep: p.separate_range.to_bits(),
            sep2: radius2_q32(p.separate_range),
            fov_half,
            blind_end: (1u64 << 32) - fov_half,
        }
    }
}

/// One boid's sums over the mates it sees.
struct Sums {
    seen: u32,
    /// Their relative positions (cohesion).
    coh: [i128; 3],
    /// Their turns from the own heading (alignment).
    align: i64,
    /// The separation turns.
    sep_turn: i64,
    /// The nearest as (distance², id), traced ticks only.
    nearest: (u64, u32),
}

/// Alignment's term for a mate heading `hm` seen by a boid heading `h`:
/// the shortest signed turn, or with `naive_angle_average` the turn read
/// in `[0°, 360°)` (the article's warning).
#[inline(always)]
fn alignment_turn(h: u32, hm: u32, naive: bool) -> i64 {
    if naive {
        hm.wrapping_sub(h) as i64
    } else {
        Angle(h).turn_to(Angle(hm))
    }
}

/// Separation's turn from a mate at offset (dx, dy) and `bearing`, within
/// `separate_range`: away by `separate_turn · (range − distance) / range`,
/// clockwise if the mate is on the left.
#[inline(always)]
fn separation_turn(dx: i64, dy: i64, bearing: u64, sh: &Shared) -> i64 {
    // The exact distance (the Q16 metric only decides who is in range).
    let d =
        sqrt_wide((dx.unsigned_abs() as u128).pow(2) + (dy.unsigned_abs() as u128).pow(2)) as i64;
    let t = scale_turn(sh.p.separate_turn.0, (sh.sep - d).max(0), sh.sep);
    if bearing <= 1 << 31 { -t } else { t }
}

/// The mates snapshot boid `k` sees — within `view_range`, outside the
/// blind zone behind it — summed for cohesion, alignment and separation.
#[inline(always)]
fn mates<const TRACE: bool>(
    (snap, runs): (&Snapshot, &mut Runs),
    k: usize,
    sh: &Shared,
    ex: &mut Option<BoidExplain>,
) -> Sums {
    let h = snap.hd[k];
    let mut s = Sums {
        seen: 0,
        coh: [0; 3],
        align: 0,
        sep_turn: 0,
        nearest: (u64::MAX, u32::MAX),
    };
    // Copies the loop keeps in registers.
    let (fov_half, blind_end, sep2) = (sh.fov_half, sh.blind_end, sh.sep2);
    let naive = sh.p.naive_angle_average;
    snap.for_each_within::<false>(k, runs, sh.view2, |m, dx, dy, _, d2| {
        let bearing = Angle::atan2(Fx::from_bits(dy), Fx::from_bits(dx))
            .0
            .wrapping_sub(h) as u64;
        if bearing >= fov_half && bearing <= blind_end {
            return;
        }
        s.seen += 1;
        s.coh[0] += dx as i128;
        s.coh[1] += dy as i128;
        s.align += alignment_turn(h, snap.hd[m], naive);
        if d2 <= sep2 {
            s.sep_turn += separation_turn(dx, dy, bearing, sh);
        }
        if TRACE {
            ex.as_mut().expect("tracing").neighbours.push(snap.id[m]);
            s.nearest = s.nearest.min((d2, snap.id[m]));
        }
    });
    s
}

/// Obstacle avoidance for a boid at `pos` heading `h`: each obstacle whose
/// projection on the heading is within `check_distance` (either side,
/// unless `ignore_obstacles_behind`) and which lies within `check_range +
/// radius` of the heading line turns it away by `avoid_turn ·
/// (check_distance − |projection|) / check_distance`. Returns the sum.
fn avoidance<const TRACE: bool>(
    pos: Vec2,
    h: u32,
    obstacles: &[Obstacle],
    p: &HeadingParams,
    ex: &mut Option<BoidExplain>,
) -> i64 {
    let u = Angle(h).unit();
    let mut avoid = 0i64;
    for (oi, o) in obstacles.iter().enumerate() {
        let off = Vec2::new(o.center.x, o.center.y) - pos;
        let proj = off.dot(u);
        let proj_abs = proj.abs();
        let behind = proj < Fx::ZERO;
        let perp_v = u * proj - off;
        let reach = p.check_range + o.radius;
        let near_line = perp_v.length_squared_wide() < (reach.to_bits() as u128).pow(2);
        let steers =
            !(p.ignore_obstacles_behind && behind) && proj_abs <= p.check_distance && near_line;
        let mut turn = 0;
        if steers {
            let bearing = Angle::of(off).0.wrapping_sub(h);
            let t = scale_turn(
                p.avoid_turn.0,
                (p.check_distance - proj_abs).to_bits(),
                p.check_distance.to_bits(),
            );
            turn = if bearing <= 1 << 31 { -t } else { t };
            avoid += turn;
        }
        if TRACE && proj_abs <= p.check_distance + reach {
            ex.as_mut().expect("tracing").feelers.push(Feeler {
                obstacle: oi as u32,
                projection: proj,
                perpendicular: perp_v.fast_length(),
                turn,
                steered: steers,
            });
        }
    }
    avoid
}

/// Cohesion and alignment turns from the sums (none seen: none): the
/// shortest turn towards the average relative position, and the average
/// alignment turn, both over `n + 1` with `count_self`.
fn cohesion_and_alignment(s: &Sums, h: u32, p: &HeadingParams) -> (i64, i64) {
    if s.seen == 0 {
        return (0, 0);
    }
    let n1 = s.seen + u32::from(p.count_self);
    let avg = mean(s.coh, n1);
    let target = Angle::atan2(avg.y, avg.x);
    (Angle(h).turn_to(target), s.align / n1 as i64)
}

/// The explain record of a boid: its mates, its turns, its clamp.
fn explained(
    mut e: BoidExplain,
    s: &Sums,
    [coh_turn, align_turn, avoid, total]: [i64; 4],
    clamped: bool,
) -> BoidExplain {
    e.neighbours.sort_unstable();
    e.nearest = (s.nearest.1 != u32::MAX).then_some(s.nearest.1);
    if s.seen > 0 {
        e.rules.push((Rule::Cohesion, Steer::Turn(coh_turn)));
        e.rules.push((Rule::Alignment, Steer::Turn(align_turn)));
        e.rules.push((Rule::Separation, Steer::Turn(s.sep_turn)));
    }
    e.rules.push((Rule::Obstacle, Steer::Turn(avoid)));
    if clamped {
        e.clamps.push(super::Clamp::CoordLimit);
    }
    e.steering = Steer::Turn(total);
    e
}

/// What boid `k` does this tick: its sums, its turns (cohesion,
/// alignment, avoidance, total), its new heading, and its new velocity and
/// position (bounded; whether the coordinate limit clamped it).
struct Move {
    sums: Sums,
    turns: [i64; 4],
    heading: Angle,
    boid: Boid,
    clamped: bool,
}

/// Boid `k`'s [`Move`], from the snapshot.
#[inline(always)]
fn next<const TRACE: bool>(
    (snap, sh, runs): (&Snapshot, &Shared, &mut Runs),
    (cfg, k, speed, dt): (&FlockConfig, usize, Fx, Fx),
    ex: &mut Option<BoidExplain>,
) -> Move {
    let p = sh.p;
    let (px, py, h) = (snap.x[k], snap.y[k], snap.hd[k]);
    let s = mates::<TRACE>((snap, runs), k, sh, ex);
    let pos = Vec2::new(Fx::from_bits(px), Fx::from_bits(py));
    let avoid = avoidance::<TRACE>(pos, h, &cfg.obstacles, p, ex);
    let (coh_turn, align_turn) = cohesion_and_alignment(&s, h, p);
    let total = if s.seen > 0 {
        coh_turn + align_turn + s.sep_turn + avoid
    } else {
        avoid
    };
    let new_h = Angle(h.wrapping_add(total as u32));
    let v = new_h.unit() * speed;
    let vel = Vec3::new(v.x, v.y, Fx::ZERO);
    let (np, clamped) = FlockSim::bound(cfg, unraw([px, py, 0]) + vel * dt);
    Move {
        sums: s,
        turns: [coh_turn, align_turn, avoid, total],
        heading: new_h,
        boid: Boid { pos: np, vel },
        clamped,
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
        speeds,
        threads,
        used,
        ..
    } = sim;
    let Model::Heading(p) = &cfg.model else {
        unreachable!("heading::step runs the heading model")
    };
    let super::ModelState::Heading { heading } = &mut state.model else {
        unreachable!("the heading model keeps headings")
    };
    let in_place = cfg.update == Update::InPlace;
    let brute = in_place || cfg.search == super::Search::Brute;
    let radius = p.view_range.to_bits();
    let (min, max) = (cfg.world_min, cfg.world_max);
    snap.rebuild(
        &mut state.boids,
        |_, _| {},
        Some(heading),
        min,
        max,
        radius,
        brute,
        false,
    );
    let sh = Shared::new(p);
    let parts = crate::par::parts(snap.len(), *threads, 1);
    *used = if !TRACE && !in_place { parts } else { 1 };
    if *used > 1 {
        let snap = &*snap;
        let out = (&mut state.boids[..], &mut heading[..]);
        crate::par::in_id_order(&snap.id, parts, out, |k, runs: &mut Runs| {
            let m = next::<false>(
                (snap, &sh, runs),
                (cfg, k, speeds[snap.id[k] as usize], dt),
                &mut None,
            );
            (m.boid, m.heading)
        });
        return;
    }
    let mut runs = Runs::new();
    for k in 0..snap.len() {
        let id = snap.id[k] as usize;
        let mut ex = TRACE.then(|| BoidExplain::new(id as u32));
        let m = next::<TRACE>((snap, &sh, &mut runs), (cfg, k, speeds[id], dt), &mut ex);
        state.boids[id] = m.boid;
        heading[id] = m.heading;
        if in_place {
            let r = raw(m.boid.pos);
            snap.x[k] = r[0];
            snap.y[k] = r[1];
            snap.hd[k] = m.heading.0;
        }
        if let Some(e) = ex {
            explains[id] = Some(explained(e, &m.sums, m.turns, m.clamped));
        }
    }
}
