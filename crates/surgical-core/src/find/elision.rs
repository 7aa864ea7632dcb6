//! The `elision` tier: a needle whose middle is left out with a marker line (`...`, `// ...`,
//! `# ...`, `// ... existing code ...`, `/* ... */`, `<!-- ... -->`, at any indentation), which the
//! replacement keeps at the same place.
//!
//! The needle is cut at its marker lines into *pieces*. Each piece is found alone, by the tiers up to
//! `escapes` (the tiers it would match by if the model had sent it alone), and every piece after the
//! first must start after the one before it ends, at the start of a line (or after blanks only). A
//! piece is placed where every such reading puts it: the earliest reading (each piece as early as
//! the one before allows) and the latest (each as late as the one after allows) bound all others,
//! so a piece at the same place in both has one place. A piece they place apart (a `}` or a line
//! repeated in the file) is *unpinned*: taken nearest its neighbours, and refused
//! ([`ElisionProblem::Ambiguous`]) unless the replacement keeps it as it is, since every reading
//! then writes the same bytes. The file lines between two pieces are what the marker stands for:
//! they are not part of any replaced span, so they stay byte for byte as the file has them.
//!
//! The replacement is cut at its own marker lines the same way, and piece `k` of the needle is
//! replaced by piece `k` of the replacement, transported like a match of the tier that found the
//! piece (see `changes::transport` and the `conflict` error). A replacement with fewer or more marker
//! lines than the needle is refused ([`ElisionProblem::MarkersDiffer`]): it would delete or rewrite
//! file lines the model never showed. A marker that is the file's own text (Python's `...` body)
//! never gets here: the needle as written matches by a stricter tier first.

use std::ops::Range;

use crate::find::forgiven::{ElidedLines, Forgiven};
use crate::find::haystack::Haystack;
use crate::find::needle::{ElisionProblem, Match, Miss, Missed, SearchAgain, Unpinned, MAX_LISTED};
use crate::find::scope::Scope;
use crate::find::tier::Tier;
use crate::text::line_numbers::strip_line_numbers;
use crate::text::lines::{is_line_start, line_start, next_terminator, split_model_lines};
use crate::text::placeholder::is_omission_marker;

/// A text cut at its marker lines.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The pieces between markers, in order (one more than the markers): their lines with their line
    /// breaks (the last piece ends as the text does).
    pub pieces: Vec<String>,
    /// Each piece's first and last line, one-based (`first > last` for an empty piece).
    pub lines: Vec<(usize, usize)>,
    /// Each marker's one-based line and text, trimmed.
    pub markers: Vec<(usize, String)>,
}

/// `text` (`\n`-only) cut at its marker lines (see [`is_omission_marker`]).
pub(crate) fn cut(text: &str) -> Cut {
    let mut out = Cut {
        pieces: vec![String::new()],
        lines: vec![(1, 0)],
        markers: Vec::new(),
    };
    for (i, (line, newline)) in split_model_lines(text).into_iter().enumerate() {
        let number = i + 1;
        if is_omission_marker(line) {
            out.markers.push((number, line.trim().to_string()));
            out.pieces.push(String::new());
            out.lines.push((number + 1, number));
            continue;
        }
        let piece = out.pieces.last_mut().expect("a piece");
        piece.push_str(line);
        if newline {
            piece.push('\n');
        }
        out.lines.last_mut().expect("a piece").1 = number;
    }
    out
}

