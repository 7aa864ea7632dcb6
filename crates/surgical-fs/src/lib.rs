/*!
The file layer of surgical: read a file, decode it to UTF-8 for editing,
encode the edited text back, and write it atomically.

Everything here serves one promise: every byte an edit does not target is
written back identical. So this crate never guesses and never repairs.
Encodings are told apart only by byte-order marks, bytes that are not valid
UTF-8 are carried through untouched, and content that cannot be decoded
exactly (UTF-32, malformed UTF-16, binary data) is refused with an error
instead of being decoded lossily.

# Overview

* [`Root`] is the workspace: it resolves a caller's path inside it (symlinks judged by where
  they lead) and opens it as a [`Target`], a file pinned to its open directory. [`Target::lock`]
  takes the directory's lock ([`DirLock`]) for a read-modify-write; [`Target::read`] returns the
  raw bytes and a [`FileInfo`] recording the file's identity, mode and owner.
* [`read`] (or [`read_with_limit`]) does the same for a plain path, without a root.
* [`decode`] turns those bytes into a [`Decoded`]: the [`Encoding`] plus
  the text as UTF-8 without any byte-order mark. [`read_decoded`] does both
  steps; [`decode_keeping`] also gives back the bytes where they are not the text itself.
* [`encode`] is the exact inverse of [`decode`]: for any `bytes` that
  decode, `encode(d.encoding, &d.text)` gives back `bytes`.
* [`write_atomic`] replaces the file through a temporary file and a rename,
  keeping its mode (and owner, when possible), after checking that the file is still the
  version that was read. [`write_atomic_keeping_old`] keeps the
  replaced version under another name without copying it; [`write_atomic_spliced`] writes a
  version that is the old one with some ranges replaced ([`Piece`]s) without assembling it in
  memory, copying the unchanged ranges inside the kernel where it can.
* [`write_new`] (or [`Root::create`]) creates a file that does not exist, never replacing
  anything, and returns a [`NewFile`] that can take the creation back; [`remove`] deletes a file
  that was read, unless it changed since.
* Every failure is an [`FsError`], whose message names the path, says what
  happened and what to do, whose [`FsError::kind`] is what to compare, and whose
  [`FsError::code`] is a stable tag.

The modules follow the same lines: `sys` holds every system call (and is the only code that calls
`libc` or `windows-sys`, one implementation per platform), `target` the pinned target (open directory, lock, read, identity), `writer` the atomic
writer and removal, `create` new files, `sandbox` the root, `encoding` the encodings.

Platforms: Linux, macOS and Windows. What differs between them (how a directory is pinned, what
replaces a file, what a lock is, how a read-only file is treated) is described in the `sys` module
and, for users, in docs/guarantees.md ("Platforms").

# Example

Read a UTF-8 file with a byte-order mark and CRLF line endings, change one
word and write it back; the BOM and the line endings survive untouched.

```
use surgical_fs::{encode, read_decoded, write_atomic, Encoding};

let dir = tempfile::tempdir()?;
let path = dir.path().join("greeting.txt");
std::fs::write(&path, b"\xEF\xBB\xBFhello world\r\n")?;

let (info, decoded) = read_decoded(&path)?;
assert_eq!(decoded.encoding, Encoding::Utf8Bom);
assert_eq!(decoded.text, b"hello world\r\n");

let mut text = decoded.text;
text.splice(..5, b"howdy".iter().copied());
write_atomic(&info, &encode(decoded.encoding, &text)?)?;

assert_eq!(std::fs::read(&path)?, b"\xEF\xBB\xBFhowdy world\r\n");
# Ok::<(), Box<dyn std::error::Error>>(())
```

Errors explain themselves:

```
use surgical_fs::read;

let dir = tempfile::tempdir()?;
let err = read(dir.path()).unwrap_err();
assert_eq!(err.code(), "not_a_file");
assert!(err.to_string().ends_with(
    "is a directory, not a file; give the path of a file inside it",
));
# Ok::<(), Box<dyn std::error::Error>>(())
```
*/

#![deny(missing_docs)]

mod create;
mod encoding;
mod error;
mod sandbox;
mod sys;
mod target;
mod test_hook;
#[cfg(all(test, unix))]
mod unprivileged;
mod writer;

pub use crate::create::{write_new, NewFile, DEFAULT_NEW_FILE_MODE};
pub use crate::encoding::{decode, decode_keeping, encode, encode_parts, Decoded, Decoding, Encoding};
pub use crate::error::{FsError, FsErrorKind};
pub use crate::sandbox::Root;
pub use crate::target::{
    open_target, read, read_decoded, read_with_limit, DirLock, FileInfo, Target, DEFAULT_SIZE_LIMIT, LOCK_TIMEOUT,
};
/// The CPU time (user and system) the calling thread has used so far, where the system says
/// (Linux, macOS; `None` on Windows). For measuring where a call's time goes on a busy machine.
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    sys::thread_cpu_time()
}

pub use crate::writer::{remove, write_atomic, write_atomic_keeping_old, write_atomic_spliced, Piece};

/// Whether process `pid` exists (perhaps under another user's id), for callers that name their
/// own files by pid and clean up after processes that are gone (such as an undo journal). A pid
/// reused by a new process reads as alive: such callers then keep what they would have removed.
pub fn process_exists(pid: u32) -> bool {
    sys::process_exists(pid)
}

/// Syncs the directory `dir` (by path), best effort, so that names just added to it or removed from
/// it survive a crash (for callers keeping their own files, such as an undo journal). Does nothing
/// where directories cannot be synced.
pub fn sync_dir(dir: &std::path::Path) {
    writer::sync_path(dir);
}
