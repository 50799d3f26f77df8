//! The window's layout and its text: where the status line, scene, side
//! panel, narration and scrub bar go for a window of any size (every size
//! from the window's size and the presenter scale), the scrub bar's beat
//! tabs, and narration wrapped to a width — by words, by characters in
//! Japanese (with kinsoku: no line starts with a closing mark or ends with
//! an opening one), keeping
//! Markdown-style emphasis and code spans as runs. Pure integer code: the
//! window and the tests compute the same layout.
#![deny(clippy::float_arithmetic)]

use crate::scene::{Rgba, Viewport};

/// Where the window's parts go, in pixels, for a window of `w`×`h`: every
/// size comes from the window's size and the presenter scale (see
/// [`Layout::scale_for`]), from 1024×600 to 3840×2160.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The status line at the top.
    pub top: Viewport,
    /// The scene.
    pub scene: Viewport,
    /// The side panel (the scene's panels).
    pub side: Viewport,
    /// The strip under the scene for its legend (what each colour means).
    pub legend: Viewport,
    /// The legend strip's rows (see [`Layout::with_legend_rows`]).
    pub legend_rows: i32,
    /// The narration box.
    pub narration: Viewport,
    /// The scrub bar with its beat tabs.
    pub scrub: Viewport,
    /// The size of everything, in percent (100 at 1280×720 without
    /// presenter mode).
    pub scale: u16,
}

/// The narration's font size at scale 100.
pub const NARRATION_PX: u16 = 22;

/// The legend's font size at scale 100.
pub const LEGEND_PX: u16 = 16;

impl Layout {
    /// The size of everything for a `w`×`h` window at a presenter scale
    /// (percent): 100 at 1280×720, following the smaller of the two
    /// ratios, times the presenter scale.
    pub fn scale_for(w: i32, h: i32, presenter: u16) -> u16 {
        let fit = (w.max(1) * 100 / 1280)
            .min(h.max(1) * 100 / 720)
            .clamp(50, 400);
        (fit * i32::from(presenter) / 100).clamp(40, 1200) as u16
    }

    /// A length at scale `s` (`n` pixels at scale 100).
    pub fn px_at(s: u16, n: i32) -> i32 {
        n * i32::from(s) / 100
    }

    /// A font size at this layout's scale, never under 12 px.
    pub fn font(&self, px: u16) -> u16 {
        (u32::from(px) * u32::from(self.scale) / 100).clamp(12, 400) as u16
    }

    /// A length at this layout's scale.
    pub fn px(&self, n: i32) -> i32 {
        Layout::px_at(self.scale, n)
    }

    /// This layout with room for a legend of `rows` rows: the strip grows
    /// upwards and the scene gives up the room (never more than a third
    /// of it; a longer legend is cut).
    pub fn with_legend_rows(mut self, rows: i32) -> Layout {
        let row = (self.legend.h / self.legend_rows.max(1)).max(1);
        let most = 1 + (self.scene.h + (self.legend_rows - 1) * row) / 3 / row;
        let rows = rows.clamp(1, most.max(1));
        let extra = (rows - self.legend_rows) * row;
        self.scene.h -= extra;
        self.legend.y -= extra;
        self.legend.h += extra;
        self.legend_rows = rows;
        self
    }

