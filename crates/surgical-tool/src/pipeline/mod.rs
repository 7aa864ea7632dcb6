//! The document pipeline every tool shares, from the path to the bounded result.
//!
//! - [`files`]: the path resolved in the sandbox (the undo journal's paths refused), file errors
//!   as tool errors.
//! - [`document`]: a file read, decoded (the BOM set aside, UTF-16 transcoded) and hashed on the
//!   other core; written back through the journal (`Document::commit`, `commit_spliced`); what a
//!   patch shows of a version (`file_patch`).
//! - [`journal`]: the undo journal (`.surgical/undo/`): one step per call that wrote.
//! - [`in_place`]: the pipeline of a tool that edits one file in place (`edit`, `apply_snippet`):
//!   [`in_place::run_engine`] in named steps.
//! - [`syntax`]: the syntax check of what a writing call would write (issue 34).
//! - [`bounded`]: every result fitted to a model's context (long lines cut, fields capped).
//! - [`timings`]: `SURGICAL_TIMINGS=1`'s per-stage times on stderr.
//! - `Cancellation::check` (here): the check a writing tool makes right before its first write.
//!
//! May import: the contract and `wording`, `surgical-core`, `surgical-fs`; never `tools`.

pub(crate) mod bounded;
pub(crate) mod document;
pub(crate) mod files;
pub(crate) mod in_place;
pub(crate) mod journal;
pub(crate) mod syntax;
pub(crate) mod timings;

use crate::{Cancellation, ErrorCode, ToolError};

impl Cancellation {
    /// `Err(cancelled)` when the flag is set: the check a tool makes right before it writes.
    pub(crate) fn check(&self, shown: &str) -> Result<(), ToolError> {
        if !self.is_cancelled() {
            return Ok(());
        }
        Err(ToolError {
            path: Some(shown.to_string()),
            ..ToolError::new(ErrorCode::Cancelled, crate::wording::call::CANCELLED)
        })
    }
}
