//! The canonical byte encoding of simulation state, and the state hash over it.
//!
//! A state hash must not depend on a codec's options, a library version or
//! the platform, so it is defined here, once, over a small fixed encoding
//! produced straight from the state's `serde` structure:
//!
//! | value | bytes |
//! |---|---|
//! | `bool` | one byte, 0 or 1 |
//! | integers (`i8`…`u128`) | little-endian, their own width |
//! | `char` | its scalar value as `u32` |
//! | string, byte string | length as `u64`, then the UTF-8 bytes / bytes |
//! | `None` / `Some(v)` | byte 0 / byte 1 then `v` |
//! | unit, unit struct | nothing |
//! | sequence, map | length as `u64`, then the elements (map: key then value) |
//! | tuple, struct | the fields in declaration order, no names |
//! | enum variant | its index as `u32`, then its fields |
//! | `f32`, `f64` | rejected: floating point never enters a state |
//!
//! ([`crate::num::Fx`] serializes as its raw `i64` bits.) Maps must be
//! ordered (`BTreeMap`); the tidy test keeps `HashMap` out of the core.
//! The hash is XXH64 with seed 0 over these bytes.

use crate::num::Xxh64;
use core::fmt;
use serde::ser::{self, Serialize};

/// Why a value has no canonical encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonError(pub String);

impl fmt::Display for CanonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CanonError {}

impl ser::Error for CanonError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        CanonError(msg.to_string())
    }
}

/// Where canonical bytes go: a buffer or a running hash.
pub trait ByteSink {
    /// Appends bytes.
    fn put(&mut self, bytes: &[u8]);
}

impl ByteSink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl ByteSink for Xxh64 {
    fn put(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

/// The canonical bytes of a value.
pub fn canonical_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CanonError> {
    let mut out = Vec::new();
    value.serialize(&mut Canon(&mut out))?;
    Ok(out)
}

/// The state hash: XXH64 (seed 0) of the canonical bytes.
///
/// # Panics
/// If the value contains a float, which is a defect in a state type (every
/// state type is hashed by the tests), not a property of any input.
pub fn state_hash<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut h = Buffered {
        hash: Xxh64::new(0),
        buf: [0; BUFFERED],
        len: 0,
    };
    if let Err(e) = value.serialize(&mut Canon(&mut h)) {
        panic!("state has no canonical encoding: {e}");
    }
    h.hash.update(&h.buf[..h.len]);
    h.hash.finish()
}

const BUFFERED: usize = 1024;

/// Gathers the many small writes of a serialization into blocks before
/// hashing them: the same bytes reach the hash, in far fewer calls (a
/// 1,000-boid flock hashes about 4× faster this way).
struct Buffered {
    hash: Xxh64,
    buf: [u8; BUFFERED],
    len: usize,
}

impl ByteSink for Buffered {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        if bytes.len() > BUFFERED - self.len {
            self.hash.update(&self.buf[..self.len]);
            self.len = 0;
            if bytes.len() > BUFFERED {
                self.hash.update(bytes);
                return;
            }
        }
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}

/// The canonical serializer over a [`ByteSink`].
pub struct Canon<'a, W: ByteSink>(pub &'a mut W);

impl<W: ByteSink> Canon<'_, W> {
    fn len(&mut self, len: Option<usize>) -> Result<(), CanonError> {
        let len = len.ok_or_else(|| CanonError("sequence of unknown length".into()))?;
        self.0.put(&(len as u64).to_le_bytes());
        Ok(())
    }
}

fn no_floats() -> CanonError {
    CanonError("floating-point value in a simulation state".into())
}

macro_rules! le {
    ($($name:ident: $t:ty),*) => {$(
        fn $name(self, v: $t) -> Result<(), CanonError> {
            self.0.put(&v.to_le_bytes());
            Ok(())
        }
    )*};
}

