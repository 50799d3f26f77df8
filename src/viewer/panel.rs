//! The parameter panel: one control per scenario key a teacher varies
//! ([`Param::vary`] in the sim's schema), so a new parameter or a user's
//! own sim gets its control for free. A control steps through a ladder of
//! values inside the key's range (every integer of a short range, the
//! choices, or round numbers 1, 2, … 9 × 10ⁿ, with the lesson's own value
//! among them); every change is an [`Input::Set`] at the current tick,
//! recorded, so the what-if replays bit for bit. Pure state: the window
//! draws it and turns keys and clicks into [`super::app::Cmd`]s.

use super::app::{Layout, Player, literal, unliteral, wrap_rich};
use super::canvas::{Canvas, measure};
use crate::i18n::Lang;
use crate::lesson::Lesson;
use crate::lesson::schema::{DefaultValue, Param, Ty, fx_text};
use crate::num::{Fx, parse_fx};
use crate::replay::live;
use crate::replay::run::Source;
use crate::scene::{Rgba, Role, Viewport, color};
use crate::sim::Input;
use crate::tr;
use std::collections::BTreeMap;

/// One parameter's control.
#[derive(Clone, Debug)]
pub struct Control {
    /// The key as `--set` names it.
    pub key: String,
    /// The values it steps through, in order, as `--set` writes them.
    pub values: Vec<String>,
    /// The lesson's value for each pane: an index into `values`.
    pub lesson: Vec<usize>,
    /// Its schema entry (help, unit).
    pub param: &'static Param,
}

/// The panel of a lesson: its controls, the one selected, and the pane
/// its changes go to.
#[derive(Clone, Debug)]
pub struct Panel {
    /// One per varied key, in schema order.
    pub controls: Vec<Control>,
    /// The selected control.
    pub selected: usize,
    /// Where changes go: a pane, or every pane (`None`).
    pub pane: Option<u32>,
    /// How many panes the lesson has (variants, or a path's searches).
    pub panes: u32,
    /// The control the beat invites the class to try (`try = "KEY"`).
    pub invited: Option<usize>,
}

impl Panel {
    /// The controls of `lesson`'s varied keys whose lesson value is known
    /// (set in the lesson, or a default that is a value). A short ladder
    /// (a choice, a small range of integers) keeps only the values the
    /// lesson from `source` takes (a path's `moves` is 4 or 8).
    pub fn of(lesson: &Lesson, source: &Source) -> Panel {
        let schema = lesson.sim.params();
        let model = live::model_of(&lesson.scenario);
        let panes = lesson.params.len().max(1);
        let mut controls: Vec<Control> = Vec::new();
        for p in schema.iter().filter(|p| p.vary && p.applies(model)) {
            if controls.iter().any(|c| c.key == p.key) {
                continue;
            }
            let values: Vec<Option<String>> = (0..panes)
                .map(|i| {
                    lesson
                        .params
                        .get(i)
                        .and_then(|m| m.get(p.key).cloned())
                        .or_else(|| default_text(p.default, model))
                })
                .collect();
            if values.iter().any(Option::is_none) {
                continue;
            }
            let own: Vec<String> = values.into_iter().flatten().collect();
            let mut ladder = ladder(p, &own);
            if matches!(p.ty, Ty::Choice(_) | Ty::Int { .. }) && ladder.len() <= 24 {
                ladder.retain(|v| own.iter().any(|o| same(p, o, v)) || takes(source, p.key, v));
            }
            let lesson_at = own
                .iter()
                .map(|v| ladder.iter().position(|l| same(p, l, v)).unwrap_or(0))
                .collect();
            controls.push(Control {
                key: p.key.to_owned(),
                values: ladder,
                lesson: lesson_at,
                param: p,
            });
        }
        controls.extend(nested_controls(lesson, source, panes));
        // The keys the lesson itself sets are what it is about: first.
        let set_here = |c: &Control| lesson.params.iter().any(|m| m.contains_key(&c.key));
        controls.sort_by_key(|c| !set_here(c));
        Panel {
            controls,
            selected: 0,
            pane: None,
            panes: panes as u32,
            invited: None,
        }
    }

    /// The pane whose values the panel shows: the one changes go to, or
    /// the first.
    pub fn shown(&self) -> usize {
        self.pane.unwrap_or(0) as usize
    }

