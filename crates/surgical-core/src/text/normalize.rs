//! Normalized views of a text, each with an exact map back to the original bytes.
//!
//! Every matching tier searches a *normalized* copy of the file and of `oldText`. A match found there
//! is only useful if it can be turned back into a byte range of the original, so the normalizer
//! records how it got from one to the other. It works in *units*: the smallest pieces of the
//! original that normalize independently of their neighbours. A unit is one of:
//!
//! * a line terminator (`\r\n`, lone `\r`, or `\n`), which always normalizes to `\n`;
//! * a maximal run of bytes that are not valid UTF-8, which normalizes to U+FFFD (so a model that
//!   copied the replacement character from rendered output still matches, and the bytes themselves
//!   are carried through by the splice, never the U+FFFD);
//! * a run of trailing blanks at the end of a line, which normalizes to nothing when trimming is on;
//! * a *segment* of non-ASCII text: a character and the following characters that Unicode
//!   normalization could combine with it (see [`safe_before`]);
//! * any other character.
//!
//! Only units whose normalized form differs from their original bytes are stored; everything in
//! between is identity, so an LF file with plain text costs no map at all, and the map of a CRLF
//! file costs one entry per line. Positions are `u32`: the file layer refuses files of 4 GiB or more
//! long before they get here.
//!
//! A position in the normalized text maps back to the original only if it is not strictly inside a
//! unit. A match that starts or ends inside a unit (a needle `i` inside the ligature `ﬁ`, say) has no
//! exact counterpart in the original, and the matcher refuses it rather than widen it.

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;

use unicode_normalization::char::{canonical_combining_class, decompose_compatible};
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

use crate::text::fold::{fold_typographic, is_special_space};

/// What a normalization folds. Line terminators always fold to `\n` and invalid UTF-8 always folds to
/// U+FFFD, since a model can see neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fold {
    /// Drop spaces and tabs (and, with `special_spaces` or `unicode`, special spaces) at line ends.
    pub trim_trailing: bool,
    /// Fold NBSP and the other special spaces to U+0020.
    pub special_spaces: bool,
    /// NFKC, then typographic quotes and dashes to ASCII (implies `special_spaces`).
    pub unicode: bool,
}

impl Fold {
    /// The `exact` tier: only line terminators (and invalid UTF-8) fold.
    pub(crate) const EXACT: Fold = Fold {
        trim_trailing: false,
        special_spaces: false,
        unicode: false,
    };
    /// The `trailing_whitespace` tier.
    pub(crate) const TRAILING: Fold = Fold {
        trim_trailing: true,
        special_spaces: false,
        unicode: false,
    };
    /// The `unicode` tier.
    pub(crate) const UNICODE: Fold = Fold {
        trim_trailing: true,
        special_spaces: true,
        unicode: true,
    };
    /// Everything a model cannot see, and nothing it can: used to decide ambiguity.
    pub(crate) const INVISIBLE: Fold = Fold {
        trim_trailing: true,
        special_spaces: true,
        unicode: false,
    };

    /// The same fold without trimming: used inside one line whose trailing blanks were split off.
    pub(crate) fn without_trim(self) -> Fold {
        Fold {
            trim_trailing: false,
            ..self
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Unit {
    orig_start: u32,
    orig_len: u32,
    norm_start: u32,
    norm_len: u32,
}

impl Unit {
    fn orig_end(&self) -> usize {
        (self.orig_start + self.orig_len) as usize
    }
    fn norm_end(&self) -> usize {
        (self.norm_start + self.norm_len) as usize
    }
}

/// A normalized text and its map back to the original bytes.
#[derive(Debug, Clone)]
pub(crate) struct Normalized<'a> {
    /// Always valid UTF-8, whatever the input was. Borrowed when normalization changes nothing
    /// (the exact tier on a valid UTF-8 text without carriage returns), so the common case copies
    /// nothing.
    pub text: Cow<'a, str>,
    /// Units whose normalized form differs from the original, in order.
    units: Vec<Unit>,
}

/// One unit of a normalized text, with identity stretches split per character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub orig: Range<usize>,
    pub norm: Range<usize>,
}

/// Normalizes `input` under `fold`.
pub(crate) fn normalize(input: &[u8], fold: Fold) -> Normalized<'_> {
    normalize_into(input, fold, String::new())
}

