use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use crate::Encoding;

/// An error from reading, decoding, encoding or writing a file.
///
/// Every message is written to be acted on by whoever reads it, typically
/// an AI model driving an edit: it names the path, says what went wrong and
/// suggests what to do next. Use [`FsError::code`] for a stable,
/// machine-readable tag instead of matching on message text.
///
/// Errors from [`decode`](crate::decode) and [`encode`](crate::encode) carry
/// no path because those functions only see bytes; use
/// [`FsError::with_path`] (or [`read_decoded`](crate::read_decoded), which
/// does it for you) to attach one.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// The path does not exist, a component of it is not a directory, or it
    /// is a symlink whose target does not exist.
    #[error(
        "{} does not exist; check the path for typos, or list its directory to find the right name",
        .path.display()
    )]
    NotFound {
        /// The path as given by the caller.
        path: PathBuf,
    },
    /// The operating system refused access.
    ///
    /// For writes, `path` is the resolved target and the cause may be its
    /// directory: an atomic write creates a temporary file next to the
    /// target, so the directory must be writable.
    #[error("{}", permission_message(.path, .op))]
    PermissionDenied {
        /// The path that could not be accessed.
        path: PathBuf,
        /// `"read"`, `"write"`, or `"replace"` for a file that may not be written (see
        /// [`FileInfo::check_writable`](crate::FileInfo::check_writable)).
        op: &'static str,
    },
    /// The path exists but is not a regular file.
    #[error("{}", not_a_file_message(.path, .kind))]
    NotAFile {
        /// The path as given by the caller.
        path: PathBuf,
        /// One of `"directory"`, `"fifo"`, `"socket"`, `"block device"`,
        /// `"character device"` or `"other"`.
        kind: &'static str,
    },
    /// The content has no byte-order mark and contains a NUL byte, so it is
    /// treated as binary.
    #[error("{}", binary_message(.path, *.offset, *.utf16_guess))]
    Binary {
        /// The file, when known.
        path: Option<PathBuf>,
        /// Offset of the first NUL byte.
        offset: usize,
        /// `Some(Encoding::Utf16Le)` or `Some(Encoding::Utf16Be)` when the
        /// NUL bytes are laid out like UTF-16 text without a byte-order mark
        /// (mostly at odd or mostly at even offsets in the first 4 KiB).
        /// This is only a hint for the message; such content is never
        /// decoded.
        utf16_guess: Option<Encoding>,
    },
    /// The content is in an encoding surgical does not handle, or claims an
    /// encoding (via its byte-order mark) that it does not follow.
    #[error("{} cannot be handled: {detail}", subject(.path))]
    UnsupportedEncoding {
        /// The file, when known.
        path: Option<PathBuf>,
        /// What is wrong, where (as a byte offset) and what to do.
        detail: String,
    },
    /// The file is larger than the size limit given to
    /// [`read_with_limit`](crate::read_with_limit).
    #[error(
        "{} is {len} bytes, over the limit of {limit} bytes; surgical loads whole files into memory, \
         so edit a smaller file or use a streaming tool for this one",
        .path.display()
    )]
    TooLarge {
        /// The path as given by the caller.
        path: PathBuf,
        /// The file's length (or a lower bound, if it grew while being read).
        len: u64,
        /// The limit that was exceeded.
        limit: u64,
    },
    /// The path leads outside the root the caller may edit: `..`, an absolute path elsewhere, or a
    /// symbolic link (at any level) whose target lies outside.
    #[error(
        "{} is outside the workspace root {}{}; surgical only edits files inside the root. Use a path \
         inside it (relative to the root)",
        .path.display(),
        .root.display(),
        via(.path, .resolved)
    )]
    OutsideRoot {
        /// The path as given by the caller.
        path: PathBuf,
        /// Where it leads, symlinks resolved.
        resolved: PathBuf,
        /// The root, symlinks resolved.
        root: PathBuf,
    },
    /// The file changed between reading it and replacing it: another process wrote it, replaced
    /// it, or swapped in a symbolic link. Nothing was written.
    #[error(
        "{} changed while the edit was being prepared ({detail}); nothing was written. Read the file \
         again and redo the edit against what it holds now",
        .path.display()
    )]
    Changed {
        /// The file.
        path: PathBuf,
        /// What changed.
        detail: String,
    },
    /// Any other I/O failure.
    ///
    /// `op` names the step that failed, phrased to read as "could not
    /// *op* *path*": `"inspect"`, `"resolve symlinks in"`, `"open"` or
    /// `"read"` when reading; `"create a temporary file next to"`, `"write
    /// the temporary file for"`, `"copy the owner to the temporary file
    /// for"`, `"copy the permissions to the temporary file for"`, `"sync the
    /// temporary file for"`, `"rename the temporary file over"`, `"sync the
    /// directory of"`, `"verify"` or `"write"` when writing; `"lock the directory of"` when
    /// another surgical process holds the directory's lock too long; `"create"`, `"create the
    /// parent directories of"` and `"open the directory of"` when creating a file; `"delete"` when
    /// removing one. The message says whether the target file was left unchanged.
    #[error("{}", io_message(.op, .path, .source))]
    Io {
        /// The file involved, when known.
        path: Option<PathBuf>,
        /// The step that failed.
        op: &'static str,
        /// The underlying error.
        source: io::Error,
    },
}

