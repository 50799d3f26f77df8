//! Deterministic numbers: the fixed-point scalar [`Fx`], vectors, binary
//! angles with table-driven trigonometry, exact decimal parsing, the seeded
//! [`Pcg32`] generator and the [`Xxh64`] state hash.
//!
//! Invariants, stated as absences: nothing here touches floating point (the
//! tests compare against `f64`, inside `#[cfg(test)]` only), reads a clock or
//! a file, keeps global state, or can behave differently between a debug and
//! a release build — every operator checks for overflow explicitly.
#![deny(clippy::float_arithmetic)]

mod angle;
mod fx;
mod hash;
mod parse;
mod rng;
pub mod rsqrt;
mod tables;
mod vec;
pub mod wide;

pub use angle::Angle;
pub use fx::Fx;
pub use hash::Xxh64;
pub use parse::{ParseNumError, parse_angle, parse_fx};
pub use rng::Pcg32;
pub use vec::{Vec2, Vec3};