    /// A legend's entries in rows that fit the strip's width: the colour,
    /// the name and the left edge of each (text measured with the font
    /// the window draws with).
    pub fn legend_lines<'a>(&self, legend: &'a [(Rgba, String)]) -> Vec<Vec<(Rgba, &'a str, i32)>> {
        let size = self.font(LEGEND_PX);
        let (sq, gap) = (i32::from(size) * 7 / 10, self.px(22));
        let (left, right) = (
            self.legend.x + self.px(12),
            self.legend.x + self.legend.w - self.px(8),
        );
        let mut lines: Vec<Vec<(Rgba, &str, i32)>> = vec![Vec::new()];
        let mut x = left;
        for (col, name) in legend {
            let w = sq * 2 + crate::scene::text::width(name, size);
            if x + w > right && x > left {
                lines.push(Vec::new());
                x = left;
            }
            if let Some(line) = lines.last_mut() {
                line.push((*col, name, x));
            }
            x += w + gap;
        }
        lines
    }

    /// The narration's line height.
    pub fn narration_line(&self) -> i32 {
        i32::from(self.font(NARRATION_PX)) * 135 / 100
    }

    /// The width narration is wrapped to.
    pub fn narration_text_width(w: i32, h: i32, presenter: u16) -> i32 {
        let s = Layout::scale_for(w, h, presenter);
        (w - 2 * Layout::px_at(s, 16)).max(1)
    }

    /// The most narration lines the box shows at once (it pages beyond).
    pub fn narration_max_lines(w: i32, h: i32, presenter: u16) -> i32 {
        let l = Layout::of(w, h, presenter, 0);
        ((h * 36 / 100 - 2 * l.px(10)) / l.narration_line()).max(2)
    }

    /// The layout of a window whose narration needs `lines` lines (at
    /// least two are kept, at most [`Layout::narration_max_lines`]).
    pub fn of(w: i32, h: i32, presenter: u16, lines: i32) -> Layout {
        let scale = Layout::scale_for(w, h, presenter);
        let zero = Viewport {
            x: 0,
            y: 0,
            w,
            h: 0,
        };
        let mut l = Layout {
            top: zero,
            scene: zero,
            side: zero,
            legend: zero,
            legend_rows: 1,
            narration: zero,
            scrub: zero,
            scale,
        };
        let top_h = i32::from(l.font(18)) + l.px(14);
        let scrub_h = i32::from(l.font(15)) + l.px(38);
        let max_lines = ((h * 36 / 100 - 2 * l.px(10)) / l.narration_line()).max(2);
        let narr_h = lines.clamp(2, max_lines) * l.narration_line() + 2 * l.px(10);
        let side_w = l.px(430).min(w * 45 / 100).max(w * 25 / 100);
        let body_h = (h - top_h - scrub_h - narr_h).max(1);
        let legend_h = (i32::from(l.font(LEGEND_PX)) * 14 / 10 + l.px(6)).min(body_h / 4);
        l.top.h = top_h;
        l.scene = Viewport {
            x: 0,
            y: top_h,
            w: (w - side_w).max(1),
            h: (body_h - legend_h).max(1),
        };
        l.legend = Viewport {
            x: 0,
            y: top_h + l.scene.h,
            w: l.scene.w,
            h: legend_h,
        };
        l.side = Viewport {
            x: w - side_w,
            y: top_h,
            w: side_w,
            h: body_h,
        };
        l.narration = Viewport {
            x: 0,
            y: top_h + body_h,
            w,
            h: narr_h,
        };
        l.scrub = Viewport {
            x: 0,
            y: h - scrub_h,
            w,
            h: scrub_h,
        };
        l
    }

    /// The tick under a point of the scrub bar.
    pub fn scrub_tick(&self, x: i32, first: u64, last: u64) -> u64 {
        let bar = self.scrub_bar();
        let x = (x - bar.x).clamp(0, bar.w) as u64;
        first + (last - first) * x / bar.w.max(1) as u64
    }

    /// The scrub bar's track inside its strip (below the beat tabs).
    pub fn scrub_bar(&self) -> Viewport {
        let h = self.px(10).max(6);
        Viewport {
            x: self.scrub.x + self.px(20),
            y: self.scrub.y + self.scrub.h - self.px(12) - h,
            w: (self.scrub.w - 2 * self.px(20)).max(1),
            h,
        }
    }

    /// The x of a tick on the scrub bar.
    pub fn scrub_x(&self, tick: u64, first: u64, last: u64) -> i32 {
        let bar = self.scrub_bar();
        let span = (last - first).max(1);
        bar.x + (u128::from(tick.saturating_sub(first)) * bar.w as u128 / u128::from(span)) as i32
    }

    /// The numbered beat tabs above the scrub bar, one per beat (ticks in
    /// beat order): each starts at its tick's x, pushed right past the
    /// tab before it, so beats that share a tick sit side by side; a row
    /// that runs off the end is pushed back left.
    pub fn beat_tabs(&self, ticks: &[u64], first: u64, last: u64) -> Vec<Viewport> {
        let bar = self.scrub_bar();
        let (w, h, gap) = (
            self.px(26),
            i32::from(self.font(15)) + self.px(8),
            self.px(3),
        );
        let y = bar.y - self.px(6) - h;
        let mut tabs: Vec<Viewport> = Vec::with_capacity(ticks.len());
        for &t in ticks {
            let x = self.scrub_x(t, first, last) - w / 2;
            let x = tabs.last().map_or(x, |p| x.max(p.x + p.w + gap));
            tabs.push(Viewport { x, y, w, h });
        }
        let mut right = bar.x + bar.w + w / 2;
        for t in tabs.iter_mut().rev() {
            t.x = t.x.min(right - t.w);
            right = t.x - gap;
        }
        tabs
    }
}

/// How a run of narration is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Plain text.
    Plain,
    /// Emphasis: `*like this*` in a lesson.
    Emph,
    /// Code: `` `like this` `` in a lesson.
    Code,
    /// A beat's question: drawn on its own band, apart from the narration.
    Question,
}

