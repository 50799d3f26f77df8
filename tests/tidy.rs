//! Machine-checked boundaries: the deterministic core
//! (`crates/flockstep-core/src/num`, `…/sim`) never mentions floating
//! point, the file system, clocks, hash ordered collections or threads,
//! outside `#[cfg(test)]`. That the core never reaches the outer layers
//! (scene, viewer, command line) is the compiler's to check: they are in
//! another crate, which it does not depend on.

use std::path::{Path, PathBuf};

const FORBIDDEN: &[&str] = &[
    "f32",
    "f64",
    "std::fs",
    "std::time",
    "HashMap",
    "HashSet",
    "thread",
    "macroquad",
    "clap",
    "DefaultHasher",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn is_word_hit(line: &str, word: &str) -> bool {
    let bytes = line.as_bytes();
    let mut start = 0;
    while let Some(i) = line[start..].find(word) {
        let a = start + i;
        let b = a + word.len();
        let before = a == 0 || !(bytes[a - 1].is_ascii_alphanumeric() || bytes[a - 1] == b'_');
        let after = b >= bytes.len() || !(bytes[b].is_ascii_alphanumeric() || bytes[b] == b'_');
        if before && after {
            return true;
        }
        start = b;
    }
    false
}

/// The offending lines of one file: code before its first `#[cfg(test)]`,
/// comments excluded.
fn offences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        for w in FORBIDDEN {
            if is_word_hit(code, w) {
                out.push(format!("{}: `{w}`: {}", n + 1, line.trim()));
            }
        }
    }
    out
}

#[test]
fn the_core_stays_pure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in [
        "crates/flockstep-core/src/num",
        "crates/flockstep-core/src/sim",
    ] {
        rust_files(&root.join(d), &mut files);
    }
    files.sort();
    assert!(files.len() >= 10, "the core moved? found {files:?}");
    let mut bad = Vec::new();
    for f in &files {
        for o in offences(&std::fs::read_to_string(f).unwrap()) {
            bad.push(format!("{}:{o}", f.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(
        bad.is_empty(),
        "the deterministic core must not mention these:\n{}",
        bad.join("\n")
    );
}

#[test]
fn core_modules_deny_float_arithmetic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for m in [
        "crates/flockstep-core/src/num/mod.rs",
        "crates/flockstep-core/src/sim/mod.rs",
    ] {
        let text = std::fs::read_to_string(root.join(m)).unwrap();
        assert!(
            text.contains("#![deny(clippy::float_arithmetic)]"),
            "{m} lost its float lint"
        );
    }
}

/// The core's manifest names nothing that draws, opens a window, parses
/// arguments or shows progress (issue 44: `cargo tree -p flockstep-core`).
#[test]
fn the_core_crate_depends_on_nothing_that_draws() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("crates/flockstep-core/Cargo.toml")).unwrap();
    let deps: Vec<&str> = manifest
        .lines()
        .skip_while(|l| l.trim() != "[dependencies]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
        .map(|l| l.split('=').next().unwrap().trim())
        .collect();
    assert!(
        deps.contains(&"fixed"),
        "the [dependencies] table moved? {deps:?}"
    );
    for banned in [
        "macroquad",
        "png",
        "ttf-parser",
        "clap",
        "indicatif",
        "flockstep",
    ] {
        assert!(
            !deps.contains(&banned),
            "flockstep-core depends on {banned}"
        );
    }
}

#[test]
fn the_checker_catches_what_it_should() {
    assert_eq!(offences("let x: f64 = 1.0;").len(), 1);
    assert_eq!(offences("use std::collections::HashMap;").len(), 1);
    assert_eq!(offences("std::thread::spawn(f);").len(), 1);
    assert!(offences("// f64 in a comment is fine").is_empty());
    assert!(offences("let f64x = 3; let my_thread_id = 1;").is_empty());
    assert!(offences("#[cfg(test)]\nmod t { let x = 1.0f64; }").is_empty());
}

/// Floating point lives only in the viewer's drawing code (`window.rs`,
/// `draw.rs`): the scene, the app state machine, the layout and text
/// metrics, the session, the timeline, the web page's side and the
/// cross-platform report never mention it (nor macroquad), so what is
/// drawn and compared is the same on every machine.
#[test]
fn floats_live_only_in_the_window() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/scene"), &mut files);
    for f in [
        "app.rs",
        "layout.rs",
        "session.rs",
        "timeline.rs",
        "mod.rs",
        "web.rs",
    ] {
        files.push(root.join("src/viewer").join(f));
    }
    files.push(root.join("src/selftest.rs"));
    files.sort();
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let code = line.split("//").next().unwrap_or("");
            for w in ["f32", "f64", "macroquad"] {
                if is_word_hit(code, w) {
                    bad.push(format!(
                        "{}:{}: `{w}`: {}",
                        f.strip_prefix(root).unwrap().display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "floats or macroquad outside the window:\n{}",
        bad.join("\n")
    );
    let scene = std::fs::read_to_string(root.join("src/scene/mod.rs")).unwrap();
    assert!(
        scene.contains("#![deny(clippy::float_arithmetic)]"),
        "src/scene lost its float lint"
    );
}

/// The string literals of a file's code before its first `#[cfg(test)]`
/// (comments excluded), each with its line number: what could reach the
/// screen as words.
fn literals(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut exempt = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        // `// in English` exempts the literals of its line and the
        // next (command-line messages, JSON keys, file names, a file's
        // diagnosis as the command line gives it).
        let marked = line.contains("// in English");
        if line.trim_start().starts_with("//") {
            exempt = marked;
            continue;
        }
        let (mut inside, mut lit, mut escaped) = (false, String::new(), false);
        let mut prev = ' ';
        for c in line.chars() {
            if !inside && prev == '/' && c == '/' {
                break; // a comment after the code
            }
            prev = c;
            match (inside, c) {
                (false, '"') => inside = true,
                (true, '\\') if !escaped => escaped = true,
                (true, '"') if !escaped => {
                    if !(exempt || marked) {
                        out.push((n + 1, std::mem::take(&mut lit)));
                    }
                    lit.clear();
                    inside = false;
                }
                (true, c) => {
                    if !escaped {
                        lit.push(c);
                    }
                    escaped = false;
                }
                _ => {}
            }
        }
        exempt = false;
    }
    out
}

/// Names the code matches on and never shows: overlays, entity kinds,
/// sims, highlight and JSON keys, key names.
fn identifiers() -> Vec<&'static str> {
    let mut v: Vec<&str> = flockstep::lesson::FLOCK_OVERLAYS
        .iter()
        .chain(flockstep::lesson::PATH_OVERLAYS)
        .chain(flockstep::lesson::LINE_OVERLAYS)
        .copied()
        .collect();
    for sim in flockstep::lesson::sims::BUILTIN {
        for kind in [
            "world", "boid", "obstacle", "search", "cell", "start", "goal", "chaser", "target",
        ] {
            v.extend(sim.callout_keys(kind));
        }
    }
    v.extend([
        "world", "boid", "obstacle", "chaser", "target", "cell", "search", "pane", "start", "goal",
        "entity", "rule", "blocker", "flock", "line", "screen", "player", "picker", "lesson",
        "tick", "last", "beat", "tabs", "scrub", "lang", "error", "picked", "rows", "sim", "id",
        "en", "ja", "page", "open", "save", "hint", "share", "inputs", "brush", "map", "panel",
        "key", "track", "values", "now", "sliders", "true", "false", "set", "compare", "names",
        "first",
    ]);
    v
}

/// Whether a literal holds words a reader would read: a run of three
/// letters, once placeholders (`{0}`, `{name}`) are set aside, unless it
/// is a name the code matches on ([`identifiers`], or a token such as
/// `view_radius`, `boid:{i}` or `.fsr`).
fn has_words(lit: &str) -> bool {
    let mut s = String::new();
    let mut depth = 0;
    for c in lit.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => s.push(c),
            _ => {}
        }
    }
    let t = s.trim();
    let token = !t.contains(' ')
        && t.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_:.-=".contains(c));
    let marked = t.chars().any(|c| "_:.-=".contains(c) || c.is_ascii_digit());
    if token && (marked || s == lit && identifiers().contains(&t)) {
        return false;
    }
    let mut run = 0;
    for c in s.chars() {
        run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
        if run >= 3 {
            return true;
        }
    }
    false
}

