//! Flocking: the three boid systems of the source articles, in fixed point.
//!
//! | model | article | space | what a boid carries |
//! |---|---|---|---|
//! | [`Model::Heading`] | 000 (Qiita) | 2-D | heading angle, constant speed |
//! | [`Model::Gems`] | 002 (Game Programming Gems aquarium) | 3-D | velocity, roll/pitch/yaw |
//! | [`Model::Weighted`] | 004 (Unity) | 3-D or 2-D | velocity, acceleration |
//!
//! Axes are mathematical (y up in 2-D, angles counter-clockwise); article
//! 000's screen coordinates are the same world mirrored, which changes no
//! rule. In the 3-D tanks y is up.
//!
//! **One tick.** `dt` is fixed per run (a lesson can make it jitter on
//! purpose, to show why replays need a fixed one). Under the default
//! double buffering every boid reads the previous tick's flock — a
//! [`grid::Snapshot`] taken before anyone moves — and writes its own next
//! state, so the result does not depend on the order boids are processed.
//! `update = "in_place"` processes boids in id order and lets each one see
//! the boids already updated this tick, as the articles' demos do; it uses
//! the brute-force scan, since boids move while the tick runs.
//!
//! The models that move first (gems, weighted: article 002 updates the
//! position from the last velocity *before* looking around, article 004
//! integrates the stored acceleration first) do that for everyone, then
//! take the snapshot, then steer.
//!
//! **Ties and order.** Sums are exact integer sums, so they do not depend
//! on visiting order; the nearest mate is the smallest `(distance², id)`;
//! a capped list of visible mates keeps the smallest ids; random draws are
//! made in id order before the boids are processed.
//!
//! **Precision.** Who is a neighbour is decided on offsets truncated to
//! 1/65536 of a unit ([`grid::dist2_q32`]: 64-bit instead of 128-bit
//! squares, the difference between a fast and a slow candidate scan), so a
//! mate within ~2⁻¹⁶ of the radius may fall either side of it — the same
//! side in every run and in the brute-force scan. Everything the rules then
//! compute uses exact offsets; lengths and unit vectors come from
//! [`crate::num::rsqrt`] (relative error below 2 × 10⁻⁹). `tests/flock.rs`
//! recomputes the weighted and heading rules in `f64` and compares.
//!
//! **Limits** (checked when a scenario is loaded, so that no arithmetic in
//! a step can overflow): world corners within ±[`COORD_LIMIT`], radii and
//! speeds up to [`MAX_RADIUS`] and [`MAX_SPEED`], at most [`MAX_BOIDS`]
//! boids, `dt` in `(0, 10]`. Positions that would leave ±`COORD_LIMIT`
//! (only possible with open bounds) are clamped, and the clamp is reported.

pub mod ascii;
mod gems;
pub mod grid;
mod heading;
mod weighted;

use super::{Sim, Sink};
use crate::num::wide::mul_u64;
use crate::num::{Angle, Fx, Pcg32, Vec3};
use crate::par;
use crate::sim::SimError;
use grid::Snapshot;
use serde::{Deserialize, Serialize};

pub use gems::GemsParams;
pub use heading::HeadingParams;
pub use weighted::{MAX_PUSH, WeightedParams};

/// The most boids a scenario may have.
pub const MAX_BOIDS: u32 = 1_000_000;
/// World corners must lie within ±this on every axis.
pub const COORD_LIMIT: i32 = 1_000_000;
/// The largest radius or distance parameter.
pub const MAX_RADIUS: i32 = 10_000;
/// The smallest length a rule divides by (the gems model's
/// `perception`, `separation_dist` and `max_speed`, the weighted model's
/// separation floor): 1/1000, so reciprocals stay at most 1,000.
pub const MIN_LENGTH: Fx = Fx::from_bits((1i64 << 32) / 1000);
/// The largest speed.
pub const MAX_SPEED: i32 = 10_000;

/// The largest acceleration component [`FlockSim::restore`] accepts.
pub const MAX_RESTORED_ACC: i32 = 1 << 20;

/// What happens at the edge of the world box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bounds {
    /// Periodic: leaving one side re-enters at the other (article 002).
    Wrap,
    /// The walls repel as virtual boids (article 004; weighted model only).
    /// Positions are not stopped at the walls, only at ±`COORD_LIMIT`.
    Walls,
    /// Nothing: boids fly on until ±`COORD_LIMIT`, where they are clamped.
    Open,
}

/// Which flock a boid reads while it steers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Update {
    /// Everyone reads the previous tick (the default; order-free).
    DoubleBuffered,
    /// Boids update in id order and see the ones already updated.
    InPlace,
}

/// Which boid gets which id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Numbering {
    /// The placed boids first, in order, then the generated ones (the
    /// default).
    AsPlaced,
    /// The same boids numbered from the other end: the last placed is
    /// boid 0. A double-buffered flock does the same with any numbering;
    /// an in-place one does not.
    Reversed,
}

/// How neighbours are found (the result is the same; the speed is not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Search {
    /// A uniform grid rebuilt every tick.
    Grid,
    /// Every pair, in id order.
    Brute,
}

/// The steering model and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// Article 000.
    Heading(HeadingParams),
    /// Article 002.
    Gems(GemsParams),
    /// Article 004.
    Weighted(WeightedParams),
}

impl Model {
    /// The model's name as written in lessons.
    pub fn name(&self) -> &'static str {
        match self {
            Model::Heading(_) => "heading",
            Model::Gems(_) => "gems",
            Model::Weighted(_) => "weighted",
        }
    }

    /// The largest distance at which one boid reads another.
    pub fn radius(&self) -> Fx {
        match self {
            Model::Heading(p) => p.view_range,
            Model::Gems(p) => p.perception,
            Model::Weighted(p) => p.fov,
        }
    }
}

