//! `record`, `info`, `dump`, `verify` and `diff`: printing around
//! [`crate::replay`].

use super::{Failure, bad, lesson_source};
use crate::lesson::{Lesson, MAX_TICKS, Override};
use crate::replay::live;
use crate::replay::run::{self, Source, Verdict};
use crate::replay::{End, Replay, ReplayError, fields};
use crate::sim::{AnyState, Input};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::time::Instant;

impl From<ReplayError> for Failure {
    fn from(e: ReplayError) -> Failure {
        bad(e.to_string())
    }
}

/// A progress bar on standard error when it is a terminal; hidden (and
/// free) otherwise.
fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:40}] {pos}/{len} ticks, {elapsed_precise} elapsed, eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar
}

fn open(path: &Path) -> Result<Replay<BufReader<File>>, Failure> {
    Ok(Replay::open(path)?)
}

/// `flockstep record`.
pub fn record(
    arg: &str,
    output: Option<PathBuf>,
    ticks: Option<u64>,
    set: Vec<String>,
    keyframe_every: Option<u32>,
    input_args: Vec<(u64, Input)>,
) -> Result<String, Failure> {
    for s in &set {
        Override::parse(s).map_err(|e| bad(e.to_string()))?;
    }
    let (text, file) = lesson_source(arg)?;
    let source = Source {
        file,
        text,
        overrides: set,
    };
    let lesson = source.lesson().map_err(|e| bad(e.to_string()))?;
    let inputs = checked_inputs(&source, &lesson, input_args)?;
    let ticks = ticks.unwrap_or(lesson.ticks);
    if ticks > MAX_TICKS {
        return Err(bad(format!(
            "--ticks {ticks} is more than the limit of {MAX_TICKS}"
        )));
    }
    let out = output.unwrap_or_else(|| PathBuf::from(format!("{}.fsr", lesson.id)));
    let (target, file) = super::output::Target::choose(&out, Path::new(arg))?;
    let to_stdout = target.is_stdout();
    let bar = progress(ticks, &lesson.id);
    let start = Instant::now();
    let result = run::record(
        BufWriter::with_capacity(1 << 16, file),
        &source,
        ticks,
        keyframe_every,
        &inputs,
        |t| {
            if t % 64 == 0 {
                bar.set_position(t);
            }
        },
    );
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let rec = target.complete(result)?;
    let mut s = String::new();
    let _ = writeln!(s, "recorded  {} ({})", lesson.id, lesson.title);
    let to = if out == Path::new("-") {
        "standard output".to_owned()
    } else {
        out.display().to_string()
    };
    let _ = writeln!(s, "to        {to}");
    let _ = writeln!(s, "ticks     0..={}", rec.last_tick);
    let _ = writeln!(
        s,
        "size      {} bytes, {:.1} bytes/tick",
        rec.bytes,
        rec.bytes as f64 / (rec.last_tick + 1) as f64
    );
    let _ = writeln!(s, "time      {:.3} s", secs);
    let _ = writeln!(s, "hash      {:#018x}", rec.final_hash);
    if to_stdout {
        // The replay went to standard output: the summary must not.
        eprint!("{s}");
        return Ok(String::new());
    }
    Ok(s)
}

