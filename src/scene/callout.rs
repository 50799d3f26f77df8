//! A beat's callouts drawn (see [`crate::lesson::callout`]): each text
//! with its figures filled in from the state shown, at the narration's
//! size, in a framed box next to what it is about — beside the entity,
//! clear of the labels already there, with a leader line when it had to
//! move away — or at the top of its pane for the pane's own figures.

use super::{Camera, Frame, P, Role, Scene, Shape, View, Viewport, color};
use crate::sim::AnySim;

/// A callout as the view holds it: in the screen's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Where: `world` or an entity reference.
    pub at: String,
    /// The one pane (variant or search) it is drawn in; `None`: every
    /// pane.
    pub pane: Option<u32>,
    /// The text, with `{KEY}` placeholders.
    pub text: String,
}

/// The callouts of the pane being drawn (the view's `tile`).
fn mine(view: &View, tile: u32) -> impl Iterator<Item = &Shown> {
    view.callouts
        .iter()
        .filter(move |c| c.pane.is_none_or(|p| p == tile))
}

/// A template with its `{KEY}`s filled: `{param.NAME}` from the pane's
/// scenario values, the rest by `figure` (a figure not known at this
/// tick shows as "–").
fn fill(text: &str, view: &View, tile: u32, figure: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let key = &after[..close];
        let value = match key.strip_prefix("param.") {
            Some(name) => view
                .params
                .get(tile as usize)
                .and_then(|m| m.get(name))
                .cloned(),
            None => figure(key),
        };
        out.push_str(value.as_deref().unwrap_or("–"));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The boxes of the labels a scene already has (from `from` on), which a
/// callout keeps clear of.
fn taken(out: &Scene, from: usize) -> Vec<[i32; 4]> {
    let mut keep = out.keep_clear.clone();
    keep.extend(boxes_of_text(out, from));
    keep
}

/// The boxes of the texts a scene has from shape `from` on.
fn boxes_of_text(out: &Scene, from: usize) -> Vec<[i32; 4]> {
    out.shapes[from.min(out.shapes.len())..]
        .iter()
        .filter_map(|s| match s {
            Shape::Text { at, size, text, .. } => {
                let (asc, desc) = super::text::ascent_descent(*size);
                let w = super::text::width(text, *size);
                Some([at[0] - 4, at[1] - asc - 2, w + 8, asc + desc + 4])
            }
            _ => None,
        })
        .collect()
}

/// Draws the callouts of the pane just built (its shapes from `from` on)
/// in viewport `vp`.
pub(super) fn draw(frame: &Frame, view: &View, cam: &Camera, from: usize, out: &mut Scene) {
    if view.callouts.is_empty() {
        return;
    }
    let mut boxes = taken(out, from);
    // The pane title's short hash, held back with it on a question's beat.
    let hash = (!view.asking).then(|| super::panes::short_hash(frame.sim.state_hash()));
    let common = |k: &str| (k == "hash").then(|| hash.clone());
    match frame.sim {
        AnySim::Flock(s) => {
            let figure = |at: &str, k: &str| super::flock::callout_figure(s, frame, view, at, k);
            let anchor = |at: &str| super::flock::callout_anchor(s, cam, view, at);
            let one_pane = (&figure as Figures, &anchor as Anchors);
            pane(out, (view, cam), one_pane, &common, &mut boxes);
        }
        AnySim::Custom(s) => {
            // A user sim's callouts name the world's `tick` and `hash`.
            let figure = |_: &str, k: &str| (k == "tick").then(|| s.0.tick().to_string());
            let anchor = |_: &str| None;
            let one_pane = (&figure as Figures, &anchor as Anchors);
            pane(out, (view, cam), one_pane, &common, &mut boxes);
        }
        AnySim::Line(s) => {
            let figure = |at: &str, k: &str| super::line::callout_figure(s, frame, view, at, k);
            let anchor = |at: &str| super::line::callout_anchor(s, cam, at);
            let one_pane = (&figure as Figures, &anchor as Anchors);
            pane(out, (view, cam), one_pane, &common, &mut boxes);
        }
        AnySim::Path(s) => {
            for si in 0..s.config().searches.len() {
                let mut stacked = 0;
                // The search's own figures share its one-line band: joined.
                let mut own: Option<(Viewport, String)> = None;
                let mut anchored = Vec::new();
                for c in mine(view, si as u32) {
                    // A search's own callout goes in its tile only.
                    if c.at
                        .strip_prefix("search:")
                        .is_some_and(|n| n != si.to_string())
                    {
                        continue;
                    }
                    let figure = |k: &str| {
                        common(k)
                            .unwrap_or_else(|| super::path::callout_figure(s, view, si, &c.at, k))
                    };
                    let text = fill(&c.text, view, si as u32, &figure);
                    let Some((vp, anchor)) = super::path::callout_place(s, cam, si, &c.at) else {
                        continue;
                    };
                    if anchor.is_none() {
                        match &mut own {
                            Some((_, t)) => *t = format!("{t} · {text}"),
                            None => own = Some((vp, text)),
                        }
                        continue;
                    }
                    anchored.push((vp, anchor, text));
                }
                // The band's first, so the others keep clear of it.
                let own = own.map(|(vp, text)| (vp, None, text));
                for (vp, anchor, text) in own.into_iter().chain(anchored) {
                    out.push(Shape::Clip { area: vp });
                    place(out, (vp, anchor), &text, view, (&mut boxes, &mut stacked));
                }
            }
            out.push(Shape::Clip { area: cam.viewport });
        }
        AnySim::Panes(_) => {}
    }
}

/// A sim's figures: `(at, key)` to the figure's text.
type Figures<'a> = &'a dyn Fn(&str, &str) -> Option<String>;
/// A sim's anchors: `at` to the point and radius of what is drawn there.
type Anchors<'a> = &'a dyn Fn(&str) -> Option<(P, i32)>;

/// The callouts of a one-pane sim (a flock or lines), its figures and
/// anchors given; `common` answers the figures every sim has.
fn pane(
    out: &mut Scene,
    (view, cam): (&View, &Camera),
    (figure, anchor): (Figures, Anchors),
    common: &dyn Fn(&str) -> Option<Option<String>>,
    boxes: &mut Vec<[i32; 4]>,
) {
    let mut stacked = 0;
    for c in mine(view, view.tile) {
        let one = |k: &str| common(k).unwrap_or_else(|| figure(&c.at, k));
        let text = fill(&c.text, view, view.tile, &one);
        let at = (cam.viewport, anchor(&c.at));
        place(out, at, &text, view, (boxes, &mut stacked));
    }
}

/// One callout: beside its anchor (a point and the radius of what is
/// drawn there) when it has one, else at the top of `vp`, below the
/// `stacked` ones already there (which it joins); on a framed box at the
/// narration's size.
fn place(
    out: &mut Scene,
    (vp, anchor): (Viewport, Option<(P, i32)>),
    text: &str,
    view: &View,
    (boxes, stacked): (&mut Vec<[i32; 4]>, &mut i32),
) {
    let size = view.font(22);
    let s = i32::from(size);
    let pad = (s / 5).max(2);
    let w = super::text::width(text, size);
    let before = out.shapes.len();
    match anchor.filter(|(p, _)| super::on_screen(vp, *p)) {
        Some((p, r)) => {
            out.label_near((p, r), (size, color::SELECTED), text, (vp, boxes));
        }
        None if anchor.is_some() => return,
        None => {
            let (asc, desc) = super::text::ascent_descent(size);
            let row = asc + desc + 2 * pad + view.px(4);
            let at = [
                vp.x + (vp.w - w) / 2,
                vp.y + s + 2 * pad + view.px(4) + *stacked * row,
            ];
            *stacked += 1;
            out.label_in(vp, at, size, color::SELECTED, text);
            boxes.push([
                at[0] - pad,
                at[1] - asc - pad,
                w + 2 * pad,
                asc + desc + 2 * pad,
            ]);
        }
    }
    // The label just drawn: its backing box, then its text.
    let rect = match &out.shapes[before..] {
        [.., Shape::Rect { at, size, .. }, Shape::Text { .. }] => (*at, *size),
        _ => return,
    };
    if let Some(Shape::Text { role, .. }) = out.shapes.last_mut() {
        *role = Role::Callout;
    }
    out.push(Shape::Frame {
        at: rect.0,
        size: rect.1,
        width: view.lw(2, 2),
        color: color::SELECTED,
    });
    // A leader line when the box had to move away from what it is about.
    if let Some((p, r)) = anchor {
        let (bx, by, bw, bh) = (rect.0[0], rect.0[1], rect.1[0], rect.1[1]);
        let near = [p[0].clamp(bx, bx + bw), p[1].clamp(by, by + bh)];
        let (dx, dy) = (i64::from(near[0] - p[0]), i64::from(near[1] - p[1]));
        if dx * dx + dy * dy > i64::from(2 * r + view.px(8)).pow(2) {
            // From the edge of what it is about, not across it.
            let len = ((dx * dx + dy * dy) as u64).isqrt().max(1) as i64;
            let r = i64::from(r);
            let edge = [p[0] + (dx * r / len) as i32, p[1] + (dy * r / len) as i32];
            out.line(edge, near, view.lw(2, 2), color::SELECTED);
        }
    }
}

/// Whether the entity a reference names (`boid:24`, `cell:3,4`,
/// `chaser:1`) is drawn inside its pane, in each pane that has it (a
/// path lesson: each search's tile): what a beat that names it must
/// show. `None` for a reference that names no entity with a place.
pub fn entity_shown(sim: &AnySim, cam: &Camera, view: &View, reference: &str) -> Option<Vec<bool>> {
    let inside = |vp: Viewport, (p, _): (P, i32)| super::on_screen(vp, p);
    match sim {
        AnySim::Panes(p) => p
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let c = super::pane_camera(sim, cam, i);
                entity_shown(s, &c, view, reference).map(|v| v.iter().all(|&b| b))
            })
            .collect(),
        AnySim::Flock(s) => {
            let a = super::flock::callout_anchor(s, cam, view, reference);
            if !matches!(reference.split_once(':'), Some(("boid" | "obstacle", _))) {
                return None;
            }
            Some(vec![a.is_some_and(|a| inside(cam.viewport, a))])
        }
        AnySim::Custom(_) => None,
        AnySim::Line(s) => {
            if !matches!(
                reference.split_once(':'),
                Some(("chaser" | "target" | "cell", _))
            ) {
                return None;
            }
            let a = super::line::callout_anchor(s, cam, reference);
            Some(vec![a.is_some_and(|a| inside(cam.viewport, a))])
        }
        AnySim::Path(s) => {
            if !(reference.starts_with("cell:") || matches!(reference, "start" | "goal")) {
                return None;
            }
            (0..s.config().searches.len())
                .map(
                    |si| match super::path::callout_place(s, cam, si, reference) {
                        Some((vp, Some(a))) => Some(inside(vp, a)),
                        _ => Some(false),
                    },
                )
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_from_parameters_and_figures() {
        let view = View {
            params: vec![[("fov".to_owned(), "90".to_owned())].into_iter().collect()],
            ..View::default()
        };
        let figure = |k: &str| (k == "speed").then(|| "2.00".to_owned());
        assert_eq!(
            fill("{speed} at {param.fov}°, {sees} seen", &view, 0, &figure),
            "2.00 at 90°, – seen"
        );
        assert_eq!(fill("a {b", &view, 0, &figure), "a {b");
    }
}
