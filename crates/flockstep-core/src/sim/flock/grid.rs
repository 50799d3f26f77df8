//! The neighbour search: a struct-of-arrays snapshot of the flock in
//! rows sorted along x, rebuilt every tick.
//!
//! The snapshot is what every boid *reads* during a tick (the previous
//! tick's state under double buffering). The world is cut into rows along
//! y and z (one row in 2-D's z); each row's boids are contiguous in memory
//! and sorted by x (then id). A query visits the rows next to its own —
//! 3 in 2-D, 9 in 3-D — and in each only the band `|x − px| ≤ R`: its start
//! only moves forward while a sweep goes along a row, and the scan stops
//! where x passes `px + R`, so a query reads a slab `2R` long where cells
//! would have read three cells.
//! Rows are at least `R` = the search radius plus 2¹⁶ raw wide (the
//! neighbour metric truncates each offset to 1/65536 of a unit, so a mate
//! it accepts is nearer than `R` on every axis), and row coordinates are
//! monotone in the position and clamped to the grid, so two mates always
//! lie in the same or adjacent rows, within each other's band.
//!
//! **Why the result equals brute force bit for bit.** Candidates arrive in
//! row order, not id order, so nothing a rule computes may depend on the
//! visiting order: every sum is an exact integer sum (associative), the
//! nearest mate is the minimum of `(distance², id)`, and a capped list keeps
//! the smallest ids. `search = "brute"` puts every boid in one row in id
//! order, unsorted and with an unbounded band, which *is* the brute-force
//! scan; `tests/flock.rs` checks both agree on random worlds for every
//! model.

use super::{Boid, refill};
use crate::num::wide::mul_u64;
use crate::num::{Angle, Vec3};

/// A boid's position as raw bits.
#[inline(always)]
fn raw_pos(b: &Boid) -> [i64; 3] {
    [b.pos.x.to_bits(), b.pos.y.to_bits(), b.pos.z.to_bits()]
}

/// Most rows a grid may have per boid (and at least 64 in all).
const ROWS_PER_BOID: usize = 2;
/// The most rows a query visits: 3 × 3 in 3-D.
pub const MAX_ROWS: usize = 9;

/// The rows a boid's query visits and, in each, the band of boids within
/// `R` along x of the boid they were last moved for. Kept by
/// [`Snapshot::forward`] and [`Snapshot::for_each_within`] for the next
/// boid of the same row: along a row x only grows, so the bands only move
/// forward.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Where `at`'s row ends: the boids `at..end` share its row.
    end: usize,
    /// The boid the bands are for.
    at: usize,
    /// How many rows.
    n: usize,
    /// Each row's end, and where its band starts (the band ends where
    /// x passes `px + R`: the scan stops there).
    ends: [usize; MAX_ROWS],
    lo: [usize; MAX_ROWS],
    /// Whether they are a forward half's ([`Snapshot::forward`]) or a
    /// whole neighbourhood's ([`Snapshot::for_each_within`]).
    forward: bool,
}

impl Runs {
    /// Runs of no row yet.
    pub fn new() -> Runs {
        Runs {
            end: 0,
            at: 0,
            n: 0,
            ends: [0; MAX_ROWS],
            lo: [0; MAX_ROWS],
            forward: false,
        }
    }

    /// Whether they were set for a boid of `k`'s row at or before `k`, of
    /// the same kind.
    #[inline(always)]
    fn serve(&self, k: usize, forward: bool) -> bool {
        // A new Runs has at = end = 0: it serves no boid.
        self.forward == forward && k >= self.at && k < self.end
    }
}

impl Default for Runs {
    fn default() -> Runs {
        Runs::new()
    }
}

