//! What the player shows: a live lesson (simulated on demand, with history
//! so it can go back) or a replay (read from its file, not re-simulated),
//! seekable to any tick, with the explain record of the step into the
//! current tick for the overlays.
//!
//! A live lesson keeps a copy of the sim every `K` ticks (`K` from the
//! state size, as replays choose keyframes) and the interventions by tick;
//! going back restores the copy at or before the tick and steps forward,
//! which is deterministic, so the state shown at a tick never depends on
//! how the teacher got there. A replay decodes the recorded state; for the
//! overlays it restores the state one tick earlier into a sim
//! ([`AnySim::restore`] checks it first) and steps once with tracing.
//!
//! Every tick is explained, the first included: there (and right after an
//! intervention, when the last step no longer led to what is shown) the
//! explain record is the *coming* step's, traced on a copy of the sim
//! ([`Session::ahead`] says which).
#![deny(clippy::float_arithmetic)]

use crate::lesson::Lesson;
use crate::num::Vec3;
use crate::replay::file::Replay;
use crate::replay::live;
use crate::replay::run::{self, Source};
use crate::sim::flock::FlockEvent;
use crate::sim::line::LineEvent;
use crate::sim::path::PathEvent;
use crate::sim::{AnySim, Cell, Input, Sim, Sink};
use std::collections::BTreeMap;
use std::io::{Read, Seek};
use std::path::Path;

/// A seekable byte source for replays (a file, or bytes in memory).
pub trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

/// How many earlier positions the `trails` overlay shows.
pub const TRAIL: usize = 120;

/// How many ticks back the line sims' walks reach.
pub const WALK_TICKS: u64 = 4096;

/// The explain record of one step.
#[derive(Clone, Debug, Default)]
pub enum Explained {
    /// Nothing (tick 0, or not traced).
    #[default]
    None,
    /// Flock events (only the watched boids').
    Flock(Vec<FlockEvent>),
    /// Path events.
    Path(Vec<PathEvent>),
    /// Line events.
    Line(Vec<LineEvent>),
    /// A lesson's variants: each pane's record, in pane order.
    Panes(Vec<Explained>),
}

impl Explained {
    /// As the scene wants it (variants: see [`Explained::pane`]).
    pub fn as_scene(&self) -> crate::scene::Explain<'_> {
        match self {
            Explained::None | Explained::Panes(_) => crate::scene::Explain::None,
            Explained::Flock(e) => crate::scene::Explain::Flock(e),
            Explained::Path(e) => crate::scene::Explain::Path(e),
            Explained::Line(e) => crate::scene::Explain::Line(e),
        }
    }

    /// Pane `i`'s record (a sim without variants: the record itself, as
    /// pane 0).
    pub fn pane(&self, i: usize) -> &Explained {
        match self {
            Explained::Panes(p) => p.get(i).unwrap_or(&Explained::None),
            e if i == 0 => e,
            _ => &Explained::None,
        }
    }
}

/// A flock sink that keeps the tick event and the watched boids' reasoning,
/// and counts the boids that saw no one.
struct Watch<'a> {
    ids: &'a [u32],
    out: Vec<FlockEvent>,
    alone: u32,
    /// The count of boids that saw no one, when the sim gave it (having
    /// explained only the watched boids).
    told: Option<u32>,
}

impl Sink<FlockEvent> for Watch<'_> {
    const ENABLED: bool = true;
    fn record(&mut self, e: FlockEvent) {
        let keep = match &e {
            FlockEvent::Tick { .. } => true,
            FlockEvent::Alone(n) => {
                self.told = Some(*n);
                false
            }
            FlockEvent::Boid(b) => {
                self.alone += u32::from(b.neighbours.is_empty());
                self.ids.contains(&b.id)
            }
        };
        if keep {
            self.out.push(e);
        }
    }

    fn only(&self) -> Option<&[u32]> {
        Some(self.ids)
    }
}

