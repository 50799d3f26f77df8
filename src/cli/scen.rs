//! `flockstep scen`: a Moving AI scenario file run against its map. Every
//! scenario's optimal length is compared with the one the file publishes,
//! so the benchmark's lengths are a test anyone can run.
//!
//! A `.scen` file is a `version` line, then one scenario per line, nine
//! tab-separated fields: bucket, map, map width, map height, start x,
//! start y, goal x, goal y, optimal length (8-way moves, diagonals √2, no
//! corner cutting; printed to 4 or 8 decimals).

use super::{Failure, bad, load_map};
use crate::sim::path::{Moves, SearchConfig, Searcher, TieBreak};
use crate::sim::{Cell, Grid, NoTrace};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// The largest `.scen` file read (the benchmark's largest are a few MB).
const MAX_SCEN_BYTES: u64 = 64 << 20;

/// √2 · 10⁸, rounded: a diagonal's length in the units lengths are
/// compared in (10⁻⁸, the files' finest decimals).
const SQRT2_E8: u64 = 141_421_356;

/// One scenario of the file.
struct Scenario {
    line: usize,
    bucket: u32,
    from: Cell,
    to: Cell,
    /// The published optimal length, in 10⁻⁸.
    length: u64,
}

/// Runs every scenario of `scen` on `map` (default: the map the file
/// names, looked up beside it) with `cfg`; mismatches beyond `tolerance`
/// (10⁻⁸ units) fail with exit code 1 after the full report.
pub fn run(
    scen: &str,
    map: Option<&str>,
    cfg: &SearchConfig,
    tolerance: u64,
) -> Result<String, Failure> {
    let text = read_text(scen)?;
    let ((named, size), list) = parse(scen, &text)?;
    let map_path = match map {
        Some(m) => m.to_owned(),
        None => beside(scen, &named)?,
    };
    let grid = load_map(&map_path)?;
    if (grid.width(), grid.height()) != size {
        return Err(bad(format!(
            "{scen}: the scenarios are on a {}×{} map; {map_path} is {}×{}",
            size.0,
            size.1,
            grid.width(),
            grid.height()
        )));
    }
    check_fits(scen, &map_path, &grid, &list)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{scen} → {map_path} ({}×{}): {} scenarios, {} moves, {} heuristic ({}), {} ties",
        grid.width(),
        grid.height(),
        list.len(),
        if cfg.moves == Moves::Eight {
            "8-way"
        } else {
            "4-way"
        },
        format!("{:?}", cfg.heuristic.kind).to_lowercase(),
        cfg.label,
        TieBreak::NAMES
            .iter()
            .find(|(_, t)| *t == cfg.tie_break)
            .map_or("fifo", |(n, _)| n)
    );
    let tally = run_all(&grid, &list, cfg, tolerance, &mut out);
    report(&mut out, &tally, list.len(), tolerance);
    if tally.differ > 0 {
        return Err(Failure {
            code: 1,
            message: format!(
                "{} of {} scenarios differ from the published lengths",
                tally.differ,
                list.len()
            ),
            output: out,
        });
    }
    Ok(out)
}

/// Totals over the scenarios.
#[derive(Default)]
struct Tally {
    differ: usize,
    ours: u64,
    published: u64,
    expanded: u64,
    time: Duration,
}

/// Searches every scenario on one [`Searcher`], writing a line per
/// mismatch.
fn run_all(
    grid: &Grid,
    list: &[Scenario],
    cfg: &SearchConfig,
    tolerance: u64,
    out: &mut String,
) -> Tally {
    let flat = grid
        .terrain()
        .iter()
        .all(|&h| h == 0 || h == crate::sim::grid::WALL);
    let mut searcher = Searcher::new();
    let mut t = Tally::default();
    for s in list {
        let start = Instant::now();
        let o = searcher.search(grid, s.from, s.to, cfg, &mut NoTrace);
        t.time += start.elapsed();
        t.expanded += u64::from(o.expanded);
        let ours = o.cost.map(|c| length_e8(c, &o.path, cfg.moves, flat));
        t.published += s.length;
        t.ours += ours.unwrap_or(0);
        if ours.is_some_and(|l| l.abs_diff(s.length) <= tolerance) {
            continue;
        }
        t.differ += 1;
        let ours = match ours {
            Some(l) => {
                let sign = if l >= s.length { '+' } else { '-' };
                format!("{}, off by {sign}{}", e8(l), e8(l.abs_diff(s.length)))
            }
            None => "unreachable".into(),
        };
        let _ = writeln!(
            out,
            "differ    line {} (bucket {}): {} → {}: ours {ours}, published {}",
            s.line,
            s.bucket,
            s.from,
            s.to,
            e8(s.length)
        );
    }
    t
}

