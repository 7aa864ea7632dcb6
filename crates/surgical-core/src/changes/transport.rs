//! Transport: a line-based tier's match is not spliced but *transported*: the model's change from
//! `oldText` to `newText` is replayed on the file's own lines. Lines the model left unchanged are the
//! file's lines, byte for byte (whatever `oldText` said they were); lines it changed or added are its
//! new lines, re-indented into the file's indentation where the tier is `indentation`; lines it
//! removed go. The result is an ordinary `(oldText', newText')` pair whose `oldText'` is the file span
//! itself, which the common alignment then writes — so every byte-faithfulness property of the
//! strict tiers holds here too.

use crate::changes::align::{anchored_diff, pair_lines};
use crate::find::line_tiers::{is_word, needle_lines, Candidate, FileLines};
use crate::text::fold::is_line_blank;
use crate::text::lines::split_model_lines;
use crate::text::normalize::{normalize, Fold};

/// A region found by a line-based tier, ready to be aligned like any other match.
#[derive(Debug)]
pub(crate) struct LooseMatch {
    /// The file span as text (what the model should have written as `oldText`).
    pub old: String,
    /// `newText` replayed on the file's lines.
    pub new: String,
}

/// A line the model remembered differently from the file, where its change touches what differs
/// (or rewrites the line): what to write there cannot be determined, so the edit is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineConflict {
    /// The file line (zero-based).
    pub line: usize,
    /// The file's line.
    pub file: String,
    /// `oldText`'s line.
    pub expected: String,
}

/// Replays the model's change (`old` → `new`) on the file lines of `c`, the region found for `old`.
///
/// Only what the model changed lands: lines it kept are the file's, lines it edited are edited on
/// the file's line (see [`transport_line`]), lines it wrote are re-indented into the file. A line
/// whose text differs from `oldText`'s beyond spacing (under `similar`) and that the model rewrote
/// while writing new lines in its place, or edited where the two differ, is a [`LineConflict`].
///
/// A needle line paired with no file line (one the file does not have there, under `extra_line`) is
/// never written: kept or deleted by the model, it is dropped; edited, it is a [`LineConflict`] on
/// the file line where it was expected (the model's change would land on text it never saw). A line
/// that differs from `oldText`'s and that the model deleted is a conflict too: it may be another
/// writer's newer change. Where the candidate has other pairings that explain the needle equally
/// well, each must write the same, else the first line where they part is a conflict.
pub(crate) fn transport(file: &FileLines<'_>, old: &str, new: &str, c: &Candidate) -> Result<LooseMatch, LineConflict> {
    let moved = transport_pairs(file, old, new, c, &c.pairs)?;
    for pairs in &c.alternatives {
        let other = transport_pairs(file, old, new, c, pairs)?;
        if other.new != moved.new {
            let k = (0..pairs.len()).find(|&k| pairs[k] != c.pairs[k]).unwrap_or(0);
            let p = pairs[k].or(c.pairs[k]).unwrap_or(c.first);
            return Err(LineConflict {
                line: p,
                file: file.shown(p),
                expected: needle_lines(old)[k].text.trim().to_string(),
            });
        }
    }
    Ok(moved)
}

