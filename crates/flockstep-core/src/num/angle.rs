//! Binary angles: a `u32` where 2³² is one full turn, with table-driven
//! `sin`/`cos` and an octant-reduced `atan2`.
//!
//! Wrapping integer arithmetic *is* angle arithmetic: adding two headings
//! wraps around the circle for free, and the shortest signed turn from one
//! heading to another is a single `wrapping_sub` read as `i32`
//! ([`Angle::turn_to`]) — the operation article 000's `GetRotateRad` spells
//! out with branches.
//!
//! Error bounds (proved by the tests against `f64` over 100,000+ inputs):
//! - [`Angle::sin`] and [`Angle::cos`]: absolute error ≤ 3.0 × 10⁻⁷
//!   (1,025-entry quarter-wave table in Q2.30, linear interpolation).
//! - [`Angle::atan2`]: angular error ≤ 1.0 × 10⁻⁷ rad (≈ 6 × 10⁻⁶°), exact
//!   on both axes, on the diagonals and at the origin (which gives 0).
//!   The ratio is always `min/max ∈ [0, 1]`, so it never divides by a small
//!   number and never overflows.

use super::fx::Fx;
use super::tables::{ATAN_TURNS, SIN_Q30};
use super::vec::Vec2;
use core::fmt;
use serde::{Deserialize, Serialize};

/// A direction as a fraction of a full turn: `Angle(k)` is `k / 2³²` turns,
/// counter-clockwise from +x in mathematical axes.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Deserialize)]
#[serde(transparent)]
pub struct Angle(pub u32);

/// Serialized as a newtype named "Angle" around the `u32`: the same bytes
/// as the bare integer in bincode and the canonical encoding, and
/// recognisable to `replay::fields`, which prints degrees.
impl Serialize for Angle {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct("Angle", &self.0)
    }
}

/// Binary-angle units in a quarter turn.
const QUARTER: u32 = 1 << 30;

impl Angle {
    /// 0°.
    pub const ZERO: Angle = Angle(0);
    /// 90°.
    pub const QUARTER: Angle = Angle(QUARTER);
    /// 180°.
    pub const HALF: Angle = Angle(1 << 31);
    /// 270°.
    pub const THREE_QUARTERS: Angle = Angle(3 << 30);

    /// A whole number of degrees (any integer; wraps around the circle).
    /// Exact when `deg · 2³²` is divisible by 360, else rounded to nearest.
    pub fn from_degrees_int(deg: i64) -> Angle {
        Angle::from_degrees(Fx::from_bits(
            (deg.rem_euclid(360)) << 32, // reduce first: 359 · 2³² fits
        ))
    }

    /// Degrees given as a fixed-point number (rounded to the nearest unit).
    pub fn from_degrees(deg: Fx) -> Angle {
        // units = deg · 2³² / 360 = bits / 360, rounded half up.
        let units = (deg.to_bits() as i128 * 2 + 360).div_euclid(720);
        Angle(units.rem_euclid(1i128 << 32) as u32)
    }

    /// Radians given as a fixed-point number (rounded to the nearest unit),
    /// through a 2π constant accurate to 2⁻⁶⁰.
    pub fn from_radians(rad: Fx) -> Angle {
        // 2π · 2⁶⁰, rounded.
        const TAU_Q60: i128 = 7_244_019_458_077_122_842;
        let num = (rad.to_bits() as i128) << 60;
        let units = (num * 2 + TAU_Q60).div_euclid(TAU_Q60 * 2);
        Angle(units.rem_euclid(1i128 << 32) as u32)
    }

    /// A fraction of a turn given as a fixed-point number (wraps).
    pub fn from_turns(turns: Fx) -> Angle {
        Angle(turns.to_bits() as u32)
    }

    /// This angle in degrees, in `[0, 360)`, exact to 2⁻³² of a degree.
    pub fn to_degrees(self) -> Fx {
        // deg · 2³² (the raw bits) = units · 360.
        Fx::from_bits(self.0 as i64 * 360)
    }

    /// The angle reached by turning `turn` binary units (positive is
    /// counter-clockwise); wraps around the circle.
    #[inline]
    pub const fn add_turn(self, turn: i32) -> Angle {
        Angle(self.0.wrapping_add(turn as u32))
    }

    /// The shortest signed turn from `self` to `to`, in binary units
    /// (positive is counter-clockwise), in `−2³¹..=2³¹`. Exactly half a
    /// turn is article 000's tie-break (`GetRotateRad` keeps `to − from`
    /// when both ways are as long): +180° when `to` is the larger angle in
    /// `[0°, 360°)`, −180° when it is the smaller.
    #[inline]
    pub const fn turn_to(self, to: Angle) -> i64 {
        let d = to.0.wrapping_sub(self.0) as i32 as i64;
        if d == i32::MIN as i64 && to.0 > self.0 {
            -d
        } else {
            d
        }
    }

