//! A sim's scenario parameters, each described once: key, type, range,
//! default, unit and a one-line help in every language the lessons have.
//!
//! The lesson parser reads `[scenario]` through the schema
//! ([`Params::use_schema`]): a key's type, range and default come from its
//! [`Param`], so an out-of-range value, a key of another model and a
//! misspelt key get the same messages in a lesson file, a `--set` and a
//! variant. `flockstep params SIM` lists a schema, `docs/params.md` is
//! written from it, and the viewer's parameter panel takes the keys marked
//! [`Param::vary`]. A user's sim declares its own
//! ([`crate::user::UserSim::params`]).

use super::node::{Node, Params, edit_distance};
use super::{LessonError, LessonErrorKind};
use crate::num::{Fx, Vec3};
use std::fmt::Write as _;

/// A text in every language the lessons have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text {
    /// English.
    pub en: &'static str,
    /// Japanese.
    pub ja: &'static str,
}

impl Text {
    /// The text in `lang` (`"ja"`), else English.
    pub fn get(&self, lang: &str) -> &'static str {
        match lang {
            "ja" if !self.ja.is_empty() => self.ja,
            _ => self.en,
        }
    }
}

/// A [`Text`] from its English and Japanese.
pub const fn text(en: &'static str, ja: &'static str) -> Text {
    Text { en, ja }
}

/// The units parameters are measured in.
pub mod unit {
    use super::{Text, text};
    /// A plain number (a count, a weight, a seed, a switch).
    pub const NONE: Text = text("", "");
    /// Degrees.
    pub const DEGREES: Text = text("degrees", "度");
    /// Grid cells.
    pub const CELLS: Text = text("cells", "マス");
    /// Height levels of a map.
    pub const LEVELS: Text = text("levels", "段");
    /// Ticks of the simulation.
    pub const TICKS: Text = text("ticks", "tick");
    /// Lengths in the world's units.
    pub const LENGTH: Text = text("world units", "ワールド単位");
    /// Speeds: world units per unit of time (one `dt` of 1).
    pub const SPEED: Text = text("units per time unit", "単位/時間単位");
    /// The unit of time `dt` is counted in.
    pub const TIME: Text = text("time units", "時間単位");
    /// A fraction of a whole.
    pub const FRACTION: Text = text("fraction", "割合");
    /// Boids.
    pub const BOIDS: Text = text("boids", "羽");
    /// Path cost per height level.
    pub const COST: Text = text("cost per level", "1段あたりのコスト");
}

/// What a parameter's value is.
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    /// An integer in `min..=max`.
    Int {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A number (an integer, a decimal or a fraction string, read exactly)
    /// in `min..=max`.
    Number {
        /// The least value.
        min: Fx,
        /// The greatest value.
        max: Fx,
    },
    /// `true` or `false`.
    Bool,
    /// One of these names.
    Choice(&'static [&'static str]),
    /// A point or vector `[x, y]` (2-D) or `[x, y, z]` (3-D), each
    /// component within ±`limit`.
    Vector {
        /// The largest magnitude of a component.
        limit: i32,
    },
    /// A list of `len` numbers (`[width, height]`), each in `min..=max`.
    Numbers {
        /// How many.
        len: usize,
        /// The least value of each.
        min: Fx,
        /// The greatest value of each.
        max: Fx,
    },
    /// A cell `[x, y]`.
    Cell,
    /// A list of cells `[[x, y], …]`.
    Cells,
    /// A string (a map, a label).
    Text,
    /// A display name, 1–24 characters.
    Name,
    /// A list of display names.
    Names,
    /// A text by language, `{ ja = "…" }`.
    Translations,
    /// A list of tables (`[[scenario.KEY]]`), each read with these
    /// parameters.
    Tables(&'static [Param]),
}

/// What a parameter is when a lesson does not set it.
#[derive(Clone, Copy, Debug)]
pub enum DefaultValue {
    /// It must be set.
    Required,
    /// It may be left out; this says what that means.
    Absent(Text),
    /// This integer.
    Int(i64),
    /// This number.
    Number(Fx),
    /// This switch.
    Bool(bool),
    /// This choice.
    Choice(&'static str),
    /// By variant (a flock's `model`): `(variant, default)` pairs.
    Per(&'static [(&'static str, DefaultValue)]),
    /// Worked out from other keys, as this says.
    Rule(Text),
}

