//! A needle, and what finding it gives: a [`Match`] (where, by which tier, what was forgiven) or a
//! [`Miss`] (not found, ambiguous, or an elision that cannot be placed), with [`Missed`] naming the
//! needle of a request that failed.

use std::ops::Range;

use crate::find::closest::Closest;
use crate::find::forgiven::Forgiven;
use crate::find::line_tiers::{Candidate, FileLines};
use crate::find::near_miss::NearMiss;
use crate::find::scope::Scope;
use crate::find::tier::Tier;
use crate::text::line_numbers::NumberStyle;
use crate::text::normalize::Fold;

/// A needle as a model wrote it: the text to find, and whether every occurrence is wanted.
///
/// Line breaks in the needle (`\n`, and `\r\n` or `\r`, which models cannot see and surgical reads as
/// `\n`) match any line terminator in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needle<'n> {
    pub(crate) text: &'n str,
    pub(crate) every: bool,
}

impl<'n> Needle<'n> {
    /// A needle that must occur exactly once. An empty needle is found nowhere.
    pub fn new(text: &'n str) -> Needle<'n> {
        Needle { text, every: false }
    }

    /// The same needle, matching every occurrence when `yes` (several are then not ambiguous).
    pub fn every(self, yes: bool) -> Needle<'n> {
        Needle { every: yes, ..self }
    }
}

/// Where a needle matched, and how.
///
/// Hand it to [`crate::ChangeSet::replace`] with the replacement text; the match keeps what that
/// needs (the needle as the tier read it, and for the line-based tiers the file lines it paired).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Match {
    /// The tier that matched.
    pub tier: Tier,
    /// The matched byte spans of the text, in order and disjoint: one, unless every occurrence was
    /// asked for. A span may be empty only for a needle that is blank once normalized.
    pub spans: Vec<Range<usize>>,
    /// What a tier past `unicode` forgave (indentation, spacing, escapes, a paraphrase), or the
    /// indentation of a first line under [`Scope::indented_first_line`](crate::Scope::indented_first_line).
    pub forgiven: Option<Forgiven>,
    /// Under [`Scope::indented_first_line`](crate::Scope::indented_first_line): the text indents the match's first line more than the
    /// needle did, and the span starts after that indentation (so it is kept).
    pub indented_first_line: bool,
    /// The needle as matched: `\n`-only, unescaped under [`Tier::Escapes`].
    pub(crate) old: String,
    pub(crate) fold: Fold,
    pub(crate) unescape_new: bool,
    /// The needle carried line-number prefixes in this style, left out to find it: `newText`'s lines
    /// that carry one lose it too.
    pub(crate) unnumber_new: Option<NumberStyle>,
    /// For the line-based tiers: the region the needle's lines were paired with.
    pub(crate) lines: Option<Candidate>,
    /// The last span ends the text, which has no final terminator, and the needle's final line break
    /// stands for that end (see [`Scope::whole_lines`](crate::Scope::whole_lines)).
    pub(crate) open_end: bool,
    /// For [`Tier::Elision`]: the match of each piece between marker lines, in order (empty
    /// otherwise). The lines between pieces are the ones the markers stand for.
    pub(crate) pieces: Vec<Match>,
    /// For [`Tier::Elision`]: the pieces placed where only one of several readings puts them, right
    /// only if the replacement keeps them as they are ([`ChangeSet::replace`](crate::ChangeSet::replace)
    /// refuses otherwise).
    pub(crate) unpinned: Vec<Unpinned>,
}

impl Match {
    /// A text tier's match of `old` at `spans`.
    pub(crate) fn text(tier: Tier, spans: Vec<Range<usize>>, old: &str, open_end: bool) -> Match {
        Match {
            tier,
            indented_first_line: false,
            spans,
            forgiven: None,
            old: old.to_string(),
            fold: tier.fold(),
            unescape_new: false,
            unnumber_new: None,
            lines: None,
            open_end,
            pieces: Vec::new(),
            unpinned: Vec::new(),
        }
    }

    /// A line-based tier's match of `old`: the region `c` of `file`.
    pub(crate) fn lines(tier: Tier, file: &FileLines<'_>, old: &str, c: Candidate) -> Match {
        Match {
            tier,
            indented_first_line: false,
            spans: vec![c.span(file, old.ends_with('\n'))],
            forgiven: Some(c.forgiven.clone()),
            old: old.to_string(),
            fold: Fold::EXACT,
            unescape_new: false,
            unnumber_new: None,
            lines: Some(c),
            open_end: false,
            pieces: Vec::new(),
            unpinned: Vec::new(),
        }
    }
}

