//! Two runs side by side: where they part, which entities differ now and
//! by how much, how far apart they drift, and the rule that made them
//! part.
//!
//! Both runs are replays (a lesson is recorded in memory first, as
//! `flockstep record` would write it), so `flockstep diff`'s own
//! comparison ([`run::diff`]) finds the first divergent tick and
//! [`cause::cause`] its reason: the view and the command line agree by
//! construction. The player plays run a; [`Compare`] holds run b's
//! session, seeks it to a's tick, and keeps what differs there.
//!
//! On opening, every tick from the first divergence on is compared once:
//! the tick each entity first differs (the divergence key's stops) and
//! the drift — for a flock the largest distance between a boid in a and
//! the same boid in b, for other sims the number of fields that differ.
#![deny(clippy::float_arithmetic)]

use super::session::{ReadSeek, Session};
use crate::num::Fx;
use crate::replay::cause::{self, Cause};
use crate::replay::fields::{self, FieldDiff, entity_of};
use crate::replay::file::Replay;
use crate::replay::run::{self, Source, Verdict};
use crate::sim::AnyState;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many differing fields the panel lists at a tick.
pub const FIELDS_SHOWN: usize = 4;

/// How many differing entities are highlighted (and traced) at a tick:
/// the first ones, by id.
pub const ENTITIES_SHOWN: usize = 3;

/// Where a run's replay bytes are.
#[derive(Clone, Debug)]
pub enum Bytes {
    /// A replay file on disk.
    File(PathBuf),
    /// A replay in memory (a lesson recorded on opening, or a file the
    /// web page was given).
    Memory(Arc<[u8]>),
}

impl Bytes {
    /// A fresh reader from the start.
    fn reader(&self, name: &str) -> Result<Box<dyn ReadSeek>, String> {
        Ok(match self {
            Bytes::File(p) => Box::new(std::io::BufReader::new(
                std::fs::File::open(p).map_err(|e| format!("{name}: {e}"))?,
            )),
            Bytes::Memory(b) => Box::new(std::io::Cursor::new(b.clone())),
        })
    }
}

/// One of the two runs: its name (the file, or the lesson) and its bytes.
#[derive(Clone, Debug)]
pub struct Run {
    /// What it is called in titles and messages.
    pub name: String,
    /// Its replay.
    pub bytes: Bytes,
}

impl Run {
    /// A replay file, or a lesson (a file or a bundled id, with `--set`
    /// overrides) recorded in memory for its whole length.
    pub fn open(arg: &str, overrides: &[String]) -> Result<Run, String> {
        let path = Path::new(arg);
        if super::app::is_replay(path) {
            if !overrides.is_empty() {
                // in English: a command-line argument refused
                return Err(format!("{arg}: --set applies to lessons, not to replays"));
            }
            crate::files::regular(path, crate::replay::file::REPLAY_FILE)
                .map_err(|m| format!("{arg}: {m}"))?;
            return Ok(Run {
                name: arg.to_owned(),
                bytes: Bytes::File(path.to_owned()),
            });
        }
        let (text, file) = crate::bundled::source_of(arg)?;
        Run::lesson(Source {
            file,
            text,
            overrides: overrides.to_vec(),
        })
    }

    /// A file's bytes (dropped or picked on the web page): a replay, or a
    /// lesson recorded in memory.
    pub fn of_bytes(name: &str, bytes: Vec<u8>) -> Result<Run, String> {
        if super::app::looks_like_replay(name, &bytes) {
            return Ok(Run {
                name: name.to_owned(),
                bytes: Bytes::Memory(bytes.into()),
            });
        }
        let text = crate::lesson::lesson_text(name, bytes)?;
        Run::lesson(Source {
            file: name.to_owned(),
            text,
            overrides: Vec::new(),
        })
    }

    fn lesson(source: Source) -> Result<Run, String> {
        let lesson = source.lesson()?;
        let (bytes, _) = run::record(
            Vec::new(),
            &source,
            lesson.ticks,
            None,
            &BTreeMap::new(),
            |_| {},
        )?;
        Ok(Run {
            name: source.file.clone(),
            bytes: Bytes::Memory(bytes.into()),
        })
    }

    fn replay(&self) -> Result<Replay<Box<dyn ReadSeek>>, String> {
        Replay::from_reader(self.bytes.reader(&self.name)?, &self.name).map_err(|e| e.to_string())
    }
}

/// What the drift plot measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriftKind {
    /// The largest distance between a boid and itself in the other run
    /// (world units, [`Fx`] bits).
    Distance,
    /// How many fields differ.
    Fields,
}

