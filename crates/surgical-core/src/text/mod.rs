//! Stage 1, the text kernels: what the other stages build on, with no notion of a tier, a needle
//! or an edit.
//!
//! May import: nothing of the crate outside this folder. Imported by: every other stage.
//!
//! * `lines` — line terminators (`\r\n`, `\r`, `\n`), line starts and counts, the line index
//!   (public: `surgical_core::lines`).
//! * `fold` — the characters the fuzzy tiers fold (typographic quotes and dashes, special spaces,
//!   invisible characters) (public: `surgical_core::fold`).
//! * `normalize` — a text's normalized view under a fold, with its exact map back to the original
//!   bytes (imports `lines`, `fold`).
//! * `line_numbers` — line-number prefixes a model copies from a read view (public:
//!   `surgical_core::line_numbers`).
//! * `marker` — the omission-marker grammar: whether a line is a marker a model writes for what it
//!   left out, and how sure (public: `surgical_core::marker`).
//! * `placeholder` — omission placeholders (`// ... existing code ...`) in what a model writes
//!   (imports `lines`, `marker`).
//! * `budget` — the work budgets of every diff in the engine, their coarse fallback, and the common
//!   prefix and suffix of two sequences.
//! * `rarity` — how common a short string is in a text, estimated from a sample (which part of a
//!   needle to search for first).

pub(crate) mod budget;
pub mod fold;
pub mod line_numbers;
pub mod lines;
pub mod marker;
pub(crate) mod normalize;
pub(crate) mod placeholder;
pub(crate) mod rarity;
