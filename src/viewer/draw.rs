//! The app's frame as data ([`Canvas`]): the status line, the scene, the
//! side panels (columns aligned, shrunk to fit), the narration (wrapped by
//! measured width, emphasis drawn as emphasis, paged with a visible
//! continuation), the scrub bar with its numbered beat tabs and the marks
//! of interventions, the picker, the prompt, help, errors and passing
//! remarks. Every size comes from [`Layout`] — the window's size and the
//! presenter scale. Nothing here touches a window or floating point:
//! `window` paints the canvas, and the tests read its text.
//!
//! Text is drawn with the bundled font (`fonts/flockstep-sans.otf`, set as
//! macroquad's default font when the window opens), which has a glyph for
//! every character of every bundled lesson in every language.
#![deny(clippy::float_arithmetic)]

use super::app::{
    App, Framed, Layout, OVERLAY_KEYS, PickerRow, Player, Prompt, Style, literal, overlays_of,
    unliteral, wrap_rich,
};
use super::canvas::{Canvas, measure};
use crate::i18n::{self, Lang};
use crate::scene::{Rgba, Role, Scene, Viewport, color};
use crate::sim::AnySim;
use crate::tr;

/// The lines between the status line, the scene, the side panel, the
/// narration and the scrub bar (the parts share the background: no panel
/// boxes to fill, which a software renderer pays for by the pixel).
fn dividers(cv: &mut Canvas, l: &Layout) {
    let w = l.px(2).max(1);
    let col = color::PANEL;
    let (s, n) = (l.scene, l.narration);
    cv.line([0, s.y], [l.top.w, s.y], w, col);
    cv.line([l.side.x, s.y], [l.side.x, n.y], w, col);
    cv.line([0, n.y], [n.w, n.y], w, col);
    cv.line([0, l.scrub.y], [n.w, l.scrub.y], w, col);
}

/// The whole app in a `w`×`h` window, as a [`Canvas`].
pub fn compose(app: &App, w: i32, h: i32) -> Canvas {
    let mut cv = Canvas::new(w, h);
    let f = app.framed(w, h);
    let l = &f.layout;
    match app.player() {
        None => draw_picker(&mut cv, app, w, h, l),
        Some(p) => {
            let scene = p.scene(l.scene, l.scale);
            // The scene, clipped to its part of the window (a zoomed world
            // does not spill under the panels), its labels over its shapes.
            cv.clip(Some(l.scene));
            for sh in scene.shapes.iter().cloned() {
                cv.shape(sh);
            }
            cv.flush_text();
            cv.clip(None);
            dividers(&mut cv, l);
            draw_legend(&mut cv, &scene, l);
            draw_status(&mut cv, app, p, l);
            if p.panel_open {
                super::panel::draw(&mut cv, p, l);
            } else {
                draw_side(&mut cv, &scene, p, l);
            }
            draw_narration(&mut cv, p, &f);
            draw_scrub(&mut cv, p, l);
            if let Some(s) = &app.status {
                draw_remark(&mut cv, s, l);
            }
            if app.help {
                draw_help(&mut cv, app, p.session.sim(), l);
            }
            if app.prompt == Some(Prompt::Restart) {
                draw_restart_prompt(&mut cv, p, l);
            }
        }
    }
    if let Some(e) = &app.error {
        draw_error(&mut cv, e, Lang::of(app.lang.as_deref()), l);
    }
    cv.flush_text();
    cv
}

