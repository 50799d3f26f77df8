//! A* on a grid with heights (article 001), one expansion per step.
//!
//! **Moves** are 4-neighbour (article 001), or 8-neighbour ([`Moves`]).
//! Moving from `a` to `b` is impossible if `b` is a wall or outside, if it
//! climbs more than `max_climb` or drops more than `max_drop`; otherwise
//! it costs `1 + climb · uphill_weight + drop · downhill_weight`
//! ([`CostRule`]; defaults as article 001: climb 2, drop 2, uphill weight
//! 1, downhill weight 0). 4-way costs are integers; with 8-way moves a
//! diagonal costs √2 times that ([`SQRT2_16`]) and cuts no corner, and
//! costs are fixed-point with 16 fractional bits.
//!
//! **The search.** `g` is the cost from the start, `h` the heuristic
//! ([`Heuristic`]: Euclidean as the article, Manhattan, octile, zero =
//! Dijkstra, times a weight `w`), `f = g + h`. `h` and `f` are fixed-point
//! with 16 fractional bits (`f16 = g·2¹⁶ + h16` for 4-way moves, `g + h16`
//! for 8-way), `h16` rounded *down* so an admissible heuristic stays
//! admissible. One [`Sim::step`] pops the open entry with the smallest key
//! and relaxes its neighbours (the four in the article's order, then the
//! diagonals); the search ends when the goal is popped (found) or the open
//! list is empty (unreachable).
//!
//! **The open list** is a 4-ary heap ordered by a total key:
//! `(f16, tie, seq)` packed in a `u128`, where `seq` counts pushes (unique)
//! and `tie` is the
//! [`TieBreak`]: FIFO among equal `f` (the article's sorted list inserts
//! before the first *strictly* greater `f`), LIFO, larger `g` first, or
//! smaller `h` first (each then FIFO). A neighbour is rewritten only if its
//! new `g` is lower than the one it holds — for a fixed `h` that is the
//! article's "only if its new f is lower". Improved entries are pushed
//! again; the stale copy is skipped when popped (it does not count as a
//! step). A closed cell that is improved (possible only with an
//! inconsistent heuristic, `w > 1`) is reopened.
//!
//! A lesson's searches keep the heap (its array is part of the state). A
//! plain run ([`search`], [`Searcher`]: `flockstep path`, the benchmarks)
//! picks the fastest container that pops in exactly the heap's order:
//! [`Buckets`] (O(1)) for FIFO ties and a whole-valued consistent heuristic
//! (Manhattan or zero, weight 1); [`Calendar`] for any other consistent
//! one (every admissible heuristic here, the default Euclidean included,
//! with any tie-break); the heap only for an inconsistent heuristic
//! (`w > 1`) or huge move costs. An untraced run in a maze's corridors
//! finds a cell's ways on by a mask (a speed choice, taken from the cells
//! it expands), and an untraced 8-way run reads the diagonal rule from
//! tables: the same pushes in the same order, with fewer mispredicted
//! branches.
//!
//! The article's defects are not copied: there is an explicit closed set
//! (`closed_set = false` is the article's list without one: every popped
//! entry is expanded, a stale copy with the `g` it was pushed with, so
//! the work grows while the path stays the same),
//! the noise generator does not read past the grid ([`generate`]), and the
//! open list is a heap, not an O(n) sorted insert.

pub mod ascii;

use super::grid::{MAX_HEIGHT, WALL};
use super::{Cell, Grid, Sim, Sink};
use crate::num::{Fx, Pcg32};
use serde::{Deserialize, Serialize};

/// The move-cost rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostRule {
    /// The largest climb in one move (higher is a cliff).
    pub max_climb: u8,
    /// The largest drop in one move (deeper is a cliff).
    pub max_drop: u8,
    /// Extra cost per level climbed.
    pub uphill_weight: u32,
    /// Extra cost per level dropped.
    pub downhill_weight: u32,
}

impl Default for CostRule {
    fn default() -> CostRule {
        CostRule {
            max_climb: 2,
            max_drop: 2,
            uphill_weight: 1,
            downhill_weight: 0,
        }
    }
}

/// The largest uphill or downhill weight (keeps every path cost in `u32`:
/// 4096² cells × (1 + 9 · 10,000) < 2⁶⁴, and costs are summed in `u64`).
pub const MAX_WEIGHT: u32 = 10_000;

/// The most searches a scenario runs side by side (each keeps 9 bytes per
/// cell: eight on a 4096² map is 1.2 GB).
pub const MAX_SEARCHES: usize = 8;

/// Why a move is impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Blocked {
    /// Outside the grid.
    Outside,
    /// Into a wall.
    Wall,
    /// Up more than `max_climb` levels (the climb).
    Climb(u8),
    /// Down more than `max_drop` levels (the drop).
    Drop(u8),
    /// A diagonal that would cut a corner: a cell beside it is a wall, or
    /// cannot be reached from here, or cannot reach the diagonal's cell.
    Corner,
}

impl CostRule {
    /// The most one move can cost (a climb or drop of at most 9 levels).
    pub fn max_step_cost(&self) -> u64 {
        1 + 9 * self.uphill_weight.max(self.downhill_weight) as u64
    }

    /// The cost of moving from height `a` to height `b` (neither a wall).
    #[inline(always)]
    pub fn cost(&self, a: u8, b: u8) -> Result<u32, Blocked> {
        if b > a {
            let up = b - a;
            if up > self.max_climb {
                return Err(Blocked::Climb(up));
            }
            Ok(1 + up as u32 * self.uphill_weight)
        } else {
            let down = a - b;
            if down > self.max_drop {
                return Err(Blocked::Drop(down));
            }
            Ok(1 + down as u32 * self.downhill_weight)
        }
    }

    /// The cost of moving from height `a` onto terrain `b` (a wall or a
    /// height).
    #[inline(always)]
    fn step(&self, a: u8, b: u8) -> Result<u32, Blocked> {
        if b == WALL {
            return Err(Blocked::Wall);
        }
        self.cost(a, b)
    }
}

/// Which neighbours one move reaches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Moves {
    /// Left, up, right, down (article 001). Costs (`g`) are whole numbers.
    #[default]
    Four,
    /// The four, then the diagonals: up-left, up-right, down-right,
    /// down-left. A diagonal costs [`SQRT2_16`] / 2¹⁶ times what the rule
    /// charges for its climb or drop, and cuts no corner: both orthogonal
    /// cells beside it must be reachable from here, and the diagonal's
    /// cell from each of them, under the rule. Costs (`g`) are in 16-bit
    /// fixed point (units of 2⁻¹⁶).
    Eight,
}

impl Moves {
    /// The fractional bits of a cost (`g`) under these moves.
    pub const fn frac_bits(self) -> u32 {
        match self {
            Moves::Four => 0,
            Moves::Eight => 16,
        }
    }

    /// A cost (`g`) under these moves as text: whole for 4-way moves, to 4
    /// decimals (rounded to nearest) for 8-way moves.
    pub fn show(self, g: u64) -> String {
        match self {
            Moves::Four => g.to_string(),
            Moves::Eight => {
                let e4 = (g as u128 * 10_000 + (1 << 15)) >> 16;
                format!("{}.{:04}", e4 / 10_000, e4 % 10_000)
            }
        }
    }
}

/// √2 in 16-bit fixed point, rounded to nearest: 92,682 / 2¹⁶ =
/// 1.4142151, 1.1 parts per million over √2 (so a diagonal is never
/// cheaper than two halves of it, and every heuristic here stays a bound).
pub const SQRT2_16: u64 = 92_682;

/// The heuristic's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeuristicKind {
    /// Straight-line distance (article 001).
    Euclidean,
    /// |dx| + |dy|.
    Manhattan,
    /// 0: Dijkstra.
    Zero,
    /// max(|dx|, |dy|) + (√2 − 1) · min(|dx|, |dy|): the exact distance
    /// of 8-way moves on open ground (with √2 as [`SQRT2_16`]).
    Octile,
}

/// A heuristic: a shape times a weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heuristic {
    /// The shape.
    pub kind: HeuristicKind,
    /// The weight `w` (1 = plain; large = greedy best-first).
    pub weight: Fx,
}

impl Heuristic {
    /// A plain (weight 1) heuristic.
    pub const fn plain(kind: HeuristicKind) -> Heuristic {
        Heuristic {
            kind,
            weight: Fx::ONE,
        }
    }

    /// Whether it never overestimates under the cost rule with `moves`,
    /// and is consistent (a move lowers it by no more than the move
    /// costs). A 4-way move costs at least 1 and changes x or y by one,
    /// which changes the Manhattan, Euclidean or octile distance by at
    /// most 1. A diagonal costs at least √2 and changes the Euclidean or
    /// octile distance by at most √2, but the Manhattan distance by 2, so
    /// Manhattan is a bound of 8-way moves only at `w ≤ 0.7`. Each shape
    /// times `w ≤ 1` is a bound too; `w > 1` is not.
    pub fn is_admissible(&self, moves: Moves) -> bool {
        match (self.kind, moves) {
            (HeuristicKind::Zero, _) => true,
            (HeuristicKind::Manhattan, Moves::Eight) => self.weight <= Fx::from_int(7).div_int(10),
            _ => self.weight <= Fx::ONE,
        }
    }

    /// `h` in 16-bit fixed point, rounded down.
    #[inline(always)]
    pub fn h16(&self, dx: u32, dy: u32) -> u64 {
        self.weigh(self.plain16(dx, dy))
    }

    /// The shape's `h16` (weight 1).
    #[inline(always)]
    fn plain16(&self, dx: u32, dy: u32) -> u64 {
        match self.kind {
            HeuristicKind::Zero => 0,
            HeuristicKind::Manhattan => ((dx + dy) as u64) << 16,
            HeuristicKind::Octile => {
                let (lo, hi) = (dx.min(dy) as u64, dx.max(dy) as u64);
                ((hi - lo) << 16) + lo * SQRT2_16
            }
            HeuristicKind::Euclidean => {
                let d2 = dx as u64 * dx as u64 + dy as u64 * dy as u64;
                crate::num::rsqrt::isqrt_u64(d2 << 32)
            }
        }
    }

    /// A shape's `h16` times the weight, rounded down.
    #[inline(always)]
    fn weigh(&self, base: u64) -> u64 {
        if self.weight == Fx::ONE {
            base
        } else {
            // w in Q32: base · w / 2³², rounded down.
            ((base as u128 * self.weight.to_bits() as u128) >> 32) as u64
        }
    }
}

/// How equal-`f` entries are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreak {
    /// First pushed, first served (the article's sorted list).
    Fifo,
    /// Last pushed, first served.
    Lifo,
    /// Larger `g` first (deeper along its path), then FIFO.
    LargerG,
    /// Smaller `h` first (closer to the goal), then FIFO.
    SmallerH,
}

impl TieBreak {
    /// The names used in lessons and on the command line.
    pub const NAMES: &[(&str, TieBreak)] = &[
        ("fifo", TieBreak::Fifo),
        ("lifo", TieBreak::Lifo),
        ("larger_g", TieBreak::LargerG),
        ("smaller_h", TieBreak::SmallerH),
    ];
}

/// One search of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// A short name for pictures (`"A*"`, `"Dijkstra"`).
    pub label: String,
    /// The move-cost rule.
    pub rule: CostRule,
    /// The heuristic.
    pub heuristic: Heuristic,
    /// The tie-break.
    pub tie_break: TieBreak,
    /// Whether expanded cells are closed and stale open entries skipped
    /// (true, the default); false is article 001's list with no closed
    /// set, where every popped entry is expanded, stale copies included.
    pub closed_set: bool,
    /// 4-way (the article's) or 8-way moves.
    pub moves: Moves,
}

/// The article's search: Euclidean h (w = 1), first pushed first among
/// equal f, a closed set, 4-way moves, the default cost rule, no label.
impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            label: String::new(),
            rule: CostRule::default(),
            heuristic: Heuristic::plain(HeuristicKind::Euclidean),
            tie_break: TieBreak::Fifo,
            closed_set: true,
            moves: Moves::Four,
        }
    }
}

/// A checked path scenario: one map, one start and goal, one or more
/// searches stepped side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathConfig {
    /// The terrain.
    pub grid: Grid,
    /// Where every search starts.
    pub start: Cell,
    /// Where every search goes.
    pub goal: Cell,
    /// The searches, stepped together.
    pub searches: Vec<SearchConfig>,
}

impl PathConfig {
    /// Checks what [`PathSim::new`] relies on.
    pub fn check(&self) -> Result<(), String> {
        for (what, c) in [("start", self.start), ("goal", self.goal)] {
            if !self.grid.contains(c) {
                return Err(format!(
                    "{what} {c} is off the {}×{} map",
                    self.grid.width(),
                    self.grid.height()
                ));
            }
            if self.grid.is_wall(c) {
                return Err(format!("{what} {c} is inside a wall"));
            }
        }
        if self.searches.is_empty() || self.searches.len() > MAX_SEARCHES {
            return Err(format!(
                "a path scenario runs 1..={MAX_SEARCHES} searches, not {}",
                self.searches.len()
            ));
        }
        for s in &self.searches {
            if s.rule.uphill_weight > MAX_WEIGHT || s.rule.downhill_weight > MAX_WEIGHT {
                return Err(format!("weights must be in 0..={MAX_WEIGHT}"));
            }
            if s.heuristic.weight < Fx::ZERO || s.heuristic.weight > Fx::from_int(1000) {
                return Err("the heuristic weight must be in 0..=1000".into());
            }
        }
        Ok(())
    }
}

/// Where a search is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Still expanding.
    Searching,
    /// The goal was popped; the path costs this much.
    Found(u64),
    /// The open list ran empty.
    Unreachable,
}

/// The open-list key's serde form: a decimal string where the format is
/// read by people (JSON), the number itself where it is binary.
mod wide_key {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(key: &u128, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(key)
        } else {
            s.serialize_u128(*key)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        if d.is_human_readable() {
            let s = String::deserialize(d)?;
            s.parse()
                .map_err(|_| D::Error::custom(format!("`{s}` is not an open-list key")))
        } else {
            u128::deserialize(d)
        }
    }
}

/// An open-list entry, ordered by its key alone: a total order, since the
/// key ends with the unique push counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct OpenEntry {
    /// `f16 · 2⁶⁴ + tie · 2³² + seq`: `f` (16 fractional bits), then the
    /// 32-bit tie-break key (see [`TieBreak`]; `g` and `h` saturate at
    /// 2³² − 1 there, beyond which ties fall back to `seq`), then the push
    /// counter. Text formats (`flockstep dump --json`) write it as a
    /// decimal string, since it exceeds the 64 bits a JSON number holds
    /// exactly; binary ones (replays, the state hash) as a `u128`.
    #[serde(with = "wide_key")]
    pub key: u128,
    /// The `g` it was pushed with (a copy with a larger `g` than the cell
    /// now holds is stale).
    pub g: u64,
    /// The cell index (`y · width + x`).
    pub cell: u32,
    /// The cell's column.
    pub x: u16,
    /// The cell's row.
    pub y: u16,
}

impl OpenEntry {
    /// `f` in 16-bit fixed point.
    pub fn f16(&self) -> u64 {
        (self.key >> 64) as u64
    }

    /// Whether the cell now holds a lower `g` than this entry was pushed
    /// with (`g` is the search's per-cell costs).
    pub fn is_stale(&self, g: &[u64]) -> bool {
        g[self.cell as usize] < self.g
    }

    /// The push counter.
    pub fn seq(&self) -> u32 {
        self.key as u32
    }
}

/// No parent (the start, or not reached).
pub const NO_PARENT: u8 = 4;
/// Flag in [`SearchState::link`]: the cell is closed.
pub const CLOSED: u8 = 0x80;

/// Neighbour offsets in the documented order: left, up, right, down (the
/// article's loop order). A link stores the direction *to the parent*.
const DIRS: [(i32, i32); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];

/// The diagonal offsets, in the order 8-way moves try them after
/// [`DIRS`]: up-left, up-right, down-right, down-left.
const DIAGS: [(i32, i32); 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];

/// The link of a diagonal parent: `DIAG_LINK + i` points along `DIAGS[i]`
/// (after [`NO_PARENT`], so a 4-way state's links keep their values).
const DIAG_LINK: usize = 5;

/// Every link's offset to the parent ([`NO_PARENT`]'s is unused).
const LINKS: [(i32, i32); 9] = [
    DIRS[0],
    DIRS[1],
    DIRS[2],
    DIRS[3],
    (0, 0),
    DIAGS[0],
    DIAGS[1],
    DIAGS[2],
    DIAGS[3],
];

/// The orthogonal directions (of [`DIRS`]) beside each diagonal (of
/// [`DIAGS`]): across x, then across y.
const BESIDE: [(usize, usize); 4] = [(0, 1), (2, 1), (2, 3), (0, 3)];

