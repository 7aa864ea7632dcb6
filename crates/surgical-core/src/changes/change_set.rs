//! The change set: replacements on a text's bytes, refused when they overlap, then applied in one
//! pass that keeps the file's own characters wherever the replaced and replacing texts agree.

use std::collections::BTreeSet;
use std::ops::Range;

use crate::changes::align::{align, align_ending, inserted, Difference, DifferenceKind};
use crate::changes::transport::transport;
use crate::diff::change::Change;
use crate::diff::Windows;
use crate::error::EditError;
use crate::find::elision;
use crate::find::forgiven::Forgiven;
use crate::find::haystack::Haystack;
use crate::find::needle::{ElisionProblem, Match};
use crate::find::rewrites::unescape;
use crate::find::tier::Tier;
use crate::text::fold::is_line_blank;
use crate::text::lines::{
    count_terminators, line_of, model_newlines, next_terminator, prev_terminator, terminator_len, LineCounter,
};
use crate::text::normalize::Fold;

/// One place an edit changed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Occurrence {
    /// Byte range replaced in the original text.
    pub old: Range<usize>,
    /// Byte range of the replacement in the new text.
    pub new: Range<usize>,
    /// One-based first and last line of `old` in the original (the last line is the one holding the
    /// range's last byte).
    pub old_lines: (usize, usize),
    /// One-based first and last line of `new` in the new text; for an empty replacement, both are the
    /// line where it was removed.
    pub new_lines: (usize, usize),
}

/// How one edit was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AppliedEdit {
    /// The edit's index in the request (the replacement's, in the order added to a [`ChangeSet`]).
    pub index: usize,
    /// The tier that matched.
    pub tier: Tier,
    /// In file order; one unless `replace_all`.
    pub occurrences: Vec<Occurrence>,
    /// What differed between the file and `oldText`, with one-based line numbers in the new text.
    pub differences: Vec<Difference>,
    /// Aligning `oldText` with `newText` (or the file with them) ran past its work budget, which is
    /// linear in the size of the span and the texts, so a coarser alignment was used: the file's own
    /// bytes stayed where whole lines, or stretches of characters it found, are equal, and
    /// `newText` was written as given elsewhere. Never wrong bytes, only fewer of the file's kept
    /// (its quotes, dashes or spacing on lines the model edited). Typical of very long lines
    /// (minified code, data blobs) compared with lines that differ throughout.
    pub coarse_alignment: bool,
}

/// The result of applying edits: the new text and where each edit went.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Applied {
    /// The new text.
    pub text: Vec<u8>,
    /// In request order.
    pub edits: Vec<AppliedEdit>,
}

impl Applied {
    /// Every replaced range with its replacement, in file order: the input of [`crate::diff`]. The same changes as the occurrences, sorted.
    pub fn changes(&self) -> Vec<Change> {
        let mut all: Vec<_> = self
            .edits
            .iter()
            .flat_map(|e| e.occurrences.iter().map(|o| Change::new(o.old.clone(), o.new.clone())))
            .collect();
        all.sort_by_key(|c| c.old.start);
        all
    }

    /// The same result as a [`Spliced`]: the changes and their new bytes, the whole new text
    /// dropped. For a caller holding an `Applied` (a snippet merged by [`crate::snippet`]) that
    /// writes, hashes and diffs the way [`ChangeSet::apply_spliced`]'s callers do.
    pub fn into_spliced(self) -> Spliced {
        let changes = self.changes();
        let mut bytes = Vec::with_capacity(changes.iter().map(|c| c.new.len()).sum());
        for c in &changes {
            bytes.extend_from_slice(&self.text[c.new.clone()]);
        }
        let old_len = self.text.len() + changes.iter().map(|c| c.old.len()).sum::<usize>() - bytes.len();
        Spliced {
            edits: self.edits,
            changes,
            bytes,
            old_len,
            has_cr: None,
        }
    }
}

/// The result of [`ChangeSet::apply_spliced`]: where each edit went and the replacements, without the
/// new text. The new text is the old one with each change's `old` range replaced by its bytes
/// ([`Spliced::replacements`]); [`Spliced::text`] builds it for a caller that wants it whole.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Spliced {
    /// In request order, as [`Applied::edits`].
    pub edits: Vec<AppliedEdit>,
    /// In file order.
    changes: Vec<Change>,
    /// The changes' new bytes, one after the other in file order.
    bytes: Vec<u8>,
    /// The length of the text before.
    old_len: usize,
    /// Whether the text before holds a CR, when the search knew (its lines are then counted once).
    has_cr: Option<bool>,
}

/// The same edits and replacements: whether the search knew the text's CRs is no part of the result.
impl PartialEq for Spliced {
    fn eq(&self, other: &Spliced) -> bool {
        self.edits == other.edits
            && self.changes == other.changes
            && self.bytes == other.bytes
            && self.old_len == other.old_len
    }
}