/// A round obstacle: a circle in 2-D, a sphere in 3-D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Obstacle {
    /// Its centre (z = 0 in 2-D).
    pub center: Vec3,
    /// Its radius (0 = article 000's point obstacle).
    pub radius: Fx,
}

/// One boid placed explicitly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoidInit {
    /// Where it starts.
    pub pos: Vec3,
    /// Its velocity (gems, weighted); for the heading model, derived from
    /// `heading` and `speed`.
    pub vel: Vec3,
    /// Its heading (heading model).
    pub heading: Angle,
    /// Its constant speed (heading model).
    pub speed: Fx,
}

/// Boids placed by the seeded generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spawn {
    /// How many.
    pub count: u32,
    /// The region's minimum corner.
    pub min: Vec3,
    /// The region's maximum corner.
    pub max: Vec3,
    /// Slowest initial speed.
    pub speed_min: Fx,
    /// Fastest initial speed.
    pub speed_max: Fx,
}

/// A checked flock scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlockConfig {
    /// The steering model.
    pub model: Model,
    /// 2 or 3.
    pub dims: u8,
    /// The world box's minimum corner (z ignored in 2-D).
    pub world_min: Vec3,
    /// The world box's maximum corner.
    pub world_max: Vec3,
    /// The edge policy.
    pub bounds: Bounds,
    /// Double-buffered or in-place updates.
    pub update: Update,
    /// Which boid gets which id.
    pub numbering: Numbering,
    /// Grid or brute-force neighbour search.
    pub search: Search,
    /// The tick length.
    pub dt: Fx,
    /// Variable `dt` on purpose: each tick's `dt` is `dt · (1 ± dt_jitter)`,
    /// drawn from a generator seeded by `frame_seed` (standing in for the
    /// frame timings of one particular machine). 0 = fixed `dt`.
    pub dt_jitter: Fx,
    /// Seed of the frame-time generator (only used when `dt_jitter > 0`).
    pub frame_seed: u64,
    /// Seed of the placement and the gems model's wobble.
    pub seed: u64,
    /// Explicitly placed boids: ids `0..boids.len()`.
    pub boids: Vec<BoidInit>,
    /// Generated boids, after the explicit ones.
    pub spawn: Option<Spawn>,
    /// Obstacles (heading and weighted models).
    pub obstacles: Vec<Obstacle>,
}

impl FlockConfig {
    /// The number of boids the scenario starts with.
    pub fn boid_count(&self) -> u64 {
        self.boids.len() as u64 + self.spawn.map_or(0, |s| s.count as u64)
    }

    /// Checks the invariants [`FlockSim::new`] relies on (the loader checks
    /// the same with positions; this is the backstop for code that builds a
    /// config by hand).
    pub fn check(&self) -> Result<(), SimError> {
        self.check_text().map_err(SimError::config)
    }

    fn check_text(&self) -> Result<(), String> {
        let lim = Fx::from_int(COORD_LIMIT);
        let in_lim = |v: Vec3| [v.x, v.y, v.z].iter().all(|c| c.abs() <= lim);
        let r = Fx::from_int(MAX_RADIUS);
        let s = Fx::from_int(MAX_SPEED);
        let n = self.boid_count();
        if n == 0 || n > MAX_BOIDS as u64 {
            return Err(format!("a flock needs 1..={MAX_BOIDS} boids, not {n}"));
        }
        if !(self.dims == 2 || self.dims == 3) {
            return Err("dims must be 2 or 3".into());
        }
        if !in_lim(self.world_min) || !in_lim(self.world_max) {
            return Err(format!("the world box must lie within ±{COORD_LIMIT}"));
        }
        let axes = if self.dims == 3 { 3 } else { 2 };
        let (a, b) = (self.world_min, self.world_max);
        if [a.x < b.x, a.y < b.y, a.z < b.z][..axes].contains(&false) {
            return Err("the world box is empty: min must be below max on every axis".into());
        }
        if !(Fx::ZERO < self.dt && self.dt <= Fx::from_int(10)) {
            return Err("dt must be in (0, 10]".into());
        }
        if !(Fx::ZERO <= self.dt_jitter && self.dt_jitter <= Fx::from_ratio(9, 10).unwrap()) {
            return Err("dt_jitter must be in 0..=0.9".into());
        }
        let inside = |p: Vec3| {
            p.x >= a.x
                && p.x <= b.x
                && p.y >= a.y
                && p.y <= b.y
                && (self.dims == 2 || (p.z >= a.z && p.z <= b.z))
        };
        for (i, bi) in self.boids.iter().enumerate() {
            if !inside(bi.pos) {
                return Err(format!("boid {i} starts outside the world box"));
            }
            if bi.speed > s || bi.vel.fast_length() > s {
                return Err(format!("boid {i} is faster than {MAX_SPEED}"));
            }
        }
        if let Some(sp) = self.spawn
            && (!inside(sp.min)
                || !inside(sp.max)
                || sp.speed_min < Fx::ZERO
                || sp.speed_min > sp.speed_max
                || sp.speed_max > s)
        {
            return Err("the spawn region must lie in the world box, with 0 ≤ speed_min ≤ speed_max ≤ MAX_SPEED".into());
        }
        for (i, o) in self.obstacles.iter().enumerate() {
            if !inside(o.center) || o.radius < Fx::ZERO || o.radius > r {
                return Err(format!(
                    "obstacle {i} must have its centre in the world box and a radius in 0..={MAX_RADIUS}"
                ));
            }
        }
        if self.dims == 2 && (self.world_min.z != Fx::ZERO || self.world_max.z != Fx::ZERO) {
            return Err("a 2-D world has z = 0".into());
        }
        match &self.model {
            Model::Heading(p) => {
                if self.dims != 2 {
                    return Err("the heading model is 2-D".into());
                }
                if self.bounds == Bounds::Walls {
                    return Err("only the weighted model has walls as virtual boids".into());
                }
                p.check().map_err(String::from)
            }
            Model::Gems(p) => {
                if self.dims != 3 {
                    return Err("the gems model is 3-D".into());
                }
                if self.bounds == Bounds::Walls {
                    return Err("only the weighted model has walls as virtual boids".into());
                }
                if !self.obstacles.is_empty() {
                    return Err("the gems model has no obstacle rule (article 002)".into());
                }
                p.check().map_err(String::from)
            }
            Model::Weighted(p) => p.check().map_err(String::from),
        }
    }
}

