//! Replays: recorded runs.

pub mod codec;
pub mod delta;
pub mod fields;
pub mod file;
pub mod run;

pub use file::{End, FrameInfo, Header, Meta, Replay, ReplayError, Writer};
