//! Lines and line terminators, bytes first.
//!
//! A line terminator is `\r\n`, a lone `\r`, or `\n`; it is part of the line it terminates. The last
//! line of a text may have no terminator. An empty text has no lines; a text ending in a terminator
//! has no empty line after it.

use std::ops::Range;

/// One line: its content and its terminator (empty for a last line without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line without its terminator.
    pub content: &'a [u8],
    /// `\r\n`, `\r`, `\n`, or empty for a last line without one.
    pub eol: &'a [u8],
}

/// The first line terminator at or after `from`: its range.
pub fn next_terminator(text: &[u8], from: usize) -> Option<Range<usize>> {
    let at = from + memchr::memchr2(b'\r', b'\n', &text[from..])?;
    let len = if text[at] == b'\r' && text.get(at + 1) == Some(&b'\n') {
        2
    } else {
        1
    };
    Some(at..at + len)
}

/// The last line terminator that ends at or before `to`.
pub fn prev_terminator(text: &[u8], to: usize) -> Option<Range<usize>> {
    let at = memchr::memrchr2(b'\r', b'\n', &text[..to])?;
    if text[at] == b'\n' && at > 0 && text[at - 1] == b'\r' {
        return Some(at - 1..at + 1);
    }
    if text[at] == b'\r' && text.get(at + 1) == Some(&b'\n') && at + 1 >= to {
        // A CR whose LF lies past `to` ends no line before `to`; look further back.
        return prev_terminator(text, at);
    }
    Some(at..at + 1)
}

/// The line index of a text: where every line starts, built once in one pass, so that the line of
/// an offset is a binary search and a line's bytes are a slice.
///
/// Lines are numbered from zero here (one-based numbers are for people: add one when showing them).
/// A text ending in a terminator has no empty line after it, and an empty text has no lines; the
/// position `text.len()` is then on line `count()`, one past the last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Indexes `text`: linear, one `memchr` pass.
    pub fn new(text: &[u8]) -> LineIndex {
        let mut starts = Vec::new();
        let mut at = 0;
        while at < text.len() {
            starts.push(at);
            at = next_terminator(text, at).map_or(text.len(), |t| t.end);
        }
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// How many lines the text has (a last line without a terminator counts).
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// Where line `k` starts; the text's length for any `k >= count()`, so that
    /// `start(k)..start(k + 1)` is always line `k` with its terminator.
    pub fn start(&self, k: usize) -> usize {
        self.starts.get(k).copied().unwrap_or(self.len)
    }

    /// The bytes of lines `lines` (with their terminators), as a byte range of the text.
    pub fn range(&self, lines: Range<usize>) -> Range<usize> {
        self.start(lines.start)..self.start(lines.end.max(lines.start))
    }

    /// The line holding byte `at`; `count()` for `at >= len`. A position between the CR and the LF of
    /// a CRLF is on the line that CRLF ends.
    pub fn line_of(&self, at: usize) -> usize {
        if at >= self.len {
            return self.count();
        }
        match self.starts.binary_search(&at) {
            Ok(k) => k,
            Err(k) => k - 1,
        }
    }

    /// Line `k` of `text` (the text this index was built from): its content and its terminator.
    /// Past the last line, an empty line.
    pub fn line<'a>(&self, text: &'a [u8], k: usize) -> Line<'a> {
        let whole = &text[self.start(k)..self.start(k + 1)];
        let cut = terminator_len(whole);
        Line {
            content: &whole[..whole.len() - cut],
            eol: &whole[whole.len() - cut..],
        }
    }
}

/// The length of the terminator `bytes` end with: 2 for `\r\n`, 1 for `\n` or a lone `\r`, else 0.
pub fn terminator_len(bytes: &[u8]) -> usize {
    if bytes.ends_with(b"\r\n") {
        2
    } else {
        usize::from(matches!(bytes.last(), Some(b'\n' | b'\r')))
    }
}

