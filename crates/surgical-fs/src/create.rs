//! Creating a file that does not exist yet: the counterpart of [`write_atomic`](crate::write_atomic)
//! for a path with nothing to replace.

use std::ffi::OsString;
use std::fs::{self, File, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::FsError;

/// The mode a new file gets unless told otherwise: read and write for everyone, less the process's
/// umask, as `touch` or an editor would create it.
pub const DEFAULT_NEW_FILE_MODE: u32 = 0o666;

/// File names longer than this many bytes are shortened in the temporary file's name, as
/// [`write_atomic`](crate::write_atomic) does.
const MAX_TEMP_NAME_STEM: usize = 200;

const OP_CREATE_DIRS: &str = "create the parent directories of";
const OP_CREATE_TEMP: &str = "create a temporary file next to";
const OP_WRITE_TEMP: &str = "write the temporary file for";
const OP_SYNC_TEMP: &str = "sync the temporary file for";
const OP_PLACE: &str = "create";
const OP_SYNC_DIR: &str = "sync the directory of";
const OP_VERIFY: &str = "verify";

/// Creates the file `path` holding `bytes`, atomically, creating missing parent directories.
///
/// The steps: create the missing parent directories (mode `0o777` less the umask); write `bytes`
/// to a temporary file in the target's directory, named `.<filename>.surgical-<pid>-<random>.tmp`
/// and opened with `mode` (default [`DEFAULT_NEW_FILE_MODE`]; the umask applies, as for any new
/// file); `fsync` it; move it to `path` without replacing anything (`renameat2` with
/// `RENAME_NOREPLACE`, or a hard link and unlink where the file system lacks it); `fsync` the
/// directory, and the parent of each directory created, so the new names survive a crash; finally
/// read the file back and compare it with `bytes`.
///
/// Readers see no file or the whole file, never a part of it.
///
/// # Edge cases
///
/// * Anything already at `path` (a file, a directory, a symlink, even a dangling one) is never
///   replaced: the call fails and the temporary file is removed. This also catches another
///   process creating the file in the meantime.
/// * A relative `path` resolves against the current directory, like any path.
/// * Directories created before a later step fails are left in place (they are empty).
///
/// # Errors
///
/// [`FsError::PermissionDenied`] (with `op: "write"`) when a directory cannot be written;
/// [`FsError::Io`] otherwise, its message saying which step failed. The error for an existing
/// path says so and has an [`io::ErrorKind::AlreadyExists`] source. Errors name `path`.
pub fn write_new(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<(), FsError> {
    let name = path.file_name().ok_or_else(|| {
        io_error(
            path,
            OP_PLACE,
            io::Error::new(io::ErrorKind::InvalidInput, "the path does not end in a file name"),
        )
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let created_dirs = create_parents(&dir).map_err(|e| write_error(path, OP_CREATE_DIRS, e))?;

    // Dropping `tmp` on any early return removes the temporary file.
    let mut tmp = create_temp(&dir, name.as_bytes(), mode.unwrap_or(DEFAULT_NEW_FILE_MODE) & 0o7777)
        .map_err(|e| write_error(path, OP_CREATE_TEMP, e))?;
    tmp.as_file_mut()
        .write_all(bytes)
        .map_err(|e| write_error(path, OP_WRITE_TEMP, e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| write_error(path, OP_SYNC_TEMP, e))?;
    tmp.persist_noclobber(path).map_err(|e| {
        if e.error.kind() == io::ErrorKind::AlreadyExists {
            io_error(
                path,
                OP_PLACE,
                io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    "something already exists at this path (another process may have just created it, or it is \
                     a symbolic link to a missing file); nothing was written",
                ),
            )
        } else {
            write_error(path, OP_PLACE, e.error)
        }
    })?;

    sync_dir(&dir).map_err(|e| io_error(path, OP_SYNC_DIR, e))?;
    for created in &created_dirs {
        if let Some(parent) = created.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync_dir(parent).map_err(|e| io_error(path, OP_SYNC_DIR, e))?;
        }
    }
    verify(path, bytes)
}

/// Creates `dir` and its missing ancestors; returns the directories created, outermost first.
fn create_parents(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut at = Some(dir);
    while let Some(d) = at.filter(|d| !d.as_os_str().is_empty()) {
        match fs::symlink_metadata(d) {
            // The deepest existing ancestor must be a directory (or a link to one).
            Ok(_) if fs::metadata(d).is_ok_and(|m| m.is_dir()) => break,
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!("{} exists and is not a directory", d.display()),
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => missing.push(d.to_path_buf()),
            Err(e) => return Err(e),
        }
        at = d.parent();
    }
    missing.reverse();
    if !missing.is_empty() {
        fs::create_dir_all(dir)?;
    }
    Ok(missing)
}

/// Creates the temporary file `.<name>.surgical-<pid>-<16 hex digits>.tmp` in `dir`: the naming
/// `write_atomic` uses, so a temporary file left by a killed process is cleaned up the same way.
fn create_temp(dir: &Path, name: &[u8], mode: u32) -> io::Result<tempfile::NamedTempFile> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = &name[..name.len().min(MAX_TEMP_NAME_STEM)];
    let mut last = None;
    for _ in 0..16 {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let random = nanos
            ^ COUNTER
                .fetch_add(1, Ordering::Relaxed)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut prefix = Vec::with_capacity(name.len() + 48);
        prefix.push(b'.');
        prefix.extend_from_slice(name);
        prefix.extend_from_slice(format!(".surgical-{}-{random:016x}", std::process::id()).as_bytes());
        let result = tempfile::Builder::new()
            .prefix(&OsString::from_vec(prefix))
            .suffix(".tmp")
            .rand_bytes(0)
            .permissions(Permissions::from_mode(mode))
            .tempfile_in(dir);
        match result {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            other => return other,
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("could not pick a temporary name")))
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir)?.sync_all() {
        // Some file systems cannot fsync a directory; the data itself is synced already.
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
        other => other,
    }
}

/// Reads the new file back in fixed-size chunks and compares it with what was written.
fn verify(path: &Path, expected: &[u8]) -> Result<(), FsError> {
    let mut file = File::open(path).map_err(|e| io_error(path, OP_VERIFY, e))?;
    let mut buf = vec![0u8; 1 << 16];
    let mut offset = 0usize;
    loop {
        let n = match file.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(path, OP_VERIFY, e)),
        };
        let end = (offset + n).min(expected.len());
        if buf[..end - offset] != expected[offset..end] || (n == 0 && offset != expected.len()) || end - offset < n {
            return Err(io_error(
                path,
                OP_VERIFY,
                io::Error::other(format!(
                    "verification after write failed: the file read back differs from the {} bytes written; \
                     another process may have written to it. Read it again before editing it",
                    expected.len()
                )),
            ));
        }
        if n == 0 {
            return Ok(());
        }
        offset += n;
    }
}

