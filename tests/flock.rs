//! The flock sims: grid == brute force, every teaching switch changes what
//! it claims to change, explain records, limits, and the memory budget.

use flockstep::bundled::find_bundled;
use flockstep::lesson::{Lesson, Override};
use flockstep::num::{Angle, Fx, Pcg32, Vec3};
use flockstep::sim::flock::{
    BoidExplain, BoidInit, Bounds, COORD_LIMIT, FlockConfig, FlockEvent, FlockSim, GemsParams,
    HeadingParams, MAX_RADIUS, MAX_SPEED, Model, ModelState, Numbering, Obstacle, Search, Spawn,
    Steer, Update, WeightedParams,
};
use flockstep::sim::{NoTrace, Scenario, Sim};
use std::fmt::Write as _;

fn lesson(id: &str, sets: &[&str]) -> Lesson {
    let b = find_bundled(id).unwrap_or_else(|| panic!("no lesson {id}"));
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    Lesson::parse_with(b.source(), b.path, &o).unwrap_or_else(|e| panic!("{e}"))
}

/// The lesson's flock (with variants: the first pane's).
fn flock_cfg(l: &Lesson) -> FlockConfig {
    match &l.scenario.panes()[0] {
        Scenario::Flock(c) => c.clone(),
        _ => panic!("{} is not a flock lesson", l.id),
    }
}

fn sim(id: &str, sets: &[&str]) -> FlockSim {
    FlockSim::new(flock_cfg(&lesson(id, sets))).unwrap()
}

/// Pane `i` of a lesson with variants.
fn pane(id: &str, i: usize) -> FlockSim {
    match &lesson(id, &[]).scenario.panes()[i] {
        Scenario::Flock(c) => FlockSim::new(c.clone()).unwrap(),
        _ => panic!("{id}: pane {i} is not a flock"),
    }
}

fn explains(s: &mut FlockSim) -> Vec<BoidExplain> {
    let mut ev = Vec::new();
    s.step(&mut ev);
    ev.into_iter()
        .filter_map(|e| match e {
            FlockEvent::Boid(b) => Some(*b),
            FlockEvent::Tick { .. } | FlockEvent::Alone(_) => None,
        })
        .collect()
}

fn headings(s: &FlockSim) -> Vec<Angle> {
    match &s.state().model {
        ModelState::Heading { heading } => heading.clone(),
        _ => panic!("not the heading model"),
    }
}

/// Degrees of a signed binary-angle turn.
fn deg(turn: i64) -> f64 {
    turn as f64 * 360.0 / 4294967296.0
}

fn heading_deg(a: Angle) -> f64 {
    a.0 as f64 * 360.0 / 4294967296.0
}

fn fx(v: f64) -> Fx {
    Fx::from_bits((v * 4294967296.0).round() as i64)
}

/// A random world for a model: boids, obstacles, bounds, sizes.
fn random_world(rng: &mut Pcg32, model: Model, dims: u8) -> FlockConfig {
    let side = 60 + rng.below(200) as i32;
    let n = 50 + rng.below(250);
    let lo = Vec3::from_ints(-side / 2, 0, if dims == 3 { -side / 2 } else { 0 });
    let hi = Vec3::from_ints(side / 2, side, if dims == 3 { side / 2 } else { 0 });
    let heading = matches!(model, Model::Heading(_));
    let gems = matches!(model, Model::Gems(_));
    let bounds = match (rng.below(3), heading || gems) {
        (0, false) => Bounds::Walls,
        (1, _) => Bounds::Open,
        _ => Bounds::Wrap,
    };
    let obstacles = if gems {
        Vec::new()
    } else {
        (0..rng.below(4))
            .map(|_| Obstacle {
                center: Vec3::new(
                    fx((rng.below(side as u32) as i32 - side / 2) as f64),
                    fx(rng.below(side as u32) as f64),
                    if dims == 3 {
                        fx((rng.below(side as u32) as i32 - side / 2) as f64)
                    } else {
                        Fx::ZERO
                    },
                ),
                radius: Fx::from_int(rng.below(8) as i32),
            })
            .collect()
    };
    let (smin, smax) = match model {
        Model::Gems(_) => (fx(0.3), fx(0.6)),
        _ => (Fx::from_int(1), Fx::from_int(3)),
    };
    FlockConfig {
        model,
        dims,
        world_min: lo,
        world_max: hi,
        bounds,
        update: Update::DoubleBuffered,
        numbering: Numbering::AsPlaced,
        search: Search::Grid,
        dt: if heading || gems {
            Fx::ONE
        } else {
            Fx::from_ratio(1, 30).unwrap()
        },
        dt_jitter: Fx::ZERO,
        frame_seed: 0,
        seed: rng.next_u64() >> 1,
        boids: Vec::new(),
        spawn: Some(Spawn {
            count: n,
            min: lo,
            max: hi,
            speed_min: smin,
            speed_max: smax,
        }),
        obstacles,
    }
}

#[test]
fn grid_search_equals_brute_force_for_every_model() {
    let mut rng = Pcg32::new(2024, 3);
    let cases: Vec<(Model, u8)> = vec![
        (Model::Heading(HeadingParams::default()), 2),
        (
            Model::Heading(HeadingParams {
                view_range: Fx::from_int(20),
                separate_range: Fx::from_int(8),
                ..HeadingParams::default()
            }),
            2,
        ),
        (Model::Gems(GemsParams::default()), 3),
        (
            Model::Gems(GemsParams {
                view_angle: Some(Angle::from_degrees_int(120)),
                max_visible: 3,
                ..GemsParams::default()
            }),
            3,
        ),
        (Model::Weighted(WeightedParams::default()), 3),
        (Model::Weighted(WeightedParams::default()), 2),
    ];
    for (model, dims) in cases {
        for world in 0..4 {
            let cfg = random_world(&mut rng, model.clone(), dims);
            let mut grid = FlockSim::new(cfg.clone()).unwrap();
            let mut brute = FlockSim::new(FlockConfig {
                search: Search::Brute,
                ..cfg.clone()
            })
            .unwrap();
            for t in 0..40 {
                if t % 10 == 0 {
                    // Traced ticks: the explain records agree too.
                    assert_eq!(
                        explains(&mut grid),
                        explains(&mut brute),
                        "{} {dims}-D world {world} tick {t}",
                        model.name()
                    );
                } else {
                    grid.step(&mut NoTrace);
                    brute.step(&mut NoTrace);
                }
                assert_eq!(
                    grid.state(),
                    brute.state(),
                    "{} {dims}-D world {world}: grid and brute force differ after tick {t}",
                    model.name()
                );
            }
        }
    }
}

