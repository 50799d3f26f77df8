//! Bresenham cells per second: the explainable [`Stepper`] next to a plain
//! loop of the same rule (the named peer), and a chase tick with and
//! without an explain sink.

mod common;

use criterion::{Criterion, Throughput, criterion_group};
use flockstep::bundled::find_bundled;
use flockstep::lesson::Lesson;
use flockstep::sim::line::{Line, LineEvent, LineSim};
use flockstep::sim::{Cell, NoTrace, Scenario, Sim};
use std::hint::black_box;

/// The article's loop, as plainly as it can be written: no stepper, no
/// records, just the cells folded into a checksum.
fn plain(x0: i32, y0: i32, x1: i32, y1: i32) -> u64 {
    let (mut x, mut y) = (x0, y0);
    let (dx, dy) = ((x1 - x0).abs(), (y1 - y0).abs());
    let (sx, sy) = (if x1 >= x0 { 1 } else { -1 }, if y1 >= y0 { 1 } else { -1 });
    let mut sum = 0u64;
    if dx >= dy {
        let mut f = 2 * dy - dx;
        for _ in 0..dx {
            if f >= 0 {
                y += sy;
                f -= 2 * dx;
            }
            x += sx;
            f += 2 * dy;
            sum = sum
                .wrapping_mul(31)
                .wrapping_add((x as u64) << 32 | y as u32 as u64);
        }
    } else {
        let mut f = 2 * dx - dy;
        for _ in 0..dy {
            if f >= 0 {
                x += sx;
                f -= 2 * dy;
            }
            y += sy;
            f += 2 * dx;
            sum = sum
                .wrapping_mul(31)
                .wrapping_add((x as u64) << 32 | y as u32 as u64);
        }
    }
    sum
}

fn ours(a: Cell, b: Cell) -> u64 {
    Line::new(a, b).stepper().fold(0u64, |s, st| {
        s.wrapping_mul(31)
            .wrapping_add((st.cell.x as u64) << 32 | st.cell.y as u32 as u64)
    })
}

const ENDS: [(i32, i32); 8] = [
    (997, 311),
    (311, 997),
    (-311, 997),
    (-997, 311),
    (-997, -311),
    (-311, -997),
    (311, -997),
    (997, -311),
];

fn all_ours() -> u64 {
    ENDS.iter().fold(0, |s, &(x, y)| {
        s ^ ours(Cell::new(0, 0), Cell::new(black_box(x), y))
    })
}

fn all_plain() -> u64 {
    ENDS.iter()
        .fold(0, |s, &(x, y)| s ^ plain(0, 0, black_box(x), y))
}

fn chase() -> LineSim {
    let b = find_bundled("line-chase-arc").unwrap();
    let l = Lesson::parse(b.source(), b.path).unwrap();
    let Scenario::Line(mut cfg) = l.scenario else {
        panic!("not a line lesson")
    };
    cfg.random_every = 1;
    cfg.random_radius = 2;
    cfg.moves.clear();
    LineSim::new(cfg).unwrap()
}

fn benches(c: &mut Criterion) {
    assert_eq!(
        all_ours(),
        all_plain(),
        "the stepper and the plain loop must agree"
    );
    let cells: u64 = ENDS
        .iter()
        .map(|&(x, y)| Line::new(Cell::new(0, 0), Cell::new(x, y)).len())
        .sum();
    let mut g = c.benchmark_group("bresenham");
    g.throughput(Throughput::Elements(cells));
    g.bench_function("Stepper (flockstep)", |b| b.iter(all_ours));
    g.bench_function("plain loop (peer)", |b| b.iter(all_plain));
    g.finish();

    let mut g = c.benchmark_group("chase tick");
    let mut sim = chase();
    g.bench_function("NoTrace", |b| b.iter(|| sim.step(&mut NoTrace)));
    let mut sim = chase();
    let mut events: Vec<LineEvent> = Vec::with_capacity(64);
    g.bench_function("Vec sink", |b| {
        b.iter(|| {
            events.clear();
            sim.step(&mut events);
        })
    });
    g.finish();
}

fn ratios() {
    let cells: u64 = ENDS
        .iter()
        .map(|&(x, y)| Line::new(Cell::new(0, 0), Cell::new(x, y)).len())
        .sum();
    println!();
    common::ratio(
        "bresenham cell",
        cells as usize,
        all_ours,
        "plain loop",
        all_plain,
    );
    let mut a = chase();
    let mut b = chase();
    let mut events: Vec<LineEvent> = Vec::with_capacity(64);
    common::ratio(
        "chase tick, NoTrace vs Vec",
        1,
        || {
            a.step(&mut NoTrace);
            a.tick()
        },
        "Vec sink",
        || {
            events.clear();
            b.step(&mut events);
            b.tick()
        },
    );
}

criterion_group!(group, benches);

fn main() {
    group();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
