//! Golden replays in a test suite, as `insta` keeps snapshots: a lesson's
//! run recorded once into a file beside the tests, then re-simulated with
//! today's code on every `cargo test`; a change in behaviour fails the test
//! with the first divergent tick, entity and field — the report
//! `flockstep verify` prints.
//!
//! - A missing golden replay is recorded on the first run (never where the
//!   `CI` environment variable is set: there it is a failure).
//! - A golden replay that is not current (a changed run, a changed lesson
//!   text, an older format) fails the test, and outside CI today's run is
//!   written beside it, `NAME.new.fsr` ([`new_path`]), as insta writes a
//!   `.snap.new`: `flockstep review` walks through them — the first
//!   divergence, its cause, both runs side by side — and accepts
//!   ([`accept`]: the new run replaces the golden one), rejects
//!   ([`reject`]: it is deleted) or skips each. Nothing is overwritten
//!   without an accept.
//! - `FLOCKSTEP_UPDATE_RECORDINGS=1 cargo test` re-records exactly the
//!   golden replays that are not current, all at once; say why in the
//!   commit.
//!
//! [`crate::assert_replay!`] is the one call a test makes; flockstep's own
//! golden recordings (`tests/recordings.rs`) go through [`check`] too.

use super::file::{FORMAT_MAJOR, FORMAT_MINOR};
use super::run::{self, RunError, Source, Verdict};
use super::{End, Replay};
use crate::files::FileError;
use crate::lesson::LessonError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The environment variable that asks for golden replays to be re-recorded.
pub const UPDATE_VAR: &str = "FLOCKSTEP_UPDATE_RECORDINGS";

/// What [`check`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Golden {
    /// The golden replay is current: today's code makes the same run.
    Current,
    /// It was (re-)recorded, for this reason.
    Recorded(String),
}

/// Why a golden replay check failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GoldenError {
    /// The lesson does not load (or is not text).
    Lesson(LessonError),
    /// A file could not be read or written.
    File(FileError),
    /// The lesson could not be recorded.
    Run(RunError),
    /// There is no golden replay, and CI never records one.
    MissingInCi {
        /// Where it should be.
        path: PathBuf,
    },
    /// The golden replay is not a current recording of the lesson.
    NotCurrent {
        /// What differs ([`problem`]): the first divergent tick, entity and
        /// field, a different lesson text, an older format…
        problem: String,
    },
}

impl std::fmt::Display for GoldenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoldenError::Lesson(e) => write!(f, "{e}"),
            GoldenError::File(e) => write!(f, "{e}"),
            GoldenError::Run(e) => write!(f, "{e}"),
            GoldenError::MissingInCi { path } => write!(
                f,
                "{}: no golden replay (CI never records one: run `cargo test` locally and commit it)",
                path.display()
            ),
            GoldenError::NotCurrent { problem } => write!(
                f,
                "golden replay not current:\n{problem}\n\nToday's run is written beside it as NAME.new.fsr (not under CI). Review the changes\n  flockstep review DIR   (accept, reject or skip each; nothing is overwritten without an accept)\nor re-record them all with\n  {UPDATE_VAR}=1 cargo test\nand say why in the commit."
            ),
        }
    }
}

impl std::error::Error for GoldenError {}

impl From<LessonError> for GoldenError {
    fn from(e: LessonError) -> GoldenError {
        GoldenError::Lesson(e)
    }
}

impl From<FileError> for GoldenError {
    fn from(e: FileError) -> GoldenError {
        GoldenError::File(e)
    }
}

impl From<RunError> for GoldenError {
    fn from(e: RunError) -> GoldenError {
        GoldenError::Run(e)
    }
}