/// The offset from a cell to its parent for a [`SearchState::link`] (the
/// closed flag ignored): one of the four moves or, under 8-way moves, a
/// diagonal; `None` for [`NO_PARENT`] and for values no search writes.
pub fn link_offset(link: u8) -> Option<(i32, i32)> {
    let dir = (link & !CLOSED) as usize;
    (dir != NO_PARENT as usize && dir < LINKS.len()).then(|| LINKS[dir])
}

/// The names of the diagonal moves, in the order 8-way searches try them.
pub const DIAGONAL_NAMES: [&str; 4] = ["up-left", "up-right", "down-right", "down-left"];

/// The diagonal moves in the order 8-way searches try them: offsets `(dx,
/// dy)`, as in [`DIAGONAL_NAMES`].
pub const DIAGONALS: [(i32, i32); 4] = DIAGS;

/// What the diagonal move from `from` along `(dx, dy)` (each ±1) costs
/// under `rule`, in units of 2⁻¹⁶ (the rule's cost × [`SQRT2_16`]), or why
/// it is impossible: off the map, a wall, a corner cut (a cell beside it
/// that `from` cannot reach, or that cannot reach the diagonal's cell), a
/// cliff. The rule the search applies, for the pictures that explain it.
pub fn diagonal_cost(
    grid: &Grid,
    rule: &CostRule,
    from: Cell,
    (dx, dy): (i32, i32),
) -> Result<u64, Blocked> {
    let to = Cell::new(from.x + dx, from.y + dy);
    let (Some(ha), true) = (grid.height_at(from), grid.contains(to)) else {
        return Err(Blocked::Outside);
    };
    let Some(hb) = grid.height_at(to) else {
        return Err(Blocked::Wall);
    };
    let through = |c: Cell| {
        grid.height_at(c)
            .is_some_and(|h| rule.cost(ha, h).is_ok() && rule.cost(h, hb).is_ok())
    };
    if !through(Cell::new(to.x, from.y)) || !through(Cell::new(from.x, to.y)) {
        return Err(Blocked::Corner);
    }
    rule.cost(ha, hb).map(|c| c as u64 * SQRT2_16)
}

/// Tells `sink` that the move to `cell` is impossible, and why.
#[inline(always)]
fn skipped<S: Sink<PathEvent>>(sink: &mut S, search: u32, cell: Cell, why: Blocked) {
    if S::ENABLED {
        sink.record(PathEvent::Skipped { search, cell, why });
    }
}

/// Everything one search knows. `Q` is the open list's container: the
/// serializable heap for lessons ([`Heap`]), or a bucket queue for a plain
/// run when the order it gives is provably the same ([`Buckets`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchState<Q = Heap, G = u64> {
    /// Best known cost from the start per cell (`u64::MAX`: not reached).
    pub g: Vec<G>,
    /// Per cell: the direction to its parent (0–3; under 8-way moves a
    /// diagonal, `DIAG_LINK` + 0–3; or [`NO_PARENT`]) in the low bits,
    /// [`CLOSED`] when expanded (see [`link_offset`]; a plain run's
    /// untraced loops do not set it: only a lesson's states and a traced
    /// run's events tell it, and the pops do not need it).
    pub link: Vec<u8>,
    /// The open list (stale copies included; see the module docs).
    pub open: Q,
    /// Pushes so far (the next entry's `seq`).
    pub seq: u32,
    /// The cell expanded by the last step.
    pub current: Option<u32>,
    /// Cells expanded so far.
    pub expanded: u32,
    /// Where the search is.
    pub status: Status,
    /// What `g` holds is a cell's cost plus `base`. A lesson's search has
    /// 0, and `u64::MAX` marks a cell not reached. A plain run ([`search`],
    /// [`Searcher`]) has at least 1, and a value below it marks a cell not
    /// reached: fresh memory is zero, and a [`Searcher`]'s next query
    /// raises `base` above every value of the last one instead of clearing.
    /// Not part of the serialized state (a restored state has 0).
    #[serde(skip)]
    base: u64,
    /// The largest value written into `g` so far (for the next `base`).
    #[serde(skip)]
    top: u64,
    /// A plain run's Euclidean distances, kept between queries (a cache,
    /// not part of the state).
    #[serde(skip)]
    roots: Roots,
    /// How an untraced run expands a cell (a speed choice, not state).
    #[serde(skip)]
    pace: Pace,
    /// Whether this query reached a cost its `G` cannot hold past `base`
    /// (an untraced 8-way run on `u32`, [`Searcher`]'s hopeful try): it
    /// stopped there, and its result is not the query's.
    #[serde(skip)]
    overflowed: bool,
}

/// How an untraced run expands a cell: a choice of speed alone, for both
/// ways make the same pushes in the same order, so the search and its
/// result are the same.
///
/// In a maze's corridors most cells have one way on besides the way
/// back. There [`SearchState::corridor`] finds a cell's open neighbours
/// without a branch, into a mask, and relaxes only those: a corridor's
/// turns make the branches on each neighbour's terrain hard to predict.
/// In open country, where most moves are open, the four moves written out
/// predict better. A run tells which it is in from the cells it expands:
/// every one while in corridors, every [`PACE_SAMPLE`]th otherwise. With
/// 8-way moves the corridor pace tries only the diagonals beside two ways
/// the mask found ([`SearchState::corners`]), and checks no corner that a
/// corridor's walls close.
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    /// Whether cells are expanded as in corridors.
    corridors: bool,
    /// +1 per sampled cell with at most one way on, −1 per other, kept
    /// within ±[`PACE_TURN`]; the pace turns at either bound.
    score: i8,
}

/// Open country samples one expansion in this many.
const PACE_SAMPLE: u32 = 32;

/// The bound of [`Pace::score`], at which the pace turns.
const PACE_TURN: i8 = 8;

/// Equality for what a search keeps beside its state (a cache, a speed
/// choice): it holds no state, so any two are equal.
macro_rules! no_state {
    ($($t:ty),*) => {$(
        impl PartialEq for $t {
            fn eq(&self, _: &$t) -> bool {
                true
            }
        }

        impl Eq for $t {}
    )*};
}

no_state!(Pace, Roots);

impl Pace {
    /// Counts a cell with the open neighbours `ways` (a mask, the way back
    /// left out).
    #[inline(always)]
    fn count(&mut self, ways: u32) {
        let one = ways & ways.wrapping_sub(1) == 0;
        self.score = (self.score + if one { 1 } else { -1 }).clamp(-PACE_TURN, PACE_TURN);
        if self.score.abs() == PACE_TURN {
            self.corridors = self.score > 0;
        }
    }

    /// [`Pace::count`] at the corridor pace, without a branch: there only
    /// the lower bound turns the pace (at the upper one it stays), so the
    /// score and the turns are the same, and a corridor's cells, whose
    /// count of ways on varies, give no branch to mispredict.
    #[inline(always)]
    fn count_in_corridors(&mut self, ways: u32) {
        debug_assert!(self.corridors);
        let one = ways & ways.wrapping_sub(1) == 0;
        self.score = (self.score + 2 * one as i8 - 1).min(PACE_TURN);
        self.corridors = self.score > -PACE_TURN;
    }
}

/// The Euclidean `h16` by `min(|dx|, |dy|)` and `max(|dx|, |dy|)`, filled
/// as pushes ask (an entry holds `h16 + 1`; 0: not computed yet). It is a
/// function of the two distances alone, so what one query fills serves
/// every later one, on any map, and a push loads a root instead of taking
/// one (a square root is a chain of five dependent multiplies, and the
/// next pop waits for it; a filled entry is one load).
///
/// Kept for maps whose longer side is at most [`ROOTS_SIDE`]: the table
/// is then at most 525,312 bytes (about 2 bytes a cell of the square on
/// that side).
/// On a 1024² map its 2 MiB would cost more in cache misses than the
/// roots they save.
#[derive(Clone, Debug, Default)]
struct Roots {
    table: Vec<u32>,
    /// Whether this query reads it (the Euclidean shape, a map that fits).
    on: bool,
}

/// The longest map side [`Roots`] are kept for.
const ROOTS_SIDE: usize = 512;

impl Roots {
    /// Turned on, and sized, if the query on `p` reads it.
    fn prepare(&mut self, p: &Problem) {
        let side = p.width.max(p.height) as usize;
        self.on = p.heuristic.kind == HeuristicKind::Euclidean && side <= ROOTS_SIDE;
        let len = side * (side + 1) / 2;
        if self.on && self.table.len() < len {
            self.table = vec![0; len]; // zeroed by the allocator, lazily
        }
    }

    /// The bytes it holds while on.
    fn bytes(&self) -> usize {
        if self.on {
            self.table.capacity() * 4
        } else {
            0
        }
    }

    /// `heuristic`'s `h16` at distances `dx`, `dy` from the goal, its
    /// root computed if not yet known.
    #[inline(always)]
    fn h16(&mut self, heuristic: Heuristic, dx: u32, dy: u32) -> u64 {
        let (lo, hi) = (dx.min(dy) as usize, dx.max(dy) as usize);
        let i = hi * (hi + 1) / 2 + lo;
        let plain = match self.table[i] {
            0 => {
                let h = heuristic.plain16(dx, dy);
                self.table[i] = h as u32 + 1; // < 2²⁶ on a side of 512
                h
            }
            v => v as u64 - 1,
        };
        heuristic.weigh(plain)
    }
}

/// Everything that changes in a path scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathState {
    /// Steps taken.
    pub tick: u64,
    /// One per search, in config order.
    pub searches: Vec<SearchState>,
}

/// What a step explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PathEvent {
    /// The heuristic may overestimate: the result may not be optimal.
    NotAdmissible {
        /// Search index.
        search: u32,
    },
    /// A cell was popped and closed.
    Expanded {
        /// Search index.
        search: u32,
        /// The cell.
        cell: Cell,
        /// Its `g`.
        g: u64,
        /// Its `f` (16 fractional bits).
        f16: u64,
        /// The `g` the cell holds: lower than `g` when the entry expanded
        /// was a stale copy (only without a closed set).
        held: u64,
    },
    /// A neighbour was reached for the first time.
    Pushed {
        /// Search index.
        search: u32,
        /// The neighbour.
        cell: Cell,
        /// Its new `g`.
        g: u64,
        /// Its `h` (16 fractional bits).
        h16: u64,
    },
    /// A neighbour got a cheaper `g` (and was pushed again).
    Improved {
        /// Search index.
        search: u32,
        /// The neighbour.
        cell: Cell,
        /// The `g` it had.
        old_g: u64,
        /// Its new `g`.
        g: u64,
        /// Whether it had been closed (reopened).
        reopened: bool,
    },
    /// A move was impossible.
    Skipped {
        /// Search index.
        search: u32,
        /// The neighbour.
        cell: Cell,
        /// Why.
        why: Blocked,
    },
    /// The goal was popped.
    Found {
        /// Search index.
        search: u32,
        /// The path's cost.
        cost: u64,
    },
    /// The open list ran empty.
    Unreachable {
        /// Search index.
        search: u32,
    },
}

/// One search's fixed inputs, borrowed for a step.
#[derive(Clone, Copy)]
struct Problem<'a> {
    terrain: &'a [u8],
    width: u32,
    height: u32,
    goal: Cell,
    rule: CostRule,
    heuristic: Heuristic,
    tie_break: TieBreak,
    closed_set: bool,
    moves: Moves,
    /// Whether an expansion marks its cell [`CLOSED`]: in a lesson's search
    /// and a traced run, whose states and events tell it; a plain run's
    /// untraced loops need no mark (their pops need only the `g` check: a
    /// cell's entries hold strictly falling `g`s, so at most one matches
    /// what it holds, and once popped it is gone; a cell reopened later
    /// holds a new, lower `g`).
    marks: bool,
    /// The rule's moves, tabled.
    steps: Steps,
}

/// A cost rule's moves as tables (see [`Problem`]): one load in place of
/// the rule's branches.
#[derive(Clone, Copy, Debug)]
struct Steps {
    /// [`CostRule::cost`] by `b − a + MAX_HEIGHT` for heights `a`, `b`
    /// (0: blocked).
    cost: [u32; 2 * MAX_HEIGHT as usize + 1],
    /// By height `a`: bit `b` set if the move from `a` onto height `b` is
    /// open (entries and bits past [`MAX_HEIGHT`] clear, so that a wall,
    /// or any byte no grid holds, read as 15 on either side is blocked).
    onto: [u16; 16],
}

impl CostRule {
    /// Every move's cost by `b − a + MAX_HEIGHT` (0 if blocked), and
    /// which are open by height.
    fn steps(&self) -> Steps {
        let mut cost = [0; 2 * MAX_HEIGHT as usize + 1];
        for (i, c) in cost.iter_mut().enumerate() {
            let (a, b) = (
                MAX_HEIGHT.saturating_sub(i as u8),
                (i as u8).saturating_sub(MAX_HEIGHT),
            );
            *c = self.cost(a, b).unwrap_or(0);
        }
        let mut onto = [0; 16];
        for (a, bits) in onto.iter_mut().enumerate().take(MAX_HEIGHT as usize + 1) {
            for b in 0..=MAX_HEIGHT {
                *bits |= (self.cost(a as u8, b).is_ok() as u16) << b;
            }
        }
        Steps { cost, onto }
    }
}

