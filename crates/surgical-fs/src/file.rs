use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::error::{
    read_error, write_error, OP_CHMOD, OP_CHOWN, OP_CREATE_TEMP, OP_INVALID_PATH, OP_OPEN, OP_READ, OP_RENAME,
    OP_RESOLVE, OP_STAT, OP_SYNC_DIR, OP_SYNC_TEMP, OP_VERIFY, OP_WRITE_TEMP,
};
use crate::{decode, Decoded, FsError};

/// The size limit [`read`] uses: 1 GiB.
///
/// Edits hold the whole file (and usually a copy) in memory, so anything
/// bigger is almost certainly not a file anyone means to edit this way.
pub const DEFAULT_SIZE_LIMIT: u64 = 1 << 30;

/// File names longer than this many bytes are shortened in the temporary
/// file's name so that it stays under the usual 255-byte `NAME_MAX`; the
/// rest of the temporary name needs at most about 35 bytes.
const MAX_TEMP_NAME_STEM: usize = 200;

/// What [`read`] learned about a file; pass it back to [`write_atomic`].
///
/// The metadata is taken from the opened file descriptor (`fstat`), so it
/// describes the very file whose bytes were returned, even if the path was
/// swapped in between.
#[derive(Debug, Clone)]
pub struct FileInfo {
    /// The path as given to [`read`]. Use this when talking to the user.
    pub requested: PathBuf,
    /// The path with all symlinks resolved ([`std::fs::canonicalize`]).
    /// [`write_atomic`] replaces this file, so a symlink that was read
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
}

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
/// * [`FsError::Io`] for anything else.
///
/// Errors name `path` as given, not the resolved path.
pub fn read_with_limit(path: &Path, limit: u64) -> Result<(FileInfo, Vec<u8>), FsError> {
    // Check the type before opening: opening a FIFO for reading blocks
    // until a writer shows up.
    let meta = fs::metadata(path).map_err(|e| read_error(path, OP_STAT, e))?;
    check_regular(path, &meta)?;
    check_size(path, meta.len(), limit)?;

    let real_path = fs::canonicalize(path).map_err(|e| read_error(path, OP_RESOLVE, e))?;
    // O_NONBLOCK guards against a FIFO swapped in since the check above;
    // it changes nothing for regular files. O_NOCTTY likewise for ttys.
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&real_path)
        .map_err(|e| read_error(path, OP_OPEN, e))?;
    let meta = file.metadata().map_err(|e| read_error(path, OP_STAT, e))?;
    check_regular(path, &meta)?;
    check_size(path, meta.len(), limit)?;

    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // Read one byte past the limit to notice a file that grew meanwhile.
    (&mut file)
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(path, OP_READ, e))?;
    let len = bytes.len() as u64;
    check_size(path, len, limit)?;

    let info = FileInfo {
        requested: path.to_path_buf(),
        real_path,
        mode: meta.mode() & 0o7777,
        uid: meta.uid(),
        gid: meta.gid(),
        len,
    };
    Ok((info, bytes))
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

