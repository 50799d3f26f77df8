//! Frame payloads: a state as a keyframe or as a delta against the states
//! before it, compressed by one zstd stream per keyframe group.
//!
//! | kind | raw bytes (before zstd) |
//! |---|---|
//! | 0 key | the codec's encoding of the [`AnyState`]; starts a new zstd stream |
//! | 1 bytes | the same encoding (a sim without a predictor, or a flock whose shape changed) |
//! | 2 flock | the flock residuals below |
//! | 3 panes | a lesson's variants, each pane a flock: the pane count (`u32`), then per pane its residuals' length (`u32`) and its flock residuals, against the same pane of the states before |
//! | 4 ruled (format 2) | the flock's rules (`u32` length, then [`prior::write()`]'s bytes: none, or the weighted or gems model's parameters), then its flock residuals, against the rules' predictions where there are rules |
//! | 5 ruled panes (format 2) | as kind 3, each pane's bytes as kind 4's |
//! | 6 path (format 2) | a path state's changes by field ([`super::pathdelta`]) |
//!
//! A format 2 writer writes kinds 0, 1, 4, 5 and 6; kinds 2 and 3 are
//! read in format 1 files, and kinds 4 to 6 are refused there.
//!
//! **Compression.** Each keyframe starts a zstd stream (level 1, window
//! 2²² bytes); every frame's raw bytes are fed to it and *flushed*, and the
//! flushed bytes are the frame's payload. So a frame is decoded by running
//! the stream from its group's keyframe — which seeking does anyway — and
//! zstd finds what a frame repeats from the frames before it: an
//! unchanged state costs a few bytes, and small states pay for entropy
//! tables once per group rather than once per tick.
//!
//! **Flock residuals.** Each per-boid number is stored as the difference
//! between its value and a *prediction* made from the two previous states
//! (and from the columns of this tick already decoded), zig-zag encoded and
//! written as a LEB128 varint, one column after another: the model's
//! columns, then `vel.x, vel.y, vel.z`, then `pos.x, pos.y, pos.z` (the
//! gems model's columns come last instead). The
//! predictions follow each model's integration, so a deterministic step
//! leaves residuals of a few bits:
//!
//! | model | model columns | velocity | position |
//! |---|---|---|---|
//! | heading | heading, 2nd order | the boid's speed (from the previous velocity and heading) along the new heading | previous position + `vel·dt` |
//! | gems | roll 2nd order; pitch and yaw from this tick's velocity (decoded first for this model) | 2nd order | previous position + previous `vel·dt` (it moves first) |
//! | weighted | acceleration, 2nd order | previous velocity + previous `acc·dt`, rescaled to the previous speed if a speed limit clamped it last tick | previous position + `vel·dt + acc·dt²/2` (previous `vel`, `acc`) |
//!
//! "2nd order" predicts `2·x₋₁ − x₋₂` (first order `x₋₁` right after a
//! keyframe).
//!
//! **Rule predictions (format 2, kinds 4 and 5).** With rules for the
//! flock ([`prior`]: the weighted or gems model, double-buffered), the
//! columns that carry a tick's decisions are predicted by evaluating the
//! rules themselves, frozen in [`prior`], on the decoded flock — to the
//! bit when the run was made by those rules, so those residuals are zero:
//!
//! | model | order of the columns | predictions that change |
//! |---|---|---|
//! | weighted | velocity, position, then acceleration | acceleration: the three rules evaluated on this tick's decoded positions and velocities ([`prior::weighted_acc`]) |
//! | gems | velocity, position, then roll, pitch, yaw | velocity: the rules on last tick's flock with its generator's wobble draws ([`prior::gems_vel`]); roll from the new and old velocity ([`prior::gems_roll`]) |
//!
//! The other columns are predicted as in format 1. A flock out of the
//! ranges the rules are proved for falls back to the 2nd-order prediction
//! (encoder and decoder see the same values, so they agree). Predictions use wrapping integer arithmetic on raw bits:
//! they need not match the sim exactly, only be close, and they can never
//! fail — a residual is just the wrapping difference, so every 64-bit
//! pattern decodes to *some* state and corruption is left to the frame
//! checksums. The tick, generators and `dt` lead the residuals as a plain
//! codec encoding behind a `u32` length.
//!
//! A flock delta needs the previous state to have the same boid count and
//! model; when it does not (a boid was added), the frame is a bytes delta.
//!
//! **The predictions are part of the format.** A delta means nothing
//! without the exact prediction it was taken against, so changing one
//! (even its square root) changes how every existing file decodes: bump
//! [`super::file::FORMAT_MAJOR`] and keep the old predictor for old files.
//! `tests/recordings.rs` decodes checked-in files of every supported
//! version and catches a silent change.

use super::codec;
use super::pathdelta;
use super::prior::{self, FlockRules, GemsRules, WeightedRules};
use crate::num::{Angle, Fx, Pcg32};
use crate::sim::AnyState;
use crate::sim::flock::{Attitude, Boid, FlockState, ModelState};
use zstd::zstd_safe::zstd_sys::ZSTD_EndDirective;
use zstd::zstd_safe::{CCtx, CParameter, DCtx, DParameter, InBuffer, OutBuffer, ResetDirective};

/// What a frame's payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole state.
    Key = 0,
    /// A whole state compressed against the previous one.
    Bytes = 1,
    /// Flock residuals.
    Flock = 2,
    /// Flock residuals, pane by pane (a lesson's variants).
    Panes = 3,
    /// Flock residuals against the rules' predictions (format 2).
    Ruled = 4,
    /// The same, pane by pane (format 2).
    RuledPanes = 5,
    /// A path state's changes by field (format 2, [`super::pathdelta`]).
    Path = 6,
}