    /// The index of control `i`'s value in force after the inputs up to
    /// tick `until` (see [`super::session::Session::in_force_until`]):
    /// the last change of its key that reached the shown pane, else the
    /// lesson's.
    pub fn current(&self, i: usize, inputs: &BTreeMap<u64, Vec<Input>>, until: u64) -> usize {
        let c = &self.controls[i];
        let shown = self.shown() as u32;
        let last = inputs
            .range(..=until)
            .rev()
            .flat_map(|(_, l)| l.iter().rev())
            .find_map(|input| match input {
                Input::Set { pane, key, value }
                    if *key == c.key && pane.is_none_or(|p| p == shown) =>
                {
                    Some(value)
                }
                _ => None,
            });
        match last {
            Some(v) => c
                .values
                .iter()
                .position(|l| same(c.param, l, v))
                .unwrap_or(c.lesson[self.shown().min(c.lesson.len() - 1)]),
            None => c.lesson[self.shown().min(c.lesson.len() - 1)],
        }
    }

    /// The change that sets control `i` to value `index` (clamped).
    pub fn set(&self, i: usize, index: usize) -> Input {
        let c = &self.controls[i];
        Input::Set {
            pane: self.pane,
            key: c.key.clone(),
            value: c.values[index.min(c.values.len() - 1)].clone(),
        }
    }

    /// The change that moves control `i` `by` steps from its value now,
    /// or nothing at either end.
    pub fn step(
        &self,
        i: usize,
        by: i32,
        inputs: &BTreeMap<u64, Vec<Input>>,
        until: u64,
    ) -> Option<Input> {
        let now = self.current(i, inputs, until) as i64;
        let to = now + i64::from(by);
        let len = self.controls[i].values.len() as i64;
        (0..len).contains(&to).then(|| self.set(i, to as usize))
    }

    /// The change back to the lesson's value of control `i`, or nothing
    /// when it has it.
    pub fn reset(&self, i: usize, inputs: &BTreeMap<u64, Vec<Input>>, until: u64) -> Option<Input> {
        let c = &self.controls[i];
        let own = c.lesson[self.shown().min(c.lesson.len() - 1)];
        (self.current(i, inputs, until) != own).then(|| self.set(i, own))
    }

    /// The next target: every pane, then each pane in turn.
    pub fn next_pane(&mut self) {
        if self.panes < 2 {
            return;
        }
        self.pane = match self.pane {
            None => Some(0),
            Some(p) if p + 1 < self.panes => Some(p + 1),
            Some(_) => None,
        };
    }
}

/// The varied keys inside the scenario's lists of tables (a line's
/// `chasers.N.recompute_every_tick`; a user's sim's own): one control an
/// entry of the list, with each pane's value, read from the schema and
/// the lesson text alone.
fn nested_controls(lesson: &Lesson, source: &Source, panes: usize) -> Vec<Control> {
    let schema = lesson.sim.params();
    let model = live::model_of(&lesson.scenario);
    let mut out = Vec::new();
    for p in schema.iter().filter(|p| p.applies(model)) {
        let Ty::Tables(inner) = p.ty else { continue };
        // A key also at the top level is changed there, for every entry.
        for q in inner
            .iter()
            .filter(|q| q.vary && !schema.iter().any(|t| t.key == q.key))
        {
            let per_pane = live::nested_values(&source.text, p.key, q.key, panes);
            let entries = per_pane.first().map_or(0, Vec::len);
            for i in 0..entries {
                let own: Option<Vec<String>> = per_pane
                    .iter()
                    .map(|list| {
                        list.get(i)
                            .cloned()
                            .flatten()
                            .or_else(|| default_text(q.default, model))
                    })
                    .collect();
                let Some(own) = own else { continue };
                let values = ladder(q, &own);
                let lesson_at = own
                    .iter()
                    .map(|v| values.iter().position(|l| same(q, l, v)).unwrap_or(0))
                    .collect();
                out.push(Control {
                    key: format!("{}.{i}.{}", p.key, q.key),
                    values,
                    lesson: lesson_at,
                    param: q,
                });
            }
        }
    }
    out
}

