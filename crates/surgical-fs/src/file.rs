use std::ffi::{CString, OsStr, OsString};
use std::fs::{self, File, Permissions};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::{
    read_error, write_error, OP_CHMOD, OP_CHOWN, OP_CREATE, OP_CREATE_TEMP, OP_LOCK, OP_OPEN, OP_READ, OP_RENAME,
    OP_RESOLVE, OP_STAT, OP_SYNC_DIR, OP_SYNC_TEMP, OP_VERIFY, OP_WRITE_IN_PLACE, OP_WRITE_TEMP,
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
    /// How many hard links the file has. With more than one, [`write_atomic`] rewrites the file in
    /// place so every name keeps seeing the same content (see there).
    pub nlink: u64,
    /// The directory holding the file, opened when the file was read: every later step works
    /// relative to it, so swapping a directory on the path for a link cannot redirect the write.
    dir: Arc<OwnedFd>,
    /// The file's name in `dir`.
    name: OsString,
    /// What identifies this version of the file: checked again right before it is replaced.
    identity: Identity,
}

/// Device, inode, size, modification and change times: if any differs, the file was changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    size: i64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Identity {
    fn of(st: &libc::stat) -> Identity {
        Identity {
            dev: st.st_dev,
            ino: st.st_ino,
            size: st.st_size,
            mtime: (st.st_mtime, st.st_mtime_nsec),
            ctime: (st.st_ctime, st.st_ctime_nsec),
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
    dir: Arc<OwnedFd>,
    name: OsString,
}

/// How long [`Target::lock`] waits for another surgical process editing in the same directory.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(60);

/// Resolves `path` (following symlinks) and opens the directory that holds the file.
///
/// From here on, reading ([`Target::read`]), locking ([`Target::lock`]) and writing
/// ([`write_atomic`]) work relative to that open directory and never follow a symlink in the
/// file's own name: a directory or file swapped for a link after this call cannot redirect them.
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
    let dir = open_dir(parent).map_err(|e| read_error(path, OP_OPEN, e))?;
    Ok(Target {
        requested: path.to_path_buf(),
        name: name.to_os_string(),
        real_path,
        dir: Arc::new(dir),
    })
}

/// Opens a directory for `*at` calls and locking.
pub(crate) fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    let c = cstring(path.as_os_str())?;
    // SAFETY: `c` is a valid NUL-terminated string; the returned fd is owned below.
    let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is a freshly opened descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn cstring(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte"))
}