/// Our length in 10⁻⁸ units. On a flat map (the benchmark's), from the
/// path's moves: straight ones count 1, diagonals √2 (so the comparison
/// does not carry our 16-bit √2); with heights, the cost itself.
fn length_e8(cost: u64, path: &[Cell], moves: Moves, flat: bool) -> u64 {
    if flat {
        path.windows(2)
            .map(|w| {
                if w[0].x != w[1].x && w[0].y != w[1].y {
                    SQRT2_E8
                } else {
                    100_000_000
                }
            })
            .sum()
    } else {
        let bits = moves.frac_bits();
        ((cost as u128 * 100_000_000 + ((1u128 << bits) >> 1)) >> bits) as u64
    }
}

/// The summary lines.
fn report(out: &mut String, t: &Tally, n: usize, tolerance: u64) {
    let _ = writeln!(
        out,
        "match     {} of {n} within {} of the published optimal length",
        n - t.differ,
        e8(tolerance)
    );
    let _ = writeln!(out, "differ    {}", t.differ);
    let _ = writeln!(
        out,
        "length    ours {} in all, published {}",
        e8(t.ours),
        e8(t.published)
    );
    let ns = t.time.as_nanos();
    let per = ns.checked_div(u128::from(t.expanded)).unwrap_or(0);
    let _ = writeln!(
        out,
        "searched  {} cells expanded in {}.{:03} ms (the searches alone): {per} ns per expansion",
        t.expanded,
        ns / 1_000_000,
        ns / 1_000 % 1_000
    );
}

/// A length in 10⁻⁸ units as a decimal with 8 places.
fn e8(v: u64) -> String {
    format!("{}.{:08}", v / 100_000_000, v % 100_000_000)
}

/// Parses a non-negative decimal (up to 8 places are kept, rounded half
/// up beyond) into 10⁻⁸ units.
pub fn parse_e8(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let w: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut f = 0u64;
    for (i, b) in frac.bytes().enumerate() {
        let d = u64::from(b - b'0');
        match i {
            0..8 => f = f * 10 + d,
            8 => f += u64::from(d >= 5),
            _ => {}
        }
    }
    f *= 10u64.pow(8 - frac.len().min(8) as u32);
    w.checked_mul(100_000_000)?.checked_add(f)
}

/// The file's text, or a clear refusal.
fn read_text(scen: &str) -> Result<String, Failure> {
    let bytes = crate::files::read_file_bounded(Path::new(scen), MAX_SCEN_BYTES, "a scenario file")
        .map_err(bad)?;
    String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "{scen}: byte {}: not UTF-8 text; a .scen file is tab-separated text",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The map the scenarios name, its size, and the scenarios; errors name
/// the line and column.
fn parse(scen: &str, text: &str) -> Result<(OnMap, Vec<Scenario>), Failure> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.trim().starts_with("version") => {}
        _ => {
            return Err(bad(format!(
                "{scen}:1:1: a .scen file starts with a `version` line"
            )));
        }
    }
    let mut map = None;
    let mut list = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let (on, s) = scenario(line, i + 1).map_err(|m| bad(format!("{scen}:{m}")))?;
        match &map {
            None => map = Some(on),
            Some(m) if *m != on => {
                let (a, b) = (&on, m);
                return Err(bad(format!(
                    "{scen}:{}:1: this scenario is on `{}` ({}×{}), the ones before on `{}` ({}×{})",
                    i + 1,
                    a.0,
                    a.1.0,
                    a.1.1,
                    b.0,
                    b.1.0,
                    b.1.1
                )));
            }
            Some(_) => {}
        }
        list.push(s);
    }
    match map {
        Some(on) => Ok((on, list)),
        None => Err(bad(format!("{scen}: no scenarios"))),
    }
}

