//! Compiles the lessons in `lessons/` into the binary: writes
//! `$OUT_DIR/bundled_lessons.rs` with one entry per `lessons/*.toml`, sorted
//! by file name so the order never depends on the file system.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("lessons");
    println!("cargo::rerun-if-changed=lessons");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("lessons/ must exist")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    // By id (the stem): "a-b.toml" would sort before "a.toml" by file name.
    names.sort_by(|a, b| a.trim_end_matches(".toml").cmp(b.trim_end_matches(".toml")));
    let mut out = String::from(
        "/// Every bundled lesson, sorted by id.\npub static BUNDLED: &[BundledLesson] = &[\n",
    );
    for n in &names {
        println!("cargo::rerun-if-changed=lessons/{n}");
        let stem = n.trim_end_matches(".toml");
        // Named from the manifest directory when the crate compiles, not
        // as an absolute path now: a checkout that moves, or a target
        // directory shared by two checkouts, reuses this file unchanged.
        writeln!(
            out,
            "    BundledLesson {{ id: {stem:?}, path: {:?}, \
             source: include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?})) }},",
            format!("lessons/{n}"),
            format!("/lessons/{n}"),
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("bundled_lessons.rs");
    std::fs::write(dest, out).unwrap();
}