/// `fstatat` without following a symlink in `name`.
fn stat_at(dir: &OwnedFd, name: &OsStr) -> io::Result<libc::stat> {
    let c = cstring(name)?;
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: valid fd, valid C string, `st` is written by the call on success.
    let rc = unsafe { libc::fstatat(dir.as_raw_fd(), c.as_ptr(), st.as_mut_ptr(), libc::AT_SYMLINK_NOFOLLOW) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fstatat succeeded, so `st` is initialized.
    Ok(unsafe { st.assume_init() })
}

/// `openat` relative to `dir`, never following a symlink in `name`.
fn open_at(dir: &OwnedFd, name: &OsStr, flags: libc::c_int, mode: libc::mode_t) -> io::Result<File> {
    let c = cstring(name)?;
    // SAFETY: valid fd and C string; the returned fd is owned by the File below.
    let fd = unsafe {
        libc::openat(
            dir.as_raw_fd(),
            c.as_ptr(),
            flags | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            mode as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is a freshly opened descriptor that nothing else owns.
    Ok(unsafe { File::from_raw_fd(fd) })
}

fn unlink_at(dir: &OwnedFd, name: &OsStr) {
    if let Ok(c) = cstring(name) {
        // SAFETY: valid fd and C string. Failure is fine: the name may already be gone.
        unsafe { libc::unlinkat(dir.as_raw_fd(), c.as_ptr(), 0) };
    }
}

fn kind_of(mode: libc::mode_t) -> Option<&'static str> {
    match mode & libc::S_IFMT {
        libc::S_IFREG => None,
        libc::S_IFDIR => Some("directory"),
        libc::S_IFIFO => Some("fifo"),
        libc::S_IFSOCK => Some("socket"),
        libc::S_IFBLK => Some("block device"),
        libc::S_IFCHR => Some("character device"),
        _ => Some("other"),
    }
}

/// Holds an exclusive advisory lock on a directory; released on drop.
///
/// Every surgical process takes it before reading a file it will replace and keeps it until the
/// replacement is in place, so two surgical processes never interleave read-modify-write cycles
/// on files of the same directory. The directory is locked, not the file, because an atomic write
/// replaces the file's inode (a lock on it would be lost with it). Other programs do not take this
/// lock; the identity re-check in [`write_atomic`] catches their writes.
#[derive(Debug)]
pub struct DirLock {
    dir: Arc<OwnedFd>,
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // SAFETY: valid fd; unlocking cannot fail in a way that matters here.
        unsafe { libc::flock(self.dir.as_raw_fd(), libc::LOCK_UN) };
    }
}

impl Target {
    pub(crate) fn dir_fd(&self) -> &OwnedFd {
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
            // SAFETY: valid fd.
            if unsafe { libc::flock(self.dir.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                return Ok(DirLock {
                    dir: Arc::clone(&self.dir),
                });
            }
            let err = io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(io_error(&self.requested, OP_LOCK, err));
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
        let path = self.requested.as_path();
        // Check the type before opening: opening a FIFO for reading blocks until a writer shows up.
        let st = stat_at(&self.dir, &self.name).map_err(|e| read_error(path, OP_STAT, e))?;
        if st.st_mode & libc::S_IFMT == libc::S_IFLNK {
            return Err(FsError::Changed {
                path: path.to_path_buf(),
                detail: "it was replaced by a symbolic link".into(),
            });
        }
        if let Some(kind) = kind_of(st.st_mode) {
            return Err(FsError::NotAFile {
                path: path.to_path_buf(),
                kind,
            });
        }
        check_size(path, st.st_size as u64, limit)?;
        // O_NONBLOCK guards against a FIFO swapped in since the check above; it changes nothing for
        // regular files. O_NOCTTY likewise for ttys. O_NOFOLLOW refuses a link swapped in.
        let mut file = open_at(
            &self.dir,
            &self.name,
            libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY,
            0,
        )
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => FsError::Changed {
                path: path.to_path_buf(),
                detail: "it was replaced by a symbolic link".into(),
            },
            _ => read_error(path, OP_OPEN, e),
        })?;
        let meta = file.metadata().map_err(|e| read_error(path, OP_STAT, e))?;
        check_regular(path, &meta)?;
        check_size(path, meta.len(), limit)?;
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: valid fd; `st` is written on success.
        if unsafe { libc::fstat(file.as_raw_fd(), st.as_mut_ptr()) } != 0 {
            return Err(read_error(path, OP_STAT, io::Error::last_os_error()));
        }
        // SAFETY: fstat succeeded.
        let st = unsafe { st.assume_init() };

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
            real_path: self.real_path.clone(),
            mode: meta.mode() & 0o7777,
            uid: meta.uid(),
            gid: meta.gid(),
            len,
            nlink: meta.nlink(),
            dir: Arc::clone(&self.dir),
            name: self.name.clone(),
            identity: Identity::of(&st),
        };
        Ok((info, bytes))
    }
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
    write_atomic_keeping_old(info, bytes, None).map(|_| ())
}

/// [`write_atomic`], and, when `keep_old_at` is given, the replaced version is kept at that path
/// as a hard link made right before the rename (after the identity re-check), so saving the old
/// content costs no copy. Returns whether it was kept: not for files rewritten in place (several
/// hard links), nor where a link cannot be made (another filesystem); the caller then saves the
/// old content itself.
pub fn write_atomic_keeping_old(info: &FileInfo, bytes: &[u8], keep_old_at: Option<&Path>) -> Result<bool, FsError> {
    let target = info.real_path.as_path();
    remove_stale_temps(&info.dir);
    if info.nlink > 1 {
        return write_in_place(info, bytes).map(|_| false);
    }
    let mut kept = false;
    let (tmp_name, mut tmp) =
        create_temp(&info.dir, &info.name, 0o600).map_err(|e| write_error(target, OP_CREATE_TEMP, e))?;
    let result = (|| {
        tmp.write_all(bytes)
            .map_err(|e| write_error(target, OP_WRITE_TEMP, e))?;
        copy_owner(&tmp, info)?;
        tmp.set_permissions(Permissions::from_mode(info.mode & 0o7777))
            .map_err(|e| io_error(target, OP_CHMOD, e))?;
        tmp.sync_all().map_err(|e| write_error(target, OP_SYNC_TEMP, e))?;
        recheck(info)?;
        if let Some(keep) = keep_old_at {
            kept = link_out(&info.dir, &info.name, keep).is_ok();
        }
        rename_at(&info.dir, &tmp_name, &info.name).map_err(|e| write_error(target, OP_RENAME, e))
    })();
    if let Err(e) = result {
        unlink_at(&info.dir, &tmp_name);
        if kept {
            let _ = fs::remove_file(keep_old_at.expect("kept implies a path"));
        }
        return Err(e);
    }
    sync_fd(&info.dir).map_err(|e| io_error(target, OP_SYNC_DIR, e))?;
    verify(info, bytes)?;
    Ok(kept)
}

