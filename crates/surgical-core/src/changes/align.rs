//! Building the bytes that replace one matched span: change only what the model changed.
//!
//! The file's span `S` matched the model's `oldText` `O` under some normalization, and the model
//! wants `newText` `N` there. Where `O` and `N` agree, the model changed nothing, so the file's own
//! bytes are kept; where they differ, `N` is written as given. The alignment runs in two steps:
//!
//! 1. Lines. `S` and `O` have the same lines (every normalization keeps line breaks), so a line diff
//!    of `O` against `N` says which file lines are kept whole (with their own terminators), deleted,
//!    inserted, or changed. Changed lines are paired with the new lines they most resemble; a line
//!    that resembles none was rewritten and takes `N` as written.
//! 2. Characters, inside each paired line: the file line and the old line are cut into *atoms*, the
//!    shortest pieces that normalize to the same text on both sides (`—` against `-`, a no-break
//!    space against a space, `ﬁ` against `fi`). A character diff of old against new keeps the file's
//!    atom wherever the whole atom lies in an unchanged stretch. Trailing blanks are handled apart:
//!    the file's stay unless the model changed the old line's.
//!
//! Inserted lines take the terminator of the place they land (`local_eol`); kept lines keep theirs.

use similar::DiffOp;

use crate::text::budget::Budget;

use crate::text::fold::is_line_blank;
use crate::text::lines::{next_terminator, prev_terminator, split_lines, split_model_lines, terminator_len, Line};
use crate::text::normalize::{normalize, Fold};

/// Something that differed between the file and `oldText` inside a matched span.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Difference {
    /// One-based line of the new text in an [`crate::Applied`] (zero-based within the span while the
    /// engine aligns it).
    pub line: usize,
    /// What differed.
    pub kind: DifferenceKind,
}

impl Difference {
    /// A difference of kind `kind` on line `line`.
    pub fn new(line: usize, kind: DifferenceKind) -> Difference {
        Difference { line, kind }
    }

    /// The same difference, reported on line `line`.
    pub fn on_line(self, line: usize) -> Difference {
        Difference { line, ..self }
    }
}

/// What differed, and whether the file's version was kept.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DifferenceKind {
    /// The file has `file` where the model wrote `model` (quotes, dashes, special spaces, Unicode
    /// forms, invalid UTF-8 shown as U+FFFD).
    Text {
        /// The file's characters.
        file: String,
        /// The model's.
        model: String,
        /// Whether the file's characters stayed.
        kept: bool,
    },
    /// The line's trailing blanks differ.
    TrailingWhitespace {
        /// The file's trailing blanks.
        file: String,
        /// The model's.
        model: String,
        /// Whether the file's stayed.
        kept: bool,
    },
    /// The line differed from `oldText` and the model rewrote it, so `newText` was written as given.
    Rewritten,
    /// What a looser tier forgave (indentation, spacing, escapes, a paraphrase, a first line indented
    /// more), on the first line of the span.
    Forgiven(crate::find::forgiven::Forgiven),
}

/// The replacement bytes for one span, and what differed on the way.
#[derive(Debug, Default)]
pub(crate) struct Aligned {
    pub bytes: Vec<u8>,
    pub differences: Vec<Difference>,
    /// A U+FFFD that `newText` wrote where no file bytes stood behind it (lines it rewrote): the
    /// output line it is on. The splice refuses it only in a text that is not valid UTF-8.
    pub fabricated_replacement_char: Option<usize>,
    /// Some diff ran past its work budget, so a coarser alignment kept fewer of the file's
    /// characters (see [`crate::text::budget`]).
    pub coarse: bool,
    /// Lines completed so far in `bytes`: where differences are reported.
    lines_out: usize,
}

/// How alike two lines must be (similar's ratio) to count as edited rather than rewritten.
const EDITED_LINE_RATIO: f32 = 0.5;
/// Beyond this many line pairs, changed blocks are paired by position instead of by best alignment.
const MAX_PAIRING_CELLS: usize = 4096;

/// Builds the bytes that replace `span` (which matched `old` under `fold`) so that the file reads
/// `new` there. `old` and `new` use `\n` only.
pub(crate) fn align(span: &[u8], old: &str, new: &str, fold: Fold, local_eol: &[u8]) -> Aligned {
    align_ending(span, old, new, fold, local_eol, None)
}

/// [`align`], where `written` (when given) is the terminator of every line `new` writes that is not
/// a file line kept as it is (edited and new lines alike), instead of the terminator of the file
/// line it stands in for: the caller decided it (a lazy snippet's run of new lines takes its kept
/// neighbours' ending in a file of mixed endings).
pub(crate) fn align_ending(
    span: &[u8],
    old: &str,
    new: &str,
    fold: Fold,
    local_eol: &[u8],
    written: Option<&[u8]>,
) -> Aligned {
    let mut budget = Budget::for_bytes(span.len() + old.len() + new.len());
    let mut out = align_within(span, old, new, fold, local_eol, written, &mut budget);
    out.coarse |= budget.exceeded();
    out
}

