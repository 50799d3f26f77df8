//! The golden recordings in `recordings/`: one replay per bundled lesson,
//! re-simulated with today's code on every `cargo test`, plus one replay of
//! every earlier format version still supported.
//!
//! After an *intended* change: `flockstep verify recordings/*.fsr` says
//! what changed (tick, field, values); then
//! `FLOCKSTEP_UPDATE_RECORDINGS=1 cargo test --test recordings` re-records
//! exactly the recordings that differ (or are missing, or whose lesson text
//! changed), and the commit says why. CI never sets the variable.

use flockstep::bundled::{BUNDLED, BundledLesson};
use flockstep::replay::golden::{self, Golden};
use flockstep::replay::run::Source;
use flockstep::replay::{End, Replay};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Golden recordings cover each lesson's first ticks (all of it when it is
/// shorter): long enough for every rule to act, short enough to keep the
/// repository small. `tests/lessons.rs` locks the hash at each lesson's end.
const GOLDEN_TICKS: u64 = 150;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("recordings")
}

fn source(b: &BundledLesson) -> Source {
    Source {
        file: b.path.to_owned(),
        text: b.source().to_owned(),
        overrides: Vec::new(),
    }
}

fn golden_ticks(b: &BundledLesson) -> u64 {
    source(b).lesson().unwrap().ticks.min(GOLDEN_TICKS)
}

/// Every bundled lesson's golden recording is current, through the call a
/// user's own golden test makes ([`golden::check`], which
/// `flockstep_core::assert_replay!` wraps): re-recorded only where it is
/// not and `FLOCKSTEP_UPDATE_RECORDINGS` is set.
#[test]
fn every_lesson_has_a_current_golden_recording() {
    // Every lesson on a core of its own (issue 47), reported in order.
    let checked = flockstep::replay::run::par_map(BUNDLED, |b| {
        let path = dir().join(format!("{}.fsr", b.id));
        (
            path.clone(),
            golden::check(&source(b), &path, golden_ticks(b)),
        )
    });
    let mut problems = Vec::new();
    for (path, c) in checked {
        match c {
            Ok(Golden::Current) => {}
            Ok(Golden::Recorded(why)) => eprintln!("re-recorded {} ({why})", path.display()),
            Err(p) => problems.push(p.to_string()),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn no_stray_recordings() {
    let mut stray = Vec::new();
    for e in std::fs::read_dir(dir()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        // Today's run beside a changed golden recording waits for
        // `flockstep review` (and git ignores it).
        if name.ends_with(".new.fsr") {
            continue;
        }
        if let Some(id) = name.strip_suffix(".fsr")
            && !BUNDLED.iter().any(|b| b.id == id)
        {
            stray.push(name);
        }
    }
    assert!(
        stray.is_empty(),
        "recordings of no bundled lesson: {stray:?}"
    );
}

/// The CLI users run agrees: `flockstep verify` on every golden file.
#[test]
fn the_cli_verifies_every_golden_recording() {
    let files: Vec<PathBuf> = BUNDLED
        .iter()
        .map(|b| dir().join(format!("{}.fsr", b.id)))
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .arg("verify")
        .args(&files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.contains(": ok, ticks 0..="))
            .count(),
        BUNDLED.len()
    );
}

/// Every earlier format version still supported has checked-in recordings
/// that must keep reading: every frame decodes to a state whose hash is the
/// one recorded. (They are not re-simulated: a later, intended change of a
/// sim must not force re-recording a frozen old-format file.) Format 1.0 is
/// the first; when the format changes, these files stay.
#[test]
fn every_supported_format_version_still_reads() {
    let formats = dir().join("formats");
    let mut seen = Vec::new();
    for e in std::fs::read_dir(&formats).unwrap() {
        let path = e.unwrap().path();
        let mut r = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
        seen.push(format!("{}.{}", r.header.major, r.header.minor));
        assert_eq!(r.end, End::Complete, "{}", path.display());
        let n = r.check_all().unwrap_or_else(|e| panic!("{e}"));
        assert!(n > 16, "{}: several keyframe groups", path.display());
    }
    seen.sort();
    assert_eq!(seen, ["1.0", "1.0"]);
}