/// The `info` text of an open replay (its integrity line excluded).
pub fn describe<R: std::io::Read + std::io::Seek>(r: &Replay<R>) -> String {
    let h = &r.header;
    let m = &r.meta;
    let mut s = String::new();
    let _ = writeln!(s, "file         {}", r.file());
    let _ = writeln!(
        s,
        "format       {}.{}: codec {} (bincode 2.0.1, fixed-int, little-endian), zstd, state schema {}, I{}F{}",
        h.major, h.minor, h.codec, h.schema, h.int_bits, h.frac_bits
    );
    let _ = writeln!(s, "recorded by  flockstep {}", m.flockstep);
    let title = match Source::of(m).lesson() {
        Ok(l) => l.title,
        Err(e) => format!("(does not load with this flockstep: {e})"),
    };
    let _ = writeln!(s, "lesson       {} — {}", m.lesson_id, title);
    let _ = writeln!(s, "from         {}", m.lesson_file);
    let _ = writeln!(
        s,
        "overrides    {}",
        if m.overrides.is_empty() {
            "none".to_owned()
        } else {
            let shown: Vec<String> = m.overrides.iter().map(|o| crate::lesson::clip(o)).collect();
            shown.join(" ")
        }
    );
    let _ = writeln!(
        s,
        "sim          {}, seed {}, tick length {}",
        h.sim.name(),
        h.seed,
        fields::Value::Fx(h.dt_bits)
    );
    let frames = r
        .last_tick
        .map_or(0, |l| (l - r.first_tick).saturating_add(1));
    let ticks = match r.last_tick {
        Some(l) => format!("{}..={l}", r.first_tick),
        None => "none".to_owned(),
    };
    let _ = writeln!(
        s,
        "ticks        {ticks} ({frames} {}, {} {}, one every {} ticks)",
        if frames == 1 { "frame" } else { "frames" },
        r.keyframes.len(),
        if r.keyframes.len() == 1 {
            "keyframe"
        } else {
            "keyframes"
        },
        h.keyframe_every
    );
    let _ = writeln!(
        s,
        "size         {} bytes: {} of header and lesson, {:.1} bytes per tick",
        r.len,
        r.data_start,
        if frames > 0 {
            (r.len - r.data_start) as f64 / frames as f64
        } else {
            0.0
        }
    );
    printable(&s)
}

