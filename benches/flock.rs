//! Flock ticks per second: the fixed-point core next to an `f32` peer that
//! runs the same rules the way a competent user would write them (array of
//! structs, a uniform grid of index lists built by a counting sort, double
//! buffering), in the same process, from the same warm state.
//!
//! For each model and N = 1,000, 10,000 and 50,000 boids, the world is
//! sized for about 12 boids within the neighbour radius of each boid. Every
//! timed round starts both sims from a clone of the same warmed-up flock
//! (20 ticks), so clustering over time cannot favour either side. Prints
//! `RATIO` lines (time per tick, ours / peer, both on one thread: below 1.0
//! means faster than the peer; and the time per neighbour pair, a tick's
//! time over N × the mean mates within the radius), `THREADS` lines (from
//! N = 10,000: ticks per second on 1 and 2 threads, bit-identical ticks)
//! and `MEMORY` lines (bytes per boid held by our sim, on 1 and 2 threads).
//!
//! `FLOCK_BENCH_QUICK=1` runs only N = 1,000 (for a fast look);
//! `FLOCK_BENCH_MODEL=weighted` (or `heading`, `gems`) only that model;
//! `FLOCK_BENCH_N=10000` only that flock size.

use criterion::{Criterion, criterion_group};
use flockstep::num::{Fx, Vec3};
use flockstep::sim::flock::{
    Bounds, FlockConfig, FlockEvent, FlockSim, GemsParams, HeadingParams, Model, ModelState,
    Numbering, Search, Spawn, Update, WeightedParams,
};
use flockstep::sim::{NoTrace, Sim};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn f(x: Fx) -> f32 {
    (x.to_bits() as f64 / 4294967296.0) as f32
}

fn fx(v: f64) -> Fx {
    Fx::from_bits((v * 4294967296.0).round() as i64)
}

/// A world for `n` boids with about 12 within `radius` of each.
fn config(model: Model, n: u32) -> FlockConfig {
    let r = match &model {
        Model::Heading(p) => f(p.view_range) as f64,
        Model::Gems(p) => f(p.perception) as f64,
        Model::Weighted(p) => f(p.fov) as f64,
    };
    let d3 = !matches!(model, Model::Heading(_));
    let side = if d3 {
        (n as f64 * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3) / 12.0).cbrt()
    } else {
        (n as f64 * std::f64::consts::PI * r * r / 12.0).sqrt()
    };
    let (lo, hi) = (fx(0.0), fx(side));
    let zmax = if d3 { hi } else { Fx::ZERO };
    let (smin, smax, bounds, dt) = match &model {
        Model::Heading(_) => (Fx::from_int(2), Fx::from_int(2), Bounds::Wrap, Fx::ONE),
        Model::Gems(_) => (fx(0.3), fx(0.6), Bounds::Wrap, Fx::ONE),
        Model::Weighted(_) => (
            Fx::from_int(2),
            Fx::from_int(2),
            Bounds::Walls,
            Fx::from_ratio(1, 60).unwrap(),
        ),
    };
    FlockConfig {
        model,
        dims: if d3 { 3 } else { 2 },
        world_min: Vec3::new(lo, lo, Fx::ZERO),
        world_max: Vec3::new(hi, hi, zmax),
        bounds,
        update: Update::DoubleBuffered,
        numbering: Numbering::AsPlaced,
        search: Search::Grid,
        dt,
        dt_jitter: Fx::ZERO,
        frame_seed: 0,
        seed: 7,
        boids: Vec::new(),
        spawn: Some(Spawn {
            count: n,
            min: Vec3::new(lo, lo, Fx::ZERO),
            max: Vec3::new(hi, hi, zmax),
            speed_min: smin,
            speed_max: smax,
        }),
        obstacles: Vec::new(),
    }
}

// ---------------------------------------------------------------- the peer

#[derive(Clone, Copy, Default)]
struct PBoid {
    pos: [f32; 3],
    vel: [f32; 3],
    heading: f32,
    speed: f32,
    acc: [f32; 3],
}

#[derive(Clone)]
struct Peer {
    kind: u8, // 0 heading, 1 gems, 2 weighted
    boids: Vec<PBoid>,
    next: Vec<PBoid>,
    min: [f32; 3],
    max: [f32; 3],
    radius: f32,
    d3: bool,
    rng: u64,
    // grid
    cell_start: Vec<u32>,
    order: Vec<u32>,
    key: Vec<u32>,
    n: [i32; 3],
    size: f32,
}

