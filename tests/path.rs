//! A*: optimal against an independent Dijkstra on random maps, legal
//! paths that re-cost to the reported cost, expansion orders per
//! tie-break, the trace, and the lessons' claims.

use flockstep::num::{Fx, Pcg32};
use flockstep::sim::path::{
    CostRule, Heuristic, HeuristicKind, Moves, PathEvent, SearchConfig, Searcher, TieBreak,
    generate, search,
};
use flockstep::sim::{Cell, Grid, NoTrace};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;

/// Dijkstra written independently: std's heap, (cost, index) entries,
/// lazy deletion, the cost rule re-derived from the DESIGN text.
fn dijkstra(grid: &Grid, start: Cell, goal: Cell, rule: &CostRule) -> Option<u64> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let mut dist = vec![u64::MAX; (w * h) as usize];
    let idx = |c: Cell| (c.y * w + c.x) as usize;
    let mut heap = BinaryHeap::new();
    dist[idx(start)] = 0;
    heap.push(Reverse((0u64, start.x, start.y)));
    while let Some(Reverse((d, x, y))) = heap.pop() {
        let c = Cell::new(x, y);
        if d > dist[idx(c)] {
            continue;
        }
        if c == goal {
            return Some(d);
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let n = Cell::new(x + dx, y + dy);
            let (Some(ha), Some(hb)) = (grid.height_at(c), grid.height_at(n)) else {
                continue;
            };
            let (ha, hb) = (ha as i64, hb as i64);
            if hb - ha > rule.max_climb as i64 || ha - hb > rule.max_drop as i64 {
                continue;
            }
            let cost = 1
                + (hb - ha).max(0) as u64 * rule.uphill_weight as u64
                + (ha - hb).max(0) as u64 * rule.downhill_weight as u64;
            if d + cost < dist[idx(n)] {
                dist[idx(n)] = d + cost;
                heap.push(Reverse((d + cost, n.x, n.y)));
            }
        }
    }
    None
}

/// The cost of walking `path` under `rule`, or why it is not a legal walk.
fn recost(grid: &Grid, path: &[Cell], rule: &CostRule) -> Result<u64, String> {
    let mut total = 0;
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.x - b.x).abs() + (a.y - b.y).abs() != 1 {
            return Err(format!("{a} → {b} is not a 4-neighbour move"));
        }
        let (Some(ha), Some(hb)) = (grid.height_at(a), grid.height_at(b)) else {
            return Err(format!("{a} → {b} enters a wall"));
        };
        total += rule
            .cost(ha, hb)
            .map_err(|e| format!("{a} → {b} is blocked: {e:?}"))? as u64;
    }
    Ok(total)
}

fn random_map(rng: &mut Pcg32) -> (Grid, CostRule) {
    let (w, h) = (4 + rng.below(28), 4 + rng.below(28));
    let mut g = generate(w, h, 1 + rng.below(9) as u8, rng.next_u64() >> 1);
    for _ in 0..(w * h * rng.below(30) / 100) {
        let c = Cell::new(rng.below(w) as i32, rng.below(h) as i32);
        g.set_wall(c);
    }
    let rule = CostRule {
        max_climb: rng.below(5) as u8,
        max_drop: rng.below(5) as u8,
        uphill_weight: rng.below(12),
        downhill_weight: rng.below(4),
    };
    (g, rule)
}

fn open_cell(rng: &mut Pcg32, g: &Grid) -> Option<Cell> {
    (0..100).find_map(|_| {
        let c = Cell::new(rng.below(g.width()) as i32, rng.below(g.height()) as i32);
        (!g.is_wall(c)).then_some(c)
    })
}