/// A run of narration text: its words, and how they are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The text, spaces included.
    pub text: String,
    /// Its style.
    pub style: Style,
}

/// One word of narration for wrapping: text, style, and whether a space
/// separates it from the word before.
struct Word {
    text: String,
    emph: Style,
    space: bool,
}

/// Whether a character is set without spaces, so a line may break before
/// or after it (kana, kanji, full-width forms, CJK punctuation).
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// Characters a line must not start with (closing marks, small kana, the
/// prolonged sound mark) — kinsoku.
fn no_line_start(c: char) -> bool {
    "、。，．・：；？！）」』】〕〉》ー々ゃゅょっぁぃぅぇぉャュョッァィゥェォ)]}.,;:!?%".contains(c)
}

/// Characters a line must not end with (opening marks): they stay with
/// what follows them.
fn no_line_end(c: char) -> bool {
    "（「『【〔〈《([{".contains(c)
}

/// Where emphasis and code start and end in a text, as Markdown reads
/// them: a `*` opens emphasis when a non-space follows it and it starts a
/// word, and closes it when a non-space precedes it and a word ends there
/// (so `A*` and `2 * 3` stay as they are); backticks pair up. Each marked
/// character is replaced by the style that follows it.
fn style_marks(chars: &[char]) -> Vec<Option<Style>> {
    let mut marks = vec![None; chars.len()];
    let opens = |i: usize| {
        chars.get(i + 1).is_some_and(|c| !c.is_whitespace())
            && (i == 0 || chars[i - 1].is_whitespace() || "([{\"'「『（—".contains(chars[i - 1]))
    };
    let closes = |j: usize| {
        j > 0
            && !chars[j - 1].is_whitespace()
            && chars
                .get(j + 1)
                .is_none_or(|c| c.is_whitespace() || c.is_ascii_punctuation() || is_cjk(*c))
    };
    let mut i = 0;
    while i < chars.len() {
        let close = match chars[i] {
            '`' => (i + 1..chars.len()).find(|&j| chars[j] == '`'),
            '*' if opens(i) => (i + 2..chars.len()).find(|&j| chars[j] == '*' && closes(j)),
            _ => None,
        };
        if let Some(j) = close {
            marks[i] = Some(if chars[i] == '`' {
                Style::Code
            } else {
                Style::Emph
            });
            marks[j] = Some(Style::Plain);
            i = j;
        }
        i += 1;
    }
    marks
}

/// The script of a character, for where Japanese lines may break: a
/// line breaks where the script changes (kanji to kana, kana to Latin),
/// never inside a run of one (a katakana word, a kanji compound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Script {
    Kanji,
    Hiragana,
    Katakana,
    /// CJK punctuation and full-width symbols: a line may break after.
    Mark,
    /// Anything else (Latin letters, digits, ASCII symbols).
    Other,
}

fn script(c: char) -> Script {
    match c as u32 {
        0x3041..=0x309F => Script::Hiragana,
        0x30A0..=0x30FF if c != '・' => Script::Katakana,
        0x3005 | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => Script::Kanji,
        _ if is_cjk(c) => Script::Mark,
        _ => Script::Other,
    }
}

/// The longest bracketed group (`(記事 004)`, `「仮想の個体」`) kept on one
/// line, in characters.
const GROUP_MAX: usize = 24;

/// Which positions of a CJK text lie inside a short bracketed group
/// (brackets included), where no line breaks.
fn in_groups(chars: &[char]) -> Vec<bool> {
    let mut inside = vec![false; chars.len()];
    for (i, &c) in chars.iter().enumerate() {
        let close = match c {
            '(' => ')',
            '（' => '）',
            '「' => '」',
            '『' => '』',
            _ => continue,
        };
        if let Some(len) = chars[i + 1..]
            .iter()
            .take(GROUP_MAX)
            .position(|&d| d == close)
        {
            for v in &mut inside[i..=i + 1 + len] {
                *v = true;
            }
        }
    }
    inside
}

