//! Rule predictions (format 2.0): the flock rules themselves, frozen here,
//! predict what a tick's rules produced, so a delta stores only where
//! the recorded run differs from them — nothing at all when it was made
//! by the rules as they are written here.
//!
//! A weighted boid's acceleration and a gems fish's velocity change are
//! sums over its neighbours: no extrapolation from earlier ticks predicts
//! them to better than about 25 bits a number (a mate entering the field
//! of view, a separation push growing as 1/d²). Evaluated on the decoded
//! flock, the rules predict them exactly.
//!
//! **Frozen, not shared.** These functions are a copy of the sims' steps
//! as of format 2.0, not calls into [`crate::sim`]: a delta means nothing
//! without the prediction it was taken against, and an engineer who
//! changes a rule must still be able to decode, and diff against, the
//! recordings made before the change. Such a recording then simply costs
//! more bytes. Change nothing here without a new format version (see
//! [`super::delta`]); `tests/recordings.rs` decodes checked-in files and
//! catches a silent change.
//!
//! **Parameters travel with the frames.** The recorder puts each flock's
//! [`FlockRules`] (from its configuration, not its state) in every flock
//! delta; zstd makes the repeats nearly free, and a moved obstacle is seen
//! on the tick it moves. Everything decoded is checked against generous
//! ranges before a prediction is made ([`FlockRules::check`],
//! [`state_in_range`]), so that no file, however corrupt, makes the
//! arithmetic overflow: a prediction that cannot be made is simply not
//! used (both ends see the same decoded values, so they agree on that).

use crate::num::rsqrt::inv_sqrt_wide;
use crate::num::wide::{mul_i64, mul_u64};
use crate::num::{Angle, Fx, Vec3};
use crate::sim::AnySim;
use crate::sim::flock::{
    Bounds, COORD_LIMIT, FlockSim, FlockState, MAX_RADIUS, MAX_SPEED, Model, Update,
};

/// What the rule predictions of one flock need: its model's parameters
/// as the sim used them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlockRules {
    /// Article 004's weighted rules predict each boid's acceleration.
    Weighted(WeightedRules),
    /// Article 002's gems rules predict each fish's velocity.
    Gems(GemsRules),
}

/// The weighted model's rules (see `sim::flock::weighted`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedRules {
    /// 3-D (else the z offsets are ignored).
    pub d3: bool,
    /// Neighbour distance.
    pub fov: Fx,
    /// Separation strength.
    pub strength: Fx,
    /// The distance below which a push stops growing.
    pub floor: Fx,
    /// The three weights, each divided by their sum.
    pub weights: [Fx; 3],
    /// The world box when its walls repel.
    pub walls: Option<(Vec3, Vec3)>,
    /// Obstacles: centre and radius.
    pub obstacles: Vec<(Vec3, Fx)>,
}

/// The gems model's rules (see `sim::flock::gems`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemsRules {
    /// Perception radius (mates strictly closer count).
    pub perception: Fx,
    /// At most this many mates count, the smallest ids.
    pub max_visible: u32,
    /// The distance separation steers towards.
    pub separation_dist: Fx,
    /// Least urgency.
    pub min_urgency: Fx,
    /// Most urgency.
    pub max_urgency: Fx,
    /// Fastest speed.
    pub max_speed: Fx,
    /// Cruising speed.
    pub desired_speed: Fx,
    /// Largest velocity change a tick.
    pub max_change: Fx,
    /// Gravity (roll).
    pub gravity: Fx,
    /// The view cone's full angle, if any.
    pub view_angle: Option<Angle>,
}

/// The rules of every pane of a sim (one entry for a single sim), `None`
/// where there is no rule prediction: not a flock, the heading model,
/// or boids updating in place.
pub fn rules_of(sim: &AnySim) -> Vec<Option<FlockRules>> {
    match sim {
        AnySim::Panes(p) => p.iter().map(one).collect(),
        s => vec![one(s)],
    }
}

fn one(sim: &AnySim) -> Option<FlockRules> {
    let AnySim::Flock(f) = sim else {
        return None;
    };
    flock_rules(f)
}

fn flock_rules(sim: &FlockSim) -> Option<FlockRules> {
    let cfg = sim.config();
    if cfg.update != Update::DoubleBuffered {
        return None;
    }
    match &cfg.model {
        Model::Heading(_) => None,
        Model::Weighted(p) => {
            let sum = p.w_separation + p.w_alignment + p.w_cohesion;
            Some(FlockRules::Weighted(WeightedRules {
                d3: cfg.dims == 3,
                fov: p.fov,
                strength: p.strength,
                floor: p.push_floor(),
                weights: [
                    p.w_separation / sum,
                    p.w_alignment / sum,
                    p.w_cohesion / sum,
                ],
                walls: (cfg.bounds == Bounds::Walls).then_some((cfg.world_min, cfg.world_max)),
                obstacles: cfg.obstacles.iter().map(|o| (o.center, o.radius)).collect(),
            }))
        }
        Model::Gems(p) => Some(FlockRules::Gems(GemsRules {
            perception: p.perception,
            max_visible: p.max_visible,
            separation_dist: p.separation_dist,
            min_urgency: p.min_urgency,
            max_urgency: p.max_urgency,
            max_speed: p.max_speed,
            desired_speed: p.desired_speed,
            max_change: p.max_change,
            gravity: p.gravity,
            view_angle: p.view_angle,
        })),
    }
}

// ---- bytes -------------------------------------------------------------