#[test]
fn tracing_does_not_change_the_result() {
    for id in [
        "flock-weights",
        "flock-aquarium",
        "flock-in-place",
        "flock-obstacle",
    ] {
        let mut a = sim(id, &[]);
        let mut b = sim(id, &[]);
        for _ in 0..30 {
            a.step(&mut NoTrace);
            let _ = explains(&mut b);
        }
        assert_eq!(a.state(), b.state(), "{id}");
    }
}

/// Article 000 divides by the mates seen + 1: with one mate 60° off, boid 0
/// turns half way; dividing by the mates alone, all the way. Boid 2's three
/// mates (90°, 60°, 0°) give 150/4 against 150/3.
#[test]
fn counting_the_boid_itself_scales_the_alignment_turn() {
    let turns = |i: usize| {
        let mut s = pane("flock-self-in-average", i);
        s.step(&mut NoTrace);
        let h = headings(&s);
        [heading_deg(h[0]), heading_deg(h[2])]
    };
    let (counted, mates) = (turns(0), turns(1));
    for (got, want) in counted.iter().zip([30.0, 37.5]) {
        assert!((got - want).abs() < 0.01, "itself counted: {counted:?}");
    }
    for (got, want) in mates.iter().zip([60.0, 50.0]) {
        assert!((got - want).abs() < 0.01, "mates only: {mates:?}");
    }
}

#[test]
fn naive_angle_average_reproduces_the_30_330_bug() {
    let mut on = sim("flock-angle-average", &[]);
    let ex = explains(&mut on);
    let h = headings(&on)[0];
    assert!(
        (heading_deg(h) - 120.0).abs() < 0.01,
        "with the bug, (0 + 30 + 330) / 3 = 120°, got {}",
        heading_deg(h)
    );
    assert_eq!(ex[0].neighbours, vec![1, 2]);
    // The lesson's second pane runs the article's shortest turns.
    let l = lesson("flock-angle-average", &[]);
    let Scenario::Flock(c) = &l.scenario.panes()[1] else {
        panic!("the second pane is a flock")
    };
    assert!(matches!(&c.model, Model::Heading(h) if !h.naive_angle_average));
    let mut off = FlockSim::new(c.clone()).unwrap();
    let ex = explains(&mut off);
    let h = headings(&off)[0];
    let turn = h.0 as i32 as f64 * 360.0 / 4294967296.0;
    assert!(
        turn.abs() < 0.01,
        "shortest turns +30° and −30° cancel, got {turn}°"
    );
    let align = ex[0]
        .rules
        .iter()
        .find(|(r, _)| matches!(r, flockstep::sim::flock::Rule::Alignment))
        .unwrap()
        .1;
    assert_eq!(align, Steer::Turn(0));
}

#[test]
fn obstacles_behind_steer_unless_switched_off() {
    let turn_of = |s: &FlockSim, id: usize| {
        let h = headings(s)[id];
        h.0 as i32 as f64 * 360.0 / 4294967296.0
    };
    // The lesson's panes: the article's rule, then obstacles behind
    // ignored.
    let mut faithful = pane("flock-obstacle", 0);
    let ex = explains(&mut faithful);
    // Boid 0: an obstacle 50 ahead, 10 to the left: −60° · 30/80 = −22.5°.
    assert!((turn_of(&faithful, 0) + 22.5).abs() < 0.01);
    // Boid 1: an obstacle 40 *behind* still turns it by 60° · 40/80 = 30°.
    assert!(
        (turn_of(&faithful, 1) + 30.0).abs() < 0.01,
        "{}",
        turn_of(&faithful, 1)
    );
    let f = ex[1].feelers.iter().find(|f| f.obstacle == 1).unwrap();
    assert!(f.steered && f.projection < Fx::ZERO);

    let mut fixed = pane("flock-obstacle", 1);
    let ex = explains(&mut fixed);
    assert!((turn_of(&fixed, 0) + 22.5).abs() < 0.01);
    assert_eq!(turn_of(&fixed, 1), 0.0);
    assert!(!ex[1].feelers.iter().any(|f| f.steered));
}

#[test]
fn the_blind_zone_makes_following_one_way() {
    let mut s = sim("flock-field-of-view", &[]);
    let ex = explains(&mut s);
    assert_eq!(
        ex[0].neighbours,
        vec![2],
        "the leader does not see its follower"
    );
    assert_eq!(ex[1].neighbours, vec![0, 2], "the follower sees the leader");
    let mut all = sim("flock-field-of-view", &["fov=360"]);
    let ex = explains(&mut all);
    // Only the exact rear is blind at 360°: boid 1 is dead behind boid 0.
    assert_eq!(ex[0].neighbours, vec![2]);
    let mut side = sim("flock-field-of-view", &["fov=90"]);
    let ex = explains(&mut side);
    // Boid 2 is 78.7° to the leader's left: outside a 90° field of view.
    assert!(ex[0].neighbours.is_empty());
}

/// How often a fish has a mate closer than 1 (the tank's pile-ups).
fn close_encounters(mut s: FlockSim, ticks: u64) -> usize {
    let mut count = 0;
    let one = Fx::ONE;
    for _ in 0..ticks {
        s.step(&mut NoTrace);
        let b = &s.state().boids;
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                if (b[i].pos - b[j].pos).fast_length() < one {
                    count += 1;
                }
            }
        }
    }
    count
}

