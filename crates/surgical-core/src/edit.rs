//! The engine's entry point for a list of edits ([`apply`], [`apply_spliced`]): locate every edit in
//! the original text, then splice all of them in one pass.
//!
//! Stage 7, the top: may import every stage but `snippet`; imported by nothing but `lib.rs`'s
//! re-exports. [`placed`] runs the steps: [`refuse_before_search`], [`find_edits`],
//! [`change_set_of`], then [`ChangeSet::apply`] or [`ChangeSet::apply_spliced`].

use std::ops::Range;

use crate::changes::{Applied, ChangeSet, Spliced};
use crate::error::EditError;
use crate::find::haystack::Haystack;
use crate::find::needle::{Match, Miss, Missed, Needle};
use crate::find::scope::Scope;
use crate::find::tier::Tier;
use crate::text::lines::{next_terminator, prev_terminator, LineCounter};
use crate::text::marker::TextKind;
use crate::text::placeholder::omission_placeholder_in;

/// One `oldText` → `newText` replacement, as a model sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The text to find. Line breaks in it match any line terminator in the file.
    pub old_text: String,
    /// What to put in its place. Its line breaks are written with the terminator used where it lands.
    pub new_text: String,
    /// Replace every occurrence instead of requiring exactly one.
    pub replace_all: bool,
}

impl Edit {
    /// An edit that must match exactly one place.
    pub fn new(old_text: impl Into<String>, new_text: impl Into<String>) -> Edit {
        Edit {
            old_text: old_text.into(),
            new_text: new_text.into(),
            replace_all: false,
        }
    }

    /// The same edit, replacing every occurrence when `yes`.
    pub fn replace_all(self, yes: bool) -> Edit {
        Edit {
            replace_all: yes,
            ..self
        }
    }
}

/// How [`apply`] matches. Build with [`Options::new`] and the setters; the value is immutable and
/// reusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    loosest: Tier,
    scope: Scope,
    kind: TextKind,
}

impl Default for Options {
    /// Every tier up to [`Tier::DEFAULT_LOOSEST`] (all but the opt-in [`Tier::Similar`]).
    fn default() -> Self {
        Options {
            loosest: Tier::DEFAULT_LOOSEST,
            scope: Scope::default(),
            kind: TextKind::Code,
        }
    }
}

impl Options {
    /// Every tier allowed but the opt-in [`Tier::Similar`].
    pub fn new() -> Options {
        Options::default()
    }

    /// Allow no tier looser than `tier` (e.g. [`Tier::Exact`] for exact matching only).
    pub fn loosest_tier(self, tier: Tier) -> Options {
        Options { loosest: tier, ..self }
    }

    /// Count only matches inside `range` (byte offsets of the text given to [`apply`]), for
    /// uniqueness too. Bytes outside the matched spans are kept as always; this only narrows where
    /// edits may land (a patch's `@@` anchor, the lines after the previous hunk).
    pub fn within(self, range: Range<usize>) -> Options {
        Options {
            scope: self.scope.within(range),
            ..self
        }
    }

    /// Count only matches that are whole lines: starting at a line start and ending at a line end
    /// (or right after a terminator, when `oldText` ends with a line break, or at the end of the
    /// text). For callers whose edits are made of lines (patch hunks, SEARCH/REPLACE blocks).
    /// See [`Scope::whole_lines`] for the cases this takes as whole lines.
    pub fn whole_lines(self, yes: bool) -> Options {
        Options {
            scope: Scope {
                whole_lines: yes,
                ..self.scope
            },
            ..self
        }
    }

    /// The kind of text the file holds ([`TextKind::of_path`] of its name; [`TextKind::Code`] by
    /// default, the safe assumption): it decides which marker lines the placeholder check refuses
    /// in `newText` (in prose a bare `...` line is content; see [`crate::omission_placeholder_in`]).
    pub fn text_kind(self, kind: TextKind) -> Options {
        Options { kind, ..self }
    }

    /// The kind of text the file holds.
    pub fn get_text_kind(&self) -> TextKind {
        self.kind
    }

    /// The loosest tier allowed.
    pub fn get_loosest_tier(&self) -> Tier {
        self.loosest
    }

    /// Where edits may land.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }
}

/// Applies `edits` to `text` (UTF-8, possibly with invalid bytes) and returns the new text.
///
/// The three stages in a few lines: a [`Haystack`] of the text, [`Haystack::find_all`] for every
/// `oldText`, a [`ChangeSet`] of the matches with their `newText`, applied.
///
/// Every edit is matched against the original text, never against the result of an earlier edit.
/// Either every edit applies or an error says which one failed and why; the input is never partially
/// edited. A `newText` holding an omission placeholder that its `oldText` lacks is refused first
/// ([`EditError::Placeholder`]). Bytes outside the matched spans are copied unchanged; inside a span, the file's own
/// characters are kept wherever `oldText` and `newText` agree (see the crate docs).
pub fn apply(text: &[u8], edits: &[Edit], options: &Options) -> Result<Applied, EditError> {
    placed(text, edits, options, |c| c.apply())
}