fn len(v: [f32; 3]) -> f32 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

fn scale(v: [f32; 3], k: f32) -> [f32; 3] {
    [v[0] * k, v[1] * k, v[2] * k]
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn norm(v: [f32; 3]) -> [f32; 3] {
    let l = len(v);
    if l > 0.0 { scale(v, 1.0 / l) } else { v }
}

/// The article's ADJUST_RAD: one add or subtract (inputs are within a
/// turn of the range), not a floating-point remainder.
fn wrap_angle(a: f32) -> f32 {
    let t = std::f32::consts::TAU;
    if a < 0.0 {
        a + t
    } else if a >= t {
        a - t
    } else {
        a
    }
}

fn shortest(from: f32, to: f32) -> f32 {
    let d = to - from;
    let t = std::f32::consts::TAU;
    if d.abs() > t - d.abs() {
        -d.signum() * (t - d.abs())
    } else {
        d
    }
}

impl Peer {
    fn from(sim: &FlockSim) -> Peer {
        let cfg = sim.config();
        let st = sim.state();
        let kind = match cfg.model {
            Model::Heading(_) => 0,
            Model::Gems(_) => 1,
            Model::Weighted(_) => 2,
        };
        let v3 = |v: Vec3| [f(v.x), f(v.y), f(v.z)];
        let boids: Vec<PBoid> = st
            .boids
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let mut p = PBoid {
                    pos: v3(b.pos),
                    vel: v3(b.vel),
                    ..PBoid::default()
                };
                match &st.model {
                    ModelState::Heading { heading } => {
                        p.heading = heading[i].0 as f32 / 4294967296.0 * std::f32::consts::TAU;
                        p.speed = f(sim.speeds()[i]);
                    }
                    ModelState::Weighted { acc } => p.acc = v3(acc[i]),
                    ModelState::Gems { .. } => {}
                }
                p
            })
            .collect();
        Peer {
            kind,
            next: boids.clone(),
            boids,
            min: v3(cfg.world_min),
            max: v3(cfg.world_max),
            radius: f(cfg.model.radius()),
            d3: cfg.dims == 3,
            rng: 0x9E3779B97F4A7C15,
            cell_start: Vec::new(),
            order: Vec::new(),
            key: Vec::new(),
            n: [1; 3],
            size: 1.0,
        }
    }

    fn cell(&self, p: [f32; 3]) -> [i32; 3] {
        let mut c = [0; 3];
        for a in 0..3 {
            c[a] = (((p[a] - self.min[a]) / self.size) as i32).clamp(0, self.n[a] - 1);
        }
        c
    }

    fn build_grid(&mut self) {
        self.size = self.radius;
        for a in 0..3 {
            let ext = if a == 2 && !self.d3 {
                0.0
            } else {
                self.max[a] - self.min[a]
            };
            self.n[a] = (ext / self.size) as i32 + 1;
        }
        let cells = (self.n[0] * self.n[1] * self.n[2]) as usize;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.key.clear();
        for i in 0..self.boids.len() {
            let c = self.cell(self.boids[i].pos);
            let k = ((c[2] * self.n[1] + c[1]) * self.n[0] + c[0]) as u32;
            self.key.push(k);
            self.cell_start[k as usize + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.order.resize(self.boids.len(), 0);
        let mut cursor = self.cell_start.clone();
        for (i, &k) in self.key.iter().enumerate() {
            self.order[cursor[k as usize] as usize] = i as u32;
            cursor[k as usize] += 1;
        }
    }

    fn neighbours(&self, p: [f32; 3], mut visit: impl FnMut(usize)) {
        let c = self.cell(p);
        for cz in (c[2] - 1).max(0)..=(c[2] + 1).min(self.n[2] - 1) {
            for cy in (c[1] - 1).max(0)..=(c[1] + 1).min(self.n[1] - 1) {
                for cx in (c[0] - 1).max(0)..=(c[0] + 1).min(self.n[0] - 1) {
                    let k = ((cz * self.n[1] + cy) * self.n[0] + cx) as usize;
                    for o in self.cell_start[k]..self.cell_start[k + 1] {
                        visit(self.order[o as usize] as usize);
                    }
                }
            }
        }
    }

    fn wrap(&self, mut p: [f32; 3]) -> [f32; 3] {
        let dims = if self.d3 { 3 } else { 2 };
        for (c, (lo, hi)) in p.iter_mut().zip(self.min.iter().zip(&self.max)).take(dims) {
            if *c < *lo {
                *c += hi - lo;
            } else if *c >= *hi {
                *c -= hi - lo;
            }
        }
        p
    }

    fn step(&mut self) {
        match self.kind {
            0 => self.step_heading(),
            1 => self.step_gems(),
            _ => self.step_weighted(),
        }
        std::mem::swap(&mut self.boids, &mut self.next);
    }

    fn step_heading(&mut self) {
        self.build_grid();
        let hp = HeadingParams::default();
        let view = f(hp.view_range);
        let sep_r = f(hp.separate_range);
        let half_pi = std::f32::consts::FRAC_PI_2;
        let sep_max = std::f32::consts::PI / 3.0;
        for i in 0..self.boids.len() {
            let me = self.boids[i];
            let (mut sum, mut align, mut sep, mut seen) = ([0f32; 3], 0f32, 0f32, 0u32);
            self.neighbours(me.pos, |j| {
                if j == i {
                    return;
                }
                let o = &self.boids[j];
                let rel = sub(o.pos, me.pos);
                let d2 = rel[0] * rel[0] + rel[1] * rel[1];
                if d2 > view * view {
                    return;
                }
                let bearing = wrap_angle(rel[1].atan2(rel[0]) - me.heading);
                if bearing >= half_pi && bearing <= std::f32::consts::TAU - half_pi {
                    return;
                }
                seen += 1;
                sum = add(sum, rel);
                align += shortest(me.heading, o.heading);
                if d2 <= sep_r * sep_r {
                    let d = d2.sqrt();
                    let t = sep_max * (sep_r - d) / sep_r;
                    sep += if bearing <= std::f32::consts::PI {
                        -t
                    } else {
                        t
                    };
                }
            });
            let mut turn = 0.0;
            if seen > 0 {
                let n1 = (seen + 1) as f32;
                let avg = scale(sum, 1.0 / n1);
                turn = shortest(me.heading, wrap_angle(avg[1].atan2(avg[0]))) + align / n1 + sep;
            }
            // As the article: bring the turn into [0, 2π) first, then add.
            while !(0.0..std::f32::consts::TAU).contains(&turn) {
                turn = wrap_angle(turn);
            }
            let h = wrap_angle(me.heading + turn);
            let vel = [me.speed * h.cos(), me.speed * h.sin(), 0.0];
            self.next[i] = PBoid {
                pos: self.wrap(add(me.pos, vel)),
                vel,
                heading: h,
                ..me
            };
        }
    }

    fn rand(&mut self) -> u32 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % 100) as u32
    }

    fn step_gems(&mut self) {
        let gp = GemsParams::default();
        let (perc, sep_d) = (f(gp.perception), f(gp.separation_dist));
        let (min_u, max_u) = (f(gp.min_urgency), f(gp.max_urgency));
        let (max_s, want, max_c) = (f(gp.max_speed), f(gp.desired_speed), f(gp.max_change));
        for b in &mut self.boids {
            b.pos = add(b.pos, b.vel);
        }
        self.build_grid();
        let mut list = Vec::with_capacity(64);
        for i in 0..self.boids.len() {
            let me = self.boids[i];
            let jitter = self.rand();
            list.clear();
            let mut nearest = (f32::INFINITY, usize::MAX);
            self.neighbours(me.pos, |j| {
                if j == i {
                    return;
                }
                let d = sub(self.boids[j].pos, me.pos);
                let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if d2 < perc * perc {
                    list.push(j);
                    if (d2, j) < nearest {
                        nearest = (d2, j);
                    }
                }
            });
            if list.len() > gp.max_visible as usize {
                list.sort_unstable();
                list.truncate(gp.max_visible as usize);
            }
            let mut acc = [0f32; 3];
            if nearest.1 != usize::MAX {
                let n = self.boids[nearest.1];
                let dist = nearest.0.sqrt();
                let ratio = (dist / sep_d).clamp(min_u, max_u);
                let u = norm(sub(n.pos, me.pos));
                let s = if dist < sep_d {
                    -ratio
                } else if dist > sep_d {
                    ratio
                } else {
                    0.0
                };
                acc = add(acc, scale(u, s));
                acc = add(acc, scale(norm(n.vel), min_u));
                let mut c = [0f32; 3];
                for &j in &list {
                    c = add(c, sub(self.boids[j].pos, me.pos));
                }
                acc = add(acc, scale(norm(scale(c, 1.0 / list.len() as f32)), min_u));
            }
            let speed = len(me.vel);
            let diff = (speed - want) / max_s;
            let urg = diff.abs().clamp(min_u, max_u);
            let sd = if diff < 0.0 { -1.0 } else { 1.0 };
            let mut w = me.vel;
            match jitter {
                0..45 => w[0] += min_u * sd,
                45..90 => w[2] += min_u * sd,
                _ => w[1] += min_u * sd,
            }
            acc = add(acc, scale(norm(w), urg * -sd));
            if len(acc) > max_c {
                acc = scale(norm(acc), max_c);
            }
            let mut v = add(me.vel, acc);
            if len(v) > max_s {
                v = scale(norm(v), max_s);
            }
            // Roll, pitch and yaw. The article's d · unit((v × d) × v) is
            // the length of d's part perpendicular to v; both sides compute
            // it that way (fewer operations than two cross products).
            let d = sub(v, me.vel);
            let vn = norm(v);
            let along = d[0] * vn[0] + d[1] * vn[1] + d[2] * vn[2];
            let lm = len(sub(d, scale(vn, along)));
            let roll = if lm == 0.0 {
                0.0
            } else {
                std::f32::consts::FRAC_PI_2 - 9.806f32.atan2(lm)
            };
            let pitch = v[1].atan2((v[0] * v[0] + v[2] * v[2]).sqrt());
            let yaw = (-v[0]).atan2(-v[2]);
            self.next[i] = PBoid {
                pos: self.wrap(me.pos),
                vel: v,
                acc: [pitch, yaw, roll],
                ..me
            };
        }
    }

    fn step_weighted(&mut self) {
        let wp = WeightedParams::default();
        let (fov, k, min_d) = (f(wp.fov), f(wp.strength), f(wp.min_distance));
        let (min_s, max_s) = (f(wp.min_speed), f(wp.max_speed));
        let dt = 1.0f32 / 60.0;
        for b in &mut self.boids {
            let dpos = add(scale(b.vel, dt), scale(b.acc, 0.5 * dt * dt));
            let v = add(b.vel, scale(b.acc, dt));
            let s = len(v);
            b.vel = if s > 0.0 {
                scale(v, s.clamp(min_s, max_s) / s)
            } else {
                v
            };
            b.pos = add(b.pos, dpos);
        }
        self.build_grid();
        let dims = if self.d3 { 3 } else { 2 };
        for i in 0..self.boids.len() {
            let me = self.boids[i];
            let (mut sep, mut vs, mut ps, mut n, mut virt) =
                ([0f32; 3], [0f32; 3], [0f32; 3], 0u32, 0u32);
            let term = |diff: [f32; 3], sep: &mut [f32; 3]| {
                let d = len(diff);
                if d > 0.0 {
                    let dm = d.max(min_d);
                    *sep = sub(*sep, scale(diff, k / (d * dm * dm)));
                }
            };
            self.neighbours(me.pos, |j| {
                if j == i {
                    return;
                }
                let o = &self.boids[j];
                let diff = sub(o.pos, me.pos);
                if diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2] > fov * fov {
                    return;
                }
                n += 1;
                vs = add(vs, o.vel);
                ps = add(ps, diff);
                term(diff, &mut sep);
            });
            for a in 0..dims {
                for (d, s) in [
                    (me.pos[a] - self.min[a], -1.0),
                    (self.max[a] - me.pos[a], 1.0),
                ] {
                    if d <= fov {
                        let mut diff = [0f32; 3];
                        diff[a] = s * d;
                        term(diff, &mut sep);
                        virt += 1;
                    }
                }
            }
            let r1 = if n + virt > 0 {
                scale(sep, 1.0 / (n + virt) as f32)
            } else {
                [0.0; 3]
            };
            let (r2, r3) = if n > 0 {
                (
                    sub(scale(vs, 1.0 / n as f32), me.vel),
                    scale(ps, 1.0 / n as f32),
                )
            } else {
                ([0.0; 3], [0.0; 3])
            };
            let acc = scale(add(add(scale(r1, 5.0), scale(r2, 2.0)), r3), 1.0 / 8.0);
            self.next[i] = PBoid { acc, ..me };
        }
    }

    fn checksum(&self) -> u64 {
        self.boids
            .iter()
            .fold(0u64, |s, b| s.wrapping_add(b.pos[0].to_bits() as u64))
    }
}

