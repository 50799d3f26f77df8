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

mod buckets;
mod calendar;
mod config;
mod expand;
mod heuristic;
mod queue;
mod rules;
mod searcher;
mod sim;
mod terrain;
pub use buckets::*;
pub use calendar::*;
pub use config::*;
pub use expand::*;
pub use heuristic::*;
pub use queue::*;
pub use rules::*;
pub use searcher::*;
pub use sim::*;
pub use terrain::*;

#[cfg(test)]
mod tests;