/// One boid's position and velocity (per unit of time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Boid {
    /// Position.
    pub pos: Vec3,
    /// Velocity.
    pub vel: Vec3,
}

/// A fish's orientation in the gems model, derived from its velocity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Attitude {
    /// Up or down: `atan2(v.y, √(v.x² + v.z²))`.
    pub pitch: Angle,
    /// Around the vertical: `atan2(−v.x, −v.z)`.
    pub yaw: Angle,
    /// Banking into a turn, from the lateral part of the velocity change
    /// against gravity: `90° − atan2(g, lateral)` (0 when flying straight).
    pub roll: Angle,
}

/// What each model keeps per boid beyond position and velocity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ModelState {
    /// Heading model: each boid's heading.
    Heading {
        /// Headings, by id.
        heading: Vec<Angle>,
    },
    /// Gems model: each fish's roll, pitch and yaw.
    Gems {
        /// Attitudes, by id.
        attitude: Vec<Attitude>,
    },
    /// Weighted model: the acceleration the next tick integrates.
    Weighted {
        /// Accelerations, by id.
        acc: Vec<Vec3>,
    },
}

/// Everything that changes in a flock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlockState {
    /// Ticks stepped.
    pub tick: u64,
    /// The model's random generator (the gems wobble).
    pub rng: Pcg32,
    /// The frame-time generator (variable-`dt` lessons only).
    pub frame_rng: Pcg32,
    /// The `dt` of the last tick.
    pub dt: Fx,
    /// The boids, by id.
    pub boids: Vec<Boid>,
    /// Model-specific per-boid state.
    pub model: ModelState,
}

/// A steering contribution: a turn (heading model) or a vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Steer {
    /// A turn in binary-angle units (2³² = a full turn); may exceed a turn
    /// before wrapping.
    Turn(i64),
    /// A change of velocity (gems) or an acceleration (weighted).
    Vector(Vec3),
}

impl core::fmt::Display for Steer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Steer::Turn(t) => {
                // Degrees with 3 decimals, from the exact binary units.
                let milli = (*t as i128 * 360_000 + (1 << 31)).div_euclid(1 << 32);
                let sign = if milli < 0 { "-" } else { "" };
                let m = milli.unsigned_abs();
                write!(f, "{sign}{}.{:03}deg", m / 1000, m % 1000)
            }
            Steer::Vector(v) => write!(f, "({}, {}, {})", v.x, v.y, v.z),
        }
    }
}

/// The rule a contribution comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rule {
    /// Keep apart.
    Separation,
    /// Match heading or velocity.
    Alignment,
    /// Move towards the centre.
    Cohesion,
    /// Steer around obstacles.
    Obstacle,
    /// Swim at the desired speed, with a wobble (gems).
    Cruising,
}

impl Rule {
    /// The rule's name, as lessons and reports write it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Separation => "separation",
            Rule::Alignment => "alignment",
            Rule::Cohesion => "cohesion",
            Rule::Obstacle => "obstacle",
            Rule::Cruising => "cruising",
        }
    }
}

/// An obstacle a heading-model boid looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feeler {
    /// Obstacle index.
    pub obstacle: u32,
    /// Signed length of the obstacle's offset projected on the heading
    /// (negative = behind).
    pub projection: Fx,
    /// Distance of the obstacle from the heading line.
    pub perpendicular: Fx,
    /// The turn it caused (0 if ignored).
    pub turn: i64,
    /// Whether it steered the boid.
    pub steered: bool,
}

/// A limit that changed a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Clamp {
    /// The steering was longer than `max_change` (gems), was this long.
    MaxChange(Fx),
    /// The speed was above the maximum, was this.
    MaxSpeed(Fx),
    /// The speed was below the minimum (weighted), was this.
    MinSpeed(Fx),
    /// This many mates or walls were closer than the push floor
    /// ([`WeightedParams::push_floor`]): their separation push was capped.
    PushCapped(u32),
    /// More mates were visible than the list holds (gems), this many.
    ListFull(u32),
    /// The position hit ±`COORD_LIMIT` and was stopped there.
    CoordLimit,
}

