//! The flow field is Dijkstra's: on the Moving AI arena map, every
//! benchmark scenario's start cell gets its published optimal length as
//! its cost (to the scenario's own precision), and an agent descending the
//! field from there walks exactly that cost to the goal.

use flockstep_core::num::Fx;
use flockstep_core::sim::{Cell, Grid, NoTrace, Sim};
use flockstep_core::user::UserSim;
use flow_field::{Config, FlowField};
use std::path::Path;

fn maps() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/maps"))
}

/// `|a - b|` within half a unit of the published number's last digit.
fn close(got: Fx, published: &str) -> bool {
    let decimals = published.split_once('.').map_or(0, |(_, d)| d.len()) as u32;
    let want = flockstep_core::num::parse_fx(published).unwrap();
    let half_ulp = Fx::from_ratio(1, 2 * 10i64.pow(decimals)).unwrap();
    let diff = if got > want { got - want } else { want - got };
    diff <= half_ulp
}

#[test]
fn costs_match_the_published_optimal_lengths_and_agents_walk_them() {
    let map = std::fs::read_to_string(maps().join("arena.map")).unwrap();
    let grid = Grid::read(&map).unwrap();
    let scen = std::fs::read_to_string(maps().join("arena.map.scen")).unwrap();
    let mut checked = 0;
    for line in scen.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let n = |i: usize| f[i].parse::<i32>().unwrap();
        let (start, goal) = (Cell::new(n(4), n(5)), Cell::new(n(6), n(7)));
        let config = Config {
            grid: grid.clone(),
            goal,
            agents: vec![start],
            settle_per_tick: 1_000_000,
        };
        let mut sim = FlowField::new(config).unwrap();
        sim.step(&mut NoTrace);
        assert!(sim.field_done(), "{line}");
        let cost = sim.cost_at(start);
        assert!(close(cost, f[8]), "{line}: field cost {cost}");
        for _ in 0..10_000 {
            if sim.state().agents[0].cell == goal {
                break;
            }
            sim.step(&mut NoTrace);
        }
        let a = sim.state().agents[0];
        assert_eq!(a.cell, goal, "{line}: the agent did not arrive");
        assert_eq!(
            a.walked, cost,
            "{line}: walked {} for a cost of {cost}",
            a.walked
        );
        assert_eq!(a.start_cost, cost, "{line}");
        checked += 1;
    }
    assert!(checked > 100, "{checked} scenarios");
}