/// A line terminator style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ending {
    /// `\n`.
    Lf,
    /// `\r\n`.
    Crlf,
    /// A lone `\r`.
    Cr,
}

impl Ending {
    /// The terminator's bytes.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Ending::Lf => b"\n",
            Ending::Crlf => b"\r\n",
            Ending::Cr => b"\r",
        }
    }

    /// The style of a terminator's bytes (`None` for anything else).
    pub fn of(terminator: &[u8]) -> Option<Ending> {
        match terminator {
            b"\n" => Some(Ending::Lf),
            b"\r\n" => Some(Ending::Crlf),
            b"\r" => Some(Ending::Cr),
            _ => None,
        }
    }

    /// The file's ending style: the style of its first terminator (what new lines of a whole file
    /// should use), or `None` for a text without any. Mixed files are not averaged: the tool layer
    /// counts each kind when it must say a file is mixed.
    pub fn first_in(text: &[u8]) -> Option<Ending> {
        next_terminator(text, 0).and_then(|t| Ending::of(&text[t]))
    }
}

/// Splits `text` into lines with any terminator.
pub fn split_lines(text: &[u8]) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < text.len() {
        match next_terminator(text, start) {
            Some(t) => {
                lines.push(Line {
                    content: &text[start..t.start],
                    eol: &text[t.clone()],
                });
                start = t.end;
            }
            None => {
                lines.push(Line {
                    content: &text[start..],
                    eol: &[],
                });
                break;
            }
        }
    }
    lines
}

/// Splits a model-written text (already `\n`-only) into `(content, has_newline)` lines.
pub fn split_model_lines(text: &str) -> Vec<(&str, bool)> {
    let mut lines: Vec<(&str, bool)> = text
        .split_inclusive('\n')
        .map(|l| match l.strip_suffix('\n') {
            Some(c) => (c, true),
            None => (l, false),
        })
        .collect();
    if lines.is_empty() && !text.is_empty() {
        lines.push((text, false));
    }
    lines
}

/// Counts line terminators in `text`. A `\r` at the very end followed (outside `text`) by `\n` is
/// still counted once, which is right for counting whole lines before a position that never splits
/// a CRLF.
pub fn count_terminators(text: &[u8]) -> usize {
    let mut n = memchr::memchr_iter(b'\n', text).count();
    for at in memchr::memchr_iter(b'\r', text) {
        if text.get(at + 1) != Some(&b'\n') {
            n += 1;
        }
    }
    n
}

/// Turns every `\r\n` and lone `\r` of a model-written text into `\n`: models cannot see carriage
/// returns, so surgical treats any they send as plain line breaks.
pub fn model_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        text.into()
    }
}

/// One-based line numbers of ascending byte positions, in one pass.
pub struct LineCounter<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    /// A counter at the start of `text` (line 1).
    pub fn new(text: &'a [u8]) -> Self {
        LineCounter { text, pos: 0, line: 1 }
    }

    /// The line that position `at` is on. Positions must not go backwards; a position right after a
    /// terminator is on the next line.
    pub fn line_at(&mut self, at: usize) -> usize {
        assert!(at >= self.pos, "LineCounter positions must ascend");
        let at = at.min(self.text.len());
        self.line += count_terminators(&self.text[self.pos..at]);
        // A CR just before `at` whose LF follows `at` was counted as a lone CR; it is not one.
        if at > self.pos && self.text[at - 1] == b'\r' && self.text.get(at) == Some(&b'\n') {
            self.line -= 1;
            self.pos = at - 1;
        } else {
            self.pos = at;
        }
        self.line
    }
}

/// The line a position is on, counted from the start (for error paths that look up one position).
pub fn line_of(text: &[u8], at: usize) -> usize {
    LineCounter::new(text).line_at(at)
}

