//! A scene as text, for snapshots a person can review: shape counts by
//! kind and colour, the first shapes of each kind, every label, the
//! panels and the legend. Never drawn: its words are the snapshot's, not
//! the screen's (so it is the one part of `scene` outside the catalogue).

use super::{Rgba, Scene, Shape, color};
use std::fmt::Write as _;

impl Scene {
    /// A text summary for snapshots: shape counts by kind and colour, the
    /// first shapes of each kind with their coordinates, every label, the
    /// panels and the legend.
    pub fn summary(&self) -> String {
        let mut counts: std::collections::BTreeMap<(String, String), usize> = Default::default();
        for s in &self.shapes {
            *counts
                .entry((kind(s).to_owned(), color_name(shape_color(s))))
                .or_default() += 1;
        }
        let mut out = String::new();
        let _ = writeln!(out, "shapes: {}", self.shapes.len());
        for ((k, c), n) in &counts {
            let _ = writeln!(out, "  {k:<6} {c:<10} {n}");
        }
        let mut shown: std::collections::BTreeMap<&str, usize> = Default::default();
        for s in &self.shapes {
            let seen = shown.entry(kind(s)).or_default();
            if *seen < 3 && !matches!(s, Shape::Text { .. }) {
                *seen += 1;
                let _ = writeln!(out, "  e.g. {}", describe(s));
            }
        }
        let labels: Vec<&str> = self
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        if !labels.is_empty() {
            let shown: Vec<&str> = labels.iter().take(24).copied().collect();
            let _ = writeln!(
                out,
                "labels ({}): {}{}",
                labels.len(),
                shown.join(" | "),
                if labels.len() > 24 { " | …" } else { "" }
            );
        }
        for p in &self.panels {
            let _ = writeln!(out, "panel {}:", p.title);
            for l in p.lines.iter().take(16) {
                let _ = writeln!(out, "  {l}");
            }
            if p.lines.len() > 16 {
                let _ = writeln!(out, "  … {} more", p.lines.len() - 16);
            }
        }
        if !self.drawn.is_empty() {
            let d: Vec<String> = self.drawn.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(out, "drawn: {}", d.join(", "));
        }
        if !self.legend.is_empty() {
            let l: Vec<String> = self
                .legend
                .iter()
                .map(|(c, n)| format!("{n}={}", color_name(*c)))
                .collect();
            let _ = writeln!(out, "legend: {}", l.join(", "));
        }
        out
    }
}

fn kind(s: &Shape) -> &'static str {
    match s {
        Shape::Rect { .. } => "rect",
        Shape::Frame { .. } => "frame",
        Shape::Line { .. } => "line",
        Shape::Disc { .. } => "disc",
        Shape::Ring { .. } => "ring",
        Shape::Tri { .. } => "tri",
        Shape::Text { .. } => "text",
        Shape::Clip { .. } => "clip",
    }
}

/// A shape's colour.
pub fn shape_color(s: &Shape) -> Rgba {
    match s {
        Shape::Rect { color, .. }
        | Shape::Frame { color, .. }
        | Shape::Line { color, .. }
        | Shape::Disc { color, .. }
        | Shape::Ring { color, .. }
        | Shape::Tri { color, .. }
        | Shape::Text { color, .. } => *color,
        Shape::Clip { .. } => Rgba(0, 0, 0, 0),
    }
}

fn describe(s: &Shape) -> String {
    match s {
        Shape::Rect { at, size, .. } => format!("rect {at:?} {size:?}"),
        Shape::Frame { at, size, .. } => format!("frame {at:?} {size:?}"),
        Shape::Line { a, b, width, .. } => format!("line {a:?}-{b:?} w{width}"),
        Shape::Disc { c, r, .. } => format!("disc {c:?} r{r}"),
        Shape::Ring { c, r, .. } => format!("ring {c:?} r{r}"),
        Shape::Tri { p, .. } => format!("tri {:?} {:?} {:?}", p[0], p[1], p[2]),
        Shape::Text { at, text, .. } => format!("text {at:?} {text:?}"),
        Shape::Clip { area } => format!("clip {area:?}"),
    }
}

/// A palette colour's name (for snapshots), or its bytes.
pub fn color_name(c: Rgba) -> String {
    use color::*;
    let named = [
        (BACKGROUND, "background"),
        (PANEL, "panel"),
        (TEXT, "text"),
        (DIM, "dim"),
        (BOID, "boid"),
        (SELECTED, "selected"),
        (ORANGE, "orange"),
        (SKY, "sky"),
        (GREEN, "green"),
        (BLUE, "blue"),
        (VERMILLION, "vermillion"),
        (PURPLE, "purple"),
        (WALL, "wall"),
    ];
    named.iter().find(|(k, _)| *k == c).map_or_else(
        || format!("#{:02x}{:02x}{:02x}{:02x}", c.0, c.1, c.2, c.3),
        |(_, n)| (*n).to_owned(),
    )
}
