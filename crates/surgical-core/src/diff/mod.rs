// Stage 4 of the core, render (a comment, not docs: the module is public). May import: `text`.
// Imported by: `changes` (ChangeSet::apply_spliced counts new lines with Windows), `snippet`,
// `edit`. `change` holds the input of every diff, `Change`, re-exported as `surgical_core::Change`.

//! Diffs of the real bytes before and after: a numbered diff for display and a unified patch.
//!
//! Both are computed from the original text, the new text and the list of replaced ranges, never
//! from a normalized copy. Only the lines around each change are diffed (line diffs of the touched
//! regions, then context from the untouched text around them), and each line diff works within a
//! budget linear in its region (past it, a coarser diff shows more lines as removed and added), so
//! the cost is linear in the size of the changes and the file, not quadratic.
//!
//! The two renderings differ in what a line is:
//! * the **patch** splits lines at `\n` only, as `diff -u` and `git apply` do, so a CR stays in the
//!   line's content and `git apply` reproduces CRLF files and files without a final newline byte for
//!   byte (bytes that are not valid UTF-8 are the one exception: a JSON string cannot carry them);
//! * the **numbered diff** splits at every terminator (`\r\n`, `\r`, `\n`), as the line numbers a
//!   model works with do, and makes changes no eye could see visible in changed lines: trailing
//!   blanks become `·` and `→`, special and invisible characters `⟨U+00A0⟩`, invalid bytes `⟨0xE9⟩`,
//!   and terminators `␍␊`/`␍`/`␊` where the changed lines do not all end alike.

pub(crate) mod change;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

use similar::DiffOp;

use change::Change;

use crate::text::fold::{is_invisible, is_line_blank};
use crate::text::lines::{count_lines, count_terminators, terminator_len, whole_lines, LineCounter};

/// Lines of context around each change.
pub const DEFAULT_CONTEXT: usize = 3;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Breaks {
    /// `\n` only (patches).
    Lf,
    /// `\r\n`, `\r` and `\n` (display and line numbers).
    Any,
}

impl Breaks {
    /// End of the terminator that ends the line containing `pos`, or the text's end.
    fn line_end(self, t: &[u8], pos: usize) -> usize {
        let found = match self {
            Breaks::Lf => memchr::memchr(b'\n', &t[pos..]).map(|i| pos + i + 1),
            Breaks::Any => crate::text::lines::next_terminator(t, pos).map(|r| r.end),
        };
        found.unwrap_or(t.len())
    }

    /// Start of the line containing `pos`.
    fn line_start(self, t: &[u8], pos: usize) -> usize {
        match self {
            Breaks::Lf => memchr::memrchr(b'\n', &t[..pos]).map_or(0, |i| i + 1),
            // Between the CR and LF of a CRLF is not a line start.
            Breaks::Any => crate::text::lines::line_start(t, pos),
        }
    }

    fn is_line_start(self, t: &[u8], pos: usize) -> bool {
        match self {
            Breaks::Lf => pos == 0 || t[pos - 1] == b'\n',
            Breaks::Any => crate::text::lines::is_line_start(t, pos),
        }
    }

    /// Where the line after the one starting at `pos` starts.
    fn next_line(self, t: &[u8], pos: usize) -> usize {
        self.line_end(t, pos)
    }

    fn count(self, t: &[u8]) -> usize {
        match self {
            Breaks::Lf => memchr::memchr_iter(b'\n', t).count(),
            Breaks::Any => count_terminators(t),
        }
    }

    /// The lines of `t`, each with its terminator.
    fn split(self, t: &[u8]) -> Vec<&[u8]> {
        match self {
            // `t.split_inclusive(|&b| b == b'\n')`, found by `memchr` rather than byte by byte
            // (a change inside a line of megabytes splits that line here).
            Breaks::Lf => {
                let mut lines = Vec::new();
                let mut start = 0;
                for end in memchr::memchr_iter(b'\n', t) {
                    lines.push(&t[start..=end]);
                    start = end + 1;
                }
                if start < t.len() {
                    lines.push(&t[start..]);
                }
                lines
            }
            Breaks::Any => whole_lines(t).collect(),
        }
    }

