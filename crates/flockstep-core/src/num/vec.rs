//! [`Vec2`] and [`Vec3`]: fixed-point vectors with exact, overflow-checked
//! products.
//!
//! Dot products and squared lengths are accumulated in 128-bit integers, so
//! no intermediate product can overflow; only a final result that does not
//! fit an [`Fx`] is an overflow (and panics, as every `Fx` operator does).
//! Lengths use the exact integer square root and round down.

use super::fx::Fx;
use super::wide::{mul_i64, mul_u64, shr_u128};
use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};
use serde::{Deserialize, Serialize};

/// Converts a 128-bit raw product sum (scale 2⁶⁴) back to an [`Fx`],
/// rounding towards zero; panics if it does not fit.
fn fx_from_wide(wide: i128, what: &str) -> Fx {
    let v = super::wide::div_2_32(wide);
    match i64::try_from(v) {
        Ok(b) => Fx::from_bits(b),
        Err(_) => {
            panic!("fixed-point overflow in {what} (the determinism contract forbids wrapping)")
        }
    }
}

/// A component's raw bits squared, exactly.
#[inline(always)]
fn square(c: Fx) -> u128 {
    let a = c.to_bits().unsigned_abs();
    mul_u64(a, a)
}

/// `isqrt` of a non-negative 128-bit sum of squared raw bits, as an [`Fx`],
/// saturating at [`Fx::MAX`] (only vectors with components near ±2³¹ reach it).
fn length_from_wide(sum: u128) -> Fx {
    let r = sum.isqrt();
    Fx::from_bits(i64::try_from(r).unwrap_or(i64::MAX))
}

/// Scales `c` by `num / den` with one rounding (towards zero).
fn scale_ratio(c: Fx, num: Fx, den: Fx) -> Fx {
    let wide = c.to_bits() as i128 * num.to_bits() as i128 / den.to_bits() as i128;
    match i64::try_from(wide) {
        Ok(b) => Fx::from_bits(b),
        Err(_) => panic!("fixed-point overflow in vector rescale"),
    }
}

