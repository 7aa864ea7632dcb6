//! The workspace root: every path a tool call names must lead inside it.
//!
//! The policy, in full:
//! * A relative path is taken relative to the root; an absolute path is allowed only if it leads
//!   inside the root.
//! * Symbolic links are followed, at any level (the root itself may be a link): what counts is
//!   where the path really leads. A link inside the root pointing inside it is fine; one pointing
//!   outside is refused, as is `..` climbing out.
//! * A path that does not exist yet (a file about to be created) is judged by its deepest existing
//!   ancestor, and the components after it may not contain `..`.
//! * The check is not only made once: [`Root::open`] opens the file's directory and confirms that
//!   the opened directory itself lies inside the root, and all later reads and writes go through
//!   that open directory without following links (see [`crate::open_target`]). A directory or file
//!   swapped for a link after the check therefore cannot redirect the write outside.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use crate::create::NewFile;
use crate::sys::{self, Dir};
use crate::target::{open_target, Target};
use crate::FsError;

/// The directory tool calls may read and edit in. Cheap to clone; immutable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    real: PathBuf,
}

impl Root {
    /// The root at `dir`, symlinks resolved.
    ///
    /// # Errors
    ///
    /// [`FsError::NotFound`] if `dir` does not exist; [`FsError::Io`] if it cannot be resolved or
    /// is not a directory.
    pub fn new(dir: &Path) -> Result<Root, FsError> {
        let real = std::fs::canonicalize(dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => FsError::NotFound {
                path: dir.to_path_buf(),
            },
            _ => FsError::Io {
                path: Some(dir.to_path_buf()),
                op: "resolve symlinks in",
                source: e,
            },
        })?;
        if !real.is_dir() {
            return Err(FsError::Io {
                path: Some(dir.to_path_buf()),
                op: "use as the workspace root",
                source: std::io::Error::other("it is not a directory"),
            });
        }
        Ok(Root { real })
    }

    /// The root's real path.
    pub fn path(&self) -> &Path {
        &self.real
    }

    /// Whether a real (resolved) path lies inside the root (the root itself included). On Windows
    /// names are compared case-insensitively, and `\\?\C:\` counts as `C:\`.
    pub fn contains(&self, real: &Path) -> bool {
        sys::path_starts_with(real, &self.real)
    }

    /// Where `requested` leads, symlinks resolved, if that is inside the root. The path need not
    /// exist (for files about to be created).
    ///
    /// # Errors
    ///
    /// [`FsError::OutsideRoot`] naming `requested` and where it leads.
    pub fn resolve(&self, requested: &str) -> Result<PathBuf, FsError> {
        let given = Path::new(requested);
        let joined = if given.is_absolute() {
            given.to_path_buf()
        } else {
            self.real.join(given)
        };
        let outside = |resolved: PathBuf| FsError::OutsideRoot {
            path: given.to_path_buf(),
            resolved,
            root: self.real.clone(),
        };
        // The deepest ancestor that exists, resolved; the rest must be plain names.
        let mut existing = joined.as_path();
        let mut rest: Vec<&OsStr> = Vec::new();
        let real = loop {
            match std::fs::canonicalize(existing) {
                Ok(real) => break real,
                Err(_) if std::fs::symlink_metadata(existing).is_ok() => {
                    // A dangling link: where it points cannot be judged, so it is not followed.
                    return Err(outside(joined.clone()));
                }
                Err(_) => {
                    let (Some(parent), Some(Component::Normal(name))) =
                        (existing.parent(), existing.components().next_back())
                    else {
                        return Err(outside(joined.clone()));
                    };
                    rest.push(name);
                    existing = parent;
                }
            }
        };
        let mut resolved = real;
        for name in rest.iter().rev() {
            resolved.push(name);
        }
        if !self.contains(&resolved) {
            return Err(outside(resolved));
        }
        Ok(resolved)
    }

    /// Resolves `requested` and opens it as a [`Target`] for reading, locking and writing,
    /// checking that the directory actually opened is inside the root.
    ///
    /// # Errors
    ///
    /// Those of [`Root::resolve`] and [`open_target`].
    pub fn open(&self, requested: &str) -> Result<Target, FsError> {
        let resolved = self.resolve(requested)?;
        if resolved == self.real {
            return Err(FsError::NotAFile {
                path: PathBuf::from(requested),
                kind: "directory",
            });
        }
        let mut target = open_target(&resolved).map_err(|e| rename_path(e, requested))?;
        target.requested = PathBuf::from(requested);
        // A directory swapped for a link between `resolve` and opening it would show here.
        self.check_open_dir(target.dir_fd(), Path::new(requested))?;
        Ok(target)
    }

    /// Creates a new file at `real` (a path [`Root::resolve`] returned), with its missing parent
    /// directories, never replacing anything; see [`crate::write_new`]. The directory it is created
    /// in is checked, from its open descriptor, to be inside the root. Returns what was created, for
    /// [`NewFile::remove`].
    ///
    /// # Errors
    ///
    /// [`FsError::OutsideRoot`] when `real` is not inside the root, or the directory opened for it
    /// turns out not to be; those of [`crate::write_new`] otherwise.
    pub fn create(&self, real: &Path, bytes: &[u8], mode: Option<u32>) -> Result<NewFile, FsError> {
        if !self.contains(real) {
            return Err(FsError::OutsideRoot {
                path: real.to_path_buf(),
                resolved: real.to_path_buf(),
                root: self.real.clone(),
            });
        }
        crate::create::create(real, bytes, mode, Some(self))
    }

    /// Fails with `outside_root` unless the open directory `dir` is inside the root, judged from
    /// the descriptor itself (where the kernel says it is now).
    pub(crate) fn check_open_dir(&self, dir: &Dir, requested: &Path) -> Result<(), FsError> {
        let Some(real) = sys::dir_path(dir) else {
            // No /proc: the later steps still work relative to the open directory, never following
            // a link in the file's name, and the identity re-check still holds.
            return Ok(());
        };
        if !self.contains(&real) {
            return Err(FsError::OutsideRoot {
                path: requested.to_path_buf(),
                resolved: real,
                root: self.real.clone(),
            });
        }
        Ok(())
    }
}