/// [`align_ending`], with every diff drawing from `budget`.
fn align_within(
    span: &[u8],
    old: &str,
    new: &str,
    fold: Fold,
    local_eol: &[u8],
    written: Option<&[u8]>,
    budget: &mut Budget,
) -> Aligned {
    let mut out = Aligned::default();
    let mut s_lines = split_lines(span);
    let o_lines = split_model_lines(old);
    // The file's line there is empty as far as the span goes: a blank line `new` keeps as it is
    // keeps the file's bytes, which lie outside the span (the blanks are not written onto it), and
    // deleting it deletes nothing.
    let past = past_the_span(span, &s_lines, &o_lines).then_some(s_lines.len());
    if past.is_some() {
        let end = &span[span.len()..];
        s_lines.push(Line { content: end, eol: end });
    }
    let n_lines = split_model_lines(new);
    let consistent =
        s_lines.len() == o_lines.len() && s_lines.iter().zip(&o_lines).all(|(s, o)| s.eol.is_empty() != o.1);
    if !consistent {
        // Cannot happen for a real match (normalization keeps line breaks). Should it, `newText` is
        // written as given, and the result says so (a coarse alignment, every line rewritten)
        // rather than pass it off as a faithful one.
        out.coarse = true;
        for (line, (text, nl)) in n_lines.iter().enumerate() {
            out.differences.push(Difference {
                line,
                kind: DifferenceKind::Rewritten,
            });
            push_written(&mut out, text, *nl, local_eol);
        }
        return out;
    }

    let o_keys: Vec<&str> = o_lines.iter().map(|l| l.0).collect();
    let n_keys: Vec<&str> = n_lines.iter().map(|l| l.0).collect();
    let ops = budget.anchored_diff(&o_keys, &n_keys);
    let blocks = change_blocks(&ops, &o_keys, &n_keys, budget);
    let (moved, moved_old) = moved_lines(&blocks, &o_keys, &n_keys, n_lines.len(), past);
    let mut last_eol = if s_lines[0].eol.is_empty() {
        local_eol
    } else {
        s_lines[0].eol
    };
    let mut i = 0;
    let mut next_block = 0;
    while i < ops.len() {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = ops[i]
        {
            for k in 0..len {
                let s = &s_lines[old_index + k];
                let line = out.lines_out;
                note_differences(&mut out, s.content, o_keys[old_index + k], fold, line);
                out.bytes.extend_from_slice(s.content);
                push_eol(&mut out, s, n_lines[new_index + k].1, local_eol);
                if !s.eol.is_empty() {
                    last_eol = s.eol;
                }
            }
            i += 1;
            continue;
        }
        let block = &blocks[next_block];
        next_block += 1;
        i = block.ops_end;
        let (o_start, o_end, n_start, n_end) = (block.old.start, block.old.end, block.new.start, block.new.end);
        let pairs = &block.pairs;
        let block_first_line = out.lines_out;
        let mut next_pair = 0;
        for (n, &(text, nl)) in n_lines.iter().enumerate().take(n_end).skip(n_start) {
            // A new line takes the terminator of the file line it stands in for, if any.
            let replaced = o_start + (n - n_start);
            let landing = if let Some(w) = written {
                w
            } else if replaced < o_end && !s_lines[replaced].eol.is_empty() {
                s_lines[replaced].eol
            } else if o_end > o_start && !s_lines[o_end - 1].eol.is_empty() {
                s_lines[o_end - 1].eol
            } else {
                last_eol
            };
            match pairs.get(next_pair) {
                Some(&(po, pn)) if pn + n_start == n => {
                    next_pair += 1;
                    let o = o_start + po;
                    let s = &s_lines[o];
                    let line = out.lines_out;
                    edit_line(&mut out, s.content, o_keys[o], text, fold, line, budget);
                    match written {
                        Some(w) if nl && !s.eol.is_empty() => {
                            out.bytes.extend_from_slice(w);
                            out.lines_out += 1;
                        }
                        _ => push_eol(&mut out, s, nl, local_eol),
                    }
                    if !s.eol.is_empty() {
                        last_eol = s.eol;
                    }
                }
                _ => match moved[n] {
                    // A line the model copied, moved by the alignment: the file's characters.
                    Some(o) => {
                        let line = out.lines_out;
                        edit_line(&mut out, s_lines[o].content, o_keys[o], text, fold, line, budget);
                        if nl {
                            out.bytes.extend_from_slice(landing);
                            out.lines_out += 1;
                        }
                    }
                    None => push_written(&mut out, text, nl, landing),
                },
            }
        }
        for o in o_start..o_end {
            let removed = !pairs.iter().any(|&(po, _)| po + o_start == o) && past != Some(o) && !moved_old[o];
            if removed && s_lines[o].content != o_keys[o].as_bytes() {
                // Reported on the new line that stands where it stood (the block's last new line
                // when it had more lines than newText gave; the line after a deletion).
                let line = block_first_line + (o - o_start).min((n_end - n_start).saturating_sub(1));
                out.differences.push(Difference {
                    line,
                    kind: DifferenceKind::Rewritten,
                });
            }
        }
    }
    out
}

/// One block of changed lines of the line diff: its old and new lines, its ops' end, and the old
/// lines paired with the new lines they were edited into (block-relative).
struct Block {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
    ops_end: usize,
    pairs: Vec<(usize, usize)>,
}

/// Every change block of `ops`, in order, each with its pairing.
fn change_blocks(ops: &[DiffOp], o_keys: &[&str], n_keys: &[&str], budget: &mut Budget) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < ops.len() {
        if matches!(ops[i], DiffOp::Equal { .. }) {
            i += 1;
            continue;
        }
        let (o_start, o_end, n_start, n_end) = change_block(ops, &mut i);
        let pairs = pair_lines_within(&o_keys[o_start..o_end], &n_keys[n_start..n_end], budget);
        blocks.push(Block {
            old: o_start..o_end,
            new: n_start..n_end,
            ops_end: i,
            pairs,
        });
    }
    blocks
}

/// New lines that are word for word an old line the alignment removed (in any block: the model
/// moved a line it copied, and the diff kept another line in its place): `moved[n]` is that old
/// line, each old line taken once, in order. Such a line is written from the file's line, so what
/// the model misremembered in it (a quote, a space) is not written, wherever the alignment puts it.
/// Blank lines are left alone. `moved_old[o]`: old line `o` is one of them. `past` is no file line.
fn moved_lines(
    blocks: &[Block],
    o_keys: &[&str],
    n_keys: &[&str],
    n_count: usize,
    past: Option<usize>,
) -> (Vec<Option<usize>>, Vec<bool>) {
    let mut moved = vec![None; n_count];
    let mut moved_old = vec![false; o_keys.len()];
    let unpaired_old: Vec<usize> = blocks
        .iter()
        .flat_map(|b| {
            b.old
                .clone()
                .filter(|&o| !b.pairs.iter().any(|&(po, _)| po + b.old.start == o))
        })
        .filter(|&o| past != Some(o))
        .collect();
    if unpaired_old.is_empty() {
        return (moved, moved_old);
    }
    for b in blocks {
        for n in b.new.clone() {
            // A blank line carries nothing visible to take from the file.
            if n_keys[n].trim().is_empty() || b.pairs.iter().any(|&(_, pn)| pn + b.new.start == n) {
                continue;
            }
            if let Some(&o) = unpaired_old.iter().find(|&&o| !moved_old[o] && o_keys[o] == n_keys[n]) {
                moved[n] = Some(o);
                moved_old[o] = true;
            }
        }
    }
    (moved, moved_old)
}

