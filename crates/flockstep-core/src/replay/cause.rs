//! Why two runs part: the rule behind the first divergence.
//!
//! `verify` and `diff` name the first tick whose state hashes differ and
//! the fields that differ there. That is the symptom. [`cause`] goes one
//! step back: both runs' states before that tick are equal (their hashes
//! matched), so it restores each run's recorded state there, configures
//! its sim with that run's own lesson, overrides and inputs, and steps it
//! once more with the explain records on. The first entity whose
//! reasoning differs is the cause's subject, and what differs in it —
//! a mate seen by one run only, a rule's contribution, a clamp, an A*
//! expansion or push, a Bresenham step's error term — is the cause; the
//! parameters in force that differ between the runs are listed beside it.
//!
//! Only the entity found is reported, so a 10,000-boid pair costs two
//! traced steps.

use super::file::{Replay, ReplayError, ReplayErrorKind};
use super::live;
use super::run::Source;
use crate::num::{Fx, Vec3};
use crate::sim::flock::{BoidExplain, FlockEvent, FlockState, ModelState};
use crate::sim::line::LineEvent;
use crate::sim::path::PathEvent;
use crate::sim::{AnySim, AnyState, Input, Sim, Sink};
use std::collections::BTreeMap;
use std::io::{Read, Seek};

/// The subject of a cause that found no entity reasoning differently.
pub const NO_ENTITY: &str = "the sim";

/// Said before today's reasoning for run a when both runs reason alike
/// with today's code: the build that made run a is another.
pub const ANOTHER_BUILD: &str = "with today's code both runs reason alike here: a was made by another build; today's step from a's recorded state:";

/// What made two runs part, at the first tick whose states differ.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Cause {
    /// The first tick whose states differ (the step into it differs).
    pub tick: u64,
    /// The pane (a variant, or 0) in which it was found.
    pub pane: usize,
    /// What first steps differently: `boid 13`, `search 0`, `chaser 1`,
    /// or `the sim` (a user's sim explains nothing).
    pub entity: String,
    /// The finding, each line naming `a` and `b`.
    pub lines: Vec<String>,
    /// The parameters in force at the step that differ: `key` (with the
    /// pane), `a`'s value, `b`'s.
    pub params: Vec<(String, String, String)>,
}

/// One run made ready to step into `tick`: its sim configured with its
/// own lesson, overrides and inputs, holding its recorded state of the
/// tick before, with the inputs into `tick` applied.
struct Side {
    before: AnySim,
    after: AnySim,
    traces: Vec<Trace>,
    params: Vec<BTreeMap<String, String>>,
}

/// One pane's explain record of a step.
enum Trace {
    Flock(Vec<BoidExplain>),
    Path(Vec<PathEvent>),
    Line(Vec<LineEvent>),
    Silent,
}

/// A flock sink keeping the reasoning of the boids asked for (`None`:
/// every boid's).
struct Boids(Vec<BoidExplain>, Option<Vec<u32>>);

impl Sink<FlockEvent> for Boids {
    const ENABLED: bool = true;
    fn record(&mut self, e: FlockEvent) {
        if let FlockEvent::Boid(b) = e {
            self.0.push(*b);
        }
    }

    fn only(&self) -> Option<&[u32]> {
        self.1.as_deref()
    }
}

/// Steps `sim` traced; `only[i]` names the boids of pane `i` whose
/// reasoning is wanted (`None`: all).
fn trace(sim: &mut AnySim, only: &[Option<Vec<u32>>]) -> Vec<Trace> {
    let mine = only.first().cloned().flatten();
    match sim {
        AnySim::Flock(s) => {
            let mut b = Boids(Vec::new(), mine);
            s.step(&mut b);
            vec![Trace::Flock(b.0)]
        }
        AnySim::Path(s) => {
            let mut v = Vec::new();
            s.step(&mut v);
            vec![Trace::Path(v)]
        }
        AnySim::Line(s) => {
            let mut v = Vec::new();
            s.step(&mut v);
            vec![Trace::Line(v)]
        }
        AnySim::Custom(s) => {
            s.0.step();
            vec![Trace::Silent]
        }
        AnySim::Panes(p) => p
            .iter_mut()
            .enumerate()
            .flat_map(|(i, s)| trace(s, only.get(i..i + 1).unwrap_or_default()))
            .collect(),
    }
}

