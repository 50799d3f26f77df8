//! Text metrics of the bundled font, in whole pixels, without a window: the
//! sum of the glyphs' advance widths (in font units) scaled to the font
//! size — what macroquad's renderer (fontdue, same font) advances by, to
//! within a pixel. The layout of the window (how narration wraps, how tall
//! its box is) is computed from them, so it is a pure function of the
//! window's size that tests can compute too.
//!
//! Native builds carry the font; the web build fetches it beside the page
//! and installs it with [`install`]. Until then (or if it fails) widths
//! are estimated (0.56 of the size per character, a full size for CJK).

use std::sync::OnceLock;

/// The bundled font's bytes (native builds).
#[cfg(not(target_arch = "wasm32"))]
// in English: the font's path, and its failure (drawn before any font can draw another script)
pub const FONT: &[u8] = include_bytes!("../viewer/fonts/flockstep-sans.otf");

static FACE: OnceLock<ttf_parser::Face<'static>> = OnceLock::new();

/// Uses `bytes` (the bundled font, fetched) for the metrics; the first
/// call wins.
pub fn install(bytes: &'static [u8]) -> Result<(), String> {
    // in English: the font's path, and its failure (drawn before any font can draw another script)
    let face = ttf_parser::Face::parse(bytes, 0).map_err(|e| format!("the font: {e}"))?;
    let _ = FACE.set(face);
    Ok(())
}

fn face() -> Option<&'static ttf_parser::Face<'static>> {
    #[cfg(not(target_arch = "wasm32"))]
    if FACE.get().is_none() {
        let _ = install(FONT);
    }
    FACE.get()
}

/// Whether the font has a glyph for a character.
pub fn has_glyph(c: char) -> bool {
    face().is_some_and(|f| f.glyph_index(c).is_some_and(|g| g.0 != 0))
}

/// The width of a text at a font size in pixels.
pub fn width(s: &str, size: u16) -> i32 {
    let Some(f) = face() else {
        return s
            .chars()
            .map(|c| {
                if c as u32 >= 0x2E80 {
                    i64::from(size)
                } else {
                    i64::from(size) * 56 / 100
                }
            })
            .sum::<i64>() as i32;
    };
    let units: i64 = s
        .chars()
        .map(|c| {
            let g = f.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
            i64::from(f.glyph_hor_advance(g).unwrap_or(0))
        })
        .sum();
    let upem = i64::from(f.units_per_em().max(1));
    ((units * i64::from(size) + upem - 1) / upem) as i32
}

/// How far the bundled font's glyphs reach above and below the baseline
/// at a font size, in whole pixels (rounded outwards).
pub fn ascent_descent(size: u16) -> (i32, i32) {
    let Some(f) = face() else {
        let s = i32::from(size);
        return (s * 9 / 10, s * 3 / 10);
    };
    let upem = i64::from(f.units_per_em().max(1));
    let up = |units: i64| ((units * i64::from(size) + upem - 1) / upem) as i32;
    (up(i64::from(f.ascender())), up(-i64::from(f.descender())))
}
