//! [`Pcg32`]: the seeded pseudo-random generator of the core, PCG-XSH-RR
//! 64/32 as specified by M. E. O'Neill (<https://www.pcg-random.org>).
//!
//! Its state is an ordinary value inside each simulation's state, so it is
//! hashed, recorded and replayed with everything else; there is no global
//! generator anywhere in the crate.

use serde::{Deserialize, Serialize};

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

/// A PCG32 generator: 64-bit LCG state, 32-bit output by xorshift and a
/// random rotation. Its stream is selected by `inc` (always odd).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Pcg32 {
    state: u64,
    inc: u64,
}

impl Pcg32 {
    /// The generator for `seed` on stream `stream`, seeded exactly as the
    /// reference `pcg32_srandom_r(seed, stream)`.
    pub fn new(seed: u64, stream: u64) -> Pcg32 {
        let mut rng = Pcg32 {
            state: 0,
            inc: (stream << 1) | 1,
        };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(self.inc);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// The next 64 random bits: two outputs, the first in the high half.
    pub fn next_u64(&mut self) -> u64 {
        let hi = self.next_u32() as u64;
        let lo = self.next_u32() as u64;
        (hi << 32) | lo
    }

    /// A uniform integer in `[0, n)` without bias (Lemire's multiply and
    /// reject); `n == 0` gives 0.
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let mut m = self.next_u32() as u64 * n as u64;
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = self.next_u32() as u64 * n as u64;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform integer in `[lo, hi]` (inclusive); `hi < lo` gives `lo`.
    pub fn range_i32(&mut self, lo: i32, hi: i32) -> i32 {
        if hi <= lo {
            return lo;
        }
        let span = (hi as i64 - lo as i64 + 1) as u64;
        let off = if span > u32::MAX as u64 {
            self.next_u32() as u64
        } else {
            self.below(span as u32) as u64
        };
        (lo as i64 + off as i64) as i32
    }

    /// True with probability `num / den` (`den > 0`).
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference implementation's demo (`pcg32-demo`, seed 42, stream 54)
    /// prints these first outputs; they pin the generator forever.
    #[test]
    fn matches_the_reference_outputs() {
        let mut rng = Pcg32::new(42, 54);
        let got: Vec<u32> = (0..6).map(|_| rng.next_u32()).collect();
        assert_eq!(
            got,
            [
                0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e
            ]
        );
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = Pcg32::new(1, 1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn range_handles_the_extremes() {
        let mut rng = Pcg32::new(3, 9);
        for _ in 0..1000 {
            let v = rng.range_i32(-3, 3);
            assert!((-3..=3).contains(&v));
        }
        let _ = rng.range_i32(i32::MIN, i32::MAX);
        assert_eq!(rng.range_i32(5, 5), 5);
        assert_eq!(rng.range_i32(5, 4), 5);
    }

    #[test]
    fn streams_differ() {
        let a = Pcg32::new(42, 1).next_u64();
        let b = Pcg32::new(42, 2).next_u64();
        assert_ne!(a, b);
    }
}
