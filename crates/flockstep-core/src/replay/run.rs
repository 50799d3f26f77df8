//! Recording a lesson, verifying a recording against today's code, and
//! comparing two recordings: the library side of `record`, `verify` and
//! `diff`.

use super::fields::{self, FieldDiff};
use super::file::{
    DEFAULT_KEYFRAME_EVERY, End, Header, Meta, Replay, ReplayError, ReplayErrorKind, Writer,
};
use super::prior::{FlockRules, rules_of};
use crate::lesson::{Lesson, LessonError, Override};
use crate::sim::{AnySim, AnyState, Input, SimError};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Seek, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many differing fields a report lists.
pub const REPORT_FIELDS: usize = 8;

/// Why a lesson could not be run or recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError {
    /// The lesson, or a `--set` argument, does not load.
    Lesson(LessonError),
    /// The sim refuses the lesson's scenario.
    Sim {
        /// The lesson file.
        file: String,
        /// Why.
        error: SimError,
    },
    /// An intervention does not apply to the sim at its tick.
    Input {
        /// The tick the input leads into.
        tick: u64,
        /// Why.
        error: SimError,
    },
    /// A state larger than a replay holds.
    TooLarge {
        /// The lesson file.
        file: String,
        /// The state's size in bytes (a lower bound before the sim is
        /// built).
        bytes: u64,
        /// What a person reads.
        message: String,
    },
    /// Writing the replay failed.
    Write {
        /// What a person reads.
        message: String,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Lesson(e) => write!(f, "{e}"),
            RunError::Sim { file, error } => write!(f, "{file}: {error}"),
            RunError::Input { tick, error } => write!(f, "input for tick {tick}: {error}"),
            RunError::TooLarge { message, .. } | RunError::Write { message } => {
                f.write_str(message)
            }
        }
    }
}

impl std::error::Error for RunError {}

impl From<LessonError> for RunError {
    fn from(e: LessonError) -> RunError {
        RunError::Lesson(e)
    }
}

impl From<RunError> for String {
    fn from(e: RunError) -> String {
        e.to_string()
    }
}

/// What a recording was made from.
#[derive(Clone, Debug)]
pub struct Source {
    /// Where the lesson came from, for messages.
    pub file: String,
    /// The lesson's text.
    pub text: String,
    /// `--set KEY=VALUE` arguments.
    pub overrides: Vec<String>,
}

impl Source {
    /// Parses the lesson with its overrides.
    pub fn lesson(&self) -> Result<Lesson, LessonError> {
        let overrides = self
            .overrides
            .iter()
            .map(|s| Override::parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        Lesson::parse_with(&self.text, &self.file, &overrides)
    }

    /// The source a replay records.
    pub fn of(meta: &Meta) -> Source {
        Source {
            file: meta.lesson_file.clone(),
            text: meta.lesson_source.clone(),
            overrides: meta.overrides.clone(),
        }
    }
}

/// What a finished recording holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// The last tick recorded.
    pub last_tick: u64,
    /// The file's size.
    pub bytes: u64,
    /// The last state's hash.
    pub final_hash: u64,
}

/// The keyframe interval for a state of this size: [`DEFAULT_KEYFRAME_EVERY`]
/// for small states, fewer for large ones, so that seeking (which decodes
/// from the keyframe before the tick) decodes at most about 8 MiB of raw
/// state: a power of two from 16 to 256.
pub fn auto_keyframe_every(state: &AnyState) -> u32 {
    keyframe_every_for(state_bytes(state))
}

/// The raw (encoded, uncompressed) size of a state.
pub fn state_bytes(state: &AnyState) -> u64 {
    super::codec::encode(state).map_or(u64::MAX, |b| b.len() as u64)
}

fn keyframe_every_for(bytes: u64) -> u32 {
    let k = ((8u64 << 20) / bytes.max(1)).clamp(16, u64::from(DEFAULT_KEYFRAME_EVERY));
    1 << (63 - k.leading_zeros())
}

/// How many ticks the simulation may run ahead of the encoder: bounds the
/// recorder's memory whatever the run length.
const PIPELINE: usize = 16;

