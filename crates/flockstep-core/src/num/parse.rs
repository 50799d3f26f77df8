//! Decimal literals to [`Fx`] and [`Angle`], in integer arithmetic only.
//!
//! A lesson says `separation = "0.35"` or `fov = "60deg"`; going through a
//! binary float first would round twice. Here the decimal digits become an
//! exact rational and are rounded once, to the nearest 2⁻³² (halves away
//! from zero).
//!
//! Grammar: `[+-] digits [. digits] [(e|E) [+-] digits]`, with `_` allowed
//! between digits (as in TOML). Angles add a unit suffix: `deg` (or `°`),
//! `rad`, `turn`/`turns`; a bare number is degrees.

use super::angle::Angle;
use super::fx::Fx;
use core::fmt;

/// Why a literal was rejected, and where (a character offset into it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNumError {
    /// What is wrong, as a sentence fragment ("expected a digit").
    pub message: String,
    /// Character offset of the problem inside the literal (0-based).
    pub offset: usize,
}

impl fmt::Display for ParseNumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

impl std::error::Error for ParseNumError {}

fn err(message: impl Into<String>, offset: usize) -> ParseNumError {
    ParseNumError {
        message: message.into(),
        offset,
    }
}

/// Most significant digits accepted: 27 keeps `mantissa · 2³²` inside `u128`
/// and is 17 more than the 2⁻³² resolution needs.
const MAX_DIGITS: u32 = 27;

/// Parses a decimal literal into an [`Fx`], rounded to nearest.
pub fn parse_fx(text: &str) -> Result<Fx, ParseNumError> {
    let chars: Vec<char> = text.chars().collect();
    let (neg, start) = match chars.first() {
        Some('-') => (true, 1),
        Some('+') => (false, 1),
        _ => (false, 0),
    };
    let (mantissa, frac_digits, i) = mantissa(&chars, start)?;
    let exp = if i < chars.len() {
        exponent(&chars, i + 1)?
    } else {
        0
    };
    // value = mantissa · 10^scale
    to_fixed(mantissa, exp - frac_digits, neg)
}

/// The digits from `i` on, up to an exponent or the end: the mantissa
/// they spell (the point removed), how many follow the point, and where
/// they stop.
fn mantissa(chars: &[char], mut i: usize) -> Result<(u128, i64, usize), ParseNumError> {
    let mut mantissa: u128 = 0;
    let mut digits = 0u32; // significant digits kept
    let mut frac_digits: i64 = 0;
    let mut any_digit = false;
    let mut seen_dot = false;
    let mut prev_digit = false;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '0'..='9' => {
                any_digit = true;
                prev_digit = true;
                if mantissa != 0 || c != '0' {
                    digits += 1;
                    if digits > MAX_DIGITS {
                        return Err(err(
                            format!("too many significant digits (at most {MAX_DIGITS})"),
                            i,
                        ));
                    }
                }
                mantissa = mantissa * 10 + (c as u8 - b'0') as u128;
                if seen_dot {
                    frac_digits += 1;
                }
            }
            '_' if prev_digit && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit()) => {}
            '.' if !seen_dot => {
                if !prev_digit {
                    return Err(err("expected a digit before '.'", i));
                }
                seen_dot = true;
                prev_digit = false;
                if !chars.get(i + 1).is_some_and(|n| n.is_ascii_digit()) {
                    return Err(err("expected a digit after '.'", i + 1));
                }
            }
            'e' | 'E' if any_digit => break,
            _ => return Err(err(format!("unexpected character '{c}'"), i)),
        }
        i += 1;
    }
    if !any_digit {
        return Err(err("expected a number", i.min(chars.len())));
    }
    Ok((mantissa, frac_digits, i))
}

