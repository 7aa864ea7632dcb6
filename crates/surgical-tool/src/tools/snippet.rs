//! The `apply_snippet` tool: a lazy snippet (the changed code, unchanged stretches elided by
//! marker lines such as `// ... existing code ...`) merged into one file by
//! `surgical_core::snippet`, then written as `edit` writes (atomic, journal, sandbox).

use serde_json::Value;
use surgical_core::marker::TextKind;
use surgical_core::snippet::{apply_snippet_in, apply_snippet_spliced_in, Placement, SnippetError};

use crate::pipeline::in_place::{run_engine, Call};
use crate::tools::args::{boolean, expected_hash, object, path, string};
use crate::{wording, Config, EditSuccess, ErrorCode, SegmentReport, SnippetSuccess, ToolError, ToolResult};

/// The keys the snippet may come under (the names agents use for it).
pub(crate) const SNIPPET_KEYS: [&str; 4] = ["snippet", "code_edit", "codeEdit", "update"];
/// The keys the path may come under, beyond `edit`'s.
const EXTRA_PATH_KEYS: [&str; 2] = ["target_file", "targetFile"];

/// A parsed `apply_snippet` call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SnippetRequest {
    /// The path as the model gave it.
    pub path: String,
    /// The snippet: code with marker lines standing for code kept.
    pub snippet: String,
    /// What the model said it changes (`instructions`): recorded in the result, not needed.
    pub instructions: Option<String>,
    /// Compute everything, write nothing.
    pub dry_run: bool,
    /// The file's SHA-256 (hex) as the caller last saw it.
    pub expected_hash: Option<String>,
}

/// Parses an `apply_snippet` call: `{"path", "snippet", "instructions"?, "dryRun"?,
/// "expectedHash"?}`; also `target_file` for the path and `code_edit` or `update` for the snippet.
pub fn parse_snippet_request(value: &Value) -> Result<SnippetRequest, ToolError> {
    let obj = object(value, "apply_snippet")?;
    let path = match string(obj, &EXTRA_PATH_KEYS, "target_file")? {
        Some(p) if !p.is_empty() && !crate::tools::args::PATH_KEYS.iter().any(|k| obj.contains_key(*k)) => {
            let mut with = obj.clone();
            with.insert("path".into(), Value::String(p));
            path(&with, "the file to change")?
        }
        _ => path(obj, "the file to change")?,
    };
    let snippet =
        string(obj, &SNIPPET_KEYS, "snippet")?.ok_or_else(|| ToolError::invalid_input(wording::snippet::MISSING))?;
    Ok(SnippetRequest {
        path,
        snippet,
        instructions: string(obj, &["instructions", "instruction"], "instructions")?,
        dry_run: boolean(obj, &["dryRun", "dry_run"], "dryRun")?,
        expected_hash: expected_hash(obj)?,
    })
}

/// Runs a parsed `apply_snippet` call. On any error the file is untouched.
pub fn run_snippet_with(req: &SnippetRequest, config: &Config) -> ToolResult {
    let call = Call {
        shown: req.path.as_str(),
        dry_run: req.dry_run,
        expected_hash: req.expected_hash.as_deref(),
        tool: "apply_snippet",
    };
    let result = run_engine(
        &call,
        config,
        // The merge returns the replacements: the file is written, hashed and diffed from them, as
        // `edit`'s are, and the new text is never built whole.
        |text| merge_spliced(text, &req.snippet, call.shown),
        |encoding, _reports, diff, merged| wording::snippet::summary(call.shown, req.dry_run, encoding, diff, merged),
    );
    match result {
        Ok((edit, merged)) => ToolResult::Snippet(Box::new(success(edit, &merged, req.instructions.clone()).bounded())),
        Err(e) => ToolResult::Error(e),
    }
}

/// The merge, with its error worded for the model. The file's kind of text comes from its name
/// (`shown`): it decides how sure a bare `...` line is as a marker (in prose, content where the
/// file holds it).
pub(crate) fn merge(text: &[u8], snippet: &str, shown: &str) -> Result<(surgical_core::Applied, Placement), ToolError> {
    let merged = apply_snippet_in(text, snippet, TextKind::of_path(shown)).map_err(|e| snippet_error(e, shown))?;
    Ok((merged.applied, merged.placement))
}

/// The merge as the replacements of `text` (the new text not built), with its error worded for
/// the model; the file's kind as in [`merge`].
fn merge_spliced(text: &[u8], snippet: &str, shown: &str) -> Result<(surgical_core::Spliced, Placement), ToolError> {
    let merged =
        apply_snippet_spliced_in(text, snippet, TextKind::of_path(shown)).map_err(|e| snippet_error(e, shown))?;
    Ok((merged.spliced, merged.placement))
}

pub(crate) fn success(edit: EditSuccess, merged: &Placement, instructions: Option<String>) -> SnippetSuccess {
    SnippetSuccess {
        edit,
        segments: segment_reports(merged),
        kept_before: merged.kept_before.map(|(a, b)| [a, b]),
        kept_after: merged.kept_after.map(|(a, b)| [a, b]),
        indentation_ignored: merged.indentation_ignored,
        instructions,
    }
}

pub(crate) fn segment_reports(merged: &Placement) -> Vec<SegmentReport> {
    merged
        .segments
        .iter()
        .map(|s| SegmentReport {
            start_line: s.new_lines.0,
            end_line: s.new_lines.1,
            deleted_lines: s.deleted_lines,
            old_start_line: s.old_lines.0,
            old_end_line: s.old_lines.1,
            snippet_start_line: s.snippet_lines.0,
            snippet_end_line: s.snippet_lines.1,
            changed: s.changed,
        })
        .collect()
}

/// A merge that failed, as the tool's error.
pub(crate) fn snippet_error(e: SnippetError, shown: &str) -> ToolError {
    let (code, lines) = match &e {
        SnippetError::NotFound { .. } => (ErrorCode::NotFound, Vec::new()),
        SnippetError::Ambiguous { readings, .. } => (
            ErrorCode::Ambiguous,
            readings
                .iter()
                .filter_map(|r| r.segments.first().map(|s| s.0))
                .collect(),
        ),
        SnippetError::NoChange => (ErrorCode::NoChange, Vec::new()),
        SnippetError::MarkerLike { .. } => (ErrorCode::Ambiguous, Vec::new()),
        SnippetError::Empty => (ErrorCode::InvalidInput, Vec::new()),
        SnippetError::Engine(inner) => (ErrorCode::of_edit(inner), Vec::new()),
        _ => (ErrorCode::InvalidInput, Vec::new()),
    };
    ToolError {
        code,
        message: format!("{shown}: {}", wording::snippet::error(&e)),
        path: Some(shown.to_string()),
        lines,
        ..ToolError::new(code, "")
    }
}
