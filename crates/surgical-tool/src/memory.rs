//! The edit engine on content the caller holds, for hosts that do their own I/O (the language
//! bindings): the bytes are decoded, edited and encoded exactly as the `edit` tool does with a file
//! (same request parsing, engine options, encodings, diff, patch and reports), and nothing is read
//! or written.

use std::sync::Arc;

use serde_json::Value;
use surgical_core::{apply, diff};
use surgical_fs::Decoding;

use crate::args::PATH_KEYS;
use crate::document::{file_patch, Text};
use crate::edit::{edit_error, edit_reports, options};
use crate::{parse_edit_request, EditReport, ToolError};

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
    let named;
    let call = match call {
        Value::Object(obj) if !PATH_KEYS.iter().any(|k| obj.get(*k).is_some_and(|v| !v.is_null())) => {
            let mut obj = obj.clone();
            obj.insert("path".into(), Value::String(UNNAMED.into()));
            named = Value::Object(obj);
            &named
        }
        other => other,
    };
    let req = parse_edit_request(call)?;
    let shown = req.path.as_str();
    let old = match surgical_fs::decode_keeping(content) {
        Decoding::Text(d) | Decoding::Transcoded(d, _) => Text {
            encoding: d.encoding,
            text: Arc::new(d.text),
        },
        Decoding::Refused(e, _) => {
            return Err(crate::args::fs_error_of(
                &e.with_path(std::path::Path::new(shown)),
                shown,
                "",
            ))
        }
    };
    let mut applied =
        apply(&old.text, &req.edits, &options(&req)).map_err(|e| edit_error(e, shown, crate::Words::ToolCall))?;
    let changes = applied.changes();
    let new = Text {
        encoding: old.encoding,
        text: Arc::new(std::mem::take(&mut applied.text)),
    };
    let new_bytes = new.encoded().map_err(|e| crate::edit::fs_error(e, shown))?;
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
