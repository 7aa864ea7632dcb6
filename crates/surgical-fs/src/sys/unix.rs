//! The system calls on Unix (Linux and macOS), and the only code that talks to `libc`.
//!
//! Names are taken relative to an open directory ([`Dir`], an [`OwnedFd`]) and never followed
//! when they are a symbolic link. Linux and macOS differ in four places, each marked
//! `target_os = "macos"`: where an open directory is ([`dir_path`]: `/proc/self/fd` on Linux,
//! `fcntl(F_GETPATH)` on macOS), the rename that never replaces ([`link_at`]: `linkat` on Linux,
//! `renameatx_np(RENAME_EXCL)` on macOS), syncing a directory (`F_FULLFSYNC` on macOS, where
//! `fsync` leaves the data in the drive's cache; `File::sync_all` already does this for files), and
//! the width of `stat`'s fields.

use std::ffi::{CString, OsStr};
use std::fs::{File, Permissions};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::{Identity, Stat};

/// An open directory, for `*at` calls and locking.
pub(crate) type Dir = OwnedFd;

// `mode_t`, `nlink_t` and `dev_t` are narrower on macOS (`u16`, `u16`, `i32`) than on Linux.
#[allow(clippy::useless_conversion, clippy::unnecessary_cast)]
fn stat_of(st: &libc::stat) -> Stat {
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
        mode: u32::from(st.st_mode) & 0o7777,
        uid: st.st_uid,
        gid: st.st_gid,
        nlink: u64::from(st.st_nlink),
        identity: Identity {
            dev: st.st_dev as u64,
            ino: st.st_ino,
            size: st.st_size,
            mtime: (st.st_mtime, st.st_mtime_nsec),
            ctime: (st.st_ctime, st.st_ctime_nsec),
        },
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
    Ok(stat_of(unsafe { &st.assume_init() }))
}

/// `fstat` of an open file.
pub(crate) fn stat_file(file: &File) -> io::Result<Stat> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: valid fd; `st` is written on success.
    check(unsafe { libc::fstat(file.as_raw_fd(), st.as_mut_ptr()) })?;
    // SAFETY: fstat succeeded.
    Ok(stat_of(unsafe { &st.assume_init() }))
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

/// Copies up to `len` bytes of `from`, starting at `offset`, to the current position of `to`
/// (which advances), inside the kernel: Linux's `copy_file_range`, which moves no data through
/// user space and on file systems that share extents (Btrfs, XFS) makes a reflink. Returns how
/// many bytes it copied, which may be fewer than `len`; 0 means `from` ends at `offset`.
///
/// Fails with [`io::ErrorKind::Unsupported`] where the call is missing (macOS, old kernels) or
/// refuses these two files (another file system on older kernels, special files): the caller
/// then writes the bytes itself.
#[cfg(target_os = "linux")]
pub(crate) fn copy_range(from: &File, offset: u64, len: u64, to: &File) -> io::Result<u64> {
    let mut off_in = libc::off64_t::try_from(offset).map_err(|_| io::Error::from(io::ErrorKind::Unsupported))?;
    let len = usize::try_from(len).unwrap_or(usize::MAX).min(1 << 30);
    // SAFETY: two valid fds; `off_in` outlives the call; a null `off_out` means `to`'s position.
    let n = unsafe {
        libc::copy_file_range(
            from.as_raw_fd(),
            &mut off_in,
            to.as_raw_fd(),
            std::ptr::null_mut(),
            len,
            0,
        )
    };
    if n >= 0 {
        return Ok(n as u64);
    }
    let err = io::Error::last_os_error();
    match err.raw_os_error() {
        Some(libc::ENOSYS | libc::EXDEV | libc::EINVAL | libc::EOPNOTSUPP | libc::EPERM) => {
            Err(io::Error::new(io::ErrorKind::Unsupported, err))
        }
        _ => Err(err),
    }
}

/// See the Linux version: macOS has no `copy_file_range`, so the caller writes the bytes itself.
#[cfg(not(target_os = "linux"))]
pub(crate) fn copy_range(_from: &File, _offset: u64, _len: u64, _to: &File) -> io::Result<u64> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Asks the kernel to back the buffer `spare` (memory about to be filled by reading a large file)
/// with huge pages: Linux's `madvise(MADV_HUGEPAGE)` on the 2 MiB-aligned part of it. The kernel
/// zeroes every page it hands out; with 4 KiB pages that is one fault per page, and on a virtual
/// machine those faults cost more than the copy itself (measured: reading 64 MB took 53-73 ms
/// with small pages, 34-38 ms with huge ones). Only a hint: where transparent huge pages are off,
/// or the call fails, the read is the same, only slower; nothing depends on it.
#[cfg(target_os = "linux")]
pub(crate) fn advise_huge_pages(spare: &mut [std::mem::MaybeUninit<u8>]) {
    const HUGE: usize = 2 << 20;
    let start = spare.as_mut_ptr() as usize;
    let (first, last) = (start.next_multiple_of(HUGE), (start + spare.len()) / HUGE * HUGE);
    if first < last {
        // SAFETY: [first, last) lies inside `spare`, memory this process owns and that nothing
        // reads yet; MADV_HUGEPAGE changes how it is backed, never its contents.
        unsafe { libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE) };
    }
}

/// See the Linux version: elsewhere there is no such hint to give.
#[cfg(not(target_os = "linux"))]
pub(crate) fn advise_huge_pages(_spare: &mut [std::mem::MaybeUninit<u8>]) {}

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

