//! The pinned target: a file resolved once and held by its open directory, locked, read, and
//! identified, so that the write that follows replaces the very file that was read.

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{read_error, OP_LOCK, OP_OPEN, OP_READ, OP_RESOLVE, OP_STAT};
use crate::sys::{self, Dir, Identity};
use crate::{decode, Decoded, FsError};

/// The size limit [`read`] uses: 1 GiB.
///
/// Edits hold the whole file (and usually a copy) in memory, so anything
/// bigger is almost certainly not a file anyone means to edit this way.
pub const DEFAULT_SIZE_LIMIT: u64 = 1 << 30;

/// How long [`Target::lock`] waits for another surgical process editing in the same directory.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(60);

/// What [`read`] learned about a file; pass it back to [`write_atomic`](crate::write_atomic) (or
/// [`remove`](crate::remove)).
///
/// The metadata is taken from the opened file descriptor (`fstat`), so it
/// describes the very file whose bytes were returned, even if the path was
/// swapped in between.
#[derive(Debug, Clone)]
pub struct FileInfo {
    /// The path as given to [`read`]. Use this when talking to the user.
    pub requested: PathBuf,
    /// The path with all symlinks resolved ([`std::fs::canonicalize`]).
    /// [`write_atomic`](crate::write_atomic) replaces this file, so a symlink that was read
    /// through stays a symlink and its target gets the new content.
    pub real_path: PathBuf,
    /// Permission bits, including setuid, setgid and sticky
    /// (`st_mode & 0o7777`).
    pub mode: u32,
    /// The owning user id.
    pub uid: u32,
    /// The owning group id.
    pub gid: u32,
    /// The number of bytes read, which is the length of the returned
    /// buffer.
    pub len: u64,
    /// How many hard links the file has. With more than one, [`write_atomic`](crate::write_atomic)
    /// rewrites the file in place so every name keeps seeing the same content (see there).
    pub nlink: u64,
    /// The directory holding the file, opened when the file was read: every later step works
    /// relative to it, so swapping a directory on the path for a link cannot redirect the write.
    pub(crate) dir: Arc<Dir>,
    /// The file's name in `dir`.
    pub(crate) name: OsString,
    /// What identifies this version of the file: checked again right before it is replaced.
    pub(crate) identity: Identity,
}

impl FileInfo {
    /// Fails with [`FsError::PermissionDenied`] (`op` `"replace"`) when the file may not be written:
    /// it has no write permission bit at all (a read-only file, refused even for root, which the
    /// system would let write it), or the system says this process may not write it (a file of
    /// another user, which the atomic write's rename could otherwise replace, since that needs only
    /// the directory to be writable). Callers that replace or delete a file check this first: a file
    /// its owner protected is never replaced behind their back.
    ///
    /// # Errors
    ///
    /// The above, and [`FsError::Io`] when the check itself fails.
    pub fn check_writable(&self) -> Result<(), FsError> {
        let denied = || FsError::PermissionDenied {
            path: self.requested.clone(),
            op: "replace",
        };
        if self.mode & 0o222 == 0 {
            return Err(denied());
        }
        match sys::may_write(&self.dir, &self.name) {
            Ok(true) => Ok(()),
            Ok(false) => Err(denied()),
            Err(e) => Err(io_error(&self.real_path, OP_STAT, e)),
        }
    }

    /// Fails with [`FsError::Changed`] unless the file is still the very version that was read.
    pub(crate) fn recheck(&self) -> Result<(), FsError> {
        let changed = |detail: &str| FsError::Changed {
            path: self.requested.clone(),
            detail: detail.to_string(),
        };
        match sys::stat_at(&self.dir, &self.name) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(changed("it was deleted")),
            Err(e) => Err(io_error(&self.real_path, OP_STAT, e)),
            Ok(st) if st.is_symlink() => Err(changed("it was replaced by a symbolic link")),
            Ok(st) if st.identity != self.identity => Err(changed("another program modified or replaced it")),
            Ok(_) => Ok(()),
        }
    }
}

