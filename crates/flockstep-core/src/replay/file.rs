//! The replay container: header, metadata, one frame per tick, index and
//! trailer; the writer that streams it and the reader that seeks in it.
//! The layout is documented in the [module docs](super).

use super::codec;
use super::delta::{Decoder, Encoder, Kind};
use super::prior::FlockRules;
use crate::lesson::sims::{self, Registration, SimId};
use crate::sim::{AnyState, Input};
use core::fmt;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The first eight bytes: a high-bit byte, the name, CR LF, Ctrl-Z, LF —
/// the PNG trick, so a file mangled by a text-mode transfer is recognised
/// as such rather than as "corrupt".
pub const MAGIC: [u8; 8] = [0x89, b'F', b'S', b'R', b'\r', b'\n', 0x1a, b'\n'];
/// Format major version: a reader refuses newer majors and those before
/// [`OLDEST_MAJOR`]. 2.0 added the rule predictions (frame kinds 4 and 5,
/// [`super::prior`]); 1.0 files still read.
pub const FORMAT_MAJOR: u16 = 2;
/// The oldest major this reader still decodes.
pub const OLDEST_MAJOR: u16 = 1;
/// Format minor version: additions an older reader of the same major can
/// skip.
pub const FORMAT_MINOR: u16 = 0;
/// The state schema: bumped whenever a recorded state type changes shape.
pub const SCHEMA: u32 = 1;
/// Payload compression id 1: zstd (see [`super::delta`]).
pub const COMPRESSION_ZSTD: u16 = 1;
/// The header's size in bytes.
pub const HEADER_LEN: u64 = 64;
/// A frame header's size in bytes.
pub const FRAME_HEAD_LEN: u64 = 40;
/// The trailer's size in bytes.
pub const TRAILER_LEN: u64 = 24;
/// Ticks between keyframes unless the recorder is told otherwise.
pub const DEFAULT_KEYFRAME_EVERY: u32 = 256;
/// What [`Replay::open`] expects, for messages about other kinds of file.
pub const REPLAY_FILE: &str =
    "a replay file (replays are read from regular files, which can be read out of order)";

/// The largest metadata block a reader accepts.
pub const MAX_META: u32 = 16 << 20;
/// The largest inputs block of one frame a reader accepts.
pub const MAX_INPUTS: u32 = 1 << 20;

const FRAME_TAG: [u8; 4] = *b"TICK";
const INDEX_TAG: [u8; 4] = *b"INDX";
const TRAILER_TAG: [u8; 4] = *b"DONE";

/// The fixed-size header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format major version.
    pub major: u16,
    /// Format minor version.
    pub minor: u16,
    /// Payload codec ([`codec::CODEC_ID`]).
    pub codec: u16,
    /// Payload compression ([`COMPRESSION_ZSTD`]).
    pub compression: u16,
    /// State schema version ([`SCHEMA`]).
    pub schema: u32,
    /// Fixed-point layout: integer bits.
    pub int_bits: u8,
    /// Fixed-point layout: fraction bits.
    pub frac_bits: u8,
    /// The sim (its [`SimId`] is the header's bytes 22–23).
    ///
    /// [`SimId`]: crate::lesson::sims::SimId
    pub sim: &'static dyn Registration,
    /// The tick length, raw `I32F32` bits.
    pub dt_bits: i64,
    /// The scenario's seed.
    pub seed: u64,
    /// Ticks between keyframes.
    pub keyframe_every: u32,
}

impl Header {
    /// A header of the current format for a sim.
    pub fn new(
        sim: &'static dyn Registration,
        dt_bits: i64,
        seed: u64,
        keyframe_every: u32,
    ) -> Header {
        Header {
            major: FORMAT_MAJOR,
            minor: FORMAT_MINOR,
            codec: codec::CODEC_ID,
            compression: COMPRESSION_ZSTD,
            schema: SCHEMA,
            int_bits: 32,
            frac_bits: 32,
            sim,
            dt_bits,
            seed,
            keyframe_every: keyframe_every.max(1),
        }
    }

    fn encode(&self, meta_len: u32) -> [u8; HEADER_LEN as usize] {
        let mut b = [0u8; HEADER_LEN as usize];
        b[..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&self.major.to_le_bytes());
        b[10..12].copy_from_slice(&self.minor.to_le_bytes());
        b[12..14].copy_from_slice(&self.codec.to_le_bytes());
        b[14..16].copy_from_slice(&self.compression.to_le_bytes());
        b[16..20].copy_from_slice(&self.schema.to_le_bytes());
        b[20] = self.int_bits;
        b[21] = self.frac_bits;
        b[22..24].copy_from_slice(&self.sim.id().0.to_le_bytes());
        b[24..32].copy_from_slice(&self.dt_bits.to_le_bytes());
        b[32..40].copy_from_slice(&self.seed.to_le_bytes());
        b[40..44].copy_from_slice(&self.keyframe_every.to_le_bytes());
        b[44..48].copy_from_slice(&meta_len.to_le_bytes());
        let crc = crc32c::crc32c(&b[..60]);
        b[60..64].copy_from_slice(&crc.to_le_bytes());
        b
    }
}

/// What the run was: enough to simulate it again with nothing else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The flockstep version that recorded it.
    pub flockstep: String,
    /// The lesson's id.
    pub lesson_id: String,
    /// Where the lesson came from (a path, or `lessons/ID.toml` for a
    /// bundled one), for messages.
    pub lesson_file: String,
    /// The lesson's full text.
    pub lesson_source: String,
    /// The `--set KEY=VALUE` arguments, in order.
    pub overrides: Vec<String>,
}

