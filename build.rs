//! Compiles the lessons in `lessons/` into the binary: compresses them
//! (zstd), one after another, into `$OUT_DIR/lessons.zst` (one frame: they share
//! most of their words) and writes `$OUT_DIR/bundled_lessons.rs` with one
//! entry per `lessons/*.toml` — where its text starts and ends in the
//! stream — sorted by file name so the order never depends on the file
//! system. (Compressed, the lessons take a fifth of the room in the web
//! module.)

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
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut all = Vec::new();
    let mut out = String::from(
        "/// Every bundled lesson, sorted by id.\npub static BUNDLED: &[BundledLesson] = &[\n",
    );
    for n in &names {
        println!("cargo::rerun-if-changed=lessons/{n}");
        let stem = n.trim_end_matches(".toml");
        let text = std::fs::read(dir.join(n)).expect("a lesson file reads");
        let start = all.len();
        all.extend_from_slice(&text);
        writeln!(
            out,
            "    BundledLesson {{ id: {stem:?}, path: {:?}, text: ({start}, {}) }},",
            format!("lessons/{n}"),
            all.len(),
        )
        .unwrap();
    }
    out.push_str("];\n");
    // Named from OUT_DIR when the crate compiles, not as an absolute path
    // now: a checkout that moves, or a target directory shared by two
    // checkouts, reuses the generated file unchanged.
    out.push_str(
        "/// The bundled lessons' texts, one after another, compressed (zstd).\n\
         static PACKED: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/lessons.zst\"));\n",
    );
    // The highest level: the texts are compressed once per build and
    // decompressed once per run.
    let packed = zstd::bulk::compress(&all, 22).expect("zstd compresses the lessons");
    std::fs::write(Path::new(&out_dir).join("lessons.zst"), packed).expect("OUT_DIR is writable");
    let dest = Path::new(&out_dir).join("bundled_lessons.rs");
    std::fs::write(dest, out).unwrap();
}
