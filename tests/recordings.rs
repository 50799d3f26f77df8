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
use flockstep::replay::file::{FORMAT_MAJOR, FORMAT_MINOR};
use flockstep::replay::run::{self, Source, Verdict};
use flockstep::replay::{End, Replay};
use std::collections::BTreeMap;
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

/// Why a golden recording is not current, or `None` when it is.
fn problem(b: &BundledLesson, path: &Path) -> Option<String> {
    let mut r = match Replay::open(path) {
        Ok(r) => r,
        Err(e) => return Some(e.to_string()),
    };
    if r.end != End::Complete {
        return Some(format!("{}: truncated", path.display()));
    }
    if (r.header.major, r.header.minor) != (FORMAT_MAJOR, FORMAT_MINOR) {
        return Some(format!(
            "{}: format {}.{}, not the current {FORMAT_MAJOR}.{FORMAT_MINOR}",
            path.display(),
            r.header.major,
            r.header.minor
        ));
    }
    if r.meta.lesson_source != b.source() || !r.meta.overrides.is_empty() {
        return Some(format!(
            "{}: recorded from a different text of {}",
            path.display(),
            b.path
        ));
    }
    // Every frame decodes to its recorded hash (the delta predictions are
    // part of the format: a change to one shows here)...
    if let Err(e) = r.check_all() {
        return Some(e.to_string());
    }
    // ...and today's code makes the same run.
    let want = golden_ticks(b);
    match run::verify(&mut r, |_| {}) {
        Ok(Verdict::Match { last, .. }) if last == want => None,
        Ok(Verdict::Match { last, .. }) => Some(format!(
            "{}: ticks 0..={last}, expected 0..={want}",
            path.display()
        )),
        Ok(Verdict::Diverged(d)) => Some(format!(
            "{}: {}",
            path.display(),
            run::report(&d, "recorded", "now")
        )),
        Ok(Verdict::Length { .. }) => Some("unexpected length verdict".into()),
        Err(e) => Some(e.to_string()),
    }
}

#[test]
fn every_lesson_has_a_current_golden_recording() {
    let update = std::env::var_os("FLOCKSTEP_UPDATE_RECORDINGS").is_some();
    let mut problems = Vec::new();
    for b in BUNDLED {
        let path = dir().join(format!("{}.fsr", b.id));
        let Some(p) = problem(b, &path) else { continue };
        if !update {
            problems.push(p);
            continue;
        }
        let tmp = path.with_extension("fsr.partial");
        let file = std::io::BufWriter::new(std::fs::File::create(&tmp).unwrap());
        run::record(
            file,
            &source(b),
            golden_ticks(b),
            None,
            &BTreeMap::new(),
            |_| {},
        )
        .unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        eprintln!("re-recorded {} ({p})", path.display());
    }
    assert!(
        problems.is_empty(),
        "golden recordings are not current:\n{}\n\nIf the change is intended, re-record them with\n  FLOCKSTEP_UPDATE_RECORDINGS=1 cargo test --test recordings\nand say why in the commit.",
        problems.join("\n")
    );
}

#[test]
fn no_stray_recordings() {
    let mut stray = Vec::new();
    for e in std::fs::read_dir(dir()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
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
