// Stage 6 of the core, lazy snippets (a comment, not docs: the module is public). May import:
// `text`, `find`, `error`, `changes`. Imported by: nothing but `lib.rs`'s re-export.

//! Lazy snippets: the changed code with unchanged stretches elided by marker lines
//! (`// ... existing code ...`), merged into a file deterministically, or refused.
//!
//! (Module documentation: being rewritten for the scored readings of issue 31.)

mod align;
mod cut;
mod keys;
mod merge;
mod readings;
mod scoring;
mod search;
mod types;

pub use types::{Placement, Reading, SegmentMiss, SegmentPlacement, SnippetApplied, SnippetError};

use crate::find::closest::closest_regions;
use crate::snippet::cut::{reads_as_marker, variants, Variant};
use crate::snippet::keys::{FileLines, Keying};
use crate::snippet::merge::merge;
use crate::snippet::scoring::Scoring;
use crate::snippet::search::{Found, Search};
use crate::text::lines::{lines, model_newlines, Line};
use crate::text::marker::TextKind;

/// At most this many complete readings are explored; past it the snippet is ambiguous.
pub const MAX_READINGS: usize = search::MAX_EXPLORED;
/// At most this many readings are listed in [`SnippetError::Ambiguous`].
const MAX_LISTED_READINGS: usize = 5;
/// Readings whose scores differ by less than this, with different results, are ambiguous.
pub const MARGIN: f64 = 0.5;

/// Whether `line` is a marker line in code ([`is_marker_in`] with [`TextKind::Code`]).
pub fn is_marker(line: &str) -> bool {
    is_marker_in(line, TextKind::Code)
}

/// Whether `line` reads as a marker line (code left out, kept as the file has it) in a file of
/// `kind`: the marker grammar of [`crate::marker`], strong or weak. (Where the file holds the line
/// next to the snippet's neighbour, or a bare `...` is a Python stub's body, the merge reads it as
/// content; see the module docs.)
pub fn is_marker_in(line: &str, kind: TextKind) -> bool {
    reads_as_marker(line, kind)
}

/// Merges `snippet` into `text`, a file of unknown name: [`apply_snippet_in`] for code
/// ([`TextKind::Code`], the safe assumption: markers in every comment syntax are read).
pub fn apply_snippet(text: &[u8], snippet: &str) -> Result<SnippetApplied, SnippetError> {
    apply_snippet_in(text, snippet, TextKind::Code)
}