// ---------------------------------------------------------- the comparison

fn compare(label: &str, model: Model, n: u32) {
    let mut sim = FlockSim::new(config(model, n)).unwrap();
    // The ratio compares like with like: one thread each.
    sim.set_threads(1);
    for _ in 0..20 {
        sim.step(&mut NoTrace);
    }
    // The mean number of mates within the radius, from one traced tick.
    let mut events = Vec::new();
    sim.clone().step(&mut events);
    let (mut mates, mut boids) = (0usize, 0usize);
    for e in &events {
        if let FlockEvent::Boid(b) = e {
            mates += b.neighbours.len();
            boids += 1;
        }
    }
    let mean_mates = mates as f64 / boids.max(1) as f64;
    let peer0 = Peer::from(&sim);
    // From 10,000 boids, ticks on two threads are timed too.
    let mut two = sim.clone();
    two.set_threads(2);
    let threads = n >= 10_000;
    let budget = Duration::from_millis(if n >= 50_000 { 5000 } else { 2500 });
    let (mut t_ours, mut t_two, mut t_peer) = (Vec::new(), Vec::new(), Vec::new());
    // Warm each (allocations, caches), then alternate clone-and-step; the
    // medians of the per-round times resist this machine's noise bursts.
    let mut s = sim.clone();
    s.step(&mut NoTrace);
    let mut s = two.clone();
    s.step(&mut NoTrace);
    let mut p = peer0.clone();
    p.step();
    let time = |sim: &FlockSim| {
        let mut s = sim.clone();
        let t = Instant::now();
        s.step(&mut NoTrace);
        let e = t.elapsed();
        black_box(s.state().boids[0]);
        e
    };
    let start = Instant::now();
    while start.elapsed() < budget || t_ours.len() < 5 {
        t_ours.push(time(&sim));
        if threads {
            t_two.push(time(&two));
        }
        let mut p = peer0.clone();
        let t = Instant::now();
        p.step();
        t_peer.push(t.elapsed());
        black_box(p.checksum());
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64()
    };
    let (a, b) = (median(&mut t_ours), median(&mut t_peer));
    println!(
        "RATIO flock {label:<9} N={n:<6} mates {mean_mates:>5.1}  flockstep {:>9.0} ticks/s ({:>7.1} ns/boid, {:>5.1} ns/pair)   f32-grid-peer {:>9.0} ticks/s ({:>7.1} ns/boid)   ratio {:.2}x (time ours/peer, one thread each; <1 is faster; median of {} rounds)",
        1.0 / a,
        a * 1e9 / n as f64,
        a * 1e9 / (n as f64 * mean_mates),
        1.0 / b,
        b * 1e9 / n as f64,
        a / b,
        t_ours.len()
    );
    if threads {
        let c = median(&mut t_two);
        println!(
            "THREADS flock {label:<9} N={n:<6} 1 thread {:>7.1} ticks/s   2 threads {:>7.1} ticks/s   speed-up {:.2}x   (2 threads / peer {:.2}x)",
            1.0 / a,
            1.0 / c,
            a / c,
            c / b
        );
    }
    if n == 50_000 {
        for t in [1, 2] {
            let mut warm = sim.clone();
            warm.set_threads(t);
            warm.step(&mut NoTrace);
            println!(
                "MEMORY flock {label:<9} N={n:<6} {} bytes/boid on {t} thread{}",
                warm.memory_bytes() / n as usize,
                if t == 1 { "" } else { "s" }
            );
        }
    }
}

