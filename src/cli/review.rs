//! `flockstep review`: changed golden replays, one by one, as
//! `cargo insta review` walks changed snapshots.
//!
//! A golden replay that today's code no longer reproduces gets today's run
//! written beside it, `NAME.new.fsr` (by `cargo test` outside CI, or by
//! this command, which re-simulates every golden replay given, in
//! parallel on every core). Each pending pair is then shown — the lesson,
//! the first divergence with both values, its cause (today's reasoning
//! for the entity that now ends elsewhere), optionally both runs side by
//! side as a picture or in the window — and accepted (the new run
//! replaces the golden replay), rejected (the new run is deleted) or
//! skipped (both stay). Nothing is overwritten without an accept.

use super::{Failure, bad};
use crate::replay::golden;
use crate::replay::run::{self, Verdict};
use crate::replay::{Replay, cause};
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// What to do with each pending pair without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Replace the golden replay with today's run.
    Accept,
    /// Delete today's run.
    Reject,
    /// Leave both.
    Skip,
}

/// `flockstep review PATH… [--accept-all | --reject-all] [--pictures DIR]`.
pub fn review(
    paths: &[PathBuf],
    all: Option<Answer>,
    pictures: Option<&Path>,
) -> Result<String, Failure> {
    let goldens = golden::goldens(paths).map_err(bad)?;
    if goldens.is_empty() {
        return Err(bad(format!(
            "no golden replays (*.fsr) in {}",
            shown_paths(paths)
        )));
    }
    // Today's run beside each golden replay that is not current, made on
    // every core.
    let made = golden::renew_all(&goldens);
    let mut out = String::new();
    let mut errors = Vec::new();
    for (path, r) in goldens.iter().zip(&made) {
        if let Err(e) = r {
            errors.push(format!("{}: {e}", path.display()));
        }
    }
    let pending: Vec<(PathBuf, PathBuf)> = goldens
        .iter()
        .map(|g| (g.clone(), golden::new_path(g)))
        .filter(|(_, n)| n.exists())
        .collect();
    let _ = writeln!(
        out,
        "{} golden replays re-simulated; {} changed",
        goldens.len(),
        pending.len()
    );
    let stdin = std::io::stdin();
    let mut answers = stdin.lock().lines();
    let mut counts = [0usize; 3];
    for (i, (old, new)) in pending.iter().enumerate() {
        print!("{out}");
        out.clear();
        print!("{}", describe(i + 1, pending.len(), old, new));
        if let Some(dir) = pictures {
            match picture(old, new, dir) {
                Ok(p) => println!("  picture: {}", p.display()),
                Err(m) => println!("  picture: {m}"),
            }
        }
        let answer = match all {
            Some(a) => a,
            None => ask(&mut answers, old, new),
        };
        let done = match answer {
            Answer::Accept => golden::accept(old).map(|()| "accepted"),
            Answer::Reject => golden::reject(old).map(|()| "rejected"),
            Answer::Skip => Ok("skipped: both files stay"),
        };
        match done {
            Ok(what) => {
                counts[answer as usize] += 1;
                println!("  {what}");
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    let _ = writeln!(
        out,
        "accepted {}, rejected {}, skipped {}",
        counts[0], counts[1], counts[2]
    );
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Failure {
            code: 2,
            message: errors.join("\nerror: "),
            output: out,
        })
    }
}

fn shown_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One pending pair: the lesson, where the runs part and why.
fn describe(i: usize, n: usize, old: &Path, new: &Path) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n[{i}/{n}] {}  (today's run: {})",
        old.display(),
        new.display()
    );
    let (mut a, mut b) = match (Replay::open(old), Replay::open(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            let _ = writeln!(s, "  {e}");
            return s;
        }
    };
    let _ = writeln!(s, "  lesson {} ({})", b.meta.lesson_id, b.meta.lesson_file);
    if a.meta.lesson_source != b.meta.lesson_source || a.meta.overrides != b.meta.overrides {
        let _ = writeln!(s, "  the lesson's text or overrides changed");
    }
    match run::diff(&mut a, &mut b) {
        Ok(Verdict::Diverged(d)) => {
            for l in run::report(&d, "recorded", "now").lines() {
                let _ = writeln!(s, "  {l}");
            }
            // Today's reasoning for the entity that now ends elsewhere.
            match cause::cause_now(&mut a, d.tick) {
                Ok(c) => {
                    for l in cause::report(&c).lines() {
                        let _ = writeln!(s, "  {l}");
                    }
                }
                Err(e) => {
                    let _ = writeln!(s, "  (no cause: {e})");
                }
            }
        }
        Ok(Verdict::Length { old_last, new_last }) => {
            let _ = writeln!(
                s,
                "  every common tick matches; recorded up to tick {old_last}, now {new_last}"
            );
        }
        Ok(Verdict::Match { .. }) => {
            let _ = writeln!(
                s,
                "  every tick's state matches: the file itself changed (its format or its lesson's text)"
            );
        }
        Err(e) => {
            let _ = writeln!(s, "  {e}");
        }
    }
    s
}

/// Asks what to do with a pair, on standard input (a line each: `a`, `r`,
/// `s`, `v` to see both runs side by side in the window, `q` to skip the
/// rest); the end of input skips.
fn ask(
    answers: &mut impl Iterator<Item = std::io::Result<String>>,
    old: &Path,
    new: &Path,
) -> Answer {
    loop {
        print!("  accept (a), reject (r), skip (s), view side by side (v)? ");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let Some(Ok(line)) = answers.next() else {
            println!();
            return Answer::Skip;
        };
        match line.trim() {
            "a" | "accept" => return Answer::Accept,
            "r" | "reject" => return Answer::Reject,
            "s" | "skip" | "" => return Answer::Skip,
            "v" | "view" => {
                if let Err(m) = view(old, new) {
                    println!("  {m}");
                }
            }
            other => println!("  `{other}`: answer a, r, s or v"),
        }
    }
}

/// This program again, with `args` (the window and the renderer open one
/// macroquad window a process, so each is a process of its own).
fn again(args: &[&str]) -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let o = std::process::Command::new(me)
        .args(args)
        .status()
        .map_err(|e| e.to_string())?;
    if o.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed", args.join(" ")))
    }
}

/// Both runs in the window, side by side (returns when it closes).
fn view(old: &Path, new: &Path) -> Result<(), String> {
    crate::viewer::window::display_available()?;
    let (a, b) = (old.display().to_string(), new.display().to_string());
    again(&["view", &a, &b])
}

/// Both runs side by side at their first divergence, as a PNG in `dir`.
fn picture(old: &Path, new: &Path, dir: &Path) -> Result<PathBuf, String> {
    let (mut a, mut b) = (
        Replay::open(old).map_err(|e| e.to_string())?,
        Replay::open(new).map_err(|e| e.to_string())?,
    );
    let Ok(Verdict::Diverged(d)) = run::diff(&mut a, &mut b) else {
        return Err("the runs do not part: no picture".into());
    };
    crate::viewer::window::display_available()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = old
        .file_stem()
        .map_or_else(|| "run".to_owned(), |s| s.to_string_lossy().into_owned());
    let out = dir.join(format!("{stem}-tick{}.png", d.tick));
    let (a, b, t, o) = (
        old.display().to_string(),
        new.display().to_string(),
        d.tick.to_string(),
        out.display().to_string(),
    );
    again(&["render", &a, &b, "--tick", &t, "-o", &o])?;
    Ok(out)
}
