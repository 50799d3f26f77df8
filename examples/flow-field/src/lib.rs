//! A flow field on a grid map, as an engineer would bring one to
//! flockstep: Dijkstra's algorithm grows an integration field outwards
//! from the goal — every open cell's cost of the cheapest 8-way path to the
//! goal, straight steps 1 and diagonal steps √2, no corner cutting (the
//! Moving AI benchmarks' rules) — a few cells a tick, so the wavefront can
//! be watched; then every agent descends the field, one cell a tick, to
//! its cheapest neighbour, and so walks a shortest path to the goal.
//!
//! Ties are broken by a fixed rule: among cells of equal cost the lower
//! index (row-major, from the top-left) is settled first; among
//! neighbours of equal cost an agent takes the first in [`DIRS`]' order.
//! Costs are fixed-point ([`Fx`], √2 rounded once to 32 fraction bits), so
//! a run is the same bit for bit everywhere.

use flockstep_core::lesson::LessonError;
use flockstep_core::lesson::node::Params;
use flockstep_core::lesson::schema::{Param, Ty, text, unit};
use flockstep_core::num::{Fx, Vec3};
use flockstep_core::sim::{Cell, Cells, Entity, Grid, Mark, MarkShape, Sim, SimError, Sink};
use flockstep_core::user::{Registered, UserSim};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The sim's header number and name.
pub static FLOW_FIELD: Registered<FlowField> = Registered::new(1002, "flow-field")
    .with_rate(20)
    .with_overlays(OVERLAYS, &["downhill"]);

/// The marks the viewer can show ([`FlowField::marks`]): each agent's next
/// step as an arrow labelled with the costs it goes from and to, and the
/// straight line to the goal with its length (which the field's cost, a
/// path round the walls, is never below).
pub const OVERLAYS: &[&str] = &["downhill", "straight"];

/// Registers the sim with flockstep (once is enough; again does nothing).
pub fn register() -> Result<(), SimError> {
    flockstep_core::user::register(&FLOW_FIELD)
}

/// √2 to 32 fraction bits (round(√2 · 2³²)).
pub const SQRT2: Fx = Fx::from_bits(6_074_001_000);

/// The eight moves, in the order that breaks an agent's ties: the four
/// straight ones (up, right, down, left), then the diagonals clockwise
/// from up-right.
pub const DIRS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The cost of a cell the field has not reached (a wall, or not yet).
pub const UNREACHED: Fx = Fx::MAX;

/// A run's settings (a lesson's `[scenario]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The map (`map = """…"""`, a Moving AI map or flockstep's ASCII).
    pub grid: Grid,
    /// Where the field flows to.
    pub goal: Cell,
    /// Where the agents start.
    pub agents: Vec<Cell>,
    /// How many cells the field settles a tick while it grows.
    pub settle_per_tick: u32,
}

/// One agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    /// Where it stands.
    pub cell: Cell,
    /// The field's cost where it started, once the field is complete (the
    /// cost of a shortest path to the goal).
    pub start_cost: Fx,
    /// The cost of the steps it has taken.
    pub walked: Fx,
    /// The steps it has taken.
    pub steps: u32,
}

/// What changes from tick to tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Ticks stepped.
    pub tick: u64,
    /// Each cell's cost to the goal, row-major ([`UNREACHED`] until
    /// settled or reached).
    pub cost: Vec<Fx>,
    /// The wavefront: cells reached but not settled, with their costs, in
    /// the order of a binary heap's array (popped cheapest first; ties:
    /// lower index).
    pub frontier: Vec<(Fx, u32)>,
    /// How many cells are settled.
    pub settled: u32,
    /// The agents.
    pub agents: Vec<Agent>,
}

/// The sim.
#[derive(Clone, Debug)]
pub struct FlowField {
    config: Config,
    state: State,
}

fn index(g: &Grid, c: Cell) -> usize {
    c.y as usize * g.width() as usize + c.x as usize
}

