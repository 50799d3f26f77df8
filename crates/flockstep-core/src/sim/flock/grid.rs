//! The neighbour search: a cell-sorted, struct-of-arrays snapshot of the
//! flock, rebuilt every tick by a counting sort.
//!
//! The snapshot is what every boid *reads* during a tick (the previous
//! tick's state under double buffering), laid out so that the boids of one
//! row of cells are contiguous in memory: a query visits 3 contiguous runs
//! in 2-D and 9 in 3-D. Cells are at least as large as the search radius
//! plus 2¹⁶ raw (the neighbour metric truncates each offset to 1/65536 of a
//! unit, so a mate it accepts is nearer than that on every axis), and cell
//! coordinates are monotone in the position and clamped to the grid, so two
//! mates always lie in the same or adjacent cells (clamping never increases
//! a difference).
//!
//! **Why the result equals brute force bit for bit.** Candidates arrive in
//! cell order, not id order, so nothing a rule computes may depend on the
//! visiting order: every sum is an exact integer sum (associative), the
//! nearest mate is the minimum of `(distance², id)`, and a capped list keeps
//! the smallest ids. `search = "brute"` puts every boid in one cell in id
//! order, which *is* the brute-force scan; `tests/flock.rs` checks both
//! agree on random worlds for every model.

use super::Boid;
use crate::num::wide::mul_u64;
use crate::num::{Angle, Vec3};

/// A boid's position as raw bits.
#[inline(always)]
fn raw_pos(b: &Boid) -> [i64; 3] {
    [b.pos.x.to_bits(), b.pos.y.to_bits(), b.pos.z.to_bits()]
}

/// Most cells a grid may have per boid (and at least 64 in all).
const CELLS_PER_BOID: usize = 2;
/// Cells per search radius: 1, so a query scans ±1 cell, a cube of 3
/// radii a side. (Half-radius cells, ±2, scan a cube of 2.5 radii but twice
/// as many row runs, and cost as much as they save.)
const SUB: i64 = 1;
/// Room for the row runs a query visits: (2·SUB + 1)² = 9, with room for
/// half-radius cells' 25.
pub const MAX_ROWS: usize = 25;

/// The row runs a boid's cell scans, kept by [`Snapshot::forward`] and
/// [`Snapshot::for_each_within`] for the next boid of the same cell.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// The cell's boids: `first..end`.
    first: usize,
    end: usize,
    /// How many runs.
    n: usize,
    runs: [(usize, usize); MAX_ROWS],
    /// Whether they are a forward half's ([`Snapshot::forward`]) or a
    /// whole neighbourhood's ([`Snapshot::for_each_within`]).
    forward: bool,
}

impl Runs {
    /// Runs of no cell yet.
    pub fn new() -> Runs {
        Runs {
            first: 0,
            end: 0,
            n: 0,
            runs: [(0, 0); MAX_ROWS],
            forward: false,
        }
    }
}

impl Default for Runs {
    fn default() -> Runs {
        Runs::new()
    }
}

/// The flock as the rules read it during one tick.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// Position x, raw fixed-point bits, in snapshot order.
    pub x: Vec<i64>,
    /// Position y.
    pub y: Vec<i64>,
    /// Position z (zeros in 2-D).
    pub z: Vec<i64>,
    /// Velocity x.
    pub vx: Vec<i64>,
    /// Velocity y.
    pub vy: Vec<i64>,
    /// Velocity z.
    pub vz: Vec<i64>,
    /// Heading (heading model only; empty otherwise).
    pub hd: Vec<u32>,
    /// The boid id at each snapshot index.
    pub id: Vec<u32>,
    /// `cell_start[c]..cell_start[c + 1]` are the snapshot indices in cell `c`.
    cell_start: Vec<u32>,
    /// Cells per axis.
    n: [i64; 3],
    /// World minimum corner, raw.
    origin: [i64; 3],
    /// Cell edge, raw.
    size: i64,
    /// ⌊2⁶⁴ / size⌋ (saturated): a cell coordinate is a multiply, not a
    /// division.
    inv_size: u64,
    /// How many cells a query reaches on each side (≤ `SUB`).
    reach: i64,
}