impl Kind {
    /// The kind of a frame-header byte.
    pub fn from_byte(b: u8) -> Option<Kind> {
        match b {
            0 => Some(Kind::Key),
            1 => Some(Kind::Bytes),
            2 => Some(Kind::Flock),
            3 => Some(Kind::Panes),
            4 => Some(Kind::Ruled),
            5 => Some(Kind::RuledPanes),
            6 => Some(Kind::Path),
            _ => None,
        }
    }
}

/// The zstd level of every payload (fast; the predictions do the real work).
const LEVEL: i32 = 1;
/// The zstd window: how far back a frame may refer, and what a reader must
/// hold (4 MiB). Readers refuse streams that ask for more.
const WINDOW_LOG: u32 = 22;

/// The states a delta is taken against: the last two, newest first.
#[derive(Default)]
struct History {
    prev: Option<AnyState>,
    prev2: Option<AnyState>,
}

impl History {
    fn push(&mut self, state: AnyState) {
        self.prev2 = self.prev.take();
        self.prev = Some(state);
    }

    fn flock(&self) -> (Option<&FlockState>, Option<&FlockState>) {
        fn f(s: &Option<AnyState>) -> Option<&FlockState> {
            match s {
                Some(AnyState::Flock(f)) => Some(f),
                _ => None,
            }
        }
        (f(&self.prev), f(&self.prev2))
    }
}

fn zstd_error(e: usize) -> String {
    format!("zstd: {}", zstd::zstd_safe::get_error_name(e))
}

/// Turns states into payloads, remembering what it wrote last.
pub struct Encoder {
    history: History,
    raw: Vec<u8>,
    zstd: CCtx<'static>,
    /// Each pane's rules ([`Encoder::set_rules`]).
    rules: Vec<Option<FlockRules>>,
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder::new()
    }
}

impl Encoder {
    /// A fresh encoder (its first frame must be a keyframe).
    pub fn new() -> Encoder {
        Encoder {
            history: History::default(),
            raw: Vec::new(),
            zstd: CCtx::create(),
            rules: Vec::new(),
        }
    }

    /// The rules each pane's flock runs by (one entry for a single flock;
    /// [`prior::rules_of`]), predicting the next frames. Rules outside
    /// the ranges a prediction is proved for are dropped.
    pub fn set_rules(&mut self, rules: Vec<Option<FlockRules>>) {
        self.rules = rules
            .into_iter()
            .map(|r| r.filter(FlockRules::check))
            .collect();
    }

    /// Encodes `state` into `out` (cleared first): a keyframe if `key` or if
    /// there is no previous state. Returns the kind and the raw length. The
    /// encoder keeps the state (the next delta is taken against it).
    pub fn encode(
        &mut self,
        state: AnyState,
        key: bool,
        out: &mut Vec<u8>,
    ) -> Result<(Kind, u32), FrameError> {
        self.encode_text(state, key, out).map_err(|message| {
            let kind = if self.raw.len() > codec::MAX_PAYLOAD {
                FrameErrorKind::TooLarge
            } else {
                FrameErrorKind::Encode
            };
            FrameError { kind, message }
        })
    }

    fn encode_text(
        &mut self,
        mut state: AnyState,
        key: bool,
        out: &mut Vec<u8>,
    ) -> Result<(Kind, u32), String> {
        out.clear();
        self.raw.clear();
        let key = key || self.history.prev.is_none();
        let rules = |i: usize| self.rules.get(i).and_then(Option::as_ref);
        let flock = match (&mut state, self.history.flock()) {
            (AnyState::Flock(cur), (Some(p1), p2)) if !key => {
                ruled_residuals(cur, p1, p2, rules(0), &mut self.raw)
            }
            _ => false,
        };
        let panes = !key
            && !flock
            && match (&mut state, &self.history.prev) {
                (AnyState::Panes(cur), Some(AnyState::Panes(p1))) => {
                    let p2 = match &self.history.prev2 {
                        Some(AnyState::Panes(p2)) => Some(&p2[..]),
                        _ => None,
                    };
                    panes_residuals(cur, p1, p2, &self.rules, &mut self.raw)
                }
                _ => false,
            };
        let path = !key
            && !flock
            && !panes
            && match (&state, &self.history.prev) {
                (AnyState::Path(cur), Some(AnyState::Path(p1))) => {
                    pathdelta::residuals(cur, p1, &mut self.raw)
                }
                _ => false,
            };
        let kind = if flock {
            Kind::Ruled
        } else if panes {
            Kind::RuledPanes
        } else if path {
            Kind::Path
        } else {
            self.raw = codec::encode(&state).map_err(|e| e.to_string())?;
            if key { Kind::Key } else { Kind::Bytes }
        };
        if key {
            // A reader may start here: nothing before it may be used.
            self.history = History::default();
            self.zstd
                .reset(ResetDirective::SessionAndParameters)
                .map_err(zstd_error)?;
            self.zstd
                .set_parameter(CParameter::CompressionLevel(LEVEL))
                .map_err(zstd_error)?;
            self.zstd
                .set_parameter(CParameter::WindowLog(WINDOW_LOG))
                .map_err(zstd_error)?;
        }
        let mut input = InBuffer::around(&self.raw);
        loop {
            out.reserve(zstd::zstd_safe::compress_bound(self.raw.len() - input.pos) + 64);
            let at = out.len();
            let mut ob = OutBuffer::around_pos(out, at);
            let left = self
                .zstd
                .compress_stream2(&mut ob, &mut input, ZSTD_EndDirective::ZSTD_e_flush)
                .map_err(zstd_error)?;
            if left == 0 && input.pos == self.raw.len() {
                break;
            }
        }
        if self.raw.len() > codec::MAX_PAYLOAD {
            return Err(too_large(self.raw.len()));
        }
        let raw_len = self.raw.len() as u32;
        self.history.push(state);
        Ok((kind, raw_len))
    }
}

