//! The document pipeline every tool shares.

pub(crate) mod bounded;
pub(crate) mod document;
pub(crate) mod files;
pub(crate) mod in_place;
pub(crate) mod journal;
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
