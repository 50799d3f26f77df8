//! [`Input`] as text: what `flockstep record --input TICK:INPUT`, a
//! lesson's `inputs` and `info` write, one syntax for all.
//!
//! | input | text |
//! |---|---|
//! | [`Input::Set`] | `set:KEY=VALUE` (every pane), `set:PANE:KEY=VALUE` |
//! | [`Input::Ground`] | `wall:X,Y`, `ground:X,Y=H` (open ground of height `H`) |
//! | [`Input::MoveGoal`] | `goal:X,Y` |
//! | [`Input::MoveStart`] | `start:X,Y` |
//! | [`Input::MoveTarget`] | `target:I:X,Y` |
//! | [`Input::MoveChaser`] | `chaser:I:X,Y` |
//! | [`Input::AddBoid`] | `boid:X,Y[,Z]:VX,VY[,VZ]` |
//! | [`Input::MoveObstacle`] | `obstacle:I:X,Y[,Z]` |
//!
//! Numbers are decimals, read exactly as lessons read them; the text of
//! an input reads back as the same input.

use super::{Cell, Ground, Input};
use crate::num::{Fx, Vec3, parse_fx};
use core::fmt;

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |c: &Cell| format!("{},{}", c.x, c.y);
        match self {
            Input::Set { pane, key, value } => match pane {
                None => write!(f, "set:{key}={value}"),
                Some(p) => write!(f, "set:{p}:{key}={value}"),
            },
            Input::Ground { at, to } => match to {
                Ground::Wall => write!(f, "wall:{}", cell(at)),
                Ground::Open(h) => write!(f, "ground:{}={h}", cell(at)),
            },
            Input::MoveGoal { to } => write!(f, "goal:{}", cell(to)),
            Input::MoveStart { to } => write!(f, "start:{}", cell(to)),
            Input::MoveTarget { target, to } => write!(f, "target:{target}:{}", cell(to)),
            Input::MoveChaser { chaser, to } => write!(f, "chaser:{chaser}:{}", cell(to)),
            Input::AddBoid { pos, vel } => write!(f, "boid:{}:{}", vector(*pos), vector(*vel)),
            Input::MoveObstacle { obstacle, to } => {
                write!(f, "obstacle:{obstacle}:{}", vector(*to))
            }
        }
    }
}

/// The shortest decimal that reads back as `v` (ten places always do:
/// 10⁻¹⁰ is below half of 2⁻³²).
fn exact(v: Fx) -> String {
    let bits = i128::from(v.to_bits());
    for places in 0..=10u32 {
        let scale = 10i128.pow(places);
        let scaled = (bits * scale + (1 << 31)) >> 32;
        let (whole, frac) = (scaled.abs() / scale, scaled.abs() % scale);
        let sign = if scaled < 0 { "-" } else { "" };
        let text = if places == 0 {
            format!("{sign}{whole}")
        } else {
            format!("{sign}{whole}.{frac:0p$}", p = places as usize)
        };
        if parse_fx(&text) == Ok(v) {
            return text;
        }
    }
    v.to_string()
}

/// `x,y` (z = 0) or `x,y,z`.
fn vector(v: Vec3) -> String {
    if v.z == Fx::ZERO {
        format!("{},{}", exact(v.x), exact(v.y))
    } else {
        format!("{},{},{}", exact(v.x), exact(v.y), exact(v.z))
    }
}

impl Input {
    /// Reads an input's text, or says what is wrong with it; the text
    /// [`Input`]'s `Display` writes reads back as the same input:
    ///
    /// | input | text |
    /// |---|---|
    /// | [`Input::Set`] | `set:KEY=VALUE` (every pane), `set:PANE:KEY=VALUE` |
    /// | [`Input::Ground`] | `wall:X,Y`, `ground:X,Y=H` (open ground of height `H`) |
    /// | [`Input::MoveGoal`] | `goal:X,Y` |
    /// | [`Input::MoveStart`] | `start:X,Y` |
    /// | [`Input::MoveTarget`] | `target:I:X,Y` |
    /// | [`Input::MoveChaser`] | `chaser:I:X,Y` |
    /// | [`Input::AddBoid`] | `boid:X,Y[,Z]:VX,VY[,VZ]` |
    /// | [`Input::MoveObstacle`] | `obstacle:I:X,Y[,Z]` |
    pub fn parse(text: &str) -> Result<Input, String> {
        Self::parse_kind(text)
    }

