//! States as named fields: any `serde` value flattened into `(path, value)`
//! leaves, and the field-by-field difference of two values.
//!
//! This is how `verify`, `diff` and `dump` name *which entity and which
//! field* changed (`boids[12].vel.x`) without knowing any sim: the paths come
//! from the serde structure, so a new sim gets them for free.
//!
//! | serde shape | path | leaf |
//! |---|---|---|
//! | struct field | `parent.field` | — |
//! | sequence | `parent.len`, then `parent[i]` | the length |
//! | tuple, tuple struct, newtype variant | `parent.0`, `parent.1`, … | — |
//! | enum variant | `parent` | the variant's name, then its fields under `parent` |
//! | map | `parent[key]` | — |
//! | `Fx` (newtype "Fx") | | decimal and raw bits |
//! | `Angle` (newtype "Angle") | | degrees and raw turns |
//!
//! A sequence's length precedes its elements, and a variant's name precedes
//! its fields, so when two values differ in shape the first differing leaf
//! says so (`boids.len: 40 → 41`) before any element is compared.

use crate::num::{Angle, Fx};
use core::fmt;
use serde::ser::{self, Serialize};

/// One scalar of a flattened value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    Int(i128),
    /// An unsigned integer (lengths too).
    Uint(u128),
    /// A `u128` (the open list's packed keys): JSON writes it as a
    /// decimal string, since a JSON number holds 64 bits exactly.
    Wide(u128),
    /// A fixed-point number (raw `I32F32` bits).
    Fx(i64),
    /// A binary angle (`k / 2³²` turns).
    Angle(u32),
    /// A character.
    Char(char),
    /// A string.
    Str(String),
    /// Bytes.
    Bytes(Vec<u8>),
    /// `None`.
    None,
    /// `()` or a unit struct.
    Unit,
    /// An enum variant's name.
    Variant(&'static str),
    /// A float: never in a state; shown so the defect is visible.
    Float(String),
}

/// Hex digits grouped by four from the right: `0x3_4000_0000`.
fn grouped_hex(v: u64) -> String {
    let digits = format!("{v:x}");
    let mut out = String::with_capacity(digits.len() + digits.len() / 4 + 2);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 4 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    format!("0x{out}")
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(v) => write!(f, "{v}"),
            Value::Uint(v) => write!(f, "{v}"),
            Value::Wide(v) => write!(f, "{v}"),
            Value::Fx(bits) => {
                let sign = if *bits < 0 { "-" } else { "" };
                write!(
                    f,
                    "{} ({sign}{})",
                    Fx::from_bits(*bits),
                    grouped_hex(bits.unsigned_abs())
                )
            }
            Value::Angle(a) => write!(f, "{} ({})", Angle(*a), grouped_hex(u64::from(*a))),
            Value::Char(c) => write!(f, "{c:?}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Bytes(b) => write!(f, "{} bytes", b.len()),
            Value::None => f.write_str("None"),
            Value::Unit => f.write_str("()"),
            Value::Variant(v) => f.write_str(v),
            Value::Float(s) => write!(f, "{s} (float!)"),
        }
    }
}

/// One named scalar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// Where it is: `boids[12].vel.x`.
    pub path: String,
    /// What it is.
    pub value: Value,
}

/// The leaves of a value, in serialization order.
pub fn leaves<T: Serialize + ?Sized>(value: &T) -> Vec<Leaf> {
    let mut out = Vec::new();
    let mut f = Flatten {
        path: String::new(),
        out: &mut out,
    };
    // The flattener itself never fails; a value's own `serialize` may.
    if let Err(Never(msg)) = value.serialize(&mut f) {
        out.push(Leaf {
            path: "<error>".into(),
            value: Value::Str(msg),
        });
    }
    out
}

/// One field that differs between two values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    /// The field's path in the first value.
    pub path: String,
    /// Its value there (`None` when the first value ends first).
    pub old: Option<Value>,
    /// The path in the second value, when the shapes diverge here.
    pub new_path: Option<String>,
    /// Its value in the second value (`None` when it ends first).
    pub new: Option<Value>,
}