/// Why one boid did what it did this tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoidExplain {
    /// The boid.
    pub id: u32,
    /// The mates it saw, ascending ids.
    pub neighbours: Vec<u32>,
    /// The nearest of them (smallest distance, then smallest id).
    pub nearest: Option<u32>,
    /// Each rule's contribution, before weighting (weighted: after
    /// averaging; heading: the turn it adds).
    pub rules: Vec<(Rule, Steer)>,
    /// Obstacles looked at (heading model).
    pub feelers: Vec<Feeler>,
    /// Virtual boids on walls and obstacle surfaces (weighted model).
    pub wall_boids: Vec<Vec3>,
    /// Limits that fired.
    pub clamps: Vec<Clamp>,
    /// The final steering applied.
    pub steering: Steer,
}

impl BoidExplain {
    fn new(id: u32) -> BoidExplain {
        BoidExplain {
            id,
            neighbours: Vec::new(),
            nearest: None,
            rules: Vec::new(),
            feelers: Vec::new(),
            wall_boids: Vec::new(),
            clamps: Vec::new(),
            steering: Steer::Turn(0),
        }
    }
}

/// What a step of the flock sim explains.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlockEvent {
    /// The tick's `dt` (first event of every step).
    Tick {
        /// The `dt` used.
        dt: Fx,
    },
    /// One boid's reasoning, in id order.
    Boid(Box<BoidExplain>),
    /// How many boids saw no one this step: the sim does not send it; a
    /// sink that keeps only some boids' reasoning adds it (the viewer's
    /// count of the boids that fly straight on).
    Alone(u32),
}

/// A running flock.
#[derive(Clone, Debug)]
pub struct FlockSim {
    cfg: FlockConfig,
    state: FlockState,
    /// Constant speeds (heading model), by id.
    speeds: Vec<Fx>,
    snap: Snapshot,
    /// Scratch: pre-drawn random numbers, by id.
    draws: Vec<u32>,
    /// Scratch: visible mates of one boid.
    seen: Vec<u32>,
    /// Scratch for the weighted model's pair pass, one per thread: a ring
    /// of slots for the boids in flight (mate counts, velocity, offset and
    /// push sums, raw), and the sums that wait for the range before.
    pair_parts: Vec<weighted::Part>,
    /// Threads a double-buffered tick may use (1: the calling thread).
    threads: usize,
    /// Threads the last tick used.
    used: usize,
    /// Scratch for the gems model's pair pass, by snapshot index: each
    /// fish's list of visible mates (`max_visible` slots), its length, and
    /// the nearest mate's squared distance and snapshot index.
    pair_list: Vec<u32>,
    pair_len: Vec<u32>,
    near_d2: Vec<u64>,
    near_m: Vec<u32>,
    /// On several threads, each range's offers to fish of later ranges.
    near_spill: Vec<Vec<gems::Spill>>,
}

/// Sets `v` to `len` copies of `fill`, growing its buffer to exactly
/// `len` when it must grow: a tick's scratch arrays are refilled every
/// tick, and the amortised doubling of `resize` would leave up to twice
/// their size held (a flock one boid larger than last tick's would hold
/// two snapshots).
pub(super) fn refill<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) {
    v.clear();
    v.reserve_exact(len);
    v.resize(len, fill);
}

/// Pushes `x` onto a per-boid array, growing a full one by a 64th (at
/// least 16): a boid added between ticks then leaves at most 1.6 % of the
/// array spare, not the whole array as doubling would, and adding many
/// still costs amortised constant time each.
fn push_boid<T>(v: &mut Vec<T>, x: T) {
    if v.len() == v.capacity() {
        v.reserve_exact((v.len() / 64).max(16));
    }
    v.push(x);
}

/// Whether a component of `v` lies outside `[−lim, lim]` (no `abs`, which
/// would overflow on `Fx::MIN`).
fn beyond(v: Vec3, lim: Fx) -> bool {
    [v.x, v.y, v.z].iter().any(|&c| c > lim || c < -lim)
}

/// A uniform random fixed-point number in `[lo, hi]`.
fn uniform(rng: &mut Pcg32, lo: Fx, hi: Fx) -> Fx {
    let span = (hi.to_bits() - lo.to_bits()) as u64;
    if span == 0 {
        return lo;
    }
    let r = ((rng.next_u64() as u128 * (span as u128 + 1)) >> 64) as i64;
    Fx::from_bits(lo.to_bits() + r)
}

/// A uniformly random direction (unit vector) by rejection sampling.
fn random_direction(rng: &mut Pcg32, d3: bool) -> Vec3 {
    loop {
        let c = |rng: &mut Pcg32| uniform(rng, -Fx::ONE, Fx::ONE);
        let v = Vec3::new(c(rng), c(rng), if d3 { c(rng) } else { Fx::ZERO });
        let l2 = v.length_squared_wide();
        // Inside the unit ball and not too close to the centre.
        if ((1u128 << 56)..=(1u128 << 64)).contains(&l2) {
            return v.fast_normalize();
        }
    }
}

/// The boids a flock starts with, and (heading model) their headings and
/// speeds.
struct Start {
    boids: Vec<Boid>,
    headings: Vec<Angle>,
    speeds: Vec<Fx>,
}

impl Start {
    /// The boids placed by hand, in order.
    fn placed(cfg: &FlockConfig) -> Start {
        let mut start = Start {
            boids: Vec::with_capacity(cfg.boid_count() as usize),
            headings: Vec::new(),
            speeds: Vec::new(),
        };
        let heading_model = matches!(cfg.model, Model::Heading(_));
        for b in &cfg.boids {
            if heading_model {
                start.headings.push(b.heading);
                start.speeds.push(b.speed);
                let u = b.heading.unit();
                start.boids.push(Boid {
                    pos: b.pos,
                    vel: Vec3::new(u.x * b.speed, u.y * b.speed, Fx::ZERO),
                });
            } else {
                start.boids.push(Boid {
                    pos: b.pos,
                    vel: b.vel,
                });
            }
        }
        start
    }