/// `s` with control characters other than line ends shown as escapes
/// (`\u{1b}`): a replay's metadata is the recorder's text, and escape
/// sequences in it must not reach the terminal.
pub fn printable(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The `--input`s by tick, in the order given within a tick; every
/// change of a parameter checked against the lesson (with the changes
/// before it) before anything is simulated.
/// The `--input`s by tick, their changes of a parameter checked with
/// every change before them (the lesson's own too) before anything runs.
fn checked_inputs(
    source: &Source,
    lesson: &Lesson,
    args: Vec<(u64, Input)>,
) -> Result<BTreeMap<u64, Vec<Input>>, Failure> {
    let mut inputs: BTreeMap<u64, Vec<Input>> = BTreeMap::new();
    for (tick, input) in args {
        inputs.entry(tick).or_default().push(input);
    }
    let all = live::merged(lesson, &inputs);
    let sets = live::sets(&all);
    for (k, (tick, set)) in sets.iter().enumerate() {
        let earlier: Vec<&Input> = sets[..k].iter().map(|(_, i)| *i).collect();
        live::scenario_with(source, &earlier, set).map_err(|e| {
            let whose = if inputs.get(tick).is_some_and(|l| l.contains(set)) {
                "--input"
            } else {
                "the lesson's input"
            };
            bad(format!("{whose} {tick}:{set}: {e}"))
        })?;
    }
    Ok(inputs)
}

/// How many inputs `info` lists one a line; the rest are counted.
const LISTED_INPUTS: usize = 24;

/// `info`'s lines on the inputs: each with the tick it leads into, in the
/// syntax `record --input` takes.
fn inputs_listing<R: std::io::Read + std::io::Seek>(r: &mut Replay<R>) -> Result<String, Failure> {
    let all = all_inputs(r)?;
    // The recorded lesson's own inputs lead each tick's list.
    let mut own = Source::of(&r.meta)
        .lesson()
        .map(|l| l.scripted())
        .unwrap_or_default();
    let mut s = String::new();
    if all.is_empty() {
        let _ = writeln!(s, "inputs       none: the lesson as written");
    }
    for (tick, i) in all.iter().take(LISTED_INPUTS) {
        let mine = own.get_mut(tick).filter(|l| l.first() == Some(i));
        let whose = if let Some(l) = mine {
            l.remove(0);
            "   (the lesson's own)"
        } else {
            ""
        };
        let _ = writeln!(s, "input        {tick}:{i}{whose}");
    }
    if all.len() > LISTED_INPUTS {
        let _ = writeln!(
            s,
            "             … and {} more (flockstep dump --tick N shows a tick's)",
            all.len() - LISTED_INPUTS
        );
    }
    Ok(s)
}

/// Every input of a replay with the tick it leads into, in order.
fn all_inputs<R: std::io::Read + std::io::Seek>(
    r: &mut Replay<R>,
) -> Result<Vec<(u64, Input)>, ReplayError> {
    let mut all = Vec::new();
    for f in r.frames() {
        let f = f?;
        all.extend(f.inputs.into_iter().map(|i| (f.tick, i)));
    }
    Ok(all)
}

/// Where two runs' inputs part: the first tick at which they differ,
/// with each side's inputs there (`none` for none).
fn inputs_part(a: &[(u64, Input)], b: &[(u64, Input)]) -> Option<String> {
    let at = |list: &[(u64, Input)], t: u64| -> String {
        let here: Vec<String> = list
            .iter()
            .filter(|(k, _)| *k == t)
            .map(|(_, i)| i.to_string())
            .collect();
        if here.is_empty() {
            "none".to_owned()
        } else {
            here.join(" ")
        }
    };
    let ticks: std::collections::BTreeSet<u64> = a.iter().chain(b).map(|(t, _)| *t).collect();
    let t = ticks.into_iter().find(|&t| at(a, t) != at(b, t))?;
    Some(format!(
        "the inputs part at tick {t}: a makes {}, b {}",
        at(a, t),
        at(b, t)
    ))
}

/// `flockstep info`.
pub fn info(path: &Path) -> Result<String, Failure> {
    let mut r = open(path)?;
    let mut s = describe(&r);
    let bar = progress(r.last_tick.map_or(0, |l| l.saturating_add(1)), "checking");
    let checked = r.check_all();
    bar.finish_and_clear();
    let n = checked?;
    s.push_str(&inputs_listing(&mut r)?);
    let final_hash = match r.last_tick {
        Some(l) => Some(r.state_at(l)?.1.hash),
        None => None,
    };
    match r.end {
        End::Complete => {
            let _ = writeln!(
                s,
                "integrity    ok: index and trailer present; {n} frames decoded, every checksum and state hash matches"
            );
            if let Some(h) = final_hash {
                let _ = writeln!(s, "final hash   {h:#018x}");
            }
            Ok(s)
        }
        End::Truncated { offset } => {
            let _ = writeln!(
                s,
                "integrity    TRUNCATED at byte {offset}: the recorder did not finish; {n} complete frames decoded and checked"
            );
            Err(Failure {
                code: 2,
                message: format!(
                    "{}: byte {offset}: truncated after tick {} (no index or trailer); the frames before it read",
                    r.file(),
                    r.last_tick.map_or("-".to_owned(), |t| t.to_string())
                ),
                output: s,
            })
        }
    }
}

/// `flockstep dump`.
pub fn dump(path: &Path, tick: u64, field: Option<&str>, json: bool) -> Result<String, Failure> {
    let mut r = open(path)?;
    // Every frame's checksums first (cheap: no decoding), so a damaged file
    // is reported as such whichever tick is asked for.
    for f in r.frames() {
        f?;
    }
    let (state, info) = r.state_at(tick)?;
    if let End::Truncated { offset } = r.end {
        eprintln!(
            "warning: {}: byte {offset}: truncated after tick {} (the recorder did not finish)",
            r.file(),
            r.last_tick.map_or("-".to_owned(), |t| t.to_string())
        );
    }
    let leaves = || fields::state_leaves(&state);
    let none_match = |leaves: &[fields::Leaf]| {
        bad(format!(
            "{}: tick {tick}: no field starts with `{}` (fields look like `{}`)",
            r.file(),
            field.unwrap_or_default(),
            leaves.get(1).map_or("tick", |l| l.path.as_str())
        ))
    };
    if json {
        let inner = match field {
            None => match &state {
                AnyState::Line(s) => serde_json::to_value(s),
                AnyState::Flock(s) => serde_json::to_value(s),
                AnyState::Path(s) => serde_json::to_value(s),
                // A user sim's state: its fields by name (the state's
                // type is its crate's, which this crate cannot name).
                AnyState::Custom(_) => Ok(serde_json::Value::Object(
                    leaves()
                        .iter()
                        .map(|l| (l.path.clone(), json_value(&l.value)))
                        .collect(),
                )),
                AnyState::Panes(p) => serde_json::to_value(p),
            }
            .map_err(|e| bad(e.to_string()))?,
            Some(f) => {
                let leaves = leaves();
                let picked: Vec<serde_json::Value> = leaves
                    .iter()
                    .filter(|l| l.path.starts_with(f))
                    .map(|l| serde_json::json!({"path": l.path, "value": json_value(&l.value)}))
                    .collect();
                if picked.is_empty() {
                    return Err(none_match(&leaves));
                }
                serde_json::Value::Array(picked)
            }
        };
        let inputs = serde_json::to_value(&info.inputs).map_err(|e| bad(e.to_string()))?;
        let key = if field.is_some() { "fields" } else { "state" };
        let v = serde_json::json!({
            "tick": tick,
            "hash": format!("{:#018x}", info.hash),
            "inputs": inputs,
            key: inner,
        });
        return Ok(format!("{v}\n"));
    }
    let leaves = leaves();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# {} tick {tick}: {} state, hash {:#018x} (matches the decoded state)",
        r.file(),
        state.sim_name(),
        info.hash
    );
    if !info.inputs.is_empty() {
        let shown: Vec<String> = info.inputs.iter().map(Input::to_string).collect();
        let _ = writeln!(s, "# inputs before this tick: {}", shown.join(" "));
    }
    let mut shown = 0;
    for l in &leaves {
        if field.is_none_or(|f| l.path.starts_with(f)) {
            let _ = writeln!(s, "{} = {}", l.path, l.value);
            shown += 1;
        }
    }
    if shown == 0 {
        return Err(none_match(&leaves));
    }
    Ok(s)
}

