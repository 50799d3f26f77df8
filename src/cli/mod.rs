//! The `flockstep` command line: argument parsing (clap) and printing.
//! Everything it prints is computed by library functions a test can call.
//!
//! Exit codes: 0 success, 1 a check failed, 2 bad input or usage.

use crate::bundled::BUNDLED;
use crate::files::MAX_MAP_BYTES;
use crate::lesson::{Lesson, LessonError, MAX_TICKS, Override};
use crate::sim::line::{Line, Step};
use crate::sim::path::{
    CostRule, Heuristic, HeuristicKind, Moves, PathEvent, SearchConfig, Status, TieBreak,
};
use crate::sim::{Cell, Grid, Input, NoTrace};
use clap::{Parser, Subcommand};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

mod output;
mod params;
mod replay;
mod review;
mod scen;

/// Teach and regression-test game-AI algorithms on a deterministic core.
#[derive(Parser, Debug)]
#[command(
    name = "flockstep",
    version,
    about = "Teach and regression-test game-AI algorithms (boids, A*, Bresenham) on a bit-for-bit deterministic core",
    after_help = "LESSON is a path to a lesson file (.toml) or the id of a bundled lesson; `flockstep lessons` lists them.\nExit codes: 0 success, 1 a check failed, 2 bad input or usage."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Threads a flock's double-buffered tick may use (default: one per core). Any number gives the same bits
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: Option<u16>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the viewer on a lesson or replay (no argument: the lesson picker)
    View {
        /// Lesson file, bundled lesson id or replay file (.fsr)
        target: Option<String>,
        /// A second replay or lesson: both runs side by side in lockstep, the first divergence marked on the timeline (D goes there), the differing entities ringed, their fields, drift and cause in the side panel
        other: Option<String>,
        /// Override a scenario parameter of a lesson (as for `run`)
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Narration language, a tag such as ja (default: the system locale's, if a lesson has it; L switches in the window)
        #[arg(long, value_name = "TAG")]
        lang: Option<String>,
    },
    /// Render the frame the viewer shows at a tick or beat to a PNG (needs an X display; headless: xvfb-run -a -s '-screen 0 1280x720x24' flockstep render …), and/or its text as JSON (--text, no display needed)
    Render(RenderArgs),
    /// List the bundled lessons
    Lessons,
    /// List a sim's scenario parameters — every key a lesson's scenario table and --set take: type and range, default, unit, what it does
    Params {
        /// The sim: flock, line, path or one registered by the program (none: every sim)
        sim: Option<String>,
        /// Only the keys of this model (flock: heading, gems, weighted)
        #[arg(long, value_name = "NAME")]
        model: Option<String>,
        /// The language of the help: en or ja
        #[arg(long, value_name = "TAG", default_value = "en")]
        lang: String,
        /// Markdown tables (docs/params.md is written this way)
        #[arg(long, conflicts_with = "json")]
        markdown: bool,
        /// JSON: each sim's keys with type, range (min, max, choices), default, unit, help, models and whether a teacher varies it
        #[arg(long)]
        json: bool,
    },
    /// Simulate a lesson headless; print ticks, time, ticks/s and the final state hash
    Run {
        /// Lesson file or bundled lesson id
        lesson: String,
        /// Ticks to simulate (default: the lesson's own `ticks`)
        #[arg(long, value_name = "N", value_parser = parse_ticks, allow_hyphen_values = true)]
        ticks: Option<u64>,
        /// Override a scenario parameter, e.g. --set eye_height=0 or --set chasers.0.recompute_every_tick=true
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Print each beat's narration and a picture of the state when the run reaches its tick
        #[arg(long)]
        narrate: bool,
        /// Narration language (a tag such as ja); beats without it fall back to English
        #[arg(long, value_name = "TAG", requires = "narrate")]
        lang: Option<String>,
    },
    /// Record every tick of a lesson to a binary replay (progress bar on a terminal)
    Record {
        /// Lesson file or bundled lesson id
        lesson: String,
        /// The replay file (default: ID.fsr). Written as FILE.partial and renamed when complete
        #[arg(short, long, value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Ticks to record after tick 0 (default: the lesson's own `ticks`)
        #[arg(long, value_name = "N", value_parser = parse_ticks, allow_hyphen_values = true)]
        ticks: Option<u64>,
        /// Override a scenario parameter (as for `run`); recorded in the replay
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// Ticks between keyframes (1-65536; default: 256, fewer for large states): smaller seeks faster, larger is smaller
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=65_536))]
        keyframe_every: Option<u32>,
        /// A what-if at a tick, as the viewer makes it, recorded in the replay: `300:set:w_cohesion=0`, `300:set:1:fov=3` (pane 1 only), `40:wall:12,7`, `40:ground:12,7=3`, `40:goal:5,5`, `40:start:1,1`, `40:target:0:5,5`, `40:chaser:0:2,2`, `40:boid:10,10:1,0`, `40:obstacle:0:20,20`. It applies before that tick's step
        #[arg(long = "input", value_name = "TICK:INPUT", value_parser = parse_input, allow_hyphen_values = true)]
        inputs: Vec<(u64, Input)>,
    },
    /// Describe a replay: format, lesson, ticks, size, integrity (every frame decoded and checked)
    Info {
        /// The replay file
        file: std::path::PathBuf,
    },
    /// Print the recorded state at a tick, field by field
    Dump {
        /// The replay file
        file: std::path::PathBuf,
        /// The tick
        #[arg(long, value_name = "N", value_parser = parse_ticks)]
        tick: u64,
        /// Only fields whose path starts with this (e.g. `boids[3]` or `model`)
        #[arg(long, value_name = "PATH")]
        field: Option<String>,
        /// Print {"tick", "hash", "inputs", "state"} as JSON (fixed-point numbers as raw I32F32 bits); with --field, "fields": [{"path", "value"}, …] instead of "state"
        #[arg(long)]
        json: bool,
    },
    /// Re-simulate replays with this flockstep; exit 1 at the first divergence, naming tick, field and values
    Verify {
        /// Replay files
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Also say why a file diverges: today's step into the first divergent tick, traced from the recorded state before it, the first entity that now ends elsewhere and today's reasoning for it
        #[arg(long)]
        explain: bool,
        /// Print one JSON object a file: {"file", "verdict" (ok, truncated, diverges, error), "ticks", "divergence": {"tick", "hashes", "fields": [{"path", "recorded", "now"}], "more"}, "cause", "inputs", "error"}; fixed-point numbers as raw I32F32 bits
        #[arg(long)]
        json: bool,
    },
    /// Compare two replays tick by tick; exit 1 at the first difference, naming tick, field and values
    Diff {
        /// The first replay (a)
        a: std::path::PathBuf,
        /// The second replay (b)
        b: std::path::PathBuf,
        /// Also say why they part: step both runs into the first divergent tick with the explain records on and name the first entity, and the rule, that reasons differently
        #[arg(long)]
        explain: bool,
        /// Print {"a", "b", "notes" (how their lessons, overrides, builds and inputs differ), "verdict" (identical, length, diverges), "ticks" or "ends", "divergence": {"tick", "hashes", "fields": [{"path", "a", "b"}], "more"}, "cause"}; fixed-point numbers as raw I32F32 bits
        #[arg(long)]
        json: bool,
    },
    /// Print the cells of a Bresenham line with the error term before each step
    Line {
        /// Start cell X0,Y0 (not part of the output)
        #[arg(value_parser = parse_cell, allow_hyphen_values = true, value_name = "X0,Y0")]
        from: Cell,
        /// End cell X1,Y1 (the last cell of the output)
        #[arg(value_parser = parse_cell, allow_hyphen_values = true, value_name = "X1,Y1")]
        to: Cell,
        /// Print the cells and error terms as JSON.
        #[arg(
            long,
            help = r#"Print {"cells": [[x,y],…], "errors": [f before each step,…]}"#
        )]
        json: bool,
        /// Refuse lines longer than this many cells (at most 10,000,000)
        #[arg(
            long,
            value_name = "N",
            default_value_t = 1_000_000,
            value_parser = clap::value_parser!(u64).range(1..=MAX_LINE_CELLS)
        )]
        max_cells: u64,
    },
    /// A* on an ASCII height map (0-9 heights, # walls); prints the map with the path
    Path(PathArgs),
    /// Run a Moving AI scenario file (.scen) against its map: print every
    /// scenario whose optimal length differs from the file's, totals, time
    /// and ns per expansion; exit 1 if any differs
    Scen(ScenArgs),
    /// Walk through changed golden replays, as `cargo insta review` does snapshots: re-simulate each (in parallel), write today's run beside each that changed (NAME.new.fsr), show where and why it parts, then accept (replace), reject (delete the new run) or skip each; nothing is overwritten without an accept
    Review {
        /// Golden replays, or directories of them (default: recordings)
        paths: Vec<std::path::PathBuf>,
        /// Accept every change without asking
        #[arg(long, conflicts_with = "reject_all")]
        accept_all: bool,
        /// Reject every change without asking (deletes the new runs)
        #[arg(long)]
        reject_all: bool,
        /// Also draw both runs side by side at their first divergence, a PNG each in DIR (needs a display)
        #[arg(long, value_name = "DIR")]
        pictures: Option<std::path::PathBuf>,
    },
}