impl Eq for Spliced {}

impl Spliced {
    /// Every replaced range with its range in the new text, in file order (old ranges ascending and
    /// not overlapping; an insertion's is empty): the input of [`crate::diff`].
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// Each change with the bytes written in its place, in file order.
    pub fn replacements(&self) -> impl Iterator<Item = (&Change, &[u8])> + '_ {
        let mut at = 0;
        self.changes.iter().map(move |c| {
            let bytes = &self.bytes[at..at + c.new.len()];
            at += c.new.len();
            (c, bytes)
        })
    }

    /// The new text as pieces, in order: the stretches of `old` (the text the edits were applied
    /// to) that no change touches, and each change's new bytes between them. Empty pieces are
    /// included (an insertion at the start, two adjacent changes); their concatenation is
    /// [`Spliced::text`].
    pub fn pieces<'a>(&'a self, old: &'a [u8]) -> impl Iterator<Item = &'a [u8]> + 'a {
        let mut cursor = 0;
        self.replacements()
            .flat_map(move |(c, bytes)| {
                let kept = &old[cursor..c.old.start];
                cursor = c.old.end;
                [kept, bytes]
            })
            .chain(std::iter::once(&old[self.changes.last().map_or(0, |c| c.old.end)..]))
    }

    /// A result made of replacements found another way (a patch's hunks placed by
    /// `surgical-patch`), with no edits: `changes` in file order (old ranges ascending, not
    /// overlapping, inside a text of `old_len` bytes; each new range where its bytes land in the new
    /// text), `bytes` their new bytes one after the other. Written, hashed and diffed as an edit's.
    ///
    /// # Panics
    ///
    /// When the changes are not in that order, a new range is not where the ones before it put it,
    /// or `bytes` is not as long as the new ranges.
    pub fn from_replacements(old_len: usize, changes: Vec<Change>, bytes: Vec<u8>) -> Spliced {
        let (mut old_end, mut new_end) = (0, 0);
        for c in &changes {
            assert!(
                c.old.start >= old_end && c.old.start <= c.old.end && c.old.end <= old_len,
                "replacements in file order, inside the text"
            );
            assert_eq!(
                c.new.start,
                new_end + (c.old.start - old_end),
                "each new range where the ones before it put it"
            );
            (old_end, new_end) = (c.old.end, c.new.end);
        }
        assert_eq!(
            bytes.len(),
            changes.iter().map(|c| c.new.len()).sum::<usize>(),
            "the new bytes of every change"
        );
        Spliced {
            edits: Vec::new(),
            changes,
            bytes,
            old_len,
            has_cr: None,
        }
    }

    /// The length of the new text.
    pub fn new_len(&self) -> usize {
        self.old_len - self.changes.iter().map(|c| c.old.len()).sum::<usize>() + self.bytes.len()
    }

    /// The new text, built whole from `old` (the text the change set was on).
    ///
    /// # Panics
    ///
    /// When `old` is not as long as that text.
    pub fn text(&self, old: &[u8]) -> Vec<u8> {
        assert_eq!(
            old.len(),
            self.old_len,
            "Spliced::text takes the text the edits were applied to"
        );
        let mut out = Vec::with_capacity(self.new_len());
        for piece in self.pieces(old) {
            out.extend_from_slice(piece);
        }
        out
    }

    /// The same result with one change per occurrence of each edit (the ranges of
    /// [`Applied::changes`], each holding the finer changes inside it), as
    /// [`Applied::into_spliced`] gives it: what a snippet's merge reports and diffs by. `old` is the
    /// text the change set was on.
    ///
    /// # Panics
    ///
    /// When `old` is not as long as that text.
    pub fn by_occurrence(self, old: &[u8]) -> Spliced {
        assert_eq!(
            old.len(),
            self.old_len,
            "Spliced::by_occurrence takes the text the edits were applied to"
        );
        let mut changes: Vec<Change> = self
            .edits
            .iter()
            .flat_map(|e| e.occurrences.iter().map(|o| Change::new(o.old.clone(), o.new.clone())))
            .collect();
        changes.sort_by_key(|c| c.old.start);
        // The new text as pieces (the old text's unchanged stretches and the replacements), each
        // with where it starts in the new text; each coarse change's bytes are copied from those
        // its new range overlaps.
        let mut pieces: Vec<(usize, &[u8])> = Vec::with_capacity(2 * self.changes.len() + 1);
        let mut cursor = 0;
        for (c, bytes) in self.replacements() {
            pieces.push((c.new.start - (c.old.start - cursor), &old[cursor..c.old.start]));
            pieces.push((c.new.start, bytes));
            cursor = c.old.end;
        }
        pieces.push((self.new_len() - (old.len() - cursor), &old[cursor..]));
        let mut bytes = Vec::with_capacity(changes.iter().map(|c| c.new.len()).sum());
        // Both in new-text order: one walk over the pieces for all the changes.
        let mut first = 0;
        for c in &changes {
            while first < pieces.len() && pieces[first].0 + pieces[first].1.len() <= c.new.start {
                first += 1;
            }
            for &(at, piece) in &pieces[first..] {
                if at >= c.new.end {
                    break;
                }
                let (from, to) = (c.new.start.max(at), c.new.end.min(at + piece.len()));
                if from < to {
                    bytes.extend_from_slice(&piece[from - at..to - at]);
                }
            }
        }
        Spliced {
            edits: self.edits,
            changes,
            bytes,
            old_len: self.old_len,
            has_cr: self.has_cr,
        }
    }

    /// The windows of the new text around the changes, for its diffs without a whole copy (see
    /// [`Windows`]); `old` is the text the change set was on.
    pub fn windows<'a>(&self, old: &'a [u8]) -> Windows<'a> {
        let has_cr = self.has_cr.unwrap_or(true);
        Windows::counted(
            old,
            self.replacements().map(|(c, b)| (c.old.clone(), b)),
            has_cr,
            true,
            None,
        )
    }
}

