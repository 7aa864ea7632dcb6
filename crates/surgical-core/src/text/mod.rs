//! The text kernels.

pub(crate) mod budget;
pub mod fold;
pub mod line_numbers;
pub mod lines;
pub(crate) mod normalize;
pub(crate) mod placeholder;
