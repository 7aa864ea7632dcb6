//! The change set.

pub(crate) mod align;
mod change_set;

pub use change_set::{Applied, AppliedEdit, ChangeSet, Occurrence, Spliced};
