//! A fast, deterministic reciprocal square root for the flocking hot path.
//!
//! DESIGN.md's performance notes: an exact square root costs 20–40 ns, too
//! much to pay per neighbour pair. [`inv_sqrt_wide`] normalises its input to
//! `m ∈ [2⁶², 2⁶⁴)` by an even shift, seeds `1/√m` by linear interpolation
//! in a 193-entry table (built at compile time from exact integer square
//! roots, so nothing is copied from a float library), and refines it with
//! one Newton step in 64/128-bit integer arithmetic. Every step is an integer operation, so
//! the result is the same on every platform and in every build profile.
//!
//! Error bound (tested against `f64` over 200,000 inputs spanning the whole
//! range): the relative error of the result is below 2 × 10⁻⁹, and it
//! never overestimates by more than that either — callers that need a
//! length no larger than the truth subtract nothing; callers that clamp do
//! so after the fact.

use super::wide::{mul_u64, shr_u128};

/// Table entries: `T[i] = ⌊2³² / √(M_i)⌋` at the bucket edges
/// `M_i = (64 + i) / 64`, `i = 0..=192`, covering `M ∈ [1, 4]`.
const TABLE_LO: usize = 64;
static TABLE: [u64; 193] = build_table();

const fn build_table() -> [u64; 193] {
    let mut t = [0u64; 193];
    let mut i = 0;
    while i < 193 {
        // 2³² / √((64+i)/64) = √(2⁶⁴ · 64 / (64+i)) = √(2⁷⁰ / (64+i)).
        let v = ((1u128 << 70) / (TABLE_LO + i) as u128).isqrt();
        t[i] = v as u64;
        i += 1;
    }
    t
}

/// `1/√n` for a positive 128-bit integer, as `(y, s)` with
/// `1/√n ≈ y · 2⁻ˢ`, `y ∈ [2³¹, 2³² + 2]`. `n = 0` gives `(0, 0)`.
#[inline(always)]
pub fn inv_sqrt_wide(n: u128) -> (u64, i32) {
    if n == 0 {
        return (0, 0);
    }
    if let Ok(small) = u64::try_from(n) {
        return inv_sqrt_u64(small);
    }
    let bits = 128 - n.leading_zeros() as i32; // 65..=128
    // Even shift so that m = n · 2^(−sh) has 63 or 64 significant bits.
    let sh = (bits - 63) & !1;
    let m = shr_u128(n, sh as u32) as u64;
    (normalized(m), 63 + sh / 2)
}

/// [`inv_sqrt_wide`] for a 64-bit integer (all shifts are 64-bit ones).
#[inline(always)]
pub fn inv_sqrt_u64(n: u64) -> (u64, i32) {
    if n == 0 {
        return (0, 0);
    }
    // Even left shift so that m has 63 or 64 significant bits.
    let sh = (n.leading_zeros() as i32) & !1;
    let m = n << sh;
    // 1/√n = 2^(sh/2) / √m.
    (normalized(m), 63 - sh / 2)
}

/// `y ≈ 2³² / √M` for `m = M · 2⁶²`, `m ∈ [2⁶², 2⁶⁴)`.
#[inline(always)]
fn normalized(m: u64) -> u64 {
    // M = m / 2⁶² ∈ [1, 4). Seed by linear interpolation between the bucket
    // edges (relative error ≤ 2.3 × 10⁻⁵: the chord of a convex curve over
    // a 1/64 bucket), then one Newton step squares it.
    let i = (m >> 56) as usize - TABLE_LO;
    let frac = (m >> 24) & 0xFFFF_FFFF; // position inside the bucket, Q32
    let (lo, hi) = (TABLE[i], TABLE[i + 1]); // lo ≥ hi: 1/√M decreases
    let y0 = lo - (mul_u64(lo - hi, frac) >> 32) as u64;
    // Newton: y ← y · (3 − M·y²) / 2, all in Q32 (y ≈ 2³² / √M). Every
    // product is of two 64-bit values widened at the multiply, which
    // compiles to one 64×64→128 instruction. 1/√m = y · 2⁻⁶³.
    let mq = m >> 30; // M in Q32, < 2³⁴
    let y2 = (mul_u64(y0, y0) >> 32) as u64; // Q32, ≈ 2³² / M
    let my2 = (mul_u64(mq, y2) >> 32) as u64; // ≈ 2³² (one)
    let t = (3u64 << 32).saturating_sub(my2);
    (mul_u64(y0, t) >> 33) as u64
}

/// `√n` of a 128-bit integer as a 64-bit integer, within 2 × 10⁻⁹
/// relative plus one unit (truncation); saturates at `u64::MAX`.
#[inline]
pub fn sqrt_wide(n: u128) -> u64 {
    let (y, s) = inv_sqrt_wide(n);
    sqrt_from_inv(n, (y, s))
}