/// Whether the lesson takes `key` = `value` in every pane.
fn takes(source: &Source, key: &str, value: &str) -> bool {
    let set = Input::Set {
        pane: None,
        key: key.to_owned(),
        value: value.to_owned(),
    };
    live::scenario_with(source, &[], &set).is_ok()
}

/// A default that is a value, as `--set` writes it.
fn default_text(d: DefaultValue, model: Option<&str>) -> Option<String> {
    match d {
        DefaultValue::Int(i) => Some(i.to_string()),
        DefaultValue::Number(v) => Some(fx_text(v).replace(',', "")),
        DefaultValue::Bool(b) => Some(b.to_string()),
        DefaultValue::Choice(c) => Some(format!("\"{c}\"")),
        DefaultValue::Per(list) => list
            .iter()
            .find(|(m, _)| Some(*m) == model)
            .and_then(|(_, d)| default_text(*d, model)),
        DefaultValue::Required | DefaultValue::Absent(_) | DefaultValue::Rule(_) => None,
    }
}

/// Whether two value texts mean the same value of `p`.
fn same(p: &Param, a: &str, b: &str) -> bool {
    let unquote = |s: &str| s.trim().trim_matches('"').to_owned();
    match p.ty {
        Ty::Number { .. } => parse_fx(a).ok() == parse_fx(b).ok() && parse_fx(a).is_ok(),
        Ty::Int { .. } => a.trim().parse::<i64>().ok() == b.trim().parse::<i64>().ok(),
        _ => unquote(a) == unquote(b),
    }
}

/// The values a control steps through, the lesson's own (`own`) among
/// them.
fn ladder(p: &Param, own: &[String]) -> Vec<String> {
    let mut out: Vec<String> = match p.ty {
        Ty::Bool => vec!["false".into(), "true".into()],
        Ty::Choice(names) => names.iter().map(|n| format!("\"{n}\"")).collect(),
        Ty::Int { min, max } if max - min <= 24 => (min..=max).map(|i| i.to_string()).collect(),
        Ty::Int { min, max } => round_numbers(
            Fx::from_int(min.max(-1 << 30) as i32),
            Fx::from_int(max.min(1 << 30) as i32),
            true,
        ),
        Ty::Number { min, max } => round_numbers(min, max, false),
        _ => Vec::new(),
    };
    for v in own {
        if !out.iter().any(|o| same(p, o, v)) {
            out.push(v.trim().to_owned());
        }
    }
    if matches!(p.ty, Ty::Number { .. } | Ty::Int { .. }) {
        out.sort_by_key(|v| parse_fx(v).unwrap_or(Fx::ZERO));
    }
    out
}

/// 0 (when in range), then 1, 2, … 9 × 10ⁿ from 0.001 up, inside
/// `min..=max` and at most 10,000 (whole numbers only for integers).
fn round_numbers(min: Fx, max: Fx, whole: bool) -> Vec<String> {
    let mut out = Vec::new();
    if min <= Fx::ZERO && Fx::ZERO <= max {
        out.push("0".to_owned());
    }
    let decades: &[(i32, &str)] = &[
        (-3, "0.00"),
        (-2, "0.0"),
        (-1, "0."),
        (0, ""),
        (1, "0"),
        (2, "00"),
        (3, "000"),
    ];
    for &(exp, affix) in decades {
        if whole && exp < 0 {
            continue;
        }
        for m in 1..=9 {
            let text = if exp < 0 {
                format!("{affix}{m}")
            } else {
                format!("{m}{affix}")
            };
            let Ok(v) = parse_fx(&text) else { continue };
            if min <= v && v <= max {
                out.push(text);
            }
        }
    }
    if max >= Fx::from_int(10_000) && min <= Fx::from_int(10_000) {
        out.push("10000".to_owned());
    }
    out
}

/// Where one control is drawn: its row (key and value) and its slider's
/// track under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlRect {
    /// The control's index.
    pub control: usize,
    /// The row with its key and value.
    pub row: Viewport,
    /// The slider's track.
    pub track: Viewport,
}

/// `text` wrapped to the panel's width.
fn wrapped(text: &str, l: &Layout) -> Vec<String> {
    let size = l.font(18);
    let inner = l.side.w - 2 * l.px(12);
    wrap_rich(&literal(text), inner, &|s| measure(s, size))
        .iter()
        .map(|r| unliteral(&r.iter().map(|r| r.text.as_str()).collect::<String>()))
        .collect()
}

