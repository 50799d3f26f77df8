//! Exact 64 × 64 → 128-bit products and 128-bit shifts that stay fast
//! when compiled to wasm32.
//!
//! WebAssembly has no widening multiply, so `a as u128 * b as u128` calls
//! the generic 128 × 128 helper `__multi3`, and an `i128` division — even
//! by the constant 2³², which is how a fixed-point product is rounded
//! towards zero — calls `__divti3`. Those helpers took half the flock's
//! time in the browser. Here the product is four 32 × 32 → 64 multiplies
//! (native `i64.mul`), and the rounding a shift. Natively each function is
//! the one instruction it always was. Both are exact: the results are the
//! same integers on every target (tests compare them on random operands).

/// `a · b` exactly.
#[inline(always)]
pub const fn mul_u64(a: u64, b: u64) -> u128 {
    #[cfg(target_arch = "wasm32")]
    {
        limbs(a, b)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        a as u128 * b as u128
    }
}

/// `a · b` in 32-bit limbs: the schoolbook product, each partial product a
/// 64-bit multiply, the middle column's carries gathered in 64 bits. Two
/// multiplies when an operand is under 2³² (a weight, `dt`, a fraction:
/// most fixed-point operands), four otherwise.
#[inline(always)]
pub const fn limbs(a: u64, b: u64) -> u128 {
    const M: u64 = 0xFFFF_FFFF;
    // Every product is of two numbers under 2³², and every sum provably
    // fits 64 bits, so they are written wrapping: the overflow checks the
    // release build keeps would otherwise test each 64-bit multiply with
    // a 128-bit one (`__multi3` again).
    let (a, b) = if a >> 32 == 0 { (b, a) } else { (a, b) };
    if b >> 32 == 0 {
        let (p0, p1) = ((a & M).wrapping_mul(b), (a >> 32).wrapping_mul(b));
        let mid = (p0 >> 32).wrapping_add(p1 & M);
        let lo = (p0 & M) | (mid << 32);
        let hi = (p1 >> 32).wrapping_add(mid >> 32);
        return ((hi as u128) << 64) | lo as u128;
    }
    let (a0, a1, b0, b1) = (a & M, a >> 32, b & M, b >> 32);
    let (p00, p01, p10, p11) = (
        a0.wrapping_mul(b0),
        a0.wrapping_mul(b1),
        a1.wrapping_mul(b0),
        a1.wrapping_mul(b1),
    );
    // Three terms under 2³² each: below 3 · 2³².
    let mid = (p00 >> 32).wrapping_add(p01 & M).wrapping_add(p10 & M);
    let lo = (p00 & M) | (mid << 32);
    let hi = p11
        .wrapping_add(p01 >> 32)
        .wrapping_add(p10 >> 32)
        .wrapping_add(mid >> 32);
    ((hi as u128) << 64) | lo as u128
}

/// `a · b` exactly (at most 2¹²⁶ in magnitude, so it fits).
#[inline(always)]
pub const fn mul_i64(a: i64, b: i64) -> i128 {
    #[cfg(target_arch = "wasm32")]
    {
        mul_i64_signs(a, b)
    }
    // One signed widening multiply, and no branch on the signs (which a
    // flock's offsets make unpredictable).
    #[cfg(not(target_arch = "wasm32"))]
    {
        a as i128 * b as i128
    }
}

/// [`mul_i64`] as the magnitudes' product ([`mul_u64`]) and the sign.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)]
const fn mul_i64_signs(a: i64, b: i64) -> i128 {
    let m = mul_u64(a.unsigned_abs(), b.unsigned_abs()) as i128;
    if (a < 0) != (b < 0) { -m } else { m }
}

/// `a · b / 2³²` rounded towards zero (a fixed-point product), or `None`
/// when it does not fit an `i64`: the magnitudes' product shifted, then
/// the sign, so no 128-bit negation or rounding bias is needed.
#[inline(always)]
pub const fn mul_shr32(a: i64, b: i64) -> Option<i64> {
    let q = mul_u64(a.unsigned_abs(), b.unsigned_abs()) >> 32;
    #[cfg(target_arch = "wasm32")]
    {
        mul_shr32_branches(q, (a < 0) != (b < 0))
    }
    // −1 when the signs differ, else 0: the sign is applied without a
    // branch (a flock's signs are unpredictable), and a negative result
    // may reach −2⁶³, one more than a positive one.
    #[cfg(not(target_arch = "wasm32"))]
    {
        let sign = (a ^ b) >> 63;
        if q > i64::MAX as u128 + (sign & 1) as u128 {
            return None;
        }
        // q ≤ 2⁶³: as i64 it wraps only at 2⁶³ (negative), whose negation
        // wraps back to −2⁶³, the true result.
        let m = q as u64 as i64;
        Some((m ^ sign).wrapping_sub(sign))
    }
}