/// The status line: the lesson's title on the left; on the right what a
/// teacher needs — whether the clock holds, plays or waits, the beat, the
/// tick, the speed — and, when there is room, the state hash.
fn draw_status(cv: &mut Canvas, app: &App, p: &Player, l: &Layout) {
    let size = l.font(18);
    let y = l.top.y + l.top.h / 2 + i32::from(size) * 35 / 100;
    let m = l.px(10);
    let speed = {
        let s = p.timeline.speed_milli();
        if s.is_multiple_of(1000) {
            format!("{}×", s / 1000)
        } else {
            format!("{}.{}×", s / 1000, (s % 1000) / 100)
        }
    };
    let asked = p.question().is_some();
    let lang = Lang::of(p.lang.as_deref());
    let state = if p.timeline.held().is_some() && asked {
        tr!(lang, STATUS_PREDICT)
    } else if p.timeline.held().is_some() {
        tr!(lang, STATUS_HELD)
    } else if p.timeline.playing() {
        tr!(lang, STATUS_PLAYING)
    } else {
        tr!(lang, STATUS_PAUSED)
    };
    let beats = p.session.lesson.beats.len();
    let beat = p.timeline.beat().map_or(0, |b| b + 1);
    let right = if asked {
        tr!(
            lang,
            STATUS_LINE_ASKING,
            beat,
            beats,
            p.session.tick(),
            speed,
            state
        )
    } else {
        let last = p.timeline.last();
        tr!(
            lang,
            STATUS_LINE,
            beat,
            beats,
            p.session.tick(),
            last,
            speed,
            state
        )
    };
    let rw = measure(&right, size);
    cv.text(
        Role::Status,
        &right,
        [l.top.w - m - rw, y],
        size,
        color::TEXT,
    );
    let title = p.title();
    let mut left = match &p.session.replay_file {
        Some(f) => tr!(lang, STATUS_REPLAY, title, f),
        None => title.to_owned(),
    };
    if app.intervened() {
        left = tr!(lang, STATUS_YOUR_RUN, first_change(p), left);
    }
    if p.brush {
        // What the mouse does now comes first.
        left = format!("{} · {left}", tr!(lang, BRUSH_ON));
    }
    let room = l.top.w - 3 * m - rw;
    // An engineer's figure, dropped first when there is no room, and
    // held back while the class predicts (it would tell two runs apart).
    let hash = tr!(
        lang,
        STATUS_HASH,
        format!("{:016x}", p.session.sim().state_hash())
    );
    let gap = measure("   ", size);
    let col = if app.intervened() {
        color::ORANGE
    } else {
        color::SELECTED
    };
    let lw = measure(&left, size);
    if !asked && lw + gap + measure(&hash, size) <= room {
        cv.text(Role::Title, &left, [m, y], size, col);
        cv.text(Role::Status, &hash, [m + lw + gap, y], size, color::DIM);
    } else {
        cv.text_fit(Role::Title, &left, [m, y], (size, room), col);
    }
}

/// The first tick an intervention leads into.
fn first_change(p: &Player) -> u64 {
    p.session
        .intervention_ticks()
        .first()
        .map_or(0, |t| t.saturating_sub(1))
}

/// One line of a panel, laid out: plain text, or cells of tab-separated
/// columns.
enum Row {
    Title(String),
    Text(String),
    Cells(Vec<String>),
    Gap,
}

/// The side panel's rows: each panel's title and lines, the panels of
/// rank 0 (what the beat is about) first, the others after in their
/// order, those past `keep` left out.
fn side_rows(scene: &Scene, keep: usize) -> Vec<Row> {
    let mut panels: Vec<&crate::scene::Panel> = scene.panels.iter().collect();
    panels.sort_by_key(|p| p.rank.min(1));
    let mut rows = Vec::new();
    for p in panels.into_iter().take(keep) {
        rows.push(Row::Title(p.title.clone()));
        for line in &p.lines {
            if line.contains('\t') {
                rows.push(Row::Cells(line.split('\t').map(str::to_owned).collect()));
            } else {
                rows.push(Row::Text(line.clone()));
            }
        }
        rows.push(Row::Gap);
    }
    rows
}

/// What each colour in the picture means, in the strip under the scene:
/// a square of the colour and its name, left to right; entries that do
/// not fit go on lines above it, over the bottom of the scene.
fn draw_legend(cv: &mut Canvas, scene: &Scene, l: &Layout) {
    let size = l.font(super::layout::LEGEND_PX);
    let sq = i32::from(size) * 7 / 10;
    // The strip has a row for each line (the window made room for them).
    let lh = l.legend.h / l.legend_rows.max(1);
    for (k, line) in l.legend_lines(&scene.legend).iter().enumerate() {
        if k as i32 >= l.legend_rows {
            break;
        }
        let y = l.legend.y + k as i32 * lh + lh / 2 + i32::from(size) * 35 / 100;
        for (col, name, x) in line {
            let square = Viewport {
                x: *x,
                y: y - sq,
                w: sq,
                h: sq,
            };
            cv.rect(square, *col);
            cv.text(Role::Legend, name, [x + sq * 3 / 2, y], size, color::TEXT);
        }
    }
}