#[test]
fn optimal_on_random_maps_for_every_admissible_heuristic_and_tie_break() {
    let mut rng = Pcg32::new(4, 4);
    let heuristics = [
        Heuristic::plain(HeuristicKind::Euclidean),
        Heuristic::plain(HeuristicKind::Manhattan),
        Heuristic::plain(HeuristicKind::Zero),
        Heuristic {
            kind: HeuristicKind::Euclidean,
            weight: Fx::HALF,
        },
    ];
    let (mut maps, mut reachable, mut unreachable) = (0, 0, 0);
    while maps < 220 {
        let (grid, rule) = random_map(&mut rng);
        let (Some(start), Some(goal)) = (open_cell(&mut rng, &grid), open_cell(&mut rng, &grid))
        else {
            continue;
        };
        maps += 1;
        let want = dijkstra(&grid, start, goal, &rule);
        match want {
            Some(_) => reachable += 1,
            None => unreachable += 1,
        }
        for heuristic in heuristics {
            assert!(heuristic.is_admissible(Moves::Four));
            for (&(name, tie_break), closed_set) in
                TieBreak::NAMES.iter().flat_map(|t| [(t, true), (t, false)])
            {
                let cfg = SearchConfig {
                    rule,
                    heuristic,
                    tie_break,
                    closed_set,
                    ..SearchConfig::default()
                };
                let out = search(&grid, start, goal, &cfg, &mut NoTrace);
                let ctx = format!(
                    "map {maps} {start} → {goal} {heuristic:?} {name} closed set {closed_set} {rule:?}\n{}",
                    grid.to_ascii()
                );
                assert_eq!(out.cost, want, "{ctx}");
                if let Some(cost) = out.cost {
                    assert_eq!(out.path.first(), Some(&start), "{ctx}");
                    assert_eq!(out.path.last(), Some(&goal), "{ctx}");
                    assert_eq!(recost(&grid, &out.path, &rule), Ok(cost), "{ctx}");
                } else {
                    assert!(out.path.is_empty());
                }
            }
        }
    }
    assert!(
        reachable > 100 && unreachable > 10,
        "{reachable} / {unreachable}"
    );
}

#[test]
fn an_inadmissible_heuristic_is_flagged_and_can_lose_optimality() {
    let grid = generate(30, 30, 5, 3);
    let (start, goal) = (Cell::new(2, 3), Cell::new(27, 26));
    let cfg = |w: i32| SearchConfig {
        heuristic: Heuristic {
            kind: HeuristicKind::Euclidean,
            weight: Fx::from_int(w),
        },
        ..SearchConfig::default()
    };
    let mut events = Vec::new();
    let greedy = search(&grid, start, goal, &cfg(5), &mut events);
    assert!(matches!(events[0], PathEvent::NotAdmissible { .. }));
    let best = search(&grid, start, goal, &cfg(1), &mut NoTrace);
    assert_eq!(
        best.cost,
        dijkstra(&grid, start, goal, &CostRule::default())
    );
    assert!(
        greedy.cost > best.cost,
        "{:?} vs {:?}",
        greedy.cost,
        best.cost
    );
    assert!(greedy.expanded * 5 < best.expanded);
    let mut quiet = Vec::new();
    search(&grid, start, goal, &cfg(1), &mut quiet);
    assert!(
        !quiet
            .iter()
            .any(|e| matches!(e, PathEvent::NotAdmissible { .. }))
    );
}

/// Article 001's list without a closed set: the same cost, more work, and
/// the extra work is exactly the stale copies (and repeats) it pops.
#[test]
fn without_a_closed_set_stale_copies_are_expanded_and_the_cost_stays() {
    let grid = generate(30, 30, 5, 3);
    let (start, goal) = (Cell::new(2, 3), Cell::new(27, 26));
    let cfg = |closed_set| SearchConfig {
        closed_set,
        ..SearchConfig::default()
    };
    let with = search(&grid, start, goal, &cfg(true), &mut NoTrace);
    let mut events = Vec::new();
    let without = search(&grid, start, goal, &cfg(false), &mut events);
    assert_eq!(without.cost, with.cost);
    assert!(without.expanded > with.expanded, "{without:?}");
    let (mut cells, mut stale) = (std::collections::BTreeSet::new(), 0);
    for e in &events {
        if let PathEvent::Expanded { cell, g, held, .. } = *e {
            assert!(held <= g);
            stale += u32::from(held < g);
            cells.insert((cell.x, cell.y));
        }
    }
    assert!(stale > 0);
    assert_eq!(without.expanded, cells.len() as u32 + stale);
}