/// What went wrong with a frame's payload, for a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// A state larger than [`codec::MAX_PAYLOAD`].
    TooLarge,
    /// A delta with no keyframe, or no state of its sim, before it.
    OutOfOrder,
    /// A payload that does not decompress or decode, or contradicts the
    /// state it is a delta of.
    Corrupt,
    /// A state that does not encode.
    Encode,
}

/// A frame's payload that could not be encoded or decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// What is wrong, for a program.
    pub kind: FrameErrorKind,
    /// What is wrong, for a person.
    pub message: String,
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FrameError {}

/// The message for a state beyond [`codec::MAX_PAYLOAD`], for the writer
/// and the reader alike.
pub fn too_large(bytes: usize) -> String {
    format!(
        "a state of {bytes} bytes ({:.1} MiB); a replay holds states of at most {} MiB",
        bytes as f64 / (1u64 << 20) as f64,
        codec::MAX_PAYLOAD >> 20
    )
}

/// Turns payloads back into states.
pub struct Decoder {
    history: History,
    raw: Vec<u8>,
    zstd: DCtx<'static>,
    /// Whether the zstd stream has been started by a keyframe.
    started: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new()
    }
}

impl Decoder {
    /// A fresh decoder (its first frame must be a keyframe).
    pub fn new() -> Decoder {
        Decoder {
            history: History::default(),
            raw: Vec::new(),
            zstd: DCtx::create(),
            started: false,
        }
    }

    /// Forgets the history (before jumping to a keyframe).
    pub fn reset(&mut self) {
        self.history = History::default();
        self.started = false;
    }

    /// Decodes one payload of `kind` whose raw form is `raw_len` bytes.
    /// Frames must come in order from a keyframe. The state is the
    /// decoder's (the next delta is taken against it): clone it to keep it.
    pub fn decode(
        &mut self,
        kind: Kind,
        raw_len: u32,
        payload: &[u8],
    ) -> Result<&AnyState, FrameError> {
        self.take(kind, raw_len, payload, None)
    }

    /// Takes one payload whose state the caller already has (`known`:
    /// stepped from the state before and matching the frame's hash): the
    /// payload is inflated, so the stream stays in step, but not
    /// reconstructed, which for a flock would cost a prediction as dear
    /// as a tick.
    pub fn skip(
        &mut self,
        kind: Kind,
        raw_len: u32,
        payload: &[u8],
        known: AnyState,
    ) -> Result<(), FrameError> {
        self.take(kind, raw_len, payload, Some(known)).map(|_| ())
    }

    fn take(
        &mut self,
        kind: Kind,
        raw_len: u32,
        payload: &[u8],
        known: Option<AnyState>,
    ) -> Result<&AnyState, FrameError> {
        let raw_len = raw_len as usize;
        let fail = |kind, message| FrameError { kind, message };
        if raw_len > codec::MAX_PAYLOAD {
            return Err(fail(FrameErrorKind::TooLarge, too_large(raw_len)));
        }
        if kind == Kind::Key {
            self.history = History::default();
            self.zstd
                .reset(ResetDirective::SessionAndParameters)
                .map_err(|c| fail(FrameErrorKind::Corrupt, zstd_error(c)))?;
            self.zstd
                .set_parameter(DParameter::WindowLogMax(WINDOW_LOG))
                .map_err(|c| fail(FrameErrorKind::Corrupt, zstd_error(c)))?;
            self.started = true;
        } else if !self.started || self.history.prev.is_none() {
            let message = "a delta frame with no keyframe before it".to_owned();
            return Err(fail(FrameErrorKind::OutOfOrder, message));
        }
        let result = self
            .inflate(payload, raw_len)
            .map_err(|m| fail(FrameErrorKind::Corrupt, m))
            .and_then(|()| match known {
                Some(state) => Ok(state),
                None => self.delta(kind),
            });
        match result {
            Ok(state) => {
                self.history.push(state);
                Ok(self.history.prev.as_ref().expect("just pushed"))
            }
            Err(e) => {
                // The stream is now in an unknown place: start again.
                self.reset();
                Err(e)
            }
        }
    }

    /// The state `self.raw` holds, a frame of `kind` after the history's.
    fn delta(&self, kind: Kind) -> Result<AnyState, FrameError> {
        let corrupt = |message| FrameError {
            kind: FrameErrorKind::Corrupt,
            message,
        };
        let order = |what: &str| FrameError {
            kind: FrameErrorKind::OutOfOrder,
            message: format!("a {what} delta with no {what} state before it"),
        };
        match kind {
            Kind::Key | Kind::Bytes => {
                codec::decode::<AnyState>(&self.raw).map_err(|e| corrupt(e.to_string()))
            }
            Kind::Flock | Kind::Ruled => {
                let ruled = kind == Kind::Ruled;
                match self.history.flock() {
                    (Some(p1), p2) => from_residuals(&self.raw, p1, p2, ruled)
                        .map(AnyState::Flock)
                        .map_err(corrupt),
                    _ => Err(order("flock")),
                }
            }
            Kind::Path => match &self.history.prev {
                Some(AnyState::Path(p1)) => pathdelta::apply(&self.raw, p1)
                    .map(AnyState::Path)
                    .map_err(corrupt),
                _ => Err(order("path")),
            },
            Kind::Panes | Kind::RuledPanes => match (&self.history.prev, &self.history.prev2) {
                (Some(AnyState::Panes(p1)), p2) => {
                    let p2 = match p2 {
                        Some(AnyState::Panes(p2)) => Some(&p2[..]),
                        _ => None,
                    };
                    panes_from_residuals(&self.raw, p1, p2, kind == Kind::RuledPanes)
                        .map_err(corrupt)
                }
                _ => Err(order("panes")),
            },
        }
    }

