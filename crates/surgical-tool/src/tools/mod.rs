//! One module per tool.

pub(crate) mod args;
pub(crate) mod edit;
pub(crate) mod memory;
pub(crate) mod patch;
pub(crate) mod read;
pub(crate) mod snippet;
pub(crate) mod undo;
pub(crate) mod write;