    /// The seeded placer's boids, after the placed ones: for each, its
    /// position (x, y, then z in 3-D), its speed, then its heading or
    /// direction, drawn from `rng` in that order.
    fn spawn(
        cfg: &FlockConfig,
        sp: &Spawn,
        rng: &mut Pcg32,
        (boids, headings, speeds): (&mut Vec<Boid>, &mut Vec<Angle>, &mut Vec<Fx>),
    ) {
        let d3 = cfg.dims == 3;
        let heading_model = matches!(cfg.model, Model::Heading(_));
        for _ in 0..sp.count {
            let pos = Vec3::new(
                uniform(rng, sp.min.x, sp.max.x),
                uniform(rng, sp.min.y, sp.max.y),
                if d3 {
                    uniform(rng, sp.min.z, sp.max.z)
                } else {
                    Fx::ZERO
                },
            );
            let speed = uniform(rng, sp.speed_min, sp.speed_max);
            if heading_model {
                let h = Angle(rng.next_u32());
                let u = h.unit();
                headings.push(h);
                speeds.push(speed);
                boids.push(Boid {
                    pos,
                    vel: Vec3::new(u.x * speed, u.y * speed, Fx::ZERO),
                });
            } else {
                let dir = random_direction(rng, d3);
                boids.push(Boid {
                    pos,
                    vel: dir * speed,
                });
            }
        }
    }
}

/// The model's state at tick 0.
fn initial_model(model: &Model, boids: &[Boid], headings: Vec<Angle>) -> ModelState {
    match model {
        Model::Heading(_) => ModelState::Heading { heading: headings },
        Model::Gems(_) => {
            let attitude = boids
                .iter()
                .map(|b| gems::attitude(b.vel, b.vel, Fx::ZERO))
                .collect();
            ModelState::Gems { attitude }
        }
        Model::Weighted(_) => ModelState::Weighted {
            acc: vec![Vec3::ZERO; boids.len()],
        },
    }
}

impl FlockSim {
    /// A flock at tick 0, or why the config is inconsistent.
    pub fn new(cfg: FlockConfig) -> Result<FlockSim, SimError> {
        Self::new_text(cfg).map_err(SimError::config)
    }

    fn new_text(cfg: FlockConfig) -> Result<FlockSim, String> {
        cfg.check()?;
        let mut rng = Pcg32::new(cfg.seed, 0xF10C);
        let Start {
            mut boids,
            mut headings,
            mut speeds,
        } = Start::placed(&cfg);
        if let Some(sp) = cfg.spawn {
            Start::spawn(
                &cfg,
                &sp,
                &mut rng,
                (&mut boids, &mut headings, &mut speeds),
            );
        }
        if cfg.numbering == Numbering::Reversed {
            boids.reverse();
            headings.reverse();
            speeds.reverse();
        }
        let model = initial_model(&cfg.model, &boids, headings);
        let state = FlockState {
            tick: 0,
            rng,
            // With a fixed dt the frame generator is never drawn from, and
            // its seed must not make two equal runs hash differently.
            frame_rng: Pcg32::new(
                if cfg.dt_jitter == Fx::ZERO {
                    0
                } else {
                    cfg.frame_seed
                },
                0xD7,
            ),
            dt: cfg.dt,
            boids,
            model,
        };
        Ok(FlockSim {
            cfg,
            state,
            speeds,
            snap: Snapshot::default(),
            draws: Vec::new(),
            seen: Vec::new(),
            pair_parts: Vec::new(),
            threads: par::default_threads(),
            used: 1,
            pair_list: Vec::new(),
            pair_len: Vec::new(),
            near_d2: Vec::new(),
            near_m: Vec::new(),
            near_spill: Vec::new(),
        })
    }

