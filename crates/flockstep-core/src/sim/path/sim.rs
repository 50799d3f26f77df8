//! The lesson sim: a path lesson's searches stepped one expansion a tick.

use super::*;
use crate::sim::{Ground, SimError};

/// Everything that changes in a path scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathState {
    /// Steps taken.
    pub tick: u64,
    /// One per search, in config order.
    pub searches: Vec<SearchState>,
}

/// A running path scenario: its searches stepped side by side.
#[derive(Clone, Debug)]
pub struct PathSim {
    pub(super) cfg: PathConfig,
    pub(super) state: PathState,
    /// Each search's move costs ([`CostRule::steps`]), built once.
    pub(super) steps: Vec<Steps>,
}

impl PathSim {
    /// A scenario at tick 0, or why it is inconsistent.
    pub fn new(cfg: PathConfig) -> Result<PathSim, SimError> {
        Self::new_text(cfg).map_err(SimError::config)
    }

    fn new_text(cfg: PathConfig) -> Result<PathSim, String> {
        cfg.check()?;
        let start = cfg.start.y as u32 * cfg.grid.width() + cfg.start.x as u32;
        let steps: Vec<Steps> = cfg.searches.iter().map(|s| s.rule.steps()).collect();
        let searches = cfg
            .searches
            .iter()
            .zip(&steps)
            .map(|(s, &t)| {
                let p = Problem::with(&cfg.grid, cfg.goal, s, t);
                SearchState::new(&p, start, Heap::default())
            })
            .collect();
        Ok(PathSim {
            cfg,
            state: PathState { tick: 0, searches },
            steps,
        })
    }

    /// Moves the goal between ticks (a viewer drag; replays record it as an
    /// [`crate::sim::Input`]): every search starts again from the start
    /// towards the new goal, and the tick count goes on.
    pub fn move_goal(&mut self, to: Cell) -> Result<(), SimError> {
        self.move_goal_text(to).map_err(SimError::input)
    }

    fn move_goal_text(&mut self, to: Cell) -> Result<(), String> {
        let mut cfg = self.cfg.clone();
        cfg.goal = to;
        let fresh = PathSim::new(cfg)?;
        self.cfg = fresh.cfg;
        self.state.searches = fresh.state.searches;
        self.steps = fresh.steps;
        Ok(())
    }

    /// Moves the start between ticks (a viewer drag): every search starts
    /// again from there, and the tick count goes on.
    pub fn move_start(&mut self, to: Cell) -> Result<(), SimError> {
        let mut cfg = self.cfg.clone();
        cfg.start = to;
        self.restart(cfg, |_| true)
    }

    /// Paints one cell of the map between ticks (the viewer's brush): every
    /// search starts again on the new map. A wall on the start or the goal
    /// is refused.
    pub fn paint(&mut self, at: Cell, to: Ground) -> Result<(), SimError> {
        let mut cfg = self.cfg.clone();
        to.paint(&mut cfg.grid, at)?;
        if cfg.grid.terrain() == self.cfg.grid.terrain() {
            return Ok(()); // nothing changed: the searches go on
        }
        self.restart(cfg, |_| true)
    }

    /// Takes the search parameters of `new` between ticks (a teacher's
    /// live change, [`crate::sim::Input::Set`]) for search `search`, or
    /// for every search: its heuristic, tie rule, moves, costs and closed
    /// set. A search whose parameters changed starts again on today's map
    /// (painted, with the start and goal where they were moved); the
    /// others go on.
    pub fn reconfigure(&mut self, new: &PathConfig, search: Option<u32>) -> Result<(), SimError> {
        let n = self.cfg.searches.len();
        if new.searches.len() != n || search.is_some_and(|s| s as usize >= n) {
            return Err(SimError::input(format!(
                "the scenario runs {n} searches{}",
                search.map_or(String::new(), |s| format!(", not a search {s}"))
            )));
        }
        let mut cfg = self.cfg.clone();
        let mut changed = vec![false; n];
        for (i, (c, s)) in cfg.searches.iter_mut().zip(&new.searches).enumerate() {
            if search.is_none_or(|k| k as usize == i) && *c != *s {
                let label = core::mem::take(&mut c.label);
                *c = SearchConfig { label, ..s.clone() };
                changed[i] = true;
            }
        }
        self.restart(cfg, |i| changed[i])
    }

