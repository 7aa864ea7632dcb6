//! The system calls, and the only module that talks to `libc`.
//!
//! Everything above this module works on [`OwnedFd`]s, [`File`]s, names and [`io::Error`]s; the
//! `*at` calls, `flock`, `fsync` of a directory and the errno values that mean something to the
//! layers above are here. Porting the file layer to another system starts (and mostly ends) here.
//! All calls take names relative to an open directory and never follow a symbolic link in that
//! name.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Device, inode, size, modification and change times of a file: if any differs between two looks,
/// the file was changed or replaced in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    dev: u64,
    ino: u64,
    size: i64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// What a `stat` call says about a directory entry.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stat {
    /// `None` for a regular file, `Some("symlink")` for a symbolic link, else the kind named as in
    /// [`crate::FsError::NotAFile`].
    pub kind: Option<&'static str>,
    pub size: u64,
    pub identity: Identity,
}

impl Stat {
    fn of(st: &libc::stat) -> Stat {
        let kind = match st.st_mode & libc::S_IFMT {
            libc::S_IFREG => None,
            libc::S_IFLNK => Some("symlink"),
            libc::S_IFDIR => Some("directory"),
            libc::S_IFIFO => Some("fifo"),
            libc::S_IFSOCK => Some("socket"),
            libc::S_IFBLK => Some("block device"),
            libc::S_IFCHR => Some("character device"),
            _ => Some("other"),
        };
        Stat {
            kind,
            size: st.st_size as u64,
            identity: Identity {
                dev: st.st_dev,
                ino: st.st_ino,
                size: st.st_size,
                mtime: (st.st_mtime, st.st_mtime_nsec),
                ctime: (st.st_ctime, st.st_ctime_nsec),
            },
        }
    }

    pub fn is_symlink(&self) -> bool {
        self.kind == Some("symlink")
    }
}

fn cstring(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte"))
}

