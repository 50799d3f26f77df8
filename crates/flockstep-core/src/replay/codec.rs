//! The payload codec: serde values to bytes and back with `bincode` 2.0.1,
//! little-endian, fixed-width integers (smaller than varints for the raw
//! bits of fixed-point numbers, which are rarely small), and a size limit
//! so a corrupt length field cannot make the decoder allocate without bound.
//!
//! Every use of `bincode` in the crate goes through this module, so the
//! codec can be swapped (the replay container will carry a codec id).

use core::fmt;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The codec id of this encoding, as a replay header will record it.
pub const CODEC_ID: u16 = 1;

/// The largest payload the decoder accepts, and so the largest state a
/// recording may hold (256 MiB: a million boids of any model, or one search
/// on a 4096 × 4096 map). The recorder refuses larger states rather than
/// write a file the reader would refuse.
pub const MAX_PAYLOAD: usize = 256 << 20;

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_little_endian()
        .with_fixed_int_encoding()
        .with_limit::<MAX_PAYLOAD>()
}

/// Why a payload could not be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodecError(pub String);

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodecError {}

/// Encodes a value.
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, CodecError> {
    bincode::serde::encode_to_vec(value, config()).map_err(|e| CodecError(e.to_string()))
}

/// Decodes a value that must use the whole of `bytes`.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    let (v, used) = bincode::serde::decode_from_slice(bytes, config())
        .map_err(|e| CodecError(e.to_string()))?;
    if used != bytes.len() {
        return Err(CodecError(format!(
            "{} trailing bytes after the payload",
            bytes.len() - used
        )));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Fx, Pcg32};
    use crate::sim::Cell;
    use crate::sim::line::{Line, Stepper};

    #[test]
    fn round_trips_core_values() {
        let fx = Fx::from_bits(-0x1_2345_6789);
        assert_eq!(encode(&fx).unwrap(), (-0x1_2345_6789i64).to_le_bytes());
        assert_eq!(decode::<Fx>(&encode(&fx).unwrap()).unwrap(), fx);
        let mut rng = Pcg32::new(1, 2);
        rng.next_u32();
        assert_eq!(decode::<Pcg32>(&encode(&rng).unwrap()).unwrap(), rng);
        let mut st: Stepper = Line::new(Cell::new(0, 0), Cell::new(-7, 3)).stepper();
        st.advance();
        assert_eq!(decode::<Stepper>(&encode(&st).unwrap()).unwrap(), st);
    }

    #[test]
    fn rejects_truncated_and_trailing_bytes() {
        let bytes = encode(&(1u32, 2u64)).unwrap();
        assert!(decode::<(u32, u64)>(&bytes[..5]).is_err());
        let mut long = bytes.clone();
        long.push(0);
        assert!(
            decode::<(u32, u64)>(&long)
                .unwrap_err()
                .0
                .contains("trailing")
        );
    }

    #[test]
    fn a_huge_length_is_refused_without_allocating() {
        let mut bytes = (u64::MAX / 2).to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 8]);
        assert!(decode::<Vec<u8>>(&bytes).is_err());
    }
}
