//! Helpers shared by the tests that run the real binary on real files.

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

/// A fresh directory under the target dir (named after the test binary
/// and `name`), removed at the end.
pub struct Dir(pub PathBuf);

impl Dir {
    /// Creates it, empty.
    pub fn new(name: &str) -> Dir {
        let p = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
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
