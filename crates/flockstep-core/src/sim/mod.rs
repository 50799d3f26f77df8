//! The simulations: one stepper per algorithm, all under one contract.
//!
//! Every sim implements [`Sim`]: [`Sim::step`] advances exactly one tick of
//! a fixed length ([`Sim::dt`]) and may describe what it did to an explain
//! [`Sink`]; its state is plain data that serializes with `serde` and hashes
//! through [`crate::canon`]. The same lesson, seed and inputs give
//! byte-identical states on every run, build profile and platform.
//!
//! Invariants, stated as absences: no floating point, no clock, no file or
//! window, no thread (a flock's double-buffered tick may share its boids
//! between threads only through [`crate::par`], which merges in a fixed
//! order), no hash-ordered collection, no global random generator. Ties are broken by id, then by insertion order, and each sim
//! documents where that happens.
#![deny(clippy::float_arithmetic)]

pub mod custom;
mod error;
pub mod flock;
pub mod grid;
mod input_text;
pub mod line;
pub mod path;

pub use custom::{
    Cells, CustomScenario, CustomSim, CustomState, DynSim, Entity, Mark, MarkShape, SimId, SimType,
};
pub use error::{SimError, SimErrorKind};
pub use grid::{Cell, Grid, GridError, GridErrorKind};

use crate::num::Fx;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Receives the explain events of a step.
///
/// Steppers guard every event with `if S::ENABLED`, so with [`NoTrace`] the
/// events are never even built: the untraced step is the same machine code
/// as a step with no tracing at all.
pub trait Sink<E> {
    /// Whether this sink wants events at all.
    const ENABLED: bool;
    /// Takes one event.
    fn record(&mut self, event: E);
    /// The entities whose reasoning is wanted (`None`: every one's). A sim
    /// may then leave the others' out and spend on them only what an
    /// untraced step does: the weighted flock explains just these boids
    /// (and records [`flock::FlockEvent::Alone`] itself, the count of
    /// boids that saw no one).
    fn only(&self) -> Option<&[u32]> {
        None
    }
}

/// The sink that wants nothing and costs nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl<E> Sink<E> for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn record(&mut self, _event: E) {}
}

/// Collects every event, in order.
impl<E> Sink<E> for Vec<E> {
    const ENABLED: bool = true;
    fn record(&mut self, event: E) {
        self.push(event);
    }
}

/// The stepping contract every simulation follows.
pub trait Sim {
    /// Everything that changes from tick to tick: serializable, comparable,
    /// float-free. Configuration that never changes lives beside it.
    type State: Serialize + DeserializeOwned + Clone + PartialEq + core::fmt::Debug;
    /// What a step can explain (for lessons and the viewer).
    type Event: Clone + PartialEq + core::fmt::Debug;

    /// Advances exactly one tick, telling `sink` what happened. Cannot fail.
    fn step<S: Sink<Self::Event>>(&mut self, sink: &mut S);

    /// Ticks stepped since the start (the state at tick 0 is the initial one).
    fn tick(&self) -> u64;

    /// The length of one tick in the sim's time unit; fixed for a run.
    fn dt(&self) -> Fx;

    /// The current state.
    fn state(&self) -> &Self::State;

    /// The stable hash of the current state (see [`crate::canon`]).
    fn state_hash(&self) -> u64 {
        crate::canon::state_hash(self.state())
    }
}

/// A checked scenario for any sim: what a lesson's `[scenario]` becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Line of sight and chase (article 003).
    Line(line::LineConfig),
    /// Flocking (articles 000, 002, 004).
    Flock(flock::FlockConfig),
    /// A* on a height grid (article 001).
    Path(path::PathConfig),
    /// A sim from outside flockstep ([`custom`]).
    Custom(CustomScenario),
    /// A lesson's variants (`[[scenario.variants]]`): 2 to
    /// [`MAX_PANES`] scenarios of one sim and one tick length, each run in
    /// its own pane in lockstep. A pane is never itself `Panes`.
    Panes(Vec<Scenario>),
}

/// The name of the sim of an empty list of panes, which has none: no sim
/// is called this, so it is never taken for one.
pub const NO_SIM: &str = "(none)";

/// The most variants a lesson may run side by side.
pub const MAX_PANES: usize = 4;

impl Scenario {
    /// The scenario's seed (0 for sims without randomness; variants: the
    /// first pane's).
    pub fn seed(&self) -> u64 {
        match self {
            Scenario::Line(c) => c.seed,
            Scenario::Flock(c) => c.seed,
            Scenario::Path(_) => 0,
            Scenario::Custom(c) => c.seed,
            Scenario::Panes(p) => p.first().map_or(0, Scenario::seed),
        }
    }

