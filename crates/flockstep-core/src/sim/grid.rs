//! Grids of cells with heights and walls, and their ASCII map format.
//!
//! A map is one line per row, one character per cell: `0`–`9` a height, `#`
//! a wall. x is the column, y the row, origin top-left; every row has the
//! same length. A trailing newline (and `\r\n` line ends) are accepted.
//!
//! [`Grid::read`] also takes the Moving AI benchmark format (Sturtevant
//! 2012): a header `type octile`, `height H`, `width W`, `map`, then H rows
//! of W characters, `.` `G` `S` passable (height 0) and `@` `O` `T` `W`
//! blocked (walls).

use core::fmt;
use serde::{Deserialize, Serialize};

/// A grid cell: x is the column, y the row (screen convention, y down).
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize,
)]
pub struct Cell {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Cell {
    /// A cell from its coordinates.
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }

    /// True if the two cells touch, diagonals included (or are equal).
    pub fn is_8_adjacent(self, o: Cell) -> bool {
        (self.x as i64 - o.x as i64).abs() <= 1 && (self.y as i64 - o.y as i64).abs() <= 1
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The terrain code of a wall cell.
/// The terrain value of a wall in [`Grid::terrain`].
pub const WALL: u8 = u8::MAX;

/// The highest a cell can be (heights are 0 to this).
pub const MAX_HEIGHT: u8 = 9;

/// The largest width or height a grid may have.
pub const MAX_SIDE: u32 = 4096;

/// A rectangular grid of heights (0–9) and walls.
///
/// Deserialized, it is checked as [`Grid::read`] checks a map: sides of 1 to
/// [`MAX_SIDE`], a terrain byte per cell, each a height or [`WALL`] (the
/// searches' cost bounds rely on it).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "RawGrid")]
pub struct Grid {
    width: u32,
    height: u32,
    /// Row-major terrain: 0–9 a height, 255 a wall.
    cells: Vec<u8>,
}

/// What is wrong with a map, for a program to match on (the message says
/// it for a person).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GridErrorKind {
    /// No rows, or an empty first row.
    Empty,
    /// More than [`MAX_SIDE`] cells a side.
    TooLarge,
    /// A row longer or shorter than the first (or than the header's width),
    /// or fewer or more rows than the header's height.
    Ragged,
    /// A character that is not a cell.
    BadCell,
    /// A Moving AI header line that is missing or wrong.
    Header,
}

/// A map that could not be read, with the 1-based line and column in the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridError {
    /// What is wrong.
    pub kind: GridErrorKind,
    /// 1-based line in the map text.
    pub line: usize,
    /// 1-based column (in characters) in the map text.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for GridError {}

/// A [`Grid`]'s fields as serialized, before they are checked.
#[derive(Deserialize)]
struct RawGrid {
    width: u32,
    height: u32,
    cells: Vec<u8>,
}

impl TryFrom<RawGrid> for Grid {
    type Error = String;

    fn try_from(g: RawGrid) -> Result<Grid, String> {
        let (w, h) = (g.width, g.height);
        if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
            return Err(format!("a grid of {w}×{h} cells: 1 to {MAX_SIDE} a side"));
        }
        if g.cells.len() != (w * h) as usize {
            let n = g.cells.len();
            return Err(format!("a {w}×{h} grid with {n} cells"));
        }
        let odd = g.cells.iter().position(|&c| c > MAX_HEIGHT && c != WALL);
        if let Some(i) = odd {
            let (x, y) = (i as u32 % w, i as u32 / w);
            let v = g.cells[i];
            return Err(format!(
                "cell ({x},{y}) holds {v}: not a height (0-{MAX_HEIGHT}) nor a wall ({WALL})"
            ));
        }
        Ok(Grid {
            width: w,
            height: h,
            cells: g.cells,
        })
    }
}

impl Grid {
    /// An open grid: every cell at height 0. Sides are clamped to
    /// `1..=MAX_SIDE`.
    pub fn open(width: u32, height: u32) -> Grid {
        let width = width.clamp(1, MAX_SIDE);
        let height = height.clamp(1, MAX_SIDE);
        Grid {
            width,
            height,
            cells: vec![0; (width * height) as usize],
        }
    }