fn lesson_error<R: Read + Seek>(r: &Replay<R>, tick: u64, message: String) -> ReplayError {
    ReplayError {
        kind: ReplayErrorKind::Lesson,
        file: r.file().to_owned(),
        offset: None,
        tick: Some(tick),
        message,
    }
}

fn side<R: Read + Seek>(r: &mut Replay<R>, tick: u64) -> Result<Side, ReplayError> {
    let source = Source::of(&r.meta);
    let lesson = source
        .lesson()
        .map_err(|e| lesson_error(r, tick, format!("the recorded lesson does not load: {e}")))?;
    let mut inputs: BTreeMap<u64, Vec<Input>> = BTreeMap::new();
    for f in r.frames() {
        let f = f?;
        if f.tick > tick {
            break;
        }
        if !f.inputs.is_empty() {
            inputs.insert(f.tick, f.inputs);
        }
    }
    let mut sim = AnySim::new(&lesson.scenario).map_err(|e| lesson_error(r, tick, e.message))?;
    let params = live::params_in_force(&source, &inputs, tick)
        .map_err(|e| lesson_error(r, tick, e.to_string()))?;
    if tick == 0 {
        return Ok(Side {
            before: sim.clone(),
            after: sim,
            traces: Vec::new(),
            params,
        });
    }
    for &t in inputs.keys().filter(|&&t| t < tick) {
        live::apply_tick(&mut sim, &source, &inputs, t)
            .map_err(|(_, e)| lesson_error(r, t, e.message))?;
    }
    let (state, _) = r.state_at(tick - 1)?;
    sim.restore(state)
        .map_err(|m| lesson_error(r, tick - 1, m.to_string()))?;
    live::apply_tick(&mut sim, &source, &inputs, tick)
        .map_err(|(_, e)| lesson_error(r, tick, e.message))?;
    Ok(Side {
        before: sim.clone(),
        after: sim,
        traces: Vec::new(),
        params,
    })
}

impl Side {
    /// Takes the step, traced for the boids of `only` (per pane).
    fn step(&mut self, only: &[Option<Vec<u32>>]) {
        self.after = self.before.clone();
        self.traces = trace(&mut self.after, only);
    }
}

/// The first boid of a flock pane whose state after the step differs
/// (its position, velocity or its model's own), pane by pane: the only
/// boid whose reasoning a cause needs, so a flock of 10,000 is explained
/// for one boid. `Some([])` for panes that do not differ, `None` (explain
/// every boid) for a flock that differs elsewhere only, and for other
/// sims.
fn parting(a: &AnyState, b: &AnyState) -> Vec<Option<Vec<u32>>> {
    a.panes()
        .iter()
        .zip(b.panes())
        .map(|(p, q)| {
            if p == q {
                return Some(Vec::new());
            }
            let (AnyState::Flock(x), AnyState::Flock(y)) = (p, q) else {
                return None;
            };
            (0..x.boids.len().min(y.boids.len()))
                .find(|&i| x.boids[i] != y.boids[i] || !model_eq(&x.model, &y.model, i))
                .map(|i| vec![i as u32])
        })
        .collect()
}

/// Whether boid `i`'s own model state is the same in both.
fn model_eq(a: &ModelState, b: &ModelState, i: usize) -> bool {
    match (a, b) {
        (ModelState::Weighted { acc: x }, ModelState::Weighted { acc: y }) => x.get(i) == y.get(i),
        (ModelState::Heading { heading: x }, ModelState::Heading { heading: y }) => {
            x.get(i) == y.get(i)
        }
        (ModelState::Gems { attitude: x }, ModelState::Gems { attitude: y }) => {
            x.get(i) == y.get(i)
        }
        _ => false,
    }
}