/// The side panel's rows as drawn lines at a font size and width: text
/// wrapped, columns aligned per panel (wrapped as text when they do not
/// fit).
fn side_lines(rows: &[Row], size: u16, width: i32, gap: i32) -> Vec<(Row, Vec<i32>)> {
    let mut out: Vec<(Row, Vec<i32>)> = Vec::new();
    let mut start = 0;
    while start < rows.len() {
        // One panel at a time: its columns share their x positions.
        let end = rows[start + 1..]
            .iter()
            .position(|r| matches!(r, Row::Title(_)))
            .map_or(rows.len(), |i| start + 1 + i);
        let mut widths: Vec<i32> = Vec::new();
        for r in &rows[start..end] {
            if let Row::Cells(cells) = r {
                for (i, cell) in cells.iter().enumerate() {
                    let w = measure(cell, size);
                    if widths.len() <= i {
                        widths.push(w);
                    } else {
                        widths[i] = widths[i].max(w);
                    }
                }
            }
        }
        let xs: Vec<i32> = widths
            .iter()
            .scan(0, |x, w| {
                let at = *x;
                *x += w + gap;
                Some(at)
            })
            .collect();
        let fits = xs
            .last()
            .zip(widths.last())
            .is_none_or(|(x, w)| x + w <= width);
        for r in &rows[start..end] {
            match r {
                Row::Text(t) => {
                    for line in wrap_rich(&literal(t), width, &|s| measure(s, size)) {
                        let s: String = line.iter().map(|r| r.text.as_str()).collect();
                        out.push((Row::Text(unliteral(&s)), Vec::new()));
                    }
                }
                Row::Cells(cells) if !fits => {
                    let joined = literal(&cells.join(" · "));
                    for line in wrap_rich(&joined, width, &|s| measure(s, size)) {
                        let s: String = line.iter().map(|r| r.text.as_str()).collect();
                        out.push((Row::Text(unliteral(&s)), Vec::new()));
                    }
                }
                Row::Cells(cells) => out.push((Row::Cells(cells.clone()), xs.clone())),
                Row::Title(t) => {
                    // A long title wraps (its lines after the first indented
                    // as text rows are).
                    for (k, line) in wrap_rich(&literal(t), width, &|s| measure(s, size))
                        .into_iter()
                        .enumerate()
                    {
                        let s: String = line.iter().map(|r| r.text.as_str()).collect();
                        out.push((Row::Title(unliteral(&s)), vec![i32::from(k > 0)]));
                    }
                }
                Row::Gap => out.push((Row::Gap, Vec::new())),
            }
        }
        start = end;
    }
    out
}

