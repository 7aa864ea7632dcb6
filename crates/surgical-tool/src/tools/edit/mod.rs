//! The `edit` tool.

pub(crate) mod request;