fn transport_pairs(
    file: &FileLines<'_>,
    old: &str,
    new: &str,
    c: &Candidate,
    pairs: &[Option<usize>],
) -> Result<LooseMatch, LineConflict> {
    let needle = needle_lines(old);
    let ends_with_newline = old.ends_with('\n');
    let file_line = |i: usize| String::from_utf8_lossy(c.covered(file, i)).into_owned();
    let mut old: String = (c.first..=c.last).map(file_line).collect::<Vec<_>>().join("\n");
    if ends_with_newline {
        old.push('\n');
    }

    let new_lines = split_model_lines(new);
    let o_keys: Vec<&str> = needle.iter().map(|l| l.text).collect();
    let n_keys: Vec<&str> = new_lines.iter().map(|l| l.0).collect();
    let fix = |line: &str| match &c.reindent {
        Some(r) => r.apply(line),
        None => line.to_string(),
    };
    let conflict = |k: usize, p: usize| LineConflict {
        line: p,
        file: file_line(p),
        expected: o_keys[k].to_string(),
    };
    let mut items: Vec<String> = Vec::new();
    let mut next = c.first; // the next file line not yet emitted or consumed
                            // Emits file lines no needle line is paired with (blank lines only the file has), up to `to`.
    let flush = |items: &mut Vec<String>, next: &mut usize, to: usize| {
        while *next < to {
            if !pairs.contains(&Some(*next)) {
                items.push(file_line(*next));
            }
            *next += 1;
        }
    };
    // Lines of the region before this pairing's first pair (another pairing's) are the file's,
    // before anything written in front of the needle's first line.
    if let Some(&first) = pairs.iter().flatten().next() {
        flush(&mut items, &mut next, first);
    }
    let ops = anchored_diff(&o_keys, &n_keys);
    let edits: Vec<Vec<(usize, usize)>> = ops
        .iter()
        .map(|op| match op {
            similar::DiffOp::Equal { .. } => Vec::new(),
            _ => pair_lines(&o_keys[op.old_range()], &n_keys[op.new_range()]),
        })
        .collect();
    let moved = moved_lines(&ops, &edits, &o_keys, &n_keys, |k| {
        pairs[k].filter(|&p| !c.is_cut(p) && !needle[k].is_blank())
    });
    for (op, edited) in ops.into_iter().zip(edits) {
        let (o, n) = (op.old_range(), op.new_range());
        match op {
            similar::DiffOp::Equal { .. } => {
                for k in o {
                    if let Some(p) = pairs[k] {
                        flush(&mut items, &mut next, p);
                        items.push(file_line(p));
                        next = p + 1;
                    }
                }
            }
            _ => {
                // A line the file does not have there, edited or rewritten (new lines written in its
                // place): nothing to carry the change onto, and it may be a line another writer has
                // changed since. Only deleting it is safe to carry (it is dropped).
                if !n.is_empty() {
                    if let Some(k) = o.clone().find(|&k| pairs[k].is_none() && !needle[k].key.is_empty()) {
                        let at = pairs[k..]
                            .iter()
                            .flatten()
                            .next()
                            .or(pairs[..k].iter().flatten().next_back());
                        return Err(conflict(k, at.copied().unwrap_or(c.first)));
                    }
                }
                // Lines the model edited (rather than rewrote) are edited on the file's own line, so
                // its spacing, quotes and indentation survive around the change; so are the lines it
                // copied that the diff moved (deleted where they were, written elsewhere).
                let mut from_file: Vec<Option<String>> = vec![None; n.len()];
                let copied = (0..n.len()).filter_map(|pn| moved[n.start + pn].map(|k| (k, pn)));
                for (k, pn) in edited.iter().map(|&(po, pn)| (o.start + po, pn)).chain(copied) {
                    if let Some(p) = pairs[k] {
                        let (f_ind, f_body) = split_indent_owned(file_line(p));
                        let (o_ind, o_body) = split_indent(o_keys[k]);
                        let (n_ind, n_body) = split_indent(n_keys[n.start + pn]);
                        let body = transport_line(&f_body, o_body, n_body).ok_or_else(|| conflict(k, p))?;
                        // Indentation apart: the file's when the model kept its own, else newText's
                        // re-based as a whole (its indentation relative to the block is kept, even
                        // where oldText's own lines were not indented consistently).
                        from_file[pn] = Some(if n_ind == o_ind {
                            f_ind + &body
                        } else {
                            fix(&format!("{n_ind}{body}"))
                        });
                    }
                }
                // A line the model misremembered and rewrote: its new lines may carry what it
                // misremembered, and nothing tells which characters those are. Deleted, it may be
                // another writer's newer line, which the model never saw.
                for k in o.clone() {
                    let is_edited = edited.iter().any(|&(po, _)| o.start + po == k);
                    if let Some(p) = pairs[k] {
                        // A cut line matched the needle's line byte for byte.
                        if !is_edited && !c.is_cut(p) && file.collapsed(p) != needle[k].collapsed {
                            return Err(conflict(k, p));
                        }
                    }
                }
                for k in o {
                    if let Some(p) = pairs[k] {
                        flush(&mut items, &mut next, p);
                        next = p + 1;
                    }
                }
                for (j, line) in n.clone().zip(from_file) {
                    // newText's first line goes where oldText started: inside a line when that
                    // started mid-line, so it takes no indentation there.
                    let written = || match j == 0 && c.cut.start > 0 {
                        true => n_keys[0].trim_start_matches([' ', '\t']).to_string(),
                        false => fix(n_keys[j]),
                    };
                    items.push(line.unwrap_or_else(written));
                }
            }
        }
    }
    flush(&mut items, &mut next, c.last + 1);
    let mut new_text = items.join("\n");
    if new.ends_with('\n') {
        new_text.push('\n');
    }
    Ok(LooseMatch { old, new: new_text })
}

