//! Callouts: figures a beat puts on the picture, next to what they are
//! about, at the narration's size or larger — so a number the narration
//! argues with is read where it is, not in a subtitle or the side panel.
//!
//! ```toml
//! [[beat]]
//! callouts = [
//!   { at = "world", text = "mean speed {mean_speed}", translations = { ja = "平均の速さ {mean_speed}" } },
//!   { at = "boid:0", text = "pushed {separation}", pane = 1 },
//!   { at = "search:2", text = "{expanded} expanded · w = {param.heuristic_weight}" },
//! ]
//! ```
//!
//! `at` names where: `world` (the top of each pane), or an entity the
//! sim has (`boid:N`, `obstacle:N`; `chaser:N`, `target:N`, `cell:X,Y`;
//! `search:N`, `cell:X,Y`, `start`, `goal`). `pane = N` draws it in one
//! pane (a variant, or a path lesson's search) only; by default every
//! pane draws its own, with its own figures, so panes compare side by
//! side. The text's `{KEY}`s are computed from the state shown, never
//! typed in: the figures of [`super::sims::Registration::callout_keys`] for what `at` names, and
//! `{param.NAME}`, the scenario's value of `NAME` as that pane runs it
//! (variants and `--set` applied).

use super::node::{Ctx, Kind, Node};
use super::{LessonError, lang_table};
use crate::sim::Scenario;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The longest callout text, in characters.
pub const MAX_TEXT: usize = 80;

/// A figure a beat puts on the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callout {
    /// Where: `world` or an entity reference (`boid:0`, `cell:3,4`).
    pub at: String,
    /// The one pane (variant or search) it is drawn in; `None`: every
    /// pane.
    pub pane: Option<u32>,
    /// The text, in English, with `{KEY}` placeholders.
    pub text: String,
    /// The text by language tag.
    pub translations: BTreeMap<String, String>,
}

impl Callout {
    /// The text in `lang` if the callout has it, else in English.
    pub fn text_in(&self, lang: Option<&str>) -> &str {
        lang.and_then(|l| self.translations.get(l))
            .map_or(&self.text, String::as_str)
    }

    /// The kind of thing it is at: `world`, `boid`, `cell`, …
    pub fn kind(&self) -> &str {
        self.at.split_once(':').map_or(&self.at, |(k, _)| k)
    }
}

/// A callout as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCallout {
    at: Spanned<String>,
    text: Spanned<String>,
    #[serde(default)]
    translations: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    pane: Option<Spanned<i64>>,
}

/// The `{…}` placeholders of a text, in order.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// Checks a beat's callouts against its scenario, the scenario's
/// parameters (one table a pane) and the beat's narration languages.
pub(super) fn check(
    ctx: &Ctx,
    raw: Vec<Spanned<RawCallout>>,
    (scenario, params): (&Scenario, &[BTreeMap<String, String>]),
    langs: &[&String],
    reg: &dyn super::sims::Registration,
) -> Result<Vec<Callout>, LessonError> {
    let mut out = Vec::with_capacity(raw.len());
    for c in raw {
        let start = c.span().start;
        let c = c.into_inner();
        let at = c.at.get_ref().clone();
        let kind = at.split_once(':').map_or(at.as_str(), |(k, _)| k);
        if at != "world" {
            super::check_focus(reg, &at)
                .and_then(|()| super::check_entity(scenario, &at))
                .map_err(|m| {
                    ctx.at(
                        c.at.span().start,
                        format!("a callout's `at`: {m}, or world"),
                    )
                })?;
        }
        if kind == "pane" {
            return Err(ctx.at(
                c.at.span().start,
                "a callout's `at` is `world` with `pane = N`, not `pane:N`",
            ));
        }
        let pane = match &c.pane {
            None => None,
            Some(p) if (0..params.len() as i64).contains(p.get_ref()) => Some(*p.get_ref() as u32),
            Some(p) => {
                return Err(ctx.at(
                    p.span().start,
                    format!(
                        "a callout's `pane` is 0..{} (the lesson's {})",
                        params.len(),
                        reg.parts()
                    ),
                ));
            }
        };
        let translations = lang_table(ctx, c.translations)?;
        let texts = std::iter::once(c.text.get_ref()).chain(translations.values());
        for text in texts {
            check_text(ctx, c.text.span().start, text, (reg, kind), (params, pane))?;
        }
        let words = c.text.get_ref().chars().any(|ch| ch.is_alphabetic())
            && placeholders(c.text.get_ref()).iter().all(|p| !p.is_empty());
        if let Some(missing) = langs
            .iter()
            .find(|l| words && !translations.contains_key(l.as_str()))
        {
            return Err(ctx.at(
                start,
                format!(
                    "the beat is narrated in `{missing}`: this callout needs its `translations`"
                ),
            ));
        }
        out.push(Callout {
            at,
            pane,
            text: c.text.into_inner(),
            translations,
        });
    }
    Ok(out)
}

