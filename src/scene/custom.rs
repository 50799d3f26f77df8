//! The default scene of a user's own sim ([`crate::user`]): its world box,
//! each entity a disc in its kind's colour with its name and, when it has
//! one, an arrow along its heading; its marks (`UserSim::marks`: forces
//! as arrows on one scale, radii as rings, targets as lines, each
//! labelled) under the overlays that are on; the side panel lists the
//! focused entity's marks and the state's fields (the names `verify` and
//! `diff` use). A focused or selected entity (`entity:N`) is drawn larger
//! and ringed.

use super::{Camera, Frame, Map2, P, Panel, Rgba, Scene, Shape, View, Viewport, color};
use crate::num::{Fx, Vec3};
use crate::replay::fields::{Leaf, Value};
use crate::sim::{Cells, CustomSim, Entity, Mark, MarkShape};
use crate::tr;

/// The colours of the entities' kinds, in the order the kinds first
/// appear.
const PALETTE: [Rgba; 6] = [
    color::SKY,
    color::ORANGE,
    color::GREEN,
    color::PURPLE,
    color::VERMILLION,
    color::BLUE,
];

/// The colours of the marks' overlays, in the registration's order.
/// (Apart from the entities' first colours; the fourth is the flocks'
/// steering white.)
const OVERLAY_PALETTE: [Rgba; 6] = [
    color::VERMILLION,
    color::GREEN,
    color::PURPLE,
    color::TEXT,
    color::BLUE,
    color::DIM,
];

/// The most fields the side panel lists.
const MAX_FIELDS: usize = 40;

/// The kinds of the entities, in the order they first appear.
fn kinds(entities: &[Entity]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for e in entities {
        if !out.contains(&e.kind) {
            out.push(e.kind);
        }
    }
    out
}

fn colour_of(kinds: &[&str], kind: &str) -> Rgba {
    let i = kinds.iter().position(|k| *k == kind).unwrap_or(0);
    PALETTE[i % PALETTE.len()]
}

/// The centre of the world box.
pub(super) fn world_center(s: &CustomSim) -> Vec3 {
    let (lo, hi) = s.0.bounds();
    let half = |a: Fx, b: Fx| a + (b - a) / Fx::from_int(2);
    Vec3::new(half(lo.x, hi.x), half(lo.y, hi.y), Fx::ZERO)
}

/// The world box on screen.
fn map(s: &CustomSim, cam: &Camera) -> Map2 {
    let (lo, hi) = s.0.bounds();
    Map2::of_camera(lo, hi, cam)
}

/// Whether the view focuses on or has selected entity `i`.
fn singled_out(view: &View, i: usize) -> bool {
    view.focused("entity").contains(&(i as u32))
}