/// One traced step; `watch` names the boids whose reasoning is kept.
fn traced_step(sim: &mut AnySim, watch: &[u32]) -> Explained {
    match sim {
        AnySim::Flock(s) => {
            let mut w = Watch {
                ids: watch,
                out: Vec::new(),
                alone: 0,
                told: None,
            };
            s.step(&mut w);
            w.out.push(FlockEvent::Alone(w.told.unwrap_or(w.alone)));
            Explained::Flock(w.out)
        }
        AnySim::Path(s) => {
            let mut v = Vec::new();
            s.step(&mut v);
            Explained::Path(v)
        }
        AnySim::Line(s) => {
            let mut v = Vec::new();
            s.step(&mut v);
            Explained::Line(v)
        }
        // A user sim explains nothing (yet): it steps untraced.
        AnySim::Custom(s) => {
            s.0.step();
            Explained::None
        }
        AnySim::Panes(p) => Explained::Panes(p.iter_mut().map(|s| traced_step(s, watch)).collect()),
    }
}

enum Kind {
    Live {
        /// Copies of the sim at ticks 0, K, 2K, … up to the frontier.
        keep: Vec<AnySim>,
        every: u64,
        /// The furthest tick simulated.
        frontier: u64,
    },
    Replay {
        replay: Box<Replay<Box<dyn ReadSeek>>>,
        /// The sim at tick 0 of the recorded lesson.
        base: AnySim,
    },
}

/// A lesson or replay being watched.
pub struct Session {
    /// The lesson (for a replay: the one it recorded).
    pub lesson: Lesson,
    /// Where the lesson came from.
    pub source: Source,
    /// The replay's file name, when this is one.
    pub replay_file: Option<String>,
    /// Interventions by the tick they lead into: a class's (for a replay,
    /// the recorded ones its lesson did not make itself).
    pub inputs: BTreeMap<u64, Vec<Input>>,
    /// Every input the run makes: the lesson's own first at each tick,
    /// then `inputs` ([`live::merged`]); what the sim is stepped with.
    applied: BTreeMap<u64, Vec<Input>>,
    kind: Kind,
    sim: AnySim,
    explain: Explained,
    /// Whether `explain` is the coming step's.
    ahead: bool,
    /// Per pane: each chaser's cells.
    walks: Vec<Vec<Vec<Cell>>>,
    walks_tick: Option<u64>,
    /// Per pane: the boids' positions at each earlier tick.
    trail: Vec<Vec<Vec<Vec3>>>,
    trail_tick: Option<u64>,
    /// The tick whose interventions are already applied to the shown sim
    /// (an intervention shows at once, before the step it leads into).
    pre_applied: Option<u64>,
    /// A remark about the last seek (a replay whose re-stepped explain
    /// does not match its recording).
    pub note: Option<String>,
}

impl Session {
    /// A live lesson at tick 0.
    pub fn lesson(source: Source) -> Result<Session, String> {
        let lesson = source.lesson()?;
        let sim = AnySim::new(&lesson.scenario).map_err(|m| format!("{}: {m}", source.file))?;
        let every = u64::from(run::auto_keyframe_every(&sim.snapshot()));
        Ok(Session {
            applied: lesson.scripted(),
            lesson,
            source,
            replay_file: None,
            inputs: BTreeMap::new(),
            kind: Kind::Live {
                keep: vec![sim.clone()],
                every,
                frontier: 0,
            },
            sim,
            explain: Explained::None,
            ahead: false,
            walks: Vec::new(),
            walks_tick: None,
            trail: Vec::new(),
            trail_tick: None,
            pre_applied: None,
            note: None,
        }
        .explained_ahead(&[]))
    }

    /// A replay file, checked frame by frame on opening (a damaged frame is
    /// reported with its byte offset and tick).
    pub fn replay_file(path: &Path) -> Result<Session, String> {
        let name = path.display().to_string();
        crate::files::regular(path, crate::replay::file::REPLAY_FILE)
            .map_err(|m| format!("{name}: {m}"))?;
        let f = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        Session::replay_from(Box::new(std::io::BufReader::new(f)), &name)
    }

