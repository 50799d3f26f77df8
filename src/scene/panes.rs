//! A lesson's variants side by side: one tile per pane, titled with the
//! variant's name and the figures that tell the panes apart (the state
//! hash, and the figures [`figures`] lists), with the pane's own scene under
//! the title. Every pane draws the same overlays for the same entities, so
//! boid 0 can be compared with boid 0; the panels are the focused pane's,
//! and its tile is framed.

use super::{Camera, Frame, P, Scene, Shape, View, Viewport, color};
use crate::sim::AnySim;
use crate::tr;

/// The title's height at a 1280×720 window: the name and a line of
/// figures.
const TITLE: i32 = 52;

/// How many times longer than another pane's a pane's longest rule arrow
/// may be for the panes to share one scale (see [`build`]).
const SHARED_RANGE: i32 = 20;

/// The tiles of `n` panes in a viewport: up to three in a row, four as
/// two rows of two (as path searches are laid out).
pub fn pane_tiles(n: usize, vp: Viewport) -> Vec<Viewport> {
    super::search_tiles(n, vp)
}

/// The part of a tile under its title: where the pane's world is drawn.
fn body(tile: Viewport, cam: &Camera) -> Viewport {
    let title = TITLE * i32::from(cam.scale) / 100;
    let m = 4;
    Viewport {
        x: tile.x + m,
        y: tile.y + title,
        w: (tile.w - 2 * m).max(1),
        h: (tile.h - title - m).max(1),
    }
}

/// The pane the panels describe: the one clicked, else the beat's
/// `pane:N` focus, else the first.
pub fn focused_pane(view: &View, n: usize) -> usize {
    let beat = super::ids_of(&view.focus, "pane").first().copied();
    view.pane
        .or(beat)
        .map_or(0, |i| i as usize)
        .min(n.saturating_sub(1))
}

/// The camera pane `i` is drawn with (a sim without variants: `cam`).
pub fn pane_camera(sim: &AnySim, cam: &Camera, i: usize) -> Camera {
    match sim {
        AnySim::Panes(p) => {
            let tiles = pane_tiles(p.len(), cam.viewport);
            let tile = tiles.get(i).copied().unwrap_or(cam.viewport);
            Camera {
                viewport: body(tile, cam),
                center: cam.pane_centers.get(i).copied().flatten().or(cam.center),
                ..*cam
            }
        }
        _ => *cam,
    }
}

/// The pane under a screen point, with its sim and camera (a sim without
/// variants: itself, anywhere).
pub fn pane_at<'a>(sim: &'a AnySim, cam: &Camera, at: P) -> Option<(usize, &'a AnySim, Camera)> {
    let AnySim::Panes(p) = sim else {
        return Some((0, sim, *cam));
    };
    let tiles = pane_tiles(p.len(), cam.viewport);
    let i = tiles
        .iter()
        .position(|t| at[0] >= t.x && at[0] < t.x + t.w && at[1] >= t.y && at[1] < t.y + t.h)?;
    Some((i, &p[i], pane_camera(sim, cam, i)))
}

/// The short form of a state hash shown in a title (its first 8 hex
/// digits).
pub fn short_hash(h: u64) -> String {
    format!("{:08x}", h >> 32)
}

/// The figures in a pane's title (none on a question's beat): its state hash; for a flock, the
/// focused boid's heading and the mates it saw; for a line sim, the cells
/// each chaser has walked.
fn figures(sim: &AnySim, frame: &Frame, view: &View, dt: bool) -> Vec<String> {
    // While the class predicts, a pane's title is its name alone: its
    // figures (the hash above all) could tell how the panes will differ.
    // What the question needs on screen, the beat calls out.
    if view.withhold_next {
        return Vec::new();
    }
    let mut out = vec![tr!(view.lang, PANE_HASH, short_hash(sim.state_hash()))];
    if let AnySim::Flock(f) = sim {
        out.extend(super::flock::pane_figures(f, frame, view, dt));
    }
    if let AnySim::Line(_) = sim {
        for (i, w) in frame.walks.iter().enumerate() {
            let name = view.name("chaser", i as u32);
            let steps = w.len().saturating_sub(1);
            out.push(tr!(view.lang, PANE_WALKED, name, steps));
        }
    }
    out
}