/// `-1` from a call → the errno as an error.
fn check(rc: libc::c_int) -> io::Result<()> {
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
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

/// `fstatat` without following a symlink in `name`.
pub(crate) fn stat_at(dir: &OwnedFd, name: &OsStr) -> io::Result<Stat> {
    let c = cstring(name)?;
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: valid fd, valid C string, `st` is written by the call on success.
    check(unsafe { libc::fstatat(dir.as_raw_fd(), c.as_ptr(), st.as_mut_ptr(), libc::AT_SYMLINK_NOFOLLOW) })?;
    // SAFETY: fstatat succeeded, so `st` is initialized.
    Ok(Stat::of(unsafe { &st.assume_init() }))
}

/// `fstat` of an open file.
pub(crate) fn stat_file(file: &File) -> io::Result<Stat> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: valid fd; `st` is written on success.
    check(unsafe { libc::fstat(file.as_raw_fd(), st.as_mut_ptr()) })?;
    // SAFETY: fstat succeeded.
    Ok(Stat::of(unsafe { &st.assume_init() }))
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

/// Opens `name` for reading the content to edit. `O_NONBLOCK` guards against a FIFO swapped in
/// after the caller checked the type (it changes nothing for regular files), `O_NOCTTY` likewise
/// for terminals; a symlink swapped in fails with [`is_symlink_loop`].
pub(crate) fn open_for_reading(dir: &OwnedFd, name: &OsStr) -> io::Result<File> {
    open_at(dir, name, libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY, 0)
}

/// Opens `name` for reading it back after a write.
pub(crate) fn open_for_verifying(dir: &OwnedFd, name: &OsStr) -> io::Result<File> {
    open_at(dir, name, libc::O_RDONLY, 0)
}

/// Opens the existing `name` for rewriting in place.
pub(crate) fn open_for_rewriting(dir: &OwnedFd, name: &OsStr) -> io::Result<File> {
    open_at(dir, name, libc::O_WRONLY, 0)
}

/// Creates `name` for writing; fails with [`io::ErrorKind::AlreadyExists`] if anything is there.
pub(crate) fn create_exclusive(dir: &OwnedFd, name: &OsStr, mode: u32) -> io::Result<File> {
    open_at(
        dir,
        name,
        libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL,
        mode as libc::mode_t,
    )
}

/// `unlinkat`.
pub(crate) fn unlink_at(dir: &OwnedFd, name: &OsStr) -> io::Result<()> {
    let c = cstring(name)?;
    // SAFETY: valid fd and C string.
    check(unsafe { libc::unlinkat(dir.as_raw_fd(), c.as_ptr(), 0) })
}

/// `renameat` within `dir`, replacing `to`.
pub(crate) fn rename_at(dir: &OwnedFd, from: &OsStr, to: &OsStr) -> io::Result<()> {
    let (from, to) = (cstring(from)?, cstring(to)?);
    // SAFETY: valid fd and C strings.
    check(unsafe { libc::renameat(dir.as_raw_fd(), from.as_ptr(), dir.as_raw_fd(), to.as_ptr()) })
}

/// `linkat` within `dir`: fails with [`io::ErrorKind::AlreadyExists`] if anything is at `to`, even a
/// dangling link, so it is a rename that never replaces.
pub(crate) fn link_at(dir: &OwnedFd, from: &OsStr, to: &OsStr) -> io::Result<()> {
    let (from, to) = (cstring(from)?, cstring(to)?);
    // SAFETY: valid fd and C strings.
    check(unsafe { libc::linkat(dir.as_raw_fd(), from.as_ptr(), dir.as_raw_fd(), to.as_ptr(), 0) })
}

/// `linkat(dir/name → to)`, `to` a path (relative to the current directory when relative).
pub(crate) fn link_out(dir: &OwnedFd, name: &OsStr, to: &Path) -> io::Result<()> {
    let (from, to) = (cstring(name)?, cstring(to.as_os_str())?);
    // SAFETY: valid fd and C strings.
    check(unsafe { libc::linkat(dir.as_raw_fd(), from.as_ptr(), libc::AT_FDCWD, to.as_ptr(), 0) })
}

/// `fsync` of a directory, so the entries changed in it are durable. File systems that cannot
/// sync a directory (`EINVAL`) count as success: the data itself is already synced.
pub(crate) fn sync_dir(dir: &OwnedFd) -> io::Result<()> {
    // SAFETY: valid fd.
    match check(unsafe { libc::fsync(dir.as_raw_fd()) }) {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
        other => other,
    }
}

/// Tries to take the exclusive `flock` on `dir` without waiting: `Ok(false)` while another open
/// file description holds it.
pub(crate) fn try_lock(dir: &OwnedFd) -> io::Result<bool> {
    // SAFETY: valid fd.
    match check(unsafe { libc::flock(dir.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }) {
        Ok(()) => Ok(true),
        Err(e) if e.raw_os_error() == Some(libc::EWOULDBLOCK) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Releases the `flock` on `dir`.
pub(crate) fn unlock(dir: &OwnedFd) {
    // SAFETY: valid fd; unlocking cannot fail in a way that matters here.
    unsafe { libc::flock(dir.as_raw_fd(), libc::LOCK_UN) };
}

/// Where the open directory `dir` is now, as the kernel sees it; `None` without `/proc`.
pub(crate) fn dir_path(dir: &OwnedFd) -> Option<PathBuf> {
    std::fs::read_link(fd_path(dir)).ok()
}

/// The names in the open directory `dir`; `None` without `/proc`.
pub(crate) fn dir_entries(dir: &OwnedFd) -> Option<std::fs::ReadDir> {
    std::fs::read_dir(fd_path(dir)).ok()
}

fn fd_path(dir: &OwnedFd) -> String {
    format!("/proc/self/fd/{}", dir.as_raw_fd())
}

/// Whether this process runs as root (and may therefore give files away).
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Whether process `pid` exists (perhaps under another user).
pub(crate) fn process_exists(pid: u32) -> bool {
    // SAFETY: kill with signal 0 only checks whether the process exists.
    let alive = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0;
    alive || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// `ENOTDIR`: a component of the path is a file used as a directory.
pub(crate) fn is_not_a_directory(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::ENOTDIR)
}

/// `ELOOP` from an open with `O_NOFOLLOW`: the name is a symbolic link.
pub(crate) fn is_symlink_loop(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::ELOOP)
}

/// `EPERM`: the operation is not permitted to this user (as opposed to `EACCES`).
pub(crate) fn is_not_permitted(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::EPERM)
}