    /// The panes: the variants, or the scenario itself.
    pub fn panes(&self) -> &[Scenario] {
        match self {
            Scenario::Panes(p) => p,
            s => core::slice::from_ref(s),
        }
    }

    /// A lower bound on the size of the scenario's state as a replay
    /// encodes it, known without building the sim: a path search keeps a
    /// cost (8 bytes) and a link (1 byte) per cell, a boid at least its
    /// position and velocity (48 bytes). The recorder refuses a scenario
    /// whose bound is already beyond what a replay may hold.
    pub fn state_bytes_at_least(&self) -> u64 {
        match self {
            Scenario::Line(_) | Scenario::Custom(_) => 0,
            Scenario::Flock(c) => c.boid_count() * 48,
            Scenario::Path(c) => {
                let cells = u64::from(c.grid.width()) * u64::from(c.grid.height());
                c.searches.len() as u64 * cells * 9
            }
            Scenario::Panes(p) => p.iter().map(Scenario::state_bytes_at_least).sum(),
        }
    }

    /// The sim's name as written in lessons (`sim = "line"`; variants:
    /// their sim's; an empty list of panes: [`NO_SIM`]).
    pub fn sim_name(&self) -> &'static str {
        match self {
            Scenario::Line(_) => "line",
            Scenario::Flock(_) => "flock",
            Scenario::Path(_) => "path",
            Scenario::Custom(c) => c.sim.name(),
            Scenario::Panes(p) => p.first().map_or(NO_SIM, Scenario::sim_name),
        }
    }
}

/// The hash of side-by-side panes: the state hash ([`crate::canon`]) of
/// the list of their own state hashes, in pane order.
pub fn panes_hash(hashes: &[u64]) -> u64 {
    crate::canon::state_hash(hashes)
}

/// An intervention from outside the sim (the viewer's drag of a target or
/// goal), applied between ticks. Replays record them, so a session with
/// interventions replays identically.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Input {
    /// Line sim: move target `target` to a cell (inside the grid, not a wall).
    MoveTarget {
        /// The target's index.
        target: u32,
        /// Where to.
        to: Cell,
    },
    /// Path sim: move the goal; every search starts again from the start
    /// (the tick count goes on).
    MoveGoal {
        /// Where to.
        to: Cell,
    },
    /// Flock sim: add a boid (it gets the next id).
    AddBoid {
        /// Its position.
        pos: crate::num::Vec3,
        /// Its velocity.
        vel: crate::num::Vec3,
    },
    /// Flock sim: move an obstacle's centre.
    MoveObstacle {
        /// The obstacle's index.
        obstacle: u32,
        /// Where to.
        to: crate::num::Vec3,
    },
    /// Any sim: a scenario parameter a teacher varies (its schema's
    /// [`crate::lesson::schema::Param::vary`]) takes a new value while the
    /// sim runs, checked as a lesson's `--set KEY=VALUE` is, with every
    /// earlier change. Applied through the lesson
    /// ([`crate::replay::live`]), not by [`AnySim::apply`] alone.
    Set {
        /// The pane (a variant, or a path lesson's search) from 0; `None`:
        /// every pane.
        pane: Option<u32>,
        /// The key as `--set` names it (`w_cohesion`,
        /// `chasers.0.recompute_every_tick`).
        key: String,
        /// The value as `--set` writes it (`0`, `0.25`, `"euclidean"`,
        /// `true`).
        value: String,
    },
    /// Path and line sims: one cell of the terrain becomes a wall or open
    /// ground of a height (a stroke of the viewer's brush). A path's
    /// searches start again on the new map.
    Ground {
        /// The cell.
        at: Cell,
        /// What it becomes.
        to: Ground,
    },
    /// Path sim: move the start; every search starts again from it.
    MoveStart {
        /// Where to.
        to: Cell,
    },
    /// Line sim: move chaser `chaser` to a cell (inside the grid, not a
    /// wall); it plans again from there.
    MoveChaser {
        /// The chaser's index.
        chaser: u32,
        /// Where to.
        to: Cell,
    },
}

/// What a cell of the terrain becomes ([`Input::Ground`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Ground {
    /// A wall.
    Wall,
    /// Open ground of this height, 0..=9.
    Open(u8),
}

impl Ground {
    /// The grid's code for it: a height, or 255 for a wall.
    pub fn code(self) -> u8 {
        match self {
            Ground::Wall => 255,
            Ground::Open(h) => h,
        }
    }

