//! Lesson files: a scenario to simulate and the narration beats that walk a
//! student through it, in TOML.
//!
//! ```toml
//! [lesson]
//! id = "line-error-term"          # lowercase letters, digits and '-'
//! title = "The error term"
//! summary = "One line, one cell per tick, integers only."
//! ticks = 14                      # how long `flockstep run` runs by default
//!
//! [scenario]
//! sim = "line"                    # which simulation; the other keys are its parameters
//! width = 16
//! height = 8
//! targets = [[13, 5]]
//!
//! [[scenario.chasers]]
//! at = [1, 1]
//!
//! [[beat]]
//! at = 0                          # the tick it applies from
//! text = "The chaser wants to reach the target."
//! translations = { ja = "…" }     # optional, chosen with --lang
//! overlays = ["grid", "plan"]     # what the viewer draws
//! highlight = ["chaser:0"]        # what it emphasises
//! pause = true                    # stop the clock until the teacher continues
//! focus = ["chaser:0"]            # entities whose overlays draw without a click
//! zoom = 200                      # optional: the camera's zoom (percent) ...
//! center = [7, 4]                 # ... and centre (world point or cell)
//! pitch = 89                      # 3-D flocks: the camera's tilt and turn (degrees)
//! ```
//!
//! Beats are steps: several may share a tick, and then every one but the
//! last must pause (so playing never passes one unseen). `[lesson]` may set
//! `rate`, the ticks per second at 1× (default: the sim's, see
//! [`sims::Registration::default_rate`]). Entities may be named (`name = "A"` on a chaser or a
//! placed boid, `target_names = ["a"]`): the picture and panels use the
//! names.
//!
//! Parsing is strict: an unknown key, a value of the wrong type or out of
//! range, a cell off the grid or inside a wall is an error naming the file,
//! line and column. `--set KEY=VALUE` overrides a scenario parameter before
//! it is checked (`KEY` may be a dotted path such as `chasers.0.at`).
//! Decimal numbers are read from their source text, never through a float.

pub mod callout;
mod flock;
mod line;
pub mod node;
mod path;
pub mod schema;
pub mod sims;
pub mod variants;

pub use callout::Callout;
pub use flock::OVERLAYS as FLOCK_OVERLAYS;
pub use line::OVERLAYS as LINE_OVERLAYS;
pub use path::OVERLAYS as PATH_OVERLAYS;
pub use path::default_label as default_path_label;
pub use variants::PaneName;

use crate::sim::Scenario;
use node::{Ctx, Kind, Node, Params, SetArg};
use serde::Deserialize;
use sims::Registration;
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// Display names of a lesson's entities, by reference (`chaser:0` → `A`).
/// Entities without one are named by the scene's defaults (chasers A, B,
/// …, targets a, b, …, `boid N`).
pub type Names = BTreeMap<String, String>;

/// The longest run a lesson may ask for.
pub const MAX_TICKS: u64 = 1_000_000_000;

/// What is wrong with a lesson, for a program to match on (the message
/// says it for a person, with the place).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LessonErrorKind {
    /// Not TOML, or a section or value of the wrong shape for a lesson.
    Syntax,
    /// A key nothing reads; `suggestion` is the nearest known key, if one
    /// is close.
    UnknownKey {
        /// The key as written.
        key: String,
        /// The known key it is probably meant to be.
        suggestion: Option<String>,
    },
    /// A key of another model of the sim (`view_range` in a weighted flock).
    OtherModelKey {
        /// The key as written.
        key: String,
    },
    /// A required key is missing.
    Missing {
        /// The key.
        key: String,
    },
    /// A value of the wrong type (a string where a number goes), or a
    /// number that does not read.
    WrongType {
        /// The key.
        key: String,
    },
    /// A number outside its range.
    OutOfRange {
        /// The key.
        key: String,
    },
    /// A name that is not one of the key's choices.
    NotAChoice {
        /// The key.
        key: String,
    },
    /// `sim = "…"` names no registered sim.
    UnknownSim {
        /// The name as written.
        name: String,
    },
    /// A map that does not read.
    Map(crate::sim::GridErrorKind),
    /// A `--set` argument that is not a value or does not fit the lesson.
    Set,
    /// Values that are each well formed but break a rule of the lesson (a
    /// beat before the previous one, a boid outside the world box, an
    /// overlay the sim does not have): the message says which.
    Invalid,
    /// Not text: the file stops being UTF-8 at byte `offset` (a picture,
    /// a replay renamed).
    NotText {
        /// The first byte that is not UTF-8.
        offset: usize,
    },
}

/// A lesson that could not be loaded: file, 1-based line and column (both
/// 0 when the problem is in a `--set` argument rather than the file), and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// What is wrong, for a program.
    pub kind: LessonErrorKind,
    /// The file, as named to the loader.
    pub file: String,
    /// 1-based line, or 0.
    pub line: usize,
    /// 1-based column in characters, or 0.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl std::error::Error for LessonError {}

impl From<LessonError> for String {
    fn from(e: LessonError) -> String {
        e.to_string()
    }
}

impl LessonError {
    /// The same error, of this kind.
    pub fn with_kind(mut self, kind: LessonErrorKind) -> LessonError {
        self.kind = kind;
        self
    }
}

/// The most dotted parts an override's key may have (the deepest real
/// key, `searches.0.heuristic`, has three; the table it builds is walked
/// recursively).
pub const MAX_KEY_PARTS: usize = 16;

/// The longest override key, in bytes.
pub const MAX_KEY_LEN: usize = 256;

/// A `--set KEY=VALUE` override of a scenario parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    /// The key path, split at dots (`chasers.0.at` → `["chasers", "0", "at"]`).
    pub path: Vec<String>,
    /// The value as written; read as TOML (`true`, `3`, `0.5`, `[1, 2]`,
    /// `"text"`), and as a plain string if it is not TOML.
    pub value: String,
    /// The argument as given, for messages.
    pub arg: String,
}

