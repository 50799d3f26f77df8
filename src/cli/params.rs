//! `flockstep params SIM`: a sim's scenario parameters, from its schema
//! ([`crate::lesson::schema`]) — as text for a terminal, Markdown for the
//! docs (`docs/params.md`), or JSON for a program.

use super::{Failure, bad};
use crate::lesson::schema::{self, Param, Ty};
use crate::lesson::sims::{self, Registration};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// How `params` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned text, two lines a key.
    Text,
    /// Markdown tables.
    Markdown,
    /// JSON.
    Json,
}

/// The listing of `sim` (every sim when `None`), for one model if given.
pub fn params(
    sim: Option<&str>,
    model: Option<&str>,
    lang: &str,
    format: Format,
) -> Result<String, Failure> {
    if !matches!(lang, "en" | "ja") {
        return Err(bad(format!(
            "--lang {lang}: parameters are described in en and ja"
        )));
    }
    let regs = match sim {
        None => sims::all(),
        Some(name) => vec![sims::by_name(name).ok_or_else(|| {
            bad(format!(
                "unknown sim `{name}`; known sims: {}",
                sims::names().join(", ")
            ))
        })?],
    };
    let mut out = String::new();
    if format == Format::Markdown && sim.is_none() {
        out.push_str(match lang {
            "ja" => "# シナリオのパラメータ\n\n`flockstep params --markdown --lang ja` が各シミュレーションのスキーマから書いたもの。レッスンの読み取りも同じスキーマで範囲と既定値を確かめる。数は整数, 小数 (`0.05`), 文字列の分数 (`\"1/60\"`) で書ける。\n\n",
            _ => "# Scenario parameters\n\nWritten by `flockstep params --markdown` from each sim's schema, the one the lesson reader checks ranges and defaults with. Numbers may be integers, decimals (`0.05`) or fraction strings (`\"1/60\"`).\n\n",
        });
    }
    let mut json_sims = Vec::new();
    for reg in regs {
        let variant = checked_model(reg, model, sim.is_some())?;
        match format {
            Format::Text => text(&mut out, reg, variant, lang),
            Format::Markdown => markdown(&mut out, reg, variant, lang),
            Format::Json => json_sims.push(sim_json(reg, variant, lang)),
        }
    }
    if format == Format::Json {
        let v = Value::Array(json_sims);
        out = serde_json::to_string_pretty(&v).map_err(|e| bad(e.to_string()))? + "\n";
    }
    Ok(out)
}

/// The model asked for, checked against the sim's schema; for every sim
/// (no SIM given) a model applies only to the sims that have it.
fn checked_model(
    reg: &dyn Registration,
    model: Option<&str>,
    one_sim: bool,
) -> Result<Option<&'static str>, Failure> {
    let Some(m) = model else {
        return Ok(None);
    };
    let models = schema::variants(reg.params());
    match models.iter().find(|v| **v == m) {
        Some(v) => Ok(Some(v)),
        None if !one_sim => Ok(None),
        None if models.is_empty() => Err(bad(format!(
            "--model {m}: the {} sim has no models",
            reg.name()
        ))),
        None => Err(bad(format!(
            "--model {m}: the {} sim's models are {}",
            reg.name(),
            models.join(", ")
        ))),
    }
}

fn title(reg: &dyn Registration, variant: Option<&str>, lang: &str) -> String {
    let models = schema::variants(reg.params());
    match (variant, lang) {
        (Some(v), "ja") => format!("{} (model = \"{v}\")", reg.name()),
        (Some(v), _) => format!("{} (model = \"{v}\")", reg.name()),
        (None, _) if models.is_empty() => reg.name().to_owned(),
        (None, "ja") => format!("{} (モデル: {})", reg.name(), models.join(", ")),
        (None, _) => format!("{} (models: {})", reg.name(), models.join(", ")),
    }
}