/// The kind of an [`FsError`], one per variant: what callers compare (`e.kind() ==
/// FsErrorKind::NotFound`) instead of message text or code strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FsErrorKind {
    /// [`FsError::NotFound`].
    NotFound,
    /// [`FsError::PermissionDenied`].
    PermissionDenied,
    /// [`FsError::NotAFile`].
    NotAFile,
    /// [`FsError::Binary`].
    Binary,
    /// [`FsError::UnsupportedEncoding`].
    UnsupportedEncoding,
    /// [`FsError::TooLarge`].
    TooLarge,
    /// [`FsError::OutsideRoot`].
    OutsideRoot,
    /// [`FsError::Changed`].
    Changed,
    /// [`FsError::Io`].
    Io,
}

impl FsErrorKind {
    /// The stable, machine-readable tag of this kind: `"file_not_found"`, `"permission_denied"`,
    /// `"not_a_file"`, `"binary_file"`, `"unsupported_encoding"`, `"too_large"`, `"outside_root"`,
    /// `"stale"` or `"io"`.
    pub fn code(self) -> &'static str {
        match self {
            FsErrorKind::NotFound => "file_not_found",
            FsErrorKind::PermissionDenied => "permission_denied",
            FsErrorKind::NotAFile => "not_a_file",
            FsErrorKind::Binary => "binary_file",
            FsErrorKind::UnsupportedEncoding => "unsupported_encoding",
            FsErrorKind::TooLarge => "too_large",
            FsErrorKind::OutsideRoot => "outside_root",
            FsErrorKind::Changed => "stale",
            FsErrorKind::Io => "io",
        }
    }
}

impl FsError {
    /// The kind of error, to compare against.
    pub fn kind(&self) -> FsErrorKind {
        match self {
            FsError::NotFound { .. } => FsErrorKind::NotFound,
            FsError::PermissionDenied { .. } => FsErrorKind::PermissionDenied,
            FsError::NotAFile { .. } => FsErrorKind::NotAFile,
            FsError::Binary { .. } => FsErrorKind::Binary,
            FsError::UnsupportedEncoding { .. } => FsErrorKind::UnsupportedEncoding,
            FsError::TooLarge { .. } => FsErrorKind::TooLarge,
            FsError::Io { .. } => FsErrorKind::Io,
            FsError::OutsideRoot { .. } => FsErrorKind::OutsideRoot,
            FsError::Changed { .. } => FsErrorKind::Changed,
        }
    }

    /// A stable, machine-readable tag for the kind of error: [`FsErrorKind::code`] of
    /// [`FsError::kind`].
    ///
    /// One of `"file_not_found"`, `"permission_denied"`, `"not_a_file"`,
    /// `"binary_file"`, `"unsupported_encoding"`, `"too_large"`, `"outside_root"`, `"stale"` or
    /// `"io"`.
    pub fn code(&self) -> &'static str {
        self.kind().code()
    }

    /// The path this error is about, if it carries one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            FsError::NotFound { path }
            | FsError::PermissionDenied { path, .. }
            | FsError::NotAFile { path, .. }
            | FsError::TooLarge { path, .. }
            | FsError::OutsideRoot { path, .. }
            | FsError::Changed { path, .. } => Some(path),
            FsError::Binary { path, .. } | FsError::UnsupportedEncoding { path, .. } | FsError::Io { path, .. } => {
                path.as_deref()
            }
        }
    }

    /// Fills in `path` on errors that lack one (those from
    /// [`decode`](crate::decode) and [`encode`](crate::encode)).
    ///
    /// A path that is already present is kept: it is more specific than
    /// whatever the caller knows.
    pub fn with_path(mut self, new: &Path) -> FsError {
        match &mut self {
            FsError::Binary { path, .. } | FsError::UnsupportedEncoding { path, .. } | FsError::Io { path, .. }
                if path.is_none() =>
            {
                *path = Some(new.to_path_buf());
            }
            _ => {}
        }
        self
    }
}

/// ", which leads to X" when the resolved path says more than the given one.
fn via(path: &Path, resolved: &Path) -> String {
    if path == resolved {
        String::new()
    } else {
        format!(" (it leads to {})", resolved.display())
    }
}

