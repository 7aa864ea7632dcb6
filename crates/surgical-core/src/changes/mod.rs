//! The change set.

pub(crate) mod align;
mod change_set;

pub use change_set::{Applied, AppliedEdit, Change, ChangeSet, Occurrence, Spliced};