/// The arguments of `flockstep render`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("at").required(true).args(["tick", "beat", "gif"])))]
#[command(group(clap::ArgGroup::new("out").required(true).multiple(true).args(["output", "text"])))]
pub struct RenderArgs {
    /// Lesson file, bundled lesson id or replay file (.fsr)
    pub target: String,
    /// A second replay or lesson: both runs side by side, where they part marked (as `view A B`)
    pub other: Option<String>,
    /// The tick to draw (the beat in force there)
    #[arg(long, value_name = "N", value_parser = parse_ticks)]
    pub tick: Option<u64>,
    /// The beat to draw (1-based; beats that share a tick are drawn apart)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub beat: Option<u32>,
    /// Narration language, a tag such as ja (default: English)
    #[arg(long, value_name = "TAG")]
    pub lang: Option<String>,
    /// The PNG (or with --gif the GIF) to write (written beside it first, renamed when complete)
    #[arg(short, long, value_name = "FILE.png")]
    pub output: Option<std::path::PathBuf>,
    /// Write an animated GIF of ticks --from..=--to instead of one frame (for slides): each frame as the PNG of its tick draws it
    #[arg(long, requires_all = ["from", "to", "output"], conflicts_with_all = ["text", "time_frames"])]
    pub gif: bool,
    /// The clip's first tick
    #[arg(long, value_name = "T0", value_parser = parse_ticks, requires = "gif")]
    pub from: Option<u64>,
    /// The clip's last tick
    #[arg(long, value_name = "T1", value_parser = parse_ticks, requires = "gif")]
    pub to: Option<u64>,
    /// A frame every K ticks (default: every tick, or as few as keep a frame at least 1/50 s, the shortest browsers show)
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000), requires = "gif")]
    pub every: u64,
    /// Write every text the frame draws as JSON (`-`: standard output):
    /// its string, role (narration, question, title, status,
    /// pane-title, panel, legend, label, cell, callout, tab, more, …),
    /// rectangle [x, y, w, h], pixel size, and whether it is clipped
    /// or cut short; and what does not fit (panel lines hidden,
    /// narration pages). Without -o no window is opened
    #[arg(long, value_name = "FILE.json")]
    pub text: Option<std::path::PathBuf>,
    /// Window size in pixels
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_size)]
    pub size: (i32, i32),
    /// Show exactly these overlays (repeat; default: those of the beat in force)
    #[arg(long = "overlay", value_name = "NAME")]
    pub overlays: Vec<String>,
    /// Inspect this boid (flock) or chaser (line)
    #[arg(long, value_name = "ID")]
    pub select: Option<u32>,
    /// Presenter mode: everything this many percent of what the window size gives (150, 200)
    #[arg(long, value_name = "PERCENT", default_value_t = 100, value_parser = clap::value_parser!(u16).range(60..=300))]
    pub text_scale: u16,
    /// Override a scenario parameter of a lesson (as for `run`)
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// A what-if before the frame, as the viewer makes it (see `record --input`)
    #[arg(long = "input", value_name = "TICK:INPUT", value_parser = parse_input, allow_hyphen_values = true)]
    pub inputs: Vec<(u64, Input)>,
    /// Show the parameter panel (P in the viewer) instead of the side panel
    #[arg(long)]
    pub panel: bool,
    /// Show the map brush on (M in the viewer; path and line lessons)
    #[arg(long)]
    pub brush: bool,
    /// Draw and time N frames first, then print mean/median/worst frame time (measures the GPU or llvmpipe)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub time_frames: u32,
}