#[test]
fn a_view_angle_causes_rear_end_pile_ups() {
    // The figures flock-aquarium-view-angle's last beat cites: pair-ticks
    // closer than 1 over the lesson's 600 ticks (the sims are
    // deterministic, so these are exact).
    let without = close_encounters(pane("flock-aquarium-view-angle", 0), 600);
    let with = close_encounters(pane("flock-aquarium-view-angle", 1), 600);
    assert_eq!(
        (with, without),
        (621, 5),
        "pile-ups with a view angle, without"
    );
}

/// The same boids listed in a different order.
fn permuted(l: &Lesson, update: Update) -> (FlockSim, FlockSim, Vec<usize>) {
    let cfg = flock_cfg(l);
    let start = FlockSim::new(cfg.clone()).unwrap();
    let hs = headings(&start);
    let inits: Vec<BoidInit> = start
        .state()
        .boids
        .iter()
        .enumerate()
        .map(|(i, b)| BoidInit {
            pos: b.pos,
            vel: Vec3::ZERO,
            heading: hs[i],
            speed: start.speeds()[i],
        })
        .collect();
    let n = inits.len();
    let order: Vec<usize> = (0..n).map(|i| (i * 7 + 3) % n).collect();
    let explicit = FlockConfig {
        update,
        spawn: None,
        boids: inits.clone(),
        ..cfg.clone()
    };
    let shuffled = FlockConfig {
        boids: order.iter().map(|&i| inits[i]).collect(),
        ..explicit.clone()
    };
    (
        FlockSim::new(explicit).unwrap(),
        FlockSim::new(shuffled).unwrap(),
        order,
    )
}

#[test]
fn in_place_updates_depend_on_iteration_order_and_double_buffering_does_not() {
    let l = lesson("flock-in-place", &[]);
    assert_eq!(flock_cfg(&l).update, Update::InPlace);
    let same_after = |update: Update| {
        let (mut a, mut b, order) = permuted(&l, update);
        for _ in 0..100 {
            a.step(&mut NoTrace);
            b.step(&mut NoTrace);
        }
        let (ha, hb) = (headings(&a), headings(&b));
        order
            .iter()
            .enumerate()
            .all(|(k, &i)| a.state().boids[i] == b.state().boids[k] && ha[i] == hb[k])
    };
    assert!(
        same_after(Update::DoubleBuffered),
        "double buffering: renumbering the boids renumbers the result"
    );
    assert!(
        !same_after(Update::InPlace),
        "in place: renumbering the boids changes the flock"
    );
}

#[test]
fn variable_dt_is_not_reproducible_across_machines_and_fixed_dt_is() {
    // The lesson's panes: varying dt on machines 1 and 2, then fixed dt
    // on the same two.
    let hash_after = |i: usize| {
        let mut s = pane("flock-variable-dt", i);
        for _ in 0..60 {
            s.step(&mut NoTrace);
        }
        s.state_hash()
    };
    assert_ne!(hash_after(0), hash_after(1));
    assert_eq!(hash_after(0), hash_after(0), "a seed is a seed");
    assert_eq!(
        hash_after(2),
        hash_after(3),
        "with a fixed dt the machine does not matter"
    );
    let mut s = pane("flock-variable-dt", 0);
    let dts: Vec<Fx> = (0..5)
        .map(|_| {
            s.step(&mut NoTrace);
            s.state().dt
        })
        .collect();
    assert!(dts.windows(2).any(|w| w[0] != w[1]), "{dts:?}");
}

#[test]
fn weights_change_the_flock() {
    let hash = |sets: &[&str]| {
        let mut s = sim("flock-weights", sets);
        for _ in 0..60 {
            s.step(&mut NoTrace);
        }
        s.state_hash()
    };
    let base = hash(&[]);
    assert_ne!(base, hash(&["w_separation=1"]));
    assert_ne!(base, hash(&["w_cohesion=5"]));
    assert_ne!(base, hash(&["w_alignment=0"]));
}

#[test]
fn separation_alone_spreads_a_cluster() {
    let spread = |s: &FlockSim| {
        let b = &s.state().boids;
        let mut close = 0;
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                if (b[i].pos - b[j].pos).fast_length() < Fx::from_int(2) {
                    close += 1;
                }
            }
        }
        close
    };
    let mut s = sim("flock-separation", &[]);
    let before = spread(&s);
    for _ in 0..120 {
        s.step(&mut NoTrace);
    }
    assert!(
        spread(&s) * 4 < before,
        "pairs closer than 2: {before} → {}",
        spread(&s)
    );
}

#[test]
fn walls_put_virtual_boids_at_the_foot_of_the_perpendicular() {
    let mut s = sim("flock-walls", &[]);
    for _ in 0..5 {
        s.step(&mut NoTrace);
    }
    let ex = explains(&mut s);
    let mut checked = 0;
    for e in &ex {
        // Positions at the time the rules ran: after this tick's move.
        let p = s.state().boids[e.id as usize].pos;
        for w in &e.wall_boids {
            // A virtual boid shares all coordinates but one with the boid,
            // and that one lies on a wall.
            let same = [w.x == p.x, w.y == p.y, w.z == p.z];
            assert_eq!(same.iter().filter(|s| **s).count(), 2, "{w:?} vs {p:?}");
            let on_wall = [
                w.x == Fx::from_int(-10) || w.x == Fx::from_int(10),
                w.y == Fx::ZERO || w.y == Fx::from_int(20),
                w.z == Fx::from_int(-10) || w.z == Fx::from_int(10),
            ];
            assert!(on_wall.iter().any(|b| *b), "{w:?}");
            checked += 1;
        }
    }
    assert!(checked > 10, "only {checked} wall boids in a tick");
}

