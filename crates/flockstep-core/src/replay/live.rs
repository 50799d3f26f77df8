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

use super::run::{RunError, Source};
use crate::lesson::node::{Kind, Node};
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
    let overrides = with_sets(source, earlier.iter().copied().chain([set]))?;
    Ok(Lesson::parse_unscripted(&source.text, &source.file, &overrides)?.scenario)
}

/// The `--set`s of `source` and those the changes `sets` stand for, in
/// order. The lesson's own changes were checked when it loaded, so it is
/// read here without them.
fn with_sets<'a>(
    source: &Source,
    sets: impl Iterator<Item = &'a Input>,
) -> Result<Vec<Override>, LessonError> {
    let mut overrides = source
        .overrides
        .iter()
        .map(|s| Override::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    let base = Lesson::parse_unscripted(&source.text, &source.file, &overrides)?;
    let shape = Shape::of(&base, &source.text);
    for i in sets {
        overrides.extend(shape.overrides(&base, i)?);
    }
    Ok(overrides)
}

/// The scalar parameters each pane runs with after the changes of a
/// parameter among `inputs` up to tick `until` (a recorded run's: the
/// lesson's own among them), as [`Lesson::params`] gives them.
pub fn params_in_force(
    source: &Source,
    inputs: &BTreeMap<u64, Vec<Input>>,
    until: u64,
) -> Result<Vec<BTreeMap<String, String>>, LessonError> {
    let sets = inputs
        .range(..=until)
        .flat_map(|(_, l)| l)
        .filter(|i| is_set(i));
    let overrides = with_sets(source, sets)?;
    Ok(Lesson::parse_unscripted(&source.text, &source.file, &overrides)?.params)
}

/// Checks a lesson's own changes of a parameter ([`Lesson::inputs`]) as
/// a live change is checked, each with the ones before it; an error names
/// the input's place in the lesson file.
pub(crate) fn check_scripted(
    lesson: &Lesson,
    src: &str,
    file: &str,
    overrides: &[Override],
) -> Result<(), LessonError> {
    let shape = Shape::of(lesson, src);
    let mut with = overrides.to_vec();
    for s in lesson.inputs.iter().filter(|s| is_set(&s.input)) {
        let res = shape.overrides(lesson, &s.input).and_then(|o| {
            with.extend(o);
            Lesson::parse_unscripted(src, file, &with)
        });
        if let Err(e) = res {
            return Err(LessonError {
                kind: crate::lesson::LessonErrorKind::Invalid,
                file: file.to_owned(),
                line: s.line,
                column: s.column,
                message: format!("input `{}:{}`: {}", s.tick, s.input, e.message),
            });
        }
    }
    Ok(())
}

/// A lesson played as the recorder plays it: its sim, stepped with the
/// lesson's own inputs and any others ([`merged`]), each applied just
/// before the step into its tick. What `flockstep run`, the tests and
/// anything else that steps a lesson without recording it use, so that
/// a lesson with `inputs` runs the same everywhere.
pub struct LessonRun {
    /// The sim, at [`AnySim::tick`].
    pub sim: AnySim,
    source: Source,
    lesson: Lesson,
    inputs: BTreeMap<u64, Vec<Input>>,
}

impl LessonRun {
    /// The lesson of `source` at tick 0, to be run with its own inputs
    /// and `made`.
    pub fn new(source: &Source, made: &BTreeMap<u64, Vec<Input>>) -> Result<LessonRun, RunError> {
        let lesson = source.lesson()?;
        let sim = AnySim::new(&lesson.scenario).map_err(|error| RunError::Sim {
            file: source.file.clone(),
            error,
        })?;
        Ok(LessonRun {
            sim,
            inputs: merged(&lesson, made),
            source: source.clone(),
            lesson,
        })
    }

    /// The lesson it plays.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// One step: the inputs that lead into the next tick, then the step.
    pub fn step(&mut self) -> Result<(), RunError> {
        let tick = self.sim.tick() + 1;
        apply_tick(&mut self.sim, &self.source, &self.inputs, tick).map_err(|(k, error)| {
            super::run::input_error(&self.source, &self.lesson, tick, k, error)
        })?;
        self.sim.step();
        Ok(())
    }

    /// Steps until tick `tick` (nothing when it is there or past it).
    pub fn step_to(&mut self, tick: u64) -> Result<(), RunError> {
        while self.sim.tick() < tick {
            self.step()?;
        }
        Ok(())
    }
}

/// Every input a run of `lesson` makes: at each tick the lesson's own
/// ([`Lesson::inputs`]) first, then `made` (a class's, or `record
/// --input`'s) in their order.
pub fn merged(lesson: &Lesson, made: &BTreeMap<u64, Vec<Input>>) -> BTreeMap<u64, Vec<Input>> {
    let mut all = lesson.scripted();
    for (&t, list) in made {
        all.entry(t).or_default().extend(list.iter().cloned());
    }
    all
}

/// The inputs of a recorded run that its lesson did not make itself: at
/// each tick, the recorded list without the lesson's own, which lead it
/// (the inverse of [`merged`]). A tick whose list does not start with the
/// lesson's own keeps its whole list.
pub fn made(lesson: &Lesson, recorded: &BTreeMap<u64, Vec<Input>>) -> BTreeMap<u64, Vec<Input>> {
    let own = lesson.scripted();
    let mut out = BTreeMap::new();
    for (&t, list) in recorded {
        let rest = match own.get(&t) {
            Some(o) if list.starts_with(o) => &list[o.len()..],
            _ => &list[..],
        };
        if !rest.is_empty() {
            out.insert(t, rest.to_vec());
        }
    }
    out
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
    fn of(lesson: &Lesson, text: &str) -> Shape {
        if let Scenario::Panes(p) = &lesson.scenario {
            return Shape {
                lists: Some(("variants", p.len())),
            };
        }
        let searches = match &lesson.scenario {
            Scenario::Path(c) if has_list(text, "searches") => c.searches.len(),
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
        // A key inside a list of tables (`chasers.0.…`) lives in the
        // scenario's own list, which every variant shares unless it writes
        // its own: it changes every pane at once.
        let nested = key.contains('.');
        match (self.lists, pane) {
            (None, None | Some(0)) => Ok(vec![one(String::new())?]),
            (Some(("variants", _)), None) if nested => Ok(vec![one(String::new())?]),
            (Some(("variants", _)), Some(_)) if nested => Err(refuse(format!(
                "`{key}` changes every pane at once in a lesson with variants (Tab to every pane)"
            ))),
            (None, Some(p)) => Err(refuse(format!("the lesson has one pane, not a pane {p}"))),
            (Some((list, n)), Some(p)) if *p as usize >= n => {
                Err(refuse(format!("the lesson has {n} {list}, not a pane {p}")))
            }
            (Some((list, _)), Some(p)) => Ok(vec![one(format!("{list}.{p}."))?]),
            (Some((list, n)), None) => (0..n).map(|p| one(format!("{list}.{p}."))).collect(),
        }
    }
}

/// Whether the lesson text's `[scenario]` has a list `name`.
fn has_list(text: &str, name: &str) -> bool {
    read(text).is_some_and(|doc| {
        doc.get("scenario")
            .and_then(|s| s.get(name))
            .is_some_and(|v| matches!(v, W::Array(_)))
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

/// The values a lesson's list of tables gives `key` in each of `panes`
/// panes: per pane, one per entry of the list (`[[scenario.LIST]]`, or a
/// variant's own), as `--set` writes them (`None`: the entry does not set
/// it). The panel reads nested varied keys (`LIST.N.KEY`) from here, so
/// a user's sim with one gets its controls as the bundled ones do.
pub fn nested_values(text: &str, list: &str, key: &str, panes: usize) -> Vec<Vec<Option<String>>> {
    let Some(doc) = read(text) else {
        return vec![Vec::new(); panes];
    };
    let scenario = doc.get("scenario");
    let variants = match scenario.and_then(|s| s.get("variants")) {
        Some(W::Array(v)) => v.as_slice(),
        _ => &[],
    };
    (0..panes)
        .map(|i| {
            let own = variants.get(i).and_then(|v| v.get(list));
            match own.or_else(|| scenario.and_then(|s| s.get(list))) {
                Some(W::Array(items)) => items.iter().map(|t| t.get(key).map(value)).collect(),
                _ => Vec::new(),
            }
        })
        .collect()
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
/// its title says it is a what-if, and its one beat lists the changes;
/// the lesson's own inputs after `tick` stay its inputs.
/// Positions a run reached (boids, chasers) are not edits: the new lesson
/// starts where the old one did.
pub fn whatif_lesson(
    source: &Source,
    inputs: &BTreeMap<u64, Vec<Input>>,
    tick: u64,
    sim: &AnySim,
) -> Result<String, LessonError> {
    let lesson = source.lesson()?;
    let shape = Shape::of(&lesson, &source.text);
    let fail = |message: String| LessonError {
        kind: crate::lesson::LessonErrorKind::Set,
        file: source.file.clone(),
        line: 0,
        column: 0,
        message,
    };
    let mut doc = read(&source.text).ok_or_else(|| fail("the lesson does not read".into()))?;
    let made: Vec<&Input> = inputs.range(..=tick + 1).flat_map(|(_, l)| l).collect();
    let mut said = Vec::new();
    let mut overrides = source
        .overrides
        .iter()
        .map(|s| Override::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    for i in made.iter().filter(|i| is_set(i)) {
        overrides.extend(shape.overrides(&lesson, i)?);
        said.push(i.to_string());
    }
    let scenario = doc
        .get_mut("scenario")
        .ok_or_else(|| fail("the lesson has no [scenario] table".into()))?;
    for o in &overrides {
        scenario
            .put(&o.path, parse_value(&o.value))
            .map_err(&fail)?;
    }
    edit_places(scenario, &made, sim, &mut said);
    // The lesson's own inputs still to come stay inputs of the what-if.
    let later: Vec<W> = lesson
        .inputs
        .iter()
        .filter(|s| s.tick > tick + 1)
        .map(|s| W::Str(format!("{}:{}", s.tick, s.input)))
        .collect();
    let text = lesson_toml(doc, &lesson.id, &said, later).map_err(&fail)?;
    // The what-if must load before it is offered.
    Lesson::parse(&text, &format!("{}-whatif.toml", lesson.id))?;
    Ok(text)
}

/// A TOML value as the what-if lesson writes it back: a float keeps the
/// decimal it was written with.
#[derive(Clone, Debug, PartialEq)]
enum W {
    Int(i64),
    Float(String),
    Bool(bool),
    Str(String),
    Array(Vec<W>),
    Table(Vec<(String, W)>),
}

impl W {
    /// The value tree of a parsed node, floats read from `src`.
    fn of(n: &Node, src: &str) -> W {
        match &n.kind {
            Kind::Int(i) => W::Int(*i),
            Kind::Float => W::Float(src.get(n.span.clone()).unwrap_or("0.0").trim().to_owned()),
            Kind::Bool(b) => W::Bool(*b),
            Kind::Str(s) => W::Str(s.clone()),
            Kind::Array(a) => W::Array(a.iter().map(|n| W::of(n, src)).collect()),
            Kind::Table(t) => W::Table(
                t.iter()
                    .map(|(k, _, n)| (k.clone(), W::of(n, src)))
                    .collect(),
            ),
        }
    }

    fn get(&self, key: &str) -> Option<&W> {
        match self {
            W::Table(t) => t.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut W> {
        match self {
            W::Table(t) => t.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` of a table (added last when new).
    fn insert(&mut self, key: &str, value: W) {
        if let Some(v) = self.get_mut(key) {
            *v = value;
        } else if let W::Table(t) = self {
            t.push((key.to_owned(), value));
        }
    }

    fn remove(&mut self, key: &str) {
        if let W::Table(t) = self {
            t.retain(|(k, _)| k != key);
        }
    }

    /// Sets `path` (dotted, list indices included), as `--set` does.
    fn put(&mut self, path: &[String], value: W) -> Result<(), String> {
        let (head, rest) = path.split_first().ok_or("an empty key")?;
        if let W::Array(items) = self {
            let len = items.len();
            let item = head
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get_mut(i))
                .ok_or_else(|| format!("`{head}` is not an index into a list of {len}"))?;
            return if rest.is_empty() {
                *item = value;
                Ok(())
            } else {
                item.put(rest, value)
            };
        }
        if !matches!(self, W::Table(_)) {
            return Err(format!("`{head}` is inside a value that is not a table"));
        }
        if rest.is_empty() {
            self.insert(head, value);
            return Ok(());
        }
        if self.get(head).is_none() {
            self.insert(head, W::Table(Vec::new()));
        }
        self.get_mut(head).expect("just made").put(rest, value)
    }
}

/// A lesson text's value tree, or `None` if it is not TOML.
fn read(text: &str) -> Option<W> {
    let node: Node = toml::from_str(text).ok()?;
    Some(W::of(&node, text))
}

/// A `--set` value: TOML, or a bare word as a string.
fn parse_value(value: &str) -> W {
    let doc = format!("v = {value}");
    read(&doc)
        .and_then(|t| t.get("v").cloned())
        .unwrap_or_else(|| W::Str(value.to_owned()))
}

/// Writes the painted map and the moved start and goal into `scenario`.
fn edit_places(scenario: &mut W, made: &[&Input], sim: &AnySim, said: &mut Vec<String>) {
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
        scenario.insert("map", W::Str(g.to_ascii()));
        said.push("the map as painted".into());
    }
    if let AnySim::Path(s) = first {
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
                let cell = W::Array(vec![W::Int(i64::from(at.x)), W::Int(i64::from(at.y))]);
                scenario.insert(key, cell);
                said.push(format!("{key} at {at}"));
            }
        }
    }
}

/// The new lesson's text: `[lesson]` (a new id and title), `[scenario]`,
/// and one beat that says what changed.
fn lesson_toml(mut doc: W, id: &str, said: &[String], later: Vec<W>) -> Result<String, String> {
    let meta = doc
        .get_mut("lesson")
        .ok_or("the lesson has no [lesson] table")?;
    let title = match meta.get("title") {
        Some(W::Str(t)) => t.clone(),
        _ => id.to_owned(),
    };
    meta.insert("id", W::Str(format!("{id}-whatif")));
    meta.insert("title", W::Str(format!("What if: {title}")));
    for key in [
        "title_translations",
        "course",
        "predict_title",
        "predict_title_translations",
    ] {
        meta.remove(key);
    }
    if later.is_empty() {
        meta.remove("inputs");
    } else {
        meta.insert("inputs", W::Array(later));
    }
    let changes = if said.is_empty() {
        "nothing yet".to_owned()
    } else {
        said.join("; ")
    };
    let beat = W::Table(vec![
        ("at".into(), W::Int(0)),
        ("pause".into(), W::Bool(true)),
        (
            "text".into(),
            W::Str(format!(
                "What if? The lesson `{id}` from the start with: {changes}. Press Space and watch."
            )),
        ),
        (
            "translations".into(),
            W::Table(vec![(
                "ja".into(),
                W::Str(format!(
                    "もしも? レッスン `{id}` を最初から、次の変更で: {changes}。Space を押して見てください。"
                )),
            )]),
        ),
    ]);
    let mut out = String::new();
    for (header, key) in [("[lesson]", "lesson"), ("[scenario]", "scenario")] {
        section(&mut out, header, doc.get(key).ok_or("a table is missing")?);
    }
    section(&mut out, "[[beat]]", &beat);
    Ok(out)
}

/// Writes a table under `header`: its values `key = value`, each list of
/// tables (a lesson's variants or searches) as `[[header.key]]` sections
/// after them. (A small writer of the values lessons hold: the toml
/// crate's own would add a tenth to the web module.)
fn section(out: &mut String, header: &str, t: &W) {
    let W::Table(entries) = t else { return };
    out.push_str(header);
    out.push('\n');
    let is_tables = |v: &W| matches!(v, W::Array(a) if !a.is_empty() && a.iter().all(|i| matches!(i, W::Table(_))));
    for (k, v) in entries.iter().filter(|(_, v)| !is_tables(v)) {
        out.push_str(&format!("{} = {}\n", key(k), value(v)));
    }
    out.push('\n');
    let name = header.trim_matches(|c| c == '[' || c == ']');
    for (k, v) in entries.iter().filter(|(_, v)| is_tables(v)) {
        if let W::Array(items) = v {
            for item in items {
                section(out, &format!("[[{name}.{}]]", key(k)), item);
            }
        }
    }
}

/// A key, quoted unless bare.
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_owned()
    } else {
        quoted(k)
    }
}

/// A basic string: `"`, `\` and control characters escaped.
fn quoted(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            c if c.is_control() => q.push_str(&format!("\\u{:04X}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// A value on one line, but a string of several lines (a map) as a
/// multi-line string.
fn value(v: &W) -> String {
    match v {
        W::Str(s) if s.contains('\n') && !s.contains("\"\"\"") && !s.contains('\\') => {
            format!("\"\"\"\n{s}\"\"\"")
        }
        W::Str(s) => quoted(s),
        W::Int(i) => i.to_string(),
        W::Float(f) => f.clone(),
        W::Bool(b) => b.to_string(),
        W::Array(a) => format!("[{}]", a.iter().map(value).collect::<Vec<_>>().join(", ")),
        W::Table(t) => {
            let items: Vec<String> = t
                .iter()
                .map(|(k, v)| format!("{} = {}", key(k), value(v)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
    }
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
    fn nested_values_come_from_the_scenarios_list_or_a_variants_own() {
        let text = "[lesson]\nid = \"a\"\n[scenario]\nsim = \"x\"\n\
            list = [{ again = true }, { other = 1 }]\n\
            [[scenario.variants]]\nname = \"a\"\n\
            [[scenario.variants]]\nname = \"b\"\nlist = [{ again = false }]\n";
        assert_eq!(
            nested_values(text, "list", "again", 2),
            [
                vec![Some("true".to_owned()), None],
                vec![Some("false".to_owned())]
            ]
        );
        assert_eq!(
            nested_values(text, "none", "again", 1),
            [Vec::<Option<String>>::new()]
        );
        assert_eq!(
            nested_values("not toml [", "list", "again", 1),
            [Vec::<Option<String>>::new()]
        );
    }

    #[test]
    fn the_lesson_writer_reads_back() {
        let text = "[lesson]\nid = \"a\"\nt = \"say \\\"hi\\\" \\\\ \\u0001\"\nm = \"\"\"\n12\n#3\n\"\"\"\n\
                    x = [[1, 2], [3, 4]]\nf = 0.35\ng = 2.0\nb = true\nc = { ja = \"猫\" }\n\
                    [[lesson.list]]\nk = 1\n[[lesson.list]]\nk = 2.50\n";
        let t = read(text).unwrap();
        let mut out = String::new();
        section(&mut out, "[lesson]", t.get("lesson").unwrap());
        assert_eq!(read(&out), Some(t), "{out}");
        assert!(
            out.contains("m = \"\"\"\n12\n#3\n\"\"\""),
            "a map stays a picture: {out}"
        );
        assert!(out.contains("k = 2.50"), "a decimal as written: {out}");
    }

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