    /// Runs the stream over one frame's payload into `self.raw`.
    fn inflate(&mut self, payload: &[u8], raw_len: usize) -> Result<(), String> {
        self.raw.clear();
        self.raw.resize(raw_len, 0);
        let mut input = InBuffer::around(payload);
        let mut ob = OutBuffer::around(&mut self.raw[..]);
        loop {
            let before = (input.pos, ob.pos());
            self.zstd
                .decompress_stream(&mut ob, &mut input)
                .map_err(zstd_error)?;
            if input.pos == payload.len() || (input.pos, ob.pos()) == before {
                break;
            }
        }
        let got = ob.pos();
        if input.pos != payload.len() || got != raw_len {
            return Err(format!(
                "the payload holds {got} bytes of state, the frame says {raw_len}"
            ));
        }
        Ok(())
    }
}

// ---- flock residuals ----------------------------------------------------

/// `a·b` on raw `I32F32` bits, wrapping (a prediction cannot fail).
fn mul(a: i64, b: i64) -> i64 {
    ((i128::from(a) * i128::from(b)) >> 32) as i64
}

/// 2nd-order prediction (1st order without `x₋₂`), wrapping.
fn linear(p1: i64, p2: Option<i64>) -> i64 {
    match p2 {
        Some(p2) => p1.wrapping_mul(2).wrapping_sub(p2),
        None => p1,
    }
}

/// The same on a binary angle (the turn is what stays smooth).
fn linear_angle(p1: Angle, p2: Option<Angle>) -> u32 {
    match p2 {
        Some(p2) => p1.0.wrapping_mul(2).wrapping_sub(p2.0),
        None => p1.0,
    }
}

/// Writes `residual` zig-zag encoded as a LEB128 varint.
pub(super) fn put_varint(out: &mut Vec<u8>, residual: i64) {
    let mut z = ((residual << 1) ^ (residual >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// Reads what [`put_varint`] wrote, from byte `at` on.
pub(super) struct Varints<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Varints<'a> {
    /// A reader of `bytes` from byte `at`.
    pub(super) fn new(bytes: &'a [u8], at: usize) -> Varints<'a> {
        Varints { bytes, at }
    }

    /// Where the next varint starts.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    /// How many bytes are left.
    pub(super) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// The next byte, raw.
    pub(super) fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("the residuals end early")?;
        self.at += 1;
        Ok(b)
    }

    /// The next varint as an unsigned value (the bits of the `i64` the
    /// writer was given).
    pub(super) fn next_u64(&mut self) -> Result<u64, String> {
        self.next().map(|v| v as u64)
    }

    /// The next varint.
    #[inline]
    pub(super) fn next(&mut self) -> Result<i64, String> {
        // Fast path: a one-byte residual (a value predicted to within ±63,
        // the most common case).
        if let Some(&b) = self.bytes.get(self.at)
            && b < 0x80
        {
            self.at += 1;
            let z = u64::from(b);
            return Ok(((z >> 1) as i64) ^ -((z & 1) as i64));
        }
        self.next_long()
    }

    fn next_long(&mut self) -> Result<i64, String> {
        let mut z = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err("the flock residuals end early".to_owned());
            };
            self.at += 1;
            z |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                if shift == 63 && b > 1 {
                    break;
                }
                return Ok(((z >> 1) as i64) ^ -((z & 1) as i64));
            }
        }
        Err(format!("an overlong varint at residual byte {}", self.at))
    }
}

/// Which per-boid numbers a model has beyond position and velocity, by
/// column; the same list drives the encoder and the decoder.
fn model_columns_of(m: &ModelState) -> usize {
    match m {
        ModelState::Heading { .. } => 1,
        ModelState::Gems { .. } => 3,
        ModelState::Weighted { .. } => 3,
    }
}

fn same_model(a: &ModelState, b: &ModelState, n: usize) -> bool {
    match (a, b) {
        (ModelState::Heading { heading: x }, ModelState::Heading { heading: y }) => {
            x.len() == n && y.len() == n
        }
        (ModelState::Gems { attitude: x }, ModelState::Gems { attitude: y }) => {
            x.len() == n && y.len() == n
        }
        (ModelState::Weighted { acc: x }, ModelState::Weighted { acc: y }) => {
            x.len() == n && y.len() == n
        }
        _ => false,
    }
}

fn attitude_part(a: &Attitude, c: usize) -> Angle {
    [a.roll, a.pitch, a.yaw][c]
}

fn set_attitude_part(a: &mut Attitude, c: usize, v: Angle) {
    match c {
        0 => a.roll = v,
        1 => a.pitch = v,
        _ => a.yaw = v,
    }
}

