//! Why an edit could not be applied, as data: which edit, what went wrong, where.
//!
//! Stage 3, between find and the change set: what a miss becomes once it is an edit's error, and
//! what the later stages refuse with. May import: `text`, `find`. Imported by: `changes`,
//! `snippet`, `edit`.

use std::fmt;

use crate::find::closest::{Closest, Region};
use crate::find::near_miss::NearMiss;
use crate::find::needle::ElisionProblem;
use crate::find::tier::Tier;

/// An error from [`crate::apply`]. Nothing was changed when one is returned.
///
/// Every variant names the edit it concerns (its index in the request) so that a model can fix that
/// edit alone, and carries what a message needs (lines, candidates, tier, the closest regions).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// `oldText` is empty (a whole file is written with the `write` tool, not `edit`).
    EmptyOldText {
        /// The edit's index in the request.
        index: usize,
    },
    /// `oldText` occurs nowhere, at any tier allowed.
    NotFound {
        /// The edit's index in the request (the first not found).
        index: usize,
        /// The other edits not found either, ascending.
        also_failing: Vec<usize>,
        /// The closest regions of the file, and line by line how they differ.
        closest: Closest,
        /// The region the misremembered tiers refused, when one almost matched: line by line what
        /// differs (the mistyped word, the extra line, the missing line), and why it was not taken.
        near_miss: Option<Box<NearMiss>>,
    },
    /// `oldText` occurs more than once and `replaceAll` is not set.
    Ambiguous {
        /// The edit's index in the request.
        index: usize,
        /// The tier that found several occurrences; `None` when they differ only in what a model
        /// cannot see (line endings, trailing whitespace, special spaces).
        tier: Option<Tier>,
        /// One-based line and that line's text, for each occurrence (at most [`MAX_LISTED`](crate::MAX_LISTED)).
        occurrences: Vec<(usize, String)>,
        /// How many occurrences there are.
        total: usize,
    },
    /// Two edits target overlapping text.
    Overlap {
        /// The earlier edit (lower index).
        first: usize,
        /// The later edit.
        second: usize,
        /// One-based line where the second one's span starts.
        line: usize,
    },
    /// The edit changes nothing.
    NoChange {
        /// The edit's index in the request.
        index: usize,
        /// One-based line where its (first) span starts.
        line: usize,
    },
    /// `newText` writes U+FFFD on a line it rewrote. The model saw U+FFFD where the file holds bytes
    /// that are not valid UTF-8; writing the character would corrupt them.
    FabricatedReplacementChar {
        /// The edit's index in the request.
        index: usize,
        /// One-based line of the original holding the rewritten text.
        line: usize,
    },
    /// The file is in a legacy 8-bit encoding (not valid UTF-8 and no UTF-8 multi-byte text at all) and
    /// `newText` adds non-ASCII characters whose encoding there cannot be known.
    LegacyEncoding {
        /// The edit's index in the request.
        index: usize,
        /// One-based line where its span starts.
        line: usize,
    },
    /// `newText` holds an omission placeholder (`// ... existing code ...`, a bare `...`) where
    /// `oldText` has none: written, it would delete the code it stands for (see
    /// [`crate::omission_placeholder`]).
    Placeholder {
        /// The edit's index in the request.
        index: usize,
        /// One-based line of `newText` holding the placeholder.
        line: usize,
        /// That line, trimmed.
        text: String,
    },
    /// A loose tier matched a line the model remembered differently from the file, and the model's
    /// change touches the very characters that differ (or rewrites the line), so what it meant to
    /// write on the file's line cannot be determined.
    Conflict {
        /// The edit's index in the request.
        index: usize,
        /// One-based line of the file.
        line: usize,
        /// The file's line, as it is.
        file: String,
        /// The line as `oldText` has it.
        expected: String,
    },
    /// `oldText` elides lines with a marker line (`// ... existing code ...`) and the pieces around
    /// the markers cannot be placed safely (see [`Tier::Elision`] and [`ElisionProblem`]).
    Elision {
        /// The edit's index in the request.
        index: usize,
        /// One-based line of `oldText` holding the marker concerned.
        line: usize,
        /// That marker line, trimmed.
        marker: String,
        /// What is wrong.
        problem: ElisionProblem,
    },
}

