//! The machine contract: what front ends and external harnesses rely on, in one place. Field names
//! and codes here are added, never renamed.
//!
//! - [`result`]: the result object of every call ([`crate::ToolResult`]) and each tool's success
//!   object (`ReadSuccess`, `EditSuccess` and `EditReport`, `WriteSuccess`, `PatchSuccess` with
//!   `FileReport` and `HunkReport`, `SnippetSuccess` with `SegmentReport`, `UndoStep`/`UndoFile`).
//! - [`error`]: the error object ([`crate::ToolError`]); [`code`]: its codes ([`crate::ErrorCode`],
//!   engine and file-layer errors mapped by variant).
//! - [`config`]: how calls run ([`crate::Config`], [`crate::Words`], [`crate::Cancellation`]).
//! - [`schema`]: the tool definitions every front end lists (names, descriptions, input and output
//!   JSON Schemas generated from the types above).
//! - [`eol`]: the names of line endings (`lf`, `crlf`, `cr`, `mixed`, `none`).
//! - [`syntax`]: what a writing call does about syntax errors it would introduce, and one such
//!   error as results list it.
//!
//! May import: `serde`, `schemars`, and the data types of `surgical-core`, `surgical-fs` and
//! `surgical-patch` it maps (tiers, errors, encodings, formats); nothing else of this crate
//! (`pipeline`, `tools` and `wording` import the contract, never the other way round).

pub(crate) mod code;
pub(crate) mod config;
pub(crate) mod eol;
pub(crate) mod error;
pub(crate) mod result;
pub mod schema;
pub(crate) mod syntax;
pub(crate) mod text_editor;