macro_rules! vector {
    ($name:ident, $doc:literal, $($f:ident),+) => {
        #[doc = $doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug, Serialize, Deserialize)]
        pub struct $name {
            $(
                #[doc = concat!("The ", stringify!($f), " component.")]
                pub $f: Fx,
            )+
        }

        impl $name {
            /// The zero vector.
            pub const ZERO: $name = $name { $($f: Fx::ZERO),+ };

            /// A vector from its components.
            #[inline]
            pub const fn new($($f: Fx),+) -> $name {
                $name { $($f),+ }
            }

            /// A vector from integer components.
            #[inline]
            pub const fn from_ints($($f: i32),+) -> $name {
                $name { $($f: Fx::from_int($f)),+ }
            }

            /// The dot product, exact up to one final rounding towards zero.
            #[inline]
            pub fn dot(self, o: $name) -> Fx {
                let wide: i128 = 0 $(+ mul_i64(self.$f.to_bits(), o.$f.to_bits()))+;
                fx_from_wide(wide, concat!(stringify!($name), "::dot"))
            }

            /// The squared length (see [`Self::dot`]).
            #[inline]
            pub fn length_squared(self) -> Fx {
                self.dot(self)
            }

            /// The length, exact and rounded down; saturates at [`Fx::MAX`].
            #[inline]
            pub fn length(self) -> Fx {
                let sum: u128 = 0 $(+ square(self.$f))+;
                length_from_wide(sum)
            }

            /// True if no component is non-zero.
            #[inline]
            pub fn is_zero(self) -> bool {
                self == $name::ZERO
            }

            /// The unit vector in the same direction; the zero vector maps to
            /// the zero vector (a documented choice: a boid with no
            /// neighbours steers nowhere rather than failing). The result's
            /// length is within a few units of 2⁻³² of one.
            #[inline]
            pub fn normalize(self) -> $name {
                let len = self.length();
                if len == Fx::ZERO {
                    return $name::ZERO;
                }
                $name { $($f: scale_ratio(self.$f, Fx::ONE, len)),+ }
            }

            /// This vector scaled to length `len` (zero stays zero).
            #[inline]
            pub fn with_length(self, len: Fx) -> $name {
                let cur = self.length();
                if cur == Fx::ZERO {
                    return $name::ZERO;
                }
                $name { $($f: scale_ratio(self.$f, len, cur)),+ }
            }

            /// This vector, shortened to `max` if it is longer; `max < 0`
            /// is treated as zero.
            #[inline]
            pub fn clamp_length(self, max: Fx) -> $name {
                let max = max.max(Fx::ZERO);
                if self.length() > max { self.with_length(max) } else { self }
            }

            /// The squared distance to another point.
            #[inline]
            pub fn distance_squared(self, o: $name) -> Fx {
                (self - o).length_squared()
            }

            /// The squared length as an exact 128-bit integer at scale 2⁶⁴
            /// (never overflows).
            #[inline]
            pub fn length_squared_wide(self) -> u128 {
                0 $(+ square(self.$f))+
            }

            /// The length through [`super::rsqrt::sqrt_wide`]: relative
            /// error below 2 × 10⁻⁹, a few ns instead of an exact root's
            /// 20–40; saturates at [`Fx::MAX`].
            #[inline]
            pub fn fast_length(self) -> Fx {
                let r = super::rsqrt::sqrt_wide(self.length_squared_wide());
                Fx::from_bits(i64::try_from(r).unwrap_or(i64::MAX))
            }

            /// The unit vector through [`super::rsqrt::inv_sqrt_wide`]
            /// (relative error below 2 × 10⁻⁹, symmetric: `fast_normalize(−v)
            /// = −fast_normalize(v)`); zero maps to zero.
            #[inline]
            pub fn fast_normalize(self) -> $name {
                // Written out rather than through `unit_from_inv`: the web
                // module's optimiser inlines that form into far more
                // callers (110 KB more of flockstep.wasm, measured).
                let (y, s) = super::rsqrt::inv_sqrt_wide(self.length_squared_wide());
                if y == 0 {
                    return $name::ZERO;
                }
                let shift = (s - 32) as u32; // s ≥ 32 for every non-zero input
                $name { $($f: {
                    let c = self.$f.to_bits();
                    let mag = shr_u128(mul_u64(c.unsigned_abs(), y), shift) as i64;
                    Fx::from_bits(if c < 0 { -mag } else { mag })
                }),+ }
            }

            /// [`Self::fast_length`] and [`Self::fast_normalize`] from one
            /// reciprocal square root: the same bits as calling both.
            #[inline]
            pub fn fast_length_and_unit(self) -> (Fx, $name) {
                let n = self.length_squared_wide();
                let inv = super::rsqrt::inv_sqrt_wide(n);
                let r = super::rsqrt::sqrt_from_inv(n, inv);
                (Fx::from_bits(i64::try_from(r).unwrap_or(i64::MAX)), self.unit_from_inv(inv))
            }

            /// This vector times `y · 2⁻ˢ`, its reciprocal length from
            /// [`super::rsqrt::inv_sqrt_wide`]; zero when `y` is: the same
            /// bits as [`Self::fast_normalize`].
            #[inline]
            fn unit_from_inv(self, (y, s): (u64, i32)) -> $name {
                if y == 0 {
                    return $name::ZERO;
                }
                let shift = (s - 32) as u32; // s ≥ 32 for every non-zero input
                $name { $($f: {
                    let c = self.$f.to_bits();
                    let mag = shr_u128(mul_u64(c.unsigned_abs(), y), shift) as i64;
                    Fx::from_bits(if c < 0 { -mag } else { mag })
                }),+ }
            }

            /// [`Self::fast_normalize`] scaled by `len` (zero stays zero).
            #[inline]
            pub fn fast_with_length(self, len: Fx) -> $name {
                self.fast_normalize() * len
            }
        }

        impl Add for $name {
            type Output = $name;
            #[inline]
            fn add(self, o: $name) -> $name {
                $name { $($f: self.$f + o.$f),+ }
            }
        }

        impl Sub for $name {
            type Output = $name;
            #[inline]
            fn sub(self, o: $name) -> $name {
                $name { $($f: self.$f - o.$f),+ }
            }
        }

        impl Neg for $name {
            type Output = $name;
            #[inline]
            fn neg(self) -> $name {
                $name { $($f: -self.$f),+ }
            }
        }

        impl Mul<Fx> for $name {
            type Output = $name;
            #[inline(always)]
            fn mul(self, k: Fx) -> $name {
                $name { $($f: self.$f * k),+ }
            }
        }

        impl Div<Fx> for $name {
            type Output = $name;
            #[inline]
            fn div(self, k: Fx) -> $name {
                $name { $($f: self.$f / k),+ }
            }
        }

        impl AddAssign for $name {
            #[inline]
            fn add_assign(&mut self, o: $name) {
                *self = *self + o;
            }
        }

        impl SubAssign for $name {
            #[inline]
            fn sub_assign(&mut self, o: $name) {
                *self = *self - o;
            }
        }
    };
}

