//! Clips for slides: frames of the viewer as an animated GIF.
//!
//! A GIF frame holds 256 colours; a frame of the viewer some two to three
//! thousand (text and line edges are blended into what is under them).
//! Each frame's palette is its 255 most frequent colours — the flat
//! colours of the design, the background, the panels and most shapes, so
//! those pixels are exact — and every other pixel takes the nearest of
//! them (an edge pixel: a small error where a glyph or line meets its
//! background). The 256th index is transparent: a pixel that shows what
//! the frame before showed is left transparent, which is most of a frame,
//! and compresses to almost nothing. Integer arithmetic only, and ties
//! broken by a rule (the commoner colour, then the smaller value), so a
//! clip's bytes depend only on its frames.
#![deny(clippy::float_arithmetic)]

use std::collections::HashMap;
use std::io::Write;

/// The palette index that means "as the frame before".
const CLEAR: u8 = 255;

/// One frame's colours reduced to a palette of at most 255.
struct Reduced {
    palette: Vec<[u8; 3]>,
    /// Each pixel's palette index.
    indices: Vec<u8>,
}

/// The frame's 255 commonest colours, exact, and the nearest of them for
/// every other colour.
fn reduce(rgb: &[[u8; 3]]) -> Reduced {
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for p in rgb {
        *counts.entry(*p).or_default() += 1;
    }
    let mut by_count: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = by_count.iter().take(255).map(|(c, _)| *c).collect();
    let mut index: HashMap<[u8; 3], u8> = HashMap::with_capacity(by_count.len());
    for (c, _) in &by_count {
        index.insert(*c, nearest(&palette, *c));
    }
    Reduced {
        indices: rgb.iter().map(|p| index[p]).collect(),
        palette,
    }
}

/// The palette entry nearest to `c` (squared distance; ties: the lower
/// index, the commoner colour).
fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let d = |p: &[u8; 3]| -> u32 {
        (0..3)
            .map(|k| {
                let e = i32::from(p[k]) - i32::from(c[k]);
                (e * e) as u32
            })
            .sum()
    };
    let mut best = (u32::MAX, 0u8);
    for (i, p) in palette.iter().enumerate() {
        let e = d(p);
        if e < best.0 {
            best = (e, i as u8);
        }
    }
    best.1
}

/// Writes frames (upright RGBA, `w`×`h`, each shown `delay` hundredths of
/// a second) as a looping GIF.
pub struct Clip<W: Write> {
    enc: gif::Encoder<W>,
    w: u16,
    h: u16,
    delay: u16,
    /// What the clip shows at each pixel after the last frame.
    shown: Vec<[u8; 3]>,
    frames: usize,
}

impl<W: Write> Clip<W> {
    /// A clip of `w`×`h` frames, each shown `delay` hundredths of a second.
    pub fn new(out: W, (w, h): (u32, u32), delay: u16) -> Result<Clip<W>, String> {
        let (w, h) = (
            u16::try_from(w).map_err(|_| too_large(w, h))?,
            u16::try_from(h).map_err(|_| too_large(w, h))?,
        );
        let mut enc = gif::Encoder::new(out, w, h, &[]).map_err(|e| e.to_string())?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| e.to_string())?;
        Ok(Clip {
            enc,
            w,
            h,
            delay,
            shown: Vec::new(),
            frames: 0,
        })
    }

    /// Adds a frame (upright RGBA; its alpha is ignored).
    pub fn frame(&mut self, rgba: &[u8]) -> Result<(), String> {
        let n = usize::from(self.w) * usize::from(self.h);
        if rgba.len() != n * 4 {
            // in English: a program error, as the command line says it
            return Err(format!("a frame of {} bytes, not {}", rgba.len(), n * 4));
        }
        let rgb: Vec<[u8; 3]> = rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect();
        let r = reduce(&rgb);
        let mut indices = r.indices;
        if self.shown.len() == n {
            for (i, shown) in indices.iter_mut().zip(&mut self.shown) {
                let c = r.palette[usize::from(*i)];
                if c == *shown {
                    *i = CLEAR;
                } else {
                    *shown = c;
                }
            }
        } else {
            self.shown = indices.iter().map(|&i| r.palette[usize::from(i)]).collect();
        }
        let mut palette: Vec<u8> = r.palette.iter().flatten().copied().collect();
        palette.resize(256 * 3, 0);
        let frame = gif::Frame {
            width: self.w,
            height: self.h,
            delay: self.delay,
            dispose: gif::DisposalMethod::Keep,
            transparent: Some(CLEAR),
            palette: Some(palette),
            buffer: std::borrow::Cow::Owned(indices),
            ..gif::Frame::default()
        };
        self.enc.write_frame(&frame).map_err(|e| e.to_string())?;
        self.frames += 1;
        Ok(())
    }

    /// How many frames were added.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Finishes the file.
    pub fn finish(self) -> Result<W, String> {
        self.enc.into_inner().map_err(|e| e.to_string())
    }
}