/// The map a scenario is on: its name and size.
type OnMap = (String, (u32, u32));

/// One scenario line (`n` is its line number): the map it is on and the
/// scenario, or `line:column: why`.
fn scenario(line: &str, n: usize) -> Result<(OnMap, Scenario), String> {
    let mut fields = Vec::new();
    let mut col = 1;
    for f in line.split('\t') {
        fields.push((f.trim_end_matches('\r'), col));
        col += f.chars().count() + 1;
    }
    if fields.len() != 9 {
        return Err(format!(
            "{n}:1: a scenario has 9 tab-separated fields (bucket, map, width, height, start x, start y, goal x, goal y, length), not {}",
            fields.len()
        ));
    }
    let int = |i: usize, what: &str| -> Result<u32, String> {
        let (f, c) = fields[i];
        f.parse::<u32>()
            .map_err(|_| format!("{n}:{c}: the {what} must be a whole number ≥ 0, not `{f}`"))
    };
    let cell = |i: usize, what: &str| -> Result<Cell, String> {
        let (x, y) = (int(i, what)?, int(i + 1, what)?);
        Ok(Cell::new(
            x.min(i32::MAX as u32) as i32,
            y.min(i32::MAX as u32) as i32,
        ))
    };
    let (len, c) = fields[8];
    let length = parse_e8(len)
        .ok_or_else(|| format!("{n}:{c}: the length must be a decimal ≥ 0, not `{len}`"))?;
    let s = Scenario {
        line: n,
        bucket: int(0, "bucket")?,
        from: cell(4, "start")?,
        to: cell(6, "goal")?,
        length,
    };
    let size = (int(2, "map width")?, int(3, "map height")?);
    Ok(((fields[1].0.to_owned(), size), s))
}

/// The map file a scenario names (`maps/dao/arena.map`), beside the
/// `.scen` file: its own name there, else the path as written.
fn beside(scen: &str, field: &str) -> Result<String, Failure> {
    let name = field;
    let dir = Path::new(scen).parent().unwrap_or(Path::new(""));
    let base = Path::new(name).file_name().map(|b| dir.join(b));
    let candidates = base.into_iter().chain([dir.join(name)]);
    for p in candidates {
        if p.is_file() {
            return Ok(p.to_string_lossy().into_owned());
        }
    }
    Err(bad(format!(
        "{scen}: the scenarios' map `{name}` is not beside it; pass --map FILE"
    )))
}

/// Checks the map's size against the scenarios' and every start and goal.
fn check_fits(scen: &str, map: &str, grid: &Grid, list: &[Scenario]) -> Result<(), Failure> {
    for s in list {
        for (what, c) in [("start", s.from), ("goal", s.to)] {
            if !grid.contains(c) {
                return Err(bad(format!(
                    "{scen}:{}: the {what} {c} is off {map} ({}×{})",
                    s.line,
                    grid.width(),
                    grid.height()
                )));
            }
            if grid.is_wall(c) {
                return Err(bad(format!(
                    "{scen}:{}: the {what} {c} is inside a wall of {map}",
                    s.line
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_parse_to_eight_places() {
        assert_eq!(parse_e8("10.0711"), Some(1_007_110_000));
        assert_eq!(parse_e8("1"), Some(100_000_000));
        assert_eq!(parse_e8("2.41421356"), Some(241_421_356));
        assert_eq!(parse_e8("2.414213565"), Some(241_421_357));
        assert_eq!(parse_e8(".5"), Some(50_000_000));
        for bad in ["", ".", "-1", "1e3", "1.2.3", "x", " 1"] {
            assert_eq!(parse_e8(bad), None, "{bad}");
        }
        assert_eq!(e8(241_421_356), "2.41421356");
    }
}