/// Whether a step `d` from `c` stays on open ground, without cutting a
/// wall's corner.
pub fn can_step(g: &Grid, c: Cell, d: (i32, i32)) -> bool {
    let open = |x: i32, y: i32| {
        let n = Cell::new(x, y);
        g.contains(n) && !g.is_wall(n)
    };
    open(c.x + d.0, c.y + d.1)
        && (d.0 == 0 || d.1 == 0 || (open(c.x + d.0, c.y) && open(c.x, c.y + d.1)))
}

/// The cost of step `d`.
pub fn step_cost(d: (i32, i32)) -> Fx {
    if d.0 != 0 && d.1 != 0 { SQRT2 } else { Fx::ONE }
}

impl FlowField {
    /// A cell's centre in world units (map rows go down, the world's y up).
    fn centre(&self, c: Cell) -> Vec3 {
        let h = self.config.grid.height() as i32;
        let half = Fx::HALF;
        Vec3::new(
            Fx::from_int(c.x) + half,
            Fx::from_int(h - 1 - c.y) + half,
            Fx::ZERO,
        )
    }

    /// The field's cost at a cell.
    pub fn cost_at(&self, c: Cell) -> Fx {
        self.state.cost[index(&self.config.grid, c)]
    }

    /// Whether the field is complete (agents move only then).
    pub fn field_done(&self) -> bool {
        self.state.frontier.is_empty()
    }

    /// Settles the cheapest reached cell and reaches its neighbours; a
    /// stale entry (a cell already settled cheaper) settles nothing.
    fn settle_one(&mut self, frontier: &mut BinaryHeap<Reverse<(Fx, u32)>>) {
        let Some(Reverse((c, i))) = frontier.pop() else {
            return;
        };
        if c > self.state.cost[i as usize] {
            return;
        }
        self.state.settled += 1;
        let g = &self.config.grid;
        let w = g.width() as i32;
        let cell = Cell::new(i as i32 % w, i as i32 / w);
        // A step is undone the same way (the moves are symmetric), so
        // the neighbours that can reach this cell are those it can reach.
        for d in DIRS {
            if !can_step(g, cell, d) {
                continue;
            }
            let n = Cell::new(cell.x + d.0, cell.y + d.1);
            let nc = c + step_cost(d);
            let ni = index(g, n);
            if nc < self.state.cost[ni] {
                self.state.cost[ni] = nc;
                frontier.push(Reverse((nc, ni as u32)));
            }
        }
    }

    /// Moves an agent to its cheapest neighbour, if one is cheaper than
    /// where it stands.
    fn descend(&mut self, k: usize) {
        let g = &self.config.grid;
        let a = self.state.agents[k];
        let mut best: Option<((i32, i32), Fx)> = None;
        for d in DIRS {
            if !can_step(g, a.cell, d) {
                continue;
            }
            let c = self.state.cost[index(g, Cell::new(a.cell.x + d.0, a.cell.y + d.1))];
            if best.is_none_or(|(_, b)| c < b) {
                best = Some((d, c));
            }
        }
        if let Some((d, c)) = best
            && c < self.cost_at(a.cell)
        {
            let a = &mut self.state.agents[k];
            a.cell = Cell::new(a.cell.x + d.0, a.cell.y + d.1);
            a.walked += step_cost(d);
            a.steps += 1;
        }
    }

    /// Where agent `k` goes next (`None`: at the goal, or stuck).
    pub fn next_step(&self, k: usize) -> Option<(i32, i32)> {
        let g = &self.config.grid;
        let a = self.state.agents.get(k)?;
        let here = self.cost_at(a.cell);
        DIRS.iter()
            .filter(|d| can_step(g, a.cell, **d))
            .map(|d| (*d, self.cost_at(Cell::new(a.cell.x + d.0, a.cell.y + d.1))))
            .fold(None, |best: Option<((i32, i32), Fx)>, (d, c)| match best {
                Some((_, b)) if c >= b => best,
                _ => Some((d, c)),
            })
            .filter(|(_, c)| *c < here)
            .map(|(d, _)| d)
    }
}

/// A cost or a length to two decimals (never negative here).
fn two(v: Fx) -> String {
    let m = v.mul_int(100).round_int();
    format!("{}.{:02}", m / 100, m % 100)
}