impl Snapshot {
    /// Rebuilds the snapshot from the boids (in id order), first letting
    /// `prepare` update each boid (a model's move-first step), in the same
    /// pass over memory.
    ///
    /// `radius` is the largest distance a rule looks at; `brute` puts all
    /// boids in one cell in id order.
    #[allow(clippy::too_many_arguments)]
    pub fn rebuild(
        &mut self,
        boids: &mut [Boid],
        mut prepare: impl FnMut(usize, &mut Boid),
        heading: Option<&[Angle]>,
        min: Vec3,
        max: Vec3,
        radius: i64,
        brute: bool,
        d3: bool,
    ) {
        let len = boids.len();
        self.origin = [min.x.to_bits(), min.y.to_bits(), min.z.to_bits()];
        let extent = [
            max.x.to_bits() - min.x.to_bits(),
            max.y.to_bits() - min.y.to_bits(),
            if d3 {
                max.z.to_bits() - min.z.to_bits()
            } else {
                0
            },
        ];
        if brute {
            self.n = [1, 1, 1];
            self.size = i64::MAX;
            self.reach = 0;
        } else {
            let limit = (len * CELLS_PER_BOID).max(64) as i64;
            // The metric truncates each offset to 1/65536 of a unit, so a
            // mate it accepts is less than `radius + 2¹⁶` raw away on every
            // axis: that is the reach cells must cover.
            let radius = radius.saturating_add(1 << 16);
            let mut size = ((radius + SUB - 1) / SUB).max(1);
            loop {
                let n = extent.map(|e| (e / size + 1).clamp(1, 1 << 20));
                if n[0].saturating_mul(n[1]).saturating_mul(n[2]) <= limit {
                    self.n = n;
                    break;
                }
                size = size.saturating_mul(2);
            }
            self.size = size;
            self.inv_size = u64::try_from((1u128 << 64) / size as u128).unwrap_or(u64::MAX);
            // ⌈radius / size⌉ cells cover the radius on each side.
            self.reach = ((radius.max(1) + size - 1) / size).min(SUB);
        }
        let cells = (self.n[0] * self.n[1] * self.n[2]) as usize;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for (i, b) in boids.iter_mut().enumerate() {
            prepare(i, b);
            let c = self.cell_index(self.cell_of(raw_pos(b)));
            self.cell_start[c + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        for v in [
            &mut self.x,
            &mut self.y,
            &mut self.z,
            &mut self.vx,
            &mut self.vy,
            &mut self.vz,
        ] {
            v.clear();
            v.resize(len, 0);
        }
        self.id.clear();
        self.id.resize(len, 0);
        self.hd.clear();
        if heading.is_some() {
            self.hd.resize(len, 0);
        }
        // Stable placement: within a cell, boids stay in id order. The
        // running cursor reuses `cell_start` and is undone afterwards. The
        // cell is computed again rather than kept (4 bytes a boid).
        for (i, b) in boids.iter().enumerate() {
            let c = self.cell_index(self.cell_of(raw_pos(b)));
            let k = self.cell_start[c] as usize;
            self.cell_start[c] += 1;
            self.x[k] = b.pos.x.to_bits();
            self.y[k] = b.pos.y.to_bits();
            self.z[k] = b.pos.z.to_bits();
            self.vx[k] = b.vel.x.to_bits();
            self.vy[k] = b.vel.y.to_bits();
            self.vz[k] = b.vel.z.to_bits();
            self.id[k] = i as u32;
            if let Some(h) = heading {
                self.hd[k] = h[i].0;
            }
        }
        for c in (1..=cells).rev() {
            self.cell_start[c] = self.cell_start[c - 1];
        }
        self.cell_start[0] = 0;
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// Whether the snapshot holds no boids.
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    #[inline]
    fn cell_of(&self, p: [i64; 3]) -> [i64; 3] {
        if self.size == i64::MAX {
            return [0, 0, 0];
        }
        // ⌊off · inv_size / 2⁶⁴⌋ ≤ off / size, and it grows by at most one
        // over any `size`: monotone, with cells at least `size` wide, so
        // two mates are in the same or adjacent cells (see the module).
        let mut c = [0; 3];
        for a in 0..3 {
            let off = p[a].saturating_sub(self.origin[a]).max(0) as u64;
            let q = (mul_u64(off, self.inv_size) >> 64) as i64;
            c[a] = q.min(self.n[a] - 1);
        }
        c
    }

    #[inline]
    fn cell_index(&self, c: [i64; 3]) -> usize {
        (self.row(c[2], c[1]) + c[0]) as usize
    }

    /// The index of the first cell of row `cy` of layer `cz`. Below the
    /// cell count, which `rebuild` keeps at most `CELLS_PER_BOID` per boid
    /// (so far from overflow): written wrapping, because the release
    /// build's overflow checks make a checked 64-bit multiply a 128-bit
    /// helper call in wasm32.
    #[inline(always)]
    fn row(&self, cz: i64, cy: i64) -> i64 {
        cz.wrapping_mul(self.n[1])
            .wrapping_add(cy)
            .wrapping_mul(self.n[0])
    }

    /// The runs of snapshot indices whose cells are next to the cell of `p`
    /// (itself included): a superset of the boids within the radius, as at
    /// most 9 contiguous ranges (3 in 2-D), written into `out`; returns how
    /// many.
    #[inline(always)]
    pub fn rows(&self, p: [i64; 3], out: &mut [(usize, usize); MAX_ROWS]) -> usize {
        self.rows_of(self.cell_of(p), out)
    }

    /// [`Self::rows`] for a cell given by its coordinates.
    #[inline(always)]
    fn rows_of(&self, c: [i64; 3], out: &mut [(usize, usize); MAX_ROWS]) -> usize {
        let r = self.reach;
        let x0 = (c[0] - r).max(0);
        let x1 = (c[0] + r).min(self.n[0] - 1);
        let mut n = 0;
        for cz in (c[2] - r).max(0)..=(c[2] + r).min(self.n[2] - 1) {
            for cy in (c[1] - r).max(0)..=(c[1] + r).min(self.n[1] - 1) {
                let row = self.row(cz, cy);
                let start = self.cell_start[(row + x0) as usize] as usize;
                let end = self.cell_start[(row + x1 + 1) as usize] as usize;
                if start < end {
                    out[n] = (start, end);
                    n += 1;
                }
            }
        }
        n
    }

    /// Calls `f(m, dx, dy, dz, d2)` for every boid `m ≠ k` with
    /// `d2 ≤ max2`, where `d2` is the squared distance from boid `k`'s
    /// snapshot position `p` measured on offsets truncated to 1/65536 of a
    /// unit ([`dist2_q32`]). The offsets `dx, dy, dz` passed on are exact
    /// raw differences: coordinates are within ±`COORD_LIMIT` (2²⁰ · 2³²
    /// raw), so they fit an `i64` with room to spare and the subtraction
    /// cannot wrap. `runs` keeps the rows of the last boid's cell, as for
    /// [`Self::forward`].
    #[inline(always)]
    pub fn for_each_within<const D3: bool>(
        &self,
        k: usize,
        runs: &mut Runs,
        max2: u64,
        mut f: impl FnMut(usize, i64, i64, i64, u64),
    ) {
        if runs.forward || k < runs.first || k >= runs.end {
            let p = [self.x[k], self.y[k], self.z[k]];
            runs.n = self.rows(p, &mut runs.runs);
            let cell = self.cell_index(self.cell_of(p));
            (runs.first, runs.end) = (
                self.cell_start[cell] as usize,
                self.cell_start[cell + 1] as usize,
            );
            runs.forward = false;
        }
        let p = [self.x[k], self.y[k], self.z[k]];
        for &(start, end) in &runs.runs[..runs.n] {
            self.scan::<D3>(start, end, p, max2, |m, dx, dy, dz, d2| {
                if m != k {
                    f(m, dx, dy, dz, d2);
                }
            });
        }
    }

    /// Calls `f(m, dx, dy, dz, d2)` for the boids `start..end` within
    /// `max2` of `p` ([`dist2_q32`]); the one loop every query runs.
    #[inline(always)]
    fn scan<const D3: bool>(
        &self,
        start: usize,
        end: usize,
        p: [i64; 3],
        max2: u64,
        mut f: impl FnMut(usize, i64, i64, i64, u64),
    ) {
        let xs = &self.x[start..end];
        let ys = &self.y[start..xs.len() + start];
        let zs = &self.z[start..xs.len() + start];
        for o in 0..xs.len() {
            let dx = xs[o].wrapping_sub(p[0]);
            let dy = ys[o].wrapping_sub(p[1]);
            let dz = if D3 { zs[o].wrapping_sub(p[2]) } else { 0 };
            let d2 = dist2_q32(dx, dy, dz);
            if d2 <= max2 {
                f(start.wrapping_add(o), dx, dy, dz, d2);
            }
        }
    }

    /// Calls `f(k, m, dx, dy, dz, d2)` once for every unordered pair of
    /// boids `k < m` (snapshot indices) with `d2 ≤ max2` ([`dist2_q32`]),
    /// where `d = pos[m] − pos[k]`. Each boid scans only the forward half
    /// of its neighbourhood — the rows after its own, and in its own row
    /// the boids after it — so every pair is met exactly once and the
    /// candidate scan costs half of a per-boid query.
    #[inline(always)]
    pub fn for_each_pair<const D3: bool>(
        &self,
        max2: u64,
        mut f: impl FnMut(usize, usize, i64, i64, i64, u64),
    ) {
        let mut runs = Runs::new();
        for k in 0..self.len() {
            self.forward::<D3>(k, &mut runs, max2, |m, dx, dy, dz, d2| {
                f(k, m, dx, dy, dz, d2)
            });
        }
    }

    /// Boid `k`'s half of [`Self::for_each_pair`]: calls `f(m, dx, dy, dz,
    /// d2)` for every boid `m > k` with `d2 ≤ max2`, `d = pos[m] − pos[k]`.
    /// `runs` keeps the row runs of the cell of the boid it was last used
    /// for: every boid of a cell scans the same rows (its own from the boid
    /// after it), so a sweep in snapshot order works them out once a cell.
    #[inline(always)]
    pub fn forward<const D3: bool>(
        &self,
        k: usize,
        runs: &mut Runs,
        max2: u64,
        mut f: impl FnMut(usize, i64, i64, i64, u64),
    ) {
        if !runs.forward || k < runs.first || k >= runs.end {
            self.forward_runs(k, runs);
        }
        let p = [self.x[k], self.y[k], self.z[k]];
        for (i, &(start, end)) in runs.runs[..runs.n].iter().enumerate() {
            let start = if i == 0 { k + 1 } else { start };
            if start < end {
                self.scan::<D3>(start, end, p, max2, &mut f);
            }
        }
    }

    /// The forward row runs of the cell of boid `k` into `runs`, its own
    /// row's first.
    #[inline(never)]
    fn forward_runs(&self, k: usize, runs: &mut Runs) {
        let c = self.cell_of([self.x[k], self.y[k], self.z[k]]);
        let cell = self.cell_index(c);
        (runs.first, runs.end) = (
            self.cell_start[cell] as usize,
            self.cell_start[cell + 1] as usize,
        );
        let r = self.reach;
        let x0 = (c[0] - r).max(0);
        let x1 = (c[0] + r).min(self.n[0] - 1);
        runs.n = 0;
        runs.forward = true;
        for cz in c[2]..=(c[2] + r).min(self.n[2] - 1) {
            let cy0 = if cz == c[2] { c[1] } else { (c[1] - r).max(0) };
            for cy in cy0..=(c[1] + r).min(self.n[1] - 1) {
                let row = self.row(cz, cy);
                runs.runs[runs.n] = (
                    self.cell_start[(row + x0) as usize] as usize,
                    self.cell_start[(row + x1 + 1) as usize] as usize,
                );
                runs.n += 1;
            }
        }
    }

    /// More than the farthest a pair of [`Self::for_each_pair`] reaches
    /// ahead of boid `k`, over every `k` (`m − k < pair_window`): room for
    /// the boids whose sums are in flight at once. Taken per cell, from its
    /// first boid: the farthest row any boid of a cell scans is the same
    /// for all of them.
    pub fn pair_window(&self) -> usize {
        let r = self.reach;
        let mut most = 1;
        for cz in 0..self.n[2] {
            for cy in 0..self.n[1] {
                let (lz, ly) = ((cz + r).min(self.n[2] - 1), (cy + r).min(self.n[1] - 1));
                for cx in 0..self.n[0] {
                    let first = self.cell_start[(self.row(cz, cy) + cx) as usize] as usize;
                    let x1 = (cx + r).min(self.n[0] - 1);
                    let end = self.cell_start[(self.row(lz, ly) + x1 + 1) as usize] as usize;
                    most = most.max(end.saturating_sub(first) + 1);
                }
            }
        }
        most
    }

    /// Heap bytes held (for the memory budget).
    pub fn heap_bytes(&self) -> usize {
        8 * (self.x.capacity()
            + self.y.capacity()
            + self.z.capacity()
            + self.vx.capacity()
            + self.vy.capacity()
            + self.vz.capacity())
            + 4 * (self.hd.capacity() + self.id.capacity() + self.cell_start.capacity())
    }
}

/// The neighbour metric: the squared length of a raw offset, with each
/// component truncated towards zero to 1/65536 of a unit (Q16) before
/// squaring, as a Q32 number (`d2 / 2³²` square units). Symmetric in the
/// sign of each component, and never more than the exact squared length.
///
/// Why not exact: an exact square of a 64-bit raw offset needs 128-bit
/// arithmetic, which made the candidate scan the slowest part of a tick.
/// Radii are at most `MAX_RADIUS` = 10⁴ units (< 2³¹ in Q16), so a true
/// neighbour's components are never saturated; farther candidates saturate
/// at 2³¹ − 1 per axis, which keeps the sum below 2⁶⁴.
#[inline(always)]
pub fn dist2_q32(dx: i64, dy: i64, dz: i64) -> u64 {
    // a < 2³¹, so a² < 2⁶² (wrapping only spares wasm32 the 128-bit
    // multiply an overflow-checked one compiles to).
    let sq = |d: i64| {
        let a = (d.unsigned_abs() >> 16).min((1 << 31) - 1);
        a.wrapping_mul(a)
    };
    // Each square < 2⁶², so three of them cannot wrap.
    sq(dx).wrapping_add(sq(dy)).wrapping_add(sq(dz))
}

/// A radius as the [`dist2_q32`] threshold: `(r in Q16)²`.
#[inline]
pub fn radius2_q32(r: crate::num::Fx) -> u64 {
    let q = (r.to_bits().unsigned_abs() >> 16).min((1 << 31) - 1);
    q * q
}