/// [`apply`] without building the new text: the replacements and where each edit went
/// ([`ChangeSet::apply_spliced`]), for a caller that writes the new version as the old bytes and the
/// changed ranges. The same matching, checks and errors as [`apply`].
pub fn apply_spliced(text: &[u8], edits: &[Edit], options: &Options) -> Result<Spliced, EditError> {
    placed(text, edits, options, |c| c.apply_spliced())
}

/// Finds every edit, adds them to a change set, and hands it to `finish`, in steps:
/// [`refuse_before_search`], [`find_edits`], [`change_set_of`], then `finish`
/// ([`ChangeSet::apply`] or [`ChangeSet::apply_spliced`]).
fn placed<T>(
    text: &[u8],
    edits: &[Edit],
    options: &Options,
    finish: impl FnOnce(ChangeSet<'_, '_>) -> Result<T, EditError>,
) -> Result<T, EditError> {
    refuse_before_search(edits, options.kind)?;
    let hay = Haystack::new(text);
    let found = find_edits(&hay, edits, options)?;
    let changes = change_set_of(&hay, &found, edits)?;
    finish(changes)
}

/// Step 1: an edit that no search can place is refused before any: an empty `oldText`, or a
/// `newText` holding an omission placeholder its `oldText` lacks (read for a file of `kind`).
fn refuse_before_search(edits: &[Edit], kind: TextKind) -> Result<(), EditError> {
    if let Some(index) = edits.iter().position(|e| e.old_text.is_empty()) {
        return Err(EditError::EmptyOldText { index });
    }
    for (index, e) in edits.iter().enumerate() {
        if let Some((line, text)) = omission_placeholder_in(&e.old_text, &e.new_text, kind) {
            return Err(EditError::Placeholder { index, line, text });
        }
    }
    Ok(())
}

/// Step 2: every `oldText` found at once ([`Haystack::find_all`]), or the error of the first that
/// has no single place.
fn find_edits(hay: &Haystack<'_>, edits: &[Edit], options: &Options) -> Result<Vec<Match>, EditError> {
    let needles: Vec<Needle<'_>> = edits
        .iter()
        .map(|e| Needle::new(&e.old_text).every(e.replace_all))
        .collect();
    hay.find_all(&needles, &options.scope, options.loosest)
        .map_err(|m| not_placed(hay.text(), m))
}

/// Step 3: each match with its `newText` in a change set; edits that overlap are refused, naming
/// the first pair in file order.
fn change_set_of<'h, 'a>(
    hay: &'h Haystack<'a>,
    found: &[Match],
    edits: &[Edit],
) -> Result<ChangeSet<'h, 'a>, EditError> {
    let mut changes = ChangeSet::new(hay);
    for (m, edit) in found.iter().zip(edits) {
        match changes.replace(m, &edit.new_text) {
            Ok(_) => {}
            Err(EditError::Overlap { .. }) => return Err(first_overlap(hay.text(), found)),
            Err(other) => return Err(other),
        }
    }
    Ok(changes)
}

/// The error for an edit that has no single place.
fn not_placed(text: &[u8], missed: Missed) -> EditError {
    match missed.miss {
        Miss::NotFound { closest, near_miss } => EditError::NotFound {
            index: missed.index,
            also_failing: missed.also_not_found,
            closest,
            near_miss,
        },
        Miss::Ambiguous { tier, starts, total } => EditError::Ambiguous {
            index: missed.index,
            tier,
            occurrences: listing(text, &starts),
            total,
        },
        Miss::Elision { line, marker, problem } => EditError::Elision {
            index: missed.index,
            line,
            marker,
            problem,
        },
    }
}

/// The overlap to report when edits overlap: the first pair in file order (a change set names the
/// first it meets in the order edits are added, which may be another pair when several overlap).
fn first_overlap(text: &[u8], found: &[Match]) -> EditError {
    let mut spans: Vec<(Range<usize>, usize)> = found
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.spans.iter().map(move |s| (s.clone(), i)))
        .collect();
    spans.sort_by_key(|(s, i)| (s.start, s.end, *i));
    let w = spans
        .windows(2)
        .find(|w| w[1].0.start < w[0].0.end)
        .expect("a change set refused an overlap");
    EditError::Overlap {
        first: w[0].1.min(w[1].1),
        second: w[0].1.max(w[1].1),
        line: crate::text::lines::line_of(text, w[1].0.start),
    }
}

/// Line numbers and text of occurrences (ascending original positions), for an `ambiguous` error.
fn listing(text: &[u8], starts: &[usize]) -> Vec<(usize, String)> {
    let mut counter = LineCounter::new(text);
    starts
        .iter()
        .map(|&at| {
            let line = counter.line_at(at);
            let begin = prev_terminator(text, at).map_or(0, |t| t.end);
            let end = next_terminator(text, at).map_or(text.len(), |t| t.start);
            let mut shown = String::from_utf8_lossy(&text[begin..end]).trim().to_string();
            if shown.chars().count() > 100 {
                shown = shown.chars().take(100).collect::<String>() + "...";
            }
            (line, shown)
        })
        .collect()
}