/// The model's value at column `c` for boid `i`, as raw bits (angles
/// sign-extended from their wrapping difference are handled by callers).
fn model_prediction(
    p1: &ModelState,
    p2: Option<&ModelState>,
    c: usize,
    i: usize,
    vel: [i64; 3],
) -> i64 {
    let fx = Fx::from_bits;
    match p1 {
        // Pitch and yaw follow from this tick's velocity (decoded first).
        ModelState::Gems { .. } if c == 1 => {
            let horiz = length([vel[0], 0, vel[2]]).unwrap_or(0);
            i64::from(Angle::atan2(fx(vel[1]), fx(horiz)).0)
        }
        ModelState::Gems { .. } if c == 2 => {
            i64::from(Angle::atan2(fx(vel[0].wrapping_neg()), fx(vel[2].wrapping_neg())).0)
        }
        ModelState::Heading { heading } => {
            let h2 = match p2 {
                Some(ModelState::Heading { heading }) => Some(heading[i]),
                _ => None,
            };
            i64::from(linear_angle(heading[i], h2))
        }
        ModelState::Gems { attitude } => {
            let a2 = match p2 {
                Some(ModelState::Gems { attitude }) => Some(attitude_part(&attitude[i], c)),
                _ => None,
            };
            i64::from(linear_angle(attitude_part(&attitude[i], c), a2))
        }
        ModelState::Weighted { acc } => {
            let a2 = match p2 {
                Some(ModelState::Weighted { acc }) => Some(acc[i].get(c).to_bits()),
                _ => None,
            };
            linear(acc[i].get(c).to_bits(), a2)
        }
    }
}

fn model_value(m: &ModelState, c: usize, i: usize) -> i64 {
    match m {
        ModelState::Heading { heading } => i64::from(heading[i].0),
        ModelState::Gems { attitude } => i64::from(attitude_part(&attitude[i], c).0),
        ModelState::Weighted { acc } => acc[i].get(c).to_bits(),
    }
}

fn set_model_value(m: &mut ModelState, c: usize, i: usize, v: i64) {
    match m {
        ModelState::Heading { heading } => heading[i] = Angle(v as u32),
        ModelState::Gems { attitude } => set_attitude_part(&mut attitude[i], c, Angle(v as u32)),
        ModelState::Weighted { acc } => acc[i].set(c, Fx::from_bits(v)),
    }
}

/// `|v|` on raw bits (`None` for magnitudes a state never reaches).
fn length(v: [i64; 3]) -> Option<i64> {
    if v.iter().any(|c| c.unsigned_abs() > 1 << 60) {
        return None;
    }
    let sum: u128 = v
        .iter()
        .map(|&c| (i128::from(c) * i128::from(c)) as u128)
        .sum();
    // The table-seeded square root (2·10⁻⁹ relative): a prediction need
    // not be exact, and the exact one is the encoder's slowest step.
    Some(crate::num::rsqrt::sqrt_wide(sum) as i64)
}

/// `v` scaled to length `len` (unchanged when that is not possible).
fn with_length(v: [i64; 3], len: i64) -> [i64; 3] {
    match length(v) {
        Some(l) if l > 0 && len.unsigned_abs() <= 1 << 60 => {
            v.map(|c| (i128::from(c) * i128::from(len) / i128::from(l)) as i64)
        }
        _ => v,
    }
}

