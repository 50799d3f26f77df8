//! Line of sight and chase on a grid (article 003): chasers walk Bresenham
//! lines towards their targets, one cell per tick.
//!
//! Each tick, in chaser id order:
//! 1. A chaser standing on its target has *arrived* and does nothing.
//! 2. Otherwise it needs a plan: the [`Line`] from where it stands to where
//!    its target is. A plan is computed when there is none or the target has
//!    moved since it was made — the article's *precompute* rule — or on
//!    every tick when the chaser has `recompute_every_tick` set, which bends
//!    the path into the arc the article warns about.
//! 3. A plan is followed for at most `max_path` cells (the article's
//!    `NEXT_POS_MAX = 100`); after that the chaser waits for its target to
//!    move.
//! 4. If the next cell of the plan is a wall the chaser is *blocked* and
//!    waits (its plan is kept); otherwise it steps there.
//!
//! Then the tick counter advances, target moves scheduled for the new tick
//! are applied (scripted moves in file order, then seeded random moves in
//! target order), and line of sight is computed both ways for every chaser,
//! so the state at tick `t` shows the targets where the script puts them at
//! `t`. Chasers do not block each other.

pub mod ascii;
pub mod bresenham;
pub mod los;

pub use bresenham::{Line, Step, Stepper};
pub use los::{Sight, line_of_sight};

use super::{Cell, Grid, Sim, Sink};
use crate::num::{Fx, Pcg32};
use crate::sim::{Ground, SimError};
use serde::{Deserialize, Serialize};

/// One chaser of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChaserConfig {
    /// Where it starts.
    pub start: Cell,
    /// Index of the target it chases.
    pub target: u32,
    /// Recompute the line from the current cell every tick (the arc artifact).
    pub recompute_every_tick: bool,
}

/// A scripted target move: at `tick`, target `target` jumps to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetMove {
    /// The tick at which the target is at its new cell.
    pub tick: u64,
    /// Index of the target.
    pub target: u32,
    /// Its new cell.
    pub to: Cell,
}

/// The most targets, and the most chasers, a line scenario has (every
/// chaser traces its line of sight each tick; a classroom tells eight
/// colours apart).
pub const MAX_ACTORS: usize = 64;

/// A checked line scenario. The lesson loader guarantees what
/// [`LineConfig::check`] checks; [`LineSim::new`] relies on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineConfig {
    /// The terrain: walls and heights.
    pub grid: Grid,
    /// Seed of the random target moves.
    pub seed: u64,
    /// Where the targets start.
    pub targets: Vec<Cell>,
    /// The chasers, in id order.
    pub chasers: Vec<ChaserConfig>,
    /// Scripted moves, in ascending tick order (file order within a tick).
    pub moves: Vec<TargetMove>,
    /// Every this many ticks each target takes a random step (0 = never).
    pub random_every: u32,
    /// The largest random step on each axis, in cells.
    pub random_radius: i32,
    /// Eye height above the ground for line of sight, in height levels.
    pub eye_height: i32,
    /// The most cells a chaser follows one plan for (the article's 100).
    pub max_path: u32,
}

impl LineConfig {
    /// Checks the invariants [`LineSim::new`] relies on; the message names
    /// the offending item.
    pub fn check(&self) -> Result<(), SimError> {
        self.check_text().map_err(SimError::config)
    }