/// Replacements on one text, each a [`Match`] and the text to put there, added one by one; then
/// [`ChangeSet::apply`] writes them all in one pass.
///
/// Replacements are numbered in the order added (from 0): that number is the `index` of their
/// [`AppliedEdit`] and of any [`EditError`] about them. Spans are kept in file order as they are added
/// (an ordered set: adding a span costs a logarithm of the spans so far, whatever the order), so a
/// change set of many replacements stays near linear to build and linear to apply.
pub struct ChangeSet<'h, 'a> {
    hay: &'h Haystack<'a>,
    replacements: Vec<Replacement>,
    /// Every span as (start, end, replacement number), in that order.
    spans: BTreeSet<(usize, usize, usize)>,
    /// The lines an elided needle's markers stand for, as (start, end, replacement number): kept as
    /// they are, and no other replacement may touch them (the edit's occurrence spans them).
    gaps: BTreeSet<(usize, usize, usize)>,
    /// The terminator new lines take where the text has none at or before their place.
    fallback_terminator: Vec<u8>,
}

impl std::fmt::Debug for ChangeSet<'_, '_> {
    /// How many replacements, and their spans in file order.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChangeSet")
            .field("replacements", &self.replacements.len())
            .field("spans", &self.spans)
            .finish_non_exhaustive()
    }
}

/// One replacement, with both texts as alignment takes them.
struct Replacement {
    tier: Tier,
    old: String,
    new: String,
    fold: Fold,
    forgiven: Option<Forgiven>,
    /// Where its first span starts (for `no_change`).
    first: usize,
    /// Its last span ends the text, without the final line break `old` has (see [`Match`]).
    open_end: bool,
    /// At such an open end, `new`'s final line break is written (the text then ends with one).
    end_with_line_break: bool,
    /// An insertion of whole lines ([`ChangeSet::insert_lines`]): `new` is written at its empty span,
    /// nothing is aligned.
    insertion: bool,
    /// For an elided needle ([`Tier::Elision`]): each piece's span start and texts, aligned in place
    /// of `old`/`new` at that span; the lines between pieces are not spans, so they stay.
    parts: Vec<Part>,
    /// The terminator of the lines it writes, when its caller decided it
    /// ([`ChangeSet::replace_lines_ending`]).
    written_eol: Option<Vec<u8>>,
}

/// One piece of an elided needle's replacement.
struct Part {
    start: usize,
    old: String,
    new: String,
    fold: Fold,
    open_end: bool,
}

impl<'h, 'a> ChangeSet<'h, 'a> {
    /// An empty change set on `hay`'s text.
    pub fn new(hay: &'h Haystack<'a>) -> ChangeSet<'h, 'a> {
        ChangeSet {
            hay,
            replacements: Vec::new(),
            spans: BTreeSet::new(),
            gaps: BTreeSet::new(),
            fallback_terminator: b"\n".to_vec(),
        }
    }

    /// For a haystack that is a window of a larger text (some of its lines): `terminator` is the last
    /// line terminator before the window (`\n`, `\r\n` or `\r`). New lines take it where the window
    /// itself has no terminator at or before their place — as they would in the whole text — instead
    /// of `\n`, the choice at the start of a text. Without this, a replacement in a window of one line
    /// at the end of a text without a final line break would write `\n` in a CRLF text.
    pub fn terminator_before(mut self, terminator: &[u8]) -> ChangeSet<'h, 'a> {
        self.fallback_terminator = terminator.to_vec();
        self
    }

    /// How many replacements were added.
    pub fn len(&self) -> usize {
        self.replacements.len()
    }

    /// Whether none was added.
    pub fn is_empty(&self) -> bool {
        self.replacements.is_empty()
    }