fn raw3(v: crate::num::Vec3) -> [i64; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

/// The weighted model's unclamped velocity: `vel + acc·dt`.
fn weighted_vel(vel: [i64; 3], acc: [i64; 3], dt: i64) -> [i64; 3] {
    [0, 1, 2].map(|c| vel[c].wrapping_add(mul(acc[c], dt)))
}

/// The predicted velocity of boid `i`, given this tick's model columns in
/// `cur_model`. Speed is what the models keep: the heading model's boids
/// fly at their own constant speed along the new heading; a weighted boid
/// that hit a speed limit last tick is predicted to stay at that speed.
fn predict_vel(
    cur_model: &ModelState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    dt: i64,
    i: usize,
) -> [i64; 3] {
    let v1 = raw3(p1.boids[i].vel);
    match (&p1.model, cur_model) {
        (ModelState::Heading { heading: h1 }, ModelState::Heading { heading: h }) => {
            // v₁ = unit(h₁)·speed, so speed = v₁·u₁ / u₁·u₁ (the table's
            // unit vectors are not exactly of length 1).
            let u1 = h1[i].unit();
            let (ux, uy) = (i128::from(u1.x.to_bits()), i128::from(u1.y.to_bits()));
            let dot = i128::from(v1[0]) * ux + i128::from(v1[1]) * uy;
            let norm = ux * ux + uy * uy;
            let speed = if norm > 0 && dot.unsigned_abs() < 1 << 96 {
                ((dot << 32) / norm) as i64
            } else {
                0
            };
            let u = h[i].unit();
            [mul(u.x.to_bits(), speed), mul(u.y.to_bits(), speed), v1[2]]
        }
        (ModelState::Weighted { acc }, _) => {
            let v = weighted_vel(v1, raw3(acc[i]), dt);
            let clamped_last = match p2 {
                Some(FlockState {
                    boids,
                    model: ModelState::Weighted { acc: acc2 },
                    ..
                }) => {
                    let expect = weighted_vel(raw3(boids[i].vel), raw3(acc2[i]), dt);
                    (0..3).any(|c| expect[c].wrapping_sub(v1[c]).unsigned_abs() > 1 << 12)
                }
                _ => false,
            };
            match clamped_last.then(|| length(v1)).flatten() {
                Some(speed) => with_length(v, speed),
                None => v,
            }
        }
        _ => [0, 1, 2].map(|c| linear(v1[c], p2.map(|p| p.boids[i].vel.get(c).to_bits()))),
    }
}

/// The predicted position component `c` of boid `i`, given its velocity
/// this tick.
fn predict_pos(p1: &FlockState, vel: i64, dt: i64, c: usize, i: usize) -> i64 {
    let b1: Boid = p1.boids[i];
    let x1 = b1.pos.get(c).to_bits();
    match &p1.model {
        ModelState::Weighted { acc } => {
            let half_dt2 = mul(dt, dt) / 2;
            x1.wrapping_add(mul(b1.vel.get(c).to_bits(), dt))
                .wrapping_add(mul(acc[i].get(c).to_bits(), half_dt2))
        }
        // The gems model moves first, with last tick's velocity.
        ModelState::Gems { .. } => x1.wrapping_add(mul(b1.vel.get(c).to_bits(), dt)),
        ModelState::Heading { .. } => x1.wrapping_add(mul(vel, dt)),
    }
}

type Head = (u64, Pcg32, Pcg32, Fx);

/// Visits every residual of a flock delta in stream order, storing each
/// true value into `cur` as it goes so later predictions can use it. The
/// one walk serves the encoder and the decoder, so they cannot disagree on
/// the order: `code(actual, predicted, angle)` turns one value into its
/// residual and back and returns the true value (the encoder writes
/// `actual − predicted` and returns `actual`; the decoder reads the
/// residual and returns `predicted + residual`). Angles differ in 32 bits,
/// everything else in 64. With rules that match the model (format 2), the
/// walk is [`walk_weighted`] or [`walk_gems`]; else format 1's.
fn walk<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    rules: Option<&FlockRules>,
    code: &mut F,
) -> Result<(), String> {
    match (rules, &p1.model) {
        (Some(FlockRules::Weighted(w)), ModelState::Weighted { .. }) => {
            return walk_weighted(cur, p1, p2, w, code);
        }
        (Some(FlockRules::Gems(g)), ModelState::Gems { .. }) => {
            return walk_gems(cur, p1, p2, g, code);
        }
        _ => {}
    }
    let gems = matches!(p1.model, ModelState::Gems { .. });
    if !gems {
        model_columns_walk(cur, p1, p2, code)?;
    }
    let pred = history_vel(cur, p1, p2);
    vel_columns(cur, &pred, code)?;
    pos_columns(cur, p1, code)?;
    if gems {
        model_columns_walk(cur, p1, p2, code)?;
    }
    Ok(())
}

/// Format 2's weighted walk: velocity and position (from last tick's
/// acceleration), then the acceleration the rules give the decoded flock
/// ([`prior::weighted_acc`]; 2nd order if it is out of range).
fn walk_weighted<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    rules: &WeightedRules,
    code: &mut F,
) -> Result<(), String> {
    let pred = history_vel(cur, p1, p2);
    vel_columns(cur, &pred, code)?;
    pos_columns(cur, p1, code)?;
    let acc = prior::weighted_acc(rules, cur);
    model_columns(cur, p1, p2, false, code, |c, i, _| {
        acc.as_ref().and_then(|a| a[i]).map(|a| a[c])
    })
}

/// Format 2's gems walk: the velocity the rules give last tick's flock
/// ([`prior::gems_vel`]; 2nd order if it is out of range), position, then
/// roll from the two velocities ([`prior::gems_roll`]), pitch and yaw
/// from the new one.
fn walk_gems<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    rules: &GemsRules,
    code: &mut F,
) -> Result<(), String> {
    let pred = prior::gems_vel(rules, p1, cur.dt).unwrap_or_else(|| history_vel(cur, p1, p2));
    vel_columns(cur, &pred, code)?;
    pos_columns(cur, p1, code)?;
    model_columns(cur, p1, p2, true, code, |c, i, cur| {
        let old = p1.boids[i].vel;
        (c == 0)
            .then(|| prior::gems_roll(cur.boids[i].vel, old, rules.gravity))
            .flatten()
            .map(|r| i64::from(r.0))
    })
}

/// Walks the model's columns (angles if `angle`): each predicted by
/// `rule(column, boid, cur)` where it gives one, else as in format 1.
fn model_columns<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    angle: bool,
    code: &mut F,
    rule: impl Fn(usize, usize, &FlockState) -> Option<i64>,
) -> Result<(), String> {
    for c in 0..model_columns_of(&p1.model) {
        for i in 0..p1.boids.len() {
            let pred = rule(c, i, cur).unwrap_or_else(|| {
                let vel = raw3(cur.boids[i].vel);
                model_prediction(&p1.model, p2.map(|p| &p.model), c, i, vel)
            });
            let v = code(model_value(&cur.model, c, i), pred, angle)?;
            set_model_value(&mut cur.model, c, i, v);
        }
    }
    Ok(())
}

/// Every boid's velocity predicted from the states before
/// ([`predict_vel`]).
fn history_vel(cur: &FlockState, p1: &FlockState, p2: Option<&FlockState>) -> Vec<[i64; 3]> {
    let dt = cur.dt.to_bits();
    (0..p1.boids.len())
        .map(|i| predict_vel(&cur.model, p1, p2, dt, i))
        .collect()
}

fn vel_columns<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    pred: &[[i64; 3]],
    code: &mut F,
) -> Result<(), String> {
    for c in 0..3 {
        for (b, p) in cur.boids.iter_mut().zip(pred) {
            let v = code(b.vel.get(c).to_bits(), p[c], false)?;
            b.vel.set(c, Fx::from_bits(v));
        }
    }
    Ok(())
}