impl<'a> Problem<'a> {
    /// One search of `cfg` on `grid` towards `goal`.
    #[cfg(test)]
    fn of(grid: &'a Grid, goal: Cell, cfg: &SearchConfig) -> Problem<'a> {
        Problem::with(grid, goal, cfg, cfg.rule.steps())
    }

    /// One search of `cfg` on `grid` towards `goal`, with its rule's table
    /// already built: a lesson's search steps once a tick and a
    /// [`Searcher`] answers query after query, and each builds it once.
    fn with(grid: &'a Grid, goal: Cell, cfg: &SearchConfig, steps: Steps) -> Problem<'a> {
        Problem {
            terrain: grid.terrain(),
            width: grid.width(),
            height: grid.height(),
            goal,
            rule: cfg.rule,
            heuristic: cfg.heuristic,
            tie_break: cfg.tie_break,
            closed_set: cfg.closed_set,
            moves: cfg.moves,
            marks: true,
            steps,
        }
    }
}

impl Problem<'_> {
    /// [`CostRule::step`] from height `a` onto terrain `b`, read from the
    /// table when both are heights and the move is open (walls, blocked
    /// moves and any other byte ask the rule).
    #[inline(always)]
    fn step(&self, a: u8, b: u8) -> Result<u32, Blocked> {
        if a <= MAX_HEIGHT && b <= MAX_HEIGHT {
            let c = self.steps.cost[(b + MAX_HEIGHT - a) as usize];
            if c != 0 {
                return Ok(c);
            }
        }
        self.rule.step(a, b)
    }

    /// The heights a move from terrain `a` can go onto ([`Steps::onto`]).
    #[inline(always)]
    fn onto(&self, a: u8) -> u16 {
        self.steps.onto[a.min(15) as usize]
    }

    /// The diagonal move from height `ha` onto terrain `hb` past the
    /// terrain `beside` (cells the caller knows `ha` reaches): its cost in
    /// the rule's units if the moves from `ha` and from each cell beside
    /// onto `hb` are open ([`SearchState::diagonal`]'s rule, from two
    /// tables).
    #[inline(always)]
    fn corner(&self, ha: u8, hb: u8, beside: [u8; 2]) -> Option<u32> {
        let open = self.onto(ha) & self.onto(beside[0]) & self.onto(beside[1]);
        (open >> hb.min(15) & 1 != 0).then(|| self.steps.cost[(hb + MAX_HEIGHT - ha) as usize])
    }

    /// `|dx|` and `|dy|` from `(x, y)` to the goal.
    #[inline(always)]
    fn distances(&self, x: i32, y: i32) -> (u32, u32) {
        (x.abs_diff(self.goal.x), y.abs_diff(self.goal.y))
    }

    /// The heuristic at `(x, y)`, computed.
    #[cfg(test)]
    fn h16(&self, x: i32, y: i32) -> u64 {
        let (dx, dy) = self.distances(x, y);
        self.heuristic.h16(dx, dy)
    }

    #[inline(always)]
    fn tie(&self, g: u64, h16: u64, seq: u32) -> u32 {
        match self.tie_break {
            TieBreak::Fifo => 0,
            TieBreak::Lifo => u32::MAX - seq,
            TieBreak::LargerG => u32::MAX - g.min(u32::MAX as u64) as u32,
            TieBreak::SmallerH => h16.min(u32::MAX as u64) as u32,
        }
    }
}

/// Children per node of the open list's heap: a 4-ary heap is shallower
/// than a binary one, and siblings sit next to each other in memory.
const ARITY: usize = 4;

/// Pushes onto the 4-ary min-heap (sift-up moving a hole, not swapping).
#[inline]
fn heap_push(heap: &mut Vec<OpenEntry>, e: OpenEntry) {
    let mut i = heap.len();
    heap.push(e);
    while i > 0 {
        let parent = (i - 1) / ARITY;
        if heap[parent].key <= e.key {
            break;
        }
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = e;
}

/// Pops the smallest entry of the 4-ary min-heap.
#[inline]
fn heap_pop(heap: &mut Vec<OpenEntry>) -> Option<OpenEntry> {
    let last = heap.pop()?;
    if heap.is_empty() {
        return Some(last);
    }
    let top = heap[0];
    let n = heap.len();
    let mut i = 0;
    loop {
        let first = ARITY * i + 1;
        if first >= n {
            break;
        }
        let mut c = first;
        for j in first + 1..(first + ARITY).min(n) {
            if heap[j].key < heap[c].key {
                c = j;
            }
        }
        if last.key <= heap[c].key {
            break;
        }
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = last;
    Some(top)
}

/// An open list: push entries, pop the one with the smallest key.
pub trait OpenQueue: Default {
    /// Adds an entry.
    fn push(&mut self, e: OpenEntry);
    /// Removes the entry with the smallest key.
    fn pop(&mut self) -> Option<OpenEntry>;
    /// Every entry held, in no particular order.
    fn entries(&self) -> Vec<OpenEntry>;
    /// The most bytes it has held at once (its peak).
    fn bytes(&self) -> usize;
    /// Empties it for a new query, keeping its memory.
    fn clear(&mut self);
}

/// The open list as a 4-ary min-heap on [`OpenEntry`] keys: any key order,
/// any tie-break; its array is part of a lesson's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Heap(pub Vec<OpenEntry>);

impl OpenQueue for Heap {
    #[inline]
    fn push(&mut self, e: OpenEntry) {
        heap_push(&mut self.0, e);
    }
    #[inline]
    fn pop(&mut self) -> Option<OpenEntry> {
        heap_pop(&mut self.0)
    }
    fn entries(&self) -> Vec<OpenEntry> {
        self.0.clone()
    }
    fn bytes(&self) -> usize {
        self.0.capacity() * size_of::<OpenEntry>()
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}

/// The open list as a ring of FIFO buckets, one per whole `f`, for the
/// case where it pops in exactly the heap's order at O(1) a step: FIFO
/// tie-break and a consistent heuristic with whole values (Manhattan or
/// zero, weight 1). Then `f` never decreases along the search and a push
/// lands at most `max step cost + 1` above the `f` being expanded, so
/// `max step cost + 2` buckets suffice; within a bucket, push order is
/// `seq` order — the heap's key order. `tests/path.rs` checks that both
/// containers expand the same cells in the same order.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    /// Per bucket: `(g, cell, x, y)` — the bucket is the entry's `f`, and
    /// FIFO order its `seq`, so the key need not be stored (16 bytes, not 32).
    ring: Vec<std::collections::VecDeque<(u64, u32, u16, u16)>>,
    /// The `f` of the bucket at the cursor: the last popped `f` (or the
    /// first pushed, before any pop). It only moves forward.
    cursor_f: u64,
    len: usize,
    started: bool,
    /// Entries' worth of memory the buckets hold now, and at most so far.
    cap: usize,
    peak_cap: usize,
}

impl Buckets {
    fn with_span(span: usize) -> Buckets {
        Buckets {
            ring: (0..span).map(|_| Default::default()).collect(),
            cursor_f: 0,
            len: 0,
            started: false,
            cap: 0,
            peak_cap: 0,
        }
    }
}

impl OpenQueue for Buckets {
    #[inline(always)]
    fn push(&mut self, e: OpenEntry) {
        let f = e.f16() >> 16;
        if !self.started {
            self.cursor_f = f;
            self.started = true;
        }
        debug_assert!(f >= self.cursor_f && f - self.cursor_f < self.ring.len() as u64);
        let n = self.ring.len() as u64;
        let bucket = &mut self.ring[(f % n) as usize];
        let before = bucket.capacity();
        bucket.push_back((e.g, e.cell, e.x, e.y));
        self.cap += bucket.capacity() - before;
        self.peak_cap = self.peak_cap.max(self.cap);
        self.len += 1;
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<OpenEntry> {
        if self.len == 0 {
            return None;
        }
        let n = self.ring.len() as u64;
        loop {
            let bucket = &mut self.ring[(self.cursor_f % n) as usize];
            if let Some((g, cell, x, y)) = bucket.pop_front() {
                self.len -= 1;
                if bucket.is_empty() {
                    // Give a drained bucket's memory back, so the ring holds
                    // about what the heap would, not every bucket's peak.
                    self.cap -= bucket.capacity();
                    bucket.shrink_to_fit();
                    self.cap += bucket.capacity();
                }
                let key = ((self.cursor_f as u128) << 16) << 64;
                return Some(OpenEntry { key, g, cell, x, y });
            }
            self.cursor_f += 1;
        }
    }
    fn entries(&self) -> Vec<OpenEntry> {
        let n = self.ring.len() as u64;
        (0..n)
            .flat_map(|i| {
                let f = self.cursor_f + i;
                self.ring[(f % n) as usize]
                    .iter()
                    .map(move |&(g, cell, x, y)| OpenEntry {
                        key: ((f as u128) << 16) << 64,
                        g,
                        cell,
                        x,
                        y,
                    })
            })
            .collect()
    }
    fn clear(&mut self) {
        for b in &mut self.ring {
            b.clear();
        }
        self.cursor_f = 0;
        self.len = 0;
        self.started = false;
        self.peak_cap = self.cap;
    }
    /// The most bytes the buckets have held at once.
    fn bytes(&self) -> usize {
        self.peak_cap * 16
            + self.ring.capacity() * size_of::<std::collections::VecDeque<(u64, u32, u16, u16)>>()
    }
}

/// The open list as a calendar queue (Brown, 1988) for any consistent
/// heuristic and any tie-break ([`calendar_applies`]): a ring of slices of
/// `f16`, each 2^`shift` wide. With a consistent heuristic `f` never
/// decreases along the pops, and a push lands at most one move's cost plus
/// 1 above the `f` being expanded (the move changes `h` by at most 1), so a
/// ring spanning `max step cost + 2` whole units holds every live slice
/// without wrapping onto itself.
///
/// A slice ahead of the cursor is an unsorted array a push appends to.
/// When the pops reach it, a slice of at most 16 entries (`WHOLE`) is
/// sorted whole; a larger one is dealt into 64 narrower buckets (pushes
/// into the cursor's slice go there too). The slice or bucket being
/// drained is put once into the order of its full keys (a short one by
/// keys packed in a `u64` each, up to 8 by a sorting network; a long one
/// reversed if pushed in that order, or sorted by packed keys if all of
/// one `f`) and popped from its end, and a push into it is inserted in
/// key order (one above all of it goes to a second list, in key order:
/// most often appended; the bucket takes that list, reversed, once
/// empty). Slices and buckets are drained in order and each bucket in key
/// order, so the pops are exactly the heap's.
/// A push is an append, and a pop a share of sorting a bucket of two or
/// three entries (the default rule's buckets are 1/1024 of a unit).
/// `tests/path.rs` checks that a search on it tells exactly the heap's
/// story.
#[derive(Clone, Debug, Default)]
pub struct Calendar {
    /// The slices ahead of the cursor, unsorted: slice `s` (of `f16 >>
    /// shift`) is at `(s − origin) & mask`. The ring grows to an index when
    /// first used, so a short query on fresh memory touches a few slices.
    ring: Vec<Vec<OpenEntry>>,
    /// A bit per ring slice that holds an entry.
    words: Vec<u64>,
    /// The cursor's slice, dealt into buckets by the next [`FINE_BITS`]
    /// bits of `f16`, unsorted (push order).
    fine: Vec<Vec<OpenEntry>>,
    /// A bit per bucket that holds an entry.
    fine_bits: u64,
    /// The bucket being drained, sorted by key from largest to smallest
    /// (the next pop is the last entry).
    now: Vec<OpenEntry>,
    /// `now`'s bucket in the cursor's slice.
    at: u32,
    /// The slice of the query's first push.
    origin: u64,
    mask: usize,
    shift: u32,
    /// The slice being drained (the first push's, before any pop).
    cursor: u64,
    len: usize,
    started: bool,
    /// The most entries held at once in this query.
    peak: usize,
    /// Entries of the bucket being drained with keys above all of `now`'s,
    /// from smallest to largest: a push of a new largest key (FIFO ties
    /// push each behind the last of its `f`) is appended here rather than
    /// inserted at `now`'s front, which would move every entry.
    /// `now` takes them, reversed, once it is empty.
    later: Vec<OpenEntry>,
    /// [`Calendar::sort_long`]'s packed keys.
    keys: Vec<u64>,
    /// [`Calendar::sort_long`]'s sorted bucket, then `now`'s old memory.
    spare: Vec<OpenEntry>,
    /// How many long buckets each way of [`Calendar::sort_long`] sorted
    /// (reversed, packed, whole keys), for the tests to see each taken.
    #[cfg(test)]
    long_sorts: [u32; 3],
}

/// Sorts `v` by key from largest to smallest (the next pop last).
#[inline(always)]
fn by_key(v: &mut [OpenEntry]) {
    v.sort_unstable_by_key(|e| core::cmp::Reverse(e.key));
}

/// Sorts `v`, at most [`SHORT`] entries of one slice `2^shift` wide in
/// push order, as [`by_key`] does, without a branch on the keys: each
/// entry's `f` within the slice, tie key and place are packed in a `u64`
/// (places order the push counters the same way), a sorting network
/// orders them, and the entries are gathered in reverse. An insertion
/// sort's branches on the keys are mispredicted often; the network's
/// mins and maxes have none to mispredict.
#[inline(always)]
fn sort_small(v: &mut Vec<OpenEntry>, spare: &mut Vec<OpenEntry>, shift: u32) {
    const _: () = assert!(SLICES + 16 - RING + 32 + 3 <= 64 && SHORT <= 8);
    let n = v.len();
    debug_assert!(n <= SHORT && shift <= SLICES + 16 - RING);
    if n < 2 {
        return;
    }
    let low = (1u64 << shift) - 1;
    let mut k = [u64::MAX; 8];
    for (i, e) in v.iter().enumerate() {
        k[i] = packed(e, low, 3, i);
    }
    if n <= 4 {
        network(&mut k, &NET4);
    } else {
        network(&mut k, &NET8);
    }
    gather(v, spare, &k[..n], 3);
}

/// `e`'s key within one slice in a `u64`: its `f` there (`f16 & low`),
/// its tie key, then its place `i` in push order in `place` bits (places
/// order the push counters the same way).
#[inline(always)]
fn packed(e: &OpenEntry, low: u64, place: u32, i: usize) -> u64 {
    (e.f16() & low) << (32 + place) | (e.key as u64 >> 32) << place | i as u64
}

/// Puts `v` in the order of `sorted`, its entries' packed keys from
/// smallest to largest, reversed (the next pop last): each entry is found
/// by its place, the key's low `place` bits. `spare` takes `v`'s memory.
#[inline(always)]
fn gather(v: &mut Vec<OpenEntry>, spare: &mut Vec<OpenEntry>, sorted: &[u64], place: u32) {
    let mask = (1u64 << place) - 1;
    spare.clear();
    spare.extend(sorted.iter().rev().map(|&k| v[(k & mask) as usize]));
    core::mem::swap(v, spare);
}

/// A sorting network of four (the optimal one, five comparators, in three
/// layers).
const NET4: [(u8, u8); 5] = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];

/// A sorting network of eight (the optimal one, 19 comparators, in six
/// layers).
#[rustfmt::skip]
const NET8: [(u8, u8); 19] = [
    (0, 2), (1, 3), (4, 6), (5, 7), // one line a layer: these four at once
    (0, 4), (1, 5), (2, 6), (3, 7),
    (0, 1), (2, 3), (4, 5), (6, 7),
    (2, 4), (3, 5),
    (1, 4), (3, 6),
    (1, 2), (3, 4), (5, 6),
];

/// Applies the comparators `net` to `k` (each a min and a max: no branch).
#[inline(always)]
fn network<const N: usize>(k: &mut [u64; 8], net: &[(u8, u8); N]) {
    for &(a, b) in net {
        let (a, b) = (a as usize, b as usize);
        let (x, y) = (k[a], k[b]);
        k[a] = x.min(y);
        k[b] = x.max(y);
    }
}

/// `e`'s bucket in its slice of a calendar whose slices are `2^shift` wide.
#[inline(always)]
fn fine_bucket(e: &OpenEntry, shift: u32) -> usize {
    (e.f16() >> (shift - FINE_BITS)) as usize & (FINE - 1)
}

/// The most slices a calendar's span may need at a unit's width (as a
/// power of two): wider spans (weights over about 450) run on the heap.
const SLICES: u32 = 12;

/// The calendar's ring length, a power of two: a slice is `span / RING`
/// wide (1/16 of a unit for the default rule).
const RING: u32 = 8;

/// A slice's buckets, as a power of two (64: one bit each in a `u64`;
/// more buckets would leave fewer entries to sort in each, but cost more
/// to deal into and to scan than that saves).
const FINE_BITS: u32 = 6;

/// A slice's buckets.
const FINE: usize = 1 << FINE_BITS;

/// The length from which a push into the bucket being drained is first
/// compared with its next pop (below, a binary search is as cheap).
const LONG: usize = 16;

/// The most entries of a drained bucket sorted by [`sort_small`], without
/// first looking for rising keys or one `f` ([`Calendar::sort_long`]).
const SHORT: usize = 8;

/// The most entries a slice may hold to be sorted whole rather than
/// dealt into its buckets: with sorts on packed keys ([`sort_small`],
/// [`Calendar::sort_packed`]), a slice this short is sorted more cheaply
/// whole than dealt and sorted bucket by bucket.
const WHOLE: usize = 16;

impl Calendar {
    /// The slice width (as a shift of `f16`) for a search, if its `f` range
    /// fits [`SLICES`] slices a unit wide.
    fn shift_for(cfg: &SearchConfig) -> Option<u32> {
        let span_bits = 64 - (f_span(cfg) - 1).leading_zeros(); // f_span ≥ 3
        (span_bits <= SLICES).then_some(span_bits + 16 - RING)
    }

    /// An empty calendar with slices `2^shift` wide (`shift` ≥ 10).
    fn with_shift(shift: u32) -> Calendar {
        let n = 1usize << RING.max(6);
        Calendar {
            mask: n - 1,
            shift,
            words: vec![0; n / 64],
            fine: vec![Vec::new(); FINE],
            ..Calendar::default()
        }
    }

    /// An entry's bucket in its slice.
    #[inline(always)]
    fn bucket(&self, e: &OpenEntry) -> u32 {
        fine_bucket(e, self.shift) as u32
    }

    /// Ring index `i`'s slice, the ring grown to it if need be.
    #[inline(always)]
    fn slice(&mut self, i: usize) -> &mut Vec<OpenEntry> {
        if i >= self.ring.len() {
            self.ring.resize_with(i + 1, Vec::new);
        }
        &mut self.ring[i]
    }

    /// How many slices on from ring index `i` the next held one is.
    #[inline]
    fn next_held(&self, i: usize) -> usize {
        let n = self.words.len();
        let (mut w, b) = (i / 64, i % 64);
        let bits = self.words[w] & (!0u64 << b);
        if bits != 0 {
            return w * 64 + bits.trailing_zeros() as usize - i;
        }
        let mut dist = 64 - b;
        loop {
            w = (w + 1) % n;
            if self.words[w] != 0 {
                return dist + self.words[w].trailing_zeros() as usize;
            }
            dist += 64;
        }
    }

    /// Moves the cursor to the next slice holding entries and deals them
    /// into the buckets (which are empty), keeping their push order; or,
    /// if it holds at most [`WHOLE`] entries, makes them all `now`, sorted,
    /// and returns true.
    fn advance(&mut self) -> bool {
        let at = (self.cursor - self.origin) as usize & self.mask;
        let ahead = self.next_held(at);
        self.cursor += ahead as u64;
        let i = (at + ahead) & self.mask;
        self.words[i / 64] &= !(1 << (i % 64));
        let mut slice = core::mem::take(&mut self.ring[i]);
        if slice.len() <= WHOLE {
            core::mem::swap(&mut self.now, &mut slice);
            self.ring[i] = slice; // `now`'s empty memory
            self.at = FINE as u32 - 1;
            if self.now.len() <= SHORT {
                sort_small(&mut self.now, &mut self.spare, self.shift);
            } else {
                self.sort_packed();
            }
            return true;
        }
        // The shift, the bits and the buckets held in locals, so that no
        // push makes the loop load them again through `self` (the buckets
        // as an array, which a masked index needs no bounds check for).
        let fine: &mut [Vec<OpenEntry>; FINE] = (&mut self.fine[..])
            .try_into()
            .expect("Calendar::with_shift makes FINE buckets");
        let (shift, mut bits) = (self.shift, self.fine_bits);
        for e in &slice {
            let j = fine_bucket(e, shift);
            fine[j].push(*e);
            bits |= 1 << j;
        }
        self.fine_bits = bits;
        slice.clear();
        self.ring[i] = slice; // empty, its memory kept
        false
    }

    /// Puts `e`, whose key falls at `at` in `now`, into the bucket being
    /// drained: at `at`; or, if its key is above all of `now` (`at` is 0,
    /// as [`OpenQueue::push`] finds with one compare), into `later`,
    /// however short `now` is. With FIFO ties, each push onto the plateau
    /// of one `f` that an octile search crosses on open maps is such a
    /// push, and taking it at `now`'s front would move all of `now` each
    /// time. Not inlined: kept out of the push, whose common cases stay
    /// small without it.
    #[inline(never)]
    fn insert_at(&mut self, at: usize, e: OpenEntry) {
        if at != 0 {
            self.now.insert(at, e);
            return;
        }
        // Above all of `now`: `later` takes it in key order, most often
        // at its end.
        if self.later.last().is_none_or(|l| l.key < e.key) {
            self.later.push(e);
        } else {
            let at = self.later.partition_point(|x| x.key < e.key);
            self.later.insert(at, e);
        }
    }

    /// Refills the empty `now` from `later`.
    #[cold]
    #[inline(never)]
    fn take_later(&mut self) {
        core::mem::swap(&mut self.now, &mut self.later);
        self.now.reverse();
    }

    /// Makes the next bucket holding entries `now`, sorted.
    #[inline]
    fn refill(&mut self) {
        if self.fine_bits == 0 && self.advance() {
            return;
        }
        let j = self.fine_bits.trailing_zeros();
        self.fine_bits &= !(1 << j);
        self.at = j;
        core::mem::swap(&mut self.now, &mut self.fine[j as usize]);
        if self.now.len() <= SHORT {
            sort_small(&mut self.now, &mut self.spare, self.shift);
        } else {
            self.sort_long();
        }
    }

    /// Sorts `now`, at most [`WHOLE`] entries of one slice in push order,
    /// as [`by_key`] does: by packed keys, as [`sort_small`] (here, with a
    /// place of 12 bits), whose sort moves 8 bytes a step rather than 32
    /// and compares one word rather than two.
    #[inline(never)]
    fn sort_packed(&mut self) {
        const _: () = assert!(SLICES + 16 - RING + 32 + 12 <= 64 && WHOLE <= 1 << 12);
        debug_assert!(self.now.len() <= WHOLE);
        let low = (1u64 << self.shift) - 1;
        let placed = self.now.iter().enumerate();
        self.keys.clear();
        self.keys.extend(placed.map(|(i, e)| packed(e, low, 12, i)));
        self.keys.sort_unstable();
        gather(&mut self.now, &mut self.spare, &self.keys, 12);
    }

    /// Sorts `now`, a bucket of more than [`SHORT`] entries in push order,
    /// by key from largest to smallest. Push order is key order when the
    /// entries were pushed with one `f` and tie key (FIFO ties): reversed,
    /// then. If they share one `f` (as a long bucket most often does), by
    /// their tie keys and places packed in a `u64` each (places order the
    /// push counters the same way), then gathered: larger-g ties fill long
    /// buckets of one `f`, and a sort on packed keys moves one `u64` a step
    /// rather than a whole entry, and compares one word rather than a
    /// 128-bit key's two.
    #[inline(never)]
    fn sort_long(&mut self) {
        let now = &self.now;
        let (f, n) = (now[0].f16(), now.len());
        let (mut rising, mut tied) = (true, n <= u32::MAX as usize);
        for w in now.windows(2) {
            rising &= w[0].key < w[1].key;
            tied &= w[1].f16() == f;
        }
        #[cfg(test)]
        {
            self.long_sorts[if rising {
                0
            } else if tied {
                1
            } else {
                2
            }] += 1;
        }
        if rising {
            self.now.reverse();
        } else if tied {
            // One `f`: the tie key and a place of 32 bits (`packed` less
            // its `f`, for buckets of up to 2³² entries).
            self.keys.clear();
            let placed = now.iter().enumerate();
            self.keys
                .extend(placed.map(|(i, e)| e.key as u64 & !(u32::MAX as u64) | i as u64));
            self.keys.sort_unstable();
            gather(&mut self.now, &mut self.spare, &self.keys, 32);
        } else {
            by_key(&mut self.now);
        }
    }
}

impl OpenQueue for Calendar {
    #[inline(always)]
    fn push(&mut self, e: OpenEntry) {
        let slice = e.f16() >> self.shift;
        if !self.started {
            (self.cursor, self.origin) = (slice, slice);
            self.at = self.bucket(&e);
            self.started = true;
        }
        debug_assert!(slice >= self.cursor && slice - self.cursor <= self.mask as u64);
        self.len += 1;
        self.peak = self.peak.max(self.len);
        if slice != self.cursor {
            let i = (slice - self.origin) as usize & self.mask;
            self.words[i / 64] |= 1 << (i % 64);
            self.slice(i).push(e);
            return;
        }
        let j = self.bucket(&e);
        // Below `at` only while a whole slice is drained (`at` is then the
        // last bucket).
        debug_assert!(j >= self.at || self.at == FINE as u32 - 1);
        if j <= self.at {
            // In a long bucket (ties on whole `f`), a push is most often the
            // next pop (larger-g ties: one more step from here): no search.
            let n = self.now.len();
            if n > LONG && self.now[n - 1].key > e.key {
                self.now.push(e);
            } else if self.now.first().is_none_or(|x| x.key <= e.key) {
                // Above all of `now` (its first key is its largest),
                // found without a search: most pushes with FIFO ties.
                self.insert_at(0, e);
            } else {
                let at = self.now.partition_point(|x| x.key > e.key);
                self.insert_at(at, e);
            }
        } else {
            self.fine[j as usize].push(e);
            self.fine_bits |= 1 << j;
        }
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<OpenEntry> {
        if self.len == 0 {
            return None;
        }
        if self.now.is_empty() {
            if self.later.is_empty() {
                self.refill();
            } else {
                self.take_later();
            }
        }
        self.len -= 1;
        self.now.pop()
    }
    fn entries(&self) -> Vec<OpenEntry> {
        let all = self
            .ring
            .iter()
            .chain(&self.fine)
            .chain([&self.now, &self.later]);
        all.flatten().copied().collect()
    }
    /// The query's peak of entries (the slices' spare capacity, which
    /// depends on earlier queries, is not counted).
    fn bytes(&self) -> usize {
        self.peak * size_of::<OpenEntry>()
    }
    /// Empties the slices and buckets still holding entries, found by their
    /// bits (a short query's clear is short too); their memory is kept.
    fn clear(&mut self) {
        let words = if self.len == 0 { 0 } else { self.words.len() };
        for w in 0..words {
            while self.words[w] != 0 {
                let b = self.words[w].trailing_zeros() as usize;
                self.ring[w * 64 + b].clear();
                self.words[w] &= !(1 << b);
            }
        }
        while self.fine_bits != 0 {
            let j = self.fine_bits.trailing_zeros();
            self.fine[j as usize].clear();
            self.fine_bits &= !(1 << j);
        }
        self.now.clear();
        self.later.clear();
        self.cursor = 0;
        self.peak = 0;
        self.len = 0;
        self.started = false;
    }
}

impl<Q: OpenQueue> SearchState<Q> {
    /// A search at its start: the start cell open with `g = 0`.
    fn new(p: &Problem, start: u32, open: Q) -> SearchState<Q> {
        let cells = p.width as usize * p.height as usize;
        let mut s = SearchState::empty(open);
        s.g = vec![u64::MAX; cells];
        s.link = vec![NO_PARENT; cells];
        s.g[start as usize] = 0;
        let (x, y) = (start % p.width, start / p.width);
        s.push(p, start, x as i32, y as i32, 0);
        s
    }
}

impl<Q: OpenQueue, G: Slot> SearchState<Q, G> {
    #[inline(always)]
    fn push(&mut self, p: &Problem, cell: u32, x: i32, y: i32, g: u64) -> u64 {
        let (dx, dy) = p.distances(x, y);
        let h16 = if self.roots.on {
            self.roots.h16(p.heuristic, dx, dy)
        } else {
            p.heuristic.h16(dx, dy)
        };
        let f16 = (g << (16 - p.moves.frac_bits())) + h16;
        let tie = p.tie(g, h16, self.seq);
        let e = OpenEntry {
            key: (f16 as u128) << 64 | (tie as u128) << 32 | self.seq as u128,
            g,
            cell,
            x: x as u16,
            y: y as u16,
        };
        self.seq = self.seq.wrapping_add(1);
        self.open.push(e);
        h16
    }

    /// One expansion, at the corridor pace if `CORRIDORS` (see [`Pace`];
    /// an untraced run, from a cell holding a height). Returns false once
    /// the search has ended.
    #[inline(always)]
    fn step<S: Sink<PathEvent>, const CORRIDORS: bool>(
        &mut self,
        p: &Problem,
        search: u32,
        sink: &mut S,
    ) -> bool {
        if self.status != Status::Searching {
            return false;
        }
        // Pop the best live entry (stale copies are dropped silently).
        let e = loop {
            let Some(e) = self.open.pop() else {
                self.status = Status::Unreachable;
                self.current = None;
                if S::ENABLED {
                    sink.record(PathEvent::Unreachable { search });
                }
                return false;
            };
            let c = e.cell as usize;
            let held = self.g[c].into();
            if !p.closed_set
                || (e.g + self.base == held && (!p.marks || self.link[c] & CLOSED == 0))
            {
                break e;
            }
        };
        let c = e.cell as usize;
        if p.marks {
            self.link[c] |= CLOSED;
        }
        self.current = Some(e.cell);
        self.expanded += 1;
        let here = Cell::new(e.x as i32, e.y as i32);
        if S::ENABLED {
            sink.record(PathEvent::Expanded {
                search,
                cell: here,
                g: e.g,
                f16: e.f16(),
                held: self.g[c].into() - self.base,
            });
        }
        if here == p.goal {
            self.status = Status::Found(e.g);
            if S::ENABLED {
                sink.record(PathEvent::Found { search, cost: e.g });
            }
            return false;
        }
        let ha = p.terrain[c];
        let plain = !S::ENABLED && ha <= MAX_HEIGHT;
        if CORRIDORS && plain {
            let (heights, at, reach) =
                self.corridor(p, (search, &mut *sink), e.g, here, e.cell, ha);
            if p.moves == Moves::Eight {
                self.corners(p, (search, sink), (e.g, here, ha), (heights, at), reach);
            }
            return true;
        }
        if plain && self.expanded.is_multiple_of(PACE_SAMPLE) {
            let (_, _, ways) = self.ways(p, here, e.cell);
            self.pace.count(ways);
        }
        let (w, h) = (p.width as i32, p.height as i32);
        // Per direction (left, up, right, down): whether its neighbour is
        // on the map (a cell outside is not a neighbour at all), and where.
        let sides = [
            (here.x > 0, e.cell.wrapping_sub(1)),
            (here.y > 0, e.cell.wrapping_sub(p.width)),
            (here.x + 1 < w, e.cell + 1),
            (here.y + 1 < h, e.cell + p.width),
        ];
        // The heights of the orthogonal neighbours reachable from here. The
        // four calls are written out, for a loop over them ends on an exit
        // branch that is often mispredicted. Each call branches on whether
        // its move improves; the moves that do are not found first, without
        // a branch, into a mask (the neighbours' costs loaded and compared),
        // for such a compare waits on its load, which a predicted branch
        // runs past.
        let from = (e.g, here, ha);
        let mut go = |dir: usize| self.orthogonal(p, (search, &mut *sink), from, dir, sides[dir]);
        let reach = [go(0), go(1), go(2), go(3)];
        if p.moves == Moves::Eight {
            self.diagonals(p, (search, sink), from, sides, reach);
        }
        true
    }

    /// The orthogonal move in direction `dir` from `here` (height `ha`,
    /// cost `g0`) to cell `n`, if `on` the map. Returns the height of `n`
    /// if the move is possible.
    #[inline(always)]
    fn orthogonal<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        (g0, here, ha): (u64, Cell, u8),
        dir: usize,
        (on, n): (bool, u32),
    ) -> Option<u8> {
        if !on {
            return None;
        }
        let hb = p.terrain[n as usize];
        match p.step(ha, hb) {
            Ok(cost) => {
                self.relax_orthogonal(p, (search, sink), (g0, here), (dir, n), cost);
                Some(hb)
            }
            Err(why) => {
                let (dx, dy) = DIRS[dir];
                skipped(sink, search, Cell::new(here.x + dx, here.y + dy), why);
                None
            }
        }
    }

    /// The orthogonal moves from `here` (cell `c`, height `ha` ≤
    /// [`MAX_HEIGHT`], cost `g0`) of an untraced run, at [`Pace`]'s
    /// corridor pace: the neighbours on the map that are not [`WALL`],
    /// less the way back to the parent, are found without a branch, into a
    /// mask, then offered their moves as [`Problem::step`] prices them, in
    /// the documented order. The way back never lowers the parent's `g`
    /// (the parent holds at most `g0` less the move's cost, and moving back
    /// costs no less), so leaving it out changes nothing; a move the rule
    /// blocks is skipped as before. Returns the orthogonal neighbours'
    /// terrain and cells, and the mask of those moved to (for
    /// [`SearchState::corners`]).
    #[inline(always)]
    fn corridor<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        g0: u64,
        here: Cell,
        c: u32,
        ha: u8,
    ) -> ([u8; 4], [u32; 4], u32) {
        let (heights, at, mut ways) = self.ways(p, here, c);
        self.pace.count_in_corridors(ways);
        let mut reach = 0;
        while ways != 0 {
            let d = ways.trailing_zeros() as usize;
            ways &= ways - 1;
            if let Ok(cost) = p.step(ha, heights[d]) {
                reach |= 1 << d;
                self.relax_orthogonal(p, (search, &mut *sink), (g0, here), (d, at[d]), cost);
            }
        }
        (heights, at, reach)
    }

    /// The diagonal moves from `here` (height `ha`, cost `g0`) of an
    /// untraced run at the corridor pace, given its orthogonal neighbours'
    /// terrain and cells and the mask of those [`SearchState::corridor`]
    /// moved to: only the diagonals with both cells beside them in it are
    /// tried, by [`Problem::corner`]. The mask leaves out the way back, and
    /// so the two diagonals beside it, which changes nothing either. The
    /// parent (by the current link) was expanded, at some `g` no more than
    /// this cell's less the move's cost (and no more than `g0`, which a
    /// stale entry may hold above it). Each of the two cells is next to
    /// it, and the corner rule lets the parent move there, so the parent
    /// offered it that move from that `g` (or, being the parent's own
    /// parent, it holds less than that `g`); a climb costs no less split
    /// in two, nor a move times √2, so the way round never costs less.
    #[inline(always)]
    fn corners<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        (g0, here, ha): (u64, Cell, u8),
        (heights, at): ([u8; 4], [u32; 4]),
        reach: u32,
    ) {
        // Bit k: both cells beside diagonal k (left-up, up-right,
        // right-down, down-left) reached.
        let mut both = reach & (reach >> 1 | reach << 3) & 0xF;
        while both != 0 {
            let k = both.trailing_zeros() as usize;
            both &= both - 1;
            let (d1, d2) = BESIDE[k];
            // Across x from the cell above or below.
            let n = at[d2].wrapping_add_signed(DIAGS[k].0);
            if let Some(cost) = p.corner(ha, p.terrain[n as usize], [heights[d1], heights[d2]]) {
                self.relax_diagonal(p, (search, &mut *sink), (g0, here), (k, n), cost);
            }
        }
    }

    /// The orthogonal neighbours of `here` (cell `c`) found without a
    /// branch on the terrain: their terrain, their cells, and a mask of
    /// those on the map that are not [`WALL`], less the way back to the
    /// parent (bit `d` for direction `d` of [`DIRS`]; a diagonal parent
    /// leaves out none). A cell away from the map's edge reads its four
    /// neighbours directly; one on the edge, through a check per side
    /// (the one branch between them is nearly always the same, so it is
    /// predicted, and spares the cells away from the edge the checks).
    #[inline(always)]
    fn ways(&self, p: &Problem, here: Cell, c: u32) -> ([u8; 4], [u32; 4], u32) {
        let (w, h) = (p.width as i32, p.height as i32);
        let at = [
            c.wrapping_sub(1),
            c.wrapping_sub(p.width),
            c + 1,
            c + p.width,
        ];
        let mut heights = [WALL; 4];
        let mut ways = 0u32;
        // 1 ≤ v ≤ side − 2, in one comparison. The two loops are written
        // out, so that the one branch between them is all the edge costs: one
        // closure taking `on` (all true away from the edge) leaves branches
        // that mispredict more often.
        let inner = |v: i32, side: i32| ((v - 1) as u32) < (side as u32).saturating_sub(2);
        if inner(here.x, w) & inner(here.y, h) {
            for d in 0..4 {
                let hb = p.terrain[at[d] as usize];
                heights[d] = hb;
                ways |= ((hb != WALL) as u32) << d;
            }
        } else {
            let on = [here.x > 0, here.y > 0, here.x + 1 < w, here.y + 1 < h];
            for d in 0..4 {
                let hb = p.terrain[if on[d] { at[d] } else { c } as usize];
                heights[d] = hb;
                ways |= ((on[d] & (hb != WALL)) as u32) << d;
            }
        }
        let back = self.link[c as usize] & !CLOSED; // 0–8
        (heights, at, ways & !(1 << back))
    }

    /// Expands at one pace (corridors or not) until the pace turns or the
    /// search ends; whether it ended. A loop of its own per pace, so that an
    /// expansion holds its pace's code alone and never branches on the pace.
    #[inline(never)]
    fn run_at<S: Sink<PathEvent>, const CORRIDORS: bool>(
        &mut self,
        p: &Problem,
        sink: &mut S,
    ) -> bool {
        // Every run at a pace is 4-way; said here, the costs' shifts and the
        // diagonals' code fold away.
        debug_assert_eq!(p.moves, Moves::Four);
        let p = Problem {
            moves: Moves::Four,
            marks: false,
            ..*p
        };
        self.run_on::<S, CORRIDORS>(&p, HeuristicKind::Euclidean, sink)
    }

    /// [`SearchState::run_at`] for 8-way moves (their own loops: the
    /// 4-way ones fold the default options too).
    #[inline(never)]
    fn run_eight<S: Sink<PathEvent>, const CORRIDORS: bool>(
        &mut self,
        p: &Problem,
        sink: &mut S,
    ) -> bool {
        // Said here, the costs' shifts fold away.
        let p = Problem {
            moves: Moves::Eight,
            marks: false,
            ..*p
        };
        self.run_on::<S, CORRIDORS>(&p, HeuristicKind::Octile, sink)
    }

    /// [`SearchState::run_at`]'s loop on `p`, in a copy of its own for the
    /// moves' default options (the plain `default` heuristic, FIFO ties),
    /// said as constants so that the heuristic's and the tie-break's
    /// choices fold away. Only this pair gets a copy: with a second one
    /// (Manhattan or octile with larger-g ties) LLVM inlines less into the
    /// default's loop.
    #[inline(always)]
    fn run_on<S: Sink<PathEvent>, const CORRIDORS: bool>(
        &mut self,
        p: &Problem,
        default: HeuristicKind,
        sink: &mut S,
    ) -> bool {
        let plain = Heuristic::plain(default);
        if p.heuristic == plain && p.tie_break == TieBreak::Fifo {
            let p = Problem {
                heuristic: plain,
                tie_break: TieBreak::Fifo,
                ..*p
            };
            return self.run_loop::<S, CORRIDORS>(&p, sink);
        }
        self.run_loop::<S, CORRIDORS>(p, sink)
    }

    /// [`SearchState::run_on`]'s loop.
    #[inline(always)]
    fn run_loop<S: Sink<PathEvent>, const CORRIDORS: bool>(
        &mut self,
        p: &Problem,
        sink: &mut S,
    ) -> bool {
        while self.pace.corridors == CORRIDORS {
            if !self.step::<S, CORRIDORS>(p, 0, sink) {
                return true;
            }
        }
        false
    }

    /// The diagonal moves from `here` (height `ha`, cost `g0`), given its
    /// orthogonal neighbours (whether on the map, and where) and their
    /// heights if reachable from it, each written out as the orthogonal
    /// ones are.
    #[inline(always)]
    fn diagonals<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        from: (u64, Cell, u8),
        sides: [(bool, u32); 4],
        reach: [Option<u8>; 4],
    ) {
        // Up-left, up-right, down-right, down-left: on the map if both
        // orthogonal cells beside it (across x, across y) are.
        let (l, u, r, d) = (sides[0], sides[1], sides[2], sides[3]);
        let corners = [
            (l.0 && u.0, u.1.wrapping_sub(1), [reach[0], reach[1]]),
            (r.0 && u.0, u.1.wrapping_add(1), [reach[2], reach[1]]),
            (r.0 && d.0, d.1.wrapping_add(1), [reach[2], reach[3]]),
            (l.0 && d.0, d.1.wrapping_sub(1), [reach[0], reach[3]]),
        ];
        let mut go = |k: usize| self.diagonal(p, (search, &mut *sink), from, k, corners[k]);
        go(0);
        go(1);
        go(2);
        go(3);
    }

