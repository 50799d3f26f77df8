//! A TOML value tree in which every node keeps its source span, and the
//! parameter reader that turns a `[scenario]` table into checked values
//! with errors that point at the exact key or value.

use super::{LessonError, LessonErrorKind};
use crate::num::Fx;
use crate::num::{ParseNumError, parse_fx};
use crate::sim::Cell;
use core::ops::{Range, RangeInclusive};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// One TOML value with its span.
#[derive(Clone, Debug)]
pub struct Node {
    /// The value.
    pub kind: Kind,
    /// Byte range of the value in its source text.
    pub span: Range<usize>,
    /// `None` for a value from the lesson file; `Some(i)` for a value from
    /// the `i`-th `--set` argument, whose own text the span points into.
    pub set: Option<usize>,
}

/// The kinds of TOML values. Floats keep no value: their exact decimal is
/// re-read from the source text, never from a binary float.
#[derive(Clone, Debug)]
pub enum Kind {
    /// An integer.
    Int(i64),
    /// A float literal (see [`Node::span`] for its text).
    Float,
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Node>),
    /// A table: keys in source order, each with its span.
    Table(Vec<(String, Range<usize>, Node)>),
}

impl Kind {
    fn describe(&self) -> &'static str {
        match self {
            Kind::Int(_) => "an integer",
            Kind::Float => "a decimal number",
            Kind::Bool(_) => "a boolean",
            Kind::Str(_) => "a string",
            Kind::Array(_) => "an array",
            Kind::Table(_) => "a table",
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        let s = Spanned::<Kind>::deserialize(d)?;
        let span = s.span();
        Ok(Node {
            kind: s.into_inner(),
            span,
            set: None,
        })
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Kind;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a TOML value")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Kind, E> {
                Ok(Kind::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Kind, E> {
                i64::try_from(v)
                    .map(Kind::Int)
                    .map_err(|_| E::custom("integer out of range"))
            }
            fn visit_f64<E: de::Error>(self, _v: f64) -> Result<Kind, E> {
                Ok(Kind::Float)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Kind, E> {
                Ok(Kind::Bool(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Kind, E> {
                Ok(Kind::Str(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Kind, E> {
                Ok(Kind::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kind, A::Error> {
                let mut items = Vec::new();
                while let Some(n) = seq.next_element::<Node>()? {
                    items.push(n);
                }
                Ok(Kind::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Kind, A::Error> {
                let mut entries = Vec::new();
                while let Some(k) = map.next_key::<Spanned<String>>()? {
                    let span = k.span();
                    let v = map.next_value::<Node>()?;
                    entries.push((k.into_inner(), span, v));
                }
                Ok(Kind::Table(entries))
            }
        }
        d.deserialize_any(V)
    }
}

/// One `--set KEY=VALUE` argument: the argument as given and the tiny TOML
/// document (`v = VALUE`) its value was parsed from.
#[derive(Clone, Debug)]
pub struct SetArg {
    /// The argument as given.
    pub arg: String,
    /// `v = VALUE`, the text the spans of its nodes refer to.
    pub doc: String,
}

/// The source texts and names errors need.
pub struct Ctx<'a> {
    /// The lesson file's name, for messages.
    pub file: &'a str,
    /// The lesson file's text.
    pub src: &'a str,
    /// The `--set` arguments, indexed by [`Node::set`].
    pub sets: &'a [SetArg],
}

impl Ctx<'_> {
    /// An error at a byte offset of the lesson file.
    pub fn at(&self, offset: usize, message: impl Into<String>) -> LessonError {
        let (line, column) = line_col(self.src, offset);
        LessonError {
            kind: LessonErrorKind::Invalid,
            file: self.file.to_owned(),
            line,
            column,
            message: message.into(),
        }
    }

    /// An error at a span of the lesson file, or of the `--set` argument `set`.
    pub fn err_at(
        &self,
        set: Option<usize>,
        span: &Range<usize>,
        message: impl Into<String>,
    ) -> LessonError {
        match set.and_then(|i| self.sets.get(i)) {
            None => self.at(span.start, message),
            Some(s) => LessonError {
                kind: LessonErrorKind::Invalid,
                file: self.file.to_owned(),
                line: 0,
                column: 0,
                message: format!("--set {}: {}", super::clip(&s.arg), message.into()),
            },
        }
    }

    /// An error at a node.
    pub fn err(&self, node: &Node, message: impl Into<String>) -> LessonError {
        self.err_at(node.set, &node.span, message)
    }

    /// A map's error ([`crate::sim::GridError`], by the map's own line and
    /// column) at its place in the file: inside the lesson's multi-line
    /// string, or naming the `--set` argument.
    pub fn grid_err(&self, node: &Node, e: &crate::sim::GridError) -> LessonError {
        let kind = LessonErrorKind::Map(e.kind);
        if node.set.is_some() {
            let msg = format!("`map`: line {} column {}: {}", e.line, e.column, e.message);
            return self.err(node, msg).with_kind(kind);
        }
        let start = string_content_start(self.src, &node.span);
        let (l0, c0) = line_col(self.src, start);
        LessonError {
            kind,
            file: self.file.to_owned(),
            line: l0 + e.line - 1,
            column: if e.line == 1 {
                c0 + e.column - 1
            } else {
                e.column
            },
            message: format!("map: {}", e.message),
        }
    }

    /// The source text of a node (a float's exact decimal, say).
    pub fn text(&self, node: &Node) -> &str {
        let src = match node.set.and_then(|i| self.sets.get(i)) {
            None => self.src,
            Some(s) => s.doc.as_str(),
        };
        src.get(node.span.clone()).unwrap_or("")
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let mut off = offset;
    while !src.is_char_boundary(off) {
        off -= 1;
    }
    let before = &src[..off];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Checks a display name: 1-24 characters, no control characters, not
/// only spaces.
fn check_name(t: &str) -> Result<(), String> {
    let n = t.chars().count();
    if !(1..=24).contains(&n) || t.trim().is_empty() {
        Err(format!("a name is 1-24 characters, not {n}"))
    } else if t.chars().any(char::is_control) {
        Err("a name cannot hold control characters".into())
    } else {
        Ok(())
    }
}

/// Reads the entries of a table one key at a time; whatever is left at
/// [`Params::finish`] is an unknown key.
pub struct Params<'a> {
    ctx: &'a Ctx<'a>,
    /// The table's name in messages (`[scenario]`, `chasers[1]`).
    pub(super) name: String,
    table: Node,
    entries: BTreeMap<String, (Range<usize>, Node)>,
    known: Vec<&'static str>,
    /// The parameters it is read through ([`super::schema`]); empty: none.
    pub(super) schema: &'static [super::schema::Param],
    /// The variant whose keys it reads (a flock's model), once known.
    pub(super) variant: Option<&'static str>,
    /// The numbers read so far, for keys bounded by another's value.
    pub(super) values: Vec<(&'static str, Fx)>,
}

impl<'a> Params<'a> {
    /// A reader over a table node.
    pub fn new(
        ctx: &'a Ctx<'a>,
        name: impl Into<String>,
        node: Node,
    ) -> Result<Params<'a>, LessonError> {
        let name = name.into();
        let Kind::Table(entries) = node.kind else {
            return Err(ctx.err(
                &node,
                format!("{name} must be a table, found {}", node.kind.describe()),
            ));
        };
        let map = entries.into_iter().map(|(k, ks, v)| (k, (ks, v))).collect();
        let table = Node {
            kind: Kind::Table(Vec::new()),
            span: node.span,
            set: node.set,
        };
        Ok(Params {
            ctx,
            name,
            table,
            entries: map,
            known: Vec::new(),
            schema: &[],
            variant: None,
            values: Vec::new(),
        })
    }

    /// The context errors are reported through.
    pub fn ctx(&self) -> &'a Ctx<'a> {
        self.ctx
    }

    /// Takes a value out, noting the key as known.
    pub fn take(&mut self, key: &'static str) -> Option<Node> {
        self.noted(key);
        self.entries.remove(key).map(|(_, n)| n)
    }

    /// The value of `key` if present, left in place (the key is noted as known).
    pub fn peek(&mut self, key: &'static str) -> Option<&Node> {
        self.noted(key);
        self.entries.get(key).map(|(_, n)| n)
    }

    /// Notes `key` as known; with a schema, a key outside it is a bug of
    /// the reader, caught by the tests.
    fn noted(&mut self, key: &'static str) {
        debug_assert!(
            self.schema.is_empty() || self.schema.iter().any(|p| p.key == key),
            "{}: `{key}` is read but not in the schema",
            self.name
        );
        self.known.push(key);
    }

    /// An error about the table itself (a missing key, say).
    pub fn table_err(&self, msg: impl Into<String>) -> LessonError {
        self.ctx
            .err(&self.table, format!("{}: {}", self.name, msg.into()))
    }

    fn wrong(&self, key: &str, n: &Node, want: &str) -> LessonError {
        self.ctx
            .err(
                n,
                format!("`{key}` must be {want}, found {}", n.kind.describe()),
            )
            .with_kind(LessonErrorKind::WrongType { key: key.into() })
    }

    /// A required key's absence, said as `msg`.
    pub fn missing(&self, key: &str, msg: impl Into<String>) -> LessonError {
        self.table_err(msg)
            .with_kind(LessonErrorKind::Missing { key: key.into() })
    }

    /// An integer in `range`, or `default` when absent.
    pub fn int(
        &mut self,
        key: &'static str,
        default: i64,
        range: RangeInclusive<i64>,
    ) -> Result<i64, LessonError> {
        match self.take(key) {
            None => Ok(default),
            Some(n) => self.int_of(key, &n, range),
        }
    }

    /// A required integer in `range`.
    pub fn req_int(
        &mut self,
        key: &'static str,
        range: RangeInclusive<i64>,
    ) -> Result<(i64, Node), LessonError> {
        match self.take(key) {
            None => Err(self.missing(key, format!("missing `{key}`"))),
            Some(n) => Ok((self.int_of(key, &n, range)?, n)),
        }
    }

    /// An integer in `range` from a value already taken out.
    pub fn int_of(
        &self,
        key: &str,
        n: &Node,
        range: RangeInclusive<i64>,
    ) -> Result<i64, LessonError> {
        match n.kind {
            Kind::Int(v) if range.contains(&v) => Ok(v),
            Kind::Int(v) => Err(self
                .ctx
                .err(
                    n,
                    format!(
                        "`{key}` = {v} is out of range: expected {}..={}",
                        range.start(),
                        range.end()
                    ),
                )
                .with_kind(LessonErrorKind::OutOfRange { key: key.into() })),
            _ => Err(self.wrong(key, n, "an integer")),
        }
    }

    /// A boolean, or `default` when absent.
    pub fn bool(&mut self, key: &'static str, default: bool) -> Result<bool, LessonError> {
        match self.take(key) {
            None => Ok(default),
            Some(n) => match n.kind {
                Kind::Bool(b) => Ok(b),
                _ => Err(self.wrong(key, &n, "true or false")),
            },
        }
    }

    /// A string, if present, with its node.
    pub fn string(&mut self, key: &'static str) -> Result<Option<(String, Node)>, LessonError> {
        match self.take(key) {
            None => Ok(None),
            Some(n) => match &n.kind {
                Kind::Str(s) => Ok(Some((s.clone(), n))),
                _ => Err(self.wrong(key, &n, "a string")),
            },
        }
    }

    /// One of a fixed set of names (`key = "fifo"`), or `default` when
    /// absent; an unknown name is an error listing the choices.
    pub fn choice<T: Copy>(
        &mut self,
        key: &'static str,
        default: T,
        options: &[(&str, T)],
    ) -> Result<T, LessonError> {
        let ctx = self.ctx;
        match self.string(key)? {
            None => Ok(default),
            Some((s, n)) => options
                .iter()
                .find(|(name, _)| *name == s)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    let names: Vec<String> =
                        options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
                    ctx.err(
                        &n,
                        format!("`{key}` = \"{s}\" is not one of {}", names.join(", ")),
                    )
                    .with_kind(LessonErrorKind::NotAChoice { key: key.into() })
                }),
        }
    }

    /// A fixed-point number written as an integer, a decimal (`0.35`) or a
    /// string (`"0.35"`, or a fraction `"1/60"`), read exactly from its
    /// source text (a fraction is rounded once).
    pub fn fx(
        &mut self,
        key: &'static str,
        default: Fx,
        range: RangeInclusive<Fx>,
    ) -> Result<Fx, LessonError> {
        let Some(n) = self.take(key) else {
            return Ok(default);
        };
        self.fx_of(key, &n, range)
    }

    /// A list of fixed-point numbers (`[1, 2.5, "0.3"]`), if present, with
    /// its node; each must be in `range`.
    pub fn fx_list(
        &mut self,
        key: &'static str,
        range: RangeInclusive<Fx>,
    ) -> Result<Option<(Vec<Fx>, Node)>, LessonError> {
        let Some(n) = self.take(key) else {
            return Ok(None);
        };
        let Kind::Array(items) = &n.kind else {
            return Err(self.wrong(key, &n, "a list of numbers"));
        };
        let v = items
            .iter()
            .map(|item| self.fx_of(key, item, range.clone()))
            .collect::<Result<Vec<Fx>, LessonError>>()?;
        Ok(Some((v, n)))
    }

    fn fx_of(&self, key: &str, n: &Node, range: RangeInclusive<Fx>) -> Result<Fx, LessonError> {
        let parsed: Result<Fx, ParseNumError> = match &n.kind {
            Kind::Int(v) => i32::try_from(*v)
                .map(Fx::from_int)
                .map_err(|_| ParseNumError {
                    message: "out of range".into(),
                    offset: 0,
                }),
            Kind::Float => parse_fx(self.ctx.text(n)),
            Kind::Str(s) => match s.split_once('/') {
                // A fraction such as "1/60": both sides exact, one rounding.
                Some((a, b)) => parse_fx(a.trim()).and_then(|a| {
                    let b = parse_fx(b.trim())?;
                    Fx::from_ratio(a.to_bits(), b.to_bits()).ok_or(ParseNumError {
                        message: "not a finite fraction in range".into(),
                        offset: 0,
                    })
                }),
                None => parse_fx(s),
            },
            _ => return Err(self.wrong(key, n, "a number")),
        };
        let v = parsed.map_err(|e| {
            self.ctx
                .err(n, format!("`{key}`: {e}"))
                .with_kind(LessonErrorKind::WrongType { key: key.into() })
        })?;
        if !range.contains(&v) {
            let msg = format!(
                "`{key}` = {v} is out of range: expected {}..={}",
                range.start(),
                range.end()
            );
            return Err(self
                .ctx
                .err(n, msg)
                .with_kind(LessonErrorKind::OutOfRange { key: key.into() }));
        }
        Ok(v)
    }

    /// A cell written `[x, y]`, if present, with its node.
    pub fn cell(&mut self, key: &'static str) -> Result<Option<(Cell, Node)>, LessonError> {
        match self.take(key) {
            None => Ok(None),
            Some(n) => Ok(Some((cell_of(self.ctx, key, &n)?, n))),
        }
    }

    /// A required cell.
    pub fn req_cell(&mut self, key: &'static str) -> Result<(Cell, Node), LessonError> {
        match self.cell(key)? {
            Some(c) => Ok(c),
            None => Err(self.missing(key, format!("missing `{key}` (a cell [x, y])"))),
        }
    }

    /// A list of cells written `[[x, y], …]`, empty when absent.
    pub fn cells(&mut self, key: &'static str) -> Result<Vec<(Cell, Node)>, LessonError> {
        let Some(n) = self.take(key) else {
            return Ok(Vec::new());
        };
        let Kind::Array(items) = &n.kind else {
            return Err(self.wrong(key, &n, "a list of [x, y] cells"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, c)| Ok((cell_of(self.ctx, &format!("{key}[{i}]"), c)?, c.clone())))
            .collect()
    }

    /// An entity's display name (`name = "A"`): 1-24 characters, no
    /// control characters, not only spaces.
    pub fn name(&mut self, key: &'static str) -> Result<Option<String>, LessonError> {
        let Some((text, n)) = self.string(key)? else {
            return Ok(None);
        };
        check_name(&text).map_err(|m| self.ctx.err(&n, format!("`{key}`: {m}")))?;
        Ok(Some(text))
    }

    /// A list of display names (`target_names = ["a", "b"]`).
    pub fn names(&mut self, key: &'static str) -> Result<Vec<String>, LessonError> {
        let Some(n) = self.take(key) else {
            return Ok(Vec::new());
        };
        let Kind::Array(items) = &n.kind else {
            return Err(self.wrong(key, &n, "a list of names"));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| match &item.kind {
                Kind::Str(t) => check_name(t)
                    .map(|()| t.clone())
                    .map_err(|m| self.ctx.err(item, format!("`{key}[{i}]`: {m}"))),
                other => Err(self.ctx.err(
                    item,
                    format!("`{key}[{i}]` must be a string, found {}", other.describe()),
                )),
            })
            .collect()
    }

    /// A list of tables (`[[scenario.KEY]]`), each as a reader of its own.
    pub fn tables(&mut self, key: &'static str) -> Result<Vec<(Params<'a>, Node)>, LessonError> {
        let Some(n) = self.take(key) else {
            return Ok(Vec::new());
        };
        let Kind::Array(items) = n.kind else {
            return Err(self.wrong(key, &n, "a list of tables"));
        };
        items
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                let at = Node {
                    kind: Kind::Table(Vec::new()),
                    span: item.span.clone(),
                    set: item.set,
                };
                Ok((Params::new(self.ctx, format!("{key}[{i}]"), item)?, at))
            })
            .collect()
    }

    /// Fails on the first key nobody asked for, suggesting the nearest
    /// known one (with a schema: a key of another model is named as such).
    pub fn finish(self) -> Result<(), LessonError> {
        let Some((k, (key_span, n))) = self.entries.iter().next() else {
            return Ok(());
        };
        let (msg, kind) = self.leftover(k);
        Err(self.ctx.err_at(n.set, key_span, msg).with_kind(kind))
    }

    /// The keys this table knows: its schema's for its variant, else the
    /// keys its reader asked for.
    pub(super) fn known_keys(&self) -> Vec<&'static str> {
        let mut known = if self.schema.is_empty() {
            self.known.clone()
        } else {
            super::schema::keys(self.schema, self.variant)
        };
        if self.name == "[scenario]" && !known.contains(&"sim") {
            known.push("sim");
        }
        known.sort_unstable();
        known.dedup();
        known
    }
}

fn cell_of(ctx: &Ctx, what: &str, n: &Node) -> Result<Cell, LessonError> {
    let bad = || {
        ctx.err(
            n,
            format!("`{what}` must be a cell [x, y] with integer coordinates"),
        )
    };
    let Kind::Array(xy) = &n.kind else {
        return Err(bad());
    };
    match xy.as_slice() {
        [
            Node {
                kind: Kind::Int(x), ..
            },
            Node {
                kind: Kind::Int(y), ..
            },
        ] => {
            let conv = |v: i64| {
                i32::try_from(v).map_err(|_| {
                    ctx.err(n, format!("`{what}`: coordinate {v} does not fit in i32"))
                })
            };
            Ok(Cell::new(conv(*x)?, conv(*y)?))
        }
        _ => Err(bad()),
    }
}

/// Levenshtein distance, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != *cb) as usize)
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The text inside a TOML string literal's span: the offset of the first
/// content character (after the quotes and a trimmed first newline).
pub fn string_content_start(src: &str, span: &Range<usize>) -> usize {
    let raw = src.get(span.clone()).unwrap_or("");
    let mut skip = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else if raw.starts_with('"') || raw.starts_with('\'') {
        1
    } else {
        0
    };
    if skip == 3 {
        if raw[skip..].starts_with("\r\n") {
            skip += 2;
        } else if raw[skip..].starts_with('\n') {
            skip += 1;
        }
    }
    span.start + skip
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let src = "ab\ncdé\nf";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 7), (2, 4));
        assert_eq!(line_col(src, 8), (3, 1));
        assert_eq!(line_col(src, 99), (3, 2));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("tick", "ticks"), 1);
        assert_eq!(edit_distance("seed", "sede"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn nodes_keep_spans_at_every_depth() {
        #[derive(serde::Deserialize)]
        struct Doc {
            t: Node,
        }
        let src = "[t]\na = [1, [2, 3]]\nb = 0.35\n";
        let d: Doc = toml::from_str(src).unwrap();
        let Kind::Table(entries) = d.t.kind else {
            panic!()
        };
        let (k, kspan, a) = &entries[0];
        assert_eq!((k.as_str(), &src[kspan.clone()]), ("a", "a"));
        let Kind::Array(items) = &a.kind else {
            panic!()
        };
        assert_eq!(&src[items[1].span.clone()], "[2, 3]");
        let (_, _, b) = &entries[1];
        assert!(matches!(b.kind, Kind::Float));
        assert_eq!(&src[b.span.clone()], "0.35");
    }

    #[test]
    fn fx_params_are_read_from_their_decimal_text() {
        #[derive(serde::Deserialize)]
        struct Doc {
            t: Node,
        }
        let src = "[t]\nw = 0.35\ns = \"0.1\"\ni = 3\n";
        let d: Doc = toml::from_str(src).unwrap();
        let ctx = Ctx {
            file: "x.toml",
            src,
            sets: &[],
        };
        let mut p = Params::new(&ctx, "[t]", d.t).unwrap();
        let all = Fx::MIN..=Fx::MAX;
        assert_eq!(
            p.fx("w", Fx::ZERO, all.clone()).unwrap(),
            parse_fx("0.35").unwrap()
        );
        assert_eq!(
            p.fx("s", Fx::ZERO, all.clone()).unwrap(),
            parse_fx("0.1").unwrap()
        );
        assert_eq!(p.fx("i", Fx::ZERO, all.clone()).unwrap(), Fx::from_int(3));
        assert_eq!(p.fx("absent", Fx::ONE, all).unwrap(), Fx::ONE);
        p.finish().unwrap();
    }
}