/// Replaces the file described by `info` with `bytes`, atomically.
///
/// The steps: create a temporary file in the same directory as
/// `info.real_path`, named `.<filename>.surgical-<pid>-<random>.tmp`; write
/// all of `bytes`; copy the owner (see below) and then the mode bits (in that
/// order, because `chown` clears setuid and setgid); `fsync` it; rename it
/// over `info.real_path`; `fsync` the directory so the rename itself is
/// durable; finally read the file back and compare it with `bytes`.
///
/// Readers see either the old content or the new, never a mix, and a crash
/// at any point leaves one or the other.
///
/// # Edge cases
///
/// * Writing goes to `real_path`, so a symlink that was read through stays a
///   symlink. Writing replaces the file with a new inode, however: other
///   hard links keep the old content, and extended attributes and ACLs are
///   not copied.
/// * Ownership: when running as root, the new file gets `info.uid` and
///   `info.gid`. Otherwise it belongs to the current user (an unprivileged
///   process cannot give files away) and only the group is copied, if
///   permitted; `EPERM` there is ignored.
/// * Only the directory's permissions matter, not the file's: like most
///   editors, this replaces a read-only file in a writable directory.
/// * If `real_path` no longer exists, it is created.
/// * A file name too long to extend is shortened in the temporary name.
///
/// # Errors
///
/// On any failure before the rename, the temporary file is removed and
/// the target is untouched. The errors are [`FsError::PermissionDenied`]
/// (with `op: "write"`) when the directory is not writable, and
/// [`FsError::Io`] otherwise, its message saying which step failed and that
/// the file was left unchanged.
///
/// After the rename, two failures remain possible, both [`FsError::Io`]:
/// syncing the directory, and verification, whose message starts with
/// "verification after write failed" when the file read back differs from
/// `bytes` (for example because another process wrote to it).
///
/// Errors name `info.real_path`.
pub fn write_atomic(info: &FileInfo, bytes: &[u8]) -> Result<(), FsError> {
    let target = info.real_path.as_path();
    let name = target.file_name().ok_or_else(|| FsError::Io {
        path: Some(target.to_path_buf()),
        op: OP_INVALID_PATH,
        source: io::Error::new(io::ErrorKind::InvalidInput, "the path does not name a file"),
    })?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };

    // Dropping `tmp` on any early return removes the temporary file.
    let mut tmp = tempfile::Builder::new()
        .prefix(&temp_prefix(name))
        .suffix(".tmp")
        .rand_bytes(8)
        .tempfile_in(dir)
        .map_err(|e| write_error(target, OP_CREATE_TEMP, e))?;
    tmp.as_file_mut()
        .write_all(bytes)
        .map_err(|e| write_error(target, OP_WRITE_TEMP, e))?;
    copy_owner(tmp.as_file(), info)?;
    tmp.as_file()
        .set_permissions(Permissions::from_mode(info.mode & 0o7777))
        .map_err(|e| io_error(target, OP_CHMOD, e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| write_error(target, OP_SYNC_TEMP, e))?;
    // On failure the returned error holds the temporary file, and dropping
    // it removes the file.
    tmp.persist(target)
        .map_err(|e| write_error(target, OP_RENAME, e.error))?;

    sync_dir(dir).map_err(|e| io_error(target, OP_SYNC_DIR, e))?;
    verify(target, bytes)
}

/// `.<name>.surgical-<pid>-`; tempfile appends the random part and `.tmp`.
fn temp_prefix(name: &OsStr) -> OsString {
    let name = name.as_bytes();
    let name = &name[..name.len().min(MAX_TEMP_NAME_STEM)];
    let mut prefix = Vec::with_capacity(name.len() + 32);
    prefix.push(b'.');
    prefix.extend_from_slice(name);
    prefix.extend_from_slice(format!(".surgical-{}-", std::process::id()).as_bytes());
    OsString::from_vec(prefix)
}

fn copy_owner(file: &File, info: &FileInfo) -> Result<(), FsError> {
    let target = info.real_path.as_path();
    let meta = file.metadata().map_err(|e| io_error(target, OP_CHOWN, e))?;
    if meta.uid() == info.uid && meta.gid() == info.gid {
        return Ok(());
    }
    let root = is_root();
    let result = if root {
        std::os::unix::fs::fchown(file, Some(info.uid), Some(info.gid))
    } else if meta.gid() != info.gid {
        // Only root may change the owner; the group can be set to any
        // group we are a member of.
        std::os::unix::fs::fchown(file, None, Some(info.gid))
    } else {
        Ok(())
    };
    match result {
        Err(e) if !root && e.raw_os_error() == Some(libc::EPERM) => Ok(()),
        Err(e) => Err(io_error(target, OP_CHOWN, e)),
        Ok(()) => Ok(()),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir)?.sync_all() {
        // Some filesystems cannot fsync a directory; there is nothing more
        // we can do there, and the data itself is already synced.
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
        other => other,
    }
}