/// Checks one text of a callout: not empty, not too long, and every
/// placeholder a figure of its entity or a parameter every pane it is
/// drawn in has.
fn check_text(
    ctx: &Ctx,
    at: usize,
    text: &str,
    (reg, kind): (&dyn super::sims::Registration, &str),
    (params, pane): (&[BTreeMap<String, String>], Option<u32>),
) -> Result<(), LessonError> {
    if text.trim().is_empty() || text.chars().count() > MAX_TEXT {
        return Err(ctx.at(
            at,
            format!("a callout's text is 1 to {MAX_TEXT} characters"),
        ));
    }
    let (sim, known) = (reg.name(), reg.callout_keys(kind));
    for p in placeholders(text) {
        if let Some(name) = p.strip_prefix("param.") {
            let panes: Vec<&BTreeMap<String, String>> = match pane {
                Some(i) => params.get(i as usize).into_iter().collect(),
                None => params.iter().collect(),
            };
            if panes.iter().any(|m| !m.contains_key(name)) {
                let have: Vec<&String> = panes
                    .first()
                    .map(|m| m.keys().collect())
                    .unwrap_or_default();
                return Err(ctx.at(
                    at,
                    format!(
                        "`{{{p}}}`: the scenario sets no `{name}` here; it sets {}",
                        have.iter()
                            .map(|k| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        } else if !known.contains(&p) {
            return Err(ctx.at(
                at,
                format!(
                    "`{{{p}}}` is not a figure of a {sim} callout at `{kind}`; known: {}, or {{param.NAME}}",
                    known.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The scalar values a scenario table sets (numbers as written, booleans,
/// strings), by key: what `{param.NAME}` shows.
pub(super) fn scalars(ctx: &Ctx, table: &Node) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Kind::Table(entries) = &table.kind else {
        return out;
    };
    for (key, _, node) in entries {
        let text = match &node.kind {
            Kind::Int(i) => i.to_string(),
            Kind::Bool(b) => b.to_string(),
            Kind::Str(s) => s.clone(),
            Kind::Float => {
                let src = match node.set {
                    Some(i) => ctx.sets.get(i).map_or("", |s| s.doc.as_str()),
                    None => ctx.src,
                };
                src.get(node.span.clone()).unwrap_or("").trim().to_owned()
            }
            _ => continue,
        };
        out.insert(key.clone(), text);
    }
    out
}

/// The parameters of each pane of a scenario table: one table for a
/// flock or line scenario; for a path scenario, one a search (its keys
/// over the top-level ones).
pub(super) fn pane_params(ctx: &Ctx, table: &Node) -> Vec<BTreeMap<String, String>> {
    let top = scalars(ctx, table);
    let Kind::Table(entries) = &table.kind else {
        return vec![top];
    };
    let searches = entries.iter().find(|(k, ..)| k == "searches");
    match searches.map(|(_, _, n)| &n.kind) {
        Some(Kind::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|s| {
                let mut m = top.clone();
                m.extend(scalars(ctx, s));
                m
            })
            .collect(),
        _ => vec![top],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_read_in_order() {
        assert_eq!(
            placeholders("{mean_speed} at {param.fov}° and {x"),
            ["mean_speed", "param.fov"]
        );
    }
}