fn text(out: &mut String, reg: &dyn Registration, variant: Option<&str>, lang: &str) {
    let _ = writeln!(out, "{}", title(reg, variant, lang));
    let mut rows = Vec::new();
    collect(reg.params(), variant, "", &mut rows);
    if rows.is_empty() {
        let none = match lang {
            "ja" => "  (スキーマなし: キーはシミュレーションのコードが読む)",
            _ => "  (no schema: its reader reads the keys itself)",
        };
        let _ = writeln!(out, "{none}\n");
        return;
    }
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    for (key, p) in rows {
        let mut line = format!("{}; {}", p.type_text(lang), p.default_phrase(variant, lang));
        if !p.unit.en.is_empty() {
            let _ = write!(line, "; {}", p.unit.get(lang));
        }
        if variant.is_none() && !p.only.is_empty() {
            let _ = write!(line, "; {}", p.only.join(", "));
        }
        let _ = writeln!(out, "  {key:<width$}  {line}");
        let _ = writeln!(out, "  {:<width$}    {}", "", p.help.get(lang));
    }
    out.push('\n');
}

/// Every key with its table's prefix (`boid.at`), in schema order.
fn collect(
    params: &'static [Param],
    variant: Option<&str>,
    prefix: &str,
    rows: &mut Vec<(String, &'static Param)>,
) {
    for p in params.iter().filter(|p| p.applies(variant)) {
        rows.push((format!("{prefix}{}", p.key), p));
        if let Ty::Tables(sub) = p.ty {
            collect(sub, variant, &format!("{prefix}{}.", p.key), rows);
        }
    }
}

fn markdown(out: &mut String, reg: &dyn Registration, variant: Option<&str>, lang: &str) {
    let _ = writeln!(out, "## {}\n", title(reg, variant, lang));
    out.push_str(&schema::markdown(reg.params(), variant, lang));
    out.push('\n');
}

fn sim_json(reg: &dyn Registration, variant: Option<&str>, lang: &str) -> Value {
    json!({
        "sim": reg.name(),
        "id": reg.id().0,
        "models": schema::variants(reg.params()),
        "params": params_json(reg.params(), variant, lang),
    })
}

fn params_json(params: &[Param], variant: Option<&str>, lang: &str) -> Value {
    params
        .iter()
        .filter(|p| p.applies(variant))
        .map(|p| param_json(p, variant, lang))
        .collect()
}

fn param_json(p: &Param, variant: Option<&str>, lang: &str) -> Value {
    let mut v = json!({
        "key": p.key,
        "type": type_name(&p.ty),
        "range": p.type_text(lang),
        "default": p.default_text(variant, lang),
        "required": matches!(p.default, schema::DefaultValue::Required),
        "unit": p.unit.get(lang),
        "help": p.help.get(lang),
        "models": p.only,
        "vary": p.vary,
    });
    let obj = v.as_object_mut().expect("an object");
    match p.ty {
        Ty::Int { min, max } => {
            obj.insert("min".into(), json!(min));
            obj.insert("max".into(), json!(max));
        }
        Ty::Number { min, max } | Ty::Numbers { min, max, .. } => {
            obj.insert("min".into(), json!(min.to_string()));
            obj.insert("max".into(), json!(max.to_string()));
        }
        Ty::Choice(names) => {
            obj.insert("choices".into(), json!(names));
        }
        Ty::Tables(sub) => {
            obj.insert("keys".into(), params_json(sub, variant, lang));
        }
        _ => {}
    }
    for (k, bound) in [("at_least", p.at_least), ("at_most", p.at_most)] {
        if let Some(b) = bound {
            obj.insert(k.into(), json!(b));
        }
    }
    v
}

fn type_name(ty: &Ty) -> &'static str {
    match ty {
        Ty::Int { .. } => "int",
        Ty::Number { .. } => "number",
        Ty::Bool => "bool",
        Ty::Choice(_) => "choice",
        Ty::Vector { .. } => "vector",
        Ty::Numbers { .. } => "numbers",
        Ty::Cell => "cell",
        Ty::Cells => "cells",
        Ty::Text => "string",
        Ty::Name => "name",
        Ty::Names => "names",
        Ty::Translations => "translations",
        Ty::Tables(_) => "tables",
    }
}
