//! [`Xxh64`]: the stable 64-bit state hash, XXH64 implemented from its
//! specification (<https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md>).
//!
//! It is fed the canonical byte encoding of a state (see [`crate::canon`]),
//! never `std`'s `Hash`/`DefaultHasher`, whose output may change between
//! Rust releases and platforms.

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

fn round(acc: u64, input: u64) -> u64 {
    acc.wrapping_add(input.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

fn merge(acc: u64, val: u64) -> u64 {
    (acc ^ round(0, val)).wrapping_mul(P1).wrapping_add(P4)
}

fn read_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// A streaming XXH64 hasher: feed bytes with [`Xxh64::update`] in any
/// chunking, read the digest with [`Xxh64::finish`].
#[derive(Clone, Debug)]
pub struct Xxh64 {
    seed: u64,
    acc: [u64; 4],
    buf: [u8; 32],
    buf_len: usize,
    total: u64,
}

impl Xxh64 {
    /// A hasher with the given seed (the state hash uses seed 0).
    pub fn new(seed: u64) -> Xxh64 {
        Xxh64 {
            seed,
            acc: [
                seed.wrapping_add(P1).wrapping_add(P2),
                seed.wrapping_add(P2),
                seed,
                seed.wrapping_sub(P1),
            ],
            buf: [0; 32],
            buf_len: 0,
            total: 0,
        }
    }

    fn stripe(acc: &mut [u64; 4], s: &[u8]) {
        for (i, a) in acc.iter_mut().enumerate() {
            *a = round(*a, read_u64(&s[i * 8..]));
        }
    }

    /// Feeds bytes.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total = self.total.wrapping_add(data.len() as u64);
        if self.buf_len > 0 {
            let take = (32 - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < 32 {
                return;
            }
            let buf = self.buf;
            Self::stripe(&mut self.acc, &buf);
            self.buf_len = 0;
        }
        while data.len() >= 32 {
            Self::stripe(&mut self.acc, &data[..32]);
            data = &data[32..];
        }
        self.buf[..data.len()].copy_from_slice(data);
        self.buf_len = data.len();
    }

    /// The digest of everything fed so far (the hasher can keep going).
    pub fn finish(&self) -> u64 {
        let [v1, v2, v3, v4] = self.acc;
        let mut h = if self.total >= 32 {
            let mut h = v1
                .rotate_left(1)
                .wrapping_add(v2.rotate_left(7))
                .wrapping_add(v3.rotate_left(12))
                .wrapping_add(v4.rotate_left(18));
            for v in [v1, v2, v3, v4] {
                h = merge(h, v);
            }
            h
        } else {
            self.seed.wrapping_add(P5)
        };
        h = h.wrapping_add(self.total);
        let mut rest = &self.buf[..self.buf_len];
        while rest.len() >= 8 {
            h ^= round(0, read_u64(rest));
            h = h.rotate_left(27).wrapping_mul(P1).wrapping_add(P4);
            rest = &rest[8..];
        }
        if rest.len() >= 4 {
            let k = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as u64;
            h ^= k.wrapping_mul(P1);
            h = h.rotate_left(23).wrapping_mul(P2).wrapping_add(P3);
            rest = &rest[4..];
        }
        for &b in rest {
            h ^= (b as u64).wrapping_mul(P5);
            h = h.rotate_left(11).wrapping_mul(P1);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P3);
        h ^= h >> 32;
        h
    }

    /// The XXH64 of one byte slice.
    pub fn digest(seed: u64, data: &[u8]) -> u64 {
        let mut h = Xxh64::new(seed);
        h.update(data);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published vectors (xxHash's own sanity checks and its documentation).
    #[test]
    fn published_vectors() {
        assert_eq!(Xxh64::digest(0, b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(Xxh64::digest(0, b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(Xxh64::digest(0, b"abc"), 0x44BC_2CF5_AD77_0999);
        assert_eq!(
            Xxh64::digest(0, b"Nobody inspects the spammish repetition"),
            0xFBCE_A83C_8A37_8BF1
        );
    }

    #[test]
    fn chunking_does_not_matter() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = Xxh64::digest(17, &data);
        for chunk in [1, 3, 8, 31, 32, 33, 100] {
            let mut h = Xxh64::new(17);
            for c in data.chunks(chunk) {
                h.update(c);
            }
            assert_eq!(h.finish(), whole, "chunk {chunk}");
        }
    }
}
