//! The sims a lesson can name, each described once: its on-disk id, its
//! name, its lesson scenario parser, the overlays, highlights, focus kinds
//! and callout figures its beats may use, and its playback speed.
//!
//! Every part of flockstep that needs to know about a sim by its name or
//! its number — the lesson parser, a replay's header, the viewer — asks
//! [`by_name`] or [`by_id`], and an unknown name or number is an error
//! naming it: nothing maps an unknown sim to a known one. A user's own sim
//! joins them through [`crate::user::register`].

use super::node::Params;
use super::schema::Param;
use super::variants::PaneName;
use super::{LessonError, Names};
use crate::sim::{Scenario, SimError};

pub use crate::sim::custom::{FIRST_USER_ID, SimId};

/// A beat's `highlight` its sim does not know, and the forms it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownHighlight {
    /// The highlight as written.
    pub highlight: String,
    /// The sim's name.
    pub sim: &'static str,
    /// The forms the sim knows, in words (`entity:N`).
    pub forms: &'static str,
}

impl std::fmt::Display for UnknownHighlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self {
            highlight,
            sim,
            forms,
        } = self;
        write!(
            f,
            "unknown highlight `{highlight}` for sim {sim}; use {forms}"
        )
    }
}

impl std::error::Error for UnknownHighlight {}

/// A sim's description, registered once ([`BUILTIN`]).
pub trait Registration: Sync {
    /// Its number in a replay's header.
    fn id(&self) -> SimId;
    /// Its name as a lesson writes it (`sim = "flock"`).
    fn name(&self) -> &'static str;
    /// Playback speed at 1× when a lesson sets no `rate`, in ticks per
    /// second.
    fn default_rate(&self) -> u32;
    /// The overlays its beats can show, in the viewer's key order.
    fn overlays(&self) -> &'static [&'static str];
    /// The overlays the viewer shows on a beat that names none.
    fn default_overlays(&self) -> &'static [&'static str];
    /// The entity kinds a beat can `focus` on (`boid` for `boid:N`).
    fn focus_kinds(&self) -> &'static [&'static str];
    /// Checks one `highlight` name of a beat.
    fn check_highlight(&self, highlight: &str) -> Result<(), UnknownHighlight>;
    /// The figures a callout at an entity of `kind` may name (besides
    /// `{param.NAME}`).
    fn callout_keys(&self, kind: &str) -> &'static [&'static str];
    /// What a lesson calls its side-by-side parts: `panes` (variants) or
    /// `searches`.
    fn parts(&self) -> &'static str {
        "panes"
    }
    /// Its scenario parameters ([`super::schema`]); empty: it reads its
    /// table without one.
    fn params(&self) -> &'static [Param] {
        &[]
    }
    /// Reads its `[scenario]` table (`sim` already taken): display names of
    /// entities go to `names`, pane titles to `titles`.
    fn scenario(
        &self,
        params: &mut Params,
        names: &mut Names,
        titles: &mut Vec<PaneName>,
    ) -> Result<Scenario, LessonError>;
}

/// A built-in sim's registration, as data: what [`Registration`] asks,
/// with its three checks and readers as functions.
pub struct Builtin {
    /// [`Registration::id`].
    pub id: SimId,
    /// [`Registration::name`].
    pub name: &'static str,
    /// [`Registration::default_rate`].
    pub rate: u32,
    /// [`Registration::overlays`].
    pub overlays: &'static [&'static str],
    /// [`Registration::default_overlays`].
    pub default_overlays: &'static [&'static str],
    /// [`Registration::focus_kinds`].
    pub focus_kinds: &'static [&'static str],
    /// [`Registration::parts`].
    pub parts: &'static str,
    /// [`Registration::check_highlight`].
    pub check_highlight: fn(&str) -> Result<(), UnknownHighlight>,
    /// [`Registration::callout_keys`].
    pub callout_keys: fn(&str) -> &'static [&'static str],
    /// [`Registration::params`].
    pub params: &'static [Param],
    /// [`Registration::scenario`].
    pub scenario: ScenarioReader,
}

/// Reads a `[scenario]` table (see [`Registration::scenario`]).
pub type ScenarioReader =
    fn(&mut Params, &mut Names, &mut Vec<PaneName>) -> Result<Scenario, LessonError>;

impl Registration for Builtin {
    fn id(&self) -> SimId {
        self.id
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn default_rate(&self) -> u32 {
        self.rate
    }

    fn overlays(&self) -> &'static [&'static str] {
        self.overlays
    }

