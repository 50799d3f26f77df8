//! Live changes: a teacher's what-ifs applied to a running sim through
//! its lesson, so that every change is checked exactly as a lesson file's
//! `--set` is and a run with changes replays bit for bit.
//!
//! A change of a parameter ([`Input::Set`]) is a `--set KEY=VALUE` that
//! takes effect at a tick: the lesson is read again with its own
//! overrides, every change before this one (earlier ticks, and earlier in
//! the same tick's list) and this one, and the sim takes the parameters of
//! the scenario that gives ([`AnySim::reconfigure`]), keeping its state
//! and whatever other inputs moved or painted. Only the keys a teacher
//! varies ([`crate::lesson::schema::Param::vary`]) change while a sim
//! runs; other keys (a seed, a map, a boid's start) make another run,
//! started with `--set`.
//!
//! Every place that applies a recorded input — the recorder, `verify`,
//! the viewer's seeks — goes through [`apply_tick`], so they agree.

use super::run::Source;
use crate::lesson::schema::{Param, Ty};
use crate::lesson::{Lesson, LessonError, Override};
use crate::sim::{AnySim, Input, Scenario, SimError};
use std::collections::BTreeMap;

/// Applies the inputs that lead into `tick` (`inputs` holds them by the
/// tick they lead into) to `sim`, in order, stopping at the first that
/// does not apply (its index in the tick's list, and why). Changes of a
/// parameter are checked against `source`'s lesson with every change
/// before them.
pub fn apply_tick(
    sim: &mut AnySim,
    source: &Source,
    inputs: &BTreeMap<u64, Vec<Input>>,
    tick: u64,
) -> Result<(), (usize, SimError)> {
    let Some(list) = inputs.get(&tick) else {
        return Ok(());
    };
    let mut earlier: Vec<&Input> = if list.iter().any(is_set) {
        inputs
            .range(..tick)
            .flat_map(|(_, l)| l)
            .filter(|i| is_set(i))
            .collect()
    } else {
        Vec::new()
    };
    for (k, input) in list.iter().enumerate() {
        apply(sim, source, &earlier, input).map_err(|e| (k, e))?;
        if is_set(input) {
            earlier.push(input);
        }
    }
    Ok(())
}

/// Applies one input to `sim`: a change of a parameter through the
/// lesson of `source` with the changes `earlier` (in order) before it,
/// any other input as [`AnySim::apply`] does. The sim is unchanged on
/// error.
pub fn apply(
    sim: &mut AnySim,
    source: &Source,
    earlier: &[&Input],
    input: &Input,
) -> Result<(), SimError> {
    let Input::Set { pane, .. } = input else {
        return sim.apply(input);
    };
    let scenario =
        scenario_with(source, earlier, input).map_err(|e| SimError::input(e.to_string()))?;
    sim.reconfigure(*pane, &scenario)
}

