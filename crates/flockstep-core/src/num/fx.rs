//! [`Fx`], the one fixed-point scalar of the core: a signed 64-bit number with
//! 32 fractional bits (`fixed`'s `I32F32`), whose arithmetic behaves the same
//! in every build profile.
//!
//! Why a newtype and not a bare alias: `fixed` checks multiplication overflow
//! with `debug_assert!`, so a release build would silently wrap where a debug
//! build panics — exactly the debug/release divergence the determinism
//! contract forbids. Every operator here checks explicitly and panics with the
//! same message in every profile; where overflow is expected by design, use
//! the `checked_*` or `saturating_*` methods instead.
//!
//! Rounding rules (part of the contract): multiplication and division round
//! towards zero on the last fractional bit, `sqrt` rounds down.

use core::fmt;
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};
use fixed::types::I32F32;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A deterministic fixed-point number: 32 integer bits (with sign), 32
/// fractional bits. Range ≈ ±2.1 × 10⁹, resolution 2⁻³² ≈ 2.3 × 10⁻¹⁰.
///
/// It serializes as its raw bits (`i64`), so replays and hashes see exactly
/// the number the simulation computed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fx(I32F32);

/// Raises the one overflow panic; kept out of line so hot paths stay small.
#[cold]
#[inline(never)]
fn overflow(op: &str) -> ! {
    panic!("fixed-point overflow in Fx::{op} (the determinism contract forbids wrapping)")
}

impl Fx {
    /// Zero.
    pub const ZERO: Fx = Fx(I32F32::ZERO);
    /// One.
    pub const ONE: Fx = Fx(I32F32::ONE);
    /// One half.
    pub const HALF: Fx = Fx(I32F32::from_bits(1 << 31));
    /// The largest value, just under 2³¹.
    pub const MAX: Fx = Fx(I32F32::MAX);
    /// The smallest (most negative) value, −2³¹.
    pub const MIN: Fx = Fx(I32F32::MIN);
    /// The smallest positive value, 2⁻³².
    pub const DELTA: Fx = Fx(I32F32::DELTA);
    /// Number of fractional bits.
    pub const FRAC_BITS: u32 = 32;

    /// The number whose raw representation is `bits` (value = bits / 2³²).
    pub const fn from_bits(bits: i64) -> Fx {
        Fx(I32F32::from_bits(bits))
    }

    /// The raw representation (value × 2³²).
    pub const fn to_bits(self) -> i64 {
        self.0.to_bits()
    }

    /// An integer, exactly.
    pub const fn from_int(n: i32) -> Fx {
        Fx::from_bits((n as i64) << 32)
    }

    /// The ratio `num / den`, rounded towards zero; `None` if `den` is zero or
    /// the result is out of range.
    #[inline]
    pub const fn from_ratio(num: i64, den: i64) -> Option<Fx> {
        if den == 0 {
            return None;
        }
        let q = ((num as i128) << 32) / den as i128;
        if q > i64::MAX as i128 || q < i64::MIN as i128 {
            None
        } else {
            Some(Fx::from_bits(q as i64))
        }
    }

    /// The `fixed` value underneath, for code that needs its formatting.
    pub const fn to_fixed(self) -> I32F32 {
        self.0
    }

    /// The integer part, rounded towards −∞.
    #[inline]
    pub const fn floor_int(self) -> i32 {
        (self.to_bits() >> 32) as i32
    }

    /// The nearest integer, halves rounded up (towards +∞).
    #[inline]
    pub fn round_int(self) -> i32 {
        ((self.to_bits() as i128 + (1i128 << 31)) >> 32) as i32
    }

    /// Absolute value; panics only for [`Fx::MIN`], whose magnitude does not fit.
    #[inline]
    pub fn abs(self) -> Fx {
        match self.to_bits().checked_abs() {
            Some(b) => Fx::from_bits(b),
            None => overflow("abs"),
        }
    }

    /// −1, 0 or 1.
    #[inline]
    pub const fn signum_int(self) -> i32 {
        self.to_bits().signum() as i32
    }

    /// True if the value is below zero.
    #[inline]
    pub const fn is_negative(self) -> bool {
        self.to_bits() < 0
    }

    /// Sum, or `None` on overflow.
    #[inline]
    pub const fn checked_add(self, rhs: Fx) -> Option<Fx> {
        match self.to_bits().checked_add(rhs.to_bits()) {
            Some(b) => Some(Fx::from_bits(b)),
            None => None,
        }
    }

    /// Difference, or `None` on overflow.
    #[inline]
    pub const fn checked_sub(self, rhs: Fx) -> Option<Fx> {
        match self.to_bits().checked_sub(rhs.to_bits()) {
            Some(b) => Some(Fx::from_bits(b)),
            None => None,
        }
    }

    /// Product rounded towards zero, or `None` on overflow.
    #[inline]
    pub const fn checked_mul(self, rhs: Fx) -> Option<Fx> {
        match super::wide::mul_shr32(self.to_bits(), rhs.to_bits()) {
            Some(b) => Some(Fx::from_bits(b)),
            None => None,
        }
    }

