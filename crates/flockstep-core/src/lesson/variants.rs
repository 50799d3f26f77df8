//! Variants: `[[scenario.variants]]`, each a name and overrides of the
//! lesson's scenario, run side by side, one pane each, in lockstep.
//!
//! ```toml
//! [[scenario.variants]]
//! name = "naive average"
//! name_translations = { ja = "素朴な平均" }
//! naive_angle_average = true
//!
//! [[scenario.variants]]
//! name = "shortest turn"
//! ```
//!
//! A variant's keys replace the scenario's keys of the same name (a table
//! or list is replaced whole); `--set` changes the scenario before the
//! variants apply, so it reaches every pane a variant does not override
//! (and `--set variants.1.KEY=…` reaches one). Every pane runs the same
//! sim, flock or line, with the same tick length.

use super::node::{Ctx, Kind, Node};
use super::{LessonError, valid_lang};
use std::collections::BTreeMap;
use std::ops::Range;

/// The longest variant name, in characters (it titles a pane).
pub const MAX_NAME: usize = 40;

/// A pane's title: its variant's name, in English and translated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PaneName {
    /// The name in English.
    pub name: String,
    /// The name by language tag (`ja`).
    pub translations: BTreeMap<String, String>,
}

impl PaneName {
    /// The name in a language (`None`: English), falling back to English.
    pub fn name_in(&self, lang: Option<&str>) -> &str {
        lang.and_then(|l| self.translations.get(l))
            .unwrap_or(&self.name)
    }
}

/// One variant as written: its name, the scenario keys it sets, and
/// where it is.
pub(super) struct Variant {
    pub name: PaneName,
    pub keys: Vec<(String, Range<usize>, Node)>,
    pub span: Range<usize>,
}

/// Takes the `variants` list out of the scenario table (`None`: there is
/// none), checked: 2 to [`crate::sim::MAX_PANES`] tables, each with a
/// name, setting no `sim` and no `variants`.
pub(super) fn take(ctx: &Ctx, scenario: &mut Node) -> Result<Option<Vec<Variant>>, LessonError> {
    let Kind::Table(entries) = &mut scenario.kind else {
        return Ok(None);
    };
    let Some(pos) = entries.iter().position(|(k, ..)| k == "variants") else {
        return Ok(None);
    };
    let (_, key_span, list) = entries.remove(pos);
    let Kind::Array(items) = list.kind else {
        return Err(ctx.err(
            &list,
            "`variants` is a list of tables: write each as [[scenario.variants]]",
        ));
    };
    let max = crate::sim::MAX_PANES;
    if !(2..=max).contains(&items.len()) {
        return Err(ctx.err_at(
            list.set,
            &key_span,
            format!(
                "a lesson runs 2 to {max} variants side by side; this one declares {}",
                items.len()
            ),
        ));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| variant(ctx, i, item))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Checks one `[[scenario.variants]]` table.
fn variant(ctx: &Ctx, i: usize, item: Node) -> Result<Variant, LessonError> {
    let span = item.span.clone();
    let Kind::Table(entries) = item.kind else {
        return Err(ctx.err(&item, format!("variant {} must be a table", i + 1)));
    };
    let mut name = None;
    let mut translations = BTreeMap::new();
    let mut keys = Vec::new();
    for (k, ks, n) in entries {
        match k.as_str() {
            "name" => name = Some(pane_text(ctx, &n, "`name`")?),
            "name_translations" => translations = name_translations(ctx, &n)?,
            "sim" | "variants" => {
                return Err(ctx.err_at(
                    n.set,
                    &ks,
                    format!(
                        "a variant cannot set `{k}`: every pane runs the lesson's sim, and variants do not nest"
                    ),
                ));
            }
            _ => keys.push((k, ks, n)),
        }
    }
    let Some(name) = name else {
        return Err(ctx.at(
            span.start,
            format!(
                "variant {} has no `name` (its pane's title, 1-{MAX_NAME} characters)",
                i + 1
            ),
        ));
    };
    Ok(Variant {
        name: PaneName { name, translations },
        keys,
        span,
    })
}

/// A pane title: a string of 1 to [`MAX_NAME`] characters on one line.
fn pane_text(ctx: &Ctx, n: &Node, what: &str) -> Result<String, LessonError> {
    match &n.kind {
        Kind::Str(s)
            if !s.trim().is_empty()
                && s.chars().count() <= MAX_NAME
                && !s.chars().any(char::is_control) =>
        {
            Ok(s.clone())
        }
        _ => Err(ctx.err(
            n,
            format!("{what} must be a string of 1-{MAX_NAME} characters on one line"),
        )),
    }
}

/// `name_translations = { ja = "…" }` (and a path search's
/// `label_translations`).
pub(super) fn name_translations(
    ctx: &Ctx,
    n: &Node,
) -> Result<BTreeMap<String, String>, LessonError> {
    let Kind::Table(entries) = &n.kind else {
        return Err(ctx.err(n, "translations are a table of language tag = name"));
    };
    let mut out = BTreeMap::new();
    for (lang, ks, v) in entries {
        if !valid_lang(lang) {
            return Err(ctx.err_at(
                v.set,
                ks,
                format!("`{lang}` is not a language tag (such as ja or pt-BR)"),
            ));
        }
        out.insert(lang.clone(), pane_text(ctx, v, "a translated name")?);
    }
    Ok(out)
}

/// The scenario table of a pane: the lesson's, with the variant's keys
/// replacing its own.
pub(super) fn apply(base: &Node, v: &Variant) -> Node {
    let mut out = base.clone();
    if let Kind::Table(entries) = &mut out.kind {
        for (k, ks, n) in &v.keys {
            match entries.iter_mut().find(|(e, ..)| e == k) {
                Some(e) => *e = (k.clone(), ks.clone(), n.clone()),
                None => entries.push((k.clone(), ks.clone(), n.clone())),
            }
        }
    }
    out
}
