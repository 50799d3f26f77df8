//! Replays: recorded runs. So far only the codec, the single place where
//! the crate talks to `bincode`; the file container (header, frames,
//! checksums, index) builds on it.

pub mod codec;