    /// A counter of one-based line numbers of ascending positions in `t`.
    fn counter(self, t: &[u8]) -> LineCounter<'_> {
        match self {
            Breaks::Lf => LineCounter::lf_only(t),
            Breaks::Any => LineCounter::new(t),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tag {
    Equal,
    Delete,
    Insert,
}

/// One line of a hunk. `old_no`/`new_no` are one-based; for a line missing on one side they are the
/// number of the line it precedes there.
#[derive(Clone, Debug)]
struct Item<'a> {
    tag: Tag,
    old_no: usize,
    new_no: usize,
    line: &'a [u8],
    /// Where in `line` its change starts (0 for an equal line): where a cut of a long line is
    /// centred ([`LineCut`]).
    focus: usize,
}

/// Where the change that touches the line `line` (a slice of `text`) starts in it, from `spans`
/// (the changes' ranges in `text`, in order); 0 when none does.
fn focus_of(text: &[u8], line: &[u8], spans: impl Fn(usize) -> Range<usize>, count: usize) -> usize {
    if line.len() <= FOCUS_FROM {
        return 0;
    }
    let at = line.as_ptr() as usize - text.as_ptr() as usize;
    let end = at + line.len();
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let span = spans(mid);
        if span.end < at || (span.end == at && !span.is_empty()) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    match (lo < count).then(|| spans(lo)) {
        Some(span) if span.start < end => span.start.saturating_sub(at),
        _ => 0,
    }
}

/// Lines no longer than this many bytes are never cut, so their changes' places are not looked for.
const FOCUS_FROM: usize = 256;

/// Line-aligned regions around the changes: each starts and ends where both texts are at a line
/// start (or both at their end), inside the unchanged stretches between changes. Changes whose lines
/// touch share a region.
fn regions(old: &[u8], new: &[u8], changes: &[Change], breaks: Breaks) -> Vec<(Range<usize>, Range<usize>)> {
    let boundary = |po: usize, pn: usize| {
        (po == old.len() && pn == new.len()) || (breaks.is_line_start(old, po) && breaks.is_line_start(new, pn))
    };
    let mut regions: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut open = false; // the last region's end is not a boundary: the next change joins it
    for (k, Change { old: o, new: n }) in changes.iter().enumerate() {
        let mut ls = breaks.line_start(old, o.start);
        let mut ls_new = n.start - (o.start - ls).min(n.start);
        // A line start that is none in the new text (a change that turns a lone CR before it into a
        // CRLF): the region starts a line earlier, so that it stays near the change.
        while ls > 0 && !boundary(ls, ls_new) && regions.last().is_none_or(|last| ls > last.0.end) {
            let before = breaks.line_start(old, ls - 1);
            ls_new -= (ls - before).min(ls_new);
            ls = before;
        }
        let joins = match regions.last() {
            Some(last) => open || ls < last.0.end || ls_new < last.1.end || !boundary(ls, ls_new),
            None => false,
        };
        if !joins {
            let (ls, ls_new) = if boundary(ls, ls_new) { (ls, ls_new) } else { (0, 0) };
            regions.push((ls..ls, ls_new..ls_new));
        }
        // Walk to the first boundary after the change, through unchanged text.
        let limit = changes.get(k + 1).map_or(old.len(), |c| c.old.start);
        let (mut le, mut pn) = (o.end, n.end);
        while !boundary(le, pn) && le < limit {
            let step = breaks.line_end(old, le) - le;
            let step = step.max(1).min(limit - le);
            le += step;
            pn += step;
        }
        open = !boundary(le, pn);
        let last = regions.last_mut().expect("pushed above");
        last.0.end = le;
        last.1.end = pn;
    }
    regions
}

/// Items of all hunks; `None` separates hunks.
///
/// `base` is the line number of the texts' first lines (both at 1 for whole texts; a window's start
/// in the whole texts otherwise).
fn hunks<'a>(
    old: &'a [u8],
    new: &'a [u8],
    changes: &[Change],
    breaks: Breaks,
    context: usize,
    base: (usize, usize),
) -> Vec<Vec<Item<'a>>> {
    let regions = regions(old, new, changes, breaks);
    let mut old_lines = breaks.counter(old);
    let mut new_lines = breaks.counter(new);
    let (old_base, new_base) = (base.0 - 1, base.1 - 1);
    let mut all: Vec<Option<Item<'a>>> = Vec::new();
    let mut prev_end: Option<(usize, usize, usize, usize)> = None; // old pos, new pos, old no, new no
    for (o, n) in &regions {
        let old_no = old_base + old_lines.line_at(o.start);
        let new_no = new_base + new_lines.line_at(n.start);
        // Context between the previous region (or the file start) and this one.
        let (gap_old_start, gap_old_no, gap_new_no) = match prev_end {
            Some((op, _, ono, nno)) => (op, ono, nno),
            None => (0, base.0, base.1),
        };
        let gap_lines = breaks.count(&old[gap_old_start..o.start]);
        let after_prev = if prev_end.is_some() { context.min(gap_lines) } else { 0 };
        let before_this = context.min(gap_lines - after_prev);
        let mut p = gap_old_start;
        for k in 0..after_prev {
            let e = breaks.next_line(old, p);
            all.push(Some(Item {
                tag: Tag::Equal,
                old_no: gap_old_no + k,
                new_no: gap_new_no + k,
                line: &old[p..e],
                focus: 0,
            }));
            p = e;
        }
        if gap_lines > after_prev + before_this {
            all.push(None);
        }
        let mut starts = Vec::new();
        let mut q = o.start;
        for _ in 0..before_this {
            q = breaks.line_start(old, q - 1);
            starts.push(q);
        }
        for (k, &s) in starts.iter().rev().enumerate() {
            let e = breaks.next_line(old, s);
            let back = starts.len() - k;
            all.push(Some(Item {
                tag: Tag::Equal,
                old_no: old_no - back,
                new_no: new_no - back,
                line: &old[s..e],
                focus: 0,
            }));
        }
        // The region itself.
        let ol = breaks.split(&old[o.clone()]);
        let nl = breaks.split(&new[n.clone()]);
        // Within a budget linear in the region; past it, fewer equal lines are found and more show
        // as removed and added (still the real lines before and after).
        let mut budget = crate::text::budget::Budget::for_bytes(o.len() + n.len());
        for op in budget.anchored_diff(&ol, &nl) {
            for (tag, old_range, new_range) in op.iter_changes_ranges() {
                let (oi, ni) = (old_range, new_range);
                all.push(Some(match tag {
                    Tag::Equal => Item {
                        tag,
                        old_no: old_no + oi,
                        new_no: new_no + ni,
                        line: ol[oi],
                        focus: 0,
                    },
                    Tag::Delete => Item {
                        tag,
                        old_no: old_no + oi,
                        new_no: new_no + ni,
                        line: ol[oi],
                        focus: focus_of(old, ol[oi], |k| changes[k].old.clone(), changes.len()),
                    },
                    Tag::Insert => Item {
                        tag,
                        old_no: old_no + oi,
                        new_no: new_no + ni,
                        line: nl[ni],
                        focus: focus_of(new, nl[ni], |k| changes[k].new.clone(), changes.len()),
                    },
                }));
            }
        }
        let o_end_no = old_base + old_lines.line_at(o.end);
        let n_end_no = new_base + new_lines.line_at(n.end);
        prev_end = Some((o.end, n.end, o_end_no, n_end_no));
    }
    if let Some((op, _, ono, nno)) = prev_end {
        let mut p = op;
        for k in 0..context {
            if p >= old.len() {
                break;
            }
            let e = breaks.next_line(old, p);
            all.push(Some(Item {
                tag: Tag::Equal,
                old_no: ono + k,
                new_no: nno + k,
                line: &old[p..e],
                focus: 0,
            }));
            p = e;
        }
        if p < old.len() {
            all.push(None);
        }
    }

    // Split into hunks at the gaps, dropping hunks with nothing changed.
    let mut out: Vec<Vec<Item<'a>>> = Vec::new();
    let mut cur: Vec<Item<'a>> = Vec::new();
    for item in all {
        match item {
            Some(i) => cur.push(i),
            None => {
                if cur.iter().any(|i| i.tag != Tag::Equal) {
                    out.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.iter().any(|i| i.tag != Tag::Equal) {
        out.push(cur);
    }
    out.into_iter().map(|h| trim_context(h, context)).collect()
}

/// Drops equal lines farther than `context` from any change (regions may bring extra equal lines).
fn trim_context(h: Vec<Item<'_>>, context: usize) -> Vec<Item<'_>> {
    let changed: Vec<usize> = h
        .iter()
        .enumerate()
        .filter(|(_, i)| i.tag != Tag::Equal)
        .map(|(k, _)| k)
        .collect();
    let (first, last) = (changed[0], *changed.last().expect("hunk has a change"));
    h.into_iter()
        .enumerate()
        .filter(|(k, _)| *k + context >= first && *k <= last + context)
        .map(|(_, i)| i)
        .collect()
}

trait ChangeRanges {
    fn iter_changes_ranges(&self) -> Vec<(Tag, usize, usize)>;
}

impl ChangeRanges for DiffOp {
    /// Per line: tag, index in the old region, index in the new region.
    fn iter_changes_ranges(&self) -> Vec<(Tag, usize, usize)> {
        match *self {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => (0..len).map(|k| (Tag::Equal, old_index + k, new_index + k)).collect(),
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (0..old_len).map(|k| (Tag::Delete, old_index + k, new_index)).collect(),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (0..new_len).map(|k| (Tag::Insert, old_index, new_index + k)).collect(),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (0..old_len)
                .map(|k| (Tag::Delete, old_index + k, new_index))
                .chain((0..new_len).map(|k| (Tag::Insert, old_index + old_len, new_index + k)))
                .collect(),
        }
    }
}

/// The one change between two whole texts (their common prefix and suffix set aside), in the form
/// [`unified_patch`] and [`numbered_diff`] take; empty when the texts are equal. For callers that
/// replace a whole file rather than apply edits (writes, undo).
pub fn whole_change(old: &[u8], new: &[u8]) -> Vec<Change> {
    if old == new {
        return Vec::new();
    }
    let continuation = |b: Option<&u8>| b.is_some_and(|b| (b & 0xC0) == 0x80);
    let (mut prefix, _) = crate::text::budget::common_affixes(old, new);
    // The prefix never ends inside a UTF-8 sequence or between the CR and LF of a CRLF.
    while prefix > 0
        && (continuation(old.get(prefix))
            || continuation(new.get(prefix))
            || old[prefix - 1] == b'\r' && (old.get(prefix) == Some(&b'\n') || new.get(prefix) == Some(&b'\n')))
    {
        prefix -= 1;
    }
    let room = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    // Nor does the suffix start inside one.
    while suffix > 0 {
        let (o, n) = (old.len() - suffix, new.len() - suffix);
        let splits_crlf = old[o] == b'\n' && (o > prefix && old[o - 1] == b'\r' || n > prefix && new[n - 1] == b'\r');
        if !continuation(old.get(o)) && !splits_crlf {
            break;
        }
        suffix -= 1;
    }
    vec![Change::new(prefix..old.len() - suffix, prefix..new.len() - suffix)]
}

/// A standard unified diff (`--- a/PATH`, `+++ b/PATH`, `@@` hunks) of `old` → `new`.
///
/// `changes` are the replaced ranges in file order (old range, new range), as
/// [`crate::Applied::changes`] gives them. Empty when nothing changed.
pub fn unified_patch(old: &[u8], new: &[u8], changes: &[Change], path: &str) -> String {
    render_patch(
        &hunks(old, new, changes, Breaks::Lf, DEFAULT_CONTEXT, (1, 1)),
        path,
        None,
    )
    .0
}

/// [`unified_patch`] with every line longer than `cut` allows shown cut ([`LineCut`]), and whether
/// one was (then the patch no longer applies).
pub fn unified_patch_cut(old: &[u8], new: &[u8], changes: &[Change], path: &str, cut: &LineCut<'_>) -> (String, bool) {
    render_patch(
        &hunks(old, new, changes, Breaks::Lf, DEFAULT_CONTEXT, (1, 1)),
        path,
        Some(cut),
    )
}

fn render_patch(hunks: &[Vec<Item<'_>>], path: &str, cut: Option<&LineCut<'_>>) -> (String, bool) {
    if hunks.is_empty() {
        return (String::new(), false);
    }
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    let mut any_cut = false;
    for h in hunks {
        let (os, oc, ns, nc) = header(h);
        let _ = writeln!(out, "@@ -{} +{} @@", range(os, oc), range(ns, nc));
        for item in h {
            out.push(match item.tag {
                Tag::Equal => ' ',
                Tag::Delete => '-',
                Tag::Insert => '+',
            });
            let content = item.line.strip_suffix(b"\n").unwrap_or(item.line);
            match cut.and_then(|cut| cut.place(content, item.focus).map(|place| (cut, place))) {
                Some((cut, place)) => {
                    any_cut = true;
                    cut.render(&mut out, place, |out, shown| {
                        out.push_str(&String::from_utf8_lossy(&content[shown]))
                    });
                    out.push_str(if item.line.len() > content.len() { "\n" } else { "" });
                }
                None => out.push_str(&String::from_utf8_lossy(item.line)),
            }
            if !item.line.ends_with(b"\n") {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    (out, any_cut)
}

/// How a rendering shows a line longer than `max_chars` characters (the bytes that do not continue
/// a UTF-8 sequence): a stretch of it around its change (its start for an unchanged line) of
/// [`LineCut::SHOWN`] fewer characters, with `before` and `after` (given how many characters were
/// left out there) saying where it is cut. So a change inside a line of megabytes costs and shows a
/// few KiB, and the cut line with its markers still fits `max_chars`.
pub struct LineCut<'w> {
    /// Lines of at most this many characters are shown whole.
    pub max_chars: usize,
    /// What stands for the characters left out before the stretch shown.
    pub before: &'w dyn Fn(usize) -> String,
    /// What stands for the characters left out after it.
    pub after: &'w dyn Fn(usize) -> String,
}

/// The stretch of a line shown and the characters left out before and after it.
struct CutPlace {
    shown: Range<usize>,
    before: usize,
    after: usize,
}

/// Whether `b` continues a UTF-8 sequence (is not the first byte of a character).
fn continues(b: u8) -> bool {
    (b & 0xC0) == 0x80
}

/// Characters of `bytes`, counted as the bytes that do not continue a UTF-8 sequence. Eight bytes
/// at a time: a byte continues a sequence when its top bit is set and the next is not, so `w &
/// !(w << 1)` has the top bit of exactly those bytes of the word `w` set; each byte's count is
/// summed in its own lane, at most 255 words at a time (a cut line of megabytes counts its
/// characters before and after the stretch shown).
fn count_chars(bytes: &[u8]) -> usize {
    const TOPS: u64 = 0x8080_8080_8080_8080;
    const LANES: u64 = 0x00FF_00FF_00FF_00FF;
    let mut words = bytes.chunks_exact(8);
    let mut continuing = 0usize;
    loop {
        let mut lanes = 0u64;
        let mut taken = 0;
        for word in words.by_ref().take(255) {
            let w = u64::from_le_bytes(word.try_into().expect("chunks of 8 bytes"));
            lanes += (w & !(w << 1) & TOPS) >> 7;
            taken += 1;
        }
        // Eight lanes of at most 255 each, summed in four of 16 bits, then in one.
        let pairs = (lanes & LANES) + ((lanes >> 8) & LANES);
        continuing += (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize;
        if taken < 255 {
            break;
        }
    }
    continuing += words.remainder().iter().filter(|&&b| continues(b)).count();
    bytes.len() - continuing
}

impl LineCut<'_> {
    /// Characters the shown stretch of a cut line has fewer than `max_chars`: room for the line's
    /// number, its sign and the markers.
    pub const SHOWN: usize = 200;

    /// Where `content` (a line without its terminator) is cut around `focus`, or `None` when it is
    /// shown whole.
    fn place(&self, content: &[u8], focus: usize) -> Option<CutPlace> {
        // A character has at most 4 bytes: a line of fewer bytes than 4 times the limit is counted.
        if content.len() <= self.max_chars
            || (content.len() <= 4 * self.max_chars && count_chars(content) <= self.max_chars)
        {
            return None;
        }
        let show = self.max_chars.saturating_sub(Self::SHOWN).max(1);
        let back = |mut at: usize| {
            at -= 1;
            while at > 0 && continues(content[at]) {
                at -= 1;
            }
            at
        };
        let forward = |mut at: usize| {
            at += 1;
            while at < content.len() && continues(content[at]) {
                at += 1;
            }
            at
        };
        let mut start = focus.min(content.len());
        while start > 0 && start < content.len() && continues(content[start]) {
            start -= 1;
        }
        // A quarter of what is shown comes before the change.
        for _ in 0..show / 4 {
            if start == 0 {
                break;
            }
            start = back(start);
        }
        let (mut end, mut shown) = (start, 0);
        while end < content.len() && shown < show {
            end = forward(end);
            shown += 1;
        }
        // Near the line's end, what is shown reaches back further.
        while start > 0 && shown < show {
            start = back(start);
            shown += 1;
        }
        Some(CutPlace {
            before: count_chars(&content[..start]),
            after: count_chars(&content[end..]),
            shown: start..end,
        })
    }

    /// `place`'s stretch, rendered by `show`, between the markers of what was left out.
    fn render(&self, out: &mut String, place: CutPlace, show: impl FnOnce(&mut String, Range<usize>)) {
        if place.before > 0 {
            out.push_str(&(self.before)(place.before));
        }
        show(out, place.shown);
        if place.after > 0 {
            out.push_str(&(self.after)(place.after));
        }
    }
}

fn range(start: usize, count: usize) -> String {
    if count == 1 {
        start.to_string()
    } else {
        format!("{start},{count}")
    }
}

fn header(h: &[Item<'_>]) -> (usize, usize, usize, usize) {
    let oc = h.iter().filter(|i| i.tag != Tag::Insert).count();
    let nc = h.iter().filter(|i| i.tag != Tag::Delete).count();
    let os = h[0].old_no - usize::from(oc == 0);
    let ns = h[0].new_no - usize::from(nc == 0);
    (os, oc, ns, nc)
}

/// The display diff and the first changed line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NumberedDiff {
    /// `+NN`/`-NN`/` NN` lines, `...` between hunks.
    pub text: String,
    /// One-based line of the new text where the first change is (for a pure deletion, the line
    /// that now stands where the deleted lines were).
    pub first_changed_line: Option<usize>,
}

impl NumberedDiff {
    /// No diff text, only where the first change is: for callers that do not show a diff (one too
    /// costly to compute, a deleted file).
    pub fn untold(first_changed_line: Option<usize>) -> NumberedDiff {
        NumberedDiff {
            text: String::new(),
            first_changed_line,
        }
    }
}

/// A numbered diff for display; see the module docs for the markers.
pub fn numbered_diff(old: &[u8], new: &[u8], changes: &[Change]) -> NumberedDiff {
    let hunks = hunks(old, new, changes, Breaks::Any, DEFAULT_CONTEXT, (1, 1));
    render_numbered(&hunks, count_lines(old), count_lines(new), None)
}

/// [`numbered_diff`] with every line longer than `cut` allows shown cut ([`LineCut`]).
pub fn numbered_diff_cut(old: &[u8], new: &[u8], changes: &[Change], cut: &LineCut<'_>) -> NumberedDiff {
    let hunks = hunks(old, new, changes, Breaks::Any, DEFAULT_CONTEXT, (1, 1));
    render_numbered(&hunks, count_lines(old), count_lines(new), Some(cut))
}

/// The numbered diff of `hunks`, of texts of `old_lines` and `new_lines` lines.
fn render_numbered(
    hunks: &[Vec<Item<'_>>],
    old_lines: usize,
    new_lines: usize,
    cut: Option<&LineCut<'_>>,
) -> NumberedDiff {
    let first_changed_line = hunks
        .first()
        .and_then(|h| h.iter().find(|i| i.tag != Tag::Equal))
        .map(|i| i.new_no);
    let max_no = hunks
        .iter()
        .flatten()
        .map(|i| i.old_no.max(i.new_no))
        .max()
        .unwrap_or(1);
    let width = max_no.to_string().len();
    let mut text = String::new();
    for (k, h) in hunks.iter().enumerate() {
        if k > 0 || h[0].old_no > 1 {
            let _ = writeln!(text, " {:>width$} ...", "");
        }
        let eols: Vec<&[u8]> = h
            .iter()
            .filter(|i| i.tag != Tag::Equal)
            .map(|i| eol_of(i.line))
            .collect();
        let show_eol = eols.windows(2).any(|w| w[0] != w[1]);
        for item in h {
            let (sign, no) = match item.tag {
                Tag::Equal => (' ', item.new_no),
                Tag::Delete => ('-', item.old_no),
                Tag::Insert => ('+', item.new_no),
            };
            let (content, eol) = item.line.split_at(item.line.len() - eol_of(item.line).len());
            let _ = write!(text, "{sign}{no:>width$} ");
            let place = cut.and_then(|cut| cut.place(content, item.focus).map(|place| (cut, place)));
            let shown = place
                .as_ref()
                .map_or(0..content.len(), |(_, place)| place.shown.clone());
            let body = |text: &mut String, shown: Range<usize>| {
                if item.tag == Tag::Equal {
                    text.push_str(&String::from_utf8_lossy(&content[shown]));
                } else {
                    marked(text, content, shown);
                }
            };
            match place {
                Some((cut, place)) => cut.render(&mut text, place, body),
                None => body(&mut text, shown),
            }
            if item.tag != Tag::Equal && show_eol {
                text.push_str(eol_mark(eol));
            }
            text.push('\n');
            if item.tag != Tag::Equal && eol_of(item.line).is_empty() {
                let _ = writeln!(text, " {:>width$} \\ No newline at end of file", "");
            }
        }
    }
    if let Some(last) = hunks.last().and_then(|h| h.last()) {
        if last.new_no < new_lines || last.old_no < old_lines {
            let _ = writeln!(text, " {:>width$} ...", "");
        }
    }
    NumberedDiff {
        text,
        first_changed_line,
    }
}

/// Lines of unchanged text a [`Windows`] window keeps on each side of its changes, in `\n`-lines:
/// the diff's context, the line a change ends in, and one line to spare.
const WINDOW_LINES: usize = DEFAULT_CONTEXT + 2;

/// Bytes of unchanged text past which a window takes no more lines of context: lines this long
/// (minified code) are shown cut ([`LineCut`]), so a change inside a line of megabytes costs that
/// line, not the lines around it, and its diff shows fewer lines of context.
const WINDOW_REACH: usize = 1 << 20;

/// The text after a list of replacements, held as the text before and a *window* around each group
/// of nearby changes (the old bytes there and the new bytes that replace them), never as a whole
/// copy: what the diffs and line numbers of a large file need when an edit changed a few lines.
///
/// Each window starts and ends at the start of a line (after a `\n`, or at an end of the text) at
/// least [`DEFAULT_CONTEXT`]` + 2` `\n`-lines away from its changes, so the diffs computed window by
/// window are the diffs of the whole texts ([`numbered_diff`], [`unified_patch`]) and the line
/// numbers are those of the whole texts. Edge cases: a text with few `\n` (a minified file, one
/// whose lines end with a lone CR) has long `\n`-lines: a window takes no line that would take it
/// further than [`WINDOW_REACH`] bytes from its changes (then its diffs show fewer lines of context
/// than the whole texts'), but holds the lines of its changes whole.
#[derive(Clone, Debug)]
pub struct Windows<'a> {
    windows: Vec<Window<'a>>,
    /// Lines of the text before and after (every terminator ends a line).
    old_lines: usize,
    new_lines: usize,
}

/// Old byte ranges and the bytes that replace them.
type Replacements<'r> = Vec<(Range<usize>, &'r [u8])>;

/// A window's old and new bytes and its changes, with a prefix before both.
type Prefixed<'w> = (Cow<'w, [u8]>, Cow<'w, [u8]>, Vec<Change>);

/// One window: where it is in both texts, its bytes, its changes (offsets in the window) and the line
/// numbers its start has in both texts, counting every terminator (`any`) or `\n` only (`lf`).
#[derive(Clone, Debug)]
struct Window<'a> {
    old_start: usize,
    new_start: usize,
    old: &'a [u8],
    new: Vec<u8>,
    changes: Vec<Change>,
    any: (usize, usize),
    lf: (usize, usize),
}

impl<'a> Windows<'a> {
    /// The windows of `old` after `replacements`: each an old byte range of `old` (in file order, not
    /// overlapping; empty for an insertion) and the bytes written in its place.
    pub fn new<'r>(old: &'a [u8], replacements: impl IntoIterator<Item = (Range<usize>, &'r [u8])>) -> Windows<'a> {
        Windows::counted(old, replacements, true, true, None)
    }

    /// [`Windows::new`] knowing whether `old` holds a CR (without one, its lines are counted once, by
    /// their `\n`: both ways of counting agree; `has_cr` true is always correct). Unless `to_end`,
    /// lines are counted only up to the last window: the line numbers in the windows are right, the
    /// whole texts' line counts ([`Windows::new_line_count`], the diffs' number widths) are zero.
    /// `seed`, a position no later than the first window's start and its line (the caller counted
    /// that far already, see [`window_start`]), spares counting the text before it again.
    pub(crate) fn counted<'r>(
        old: &'a [u8],
        replacements: impl IntoIterator<Item = (Range<usize>, &'r [u8])>,
        has_cr: bool,
        to_end: bool,
        seed: Option<(usize, usize)>,
    ) -> Windows<'a> {
        let mut windows: Vec<Window<'a>> = Vec::new();
        // Without the diffs (not `to_end`), a window is the lines of its changes alone.
        let lines = if to_end { WINDOW_LINES } else { 0 };
        let first_start = |span: &Range<usize>| lines_back(old, span.start, lines, WINDOW_REACH);
        let mut replacements = replacements.into_iter().peekable();
        let mut any = match (seed, replacements.peek()) {
            (Some((at, line)), Some((span, _))) if at <= first_start(span) => {
                LineCounter::resumed(old, at, line, has_cr)
            }
            _ => LineCounter::knowing_crs(old, has_cr),
        };
        // Without a CR, `any` counts the `\n` lines: the same numbers.
        let mut lf = has_cr.then(|| LineCounter::lf_only(old));
        // Lines added by the windows so far (new minus old), for each way of counting.
        let (mut any_delta, mut lf_delta) = (0isize, 0isize);
        // The window being built: its old range, and its replacements.
        let mut open: Option<(Range<usize>, Replacements<'r>)> = None;
        let mut close = |range: Range<usize>, parts: Replacements<'r>, windows: &mut Vec<Window<'a>>| {
            let any_old = any.line_at(range.start);
            let lf_old = lf.as_mut().map_or(any_old, |lf| lf.line_at(range.start));
            let shift = |line: usize, delta: isize| line.checked_add_signed(delta).expect("line numbers stay positive");
            let new_start = windows.last().map_or(range.start, |w| {
                w.new_start + w.new.len() + (range.start - (w.old_start + w.old.len()))
            });
            let mut new = Vec::with_capacity(range.len());
            let mut changes = Vec::with_capacity(parts.len());
            let mut cursor = range.start;
            for (span, bytes) in parts {
                new.extend_from_slice(&old[cursor..span.start]);
                let at = new.len();
                new.extend_from_slice(bytes);
                changes.push(Change::new(
                    span.start - range.start..span.end - range.start,
                    at..new.len(),
                ));
                cursor = span.end;
            }
            new.extend_from_slice(&old[cursor..range.end]);
            let old_bytes = &old[range.clone()];
            let window = Window {
                old_start: range.start,
                new_start,
                old: old_bytes,
                changes,
                any: (any_old, shift(any_old, any_delta)),
                lf: (lf_old, shift(lf_old, lf_delta)),
                new,
            };
            any_delta += count_lines(&window.new) as isize - count_lines(old_bytes) as isize;
            lf_delta += Breaks::Lf.count(&window.new) as isize - Breaks::Lf.count(old_bytes) as isize;
            windows.push(window);
        };
        for (span, bytes) in replacements {
            let start = lines_back(old, span.start, lines, WINDOW_REACH);
            let end = lines_forward(old, span.end, lines, WINDOW_REACH);
            match &mut open {
                Some((range, parts)) if start <= range.end => {
                    range.end = range.end.max(end);
                    parts.push((span, bytes));
                }
                _ => {
                    if let Some((range, parts)) = open.take() {
                        close(range, parts, &mut windows);
                    }
                    open = Some((start..end, vec![(span, bytes)]));
                }
            }
        }
        if let Some((range, parts)) = open.take() {
            close(range, parts, &mut windows);
        }
        // The counter goes on from the last window to the end: one pass over the text in all.
        let (old_lines, new_lines) = if to_end {
            let old_lines = any.line_at(old.len()) - 1 + usize::from(crate::text::lines::ends_open(old));
            let new_lines = old_lines
                .checked_add_signed(any_delta)
                .expect("a text has no fewer than zero lines");
            (old_lines, new_lines)
        } else {
            (0, 0)
        };
        Windows {
            windows,
            old_lines,
            new_lines,
        }
    }

    /// Whether no replacement was given.
    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    /// How many lines the text after has (every terminator ends a line; see [`count_lines`]).
    pub fn new_line_count(&self) -> usize {
        self.new_lines
    }

    /// The one-based line that each of `positions` (ascending offsets in the text after, each inside
    /// or at an end of a replacement) is on, as [`LineCounter::line_at`] counts them in the whole text
    /// after.
    pub fn new_lines_at(&self, positions: impl IntoIterator<Item = usize>) -> Vec<usize> {
        let mut out = Vec::new();
        let mut k = 0;
        let mut counter: Option<LineCounter<'_>> = None;
        for at in positions {
            while k + 1 < self.windows.len() && self.windows[k + 1].new_start <= at {
                k += 1;
                counter = None;
            }
            let w = &self.windows[k];
            let local = at.checked_sub(w.new_start).expect("a position inside a window");
            let line = counter.get_or_insert_with(|| LineCounter::new(&w.new)).line_at(local);
            out.push(w.any.1 + line - 1);
        }
        out
    }

    /// The numbered diff of the whole texts ([`numbered_diff`]), computed window by window.
    pub fn numbered_diff(&self) -> NumberedDiff {
        self.numbered(None)
    }

    /// [`numbered_diff_cut`] of the whole texts, computed window by window.
    pub fn numbered_diff_cut(&self, cut: &LineCut<'_>) -> NumberedDiff {
        self.numbered(Some(cut))
    }

    fn numbered(&self, cut: Option<&LineCut<'_>>) -> NumberedDiff {
        let hunks: Vec<Vec<Item<'_>>> = self
            .windows
            .iter()
            .flat_map(|w| hunks(w.old, &w.new, &w.changes, Breaks::Any, DEFAULT_CONTEXT, w.any))
            .collect();
        render_numbered(&hunks, self.old_lines, self.new_lines, cut)
    }

    /// The unified patch of the whole texts ([`unified_patch`]) with `prefix` (a BOM, or nothing)
    /// before both, computed window by window.
    pub fn unified_patch(&self, prefix: &[u8], path: &str) -> String {
        self.patch(prefix, path, None).0
    }

    /// [`unified_patch_cut`] of the whole texts with `prefix` before both, computed window by
    /// window, and whether a line was cut.
    pub fn unified_patch_cut(&self, prefix: &[u8], path: &str, cut: &LineCut<'_>) -> (String, bool) {
        self.patch(prefix, path, Some(cut))
    }

    fn patch(&self, prefix: &[u8], path: &str, cut: Option<&LineCut<'_>>) -> (String, bool) {
        let prefixed: Vec<Prefixed<'_>> = self
            .windows
            .iter()
            .map(|w| {
                if prefix.is_empty() || w.old_start > 0 {
                    return (w.old.into(), w.new.as_slice().into(), w.changes.clone());
                }
                let shift = prefix.len();
                let changes = w
                    .changes
                    .iter()
                    .map(|c| {
                        Change::new(
                            c.old.start + shift..c.old.end + shift,
                            c.new.start + shift..c.new.end + shift,
                        )
                    })
                    .collect();
                (
                    [prefix, w.old].concat().into(),
                    [prefix, w.new.as_slice()].concat().into(),
                    changes,
                )
            })
            .collect();
        let hunks: Vec<Vec<Item<'_>>> = prefixed
            .iter()
            .zip(&self.windows)
            .flat_map(|((old, new, changes), w)| hunks(old, new, changes, Breaks::Lf, DEFAULT_CONTEXT, w.lf))
            .collect();
        render_patch(&hunks, path, cut)
    }
}

/// Where the window of a replacement starting at `at` starts in [`Windows`] counted only for line
/// numbers (not `to_end`), when no earlier one shares it: the start of its `\n`-line, what a caller
/// counting lines up to `at` passes as [`Windows::counted`]'s seed.
pub(crate) fn window_start(text: &[u8], at: usize) -> usize {
    lines_back(text, at, 0, 0)
}

/// The start of the `\n`-line holding `at`, moved back by up to `lines` whole lines as long as it
/// stays within `reach` bytes of `at`.
fn lines_back(text: &[u8], at: usize, lines: usize, reach: usize) -> usize {
    let line_start = |end: usize| memchr::memrchr(b'\n', &text[..end]).map_or(0, |i| i + 1);
    let mut start = line_start(at);
    for _ in 0..lines {
        if start == 0 {
            return 0;
        }
        let before = line_start(start - 1);
        if at - before > reach {
            break;
        }
        start = before;
    }
    start
}

/// The end of the `\n`-line holding `at` (after its `\n`; or the end), moved on by up to `lines`
/// whole lines as long as it stays within `reach` bytes of `at`.
fn lines_forward(text: &[u8], at: usize, lines: usize, reach: usize) -> usize {
    let line_end = |from: usize| memchr::memchr(b'\n', &text[from..]).map(|i| from + i + 1);
    let Some(mut end) = line_end(at) else {
        return text.len();
    };
    for _ in 0..lines {
        match line_end(end) {
            Some(next) if next - at <= reach => end = next,
            Some(_) => break,
            None => {
                if text.len() - at <= reach {
                    end = text.len();
                }
                break;
            }
        }
    }
    end
}

fn eol_of(line: &[u8]) -> &[u8] {
    &line[line.len() - terminator_len(line)..]
}

/// The bytes `shown` of a changed line's `content` (without its terminator) with what cannot be
/// seen made visible, pushed to `out`.
fn marked(out: &mut String, content: &[u8], shown: Range<usize>) {
    // Where trailing blanks start, in bytes.
    let trail = match std::str::from_utf8(content) {
        Ok(text) => text.trim_end_matches(is_line_blank).len(),
        Err(_) => content.len() - content.iter().rev().take_while(|b| matches!(b, b' ' | b'\t')).count(),
    };
    let part = &content[shown.clone()];
    for (valid, invalid) in crate::text::lines::utf8_pieces(part) {
        let base = shown.start + (valid.as_ptr() as usize - part.as_ptr() as usize);
        for (i, c) in valid.char_indices() {
            if base + i >= trail && (c == ' ' || c == '\t') {
                out.push(if c == ' ' { '·' } else { '→' });
            } else if is_invisible(c) {
                let _ = write!(out, "⟨U+{:04X}⟩", c as u32);
            } else {
                out.push(c);
            }
        }
        for b in invalid {
            let _ = write!(out, "⟨0x{b:02X}⟩");
        }
    }
}

/// How a changed line's terminator is shown where the changed lines do not all end alike.
fn eol_mark(eol: &[u8]) -> &'static str {
    match eol {
        b"\r\n" => "␍␊",
        b"\r" => "␍",
        b"\n" => "␊",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn characters_counted_by_words_are_the_bytes_that_begin_one(
            bytes in proptest::collection::vec(any::<u8>(), 0..2100),
            text in ".{0,700}",
        ) {
            let naive = |b: &[u8]| b.iter().filter(|&&x| !continues(x)).count();
            prop_assert_eq!(count_chars(&bytes), naive(&bytes));
            prop_assert_eq!(count_chars(text.as_bytes()), text.chars().count());
        }

        #[test]
        fn lines_split_by_memchr_are_split_inclusive(text in "[ab\n\r]{0,40}") {
            let t = text.as_bytes();
            let want: Vec<&[u8]> = t.split_inclusive(|&b| b == b'\n').collect();
            prop_assert_eq!(Breaks::Lf.split(t), want);
        }
    }

    #[test]
    fn characters_of_a_long_line_are_counted_past_the_lane_limit() {
        // More than 255 words of continuation bytes: each lane is summed before it could overflow.
        let line = "\u{e9}".repeat(5000) + "x";
        assert_eq!(count_chars(line.as_bytes()), 5001);
        assert_eq!(count_chars(&[0x80u8; 8 * 255]), 0);
        assert_eq!(count_chars(&[0x80u8; 8 * 256 + 3]), 0);
    }

    #[test]
    fn windows_counted_knowing_there_is_no_cr_or_not_to_the_end_agree_with_new() {
        let old: Vec<u8> = (0..400).flat_map(|i| format!("line {i}\n").into_bytes()).collect();
        let text_of = |i: usize| format!("line {i}\n");
        let at = |i: usize| {
            old.windows(text_of(i).len())
                .position(|w| w == text_of(i).as_bytes())
                .unwrap()
        };
        for (picks, new) in [
            (vec![0], &b""[..]),
            (vec![5, 6, 300], b"x\ny\n"),
            (vec![100, 399], b"a CR\r\nand a lone one\rand none"),
        ] {
            let reps: Vec<(Range<usize>, &[u8])> =
                picks.iter().map(|&i| (at(i)..at(i) + text_of(i).len(), new)).collect();
            let whole = Windows::new(&old, reps.iter().cloned());
            let known = Windows::counted(&old, reps.iter().cloned(), false, true, None);
            assert_eq!(known.numbered_diff(), whole.numbered_diff());
            assert_eq!(known.unified_patch(b"", "f"), whole.unified_patch(b"", "f"));
            assert_eq!(known.new_line_count(), whole.new_line_count());
            // Where each replacement starts and ends in the text after (what `new_lines_at` is
            // asked about): the windows counted only for line numbers hold no context lines.
            let positions: Vec<usize> = whole
                .windows
                .iter()
                .flat_map(|w| {
                    w.changes
                        .iter()
                        .flat_map(|c| [w.new_start + c.new.start, w.new_start + c.new.end])
                })
                .collect();
            let partial = Windows::counted(&old, reps.iter().cloned(), false, false, None);
            assert_eq!(
                partial.new_lines_at(positions.clone()),
                whole.new_lines_at(positions.clone())
            );
            // Seeded with the line of the first window's start, as `apply_spliced` does.
            let start = window_start(&old, reps[0].0.start);
            let seed = Some((start, crate::text::lines::line_of(&old, start)));
            let seeded = Windows::counted(&old, reps.iter().cloned(), true, true, seed);
            assert_eq!(seeded.numbered_diff(), whole.numbered_diff());
            assert_eq!(seeded.new_line_count(), whole.new_line_count());
            let partial = Windows::counted(&old, reps.iter().cloned(), false, false, seed);
            assert_eq!(partial.new_lines_at(positions.clone()), whole.new_lines_at(positions));
            assert_eq!(partial.new_line_count(), 0);
        }
    }

    fn changes_of(old: &[u8], new: &[u8]) -> Vec<Change> {
        let (pre, post) = crate::text::budget::common_affixes(old, new);
        vec![Change::new(pre..old.len() - post, pre..new.len() - post)]
    }

    #[test]
    fn seed_shape() {
        let old = b"const label = \"a \xe2\x80\x94 b\";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n";
        let new = b"const label = \"a \xe2\x80\x94 b\";\nlet x = 1;   \n\nfunction bar() {\n  return 3;\n}\n";
        let d = numbered_diff(old, new, &changes_of(old, new));
        assert_eq!(
            d.text,
            "   ...\n 2 let x = 1;   \n 3 \n 4 function bar() {\n-5   return 2;\n+5   return 3;\n 6 }\n"
        );
        assert_eq!(d.first_changed_line, Some(5));
        let p = unified_patch(old, new, &changes_of(old, new), "x.ts");
        assert!(p.contains("@@ -2,5 +2,5 @@\n"), "{p}");
    }

    #[test]
    fn invisible_changes_are_marked() {
        let old = b"a\nx = 1;   \nb\n";
        let new = b"a\nx = 1;\nb\n";
        let d = numbered_diff(old, new, &changes_of(old, new));
        assert!(d.text.contains("-2 x = 1;···\n"), "{}", d.text);
        let old = b"a\r\nb\r\n";
        let new = b"a\r\nb\n";
        let d = numbered_diff(old, new, &changes_of(old, new));
        assert!(d.text.contains("-2 b␍␊") && d.text.contains("+2 b␊"), "{}", d.text);
    }

    #[test]
    fn whole_change_trims_and_keeps_crlf_and_utf8_whole() {
        assert!(whole_change(b"same", b"same").is_empty());
        assert_eq!(whole_change(b"abcXdef", b"abcYYdef"), vec![Change::new(3..4, 3..5)]);
        // The prefix may not end between CR and LF, nor the suffix start there.
        assert_eq!(whole_change(b"a\r\nb", b"a\rx\nb"), vec![Change::new(1..3, 1..4)]);
        assert_eq!(whole_change(b"x\r\n", b"y\r\n"), vec![Change::new(0..1, 0..1)]);
        assert_eq!(whole_change(b"a\n", b"a\r\n"), vec![Change::new(1..2, 1..3)]);
        assert_eq!(whole_change(b"", b"new"), vec![Change::new(0..0, 0..3)]);
        assert_eq!(whole_change(b"aa", b"a"), vec![Change::new(1..2, 1..1)]);
        // \u{e9} and \u{e8} share their first byte: the change covers the whole character.
        assert_eq!(
            whole_change("x\u{e9}y".as_bytes(), "x\u{e8}y".as_bytes()),
            vec![Change::new(1..3, 1..3)]
        );
    }

    #[test]
    fn no_final_newline() {
        let old = b"a\nb";
        let new = b"a\nc";
        let p = unified_patch(old, new, &changes_of(old, new), "f");
        assert_eq!(p, "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    }
}