/// How far apart the runs are at each tick from the first divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    /// What is measured.
    pub kind: DriftKind,
    /// The tick of `values[0]`.
    pub from: u64,
    /// One value a tick.
    pub values: Vec<u64>,
}

impl Drift {
    /// The largest value.
    pub fn max(&self) -> u64 {
        self.values.iter().copied().max().unwrap_or(0)
    }

    /// The value at a tick (0 before the divergence).
    pub fn at(&self, tick: u64) -> u64 {
        tick.checked_sub(self.from)
            .and_then(|i| self.values.get(i as usize))
            .copied()
            .unwrap_or(0)
    }
}

/// What differs at the tick shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Now {
    /// The tick.
    pub tick: u64,
    /// The first differing fields (the names `verify` prints).
    pub fields: Vec<FieldDiff>,
    /// How many fields differ in all (of a flock whose boids differ: the
    /// fields of those boids).
    pub total: u64,
    /// Whether these are a flock's boids that stand or move apart (not
    /// every field of the state: tens of thousands of names a tick).
    pub boids: bool,
    /// The differing entities (`boid:13`, `chaser:0`), by id; a user's
    /// sim names none.
    pub entities: Vec<String>,
}

/// Run b beside the player's run a.
pub struct Compare {
    /// Run b, at run a's tick.
    pub other: Session,
    /// The runs' names, a first.
    pub names: [String; 2],
    /// The first tick whose states differ (`None`: none of the common
    /// ticks does).
    pub first: Option<u64>,
    /// Each run's last tick.
    pub ends: (u64, u64),
    /// The tick each entity first differs, in tick order (ties by id).
    pub starts: Vec<(u64, String)>,
    /// How far apart they drift.
    pub drift: Drift,
    /// The entities ringed at each tick from the first divergence (see
    /// [`Compare::ringed`]).
    ringed: Vec<Vec<String>>,
    /// Why they part (`Ok(None)`: they do not).
    pub cause: Result<Option<Cause>, String>,
    /// What differs at the tick shown.
    pub now: Now,
}

/// The flock states of a state, pane by pane (none for other sims).
fn flocks(s: &AnyState) -> Vec<&crate::sim::flock::FlockState> {
    match s {
        AnyState::Flock(f) => vec![f],
        AnyState::Panes(p) => p.iter().flat_map(flocks).collect(),
        _ => Vec::new(),
    }
}

/// The boids whose position or velocity differ, by id (every pane's,
/// merged), and the largest distance between a boid and itself.
fn boids_apart(a: &AnyState, b: &AnyState) -> Option<(Vec<u32>, Fx)> {
    let (fa, fb) = (flocks(a), flocks(b));
    if fa.is_empty() || fa.len() != fb.len() {
        return None;
    }
    let (mut ids, mut far) = (std::collections::BTreeSet::new(), Fx::ZERO);
    for (x, y) in fa.iter().zip(&fb) {
        for (i, (p, q)) in x.boids.iter().zip(&y.boids).enumerate() {
            if p != q {
                ids.insert(i as u32);
                far = far.max((p.pos - q.pos).length());
            }
        }
    }
    Some((ids.into_iter().collect(), far))
}

/// How many of a boid's position and velocity components differ (the
/// fields `diff` would name).
fn components_apart(p: &crate::sim::flock::Boid, q: &crate::sim::flock::Boid) -> u64 {
    let (a, b) = ([p.pos, p.vel], [q.pos, q.vel]);
    a.iter()
        .zip(&b)
        .map(|(u, v)| u64::from(u.x != v.x) + u64::from(u.y != v.y) + u64::from(u.z != v.z))
        .sum()
}

/// Every differing field of two states (at most `limit` named) and the
/// entities they belong to.
fn fields_apart(a: &AnyState, b: &AnyState, limit: usize) -> (Vec<FieldDiff>, u64, Vec<String>) {
    let (la, lb) = (fields::state_leaves(a), fields::state_leaves(b));
    let (all, total) = fields::diff_leaves(&la, &lb, usize::MAX);
    let mut ents: Vec<String> = all.iter().filter_map(|f| entity_of(&f.path)).collect();
    ents.sort_by_key(|e| entity_key(e));
    ents.dedup();
    (all.into_iter().take(limit).collect(), total, ents)
}

/// Sorts entity references by kind, then id as a number.
fn entity_key(e: &str) -> (String, u32) {
    let (k, i) = e.split_once(':').unwrap_or((e, "0"));
    (k.to_owned(), i.parse().unwrap_or(0))
}

