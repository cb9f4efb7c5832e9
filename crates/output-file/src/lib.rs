//! # output-file
//!
//! The one way the tools (`layout-opt -o`, `layout-run pack`, every `.npy` output) write an
//! output file. [`write`] decides by what the path names *after following symlinks*:
//!
//! * a regular file, or nothing yet: the bytes go to a temporary file in the same directory,
//!   which is fsynced and renamed over the target, so a reader sees the old file or the whole
//!   new one and a failure leaves nothing half-written. An existing file keeps its permission
//!   bits (and, best effort, its owner and group), as `>` redirection would keep them.
//! * a character or block device, a FIFO or a socket: written through (opened without
//!   truncation, or connected for a socket). Replacing it by a regular file would destroy it
//!   (`-o /dev/null` as root used to leave a regular file at `/dev/null`); a FIFO write blocks
//!   until a reader opens the other end, as with any program writing to a FIFO.
//! * a directory: an error.
//!
//! A symlink is followed to its final target, also when that target does not exist yet (the
//! file is created where the link points), so the link itself stays a link.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

#[cfg(test)]
mod tests;

/// Symlink hops followed before giving up (Linux's own limit, `ELOOP`, is 40).
const MAX_SYMLINK_HOPS: usize = 40;

/// Writes `contents` to `path` as described in the crate documentation. The error message says
/// what failed; it does not repeat `path` (callers prefix it).
pub fn write(path: impl AsRef<Path>, contents: &[u8]) -> io::Result<()> {
    let (target, existing) = resolve(path.as_ref())?;
    match existing {
        None => replace(&target, contents, None),
        Some(metadata) => {
            let kind = metadata.file_type();
            if kind.is_file() {
                replace(&target, contents, Some(&metadata))
            } else if kind.is_dir() {
                Err(io::Error::new(io::ErrorKind::IsADirectory, "is a directory"))
            } else if kind.is_socket() {
                std::os::unix::net::UnixStream::connect(&target)?.write_all(contents)
            } else {
                // Character and block devices, FIFOs: write through, never truncate or replace.
                let mut file = OpenOptions::new().write(true).open(&target)?;
                file.write_all(contents)?;
                file.flush()
            }
        }
    }
}

/// The final target of `path` (every symlink of the last component followed, relative links
/// read against the link's directory) and its metadata, `None` if nothing exists there.
fn resolve(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_SYMLINK_HOPS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(metadata) => return Ok((current, Some(metadata))),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok((current, None)),
            Err(error) => return Err(error),
        }
    }
    Err(io::Error::other(format!("more than {MAX_SYMLINK_HOPS} levels of symbolic links")))
}

/// Writes a temporary file next to `target`, gives it `existing`'s mode, fsyncs it and renames
/// it over `target`; the temporary file is removed on any failure.
fn replace(target: &Path, contents: &[u8], existing: Option<&Metadata>) -> io::Result<()> {
    let name = target.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let (temp, mut file) = create_temp(dir, &name.to_string_lossy())?;
    let written = (|| {
        if let Some(metadata) = existing {
            keep_owner(&file, metadata);
            file.set_permissions(std::fs::Permissions::from_mode(metadata.mode() & 0o7777))?;
        }
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, target)
    })();
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(error);
    }
    // Make the rename itself durable; some file systems cannot fsync a directory, and the
    // data is already complete, so that is not an error.
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
    Ok(())
}

/// A new file `.NAME.tmp.PID.N` in `dir` (created exclusively, so two writers never share one).
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let mut attempt = 0u32;
    loop {
        let temp = dir.join(format!(".{name}.tmp.{}.{attempt}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(error) => return Err(error),
        }
    }
}

/// Gives the temporary file the replaced file's owner and group. Only root may give a file away,
/// and a user only to their own groups: elsewhere this fails, and the new file then belongs to
/// the writer, as with any newly written file.
fn keep_owner(file: &File, metadata: &Metadata) {
    let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()));
}