    fn check_text(&self) -> Result<(), String> {
        let open = |c: Cell, what: &str| -> Result<(), String> {
            if !self.grid.contains(c) {
                Err(format!(
                    "{what} {c} is off the {}×{} grid",
                    self.grid.width(),
                    self.grid.height()
                ))
            } else if self.grid.is_wall(c) {
                Err(format!("{what} {c} is inside a wall"))
            } else {
                Ok(())
            }
        };
        if self.targets.is_empty() {
            return Err("a line scenario needs at least one target".into());
        }
        if self.targets.len() > MAX_ACTORS || self.chasers.len() > MAX_ACTORS {
            return Err(format!(
                "a line scenario has at most {MAX_ACTORS} targets and {MAX_ACTORS} chasers"
            ));
        }
        for (i, t) in self.targets.iter().enumerate() {
            open(*t, &format!("target {i}"))?;
        }
        for (i, c) in self.chasers.iter().enumerate() {
            open(c.start, &format!("chaser {i}"))?;
            if c.target as usize >= self.targets.len() {
                return Err(format!(
                    "chaser {i} chases target {}, but there are only {} targets",
                    c.target,
                    self.targets.len()
                ));
            }
        }
        for (i, m) in self.moves.iter().enumerate() {
            if m.target as usize >= self.targets.len() {
                return Err(format!(
                    "move {i} moves target {}, which does not exist",
                    m.target
                ));
            }
            open(m.to, &format!("move {i} destination"))?;
            if i > 0 && self.moves[i - 1].tick > m.tick {
                return Err(format!(
                    "move {i} is out of order: moves must be sorted by tick"
                ));
            }
        }
        if self.random_radius < 0 || self.random_radius > 1000 {
            return Err("random_radius must be in 0..=1000".into());
        }
        if !(0..=9).contains(&self.eye_height) {
            return Err("eye_height must be in 0..=9".into());
        }
        if self.max_path == 0 {
            return Err("max_path must be at least 1".into());
        }
        Ok(())
    }
}

/// What a chaser is doing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Status {
    /// It has not moved yet (tick 0).
    Ready,
    /// It stepped this tick.
    Walking,
    /// It stands on its target.
    Arrived,
    /// The next cell of its plan is a wall.
    Blocked {
        /// The wall in the way.
        wall: Cell,
    },
    /// It followed its plan for `max_path` cells and waits for the target to move.
    PlanExhausted,
}

/// The state of one chaser.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ChaserState {
    /// Where it stands.
    pub pos: Cell,
    /// The line it follows, if any, with the walk so far (error term included).
    pub plan: Option<Stepper>,
    /// What it did this tick.
    pub status: Status,
    /// Does the chaser see its target?
    pub sight: Sight,
    /// Does the target see the chaser? (Not always the same answer.)
    pub sight_back: Sight,
}

/// Everything that changes in a line scenario.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct LineState {
    /// Ticks stepped.
    pub tick: u64,
    /// The generator of the random target moves.
    pub rng: Pcg32,
    /// Where the targets are.
    pub targets: Vec<Cell>,
    /// The chasers, in id order.
    pub chasers: Vec<ChaserState>,
    /// Index of the first scripted move not yet applied.
    pub next_move: u32,
}

/// What a step of the line sim explains.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum LineEvent {
    /// A chaser computed a new line.
    Planned {
        /// Chaser id.
        chaser: u32,
        /// The line, with `dx, dy, sx, sy`; its `f0()` is the first error term.
        line: Line,
    },
    /// A chaser stepped along its line.
    Stepped {
        /// Chaser id.
        chaser: u32,
        /// Where it was.
        from: Cell,
        /// The step: cell reached, error term before and after, the decision.
        step: Step,
    },
    /// The next cell is a wall; the chaser waits.
    Blocked {
        /// Chaser id.
        chaser: u32,
        /// Where it stands.
        at: Cell,
        /// The wall in the way.
        wall: Cell,
    },
    /// The chaser stands on its target.
    Arrived {
        /// Chaser id.
        chaser: u32,
        /// Where.
        at: Cell,
    },
    /// The chaser walked `max_path` cells of one plan and stops.
    PlanExhausted {
        /// Chaser id.
        chaser: u32,
    },
    /// A target moved.
    TargetMoved {
        /// Target id.
        target: u32,
        /// Old cell.
        from: Cell,
        /// New cell.
        to: Cell,
        /// True for a seeded random move, false for a scripted one.
        random: bool,
    },
}

/// The line-of-sight and chase simulation.
#[derive(Clone, Debug)]
pub struct LineSim {
    cfg: LineConfig,
    state: LineState,
}

