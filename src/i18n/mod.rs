//! The words the viewer draws, in every language it speaks: one catalogue
//! of messages, each with its English and its Japanese, so that a screen
//! in Japanese is Japanese everywhere — legends, panels, pane titles,
//! the status line, help, the picker, prompts and banners — not only in
//! the narration the lessons carry. `scene` and `viewer` hold no words of
//! their own: they name a message and its arguments (`tests/tidy.rs`
//! fails on an English literal there), and a message cannot be written
//! without its Japanese (the test below fails on an empty or untranslated
//! one).
//!
//! A message's `{0}`, `{1}`, … stand for its arguments, so a language may
//! put them in its own order.
#![deny(clippy::float_arithmetic)]

mod chrome;
mod flock;
mod line;
mod path;

pub use chrome::*;
pub use flock::*;
pub use line::*;
pub use path::*;

use std::fmt::Display;

/// A language of the screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (also for any language the catalogue does not have).
    #[default]
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// The screen language for a narration language tag (`ja`, `ja-JP`;
    /// `None` or any other: English).
    pub fn of(tag: Option<&str>) -> Lang {
        match tag {
            Some(t) if t == "ja" || t.starts_with("ja-") => Lang::Ja,
            _ => Lang::En,
        }
    }
}

/// A message in every language.
#[derive(Debug)]
pub struct Msg {
    /// Its name in the catalogue.
    pub id: &'static str,
    /// In English.
    pub en: &'static str,
    /// In Japanese.
    pub ja: &'static str,
}

impl Msg {
    /// The message in `lang`, its placeholders left as written (for a
    /// message without arguments).
    pub fn text(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Ja => self.ja,
        }
    }

    /// The message in `lang` with `{0}`, `{1}`, … replaced by `args`.
    pub fn with(&self, lang: Lang, args: &[&dyn Display]) -> String {
        fill(self.text(lang), args)
    }
}

/// `template` with each `{N}` replaced by `args[N]` (a `{N}` past the
/// arguments, or any other brace, is kept as written).
fn fill(template: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}');
        let arg = close
            .and_then(|c| after[..c].parse::<usize>().ok())
            .and_then(|n| args.get(n));
        match (arg, close) {
            (Some(a), Some(c)) => {
                out.push_str(&a.to_string());
                rest = &after[c + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Defines messages: `NAME: "English" => "Japanese";`, each a [`Msg`]
/// constant, and a list of them under the name given first.
macro_rules! messages {
    ($list:ident; $($(#[doc = $d:literal])* $id:ident: $en:literal => $ja:literal;)*) => {
        $($(#[doc = $d])* pub const $id: super::Msg = super::Msg {
            id: stringify!($id),
            en: $en,
            ja: $ja,
        };)*
        /// Every message of this part of the catalogue.
        pub(super) const $list: &[&super::Msg] = &[$(&$id),*];
    };
}
pub(crate) use messages;

/// A message in a language: `tr!(lang, NAME)` (a `&'static str`) or
/// `tr!(lang, NAME, a, b)` (a `String` with `{0}` = a, `{1}` = b).
#[macro_export]
macro_rules! tr {
    ($lang:expr, $m:ident) => {
        $crate::i18n::$m.text($lang)
    };
    ($lang:expr, $m:ident, $($a:expr),+ $(,)?) => {
        $crate::i18n::$m.with($lang, &[$(&$a),+])
    };
}

/// Every message of the catalogue.
pub fn all() -> impl Iterator<Item = &'static Msg> {
    chrome::CHROME
        .iter()
        .chain(flock::FLOCK)
        .chain(line::LINE)
        .chain(path::PATH)
        .copied()
}

/// Whether a character is Japanese script (kana, kanji, or the
/// ideographic comma and full stop).
pub fn is_japanese(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x30FF | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholders a text uses (`{0}`, `{1}`, …), sorted.
    fn placeholders(s: &str) -> Vec<usize> {
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            if let Some(c) = after.find('}')
                && let Ok(n) = after[..c].parse::<usize>()
            {
                out.push(n);
            }
            rest = after;
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn arguments_fill_their_places_in_either_order() {
        assert_eq!(fill("{0} of {1}", &[&3, &"ten"]), "3 of ten");
        assert_eq!(fill("{1} の {0}", &[&3, &"ten"]), "ten の 3");
        assert_eq!(fill("a {x} {5} {", &[&1]), "a {x} {5} {");
        assert_eq!(placeholders("{1} and {0}, {1}"), vec![0, 1]);
        assert_eq!(Lang::of(Some("ja-JP")), Lang::Ja);
        assert_eq!(Lang::of(Some("pt-BR")), Lang::En);
    }

    /// Every message has its Japanese: not empty, in Japanese script
    /// (a message that is only a symbol or a formula may be the same in
    /// both), with the same arguments as the English; and no two
    /// messages share a name.
    #[test]
    fn every_message_is_translated() {
        let mut bad = Vec::new();
        let mut ids = std::collections::BTreeSet::new();
        for m in all() {
            if !ids.insert(m.id) {
                bad.push(format!("{}: named twice", m.id));
            }
            let letters = m.en.chars().filter(char::is_ascii_alphabetic).count();
            if m.ja.trim().is_empty() {
                bad.push(format!("{}: no Japanese", m.id));
            } else if letters >= 2 && !m.ja.chars().any(is_japanese) {
                bad.push(format!("{}: `{}` is not Japanese", m.id, m.ja));
            }
            if placeholders(m.en) != placeholders(m.ja) {
                bad.push(format!(
                    "{}: the arguments differ: `{}` against `{}`",
                    m.id, m.en, m.ja
                ));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