/// Reads the file back in fixed-size chunks (memory stays bounded whatever the file's size) and
/// compares it with what was written.
fn verify(target: &Path, expected: &[u8]) -> Result<(), FsError> {
    let mut file = File::open(target).map_err(|e| io_error(target, OP_VERIFY, e))?;
    let mut buf = vec![0u8; 1 << 16];
    let mut offset = 0usize;
    let first_diff = loop {
        let n = match file.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(target, OP_VERIFY, e)),
        };
        let want = &expected[offset.min(expected.len())..(offset + n).min(expected.len())];
        let got = &buf[..want.len()];
        if got != want {
            // Rare: find where, byte by byte, only once the fast comparison failed.
            break Some(offset + got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0));
        }
        if n == 0 {
            break (offset != expected.len()).then_some(offset);
        }
        if want.len() < n {
            break Some(offset + want.len());
        }
        offset += n;
    };
    let Some(first_diff) = first_diff else { return Ok(()) };
    Err(io_error(
        target,
        OP_VERIFY,
        io::Error::other(format!(
            "verification after write failed: the file read back differs from the {} bytes written, first \
             at byte offset {first_diff}; another process may have written to it",
            expected.len()
        )),
    ))
}

fn io_error(path: &Path, op: &'static str, source: io::Error) -> FsError {
    FsError::Io {
        path: Some(path.to_path_buf()),
        op,
        source,
    }
}