/// A field's value in `dump --json`: numbers as numbers (fixed-point
/// numbers as their raw I32F32 bits, angles as raw turns, as in the whole
/// state's JSON), 128-bit numbers (the open list's keys) as decimal
/// strings, names and variants as strings.
fn json_value(v: &fields::Value) -> serde_json::Value {
    use fields::Value as V;
    use serde_json::Value as J;
    match v {
        V::Bool(b) => J::from(*b),
        V::Int(i) => i64::try_from(*i).map_or_else(|_| J::from(i.to_string()), J::from),
        V::Uint(u) => u64::try_from(*u).map_or_else(|_| J::from(u.to_string()), J::from),
        V::Wide(u) => J::from(u.to_string()),
        V::Fx(bits) => J::from(*bits),
        V::Angle(a) => J::from(*a),
        V::Char(c) => J::from(c.to_string()),
        V::Str(s) => J::from(s.as_str()),
        V::Bytes(b) => J::from(b.clone()),
        V::None | V::Unit => J::Null,
        V::Variant(name) => J::from(*name),
        V::Float(s) => J::from(s.as_str()),
    }
}

/// A divergence as JSON: its tick, both hashes, the fields with both
/// values (raw bits for fixed-point numbers), how many more differ; the
/// sides are named `old` and `new`.
fn divergence_json(d: &run::Divergence, (old, new): (&str, &str)) -> serde_json::Value {
    let value = |v: &Option<fields::Value>| v.as_ref().map_or(serde_json::Value::Null, json_value);
    let fields: Vec<serde_json::Value> = d
        .fields
        .iter()
        .map(|f| {
            let mut j = serde_json::json!({"path": f.path, old: value(&f.old), new: value(&f.new)});
            if let Some(np) = &f.new_path {
                j["new_path"] = np.as_str().into();
            }
            j
        })
        .collect();
    serde_json::json!({
        "tick": d.tick,
        "hashes": {old: format!("{:016x}", d.old_hash), new: format!("{:016x}", d.new_hash)},
        "fields": fields,
        "more": d.total.saturating_sub(d.fields.len() as u64),
    })
}

/// A cause as JSON (`null` when it was not asked for).
fn cause_json(c: Option<&crate::replay::cause::Cause>) -> serde_json::Value {
    c.map_or(serde_json::Value::Null, |c| {
        serde_json::to_value(c).unwrap_or(serde_json::Value::Null)
    })
}