    /// The diagonal move `k` (of [`DIAGS`]) from `here` (height `ha`, cost
    /// `g0`) to cell `n`, if `on` the map; `beside` are the heights of the
    /// orthogonal cells beside it, if reachable from `here`. An untraced
    /// run, which tells no reason for a skip, asks [`Problem::corner`]
    /// (two table loads in place of three calls of the rule and their
    /// branches).
    #[inline(always)]
    fn diagonal<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        (g0, here, ha): (u64, Cell, u8),
        k: usize,
        (on, n, beside): (bool, u32, [Option<u8>; 2]),
    ) {
        if !S::ENABLED {
            // Untraced, the rule from two tables: the cells beside it
            // reached implies it is on the map, and an expanded cell holds
            // a height (a search starts on an open cell and pushes only
            // onto heights, and a restored state's open entries are
            // checked).
            let [Some(h1), Some(h2)] = beside else {
                return;
            };
            if let Some(cost) = p.corner(ha, p.terrain[n as usize], [h1, h2]) {
                self.relax_diagonal(p, (search, sink), (g0, here), (k, n), cost);
            }
            return;
        }
        if !on {
            return;
        }
        let hb = p.terrain[n as usize];
        let into = |h: Option<u8>| h.is_some_and(|h| p.step(h, hb).is_ok());
        let step = if hb == WALL {
            Err(Blocked::Wall)
        } else if !beside.into_iter().all(into) {
            Err(Blocked::Corner)
        } else {
            p.step(ha, hb)
        };
        match step {
            Ok(cost) => self.relax_diagonal(p, (search, sink), (g0, here), (k, n), cost),
            Err(why) => {
                let (dx, dy) = DIAGS[k];
                skipped(sink, search, Cell::new(here.x + dx, here.y + dy), why);
            }
        }
    }

    /// The orthogonal move `dir` (of [`DIRS`]) from `here` (cost `g0`) to
    /// cell `n`, which the rule prices at `cost`, offered as [`relax`]
    /// does, with the link back the opposite way.
    ///
    /// [`relax`]: SearchState::relax
    #[inline(always)]
    fn relax_orthogonal<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        (g0, here): (u64, Cell),
        (dir, n): (usize, u32),
        cost: u32,
    ) {
        let (nx, ny) = (here.x + DIRS[dir].0, here.y + DIRS[dir].1);
        let g = g0 + ((cost as u64) << p.moves.frac_bits());
        let back = ((dir + 2) % 4) as u8;
        self.relax(p, (search, sink), (n, nx, ny), g, back);
    }

    /// The diagonal move `k` (of [`DIAGS`]) from `here` (cost `g0`) to
    /// cell `n`, which the rule prices at `cost`, offered as [`relax`]
    /// does: at `cost` × √2, with the link back along the opposite
    /// diagonal.
    ///
    /// [`relax`]: SearchState::relax
    #[inline(always)]
    fn relax_diagonal<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        (g0, here): (u64, Cell),
        (k, n): (usize, u32),
        cost: u32,
    ) {
        let (nx, ny) = (here.x + DIAGS[k].0, here.y + DIAGS[k].1);
        let g = g0 + cost as u64 * SQRT2_16;
        let back = (DIAG_LINK + (k + 2) % 4) as u8;
        self.relax(p, (search, sink), (n, nx, ny), g, back);
    }

    /// Offers cell `n` at `(nx, ny)` the cost `g` through the link `back`:
    /// taken (pushed, or pushed again) only if lower than what it holds.
    #[inline(always)]
    fn relax<S: Sink<PathEvent>>(
        &mut self,
        p: &Problem,
        (search, sink): (u32, &mut S),
        (n, nx, ny): (u32, i32, i32),
        g: u64,
        back: u8,
    ) {
        // A value below `base` is an earlier query's, or fresh memory.
        let held: u64 = self.g[n as usize].into();
        let fresh = held < self.base;
        let old = if fresh { u64::MAX } else { held - self.base };
        if g >= old {
            return; // no better than what it has: nothing to record
        }
        let was_closed = !fresh && self.link[n as usize] & CLOSED != 0;
        let stored = g + self.base;
        if stored > G::MAX {
            return self.overflow(); // (never in `u64`: folded away)
        }
        self.g[n as usize] = G::of(stored);
        if self.base != 0 {
            self.top = self.top.max(stored); // (a lesson's stays 0)
        }
        self.link[n as usize] = back;
        let h16 = self.push(p, n, nx, ny, g);
        if S::ENABLED {
            let cell = Cell::new(nx, ny);
            sink.record(if old == u64::MAX {
                PathEvent::Pushed {
                    search,
                    cell,
                    g,
                    h16,
                }
            } else {
                PathEvent::Improved {
                    search,
                    cell,
                    old_g: old,
                    g,
                    reopened: was_closed,
                }
            });
        }
    }

    /// Stops a hopeful run whose costs outgrew its `G` (see
    /// [`SearchState::overflowed`]): the search ends here, unfinished.
    #[cold]
    #[inline(never)]
    fn overflow(&mut self) {
        self.overflowed = true;
        self.status = Status::Unreachable;
    }

    /// The path from the start to `goal`, inclusive, if the search found it.
    pub fn path(&self, width: u32, goal: Cell) -> Vec<Cell> {
        if !matches!(self.status, Status::Found(_)) {
            return Vec::new();
        }
        // Counted first, so it is written once, from its end, into memory
        // of its length (collected and reversed, the vector would be grown
        // and copied).
        let mut out = vec![goal; 1 + self.links(width, goal).count()];
        let before_goal = out.iter_mut().rev().skip(1);
        for (slot, cell) in before_goal.zip(self.parents(width, goal)) {
            *slot = cell;
        }
        out
    }

    /// The links followed from `at` back to the start, each the direction
    /// from a cell to its parent (endless if the links form a loop, which a
    /// search never makes and [`PathSim::restore`] refuses).
    fn links(&self, width: u32, at: Cell) -> impl Iterator<Item = u8> + '_ {
        let mut i = at.y as u32 * width + at.x as u32;
        core::iter::from_fn(move || {
            let link = self.link[i as usize] & !CLOSED;
            if link == NO_PARENT {
                return None;
            }
            // The link's step in cell indices, added wrapping (most are
            // negative).
            let (dx, dy) = LINKS[link as usize];
            i = i.wrapping_add((dy as u32).wrapping_mul(width).wrapping_add(dx as u32));
            Some(link)
        })
    }

    /// The cells from `at`'s parent back to the start (see
    /// [`SearchState::links`]).
    fn parents(&self, width: u32, at: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.links(width, at).scan(at, |at, link| {
            let (dx, dy) = LINKS[link as usize];
            *at = Cell::new(at.x + dx, at.y + dy);
            Some(*at)
        })
    }

    /// The live open entries in priority order: the ones a search with a
    /// closed set will expand (stale copies left out), or every entry
    /// when `closed_set` is false (each will be expanded; see
    /// [`OpenEntry::is_stale`]).
    pub fn open_in_order(&self, closed_set: bool) -> Vec<OpenEntry> {
        let mut live: Vec<OpenEntry> = self
            .open
            .entries()
            .into_iter()
            .filter(|e| {
                !closed_set
                    || (e.g == self.g[e.cell as usize].into()
                        && self.link[e.cell as usize] & CLOSED == 0)
            })
            .collect();
        live.sort_unstable();
        live
    }

    /// Whether a cell has been expanded.
    pub fn is_closed(&self, index: u32) -> bool {
        self.link[index as usize] & CLOSED != 0
    }

    /// Expansions of a cell expanded before (only without a closed set, or
    /// a reopened cell): expansions minus the cells ever expanded.
    pub fn repeats(&self) -> u32 {
        let cells = self.link.iter().filter(|&&l| l & CLOSED != 0).count();
        self.expanded.saturating_sub(cells as u32)
    }
}