    /// Sets `at` of `grid` to it, or says why not (off the grid, a
    /// height above 9).
    pub fn paint(self, grid: &mut grid::Grid, at: Cell) -> Result<(), SimError> {
        if !grid.contains(at) {
            return Err(SimError::input(format!(
                "{at} is off the {}×{} grid",
                grid.width(),
                grid.height()
            )));
        }
        match self {
            Ground::Wall => grid.set_wall(at),
            Ground::Open(h) if h <= 9 => grid.set_height(at, h),
            Ground::Open(h) => {
                return Err(SimError::input(format!("a height is 0..=9, not {h}")));
            }
        }
        Ok(())
    }
}

/// The state of any sim: what a replay frame holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum AnyState {
    /// A line-of-sight / chase state.
    Line(line::LineState),
    /// A flock.
    Flock(flock::FlockState),
    /// A* searches.
    Path(path::PathState),
    /// Every pane of a lesson's variants, in order (added after the
    /// three sims, so the frames of files written before variants decode
    /// unchanged).
    Panes(Vec<AnyState>),
    /// A sim from outside flockstep: its number and encoded state (added
    /// last, for the same reason).
    Custom(CustomState),
}

impl AnyState {
    /// The sim's name (`"flock"`; variants: their sim's; an empty list of
    /// panes: [`NO_SIM`]).
    pub fn sim_name(&self) -> &'static str {
        match self {
            AnyState::Line(_) => "line",
            AnyState::Flock(_) => "flock",
            AnyState::Path(_) => "path",
            AnyState::Custom(c) => custom::name_of(c.sim),
            AnyState::Panes(p) => p.first().map_or(NO_SIM, AnyState::sim_name),
        }
    }

    /// The stable hash of the state, equal to the sim's
    /// [`Sim::state_hash`] (the variant is not hashed); for variants,
    /// [`panes_hash`] of the panes' hashes.
    pub fn state_hash(&self) -> u64 {
        match self {
            AnyState::Line(s) => crate::canon::state_hash(s),
            AnyState::Flock(s) => crate::canon::state_hash(s),
            AnyState::Path(s) => crate::canon::state_hash(s),
            AnyState::Custom(c) => c.state_hash(),
            AnyState::Panes(p) => {
                panes_hash(&p.iter().map(AnyState::state_hash).collect::<Vec<_>>())
            }
        }
    }

    /// The panes: the variants' states, or the state itself.
    pub fn panes(&self) -> &[AnyState] {
        match self {
            AnyState::Panes(p) => p,
            s => core::slice::from_ref(s),
        }
    }
}

/// Any sim, for code that picks one at run time (the CLI, the tests).
#[derive(Clone, Debug)]
pub enum AnySim {
    /// A line-of-sight / chase sim.
    Line(line::LineSim),
    /// A flock (boxed: it is much larger than the other sims).
    Flock(Box<flock::FlockSim>),
    /// A* searches.
    Path(path::PathSim),
    /// A sim from outside flockstep ([`custom`]).
    Custom(CustomSim),
    /// A lesson's variants, stepped in lockstep, one per pane.
    Panes(Vec<AnySim>),
}

