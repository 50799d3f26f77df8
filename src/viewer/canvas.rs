//! A frame as data: everything the window draws, in order — shapes, text
//! and clip changes — computed without a window, then painted by the
//! window in one pass (`window::paint`). The text it holds is what a
//! screen reader would read: every string with its [`Role`], its
//! rectangle, its size, and whether it was cut short or lies outside the
//! area it is drawn in. `flockstep render --text` writes it as JSON and
//! the tests assert on it, at every beat, without a display.
//!
//! Painting runs in the order given, with one rule: text is drawn over the
//! shapes of its layer, at the next [`Op::FlushText`] (or clip change), so
//! a layer's shapes go in one batch and its glyphs in another.
#![deny(clippy::float_arithmetic)]

use crate::scene::{Rgba, Role, Shape, Viewport};

/// A point in whole pixels.
pub type P = [i32; 2];

/// One text the frame draws.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TextItem {
    /// What it is to a reader.
    pub role: Role,
    /// What it says (as drawn: with its ellipsis when it was cut).
    pub text: String,
    /// The left end of its baseline.
    #[serde(skip)]
    pub at: P,
    /// Font size in pixels.
    pub px: u16,
    /// The box its glyphs take: `[x, y, w, h]`, from the font's ascent to
    /// its descent.
    pub rect: [i32; 4],
    /// Its colour.
    #[serde(skip)]
    pub color: Rgba,
    /// The area it is drawn in, `[x, y, w, h]`: its pane, the scene, the
    /// window; outside it, nothing shows.
    pub area: [i32; 4],
    /// Whether any of it shows: `false` when it lies wholly outside its
    /// area (a label of a cell scrolled out of its pane).
    pub shown: bool,
    /// Whether it is cut by the edge of its area: part shows, part not.
    pub clipped: bool,
    /// Whether it was cut short with an ellipsis to fit its width.
    pub cut: bool,
}

/// One drawing operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A shape (a scene's, or the chrome's rectangles, lines, …).
    Shape(Shape),
    /// The text of [`Canvas::texts`] at this index, queued until the next
    /// flush.
    Text(usize),
    /// Draws the queued text over everything drawn so far.
    FlushText,
    /// From here on, draw only inside this area (`None`: the window); what
    /// waits is drawn first.
    Clip(Option<Viewport>),
    /// Dims the whole window (under a modal box).
    Dim,
}

/// What a frame holds that a reader would want to know besides its text:
/// what does not fit.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Overflow {
    /// Side-panel lines hidden below its fold (a class cannot scroll).
    pub panel_lines_hidden: usize,
    /// Context panels left out of the side panel for want of room (the
    /// panels of what the beat is about are shown first).
    pub panels_dropped: usize,
    /// Pages of narration beyond the one shown.
    pub narration_pages: usize,
}

/// A frame: its size, its operations in order, and its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Canvas {
    /// The window's width.
    pub w: i32,
    /// The window's height.
    pub h: i32,
    /// The operations, in drawing order.
    pub ops: Vec<Op>,
    /// Every text drawn, in drawing order.
    pub texts: Vec<TextItem>,
    /// What does not fit.
    pub overflow: Overflow,
    /// The area drawing is clipped to now.
    clip: Option<Viewport>,
}

/// The width of a text at a font size in pixels (the bundled font).
pub fn measure(s: &str, size: u16) -> i32 {
    crate::scene::text::width(s, size)
}

/// A text cut to `width` pixels, with an ellipsis when it was cut.
pub fn fit(s: &str, width: i32, size: u16) -> String {
    if measure(s, size) <= width {
        return s.to_owned();
    }
    let mut out = String::new();
    for ch in s.chars() {
        out.push(ch);
        if measure(&format!("{out}…"), size) > width {
            out.pop();
            break;
        }
    }
    format!("{}…", out.trim_end())
}

impl Canvas {
    /// An empty frame of a `w`×`h` window.
    pub fn new(w: i32, h: i32) -> Canvas {
        Canvas {
            w,
            h,
            ..Canvas::default()
        }
    }

    /// A shape.
    pub fn shape(&mut self, s: Shape) {
        match s {
            Shape::Text {
                role,
                at,
                size,
                color,
                text,
                fit: width,
            } => {
                let (shown, cut) = if width > 0 {
                    let f = fit(&text, width, size);
                    let cut = f != text;
                    (f, cut)
                } else {
                    (text, false)
                };
                self.text_item(role, at, (size, color), shown, cut);
            }
            Shape::Clip { area } => self.clip(Some(area)),
            s => self.ops.push(Op::Shape(s)),
        }
    }

    /// A filled rectangle.
    pub fn rect(&mut self, v: Viewport, color: Rgba) {
        self.ops.push(Op::Shape(Shape::Rect {
            at: [v.x, v.y],
            size: [v.w, v.h],
            color,
        }));
    }

    /// A rectangle's outline, `width` pixels wide.
    pub fn outline(&mut self, v: Viewport, width: i32, color: Rgba) {
        self.ops.push(Op::Shape(Shape::Frame {
            at: [v.x, v.y],
            size: [v.w, v.h],
            width: width.clamp(1, 64) as u16,
            color,
        }));
    }

