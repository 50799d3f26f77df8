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

use super::grid::radius2_q32;
use super::{BoidExplain, Feeler, FlockSim, Model, Rule, Steer, Update, mean, raw, unraw};
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

pub(super) fn step<const TRACE: bool>(
    sim: &mut FlockSim,
    dt: Fx,
    explains: &mut [Option<BoidExplain>],
) {
    let Model::Heading(p) = &sim.cfg.model else {
        unreachable!("heading::step runs the heading model")
    };
    let super::ModelState::Heading { heading } = &mut sim.state.model else {
        unreachable!("the heading model keeps headings")
    };
    let in_place = sim.cfg.update == Update::InPlace;
    let brute = in_place || sim.cfg.search == super::Search::Brute;
    let radius = p.view_range.to_bits();
    sim.snap.rebuild(
        &mut sim.state.boids,
        |_, _| {},
        Some(heading),
        sim.cfg.world_min,
        sim.cfg.world_max,
        radius,
        brute,
        false,
    );
    let snap = &mut sim.snap;
    let view2 = radius2_q32(p.view_range);
    let sep = p.separate_range.to_bits();
    let sep2 = radius2_q32(p.separate_range);
    let fov_half = p.fov_half.0 as u64;
    let blind_end = (1u64 << 32) - fov_half;
    let sep_units = p.separate_turn.0;
    for k in 0..snap.len() {
        let id = snap.id[k] as usize;
        let (px, py) = (snap.x[k], snap.y[k]);
        let h = snap.hd[k];
        let mut ex = if TRACE {
            Some(BoidExplain::new(id as u32))
        } else {
            None
        };
        let mut seen = 0u32;
        let mut coh = [0i128; 3];
        let mut align = 0i64;
        let mut sep_turn = 0i64;
        let mut nearest = (u64::MAX, u32::MAX);
        snap.for_each_within::<false>(k, [px, py, 0], view2, |m, dx, dy, _, d2| {
            let bearing = Angle::atan2(Fx::from_bits(dy), Fx::from_bits(dx))
                .0
                .wrapping_sub(h) as u64;
            if bearing >= fov_half && bearing <= blind_end {
                return;
            }
            seen += 1;
            coh[0] += dx as i128;
            coh[1] += dy as i128;
            align += if p.naive_angle_average {
                snap.hd[m].wrapping_sub(h) as i64
            } else {
                Angle(h).turn_to(Angle(snap.hd[m]))
            };
            if d2 <= sep2 {
                // The exact distance (the Q16 metric only decides who is in range).
                let d = sqrt_wide(
                    (dx.unsigned_abs() as u128).pow(2) + (dy.unsigned_abs() as u128).pow(2),
                ) as i64;
                let t = scale_turn(sep_units, (sep - d).max(0), sep);
                sep_turn += if bearing <= 1 << 31 { -t } else { t };
            }
            if TRACE {
                let e = ex.as_mut().expect("tracing");
                e.neighbours.push(snap.id[m]);
                if (d2, snap.id[m]) < nearest {
                    nearest = (d2, snap.id[m]);
                }
            }
        });
        // Obstacles.
        let ang = Angle(h);
        let u = ang.unit();
        let pos = Vec2::new(Fx::from_bits(px), Fx::from_bits(py));
        let mut avoid = 0i64;
        for (oi, o) in sim.cfg.obstacles.iter().enumerate() {
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
        let (coh_turn, align_turn) = if seen > 0 {
            let n1 = seen + u32::from(p.count_self);
            let avg = mean(coh, n1);
            let target = Angle::atan2(avg.y, avg.x);
            (ang.turn_to(target), align / n1 as i64)
        } else {
            (0, 0)
        };
        let total = if seen > 0 {
            coh_turn + align_turn + sep_turn + avoid
        } else {
            avoid
        };
        let new_h = Angle(h.wrapping_add(total as u32));
        let speed = sim.speeds[id];
        let v = new_h.unit() * speed;
        let vel = Vec3::new(v.x, v.y, Fx::ZERO);
        let moved = unraw([px, py, 0]) + vel * dt;
        let (np, clamped) = FlockSim::bound(&sim.cfg, moved);
        sim.state.boids[id].pos = np;
        sim.state.boids[id].vel = vel;
        heading[id] = new_h;
        if in_place {
            let r = raw(np);
            snap.x[k] = r[0];
            snap.y[k] = r[1];
            snap.hd[k] = new_h.0;
        }
        if TRACE {
            let mut e = ex.expect("tracing");
            e.neighbours.sort_unstable();
            e.nearest = (nearest.1 != u32::MAX).then_some(nearest.1);
            if seen > 0 {
                e.rules.push((Rule::Cohesion, Steer::Turn(coh_turn)));
                e.rules.push((Rule::Alignment, Steer::Turn(align_turn)));
                e.rules.push((Rule::Separation, Steer::Turn(sep_turn)));
            }
            e.rules.push((Rule::Obstacle, Steer::Turn(avoid)));
            if clamped {
                e.clamps.push(super::Clamp::CoordLimit);
            }
            e.steering = Steer::Turn(total);
            explains[id] = Some(e);
        }
    }
}