/// The panel's heading (where changes go), wrapped.
fn heading(p: &Player, l: &Layout) -> Vec<String> {
    let lang = Lang::of(p.lang.as_deref());
    let panel = &p.panel;
    let target = match panel.pane {
        _ if panel.panes < 2 => tr!(lang, PANEL_ONE).to_owned(),
        None => tr!(lang, PANEL_ALL).to_owned(),
        Some(i) => {
            let name = p
                .session
                .lesson
                .panes
                .get(i as usize)
                .map_or(String::new(), |n| n.name_in(p.lang.as_deref()).to_owned());
            tr!(lang, PANEL_PANE, i + 1, name)
        }
    };
    wrapped(&tr!(lang, PANEL_TITLE, target), l)
}

/// The lines at the panel's foot: the selected control's help and the
/// keys, wrapped to the panel's width.
fn foot_lines(panel: &Panel, l: &Layout, lang: Lang) -> Vec<(String, Rgba)> {
    let mut out = Vec::new();
    let mut add = |text: &str, ink: Rgba| {
        out.extend(wrapped(text, l).into_iter().map(|s| (s, ink)));
    };
    if let Some(c) = panel.controls.get(panel.selected) {
        add(c.param.help.get(lang_tag(lang)), color::TEXT);
    }
    add(tr!(lang, PANEL_KEYS), color::DIM);
    out
}

fn lang_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::Ja => "ja",
        Lang::En => "en",
    }
}

/// The height of one control: its key and value, then its slider.
fn control_h(l: &Layout) -> i32 {
    i32::from(l.font(18)) * 13 / 10 + l.px(14)
}

/// The controls the panel has room for in the side panel's area (above
/// its foot), the selected one always among them, each with its place.
pub fn rects(p: &Player, l: &Layout) -> Vec<ControlRect> {
    let (panel, lang) = (&p.panel, Lang::of(p.lang.as_deref()));
    let area = l.side;
    let (pad, size) = (l.px(12), l.font(18));
    let line = i32::from(size) * 13 / 10;
    let each = control_h(l);
    let foot = foot_lines(panel, l, lang).len() as i32 * line;
    let top = heading(p, l).len() as i32 * line;
    // The heading, and a line under the controls for the "more" mark.
    let room = ((area.h - top - 2 * line - foot - 2 * pad) / each).max(1) as usize;
    let n = panel.controls.len();
    let first = panel
        .selected
        .saturating_sub(room - 1)
        .min(n.saturating_sub(room));
    (first..n.min(first + room))
        .enumerate()
        .map(|(k, i)| {
            let y = area.y + pad + top + l.px(8) + k as i32 * each;
            ControlRect {
                control: i,
                row: Viewport {
                    x: area.x + pad,
                    y,
                    w: area.w - 2 * pad,
                    h: line,
                },
                track: Viewport {
                    x: area.x + pad,
                    y: y + line - l.px(2),
                    w: area.w - 2 * pad,
                    h: l.px(12),
                },
            }
        })
        .collect()
}

/// The value index a click at `x` on `track` chooses, of `len` values.
pub fn index_at(track: Viewport, x: i32, len: usize) -> usize {
    if len < 2 || track.w <= 0 {
        return 0;
    }
    let at = (x - track.x).clamp(0, track.w) as i64;
    ((at * (len as i64 - 1) + i64::from(track.w) / 2) / i64::from(track.w)) as usize
}