impl fmt::Display for FieldDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<Value>| v.as_ref().map_or("(absent)".to_owned(), Value::to_string);
        match &self.new_path {
            None => write!(
                f,
                "{}: {} → {}",
                self.path,
                show(&self.old),
                show(&self.new)
            ),
            Some(np) => write!(
                f,
                "shape differs: {} = {} vs {} = {}",
                self.path,
                show(&self.old),
                np,
                show(&self.new)
            ),
        }
    }
}

/// The differing fields of two values: at most `limit` of them, in order,
/// and how many differ in all. Stops at the first difference in shape
/// (which is then the last entry), since nothing after it lines up.
pub fn diff<A: Serialize + ?Sized, B: Serialize + ?Sized>(
    old: &A,
    new: &B,
    limit: usize,
) -> (Vec<FieldDiff>, u64) {
    diff_leaves(&leaves(old), &leaves(new), limit)
}

/// [`diff`] of two lists of leaves.
pub fn diff_leaves(a: &[Leaf], b: &[Leaf], limit: usize) -> (Vec<FieldDiff>, u64) {
    let mut out = Vec::new();
    let mut total = 0u64;
    let mut push = |d: FieldDiff, out: &mut Vec<FieldDiff>| {
        total += 1;
        if out.len() < limit {
            out.push(d);
        }
    };
    let n = a.len().max(b.len());
    for i in 0..n {
        match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) if x.path == y.path => {
                if x.value != y.value {
                    push(
                        FieldDiff {
                            path: x.path.clone(),
                            old: Some(x.value.clone()),
                            new_path: None,
                            new: Some(y.value.clone()),
                        },
                        &mut out,
                    );
                    // After a length or a variant, nothing lines up.
                    let shape = x.path == "len"
                        || x.path.ends_with(".len")
                        || matches!(x.value, Value::Variant(_));
                    if shape {
                        break;
                    }
                }
            }
            (x, y) => {
                push(
                    FieldDiff {
                        path: x.or(y).map(|l| l.path.clone()).unwrap_or_default(),
                        old: x.map(|l| l.value.clone()),
                        new_path: match (x, y) {
                            (Some(_), Some(y)) => Some(y.path.clone()),
                            _ => None,
                        },
                        new: y.map(|l| l.value.clone()),
                    },
                    &mut out,
                );
                break;
            }
        }
    }
    (out, total)
}

/// The flattener's error: only a value's own `serialize` can raise one.
#[derive(Debug)]
struct Never(String);

impl fmt::Display for Never {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Never(msg.to_string())
    }
}

struct Flatten<'a> {
    path: String,
    out: &'a mut Vec<Leaf>,
}

impl Flatten<'_> {
    fn leaf(&mut self, value: Value) -> Result<(), Never> {
        self.out.push(Leaf {
            path: self.path.clone(),
            value,
        });
        Ok(())
    }

    /// Serializes `v` with `suffix` appended to the path.
    fn child<T: Serialize + ?Sized>(&mut self, suffix: &str, v: &T) -> Result<(), Never> {
        let len = self.path.len();
        self.path.push_str(suffix);
        let r = v.serialize(&mut *self);
        self.path.truncate(len);
        r
    }

    fn field_suffix(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_owned()
        } else {
            format!(".{name}")
        }
    }
}

/// Compound serializers keep a running element index.
struct Compound<'a, 'b> {
    f: &'a mut Flatten<'b>,
    index: u64,
    /// Sequences index with `[i]`, tuples with `.i`.
    brackets: bool,
}

impl Compound<'_, '_> {
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        let suffix = if self.brackets {
            format!("[{}]", self.index)
        } else {
            self.f.field_suffix(&self.index.to_string())
        };
        self.index += 1;
        self.f.child(&suffix, v)
    }
}

macro_rules! leaf_methods {
    ($($name:ident: $t:ty => $make:expr;)*) => {$(
        fn $name(self, v: $t) -> Result<(), Never> {
            #[allow(clippy::redundant_closure_call)]
            self.leaf(($make)(v))
        }
    )*};
}