/// A file to be read and replaced, pinned to the directory that holds it (see [`open_target`]).
#[derive(Debug, Clone)]
pub struct Target {
    /// The path as given.
    pub requested: PathBuf,
    /// The path with every symlink resolved.
    pub real_path: PathBuf,
    dir: Arc<Dir>,
    name: OsString,
}

/// Resolves `path` (following symlinks) and opens the directory that holds the file.
///
/// From here on, reading ([`Target::read`]), locking ([`Target::lock`]) and writing
/// ([`write_atomic`](crate::write_atomic)) work relative to that open directory and never follow a
/// symlink in the file's own name: a directory or file swapped for a link after this call cannot
/// redirect them.
///
/// # Errors
///
/// [`FsError::NotFound`] for a missing path or a dangling link, [`FsError::NotAFile`] for `/`,
/// [`FsError::PermissionDenied`] and [`FsError::Io`] otherwise.
pub fn open_target(path: &Path) -> Result<Target, FsError> {
    let real_path = fs::canonicalize(path).map_err(|e| read_error(path, OP_RESOLVE, e))?;
    let (Some(parent), Some(name)) = (real_path.parent(), real_path.file_name()) else {
        return Err(FsError::NotAFile {
            path: path.to_path_buf(),
            kind: "directory",
        });
    };
    let dir = sys::open_dir(parent).map_err(|e| read_error(path, OP_OPEN, e))?;
    Ok(Target {
        requested: path.to_path_buf(),
        name: name.to_os_string(),
        real_path,
        dir: Arc::new(dir),
    })
}

/// Holds an exclusive advisory lock on a directory; released on drop.
///
/// Every surgical process takes it before reading a file it will replace and keeps it until the
/// replacement is in place, so two surgical processes never interleave read-modify-write cycles
/// on files of the same directory. The directory is locked, not the file, because an atomic write
/// replaces the file's inode (a lock on it would be lost with it). Other programs do not take this
/// lock; the identity re-check in [`write_atomic`](crate::write_atomic) catches their writes.
///
/// The lock belongs to the open directory, not to the process: two [`Target`]s in one directory
/// opened separately exclude each other, even in one process, so a caller locking several files
/// locks each directory once.
#[derive(Debug)]
pub struct DirLock {
    dir: Arc<Dir>,
}

impl Drop for DirLock {
    fn drop(&mut self) {
        sys::unlock(&self.dir);
    }
}

impl Target {
    /// The open directory holding the file.
    pub(crate) fn dir_fd(&self) -> &Dir {
        &self.dir
    }