impl<Q: OpenQueue, G: Slot> SearchState<Q, G> {
    /// This state made ready for a new query on `p` from `start`, nothing
    /// cleared but the open list: the arrays are kept (sized to the map,
    /// fresh ones zeroed by the allocator, which touches only the pages a
    /// query writes), and `base` is raised above every value held, so
    /// they all read as "not reached". The arrays are cleared only if the
    /// next query could overflow `base + g` in a `G` (for `u64`, after
    /// about 2²³ queries on the largest map; `base` rises by the largest
    /// cost a query reached, so short queries rarely).
    fn restart(&mut self, p: &Problem, start: u32) {
        let cells = p.width as usize * p.height as usize;
        // The room a query is given above `base`: the most it can reach,
        // or half of `G` if less (a `u32` for 8-way moves, whose costs may
        // outgrow that: such a query stops, `overflow`; a `u64` always
        // holds `room`, under 2⁵⁸ on a map of at most 4096² cells).
        let need = room(p).min(G::MAX / 2);
        let fits = |top: u64| top.checked_add(1 + need).is_some_and(|t| t <= G::MAX);
        if self.g.len() != cells || !fits(self.top) {
            self.g = vec![G::of(0); cells];
            self.link = vec![0; cells];
            self.top = 0;
        }
        self.base = self.top + 1;
        self.top = self.base;
        self.roots.prepare(p);
        self.open.clear();
        self.seq = 0;
        self.current = None;
        self.expanded = 0;
        self.status = Status::Searching;
        self.overflowed = false;
        let s = start as usize;
        self.g[s] = G::of(self.base);
        self.link[s] = NO_PARENT;
        let (x, y) = (start % p.width, start / p.width);
        self.push(p, start, x as i32, y as i32, 0);
    }
}

/// More than any cost a query on `p`'s map can reach: every cell once at
/// the dearest move (a diagonal's √2 included).
fn room(p: &Problem) -> u64 {
    let cells = p.width as u64 * p.height as u64;
    let step = p.rule.max_step_cost();
    match p.moves {
        Moves::Four => cells * step,
        Moves::Eight => cells * step * SQRT2_16,
    }
}

/// What a search's per-cell array holds a cost in: `u64` (a lesson's
/// search, and any plain run), or `u32` for a plain run whose costs fit
/// (half the memory to fetch; [`Searcher`] picks it).
pub trait Slot: Copy + Into<u64> + core::fmt::Debug + PartialEq + Eq + 'static {
    /// The largest value it holds.
    const MAX: u64;
    /// `v`, which a search's restart keeps at most [`Slot::MAX`]
    /// (a larger one panics: an overflow is never silent).
    fn of(v: u64) -> Self;
}

impl Slot for u64 {
    const MAX: u64 = u64::MAX;
    #[inline(always)]
    fn of(v: u64) -> u64 {
        v
    }
}

impl Slot for u32 {
    const MAX: u64 = u32::MAX as u64;
    #[inline(always)]
    fn of(v: u64) -> u32 {
        u32::try_from(v).expect("restart keeps base + g within u32")
    }
}

/// A search for many queries on one map, as a game asks them: its
/// per-cell arrays are kept between queries and never cleared (each query
/// raises the offset its costs are stored at, so older values read as "not
/// reached"), and fresh ones come zeroed from the allocator, so a query
/// costs about what it touches, not the whole map. Costs are kept in a
/// `u32` when they fit (an untraced 8-way query on a large map tries it,
/// and runs again on a `u64` if they outgrow it). Each query tells the
/// same story as on a fresh searcher, and as a lesson's search on its
/// heap (`tests/path.rs` checks both).
#[derive(Debug, Default)]
pub struct Searcher {
    heap: SearchState<Heap>,
    calendar: SearchState<Calendar>,
    buckets: SearchState<Buckets>,
    /// The same, for maps whose costs fit a `u32` ([`narrow`]), and for
    /// untraced 8-way queries whose costs do ([`Searcher::hopeful`]).
    calendar32: SearchState<Calendar, u32>,
    buckets32: SearchState<Buckets, u32>,
    /// Untraced 8-way queries left to run on `u64` since one outgrew a
    /// `u32` (see [`Searcher::hopeful`]).
    wide_for: u32,
    /// The last query's rule and its table of move costs (building it
    /// again would be a large share of a short query's work).
    steps: Option<(CostRule, Steps)>,
}

impl<Q: OpenQueue, G> Default for SearchState<Q, G> {
    fn default() -> Self {
        SearchState::empty(Q::default())
    }
}

impl<Q, G> SearchState<Q, G> {
    /// No arrays yet (sized by the first [`SearchState::restart`]).
    fn empty(open: Q) -> SearchState<Q, G> {
        SearchState {
            g: Vec::new(),
            link: Vec::new(),
            open,
            seq: 0,
            current: None,
            expanded: 0,
            status: Status::Searching,
            base: 0,
            top: 0,
            roots: Roots::default(),
            pace: Pace::default(),
            overflowed: false,
        }
    }
}