/// Draws the panel over the side panel's area: where changes go, each
/// control's key, value (and the lesson's when it differs) and slider, the
/// selected control's help, and the keys.
pub fn draw(cv: &mut Canvas, p: &Player, l: &Layout) {
    let lang = Lang::of(p.lang.as_deref());
    let area = l.side;
    cv.rect(area, Rgba(24, 26, 34, 255));
    cv.outline(area, l.px(2).max(2), color::SKY);
    let (pad, size) = (l.px(12), l.font(18));
    let line = i32::from(size) * 13 / 10;
    let x = area.x + pad;
    let panel = &p.panel;
    let mut y = area.y + pad + line;
    for h in heading(p, l) {
        cv.text(Role::Panel, &h, [x, y], size, color::SKY);
        y += line;
    }
    let note = if p.session.replay_file.is_some() {
        Some(tr!(lang, PANEL_REPLAY))
    } else if panel.controls.is_empty() {
        Some(tr!(lang, PANEL_NONE))
    } else {
        None
    };
    for n in note.map(|n| wrapped(n, l)).unwrap_or_default() {
        y += line;
        cv.text(Role::Panel, &n, [x, y], size, color::TEXT);
    }
    let (inputs, tick) = (p.session.applied(), p.session.in_force_until());
    let shown = rects(p, l);
    for r in &shown {
        draw_control(cv, (panel, *r), (inputs, tick), (size, l), lang);
    }
    let hidden = panel.controls.len() - shown.len();
    if let (true, Some(last)) = (hidden > 0, shown.last()) {
        // Under the last control shown: more are a key press away.
        let up = shown.first().is_some_and(|r| r.control > 0);
        let more = format!("{} {hidden} …", if up { "↑" } else { "↓" });
        let w = measure(&more, size);
        let y = last.track.y + last.track.h + line;
        cv.text(
            Role::More,
            &more,
            [area.x + area.w - pad - w, y],
            size,
            color::DIM,
        );
    }
    let foot = foot_lines(panel, l, lang);
    let mut y = area.y + area.h - pad - (foot.len() as i32 - 1) * line;
    for (text, ink) in foot {
        cv.text(Role::Panel, &text, [x, y], size, ink);
        y += line;
    }
}

/// One control: key and value on a row, its slider under it with the
/// lesson's value marked.
fn draw_control(
    cv: &mut Canvas,
    (panel, r): (&Panel, ControlRect),
    (inputs, tick): (&BTreeMap<u64, Vec<Input>>, u64),
    (size, l): (u16, &Layout),
    lang: Lang,
) {
    let c = &panel.controls[r.control];
    let now = panel.current(r.control, inputs, tick);
    let own = c.lesson[panel.shown().min(c.lesson.len() - 1)];
    let selected = r.control == panel.selected;
    let ink = if selected { color::ORANGE } else { color::TEXT };
    if panel.invited == Some(r.control) {
        // The beat's what-if: framed, so the class sees which control.
        let pad = l.px(4);
        let frame = Viewport {
            x: r.row.x - pad,
            y: r.row.y - pad,
            w: r.row.w + 2 * pad,
            h: r.track.y + r.track.h - r.row.y + 2 * pad,
        };
        cv.outline(frame, l.px(3).max(2), color::SELECTED);
    }
    let base = r.row.y + r.row.h - l.px(4);
    let key = if selected {
        format!("▶ {}", c.key)
    } else {
        c.key.clone()
    };
    let value = c.values[now].trim_matches('"').to_owned();
    let shown = if now == own {
        value
    } else {
        format!(
            "{value}   {}",
            tr!(lang, PANEL_LESSON, c.values[own].trim_matches('"'))
        )
    };
    let w = measure(&shown, size);
    // The value always shows; a long key gives way (cut, marked so).
    let room = r.row.w - w - l.px(12);
    cv.text_fit(Role::Panel, &key, [r.row.x, base], (size, room), ink);
    cv.text(
        Role::Panel,
        &shown,
        [r.row.x + r.row.w - w, base],
        size,
        ink,
    );
    let t = r.track;
    let mid = t.y + t.h / 2;
    cv.rect(
        Viewport {
            x: t.x,
            y: mid - l.px(2),
            w: t.w,
            h: l.px(4).max(2),
        },
        color::DIM,
    );
    let at = |i: usize| t.x + index_at_x(t, i, c.values.len());
    let tick_w = l.px(3).max(2);
    cv.rect(
        Viewport {
            x: at(own) - tick_w / 2,
            y: t.y,
            w: tick_w,
            h: t.h,
        },
        color::TEXT,
    );
    let knob = l.px(14);
    cv.rect(
        Viewport {
            x: at(now) - knob / 2,
            y: mid - knob / 2,
            w: knob,
            h: knob,
        },
        ink,
    );
}

