//! The heuristics (Euclidean as article 001, Manhattan, octile, zero) with their weight, and the tie-breaks among equal `f`.

use super::*;

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
    pub(super) fn plain16(&self, dx: u32, dy: u32) -> u64 {
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
    pub(super) fn weigh(&self, base: u64) -> u64 {
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