    /// A replay from any seekable bytes; `name` names it in messages.
    pub fn replay_from(src: Box<dyn ReadSeek>, name: &str) -> Result<Session, String> {
        let mut replay = Replay::from_reader(src, name).map_err(|e| e.to_string())?;
        let mut inputs = BTreeMap::new();
        for f in replay.frames() {
            let f = f.map_err(|e| e.to_string())?;
            if !f.inputs.is_empty() {
                inputs.insert(f.tick, f.inputs);
            }
        }
        if replay.last_tick.is_none() {
            // in English: a file's diagnosis, as the command line gives it
            return Err(format!("{name}: the replay holds no complete frame"));
        }
        let source = Source::of(&replay.meta);
        let lesson = source
            .lesson()
            // in English: a file's diagnosis, as the command line gives it
            .map_err(|m| format!("{name}: the recorded lesson does not load: {m}"))?;
        let base = AnySim::new(&lesson.scenario).map_err(|m| format!("{name}: {m}"))?;
        if lesson.sim != replay.header.sim {
            return Err(format!(
                // in English: a file's diagnosis, as the command line gives it
                "{name}: the header says {}, the recorded lesson {}",
                replay.header.sim.name(),
                lesson.sim.name()
            ));
        }
        let first = replay.first_tick;
        let mut s = Session {
            inputs: live::made(&lesson, &inputs),
            applied: inputs,
            lesson,
            source,
            replay_file: Some(name.to_owned()),
            kind: Kind::Replay {
                replay: Box::new(replay),
                base: base.clone(),
            },
            sim: base,
            explain: Explained::None,
            ahead: false,
            walks: Vec::new(),
            walks_tick: None,
            trail: Vec::new(),
            trail_tick: None,
            pre_applied: None,
            note: None,
        };
        s.seek(first, &[])?;
        Ok(s)
    }

    /// The sim at the current tick.
    pub fn sim(&self) -> &AnySim {
        &self.sim
    }

    /// The current tick.
    pub fn tick(&self) -> u64 {
        self.sim.tick()
    }

    /// What the step into the current tick explained, or the coming
    /// step's record when [`Session::ahead`].
    pub fn explain(&self) -> &Explained {
        &self.explain
    }

    /// Whether [`Session::explain`] is the coming step's (the first tick,
    /// and right after an intervention).
    pub fn ahead(&self) -> bool {
        self.ahead
    }

    /// The line sim's walks, per pane: the cells each chaser stood on up
    /// to the current tick, in order (see [`Session::ensure_walks`]; empty
    /// until it has run for this tick, and for other sims).
    pub fn walks(&self) -> &[Vec<Vec<Cell>>] {
        if self.walks_tick == Some(self.sim.tick()) {
            &self.walks
        } else {
            &[]
        }
    }

    /// Explains the coming step (on a copy) instead of the last.
    fn explained_ahead(mut self, watch: &[u32]) -> Session {
        self.explain_ahead(watch);
        self
    }

    /// Sets the explain record to the coming step's, traced on a copy of
    /// the sim with the next tick's interventions applied.
    fn explain_ahead(&mut self, watch: &[u32]) {
        let mut probe = self.sim.clone();
        let next = probe.tick() + 1;
        if self.pre_applied != Some(next) {
            // Inputs were checked when they were made.
            let _ = live::apply_tick(&mut probe, &self.source, &self.applied, next);
        }
        self.explain = traced_step(&mut probe, watch);
        self.ahead = true;
    }

    /// Earlier flock positions per pane, oldest first (see
    /// [`Session::ensure_trail`]; empty until it has run for the current
    /// tick).
    pub fn trail(&self) -> &[Vec<Vec<Vec3>>] {
        if self.trail_tick == Some(self.sim.tick()) {
            &self.trail
        } else {
            &[]
        }
    }

