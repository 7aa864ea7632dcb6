//! Lines and line terminators, bytes first.
//!
//! A line terminator is `\r\n`, a lone `\r`, or `\n`; it is part of the line it terminates. The last
//! line of a text may have no terminator. An empty text has no lines; a text ending in a terminator
//! has no empty line after it.
//!
//! Everything in surgical that splits, counts or numbers lines goes through this module: the
//! haystack's [`LineIndex`], the diffs' [`LineCounter`], the `read` view's [`lines`], the census of a
//! file's terminators ([`Endings`]) and its line count ([`count_lines`]). The one exception is the
//! unified patch, whose lines end at `\n` only, as `git apply` reads them: see
//! [`LineCounter::lf_only`].

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

/// The start of the line holding position `p`: right after the last terminator before it, or 0. A
/// position between the CR and the LF of a CRLF is on the line that CRLF ends; `text.len()` is on
/// the last line when the text ends without a terminator, else on the (empty) line after it.
pub fn line_start(text: &[u8], p: usize) -> usize {
    prev_terminator(text, p).map_or(0, |t| t.end)
}

/// Whether position `p` starts a line: it is 0 or right after a terminator (not between the CR and
/// the LF of a CRLF). `text.len()` starts a line when the text ends with a terminator.
pub fn is_line_start(text: &[u8], p: usize) -> bool {
    p == 0 || text[p - 1] == b'\n' || (text[p - 1] == b'\r' && text.get(p) != Some(&b'\n'))
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

    /// The length of the text indexed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text indexed is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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

/// An ASCII line trimmed as `str::trim` trims it (`char::is_whitespace`: tab to carriage return, and
/// space), without checking that it is UTF-8 again.
pub(crate) fn trim_ascii(line: &[u8]) -> &[u8] {
    let blank = |b: &u8| matches!(b, b'\t'..=b'\r' | b' ');
    let start = line.iter().position(|b| !blank(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|b| !blank(b)).map_or(start, |i| i + 1);
    &line[start..end]
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

/// Splits `text` into lines with any terminator (see [`lines`]).
pub(crate) fn split_lines(text: &[u8]) -> Vec<Line<'_>> {
    lines(text).collect()
}

/// The lines of `text`, first to last, each with its content and its terminator: lazily, so taking
/// the first `n` lines reads only as far as their end. An empty text has none; a text ending in a
/// terminator has no empty line after it; a last line without a terminator is a line (with an empty
/// `eol`). A lone `\r` ends a line; a `\r\n` is one terminator.
pub fn lines(text: &[u8]) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// The iterator of [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Lines<'a> {
    /// Where the next line starts (the text's length once every line has been taken).
    pub fn offset(&self) -> usize {
        self.at
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let text = self.text;
        let start = self.at;
        if start >= text.len() {
            return None;
        }
        let t = next_terminator(text, start).unwrap_or(text.len()..text.len());
        self.at = t.end;
        Some(Line {
            content: &text[start..t.start],
            eol: &text[t],
        })
    }
}

impl std::iter::FusedIterator for Lines<'_> {}

/// The lines of `text` as byte slices that keep their terminators (`split_inclusive` on any
/// terminator): `b"a\r\nb\rc"` gives `a\r\n`, `b\r`, `c`. Concatenated, they are `text`; an empty
/// text gives none.
pub fn whole_lines(text: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let start = at;
        at = next_terminator(text, at).map_or(text.len(), |t| t.end);
        Some(&text[start..at])
    })
}

/// How many lines `text` has: one per terminator, plus a last line without one. An empty text has
/// none; `"a\n"` has one, `"a\nb"` two, `"\r\r\n"` two (a lone CR, then a CRLF).
pub fn count_lines(text: &[u8]) -> usize {
    count_terminators(text) + usize::from(ends_open(text))
}

/// Whether `text`'s last line has no terminator (false for an empty text).
pub fn ends_open(text: &[u8]) -> bool {
    !matches!(text.last(), None | Some(b'\n' | b'\r'))
}

/// How many terminators of each style a text has, counted as lines are: a `\r\n` is one CRLF (never
/// a CR and an LF), any other `\r` is a CR. Built by [`Endings::of`] in one linear pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Endings {
    /// `\n` not preceded by `\r`.
    pub lf: usize,
    /// `\r\n`.
    pub crlf: usize,
    /// `\r` not followed by `\n`.
    pub cr: usize,
    /// Whether the last line has no terminator (false for an empty text).
    pub open_end: bool,
}

