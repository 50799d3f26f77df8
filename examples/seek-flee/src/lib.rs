//! Seek and flee (Craig Reynolds, "Steering Behaviors For Autonomous
//! Characters", 1999) as a sim of its own, outside flockstep: a seeker
//! steers towards a fleer; the fleer steers away from the seeker when it
//! comes nearer than `panic_distance`, and both keep inside the world by
//! containment steering. When the seeker comes within `catch_distance` the
//! fleer is caught and starts again at the corner farthest from it.
//!
//! Each steering force is a named function ([`seek`], [`flee`],
//! [`contain`]); a tick computes both agents' forces from the previous
//! tick's positions, then moves both. Everything is fixed-point
//! ([`Fx`]), so a run is the same bit for bit on every machine, and
//! [`register`] makes flockstep load its lessons, record, verify, diff and
//! dump its runs and draw it.

use flockstep_core::lesson::LessonError;
use flockstep_core::lesson::node::Params;
use flockstep_core::lesson::schema::{Param, Ty, ratio, text, unit};
use flockstep_core::num::{Fx, Vec3};
use flockstep_core::sim::{Entity, Mark, MarkShape, Sim, SimError, Sink};
use flockstep_core::user::{Registered, UserSim};
use serde::{Deserialize, Serialize};

/// The sim's header number and name.
pub static SEEK_FLEE: Registered<SeekFlee> = Registered::new(1001, "seek-flee")
    .with_rate(30)
    .with_overlays(OVERLAYS, &["seek", "flee", "contain", "panic"]);

/// The marks the viewer can show ([`SeekFlee::marks`]): each force as an
/// arrow, the fleer's panic distance as a ring, the gap as a line, and
/// each agent's speed as the way it goes in [`SPEED_TICKS`] ticks.
pub const OVERLAYS: &[&str] = &[
    "seek", "flee", "contain", "steering", "panic", "distance", "speed",
];

/// The `speed` overlay draws the way an agent goes in this many ticks at
/// its velocity: a length on the world's scale, where the forces' arrows
/// have a scale of their own.
pub const SPEED_TICKS: i32 = 10;

/// Registers the sim with flockstep (once is enough; again does nothing).
pub fn register() -> Result<(), SimError> {
    flockstep_core::user::register(&SEEK_FLEE)
}

/// One agent: where it is and how fast it goes where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    /// Position (z is 0: the world is flat).
    pub pos: Vec3,
    /// Velocity per tick.
    pub vel: Vec3,
}

/// What changes from tick to tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Ticks stepped.
    pub tick: u64,
    /// The chaser.
    pub seeker: Agent,
    /// The chased.
    pub fleer: Agent,
    /// How often the seeker has caught the fleer.
    pub catches: u32,
}

/// A run's settings (a lesson's `[scenario]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The world's size: `[width, height]`, from the origin.
    pub world: [Fx; 2],
    /// Where the seeker starts.
    pub seeker: [Fx; 2],
    /// Where the fleer starts.
    pub fleer: [Fx; 2],
    /// The seeker's top speed, per tick.
    pub seeker_speed: Fx,
    /// The fleer's top speed, per tick.
    pub fleer_speed: Fx,
    /// The largest change of velocity a tick (both agents).
    pub max_force: Fx,
    /// The fleer flees only a seeker nearer than this.
    pub panic_distance: Fx,
    /// The seeker catches the fleer nearer than this.
    pub catch_distance: Fx,
    /// Containment starts this far from a wall.
    pub margin: Fx,
}

/// The sim.
#[derive(Clone, Debug)]
pub struct SeekFlee {
    config: Config,
    state: State,
}

fn v2(p: [Fx; 2]) -> Vec3 {
    Vec3::new(p[0], p[1], Fx::ZERO)
}

/// Reynolds' steering: the change of velocity that turns `vel` towards
/// `desired`, no larger than `max_force`.
fn steer(desired: Vec3, vel: Vec3, max_force: Fx) -> Vec3 {
    (desired - vel).clamp_length(max_force)
}

