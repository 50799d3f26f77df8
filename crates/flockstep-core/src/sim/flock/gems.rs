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

use super::grid::radius2_q32;
use super::{
    Attitude, BoidExplain, Clamp, FlockSim, Model, ModelState, Rule, Steer, Update, raw, unraw,
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
    let d = vel - old;
    // The article projects the change on lateralDir = unit((v × d) × v),
    // the direction of d's part perpendicular to v; that projection is the
    // length of the perpendicular part, d − (d·v̂)v̂ (never negative, so the
    // article's fish only ever bank one way — a quirk kept as is). Computed
    // this way it takes one product per axis instead of two cross products.
    let vn = vel.fast_normalize();
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

pub(super) fn step<const TRACE: bool>(
    sim: &mut FlockSim,
    dt: Fx,
    explains: &mut [Option<BoidExplain>],
) {
    let Model::Gems(p) = &sim.cfg.model else {
        unreachable!("gems::step runs the gems model")
    };
    let ModelState::Gems { attitude: att } = &mut sim.state.model else {
        unreachable!("the gems model keeps attitudes")
    };
    let in_place = sim.cfg.update == Update::InPlace;
    let brute = in_place || sim.cfg.search == super::Search::Brute;
    let n = sim.state.boids.len();
    // The wobble: one draw per fish, in id order, before anyone steers.
    sim.draws.clear();
    for _ in 0..n {
        sim.draws.push(sim.state.rng.below(100));
    }
    // Step 1 (article): move by the last velocity — everyone first, while
    // the snapshot is built, unless updating in place, where each fish
    // moves just before it looks.
    let radius = p.perception.to_bits();
    sim.snap.rebuild(
        &mut sim.state.boids,
        |_, b| {
            if !in_place {
                b.pos += b.vel * dt;
            }
        },
        None,
        sim.cfg.world_min,
        sim.cfg.world_max,
        radius,
        brute,
        true,
    );
    let snap = &mut sim.snap;
    // Strictly closer than perception: d2 ≤ perception² − 1 (Q32 units).
    let perc2 = radius2_q32(p.perception);
    let cone = p.view_angle.map(|a| Angle(a.0 / 2).cos());
    // Divisions by constants become multiplications by their reciprocals
    // (computed once per tick; a fixed-point division costs ~20 multiplies).
    let inv_sep = Fx::ONE / p.separation_dist;
    let inv_max_speed = Fx::ONE / p.max_speed;
    // Untraced double-buffered ticks without a view angle (visibility is
    // then symmetric) meet each pair once: both fish update their nearest
    // mate and their list of the `max_visible` smallest ids. The same sets
    // and the same nearest as a query per fish, so the same result.
    let n = snap.len();
    let cap = p.max_visible as usize;
    let pairwise = !TRACE && !in_place && cone.is_none() && cap <= PAIR_CAP;
    if pairwise {
        let (list, len) = (&mut sim.pair_list, &mut sim.pair_len);
        let (near_d2, near_m) = (&mut sim.near_d2, &mut sim.near_m);
        list.clear();
        list.resize(n * cap, 0);
        len.clear();
        len.resize(n, 0);
        near_d2.clear();
        near_d2.resize(n, u64::MAX);
        near_m.clear();
        near_m.resize(n, u32::MAX);
        let sn = &*snap;
        // Offer `m` to fish `k`'s list: keep the `cap` smallest ids.
        let mut offer = |k: usize, m: usize| {
            let l = &mut list[k * cap..(k + 1) * cap];
            let used = len[k] as usize;
            if used < cap {
                l[used] = m as u32;
                len[k] += 1;
                return;
            }
            let (mut worst, mut worst_id) = (0, sn.id[l[0] as usize]);
            for (j, &e) in l.iter().enumerate().skip(1) {
                let eid = sn.id[e as usize];
                if eid > worst_id {
                    (worst, worst_id) = (j, eid);
                }
            }
            if sn.id[m] < worst_id {
                l[worst] = m as u32;
            }
        };
        sn.for_each_pair::<true>(perc2 - 1, |k, m, _, _, _, d2| {
            offer(k, m);
            offer(m, k);
            for (a, b) in [(k, m), (m, k)] {
                let cur = near_m[a];
                if cur == u32::MAX || (d2, sn.id[b]) < (near_d2[a], sn.id[cur as usize]) {
                    near_d2[a] = d2;
                    near_m[a] = b as u32;
                }
            }
        });
    }
    let seen = &mut sim.seen;
    for k in 0..n {
        let id = snap.id[k] as usize;
        let mut ex = if TRACE {
            Some(BoidExplain::new(id as u32))
        } else {
            None
        };
        let vel = unraw([snap.vx[k], snap.vy[k], snap.vz[k]]);
        if in_place {
            let moved = unraw([snap.x[k], snap.y[k], snap.z[k]]) + vel * dt;
            let r = raw(moved);
            (snap.x[k], snap.y[k], snap.z[k]) = (r[0], r[1], r[2]);
        }
        let (px, py, pz) = (snap.x[k], snap.y[k], snap.z[k]);
        // With a view angle: a mate counts if the angle between the velocity
        // and the offset is at most half the view angle. A fish at rest has
        // no facing and sees all around.
        let speed_len = vel.fast_length();
        seen.clear();
        let mut nearest = (u64::MAX, u32::MAX, 0usize);
        if pairwise {
            let used = sim.pair_len[k] as usize;
            seen.extend_from_slice(&sim.pair_list[k * cap..k * cap + used]);
            let m = sim.near_m[k];
            if m != u32::MAX {
                nearest = (sim.near_d2[k], snap.id[m as usize], m as usize);
            }
        } else {
            snap.for_each_within::<true>(k, [px, py, pz], perc2 - 1, |m, dx, dy, dz, d2| {
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
                let key = (d2, snap.id[m], m);
                if key < nearest {
                    nearest = key;
                }
            });
        }
        let count = seen.len() as u32;
        if count > p.max_visible {
            // Keep the first max_visible by id, as the article's list does
            // (which ones, not their order: the centre is an exact sum).
            let cap = p.max_visible as usize;
            seen.select_nth_unstable_by_key(cap - 1, |&m| snap.id[m as usize]);
            seen.truncate(cap);
        }
        let pos = unraw([px, py, pz]);
        let mut acc = Vec3::ZERO;
        let (mut r_sep, mut r_align, mut r_coh) = (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
        if count > 0 {
            let nm = nearest.2;
            let to_near = unraw([snap.x[nm] - px, snap.y[nm] - py, snap.z[nm] - pz]);
            let dist = to_near.fast_length(); // exact offsets, not the Q16 metric
            let ratio = (dist * inv_sep).clamp(p.min_urgency, p.max_urgency);
            let unit = to_near.fast_normalize();
            r_sep = if dist < p.separation_dist {
                unit * -ratio
            } else if dist > p.separation_dist {
                unit * ratio
            } else {
                Vec3::ZERO
            };
            let near_vel = unraw([snap.vx[nm], snap.vy[nm], snap.vz[nm]]);
            r_align = near_vel.fast_normalize() * p.min_urgency;
            let mut sum = [0i128; 3];
            for &m in seen.iter() {
                let m = m as usize;
                sum[0] += (snap.x[m] - px) as i128;
                sum[1] += (snap.y[m] - py) as i128;
                sum[2] += (snap.z[m] - pz) as i128;
            }
            // The direction to the centre is the direction of the summed
            // offsets: no division needed.
            r_coh = Vec3::new(
                Fx::from_bits(sum[0] as i64),
                Fx::from_bits(sum[1] as i64),
                Fx::from_bits(sum[2] as i64),
            )
            .fast_normalize()
                * p.min_urgency;
            acc = r_sep + r_align + r_coh;
        }
        // Cruising.
        let diff = (speed_len - p.desired_speed) * inv_max_speed;
        let urgency = diff.abs().clamp(p.min_urgency, p.max_urgency);
        let sign_diff = if diff < Fx::ZERO { -Fx::ONE } else { Fx::ONE };
        let sign_neg = if -diff < Fx::ZERO { -Fx::ONE } else { Fx::ONE };
        let nudge = p.min_urgency * sign_diff;
        let mut wobble = vel;
        match sim.draws[id] {
            0..45 => wobble.x += nudge,
            45..90 => wobble.z += nudge,
            _ => wobble.y += nudge,
        }
        let r_cruise = wobble.fast_normalize() * (urgency * sign_neg);
        acc += r_cruise;
        let acc_len = acc.fast_length();
        let mut clamps = Vec::new();
        if acc_len > p.max_change {
            acc = acc.fast_with_length(p.max_change);
            if TRACE {
                clamps.push(Clamp::MaxChange(acc_len));
            }
        }
        let mut new_vel = vel + acc;
        let new_speed = new_vel.fast_length();
        if new_speed > p.max_speed {
            new_vel = new_vel.fast_with_length(p.max_speed);
            if TRACE {
                clamps.push(Clamp::MaxSpeed(new_speed));
            }
        }
        let (np, _) = FlockSim::bound(&sim.cfg, pos);
        sim.state.boids[id].pos = np;
        sim.state.boids[id].vel = new_vel;
        att[id] = attitude(new_vel, vel, p.gravity);
        if in_place {
            let r = raw(np);
            (snap.x[k], snap.y[k], snap.z[k]) = (r[0], r[1], r[2]);
            let v = raw(new_vel);
            (snap.vx[k], snap.vy[k], snap.vz[k]) = (v[0], v[1], v[2]);
        }
        if TRACE {
            let mut e = ex.take().expect("tracing");
            let mut ids: Vec<u32> = seen.iter().map(|&m| snap.id[m as usize]).collect();
            ids.sort_unstable();
            e.neighbours = ids;
            e.nearest = (count > 0).then_some(nearest.1);
            if count > 0 {
                e.rules.push((Rule::Separation, Steer::Vector(r_sep)));
                e.rules.push((Rule::Alignment, Steer::Vector(r_align)));
                e.rules.push((Rule::Cohesion, Steer::Vector(r_coh)));
            }
            e.rules.push((Rule::Cruising, Steer::Vector(r_cruise)));
            if count > p.max_visible {
                e.clamps.push(Clamp::ListFull(count));
            }
            e.clamps.extend(clamps);
            e.steering = Steer::Vector(acc);
            explains[id] = Some(e);
        }
    }
}