impl Endings {
    /// Counts the terminators of `text`. A `\r` that is the last byte is a lone CR, even if the text
    /// was cut from a longer one where an `\n` followed.
    pub fn of(text: &[u8]) -> Endings {
        let newlines = memchr::memchr_iter(b'\n', text).count();
        let (mut crlf, mut cr) = (0, 0);
        for at in memchr::memchr_iter(b'\r', text) {
            if text.get(at + 1) == Some(&b'\n') {
                crlf += 1;
            } else {
                cr += 1;
            }
        }
        Endings {
            lf: newlines - crlf,
            crlf,
            cr,
            open_end: ends_open(text),
        }
    }

    /// How many terminators in all.
    pub fn total(self) -> usize {
        self.lf + self.crlf + self.cr
    }

    /// How many lines: one per terminator, plus a last line without one ([`count_lines`]).
    pub fn lines(self) -> usize {
        self.total() + usize::from(self.open_end)
    }

    /// The one style every terminator has; `None` when there are none or when styles are mixed
    /// (tell these apart with [`Endings::total`]).
    pub fn single(self) -> Option<Ending> {
        match (self.lf > 0, self.crlf > 0, self.cr > 0) {
            (true, false, false) => Some(Ending::Lf),
            (false, true, false) => Some(Ending::Crlf),
            (false, false, true) => Some(Ending::Cr),
            _ => None,
        }
    }

    /// Whether more than one style occurs.
    pub fn is_mixed(self) -> bool {
        self.total() > 0 && self.single().is_none()
    }

    /// The file's dominant ending: the most frequent style, ties going to LF, then CRLF; `None`
    /// without terminators. What a rewrite of a mixed file converges on.
    pub fn dominant(self) -> Option<Ending> {
        if self.total() == 0 {
            None
        } else if self.lf >= self.crlf && self.lf >= self.cr {
            Some(Ending::Lf)
        } else if self.crlf >= self.cr {
            Some(Ending::Crlf)
        } else {
            Some(Ending::Cr)
        }
    }
}

/// Splits a model-written text (already `\n`-only) into `(content, has_newline)` lines.
pub(crate) fn split_model_lines(text: &str) -> Vec<(&str, bool)> {
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
    // LFs and lone CRs are counted a block at a time, so that the second look at a block finds it
    // in the cache.
    const BLOCK: usize = 64 << 10;
    let mut n = 0;
    for (k, block) in text.chunks(BLOCK).enumerate() {
        n += memchr::memchr_iter(b'\n', block).count();
        for at in memchr::memchr_iter(b'\r', block) {
            if text.get(k * BLOCK + at + 1) != Some(&b'\n') {
                n += 1;
            }
        }
    }
    n
}

/// A `\n`-only text (a model's, after [`model_newlines`]) with every `\n` written as `ending`:
/// what a whole new file's lines end with. Borrowed when `ending` is LF; a text without a final
/// `\n` gets no terminator at its end; an empty text stays empty.
pub fn with_ending(text: &str, ending: Ending) -> std::borrow::Cow<'_, [u8]> {
    if ending == Ending::Lf {
        return text.as_bytes().into();
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 16);
    for (k, piece) in text.split('\n').enumerate() {
        if k > 0 {
            out.extend_from_slice(ending.bytes());
        }
        out.extend_from_slice(piece.as_bytes());
    }
    out.into()
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

/// One-based line numbers of ascending byte positions, in one pass: the cost of numbering many
/// positions is one walk over the text up to the last of them, never a whole index.
pub struct LineCounter<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
    lf_only: bool,
}

impl<'a> LineCounter<'a> {
    /// A counter at the start of `text` (line 1), with every terminator ending a line.
    pub fn new(text: &'a [u8]) -> Self {
        LineCounter {
            text,
            pos: 0,
            line: 1,
            lf_only: false,
        }
    }

    /// A counter at the start of `text` (line 1) whose lines end at `\n` only, as `diff -u` and
    /// `git apply` split them: a `\r` is then part of a line's content. For unified patches only.
    pub fn lf_only(text: &'a [u8]) -> Self {
        LineCounter {
            lf_only: true,
            ..LineCounter::new(text)
        }
    }

    /// [`LineCounter::new`] for a text whose caller knows whether it holds a CR: without one, every
    /// terminator is a `\n`, and only those are looked for (`has_cr` true is always correct).
    pub(crate) fn knowing_crs(text: &'a [u8], has_cr: bool) -> Self {
        LineCounter {
            lf_only: !has_cr,
            ..LineCounter::new(text)
        }
    }

