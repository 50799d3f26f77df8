//! Sims from outside flockstep, as the rest of flockstep sees them: a
//! stepper behind a trait object ([`DynSim`]), its state as the bytes a
//! replay stores ([`CustomState`]), and its scenario as the bytes of its
//! configuration ([`CustomScenario`]), each naming its [`SimType`].
//!
//! A user does not implement these: [`crate::user`] turns a plain
//! [`super::Sim`] with a configuration into all of them. They live here
//! so that [`super::AnySim`], [`super::AnyState`] and [`super::Scenario`]
//! can hold such a sim beside the built-in ones.

use super::{Input, SimError};
use crate::fields::Leaf;
use crate::num::{Fx, Vec3};
use serde::{Deserialize, Serialize};

/// A sim's number in a replay's header: explicit and stable, never an
/// enum's order. 1 to 255 are flockstep's own (line 1, flock 2, path 3);
/// a user's sim takes one from 256 on; 0 is never a sim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SimId(pub u16);

/// The first number a user's sim may take.
pub const FIRST_USER_ID: u16 = 256;

/// One thing a default scene draws: a point with a name, and a direction
/// when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entity {
    /// Its label (`agent 0`).
    pub name: String,
    /// Where it is (`z` is ignored by the flat default scene).
    pub pos: Vec3,
    /// Where it is heading, if anywhere (drawn as a short arrow).
    pub heading: Option<Vec3>,
    /// What kind of thing it is, for its colour (`"agent"`, `"goal"`).
    pub kind: &'static str,
}

/// Why an entity moves as it does, as the default scene draws it when the
/// mark's overlay is on: a vector from the entity (a force, a desired
/// velocity), a circle round it (a radius that decides something), or a
/// line from it to a point (a target). Worked out from the state, so a
/// replay shows the same marks at the same tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The overlay that shows it: one of the registration's overlays.
    pub overlay: &'static str,
    /// The entity it belongs to: its index in [`DynSim::entities`].
    pub entity: usize,
    /// What is drawn.
    pub shape: MarkShape,
    /// What it says, beside it and in the side panel (`flee 0.05`).
    pub label: String,
}

/// The shape of a [`Mark`], in world units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkShape {
    /// A vector from the entity. Every arrow of a frame is drawn on one
    /// scale (the longest a fixed length on screen, none too short to
    /// show its direction), so arrows compare and add up as vectors do.
    Arrow(Vec3),
    /// A circle round the entity of this radius, drawn to the world's
    /// scale.
    Ring(Fx),
    /// A line from the entity to this point.
    Line(Vec3),
}

/// A grid under the entities, for a default scene: `width` × `height`
/// cells, row by row from the top (y = `height` − 1) down, each a shade:
/// 0 a wall (drawn darkest), 1 to 255 open ground from dark to light. Cell
/// (x, y) spans the world square [x, x + 1] × [y, y + 1], so an entity at
/// the centre of cell (x, y) is at (x + ½, y + ½).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cells {
    /// Cells across.
    pub width: u32,
    /// Cells down.
    pub height: u32,
    /// One shade a cell, `width` × `height` of them, top row first.
    pub shade: Vec<u8>,
}