/// Why the golden replay at `path` is not a current recording of
/// `ticks` ticks of `source`, or `None` when it is.
pub fn problem(source: &Source, path: &Path, ticks: u64) -> Option<String> {
    let name = path.display();
    let mut r = match Replay::open(path) {
        Ok(r) => r,
        Err(e) => return Some(e.to_string()),
    };
    if r.end != End::Complete {
        return Some(format!("{name}: truncated"));
    }
    if (r.header.major, r.header.minor) != (FORMAT_MAJOR, FORMAT_MINOR) {
        return Some(format!(
            "{name}: format {}.{}, not the current {FORMAT_MAJOR}.{FORMAT_MINOR}",
            r.header.major, r.header.minor
        ));
    }
    if r.meta.lesson_source != source.text || r.meta.overrides != source.overrides {
        return Some(format!(
            "{name}: recorded from a different text of {}",
            source.file
        ));
    }
    // Every frame decodes to its recorded hash (the delta predictions are
    // part of the format: a change to one shows here)...
    if let Err(e) = r.check_all() {
        return Some(e.to_string());
    }
    // ...and today's code makes the same run.
    match run::verify(&mut r, |_| {}) {
        Ok(Verdict::Match { last, .. }) if last == ticks => None,
        Ok(Verdict::Match { last, .. }) => {
            Some(format!("{name}: ticks 0..={last}, expected 0..={ticks}"))
        }
        Ok(Verdict::Diverged(d)) => Some(format!("{name}: {}", run::report(&d, "recorded", "now"))),
        Ok(Verdict::Length { old_last, new_last }) => Some(format!(
            "{name}: recorded up to tick {old_last}, now {new_last}"
        )),
        Err(e) => Some(e.to_string()),
    }
}

/// Records `ticks` ticks of `source` into `path`, whole or not at all.
pub fn record(source: &Source, path: &Path, ticks: u64) -> Result<(), GoldenError> {
    let (bytes, _) = run::record(Vec::new(), source, ticks, None, &BTreeMap::new(), |_| {})?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| FileError {
            kind: crate::files::FileErrorKind::Io(e.kind()),
            message: format!("{}: cannot create it: {e}", dir.display()),
        })?;
    }
    Ok(crate::files::write_atomic(path, &bytes)?)
}

/// Checks the golden replay at `path` of `ticks` ticks of `source`
/// (`u64::MAX`: the lesson's own length): current, or recorded when it is
/// missing (outside CI) or when [`UPDATE_VAR`] is set; otherwise the
/// error says what differs and how to re-record.
pub fn check(source: &Source, path: &Path, ticks: u64) -> Result<Golden, GoldenError> {
    let lesson = source.lesson()?;
    let ticks = ticks.min(lesson.ticks);
    let env = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "0");
    let (update, ci) = (env(UPDATE_VAR), env("CI"));
    if !path.exists() {
        if ci && !update {
            return Err(GoldenError::MissingInCi {
                path: path.to_owned(),
            });
        }
        record(source, path, ticks)?;
        return Ok(Golden::Recorded("it was missing".into()));
    }
    match problem(source, path, ticks) {
        None => Ok(Golden::Current),
        Some(p) if update => {
            record(source, path, ticks)?;
            Ok(Golden::Recorded(p))
        }
        Some(problem) => {
            if !ci {
                record(source, &new_path(path), ticks)?;
            }
            Err(GoldenError::NotCurrent { problem })
        }
    }
}

/// Where today's run of the golden replay at `golden` is written when
/// it is not current: beside it, `NAME.new.fsr`.
pub fn new_path(golden: &Path) -> PathBuf {
    let stem = golden
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    golden.with_file_name(format!("{stem}.new.fsr"))
}

/// Whether a path is today's run beside a golden replay.
fn is_new(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".new.fsr")
}

/// The golden replays named: files as given, and in each directory its
/// `*.fsr` (not subdirectories, not `*.new.fsr`), in name order.
pub fn goldens(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if !p.is_dir() {
            if !p.is_file() {
                return Err(format!("{}: no such file or directory", p.display()));
            }
            out.push(p.clone());
            continue;
        }
        let dir = std::fs::read_dir(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let mut found: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "fsr") && !is_new(f))
            .collect();
        found.sort();
        out.extend(found);
    }
    out.retain(|p| !is_new(p));
    out.dedup();
    Ok(out)
}

