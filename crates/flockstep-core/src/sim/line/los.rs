//! Line of sight over a grid with walls and heights, along the Bresenham
//! line of [`super::bresenham`].
//!
//! The eye of the looker is `eye` levels above its own cell; the point
//! looked at is `eye` levels above the target cell. The sight ray rises or
//! falls linearly over the `n` steps of the line, so at step `k` its height
//! is `zA + (zB − zA)·k/n`. An intermediate cell blocks the view if it is a
//! wall or if its terrain is *strictly higher* than the ray there; the test
//! is done as `h·n > zA·n + (zB − zA)·k`, integers only. The start and the
//! target cell themselves never block.
//!
//! Because the cells of A→B and of B→A can differ (the `f ≥ 0` tie picks the
//! minor step at a different end), A may see B while B does not see A.

use super::super::{Cell, Grid};
use super::bresenham::Line;
use serde::{Deserialize, Serialize};

/// The outcome of one line-of-sight test.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Sight {
    /// True if nothing blocks the line.
    pub visible: bool,
    /// The first blocking cell, walking from the looker.
    pub blocker: Option<Cell>,
}

/// Tests whether `from` sees `to` (see the module docs). Cells off the grid
/// count as open ground at height 0.
pub fn line_of_sight(grid: &Grid, from: Cell, to: Cell, eye: i32) -> Sight {
    let line = Line::new(from, to);
    let n = line.len() as i64;
    let za = grid.height_at(from).unwrap_or(0) as i64 + eye as i64;
    let zb = grid.height_at(to).unwrap_or(0) as i64 + eye as i64;
    for s in line.stepper() {
        if s.cell == to {
            break;
        }
        let blocked = grid.is_wall(s.cell) || {
            let h = grid.height_at(s.cell).unwrap_or(0) as i64;
            h * n > za * n + (zb - za) * s.index as i64
        };
        if blocked {
            return Sight {
                visible: false,
                blocker: Some(s.cell),
            };
        }
    }
    Sight {
        visible: true,
        blocker: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_block_and_asymmetry_shows() {
        // (0,0) → (4,2) passes (1,1); (4,2) → (0,0) passes (1,0) instead.
        let g = Grid::parse("00000\n0#000\n00000\n").unwrap();
        let a = Cell::new(0, 0);
        let b = Cell::new(4, 2);
        assert_eq!(
            line_of_sight(&g, a, b, 1),
            Sight {
                visible: false,
                blocker: Some(Cell::new(1, 1))
            }
        );
        assert_eq!(
            line_of_sight(&g, b, a, 1),
            Sight {
                visible: true,
                blocker: None
            }
        );
    }

    #[test]
    fn heights_block_only_above_the_ray() {
        // Eye 1 above height 0 at both ends: a hill of 1 is level with the ray.
        let low = Grid::parse("0100\n").unwrap();
        assert!(line_of_sight(&low, Cell::new(0, 0), Cell::new(3, 0), 1).visible);
        let high = Grid::parse("0200\n").unwrap();
        let s = line_of_sight(&high, Cell::new(0, 0), Cell::new(3, 0), 1);
        assert_eq!(s.blocker, Some(Cell::new(1, 0)));
        // From a hilltop the ray starts higher: 5 + 1 looking down at 0 + 1.
        let hill = Grid::parse("5300\n").unwrap();
        // At k = 1 of n = 3 the ray is at 6 − 5/3 ≈ 4.33 > 3: visible.
        assert!(line_of_sight(&hill, Cell::new(0, 0), Cell::new(3, 0), 1).visible);
        // Between two low ends (ray level at 1), a 5 blocks.
        let hill2 = Grid::parse("0050\n").unwrap();
        assert!(!line_of_sight(&hill2, Cell::new(0, 0), Cell::new(3, 0), 1).visible);
    }

    #[test]
    fn adjacent_and_same_cell_always_visible() {
        let g = Grid::parse("#9\n9#\n").unwrap();
        assert!(line_of_sight(&g, Cell::new(1, 0), Cell::new(0, 1), 0).visible);
        assert!(line_of_sight(&g, Cell::new(1, 0), Cell::new(1, 0), 0).visible);
    }
}