    /// The first tick that can be shown.
    pub fn first_tick(&self) -> u64 {
        match &self.kind {
            Kind::Live { .. } => 0,
            Kind::Replay { replay, .. } => replay.first_tick,
        }
    }

    /// The last tick that can be shown.
    pub fn last_tick(&self) -> u64 {
        match &self.kind {
            Kind::Live { frontier, .. } => self.lesson.ticks.max(*frontier),
            Kind::Replay { replay, .. } => replay.last_tick.unwrap_or(0),
        }
    }

    /// Shows `tick`: steps or seeks there, tracing the last step with the
    /// boids in `watch`. On error (a damaged replay frame) the tick shown
    /// does not change.
    pub fn seek(&mut self, tick: u64, watch: &[u32]) -> Result<(), String> {
        let from = self.sim.tick();
        // One tick forward with a trail in hand: the trail moves on by the
        // positions being left (no re-simulation for the trails overlay).
        let carry =
            (tick == from + 1 && self.trail_tick == Some(from)).then(|| positions(&self.sim));
        let result = self.seek_to(tick, watch);
        if result.is_ok() {
            self.ahead = false;
            if self.sim.tick() == self.first_tick() {
                self.explain_ahead(watch);
            }
        }
        if result.is_ok()
            && let Some(p) = carry
        {
            for (trail, p) in self.trail.iter_mut().zip(p) {
                trail.push(p);
                if trail.len() > TRAIL {
                    trail.remove(0);
                }
            }
            self.trail_tick = Some(tick);
        }
        result
    }

    fn seek_to(&mut self, tick: u64, watch: &[u32]) -> Result<(), String> {
        let from = self.sim.tick();
        match &mut self.kind {
            Kind::Live {
                keep,
                every,
                frontier,
            } => {
                let every = *every;
                if tick < from || tick > from.saturating_add(4 * every) {
                    // Restore the copy at or before the tick before.
                    let k = (tick.saturating_sub(1) / every) as usize;
                    self.sim = keep[k.min(keep.len() - 1)].clone();
                    self.pre_applied = None;
                }
                let inputs = &self.applied;
                let mut explain = Explained::None;
                while self.sim.tick() < tick {
                    let next = self.sim.tick() + 1;
                    if self.pre_applied.take() != Some(next) {
                        // Inputs were checked when they were made.
                        let _ = live::apply_tick(&mut self.sim, &self.source, inputs, next);
                    }
                    if next == tick {
                        explain = traced_step(&mut self.sim, watch);
                    } else {
                        self.sim.step();
                    }
                    if next.is_multiple_of(every) && (next / every) as usize == keep.len() {
                        keep.push(self.sim.clone());
                    }
                    *frontier = (*frontier).max(next);
                }
                self.explain = explain;
                Ok(())
            }
            Kind::Replay { replay, base } => {
                if let Some(on) = step_on(
                    replay,
                    &self.sim,
                    &self.source,
                    &self.applied,
                    (tick, watch),
                )? {
                    (self.sim, self.explain, self.note) = (on.0, on.1, None);
                    return Ok(());
                }
                seek_replay(replay, (base, &self.source), &self.applied, tick, watch).map(
                    |(sim, explain, note)| {
                        self.sim = sim;
                        self.explain = explain;
                        self.note = note;
                    },
                )
            }
        }
    }