    /// Adds the replacement of `found` (a match in this change set's haystack) by `new_text`, and
    /// returns its number.
    ///
    /// `new_text`'s line breaks (any of `\n`, `\r\n`, `\r`) are written with the terminator used where
    /// it lands. A tier that rewrote the needle rewrites `new_text` the same way (re-indented, or
    /// unescaped). Refused with [`EditError::Overlap`] (the earlier replacement first, the line of
    /// the later span) when a span overlaps one already added, and with [`EditError::Conflict`] when
    /// a line-based tier cannot tell what the model meant to write on a line it misremembered
    /// (`index` is then the replacement's number); nothing is added then.
    pub fn replace(&mut self, found: &Match, new_text: &str) -> Result<usize, EditError> {
        self.add(found, new_text, false)
    }

    /// Like [`ChangeSet::replace`] for a match of whole lines, except that the lines `new_text`
    /// writes (every line not kept as the file's) end with `terminator` rather than with the
    /// terminator of the file line each stands in for: for a caller that knows which ending they
    /// take (a lazy snippet's run of new lines in a file of mixed endings takes its kept
    /// neighbours'). `terminator` is `\n`, `\r\n` or `\r`.
    pub(crate) fn replace_lines_ending(
        &mut self,
        found: &Match,
        new_text: &str,
        terminator: &[u8],
    ) -> Result<usize, EditError> {
        let id = self.add(found, new_text, false)?;
        self.replacements[id].written_eol = Some(terminator.to_vec());
        Ok(id)
    }

    /// Like [`ChangeSet::replace`], except where `found` ends a text without a final line break and
    /// the needle's final line break stood for that end (see [`crate::Scope::whole_lines`]): there a
    /// `new_text` ending with a line break keeps it, so the text then ends with one (the terminator
    /// new lines take at that place). Elsewhere the two are the same.
    ///
    /// For callers that state the final line break themselves: a patch hunk that rewrites the last line
    /// of a file without one gives it one, unless the hunk says otherwise.
    pub fn replace_ending_text(&mut self, found: &Match, new_text: &str) -> Result<usize, EditError> {
        self.add(found, new_text, true)
    }

    /// Adds the insertion of whole lines, `new_text`, at `at`, and returns its number: no line of the
    /// text is edited to put them there. `at` is the start of a line or the end of the text.
    ///
    /// The inserted lines take the terminator of the line that ends at `at`; at the start of the text,
    /// that of its first line; at the end of a text without a final line break, the text's last
    /// terminator; in a text without any, the change set's fallback (`\n`, or the terminator before
    /// a window, see [`ChangeSet::terminator_before`]). `new_text`'s line breaks (any of `\n`,
    /// `\r\n`, `\r`) are written with that terminator. Edge cases:
    ///
    /// - At a CRLF boundary: `at` must be after the `\n`, never between the `\r` and the `\n`
    ///   (that is no line start), and the new lines take `\r\n`.
    /// - Before a following line (`at` inside the text), a `new_text` without a final line break is
    ///   given one, so the following line stays a line of its own.
    /// - At the end of the text, `new_text`'s final line break is written as given: without one, the
    ///   text then ends without one. When the text has no final line break, its last line is ended
    ///   first (with the terminator above), and the inserted lines follow.
    /// - Into an empty text (`at` 0), `new_text` is the whole new text, with the fallback terminator
    ///   and its final line break as given.
    ///
    /// An empty `new_text` changes nothing: [`ChangeSet::apply`] refuses it with
    /// [`EditError::NoChange`]. It is refused with [`EditError::Overlap`] inside another span (at
    /// either end of one it is not). On apply, inserted text holding U+FFFD in a text that is not valid
    /// UTF-8 is refused with [`EditError::FabricatedReplacementChar`] and non-ASCII text in a legacy 8-bit file with
    /// [`EditError::LegacyEncoding`], as a replacement's new text is. Its occurrence has an empty
    /// `old` range at `at`.
    ///
    /// # Panics
    ///
    /// When `at` is past the end of the text or not the start of a line.
    pub fn insert_lines(&mut self, at: usize, new_text: &str) -> Result<usize, EditError> {
        let text = self.hay.text();
        assert!(at <= text.len(), "insert_lines: {at} is past the end of the text");
        let line_start =
            at == 0 || at == text.len() || text[at - 1] == b'\n' || (text[at - 1] == b'\r' && text[at] != b'\n');
        assert!(line_start, "insert_lines: {at} is not the start of a line");
        let id = self.replacements.len();
        self.add_spans(std::slice::from_ref(&(at..at)), id)?;
        self.replacements.push(Replacement {
            tier: Tier::Exact,
            old: String::new(),
            new: model_newlines(new_text).into_owned(),
            fold: Fold::EXACT,
            forgiven: None,
            first: at,
            open_end: false,
            end_with_line_break: false,
            insertion: true,
            parts: Vec::new(),
            written_eol: None,
        });
        Ok(id)
    }