    fn default_overlays(&self) -> &'static [&'static str] {
        self.default_overlays
    }

    fn focus_kinds(&self) -> &'static [&'static str] {
        self.focus_kinds
    }

    fn check_highlight(&self, highlight: &str) -> Result<(), UnknownHighlight> {
        (self.check_highlight)(highlight)
    }

    fn callout_keys(&self, kind: &str) -> &'static [&'static str] {
        (self.callout_keys)(kind)
    }

    fn parts(&self) -> &'static str {
        self.parts
    }

    fn params(&self) -> &'static [Param] {
        self.params
    }

    fn scenario(
        &self,
        params: &mut Params,
        names: &mut Names,
        titles: &mut Vec<PaneName>,
    ) -> Result<Scenario, LessonError> {
        (self.scenario)(params, names, titles)
    }
}

/// The user sims registered in this process ([`crate::user::register`]).
static USER: std::sync::RwLock<Vec<&'static dyn Registration>> = std::sync::RwLock::new(Vec::new());

/// Adds a user sim's registration; the same one again does nothing, and
/// one whose number or name another sim has is refused.
pub fn register(r: &'static dyn Registration) -> Result<(), SimError> {
    if r.id().0 < FIRST_USER_ID {
        return Err(SimError::registration(format!(
            "sim `{}` has number {}: numbers below {FIRST_USER_ID} are flockstep's own",
            r.name(),
            r.id().0
        )));
    }
    let mut user = USER
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let clash = BUILTIN
        .iter()
        .chain(user.iter())
        .find(|o| o.id() == r.id() || o.name() == r.name());
    match clash {
        Some(o) if o.id() == r.id() && o.name() == r.name() => Ok(()),
        Some(o) => Err(SimError::registration(format!(
            "sim `{}` ({}) clashes with the registered sim `{}` ({})",
            r.name(),
            r.id().0,
            o.name(),
            o.id().0
        ))),
        None => {
            user.push(r);
            Ok(())
        }
    }
}

/// Every registered sim: flockstep's own, then the user's in the order
/// they were registered.
pub fn all() -> Vec<&'static dyn Registration> {
    let user = USER
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    BUILTIN
        .iter()
        .copied()
        .chain(user.iter().copied())
        .collect()
}

impl core::fmt::Debug for dyn Registration {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Two registrations are the same sim when their numbers are.
impl PartialEq for dyn Registration {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for dyn Registration {}

/// The sim of a scenario (for variants, their sim's; `None` for an empty
/// list of panes, which names none).
pub fn of(scenario: &Scenario) -> Option<&'static dyn Registration> {
    by_name(scenario.sim_name())
}

/// The line-of-sight and chase sim (article 003).
pub const LINE: SimId = SimId(1);
/// The flocking sims (articles 000, 002, 004).
pub const FLOCK: SimId = SimId(2);
/// A* on a height grid (article 001).
pub const PATH: SimId = SimId(3);

/// flockstep's own sims.
pub static BUILTIN: [&dyn Registration; 3] = [
    &super::line::REGISTRATION,
    &super::flock::REGISTRATION,
    &super::path::REGISTRATION,
];

/// The sim a lesson names, if any.
pub fn by_name(name: &str) -> Option<&'static dyn Registration> {
    all().into_iter().find(|r| r.name() == name)
}

/// The sim with this header number, if any.
pub fn by_id(id: SimId) -> Option<&'static dyn Registration> {
    all().into_iter().find(|r| r.id() == id)
}

/// The names of the sims, sorted, for messages.
pub fn names() -> Vec<&'static str> {
    let mut v: Vec<&str> = all().iter().map(|r| r.name()).collect();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_unique_and_round_trip() {
        for r in BUILTIN {
            assert_eq!(by_name(r.name()).map(|s| s.id()), Some(r.id()));
            assert_eq!(by_id(r.id()).map(|s| s.name()), Some(r.name()));
            assert_ne!(r.id(), SimId(0));
        }
        assert_eq!(names(), ["flock", "line", "path"]);
        assert!(by_name("lines").is_none());
        assert!(by_id(SimId(4)).is_none());
        // The header numbers written before the registration existed.
        assert_eq!(
            [LINE, FLOCK, PATH].map(|i| by_id(i).unwrap().name()),
            ["line", "flock", "path"]
        );
    }
}