/// The side panel: panels and legend at the largest font that fits (down
/// to the classroom minimum for the window), then scrolled — with a mark
/// saying how much is below.
fn draw_side(cv: &mut Canvas, scene: &Scene, p: &Player, l: &Layout) {
    let area = l.side;
    let inner = area.w - 2 * l.px(12);
    // The smallest panel text: 18 px at 1280×720, scaled with the window,
    // and never under 70 % of what presenter mode asks for (past that the
    // panel scrolls).
    let window_h = l.scrub.y + l.scrub.h;
    let floor = (18 * i32::from(Layout::scale_for(l.top.w, window_h, 100)) / 100)
        .max(i32::from(l.font(18)) * 7 / 10)
        .max(14);
    let line_h = |s: u16| i32::from(s) * 13 / 10;
    let fits =
        |lines: &[(Row, Vec<i32>)], s: u16| lines.len() as i32 * line_h(s) <= area.h - l.px(12);
    // Context panels (rank 1 and up) go, the last first, before the text
    // shrinks below its size or anything scrolls: a class cannot scroll.
    let essential = scene.panels.iter().filter(|p| p.rank == 0).count();
    let mut keep = scene.panels.len();
    let at_floor = |keep: usize| side_lines(&side_rows(scene, keep), floor as u16, inner, l.px(14));
    while keep > essential && !fits(&at_floor(keep), floor as u16) {
        keep -= 1;
    }
    cv.overflow.panels_dropped = scene.panels.len() - keep;
    let rows = side_rows(scene, keep);
    let mut size = l.font(18);
    let mut lines = side_lines(&rows, size, inner, l.px(14));
    while !fits(&lines, size) && i32::from(size) > floor {
        size -= 1;
        lines = side_lines(&rows, size, inner, l.px(14));
    }
    let lh = line_h(size);
    let fit_rows = ((area.h - l.px(12)) / lh).max(1) as usize;
    let overflow = lines.len().saturating_sub(fit_rows);
    let skip = p.side_scroll.min(overflow);
    let shown = if overflow > 0 { fit_rows - 1 } else { fit_rows };
    let x0 = area.x + l.px(12);
    let mut y = area.y + l.px(6) + lh * 8 / 10;
    for (row, xs) in lines.iter().skip(skip).take(shown) {
        match row {
            Row::Title(t) => cv.text(Role::Panel, t, [x0, y], size, color::SELECTED),
            Row::Text(t) => cv.text(Role::Panel, t, [x0 + l.px(6), y], size, color::TEXT),
            Row::Cells(cells) => {
                for (cell, x) in cells.iter().zip(xs) {
                    cv.text(Role::Panel, cell, [x0 + l.px(6) + x, y], size, color::TEXT);
                }
            }
            Row::Gap => {}
        }
        y += lh;
    }
    let below = lines.len().saturating_sub(skip + shown);
    cv.overflow.panel_lines_hidden = below;
    let lang = Lang::of(p.lang.as_deref());
    if below > 0 {
        let more = tr!(lang, PANEL_MORE, below);
        cv.text(Role::More, &more, [x0, y], size, color::SKY);
    } else if skip > 0 {
        let top = tr!(lang, PANEL_SCROLLED);
        cv.text(Role::More, top, [x0, y], size, color::SKY);
    }
}

/// The narration box: the page shown, emphasis in the highlight colour
/// and underlined, and a continuation mark when there are more pages.
fn draw_narration(cv: &mut Canvas, p: &Player, f: &Framed) {
    let l = &f.layout;

    let size = l.font(super::app::NARRATION_PX);
    let lh = l.narration_line();
    let x0 = l.narration.x + l.px(16);
    let mut y = l.narration.y + l.px(10) + i32::from(size);
    for line in &f.lines {
        let mut x = x0;
        if line.first().is_some_and(|r| r.style == Style::Question) {
            // A question sits on its own band with a bar at its left: a
            // prompt to the class, not more narration.
            let band = Viewport {
                x: l.narration.x + l.px(6),
                y: y - lh * 3 / 4 - l.px(2),
                w: l.narration.w - l.px(12),
                h: lh,
            };
            cv.rect(band, color::QUESTION_BAND);
            cv.rect(
                Viewport {
                    w: l.px(5).max(2),
                    ..band
                },
                color::SELECTED,
            );
        }
        for run in line {
            let (col, role) = match run.style {
                Style::Emph => (color::SELECTED, Role::Narration),
                Style::Question => (color::SELECTED, Role::Question),
                Style::Code => (color::SKY, Role::Narration),
                Style::Plain => (color::TEXT, Role::Narration),
            };
            cv.text(role, &run.text, [x, y], size, col);
            let w = measure(&run.text, size);
            if run.style == Style::Emph {
                let uw = measure(run.text.trim_end(), size);
                let uy = y + l.px(4);
                cv.line([x, uy], [x + uw, uy], l.px(2).max(1), color::SELECTED);
            }
            x += w;
        }
        y += lh;
    }
    cv.overflow.narration_pages = f.pages.saturating_sub(1);
    if f.pages > 1 {
        let page = p.page.min(f.pages - 1);
        let lang = Lang::of(p.lang.as_deref());
        let more = if page + 1 < f.pages {
            tr!(lang, NARRATION_MORE, page + 1, f.pages)
        } else {
            tr!(lang, NARRATION_LAST, page + 1, f.pages)
        };
        let w = measure(&more, size);
        let at = [
            l.narration.x + l.narration.w - l.px(16) - w,
            l.narration.y + l.narration.h - l.px(10),
        ];
        cv.text(Role::More, &more, at, size, color::SKY);
    }
}