/// The scene of a user sim.
pub(super) fn build(s: &CustomSim, _frame: &Frame, view: &View, cam: &Camera, out: &mut Scene) {
    let m = map(s, cam);
    if let Some(c) = s.0.cells() {
        draw_cells(out, &m, &c);
    }
    let (lo, hi) = s.0.bounds();
    let (a, b) = (m.at(lo.x, hi.y), m.at(hi.x, lo.y));
    out.push(Shape::Frame {
        at: a,
        size: [b[0] - a[0], b[1] - a[1]],
        width: view.lw(2, 1),
        color: color::DIM,
    });
    let entities = s.0.entities();
    let marks = shown_marks(s, view);
    let world = intersect(
        Viewport {
            x: a[0],
            y: a[1],
            w: b[0] - a[0],
            h: b[1] - a[1],
        },
        cam.viewport,
    );
    let clips = (world, cam.viewport);
    let labels = draw_marks(s, &marks, (&m, &entities, clips), view, out);
    let kinds = kinds(&entities);
    // The names' boxes so far: [left, baseline, width, height].
    let mut taken: Vec<[i32; 4]> = Vec::new();
    for (i, e) in entities.iter().enumerate() {
        let big = singled_out(view, i);
        let at = m.at(e.pos.x, e.pos.y);
        let r = view.px(if big { 10 } else { 6 });
        let c = colour_of(&kinds, e.kind);
        if let Some(h) = e.heading.filter(|h| !h.is_zero()) {
            arrow(out, at, h, view.px(28), (view.lw(3, 2), c));
        }
        out.push(Shape::Disc { c: at, r, color: c });
        if big {
            out.push(Shape::Ring {
                c: at,
                r: r + view.px(4),
                width: view.lw(3, 2),
                color: color::SELECTED,
            });
        }
        out.keep_clear.push([at[0] - r, at[1] - r, 2 * r, 2 * r]);
        let right = e.heading.is_none_or(|h| h.x <= Fx::ZERO);
        let (size, gap) = (view.font(18), r + view.px(4));
        let [x, y, w, h] = name_spot(&e.name, (at, gap, size), right, (&taken, &out.avoid), view);
        taken.push([x, y, w, h]);
        out.label([x, y], size, color::TEXT, e.name.clone());
    }
    // The marks' labels, clear of the names (boxes as [left, top, w, h])
    // and of each other.
    let mut clear: Vec<[i32; 4]> = taken
        .iter()
        .map(|b| [b[0], b[1] - b[3], b[2], b[3]])
        .collect();
    for (tip, c, text) in labels {
        // The overlay's colour lightened towards the text's, so a dark
        // one (the blue) still reads against the background.
        let mix = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
        let t = color::TEXT;
        let light = Rgba(mix(c.0, t.0), mix(c.1, t.1), mix(c.2, t.2), 255);
        let f = view.font(17);
        out.label_near(
            (tip, view.px(3)),
            (f, light),
            text,
            (cam.viewport, &mut clear),
        );
    }
    out.avoid.clear();
    if let Some(p) = marks_panel(&marks, &entities, view) {
        out.panels.push(p);
    }
    out.panels.push(state_panel(s, view));
}

/// The sim's marks whose overlays are on.
fn shown_marks(s: &CustomSim, view: &View) -> Vec<Mark> {
    let mut marks = s.0.marks();
    marks.retain(|k| view.on(k.overlay));
    marks
}

/// The colour of an overlay's marks: by its place among the sim's
/// overlays.
fn overlay_colour(s: &CustomSim, overlay: &str) -> Rgba {
    let i = crate::lesson::sims::by_id(s.0.sim_type().id())
        .and_then(|r| r.overlays().iter().position(|o| *o == overlay))
        .unwrap_or(0);
    OVERLAY_PALETTE[i % OVERLAY_PALETTE.len()]
}

/// Where an entity's name goes, as [left, baseline, width, height]: on the
/// side its arrow does not take (`right`), clear of the names already
/// placed (entities on one spot: stacked) — or, when that would cover a
/// mark's arrow (`avoid`), the first of the other side, below and above
/// (then each a step further out) that covers none.
fn name_spot(
    name: &str,
    (at, gap, size): (P, i32, u16),
    right: bool,
    (taken, avoid): (&[[i32; 4]], &[[i32; 4]]),
    view: &View,
) -> [i32; 4] {
    let w = super::text::width(name, size);
    let h = i32::from(size) * 13 / 10;
    let place = |right: bool| {
        let x = if right { at[0] + gap } else { at[0] - gap - w };
        let mut y = at[1] + view.px(6);
        while taken
            .iter()
            .any(|b: &[i32; 4]| x < b[0] + b[2] && b[0] < x + w && y - h < b[1] && b[1] - b[3] < y)
        {
            y += h;
        }
        [x, y, w, h]
    };
    let top = |b: [i32; 4]| [b[0], b[1] - h, w, h];
    let covers = |b: [i32; 4]| avoid.iter().any(|&t| super::overlaps(top(b), t));
    let named = |b: [i32; 4]| taken.iter().any(|&t| super::overlaps(top(b), top(t)));
    let first = place(right);
    let x = at[0] - w / 2;
    let (below, above) = ([x, at[1] + gap + h, w, h], [x, at[1] - gap, w, h]);
    let other = place(!right);
    let side = if right { 1 } else { -1 };
    // Each spot, then each a step further out in its own direction.
    let spots = (0..3).flat_map(|k| {
        let moved =
            |b: [i32; 4], dx: i32, dy: i32| [b[0] + dx * k * w / 2, b[1] + dy * k * h, w, h];
        [
            moved(first, side, 0),
            moved(other, -side, 0),
            moved(below, 0, 1),
            moved(above, 0, -1),
        ]
    });
    spots
        .filter(|&b| !named(b))
        .find(|&b| !covers(b))
        .unwrap_or(first)
}

