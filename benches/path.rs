//! A* on generated terrains (article 001's value noise, 5 levels, default
//! cost rule) of 256², 1024² and 2048² cells, between far corners: our
//! untraced search next to the `pathfinding` crate's `astar` with the same
//! cost rule and the same heuristic, in the same process: the default
//! (Euclidean, FIFO ties: ours runs on its calendar queue) and Manhattan
//! (FIFO: our bucket queue); then our search with a full trace (every
//! event into a reused `Vec`) against itself untraced, and the bytes per
//! cell it held.
//!
//! Then the cases users meet: the Moving AI benchmark maps in `tests/maps`
//! (a game arena, a maze, rooms, random obstacles, a city; 4-way moves),
//! ten short and ten long trips of each map's `.scen`, with our default
//! heuristic (Euclidean) and with Manhattan, against the crate with the
//! same heuristic; and short trips on a generated 1024² map (3 + 4 cells
//! apart, and start = goal), where a query should cost what it touches.
//!
//! Prints `RATIO` lines (time ours / peer, the median over runs timed back
//! to back: below 1 is faster) and `MEMORY` lines (per generated map, and
//! per Moving AI map, moves and heuristic). `PATH_BENCH_QUICK=1` runs only
//! the 256² map and the short trips; `PATH_BENCH_SIDES=1024,2048` picks the
//! generated maps; `PATH_BENCH_MAPS=1` runs only the Moving AI maps.

use criterion::{Criterion, criterion_group};
use flockstep::sim::path::{
    Heuristic, HeuristicKind, Moves, PathEvent, SQRT2_16, SearchConfig, Searcher, TieBreak,
    generate, search,
};
use flockstep::sim::{Cell, Grid, NoTrace};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn cfg() -> SearchConfig {
    SearchConfig {
        label: "A*".into(),
        heuristic: Heuristic::plain(HeuristicKind::Manhattan),
        ..SearchConfig::default()
    }
}

/// The benchmark's search with the plain heuristic `kind` and `moves`.
fn with(kind: HeuristicKind, moves: Moves) -> SearchConfig {
    SearchConfig {
        heuristic: Heuristic::plain(kind),
        moves,
        ..cfg()
    }
}

/// How many neighbours `moves` reach (for the printed lines).
fn ways(moves: Moves) -> u32 {
    match moves {
        Moves::Four => 4,
        Moves::Eight => 8,
    }
}

/// The open cell nearest to `c` along the diagonal.
fn open_near(g: &Grid, c: Cell, step: i32) -> Cell {
    let mut c = c;
    while g.is_wall(c) {
        c = Cell::new(c.x + step, c.y + step);
    }
    c
}

/// The same search with the `pathfinding` crate: nodes are (x, y), the
/// successors apply the same cost rule and moves (8-way: the same corner
/// rule, √2 as `SQRT2_16`), the heuristic is ours (`h16`, so costs are
/// scaled by 2¹⁶ too: the same problem, the same bound). The cost comes
/// back in our units (whole for 4-way moves).
fn peer(g: &Grid, start: Cell, goal: Cell, c: &SearchConfig) -> Option<u64> {
    let (w, h) = (g.width() as i32, g.height() as i32);
    let t = g.terrain();
    let (rule, hr) = (c.rule, c.heuristic);
    let at = move |x: i32, y: i32| {
        let v = (x >= 0 && y >= 0 && x < w && y < h).then(|| t[(y * w + x) as usize]);
        v.filter(|&v| v != flockstep::sim::grid::WALL)
    };
    let step = move |ha: u8, hb: Option<u8>| hb.and_then(|hb| rule.cost(ha, hb).ok());
    let eight = c.moves == Moves::Eight;
    pathfinding::prelude::astar(
        &(start.x, start.y),
        |&(x, y)| {
            let ha = at(x, y).unwrap_or(0);
            let orth =
                [(-1, 0), (0, -1), (1, 0), (0, 1)]
                    .into_iter()
                    .filter_map(move |(dx, dy)| {
                        let c = step(ha, at(x + dx, y + dy))?;
                        Some(((x + dx, y + dy), (c as u64) << 16))
                    });
            let diag =
                [(-1, -1), (1, -1), (1, 1), (-1, 1)]
                    .into_iter()
                    .filter_map(move |(dx, dy)| {
                        let hb = at(x + dx, y + dy)?;
                        for o in [at(x + dx, y), at(x, y + dy)] {
                            step(ha, o)?;
                            step(o?, Some(hb))?;
                        }
                        Some(((x + dx, y + dy), step(ha, Some(hb))? as u64 * SQRT2_16))
                    });
            orth.chain(diag.filter(move |_| eight))
        },
        |&(x, y)| hr.h16(x.abs_diff(goal.x), y.abs_diff(goal.y)),
        |&(x, y)| x == goal.x && y == goal.y,
    )
    .map(|(_, cost)| cost >> (16 - c.moves.frac_bits()))
}