impl Haystack<'_> {
    /// The elision tier for `old`: `None` when it has no marker line (or carries line numbers and a
    /// piece is not found: the needle without its numbers is tried next); a [`Miss::Elision`] when its
    /// pieces cannot be placed safely.
    ///
    /// The pieces are found with `again`, the tier ladder itself (up to `escapes`).
    pub(crate) fn elided(
        &self,
        old: &str,
        scope: &Scope,
        loosest: Tier,
        again: &SearchAgain<'_>,
    ) -> Result<Option<Match>, Miss> {
        let cut = cut(old);
        if cut.markers.is_empty() {
            return Ok(None);
        }
        let marker_miss = |k: usize, problem: ElisionProblem| Miss::Elision {
            line: cut.markers[k].0,
            marker: cut.markers[k].1.clone(),
            problem,
        };
        for k in 0..cut.markers.len() {
            if cut.pieces[k].trim().is_empty() || cut.pieces[k + 1].trim().is_empty() {
                return Err(marker_miss(k, ElisionProblem::Unanchored));
            }
        }
        // The pieces are found by the tiers a needle without markers reaches (no elision within).
        let inner = loosest.min(Tier::Escapes);
        let numbered = {
            let lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
            strip_line_numbers(&lines).is_some()
        };
        let n = cut.pieces.len();
        // The marker next to piece `k` (the one before it, or after it for the first piece).
        let marker_of = |k: usize| k.saturating_sub(1);
        let text = self.text();
        let lines = self.lines();
        // Piece `k` searched in `range` of the scope (all of it for `None`).
        let search = |k: usize, range: Option<Range<usize>>| -> Result<Search, Miss> {
            let within;
            let scope = match range {
                Some(r) => {
                    within = narrowed(scope, r);
                    &within
                }
                None => scope,
            };
            match again(cut.pieces[k].as_str(), false, scope, inner) {
                Ok(found) => Ok(Search::One(Box::new(found))),
                Err(Missed {
                    miss: Miss::NotFound { .. },
                    ..
                }) => Ok(Search::None),
                Err(Missed {
                    miss: Miss::Ambiguous { starts, total, .. },
                    ..
                }) => Ok(Search::Many { starts, total }),
                Err(missed) => Err(missed.miss),
            }
        };
        let ambiguous = |k: usize, starts: &[usize], total: usize| {
            let at = starts.iter().take(MAX_LISTED).map(|&s| lines.line_of(s) + 1).collect();
            marker_miss(
                marker_of(k),
                ElisionProblem::Ambiguous {
                    lines: cut.lines[k],
                    at,
                    total,
                },
            )
        };
        // After a marker, a piece starts a line (the file's indentation may come before it).
        let starts_line = |k: usize, m: &Match| {
            let start = m.spans[0].start;
            let prefix = &text[line_start(text, start)..start];
            k == 0 || is_line_start(text, start) || prefix.iter().all(|b| matches!(b, b' ' | b'\t'))
        };
        // The start of the line after the one holding `at` (any terminator: LF, CRLF, a lone CR).
        let next_line = |at: usize| next_terminator(text, at).map_or(text.len(), |t| t.end);
        let (scope_start, scope_end) = match &scope.within {
            Some(r) => (r.start, r.end),
            None => (0, text.len()),
        };
        // The first occurrence of piece `k` that starts a line in `from..to`. Occurrences that cannot
        // be told apart one by one (overlapping ones) are ambiguous.
        let first = |k: usize, mut from: usize, to: usize| -> Result<Option<Match>, Miss> {
            for _ in 0..MAX_LISTED {
                let range = (from > scope_start || to < scope_end).then_some(from..to.max(from));
                let m = match search(k, range)? {
                    Search::None => return Ok(None),
                    Search::One(m) => *m,
                    Search::Many { starts, total } => {
                        let lowest = starts.iter().copied().min().unwrap_or(from);
                        let second = starts.iter().copied().filter(|&s| s > lowest).min().unwrap_or(to);
                        match search(k, Some(from..second))? {
                            Search::One(m) if m.spans[0].start == lowest => *m,
                            _ => return Err(ambiguous(k, &starts, total)),
                        }
                    }
                };
                if starts_line(k, &m) {
                    return Ok(Some(m));
                }
                from = next_line(m.spans[0].start);
            }
            Ok(None)
        };
        // The last occurrence of piece `k` in `from..to` (which must start a line).
        let last = |k: usize, mut from: usize, to: usize| -> Result<Option<Match>, Miss> {
            let mut seen = (Vec::new(), 0);
            for _ in 0..MAX_LISTED {
                let range = (from > scope_start || to < scope_end).then_some(from..to.max(from));
                match search(k, range)? {
                    Search::None => return Ok(None),
                    Search::One(m) if starts_line(k, &m) => return Ok(Some(*m)),
                    Search::One(m) => return Err(ambiguous(k, &[m.spans[0].start], 1)),
                    Search::Many { starts, total } => {
                        let highest = starts.iter().copied().max().unwrap_or(from);
                        if total > starts.len() {
                            from = highest;
                            seen = (starts, total);
                            continue;
                        }
                        match search(k, Some(highest..to))? {
                            Search::One(m) if m.spans[0].start == highest && starts_line(k, &m) => return Ok(Some(*m)),
                            _ => return Err(ambiguous(k, &starts, total)),
                        }
                    }
                }
            }
            Err(ambiguous(k, &seen.0, seen.1))
        };
        let not_found = |k: usize| {
            if numbered {
                Ok(None)
            } else {
                Err(marker_miss(
                    marker_of(k),
                    ElisionProblem::NotFound { lines: cut.lines[k] },
                ))
            }
        };
        let out_of_order = |k: usize, at: usize, previous_end: usize| {
            marker_miss(
                marker_of(k),
                ElisionProblem::OutOfOrder {
                    lines: cut.lines[k],
                    at: lines.line_of(at) + 1,
                    previous_ends: lines.line_of(previous_end.saturating_sub(1)) + 1,
                },
            )
        };
        // Every reading places the pieces in order. The earliest reading (each piece as early as it can
        // be after the one before) and the latest (each as late as it can be before the one after)
        // bound every other: a piece at the same place in both is at that place in every reading.
        let mut earliest: Vec<Match> = Vec::with_capacity(n);
        for k in 0..n {
            let from = earliest.last().map_or(scope_start, |p| p.spans[0].end);
            match first(k, from, scope_end)? {
                Some(m) => earliest.push(m),
                None if k == 0 => return not_found(0),
                // Found elsewhere only: say where, else that it is nowhere.
                None => match first(k, scope_start, scope_end) {
                    Ok(Some(m)) => return Err(out_of_order(k, m.spans[0].start, from)),
                    _ => return not_found(k),
                },
            }
        }
        let mut latest: Vec<Match> = Vec::with_capacity(n);
        for k in (0..n).rev() {
            let to = latest.last().map_or(scope_end, |p| p.spans[0].start);
            match last(k, scope_start, to)? {
                Some(m) => latest.push(m),
                None => return not_found(k),
            }
        }
        latest.reverse();
        // A piece with more than one place is taken only if the model changes nothing in it: then
        // every reading writes the same bytes (`Changes` refuses otherwise, with this error).
        let mut unpinned = Vec::new();
        for k in 0..n {
            let (e, l) = (&earliest[k].spans[0], &latest[k].spans[0]);
            if e != l {
                let starts = match search(k, Some(e.start..l.end))? {
                    Search::Many { starts, .. } => starts,
                    _ => vec![e.start, l.start],
                };
                let total = starts.len();
                let Miss::Elision { problem, .. } = ambiguous(k, &starts, total) else {
                    unreachable!("an elision miss")
                };
                // A piece ending in a line of blanks without its line break may be written onto a
                // blank line of the file as blanks (the file's line cannot be told from the needle's):
                // its place would decide the bytes.
                let piece = &cut.pieces[k];
                let tail = &piece[piece.rfind('\n').map_or(0, |i| i + 1)..];
                if !tail.is_empty() && tail.trim().is_empty() {
                    return Err(marker_miss(marker_of(k), problem));
                }
                let (line, marker) = cut.markers[marker_of(k)].clone();
                unpinned.push(Unpinned {
                    piece: k,
                    line,
                    marker,
                    problem,
                });
            }
        }
        // The reading that keeps an unsure first piece nearest the rest (and else an unsure last one
        // nearest the first): the lines a marker stands for as few as the pieces allow.
        let parts = if unpinned.first().is_some_and(|u| u.piece == 0) {
            latest
        } else {
            earliest
        };
        let markers = (0..cut.markers.len())
            .map(|k| {
                let gap: Range<usize> = parts[k].spans[0].end..parts[k + 1].spans[0].start;
                let first = lines.line_of(gap.start);
                // The gap ends at a line start, or after the blanks that indent the next piece.
                let end = lines.line_of(gap.end);
                ElidedLines {
                    marker: cut.markers[k].1.clone(),
                    needle_line: cut.markers[k].0,
                    first: first + 1,
                    count: end.saturating_sub(first),
                }
            })
            .collect();
        let mut also: Vec<Forgiven> = Vec::new();
        for f in parts.iter().filter_map(|p| p.forgiven.clone()) {
            if !also.contains(&f) {
                also.push(f);
            }
        }
        let mut found = Match::elided(old, parts, Forgiven::Elided { markers, also });
        found.unpinned = unpinned;
        Ok(Some(found))
    }
}