fn check_regular(path: &Path, meta: &fs::Metadata) -> Result<(), FsError> {
    let ft = meta.file_type();
    let kind = if ft.is_file() {
        return Ok(());
    } else if ft.is_dir() {
        "directory"
    } else if ft.is_fifo() {
        "fifo"
    } else if ft.is_socket() {
        "socket"
    } else if ft.is_block_device() {
        "block device"
    } else if ft.is_char_device() {
        "character device"
    } else {
        "other"
    };
    Err(FsError::NotAFile {
        path: path.to_path_buf(),
        kind,
    })
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
    use std::ffi::CString;
    use std::sync::mpsc;
    use std::time::Duration;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn mode_of(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o7777
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
        let meta = fs::metadata(&path).unwrap();
        assert_eq!(info.mode, meta.mode() & 0o7777);
        assert_eq!((info.uid, info.gid), (meta.uid(), meta.gid()));
    }

    #[test]
    fn write_preserves_mode() {
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o640, 0o755, 0o600, 0o444] {
            let path = dir.path().join(format!("m{mode:o}"));
            fs::write(&path, b"old").unwrap();
            fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
            let (info, _) = read(&path).unwrap();
            assert_eq!(info.mode, mode);
            write_atomic(&info, b"new content").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"new content");
            assert_eq!(mode_of(&path), mode, "mode {mode:o}");
        }
    }

    #[test]
    fn write_preserves_owner_when_root() {
        if !is_root() {
            return; // Only root can create files owned by others.
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("owned");
        fs::write(&path, b"x").unwrap();
        std::os::unix::fs::chown(&path, Some(4242), Some(4343)).unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o2755)).unwrap();
        let (info, _) = read(&path).unwrap();
        write_atomic(&info, b"y").unwrap();
        let meta = fs::metadata(&path).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (4242, 4343));
        // The setgid bit survives because chown happens before chmod.
        assert_eq!(meta.mode() & 0o7777, 0o2755);
    }

    #[test]
    fn foreign_owner_is_ignored_when_not_root() {
        if is_root() {
            return; // Root can always copy the owner; see the test above.
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"x").unwrap();
        let (mut info, _) = read(&path).unwrap();
        // Pretend the file belonged to root: an unprivileged write must
        // still succeed, owned by us.
        info.uid = 0;
        info.gid = 0;
        write_atomic(&info, b"y").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"y");
        assert_eq!(names(dir.path()), ["f"]);
    }

    #[test]
    fn write_through_symlink_keeps_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        let link = dir.path().join("link.txt");
        fs::write(&target, b"before").unwrap();
        std::os::unix::fs::symlink("target.txt", &link).unwrap();

        let (info, bytes) = read(&link).unwrap();
        assert_eq!(bytes, b"before");
        assert_eq!(info.requested, link);
        assert_eq!(info.real_path, fs::canonicalize(&target).unwrap());
        write_atomic(&info, b"after").unwrap();

        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_link(&link).unwrap(), Path::new("target.txt"));
        assert_eq!(fs::read(&target).unwrap(), b"after");
        assert_eq!(names(dir.path()), ["link.txt", "target.txt"]);
    }

    #[test]
    fn no_temp_files_after_success() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.rs");
        fs::write(&path, b"1").unwrap();
        let (info, _) = read(&path).unwrap();
        for content in [&b"22"[..], b"", b"333"] {
            write_atomic(&info, content).unwrap();
            assert_eq!(fs::read(&path).unwrap(), content);
        }
        assert_eq!(names(dir.path()), ["f.rs"]);
    }

    #[test]
    fn failed_rename_removes_temp_and_keeps_target() {
        // Renaming a file over a directory fails with EISDIR, even for root,
        // after the temporary file has been written.
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::create_dir(&victim).unwrap();
        fs::write(victim.join("inside"), b"keep").unwrap();
        let info = FileInfo {
            requested: victim.clone(),
            real_path: victim.clone(),
            mode: 0o644,
            uid: 0,
            gid: 0,
            len: 0,
        };
        let err = write_atomic(&info, b"data").unwrap_err();
        assert_eq!(err.code(), "io", "{err}");
        let msg = err.to_string();
        assert!(msg.contains("rename the temporary file over"), "{msg}");
        assert!(msg.contains("left unchanged"), "{msg}");
        assert_eq!(names(dir.path()), ["victim"]);
        assert_eq!(fs::read(victim.join("inside")).unwrap(), b"keep");
    }

    #[test]
    fn read_only_directory_refuses_write() {
        if is_root() {
            return; // Root ignores permission bits.
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"old").unwrap();
        let (info, _) = read(&path).unwrap();
        fs::set_permissions(dir.path(), Permissions::from_mode(0o555)).unwrap();
        let result = write_atomic(&info, b"new");
        fs::set_permissions(dir.path(), Permissions::from_mode(0o755)).unwrap();
        let err = result.unwrap_err();
        assert!(matches!(err, FsError::PermissionDenied { op: "write", .. }), "{err:?}");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["f"]);
    }

    #[test]
    fn unreadable_file_is_permission_denied() {
        if is_root() {
            return; // Root ignores permission bits.
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret");
        fs::write(&path, b"x").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o000)).unwrap();
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
        let link = dir.path().join("dangling");
        std::os::unix::fs::symlink("nowhere", &link).unwrap();
        assert_eq!(read(&link).unwrap_err().code(), "file_not_found");
    }

    #[test]
    fn directory_is_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(dir.path()).unwrap_err();
        assert!(matches!(err, FsError::NotAFile { kind: "directory", .. }), "{err:?}");
        assert!(err.to_string().contains("give the path of a file inside it"));
    }

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

    #[test]
    fn temp_name_shape() {
        let prefix = temp_prefix(OsStr::new("main.rs"));
        let want = format!(".main.rs.surgical-{}-", std::process::id());
        assert_eq!(prefix, OsStr::new(&want));
        let long = "x".repeat(255);
        let prefix = temp_prefix(OsStr::new(&long));
        assert!(prefix.len() + 8 + ".tmp".len() <= 255);
    }

    #[test]
    fn long_file_name_can_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("y".repeat(255));
        fs::write(&path, b"a").unwrap();
        let (info, _) = read(&path).unwrap();
        write_atomic(&info, b"b").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"b");
        assert_eq!(names(dir.path()).len(), 1);
    }

    #[test]
    fn verify_reports_mismatch() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v");
        fs::write(&path, b"abcX").unwrap();
        verify(&path, b"abcX").unwrap();
        let err = verify(&path, b"abcd").unwrap_err();
        assert_eq!(err.code(), "io");
        let msg = err.to_string();
        assert!(msg.contains("verification after write failed"), "{msg}");
        assert!(msg.contains("first at byte offset 3"), "{msg}");
        let err = verify(&path, b"abcXY").unwrap_err();
        assert!(err.to_string().contains("first at byte offset 4"), "{err}");
        let err = verify(&path, b"abc").unwrap_err();
        assert!(err.to_string().contains("first at byte offset 3"), "{err}");
    }

    #[test]
    fn dot_dot_paths_resolve() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/../r.txt");
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(&path, b"1").unwrap();
        let (info, _) = read(&path).unwrap();
        assert_eq!(info.real_path, fs::canonicalize(dir.path()).unwrap().join("r.txt"));
        write_atomic(&info, b"2").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"2");
    }
}