/// Writes `rules` as a frame carries them: a tag byte (0 none, 1 weighted,
/// 2 gems), then every parameter in declaration order, little-endian —
/// numbers as raw `i64` bits, flags and options as a byte (0 or 1) before
/// their value, the obstacle count as a `u32` before `(x, y, z, radius)`
/// each, `max_visible` and an angle as `u32`.
pub fn write(rules: Option<&FlockRules>, out: &mut Vec<u8>) {
    let fx = |out: &mut Vec<u8>, v: Fx| out.extend_from_slice(&v.to_bits().to_le_bytes());
    let v3 = |out: &mut Vec<u8>, v: Vec3| [v.x, v.y, v.z].iter().for_each(|&c| fx(out, c));
    match rules {
        None => out.push(0),
        Some(FlockRules::Weighted(w)) => {
            out.extend_from_slice(&[1, u8::from(w.d3)]);
            for v in [
                w.fov,
                w.strength,
                w.floor,
                w.weights[0],
                w.weights[1],
                w.weights[2],
            ] {
                fx(out, v);
            }
            out.push(u8::from(w.walls.is_some()));
            if let Some((lo, hi)) = w.walls {
                v3(out, lo);
                v3(out, hi);
            }
            out.extend_from_slice(&(w.obstacles.len() as u32).to_le_bytes());
            for &(c, r) in &w.obstacles {
                v3(out, c);
                fx(out, r);
            }
        }
        Some(FlockRules::Gems(g)) => {
            out.push(2);
            fx(out, g.perception);
            out.extend_from_slice(&g.max_visible.to_le_bytes());
            for v in [
                g.separation_dist,
                g.min_urgency,
                g.max_urgency,
                g.max_speed,
                g.desired_speed,
                g.max_change,
                g.gravity,
            ] {
                fx(out, v);
            }
            out.push(u8::from(g.view_angle.is_some()));
            if let Some(a) = g.view_angle {
                out.extend_from_slice(&a.0.to_le_bytes());
            }
        }
    }
}

/// Reads what [`write()`] wrote, all of `bytes`.
pub(crate) fn read(bytes: &[u8]) -> Result<Option<FlockRules>, String> {
    let mut r = Reader { bytes, at: 0 };
    let rules = match r.u8()? {
        0 => None,
        1 => {
            let d3 = r.flag()?;
            let [fov, strength, floor, w0, w1, w2] = [(); 6].map(|_| r.fx());
            let walls = if r.flag()? {
                Some((r.v3()?, r.v3()?))
            } else {
                None
            };
            let n = r.u32()?;
            let mut obstacles = Vec::new();
            for _ in 0..n {
                obstacles.push((r.v3()?, r.fx()?));
            }
            Some(FlockRules::Weighted(WeightedRules {
                d3,
                fov: fov?,
                strength: strength?,
                floor: floor?,
                weights: [w0?, w1?, w2?],
                walls,
                obstacles,
            }))
        }
        2 => {
            let perception = r.fx()?;
            let max_visible = r.u32()?;
            let [sd, lo, hi, ms, ds, mc, gr] = [(); 7].map(|_| r.fx());
            let view_angle = if r.flag()? {
                Some(Angle(r.u32()?))
            } else {
                None
            };
            Some(FlockRules::Gems(GemsRules {
                perception,
                max_visible,
                separation_dist: sd?,
                min_urgency: lo?,
                max_urgency: hi?,
                max_speed: ms?,
                desired_speed: ds?,
                max_change: mc?,
                gravity: gr?,
                view_angle,
            }))
        }
        t => return Err(format!("unknown rules tag {t}")),
    };
    if r.at != bytes.len() {
        return Err(format!("{} bytes after the rules", bytes.len() - r.at));
    }
    Ok(rules)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let b = self
            .bytes
            .get(self.at..self.at + N)
            .ok_or("the rules end early")?;
        self.at += N;
        Ok(b.try_into().expect("N bytes"))
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }

    fn flag(&mut self) -> Result<bool, String> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(format!("a flag of {b} in the rules")),
        }
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }

    fn fx(&mut self) -> Result<Fx, String> {
        Ok(Fx::from_bits(i64::from_le_bytes(self.take()?)))
    }

    fn v3(&mut self) -> Result<Vec3, String> {
        Ok(Vec3::new(self.fx()?, self.fx()?, self.fx()?))
    }
}

// ---- ranges -----------------------------------------------------------

/// The largest separation push (the sim's `MAX_PUSH`, frozen).
const MAX_PUSH: i64 = 1_000_000;

fn within(v: Fx, lo: Fx, hi: Fx) -> bool {
    v >= lo && v <= hi
}

fn coord_ok(v: Vec3) -> bool {
    let l = Fx::from_int(COORD_LIMIT);
    [v.x, v.y, v.z].iter().all(|&c| within(c, -l, l))
}

impl FlockRules {
    /// Whether every parameter is in the range the predictions' arithmetic
    /// is proved for (what a recorder writes always is).
    pub fn check(&self) -> bool {
        let (zero, r) = (Fx::ZERO, Fx::from_int(MAX_RADIUS));
        let s = Fx::from_int(MAX_SPEED);
        let milli = Fx::from_bits((1i64 << 32) / 1000);
        match self {
            FlockRules::Weighted(w) => {
                // strength / floor² ≤ MAX_PUSH (in bits: floor² · MAX_PUSH
                // ≥ strength · 2³², with a bit of slack for rounding).
                let floor2 = (w.floor.to_bits().max(0) as u128).pow(2);
                let push_ok =
                    floor2 * (MAX_PUSH as u128 + 1) >= (w.strength.to_bits().max(0) as u128) << 32;
                within(w.fov, milli, r)
                    && within(w.strength, zero, Fx::from_int(MAX_PUSH as i32))
                    && within(w.floor, milli, r)
                    && push_ok
                    && w.weights.iter().all(|&x| within(x, zero, Fx::ONE))
                    && w.walls.is_none_or(|(a, b)| coord_ok(a) && coord_ok(b))
                    && w.obstacles
                        .iter()
                        .all(|&(c, rad)| coord_ok(c) && within(rad, zero, r))
            }
            FlockRules::Gems(g) => {
                within(g.perception, milli, r)
                    && (1..=1000).contains(&g.max_visible)
                    && within(g.separation_dist, milli, r)
                    && within(g.min_urgency, zero, g.max_urgency)
                    && within(g.max_urgency, zero, s)
                    && within(g.max_speed, milli, s)
                    && within(g.desired_speed, zero, g.max_speed)
                    && within(g.max_change, zero, s)
                    && within(g.gravity, zero, Fx::from_int(1000))
            }
        }
    }
}