/// One scenario parameter.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The key a lesson writes.
    pub key: &'static str,
    /// Its type and range.
    pub ty: Ty,
    /// Its value when absent.
    pub default: DefaultValue,
    /// What it is measured in ([`mod@unit`]).
    pub unit: Text,
    /// One line on what it does.
    pub help: Text,
    /// The variants (a flock's models) that read it; empty: every one.
    pub only: &'static [&'static str],
    /// A number that may not be below the value of this other key.
    pub at_least: Option<&'static str>,
    /// A number that may not be above the value of this other key.
    pub at_most: Option<&'static str>,
    /// A key a teacher varies to ask a what-if: the parameter panel's.
    pub vary: bool,
}

impl Param {
    /// A parameter of type `ty`, required, with no unit and no help yet.
    pub const fn new(key: &'static str, ty: Ty) -> Param {
        Param {
            key,
            ty,
            default: DefaultValue::Required,
            unit: unit::NONE,
            help: text("", ""),
            only: &[],
            at_least: None,
            at_most: None,
            vary: false,
        }
    }

    /// An integer parameter in `min..=max` defaulting to `default`.
    pub const fn int(key: &'static str, min: i64, max: i64, default: i64) -> Param {
        Param::new(key, Ty::Int { min, max }).default(DefaultValue::Int(default))
    }

    /// A number in `min..=max` defaulting to `default`.
    pub const fn number(key: &'static str, min: Fx, max: Fx, default: Fx) -> Param {
        Param::new(key, Ty::Number { min, max }).default(DefaultValue::Number(default))
    }

    /// A switch defaulting to `default`.
    pub const fn flag(key: &'static str, default: bool) -> Param {
        Param::new(key, Ty::Bool).default(DefaultValue::Bool(default))
    }

    /// One of `names`, defaulting to `default`.
    pub const fn choice(
        key: &'static str,
        names: &'static [&'static str],
        default: &'static str,
    ) -> Param {
        Param::new(key, Ty::Choice(names)).default(DefaultValue::Choice(default))
    }

    /// With this default.
    pub const fn default(mut self, d: DefaultValue) -> Param {
        self.default = d;
        self
    }

    /// Optional; `means` says what its absence means.
    pub const fn absent(self, means: Text) -> Param {
        self.default(DefaultValue::Absent(means))
    }

    /// Measured in `unit`.
    pub const fn unit(mut self, unit: Text) -> Param {
        self.unit = unit;
        self
    }

    /// With this help, in English and Japanese.
    pub const fn help(mut self, en: &'static str, ja: &'static str) -> Param {
        self.help = text(en, ja);
        self
    }

    /// Read by these variants only.
    pub const fn only(mut self, variants: &'static [&'static str]) -> Param {
        self.only = variants;
        self
    }

    /// Not below the value of `key`.
    pub const fn at_least(mut self, key: &'static str) -> Param {
        self.at_least = Some(key);
        self
    }

    /// Not above the value of `key`.
    pub const fn at_most(mut self, key: &'static str) -> Param {
        self.at_most = Some(key);
        self
    }

    /// A what-if a teacher varies (the parameter panel's).
    pub const fn vary(mut self) -> Param {
        self.vary = true;
        self
    }

    /// Whether `variant` (`None`: not yet known) reads it.
    pub fn applies(&self, variant: Option<&str>) -> bool {
        match variant {
            None => true,
            Some(v) => self.only.is_empty() || self.only.contains(&v),
        }
    }

    /// Its type and range as a lesson writes it: `0..=100`, `"a" | "b"`,
    /// `[x, y(, z)]`.
    pub fn type_text(&self, lang: &str) -> String {
        let ja = lang == "ja";
        match self.ty {
            Ty::Int { min, max: i64::MAX } => format!("{}..", group(min)),
            Ty::Int { min, max } => format!("{}..={}", group(min), group(max)),
            Ty::Number { min, max } => {
                let mut t = format!("{}..={}", fx_text(min), fx_text(max));
                match (min == Fx::DELTA, ja) {
                    (true, true) => t = format!("0..={} (0 は不可)", fx_text(max)),
                    (true, false) => t = format!("0..={}, not 0", fx_text(max)),
                    _ => {}
                }
                match (self.at_least, ja) {
                    (Some(k), true) => t += &format!(", {k} 以上"),
                    (Some(k), false) => t += &format!(", ≥ {k}"),
                    _ => {}
                }
                match (self.at_most, ja) {
                    (Some(k), true) => t += &format!(", {k} 以下"),
                    (Some(k), false) => t += &format!(", ≤ {k}"),
                    _ => {}
                }
                t
            }
            Ty::Bool => "true | false".into(),
            Ty::Choice(names) => {
                let q: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                q.join(" | ")
            }
            Ty::Vector { limit } => format!("[x, y(, z)], ±{}", group(limit as i64)),
            Ty::Numbers { len, min, max } if ja => {
                format!("数 {len} 個の配列, 各 {}..={}", fx_text(min), fx_text(max))
            }
            Ty::Numbers { len, min, max } => {
                format!("[{len} numbers], each {}..={}", fx_text(min), fx_text(max))
            }
            Ty::Cell => "[x, y]".into(),
            Ty::Cells => "[[x, y], …]".into(),
            Ty::Text => if ja { "文字列" } else { "string" }.into(),
            Ty::Name => if ja {
                "名前 (1–24 文字)"
            } else {
                "name (1–24 characters)"
            }
            .into(),
            Ty::Names => if ja { "名前の配列" } else { "[names]" }.into(),
            Ty::Translations => "{ ja = \"…\" }".into(),
            Ty::Tables(_) => format!("[[scenario.{}]]", self.key),
        }
    }

    /// "required", or "default X" (`variant` as for [`Param::default_text`]).
    pub fn default_phrase(&self, variant: Option<&str>, lang: &str) -> String {
        match (self.default, lang) {
            (DefaultValue::Required, _) => self.default_text(variant, lang),
            (_, "ja") => format!("既定値 {}", self.default_text(variant, lang)),
            _ => format!("default {}", self.default_text(variant, lang)),
        }
    }

    /// Its default for `variant` (`None`: every variant's), as text.
    pub fn default_text(&self, variant: Option<&str>, lang: &str) -> String {
        default_text(&self.default, variant, lang)
    }
}