    /// Checks `spans` (disjoint) against the spans already added, then adds them as replacement `id`'s.
    fn add_spans(&mut self, spans: &[Range<usize>], id: usize) -> Result<(), EditError> {
        self.check_spans(spans, id)?;
        self.spans.extend(spans.iter().map(|s| (s.start, s.end, id)));
        Ok(())
    }

    /// Refuses `spans` (disjoint) when one overlaps a span already added or the lines an elision kept.
    fn check_spans(&self, spans: &[Range<usize>], id: usize) -> Result<(), EditError> {
        // A match's own spans are disjoint, so each is checked against the spans already added only:
        // its neighbours in file order.
        for span in spans {
            let key = (span.start, span.end, id);
            let clash = |set: &BTreeSet<(usize, usize, usize)>| {
                let before = set.range(..key).next_back();
                let after = set.range(key..).next();
                match (before, after) {
                    (Some(&(_, end, other)), _) if span.start < end => Some((other, span.start)),
                    (_, Some(&(start, _, other))) if start < span.end => Some((other, start)),
                    _ => None,
                }
            };
            if let Some((other, at)) = clash(&self.spans).or_else(|| clash(&self.gaps)) {
                return Err(EditError::Overlap {
                    first: other.min(id),
                    second: other.max(id),
                    line: line_of(self.hay.text(), at),
                });
            }
        }
        Ok(())
    }

    /// `found`'s needle and `new` (`\n`-only) as alignment takes them: `new` rewritten as the tier
    /// rewrote the needle (unescaped, unnumbered), and a line-based tier's match transported onto the
    /// file's lines (a [`EditError::Conflict`] for replacement `id` when it cannot be).
    fn prepared(&self, found: &Match, new: &str, id: usize) -> Result<(String, String), EditError> {
        let new = if found.unescape_new {
            unescape(new)
        } else {
            new.to_string()
        };
        let new = match found.unnumber_new {
            Some(style) => without_line_numbers(&new, style),
            None => new,
        };
        match &found.lines {
            Some(c) => {
                let moved = transport(self.hay.file_lines(), &found.old, &new, c).map_err(|c| EditError::Conflict {
                    index: id,
                    line: c.line + 1,
                    file: c.file,
                    expected: c.expected,
                })?;
                Ok((moved.old, moved.new))
            }
            None => Ok((found.old.clone(), new)),
        }
    }

    fn add(&mut self, found: &Match, new_text: &str, end_with_line_break: bool) -> Result<usize, EditError> {
        let id = self.replacements.len();
        let new = model_newlines(new_text);
        if !found.pieces.is_empty() {
            return self.add_elided(found, &new, end_with_line_break);
        }
        let (old, new) = self.prepared(found, &new, id)?;
        self.add_spans(&found.spans, id)?;
        self.replacements.push(Replacement {
            tier: found.tier,
            old,
            new,
            fold: found.fold,
            forgiven: found.forgiven.clone(),
            first: found.spans.first().map_or(0, |s| s.start),
            open_end: found.open_end,
            end_with_line_break,
            insertion: false,
            parts: Vec::new(),
            written_eol: None,
        });
        Ok(id)
    }

    /// An elided needle's match ([`Tier::Elision`]): `new` cut at its marker lines, each piece
    /// replacing the needle's piece at the same place, the lines between pieces left out of every span.
    fn add_elided(&mut self, found: &Match, new: &str, end_with_line_break: bool) -> Result<usize, EditError> {
        let id = self.replacements.len();
        let new_cut = elision::cut(new);
        let old_cut = elision::cut(&found.old);
        if new_cut.markers.len() != old_cut.markers.len() {
            let k = new_cut.markers.len().min(old_cut.markers.len().saturating_sub(1));
            let (line, marker) = old_cut.markers[k].clone();
            return Err(EditError::Elision {
                index: id,
                line,
                marker,
                problem: ElisionProblem::MarkersDiffer {
                    old: old_cut.markers.len(),
                    new: new_cut.markers.len(),
                },
            });
        }
        // A piece placed by one reading of several is right only if the model keeps it as it is.
        if let Some(u) = found
            .unpinned
            .iter()
            .find(|u| old_cut.pieces[u.piece] != new_cut.pieces[u.piece])
        {
            return Err(EditError::Elision {
                index: id,
                line: u.line,
                marker: u.marker.clone(),
                problem: u.problem.clone(),
            });
        }
        let mut parts = Vec::with_capacity(found.pieces.len());
        for (piece, new) in found.pieces.iter().zip(&new_cut.pieces) {
            let (old, new) = self.prepared(piece, new, id)?;
            parts.push(Part {
                start: piece.spans[0].start,
                old,
                new,
                fold: piece.fold,
                open_end: piece.open_end,
            });
        }
        let spans: Vec<Range<usize>> = found.pieces.iter().map(|p| p.spans[0].clone()).collect();
        let gaps: Vec<Range<usize>> = spans
            .windows(2)
            .map(|w| w[0].end..w[1].start)
            .filter(|g| !g.is_empty())
            .collect();
        // Nothing may land in the lines the markers stand for either.
        self.check_spans(&gaps, id)?;
        self.add_spans(&spans, id)?;
        self.gaps.extend(gaps.iter().map(|g| (g.start, g.end, id)));
        self.replacements.push(Replacement {
            tier: found.tier,
            old: String::new(),
            new: String::new(),
            fold: Fold::EXACT,
            forgiven: found.forgiven.clone(),
            first: spans[0].start,
            open_end: found.open_end,
            end_with_line_break,
            insertion: false,
            parts,
            written_eol: None,
        });
        Ok(id)
    }