/// Creates `name` in the open directory `dir` with `bytes`, never replacing anything there: a
/// temporary file is written and synced, then linked to `name` (which fails if `name` exists, even
/// as a dangling link), the directory synced, and the file read back. `target` names the file in
/// errors.
pub(crate) fn create_new_at(
    dir: &OwnedFd,
    name: &OsStr,
    target: &Path,
    bytes: &[u8],
    mode: u32,
) -> Result<(), FsError> {
    remove_stale_temps(dir);
    let (tmp_name, mut tmp) =
        create_temp(dir, name, (mode & 0o7777) as libc::mode_t).map_err(|e| write_error(target, OP_CREATE_TEMP, e))?;
    let result = (|| {
        tmp.write_all(bytes)
            .map_err(|e| write_error(target, OP_WRITE_TEMP, e))?;
        tmp.sync_all().map_err(|e| write_error(target, OP_SYNC_TEMP, e))?;
        let (from, to) = (cstring(&tmp_name), cstring(name));
        let (from, to) = (
            from.map_err(|e| io_error(target, OP_CREATE, e))?,
            to.map_err(|e| io_error(target, OP_CREATE, e))?,
        );
        // SAFETY: valid fd and C strings.
        if unsafe { libc::linkat(dir.as_raw_fd(), from.as_ptr(), dir.as_raw_fd(), to.as_ptr(), 0) } != 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::AlreadyExists {
                return Err(io_error(
                    target,
                    OP_CREATE,
                    io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        "something already exists at this path (another process may have just created it, or it is \
                         a symbolic link to a missing file); nothing was written",
                    ),
                ));
            }
            return Err(write_error(target, OP_CREATE, err));
        }
        Ok(())
    })();
    unlink_at(dir, &tmp_name);
    result?;
    sync_fd(dir).map_err(|e| io_error(target, OP_SYNC_DIR, e))?;
    verify_at(dir, name, target, bytes)
}

