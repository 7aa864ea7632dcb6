//! The one evaluation harness every suite plugs into: a suite (a round whose cases are generated,
//! or a corpus read from disk) gives its cases, runs each through surgical and judges it by its own
//! oracle; the harness scores and renders.
//!
//! - [`outcome`]: the one scoring — [`Outcome`] (placed, byte-ideal or not; refused, by code;
//!   wrong, damaged or not) and [`Tally`], a row's counts.
//! - [`run`]: the one case runner ([`run::run`]), the [`Suite`] and [`Round`] traits, a round's
//!   cases generated per kind ([`run::generate`]).
//! - [`table`]: the one table renderer, a suite's columns given as data ([`Column`]).
//! - [`rng`]: the seeded generator; [`text`]: the lines and file variants the rounds share.
//!
//! May import: `surgical-core` (tiers) and the standard library; never a suite.

pub mod outcome;
pub mod rng;
pub mod run;
pub mod table;
pub mod text;

pub use outcome::{Outcome, Tally};
pub use rng::Rng;
pub use run::{Round, Row, Suite};
pub use table::Column;