/// What differs between two states: for a flock the boids apart (and
/// their fields), for other sims every field.
pub fn now_of(a: &AnyState, b: &AnyState, tick: u64) -> Now {
    if let Some((ids, _)) = boids_apart(a, b)
        && !ids.is_empty()
    {
        // A flock's fields, boid by boid: the state's whole list of
        // leaves is tens of thousands of names a tick.
        let (fa, fb) = (flocks(a), flocks(b));
        let mut out = Vec::new();
        let mut total = 0;
        for &id in &ids {
            for (pane, (x, y)) in fa.iter().zip(&fb).enumerate() {
                let (p, q) = (&x.boids[id as usize], &y.boids[id as usize]);
                total += components_apart(p, q);
                if p == q || out.len() >= FIELDS_SHOWN {
                    continue;
                }
                let pane = matches!(a, AnyState::Panes(_)).then_some(pane);
                let prefix = fields::boid_path(pane, id);
                let (d, _) = fields::diff(p, q, FIELDS_SHOWN);
                out.extend(d.into_iter().map(|f| FieldDiff {
                    path: format!("{prefix}.{}", f.path),
                    ..f
                }));
            }
        }
        out.truncate(FIELDS_SHOWN);
        return Now {
            tick,
            fields: out,
            total,
            boids: true,
            entities: ids.iter().map(|i| format!("boid:{i}")).collect(),
        };
    }
    let (fields, total, entities) = fields_apart(a, b, FIELDS_SHOWN);
    Now {
        tick,
        fields,
        total,
        boids: false,
        entities,
    }
}

/// Why the runs part at `tick`: both traced with today's code
/// ([`cause::cause`]); when they reason alike there with the same
/// parameters, another build made one of them (a golden replay and
/// today's run of it, as `flockstep review` shows them), and today's
/// step from run a's recorded state names the entity that now ends
/// elsewhere and today's reasoning for it ([`cause::cause_now`]).
fn why<R: std::io::Read + std::io::Seek>(
    a: &mut Replay<R>,
    b: &mut Replay<R>,
    tick: u64,
) -> Result<Cause, String> {
    let c = cause::cause(a, b, tick).map_err(|e| e.to_string())?;
    if c.params.is_empty() && c.entity == cause::NO_ENTITY {
        let mut now = cause::cause_now(a, tick).map_err(|e| e.to_string())?;
        if now.entity != cause::NO_ENTITY {
            now.lines.insert(0, cause::ANOTHER_BUILD.to_owned());
            return Ok(now);
        }
    }
    Ok(c)
}

/// The runs' names for a message.
fn both(a: &Run, b: &Run) -> String {
    // in English: names in a message, as the command line says it
    format!("{} and {}", a.name, b.name)
}

impl Compare {
    /// Opens run a as the player's session and run b beside it. Runs of
    /// different sims are refused.
    pub fn open(a: &Run, b: &Run) -> Result<(Session, Compare), String> {
        let sa = Session::replay_from(a.bytes.reader(&a.name)?, &a.name)?;
        let sb = Session::replay_from(b.bytes.reader(&b.name)?, &b.name)?;
        let (na, nb) = (sa.lesson.sim.name(), sb.lesson.sim.name());
        if na != nb {
            return Err(format!(
                // in English: a comparison refused, as the command line says it
                "{} is a {na} run and {} a {nb} run: only runs of one sim compare",
                a.name, b.name
            ));
        }
        let (mut ra, mut rb) = (a.replay()?, b.replay()?);
        let verdict = run::diff(&mut ra, &mut rb).map_err(|e| e.to_string())?;
        let ends = (ra.last_tick.unwrap_or(0), rb.last_tick.unwrap_or(0));
        let first = match verdict {
            Verdict::Diverged(d) => Some(d.tick),
            Verdict::Match { .. } | Verdict::Length { .. } => None,
        };
        let cause = match first {
            Some(t) => why(&mut ra, &mut rb, t).map(Some),
            None => Ok(None),
        };
        let subject = match &cause {
            Ok(Some(c)) => c.entity.replace(' ', ":"),
            _ => String::new(),
        };
        let Scanned {
            starts,
            drift,
            ringed,
        } = scan(&mut ra, &mut rb, first, ends.0.min(ends.1), &subject)
            // in English: a comparison's failure, as the command line says it
            .map_err(|e| format!("comparing {}: {e}", both(a, b)))?;
        let now = now_of(&sa.sim().snapshot(), &sb.sim().snapshot(), sa.tick());
        Ok((
            sa,
            Compare {
                other: sb,
                names: [a.name.clone(), b.name.clone()],
                first,
                ends,
                starts,
                drift,
                ringed,
                cause,
                now,
            },
        ))
    }

