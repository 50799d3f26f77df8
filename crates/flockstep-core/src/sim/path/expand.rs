//! The expansion core: a search's state (costs, links, the open list, the closed set), one expansion with its explain events, and the path read back.

use super::*;

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

/// Tells `sink` that the move to `cell` is impossible, and why.
#[inline(always)]
pub(super) fn skipped<S: Sink<PathEvent>>(sink: &mut S, search: u32, cell: Cell, why: Blocked) {
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
    pub(super) base: u64,
    /// The largest value written into `g` so far (for the next `base`).
    #[serde(skip)]
    pub(super) top: u64,
    /// A plain run's Euclidean distances, kept between queries (a cache,
    /// not part of the state).
    #[serde(skip)]
    pub(super) roots: Roots,
    /// How an untraced run expands a cell (a speed choice, not state).
    #[serde(skip)]
    pub(super) pace: Pace,
    /// Whether this query reached a cost its `G` cannot hold past `base`
    /// (an untraced 8-way run on `u32`, [`Searcher`]'s hopeful try): it
    /// stopped there, and its result is not the query's.
    #[serde(skip)]
    pub(super) overflowed: bool,
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
pub(super) struct Pace {
    /// Whether cells are expanded as in corridors.
    pub(super) corridors: bool,
    /// +1 per sampled cell with at most one way on, −1 per other, kept
    /// within ±[`PACE_TURN`]; the pace turns at either bound.
    pub(super) score: i8,
}

/// Open country samples one expansion in this many.
pub(super) const PACE_SAMPLE: u32 = 32;

/// The bound of [`Pace::score`], at which the pace turns.
pub(super) const PACE_TURN: i8 = 8;

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
    pub(super) fn count(&mut self, ways: u32) {
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
    pub(super) fn count_in_corridors(&mut self, ways: u32) {
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
pub(super) struct Roots {
    pub(super) table: Vec<u32>,
    /// Whether this query reads it (the Euclidean shape, a map that fits).
    pub(super) on: bool,
}

/// The longest map side [`Roots`] are kept for.
pub(super) const ROOTS_SIDE: usize = 512;

impl Roots {
    /// Turned on, and sized, if the query on `p` reads it.
    pub(super) fn prepare(&mut self, p: &Problem) {
        let side = p.width.max(p.height) as usize;
        self.on = p.heuristic.kind == HeuristicKind::Euclidean && side <= ROOTS_SIDE;
        let len = side * (side + 1) / 2;
        if self.on && self.table.len() < len {
            self.table = vec![0; len]; // zeroed by the allocator, lazily
        }
    }

    /// The bytes it holds while on.
    pub(super) fn bytes(&self) -> usize {
        if self.on {
            self.table.capacity() * 4
        } else {
            0
        }
    }

    /// `heuristic`'s `h16` at distances `dx`, `dy` from the goal, its
    /// root computed if not yet known.
    #[inline(always)]
    pub(super) fn h16(&mut self, heuristic: Heuristic, dx: u32, dy: u32) -> u64 {
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
impl PathEvent {
    /// The search the event belongs to.
    pub fn search(&self) -> u32 {
        match *self {
            PathEvent::NotAdmissible { search }
            | PathEvent::Expanded { search, .. }
            | PathEvent::Pushed { search, .. }
            | PathEvent::Improved { search, .. }
            | PathEvent::Skipped { search, .. }
            | PathEvent::Found { search, .. }
            | PathEvent::Unreachable { search } => search,
        }
    }
}

#[derive(Clone, Copy)]
pub(super) struct Problem<'a> {
    pub(super) terrain: &'a [u8],
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) goal: Cell,
    pub(super) rule: CostRule,
    pub(super) heuristic: Heuristic,
    pub(super) tie_break: TieBreak,
    pub(super) closed_set: bool,
    pub(super) moves: Moves,
    /// Whether an expansion marks its cell [`CLOSED`]: in a lesson's search
    /// and a traced run, whose states and events tell it; a plain run's
    /// untraced loops need no mark (their pops need only the `g` check: a
    /// cell's entries hold strictly falling `g`s, so at most one matches
    /// what it holds, and once popped it is gone; a cell reopened later
    /// holds a new, lower `g`).
    pub(super) marks: bool,
    /// The rule's moves, tabled.
    pub(super) steps: Steps,
}

/// A cost rule's moves as tables (see [`Problem`]): one load in place of
/// the rule's branches.
#[derive(Clone, Copy, Debug)]
pub(super) struct Steps {
    /// [`CostRule::cost`] by `b − a + MAX_HEIGHT` for heights `a`, `b`
    /// (0: blocked).
    pub(super) cost: [u32; 2 * MAX_HEIGHT as usize + 1],
    /// By height `a`: bit `b` set if the move from `a` onto height `b` is
    /// open (entries and bits past [`MAX_HEIGHT`] clear, so that a wall,
    /// or any byte no grid holds, read as 15 on either side is blocked).
    pub(super) onto: [u16; 16],
}

impl CostRule {
    /// Every move's cost by `b − a + MAX_HEIGHT` (0 if blocked), and
    /// which are open by height.
    pub(super) fn steps(&self) -> Steps {
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
    pub(super) fn of(grid: &'a Grid, goal: Cell, cfg: &SearchConfig) -> Problem<'a> {
        Problem::with(grid, goal, cfg, cfg.rule.steps())
    }

    /// One search of `cfg` on `grid` towards `goal`, with its rule's table
    /// already built: a lesson's search steps once a tick and a
    /// [`Searcher`] answers query after query, and each builds it once.
    pub(super) fn with(
        grid: &'a Grid,
        goal: Cell,
        cfg: &SearchConfig,
        steps: Steps,
    ) -> Problem<'a> {
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
    pub(super) fn step(&self, a: u8, b: u8) -> Result<u32, Blocked> {
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
    pub(super) fn onto(&self, a: u8) -> u16 {
        self.steps.onto[a.min(15) as usize]
    }

    /// The diagonal move from height `ha` onto terrain `hb` past the
    /// terrain `beside` (cells the caller knows `ha` reaches): its cost in
    /// the rule's units if the moves from `ha` and from each cell beside
    /// onto `hb` are open ([`SearchState::diagonal`]'s rule, from two
    /// tables).
    #[inline(always)]
    pub(super) fn corner(&self, ha: u8, hb: u8, beside: [u8; 2]) -> Option<u32> {
        let open = self.onto(ha) & self.onto(beside[0]) & self.onto(beside[1]);
        (open >> hb.min(15) & 1 != 0).then(|| self.steps.cost[(hb + MAX_HEIGHT - ha) as usize])
    }

    /// `|dx|` and `|dy|` from `(x, y)` to the goal.
    #[inline(always)]
    pub(super) fn distances(&self, x: i32, y: i32) -> (u32, u32) {
        (x.abs_diff(self.goal.x), y.abs_diff(self.goal.y))
    }

    /// The heuristic at `(x, y)`, computed.
    #[cfg(test)]
    pub(super) fn h16(&self, x: i32, y: i32) -> u64 {
        let (dx, dy) = self.distances(x, y);
        self.heuristic.h16(dx, dy)
    }

    #[inline(always)]
    pub(super) fn tie(&self, g: u64, h16: u64, seq: u32) -> u32 {
        match self.tie_break {
            TieBreak::Fifo => 0,
            TieBreak::Lifo => u32::MAX - seq,
            TieBreak::LargerG => u32::MAX - g.min(u32::MAX as u64) as u32,
            TieBreak::SmallerH => h16.min(u32::MAX as u64) as u32,
        }
    }
}

impl<Q: OpenQueue> SearchState<Q> {
    /// A search at its start: the start cell open with `g = 0`.
    pub(super) fn new(p: &Problem, start: u32, open: Q) -> SearchState<Q> {
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
    pub(super) fn push(&mut self, p: &Problem, cell: u32, x: i32, y: i32, g: u64) -> u64 {
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
    pub(super) fn step<S: Sink<PathEvent>, const CORRIDORS: bool>(
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
    pub(super) fn orthogonal<S: Sink<PathEvent>>(
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
    pub(super) fn corridor<S: Sink<PathEvent>>(
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
    pub(super) fn corners<S: Sink<PathEvent>>(
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
    pub(super) fn ways(&self, p: &Problem, here: Cell, c: u32) -> ([u8; 4], [u32; 4], u32) {
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
    pub(super) fn run_at<S: Sink<PathEvent>, const CORRIDORS: bool>(
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
    pub(super) fn run_eight<S: Sink<PathEvent>, const CORRIDORS: bool>(
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
    pub(super) fn run_on<S: Sink<PathEvent>, const CORRIDORS: bool>(
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
    pub(super) fn run_loop<S: Sink<PathEvent>, const CORRIDORS: bool>(
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
    pub(super) fn diagonals<S: Sink<PathEvent>>(
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
    pub(super) fn diagonal<S: Sink<PathEvent>>(
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
    pub(super) fn relax_orthogonal<S: Sink<PathEvent>>(
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
    pub(super) fn relax_diagonal<S: Sink<PathEvent>>(
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
    pub(super) fn relax<S: Sink<PathEvent>>(
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
    pub(super) fn overflow(&mut self) {
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
    pub(super) fn links(&self, width: u32, at: Cell) -> impl Iterator<Item = u8> + '_ {
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
    pub(super) fn parents(&self, width: u32, at: Cell) -> impl Iterator<Item = Cell> + '_ {
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
    pub(super) fn restart(&mut self, p: &Problem, start: u32) {
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
pub(super) fn room(p: &Problem) -> u64 {
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

impl<Q: OpenQueue, G> Default for SearchState<Q, G> {
    fn default() -> Self {
        SearchState::empty(Q::default())
    }
}

impl<Q, G> SearchState<Q, G> {
    /// No arrays yet (sized by the first [`SearchState::restart`]).
    pub(super) fn empty(open: Q) -> SearchState<Q, G> {
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
