//! The change set.

pub(crate) mod align;
mod change_set;
pub(crate) mod transport;

pub use change_set::{Applied, AppliedEdit, ChangeSet, Occurrence, Spliced};
