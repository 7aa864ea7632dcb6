//! The error object of a failed call.

use serde::Serialize;

use crate::{ErrorCode, SyntaxErrorReport};

/// A failed tool call: a stable code, a message for the model, and what it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolError {
    /// `not_found`, `ambiguous`, `overlap`, `no_change`, `empty_old_text`, `file_not_found`,
    /// `permission_denied`, `not_a_file`, `binary_file`, `unsupported_encoding`, `too_large`,
    /// `stale`, `invalid_input`, `io` (see [`ErrorCode`]).
    pub code: ErrorCode,
    /// What went wrong and what to do about it, written for the model (the result's `text` is
    /// `Error (<code>): <message>`).
    pub message: String,
    /// For `edit`: the index in `edits` of the edit that failed (absent when the failure concerns the
    /// call as a whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit_index: Option<usize>,
    /// The path the error concerns, as the caller wrote it (absent when no file is involved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// For `ambiguous`: the one-based line of each occurrence listed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<usize>,
    /// For `apply_patch`: the failing hunk's index among its file's hunks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk_index: Option<usize>,
    /// For `apply_patch`: the one-based line of the patch text the error concerns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_line: Option<usize>,
    /// For `syntax_error`: the errors the call would have introduced into the file `path` names,
    /// as a report lists them in `syntaxErrors` (absent for every other code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_errors: Option<Vec<SyntaxErrorReport>>,
    /// For `apply_patch`'s `syntax_error`: each file the patch would have broken (`path` names the
    /// first), with its errors, in the patch's order (empty, and absent, for every other case).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileSyntaxErrors>,
}

/// One file of a refused `apply_patch` and the syntax errors the patch would have introduced
/// into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileSyntaxErrors {
    /// The file, as the patch names it.
    pub path: String,
    /// Its errors, as a report lists them in `files[].syntaxErrors`.
    pub syntax_errors: Vec<SyntaxErrorReport>,
}

impl ToolError {
    /// An error with `code` and `message` that names no edit, path, line or hunk (set those fields
    /// afterwards, with struct update syntax).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ToolError {
        ToolError {
            code,
            message: message.into(),
            edit_index: None,
            path: None,
            lines: Vec::new(),
            hunk_index: None,
            patch_line: None,
            syntax_errors: None,
            files: Vec::new(),
        }
    }

    /// An `invalid_input` error: the call's arguments are wrong.
    pub fn invalid_input(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorCode::InvalidInput, message)
    }
}