    /// Writes every replacement: the new text, and for each replacement (in the order added) where it
    /// went, old and new, with line numbers and what differed.
    ///
    /// Bytes outside the spans are copied unchanged; inside a span, the file's own characters are kept
    /// wherever the needle and the replacement agree. Fails, writing nothing, when a replacement would
    /// write U+FFFD into a text that has invalid bytes, whose U+FFFD a model cannot tell from them
    /// ([`EditError::FabricatedReplacementChar`]; in valid UTF-8 it is the character itself), add
    /// non-ASCII text to a legacy 8-bit file ([`EditError::LegacyEncoding`]), or change nothing at all
    /// ([`EditError::NoChange`]); the first in file order (for `no_change`, the first added) is reported.
    ///
    /// The haystack's normalized view is released first (see [`Haystack`]): a search after this
    /// builds it again.
    pub fn apply(self) -> Result<Applied, EditError> {
        let (bytes, placed, _) = self.splice()?;
        let text = self.hay.text();
        let mut out = Vec::with_capacity(text.len() - placed.iter().map(|p| p.old.len()).sum::<usize>() + bytes.len());
        let mut cursor = 0;
        for p in &placed {
            out.extend_from_slice(&text[cursor..p.old.start]);
            out.extend_from_slice(&bytes[p.bytes.clone()]);
            cursor = p.old.end;
        }
        out.extend_from_slice(&text[cursor..]);
        Ok(self.report(out, placed))
    }

    /// [`ChangeSet::apply`] without the new text: the replacements and where each edit went, for
    /// callers that write the new version as the old one plus its changed ranges and so never need it
    /// whole (a large file edited in a few places). The same checks and errors; the occurrences'
    /// line numbers are those of the new text, counted in windows around the changes
    /// ([`crate::diff::Windows`]).
    pub fn apply_spliced(self) -> Result<Spliced, EditError> {
        let (bytes, placed, seed) = self.splice()?;
        let text = self.hay.text();
        // Only the new lines of the changes are counted here: up to the last change, and by `\n`
        // alone in a text the search found without a CR.
        let has_cr = self.hay.has_cr_known();
        let replaced = placed.iter().map(|p| (p.old.clone(), &bytes[p.bytes.clone()]));
        let windows = Windows::counted(text, replaced, has_cr.unwrap_or(true), false, seed);
        let positions = placed.iter().flat_map(|p| {
            let last = if p.new.is_empty() { p.new.start } else { p.new.end - 1 };
            [p.new.start, last]
        });
        let lines = windows.new_lines_at(positions);
        drop(windows);
        let changes = placed
            .iter()
            .map(|p| Change::new(p.old.clone(), p.new.clone()))
            .collect();
        let new_lines = lines.chunks(2).map(|l| (l[0], l[1]));
        let edits = self.edits_of(placed, new_lines);
        Ok(Spliced {
            edits,
            changes,
            bytes,
            old_len: text.len(),
            has_cr,
        })
    }