/// The title's two lines of figures: all on the second line when they
/// fit `fit` pixels; else the hash goes last, the figures fill the second
/// line in order and the rest go to the first, after the pane's name
/// (`name_w` pixels), as many as fit there; the others are left out.
fn pack(figs: Vec<String>, size: u16, fit: i32, name_w: i32) -> (String, String) {
    let width = |s: &str| super::text::width(s, size);
    let all = figs.join(" · ");
    if width(&all) <= fit || figs.len() < 2 {
        return (String::new(), all);
    }
    let mut order = figs;
    order.rotate_left(1);
    let (mut second, mut first) = (String::new(), Vec::new());
    for (k, f) in order.iter().enumerate() {
        let more = if second.is_empty() {
            f.clone()
        } else {
            format!("{second} · {f}")
        };
        if width(&more) <= fit && first.is_empty() {
            second = more;
        } else {
            first = order[k..].to_vec();
            break;
        }
    }
    let mut shown = String::new();
    for f in first {
        let more = if shown.is_empty() {
            f
        } else {
            format!("{shown} · {f}")
        };
        if name_w + width(&format!(" · {more}")) > fit {
            break;
        }
        shown = more;
    }
    (shown, second)
}

/// Builds every pane's tile; the panels are the focused pane's, their
/// titles prefixed with its name.
pub(super) fn build(panes: &[AnySim], frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let tiles = pane_tiles(panes.len(), cam.viewport);
    let focused = focused_pane(view, panes.len());
    // When some pane's dt varies, every title shows its tick's dt.
    let dt = panes
        .iter()
        .any(|p| matches!(p, AnySim::Flock(f) if f.config().dt_jitter != crate::num::Fx::ZERO));
    // Rule arrows share one scale across the panes, so a push twice as
    // strong in one pane draws twice as long as in the other — while every
    // pane's longest arrow is at least 1/SHARED_RANGE of the longest of
    // all. Past that, a shared scale would draw the weaker panes' arrows
    // as equal minimum stubs (pushes of 4,000 and 40 beside one of
    // 100,000): each pane then scales its own, and the beat's callouts
    // give the numbers.
    let scales: Vec<crate::num::Fx> = panes
        .iter()
        .enumerate()
        .filter_map(|(i, sim)| match sim {
            AnySim::Flock(f) => {
                let sub = frame.panes.get(i).copied().unwrap_or(Frame::bare(sim));
                super::flock::pane_rule_scale(f, &sub, view)
            }
            _ => None,
        })
        .collect();
    let scale = scales.iter().max().copied().filter(|&top| {
        scales
            .iter()
            .all(|&s| s.saturating_mul(crate::num::Fx::from_int(SHARED_RANGE)) >= top)
    });
    let shared = View {
        rule_scale: scale,
        ..view.clone()
    };
    let view = &shared;
    let (mut lists, mut rest) = (Vec::new(), Vec::new());
    for (i, (sim, tile)) in panes.iter().zip(tiles).enumerate() {
        let sub_frame = frame.panes.get(i).copied().unwrap_or(Frame::bare(sim));
        let sub_cam = pane_camera(frame.sim, cam, i);
        let mut sub = Scene::default();
        let pane_view = View {
            tile: i as u32,
            ..view.clone()
        };
        super::build_one(&sub_frame, &pane_view, &sub_cam, &mut sub);
        out.push(Shape::Clip {
            area: sub_cam.viewport,
        });
        out.shapes.append(&mut sub.shapes);
        out.keep_clear.append(&mut sub.keep_clear);
        for (k, n) in sub.drawn {
            *out.drawn.entry(k).or_default() += n;
        }
        // The focused pane's panels; of line panes, every pane's list of
        // chasers first (their cells are what the narration compares).
        let name = view.name("pane", i as u32);
        let line = matches!(sim, AnySim::Line(_));
        for (k, mut p) in sub.panels.into_iter().enumerate() {
            p.title = format!("{name}: {}", p.title);
            match (k, i == focused) {
                (0, _) if line => lists.push(p),
                (_, true) => rest.push(p),
                _ => {}
            }
        }
        out.push(Shape::Clip { area: tile });
        title(sim, &sub_frame, (i, tile, dt), i == focused, view, out);
    }
    out.panels.extend(lists);
    out.panels.extend(rest);
    out.push(Shape::Clip { area: cam.viewport });
}