/// The scrub bar: progress, the numbered beat tabs (the current one
/// filled, pausing ones edged in red), and where interventions changed
/// the run.
fn draw_scrub(cv: &mut Canvas, p: &Player, l: &Layout) {
    let (first, last) = (p.session.first_tick(), p.timeline.last());
    let bar = l.scrub_bar();
    cv.rect(bar, color::DIM);
    let x = l.scrub_x(p.timeline.tick(), first, last);
    cv.rect(
        Viewport {
            w: x - bar.x,
            ..bar
        },
        color::SKY,
    );
    if let Some(c) = &p.compare {
        draw_drift(cv, c, l, (first, last));
    }
    let ticks: Vec<u64> = p.session.lesson.beats.iter().map(|b| b.at).collect();
    let size = l.font(15);
    for (i, (tab, b)) in l
        .beat_tabs(&ticks, first, last)
        .iter()
        .zip(&p.session.lesson.beats)
        .enumerate()
    {
        let current = p.timeline.beat() == Some(i);
        // A stem from the tab to its tick on the bar.
        let tx = l.scrub_x(b.at, first, last);
        let stem = l.px(2).max(1);
        cv.line(
            [tab.x + tab.w / 2, tab.y + tab.h],
            [tx, bar.y],
            stem,
            color::DIM,
        );
        let fill = if current {
            color::SELECTED
        } else {
            color::PANEL
        };
        cv.rect(*tab, fill);
        let edge = if b.pause {
            color::VERMILLION
        } else {
            color::DIM
        };
        cv.outline(*tab, l.px(2).max(1), edge);
        let n = (i + 1).to_string();
        let nw = measure(&n, size);
        let at = [
            tab.x + (tab.w - nw) / 2,
            tab.y + tab.h / 2 + i32::from(size) * 35 / 100,
        ];
        let ink = if current { color::WALL } else { color::TEXT };
        cv.text(Role::Tab, &n, at, size, ink);
    }
    for t in p.session.intervention_ticks() {
        let ix = l.scrub_x(t.saturating_sub(1), first, last);
        let s = l.px(7);
        let (top, foot) = (bar.y + bar.h, bar.y + bar.h + s + 2);
        cv.tri([[ix, top], [ix - s, foot], [ix + s, foot]], color::ORANGE);
    }
    cv.disc([x, bar.y + bar.h / 2], l.px(9), color::TEXT);
}

/// Two runs compared: the drift per tick as columns standing on the
/// scrub bar (behind the beat tabs), and the first divergence as a line
/// through the bar.
fn draw_drift(cv: &mut Canvas, c: &super::compare::Compare, l: &Layout, span: (u64, u64)) {
    let bar = l.scrub_bar();
    let room = (bar.y - l.scrub.y - l.px(2)).max(1);
    let ink = crate::scene::with_alpha(color::PURPLE, 170);
    for (x, h) in super::compare::drift_columns(&c.drift, span, bar.w, room) {
        cv.rect(
            Viewport {
                x: bar.x + x,
                y: bar.y - h,
                w: 1,
                h,
            },
            ink,
        );
    }
    if let Some(t) = c.first {
        let x = l.scrub_x(t, span.0, span.1);
        let w = l.px(4).max(2);
        let s = l.px(10);
        let top = l.scrub.y + l.px(2);
        cv.tri([[x - s, top], [x + s, top], [x, top + s]], color::PURPLE);
        cv.rect(
            Viewport {
                x: x - w / 2,
                y: l.scrub.y + l.px(2),
                w,
                h: bar.y + bar.h - l.scrub.y - l.px(2),
            },
            color::PURPLE,
        );
    }
}

