//! A what-if as a link: the web page's address query that reopens a
//! lesson with its `--set` overrides, every recorded input and the beat
//! shown — `?lesson=ID&beat=N&tick=T&lang=TAG&set=KEY=VALUE&i=TICK:INPUT…`. An
//! input is written in its text form ([`Input::parse`]); a stroke's walls
//! at one tick share one `w=TICK:X,Y;X,Y;…` (a painted wall is the most
//! common input, and a stroke has many). Values are percent-encoded where
//! a query needs it.

use crate::sim::{Ground, Input};
use std::collections::BTreeMap;

/// What a link reopens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// The bundled lesson's id.
    pub lesson: String,
    /// The beat shown, 1-based.
    pub beat: Option<usize>,
    /// The tick shown (after the beat's: a moment inside it).
    pub tick: Option<u64>,
    /// The narration language.
    pub lang: Option<String>,
    /// `--set KEY=VALUE` overrides.
    pub sets: Vec<String>,
    /// The inputs, by the tick they lead into.
    pub inputs: BTreeMap<u64, Vec<Input>>,
}

impl Link {
    /// The query, from `?`.
    pub fn query(&self) -> String {
        let mut parts = vec![format!("lesson={}", encode(&self.lesson))];
        if let Some(b) = self.beat {
            parts.push(format!("beat={b}"));
        }
        if let Some(t) = self.tick {
            parts.push(format!("tick={t}"));
        }
        if let Some(l) = &self.lang {
            parts.push(format!("lang={}", encode(l)));
        }
        parts.extend(self.sets.iter().map(|s| format!("set={}", encode(s))));
        for (t, list) in &self.inputs {
            let walls: Vec<String> = list
                .iter()
                .filter_map(|i| match i {
                    Input::Ground {
                        at,
                        to: Ground::Wall,
                    } => Some(format!("{},{}", at.x, at.y)),
                    _ => None,
                })
                .collect();
            // Walls first in a tick's list keep their order only if no
            // other input came before one: else each is written alone.
            let grouped = walls.len() > 1 && list.iter().take(walls.len()).all(is_wall);
            if grouped {
                parts.push(format!("w={t}:{}", encode(&walls.join(";"))));
            }
            let rest = if grouped {
                &list[walls.len()..]
            } else {
                &list[..]
            };
            parts.extend(
                rest.iter()
                    .map(|i| format!("i={t}:{}", encode(&i.to_string()))),
            );
        }
        format!("?{}", parts.join("&"))
    }

    /// Reads a query (with or without its `?`), or says which part is
    /// wrong.
    pub fn parse(query: &str) -> Result<Link, String> {
        let mut link = Link::default();
        for part in query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
        {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            // in English: a link's diagnosis, as the command line gives it
            let v = decode(v).ok_or_else(|| format!("`{part}` is not percent-encoded text"))?;
            match k {
                "lesson" => link.lesson = v,
                "lang" => link.lang = Some(v),
                "beat" => {
                    let b = v
                        .parse::<usize>()
                        .ok()
                        .filter(|b| *b >= 1)
                        // in English: a link's diagnosis, as the command line gives it
                        .ok_or_else(|| format!("beat={v}: a beat is 1 or more"))?;
                    link.beat = Some(b);
                }
                "tick" => {
                    let t = v
                        .parse::<u64>()
                        // in English: a link's diagnosis, as the command line gives it
                        .map_err(|_| format!("tick={v}: not a tick"))?;
                    link.tick = Some(t);
                }
                "set" => link.sets.push(v),
                "i" => {
                    let (t, i) = tick_and(&v)?;
                    let input = Input::parse(i).map_err(|m| format!("i={v}: {m}"))?;
                    link.inputs.entry(t).or_default().push(input);
                }
                "w" => {
                    let (t, cells) = tick_and(&v)?;
                    for c in cells.split(';') {
                        let input = Input::parse(&format!("wall:{c}"))
                            .map_err(|m| format!("w={v}: {m}"))?;
                        link.inputs.entry(t).or_default().push(input);
                    }
                }
                // Other parameters (a tracker's) are not ours.
                _ => {}
            }
        }
        if link.lesson.is_empty() {
            // in English: a link's diagnosis, as the command line gives it
            return Err("the link names no lesson (?lesson=ID)".into());
        }
        Ok(link)
    }
}

fn is_wall(i: &Input) -> bool {
    matches!(
        i,
        Input::Ground {
            to: Ground::Wall,
            ..
        }
    )
}

/// `TICK:REST`, the tick 1 or later.
fn tick_and(v: &str) -> Result<(u64, &str), String> {
    let (t, rest) = v
        .split_once(':')
        // in English: a link's diagnosis, as the command line gives it
        .ok_or_else(|| format!("`{v}` is not TICK:…"))?;
    let t: u64 = t
        .parse()
        .ok()
        .filter(|t| *t >= 1)
        // in English: a link's diagnosis, as the command line gives it
        .ok_or_else(|| format!("`{t}` is not a tick of 1 or more"))?;
    Ok((t, rest))
}

/// Percent-encodes what a query value may not hold as is.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~:,;!*()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` and `+` (a space); `None` for a bad escape or text that
/// is not UTF-8.
fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Cell;

    #[test]
    fn a_link_round_trips_with_a_stroke_grouped() {
        let mut inputs: BTreeMap<u64, Vec<Input>> = BTreeMap::new();
        inputs.insert(
            3,
            (5..9)
                .map(|y| Input::Ground {
                    at: Cell::new(12, y),
                    to: Ground::Wall,
                })
                .chain([Input::MoveGoal {
                    to: Cell::new(1, 2),
                }])
                .collect(),
        );
        inputs.insert(
            40,
            vec![Input::Set {
                pane: Some(1),
                key: "heuristic".into(),
                value: "\"zero\"".into(),
            }],
        );
        let link = Link {
            lesson: "path-heuristics".into(),
            beat: Some(3),
            tick: Some(41),
            lang: Some("ja".into()),
            sets: vec!["seed=9".into()],
            inputs,
        };
        let q = link.query();
        assert!(q.contains("w=3:12,5;12,6;12,7;12,8"), "{q}");
        assert!(q.contains("set=seed%3D9"), "{q}");
        assert_eq!(Link::parse(&q), Ok(link));
    }

    #[test]
    fn a_bad_link_says_which_part() {
        for (q, says) in [
            ("?beat=2", "names no lesson"),
            ("?lesson=x&beat=0", "a beat is 1 or more"),
            ("?lesson=x&i=0:wall:1,1", "a tick of 1 or more"),
            ("?lesson=x&i=3:jump:1", "is not an input"),
            ("?lesson=x&set=%ZZ", "not percent-encoded"),
        ] {
            let e = Link::parse(q).unwrap_err();
            assert!(e.contains(says), "{q}: {e}");
        }
    }
}