/// A pane's title band and its outline (the focused pane's in the
/// selection colour).
fn title(
    sim: &AnySim,
    frame: &Frame,
    (i, tile, dt): (usize, Viewport, bool),
    focused: bool,
    view: &View,
    out: &mut Scene,
) {
    let h = TITLE * i32::from(view.scale) / 100;
    out.push(Shape::Rect {
        at: [tile.x, tile.y],
        size: [tile.w, h],
        color: color::PANEL,
    });
    let (f1, f2) = (view.font(18), view.font(15));
    let fit = tile.w - 2 * view.px(8);
    let x = tile.x + view.px(8);
    let name = view.name("pane", i as u32);
    let name_w = super::text::width(&name, f1);
    let (first, second) = pack(figures(sim, frame, view, dt), f2, fit, name_w);
    out.text_fit(
        [x, tile.y + i32::from(f1) + view.px(4)],
        f1,
        if focused {
            color::SELECTED
        } else {
            color::TEXT
        },
        name,
        fit,
    );
    // Figures that did not fit below: right-aligned after the name.
    if !first.is_empty() {
        let w = super::text::width(&first, f2);
        out.text_as(
            super::Role::PaneTitle,
            [
                tile.x + tile.w - view.px(8) - w,
                tile.y + i32::from(f1) + view.px(4),
            ],
            (f2, color::TEXT),
            first,
        );
    }
    if !second.is_empty() {
        out.text_fit(
            [x, tile.y + i32::from(f1) + i32::from(f2) + view.px(9)],
            f2,
            color::TEXT,
            second,
            fit,
        );
    }
    out.push(Shape::Frame {
        at: [tile.x + 1, tile.y + 1],
        size: [tile.w - 2, tile.h - 2],
        width: view.lw(2, 2),
        color: if focused { color::SELECTED } else { color::DIM },
    });
}

#[cfg(test)]
mod tests {
    use super::pack;

    fn figs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn figures_that_fit_stay_on_one_line_in_order() {
        let (first, second) = pack(figs(&["hash 1234abcd", "sees 2"]), 15, 10_000, 50);
        assert_eq!(
            (first.as_str(), second.as_str()),
            ("", "hash 1234abcd · sees 2")
        );
    }

    #[test]
    fn the_hash_goes_last_and_the_rest_beside_the_name() {
        let all = figs(&[
            "hash 1234abcd",
            "boid 1 heads 180.00°",
            "1.94 outside",
            "sees 0",
        ]);
        let w = |s: &str| super::super::text::width(s, 15);
        // Room for the heading and the distance below, and for one more
        // figure beside a short name.
        let fit = w("boid 1 heads 180.00° · 1.94 outside") + 2;
        let name_w = fit - w(" · sees 0") - 1;
        let (first, second) = pack(all.clone(), 15, fit, name_w);
        assert_eq!(second, "boid 1 heads 180.00° · 1.94 outside");
        assert_eq!(first, "sees 0");
        // A longer name leaves no room: the rest is left out, never cut
        // through a figure.
        let (first, second) = pack(all, 15, fit, fit);
        assert_eq!(
            (first.as_str(), second.as_str()),
            ("", "boid 1 heads 180.00° · 1.94 outside")
        );
    }
}
