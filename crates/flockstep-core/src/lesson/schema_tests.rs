//! The schemas against their readers: every default a schema states is
//! the reader's, every bound it states is where the reader starts to
//! refuse, a model's keys are its own, and messages come from the schema.

use super::schema::{DefaultValue, Param, Ty, fx_text};
use super::sims;
use super::*;
use crate::num::Fx;
use crate::sim::flock::{GemsParams, HeadingParams, Model, WeightedParams};

fn lesson(scenario: &str) -> String {
    format!(
        "[lesson]\nid = \"t\"\ntitle = \"T\"\nsummary = \"S.\"\nticks = 5\n\n[scenario]\n{scenario}\n\n[[beat]]\nat = 0\ntext = \"Hi.\"\n"
    )
}

/// One minimal scenario per sim and model, with its variant.
fn bases() -> Vec<(&'static str, Option<&'static str>, String)> {
    vec![
        (
            "line",
            None,
            lesson(
                "sim = \"line\"\nwidth = 8\nheight = 4\ntargets = [[6, 2]]\n[[scenario.chasers]]\nat = [1, 1]",
            ),
        ),
        (
            "path",
            None,
            lesson("sim = \"path\"\nwidth = 12\nheight = 12\nstart = [0, 0]\ngoal = [9, 9]"),
        ),
        (
            "flock",
            Some("heading"),
            lesson("sim = \"flock\"\nmodel = \"heading\"\nboids = 5"),
        ),
        (
            "flock",
            Some("gems"),
            lesson("sim = \"flock\"\nmodel = \"gems\"\nboids = 5"),
        ),
        (
            "flock",
            Some("weighted"),
            lesson("sim = \"flock\"\nmodel = \"weighted\"\nboids = 5"),
        ),
    ]
}

fn parse(src: &str, sets: &[String]) -> Result<Lesson, LessonError> {
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    Lesson::parse_with(src, "t.toml", &o)
}

fn schema_of(sim: &str) -> &'static [Param] {
    sims::by_name(sim).unwrap().params()
}

/// A scalar default as a `--set` value, if the key has one for `variant`.
fn default_value(p: &Param, variant: Option<&str>) -> Option<String> {
    let d = match p.default {
        DefaultValue::Per(list) => list.iter().find(|(v, _)| Some(*v) == variant)?.1,
        d => d,
    };
    match d {
        DefaultValue::Int(v) => Some(v.to_string()),
        DefaultValue::Number(v) => Some(exact(v)),
        DefaultValue::Bool(b) => Some(b.to_string()),
        DefaultValue::Choice(c) => Some(c.to_owned()),
        _ => None,
    }
}

/// A non-negative number as a fraction that reads back to the same bits:
/// `bits / 2³²` as `(bits / 2^m) / 2^(32 - m)`, the numerator an exact
/// decimal of `m` places, both sides within what a lesson number holds.
fn exact(v: Fx) -> String {
    let bits = v.to_bits();
    assert!(bits >= 0);
    let m = (2..=32)
        .find(|m| bits >> m < 1 << 30)
        .expect("a default in range");
    let frac = (bits as u128 & ((1u128 << m) - 1)) * 5u128.pow(m);
    format!(
        "\"{}.{frac:0m$}/{}\"",
        bits >> m,
        1u64 << (32 - m),
        m = m as usize
    )
}

/// Keys that make a base scenario something else when set (its size, its
/// count of boids): their bounds and defaults are tested by their own tests.
fn structural(sim: &str, key: &str) -> bool {
    matches!(
        (sim, key),
        ("flock", "dims" | "boids" | "bounds") | (_, "width" | "height" | "levels")
    )
}