impl<'a, W: ByteSink> ser::Serializer for &mut Canon<'a, W> {
    type Ok = ();
    type Error = CanonError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    le!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64, serialize_i128: i128,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64, serialize_u128: u128);

    fn serialize_bool(self, v: bool) -> Result<(), CanonError> {
        self.0.put(&[v as u8]);
        Ok(())
    }
    fn serialize_f32(self, _v: f32) -> Result<(), CanonError> {
        Err(no_floats())
    }
    fn serialize_f64(self, _v: f64) -> Result<(), CanonError> {
        Err(no_floats())
    }
    fn serialize_char(self, v: char) -> Result<(), CanonError> {
        self.serialize_u32(v as u32)
    }
    fn serialize_str(self, v: &str) -> Result<(), CanonError> {
        self.serialize_bytes(v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), CanonError> {
        self.len(Some(v.len()))?;
        self.0.put(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), CanonError> {
        self.0.put(&[0]);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), CanonError> {
        self.0.put(&[1]);
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), CanonError> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), CanonError> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        idx: u32,
        _: &'static str,
    ) -> Result<(), CanonError> {
        self.serialize_u32(idx)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), CanonError> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        idx: u32,
        _: &'static str,
        v: &T,
    ) -> Result<(), CanonError> {
        self.serialize_u32(idx)?;
        v.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, CanonError> {
        self.len(len)?;
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, CanonError> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, CanonError> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        idx: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, CanonError> {
        self.serialize_u32(idx)?;
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, CanonError> {
        self.len(len)?;
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, CanonError> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        idx: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, CanonError> {
        self.serialize_u32(idx)?;
        Ok(self)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

macro_rules! compound {
    ($($tr:ident :: $m:ident),*) => {$(
        impl<'a, W: ByteSink> ser::$tr for &mut Canon<'a, W> {
            type Ok = ();
            type Error = CanonError;
            fn $m<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), CanonError> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), CanonError> {
                Ok(())
            }
        }
    )*};
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<'a, W: ByteSink> ser::SerializeMap for &mut Canon<'a, W> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), CanonError> {
        k.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), CanonError> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), CanonError> {
        Ok(())
    }
}

impl<'a, W: ByteSink> ser::SerializeStruct for &mut Canon<'a, W> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        v: &T,
    ) -> Result<(), CanonError> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), CanonError> {
        Ok(())
    }
}

impl<'a, W: ByteSink> ser::SerializeStructVariant for &mut Canon<'a, W> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        _: &'static str,
        v: &T,
    ) -> Result<(), CanonError> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), CanonError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    enum E {
        A,
        B(u8),
        C { x: i16 },
    }

    #[derive(Serialize)]
    struct S {
        flag: bool,
        n: i32,
        name: String,
        opt: Option<u16>,
        list: Vec<E>,
        map: BTreeMap<u8, u8>,
    }

    #[test]
    fn encoding_is_the_documented_one() {
        let s = S {
            flag: true,
            n: -2,
            name: "ab".into(),
            opt: Some(7),
            list: vec![E::A, E::B(9), E::C { x: -1 }],
            map: [(2, 3)].into_iter().collect(),
        };
        let b = canonical_bytes(&s).unwrap();
        let want: Vec<u8> = [
            &[1u8][..],
            &(-2i32).to_le_bytes(),
            &2u64.to_le_bytes(),
            b"ab",
            &[1, 7, 0],
            &3u64.to_le_bytes(),
            &0u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            &[9],
            &2u32.to_le_bytes(),
            &(-1i16).to_le_bytes(),
            &1u64.to_le_bytes(),
            &[2, 3],
        ]
        .concat();
        assert_eq!(b, want);
        assert_eq!(state_hash(&s), Xxh64::digest(0, &want));
    }

    #[test]
    fn floats_are_rejected() {
        #[derive(Serialize)]
        struct Bad {
            v: f32,
        }
        assert!(canonical_bytes(&Bad { v: 1.0 }).is_err());
    }
}
