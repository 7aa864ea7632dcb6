//! The tool-call layer of surgical: JSON in, one result object out.
//!
//! This crate is what every front end shares — the `surgical call` command line, the MCP server and
//! the language bindings. It parses tool calls as models really write them ([`parse_edit_request`]),
//! runs them against the file system through `surgical-fs` and the engine in `surgical-core`, and
//! returns the result object of the machine interface ([`ToolResult`]), whose field names are a
//! contract: fields are added, never renamed.
//!
//! ```no_run
//! use serde_json::json;
//! let result = surgical_tool::call("edit", &json!({
//!     "path": "src/lib.rs",
//!     "edits": [{"oldText": "let x = 1;", "newText": "let x = 2;"}]
//! }), std::path::Path::new("."));
//! println!("{}", result.to_json());
//! ```

// `ToolError` is the machine contract's error object (code, message, and where: edit, hunk, line,
// path); it is returned once per call, so its size does not matter and boxing it would only make
// every front end unwrap a box.
#![allow(clippy::result_large_err)]
#![deny(missing_docs)]

mod code;
mod document;
mod edit;
mod journal;
mod memory;
mod report;
mod request;
mod snippet;
mod syntax;
mod timings;
mod undo;
mod wording;
// The read and write tools, and the definitions (schemas) of every tool for the front ends.
mod args;
mod eol;
mod read;
pub mod schema;
mod write;
// The edit formats (apply_patch, SEARCH/REPLACE, unified diffs): the `apply_patch` tool.
mod patch;

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

pub use crate::code::ErrorCode;
pub use crate::document::sha256_hex;
pub use crate::edit::run_edit_with;
pub use crate::memory::{apply_edits, apply_snippet, MemoryEdit, MemorySnippet};
pub use crate::patch::{
    parse_patch_request, run_patch_with, FileReport, HunkReport, PatchFormat, PatchFormatName, PatchInput,
    PatchRequest, PatchSuccess,
};
pub use crate::request::{parse_edit_request, EditRequest};
pub use crate::snippet::{parse_snippet_request, run_snippet_with, SegmentReport, SnippetRequest, SnippetSuccess};
pub use crate::syntax::{OnSyntaxError, SyntaxErrorReport};
pub use crate::undo::{run_undo, undo_history, UndoFile, UndoStep};

// The read and write tools.
pub use crate::eol::LineEnding;
pub use crate::read::{parse_read_request, run_read_with, ReadRequest, ReadSuccess};
pub use crate::write::{parse_write_request, run_write_with, WriteRequest, WriteSuccess};

/// The tools this crate serves.
pub const TOOLS: [&str; 6] = ["read", "edit", "write", "apply_patch", "apply_snippet", "undo"];

/// A flag that abandons a running tool call before it changes anything: set it (from any thread)
/// with [`Cancellation::cancel`], and a call whose [`Config`] holds it stops at its last check,
/// right before its first write, with the error `cancelled` and every file untouched. A call that
/// has passed that check runs to its end (it commits all of its change or none of it).
///
/// Clones share the flag; two are equal when they are the same flag.
#[derive(Clone, Debug, Default)]
pub struct Cancellation(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Cancellation {
    /// A flag not set.
    pub fn new() -> Cancellation {
        Cancellation::default()
    }

    /// Sets the flag: calls holding it stop before their first write.
    pub fn cancel(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// `Err(cancelled)` when the flag is set: the check a tool makes right before it writes.
    pub(crate) fn check(&self, shown: &str) -> Result<(), ToolError> {
        if !self.is_cancelled() {
            return Ok(());
        }
        Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(
                ErrorCode::Cancelled,
                "the call was cancelled before it wrote anything; no file was changed",
            )
        })
    }
}

impl PartialEq for Cancellation {
    fn eq(&self, other: &Cancellation) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancellation {}

/// How tool calls run: the workspace root and the limits. Build with [`Config::new`] and the
/// setters; immutable once built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Every path must lead inside this directory (see `surgical_fs::Root`).
    pub root: std::path::PathBuf,
    /// Files larger than this are refused with `too_large` (default `surgical_fs::DEFAULT_SIZE_LIMIT`,
    /// 1 GiB).
    pub max_file_size: u64,
    /// Keep the undo journal in `<root>/.surgical/` (default true).
    pub undo: bool,
    /// Abandons the call before its first write when set (default: a flag nobody sets).
    pub cancellation: Cancellation,
    /// Whose words the `edit` tool's error messages use (default: a tool call's, `oldText`).
    pub words: Words,
    /// What a writing call does about the syntax errors it would introduce (default: write and
    /// report them); a call's `onSyntaxError` overrides it.
    pub on_syntax_error: OnSyntaxError,
}

