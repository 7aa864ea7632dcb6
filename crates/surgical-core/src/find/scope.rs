//! Where a needle may match: anywhere, inside a byte range, or only as whole lines.

use std::ops::Range;

use crate::text::fold::is_line_blank;
use crate::text::lines::{is_line_start, line_start};

/// Where matches may lie in the searched text, for uniqueness too: a match outside the scope does not
/// exist for [`crate::Haystack::find`], so it neither lands an edit nor makes one ambiguous.
///
/// Build with [`Scope::everywhere`] and the setters; the value is immutable and reusable. Bytes outside
/// the matched spans are never affected by a scope: it only narrows where edits may land (a patch's
/// `@@` anchor, the lines after the previous hunk, a line range of the file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    pub(crate) within: Option<Range<usize>>,
    pub(crate) whole_lines: bool,
    pub(crate) indented_first_line: bool,
    pub(crate) numbers_as_written: bool,
}

impl Scope {
    /// Matches may lie anywhere.
    pub fn everywhere() -> Scope {
        Scope::default()
    }

    /// Only matches inside `range` (byte offsets of the searched text) count. To search after a given
    /// line, pass `index.start(line)..text.len()` with a [`crate::lines::LineIndex`]; for a line range,
    /// [`crate::lines::LineIndex::range`].
    pub fn within(self, range: Range<usize>) -> Scope {
        Scope {
            within: Some(range),
            ..self
        }
    }

    /// Only matches that are whole lines count: a match starts at a line start and ends at a line end
    /// (or right after a terminator, when the needle ends with a line break, or at the end of the
    /// text). For callers whose edits are made of lines (patch hunks, SEARCH/REPLACE blocks).
    ///
    /// Two cases a plain "starts and ends a line" test would get wrong are taken as whole lines:
    /// - a needle whose first line is blank, under the tiers that trim trailing blanks: the file's
    ///   line may hold blanks the needle's does not, and the match takes that whole line;
    /// - a needle ending with a line break, at the end of a text whose last line has none: the needle's
    ///   last line break stands for the end of the text, and when the replacement also ends with a
    ///   line break, that one is dropped too, so the text still ends without one.
    pub fn whole_lines(self) -> Scope {
        Scope {
            whole_lines: true,
            ..self
        }
    }

    /// With [`Scope::whole_lines`]: a match of the text tiers may also start after spaces and tabs on
    /// its first line (the file indents that line more than the needle does). The match starts after
    /// them, so the file's indentation is kept, and [`crate::Match::indented_first_line`] says so.
    /// A hunk of one line whose indentation differs is the typical case.
    pub fn indented_first_line(self) -> Scope {
        Scope {
            indented_first_line: true,
            ..self
        }
    }

    /// Line-number prefixes (`12 | `, `12→`, `12<TAB>`) on every line of a needle are text like any
    /// other: without this, a needle found nowhere as written is searched again without them (see
    /// [`crate::line_numbers`]). For callers that decide about such prefixes themselves, as the patch
    /// formats do (a unified diff's lines never come from a read view).
    pub fn numbers_as_written(self) -> Scope {
        Scope {
            numbers_as_written: true,
            ..self
        }
    }

    /// The byte range matches must lie in, if any.
    pub fn range(&self) -> Option<&Range<usize>> {
        self.within.as_ref()
    }

    /// Whether only whole lines count.
    pub fn is_whole_lines(&self) -> bool {
        self.whole_lines
    }

    pub(crate) fn is_everything(&self) -> bool {
        self.within.is_none() && !self.whole_lines
    }

    /// The span in `text` of a match of original bytes `start..end`, if it counts: under whole lines,
    /// a start after only blanks moves to its line's start when `blank_first_line` (the match's first
    /// line is blank once normalized), and stays put when the scope allows an indented first line.
    pub(crate) fn place(&self, text: &[u8], start: usize, end: usize, blank_first_line: bool) -> Option<Range<usize>> {
        let mut start = start;
        if self.whole_lines {
            if !is_line_start(text, start) {
                let line = line_start(text, start);
                let prefix = &text[line..start];
                if blank_first_line && is_blank(prefix) {
                    start = line;
                } else if !(self.indented_first_line && prefix.iter().all(|b| matches!(b, b' ' | b'\t'))) {
                    return None;
                }
            }
            if !is_line_end(text, end) {
                return None;
            }
        }
        if let Some(r) = &self.within {
            if start < r.start || end > r.end {
                return None;
            }
        }
        Some(start..end)
    }
}

fn is_blank(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes).chars().all(is_line_blank)
}

/// Right before a terminator, right after one, or at the end.
fn is_line_end(text: &[u8], p: usize) -> bool {
    p == text.len()
        || matches!(text[p], b'\r' | b'\n') && !(p > 0 && text[p - 1] == b'\r' && text[p] == b'\n')
        || is_line_start(text, p)
}