/// New lines that are word for word a needle line the diff deletes without pairing it with an
/// edited one (the model moved a line it copied, and the diff kept another in its place): `moved[j]`
/// is that needle line, each taken once, in order; `paired(k)` is the file line needle line `k`
/// stands for, if it may be moved (not blank, not cut). Such a line is written from the file's line.
fn moved_lines(
    ops: &[similar::DiffOp],
    edits: &[Vec<(usize, usize)>],
    o_keys: &[&str],
    n_keys: &[&str],
    paired: impl Fn(usize) -> Option<usize>,
) -> Vec<Option<usize>> {
    let mut moved = vec![None; n_keys.len()];
    let mut deleted: Vec<usize> = Vec::new();
    let mut written: Vec<usize> = Vec::new();
    for (op, edited) in ops.iter().zip(edits) {
        if matches!(op, similar::DiffOp::Equal { .. }) {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        deleted.extend(
            o.clone()
                .filter(|&k| !edited.iter().any(|&(po, _)| o.start + po == k) && paired(k).is_some()),
        );
        written.extend(n.clone().filter(|&j| !edited.iter().any(|&(_, pn)| n.start + pn == j)));
    }
    let mut taken = vec![false; o_keys.len()];
    for j in written {
        if let Some(&k) = deleted.iter().find(|&&k| !taken[k] && o_keys[k] == n_keys[j]) {
            moved[j] = Some(k);
            taken[k] = true;
        }
    }
    moved
}

/// Whether a unit is a run of blanks (spaces, tabs, special spaces: a no-break space is spacing
/// written differently, never a character only the file has).
fn is_blank(u: &str) -> bool {
    u.chars().next().is_some_and(is_line_blank)
}

fn split_indent(line: &str) -> (&str, &str) {
    let body = line.trim_start_matches([' ', '\t']);
    (&line[..line.len() - body.len()], body)
}

fn split_indent_owned(line: String) -> (String, String) {
    let (indent, body) = split_indent(&line);
    (indent.to_string(), body.to_string())
}

/// A line cut into the units transport compares: each maximal run of blanks (spaces, tabs, special
/// spaces) and each word (letters, digits, `_`) is one unit, so a run is kept or changed whole and
/// a word the model misremembered (`item` for `items`) differs whole; every other character is one.
fn units(line: &str) -> Vec<&str> {
    #[derive(PartialEq)]
    enum Kind {
        Blank,
        Word,
        Other,
    }
    let kind = |c: char| match c {
        c if is_line_blank(c) => Kind::Blank,
        c if is_word(c) => Kind::Word,
        _ => Kind::Other,
    };
    let mut out = Vec::new();
    let mut start = 0;
    let mut last: Option<Kind> = None;
    for (i, c) in line.char_indices() {
        let k = kind(c);
        let joins = k != Kind::Other && last.as_ref() == Some(&k);
        if i > start && !joins {
            out.push(&line[start..i]);
            start = i;
        }
        last = Some(k);
    }
    if start < line.len() {
        out.push(&line[start..]);
    }
    out
}

/// Where a unit of the model's `oldText` line is in the file's line.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The same unit, at this index.
    Same(usize),
    /// Part of a stretch the file writes differently (`    ` for `\t`, `"` for `“`, `  ` for ` `): the
    /// file's stretch, and the model's stretch it stands for.
    Differs { file: (usize, usize), old: (usize, usize) },
    /// Only the model has it.
    Missing,
}