/// At most this many bytes of state wait in the pipeline: a state of
/// 100 MiB runs two ticks ahead, not sixteen.
const PIPELINE_BYTES: u64 = 256 << 20;

/// The pipeline's depth for states of `bytes`.
fn depth_for(bytes: u64) -> usize {
    (PIPELINE_BYTES / bytes.max(1)).clamp(1, PIPELINE as u64) as usize
}

/// Refuses a state the reader would refuse, before anything is simulated.
/// `at_least` is "at least " for a bound known before the sim is built.
fn check_size(bytes: u64, at_least: &str, file: &str) -> Result<(), RunError> {
    if bytes > super::codec::MAX_PAYLOAD as u64 {
        return Err(RunError::TooLarge {
            file: file.to_owned(),
            bytes,
            message: format!(
                "cannot record {file}: its state takes {at_least}{bytes} bytes ({:.1} MiB), and a replay holds states of at most {} MiB (fewer boids, a smaller map or fewer searches fit)",
                bytes as f64 / (1u64 << 20) as f64,
                super::codec::MAX_PAYLOAD >> 20
            ),
        });
    }
    Ok(())
}

/// An input that did not apply at `tick` (the `k`th of the tick's list),
/// a lesson's own named by its place in the lesson file.
pub(crate) fn input_error(
    source: &Source,
    lesson: &Lesson,
    tick: u64,
    k: usize,
    error: SimError,
) -> RunError {
    let own = lesson.inputs.iter().filter(|s| s.tick == tick).nth(k);
    let error = match own {
        Some(s) => error.context(format!(
            "{}:{}:{}: the lesson's input `{tick}:{}`",
            source.file, s.line, s.column, s.input
        )),
        None => error,
    };
    RunError::Input { tick, error }
}

/// Records ticks `0..=ticks` of a lesson into `w`: the lesson's own
/// inputs ([`Lesson::inputs`]) and then the interventions from `inputs`
/// (by the tick they lead into; see [`super::live::merged`]) are applied
/// before that tick's step, and recorded; `progress` is told each tick
/// simulated.
///
/// The simulation runs on the calling thread; hashing, delta encoding,
/// compression and writing run on one worker thread that takes the states
/// in tick order, so the file's bytes are the same as a single-threaded
/// recorder's and the simulation pays only for a copy of each state.
pub fn record<W: Write + Send>(
    w: W,
    source: &Source,
    ticks: u64,
    keyframe_every: Option<u32>,
    inputs: &BTreeMap<u64, Vec<Input>>,
    mut progress: impl FnMut(u64),
) -> Result<(W, Recorded), RunError> {
    let lesson = source.lesson()?;
    check_size(
        lesson.scenario.state_bytes_at_least(),
        "at least ",
        &source.file,
    )?;
    let mut sim = new_sim(source, &lesson)?;
    let inputs = &super::live::merged(&lesson, inputs);
    let bytes = state_bytes(&sim.snapshot());
    check_size(bytes, "", &source.file)?;
    let keyframe_every = keyframe_every.unwrap_or_else(|| keyframe_every_for(bytes));
    let sim_of = crate::lesson::sims::of(&lesson.scenario).ok_or_else(|| RunError::Sim {
        file: source.file.clone(),
        error: SimError::registration("the scenario names no sim"),
    })?;
    let header = Header::new(
        sim_of,
        sim.dt().to_bits(),
        lesson.scenario.seed(),
        keyframe_every,
    );
    let meta = Meta {
        flockstep: env!("CARGO_PKG_VERSION").to_owned(),
        lesson_id: lesson.id.clone(),
        lesson_file: source.file.clone(),
        lesson_source: source.text.clone(),
        overrides: source.overrides.clone(),
    };
    let writer = Writer::new(w, &header, &meta).map_err(|e| RunError::Write {
        message: write_error(&e),
    })?;
    let sink = FrameWriter {
        writer,
        hash: 0,
        error: None,
    };
    let (failed, done) = pipeline(sink, depth_for(bytes), |send| {
        for tick in 0..=ticks {
            let applied = if tick == 0 {
                Vec::new()
            } else {
                let applied = inputs.get(&tick).cloned().unwrap_or_default();
                if let Err((k, error)) = super::live::apply_tick(&mut sim, source, inputs, tick) {
                    return Some(input_error(source, &lesson, tick, k, error));
                }
                sim.step();
                applied
            };
            // The rules change only with an input (a moved obstacle).
            let rules = (tick == 0 || !applied.is_empty()).then(|| rules_of(&sim));
            if !send((tick, applied, sim.snapshot(), rules)) {
                break; // the writer stopped: its error is reported below
            }
            progress(tick);
        }
        None
    })
    .map_err(|message| RunError::Write { message })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let (w, bytes, final_hash) = done.map_err(|message| RunError::Write { message })?;
    Ok((
        w,
        Recorded {
            last_tick: ticks,
            bytes,
            final_hash,
        },
    ))
}

