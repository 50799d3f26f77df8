//! [Bresenham's line algorithm](https://en.wikipedia.org/wiki/Bresenham%27s_line_algorithm),
//! one cell per step, with its integer error term in the open.
//!
//! The rule of article 003: with `dx = |x1 − x0|`, `dy = |y1 − y0|` and step
//! signs `sx, sy` (+1 when the delta is zero), the longer axis is the
//! *major* one (x when `dx ≥ dy`). For x-major lines the error term starts at
//! `f = 2dy − dx`; each of the `dx` steps first moves one row (`y += sy`,
//! `f −= 2dx`) if `f ≥ 0`, then one column (`x += sx`, `f += 2dy`), and the
//! cell reached is emitted. y-major lines swap the roles. The start cell is
//! never emitted; the target is always the last cell.
//!
//! Why it works without a division: before step `i` (0-based) with `j` minor
//! steps taken so far, `f = 2dy(i+1) − dx(2j+1)`, which is the article's
//! `0 ≤ 2dy(i+1) − dx(2j+1)` test — "is the ideal line at column `i+1` at or
//! past the boundary between row `j` and row `j+1`?" — multiplied by `2dx`.
//! The same rule serves all eight octants because only the step signs change.

use super::super::Cell;
use serde::{Deserialize, Serialize};

/// The constants of one line: endpoints, deltas, step signs, major axis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Line {
    /// Where the line starts (not emitted).
    pub from: Cell,
    /// Where it ends (the last cell emitted).
    pub to: Cell,
    /// `|x1 − x0|`.
    pub dx: i64,
    /// `|y1 − y0|`.
    pub dy: i64,
    /// Column step: +1 or −1 (+1 when `dx = 0`).
    pub sx: i32,
    /// Row step: +1 or −1 (+1 when `dy = 0`).
    pub sy: i32,
}

impl Line {
    /// The line from `from` to `to`. Works over the whole `i32` plane: the
    /// deltas and error terms are `i64`, so nothing can overflow.
    #[inline]
    pub fn new(from: Cell, to: Cell) -> Line {
        let ddx = to.x as i64 - from.x as i64;
        let ddy = to.y as i64 - from.y as i64;
        Line {
            from,
            to,
            dx: ddx.abs(),
            dy: ddy.abs(),
            sx: if ddx >= 0 { 1 } else { -1 },
            sy: if ddy >= 0 { 1 } else { -1 },
        }
    }

    /// True when x is the major axis (`dx ≥ dy`; ties go to x, as in the article).
    #[inline]
    pub fn x_major(&self) -> bool {
        self.dx >= self.dy
    }

    /// Number of cells the line emits: `max(dx, dy)`.
    #[inline]
    pub fn len(&self) -> u64 {
        self.dx.max(self.dy) as u64
    }

    /// True for a line from a cell to itself (it emits nothing).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The initial error term: `2dy − dx` (x-major) or `2dx − dy` (y-major).
    #[inline]
    pub fn f0(&self) -> i64 {
        if self.x_major() {
            2 * self.dy - self.dx
        } else {
            2 * self.dx - self.dy
        }
    }

    /// A stepper at the start of this line.
    #[inline]
    pub fn stepper(&self) -> Stepper {
        Stepper {
            line: *self,
            pos: self.from,
            f: self.f0(),
            done: 0,
        }
    }
}

/// `(x0,y0)->(x1,y1) dx=… dy=… sx=±1 sy=±1`.
impl core::fmt::Display for Line {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}->{} dx={} dy={} sx={:+} sy={:+}",
            self.from, self.to, self.dx, self.dy, self.sx, self.sy
        )
    }
}

/// One step of a line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Step {
    /// 1-based step number.
    pub index: u64,
    /// The cell reached.
    pub cell: Cell,
    /// The error term before the step.
    pub f_before: i64,
    /// Whether the minor axis stepped (`f_before ≥ 0`).
    pub minor_stepped: bool,
    /// The error term after the step.
    pub f_after: i64,
}

/// A line being walked: one cell per [`Stepper::advance`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Stepper {
    line: Line,
    pos: Cell,
    f: i64,
    done: u64,
}

impl Stepper {
    /// The line being walked.
    pub fn line(&self) -> &Line {
        &self.line
    }

    /// The last cell reached (the start before the first step).
    pub fn pos(&self) -> Cell {
        self.pos
    }

    /// The current error term.
    pub fn f(&self) -> i64 {
        self.f
    }

    /// Steps taken.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Minor-axis steps taken (`j` in the derivation), recovered from the
    /// invariant `f = 2·minor·(i+1) − major·(2j+1)` with `i` = steps taken.
    pub fn minor_done(&self) -> u64 {
        let l = &self.line;
        let (major, minor) = if l.x_major() {
            (l.dx, l.dy)
        } else {
            (l.dy, l.dx)
        };
        if major == 0 {
            return 0;
        }
        let two_j_plus_1 =
            (2 * minor as i128 * (self.done as i128 + 1) - self.f as i128) / major as i128;
        ((two_j_plus_1 - 1) / 2) as u64
    }

    /// Steps left.
    pub fn remaining(&self) -> u64 {
        self.line.len() - self.done
    }