    /// Computes the `trails` overlay's positions for the current tick:
    /// the boids' positions at the [`TRAIL`] ticks before it, oldest first
    /// — a function of the tick alone, however it was reached.
    pub fn ensure_trail(&mut self) -> Result<(), String> {
        let t = self.sim.tick();
        if self.trail_tick == Some(t) || !matches!(self.sim.panes()[0], AnySim::Flock(_)) {
            return Ok(());
        }
        let from = t.saturating_sub(TRAIL as u64).max(self.first_tick());
        let mut trail = vec![Vec::new(); self.sim.panes().len()];
        let mut add = |p: Vec<Vec<Vec3>>| {
            for (trail, p) in trail.iter_mut().zip(p) {
                trail.push(p);
            }
        };
        match &mut self.kind {
            Kind::Live { keep, every, .. } => {
                let mut sim = keep[((from / *every) as usize).min(keep.len() - 1)].clone();
                while sim.tick() < t {
                    if sim.tick() >= from {
                        add(positions(&sim));
                    }
                    let next = sim.tick() + 1;
                    let _ = live::apply_tick(&mut sim, &self.source, &self.applied, next);
                    sim.step();
                }
            }
            Kind::Replay { replay, .. } => {
                for k in from..t {
                    let (state, _) = replay.state_at(k).map_err(|e| e.to_string())?;
                    add(state_positions(&state));
                }
            }
        }
        self.trail = trail;
        self.trail_tick = Some(t);
        Ok(())
    }

    /// Computes the line sim's walks for the current tick: each chaser's
    /// cells from the first tick (at most [`WALK_TICKS`] back) to now, a
    /// cell listed again only after the chaser left it — a function of the
    /// tick alone, however it was reached.
    pub fn ensure_walks(&mut self) -> Result<(), String> {
        let t = self.sim.tick();
        if self.walks_tick == Some(t) || !matches!(self.sim.panes()[0], AnySim::Line(_)) {
            return Ok(());
        }
        let from = t.saturating_sub(WALK_TICKS).max(self.first_tick());
        let mut walks: Vec<Vec<Vec<Cell>>> = vec![Vec::new(); self.sim.panes().len()];
        let mut add = |panes: Vec<Vec<Cell>>| {
            for (walks, cells) in walks.iter_mut().zip(panes) {
                walks.resize(cells.len(), Vec::new());
                for (w, c) in walks.iter_mut().zip(cells) {
                    if w.last() != Some(&c) {
                        w.push(c);
                    }
                }
            }
        };
        match &mut self.kind {
            Kind::Live { keep, every, .. } => {
                let mut sim = keep[((from / *every) as usize).min(keep.len() - 1)].clone();
                loop {
                    if sim.tick() >= from {
                        add(chaser_cells(&sim));
                    }
                    if sim.tick() >= t {
                        break;
                    }
                    let next = sim.tick() + 1;
                    let _ = live::apply_tick(&mut sim, &self.source, &self.applied, next);
                    sim.step();
                }
            }
            Kind::Replay { replay, .. } => {
                for k in from..=t {
                    let (state, _) = replay.state_at(k).map_err(|e| e.to_string())?;
                    add(state_cells(&state));
                }
            }
        }
        self.walks = walks;
        self.walks_tick = Some(t);
        Ok(())
    }

    /// Makes an intervention at the current tick: it leads into the next
    /// tick. A live lesson that had been simulated further forgets what
    /// came after (a new branch). Replays cannot be changed.
    pub fn intervene(&mut self, input: Input, watch: &[u32]) -> Result<(), String> {
        let Kind::Live {
            keep,
            every,
            frontier,
        } = &mut self.kind
        else {
            // in English: refused by the app first, in the screen's language
            return Err("a replay cannot be changed; open its lesson to try things".into());
        };
        let t = self.sim.tick();
        let mut inputs = self.inputs.clone();
        inputs.retain(|&k, _| k <= t + 1);
        // A later intervention at the same tick replaces nothing: both apply.
        inputs.entry(t + 1).or_default().push(input);
        let applied = live::merged(&self.lesson, &inputs);
        let mut probe = self.sim.clone();
        let list = applied.get(&(t + 1)).map_or(&[][..], Vec::as_slice);
        if let (true, Some((input, before))) = (self.pre_applied == Some(t + 1), list.split_last())
        {
            // The tick's earlier inputs are applied already: this one last.
            let earlier: Vec<&Input> = applied
                .range(..=t)
                .flat_map(|(_, l)| l)
                .chain(before)
                .filter(|i| matches!(i, Input::Set { .. }))
                .collect();
            live::apply(&mut probe, &self.source, &earlier, input).map_err(|e| e.message)?;
        } else {
            live::apply_tick(&mut probe, &self.source, &applied, t + 1)
                .map_err(|(_, e)| e.message)?;
        }
        self.inputs = inputs;
        self.applied = applied;
        keep.truncate((t / *every) as usize + 1);
        *frontier = t;
        self.sim = probe;
        self.pre_applied = Some(t + 1);
        self.trail_tick = None;
        self.walks_tick = None;
        // What the last step explained no longer leads to what is shown.
        self.explain_ahead(watch);
        Ok(())
    }

