//! Every sentence a model reads.

mod engine;

pub(crate) use engine::*;
