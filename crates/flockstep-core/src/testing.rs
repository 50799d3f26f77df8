//! Test helpers: flockstep's own lessons (`lessons/` at the workspace's
//! top, which the `flockstep` crate bundles), read from their files.

use crate::lesson::{Lesson, Override};

/// The ids of every lesson in `lessons/`, sorted.
pub fn lesson_ids() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .expect("the workspace's lessons/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            Some(name.strip_suffix(".toml")?.to_owned())
        })
        .collect();
    out.sort();
    out
}

/// The lesson `id` from `lessons/`, parsed with `--set` overrides.
pub fn lesson(id: &str, sets: &[&str]) -> Lesson {
    let path = format!("lessons/{id}.toml");
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(&path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let sets: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    Lesson::parse_with(&text, &path, &sets).unwrap()
}