    /// Parses `TICK:INPUT` (such as `300:set:w_cohesion=0`), as `record
    /// --input` and a lesson's `inputs` write it: the tick is the one the
    /// input leads into, so 1 or later (an input comes before a tick's
    /// step).
    pub fn parse_timed(text: &str) -> Result<(u64, Input), String> {
        let Some((tick, input)) = text.split_once(':') else {
            return Err(format!(
                "`{text}` is not TICK:INPUT (such as 300:set:w_cohesion=0)"
            ));
        };
        let tick = match tick.trim().parse::<u64>() {
            Ok(0) => {
                return Err(format!(
                    "`{text}`: an input comes before a tick's step, so at tick 1 or later"
                ));
            }
            Ok(t) => t,
            Err(_) => {
                return Err(format!(
                    "`{text}`: `{tick}` is not a tick (a whole number, 1 or more)"
                ));
            }
        };
        Ok((tick, Input::parse(input)?))
    }

    fn parse_kind(text: &str) -> Result<Input, String> {
        let (kind, rest) = text
            .split_once(':')
            .ok_or_else(|| format!("`{text}` is not KIND:ARGUMENTS ({KINDS})"))?;
        let bad = |what: &str| format!("`{text}`: {what}");
        Ok(match kind {
            "set" => parse_set(rest).map_err(|m| bad(&m))?,
            "wall" => Input::Ground {
                at: parse_cell(rest).map_err(|m| bad(&m))?,
                to: Ground::Wall,
            },
            "ground" => {
                let (at, h) = rest
                    .split_once('=')
                    .ok_or_else(|| bad("expected ground:X,Y=HEIGHT"))?;
                let h: u8 = h
                    .trim()
                    .parse()
                    .ok()
                    .filter(|h| *h <= 9)
                    .ok_or_else(|| bad("a height is 0..=9"))?;
                Input::Ground {
                    at: parse_cell(at).map_err(|m| bad(&m))?,
                    to: Ground::Open(h),
                }
            }
            "goal" => Input::MoveGoal {
                to: parse_cell(rest).map_err(|m| bad(&m))?,
            },
            "start" => Input::MoveStart {
                to: parse_cell(rest).map_err(|m| bad(&m))?,
            },
            "target" | "chaser" | "obstacle" => {
                let (i, at) = rest
                    .split_once(':')
                    .ok_or_else(|| bad(&format!("expected {kind}:INDEX:X,Y")))?;
                let i: u32 = i
                    .trim()
                    .parse()
                    .map_err(|_| bad(&format!("`{i}` is not an index")))?;
                match kind {
                    "target" => Input::MoveTarget {
                        target: i,
                        to: parse_cell(at).map_err(|m| bad(&m))?,
                    },
                    "chaser" => Input::MoveChaser {
                        chaser: i,
                        to: parse_cell(at).map_err(|m| bad(&m))?,
                    },
                    _ => Input::MoveObstacle {
                        obstacle: i,
                        to: parse_vector(at).map_err(|m| bad(&m))?,
                    },
                }
            }
            "boid" => {
                let (p, v) = rest
                    .split_once(':')
                    .ok_or_else(|| bad("expected boid:X,Y:VX,VY"))?;
                Input::AddBoid {
                    pos: parse_vector(p).map_err(|m| bad(&m))?,
                    vel: parse_vector(v).map_err(|m| bad(&m))?,
                }
            }
            _ => return Err(bad(&format!("`{kind}` is not an input ({KINDS})"))),
        })
    }
}

/// The kinds [`Input::parse`] reads.
const KINDS: &str = "set, wall, ground, goal, start, target, chaser, boid, obstacle";

fn parse_set(rest: &str) -> Result<Input, String> {
    let (head, value) = rest
        .split_once('=')
        .ok_or("expected set:KEY=VALUE or set:PANE:KEY=VALUE")?;
    let (pane, key) = match head.split_once(':') {
        Some((p, k)) => (
            Some(
                p.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("`{p}` is not a pane number"))?,
            ),
            k,
        ),
        None => (None, head),
    };
    let key = key.trim();
    if key.is_empty() {
        return Err("the key is empty".into());
    }
    Ok(Input::Set {
        pane,
        key: key.to_owned(),
        value: value.trim().to_owned(),
    })
}