/// Whether a decoded flock is within the ranges a sim keeps (positions
/// within ±`COORD_LIMIT`, velocity components within ±2·`MAX_SPEED`, a
/// tick of at most 20 s), so a prediction from it cannot overflow.
pub fn state_in_range(s: &FlockState) -> bool {
    within(s.dt, Fx::ZERO, Fx::from_int(20))
        && s.boids.iter().all(|b| coord_ok(b.pos) && vel_ok(b.vel))
}

fn vel_ok(v: Vec3) -> bool {
    let l = Fx::from_int(2 * MAX_SPEED);
    [v.x, v.y, v.z].iter().all(|&c| within(c, -l, l))
}

// ---- neighbours ---------------------------------------------------------

/// The sims' neighbour metric (frozen): each offset component truncated
/// to 1/65536 of a unit, squared, summed (Q32).
fn dist2_q32(d: [i64; 3]) -> u64 {
    let sq = |c: i64| {
        let a = (c.unsigned_abs() >> 16).min((1 << 31) - 1);
        a * a
    };
    sq(d[0]) + sq(d[1]) + sq(d[2])
}

/// A radius as a [`dist2_q32`] threshold.
fn radius2_q32(r: Fx) -> u64 {
    let q = (r.to_bits().unsigned_abs() >> 16).min((1 << 31) - 1);
    q * q
}

/// Boids sorted into cubic cells a little wider than a radius, so every
/// neighbour of a boid is in its cell or an adjacent one: `order` lists
/// the boids by cell (cells in `(x, y, z)` order), then by index, and
/// each occupied cell's [`Run`] says where it and its neighbours are.
struct Cells {
    order: Vec<u32>,
    runs: Vec<Run>,
    d3: bool,
}

/// One occupied cell: its boids are `order[here.0..here.1]`, and the
/// boids of row `r` around it (see [`offsets`]) `order[rows[r].0..rows[r].1]`.
#[derive(Clone, Copy)]
struct Run {
    here: (u32, u32),
    rows: [(u32, u32); 9],
}

/// The rows around a cell: `(x, y)` cell offsets of the rows, each row
/// three cells long (2-D: cells `(x, y−1..=y+1)`; 3-D: cells
/// `(x, y, z−1..=z+1)`), in order, so a row is one stretch of `order`
/// and the middle one holds the cell itself.
fn offsets(d3: bool) -> &'static [(i64, i64)] {
    if d3 {
        &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 0),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ]
    } else {
        &[(-1, 0), (0, 0), (1, 0)]
    }
}

impl Cells {
    fn new(pos: &[[i64; 3]], radius: Fx, d3: bool) -> Cells {
        // The metric truncates, so a counted mate may be up to 2⁻¹⁶·√3
        // units farther than the radius: a 2⁻¹⁵ margin covers it.
        let size = radius.to_bits() + (1 << 17);
        let cell = |p: &[i64; 3]| {
            let z = if d3 { p[2].div_euclid(size) } else { 0 };
            [p[0].div_euclid(size), p[1].div_euclid(size), z]
        };
        let cells: Vec<[i64; 3]> = pos.iter().map(cell).collect();
        let (mut lo, mut hi) = ([i64::MAX; 3], [i64::MIN; 3]);
        for c in &cells {
            for a in 0..3 {
                lo[a] = lo[a].min(c[a]);
                hi[a] = hi[a].max(c[a]);
            }
        }
        let n = [0, 1, 2].map(|a| (hi[a] - lo[a] + 1).max(1));
        let total = n.iter().map(|&x| x as u128).product::<u128>();
        // A box of cells when it has at most about four cells a boid (as
        // flocks in a world box do), found by counting; else sorted keys.
        let (order, runs) = if cells.is_empty() || total > 4 * cells.len() as u128 + 64 {
            Self::sparse(&cells, d3)
        } else {
            Self::dense(&cells, lo, n, d3)
        };
        Cells { order, runs, d3 }
    }

    /// The box of `n` cells from `min`: cell `i`'s boids are
    /// `order[start[i]..start[i + 1]]`.
    fn dense(cells: &[[i64; 3]], min: [i64; 3], n: [i64; 3], d3: bool) -> (Vec<u32>, Vec<Run>) {
        let index = |c: [i64; 3]| {
            (((c[0] - min[0]) * n[1] + (c[1] - min[1])) * n[2] + (c[2] - min[2])) as usize
        };
        let total = (n[0] * n[1] * n[2]) as usize;
        let mut start = vec![0u32; total + 1];
        for c in cells {
            start[index(*c) + 1] += 1;
        }
        for i in 0..total {
            start[i + 1] += start[i];
        }
        // Counting sort: boids in index order into their cells' slots.
        let mut next = start.clone();
        let mut order = vec![0; cells.len()];
        for (i, c) in cells.iter().enumerate() {
            let k = index(*c);
            order[next[k] as usize] = i as u32;
            next[k] += 1;
        }
        let inside = |x: i64, y: i64| {
            (min[0]..min[0] + n[0]).contains(&x) && (min[1]..min[1] + n[1]).contains(&y)
        };
        let mut runs = Vec::new();
        for x in min[0]..min[0] + n[0] {
            for y in min[1]..min[1] + n[1] {
                for z in min[2]..min[2] + n[2] {
                    let i = index([x, y, z]);
                    if start[i] == start[i + 1] {
                        continue;
                    }
                    let mut run = Run {
                        here: (start[i], start[i + 1]),
                        rows: [(0, 0); 9],
                    };
                    for (r, &(dx, dy)) in offsets(d3).iter().enumerate() {
                        // The row's first and last cells, clipped to the box.
                        let (a, b) = if d3 {
                            (
                                [x + dx, y + dy, (z - 1).max(min[2])],
                                [x + dx, y + dy, (z + 1).min(min[2] + n[2] - 1)],
                            )
                        } else {
                            (
                                [x + dx, (y - 1).max(min[1]), z],
                                [x + dx, (y + 1).min(min[1] + n[1] - 1), z],
                            )
                        };
                        if inside(a[0], a[1]) {
                            run.rows[r] = (start[index(a)], start[index(b) + 1]);
                        }
                    }
                    runs.push(run);
                }
            }
        }
        (order, runs)
    }