    /// [`LineCounter::knowing_crs`] resumed at `at`, known to be on `line` (as [`LineCounter::line_at`]
    /// gave it): positions from `at` on are counted without the text before it again.
    pub(crate) fn resumed(text: &'a [u8], at: usize, line: usize, has_cr: bool) -> Self {
        let at = at.min(text.len());
        // As `line_at` leaves it: between a CR and its LF, the counter stays before the CR.
        let pos = if at > 0 && text[at - 1] == b'\r' && text.get(at) == Some(&b'\n') {
            at - 1
        } else {
            at
        };
        LineCounter {
            pos,
            line,
            ..LineCounter::knowing_crs(text, has_cr)
        }
    }

    /// The line that position `at` is on (positions past the end count as the end). Positions must
    /// not go backwards; a position right after a terminator is on the next line; a position between
    /// the CR and the LF of a CRLF is on the line that CRLF ends.
    pub fn line_at(&mut self, at: usize) -> usize {
        assert!(at >= self.pos, "LineCounter positions must ascend");
        let at = at.min(self.text.len());
        if self.lf_only {
            self.line += memchr::memchr_iter(b'\n', &self.text[self.pos..at]).count();
            self.pos = at;
            return self.line;
        }
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

/// `bytes` as text when they are valid UTF-8, like `std::str::from_utf8` but SIMD-accelerated
/// (`simdutf8`, which falls back to portable code where SIMD is missing): the one whole-text check
/// of an edit's exact path (issue 12).
pub(crate) fn utf8_str(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

/// Splits bytes into valid UTF-8 stretches, each followed by the invalid bytes after it (a maximal
/// invalid sequence, as `String::from_utf8_lossy` would replace with one U+FFFD; empty at the end).
///
/// Same pieces as `<[u8]>::utf8_chunks`, but built on [`utf8_str`] (SIMD), several times faster on
/// the mostly-ASCII texts this crate sees.
pub(crate) fn utf8_pieces(input: &[u8]) -> impl Iterator<Item = (&str, &[u8])> {
    let mut rest = Some(input);
    std::iter::from_fn(move || {
        let bytes = rest?;
        match simdutf8::compat::from_utf8(bytes) {
            Ok(s) => {
                rest = None;
                Some((s, &[][..]))
            }
            Err(e) => {
                let valid = e.valid_up_to();
                let bad = e.error_len().unwrap_or(bytes.len() - valid);
                let s = utf8_str(&bytes[..valid]).expect("valid up to here");
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

    /// Terminators are counted a block at a time: a CRLF in any block, whatever its offset in the
    /// block, is one terminator (blocks of 64 KiB, lines of 5 bytes, so the CRs fall at every offset
    /// modulo 5 across blocks).
    #[test]
    fn counts_terminators_across_blocks() {
        let text = b"abc\r\n".repeat(40_000);
        assert_eq!(count_terminators(&text), 40_000);
        let mixed: Vec<u8> = (0..60_000)
            .flat_map(|k| ["ab\r\n", "c\r", "d\n"][k % 3].bytes())
            .collect();
        assert_eq!(count_terminators(&mixed), 60_000);
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
        assert_eq!(Ending::first_in(b"x\ny\r\n"), Some(Ending::Lf));
        assert_eq!(Ending::first_in(b"x\ry\n"), Some(Ending::Cr));
        for ending in [Ending::Lf, Ending::Crlf, Ending::Cr] {
            assert_eq!(Ending::of(ending.bytes()), Some(ending));
        }
        assert_eq!(Ending::of(b"\n\r"), None);
        assert_eq!(Ending::of(b""), None);
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

    #[test]
    fn iterates_lines_lazily() {
        let t = b"a\r\nb\rc\nd";
        let mut it = lines(t);
        assert_eq!(
            it.next(),
            Some(Line {
                content: b"a",
                eol: b"\r\n"
            })
        );
        assert_eq!(it.offset(), 3);
        assert_eq!(it.by_ref().count(), 3);
        assert_eq!(it.offset(), t.len());
        assert_eq!(it.next(), None);
        assert_eq!(lines(b"").count(), 0);
        // A CRLF is one terminator; a lone CR at the end ends the last line; no empty line after it.
        let got: Vec<_> = lines(b"\r\r\n\n").map(|l| l.eol).collect();
        assert_eq!(got, vec![&b"\r"[..], b"\r\n", b"\n"]);
        let got: Vec<_> = lines(b"x\r").map(|l| (l.content, l.eol)).collect();
        assert_eq!(got, vec![(&b"x"[..], &b"\r"[..])]);
    }

    #[test]
    fn whole_lines_keep_terminators() {
        let t = b"a\r\nb\rc\n\nd";
        let got: Vec<_> = whole_lines(t).collect();
        assert_eq!(got, vec![&b"a\r\n"[..], b"b\r", b"c\n", b"\n", b"d"]);
        assert_eq!(got.concat(), t);
        assert_eq!(whole_lines(b"").count(), 0);
        assert_eq!(whole_lines(b"\r\n").collect::<Vec<_>>(), vec![&b"\r\n"[..]]);
    }

    #[test]
    fn counts_lines_and_endings() {
        // (text, lf, crlf, cr, open end, lines, single, dominant)
        type Case = (
            &'static [u8],
            usize,
            usize,
            usize,
            bool,
            usize,
            Option<Ending>,
            Option<Ending>,
        );
        let cases: [Case; 9] = [
            (b"", 0, 0, 0, false, 0, None, None),
            (b"one line", 0, 0, 0, true, 1, None, None),
            (b"a\nb\n", 2, 0, 0, false, 2, Some(Ending::Lf), Some(Ending::Lf)),
            (b"a\r\nb", 0, 1, 0, true, 2, Some(Ending::Crlf), Some(Ending::Crlf)),
            (b"a\rb\r", 0, 0, 2, false, 2, Some(Ending::Cr), Some(Ending::Cr)),
            (b"a\r\nb\nc\r\n", 1, 2, 0, false, 3, None, Some(Ending::Crlf)),
            (b"\r\r\n\n", 1, 1, 1, false, 3, None, Some(Ending::Lf)),
            (b"\r\r\r\n", 0, 1, 2, false, 3, None, Some(Ending::Cr)),
            (b"\n\n\r\n\r\n", 2, 2, 0, false, 4, None, Some(Ending::Lf)),
        ];
        for (text, lf, crlf, cr, open_end, n, single, dominant) in cases {
            let e = Endings::of(text);
            assert_eq!((e.lf, e.crlf, e.cr, e.open_end), (lf, crlf, cr, open_end), "{text:?}");
            assert_eq!(e.total(), lf + crlf + cr, "{text:?}");
            assert_eq!(e.lines(), n, "{text:?}");
            assert_eq!(count_lines(text), n, "{text:?}");
            assert_eq!(LineIndex::new(text).count(), n, "{text:?}");
            assert_eq!(e.single(), single, "{text:?}");
            assert_eq!(e.is_mixed(), e.total() > 0 && single.is_none(), "{text:?}");
            assert_eq!(e.dominant(), dominant, "{text:?}");
        }
        assert!(ends_open(b"a") && !ends_open(b"") && !ends_open(b"a\r") && !ends_open(b"a\n"));
    }

    #[test]
    fn endings_of_a_cut_crlf() {
        // A CRLF split at a boundary: the CR ends the first half's last line, the LF the second's
        // first; counted whole, it is one terminator.
        let t = b"a\r\nb";
        let (head, tail) = t.split_at(2);
        assert_eq!((Endings::of(head).cr, Endings::of(tail).lf), (1, 1));
        assert_eq!(Endings::of(t).crlf, 1);
        assert_eq!(count_lines(t), 2);
    }

    #[test]
    fn counts_lf_only_lines() {
        let t = b"a\r\nb\rc\nd";
        let mut c = LineCounter::lf_only(t);
        assert_eq!(c.line_at(0), 1);
        assert_eq!(c.line_at(2), 1);
        assert_eq!(c.line_at(3), 2);
        assert_eq!(c.line_at(5), 2); // a lone CR does not end a line here
        assert_eq!(c.line_at(7), 3);
        assert_eq!(c.line_at(100), 3);
        let mut any = LineCounter::new(t);
        assert_eq!(any.line_at(100), 4);
        assert_eq!(LineCounter::new(b"").line_at(0), 1);
    }

    #[test]
    fn line_starts_around_a_crlf() {
        let t = b"a\r\nb\rc";
        let starts: Vec<_> = (0..=t.len()).map(|p| line_start(t, p)).collect();
        assert_eq!(starts, vec![0, 0, 0, 3, 3, 5, 5]);
        let is: Vec<_> = (0..=t.len()).map(|p| is_line_start(t, p)).collect();
        assert_eq!(is, vec![true, false, false, true, false, true, false]);
        assert!(is_line_start(b"a\n", 2) && !is_line_start(b"a", 1) && is_line_start(b"", 0));
        assert_eq!(line_start(b"", 0), 0);
        assert_eq!(line_start(b"a\n", 2), 2);
    }

    /// Every text of up to `max` bytes over `a`, `\r` and `\n`: each run of CRs and LFs a text
    /// can hold (CR CR, LF LF, LF CR, CR LF, a CRLF cut by a position), at either end and between
    /// lines.
    fn small_texts(max: u32) -> Vec<Vec<u8>> {
        (0..=max)
            .flat_map(|len| {
                (0..3usize.pow(len)).map(move |mut code| {
                    (0..len)
                        .map(|_| {
                            let b = [b'a', b'\r', b'\n'][code % 3];
                            code /= 3;
                            b
                        })
                        .collect()
                })
            })
            .collect()
    }

    /// The terminators of `text`, read left to right by the definition (a CR followed by an LF is
    /// one terminator, any other CR or LF is one alone): the reference the per-line functions are
    /// checked against.
    fn reference_terminators(text: &[u8]) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let len = match (text[at], text.get(at + 1)) {
                (b'\r', Some(b'\n')) => 2,
                (b'\r' | b'\n', _) => 1,
                _ => 0,
            };
            if len > 0 {
                found.push(at..at + len);
            }
            at += len.max(1);
        }
        found
    }

    #[test]
    fn per_line_endings_agree_with_a_reference_at_every_position() {
        // Issue 16's mutation run over the per-line endings: each function at every position of
        // every small text, against the reference's terminators.
        for text in small_texts(7) {
            let all = reference_terminators(&text);
            let index = LineIndex::new(&text);
            let ended_by = |at: usize| all.iter().filter(|t| t.end <= at).count();
            for p in 0..=text.len() {
                let shown = String::from_utf8_lossy(&text);
                // From `p` on, the bytes before it unseen (an LF right after `p` is one alone).
                let next = reference_terminators(&text[p..])
                    .first()
                    .map(|t| p + t.start..p + t.end);
                assert_eq!(next_terminator(&text, p), next, "next_terminator({shown:?}, {p})");
                let prev = all.iter().rfind(|t| t.end <= p).cloned();
                assert_eq!(prev_terminator(&text, p), prev, "prev_terminator({shown:?}, {p})");
                assert_eq!(
                    line_start(&text, p),
                    prev.map_or(0, |t| t.end),
                    "line_start({shown:?}, {p})"
                );
                let line = if p < text.len() { ended_by(p) } else { index.count() };
                assert_eq!(index.line_of(p), line, "LineIndex::line_of({shown:?}, {p})");
                assert_eq!(line_of(&text, p), 1 + ended_by(p), "line_of({shown:?}, {p})");
                // Of the bytes before `p` alone (a CR whose LF follows `p` ends them).
                let tail = reference_terminators(&text[..p])
                    .last()
                    .filter(|t| t.end == p)
                    .map_or(0, |t| t.len());
                assert_eq!(terminator_len(&text[..p]), tail, "terminator_len({shown:?}[..{p}])");
                // Resumed at `p` on its line, a counter agrees with one counted from the start.
                let has_cr = text.contains(&b'\r');
                for q in p..=text.len() {
                    let mut resumed = LineCounter::resumed(&text, p, line_of(&text, p), has_cr);
                    assert_eq!(resumed.line_at(q), 1 + ended_by(q), "resumed({shown:?}, {p}) at {q}");
                }
            }
            let lf_only = 1 + text.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(LineCounter::lf_only(&text).line_at(text.len()), lf_only);
        }
    }

    #[test]
    fn writes_an_ending() {
        assert_eq!(&*with_ending("a\nb\n", Ending::Crlf), b"a\r\nb\r\n");
        assert_eq!(&*with_ending("a\n\nb", Ending::Cr), b"a\r\rb");
        assert_eq!(&*with_ending("a\nb", Ending::Lf), b"a\nb");
        assert!(matches!(with_ending("a\n", Ending::Lf), std::borrow::Cow::Borrowed(_)));
        assert_eq!(&*with_ending("", Ending::Crlf), b"");
        assert_eq!(&*with_ending("\n", Ending::Crlf), b"\r\n");
    }
}