    /// Takes `cfg` (checked) and starts again the searches `again` names.
    fn restart(&mut self, cfg: PathConfig, again: impl Fn(usize) -> bool) -> Result<(), SimError> {
        let fresh = PathSim::new(cfg).map_err(|e| SimError::input(e.message))?;
        for (i, (s, f)) in self
            .state
            .searches
            .iter_mut()
            .zip(fresh.state.searches)
            .enumerate()
        {
            if again(i) {
                *s = f;
            }
        }
        self.cfg = fresh.cfg;
        self.steps = fresh.steps;
        Ok(())
    }

    /// Replaces the state with a recorded one (a replay's frame, for the
    /// viewer to step from), or says why these searches cannot step from
    /// it: one search per configured search, one `g` and link per cell,
    /// links that point on the grid, open entries and the current cell on
    /// the grid, and a found search's parent chain leading back to the
    /// start. The sim is unchanged on error.
    pub fn restore(&mut self, state: PathState) -> Result<(), SimError> {
        self.restore_text(state).map_err(SimError::state)
    }

    fn restore_text(&mut self, state: PathState) -> Result<(), String> {
        let (w, h) = (self.cfg.grid.width(), self.cfg.grid.height());
        let cells = (w * h) as usize;
        if state.searches.len() != self.cfg.searches.len() {
            return Err(format!(
                "the state has {} searches, the scenario {}",
                state.searches.len(),
                self.cfg.searches.len()
            ));
        }
        for (i, (s, sc)) in state.searches.iter().zip(&self.cfg.searches).enumerate() {
            let fail = |m: String| Err(format!("search {i}: {m}"));
            if s.g.len() != cells || s.link.len() != cells {
                return fail(format!(
                    "{} costs and {} links for a grid of {cells} cells",
                    s.g.len(),
                    s.link.len()
                ));
            }
            for (c, &l) in s.link.iter().enumerate() {
                let dir = l & !CLOSED;
                if dir == NO_PARENT {
                    continue;
                }
                let (x, y) = ((c as u32 % w) as i32, (c as u32 / w) as i32);
                let links = match sc.moves {
                    Moves::Four => DIRS.len(),
                    Moves::Eight => LINKS.len(),
                };
                let ok = (dir as usize) < links && {
                    let (dx, dy) = LINKS[dir as usize];
                    self.cfg.grid.contains(Cell::new(x + dx, y + dy))
                };
                if !ok {
                    return fail(format!("cell ({x}, {y}) has a link off the grid"));
                }
            }
            if let Some(e) =
                s.open.0.iter().find(|e| {
                    e.cell as usize >= cells || u32::from(e.x) + u32::from(e.y) * w != e.cell
                })
            {
                return fail(format!(
                    "an open entry names cell {} at ({}, {})",
                    e.cell, e.x, e.y
                ));
            }
            // Searches expand only cells holding a height (the untraced
            // runs' tables rely on it): none starts or is pushed in a wall.
            let terrain = self.cfg.grid.terrain();
            if let Some(e) = s.open.0.iter().find(|e| terrain[e.cell as usize] == WALL) {
                return fail(format!(
                    "an open entry is in the wall at ({}, {})",
                    e.x, e.y
                ));
            }
            if s.current.is_some_and(|c| c as usize >= cells) {
                return fail("the current cell is off the grid".into());
            }
            if matches!(s.status, Status::Found(_))
                && s.parents(w, self.cfg.goal).nth(cells).is_some()
            {
                return fail("the parent links go round in a loop".into());
            }
        }
        self.state = state;
        Ok(())
    }

    /// The scenario.
    pub fn config(&self) -> &PathConfig {
        &self.cfg
    }

    /// Whether every search has ended.
    pub fn done(&self) -> bool {
        self.state
            .searches
            .iter()
            .all(|s| s.status != Status::Searching)
    }
}

impl Sim for PathSim {
    type State = PathState;
    type Event = PathEvent;

    /// One expansion of every search still running (finished searches
    /// stay as they are, so a lesson can keep ticking past the end).
    fn step<S: Sink<PathEvent>>(&mut self, sink: &mut S) {
        for (i, (st, sc)) in self
            .state
            .searches
            .iter_mut()
            .zip(&self.cfg.searches)
            .enumerate()
        {
            if S::ENABLED && self.state.tick == 0 && !sc.heuristic.is_admissible(sc.moves) {
                sink.record(PathEvent::NotAdmissible { search: i as u32 });
            }
            let p = Problem::with(&self.cfg.grid, self.cfg.goal, sc, self.steps[i]);
            st.step::<S, false>(&p, i as u32, sink);
        }
        self.state.tick += 1;
    }

    fn tick(&self) -> u64 {
        self.state.tick
    }

    fn dt(&self) -> Fx {
        Fx::ONE
    }

    fn state(&self) -> &PathState {
        &self.state
    }
}