    /// Reads an ASCII map (see the module docs).
    pub fn parse(text: &str) -> Result<Grid, GridError> {
        let mut rows: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        if rows.is_empty() {
            return Err(GridError {
                kind: GridErrorKind::Empty,
                line: 1,
                column: 1,
                message: "the map is empty".into(),
            });
        }
        let width = rows[0].chars().count();
        if width == 0 {
            return Err(GridError {
                kind: GridErrorKind::Empty,
                line: 1,
                column: 1,
                message: "the first row of the map is empty".into(),
            });
        }
        if width > MAX_SIDE as usize || rows.len() > MAX_SIDE as usize {
            return Err(GridError {
                kind: GridErrorKind::TooLarge,
                line: 1,
                column: 1,
                message: format!(
                    "the map is {width}×{} cells; at most {MAX_SIDE} a side",
                    rows.len()
                ),
            });
        }
        let mut cells = Vec::with_capacity(width * rows.len());
        for (y, row) in rows.iter().enumerate() {
            let mut n = 0;
            for (x, c) in row.chars().enumerate() {
                n += 1;
                if x >= width {
                    return Err(GridError {
                        kind: GridErrorKind::Ragged,
                        line: y + 1,
                        column: x + 1,
                        message: format!(
                            "ragged map: row {} is longer than the first row ({width} cells)",
                            y + 1
                        ),
                    });
                }
                cells.push(match c {
                    '0'..='9' => c as u8 - b'0',
                    '#' => WALL,
                    _ => {
                        return Err(GridError {
                            kind: GridErrorKind::BadCell,
                            line: y + 1,
                            column: x + 1,
                            message: format!(
                                "unexpected {c:?}: a cell is a height 0-9 or '#' for a wall"
                            ),
                        });
                    }
                });
            }
            if n < width {
                return Err(GridError {
                    kind: GridErrorKind::Ragged,
                    line: y + 1,
                    column: n + 1,
                    message: format!(
                        "ragged map: row {} has {n} cells, the first row has {width}",
                        y + 1
                    ),
                });
            }
        }
        Ok(Grid {
            width: width as u32,
            height: rows.len() as u32,
            cells,
        })
    }

    /// Reads a map in either format: the Moving AI benchmark's when the
    /// text begins with `type`, else the ASCII one ([`Grid::parse`]).
    pub fn read(text: &str) -> Result<Grid, GridError> {
        if text.starts_with("type") {
            Grid::parse_moving_ai(text)
        } else {
            Grid::parse(text)
        }
    }

    /// Reads a Moving AI benchmark map (see the module docs). The header's
    /// size must match the rows; every error names its line and column.
    pub fn parse_moving_ai(text: &str) -> Result<Grid, GridError> {
        let mut lines = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .enumerate();
        let (i, kind) = header(&mut lines, "type")?;
        if kind != "octile" {
            return Err(at(
                GridErrorKind::Header,
                i,
                6,
                format!("map type `{kind}`: only `octile` maps are read"),
            ));
        }
        let height = side(&mut lines, "height")?;
        let width = side(&mut lines, "width")?;
        header(&mut lines, "map")?;
        let mut cells = Vec::with_capacity(width * height);
        for y in 0..height {
            let Some((i, row)) = lines.next() else {
                return Err(at(
                    GridErrorKind::Ragged,
                    4 + y,
                    1,
                    format!("the map has {y} rows; its header says {height}"),
                ));
            };
            let mut n = 0;
            for (x, c) in row.chars().enumerate() {
                if x >= width {
                    return Err(at(
                        GridErrorKind::Ragged,
                        i,
                        x + 1,
                        format!(
                            "ragged map: row {} is longer than the header's width {width}",
                            y + 1
                        ),
                    ));
                }
                cells.push(match c {
                    '.' | 'G' | 'S' => 0,
                    '@' | 'O' | 'T' | 'W' => WALL,
                    _ => {
                        return Err(at(GridErrorKind::BadCell, i, x + 1, format!("unexpected {c:?}: a Moving AI cell is . G S (passable) or @ O T W (blocked)")));
                    }
                });
                n += 1;
            }
            if n < width {
                return Err(at(
                    GridErrorKind::Ragged,
                    i,
                    n + 1,
                    format!(
                        "ragged map: row {} has {n} cells, the header's width is {width}",
                        y + 1
                    ),
                ));
            }
        }
        if let Some((i, _)) = lines.find(|(_, l)| !l.is_empty()) {
            return Err(at(
                GridErrorKind::Ragged,
                i,
                1,
                format!("the map has more rows than its header's {height}"),
            ));
        }
        Ok(Grid {
            width: width as u32,
            height: height as u32,
            cells,
        })
    }