    /// Sine, with the error bound of the module docs.
    #[inline]
    pub fn sin(self) -> Fx {
        let quadrant = self.0 >> 30;
        let mut p = self.0 & (QUARTER - 1);
        if quadrant & 1 == 1 {
            p = QUARTER - p; // mirror: sin(90° + x) = sin(90° − x)
        }
        // p ∈ [0, 2³⁰]: table index in the top 10 bits, 20 bits to interpolate.
        let idx = (p >> 20) as usize;
        let lo = SIN_Q30[idx] as i64;
        let v = if idx == 1024 {
            lo
        } else {
            let hi = SIN_Q30[idx + 1] as i64;
            lo + (((hi - lo) * (p & 0xF_FFFF) as i64) >> 20)
        };
        let v = Fx::from_bits(v << 2); // Q2.30 → Q32.32
        if quadrant >= 2 { -v } else { v }
    }

    /// Cosine: `sin(self + 90°)`.
    #[inline]
    pub fn cos(self) -> Fx {
        Angle(self.0.wrapping_add(QUARTER)).sin()
    }

    /// The unit vector `(cos, sin)` in mathematical axes.
    pub fn unit(self) -> Vec2 {
        Vec2::new(self.cos(), self.sin())
    }

    /// The direction of the vector `(x, y)`, counter-clockwise from +x;
    /// `atan2(0, 0)` is 0 by definition.
    #[inline]
    pub fn atan2(y: Fx, x: Fx) -> Angle {
        let ax = x.to_bits().unsigned_abs();
        let ay = y.to_bits().unsigned_abs();
        if ax == 0 && ay == 0 {
            return Angle::ZERO;
        }
        // Octant reduction: the ratio is at most one, so the division is safe.
        let (num, den, steep) = if ay <= ax {
            (ay, ax, false)
        } else {
            (ax, ay, true)
        };
        // t = num/den in Q30, ≤ 2³⁰. Drop low bits of both first so the
        // division is a 64-bit one (a 128-bit division costs ~10× more);
        // den keeps at least 33 significant bits, far more than Q30 needs.
        let drop = (64 - den.leading_zeros()).saturating_sub(33);
        let (num, den) = (num >> drop, den >> drop);
        let r = (num << 30) / den;
        let idx = (r >> 20) as usize;
        let lo = ATAN_TURNS[idx] as i64;
        let a = if idx == 1024 {
            lo
        } else {
            let hi = ATAN_TURNS[idx + 1] as i64;
            lo + (((hi - lo) * (r & 0xF_FFFF) as i64) >> 20)
        } as u32;
        let a = if steep { QUARTER - a } else { a };
        let a = if x.is_negative() { (1u32 << 31) - a } else { a };
        Angle(if y.is_negative() { a.wrapping_neg() } else { a })
    }

    /// The direction of a vector (see [`Angle::atan2`]).
    pub fn of(v: Vec2) -> Angle {
        Angle::atan2(v.y, v.x)
    }
}

/// Shown in degrees rounded to a millionth, trailing zeros dropped:
/// `30deg`, `22.5deg`, `0.000084deg`.
impl fmt::Display for Angle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micro = (self.0 as u64 * 360_000_000 + (1 << 31)) >> 32;
        let (int, frac) = (micro / 1_000_000, micro % 1_000_000);
        if frac == 0 {
            write!(f, "{int}deg")
        } else {
            let frac = format!("{frac:06}");
            write!(f, "{int}.{}deg", frac.trim_end_matches('0'))
        }
    }
}

impl fmt::Debug for Angle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Angle({:#010x} = {})", self.0, self)
    }
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)] // tests compare against f64
mod tests {
    use super::*;
    use crate::num::Pcg32;
    use std::f64::consts::PI;

    const UNIT: f64 = 4294967296.0;

    fn to_f(v: Fx) -> f64 {
        v.to_bits() as f64 / UNIT
    }
    fn rad(a: Angle) -> f64 {
        a.0 as f64 / UNIT * 2.0 * PI
    }

    #[test]
    fn tables_match_f64() {
        for (k, &v) in SIN_Q30.iter().enumerate() {
            let want = ((k as f64) * PI / 2048.0).sin() * (1u64 << 30) as f64;
            assert_eq!(v as f64, want.round(), "SIN_Q30[{k}]");
        }
        for (k, &v) in ATAN_TURNS.iter().enumerate() {
            let want = ((k as f64) / 1024.0).atan() / (2.0 * PI) * UNIT;
            assert_eq!(v as f64, want.round(), "ATAN_TURNS[{k}]");
        }
    }

    #[test]
    fn sin_cos_error_bound_over_200k_inputs() {
        let mut rng = Pcg32::new(2024, 3);
        let mut worst = 0.0f64;
        let mut check = |a: Angle| {
            let x = rad(a);
            let es = (to_f(a.sin()) - x.sin()).abs();
            let ec = (to_f(a.cos()) - x.cos()).abs();
            worst = worst.max(es).max(ec);
        };
        for _ in 0..100_000 {
            check(Angle(rng.next_u32()));
        }
        // A dense sweep too, so every table segment is visited.
        for k in 0..100_000u32 {
            check(Angle(k.wrapping_mul(42_949)));
        }
        assert!(worst <= 3.0e-7, "worst sin/cos error {worst:e}");
    }