/// Merges `snippet` into `text`, a file of `kind` ([`TextKind::of_path`] of its name), by the rules
/// of the module docs. Nothing is changed on error.
pub fn apply_snippet_in(text: &[u8], snippet: &str, kind: TextKind) -> Result<SnippetApplied, SnippetError> {
    let snippet = model_newlines(snippet);
    let all: Vec<Line<'_>> = lines(text).collect();
    let scoring = Scoring::default();
    let exact = FileLines::new(&all, Keying::Indented);
    let variants: Vec<Variant<'_>> = variants(&snippet, &exact, kind)?
        .into_iter()
        .filter(|v| !v.segments.is_empty())
        .collect();
    if variants.is_empty() {
        return Err(SnippetError::Empty);
    }
    let mut keying = Keying::Indented;
    let mut pool = pool_of(&variants, &exact, keying, &scoring);
    let mut trimmed_file = None;
    if pool.found.is_empty() {
        let trimmed = FileLines::new(&all, Keying::Trimmed);
        let retry = pool_of(&variants, &trimmed, Keying::Trimmed, &scoring);
        if !retry.found.is_empty() {
            pool = retry;
            keying = Keying::Trimmed;
            trimmed_file = Some(trimmed);
        }
    }
    let file = trimmed_file.as_ref().unwrap_or(&exact);
    if pool.found.is_empty() {
        let (v, (index, lo, hi)) = pool.failed.unwrap_or((0, (0, 0, file.len())));
        let segments = &variants[v].segments;
        let missing = (index..segments.len().min(index + 1))
            .map(|i| {
                let seg = &segments[i];
                let body: String = seg.lines.iter().map(|l| format!("{}\n", l.text)).collect();
                SegmentMiss {
                    index: i,
                    snippet_lines: (seg.lines[0].number, seg.lines.last().map_or(0, |l| l.number)),
                    searched: (lo, hi),
                    closest: closest_regions(text, &body),
                }
            })
            .collect();
        return Err(SnippetError::NotFound { segments: missing });
    }
    // The best reading of each result, best first.
    pool.found.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
    let mut distinct: Vec<(usize, Found)> = Vec::new();
    for (v, f) in pool.found {
        if !distinct.iter().any(|(_, d)| d.hash == f.hash) {
            distinct.push((v, f));
        }
    }
    let best = distinct[0].1.score;
    let rivals = distinct
        .iter()
        .filter(|(_, f)| f.score >= best - scoring.margin)
        .count();
    if rivals > 1 || (pool.capped && distinct.len() > 1) {
        let readings = distinct
            .iter()
            .take(rivals.clamp(2, MAX_LISTED_READINGS))
            .map(|(_, f)| Reading {
                segments: f.places.iter().map(|p| (p.start + 1, p.end)).collect(),
                score: f.score,
            })
            .collect();
        return Err(SnippetError::Ambiguous {
            readings,
            total: rivals.max(2),
            capped: pool.capped,
        });
    }
    // An insertion between the segment's edges elsewhere: see the module docs ("Insertions between
    // the edges").
    if let Some(other) = edge_insertion_elsewhere(file, &variants[distinct[0].0], &distinct[0].1, keying) {
        let best = &distinct[0].1;
        let readings = vec![
            Reading {
                segments: best.places.iter().map(|p| (p.start + 1, p.end)).collect(),
                score: best.score,
            },
            Reading {
                segments: best
                    .places
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        if k == other.0 {
                            (other.1 + 1, other.1 + 2)
                        } else {
                            (p.start + 1, p.end)
                        }
                    })
                    .collect(),
                score: best.score,
            },
        ];
        return Err(SnippetError::Ambiguous {
            readings,
            total: 2,
            capped: false,
        });
    }
    let (v, chosen) = distinct.swap_remove(0);
    if chosen.places.iter().all(|p| p.unchanged()) {
        return Err(SnippetError::NoChange);
    }
    let variant = &variants[v];
    merge(
        text,
        file,
        &variant.segments,
        &chosen.places,
        keying,
        variant.first_is_marker,
        variant.last_is_marker,
    )
}

/// A segment of `best` that keeps its first and last lines, and a place elsewhere between its
/// neighbours' regions where those two lines are adjacent in the file: the segment's index and the
/// file line (from 0) of its first line there.
fn edge_insertion_elsewhere(
    file: &FileLines<'_>,
    variant: &Variant<'_>,
    best: &Found,
    keying: Keying,
) -> Option<(usize, usize)> {
    for (k, (seg, place)) in variant.segments.iter().zip(&best.places).enumerate() {
        if !place.terms.edges_kept {
            continue;
        }
        let keys: Vec<&[u8]> = seg.lines.iter().map(|l| keys::key(l.text.as_bytes(), keying)).collect();
        let (Some(a), Some(b)) = (
            keys.iter().position(|k| !keys::is_blank_key(k)),
            keys.iter().rposition(|k| !keys::is_blank_key(k)),
        ) else {
            continue;
        };
        if b < a + 2 {
            continue;
        }
        let (first, last) = (keys[a], keys[b]);
        let lo = if k == 0 { 0 } else { best.places[k - 1].end };
        let hi = best.places.get(k + 1).map_or(file.len(), |p| p.start);
        for &j in file.places_in(first, lo, hi.saturating_sub(1)) {
            let disjoint = j + 2 <= place.start || j >= place.end;
            if disjoint && file.keys[j + 1] == last {
                return Some((k, j));
            }
        }
    }
    None
}

/// The readings of every variant of the snippet.
#[derive(Default)]
struct Pool {
    /// The variant and the reading.
    found: Vec<(usize, Found)>,
    capped: bool,
    /// The first variant's furthest failure.
    failed: Option<(usize, (usize, usize, usize))>,
}

fn pool_of(variants: &[Variant<'_>], file: &FileLines<'_>, keying: Keying, scoring: &Scoring) -> Pool {
    let mut pool = Pool::default();
    for (v, variant) in variants.iter().enumerate() {
        let outcome = Search::run(file, &variant.segments, keying, scoring);
        pool.capped |= outcome.capped;
        if pool.failed.is_none() {
            pool.failed = outcome.failed.map(|f| (v, f));
        }
        pool.found.extend(outcome.found.into_iter().map(|f| (v, f)));
    }
    pool
}

#[cfg(test)]
mod tests;