    /// The terrain row-major, one byte per cell: 0–9 a height, [`WALL`]
    /// a wall (for searches that walk it by index).
    pub fn terrain(&self) -> &[u8] {
        &self.cells
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn index(&self, c: Cell) -> Option<usize> {
        if c.x < 0 || c.y < 0 || c.x as u32 >= self.width || c.y as u32 >= self.height {
            None
        } else {
            Some(c.y as usize * self.width as usize + c.x as usize)
        }
    }

    /// True if the cell is on the grid.
    pub fn contains(&self, c: Cell) -> bool {
        self.index(c).is_some()
    }

    /// True if the cell is a wall (cells off the grid are not walls; ask
    /// [`Grid::contains`] for that).
    pub fn is_wall(&self, c: Cell) -> bool {
        self.index(c).is_some_and(|i| self.cells[i] == WALL)
    }

    /// True if any cell is a wall.
    pub fn has_walls(&self) -> bool {
        self.cells.contains(&WALL)
    }

    /// The height of an open cell on the grid; `None` for walls and cells
    /// off the grid.
    pub fn height_at(&self, c: Cell) -> Option<u8> {
        self.index(c).map(|i| self.cells[i]).filter(|&h| h != WALL)
    }

    /// Makes a cell a wall (no effect off the grid).
    pub fn set_wall(&mut self, c: Cell) {
        if let Some(i) = self.index(c) {
            self.cells[i] = WALL;
        }
    }

    /// Sets the height of a cell, clamped to 0–9 (no effect off the grid).
    pub fn set_height(&mut self, c: Cell, h: u8) {
        if let Some(i) = self.index(c) {
            self.cells[i] = h.min(MAX_HEIGHT);
        }
    }

    /// The map in its ASCII format (one line per row, each ending in `\n`).
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity(self.cells.len() + self.height as usize);
        for row in self.cells.chunks(self.width as usize) {
            for &t in row {
                s.push(if t == WALL { '#' } else { (b'0' + t) as char });
            }
            s.push('\n');
        }
        s
    }
}

/// An error at 0-based line `i`, 1-based `column`.
fn at(kind: GridErrorKind, i: usize, column: usize, message: String) -> GridError {
    GridError {
        kind,
        line: i + 1,
        column,
        message,
    }
}

/// A Moving AI header line `key value` (or `key` alone): its line and value.
fn header<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    key: &str,
) -> Result<(usize, &'a str), GridError> {
    match lines.next() {
        Some((i, l)) => match l.split_once(' ') {
            Some((k, v)) if k == key => Ok((i, v.trim())),
            _ if l == key => Ok((i, "")),
            _ => Err(at(
                GridErrorKind::Header,
                i,
                1,
                format!(
                    "expected `{key}` here (a Moving AI map's header is type, height, width, map)"
                ),
            )),
        },
        None => Err(at(
            GridErrorKind::Header,
            0,
            1,
            format!("the header ends before `{key}`"),
        )),
    }
}