/// A passing remark (a saved file), in a box over the bottom of the scene.
fn draw_remark(cv: &mut Canvas, s: &str, l: &Layout) {
    let size = l.font(18);
    let w = (measure(s, size) + 2 * l.px(14)).min(l.scene.w - 2 * l.px(10));
    let h = i32::from(size) + 2 * l.px(12);
    let b = Viewport {
        x: l.scene.x + l.px(10),
        y: l.scene.y + l.scene.h - h - l.px(10),
        w,
        h,
    };
    cv.rect(b, Rgba(16, 40, 30, 255));
    cv.outline(b, l.px(3).max(2), color::GREEN);
    let at = [b.x + l.px(14), b.y + l.px(12) + i32::from(size) * 8 / 10];
    cv.text_fit(Role::Remark, s, at, (size, w - 2 * l.px(14)), color::TEXT);
}

/// The lesson picker: lessons grouped by sim, scrolled to keep the chosen
/// one on screen (and by the wheel), its summary at the bottom.
fn draw_picker(cv: &mut Canvas, app: &App, w: i32, h: i32, l: &Layout) {
    let (title, hint) = (l.font(32), l.font(18));
    let m = l.px(24);
    let title_y = l.px(14) + i32::from(title);
    let hint_y = title_y + l.px(10) + i32::from(hint);
    let lang = Lang::of(app.lang.as_deref());
    let heading = tr!(lang, PICKER_TITLE);
    cv.text(Role::Picker, heading, [m, title_y], title, color::TEXT);
    let how = if cfg!(target_arch = "wasm32") {
        tr!(lang, PICKER_HOW_WEB)
    } else {
        tr!(lang, PICKER_HOW)
    };
    cv.text_fit(
        Role::Picker,
        how,
        [m, hint_y],
        (hint, w - 2 * m),
        color::DIM,
    );
    let rows = picker_layout(app, w, h, l);
    for (r, [x, y]) in &rows.shown {
        let (x, y) = (*x, *y);
        let i = match r {
            PickerRow::Header(i) => {
                let sim = i18n::sim_name(lang, &app.entries[*i].sim);
                let name = tr!(lang, PICKER_GROUP, sim);
                cv.text(Role::Picker, &name, [x, y], l.font(19), color::SKY);
                continue;
            }
            PickerRow::Lesson(i) => *i,
        };
        picker_row(cv, app, i, [x, y], (&rows, l));
    }
    if rows.more_above {
        let s = tr!(lang, PICKER_ABOVE);
        cv.text(
            Role::More,
            s,
            [w - m - measure(s, hint), rows.top],
            hint,
            color::SKY,
        );
    }
    if rows.more_below {
        let s = tr!(lang, PICKER_BELOW);
        let at = [w - m - measure(s, hint), rows.bottom];
        cv.text(Role::More, s, at, hint, color::SKY);
    }
    if let Some(e) = app.entries.get(app.picked) {
        let b = Viewport {
            x: 0,
            y: rows.bottom + l.px(8),
            w,
            h: h - rows.bottom - l.px(8),
        };
        cv.rect(b, color::PANEL);
        let size = l.font(18);
        let mut y = b.y + l.px(10) + i32::from(size);
        let summary = e.summary_in(app.lang.as_deref());
        let lines = wrap_rich(&literal(summary), w - 2 * m, &|s| measure(s, size));
        for line in lines.iter().take(3) {
            let s: String = line.iter().map(|r| r.text.as_str()).collect();
            cv.text(Role::Picker, &unliteral(&s), [m, y], size, color::TEXT);
            y += i32::from(size) * 13 / 10;
        }
    }
}

/// One lesson's row of the picker: its place in the course, id and title.
fn picker_row(
    cv: &mut Canvas,
    app: &App,
    i: usize,
    [x, y]: [i32; 2],
    (rows, l): (&PickerLayout, &Layout),
) {
    let row = l.font(20);
    let e = &app.entries[i];
    let chosen = i == app.picked;
    if chosen {
        let bar = Viewport {
            x: x - l.px(8),
            y: y - rows.row_h * 3 / 4,
            w: rows.col_w,
            h: rows.row_h,
        };
        cv.rect(bar, color::PANEL);
    }
    let col = if chosen { color::SELECTED } else { color::TEXT };
    // The place in the course, right-aligned in a narrow column.
    let num_w = l.px(34);
    if let Some(n) = e.place {
        let s = n.to_string();
        let nx = x + num_w - l.px(8) - measure(&s, row);
        cv.text(
            Role::Picker,
            &s,
            [nx, y],
            row,
            if chosen { col } else { color::DIM },
        );
    }
    let x = x + num_w;
    let id_w = l.px(270).min(rows.col_w / 2);
    cv.text_fit(Role::Picker, &e.id, [x, y], (row, id_w - l.px(10)), col);
    let title_w = rows.col_w - num_w - id_w - l.px(12);
    let title = e.title_in(app.lang.as_deref());
    cv.text_fit(Role::Picker, title, [x + id_w, y], (row, title_w), col);
}