    /// Scattered boids: each entry's cell, packed (the three coordinates,
    /// each biased by 2³¹, in the top 96 bits, most significant first)
    /// with the boid's index in the low 32 bits, and sorted. Cell
    /// coordinates stay within ±1.5·10⁹ (positions within ±1.5·10⁶
    /// units, cells at least 0.001 wide), so the fields never carry.
    fn sparse(cells: &[[i64; 3]], d3: bool) -> (Vec<u32>, Vec<Run>) {
        let field = |c: i64| ((c + (1 << 31)) as u32) as u128;
        let mut keys: Vec<u128> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                (field(c[0]) << 96) | (field(c[1]) << 64) | (field(c[2]) << 32) | i as u128
            })
            .collect();
        keys.sort_unstable();
        let cell_of = |i: usize| (keys[i] >> 32) as i128;
        // A row's first and last cells are this cell plus a fixed offset,
        // so as the cells come in order, where each row starts and ends
        // only moves forward: one cursor pair per row.
        let mut rows = [(0usize, 0usize); 9];
        let mut runs = Vec::new();
        let mut s = 0;
        while s < keys.len() {
            let c = cell_of(s);
            let mut e = s + 1;
            while e < keys.len() && cell_of(e) == c {
                e += 1;
            }
            let mut run = Run {
                here: (s as u32, e as u32),
                rows: [(0, 0); 9],
            };
            for (r, &(x, y)) in offsets(d3).iter().enumerate() {
                let (x, y) = (i128::from(x), i128::from(y));
                let (lo, hi) = if d3 {
                    let row = c + (x << 64) + (y << 32);
                    (row - 1, row + 1)
                } else {
                    let row = c + (x << 64);
                    (row - (1 << 32), row + (1 << 32))
                };
                let (from, to) = &mut rows[r];
                while *from < keys.len() && cell_of(*from) < lo {
                    *from += 1;
                }
                *to = (*to).max(*from);
                while *to < keys.len() && cell_of(*to) <= hi {
                    *to += 1;
                }
                run.rows[r] = (*from as u32, *to as u32);
            }
            runs.push(run);
            s = e;
        }
        (keys.iter().map(|&k| k as u32).collect(), runs)
    }

    fn slice(&self, (a, b): (u32, u32)) -> &[u32] {
        &self.order[a as usize..b as usize]
    }

    /// Calls `f(k, near)` for each occupied cell: `k` its boids, `near`
    /// the boids in it and the cells around it, as rows (index order
    /// within a cell).
    fn for_each_cell(&self, mut f: impl FnMut(&[u32], &[&[u32]])) {
        let mut rows: Vec<&[u32]> = Vec::with_capacity(9);
        for run in &self.runs {
            rows.clear();
            let n = offsets(self.d3).len();
            rows.extend(run.rows[..n].iter().map(|&r| self.slice(r)));
            f(self.slice(run.here), &rows);
        }
    }

    /// Calls `f(k, m)` once for every unordered pair of boids in the same
    /// or adjacent cells: each cell meets the rows after it in order
    /// (and its own row from the boid after `k`), half the stencil.
    fn for_each_pair(&self, mut f: impl FnMut(usize, usize)) {
        let n = offsets(self.d3).len();
        let own = n / 2;
        for run in &self.runs {
            for a in run.here.0..run.here.1 {
                let k = self.order[a as usize] as usize;
                for (r, &(from, to)) in run.rows[..n].iter().enumerate().skip(own) {
                    let from = if r == own { a + 1 } else { from };
                    for &m in self.slice((from, to)) {
                        f(k, m as usize);
                    }
                }
            }
        }
    }
}