    /// Whether the run has left the lesson as written: the ticks at which
    /// interventions apply (the timeline marks them).
    pub fn intervention_ticks(&self) -> Vec<u64> {
        self.inputs.keys().copied().collect()
    }

    /// The last tick whose inputs the shown sim has taken: the current
    /// tick, or the next when a change made here was applied at once
    /// (the next tick's inputs, the lesson's own among them, then are).
    pub fn in_force_until(&self) -> u64 {
        let t = self.sim.tick();
        if self.pre_applied == Some(t + 1) {
            t + 1
        } else {
            t
        }
    }

    /// Every input the run makes, by the tick it leads into: the lesson's
    /// own first at each tick, then the class's ([`Session::inputs`]).
    pub fn applied(&self) -> &BTreeMap<u64, Vec<Input>> {
        &self.applied
    }

    /// Records the session (ticks `0..=` the furthest reached, with every
    /// intervention) to a replay at `path`, written beside it first and
    /// renamed when complete, so an existing file survives a failure.
    pub fn save(&self, path: &Path) -> Result<u64, String> {
        let partial = path.with_extension("fsr.partial");
        let f =
            std::fs::File::create(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
        let w = std::io::BufWriter::new(f);
        let res = run::record(
            w,
            &self.source,
            self.save_last(),
            None,
            &self.inputs,
            |_| {},
        );
        match res {
            Ok((w, rec)) => {
                drop(w);
                std::fs::rename(&partial, path).map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(rec.bytes)
            }
            Err(m) => {
                let _ = std::fs::remove_file(&partial);
                Err(m.into())
            }
        }
    }

    /// The last tick a saved replay holds: the furthest reached, and at
    /// least the step into which the last intervention leads (a change
    /// made at the last tick reached is saved with its first tick).
    fn save_last(&self) -> u64 {
        let last_input = self.inputs.keys().next_back().copied().unwrap_or(0);
        match &self.kind {
            Kind::Live { frontier, .. } => (*frontier).max(self.sim.tick()).max(last_input),
            Kind::Replay { replay, .. } => replay.last_tick.unwrap_or(0),
        }
    }

    /// The replay [`Session::save`] would write, as bytes (the web build
    /// hands them to the browser as a download).
    pub fn save_bytes(&self) -> Result<Vec<u8>, String> {
        let (bytes, _) = run::record(
            Vec::new(),
            &self.source,
            self.save_last(),
            None,
            &self.inputs,
            |_| {},
        )?;
        Ok(bytes)
    }
}

/// A line sim's chaser cells, per pane (nothing for other sims).
fn chaser_cells(s: &AnySim) -> Vec<Vec<Cell>> {
    s.panes()
        .iter()
        .map(|s| match s {
            AnySim::Line(l) => l.state().chasers.iter().map(|c| c.pos).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// A recorded line state's chaser cells, per pane (nothing for other
/// sims).
fn state_cells(s: &crate::sim::AnyState) -> Vec<Vec<Cell>> {
    s.panes()
        .iter()
        .map(|s| match s {
            crate::sim::AnyState::Line(l) => l.chasers.iter().map(|c| c.pos).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// A recorded flock's boid positions, per pane (nothing for other sims).
fn state_positions(s: &crate::sim::AnyState) -> Vec<Vec<Vec3>> {
    s.panes()
        .iter()
        .map(|s| match s {
            crate::sim::AnyState::Flock(f) => f.boids.iter().map(|b| b.pos).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// A flock's boid positions, per pane (nothing for other sims).
fn positions(s: &AnySim) -> Vec<Vec<Vec3>> {
    s.panes()
        .iter()
        .map(|s| match s {
            AnySim::Flock(f) => f.state().boids.iter().map(|b| b.pos).collect(),
            _ => Vec::new(),
        })
        .collect()
}

type Seeked = (AnySim, Explained, Option<String>);

/// One tick on from the state shown: the step into `tick`, traced, is
/// the recorded state when the frame's hash says so — then the frame is
/// not decoded (for a flock, a prediction as dear as the tick). `None`:
/// not one tick on, or the step differs from the recording.
fn step_on(
    replay: &mut Replay<Box<dyn ReadSeek>>,
    shown: &AnySim,
    source: &Source,
    inputs: &BTreeMap<u64, Vec<Input>>,
    (tick, watch): (u64, &[u32]),
) -> Result<Option<(AnySim, Explained)>, String> {
    if tick == 0 || shown.tick() + 1 != tick || !replay.has_tick(tick) {
        return Ok(None);
    }
    let mut sim = shown.clone();
    if live::apply_tick(&mut sim, source, inputs, tick).is_err() {
        return Ok(None);
    }
    let explain = traced_step(&mut sim, watch);
    let same = replay
        .confirm(tick, &sim.snapshot())
        .map_err(|e| e.to_string())?;
    Ok(same.then_some((sim, explain)))
}

fn seek_replay(
    replay: &mut Replay<Box<dyn ReadSeek>>,
    (base, source): (&AnySim, &Source),
    inputs: &BTreeMap<u64, Vec<Input>>,
    tick: u64,
    watch: &[u32],
) -> Result<Seeked, String> {
    let (state, _) = replay.state_at(tick).map_err(|e| e.to_string())?;
    let name = replay.file().to_owned();
    // A sim whose configuration has every intervention up to `at` applied.
    let configured = |at: u64| -> Result<AnySim, String> {
        let mut sim = base.clone();
        for (&t, list) in inputs.range(..=at) {
            live::apply_tick(&mut sim, source, inputs, t)
                // in English: a file's diagnosis, as the command line gives it
                .map_err(|(k, m)| format!("{name}: tick {t}: input {}: {m}", list[k]))?;
        }
        Ok(sim)
    };
    let mut shown = configured(tick)?;
    shown
        .restore(state.clone())
        // in English: a file's diagnosis, as the command line gives it
        .map_err(|m| format!("{name}: tick {tick}: {m}"))?;
    if tick == 0 || !replay.has_tick(tick - 1) {
        return Ok((shown, Explained::None, None));
    }
    // The overlays need the reasoning of the step into `tick`: step once
    // from the recorded state before it.
    let (before, _) = replay.state_at(tick - 1).map_err(|e| e.to_string())?;
    let mut sim = configured(tick - 1)?;
    sim.restore(before)
        // in English: a file's diagnosis, as the command line gives it
        .map_err(|m| format!("{name}: tick {}: {m}", tick - 1))?;
    let _ = live::apply_tick(&mut sim, source, inputs, tick);
    let explain = traced_step(&mut sim, watch);
    let note = (!sim.state_eq(&state)).then(|| {
        format!(
            // in English: an engineer's note on a replay, not drawn
            "tick {tick}: this build steps the recorded tick {} differently from the recording; the overlays show this build's reasoning",
            tick - 1
        )
    });
    Ok((shown, explain, note))
}
