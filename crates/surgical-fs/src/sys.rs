//! The system calls, and the only module that talks to the operating system directly (`libc` on
//! Unix, `windows-sys` on Windows).
//!
//! Everything above this module works on [`Dir`]s (an open directory), [`File`](std::fs::File)s,
//! names and [`io::Error`](std::io::Error)s; the calls relative to an open directory, locking,
//! syncing, and the error values that mean something to the layers above are here, one
//! implementation per platform behind the same functions:
//!
//! * `unix.rs`: Linux and macOS (`*at` calls on a directory descriptor, `flock`; the few places
//!   where macOS differs are marked there).
//! * `windows.rs`: Windows (a directory handle held open without delete sharing, `MoveFileExW`,
//!   `LockFileEx`, `GetFinalPathNameByHandleW`).
//!
//! All calls take names relative to an open directory and never follow a symbolic link (or, on
//! Windows, a junction) in that name.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// What identifies one version of a file: device (volume), inode (file index), size, modification
/// and change times. If any differs between two looks, the file was changed or replaced in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    pub dev: u64,
    pub ino: u64,
    pub size: i64,
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
}

/// What a `stat` call says about a directory entry (or an open file).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stat {
    /// `None` for a regular file, `Some("symlink")` for a symbolic link (or a junction), else the
    /// kind named as in [`crate::FsError::NotAFile`].
    pub kind: Option<&'static str>,
    pub size: u64,
    /// Permission bits (`st_mode & 0o7777`); on Windows `0o444` for a read-only file, else `0o666`.
    pub mode: u32,
    /// Owner and group (0 on Windows).
    pub uid: u32,
    pub gid: u32,
    /// The number of hard links.
    pub nlink: u64,
    pub identity: Identity,
}

impl Stat {
    pub fn is_symlink(&self) -> bool {
        self.kind == Some("symlink")
    }
}
