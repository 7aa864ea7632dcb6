//! The error codes of the machine contract, as one enum from the engine and the file layer to the
//! result object.

use std::fmt;

use serde::Serialize;
use surgical_core::{EditError, ElisionProblem};
use surgical_fs::{FsError, FsErrorKind};

/// A stable error code: what a failed call's `code` field holds (its [`ErrorCode::as_str`]).
/// Codes are added, never renamed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// `oldText` is empty.
    EmptyOldText,
    /// The text to replace (or a patch hunk's old lines) is not in the file.
    NotFound,
    /// It occurs more than once.
    Ambiguous,
    /// Two edits target overlapping text.
    Overlap,
    /// An edit changes nothing.
    NoChange,
    /// The file does not exist.
    FileNotFound,
    /// The operating system refused access.
    PermissionDenied,
    /// The path is not a regular file.
    NotAFile,
    /// The file holds NUL bytes (binary).
    BinaryFile,
    /// The file's encoding is not one surgical handles.
    UnsupportedEncoding,
    /// The file is over the size limit.
    TooLarge,
    /// The file changed since it was read (or `expectedHash` does not match).
    Stale,
    /// The path leads outside the workspace root.
    OutsideRoot,
    /// Nothing to undo.
    NoUndo,
    /// The call's arguments are wrong.
    InvalidInput,
    /// Any other input/output failure.
    Io,
    /// `newText` holds an omission placeholder (`// ... existing code ...`) that `oldText` lacks.
    Placeholder,
    /// A loose tier matched a line the model remembered differently, and its change touches what
    /// differs: what to write there cannot be determined.
    Conflict,
    /// The client cancelled the call before it ran (MCP `notifications/cancelled`); nothing was
    /// changed.
    Cancelled,
    /// The edit would introduce syntax errors and the call asked to refuse such an edit
    /// (`onSyntaxError: "refuse"`); nothing was written.
    SyntaxError,
}

impl ErrorCode {
    /// Every code, in declaration order: for clients and tests that check a code is one of them.
    pub const ALL: [ErrorCode; 20] = [
        ErrorCode::EmptyOldText,
        ErrorCode::NotFound,
        ErrorCode::Ambiguous,
        ErrorCode::Overlap,
        ErrorCode::NoChange,
        ErrorCode::FileNotFound,
        ErrorCode::PermissionDenied,
        ErrorCode::NotAFile,
        ErrorCode::BinaryFile,
        ErrorCode::UnsupportedEncoding,
        ErrorCode::TooLarge,
        ErrorCode::Stale,
        ErrorCode::OutsideRoot,
        ErrorCode::NoUndo,
        ErrorCode::InvalidInput,
        ErrorCode::Io,
        ErrorCode::Placeholder,
        ErrorCode::Conflict,
        ErrorCode::Cancelled,
        ErrorCode::SyntaxError,
    ];

    /// The code as the contract writes it: `not_found`, `file_not_found`, …
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::EmptyOldText => "empty_old_text",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Ambiguous => "ambiguous",
            ErrorCode::Overlap => "overlap",
            ErrorCode::NoChange => "no_change",
            ErrorCode::FileNotFound => "file_not_found",
            ErrorCode::PermissionDenied => "permission_denied",
            ErrorCode::NotAFile => "not_a_file",
            ErrorCode::BinaryFile => "binary_file",
            ErrorCode::UnsupportedEncoding => "unsupported_encoding",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::Stale => "stale",
            ErrorCode::OutsideRoot => "outside_root",
            ErrorCode::NoUndo => "no_undo",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Io => "io",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::Placeholder => "placeholder",
            ErrorCode::Conflict => "conflict",
            ErrorCode::SyntaxError => "syntax_error",
        }
    }

    /// The code of a file-layer error.
    pub fn of_fs(e: &FsError) -> ErrorCode {
        match e.kind() {
            FsErrorKind::NotFound => ErrorCode::FileNotFound,
            FsErrorKind::PermissionDenied => ErrorCode::PermissionDenied,
            FsErrorKind::NotAFile => ErrorCode::NotAFile,
            FsErrorKind::Binary => ErrorCode::BinaryFile,
            FsErrorKind::UnsupportedEncoding => ErrorCode::UnsupportedEncoding,
            FsErrorKind::TooLarge => ErrorCode::TooLarge,
            FsErrorKind::OutsideRoot => ErrorCode::OutsideRoot,
            FsErrorKind::Changed => ErrorCode::Stale,
            // `FsErrorKind` may grow; a kind this layer does not know yet is an I/O failure.
            _ => ErrorCode::Io,
        }
    }

    /// The code of an engine error.
    pub fn of_edit(e: &EditError) -> ErrorCode {
        match e {
            EditError::EmptyOldText { .. } => ErrorCode::EmptyOldText,
            EditError::NotFound { .. } => ErrorCode::NotFound,
            EditError::Ambiguous { .. } => ErrorCode::Ambiguous,
            EditError::Overlap { .. } => ErrorCode::Overlap,
            EditError::NoChange { .. } => ErrorCode::NoChange,
            EditError::Placeholder { .. } => ErrorCode::Placeholder,
            EditError::Conflict { .. } => ErrorCode::Conflict,
            EditError::Elision { problem, .. } => match problem {
                ElisionProblem::Ambiguous { .. } => ErrorCode::Ambiguous,
                ElisionProblem::MarkersDiffer { .. } => ErrorCode::Placeholder,
                _ => ErrorCode::NotFound,
            },
            _ => ErrorCode::InvalidInput,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Tests and callers holding the contract's string compare with it directly.
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for ErrorCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_the_contract_string() {
        for code in [
            ErrorCode::EmptyOldText,
            ErrorCode::FileNotFound,
            ErrorCode::NotAFile,
            ErrorCode::Io,
            ErrorCode::Cancelled,
            ErrorCode::Placeholder,
            ErrorCode::Conflict,
        ] {
            assert_eq!(serde_json::to_value(code).unwrap(), serde_json::json!(code.as_str()));
        }
    }
}
