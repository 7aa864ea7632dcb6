//! What a snippet merge returns: where each segment went, or why nothing was merged.

use crate::changes::Applied;
use crate::error::EditError;
use crate::find::closest::Closest;

/// Where one segment of the snippet landed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SegmentPlacement {
    /// One-based first and last line of the snippet the segment is made of.
    pub snippet_lines: (usize, usize),
    /// One-based first and last line of the file the segment replaced (before the merge).
    pub old_lines: (usize, usize),
    /// One-based first and last line of the segment in the merged text.
    pub new_lines: (usize, usize),
    /// How many file lines the segment deleted: lines of the replaced region it does not show as
    /// they are (a line it rewrites counts).
    pub deleted_lines: usize,
    /// Whether the segment changed anything (a segment of anchors only does not).
    pub changed: bool,
}

/// A merged snippet: the new text and where each segment went.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SnippetApplied {
    /// The change set's result: the new text, and one applied edit per segment that changed
    /// something (its `index` is the segment's).
    pub applied: Applied,
    /// Where the segments went.
    pub placement: Placement,
}

/// Where a snippet's segments went.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Placement {
    /// Every segment, in snippet order.
    pub segments: Vec<SegmentPlacement>,
    /// One-based first and last file line kept before the first segment although the snippet shows
    /// no marker there (the snippet's edge read as "keep the rest"); `None` when the snippet starts
    /// with a marker or its first segment starts at line 1.
    pub kept_before: Option<(usize, usize)>,
    /// The same after the last segment, in lines of the file before the merge.
    pub kept_after: Option<(usize, usize)>,
    /// Whether lines were compared with their indentation ignored (none fit as written); new lines
    /// were then re-indented like the file's.
    pub indentation_ignored: bool,
}

/// One way to place every segment: per segment, the one-based first and last file line it replaces
/// (for an insertion, the anchor lines it keeps).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Reading {
    /// Per segment, in snippet order.
    pub segments: Vec<(usize, usize)>,
    /// The reading's score (see the module docs, "Scoring"): the evidence of its anchor lines less
    /// the cost of what it deletes. Readings listed by an ambiguity are within
    /// [`crate::snippet::MARGIN`] of the best.
    pub score: f64,
}

/// A segment that could not be placed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SegmentMiss {
    /// The segment's index, from 0.
    pub index: usize,
    /// One-based first and last snippet line of the segment.
    pub snippet_lines: (usize, usize),
    /// One-based file lines after which it was searched (0: from the start) and up to which.
    pub searched: (usize, usize),
    /// The regions of the file most like it.
    pub closest: Closest,
}

/// Why a snippet was not merged. Nothing was changed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SnippetError {
    /// The snippet holds no code line (empty, or markers only).
    Empty,
    /// No reading places every segment: the segments that did not land in the reading that went
    /// furthest.
    NotFound {
        /// In snippet order.
        segments: Vec<SegmentMiss>,
    },
    /// Readings of about equal evidence give different results.
    Ambiguous {
        /// The first few readings (at most five), best first.
        readings: Vec<Reading>,
        /// How many distinct results of about equal evidence were found (at least two).
        total: usize,
        /// Whether the search stopped at its cap ([`crate::snippet::MAX_READINGS`]).
        capped: bool,
    },
    /// More than three snippet lines look like markers and are lines of the file too (`...`,
    /// `// ...`): each could be either, too many readings to count.
    MarkerLike {
        /// Their one-based lines in the snippet.
        lines: Vec<usize>,
    },
    /// The only reading changes nothing.
    NoChange,
    /// The change set refused the merge (invalid bytes, a legacy encoding).
    Engine(EditError),
}

impl std::fmt::Display for SnippetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnippetError::Empty => write!(f, "the snippet holds no code"),
            SnippetError::NotFound { segments } => write!(f, "{} segment(s) not found", segments.len()),
            SnippetError::Ambiguous { total, .. } => write!(f, "{total} readings"),
            SnippetError::NoChange => write!(f, "the snippet changes nothing"),
            SnippetError::MarkerLike { lines } => write!(f, "{} marker-like lines", lines.len()),
            SnippetError::Engine(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SnippetError {}