    /// A line `width` pixels wide.
    pub fn line(&mut self, a: P, b: P, width: i32, color: Rgba) {
        self.ops.push(Op::Shape(Shape::Line {
            a,
            b,
            width: width.clamp(1, 64) as u16,
            color,
        }));
    }

    /// A filled disc.
    pub fn disc(&mut self, c: P, r: i32, color: Rgba) {
        self.ops.push(Op::Shape(Shape::Disc { c, r, color }));
    }

    /// A filled triangle.
    pub fn tri(&mut self, p: [P; 3], color: Rgba) {
        self.ops.push(Op::Shape(Shape::Tri { p, color }));
    }

    /// A text with its baseline's left end at `at`.
    pub fn text(&mut self, role: Role, s: &str, at: P, size: u16, color: Rgba) {
        self.text_item(role, at, (size, color), s.to_owned(), false);
    }

    /// A text cut to `width` pixels with an ellipsis (see [`fit`]).
    pub fn text_fit(&mut self, role: Role, s: &str, at: P, (size, width): (u16, i32), color: Rgba) {
        let f = fit(s, width, size);
        let cut = f != s;
        self.text_item(role, at, (size, color), f, cut);
    }

    fn text_item(
        &mut self,
        role: Role,
        at: P,
        (size, color): (u16, Rgba),
        text: String,
        cut: bool,
    ) {
        if text.is_empty() {
            return;
        }
        let (asc, desc) = crate::scene::text::ascent_descent(size);
        let rect = [at[0], at[1] - asc, measure(&text, size), asc + desc];
        let area = self.clip.unwrap_or(Viewport {
            x: 0,
            y: 0,
            w: self.w,
            h: self.h,
        });
        // A pixel of slack: glyph boxes round outwards.
        let outside = rect[0] < area.x - 1
            || rect[1] < area.y - 1
            || rect[0] + rect[2] > area.x + area.w + 1
            || rect[1] + rect[3] > area.y + area.h + 1;
        let shown = rect[0] < area.x + area.w
            && rect[0] + rect[2] > area.x
            && rect[1] < area.y + area.h
            && rect[1] + rect[3] > area.y;
        let clipped = outside && shown;
        self.texts.push(TextItem {
            role,
            text,
            at,
            px: size,
            rect,
            color,
            area: [area.x, area.y, area.w, area.h],
            shown,
            clipped,
            cut,
        });
        self.ops.push(Op::Text(self.texts.len() - 1));
    }

    /// Draws the queued text now, over everything before it.
    pub fn flush_text(&mut self) {
        self.ops.push(Op::FlushText);
    }

    /// Restricts drawing to an area (`None`: the whole window).
    pub fn clip(&mut self, v: Option<Viewport>) {
        self.clip = v;
        self.ops.push(Op::Clip(v));
    }

    /// Dims everything drawn so far (text included) under a modal box.
    pub fn dim(&mut self) {
        self.ops.push(Op::FlushText);
        self.ops.push(Op::Dim);
    }

    /// The frame's text as JSON: the window's size, what does not fit,
    /// and every text item in drawing order.
    /// One item a line, so a diff of two frames reads item by item.
    pub fn text_json(&self, about: serde_json::Value) -> String {
        let line = |v: serde_json::Value| v.to_string();
        let items: Vec<String> = self
            .texts
            .iter()
            .map(|t| serde_json::to_string(t).unwrap_or_default())
            .collect();
        format!(
            "{{\n  \"size\": [{}, {}],\n  \"frame\": {},\n  \"overflow\": {},\n  \"items\": [\n    {}\n  ]\n}}\n",
            self.w,
            self.h,
            line(about),
            line(serde_json::to_value(&self.overflow).unwrap_or_default()),
            items.join(",\n    ")
        )
    }

    /// Every distinct (size, character) the frame's text needs: the window
    /// puts them in the font's atlas before it draws anything, so the
    /// atlas never grows in the middle of a frame.
    pub fn glyphs(&self) -> std::collections::BTreeMap<u16, std::collections::BTreeSet<char>> {
        let mut out: std::collections::BTreeMap<u16, std::collections::BTreeSet<char>> =
            Default::default();
        for t in &self.texts {
            out.entry(t.px).or_default().extend(t.text.chars());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::color;

    #[test]
    fn text_records_its_box_and_whether_the_clip_cuts_it() {
        let mut c = Canvas::new(200, 100);
        c.text(Role::Status, "tick 3", [10, 30], 20, color::TEXT);
        c.clip(Some(Viewport {
            x: 0,
            y: 0,
            w: 50,
            h: 50,
        }));
        c.text(Role::Label, "a long label here", [10, 30], 20, color::TEXT);
        c.text_fit(
            Role::PaneTitle,
            "a long title here",
            [10, 30],
            (20, 60),
            color::TEXT,
        );
        let t = &c.texts;
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].rect[2], measure("tick 3", 20));
        assert!(t[0].rect[1] < 30 && t[0].rect[1] + t[0].rect[3] > 30);
        assert!(!t[0].clipped && !t[0].cut);
        assert!(t[1].clipped && t[1].shown && !t[1].cut);
        assert!(t[2].cut && t[2].text.ends_with('…'));
        assert!(measure(&t[2].text, 20) <= 60);
        let glyphs = &c.glyphs()[&20];
        assert!(glyphs.contains(&'3') && glyphs.contains(&'…') && glyphs.contains(&' '));
    }
}