    /// Lets double-buffered ticks use up to `n` threads (at least 1; the
    /// web build always uses one). The result is the same bits on any
    /// number: see [`par`].
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, par::MAX_THREADS);
    }

    /// The threads double-buffered ticks may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The threads the last tick used: fewer than [`Self::threads`] when
    /// the flock is too small to share ([`par::MIN_PER_THREAD`] boids a
    /// thread, and for the weighted model two pair windows), when updating
    /// in place, and when tracing every boid.
    pub fn threads_used(&self) -> usize {
        self.used
    }

    /// Adds a boid between ticks (the viewer's "drop a boid"; replays
    /// record it as an [`crate::sim::Input`]): it gets the next id. Its
    /// position must lie in the world box and within ±[`COORD_LIMIT`], its
    /// velocity components within ±[`MAX_SPEED`]; the heading model takes
    /// its heading and constant speed from the velocity.
    pub fn add_boid(&mut self, pos: Vec3, vel: Vec3) -> Result<(), SimError> {
        self.add_boid_text(pos, vel).map_err(SimError::input)
    }

    fn add_boid_text(&mut self, pos: Vec3, vel: Vec3) -> Result<(), String> {
        if self.state.boids.len() as u64 >= u64::from(MAX_BOIDS) {
            return Err(format!("the flock already has {MAX_BOIDS} boids"));
        }
        let d3 = self.cfg.dims == 3;
        let inside = (0..if d3 { 3 } else { 2 }).all(|c| {
            pos.get(c) >= self.cfg.world_min.get(c) && pos.get(c) <= self.cfg.world_max.get(c)
        });
        if !inside || (!d3 && (pos.z != Fx::ZERO || vel.z != Fx::ZERO)) {
            return Err("the new boid must be inside the world box (z = 0 in 2-D)".into());
        }
        let vlim = Fx::from_int(MAX_SPEED);
        if beyond(vel, vlim) {
            return Err(format!("the new boid is faster than {MAX_SPEED}"));
        }
        let mut boid = Boid { pos, vel };
        match &mut self.state.model {
            ModelState::Heading { heading } => {
                let h = Angle::of(crate::num::Vec2::new(vel.x, vel.y));
                let speed = crate::num::Vec2::new(vel.x, vel.y).length();
                let u = h.unit();
                boid.vel = Vec3::new(u.x * speed, u.y * speed, Fx::ZERO);
                push_boid(heading, h);
                push_boid(&mut self.speeds, speed);
            }
            ModelState::Gems { attitude } => {
                push_boid(attitude, gems::attitude(vel, vel, Fx::ZERO));
            }
            ModelState::Weighted { acc } => push_boid(acc, Vec3::ZERO),
        }
        push_boid(&mut self.state.boids, boid);
        Ok(())
    }

    /// Moves obstacle `obstacle` between ticks (a viewer drag; replays
    /// record it as an [`crate::sim::Input`]). The centre must lie within
    /// ±[`COORD_LIMIT`] (z = 0 in 2-D).
    pub fn move_obstacle(&mut self, obstacle: u32, to: Vec3) -> Result<(), SimError> {
        self.move_obstacle_text(obstacle, to)
            .map_err(SimError::input)
    }

    fn move_obstacle_text(&mut self, obstacle: u32, to: Vec3) -> Result<(), String> {
        let n = self.cfg.obstacles.len();
        let Some(o) = self.cfg.obstacles.get_mut(obstacle as usize) else {
            return Err(format!(
                "there is no obstacle {obstacle} (the scenario has {n})"
            ));
        };
        let lim = Fx::from_int(COORD_LIMIT);
        if [to.x, to.y, to.z].iter().any(|c| c.abs() > lim)
            || (self.cfg.dims == 2 && to.z != Fx::ZERO)
        {
            return Err(format!(
                "an obstacle must stay within ±{COORD_LIMIT} (z = 0 in 2-D)"
            ));
        }
        o.center = to;
        Ok(())
    }

    /// Takes the parameters of `new` between ticks (a teacher's live
    /// change, [`crate::sim::Input::Set`]): the model's weights, radii and
    /// speeds, the bounds and the update order. The boids fly on from
    /// where they are, and the obstacles stay where inputs moved them. A
    /// new boid count grows the flock with the boids `new` starts with at
    /// those ids, or drops the highest ids. Another model, number of
    /// dimensions, world box or tick length is refused (they are not
    /// parameters a running flock can take); the sim is then unchanged.
    pub fn reconfigure(&mut self, new: &FlockConfig) -> Result<(), SimError> {
        self.reconfigure_text(new).map_err(SimError::input)
    }

    fn reconfigure_text(&mut self, new: &FlockConfig) -> Result<(), String> {
        let old = &self.cfg;
        if core::mem::discriminant(&old.model) != core::mem::discriminant(&new.model) {
            return Err(format!(
                "a running flock keeps its model ({}); start again with --set model={}",
                old.model.name(),
                new.model.name()
            ));
        }
        if (
            old.dims,
            old.world_min,
            old.world_max,
            old.dt,
            old.dt_jitter,
        ) != (
            new.dims,
            new.world_min,
            new.world_max,
            new.dt,
            new.dt_jitter,
        ) {
            return Err("a running flock keeps its dimensions, world box and tick length".into());
        }
        new.check().map_err(|e| e.message)?;
        let mut next = self.clone();
        next.cfg.model = new.model.clone();
        next.cfg.bounds = new.bounds;
        next.cfg.update = new.update;
        next.cfg.search = new.search;
        let want = new.boid_count() as usize;
        if want != next.state.boids.len() {
            next.resize(want, &FlockSim::new_text(new.clone())?);
        }
        *self = next;
        Ok(())
    }

    /// Grows the flock to `n` boids with `fresh`'s at the new ids, or
    /// drops the highest ids.
    fn resize(&mut self, n: usize, fresh: &FlockSim) {
        let have = self.state.boids.len();
        if n < have {
            self.state.boids.truncate(n);
            self.speeds.truncate(n.min(self.speeds.len()));
            match &mut self.state.model {
                ModelState::Heading { heading } => heading.truncate(n),
                ModelState::Gems { attitude } => attitude.truncate(n),
                ModelState::Weighted { acc } => acc.truncate(n),
            }
            return;
        }
        let new = have..n;
        self.state
            .boids
            .extend_from_slice(&fresh.state.boids[new.clone()]);
        if self.speeds.len() == have && fresh.speeds.len() >= n {
            self.speeds.extend_from_slice(&fresh.speeds[new.clone()]);
        }
        match (&mut self.state.model, &fresh.state.model) {
            (ModelState::Heading { heading }, ModelState::Heading { heading: f }) => {
                heading.extend_from_slice(&f[new]);
            }
            (ModelState::Gems { attitude }, ModelState::Gems { attitude: f }) => {
                attitude.extend_from_slice(&f[new]);
            }
            (ModelState::Weighted { acc }, ModelState::Weighted { acc: f }) => {
                acc.extend_from_slice(&f[new]);
            }
            _ => unreachable!("the models were checked to be the same"),
        }
    }

    /// Replaces the state with a recorded one (a replay's frame, for the
    /// viewer to step from), or says why this flock cannot step from it:
    /// the boid count and model must be the scenario's, positions within
    /// ±[`COORD_LIMIT`], velocity components within ±[`MAX_SPEED`],
    /// weighted accelerations within ±[`MAX_RESTORED_ACC`] and `dt` in
    /// `(0, 20]` — the ranges a step's arithmetic is proved for. The sim
    /// is unchanged on error.
    pub fn restore(&mut self, state: FlockState) -> Result<(), SimError> {
        self.restore_text(state).map_err(SimError::state)
    }

    fn restore_text(&mut self, state: FlockState) -> Result<(), String> {
        let n = self.state.boids.len();
        if state.boids.len() != n {
            return Err(format!(
                "the state has {} boids, the scenario {n}",
                state.boids.len()
            ));
        }
        let model_len = match (&state.model, &self.cfg.model) {
            (ModelState::Heading { heading }, Model::Heading(_)) => heading.len(),
            (ModelState::Gems { attitude }, Model::Gems(_)) => attitude.len(),
            (ModelState::Weighted { acc }, Model::Weighted(_)) => {
                let lim = Fx::from_int(MAX_RESTORED_ACC);
                if let Some(i) = acc.iter().position(|a| beyond(*a, lim)) {
                    return Err(format!(
                        "boid {i}'s acceleration is beyond ±{MAX_RESTORED_ACC}"
                    ));
                }
                acc.len()
            }
            _ => {
                return Err(format!(
                    "the state is not of the scenario's model ({})",
                    self.cfg.model.name()
                ));
            }
        };
        if model_len != n {
            return Err(format!(
                "the state has model data for {model_len} boids, the scenario {n}"
            ));
        }
        let (plim, vlim) = (Fx::from_int(COORD_LIMIT), Fx::from_int(MAX_SPEED));
        if let Some(i) = state.boids.iter().position(|b| beyond(b.pos, plim)) {
            return Err(format!("boid {i} is beyond ±{COORD_LIMIT}"));
        }
        if let Some(i) = state.boids.iter().position(|b| beyond(b.vel, vlim)) {
            return Err(format!("boid {i} is faster than {MAX_SPEED}"));
        }
        if state.dt <= Fx::ZERO || state.dt > Fx::from_int(20) {
            return Err(format!("the tick length {} is not in (0, 20]", state.dt));
        }
        self.state = state;
        Ok(())
    }

    /// The scenario.
    pub fn config(&self) -> &FlockConfig {
        &self.cfg
    }

    /// The constant speeds of the heading model's boids (empty otherwise).
    pub fn speeds(&self) -> &[Fx] {
        &self.speeds
    }

    /// Bytes held by the sim: state, scratch and snapshot (heap and inline).
    pub fn memory_bytes(&self) -> usize {
        let st = &self.state;
        let model = match &st.model {
            ModelState::Heading { heading } => heading.capacity() * size_of::<Angle>(),
            ModelState::Gems { attitude } => attitude.capacity() * size_of::<Attitude>(),
            ModelState::Weighted { acc } => acc.capacity() * size_of::<Vec3>(),
        };
        size_of::<FlockSim>()
            + st.boids.capacity() * size_of::<Boid>()
            + model
            + self.speeds.capacity() * size_of::<Fx>()
            + self.snap.heap_bytes()
            + self.draws.capacity() * 4
            + self.seen.capacity() * 4
            + self
                .pair_parts
                .iter()
                .map(weighted::Part::heap_bytes)
                .sum::<usize>()
            + (self.pair_list.capacity() + self.pair_len.capacity() + self.near_m.capacity()) * 4
            + self.near_d2.capacity() * 8
            + self
                .near_spill
                .iter()
                .map(|s| s.capacity() * size_of::<gems::Spill>())
                .sum::<usize>()
            + self.cfg.boids.capacity() * size_of::<BoidInit>()
    }

    /// The `dt` of the next tick.
    fn next_dt(&mut self) -> Fx {
        let dt = self.cfg.dt;
        if self.cfg.dt_jitter == Fx::ZERO {
            return dt;
        }
        // dt · (1 + j·u), u uniform in [−1, 1].
        let u = uniform(&mut self.state.frame_rng, -Fx::ONE, Fx::ONE);
        dt + dt * self.cfg.dt_jitter * u
    }

    /// Puts a position back inside the world according to the bounds
    /// policy; reports whether the coordinate limit clamped it.
    #[inline]
    fn bound(cfg: &FlockConfig, mut p: Vec3) -> (Vec3, bool) {
        let d3 = cfg.dims == 3;
        match cfg.bounds {
            Bounds::Wrap => {
                let wrap = |c: Fx, lo: Fx, hi: Fx| {
                    if c >= lo && c < hi {
                        c
                    } else {
                        let ext = hi.to_bits() - lo.to_bits();
                        Fx::from_bits(lo.to_bits() + (c.to_bits() - lo.to_bits()).rem_euclid(ext))
                    }
                };
                p.x = wrap(p.x, cfg.world_min.x, cfg.world_max.x);
                p.y = wrap(p.y, cfg.world_min.y, cfg.world_max.y);
                if d3 {
                    p.z = wrap(p.z, cfg.world_min.z, cfg.world_max.z);
                }
                (p, false)
            }
            Bounds::Walls | Bounds::Open => {
                let lim = Fx::from_int(COORD_LIMIT);
                let q = Vec3::new(
                    p.x.clamp(-lim, lim),
                    p.y.clamp(-lim, lim),
                    p.z.clamp(-lim, lim),
                );
                (q, q != p)
            }
        }
    }
}