/// Where each unit of `o` (the model's old line) is in `f` (the file's), and the stretches where the
/// two differ: `(start, end, alike)` in `o`, `alike` when they only write the same thing differently
/// (spacing, a typographic quote) rather than hold different characters.
///
/// The characters are aligned first, blanks apart (a run of spaces must never pair with a run
/// across a character, which a diff of both may prefer on a tie); then each run of blanks of `o`
/// stands for the run of `f` between the same two characters, if there is one.
#[allow(clippy::type_complexity)]
fn map_units(f: &[&str], o: &[&str]) -> (Vec<Slot>, Vec<(usize, usize, bool)>) {
    let o_chars: Vec<usize> = (0..o.len()).filter(|&k| !is_blank(o[k])).collect();
    let f_chars: Vec<usize> = (0..f.len()).filter(|&j| !is_blank(f[j])).collect();
    let o_keys: Vec<&str> = o_chars.iter().map(|&k| o[k]).collect();
    let f_keys: Vec<&str> = f_chars.iter().map(|&j| f[j]).collect();
    let mut slots = vec![Slot::Missing; o.len()];
    let mut stretches = Vec::new();
    let fold = Fold::UNICODE.without_trim();
    for op in anchored_diff(&o_keys, &f_keys) {
        match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for k in 0..len {
                    slots[o_chars[old_index + k]] = Slot::Same(f_chars[new_index + k]);
                }
            }
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let old = (o_chars[old_index], o_chars[old_index + old_len - 1] + 1);
                let file = (f_chars[new_index], f_chars[new_index + new_len - 1] + 1);
                for s in &mut slots[old.0..old.1] {
                    *s = Slot::Differs { file, old };
                }
                let (fp, op) = (f[file.0..file.1].concat(), o[old.0..old.1].concat());
                let alike = normalize(fp.as_bytes(), fold).text == normalize(op.as_bytes(), fold).text;
                stretches.push((old.0, old.1, alike));
            }
            _ => {}
        }
    }
    // Runs of blanks: between the same two characters (or a line end) on both sides.
    for b in 0..o.len() {
        if !is_blank(o[b]) || !matches!(slots[b], Slot::Missing) {
            continue;
        }
        let before = match b.checked_sub(1).map(|k| slots[k]) {
            None => Some(None),
            Some(Slot::Same(j)) => Some(Some(j)),
            Some(Slot::Differs { file: (_, fb), .. }) => Some(Some(fb - 1)),
            Some(Slot::Missing) => None,
        };
        let after = match slots.get(b + 1) {
            None => Some(f.len()),
            Some(Slot::Same(j)) => Some(*j),
            Some(Slot::Differs { file: (fa, _), .. }) => Some(*fa),
            Some(Slot::Missing) => None,
        };
        let (Some(before), Some(after)) = (before, after) else {
            continue;
        };
        let run = before.map_or(0, |j| j + 1);
        if run + 1 == after && is_blank(f[run]) {
            slots[b] = if f[run] == o[b] {
                Slot::Same(run)
            } else {
                stretches.push((b, b + 1, true));
                Slot::Differs {
                    file: (run, run + 1),
                    old: (b, b + 1),
                }
            };
        }
    }
    (slots, stretches)
}

