//! Your own sim, without a fork: implement [`Sim`] and [`UserSim`] for it,
//! describe it once with a [`Registered`], [`register`] it, and lessons
//! (`sim = "your-name"`), `record`, `verify`, `diff`, `dump`, `info`, the
//! golden-replay test ([`crate::assert_replay!`]) and the viewer's default
//! scene work for it as for flockstep's own sims.
//!
//! ```
//! use flockstep_core::lesson::LessonError;
//! use flockstep_core::lesson::node::Params;
//! use flockstep_core::lesson::schema::Param;
//! use flockstep_core::num::{Fx, Vec3};
//! use flockstep_core::sim::{Entity, NoTrace, Sim, SimError, Sink};
//! use flockstep_core::user::{Registered, UserSim, register};
//! use serde::{Deserialize, Serialize};
//!
//! /// A counter that counts up by `by` each tick.
//! #[derive(Clone)]
//! struct Counter { by: i64, state: CounterState }
//!
//! #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
//! struct CounterState { tick: u64, count: i64 }
//!
//! impl Sim for Counter {
//!     type State = CounterState;
//!     type Event = ();
//!     fn step<S: Sink<()>>(&mut self, _sink: &mut S) {
//!         self.state.tick += 1;
//!         self.state.count += self.by;
//!     }
//!     fn tick(&self) -> u64 { self.state.tick }
//!     fn dt(&self) -> Fx { Fx::ONE }
//!     fn state(&self) -> &CounterState { &self.state }
//! }
//!
//! impl UserSim for Counter {
//!     type Config = i64;
//!     fn new(by: i64) -> Result<Self, SimError> {
//!         Ok(Counter { by, state: CounterState { tick: 0, count: 0 } })
//!     }
//!     fn scenario(p: &mut Params) -> Result<i64, LessonError> {
//!         p.get_int("by")
//!     }
//!     fn params() -> &'static [Param] {
//!         static PARAMS: [Param; 1] =
//!             [Param::int("by", -100, 100, 1).help("added each tick", "毎 tick 足す数")];
//!         &PARAMS
//!     }
//!     fn restore(&mut self, state: CounterState) -> Result<(), SimError> {
//!         self.state = state;
//!         Ok(())
//!     }
//!     fn entities(&self) -> Vec<Entity> {
//!         vec![Entity {
//!             name: "count".into(),
//!             pos: Vec3::new(Fx::from_int(self.state.count as i32), Fx::ZERO, Fx::ZERO),
//!             heading: None,
//!             kind: "agent",
//!         }]
//!     }
//!     fn bounds(&self) -> (Vec3, Vec3) {
//!         (Vec3::ZERO, Vec3::new(Fx::from_int(100), Fx::from_int(10), Fx::ZERO))
//!     }
//! }
//!
//! static COUNTER: Registered<Counter> = Registered::new(300, "counter");
//!
//! register(&COUNTER).unwrap();
//! let lesson = flockstep_core::lesson::Lesson::parse(
//!     "[lesson]\nid = \"count\"\ntitle = \"Counting\"\nsummary = \"Counts.\"\nticks = 5\n\
//!      [scenario]\nsim = \"counter\"\nby = 3\n[[beat]]\nat = 0\ntext = \"It counts.\"\n",
//!     "count.toml",
//! )
//! .unwrap();
//! let mut sim = flockstep_core::sim::AnySim::new(&lesson.scenario).unwrap();
//! sim.step();
//! sim.step();
//! assert!(sim.render_text().contains("count: 6"));
//! ```

