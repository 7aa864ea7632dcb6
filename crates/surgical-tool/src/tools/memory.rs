//! The edit engine on content the caller holds, for hosts that do their own I/O (the language
//! bindings): the bytes are decoded, edited and encoded exactly as the `edit` tool does with a file
//! (same request parsing, engine options, encodings, diff, patch and reports), and nothing is read
//! or written.

use std::sync::Arc;

use serde_json::Value;
use surgical_core::{apply, diff};
use surgical_fs::Decoding;

use crate::pipeline::document::{file_patch, Text};
use crate::pipeline::in_place::edit_reports;
use crate::tools::args::PATH_KEYS;
use crate::tools::edit::{edit_error, options};
use crate::{parse_edit_request, EditReport, SegmentReport, ToolError};

/// The name the diff and patch give content whose call names no path.
const UNNAMED: &str = "file";

/// The result of [`apply_edits`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryEdit {
    /// The new content, encoded as the old one was (BOM and UTF-16 kept, every byte no edit
    /// targets identical, invalid UTF-8 included).
    pub content: Vec<u8>,
    /// Numbered diff for display (`+NN`/`-NN`/` NN`), as the `edit` tool's `diff`.
    pub diff: String,
    /// Unified diff of the real bytes, as the `edit` tool's `patch` (named after the call's path,
    /// or `file`).
    pub patch: String,
    /// The one-based line of the first change in the new content (None when nothing changed).
    pub first_changed_line: Option<usize>,
    /// Where each edit landed, in the order of `edits`.
    pub edits: Vec<EditReport>,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: &'static str,
}

/// Applies the edits of `call` (an `edit` call: `edits` or a top-level `oldText`/`newText`,
/// `maxStrategy`; `path` is optional and only names the content in the patch) to `content`.
///
/// Errors are the `edit` tool's (`no_match`, `ambiguous`, `invalid_input`, ...; content surgical
/// cannot decode, such as binary or UTF-32, is refused as the tool refuses such a file).
/// `dryRun` and `expectedHash` are accepted and have no effect: nothing is written here.
pub fn apply_edits(content: Vec<u8>, call: &Value) -> Result<MemoryEdit, ToolError> {
    let call = named(call);
    let req = parse_edit_request(&call)?;
    let shown = req.path.as_str();
    let old = decoded(content, shown)?;
    let applied =
        apply(&old.text, &req.edits, &options(&req)).map_err(|e| edit_error(e, shown, crate::Words::ToolCall))?;
    encoded(old, applied, shown)
}

/// The result of [`apply_snippet`]: the edit's result plus where each segment landed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemorySnippet {
    /// The new content, diff, patch and reports, as [`apply_edits`] gives them (`edits` are the
    /// segments that changed something, `index` being the segment's).
    pub edit: MemoryEdit,
    /// Every segment of the snippet, in order: as the `apply_snippet` tool's `segments`.
    pub segments: Vec<SegmentReport>,
    /// File lines kept before the first segment although the snippet has no marker there.
    pub kept_before: Option<[usize; 2]>,
    /// File lines kept after the last segment although the snippet has no marker there.
    pub kept_after: Option<[usize; 2]>,
    /// Whether lines were compared with indentation ignored.
    pub indentation_ignored: bool,
}

/// Merges the snippet of `call` (an `apply_snippet` call: `snippet` or `code_edit`/`update`;
/// `path` or `target_file` is optional and only names the content in the patch) into `content`,
/// exactly as the `apply_snippet` tool does with a file; nothing is read or written.
///
/// Errors are the tool's (`not_found`, `ambiguous`, `no_change`, `invalid_input`; content
/// surgical cannot decode is refused). `dryRun` and `expectedHash` are accepted and have no effect.
pub fn apply_snippet(content: Vec<u8>, call: &Value) -> Result<MemorySnippet, ToolError> {
    let call = named(call);
    let req = crate::parse_snippet_request(&call)?;
    let shown = req.path.as_str();
    let old = decoded(content, shown)?;
    let (applied, placement) = crate::tools::snippet::merge(&old.text, &req.snippet, shown)?;
    let edit = encoded(old, applied, shown)?;
    Ok(MemorySnippet {
        edit,
        segments: crate::tools::snippet::segment_reports(&placement),
        kept_before: placement.kept_before.map(|(a, b)| [a, b]),
        kept_after: placement.kept_after.map(|(a, b)| [a, b]),
        indentation_ignored: placement.indentation_ignored,
    })
}

/// `call` with `path` set to [`UNNAMED`] when it names no path.
fn named(call: &Value) -> std::borrow::Cow<'_, Value> {
    const ALL_PATH_KEYS: [&str; 6] = ["path", "file_path", "filePath", "file", "target_file", "targetFile"];
    debug_assert!(PATH_KEYS.iter().all(|k| ALL_PATH_KEYS.contains(k)));
    match call {
        Value::Object(obj) if !ALL_PATH_KEYS.iter().any(|k| obj.get(*k).is_some_and(|v| !v.is_null())) => {
            let mut obj = obj.clone();
            obj.insert("path".into(), Value::String(UNNAMED.into()));
            std::borrow::Cow::Owned(Value::Object(obj))
        }
        other => std::borrow::Cow::Borrowed(other),
    }
}

/// The content decoded as the tools decode a file.
fn decoded(content: Vec<u8>, shown: &str) -> Result<Text, ToolError> {
    match surgical_fs::decode_keeping(content) {
        Decoding::Text(d) | Decoding::Transcoded(d, _) => Ok(Text {
            encoding: d.encoding,
            text: Arc::new(d.text),
        }),
        Decoding::Refused(e, _) => Err(crate::pipeline::files::fs_error_of(
            &e.with_path(std::path::Path::new(shown)),
            shown,
            "",
        )),
    }
}

/// The new content encoded as the old, with the diff, patch and reports.
fn encoded(old: Text, mut applied: surgical_core::Applied, shown: &str) -> Result<MemoryEdit, ToolError> {
    let changes = applied.changes();
    let new = Text {
        encoding: old.encoding,
        text: Arc::new(std::mem::take(&mut applied.text)),
    };
    let new_bytes = new
        .encoded()
        .map_err(|e| crate::pipeline::in_place::fs_error(e, shown))?;
    let shown_diff = diff::numbered_diff(&old.text, &new.text, &changes);
    let patch = file_patch(
        Some(old.version(None)),
        Some(new.version(Some(&new_bytes))),
        Some(&changes),
        shown,
    );
    // The new text and its UTF-8 bytes share one buffer: drop the text so the bytes move out.
    drop(new);
    Ok(MemoryEdit {
        diff: shown_diff.text,
        patch,
        first_changed_line: shown_diff.first_changed_line,
        edits: edit_reports(&applied.edits),
        encoding: old.encoding.name(),
        content: Arc::unwrap_or_clone(new_bytes),
    })
}