    /// Quotient rounded towards zero, or `None` on division by zero or overflow.
    #[inline]
    pub const fn checked_div(self, rhs: Fx) -> Option<Fx> {
        Fx::from_ratio(self.to_bits(), rhs.to_bits())
    }

    /// Sum clamped to `[MIN, MAX]`.
    #[inline]
    pub const fn saturating_add(self, rhs: Fx) -> Fx {
        Fx::from_bits(self.to_bits().saturating_add(rhs.to_bits()))
    }

    /// Difference clamped to `[MIN, MAX]`.
    #[inline]
    pub const fn saturating_sub(self, rhs: Fx) -> Fx {
        Fx::from_bits(self.to_bits().saturating_sub(rhs.to_bits()))
    }

    /// Product rounded towards zero and clamped to `[MIN, MAX]`.
    #[inline]
    pub const fn saturating_mul(self, rhs: Fx) -> Fx {
        let wide = super::wide::div_2_32(super::wide::mul_i64(self.to_bits(), rhs.to_bits()));
        if wide > i64::MAX as i128 {
            Fx::MAX
        } else if wide < i64::MIN as i128 {
            Fx::MIN
        } else {
            Fx::from_bits(wide as i64)
        }
    }

    /// Multiplies by an integer; panics on overflow in every profile.
    #[inline]
    pub fn mul_int(self, n: i64) -> Fx {
        match self.to_bits().checked_mul(n) {
            Some(b) => Fx::from_bits(b),
            None => overflow("mul_int"),
        }
    }

    /// Divides by an integer, rounding towards zero; panics on `n == 0`.
    #[inline]
    pub fn div_int(self, n: i64) -> Fx {
        match self.to_bits().checked_div(n) {
            Some(b) => Fx::from_bits(b),
            None => overflow("div_int"),
        }
    }

    /// The smaller of two values.
    #[inline]
    pub fn min(self, other: Fx) -> Fx {
        if other < self { other } else { self }
    }

    /// The larger of two values.
    #[inline]
    pub fn max(self, other: Fx) -> Fx {
        if other > self { other } else { self }
    }

    /// Clamps into `[lo, hi]` (`lo ≤ hi` expected; `lo` wins otherwise).
    #[inline]
    pub fn clamp(self, lo: Fx, hi: Fx) -> Fx {
        self.min(hi).max(lo)
    }

    /// Exact square root rounded down, or `None` for a negative number.
    ///
    /// Computed as the integer square root of the raw bits shifted left by
    /// 32 (`√(b/2³²) = √(b·2³²)/2³²`), which is exact and about six times
    /// faster than `fixed`'s own `sqrt` (see DESIGN.md, performance notes).
    #[inline]
    pub fn checked_sqrt(self) -> Option<Fx> {
        let b = self.to_bits();
        if b < 0 {
            return None;
        }
        let r = ((b as u128) << 32).isqrt();
        // r ≤ √(2⁶³·2³²) < 2⁴⁸: always fits.
        Some(Fx::from_bits(r as i64))
    }

    /// Square root rounded down; negative inputs give zero (documented
    /// saturation, so a rounding error just below zero cannot stop a run).
    #[inline]
    pub fn sqrt(self) -> Fx {
        self.checked_sqrt().unwrap_or(Fx::ZERO)
    }
}

impl Add for Fx {
    type Output = Fx;
    #[inline]
    fn add(self, rhs: Fx) -> Fx {
        match self.checked_add(rhs) {
            Some(v) => v,
            None => overflow("add"),
        }
    }
}

impl Sub for Fx {
    type Output = Fx;
    #[inline]
    fn sub(self, rhs: Fx) -> Fx {
        match self.checked_sub(rhs) {
            Some(v) => v,
            None => overflow("sub"),
        }
    }
}

impl Mul for Fx {
    type Output = Fx;
    #[inline(always)]
    fn mul(self, rhs: Fx) -> Fx {
        match self.checked_mul(rhs) {
            Some(v) => v,
            None => overflow("mul"),
        }
    }
}

impl Div for Fx {
    type Output = Fx;
    #[inline]
    fn div(self, rhs: Fx) -> Fx {
        match self.checked_div(rhs) {
            Some(v) => v,
            None => overflow("div"),
        }
    }
}

impl Neg for Fx {
    type Output = Fx;
    #[inline]
    fn neg(self) -> Fx {
        match self.to_bits().checked_neg() {
            Some(b) => Fx::from_bits(b),
            None => overflow("neg"),
        }
    }
}

impl AddAssign for Fx {
    #[inline]
    fn add_assign(&mut self, rhs: Fx) {
        *self = *self + rhs;
    }
}

impl SubAssign for Fx {
    #[inline]
    fn sub_assign(&mut self, rhs: Fx) {
        *self = *self - rhs;
    }
}

impl MulAssign for Fx {
    #[inline]
    fn mul_assign(&mut self, rhs: Fx) {
        *self = *self * rhs;
    }
}