#[test]
fn tracing_gives_the_same_search() {
    let mut rng = Pcg32::new(8, 1);
    for _ in 0..30 {
        let (grid, rule) = random_map(&mut rng);
        let (Some(s), Some(g)) = (open_cell(&mut rng, &grid), open_cell(&mut rng, &grid)) else {
            continue;
        };
        let cfg = SearchConfig {
            rule,
            tie_break: TieBreak::LargerG,
            ..SearchConfig::default()
        };
        let mut events = Vec::new();
        let traced = search(&grid, s, g, &cfg, &mut events);
        assert_eq!(traced, search(&grid, s, g, &cfg, &mut NoTrace));
        let expansions = events
            .iter()
            .filter(|e| matches!(e, PathEvent::Expanded { .. }))
            .count();
        assert_eq!(expansions as u32, traced.expanded);
    }
}

/// The order in which cells are expanded, for each tie-break, on a small
/// flat map with a wall (reviewable: the tie-break is visible).
#[test]
fn expansion_order_per_tie_break_snapshot() {
    let grid = Grid::parse("00000\n00#00\n00000\n00000\n").unwrap();
    let (start, goal) = (Cell::new(0, 0), Cell::new(4, 3));
    let mut out = String::new();
    for &(name, tie_break) in TieBreak::NAMES {
        let cfg = SearchConfig {
            heuristic: Heuristic::plain(HeuristicKind::Manhattan),
            tie_break,
            ..SearchConfig::default()
        };
        let mut events = Vec::new();
        let r = search(&grid, start, goal, &cfg, &mut events);
        let order: Vec<String> = events
            .iter()
            .filter_map(|e| match e {
                PathEvent::Expanded { cell, .. } => Some(cell.to_string()),
                _ => None,
            })
            .collect();
        let _ = writeln!(
            out,
            "{name:<10} cost {:?} expanded {:>2}: {}",
            r.cost,
            r.expanded,
            order.join(" ")
        );
        out.push_str(&flockstep::sim::path::ascii::draw(
            &grid, None, start, goal, &r.path,
        ));
    }
    insta::assert_snapshot!("expansion_order", out);
}

#[test]
fn generated_terrain_is_seeded_and_in_range() {
    let a = generate(64, 48, 5, 7);
    assert_eq!(a, generate(64, 48, 5, 7));
    assert_ne!(a, generate(64, 48, 5, 8));
    let hs: Vec<u8> = (0..48)
        .flat_map(|y| (0..64).map(move |x| Cell::new(x, y)))
        .map(|c| a.height_at(c).unwrap())
        .collect();
    assert!(hs.iter().all(|h| (1..=5).contains(h)));
    for level in 1..=5 {
        assert!(hs.contains(&level), "level {level} never appears");
    }
    // A 1-cell-wide map reads no noise past its edge (the article would).
    let thin = generate(1, 9, 9, 1);
    assert_eq!(thin.width(), 1);
    insta::assert_snapshot!("generated_30x12_seed_3", generate(30, 12, 5, 3).to_ascii());
}