#[test]
fn every_stated_default_is_the_readers() {
    let mut checked = 0;
    for (sim, variant, src) in bases() {
        let plain = parse(&src, &[]).unwrap().scenario;
        for p in schema_of(sim).iter().filter(|p| p.applies(variant)) {
            if structural(sim, p.key) {
                continue;
            }
            let Some(v) = default_value(p, variant) else {
                continue;
            };
            let set = parse(&src, &[format!("{}={v}", p.key)])
                .unwrap_or_else(|e| panic!("{sim} {variant:?}: {}={v}: {e}", p.key));
            assert_eq!(
                set.scenario, plain,
                "{sim} {variant:?}: `{}` set to its stated default {v} changes the scenario",
                p.key
            );
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} defaults checked");
}

/// `v` one step past a bound, as a `--set` value.
fn past(p: &Param, upper: bool) -> Option<String> {
    match p.ty {
        Ty::Int { max, .. } if upper => max.checked_add(1).map(|v| v.to_string()),
        Ty::Int { min, .. } => min.checked_sub(1).map(|v| v.to_string()),
        Ty::Number { max, .. } if upper => Some(format!("\"{}\"", max + Fx::from_ratio(1, 1000)?)),
        Ty::Number { min, .. } => Some(format!("\"{}\"", min - Fx::from_ratio(1, 1000)?)),
        _ => None,
    }
}

fn bound(p: &Param, upper: bool) -> Option<String> {
    match p.ty {
        Ty::Int { min, max } => Some(if upper { max } else { min }.to_string()),
        Ty::Number { min, max } => Some(format!("\"{}\"", if upper { max } else { min })),
        _ => None,
    }
}

#[test]
fn every_stated_bound_is_where_refusal_starts() {
    let mut checked = 0;
    for (sim, variant, src) in bases() {
        let params = schema_of(sim).iter().filter(|p| p.applies(variant));
        for p in params.filter(|p| p.at_least.is_none() && p.at_most.is_none()) {
            for upper in [false, true] {
                let (Some(inside), Some(outside)) = (bound(p, upper), past(p, upper)) else {
                    continue;
                };
                let range = format!("`{}` = ", p.key);
                // At the bound the range is not what refuses it (another
                // rule may: a 1-cell map, say).
                if let Err(e) = parse(&src, &[format!("{}={inside}", p.key)]) {
                    assert!(
                        !e.message.contains("out of range"),
                        "{sim} {variant:?}: {}={inside} refused: {e}",
                        p.key
                    );
                }
                let e = parse(&src, &[format!("{}={outside}", p.key)])
                    .expect_err(&format!("{sim}: {}={outside} accepted", p.key));
                assert!(
                    e.message.contains(&range) && e.message.contains("out of range"),
                    "{sim} {variant:?}: {}={outside}: {e}",
                    p.key
                );
                let key = p.key.into();
                assert_eq!(e.kind, LessonErrorKind::OutOfRange { key }, "{e}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 80, "only {checked} bounds checked");
}

#[test]
fn bounds_by_another_key_follow_its_value() {
    let weighted = &bases()[4].2;
    let e = parse(weighted, &["min_speed=3".into(), "max_speed=2".into()]).unwrap_err();
    assert!(
        e.message
            .contains("`max_speed` = 2 is out of range: expected 3..=10000"),
        "{e}"
    );
    // Absent, it rises to its floor, as before the schema.
    let l = parse(weighted, &["min_speed=7".into()]).unwrap();
    let Scenario::Flock(c) = l.scenario else {
        panic!()
    };
    let Model::Weighted(w) = c.model else {
        panic!()
    };
    assert_eq!(
        (w.min_speed, w.max_speed),
        (Fx::from_int(7), Fx::from_int(7))
    );
    let gems = &bases()[3].2;
    let e = parse(gems, &["max_speed=2".into(), "desired_speed=3".into()]).unwrap_err();
    assert!(
        e.message
            .contains("`desired_speed` = 3 is out of range: expected 0..=2"),
        "{e}"
    );
}

#[test]
fn model_defaults_are_the_articles() {
    let model = |i: usize| {
        let Scenario::Flock(c) = parse(&bases()[i].2, &[]).unwrap().scenario else {
            panic!()
        };
        c.model
    };
    assert_eq!(model(2), Model::Heading(HeadingParams::default()));
    assert_eq!(model(3), Model::Gems(GemsParams::default()));
    assert_eq!(model(4), Model::Weighted(WeightedParams::default()));
    // The path's search keys: the schema's defaults are SearchConfig's.
    let Scenario::Path(c) = parse(&bases()[1].2, &[]).unwrap().scenario else {
        panic!()
    };
    let d = crate::sim::path::SearchConfig::default();
    assert_eq!(
        (
            c.searches[0].rule,
            c.searches[0].heuristic,
            c.searches[0].tie_break
        ),
        (d.rule, d.heuristic, d.tie_break)
    );
    assert_eq!(
        (c.searches[0].moves, c.searches[0].closed_set),
        (d.moves, d.closed_set)
    );
}

#[test]
fn a_key_of_another_model_is_named_as_such() {
    let weighted = lesson("sim = \"flock\"\nmodel = \"weighted\"\nboids = 5\nview_range = 10");
    let e = Lesson::parse(&weighted, "t.toml").unwrap_err();
    assert_eq!(
        e.message,
        "`view_range` is a key of the heading model; this scenario's model is \"weighted\""
    );
    assert_eq!((e.line, e.column), (11, 1));
    let key = "view_range".into();
    assert_eq!(e.kind, LessonErrorKind::OtherModelKey { key });
    let heading = &bases()[2].2;
    let e = parse(heading, &["w_cohesion=0".into()]).unwrap_err();
    assert_eq!(
        e.message,
        "--set w_cohesion=0: `w_cohesion` is a key of the weighted model; this scenario's model is \"heading\""
    );
    // `fov` is both: the heading model's angle, the weighted's distance.
    assert!(parse(heading, &["fov=270".into()]).is_ok());
    let e = parse(&bases()[4].2, &["fov=270".into()]).unwrap();
    let Scenario::Flock(c) = e.scenario else {
        panic!()
    };
    let Model::Weighted(w) = c.model else {
        panic!()
    };
    assert_eq!(w.fov, Fx::from_int(270));
    let e = parse(&bases()[3].2, &["max_visible=0".into()]).unwrap_err();
    assert!(
        e.message
            .contains("`max_visible` = 0 is out of range: expected 1..=1000"),
        "{e}"
    );
}

#[test]
fn unknown_keys_are_answered_from_the_schema() {
    let e = parse(&bases()[4].2, &["w_cohesoin=0".into()]).unwrap_err();
    let known = schema::keys(schema_of("flock"), Some("weighted")).join(", ");
    assert_eq!(
        e.message,
        format!(
            "--set w_cohesoin=0: unknown key `w_cohesoin` in [scenario] (did you mean `w_cohesion`?); known keys: {known}"
        )
    );
    assert!(known.contains("w_cohesion") && !known.contains("view_range"));
    // In a table, its own keys.
    let src = lesson(
        "sim = \"flock\"\nmodel = \"weighted\"\ndims = 2\n[[scenario.boid]]\nat = [0, 10]\nspeed = 2",
    );
    let e = Lesson::parse(&src, "t.toml").unwrap_err();
    assert_eq!(
        e.message,
        "`speed` is a key of the heading model; this scenario's model is \"weighted\""
    );
    let src = lesson(
        "sim = \"path\"\nwidth = 4\nheight = 4\nstart = [0, 0]\ngoal = [3, 3]\n[[scenario.searches]]\nheuristc = \"zero\"",
    );
    let e = Lesson::parse(&src, "t.toml").unwrap_err();
    assert!(
        e.message
            .starts_with("unknown key `heuristc` in searches[0] (did you mean `heuristic`?)"),
        "{e}"
    );
}

#[test]
fn schemas_are_well_formed() {
    for reg in sims::BUILTIN {
        check_params(reg.name(), reg.params());
    }
}

fn check_params(sim: &str, params: &'static [Param]) {
    assert!(!params.is_empty(), "{sim}: no parameters");
    for p in params {
        assert!(
            !p.help.en.is_empty() && !p.help.ja.is_empty(),
            "{sim}: `{}` has no help",
            p.key
        );
        if let Ty::Choice(names) = p.ty {
            let defaults: Vec<&str> = match p.default {
                DefaultValue::Choice(d) => vec![d],
                DefaultValue::Per(list) => list
                    .iter()
                    .filter_map(|(_, d)| match d {
                        DefaultValue::Choice(c) => Some(*c),
                        _ => None,
                    })
                    .collect(),
                _ => vec![],
            };
            for d in defaults {
                assert!(names.contains(&d), "{sim}: `{}` defaults to {d}", p.key);
            }
        }
        for b in [p.at_least, p.at_most].into_iter().flatten() {
            let before = params.iter().take_while(|q| !std::ptr::eq(*q, p));
            assert!(
                before.clone().any(|q| q.key == b),
                "{sim}: `{}` is bounded by `{b}`, read after it",
                p.key
            );
        }
        if let Ty::Number { min, max } = p.ty {
            assert!(min <= max, "{sim}: `{}`", p.key);
            assert!(!fx_text(max).is_empty());
        }
        if let Ty::Tables(sub) = p.ty {
            check_params(sim, sub);
        }
    }
    // A key appears twice only for different models.
    for (i, p) in params.iter().enumerate() {
        for q in &params[i + 1..] {
            if p.key == q.key {
                assert!(
                    !p.only.is_empty() && !q.only.iter().any(|m| p.only.contains(m)),
                    "{sim}: `{}` twice for one model",
                    p.key
                );
            }
        }
    }
}