/// The lesson's scenario with the changes `earlier` and then `set`
/// applied, checked as the lesson file with those `--set`s would be.
pub fn scenario_with(
    source: &Source,
    earlier: &[&Input],
    set: &Input,
) -> Result<Scenario, LessonError> {
    let base = source.lesson()?;
    let shape = Shape::of(&base, source);
    let mut overrides = source
        .overrides
        .iter()
        .map(|s| Override::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    for i in earlier.iter().copied().chain([set]) {
        overrides.extend(shape.overrides(&base, i)?);
    }
    Ok(Lesson::parse_with(&source.text, &source.file, &overrides)?.scenario)
}

fn is_set(i: &Input) -> bool {
    matches!(i, Input::Set { .. })
}

/// Where a lesson's panes come from, so a change names the right key.
struct Shape {
    /// `variants` or `searches` with their count; `None`: one pane.
    lists: Option<(&'static str, usize)>,
}

impl Shape {
    fn of(lesson: &Lesson, source: &Source) -> Shape {
        if let Scenario::Panes(p) = &lesson.scenario {
            return Shape {
                lists: Some(("variants", p.len())),
            };
        }
        let searches = match &lesson.scenario {
            Scenario::Path(c) if has_list(&source.text, "searches") => c.searches.len(),
            _ => 0,
        };
        Shape {
            lists: (searches > 0).then_some(("searches", searches)),
        }
    }

    /// The `--set`s a change stands for: its key in its pane's table, or
    /// in every pane's.
    fn overrides(&self, lesson: &Lesson, set: &Input) -> Result<Vec<Override>, LessonError> {
        let Input::Set { pane, key, value } = set else {
            return Ok(Vec::new());
        };
        let refuse = |message: String| LessonError {
            kind: crate::lesson::LessonErrorKind::Set,
            file: "--set".into(),
            line: 0,
            column: 0,
            message,
        };
        let schema = lesson.sim.params();
        if !varies(schema, key) {
            return Err(refuse(format!(
                "`{key}` does not change while a {} sim runs; the keys that do: {} (start again with --set {key}=…)",
                lesson.sim.name(),
                vary_keys(schema, model_of(&lesson.scenario)).join(", ")
            )));
        }
        // Messages name the change as it was made, not its pane's table.
        let one = |prefix: String| {
            Override::parse(&format!("{prefix}{key}={value}")).map(|mut o| {
                o.arg = format!("{key}={value}");
                o
            })
        };
        match (self.lists, pane) {
            (None, None | Some(0)) => Ok(vec![one(String::new())?]),
            (None, Some(p)) => Err(refuse(format!("the lesson has one pane, not a pane {p}"))),
            (Some((list, n)), Some(p)) if *p as usize >= n => {
                Err(refuse(format!("the lesson has {n} {list}, not a pane {p}")))
            }
            (Some((list, _)), Some(p)) => Ok(vec![one(format!("{list}.{p}."))?]),
            (Some((list, n)), None) => (0..n).map(|p| one(format!("{list}.{p}."))).collect(),
        }
    }
}

/// Whether the lesson text's `[scenario]` has a list of tables `name`.
fn has_list(text: &str, name: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| {
        t.get("scenario")
            .and_then(|s| s.get(name))
            .is_some_and(toml::Value::is_array)
    })
}

/// Whether `key` (dotted, list indices included) names a parameter a
/// teacher varies.
pub fn varies(schema: &[Param], key: &str) -> bool {
    let mut params = schema;
    let mut parts = key.split('.').peekable();
    while let Some(part) = parts.next() {
        if part.parse::<u32>().is_ok() {
            continue;
        }
        let mut found = params.iter().filter(|p| p.key == part);
        let Some(first) = found.clone().next() else {
            return false;
        };
        if parts.peek().is_none() {
            return found.any(|p| p.vary);
        }
        match first.ty {
            Ty::Tables(inner) => params = inner,
            _ => return false,
        }
    }
    false
}

/// The schema variant (a flock's model) a scenario reads its keys by.
pub fn model_of(scenario: &Scenario) -> Option<&'static str> {
    match scenario.panes().first() {
        Some(Scenario::Flock(c)) => Some(c.model.name()),
        _ => None,
    }
}

/// The keys of `schema` a teacher varies for `variant` (a flock's model;
/// `None`: every variant), nested ones as `list.N.key`, without repeats,
/// in schema order.
pub fn vary_keys(schema: &[Param], variant: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in schema.iter().filter(|p| p.applies(variant)) {
        let mut add = |k: String| {
            if !out.contains(&k) {
                out.push(k);
            }
        };
        if p.vary {
            add(p.key.to_owned());
        }
        if let Ty::Tables(inner) = p.ty {
            for q in inner
                .iter()
                .filter(|q| q.vary && !schema.iter().any(|t| t.key == q.key))
            {
                add(format!("{}.N.{}", p.key, q.key));
            }
        }
    }
    out
}