/// `input` itself as its exact view when it is valid UTF-8, for a caller that knows it holds no CR
/// (so the text is not searched for one again); `None` for invalid UTF-8 (use [`normalize`]).
pub(crate) fn exact_view_without_cr(input: &[u8]) -> Option<Normalized<'_>> {
    Some(Normalized {
        text: Cow::Borrowed(crate::text::lines::utf8_str(input)?),
        units: Vec::new(),
    })
}

/// Normalizes `input` under `fold`, building into `buffer` (cleared first) when a copy is needed:
/// passing the buffer of a normalization that is no longer needed saves a large allocation and its
/// page faults.
pub(crate) fn normalize_into(input: &[u8], fold: Fold, mut buffer: String) -> Normalized<'_> {
    assert!(
        input.len() <= u32::MAX as usize,
        "texts of 4 GiB or more are not supported"
    );
    if fold == Fold::EXACT && memchr::memchr(b'\r', input).is_none() {
        if let Some(text) = crate::text::lines::utf8_str(input) {
            return Normalized {
                text: Cow::Borrowed(text),
                units: Vec::new(),
            };
        }
    }
    buffer.clear();
    buffer.reserve(input.len());
    let mut b = Builder {
        fold,
        out: buffer,
        units: Vec::new(),
    };
    let mut base = 0;
    for (valid, invalid) in crate::text::lines::utf8_pieces(input) {
        // Blanks right before invalid bytes are not trailing: only line ends and the text's end trim.
        b.valid(valid, base, invalid.is_empty());
        base += valid.len();
        if !invalid.is_empty() {
            b.changed(base..base + invalid.len(), "\u{FFFD}");
            base += invalid.len();
        }
    }
    Normalized {
        text: Cow::Owned(b.out),
        units: b.units,
    }
}

/// Whether a normalization boundary may stand right before `c`: NFKC of a text split there equals
/// the two halves normalized apart. True when `c` is a starter that cannot compose with what precedes
/// it and whose compatibility decomposition also starts with such a starter. ASCII always qualifies.
pub(crate) fn safe_before(c: char) -> bool {
    if c.is_ascii() {
        return true;
    }
    thread_local! {
        static ANSWERS: PerCodePoint = const { [const { Cell::new(u32::MAX) }; 256] };
    }
    asked_once(&ANSWERS, c, safe_before_uncached)
}

/// Answers about code points kept by [`asked_once`]: one slot per low byte of the code point, each
/// holding `code << 1 | answer` (`u32::MAX` when empty: no code point is that large).
pub(crate) type PerCodePoint = [Cell<u32>; 256];

/// `ask(c)`, kept in `answers`: for questions whose answer depends on the character only and whose
/// Unicode tables are slow to ask. The last answer per slot is kept.
pub(crate) fn asked_once(
    answers: &'static std::thread::LocalKey<PerCodePoint>,
    c: char,
    ask: impl FnOnce(char) -> bool,
) -> bool {
    let code = c as u32;
    let slot = (code & 0xff) as usize;
    if let Some(answer) = answers.with(|a| {
        let kept = a[slot].get();
        (kept >> 1 == code).then_some(kept & 1 == 1)
    }) {
        return answer;
    }
    let answer = ask(c);
    answers.with(|a| a[slot].set(code << 1 | u32::from(answer)));
    answer
}

fn safe_before_uncached(c: char) -> bool {
    fn stable_starter(c: char) -> bool {
        canonical_combining_class(c) == 0 && is_nfkc_quick(std::iter::once(c)) != IsNormalized::Maybe
    }
    if !stable_starter(c) {
        return false;
    }
    let mut first = None;
    decompose_compatible(c, |d| {
        if first.is_none() {
            first = Some(d);
        }
    });
    first.is_none_or(stable_starter)
}