/// The sim of a lesson at tick 0.
fn new_sim(source: &Source, lesson: &Lesson) -> Result<AnySim, RunError> {
    AnySim::new(&lesson.scenario).map_err(|error| RunError::Sim {
        file: source.file.clone(),
        error,
    })
}

fn write_error(e: &dyn std::fmt::Display) -> String {
    format!("cannot write the replay: {e}")
}

/// The consuming end of a [`pipeline`].
trait Sink<T> {
    /// What the sink gives back when the producer is done.
    type Output;
    /// Takes the next item; `false` asks the producer to stop.
    fn push(&mut self, item: T) -> bool;
    /// Ends the stream.
    fn finish(self) -> Self::Output;
}

/// Runs `produce` on the calling thread, feeding what it sends, in order,
/// to `sink`: on a worker thread a few items behind where threads exist,
/// inline on wasm32 (no threads there). Either way the sink sees the same
/// items in the same order, so its output is the same. `send` returns
/// `false` once the sink has stopped.
fn pipeline<T: Send, S: Sink<T> + Send, P>(
    sink: S,
    depth: usize,
    produce: impl FnOnce(&mut dyn FnMut(T) -> bool) -> P,
) -> Result<(P, S::Output), String>
where
    S::Output: Send,
{
    if cfg!(target_arch = "wasm32") {
        Ok(pipeline_inline(sink, produce))
    } else {
        pipeline_threaded(sink, depth, produce)
    }
}

fn pipeline_inline<T, S: Sink<T>, P>(
    mut sink: S,
    produce: impl FnOnce(&mut dyn FnMut(T) -> bool) -> P,
) -> (P, S::Output) {
    let mut open = true;
    let p = produce(&mut |item| {
        open = open && sink.push(item);
        open
    });
    (p, sink.finish())
}