/// `search` runs FIFO searches with whole-valued consistent heuristics on
/// a bucket queue; it must expand exactly what the heap (the lessons' open
/// list) expands, in the same order.
#[test]
fn the_bucket_queue_expands_in_the_heaps_order() {
    use flockstep::sim::Sim;
    use flockstep::sim::path::{PathConfig, PathSim, buckets_apply};
    let mut rng = Pcg32::new(12, 7);
    let mut compared = 0;
    while compared < 60 {
        let (grid, rule) = random_map(&mut rng);
        let (Some(start), Some(goal)) = (open_cell(&mut rng, &grid), open_cell(&mut rng, &grid))
        else {
            continue;
        };
        for kind in [HeuristicKind::Manhattan, HeuristicKind::Zero] {
            let cfg = SearchConfig {
                rule,
                heuristic: Heuristic::plain(kind),
                ..SearchConfig::default()
            };
            assert!(buckets_apply(&cfg));
            let expanded = |events: &[PathEvent]| -> Vec<Cell> {
                events
                    .iter()
                    .filter_map(|e| match e {
                        PathEvent::Expanded { cell, .. } => Some(*cell),
                        _ => None,
                    })
                    .collect()
            };
            let mut fast = Vec::new();
            search(&grid, start, goal, &cfg, &mut fast);
            let mut sim = PathSim::new(PathConfig {
                grid: grid.clone(),
                start,
                goal,
                searches: vec![cfg],
            })
            .unwrap();
            let mut slow = Vec::new();
            while !sim.done() {
                sim.step(&mut slow);
            }
            assert_eq!(
                expanded(&fast),
                expanded(&slow),
                "{start} → {goal}\n{}",
                grid.to_ascii()
            );
            compared += 1;
        }
    }
}

/// `search` runs every other consistent heuristic (Euclidean, fractional
/// weights ≤ 1), under any tie-break, with or without a closed set, on a
/// calendar queue; it must tell exactly the heap's story: the same events
/// (every push, skip, improvement and expansion) in the same order.
#[test]
fn the_calendar_queue_tells_the_heaps_story() {
    use flockstep::num::Fx;
    use flockstep::sim::Sim;
    use flockstep::sim::path::{PathConfig, PathSim, calendar_applies};
    let mut rng = Pcg32::new(18, 2);
    let kinds = [
        HeuristicKind::Euclidean,
        HeuristicKind::Manhattan,
        HeuristicKind::Zero,
    ];
    let mut compared = 0;
    while compared < 300 {
        let (grid, mut rule) = random_map(&mut rng);
        let (Some(start), Some(goal)) = (open_cell(&mut rng, &grid), open_cell(&mut rng, &grid))
        else {
            continue;
        };
        if rng.below(4) == 0 {
            // The widest spans the ring takes: slices a whole unit wide.
            rule.uphill_weight = 300 + rng.below(155);
        }
        let (_, tie_break) = TieBreak::NAMES[rng.below(4) as usize];
        let weights = [
            Fx::ONE,
            Fx::from_bits(1 << 31),
            Fx::from_bits(4_290_000_000),
        ];
        let weight = weights[rng.below(3) as usize];
        let cfg = SearchConfig {
            rule,
            heuristic: Heuristic {
                kind: kinds[rng.below(3) as usize],
                weight,
            },
            tie_break,
            closed_set: rng.below(4) != 0,
            ..SearchConfig::default()
        };
        assert!(calendar_applies(&cfg));
        let mut fast = Vec::new();
        let out = search(&grid, start, goal, &cfg, &mut fast);
        let mut sim = PathSim::new(PathConfig {
            grid: grid.clone(),
            start,
            goal,
            searches: vec![cfg.clone()],
        })
        .unwrap();
        let mut slow = Vec::new();
        while !sim.done() {
            sim.step(&mut slow);
        }
        assert_eq!(fast, slow, "{start} → {goal} {cfg:?}\n{}", grid.to_ascii());
        assert!(out.expanded > 0);
        compared += 1;
    }
    // Beyond that span (a move costing over 4,094) the heap runs instead.
    let wide = SearchConfig {
        label: String::new(),
        rule: CostRule {
            uphill_weight: 455,
            ..CostRule::default()
        },
        heuristic: Heuristic::plain(HeuristicKind::Euclidean),
        tie_break: TieBreak::Fifo,
        closed_set: true,
        moves: Moves::Four,
    };
    assert!(!calendar_applies(&wide));
    assert!(!calendar_applies(&SearchConfig {
        heuristic: Heuristic {
            kind: HeuristicKind::Euclidean,
            weight: Fx::from_int(2),
        },
        ..wide.clone()
    }));
}

