//! Whether the web tests can run here: the tools they need, and the one
//! rule for skipping. Shared by flockstep's own web tests (`tests/web.rs`)
//! and a user sim's (`examples/seek-flee/tests/web.rs`, through `#[path]`).

use std::process::Command;

/// The one command that installs what the web tests need (Debian).
pub const INSTALL: &str =
    "rustup target add wasm32-unknown-unknown && apt-get install clang nodejs chromium";

/// Whether the web tests are skipped: on purpose, or because a tool is
/// missing outside CI (said on the terminal, not only in captured output).
/// Under `CI` nothing is skipped: a missing tool fails the test.
pub fn skipped() -> bool {
    let ci = std::env::var_os("CI").is_some();
    let why = if std::env::var_os("FLOCKSTEP_SKIP_WEB_TESTS").is_some() {
        Some("FLOCKSTEP_SKIP_WEB_TESTS is set".to_owned())
    } else {
        missing_tool()
    };
    match why {
        None => false,
        Some(w) if ci => panic!("the web tests cannot run under CI: {w}; install: {INSTALL}"),
        Some(w) => {
            // Straight to the terminal: the test harness captures `eprintln!`.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "\n*** WEB TESTS SKIPPED: {w}.\n*** Install what they need with: {INSTALL}\n"
            );
            true
        }
    }
}

/// The first tool the web tests need that this machine lacks.
pub fn missing_tool() -> Option<String> {
    let runs = |cmd: &str, args: &[&str]| {
        Command::new(cmd)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let wasm = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"));
    [
        (runs("clang", &["--version"]), "clang is not installed"),
        (
            runs("node", &["--version"]),
            "Node.js (node) is not installed",
        ),
        (runs(&chromium, &["--version"]), "Chromium is not installed"),
        (wasm, "the wasm32-unknown-unknown target is not installed"),
    ]
    .into_iter()
    .find(|(ok, _)| !ok)
    .map(|(_, why)| why.to_owned())
}