fn io_error(path: &Path, op: &'static str, source: io::Error) -> FsError {
    FsError::Io {
        path: Some(path.to_path_buf()),
        op,
        source,
    }
}

fn write_error(path: &Path, op: &'static str, source: io::Error) -> FsError {
    if source.kind() == io::ErrorKind::PermissionDenied {
        FsError::PermissionDenied {
            path: path.to_path_buf(),
            op: "write",
        }
    } else {
        io_error(path, op, source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, MetadataExt};

    fn umask() -> u32 {
        // Read the umask without changing it for good: set and restore.
        // SAFETY: umask has no preconditions; tests in this module do not create files meanwhile.
        unsafe {
            let old = libc::umask(0o022);
            libc::umask(old);
            old as u32
        }
    }

    #[test]
    fn creates_file_and_parents() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/c.txt");
        write_new(&path, b"hello\r\n", None).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"hello\r\n");
        let mode = fs::metadata(&path).unwrap().mode() & 0o7777;
        assert_eq!(mode, DEFAULT_NEW_FILE_MODE & !umask());
        // Only the file is left: no temporary files.
        let names: Vec<_> = fs::read_dir(dir.path().join("a/b"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("c.txt")]);
    }

    #[test]
    fn explicit_mode_and_empty_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.sh");
        write_new(&path, b"", Some(0o700)).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"");
        assert_eq!(fs::metadata(&path).unwrap().mode() & 0o777, 0o700 & !umask());
    }

    #[test]
    fn never_replaces_anything() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        fs::write(&file, b"old").unwrap();
        let err = write_new(&file, b"new", None).unwrap_err();
        assert_eq!(err.code(), "io");
        assert!(err.to_string().contains("already exists"), "{err}");
        assert_eq!(fs::read(&file).unwrap(), b"old");

        let dangling = dir.path().join("link");
        symlink(dir.path().join("missing"), &dangling).unwrap();
        let err = write_new(&dangling, b"x", None).unwrap_err();
        assert!(err.to_string().contains("already exists"), "{err}");
        assert!(!dir.path().join("missing").exists());
        assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());

        let sub = dir.path().join("d");
        fs::create_dir(&sub).unwrap();
        assert!(write_new(&sub, b"x", None).is_err());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 3, "no temporary file left: {names:?}");
    }

    #[test]
    fn parent_that_is_a_file() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("f"), b"x").unwrap();
        let err = write_new(&dir.path().join("f/g.txt"), b"x", None).unwrap_err();
        assert_eq!(err.code(), "io");
        assert!(err.to_string().contains("create the parent directories of"), "{err}");
    }
}
