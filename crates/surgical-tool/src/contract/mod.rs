//! The machine contract.

pub(crate) mod code;
pub(crate) mod config;
pub(crate) mod eol;
pub(crate) mod error;
pub(crate) mod result;
pub mod schema;