impl Override {
    /// Parses `KEY=VALUE`; an error is of kind [`LessonErrorKind::Set`],
    /// its file `--set`.
    pub fn parse(arg: &str) -> Result<Override, LessonError> {
        Override::parse_text(arg).map_err(|message| LessonError {
            kind: LessonErrorKind::Set,
            file: "--set".into(),
            line: 0,
            column: 0,
            message,
        })
    }

    fn parse_text(arg: &str) -> Result<Override, String> {
        let Some((key, value)) = arg.split_once('=') else {
            return Err(format!("`{arg}` is not KEY=VALUE"));
        };
        let path: Vec<String> = key.trim().split('.').map(str::to_owned).collect();
        if path.len() > MAX_KEY_PARTS || key.len() > MAX_KEY_LEN {
            return Err(format!(
                "a parameter name has at most {MAX_KEY_PARTS} dotted parts and {MAX_KEY_LEN} characters; this one has {} and {}",
                path.len(),
                key.len()
            ));
        }
        if path
            .iter()
            .any(|p| p.is_empty() || !p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return Err(format!(
                "`{key}` is not a parameter name (letters, digits, '_', dotted paths)"
            ));
        }
        Ok(Override {
            path,
            value: value.trim().to_owned(),
            arg: arg.to_owned(),
        })
    }
}

/// One narration beat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beat {
    /// The tick it applies from.
    pub at: u64,
    /// The narration, in English.
    pub text: String,
    /// The narration in other languages, by language tag (`ja`, `pt-BR`).
    pub translations: BTreeMap<String, String>,
    /// The overlays the viewer shows during this beat.
    pub overlays: Vec<String>,
    /// What the viewer emphasises.
    pub highlight: Vec<String>,
    /// Whether the clock stops here until the teacher continues.
    pub pause: bool,
    /// The entities whose per-rule overlays draw without a click and that
    /// the camera frames (`boid:0`, `chaser:1`, `search:2`, `cell:3,4`);
    /// empty: the entity highlights.
    pub focus: Vec<String>,
    /// The camera's zoom in percent (100 fits the world).
    pub zoom: Option<u16>,
    /// The camera's centre: a world point (flock) or a cell (line, path);
    /// `None` centres the focus when zoomed, else the world.
    pub center: Option<[i64; 3]>,
    /// 3-D flocks: the camera's turn around the vertical, in degrees.
    pub yaw: Option<i32>,
    /// 3-D flocks: the camera's tilt in degrees (90 looks straight down).
    pub pitch: Option<i32>,
    /// A prediction the class makes before the next beat shows the answer
    /// ("Which cell will A* expand next?"). The viewer shows it apart from
    /// the narration, and the beat always pauses.
    pub question: Option<String>,
    /// The question in other languages, by language tag.
    pub question_translations: BTreeMap<String, String>,
    /// Figures put on the picture, next to what they are about.
    pub callouts: Vec<Callout>,
    /// A title the status line shows for this beat instead of the
    /// lesson's (a question whose answer the lesson's title gives away).
    pub title: Option<String>,
    /// The beat's title in other languages, by language tag.
    pub title_translations: BTreeMap<String, String>,
    /// A parameter the class is invited to change here (`try =
    /// "w_cohesion"`): one its sim varies while it runs. The viewer opens
    /// its parameter panel on this control.
    pub try_key: Option<String>,
    /// What the narration adds once the class has changed `try_key`: the
    /// outcome to look for.
    pub after: Option<String>,
    /// `after` in other languages, by language tag.
    pub after_translations: BTreeMap<String, String>,
}

impl Beat {
    /// What the narration adds once the class tried the beat's what-if,
    /// in `lang` (else in English).
    pub fn after_in(&self, lang: Option<&str>) -> Option<&str> {
        let a = self.after.as_deref()?;
        Some(
            lang.and_then(|l| self.after_translations.get(l))
                .map_or(a, String::as_str),
        )
    }

    /// The beat's own title in `lang` (else in English), if it has one.
    pub fn title_in(&self, lang: Option<&str>) -> Option<&str> {
        let t = self.title.as_deref()?;
        Some(
            lang.and_then(|l| self.title_translations.get(l))
                .map_or(t, String::as_str),
        )
    }

    /// The question in `lang` if the beat has it there, else in English.
    pub fn question_in(&self, lang: Option<&str>) -> Option<&str> {
        let q = self.question.as_deref()?;
        Some(
            lang.and_then(|l| self.question_translations.get(l))
                .map_or(q, String::as_str),
        )
    }

    /// The narration in `lang` if the beat has it, else in English.
    pub fn text_in(&self, lang: Option<&str>) -> &str {
        lang.and_then(|l| self.translations.get(l))
            .map_or(&self.text, String::as_str)
    }
}

/// A loaded, checked lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// Short id (the file stem for bundled lessons).
    pub id: String,
    /// One-line title.
    pub title: String,
    /// The title by language tag (`title_translations = { ja = "…" }`).
    pub title_translations: BTreeMap<String, String>,
    /// A sentence or two on what the lesson shows.
    pub summary: String,
    /// The summary by language tag.
    pub summary_translations: BTreeMap<String, String>,
    /// Default run length in ticks.
    pub ticks: u64,
    /// The checked scenario.
    pub scenario: Scenario,
    /// Its sim's registration (`sim = "…"`).
    pub sim: &'static dyn Registration,
    /// The narration, in tick order.
    pub beats: Vec<Beat>,
    /// Playback speed at 1×, in ticks per second (`None`: its sim's [`Registration::default_rate`]).
    pub rate: Option<u32>,
    /// Where the lesson sits in a course: a track (`"boids"`) and its
    /// place on it, from 1 (`course = ["boids", 2]`). The picker and
    /// `flockstep lessons` list each sim's lessons in this order.
    pub course: Option<(String, u32)>,
    /// Entity names the scenario gives (with variants: the first's).
    pub names: Names,
    /// The variants' pane titles, in pane order; for a path lesson, its
    /// searches' labels (`label`, `label_translations`); else empty.
    pub panes: Vec<PaneName>,
    /// The scalar scenario values each pane runs with (a variant, or a
    /// path lesson's search), by key: what a callout's `{param.NAME}`
    /// shows.
    pub params: Vec<BTreeMap<String, String>>,
    /// The title the status line shows on a question's beat, when the
    /// lesson's own would give the answer away.
    pub predict_title: Option<String>,
    /// The predict title by language tag.
    pub predict_title_translations: BTreeMap<String, String>,
    /// The inputs the lesson makes itself (`[lesson] inputs`), in tick
    /// order.
    pub inputs: Vec<Scripted>,
}