/// How many bytes of trailing blanks end `line` under `fold`.
fn trailing_blanks(line: &str, fold: Fold) -> usize {
    let special = fold.special_spaces || fold.unicode;
    let kept = line.trim_end_matches(|c: char| c == ' ' || c == '\t' || special && is_special_space(c));
    line.len() - kept.len()
}

/// How many bytes at the start of `bytes` are ASCII other than a CR. Tested 32 at a time, a test
/// the compiler vectorizes.
fn plain_len(bytes: &[u8]) -> usize {
    let special = |b: u8| b >= 0x80 || b == b'\r';
    let mut at = 0;
    for chunk in bytes.chunks_exact(32) {
        if chunk.iter().fold(false, |any, &b| any | special(b)) {
            break;
        }
        at += 32;
    }
    at + bytes[at..].iter().position(|&b| special(b)).unwrap_or(bytes.len() - at)
}

struct Builder {
    fold: Fold,
    out: String,
    units: Vec<Unit>,
}

impl Builder {
    fn changed(&mut self, orig: Range<usize>, norm: &str) {
        self.units.push(Unit {
            orig_start: orig.start as u32,
            orig_len: orig.len() as u32,
            norm_start: self.out.len() as u32,
            norm_len: norm.len() as u32,
        });
        self.out.push_str(norm);
    }

    /// A valid stretch, line by line. `ends_text`: its last line ends the text, so that line's
    /// trailing blanks are trailing even without a terminator.
    fn valid(&mut self, s: &str, base: usize, ends_text: bool) {
        let bytes = s.as_bytes();
        if self.fold == Fold::EXACT {
            // Only carriage returns change: jump between them.
            let mut i = 0;
            while let Some(off) = memchr::memchr(b'\r', &bytes[i..]) {
                let r = i + off;
                self.out.push_str(&s[i..r]);
                let len = if bytes.get(r + 1) == Some(&b'\n') { 2 } else { 1 };
                self.changed(base + r..base + r + len, "\n");
                i = r + len;
            }
            self.out.push_str(&s[i..]);
            return;
        }
        let mut start = 0;
        while start < bytes.len() {
            // Whole lines of ASCII without a CR change at most by their trailing blanks: they are
            // taken many at a time; the line where that stops goes line by line.
            let plain = start + plain_len(&bytes[start..]);
            let cut = if plain == bytes.len() {
                plain
            } else {
                memchr::memrchr(b'\n', &bytes[start..plain]).map_or(start, |i| start + i + 1)
            };
            if cut > start {
                self.plain_lines(&s[start..cut], base + start, ends_text && cut == bytes.len());
                start = cut;
            }
            if start < bytes.len() {
                start = self.line(s, base, start, ends_text);
            }
        }
    }

    /// Lines of ASCII without a CR (`s`, whose every line but perhaps the last ends with `\n`): only
    /// their trailing blanks change, and only under a fold that trims them.
    fn plain_lines(&mut self, s: &str, base: usize, ends_text: bool) {
        let bytes = s.as_bytes();
        let mut copied = 0;
        if self.fold.trim_trailing {
            for nl in memchr::memchr_iter(b'\n', bytes) {
                if nl > 0 && matches!(bytes[nl - 1], b' ' | b'\t') {
                    self.trim_before(s, base, nl, &mut copied);
                }
            }
            if ends_text && !bytes.ends_with(b"\n") {
                self.trim_before(s, base, bytes.len(), &mut copied);
            }
        }
        self.out.push_str(&s[copied..]);
    }