/// Asks the labels to come (while they have another spot) no nearer the
/// segment from `a` to `b` than `r`: a label over an arrow hides the
/// direction it shows.
fn avoid_segment(out: &mut Scene, a: P, b: P, r: i32) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let steps = (dx.abs().max(dy.abs()) / r.max(1)).max(1);
    for i in 0..=steps {
        let p = [a[0] + dx * i / steps, a[1] + dy * i / steps];
        out.avoid.push([p[0] - r, p[1] - r, 2 * r, 2 * r]);
    }
}

/// The part of `a` inside `b` (empty: zero width or height).
fn intersect(a: Viewport, b: Viewport) -> Viewport {
    let (x, y) = (a.x.max(b.x), a.y.max(b.y));
    Viewport {
        x,
        y,
        w: ((a.x + a.w).min(b.x + b.w) - x).max(0),
        h: ((a.y + a.h).min(b.y + b.h) - y).max(0),
    }
}

/// The marks: rings and lines to the world's scale, clipped to the world
/// box (`clips.0`; `clips.1` is the scene's area, restored after), arrows
/// on one scale (the longest `px(90)`, none under `px(18)`) and never
/// clipped; every overlay credited with what it drew. Returns each label
/// with the point it belongs at.
fn draw_marks(
    s: &CustomSim,
    marks: &[Mark],
    (m, entities, clips): (&Map2, &[Entity], (Viewport, Viewport)),
    view: &View,
    out: &mut Scene,
) -> Vec<(P, Rgba, String)> {
    let mut labels = Vec::new();
    let longest = marks
        .iter()
        .filter_map(|k| match k.shape {
            MarkShape::Arrow(v) => Some(Vec3::new(v.x, v.y, Fx::ZERO).length()),
            _ => None,
        })
        .fold(Fx::ZERO, Fx::max);
    let unit_px = m.at(Fx::ONE, Fx::ZERO)[0] - m.at(Fx::ZERO, Fx::ZERO)[0];
    let w = view.lw(3, 2);
    for k in marks {
        let Some(e) = entities.get(k.entity) else {
            continue;
        };
        let clipped = !matches!(k.shape, MarkShape::Arrow(_));
        if clipped {
            out.push(Shape::Clip { area: clips.0 });
        }
        let n = out.count();
        let c = overlay_colour(s, k.overlay);
        let at = m.at(e.pos.x, e.pos.y);
        let end = match k.shape {
            MarkShape::Ring(r) => {
                let r = r.mul_int(i64::from(unit_px)).round_int().max(1);
                out.push(Shape::Ring {
                    c: at,
                    r,
                    width: view.lw(2, 1),
                    color: c,
                });
                // Its label on the ring, up and to the left.
                [at[0] - r * 7 / 10, at[1] - r * 7 / 10]
            }
            MarkShape::Line(to) => {
                let b = m.at(to.x, to.y);
                out.push(Shape::Line {
                    a: at,
                    b,
                    width: view.lw(2, 1),
                    color: c,
                });
                [(at[0] + b[0]) / 2, (at[1] + b[1]) / 2]
            }
            MarkShape::Arrow(v) => {
                let len = Vec3::new(v.x, v.y, Fx::ZERO).length();
                let full = view.px(90);
                let px = match len.checked_div(longest) {
                    Some(q) if longest > Fx::ZERO => q.mul_int(i64::from(full)).round_int(),
                    _ => 0,
                };
                if len == Fx::ZERO {
                    continue;
                }
                let d = Vec3::new(v.x, v.y, Fx::ZERO).normalize();
                let l = Fx::from_int(px.max(view.px(18)));
                let tip = [at[0] + (d.x * l).round_int(), at[1] - (d.y * l).round_int()];
                out.arrow(at, tip, w, view.px(12).max(8), c);
                avoid_segment(out, at, tip, view.px(4));
                tip
            }
        };
        if !k.label.is_empty() {
            labels.push((end, c, k.label.clone()));
        }
        out.credit(k.overlay, n);
        if clipped {
            out.push(Shape::Clip { area: clips.1 });
        }
    }
    labels
}