/// [`sqrt_wide`] of `n` from `inv_sqrt_wide(n)`, for a caller that needs
/// both the root and its reciprocal: the same bits as [`sqrt_wide`].
#[inline]
pub fn sqrt_from_inv(n: u128, (y, s): (u64, i32)) -> u64 {
    if n == 0 {
        return 0;
    }
    // √n = n · (1/√n) = n · y · 2⁻ˢ. Reduce n first so the product fits.
    let lz = n.leading_zeros() as i32;
    let pre = (128 - lz - 64).max(0); // bits to drop so n fits in u64
    let nn = shr_u128(n, pre as u32) as u64;
    let shift = s - pre;
    let p = mul_u64(nn, y); // < 2⁶⁴ · 2³³
    let v = if shift >= 0 {
        shr_u128(p, shift as u32)
    } else {
        p << (-shift).min(127)
    };
    u64::try_from(v).unwrap_or(u64::MAX)
}

/// `⌊√n⌋` exactly, for `n < 2⁶²`: [`inv_sqrt_u64`]'s estimate (within
/// two units there), then corrected by comparing squares, so the result is
/// the integer square root whatever the estimate. Several times faster
/// than `u64::isqrt` (the default A* heuristic takes one per push). The
/// correction's loops are nearly always left at once, so they predict
/// well: five candidates compared without a branch took 3 % more time on
/// the path benchmark's 1024² map.
#[inline]
pub fn isqrt_u64(n: u64) -> u64 {
    debug_assert!(n < 1 << 62);
    if n == 0 {
        return 0;
    }
    let (y, s) = inv_sqrt_u64(n);
    // √n = n · y · 2⁻ˢ, with n < 2⁶² and y < 2³³ the product fits in 128 bits.
    let mut r = shr_u128(mul_u64(n, y), s as u32) as u64;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)] // tests compare against f64
mod tests {
    use super::*;
    use crate::num::Pcg32;

    fn check(n: u128) {
        let (y, s) = inv_sqrt_wide(n);
        let got = y as f64 * 2f64.powi(-s);
        let want = 1.0 / (n as f64).sqrt();
        let rel = (got - want).abs() / want;
        assert!(rel < 2e-9, "n={n}: got {got}, want {want}, rel {rel}");
        let r = sqrt_wide(n);
        let want = (n as f64).sqrt();
        if want < 1.8e19 {
            // The relative bound plus one unit of truncation.
            assert!(
                (r as f64 - want).abs() <= want * 2e-9 + 1.0,
                "sqrt {n}: {r} vs {want}"
            );
        }
    }

    #[test]
    fn reciprocal_square_root_error_bound() {
        for n in 1..5000u128 {
            check(n);
        }
        let mut rng = Pcg32::new(3, 9);
        for _ in 0..200_000 {
            let bits = rng.below(127) + 1;
            let hi = rng.next_u64() as u128;
            let lo = rng.next_u64() as u128;
            let n = ((hi << 64) | lo) >> (128 - bits);
            if n > 0 {
                check(n);
            }
        }
        for p in 0..128 {
            check(1u128 << p);
            check((1u128 << p) | 1);
            if p > 0 {
                check((1u128 << p) - 1);
            }
        }
        check(u128::MAX);
    }

    #[test]
    fn exact_squares_come_out_close() {
        assert_eq!(inv_sqrt_wide(0), (0, 0));
        assert_eq!(sqrt_wide(0), 0);
        for k in [1u64, 2, 3, 10, 1000, 65536, 1 << 31, u32::MAX as u64] {
            let r = sqrt_wide((k as u128) * (k as u128));
            assert!(r.abs_diff(k) <= 1 + k / 400_000_000, "{k}: {r}");
        }
    }

    /// `isqrt_u64` is `u64::isqrt` exactly: every n below 70,000, squares
    /// and their neighbours up to 2³¹, powers of two, and random values of
    /// every width up to 62 bits.
    #[test]
    fn the_integer_square_root_is_exact() {
        let same = |n: u64| assert_eq!(isqrt_u64(n), n.isqrt(), "{n}");
        (0..70_000).for_each(same);
        for k in (1u64..1 << 31).step_by(9_973).chain([(1 << 31) - 1]) {
            for n in [k * k - 1, k * k, k * k + 1, (k + 1) * (k + 1) - 1] {
                same(n);
            }
        }
        (0..62).for_each(|p| same(1 << p));
        same((1 << 62) - 1);
        let mut rng = Pcg32::new(18, 3);
        for _ in 0..300_000 {
            same(rng.next_u64() >> (2 + rng.below(62)));
        }
    }
}
