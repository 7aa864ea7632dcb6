//! The rounds and corpora of the evaluation.

pub mod round1;
pub mod round2;
pub mod snippets;