/// `linkat(dir/name → to)`, never following a link in `name`.
fn link_out(dir: &OwnedFd, name: &OsStr, to: &Path) -> io::Result<()> {
    let (from, to) = (cstring(name)?, cstring(to.as_os_str())?);
    // SAFETY: valid fd and C strings.
    if unsafe { libc::linkat(dir.as_raw_fd(), from.as_ptr(), libc::AT_FDCWD, to.as_ptr(), 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// For a file with several hard links: renaming a new file over one name would leave the other
/// names with the old content, so the content is rewritten in place instead (after the same
/// identity re-check). This is not atomic: a crash in the middle can leave a partial file, which
/// `surgical undo` repairs from its journal.
fn write_in_place(info: &FileInfo, bytes: &[u8]) -> Result<(), FsError> {
    let target = info.real_path.as_path();
    recheck(info)?;
    let mut file = open_at(&info.dir, &info.name, libc::O_WRONLY, 0).map_err(|e| write_error(target, OP_OPEN, e))?;
    file.write_all(bytes)
        .map_err(|e| write_error(target, OP_WRITE_IN_PLACE, e))?;
    file.set_len(bytes.len() as u64)
        .map_err(|e| write_error(target, OP_WRITE_IN_PLACE, e))?;
    file.sync_all().map_err(|e| write_error(target, OP_WRITE_IN_PLACE, e))?;
    verify(info, bytes)
}

/// Fails with [`FsError::Changed`] unless the file is still the very version that was read.
fn recheck(info: &FileInfo) -> Result<(), FsError> {
    let changed = |detail: &str| FsError::Changed {
        path: info.requested.clone(),
        detail: detail.to_string(),
    };
    match stat_at(&info.dir, &info.name) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(changed("it was deleted")),
        Err(e) => Err(io_error(&info.real_path, OP_STAT, e)),
        Ok(st) if st.st_mode & libc::S_IFMT == libc::S_IFLNK => Err(changed("it was replaced by a symbolic link")),
        Ok(st) if Identity::of(&st) != info.identity => Err(changed("another program modified or replaced it")),
        Ok(_) => Ok(()),
    }
}

fn rename_at(dir: &OwnedFd, from: &OsStr, to: &OsStr) -> io::Result<()> {
    let (from, to) = (cstring(from)?, cstring(to)?);
    // SAFETY: valid fd and C strings.
    if unsafe { libc::renameat(dir.as_raw_fd(), from.as_ptr(), dir.as_raw_fd(), to.as_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Syncs a directory by path, best effort (for directories a creation added).
pub(crate) fn sync_path(dir: &Path) {
    if let Ok(fd) = open_dir(dir) {
        let _ = sync_fd(&fd);
    }
}

fn sync_fd(dir: &OwnedFd) -> io::Result<()> {
    // SAFETY: valid fd.
    if unsafe { libc::fsync(dir.as_raw_fd()) } != 0 {
        let err = io::Error::last_os_error();
        // Some filesystems cannot fsync a directory; the data itself is already synced.
        if err.raw_os_error() != Some(libc::EINVAL) {
            return Err(err);
        }
    }
    Ok(())
}

/// Creates `.<name>.surgical-<pid>-<random>.tmp` in `dir`, exclusively, with `mode` (less the
/// umask).
fn create_temp(dir: &OwnedFd, name: &OsStr, mode: libc::mode_t) -> io::Result<(OsString, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut last = None;
    for _ in 0..16 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let random = nanos
            ^ COUNTER
                .fetch_add(1, Ordering::Relaxed)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut tmp = temp_prefix(name);
        tmp.push(format!("{random:016x}.tmp"));
        match open_at(dir, &tmp, libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL, mode) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("could not pick a temporary name")))
}

/// Removes temporary files of surgical's own naming left in `dir` by processes that no longer
/// run (killed mid-write). Best effort: a failure here never fails the write.
fn remove_stale_temps(dir: &OwnedFd) {
    let Ok(entries) = fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd())) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = temp_owner(name.as_bytes()) else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        // SAFETY: kill with signal 0 only checks whether the process exists.
        let alive = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0
            || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
        if !alive {
            unlink_at(dir, &name);
        }
    }
}

/// The pid in a name of the form `.<name>.surgical-<pid>-<hex>.tmp`.
fn temp_owner(name: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(name).ok()?;
    let rest = text.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = rest.rsplit_once(".surgical-")?;
    let (pid, random) = tail.split_once('-')?;
    (random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit())).then_some(())?;
    pid.parse().ok()
}

/// `.<name>.surgical-<pid>-`; the random part and `.tmp` follow.
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

/// Reads the file back in fixed-size chunks (memory stays bounded whatever the file's size) and
/// compares it with what was written.
fn verify(info: &FileInfo, expected: &[u8]) -> Result<(), FsError> {
    verify_at(&info.dir, &info.name, &info.real_path, expected)
}