impl AnySim {
    /// A sim at tick 0 of a scenario, or why the scenario is inconsistent
    /// (for variants, the first pane that is, by its number).
    pub fn new(scenario: &Scenario) -> Result<AnySim, SimError> {
        Ok(match scenario {
            Scenario::Line(c) => AnySim::Line(line::LineSim::new(c.clone())?),
            Scenario::Flock(c) => AnySim::Flock(Box::new(flock::FlockSim::new(c.clone())?)),
            Scenario::Path(c) => AnySim::Path(path::PathSim::new(c.clone())?),
            Scenario::Custom(c) => AnySim::Custom(CustomSim(c.sim.build(&c.config)?)),
            Scenario::Panes(p) if p.is_empty() => {
                return Err(SimError::config("a list of panes with none"));
            }
            Scenario::Panes(p) => AnySim::Panes(
                p.iter()
                    .enumerate()
                    .map(|(i, s)| {
                        AnySim::new(s).map_err(|e| e.context(format!("variant {}", i + 1)))
                    })
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// The panes: the variants, or the sim itself.
    pub fn panes(&self) -> &[AnySim] {
        match self {
            AnySim::Panes(p) => p,
            s => core::slice::from_ref(s),
        }
    }

    /// One tick without tracing.
    pub fn step(&mut self) {
        match self {
            AnySim::Line(s) => s.step(&mut NoTrace),
            AnySim::Flock(s) => s.step(&mut NoTrace),
            AnySim::Path(s) => s.step(&mut NoTrace),
            AnySim::Custom(s) => s.0.step(),
            AnySim::Panes(p) => p.iter_mut().for_each(AnySim::step),
        }
    }

    /// Ticks stepped so far.
    pub fn tick(&self) -> u64 {
        match self {
            AnySim::Line(s) => s.tick(),
            AnySim::Flock(s) => s.tick(),
            AnySim::Path(s) => s.tick(),
            AnySim::Custom(s) => s.0.tick(),
            AnySim::Panes(p) => p.first().map_or(0, AnySim::tick),
        }
    }

    /// The stable hash of the current state.
    pub fn state_hash(&self) -> u64 {
        match self {
            AnySim::Line(s) => s.state_hash(),
            AnySim::Flock(s) => s.state_hash(),
            AnySim::Path(s) => s.state_hash(),
            AnySim::Custom(s) => s.0.state_hash(),
            AnySim::Panes(p) => panes_hash(&p.iter().map(AnySim::state_hash).collect::<Vec<_>>()),
        }
    }

    /// Applies an intervention, or says why it does not fit this sim or
    /// scenario (the state is then unchanged). Variants: to every pane,
    /// or to none.
    pub fn apply(&mut self, input: &Input) -> Result<(), SimError> {
        if let AnySim::Panes(p) = self {
            let mut next = p.clone();
            for (i, s) in next.iter_mut().enumerate() {
                s.apply(input)
                    .map_err(|e| e.context(format!("variant {}", i + 1)))?;
            }
            *p = next;
            return Ok(());
        }
        match (self, input) {
            (AnySim::Line(s), Input::MoveTarget { target, to }) => s.move_target(*target, *to),
            (AnySim::Path(s), Input::MoveGoal { to }) => s.move_goal(*to),
            (AnySim::Flock(s), Input::AddBoid { pos, vel }) => s.add_boid(*pos, *vel),
            (AnySim::Flock(s), Input::MoveObstacle { obstacle, to }) => {
                s.move_obstacle(*obstacle, *to)
            }
            (_, Input::Set { key, .. }) => Err(SimError::input(format!(
                "a change of `{key}` is checked against its lesson: apply it with replay::live"
            ))),
            (AnySim::Path(s), Input::Ground { at, to }) => s.paint(*at, *to),
            (AnySim::Line(s), Input::Ground { at, to }) => s.paint(*at, *to),
            (AnySim::Path(s), Input::MoveStart { to }) => s.move_start(*to),
            (AnySim::Line(s), Input::MoveChaser { chaser, to }) => s.move_chaser(*chaser, *to),
            (AnySim::Custom(s), i) => s.0.apply(i),
            (s, i) => Err(SimError::input(format!(
                "`{i}` does not apply to a {} sim",
                s.sim_name()
            ))),
        }
    }

    /// Takes the parameters of `scenario` (the lesson's, with a live
    /// change: see [`Input::Set`]) while keeping the state and what
    /// earlier inputs moved or painted: for variants, in pane `pane` or,
    /// for `None`, in every pane; a path lesson's `pane` is a search. A
    /// change a running sim cannot take (another flock model, another
    /// number of panes) is refused, and the sim is then unchanged.
    pub fn reconfigure(&mut self, pane: Option<u32>, scenario: &Scenario) -> Result<(), SimError> {
        if let AnySim::Panes(p) = self {
            let new = scenario.panes();
            if new.len() != p.len() {
                return Err(SimError::input(format!(
                    "the change makes {} panes of {}",
                    new.len(),
                    p.len()
                )));
            }
            let mut next = p.clone();
            for (i, (s, c)) in next.iter_mut().zip(new).enumerate() {
                if pane.is_none_or(|k| k as usize == i) {
                    s.reconfigure(None, c)
                        .map_err(|e| e.context(format!("variant {}", i + 1)))?;
                }
            }
            *p = next;
            return Ok(());
        }
        match (self, scenario) {
            (AnySim::Flock(s), Scenario::Flock(c)) if pane.is_none_or(|p| p == 0) => {
                s.reconfigure(c)
            }
            (AnySim::Path(s), Scenario::Path(c)) => s.reconfigure(c, pane),
            (AnySim::Line(s), Scenario::Line(c)) if pane.is_none_or(|p| p == 0) => s.reconfigure(c),
            (AnySim::Custom(s), Scenario::Custom(c)) if pane.is_none_or(|p| p == 0) => {
                s.0.reconfigure(&c.config)
            }
            (s, c) => Err(SimError::input(format!(
                "a {} scenario{} does not fit a running {} sim",
                c.sim_name(),
                pane.map_or(String::new(), |p| format!(" for pane {p}")),
                s.sim_name()
            ))),
        }
    }

    /// Replaces the state with a recorded one of the same sim (a replay's
    /// frame), checked so that stepping from it cannot fail; see each
    /// sim's `restore`. Interventions that change the configuration (a
    /// moved goal) must be applied first. The sim is unchanged on error.
    pub fn restore(&mut self, state: AnyState) -> Result<(), SimError> {
        if let (AnySim::Panes(p), AnyState::Panes(t)) = (&mut *self, &state) {
            if p.len() != t.len() {
                return Err(SimError::state(format!(
                    "the state has {} panes, the lesson {} variants",
                    t.len(),
                    p.len()
                )));
            }
            let mut next = p.clone();
            for (i, (s, t)) in next.iter_mut().zip(t.iter().cloned()).enumerate() {
                s.restore(t)
                    .map_err(|e| e.context(format!("variant {}", i + 1)))?;
            }
            *p = next;
            return Ok(());
        }
        match (self, state) {
            (AnySim::Line(s), AnyState::Line(t)) => s.restore(t),
            (AnySim::Flock(s), AnyState::Flock(t)) => s.restore(t),
            (AnySim::Path(s), AnyState::Path(t)) => s.restore(t),
            (AnySim::Custom(s), AnyState::Custom(t)) => s.0.restore(&t),
            (s, t) => Err(SimError::state(format!(
                "a {} state does not fit a {} sim",
                t.sim_name(),
                s.sim_name()
            ))),
        }
    }

    /// The sim's name (`"flock"`; variants: their sim's; an empty list of
    /// panes: [`NO_SIM`]).
    pub fn sim_name(&self) -> &'static str {
        match self {
            AnySim::Line(_) => "line",
            AnySim::Flock(_) => "flock",
            AnySim::Path(_) => "path",
            AnySim::Custom(s) => s.0.sim_type().name(),
            AnySim::Panes(p) => p.first().map_or(NO_SIM, AnySim::sim_name),
        }
    }

    /// A copy of the current state.
    pub fn snapshot(&self) -> AnyState {
        match self {
            AnySim::Line(s) => AnyState::Line(s.state().clone()),
            AnySim::Flock(s) => AnyState::Flock(s.state().clone()),
            AnySim::Path(s) => AnyState::Path(s.state().clone()),
            AnySim::Custom(s) => AnyState::Custom(s.0.snapshot()),
            AnySim::Panes(p) => AnyState::Panes(p.iter().map(AnySim::snapshot).collect()),
        }
    }

    /// The length of one tick (every pane of a lesson's variants has the
    /// same).
    pub fn dt(&self) -> Fx {
        match self {
            AnySim::Line(s) => s.dt(),
            AnySim::Flock(s) => s.dt(),
            AnySim::Path(s) => s.dt(),
            AnySim::Custom(s) => s.0.dt(),
            AnySim::Panes(p) => p.first().map_or(Fx::ONE, AnySim::dt),
        }
    }

    /// Whether the current state equals `state` (no copy).
    pub fn state_eq(&self, state: &AnyState) -> bool {
        match (self, state) {
            (AnySim::Line(s), AnyState::Line(t)) => s.state() == t,
            (AnySim::Flock(s), AnyState::Flock(t)) => s.state() == t,
            (AnySim::Path(s), AnyState::Path(t)) => s.state() == t,
            (AnySim::Custom(s), AnyState::Custom(t)) => s.0.snapshot() == *t,
            (AnySim::Panes(p), AnyState::Panes(t)) => {
                p.len() == t.len() && p.iter().zip(t).all(|(s, t)| s.state_eq(t))
            }
            (
                AnySim::Line(_)
                | AnySim::Flock(_)
                | AnySim::Path(_)
                | AnySim::Custom(_)
                | AnySim::Panes(_),
                _,
            ) => false,
        }
    }

    /// A plain-text picture of the current state (variants: each pane's,
    /// under its number).
    pub fn render_text(&self) -> String {
        match self {
            AnySim::Line(s) => line::ascii::render(s),
            AnySim::Flock(s) => flock::ascii::render(s),
            AnySim::Path(s) => path::ascii::render(s),
            AnySim::Custom(s) => s.0.render_text(),
            AnySim::Panes(p) => p
                .iter()
                .enumerate()
                .map(|(i, s)| format!("variant {}:\n{}", i + 1, s.render_text()))
                .collect(),
        }
    }
}