fn pipeline_threaded<T: Send, S: Sink<T> + Send, P>(
    mut sink: S,
    depth: usize,
    produce: impl FnOnce(&mut dyn FnMut(T) -> bool) -> P,
) -> Result<(P, S::Output), String>
where
    S::Output: Send,
{
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::sync_channel::<T>(depth);
    std::thread::scope(|scope| {
        let stop = &stop;
        let worker = scope.spawn(move || {
            for item in rx {
                if !sink.push(item) {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            sink.finish()
        });
        let p = produce(&mut |item| !stop.load(Ordering::Relaxed) && tx.send(item).is_ok());
        drop(tx);
        let out = worker
            .join()
            .map_err(|_| "the worker thread stopped unexpectedly".to_owned())?;
        Ok((p, out))
    })
}

/// Hashes, encodes and writes the recorder's states in tick order.
struct FrameWriter<W: Write> {
    writer: Writer<W>,
    hash: u64,
    error: Option<String>,
}

/// One recorded tick: its number, the inputs applied before it, its state
/// and, when they changed, the rules that predict the next frames.
type Tick = (u64, Vec<Input>, AnyState, Option<Vec<Option<FlockRules>>>);

impl<W: Write> Sink<Tick> for FrameWriter<W> {
    type Output = Result<(W, u64, u64), String>;

    fn push(&mut self, (tick, applied, state, rules): Tick) -> bool {
        if let Some(r) = rules {
            self.writer.set_rules(r);
        }
        self.hash = state.state_hash();
        match self.writer.frame(tick, &applied, state, self.hash) {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(write_error(&e));
                false
            }
        }
    }

    fn finish(self) -> Self::Output {
        if let Some(m) = self.error {
            return Err(m);
        }
        let (w, bytes) = self.writer.finish().map_err(|e| write_error(&e))?;
        Ok((w, bytes, self.hash))
    }
}

/// Compares re-simulated states with the recorded hashes; keeps the first
/// mismatch.
struct HashCheck(Option<(u64, u64, u64, AnyState)>);

impl Sink<(u64, u64, AnyState)> for HashCheck {
    type Output = Option<(u64, u64, u64, AnyState)>;

    fn push(&mut self, (tick, recorded, state): (u64, u64, AnyState)) -> bool {
        let now = state.state_hash();
        if now != recorded {
            self.0 = Some((tick, recorded, now, state));
            return false;
        }
        true
    }

    fn finish(self) -> Self::Output {
        self.0
    }
}

/// The state hash of each tick `0..=ticks` of a lesson run without
/// interventions: what a recording of it would hold, without the file.
pub fn tick_hashes(source: &Source, ticks: u64) -> Result<Vec<u64>, RunError> {
    let lesson = source.lesson()?;
    let mut sim = new_sim(source, &lesson)?;
    let mut out = Vec::with_capacity(usize::try_from(ticks).unwrap_or(0).saturating_add(1));
    out.push(sim.state_hash());
    for _ in 0..ticks {
        sim.step();
        out.push(sim.state_hash());
    }
    Ok(out)
}

/// Where two runs part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The first tick whose hashes differ.
    pub tick: u64,
    /// The hash on the old (recorded / first) side.
    pub old_hash: u64,
    /// The hash on the new side.
    pub new_hash: u64,
    /// The first differing fields.
    pub fields: Vec<FieldDiff>,
    /// How many fields differ in all.
    pub total: u64,
}

/// The result of a verification or comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every compared tick matches.
    Match {
        /// The first tick compared.
        first: u64,
        /// The last tick compared.
        last: u64,
    },
    /// The runs part at a tick.
    Diverged(Divergence),
    /// Every common tick matches but one run is longer.
    Length {
        /// The old side's last tick.
        old_last: u64,
        /// The new side's last tick.
        new_last: u64,
    },
}

fn divergence(
    old: &AnyState,
    new: &AnyState,
    tick: u64,
    old_hash: u64,
    new_hash: u64,
) -> Divergence {
    let (fields, total) = fields::diff_leaves(
        &fields::state_leaves(old),
        &fields::state_leaves(new),
        REPORT_FIELDS,
    );
    Divergence {
        tick,
        old_hash,
        new_hash,
        fields,
        total,
    }
}

/// `f` of every item, each item on one thread of as many as the machine
/// has cores (and items), taking the next item as it finishes one; the
/// results in the items' order, whatever the threads' timing. What
/// `flockstep verify` of several files and `flockstep review` run on.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(items.len());
    if workers <= 1 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                // Each item has a core: its flocks step on one thread.
                crate::par::one_thread_here();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    slots.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item was taken by a thread"))
        .collect()
}

