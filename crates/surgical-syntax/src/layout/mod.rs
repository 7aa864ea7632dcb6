//! Checks of what a grammar's tree does not report as an error: Python's indentation,
//! Markdown's code fences, and what the shell's and CSS's grammars accept that the languages
//! refuse.

pub(crate) mod lenient;
#[cfg(feature = "markdown")]
pub(crate) mod markdown;
pub(crate) mod python;
