//! Replays: recorded runs.

pub mod codec;
pub mod delta;
pub mod fields;