fn raw(v: Vec3) -> [i64; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

fn unraw(r: [i64; 3]) -> Vec3 {
    Vec3::new(
        Fx::from_bits(r[0]),
        Fx::from_bits(r[1]),
        Fx::from_bits(r[2]),
    )
}

fn sub(a: [i64; 3], b: [i64; 3]) -> [i64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

// ---- weighted ---------------------------------------------------------

/// `1/|d|` as raw bits for `d2 = |d|²` at scale 2⁶⁴.
fn inv_len(d2: u128) -> i128 {
    let (y, s) = inv_sqrt_wide(d2);
    let sh = s - 64;
    if sh >= 0 {
        (y >> sh) as i128
    } else {
        (y as i128) << (-sh)
    }
}

/// `c · x / 2³²` rounded towards zero.
fn scale(x: i64, c: u128) -> i64 {
    let m = match u64::try_from(c) {
        Ok(c) => (mul_u64(x.unsigned_abs(), c) >> 32) as i64,
        Err(_) => ((x.unsigned_abs() as u128 * c) >> 32) as i64,
    };
    if x < 0 { -m } else { m }
}

/// The separation term of one offset (the weighted model's rule 1).
fn separation(diff: [i64; 3], min2: u128, strength: i64, inv_min: i128, dims: usize) -> [i64; 3] {
    let mut t = [0i64; 3];
    let d2: u128 = diff
        .iter()
        .map(|&c| mul_u64(c.unsigned_abs(), c.unsigned_abs()))
        .sum();
    if d2 == 0 {
        return t;
    }
    let inv = inv_len(d2);
    if d2 < min2 {
        let mag = ((strength as i128 * ((inv_min * inv_min) >> 32)) >> 32) as u128;
        for a in 0..dims {
            t[a] = -scale(scale(diff[a], inv as u128), mag);
        }
        return t;
    }
    let inv = inv as i64;
    let inv2 = (mul_i64(inv, inv) >> 32) as i64;
    let mag = (mul_i64(strength, inv2) >> 32) as i64;
    let coef = (mul_i64(mag, inv) >> 32) as u128;
    for a in 0..dims {
        t[a] = -scale(diff[a], coef);
    }
    t
}

/// Per-boid sums of the weighted rules, added wrapping; exact while
/// [`Bound::exact`] holds for the boid's term count.
#[derive(Clone, Copy, Default)]
struct Sums {
    real: u32,
    virt: u32,
    sep: [i64; 3],
    vel: [i64; 3],
    off: [i64; 3],
}

/// The largest term any sum adds (push, speed or offset, with slack for
/// rounding), so that a boid's 64-bit sums are known exact when its term
/// count times it stays below 2⁶³. Only a boid with thousands of mates
/// within `fov` fails that; it gets no rule prediction.
struct Bound(u128);

impl Bound {
    fn new(r: &WeightedRules) -> Bound {
        let floor = r.floor.to_bits() as u128;
        let push = ((r.strength.to_bits() as u128) << 64) / (floor * floor).max(1);
        let speed = (2 * MAX_SPEED as u128) << 32;
        let off = r.fov.to_bits() as u128 + (1 << 17);
        let largest = push.max(speed).max(off);
        Bound(largest + largest / 1024 + 1)
    }

    fn exact(&self, s: &Sums) -> bool {
        u128::from(s.real + s.virt) * self.0 < i64::MAX as u128
    }
}

/// Every boid's acceleration as the weighted rules compute it from this
/// tick's (already moved) positions and velocities, as raw bits; `None`
/// when the flock is out of range ([`state_in_range`]), and for a boid
/// whose sums might not fit 64 bits (thousands of mates within `fov`).
pub fn weighted_acc(r: &WeightedRules, s: &FlockState) -> Option<Vec<Option<[i64; 3]>>> {
    if !state_in_range(s) {
        return None;
    }
    let flat = |v: Vec3| {
        let mut a = raw(v);
        if !r.d3 {
            a[2] = 0;
        }
        a
    };
    let pos: Vec<[i64; 3]> = s.boids.iter().map(|b| flat(b.pos)).collect();
    let vel: Vec<[i64; 3]> = s.boids.iter().map(|b| flat(b.vel)).collect();
    let sums = weighted_sums(r, &pos, &vel);
    let bound = Bound::new(r);
    Some(
        sums.iter()
            .zip(&vel)
            .map(|(s, v)| bound.exact(s).then(|| combine(r, s, *v)))
            .collect(),
    )
}

/// Each boid's sums over its mates and virtual boids.
#[inline(never)]
fn weighted_sums(r: &WeightedRules, pos: &[[i64; 3]], vel: &[[i64; 3]]) -> Vec<Sums> {
    let dims = if r.d3 { 3 } else { 2 };
    let mut sums = vec![Sums::default(); pos.len()];
    let fov2 = radius2_q32(r.fov);
    let min2 = (r.floor.to_bits() as u128).pow(2);
    let inv_min = inv_len(min2);
    let strength = r.strength.to_bits();
    let sep = |d: [i64; 3]| separation(d, min2, strength, inv_min, dims);
    let cells = Cells::new(pos, r.fov, r.d3);
    cells.for_each_pair(|k, m| {
        let d = sub(pos[m], pos[k]);
        if dist2_q32(d) > fov2 {
            return;
        }
        let t = sep(d);
        let (sk, sm) = pair_mut(&mut sums, k, m);
        for a in 0..3 {
            sk.vel[a] = sk.vel[a].wrapping_add(vel[m][a]);
            sm.vel[a] = sm.vel[a].wrapping_add(vel[k][a]);
            sk.off[a] = sk.off[a].wrapping_add(d[a]);
            sm.off[a] = sm.off[a].wrapping_sub(d[a]);
            sk.sep[a] = sk.sep[a].wrapping_add(t[a]);
            sm.sep[a] = sm.sep[a].wrapping_sub(t[a]);
        }
        sk.real += 1;
        sm.real += 1;
    });
    for (k, p) in pos.iter().enumerate() {
        virtual_boids(r, p, |diff| {
            for (s, t) in sums[k].sep.iter_mut().zip(sep(diff)) {
                *s = s.wrapping_add(t);
            }
            sums[k].virt += 1;
        });
    }
    sums
}

/// Two distinct elements, mutably.
fn pair_mut<T>(v: &mut [T], k: usize, m: usize) -> (&mut T, &mut T) {
    if k < m {
        let (a, b) = v.split_at_mut(m);
        (&mut a[k], &mut b[0])
    } else {
        let (a, b) = v.split_at_mut(k);
        (&mut b[0], &mut a[m])
    }
}

/// Calls `f(offset)` for each wall and obstacle surface point pushing a
/// boid at `p`.
fn virtual_boids(r: &WeightedRules, p: &[i64; 3], mut f: impl FnMut([i64; 3])) {
    let radius = r.fov.to_bits();
    let dims = if r.d3 { 3 } else { 2 };
    if let Some((lo, hi)) = r.walls {
        let (lo, hi) = (raw(lo), raw(hi));
        for a in 0..dims {
            for (d, toward) in [(p[a] - lo[a], -1i64), (hi[a] - p[a], 1)] {
                if d <= radius {
                    let mut diff = [0i64; 3];
                    diff[a] = toward * d;
                    f(diff);
                }
            }
        }
    }
    for &(center, rad) in &r.obstacles {
        let mut c = raw(center);
        if !r.d3 {
            c[2] = 0;
        }
        let off = unraw(sub(*p, c));
        let dist = off.fast_length();
        if dist == Fx::ZERO || dist - rad > r.fov {
            continue;
        }
        let foot = raw(off.fast_with_length(rad));
        f([0, 1, 2].map(|a| c[a] + foot[a] - p[a]));
    }
}

/// `r₁·w₁ + r₂·w₂ + r₃·w₃` from one boid's sums.
fn combine(r: &WeightedRules, s: &Sums, own_v: [i64; 3]) -> [i64; 3] {
    let div = |sum: [i64; 3], n: u32| {
        let by = Reciprocal::new(n);
        unraw(sum.map(|x| by.div(x)))
    };
    let r1 = if s.real + s.virt > 0 {
        div(s.sep, s.real + s.virt)
    } else {
        Vec3::ZERO
    };
    let (r2, r3) = if s.real > 0 {
        (div(s.vel, s.real) - unraw(own_v), div(s.off, s.real))
    } else {
        (Vec3::ZERO, Vec3::ZERO)
    };
    raw(r1 * r.weights[0] + r2 * r.weights[1] + r3 * r.weights[2])
}

/// Truncating division by a count through one reciprocal: a quotient
/// costs two multiplications rather than a division (a boid divides nine
/// sums by two counts).
#[derive(Clone, Copy)]
struct Reciprocal {
    c: u64,
    /// ⌊(2⁶⁴ − 1) / c⌋: ⌊|s|·recip / 2⁶⁴⌋ is ⌊|s| / c⌋ or one less.
    recip: u64,
}

impl Reciprocal {
    fn new(count: u32) -> Reciprocal {
        let c = u64::from(count.max(1));
        Reciprocal {
            c,
            recip: u64::MAX / c,
        }
    }

    fn div(self, s: i64) -> i64 {
        if self.c == 1 {
            return s;
        }
        let a = s.unsigned_abs();
        let mut q = (mul_u64(a, self.recip) >> 64) as u64;
        if mul_u64(q + 1, self.c) <= u128::from(a) {
            q += 1;
        }
        if s < 0 { -(q as i64) } else { q as i64 }
    }
}

// ---- gems ---------------------------------------------------------------

/// Every fish's new velocity as the gems rules compute it from the flock
/// of the tick before (`prev`), this tick's `dt` and the wobble draws of
/// `prev`'s generator, as raw bits; `None` when the flock or `dt` is out
/// of range.
pub fn gems_vel(g: &GemsRules, prev: &FlockState, dt: Fx) -> Option<Vec<[i64; 3]>> {
    if !state_in_range(prev) || !within(dt, Fx::ZERO, Fx::from_int(20)) {
        return None;
    }
    let n = prev.boids.len();
    let mut rng = prev.rng;
    let draws: Vec<u32> = (0..n).map(|_| rng.below(100)).collect();
    let pos: Vec<[i64; 3]> = prev.boids.iter().map(|b| raw(b.pos + b.vel * dt)).collect();
    let cells = Cells::new(&pos, g.perception, true);
    let perc2 = radius2_q32(g.perception) - 1;
    let cone = g.view_angle.map(|a| Angle(a.0 / 2).cos());
    let mut seen = Vec::new();
    let mut vels = vec![[0i64; 3]; n];
    cells.for_each_cell(|here, near| {
        for &k in here {
            let k = k as usize;
            let vel = prev.boids[k].vel;
            let speed = vel.fast_length();
            seen.clear();
            let mut nearest = (u64::MAX, u32::MAX);
            for &m in near.iter().flat_map(|r| r.iter()) {
                let m = m as usize;
                let d = sub(pos[m], pos[k]);
                let d2 = dist2_q32(d);
                if m == k || d2 > perc2 {
                    continue;
                }
                if let Some(c) = cone
                    && speed > Fx::ZERO
                {
                    let off = unraw(d);
                    if off.dot(vel) < c * off.fast_length() * speed {
                        continue;
                    }
                }
                seen.push(m as u32);
                nearest = nearest.min((d2, m as u32));
            }
            if seen.len() > g.max_visible as usize {
                // The smallest ids (which ones, not their order, matters).
                seen.sort_unstable();
                seen.truncate(g.max_visible as usize);
            }
            let steer = if seen.is_empty() {
                Vec3::ZERO
            } else {
                gems_mates(g, &pos, prev, k, nearest.1 as usize, &seen)
            };
            vels[k] = raw(gems_finish(g, vel, speed, steer, draws[k]));
        }
    });
    Some(vels)
}

/// Separation from the nearest mate, alignment with it and cohesion
/// towards the seen mates' centre.
fn gems_mates(
    g: &GemsRules,
    pos: &[[i64; 3]],
    prev: &FlockState,
    k: usize,
    near: usize,
    seen: &[u32],
) -> Vec3 {
    let to_near = unraw(sub(pos[near], pos[k]));
    let dist = to_near.fast_length();
    let ratio = (dist * (Fx::ONE / g.separation_dist)).clamp(g.min_urgency, g.max_urgency);
    let unit = to_near.fast_normalize();
    let r_sep = if dist < g.separation_dist {
        unit * -ratio
    } else if dist > g.separation_dist {
        unit * ratio
    } else {
        Vec3::ZERO
    };
    let r_align = prev.boids[near].vel.fast_normalize() * g.min_urgency;
    let mut sum = [0i128; 3];
    for &m in seen {
        let d = sub(pos[m as usize], pos[k]);
        for a in 0..3 {
            sum[a] += d[a] as i128;
        }
    }
    let r_coh = unraw(sum.map(|s| s as i64)).fast_normalize() * g.min_urgency;
    r_sep + r_align + r_coh
}

/// Cruising (with the wobble), then the change and speed limits.
fn gems_finish(g: &GemsRules, vel: Vec3, speed: Fx, steer: Vec3, draw: u32) -> Vec3 {
    let diff = (speed - g.desired_speed) * (Fx::ONE / g.max_speed);
    let urgency = diff.abs().clamp(g.min_urgency, g.max_urgency);
    let sign = |x: Fx| if x < Fx::ZERO { -Fx::ONE } else { Fx::ONE };
    let nudge = g.min_urgency * sign(diff);
    let mut wobble = vel;
    match draw {
        0..45 => wobble.x += nudge,
        45..90 => wobble.z += nudge,
        _ => wobble.y += nudge,
    }
    let mut acc = steer + wobble.fast_normalize() * (urgency * sign(-diff));
    if acc.fast_length() > g.max_change {
        acc = acc.fast_with_length(g.max_change);
    }
    let v = vel + acc;
    if v.fast_length() > g.max_speed {
        v.fast_with_length(g.max_speed)
    } else {
        v
    }
}

/// A fish's roll from its new and old velocity (the gems attitude);
/// `None` when a velocity is out of range.
pub fn gems_roll(vel: Vec3, old: Vec3, gravity: Fx) -> Option<Angle> {
    if !vel_ok(vel) || !vel_ok(old) || !within(gravity, Fx::ZERO, Fx::from_int(1000)) {
        return None;
    }
    let d = vel - old;
    let vn = vel.fast_normalize();
    let lateral = (d - vn * d.dot(vn)).fast_length();
    Some(if lateral == Fx::ZERO {
        Angle::ZERO
    } else {
        Angle(
            Angle::QUARTER
                .0
                .wrapping_sub(Angle::atan2(gravity, lateral).0),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::AnyState;
    use crate::sim::flock::ModelState;

    /// Runs a bundled lesson and calls `f(rules, before, after)` for every
    /// pane's flock at every tick.
    fn each_tick(
        id: &str,
        sets: &[&str],
        ticks: u64,
        mut f: impl FnMut(&FlockRules, &FlockState, &FlockState),
    ) {
        let lesson = crate::testing::lesson(id, sets);
        let mut sim = AnySim::new(&lesson.scenario).unwrap();
        let rules = rules_of(&sim);
        let flocks = |s: AnyState| match s {
            AnyState::Flock(f) => vec![f],
            AnyState::Panes(p) => p
                .into_iter()
                .map(|s| match s {
                    AnyState::Flock(f) => f,
                    _ => panic!("{id}: a pane that is not a flock"),
                })
                .collect(),
            _ => panic!("{id}: not a flock"),
        };
        let mut before = flocks(sim.snapshot());
        for _ in 0..ticks {
            sim.step();
            let after = flocks(sim.snapshot());
            for ((r, b), a) in rules.iter().zip(&before).zip(&after) {
                f(r.as_ref().expect("rules"), b, a);
            }
            before = after;
        }
    }

    /// The frozen weighted rules give every acceleration the sim gives,
    /// to the bit, in 2-D and 3-D, with walls and a crowd (if a rule in
    /// `sim::flock::weighted` changes on purpose, recordings still decode;
    /// they only grow, and this test says so).
    #[test]
    fn weighted_rules_predict_the_sim_exactly() {
        let crowd: &[&str] = &["boids=300", "world_min=[0,0]", "world_max=[40,40]"];
        let cases: [(&str, &[&str]); 5] = [
            ("flock-weights", crowd),
            ("flock-walls", &[]),
            ("flock-wall-escape", &[]),
            ("flock-separation", &["boids=200"]),
            ("flock-weights", &["dims=3", "boids=200"]),
        ];
        let mut saw_3d = false;
        for (id, sets) in cases {
            let mut checked = 0;
            each_tick(id, sets, 40, |r, _, after| {
                let FlockRules::Weighted(w) = r else {
                    panic!("{id}: weighted rules")
                };
                let ModelState::Weighted { acc } = &after.model else {
                    panic!("{id}: weighted state")
                };
                let want: Vec<[i64; 3]> = acc.iter().map(|a| raw(*a)).collect();
                let got = weighted_acc(w, after).unwrap();
                let got: Vec<[i64; 3]> = got.into_iter().map(Option::unwrap).collect();
                assert_eq!(got, want, "{id}, tick {}", after.tick);
                checked += acc.len();
                saw_3d |= w.d3;
            });
            assert!(checked >= 40, "{id}: {checked} boids checked");
        }
        assert!(saw_3d, "a 3-D case");
    }

    /// The frozen gems rules give every velocity and roll the sim gives.
    #[test]
    fn gems_rules_predict_the_sim_exactly() {
        for (id, sets) in [
            ("flock-aquarium", &["boids=300"][..]),
            ("flock-aquarium-view-angle", &[][..]),
        ] {
            each_tick(id, sets, 40, |r, before, after| {
                let FlockRules::Gems(g) = r else {
                    panic!("{id}: gems rules")
                };
                let want: Vec<[i64; 3]> = after.boids.iter().map(|b| raw(b.vel)).collect();
                let got = gems_vel(g, before, after.dt).unwrap();
                assert_eq!(got, want, "{id}, tick {}", after.tick);
                let ModelState::Gems { attitude } = &after.model else {
                    panic!("{id}: gems state")
                };
                for (i, a) in attitude.iter().enumerate() {
                    let roll = gems_roll(after.boids[i].vel, before.boids[i].vel, g.gravity);
                    assert_eq!(roll, Some(a.roll), "{id}, tick {}, fish {i}", after.tick);
                }
            });
        }
    }

    #[test]
    fn reciprocal_division_truncates_as_integer_division() {
        let mut rng = crate::num::Pcg32::new(7, 7);
        for i in 0..200_000u32 {
            let c = if i % 2 == 0 {
                rng.below(40) + 1
            } else {
                rng.next_u32().max(1)
            };
            let s = match i % 3 {
                0 => rng.next_u64() as i64,
                1 => i64::from(rng.next_u32() as i32),
                _ => (rng.next_u64() as i64) >> rng.below(60),
            };
            assert_eq!(Reciprocal::new(c).div(s), s / i64::from(c), "{s} / {c}");
        }
        assert_eq!(Reciprocal::new(3).div(i64::MIN), i64::MIN / 3);
        assert_eq!(Reciprocal::new(1).div(i64::MIN), i64::MIN);
    }

    /// Rules read back as written, every variant; a cut or padded or
    /// mistagged block is an error, never a panic.
    #[test]
    fn rules_bytes_round_trip_and_refuse_damage() {
        let w = FlockRules::Weighted(WeightedRules {
            d3: true,
            fov: Fx::from_int(5),
            strength: Fx::from_int(10),
            floor: Fx::from_ratio(32, 10_000).unwrap(),
            weights: [Fx::HALF, Fx::from_ratio(1, 3).unwrap(), -Fx::ONE],
            walls: Some((Vec3::from_ints(-1, -2, -3), Vec3::from_ints(4, 5, 6))),
            obstacles: vec![(Vec3::from_ints(7, 8, 9), Fx::from_int(2)); 3],
        });
        let g = FlockRules::Gems(GemsRules {
            perception: Fx::from_int(8),
            max_visible: 10,
            separation_dist: Fx::from_int(5),
            min_urgency: Fx::from_ratio(5, 100).unwrap(),
            max_urgency: Fx::from_ratio(1, 10).unwrap(),
            max_speed: Fx::ONE,
            desired_speed: Fx::HALF,
            max_change: Fx::from_ratio(1, 10).unwrap(),
            gravity: Fx::from_int(9),
            view_angle: Some(Angle(12345)),
        });
        for rules in [None, Some(&w), Some(&g)] {
            let mut out = Vec::new();
            write(rules, &mut out);
            assert_eq!(read(&out).unwrap().as_ref(), rules);
            for cut in 0..out.len() {
                assert!(read(&out[..cut]).is_err(), "cut at {cut}");
            }
            out.push(0);
            assert!(read(&out).unwrap_err().contains("after the rules"));
        }
        assert!(read(&[3]).unwrap_err().contains("unknown rules tag 3"));
        assert!(read(&[1, 2]).unwrap_err().contains("flag of 2"));
    }

    /// A boid's 64-bit sums are trusted only while its term count times
    /// the largest term stays below 2⁶³: about 2,000 mates at the
    /// largest push.
    #[test]
    fn crowded_boids_get_no_prediction_rather_than_a_wrapped_one() {
        let w = WeightedRules {
            d3: false,
            fov: Fx::from_int(5),
            strength: Fx::from_int(10),
            floor: Fx::from_ratio(32, 10_000).unwrap(),
            weights: [Fx::ONE, Fx::ZERO, Fx::ZERO],
            walls: None,
            obstacles: vec![],
        };
        let b = Bound::new(&w);
        let sums = |real| Sums {
            real,
            ..Sums::default()
        };
        assert!(b.exact(&sums(1000)));
        assert!(!b.exact(&sums(3000)));
    }

    /// Rules and flocks outside the proved ranges give no prediction
    /// rather than overflowing.
    #[test]
    fn out_of_range_input_gives_no_prediction() {
        let mut w = WeightedRules {
            d3: false,
            fov: Fx::from_int(5),
            strength: Fx::from_int(10),
            floor: Fx::from_ratio(4, 1000).unwrap(),
            weights: [
                Fx::HALF,
                Fx::from_ratio(1, 4).unwrap(),
                Fx::from_ratio(1, 4).unwrap(),
            ],
            walls: None,
            obstacles: vec![],
        };
        assert!(FlockRules::Weighted(w.clone()).check());
        w.floor = Fx::from_ratio(1, 1000).unwrap(); // 10 / 0.001² > 10⁶
        assert!(!FlockRules::Weighted(w.clone()).check());
        w.floor = Fx::ONE;
        let far = Fx::from_int(COORD_LIMIT) + Fx::ONE;
        let boid = |x: Fx| crate::sim::flock::Boid {
            pos: Vec3::new(x, Fx::ZERO, Fx::ZERO),
            vel: Vec3::ZERO,
        };
        let mut s = FlockState {
            tick: 1,
            rng: crate::num::Pcg32::new(1, 1),
            frame_rng: crate::num::Pcg32::new(1, 1),
            dt: Fx::ONE,
            boids: vec![boid(Fx::ZERO), boid(Fx::ONE)],
            model: ModelState::Weighted {
                acc: vec![Vec3::ZERO; 2],
            },
        };
        assert!(weighted_acc(&w, &s).is_some());
        s.boids[1] = boid(far);
        assert!(weighted_acc(&w, &s).is_none());
        s.boids[1] = boid(Fx::ONE);
        s.boids[1].vel.y = Fx::MAX;
        assert!(weighted_acc(&w, &s).is_none());
        assert_eq!(gems_roll(s.boids[1].vel, Vec3::ZERO, Fx::ONE), None);
    }
}
