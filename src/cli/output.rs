//! Where `record -o` writes, and how it makes the write safe.
//!
//! - A regular file (or a new name) is written under `FILE.partial`, locked
//!   so that a second recorder to the same output is refused instead of
//!   sharing it, and renamed over `FILE` once complete: a failure leaves
//!   `FILE` untouched, a killed recorder leaves `FILE.partial`, whose
//!   complete frames read. A symbolic link is followed: the file it names
//!   is replaced, not the link.
//! - Anything else (a device such as `/dev/null`, a FIFO, standard output
//!   as `-` or `/dev/stdout`) is written in place: renaming over a device
//!   would replace it with a regular file. A terminal is refused (a replay
//!   is binary).
//! - The lesson being recorded is never the output.

use super::{Failure, bad};
use crate::files::kind_name;
use crate::replay::run::{Recorded, RunError};
use std::fs::{File, Metadata, OpenOptions, TryLockError};
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};

/// Where a recording goes.
pub enum Target {
    /// Written to `partial` and renamed over `out` when complete.
    Replace {
        /// The final name.
        out: PathBuf,
        /// The temporary name beside it.
        partial: PathBuf,
    },
    /// Written straight to `out` (a device, a FIFO, standard output).
    InPlace {
        /// The name, for messages.
        out: PathBuf,
        /// Whether it is this process's standard output.
        stdout: bool,
    },
}

/// Whether two paths' metadata name the same file.
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// The path a chain of symbolic links ends at (the path itself if it is
/// not a link): the file to replace, or to create where a link dangles.
fn follow(path: &Path) -> Result<PathBuf, String> {
    let mut p = path.to_owned();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p).map_err(|e| e.to_string())?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err("too many levels of symbolic links".into())
}

/// This process's standard output as a file, with its metadata.
fn stdout_file() -> Result<(File, Metadata), String> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|e| format!("standard output: {e}"))?;
        let f = File::from(fd);
        let m = f.metadata().map_err(|e| format!("standard output: {e}"))?;
        Ok((f, m))
    }
    #[cfg(not(unix))]
    {
        Err("writing a replay to standard output needs a Unix system; name a file with -o".into())
    }
}

impl Target {
    /// Chooses how to write `out` and opens it; `lesson` is the lesson's
    /// path as given (it must not be the output).
    pub fn choose(out: &Path, lesson: &Path) -> Result<(Target, File), Failure> {
        let name = out.display().to_string();
        if out == Path::new("-") {
            return Target::in_place(out, None);
        }
        let meta = match std::fs::metadata(out) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(bad(format!("{name}: cannot write the replay: {e}"))),
        };
        if let (Some(m), Ok(l)) = (&meta, std::fs::metadata(lesson))
            && same_file(m, &l)
        {
            return Err(bad(format!(
                "{name}: is the lesson being recorded; name the replay file with -o"
            )));
        }
        let is_stdout = |m: &Metadata| stdout_file().is_ok_and(|(_, s)| same_file(m, &s));
        match meta {
            Some(m) if m.is_dir() => Err(bad(format!(
                "{name}: is a directory; name the replay file with -o"
            ))),
            // A device, a FIFO, or the file standard output is redirected
            // to (`-o /dev/stdout > FILE`): renaming would lose it.
            Some(m) if !m.is_file() || is_stdout(&m) => Target::in_place(out, Some(m)),
            _ => Target::replace(follow(out).map_err(|m| bad(format!("{name}: {m}")))?),
        }
    }

    /// Opens a device, a FIFO or standard output for writing in place.
    fn in_place(out: &Path, meta: Option<Metadata>) -> Result<(Target, File), Failure> {
        let name = out.display().to_string();
        let stdout = stdout_file();
        let is_stdout = match (&meta, &stdout) {
            (None, _) => true, // `-`
            (Some(m), Ok((_, s))) => same_file(m, s),
            (Some(_), Err(_)) => false,
        };
        let file = match (is_stdout, stdout) {
            (true, Ok((f, _))) => f,
            (true, Err(m)) => return Err(bad(m)),
            (false, _) => OpenOptions::new()
                .write(true)
                .open(out)
                .map_err(|e| bad(format!("{name}: cannot write the replay: {e}")))?,
        };
        if file.is_terminal() {
            return Err(bad(format!(
                "{name}: is a terminal, and a replay is binary: name a file with -o, or redirect standard output"
            )));
        }
        let target = Target::InPlace {
            out: out.to_owned(),
            stdout: is_stdout,
        };
        Ok((target, file))
    }

    /// Opens and locks `out.partial`, emptied, for a regular file `out`.
    fn replace(out: PathBuf) -> Result<(Target, File), Failure> {
        let mut partial = out.clone().into_os_string();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let pname = partial.display().to_string();
        let fail = |e: std::io::Error| bad(format!("{pname}: cannot write the replay: {e}"));
        // A leftover temporary file is overwritten; anything else there (a
        // link, a FIFO, a directory) is not followed or replaced.
        if let Ok(m) = std::fs::symlink_metadata(&partial)
            && !m.is_file()
        {
            return Err(bad(format!(
                "{pname}: is {}, where the recorder writes its temporary file; remove it or record to another file with -o",
                kind_name(&m)
            )));
        }
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&partial)
            .map_err(fail)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(bad(format!(
                    "{pname}: another recorder is writing {} (its temporary file is locked); wait for it, or record to another file with -o",
                    out.display()
                )));
            }
            // A file system without locks: record without one.
            Err(TryLockError::Error(_)) => {}
        }
        // Locked the file the name still points at? (Another recorder may
        // have renamed it into place between the open and the lock.)
        let here = std::fs::symlink_metadata(&partial).map_err(fail)?;
        let mine = file.metadata().map_err(fail)?;
        if !here.is_file() || !same_file(&here, &mine) {
            return Err(bad(format!(
                "{pname}: is {} that changed while it was opened (another recorder?); try again",
                kind_name(&here)
            )));
        }
        file.set_len(0).map_err(fail)?;
        Ok((Target::Replace { out, partial }, file))
    }

    /// Whether the replay goes to this process's standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self, Target::InPlace { stdout: true, .. })
    }

    /// Finishes a recording: on success flushes, syncs and (for a regular
    /// file) renames into place; on failure removes the temporary file.
    pub fn complete(
        self,
        result: Result<(BufWriter<File>, Recorded), RunError>,
    ) -> Result<Recorded, Failure> {
        match self {
            Target::Replace { out, partial } => {
                let name = out.display();
                let (w, rec) = match result {
                    Ok(r) => r,
                    Err(m) => {
                        let _ = std::fs::remove_file(&partial);
                        return Err(bad(format!("{name}: {m}")));
                    }
                };
                let done = w
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .and_then(|f| f.sync_all())
                    .and_then(|()| std::fs::rename(&partial, &out));
                if let Err(e) = done {
                    let _ = std::fs::remove_file(&partial);
                    return Err(bad(format!("{name}: cannot write the replay: {e}")));
                }
                Ok(rec)
            }
            Target::InPlace { out, .. } => {
                let name = if out == Path::new("-") {
                    "standard output".to_owned()
                } else {
                    out.display().to_string()
                };
                let partly = "; what was already written there is an incomplete replay";
                let (w, rec) = result.map_err(|m| bad(format!("{name}: {m}{partly}")))?;
                // A device or a pipe cannot be synced; a flush error (a full
                // device) is reported.
                w.into_inner().map_err(|e| {
                    bad(format!(
                        "{name}: cannot write the replay: {}{partly}",
                        e.error()
                    ))
                })?;
                Ok(rec)
            }
        }
    }
}
