//! flockstep teaches and regression-tests classic game-AI algorithms —
//! boids, A* on a height grid, Bresenham line of sight — on a fixed-point
//! core that is bit-for-bit deterministic, so every run can be recorded,
//! replayed anywhere and compared tick by tick.
//!
//! # Code map
//! Dependencies point one way: `num → canon → sim → lesson → replay → scene → viewer → cli`.
//! The first five are the crate `flockstep-core` (`crates/flockstep-core`),
//! re-exported here under the same names; the compiler keeps them from
//! reaching the outer layers.
//!
//! - [`num`]: the fixed-point scalar [`num::Fx`], vectors, binary angles
//!   with table-driven trigonometry, exact decimal parsing, the seeded
//!   [`num::Pcg32`] and the [`num::Xxh64`] hash.
//! - [`canon`]: the canonical byte encoding of states and the state hash.
//! - [`sim`]: the stepping contract ([`sim::Sim`], explain [`sim::Sink`]s)
//!   and one module per algorithm ([`sim::line`] so far).
//! - [`lesson`]: lesson files (TOML) parsed and checked into a scenario and
//!   narration beats, with errors that name the file, line and column.
//! - [`replay`]: replay files — the container, keyframes and predicted
//!   deltas, seeking, named-field diffs, record / verify / diff
//!   ([`replay::codec`] is the one place that talks to `bincode`).
//! - [`files`]: bounded, atomic reads and writes of lesson and replay files.
//! - [`bundled`]: the lessons in `lessons/`, compiled into the binary.
//! - [`i18n`]: every word the viewer draws, in English and Japanese.
//! - [`scene`]: what the viewer draws, as data — a pure, float-free
//!   function from a sim, its explain record, view options and camera to
//!   shapes and text panels.
//! - [`viewer`]: the macroquad lesson player and `flockstep render`: the
//!   clock ([`viewer::timeline`]), the app state machine
//!   ([`viewer::app`]), and the one module that draws.
//! - [`selftest`]: the cross-platform determinism report (every lesson's
//!   per-tick hashes and replay bytes), run natively and in wasm.
//! - `cli`: the `flockstep` command line (not in the wasm32 build, whose
//!   binary is the viewer alone).
//!
//! # Invariants, stated as absences
//! `num` and `sim` never touch floating point, read a clock or a file, start
//! a thread, iterate a hash-ordered collection or use a global random
//! generator; `tests/tidy.rs` enforces it. No input — lesson, map, literal,
//! command-line argument — can make the library panic: bad input is an
//! error value that names its place.
//!
//! # What it is not
//! Not a game engine and not a physics library: the sims are small, exact
//! reproductions of published algorithms, built to be watched and compared.

pub use flockstep_core::{canon, files, lesson, num, par, replay, sim};

pub mod bundled;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod i18n;
pub mod scene;
pub mod selftest;
pub mod viewer;

/// Registers a program's own sims, then runs flockstep: its command line
/// (natively) or its web viewer (wasm32). A registration that fails — a
/// number or name another sim has — is one message and exit code 2.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_with(registers: &[fn() -> Result<(), sim::SimError>]) -> std::process::ExitCode {
    for register in registers {
        if let Err(m) = register() {
            eprintln!("error: {m}");
            return std::process::ExitCode::from(2);
        }
    }
    cli::main()
}

/// Registers a program's own sims, then runs flockstep: its command line
/// (natively) or its web viewer (wasm32). A registration that fails — a
/// number or name another sim has — is reported on the page's console and
/// the viewer starts without that sim.
#[cfg(target_arch = "wasm32")]
pub fn run_with(registers: &[fn() -> Result<(), sim::SimError>]) {
    viewer::web::report_panics();
    for register in registers {
        if let Err(m) = register() {
            viewer::web::report_error(&m.message);
        }
    }
    // Starts the page's animation loop and returns; errors cannot happen
    // here (there is no display to look for).
    let _ = viewer::window::run(viewer::app::App::new());
}

/// The `main` of a binary that is flockstep with sims of its own: pass
/// each sim's register function (`flockstep::main!(my_sim::register)`).
/// It is the command line natively and the web viewer on wasm32, as the
/// `flockstep` binary is (whose `main` is `flockstep::main!()`).
#[macro_export]
macro_rules! main {
    ($($register:path),* $(,)?) => {
        #[cfg(not(target_arch = "wasm32"))]
        fn main() -> std::process::ExitCode {
            $crate::run_with(&[$($register),*])
        }

        #[cfg(target_arch = "wasm32")]
        fn main() {
            $crate::run_with(&[$($register),*])
        }
    };
}