// The `op` values of `FsError::Io`. They read as "could not <op> <path>".
pub(crate) const OP_STAT: &str = "inspect";
pub(crate) const OP_RESOLVE: &str = "resolve symlinks in";
pub(crate) const OP_OPEN: &str = "open";
pub(crate) const OP_READ: &str = "read";
pub(crate) const OP_CREATE_TEMP: &str = "create a temporary file next to";
pub(crate) const OP_WRITE_TEMP: &str = "write the temporary file for";
pub(crate) const OP_SYNC_TEMP: &str = "sync the temporary file for";
pub(crate) const OP_CHOWN: &str = "copy the owner to the temporary file for";
pub(crate) const OP_CHMOD: &str = "copy the permissions to the temporary file for";
pub(crate) const OP_RENAME: &str = "rename the temporary file over";
pub(crate) const OP_SYNC_DIR: &str = "sync the directory of";
pub(crate) const OP_VERIFY: &str = "verify";
pub(crate) const OP_LOCK: &str = "lock the directory of";
pub(crate) const OP_CREATE: &str = "create";
pub(crate) const OP_WRITE_IN_PLACE: &str = "rewrite in place (it has several hard links)";
pub(crate) const OP_DELETE: &str = "delete";

/// Maps an I/O error from reading `path` to the most specific variant.
pub(crate) fn read_error(path: &Path, op: &'static str, err: io::Error) -> FsError {
    match err.kind() {
        io::ErrorKind::NotFound => FsError::NotFound {
            path: path.to_path_buf(),
        },
        io::ErrorKind::PermissionDenied => FsError::PermissionDenied {
            path: path.to_path_buf(),
            op: "read",
        },
        // A file used as a directory ("a.txt/b") means the path does not
        // exist; saying so is more useful than "Not a directory". So does a name the system cannot
        // hold (`<a>.txt` on Windows, a name too long): no such file can exist.
        io::ErrorKind::InvalidFilename => FsError::NotFound {
            path: path.to_path_buf(),
        },
        _ if crate::sys::is_not_a_directory(&err) => FsError::NotFound {
            path: path.to_path_buf(),
        },
        _ => FsError::Io {
            path: Some(path.to_path_buf()),
            op,
            source: err,
        },
    }
}

/// Maps an I/O error from writing `path` to the most specific variant.
pub(crate) fn write_error(path: &Path, op: &'static str, err: io::Error) -> FsError {
    match err.kind() {
        io::ErrorKind::PermissionDenied => FsError::PermissionDenied {
            path: path.to_path_buf(),
            op: "write",
        },
        _ => FsError::Io {
            path: Some(path.to_path_buf()),
            op,
            source: err,
        },
    }
}

fn subject(path: &Option<PathBuf>) -> String {
    match path {
        Some(p) => p.display().to_string(),
        None => "the content".to_string(),
    }
}

fn permission_message(path: &Path, op: &str) -> String {
    if op == "replace" {
        format!(
            "permission denied: {} is read-only (no write permission), or this process may not write \
             it; surgical does not replace a file it may not write. If it should change, make it \
             writable first (chmod u+w); otherwise choose another file",
            path.display()
        )
    } else if op == "write" {
        format!(
            "permission denied writing {}; surgical writes a temporary file in the same directory \
             and renames it over the file, so the directory must be writable: fix the permissions \
             or choose another file",
            path.display()
        )
    } else {
        format!(
            "permission denied reading {}; this process may not read it (or search its directory): \
             fix the permissions or choose another file",
            path.display()
        )
    }
}

fn not_a_file_message(path: &Path, kind: &str) -> String {
    let hint = match kind {
        "directory" => "give the path of a file inside it",
        "fifo" | "socket" => "it is a stream, not stored text; give the path of a regular file",
        "block device" | "character device" => "give the path of a regular file",
        _ => "surgical edits regular files only; give the path of a regular file",
    };
    let kind = if kind == "other" { "special file" } else { kind };
    format!("{} is a {kind}, not a file; {hint}", path.display())
}

fn binary_message(path: &Option<PathBuf>, offset: usize, guess: Option<Encoding>) -> String {
    let mut msg = format!(
        "{} looks binary (NUL byte at offset {offset}); surgical edits text files only",
        subject(path)
    );
    if let Some(enc) = guess {
        let (parity, bom) = match enc {
            Encoding::Utf16Be => ("even", "FE FF"),
            _ => ("odd", "FF FE"),
        };
        let _ = write!(
            msg,
            ". Its NUL bytes sit mostly at {parity} offsets, so it is probably {} text without \
             a byte-order mark, which surgical does not guess at: convert it to UTF-8, or prepend \
             the BOM {bom}, then retry",
            enc.name().to_uppercase()
        );
    }
    msg
}