    /// The step [`Stepper::advance`] would take, without taking it.
    #[inline]
    pub fn peek(&self) -> Option<Step> {
        let l = &self.line;
        let x_major = l.dx >= l.dy;
        let (major, minor_delta) = if x_major { (l.dx, l.dy) } else { (l.dy, l.dx) };
        if self.done >= major as u64 {
            return None;
        }
        let minor = self.f >= 0;
        // Positions stay between the endpoints, so the i32 moves cannot
        // overflow, and |f| ≤ 2·max(dx, dy) < 2³⁴ fits i64 with room to spare.
        let m = minor as i32;
        let (mx, my) = if x_major {
            (l.sx, l.sy * m)
        } else {
            (l.sx * m, l.sy)
        };
        let f = self.f + 2 * minor_delta - if minor { 2 * major } else { 0 };
        Some(Step {
            index: self.done + 1,
            cell: Cell::new(self.pos.x + mx, self.pos.y + my),
            f_before: self.f,
            minor_stepped: minor,
            f_after: f,
        })
    }

    /// Takes one step and returns it; `None` once the target is reached.
    #[inline]
    pub fn advance(&mut self) -> Option<Step> {
        let s = self.peek()?;
        self.pos = s.cell;
        self.f = s.f_after;
        self.done += 1;
        Some(s)
    }
}

impl Iterator for Stepper {
    type Item = Step;
    #[inline]
    fn next(&mut self) -> Option<Step> {
        self.advance()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining()).unwrap_or(usize::MAX);
        (n, usize::try_from(self.remaining()).ok())
    }
}

/// The cells of the line from `from` to `to` (start excluded, end included).
pub fn cells(from: Cell, to: Cell) -> impl Iterator<Item = Cell> {
    Line::new(from, to).stepper().map(|s| s.cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Pcg32;

    fn collect(a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
        cells(Cell::new(a.0, a.1), Cell::new(b.0, b.1))
            .map(|c| (c.x, c.y))
            .collect()
    }

    #[test]
    fn article_example_x_major() {
        // (0,0) → (10,3): f0 = 6 − 10 = −4.
        assert_eq!(
            collect((0, 0), (10, 3)),
            [
                (1, 0),
                (2, 1),
                (3, 1),
                (4, 1),
                (5, 2),
                (6, 2),
                (7, 2),
                (8, 2),
                (9, 3),
                (10, 3)
            ]
        );
    }

    #[test]
    fn zero_length_and_axes() {
        assert!(collect((5, 5), (5, 5)).is_empty());
        assert_eq!(collect((0, 0), (3, 0)), [(1, 0), (2, 0), (3, 0)]);
        assert_eq!(collect((0, 0), (0, -3)), [(0, -1), (0, -2), (0, -3)]);
        assert_eq!(collect((0, 0), (-2, -2)), [(-1, -1), (-2, -2)]);
    }

    #[test]
    fn reverse_can_differ() {
        // The tie f = 0 steps the minor axis, so reversing moves the kink.
        let fwd = collect((0, 0), (4, 2));
        let back = collect((4, 2), (0, 0));
        assert_eq!(fwd, [(1, 1), (2, 1), (3, 2), (4, 2)]);
        assert_eq!(back, [(3, 1), (2, 1), (1, 0), (0, 0)]);
    }

    #[test]
    fn error_term_is_the_article_formula() {
        let mut rng = Pcg32::new(11, 0);
        for _ in 0..2000 {
            let a = Cell::new(rng.range_i32(-50, 50), rng.range_i32(-50, 50));
            let b = Cell::new(rng.range_i32(-50, 50), rng.range_i32(-50, 50));
            let line = Line::new(a, b);
            let (major, minor) = if line.x_major() {
                (line.dx, line.dy)
            } else {
                (line.dy, line.dx)
            };
            let mut st = line.stepper();
            // i and j counted here, independently of the stepper.
            let (mut i, mut j) = (0i64, 0i64);
            while let Some(s) = st.peek() {
                assert_eq!(s.f_before, 2 * minor * (i + 1) - major * (2 * j + 1));
                assert_eq!(st.minor_done() as i64, j);
                st.advance();
                i += 1;
                j += s.minor_stepped as i64;
            }
            assert_eq!(st.minor_done() as i64, j);
        }
    }

    #[test]
    fn connected_ends_at_target_and_has_max_dx_dy_cells() {
        let mut rng = Pcg32::new(12, 0);
        for k in 0..10_000 {
            // Most endpoints near the origin; some near the i32 limits.
            let (lo, hi) = if k % 10 == 0 {
                (i32::MAX - 300, i32::MAX)
            } else {
                (-400, 400)
            };
            let mut pick = || {
                let v = rng.range_i32(lo, hi);
                if k % 20 == 0 { v.wrapping_neg() } else { v }
            };
            let a = Cell::new(pick(), pick());
            let b = Cell::new(pick(), pick());
            let line = Line::new(a, b);
            if line.len() > 100_000 {
                continue;
            }
            let mut prev = a;
            let mut n = 0u64;
            for c in cells(a, b) {
                assert!(
                    c.is_8_adjacent(prev) && c != prev,
                    "{a} → {b}: {prev} then {c}"
                );
                prev = c;
                n += 1;
            }
            assert_eq!(prev, b, "{a} → {b} ends elsewhere");
            assert_eq!(n, line.len());
            let dx = (b.x as i64 - a.x as i64).unsigned_abs();
            let dy = (b.y as i64 - a.y as i64).unsigned_abs();
            assert_eq!(n, dx.max(dy));
        }
    }

    #[test]
    fn extreme_endpoints_do_not_overflow() {
        let a = Cell::new(i32::MIN, i32::MIN);
        let b = Cell::new(i32::MAX, i32::MIN + 5);
        let line = Line::new(a, b);
        assert_eq!(line.len(), u32::MAX as u64);
        let first: Vec<Step> = line.stepper().take(3).collect();
        assert_eq!(first[0].cell, Cell::new(i32::MIN + 1, i32::MIN));
        assert_eq!(first[0].f_before, 10 - u32::MAX as i64);
    }
}
