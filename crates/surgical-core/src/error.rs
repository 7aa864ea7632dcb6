//! Why an edit could not be applied, in terms a model can act on.

use std::fmt;

use crate::tier::Tier;

/// An error from [`crate::apply`]. Nothing was changed when one is returned.
///
/// Every variant names the edit it concerns (its index in the request) so that a model can fix that
/// edit alone; `Display` is the full message meant for the model.
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
        hint: String,
    },
    /// `oldText` occurs more than once and `replaceAll` is not set.
    Ambiguous {
        /// The edit's index in the request.
        index: usize,
        /// The tier that found several occurrences; `None` when they differ only in what a model
        /// cannot see (line endings, trailing whitespace, special spaces).
        tier: Option<Tier>,
        /// One-based line and that line's text, for each occurrence (at most [`MAX_LISTED`]).
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
}

/// How many occurrences an `ambiguous` error lists.
pub const MAX_LISTED: usize = 20;

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
            | EditError::LegacyEncoding { index, .. } => index,
            EditError::Overlap { second, .. } => second,
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::EmptyOldText { index } => write!(
                f,
                "edits[{index}]: oldText is empty. Give the exact text to replace, copied from the file; \
                 to create or overwrite a whole file, use the write tool."
            ),
            EditError::NotFound {
                index,
                also_failing,
                hint,
            } => {
                write!(f, "edits[{index}]: oldText was not found in the file.")?;
                if !also_failing.is_empty() {
                    let list: Vec<String> = also_failing.iter().map(|i| format!("edits[{i}]")).collect();
                    write!(f, " ({} also not found.)", list.join(", "))?;
                }
                write!(f, "\n{hint}")
            }
            EditError::Ambiguous {
                index,
                tier,
                occurrences,
                total,
            } => {
                match tier {
                    None => write!(
                        f,
                        "edits[{index}]: oldText occurs {total} times if line endings, trailing whitespace and \
                         special spaces are ignored (differences you cannot see), so which one you mean is unclear:"
                    )?,
                    Some(s) => write!(
                        f,
                        "edits[{index}]: oldText occurs {total} times (matching with the `{}` tier), so which one \
                         you mean is unclear:",
                        s.name()
                    )?,
                }
                for (line, text) in occurrences {
                    write!(f, "\n  line {line}: {text}")?;
                }
                if *total > occurrences.len() {
                    write!(f, "\n  ... and {} more", total - occurrences.len())?;
                }
                write!(
                    f,
                    "\nAdd surrounding lines to oldText until it is unique, or set replaceAll: true to change every \
                     occurrence."
                )
            }
            EditError::Overlap { first, second, line } => write!(
                f,
                "edits[{first}] and edits[{second}] overlap (near line {line}): each edit must target text that no \
                 other edit in the same call touches. Merge them into one edit."
            ),
            EditError::NoChange { index, line } => write!(
                f,
                "edits[{index}] (line {line}) changes nothing: newText gives the same text as the file already has. \
                 If you meant to change a character the file writes differently (a quote, a dash, a special space), \
                 put the file's character in oldText."
            ),
            EditError::FabricatedReplacementChar { index, line } => write!(
                f,
                "edits[{index}]: newText contains U+FFFD (the replacement character shown for bytes that are not \
                 valid UTF-8) on line {line}, in text it rewrites. Writing it would replace the file's original \
                 bytes with U+FFFD. Keep the characters around it unchanged, or leave that character out."
            ),
            EditError::LegacyEncoding { index, line } => write!(
                f,
                "edits[{index}] (line {line}): the file is not UTF-8 (it looks like a legacy 8-bit encoding such \
                 as Latin-1), and newText adds non-ASCII characters whose bytes in that encoding are unknown. \
                 Write those characters with ASCII only (e.g. escapes), or convert the file to UTF-8 first."
            ),
        }
    }
}

impl std::error::Error for EditError {}