/// A Moving AI `height` or `width` line: 1 to [`MAX_SIDE`].
fn side<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    key: &str,
) -> Result<usize, GridError> {
    let (i, v) = header(lines, key)?;
    match v.parse::<usize>() {
        Ok(n) if (1..=MAX_SIDE as usize).contains(&n) => Ok(n),
        _ => Err(at(
            GridErrorKind::Header,
            i,
            key.len() + 2,
            format!("`{key}` must be 1-{MAX_SIDE}, not `{v}`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_ai_maps_read_and_their_errors_name_the_place() {
        let good = "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.G@\r\nSTW\r\n";
        let g = Grid::read(good).unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert_eq!(g.to_ascii(), "00#\n0##\n");
        let e = |text: &str| Grid::read(text).unwrap_err();
        let place = |text: &str| {
            let e = e(text);
            (e.kind, e.line, e.column)
        };
        use GridErrorKind::{BadCell, Header, Ragged};
        let m = "type octile\nheight 2\nwidth 3\nmap\n";
        assert_eq!(place(&format!("{m}...\n.x.\n")), (BadCell, 6, 2));
        assert_eq!(place(&format!("{m}...\n..\n")), (Ragged, 6, 3));
        assert_eq!(place(&format!("{m}...\n....\n")), (Ragged, 6, 4));
        assert_eq!(place(&format!("{m}...\n")), (Ragged, 6, 1));
        assert_eq!(place(&format!("{m}...\n...\n...\n")), (Ragged, 7, 1));
        assert_eq!(
            place("type octile\nheight 0\nwidth 3\nmap\n"),
            (Header, 2, 8)
        );
        assert_eq!(
            place("type octile\nheight 2\nwidth 5000\nmap\n"),
            (Header, 3, 7)
        );
        assert_eq!(
            place("type octile\nwidth 3\nheight 2\nmap\n"),
            (Header, 2, 1)
        );
        assert_eq!(place("type tile\nheight 2\nwidth 3\nmap\n"), (Header, 1, 6));
        assert!(
            e("type octile\nheight 2\n")
                .message
                .contains("expected `width`")
        );
        // A trailing blank line is not a row.
        assert!(Grid::read(&format!("{m}...\n...\n\n")).is_ok());
    }

    #[test]
    fn round_trip() {
        let text = "0123\n#45#\n9990\n";
        let g = Grid::parse(text).unwrap();
        assert_eq!((g.width(), g.height()), (4, 3));
        assert!(g.is_wall(Cell::new(0, 1)));
        assert_eq!(g.height_at(Cell::new(2, 1)), Some(5));
        assert_eq!(g.height_at(Cell::new(3, 1)), None);
        assert_eq!(g.height_at(Cell::new(4, 0)), None);
        assert!(!g.is_wall(Cell::new(-1, 0)));
        assert_eq!(g.to_ascii(), text);
        assert_eq!(Grid::parse("01\r\n23\r\n").unwrap().to_ascii(), "01\n23\n");
    }

    #[test]
    fn ragged_and_bad_maps_name_the_place() {
        let e = Grid::parse("000\n00\n000").unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (GridErrorKind::Ragged, 2, 3));
        assert!(e.message.contains("ragged"), "{e}");
        let e = Grid::parse("000\n0000\n").unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (GridErrorKind::Ragged, 2, 4));
        let e = Grid::parse("00\n0x\n").unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (GridErrorKind::BadCell, 2, 2));
        assert!(e.message.contains("'x'"), "{e}");
        assert_eq!(Grid::parse("\n\n").unwrap_err().kind, GridErrorKind::Empty);
        assert_eq!(Grid::parse("\n00").unwrap_err().kind, GridErrorKind::Empty);
        let big = "0".repeat(MAX_SIDE as usize + 1);
        assert_eq!(Grid::parse(&big).unwrap_err().kind, GridErrorKind::TooLarge);
    }

    #[test]
    fn a_deserialized_grid_is_checked_as_a_map_is() {
        let good = Grid::parse("0#\n95").unwrap();
        let json = serde_json::to_string(&good).unwrap();
        assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), good);
        let bad = |w: u32, h: u32, cells: &[u8]| {
            let raw = serde_json::json!({ "width": w, "height": h, "cells": cells });
            serde_json::from_value::<Grid>(raw).unwrap_err().to_string()
        };
        let e = bad(2, 2, &[0, 255, 9, 10]);
        assert!(e.contains("cell (1,1) holds 10"), "{e}");
        assert!(bad(2, 2, &[0, 255, 9]).contains("a 2×2 grid with 3 cells"));
        assert!(bad(0, 1, &[]).contains("1 to 4096 a side"));
        assert!(bad(4097, 1, &[0; 4097]).contains("1 to 4096 a side"));
    }
}
