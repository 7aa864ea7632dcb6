//! The machine contract.

pub(crate) mod bounded;
pub(crate) mod code;
pub(crate) mod eol;
pub mod schema;