/// Alternating timed runs of `a` and `b`: the median time of each, and
/// the median of the ratios `a / b` of runs timed back to back (so a
/// slow spell of a shared machine slows both sides of a ratio).
fn alternate(budget: Duration, mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    a();
    b();
    let start = Instant::now();
    while start.elapsed() < budget || ta.len() < 5 {
        let t = Instant::now();
        a();
        ta.push(t.elapsed());
        let t = Instant::now();
        b();
        tb.push(t.elapsed());
    }
    let mut ratios: Vec<f64> = ta
        .iter()
        .zip(&tb)
        .map(|(a, b)| a.as_secs_f64() / b.as_secs_f64().max(1e-9))
        .collect();
    ratios.sort_by(f64::total_cmp);
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64()
    };
    (median(&mut ta), median(&mut tb), ratios[ratios.len() / 2])
}

fn compare(side: u32) {
    let g = generate(side, side, 5, 2024);
    let s = side as i32;
    let (start, goal) = (
        open_near(&g, Cell::new(1, 1), 1),
        open_near(&g, Cell::new(s - 2, s - 2), -1),
    );
    let budget = Duration::from_millis(if side >= 2048 { 6000 } else { 2500 });
    for kind in [HeuristicKind::Euclidean, HeuristicKind::Manhattan] {
        let c = with(kind, Moves::Four);
        let ours = search(&g, start, goal, &c, &mut NoTrace);
        assert_eq!(ours.cost, peer(&g, start, goal, &c), "same cost");
        let (a, b, r) = alternate(
            budget,
            || {
                black_box(search(&g, start, goal, &c, &mut NoTrace));
            },
            || {
                black_box(peer(&g, start, goal, &c));
            },
        );
        println!(
            "RATIO path {side}x{side} h={:<9} cost {:?} expanded {:>8}  flockstep {:>9.2} ms   pathfinding::astar {:>9.2} ms   ratio {:.3}x (time ours/peer; peer is {:.1}x slower)",
            name(kind),
            ours.cost,
            ours.expanded,
            a * 1e3,
            b * 1e3,
            r,
            1.0 / r
        );
    }
    traced(&g, start, goal, budget);
}

/// The lower-case name of a heuristic.
fn name(kind: HeuristicKind) -> String {
    format!("{kind:?}").to_lowercase()
}