/// The arguments of `flockstep path`.
#[derive(clap::Args, Debug)]
pub struct PathArgs {
    /// The map file (one row per line), or - for standard input
    pub map: String,
    /// Start cell X,Y (x is the column, y the row, from the top left)
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true, value_name = "X,Y")]
    pub from: Cell,
    /// Goal cell X,Y
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true, value_name = "X,Y")]
    pub to: Cell,
    /// Extra cost per level climbed (0-10000)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub uphill_weight: u32,
    /// Extra cost per level dropped (0-10000)
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub downhill_weight: u32,
    /// Largest climb in one move; higher is a cliff (0-9)
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=9))]
    pub max_climb: u8,
    /// Largest drop in one move; deeper is a cliff (0-9)
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=9))]
    pub max_drop: u8,
    /// euclidean (article 001; the default with 4-way moves), octile
    /// (the default with 8-way moves), manhattan, or zero (Dijkstra)
    #[arg(long, value_name = "NAME", value_parser = ["euclidean", "octile", "manhattan", "zero"])]
    pub heuristic: Option<String>,
    /// 4 (left, up, right, down: article 001) or 8 (and the diagonals,
    /// each √2 times the move's cost, cutting no corner)
    #[arg(long, value_name = "N", default_value = "4", value_parser = ["4", "8"])]
    pub moves: String,
    /// The weight w of w·h (above 1 is not admissible: the path may not be optimal)
    #[arg(long, value_name = "W", default_value = "1", value_parser = parse_weight)]
    pub heuristic_weight: crate::num::Fx,
    /// Order among equal f: fifo (article 001), lifo, larger_g, smaller_h
    #[arg(long, value_name = "NAME", default_value = "fifo", value_parser = ["fifo", "lifo", "larger_g", "smaller_h"])]
    pub tie_break: String,
    /// Print {"cost", "path", "expanded", "micros"} as JSON
    #[arg(long, conflicts_with = "trace")]
    pub json: bool,
    /// Print the open list after every step
    #[arg(long)]
    pub trace: bool,
    /// Article 001's list without a closed set: every popped entry is
    /// expanded, stale copies included (same path, more work)
    #[arg(long)]
    pub no_closed_set: bool,
}

/// The arguments of `flockstep scen`.
#[derive(clap::Args, Debug)]
pub struct ScenArgs {
    /// The .scen file (its first line `version …`, then nine
    /// tab-separated fields a scenario)
    pub scen: String,
    /// The map (default: the file the scenarios name, beside the .scen)
    #[arg(long, value_name = "FILE")]
    pub map: Option<String>,
    /// 8 (the benchmark's: diagonals √2, no corner cutting) or 4
    #[arg(long, value_name = "N", default_value = "8", value_parser = ["4", "8"])]
    pub moves: String,
    /// octile (the default with 8-way moves), euclidean (with 4-way),
    /// manhattan, or zero (Dijkstra)
    #[arg(long, value_name = "NAME", value_parser = ["euclidean", "octile", "manhattan", "zero"])]
    pub heuristic: Option<String>,
    /// Order among equal f: fifo (article 001), lifo, larger_g, smaller_h
    #[arg(long, value_name = "NAME", default_value = "fifo", value_parser = ["fifo", "lifo", "larger_g", "smaller_h"])]
    pub tie_break: String,
    /// The largest difference from a published length that still
    /// matches, for every line. Default: each line's own precision,
    /// half a unit of the last digit it wrote (100.828 matches
    /// 100.8275–100.8285), with a diagonal counted as √2 or as the
    /// benchmark's files count it, 1.414213562
    #[arg(long, value_name = "LENGTH", value_parser = parse_tolerance)]
    pub tolerance: Option<u128>,
}

/// Parses `--tolerance` into 10⁻¹⁸ units.
fn parse_tolerance(s: &str) -> Result<u128, String> {
    scen::parse_length(s)
        .map(|(v, _)| v)
        .ok_or_else(|| format!("`{s}` is not a decimal ≥ 0 (such as 0.0001)"))
}

