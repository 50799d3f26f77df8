//! `num` operations next to their `f32` equivalents (the named peer), on the
//! same seeded inputs: square root, normalize, sin/cos, atan2.

mod common;

use criterion::{Criterion, criterion_group};
use fixed::types::I32F32;
use flockstep::num::{Angle, Fx, Pcg32, Vec2};
use std::hint::black_box;

const N: usize = 1024;

struct Inputs {
    fx: Vec<Fx>,
    f: Vec<f32>,
    vec: Vec<Vec2>,
    vf: Vec<(f32, f32)>,
    ang: Vec<Angle>,
    af: Vec<f32>,
}

fn inputs() -> Inputs {
    let mut rng = Pcg32::new(2026, 1);
    let fx: Vec<Fx> = (0..N)
        .map(|_| Fx::from_bits((rng.next_u64() >> 24) as i64))
        .collect();
    let f = fx
        .iter()
        .map(|v| v.to_bits() as f32 / 4294967296.0)
        .collect();
    let vec: Vec<Vec2> = (0..N)
        .map(|_| {
            Vec2::new(
                Fx::from_bits(rng.next_u64() as i64 >> 26),
                Fx::from_bits(rng.next_u64() as i64 >> 26),
            )
        })
        .collect();
    let vf = vec
        .iter()
        .map(|v| {
            (
                v.x.to_bits() as f32 / 4294967296.0,
                v.y.to_bits() as f32 / 4294967296.0,
            )
        })
        .collect();
    let ang: Vec<Angle> = (0..N).map(|_| Angle(rng.next_u32())).collect();
    let af = ang
        .iter()
        .map(|a| a.0 as f32 / 4294967296.0 * std::f32::consts::TAU)
        .collect();
    Inputs {
        fx,
        f,
        vec,
        vf,
        ang,
        af,
    }
}

fn sum_fx(it: impl Iterator<Item = Fx>) -> u64 {
    it.fold(0u64, |s, v| s.wrapping_add(v.to_bits() as u64))
}

fn sum_f(it: impl Iterator<Item = f32>) -> u64 {
    it.fold(0u64, |s, v| s.wrapping_add(v.to_bits() as u64))
}

fn benches(c: &mut Criterion) {
    let i = inputs();
    // Answers first: the fast sqrt equals `fixed`'s exact one.
    for v in &i.fx {
        assert_eq!(v.sqrt().to_fixed(), v.to_fixed().sqrt());
    }
    let mut g = c.benchmark_group("num");
    g.bench_function("Fx::sqrt x1024", |b| {
        b.iter(|| sum_fx(i.fx.iter().map(|v| black_box(*v).sqrt())))
    });
    g.bench_function("fixed I32F32::sqrt x1024", |b| {
        b.iter(|| {
            i.fx.iter().fold(0u64, |s, v| {
                s.wrapping_add(black_box(v.to_fixed()).sqrt().to_bits() as u64)
            })
        })
    });
    g.bench_function("f32::sqrt x1024", |b| {
        b.iter(|| sum_f(i.f.iter().map(|v| black_box(*v).sqrt())))
    });
    g.bench_function("Vec2::normalize x1024", |b| {
        b.iter(|| sum_fx(i.vec.iter().map(|v| black_box(*v).normalize().x)))
    });
    g.bench_function("f32 normalize x1024", |b| {
        b.iter(|| {
            sum_f(i.vf.iter().map(|&(x, y)| {
                let l = black_box(x).hypot(y);
                if l > 0.0 { x / l } else { 0.0 }
            }))
        })
    });
    g.bench_function("Angle::sin+cos x1024", |b| {
        b.iter(|| {
            sum_fx(
                i.ang
                    .iter()
                    .map(|a| black_box(*a).sin() + black_box(*a).cos()),
            )
        })
    });
    g.bench_function("f32::sin_cos x1024", |b| {
        b.iter(|| {
            sum_f(i.af.iter().map(|a| {
                let (s, c) = black_box(*a).sin_cos();
                s + c
            }))
        })
    });
    g.bench_function("Angle::atan2 x1024", |b| {
        b.iter(|| {
            i.vec.iter().fold(0u64, |s, v| {
                s.wrapping_add(Angle::atan2(black_box(v.y), v.x).0 as u64)
            })
        })
    });
    g.bench_function("f32::atan2 x1024", |b| {
        b.iter(|| sum_f(i.vf.iter().map(|&(x, y)| black_box(y).atan2(x))))
    });
    g.finish();
}

fn ratios() {
    let i = inputs();
    println!();
    common::ratio(
        "sqrt",
        N,
        || sum_fx(i.fx.iter().map(|v| black_box(*v).sqrt())),
        "f32",
        || sum_f(i.f.iter().map(|v| black_box(*v).sqrt())),
    );
    common::ratio(
        "sqrt (vs fixed's exact sqrt)",
        N,
        || sum_fx(i.fx.iter().map(|v| black_box(*v).sqrt())),
        "fixed",
        || {
            i.fx.iter().fold(0u64, |s, v| {
                s.wrapping_add(black_box(v.to_fixed()).sqrt().to_bits() as u64)
            })
        },
    );
    common::ratio(
        "normalize",
        N,
        || sum_fx(i.vec.iter().map(|v| black_box(*v).normalize().x)),
        "f32",
        || {
            sum_f(i.vf.iter().map(|&(x, y)| {
                let l = black_box(x).hypot(y);
                if l > 0.0 { x / l } else { 0.0 }
            }))
        },
    );
    common::ratio(
        "sin+cos",
        N,
        || {
            sum_fx(
                i.ang
                    .iter()
                    .map(|a| black_box(*a).sin() + black_box(*a).cos()),
            )
        },
        "f32",
        || {
            sum_f(i.af.iter().map(|a| {
                let (s, c) = black_box(*a).sin_cos();
                s + c
            }))
        },
    );
    common::ratio(
        "atan2",
        N,
        || {
            i.vec.iter().fold(0u64, |s, v| {
                s.wrapping_add(Angle::atan2(black_box(v.y), v.x).0 as u64)
            })
        },
        "f32",
        || sum_f(i.vf.iter().map(|&(x, y)| black_box(y).atan2(x))),
    );
    let _ = I32F32::ZERO;
}

criterion_group!(group, benches);

fn main() {
    group();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