/// Our search with a full trace against itself untraced, and its memory.
fn traced(g: &Grid, start: Cell, goal: Cell, budget: Duration) {
    let c = cfg();
    let ours = search(g, start, goal, &c, &mut NoTrace);
    // The event buffer is reused from run to run (cleared, capacity kept),
    // as a viewer would: the figure is the cost of producing the trace,
    // not of the allocator growing a fresh vector to hundreds of MB.
    let mut events: Vec<PathEvent> = Vec::new();
    let (t, u, r) = alternate(
        budget,
        || {
            events.clear();
            black_box(search(g, start, goal, &c, &mut events));
            black_box(events.len());
        },
        || {
            black_box(search(g, start, goal, &c, &mut NoTrace));
        },
    );
    let side = g.width();
    println!(
        "RATIO path {side}x{side} traced {:>9.2} ms   untraced {:>9.2} ms   ratio {:.2}x (full trace into a reused Vec, {} events)",
        t * 1e3,
        u * 1e3,
        r,
        events.len()
    );
    let cells = (side * side) as usize;
    println!(
        "MEMORY path {side}x{side} {:.2} bytes/cell (search {:.2} + map 1.00)",
        (ours.bytes + cells) as f64 / cells as f64,
        ours.bytes as f64 / cells as f64
    );
}

/// A `.scen` file's scenarios: (bucket, start, goal).
fn scenarios(text: &str) -> Vec<(u32, Cell, Cell)> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| f.get(i)?.trim().parse::<i32>().ok();
            Some((
                n(0)? as u32,
                Cell::new(n(4)?, n(5)?),
                Cell::new(n(6)?, n(7)?),
            ))
        })
        .collect()
}

/// Times a set of trips, ours with `kind` against the crate with the
/// same heuristic, after checking both find the same costs: our default
/// (FIFO ties, the article's) through `search` (a searcher kept per
/// thread, as a game keeps one per map) and on a fresh [`Searcher`] per
/// query (what the first query in a process pays), and `search` with the
/// crate's own tie rule (larger `g`).
fn trips(what: &str, g: &Grid, trips: &[(Cell, Cell)], kind: HeuristicKind, moves: Moves) {
    let c = with(kind, moves);
    let deep = SearchConfig {
        tie_break: TieBreak::LargerG,
        ..c.clone()
    };
    let (mut expanded, mut deep_expanded) = (0u64, 0u64);
    for &(s, t) in trips {
        let ours = search(g, s, t, &c, &mut NoTrace);
        assert_eq!(ours.cost, peer(g, s, t, &c), "{what} {s}→{t}");
        expanded += u64::from(ours.expanded);
        deep_expanded += u64::from(search(g, s, t, &deep, &mut NoTrace).expanded);
    }
    let peer_all = || {
        for &(s, t) in trips {
            black_box(peer(g, s, t, &c));
        }
    };
    let budget = Duration::from_millis(1200);
    let all = |c: &SearchConfig| {
        for &(s, t) in trips {
            black_box(search(g, s, t, c, &mut NoTrace));
        }
    };
    let (a, b, r) = alternate(budget, || all(&c), peer_all);
    let fresh = || {
        for &(s, t) in trips {
            black_box(Searcher::new().search(g, s, t, &c, &mut NoTrace));
        }
    };
    let (f, _, rf) = alternate(budget, fresh, peer_all);
    let (l, _, rl) = alternate(budget, || all(&deep), peer_all);
    let n = trips.len() as f64;
    let each = |e: u64| e / trips.len() as u64;
    println!(
        "RATIO path {what:<32} {}-way h={:<9} {} trips  pathfinding::astar {:>8.3} ms   flockstep fifo {:>8} expanded: {:>8.3} ms ({:.3}x), fresh Searcher {:>8.3} ms ({:.3}x)   larger_g {:>8} expanded: {:>8.3} ms ({:.3}x)   (per trip; ratio = time ours/peer)",
        ways(moves),
        name(kind),
        trips.len(),
        b * 1e3 / n,
        each(expanded),
        a * 1e3 / n,
        r,
        f * 1e3 / n,
        rf,
        each(deep_expanded),
        l * 1e3 / n,
        rl
    );
}

