//! The evaluation harness of surgical.

#![deny(missing_docs)]

mod suites;

pub use suites::round1::{default_tier, evaluate, table, Perturbation, Tally};
pub use suites::{round2, snippets};