fn models() -> Vec<(&'static str, Model)> {
    vec![
        ("heading", Model::Heading(HeadingParams::default())),
        ("gems", Model::Gems(GemsParams::default())),
        ("weighted", Model::Weighted(WeightedParams::default())),
    ]
}

fn bench(c: &mut Criterion) {
    let quick = std::env::var_os("FLOCK_BENCH_QUICK").is_some();
    // FLOCK_BENCH_N=10000 (say) compares one flock size only.
    let one: Option<u32> = std::env::var("FLOCK_BENCH_N")
        .ok()
        .and_then(|n| n.parse().ok());
    let sizes: Vec<u32> = match one {
        Some(n) => vec![n],
        None if quick => vec![1_000],
        None => vec![1_000, 10_000, 50_000],
    };
    // FLOCK_BENCH_MODEL=gems (say) compares one model only.
    let only = std::env::var("FLOCK_BENCH_MODEL").ok();
    for (name, model) in models() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        for &n in &sizes {
            compare(name, model.clone(), n);
        }
    }
    let mut g = c.benchmark_group("flock_tick_1000");
    for (name, model) in models() {
        let mut sim = FlockSim::new(config(model, 1000)).unwrap();
        g.bench_function(name, |b| b.iter(|| sim.step(&mut NoTrace)));
    }
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
