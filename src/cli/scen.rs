//! `flockstep scen`: a Moving AI scenario file run against its map. Every
//! scenario's optimal length is compared with the one the file publishes,
//! so the benchmark's lengths are a test anyone can run.
//!
//! A `.scen` file is a `version` line, then one scenario per line, nine
//! tab-separated fields: bucket, map, map width, map height, start x,
//! start y, goal x, goal y, optimal length (8-way moves, diagonals √2, no
//! corner cutting), rounded to 0 to 8 decimals. A length matches when ours
//! is within half a unit of the last digit the line wrote (`100.828`
//! stands for 100.8275–100.8285), unless `--tolerance` sets one bound for
//! every line. The files' generator counts a diagonal as 1.414213562, not
//! √2: every one of the 5,768 lengths of the three 8-decimal files here
//! that cross open ground is `straight + 1.414213562 · diagonals` rounded
//! to 8 places, up to 1.5·10⁻⁷ below the true length on a long path. So
//! on a flat map our length is the range from that count to the true
//! one, and it matches when the range reaches the published number's.

use super::{Failure, bad, load_map};
use crate::sim::path::{Moves, SearchConfig, Searcher, TieBreak};
use crate::sim::{Cell, Grid, NoTrace};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// The largest `.scen` file read (the benchmark's largest are a few MB).
const MAX_SCEN_BYTES: u64 = 64 << 20;

/// Lengths are compared in units of 10⁻¹⁸: finer than any file's last
/// digit by ten orders, so a sum of a million diagonals is still exact
/// to well under 10⁻⁸.
const UNIT: u128 = 1_000_000_000_000_000_000;

/// √2 · 10¹⁸, rounded (√2 = 1.41421356237309504880…): a diagonal's
/// length in [`UNIT`]s.
const SQRT2: u128 = 1_414_213_562_373_095_049;

/// The most decimals a length is read to (more are rounded).
const PLACES: u32 = 18;

/// One scenario of the file.
struct Scenario {
    line: usize,
    bucket: u32,
    from: Cell,
    to: Cell,
    /// The published optimal length, in [`UNIT`]s.
    length: u128,
    /// How many decimals the file wrote it with.
    places: u32,
}

impl Scenario {
    /// How far our length may be from the published one: `fixed`, else
    /// half a unit of the published length's last digit.
    fn tolerance(&self, fixed: Option<u128>) -> u128 {
        fixed.unwrap_or_else(|| UNIT / 2 / 10u128.pow(self.places.min(PLACES)))
    }

    /// Whether our length (a range, see [`Ours`]) comes within the
    /// tolerance of the published one.
    fn matches(&self, ours: Ours, fixed: Option<u128>) -> bool {
        let tol = self.tolerance(fixed);
        ours.low <= self.length + tol && self.length <= ours.high + tol
    }
}

/// Our length, as a range in [`UNIT`]s: on a flat map from the length
/// with a diagonal counted as the benchmark's files count it,
/// 1.414213562, to the true one; with heights, the cost (both ends).
#[derive(Clone, Copy, Debug)]
struct Ours {
    low: u128,
    high: u128,
}

/// A diagonal as the benchmark's generator counts it (√2 to 9 decimals),
/// in [`UNIT`]s.
const FILE_SQRT2: u128 = 1_414_213_562_000_000_000;

/// Runs every scenario of `scen` on `map` (default: the map the file
/// names, looked up beside it) with `cfg`; mismatches beyond `tolerance`
/// ([`UNIT`]s; `None`: each line's own precision, see
/// [`Scenario::tolerance`]) fail with exit code 1 after the full report.
pub fn run(
    scen: &str,
    map: Option<&str>,
    cfg: &SearchConfig,
    tolerance: Option<u128>,
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
    ours: u128,
    published: u128,
    expanded: u64,
    time: Duration,
}

/// Searches every scenario on one [`Searcher`], writing a line per
/// mismatch.
fn run_all(
    grid: &Grid,
    list: &[Scenario],
    cfg: &SearchConfig,
    tolerance: Option<u128>,
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
        let ours = o.cost.map(|c| length_of(c, &o.path, cfg.moves, flat));
        t.published += s.length;
        t.ours += ours.map_or(0, |l| l.high);
        if ours.is_some_and(|l| s.matches(l, tolerance)) {
            continue;
        }
        t.differ += 1;
        let ours = match ours.map(|l| l.high) {
            Some(l) => {
                let sign = if l >= s.length { '+' } else { '-' };
                format!(
                    "{}, off by {sign}{} (more than {})",
                    decimal(l, 10),
                    decimal(l.abs_diff(s.length), 10),
                    decimal(s.tolerance(tolerance), 10)
                )
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
            decimal(s.length, s.places)
        );
    }
    t
}

/// Our length (see [`Ours`]). On a flat map (the benchmark's), from the
/// path's moves: straight ones count 1, diagonals √2 or the files'
/// 1.414213562 (so the comparison does not carry our 16-bit √2); with
/// heights, the cost itself.
fn length_of(cost: u64, path: &[Cell], moves: Moves, flat: bool) -> Ours {
    if flat {
        let diagonals = path
            .windows(2)
            .filter(|w| w[0].x != w[1].x && w[0].y != w[1].y)
            .count() as u128;
        let straight = path.len().saturating_sub(1) as u128 - diagonals;
        Ours {
            low: straight * UNIT + diagonals * FILE_SQRT2,
            high: straight * UNIT + diagonals * SQRT2,
        }
    } else {
        let bits = moves.frac_bits();
        let c = (u128::from(cost) * UNIT + ((1u128 << bits) >> 1)) >> bits;
        Ours { low: c, high: c }
    }
}