impl From<i32> for Fx {
    fn from(n: i32) -> Fx {
        Fx::from_int(n)
    }
}

/// Decimal, through `fixed`'s formatting (integer arithmetic only; enough
/// digits to tell neighbouring values apart).
impl fmt::Display for Fx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Fx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for Fx {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // A newtype named "Fx": transparent to bincode and to the canonical
        // encoding (the bytes are the raw i64), but visible to
        // `replay::fields`, which prints it as a decimal.
        s.serialize_newtype_struct("Fx", &self.to_bits())
    }
}

impl<'de> Deserialize<'de> for Fx {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fx, D::Error> {
        i64::deserialize(d).map(Fx::from_bits)
    }
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)] // tests compare against f64
mod tests {
    use super::*;

    fn fx(v: f64) -> Fx {
        Fx::from_bits((v * 4294967296.0) as i64)
    }

    #[test]
    fn arithmetic_matches_fixed_where_both_are_defined() {
        let a = fx(3.25);
        let b = fx(-1.5);
        assert_eq!((a + b).to_fixed(), a.to_fixed() + b.to_fixed());
        assert_eq!((a - b).to_fixed(), a.to_fixed() - b.to_fixed());
        assert_eq!((a * b).to_fixed(), a.to_fixed() * b.to_fixed());
        // 3.25 / −1.5 = −2.1666…, rounded towards zero on the last bit.
        assert_eq!((a / b).to_bits(), -9_305_762_474);
        assert_eq!(a.to_string(), "3.25");
        assert_eq!(b.to_string(), "-1.5");
    }

    #[test]
    fn multiplication_rounds_towards_zero() {
        let tiny = Fx::DELTA;
        assert_eq!(tiny * Fx::HALF, Fx::ZERO);
        assert_eq!(-tiny * Fx::HALF, Fx::ZERO);
        assert_eq!(Fx::from_bits(3) * Fx::HALF, Fx::from_bits(1));
        assert_eq!(Fx::from_bits(-3) * Fx::HALF, Fx::from_bits(-1));
    }

    #[test]
    #[should_panic(expected = "fixed-point overflow in Fx::mul")]
    fn multiplication_overflow_panics_in_every_profile() {
        // `fixed`'s own `*` only debug-asserts here and would wrap in release.
        let big = Fx::from_int(1 << 20);
        let _ = big * big;
    }

    #[test]
    #[should_panic(expected = "fixed-point overflow in Fx::add")]
    fn addition_overflow_panics() {
        let _ = Fx::MAX + Fx::DELTA;
    }

    #[test]
    fn checked_and_saturating_report_overflow() {
        let big = Fx::from_int(1 << 20);
        assert_eq!(big.checked_mul(big), None);
        assert_eq!(big.saturating_mul(big), Fx::MAX);
        assert_eq!(big.saturating_mul(-big), Fx::MIN);
        assert_eq!(Fx::ONE.checked_div(Fx::ZERO), None);
        assert_eq!(Fx::MIN.checked_div(-Fx::DELTA), None);
        assert_eq!(Fx::MAX.saturating_add(Fx::ONE), Fx::MAX);
    }

    #[test]
    fn sqrt_is_exact_floor() {
        for &(v, r) in &[(0.0, 0.0), (1.0, 1.0), (4.0, 2.0), (2.25, 1.5), (1e6, 1e3)] {
            assert_eq!(fx(v).sqrt(), fx(r), "sqrt({v})");
        }
        assert_eq!(Fx::from_int(-4).checked_sqrt(), None);
        assert_eq!(Fx::from_int(-4).sqrt(), Fx::ZERO);
        // Floor property on awkward values: r² ≤ x < (r + δ)².
        for bits in [1i64, 2, 3, 12345, 1 << 31, i64::MAX, 0x1_2345_6789] {
            let x = Fx::from_bits(bits);
            let r = x.sqrt().to_bits() as u128;
            let wide = (bits as u128) << 32;
            assert!(r * r <= wide && (r + 1) * (r + 1) > wide, "bits {bits}");
        }
        // Same answer as `fixed`'s exact sqrt.
        for bits in [7i64, 1 << 40, 987654321987, i64::MAX / 3] {
            let x = Fx::from_bits(bits);
            assert_eq!(x.sqrt().to_fixed(), x.to_fixed().sqrt());
        }
    }

    #[test]
    fn rounding_helpers() {
        assert_eq!(fx(2.5).round_int(), 3);
        assert_eq!(fx(-2.5).round_int(), -2);
        assert_eq!(fx(-2.25).floor_int(), -3);
        assert_eq!(Fx::from_ratio(1, 3).unwrap().to_bits(), 0x5555_5555);
        assert_eq!(Fx::from_ratio(1, 0), None);
    }

    #[test]
    fn serializes_as_raw_bits() {
        let v = fx(1.5);
        assert_eq!(
            crate::canon::canonical_bytes(&v).unwrap(),
            0x1_8000_0000i64.to_le_bytes()
        );
    }
}