/// Seek: full speed straight at the target.
pub fn seek(a: &Agent, target: Vec3, speed: Fx, max_force: Fx) -> Vec3 {
    let to = target - a.pos;
    if to.is_zero() {
        return Vec3::ZERO;
    }
    steer(to.with_length(speed), a.vel, max_force)
}

/// Flee: full speed straight away from a threat nearer than `panic`;
/// a farther threat is ignored (no force).
pub fn flee(a: &Agent, threat: Vec3, speed: Fx, max_force: Fx, panic: Fx) -> Vec3 {
    let away = a.pos - threat;
    if away.is_zero() || away.length_squared() >= panic * panic {
        return Vec3::ZERO;
    }
    steer(away.with_length(speed), a.vel, max_force)
}

/// Containment: within `margin` of a wall, full speed back inwards on
/// that axis.
pub fn contain(a: &Agent, world: [Fx; 2], margin: Fx, speed: Fx, max_force: Fx) -> Vec3 {
    let inward = |p: Fx, size: Fx| {
        if p < margin {
            speed
        } else if p > size - margin {
            -speed
        } else {
            Fx::ZERO
        }
    };
    let desired = Vec3::new(
        inward(a.pos.x, world[0]),
        inward(a.pos.y, world[1]),
        Fx::ZERO,
    );
    if desired.is_zero() {
        return Vec3::ZERO;
    }
    steer(desired, a.vel, max_force)
}

/// The forces of the coming step, each by its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forces {
    /// The seeker's: seek the fleer.
    pub seek: Vec3,
    /// The fleer's flee (zero while the seeker is beyond the panic
    /// distance).
    pub flee: Vec3,
    /// The fleer's containment (zero away from the walls).
    pub contain: Vec3,
    /// What the fleer applies: flee + contain, no larger than `max_force`.
    pub fleer: Vec3,
}

/// The forces the next step applies to `s`.
pub fn forces(c: &Config, s: &State) -> Forces {
    let (seeker, fleer) = (s.seeker, s.fleer);
    let seek_force = seek(&seeker, fleer.pos, c.seeker_speed, c.max_force);
    let flee_force = flee(
        &fleer,
        seeker.pos,
        c.fleer_speed,
        c.max_force,
        c.panic_distance,
    );
    let wall = contain(&fleer, c.world, c.margin, c.fleer_speed, c.max_force);
    Forces {
        seek: seek_force,
        flee: flee_force,
        contain: wall,
        fleer: (flee_force + wall).clamp_length(c.max_force),
    }
}

/// A number to three decimals, for labels (`0.050`, `-0.500`).
fn short(v: Fx) -> String {
    let m = v.mul_int(1000).round_int();
    let sign = if m < 0 { "-" } else { "" };
    format!("{sign}{}.{:03}", (m / 1000).abs(), (m % 1000).abs())
}

/// Moves an agent one tick: velocity changed by `force`, capped at
/// `speed`; the position kept inside the world.
fn integrate(a: &mut Agent, force: Vec3, speed: Fx, world: [Fx; 2]) {
    a.vel = (a.vel + force).clamp_length(speed);
    let p = a.pos + a.vel;
    a.pos = Vec3::new(
        p.x.clamp(Fx::ZERO, world[0]),
        p.y.clamp(Fx::ZERO, world[1]),
        Fx::ZERO,
    );
}

/// The world's corners, inset by `margin`, in a fixed order.
fn corners(c: &Config) -> [Vec3; 4] {
    let (lo, hx, hy) = (c.margin, c.world[0] - c.margin, c.world[1] - c.margin);
    [
        Vec3::new(lo, lo, Fx::ZERO),
        Vec3::new(hx, lo, Fx::ZERO),
        Vec3::new(hx, hy, Fx::ZERO),
        Vec3::new(lo, hy, Fx::ZERO),
    ]
}

/// The corner farthest from `p` (ties: the first in [`corners`]' order).
fn farthest_corner(c: &Config, p: Vec3) -> Vec3 {
    let mut best = corners(c)[0];
    for k in corners(c) {
        if k.distance_squared(p) > best.distance_squared(p) {
            best = k;
        }
    }
    best
}

impl Sim for SeekFlee {
    type State = State;
    type Event = ();

