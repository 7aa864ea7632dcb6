//! The suites plugged into the harness: two rounds whose cases are generated, and the snippet
//! corpus read from disk. Each holds its cases, its oracle and its table's columns.
//!
//! May import: the harness (`crate::harness`), `surgical-core` and `surgical-tool`; a suite
//! imports no other suite.

pub mod round1;
pub mod round2;
pub mod snippets;