/// Queries on `u64` after a hopeful one outgrew a `u32` ([`Searcher::hopeful`]).
const WIDE_AFTER_OVERFLOW: u32 = 8;

impl Searcher {
    /// A searcher with no memory yet (the first query sizes it).
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// Runs one search to its end, as [`search`] does (the same checks of
    /// `start` and `goal` are the caller's).
    pub fn search<S: Sink<PathEvent>>(
        &mut self,
        grid: &Grid,
        start: Cell,
        goal: Cell,
        cfg: &SearchConfig,
        sink: &mut S,
    ) -> Outcome {
        let steps = match self.steps {
            Some((rule, steps)) if rule == cfg.rule => steps,
            _ => self.steps.insert((cfg.rule, cfg.rule.steps())).1,
        };
        let (p, start) = begin(grid, (start, goal), cfg, steps, sink);
        let narrow = narrow(&p);
        if buckets_apply(cfg) {
            let span = bucket_span(cfg);
            let fresh = |s: &Buckets| s.ring.len() != span;
            let new = || Buckets::with_span(span);
            if narrow {
                on(&mut self.buckets32, (fresh, new), &p, (start, goal), sink)
            } else {
                on(&mut self.buckets, (fresh, new), &p, (start, goal), sink)
            }
        } else if let Some(shift) = calendar_shift(cfg) {
            let fresh = |s: &Calendar| s.words.is_empty() || s.shift != shift;
            let new = || Calendar::with_shift(shift);
            if narrow || self.hopeful::<S>(&p) {
                let out = on(&mut self.calendar32, (fresh, new), &p, (start, goal), sink);
                if !self.calendar32.overflowed {
                    return out;
                }
                self.wide_for = WIDE_AFTER_OVERFLOW;
            }
            on(&mut self.calendar, (fresh, new), &p, (start, goal), sink)
        } else {
            let s = &mut self.heap;
            run_to_end(s, &p, (start, goal), sink)
        }
    }

    /// Whether a query on `p` that [`narrow`] leaves on `u64` tries `u32`
    /// first: an untraced 8-way one. Its costs, in 2⁻¹⁶ units, fit in
    /// half a `u32` unless they pass 32,768 moves' worth (a long trip on a
    /// Moving AI map costs under 5,000), and then it stops and runs again
    /// on `u64`, as a traced one always does (its events already told).
    /// Half the memory to fetch, and so fewer cache misses when other work
    /// has evicted the arrays. After a query that outgrew it, the next
    /// [`WIDE_AFTER_OVERFLOW`] run on `u64` at once (a game whose queries
    /// outgrow it pays for the wasted try on one query in nine). A 4-way
    /// query, already on `u32`, stays there: its fetches are halved
    /// already, and a `u16` would add the wasted tries to what it saves.
    fn hopeful<S: Sink<PathEvent>>(&mut self, p: &Problem) -> bool {
        if S::ENABLED || p.moves != Moves::Eight {
            return false;
        }
        if self.wide_for > 0 {
            self.wide_for -= 1;
            return false;
        }
        true
    }
}

/// Whether a plain run on `p` keeps its costs in `u32`: when a query's
/// costs fit in half of it (so `base` can rise for many queries before
/// the arrays are cleared): 4-way moves on maps up to about 2¹⁴ × 2¹⁴
/// with the default rule, diagonals (16 fractional bits) only up to about
/// 48 × 48 (an untraced 8-way query on a wider map tries a `u32` too:
/// [`Searcher::hopeful`]).
fn narrow(p: &Problem) -> bool {
    room(p) <= u32::MAX as u64 / 2
}

/// Runs a plain search on `s`, its open list first replaced by `new()` if
/// `fresh` says it was made for another kind of search.
fn on<Q: OpenQueue, G: Slot, S: Sink<PathEvent>>(
    s: &mut SearchState<Q, G>,
    (fresh, new): (impl Fn(&Q) -> bool, impl Fn() -> Q),
    p: &Problem,
    ends: (u32, Cell),
    sink: &mut S,
) -> Outcome {
    if fresh(&s.open) {
        s.open = new();
    }
    run_to_end(s, p, ends, sink)
}

impl<Q: OpenQueue, G: Slot> SearchState<Q, G> {
    /// An ended search's result.
    fn outcome(&self, width: u32, goal: Cell) -> Outcome {
        Outcome {
            cost: match self.status {
                Status::Found(c) => Some(c),
                _ => None,
            },
            path: self.path(width, goal),
            expanded: self.expanded,
            bytes: self.g.capacity() * size_of::<G>()
                + self.link.capacity()
                + self.open.bytes()
                + self.roots.bytes(),
        }
    }
}

/// The problem of a query and its start's index, telling `sink` first if
/// the heuristic may overestimate ([`search`] and [`Searcher::search`]).
fn begin<'a, S: Sink<PathEvent>>(
    grid: &'a Grid,
    (start, goal): (Cell, Cell),
    cfg: &SearchConfig,
    steps: Steps,
    sink: &mut S,
) -> (Problem<'a>, u32) {
    let p = Problem::with(grid, goal, cfg, steps);
    if S::ENABLED && !cfg.heuristic.is_admissible(cfg.moves) {
        sink.record(PathEvent::NotAdmissible { search: 0 });
    }
    let start = start.y as u32 * p.width + start.x as u32;
    (p, start)
}

/// How far above the `f` being expanded a push can land, plus margin, in
/// whole units: a move's cost plus the most it lowers `h` (1 for a 4-way
/// move, √2 < 1.5 for a diagonal; see [`Heuristic::is_admissible`]).
fn f_span(cfg: &SearchConfig) -> u64 {
    let step = cfg.rule.max_step_cost();
    match cfg.moves {
        Moves::Four => step + 2,
        Moves::Eight => (step + 1) * 3 / 2 + 2,
    }
}

/// The bucket ring's length for a search [`buckets_apply`] to.
fn bucket_span(cfg: &SearchConfig) -> usize {
    2 + cfg.rule.max_step_cost() as usize
}

/// The result of a search run to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The path cost, if the goal is reachable.
    pub cost: Option<u64>,
    /// The path, start and goal inclusive (empty if unreachable).
    pub path: Vec<Cell>,
    /// Cells expanded.
    pub expanded: u32,
    /// The most bytes the search held at once (its arrays and the open
    /// list's peak; the map itself not included).
    pub bytes: usize,
}

/// Runs one search to its end, telling `sink` everything (pass
/// [`super::NoTrace`] for speed). `start` and `goal` must be open cells.
///
/// It runs on a [`Searcher`] kept per thread, so a query costs what it
/// touches even when asked one at a time (a fresh map-sized array would
/// cost its whole size once the allocator recycles memory, which must
/// then be zeroed in full). That memory is held until the thread ends:
/// the largest map searched, about 5 bytes a cell (9 when costs need a
/// `u64`: a traced 8-way query on a map over about 48² cells, or an
/// untraced one whose costs outgrow a `u32`), and with the Euclidean
/// heuristic on maps up to 512 a side its table of roots, at most 513 KiB
/// (a [`Searcher`] of your own frees its memory when dropped).
pub fn search<S: Sink<PathEvent>>(
    grid: &Grid,
    start: Cell,
    goal: Cell,
    cfg: &SearchConfig,
    sink: &mut S,
) -> Outcome {
    thread_local! {
        static SEARCHER: std::cell::RefCell<Searcher> = Default::default();
    }
    SEARCHER.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => s.search(grid, start, goal, cfg, sink),
        // A sink searching from inside `record`: a searcher of its own.
        Err(_) => Searcher::new().search(grid, start, goal, cfg, sink),
    })
}

/// Whether [`Calendar`] pops in the heap's order for this search, and
/// runs it (every search with the default options does). The heuristic
/// must be consistent, so that `f` never decreases along the pops: every
/// move costs at least 1 and moves one cell, which changes the Manhattan
/// or Euclidean distance by at most 1; rounded down to 16 fractional bits
/// and scaled by `w ≤ 1`, `h` still drops by at most one move's cost. And
/// the span of `f` must fit the ring with slices at most a unit wide
/// (weights up to about 450); wider spans run on the heap.
pub fn calendar_applies(cfg: &SearchConfig) -> bool {
    calendar_shift(cfg).is_some()
}

/// The calendar's slice width for a search it applies to.
fn calendar_shift(cfg: &SearchConfig) -> Option<u32> {
    if cfg.heuristic.is_admissible(cfg.moves) {
        Calendar::shift_for(cfg)
    } else {
        None
    }
}

/// Whether [`Buckets`] pops in the heap's order for this search (see its
/// docs): FIFO ties, and a consistent heuristic with whole values.
pub fn buckets_apply(cfg: &SearchConfig) -> bool {
    cfg.tie_break == TieBreak::Fifo
        && cfg.moves == Moves::Four
        && match cfg.heuristic.kind {
            HeuristicKind::Zero => true,
            HeuristicKind::Manhattan => cfg.heuristic.weight == Fx::ONE,
            HeuristicKind::Euclidean | HeuristicKind::Octile => false,
        }
}

/// Runs a plain search from `start` (an index) to `goal` on `s`'s memory:
/// an untraced one at the [`Pace`] its cells call for, in one loop per
/// pace and moves; a traced one as a lesson steps (the pace is for
/// untraced runs alone).
fn run_to_end<Q: OpenQueue, G: Slot, S: Sink<PathEvent>>(
    s: &mut SearchState<Q, G>,
    p: &Problem,
    (start, goal): (u32, Cell),
    sink: &mut S,
) -> Outcome {
    s.restart(p, start);
    if S::ENABLED {
        while s.step::<S, false>(p, 0, sink) {}
    } else if p.moves == Moves::Eight {
        while !s.run_eight::<S, false>(p, sink) && !s.run_eight::<S, true>(p, sink) {}
    } else {
        while !s.run_at::<S, false>(p, sink) && !s.run_at::<S, true>(p, sink) {}
    }
    s.outcome(p.width, goal)
}

/// A running path scenario: its searches stepped side by side.
#[derive(Clone, Debug)]
pub struct PathSim {
    cfg: PathConfig,
    state: PathState,
    /// Each search's move costs ([`CostRule::steps`]), built once.
    steps: Vec<Steps>,
}

impl PathSim {
    /// A scenario at tick 0, or why it is inconsistent.
    pub fn new(cfg: PathConfig) -> Result<PathSim, String> {
        cfg.check()?;
        let start = cfg.start.y as u32 * cfg.grid.width() + cfg.start.x as u32;
        let steps: Vec<Steps> = cfg.searches.iter().map(|s| s.rule.steps()).collect();
        let searches = cfg
            .searches
            .iter()
            .zip(&steps)
            .map(|(s, &t)| {
                let p = Problem::with(&cfg.grid, cfg.goal, s, t);
                SearchState::new(&p, start, Heap::default())
            })
            .collect();
        Ok(PathSim {
            cfg,
            state: PathState { tick: 0, searches },
            steps,
        })
    }

    /// Moves the goal between ticks (a viewer drag; replays record it as an
    /// [`crate::sim::Input`]): every search starts again from the start
    /// towards the new goal, and the tick count goes on.
    pub fn move_goal(&mut self, to: Cell) -> Result<(), String> {
        let mut cfg = self.cfg.clone();
        cfg.goal = to;
        let fresh = PathSim::new(cfg)?;
        self.cfg = fresh.cfg;
        self.state.searches = fresh.state.searches;
        self.steps = fresh.steps;
        Ok(())
    }

    /// Replaces the state with a recorded one (a replay's frame, for the
    /// viewer to step from), or says why these searches cannot step from
    /// it: one search per configured search, one `g` and link per cell,
    /// links that point on the grid, open entries and the current cell on
    /// the grid, and a found search's parent chain leading back to the
    /// start. The sim is unchanged on error.
    pub fn restore(&mut self, state: PathState) -> Result<(), String> {
        let (w, h) = (self.cfg.grid.width(), self.cfg.grid.height());
        let cells = (w * h) as usize;
        if state.searches.len() != self.cfg.searches.len() {
            return Err(format!(
                "the state has {} searches, the scenario {}",
                state.searches.len(),
                self.cfg.searches.len()
            ));
        }
        for (i, (s, sc)) in state.searches.iter().zip(&self.cfg.searches).enumerate() {
            let fail = |m: String| Err(format!("search {i}: {m}"));
            if s.g.len() != cells || s.link.len() != cells {
                return fail(format!(
                    "{} costs and {} links for a grid of {cells} cells",
                    s.g.len(),
                    s.link.len()
                ));
            }
            for (c, &l) in s.link.iter().enumerate() {
                let dir = l & !CLOSED;
                if dir == NO_PARENT {
                    continue;
                }
                let (x, y) = ((c as u32 % w) as i32, (c as u32 / w) as i32);
                let links = match sc.moves {
                    Moves::Four => DIRS.len(),
                    Moves::Eight => LINKS.len(),
                };
                let ok = (dir as usize) < links && {
                    let (dx, dy) = LINKS[dir as usize];
                    self.cfg.grid.contains(Cell::new(x + dx, y + dy))
                };
                if !ok {
                    return fail(format!("cell ({x}, {y}) has a link off the grid"));
                }
            }
            if let Some(e) =
                s.open.0.iter().find(|e| {
                    e.cell as usize >= cells || u32::from(e.x) + u32::from(e.y) * w != e.cell
                })
            {
                return fail(format!(
                    "an open entry names cell {} at ({}, {})",
                    e.cell, e.x, e.y
                ));
            }
            // Searches expand only cells holding a height (the untraced
            // runs' tables rely on it): none starts or is pushed in a wall.
            let terrain = self.cfg.grid.terrain();
            if let Some(e) = s.open.0.iter().find(|e| terrain[e.cell as usize] == WALL) {
                return fail(format!(
                    "an open entry is in the wall at ({}, {})",
                    e.x, e.y
                ));
            }
            if s.current.is_some_and(|c| c as usize >= cells) {
                return fail("the current cell is off the grid".into());
            }
            if matches!(s.status, Status::Found(_))
                && s.parents(w, self.cfg.goal).nth(cells).is_some()
            {
                return fail("the parent links go round in a loop".into());
            }
        }
        self.state = state;
        Ok(())
    }

    /// The scenario.
    pub fn config(&self) -> &PathConfig {
        &self.cfg
    }

    /// Whether every search has ended.
    pub fn done(&self) -> bool {
        self.state
            .searches
            .iter()
            .all(|s| s.status != Status::Searching)
    }
}

impl Sim for PathSim {
    type State = PathState;
    type Event = PathEvent;

    /// One expansion of every search still running (finished searches
    /// stay as they are, so a lesson can keep ticking past the end).
    fn step<S: Sink<PathEvent>>(&mut self, sink: &mut S) {
        for (i, (st, sc)) in self
            .state
            .searches
            .iter_mut()
            .zip(&self.cfg.searches)
            .enumerate()
        {
            if S::ENABLED && self.state.tick == 0 && !sc.heuristic.is_admissible(sc.moves) {
                sink.record(PathEvent::NotAdmissible { search: i as u32 });
            }
            let p = Problem::with(&self.cfg.grid, self.cfg.goal, sc, self.steps[i]);
            st.step::<S, false>(&p, i as u32, sink);
        }
        self.state.tick += 1;
    }

    fn tick(&self) -> u64 {
        self.state.tick
    }

    fn dt(&self) -> Fx {
        Fx::ONE
    }

    fn state(&self) -> &PathState {
        &self.state
    }
}