/// 8-way moves on the five Moving AI maps (tests/maps): about 40
/// scenarios of each, spread over every bucket, find the published
/// optimal length. Ours is counted from the path's moves (1 straight, √2
/// diagonal, in 10⁻⁸) and must be within 10⁻⁴ of the file's (which prints
/// 4 or 8 decimals); the cost in 16-bit fixed point agrees with it to 2
/// parts per million.
#[test]
fn moving_ai_8_way_lengths_match_the_benchmark() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/");
    let cfg = SearchConfig {
        label: "A*".into(),
        heuristic: Heuristic::plain(HeuristicKind::Octile),
        moves: Moves::Eight,
        ..SearchConfig::default()
    };
    let mut searcher = Searcher::new();
    let mut checked = 0;
    for m in [
        "arena",
        "maze512-1-0",
        "8room_000",
        "random512-10-0",
        "Berlin_0_512",
    ] {
        let read = |f: String| std::fs::read_to_string(format!("{dir}{f}")).unwrap();
        let grid = Grid::read(&read(format!("{m}.map"))).unwrap();
        let scen = read(format!("{m}.map.scen"));
        let lines: Vec<&str> = scen.lines().skip(1).collect();
        for line in lines.iter().step_by(lines.len() / 40) {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| f[i].parse::<i32>().unwrap();
            let (from, to) = (Cell::new(n(4), n(5)), Cell::new(n(6), n(7)));
            let want = (f[8].trim().parse::<f64>().unwrap() * 1e8).round() as i64;
            let out = searcher.search(&grid, from, to, &cfg, &mut NoTrace);
            let got: i64 = out
                .path
                .windows(2)
                .map(|w| {
                    if w[0].x != w[1].x && w[0].y != w[1].y {
                        141_421_356
                    } else {
                        100_000_000
                    }
                })
                .sum();
            assert!((got - want).abs() <= 10_000, "{m}: {line}: ours {got}");
            let cost = out.cost.unwrap() as f64 / 65536.0;
            assert!(
                (cost * 1e8 - got as f64).abs() <= got as f64 * 2e-6,
                "{m}: {line}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 200, "{checked}");
}

/// 8-way moves cut no corner: a diagonal needs both cells beside it open,
/// reachable from here and able to reach it under the climb rules; and a
/// search with 8-way moves, on its own memory or a lesson's heap, tells
/// the same story.
#[test]
fn diagonals_cut_no_corner() {
    use flockstep::sim::Sim;
    use flockstep::sim::path::{Blocked, PathConfig, PathSim};
    let cfg = |kind| SearchConfig {
        heuristic: Heuristic::plain(kind),
        moves: Moves::Eight,
        ..SearchConfig::default()
    };
    let route = |map: &str| {
        let g = Grid::parse(map).unwrap();
        let c = cfg(HeuristicKind::Octile);
        search(&g, Cell::new(0, 0), Cell::new(1, 1), &c, &mut NoTrace)
            .path
            .len()
    };
    assert_eq!(route("00\n00"), 2, "open: one diagonal");
    assert_eq!(route("0#\n00"), 3, "a wall beside it: around");
    assert_eq!(route("03\n00"), 3, "a cliff beside it (climb 3): around");
    assert_eq!(
        route("02\n50"),
        3,
        "a cell beside it cannot reach it (drop 5)"
    );
    let mut events = Vec::new();
    let g = Grid::parse("0#\n00").unwrap();
    search(
        &g,
        Cell::new(0, 0),
        Cell::new(1, 1),
        &cfg(HeuristicKind::Octile),
        &mut events,
    );
    assert!(events.iter().any(|e| matches!(
        e,
        PathEvent::Skipped { cell, why: Blocked::Corner, .. } if *cell == Cell::new(1, 1)
    )));
    // The same story on a lesson's heap, random maps, every shape.
    let mut rng = Pcg32::new(18, 8);
    for i in 0..120 {
        let (grid, rule) = random_map(&mut rng);
        let (Some(start), Some(goal)) = (open_cell(&mut rng, &grid), open_cell(&mut rng, &grid))
        else {
            continue;
        };
        let kinds = [
            HeuristicKind::Octile,
            HeuristicKind::Euclidean,
            HeuristicKind::Zero,
        ];
        let c = SearchConfig {
            rule,
            ..cfg(kinds[i % 3])
        };
        let mut fast = Vec::new();
        let out = search(&grid, start, goal, &c, &mut fast);
        let mut sim = PathSim::new(PathConfig {
            grid: grid.clone(),
            start,
            goal,
            searches: vec![c.clone()],
        })
        .unwrap();
        let mut slow = Vec::new();
        while !sim.done() {
            sim.step(&mut slow);
        }
        assert_eq!(fast, slow, "{start} → {goal} {c:?}\n{}", grid.to_ascii());
        let d = dijkstra8(&grid, start, goal, &rule);
        assert_eq!(out.cost, d, "{start} → {goal} {c:?}\n{}", grid.to_ascii());
    }
}

/// What the pictures say of a diagonal ([`diagonal_cost`]: its price, or
/// why it is skipped) is what the search does with it, on random maps:
/// every open cell's first expansion, every diagonal.
#[test]
fn the_pictures_diagonal_rule_is_the_searchs() {
    use flockstep::sim::Sim;
    use flockstep::sim::path::{DIAGONALS, PathConfig, PathSim, diagonal_cost};
    let mut rng = Pcg32::new(18, 9);
    let mut seen = [0usize; 3];
    for _ in 0..40 {
        let (grid, rule) = random_map(&mut rng);
        let c = SearchConfig {
            rule,
            heuristic: Heuristic::plain(HeuristicKind::Zero),
            moves: Moves::Eight,
            ..SearchConfig::default()
        };
        for y in 0..grid.height() as i32 {
            for x in 0..grid.width() as i32 {
                let at = Cell::new(x, y);
                if grid.is_wall(at) {
                    continue;
                }
                // The start's expansion, the first step (the goal elsewhere).
                let cells = (0..grid.width() * grid.height())
                    .map(|i| Cell::new((i % grid.width()) as i32, (i / grid.width()) as i32));
                let Some(goal) = cells.clone().find(|&c| c != at && !grid.is_wall(c)) else {
                    continue;
                };
                let mut sim = PathSim::new(PathConfig {
                    grid: grid.clone(),
                    start: at,
                    goal,
                    searches: vec![c.clone()],
                })
                .unwrap();
                let mut first = Vec::new();
                sim.step(&mut first);
                for (dx, dy) in DIAGONALS {
                    let to = Cell::new(x + dx, y + dy);
                    let told = first.iter().find_map(|e| match e {
                        PathEvent::Pushed { cell, g, .. } if *cell == to => Some(Ok(*g)),
                        PathEvent::Skipped { cell, why, .. } if *cell == to => Some(Err(*why)),
                        _ => None,
                    });
                    let said = diagonal_cost(&grid, &rule, at, (dx, dy));
                    match (said, told) {
                        (Err(flockstep::sim::path::Blocked::Outside), None) => seen[0] += 1,
                        (Ok(_), Some(_)) => seen[1] += 1,
                        (Err(_), Some(_)) => seen[2] += 1,
                        _ => {}
                    }
                    if !grid.contains(to) {
                        assert_eq!(told, None);
                    } else {
                        assert_eq!(Some(said), told, "{at} → {to}\n{}", grid.to_ascii());
                    }
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

/// 8-way costs by a plain Dijkstra over every legal move (the reference).
fn dijkstra8(grid: &Grid, start: Cell, goal: Cell, rule: &CostRule) -> Option<u64> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let at = |c: Cell| grid.height_at(c);
    let legal = |a: Cell, b: Cell| -> Option<u64> {
        let (ha, hb) = (at(a)?, at(b)?);
        rule.cost(ha, hb).ok().map(u64::from)
    };
    let mut dist = vec![u64::MAX; (w * h) as usize];
    let idx = |c: Cell| (c.y * w + c.x) as usize;
    let mut heap = std::collections::BinaryHeap::new();
    dist[idx(start)] = 0;
    heap.push(Reverse((0u64, start.x, start.y)));
    while let Some(Reverse((d, x, y))) = heap.pop() {
        let here = Cell::new(x, y);
        if d > dist[idx(here)] {
            continue;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let n = Cell::new(x + dx, y + dy);
                if (dx, dy) == (0, 0) || !grid.contains(n) {
                    continue;
                }
                let step = if dx != 0 && dy != 0 {
                    let (o1, o2) = (Cell::new(x + dx, y), Cell::new(x, y + dy));
                    let ok = [o1, o2]
                        .iter()
                        .all(|&o| legal(here, o).is_some() && legal(o, n).is_some());
                    legal(here, n).filter(|_| ok).map(|c| c * 92_682)
                } else {
                    legal(here, n).map(|c| c << 16)
                };
                if let Some(s) = step
                    && d + s < dist[idx(n)]
                {
                    dist[idx(n)] = d + s;
                    heap.push(Reverse((d + s, n.x, n.y)));
                }
            }
        }
    }
    (dist[idx(goal)] != u64::MAX).then_some(dist[idx(goal)])
}

/// The Moving AI maps (tests/maps, see SOURCES.md there) read, and on the
/// maze, whose corridors are one cell wide so no diagonal is ever legal,
/// a 4-way search finds every 40th scenario's published optimal length
/// (the `.scen` prints it to 8 decimals; these are whole numbers).
#[test]
fn moving_ai_maze_lengths_match_the_benchmark() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/");
    for m in ["arena", "8room_000", "random512-10-0", "Berlin_0_512"] {
        let g = Grid::read(&std::fs::read_to_string(format!("{dir}{m}.map")).unwrap()).unwrap();
        assert!(g.width() >= 49 && g.height() >= 49, "{m}");
        assert!(g.has_walls(), "{m}");
    }
    let grid =
        Grid::read(&std::fs::read_to_string(format!("{dir}maze512-1-0.map")).unwrap()).unwrap();
    assert_eq!((grid.width(), grid.height()), (512, 512));
    let scen = std::fs::read_to_string(format!("{dir}maze512-1-0.map.scen")).unwrap();
    let cfg = SearchConfig {
        label: "A*".into(),
        heuristic: Heuristic::plain(HeuristicKind::Manhattan),
        ..SearchConfig::default()
    };
    let mut checked = 0;
    for line in scen.lines().skip(1).step_by(40) {
        let f: Vec<&str> = line.split('\t').collect();
        let n = |i: usize| f[i].parse::<i32>().unwrap();
        let (from, to) = (Cell::new(n(4), n(5)), Cell::new(n(6), n(7)));
        let want = f[8].trim().parse::<f64>().unwrap();
        let got = search(&grid, from, to, &cfg, &mut NoTrace).cost;
        assert_eq!(got.map(|c| c as f64), Some(want), "{line}");
        checked += 1;
    }
    assert!(checked > 250, "{checked}");
}

/// In a maze's corridors an untraced run finds a cell's ways on by a mask
/// and leaves out the way back (see `Pace` in `crates/flockstep-core/src/sim/path`); a traced
/// run never does. On the Moving AI maze, bare and with heights strewn on
/// its open cells (so the rule blocks climbs in corridors, and charges
/// them), both give the same cost, path and expansions for every
/// tie-break under Manhattan distances (which tie on `f` often, so the
/// order of pushes shows) and Euclidean ones, with and without a closed
/// set, on one searcher asked query after query (the state it ends each
/// query in is compared whole by a unit test, on smaller mazes).
#[test]
fn untraced_runs_in_a_maze_give_the_traced_search() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/");
    let read = |f: &str| std::fs::read_to_string(format!("{dir}{f}")).unwrap();
    let bare = Grid::read(&read("maze512-1-0.map")).unwrap();
    let mut hilly = bare.clone();
    let mut rng = Pcg32::new(31, 7);
    for y in 0..512 {
        for x in 0..512 {
            let c = Cell::new(x, y);
            if !hilly.is_wall(c) {
                hilly.set_height(c, rng.below(4) as u8);
            }
        }
    }
    let scen = read("maze512-1-0.map.scen");
    let trips: Vec<(Cell, Cell)> = scen
        .lines()
        .skip(1)
        .step_by(2500)
        .map(|line| {
            let f: Vec<i32> = line
                .split('\t')
                .skip(4)
                .take(4)
                .map(|v| v.parse().unwrap())
                .collect();
            (Cell::new(f[0], f[1]), Cell::new(f[2], f[3]))
        })
        .collect();
    assert!(trips.len() >= 5, "{}", trips.len());
    let mut searcher = Searcher::new();
    let mut found = 0;
    for (grid, rule) in [
        (&bare, CostRule::default()),
        (
            &hilly,
            CostRule {
                max_climb: 1,
                uphill_weight: 3,
                ..CostRule::default()
            },
        ),
    ] {
        for kind in [HeuristicKind::Manhattan, HeuristicKind::Euclidean] {
            for &(_, tie_break) in TieBreak::NAMES {
                for closed_set in [true, false] {
                    let cfg = SearchConfig {
                        rule,
                        tie_break,
                        closed_set,
                        heuristic: Heuristic::plain(kind),
                        ..SearchConfig::default()
                    };
                    for &(from, to) in &trips {
                        let mut events = Vec::new();
                        let traced = searcher.search(grid, from, to, &cfg, &mut events);
                        let plain = searcher.search(grid, from, to, &cfg, &mut NoTrace);
                        assert_eq!(
                            (plain.cost, &plain.path, plain.expanded),
                            (traced.cost, &traced.path, traced.expanded),
                            "{from} → {to} {cfg:?}"
                        );
                        found += usize::from(plain.cost.is_some());
                    }
                }
            }
        }
    }
    assert!(found > trips.len() * 16, "{found}");
}

/// One `Searcher` asked query after query (over 1,500, on maps of
/// changing sizes, under every heuristic, tie-break and closed-set switch)
/// answers each exactly as a fresh one: the same cost, path, expansions
/// and every traced event in order (no cell of an earlier query leaks into
/// a later one). `search` (a searcher kept per thread) answers the same.
#[test]
fn a_reused_searcher_answers_as_a_fresh_search() {
    let mut rng = Pcg32::new(18, 1);
    let mut searcher = Searcher::new();
    let kinds = [
        HeuristicKind::Euclidean,
        HeuristicKind::Manhattan,
        HeuristicKind::Zero,
    ];
    let mut queries = 0;
    for _ in 0..60 {
        let (grid, rule) = random_map(&mut rng);
        for _ in 0..20 {
            let (Some(from), Some(to)) = (open_cell(&mut rng, &grid), open_cell(&mut rng, &grid))
            else {
                continue;
            };
            let (_, tie_break) = TieBreak::NAMES[rng.below(TieBreak::NAMES.len() as u32) as usize];
            let cfg = SearchConfig {
                label: "A*".into(),
                rule,
                heuristic: Heuristic::plain(kinds[rng.below(3) as usize]),
                tie_break,
                closed_set: rng.below(4) != 0,
                moves: Moves::Four,
            };
            let (mut a, mut b) = (Vec::<PathEvent>::new(), Vec::<PathEvent>::new());
            let fresh = Searcher::new().search(&grid, from, to, &cfg, &mut a);
            let again = searcher.search(&grid, from, to, &cfg, &mut b);
            assert_eq!(
                (fresh.cost, &fresh.path, fresh.expanded),
                (again.cost, &again.path, again.expanded),
                "{from} → {to} {cfg:?}"
            );
            assert_eq!(a, b, "{from} → {to} {cfg:?}");
            let untraced = searcher.search(&grid, from, to, &cfg, &mut NoTrace);
            assert_eq!(untraced.path, fresh.path);
            let kept = search(&grid, from, to, &cfg, &mut NoTrace);
            assert_eq!(
                (kept.cost, kept.path, kept.expanded),
                (fresh.cost, fresh.path, fresh.expanded)
            );
            queries += 2;
        }
    }
    assert!(queries > 1500, "{queries}");
}