impl Sim for FlockSim {
    type State = FlockState;
    type Event = FlockEvent;

    fn step<S: Sink<FlockEvent>>(&mut self, sink: &mut S) {
        let dt = self.next_dt();
        self.state.dt = dt;
        if S::ENABLED {
            sink.record(FlockEvent::Tick { dt });
        }
        let mut explains: Vec<Option<BoidExplain>> = Vec::new();
        let mut only: Option<Vec<u32>> = None;
        if S::ENABLED {
            explains = vec![None; self.state.boids.len()];
            only = sink.only().map(<[u32]>::to_vec);
        }
        let mut alone = None;
        match self.cfg.model {
            Model::Heading(_) => {
                if S::ENABLED {
                    heading::step::<true>(self, dt, &mut explains)
                } else {
                    heading::step::<false>(self, dt, &mut explains)
                }
            }
            Model::Gems(_) => {
                if S::ENABLED {
                    gems::step::<true>(self, dt, &mut explains)
                } else {
                    gems::step::<false>(self, dt, &mut explains)
                }
            }
            Model::Weighted(_) => {
                let d3 = self.cfg.dims == 3;
                let ex = (&mut explains[..], only.as_deref());
                alone = match (S::ENABLED, d3) {
                    (true, true) => weighted::step::<true, true>(self, dt, ex),
                    (true, false) => weighted::step::<true, false>(self, dt, ex),
                    (false, true) => weighted::step::<false, true>(self, dt, ex),
                    (false, false) => weighted::step::<false, false>(self, dt, ex),
                };
            }
        }
        if S::ENABLED {
            for e in explains.into_iter().flatten() {
                sink.record(FlockEvent::Boid(Box::new(e)));
            }
            if let Some(n) = alone {
                sink.record(FlockEvent::Alone(n));
            }
        }
        self.state.tick += 1;
    }

