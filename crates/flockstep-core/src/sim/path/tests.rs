//! The A* tests.

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
                (plain.heap.pace, plain.calendar.pace, plain.calendar32.pace) = (pace, pace, pace);
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
    assert!(why.message.contains("in the wall at (1, 1)"), "{why}");
    assert_eq!(why.kind, crate::sim::SimErrorKind::State);
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