/// The explain records of chosen boids at chosen ticks, for review.
#[test]
fn explain_records_snapshot() {
    let mut out = String::new();
    for (id, tick, boids) in [
        ("flock-field-of-view", 0u64, &[0u32, 1][..]),
        ("flock-obstacle", 0, &[0, 1][..]),
        ("flock-aquarium", 10, &[0, 1][..]),
        ("flock-walls", 120, &[0, 1][..]),
    ] {
        let mut s = sim(id, &[]);
        while s.tick() < tick {
            s.step(&mut NoTrace);
        }
        let ex = explains(&mut s);
        for &b in boids {
            let e = &ex[b as usize];
            let _ = writeln!(out, "== {id} tick {tick} boid {b}");
            let _ = writeln!(out, "neighbours {:?} nearest {:?}", e.neighbours, e.nearest);
            for (rule, steer) in &e.rules {
                let _ = writeln!(out, "  {rule:?}: {steer}");
            }
            for f in &e.feelers {
                let _ = writeln!(
                    out,
                    "  feeler obstacle {} projection {} perpendicular {} turn {} steered {}",
                    f.obstacle,
                    f.projection,
                    f.perpendicular,
                    Steer::Turn(f.turn),
                    f.steered
                );
            }
            for w in &e.wall_boids {
                let _ = writeln!(out, "  wall boid ({}, {}, {})", w.x, w.y, w.z);
            }
            let _ = writeln!(out, "  clamps {:?}", e.clamps);
            let _ = writeln!(out, "  steering {}", e.steering);
        }
    }
    insta::assert_snapshot!("flock_explain", out);
}

#[test]
fn explain_turns_add_up_to_the_heading_change() {
    // The lesson's third pane: double-buffered.
    let mut s = pane("flock-in-place", 2);
    assert_eq!(s.config().update, Update::DoubleBuffered);
    for _ in 0..20 {
        s.step(&mut NoTrace);
    }
    let before = headings(&s);
    let ex = explains(&mut s);
    let after = headings(&s);
    for e in &ex {
        let Steer::Turn(total) = e.steering else {
            panic!("heading model steers by turns")
        };
        let sum: i64 = e
            .rules
            .iter()
            .map(|(_, s)| match s {
                Steer::Turn(t) => *t,
                Steer::Vector(_) => panic!("vector in the heading model"),
            })
            .sum();
        assert_eq!(sum, total, "boid {}", e.id);
        let i = e.id as usize;
        assert_eq!(before[i].0.wrapping_add(total as u32), after[i].0);
    }
}

fn extreme(model: Model, dims: u8, bounds: Bounds) -> FlockConfig {
    let lim = Fx::from_int(COORD_LIMIT);
    let lo = Vec3::new(-lim, -lim, if dims == 3 { -lim } else { Fx::ZERO });
    let hi = Vec3::new(lim, lim, if dims == 3 { lim } else { Fx::ZERO });
    let s = Fx::from_int(MAX_SPEED);
    // Boids at the corners, flying outwards at top speed, plus a dense pile.
    let mut boids = Vec::new();
    for (i, &(x, y)) in [(-1, -1), (1, 1), (-1, 1), (1, -1)].iter().enumerate() {
        let c = |v: i32| if v < 0 { -lim } else { lim };
        boids.push(BoidInit {
            pos: Vec3::new(c(x), c(y), if dims == 3 { c(x) } else { Fx::ZERO }),
            vel: Vec3::new(
                s * Fx::from_int(x) / Fx::from_int(2),
                s * Fx::from_int(y) / Fx::from_int(2),
                Fx::ZERO,
            ),
            heading: Angle::from_degrees_int(45 + 90 * i as i64),
            speed: s,
        });
    }
    for i in 0..40 {
        boids.push(BoidInit {
            pos: Vec3::new(Fx::from_bits(i), Fx::from_bits(-i), Fx::ZERO),
            vel: Vec3::new(s / Fx::from_int(3), Fx::ZERO, Fx::ZERO),
            heading: Angle(i as u32 * 1_000_003),
            speed: s,
        });
    }
    FlockConfig {
        model,
        dims,
        world_min: lo,
        world_max: hi,
        bounds,
        update: Update::DoubleBuffered,
        numbering: Numbering::AsPlaced,
        search: Search::Grid,
        dt: Fx::from_int(10),
        dt_jitter: Fx::ZERO,
        frame_seed: 0,
        seed: 1,
        boids,
        spawn: None,
        obstacles: vec![Obstacle {
            center: Vec3::ZERO,
            radius: Fx::from_int(MAX_RADIUS),
        }],
    }
}