/// The exponent whose sign or first digit is at `i` (after the `e`).
fn exponent(chars: &[char], mut i: usize) -> Result<i64, ParseNumError> {
    let start = i;
    let eneg = match chars.get(i) {
        Some('-') => {
            i += 1;
            true
        }
        Some('+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digits_start = i;
    let mut exp: i64 = 0;
    while i < chars.len() {
        match chars[i] {
            c @ '0'..='9' => {
                exp = exp * 10 + (c as u8 - b'0') as i64;
                if exp > 1000 {
                    return Err(err("exponent out of range", start));
                }
            }
            '_' => {}
            c => return Err(err(format!("unexpected character '{c}' in exponent"), i)),
        }
        i += 1;
    }
    if i == digits_start {
        return Err(err("expected exponent digits", i));
    }
    Ok(if eneg { -exp } else { exp })
}

/// `±mantissa · 10^scale` rounded to the nearest Q32.32 value, or an
/// out-of-range error.
fn to_fixed(mantissa: u128, scale: i64, neg: bool) -> Result<Fx, ParseNumError> {
    let out_of_range = || {
        err(
            "out of range: fixed-point numbers lie in [-2147483648, 2147483648)",
            0,
        )
    };
    let magnitude: u128 = if mantissa == 0 {
        0
    } else if scale >= 0 {
        let mut v = mantissa << 32;
        for _ in 0..scale {
            v = v.checked_mul(10).ok_or_else(out_of_range)?;
            if v > 1u128 << 63 {
                return Err(out_of_range());
            }
        }
        v
    } else {
        let den_exp = -scale;
        if den_exp > 38 {
            // Smaller than 10⁻³⁸·10²⁷ = 10⁻¹¹ < 2⁻³³: rounds to zero.
            0
        } else {
            let den = 10u128.pow(den_exp as u32);
            ((mantissa << 32) + den / 2) / den
        }
    };
    let limit: u128 = if neg { 1u128 << 63 } else { (1u128 << 63) - 1 };
    if magnitude > limit {
        return Err(out_of_range());
    }
    let bits = if neg {
        (magnitude as i128).wrapping_neg() as i64
    } else {
        magnitude as i64
    };
    Ok(Fx::from_bits(bits))
}

/// Parses an angle literal: a decimal number with an optional unit suffix
/// (`deg`, `°`, `rad`, `turn`, `turns`); no suffix means degrees. The result
/// wraps around the circle (`-90deg` = `270deg`).
pub fn parse_angle(text: &str) -> Result<Angle, ParseNumError> {
    let t = text.trim_end();
    let (num, unit) = if let Some(n) = t.strip_suffix("deg") {
        (n, "deg")
    } else if let Some(n) = t.strip_suffix('°') {
        (n, "deg")
    } else if let Some(n) = t.strip_suffix("rad") {
        (n, "rad")
    } else if let Some(n) = t.strip_suffix("turns") {
        (n, "turn")
    } else if let Some(n) = t.strip_suffix("turn") {
        (n, "turn")
    } else {
        (t, "deg")
    };
    let v = parse_fx(num.trim_end()).map_err(|e| {
        if e.message.starts_with("unexpected character") {
            err(
                format!("{}; angle units are deg, rad and turn", e.message),
                e.offset,
            )
        } else {
            e
        }
    })?;
    Ok(match unit {
        "deg" => Angle::from_degrees(v),
        "rad" => Angle::from_radians(v),
        _ => Angle::from_turns(v),
    })
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)] // tests compare against f64
mod tests {
    use super::*;

    fn bits(s: &str) -> i64 {
        parse_fx(s).unwrap().to_bits()
    }

    #[test]
    fn exact_values() {
        assert_eq!(bits("0"), 0);
        assert_eq!(bits("1"), 1 << 32);
        assert_eq!(bits("-1.5"), -(3 << 31));
        assert_eq!(bits("+2.25"), 9 << 30);
        assert_eq!(bits("1_000"), 1000 << 32);
        assert_eq!(bits("1e3"), 1000 << 32);
        assert_eq!(bits("2.5E-1"), 1 << 30);
        assert_eq!(bits("0.000"), 0);
        assert_eq!(bits("-2147483648"), i64::MIN);
    }

    #[test]
    fn rounds_once_to_nearest() {
        // 0.35 · 2³² = 1503238553.6 → 1503238554.
        assert_eq!(bits("0.35"), 1_503_238_554);
        assert_eq!(bits("-0.35"), -1_503_238_554);
        // 0.1 · 2³² = 429496729.6 → 429496730.
        assert_eq!(bits("0.1"), 429_496_730);
        // Half of the smallest step rounds away from zero.
        assert_eq!(bits("0.00000000011641532182693481445312500"), 1);
        assert_eq!(bits("1e-40"), 0);
    }

    #[test]
    fn agrees_with_f64_on_many_short_literals() {
        let mut rng = crate::num::Pcg32::new(5, 5);
        for _ in 0..20_000 {
            let int = rng.below(100_000) as i64 - 50_000;
            let frac = rng.below(10_000);
            let s = format!("{int}.{frac:04}");
            let v: f64 = s.parse().unwrap();
            let want = (v * 4294967296.0).round() as i64;
            let got = bits(&s);
            assert!((got - want).abs() <= 1, "{s}: {got} vs {want}");
        }
    }

    #[test]
    fn errors_name_the_place() {
        let e = parse_fx("3.x").unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(
            parse_fx("")
                .unwrap_err()
                .message
                .contains("expected a number")
        );
        assert!(parse_fx("1.").is_err());
        assert!(parse_fx(".5").is_err());
        assert!(parse_fx("1..2").is_err());
        assert!(
            parse_fx("2147483648")
                .unwrap_err()
                .message
                .contains("out of range")
        );
        assert!(parse_fx("1e10").is_err());
        assert!(parse_fx("1e").is_err());
        assert!(parse_fx("_1").is_err());
        assert!(parse_fx("0.1234567890123456789012345678").is_err());
    }

    #[test]
    fn angles() {
        assert_eq!(parse_angle("90deg").unwrap(), Angle::QUARTER);
        assert_eq!(parse_angle("90").unwrap(), Angle::QUARTER);
        assert_eq!(parse_angle("90°").unwrap(), Angle::QUARTER);
        assert_eq!(parse_angle("-90deg").unwrap(), Angle::THREE_QUARTERS);
        assert_eq!(parse_angle("0.5turn").unwrap(), Angle::HALF);
        assert_eq!(parse_angle("3.14159265358979rad").unwrap(), Angle::HALF);
        assert_eq!(parse_angle("60deg").unwrap(), Angle::from_degrees_int(60));
        let e = parse_angle("60dgr").unwrap_err();
        assert!(e.message.contains("angle units"), "{e}");
    }
}