/// The spaces a line must not break at: in text with CJK characters, those
/// inside a short run of Latin text between them — a formula such as
/// `(zB - zA)·k` or a command such as `--set eye_height=0` stays on one
/// line, as a Japanese reader expects (runs longer than [`GLUE_MAX`]
/// characters still break at their spaces) — those between Latin text and
/// a CJK character (`29 羽`, `f が`: a number stays with its counter), and
/// those inside a short bracketed group.
fn glued_spaces(chars: &[char]) -> Vec<bool> {
    let mut glued = vec![false; chars.len()];
    if !chars.iter().any(|&c| is_cjk(c)) {
        return glued;
    }
    let mut i = 0;
    while i < chars.len() {
        if is_cjk(chars[i]) || chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        // A run of Latin text: from here to the next CJK character,
        // without the spaces at its end.
        let mut end = i;
        while end < chars.len() && !is_cjk(chars[end]) {
            end += 1;
        }
        let mut last = end;
        while last > i && chars[last - 1].is_whitespace() {
            last -= 1;
        }
        if last - i <= GLUE_MAX {
            for g in &mut glued[i..last] {
                *g = true;
            }
        }
        i = end;
    }
    let groups = in_groups(chars);
    for k in 0..chars.len() {
        let (before, after) = (k.checked_sub(1).map(|j| chars[j]), chars.get(k + 1));
        // Letters, digits and the symbols of numbers and formulas; not
        // brackets or punctuation, where a line may break.
        let latin = |c: char| c.is_alphanumeric() && !is_cjk(c) || "°%·+−-=×/<>≤≥'′".contains(c);
        let between = match (before, after) {
            (Some(a), Some(&b)) => latin(a) && is_cjk(b) || is_cjk(a) && latin(b),
            _ => false,
        };
        glued[k] |= between || groups[k] || opens_short_group(chars, k + 1);
    }
    // Only the spaces of those runs.
    for (g, c) in glued.iter_mut().zip(chars) {
        *g &= c.is_whitespace();
    }
    glued
}

/// Whether a short bracketed group (`(j)`, `(x, y)`: at most
/// [`SHORT_GROUP`] characters with its brackets) opens at `k`: the space
/// before it stays, so a symbol's name follows the word it names.
fn opens_short_group(chars: &[char], k: usize) -> bool {
    let close = match chars.get(k) {
        Some('(') => ')',
        Some('（') => '）',
        _ => return false,
    };
    chars[k + 1..]
        .iter()
        .take(SHORT_GROUP - 1)
        .any(|&d| d == close)
}

/// The longest bracketed group glued to the word before it, in characters.
const SHORT_GROUP: usize = 6;

/// The longest run of Latin text kept on one line in CJK narration.
const GLUE_MAX: usize = 32;

/// Whether a Japanese line may break between a character of script `a`
/// and one of script `b` that follows it: where a phrase (bunsetsu) ends —
/// after its particles and endings, written in hiragana, before the next
/// word's kanji, katakana or Latin — between a kanji compound and a
/// katakana word, and after punctuation. Never inside a run of one
/// script, between a kanji and the hiragana after it (the word's ending,
/// `曲がる`, or its particle, `速さは`), or before the particle after a
/// katakana or Latin word.
fn word_boundary(a: Script, b: Script) -> bool {
    use Script::*;
    matches!(
        (a, b),
        (Hiragana, Kanji | Katakana | Other)
            | (Kanji, Katakana)
            | (Katakana, Kanji)
            | (Other, Kanji | Katakana)
    ) || a == Mark && b != Mark
}

/// Where a line of CJK text may break before a character that follows
/// another without a space: at a phrase's end (see [`word_boundary`]) or
/// before an opening mark — never inside a short bracketed group, before a
/// closing mark or small kana (kinsoku), or after an opening mark. Style
/// marks (`*`, `` ` ``) are looked through.
fn cjk_breaks(chars: &[char], marks: &[Option<Style>]) -> Vec<bool> {
    let mut breaks = vec![false; chars.len()];
    let groups = in_groups(chars);
    let (mut prev, mut before): (Option<char>, Option<char>) = (None, None);
    for (k, &c) in chars.iter().enumerate() {
        if marks[k].is_some() {
            continue;
        }
        if c.is_whitespace() {
            (prev, before) = (None, None);
            continue;
        }
        if let Some(a) = prev {
            let (sa, sb) = (script(a), script(c));
            let opening = "(（「『".contains(c);
            let inside = okurigana_inside(before, a, c);
            let boundary = (word_boundary(sa, sb) && !inside) || opening;
            let grouped = groups[k] && k > 0 && groups[k - 1] && !opening;
            breaks[k] = boundary && !grouped && !no_line_start(c) && !no_line_end(a);
        }
        (before, prev) = (prev, Some(c));
    }
    breaks
}

/// Whether the one hiragana `a` between two kanji (`before` and `c`) is a
/// compound's inner ending (`釣り合い`, `足し算`, `連れ戻す`), not a
/// particle ending a phrase (`箱の中`, `羽が箱`): such a word stays whole.
fn okurigana_inside(before: Option<char>, a: char, c: char) -> bool {
    let kanji = |x: char| script(x) == Script::Kanji;
    before.is_some_and(kanji)
        && script(a) == Script::Hiragana
        && kanji(c)
        && !"のがをにはでともへやか".contains(a)
}