/// What a search for one piece found.
enum Search {
    None,
    One(Box<Match>),
    Many { starts: Vec<usize>, total: usize },
}

/// `scope` narrowed to `range` (an empty range where they do not meet).
fn narrowed(scope: &Scope, range: Range<usize>) -> Scope {
    let range = match &scope.within {
        Some(r) => {
            let start = r.start.max(range.start);
            start..r.end.min(range.end).max(start)
        }
        None => range,
    };
    scope.clone().within(range)
}

impl Match {
    fn elided(old: &str, pieces: Vec<Match>, forgiven: Forgiven) -> Match {
        let start = pieces.first().expect("a piece").spans[0].start;
        let end = pieces.last().expect("a piece").spans[0].end;
        let open_end = pieces.last().expect("a piece").open_end;
        Match {
            tier: Tier::Elision,
            spans: std::iter::once(start..end).collect(),
            forgiven: Some(forgiven),
            indented_first_line: false,
            old: old.to_string(),
            fold: crate::text::normalize::Fold::EXACT,
            unescape_new: false,
            unnumber_new: None,
            lines: None,
            open_end,
            pieces,
            unpinned: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_at_markers() {
        let c = cut("a\n  // ...\nb\nc\n# ... rest of it ...\nd");
        assert_eq!(c.pieces, vec!["a\n", "b\nc\n", "d"]);
        assert_eq!(c.lines, vec![(1, 1), (3, 4), (6, 6)]);
        assert_eq!(
            c.markers,
            vec![(2, "// ...".to_string()), (5, "# ... rest of it ...".to_string())]
        );
        let none = cut("a\nb\n");
        assert!(none.markers.is_empty());
        assert_eq!(none.pieces, vec!["a\nb\n"]);
    }
}