/// Re-simulates the golden replay at `path` (its recorded lesson text,
/// overrides and inputs) and, when today's code does not make the same
/// run, records today's run beside it ([`new_path`]); `Ok(true)` then.
/// A pending `.new.fsr` is left as it is (it may hold a run of a changed
/// lesson text, written by `cargo test`).
pub fn renew(path: &Path) -> Result<bool, String> {
    let new = new_path(path);
    if new.exists() {
        return Ok(true);
    }
    let mut r = Replay::open(path).map_err(|e| e.to_string())?;
    let source = Source::of(&r.meta);
    let ticks = r.last_tick.unwrap_or(0);
    let mut inputs = BTreeMap::new();
    for f in r.frames() {
        let f = f.map_err(|e| e.to_string())?;
        if !f.inputs.is_empty() {
            inputs.insert(f.tick, f.inputs);
        }
    }
    drop(r);
    if problem(&source, path, ticks).is_none() {
        return Ok(false);
    }
    let lesson = source.lesson().map_err(|e| e.to_string())?;
    let own = super::live::made(&lesson, &inputs);
    let (bytes, _) =
        run::record(Vec::new(), &source, ticks, None, &own, |_| {}).map_err(|e| e.to_string())?;
    crate::files::write_atomic(&new, &bytes).map_err(|e| e.to_string())?;
    Ok(true)
}

/// [`renew`] for every golden replay, on every core (each file on one
/// thread; the results in the order given).
pub fn renew_all(paths: &[PathBuf]) -> Vec<Result<bool, String>> {
    run::par_map(paths, |p| renew(p))
}

/// Accepts today's run of the golden replay at `golden`: it replaces the
/// golden replay (a rename: the old file is never half-written).
pub fn accept(golden: &Path) -> Result<(), FileError> {
    let new = new_path(golden);
    std::fs::rename(&new, golden).map_err(|e| FileError {
        kind: crate::files::FileErrorKind::Io(e.kind()),
        message: format!("{} → {}: {e}", new.display(), golden.display()),
    })
}

/// Rejects today's run of the golden replay at `golden`: it is deleted,
/// the golden replay left as it was.
pub fn reject(golden: &Path) -> Result<(), FileError> {
    let new = new_path(golden);
    std::fs::remove_file(&new).map_err(|e| FileError {
        kind: crate::files::FileErrorKind::Io(e.kind()),
        message: format!("{}: {e}", new.display()),
    })
}

/// The lesson file `lesson` and its golden replay `recordings/NAME.fsr`,
/// both under `root` (the calling crate's directory), checked by [`check`]
/// over the lesson's whole length or `ticks` if fewer. What
/// [`crate::assert_replay!`] calls.
pub fn assert_in(root: &Path, name: &str, lesson: &str, ticks: u64) -> Result<Golden, GoldenError> {
    let file = root.join(lesson);
    let bytes = crate::files::read_file_bounded(&file, crate::files::MAX_LESSON_BYTES, "a lesson")?;
    let source = Source {
        file: lesson.to_owned(),
        text: crate::lesson::lesson_text(lesson, bytes)?,
        overrides: Vec::new(),
    };
    let path = root.join("recordings").join(format!("{name}.fsr"));
    let out = check(&source, &path, ticks)?;
    if let Golden::Recorded(why) = &out {
        eprintln!("recorded {} ({why})", path.display());
    }
    Ok(out)
}

/// Asserts that a lesson's golden replay is current, as `insta` asserts a
/// snapshot: `assert_replay!("NAME", "lessons/FILE.toml")` checks
/// `recordings/NAME.fsr` under the calling crate's directory (recording it
/// on the first run; see [`crate::replay::golden`]), and
/// `assert_replay!("NAME", "lessons/FILE.toml", ticks = 200)` only the
/// first 200 ticks. On a difference the test fails with the first
/// divergent tick, entity and field.
#[macro_export]
macro_rules! assert_replay {
    ($name:expr, $lesson:expr) => {
        $crate::assert_replay!($name, $lesson, ticks = u64::MAX)
    };
    ($name:expr, $lesson:expr, ticks = $ticks:expr) => {
        if let Err(m) = $crate::replay::golden::assert_in(
            ::std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
            $name,
            $lesson,
            $ticks,
        ) {
            panic!("{m}");
        }
    };
}