    /// Waits (up to [`LOCK_TIMEOUT`]) for the exclusive lock on the file's directory.
    ///
    /// # Errors
    ///
    /// [`FsError::Io`] if the lock cannot be had in time (another surgical process holds it).
    pub fn lock(&self) -> Result<DirLock, FsError> {
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match sys::try_lock(&self.dir) {
                Ok(true) => {
                    return Ok(DirLock {
                        dir: Arc::clone(&self.dir),
                    })
                }
                Ok(false) => {}
                Err(err) => return Err(io_error(&self.requested, OP_LOCK, err)),
            }
            if start.elapsed() > LOCK_TIMEOUT {
                return Err(io_error(
                    &self.requested,
                    OP_LOCK,
                    io::Error::other("another surgical process has been editing in this directory for over a minute"),
                ));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    /// Reads the whole file, of at most `limit` bytes. See [`read_with_limit`].
    pub fn read(&self, limit: u64) -> Result<(FileInfo, Vec<u8>), FsError> {
        self.read_scanning(limit).map(|(info, bytes, _)| (info, bytes))
    }

    /// [`Target::read`] and [`crate::decode_keeping`] in one: the bytes are looked through for a NUL
    /// (what tells a binary file) a piece at a time as they are read, while the piece just read is
    /// still in the processor's cache, instead of in a second pass over the whole file.
    pub fn read_decoding(&self, limit: u64) -> Result<(FileInfo, crate::Decoding), FsError> {
        let (info, bytes, first_nul) = self.read_scanning(limit)?;
        Ok((info, crate::encoding::decode_keeping_noted(bytes, first_nul)))
    }

    /// [`Target::read`], and the offset of the bytes' first NUL.
    fn read_scanning(&self, limit: u64) -> Result<(FileInfo, Vec<u8>, Option<usize>), FsError> {
        let path = self.requested.as_path();
        let replaced_by_link = || FsError::Changed {
            path: path.to_path_buf(),
            detail: "it was replaced by a symbolic link".into(),
        };
        // Check the type before opening: opening a FIFO for reading blocks until a writer shows up.
        let st = sys::stat_at(&self.dir, &self.name).map_err(|e| read_error(path, OP_STAT, e))?;
        if st.is_symlink() {
            return Err(replaced_by_link());
        }
        if let Some(kind) = st.kind {
            return Err(FsError::NotAFile {
                path: path.to_path_buf(),
                kind,
            });
        }
        check_size(path, st.size, limit)?;
        let mut file = sys::open_for_reading(&self.dir, &self.name).map_err(|e| {
            if sys::is_symlink_loop(&e) {
                replaced_by_link()
            } else {
                read_error(path, OP_OPEN, e)
            }
        })?;
        // The type again, of the file actually opened: something else may have been swapped in.
        let st = sys::stat_file(&file).map_err(|e| read_error(path, OP_STAT, e))?;
        if let Some(kind) = st.kind {
            return Err(FsError::NotAFile {
                path: path.to_path_buf(),
                kind,
            });
        }
        check_size(path, st.size, limit)?;

        let mut bytes = Vec::with_capacity(usize::try_from(st.size).unwrap_or(0));
        if bytes.capacity() >= HUGE_PAGES_FROM {
            sys::advise_huge_pages(bytes.spare_capacity_mut());
        }
        // Read one byte past the limit to notice a file that grew meanwhile.
        let mut reader = (&mut file).take(limit.saturating_add(1));
        let mut first_nul = None;
        loop {
            let at = bytes.len();
            let got = (&mut reader)
                .take(SCAN_PIECE)
                .read_to_end(&mut bytes)
                .map_err(|e| read_error(path, OP_READ, e))?;
            if first_nul.is_none() {
                first_nul = memchr::memchr(0, &bytes[at..]).map(|i| at + i);
            }
            if got == 0 {
                break;
            }
        }
        let len = bytes.len() as u64;
        check_size(path, len, limit)?;

        let info = FileInfo {
            requested: path.to_path_buf(),
            real_path: self.real_path.clone(),
            mode: st.mode,
            uid: st.uid,
            gid: st.gid,
            len,
            nlink: st.nlink,
            dir: Arc::clone(&self.dir),
            name: self.name.clone(),
            identity: st.identity,
        };
        Ok((info, bytes, first_nul))
    }
}

/// The size from which the buffer a file is read into is backed by huge pages where the system
/// offers them ([`sys::advise_huge_pages`]): below it the few faults saved are not worth the 2 MiB
/// granularity.
const HUGE_PAGES_FROM: usize = 8 << 20;

/// How much [`Target::read_decoding`] reads before it looks through what it read: small enough to
/// stay in the cache, large enough that the system calls cost nothing.
const SCAN_PIECE: u64 = 512 << 10;

/// Reads a whole regular file, refusing anything over
/// [`DEFAULT_SIZE_LIMIT`].
///
/// This is [`read_with_limit`] with the default limit; see it for the
/// details and errors.
pub fn read(path: &Path) -> Result<(FileInfo, Vec<u8>), FsError> {
    read_with_limit(path, DEFAULT_SIZE_LIMIT)
}

/// Reads a whole regular file of at most `limit` bytes.
///
/// Returns the file's metadata and its raw bytes; pass the bytes to
/// [`decode`] (or use [`read_decoded`]).
///
/// Symlinks are followed: `real_path` in the returned [`FileInfo`] is the
/// resolved path, and the bytes are those of the link's target.
///
/// # Errors
///
/// * [`FsError::NotFound`] if `path` does not exist, one of its parents is
///   not a directory, or it is a dangling symlink.
/// * [`FsError::PermissionDenied`] (with `op: "read"`) if the file or a
///   directory on the way cannot be accessed.
/// * [`FsError::NotAFile`] for directories, FIFOs, sockets and devices. The
///   type is checked before the file is opened, and the file is opened with
///   `O_NONBLOCK` and checked again, so this never blocks on a FIFO, even if
///   one is swapped in after the first check.
/// * [`FsError::TooLarge`] if the file has more than `limit` bytes, whether
///   that is known from its metadata or found while reading because it
///   grew. A file of exactly `limit` bytes is fine.
/// * [`FsError::Changed`] if the file's name was swapped for a symbolic link after the path was
///   resolved.
/// * [`FsError::Io`] for anything else.
///
/// Errors name `path` as given, not the resolved path.
pub fn read_with_limit(path: &Path, limit: u64) -> Result<(FileInfo, Vec<u8>), FsError> {
    open_target(path)?.read(limit)
}

/// Reads and decodes a file in one step: [`read`] followed by [`decode`].
///
/// Decoding errors ([`FsError::Binary`], [`FsError::UnsupportedEncoding`])
/// name `path`, unlike those of [`decode`] itself.
pub fn read_decoded(path: &Path) -> Result<(FileInfo, Decoded), FsError> {
    let (info, bytes) = read(path)?;
    let decoded = decode(bytes).map_err(|e| e.with_path(path))?;
    Ok((info, decoded))
}

pub(crate) fn io_error(path: &Path, op: &'static str, source: io::Error) -> FsError {
    FsError::Io {
        path: Some(path.to_path_buf()),
        op,
        source,
    }
}

fn check_size(path: &Path, len: u64, limit: u64) -> Result<(), FsError> {
    if len > limit {
        return Err(FsError::TooLarge {
            path: path.to_path_buf(),
            len,
            limit,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Encoding;
    #[cfg(unix)]
    use std::ffi::CString;
    #[cfg(unix)]
    use std::os::unix::ffi::OsStrExt;
    #[cfg(unix)]
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    #[cfg(unix)]
    use std::sync::mpsc;
    #[test]
    fn read_decoding_decodes_what_read_reads() {
        let dir = tempfile::tempdir().unwrap();
        let piece = SCAN_PIECE as usize;
        let long = |nul_at: Option<usize>| {
            let mut bytes = b"line\n".repeat(3 * piece / 5 + 1);
            if let Some(at) = nul_at {
                bytes[at] = 0;
            }
            bytes
        };
        let files: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"plain\n".to_vec(),
            b"a\x00b".to_vec(),
            b"\xEF\xBB\xBFa\x00b".to_vec(),
            b"\xFF\xFEa\x00".to_vec(),
            long(None),
            long(Some(0)),
            long(Some(piece - 1)),
            long(Some(piece)),
            long(Some(2 * piece + 3)),
            b"x".repeat(piece),
        ];
        for (k, bytes) in files.iter().enumerate() {
            let path = dir.path().join(format!("f{k}"));
            fs::write(&path, bytes).unwrap();
            let target = open_target(&path).unwrap();
            let (_, read) = target.read(u64::MAX).unwrap();
            assert_eq!(&read, bytes);
            let expected = format!("{:?}", crate::decode_keeping(read));
            let (info, decoding) = target.read_decoding(u64::MAX).unwrap();
            assert_eq!(info.len, bytes.len() as u64);
            assert_eq!(format!("{decoding:?}"), expected, "file {k}");
            // The limit still holds, one byte past it noticed.
            if !bytes.is_empty() {
                let limit = bytes.len() as u64 - 1;
                assert!(
                    matches!(target.read_decoding(limit), Err(FsError::TooLarge { .. })),
                    "file {k}"
                );
            }
        }
    }

    #[test]
    fn read_returns_bytes_and_info() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        fs::write(&path, b"hello\r\n\xFF").unwrap();
        let (info, bytes) = read(&path).unwrap();
        assert_eq!(bytes, b"hello\r\n\xFF");
        assert_eq!(info.requested, path);
        assert_eq!(info.real_path, fs::canonicalize(&path).unwrap());
        assert_eq!(info.len, 8);
        #[cfg(unix)]
        {
            let meta = fs::metadata(&path).unwrap();
            assert_eq!(info.mode, meta.mode() & 0o7777);
            assert_eq!((info.uid, info.gid), (meta.uid(), meta.gid()));
        }
        #[cfg(windows)]
        assert_eq!(info.mode, 0o666);
    }

    #[test]
    fn lock_excludes_other_holders() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"x").unwrap();
        let first = open_target(&path).unwrap();
        let guard = first.lock().unwrap();
        // A second open of the same directory (another process would do the same) must wait.
        let second = open_target(&path).unwrap();
        assert!(!sys::try_lock(&second.dir).unwrap());
        drop(guard);
        let _ = second.lock().unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn unreadable_file_is_permission_denied() {
        if crate::unprivileged::rerun_as_nobody("target::tests::unreadable_file_is_permission_denied") {
            return; // Root ignores permission bits: this ran as nobody.
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret");
        fs::write(&path, b"x").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
        let err = read(&path).unwrap_err();
        assert!(matches!(err, FsError::PermissionDenied { op: "read", .. }), "{err:?}");
    }

    #[test]
    fn missing_file_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nope.txt");
        match read(&path).unwrap_err() {
            FsError::NotFound { path: p } => assert_eq!(p, path),
            other => panic!("{other:?}"),
        }
        // A regular file used as a directory.
        let file = dir.path().join("file");
        fs::write(&file, b"").unwrap();
        let err = read(&file.join("child")).unwrap_err();
        assert_eq!(err.code(), "file_not_found", "{err:?}");
        // A dangling symlink.
        #[cfg(unix)]
        {
            let link = dir.path().join("dangling");
            std::os::unix::fs::symlink("nowhere", &link).unwrap();
            assert_eq!(read(&link).unwrap_err().code(), "file_not_found");
        }
    }

    #[test]
    fn directory_is_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path()).unwrap_err();
        assert!(matches!(err, FsError::NotAFile { kind: "directory", .. }), "{err:?}");
        assert!(err.to_string().contains("give the path of a file inside it"));
    }