use crate::fields::{Leaf, leaves};
use crate::lesson::node::Params;
use crate::lesson::schema::Param;
use crate::lesson::sims::{self, Registration, UnknownHighlight};
use crate::lesson::variants::PaneName;
use crate::lesson::{LessonError, Names};
use crate::num::{Fx, Vec3};
use crate::replay::codec;
use crate::sim::custom::{
    self, Cells, CustomScenario, CustomState, DynSim, Entity, Mark, SimId, SimType,
};
use crate::sim::{Input, NoTrace, Scenario, Sim, SimError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;

/// What flockstep needs of a sim beyond stepping ([`Sim`]): how a lesson
/// configures it, how to start it, how to put a recorded state back, and
/// what a default scene draws of it.
pub trait UserSim: Sim + Clone + Send + Sync + 'static {
    /// Everything a run starts from; a lesson's `[scenario]` becomes one
    /// ([`UserSim::scenario`]), and a replay stores it in its lesson text.
    type Config: Serialize + DeserializeOwned + Clone + core::fmt::Debug + Send + Sync;

    /// A sim at tick 0, or why the configuration does not make one.
    fn new(config: Self::Config) -> Result<Self, SimError>;

    /// Reads the lesson's `[scenario]` keys (`sim` already taken) with the
    /// reader flockstep's own sims use: every key a sim does not take is
    /// an error naming its line and column.
    fn scenario(params: &mut Params) -> Result<Self::Config, LessonError>;

    /// Its scenario parameters, each described once ([`crate::lesson::schema`]):
    /// when not empty, [`UserSim::scenario`] reads its table through them
    /// (`params.get_fx("speed")` takes the range and default from here),
    /// an unknown key's message lists them, and `flockstep params NAME`
    /// prints them. Empty (the default): the table is read key by key.
    fn params() -> &'static [Param] {
        &[]
    }

    /// Replaces the state with a recorded one, or says why it cannot be
    /// this sim's (the sim is then unchanged).
    fn restore(&mut self, state: Self::State) -> Result<(), SimError>;

    /// Takes the parameters of `config` while the sim runs: a teacher's
    /// live change of a parameter its schema marks
    /// [`Param::vary`](crate::lesson::schema::Param::vary) (the viewer's
    /// panel, `record --input T:set:KEY=VALUE`). Keep the state; the
    /// default refuses every change.
    fn reconfigure(&mut self, config: Self::Config) -> Result<(), SimError> {
        let _ = config;
        Err(SimError::input(
            "this sim takes no changes while it runs (start it again with --set)",
        ))
    }
    /// The things the viewer's default scene draws.
    fn entities(&self) -> Vec<Entity>;

    /// The corners of the world the entities move in.
    fn bounds(&self) -> (Vec3, Vec3);

    /// The grid the default scene draws under the entities (none by
    /// default): see [`Cells`].
    fn cells(&self) -> Option<Cells> {
        None
    }

    /// Why its entities move as they do: vectors, radii and lines the
    /// default scene draws under the overlays of its registration
    /// ([`Registered::with_overlays`]), each labelled, and lists for the
    /// entity in focus. Work them out from the state (the coming step's
    /// forces, say), so a replay shows them too. None by default.
    fn marks(&self) -> Vec<Mark> {
        Vec::new()
    }

    /// The configuration's seed (0: it has none).
    fn seed(_config: &Self::Config) -> u64 {
        0
    }

    /// Applies an intervention from the viewer; a user sim takes none
    /// unless it says otherwise.
    fn apply(&mut self, input: &Input) -> Result<(), SimError> {
        Err(SimError::input(format!(
            "{input:?} does not apply to this sim"
        )))
    }

    /// A plain-text picture of the state: by default its fields, one a
    /// line (`count: 6`).
    fn render_text(&self) -> String {
        leaves(self.state())
            .iter()
            .map(|l| format!("{}: {}\n", l.path, l.value))
            .collect()
    }
}

/// A user sim described once: its header number, its name and its
/// playback speed. Make it a `static` and [`register`] it.
pub struct Registered<T> {
    id: SimId,
    name: &'static str,
    rate: u32,
    overlays: &'static [&'static str],
    default_overlays: &'static [&'static str],
    sim: PhantomData<fn() -> T>,
}

impl<T> Registered<T> {
    /// The description of a sim numbered `id` (from
    /// [`custom::FIRST_USER_ID`], 256, on) and named `name`, played at 10
    /// ticks a second.
    pub const fn new(id: u16, name: &'static str) -> Self {
        Registered {
            id: SimId(id),
            name,
            rate: 10,
            overlays: &[],
            default_overlays: &[],
            sim: PhantomData,
        }
    }

    /// The same, played at `rate` ticks a second at 1×.
    pub const fn with_rate(mut self, rate: u32) -> Self {
        self.rate = rate;
        self
    }

    /// The same, with these overlays — the names its marks
    /// ([`UserSim::marks`]) are shown under, which a lesson's beats list
    /// and the viewer's number keys toggle — and those shown on a beat
    /// that names none.
    pub const fn with_overlays(
        mut self,
        overlays: &'static [&'static str],
        default: &'static [&'static str],
    ) -> Self {
        self.overlays = overlays;
        self.default_overlays = default;
        self
    }
}

/// Registers a user sim for lessons, replays and the viewer. Call it once
/// before loading its lessons or reading its replays (again: nothing
/// happens). A number below 256, or a number or name another sim has, is
/// refused.
pub fn register<T: UserSim>(r: &'static Registered<T>) -> Result<(), SimError> {
    custom::register_type(r)?;
    sims::register(r)
}

/// A user sim running, behind [`DynSim`].
#[derive(Clone)]
struct Running<T: UserSim> {
    sim: T,
    kind: &'static Registered<T>,
}

