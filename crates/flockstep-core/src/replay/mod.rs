//! Replays: every tick of a run, recorded to a file that can be played
//! back, seeked, verified against today's code and compared with another.
//!
//! # The file format (version 2.0; 1.0 files still read)
//!
//! All integers are little-endian. CRC is CRC-32C (Castagnoli).
//!
//! **Header** (64 bytes):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `89 46 53 52 0D 0A 1A 0A` (`\x89FSR\r\n\x1a\n`: a high-bit byte, CR LF, Ctrl-Z, LF, so 7-bit and text-mode transfers are recognised) |
//! | 8 | 2 + 2 | format major, minor (a reader refuses a newer major, and majors before [`file::OLDEST_MAJOR`]) |
//! | 12 | 2 | payload codec: 1 = bincode 2.0.1, fixed-width integers ([`codec`]) |
//! | 14 | 2 | compression: 1 = zstd ([`delta`]) |
//! | 16 | 4 | state schema version (bumped when a state type changes) |
//! | 20 | 1 + 1 | fixed-point layout: integer and fraction bits (32, 32) |
//! | 22 | 2 | sim id ([`crate::lesson::sims::SimId`], u16): 1 line, 2 flock, 3 path |
//! | 24 | 8 | tick length, raw `I32F32` bits |
//! | 32 | 8 | the scenario's seed |
//! | 40 | 4 | ticks between keyframes |
//! | 44 | 4 | metadata length `M` |
//! | 48 | 12 | zero |
//! | 60 | 4 | CRC of bytes 0..60 |
//!
//! **Metadata** (`M` bytes + 4): the codec's encoding of [`Meta`] — the
//! flockstep version, the lesson id, where it came from, its full text and
//! the `--set` overrides, enough to simulate the run again with nothing
//! else — then its CRC.
//!
//! **Frames**, one per tick from tick 0, each:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | `TICK` |
//! | 4 | 1 + 3 | kind (0 keyframe, 1 bytes delta, 4 flock delta, 5 variants' flock deltas; 2 and 3, format 1.0's flock deltas, only in 1.0 files; see [`delta`]), zeros |
//! | 8 | 8 | tick |
//! | 16 | 8 | the state hash ([`crate::canon`]) |
//! | 24 | 4 | inputs length `I` (0: none) |
//! | 28 | 4 | the payload's length before compression |
//! | 32 | 4 | payload length `P` |
//! | 36 | 4 | CRC of bytes 0..36 (so sizes are trusted before they are used) |
//! | 40 | `I` | the inputs applied before this tick's step: a list of [`crate::sim::Input`] |
//! | 40 + `I` | `P` | the payload |
//! | 40 + `I` + `P` | 4 | CRC of the inputs and payload |
//!
//! **Index**: `INDX`, keyframe count `K` (4), frame count (8), then `K`
//! entries of (tick, byte offset), 8 + 8 each, then a CRC of all of it.
//!
//! **Trailer** (24 bytes): index offset (8), frame count (8), `DONE`, CRC
//! of the 20 bytes before it.
//!
//! The writer streams: each frame is written as soon as it is made, and the
//! index and trailer only at the end. A reader that finds no valid trailer
//! scans the frames from the start and stops at the first incomplete one
//! ([`End::Truncated`]); everything before it reads. A complete frame with
//! a bad checksum, tag, kind or tick is corruption, reported with its byte
//! offset. No `usize`, hash-map order or float is recorded.
//!
//! **History.** 1.0: deltas predicted from the states before (kinds 2 and
//! 3). 2.0: the flock rules predict the numbers a tick decides (kinds 4 and
//! 5, [`prior`]), which makes weighted flocks' files about a third and the
//! gems model's about a thirtieth the size; 1.0 files decode as before
//! (`recordings/formats/`).

pub mod cause;
pub mod codec;
pub mod delta;
pub mod fields;
pub mod file;
pub mod golden;
pub mod live;
pub mod pathdelta;
pub mod prior;
pub mod run;

pub use file::{End, FrameInfo, Header, Meta, Replay, ReplayError, ReplayErrorKind, Writer};