fn default_text(d: &DefaultValue, variant: Option<&str>, lang: &str) -> String {
    match d {
        DefaultValue::Required => if lang == "ja" { "必須" } else { "required" }.into(),
        DefaultValue::Absent(t) | DefaultValue::Rule(t) => t.get(lang).into(),
        DefaultValue::Int(v) => group(*v),
        DefaultValue::Number(v) => fx_text(*v),
        DefaultValue::Bool(b) => b.to_string(),
        DefaultValue::Choice(c) => format!("\"{c}\""),
        DefaultValue::Per(list) => match variant.and_then(|v| list.iter().find(|(n, _)| *n == v)) {
            Some((_, d)) => default_text(d, variant, lang),
            None => {
                let parts: Vec<String> = list
                    .iter()
                    .map(|(n, d)| format!("{n} {}", default_text(d, Some(n), lang)))
                    .collect();
                parts.join("; ")
            }
        },
    }
}

/// An integer with thousands separated (`1,000,000`).
fn group(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if v < 0 { format!("-{out}") } else { out }
}

/// A number as a lesson would write it: the shortest decimal (up to six
/// places) that reads back as it or that it was made from (`0.05` for
/// `5/100`), else a fraction (`1/60`), else every digit.
pub fn fx_text(v: Fx) -> String {
    if v == Fx::from_int(v.floor_int()) {
        return group(v.floor_int() as i64);
    }
    let bits = v.to_bits() as i128;
    for places in 1..=6u32 {
        let scale = 10i128.pow(places);
        let scaled = (bits * scale + (1 << 31)) >> 32;
        let (whole, frac) = (scaled.abs() / scale, scaled.abs() % scale);
        let sign = if scaled < 0 { "-" } else { "" };
        let text = format!("{sign}{whole}.{frac:0p$}", p = places as usize);
        let made = Fx::from_ratio(scaled as i64, scale as i64);
        if made == Some(v) || crate::num::parse_fx(&text) == Ok(v) {
            return text;
        }
    }
    for den in [3, 6, 7, 9, 12, 24, 30, 60, 120] {
        let num = (bits * den + (1 << 31)) >> 32;
        if Fx::from_ratio(num as i64, den as i64) == Some(v) {
            return format!("{num}/{den}");
        }
    }
    v.to_string()
}