impl Sim for FlowField {
    type State = State;
    type Event = ();

    fn step<S: Sink<()>>(&mut self, _sink: &mut S) {
        if self.field_done() {
            for k in 0..self.state.agents.len() {
                self.descend(k);
            }
        } else {
            let mut heap: BinaryHeap<_> = self.state.frontier.drain(..).map(Reverse).collect();
            for _ in 0..self.config.settle_per_tick {
                self.settle_one(&mut heap);
            }
            self.state.frontier = heap.into_vec().into_iter().map(|Reverse(e)| e).collect();
            if self.field_done() {
                for k in 0..self.state.agents.len() {
                    self.state.agents[k].start_cost = self.cost_at(self.state.agents[k].cell);
                }
            }
        }
        self.state.tick += 1;
    }

    fn tick(&self) -> u64 {
        self.state.tick
    }

    fn dt(&self) -> Fx {
        Fx::ONE
    }

    fn state(&self) -> &State {
        &self.state
    }
}

/// An open cell of the grid (`key = [x, y]`), read where it is written.
/// The scenario's parameters, each described once: the lesson reader,
/// `--set`, the messages and `flow-field params flow-field` use them.
static PARAMS: &[Param] = &[
    Param::new("map", Ty::Text).help(
        "a Moving AI map (or flockstep's ASCII map) as a string",
        "Moving AI の地図 (または flockstep の ASCII 地図) の文字列",
    ),
    Param::new("goal", Ty::Cell).help("the cell the field flows to", "流れが向かうマス"),
    Param::new("agents", Ty::Cells)
        .absent(text("none", "なし"))
        .help("where the agents start", "エージェントの初期位置"),
    Param::int("settle_per_tick", 1, 1_000_000, 48)
        .unit(unit::CELLS)
        .vary()
        .help(
            "how many cells the integration field settles a tick",
            "1 tick に確定する積分場のマス数",
        ),
];

fn open_cell(p: &mut Params, g: &Grid, key: &'static str) -> Result<Cell, LessonError> {
    let (c, node) = p.req_cell(key)?;
    check_open(p, g, key, c, &node)
}

fn check_open(
    p: &Params,
    g: &Grid,
    key: &str,
    c: Cell,
    node: &flockstep_core::lesson::node::Node,
) -> Result<Cell, LessonError> {
    if !g.contains(c) {
        return Err(p.ctx().err(
            node,
            format!("`{key}` {c} is off the {}×{} map", g.width(), g.height()),
        ));
    }
    if g.is_wall(c) {
        return Err(p.ctx().err(node, format!("`{key}` {c} is a wall")));
    }
    Ok(c)
}

impl UserSim for FlowField {
    type Config = Config;

    fn new(config: Config) -> Result<Self, SimError> {
        let g = &config.grid;
        let cells = g.width() as usize * g.height() as usize;
        let mut cost = vec![UNREACHED; cells];
        let goal = index(g, config.goal);
        cost[goal] = Fx::ZERO;
        let frontier = vec![(Fx::ZERO, goal as u32)];
        let agents = config
            .agents
            .iter()
            .map(|&cell| Agent {
                cell,
                start_cost: UNREACHED,
                walked: Fx::ZERO,
                steps: 0,
            })
            .collect();
        let state = State {
            tick: 0,
            cost,
            frontier,
            settled: 0,
            agents,
        };
        Ok(FlowField { config, state })
    }

    fn scenario(p: &mut Params) -> Result<Config, LessonError> {
        let ctx = p.ctx();
        let Some((text, node)) = p.string("map")? else {
            return Err(p.table_err(
                "missing `map`: a Moving AI map (or flockstep's ASCII map) as a string",
            ));
        };
        let grid = Grid::read(&text).map_err(|e| ctx.grid_err(&node, &e))?;
        let goal = open_cell(p, &grid, "goal")?;
        let mut agents = Vec::new();
        for (c, n) in p.cells("agents")? {
            agents.push(check_open(p, &grid, "agents", c, &n)?);
        }
        let settle_per_tick = p.get_int("settle_per_tick")? as u32;
        Ok(Config {
            grid,
            goal,
            agents,
            settle_per_tick,
        })
    }

