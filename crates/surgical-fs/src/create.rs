//! Creating a file that does not exist yet: the counterpart of [`write_atomic`](crate::write_atomic)
//! for a path with nothing to replace.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::write_error;
use crate::sys::open_dir;
use crate::writer::{create_new_at, sync_path};
use crate::{FsError, Root};

/// The mode a new file gets unless told otherwise: read and write for everyone, less the process's
/// umask, as `touch` or an editor would create it.
pub const DEFAULT_NEW_FILE_MODE: u32 = 0o666;

const OP_CREATE_DIRS: &str = "create the parent directories of";
const OP_OPEN_DIR: &str = "open the directory of";

/// A file [`write_new`] (or [`Root::create`]) created, and the directories it created for it: what
/// taking the creation back has to remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFile {
    /// The file, as the path it was created at.
    pub path: PathBuf,
    /// The parent directories that did not exist before, outermost first (empty when the parent
    /// existed).
    pub created_dirs: Vec<PathBuf>,
}

impl NewFile {
    /// Takes the creation back: removes the file, then each directory created for it, innermost
    /// first, as long as it is empty (a directory something else was put in meanwhile stays).
    ///
    /// # Errors
    ///
    /// The error of removing the file, if that fails; the directories are then left alone.
    pub fn remove(&self) -> io::Result<()> {
        fs::remove_file(&self.path)?;
        for dir in self.created_dirs.iter().rev() {
            // Fails, harmlessly, when the directory is no longer empty.
            let _ = fs::remove_dir(dir);
        }
        Ok(())
    }
}

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
///
/// Returns what was created, for [`NewFile::remove`].
pub fn write_new(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<NewFile, FsError> {
    create(path, bytes, mode, None)
}

/// [`write_new`], and with `root`, the directory the file is created in is checked, from its open
/// descriptor, to be inside the root; the file is created relative to that descriptor, so a
/// directory swapped for a link meanwhile cannot redirect it.
pub(crate) fn create(path: &Path, bytes: &[u8], mode: Option<u32>, root: Option<&Root>) -> Result<NewFile, FsError> {
    let (Some(name), Some(dir)) = (path.file_name(), path.parent()) else {
        return Err(FsError::Io {
            path: Some(path.to_path_buf()),
            op: "create",
            source: io::Error::new(io::ErrorKind::InvalidInput, "the path does not end in a file name"),
        });
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let created_dirs = create_parents(dir).map_err(|e| write_error(path, OP_CREATE_DIRS, e))?;
    let dir_fd = open_dir(dir).map_err(|e| write_error(path, OP_OPEN_DIR, e))?;
    if let Some(root) = root {
        root.check_open_dir(&dir_fd, path)?;
    }
    create_new_at(&dir_fd, name, path, bytes, mode.unwrap_or(DEFAULT_NEW_FILE_MODE))?;
    // The new directories' own entries must be durable too.
    for created in &created_dirs {
        if let Some(parent) = created.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync_path(parent);
        }
    }
    Ok(NewFile {
        path: path.to_path_buf(),
        created_dirs,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::{symlink, MetadataExt};

    #[cfg(unix)]
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
        let created = write_new(&path, b"hello\r\n", None).unwrap();
        assert_eq!(created.created_dirs, [dir.path().join("a"), dir.path().join("a/b")]);
        assert_eq!(fs::read(&path).unwrap(), b"hello\r\n");
        #[cfg(unix)]
        assert_eq!(
            fs::metadata(&path).unwrap().mode() & 0o7777,
            DEFAULT_NEW_FILE_MODE & !umask()
        );
        // Only the file is left: no temporary files.
        let names: Vec<_> = fs::read_dir(dir.path().join("a/b"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("c.txt")]);
    }

    #[cfg(unix)]
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

        #[cfg(unix)]
        {
            let dangling = dir.path().join("link");
            symlink(dir.path().join("missing"), &dangling).unwrap();
            let err = write_new(&dangling, b"x", None).unwrap_err();
            assert!(err.to_string().contains("already exists"), "{err}");
            assert!(!dir.path().join("missing").exists());
            assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        }

        let sub = dir.path().join("d");
        fs::create_dir(&sub).unwrap();
        assert!(write_new(&sub, b"x", None).is_err());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let expected = if cfg!(unix) { 3 } else { 2 };
        assert_eq!(names.len(), expected, "no temporary file left: {names:?}");
    }

    #[test]
    fn parent_that_is_a_file() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("f"), b"x").unwrap();
        let err = write_new(&dir.path().join("f/g.txt"), b"x", None).unwrap_err();
        assert_eq!(err.code(), "io");
        assert!(err.to_string().contains("create the parent directories of"), "{err}");
    }

    #[test]
    fn a_creation_can_be_taken_back() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("kept")).unwrap();
        let created = write_new(&dir.path().join("kept/new/deeper/f.txt"), b"x", None).unwrap();
        fs::write(dir.path().join("kept/new/other"), b"y").unwrap();
        created.remove().unwrap();
        // The directory that is not empty any more stays; the one only the file needed goes.
        assert!(!dir.path().join("kept/new/deeper").exists());
        assert!(dir.path().join("kept/new/other").exists());
        assert!(created.remove().is_err());
    }
}