/// Moves `from` to `to` within `dir` unless anything is at `to`, even a dangling link: then it
/// fails with [`io::ErrorKind::AlreadyExists`]. A rename that never replaces: on Linux a hard link
/// (`linkat`; the caller removes `from` afterwards), on macOS `renameatx_np(RENAME_EXCL)`, falling
/// back to the link on file systems without it.
pub(crate) fn link_at(dir: &OwnedFd, from: &OsStr, to: &OsStr) -> io::Result<()> {
    let (from, to) = (cstring(from)?, cstring(to)?);
    #[cfg(target_os = "macos")]
    {
        // SAFETY: valid fd and C strings.
        let rc = unsafe {
            libc::renameatx_np(
                dir.as_raw_fd(),
                from.as_ptr(),
                dir.as_raw_fd(),
                to.as_ptr(),
                libc::RENAME_EXCL,
            )
        };
        match check(rc) {
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOTSUP | libc::EINVAL)) => {}
            other => return other,
        }
    }
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
/// sync a directory (`EINVAL`) count as success: the data itself is already synced. On macOS
/// `F_FULLFSYNC` (which also flushes the drive's cache) is tried first.
pub(crate) fn sync_dir(dir: &OwnedFd) -> io::Result<()> {
    #[cfg(target_os = "macos")]
    // SAFETY: valid fd.
    if unsafe { libc::fcntl(dir.as_raw_fd(), libc::F_FULLFSYNC) } == 0 {
        return Ok(());
    }
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

/// Where the open directory `dir` is now, as the kernel sees it; `None` if the system cannot say
/// (Linux without `/proc`).
#[cfg(not(target_os = "macos"))]
pub(crate) fn dir_path(dir: &OwnedFd) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/self/fd/{}", dir.as_raw_fd())).ok()
}

/// Where the open directory `dir` is now, as the kernel sees it (`fcntl(F_GETPATH)`).
#[cfg(target_os = "macos")]
pub(crate) fn dir_path(dir: &OwnedFd) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: valid fd; `buf` holds PATH_MAX bytes, as F_GETPATH requires.
    if unsafe { libc::fcntl(dir.as_raw_fd(), libc::F_GETPATH, buf.as_mut_ptr()) } != 0 {
        return None;
    }
    let len = buf.iter().position(|&b| b == 0)?;
    buf.truncate(len);
    Some(PathBuf::from(std::ffi::OsString::from_vec(buf)))
}

/// The names in the open directory `dir`; `None` if they cannot be listed.
#[cfg(not(target_os = "macos"))]
pub(crate) fn dir_entries(dir: &OwnedFd) -> Option<std::fs::ReadDir> {
    std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd())).ok()
}

/// The names in the open directory `dir` (listed by the path it has now); `None` if they cannot be
/// listed.
#[cfg(target_os = "macos")]
pub(crate) fn dir_entries(dir: &OwnedFd) -> Option<std::fs::ReadDir> {
    std::fs::read_dir(dir_path(dir)?).ok()
}

/// Whether this process runs as root (and may therefore give files away).
pub(crate) fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Whether this process may write the file `name` in `dir`, by its effective ids (`faccessat`
/// with `AT_EACCESS`). Root may write any file, whatever its mode.
pub(crate) fn may_write(dir: &OwnedFd, name: &OsStr) -> io::Result<bool> {
    let name = CString::new(name.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: the descriptor is open and the name a valid C string for the length of the call.
    let rc = unsafe { libc::faccessat(dir.as_raw_fd(), name.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
    if rc == 0 {
        return Ok(true);
    }
    let err = io::Error::last_os_error();
    match err.raw_os_error() {
        Some(libc::EACCES | libc::EROFS | libc::EPERM) => Ok(false),
        _ => Err(err),
    }
}

/// The CPU time (user and system) the calling thread has used, for stage timings.
pub(crate) fn thread_cpu_time() -> Option<std::time::Duration> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out pointer; the clock exists on Linux and macOS.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
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

/// Sets the permission bits of `file` (after [`copy_owner`], which clears setuid and setgid).
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    file.set_permissions(Permissions::from_mode(mode & 0o7777))
}

/// Gives `file` the owner `uid` and group `gid` where this process may: root copies both, others
/// only the group (to a group they belong to); `EPERM` for a non-root user is not an error.
pub(crate) fn copy_owner(file: &File, uid: u32, gid: u32) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata()?;
    if meta.uid() == uid && meta.gid() == gid {
        return Ok(());
    }
    let root = is_root();
    let result = if root {
        std::os::unix::fs::fchown(file, Some(uid), Some(gid))
    } else if meta.gid() != gid {
        // Only root may change the owner; the group can be set to any group we are a member of.
        std::os::unix::fs::fchown(file, None, Some(gid))
    } else {
        Ok(())
    };
    match result {
        Err(e) if !root && is_not_permitted(&e) => Ok(()),
        other => other,
    }
}

/// At most `max` bytes of `name`, from its start.
pub(crate) fn name_prefix(name: &OsStr, max: usize) -> std::ffi::OsString {
    let bytes = name.as_bytes();
    OsStr::from_bytes(&bytes[..bytes.len().min(max)]).to_os_string()
}

/// Whether `path` lies inside `base` (or is it). Both are resolved paths, so names are compared
/// exactly: on a case-insensitive file system (macOS by default) a path spelt in another case
/// resolves to the same spelling as the root anyway.
pub(crate) fn path_starts_with(path: &Path, base: &Path) -> bool {
    path.starts_with(base)
}