/// The tier ladder, for a tier that rewrites the needle and searches the rewritten one again
/// (escapes, elision, line-number prefixes): one needle, whether every occurrence is wanted, where,
/// and the loosest tier allowed. Passed in rather than called, so that those tiers import nothing
/// above them.
pub(crate) type SearchAgain<'l> = dyn Fn(&str, bool, &Scope, Tier) -> Result<Match, Missed> + 'l;

/// Why a needle has no single place.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Miss {
    /// The needle occurs nowhere in scope, at any tier allowed.
    NotFound {
        /// The regions of the whole text most like the needle, and line by line what differs.
        closest: Closest,
        /// The region the misremembered tiers (`typo`, `extra_line`, `missing_line`) refused, when
        /// one almost matched: line by line what differs, and why it was not taken.
        near_miss: Option<Box<NearMiss>>,
    },
    /// The needle occurs more than once, and one occurrence was asked for.
    Ambiguous {
        /// The tier that found several occurrences; `None` when they differ only in what a model
        /// cannot see (line endings, trailing whitespace, special spaces).
        tier: Option<Tier>,
        /// Where the first [`MAX_LISTED`] occurrences start (byte offsets, ascending).
        starts: Vec<usize>,
        /// How many occurrences there are.
        total: usize,
    },
    /// The needle elides lines with a marker line and its pieces cannot be placed safely (see
    /// [`Tier::Elision`]).
    Elision {
        /// One-based line of the needle holding the marker concerned.
        line: usize,
        /// That marker line, trimmed.
        marker: String,
        /// What is wrong.
        problem: ElisionProblem,
    },
}

/// Why [`Haystack::find_all`](crate::Haystack::find_all) could not place every needle: the first needle to fail, in the order the
/// tiers run (strictest first, then needle order), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Missed {
    /// The needle's index in the request.
    pub index: usize,
    /// Why it has no single place.
    pub miss: Miss,
    /// For [`Miss::NotFound`]: the other needles not found either, ascending.
    pub also_not_found: Vec<usize>,
}

impl Missed {
    /// A miss of needle `index` alone.
    pub(crate) fn one(index: usize, miss: Miss) -> Missed {
        Missed {
            index,
            miss,
            also_not_found: Vec::new(),
        }
    }
}

/// A piece of an elided needle that more than one reading places differently: right only while the
/// model changes nothing in it (every reading then writes the same bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unpinned {
    /// The piece, zero-based.
    pub piece: usize,
    /// The one-based `oldText` line and text of the marker next to it.
    pub line: usize,
    pub marker: String,
    /// The error if the model changes the piece ([`ElisionProblem::Ambiguous`]).
    pub problem: ElisionProblem,
}

/// Why an elided `oldText` (see [`crate::EditError::Elision`]) could not be placed. A piece is the lines
/// of `oldText` between two markers (or between a marker and an end of `oldText`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElisionProblem {
    /// The marker has no non-blank line of `oldText` on one side (it is first or last, or next to
    /// another marker): where the lines it stands for start or end cannot be known.
    Unanchored,
    /// The piece `lines` (one-based lines of `oldText`, first and last) is in the text nowhere (or only
    /// inside a line, where no marker's lines can end).
    NotFound {
        /// The piece's first and last line in `oldText`.
        lines: (usize, usize),
    },
    /// The piece occurs more than once where it may lie (in order with the other pieces) and the
    /// replacement changes it, or its occurrences overlap and cannot be told apart.
    Ambiguous {
        /// The piece's first and last line in `oldText`.
        lines: (usize, usize),
        /// One-based text lines where occurrences start (at most [`MAX_LISTED`]).
        at: Vec<usize>,
        /// How many occurrences.
        total: usize,
    },
    /// The piece occurs only before the piece that precedes it in `oldText`.
    OutOfOrder {
        /// The piece's first and last line in `oldText`.
        lines: (usize, usize),
        /// One-based text line where it starts.
        at: usize,
        /// One-based text line where the previous piece ends.
        previous_ends: usize,
    },
    /// `newText` does not keep the markers of `oldText` (it has `new` marker lines where `oldText`
    /// has `old`): written, the edit would delete or rewrite lines the model never showed, which
    /// surgical does not do.
    MarkersDiffer {
        /// Marker lines in `oldText`.
        old: usize,
        /// Marker lines in `newText`.
        new: usize,
    },
}

/// How many occurrences an `ambiguous` error lists.
pub const MAX_LISTED: usize = 20;