/// Re-simulates a replay's lesson with today's code and compares every
/// tick's hash; at the first mismatch, decodes the recorded state and names
/// the fields that differ. `progress` is told each tick checked.
///
/// States are hashed and compared on a worker thread a few ticks behind
/// the simulation, which pays only for a copy of each state.
pub fn verify<R: Read + Seek>(
    r: &mut Replay<R>,
    mut progress: impl FnMut(u64),
) -> Result<Verdict, ReplayError> {
    let fail = |r: &Replay<R>, tick: Option<u64>, m: String| ReplayError {
        kind: ReplayErrorKind::Lesson,
        file: r.file().to_owned(),
        offset: None,
        tick,
        message: m,
    };
    let lesson = Source::of(&r.meta).lesson().map_err(|m| {
        fail(
            r,
            None,
            format!("the recorded lesson does not load with this flockstep: {m}"),
        )
    })?;
    let mut sim = AnySim::new(&lesson.scenario).map_err(|e| fail(r, None, e.message))?;
    if r.first_tick != 0 {
        let m = "the recording does not start at tick 0".into();
        return Err(ReplayError {
            kind: ReplayErrorKind::Corrupt,
            ..fail(r, Some(r.first_tick), m)
        });
    }
    let name = r.file().to_owned();
    let source = Source::of(&r.meta);
    let depth = depth_for(state_bytes(&sim.snapshot()));
    let ((last, failed), mismatch) = pipeline(HashCheck(None), depth, |send| {
        let (mut last, mut failed) = (None, None);
        // The inputs so far: a change of a parameter is checked with every
        // change before it.
        let mut inputs = BTreeMap::new();
        for info in r.frames() {
            let info = match info {
                Ok(info) => info,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            if info.tick > 0 {
                if !info.inputs.is_empty() {
                    inputs.insert(info.tick, info.inputs.clone());
                }
                if let Err((k, m)) = super::live::apply_tick(&mut sim, &source, &inputs, info.tick)
                {
                    failed = Some(ReplayError {
                        kind: ReplayErrorKind::Lesson,
                        file: name.clone(),
                        offset: Some(info.offset),
                        tick: Some(info.tick),
                        message: format!(
                            "a recorded input ({}) no longer applies: {m}",
                            info.inputs[k]
                        ),
                    });
                    break;
                }
                sim.step();
            }
            if !send((info.tick, info.hash, sim.snapshot())) {
                break;
            }
            last = Some(info.tick);
            progress(info.tick);
        }
        (last, failed)
    })
    .map_err(|m| fail(r, None, m))?;
    // A divergence comes before any later problem with the file.
    if let Some((tick, old_hash, new_hash, now)) = mismatch {
        let (old, _) = r.state_at(tick)?;
        return Ok(Verdict::Diverged(divergence(
            &old, &now, tick, old_hash, new_hash,
        )));
    }
    if let Some(e) = failed {
        return Err(e);
    }
    match (last, &r.end) {
        (Some(last), _) => Ok(Verdict::Match { first: 0, last }),
        (None, End::Truncated { offset }) => Err(ReplayError {
            kind: ReplayErrorKind::Truncated,
            file: r.file().to_owned(),
            offset: Some(*offset),
            tick: None,
            message: "no complete frame to verify".into(),
        }),
        (None, End::Complete) => Err(ReplayError {
            kind: ReplayErrorKind::Empty,
            ..fail(r, None, "the replay has no frames".into())
        }),
    }
}

/// Compares two replays tick by tick; at the first differing hash,
/// decodes both states and names the fields that differ.
pub fn diff<A: Read + Seek, B: Read + Seek>(
    a: &mut Replay<A>,
    b: &mut Replay<B>,
) -> Result<Verdict, ReplayError> {
    let mut mismatch = None;
    let mut last = None;
    {
        let mut fa = a.frames();
        let mut fb = b.frames();
        loop {
            match (fa.next(), fb.next()) {
                (Some(x), Some(y)) => {
                    let (x, y) = (x?, y?);
                    if x.tick != y.tick {
                        mismatch = Some((x.tick.min(y.tick), x.hash, y.hash));
                        break;
                    }
                    if x.hash != y.hash {
                        mismatch = Some((x.tick, x.hash, y.hash));
                        break;
                    }
                    last = Some(x.tick);
                }
                (Some(x), None) => {
                    x?;
                    break;
                }
                (None, Some(y)) => {
                    y?;
                    break;
                }
                (None, None) => break,
            }
        }
    }
    if let Some((tick, ha, hb)) = mismatch {
        let (sa, _) = a.state_at(tick)?;
        let (sb, _) = b.state_at(tick)?;
        return Ok(Verdict::Diverged(divergence(&sa, &sb, tick, ha, hb)));
    }
    let (la, lb) = (a.last_tick, b.last_tick);
    match (la, lb) {
        (Some(x), Some(y)) if x != y => Ok(Verdict::Length {
            old_last: x,
            new_last: y,
        }),
        _ => Ok(Verdict::Match {
            first: a.first_tick.max(b.first_tick),
            last: last.unwrap_or(0),
        }),
    }
}

/// The lines of a divergence report, with the two sides named (`recorded`
/// / `now`, or the two files).
pub fn report(d: &Divergence, old: &str, new: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "first divergence at tick {} ({old} hash {:#018x}, {new} {:#018x})",
        d.tick, d.old_hash, d.new_hash
    );
    let show =
        |v: &Option<fields::Value>| v.as_ref().map_or("(absent)".to_owned(), |v| v.to_string());
    for f in &d.fields {
        let path = if f.path.is_empty() { "state" } else { &f.path };
        match &f.new_path {
            None => {
                let _ = writeln!(
                    s,
                    "  tick {}: {}  {old} {}  {new} {}",
                    d.tick,
                    path,
                    show(&f.old),
                    show(&f.new)
                );
            }
            Some(np) => {
                let _ = writeln!(
                    s,
                    "  tick {}: the state's shape differs: {old} has {} = {}, {new} has {np} = {}",
                    d.tick,
                    path,
                    show(&f.old),
                    show(&f.new)
                );
            }
        }
    }
    if d.total > d.fields.len() as u64 {
        let _ = writeln!(
            s,
            "  … {} more fields differ at this tick",
            d.total - d.fields.len() as u64
        );
    }
    if d.total == 0 {
        let _ = writeln!(
            s,
            "  (the hashes differ but no field does: a hashing change)"
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn par_map_gives_every_result_in_the_items_order() {
        // Items of very different cost, so threads finish out of order.
        let items: Vec<u64> = (0..200).map(|i| (i * 7919) % 2000).collect();
        let work = |&n: &u64| (0..n * 50).fold(n, |a, k| a.wrapping_mul(31).wrapping_add(k));
        let want: Vec<u64> = items.iter().map(work).collect();
        assert_eq!(par_map(&items, work), want);
        assert_eq!(par_map(&[] as &[u64], work), Vec::<u64>::new());
        assert_eq!(par_map(&[3u64], work), vec![work(&3)]);
    }

    /// Keeps what it is given; stops after `limit` items.
    struct Keep {
        got: Vec<u32>,
        limit: usize,
    }

    impl Sink<u32> for Keep {
        type Output = Vec<u32>;
        fn push(&mut self, item: u32) -> bool {
            self.got.push(item);
            self.got.len() < self.limit
        }
        fn finish(self) -> Vec<u32> {
            self.got
        }
    }

    fn produce(send: &mut dyn FnMut(u32) -> bool) -> u32 {
        let mut sent = 0;
        for i in 0..1000 {
            if !send(i * 7) {
                break;
            }
            sent += 1;
        }
        sent
    }

    #[test]
    fn big_states_queue_fewer_ticks() {
        assert_eq!(depth_for(1), PIPELINE);
        assert_eq!(depth_for(100 << 20), 2);
        assert_eq!(depth_for(300 << 20), 1);
        assert!(check_size(256 << 20, "", "x").is_ok());
        let e = check_size((256 << 20) + 1, "at least ", "x.toml").unwrap_err();
        assert!(matches!(
            e,
            RunError::TooLarge {
                bytes: 268435457,
                ..
            }
        ));
        let m = e.to_string();
        assert!(m.contains("cannot record x.toml: its state takes at least 268435457 bytes"));
    }

    #[test]
    fn the_inline_pipeline_feeds_the_sink_as_the_threaded_one_does() {
        let all = |limit| Keep {
            got: Vec::new(),
            limit,
        };
        let (sent, got) = pipeline_inline(all(usize::MAX), produce);
        assert_eq!(sent, 1000);
        assert_eq!(got, (0..1000).map(|i| i * 7).collect::<Vec<_>>());
        let threaded = pipeline_threaded(all(usize::MAX), PIPELINE, produce).unwrap();
        assert_eq!(threaded, (sent, got));
        // A sink that stops: the inline producer is told at once; the
        // threaded one within the channel's depth. The sink sees the same.
        let (sent, got) = pipeline_inline(all(10), produce);
        assert_eq!((sent, got.len()), (9, 10));
        let (tsent, tgot) = pipeline_threaded(all(10), PIPELINE, produce).unwrap();
        assert_eq!(tgot, got);
        assert!((9..=10 + PIPELINE as u32 + 1).contains(&tsent), "{tsent}");
    }
}
