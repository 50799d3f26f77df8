//! What can go wrong with a sim, for a program to match on: a scenario
//! that breaks a limit, a recorded state or an input that does not fit, a
//! registration that clashes. The message says it for a person.

use core::fmt;

/// The kind of a [`SimError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SimErrorKind {
    /// A configuration the sim cannot start from (a scenario's checks).
    Config,
    /// A recorded state that does not fit the sim (`restore`).
    State,
    /// An input that does not apply: of another sim, out of range, or
    /// refused by the sim (`apply`).
    Input,
    /// A user sim's registration: a number or name taken, or reserved.
    Registration,
}

/// A sim error: its kind and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError {
    /// What went wrong, for a program.
    pub kind: SimErrorKind,
    /// What went wrong, for a person.
    pub message: String,
}

impl SimError {
    /// A configuration the sim cannot start from.
    pub fn config(message: impl Into<String>) -> SimError {
        SimError {
            kind: SimErrorKind::Config,
            message: message.into(),
        }
    }

    /// A state that does not fit the sim.
    pub fn state(message: impl Into<String>) -> SimError {
        SimError {
            kind: SimErrorKind::State,
            message: message.into(),
        }
    }

    /// An input that does not apply.
    pub fn input(message: impl Into<String>) -> SimError {
        SimError {
            kind: SimErrorKind::Input,
            message: message.into(),
        }
    }

    /// A registration that is refused.
    pub fn registration(message: impl Into<String>) -> SimError {
        SimError {
            kind: SimErrorKind::Registration,
            message: message.into(),
        }
    }

    /// The same error with its message prefixed (`variant 2: …`).
    pub fn context(mut self, prefix: impl fmt::Display) -> SimError {
        self.message = format!("{prefix}: {}", self.message);
        self
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SimError {}

/// For callers that report errors as text.
impl From<SimError> for String {
    fn from(e: SimError) -> String {
        e.message
    }
}

#[cfg(test)]
mod tests {
    use super::SimErrorKind;
    use crate::sim::{AnySim, Cell, Input, Scenario};
    use crate::testing::lesson;

    #[test]
    fn kinds_name_what_went_wrong() {
        let line = lesson("line-error-term", &[]);
        let mut sim = AnySim::new(&line.scenario).unwrap();
        let to = Cell::new(0, 0);
        let e = sim.apply(&Input::MoveGoal { to }).unwrap_err();
        assert_eq!(e.kind, SimErrorKind::Input, "{e}");
        assert!(e.message.contains("does not apply to a line sim"), "{e}");
        let flock = AnySim::new(&lesson("flock-weights", &[]).scenario).unwrap();
        let e = sim.restore(flock.snapshot()).unwrap_err();
        assert_eq!(e.kind, SimErrorKind::State, "{e}");
        // A configuration the checks refuse: a heading flock that sees
        // nothing.
        let Scenario::Flock(mut c) = lesson("flock-field-of-view", &[]).scenario else {
            panic!("a flock lesson")
        };
        if let crate::sim::flock::Model::Heading(p) = &mut c.model {
            p.view_range = crate::num::Fx::ZERO;
        }
        let e = AnySim::new(&Scenario::Flock(c)).unwrap_err();
        assert_eq!(e.kind, SimErrorKind::Config, "{e}");
        // Variants say which pane.
        let panes = lesson("flock-in-place", &[]);
        let mut sim = AnySim::new(&panes.scenario).unwrap();
        let e = sim.apply(&Input::MoveGoal { to }).unwrap_err();
        assert!(e.message.starts_with("variant 1: "), "{e}");
        assert_eq!(e.kind, SimErrorKind::Input);
    }
}