/// The picker's visible rows: where each is, and the list's bounds.
pub struct PickerLayout {
    /// Rows shown, with the left end of their baselines.
    pub shown: Vec<(PickerRow, [i32; 2])>,
    /// A row's height.
    pub row_h: i32,
    /// A column's width.
    pub col_w: i32,
    /// The list's top.
    pub top: i32,
    /// The list's bottom (the summary box starts below it).
    pub bottom: i32,
    /// Whether rows are hidden above or below.
    pub more_above: bool,
    /// See `more_above`.
    pub more_below: bool,
}

/// Where the picker's rows go in a `w`×`h` window: one column; two, split
/// at a sim's heading, when one does not fit and the window is wide;
/// else one column scrolled to keep the chosen lesson in view.
pub fn picker_layout(app: &App, w: i32, h: i32, l: &Layout) -> PickerLayout {
    let row_h = i32::from(l.font(20)) * 16 / 10;
    let m = l.px(24);
    let top = l.px(14) + i32::from(l.font(32)) + l.px(10) + i32::from(l.font(18)) + l.px(14);
    let summary_h = 3 * i32::from(l.font(18)) * 13 / 10 + l.px(28);
    let bottom = (h - summary_h).max(top + row_h);
    let fit = ((bottom - top) / row_h).max(1) as usize;
    let rows = app.picker_rows();
    let at = |k: usize| top + (k as i32 + 1) * row_h - row_h / 4;
    let split = (rows.len() > fit && w >= l.px(1100))
        .then(|| {
            (1..rows.len())
                .filter(|&k| matches!(rows[k], PickerRow::Header(_)))
                .min_by_key(|&k| k.max(rows.len() - k))
                .filter(|&k| k.max(rows.len() - k) <= fit)
        })
        .flatten();
    if let Some(k) = split {
        let col_w = (w - 2 * m) / 2;
        let shown = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (col, row) = if i < k { (0, i) } else { (1, i - k) };
                (*r, [m + col * col_w, at(row)])
            })
            .collect();
        return PickerLayout {
            shown,
            row_h,
            col_w,
            top,
            bottom,
            more_above: false,
            more_below: false,
        };
    }
    let first = app.picker_first_row(fit);
    let shown: Vec<(PickerRow, [i32; 2])> = rows
        .iter()
        .skip(first)
        .take(fit)
        .enumerate()
        .map(|(k, r)| (*r, [m, at(k)]))
        .collect();
    PickerLayout {
        more_above: first > 0,
        more_below: first + fit < rows.len(),
        shown,
        row_h,
        col_w: w - 2 * m,
        top,
        bottom,
    }
}