/// Why `a` and `b` part at `tick`, their first tick whose states differ
/// (as [`super::run::diff`] finds it).
pub fn cause<A: Read + Seek, B: Read + Seek>(
    a: &mut Replay<A>,
    b: &mut Replay<B>,
    tick: u64,
) -> Result<Cause, ReplayError> {
    let (mut sa, mut sb) = (side(a, tick)?, side(b, tick)?);
    if tick > 0 {
        // Where the recordings part at `tick` says whose reasoning to
        // trace (`diff` has just decoded both states: no step is spent).
        let (xa, _) = a.state_at(tick)?;
        let (xb, _) = b.state_at(tick)?;
        let only = parting(&xa, &xb);
        sa.step(&only);
        sb.step(&only);
    }
    let params = param_diffs(&sa.params, &sb.params);
    let mut cause = Cause {
        tick,
        pane: 0,
        entity: NO_ENTITY.into(),
        lines: Vec::new(),
        params,
    };
    if tick == 0 {
        cause
            .lines
            .push("the runs differ from their first state: they start differently".into());
        return Ok(cause);
    }
    let panes_a = sa.before.panes();
    let panes_b = sb.before.panes();
    for (i, (ta, tb)) in sa.traces.iter().zip(&sb.traces).enumerate() {
        let found = match (ta, tb, &panes_a[i], &panes_b[i]) {
            (Trace::Flock(x), Trace::Flock(y), AnySim::Flock(fa), AnySim::Flock(fb)) => {
                flock_cause(x, y, (fa.state(), fb.state()))
            }
            (Trace::Path(x), Trace::Path(y), pa, pb) => path_cause(x, y, (pa, pb)),
            (Trace::Line(x), Trace::Line(y), _, _) => line_cause(x, y),
            _ => None,
        };
        if let Some((entity, lines)) = found {
            cause.pane = i;
            cause.entity = entity;
            cause.lines = lines;
            return Ok(cause);
        }
    }
    cause.lines.push(if cause.params.is_empty() {
        "every entity reasons alike in both runs and the parameters are the same: the code that steps them differs (another build)".into()
    } else {
        "every entity reasons alike in both runs; the parameters below differ".into()
    });
    Ok(cause)
}

/// Why a recording parts from today's code at `tick` (as
/// [`super::run::verify`] finds it): the recorded step cannot be traced
/// again (the build that made it is gone), so today's step from the
/// recorded state before `tick` is traced, the first entity whose state
/// after it differs from the recording's is found, and today's reasoning
/// for it is given beside both values.
pub fn cause_now<R: Read + Seek>(r: &mut Replay<R>, tick: u64) -> Result<Cause, ReplayError> {
    let mut now = side(r, tick)?;
    let mut cause = Cause {
        tick,
        pane: 0,
        entity: NO_ENTITY.into(),
        lines: Vec::new(),
        params: Vec::new(),
    };
    if tick == 0 {
        cause.lines.push(
            "the recording's first state is not the one its lesson makes today: the lesson's reading or the sim's set-up changed"
                .into(),
        );
        return Ok(cause);
    }
    let (recorded, _) = r.state_at(tick)?;
    let mut untraced = now.before.clone();
    untraced.step();
    let only = parting(&recorded, &untraced.snapshot());
    now.step(&only);
    let today = now.after.snapshot();
    for (i, (rec, new)) in recorded.panes().iter().zip(today.panes()).enumerate() {
        if rec == new {
            continue;
        }
        cause.pane = i;
        let found = match (rec, new, now.traces.get(i)) {
            (
                crate::sim::AnyState::Flock(x),
                crate::sim::AnyState::Flock(y),
                Some(Trace::Flock(t)),
            ) => flock_now(x, y, t),
            _ => None,
        };
        let (entity, lines) = found.unwrap_or_else(|| events_now(rec, new, now.traces.get(i)));
        cause.entity = entity;
        cause.lines = lines;
        return Ok(cause);
    }
    cause
        .lines
        .push("the panes' states are equal: only their hash differs".into());
    Ok(cause)
}

