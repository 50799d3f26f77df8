//! The move-cost rule (climb and drop limits, up- and downhill weights), the 4- and 8-way moves, and the links a cell keeps to its parent.

use super::*;

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
    pub(super) fn step(&self, a: u8, b: u8) -> Result<u32, Blocked> {
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

/// No parent (the start, or not reached).
pub const NO_PARENT: u8 = 4;

/// Flag in [`SearchState::link`]: the cell is closed.
pub const CLOSED: u8 = 0x80;

/// Neighbour offsets in the documented order: left, up, right, down (the
/// article's loop order). A link stores the direction *to the parent*.
pub(super) const DIRS: [(i32, i32); 4] = [(-1, 0), (0, -1), (1, 0), (0, 1)];

/// The diagonal offsets, in the order 8-way moves try them after
/// [`DIRS`]: up-left, up-right, down-right, down-left.
pub(super) const DIAGS: [(i32, i32); 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];

/// The link of a diagonal parent: `DIAG_LINK + i` points along `DIAGS[i]`
/// (after [`NO_PARENT`], so a 4-way state's links keep their values).
pub(super) const DIAG_LINK: usize = 5;

/// Every link's offset to the parent ([`NO_PARENT`]'s is unused).
pub(super) const LINKS: [(i32, i32); 9] = [
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
pub(super) const BESIDE: [(usize, usize); 4] = [(0, 1), (2, 1), (2, 3), (0, 3)];

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