/// Splits bytes into valid UTF-8 stretches, each followed by the invalid bytes after it (a maximal
/// invalid sequence, as `String::from_utf8_lossy` would replace with one U+FFFD; empty at the end).
///
/// Same pieces as `<[u8]>::utf8_chunks`, but built on `std::str::from_utf8`, whose word-at-a-time
/// ASCII path is several times faster on the mostly-ASCII texts this crate sees.
pub fn utf8_pieces(input: &[u8]) -> impl Iterator<Item = (&str, &[u8])> {
    let mut rest = Some(input);
    std::iter::from_fn(move || {
        let bytes = rest?;
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                rest = None;
                Some((s, &[][..]))
            }
            Err(e) => {
                let valid = e.valid_up_to();
                let bad = e.error_len().unwrap_or(bytes.len() - valid);
                let s = std::str::from_utf8(&bytes[..valid]).expect("valid up to here");
                let tail = &bytes[valid + bad..];
                rest = if tail.is_empty() { None } else { Some(tail) };
                Some((s, &bytes[valid..valid + bad]))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_all_terminators() {
        let lines = split_lines(b"a\r\nb\rc\nd");
        let got: Vec<_> = lines.iter().map(|l| (l.content, l.eol)).collect();
        assert_eq!(
            got,
            vec![(&b"a"[..], &b"\r\n"[..]), (b"b", b"\r"), (b"c", b"\n"), (b"d", b"")]
        );
        assert!(split_lines(b"").is_empty());
        assert_eq!(split_lines(b"x\n").len(), 1);
    }

    #[test]
    fn utf8_pieces_match_std() {
        for input in [
            &b""[..],
            b"abc",
            b"a\xffb",
            b"\xe2\x82",
            b"x\xe2\x82y\xf0\x9f\x98\x80\xff",
        ] {
            let ours: Vec<_> = utf8_pieces(input).collect();
            let std: Vec<_> = input.utf8_chunks().map(|c| (c.valid(), c.invalid())).collect();
            if input.is_empty() {
                assert_eq!(ours, vec![("", &b""[..])]);
            } else {
                assert_eq!(ours, std, "{input:?}");
            }
        }
    }

    #[test]
    fn counts_lines() {
        let t = b"a\r\nb\rc\nd";
        let mut c = LineCounter::new(t);
        assert_eq!(c.line_at(0), 1);
        assert_eq!(c.line_at(3), 2);
        assert_eq!(c.line_at(5), 3);
        assert_eq!(c.line_at(7), 4);
        assert_eq!(line_of(t, 2), 1); // between CR and LF: still line 1
        assert_eq!(line_of(t, 1), 1);
    }

    #[test]
    fn indexes_lines() {
        let t = b"a\r\nb\rc\nd";
        let ix = LineIndex::new(t);
        assert_eq!(ix.count(), 4);
        assert_eq!((ix.start(1), ix.start(3), ix.start(9)), (3, 7, 8));
        assert_eq!(
            (ix.line_of(0), ix.line_of(2), ix.line_of(5), ix.line_of(8)),
            (0, 0, 2, 4)
        );
        assert_eq!(
            ix.line(t, 0),
            Line {
                content: b"a",
                eol: b"\r\n"
            }
        );
        assert_eq!(
            ix.line(t, 3),
            Line {
                content: b"d",
                eol: b""
            }
        );
        assert_eq!(ix.range(1..3), 3..7);
        assert_eq!(LineIndex::new(b"").count(), 0);
        assert_eq!(LineIndex::new(b"x\n").count(), 1);
        assert_eq!(Ending::first_in(t), Some(Ending::Crlf));
        assert_eq!(Ending::first_in(b"x"), None);
    }

    #[test]
    fn terminators_around() {
        let t = b"a\r\nb";
        assert_eq!(next_terminator(t, 0), Some(1..3));
        assert_eq!(prev_terminator(t, 4), Some(1..3));
        assert_eq!(prev_terminator(t, 2), None);
        assert_eq!(split_model_lines("a\nb"), vec![("a", true), ("b", false)]);
        assert_eq!(split_model_lines("a\n"), vec![("a", true)]);
    }
}