/// The most memory one of `trips` held (with `kind` and `moves`), each
/// asked of a fresh [`Searcher`], whose arrays are sized to this map (the
/// one `search` keeps may have grown on a larger map earlier).
fn memory(map: &str, g: &Grid, trips: &[(Cell, Cell)], kind: HeuristicKind, moves: Moves) {
    let c = with(kind, moves);
    let most = trips
        .iter()
        .map(|&(s, t)| Searcher::new().search(g, s, t, &c, &mut NoTrace).bytes)
        .max()
        .unwrap_or(0);
    let cells = (g.width() * g.height()) as f64;
    println!(
        "MEMORY path {map:<32} {}-way h={:<9} {:.2} bytes/cell (search {:.2} + map 1.00; the most of its long trips)",
        ways(moves),
        name(kind),
        (most as f64 + cells) / cells,
        most as f64 / cells
    );
}

/// Each Moving AI map: ten short trips (the first scenarios, bucket 0-1)
/// and ten long ones (the last, the highest bucket).
fn real_maps() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/maps/");
    for m in [
        "arena",
        "maze512-1-0",
        "8room_000",
        "random512-10-0",
        "Berlin_0_512",
    ] {
        let read = |f: &str| std::fs::read_to_string(format!("{dir}{f}")).unwrap();
        let g = Grid::read(&read(&format!("{m}.map"))).unwrap();
        let all = scenarios(&read(&format!("{m}.map.scen")));
        let pairs = |v: &[(u32, Cell, Cell)]| v.iter().map(|&(_, s, t)| (s, t)).collect::<Vec<_>>();
        let short = pairs(&all[..10]);
        let long = pairs(&all[all.len() - 10..]);
        let four = [HeuristicKind::Euclidean, HeuristicKind::Manhattan].map(|k| (k, Moves::Four));
        let eight = [(HeuristicKind::Octile, Moves::Eight)];
        for (kind, moves) in four.into_iter().chain(eight) {
            let last = all[all.len() - 1].0;
            trips(
                &format!("{m} short (bucket {})", all[0].0),
                &g,
                &short,
                kind,
                moves,
            );
            trips(&format!("{m} long (bucket {last})"), &g, &long, kind, moves);
            memory(m, &g, &long, kind, moves);
        }
    }
}

/// A generated 1024² map: a trip 3 + 4 cells long and one to the start
/// itself, with the default heuristic, each asked 1,000 times per timed
/// run (one such query takes about a microsecond, near the timer's
/// resolution).
fn short_on_big() {
    let g = generate(1024, 1024, 5, 2024);
    let (s, t) = (
        open_near(&g, Cell::new(5, 5), 1),
        open_near(&g, Cell::new(8, 9), 1),
    );
    trips(
        "1024x1024 generated, 3+4 apart",
        &g,
        &[(s, t); 1000],
        HeuristicKind::Euclidean,
        Moves::Four,
    );
    trips(
        "1024x1024 generated, start = goal",
        &g,
        &[(s, s); 1000],
        HeuristicKind::Euclidean,
        Moves::Four,
    );
}

fn bench(c: &mut Criterion) {
    let quick = std::env::var_os("PATH_BENCH_QUICK").is_some();
    if let Ok(list) = std::env::var("PATH_BENCH_SIDES") {
        list.split(',')
            .filter_map(|s| s.trim().parse().ok())
            .for_each(compare);
        return;
    }
    let sides: &[u32] = if quick { &[256] } else { &[256, 1024, 2048] };
    if std::env::var_os("PATH_BENCH_MAPS").is_some() {
        real_maps();
        return;
    }
    for &side in sides {
        compare(side);
    }
    short_on_big();
    if !quick {
        real_maps();
    }
    let g = generate(256, 256, 5, 2024);
    let (start, goal) = (
        open_near(&g, Cell::new(1, 1), 1),
        open_near(&g, Cell::new(254, 254), -1),
    );
    let cfg = cfg();
    c.bench_function("path_256_untraced", |b| {
        b.iter(|| search(&g, start, goal, &cfg, &mut NoTrace))
    });
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