/// The summary lines.
fn report(out: &mut String, t: &Tally, n: usize, tolerance: Option<u128>) {
    let within = match tolerance {
        Some(tol) => format!("within {} of", decimal(tol, 10)),
        None => "within half a unit of the last digit of".to_owned(),
    };
    let _ = writeln!(
        out,
        "match     {} of {n} {within} the published optimal length",
        n - t.differ,
    );
    let _ = writeln!(out, "differ    {}", t.differ);
    let _ = writeln!(
        out,
        "length    ours {} in all, published {}",
        decimal(t.ours, 8),
        decimal(t.published, 8)
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

/// A length in [`UNIT`]s as a decimal with `places` places (at most 18),
/// rounded half up; no point when `places` is 0.
fn decimal(v: u128, places: u32) -> String {
    let places = places.min(PLACES);
    let step = 10u128.pow(PLACES - places);
    let v = (v + step / 2) / step;
    let unit = 10u128.pow(places);
    if places == 0 {
        return v.to_string();
    }
    format!("{}.{:0w$}", v / unit, v % unit, w = places as usize)
}

/// Parses a non-negative decimal into [`UNIT`]s (up to 18 places are
/// kept, rounded half up beyond) and the number of decimals written.
pub fn parse_length(s: &str) -> Option<(u128, u32)> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let w: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse::<u64>().ok()?.into()
    };
    let mut f = 0u128;
    for (i, b) in frac.bytes().enumerate() {
        let d = u128::from(b - b'0');
        match i {
            0..18 => f = f * 10 + d,
            18 => f += u128::from(d >= 5),
            _ => {}
        }
    }
    let places = frac.len().min(u32::MAX as usize) as u32;
    f *= 10u128.pow(PLACES - places.min(PLACES));
    Some((w.checked_mul(UNIT)?.checked_add(f)?, places))
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
    let (length, places) = parse_length(len)
        .ok_or_else(|| format!("{n}:{c}: the length must be a decimal ≥ 0, not `{len}`"))?;
    let s = Scenario {
        line: n,
        bucket: int(0, "bucket")?,
        from: cell(4, "start")?,
        to: cell(6, "goal")?,
        length,
        places,
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

    const E10: u128 = 100_000_000;

    #[test]
    fn lengths_parse_with_their_places() {
        assert_eq!(parse_length("10.0711"), Some((100_711 * UNIT / 10_000, 4)));
        assert_eq!(parse_length("1"), Some((UNIT, 0)));
        assert_eq!(
            parse_length("2.41421356"),
            Some((241_421_356 * E10 * 100, 8))
        );
        assert_eq!(parse_length(".5"), Some((UNIT / 2, 1)));
        let long = "1.0000000000000000005";
        assert_eq!(parse_length(long), Some((UNIT + 1, 19)));
        for bad in ["", ".", "-1", "1e3", "1.2.3", "x", " 1"] {
            assert_eq!(parse_length(bad), None, "{bad}");
        }
        assert_eq!(decimal(SQRT2 * 2, 8), "2.82842712");
        assert_eq!(decimal(UNIT * 5, 0), "5");
    }

    /// Issue 43: a length written with 3 decimals (`100.828`, the
    /// StarCraft files) stands for 100.8275–100.8285, not ±0.0001; one
    /// with 8 decimals for ±0.000000005 around the length with the files'
    /// own diagonal, 1.414213562.
    #[test]
    fn the_tolerance_follows_each_lines_last_digit() {
        let at = |len: &str| {
            let (length, places) = parse_length(len).unwrap();
            Scenario {
                line: 2,
                bucket: 0,
                from: Cell::new(0, 0),
                to: Cell::new(1, 1),
                length,
                places,
            }
        };
        // 70 diagonals and 2 straight moves: 100.99494936611665…, or
        // 100.99494934 with the files' diagonal.
        let cells: Vec<Cell> = (0..=70)
            .map(|i| Cell::new(i, i))
            .chain([Cell::new(71, 70), Cell::new(72, 70)])
            .collect();
        let ours = length_of(0, &cells, Moves::Eight, true);
        assert_eq!(
            (ours.low, ours.high),
            (2 * UNIT + 70 * FILE_SQRT2, 2 * UNIT + 70 * SQRT2)
        );
        let matches = |len: &str, fixed: Option<u128>| at(len).matches(ours, fixed);
        assert!(matches("100.995", None));
        assert!(!matches("100.994", None));
        assert!(!matches("100.996", None));
        assert!(matches("100.99495", None));
        assert!(matches("100.99494937", None));
        assert!(matches("100.99494934", None));
        assert!(!matches("100.99494938", None));
        assert!(!matches("100.99494933", None));
        assert!(matches("101", None));
        assert!(!matches("100", None));
        // A fixed tolerance, either side.
        assert!(!matches("100.995", Some(UNIT / 100_000)));
        assert!(matches("100.9949", Some(UNIT / 10_000)));
        assert_eq!(at("100.828").tolerance(None), UNIT / 2000);
        // With heights, the cost itself.
        let hilly = length_of(3 << 16, &cells[..2], Moves::Eight, false);
        assert_eq!((hilly.low, hilly.high), (3 * UNIT, 3 * UNIT));
    }
}
