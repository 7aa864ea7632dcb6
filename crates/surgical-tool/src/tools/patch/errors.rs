//! The errors of a call, each naming the file (and the hunk and patch line) it concerns and ending
//! with what was written: nothing, before the commit.

use std::path::Path;

use surgical_fs::FsError;
use surgical_patch::{Failure, Op, OpKind, ParseError, PatchFormat};

use crate::wording::patch as words;
use crate::{ErrorCode, ToolError};

pub(super) fn file_error(e: FsError, shown: &str) -> ToolError {
    let e = e.with_path(Path::new(shown));
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::of_fs(&e), words::file_error(&e.to_string()))
    }
}

pub(super) fn parse_error(e: ParseError, format: PatchFormat) -> ToolError {
    ToolError {
        patch_line: (e.line > 0).then_some(e.line),
        ..ToolError::invalid_input(words::unreadable(format, e.line, &e.message))
    }
}

/// A hunk that could not be placed on `text`, worded (see [`words::placement`]).
pub(super) fn hunk_error(f: Failure, text: &[u8], op: &Op, format: PatchFormat) -> ToolError {
    let (code, message, lines) = words::placement(&f, text, format);
    let patch_line = match &op.kind {
        OpKind::Update { hunks, .. } | OpKind::Delete { hunks } => hunks.get(f.hunk).map(|h| h.patch_line),
        OpKind::Add { .. } => None,
    };
    ToolError {
        code,
        message: words::hunk_failed(&op.path, format, f.hunk, patch_line, &message),
        edit_index: None,
        path: Some(op.path.clone()),
        lines,
        hunk_index: Some(f.hunk),
        patch_line,
        syntax_errors: None,
        files: Vec::new(),
    }
}

pub(super) fn op_error(op: &Op, code: ErrorCode, message: String) -> ToolError {
    ToolError {
        path: Some(op.path.clone()),
        patch_line: Some(op.patch_line),
        ..ToolError::new(code, words::nothing_written(&message))
    }
}