/// One frame's header and inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameInfo {
    /// The tick whose state the frame holds.
    pub tick: u64,
    /// The frame's byte offset in the file.
    pub offset: u64,
    /// How the state is stored.
    pub kind: Kind,
    /// The state hash.
    pub hash: u64,
    /// The inputs applied before the step into this tick.
    pub inputs: Vec<Input>,
    /// The payload's size before compression.
    pub raw_len: u32,
    /// The encoded inputs' size.
    pub inputs_len: u32,
    /// The whole frame's size in the file.
    pub len: u64,
}

/// What is wrong with a replay, for a program to match on (the message
/// says it for a person, with the place).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayErrorKind {
    /// The file cannot be opened or read, or is not a regular file.
    Io,
    /// It does not start with a replay's magic bytes.
    NotAReplay,
    /// A format, payload codec, compression, state schema or number layout
    /// this flockstep does not read.
    Version,
    /// Its header names a sim this program has not registered.
    UnknownSim {
        /// The header's sim number.
        id: u16,
    },
    /// It ends inside its header, its metadata, a frame, or before any
    /// complete frame.
    Truncated,
    /// A checksum that does not match, a block that does not decode, an
    /// index or frame that contradicts the rest.
    Corrupt,
    /// A tick it does not hold.
    NoSuchTick {
        /// The tick asked for.
        tick: u64,
    },
    /// Its recorded lesson, or an input it recorded, does not load or apply
    /// with this flockstep (re-simulating it is impossible).
    Lesson,
    /// It holds no frames.
    Empty,
}