impl LineSim {
    /// The sim at tick 0 (moves scheduled for tick 0 already applied), or
    /// the first problem [`LineConfig::check`] finds.
    pub fn new(cfg: LineConfig) -> Result<LineSim, SimError> {
        Self::new_text(cfg).map_err(SimError::config)
    }

    fn new_text(cfg: LineConfig) -> Result<LineSim, String> {
        cfg.check()?;
        let chasers = cfg
            .chasers
            .iter()
            .map(|c| ChaserState {
                pos: c.start,
                plan: None,
                status: Status::Ready,
                sight: Sight::default(),
                sight_back: Sight::default(),
            })
            .collect();
        let mut sim = LineSim {
            state: LineState {
                tick: 0,
                rng: Pcg32::new(cfg.seed, 3),
                targets: cfg.targets.clone(),
                chasers,
                next_move: 0,
            },
            cfg,
        };
        sim.apply_moves(&mut super::NoTrace);
        sim.update_sight();
        sim.refresh_arrivals();
        Ok(sim)
    }

    /// Replaces the state with a recorded one (a replay's frame, for the
    /// viewer to step from), or says why the chasers cannot step from it:
    /// as many targets and chasers as the scenario, all on the grid, every
    /// plan a line between cells of the grid walked from its start, and
    /// the scripted-move counter within the script. The sim is unchanged
    /// on error.
    pub fn restore(&mut self, state: LineState) -> Result<(), SimError> {
        self.restore_text(state).map_err(SimError::state)
    }

    fn restore_text(&mut self, state: LineState) -> Result<(), String> {
        let grid = &self.cfg.grid;
        if state.targets.len() != self.cfg.targets.len()
            || state.chasers.len() != self.cfg.chasers.len()
        {
            return Err(format!(
                "the state has {} targets and {} chasers, the scenario {} and {}",
                state.targets.len(),
                state.chasers.len(),
                self.cfg.targets.len(),
                self.cfg.chasers.len()
            ));
        }
        if let Some(i) = state.targets.iter().position(|&t| !grid.contains(t)) {
            return Err(format!("target {i} is off the grid"));
        }
        for (i, c) in state.chasers.iter().enumerate() {
            if !grid.contains(c.pos) {
                return Err(format!("chaser {i} is off the grid"));
            }
            if let Some(p) = &c.plan {
                let l = p.line();
                let ok = grid.contains(l.from) && grid.contains(l.to) && p.done() <= l.len() && {
                    let mut s = Line::new(l.from, l.to).stepper();
                    (0..p.done()).for_each(|_| {
                        s.advance();
                    });
                    s == *p
                };
                if !ok {
                    return Err(format!("chaser {i}'s plan is not a walk along a line"));
                }
            }
        }
        if state.next_move as usize > self.cfg.moves.len() {
            return Err(format!(
                "the state has applied {} scripted moves of {}",
                state.next_move,
                self.cfg.moves.len()
            ));
        }
        self.state = state;
        Ok(())
    }

    /// The configuration.
    pub fn config(&self) -> &LineConfig {
        &self.cfg
    }

    /// Moves target `target` to `to` between ticks (a viewer drag; replays
    /// record it as an [`crate::sim::Input`]). The chasers see the new
    /// position on their next step, as with a scripted move.
    pub fn move_target(&mut self, target: u32, to: Cell) -> Result<(), SimError> {
        self.move_target_text(target, to).map_err(SimError::input)
    }

    fn move_target_text(&mut self, target: u32, to: Cell) -> Result<(), String> {
        if target as usize >= self.state.targets.len() {
            return Err(format!(
                "there is no target {target} (the scenario has {})",
                self.state.targets.len()
            ));
        }
        if !self.cfg.grid.contains(to) {
            return Err(format!(
                "{to} is off the {}×{} grid",
                self.cfg.grid.width(),
                self.cfg.grid.height()
            ));
        }
        if self.cfg.grid.is_wall(to) {
            return Err(format!("{to} is inside a wall"));
        }
        self.state.targets[target as usize] = to;
        Ok(())
    }