/// A sim's kind as the sim layer needs it: its number and name, how to
/// build it from a configuration's bytes, and how to name a state's
/// fields from a state's bytes.
pub trait SimType: Sync {
    /// Its number in a replay's header.
    fn id(&self) -> SimId;
    /// Its name as a lesson writes it.
    fn name(&self) -> &'static str;
    /// A sim at tick 0 of the configuration encoded in `config`.
    fn build(&'static self, config: &[u8]) -> Result<Box<dyn DynSim>, SimError>;
    /// The named fields of the state encoded in `state`.
    fn leaves(&self, state: &[u8]) -> Result<Vec<Leaf>, SimError>;
}

impl core::fmt::Debug for dyn SimType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A user's sim, stepped through a trait object.
pub trait DynSim: Send + Sync {
    /// Its kind.
    fn sim_type(&self) -> &'static dyn SimType;
    /// One tick.
    fn step(&mut self);
    /// Ticks stepped since the start.
    fn tick(&self) -> u64;
    /// The length of one tick.
    fn dt(&self) -> Fx;
    /// The current state, encoded.
    fn snapshot(&self) -> CustomState;
    /// Replaces the state with a recorded one (the sim is unchanged on
    /// error).
    fn restore(&mut self, state: &CustomState) -> Result<(), SimError>;
    /// Applies an intervention, or says why it does not apply.
    fn apply(&mut self, input: &Input) -> Result<(), SimError>;
    /// Takes the parameters of a new configuration (encoded, as
    /// [`CustomScenario::config`]) while it runs: a teacher's live change
    /// ([`Input::Set`]). The sim is unchanged on error.
    fn reconfigure(&mut self, config: &[u8]) -> Result<(), SimError>;
    /// The stable hash of the current state: XXH64 of its encoding, as
    /// [`CustomState::state_hash`] computes it.
    fn state_hash(&self) -> u64 {
        self.snapshot().state_hash()
    }
    /// A plain-text picture of the current state.
    fn render_text(&self) -> String;
    /// What a default scene draws.
    fn entities(&self) -> Vec<Entity>;
    /// The corners of the world the entities move in (`min`, `max`).
    fn bounds(&self) -> (Vec3, Vec3);
    /// The grid under the entities, if the sim has one.
    fn cells(&self) -> Option<Cells>;
    /// Why its entities move as they do ([`Mark`]), for the default scene.
    fn marks(&self) -> Vec<Mark> {
        Vec::new()
    }
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynSim>;
}

/// A user sim, boxed: clones through [`DynSim::clone_box`], prints its
/// sim's name.
pub struct CustomSim(pub Box<dyn DynSim>);

impl Clone for CustomSim {
    fn clone(&self) -> Self {
        CustomSim(self.0.clone_box())
    }
}

impl core::fmt::Debug for CustomSim {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "CustomSim({} at tick {})",
            self.0.sim_type().name(),
            self.0.tick()
        )
    }
}

/// A user sim's state as a replay frame holds it: its sim's number and
/// the state's encoding (the replay codec's, [`crate::replay::codec`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomState {
    /// Its sim.
    pub sim: SimId,
    /// The encoded state.
    pub bytes: Vec<u8>,
}

impl CustomState {
    /// XXH64 (seed 0) of the encoding. The codec writes integers at
    /// their own width, lengths as `u64` and variants as `u32`, as the
    /// canonical encoding does ([`crate::canon`]), so for a state without
    /// `char`s this is its canonical hash too.
    pub fn state_hash(&self) -> u64 {
        let mut h = crate::num::Xxh64::new(0);
        h.update(&self.bytes);
        h.finish()
    }
}

/// A user sim's checked scenario: its kind, its configuration's encoding
/// and its seed.
#[derive(Clone, Debug)]
pub struct CustomScenario {
    /// Its sim.
    pub sim: &'static dyn SimType,
    /// The encoded configuration.
    pub config: Vec<u8>,
    /// The scenario's seed (0 when it has none).
    pub seed: u64,
}

/// Two scenarios are equal when their sims and configurations are.
impl PartialEq for CustomScenario {
    fn eq(&self, other: &Self) -> bool {
        self.sim.id() == other.sim.id() && self.config == other.config && self.seed == other.seed
    }
}

impl Eq for CustomScenario {}

/// The user sims' kinds, by number: registered once each, before their
/// lessons or replays are read ([`crate::user::register`] does it).
/// Lookups are by number, so the order of registration never matters.
static TYPES: std::sync::RwLock<Vec<&'static dyn SimType>> = std::sync::RwLock::new(Vec::new());

/// Adds a user sim's kind. Registering the same kind again does nothing;
/// another kind with its number or name, or a number below
/// [`FIRST_USER_ID`], is refused.
pub fn register_type(t: &'static dyn SimType) -> Result<(), SimError> {
    if t.id().0 < FIRST_USER_ID {
        return Err(SimError::registration(format!(
            "sim `{}` has number {}: numbers below {FIRST_USER_ID} are flockstep's own",
            t.name(),
            t.id().0
        )));
    }
    let mut types = TYPES
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match types
        .iter()
        .find(|o| o.id() == t.id() || o.name() == t.name())
    {
        Some(o) if o.id() == t.id() && o.name() == t.name() => Ok(()),
        Some(o) => Err(SimError::registration(format!(
            "sim `{}` ({}) clashes with the registered sim `{}` ({})",
            t.name(),
            t.id().0,
            o.name(),
            o.id().0
        ))),
        None => {
            types.push(t);
            Ok(())
        }
    }
}

/// The registered user sim with this number.
pub fn type_of(id: SimId) -> Option<&'static dyn SimType> {
    let types = TYPES
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    types.iter().copied().find(|t| t.id() == id)
}

/// The name of the user sim with this number, or a name no sim has.
pub fn name_of(id: SimId) -> &'static str {
    type_of(id).map_or("(an unregistered sim)", |t| t.name())
}