/// Whether `old`'s last line is blanks past the end of `span` that a trimming tier matched to nothing:
/// `old` ends with a begun line of blanks after a line break, and the span ends where a line starts
/// (after a terminator, or at the end of a text), one line short of `old`.
fn past_the_span(span: &[u8], s_lines: &[Line<'_>], o_lines: &[(&str, bool)]) -> bool {
    let ends_at_line_start = span.is_empty() || terminator_len(span) > 0;
    o_lines.len() == s_lines.len() + 1
        && ends_at_line_start
        && o_lines
            .last()
            .is_some_and(|&(text, terminated)| !terminated && text.chars().all(is_line_blank))
}

/// A diff that first sets aside the common prefix and suffix, so that among equally short diffs the
/// one that changes what the model visibly changed wins (Myers alone may pair a changed line with
/// an identical neighbour and delete the wrong copy).
pub(crate) fn anchored_diff<T: PartialEq + Eq + std::hash::Hash + Ord>(old: &[T], new: &[T]) -> Vec<DiffOp> {
    Budget::for_bytes(old.len() + new.len()).anchored_diff(old, new)
}

/// The block of changes starting at `ops[*i]` (everything up to the next `Equal`), as old and new
/// line ranges `(old_start, old_end, new_start, new_end)`; `*i` moves past it.
fn change_block(ops: &[DiffOp], i: &mut usize) -> (usize, usize, usize, usize) {
    let (o_start, n_start) = (ops[*i].old_range().start, ops[*i].new_range().start);
    let (mut o_end, mut n_end) = (o_start, n_start);
    while *i < ops.len() && !matches!(ops[*i], DiffOp::Equal { .. }) {
        let (o, n) = (ops[*i].old_range(), ops[*i].new_range());
        o_end = o_end.max(o.end);
        n_end = n_end.max(n.end);
        *i += 1;
    }
    (o_start, o_end, n_start, n_end)
}

/// Where the engine writes each line of `old` when it replaces a span matching `old` with `new`
/// (both broken with `\n`, as the model writes them): `Some(k)` for an old line kept as new line `k`
/// (equal) or edited into it (alike enough: the file's characters stay where the model changed
/// none), `None` for an old line deleted or rewritten (a new line resembling none of the old ones is
/// written as given). This is the line diff and pairing every replacement goes through, for a caller
/// that adjusts the new line standing for a given old one before replacing (surgical-patch carries a
/// first line's extra indentation to the line that continues it). Lines are zero-based; an empty
/// `old` gives an empty list. Past the engine's work budget (very large texts) the pairing is the
/// same coarser one the replacement then uses.
pub fn line_destinations(old: &str, new: &str) -> Vec<Option<usize>> {
    let o_keys: Vec<&str> = split_model_lines(old).into_iter().map(|l| l.0).collect();
    let n_keys: Vec<&str> = split_model_lines(new).into_iter().map(|l| l.0).collect();
    // The span matching `old` is about as long as `old`: the budget `align` would get.
    let mut budget = Budget::for_bytes(2 * old.len() + new.len());
    let ops = budget.anchored_diff(&o_keys, &n_keys);
    let mut out = vec![None; o_keys.len()];
    let mut i = 0;
    while i < ops.len() {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = ops[i]
        {
            for k in 0..len {
                out[old_index + k] = Some(new_index + k);
            }
            i += 1;
            continue;
        }
        let (o_start, o_end, n_start, n_end) = change_block(&ops, &mut i);
        for (po, pn) in pair_lines_within(&o_keys[o_start..o_end], &n_keys[n_start..n_end], &mut budget) {
            out[o_start + po] = Some(n_start + pn);
        }
    }
    out
}

fn push_eol(out: &mut Aligned, s: &Line<'_>, new_has_newline: bool, local_eol: &[u8]) {
    if new_has_newline {
        out.bytes
            .extend_from_slice(if s.eol.is_empty() { local_eol } else { s.eol });
        out.lines_out += 1;
    }
}

/// What [`crate::ChangeSet::insert_lines`] writes at `at`: `new` (lines broken with `\n`) with the
/// terminator documented there, after one that ends an open last line.
pub(crate) fn inserted(text: &[u8], at: usize, new: &str, fallback: &[u8]) -> Aligned {
    let mut out = Aligned::default();
    if new.is_empty() {
        return out;
    }
    let open_end = at == text.len() && !text.is_empty() && terminator_len(text) == 0;
    let eol: &[u8] = match prev_terminator(text, at) {
        Some(t) if t.end == at => &text[t],
        _ => match next_terminator(text, at).or_else(|| prev_terminator(text, text.len())) {
            Some(t) => &text[t],
            None => fallback,
        },
    };
    if open_end {
        out.bytes.extend_from_slice(eol);
        out.lines_out += 1;
    }
    let body = new.strip_suffix('\n').unwrap_or(new);
    let end_with_line_break = at < text.len() || new.ends_with('\n');
    let mut lines = body.split('\n').peekable();
    while let Some(line) = lines.next() {
        let newline = lines.peek().is_some() || end_with_line_break;
        push_written(&mut out, line, newline, eol);
    }
    out
}

fn push_written(out: &mut Aligned, text: &str, newline: bool, eol: &[u8]) {
    if text.contains('\u{FFFD}') && out.fabricated_replacement_char.is_none() {
        out.fabricated_replacement_char = Some(out.lines_out);
    }
    out.bytes.extend_from_slice(text.as_bytes());
    if newline {
        out.bytes.extend_from_slice(eol);
        out.lines_out += 1;
    }
}

/// Pairs old lines with the new lines they were edited into: the monotone pairing that maximizes
/// total similarity, counting only pairs alike enough to be edits. Indices are block-relative.
pub(crate) fn pair_lines(old: &[&str], new: &[&str]) -> Vec<(usize, usize)> {
    let bytes = old.iter().chain(new).map(|l| l.len()).sum();
    pair_lines_within(old, new, &mut Budget::for_bytes(bytes))
}

/// [`pair_lines`], with every comparison drawing from `budget`.
fn pair_lines_within(old: &[&str], new: &[&str], budget: &mut Budget) -> Vec<(usize, usize)> {
    let mut score = |o: &str, n: &str| -> Option<f32> {
        // A line the model only added to (`}` -> `} // done`) or only cut from is an edit however
        // short it is: written as given, it would lose the file's own characters around the change.
        // Its similarity is exact without a diff: the shorter line is the whole common part.
        if only_inserted_or_removed(o, n) {
            let (lo, ln) = (o.chars().count(), n.chars().count());
            return Some(((2 * lo.min(ln)) as f32 / (lo + ln) as f32).max(EDITED_LINE_RATIO));
        }
        // The ratio is at most 2 * shorter / both: lines of very unequal length are never compared.
        let (lo, ln) = (o.chars().count(), n.chars().count());
        if ((2 * lo.min(ln)) as f32 / (lo + ln).max(1) as f32) < EDITED_LINE_RATIO {
            return None;
        }
        let ratio = budget.char_ratio(o, n);
        (ratio >= EDITED_LINE_RATIO).then_some(ratio)
    };
    if old.is_empty() || new.is_empty() {
        return Vec::new();
    }
    if old.len() * new.len() > MAX_PAIRING_CELLS {
        return (0..old.len().min(new.len()))
            .filter(|&k| score(old[k], new[k]).is_some())
            .map(|k| (k, k))
            .collect();
    }
    let (a, b) = (old.len(), new.len());
    let mut best = vec![0f32; (a + 1) * (b + 1)];
    let at = |i: usize, j: usize| i * (b + 1) + j;
    for i in 1..=a {
        for j in 1..=b {
            let s = score(old[i - 1], new[j - 1]);
            let mut v = best[at(i - 1, j)].max(best[at(i, j - 1)]);
            if let Some(s) = s {
                v = v.max(best[at(i - 1, j - 1)] + s);
            }
            best[at(i, j)] = v;
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (a, b);
    while i > 0 && j > 0 {
        if best[at(i, j)] == best[at(i - 1, j)] {
            i -= 1;
        } else if best[at(i, j)] == best[at(i, j - 1)] {
            j -= 1;
        } else {
            pairs.push((i - 1, j - 1));
            i -= 1;
            j -= 1;
        }
    }
    pairs.reverse();
    pairs
}

/// Whether one line is the other with one run of characters inserted (or removed), the shorter one
/// holding more than blanks.
fn only_inserted_or_removed(o: &str, n: &str) -> bool {
    let (short, long) = if o.len() <= n.len() { (o, n) } else { (n, o) };
    if short.trim().is_empty() || short.len() == long.len() {
        return false;
    }
    let (short, long) = (short.as_bytes(), long.as_bytes());
    let pre = short.iter().zip(long).take_while(|(a, b)| a == b).count();
    long.ends_with(&short[pre..])
}

/// Splits trailing blanks (spaces, tabs, special spaces) off a line.
fn split_trailing(line: &[u8]) -> (&[u8], &[u8]) {
    let mut end = line.len();
    loop {
        let head = &line[..end];
        let Some(c) = last_char(head) else { break };
        if !is_line_blank(c) {
            break;
        }
        end -= c.len_utf8();
    }
    (&line[..end], &line[end..])
}

fn last_char(bytes: &[u8]) -> Option<char> {
    let start = bytes.len().saturating_sub(4);
    (start..bytes.len()).find_map(|i| {
        std::str::from_utf8(&bytes[i..]).ok().and_then(|s| {
            let mut cs = s.chars();
            let c = cs.next_back()?;
            cs.next().is_none().then_some(c)
        })
    })
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One changed line that the model edited: keep the file's characters where old and new agree.
fn edit_line(out: &mut Aligned, s: &[u8], o: &str, n: &str, fold: Fold, line: usize, budget: &mut Budget) {
    if s == o.as_bytes() {
        // The whole of newText is written: a U+FFFD it adds is fabricated, as in the changed part
        // of a line aligned below.
        let replacement_chars = |t: &str| t.matches('\u{FFFD}').count();
        if replacement_chars(n) > replacement_chars(o) && out.fabricated_replacement_char.is_none() {
            out.fabricated_replacement_char = Some(line);
        }
        out.bytes.extend_from_slice(n.as_bytes());
        return;
    }
    let (s_body, s_tws) = split_trailing(s);
    let (o_body, o_tws) = split_trailing(o.as_bytes());
    let (n_body, n_tws) = split_trailing(n.as_bytes());
    let (o_body, n_body) = (as_str(o_body), as_str(n_body));
    match align_chars(s_body, o_body, n_body, fold, line, &mut out.differences, budget) {
        Some((body, fabricated)) => {
            if fabricated && out.fabricated_replacement_char.is_none() {
                out.fabricated_replacement_char = Some(line);
            }
            out.bytes.extend_from_slice(&body);
        }
        None => {
            out.differences.push(Difference {
                line,
                kind: DifferenceKind::Rewritten,
            });
            if n_body.contains('\u{FFFD}') && out.fabricated_replacement_char.is_none() {
                out.fabricated_replacement_char = Some(line);
            }
            out.bytes.extend_from_slice(n_body.as_bytes());
        }
    }
    let kept = n_tws == o_tws;
    note_trailing(out, line, s_tws, o_tws, kept);
    out.bytes.extend_from_slice(if kept { s_tws } else { n_tws });
}

/// Records that a line's trailing blanks differ between the file and `oldText`.
fn note_trailing(out: &mut Aligned, line: usize, file: &[u8], model: &[u8], kept: bool) {
    if file != model {
        out.differences.push(Difference {
            line,
            kind: DifferenceKind::TrailingWhitespace {
                file: lossy(file),
                model: lossy(model),
                kept,
            },
        });
    }
}

fn as_str(b: &[u8]) -> &str {
    std::str::from_utf8(b).expect("split of valid UTF-8 at a char boundary")
}

/// A piece of the file line and the piece of the old line it corresponds to.
struct Atom {
    file: std::ops::Range<usize>,
    /// Char indices into the old line.
    old: std::ops::Range<usize>,
}

/// Cuts `s` and `o` into atoms: the shortest runs that normalize to the same text under `fold`.
/// `None` when they do not normalize to the same text at all.
fn atoms(s: &[u8], o: &str, fold: Fold) -> Option<Vec<Atom>> {
    let fold = fold.without_trim();
    let ns = normalize(s, fold);
    let no = normalize(o.as_bytes(), fold);
    if ns.text != no.text {
        return None;
    }
    let mut sp = ns.pieces(s);
    let mut op = no.pieces(o.as_bytes());
    // The char index in `o` of a byte offset that starts a piece; asked in ascending order.
    let (mut byte, mut chars) = (0, 0);
    let mut char_at = |at: usize| {
        chars += o[byte..at].chars().count();
        byte = at;
        chars
    };
    let mut atoms = Vec::new();
    loop {
        let (first_s, first_o) = match (sp.next(), op.next()) {
            (Some(a), Some(b)) => (a, b),
            (None, None) => return Some(atoms),
            _ => return None,
        };
        let (mut s_end, mut o_end) = (first_s.norm.end, first_o.norm.end);
        let (mut file_end, mut old_end) = (first_s.orig.end, first_o.orig.end);
        while s_end != o_end {
            if s_end < o_end {
                let next = sp.next()?;
                (s_end, file_end) = (next.norm.end, next.orig.end);
            } else {
                let next = op.next()?;
                (o_end, old_end) = (next.norm.end, next.orig.end);
            }
        }
        let old = char_at(first_o.orig.start)..char_at(old_end);
        atoms.push(Atom {
            file: first_s.orig.start..file_end,
            old,
        });
    }
}

/// Records where an unchanged line of the file differs from the model's old line (notes only).
fn note_differences(out: &mut Aligned, s: &[u8], o: &str, fold: Fold, line: usize) {
    if s == o.as_bytes() {
        return;
    }
    let (s_body, s_tws) = split_trailing(s);
    let (o_body, o_tws) = split_trailing(o.as_bytes());
    let o_chars: Vec<char> = as_str(o_body).chars().collect();
    if let Some(atoms) = atoms(s_body, as_str(o_body), fold) {
        for a in atoms {
            let model: String = o_chars[a.old.clone()].iter().collect();
            if s_body[a.file.clone()] != *model.as_bytes() {
                out.differences.push(Difference {
                    line,
                    kind: DifferenceKind::Text {
                        file: lossy(&s_body[a.file]),
                        model,
                        kept: true,
                    },
                });
            }
        }
    }
    note_trailing(out, line, s_tws, o_tws, true);
}

/// The character-level step for one edited line body.
fn align_chars(
    s: &[u8],
    o: &str,
    n: &str,
    fold: Fold,
    line: usize,
    differences: &mut Vec<Difference>,
    budget: &mut Budget,
) -> Option<(Vec<u8>, bool)> {
    let atoms = atoms(s, o, fold)?;
    let o_chars: Vec<char> = o.chars().collect();
    let n_chars: Vec<char> = n.chars().collect();
    let ops = budget.anchored_diff(&o_chars, &n_chars);
    // An atom is kept when one unchanged stretch covers all of it.
    let mut atom_of = vec![usize::MAX; o_chars.len()];
    for (idx, a) in atoms.iter().enumerate() {
        for k in a.old.clone() {
            atom_of[k] = idx;
        }
    }
    let mut kept = vec![false; atoms.len()];
    for op in &ops {
        if let DiffOp::Equal { old_index, len, .. } = *op {
            let first = atom_of.get(old_index).copied().unwrap_or(atoms.len());
            for (idx, a) in atoms.iter().enumerate().skip(first) {
                if a.old.start >= old_index + len {
                    break;
                }
                if a.old.start >= old_index && a.old.end <= old_index + len {
                    kept[idx] = true;
                }
            }
        }
    }
    // One buffer for the model's side of every atom: a line of 300 KB has as many atoms.
    let mut model = String::new();
    for (idx, a) in atoms.iter().enumerate() {
        model.clear();
        model.extend(&o_chars[a.old.clone()]);
        if s[a.file.clone()] != *model.as_bytes() {
            differences.push(Difference {
                line,
                kind: DifferenceKind::Text {
                    file: lossy(&s[a.file.clone()]),
                    model: model.clone(),
                    kept: kept[idx],
                },
            });
        }
    }
    let mut bytes = Vec::with_capacity(s.len() + n.len());
    let mut fabricated = false;
    let mut push = |bytes: &mut Vec<u8>, c: char| {
        fabricated |= c == '\u{FFFD}';
        bytes.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes());
    };
    for op in &ops {
        match *op {
            DiffOp::Equal { old_index, len, .. } => {
                for k in old_index..old_index + len {
                    let idx = atom_of[k];
                    if !kept[idx] {
                        push(&mut bytes, o_chars[k]);
                    } else if atoms[idx].old.start == k {
                        bytes.extend_from_slice(&s[atoms[idx].file.clone()]);
                    }
                }
            }
            DiffOp::Delete { .. } => {}
            DiffOp::Insert { new_index, new_len, .. } | DiffOp::Replace { new_index, new_len, .. } => {
                for &c in &n_chars[new_index..new_index + new_len] {
                    push(&mut bytes, c);
                }
            }
        }
    }
    Some((bytes, fabricated))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(span: &str, old: &str, new: &str, fold: Fold) -> String {
        String::from_utf8(align(span.as_bytes(), old, new, fold, b"\n").bytes).unwrap()
    }

    /// The lines on which a [`DifferenceKind::Rewritten`] is reported.
    fn rewritten_lines(out: &Aligned) -> Vec<usize> {
        out.differences
            .iter()
            .filter(|d| d.kind == DifferenceKind::Rewritten)
            .map(|d| d.line)
            .collect()
    }

    #[test]
    fn a_span_whose_lines_are_not_the_old_texts_is_written_as_given_and_said_so() {
        // Not a match any tier makes; the fallback must not pass as a faithful alignment.
        let out = align(b"a \nb\n", "a\n", "A\n", Fold::TRAILING, b"\n");
        assert_eq!(out.bytes, b"A\n");
        assert!(out.coarse);
        assert_eq!(rewritten_lines(&out), vec![0]);
        // oldText one line longer than the span, that line not blanks: nothing a trimming tier
        // matched to nothing past the span's end, so not taken for an empty file line there.
        let out = align(b"a\n", "a\nb", "a\nB", Fold::TRAILING, b"\n");
        assert_eq!(out.bytes, b"a\nB");
        assert!(out.coarse);
        assert_eq!(rewritten_lines(&out), vec![0, 1]);
    }

    #[test]
    fn on_line_moves_a_difference_and_keeps_what_it_says() {
        let kind = DifferenceKind::TrailingWhitespace {
            file: " ".into(),
            model: String::new(),
            kept: true,
        };
        let moved = Difference::new(2, kind.clone()).on_line(9);
        assert_eq!(moved, Difference::new(9, kind));
        assert_eq!(Difference::new(4, DifferenceKind::Rewritten).on_line(0).line, 0);
    }

    #[test]
    fn line_destinations_follow_the_replacement() {
        // Kept, edited (alike), rewritten (unlike), deleted.
        let old = "keep me\nedit this line\nrewrite\ndelete\n";
        let new = "INSERTED LINE\nkeep me\nedit this line!\nSOMETHING ELSE ENTIRELY\n";
        assert_eq!(line_destinations(old, new), vec![Some(1), Some(2), None, None]);
        // Where the replacement writes them: the kept and edited lines' file bytes stay.
        let out = run("keep me \nedit this line\nrewrite\ndelete\n", old, new, Fold::TRAILING);
        assert_eq!(
            out,
            "INSERTED LINE\nkeep me \nedit this line!\nSOMETHING ELSE ENTIRELY\n"
        );
        // A line moved past a change is found where it went; nothing maps to a line twice.
        assert_eq!(
            line_destinations("a first line\nb\n", "b\na first line, edited\n"),
            vec![None, Some(0)]
        );
        // A block whose first old line resembles no new line, before an edited one.
        assert_eq!(
            line_destinations("rewrite this\nedit this line\n", "SOMETHING ELSE\nedit this line!\n"),
            vec![None, Some(1)]
        );
        // A run of kept lines after an inserted one: each to its own new line.
        assert_eq!(
            line_destinations("a\nb\nc\nd\n", "X\na\nb\nc\nsomething else\n"),
            vec![Some(1), Some(2), Some(3), None]
        );
        assert_eq!(line_destinations("", "x\n"), Vec::<Option<usize>>::new());
        assert_eq!(line_destinations("x\n", ""), vec![None]);
        // An edited line after inserted ones (what surgical-patch carries a first line's indentation to).
        assert_eq!(
            line_destinations(
                "value = load(1)\nreturn value\n",
                "# once\ncheck()\nvalue = load(2)\nreturn value\n"
            ),
            vec![Some(2), Some(3)]
        );
    }

    /// The pairing of a change block: the monotone one of greatest total similarity, each line in at
    /// most one pair, only pairs alike enough (ratio at least one half) counted; past
    /// `MAX_PAIRING_CELLS` line pairs, by position.
    #[test]
    fn pairing_takes_the_best_monotone_pairing() {
        // Alike at exactly one half (2 * 1 / (1 + 3)) is an edit.
        assert_eq!(pair_lines(&["a"], &["xay"]), vec![(0, 0)]);
        // Of two candidates the more alike wins, whichever comes first; the line is paired once.
        assert_eq!(pair_lines(&["abcdefgh"], &["abcdXXXX", "abcdefgX"]), vec![(0, 1)]);
        assert_eq!(pair_lines(&["abcdefgh"], &["abcdefgX", "abcdXXXX"]), vec![(0, 0)]);
        // A line only added to counts as alike as its common part makes it (at least one half), no
        // more: here less than a one-character change of the same line.
        assert_eq!(pair_lines(&["abc"], &["abcdefghijklmnop", "abd"]), vec![(0, 1)]);
        assert_eq!(pair_lines(&["abcd"], &["abcdefghijklmnop", "abXd"]), vec![(0, 1)]);
        // Each pair takes the best pairing of the lines before both: here the first old line goes
        // with the second new one, the second old line with the third.
        assert_eq!(
            pair_lines(&["abcdefgh", "stuvwxyz"], &["abcdXXXX", "abcdefgX", "stuvwxyX"]),
            vec![(0, 1), (1, 2)]
        );
        // A block of distinct lines, each new line an edit of the old line before it (one line
        // inserted in front): paired by best alignment up to MAX_PAIRING_CELLS line pairs (64 x 64),
        // by position beyond (65 x 65), where no line is alike the line at its own position.
        // Lines of 20 pseudo-random letters: two different ones are far less than half alike.
        let line = |k: usize| -> String {
            let mut x = k as u64 * 2_654_435_761 + 12_345;
            let letters = (0..20).map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                char::from(b'a' + (x >> 59) as u8 % 26)
            });
            format!("{k:03} {}", letters.collect::<String>())
        };
        for (n, by_position) in [(64, false), (65, true)] {
            assert_eq!(n * n > MAX_PAIRING_CELLS, by_position);
            let old: Vec<String> = (0..n).map(|k| line(k) + " old").collect();
            let new: Vec<String> = std::iter::once("inserted".to_string())
                .chain((0..n - 1).map(|k| line(k) + " new"))
                .collect();
            let (old, new): (Vec<&str>, Vec<&str>) = (
                old.iter().map(String::as_str).collect(),
                new.iter().map(String::as_str).collect(),
            );
            let shifted: Vec<(usize, usize)> = (0..n - 1).map(|k| (k, k + 1)).collect();
            let expected = if by_position { Vec::new() } else { shifted };
            assert_eq!(pair_lines(&old, &new), expected, "{n} x {n}");
        }
    }

    /// `anchored_diff`'s budget is linear in its elements: two sequences of 10,000 elements over two
    /// symbols (nothing found once to anchor a coarse diff on) whose minimal diff takes about 10^8
    /// steps get the coarse one, which pairs nothing, rather than that quadratic diff.
    #[test]
    fn anchored_diff_is_coarse_past_a_linear_budget() {
        let n = 10_000;
        let old: Vec<usize> = (0..n).map(|k| k % 2).collect();
        let new: Vec<usize> = (0..n).map(|k| (k / 2 + 1) % 2).collect();
        let equal = |ops: &[DiffOp]| -> usize {
            ops.iter()
                .map(|op| match *op {
                    DiffOp::Equal { len, .. } => len,
                    _ => 0,
                })
                .sum()
        };
        assert_eq!(equal(&anchored_diff(&old, &new)), 0);
        // Small enough, the same kind of input is diffed exactly.
        assert!(equal(&anchored_diff(&old[..200], &new[..200])) >= 100);
    }

    /// Past its budget (linear in the texts) `line_destinations` pairs lines the coarse way the
    /// replacement then does: by position in a block this large, where the exact diff would shift
    /// every line of two texts of 10,000 lines over two symbols.
    #[test]
    fn line_destinations_past_the_budget_pair_by_position() {
        let n = 10_000;
        let old: String = (0..n).map(|k| format!("{}\n", k % 2)).collect();
        let new: String = (0..n).map(|k| format!("{}\n", (k / 2 + 1) % 2)).collect();
        let by_position: Vec<Option<usize>> = (0..n).map(|k| (k % 2 == (k / 2 + 1) % 2).then_some(k)).collect();
        assert_eq!(line_destinations(&old, &new), by_position);
    }

    #[test]
    fn a_rewritten_line_is_reported_where_its_replacement_stands() {
        // `b ` (trailing blank) rewritten as `B`: the difference is on the block's first line (0),
        // not on the line after it.
        let out = align(b"a\r\nb \r\nc\r\n", "a\nb\nc\n", "a\nB\nc\n", Fold::TRAILING, b"\r\n");
        assert_eq!(out.bytes, b"a\r\nB\r\nc\r\n");
        let rewritten = rewritten_lines(&out);
        assert_eq!(rewritten, vec![1]);
        // Two lines rewritten as one: both reported on that one line; a deletion on the next line.
        let out = align(b"x \ny \nz\n", "x\ny\nz\n", "Q\nz\n", Fold::TRAILING, b"\n");
        let lines = rewritten_lines(&out);
        assert_eq!(lines, vec![0, 0]);
        let out = align(b"x\ny \nz\n", "x\ny\nz\n", "x\nz\n", Fold::TRAILING, b"\n");
        let lines = rewritten_lines(&out);
        assert_eq!(lines, vec![1]);
    }

    #[test]
    fn an_edited_line_is_not_reported_as_rewritten() {
        // After a kept line (the change block starts at old line 1), a line whose file bytes differ
        // from oldText's (no-break spaces) and that the model edited: its file characters stay, and
        // it is no removed line.
        let out = align(
            "keep\n\u{a0}\u{a0}return 2;\n".as_bytes(),
            "keep\n  return 2;\n",
            "keep\n  return 3;\n",
            Fold::UNICODE,
            b"\n",
        );
        assert_eq!(
            String::from_utf8(out.bytes.clone()).unwrap(),
            "keep\n\u{a0}\u{a0}return 3;\n"
        );
        assert_eq!(rewritten_lines(&out), Vec::<usize>::new());
    }

    #[test]
    fn rewritten_lines_after_a_kept_one_are_reported_where_they_stood() {
        // Two lines rewritten as three: each on the new line that stands where it stood.
        let out = align(
            b"k\nx \ny \n",
            "k\nx\ny\n",
            "k\nPPPP\nQQQQ\nRRRR\n",
            Fold::TRAILING,
            b"\n",
        );
        assert_eq!(out.bytes, b"k\nPPPP\nQQQQ\nRRRR\n");
        assert_eq!(rewritten_lines(&out), vec![1, 2]);
        // Two lines rewritten as one: both on that one line, not past it.
        let out = align(b"k\nx \ny \nz\n", "k\nx\ny\nz\n", "k\nQ\nz\n", Fold::TRAILING, b"\n");
        assert_eq!(out.bytes, b"k\nQ\nz\n");
        assert_eq!(rewritten_lines(&out), vec![1, 1]);
    }

    #[test]
    fn lines_added_after_an_edited_open_last_line_take_the_terminator_before_it() {
        // The span's last line has no terminator; the model edits it and adds lines after it. The
        // edited line's terminator is the local one; the added lines take the last terminator the
        // span had (CRLF here, local LF), not the open line's lack of one.
        let out = align(b"a\r\nb", "a\nb", "a\nb!\nc\nd", Fold::EXACT, b"\n");
        assert_eq!(out.bytes, b"a\r\nb!\nc\r\nd");
    }

    #[test]
    fn differences_after_a_written_line_are_reported_on_their_own_line() {
        // A line written as given (inserted) before an edited one: the edited line's kept no-break
        // space is reported on the line it ends up on (2), counting the written line.
        let out = align(
            "a\n\u{a0}b = 1;\n".as_bytes(),
            "a\n b = 1;\n",
            "a\nNEW LINE\n b = 2;\n",
            Fold::UNICODE,
            b"\n",
        );
        assert_eq!(
            String::from_utf8(out.bytes.clone()).unwrap(),
            "a\nNEW LINE\n\u{a0}b = 2;\n"
        );
        let lines: Vec<usize> = out.differences.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![2]);
    }

    #[test]
    fn an_edited_line_the_file_words_differently_is_written_as_given() {
        // The file's line is not oldText's under the fold (a misremembered word): the edit is written
        // as given, said rewritten, and no U+FFFD is said fabricated where newText wrote none.
        let out = align(
            b"helo world\n",
            "hello world\n",
            "hello world!\n",
            Fold::TRAILING,
            b"\n",
        );
        assert_eq!(out.bytes, b"hello world!\n");
        assert_eq!(rewritten_lines(&out), vec![0]);
        assert_eq!(out.fabricated_replacement_char, None);
        // newText writing one there is (no file bytes stand behind it).
        let out = align(
            b"a\nhelo world\n",
            "a\nhello world\n",
            "a\nhello w\u{FFFD}rld!\n",
            Fold::TRAILING,
            b"\n",
        );
        assert_eq!(out.fabricated_replacement_char, Some(1));
    }

    #[test]
    fn an_atom_is_kept_only_where_the_model_changed_none_of_it() {
        // The file's `…` is the model's `...` (one atom of three old characters). Kept where the
        // model left all three dots; written as the model's where it changed one of them.
        assert_eq!(
            run(
                "Loading\u{2026} x = 1;",
                "Loading... x = 1;",
                "Loading... x = 2;",
                Fold::UNICODE
            ),
            "Loading\u{2026} x = 2;"
        );
        assert_eq!(
            run("Loading\u{2026}", "Loading...", "Loading..!", Fold::UNICODE),
            "Loading..!"
        );
        // The other way round: the file's three dots are one atom against the model's `…`.
        assert_eq!(
            run(
                "wait... x = 1;",
                "wait\u{2026} x = 1;",
                "wait\u{2026} x = 2;",
                Fold::UNICODE
            ),
            "wait... x = 2;"
        );
    }

    #[test]
    fn a_replacement_char_written_into_an_edited_line_is_said_fabricated() {
        // The line goes through the character step (its no-break space differs from oldText's
        // space); the model writes a U+FFFD into the part it changed.
        let out = align(
            "a\u{a0}= 1;".as_bytes(),
            "a = 1;",
            "a = \u{FFFD};",
            Fold::UNICODE,
            b"\n",
        );
        assert_eq!(String::from_utf8(out.bytes.clone()).unwrap(), "a\u{a0}= \u{FFFD};");
        assert_eq!(out.fabricated_replacement_char, Some(0));
    }

    #[test]
    fn a_short_line_only_added_to_keeps_the_file_characters() {
        // `}` with trailing blanks in the file; the model dropped them and appended a comment.
        assert_eq!(
            run("  }   \n", "  }\n", "  } // done\n", Fold::TRAILING),
            "  } // done   \n"
        );
        assert_eq!(run("\t);  \n", "\t);\n", "\t); x\n", Fold::TRAILING), "\t); x  \n");
        assert!(only_inserted_or_removed("}", "} else {"));
        assert!(only_inserted_or_removed("foo(a, b)", "foo(a)"));
        assert!(!only_inserted_or_removed("", "x"));
        assert!(!only_inserted_or_removed("  ", "  x"));
        assert!(!only_inserted_or_removed("ab", "ba"));
        assert!(!only_inserted_or_removed("ab", "ab"));
    }

    #[test]
    fn issue_examples() {
        assert_eq!(
            run(
                "msg = \"a \u{2014} b\"; x = 1;   ",
                "msg = \"a - b\"; x = 1;",
                "msg = \"a - b\"; x = 2;",
                Fold::UNICODE
            ),
            "msg = \"a \u{2014} b\"; x = 2;   "
        );
        assert_eq!(
            run("range: 1\u{2013}5", "range: 1-5", "range: 10-50", Fold::UNICODE),
            "range: 10\u{2013}50"
        );
        assert_eq!(
            run(
                "line one   \nline two  \n",
                "line one\nline two\n",
                "replaced\n",
                Fold::TRAILING
            ),
            "replaced\n"
        );
    }

    #[test]
    fn kept_lines_keep_their_terminators() {
        let out = align(b"a\r\nb\nc\r\n", "a\nb\nc\n", "a\nb\nX\nc\n", Fold::EXACT, b"\r\n");
        assert_eq!(out.bytes, b"a\r\nb\nX\nc\r\n");
    }

    #[test]
    fn rewritten_line_takes_new_text() {
        assert_eq!(
            run(
                "x = \"a \u{2014} b\";",
                "x = \"a - b\";",
                "completely_different(call);",
                Fold::UNICODE
            ),
            "completely_different(call);"
        );
    }

    #[test]
    fn nbsp_kept_and_reported() {
        let out = align(
            "\u{a0}\u{a0}return 2;\n".as_bytes(),
            "  return 2;\n",
            "  return 3;\n",
            Fold::UNICODE,
            b"\n",
        );
        assert_eq!(String::from_utf8(out.bytes).unwrap(), "\u{a0}\u{a0}return 3;\n");
        assert!(out
            .differences
            .iter()
            .any(|d| matches!(&d.kind, DifferenceKind::Text { file, kept: true, .. } if file == "\u{a0}")));
    }

    #[test]
    fn invalid_bytes_survive_through_replacement_char() {
        let out = align(
            b"caf\xe9 = 1;",
            "caf\u{FFFD} = 1;",
            "caf\u{FFFD} = 2;",
            Fold::EXACT,
            b"\n",
        );
        assert_eq!(out.bytes, b"caf\xe9 = 2;");
        assert_eq!(out.fabricated_replacement_char, None);
    }

    #[test]
    fn trailing_changed_by_model_wins() {
        assert_eq!(run("a = 1;   ", "a = 1; ", "a = 2;", Fold::TRAILING), "a = 2;");
    }
}