    #[test]
    fn sin_cos_are_exact_at_the_quarters() {
        assert_eq!(Angle::ZERO.sin(), Fx::ZERO);
        assert_eq!(Angle::ZERO.cos(), Fx::ONE);
        assert_eq!(Angle::QUARTER.sin(), Fx::ONE);
        assert_eq!(Angle::QUARTER.cos(), Fx::ZERO);
        assert_eq!(Angle::HALF.sin(), Fx::ZERO);
        assert_eq!(Angle::HALF.cos(), -Fx::ONE);
        assert_eq!(Angle::THREE_QUARTERS.sin(), -Fx::ONE);
    }

    #[test]
    fn atan2_error_bound_over_200k_inputs() {
        let mut rng = Pcg32::new(99, 5);
        let mut worst = 0.0f64;
        for i in 0..200_000 {
            // Mix of scales, including tiny and huge components.
            let shift = (i % 40) as u32;
            let x = Fx::from_bits((rng.next_u64() as i64) >> (shift + 1));
            let y = Fx::from_bits((rng.next_u64() as i64) >> (shift + 1 + (i % 3) as u32));
            if x == Fx::ZERO && y == Fx::ZERO {
                continue;
            }
            let got = rad(Angle::atan2(y, x));
            let want = (to_f(y)).atan2(to_f(x)).rem_euclid(2.0 * PI);
            let mut err = (got - want).abs();
            err = err.min(2.0 * PI - err); // across the 0/2π seam
            worst = worst.max(err);
        }
        assert!(worst <= 1.0e-7, "worst atan2 error {worst:e} rad");
    }

    #[test]
    fn atan2_axes_diagonals_origin() {
        let one = Fx::ONE;
        let z = Fx::ZERO;
        assert_eq!(Angle::atan2(z, z), Angle::ZERO);
        assert_eq!(Angle::atan2(z, one), Angle::ZERO);
        assert_eq!(Angle::atan2(one, z), Angle::QUARTER);
        assert_eq!(Angle::atan2(z, -one), Angle::HALF);
        assert_eq!(Angle::atan2(-one, z), Angle::THREE_QUARTERS);
        assert_eq!(Angle::atan2(one, one), Angle(1 << 29));
        assert_eq!(Angle::atan2(-one, -one), Angle(5 << 29));
        // Extremes: no overflow, still on the axis.
        assert_eq!(Angle::atan2(Fx::MIN, z), Angle::THREE_QUARTERS);
        assert_eq!(Angle::atan2(z, Fx::MIN), Angle::HALF);
        assert_eq!(Angle::atan2(Fx::DELTA, Fx::MAX), Angle::ZERO);
        assert_eq!(Angle::atan2(Fx::MAX, Fx::DELTA), Angle::QUARTER);
    }

    #[test]
    fn shortest_turn_with_the_articles_tie_break() {
        let d30 = Angle::from_degrees_int(30);
        let d330 = Angle::from_degrees_int(330);
        // From 330° to 30° is +60°, not −300°: the article's averaging bug.
        // (30° and 330° are each rounded to the nearest unit, so ±1.)
        let sixty = i64::from(Angle::from_degrees_int(60).0);
        assert!((d330.turn_to(d30) - sixty).abs() <= 1);
        assert!((d30.turn_to(d330) + sixty).abs() <= 1);
        assert_eq!(Angle::ZERO.turn_to(Angle::HALF), 1 << 31);
        assert_eq!(Angle::HALF.turn_to(Angle::ZERO), -(1 << 31));
        let d10 = Angle::from_degrees_int(10);
        assert_eq!(d10.turn_to(Angle::from_degrees_int(190)), 1 << 31);
        assert_eq!(Angle::from_degrees_int(190).turn_to(d10), -(1 << 31));
        assert_eq!(d330.add_turn(d330.turn_to(d30) as i32), d30);
    }

    #[test]
    fn degree_conversions() {
        assert_eq!(Angle::from_degrees_int(90), Angle::QUARTER);
        assert_eq!(Angle::from_degrees_int(-90), Angle::THREE_QUARTERS);
        assert_eq!(Angle::from_degrees_int(720 + 180), Angle::HALF);
        assert_eq!(Angle::QUARTER.to_degrees(), Fx::from_int(90));
        assert_eq!(Angle::from_degrees_int(30).to_string(), "30deg");
        assert_eq!(Angle::from_degrees_int(-1).to_string(), "359deg");
        assert_eq!(Angle(1 << 26).to_string(), "5.625deg");
        assert_eq!(Angle(1000).to_string(), "0.000084deg");
        let pi = Fx::from_bits((PI * UNIT).round() as i64);
        assert_eq!(Angle::from_radians(pi), Angle::HALF);
        assert_eq!(Angle::from_turns(Fx::HALF), Angle::HALF);
        assert_eq!(Angle::from_turns(-Fx::HALF), Angle::HALF);
    }
}