    fn tick(&self) -> u64 {
        self.state.tick
    }

    fn dt(&self) -> Fx {
        self.cfg.dt
    }

    fn state(&self) -> &FlockState {
        &self.state
    }
}

/// Raw bits of a vector, for the snapshot's coordinate arrays.
#[inline(always)]
fn raw(v: Vec3) -> [i64; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

/// A vector from raw bits.
#[inline(always)]
fn unraw(r: [i64; 3]) -> Vec3 {
    Vec3::new(
        Fx::from_bits(r[0]),
        Fx::from_bits(r[1]),
        Fx::from_bits(r[2]),
    )
}

/// `sum / count` of an exact 128-bit raw sum, as a vector, rounding
/// towards zero — exactly what integer division gives (see [`Divider`]).
#[inline]
fn mean(sum: [i128; 3], count: u32) -> Vec3 {
    Divider::new(count).vec(sum)
}

/// `⌊(2⁶⁴ − 1) / c⌋` for the counts `c` below 256 ([`Divider`]).
static RECIPROCALS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut c = 1;
    while c < 256 {
        t[c] = u64::MAX / c as u64;
        c += 1;
    }
    t
};

/// Exact division by a fixed count with one 64-bit reciprocal and two
/// multiplications per quotient (a division costs several times more, and
/// the rules divide up to nine sums per boid per tick).
#[derive(Clone, Copy)]
struct Divider {
    c: u64,
    /// ⌊(2⁶⁴ − 1) / c⌋: for |s| < 2⁶³ the estimate ⌊|s|·recip / 2⁶⁴⌋ is
    /// ⌊|s| / c⌋ or one less; one multiply-and-compare settles which.
    recip: u64,
}

impl Divider {
    #[inline]
    fn new(count: u32) -> Divider {
        let c = count.max(1) as u64;
        // A boid's counts are small: their reciprocals are looked up, not
        // divided for.
        let recip = match RECIPROCALS.get(c as usize) {
            Some(&r) => r,
            None => u64::MAX / c,
        };
        Divider { c, recip }
    }

    #[inline]
    fn div(self, s: i128) -> i64 {
        // |sum| ≤ MAX_BOIDS · (2·COORD_LIMIT) · 2³², so the quotient fits.
        let Ok(s) = i64::try_from(s) else {
            return (s / self.c as i128) as i64;
        };
        if self.c == 1 {
            return s;
        }
        let a = s.unsigned_abs();
        let mut q = (mul_u64(a, self.recip) >> 64) as u64;
        // Without branches: which way the correction and the sign go is
        // unpredictable.
        q += u64::from(mul_u64(q + 1, self.c) <= a as u128);
        let sign = s >> 63;
        ((q as i64) ^ sign).wrapping_sub(sign)
    }

    #[inline]
    fn vec(self, sum: [i128; 3]) -> Vec3 {
        // Spelled out: `array::map` with this closure is not inlined.
        unraw([self.div(sum[0]), self.div(sum[1]), self.div(sum[2])])
    }
}

#[cfg(test)]
mod tests {
    use super::Divider;

    #[test]
    fn divider_is_exact_integer_division() {
        let mut rng = crate::num::Pcg32::new(5, 5);
        for c in (1..200u32).chain([1000, 65_535, 1_000_000, u32::MAX]) {
            let d = Divider::new(c);
            for _ in 0..500 {
                let s = (rng.next_u64() as i64 >> rng.below(63)) as i128;
                assert_eq!(d.div(s), (s / c as i128) as i64, "{s} / {c}");
            }
            for s in [
                0i128,
                1,
                -1,
                i64::MAX as i128,
                i64::MIN as i128 + 1,
                1 << 80,
                -(1 << 80),
            ] {
                assert_eq!(d.div(s), (s / c as i128) as i64, "{s} / {c}");
            }
        }
    }
}