/// Splits narration into words: at spaces that are not glued (see
/// [`glued_spaces`]), and in CJK text where [`cjk_breaks`] allows;
/// emphasis (`*…*`) and code (`` `…` ``) change the style of what they
/// enclose and are not shown (see [`style_marks`]).
fn words(text: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut emph = Style::Plain;
    let mut space = false;
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    let marks = style_marks(&chars);
    let glued = glued_spaces(&chars);
    let breaks = cjk_breaks(&chars, &marks);
    let flush = |cur: &mut String, emph: Style, space: &mut bool, out: &mut Vec<Word>| {
        if !cur.is_empty() {
            out.push(Word {
                text: std::mem::take(cur),
                emph,
                space: *space,
            });
            *space = false;
        }
    };
    for (k, (&c, mark)) in chars.iter().zip(marks).enumerate() {
        if let Some(next) = mark {
            flush(&mut cur, emph, &mut space, &mut out);
            emph = next;
        } else if glued[k] && !cur.is_empty() {
            cur.push(' ');
        } else if c.is_whitespace() {
            flush(&mut cur, emph, &mut space, &mut out);
            space = !out.is_empty();
        } else if cur.is_empty() && !space && !breaks[k] && is_cjk(c) {
            // No break before it (kinsoku, or a word that goes on across
            // a style change): glued to the previous word.
            match out.last_mut().filter(|w| w.emph == emph) {
                Some(w) => w.text.push(c),
                None => cur.push(c),
            }
        } else {
            if breaks[k] {
                flush(&mut cur, emph, &mut space, &mut out);
            }
            cur.push(c);
        }
    }
    flush(&mut cur, emph, &mut space, &mut out);
    out
}