/// Whose words messages use to name the parts of a call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Words {
    /// A tool call's JSON keys: `oldText`, `newText`, `replaceAll: true`.
    #[default]
    ToolCall,
    /// The flags of `surgical edit`, for people: `--old`, `--new`, `--replace-all`.
    CommandLine,
}

impl Config {
    /// The defaults for `root`.
    pub fn new(root: &Path) -> Config {
        Config {
            root: root.to_path_buf(),
            max_file_size: surgical_fs::DEFAULT_SIZE_LIMIT,
            undo: true,
            cancellation: Cancellation::new(),
            words: Words::ToolCall,
            on_syntax_error: OnSyntaxError::Report,
        }
    }

    /// The same, doing `on` about the syntax errors a writing call would introduce.
    pub fn on_syntax_error(self, on: OnSyntaxError) -> Config {
        Config {
            on_syntax_error: on,
            ..self
        }
    }

    /// The same, with messages in `words`.
    pub fn words(self, words: Words) -> Config {
        Config { words, ..self }
    }

    /// The same with another size limit.
    pub fn max_file_size(self, bytes: u64) -> Config {
        Config {
            max_file_size: bytes,
            ..self
        }
    }

    /// The same with the undo journal on or off.
    pub fn undo(self, on: bool) -> Config {
        Config { undo: on, ..self }
    }

    /// The same, abandoned before its first write once `cancellation` is set.
    pub fn cancellation(self, cancellation: Cancellation) -> Config {
        Config { cancellation, ..self }
    }
}

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
        }
    }

    /// An `invalid_input` error: the call's arguments are wrong.
    pub fn invalid_input(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorCode::InvalidInput, message)
    }
}

/// Where one edit landed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EditReport {
    /// The edit's index in `edits`, from 0.
    pub index: usize,
    /// The tier that matched: `exact`, `trailing_whitespace`, `unicode`, `indentation`,
    /// `whitespace_runs`, `escapes`, `typo`, `extra_line`, `missing_line` or `similar`.
    #[serde(rename = "strategy")]
    pub tier: &'static str,
    /// One-based lines of the new text in the file after the edit (first occurrence to last).
    pub start_line: usize,
    /// The last of those lines (equal to `startLine` for a one-line result; for a deletion, the line
    /// the removed text stood before).
    pub end_line: usize,
    /// One-based lines the edit replaced in the file before it.
    pub old_start_line: usize,
    /// The last of the lines replaced.
    pub old_end_line: usize,
    /// How many places changed (more than one only with `replaceAll`).
    pub occurrences: usize,
    /// What differed between the file and `oldText` and what was done about it, in words.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub normalized: Vec<String>,
    /// True when the span was too large to align in detail within the work budget and a coarser
    /// alignment was used: the file's bytes were kept wherever whole lines are equal, but characters
    /// inside changed lines are the model's (`normalized` says so too). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub coarse_alignment: bool,
}

/// A successful edit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EditSuccess {
    /// What the model reads: where each edit landed, what was normalized, and the diff.
    pub text: String,
    /// The path as the caller gave it.
    pub path: String,
    /// Numbered diff for display (`+NN`/`-NN`/` NN`), invisible changes marked.
    pub diff: String,
    /// Unified diff of the file's real bytes; `git apply` reproduces the new file.
    pub patch: String,
    /// The one-based line of the first change in the new file (null when nothing changed).
    pub first_changed_line: Option<usize>,
    /// Where each edit landed, in the order of `edits`.
    pub edits: Vec<EditReport>,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: &'static str,
    /// SHA-256 (hex) of the file's bytes before the edit.
    pub hash_before: String,
    /// SHA-256 (hex) of the file's bytes after it (what they would be, for a dry run).
    pub hash_after: String,
    /// True when nothing was written (`dryRun`).
    pub dry_run: bool,
    /// Whether `surgical undo` (or the `undo` tool) can restore the content before this change.
    pub undo_available: bool,
    /// True when `patch` was cut to fit a model's context (a line over 2000 characters, or the
    /// patch past 256 KiB, each cut marked): it no longer applies with `git apply`. The file
    /// itself is as the edit left it.
    pub patch_truncated: bool,
    /// The syntax errors this call introduced into the file (empty when none), found by parsing it
    /// before and after in its language; absent when it was not checked (`syntaxCheck` says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_errors: Option<Vec<SyntaxErrorReport>>,
    /// `checked: LANGUAGE`, or `skipped: WHY` (a language the check does not know, a file over the
    /// size limit, parsing over its time budget); absent when `onSyntaxError` is `off`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax_check: Option<String>,
}

