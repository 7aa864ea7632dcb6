//! The atomic writer: a temporary file next to the target, `fsync`, the identity re-check, a
//! rename (or a link that never replaces, for a new file), `fsync` of the directory. A new version
//! that is the old one with a few ranges replaced is written as such ([`write_atomic_spliced`]):
//! the unchanged ranges copied from the old file inside the kernel where it can, only the new
//! ranges written from memory. Also the other change a tool makes to a directory: removing a file, after the
//! same identity re-check.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{
    write_error, OP_CHMOD, OP_CHOWN, OP_CREATE, OP_CREATE_TEMP, OP_DELETE, OP_OPEN, OP_RENAME, OP_SYNC_DIR,
    OP_SYNC_TEMP, OP_VERIFY, OP_WRITE_IN_PLACE, OP_WRITE_TEMP,
};
use crate::sys::{self, Dir};
use crate::target::io_error;
use crate::{FileInfo, FsError};

/// File names longer than this many bytes are shortened in the temporary
/// file's name so that it stays under the usual 255-byte `NAME_MAX`; the
/// rest of the temporary name needs at most about 35 bytes.
const MAX_TEMP_NAME_STEM: usize = 200;

/// Replaces the file described by `info` with `bytes`, atomically.
///
/// The steps: create a temporary file in the same directory as
/// `info.real_path`, named `.<filename>.surgical-<pid>-<random>.tmp`; write
/// all of `bytes`; copy the owner (see below) and then the mode bits (in that
/// order, because `chown` clears setuid and setgid); `fsync` it; rename it
/// over `info.real_path`; `fsync` the directory so the rename itself is
/// durable.
///
/// The file is not read back: right after the write that read would come from the page cache
/// and prove nothing that a successful `fsync` does not, while it would cost a pass over the
/// whole file. (A file rewritten in place, below, is still read back.)
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
/// After the rename, one failure remains possible, [`FsError::Io`]: syncing the directory. A file
/// rewritten in place is also read back, and a difference is [`FsError::Io`] whose message starts
/// with "verification after write failed" (for example because another process wrote to it).
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
    write_atomic_spliced(info, &[], &[Piece::New(bytes)], keep_old_at)
}

/// One stretch of the new version of a file, for [`write_atomic_spliced`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// These bytes of the version that was read (offsets in the file as read, a BOM included),
    /// unchanged.
    Kept(Range<usize>),
    /// New bytes.
    New(&'a [u8]),
}

