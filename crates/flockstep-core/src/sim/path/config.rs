//! A search's settings and a path lesson's configuration.

use super::*;
use crate::sim::SimError;

/// The most searches a scenario runs side by side (each keeps 9 bytes per
/// cell: eight on a 4096² map is 1.2 GB).
pub const MAX_SEARCHES: usize = 8;

/// One search of a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// A short name for pictures (`"A*"`, `"Dijkstra"`).
    pub label: String,
    /// The move-cost rule.
    pub rule: CostRule,
    /// The heuristic.
    pub heuristic: Heuristic,
    /// The tie-break.
    pub tie_break: TieBreak,
    /// Whether expanded cells are closed and stale open entries skipped
    /// (true, the default); false is article 001's list with no closed
    /// set, where every popped entry is expanded, stale copies included.
    pub closed_set: bool,
    /// 4-way (the article's) or 8-way moves.
    pub moves: Moves,
}

/// The article's search: Euclidean h (w = 1), first pushed first among
/// equal f, a closed set, 4-way moves, the default cost rule, no label.
impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            label: String::new(),
            rule: CostRule::default(),
            heuristic: Heuristic::plain(HeuristicKind::Euclidean),
            tie_break: TieBreak::Fifo,
            closed_set: true,
            moves: Moves::Four,
        }
    }
}

/// A checked path scenario: one map, one start and goal, one or more
/// searches stepped side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathConfig {
    /// The terrain.
    pub grid: Grid,
    /// Where every search starts.
    pub start: Cell,
    /// Where every search goes.
    pub goal: Cell,
    /// The searches, stepped together.
    pub searches: Vec<SearchConfig>,
}

impl PathConfig {
    /// Checks what [`PathSim::new`] relies on.
    pub fn check(&self) -> Result<(), SimError> {
        self.check_text().map_err(SimError::config)
    }

    fn check_text(&self) -> Result<(), String> {
        for (what, c) in [("start", self.start), ("goal", self.goal)] {
            if !self.grid.contains(c) {
                return Err(format!(
                    "{what} {c} is off the {}×{} map",
                    self.grid.width(),
                    self.grid.height()
                ));
            }
            if self.grid.is_wall(c) {
                return Err(format!("{what} {c} is inside a wall"));
            }
        }
        if self.searches.is_empty() || self.searches.len() > MAX_SEARCHES {
            return Err(format!(
                "a path scenario runs 1..={MAX_SEARCHES} searches, not {}",
                self.searches.len()
            ));
        }
        for s in &self.searches {
            if s.rule.uphill_weight > MAX_WEIGHT || s.rule.downhill_weight > MAX_WEIGHT {
                return Err(format!("weights must be in 0..={MAX_WEIGHT}"));
            }
            if s.heuristic.weight < Fx::ZERO || s.heuristic.weight > Fx::from_int(1000) {
                return Err("the heuristic weight must be in 0..=1000".into());
            }
        }
        Ok(())
    }
}