    /// Moves chaser `chaser` between ticks (a viewer drag of a line's
    /// start; replays record it as an [`crate::sim::Input`]): it drops its
    /// plan and draws a new line from there at the next step.
    pub fn move_chaser(&mut self, chaser: u32, to: Cell) -> Result<(), SimError> {
        let n = self.state.chasers.len();
        if chaser as usize >= n {
            return Err(SimError::input(format!(
                "there is no chaser {chaser} (the scenario has {n})"
            )));
        }
        self.open_cell(to)?;
        let c = &mut self.state.chasers[chaser as usize];
        c.pos = to;
        c.plan = None;
        Ok(())
    }

    /// Checks that `to` is on the grid and not a wall.
    fn open_cell(&self, to: Cell) -> Result<(), SimError> {
        let g = &self.cfg.grid;
        if !g.contains(to) {
            return Err(SimError::input(format!(
                "{to} is off the {}×{} grid",
                g.width(),
                g.height()
            )));
        }
        if g.is_wall(to) {
            return Err(SimError::input(format!("{to} is inside a wall")));
        }
        Ok(())
    }

    /// Paints one cell of the terrain between ticks (the viewer's brush;
    /// replays record it as an [`crate::sim::Input`]). A wall is refused
    /// where a chaser or a target stands; lines of sight see the new
    /// terrain from the next step, and a plan that meets a new wall stops
    /// there, as it would at any wall.
    pub fn paint(&mut self, at: Cell, to: Ground) -> Result<(), SimError> {
        if to == Ground::Wall {
            if let Some(i) = self.state.chasers.iter().position(|c| c.pos == at) {
                return Err(SimError::input(format!("chaser {i} stands on {at}")));
            }
            if let Some(i) = self.state.targets.iter().position(|&t| t == at) {
                return Err(SimError::input(format!("target {i} stands on {at}")));
            }
        }
        to.paint(&mut self.cfg.grid, at)
    }

    /// Takes the parameters of `new` between ticks (a teacher's live
    /// change, [`crate::sim::Input::Set`]): the eye height and each
    /// chaser's `recompute_every_tick`. The chasers, targets and terrain
    /// stay as they are. Another number of chasers is refused.
    pub fn reconfigure(&mut self, new: &LineConfig) -> Result<(), SimError> {
        if new.chasers.len() != self.cfg.chasers.len() {
            return Err(SimError::input(format!(
                "a running chase keeps its {} chasers",
                self.cfg.chasers.len()
            )));
        }
        self.cfg.eye_height = new.eye_height;
        for (c, n) in self.cfg.chasers.iter_mut().zip(&new.chasers) {
            c.recompute_every_tick = n.recompute_every_tick;
        }
        Ok(())
    }

    /// The plan chaser `i` will follow at the coming step, as [`Sim::step`]
    /// decides it: none when it stands on its target (or there is no such
    /// chaser); its current plan while that still leads to the target and
    /// it does not recompute every tick; otherwise the new line from where
    /// it stands. Pure: the viewer shows it at tick 0, and after a target
    /// moved, before the step that makes it.
    pub fn coming_plan(&self, i: usize) -> Option<Stepper> {
        let c = self.state.chasers.get(i)?;
        let cfg = self.cfg.chasers.get(i)?;
        let target = self.state.targets[cfg.target as usize];
        if c.pos == target {
            return None;
        }
        match c.plan {
            Some(p) if p.line().to == target && !cfg.recompute_every_tick => Some(p),
            _ => Some(Line::new(c.pos, target).stepper()),
        }
    }

    fn refresh_arrivals(&mut self) {
        for (c, cfg) in self.state.chasers.iter_mut().zip(&self.cfg.chasers) {
            if c.pos == self.state.targets[cfg.target as usize] {
                c.status = Status::Arrived;
            }
        }
    }