/// The flock as the rules read it during one tick. Its arrays are the
/// core's own (a rebuild trusts the order it left), read by the models.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// Position x, raw fixed-point bits, in snapshot order.
    pub(crate) x: Vec<i64>,
    /// Position y.
    pub(crate) y: Vec<i64>,
    /// Position z (zeros in 2-D).
    pub(crate) z: Vec<i64>,
    /// Velocity x.
    pub(crate) vx: Vec<i64>,
    /// Velocity y.
    pub(crate) vy: Vec<i64>,
    /// Velocity z.
    pub(crate) vz: Vec<i64>,
    /// Heading (heading model only; empty otherwise).
    pub(crate) hd: Vec<u32>,
    /// The boid id at each snapshot index.
    pub(crate) id: Vec<u32>,
    /// `row_start[r]..row_start[r + 1]` are the snapshot indices in row `r`.
    row_start: Vec<u32>,
    /// Rows along y and z.
    n: [i64; 2],
    /// World minimum corner, raw.
    origin: [i64; 3],
    /// Row width along y and z, raw.
    size: i64,
    /// ⌊2⁶⁴ / size⌋ (saturated): a row coordinate is a multiply, not a
    /// division.
    inv_size: u64,
    /// How many rows a query reaches on each side (0 or 1).
    reach: i64,
    /// `R`: how far along x a query reaches (`i64::MAX` when brute).
    band: i64,
    /// One row's sort keys while rebuilding.
    keys: Vec<u128>,
    /// Whether the rows were sorted by x (not brute).
    sorted: bool,
}

/// `(x, id)` as one key whose unsigned order is theirs.
#[inline(always)]
fn sort_key(x: i64, id: u32) -> u128 {
    (((x as u64) ^ (1 << 63)) as u128) << 32 | id as u128
}

/// Sorts `keys`: by insertion while it moves few of them (a row placed in
/// last tick's order is nearly sorted), else by a heapsort, `O(n log n)`
/// in every case and a few hundred bytes of the web module (the library's
/// sort for `u128` added 40 KB).
fn nearly_sorted(keys: &mut [u128]) {
    let mut budget = 4 * keys.len() + 16;
    for i in 1..keys.len() {
        let key = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
        budget = budget.saturating_sub(i - j);
        if budget == 0 {
            heapsort(keys);
            return;
        }
    }
}

/// Sorts `keys` in place, ascending.
fn heapsort(keys: &mut [u128]) {
    // Sifts keys[root] down the max-heap keys[..end].
    fn sift(keys: &mut [u128], mut root: usize, end: usize) {
        loop {
            let mut child = 2 * root + 1;
            if child >= end {
                return;
            }
            if child + 1 < end && keys[child + 1] > keys[child] {
                child += 1;
            }
            if keys[root] >= keys[child] {
                return;
            }
            keys.swap(root, child);
            root = child;
        }
    }
    let n = keys.len();
    for root in (0..n / 2).rev() {
        sift(keys, root, n);
    }
    for end in (1..n).rev() {
        keys.swap(0, end);
        sift(keys, 0, end);
    }
}