/// The parameter `key` of `schema` that `variant` reads (two models may
/// give one key different meanings: a flock's `fov`).
pub fn find_for(
    schema: &'static [Param],
    key: &str,
    variant: Option<&str>,
) -> Option<&'static Param> {
    schema.iter().find(|p| p.key == key && p.applies(variant))
}

/// Joins two lists of parameters into one array, in const context (a
/// table that shares keys with its parent: a path's `searches`).
pub const fn concat<const A: usize, const B: usize, const N: usize>(
    a: [Param; A],
    b: [Param; B],
) -> [Param; N] {
    assert!(A + B == N, "N must be A + B");
    let mut out = [Param::new("", Ty::Bool); N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// A ratio `n / d` as a constant.
pub const fn ratio(n: i64, d: i64) -> Fx {
    match Fx::from_ratio(n, d) {
        Some(v) => v,
        None => panic!("ratio out of range"),
    }
}

/// The keys of `schema` that `variant` reads, sorted.
pub fn keys(schema: &[Param], variant: Option<&str>) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = schema
        .iter()
        .filter(|p| p.applies(variant))
        .map(|p| p.key)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The variants a schema names (a flock's models), in order of first
/// mention.
pub fn variants(schema: &[Param]) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for p in schema {
        for m in p.only {
            if !v.contains(m) {
                v.push(m);
            }
        }
    }
    v
}

/// A schema as a Markdown table (the `docs/params.md` of a sim), its keys
/// in the schema's order, tables' keys indented below their key.
pub fn markdown(schema: &[Param], variant: Option<&str>, lang: &str) -> String {
    let mut out = String::new();
    let head = if lang == "ja" {
        "| キー | 型と範囲 | 既定値 | 単位 | 説明 |\n|---|---|---|---|---|\n"
    } else {
        "| key | type and range | default | unit | what it does |\n|---|---|---|---|---|\n"
    };
    out.push_str(head);
    rows(&mut out, schema, variant, lang, "");
    out
}

fn rows(out: &mut String, schema: &[Param], variant: Option<&str>, lang: &str, prefix: &str) {
    for p in schema.iter().filter(|p| p.applies(variant)) {
        let only = match (variant, p.only) {
            (None, only) if !only.is_empty() => format!(" *({})*", only.join(", ")),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "| `{prefix}{}` | {} | {} | {} | {}{only} |",
            p.key,
            cell(&p.type_text(lang)),
            cell(&p.default_text(variant, lang)),
            p.unit.get(lang),
            cell(p.help.get(lang)),
        );
        if let Ty::Tables(sub) = p.ty {
            rows(out, sub, variant, lang, &format!("{}.", p.key));
        }
    }
}

/// Escapes a table cell's bars.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

impl Params<'_> {
    /// Reads this table through `schema` from now on: the typed readers
    /// below take a key's range and default from it, and
    /// [`Params::finish`] names keys of another variant and suggests
    /// known ones from it.
    pub fn use_schema(&mut self, schema: &'static [Param]) {
        self.schema = schema;
    }

    /// Reads only the keys of `variant` from now on (a flock's `model`).
    pub fn set_variant(&mut self, variant: &'static str) {
        self.variant = Some(variant);
    }

    /// The variant set by [`Params::set_variant`].
    pub fn variant(&self) -> Option<&'static str> {
        self.variant
    }

    /// The schema entry of `key`, which this table must read (a key
    /// missing from the schema, or of another variant, is a bug of the
    /// reader: reported as an error, never a panic).
    pub fn param(&self, key: &str) -> Result<&'static Param, LessonError> {
        match find_for(self.schema, key, self.variant) {
            Some(p) => Ok(p),
            None if self.schema.is_empty() => Err(self.table_err(format!(
                "internal: `{key}` is read through a schema, but the sim declares none (UserSim::params)"
            ))),
            None => Err(self.table_err(format!(
                "internal: `{key}` is not in the schema of {:?}",
                self.variant
            ))),
        }
    }

    fn default_of(&self, p: &Param) -> DefaultValue {
        match p.default {
            DefaultValue::Per(list) => list
                .iter()
                .find(|(v, _)| Some(*v) == self.variant)
                .map_or(DefaultValue::Required, |(_, d)| *d),
            d => d,
        }
    }

    /// An integer parameter: its schema range and default.
    pub fn get_int(&mut self, key: &str) -> Result<i64, LessonError> {
        let p = self.param(key)?;
        let (Ty::Int { min, max }, DefaultValue::Int(d)) = (p.ty, self.default_of(p)) else {
            return Err(self.table_err(format!(
                "internal: `{key}` is not an integer with a default"
            )));
        };
        self.int(p.key, d, min..=max)
    }

    /// A required integer parameter, with its node.
    pub fn req_int_p(&mut self, key: &str) -> Result<(i64, Node), LessonError> {
        let p = self.param(key)?;
        let Ty::Int { min, max } = p.ty else {
            return Err(self.table_err(format!("internal: `{key}` is not an integer")));
        };
        self.req_int(p.key, min..=max)
    }

    /// An integer parameter whose default the reader works out (a
    /// table's key defaulting to its parent's value): its schema range.
    pub fn get_int_or(&mut self, key: &str, default: i64) -> Result<i64, LessonError> {
        let p = self.param(key)?;
        let Ty::Int { min, max } = p.ty else {
            return Err(self.table_err(format!("internal: `{key}` is not an integer")));
        };
        self.int(p.key, default, min..=max)
    }

    /// A switch: its schema default.
    pub fn get_bool(&mut self, key: &str) -> Result<bool, LessonError> {
        let p = self.param(key)?;
        let DefaultValue::Bool(d) = self.default_of(p) else {
            return Err(self.table_err(format!("internal: `{key}` is not a switch with a default")));
        };
        self.bool(p.key, d)
    }

    /// A switch whose default the reader works out.
    pub fn get_bool_or(&mut self, key: &str, default: bool) -> Result<bool, LessonError> {
        let p = self.param(key)?;
        self.bool(p.key, default)
    }

    /// A choice: `values` are the schema's names' values, in their order.
    pub fn get_choice<T: Copy>(&mut self, key: &str, values: &[T]) -> Result<T, LessonError> {
        let p = self.param(key)?;
        let (Ty::Choice(names), DefaultValue::Choice(d)) = (p.ty, self.default_of(p)) else {
            return Err(self.table_err(format!("internal: `{key}` is not a choice with a default")));
        };
        match names.iter().position(|n| *n == d) {
            Some(i) if names.len() == values.len() => self.get_choice_or(key, values, values[i]),
            _ => Err(self.table_err(format!("internal: `{key}`'s names and values differ"))),
        }
    }

    /// A choice whose default the reader works out.
    pub fn get_choice_or<T: Copy>(
        &mut self,
        key: &str,
        values: &[T],
        default: T,
    ) -> Result<T, LessonError> {
        let p = self.param(key)?;
        let Ty::Choice(names) = p.ty else {
            return Err(self.table_err(format!("internal: `{key}` is not a choice")));
        };
        let options: Vec<(&str, T)> = names.iter().copied().zip(values.iter().copied()).collect();
        self.choice(p.key, default, &options)
    }

    /// A number parameter: its schema range (raised to the value of its
    /// `at_least` key, read before it) and its default.
    pub fn get_fx(&mut self, key: &str) -> Result<Fx, LessonError> {
        let p = self.param(key)?;
        let DefaultValue::Number(d) = self.default_of(p) else {
            return Err(self.table_err(format!("internal: `{key}` has no number default")));
        };
        self.get_fx_or(key, d)
    }

    /// A number parameter whose default the reader works out (a
    /// [`DefaultValue::Rule`]); raised to its `at_least` key's value.
    pub fn get_fx_or(&mut self, key: &str, default: Fx) -> Result<Fx, LessonError> {
        let p = self.param(key)?;
        let range = self.fx_range(p)?;
        let default = default.max(*range.start()).min(*range.end());
        let v = self.fx(p.key, default, range)?;
        self.values.push((p.key, v));
        Ok(v)
    }

    /// An optional number parameter ([`DefaultValue::Absent`]).
    pub fn get_fx_opt(&mut self, key: &str) -> Result<Option<Fx>, LessonError> {
        let p = self.param(key)?;
        if self.peek(p.key).is_none() {
            return Ok(None);
        }
        let range = self.fx_range(p)?;
        self.fx(p.key, Fx::ZERO, range).map(Some)
    }

    fn fx_range(&self, p: &Param) -> Result<std::ops::RangeInclusive<Fx>, LessonError> {
        let Ty::Number { min, max } = p.ty else {
            return Err(self.table_err(format!("internal: `{}` is not a number", p.key)));
        };
        let floor = match p.at_least {
            None => min,
            Some(k) => min.max(self.value_of(p.key, k)?),
        };
        let ceiling = match p.at_most {
            None => max,
            Some(k) => max.min(self.value_of(p.key, k)?),
        };
        Ok(floor..=ceiling)
    }

    /// The number already read for `bound`, which bounds `key`.
    fn value_of(&self, key: &str, bound: &str) -> Result<Fx, LessonError> {
        match self.values.iter().find(|(n, _)| *n == bound) {
            Some((_, v)) => Ok(*v),
            None => Err(self.table_err(format!(
                "internal: `{key}` is read before `{bound}`, which bounds it"
            ))),
        }
    }

    /// A vector parameter in a `dims`-D world, if present, with its node.
    pub fn get_vector(&mut self, key: &str, dims: u8) -> Result<Option<(Vec3, Node)>, LessonError> {
        let p = self.param(key)?;
        let Ty::Vector { limit } = p.ty else {
            return Err(self.table_err(format!("internal: `{key}` is not a vector")));
        };
        let ctx = self.ctx();
        let lim = Fx::from_int(limit);
        let Some((v, n)) = self.fx_list(p.key, -lim..=lim)? else {
            return Ok(None);
        };
        match (dims, v.as_slice()) {
            (2, [x, y]) => Ok(Some((Vec3::new(*x, *y, Fx::ZERO), n))),
            (3, [x, y, z]) => Ok(Some((Vec3::new(*x, *y, *z), n))),
            _ => Err(ctx.err(
                &n,
                format!(
                    "`{key}` must have {dims} numbers in a {dims}-D world, found {}",
                    v.len()
                ),
            )),
        }
    }

    /// A list of numbers, if present, with its node: its schema length and
    /// range.
    pub fn get_numbers(&mut self, key: &str) -> Result<Option<(Vec<Fx>, Node)>, LessonError> {
        let p = self.param(key)?;
        let Ty::Numbers { len, min, max } = p.ty else {
            return Err(self.table_err(format!("internal: `{key}` is not a list of numbers")));
        };
        let ctx = self.ctx();
        match self.fx_list(p.key, min..=max)? {
            Some((v, n)) if v.len() != len => Err(ctx.err(
                &n,
                format!("`{key}` must have {len} numbers, found {}", v.len()),
            )),
            found => Ok(found),
        }
    }

    /// The list of tables `key`, each read through its schema entry's
    /// parameters and in this table's variant.
    pub fn get_tables(&mut self, key: &str) -> Result<Vec<(Params<'_>, Node)>, LessonError> {
        let p = self.param(key)?;
        let Ty::Tables(sub) = p.ty else {
            return Err(self.table_err(format!("internal: `{key}` is not a list of tables")));
        };
        let variant = self.variant;
        let mut tables = self.tables(p.key)?;
        for (t, _) in &mut tables {
            t.use_schema(sub);
            t.variant = variant;
        }
        Ok(tables)
    }

    /// The message and kind for a key left over at [`Params::finish`]: a
    /// key of another variant is named as such (with a schema), else the
    /// nearest known key is suggested and every known key listed.
    pub(super) fn leftover(&self, k: &str) -> (String, LessonErrorKind) {
        let others: Vec<&str> = self
            .schema
            .iter()
            .filter(|p| p.key == k)
            .flat_map(|p| p.only.iter().copied())
            .collect();
        if let Some(v) = self.variant
            && !others.is_empty()
            && find_for(self.schema, k, Some(v)).is_none()
        {
            let msg = format!(
                "`{k}` is a key of the {} model; this scenario's model is \"{v}\"",
                others.join(" and ")
            );
            return (msg, LessonErrorKind::OtherModelKey { key: k.into() });
        }
        let known = self.known_keys();
        let suggestion = known
            .iter()
            .map(|c| (edit_distance(k, c), *c))
            .filter(|(d, _)| *d <= 2)
            .min()
            .map(|(_, c)| c.to_owned());
        let hint = match (&suggestion, k, self.name.as_str()) {
            (Some(c), ..) => format!(" (did you mean `{c}`?)"),
            (None, "ticks", "[scenario]") => " (`ticks` belongs in [lesson])".to_owned(),
            _ => String::new(),
        };
        let msg = format!(
            "unknown key `{k}` in {}{hint}; known keys: {}",
            self.name,
            known.join(", ")
        );
        let kind = LessonErrorKind::UnknownKey {
            key: k.into(),
            suggestion,
        };
        (msg, kind)
    }
}
