//! The terrain generator: smoothed noise heights, never reading past the grid.

use super::*;

/// A terrain from article 001's value noise, without its edge over-read:
/// per-cell noise `n₁`, and the same noise array read at `(x/2, y/2)` and
/// `(x/4, y/4)` and interpolated bilinearly towards the next index (`n₂`,
/// `n₄`; an index past the edge clamps to the last row or column instead
/// of reading outside, which the article's 1-wide maps would do), combined
/// `0.5·n₄ + 0.3·n₂ + 0.2·n₁`, and cut into heights `1..=levels`. All in
/// integers (noise in 16-bit fixed point) from a seeded PCG32.
pub fn generate(width: u32, height: u32, levels: u8, seed: u64) -> Grid {
    let (w, h) = (
        width.clamp(1, crate::sim::grid::MAX_SIDE),
        height.clamp(1, crate::sim::grid::MAX_SIDE),
    );
    let levels = levels.clamp(1, 9);
    let mut rng = Pcg32::new(seed, 0x0A57);
    let noise: Vec<u64> = (0..w as usize * h as usize)
        .map(|_| (rng.next_u32() >> 16) as u64)
        .collect();
    let at = |x: u32, y: u32| noise[(y.min(h - 1) * w + x.min(w - 1)) as usize];
    // As the article: the noise array read at (x/s, y/s) and the next
    // index, weights (x%s)/s — a coarser lattice of the same noise.
    let octave = |x: u32, y: u32, s: u32| -> u64 {
        let (x0, y0) = (x / s, y / s);
        let (fx, fy) = ((x % s) as u64, (y % s) as u64);
        let s64 = s as u64;
        let top = at(x0, y0) * (s64 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (s64 - fx) + at(x0 + 1, y0 + 1) * fx;
        (top * (s64 - fy) + bottom * fy) / (s64 * s64)
    };
    let mut grid = Grid::open(w, h);
    for y in 0..h {
        for x in 0..w {
            // 0.5·n₄ + 0.3·n₂ + 0.2·n₁ in Q16, < 2¹⁶.
            let pn = (5 * octave(x, y, 4) + 3 * octave(x, y, 2) + 2 * at(x, y)) / 10;
            let level = ((pn * levels as u64) >> 16) as u8 + 1;
            grid.set_height(Cell::new(x as i32, y as i32), level.min(levels));
        }
    }
    grid
}
