//! A plain-text picture of a path search, for terminals and snapshot tests.
//!
//! Two characters per cell: the terrain (`0`–`9` a height, `#` a wall) and
//! what the search knows of it — `o` open, `x` closed, `*` on the found
//! path, `@` the cell expanded last, `S` the start, `G` the goal, a space
//! if not reached.

use super::{PathSim, SearchState, Status};
use crate::sim::{Cell, Grid, Sim};
use std::fmt::Write as _;

/// The map with one search's marks; `path` is drawn over it.
pub fn draw(
    grid: &Grid,
    s: Option<&SearchState>,
    start: Cell,
    goal: Cell,
    path: &[Cell],
) -> String {
    let (w, h) = (grid.width(), grid.height());
    let mut out = String::with_capacity((w as usize * 2 + 1) * h as usize);
    // One lookup per cell (a path on a 4096² map is thousands of cells).
    let mut on_path = vec![false; w as usize * h as usize];
    for c in path.iter().filter(|c| grid.contains(**c)) {
        on_path[c.y as usize * w as usize + c.x as usize] = true;
    }
    for y in 0..h {
        for x in 0..w {
            let c = Cell::new(x as i32, y as i32);
            let i = y * w + x;
            out.push(match grid.height_at(c) {
                None => '#',
                Some(v) => (b'0' + v) as char,
            });
            let mark = if c == start {
                'S'
            } else if c == goal {
                'G'
            } else if on_path[i as usize] {
                '*'
            } else if let Some(s) = s {
                if s.current == Some(i) {
                    '@'
                } else if s.is_closed(i) {
                    'x'
                } else if s.g[i as usize] != u64::MAX {
                    'o'
                } else {
                    ' '
                }
            } else {
                ' '
            };
            out.push(mark);
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out
}

/// `f` or `h` in 16-bit fixed point, with two decimals.
pub fn q16(v: u64) -> String {
    let hundredths = (v * 100 + (1 << 15)) >> 16;
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// The expansions so far, with the repeats when there are any: `26 (4
/// again)`.
pub fn expanded(s: &SearchState) -> String {
    match s.repeats() {
        0 => s.expanded.to_string(),
        n => format!("{} ({n} again)", s.expanded),
    }
}

/// One open entry as `(x,y) f=… g=…` (`g` as `moves` count it).
pub fn open_entry(e: &super::OpenEntry, moves: super::Moves) -> String {
    format!("({},{}) f={} g={}", e.x, e.y, q16(e.f16()), moves.show(e.g))
}

/// Every search: a status line, the map, and the first open entries.
pub fn render(sim: &PathSim) -> String {
    let cfg = sim.config();
    let st = sim.state();
    let mut out = String::new();
    let _ = writeln!(out, "tick {}  hash {:#018x}", st.tick, sim.state_hash());
    for (i, (s, sc)) in st.searches.iter().zip(&cfg.searches).enumerate() {
        let status = match s.status {
            Status::Searching => "searching".to_owned(),
            Status::Found(c) => format!("found, cost {}", sc.moves.show(c)),
            Status::Unreachable => "unreachable".to_owned(),
        };
        let open = s.open_in_order(sc.closed_set);
        let _ = writeln!(
            out,
            "search {i} ({}): {status}; expanded {}; open {}",
            sc.label,
            expanded(s),
            open.len()
        );
        let path = s.path(cfg.grid.width(), cfg.goal);
        out.push_str(&draw(&cfg.grid, Some(s), cfg.start, cfg.goal, &path));
        if !open.is_empty() {
            let list: Vec<String> = open
                .iter()
                .take(6)
                .map(|e| open_entry(e, sc.moves))
                .collect();
            let more = if open.len() > 6 { ", …" } else { "" };
            let _ = writeln!(out, "open: {}{more}", list.join(", "));
        }
    }
    out
}