/// The x offset on `track` of value `i` of `len`.
fn index_at_x(track: Viewport, i: usize, len: usize) -> i32 {
    if len < 2 {
        return 0;
    }
    (i64::from(track.w) * i as i64 / (len as i64 - 1)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(id: &str) -> (Lesson, Source) {
        let s = crate::bundled::source(id, &[]).unwrap();
        (s.lesson().unwrap(), s)
    }

    #[test]
    fn a_flock_lesson_gets_its_models_weights_with_the_lessons_values() {
        let (l, s) = lesson("flock-weights");
        let p = Panel::of(&l, &s);
        let keys: Vec<&str> = p.controls.iter().map(|c| c.key.as_str()).collect();
        assert!(
            keys.contains(&"w_cohesion") && keys.contains(&"w_separation"),
            "{keys:?}"
        );
        assert!(
            !keys.contains(&"perception"),
            "a gems key is not a weighted flock's"
        );
        assert_eq!(p.panes, 4);
        let c = p
            .controls
            .iter()
            .position(|c| c.key == "w_cohesion")
            .unwrap();
        let at = p.current(c, &BTreeMap::new(), 0);
        // Pane 0 leaves w_cohesion at the model's default, 1; pane 3 sets 0.
        assert_eq!(p.controls[c].values[at], "1");
        assert_eq!(p.controls[c].values[p.controls[c].lesson[3]], "0");
        assert_eq!(l.params[3]["w_cohesion"], "0");
    }

    #[test]
    fn stepping_and_resetting_make_changes_the_panel_then_shows() {
        let (l, s) = lesson("path-heuristics");
        let mut p = Panel::of(&l, &s);
        let moves = p.controls.iter().find(|c| c.key == "moves").unwrap();
        assert_eq!(moves.values, ["4", "8"], "the values a path takes");
        let h = p
            .controls
            .iter()
            .position(|c| c.key == "heuristic")
            .unwrap();
        p.next_pane();
        p.next_pane();
        assert_eq!(p.pane, Some(1));
        let mut inputs = BTreeMap::new();
        let change = p.step(h, 1, &inputs, 6).unwrap();
        let Input::Set { pane, key, .. } = &change else {
            panic!()
        };
        assert_eq!((pane, key.as_str()), (&Some(1), "heuristic"));
        inputs.insert(6, vec![change.clone()]);
        let Input::Set { value, .. } = change else {
            panic!()
        };
        assert_eq!(p.controls[h].values[p.current(h, &inputs, 6)], value);
        assert_eq!(
            p.current(h, &inputs, 5),
            p.controls[h].lesson[1],
            "before the change"
        );
        assert!(p.reset(h, &inputs, 6).is_some());
        assert!(p.reset(h, &BTreeMap::new(), 6).is_none());
        // Choices end: no step past the last.
        let last = p.set(h, 99);
        inputs.insert(7, vec![last]);
        assert!(p.step(h, 1, &inputs, 7).is_none());
    }

    #[test]
    fn a_line_lesson_gets_a_switch_a_chaser() {
        let (l, s) = lesson("line-chase-arc");
        let p = Panel::of(&l, &s);
        let keys: Vec<&str> = p.controls.iter().map(|c| c.key.as_str()).collect();
        assert!(keys.contains(&"eye_height"), "{keys:?}");
        assert!(keys.contains(&"chasers.0.recompute_every_tick"), "{keys:?}");
        let c = p
            .controls
            .iter()
            .position(|c| c.key == "chasers.0.recompute_every_tick")
            .unwrap();
        let change = p.set(c, 1 - p.current(c, &BTreeMap::new(), 0));
        assert!(
            live::scenario_with(&s, &[], &change).is_ok(),
            "the lesson takes {change}"
        );
    }

    #[test]
    fn ladders_hold_round_numbers_in_range_and_the_lessons_own() {
        let p = Param::number("w", Fx::ZERO, Fx::from_int(100), Fx::ONE);
        let l = ladder(&p, &["0.35".into()]);
        assert_eq!(l.first().map(String::as_str), Some("0"));
        assert_eq!(l.last().map(String::as_str), Some("100"));
        assert!(l.contains(&"0.35".to_owned()) && l.contains(&"0.3".to_owned()));
        let i = l.iter().position(|v| v == "0.35").unwrap();
        assert_eq!((l[i - 1].as_str(), l[i + 1].as_str()), ("0.3", "0.4"));
        let n = Param::int("moves", 4, 8, 8);
        assert_eq!(ladder(&n, &[]), ["4", "5", "6", "7", "8"]);
    }
}