    #[cfg(unix)]
    #[test]
    fn fifo_is_not_a_file_and_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pipe");
        let c = CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        // Run in a thread so a regression fails the test instead of hanging.
        let (tx, rx) = mpsc::channel();
        let p = path.clone();
        std::thread::spawn(move || tx.send(read(&p).map(|_| ())).unwrap());
        let err = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("read blocked on a FIFO")
            .unwrap_err();
        assert!(matches!(err, FsError::NotAFile { kind: "fifo", .. }), "{err:?}");
    }

    #[cfg(unix)]
    #[test]
    fn socket_and_device_are_not_files() {
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let err = read(&sock).unwrap_err();
        assert!(matches!(err, FsError::NotAFile { kind: "socket", .. }), "{err:?}");

        let err = read(Path::new("/dev/null")).unwrap_err();
        assert!(
            matches!(
                err,
                FsError::NotAFile {
                    kind: "character device",
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn size_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        fs::write(&path, b"12345").unwrap();
        assert_eq!(read_with_limit(&path, 5).unwrap().1, b"12345");
        match read_with_limit(&path, 4).unwrap_err() {
            FsError::TooLarge { path: p, len, limit } => {
                assert_eq!((p, len, limit), (path, 5, 4));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            read_with_limit(&dir.path().join("x"), 0).unwrap_err().code(),
            "file_not_found"
        );
    }

    #[test]
    fn read_decoded_names_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("img.png");
        fs::write(&path, b"\x89PNG\r\n\x1a\n\x00\x00").unwrap();
        let err = read_decoded(&path).unwrap_err();
        assert_eq!(err.path(), Some(path.as_path()));
        assert!(err
            .to_string()
            .starts_with(&format!("{} looks binary (NUL byte at offset 8)", path.display())));

        let text = dir.path().join("t.txt");
        fs::write(&text, b"\xFE\xFF\x00a").unwrap();
        let (_, d) = read_decoded(&text).unwrap();
        assert_eq!((d.encoding, d.text), (Encoding::Utf16Be, b"a".to_vec()));
    }
}