/// Parses a window size `WxH` (each 64-8192).
pub fn parse_size(s: &str) -> Result<(i32, i32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}` is not WxH (such as 1280x720)"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<i32>()
            .ok()
            .filter(|n| (64..=8192).contains(n))
            .ok_or_else(|| format!("`{v}` in `{s}` is not a size in 64..=8192"))
    };
    Ok((n(w)?, n(h)?))
}

/// Parses a heuristic weight: a decimal in 0..=1000, read exactly.
pub fn parse_weight(s: &str) -> Result<crate::num::Fx, String> {
    let v = crate::num::parse_fx(s.trim()).map_err(|e| format!("'{s}' is not a number: {e}"))?;
    if v < crate::num::Fx::ZERO || v > crate::num::Fx::from_int(1000) {
        return Err(format!("{v} is out of range: expected 0..=1000"));
    }
    Ok(v)
}

/// Parses a tick count: a non-negative integer up to the lesson limit.
pub fn parse_ticks(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n <= MAX_TICKS => Ok(n),
        Ok(n) => Err(format!("{n} is more than the limit of {MAX_TICKS} ticks")),
        Err(_) if s.trim().starts_with('-') => Err("a tick count cannot be negative".into()),
        Err(_) => Err(format!(
            "'{s}' is not a tick count (a non-negative integer)"
        )),
    }
}

/// Parses `TICK:INPUT` (see [`Input::parse`]); the tick is 1 or later,
/// the tick whose step the input comes before.
pub fn parse_input(s: &str) -> Result<(u64, Input), String> {
    let (tick, input) = Input::parse_timed(s)?;
    if tick > MAX_TICKS {
        return Err(format!(
            "`{s}`: tick {tick} is more than the limit of {MAX_TICKS} ticks"
        ));
    }
    Ok((tick, input))
}

/// Parses `X,Y` into a cell, with a message that says which half is wrong.
pub fn parse_cell(s: &str) -> Result<Cell, String> {
    Cell::parse(s)
}

/// A failed command: its message and exit code.
#[derive(Debug)]
pub struct Failure {
    /// 1 for a failed check, 2 for bad input.
    pub code: u8,
    /// The one clear message (to standard error; empty for none).
    pub message: String,
    /// What the command printed before it failed (to standard output): a
    /// divergence report, the readable part of a truncated file's `info`.
    pub output: String,
}

fn bad(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
        output: String::new(),
    }
}

impl From<LessonError> for Failure {
    fn from(e: LessonError) -> Failure {
        bad(e.to_string())
    }
}

/// Runs the command line; returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    match execute(cli) {
        Ok(out) => emit(&out),
        Err(f) => {
            let _ = emit(&f.output);
            if !f.message.is_empty() {
                eprintln!("error: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn emit(out: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command and returns what it prints.
pub fn execute(cli: Cli) -> Result<String, Failure> {
    if let Some(n) = cli.threads {
        crate::par::set_default_threads(usize::from(n));
    }
    match cli.command {
        None => view((None, None), &[], None),
        Some(Command::View {
            target,
            other,
            set,
            lang,
        }) => view((target.as_deref(), other.as_deref()), &set, lang),
        Some(Command::Render(a)) => a.run(),
        Some(Command::Lessons) => Ok(lessons_table()),
        Some(Command::Params {
            sim,
            model,
            lang,
            markdown,
            json,
        }) => {
            let format = match (markdown, json) {
                (true, _) => params::Format::Markdown,
                (_, true) => params::Format::Json,
                _ => params::Format::Text,
            };
            params::params(sim.as_deref(), model.as_deref(), &lang, format)
        }
        Some(Command::Record {
            lesson,
            output,
            ticks,
            set,
            keyframe_every,
            inputs,
        }) => replay::record(&lesson, output, ticks, set, keyframe_every, inputs),
        Some(Command::Info { file }) => replay::info(&file),
        Some(Command::Dump {
            file,
            tick,
            field,
            json,
        }) => replay::dump(&file, tick, field.as_deref(), json),
        Some(Command::Verify {
            files,
            explain,
            json,
        }) => replay::verify(&files, explain, json),
        Some(Command::Diff {
            a,
            b,
            explain,
            json,
        }) => replay::diff(&a, &b, explain, json),
        Some(Command::Review {
            paths,
            accept_all,
            reject_all,
            pictures,
        }) => {
            let paths = if paths.is_empty() {
                vec!["recordings".into()]
            } else {
                paths
            };
            let all = match (accept_all, reject_all) {
                (true, _) => Some(review::Answer::Accept),
                (_, true) => Some(review::Answer::Reject),
                _ => None,
            };
            review::review(&paths, all, pictures.as_deref())
        }
        Some(Command::Run {
            lesson,
            ticks,
            set,
            narrate,
            lang,
        }) => run(
            &lesson,
            ticks,
            &set,
            narrate,
            english_is_none(lang).as_deref(),
        ),
        Some(Command::Line {
            from,
            to,
            json,
            max_cells,
        }) => line(from, to, json, max_cells),
        Some(Command::Scen(a)) => a.run(),
        Some(Command::Path(a)) => a.run(),
    }
}

impl RenderArgs {
    /// Draws the frame (and/or writes its text).
    fn run(self) -> Result<String, Failure> {
        let at = match (self.tick, self.beat, self.from) {
            (_, Some(b), _) => crate::viewer::app::RenderAt::Beat(b as usize),
            (Some(t), None, _) => crate::viewer::app::RenderAt::Tick(t),
            (None, None, Some(t)) => crate::viewer::app::RenderAt::Tick(t),
            (None, None, None) => return Err(bad("render needs --tick N or --beat N")),
        };
        let options = crate::viewer::app::RenderOptions {
            overlays: self.overlays,
            select: self.select,
            text_scale: self.text_scale,
            lang: english_is_none(self.lang),
            inputs: self.inputs,
            panel: self.panel,
            brush: self.brush,
        };
        let out = RenderOut {
            png: self.output,
            text: self.text,
        };
        let timing = (self.size, self.time_frames);
        let targets = (self.target.as_str(), self.other.as_deref());
        if self.gif {
            let span = (self.from.unwrap_or(0), self.to.unwrap_or(0), self.every);
            return clip(targets, span, &options, out, self.size, &self.set);
        }
        render(targets, at, &options, out, timing, &self.set)
    }
}

impl ScenArgs {
    /// Runs every scenario of the file.
    fn run(self) -> Result<String, Failure> {
        let moves = if self.moves == "4" {
            Moves::Four
        } else {
            Moves::Eight
        };
        let heuristic = Heuristic::plain(heuristic_kind(self.heuristic.as_deref(), moves));
        let cfg = SearchConfig {
            label: crate::lesson::default_path_label(&heuristic),
            heuristic,
            tie_break: tie_break_named(&self.tie_break),
            moves,
            ..SearchConfig::default()
        };
        scen::run(&self.scen, self.map.as_deref(), &cfg, self.tolerance)
    }
}

impl PathArgs {
    /// The search the flags describe.
    fn search(&self) -> SearchConfig {
        let moves = if self.moves == "8" {
            Moves::Eight
        } else {
            Moves::Four
        };
        let heuristic = Heuristic {
            kind: heuristic_kind(self.heuristic.as_deref(), moves),
            weight: self.heuristic_weight,
        };
        SearchConfig {
            label: crate::lesson::default_path_label(&heuristic),
            rule: CostRule {
                max_climb: self.max_climb,
                max_drop: self.max_drop,
                uphill_weight: self.uphill_weight,
                downhill_weight: self.downhill_weight,
            },
            heuristic,
            tie_break: tie_break_named(&self.tie_break),
            closed_set: !self.no_closed_set,
            moves,
        }
    }

    /// Searches the map and prints the path.
    fn run(self) -> Result<String, Failure> {
        let grid = load_map(&self.map)?;
        let cfg = self.search();
        path(
            &self.map, &grid, self.from, self.to, &cfg, self.json, self.trace,
        )
    }
}

/// `flockstep view`: the window on the picker, a lesson or a replay. A
/// lesson or replay that does not open is reported in the window (and on
/// standard error) over the picker.
/// A `--lang` tag as the lessons name a narration: `en` is the lessons'
/// own text (no translation), so it is accepted wherever `--lang` is.
fn english_is_none(lang: Option<String>) -> Option<String> {
    lang.filter(|l| l != "en")
}

fn view(
    (target, other): (Option<&str>, Option<&str>),
    set: &[String],
    lang: Option<String>,
) -> Result<String, Failure> {
    crate::viewer::window::display_available().map_err(bad)?;
    let mut app = crate::viewer::app::App::new();
    let langs = app.languages();
    match lang {
        Some(l) if langs.contains(&Some(l.clone())) => app.set_language(Some(l)),
        Some(l) if l == "en" => {}
        Some(l) => {
            return Err(bad(format!(
                "--lang {l}: the bundled lessons are narrated in English{}",
                langs
                    .iter()
                    .flatten()
                    .map(|l| format!(", {l}"))
                    .collect::<String>()
            )));
        }
        None => app.set_language(crate::viewer::app::locale_language(
            &langs,
            ["LC_ALL", "LC_MESSAGES", "LANG"]
                .iter()
                .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
                .as_deref(),
        )),
    }
    if let (Some(a), Some(b)) = (target, other) {
        app.open_compare(a, b, set);
    } else if let Some(t) = target {
        // A lesson or replay that does not open is shown in the window
        // over the picker, and printed on standard error by the window.
        app.open(t, set);
    } else if !set.is_empty() {
        return Err(bad("--set needs a lesson to apply to"));
    }
    crate::viewer::window::run(app).map_err(bad)?;
    Ok(String::new())
}

/// Where `flockstep render` writes: a PNG, the frame's text, or both.
struct RenderOut {
    png: Option<std::path::PathBuf>,
    text: Option<std::path::PathBuf>,
}

/// `flockstep render`: one frame of the viewer to a PNG, and its text as
/// JSON (without a PNG, composed without a window).
fn render(
    (target, other): (&str, Option<&str>),
    at: crate::viewer::app::RenderAt,
    options: &crate::viewer::app::RenderOptions,
    out: RenderOut,
    (size, time_frames): ((i32, i32), u32),
    set: &[String],
) -> Result<String, Failure> {
    let app = match other {
        Some(b) => crate::viewer::app::prepare_render_compare((target, b), set, at, options),
        None => crate::viewer::app::prepare_render(target, set, at, options),
    }
    .map_err(bad)?;
    for p in out.png.iter().chain(&out.text) {
        if p.is_dir() {
            return Err(bad(format!("{}: is a directory", p.display())));
        }
    }
    let Some(png) = out.png else {
        let frame = crate::viewer::draw::compose(&app, size.0, size.1);
        let about = crate::viewer::app::frame_about(&app);
        let path = out.text.unwrap_or_else(|| "-".into());
        crate::files::write_atomic(&path, frame.text_json(about).as_bytes()).map_err(bad)?;
        return Ok(String::new());
    };
    crate::viewer::window::display_available().map_err(bad)?;
    crate::viewer::window::render(crate::viewer::window::RenderJob {
        app,
        size,
        out: png,
        time_frames,
        text: out.text,
    })
    .map_err(bad)?;
    Ok(String::new())
}

/// `flockstep render --gif`: ticks `from..=to` (a frame every `every`)
/// drawn as `render` draws each, written as an animated GIF.
fn clip(
    (target, other): (&str, Option<&str>),
    (from, to, every): (u64, u64, u64),
    options: &crate::viewer::app::RenderOptions,
    out: RenderOut,
    size: (i32, i32),
    set: &[String],
) -> Result<String, Failure> {
    if from > to {
        return Err(bad(format!("--from {from} is after --to {to}")));
    }
    let at = crate::viewer::app::RenderAt::Tick(to);
    // Opened at the last tick first: a tick past the run is refused here.
    let app = match other {
        Some(b) => crate::viewer::app::prepare_render_compare((target, b), set, at, options),
        None => crate::viewer::app::prepare_render(target, set, at, options),
    }
    .map_err(bad)?;
    let png = out.png.ok_or_else(|| bad("--gif needs -o FILE.gif"))?;
    if png.is_dir() {
        return Err(bad(format!("{}: is a directory", png.display())));
    }
    let rate = app.player().map_or(60, |p| {
        p.session
            .lesson
            .rate
            .unwrap_or_else(|| p.session.lesson.sim.default_rate())
    });
    let (every, delay) = crate::viewer::clip::timing(rate, every);
    let ticks: Vec<u64> = (from..=to).step_by(every as usize).collect();
    crate::viewer::window::display_available().map_err(bad)?;
    crate::viewer::window::render_clip(crate::viewer::window::ClipJob {
        app,
        size,
        out: png,
        ticks,
        delay,
    })
    .map_err(bad)?;
    Ok(String::new())
}

/// The table `flockstep lessons` prints.
pub fn lessons_table() -> String {
    let mut s = String::from(
        "Bundled lessons, each sim's in course order (run one with `flockstep run ID`):\n\n",
    );
    let _ = writeln!(
        s,
        "{:<28} {:<5} {:<9} {:>6}  TITLE",
        "ID", "SIM", "COURSE", "TICKS"
    );
    let mut lessons = Vec::new();
    for b in BUNDLED {
        match Lesson::parse(b.source(), b.path) {
            Ok(l) => lessons.push(l),
            Err(e) => {
                let _ = writeln!(s, "{:<28} (does not load: {e})", b.id);
            }
        }
    }
    lessons.sort_by(|a, b| a.listing_key().cmp(&b.listing_key()));
    for l in &lessons {
        let course = l
            .course
            .as_ref()
            .map_or("-".to_owned(), |(t, p)| format!("{t} {p}"));
        let _ = writeln!(
            s,
            "{:<28} {:<5} {:<9} {:>6}  {}",
            l.id,
            l.scenario.sim_name(),
            course,
            l.ticks,
            l.title
        );
    }
    s
}

/// Loads a lesson from a file path or a bundled id.
pub fn load_lesson(arg: &str, overrides: &[Override]) -> Result<Lesson, Failure> {
    let (src, file) = lesson_source(arg)?;
    Ok(Lesson::parse_with(&src, &file, overrides)?)
}

/// A lesson's text and the name messages use for it: see
/// [`crate::bundled::source_of`].
pub fn lesson_source(arg: &str) -> Result<(String, String), Failure> {
    crate::bundled::source_of(arg).map_err(bad)
}

fn run(
    arg: &str,
    ticks: Option<u64>,
    set: &[String],
    narrate: bool,
    lang: Option<&str>,
) -> Result<String, Failure> {
    for s in set {
        Override::parse(s).map_err(|e| bad(e.to_string()))?;
    }
    let (text, file) = lesson_source(arg)?;
    let source = crate::replay::run::Source {
        file,
        text,
        overrides: set.to_vec(),
    };
    // The lesson's own inputs are made as the recorder makes them.
    let mut run = crate::replay::live::LessonRun::new(&source, &Default::default())
        .map_err(|e| bad(e.to_string()))?;
    let lesson = run.lesson().clone();
    let ticks = ticks.unwrap_or(lesson.ticks);
    if ticks > MAX_TICKS {
        return Err(bad(format!(
            "--ticks {ticks} is more than the limit of {MAX_TICKS}"
        )));
    }
    let languages = lesson.languages();
    if let Some(l) = lang
        && !languages.iter().any(|x| x == l)
    {
        let have = if languages.is_empty() {
            "English only".to_owned()
        } else {
            format!("English, {}", languages.join(", "))
        };
        return Err(bad(format!(
            "lesson `{}` has no `{l}` narration; it has: {have}",
            lesson.id
        )));
    }
    let mut out = String::new();
    let mut next_beat = 0;
    let start = Instant::now();
    loop {
        let sim = &run.sim;
        if narrate {
            while next_beat < lesson.beats.len() && lesson.beats[next_beat].at <= sim.tick() {
                let b = &lesson.beats[next_beat];
                let _ = writeln!(
                    out,
                    "== beat {} of {} ==",
                    next_beat + 1,
                    lesson.beats.len()
                );
                let _ = writeln!(out, "{}", sim.render_text());
                if let Some(q) = b.question_in(lang) {
                    let label = crate::viewer::app::question_label(lang);
                    let _ = writeln!(out, ">> {label} {}\n", q.trim());
                }
                let _ = writeln!(
                    out,
                    "{}{}\n",
                    b.text_in(lang).trim(),
                    if b.pause { "  [pause]" } else { "" }
                );
                next_beat += 1;
            }
        }
        if sim.tick() >= ticks {
            break;
        }
        run.step().map_err(|e| bad(e.to_string()))?;
    }
    let sim = &run.sim;
    let secs = start.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        format!("{:.0}", sim.tick() as f64 / secs)
    } else {
        "-".into()
    };
    let _ = writeln!(out, "lesson  {} ({})", lesson.id, lesson.title);
    let _ = writeln!(out, "sim     {}", lesson.scenario.sim_name());
    let _ = writeln!(out, "ticks   {}", sim.tick());
    let _ = writeln!(
        out,
        "time    {:.3} ms{}",
        secs * 1e3,
        if narrate { " (narration included)" } else { "" }
    );
    let _ = writeln!(out, "rate    {rate} ticks/s");
    let _ = writeln!(out, "hash    {:#018x}", sim.state_hash());
    Ok(out)
}

/// The decision of one step, in words.
pub fn decision(s: &Step, x_major: bool) -> &'static str {
    match (s.minor_stepped, x_major) {
        (true, true) => "f >= 0: step y, then x",
        (false, true) => "f < 0: step x only",
        (true, false) => "f >= 0: step x, then y",
        (false, false) => "f < 0: step y only",
    }
}

/// The most cells `flockstep line` prints (`--max-cells` is capped here:
/// the output is built in memory, about 60 bytes a cell as text).
pub const MAX_LINE_CELLS: u64 = 10_000_000;

/// What `flockstep line` prints, as text or JSON.
pub fn line(from: Cell, to: Cell, json: bool, max_cells: u64) -> Result<String, Failure> {
    let l = Line::new(from, to);
    if l.len() > max_cells {
        return Err(bad(format!(
            "the line {from} → {to} has {} cells, more than --max-cells {max_cells}",
            l.len()
        )));
    }
    let mut s = String::new();
    if json {
        s.push_str("{\"cells\": [");
        for (i, st) in l.stepper().enumerate() {
            let _ = write!(
                s,
                "{}[{},{}]",
                if i > 0 { "," } else { "" },
                st.cell.x,
                st.cell.y
            );
        }
        s.push_str("], \"errors\": [");
        for (i, st) in l.stepper().enumerate() {
            let _ = write!(s, "{}{}", if i > 0 { "," } else { "" }, st.f_before);
        }
        s.push_str("]}\n");
        return Ok(s);
    }
    s.push_str(&describe_line(&l));
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:>6} {:>12}  {:<24} cell",
        "step", "f before", "decision"
    );
    for st in l.stepper() {
        let _ = writeln!(
            s,
            "{:>6} {:>12}  {:<24} {}",
            st.index,
            st.f_before,
            decision(&st, l.x_major()),
            st.cell
        );
    }
    if let Some(pic) = picture(&l) {
        let _ = writeln!(s);
        s.push_str(&pic);
    }
    Ok(s)
}

/// The constants of a line, explained.
pub fn describe_line(l: &Line) -> String {
    let (maj, min) = if l.x_major() { ("x", "y") } else { ("y", "x") };
    let (dmaj, dmin) = if l.x_major() {
        ("dx", "dy")
    } else {
        ("dy", "dx")
    };
    format!(
        "Bresenham line {} → {}\n  dx = {}, dy = {}, sx = {:+}, sy = {:+}: {maj} is the major axis ({})\n  f starts at 2{dmin} − {dmaj} = {}; each step: if f >= 0 {{ {min} += s{min}; f −= 2{dmaj} }}, then {maj} += s{maj}; f += 2{dmin}\n",
        l.from,
        l.to,
        l.dx,
        l.dy,
        l.sx,
        l.sy,
        if l.x_major() { "dx >= dy" } else { "dy > dx" },
        l.f0()
    )
}

/// A small ASCII picture of the line (`A` start, `B` end, `*` cells), or
/// `None` when it would be wider than 72 or taller than 36 characters.
pub fn picture(l: &Line) -> Option<String> {
    let (x0, x1) = (l.from.x.min(l.to.x) as i64, l.from.x.max(l.to.x) as i64);
    let (y0, y1) = (l.from.y.min(l.to.y) as i64, l.from.y.max(l.to.y) as i64);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    if w > 72 || h > 36 {
        return None;
    }
    let mut rows = vec![vec!['.'; w as usize]; h as usize];
    let mut put =
        |c: Cell, ch: char| rows[(c.y as i64 - y0) as usize][(c.x as i64 - x0) as usize] = ch;
    for st in l.stepper() {
        put(st.cell, '*');
    }
    put(l.from, 'A');
    put(l.to, 'B');
    Some(
        rows.into_iter()
            .map(|r| r.into_iter().collect::<String>() + "\n")
            .collect(),
    )
}

/// What `flockstep path` prints: the map with the path (default), JSON, or
/// the open list after every step.
pub fn path(
    file: &str,
    grid: &Grid,
    from: Cell,
    to: Cell,
    cfg: &SearchConfig,
    json: bool,
    trace: bool,
) -> Result<String, Failure> {
    for (what, c) in [("--from", from), ("--to", to)] {
        if !grid.contains(c) {
            return Err(bad(format!(
                "{what} {c} is off the {}×{} map {file}",
                grid.width(),
                grid.height()
            )));
        }
        if grid.is_wall(c) {
            return Err(bad(format!("{what} {c} is inside a wall of {file}")));
        }
    }
    let mut s = String::new();
    if trace {
        return Ok(path_trace(grid, from, to, cfg));
    }
    let start = Instant::now();
    let out = crate::sim::path::search(grid, from, to, cfg, &mut NoTrace);
    let micros = start.elapsed().as_micros();
    let show = |c: u64| cfg.moves.show(c);
    if json {
        let cost = out.cost.map_or("null".to_owned(), show);
        let cells: Vec<String> = out
            .path
            .iter()
            .map(|c| format!("[{},{}]", c.x, c.y))
            .collect();
        let _ = writeln!(
            s,
            "{{\"cost\": {cost}, \"path\": [{}], \"expanded\": {}, \"micros\": {micros}}}",
            cells.join(","),
            out.expanded
        );
        return Ok(s);
    }
    s.push_str(&crate::sim::path::ascii::draw(
        grid, None, from, to, &out.path,
    ));
    let _ = writeln!(s);
    match out.cost {
        Some(c) => {
            let _ = writeln!(s, "cost      {} ({} moves)", show(c), out.path.len() - 1);
        }
        None => {
            let _ = writeln!(s, "cost      none: the goal cannot be reached");
        }
    }
    let _ = writeln!(s, "expanded  {} cells", out.expanded);
    let _ = writeln!(s, "search    {micros} µs ({})", cfg.label);
    if !cfg.heuristic.is_admissible(cfg.moves) {
        let _ = writeln!(
            s,
            "warning   {} is not admissible: the path may not be the cheapest",
            inadmissible(cfg)
        );
    }
    Ok(s)
}

/// Reads a map file (`-`: standard input), ASCII or Moving AI.
fn load_map(map: &str) -> Result<Grid, Failure> {
    let bytes = if map == "-" {
        let stdin = std::io::stdin().lock();
        crate::files::read_bounded(stdin, "standard input", MAX_MAP_BYTES, "a map")
    } else {
        crate::files::read_file_bounded(Path::new(map), MAX_MAP_BYTES, "a map")
    }
    .map_err(bad)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "{map}: byte {}: not UTF-8 text; a map is rows of 0-9 and #",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Grid::read(&text).map_err(|e| bad(format!("{map}:{e}")))
}

/// `--heuristic NAME`, or the default for `moves`: Euclidean (article
/// 001) for 4-way moves, octile for 8-way ones.
fn heuristic_kind(name: Option<&str>, moves: Moves) -> HeuristicKind {
    match (name, moves) {
        (Some("manhattan"), _) => HeuristicKind::Manhattan,
        (Some("zero"), _) => HeuristicKind::Zero,
        (Some("octile"), _) | (None, Moves::Eight) => HeuristicKind::Octile,
        _ => HeuristicKind::Euclidean,
    }
}

/// A tie-break by its name (checked by the parser).
fn tie_break_named(name: &str) -> TieBreak {
    TieBreak::NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(TieBreak::Fifo, |(_, t)| *t)
}

/// Why a search's heuristic is not admissible, for a warning.
fn inadmissible(cfg: &SearchConfig) -> String {
    let h = cfg.heuristic;
    if h.kind == HeuristicKind::Manhattan
        && cfg.moves == Moves::Eight
        && h.weight <= crate::num::Fx::ONE
    {
        format!(
            "manhattan (w = {}) with 8-way moves (a diagonal costs √2 but lowers it by 2; at most w = 0.7)",
            h.weight
        )
    } else {
        format!("heuristic weight {} > 1", h.weight)
    }
}

/// The `--trace` of a search: each step's expansion and the open list after it.
pub fn path_trace(grid: &Grid, from: Cell, to: Cell, cfg: &SearchConfig) -> String {
    use crate::sim::Sim;
    use crate::sim::path::ascii::q16;
    let mut sim = crate::sim::path::PathSim::new(crate::sim::path::PathConfig {
        grid: grid.clone(),
        start: from,
        goal: to,
        searches: vec![cfg.clone()],
    })
    .expect("checked by the caller");
    let w = grid.width();
    let show = |c: u64| cfg.moves.show(c);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "A* trace: {from} → {to}, {}, tie-break {:?}; f = g + h (h to 2 decimals)",
        cfg.label, cfg.tie_break
    );
    while !sim.done() {
        let mut events: Vec<PathEvent> = Vec::new();
        sim.step(&mut events);
        let st = &sim.state().searches[0];
        for e in &events {
            match e {
                PathEvent::NotAdmissible { .. } => {
                    let _ = writeln!(s, "warning: {} is not admissible", inadmissible(cfg));
                }
                PathEvent::Expanded {
                    cell, g, f16, held, ..
                } => {
                    let _ = write!(
                        s,
                        "step {:>4}: expand {cell} g={} f={}",
                        sim.tick(),
                        show(*g),
                        q16(*f16)
                    );
                    if held < g {
                        let _ = write!(s, " (stale: the cell has g={})", show(*held));
                    }
                }
                PathEvent::Pushed { cell, g, h16, .. } => {
                    let _ = write!(s, "; push {cell} g={} h={}", show(*g), q16(*h16));
                }
                PathEvent::Improved {
                    cell,
                    old_g,
                    g,
                    reopened,
                    ..
                } => {
                    let _ = write!(
                        s,
                        "; improve {cell} g {}→{}{}",
                        show(*old_g),
                        show(*g),
                        if *reopened { " (reopened)" } else { "" }
                    );
                }
                PathEvent::Skipped { cell, why, .. } => {
                    let _ = write!(s, "; skip {cell} ({why:?})");
                }
                PathEvent::Found { cost, .. } => {
                    let _ = write!(s, "; goal reached, cost {}", show(*cost));
                }
                PathEvent::Unreachable { .. } => {
                    let _ = write!(
                        s,
                        "step {:>4}: the open list is empty: unreachable",
                        sim.tick()
                    );
                }
            }
        }
        let _ = writeln!(s);
        let open: Vec<String> = st
            .open_in_order(cfg.closed_set)
            .iter()
            .map(|e| crate::sim::path::ascii::open_entry(e, cfg.moves))
            .collect();
        let _ = writeln!(s, "           open [{}]", open.join(", "));
    }
    let st = &sim.state().searches[0];
    let p = st.path(w, to);
    s.push_str(&crate::sim::path::ascii::draw(grid, Some(st), from, to, &p));
    let _ = match st.status {
        Status::Found(c) => writeln!(s, "cost {}, expanded {}", show(c), st.expanded),
        _ => writeln!(s, "unreachable, expanded {}", st.expanded),
    };
    s
}