fn pos_columns<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    p1: &FlockState,
    code: &mut F,
) -> Result<(), String> {
    let dt = cur.dt.to_bits();
    for c in 0..3 {
        for (i, b) in cur.boids.iter_mut().enumerate() {
            let p = predict_pos(p1, b.vel.get(c).to_bits(), dt, c, i);
            let v = code(b.pos.get(c).to_bits(), p, false)?;
            b.pos.set(c, Fx::from_bits(v));
        }
    }
    Ok(())
}

fn model_columns_walk<F: FnMut(i64, i64, bool) -> Result<i64, String>>(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    code: &mut F,
) -> Result<(), String> {
    let angle = !matches!(p1.model, ModelState::Weighted { .. });
    model_columns(cur, p1, p2, angle, code, |_, _, _| None)
}

/// A format 2 flock delta: the rules (`u32` length, then
/// [`prior::write()`]'s bytes), then the residuals against them
/// ([`flock_residuals`]).
fn ruled_residuals(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    rules: Option<&FlockRules>,
    out: &mut Vec<u8>,
) -> bool {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    prior::write(rules, out);
    let len = (out.len() - start - 4) as u32;
    out[start..start + 4].copy_from_slice(&len.to_le_bytes());
    if flock_residuals(cur, p1, p2, rules, out) {
        true
    } else {
        out.truncate(start);
        false
    }
}

/// Writes the residuals of `cur` against `p1` (and `p2`); false when the
/// shapes do not allow a flock delta. (`cur` is walked in place: encoding
/// stores back the values it reads, so it is left as it was.)
fn flock_residuals(
    cur: &mut FlockState,
    p1: &FlockState,
    p2: Option<&FlockState>,
    rules: Option<&FlockRules>,
    out: &mut Vec<u8>,
) -> bool {
    let n = cur.boids.len();
    if p1.boids.len() != n
        || !same_model(&cur.model, &p1.model, n)
        || !same_model(&p1.model, &p1.model, n)
    {
        return false;
    }
    let p2 = p2.filter(|p| p.boids.len() == n && same_model(&p.model, &p1.model, n));
    let head: Head = (cur.tick, cur.rng, cur.frame_rng, cur.dt);
    let Ok(head) = codec::encode(&head) else {
        return false;
    };
    out.extend_from_slice(&(head.len() as u32).to_le_bytes());
    out.extend_from_slice(&head);
    let mut code = |actual: i64, predicted: i64, angle: bool| {
        let r = if angle {
            i64::from((actual as u32).wrapping_sub(predicted as u32) as i32)
        } else {
            actual.wrapping_sub(predicted)
        };
        put_varint(out, r);
        Ok(actual)
    };
    walk(cur, p1, p2, rules, &mut code).is_ok()
}

/// `u32` little-endian at `at`, or `short`.
fn u32_at(raw: &[u8], at: usize, short: &str) -> Result<usize, String> {
    raw.get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .ok_or_else(|| short.to_owned())
}

/// Decodes a flock delta: format 2's rules first if `ruled`.
fn from_residuals(
    raw: &[u8],
    p1: &FlockState,
    p2: Option<&FlockState>,
    ruled: bool,
) -> Result<FlockState, String> {
    if !ruled {
        return flock_from_residuals(raw, p1, p2, None);
    }
    let short = "the flock delta's rules end early";
    let len = u32_at(raw, 0, short)?;
    let bytes = raw.get(4..4 + len).ok_or(short)?;
    let rules = prior::read(bytes)?;
    if rules.as_ref().is_some_and(|r| !r.check()) {
        return Err("the flock delta's rules are out of range".to_owned());
    }
    flock_from_residuals(&raw[4 + len..], p1, p2, rules.as_ref())
}

fn flock_from_residuals(
    raw: &[u8],
    p1: &FlockState,
    p2: Option<&FlockState>,
    rules: Option<&FlockRules>,
) -> Result<FlockState, String> {
    let n = p1.boids.len();
    if !same_model(&p1.model, &p1.model, n) {
        return Err("the previous flock state's model does not match its boids".to_owned());
    }
    let p2 = p2.filter(|p| p.boids.len() == n && same_model(&p.model, &p1.model, n));
    let head_len = u32_at(raw, 0, "the flock residuals end early")?;
    let head = raw
        .get(4..4 + head_len)
        .ok_or("the flock residuals end early")?;
    let (tick, rng, frame_rng, dt): Head = codec::decode(head).map_err(|e| e.to_string())?;
    let mut r = Varints {
        bytes: raw,
        at: 4 + head_len,
    };
    let mut cur = FlockState {
        tick,
        rng,
        frame_rng,
        dt,
        boids: p1.boids.clone(),
        model: p1.model.clone(),
    };
    let mut code = |_: i64, predicted: i64, angle: bool| {
        let res = r.next()?;
        Ok(if angle {
            i64::from((predicted as u32).wrapping_add(res as u32))
        } else {
            predicted.wrapping_add(res)
        })
    };
    walk(&mut cur, p1, p2, rules, &mut code)?;
    if r.at != raw.len() {
        return Err(format!(
            "{} bytes after the flock residuals",
            raw.len() - r.at
        ));
    }
    Ok(cur)
}

/// A pane's flock, if it is one.
fn pane_flock(panes: Option<&[AnyState]>, i: usize) -> Option<&FlockState> {
    match panes?.get(i)? {
        AnyState::Flock(f) => Some(f),
        _ => None,
    }
}

