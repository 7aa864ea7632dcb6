//! Checks of what a grammar's tree does not report as an error: Python's indentation, and
//! Markdown's code fences.

#[cfg(feature = "markdown")]
pub(crate) mod markdown;
pub(crate) mod python;
