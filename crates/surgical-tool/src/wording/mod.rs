//! Every sentence a model reads in a result or an error, in one place, by tool: a reviewer finds
//! here every message the tools write, and changes its words without touching what the tools do.
//!
//! - [`call`]: what is wrong with a call itself (its JSON shape, an argument of the wrong type, an
//!   unknown tool), and a call cancelled before it wrote.
//! - [`read`], [`edit`], [`write`](mod@write), [`patch`] (`apply_patch`), [`snippet`] (`apply_snippet`),
//!   [`undo`]: each tool's own sentences — what is wrong with its arguments, why it refused, and
//!   its result's `text` (headline, one line per edit, hunk or segment, the notes).
//! - [`engine`]: what the engine found — not found (the closest regions, a near miss), ambiguous,
//!   every `EditError`, and what differed between the file and the model's text and what was done
//!   about it (`normalized`) — in the words of the tool that asked ([`vocabulary`]).
//! - [`output`]: the markers of output cut to fit a model's context.
//! - [`syntax`]: the syntax check's problems, skips and refusal.
//!
//! Outside this folder the tools name only the things a message quotes (an argument's key, "the
//! file to read"), and pass on the file layer's messages (`surgical_fs::FsError`), to which a hint
//! from here may be added. The tool definitions a model reads before it calls — descriptions and
//! the schemas' field docs — are `contract::schema`'s.
//!
//! May import: `surgical-core`, `surgical-patch` and `surgical-fs` data, and the contract
//! (`crate::contract`: result objects, codes, line endings); never `pipeline` or `tools`. Functions
//! here take data and return words; what a tool does (which code, which file) stays in the tool.

pub(crate) mod call;
pub(crate) mod edit;
pub(crate) mod engine;
pub(crate) mod output;
pub(crate) mod patch;
pub(crate) mod read;
pub(crate) mod snippet;
pub(crate) mod syntax;
pub(crate) mod undo;
pub(crate) mod vocabulary;
pub(crate) mod write;

pub(crate) use vocabulary::{COMMAND_LINE, EDIT, HUNK, SEARCH_REPLACE};
pub(crate) mod text_editor;