impl Snapshot {
    /// Rebuilds the snapshot from the boids (in id order), first letting
    /// `prepare` update each boid (a model's move-first step), in the same
    /// pass over memory.
    ///
    /// `radius` is the largest distance a rule looks at; `brute` puts all
    /// boids in one row in id order.
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
        self.origin = [min.x.to_bits(), min.y.to_bits(), min.z.to_bits()];
        let extent = [
            max.y.to_bits() - min.y.to_bits(),
            if d3 {
                max.z.to_bits() - min.z.to_bits()
            } else {
                0
            },
        ];
        self.shape(extent, boids.len(), radius, brute);
        let rows = (self.n[0] * self.n[1]) as usize;
        refill(&mut self.row_start, rows + 1, 0);
        for (i, b) in boids.iter_mut().enumerate() {
            prepare(i, b);
            let r = self.row_index(raw_pos(b));
            self.row_start[r + 1] += 1;
        }
        for r in 0..rows {
            self.row_start[r + 1] += self.row_start[r];
        }
        self.place(boids, brute);
        self.sort_rows(boids, brute);
        self.gather(boids, heading);
    }

    /// The rows' size and count for a world `extent` (y, z) and `len`
    /// boids: rows `R` wide, doubled until there are at most
    /// `ROWS_PER_BOID` a boid; or one row when `brute`.
    fn shape(&mut self, extent: [i64; 2], len: usize, radius: i64, brute: bool) {
        if brute {
            self.n = [1, 1];
            self.size = i64::MAX;
            self.inv_size = 0;
            self.reach = 0;
            self.band = i64::MAX;
            return;
        }
        let limit = (len * ROWS_PER_BOID).max(64) as i64;
        // The metric truncates each offset to 1/65536 of a unit, so a mate
        // it accepts is less than `radius + 2¹⁶` raw away on every axis:
        // that is the reach rows and bands must cover.
        let reach = radius.max(1).saturating_add(1 << 16);
        let mut size = reach;
        loop {
            let n = extent.map(|e| (e / size + 1).clamp(1, 1 << 20));
            if n[0].saturating_mul(n[1]) <= limit {
                self.n = n;
                break;
            }
            size = size.saturating_mul(2);
        }
        self.size = size;
        self.inv_size = u64::try_from((1u128 << 64) / size as u128).unwrap_or(u64::MAX);
        self.reach = 1;
        self.band = reach;
    }

    /// Puts each boid's id in its row (`row_start` as running cursors,
    /// undone afterwards), into `vx` for now (its values come later, in
    /// [`Self::gather`]): with `brute` in id order; else in the order of the
    /// last snapshot when it held the same boids sorted, so each row is
    /// already nearly sorted (a tick moves a boid little along x).
    fn place(&mut self, boids: &[Boid], brute: bool) {
        let len = boids.len();
        let again = !brute && self.sorted && self.id.len() == len;
        refill(&mut self.vx, len, 0);
        for j in 0..len {
            let i = if again { self.id[j] as usize } else { j };
            let r = self.row_index(raw_pos(&boids[i]));
            let k = self.row_start[r] as usize;
            self.row_start[r] += 1;
            self.vx[k] = i as i64;
        }
        for r in (1..self.row_start.len()).rev() {
            self.row_start[r] = self.row_start[r - 1];
        }
        self.row_start[0] = 0;
        self.sorted = !brute;
    }

    /// Each row's ids (in `vx`) into `id`, sorted by (x, id) unless
    /// `brute`: a total order, so the result does not depend on the order
    /// they came in.
    fn sort_rows(&mut self, boids: &[Boid], brute: bool) {
        let len = boids.len();
        self.id.clear();
        self.id.reserve_exact(len);
        self.id.extend(self.vx.iter().map(|&i| i as u32));
        if brute {
            return;
        }
        for r in 0..self.row_start.len() - 1 {
            let (s, e) = (self.row_start[r] as usize, self.row_start[r + 1] as usize);
            if e - s < 2 {
                continue;
            }
            let ids = &mut self.id[s..e];
            self.keys.clear();
            self.keys.extend(
                ids.iter()
                    .map(|&i| sort_key(boids[i as usize].pos.x.to_bits(), i)),
            );
            nearly_sorted(&mut self.keys);
            for (d, &key) in ids.iter_mut().zip(&self.keys) {
                *d = key as u32;
            }
        }
        debug_assert_eq!(self.id.len(), len);
        // A world of one long row would hold a key per boid: let it go.
        if self.keys.capacity() > 4096 {
            self.keys = Vec::new();
        }
    }

    /// Copies each boid's state into its snapshot place.
    fn gather(&mut self, boids: &[Boid], heading: Option<&[Angle]>) {
        let len = boids.len();
        for v in [
            &mut self.x,
            &mut self.y,
            &mut self.z,
            &mut self.vx,
            &mut self.vy,
            &mut self.vz,
        ] {
            refill(v, len, 0);
        }
        refill(&mut self.hd, if heading.is_some() { len } else { 0 }, 0);
        for k in 0..len {
            let i = self.id[k] as usize;
            let b = &boids[i];
            self.x[k] = b.pos.x.to_bits();
            self.y[k] = b.pos.y.to_bits();
            self.z[k] = b.pos.z.to_bits();
            self.vx[k] = b.vel.x.to_bits();
            self.vy[k] = b.vel.y.to_bits();
            self.vz[k] = b.vel.z.to_bits();
            if let Some(h) = heading {
                self.hd[k] = h[i].0;
            }
        }
    }

    /// Number of boids.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// Whether the snapshot holds no boids.
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    /// The row coordinates (y, z) of position `p`.
    #[inline]
    fn row_of(&self, p: [i64; 3]) -> [i64; 2] {
        if self.size == i64::MAX {
            return [0, 0];
        }
        // ⌊off · inv_size / 2⁶⁴⌋ ≤ off / size, and it grows by at most one
        // over any `size`: monotone, with rows at least `size` wide, so
        // two mates are in the same or adjacent rows (see the module).
        let mut c = [0; 2];
        for a in 0..2 {
            let off = p[a + 1].saturating_sub(self.origin[a + 1]).max(0) as u64;
            let q = (mul_u64(off, self.inv_size) >> 64) as i64;
            c[a] = q.min(self.n[a] - 1);
        }
        c
    }

    #[inline]
    fn row_index(&self, p: [i64; 3]) -> usize {
        let c = self.row_of(p);
        self.row(c[1], c[0]) as usize
    }

    /// The index of row `cy` of layer `cz`. Below the row count, which
    /// `rebuild` keeps at most `ROWS_PER_BOID` per boid (so far from
    /// overflow): written wrapping, because the release build's overflow
    /// checks make a checked 64-bit multiply a 128-bit helper call in
    /// wasm32.
    #[inline(always)]
    fn row(&self, cz: i64, cy: i64) -> i64 {
        cz.wrapping_mul(self.n[0]).wrapping_add(cy)
    }

    /// Sets `runs` for boid `k`: the rows a query visits — with `forward`,
    /// its own row first, then the rows after it ([`Self::forward`]); else
    /// the 3 × 3 (3 × 1 in 2-D) around it — and their bands.
    #[inline(never)]
    fn set_runs(&self, k: usize, runs: &mut Runs, forward: bool) {
        let p = [self.x[k], self.y[k], self.z[k]];
        let c = self.row_of(p);
        let own = self.row(c[1], c[0]) as usize;
        runs.end = self.row_start[own + 1] as usize;
        runs.n = 0;
        runs.forward = forward;
        runs.at = k;
        let r = self.reach;
        let lo_x = p[0].saturating_sub(self.band);
        let mut add = |row: i64| {
            let (s, e) = (
                self.row_start[row as usize] as usize,
                self.row_start[row as usize + 1] as usize,
            );
            if s < e {
                runs.ends[runs.n] = e;
                runs.lo[runs.n] = s + self.x[s..e].partition_point(|&v| v < lo_x);
                runs.n += 1;
            }
        };
        let (ny, nz) = (self.n[0], self.n[1]);
        if forward {
            add(own as i64);
            for cy in c[0] + 1..=(c[0] + r).min(ny - 1) {
                add(self.row(c[1], cy));
            }
            for cz in c[1] + 1..=(c[1] + r).min(nz - 1) {
                for cy in (c[0] - r).max(0)..=(c[0] + r).min(ny - 1) {
                    add(self.row(cz, cy));
                }
            }
        } else {
            for cz in (c[1] - r).max(0)..=(c[1] + r).min(nz - 1) {
                for cy in (c[0] - r).max(0)..=(c[0] + r).min(ny - 1) {
                    add(self.row(cz, cy));
                }
            }
        }
    }

    /// Moves the bands of `runs` forward to boid `k` of the same row, at
    /// or after the boid they were set for (so at no smaller x).
    #[inline(always)]
    fn advance(&self, k: usize, runs: &mut Runs) {
        if k == runs.at {
            return;
        }
        runs.at = k;
        let px = self.x[k];
        let lo_x = px.saturating_sub(self.band);
        // A forward half scans its own row from the boid after it.
        for i in usize::from(runs.forward)..runs.n {
            let mut lo = runs.lo[i];
            let end = runs.ends[i]; // > 0: a row of runs is never empty
            // A band moves by about one boid from one boid to the next:
            // two steps without a branch (which way they go is
            // unpredictable), then a loop that is seldom entered.
            for _ in 0..2 {
                lo += usize::from(lo < end && self.x[lo.min(end - 1)] < lo_x);
            }
            while lo < end && self.x[lo] < lo_x {
                lo += 1;
            }
            runs.lo[i] = lo;
        }
    }

    /// Calls `f(m, dx, dy, dz, d2)` for every boid `m ≠ k` with
    /// `d2 ≤ max2`, where `d2` is the squared distance from boid `k`'s
    /// snapshot position `p` measured on offsets truncated to 1/65536 of a
    /// unit ([`dist2_q32`]). The offsets `dx, dy, dz` passed on are exact
    /// raw differences: coordinates are within ±`COORD_LIMIT` (2²⁰ · 2³²
    /// raw), so they fit an `i64` with room to spare and the subtraction
    /// cannot wrap. `runs` keeps the rows and bands of the last boid, as
    /// for [`Self::forward`].
    #[inline(always)]
    pub fn for_each_within<const D3: bool>(
        &self,
        k: usize,
        runs: &mut Runs,
        max2: u64,
        mut f: impl FnMut(usize, i64, i64, i64, u64),
    ) {
        if runs.serve(k, false) {
            self.advance(k, runs);
        } else {
            self.set_runs(k, runs, false);
        }
        let p = [self.x[k], self.y[k], self.z[k]];
        for i in 0..runs.n {
            let (lo, hi) = (runs.lo[i], runs.ends[i]);
            self.scan::<D3>(lo, hi, p, max2, |m, dx, dy, dz, d2| {
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
        let band = self.band;
        for o in 0..xs.len() {
            let dx = xs[o].wrapping_sub(p[0]);
            // The row is sorted by x: the band ends here.
            if dx > band {
                break;
            }
            let dy = ys[o].wrapping_sub(p[1]);
            let dz = if D3 { zs[o].wrapping_sub(p[2]) } else { 0 };
            let d2 = dist2_q32(dx, dy, dz);
            if d2 <= max2 {
                f(start.wrapping_add(o), dx, dy, dz, d2);
            }
        }
    }

    /// Boid `k`'s half of its pairs: calls `f(m, dx, dy, dz, d2)` for every
    /// boid `m > k` with `d2 ≤ max2`, `d = pos[m] − pos[k]` — so a sweep
    /// over every `k` meets each pair of mates exactly once:
    /// in its own row the boids after it (x no smaller) within its band, in
    /// the rows after its own ((y + 1) in its layer, the three of the next
    /// layer) their bands. `runs` keeps those rows for the next boid of the
    /// row: a sweep in snapshot order works them out once a row and moves
    /// each band forward.
    #[inline(always)]
    pub fn forward<const D3: bool>(
        &self,
        k: usize,
        runs: &mut Runs,
        max2: u64,
        mut f: impl FnMut(usize, i64, i64, i64, u64),
    ) {
        if runs.serve(k, true) {
            self.advance(k, runs);
        } else {
            self.set_runs(k, runs, true);
        }
        let p = [self.x[k], self.y[k], self.z[k]];
        for i in 0..runs.n {
            let (lo, hi) = (runs.lo[i], runs.ends[i]);
            // Boid k is in its own row's band, so lo ≤ k there.
            let start = if i == 0 { k + 1 } else { lo };
            if start < hi {
                self.scan::<D3>(start, hi, p, max2, &mut f);
            }
        }
    }

    /// More than the farthest a pair of [`Self::forward`] reaches ahead of
    /// boid `k`, over every `k` (`m − k < pair_window`): room for the boids
    /// whose sums are in flight at once. A mate `m` of `k` lies at most in
    /// the last row `k` scans, within its band: before the first boid of
    /// that row past `x_k + R`, found by a pointer that only moves forward
    /// along `k`'s row. (Bounding by whole rows instead would make a world
    /// of few rows hold the whole flock in flight.)
    pub fn pair_window(&self) -> usize {
        let r = self.reach;
        let (ny, nz) = (self.n[0], self.n[1]);
        let mut most = 1;
        for cz in 0..nz {
            for cy in 0..ny {
                let own = self.row(cz, cy) as usize;
                let (s, e) = (
                    self.row_start[own] as usize,
                    self.row_start[own + 1] as usize,
                );
                let last = self.row((cz + r).min(nz - 1), (cy + r).min(ny - 1)) as usize;
                let end = self.row_start[last + 1] as usize;
                let mut hi = self.row_start[last] as usize;
                for k in s..e {
                    let hi_x = self.x[k].saturating_add(self.band);
                    while hi < end && self.x[hi] <= hi_x {
                        hi += 1;
                    }
                    most = most.max(hi.max(k + 1) - k + 1);
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
            + 4 * (self.hd.capacity() + self.id.capacity() + self.row_start.capacity())
            + 16 * self.keys.capacity()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Pcg32;

    #[test]
    fn rows_are_sorted_however_their_keys_come() {
        let mut rng = Pcg32::new(4, 7);
        for len in [0usize, 1, 2, 3, 17, 200, 1000] {
            // Random (the heapsort), nearly sorted (insertion), reversed.
            let random: Vec<u128> = (0..len).map(|_| u128::from(rng.next_u64() >> 54)).collect();
            let mut nearly: Vec<u128> = (0..len as u128).collect();
            for i in (1..len).step_by(7) {
                nearly.swap(i - 1, i);
            }
            let reversed: Vec<u128> = (0..len as u128).rev().collect();
            for mut keys in [random, nearly, reversed] {
                let mut want = keys.clone();
                want.sort_unstable();
                nearly_sorted(&mut keys);
                assert_eq!(keys, want, "{len} keys");
            }
        }
    }
}