    /// The last tick both runs have.
    pub fn last(&self) -> u64 {
        self.ends.0.min(self.ends.1)
    }

    /// Where the divergence key goes from `tick`: the first divergence,
    /// else the next tick at which another entity starts to differ, else
    /// back to the first divergence.
    pub fn next_stop(&self, tick: u64) -> Option<u64> {
        let first = self.first?;
        if tick < first {
            return Some(first);
        }
        Some(
            self.starts
                .iter()
                .map(|(t, _)| *t)
                .find(|&t| t > tick)
                .unwrap_or(first),
        )
    }

    /// Brings run b to run a's tick and notes what differs there.
    pub fn follow(&mut self, a: &Session, watch: &[u32]) -> Result<(), String> {
        let t = a.tick().min(self.last());
        if self.other.tick() != t || self.now.tick != a.tick() {
            self.other.seek(t, watch)?;
            self.now = now_of(&a.sim().snapshot(), &self.other.sim().snapshot(), a.tick());
        }
        Ok(())
    }

    /// Traces run b's tick again for other boids.
    pub fn retrace(&mut self, watch: &[u32]) -> Result<(), String> {
        let t = self.other.tick();
        if t > self.other.first_tick() {
            self.other.seek(t - 1, &[])?;
        }
        self.other.seek(t, watch)
    }

    /// The entities ringed (highlighted, their reasoning traced) at a
    /// tick: the first divergence's subject first when it differs there,
    /// then the others by id, at most [`ENTITIES_SHOWN`]. Known from
    /// opening, so a player traces them in the one step it takes.
    pub fn ringed(&self, tick: u64) -> &[String] {
        tick.checked_sub(self.drift.from)
            .filter(|_| self.first.is_some())
            .and_then(|i| self.ringed.get(i as usize))
            .map_or(&[], |v| v)
    }
}

/// The entities to ring: `subject` first when among `ents`, then the
/// others in order, at most [`ENTITIES_SHOWN`].
fn ring(ents: &[String], subject: &str) -> Vec<String> {
    let mut out: Vec<String> = ents.iter().filter(|e| *e == subject).cloned().collect();
    out.extend(
        ents.iter()
            .filter(|e| *e != subject)
            .take(ENTITIES_SHOWN - out.len())
            .cloned(),
    );
    out
}

/// What [`scan`] finds.
struct Scanned {
    starts: Vec<(u64, String)>,
    drift: Drift,
    ringed: Vec<Vec<String>>,
}

/// From the first divergence to the last common tick: the tick each
/// entity first differs, and the drift.
fn scan<R: std::io::Read + std::io::Seek>(
    a: &mut Replay<R>,
    b: &mut Replay<R>,
    first: Option<u64>,
    last: u64,
    subject: &str,
) -> Result<Scanned, crate::replay::file::ReplayError> {
    let mut drift = Drift {
        kind: DriftKind::Fields,
        from: first.unwrap_or(0),
        values: Vec::new(),
    };
    let Some(first) = first else {
        return Ok(Scanned {
            starts: Vec::new(),
            drift,
            ringed: Vec::new(),
        });
    };
    let mut seen: BTreeMap<String, u64> = BTreeMap::new();
    let mut ringed = Vec::new();
    for t in first..=last {
        let (sa, _) = a.state_at(t)?;
        let (sb, _) = b.state_at(t)?;
        let apart = boids_apart(&sa, &sb);
        if apart.is_some() {
            drift.kind = DriftKind::Distance;
        }
        let (ents, value) = match apart {
            Some((ids, far)) if !ids.is_empty() => {
                let ents = ids.iter().map(|i| format!("boid:{i}")).collect();
                (ents, far.to_bits().max(0) as u64)
            }
            // A flock whose boids stand and move alike differs in its
            // model's own state (an acceleration): named by its fields.
            Some(_) => (fields_apart(&sa, &sb, 0).2, 0),
            None => {
                let (_, total, ents) = fields_apart(&sa, &sb, 0);
                (ents, total)
            }
        };
        drift.values.push(value);
        ringed.push(ring(&ents, subject));
        for e in ents {
            seen.entry(e).or_insert(t);
        }
    }
    let mut starts: Vec<(u64, String)> = seen.into_iter().map(|(e, t)| (t, e)).collect();
    starts.sort_by_key(|(t, e)| (*t, entity_key(e)));
    Ok(Scanned {
        starts,
        drift,
        ringed,
    })
}

