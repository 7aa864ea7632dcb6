//! The evaluation of surgical: does it put edits where the model meant, and nowhere else?
//!
//! One harness ([`harness`]) for every round and corpus: a suite gives its cases (generated per
//! kind, or read from disk), runs each through surgical and judges it by its own oracle, which
//! knows only the case (never how surgical works); the harness scores every case into one
//! [`Outcome`] — placed (byte-ideal or not), refused (by code), wrong (damaged or not) — counts them
//! per row ([`Tally`]) and renders one table per suite, its columns given as data.
//!
//! The suites ([`round1`], [`round2`], [`snippets`]):
//! - [`round1`]: real source files in several languages, edits perturbed the way models perturb
//!   them (trailing whitespace, typographic characters, indentation, escapes, ...).
//! - [`round2`]: mistakes of content (a typo, an extra or missing line), elisions, mid-line
//!   windows, stale views and traps, scored by an oracle that builds the expected bytes from the
//!   file alone.
//! - [`snippets`]: lazy snippets derived from real commits (`eval/snippets/`, or
//!   `SURGICAL_SNIPPETS_DIR`), against one table of thresholds.
//!
//! The command line (`src/main.rs`): `surgical-eval [round1|round2|snippets|all] [PER [SEED]]`.

#![deny(missing_docs)]

pub mod harness;
mod suites;

use surgical_core::{Options, Tier};

pub use harness::{Outcome, Row, Tally};
pub use suites::{round1, round2, snippets};

/// The loosest tier of the default options: what a call without `maxStrategy` may use.
pub fn default_tier() -> Tier {
    Options::new().get_loosest_tier()
}
