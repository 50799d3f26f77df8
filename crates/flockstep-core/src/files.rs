//! What the tool reads and writes on disk, guarded: the kind of a path
//! (a replay must be a regular file; a FIFO or a device is named for what
//! it is instead of hanging or being replaced), and text inputs read with a
//! size bound (`/dev/zero` is refused after the bound, not read until
//! memory runs out).

use std::fs::Metadata;
use std::io::Read;
use std::path::Path;

/// The largest lesson file: 4 MiB (a recording carries its lesson, and its
/// metadata block is bounded by [`crate::replay::file::MAX_META`]).
pub const MAX_LESSON_BYTES: u64 = 4 << 20;

/// The largest map text: a 4096 × 4096 map with CRLF line ends is just
/// under 17 MB; 32 MiB leaves room for trailing spaces and comments.
pub const MAX_MAP_BYTES: u64 = 32 << 20;

/// What a non-regular file is, in words ("a FIFO", "a character device").
pub fn kind_name(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Checks that `path` is a regular file (following symbolic links) before
/// it is opened: opening a FIFO blocks until a writer comes, and a device
/// never ends. `what` names what was expected ("a replay file"); the
/// message does not name the path (the caller does).
pub fn regular(path: &Path, what: &str) -> Result<Metadata, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.is_file() {
        Ok(meta)
    } else {
        Err(format!("is {}, not {what}", kind_name(&meta)))
    }
}

/// "a lesson" as "the lesson".
fn the(what: &str) -> String {
    match what.strip_prefix("a ") {
        Some(rest) => format!("the {rest}"),
        None => what.to_owned(),
    }
}

/// Reads at most `limit` bytes from `src`; more is an error naming `name`
/// and the limit (`what` says what the bytes are: "a lesson").
pub fn read_bounded(
    mut src: impl Read,
    name: &str,
    limit: u64,
    what: &str,
) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    src.by_ref()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read {}: {e}", the(what)))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{name}: more than {} bytes; {what} is at most {} MiB",
            limit,
            limit >> 20
        ));
    }
    Ok(bytes)
}

/// Reads a file of at most `limit` bytes (a FIFO or `/dev/stdin` is read
/// as a stream; a directory is refused by name).
pub fn read_file_bounded(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let name = path.display().to_string();
    if let Ok(m) = std::fs::metadata(path)
        && m.is_dir()
    {
        return Err(format!("{name}: is a directory, not {what}"));
    }
    let f =
        std::fs::File::open(path).map_err(|e| format!("{name}: cannot read {}: {e}", the(what)))?;
    read_bounded(f, &name, limit, what)
}

/// Writes `bytes` to `path` whole or not at all: into `PATH.partial`, then
/// renamed over `path`, so a failed write leaves an existing file as it
/// was. `-` writes to standard output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write as _;
    let name = path.display();
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("standard output: {e}"));
    }
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        return Err(format!("{name}: is {}, not a file to write", kind_name(&m)));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    let res = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    res.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{name}: {e}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_read_refuses_one_byte_more() {
        let ok = read_bounded(&[7u8; 10][..], "x", 10, "a lesson").unwrap();
        assert_eq!(ok.len(), 10);
        let e = read_bounded(&[7u8; 11][..], "x", 10, "a lesson").unwrap_err();
        assert!(e.starts_with("x: more than 10 bytes"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_named_and_refused_as_replays() {
        let e = regular(Path::new("/dev/null"), "a replay file").unwrap_err();
        assert!(e.contains("is a character device"), "{e}");
        let e = regular(Path::new("/"), "a replay file").unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
    }
}