    fn apply_moves<S: Sink<LineEvent>>(&mut self, sink: &mut S) {
        let tick = self.state.tick;
        while let Some(m) = self.cfg.moves.get(self.state.next_move as usize) {
            if m.tick > tick {
                break;
            }
            self.state.next_move += 1;
            let from = self.state.targets[m.target as usize];
            self.state.targets[m.target as usize] = m.to;
            if S::ENABLED && from != m.to {
                sink.record(LineEvent::TargetMoved {
                    target: m.target,
                    from,
                    to: m.to,
                    random: false,
                });
            }
        }
        let every = self.cfg.random_every as u64;
        if every > 0 && tick > 0 && tick.is_multiple_of(every) {
            let r = self.cfg.random_radius;
            for i in 0..self.state.targets.len() {
                let from = self.state.targets[i];
                let dx = self.state.rng.range_i32(-r, r);
                let dy = self.state.rng.range_i32(-r, r);
                let w = self.cfg.grid.width() as i64 - 1;
                let h = self.cfg.grid.height() as i64 - 1;
                let to = Cell::new(
                    (from.x as i64 + dx as i64).clamp(0, w) as i32,
                    (from.y as i64 + dy as i64).clamp(0, h) as i32,
                );
                if to != from && !self.cfg.grid.is_wall(to) {
                    self.state.targets[i] = to;
                    if S::ENABLED {
                        sink.record(LineEvent::TargetMoved {
                            target: i as u32,
                            from,
                            to,
                            random: true,
                        });
                    }
                }
            }
        }
    }

    fn update_sight(&mut self) {
        let eye = self.cfg.eye_height;
        for (c, cfg) in self.state.chasers.iter_mut().zip(&self.cfg.chasers) {
            let t = self.state.targets[cfg.target as usize];
            c.sight = line_of_sight(&self.cfg.grid, c.pos, t, eye);
            c.sight_back = line_of_sight(&self.cfg.grid, t, c.pos, eye);
        }
    }
}

impl Sim for LineSim {
    type State = LineState;
    type Event = LineEvent;

    fn step<S: Sink<LineEvent>>(&mut self, sink: &mut S) {
        for (id, (c, cfg)) in self
            .state
            .chasers
            .iter_mut()
            .zip(&self.cfg.chasers)
            .enumerate()
        {
            let chaser = id as u32;
            let target = self.state.targets[cfg.target as usize];
            if c.pos == target {
                c.status = Status::Arrived;
                if S::ENABLED {
                    sink.record(LineEvent::Arrived { chaser, at: c.pos });
                }
                continue;
            }
            // Keep the plan while it still leads to the target (the article's
            // precompute rule), unless this chaser recomputes every tick.
            let plan = match c.plan.as_mut() {
                Some(p) if p.line().to == target && !cfg.recompute_every_tick => p,
                _ => {
                    let line = Line::new(c.pos, target);
                    if S::ENABLED {
                        sink.record(LineEvent::Planned { chaser, line });
                    }
                    c.plan.insert(line.stepper())
                }
            };
            if plan.done() >= self.cfg.max_path as u64 {
                c.status = Status::PlanExhausted;
                if S::ENABLED {
                    sink.record(LineEvent::PlanExhausted { chaser });
                }
                continue;
            }
            // The plan ends at the target and the chaser is not there, so a
            // step always exists.
            let Some(next) = plan.peek() else { continue };
            if self.cfg.grid.is_wall(next.cell) {
                c.status = Status::Blocked { wall: next.cell };
                if S::ENABLED {
                    sink.record(LineEvent::Blocked {
                        chaser,
                        at: c.pos,
                        wall: next.cell,
                    });
                }
                continue;
            }
            plan.advance();
            let from = c.pos;
            c.pos = next.cell;
            c.status = if c.pos == target {
                Status::Arrived
            } else {
                Status::Walking
            };
            if S::ENABLED {
                sink.record(LineEvent::Stepped {
                    chaser,
                    from,
                    step: next,
                });
                if c.pos == target {
                    sink.record(LineEvent::Arrived { chaser, at: c.pos });
                }
            }
        }
        self.state.tick += 1;
        self.apply_moves(sink);
        self.update_sight();
    }

    fn tick(&self) -> u64 {
        self.state.tick
    }

    fn dt(&self) -> Fx {
        Fx::ONE
    }

    fn state(&self) -> &LineState {
        &self.state
    }
}