impl EditError {
    /// The stable error code of the machine interface.
    pub fn code(&self) -> &'static str {
        match self {
            EditError::EmptyOldText { .. } => "empty_old_text",
            EditError::NotFound { .. } => "not_found",
            EditError::Ambiguous { .. } => "ambiguous",
            EditError::Overlap { .. } => "overlap",
            EditError::NoChange { .. } => "no_change",
            EditError::FabricatedReplacementChar { .. } | EditError::LegacyEncoding { .. } => "invalid_input",
            EditError::Placeholder { .. } => "placeholder",
            EditError::Conflict { .. } => "conflict",
            EditError::Elision { problem, .. } => match problem {
                ElisionProblem::Ambiguous { .. } => "ambiguous",
                ElisionProblem::MarkersDiffer { .. } => "placeholder",
                _ => "not_found",
            },
        }
    }

    /// The index of the edit at fault (for `overlap`, the later of the two).
    pub fn edit_index(&self) -> usize {
        match *self {
            EditError::EmptyOldText { index }
            | EditError::NotFound { index, .. }
            | EditError::Ambiguous { index, .. }
            | EditError::NoChange { index, .. }
            | EditError::FabricatedReplacementChar { index, .. }
            | EditError::LegacyEncoding { index, .. }
            | EditError::Placeholder { index, .. }
            | EditError::Conflict { index, .. }
            | EditError::Elision { index, .. } => index,
            EditError::Overlap { second, .. } => second,
        }
    }
}

/// A short, neutral description with the error's data (edit, lines, tier), for logs and for callers
/// without words of their own. The messages a model reads are the tool layer's (surgical-tool's
/// `wording` module), in the caller's vocabulary.
impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::EmptyOldText { index } => write!(f, "edit {index}: the text to find is empty"),
            EditError::NotFound {
                index,
                also_failing,
                closest,
                ..
            } => {
                write!(f, "edit {index}: not found")?;
                if !also_failing.is_empty() {
                    write!(f, " (nor edits {also_failing:?})")?;
                }
                if let Closest::Regions(regions) = closest {
                    let lines: Vec<String> = regions
                        .iter()
                        .map(|r: &Region| format!("{}-{}", r.lines.0, r.lines.1))
                        .collect();
                    write!(f, "; closest at lines {}", lines.join(", "))?;
                }
                Ok(())
            }
            EditError::Ambiguous {
                index,
                tier,
                occurrences,
                total,
            } => {
                let by = tier.map_or("invisible differences ignored", |t| t.name());
                let at: Vec<String> = occurrences.iter().map(|(line, _)| format!("line {line}")).collect();
                write!(f, "edit {index}: {total} occurrences ({by}), at {}", at.join(", "))
            }
            EditError::Overlap { first, second, line } => {
                write!(f, "edits {first} and {second} overlap at line {line}")
            }
            EditError::NoChange { index, line } => write!(f, "edit {index} changes nothing (line {line})"),
            EditError::FabricatedReplacementChar { index, line } => write!(
                f,
                "edit {index}: writes U+FFFD over bytes that are not valid UTF-8 (line {line})"
            ),
            EditError::LegacyEncoding { index, line } => write!(
                f,
                "edit {index}: adds non-ASCII text to a legacy 8-bit file (line {line})"
            ),
            EditError::Placeholder { index, line, text } => write!(
                f,
                "edit {index}: the new text's line {line} is an omission placeholder ({text:?})"
            ),
            EditError::Conflict {
                index,
                line,
                file,
                expected,
            } => write!(
                f,
                "edit {index}: line {line} is {file:?} in the file, {expected:?} in the old text, and the change touches what differs"
            ),
            EditError::Elision {
                index,
                line,
                marker,
                problem,
            } => {
                write!(f, "edit {index}: the marker {marker:?} (line {line} of the old text): ")?;
                match problem {
                    ElisionProblem::Unanchored => write!(f, "no lines of the old text on one side"),
                    ElisionProblem::NotFound { lines } => write!(f, "old text lines {}-{} not found", lines.0, lines.1),
                    ElisionProblem::Ambiguous { lines, at, total } => write!(
                        f,
                        "old text lines {}-{} occur {total} times, at lines {at:?}",
                        lines.0, lines.1
                    ),
                    ElisionProblem::OutOfOrder {
                        lines,
                        at,
                        previous_ends,
                    } => write!(
                        f,
                        "old text lines {}-{} found at line {at}, before the previous piece ends (line {previous_ends})",
                        lines.0, lines.1
                    ),
                    ElisionProblem::MarkersDiffer { old, new } => {
                        write!(f, "the old text has {old} marker lines, the new text {new}")
                    }
                }
            }
        }
    }
}

impl std::error::Error for EditError {}