    fn step<S: Sink<()>>(&mut self, _sink: &mut S) {
        let c = &self.config;
        let f = forces(c, &self.state);
        integrate(&mut self.state.seeker, f.seek, c.seeker_speed, c.world);
        integrate(&mut self.state.fleer, f.fleer, c.fleer_speed, c.world);
        let gap = self.state.fleer.pos - self.state.seeker.pos;
        if gap.length_squared() < c.catch_distance * c.catch_distance {
            self.state.catches += 1;
            self.state.fleer = Agent {
                pos: farthest_corner(c, self.state.seeker.pos),
                vel: Vec3::ZERO,
            };
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

/// A point `[x, y]` inside the world, or `default`.
fn point(
    p: &mut Params,
    key: &str,
    world: [Fx; 2],
    default: [Fx; 2],
) -> Result<[Fx; 2], LessonError> {
    let ctx = p.ctx();
    match p.get_numbers(key)? {
        None => Ok(default),
        Some((v, _)) if v[0] <= world[0] && v[1] <= world[1] => Ok([v[0], v[1]]),
        Some((_, node)) => Err(ctx.err(
            &node,
            format!("`{key}` is outside the {}×{} world", world[0], world[1]),
        )),
    }
}

const fn n(v: i32) -> Fx {
    Fx::from_int(v)
}

/// A point's parameter: `[x, y]`, each from 0 to 10,000.
const fn at(key: &'static str) -> Param {
    Param::new(
        key,
        Ty::Numbers {
            len: 2,
            min: Fx::ZERO,
            max: n(10_000),
        },
    )
    .unit(unit::LENGTH)
}

/// A speed or force: from `min` to 10.
const fn rate(key: &'static str, min: Fx, default: Fx) -> Param {
    Param::number(key, min, n(10), default)
        .unit(unit::SPEED)
        .vary()
}

/// The scenario's parameters, each described once: the lesson reader,
/// `--set`, the messages and `seek-flee params seek-flee` use them.
static PARAMS: &[Param] = &[
    Param::new(
        "world",
        Ty::Numbers {
            len: 2,
            min: n(4),
            max: n(10_000),
        },
    )
    .absent(text("[40, 30]", "[40, 30]"))
    .unit(unit::LENGTH)
    .help("the world's width and height", "世界の幅と高さ"),
    at("seeker")
        .absent(text("[5, 5]", "[5, 5]"))
        .help("where the seeker starts", "追う側の初期位置"),
    at("fleer")
        .absent(text("[30, 20]", "[30, 20]"))
        .help("where the fleer starts", "逃げる側の初期位置"),
    rate("seeker_speed", ratio(1, 100), ratio(1, 2))
        .help("the seeker's top speed", "追う側の最高速度"),
    rate("fleer_speed", ratio(1, 100), ratio(9, 20))
        .help("the fleer's top speed", "逃げる側の最高速度"),
    rate("max_force", ratio(1, 1000), ratio(1, 20)).help(
        "the largest steering force a tick (Reynolds' max_force)",
        "1 tick の最大操舵力 (Reynolds の max_force)",
    ),
    Param::number("panic_distance", Fx::ZERO, n(10_000), n(10))
        .unit(unit::LENGTH)
        .vary()
        .help(
            "the fleer flees only from a seeker this close",
            "この距離より近い追う側からだけ逃げる",
        ),
    Param::number("catch_distance", Fx::ZERO, n(100), n(1))
        .unit(unit::LENGTH)
        .help(
            "this close, the fleer is caught and starts again",
            "この距離で捕まり, 逃げる側はやり直す",
        ),
    Param::number("margin", Fx::ZERO, n(100), n(3))
        .unit(unit::LENGTH)
        .vary()
        .help(
            "how near a wall containment starts to push",
            "壁からこの距離で押し戻しが始まる",
        ),
];

impl UserSim for SeekFlee {
    type Config = Config;

    fn new(config: Config) -> Result<Self, SimError> {
        if config.seeker_speed <= Fx::ZERO || config.fleer_speed <= Fx::ZERO {
            return Err(SimError::config("the speeds must be above 0"));
        }
        let state = State {
            tick: 0,
            seeker: Agent {
                pos: v2(config.seeker),
                vel: Vec3::ZERO,
            },
            fleer: Agent {
                pos: v2(config.fleer),
                vel: Vec3::ZERO,
            },
            catches: 0,
        };
        Ok(SeekFlee { config, state })
    }

    fn scenario(p: &mut Params) -> Result<Config, LessonError> {
        let world = match p.get_numbers("world")? {
            None => [n(40), n(30)],
            Some((v, _)) => [v[0], v[1]],
        };
        Ok(Config {
            world,
            seeker: point(p, "seeker", world, [n(5), n(5)])?,
            fleer: point(p, "fleer", world, [n(30), n(20)])?,
            seeker_speed: p.get_fx("seeker_speed")?,
            fleer_speed: p.get_fx("fleer_speed")?,
            max_force: p.get_fx("max_force")?,
            panic_distance: p.get_fx("panic_distance")?,
            catch_distance: p.get_fx("catch_distance")?,
            margin: p.get_fx("margin")?,
        })
    }

    fn params() -> &'static [Param] {
        PARAMS
    }

    fn restore(&mut self, state: State) -> Result<(), SimError> {
        let inside = |a: &Agent| {
            a.pos.x >= Fx::ZERO
                && a.pos.y >= Fx::ZERO
                && a.pos.x <= self.config.world[0]
                && a.pos.y <= self.config.world[1]
        };
        if !inside(&state.seeker) || !inside(&state.fleer) {
            return Err(SimError::state("an agent is outside the world"));
        }
        self.state = state;
        Ok(())
    }

    fn entities(&self) -> Vec<Entity> {
        let agent = |name: &str, a: &Agent, kind| Entity {
            name: name.to_owned(),
            pos: a.pos,
            heading: Some(a.vel),
            kind,
        };
        vec![
            agent("seeker", &self.state.seeker, "seeker"),
            agent("fleer", &self.state.fleer, "fleer"),
        ]
    }

    fn bounds(&self) -> (Vec3, Vec3) {
        (Vec3::ZERO, v2(self.config.world))
    }

    fn marks(&self) -> Vec<Mark> {
        let (c, st) = (&self.config, &self.state);
        let f = forces(c, st);
        let arrow = |overlay, entity, v: Vec3| Mark {
            overlay,
            entity,
            shape: MarkShape::Arrow(v),
            label: format!("{overlay} {}", short(v.length())),
        };
        let gap = (st.fleer.pos - st.seeker.pos).length();
        let mut marks = vec![
            Mark {
                overlay: "distance",
                entity: 0,
                shape: MarkShape::Line(st.fleer.pos),
                label: format!("distance {}", short(gap)),
            },
            Mark {
                overlay: "panic",
                entity: 1,
                shape: MarkShape::Ring(c.panic_distance),
                label: format!("panic {}", short(c.panic_distance)),
            },
        ];
        // A rule that pushes nothing (to the label's three places) draws
        // nothing: an arrow would give it a direction it does not have.
        let forces = [
            ("seek", 0, f.seek),
            ("flee", 1, f.flee),
            ("contain", 1, f.contain),
            ("steering", 1, f.fleer),
        ];
        for (overlay, entity, v) in forces {
            if v.length().mul_int(1000).round_int() > 0 {
                marks.push(arrow(overlay, entity, v));
            }
        }
        for (entity, a) in [(0, &st.seeker), (1, &st.fleer)] {
            if a.vel != Vec3::ZERO {
                marks.push(Mark {
                    overlay: "speed",
                    entity,
                    shape: MarkShape::Line(a.pos + a.vel * Fx::from_int(SPEED_TICKS)),
                    label: format!("speed {}", short(a.vel.length())),
                });
            }
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_keep_the_sign_below_one() {
        assert_eq!(short(Fx::from_ratio(1, 20).unwrap()), "0.050");
        assert_eq!(short(-Fx::HALF), "-0.500");
        assert_eq!(short(Fx::from_ratio(-3, 2).unwrap()), "-1.500");
        assert_eq!(short(Fx::from_int(12)), "12.000");
    }
}