/// Errors from opening the resolved path should name the path the caller gave.
fn rename_path(e: FsError, requested: &str) -> FsError {
    let requested = PathBuf::from(requested);
    match e {
        FsError::NotFound { .. } => FsError::NotFound { path: requested },
        FsError::NotAFile { kind, .. } => FsError::NotAFile { path: requested, kind },
        FsError::PermissionDenied { op, .. } => FsError::PermissionDenied { path: requested, op },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::symlink;

    fn setup() -> (tempfile::TempDir, Root) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("ws")).unwrap();
        std::fs::write(dir.path().join("ws/a.txt"), "a").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "s").unwrap();
        let root = Root::new(&dir.path().join("ws")).unwrap();
        (dir, root)
    }

    #[test]
    fn inside_paths_resolve() {
        let (_d, root) = setup();
        assert_eq!(root.resolve("a.txt").unwrap(), root.path().join("a.txt"));
        // `..` after a missing directory cannot be judged without guessing: refused. Windows itself
        // takes `..` away by name before it looks anything up, so there it leads to `a.txt`.
        #[cfg(unix)]
        assert_eq!(root.resolve("sub/../a.txt").unwrap_err().code(), "outside_root");
        #[cfg(windows)]
        assert_eq!(root.resolve("sub/../a.txt").unwrap(), root.path().join("a.txt"));
        assert_eq!(
            root.resolve("new/dir/file.txt").unwrap(),
            root.path().join("new/dir/file.txt")
        );
        let abs = root.path().join("a.txt");
        assert_eq!(root.resolve(abs.to_str().unwrap()).unwrap(), abs);
    }

    #[test]
    fn escapes_are_refused() {
        let (d, root) = setup();
        for bad in [
            "../secret.txt",
            "/etc/passwd",
            "new/../../secret.txt",
            "a.txt/../../secret.txt",
        ] {
            let err = root.resolve(bad).unwrap_err();
            assert_eq!(err.code(), "outside_root", "{bad}: {err}");
            assert!(err.to_string().contains(bad), "{err}");
        }
        #[cfg(unix)]
        escapes_through_links_are_refused(&d, &root);
        #[cfg(not(unix))]
        drop(d);
    }

    #[cfg(unix)]
    fn escapes_through_links_are_refused(d: &tempfile::TempDir, root: &Root) {
        symlink(d.path().join("secret.txt"), root.path().join("link-out")).unwrap();
        assert_eq!(root.resolve("link-out").unwrap_err().code(), "outside_root");
        symlink(d.path(), root.path().join("dir-out")).unwrap();
        assert_eq!(root.resolve("dir-out/secret.txt").unwrap_err().code(), "outside_root");
        assert_eq!(root.resolve("dir-out/new.txt").unwrap_err().code(), "outside_root");
        symlink("/nonexistent/x", root.path().join("dangling")).unwrap();
        assert_eq!(root.resolve("dangling").unwrap_err().code(), "outside_root");
    }

    #[cfg(unix)]
    #[test]
    fn links_inside_are_followed() {
        let (_d, root) = setup();
        symlink("a.txt", root.path().join("link-in")).unwrap();
        assert_eq!(root.resolve("link-in").unwrap(), root.path().join("a.txt"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_root_works() {
        let (d, _) = setup();
        symlink(d.path().join("ws"), d.path().join("ws-link")).unwrap();
        let root = Root::new(&d.path().join("ws-link")).unwrap();
        assert_eq!(
            root.resolve("a.txt").unwrap(),
            d.path().join("ws/a.txt").canonicalize().unwrap()
        );
        let t = root.open("a.txt").unwrap();
        assert_eq!(t.read(100).unwrap().1, b"a");
    }

    #[cfg(unix)]
    #[test]
    fn create_stays_inside() {
        let (d, root) = setup();
        let path = root.resolve("new/dir/file.txt").unwrap();
        root.create(&path, b"x", None).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"x");
        // A directory swapped for a link pointing out, after the path was resolved.
        let resolved = root.resolve("later/file.txt").unwrap();
        symlink(d.path(), root.path().join("later")).unwrap();
        assert_eq!(root.create(&resolved, b"x", None).unwrap_err().code(), "outside_root");
        assert!(!d.path().join("file.txt").exists());
        assert_eq!(
            root.create(&d.path().join("x.txt"), b"x", None).unwrap_err().code(),
            "outside_root"
        );
    }

    #[test]
    fn open_checks_and_names_the_request() {
        let (_d, root) = setup();
        assert!(root
            .open("missing.txt")
            .unwrap_err()
            .to_string()
            .contains("missing.txt"));
        assert_eq!(root.open(".").unwrap_err().code(), "not_a_file");
    }
}