/// The side panel of a comparison: where the runs part, what differs at
/// the tick shown (both values of each field), the drift, and the cause.
pub fn panel(c: &Compare, lang: crate::i18n::Lang) -> crate::scene::Panel {
    use crate::tr;
    let mut lines = Vec::new();
    match c.first {
        None => lines.push(tr!(lang, COMPARE_SAME).to_owned()),
        Some(t) => lines.push(tr!(lang, COMPARE_FIRST, t)),
    }
    if c.ends.0 != c.ends.1 {
        lines.push(tr!(lang, COMPARE_LONGER, c.ends.0, c.ends.1));
    }
    match &c.cause {
        Ok(Some(cause)) => {
            let pane = if cause.pane > 0 {
                format!(" ({})", cause.pane + 1)
            } else {
                String::new()
            };
            // The subject in the screen's language (`boid 3` → `3 番`).
            let subject = match cause.entity.strip_prefix("boid ") {
                Some(id) => tr!(lang, NAME_BOID, id),
                None => cause.entity.clone(),
            };
            lines.push(tr!(
                lang,
                COMPARE_CAUSE,
                cause.tick,
                format!("{subject}{pane}")
            ));
            lines.extend(cause.lines.iter().cloned());
            for (k, va, vb) in &cause.params {
                lines.push(tr!(lang, COMPARE_PARAM, k, va, vb));
            }
        }
        Ok(None) => {}
        Err(m) => lines.push(tr!(lang, COMPARE_NO_CAUSE, m)),
    }
    let now = &c.now;
    if now.total == 0 {
        lines.push(tr!(lang, COMPARE_NOW_SAME, now.tick));
    } else {
        lines.push(if now.boids {
            tr!(lang, COMPARE_NOW_BOIDS, now.tick, now.entities.len())
        } else if now.entities.is_empty() {
            tr!(lang, COMPARE_NOW_FIELDS, now.tick, now.total)
        } else {
            tr!(lang, COMPARE_NOW, now.tick, now.total, now.entities.len())
        });
        let (at, top) = (c.drift.at(now.tick), c.drift.max());
        lines.push(match c.drift.kind {
            DriftKind::Distance => tr!(
                lang,
                COMPARE_DRIFT_DISTANCE,
                crate::scene::fx2(Fx::from_bits(at as i64)),
                crate::scene::fx2(Fx::from_bits(top as i64))
            ),
            DriftKind::Fields => tr!(lang, COMPARE_DRIFT_FIELDS, at, top),
        });
        let show = |v: &Option<fields::Value>| v.as_ref().map_or_else(|| "-".to_owned(), short);
        for f in &now.fields {
            lines.push(tr!(lang, COMPARE_FIELD, f.path, show(&f.old), show(&f.new)));
        }
        if now.total > now.fields.len() as u64 {
            lines.push(tr!(lang, COMPARE_MORE, now.total - now.fields.len() as u64));
        }
    }
    crate::scene::Panel {
        title: tr!(lang, COMPARE_TITLE).to_owned(),
        lines,
        rank: 0,
    }
}

/// A field's value as the panel shows it: a fixed-point number to four
/// places (the exact bits are `flockstep diff`'s).
fn short(v: &fields::Value) -> String {
    match v {
        fields::Value::Fx(bits) => crate::scene::fx_places(Fx::from_bits(*bits), 4),
        v => v.to_string(),
    }
}

/// The drift over the timeline's ticks, one column per pixel: for each
/// x from 0 to `width`, the largest value among the ticks drawn there
/// (ticks `first..=last` spread over the width), scaled to `height` by
/// its square root (a drift of a hundredth of the largest stands a tenth
/// as tall: the first ticks after the divergence show).
pub fn drift_columns(
    d: &Drift,
    (first, last): (u64, u64),
    width: i32,
    height: i32,
) -> Vec<(i32, i32)> {
    let top = d.max();
    if top == 0 || width <= 0 {
        return Vec::new();
    }
    let span = (last - first).max(1);
    let mut cols: BTreeMap<i32, u64> = BTreeMap::new();
    for (k, &v) in d.values.iter().enumerate() {
        let t = d.from + k as u64;
        if t < first || t > last {
            continue;
        }
        let x = (u128::from(t - first) * width as u128 / u128::from(span)) as i32;
        let e = cols.entry(x).or_default();
        *e = (*e).max(v);
    }
    cols.into_iter()
        .map(|(x, v)| {
            const K: u128 = 1 << 20;
            let frac = u128::from(v) * K / u128::from(top);
            let h = (frac.isqrt() * height as u128 / K.isqrt()) as i32;
            (x, h.max(i32::from(v > 0)))
        })
        .collect()
}