/// A state's encoding. The codec fails only on a type serde cannot
/// describe to it (a sequence of unknown length), a defect of the state
/// type that [`Registered::build`] reports at tick 0.
fn encode<S: Serialize>(s: &S) -> Vec<u8> {
    codec::encode(s).unwrap_or_default()
}

impl<T: UserSim> DynSim for Running<T> {
    fn sim_type(&self) -> &'static dyn SimType {
        self.kind
    }

    fn step(&mut self) {
        self.sim.step(&mut NoTrace);
    }

    fn tick(&self) -> u64 {
        self.sim.tick()
    }

    fn dt(&self) -> Fx {
        self.sim.dt()
    }

    fn snapshot(&self) -> CustomState {
        CustomState {
            sim: self.kind.id,
            bytes: encode(self.sim.state()),
        }
    }

    fn restore(&mut self, state: &CustomState) -> Result<(), SimError> {
        if state.sim != self.kind.id {
            return Err(SimError::state(format!(
                "a state of sim {} does not fit sim {} ({})",
                state.sim.0, self.kind.id.0, self.kind.name
            )));
        }
        let s: T::State =
            codec::decode(&state.bytes).map_err(|e| SimError::state(e.to_string()))?;
        self.sim.restore(s)
    }

    fn apply(&mut self, input: &Input) -> Result<(), SimError> {
        self.sim.apply(input)
    }

    fn reconfigure(&mut self, config: &[u8]) -> Result<(), SimError> {
        let config: T::Config =
            codec::decode(config).map_err(|e| SimError::config(e.to_string()))?;
        self.sim.reconfigure(config)
    }

    fn render_text(&self) -> String {
        self.sim.render_text()
    }

    fn entities(&self) -> Vec<Entity> {
        self.sim.entities()
    }

    fn bounds(&self) -> (Vec3, Vec3) {
        self.sim.bounds()
    }

    fn cells(&self) -> Option<Cells> {
        self.sim.cells()
    }

    fn marks(&self) -> Vec<Mark> {
        self.sim.marks()
    }

    fn clone_box(&self) -> Box<dyn DynSim> {
        Box::new(self.clone())
    }
}

impl<T: UserSim> SimType for Registered<T> {
    fn id(&self) -> SimId {
        self.id
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn build(&'static self, config: &[u8]) -> Result<Box<dyn DynSim>, SimError> {
        let config: T::Config =
            codec::decode(config).map_err(|e| SimError::config(e.to_string()))?;
        let sim = T::new(config)?;
        // A float has no canonical encoding: refused here, at tick 0, not
        // met later in a hash.
        let unrecordable = |e: &dyn core::fmt::Display| {
            SimError::config(format!("{}: the state cannot be recorded: {e}", self.name))
        };
        crate::canon::canonical_bytes(sim.state()).map_err(|e| unrecordable(&e))?;
        codec::encode(sim.state()).map_err(|e| unrecordable(&e))?;
        Ok(Box::new(Running { sim, kind: self }))
    }

    fn leaves(&self, state: &[u8]) -> Result<Vec<Leaf>, SimError> {
        let s: T::State = codec::decode(state).map_err(|e| SimError::state(e.to_string()))?;
        Ok(leaves(&s))
    }
}

impl<T: UserSim> Registration for Registered<T> {
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
        &["entity"]
    }

    fn check_highlight(&self, highlight: &str) -> Result<(), UnknownHighlight> {
        match highlight.split_once(':') {
            Some(("entity", n)) if n.parse::<u32>().is_ok() => Ok(()),
            _ => Err(UnknownHighlight {
                highlight: highlight.to_owned(),
                sim: self.name,
                forms: "entity:N",
            }),
        }
    }

    fn callout_keys(&self, kind: &str) -> &'static [&'static str] {
        match kind {
            "world" => &["tick", "hash"],
            _ => &["tick"],
        }
    }

    fn params(&self) -> &'static [Param] {
        T::params()
    }

    fn scenario(
        &self,
        params: &mut Params,
        _names: &mut Names,
        _titles: &mut Vec<PaneName>,
    ) -> Result<Scenario, LessonError> {
        let config = T::scenario(params)?;
        let sim = custom::type_of(self.id)
            .filter(|t| t.name() == self.name)
            .ok_or_else(|| params.table_err(format!("sim `{}` is not registered", self.name)))?;
        let bytes = codec::encode(&config).map_err(|e| {
            params.table_err(format!(
                "{}: the configuration cannot be recorded: {e}",
                self.name
            ))
        })?;
        Ok(Scenario::Custom(CustomScenario {
            sim,
            config: bytes,
            seed: T::seed(&config),
        }))
    }
}