/// The changes of a parameter among `inputs`, with their ticks, in order.
pub fn sets(inputs: &BTreeMap<u64, Vec<Input>>) -> Vec<(u64, &Input)> {
    inputs
        .iter()
        .flat_map(|(&t, l)| l.iter().filter(|i| is_set(i)).map(move |i| (t, i)))
        .collect()
}

/// The lesson a what-if makes: the lesson of `source` with, from tick 0,
/// the parameters in force after `inputs` up to `tick` (every change of a
/// parameter, in order), the map as painted (its cells written out as a
/// `map`) and a path's start and goal where they were moved — as TOML
/// text that loads ([`Lesson::parse`]) and plays. Its id is `ID-whatif`,
/// its title says it is a what-if, and its one beat lists the changes.
/// Positions a run reached (boids, chasers) are not edits: the new lesson
/// starts where the old one did.
pub fn whatif_lesson(
    source: &Source,
    inputs: &BTreeMap<u64, Vec<Input>>,
    tick: u64,
    sim: &AnySim,
) -> Result<String, LessonError> {
    let lesson = source.lesson()?;
    let shape = Shape::of(&lesson, source);
    let fail = |message: String| LessonError {
        kind: crate::lesson::LessonErrorKind::Set,
        file: source.file.clone(),
        line: 0,
        column: 0,
        message,
    };
    let mut doc: toml::Table =
        toml::from_str(&source.text).map_err(|e| fail(format!("the lesson does not read: {e}")))?;
    let mut scenario = match doc.remove("scenario") {
        Some(toml::Value::Table(t)) => t,
        _ => return Err(fail("the lesson has no [scenario] table".into())),
    };
    let made: Vec<&Input> = inputs.range(..=tick + 1).flat_map(|(_, l)| l).collect();
    let mut said = Vec::new();
    for o in source
        .overrides
        .iter()
        .map(|s| Override::parse(s))
        .collect::<Result<Vec<_>, _>>()?
    {
        put(&mut scenario, &o.path, &o.value).map_err(&fail)?;
    }
    for i in made.iter().filter(|i| is_set(i)) {
        for o in shape.overrides(&lesson, i)? {
            put(&mut scenario, &o.path, &o.value).map_err(&fail)?;
        }
        said.push(i.to_string());
    }
    edit_places(&mut scenario, &made, sim, &mut said);
    // The what-if must load before it is offered.
    let text = lesson_toml(doc, scenario, &lesson.id, &said).map_err(&fail)?;
    Lesson::parse(&text, &format!("{}-whatif.toml", lesson.id))?;
    Ok(text)
}

/// Writes the painted map and the moved start and goal into `scenario`.
fn edit_places(scenario: &mut toml::Table, made: &[&Input], sim: &AnySim, said: &mut Vec<String>) {
    let painted = made.iter().any(|i| matches!(i, Input::Ground { .. }));
    let first = &sim.panes()[0];
    let grid = match first {
        AnySim::Path(s) => Some(&s.config().grid),
        AnySim::Line(s) => Some(&s.config().grid),
        _ => None,
    };
    if let (true, Some(g)) = (painted, grid) {
        for key in ["width", "height", "levels", "walls"] {
            scenario.remove(key);
        }
        if matches!(first, AnySim::Path(_)) {
            scenario.remove("seed");
        }
        scenario.insert("map".into(), toml::Value::String(g.to_ascii()));
        said.push("the map as painted".into());
    }
    if let AnySim::Path(s) = first {
        let cell = |c: crate::sim::Cell| {
            toml::Value::Array(vec![i64::from(c.x).into(), i64::from(c.y).into()])
        };
        for (key, moved, at) in [
            (
                "start",
                made.iter().any(|i| matches!(i, Input::MoveStart { .. })),
                s.config().start,
            ),
            (
                "goal",
                made.iter().any(|i| matches!(i, Input::MoveGoal { .. })),
                s.config().goal,
            ),
        ] {
            if moved {
                scenario.insert(key.into(), cell(at));
                said.push(format!("{key} at {at}"));
            }
        }
    }
}

