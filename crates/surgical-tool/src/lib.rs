//! The tool-call layer of surgical: JSON in, one result object out.
//!
//! This crate is what every front end shares — the `surgical call` command line, the MCP server and
//! the language bindings. It parses tool calls as models really write them ([`parse_edit_request`]),
//! runs them against the file system through `surgical-fs` and the engine in `surgical-core`, and
//! returns the result object of the machine interface ([`ToolResult`]), whose field names are a
//! contract: fields are added, never renamed.
//!
//! The tree, by concept (each folder's `mod.rs` says what it holds and what it may import; the
//! layers import downward only: `tools` → `pipeline` → `wording` → `contract`):
//!
//! - `contract/`: the machine contract — result objects, the error object and its codes, the
//!   configuration, the tool definitions and their JSON Schemas.
//! - `wording/`: every sentence a model reads in a result or an error, by tool.
//! - `pipeline/`: the document pipeline the tools share — sandbox and file errors, read, decode
//!   and hash, the undo journal, the in-place pipeline of `edit` and `apply_snippet`, the bounds of
//!   a result.
//! - `tools/`: one module per tool (`read`, `edit`, `write`, `patch` for `apply_patch`,
//!   `snippet` for `apply_snippet`, `undo`), and `memory` (edits on content in memory).
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

mod contract;
mod pipeline;
mod tools;
mod wording;

use std::path::Path;

use serde_json::Value;

pub use crate::contract::code::ErrorCode;
pub use crate::contract::config::{Cancellation, Config, Words};
pub use crate::contract::error::{FileSyntaxErrors, ToolError};
pub use crate::contract::result::{
    EditReport, EditSuccess, FileReport, HunkReport, PatchSuccess, ReadSuccess, SegmentReport, SnippetSuccess,
    ToolResult, UndoFile, UndoStep, WriteSuccess,
};
pub use crate::contract::schema;
pub use crate::contract::schema::{PatchFormatName, PatchInput};
pub use crate::contract::syntax::{OnSyntaxError, SyntaxErrorReport};
pub use crate::pipeline::document::sha256_hex;
pub use crate::tools::edit::request::{parse_edit_request, EditRequest};
pub use crate::tools::edit::run_edit_with;
pub use crate::tools::memory::{apply_edits, apply_snippet, MemoryEdit, MemorySnippet};
pub use crate::tools::patch::{parse_patch_request, run_patch_with, PatchFormat, PatchRequest};
pub use crate::tools::snippet::{parse_snippet_request, run_snippet_with, SnippetRequest};
pub use crate::tools::undo::{run_undo, undo_history};

// The read and write tools.
pub use crate::contract::eol::LineEnding;
pub use crate::contract::text_editor::{
    CommandName, DirectoryListing, TextEditorInput, COMMANDS as TEXT_EDITOR_COMMANDS,
};
pub use crate::tools::read::{parse_read_request, run_read_with, ReadRequest};
pub use crate::tools::text_editor::{
    parse_text_editor_request, run_text_editor_with, EditorCommand, EditorOutcome, TextEditorRequest, TextEditorSuccess,
};
pub use crate::tools::write::{parse_write_request, run_write_with, WriteRequest};

/// The tools this crate serves.
pub const TOOLS: [&str; 7] = [
    "read",
    "edit",
    "write",
    "apply_patch",
    "apply_snippet",
    "undo",
    "text_editor",
];

/// Other names [`call_with`] runs `text_editor` under: the names Anthropic's text-editor tool
/// has in a model's `tool_use` blocks (`str_replace_based_edit_tool` for `text_editor_20250728`,
/// `str_replace_editor` for `text_editor_20250124`, as SWE-agent and OpenHands name theirs too).
pub const TEXT_EDITOR_ALIASES: [&str; 2] = ["str_replace_based_edit_tool", "str_replace_editor"];

/// Runs tool `name` with JSON `input` and the default [`Config`] for `root`.
pub fn call(name: &str, input: &Value, root: &Path) -> ToolResult {
    call_with(name, input, &Config::new(root))
}

/// Runs tool `name` with JSON `input`.
pub fn call_with(name: &str, input: &Value, config: &Config) -> ToolResult {
    // A call's `onSyntaxError` over the config's (the writing tools read it from there).
    let with_option = match pipeline::syntax::with_call_option(input, config) {
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
        "undo" => match tools::edit::request::parse_path_request(input, "undo") {
            Ok(path) => run_undo(&path, config),
            Err(e) => ToolResult::Error(e),
        },
        name if name == "text_editor" || TEXT_EDITOR_ALIASES.contains(&name) => {
            match parse_text_editor_request(input) {
                Ok(req) => run_text_editor_with(&req, config),
                Err(e) => ToolResult::Error(e),
            }
        }
        other => ToolResult::Error(ToolError::invalid_input(wording::call::unknown_tool(other, &TOOLS))),
    }
}