/// The diff of two lines cut into [`units`]: characters and words first, then each run of blanks
/// kept only where it stands between the same two kept units on both sides. (A plain diff may keep a
/// run by pairing it with one elsewhere in the line, which would carry the file's spacing there.)
fn unit_diff(o: &[&str], n: &[&str]) -> Vec<similar::DiffOp> {
    let o_chars: Vec<usize> = (0..o.len()).filter(|&k| !is_blank(o[k])).collect();
    let n_chars: Vec<usize> = (0..n.len()).filter(|&j| !is_blank(n[j])).collect();
    let o_keys: Vec<&str> = o_chars.iter().map(|&k| o[k]).collect();
    let n_keys: Vec<&str> = n_chars.iter().map(|&j| n[j]).collect();
    let mut partner: Vec<Option<usize>> = vec![None; o.len()];
    for op in anchored_diff(&o_keys, &n_keys) {
        if let similar::DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for k in 0..len {
                partner[o_chars[old_index + k]] = Some(n_chars[new_index + k]);
            }
        }
    }
    let mut taken = vec![false; n.len()];
    for k in 0..o.len() {
        if !is_blank(o[k]) {
            continue;
        }
        // Beside a kept unit on at least one side: the blank right after it (or right before it) in
        // `n`, if it is the same run.
        let after_kept = match k.checked_sub(1) {
            None => Some(0),
            Some(p) => partner[p].map(|j| j + 1),
        };
        let before_kept = if k + 1 == o.len() {
            n.len().checked_sub(1)
        } else {
            partner[k + 1].and_then(|j| j.checked_sub(1))
        };
        for j in [after_kept, before_kept].into_iter().flatten() {
            if j < n.len() && !taken[j] && n[j] == o[k] {
                partner[k] = Some(j);
                taken[j] = true;
                break;
            }
        }
    }
    // The pairs, in order, as diff operations.
    let mut ops = Vec::new();
    let (mut k, mut j) = (0, 0);
    let push_gap = |ops: &mut Vec<similar::DiffOp>, k: usize, k_end: usize, j: usize, j_end: usize| {
        let (old_len, new_len) = (k_end - k, j_end - j);
        match (old_len, new_len) {
            (0, 0) => {}
            (0, _) => ops.push(similar::DiffOp::Insert {
                old_index: k,
                new_index: j,
                new_len,
            }),
            (_, 0) => ops.push(similar::DiffOp::Delete {
                old_index: k,
                old_len,
                new_index: j,
            }),
            _ => ops.push(similar::DiffOp::Replace {
                old_index: k,
                old_len,
                new_index: j,
                new_len,
            }),
        }
    };
    while k < o.len() {
        let Some(pj) = partner[k] else {
            k += 1;
            continue;
        };
        // Units before this pair on either side are a gap.
        let gap_start = ops
            .last()
            .map_or((0, 0), |op: &similar::DiffOp| (op.old_range().end, op.new_range().end));
        push_gap(&mut ops, gap_start.0, k, gap_start.1.max(j), pj);
        let mut len = 1;
        while k + len < o.len() && partner[k + len] == Some(pj + len) {
            len += 1;
        }
        ops.push(similar::DiffOp::Equal {
            old_index: k,
            new_index: pj,
            len,
        });
        k += len;
        j = pj + len;
    }
    let gap_start = ops
        .last()
        .map_or((0, 0), |op: &similar::DiffOp| (op.old_range().end, op.new_range().end));
    push_gap(&mut ops, gap_start.0, o.len(), gap_start.1, n.len());
    ops
}