/// The boid of the first field whose recorded value differs from
/// today's (a position, a velocity or its model's own, such as an
/// acceleration), with today's reasoning for it.
fn flock_now(
    rec: &FlockState,
    new: &FlockState,
    t: &[BoidExplain],
) -> Option<(String, Vec<String>)> {
    let id = (0..rec.boids.len().min(new.boids.len()))
        .find(|&i| rec.boids[i] != new.boids[i] || !model_eq(&rec.model, &new.model, i))?;
    let first = first_field(rec, new, id)?;
    let mut lines = vec![format!("first field that differs: {first}")];
    let show = |s: &FlockState| {
        s.boids.get(id).map_or("(none)".to_owned(), |b| {
            format!("pos {} vel {}", vec(b.pos), vec(b.vel))
        })
    };
    lines.push(format!("recorded: {}", show(rec)));
    lines.push(format!("now:      {}", show(new)));
    if let Some(e) = t.iter().find(|e| e.id as usize == id) {
        lines.push(format!("today it sees mates {:?}", e.neighbours));
        for (rule, steer) in &e.rules {
            lines.push(format!("today's {}: {steer}", rule.name()));
        }
        if !e.clamps.is_empty() {
            lines.push(format!("today's limits fired: {:?}", e.clamps));
        }
        lines.push(format!("today's steering: {}", e.steering));
    }
    Some((format!("boid {id}"), lines))
}

/// Boid `id`'s first field that differs, named as `verify` names it
/// (`boids[3].pos.x`, `model.acc[3].y`), found among its own fields only.
fn first_field(rec: &FlockState, new: &FlockState, id: usize) -> Option<super::fields::FieldDiff> {
    use super::fields::{FieldDiff, diff};
    let named = |at: String, f: FieldDiff| FieldDiff {
        path: if f.path.is_empty() {
            at
        } else {
            format!("{at}.{}", f.path)
        },
        ..f
    };
    if let Some(f) = diff(&rec.boids[id], &new.boids[id], 1).0.pop() {
        return Some(named(format!("boids[{id}]"), f));
    }
    let (name, d) = match (&rec.model, &new.model) {
        (ModelState::Weighted { acc: x }, ModelState::Weighted { acc: y }) => {
            ("acc", diff(&x.get(id), &y.get(id), 1).0)
        }
        (ModelState::Heading { heading: x }, ModelState::Heading { heading: y }) => {
            ("heading", diff(&x.get(id), &y.get(id), 1).0)
        }
        (ModelState::Gems { attitude: x }, ModelState::Gems { attitude: y }) => {
            ("attitude", diff(&x.get(id), &y.get(id), 1).0)
        }
        _ => return None,
    };
    d.into_iter()
        .next()
        .map(|f| named(format!("model.{name}[{id}]"), f))
}

/// Any other pane: the first field that differs, and today's first
/// events of the step.
fn events_now(
    rec: &crate::sim::AnyState,
    new: &crate::sim::AnyState,
    t: Option<&Trace>,
) -> (String, Vec<String>) {
    let (diffs, _) = super::fields::diff_leaves(
        &super::fields::state_leaves(rec),
        &super::fields::state_leaves(new),
        1,
    );
    let mut lines: Vec<String> = diffs
        .iter()
        .map(|d| format!("first field that differs: {}", d.path))
        .collect();
    let events: Vec<String> = match t {
        Some(Trace::Path(e)) => e.iter().take(4).map(path_event).collect(),
        Some(Trace::Line(e)) => e
            .iter()
            .take(4)
            .map(|e| format!("{}: {}", line_entity(e), line_event(e)))
            .collect(),
        _ => Vec::new(),
    };
    if !events.is_empty() {
        lines.push(format!("today's step begins: {}", events.join("; ")));
    }
    ("the pane".into(), lines)
}

/// The parameters whose values differ, per pane.
fn param_diffs(
    a: &[BTreeMap<String, String>],
    b: &[BTreeMap<String, String>],
) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let panes = a.len().max(b.len());
    for p in 0..panes {
        let (ma, mb) = (a.get(p), b.get(p));
        let mut keys: Vec<&String> = ma.into_iter().chain(mb).flat_map(|m| m.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            // A key the lesson leaves out runs with its default.
            let va = ma
                .and_then(|m| m.get(k))
                .cloned()
                .unwrap_or_else(|| "(default)".into());
            let vb = mb
                .and_then(|m| m.get(k))
                .cloned()
                .unwrap_or_else(|| "(default)".into());
            if va != vb {
                let key = if panes > 1 {
                    format!("{k} (pane {})", p + 1)
                } else {
                    k.clone()
                };
                out.push((key, va, vb));
            }
        }
    }
    out
}