    /// Drops the ASCII blanks right before `end` in `s` (a line's end), having copied what comes
    /// before them from `copied` on; `copied` moves to `end`.
    fn trim_before(&mut self, s: &str, base: usize, end: usize, copied: &mut usize) {
        let blanks = s.as_bytes()[..end]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        if blanks > 0 {
            self.out.push_str(&s[*copied..end - blanks]);
            self.changed(base + end - blanks..base + end, "");
            *copied = end;
        }
    }

    /// The line of `s` that starts at `start`, with its terminator; returns where the next starts.
    fn line(&mut self, s: &str, base: usize, start: usize, ends_text: bool) -> usize {
        let bytes = s.as_bytes();
        let (end, term) = match memchr::memchr2(b'\r', b'\n', &bytes[start..]) {
            Some(off) => {
                let at = start + off;
                (
                    at,
                    if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    },
                )
            }
            None => (bytes.len(), 0),
        };
        let line = &s[start..end];
        let trailing = if self.fold.trim_trailing && (term > 0 || ends_text) {
            trailing_blanks(line, self.fold)
        } else {
            0
        };
        let body_end = end - trailing;
        self.body(&s[start..body_end], base + start);
        if trailing > 0 {
            self.changed(base + body_end..base + end, "");
        }
        if term == 1 && bytes[end] == b'\n' {
            self.out.push('\n');
        } else if term > 0 {
            self.changed(base + end..base + end + term, "\n");
        }
        end + term
    }

    /// The content of a line (no terminator, no trailing blanks).
    fn body(&mut self, s: &str, base: usize) {
        if s.is_ascii() || !self.fold.special_spaces && !self.fold.unicode {
            self.out.push_str(s);
            return;
        }
        if !self.fold.unicode {
            // Special spaces only: a character-for-character map.
            let mut copied = 0;
            for (i, c) in s.char_indices().filter(|(_, c)| is_special_space(*c)) {
                self.out.push_str(&s[copied..i]);
                self.changed(base + i..base + i + c.len_utf8(), " ");
                copied = i + c.len_utf8();
            }
            self.out.push_str(&s[copied..]);
            return;
        }
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let run_end = bytes[i..]
                .iter()
                .position(|&b| b >= 0x80)
                .map_or(bytes.len(), |p| i + p);
            if run_end == bytes.len() {
                self.out.push_str(&s[i..]);
                return;
            }
            // NFKC may compose the run's last letter with a following mark (`e` + U+0301): that
            // letter starts the segment instead.
            let composes = run_end > i && !s[run_end..].chars().next().is_some_and(safe_before);
            let seg_start = if composes { run_end - 1 } else { run_end };
            self.out.push_str(&s[i..seg_start]);
            i = self.segment(s, base, seg_start);
        }
    }

    /// Normalizes the segment that starts at `start` (a character and the marks that may compose
    /// with it) and returns where it ends.
    fn segment(&mut self, s: &str, base: usize, start: usize) -> usize {
        let mut end = start;
        let mut chars = s[start..].chars();
        end += chars.next().map_or(1, char::len_utf8);
        for d in chars {
            if safe_before(d) {
                break;
            }
            end += d.len_utf8();
        }
        let segment = &s[start..end];
        let norm = self.fold_segment(segment);
        if norm == segment {
            self.out.push_str(segment);
        } else {
            self.changed(base + start..base + end, &norm);
        }
        end
    }

    fn fold_segment<'s>(&self, segment: &'s str) -> Cow<'s, str> {
        if self.fold.unicode {
            let untouched = is_nfkc_quick(segment.chars()) == IsNormalized::Yes
                && segment.chars().all(|c| fold_typographic(c).is_none());
            if untouched {
                return Cow::Borrowed(segment);
            }
            return Cow::Owned(segment.nfkc().map(|c| fold_typographic(c).unwrap_or(c)).collect());
        }
        if self.fold.special_spaces && segment.chars().any(is_special_space) {
            return Cow::Owned(
                segment
                    .chars()
                    .map(|c| if is_special_space(c) { ' ' } else { c })
                    .collect(),
            );
        }
        Cow::Borrowed(segment)
    }
}