/// One file's verification: its text, its errors, whether it diverged,
/// its JSON report.
struct Verified {
    out: String,
    errors: Vec<String>,
    diverged: bool,
    report: serde_json::Value,
}

/// `flockstep verify`: each file re-simulated on a core of its own (the
/// reports in the order given; a progress bar for a single file).
pub fn verify(files: &[PathBuf], explain: bool, json: bool) -> Result<String, Failure> {
    let bar = files.len() == 1;
    let done = crate::replay::run::par_map(files, |p| verify_one(p, explain, bar));
    let mut out = String::new();
    let mut errors = Vec::new();
    let mut diverged = 0;
    let mut reports = Vec::new();
    for v in done {
        out.push_str(&v.out);
        errors.extend(v.errors);
        diverged += usize::from(v.diverged);
        reports.push(v.report);
    }
    if json {
        out = reports.iter().map(|r| format!("{r}\n")).collect();
    }
    finish(out, errors, diverged)
}

fn verify_one(path: &Path, explain: bool, show_bar: bool) -> Verified {
    let mut v = Verified {
        out: String::new(),
        errors: Vec::new(),
        diverged: false,
        report: serde_json::json!({"file": path.display().to_string()}),
    };
    let (out, errors, report) = (&mut v.out, &mut v.errors, &mut v.report);
    let mut r = match Replay::open(path) {
        Ok(r) => r,
        Err(e) => {
            errors.push(e.to_string());
            report["verdict"] = "error".into();
            report["error"] = e.to_string().into();
            return v;
        }
    };
    // Several files verify at once: their bars would overwrite each other.
    let bar = if show_bar {
        progress(r.last_tick.map_or(0, |l| l.saturating_add(1)), "verifying")
    } else {
        ProgressBar::hidden()
    };
    let verdict = run::verify(&mut r, |t| {
        if t % 64 == 0 {
            bar.set_position(t);
        }
    });
    bar.finish_and_clear();
    let name = path.display();
    match verdict {
        Ok(Verdict::Match { first, last }) => match r.end {
            End::Complete => {
                report["verdict"] = "ok".into();
                report["ticks"] = serde_json::json!([first, last]);
                let _ = writeln!(
                    out,
                    "{name}: ok, ticks {first}..={last} re-simulated, every state hash matches"
                );
            }
            End::Truncated { offset } => {
                report["verdict"] = "truncated".into();
                report["ticks"] = serde_json::json!([first, last]);
                report["error"] = format!("byte {offset}: truncated after tick {last}").into();
                let _ = writeln!(
                    out,
                    "{name}: ticks {first}..={last} match, but the file is truncated"
                );
                errors.push(format!(
                    "{name}: byte {offset}: truncated after tick {last} (no index or trailer)"
                ));
            }
        },
        Ok(Verdict::Diverged(d)) => {
            v.diverged = true;
            let _ = writeln!(out, "{name}: DIVERGES from today's code");
            out.push_str(&run::report(&d, "recorded", "now"));
            report["verdict"] = "diverges".into();
            report["divergence"] = divergence_json(&d, ("recorded", "now"));
            if explain {
                match crate::replay::cause::cause_now(&mut r, d.tick) {
                    Ok(c) => {
                        out.push_str(&crate::replay::cause::report(&c));
                        report["cause"] = cause_json(Some(&c));
                    }
                    Err(e) => errors.push(format!("{name}: --explain: {e}")),
                }
            }
            // The what-ifs the run had made by then, which today's code
            // re-made too: where to look when one of them is the cause.
            let made: Vec<String> = all_inputs(&mut r)
                .unwrap_or_default()
                .into_iter()
                .filter(|(t, _)| *t <= d.tick)
                .map(|(t, i)| format!("{t}:{i}"))
                .collect();
            if !made.is_empty() {
                let _ = writeln!(out, "inputs up to tick {}: {}", d.tick, made.join(" "));
            }
            report["inputs"] = made.into();
        }
        Ok(Verdict::Length { .. }) => unreachable!("verify compares one file"),
        Err(e) => {
            report["verdict"] = "error".into();
            report["error"] = e.to_string().into();
            errors.push(e.to_string());
        }
    }
    v
}