/// A terrain from article 001's value noise, without its edge over-read:
/// per-cell noise `n₁`, and the same noise array read at `(x/2, y/2)` and
/// `(x/4, y/4)` and interpolated bilinearly towards the next index (`n₂`,
/// `n₄`; an index past the edge clamps to the last row or column instead
/// of reading outside, which the article's 1-wide maps would do), combined
/// `0.5·n₄ + 0.3·n₂ + 0.2·n₁`, and cut into heights `1..=levels`. All in
/// integers (noise in 16-bit fixed point) from a seeded PCG32.
pub fn generate(width: u32, height: u32, levels: u8, seed: u64) -> Grid {
    let (w, h) = (
        width.clamp(1, super::grid::MAX_SIDE),
        height.clamp(1, super::grid::MAX_SIDE),
    );
    let levels = levels.clamp(1, 9);
    let mut rng = Pcg32::new(seed, 0x0A57);
    let noise: Vec<u64> = (0..w as usize * h as usize)
        .map(|_| (rng.next_u32() >> 16) as u64)
        .collect();
    let at = |x: u32, y: u32| noise[(y.min(h - 1) * w + x.min(w - 1)) as usize];
    // As the article: the noise array read at (x/s, y/s) and the next
    // index, weights (x%s)/s — a coarser lattice of the same noise.
    let octave = |x: u32, y: u32, s: u32| -> u64 {
        let (x0, y0) = (x / s, y / s);
        let (fx, fy) = ((x % s) as u64, (y % s) as u64);
        let s64 = s as u64;
        let top = at(x0, y0) * (s64 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (s64 - fx) + at(x0 + 1, y0 + 1) * fx;
        (top * (s64 - fy) + bottom * fy) / (s64 * s64)
    };
    let mut grid = Grid::open(w, h);
    for y in 0..h {
        for x in 0..w {
            // 0.5·n₄ + 0.3·n₂ + 0.2·n₁ in Q16, < 2¹⁶.
            let pn = (5 * octave(x, y, 4) + 3 * octave(x, y, 2) + 2 * at(x, y)) / 10;
            let level = ((pn * levels as u64) >> 16) as u8 + 1;
            grid.set_height(Cell::new(x as i32, y as i32), level.min(levels));
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem's table of move costs gives what the rule gives, for every
    /// pair of terrain bytes (heights, walls and bytes no map holds) and
    /// rules with every climb and drop limit; its table of open moves and
    /// the diagonal rule read from it say what the rule says of heights,
    /// and block every other byte.
    #[test]
    fn the_cost_table_is_the_rule() {
        let grid = Grid::open(3, 3);
        let mut rng = Pcg32::new(7, 1);
        for _ in 0..60 {
            let rule = CostRule {
                max_climb: rng.below(11) as u8,
                max_drop: rng.below(11) as u8,
                uphill_weight: rng.below(MAX_WEIGHT + 1),
                downhill_weight: rng.below(4),
            };
            let cfg = SearchConfig {
                rule,
                ..SearchConfig::default()
            };
            let p = Problem::of(&grid, Cell::new(0, 0), &cfg);
            let heights = |h: u8| h <= MAX_HEIGHT;
            for a in 0..=u8::MAX {
                for b in 0..=u8::MAX {
                    assert_eq!(p.step(a, b), rule.step(a, b), "{a}→{b} {rule:?}");
                    let open = heights(a) && heights(b) && rule.step(a, b).is_ok();
                    assert_eq!(p.onto(a) >> b.min(15) & 1 != 0, open, "{a}→{b} {rule:?}");
                }
            }
            let some = (0..=MAX_HEIGHT).chain([10, 15, 16, 200, WALL]);
            for a in some.clone() {
                for b in some.clone() {
                    for (c, d) in some.clone().flat_map(|c| some.clone().map(move |d| (c, d))) {
                        let past = [a, c, d].map(|h| heights(h) && rule.step(h, b).is_ok());
                        let want = rule.step(a, b).ok();
                        let want = want.filter(|_| heights(b) && past == [true; 3]);
                        assert_eq!(p.corner(a, b, [c, d]), want, "{a}→{b} past {c}, {d}");
                    }
                }
            }
        }
    }

    /// A table of roots answers what the heuristic computes, whether the
    /// entry is filled by the ask or was by an earlier one (for another
    /// goal and weight), up to the far corner of the largest map it is
    /// kept for; it is off for other shapes and larger maps.
    #[test]
    fn roots_are_the_heuristics() {
        let side = ROOTS_SIDE as u32;
        let grid = Grid::open(side, side);
        let mut roots = Roots::default();
        let mut rng = Pcg32::new(18, 7);
        for round in 0..40 {
            let heuristic = Heuristic {
                kind: HeuristicKind::Euclidean,
                weight: Fx::from_bits((rng.next_u64() >> (31 + round % 2)) as i64),
            };
            let cfg = SearchConfig {
                heuristic,
                ..SearchConfig::default()
            };
            let corner = (side - 1) * (round % 2);
            let goal = Cell::new(corner as i32, rng.below(side) as i32);
            let p = Problem::of(&grid, goal, &cfg);
            roots.prepare(&p);
            assert!(roots.on);
            let mut read = |x: i32, y: i32| {
                let (dx, dy) = p.distances(x, y);
                roots.h16(p.heuristic, dx, dy)
            };
            for _ in 0..2000 {
                let (x, y) = (rng.below(side) as i32, rng.below(side) as i32);
                assert_eq!(read(x, y), p.h16(x, y), "{x},{y} → {goal}");
                assert_eq!(read(x, y), p.h16(x, y), "{x},{y} → {goal}");
            }
            let far = (side as i32 - 1 - goal.x, side as i32 - 1);
            assert_eq!(read(far.0, far.1), p.h16(far.0, far.1));
        }
        let manhattan = SearchConfig {
            heuristic: Heuristic::plain(HeuristicKind::Manhattan),
            ..SearchConfig::default()
        };
        roots.prepare(&Problem::of(&grid, Cell::new(0, 0), &manhattan));
        assert!(!roots.on);
        let big = Grid::open(side + 1, 1);
        roots.prepare(&Problem::of(
            &big,
            Cell::new(0, 0),
            &SearchConfig::default(),
        ));
        assert!(!roots.on);
    }

    /// A restart raises `base` above every value held, so the last query's
    /// cells read as not reached; when the next query could overflow
    /// `base + g`, or the map's size changes, the arrays start afresh.
    #[test]
    fn a_restart_forgets_the_last_query_and_never_overflows() {
        let grid = Grid::parse("0000\n0000").unwrap();
        let cfg = SearchConfig::default();
        let p = Problem::of(&grid, Cell::new(3, 1), &cfg);
        let mut s = SearchState::empty(Heap::default());
        s.restart(&p, 0);
        assert_eq!((s.base, s.g[0], s.g.len()), (1, 1, 8));
        while s.step::<_, false>(&p, 0, &mut crate::sim::NoTrace) {}
        assert_eq!(s.status, Status::Found(4));
        let top = s.top;
        assert!(top >= 5);
        s.restart(&p, 7);
        assert_eq!(s.base, top + 1);
        assert!(
            s.g.iter()
                .enumerate()
                .all(|(i, &g)| (g < s.base) == (i != 7))
        );
        // Near the end of u64: cleared, not wrapped.
        s.top = u64::MAX - 8;
        s.restart(&p, 7);
        assert_eq!(s.base, 1);
        assert_eq!(s.g, [0, 0, 0, 0, 0, 0, 0, 1]);
        // A map of another size.
        let wide = Grid::parse("00000\n00000").unwrap();
        s.restart(&Problem::of(&wide, Cell::new(0, 0), &cfg), 3);
        assert_eq!((s.g.len(), s.base), (10, 1));
    }

    /// `sort_small` and `Calendar::sort_packed` order a run of one slice's
    /// entries as `by_key` does, at every length each takes and every
    /// slice width, whether the entries share their `f` and tie keys or
    /// not.
    #[test]
    fn a_short_bucket_sorts_as_its_keys_do() {
        let mut rng = Pcg32::new(7, 11);
        let mut spare = Vec::new();
        for round in 0..20_000u32 {
            let shift = 10 + rng.below(SLICES + 16 - RING - 9);
            let slice = rng.next_u64() >> 40; // the slice's f16 >> shift
            let n = (round % (WHOLE as u32 + 1)) as usize;
            // Few distinct values, so that f and tie keys repeat.
            let f_low = |rng: &mut Pcg32| match rng.below(3) {
                0 => 0,
                1 => (1 << shift) - 1,
                _ => rng.next_u64() >> (64 - shift),
            };
            let mut v: Vec<OpenEntry> = (0..n as u32)
                .map(|seq| {
                    let f16 = slice << shift | f_low(&mut rng);
                    let tie = [0, u32::MAX, rng.next_u32()][rng.below(3) as usize];
                    OpenEntry {
                        key: (f16 as u128) << 64 | (tie as u128) << 32 | seq as u128,
                        g: seq as u64,
                        cell: seq,
                        x: 0,
                        y: 0,
                    }
                })
                .collect();
            let mut want = v.clone();
            by_key(&mut want);
            let mut cal = Calendar::with_shift(shift);
            cal.now = v.clone();
            cal.sort_packed();
            assert_eq!(cal.now, want, "packed: round {round}, shift {shift}");
            if n <= SHORT {
                sort_small(&mut v, &mut spare, shift);
                assert_eq!(v, want, "small: round {round}, shift {shift}");
            }
        }
    }

    /// The calendar pops exactly the heap's order, and holds the heap's
    /// entries, under every pattern of pushes a consistent search makes
    /// (never below the last pop, within the ring's span): all on one `f`
    /// (long buckets; pushes that are the next pop, that are the last as
    /// FIFO ties make them, and neither), a few per slice (sorted whole)
    /// and many (dealt into buckets), across slice widths.
    #[test]
    fn the_calendar_pops_in_the_heaps_order() {
        let mut rng = Pcg32::new(18, 9);
        let mut sorts = std::collections::BTreeMap::new();
        for round in 0..160u32 {
            let shift = 10 + rng.below(3);
            let (mut cal, mut heap) = (Calendar::with_shift(shift), Heap::default());
            // Pushes up to `spread` steps of `step` above the last pop's
            // `f`: whole units (buckets ahead fill with ties, dealt), or
            // whole buckets (the cursor's slice's buckets fill with ties,
            // dealt, then pushed).
            let modes = [
                (0, 1),
                (1 << 4, 1),
                (1 << 10, 1),
                (1 << 16, 1),
                (3, 1 << 16),
            ];
            let (spread, step) = *modes
                .get(round as usize % 6)
                .unwrap_or(&(4, 1 << (shift - FINE_BITS)));
            let (mut f, mut seq, mut deeper) = (7u64 << 16, 0u32, u32::MAX);
            let mut popped = 0;
            for i in 0..2000 {
                if heap.0.is_empty() || rng.below(5) < 3 {
                    // Rounds 0, 1, 8, 9, …: FIFO ties alone (buckets in
                    // key order as pushed).
                    let tie = match if round % 8 < 2 { 1 } else { rng.below(3) } {
                        0 => {
                            deeper -= 1; // larger-g-like: each one ahead of the last
                            deeper
                        }
                        1 => 0, // FIFO: each one behind the last of its `f`
                        _ => rng.next_u32(),
                    };
                    // (The first push is the start: nothing goes below it.)
                    let f16 = f + if seq == 0 {
                        0
                    } else {
                        rng.below(spread + 1) as u64 * step
                    };
                    let key = (f16 as u128) << 64 | (tie as u128) << 32 | seq as u128;
                    let e = OpenEntry {
                        key,
                        g: 0,
                        cell: seq,
                        x: 0,
                        y: 0,
                    };
                    seq += 1;
                    cal.push(e);
                    heap.push(e);
                } else {
                    let e = heap.pop();
                    assert_eq!(cal.pop(), e, "round {round}");
                    f = e.map_or(f, |e| e.f16());
                    popped += 1;
                }
                if i % 97 == 0 {
                    let keys = |mut v: Vec<OpenEntry>| {
                        v.sort_by_key(|e| e.key);
                        v
                    };
                    assert_eq!(keys(cal.entries()), keys(heap.entries()), "round {round}");
                }
            }
            if round % 2 == 1 {
                // A query ends with entries held: they all go, and the
                // next query starts afresh, below the last one's pops.
                cal.clear();
                heap.clear();
                assert!(cal.entries().is_empty(), "round {round}");
                for seq in 0..40 {
                    let e = OpenEntry {
                        key: 1 << 80 | seq as u128,
                        g: 0,
                        cell: seq,
                        x: 0,
                        y: 0,
                    };
                    cal.push(e);
                    heap.push(e);
                }
            }
            while let Some(e) = heap.pop() {
                assert_eq!(cal.pop(), Some(e), "round {round}");
            }
            assert_eq!(cal.pop(), None);
            assert!(popped > 500);
            for (way, n) in ["reversed", "packed", "whole keys"]
                .iter()
                .zip(cal.long_sorts)
            {
                sorts.entry(*way).and_modify(|s| *s += n).or_insert(n);
            }
        }
        // Each way of sorting a long bucket was taken, and often.
        assert!(sorts.values().all(|&n| n > 100), "{sorts:?}");
    }

    /// Costs kept in `u32` are cleared before `base + g` could pass
    /// `u32::MAX` (the room counts every cell at the dearest move), and a
    /// query there finds what it finds in `u64`.
    #[test]
    fn narrow_costs_clear_before_they_overflow() {
        let grid = Grid::parse("0120\n0000").unwrap();
        let cfg = SearchConfig::default();
        let p = Problem::of(&grid, Cell::new(3, 0), &cfg);
        assert!(narrow(&p));
        assert_eq!(room(&p), 8 * 10);
        let mut s: SearchState<Calendar, u32> = SearchState::empty(Calendar::with_shift(12));
        let mut wide: SearchState<Calendar, u64> = SearchState::empty(Calendar::with_shift(12));
        let ends = (4, Cell::new(3, 0));
        let want = run_to_end(&mut wide, &p, ends, &mut crate::sim::NoTrace);
        for top in [
            0,
            u32::MAX as u64 - 81,
            u32::MAX as u64 - 80,
            u32::MAX as u64 - 5,
        ] {
            s.top = top;
            let got = run_to_end(&mut s, &p, ends, &mut crate::sim::NoTrace);
            assert_eq!((got.cost, &got.path), (want.cost, &want.path), "top {top}");
            let cleared = top + 1 + room(&p) > u32::MAX as u64;
            assert_eq!(s.base == 1, cleared || top == 0, "top {top}");
            assert!(s.top <= u32::MAX as u64);
        }
        // Diagonals cost √2 in 16-bit fixed point: narrow only on small maps.
        let eight = SearchConfig {
            moves: Moves::Eight,
            ..cfg.clone()
        };
        assert_eq!(
            room(&Problem::of(&grid, Cell::new(3, 0), &eight)),
            80 * SQRT2_16
        );
        let big = generate(64, 64, 1, 1);
        assert!(narrow(&Problem::of(&big, Cell::new(0, 0), &cfg)));
        assert!(!narrow(&Problem::of(&big, Cell::new(0, 0), &eight)));
    }

    /// A maze `2k − 1` cells a side without a border (its corridors run
    /// along the map's edges), carved by a seeded depth-first walk, with
    /// `loops` walls knocked out (so cells are reached twice and improved)
    /// and heights 0–3 strewn on its open cells.
    fn maze(k: i32, loops: u32, seed: u64) -> Grid {
        let n = 2 * k - 1;
        let mut g = Grid::open(n as u32, n as u32);
        for y in 0..n {
            for x in 0..n {
                if x % 2 == 1 || y % 2 == 1 {
                    g.set_wall(Cell::new(x, y));
                }
            }
        }
        let mut rng = Pcg32::new(seed, 3);
        let (mut seen, mut trail) = (vec![false; (k * k) as usize], vec![(0, 0)]);
        seen[0] = true;
        while let Some(&(x, y)) = trail.last() {
            let next: Vec<(i32, i32)> = DIRS
                .iter()
                .map(|&(dx, dy)| (x + dx, y + dy))
                .filter(|&(a, b)| a >= 0 && b >= 0 && a < k && b < k && !seen[(b * k + a) as usize])
                .collect();
            let Some(&(a, b)) = next.get(rng.below(next.len().max(1) as u32) as usize) else {
                trail.pop();
                continue;
            };
            seen[(b * k + a) as usize] = true;
            g.set_height(Cell::new(x + a, y + b), 0); // the wall between
            trail.push((a, b));
        }
        for _ in 0..loops {
            let (x, y) = (rng.below(n as u32) as i32, rng.below(n as u32) as i32);
            g.set_height(Cell::new(x, y), 0);
        }
        for y in 0..n {
            for x in 0..n {
                let c = Cell::new(x, y);
                if !g.is_wall(c) {
                    g.set_height(c, rng.below(4) as u8);
                }
            }
        }
        g
    }

    /// Whether two searches hold the same state after a query: costs,
    /// links, counters, the offset of their costs, and the open list's
    /// entries where they lie. The links are compared without their
    /// [`CLOSED`] marks, which a plain run's untraced loops do not set
    /// ([`Problem::marks`]).
    fn same<Q: OpenQueue, G: Slot>(a: &SearchState<Q, G>, b: &SearchState<Q, G>) -> bool {
        let links = |s: &SearchState<Q, G>| s.link.iter().map(|l| l & !CLOSED).collect::<Vec<_>>();
        (&a.g, links(a), a.seq, a.expanded, a.status, a.base, a.top)
            == (&b.g, links(b), b.seq, b.expanded, b.status, b.base, b.top)
            && a.open.entries() == b.open.entries()
    }

    /// Whether two searches of the last query hold the same state though
    /// they keep their costs in different types at different offsets:
    /// each cell's cost as reached (relative to its `base`), the links of
    /// the cells reached (without the closed mark), the counters, the
    /// highest cost and the open list's entries.
    fn same_costs<Q: OpenQueue, G: Slot, H: Slot>(
        a: &SearchState<Q, G>,
        b: &SearchState<Q, H>,
    ) -> bool {
        fn reached<Q, G: Slot>(s: &SearchState<Q, G>) -> Vec<Option<(u64, u8)>> {
            let cost = s.g.iter().map(|&g| g.into().checked_sub(s.base));
            let link = s.link.iter().map(|l| l & !CLOSED);
            cost.zip(link).map(|(g, l)| Some((g?, l))).collect()
        }
        reached(a) == reached(b)
            && (a.seq, a.expanded, a.status, a.top - a.base)
                == (b.seq, b.expanded, b.status, b.top - b.base)
            && a.open.entries() == b.open.entries()
    }

    /// The corridor pace's count keeps the score and turns as the general
    /// one does, from every score the pace can hold and every mask.
    #[test]
    fn the_corridor_count_is_the_count() {
        let mut turned = 0;
        for score in 1 - PACE_TURN..=PACE_TURN {
            for ways in 0..16 {
                let pace = Pace {
                    corridors: true,
                    score,
                };
                let (mut a, mut b) = (pace, pace);
                a.count(ways);
                b.count_in_corridors(ways);
                assert_eq!((a.corridors, a.score), (b.corridors, b.score));
                turned += !b.corridors as u32;
            }
        }
        assert_eq!(turned, 11); // from −7, each mask of two ways or more
    }

    /// The corridor pace changes nothing but speed: on borderless mazes
    /// with loops and heights, a searcher asked untraced (the pace on, as
    /// asserted) ends every query in the very state of one asked the same
    /// queries traced (which never takes the pace), for every heuristic
    /// (a weight over 1 runs on the heap), tie-break, rule and closed-set
    /// switch; and so do strips one cell wide, and open terrain where a
    /// weighted heuristic reopens cells (as asserted), which the untraced
    /// run's pops tell from their `g` alone.
    #[test]
    fn the_corridor_pace_leaves_the_search_as_it_was() {
        let mut rng = Pcg32::new(40, 2);
        let (mut traced, mut plain) = (Searcher::new(), Searcher::new());
        let heuristics = [
            Heuristic::plain(HeuristicKind::Manhattan),
            Heuristic::plain(HeuristicKind::Euclidean),
            Heuristic::plain(HeuristicKind::Zero),
            Heuristic {
                kind: HeuristicKind::Euclidean,
                weight: Fx::from_int(2),
            },
        ];
        let (mut queries, mut paced) = (0, 0);
        for round in 0..24u64 {
            let grid = maze(12 + round as i32 % 5, 12, round);
            let rule = CostRule {
                max_climb: [9, 1, 2][round as usize % 3],
                uphill_weight: rng.below(4),
                ..CostRule::default()
            };
            for (h, &(_, tie_break)) in heuristics.iter().zip(TieBreak::NAMES.iter().cycle()) {
                let cfg = SearchConfig {
                    rule,
                    heuristic: *h,
                    tie_break,
                    closed_set: rng.below(3) != 0,
                    ..SearchConfig::default()
                };
                let open = |rng: &mut Pcg32| loop {
                    let n = grid.width();
                    let c = Cell::new(rng.below(n) as i32, rng.below(n) as i32);
                    if !grid.is_wall(c) {
                        break c;
                    }
                };
                let (from, to) = (open(&mut rng), open(&mut rng));
                let a = traced.search(&grid, from, to, &cfg, &mut Vec::new());
                let b = plain.search(&grid, from, to, &cfg, &mut crate::sim::NoTrace);
                assert_eq!(a, b, "{from} → {to} {cfg:?}");
                assert!(same(&traced.heap, &plain.heap), "{from} → {to} {cfg:?}");
                assert!(same(&traced.calendar, &plain.calendar));
                assert!(same(&traced.calendar32, &plain.calendar32));
                assert!(same(&traced.buckets32, &plain.buckets32));
                let paces = [plain.heap.pace, plain.calendar32.pace, plain.buckets32.pace];
                paced += paces.iter().filter(|p| p.corridors).count();
                queries += 1;
            }
        }
        assert!(
            queries >= 96 && paced >= queries / 2,
            "{paced} of {queries}"
        );
        // Open terrain with heights, where a weighted heuristic reopens
        // cells: the pops' `g` check alone keeps the untraced run exact.
        let mut reopened = 0;
        for seed in 0..8 {
            let grid = generate(24, 24, 5, seed);
            let cfg = SearchConfig {
                rule: CostRule {
                    max_climb: 9,
                    uphill_weight: 10,
                    ..CostRule::default()
                },
                heuristic: Heuristic {
                    kind: HeuristicKind::Euclidean,
                    weight: Fx::from_int(2),
                },
                moves: [Moves::Four, Moves::Eight][seed as usize % 2],
                ..SearchConfig::default()
            };
            let (from, to) = (Cell::new(0, 0), Cell::new(23, 23));
            if grid.is_wall(from) || grid.is_wall(to) {
                continue;
            }
            let mut events = Vec::new();
            let a = traced.search(&grid, from, to, &cfg, &mut events);
            let b = plain.search(&grid, from, to, &cfg, &mut crate::sim::NoTrace);
            assert_eq!(a, b, "{cfg:?}");
            assert!(same(&traced.heap, &plain.heap), "{cfg:?}");
            reopened += (events.iter())
                .filter(|e| matches!(e, PathEvent::Improved { reopened: true, .. }))
                .count();
        }
        assert!(reopened >= 10, "{reopened} cells reopened");
        for (w, h) in [(1, 40), (40, 1)] {
            let strip = Grid::open(w, h);
            let to = Cell::new(w as i32 - 1, h as i32 - 1);
            let a = traced.search(
                &strip,
                to,
                Cell::new(0, 0),
                &SearchConfig::default(),
                &mut Vec::new(),
            );
            let b = plain.search(
                &strip,
                to,
                Cell::new(0, 0),
                &SearchConfig::default(),
                &mut crate::sim::NoTrace,
            );
            assert_eq!(a, b);
            assert!(same(&traced.calendar32, &plain.calendar32));
        }
    }

    /// Untraced 8-way runs take the corridor pace too, and read the
    /// diagonal rule from tables (see [`SearchState::corners`]); neither
    /// changes the search: on mazes with few or many walls knocked out (so
    /// rooms open where diagonals are legal) and on generated terrain strewn
    /// with walls, under rules that block climbs and drops and charge
    /// them, a searcher asked untraced ends every query in the very state
    /// of one asked the same queries traced, for every 8-way heuristic (a
    /// weight over 1 and Manhattan at 1 run on the heap), tie-break and
    /// closed-set switch. Diagonals are taken, and both paces run.
    #[test]
    fn untraced_diagonals_leave_the_search_as_it_was() {
        let mut rng = Pcg32::new(40, 8);
        let (mut traced, mut plain) = (Searcher::new(), Searcher::new());
        let h = |kind, weight| Heuristic { kind, weight };
        let heuristics = [
            Heuristic::plain(HeuristicKind::Octile),
            Heuristic::plain(HeuristicKind::Euclidean),
            Heuristic::plain(HeuristicKind::Zero),
            h(HeuristicKind::Manhattan, Fx::from_int(7).div_int(10)),
            h(HeuristicKind::Manhattan, Fx::ONE),
            h(HeuristicKind::Octile, Fx::from_int(2)),
        ];
        let (mut queries, mut paced, mut diagonal, mut wide) = (0, 0, 0, 0);
        for round in 0..30u64 {
            let grid = if round % 2 == 0 {
                maze(
                    12 + round as i32 % 5,
                    [150, 10][round as usize / 2 % 2],
                    round,
                )
            } else {
                let mut g = generate(20 + round as u32, 30, 1 + round as u8 % 9, round);
                for _ in 0..150 {
                    g.set_wall(Cell::new(rng.below(20) as i32, rng.below(30) as i32));
                }
                g
            };
            let limits = [9, 1, 2, 0];
            let rule = CostRule {
                max_climb: limits[round as usize % 4],
                max_drop: limits[round as usize / 4 % 4],
                uphill_weight: rng.below(4),
                downhill_weight: rng.below(3),
            };
            for (h, &(_, tie_break)) in heuristics.iter().zip(TieBreak::NAMES.iter().cycle()) {
                let cfg = SearchConfig {
                    rule,
                    heuristic: *h,
                    tie_break,
                    closed_set: rng.below(3) != 0,
                    moves: Moves::Eight,
                    ..SearchConfig::default()
                };
                let open = |rng: &mut Pcg32| loop {
                    let (w, h) = (grid.width(), grid.height());
                    let c = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
                    if !grid.is_wall(c) {
                        break c;
                    }
                };
                let (from, to) = (open(&mut rng), open(&mut rng));
                // A fresh searcher finds what the reused ones find (the
                // bytes they hold differ).
                let fresh = Searcher::new().search(&grid, from, to, &cfg, &mut crate::sim::NoTrace);
                // Each query run at both paces from its start (a small
                // map's queries are too short for the samples to turn it).
                let mut a = None;
                for corridors in [true, false] {
                    let a = a.insert(traced.search(&grid, from, to, &cfg, &mut Vec::new()));
                    let pace = Pace {
                        corridors,
                        score: if corridors { PACE_TURN } else { -PACE_TURN },
                    };
                    (plain.heap.pace, plain.calendar.pace, plain.calendar32.pace) =
                        (pace, pace, pace);
                    let b = plain.search(&grid, from, to, &cfg, &mut crate::sim::NoTrace);
                    let found = |o: &Outcome| (o.cost, o.path.clone(), o.expanded);
                    assert_eq!(found(a), found(&b), "{from} → {to} {cfg:?} {pace:?}");
                    assert_eq!(found(&fresh), found(&b), "{from} → {to} {cfg:?}");
                    assert!(same(&traced.heap, &plain.heap), "{from} → {to} {cfg:?}");
                    // On a map too wide for `narrow`, the untraced query
                    // keeps its costs in a `u32`, the traced one in a `u64`
                    // (the bytes they hold differ).
                    let applies = calendar_applies(&cfg);
                    if applies && narrow(&Problem::of(&grid, to, &cfg)) {
                        assert!(same(&traced.calendar32, &plain.calendar32));
                    } else if applies {
                        assert!(same_costs(&traced.calendar, &plain.calendar32));
                        wide += 1;
                    }
                    let paces = [plain.heap.pace, plain.calendar.pace, plain.calendar32.pace];
                    paced += paces.iter().filter(|p| p.corridors).count();
                }
                let cross = |w: &[Cell]| w[0].x != w[1].x && w[0].y != w[1].y;
                diagonal += usize::from(a.is_some_and(|a| a.path.windows(2).any(cross)));
                queries += 1;
            }
        }
        assert!(
            paced >= queries / 4 && diagonal >= queries / 4 && wide >= queries / 4,
            "{paced} paced, {diagonal} with diagonals, {wide} hopeful, of {queries}"
        );
    }

    /// An untraced 8-way query whose costs outgrow half a `u32` stops, and
    /// runs again on `u64` with the result a traced one finds; the next
    /// [`WIDE_AFTER_OVERFLOW`] run on `u64` at once, and then the `u32`
    /// is tried again (cleared, as the last try left it nearly full).
    #[test]
    fn a_query_that_outgrows_a_u32_runs_again_on_a_u64() {
        // Heights 0 and 2 in stripes, too wide for `narrow`: a climb costs
        // 1 + 2 × 200 (the calendar's span still fits), and a crossing
        // past 65,536 moves' worth (2³² in 2⁻¹⁶ units).
        let grid = Grid::parse(&[&"02".repeat(170), "\n"].concat().repeat(2)).unwrap();
        let cfg = SearchConfig {
            rule: CostRule {
                uphill_weight: 200,
                ..CostRule::default()
            },
            moves: Moves::Eight,
            ..SearchConfig::default()
        };
        let (mut traced, mut plain) = (Searcher::new(), Searcher::new());
        // The cost in whole units, the queries left on `u64`, whether the
        // `u32` overflowed, whether the `u64` ran, and the `u32`'s base.
        let mut ask = |from: Cell, to: Cell| {
            let wide_base = plain.calendar.base;
            let a = traced.search(&grid, from, to, &cfg, &mut Vec::new());
            let b = plain.search(&grid, from, to, &cfg, &mut crate::sim::NoTrace);
            let found = |o: &Outcome| (o.cost, o.path.clone(), o.expanded);
            assert_eq!(found(&a), found(&b), "{from} → {to}");
            let (narrow, wide) = (&plain.calendar32, plain.calendar.base != wide_base);
            if wide {
                assert!(same_costs(&traced.calendar, &plain.calendar));
            } else {
                assert!(same_costs(&traced.calendar, narrow));
            }
            let cost = b.cost.unwrap() >> 16;
            (cost, plain.wide_for, narrow.overflowed, wide, narrow.base)
        };
        let (short, long) = (Cell::new(3, 0), Cell::new(339, 1));
        // A short crossing fits.
        let (cost, wide_for, overflowed, wide, _) = ask(Cell::new(0, 0), short);
        assert_eq!((cost, wide_for, overflowed, wide), (803, 0, false, false));
        // A long one outgrows it.
        let (cost, wide_for, overflowed, wide, _) = ask(Cell::new(0, 0), long);
        assert!(cost > 65_536 && overflowed && wide, "{cost}");
        assert_eq!(wide_for, WIDE_AFTER_OVERFLOW);
        for left in (0..WIDE_AFTER_OVERFLOW).rev() {
            let (cost, wide_for, _, wide, _) = ask(Cell::new(1, 1), short);
            assert_eq!((cost, wide_for, wide), (402, left, true));
        }
        // Tried again: it fits, and the full `u32` was cleared.
        let (cost, wide_for, overflowed, wide, base) = ask(Cell::new(1, 1), short);
        assert_eq!((cost, wide_for, overflowed, wide), (402, 0, false, false));
        assert_eq!(base, 1);
    }

    /// A restored state with an open entry in a wall is refused (no search
    /// expands a cell that holds no height, and untraced runs rely on it).
    #[test]
    fn restore_refuses_an_open_entry_in_a_wall() {
        let cfg = PathConfig {
            grid: Grid::parse("000\n0#0\n000").unwrap(),
            start: Cell::new(0, 0),
            goal: Cell::new(2, 2),
            searches: vec![SearchConfig {
                moves: Moves::Eight,
                heuristic: Heuristic::plain(HeuristicKind::Octile),
                ..SearchConfig::default()
            }],
        };
        let mut sim = PathSim::new(cfg).unwrap();
        sim.step(&mut crate::sim::NoTrace);
        let mut st = sim.state().clone();
        assert!(sim.restore(st.clone()).is_ok());
        let e = &mut st.searches[0].open.0[0];
        (e.cell, e.x, e.y) = (4, 1, 1);
        let why = sim.restore(st).unwrap_err();
        assert!(why.contains("in the wall at (1, 1)"), "{why}");
    }

    /// A serpentine corridor 41 cells a side: every cell has one way on.
    fn serpentine() -> Grid {
        let n = 41;
        let mut g = Grid::open(n as u32, n as u32);
        for y in 0..n {
            for x in 0..n {
                let edge = x == 0 || y == 0 || x == n - 1 || y == n - 1;
                let bend = if y % 4 == 2 { n - 2 } else { 1 };
                if edge || (y % 2 == 0 && x != bend) {
                    g.set_wall(Cell::new(x, y));
                }
            }
        }
        g
    }

    /// A serpentine turns a plain run to the corridor pace and open ground
    /// turns it back, and at either pace, and with the pace carried from
    /// the last query, an untraced run gives what a traced run (which
    /// never takes it) gives, for every tie-break.
    #[test]
    fn corridors_turn_the_pace_and_change_no_result() {
        let (maze, open) = (serpentine(), Grid::open(64, 64));
        let runs = [
            (&maze, Cell::new(1, 1), Cell::new(39, 39), true),
            (&open, Cell::new(0, 0), Cell::new(63, 63), false),
            (&maze, Cell::new(39, 39), Cell::new(1, 3), true),
        ];
        for (_, tie_break) in TieBreak::NAMES {
            let cfg = SearchConfig {
                tie_break: *tie_break,
                ..SearchConfig::default()
            };
            let mut s = Searcher::new();
            for &(grid, from, to, corridors) in &runs {
                let traced = s.search(grid, from, to, &cfg, &mut Vec::new());
                let plain = s.search(grid, from, to, &cfg, &mut crate::sim::NoTrace);
                assert_eq!(
                    (plain.cost, &plain.path, plain.expanded),
                    (traced.cost, &traced.path, traced.expanded),
                    "{from} → {to} {tie_break:?}"
                );
                assert_eq!(s.calendar32.pace.corridors, corridors, "{from} → {to}");
            }
        }
        // The path winds through every row but the last.
        let cfg = SearchConfig::default();
        let ends = (Cell::new(1, 1), Cell::new(39, 39));
        let wound = search(&maze, ends.0, ends.1, &cfg, &mut crate::sim::NoTrace);
        assert_eq!(wound.path.len(), 19 * 39 + 19 + 1);
    }
}
