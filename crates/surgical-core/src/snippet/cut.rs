//! The snippet cut at its marker lines into segments.

use crate::snippet::keys::{indent_of, key, FileLines, Keying};
use crate::snippet::types::SnippetError;
use crate::text::marker::{self, TextKind};

/// One line of the snippet.
pub(crate) struct SnippetLine<'s> {
    pub(crate) text: &'s str,
    /// One-based line in the snippet.
    pub(crate) number: usize,
}

/// The code lines between two markers.
pub(crate) struct Segment<'s> {
    pub(crate) lines: Vec<SnippetLine<'s>>,
}

/// One way to read the snippet's marker-like lines: its segments, and whether it starts and ends
/// with a marker.
pub(crate) struct Variant<'s> {
    pub(crate) segments: Vec<Segment<'s>>,
    pub(crate) first_is_marker: bool,
    pub(crate) last_is_marker: bool,
}

/// At most this many marker-like lines the file holds are read both ways (2^n variants); a snippet
/// with more is refused ([`SnippetError::MarkerLike`]).
pub(crate) const MAX_DOUBTFUL: usize = 3;

/// Whether `line` reads as a marker in a file of `kind` (the grammar of [`crate::marker`], strong
/// or weak).
pub(crate) fn reads_as_marker(line: &str, kind: TextKind) -> bool {
    marker::read(line, kind).is_some()
}

/// The readings of the snippet's lines: a marker-like line the file holds too (`...`, `// ...`)
/// may be either, so each is tried both ways (up to [`MAX_DOUBTFUL`] of them), the way its
/// neighbours in the file suggest first.
pub(crate) fn variants<'s>(
    snippet: &'s str,
    file: &FileLines<'_>,
    kind: TextKind,
) -> Result<Vec<Variant<'s>>, SnippetError> {
    let mut all: Vec<&str> = snippet.split('\n').collect();
    if snippet.ends_with('\n') {
        all.pop();
    }
    let first = marker_mask(&all, file, kind);
    let doubtful: Vec<usize> = (0..all.len())
        .filter(|&i| reads_as_marker(all[i], kind) && file.count(key(all[i].as_bytes(), Keying::Indented)) > 0)
        .collect();
    if doubtful.len() > MAX_DOUBTFUL {
        return Err(SnippetError::MarkerLike {
            lines: doubtful.iter().map(|i| i + 1).collect(),
        });
    }
    let mut masks = vec![first.clone()];
    for bits in 0..1usize << doubtful.len() {
        let mut mask = first.clone();
        for (b, &i) in doubtful.iter().enumerate() {
            mask[i] = bits >> b & 1 == 1;
        }
        if !masks.contains(&mask) {
            masks.push(mask);
        }
    }
    Ok(masks
        .into_iter()
        .map(|mask| {
            let edge = |mut it: Box<dyn Iterator<Item = usize>>| {
                it.find(|&i| !all[i].trim().is_empty()).is_some_and(|i| mask[i])
            };
            Variant {
                first_is_marker: edge(Box::new(0..all.len())),
                last_is_marker: edge(Box::new((0..all.len()).rev())),
                segments: segments_of(&all, &mask),
            }
        })
        .collect())
}

/// Which snippet lines are markers, as their neighbours suggest: a line that reads as a marker is
/// content where the file holds it next to a line equal to its neighbour in the snippet, or where
/// it is a bare `...` under a line ending with `:` and the file holds `...` so indented (Python's
/// stub body).
fn marker_mask(all: &[&str], file: &FileLines<'_>, kind: TextKind) -> Vec<bool> {
    let k = |s: &str| key(s.as_bytes(), Keying::Indented).to_vec();
    let stub_body = |i: usize| -> bool {
        let opener = all[..i].iter().rev().find(|l| !l.trim().is_empty());
        all[i].trim() == "..."
            && opener.is_some_and(|o| {
                o.trim_end().ends_with(':') && indent_of(o.as_bytes()).len() < indent_of(all[i].as_bytes()).len()
            })
            && file.count(&k(all[i])) > 0
    };
    let content_here = |i: usize| -> bool {
        let me = k(all[i]);
        file.places_in(&me, 0, file.len()).iter().any(|&j| {
            let before = i > 0 && j > 0 && !all[i - 1].trim().is_empty() && file.keys[j - 1] == k(all[i - 1]);
            let after = i + 1 < all.len()
                && j + 1 < file.len()
                && !all[i + 1].trim().is_empty()
                && file.keys[j + 1] == k(all[i + 1]);
            before || after
        }) || stub_body(i)
    };
    (0..all.len())
        .map(|i| reads_as_marker(all[i], kind) && !content_here(i))
        .collect()
}

/// The snippet's segments: runs of code lines between markers (`marker[i]`). Segments of blank
/// lines only carry nothing and are dropped.
fn segments_of<'s>(all: &[&'s str], marker: &[bool]) -> Vec<Segment<'s>> {
    let mut out = Vec::new();
    let mut current: Vec<SnippetLine<'s>> = Vec::new();
    for (i, line) in all.iter().enumerate() {
        if marker[i] {
            if !current.is_empty() {
                out.push(Segment {
                    lines: std::mem::take(&mut current),
                });
            }
        } else {
            current.push(SnippetLine {
                text: line,
                number: i + 1,
            });
        }
    }
    if !current.is_empty() {
        out.push(Segment { lines: current });
    }
    out.retain(|s| s.lines.iter().any(|l| !l.text.trim().is_empty()));
    out
}
