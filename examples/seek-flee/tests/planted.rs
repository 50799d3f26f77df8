//! A planted change in the sim's step — the fleer nudged by the smallest
//! fixed-point step at tick 50 — is what the golden-replay test reports:
//! the tick it first shows, the entity and the field. (An integration test
//! is a process of its own: the planted sim is registered under the real
//! one's number and name, as a changed crate would be.)

use flockstep_core::lesson::LessonError;
use flockstep_core::lesson::node::Params;
use flockstep_core::lesson::schema::Param;
use flockstep_core::num::{Fx, Vec3};
use flockstep_core::replay::golden::{self, Golden};
use flockstep_core::replay::run::Source;
use flockstep_core::sim::{Entity, Sim, SimError, Sink};
use flockstep_core::user::{Registered, UserSim};
use seek_flee::{Config, SeekFlee, State};
use std::path::Path;

/// The sim, with a defect planted at tick 50.
#[derive(Clone)]
struct Planted(SeekFlee);

impl Sim for Planted {
    type State = State;
    type Event = ();

    fn step<S: Sink<()>>(&mut self, sink: &mut S) {
        self.0.step(sink);
        if self.0.tick() == 50 {
            let mut s = self.0.state().clone();
            s.fleer.pos.x += Fx::DELTA;
            self.0.restore(s).unwrap();
        }
    }

    fn tick(&self) -> u64 {
        self.0.tick()
    }

    fn dt(&self) -> Fx {
        self.0.dt()
    }

    fn state(&self) -> &State {
        self.0.state()
    }
}

impl UserSim for Planted {
    type Config = Config;

    fn new(config: Config) -> Result<Self, SimError> {
        SeekFlee::new(config).map(Planted)
    }

    fn scenario(p: &mut Params) -> Result<Config, LessonError> {
        SeekFlee::scenario(p)
    }

    fn params() -> &'static [Param] {
        SeekFlee::params()
    }

    fn restore(&mut self, state: State) -> Result<(), SimError> {
        self.0.restore(state)
    }

    fn entities(&self) -> Vec<Entity> {
        self.0.entities()
    }

    fn bounds(&self) -> (Vec3, Vec3) {
        self.0.bounds()
    }
}

static PLANTED: Registered<Planted> =
    Registered::new(1001, "seek-flee").with_overlays(seek_flee::OVERLAYS, &[]);

#[test]
fn a_planted_change_is_reported_at_its_tick_entity_and_field() {
    flockstep_core::user::register(&PLANTED).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lesson = "lessons/seek-flee.toml";
    let source = Source {
        file: lesson.into(),
        text: std::fs::read_to_string(root.join(lesson)).unwrap(),
        overrides: Vec::new(),
    };
    let golden = root.join("recordings/seek-flee.fsr");
    // Never re-recorded here, whatever the environment says.
    let report = golden::problem(&source, &golden, 600).expect("the planted change goes unnoticed");
    assert!(report.contains("tick 50"), "{report}");
    assert!(report.contains("fleer.pos.x"), "{report}");
    assert!(
        !report.contains("seeker."),
        "only the fleer moved at tick 50: {report}"
    );
    // And through the test's one call, it is a failure with that report.
    if std::env::var_os(golden::UPDATE_VAR).is_none() {
        let err = golden::check(&source, &golden, 600).unwrap_err();
        let golden::GoldenError::NotCurrent { problem } = &err else {
            panic!("not a stale golden replay: {err}");
        };
        assert_eq!(problem, &report);
        assert!(
            err.to_string().contains("FLOCKSTEP_UPDATE_RECORDINGS=1"),
            "{err}"
        );
        assert!(err.to_string().contains("flockstep review"), "{err}");
        // Outside CI today's (planted) run is written beside the golden
        // replay for `review`, as insta writes a .snap.new; under CI
        // nothing is written. It is not kept: the plant is not a change.
        let new = golden::new_path(&golden);
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "0");
        assert_eq!(new.exists(), !ci, "{}", new.display());
        let _ = std::fs::remove_file(&new);
    }
    eprintln!("{report}");
    // A golden replay that is missing is never taken for a current one.
    let missing =
        std::env::temp_dir().join(format!("seek-flee-missing-{}.fsr", std::process::id()));
    let made = golden::check(&source, &missing, 1);
    let _ = std::fs::remove_file(&missing);
    assert!(!matches!(made, Ok(Golden::Current)), "{made:?}");
}