fn draw_help(cv: &mut Canvas, app: &App, sim: &AnySim, l: &Layout) {
    let Some(p) = app.player() else { return };
    let on = p.overlays();
    let lang = Lang::of(app.lang.as_deref());
    let ctrl_s = if cfg!(target_arch = "wasm32") {
        tr!(lang, HELP_SAVE_WEB)
    } else {
        tr!(lang, HELP_SAVE)
    };
    let mut lines: Vec<String> = vec![
        tr!(lang, HELP_KEYS_CLOCK).into(),
        tr!(lang, HELP_KEYS_VIEW).into(),
        tr!(lang, HELP_KEYS_MORE, ctrl_s),
    ];
    lines.push(
        match &sim.panes()[0] {
            AnySim::Flock(f) if f.config().dims == 3 => tr!(lang, HELP_FLOCK_3D),
            AnySim::Flock(_) => tr!(lang, HELP_FLOCK_2D),
            AnySim::Path(_) => tr!(lang, HELP_PATH),
            AnySim::Line(_) => tr!(lang, HELP_LINE),
            AnySim::Custom(_) | AnySim::Panes(_) => "",
        }
        .into(),
    );
    lines.push(tr!(lang, HELP_PANEL).into());
    if p.compare.is_some() {
        lines.push(tr!(lang, HELP_COMPARE).into());
    }
    if !cfg!(target_arch = "wasm32") {
        lines.push(tr!(lang, HELP_CLIP).into());
    }
    if matches!(&sim.panes()[0], AnySim::Path(_) | AnySim::Line(_)) {
        lines.push(tr!(lang, HELP_BRUSH).into());
    }
    lines.push(String::new());
    lines.push(tr!(lang, HELP_OVERLAYS).into());
    let names = overlays_of(sim.sim_name());
    for (i, name) in names.iter().enumerate() {
        let key = OVERLAY_KEYS.get(i).copied().unwrap_or("-");
        let mark = if on.contains(*name) { "■" } else { "□" };
        let words = i18n::overlay_name(lang, name);
        lines.push(tr!(lang, HELP_OVERLAY, key, mark, words, name));
    }
    let footer = Some(tr!(lang, HELP_CLOSE));
    modal(cv, (&lines, Role::Help), l, color::SKY, footer);
}

fn draw_restart_prompt(cv: &mut Canvas, p: &Player, l: &Layout) {
    let lang = Lang::of(p.lang.as_deref());
    let lines = vec![
        tr!(lang, PROMPT_LEFT, first_change(p)),
        String::new(),
        tr!(lang, PROMPT_AS_WRITTEN).into(),
        tr!(lang, PROMPT_YOURS).into(),
        tr!(lang, PROMPT_STAY).into(),
    ];
    modal(cv, (&lines, Role::Prompt), l, color::ORANGE, None);
}

/// A box in the middle of the window over a dimmed picture, with lines of
/// text (wrapped to the box) and a dimmer footer: help, prompts, errors.
fn modal(
    cv: &mut Canvas,
    (lines, role): (&[String], Role),
    l: &Layout,
    edge: Rgba,
    footer: Option<&str>,
) {
    let (w, h) = (cv.w, cv.h);
    // What is under the box first, text included.
    cv.dim();
    let size = l.font(18);
    let bw = (w * 85 / 100).min(l.px(1100)).max(w / 2);
    let inner = bw - 2 * l.px(20);
    let mut wrapped: Vec<String> = Vec::new();
    for line in lines {
        if line.is_empty() {
            wrapped.push(String::new());
        }
        for r in wrap_rich(&literal(line), inner, &|s| measure(s, size)) {
            let s: String = r.iter().map(|r| r.text.as_str()).collect();
            if !s.is_empty() {
                wrapped.push(unliteral(&s));
            }
        }
    }
    let lh = i32::from(size) * 13 / 10;
    let max_lines = ((h - 2 * l.px(30)) / lh - 2).max(1) as usize;
    wrapped.truncate(max_lines);
    let bh = lh * (wrapped.len() as i32 + 1 + i32::from(footer.is_some())) + l.px(20);
    let b = Viewport {
        x: (w - bw) / 2,
        y: (h - bh).max(0) / 2,
        w: bw,
        h: bh,
    };
    cv.rect(b, Rgba(28, 30, 38, 255));
    cv.outline(b, l.px(3).max(2), edge);
    let mut y = b.y + l.px(12) + lh;
    for line in &wrapped {
        cv.text(role, line, [b.x + l.px(20), y], size, color::TEXT);
        y += lh;
    }
    if let Some(f) = footer {
        cv.text(role, f, [b.x + l.px(20), y + l.px(6)], size, color::DIM);
    }
}

/// An error banner: what did not open and why. The why is the file's
/// diagnosis as the command line gives it (in English, with its place);
/// the banner around it is in the screen's language.
fn draw_error(cv: &mut Canvas, e: &str, lang: Lang, l: &Layout) {
    let lines = [tr!(lang, ERROR_TITLE).to_owned(), e.to_owned()];
    let footer = Some(tr!(lang, ERROR_DISMISS));
    modal(cv, (&lines, Role::Error), l, color::VERMILLION, footer);
}