impl<'a, 'b> ser::Serializer for &'a mut Flatten<'b> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Compound<'a, 'b>;
    type SerializeTuple = Compound<'a, 'b>;
    type SerializeTupleStruct = Compound<'a, 'b>;
    type SerializeTupleVariant = Compound<'a, 'b>;
    type SerializeMap = MapFlatten<'a, 'b>;
    type SerializeStruct = Compound<'a, 'b>;
    type SerializeStructVariant = Compound<'a, 'b>;

    leaf_methods! {
        serialize_bool: bool => Value::Bool;
        serialize_i8: i8 => |v| Value::Int(i128::from(v));
        serialize_i16: i16 => |v| Value::Int(i128::from(v));
        serialize_i32: i32 => |v| Value::Int(i128::from(v));
        serialize_i64: i64 => |v| Value::Int(i128::from(v));
        serialize_i128: i128 => Value::Int;
        serialize_u8: u8 => |v| Value::Uint(u128::from(v));
        serialize_u16: u16 => |v| Value::Uint(u128::from(v));
        serialize_u32: u32 => |v| Value::Uint(u128::from(v));
        serialize_u64: u64 => |v| Value::Uint(u128::from(v));
        serialize_u128: u128 => Value::Wide;
        serialize_f32: f32 => |v: f32| Value::Float(v.to_string());
        serialize_f64: f64 => |v: f64| Value::Float(v.to_string());
        serialize_char: char => Value::Char;
        serialize_str: &str => |v: &str| Value::Str(v.to_owned());
        serialize_bytes: &[u8] => |v: &[u8]| Value::Bytes(v.to_vec());
    }

    fn serialize_none(self) -> Result<(), Never> {
        self.leaf(Value::None)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Never> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Never> {
        self.leaf(Value::Unit)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Never> {
        self.leaf(Value::Unit)
    }
    // Values are flattened as the binary formats hold them (the open
    // list's keys as numbers, not as the strings JSON gets).
    fn is_human_readable(&self) -> bool {
        false
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<(), Never> {
        self.leaf(Value::Variant(v))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        let mut inner = Vec::new();
        v.serialize(&mut Flatten {
            path: String::new(),
            out: &mut inner,
        })?;
        match (name, inner.as_slice()) {
            (
                "Fx",
                [
                    Leaf {
                        value: Value::Int(bits),
                        ..
                    },
                ],
            ) => self.leaf(Value::Fx(*bits as i64)),
            (
                "Angle",
                [
                    Leaf {
                        value: Value::Uint(a),
                        ..
                    },
                ],
            ) => self.leaf(Value::Angle(*a as u32)),
            _ => v.serialize(self),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<(), Never> {
        self.leaf(Value::Variant(variant))?;
        let suffix = self.field_suffix("0");
        self.child(&suffix, v)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'b>, Never> {
        let suffix = self.field_suffix("len");
        self.child(&suffix, &(len.unwrap_or(0) as u64))?;
        Ok(Compound {
            f: self,
            index: 0,
            brackets: true,
        })
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a, 'b>, Never> {
        Ok(Compound {
            f: self,
            index: 0,
            brackets: false,
        })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a, 'b>, Never> {
        self.serialize_tuple(0)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'b>, Never> {
        self.leaf(Value::Variant(variant))?;
        self.serialize_tuple(0)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapFlatten<'a, 'b>, Never> {
        Ok(MapFlatten {
            f: self,
            key: String::new(),
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'a, 'b>, Never> {
        self.serialize_tuple(0)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>, Never> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

/// The positional compounds: every element gets the next index.
macro_rules! positional {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = Never;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
                self.element(v)
            }
            fn end(self) -> Result<(), Never> {
                Ok(())
            }
        }
    )*};
}

positional!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The named compounds: every field is a path step.
macro_rules! named {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Compound<'_, '_> {
            type Ok = ();
            type Error = Never;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                name: &'static str,
                v: &T,
            ) -> Result<(), Never> {
                let suffix = self.f.field_suffix(name);
                self.f.child(&suffix, v)
            }
            fn end(self) -> Result<(), Never> {
                Ok(())
            }
        }
    )*};
}

named!(SerializeStruct, SerializeStructVariant);

/// Maps: each key is flattened on its own and shown inside brackets.
struct MapFlatten<'a, 'b> {
    f: &'a mut Flatten<'b>,
    key: String,
}

impl ser::SerializeMap for MapFlatten<'_, '_> {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Never> {
        let parts: Vec<String> = leaves(k)
            .into_iter()
            .map(|l| match l.value {
                Value::Str(s) => s,
                v => v.to_string(),
            })
            .collect();
        self.key = format!("[{}]", parts.join(","));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Never> {
        let key = core::mem::take(&mut self.key);
        self.f.child(&key, v)
    }
    fn end(self) -> Result<(), Never> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Vec3;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    struct Boid {
        pos: Vec3,
        heading: Angle,
    }

    #[derive(Serialize)]
    enum Model {
        Heading { turn: Vec<i32> },
        Plain,
        Wrapped(u8),
    }

    #[derive(Serialize)]
    struct World {
        tick: u64,
        boids: Vec<Boid>,
        model: Model,
        other: Model,
        wrapped: Model,
        pair: (bool, Option<u8>),
        names: BTreeMap<String, u8>,
    }

    fn world(x: i64, n: usize) -> World {
        World {
            tick: 7,
            boids: (0..n)
                .map(|i| Boid {
                    pos: Vec3::new(Fx::from_bits(x + i as i64), Fx::ZERO, Fx::from_int(-3)),
                    heading: Angle(1 << 30),
                })
                .collect(),
            model: Model::Heading { turn: vec![-1, 2] },
            other: Model::Plain,
            wrapped: Model::Wrapped(9),
            pair: (true, None),
            names: BTreeMap::from([("a".to_owned(), 1)]),
        }
    }

    #[test]
    fn paths_follow_the_serde_structure() {
        let text: Vec<String> = leaves(&world(0x3_4000_0000, 1))
            .iter()
            .map(|l| format!("{} = {}", l.path, l.value))
            .collect();
        assert_eq!(
            text,
            [
                "tick = 7",
                "boids.len = 1",
                "boids[0].pos.x = 3.25 (0x3_4000_0000)",
                "boids[0].pos.y = 0 (0x0)",
                "boids[0].pos.z = -3 (-0x3_0000_0000)",
                "boids[0].heading = 90deg (0x4000_0000)",
                "model = Heading",
                "model.turn.len = 2",
                "model.turn[0] = -1",
                "model.turn[1] = 2",
                "other = Plain",
                "wrapped = Wrapped",
                "wrapped.0 = 9",
                "pair.0 = true",
                "pair.1 = None",
                "names[a] = 1",
            ]
        );
    }

    #[test]
    fn diff_names_each_changed_field_and_stops_at_a_shape_change() {
        let (d, total) = diff(&world(0x3_4000_0000, 3), &world(0x3_4000_7f00, 3), 2);
        assert_eq!(total, 3, "pos.x of all three boids");
        assert_eq!(
            d[0].to_string(),
            "boids[0].pos.x: 3.25 (0x3_4000_0000) → 3.2500075698 (0x3_4000_7f00)"
        );
        assert_eq!(d[1].path, "boids[1].pos.x");
        let (d, total) = diff(&world(0, 2), &world(0, 3), 10);
        assert_eq!(total, 1);
        assert_eq!(d[0].to_string(), "boids.len: 2 → 3");
        let (d, _) = diff(&world(0, 2), &world(0, 2), 10);
        assert!(d.is_empty());
        let (d, total) = diff(&vec![1u8], &(1u64, 2u8), 10);
        assert_eq!(total, 1);
        assert_eq!(d[0].to_string(), "shape differs: len = 1 vs 0 = 1");
    }
}