fn finish(out: String, errors: Vec<String>, diverged: usize) -> Result<String, Failure> {
    if !errors.is_empty() {
        return Err(Failure {
            code: 2,
            message: errors.join("\nerror: "),
            output: out,
        });
    }
    if diverged > 0 {
        return Err(Failure {
            code: 1,
            message: String::new(),
            output: out,
        });
    }
    Ok(out)
}

/// `flockstep diff`.
pub fn diff(a: &Path, b: &Path, explain: bool, json: bool) -> Result<String, Failure> {
    let mut ra = open(a)?;
    let mut rb = open(b)?;
    let mut out = String::new();
    let _ = writeln!(out, "a = {}\nb = {}", a.display(), b.display());
    let (ma, mb) = (&ra.meta, &rb.meta);
    if ma.lesson_id != mb.lesson_id {
        let _ = writeln!(
            out,
            "lessons differ: a is {}, b is {}",
            ma.lesson_id, mb.lesson_id
        );
    } else if ma.lesson_source != mb.lesson_source {
        let first = ma
            .lesson_source
            .lines()
            .zip(mb.lesson_source.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(
                ma.lesson_source
                    .lines()
                    .count()
                    .min(mb.lesson_source.lines().count()),
            );
        let _ = writeln!(out, "the lesson texts differ from line {}", first + 1);
    }
    if ma.overrides != mb.overrides {
        let show = |o: &Vec<String>| {
            if o.is_empty() {
                "none".to_owned()
            } else {
                o.join(" ")
            }
        };
        let _ = writeln!(
            out,
            "overrides differ: a {}, b {}",
            show(&ma.overrides),
            show(&mb.overrides)
        );
    }
    if ma.flockstep != mb.flockstep {
        let _ = writeln!(
            out,
            "recorded by flockstep {} (a) and {} (b)",
            ma.flockstep, mb.flockstep
        );
    }
    if let Some(part) = inputs_part(&all_inputs(&mut ra)?, &all_inputs(&mut rb)?) {
        let _ = writeln!(out, "{part}");
    }
    out = printable(&out);
    let mut report = serde_json::json!({
        "a": a.display().to_string(),
        "b": b.display().to_string(),
        "notes": out.lines().skip(2).collect::<Vec<_>>(),
        "cause": null,
    });
    let verdict = run::diff(&mut ra, &mut rb)?;
    let mut errors = Vec::new();
    for r in [&ra, &rb] {
        if let End::Truncated { offset } = r.end {
            errors.push(format!(
                "{}: byte {offset}: truncated (compared up to its last complete frame)",
                r.file()
            ));
        }
    }
    let diverged = match verdict {
        Verdict::Match { first, last } => {
            report["verdict"] = "identical".into();
            report["ticks"] = serde_json::json!([first, last]);
            let _ = writeln!(
                out,
                "identical: ticks {first}..={last}, every state hash matches"
            );
            0
        }
        Verdict::Length { old_last, new_last } => {
            report["verdict"] = "length".into();
            report["ends"] = serde_json::json!([old_last, new_last]);
            let _ = writeln!(
                out,
                "every common tick matches, but a ends at tick {old_last} and b at tick {new_last}"
            );
            1
        }
        Verdict::Diverged(d) => {
            out.push_str(&run::report(&d, "a", "b"));
            report["verdict"] = "diverges".into();
            report["divergence"] = divergence_json(&d, ("a", "b"));
            if explain {
                match crate::replay::cause::cause(&mut ra, &mut rb, d.tick) {
                    Ok(c) => {
                        out.push_str(&crate::replay::cause::report(&c));
                        report["cause"] = cause_json(Some(&c));
                    }
                    Err(e) => errors.push(format!("--explain: {e}")),
                }
            }
            1
        }
    };
    if json {
        out = format!("{report}\n");
    }
    finish(out, errors, diverged)
}