vector!(
    Vec2,
    "A 2-D fixed-point vector (screen convention: y grows downwards).",
    x,
    y
);
vector!(
    Vec3,
    "A 3-D fixed-point vector (y is up in the 3-D tanks).",
    x,
    y,
    z
);

impl Vec3 {
    /// Component `c` (0 = x, 1 = y, anything else = z).
    #[inline]
    pub fn get(self, c: usize) -> Fx {
        match c {
            0 => self.x,
            1 => self.y,
            _ => self.z,
        }
    }

    /// Sets component `c` (0 = x, 1 = y, anything else = z).
    #[inline]
    pub fn set(&mut self, c: usize, v: Fx) {
        match c {
            0 => self.x = v,
            1 => self.y = v,
            _ => self.z = v,
        }
    }

    /// The cross product; panics on overflow like every `Fx` operator.
    #[inline]
    pub fn cross(self, o: Vec3) -> Vec3 {
        let c = |a: Fx, b: Fx, c: Fx, d: Fx| {
            fx_from_wide(
                a.to_bits() as i128 * b.to_bits() as i128
                    - c.to_bits() as i128 * d.to_bits() as i128,
                "Vec3::cross",
            )
        };
        Vec3 {
            x: c(self.y, o.z, self.z, o.y),
            y: c(self.z, o.x, self.x, o.z),
            z: c(self.x, o.y, self.y, o.x),
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)] // tests compare against f64
mod tests {
    use super::*;

    fn f(v: f64) -> Fx {
        Fx::from_bits((v * 4294967296.0).round() as i64)
    }
    fn g(v: Fx) -> f64 {
        v.to_bits() as f64 / 4294967296.0
    }

    #[test]
    fn dot_and_length() {
        let a = Vec2::from_ints(3, 4);
        assert_eq!(a.length(), Fx::from_int(5));
        assert_eq!(a.length_squared(), Fx::from_int(25));
        assert_eq!(a.dot(Vec2::from_ints(-4, 3)), Fx::ZERO);
        let b = Vec3::from_ints(2, 3, 6);
        assert_eq!(b.length(), Fx::from_int(7));
        // Large components: the squares overflow Fx but the length does not.
        let big = Vec2::from_ints(60_000, 80_000);
        assert_eq!(big.length(), Fx::from_int(100_000));
    }

    #[test]
    fn normalize_zero_and_unit_length() {
        assert_eq!(Vec2::ZERO.normalize(), Vec2::ZERO);
        assert_eq!(Vec3::ZERO.normalize(), Vec3::ZERO);
        let mut rng = crate::num::Pcg32::new(7, 1);
        for _ in 0..10_000 {
            let v = Vec3::new(
                Fx::from_bits(rng.next_u64() as i64 >> 20),
                Fx::from_bits(rng.next_u64() as i64 >> 20),
                Fx::from_bits(rng.next_u64() as i64 >> 20),
            );
            if v.is_zero() {
                continue;
            }
            let len = g(v.normalize().length());
            assert!((len - 1.0).abs() < 4e-9, "{v:?} -> {len}");
        }
    }

    #[test]
    fn clamp_length_only_shortens() {
        let v = Vec2::from_ints(30, 40);
        let c = v.clamp_length(Fx::from_int(5));
        assert_eq!(c, Vec2::from_ints(3, 4));
        assert_eq!(v.clamp_length(Fx::from_int(100)), v);
        assert_eq!(v.clamp_length(-Fx::ONE), Vec2::ZERO);
        let w = Vec2::new(f(0.3), f(-0.4)).with_length(Fx::from_int(10));
        assert!((g(w.x) - 6.0).abs() < 1e-8 && (g(w.y) + 8.0).abs() < 1e-8);
    }

    #[test]
    fn cross_is_right_handed() {
        let x = Vec3::from_ints(1, 0, 0);
        let y = Vec3::from_ints(0, 1, 0);
        assert_eq!(x.cross(y), Vec3::from_ints(0, 0, 1));
        assert_eq!(y.cross(x), Vec3::from_ints(0, 0, -1));
    }
}
