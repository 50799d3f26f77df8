//! What the tool reads and writes on disk, guarded: the kind of a path
//! (a replay must be a regular file; a FIFO or a device is named for what
//! it is instead of hanging or being replaced), and text inputs read with a
//! size bound (`/dev/zero` is refused after the bound, not read until
//! memory runs out).

use std::fs::Metadata;
use std::io::Read;
use std::path::Path;

/// What went wrong with a file, for a program.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileErrorKind {
    /// It is not a regular file (a directory, a FIFO, a device).
    NotRegular {
        /// What it is instead, in words ("a directory", "a FIFO (named pipe)").
        found: &'static str,
    },
    /// It holds more bytes than a file of its kind may.
    TooLarge {
        /// The most bytes allowed.
        limit: u64,
    },
    /// The system refused to open, read, write or rename it.
    Io(std::io::ErrorKind),
}

/// A file that could not be read or written: its kind, and the message a
/// person reads (which names the file where the function's doc says so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    /// What is wrong, for a program.
    pub kind: FileErrorKind,
    /// What is wrong, for a person.
    pub message: String,
}

impl FileError {
    fn io(e: &std::io::Error, message: String) -> FileError {
        FileError {
            kind: FileErrorKind::Io(e.kind()),
            message,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FileError {}

impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.message
    }
}

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
pub fn regular(path: &Path, what: &str) -> Result<Metadata, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(&e, e.to_string()))?;
    if meta.is_file() {
        Ok(meta)
    } else {
        let found = kind_name(&meta);
        Err(FileError {
            kind: FileErrorKind::NotRegular { found },
            message: format!("is {found}, not {what}"),
        })
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
) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    src.by_ref()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(&e, format!("{name}: cannot read {}: {e}", the(what))))?;
    if bytes.len() as u64 > limit {
        return Err(FileError {
            kind: FileErrorKind::TooLarge { limit },
            message: format!(
                "{name}: more than {} bytes; {what} is at most {} MiB",
                limit,
                limit >> 20
            ),
        });
    }
    Ok(bytes)
}

/// Reads a file of at most `limit` bytes (a FIFO or `/dev/stdin` is read
/// as a stream; a directory is refused by name).
pub fn read_file_bounded(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, FileError> {
    let name = path.display().to_string();
    if let Ok(m) = std::fs::metadata(path)
        && m.is_dir()
    {
        return Err(FileError {
            kind: FileErrorKind::NotRegular {
                found: "a directory",
            },
            message: format!("{name}: is a directory, not {what}"),
        });
    }
    let f = std::fs::File::open(path)
        .map_err(|e| FileError::io(&e, format!("{name}: cannot read {}: {e}", the(what))))?;
    read_bounded(f, &name, limit, what)
}

/// Writes `bytes` to `path` whole or not at all: into `PATH.partial`, then
/// renamed over `path`, so a failed write leaves an existing file as it
/// was. `-` writes to standard output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    use std::io::Write as _;
    let name = path.display();
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| FileError::io(&e, format!("standard output: {e}")));
    }
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        let found = kind_name(&m);
        return Err(FileError {
            kind: FileErrorKind::NotRegular { found },
            message: format!("{name}: is {found}, not a file to write"),
        });
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = std::path::PathBuf::from(tmp);
    let res = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    res.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FileError::io(&e, format!("{name}: {e}"))
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
        assert_eq!(e.kind, FileErrorKind::TooLarge { limit: 10 });
        assert!(e.message.starts_with("x: more than 10 bytes"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_named_and_refused_as_replays() {
        let e = regular(Path::new("/dev/null"), "a replay file").unwrap_err();
        let found = "a character device";
        assert_eq!(e.kind, FileErrorKind::NotRegular { found });
        assert_eq!(e.message, "is a character device, not a replay file");
        let e = regular(Path::new("/"), "a replay file").unwrap_err();
        let found = "a directory";
        assert_eq!(e.kind, FileErrorKind::NotRegular { found });
        let e = read_file_bounded(Path::new("/"), 10, "a lesson").unwrap_err();
        assert_eq!(e.kind, FileErrorKind::NotRegular { found });
        let e = regular(Path::new("/no/such/file"), "a replay file").unwrap_err();
        assert_eq!(e.kind, FileErrorKind::Io(std::io::ErrorKind::NotFound));
        let e = write_atomic(Path::new("/dev/null"), b"x").unwrap_err();
        assert!(matches!(e.kind, FileErrorKind::NotRegular { .. }), "{e}");
    }
}