/// Issue 43: every word the viewer draws comes from the catalogue
/// (`src/i18n`), where it has its Japanese: `scene` and `viewer` hold no
/// English of their own (outside tests, and lines marked
/// `// in English`).
#[test]
fn words_on_screen_come_from_the_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src/scene", "src/viewer"] {
        rust_files(&root.join(d), &mut files);
    }
    files.sort();
    let mut bad = Vec::new();
    // A `tests.rs` is a test module (included under `#[cfg(test)]`);
    // `scene/summary.rs` writes snapshot text, never drawn.
    files.retain(|f| !f.ends_with("tests.rs") && !f.ends_with("scene/summary.rs"));
    for f in &files {
        for (n, lit) in literals(&std::fs::read_to_string(f).unwrap()) {
            if has_words(&lit) {
                let name = f.strip_prefix(root).unwrap().display();
                bad.push(format!("{name}:{n}: \"{lit}\""));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "words outside the catalogue (put them in src/i18n with their Japanese):\n{}",
        bad.join("\n")
    );
    // The checker itself.
    assert!(has_words("sees {0} mates"));
    assert!(has_words("Space"));
    assert!(!has_words("view_radius"));
    assert!(!has_words("velocity"));
    assert!(has_words("playing"));
    assert!(has_words("hash {}"));
    assert!(has_words("{name} walked {steps}"));
    assert!(!has_words("boid:{i}"));
    assert!(!has_words("lesson={}"));
    assert!(!has_words("{0} = {1} + {2}"));
    let found = literals(
        "let a = \"one two\"; // \"three four\"\n// in English\nx(\"hidden words\");\n#[cfg(test)]\nlet b = \"after tests\";",
    );
    assert_eq!(found, vec![(1, "one two".to_owned())]);
}