fn io_message(op: &str, path: &Option<PathBuf>, source: &io::Error) -> String {
    let mut msg = format!("could not {op} {}: {source}", subject(path));
    let note = match op {
        // Another program holds the file open (Windows): its message says what to do.
        OP_RENAME if source.kind() == io::ErrorKind::ResourceBusy => "; the file was left unchanged",
        OP_CREATE_TEMP | OP_WRITE_TEMP | OP_SYNC_TEMP | OP_CHOWN | OP_CHMOD | OP_RENAME | OP_LOCK => {
            "; the file was left unchanged (check free space and the directory, then retry)"
        }
        OP_WRITE_IN_PLACE => {
            "; the file may be partly rewritten: restore it with `surgical undo` (or the undo tool), then retry"
        }
        OP_SYNC_DIR => "; the new content is in place but may not survive a crash (re-read the file to confirm)",
        OP_VERIFY => "; re-read the file before editing it again",
        _ => "",
    };
    msg.push_str(note);
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        let p = PathBuf::from("x");
        let cases = [
            (FsError::NotFound { path: p.clone() }, "file_not_found"),
            (
                FsError::PermissionDenied {
                    path: p.clone(),
                    op: "read",
                },
                "permission_denied",
            ),
            (
                FsError::NotAFile {
                    path: p.clone(),
                    kind: "fifo",
                },
                "not_a_file",
            ),
            (
                FsError::Binary {
                    path: None,
                    offset: 0,
                    utf16_guess: None,
                },
                "binary_file",
            ),
            (
                FsError::UnsupportedEncoding {
                    path: None,
                    detail: String::new(),
                },
                "unsupported_encoding",
            ),
            (
                FsError::TooLarge {
                    path: p.clone(),
                    len: 2,
                    limit: 1,
                },
                "too_large",
            ),
            (
                FsError::Io {
                    path: None,
                    op: OP_READ,
                    source: io::Error::other("boom"),
                },
                "io",
            ),
        ];
        for (err, code) in cases {
            assert_eq!(err.code(), code, "{err:?}");
        }
    }

    #[test]
    fn messages_name_path_and_next_step() {
        let dir = FsError::NotAFile {
            path: "src/x.ts".into(),
            kind: "directory",
        };
        assert_eq!(
            dir.to_string(),
            "src/x.ts is a directory, not a file; give the path of a file inside it"
        );
        let other = FsError::NotAFile {
            path: "p".into(),
            kind: "other",
        };
        assert!(other.to_string().starts_with("p is a special file, not a file"));

        let nf = FsError::NotFound { path: "a/b.rs".into() }.to_string();
        assert!(nf.starts_with("a/b.rs does not exist"), "{nf}");

        let pd = FsError::PermissionDenied {
            path: "a".into(),
            op: "write",
        }
        .to_string();
        assert!(pd.contains("directory must be writable"), "{pd}");

        let big = FsError::TooLarge {
            path: "big.log".into(),
            len: 10,
            limit: 5,
        }
        .to_string();
        assert!(big.starts_with("big.log is 10 bytes, over the limit of 5"), "{big}");

        let io = FsError::Io {
            path: Some("f".into()),
            op: OP_RENAME,
            source: io::Error::other("disk on fire"),
        }
        .to_string();
        assert!(io.starts_with("could not rename the temporary file over f: disk on fire"));
        assert!(io.contains("left unchanged"), "{io}");
    }

    #[test]
    fn binary_message_mentions_utf16() {
        let plain = FsError::Binary {
            path: Some("a.bin".into()),
            offset: 7,
            utf16_guess: None,
        };
        assert_eq!(
            plain.to_string(),
            "a.bin looks binary (NUL byte at offset 7); surgical edits text files only"
        );
        let le = FsError::Binary {
            path: None,
            offset: 1,
            utf16_guess: Some(Encoding::Utf16Le),
        }
        .to_string();
        assert!(le.starts_with("the content looks binary (NUL byte at offset 1)"));
        assert!(le.contains("UTF-16LE") && le.contains("FF FE"), "{le}");
    }

    #[test]
    fn with_path_fills_only_missing() {
        let e = FsError::UnsupportedEncoding {
            path: None,
            detail: "d".into(),
        }
        .with_path(Path::new("new"));
        assert_eq!(e.path(), Some(Path::new("new")));
        let e = e.with_path(Path::new("other"));
        assert_eq!(e.path(), Some(Path::new("new")));
        let e = FsError::NotFound { path: "keep".into() }.with_path(Path::new("x"));
        assert_eq!(e.path(), Some(Path::new("keep")));
    }
}