    fn params() -> &'static [Param] {
        PARAMS
    }

    fn restore(&mut self, state: State) -> Result<(), SimError> {
        let g = &self.config.grid;
        let cells = g.width() as usize * g.height() as usize;
        if state.cost.len() != cells {
            return Err(SimError::state(format!(
                "{} costs for a {cells}-cell map",
                state.cost.len()
            )));
        }
        if state.frontier.iter().any(|(_, i)| *i as usize >= cells)
            || state.agents.iter().any(|a| !g.contains(a.cell))
        {
            return Err(SimError::state("a cell off the map"));
        }
        self.state = state;
        Ok(())
    }

    fn marks(&self) -> Vec<Mark> {
        let goal = self.centre(self.config.goal);
        // The straight lines first, so the arrows along them are drawn on top.
        let mut out: Vec<Mark> = (self.state.agents.iter().enumerate())
            .map(|(k, a)| (k + 1, self.centre(a.cell)))
            .filter(|&(_, here)| here != goal)
            .map(|(entity, here)| Mark {
                overlay: "straight",
                entity,
                shape: MarkShape::Line(goal),
                label: format!("straight {}", two((goal - here).length())),
            })
            .collect();
        for (k, a) in self.state.agents.iter().enumerate() {
            let entity = k + 1;
            if let Some((dx, dy)) = self.next_step(k) {
                let to = Cell::new(a.cell.x + dx, a.cell.y + dy);
                out.push(Mark {
                    overlay: "downhill",
                    entity,
                    shape: MarkShape::Arrow(Vec3::new(
                        Fx::from_int(dx),
                        Fx::from_int(-dy),
                        Fx::ZERO,
                    )),
                    label: format!(
                        "downhill {} → {}",
                        two(self.cost_at(a.cell)),
                        two(self.cost_at(to))
                    ),
                });
            }
        }
        out
    }

    fn entities(&self) -> Vec<Entity> {
        let centre = |c: Cell| self.centre(c);
        let mut out = vec![Entity {
            name: "goal".into(),
            pos: centre(self.config.goal),
            heading: None,
            kind: "goal",
        }];
        for (k, a) in self.state.agents.iter().enumerate() {
            out.push(Entity {
                name: format!("{k}"),
                pos: centre(a.cell),
                // Map rows go down, the world's y up.
                heading: self
                    .next_step(k)
                    .map(|(dx, dy)| Vec3::new(Fx::from_int(dx), Fx::from_int(-dy), Fx::ZERO)),
                kind: "agent",
            });
        }
        out
    }

    fn bounds(&self) -> (Vec3, Vec3) {
        let g = &self.config.grid;
        (
            Vec3::ZERO,
            Vec3::new(
                Fx::from_int(g.width() as i32),
                Fx::from_int(g.height() as i32),
                Fx::ZERO,
            ),
        )
    }

    fn cells(&self) -> Option<Cells> {
        let g = &self.config.grid;
        let most = self
            .state
            .cost
            .iter()
            .filter(|c| **c != UNREACHED)
            .max()
            .copied()
            .unwrap_or(Fx::ONE)
            .max(Fx::ONE);
        let shade = (0..g.height() as i32)
            .flat_map(|y| (0..g.width() as i32).map(move |x| Cell::new(x, y)))
            .map(|c| {
                if g.is_wall(c) {
                    return 0;
                }
                let cost = self.cost_at(c);
                if cost == UNREACHED {
                    // Not reached yet: dark, but lighter than a wall.
                    return 1;
                }
                // Reached: brightest at the goal, fading with the cost.
                let f = (cost * Fx::from_int(195))
                    .checked_div(most)
                    .unwrap_or(Fx::ZERO);
                (255 - f.round_int().clamp(0, 195)) as u8
            })
            .collect();
        Some(Cells {
            width: g.width(),
            height: g.height(),
            shade,
        })
    }
}