fn fx(v: Fx) -> String {
    format!("{v:.4}")
}

fn vec(v: Vec3) -> String {
    format!("({}, {}, {})", fx(v.x), fx(v.y), fx(v.z))
}

/// The first boid whose reasoning differs, and how.
fn flock_cause(
    a: &[BoidExplain],
    b: &[BoidExplain],
    (sa, sb): (&FlockState, &FlockState),
) -> Option<(String, Vec<String>)> {
    let (x, y) = a.iter().zip(b).find(|(x, y)| x != y)?;
    let id = x.id;
    let mut lines = Vec::new();
    let only = |p: &[u32], q: &[u32]| -> Vec<u32> {
        p.iter().copied().filter(|m| !q.contains(m)).collect()
    };
    let dist = |s: &FlockState, m: u32| -> String {
        let (Some(me), Some(it)) = (s.boids.get(id as usize), s.boids.get(m as usize)) else {
            return "?".into();
        };
        fx((it.pos - me.pos).length())
    };
    for (who, mates, other) in [
        ("a", only(&x.neighbours, &y.neighbours), "b"),
        ("b", only(&y.neighbours, &x.neighbours), "a"),
    ] {
        for m in mates.iter().take(3) {
            lines.push(format!(
                "mate {m} was seen in {who} and not in {other} (distance {} in a, {} in b)",
                dist(sa, *m),
                dist(sb, *m)
            ));
        }
    }
    for (rule, sx) in &x.rules {
        let sy = y.rules.iter().find(|(r, _)| r == rule).map(|(_, s)| s);
        if sy != Some(sx) {
            let shown = sy.map_or("none".to_owned(), ToString::to_string);
            lines.push(format!("{}: a {sx}, b {shown}", rule.name()));
        }
    }
    for (rule, sy) in &y.rules {
        if !x.rules.iter().any(|(r, _)| r == rule) {
            lines.push(format!("{}: a none, b {sy}", rule.name()));
        }
    }
    if x.clamps != y.clamps {
        lines.push(format!("limits fired: a {:?}, b {:?}", x.clamps, y.clamps));
    }
    if x.feelers != y.feelers || x.wall_boids != y.wall_boids {
        lines.push("the obstacles or walls it looked at differ".into());
    }
    if lines.is_empty() {
        lines.push(format!(
            "every rule's contribution is the same in both; the steering differs, a {}, b {}: the rules are weighted or limited differently",
            x.steering, y.steering
        ));
    } else {
        lines.push(format!("steering: a {}, b {}", x.steering, y.steering));
    }
    let here = |s: &FlockState| s.boids.get(id as usize).map_or("?".into(), |b| vec(b.pos));
    lines.push(format!(
        "it stood at {} (both runs) before the step",
        here(sa)
    ));
    debug_assert_eq!(here(sa), here(sb));
    Some((format!("boid {id}"), lines))
}

/// The first A* event that differs, with both open lists before it.
fn path_cause(
    a: &[PathEvent],
    b: &[PathEvent],
    sims: (&AnySim, &AnySim),
) -> Option<(String, Vec<String>)> {
    let k = (0..a.len().max(b.len())).find(|&k| a.get(k) != b.get(k))?;
    let search = a.get(k).or(b.get(k)).map_or(0, PathEvent::search);
    let show = |e: Option<&PathEvent>| e.map_or("nothing more".to_owned(), path_event);
    let mut lines = vec![format!(
        "event {} of the step: a {}, b {}",
        k + 1,
        show(a.get(k)),
        show(b.get(k))
    )];
    for (who, sim) in [("a", sims.0), ("b", sims.1)] {
        let text = sim.render_text();
        let open = text
            .lines()
            .filter(|l| l.starts_with("open:"))
            .nth(search as usize)
            .unwrap_or("open: (none)");
        lines.push(format!("{who} before the step: {open}"));
    }
    Some((format!("search {search}"), lines))
}

