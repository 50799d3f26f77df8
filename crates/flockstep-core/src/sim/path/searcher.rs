//! Plain runs ([`search`], [`Searcher`]): the fastest open list that pops in the heap's order, arrays kept between queries.

use super::*;

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
    pub(super) heap: SearchState<Heap>,
    pub(super) calendar: SearchState<Calendar>,
    pub(super) buckets: SearchState<Buckets>,
    /// The same, for maps whose costs fit a `u32` ([`narrow`]), and for
    /// untraced 8-way queries whose costs do ([`Searcher::hopeful`]).
    pub(super) calendar32: SearchState<Calendar, u32>,
    pub(super) buckets32: SearchState<Buckets, u32>,
    /// Untraced 8-way queries left to run on `u64` since one outgrew a
    /// `u32` (see [`Searcher::hopeful`]).
    pub(super) wide_for: u32,
    /// The last query's rule and its table of move costs (building it
    /// again would be a large share of a short query's work).
    pub(super) steps: Option<(CostRule, Steps)>,
}

/// Queries on `u64` after a hopeful one outgrew a `u32` ([`Searcher::hopeful`]).
pub(super) const WIDE_AFTER_OVERFLOW: u32 = 8;

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
    pub(super) fn hopeful<S: Sink<PathEvent>>(&mut self, p: &Problem) -> bool {
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
pub(super) fn narrow(p: &Problem) -> bool {
    room(p) <= u32::MAX as u64 / 2
}

/// Runs a plain search on `s`, its open list first replaced by `new()` if
/// `fresh` says it was made for another kind of search.
pub(super) fn on<Q: OpenQueue, G: Slot, S: Sink<PathEvent>>(
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
    pub(super) fn outcome(&self, width: u32, goal: Cell) -> Outcome {
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
pub(super) fn begin<'a, S: Sink<PathEvent>>(
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
pub(super) fn f_span(cfg: &SearchConfig) -> u64 {
    let step = cfg.rule.max_step_cost();
    match cfg.moves {
        Moves::Four => step + 2,
        Moves::Eight => (step + 1) * 3 / 2 + 2,
    }
}

/// The bucket ring's length for a search [`buckets_apply`] to.
pub(super) fn bucket_span(cfg: &SearchConfig) -> usize {
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
/// [`crate::sim::NoTrace`] for speed). `start` and `goal` must be open cells.
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
pub(super) fn calendar_shift(cfg: &SearchConfig) -> Option<u32> {
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
pub(super) fn run_to_end<Q: OpenQueue, G: Slot, S: Sink<PathEvent>>(
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