fn too_large(w: u32, h: u32) -> String {
    // in English: a refusal, as the command line says it
    format!("{w}x{h}: a GIF frame is at most 65535 pixels a side")
}

/// The hundredths of a second a frame of `every` ticks lasts at `rate`
/// ticks a second, and `every` raised until that is at least 2 (browsers
/// show faster frames at a tenth of a second).
pub fn timing(rate: u32, every: u64) -> (u64, u16) {
    let rate = u64::from(rate.max(1));
    let mut every = every.max(1);
    while every * 100 / rate < 2 {
        every += 1;
    }
    (every, (every * 100 / rate).min(u64::from(u16::MAX)) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut o = gif::DecodeOptions::new();
        o.set_color_output(gif::ColorOutput::RGBA);
        let mut d = o.read_info(bytes).unwrap();
        let (w, h) = (usize::from(d.width()), usize::from(d.height()));
        let mut canvas = vec![0u8; w * h * 4];
        let mut out = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            // Composite: transparent pixels keep what was shown.
            for (i, px) in f.buffer.chunks_exact(4).enumerate() {
                if px[3] != 0 {
                    canvas[i * 4..i * 4 + 4].copy_from_slice(px);
                }
            }
            out.push(canvas.clone());
        }
        out
    }

    #[test]
    fn frames_with_few_colours_come_back_exactly() {
        let (w, h) = (40u32, 30u32);
        let frame = |k: u8| -> Vec<u8> {
            (0..w * h)
                .flat_map(|i| {
                    let c = ((i % 97) as u8).wrapping_mul(k + 1);
                    [c, 255 - c, k, 255]
                })
                .collect()
        };
        let mut clip = Clip::new(Vec::new(), (w, h), 4).unwrap();
        for k in 0..3 {
            clip.frame(&frame(k)).unwrap();
        }
        assert_eq!(clip.frames(), 3);
        let back = decode(&clip.finish().unwrap());
        assert_eq!(back.len(), 3);
        for (k, f) in back.iter().enumerate() {
            assert_eq!(*f, frame(k as u8), "frame {k}");
        }
    }

    #[test]
    fn the_commonest_colours_are_exact_and_the_rest_nearest() {
        // 300 colours: the 255 commonest are kept, the rarest go to the
        // nearest kept one.
        let mut rgb = Vec::new();
        for c in 0..255u8 {
            for _ in 0..3 {
                rgb.push([c, 0, 7]);
            }
        }
        for c in 0..45u8 {
            rgb.push([c, 100, 7]);
        }
        let r = reduce(&rgb);
        assert_eq!(r.palette.len(), 255);
        for (p, &i) in rgb.iter().zip(&r.indices) {
            let got = r.palette[usize::from(i)];
            if p[1] == 0 {
                assert_eq!(got, *p);
            } else {
                // [c, 100, 7]: the nearest kept colour is [c, 0, 7].
                assert_eq!(got, [p[0], 0, 7]);
            }
        }
    }

    #[test]
    fn a_frame_lasts_at_least_two_hundredths() {
        assert_eq!(timing(60, 1), (2, 3));
        assert_eq!(timing(30, 1), (1, 3));
        assert_eq!(timing(10, 1), (1, 10));
        assert_eq!(timing(60, 5), (5, 8));
    }
}