/// The marks of the entity in focus (of every entity when none is),
/// listed by entity: what each arrow and ring says.
fn marks_panel(marks: &[Mark], entities: &[Entity], view: &View) -> Option<Panel> {
    let focus = view.focused("entity");
    let lines: Vec<String> = marks
        .iter()
        .filter(|k| focus.is_empty() || focus.contains(&(k.entity as u32)))
        .filter(|k| !k.label.is_empty())
        .filter_map(|k| Some(format!("{}: {}", entities.get(k.entity)?.name, k.label)))
        .collect();
    (!lines.is_empty()).then(|| Panel {
        title: tr!(view.lang, U_MARKS).to_owned(),
        lines,
        rank: 0,
    })
}

/// The grey of a cell's shade: walls darkest, open ground from dark to
/// light.
fn grey(shade: u8) -> Rgba {
    if shade == 0 {
        return color::WALL;
    }
    let g = (48 + u32::from(shade) * 150 / 255) as u8;
    Rgba(g, g, g.saturating_add(6), 255)
}

/// The grid under the entities: a rectangle per run of equal shades in a
/// row; where a cell is under 4 pixels, blocks of cells each drawn as
/// their darkest (a wall is never lost to the ground around it).
fn draw_cells(out: &mut Scene, m: &Map2, c: &Cells) {
    let (w, h) = (c.width as usize, c.height as usize);
    if w == 0 || h == 0 || c.shade.len() != w * h {
        return;
    }
    let cell_px = (m.at(Fx::ONE, Fx::ZERO)[0] - m.at(Fx::ZERO, Fx::ZERO)[0]).max(1);
    let k = (4 + cell_px - 1) / cell_px;
    let k = k.max(1) as usize;
    let shade_of = |bx: usize, by: usize| -> u8 {
        let mut darkest = u8::MAX;
        for row in (by * k)..((by + 1) * k).min(h) {
            for col in (bx * k)..((bx + 1) * k).min(w) {
                darkest = darkest.min(c.shade[row * w + col]);
            }
        }
        darkest
    };
    let (bw, bh) = (w.div_ceil(k), h.div_ceil(k));
    let corner = |col: usize, row: usize| {
        // Row 0 is the top: world y = height - row.
        m.at(
            Fx::from_int(col.min(w) as i32),
            Fx::from_int((h - row.min(h)) as i32),
        )
    };
    for by in 0..bh {
        let mut bx = 0;
        while bx < bw {
            let g = shade_of(bx, by);
            let mut end = bx + 1;
            while end < bw && shade_of(end, by) == g {
                end += 1;
            }
            let (a, b) = (corner(bx * k, by * k), corner(end * k, (by + 1) * k));
            out.push(Shape::Rect {
                at: a,
                size: [(b[0] - a[0]).max(1), (b[1] - a[1]).max(1)],
                color: grey(g),
            });
            bx = end;
        }
    }
}

