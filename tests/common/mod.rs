//! Helpers shared by the tests that run the real binary on real files.
// Not every test binary uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `flockstep` with these arguments (standard input empty).
pub fn flockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flockstep"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Bytes as text, for messages.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory in the test binary's scratch folder
/// ([`scratch_dir`]), removed at the end.
pub struct Dir(pub PathBuf);

impl Dir {
    /// Creates it, empty.
    pub fn new(name: &str) -> Dir {
        Dir(scratch_dir(name))
    }

    /// A path inside it.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// This test binary's scratch folder, `name` inside the target dir's
/// `tmp/<binary>/`: a run reuses the last run's folder rather than leaving
/// one more in the system's temp dir (a window test's renders, a browser's
/// profile: megabytes a run), and what a failed run wrote stays there to
/// look at until the next.
fn scratch_root() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"));
    std::fs::create_dir_all(&root).unwrap();
    root
}

/// A file path in [`scratch_root`], with any file a last run left there
/// removed: a command that fails to write it cannot pass on an old one.
pub fn scratch(name: &str) -> PathBuf {
    let p = scratch_root().join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// A folder in [`scratch_root`], empty.
pub fn scratch_dir(name: &str) -> PathBuf {
    let p = scratch_root().join(name);
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// A golden replay of flock-weights that today's code no longer makes,
/// `ticks` long: frames stepped with `w_separation=4`, metadata saying the
/// lesson as shipped (as if the rule had changed since it was recorded).
pub fn diverging_golden(path: &str, ticks: u64) {
    use flockstep::replay::file::{DEFAULT_KEYFRAME_EVERY, Header, Meta, Writer};
    let b = flockstep::bundled::BUNDLED
        .iter()
        .find(|b| b.id == "flock-weights")
        .unwrap();
    let run = flockstep::replay::run::Source {
        file: b.path.into(),
        text: b.source().into(),
        overrides: vec!["w_separation=4".into()],
    };
    let lesson = run.lesson().unwrap();
    let mut sim = flockstep::sim::AnySim::new(&lesson.scenario).unwrap();
    let meta = Meta {
        flockstep: "0.1.0".into(),
        lesson_id: lesson.id.clone(),
        lesson_file: b.path.into(),
        lesson_source: b.source().into(),
        overrides: vec![],
    };
    let header = Header::new(
        flockstep::lesson::sims::by_name("flock").unwrap(),
        sim.dt().to_bits(),
        lesson.scenario.seed(),
        DEFAULT_KEYFRAME_EVERY,
    );
    let mut w = Writer::new(std::fs::File::create(path).unwrap(), &header, &meta).unwrap();
    w.frame(0, &[], sim.snapshot(), sim.state_hash()).unwrap();
    for t in 1..=ticks {
        sim.step();
        w.frame(t, &[], sim.snapshot(), sim.state_hash()).unwrap();
    }
    w.finish().unwrap();
}