/// [`verify`] for `name` in `dir` (errors name `target`).
fn verify_at(dir: &OwnedFd, name: &OsStr, target: &Path, expected: &[u8]) -> Result<(), FsError> {
    let mut file = open_at(dir, name, libc::O_RDONLY, 0).map_err(|e| io_error(target, OP_VERIFY, e))?;
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
        for content in [&b"22"[..], b"", b"333"] {
            let (info, _) = read(&path).unwrap();
            write_atomic(&info, content).unwrap();
            assert_eq!(fs::read(&path).unwrap(), content);
        }
        assert_eq!(names(dir.path()), ["f.rs"]);
    }

    #[test]
    fn changes_between_read_and_write_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        // Modified by another program: the identity re-check refuses, nothing is written.
        fs::write(&path, b"one").unwrap();
        let (info, _) = read(&path).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        fs::write(&path, b"two!").unwrap();
        let err = write_atomic(&info, b"mine").unwrap_err();
        assert_eq!(err.code(), "stale", "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"two!");
        // Replaced by a directory.
        let (info, _) = read(&path).unwrap();
        fs::remove_file(&path).unwrap();
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"keep").unwrap();
        assert_eq!(write_atomic(&info, b"data").unwrap_err().code(), "stale");
        assert_eq!(fs::read(path.join("inside")).unwrap(), b"keep");
        // Replaced by a link pointing elsewhere: the link and its target stay as they are.
        fs::remove_dir_all(&path).unwrap();
        fs::write(&path, b"x").unwrap();
        let (info, _) = read(&path).unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::write(&elsewhere, b"outside").unwrap();
        fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        assert_eq!(write_atomic(&info, b"data").unwrap_err().code(), "stale");
        assert_eq!(fs::read(&elsewhere).unwrap(), b"outside");
        // No temporary file is left behind by any of this.
        assert_eq!(names(dir.path()), ["elsewhere", "f"]);
    }

    #[test]
    fn the_replaced_version_can_be_kept_without_a_copy() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let keep = dir.path().join("kept");
        fs::write(&path, b"old").unwrap();
        let (info, _) = read(&path).unwrap();
        assert!(write_atomic_keeping_old(&info, b"new", Some(&keep)).unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read(&keep).unwrap(), b"old");
        assert_eq!(fs::metadata(&keep).unwrap().nlink(), 1);
        // A file rewritten in place (several links) cannot be kept that way.
        fs::hard_link(&path, dir.path().join("g")).unwrap();
        let (info, _) = read(&path).unwrap();
        assert!(!write_atomic_keeping_old(&info, b"newer", Some(&dir.path().join("kept2"))).unwrap());
        assert!(!dir.path().join("kept2").exists());
    }

    #[test]
    fn hard_links_keep_seeing_the_new_content() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        fs::write(&a, b"old content").unwrap();
        fs::hard_link(&a, &b).unwrap();
        let (info, _) = read(&a).unwrap();
        assert_eq!(info.nlink, 2);
        write_atomic(&info, b"new").unwrap();
        assert_eq!(fs::read(&a).unwrap(), b"new");
        assert_eq!(fs::read(&b).unwrap(), b"new");
        assert_eq!(fs::metadata(&a).unwrap().ino(), fs::metadata(&b).unwrap().ino());
        assert_eq!(names(dir.path()), ["a", "b"]);
    }

    #[test]
    fn stale_temp_files_of_dead_writers_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"x").unwrap();
        // A pid that cannot be running (beyond pid_max), and one that is (ours is skipped; 1 is init).
        let dead = dir.path().join(".f.surgical-4194305-0123456789abcdef.tmp");
        let alive = dir.path().join(".f.surgical-1-0123456789abcdef.tmp");
        let other = dir.path().join(".f.surgical-x.tmp");
        for p in [&dead, &alive, &other] {
            fs::write(p, b"partial").unwrap();
        }
        let (info, _) = read(&path).unwrap();
        write_atomic(&info, b"y").unwrap();
        let left = names(dir.path());
        assert!(
            !left.contains(&".f.surgical-4194305-0123456789abcdef.tmp".to_string()),
            "{left:?}"
        );
        assert!(left.contains(&".f.surgical-1-0123456789abcdef.tmp".to_string()));
        assert!(left.contains(&".f.surgical-x.tmp".to_string()));
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
        // SAFETY: valid fd.
        let busy = unsafe { libc::flock(second.dir.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        assert_eq!(busy, -1);
        drop(guard);
        let _ = second.lock().unwrap();
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
        let (info, _) = read(&path).unwrap();
        verify(&info, b"abcX").unwrap();
        let err = verify(&info, b"abcd").unwrap_err();
        assert_eq!(err.code(), "io");
        let msg = err.to_string();
        assert!(msg.contains("verification after write failed"), "{msg}");
        assert!(msg.contains("first at byte offset 3"), "{msg}");
        let err = verify(&info, b"abcXY").unwrap_err();
        assert!(err.to_string().contains("first at byte offset 4"), "{err}");
        let err = verify(&info, b"abc").unwrap_err();
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