/// Sets `path` (dotted, list indices included) of `table` to `value` as
/// `--set` reads it (TOML, or a bare word as a string).
fn put(table: &mut toml::Table, path: &[String], value: &str) -> Result<(), String> {
    let parsed: toml::Value = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_owned()));
    let mut root = toml::Value::Table(core::mem::take(table));
    let done = put_in(&mut root, path, parsed);
    if let toml::Value::Table(t) = root {
        *table = t;
    }
    done
}

fn put_in(at: &mut toml::Value, path: &[String], value: toml::Value) -> Result<(), String> {
    let (head, rest) = path.split_first().ok_or("an empty key")?;
    let next = match at {
        toml::Value::Table(t) if rest.is_empty() => {
            t.insert(head.clone(), value);
            return Ok(());
        }
        toml::Value::Table(t) => t
            .entry(head.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new())),
        toml::Value::Array(items) => {
            let len = items.len();
            let item = head
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or_else(|| format!("`{head}` is not an index into a list of {len}"))?;
            if rest.is_empty() {
                *item = value;
                return Ok(());
            }
            item
        }
        _ => return Err(format!("`{head}` is inside a value that is not a table")),
    };
    put_in(next, rest, value)
}

/// The new lesson's text: `[lesson]` (a new id and title), `[scenario]`,
/// and one beat that says what changed.
fn lesson_toml(
    mut doc: toml::Table,
    scenario: toml::Table,
    id: &str,
    said: &[String],
) -> Result<String, String> {
    let mut meta = match doc.remove("lesson") {
        Some(toml::Value::Table(t)) => t,
        _ => return Err("the lesson has no [lesson] table".into()),
    };
    let title = meta
        .get("title")
        .and_then(toml::Value::as_str)
        .unwrap_or(id)
        .to_owned();
    meta.insert("id".into(), format!("{id}-whatif").into());
    meta.insert("title".into(), format!("What if: {title}").into());
    meta.remove("title_translations");
    meta.remove("course");
    meta.remove("predict_title");
    meta.remove("predict_title_translations");
    let changes = if said.is_empty() {
        "nothing yet".to_owned()
    } else {
        said.join("; ")
    };
    let mut beat = toml::Table::new();
    beat.insert("at".into(), 0.into());
    beat.insert("pause".into(), true.into());
    beat.insert(
        "text".into(),
        format!(
            "What if? The lesson `{id}` from the start with: {changes}. Press Space and watch."
        )
        .into(),
    );
    let mut out = String::new();
    for (name, value) in [
        ("lesson", toml::Value::Table(meta)),
        ("scenario", toml::Value::Table(scenario)),
        ("beat", toml::Value::Array(vec![toml::Value::Table(beat)])),
    ] {
        let mut one = toml::Table::new();
        one.insert(name.into(), value);
        out.push_str(&toml::to_string_pretty(&one).map_err(|e| e.to_string())?);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::schema::Param;

    const NESTED: [Param; 1] = [Param::flag("again", false).vary()];
    const SCHEMA: [Param; 3] = [
        Param::flag("a", false).vary(),
        Param::flag("b", false),
        Param::new("list", Ty::Tables(&NESTED)),
    ];

    #[test]
    fn only_varied_keys_change_while_running() {
        assert!(varies(&SCHEMA, "a"));
        assert!(!varies(&SCHEMA, "b"));
        assert!(!varies(&SCHEMA, "c"));
        assert!(varies(&SCHEMA, "list.0.again"));
        assert!(!varies(&SCHEMA, "list.0.b"));
        assert!(!varies(&SCHEMA, "a.0"));
        assert_eq!(vary_keys(&SCHEMA, None), ["a", "list.N.again"]);
    }
}