/// Writes the residuals of every pane of `cur` against the same panes of
/// `p1` (and `p2`); false (and `out` as it was) when some pane does not
/// allow a flock delta.
fn panes_residuals(
    cur: &mut [AnyState],
    p1: &[AnyState],
    p2: Option<&[AnyState]>,
    rules: &[Option<FlockRules>],
    out: &mut Vec<u8>,
) -> bool {
    if cur.len() != p1.len() {
        return false;
    }
    let start = out.len();
    out.extend_from_slice(&(cur.len() as u32).to_le_bytes());
    let mut pane = Vec::new();
    for (i, c) in cur.iter_mut().enumerate() {
        let (AnyState::Flock(c), Some(f1)) = (c, pane_flock(Some(p1), i)) else {
            out.truncate(start);
            return false;
        };
        pane.clear();
        let r = rules.get(i).and_then(Option::as_ref);
        if !ruled_residuals(c, f1, pane_flock(p2, i), r, &mut pane) {
            out.truncate(start);
            return false;
        }
        out.extend_from_slice(&(pane.len() as u32).to_le_bytes());
        out.extend_from_slice(&pane);
    }
    true
}

fn panes_from_residuals(
    raw: &[u8],
    p1: &[AnyState],
    p2: Option<&[AnyState]>,
    ruled: bool,
) -> Result<AnyState, String> {
    let short = "the panes' residuals end early";
    let n = u32_at(raw, 0, short)?;
    if n != p1.len() {
        return Err(format!(
            "a delta of {n} panes against a state of {}",
            p1.len()
        ));
    }
    let mut at = 4;
    let mut panes = Vec::with_capacity(n);
    for i in 0..n {
        let len = u32_at(raw, at, short)?;
        let bytes = raw.get(at + 4..at + 4 + len).ok_or(short)?;
        let f1 =
            pane_flock(Some(p1), i).ok_or("a panes delta against a pane that is not a flock")?;
        panes.push(AnyState::Flock(from_residuals(
            bytes,
            f1,
            pane_flock(p2, i),
            ruled,
        )?));
        at += 4 + len;
    }
    if at != raw.len() {
        return Err(format!(
            "{} bytes after the panes' residuals",
            raw.len() - at
        ));
    }
    Ok(AnyState::Panes(panes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::AnySim;

    /// Records `ticks` ticks of a lesson through an encoder and a decoder;
    /// every decoded state must equal the simulated one. Returns the
    /// payload bytes per tick after the first keyframe.
    fn round_trip(id: &str, sets: &[&str], ticks: u64, key_every: u64) -> (u64, u64) {
        let lesson = crate::testing::lesson(id, sets);
        let mut sim = AnySim::new(&lesson.scenario).unwrap();
        let (mut enc, mut dec) = (Encoder::new(), Decoder::new());
        enc.set_rules(prior::rules_of(&sim));
        let mut out = Vec::new();
        let (mut delta_bytes, mut kinds) = (0u64, [0u64; 7]);
        for t in 0..=ticks {
            if t > 0 {
                sim.step();
            }
            let state = sim.snapshot();
            let (kind, raw) = enc
                .encode(state.clone(), t.is_multiple_of(key_every), &mut out)
                .unwrap();
            kinds[kind as usize] += 1;
            if t > 0 {
                delta_bytes += out.len() as u64;
            }
            let back = dec.decode(kind, raw, &out).unwrap();
            assert!(*back == state, "{id}: tick {t} decodes differently");
        }
        assert_eq!(kinds[0], ticks / key_every + 1, "{id}: keyframes");
        (delta_bytes / ticks, kinds[4] + kinds[5] + kinds[6])
    }

    #[test]
    fn every_bundled_lesson_round_trips() {
        for id in crate::testing::lesson_ids() {
            let (per_tick, typed) = round_trip(&id, &[], 40, 16);
            if id.starts_with("flock") || id.starts_with("path") {
                assert!(typed > 30, "{id}: flock or path deltas used");
            }
            eprintln!("{id:32} {per_tick} bytes/tick");
        }
    }

    #[test]
    fn residuals_are_small_for_every_model() {
        // Measured: 1, 4 and 0 bytes per boid (format 1.0's predictions:
        // 6, 4 and 16); the bounds leave a margin.
        // flock-weights runs 4 panes of 200 boids.
        let dense: &[&str] = &["boids=200", "world_min=[-70,-70]", "world_max=[70,70]"];
        for (id, sets, bound, panes) in [
            ("flock-weights", dense, 2, 4),
            ("flock-field-of-view", &dense[..1], 6, 1),
            ("flock-aquarium", &dense[..1], 2, 1),
        ] {
            let (per_tick, _) = round_trip(id, sets, 60, 1000);
            let per_boid = per_tick / (200 * panes);
            eprintln!("{id}: {per_tick} bytes/tick, {per_boid} bytes/boid");
            assert!(per_boid <= bound, "{id}: {per_tick} bytes per tick");
        }
    }

    #[test]
    fn corrupt_residuals_are_errors() {
        let mut r = Varints {
            bytes: &[0xff; 11],
            at: 0,
        };
        assert!(r.next().unwrap_err().contains("overlong"));
        let mut r = Varints {
            bytes: &[0x80],
            at: 0,
        };
        assert!(r.next().unwrap_err().contains("early"));
        let mut out = Vec::new();
        for v in [0, -1, 1, i64::MIN, i64::MAX, 300] {
            out.clear();
            put_varint(&mut out, v);
            let mut r = Varints { bytes: &out, at: 0 };
            assert_eq!(r.next().unwrap(), v);
            assert_eq!(r.at, out.len());
        }
    }
}