    /// Aligns every replacement in file order: their bytes one after the other, and where each went;
    /// and the first replacement's window start with its line (see [`Windows::counted`]'s seed).
    #[allow(clippy::type_complexity)]
    fn splice(&self) -> Result<(Vec<u8>, Vec<Placed>, Option<(usize, usize)>), EditError> {
        // Searching is over: the memory of a normalized copy of the text goes before the new bytes'.
        self.hay.release_view();
        let text = self.hay.text();
        let mut eol = LocalEol::new(text, &self.fallback_terminator);
        let mut bytes = Vec::new();
        let mut old_lines = LineCounter::knowing_crs(text, self.hay.has_cr_known().unwrap_or(true));
        let mut changed = vec![false; self.replacements.len()];
        let mut placed: Vec<Placed> = Vec::with_capacity(self.spans.len());
        // Bytes added so far (new minus old): where a span's replacement starts in the new text.
        let mut grown: isize = 0;
        let mut seed = None;
        for &(start, end, index) in &self.spans {
            let (span, index) = (&(start..end), &index);
            let r = &self.replacements[*index];
            let local = eol.at(span);
            let part = r.parts.iter().position(|p| p.start == span.start);
            let mut aligned = if let Some(p) = part.map(|k| &r.parts[k]) {
                let (old, new) = match at_open_end(text, span, p.open_end, &p.old) {
                    true => without_open_end(&p.old, &p.new, r.end_with_line_break),
                    false => (p.old.as_str(), p.new.as_str()),
                };
                align(&text[span.clone()], old, new, p.fold, local)
            } else if r.insertion {
                inserted(text, span.start, &r.new, &self.fallback_terminator)
            } else if at_open_end(text, span, r.open_end, &r.old) {
                let (old, new) = without_open_end(&r.old, &r.new, r.end_with_line_break);
                align_ending(&text[span.clone()], old, new, r.fold, local, r.written_eol.as_deref())
            } else {
                align_ending(
                    &text[span.clone()],
                    &r.old,
                    &r.new,
                    r.fold,
                    local,
                    r.written_eol.as_deref(),
                )
            };
            if let Some(forgiven) = r.forgiven.as_ref().filter(|_| part.is_none_or(|k| k == 0)) {
                let kind = DifferenceKind::Forgiven(forgiven.clone());
                aligned.differences.insert(0, Difference { line: 0, kind });
            }
            if seed.is_none() {
                // The counter passes the first window's start on its way: its line is kept for the
                // windows, which then count from there.
                let at = crate::diff::window_start(text, span.start);
                seed = Some((at, old_lines.line_at(at)));
            }
            let first_line = old_lines.line_at(span.start);
            let last_line = old_lines.line_at(span.end.saturating_sub(1).max(span.start));
            // A U+FFFD a model writes stands for invalid bytes only where its view showed some: in a
            // text that is valid UTF-8 every U+FFFD it saw was the character itself.
            if let Some(line) = aligned
                .fabricated_replacement_char
                .filter(|_| crate::text::lines::utf8_str(text).is_none())
            {
                let line = first_line + line;
                return Err(EditError::FabricatedReplacementChar { index: *index, line });
            }
            if !aligned.bytes.is_ascii()
                && self.hay.is_legacy_8bit()
                && crate::text::lines::utf8_pieces(&aligned.bytes).any(|(valid, _)| !valid.is_ascii())
            {
                return Err(EditError::LegacyEncoding {
                    index: *index,
                    line: first_line,
                });
            }
            changed[*index] |= aligned.bytes != text[span.clone()];
            let new_start = span.start.checked_add_signed(grown).expect("offsets stay positive");
            let at = bytes.len();
            bytes.extend_from_slice(&aligned.bytes);
            grown += aligned.bytes.len() as isize - span.len() as isize;
            placed.push(Placed {
                index: *index,
                old: span.clone(),
                new: new_start..new_start + aligned.bytes.len(),
                bytes: at..bytes.len(),
                old_lines: (first_line, last_line),
                differences: aligned.differences,
                coarse: aligned.coarse,
            });
        }
        if let Some(index) = changed.iter().position(|c| !c) {
            let line = line_of(text, self.replacements[index].first);
            return Err(EditError::NoChange { index, line });
        }
        Ok((bytes, placed, seed))
    }

    /// The result: new line numbers (one pass over the new text) and each replacement's occurrences.
    fn report(&self, out: Vec<u8>, placed: Vec<Placed>) -> Applied {
        let mut counter = LineCounter::new(&out);
        let new_lines: Vec<(usize, usize)> = placed
            .iter()
            .map(|p| {
                let first = counter.line_at(p.new.start);
                let last = if p.new.is_empty() {
                    first
                } else {
                    counter.line_at(p.new.end - 1)
                };
                (first, last)
            })
            .collect();
        let edits = self.edits_of(placed, new_lines);
        Applied { text: out, edits }
    }

    /// Each replacement's occurrences and differences, from the spans written (in file order) and the
    /// first and last new line of each.
    fn edits_of(&self, placed: Vec<Placed>, new_lines: impl IntoIterator<Item = (usize, usize)>) -> Vec<AppliedEdit> {
        let mut edits: Vec<AppliedEdit> = self
            .replacements
            .iter()
            .enumerate()
            .map(|(index, r)| AppliedEdit {
                index,
                tier: r.tier,
                occurrences: Vec::new(),
                differences: Vec::new(),
                coarse_alignment: false,
            })
            .collect();
        for (p, (first, last)) in placed.into_iter().zip(new_lines) {
            let edit = &mut edits[p.index];
            edit.coarse_alignment |= p.coarse;
            let shifted = p.differences.into_iter().map(|d| Difference {
                line: first + d.line,
                ..d
            });
            edit.differences.extend(shifted);
            // An elided needle's pieces are one occurrence, the lines between them included.
            if !self.replacements[p.index].parts.is_empty() {
                if let Some(o) = edit.occurrences.last_mut() {
                    o.old.end = p.old.end;
                    o.new.end = p.new.end;
                    o.old_lines.1 = p.old_lines.1;
                    o.new_lines.1 = last;
                    continue;
                }
            }
            edit.occurrences.push(Occurrence {
                old: p.old,
                new: p.new,
                old_lines: p.old_lines,
                new_lines: (first, last),
            });
        }
        edits
    }
}