fn parse_cell(text: &str) -> Result<Cell, String> {
    Cell::parse(text)
}

impl Cell {
    /// Parses `X,Y` (two integers, such as `3,-4`), as the command line,
    /// inputs and links write a cell; the message says which half is
    /// wrong.
    pub fn parse(text: &str) -> Result<Cell, String> {
        let Some((x, y)) = text.split_once(',') else {
            return Err(format!(
                "`{text}`: expected X,Y (two integers separated by a comma, such as 3,-4)"
            ));
        };
        Ok(Cell::new(coord("x", x)?, coord("y", y)?))
    }
}

/// One coordinate of a cell: an integer in `i32`'s range.
fn coord(name: &str, v: &str) -> Result<i32, String> {
    let v = v.trim();
    let digits = !v.is_empty()
        && v.trim_start_matches(['-', '+'])
            .chars()
            .all(|c| c.is_ascii_digit());
    match v.parse::<i64>() {
        Ok(n) => i32::try_from(n).map_err(|_| out_of_range(name, &n.to_string())),
        Err(_) if digits => Err(out_of_range(name, v)),
        Err(_) => Err(format!("{name} coordinate '{v}' is not an integer")),
    }
}

fn out_of_range(name: &str, v: &str) -> String {
    format!(
        "{name} coordinate {v} is out of range ({}..={})",
        i32::MIN,
        i32::MAX
    )
}

fn parse_vector(text: &str) -> Result<Vec3, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let n = |s: &str| parse_fx(s).map_err(|e| format!("`{s}` is not a number: {}", e.message));
    match parts[..] {
        [x, y] => Ok(Vec3::new(n(x)?, n(y)?, Fx::ZERO)),
        [x, y, z] => Ok(Vec3::new(n(x)?, n(y)?, n(z)?)),
        _ => Err(format!("`{text}` is not a point X,Y or X,Y,Z")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_as_itself() {
        let third = Fx::from_ratio(1, 3).unwrap();
        let all = [
            Input::Set {
                pane: None,
                key: "w_cohesion".into(),
                value: "0".into(),
            },
            Input::Set {
                pane: Some(1),
                key: "chasers.0.recompute_every_tick".into(),
                value: "true".into(),
            },
            Input::Ground {
                at: Cell::new(12, 7),
                to: Ground::Wall,
            },
            Input::Ground {
                at: Cell::new(0, 3),
                to: Ground::Open(9),
            },
            Input::MoveGoal {
                to: Cell::new(-1, 4),
            },
            Input::MoveStart {
                to: Cell::new(2, 2),
            },
            Input::MoveTarget {
                target: 3,
                to: Cell::new(5, 6),
            },
            Input::MoveChaser {
                chaser: 0,
                to: Cell::new(1, 1),
            },
            Input::AddBoid {
                pos: Vec3::new(third, -third, Fx::ZERO),
                vel: Vec3::new(Fx::from_int(2), Fx::ZERO, Fx::from_bits(1)),
            },
            Input::MoveObstacle {
                obstacle: 2,
                to: Vec3::new(Fx::from_int(-7), Fx::from_ratio(1, 2).unwrap(), Fx::ZERO),
            },
        ];
        for i in all {
            let text = i.to_string();
            assert_eq!(Input::parse(&text), Ok(i), "{text}");
        }
    }

    #[test]
    fn bad_text_says_what_is_wrong() {
        for (text, says) in [
            ("jump:1,2", "`jump` is not an input"),
            ("wall:1", "`1`: expected X,Y (two integers"),
            ("wall:1,b", "y coordinate 'b' is not an integer"),
            (
                "goal:9999999999,0",
                "x coordinate 9999999999 is out of range",
            ),
            ("ground:1,2=10", "a height is 0..=9"),
            ("set:w_cohesion", "expected set:KEY=VALUE"),
            ("set:x:fov=2", "`x` is not a pane number"),
            ("target:a:1,2", "`a` is not an index"),
            ("boid:1,2:1,2,3,4", "is not a point"),
            ("nothing", "is not KIND:ARGUMENTS"),
        ] {
            let e = Input::parse(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
