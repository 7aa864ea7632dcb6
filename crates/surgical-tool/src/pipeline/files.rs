//! The tool layer's side of the file layer: file errors as tool errors (the message of
//! `surgical_fs`, a hint added), and the paths no tool may touch (surgical's undo journal).

use std::path::Path;

use surgical_fs::{FsError, FsErrorKind};

use crate::{ErrorCode, ToolError};

/// A file error as a tool error about `shown` (the path as the model gave it); `hint_not_found` is
/// appended to the message when the file does not exist. Errors without a path (from encoding)
/// get `shown`.
pub(crate) fn fs_error(e: FsError, shown: &str, hint_not_found: &str) -> ToolError {
    fs_error_of(&e.with_path(Path::new(shown)), shown, hint_not_found)
}

/// [`fs_error`] for an error that names its path already (a document's decoding error).
pub(crate) fn fs_error_of(e: &FsError, shown: &str, hint_not_found: &str) -> ToolError {
    let mut message = e.to_string();
    if e.kind() == FsErrorKind::NotFound && !hint_not_found.is_empty() {
        message.push(' ');
        message.push_str(hint_not_found);
    }
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::of_fs(e), message)
    }
}

/// Refuses a path inside surgical's undo journal (any `.surgical` directory under the root, or the
/// journal kept elsewhere for a root that is the home directory or `/`): no tool reads or writes
/// there, so a model cannot rewrite or read back the journal. The code is `outside_root`: the
/// journal is outside what the tools may touch. A path that does not resolve passes (opening it
/// reports why).
pub(crate) fn refuse_reserved(root: &surgical_fs::Root, real: &Path, shown: &str) -> Result<(), ToolError> {
    let inside_dot_dir = real.strip_prefix(root.path()).is_ok_and(|rel| {
        rel.components()
            .any(|c| c.as_os_str() == crate::pipeline::journal::JOURNAL_DIR)
    });
    let in_journal = crate::pipeline::journal::journal_dir(root.path()).is_some_and(|dir| real.starts_with(dir));
    if !(inside_dot_dir || in_journal) {
        return Ok(());
    }
    Err(ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(
            ErrorCode::OutsideRoot,
            format!(
                "{shown} is inside {}/, surgical's undo journal, which no tool reads or writes. To take back a \
                 change, call undo with the path of the file that changed.",
                crate::pipeline::journal::JOURNAL_DIR
            ),
        )
    })
}

/// [`refuse_reserved`] for a path as the caller gave it.
pub(crate) fn refuse_reserved_name(root: &surgical_fs::Root, shown: &str) -> Result<(), ToolError> {
    match root.resolve(shown) {
        Ok(real) => refuse_reserved(root, &real, shown),
        Err(_) => Ok(()),
    }
}