/// Whether `span` (matched by `old`, `open_end` as its [`Match`] says) ends a text without a final
/// line break where `old` has one: the needle's final line break stood for the end of the text. A
/// text tier says so itself; a line-based tier's last line (transported, or an elided needle's last
/// piece) may be the text's unterminated last line, which `old` ends with a line break.
fn at_open_end(text: &[u8], span: &Range<usize>, open_end: bool, old: &str) -> bool {
    span.end == text.len()
        && (open_end || memchr::memchr_iter(b'\n', old.as_bytes()).count() > count_terminators(&text[span.clone()]))
}

/// `old` and `new` at an open end, where the needle's final line break stood for the end of a text
/// without one: neither side has it (`new` keeps it when `end_with_line_break`). A begun line of
/// blanks after it in `old` (a trimming tier matched it to nothing) goes with it, and from `new`
/// too when `new` ends with the same line after a line break (the model left that line as it was,
/// so nothing is written for it) or with the line break alone (it deleted the line). A `new` that
/// wrote something else on that line keeps it, after a line break.
fn without_open_end<'s>(old: &'s str, new: &'s str, end_with_line_break: bool) -> (&'s str, &'s str) {
    let (old, tail) = match old.rfind('\n').filter(|&k| old[k + 1..].chars().all(is_line_blank)) {
        Some(cut) => old.split_at(cut),
        None => (old, "\n"),
    };
    // The blank line kept, or deleted (`new` then ends with the line break that stood for the end).
    let new = match new.strip_suffix(tail).or_else(|| new.strip_suffix('\n')) {
        Some(kept) if end_with_line_break => &new[..kept.len() + 1],
        Some(kept) => kept,
        None => new,
    };
    (old, new)
}

/// One span written: its replacement, old and new range, its bytes, old lines, differences (lines in the span).
struct Placed {
    index: usize,
    old: Range<usize>,
    new: Range<usize>,
    /// Where its bytes are in the replacement bytes.
    bytes: Range<usize>,
    old_lines: (usize, usize),
    differences: Vec<Difference>,
    coarse: bool,
}

/// The terminator that new lines take at a span: the one that ends the span's last line in the file
/// (inside the span or right after it), else the last one before the span, else the change set's
/// fallback (`\n`, or the terminator before a window; see [`ChangeSet::terminator_before`]). Spans are
/// visited in order, so the forward search is reused (linear overall).
struct LocalEol<'a> {
    text: &'a [u8],
    fallback: &'a [u8],
    next: Option<Range<usize>>,
    searched_from: Option<usize>,
    last: Option<Option<Range<usize>>>,
}

impl<'a> LocalEol<'a> {
    fn new(text: &'a [u8], fallback: &'a [u8]) -> Self {
        LocalEol {
            text,
            fallback,
            next: None,
            searched_from: None,
            last: None,
        }
    }

    fn at(&mut self, span: &Range<usize>) -> &'a [u8] {
        let text = self.text;
        // The span's last line ends inside it when the span ends with a terminator.
        let from = if terminator_len(&text[span.clone()]) > 0 {
            crate::text::lines::prev_terminator(text, span.end).map_or(span.end, |t| t.start)
        } else {
            span.end
        };
        let fresh = match (&self.next, self.searched_from) {
            (Some(t), Some(_)) => t.start >= from,
            (None, Some(searched)) => searched <= from,
            (_, None) => false,
        };
        if !fresh {
            self.next = next_terminator(text, from);
            self.searched_from = Some(from);
        }
        if let Some(t) = &self.next {
            return &text[t.clone()];
        }
        let last = self.last.get_or_insert_with(|| prev_terminator(text, text.len()));
        match last {
            Some(t) => &text[t.clone()],
            None => self.fallback,
        }
    }
}

/// `new` with the line-number prefixes of `style` left out of the lines that carry one (a model that
/// copied numbered lines into `oldText` numbers the lines it kept in `newText` too, and maybe not the
/// ones it added).
fn without_line_numbers(new: &str, style: crate::text::line_numbers::NumberStyle) -> String {
    new.split('\n')
        .map(|line| match crate::text::line_numbers::line_number_prefix(line) {
            Some((_, s, text)) if s == style => text,
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