/// An arrow of `len` pixels from `at` along the world direction `h`.
fn arrow(out: &mut Scene, at: P, h: Vec3, len: i32, (width, c): (u16, Rgba)) {
    let d = Vec3::new(h.x, h.y, Fx::ZERO).normalize();
    let l = Fx::from_int(len);
    let to = [at[0] + (d.x * l).round_int(), at[1] - (d.y * l).round_int()];
    out.push(Shape::Line {
        a: at,
        b: to,
        width,
        color: c,
    });
    // The head: two short strokes back from the tip, 30° either side.
    let back = Fx::from_int(len / 3);
    let (cos, sin) = (
        Fx::from_ratio(866, 1000).unwrap_or(Fx::ONE),
        Fx::from_ratio(1, 2).unwrap_or(Fx::ZERO),
    );
    for s in [sin, -sin] {
        let bx = -(d.x * cos - d.y * s) * back;
        let by = -(d.x * s + d.y * cos) * back;
        out.push(Shape::Line {
            a: to,
            b: [to[0] + bx.round_int(), to[1] - by.round_int()],
            width,
            color: c,
        });
    }
}

/// The longest sequence the side panel lists element by element; a longer
/// one shows only its length (`cost.len = 2401`: `flockstep dump` lists it).
const LONGEST_LISTED: u128 = 8;

/// The state's fields, as `verify` names them, but for the elements of
/// long sequences.
fn state_panel(s: &CustomSim, view: &View) -> Panel {
    let state = s.0.snapshot();
    let leaves = crate::replay::fields::state_leaves(&crate::sim::AnyState::Custom(state));
    let long: Vec<String> = leaves
        .iter()
        .filter(|l| matches!(l.value, Value::Uint(n) if n > LONGEST_LISTED))
        .filter_map(|l| l.path.strip_suffix(".len").map(|p| format!("{p}[")))
        .collect();
    let shown: Vec<&Leaf> = leaves
        .iter()
        .filter(|l| !long.iter().any(|p| l.path.starts_with(p.as_str())))
        .collect();
    let mut lines: Vec<String> = grouped(&shown).into_iter().take(MAX_FIELDS).collect();
    let listed: usize = lines.iter().map(|l| l.matches(" = ").count()).sum();
    if leaves.len() > listed {
        lines.push(tr!(view.lang, U_MORE_FIELDS, leaves.len() - listed));
    }
    Panel {
        title: tr!(view.lang, U_STATE, s.0.tick()),
        lines,
        rank: 0,
    }
}

/// A leaf's value as the panel shows it: the decimal alone (the raw
/// bits are `flockstep dump`'s).
fn shown_value(v: &Value) -> String {
    let t = v.to_string();
    match t.split_once(" (0x") {
        Some((d, _)) if matches!(v, Value::Fx(_) | Value::Angle(_)) => d.to_owned(),
        _ => t,
    }
}

/// The panel's lines: a field a line, but the fields of one element of a
/// sequence (`agents[3].…`) on one line after its name.
fn grouped(leaves: &[&Leaf]) -> Vec<String> {
    let mut out: Vec<(Option<String>, String)> = Vec::new();
    for l in leaves {
        let element = l.path.find("].").map(|i| l.path[..=i].to_owned());
        let field = match &element {
            Some(e) => format!("{} = {}", &l.path[e.len() + 1..], shown_value(&l.value)),
            None => format!("{} = {}", l.path, shown_value(&l.value)),
        };
        match out.last_mut() {
            Some((Some(e), line)) if element.as_ref() == Some(e) => {
                line.push_str(" · ");
                line.push_str(&field);
            }
            _ => {
                let line = match &element {
                    Some(e) => format!("{e} {field}"),
                    None => field,
                };
                out.push((element, line));
            }
        }
    }
    out.into_iter().map(|(_, l)| l).collect()
}

/// The legend: each kind of entity in its colour, then each overlay
/// whose marks are shown.
pub(super) fn legend(s: &CustomSim, view: &View) -> Vec<(Rgba, String)> {
    let entities = s.0.entities();
    let kinds = kinds(&entities);
    let mut out: Vec<(Rgba, String)> = kinds
        .iter()
        .map(|k| (colour_of(&kinds, k), (*k).to_owned()))
        .collect();
    for k in shown_marks(s, view) {
        let entry = (overlay_colour(s, k.overlay), k.overlay.to_owned());
        if !out.contains(&entry) {
            out.push(entry);
        }
    }
    out
}