impl Normalized<'_> {
    /// The original position of normalized position `p`, before any unit that starts there, or `None`
    /// when `p` is strictly inside a unit.
    fn base(&self, p: usize) -> Option<(usize, usize)> {
        let idx = self.units.partition_point(|u| (u.norm_start as usize) < p);
        match idx.checked_sub(1).map(|i| self.units[i]) {
            Some(u) if u.norm_end() > p => None,
            Some(u) => Some((u.orig_end() + (p - u.norm_end()), idx)),
            None => Some((p, idx)),
        }
    }

    /// Skips units that normalize to nothing (trailing blanks) at normalized position `p`.
    fn skip_empty(&self, p: usize, mut orig: usize, mut idx: usize) -> usize {
        while let Some(u) = self.units.get(idx) {
            if u.norm_start as usize != p || u.norm_len != 0 {
                break;
            }
            orig = u.orig_end();
            idx += 1;
        }
        orig
    }

    /// Where a match starting at normalized position `p` starts in the original: after any trailing
    /// blanks of the previous line. `None` when `p` is inside a unit.
    pub(crate) fn orig_start(&self, p: usize) -> Option<usize> {
        let (orig, idx) = self.base(p)?;
        Some(self.skip_empty(p, orig, idx))
    }

    /// Where a match ending at normalized position `p` ends in the original. With `take_trailing`,
    /// trailing blanks that were normalized away at `p` are included, so the line they end stays
    /// whole (unless `p` follows a line break: then they make up a blank line of their own, which
    /// the match does not reach). `None` when `p` is inside a unit.
    pub(crate) fn orig_end(&self, p: usize, take_trailing: bool) -> Option<usize> {
        let (orig, idx) = self.base(p)?;
        let after_break = p > 0 && self.text.as_bytes()[p - 1] == b'\n';
        Some(if take_trailing && !after_break {
            self.skip_empty(p, orig, idx)
        } else {
            orig
        })
    }

    /// Every unit in order, identity stretches split per character. The original ranges tile
    /// `orig` and the normalized ranges tile `self.text`. An iterator, not a vector: a line of
    /// 300 KB has as many pieces, and its one caller walks them once.
    pub(crate) fn pieces<'o>(&'o self, orig: &'o [u8]) -> impl Iterator<Item = Piece> + 'o {
        let (mut o, mut n) = (0usize, 0usize);
        let mut units = self.units.iter();
        // The unit after the identity stretch being walked; `None` past the last one.
        let mut unit = units.next();
        std::iter::from_fn(move || {
            let stretch_end = unit.map_or(orig.len(), |u| u.orig_start as usize);
            if o < stretch_end {
                // Identity stretches are valid UTF-8: the leading byte gives the character's length.
                let len = match orig[o] {
                    0..0x80 => 1,
                    0xF0.. => 4,
                    0xE0.. => 3,
                    _ => 2,
                };
                debug_assert!(
                    std::str::from_utf8(&orig[o..o + len]).is_ok(),
                    "identity stretches are valid UTF-8"
                );
                let piece = Piece {
                    orig: o..o + len,
                    norm: n..n + len,
                };
                o += len;
                n += len;
                return Some(piece);
            }
            let u = unit?;
            let piece = Piece {
                orig: o..u.orig_end(),
                norm: n..u.norm_end(),
            };
            o = u.orig_end();
            n = u.norm_end();
            unit = units.next();
            Some(piece)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-code-point cache answers as the question does, for every character (also those that
    /// share a slot, 256 apart), and asks each only once while its slot keeps it.
    #[test]
    fn asked_once_answers_as_asked_and_asks_once() {
        use std::cell::Cell;
        thread_local! {
            static TEST_ANSWERS: PerCodePoint = const { [const { Cell::new(u32::MAX) }; 256] };
        }
        let odd = |c: char| (c as u32).count_ones() % 2 == 1;
        let asked = Cell::new(0);
        let ask = |c: char| {
            asked.set(asked.get() + 1);
            odd(c)
        };
        for c in ('\0'..='\u{2fff}').step_by(7) {
            assert_eq!(asked_once(&TEST_ANSWERS, c, ask), odd(c), "{c:?}");
            let before = asked.get();
            assert_eq!(asked_once(&TEST_ANSWERS, c, ask), odd(c), "{c:?} again");
            assert_eq!(asked.get(), before, "{c:?} asked twice");
        }
    }
    use proptest::prelude::*;

    fn reference(s: &str, fold: Fold) -> String {
        let le = s.replace("\r\n", "\n").replace('\r', "\n");
        let folded: String = if fold.unicode {
            le.nfkc().map(|c| fold_typographic(c).unwrap_or(c)).collect()
        } else if fold.special_spaces {
            le.chars().map(|c| if is_special_space(c) { ' ' } else { c }).collect()
        } else {
            le
        };
        if !fold.trim_trailing {
            return folded;
        }
        folded
            .split('\n')
            .map(|l| l.trim_end_matches([' ', '\t']))
            .collect::<Vec<_>>()
            .join("\n")
    }

    const FOLDS: [Fold; 4] = [Fold::EXACT, Fold::TRAILING, Fold::UNICODE, Fold::INVISIBLE];

    #[test]
    fn kept_answers_are_the_tables_answers() {
        // Twice over the BMP and the start of the next plane, in an order that makes every slot
        // of the cache hold many characters in turn.
        for _ in 0..2 {
            for code in (0..0x1_1000u32).rev() {
                if let Some(c) = char::from_u32(code) {
                    assert_eq!(safe_before(c), safe_before_uncached(c), "{c:?}");
                }
            }
        }
    }

    #[test]
    fn crlf_and_trailing() {
        let n = normalize(b"a  \r\nb\rc \n", Fold::TRAILING);
        assert_eq!(n.text, "a\nb\nc\n");
        assert_eq!(n.orig_start(2), Some(5)); // 'b'
        assert_eq!(n.orig_end(1, false), Some(1)); // after 'a'
        assert_eq!(n.orig_end(1, true), Some(3)); // after the trailing blanks
        assert_eq!(n.orig_start(1), Some(3)); // the line ending, after the blanks
    }

    #[test]
    fn ligature_is_atomic() {
        let n = normalize("x\u{FB01}y".as_bytes(), Fold::UNICODE);
        assert_eq!(n.text, "xfiy");
        assert_eq!(n.orig_start(1), Some(1));
        assert_eq!(n.orig_start(2), None); // inside the ligature
        assert_eq!(n.orig_end(3, false), Some(4));
    }

    #[test]
    fn invalid_utf8_is_one_unit() {
        let n = normalize(b"a\xff\xfeb", Fold::EXACT);
        assert_eq!(n.text, "a\u{FFFD}\u{FFFD}b");
        let n = normalize(b"a\xe2\x82b", Fold::EXACT);
        assert_eq!(n.text, "a\u{FFFD}b");
        assert_eq!(n.orig_start(4), Some(3));
    }

    #[test]
    fn decomposed_accent_composes() {
        let n = normalize("cafe\u{301} ok".as_bytes(), Fold::UNICODE);
        assert_eq!(n.text, "caf\u{e9} ok");
        assert_eq!(n.orig_start(3), Some(3));
        assert_eq!(n.orig_end(5, false), Some(6));
    }

    /// Text that a fold leaves as it is costs no map: no unit is stored for it (here a segment of
    /// several characters that NFKC keeps, and characters no fold touches).
    #[test]
    fn text_no_fold_changes_stores_no_unit() {
        for text in [
            "plain ascii\nlines\n",
            "caf\u{E9} \u{65E5}\u{672C} x\u{20DD} \u{1F600}\nend",
        ] {
            for fold in FOLDS {
                let n = normalize(text.as_bytes(), fold);
                assert_eq!(n.text, text, "{fold:?}");
                assert_eq!(n.units, Vec::new(), "{fold:?} {text:?}");
            }
        }
    }

    /// Characters that normalize in every way the folds know: line terminators, blanks, special
    /// spaces, combining marks, compatibility forms, typographic punctuation, Hangul jamo.
    const NASTY: [&str; 38] = [
        "a",
        "e",
        "b",
        " ",
        "\t",
        "\n",
        "\r",
        "\r\n",
        "\u{301}",
        "\u{308}",
        "\u{323}",
        "\u{E9}",
        "\u{FB01}",
        "\u{A0}",
        "\u{202F}",
        "\u{3000}",
        "\u{2014}",
        "\u{201C}",
        "\u{2019}",
        "\u{1100}",
        "\u{1161}",
        "\u{11A8}",
        "\u{AC00}",
        "\u{F73}",
        "\u{F71}",
        "\u{F72}",
        "\u{344}",
        "\u{212B}",
        "\u{FF21}",
        "\u{2126}",
        "\u{1E0A}",
        "\u{3099}",
        "\u{304B}",
        "\u{FF76}",
        "\u{FF9E}",
        "\u{2460}",
        "\u{1F600}",
        "\u{FDFA}",
    ];

    fn nasty_string() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(NASTY.to_vec()), 0..40).prop_map(|v| v.concat())
    }

    /// [`nasty_string`]'s characters with invalid UTF-8 among them (a lone byte, a truncated
    /// sequence, a lead byte alone).
    fn nasty_bytes() -> impl Strategy<Value = Vec<u8>> {
        let mut alphabet: Vec<&[u8]> = NASTY.iter().map(|s| s.as_bytes()).collect();
        alphabet.extend([&b"\xff"[..], b"\xe2\x82", b"\xc3", b"\xff\xfe"]);
        prop::collection::vec(prop::sample::select(alphabet), 0..40).prop_map(|v| v.concat())
    }

    /// `normalize` with every line taken alone (no plain stretches taken many lines at a time).
    fn line_by_line(input: &[u8], fold: Fold) -> (String, Vec<Unit>) {
        let mut b = Builder {
            fold,
            out: String::new(),
            units: Vec::new(),
        };
        let mut base = 0;
        for (valid, invalid) in crate::text::lines::utf8_pieces(input) {
            let mut start = 0;
            while start < valid.len() {
                start = b.line(valid, base, start, invalid.is_empty());
            }
            base += valid.len();
            if !invalid.is_empty() {
                b.changed(base..base + invalid.len(), "\u{FFFD}");
                base += invalid.len();
            }
        }
        (b.out, b.units)
    }

    /// Texts of long ASCII lines with trailing blanks, and now and then a CR, a non-ASCII
    /// character or an invalid byte.
    fn mostly_ascii() -> impl Strategy<Value = Vec<u8>> {
        let token = prop::sample::select(vec![
            &b"abcdefghijklmnopqrstuvwxyz0123456789"[..],
            b"let x = 1;",
            b" ",
            b"\t",
            b"  \n",
            b" \t\n",
            b"\n",
            b"\n\n",
            b"\r\n",
            b" \r",
            "\u{A0}".as_bytes(),
            "\u{201C}".as_bytes(),
            b"\xff",
        ]);
        prop::collection::vec(token, 0..80).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn plain_stretches_normalize_like_single_lines(input in mostly_ascii()) {
            for fold in [Fold::TRAILING, Fold::UNICODE, Fold::INVISIBLE] {
                let n = normalize(&input, fold);
                let (text, units) = line_by_line(&input, fold);
                prop_assert_eq!(&n.text, &text, "{:?}", fold);
                prop_assert_eq!(&n.units, &units, "{:?}", fold);
            }
        }

        #[test]
        fn segments_normalize_like_the_whole(s in nasty_string()) {
            for fold in FOLDS {
                prop_assert_eq!(normalize(s.as_bytes(), fold).text, reference(&s, fold), "{:?}", fold);
            }
        }

        /// Invalid bytes normalize as the replacement characters `from_utf8_lossy` gives them, and the
        /// blanks before them are not trailing (only a line's end or the text's end trims).
        #[test]
        fn invalid_bytes_normalize_as_their_replacement_characters(input in nasty_bytes()) {
            let lossy = String::from_utf8_lossy(&input);
            for fold in FOLDS {
                prop_assert_eq!(normalize(&input, fold).text, reference(&lossy, fold), "{:?}", fold);
            }
        }

        /// The map against a reference: the original bytes of every piece, normalized alone by
        /// `reference` (without trimming), are the piece's normalized text; a piece that normalizes
        /// to nothing is blanks the fold trims, right before a line terminator or the text's end; and
        /// a stored unit's normalized text differs from its original bytes (identity is never stored).
        #[test]
        fn each_piece_normalizes_alone_to_its_normalized_text(bytes in nasty_bytes(), s in nasty_string()) {
            for input in [bytes, s.into_bytes()] {
                for fold in FOLDS {
                    let n = normalize(&input, fold);
                    let special = fold.special_spaces || fold.unicode;
                    for piece in n.pieces(&input) {
                        let orig = String::from_utf8_lossy(&input[piece.orig.clone()]);
                        let norm = &n.text[piece.norm.clone()];
                        if norm.is_empty() {
                            prop_assert!(fold.trim_trailing, "{:?} {:?}", fold, piece);
                            prop_assert!(
                                !orig.is_empty()
                                    && orig.chars().all(|c| c == ' ' || c == '\t' || special && is_special_space(c)),
                                "{:?} {:?} {:?}", fold, piece, orig
                            );
                            let next = input.get(piece.orig.end);
                            prop_assert!(matches!(next, None | Some(b'\r' | b'\n')), "{:?} {:?}", fold, piece);
                        } else {
                            prop_assert_eq!(&reference(&orig, fold.without_trim()), norm, "{:?} {:?}", fold, piece);
                        }
                    }
                    for u in &n.units {
                        let (o, m) = (u.orig_start as usize, u.norm_start as usize);
                        prop_assert_ne!(
                            &input[o..o + u.orig_len as usize],
                            n.text[m..m + u.norm_len as usize].as_bytes(),
                            "{:?} {:?}", fold, u
                        );
                    }
                }
            }
        }

        #[test]
        fn pieces_tile_both_sides(bytes in prop::collection::vec(any::<u8>(), 0..64), s in nasty_string()) {
            for input in [bytes, s.into_bytes()] {
                for fold in FOLDS {
                    let n = normalize(&input, fold);
                    let pieces: Vec<Piece> = n.pieces(&input).collect();
                    let (mut o, mut p) = (0, 0);
                    for piece in &pieces {
                        prop_assert_eq!(piece.orig.start, o);
                        prop_assert_eq!(piece.norm.start, p);
                        prop_assert!(n.orig_end(piece.norm.start, false).is_some());
                        let start = n.orig_start(piece.norm.start).unwrap();
                        prop_assert!(start >= piece.orig.start || piece.norm.is_empty());
                        o = piece.orig.end;
                        p = piece.norm.end;
                    }
                    prop_assert_eq!(o, input.len());
                    prop_assert_eq!(p, n.text.len());
                    // Identity pieces map straight through; units map to their start.
                    for piece in pieces.iter().filter(|pc| !pc.norm.is_empty()) {
                        prop_assert_eq!(n.orig_start(piece.norm.start), Some(piece.orig.start));
                        prop_assert_eq!(n.orig_end(piece.norm.end, false), Some(piece.orig.end));
                        for inner in piece.norm.start + 1..piece.norm.end {
                            if n.text.is_char_boundary(inner) && piece.orig.len() != piece.norm.len() {
                                prop_assert_eq!(n.orig_start(inner), None);
                            }
                        }
                    }
                }
            }
        }
    }
}