/// The result object of every tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolResult {
    /// A successful `edit` (or `undo`, which reports the restored content as an edit).
    Edit(Box<EditSuccess>),
    /// A successful `read`.
    Read(Box<ReadSuccess>),
    /// A successful `write`.
    Write(Box<WriteSuccess>),
    /// A successful `apply_patch`.
    Patch(Box<PatchSuccess>),
    /// A successful `apply_snippet`.
    Snippet(Box<SnippetSuccess>),
    /// A failed call of any tool; nothing was written.
    Error(ToolError),
}

impl ToolResult {
    /// Whether the call succeeded (the JSON's `ok`).
    pub fn is_ok(&self) -> bool {
        !matches!(self, ToolResult::Error(_))
    }

    /// The text a model should read.
    pub fn text(&self) -> String {
        match self {
            ToolResult::Edit(s) => s.text.clone(),
            ToolResult::Read(s) => s.text.clone(),
            ToolResult::Write(s) => s.text.clone(),
            ToolResult::Patch(s) => s.text.clone(),
            ToolResult::Snippet(s) => s.edit.text.clone(),
            ToolResult::Error(e) => format!("Error ({}): {}", e.code, e.message),
        }
    }

    /// The JSON object of the machine interface: `{"ok": true, ...}` or
    /// `{"ok": false, "text": ..., "error": {"code", "message", "editIndex"?, ...}}`.
    pub fn to_json(&self) -> Value {
        match self {
            ToolResult::Edit(s) => {
                let mut v = serde_json::to_value(s).expect("serializable");
                v.as_object_mut()
                    .expect("object")
                    .insert("ok".into(), Value::Bool(true));
                v
            }
            ToolResult::Read(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Write(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Patch(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Snippet(s) => with_ok(serde_json::to_value(s).expect("serializable")),
            ToolResult::Error(e) => serde_json::json!({"ok": false, "text": self.text(), "error": e}),
        }
    }
}

/// `{"ok": true}` added to a success object.
fn with_ok(mut v: Value) -> Value {
    v.as_object_mut()
        .expect("object")
        .insert("ok".into(), Value::Bool(true));
    v
}

/// Runs tool `name` with JSON `input` and the default [`Config`] for `root`.
pub fn call(name: &str, input: &Value, root: &Path) -> ToolResult {
    call_with(name, input, &Config::new(root))
}

/// Runs tool `name` with JSON `input`.
pub fn call_with(name: &str, input: &Value, config: &Config) -> ToolResult {
    // A call's `onSyntaxError` over the config's (the writing tools read it from there).
    let with_option = match syntax::with_call_option(input, config) {
        Ok(c) => c,
        Err(e) => return ToolResult::Error(e),
    };
    let config = with_option.as_ref().unwrap_or(config);
    match name {
        "edit" => match parse_edit_request(input) {
            Ok(req) => run_edit_with(&req, config),
            Err(e) => ToolResult::Error(e),
        },
        "read" => match parse_read_request(input) {
            Ok(req) => run_read_with(&req, config),
            Err(e) => ToolResult::Error(e),
        },
        "write" => match parse_write_request(input) {
            Ok(req) => run_write_with(&req, config),
            Err(e) => ToolResult::Error(e),
        },
        "apply_patch" => match parse_patch_request(input) {
            Ok(req) => run_patch_with(&req, config),
            Err(e) => ToolResult::Error(e),
        },
        "apply_snippet" => match parse_snippet_request(input) {
            Ok(req) => run_snippet_with(&req, config),
            Err(e) => ToolResult::Error(e),
        },
        "undo" => match request::parse_path_request(input, "undo") {
            Ok(path) => run_undo(&path, config),
            Err(e) => ToolResult::Error(e),
        },
        other => ToolResult::Error(ToolError::invalid_input(format!(
            "unknown tool `{other}`; the tools are: {}",
            TOOLS.join(", ")
        ))),
    }
}