/// Wraps narration to lines at most `width` pixels wide as `measure`
/// measures text, keeping emphasis (`*…*`) and code (`` `…` ``) as runs. Paragraphs (blank
/// lines) start new lines; a word wider than a line is cut.
pub fn wrap_rich(text: &str, width: i32, measure: &dyn Fn(&str) -> i32) -> Vec<Vec<Run>> {
    let mut lines = Vec::new();
    for para in text.split("\n\n") {
        let mut line: Vec<Run> = Vec::new();
        let mut used = 0;
        let pieces = words(&para.replace('\n', " "))
            .into_iter()
            .flat_map(|w| split_wide(w, width, measure));
        for w in pieces {
            let gap = if w.space && !line.is_empty() {
                measure(" ")
            } else {
                0
            };
            let need = measure(&w.text);
            if !line.is_empty() && used + gap + need > width {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            let lead = if w.space && !line.is_empty() { " " } else { "" };
            used += if lead.is_empty() { 0 } else { gap } + need;
            match line.last_mut() {
                Some(r) if r.style == w.emph => {
                    r.text.push_str(lead);
                    r.text.push_str(&w.text);
                }
                _ => {
                    if !lead.is_empty()
                        && let Some(r) = line.last_mut()
                    {
                        r.text.push(' ');
                    }
                    line.push(Run {
                        text: w.text,
                        style: w.emph,
                    });
                }
            }
        }
        lines.push(line);
    }
    lines
}

/// A word wider than a whole line, cut into pieces that each fit (the
/// last may be shorter); any other word as it is.
/// A word wider than a whole line, cut into pieces that each fit: first
/// at its spaces beside a CJK character (so a formula glued into
/// Japanese text keeps together), then at its other spaces, then between
/// characters; any other word as it is.
fn split_wide(w: Word, width: i32, measure: &dyn Fn(&str) -> i32) -> Vec<Word> {
    if measure(&w.text) <= width {
        return vec![w];
    }
    let mut out = Vec::new();
    for (k, text) in cut_to_fit(&w.text, width, measure, 0)
        .into_iter()
        .enumerate()
    {
        out.push(Word {
            text,
            emph: w.emph,
            space: w.space && k == 0,
        });
    }
    out
}

/// `text` cut into pieces at most `width` wide, at the cuts of `level`
/// and finer ones (see [`split_wide`]); the spaces cut at are dropped.
fn cut_to_fit(text: &str, width: i32, measure: &dyn Fn(&str) -> i32, level: u8) -> Vec<String> {
    if measure(text) <= width || text.chars().count() < 2 {
        return vec![text.to_owned()];
    }
    let chars: Vec<char> = text.chars().collect();
    let cuts: Vec<usize> = match level {
        0 => (1..chars.len().saturating_sub(1))
            .filter(|&k| chars[k] == ' ' && (is_cjk(chars[k - 1]) || is_cjk(chars[k + 1])))
            .collect(),
        1 => (0..chars.len()).filter(|&k| chars[k] == ' ').collect(),
        _ => {
            // Between characters: as many as fit, at least one.
            let mut out = Vec::new();
            let mut cur = String::new();
            for &c in &chars {
                cur.push(c);
                if measure(&cur) > width && cur.chars().count() > 1 {
                    cur.pop();
                    out.push(std::mem::take(&mut cur));
                    cur.push(c);
                }
            }
            out.push(cur);
            return out;
        }
    };
    let mut parts = Vec::new();
    let mut from = 0;
    for &k in &cuts {
        parts.push(chars[from..k].iter().collect::<String>());
        from = k + 1;
    }
    parts.push(chars[from..].iter().collect::<String>());
    // Greedy: as many parts a piece as fit; a part too wide alone is cut
    // at the next level.
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for p in parts {
        let joined = if cur.is_empty() {
            p.clone()
        } else {
            format!("{cur} {p}")
        };
        if measure(&joined) <= width {
            cur = joined;
            continue;
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if measure(&p) <= width {
            cur = p;
        } else {
            out.extend(cut_to_fit(&p, width, measure, level + 1));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Splits text into lines of at most `chars` characters at spaces (for
/// plain, monospaced contexts; the window wraps by measured width).
pub fn wrap(text: &str, chars: usize) -> Vec<String> {
    let measure = |s: &str| s.chars().count() as i32;
    wrap_rich(&literal(text), chars as i32, &measure)
        .into_iter()
        .map(|runs| runs.into_iter().map(|r| unliteral(&r.text)).collect())
        .collect()
}

/// Text with its `*` and `` ` `` kept as characters by [`wrap_rich`]
/// (undone by [`unliteral`]).
pub fn literal(text: &str) -> String {
    text.replace('*', "\u{2217}").replace('`', "\u{2035}")
}

/// Undoes [`literal`].
pub fn unliteral(text: &str) -> String {
    text.replace('\u{2217}', "*").replace('\u{2035}', "`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[Vec<Run>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|r| r.text.as_str()).collect())
            .collect()
    }

    /// One pixel per character.
    fn chars(s: &str) -> i32 {
        s.chars().count() as i32
    }

    #[test]
    fn emphasis_and_code_are_runs_and_stray_stars_stay() {
        let l = wrap_rich("A* keeps an *open list*: cells", 100, &chars);
        assert_eq!(
            l[0],
            vec![
                Run {
                    text: "A* keeps an ".into(),
                    style: Style::Plain
                },
                Run {
                    text: "open list".into(),
                    style: Style::Emph
                },
                Run {
                    text: ": cells".into(),
                    style: Style::Plain
                },
            ]
        );
        assert_eq!(
            plain(&wrap_rich("2 * 3 * 4 = 24", 100, &chars)),
            ["2 * 3 * 4 = 24"]
        );
        let code = wrap_rich("Try `flockstep line 1,2` here", 100, &chars);
        assert_eq!(code[0][1].style, Style::Code);
        assert_eq!(code[0][1].text.trim_end(), "flockstep line 1,2");
        assert_eq!(
            wrap("a *b* c", 80),
            ["a *b* c"],
            "plain wrapping keeps stars"
        );
    }

    #[test]
    fn lines_fit_their_width_and_paragraphs_break() {
        let text = "Each boid sees other boids within 75 units whose bearing is within 90 degrees of its heading.\n\nA new paragraph.";
        for w in [12, 20, 33, 60] {
            let lines = plain(&wrap_rich(text, w, &chars));
            for l in &lines {
                assert!(chars(l) <= w || !l.contains(' '), "{w}: {l:?}");
            }
            assert!(lines.last().unwrap().ends_with("paragraph."), "{w}");
            assert_eq!(
                lines.join(" ").split_whitespace().count(),
                text.split_whitespace().count()
            );
        }
    }

    #[test]
    fn japanese_breaks_between_scripts_never_before_a_closing_mark_or_after_an_opening_one() {
        let ja = "各個体は、75 以内かつ自分の向きから 90° 以内の相手が見えます。後ろ半分は死角で、境界も死角です。";
        for w in 6..30 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            assert_eq!(lines.concat().replace(' ', ""), ja.replace(' ', ""), "{w}");
            for l in &lines {
                assert!(chars(l) <= w + 1, "{w}: {l:?}");
                let first = l.chars().next().unwrap();
                assert!(!"、。」".contains(first), "{w}: a line starts with {first}");
            }
        }
        // Nor does a line end with an opening mark, full-width or ASCII.
        let ja =
            "順序は無関係です (近傍グリッドも任意の順で訪問できます)。「仮想の個体」を置きます。";
        for w in 6..30 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            assert_eq!(lines.concat().replace(' ', ""), ja.replace(' ', ""), "{w}");
            for l in &lines {
                let last = l.trim_end().chars().last().unwrap();
                assert!(
                    !"(「".contains(last),
                    "{w}: a line ends with {last}: {lines:?}"
                );
            }
        }
    }

    /// A kanji's ending or particle stays with it ("速/さ", "曲/がります"
    /// were split): lines break after a phrase's hiragana, before the next
    /// word.
    #[test]
    fn japanese_keeps_a_word_with_its_ending() {
        let ja = "速さは変わらず、右へ曲がりました。数えなければ分かりません。";
        for w in 4..30 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            let joined = lines.join("|");
            for word in ["速さは", "曲がりました。", "数えなければ", "分かりません。"]
            {
                if chars(word) <= w {
                    assert!(joined.contains(word), "{w}: {word:?} split in {lines:?}");
                }
            }
        }
    }

    /// A compound with an inner ending stays whole ("釣り/合い", "足し/算"
    /// and "連れ/戻す" were split); a particle between two kanji still
    /// ends a phrase.
    #[test]
    fn japanese_keeps_a_compound_with_its_inner_ending() {
        let ja = "左右の釣り合いは足し算で保たれ、連れ戻す力が箱の中で働きます。";
        let mut broke_after_particle = false;
        for w in 3..30 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            let joined = lines.join("|");
            for word in ["釣り合い", "足し算", "連れ戻す"] {
                if chars(word) <= w {
                    assert!(joined.contains(word), "{w}: {word:?} split in {lines:?}");
                }
            }
            broke_after_particle |= joined.contains("箱の|中");
        }
        assert!(broke_after_particle, "no width broke after the particle の");
    }

    /// Issue 43: Japanese lines broke inside words ("パネ/ル", "変更
    /// 1/つ", "(記/事)"). A line breaks only where the script changes or
    /// after punctuation: never inside a katakana word or a kanji
    /// compound, between a number and its counter, or inside a short
    /// bracketed group.
    #[test]
    fn japanese_keeps_words_numbers_and_brackets_whole() {
        let ja =
            "横のパネルには変更 1 つの結果が出ます (記事 004)。オープンリストの先頭を展開します。";
        let whole = [
            "パネル",
            "変更 1 つ",
            "(記事 004)",
            "オープンリスト",
            "先頭",
            "展開",
        ];
        for w in 8..40 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            assert_eq!(lines.concat().replace(' ', ""), ja.replace(' ', ""), "{w}");
            let joined = lines.join("|");
            for piece in whole {
                // A piece longer than a line (with the mark after it) is
                // cut, as any word is.
                if chars(piece) < w {
                    assert!(joined.contains(piece), "{w}: {piece:?} split in {lines:?}");
                }
            }
            for l in &lines {
                assert!(chars(l) <= w + 1, "{w}: {l:?}");
            }
        }
    }

    #[test]
    fn japanese_keeps_a_short_formula_or_command_on_one_line() {
        let ja =
            "セルが遮るのは h·n > zA·n + (zB - zA)·k のときで、--set eye_height=0 で試せます。";
        for w in 25..40 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            assert_eq!(lines.concat().replace(' ', ""), ja.replace(' ', ""), "{w}");
            let joined = lines.join("|");
            for piece in ["h·n > zA·n + (zB - zA)·k", "--set eye_height=0"] {
                assert!(joined.contains(piece), "{w}: {piece:?} split in {lines:?}");
            }
        }
        // English breaks at its spaces as before.
        let en = "a cell blocks if h·n > zA·n + (zB - zA)·k";
        assert!(plain(&wrap_rich(en, 12, &chars)).len() > 3);
    }

    #[test]
    fn japanese_keeps_a_symbol_in_brackets_with_the_word_it_names() {
        let ja = "次の列 (j) の境界と理想の線が交わる点 (x, y) を見ます。";
        let mut cut_between = 0;
        for w in 6..30 {
            let lines = plain(&wrap_rich(ja, w, &chars));
            let joined = lines.join("|");
            for piece in ["列 (j)", "点 (x, y)"] {
                if chars(piece) < w {
                    assert!(joined.contains(piece), "{w}: {piece:?} split in {lines:?}");
                }
            }
            cut_between += usize::from(joined.contains("(j)|") || joined.contains("y)|"));
        }
        // The line still breaks after a group where it must.
        assert!(cut_between > 0);
    }

    #[test]
    fn the_layout_tiles_every_window_size() {
        for (w, h) in [
            (1024, 600),
            (1280, 720),
            (1280, 633),
            (1920, 1080),
            (3840, 2160),
        ] {
            for presenter in [100, 150, 200] {
                let max = Layout::narration_max_lines(w, h, presenter);
                for lines in [1, 3, max, max + 5] {
                    let l = Layout::of(w, h, presenter, lines);
                    let (t, s, d, n, b) = (l.top, l.scene, l.side, l.narration, l.scrub);
                    assert_eq!(t.y, 0);
                    assert_eq!(s.y, t.h);
                    let g = l.legend;
                    assert_eq!((d.y, d.h), (s.y, s.h + g.h));
                    assert_eq!(s.w + d.w, w);
                    assert_eq!((g.y, g.x, g.w), (s.y + s.h, s.x, s.w));
                    assert_eq!(n.y, g.y + g.h);
                    assert_eq!(b.y, n.y + n.h, "{w}×{h} at {presenter}%");
                    assert_eq!(
                        b.y + b.h,
                        h,
                        "{w}×{h} at {presenter}%: the scrub bar is cut"
                    );
                    assert!(s.h > h / 5, "{w}×{h} at {presenter}%: scene {}", s.h);
                    assert!(d.w * 4 >= w && d.w * 100 <= w * 45);
                    let bar = l.scrub_bar();
                    assert!(bar.y > b.y && bar.y + bar.h < h);
                }
            }
        }
        // Sizes follow the window: 18 px text at 1280×720, 27 at 1080p.
        assert_eq!(Layout::of(1280, 720, 100, 3).font(18), 18);
        assert_eq!(Layout::of(1920, 1080, 100, 3).font(18), 27);
        assert_eq!(Layout::of(1280, 720, 200, 3).font(18), 36);
        assert!(
            Layout::of(1024, 600, 100, 3).font(10) >= 12,
            "nothing under 12 px"
        );
    }

    #[test]
    fn a_long_legend_takes_room_from_the_scene_not_from_its_picture() {
        let l = Layout::of(1024, 600, 150, 3);
        let legend: Vec<(Rgba, String)> = (0..12)
            .map(|i| {
                (
                    Rgba(i, 0, 0, 255),
                    format!("entry number {i} of the legend"),
                )
            })
            .collect();
        let rows = l.legend_lines(&legend);
        assert!(rows.len() > 2, "{} rows", rows.len());
        let m = l.with_legend_rows(rows.len() as i32);
        // The strip grew upwards by whole rows; the scene ends where it
        // starts; nothing else moved.
        assert_eq!(m.scene.y + m.scene.h, m.legend.y);
        assert_eq!(m.legend.y + m.legend.h, l.legend.y + l.legend.h);
        assert_eq!(m.legend.h % l.legend.h, 0);
        assert_eq!(
            (m.side, m.narration, m.scrub),
            (l.side, l.narration, l.scrub)
        );
        // Never more than a third of the scene's part.
        assert!(m.scene.h * 3 >= (l.scene.h + l.legend.h) * 2 - l.legend.h * 3);
        assert!(m.legend_rows <= rows.len() as i32);
        // Every entry lies inside the strip's width.
        for line in &rows {
            for (_, name, x) in line {
                let w = crate::scene::text::width(name, l.font(LEGEND_PX));
                assert!(
                    *x >= l.legend.x && x + w <= l.legend.x + l.legend.w,
                    "{name}"
                );
            }
        }
        // One row asks for nothing.
        assert_eq!(l.with_legend_rows(1), l);
    }

    #[test]
    fn beat_tabs_never_overlap_and_stay_on_the_bar() {
        let l = Layout::of(1280, 720, 100, 3);
        let ticks = [0, 0, 0, 0, 1, 7, 13];
        let tabs = l.beat_tabs(&ticks, 0, 13);
        let bar = l.scrub_bar();
        for (i, p) in tabs.windows(2).enumerate() {
            assert!(p[0].x + p[0].w <= p[1].x, "tabs {i} and {}", i + 1);
        }
        assert!(
            tabs[0].x >= bar.x - tabs[0].w && tabs[6].x + tabs[6].w <= bar.x + bar.w + tabs[6].w
        );
        // Many beats at the very end are pushed back left, all visible.
        let tabs = l.beat_tabs(&[100; 12], 0, 100);
        assert!(tabs.iter().all(|t| t.x >= 0 && t.x + t.w <= 1280));
    }
}