/// An A* `f` or `h`, kept with 16 fractional bits, to two decimals.
fn frac16(v: u64) -> String {
    i64::try_from(v)
        .ok()
        .and_then(|x| x.checked_mul(1 << 16))
        .map_or_else(
            || (v >> 16).to_string(),
            |bits| format!("{:.2}", Fx::from_bits(bits)),
        )
}

fn path_event(e: &PathEvent) -> String {
    let c = |c: &crate::sim::Cell| format!("({},{})", c.x, c.y);
    match e {
        PathEvent::NotAdmissible { .. } => "warns the heuristic is not admissible".into(),
        PathEvent::Expanded { cell, g, f16, .. } => {
            format!("expands {} g={g} f={}", c(cell), frac16(*f16))
        }
        PathEvent::Pushed { cell, g, h16, .. } => {
            format!("pushes {} g={g} h={}", c(cell), frac16(*h16))
        }
        PathEvent::Improved { cell, old_g, g, .. } => {
            format!("improves {} g {old_g} → {g}", c(cell))
        }
        PathEvent::Skipped { cell, why, .. } => format!("skips {} ({why:?})", c(cell)),
        PathEvent::Found { cost, .. } => format!("finds the goal, cost {cost}"),
        PathEvent::Unreachable { .. } => "runs out of open cells: unreachable".into(),
    }
}

/// The first Bresenham event that differs.
fn line_cause(a: &[LineEvent], b: &[LineEvent]) -> Option<(String, Vec<String>)> {
    let k = (0..a.len().max(b.len())).find(|&k| a.get(k) != b.get(k))?;
    let entity = a.get(k).or(b.get(k)).map_or_else(String::new, line_entity);
    let show = |e: Option<&LineEvent>| e.map_or("nothing more".to_owned(), line_event);
    Some((
        entity,
        vec![format!(
            "event {} of the step: a {}, b {}",
            k + 1,
            show(a.get(k)),
            show(b.get(k))
        )],
    ))
}

fn line_event(e: &LineEvent) -> String {
    let c = |c: &crate::sim::Cell| format!("({},{})", c.x, c.y);
    match e {
        LineEvent::Planned { line, .. } => format!(
            "plans the line {} → {} (dx {}, dy {})",
            c(&line.from),
            c(&line.to),
            line.dx,
            line.dy
        ),
        LineEvent::Stepped { from, step, .. } => format!(
            "steps {} → {}, error term {} → {}{}",
            c(from),
            c(&step.cell),
            step.f_before,
            step.f_after,
            if step.minor_stepped {
                " (both axes)"
            } else {
                " (one axis)"
            }
        ),
        LineEvent::Blocked { at, wall, .. } => {
            format!("is blocked at {} by the wall {}", c(at), c(wall))
        }
        LineEvent::Arrived { at, .. } => format!("arrives at {}", c(at)),
        LineEvent::PlanExhausted { .. } => "has walked its plan's last cell".into(),
        LineEvent::TargetMoved { from, to, .. } => format!("moves {} → {}", c(from), c(to)),
    }
}

/// The chaser (or target) an event is about.
fn line_entity(e: &LineEvent) -> String {
    match e {
        LineEvent::Planned { chaser, .. }
        | LineEvent::Stepped { chaser, .. }
        | LineEvent::Blocked { chaser, .. }
        | LineEvent::Arrived { chaser, .. }
        | LineEvent::PlanExhausted { chaser } => format!("chaser {chaser}"),
        LineEvent::TargetMoved { target, .. } => format!("target {target}"),
    }
}

/// The cause as text lines (the runs are `a` and `b`, as `diff` names
/// them).
pub fn report(c: &Cause) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let pane = if c.pane > 0 {
        format!(" (pane {})", c.pane + 1)
    } else {
        String::new()
    };
    let _ = writeln!(s, "cause at tick {}: {}{pane}", c.tick, c.entity);
    for l in &c.lines {
        let _ = writeln!(s, "  {l}");
    }
    for (k, va, vb) in &c.params {
        let _ = writeln!(s, "  parameter {k}: a {va}, b {vb}");
    }
    s
}
