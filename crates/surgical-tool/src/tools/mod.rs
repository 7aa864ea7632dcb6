//! One module per tool: each parses its call as models write it, runs it through the document
//! pipeline and returns its result object.
//!
//! - [`read`], [`edit`] (with its request parser, `edit::request`), [`write`](mod@write),
//!   [`patch`] (`apply_patch`: one transaction in steps), [`snippet`] (`apply_snippet`), [`undo`].
//! - [`memory`]: `edit` and `apply_snippet` on content in memory (the Node package's
//!   `applyEdits`), through the same functions as the tools.
//! - [`args`]: the argument readers every parser shares (path aliases, quoted numbers and booleans).
//!
//! A new tool: a module here (its parser and `run_*_with`), its success object in
//! `contract/result.rs` (and a `ToolResult` variant), its sentences in `wording/<tool>.rs`, an arm
//! in `call_with` and its name in `TOOLS` (`lib.rs`), its input type and `ToolSpec` in
//! `contract/schema.rs`.
//!
//! May import: the contract, `pipeline` and `wording`, and the other crates of the workspace; a tool
//! imports no other tool (each parser imports `args`; `memory` runs `edit`'s and `apply_snippet`'s
//! own functions on content in memory).

pub(crate) mod args;
pub(crate) mod edit;
pub(crate) mod memory;
pub(crate) mod patch;
pub(crate) mod read;
pub(crate) mod snippet;
pub(crate) mod text_editor;
pub(crate) mod undo;
pub(crate) mod write;
