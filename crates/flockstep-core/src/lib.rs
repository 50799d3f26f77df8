//! flockstep's deterministic core: fixed-point numbers, the sims (boids,
//! A* on a height grid, Bresenham line of sight), lessons and the replay
//! format. It draws nothing, opens no window and parses no command line;
//! the `flockstep` crate builds the viewer and the CLI on it.
//!
//! # Code map
//! Dependencies point one way: `num → canon, fields → sim → lesson → replay`.
//!
//! - [`num`]: the fixed-point scalar [`num::Fx`], vectors, binary angles
//!   with table-driven trigonometry, exact decimal parsing, the seeded
//!   [`num::Pcg32`] and the [`num::Xxh64`] hash.
//! - [`canon`]: the canonical byte encoding of states and the state hash.
//! - [`fields`]: any state as named fields (`boids[12].vel.x`) and the
//!   field-by-field difference of two.
//! - [`sim`]: the stepping contract ([`sim::Sim`], explain [`sim::Sink`]s)
//!   and one module per algorithm.
//! - [`lesson`]: lesson files (TOML) parsed and checked into a scenario and
//!   narration beats, with errors that name the file, line and column.
//! - [`replay`]: replay files — the container, keyframes and predicted
//!   deltas, seeking, named-field diffs, record / verify / diff
//!   ([`replay::codec`] is the one place that talks to `bincode`).
//! - [`user`]: your own sim, registered once, gets lessons, replays, the
//!   golden-replay test and the viewer.
//! - [`files`]: bounded, atomic reads and writes of lesson and replay files.
//!
//! # Invariants, stated as absences
//! `num` and `sim` never touch floating point, read a clock or a file, start
//! a thread, iterate a hash-ordered collection or use a global random
//! generator; `tests/tidy.rs` enforces it. The one door to other cores is
//! [`par`]: a double-buffered flock tick hands it ranges of boids and gets
//! their results back in a fixed order, the same bits on any number of
//! threads (`tests/flock.rs` compares 1, 2 and 8). No input — lesson, map, literal,
//! command-line argument — can make the library panic: bad input is an
//! error value that names its place.

#![warn(missing_docs)]

pub mod canon;
pub mod fields;
pub mod files;
pub mod lesson;
pub mod num;
pub mod par;
pub mod replay;
pub mod sim;
pub mod user;

#[cfg(test)]
mod testing;