/// Replays the model's edit of one line (`old` → `new`) on the file's version of it (`file`): where
/// the model kept characters, the file's own characters for them are written (its tabs, quotes,
/// runs of spaces); where it changed them, its new characters are; characters only the model's
/// `old` has are never written.
///
/// `None` when the model's change touches characters where the file and `old` differ (a word it
/// misremembered), or part of a stretch the file writes differently: which characters it meant
/// cannot be determined.
fn transport_line(file: &str, old: &str, new: &str) -> Option<String> {
    let f = units(file);
    let o = units(old);
    let n = units(new);
    let (slots, stretches) = map_units(&f, &o);
    let ops = unit_diff(&o, &n);
    // File-only units (those no unit of `old` maps to) stick to the unit before them: `run_end[j]`
    // is where the file-only run starting at `j` ends. Blanks only the file has stand beside
    // punctuation (`whitespace_runs` forgives them nowhere else) and are its padding: they stick to
    // the punctuation after them when that is a closing bracket (`b )` for the model's `b)`, as
    // the blanks right inside an opening bracket stick to it) or when a word stands before them
    // (`a ;`). What the model adds between goes before that padding, so the padding stays against
    // its punctuation (`( a, b, c )`, not `( a, b , c)`; `a.b ;`, not `a .b;`).
    let mut mapped = vec![false; f.len()];
    for slot in &slots {
        match *slot {
            Slot::Same(j) => mapped[j] = true,
            Slot::Differs { file: (a, b), .. } => mapped[a..b].iter_mut().for_each(|m| *m = true),
            Slot::Missing => {}
        }
    }
    let mut run_end = vec![0; f.len() + 1];
    run_end[f.len()] = f.len();
    for j in (0..f.len()).rev() {
        run_end[j] = if mapped[j] { j } else { run_end[j + 1] };
    }
    let is_word_unit = |u: &str| u.chars().next().is_some_and(is_word);
    let closes = |u: &str| matches!(u, ")" | "]" | "}");
    for j in 1..f.len() {
        let end = run_end[j];
        let (Some(before), Some(after)) = (f.get(j - 1), f.get(end)) else {
            continue;
        };
        let padding_of_after = mapped[j - 1]
            && !mapped[j]
            && mapped[end]
            && f[j..end].iter().all(|u| is_blank(u))
            && !is_word_unit(after)
            && (closes(after) || is_word_unit(before));
        if padding_of_after {
            run_end[j] = j;
        }
    }
    // The model's change must stay out of characters it misremembered: a stretch that differs (only
    // a stretch the file merely writes differently may be covered whole), a character only it has
    // (unless it just deletes it), a character only the file has beside or inside what it replaces.
    for op in &ops {
        if matches!(op, similar::DiffOp::Equal { .. }) {
            continue;
        }
        let r = op.old_range();
        let unclear = stretches.iter().any(|&(a, b, alike)| {
            if r.is_empty() {
                a < r.start && r.start < b
            } else {
                r.start < b && r.end > a && (!alike || r.start > a || r.end < b)
            }
        });
        if unclear {
            return None;
        }
        if r.is_empty() {
            continue;
        }
        let replaces = !op.new_range().is_empty();
        if replaces && r.clone().any(|k| matches!(slots[k], Slot::Missing) && !is_blank(o[k])) {
            return None;
        }
        let extent = r.clone().filter_map(|k| match slots[k] {
            Slot::Same(j) => Some((j, j + 1)),
            Slot::Differs { file, .. } => Some(file),
            Slot::Missing => None,
        });
        let (Some(lo), Some(hi)) = (extent.clone().map(|e| e.0).min(), extent.map(|e| e.1).max()) else {
            continue;
        };
        let mut touched = (lo..hi).filter(|&j| !mapped[j]).collect::<Vec<_>>();
        touched.extend((0..lo).rev().take_while(|&j| !mapped[j]));
        touched.extend((hi..f.len()).take_while(|&j| !mapped[j]));
        if touched.iter().any(|&j| !is_blank(f[j])) {
            return None;
        }
    }
    let mut out = String::with_capacity(file.len() + new.len());
    let mut at = 0; // next file unit not yet written or dropped
    for op in ops {
        let kept = op.old_range();
        let is_kept = matches!(op, similar::DiffOp::Equal { .. });
        let mut k = kept.start;
        while k < kept.end {
            match slots[k] {
                Slot::Same(j) if j >= at => {
                    if is_kept {
                        let end = run_end[j + 1];
                        out.extend(f[at..end].iter().copied());
                        at = end;
                    } else {
                        // File-only units before a removed one (extra spaces) stay.
                        out.extend(f[at..j].iter().copied());
                        at = j + 1;
                    }
                    k += 1;
                }
                Slot::Differs {
                    file: (fa, fb),
                    old: (oa, ob),
                } if fa >= at && oa == k && ob <= kept.end => {
                    if is_kept {
                        let end = run_end[fb];
                        out.extend(f[at..end].iter().copied());
                        at = end;
                    } else {
                        out.extend(f[at..fa].iter().copied());
                        at = fb;
                    }
                    k = ob;
                }
                // Only the model has it (or the file's unit is written already): nothing of the
                // file stands behind it, so it is not written.
                _ => k += 1,
            }
        }
        if !is_kept {
            out.extend(n[op.new_range()].iter().copied());
        }
    }
    out.extend(f.get(at..).unwrap_or(&[]).iter().copied());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A character only the file has, right before or after what the model replaces, may belong to
    /// the change the model never saw: refused. Blanks there stay where they are.
    #[test]
    fn a_file_only_character_beside_a_replaced_one_is_refused() {
        assert_eq!(transport_line("x = 1!;", "x = 1;", "x = 2;"), None);
        assert_eq!(transport_line("x = !1;", "x = 1;", "x = 2;"), None);
        assert_eq!(transport_line("x = 1 ;", "x = 1;", "x = 2;").unwrap(), "x = 2 ;");
        // A model-only character is never written, and deleting it deletes nothing of the file's.
        assert_eq!(transport_line("( )", "(-)", "()").unwrap(), "( )");
        // Nor when the model empties the line: an empty line has no units at all.
        assert_eq!(transport_line("(", "-(", "").unwrap(), "");
    }

    /// A special space is a blank, not a character: after a quote the model spells differently, a
    /// no-break space the model's line lacks is a blank run only the file has, which stays where it
    /// is when the model changes the quote (it is never dropped, nor taken into the quote's
    /// stretch). A stretch is written merely differently when it folds to the model's with nothing
    /// trimmed.
    #[test]
    fn a_special_space_after_a_stretch_is_a_blank_the_file_keeps() {
        let (file, old) = ("say(\u{2019}\u{a0});", "say(');");
        let (_, stretches) = map_units(&units(file), &units(old));
        assert_eq!(stretches, vec![(2, 3, true)]);
        assert_eq!(transport_line(file, old, "say(\");").unwrap(), "say(\"\u{a0});");
        // Between two words, it stands for the model's space.
        assert_eq!(
            transport_line("aaab\u{a0}aaa x", "aaab aaa x", "aaabZ aaa x").unwrap(),
            "aaabZ\u{a0}aaa x"
        );
        // Without the space the quote is a spelling: changed whole, the file's around it kept.
        let file = "say(\u{2019});";
        assert_eq!(map_units(&units(file), &units(old)).1, vec![(2, 3, true)]);
        assert_eq!(transport_line(file, old, "say(\");").unwrap(), "say(\");");
    }

    /// An insertion inside a stretch the file writes differently (`…` for `...`) cannot be placed in
    /// the file's characters and is refused; one before or after it lands beside the file's stretch.
    #[test]
    fn an_insertion_inside_a_stretch_written_differently_is_refused() {
        assert_eq!(transport_line("f(\u{2026})", "f(...)", "f(.x..)"), None);
        assert_eq!(
            transport_line("f(\u{2026})", "f(...)", "f!(...)").unwrap(),
            "f!(\u{2026})"
        );
        assert_eq!(
            transport_line("f(\u{2026})", "f(...)", "f(...!)").unwrap(),
            "f(\u{2026}!)"
        );
        // So is a change to part of it, from inside it to its end or from its start to inside it;
        // a change to all of it writes the model's new characters over the file's stretch.
        assert_eq!(transport_line("f(\u{2026})", "f(...)", "f(.x)"), None);
        assert_eq!(transport_line("f(\u{2026})", "f(...)", "f(x.)"), None);
        assert_eq!(transport_line("f(\u{2026})", "f(...)", "f(x)").unwrap(), "f(x)");
    }

    /// A run of blanks between two characters stands for the file's run between the same two, also
    /// after a stretch the file writes differently (a typographic quote): the model's deleting it
    /// deletes the file's run. A character only the model has is never taken for the file's blank
    /// run at its place, so a change to it is refused.
    #[test]
    fn blank_runs_stand_for_the_files_between_the_same_characters() {
        assert_eq!(transport_line("\u{201C}  x", "\" x", "\"x").unwrap(), "\u{201C}x");
        assert_eq!(transport_line("\u{201C}  x", "\" x", "\" y").unwrap(), "\u{201C}  y");
        assert_eq!(transport_line("a b", "a-b", "a+b"), None);
        assert_eq!(transport_line("a b", "a-b", "a-b;").unwrap(), "a b;");
    }

    #[test]
    fn edited_lines_keep_the_files_spacing() {
        assert_eq!(
            transport_line("let  a   =  1;  ", "let a = 1;", "let a = 2;").unwrap(),
            "let  a   =  2;  "
        );
        assert_eq!(
            transport_line("\tx = \u{201C}a\u{201D}", "x = \"a\"", "x = \"b\"").unwrap(),
            "\tx = \u{201C}b\u{201D}"
        );
        assert_eq!(
            transport_line("compute(items)", "compute(item)", "compute(item, x)").unwrap(),
            "compute(items, x)"
        );
        assert_eq!(
            transport_line("\tfoo(a,  b)", "    foo(a, b)", "    foo(a, b) /*E*/").unwrap(),
            "\tfoo(a,  b) /*E*/"
        );
        assert_eq!(
            transport_line("x = \u{2014}1", "x = -1", "x = -2").unwrap(),
            "x = \u{2014}2"
        );
    }
}
