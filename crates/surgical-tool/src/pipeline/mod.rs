//! The document pipeline every tool shares.

pub(crate) mod document;
pub(crate) mod in_place;
pub(crate) mod journal;
pub(crate) mod timings;