/// An input a lesson makes itself: `[lesson] inputs = ["300:set:w_cohesion=0",
/// "40:wall:12,7"]`, each `TICK:INPUT` as `record --input` takes it. They
/// are the lesson as written, a what-if the teacher scripted: made every
/// time the lesson plays (in the viewer, by `record`, in the golden
/// recordings), recorded in a replay's frames as any input is, each before
/// any a class makes at the same tick. A change of a parameter is checked
/// when the lesson loads, with the changes before it, as `--set` is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scripted {
    /// The tick the input leads into (1 or later).
    pub tick: u64,
    /// The input.
    pub input: crate::sim::Input,
    /// Where the lesson file writes it: 1-based line and column.
    pub line: usize,
    /// See `line`.
    pub column: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    lesson: RawMeta,
    scenario: Node,
    #[serde(default)]
    beat: Vec<Spanned<RawBeat>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeta {
    id: Spanned<String>,
    title: String,
    #[serde(default)]
    title_translations: BTreeMap<Spanned<String>, String>,
    summary: String,
    #[serde(default)]
    summary_translations: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    predict_title: Option<String>,
    #[serde(default)]
    predict_title_translations: BTreeMap<Spanned<String>, String>,
    ticks: Spanned<u64>,
    #[serde(default)]
    rate: Option<Spanned<i64>>,
    #[serde(default)]
    course: Option<Spanned<(String, i64)>>,
    #[serde(default)]
    inputs: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBeat {
    at: Spanned<u64>,
    text: Spanned<String>,
    #[serde(default)]
    translations: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    overlays: Vec<Spanned<String>>,
    #[serde(default)]
    highlight: Vec<Spanned<String>>,
    #[serde(default)]
    pause: bool,
    #[serde(default)]
    focus: Vec<Spanned<String>>,
    #[serde(default)]
    zoom: Option<Spanned<i64>>,
    #[serde(default)]
    center: Option<Spanned<Vec<i64>>>,
    #[serde(default)]
    yaw: Option<Spanned<i64>>,
    #[serde(default)]
    pitch: Option<Spanned<i64>>,
    #[serde(default)]
    question: Option<Spanned<String>>,
    #[serde(default)]
    question_translations: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    callouts: Vec<Spanned<callout::RawCallout>>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    title_translations: BTreeMap<Spanned<String>, String>,
    #[serde(default, rename = "try")]
    try_key: Option<Spanned<String>>,
    #[serde(default)]
    after: Option<Spanned<String>>,
    #[serde(default)]
    after_translations: BTreeMap<Spanned<String>, String>,
}

/// Marks a node and everything inside it as coming from `--set` number `i`.
fn mark(node: &mut Node, i: usize) {
    node.set = Some(i);
    match &mut node.kind {
        Kind::Array(items) => items.iter_mut().for_each(|n| mark(n, i)),
        Kind::Table(entries) => entries.iter_mut().for_each(|(_, _, n)| mark(n, i)),
        _ => {}
    }
}

/// Puts `value` at `path` inside `node`, creating tables on the way.
fn set_path(
    ctx: &Ctx,
    node: &mut Node,
    path: &[String],
    value: Node,
    i: usize,
) -> Result<(), LessonError> {
    let arg = &ctx.sets[i].arg;
    let fail = |m: String| LessonError {
        kind: LessonErrorKind::Set,
        file: ctx.file.to_owned(),
        line: 0,
        column: 0,
        message: format!("--set {}: {m}", clip(arg)),
    };
    let (head, rest) = path.split_first().expect("override paths are non-empty");
    match &mut node.kind {
        Kind::Table(entries) => {
            let pos = entries.iter().position(|(k, _, _)| k == head);
            if rest.is_empty() {
                match pos {
                    Some(p) => entries[p].2 = value,
                    None => entries.push((head.clone(), value.span.clone(), value)),
                }
                return Ok(());
            }
            let p = match pos {
                Some(p) => p,
                None => {
                    let mut t = Node {
                        kind: Kind::Table(Vec::new()),
                        span: value.span.clone(),
                        set: None,
                    };
                    mark(&mut t, i);
                    entries.push((head.clone(), value.span.clone(), t));
                    entries.len() - 1
                }
            };
            set_path(ctx, &mut entries[p].2, rest, value, i)
        }
        Kind::Array(items) => {
            let len = items.len();
            let idx: usize = head
                .parse()
                .map_err(|_| fail(format!("`{head}` is not an index into a list")))?;
            let Some(item) = items.get_mut(idx) else {
                return Err(fail(format!(
                    "index {idx} is past the end of a list of {len}"
                )));
            };
            if rest.is_empty() {
                *item = value;
                Ok(())
            } else {
                set_path(ctx, item, rest, value, i)
            }
        }
        _ => Err(fail(format!(
            "`{head}` is inside a value that is neither a table nor a list"
        ))),
    }
}

fn toml_error(file: &str, src: &str, e: &toml::de::Error) -> LessonError {
    let (line, column) = e.span().map_or((1, 1), |s| node::line_col(src, s.start));
    LessonError {
        kind: LessonErrorKind::Syntax,
        file: file.to_owned(),
        line,
        column,
        message: toml_message(e),
    }
}

/// The `toml` crate's message, with its internal name for dates replaced.
fn toml_message(e: &toml::de::Error) -> String {
    let m = e.message().trim();
    if m.contains("$__toml_private_datetime") {
        "a date or time, which no parameter takes".to_owned()
    } else if m == "recursion limit" {
        "tables, arrays or dotted keys nested too deeply".to_owned()
    } else {
        m.to_owned()
    }
}

/// Whether an override's value reads as a plain word (`gems`,
/// `in_place`): such values are taken as strings without quotes. Anything
/// else (a digit, a sign, a bracket, a quote first) must be valid TOML.
fn bare_word(v: &str) -> bool {
    v.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && !matches!(v, "inf" | "nan")
}

/// A user's text shortened for a message: at most 80 characters, the cut
/// marked.
pub fn clip(s: &str) -> String {
    match s.char_indices().nth(80) {
        Some((at, _)) => format!("{}… ({} bytes in all)", &s[..at], s.len()),
        None => s.to_owned(),
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-')
}

fn valid_lang(tag: &str) -> bool {
    (2..=12).contains(&tag.len()) && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// A table of texts by language tag, each tag checked.
fn lang_table(
    ctx: &Ctx,
    table: BTreeMap<Spanned<String>, String>,
) -> Result<BTreeMap<String, String>, LessonError> {
    let mut out = BTreeMap::new();
    for (lang, text) in table {
        if !valid_lang(lang.get_ref()) {
            return Err(ctx.at(
                lang.span().start,
                format!(
                    "`{}` is not a language tag (such as ja or pt-BR)",
                    lang.get_ref()
                ),
            ));
        }
        out.insert(lang.into_inner(), text);
    }
    Ok(out)
}

/// Checks a beat's overlays, highlights and focus against its sim and
/// scenario.
fn check_references(
    ctx: &Ctx,
    b: &RawBeat,
    scenario: &Scenario,
    reg: &dyn Registration,
) -> Result<(), LessonError> {
    let (sim, overlays) = (reg.name(), reg.overlays());
    for o in &b.overlays {
        if !overlays.contains(&o.get_ref().as_str()) {
            let known = match overlays {
                [] => "it has none (a user's sim declares them: Registered::with_overlays)".into(),
                _ => format!("known overlays: {}", overlays.join(", ")),
            };
            let msg = format!("unknown overlay `{}` for sim {sim}; {known}", o.get_ref());
            return Err(ctx.at(o.span().start, msg));
        }
    }
    for h in &b.highlight {
        reg.check_highlight(h.get_ref())
            .map_err(|e| e.to_string())
            .and_then(|()| check_entity(scenario, h.get_ref()))
            .map_err(|m| ctx.at(h.span().start, m))?;
    }
    for f in &b.focus {
        check_focus(reg, f.get_ref())
            .and_then(|()| check_entity(scenario, f.get_ref()))
            .map_err(|m| ctx.at(f.span().start, m))?;
    }
    Ok(())
}

/// A beat's camera: a 3-D flock's (zoom, centre, yaw, pitch), each checked.
type BeatCamera = (Option<u16>, Option<[i64; 3]>, Option<i32>, Option<i32>);

/// The camera a beat asks for, checked: zoom 20..=3200 %, a centre
/// within the coordinate limit, yaw and pitch in degrees (flocks only).
fn camera_of(ctx: &Ctx, b: &RawBeat, reg: &dyn Registration) -> Result<BeatCamera, LessonError> {
    let zoom = match &b.zoom {
        None => None,
        Some(z) if (20..=3200).contains(z.get_ref()) => Some(*z.get_ref() as u16),
        Some(z) => {
            return Err(ctx.at(z.span().start, "`zoom` is a percentage in 20..=3200"));
        }
    };
    let center = match &b.center {
        None => None,
        Some(c) => {
            let v = c.get_ref();
            let lim = i64::from(crate::sim::flock::COORD_LIMIT);
            if !(2..=3).contains(&v.len()) || v.iter().any(|x| x.abs() > lim) {
                return Err(ctx.at(
                    c.span().start,
                    format!("`center` is [x, y] or [x, y, z], whole numbers within ±{lim}"),
                ));
            }
            Some([v[0], v[1], v.get(2).copied().unwrap_or(0)])
        }
    };
    let degrees =
        |v: &Option<Spanned<i64>>, key: &str, range: std::ops::RangeInclusive<i64>| match v {
            Some(d) if !range.contains(d.get_ref()) => Err(ctx.at(
                d.span().start,
                format!("`{key}` is in degrees, {}..={}", range.start(), range.end()),
            )),
            Some(d) if reg.id() != sims::FLOCK => Err(ctx.at(
                d.span().start,
                format!(
                    "`{key}` turns a 3-D flock's camera; a {} lesson has none",
                    reg.name()
                ),
            )),
            Some(d) => Ok(Some(*d.get_ref() as i32)),
            None => Ok(None),
        };
    let yaw = degrees(&b.yaw, "yaw", -360..=360)?;
    let pitch = degrees(&b.pitch, "pitch", -89..=89)?;
    Ok((zoom, center, yaw, pitch))
}

/// Checks one beat and turns it into a [`Beat`].
fn beat(
    ctx: &Ctx,
    i: usize,
    mut b: RawBeat,
    ticks: u64,
    (scenario, params): (&Scenario, &[BTreeMap<String, String>]),
    reg: &dyn Registration,
) -> Result<Beat, LessonError> {
    let at = *b.at.get_ref();
    if at > ticks {
        return Err(ctx.at(
            b.at.span().start,
            format!(
                "beat {} is at tick {at}, after the lesson's {ticks} ticks",
                i + 1
            ),
        ));
    }
    if b.text.get_ref().trim().is_empty() {
        return Err(ctx.at(b.text.span().start, format!("beat {} has no text", i + 1)));
    }
    let translations = lang_table(ctx, std::mem::take(&mut b.translations))?;
    check_references(ctx, &b, scenario, reg)?;
    let (zoom, center, yaw, pitch) = camera_of(ctx, &b, reg)?;
    let (question, question_translations) = question(
        ctx,
        i,
        (&b.question, &b.question_translations),
        &translations,
    )?;
    let (try_key, after, after_translations) =
        invitation(ctx, i, &b, (scenario, reg), &translations)?;
    let langs: Vec<&String> = translations.keys().collect();
    let callouts = callout::check(ctx, b.callouts, (scenario, params), &langs, reg)?;
    let title_translations = lang_table(ctx, b.title_translations)?;
    Ok(Beat {
        at,
        text: b.text.into_inner(),
        translations,
        overlays: b.overlays.into_iter().map(Spanned::into_inner).collect(),
        highlight: b.highlight.into_iter().map(Spanned::into_inner).collect(),
        focus: b.focus.into_iter().map(Spanned::into_inner).collect(),
        zoom,
        center,
        yaw,
        pitch,
        pause: b.pause || question.is_some(),
        question,
        question_translations,
        callouts,
        title: b.title,
        title_translations,
        try_key,
        after,
        after_translations,
    })
}

/// A beat's `try` key, its `after` and the translations of `after`.
type Invitation = (Option<String>, Option<String>, BTreeMap<String, String>);

/// A beat's what-if: the key it invites the class to change (one its sim
/// varies while running) and what to look for after, in every language
/// the narration is in (and only those).
fn invitation(
    ctx: &Ctx,
    i: usize,
    b: &RawBeat,
    (scenario, reg): (&Scenario, &dyn Registration),
    translations: &BTreeMap<String, String>,
) -> Result<Invitation, LessonError> {
    let Some(key) = &b.try_key else {
        if let Some(a) = &b.after {
            return Err(ctx.at(
                a.span().start,
                format!(
                    "beat {} says what to see `after` but names nothing to `try`",
                    i + 1
                ),
            ));
        }
        return Ok((None, None, BTreeMap::new()));
    };
    if !crate::replay::live::varies(reg.params(), key.get_ref()) {
        return Err(ctx.at(
            key.span().start,
            format!(
                "beat {}: `try = \"{}\"` is not a parameter a class can change while a {} sim runs; these are: {}",
                i + 1,
                key.get_ref(),
                reg.name(),
                crate::replay::live::vary_keys(reg.params(), crate::replay::live::model_of(scenario))
                    .join(", ")
            ),
        ));
    }
    let after = match &b.after {
        Some(a) if a.get_ref().trim().is_empty() => {
            return Err(ctx.at(a.span().start, format!("beat {}'s `after` is empty", i + 1)));
        }
        a => a.as_ref().map(|a| a.get_ref().clone()),
    };
    let mut out = BTreeMap::new();
    for (lang, text) in &b.after_translations {
        if after.is_none() || !translations.contains_key(lang.get_ref()) {
            return Err(ctx.at(
                lang.span().start,
                format!(
                    "beat {} translates `after` into `{}`, but {}",
                    i + 1,
                    lang.get_ref(),
                    if after.is_none() {
                        "has no `after`"
                    } else {
                        "its narration is not in it"
                    }
                ),
            ));
        }
        out.insert(lang.get_ref().clone(), text.clone());
    }
    if let (Some(a), Some(missing)) = (
        &b.after,
        translations.keys().find(|l| !out.contains_key(*l)),
    ) {
        return Err(ctx.at(
            a.span().start,
            format!("beat {}'s narration is in `{missing}` but its `after` is not (add after_translations)", i + 1),
        ));
    }
    Ok((Some(key.get_ref().clone()), after, out))
}

/// A raw beat's question and its translations.
type RawQuestion<'a> = (
    &'a Option<Spanned<String>>,
    &'a BTreeMap<Spanned<String>, String>,
);

/// A beat's question and its translations: not empty, and in every
/// language the narration is translated into (and only those).
fn question(
    ctx: &Ctx,
    i: usize,
    (asked, asked_in): RawQuestion,
    translations: &BTreeMap<String, String>,
) -> Result<(Option<String>, BTreeMap<String, String>), LessonError> {
    let Some(q) = asked else {
        if let Some((lang, _)) = asked_in.iter().next() {
            return Err(ctx.at(
                lang.span().start,
                format!("beat {} translates a question it does not ask", i + 1),
            ));
        }
        return Ok((None, BTreeMap::new()));
    };
    if q.get_ref().trim().is_empty() {
        return Err(ctx.at(
            q.span().start,
            format!("beat {} asks an empty question", i + 1),
        ));
    }
    let mut out = BTreeMap::new();
    for (lang, text) in asked_in {
        if !translations.contains_key(lang.get_ref()) {
            return Err(ctx.at(
                lang.span().start,
                format!(
                    "beat {}'s question is in `{}`, its narration is not",
                    i + 1,
                    lang.get_ref()
                ),
            ));
        }
        out.insert(lang.get_ref().clone(), text.clone());
    }
    if let Some(missing) = translations.keys().find(|l| !out.contains_key(*l)) {
        return Err(ctx.at(
            q.span().start,
            format!(
                "beat {}'s narration is in `{missing}` but its question is not (add question_translations)",
                i + 1
            ),
        ));
    }
    Ok((Some(q.get_ref().clone()), out))
}

/// Checks a `focus` entry: an entity of the sim (`boid:N`, `obstacle:N`;
/// `chaser:N`, `target:N`, `cell:X,Y`; `search:N`, `cell:X,Y`, `start`,
/// `goal`).
fn check_focus(reg: &dyn Registration, f: &str) -> Result<(), String> {
    let (sim, kinds) = (reg.name(), reg.focus_kinds());
    let kind = f.split_once(':').map_or(f, |(k, _)| k);
    let well_formed = match f.split_once(':') {
        Some(("cell", xy)) => line::is_cell(xy),
        Some((_, n)) => n.parse::<u32>().is_ok(),
        None => matches!(f, "start" | "goal"),
    };
    if kinds.contains(&kind) && well_formed {
        Ok(())
    } else {
        Err(format!(
            "`{f}` is not an entity a {sim} beat can focus on; use {}",
            kinds
                .iter()
                .map(|k| match *k {
                    "cell" => "cell:X,Y".to_owned(),
                    "start" | "goal" => (*k).to_owned(),
                    k => format!("{k}:N"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// Checks that an entity reference names something the scenario has
/// (`boid:7` of a flock of 40, `cell:3,4` on the grid); other highlights
/// (`rule:…`, `blocker`) pass.
fn check_entity(scenario: &Scenario, r: &str) -> Result<(), String> {
    let Some((kind, rest)) = r.split_once(':') else {
        return Ok(());
    };
    let count = |n: u64, what: &str| -> Result<(), String> {
        match rest.parse::<u64>() {
            Ok(i) if i < n => Ok(()),
            _ => Err(format!(
                "`{r}`: the scenario has {n} {what}{} (0..{n})",
                if n == 1 { "" } else { "s" }
            )),
        }
    };
    let grid = match scenario {
        Scenario::Line(c) => Some(&c.grid),
        Scenario::Path(c) => Some(&c.grid),
        Scenario::Flock(_) | Scenario::Custom(_) => None,
        // An entity must be in every pane; `pane:N` names a pane.
        Scenario::Panes(p) if kind == "pane" => return count(p.len() as u64, "variant"),
        Scenario::Panes(p) => return p.iter().try_for_each(|s| check_entity(s, r)),
    };
    if kind == "pane" {
        return Err(format!(
            "`{r}`: the lesson declares no variants ([[scenario.variants]])"
        ));
    }
    match (scenario, kind) {
        (Scenario::Flock(c), "boid") => count(c.boid_count(), "boid"),
        (Scenario::Flock(c), "obstacle") => count(c.obstacles.len() as u64, "obstacle"),
        (Scenario::Line(c), "chaser") => count(c.chasers.len() as u64, "chaser"),
        (Scenario::Line(c), "target") => count(c.targets.len() as u64, "target"),
        (Scenario::Path(c), "search") => count(c.searches.len() as u64, "search"),
        (_, "cell") => {
            let (x, y) = rest.split_once(',').unwrap_or(("", ""));
            let cell = x
                .trim()
                .parse()
                .ok()
                .zip(y.trim().parse().ok())
                .map(|(x, y)| crate::sim::Cell::new(x, y));
            match (cell, grid) {
                (Some(c), Some(g)) if g.contains(c) => Ok(()),
                (_, Some(g)) => Err(format!(
                    "`{r}` is off the {}×{} grid",
                    g.width(),
                    g.height()
                )),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// The checked scenario of a table, with its sim's registration; entity
/// names go to `names`, pane titles to `titles`.
fn scenario_of(
    ctx: &Ctx,
    table: Node,
    (names, titles): (&mut Names, &mut Vec<PaneName>),
) -> Result<(Scenario, &'static dyn Registration), LessonError> {
    let mut params = Params::new(ctx, "[scenario]", table)?;
    let known = sims::names().join(", ");
    let Some((sim, sim_node)) = params.string("sim")? else {
        return Err(params
            .table_err(format!("missing `sim`: one of {known}"))
            .with_kind(LessonErrorKind::Missing { key: "sim".into() }));
    };
    let Some(reg) = sims::by_name(&sim) else {
        let hint = sims::names()
            .into_iter()
            .find(|s| node::edit_distance(&sim, s) <= 2)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        return Err(ctx
            .err(
                &sim_node,
                format!("unknown sim `{sim}`{hint}; known sims: {known}"),
            )
            .with_kind(LessonErrorKind::UnknownSim { name: sim }));
    };
    params.use_schema(reg.params());
    let scenario = reg.scenario(&mut params, names, titles)?;
    params.finish()?;
    Ok((scenario, reg))
}

/// Checks that variant `i`'s scenario can run beside the first's: flock
/// or line, of the same sim and tick length.
fn check_pane(
    ctx: &Ctx,
    i: usize,
    v: &variants::Variant,
    s: &Scenario,
    first: Option<&Scenario>,
) -> Result<(), LessonError> {
    let dt = |s: &Scenario| match s {
        Scenario::Flock(c) => c.dt,
        _ => crate::num::Fx::ONE,
    };
    let problem = match (s, first) {
        (Scenario::Path(_), _) => Some(
            "variants are for flock and line lessons; a path lesson compares searches in [[scenario.searches]]".to_owned(),
        ),
        (s, Some(f)) if s.sim_name() != f.sim_name() => Some(format!(
            "variant {} is a {} scenario and variant 1 a {}: every pane runs one sim",
            i + 1,
            s.sim_name(),
            f.sim_name()
        )),
        (s, Some(f)) if dt(s) != dt(f) => Some(format!(
            "variant {} changes the tick length `dt`: the panes step in lockstep, so they share it",
            i + 1
        )),
        _ => None,
    };
    match problem {
        Some(m) => Err(ctx.at(v.span.start, m)),
        None => Ok(()),
    }
}

/// Checks that the panes hold at most [`MAX_BOIDS`] boids in all, so a
/// recorded frame of every pane stays as small as a single flock's can be.
///
/// [`MAX_BOIDS`]: crate::sim::flock::MAX_BOIDS
fn check_pane_total(
    ctx: &Ctx,
    vs: &[variants::Variant],
    panes: &[Scenario],
) -> Result<(), LessonError> {
    use crate::sim::flock::MAX_BOIDS;
    let total: u64 = panes
        .iter()
        .map(|s| match s {
            Scenario::Flock(c) => c.boid_count(),
            _ => 0,
        })
        .sum();
    if total <= u64::from(MAX_BOIDS) {
        return Ok(());
    }
    Err(ctx.at(
        vs[0].span.start,
        format!(
            "the {} variants hold {total} boids in all; at most {MAX_BOIDS} run side by side",
            panes.len()
        ),
    ))
}

/// A lesson's place in a course: its track and its place on it.
type Course = Option<(String, u32)>;

/// The `[lesson]` table's checked `ticks`, `rate` and `course` (its `id`
/// checked too).
/// The lesson's `inputs`: each `TICK:INPUT` read, at a tick the lesson
/// reaches, in tick order.
fn scripted(ctx: &Ctx, raw: &[Spanned<String>], ticks: u64) -> Result<Vec<Scripted>, LessonError> {
    let mut out: Vec<Scripted> = Vec::with_capacity(raw.len());
    for (i, s) in raw.iter().enumerate() {
        let at = s.span().start;
        let (tick, input) = crate::sim::Input::parse_timed(s.get_ref())
            .map_err(|m| ctx.at(at, format!("input {}: {m}", i + 1)))?;
        if tick > ticks {
            return Err(ctx.at(
                at,
                format!(
                    "input {} leads into tick {tick}, after the lesson's last (`ticks` = {ticks})",
                    i + 1
                ),
            ));
        }
        if let Some(prev) = out.last().map(|p| p.tick)
            && tick < prev
        {
            return Err(ctx.at(
                at,
                format!("input {} is at tick {tick}, before the previous input (tick {prev}): inputs go in tick order", i + 1),
            ));
        }
        let (line, column) = node::line_col(ctx.src, at);
        out.push(Scripted {
            tick,
            input,
            line,
            column,
        });
    }
    Ok(out)
}

fn checked_meta(ctx: &Ctx, meta: &RawMeta) -> Result<(u64, Option<u32>, Course), LessonError> {
    if !valid_id(meta.id.get_ref()) {
        return Err(ctx.at(
            meta.id.span().start,
            "`id` must be 1-64 characters of lowercase letters, digits and '-'",
        ));
    }
    let ticks = *meta.ticks.get_ref();
    if !(1..=MAX_TICKS).contains(&ticks) {
        return Err(ctx.at(
            meta.ticks.span().start,
            format!("`ticks` must be in 1..={MAX_TICKS}"),
        ));
    }

    let rate = match &meta.rate {
        None => None,
        Some(r) if (1..=1000).contains(r.get_ref()) => Some(*r.get_ref() as u32),
        Some(r) => {
            return Err(ctx.at(
                r.span().start,
                "`rate` (ticks per second at 1×) must be in 1..=1000",
            ));
        }
    };

    let course = match &meta.course {
        None => None,
        Some(c) => {
            let (track, place) = c.get_ref();
            if !valid_id(track) || track.len() > 32 || !(1..=999).contains(place) {
                return Err(ctx.at(
                    c.span().start,
                    "`course` is [TRACK, PLACE]: a track name of 1-32 lowercase letters, digits and '-', and a place in 1..=999",
                ));
            }
            Some((track.clone(), *place as u32))
        }
    };
    Ok((ticks, rate, course))
}

/// Applies the `--set` overrides to the `[scenario]` table, in order.
fn apply_overrides(
    ctx: &Ctx,
    overrides: &[Override],
    scenario: &mut Node,
) -> Result<(), LessonError> {
    let (file, sets) = (ctx.file, ctx.sets);
    for (i, o) in overrides.iter().enumerate() {
        #[derive(Deserialize)]
        struct One {
            v: Node,
        }
        let mut value = match toml::from_str::<One>(&sets[i].doc) {
            Ok(one) => one.v,
            // A bare word that is not TOML: take it as a plain string.
            Err(_) if bare_word(&o.value) => Node {
                kind: Kind::Str(o.value.clone()),
                span: 4..sets[i].doc.len(),
                set: None,
            },
            // Meant as a number, a list or a quoted string, but not one.
            Err(e) => {
                return Err(LessonError {
                    kind: LessonErrorKind::Set,
                    file: file.to_owned(),
                    line: 0,
                    column: 0,
                    message: format!(
                        "--set {}: `{}` is not a value: {}",
                        clip(&o.arg),
                        clip(&o.value),
                        toml_message(&e)
                    ),
                });
            }
        };
        mark(&mut value, i);
        set_path(ctx, scenario, &o.path, value, i)?;
    }
    Ok(())
}

/// What a lesson's scenario gives besides its [`Scenario`]: entity names
/// (with variants, the first's), pane titles and each pane's parameters.
struct Checked {
    names: Names,
    panes: Vec<PaneName>,
    params: Vec<BTreeMap<String, String>>,
}

/// The checked scenario (one, or a lesson's variants side by side) with
/// its sim's registration.
fn checked_scenario(
    ctx: &Ctx,
    mut scenario: Node,
) -> Result<(Scenario, &'static dyn Registration, Checked), LessonError> {
    let variants = variants::take(ctx, &mut scenario)?;
    let mut names = Names::new();
    let params = match &variants {
        None => callout::pane_params(ctx, &scenario),
        Some(vs) => vs
            .iter()
            .map(|v| callout::scalars(ctx, &variants::apply(&scenario, v)))
            .collect(),
    };
    let (scenario, reg, panes) = match variants {
        None => {
            let mut titles = Vec::new();
            let (s, reg) = scenario_of(ctx, scenario, (&mut names, &mut titles))?;
            (s, reg, titles)
        }
        Some(vs) => {
            let mut panes = Vec::with_capacity(vs.len());
            let mut found = None;
            for (i, v) in vs.iter().enumerate() {
                let mut pane_names = Names::new();
                let (s, reg) = scenario_of(
                    ctx,
                    variants::apply(&scenario, v),
                    (&mut pane_names, &mut Vec::new()),
                )?;
                check_pane(ctx, i, v, &s, panes.first())?;
                if i == 0 {
                    names = pane_names;
                }
                found = Some(reg);
                panes.push(s);
            }
            check_pane_total(ctx, &vs, &panes)?;
            let reg = found.expect("there are at least two variants");
            let titles = vs.into_iter().map(|v| v.name).collect();
            (Scenario::Panes(panes), reg, titles)
        }
    };
    Ok((
        scenario,
        reg,
        Checked {
            names,
            panes,
            params,
        },
    ))
}

/// The checked beats, in tick order: a question answered by a beat after
/// it, and beats that share a tick pausing at each.
fn checked_beats(
    ctx: &Ctx,
    raw: Vec<Spanned<RawBeat>>,
    ticks: u64,
    (scenario, params): (&Scenario, &[BTreeMap<String, String>]),
    reg: &'static dyn Registration,
) -> Result<Vec<Beat>, LessonError> {
    let mut beats = Vec::with_capacity(raw.len());

    let mut at_offsets = Vec::with_capacity(raw.len());
    for (i, b) in raw.into_iter().enumerate() {
        let b = b.into_inner();
        let at_offset = b.at.span().start;
        let beat = beat(ctx, i, b, ticks, (scenario, params), reg)?;
        if let Some(prev) = beats.last().map(|p: &Beat| p.at)
            && beat.at < prev
        {
            return Err(ctx.at(
                at_offset,
                format!("beat {} is at tick {}, before the previous beat (tick {prev}): beats go in tick order", i + 1, beat.at),
            ));
        }
        beats.push(beat);
        at_offsets.push(at_offset);
    }
    // A question is answered by the beat after it.
    if let (Some(last), Some(&off)) = (beats.last(), at_offsets.last())
        && last.question.is_some()
    {
        return Err(ctx.at(
            off,
            format!(
                "beat {} asks a question but no beat follows to show the answer",
                beats.len()
            ),
        ));
    }
    // Beats that share a tick are steps: playing on stops at each, so
    // every one but the last of a tick must pause.
    for (i, w) in beats.windows(2).enumerate() {
        if w[0].at == w[1].at && !w[0].pause {
            return Err(ctx.at(
                at_offsets[i],
                format!(
                    "beat {} shares tick {} with beat {} but does not pause: playing on would pass it unseen (add `pause = true`)",
                    i + 1,
                    w[0].at,
                    i + 2
                ),
            ));
        }
    }
    Ok(beats)
}

impl Lesson {
    /// The title in `lang` if the lesson has it, else in English.
    pub fn title_in(&self, lang: Option<&str>) -> &str {
        lang.and_then(|l| self.title_translations.get(l))
            .map_or(&self.title, String::as_str)
    }

    /// The summary in `lang` if the lesson has it, else in English.
    pub fn summary_in(&self, lang: Option<&str>) -> &str {
        lang.and_then(|l| self.summary_translations.get(l))
            .map_or(&self.summary, String::as_str)
    }

    /// Parses and checks a lesson; `file` names it in error messages.
    pub fn parse(src: &str, file: &str) -> Result<Lesson, LessonError> {
        Lesson::parse_with(src, file, &[])
    }

    /// Parses a lesson, applies `--set` overrides to its scenario, and
    /// checks the result (its own changes of a parameter too, each with
    /// the ones before it).
    pub fn parse_with(
        src: &str,
        file: &str,
        overrides: &[Override],
    ) -> Result<Lesson, LessonError> {
        let lesson = Lesson::parse_unscripted(src, file, overrides)?;
        crate::replay::live::check_scripted(&lesson, src, file, overrides)?;
        Ok(lesson)
    }

    /// [`Lesson::parse_with`] without checking the values of the lesson's
    /// own changes of a parameter: what checking one of them, or a live
    /// change, reads the lesson with.
    pub(crate) fn parse_unscripted(
        src: &str,
        file: &str,
        overrides: &[Override],
    ) -> Result<Lesson, LessonError> {
        let raw: RawFile = toml::from_str(src).map_err(|e| toml_error(file, src, &e))?;
        let sets: Vec<SetArg> = overrides
            .iter()
            .map(|o| SetArg {
                arg: o.arg.clone(),
                doc: format!("v = {}", o.value),
            })
            .collect();
        let ctx = Ctx {
            file,
            src,
            sets: &sets,
        };

        let meta = raw.lesson;
        let (ticks, rate, course) = checked_meta(&ctx, &meta)?;
        let mut scenario = raw.scenario;
        apply_overrides(&ctx, overrides, &mut scenario)?;
        let (scenario, reg, checked) = checked_scenario(&ctx, scenario)?;
        let beats = checked_beats(&ctx, raw.beat, ticks, (&scenario, &checked.params), reg)?;
        let inputs = scripted(&ctx, &meta.inputs, ticks)?;
        Ok(Lesson {
            id: meta.id.into_inner(),
            title: meta.title,
            title_translations: lang_table(&ctx, meta.title_translations)?,
            summary: meta.summary,
            summary_translations: lang_table(&ctx, meta.summary_translations)?,
            ticks,
            scenario,
            sim: reg,
            beats,
            rate,
            course,
            names: checked.names,
            panes: checked.panes,
            params: checked.params,
            predict_title: meta.predict_title,
            predict_title_translations: lang_table(&ctx, meta.predict_title_translations)?,
            inputs,
        })
    }

    /// The lesson's own inputs by the tick they lead into, in order.
    pub fn scripted(&self) -> BTreeMap<u64, Vec<crate::sim::Input>> {
        let mut out: BTreeMap<u64, Vec<crate::sim::Input>> = BTreeMap::new();
        for s in &self.inputs {
            out.entry(s.tick).or_default().push(s.input.clone());
        }
        out
    }

    /// The title the status line shows on a question's beat: the
    /// lesson's predict title in `lang` (else in English), else its
    /// title.
    pub fn predict_title_in(&self, lang: Option<&str>) -> &str {
        match &self.predict_title {
            Some(t) => lang
                .and_then(|l| self.predict_title_translations.get(l))
                .map_or(t, String::as_str),
            None => self.title_in(lang),
        }
    }

    /// Where the lesson is listed: by sim, then the lessons of a course by
    /// track and place, then the others by id.
    pub fn listing_key(&self) -> (&'static str, bool, &str, u32, &str) {
        let (track, place) = match &self.course {
            Some((t, p)) => (t.as_str(), *p),
            None => ("", 0),
        };
        (
            self.scenario.sim_name(),
            self.course.is_none(),
            track,
            place,
            &self.id,
        )
    }

    /// The index of the beat in force at `tick` (the last one with `at ≤ tick`).
    pub fn beat_at(&self, tick: u64) -> Option<usize> {
        self.beats.iter().rposition(|b| b.at <= tick)
    }

    /// The language tags every beat of this lesson is translated into.
    pub fn languages(&self) -> Vec<String> {
        let mut langs: Vec<String> = self
            .beats
            .iter()
            .flat_map(|b| b.translations.keys().cloned())
            .collect();
        langs.sort();
        langs.dedup();
        langs
    }
}

/// A lesson file's text from its bytes: UTF-8 is required, and anything
/// else (a picture, a replay renamed) is named for what it is not, with the
/// byte offset where the text stops being UTF-8.
pub fn lesson_text(name: &str, bytes: Vec<u8>) -> Result<String, LessonError> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        LessonError {
            kind: LessonErrorKind::NotText { offset },
            file: name.to_owned(),
            line: 0,
            column: 0,
            message: format!(
                "not a lesson or a replay: a lesson is TOML text, but byte {offset} is not UTF-8 (a replay starts with the bytes 89 46 53 52 or is named .fsr)"
            ),
        }
    })
}

#[cfg(test)]
mod schema_tests;
#[cfg(test)]
mod tests;