/// [`mul_shr32`]'s result from the magnitudes' product `q` (shifted) and
/// whether it is negative, with branches: the web build's form, where the
/// branch-free one's 128-bit comparison costs more than the branches.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)]
const fn mul_shr32_branches(q: u128, negative: bool) -> Option<i64> {
    if q >> 64 != 0 {
        return None;
    }
    let m = q as u64;
    if negative {
        if m > 1 << 63 {
            None
        } else {
            Some((m as i64).wrapping_neg())
        }
    } else if m > i64::MAX as u64 {
        None
    } else {
        Some(m as i64)
    }
}

/// `w / 2³²` rounded towards zero (as `i128` division rounds), by a
/// shift: an arithmetic shift rounds towards −∞, so a negative `w` is
/// first raised by 2³² − 1.
#[inline(always)]
pub const fn div_2_32(w: i128) -> i128 {
    (w + ((w >> 127) & 0xFFFF_FFFF)) >> 32
}

/// `v >> s` for `s < 128`, in 64-bit halves (wasm32 has no 128-bit shift
/// and calls a helper for one by a variable amount).
#[inline(always)]
pub const fn shr_u128(v: u128, s: u32) -> u128 {
    // Natively a double shift and a select, without a branch.
    #[cfg(not(target_arch = "wasm32"))]
    {
        v >> s
    }
    #[cfg(target_arch = "wasm32")]
    {
        shr_u128_halves(v, s)
    }
}

/// [`shr_u128`] in 64-bit halves.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)]
const fn shr_u128_halves(v: u128, s: u32) -> u128 {
    let (hi, lo) = ((v >> 64) as u64, v as u64);
    let (hi, lo) = if s == 0 {
        (hi, lo)
    } else if s < 64 {
        (hi >> s, (lo >> s) | (hi << (64 - s)))
    } else {
        (0, hi >> (s - 64))
    };
    ((hi as u128) << 64) | lo as u128
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Pcg32;

    /// Operands of every size: random, small, near the edges.
    fn operands(rng: &mut Pcg32) -> [u64; 8] {
        let r = rng.next_u64();
        [
            r,
            r >> (rng.next_u64() % 64),
            0,
            1,
            u64::MAX,
            u64::MAX >> 1,
            1 << 63,
            (1 << 32) - 1,
        ]
    }

    #[test]
    fn a_product_may_reach_minus_two_to_the_63_but_not_plus() {
        let one = 1i64 << 32;
        assert_eq!(mul_shr32(i64::MIN, one), Some(i64::MIN));
        assert_eq!(mul_shr32(-one, i64::MIN), None);
        assert_eq!(mul_shr32(i64::MAX, one), Some(i64::MAX));
        assert_eq!(mul_shr32(i64::MIN, one + 1), None);
        assert_eq!(mul_shr32(-3, one - 1), Some(-2));
        assert_eq!(mul_shr32(0, -one), Some(0));
    }

    #[test]
    fn products_and_shifts_are_exact() {
        let mut rng = Pcg32::new(18, 5);
        for _ in 0..20_000 {
            let xs = operands(&mut rng);
            let ys = operands(&mut rng);
            for &a in &xs {
                for &b in &ys {
                    assert_eq!(limbs(a, b), a as u128 * b as u128, "{a} · {b}");
                    let (sa, sb) = (a as i64, b as i64);
                    assert_eq!(mul_i64(sa, sb), sa as i128 * sb as i128, "{sa} · {sb}");
                    assert_eq!(
                        mul_i64_signs(sa, sb),
                        sa as i128 * sb as i128,
                        "{sa} · {sb}"
                    );
                    let w = sa as i128 * sb as i128;
                    assert_eq!(div_2_32(w), w / (1i128 << 32), "{w} / 2³²");
                    let q = w / (1i128 << 32);
                    assert_eq!(
                        mul_shr32(sa, sb),
                        i64::try_from(q).ok(),
                        "{sa} · {sb} / 2³²"
                    );
                    let mag = (sa.unsigned_abs() as u128 * sb.unsigned_abs() as u128) >> 32;
                    assert_eq!(
                        mul_shr32_branches(mag, (sa < 0) != (sb < 0)),
                        i64::try_from(q).ok(),
                        "{sa} · {sb} / 2³², with branches"
                    );
                    let v = limbs(a, b);
                    let s = (a % 128) as u32;
                    assert_eq!(shr_u128(v, s), v >> s, "{v} >> {s}");
                    assert_eq!(shr_u128_halves(v, s), v >> s, "{v} >> {s}");
                }
            }
        }
    }
}