/// A problem with a replay file, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// What is wrong, for a program.
    pub kind: ReplayErrorKind,
    /// The file, as named to the reader.
    pub file: String,
    /// The byte offset of the problem, when there is one.
    pub offset: Option<u64>,
    /// The tick concerned, when known.
    pub tick: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(o) = self.offset {
            write!(f, ": byte {o}")?;
        }
        if let Some(t) = self.tick {
            write!(f, " (tick {t})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ReplayError {}

/// How the file ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// With its index and trailer: the recorder finished.
    Complete,
    /// Without them: everything from `offset` on is unreadable (a killed
    /// recorder, a partial copy); the frames before it read.
    Truncated {
        /// Where the readable part ends.
        offset: u64,
    },
}

// ---- writer --------------------------------------------------------------

/// Streams a replay: every frame is written as soon as it is made, so a
/// process killed mid-run leaves a file whose complete frames read back.
pub struct Writer<W: Write> {
    w: W,
    pos: u64,
    enc: Encoder,
    keyframe_every: u32,
    index: Vec<(u64, u64)>,
    next_tick: Option<u64>,
    payload: Vec<u8>,
    frame: Vec<u8>,
}

impl<W: Write> Writer<W> {
    /// Writes the header and metadata.
    pub fn new(mut w: W, header: &Header, meta: &Meta) -> io::Result<Writer<W>> {
        let meta_bytes = codec::encode(meta).map_err(io::Error::other)?;
        let meta_len = u32::try_from(meta_bytes.len())
            .ok()
            .filter(|l| *l <= MAX_META)
            .ok_or_else(|| io::Error::other("the lesson is too large to record"))?;
        w.write_all(&header.encode(meta_len))?;
        w.write_all(&meta_bytes)?;
        w.write_all(&crc32c::crc32c(&meta_bytes).to_le_bytes())?;
        Ok(Writer {
            w,
            pos: HEADER_LEN + u64::from(meta_len) + 4,
            enc: Encoder::new(),
            keyframe_every: header.keyframe_every.max(1),
            index: Vec::new(),
            next_tick: None,
            payload: Vec::new(),
            frame: Vec::new(),
        })
    }

    /// The rules each pane runs by, for the frames that follow
    /// ([`Encoder::set_rules`]).
    pub fn set_rules(&mut self, rules: Vec<Option<FlockRules>>) {
        self.enc.set_rules(rules);
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.pos
    }

    /// Writes the frame of `tick` (one more than the last frame's):
    /// the inputs applied before the step into it, its state and hash.
    pub fn frame(
        &mut self,
        tick: u64,
        inputs: &[Input],
        state: AnyState,
        hash: u64,
    ) -> io::Result<()> {
        if self.next_tick.is_some_and(|t| t != tick) {
            return Err(io::Error::other(format!(
                "frame for tick {tick} after tick {}",
                self.next_tick.unwrap_or(0).wrapping_sub(1)
            )));
        }
        let key = self.next_tick.is_none() || tick.is_multiple_of(u64::from(self.keyframe_every));
        let (kind, raw_len) = self
            .enc
            .encode(state, key, &mut self.payload)
            .map_err(|m| io::Error::other(format!("tick {tick}: {m}")))?;
        // No inputs (the usual case) is an empty block, not an encoded
        // empty list.
        let inputs = if inputs.is_empty() {
            Vec::new()
        } else {
            codec::encode(&inputs).map_err(io::Error::other)?
        };
        let (inputs_len, payload_len) = match (
            u32::try_from(inputs.len()),
            u32::try_from(self.payload.len()),
        ) {
            (Ok(i), Ok(p)) if i <= MAX_INPUTS => (i, p),
            _ => return Err(io::Error::other("a frame larger than 4 GiB")),
        };
        let f = &mut self.frame;
        f.clear();
        f.extend_from_slice(&FRAME_TAG);
        f.extend_from_slice(&[kind as u8, 0, 0, 0]);
        f.extend_from_slice(&tick.to_le_bytes());
        f.extend_from_slice(&hash.to_le_bytes());
        f.extend_from_slice(&inputs_len.to_le_bytes());
        f.extend_from_slice(&raw_len.to_le_bytes());
        f.extend_from_slice(&payload_len.to_le_bytes());
        let head_crc = crc32c::crc32c(f);
        f.extend_from_slice(&head_crc.to_le_bytes());
        f.extend_from_slice(&inputs);
        f.extend_from_slice(&self.payload);
        let body_crc = crc32c::crc32c(&f[FRAME_HEAD_LEN as usize..]);
        f.extend_from_slice(&body_crc.to_le_bytes());
        self.w.write_all(f)?;
        if kind == Kind::Key {
            self.index.push((tick, self.pos));
        }
        self.pos += f.len() as u64;
        self.next_tick = Some(tick + 1);
        Ok(())
    }

    /// Writes the index and trailer and flushes; returns the sink and the
    /// file's total size.
    pub fn finish(mut self) -> io::Result<(W, u64)> {
        let frames = match (self.next_tick, self.index.first()) {
            (Some(next), Some(&(first, _))) => next - first,
            _ => 0,
        };
        let mut b = Vec::with_capacity(16 + 16 * self.index.len());
        b.extend_from_slice(&INDEX_TAG);
        b.extend_from_slice(&(self.index.len() as u32).to_le_bytes());
        b.extend_from_slice(&frames.to_le_bytes());
        for (tick, offset) in &self.index {
            b.extend_from_slice(&tick.to_le_bytes());
            b.extend_from_slice(&offset.to_le_bytes());
        }
        let crc = crc32c::crc32c(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        let index_at = self.pos;
        b.extend_from_slice(&index_at.to_le_bytes());
        b.extend_from_slice(&frames.to_le_bytes());
        b.extend_from_slice(&TRAILER_TAG);
        let crc = crc32c::crc32c(&b[b.len() - 20..]);
        b.extend_from_slice(&crc.to_le_bytes());
        self.w.write_all(&b)?;
        self.pos += b.len() as u64;
        self.w.flush()?;
        Ok((self.w, self.pos))
    }
}

// ---- reader --------------------------------------------------------------

/// What the scanner finds where a frame could start.
enum IndexBlock {
    /// A frame, or garbage: not an index.
    Absent,
    /// The start of an index the file ends inside.
    Incomplete,
    /// A whole, valid index ending at this offset.
    Complete(u64),
}

/// Why a frame could not be read.
enum FrameError {
    /// The file ends inside it.
    Truncated,
    /// It is there but wrong.
    Corrupt(u64, String),
    /// Reading failed.
    Io(io::Error),
}

/// Whether `data` has the checksum `expected`. Fuzzing builds
/// (`cargo fuzz`, which sets `cfg(fuzzing)`) accept any checksum, so the
/// fuzzer reaches the decoders behind them instead of stopping at the first
/// CRC.
fn crc_ok(data: &[u8], expected: u32) -> bool {
    cfg!(fuzzing) || crc32c::crc32c(data) == expected
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn le_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// An open replay. Frames are read on demand: opening reads the header,
/// the metadata and the index (or scans the frames of a file that has
/// none), so opening and seeking cost the same for any run length.
pub struct Replay<R> {
    src: R,
    file: String,
    /// The header.
    pub header: Header,
    /// The metadata.
    pub meta: Meta,
    /// The file's size in bytes.
    pub len: u64,
    /// Where the first frame starts.
    pub data_start: u64,
    /// `(tick, offset)` of every keyframe, in tick order.
    pub keyframes: Vec<(u64, u64)>,
    /// The first frame's tick.
    pub first_tick: u64,
    /// The last complete frame's tick (`None`: no frame at all).
    pub last_tick: Option<u64>,
    /// How the file ends.
    pub end: End,
    /// Where the index starts in a complete file (the frames end there).
    index_at: Option<u64>,
    dec: Decoder,
    /// The decoder's position: the next tick and its frame's offset.
    cursor: Option<(u64, u64)>,
    /// The state decoded just before the last one [`Replay::state_at`]
    /// returned, with its frame: what an engineer asks for next when a
    /// step into the last tick is to be taken again (`diff --explain`).
    behind: Option<(AnyState, FrameInfo)>,
    /// The state [`Replay::state_at`] returned last: a player stepping
    /// on asks for tick t + 1 and then again for t, the state before it,
    /// to trace the step (without it, every other frame would decode
    /// from the keyframe).
    last: Option<(AnyState, FrameInfo)>,
    buf: Vec<u8>,
}

impl Replay<BufReader<File>> {
    /// Opens a replay file.
    pub fn open(path: &Path) -> Result<Replay<BufReader<File>>, ReplayError> {
        let name = path.display().to_string();
        let err = |m: String| ReplayError {
            kind: ReplayErrorKind::Io,
            file: name.clone(),
            offset: None,
            tick: None,
            message: m,
        };
        crate::files::regular(path, REPLAY_FILE).map_err(|e| err(e.message))?;
        let f = File::open(path).map_err(|e| err(e.to_string()))?;
        Replay::from_reader(BufReader::with_capacity(1 << 16, f), &name)
    }
}

/// What is wrong with a header: the byte offset, the kind and the message.
type HeaderProblem = (u64, ReplayErrorKind, String);

/// The fixed-size header's fields and the metadata block's length, or
/// the byte offset and the message of what is wrong with it (the magic and
/// the length are checked before).
fn parse_header(head: &[u8]) -> Result<(Header, u32), HeaderProblem> {
    if !crc_ok(&head[..60], le_u32(&head[60..])) {
        let m = "header checksum mismatch: the header is corrupt";
        return Err((60, ReplayErrorKind::Corrupt, m.into()));
    }
    let u16_at = |i: usize| u16::from_le_bytes([head[i], head[i + 1]]);
    let (major, minor) = (u16_at(8), u16_at(10));
    check_layout(head)?;
    let id = SimId(u16_at(22));
    let Some(sim) = sims::by_id(id) else {
        let known: Vec<String> = sims::all()
            .iter()
            .map(|r| format!("{} ({})", r.id().0, r.name()))
            .collect();
        let m = format!(
            "unknown sim id {}: this flockstep knows {}",
            id.0,
            known.join(", ")
        );
        return Err((22, ReplayErrorKind::UnknownSim { id: id.0 }, m));
    };
    let header = Header {
        major,
        minor,
        codec: u16_at(12),
        compression: u16_at(14),
        schema: le_u32(&head[16..]),
        int_bits: 32,
        frac_bits: 32,
        sim,
        dt_bits: le_u64(&head[24..]) as i64,
        seed: le_u64(&head[32..]),
        keyframe_every: le_u32(&head[40..]).max(1),
    };
    let meta_len = le_u32(&head[44..]);
    if meta_len > MAX_META {
        let m = format!("a metadata block of {meta_len} bytes (the limit is {MAX_META})");
        return Err((44, ReplayErrorKind::Corrupt, m));
    }
    Ok((header, meta_len))
}

/// Checks the header's format version, payload codec, compression, state
/// schema and number layout against what this flockstep reads.
fn check_layout(head: &[u8]) -> Result<(), HeaderProblem> {
    let u16_at = |i: usize| u16::from_le_bytes([head[i], head[i + 1]]);
    let (major, minor) = (u16_at(8), u16_at(10));
    let (codec_id, compression) = (u16_at(12), u16_at(14));
    let schema = le_u32(&head[16..]);
    let problem = if major > FORMAT_MAJOR {
        Some((
            8,
            format!(
                "format {major}.{minor} is newer than this flockstep reads \
                 ({FORMAT_MAJOR}.x): upgrade flockstep"
            ),
        ))
    } else if major < OLDEST_MAJOR {
        Some((
            8,
            format!(
                "format {major}.{minor} is no longer supported (this flockstep reads {OLDEST_MAJOR}.x to {FORMAT_MAJOR}.x)"
            ),
        ))
    } else if codec_id != codec::CODEC_ID {
        Some((
            12,
            format!(
                "unknown payload codec {codec_id} (this flockstep knows codec {})",
                codec::CODEC_ID
            ),
        ))
    } else if compression != COMPRESSION_ZSTD {
        Some((
            14,
            format!(
                "unknown compression {compression} (this flockstep knows {COMPRESSION_ZSTD}, zstd)"
            ),
        ))
    } else if schema != SCHEMA {
        Some((
            16,
            format!(
                "state schema {schema} is not the one this flockstep reads ({SCHEMA}); re-record with this version"
            ),
        ))
    } else if (head[20], head[21]) != (32, 32) {
        Some((
            20,
            format!(
                "fixed-point layout I{}F{} is not I32F32",
                head[20], head[21]
            ),
        ))
    } else {
        None
    };
    match problem {
        Some((at, m)) => Err((at, ReplayErrorKind::Version, m)),
        None => Ok(()),
    }
}

impl<R: Read + Seek> Replay<R> {
    /// Reads a replay from any seekable source; `file` names it in errors.
    pub fn from_reader(mut src: R, file: &str) -> Result<Replay<R>, ReplayError> {
        use ReplayErrorKind::{Corrupt, Io, NotAReplay, Truncated};
        let at = |kind: ReplayErrorKind, offset: Option<u64>, m: String| ReplayError {
            kind,
            file: file.to_owned(),
            offset,
            tick: None,
            message: m,
        };
        let io = |e: io::Error| at(Io, None, e.to_string());
        let len = src.seek(SeekFrom::End(0)).map_err(io)?;
        src.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut head = vec![0u8; HEADER_LEN.min(len) as usize];
        src.read_exact(&mut head).map_err(io)?;
        check_magic(&head).map_err(|m| at(NotAReplay, Some(0), m))?;
        if head.len() < HEADER_LEN as usize {
            return Err(at(
                Truncated,
                Some(len),
                format!("the file ends inside the {HEADER_LEN}-byte header"),
            ));
        }
        let (header, meta_len) = parse_header(&head).map_err(|(o, k, m)| at(k, Some(o), m))?;
        let data_start = HEADER_LEN + u64::from(meta_len) + 4;
        if data_start > len {
            return Err(at(
                Truncated,
                Some(len),
                "the file ends inside the metadata block".into(),
            ));
        }
        let mut mb = vec![0u8; meta_len as usize + 4];
        src.read_exact(&mut mb).map_err(io)?;
        let (mbody, mcrc) = mb.split_at(meta_len as usize);
        if !crc_ok(mbody, le_u32(mcrc)) {
            return Err(at(
                Corrupt,
                Some(HEADER_LEN),
                "metadata checksum mismatch: the metadata block is corrupt".into(),
            ));
        }
        let meta: Meta = codec::decode(mbody).map_err(|e| {
            at(
                Corrupt,
                Some(HEADER_LEN),
                format!("unreadable metadata: {e}"),
            )
        })?;
        let mut r = Replay {
            src,
            file: file.to_owned(),
            header,
            meta,
            len,
            data_start,
            keyframes: Vec::new(),
            first_tick: 0,
            last_tick: None,
            index_at: None,
            end: End::Complete,
            dec: Decoder::new(),
            cursor: None,
            behind: None,
            last: None,
            buf: Vec::new(),
        };
        if !r.read_index()? {
            r.scan()?;
        }
        Ok(r)
    }

    /// The file's name, as given.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// A corrupt part of the file (checksums, the index, frames).
    fn error(&self, offset: Option<u64>, tick: Option<u64>, message: String) -> ReplayError {
        self.error_of(ReplayErrorKind::Corrupt, offset, tick, message)
    }

    fn error_of(
        &self,
        kind: ReplayErrorKind,
        offset: Option<u64>,
        tick: Option<u64>,
        message: String,
    ) -> ReplayError {
        ReplayError {
            kind,
            file: self.file.clone(),
            offset,
            tick,
            message,
        }
    }

    fn io_error(&self, e: io::Error) -> ReplayError {
        self.error_of(ReplayErrorKind::Io, None, None, e.to_string())
    }

    /// Reads the trailer and index; false when the file has no valid
    /// trailer (then it is scanned).
    fn read_index(&mut self) -> Result<bool, ReplayError> {
        let Some((t_at, index_at, frames)) = self.read_trailer()? else {
            return Ok(false);
        };
        // The index's size is checked against its count and the frames
        // before it (each keyframe is a frame of at least 44 bytes) before
        // it is read: a file cannot make the reader allocate what it does
        // not hold.
        let mut head = [0u8; 8];
        self.src
            .seek(SeekFrom::Start(index_at))
            .and_then(|_| self.src.read_exact(&mut head))
            .map_err(|e| self.io_error(e))?;
        let count = le_u32(&head[4..]) as usize;
        let room = (index_at - self.data_start) / (FRAME_HEAD_LEN + 4);
        if head[..4] != INDEX_TAG
            || count as u64 > room
            || t_at - index_at != 20 + 16 * count as u64
        {
            return Err(self.error(
                Some(index_at),
                None,
                "the index is corrupt: its size does not match its count of keyframes".into(),
            ));
        }
        let mut b = vec![0u8; (t_at - index_at) as usize];
        self.src
            .seek(SeekFrom::Start(index_at))
            .and_then(|_| self.src.read_exact(&mut b))
            .map_err(|e| self.io_error(e))?;
        if b[..4] != INDEX_TAG
            || b.len() != 20 + 16 * count
            || le_u64(&b[8..]) != frames
            || !crc_ok(&b[..b.len() - 4], le_u32(&b[b.len() - 4..]))
        {
            return Err(self.error(
                Some(index_at),
                None,
                "index checksum mismatch: the index is corrupt".into(),
            ));
        }
        let keys = self.index_keys(&b, count, index_at)?;
        match (keys.first(), frames) {
            (None, 0) => {}
            (Some(&(first, offset)), 1..)
                if offset == self.data_start && first.checked_add(frames - 1).is_some() =>
            {
                self.first_tick = first;
                self.last_tick = Some(first + (frames - 1));
            }
            _ => {
                return Err(self.error(
                    Some(index_at),
                    None,
                    "the index does not start at the first frame".into(),
                ));
            }
        }
        if keys.last().is_some_and(|&(t, _)| Some(t) > self.last_tick) {
            return Err(self.error(
                Some(index_at),
                None,
                "the index names a keyframe after the last frame".into(),
            ));
        }
        self.keyframes = keys;
        self.end = End::Complete;
        self.index_at = Some(index_at);
        Ok(true)
    }

    /// The trailer's place, the index's offset and the count of frames;
    /// `None` when the file has no valid trailer.
    fn read_trailer(&mut self) -> Result<Option<(u64, u64, u64)>, ReplayError> {
        if self.len < self.data_start + TRAILER_LEN {
            return Ok(None);
        }
        let t_at = self.len - TRAILER_LEN;
        let mut t = [0u8; TRAILER_LEN as usize];
        self.src
            .seek(SeekFrom::Start(t_at))
            .and_then(|_| self.src.read_exact(&mut t))
            .map_err(|e| self.io_error(e))?;
        if t[16..20] != TRAILER_TAG || !crc_ok(&t[..20], le_u32(&t[20..])) {
            return Ok(None);
        }
        let (index_at, frames) = (le_u64(&t), le_u64(&t[8..]));
        if index_at < self.data_start || index_at > t_at.saturating_sub(20) {
            return Err(self.error(
                Some(t_at),
                None,
                format!("the trailer points at byte {index_at}, outside the file's frames"),
            ));
        }
        Ok(Some((t_at, index_at, frames)))
    }

    /// The index block's `count` entries `(tick, offset)`, each inside the
    /// frames and after the one before.
    fn index_keys(
        &self,
        b: &[u8],
        count: usize,
        index_at: u64,
    ) -> Result<Vec<(u64, u64)>, ReplayError> {
        let mut keys: Vec<(u64, u64)> = Vec::with_capacity(count);
        for i in 0..count {
            let e = &b[16 + 16 * i..];
            let (tick, offset) = (le_u64(e), le_u64(&e[8..]));
            if offset < self.data_start
                || offset >= index_at
                || keys.last().is_some_and(|&(t, o)| t >= tick || o >= offset)
            {
                return Err(self.error(
                    Some(index_at + 16 + 16 * i as u64),
                    Some(tick),
                    "index entry out of order or outside the frames".into(),
                ));
            }
            keys.push((tick, offset));
        }
        Ok(keys)
    }

    /// Walks every frame of a file without a trailer: collects keyframes and
    /// finds where the readable part ends.
    fn scan(&mut self) -> Result<(), ReplayError> {
        let mut at = self.data_start;
        let mut expect: Option<u64> = None;
        loop {
            if at == self.len {
                self.end = End::Truncated { offset: at };
                return Ok(());
            }
            match self.index_block_at(at)? {
                IndexBlock::Absent => {}
                IndexBlock::Incomplete => {
                    // The recorder stopped while writing its index.
                    self.end = End::Truncated { offset: at };
                    return Ok(());
                }
                IndexBlock::Complete(end) if end == self.len => {
                    self.end = End::Truncated { offset: at };
                    return Ok(());
                }
                IndexBlock::Complete(end) => {
                    let message = if self.len - end < TRAILER_LEN {
                        "the file ends inside the trailer"
                    } else {
                        "trailer checksum mismatch: the trailer is corrupt"
                    };
                    if self.len - end < TRAILER_LEN {
                        self.end = End::Truncated { offset: at };
                        return Ok(());
                    }
                    return Err(self.error(Some(end), None, message.into()));
                }
            }
            match self.read_frame(at, expect, false) {
                Ok(info) => {
                    if info.kind == Kind::Key {
                        self.keyframes.push((info.tick, at));
                    }
                    if expect.is_none() {
                        if info.kind != Kind::Key {
                            return Err(self.error(
                                Some(at),
                                Some(info.tick),
                                "the first frame is not a keyframe".into(),
                            ));
                        }
                        self.first_tick = info.tick;
                    }
                    self.last_tick = Some(info.tick);
                    let Some(next) = info.tick.checked_add(1) else {
                        return Err(self.error(
                            Some(at + 8),
                            Some(info.tick),
                            "a frame of the last possible tick, followed by more".into(),
                        ));
                    };
                    expect = Some(next);
                    at += info.len;
                }
                Err(FrameError::Truncated) => {
                    self.end = End::Truncated { offset: at };
                    return Ok(());
                }
                Err(FrameError::Corrupt(o, m)) => {
                    return Err(self.error(Some(o), expect, m));
                }
                Err(FrameError::Io(e)) => return Err(self.io_error(e)),
            }
        }
    }

    /// Whether an index block starts at `at`.
    fn index_block_at(&mut self, at: u64) -> Result<IndexBlock, ReplayError> {
        let mut h = [0u8; 16];
        let n = (self.len - at).min(16) as usize;
        self.src
            .seek(SeekFrom::Start(at))
            .and_then(|_| self.src.read_exact(&mut h[..n]))
            .map_err(|e| self.io_error(e))?;
        if n < 4 {
            return Ok(if INDEX_TAG.starts_with(&h[..n]) {
                IndexBlock::Incomplete
            } else {
                IndexBlock::Absent
            });
        }
        if h[..4] != INDEX_TAG {
            return Ok(IndexBlock::Absent);
        }
        if n < 16 {
            return Ok(IndexBlock::Incomplete);
        }
        let size = 20 + 16 * u64::from(le_u32(&h[4..]));
        if self.len - at < size {
            return Ok(IndexBlock::Incomplete);
        }
        let mut b = vec![0u8; size as usize];
        self.src
            .seek(SeekFrom::Start(at))
            .and_then(|_| self.src.read_exact(&mut b))
            .map_err(|e| self.io_error(e))?;
        if !crc_ok(&b[..b.len() - 4], le_u32(&b[b.len() - 4..])) {
            return Err(self.error(
                Some(at),
                None,
                "index checksum mismatch: the index is corrupt".into(),
            ));
        }
        Ok(IndexBlock::Complete(at + size))
    }

    /// Reads and checks the frame at `at` into `self.buf` (inputs then
    /// payload). `expect` is the tick it must have; `strict` says a short
    /// read is corruption rather than truncation (the file is complete).
    fn read_frame(
        &mut self,
        at: u64,
        expect: Option<u64>,
        strict: bool,
    ) -> Result<FrameInfo, FrameError> {
        let short = |what: &str| {
            if strict {
                FrameError::Corrupt(at, format!("{what} runs past the end of the frames"))
            } else {
                FrameError::Truncated
            }
        };
        let end = match self.end {
            End::Complete if strict => self.len - TRAILER_LEN,
            _ => self.len,
        };
        if end.saturating_sub(at) < FRAME_HEAD_LEN {
            return Err(short("a frame header"));
        }
        let mut h = [0u8; FRAME_HEAD_LEN as usize];
        self.src
            .seek(SeekFrom::Start(at))
            .and_then(|_| self.src.read_exact(&mut h))
            .map_err(FrameError::Io)?;
        if h[..4] != FRAME_TAG {
            return Err(FrameError::Corrupt(
                at,
                "no frame starts here (bad frame tag)".into(),
            ));
        }
        if !crc_ok(&h[..36], le_u32(&h[36..])) {
            return Err(FrameError::Corrupt(
                at,
                "frame header checksum mismatch".into(),
            ));
        }
        let Some(kind) = Kind::from_byte(h[4]).filter(|k| self.header.major > 1 || (*k as u8) < 4)
        else {
            return Err(FrameError::Corrupt(
                at + 4,
                format!(
                    "unknown frame kind {} in a format {} file",
                    h[4], self.header.major
                ),
            ));
        };
        let tick = le_u64(&h[8..]);
        if expect.is_some_and(|t| t != tick) {
            return Err(FrameError::Corrupt(
                at + 8,
                format!(
                    "frame of tick {tick} where tick {} belongs",
                    expect.unwrap_or(0)
                ),
            ));
        }
        let (inputs_len, raw_len, payload_len) =
            (le_u32(&h[24..]), le_u32(&h[28..]), le_u32(&h[32..]));
        if inputs_len > MAX_INPUTS || raw_len as usize > codec::MAX_PAYLOAD {
            return Err(FrameError::Corrupt(
                at + 24,
                "frame sizes beyond the limits".into(),
            ));
        }
        let body = u64::from(inputs_len) + u64::from(payload_len) + 4;
        if end - at - FRAME_HEAD_LEN < body {
            return Err(short("a frame"));
        }
        self.buf.resize(body as usize, 0);
        self.src.read_exact(&mut self.buf).map_err(FrameError::Io)?;
        let n = self.buf.len() - 4;
        if !crc_ok(&self.buf[..n], le_u32(&self.buf[n..])) {
            return Err(FrameError::Corrupt(
                at + FRAME_HEAD_LEN,
                format!("frame checksum mismatch (tick {tick})"),
            ));
        }
        let inputs: Vec<Input> = if inputs_len == 0 {
            Vec::new()
        } else {
            codec::decode(&self.buf[..inputs_len as usize]).map_err(|e| {
                FrameError::Corrupt(at + FRAME_HEAD_LEN, format!("unreadable inputs: {e}"))
            })?
        };
        Ok(FrameInfo {
            tick,
            offset: at,
            kind,
            hash: le_u64(&h[16..]),
            inputs,
            raw_len,
            inputs_len,
            len: FRAME_HEAD_LEN + body,
        })
    }

    fn frame_error(&self, e: FrameError, tick: Option<u64>) -> ReplayError {
        match e {
            FrameError::Truncated => self.error_of(
                ReplayErrorKind::Truncated,
                None,
                tick,
                "the file ends inside a frame".into(),
            ),
            FrameError::Corrupt(o, m) => self.error(Some(o), tick, m),
            FrameError::Io(e) => self.io_error(e),
        }
    }

    /// Whether `tick` has a complete frame.
    pub fn has_tick(&self, tick: u64) -> bool {
        tick >= self.first_tick && self.last_tick.is_some_and(|l| tick <= l)
    }

    /// Every frame in order, checked (header and body checksums, tick
    /// sequence) but not decoded: for `info` and `verify`.
    pub fn frames(&mut self) -> Frames<'_, R> {
        let at = self.data_start;
        let next = self.first_tick;
        Frames {
            r: self,
            at,
            next: Some(next),
        }
    }

    /// Whether the recorded state at `tick` is `state`, which the caller
    /// stepped from the recorded state at `tick - 1`, the last one asked
    /// for: when the frame's hash says so, the frame is taken as that
    /// state without reconstructing it (a player stepping on through a
    /// flock's replay pays for its traced step, not for a decode as dear
    /// as a tick too), and later seeks go on from it. `false` (the
    /// hashes differ, or `tick - 1` was not the last state asked for)
    /// leaves the replay as it was: decode with [`Replay::state_at`].
    pub fn confirm(&mut self, tick: u64, state: &AnyState) -> Result<bool, ReplayError> {
        let Some((ct, at)) = self.cursor.filter(|&(t, _)| t == tick) else {
            return Ok(false);
        };
        if self.last.as_ref().is_none_or(|(_, i)| i.tick + 1 != tick) {
            return Ok(false);
        }
        let strict = self.end == End::Complete;
        let info = self
            .read_frame(at, Some(ct), strict)
            .map_err(|e| self.frame_error(e, Some(ct)))?;
        if info.hash != state.state_hash() {
            return Ok(false);
        }
        self.cursor = None;
        let payload = &self.buf[info.inputs_len as usize..self.buf.len() - 4];
        if let Err(m) = self
            .dec
            .skip(info.kind, info.raw_len, payload, state.clone())
        {
            return Err(self.error(
                Some(at + FRAME_HEAD_LEN),
                Some(ct),
                format!("undecodable state: {m}"),
            ));
        }
        self.cursor = tick.checked_add(1).map(|next| (next, at + info.len));
        self.behind = self.last.take();
        self.last = Some((state.clone(), info));
        Ok(true)
    }

    /// The state at `tick` and its frame: decoded from the nearest keyframe
    /// at or before it (or onwards from the last state read, when that is
    /// nearer), and checked against the recorded hash.
    pub fn state_at(&mut self, tick: u64) -> Result<(AnyState, FrameInfo), ReplayError> {
        if !self.has_tick(tick) {
            let range = match self.last_tick {
                Some(l) => format!("ticks {}..={l}", self.first_tick),
                None => "no complete frame".to_owned(),
            };
            return Err(self.error_of(
                ReplayErrorKind::NoSuchTick { tick },
                None,
                Some(tick),
                format!("no such tick: the replay has {range}"),
            ));
        }
        let cached = [&self.behind, &self.last]
            .into_iter()
            .flatten()
            .find(|(_, i)| i.tick == tick)
            .cloned();
        if let Some((state, info)) = cached {
            return self.checked(state, info);
        }
        let k = self.keyframes.partition_point(|&(t, _)| t <= tick);
        let (key_tick, key_at) = self.keyframes[k.max(1) - 1];
        let (mut t, mut at) = match self.cursor {
            Some((ct, co)) if ct <= tick && ct > key_tick => (ct, co),
            _ => {
                self.dec.reset();
                (key_tick, key_at)
            }
        };
        let strict = self.end == End::Complete;
        loop {
            self.cursor = None;
            let info = self
                .read_frame(at, Some(t), strict)
                .map_err(|e| self.frame_error(e, Some(t)))?;
            let payload = &self.buf[info.inputs_len as usize..self.buf.len() - 4];
            let state = match self.dec.decode(info.kind, info.raw_len, payload) {
                // Only the state asked for, and the one before it, are
                // copied out of the decoder.
                Ok(s) => {
                    if t + 1 == tick {
                        self.behind = Some((s.clone(), info.clone()));
                    }
                    (t == tick).then(|| s.clone())
                }
                Err(m) => {
                    return Err(self.error(
                        Some(at + FRAME_HEAD_LEN),
                        Some(t),
                        format!("undecodable state: {m}"),
                    ));
                }
            };
            at += info.len;
            self.cursor = t.checked_add(1).map(|next| (next, at));
            if let Some(state) = state {
                // The state before this one stays at hand: decoded on the
                // way here, or asked for last.
                let before = |c: &Option<(AnyState, FrameInfo)>| {
                    c.as_ref().is_some_and(|(_, i)| i.tick + 1 == tick)
                };
                if !before(&self.behind) && before(&self.last) {
                    self.behind = self.last.take();
                }
                self.last = Some((state.clone(), info.clone()));
                return self.checked(state, info);
            }
            t += 1;
        }
    }

    /// A decoded state, if it matches its frame's recorded hash.
    fn checked(
        &self,
        state: AnyState,
        info: FrameInfo,
    ) -> Result<(AnyState, FrameInfo), ReplayError> {
        if state.state_hash() != info.hash {
            return Err(self.error(
                Some(info.offset),
                Some(info.tick),
                "the decoded state does not match its recorded hash".into(),
            ));
        }
        Ok((state, info))
    }

    /// Reads every frame and decodes every state, checking each against its
    /// hash: the full integrity check. Returns the number of frames.
    pub fn check_all(&mut self) -> Result<u64, ReplayError> {
        let Some(last) = self.last_tick else {
            return Ok(0);
        };
        for f in self.frames() {
            f?;
        }
        for t in self.first_tick..=last {
            self.state_at(t)?;
        }
        Ok((last - self.first_tick).saturating_add(1))
    }
}

/// Iterator over checked frame headers (see [`Replay::frames`]).
pub struct Frames<'a, R> {
    r: &'a mut Replay<R>,
    at: u64,
    /// The next tick to read (`None`: finished).
    next: Option<u64>,
}

impl<R: Read + Seek> Iterator for Frames<'_, R> {
    type Item = Result<FrameInfo, ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.next?;
        if !self.r.has_tick(next) {
            self.next = None;
            // The trailer's frame count must account for every byte up to
            // the index: a count too small would hide frames.
            return match self.r.index_at {
                Some(i) if i != self.at => Some(Err(self.r.error(
                    Some(self.at),
                    Some(next),
                    format!(
                        "the frames the trailer counts (to tick {}) end here, but the index starts at byte {i}: the trailer or index is wrong",
                        next.wrapping_sub(1)
                    ),
                ))),
                _ => None,
            };
        }
        let strict = self.r.end == End::Complete;
        match self.r.read_frame(self.at, Some(next), strict) {
            Ok(info) => {
                self.at += info.len;
                self.next = info.tick.checked_add(1);
                Some(Ok(info))
            }
            Err(e) => {
                let err = self.r.frame_error(e, Some(next));
                self.next = None;
                Some(Err(err))
            }
        }
    }
}

/// Checks the magic bytes, naming the usual manglings.
fn check_magic(head: &[u8]) -> Result<(), String> {
    let n = head.len().min(8);
    if head[..n] == MAGIC[..n] && n == 8 {
        return Ok(());
    }
    if head.is_empty() {
        return Err("empty file, not a flockstep replay".into());
    }
    if head.iter().all(|&b| b == 0) {
        return Err("the file is all zeros, not a flockstep replay".into());
    }
    if head.len() < 8 && head[..n] == MAGIC[..n] {
        return Err(format!("the file ends after {n} bytes, inside the header"));
    }
    if head.len() >= 4 && head[1..4] == MAGIC[1..4] {
        if head[0] == 0x09 {
            return Err("the first byte lost its high bit: the file went through a 7-bit (text-mode) transfer".into());
        }
        if head.get(4..7) == Some(b"\n\x1a\n") {
            return Err("CR LF became LF: the file was transferred in text mode".into());
        }
        if head.get(4..8) == Some(b"\r\r\n\x1a") {
            return Err("LF became CR LF: the file was transferred in text mode".into());
        }
        return Err("damaged magic bytes: not a flockstep replay, or a corrupt one".into());
    }
    Err("not a flockstep replay (wrong magic bytes)".into())
}