/// [`write_atomic_keeping_old`] for a new version made of `pieces`, in order: ranges of the
/// version that was read ([`Piece::Kept`]) and new bytes ([`Piece::New`]). `old` is the version
/// that was read, in parts that are concatenated (for example a BOM and the text after it); every
/// kept range must lie inside it.
///
/// Nothing of the new version is assembled in memory. Kept ranges are copied from the file itself
/// where the system can do it inside the kernel (`copy_file_range` on Linux: no copy through user
/// space, and a reflink on file systems that share extents), after checking that the open file is
/// still the version read; elsewhere (macOS, Windows, another file system, a file changed since it
/// was read) they are written from `old`. Either way the identity re-check before the rename
/// refuses a file that changed since it was read, so the kept bytes are the ones read.
///
/// # Panics
///
/// When a kept range is not inside `old`.
pub fn write_atomic_spliced(
    info: &FileInfo,
    old: &[&[u8]],
    pieces: &[Piece<'_>],
    keep_old_at: Option<&Path>,
) -> Result<bool, FsError> {
    let old_len: usize = old.iter().map(|p| p.len()).sum();
    for piece in pieces {
        if let Piece::Kept(range) = piece {
            assert!(
                range.start <= range.end && range.end <= old_len,
                "kept range {range:?} is outside the {old_len} bytes read"
            );
        }
    }
    let target = info.real_path.as_path();
    remove_stale_temps(&info.dir);
    if info.nlink > 1 {
        return write_in_place(info, &assemble(old, pieces)).map(|_| false);
    }
    let mut kept = false;
    let (tmp_name, mut tmp) =
        create_temp(&info.dir, &info.name, 0o600).map_err(|e| write_error(target, OP_CREATE_TEMP, e))?;
    let result = (|| {
        let source = pieces
            .iter()
            .any(|p| matches!(p, Piece::Kept(r) if !r.is_empty()))
            .then(|| same_version(info))
            .flatten();
        write_pieces(&mut tmp, source.as_ref(), old, pieces).map_err(|e| write_error(target, OP_WRITE_TEMP, e))?;
        // Closed before the rename: Windows refuses to replace a file that is open without
        // FILE_SHARE_DELETE.
        drop(source);
        copy_owner(&tmp, info)?;
        sys::set_mode(&tmp, info.mode).map_err(|e| io_error(target, OP_CHMOD, e))?;
        tmp.sync_all().map_err(|e| write_error(target, OP_SYNC_TEMP, e))?;
        info.recheck()?;
        crate::test_hook::in_flight();
        if let Some(keep) = keep_old_at {
            kept = sys::link_out(&info.dir, &info.name, keep).is_ok();
        }
        sys::rename_at(&info.dir, &tmp_name, &info.name).map_err(|e| write_error(target, OP_RENAME, e))
    })();
    if let Err(e) = result {
        // The temporary file may be gone already; nothing else to do about it.
        let _ = sys::unlink_at(&info.dir, &tmp_name);
        if kept {
            let _ = fs::remove_file(keep_old_at.expect("kept implies a path"));
        }
        return Err(e);
    }
    sys::sync_dir(&info.dir).map_err(|e| io_error(target, OP_SYNC_DIR, e))?;
    Ok(kept)
}

/// The file `info` describes, opened for reading, if it still is the version that was read (the
/// source kept ranges are copied from); `None` otherwise, and the bytes in memory are written.
fn same_version(info: &FileInfo) -> Option<File> {
    let file = sys::open_for_reading(&info.dir, &info.name).ok()?;
    let st = sys::stat_file(&file).ok()?;
    (st.kind.is_none() && st.identity == info.identity).then_some(file)
}

/// Writes `pieces` to `out` at its current position: kept ranges copied from `source` inside the
/// kernel while that works (see [`sys::copy_range`]), from `old` in memory otherwise.
fn write_pieces(out: &mut File, source: Option<&File>, old: &[&[u8]], pieces: &[Piece<'_>]) -> io::Result<()> {
    let mut source = source;
    for piece in pieces {
        match piece {
            Piece::New(bytes) => out.write_all(bytes)?,
            Piece::Kept(range) => {
                let mut at = range.start;
                while let (Some(from), true) = (source, at < range.end) {
                    match sys::copy_range(from, at as u64, (range.end - at) as u64, out) {
                        Ok(0) => break, // The file is shorter than read: write from memory.
                        Ok(n) => at += n as usize,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) if e.kind() == io::ErrorKind::Unsupported => source = None,
                        Err(e) => return Err(e),
                    }
                }
                if at < range.end {
                    source = None;
                    for part in slices(old, at..range.end) {
                        out.write_all(part)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The slices of the concatenation of `parts` that make up `range`.
fn slices<'a, 'p>(parts: &'p [&'a [u8]], range: Range<usize>) -> impl Iterator<Item = &'a [u8]> + use<'a, 'p> {
    let mut offset = 0;
    parts.iter().filter_map(move |part| {
        let (start, end) = (offset, offset + part.len());
        offset = end;
        let (from, to) = (range.start.max(start), range.end.min(end));
        (from < to).then(|| &part[from - start..to - start])
    })
}

/// The new version in one buffer (for a file rewritten in place).
fn assemble(old: &[&[u8]], pieces: &[Piece<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in pieces {
        match piece {
            Piece::New(bytes) => out.extend_from_slice(bytes),
            Piece::Kept(range) => slices(old, range.clone()).for_each(|s| out.extend_from_slice(s)),
        }
    }
    out
}

/// Creates `name` in the open directory `dir` with `bytes`, never replacing anything there: a
/// temporary file is written and synced, then linked to `name` (which fails if `name` exists, even
/// as a dangling link), the directory synced, and the file read back. `target` names the file in
/// errors.
pub(crate) fn create_new_at(dir: &Dir, name: &OsStr, target: &Path, bytes: &[u8], mode: u32) -> Result<(), FsError> {
    remove_stale_temps(dir);
    let (tmp_name, mut tmp) =
        create_temp(dir, name, mode & 0o7777).map_err(|e| write_error(target, OP_CREATE_TEMP, e))?;
    let result = (|| {
        tmp.write_all(bytes)
            .map_err(|e| write_error(target, OP_WRITE_TEMP, e))?;
        tmp.sync_all().map_err(|e| write_error(target, OP_SYNC_TEMP, e))?;
        if let Err(err) = sys::link_at(dir, &tmp_name, name) {
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
    // Linked to its name or failed: the temporary name goes either way.
    let _ = sys::unlink_at(dir, &tmp_name);
    result?;
    sys::sync_dir(dir).map_err(|e| io_error(target, OP_SYNC_DIR, e))?;
    verify_at(dir, name, target, bytes)
}

/// For a file with several hard links: renaming a new file over one name would leave the other
/// names with the old content, so the content is rewritten in place instead (after the same
/// identity re-check). This is not atomic: a crash in the middle can leave a partial file, which
/// `surgical undo` repairs from its journal.
fn write_in_place(info: &FileInfo, bytes: &[u8]) -> Result<(), FsError> {
    let target = info.real_path.as_path();
    info.recheck()?;
    let mut file = sys::open_for_rewriting(&info.dir, &info.name).map_err(|e| write_error(target, OP_OPEN, e))?;
    file.write_all(bytes)
        .map_err(|e| write_error(target, OP_WRITE_IN_PLACE, e))?;
    file.set_len(bytes.len() as u64)
        .map_err(|e| write_error(target, OP_WRITE_IN_PLACE, e))?;
    file.sync_all().map_err(|e| write_error(target, OP_WRITE_IN_PLACE, e))?;
    verify(info, bytes)
}

/// Removes the file described by `info` (what [`read`](crate::read) returned), unless it changed
/// since it was read.
///
/// # Edge cases
///
/// * The identity re-check of [`write_atomic`] runs first: a file modified, replaced, deleted or
///   swapped for a symbolic link since it was read is left alone.
/// * The name is removed from the directory the file was read in, never through a symbolic link;
///   a symlink that was read through stays (dangling), its target is removed. Other hard links keep
///   the content under their names.
/// * The directory is synced afterwards so the removal survives a crash; a failure there is not
///   reported, since the file is gone either way.
///
/// # Errors
///
/// [`FsError::Changed`] as above (nothing was removed); [`FsError::Io`] (`op` `"delete"`, naming
/// `info.real_path`) when the name cannot be removed.
pub fn remove(info: &FileInfo) -> Result<(), FsError> {
    info.recheck()?;
    sys::unlink_at(&info.dir, &info.name).map_err(|e| io_error(&info.real_path, OP_DELETE, e))?;
    let _ = sys::sync_dir(&info.dir);
    Ok(())
}

/// Syncs a directory by path, best effort (for directories a creation added).
pub(crate) fn sync_path(dir: &Path) {
    if let Ok(fd) = sys::open_dir(dir) {
        let _ = sys::sync_dir(&fd);
    }
}

/// Creates `.<name>.surgical-<pid>-<random>.tmp` in `dir`, exclusively, with `mode` (less the
/// umask).
fn create_temp(dir: &Dir, name: &OsStr, mode: u32) -> io::Result<(OsString, File)> {
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
        match sys::create_exclusive(dir, &tmp, mode) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("could not pick a temporary name")))
}

/// Removes temporary files of surgical's own naming left in `dir` by processes that no longer
/// run (killed mid-write). Best effort: a failure here never fails the write.
fn remove_stale_temps(dir: &Dir) {
    let Some(entries) = sys::dir_entries(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = temp_owner(&name) else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        if !sys::process_exists(pid) {
            let _ = sys::unlink_at(dir, &name);
        }
    }
}

/// The pid in a name of the form `.<name>.surgical-<pid>-<hex>.tmp`.
fn temp_owner(name: &OsStr) -> Option<u32> {
    let text = name.to_str()?;
    let rest = text.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, tail) = rest.rsplit_once(".surgical-")?;
    let (pid, random) = tail.split_once('-')?;
    (random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit())).then_some(())?;
    pid.parse().ok()
}

/// `.<name>.surgical-<pid>-`; the random part and `.tmp` follow.
fn temp_prefix(name: &OsStr) -> OsString {
    let mut prefix = OsString::from(".");
    prefix.push(sys::name_prefix(name, MAX_TEMP_NAME_STEM));
    prefix.push(format!(".surgical-{}-", std::process::id()));
    prefix
}

fn copy_owner(file: &File, info: &FileInfo) -> Result<(), FsError> {
    sys::copy_owner(file, info.uid, info.gid).map_err(|e| io_error(&info.real_path, OP_CHOWN, e))
}

/// Reads the file back in fixed-size chunks (memory stays bounded whatever the file's size) and
/// compares it with what was written.
fn verify(info: &FileInfo, expected: &[u8]) -> Result<(), FsError> {
    verify_at(&info.dir, &info.name, &info.real_path, expected)
}

/// [`verify`] for `name` in `dir` (errors name `target`).
fn verify_at(dir: &Dir, name: &OsStr, target: &Path, expected: &[u8]) -> Result<(), FsError> {
    let mut file = sys::open_for_verifying(dir, name).map_err(|e| io_error(target, OP_VERIFY, e))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read;
    #[cfg(unix)]
    use std::fs::Permissions;
    #[cfg(unix)]
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::path::Path;
    use std::time::Duration;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[cfg(unix)]
    fn mode_of(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o7777
    }

    #[cfg(unix)]
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

    #[cfg(unix)]
    #[test]
    fn write_preserves_owner_when_root() {
        if !sys::is_root() {
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

    #[cfg(unix)]
    #[test]
    fn foreign_owner_is_ignored_when_not_root() {
        if crate::unprivileged::rerun_as_nobody("writer::tests::foreign_owner_is_ignored_when_not_root") {
            return; // Root can always copy the owner (see the test above): this ran as nobody.
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

    #[cfg(unix)]
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
        #[cfg(unix)]
        {
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
        #[cfg(not(unix))]
        assert_eq!(names(dir.path()), ["f"]);
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
        #[cfg(unix)]
        assert_eq!(fs::metadata(&keep).unwrap().nlink(), 1);
        // A file rewritten in place (several links) cannot be kept that way.
        fs::hard_link(&path, dir.path().join("g")).unwrap();
        let (info, _) = read(&path).unwrap();
        assert!(!write_atomic_keeping_old(&info, b"newer", Some(&dir.path().join("kept2"))).unwrap());
        assert!(!dir.path().join("kept2").exists());
    }

    #[cfg(unix)]
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

    #[cfg(unix)]
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

    #[cfg(unix)]
    #[test]
    fn read_only_directory_refuses_write() {
        if crate::unprivileged::rerun_as_nobody("writer::tests::read_only_directory_refuses_write") {
            return; // Root ignores permission bits: this ran as nobody.
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
    fn temp_name_shape() {
        let prefix = temp_prefix(OsStr::new("main.rs"));
        let want = format!(".main.rs.surgical-{}-", std::process::id());
        assert_eq!(prefix, OsStr::new(&want));
        let long = "x".repeat(255);
        let prefix = temp_prefix(OsStr::new(&long));
        assert!(prefix.len() + 8 + ".tmp".len() <= 255);
    }

    #[test]
    #[cfg_attr(
        windows,
        ignore = "Wine 8's GetFinalPathNameByHandleW fails (ERROR_MORE_DATA) for paths over MAX_PATH"
    )]
    fn long_file_name_can_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("y".repeat(255));
        fs::write(&path, b"a").unwrap();
        let (info, _) = read(&path).unwrap();
        write_atomic(&info, b"b").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"b");
        assert_eq!(names(dir.path()).len(), 1);
    }

    /// Pieces over `old` from `(start, end, new)` triples: kept stretches between replacements.
    fn pieces_of<'a>(old_len: usize, replacements: &'a [(usize, usize, Vec<u8>)]) -> Vec<Piece<'a>> {
        let mut pieces = Vec::new();
        let mut cursor = 0;
        for (start, end, new) in replacements {
            pieces.push(Piece::Kept(cursor..*start));
            pieces.push(Piece::New(new));
            cursor = *end;
        }
        pieces.push(Piece::Kept(cursor..old_len));
        pieces
    }

    #[test]
    fn a_spliced_write_is_the_old_file_with_the_ranges_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let old = b"\xEF\xBB\xBFone\r\ntwo\nthree".to_vec();
        fs::write(&path, &old).unwrap();
        let (info, _) = read(&path).unwrap();
        let replacements = [(3, 6, b"ONE".to_vec()), (12, 12, b"2\n".to_vec())];
        let pieces = pieces_of(old.len(), &replacements);
        // The old version in two parts, as a decoded file holds it: the BOM and the text.
        write_atomic_spliced(&info, &[&old[..3], &old[3..]], &pieces, None).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"\xEF\xBB\xBFONE\r\ntwo\n2\nthree");
        assert_eq!(names(dir.path()), ["f"]);
        // Changed since it was read: refused like any write, nothing replaced.
        let (info, _) = read(&path).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        fs::write(&path, b"someone else's").unwrap();
        let err = write_atomic_spliced(&info, &[b"x"], &[Piece::Kept(0..1)], None).unwrap_err();
        assert_eq!(err.code(), "stale");
        assert_eq!(fs::read(&path).unwrap(), b"someone else's");
        assert_eq!(names(dir.path()), ["f"]);
    }

    #[test]
    fn a_spliced_write_to_a_file_with_several_links_rewrites_it_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::write(&a, b"keep|old|keep").unwrap();
        fs::hard_link(&a, &b).unwrap();
        let (info, _) = read(&a).unwrap();
        let pieces = [Piece::Kept(0..5), Piece::New(b"new"), Piece::Kept(8..13)];
        assert!(!write_atomic_spliced(&info, &[b"keep|old|keep"], &pieces, None).unwrap());
        assert_eq!(fs::read(&b).unwrap(), b"keep|new|keep");
    }

    proptest::proptest! {
        /// Written from the file inside the kernel or from memory (the fallback), a spliced write
        /// gives the same bytes as the new version assembled in memory.
        #[test]
        fn spliced_writes_are_byte_identical_to_the_assembled_version(
            old in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000),
            cuts in proptest::collection::vec((0usize..3001, 0usize..40, proptest::collection::vec(proptest::prelude::any::<u8>(), 0..20)), 0..6),
            split in 0usize..3001,
        ) {
            let mut replacements: Vec<(usize, usize, Vec<u8>)> = Vec::new();
            let mut cuts = cuts;
            cuts.sort_by_key(|c| c.0);
            let mut cursor = 0;
            for (start, len, new) in cuts {
                let start = start.min(old.len()).max(cursor);
                let end = (start + len).min(old.len());
                replacements.push((start, end, new));
                cursor = end;
            }
            let pieces = pieces_of(old.len(), &replacements);
            let split = split.min(old.len());
            let parts: [&[u8]; 2] = [&old[..split], &old[split..]];
            let want = assemble(&parts, &pieces);
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("f");
            fs::write(&path, &old).unwrap();
            let (info, _) = read(&path).unwrap();
            write_atomic_spliced(&info, &parts, &pieces, None).unwrap();
            proptest::prop_assert_eq!(fs::read(&path).unwrap(), want.clone());
            // The fallback: every kept range written from memory.
            let mut out = tempfile::tempfile().unwrap();
            write_pieces(&mut out, None, &parts, &pieces).unwrap();
            let mut back = Vec::new();
            use std::io::Seek;
            out.rewind().unwrap();
            out.read_to_end(&mut back).unwrap();
            proptest::prop_assert_eq!(back, want);
        }
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

    #[test]
    fn remove_rechecks_the_identity() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"one").unwrap();
        let (info, _) = read(&path).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        fs::write(&path, b"two!").unwrap();
        assert_eq!(remove(&info).unwrap_err().code(), "stale");
        assert_eq!(fs::read(&path).unwrap(), b"two!");
        let (info, _) = read(&path).unwrap();
        remove(&info).unwrap();
        assert!(!path.exists());
        // Gone meanwhile: refused as a change, not as a failure to delete.
        fs::write(&path, b"x").unwrap();
        let (info, _) = read(&path).unwrap();
        fs::remove_file(&path).unwrap();
        assert_eq!(remove(&info).unwrap_err().code(), "stale");
    }
}