#[test]
fn worlds_at_the_documented_limits_run_without_panic_or_wrap() {
    let r = Fx::from_int(MAX_RADIUS);
    let s = Fx::from_int(MAX_SPEED);
    let models = [
        (
            Model::Heading(HeadingParams {
                view_range: r,
                separate_range: r,
                check_distance: r,
                check_range: r,
                ..HeadingParams::default()
            }),
            2,
        ),
        (
            Model::Gems(GemsParams {
                perception: r,
                separation_dist: r,
                max_speed: s,
                desired_speed: s,
                max_change: s,
                max_urgency: s,
                ..GemsParams::default()
            }),
            3,
        ),
        (
            Model::Weighted(WeightedParams {
                fov: r,
                max_speed: s,
                min_speed: s,
                w_separation: Fx::from_int(100),
                ..WeightedParams::default()
            }),
            3,
        ),
        (
            Model::Weighted(WeightedParams {
                fov: r,
                max_speed: s,
                strength: Fx::from_int(2500),
                ..WeightedParams::default()
            }),
            2,
        ),
    ];
    let lim = Fx::from_int(COORD_LIMIT);
    for (model, dims) in models {
        for bounds in [Bounds::Wrap, Bounds::Open, Bounds::Walls] {
            let mut cfg = extreme(model.clone(), dims, bounds);
            if matches!(model, Model::Gems(_)) {
                cfg.obstacles.clear();
            }
            let Ok(mut s) = FlockSim::new(cfg) else {
                continue; // walls with a model that has none: refused
            };
            for t in 0..30 {
                s.step(&mut NoTrace);
                for b in &s.state().boids {
                    for c in [b.pos.x, b.pos.y, b.pos.z] {
                        assert!(
                            c.abs() <= lim,
                            "{} {bounds:?} tick {t}: {c} outside the limit",
                            model.name()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_coordinate_limit_clamp_is_reported() {
    let mut cfg = extreme(Model::Weighted(WeightedParams::default()), 2, Bounds::Open);
    cfg.obstacles.clear();
    let mut s = FlockSim::new(cfg).unwrap();
    let ex = explains(&mut s);
    assert!(
        ex[0]
            .clamps
            .contains(&flockstep::sim::flock::Clamp::CoordLimit)
    );
}

/// The three models with their articles' parameters.
fn every_model() -> [Model; 3] {
    [
        Model::Heading(HeadingParams::default()),
        Model::Gems(GemsParams::default()),
        Model::Weighted(WeightedParams::default()),
    ]
}

#[test]
fn memory_stays_under_200_bytes_per_boid() {
    for model in every_model() {
        let d3 = !matches!(model, Model::Heading(_));
        let hi = Vec3::from_ints(1000, 1000, if d3 { 1000 } else { 0 });
        let n = 50_000;
        let cfg = FlockConfig {
            model: model.clone(),
            dims: if d3 { 3 } else { 2 },
            world_min: Vec3::ZERO,
            world_max: hi,
            bounds: Bounds::Wrap,
            update: Update::DoubleBuffered,
            numbering: Numbering::AsPlaced,
            search: Search::Grid,
            dt: Fx::ONE,
            dt_jitter: Fx::ZERO,
            frame_seed: 0,
            seed: 3,
            boids: Vec::new(),
            spawn: Some(Spawn {
                count: n,
                min: Vec3::ZERO,
                max: hi,
                speed_min: Fx::ONE,
                speed_max: Fx::ONE,
            }),
            obstacles: Vec::new(),
        };
        let mut s = FlockSim::new(cfg).unwrap();
        s.step(&mut NoTrace);
        let per = s.memory_bytes() / n as usize;
        assert!(per <= 200, "{}: {per} bytes per boid", model.name());
    }
}

/// A boid dropped into a running flock costs about its own bytes: the
/// arrays refilled every tick (the snapshot, the pair lists) are sized
/// exactly, and the per-boid ones grow by a little, not by doubling.
#[test]
fn a_flock_grown_by_a_boid_holds_no_spare_copy() {
    for model in every_model() {
        let d3 = !matches!(model, Model::Heading(_));
        let hi = Vec3::from_ints(300, 300, if d3 { 300 } else { 0 });
        let n = 6_000;
        let mut cfg = placed(
            model.clone(),
            if d3 { 3 } else { 2 },
            hi,
            Vec::new(),
            Search::Grid,
        );
        cfg.spawn = Some(Spawn {
            count: n,
            min: Vec3::ZERO,
            max: hi,
            speed_min: Fx::ONE,
            speed_max: Fx::ONE,
        });
        let mut s = FlockSim::new(cfg).unwrap();
        s.set_threads(1);
        for _ in 0..3 {
            s.step(&mut NoTrace);
        }
        let before = s.memory_bytes();
        s.add_boid(
            Vec3::from_ints(150, 150, if d3 { 150 } else { 0 }),
            Vec3::ZERO,
        )
        .unwrap();
        for _ in 0..3 {
            s.step(&mut NoTrace);
        }
        let after = s.memory_bytes();
        assert!(
            after <= before + before / 50,
            "{}: {before} bytes for {n} boids, {after} for one more",
            model.name()
        );
    }
}

#[test]
fn scaling_a_lesson_with_set_boids() {
    for (id, n) in [
        ("flock-weights", 500u64),
        ("flock-aquarium", 300),
        ("flock-in-place", 200),
    ] {
        // `boids` counts the generated boids; placed ones come on top.
        let l = lesson(id, &[&format!("boids={n}")]);
        let n = n + flock_cfg(&l).boids.len() as u64;
        assert_eq!(flock_cfg(&l).boid_count(), n);
        let mut s = FlockSim::new(flock_cfg(&l)).unwrap();
        for _ in 0..3 {
            s.step(&mut NoTrace);
        }
        assert_eq!(s.state().boids.len() as u64, n);
    }
}

#[test]
fn at_least_ten_flock_lessons_and_each_model_is_taught() {
    let flock: Vec<Lesson> = flockstep::bundled::BUNDLED
        .iter()
        .map(|b| Lesson::parse(b.source(), b.path).unwrap())
        .filter(|l| l.scenario.sim_name() == "flock")
        .collect();
    assert!(flock.len() >= 10, "{} flock lessons", flock.len());
    for m in ["heading", "gems", "weighted"] {
        assert!(
            flock.iter().any(|l| flock_cfg(l).model.name() == m),
            "no lesson for the {m} model"
        );
    }
}

fn f(x: Fx) -> f64 {
    x.to_bits() as f64 / 4294967296.0
}

fn v3(v: Vec3) -> [f64; 3] {
    [f(v.x), f(v.y), f(v.z)]
}

fn close(a: [f64; 3], b: Vec3, tol: f64, what: &str) {
    let b = v3(b);
    for i in 0..3 {
        assert!(
            (a[i] - b[i]).abs() <= tol * (1.0 + a[i].abs()),
            "{what}: f64 {a:?} vs fixed {b:?}"
        );
    }
}

/// The weighted model's rules recomputed in f64 from the state the rules
/// read (after this tick's move): an independent check of every sum,
/// mean and term, not just of determinism.
#[test]
fn weighted_rules_match_an_f64_recomputation() {
    for id in ["flock-weights", "flock-walls", "flock-separation"] {
        let mut s = sim(id, &[]);
        for _ in 0..30 {
            s.step(&mut NoTrace);
        }
        let ex = explains(&mut s);
        let cfg = s.config().clone();
        let Model::Weighted(p) = &cfg.model else {
            panic!()
        };
        let b = &s.state().boids;
        let (k, fov) = (f(p.strength), f(p.fov));
        for e in ex.iter().take(40) {
            let me = &b[e.id as usize];
            let (pos, vel) = (v3(me.pos), v3(me.vel));
            let (mut sep, mut vs, mut ps) = ([0.0; 3], [0.0; 3], [0.0; 3]);
            let mut count = 0usize;
            for (j, o) in b.iter().enumerate() {
                let d: Vec<f64> = (0..3).map(|a| v3(o.pos)[a] - pos[a]).collect();
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                if j == e.id as usize || len > fov {
                    continue;
                }
                count += 1;
                for a in 0..3 {
                    sep[a] -= d[a] / len * k / (len * len);
                    vs[a] += v3(o.vel)[a];
                    ps[a] += d[a];
                }
            }
            assert_eq!(count, e.neighbours.len(), "{id} boid {}", e.id);
            for w in &e.wall_boids {
                let d: Vec<f64> = (0..3).map(|a| v3(*w)[a] - pos[a]).collect();
                let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                for a in 0..3 {
                    sep[a] -= d[a] / len * k / (len * len);
                }
            }
            let rule = |r: flockstep::sim::flock::Rule| match e.rules.iter().find(|x| x.0 == r) {
                Some((_, Steer::Vector(v))) => *v,
                _ => panic!("no {r:?}"),
            };
            use flockstep::sim::flock::Rule;
            let total = (count + e.wall_boids.len()).max(1) as f64;
            if e.clamps
                .iter()
                .all(|c| !matches!(c, flockstep::sim::flock::Clamp::PushCapped(_)))
            {
                close(
                    sep.map(|x| x / total),
                    rule(Rule::Separation),
                    1e-5,
                    "separation",
                );
            }
            if count > 0 {
                let n = count as f64;
                close(
                    [vs[0] / n - vel[0], vs[1] / n - vel[1], vs[2] / n - vel[2]],
                    rule(Rule::Alignment),
                    1e-6,
                    "alignment",
                );
                close(ps.map(|x| x / n), rule(Rule::Cohesion), 1e-6, "cohesion");
            }
        }
    }
}

/// The heading model's turns recomputed in f64 from the state it read.
#[test]
fn heading_turns_match_an_f64_recomputation() {
    // The lesson's third pane: double-buffered.
    let mut s = pane("flock-in-place", 2);
    for _ in 0..40 {
        s.step(&mut NoTrace);
    }
    let before = s.state().boids.clone();
    let hs = headings(&s);
    let ex = explains(&mut s);
    let wrap = |a: f64| {
        let t = 360.0;
        let r = a.rem_euclid(t);
        if r > 180.0 { r - t } else { r }
    };
    for e in &ex {
        let i = e.id as usize;
        let (p, h) = (v3(before[i].pos), heading_deg(hs[i]));
        let (mut sum, mut align) = ([0.0f64; 2], 0.0f64);
        for &j in &e.neighbours {
            let q = v3(before[j as usize].pos);
            sum[0] += q[0] - p[0];
            sum[1] += q[1] - p[1];
            align += wrap(heading_deg(hs[j as usize]) - h);
        }
        let n1 = e.neighbours.len() as f64 + 1.0;
        let get = |r: flockstep::sim::flock::Rule| {
            e.rules.iter().find(|x| x.0 == r).map(|x| match x.1 {
                Steer::Turn(t) => deg(t),
                Steer::Vector(_) => panic!(),
            })
        };
        use flockstep::sim::flock::Rule;
        if e.neighbours.is_empty() {
            assert!(get(Rule::Cohesion).is_none());
            continue;
        }
        let coh = wrap((sum[1] / n1).atan2(sum[0] / n1).to_degrees() - h);
        assert!(
            (get(Rule::Cohesion).unwrap() - coh).abs() < 1e-4,
            "boid {i} cohesion"
        );
        assert!(
            (get(Rule::Alignment).unwrap() - align / n1).abs() < 1e-4,
            "boid {i} alignment"
        );
    }
}

/// The weighted model's pair pass adds in wrapping `i64` and keeps a
/// boid's sums only when its mates are few enough for them to be exact;
/// a boid with more is summed again by its own query. Traced ticks always
/// query, so an untraced run must equal a traced one: in a flock of 3,000
/// (past the 2,147 mates whose terms could overflow at the largest push,
/// where the pair pass used to be switched off for the whole flock), and
/// in a ball of 2,200 boids all within `fov` of each other at the largest
/// push, where every boid takes the query.
#[test]
fn the_weighted_pair_pass_equals_the_queries_for_any_flock() {
    let strongest = WeightedParams {
        strength: Fx::from_int(1_000_000),
        ..WeightedParams::default()
    };
    let cases = [
        (WeightedParams::default(), 3_000, 80, 3, 6),
        (WeightedParams::default(), 3_000, 200, 2, 6),
        (strongest, 2_200, 2, 3, 2),
    ];
    for (p, n, side, dims, ticks) in cases {
        let mut rng = Pcg32::new(n as u64 + side as u64, 7);
        let mut cfg = random_world(&mut rng, Model::Weighted(p), dims);
        let z = if dims == 3 { side } else { 0 };
        cfg.world_min = Vec3::from_ints(0, 0, 0);
        cfg.world_max = Vec3::from_ints(side, side, z);
        cfg.bounds = Bounds::Walls;
        cfg.obstacles.clear();
        cfg.spawn = Some(Spawn {
            count: n,
            min: cfg.world_min,
            max: cfg.world_max,
            speed_min: Fx::from_int(1),
            speed_max: Fx::from_int(3),
        });
        let mut plain = FlockSim::new(cfg.clone()).unwrap();
        let mut traced = FlockSim::new(cfg).unwrap();
        for t in 0..ticks {
            plain.step(&mut NoTrace);
            explains(&mut traced);
            assert_eq!(
                plain.state(),
                traced.state(),
                "{n} boids in {side}^{dims}: pair pass and queries differ after tick {t}"
            );
        }
    }
}

/// A sink that asks for a few boids' reasoning only.
struct Only(Vec<FlockEvent>, Vec<u32>);

impl flockstep::sim::Sink<FlockEvent> for Only {
    const ENABLED: bool = true;
    fn record(&mut self, e: FlockEvent) {
        self.0.push(e);
    }
    fn only(&self) -> Option<&[u32]> {
        Some(&self.1)
    }
}

/// Issue 46: a weighted flock asked for a few boids' reasoning steps by
/// the untraced pair pass and explains those boids from the same
/// snapshot: the same states, the same records for them as a full trace
/// gives, and the count of boids that saw no mate.
#[test]
fn explaining_a_few_weighted_boids_is_the_full_trace_of_them() {
    for (id, sets) in [
        ("flock-walls", &[][..]),
        ("flock-weights", &[][..]),
        ("flock-separation", &["boids=200"][..]),
        ("flock-obstacle", &[][..]),
    ] {
        let mut full = match &lesson(id, sets).scenario.panes()[0] {
            Scenario::Flock(c) => FlockSim::new(c.clone()).unwrap(),
            _ => unreachable!(),
        };
        let mut few = full.clone();
        let n = full.state().boids.len() as u32;
        let want = vec![0, n / 2, n - 1];
        for tick in 0..40 {
            let mut all = Vec::new();
            full.step(&mut all);
            let mut some = Only(Vec::new(), want.clone());
            few.step(&mut some);
            assert_eq!(full.state(), few.state(), "{id}: tick {tick}");
            let pick = |ev: &[FlockEvent]| -> Vec<BoidExplain> {
                ev.iter()
                    .filter_map(|e| match e {
                        FlockEvent::Boid(b) if want.contains(&b.id) => Some((**b).clone()),
                        _ => None,
                    })
                    .collect()
            };
            assert_eq!(pick(&some.0), pick(&all), "{id}: tick {tick}");
            let alone = all
                .iter()
                .filter(|e| matches!(e, FlockEvent::Boid(b) if b.neighbours.is_empty()))
                .count() as u32;
            let told = some.0.iter().find_map(|e| match e {
                FlockEvent::Alone(k) => Some(*k),
                _ => None,
            });
            let weighted = matches!(full.config().model, Model::Weighted(_))
                && full.config().update != Update::InPlace;
            if weighted {
                assert_eq!(told, Some(alone), "{id}: tick {tick}");
                let boids = some
                    .0
                    .iter()
                    .filter(|e| matches!(e, FlockEvent::Boid(_)))
                    .count();
                assert_eq!(boids, want.len(), "{id}: only the boids asked for");
            }
        }
    }
}

/// A flock of `n` boids, about a dozen within each one's radius, in a
/// world four radii across and long along the axis the snapshot's layers
/// follow (z in 3-D, y in 2-D), so that a layer, and the weighted model's
/// pair window, is small against a thread's share — or, `along_x`, a 2-D
/// strip half a radius tall and long along x: one row holding the whole
/// flock, where only the bands keep the pair window small.
fn long_world(model: Model, dims: u8, n: u32, bounds: Bounds, along_x: bool) -> FlockConfig {
    let mut rng = Pcg32::new(u64::from(n) + u64::from(dims), 11);
    let r = f(model.radius());
    let mut cfg = random_world(&mut rng, model, dims);
    let w = (4.0 * r).ceil() as i32;
    let long = if dims == 3 {
        (n as f64 * std::f64::consts::PI * r / 144.0).ceil() as i32
    } else if along_x {
        // About 2r·n/long mates along the strip: a dozen.
        (n as f64 * r / 6.0).ceil() as i32
    } else {
        (n as f64 * std::f64::consts::PI * r / 48.0).ceil() as i32
    };
    let (lo, hi) = if dims == 3 {
        (Vec3::ZERO, Vec3::from_ints(w, w, long))
    } else if along_x {
        (
            Vec3::ZERO,
            Vec3::new(Fx::from_int(long), fx(r / 2.0), Fx::ZERO),
        )
    } else {
        (Vec3::ZERO, Vec3::from_ints(w, long, 0))
    };
    cfg.world_min = lo;
    cfg.world_max = hi;
    cfg.bounds = bounds;
    if !matches!(cfg.model, Model::Gems(_)) {
        // Three obstacles along the long axis.
        cfg.obstacles = (1..=3)
            .map(|i| Obstacle {
                center: if dims == 3 {
                    Vec3::from_ints(w / 2, w / 2, long * i / 4)
                } else if along_x {
                    Vec3::new(Fx::from_int(long * i / 4), fx(r / 4.0), Fx::ZERO)
                } else {
                    Vec3::from_ints(w / 2, long * i / 4, 0)
                },
                radius: Fx::from_int(1),
            })
            .collect();
    }
    let spawn = cfg.spawn.as_mut().unwrap();
    (spawn.count, spawn.min, spawn.max) = (n, lo, hi);
    cfg
}

/// Issue 47: a double-buffered tick shares its boids between threads and
/// is bit-identical on 1, 2 and 8 of them, for every model (the weighted
/// one with walls and obstacles, in 2-D and 3-D); the threads really are
/// used, and updates in place stay on one.
#[test]
fn ticks_on_any_number_of_threads_are_bit_identical() {
    let cases = [
        (
            Model::Heading(HeadingParams::default()),
            2,
            Bounds::Wrap,
            false,
        ),
        (Model::Gems(GemsParams::default()), 3, Bounds::Wrap, false),
        (
            Model::Weighted(WeightedParams::default()),
            2,
            Bounds::Walls,
            false,
        ),
        (
            Model::Weighted(WeightedParams::default()),
            3,
            Bounds::Walls,
            false,
        ),
        (
            Model::Weighted(WeightedParams::default()),
            2,
            Bounds::Walls,
            true,
        ),
    ];
    for (model, dims, bounds, along_x) in cases {
        let name = format!(
            "{} {dims}-D{}",
            model.name(),
            if along_x { " along x" } else { "" }
        );
        let cfg = long_world(model, dims, 17_000, bounds, along_x);
        let mut hashes = Vec::new();
        for threads in [1, 2, 8] {
            let mut s = FlockSim::new(cfg.clone()).unwrap();
            s.set_threads(threads);
            let mut per_tick = Vec::new();
            for _ in 0..3 {
                s.step(&mut NoTrace);
                per_tick.push(s.state_hash());
            }
            assert_eq!(s.threads_used(), threads, "{name}: threads used");
            hashes.push(per_tick);
        }
        assert_eq!(hashes[0], hashes[1], "{name}: 1 and 2 threads differ");
        assert_eq!(hashes[0], hashes[2], "{name}: 1 and 8 threads differ");
        // In place: one thread, where double buffering would use two.
        let mut in_place = long_world(cfg.model.clone(), dims, 4_200, bounds, along_x);
        in_place.update = Update::InPlace;
        let mut s = FlockSim::new(in_place).unwrap();
        s.set_threads(2);
        s.step(&mut NoTrace);
        assert_eq!(s.threads_used(), 1, "{name}: in place is sequential");
    }
}

/// An open world from the origin to `max` holding `boids` as placed,
/// double-buffered at 1/60 s, searched by `search`.
fn placed(model: Model, dims: u8, max: Vec3, boids: Vec<BoidInit>, search: Search) -> FlockConfig {
    FlockConfig {
        model,
        dims,
        world_min: Vec3::ZERO,
        world_max: max,
        bounds: Bounds::Open,
        update: Update::DoubleBuffered,
        numbering: Numbering::AsPlaced,
        search,
        dt: Fx::from_ratio(1, 60).unwrap(),
        dt_jitter: Fx::ZERO,
        frame_seed: 0,
        seed: 3,
        boids,
        spawn: None,
        obstacles: Vec::new(),
    }
}

/// The neighbour metric truncates each offset to 1/65536 of a unit, so it
/// accepts a mate a little beyond the radius; the grid's rows (along y and
/// z) and its bands (along x) are sized for that too. Two boids `fov +
/// 30,000` raw apart along one axis, the first just below a row edge, the
/// second two radius-wide rows further: mates by the metric, and the grid
/// finds them as brute force does, along every axis.
#[test]
fn the_grid_finds_mates_the_metric_accepts_beyond_the_radius() {
    let p = WeightedParams::default();
    let r = p.fov.to_bits();
    let a = r - 1;
    for axis in 0..3 {
        let at = |along: i64| {
            let mut c = [Fx::from_int(2); 3];
            c[axis] = Fx::from_bits(along);
            BoidInit {
                pos: Vec3::new(c[0], c[1], c[2]),
                vel: Vec3::ZERO,
                heading: Angle(0),
                speed: Fx::ZERO,
            }
        };
        // Seven rows of exactly `fov` along the axis (few enough that the
        // grid keeps them that small).
        let mut max = [Fx::from_int(4); 3];
        max[axis] = Fx::from_int(30);
        let cfg = |search| {
            let model = Model::Weighted(p.clone());
            let boids = vec![at(a), at(a + r + 30_000)];
            placed(model, 3, Vec3::new(max[0], max[1], max[2]), boids, search)
        };
        let mut grid = FlockSim::new(cfg(Search::Grid)).unwrap();
        let mut brute = FlockSim::new(cfg(Search::Brute)).unwrap();
        let e = explains(&mut brute);
        assert_eq!(
            e[0].neighbours,
            vec![1],
            "axis {axis}: the metric accepts the pair"
        );
        grid.step(&mut NoTrace);
        assert_eq!(grid.state(), brute.state(), "axis {axis}");
    }
}

/// Boids in one long row, many at the same x (ties go by id), others
/// exactly a band apart: every model's grid ticks as brute force does.
#[test]
fn rows_sorted_along_x_keep_every_mate_of_a_crowded_row() {
    let mut rng = Pcg32::new(47, 9);
    for model in [
        Model::Weighted(WeightedParams::default()),
        Model::Gems(GemsParams::default()),
        Model::Heading(HeadingParams::default()),
    ] {
        let r = match &model {
            Model::Weighted(p) => p.fov,
            Model::Gems(p) => p.perception,
            Model::Heading(p) => p.view_range,
        };
        let dims = if matches!(model, Model::Heading(_)) {
            2
        } else {
            3
        };
        let boids: Vec<BoidInit> = (0..300)
            .map(|i| {
                // Twelve x positions a radius apart, shared by 25 boids each.
                let x = Fx::from_bits(r.to_bits() * (i % 12) + (1 << 20));
                let y = Fx::from_bits((rng.next_u64() >> 36) as i64);
                let z = if dims == 3 {
                    Fx::from_bits((rng.next_u64() >> 36) as i64)
                } else {
                    Fx::ZERO
                };
                BoidInit {
                    pos: Vec3::new(x, y, z),
                    vel: Vec3::new(Fx::from_ratio(1, 4).unwrap(), Fx::ZERO, Fx::ZERO),
                    heading: Angle(rng.next_u32()),
                    speed: Fx::from_ratio(1, 4).unwrap(),
                }
            })
            .collect();
        let z = if dims == 3 {
            Fx::from_int(16)
        } else {
            Fx::ZERO
        };
        let max = Vec3::new(r * Fx::from_int(13), Fx::from_int(16), z);
        let cfg = |search| placed(model.clone(), dims, max, boids.clone(), search);
        let mut grid = FlockSim::new(cfg(Search::Grid)).unwrap();
        let mut brute = FlockSim::new(cfg(Search::Brute)).unwrap();
        for t in 0..3 {
            grid.step(&mut NoTrace);
            brute.step(&mut NoTrace);
            assert_eq!(grid.state(), brute.state(), "{model:?} tick {t}");
        }
    }
}
