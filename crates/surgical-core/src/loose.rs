//! The line-based tiers: `indentation`, `whitespace_runs` and `similar`.
//!
//! The first three tiers compare text; these compare *lines*, because what they forgive (a shifted
//! indentation, tabs typed as spaces, spacing inside a line, blank lines, a paraphrased line) is
//! about line structure. Each finds candidate regions of whole file lines, and applies only when
//! exactly one region qualifies; several are `ambiguous`.
//!
//! A match is then *transported* rather than spliced: the model's change from `oldText` to
//! `newText` is replayed on the file's own lines. Lines the model left unchanged are the file's
//! lines, byte for byte (whatever `oldText` said they were); lines it changed or added are its new
//! lines, re-indented into the file's indentation where the tier is `indentation`; lines it removed
//! go. The result is an ordinary `(oldText', newText')` pair whose `oldText'` is the file span
//! itself, which the common alignment then writes — so every byte-faithfulness property of the
//! strict tiers holds here too.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;

use crate::align::{anchored_diff, pair_lines};
use crate::forgiven::{percent, Forgiven};
use crate::lines::{split_lines, split_model_lines};
use crate::normalize::{normalize, Fold};
use crate::scope::Scope;
use crate::tier::Tier;

/// `similar`: the least mean line similarity (0 to 1) a region must reach.
pub const SIMILAR_THRESHOLD: f32 = 0.8;
/// `similar`: how far the best region must lead the second best.
pub const SIMILAR_MARGIN: f32 = 0.1;
/// `similar`: at most this many lines may differ from `oldText`; the rest must be equal.
pub const SIMILAR_MAX_DIFFERING_LINES: usize = 2;
/// `similar`: the equal lines must hold at least this many characters (and 40% of the needle's).
pub const SIMILAR_MIN_ANCHOR_CHARS: usize = 12;
/// `similar`: a differing line must still be at least this alike (a line made up rather than
/// misremembered is refused).
pub const SIMILAR_MIN_LINE_RATIO: f32 = 0.7;
/// `similar`: at least this many lines must be equal.
pub const SIMILAR_MIN_EQUAL_LINES: usize = 2;
/// `indentation`: tab widths tried when tabs and spaces are mixed between file and `oldText`.
const TAB_WIDTHS: [usize; 4] = [4, 2, 8, 3];

/// One line of the file, with its comparison keys.
struct FileLine {
    start: usize,
    content_end: usize,
    end: usize,
    /// Leading spaces and tabs.
    indent: String,
    /// The content after `unicode` folding, blanks trimmed at both ends.
    key: String,
    /// `key` with inner runs of blanks as one space.
    collapsed: String,
}

/// The file split into lines and indexed by key, built once for all edits that reach these tiers.
pub(crate) struct FileLines<'a> {
    text: &'a [u8],
    lines: Vec<FileLine>,
    by_key: HashMap<u64, Vec<usize>>,
    by_collapsed: HashMap<u64, Vec<usize>>,
    /// Indices of the lines that are not blank, in order.
    non_blank: Vec<usize>,
}

fn hash(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

fn keys(content: &[u8]) -> (String, String, String) {
    let text = String::from_utf8_lossy(content);
    let indent_len = text.len() - text.trim_start_matches([' ', '\t']).len();
    let key = normalize(content, Fold::UNICODE.without_trim()).text.trim().to_string();
    let collapsed = key
        .split([' ', '\t'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    (text[..indent_len].to_string(), key, collapsed)
}

impl<'a> FileLines<'a> {
    /// Where line `i` (zero-based) starts.
    pub(crate) fn line_start(&self, i: usize) -> usize {
        self.lines[i].start
    }

    pub(crate) fn new(text: &'a [u8]) -> FileLines<'a> {
        let mut lines = Vec::new();
        let mut at = 0;
        for l in split_lines(text) {
            let (indent, key, collapsed) = keys(l.content);
            let start = at;
            at += l.content.len() + l.eol.len();
            lines.push(FileLine {
                start,
                content_end: start + l.content.len(),
                end: at,
                indent,
                key,
                collapsed,
            });
        }
        let mut by_key: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut by_collapsed: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut non_blank = Vec::new();
        for (i, l) in lines.iter().enumerate() {
            if l.key.is_empty() {
                continue;
            }
            non_blank.push(i);
            by_key.entry(hash(&l.key)).or_default().push(i);
            by_collapsed.entry(hash(&l.collapsed)).or_default().push(i);
        }
        FileLines {
            text,
            lines,
            by_key,
            by_collapsed,
            non_blank,
        }
    }
}

/// One line of `oldText`.
struct NeedleLine<'s> {
    text: &'s str,
    indent: &'s str,
    key: String,
    collapsed: String,
}

fn needle_lines(old: &str) -> Vec<NeedleLine<'_>> {
    split_model_lines(old)
        .into_iter()
        .map(|(text, _)| {
            let (_, key, collapsed) = keys(text.as_bytes());
            let indent = &text[..text.len() - text.trim_start_matches([' ', '\t']).len()];
            NeedleLine {
                text,
                indent,
                key,
                collapsed,
            }
        })
        .collect()
}

/// A region found by a line-based tier, ready to be aligned like any other match.
#[derive(Debug)]
pub(crate) struct LooseMatch {
    /// The file span as text (what the model should have written as `oldText`).
    pub old: String,
    /// `newText` replayed on the file's lines.
    pub new: String,
}

/// The outcome of one tier for one edit.
pub(crate) enum Found {
    None,
    One(Candidate),
    /// Several regions qualify: their first lines (zero-based).
    Many(Vec<usize>),
}

/// Runs tier `tier` (one of the line-based ones) for one edit.
pub(crate) fn find(tier: Tier, file: &FileLines<'_>, old: &str, scope: &Scope) -> Found {
    let needle = needle_lines(old);
    if needle.iter().all(|l| l.key.is_empty()) {
        return Found::None;
    }
    let mut found = match tier {
        Tier::Indentation => indentation(file, &needle),
        Tier::WhitespaceRuns => whitespace_runs(file, &needle),
        Tier::Similar => similar(file, &needle),
        _ => Vec::new(),
    };
    // Whole lines by construction; only the range can rule a region out.
    if let Some(r) = &scope.within {
        found.retain(|c| file.lines[c.first].start >= r.start && file.lines[c.last].content_end <= r.end);
    }
    match found.len() {
        0 => Found::None,
        1 => Found::One(found.into_iter().next().expect("one candidate")),
        _ => Found::Many(found.iter().map(|c| c.first).collect()),
    }
}

/// A candidate region: file lines `first..=last`, needle line `k` paired with file line `pairs[k]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Candidate {
    first: usize,
    last: usize,
    pairs: Vec<Option<usize>>,
    reindent: Option<Reindent>,
    /// What the tier forgave.
    pub forgiven: Forgiven,
}

impl Candidate {
    /// The file bytes the region covers: its lines, the last one's terminator included when the
    /// needle ends with a line break.
    pub(crate) fn span(&self, file: &FileLines<'_>, ends_with_newline: bool) -> Range<usize> {
        let last = &file.lines[self.last];
        file.lines[self.first].start..if ends_with_newline { last.end } else { last.content_end }
    }
}

/// How new lines are re-indented into the file: `delta` columns, tabs of `width` columns, and
/// whether the file indents with tabs there.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reindent {
    delta: isize,
    width: usize,
    tabs: bool,
    /// Indentation units, oldText's and the file's (e.g. 4 and 2 columns per level), when they
    /// differ; `None` when columns map one to one.
    units: Option<(usize, usize)>,
}

/// The indentation unit of a block: the greatest common divisor of its non-zero indentations.
fn unit(cols: impl Iterator<Item = usize>) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    cols.filter(|&c| c > 0).fold(0, gcd)
}

fn columns(indent: &str, width: usize) -> usize {
    indent
        .chars()
        .fold(0, |col, c| if c == '\t' { (col / width + 1) * width } else { col + 1 })
}

impl Reindent {
    /// The file's column for an indentation of `cols` columns in `oldText`.
    fn map(&self, cols: usize) -> usize {
        let scaled = match self.units {
            Some((mine, file)) => cols / mine * file + cols % mine,
            None => cols,
        };
        (scaled as isize + self.delta).max(0) as usize
    }

    fn apply(&self, line: &str) -> String {
        let body = line.trim_start_matches([' ', '\t']);
        if body.is_empty() {
            return line.to_string();
        }
        let indent = &line[..line.len() - body.len()];
        let cols = self.map(columns(indent, self.width));
        let rendered = if self.tabs {
            "\t".repeat(cols / self.width) + &" ".repeat(cols % self.width)
        } else {
            " ".repeat(cols)
        };
        rendered + body
    }
}

fn indentation(file: &FileLines<'_>, needle: &[NeedleLine<'_>]) -> Vec<Candidate> {
    let Some(k0) = needle.iter().position(|l| !l.key.is_empty()) else {
        return Vec::new();
    };
    let m = needle.len();
    let mut found: Vec<Candidate> = Vec::new();
    for &h in file.by_key.get(&hash(&needle[k0].key)).map_or(&[][..], |v| v) {
        let Some(i) = h.checked_sub(k0) else { continue };
        if i + m > file.lines.len() || found.iter().any(|c| c.first == i) {
            continue;
        }
        let region = &file.lines[i..i + m];
        let same_shape = region.iter().zip(needle).all(|(f, n)| f.key == n.key);
        if !same_shape {
            continue;
        }
        for width in TAB_WIDTHS {
            let file_cols: Vec<usize> = region.iter().map(|f| columns(&f.indent, width)).collect();
            let my_cols: Vec<usize> = needle.iter().map(|n| columns(n.indent, width)).collect();
            let lines: Vec<usize> = (0..m).filter(|&k| !needle[k].key.is_empty()).collect();
            // Columns map one to one plus a shift, or level by level when the indentation units
            // differ (a model writing 4 spaces per level for a file that uses 2).
            let units = (
                unit(lines.iter().map(|&k| my_cols[k])),
                unit(lines.iter().map(|&k| file_cols[k])),
            );
            let mappings = [
                None,
                (units.0 != units.1 && units.0 > 0 && units.1 > 0).then_some(units),
            ];
            let mut chosen = None;
            for units in mappings.into_iter().filter(|u| u.is_some() || chosen.is_none()) {
                let probe = Reindent {
                    delta: 0,
                    width,
                    tabs: false,
                    units,
                };
                let delta = file_cols[k0] as isize - probe.map(my_cols[k0]) as isize;
                let r = Reindent { delta, ..probe };
                if lines.iter().all(|&k| r.map(my_cols[k]) == file_cols[k]) {
                    chosen = Some(r);
                    break;
                }
            }
            let Some(mut r) = chosen else { continue };
            let tab_lines = region.iter().filter(|f| f.indent.starts_with('\t')).count();
            let space_lines = region.iter().filter(|f| f.indent.starts_with(' ')).count();
            r.tabs = tab_lines > space_lines;
            found.push(Candidate {
                first: i,
                last: i + m - 1,
                pairs: (0..m).map(|k| Some(i + k)).collect(),
                reindent: Some(r),
                forgiven: Forgiven::Reindented {
                    shift: r.delta,
                    units: r.units,
                    tab_width: r.tabs.then_some(width),
                },
            });
            break;
        }
    }
    found
}

fn whitespace_runs(file: &FileLines<'_>, needle: &[NeedleLine<'_>]) -> Vec<Candidate> {
    let nb: Vec<usize> = (0..needle.len()).filter(|&k| !needle[k].key.is_empty()).collect();
    let Some(&k0) = nb.first() else { return Vec::new() };
    let position: HashMap<usize, usize> = file.non_blank.iter().enumerate().map(|(p, &i)| (i, p)).collect();
    let mut found = Vec::new();
    for &h in file
        .by_collapsed
        .get(&hash(&needle[k0].collapsed))
        .map_or(&[][..], |v| v)
    {
        let p = position[&h];
        if p + nb.len() > file.non_blank.len() {
            continue;
        }
        let matched = nb
            .iter()
            .enumerate()
            .all(|(j, &k)| file.lines[file.non_blank[p + j]].collapsed == needle[k].collapsed);
        if !matched {
            continue;
        }
        let mut pairs = vec![None; needle.len()];
        for (j, &k) in nb.iter().enumerate() {
            pairs[k] = Some(file.non_blank[p + j]);
        }
        found.push(Candidate {
            first: h,
            last: file.non_blank[p + nb.len() - 1],
            pairs,
            reindent: None,
            forgiven: Forgiven::WhitespaceRuns,
        });
    }
    found
}

fn similar(file: &FileLines<'_>, needle: &[NeedleLine<'_>]) -> Vec<Candidate> {
    let nb: Vec<usize> = (0..needle.len()).filter(|&k| !needle[k].key.is_empty()).collect();
    let n = nb.len();
    if n == 0 || file.non_blank.len() < n {
        return Vec::new();
    }
    let needle_chars: usize = nb.iter().map(|&k| needle[k].collapsed.chars().count()).sum();
    let position: HashMap<usize, usize> = file.non_blank.iter().enumerate().map(|(p, &i)| (i, p)).collect();
    // Windows (in non-blank-line positions) anchored by at least one equal line.
    let mut starts: Vec<usize> = Vec::new();
    for (j, &k) in nb.iter().enumerate() {
        for &h in file
            .by_collapsed
            .get(&hash(&needle[k].collapsed))
            .map_or(&[][..], |v| v)
        {
            if file.lines[h].collapsed != needle[k].collapsed {
                continue;
            }
            if let Some(w) = position[&h].checked_sub(j) {
                if w + n <= file.non_blank.len() {
                    starts.push(w);
                }
            }
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let mut scored: Vec<(f32, usize)> = Vec::new();
    for &w in &starts {
        let mut total = 0.0;
        let mut differing = 0;
        let mut anchor_chars = 0;
        let mut acceptable = true;
        for (j, &k) in nb.iter().enumerate() {
            let f = &file.lines[file.non_blank[w + j]].collapsed;
            let mine = &needle[k].collapsed;
            if f == mine {
                total += 1.0;
                anchor_chars += mine.chars().count();
            } else {
                let ratio = similar::TextDiff::from_chars(f.as_str(), mine.as_str()).ratio();
                total += ratio;
                differing += 1;
                acceptable &= ratio >= SIMILAR_MIN_LINE_RATIO;
            }
        }
        let anchored = anchor_chars >= SIMILAR_MIN_ANCHOR_CHARS
            && anchor_chars * 10 >= needle_chars * 4
            && n - differing >= SIMILAR_MIN_EQUAL_LINES;
        let score = total / n as f32;
        if acceptable && anchored && differing <= SIMILAR_MAX_DIFFERING_LINES {
            scored.push((score, w));
        } else {
            // Still a rival for the margin: a region nearly as good rules out a confident choice.
            scored.push((score.min(SIMILAR_THRESHOLD - f32::EPSILON), usize::MAX - w));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let Some(&(best, w)) = scored.first() else {
        return Vec::new();
    };
    let second = scored.get(1).map_or(0.0, |s| s.0);
    if w > file.non_blank.len() || best < SIMILAR_THRESHOLD || best - second < SIMILAR_MARGIN {
        return Vec::new();
    }
    let mut pairs = vec![None; needle.len()];
    for (j, &k) in nb.iter().enumerate() {
        pairs[k] = Some(file.non_blank[w + j]);
    }
    vec![Candidate {
        first: file.non_blank[w],
        last: file.non_blank[w + n - 1],
        pairs,
        reindent: None,
        forgiven: Forgiven::Similar {
            similarity: percent(best),
            runner_up: percent(second),
        },
    }]
}

/// Replays the model's change (`old` → `new`) on the file lines of `c`, the region found for `old`.
pub(crate) fn transport(file: &FileLines<'_>, old: &str, new: &str, c: &Candidate) -> LooseMatch {
    let needle = needle_lines(old);
    let ends_with_newline = old.ends_with('\n');
    let file_line =
        |i: usize| String::from_utf8_lossy(&file.text[file.lines[i].start..file.lines[i].content_end]).into_owned();
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
    let mut items: Vec<String> = Vec::new();
    let mut next = c.first; // the next file line not yet emitted or consumed
                            // Emits file lines no needle line is paired with (blank lines only the file has), up to `to`.
    let flush = |items: &mut Vec<String>, next: &mut usize, to: usize| {
        while *next < to {
            if !c.pairs.contains(&Some(*next)) {
                items.push(file_line(*next));
            }
            *next += 1;
        }
    };
    for op in anchored_diff(&o_keys, &n_keys) {
        let (o, n) = (op.old_range(), op.new_range());
        match op {
            similar::DiffOp::Equal { .. } => {
                for k in o {
                    if let Some(p) = c.pairs[k] {
                        flush(&mut items, &mut next, p);
                        items.push(file_line(p));
                        next = p + 1;
                    }
                }
            }
            _ => {
                // Lines the model edited (rather than rewrote) are edited on the file's own line, so
                // its spacing, quotes and indentation survive around the change.
                let edited = pair_lines(&o_keys[o.clone()], &n_keys[n.clone()]);
                let mut from_file: Vec<Option<String>> = vec![None; n.len()];
                for &(po, pn) in &edited {
                    if let Some(p) = c.pairs[o.start + po] {
                        // Indentation apart: the file's when the model kept its own, else re-indented.
                        let (f_ind, f_body) = split_indent_owned(file_line(p));
                        let (o_ind, o_body) = split_indent(o_keys[o.start + po]);
                        let (n_ind, n_body) = split_indent(n_keys[n.start + pn]);
                        let body = transport_line(&f_body, o_body, n_body);
                        from_file[pn] = Some(if n_ind == o_ind {
                            f_ind + &body
                        } else {
                            fix(&format!("{n_ind}{body}"))
                        });
                    }
                }
                for k in o {
                    if let Some(p) = c.pairs[k] {
                        flush(&mut items, &mut next, p);
                        next = p + 1;
                    }
                }
                for (j, line) in n.clone().zip(from_file) {
                    items.push(line.unwrap_or_else(|| fix(n_keys[j])));
                }
            }
        }
    }
    flush(&mut items, &mut next, c.last + 1);
    let mut new_text = items.join("\n");
    if new.ends_with('\n') {
        new_text.push('\n');
    }
    LooseMatch { old, new: new_text }
}

fn split_indent(line: &str) -> (&str, &str) {
    let body = line.trim_start_matches([' ', '\t']);
    (&line[..line.len() - body.len()], body)
}

fn split_indent_owned(line: String) -> (String, String) {
    let (indent, body) = split_indent(&line);
    (indent.to_string(), body.to_string())
}

/// Where a character of the model's `oldText` line is in the file's line.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// The same character, at this index.
    Same(usize),
    /// Part of a stretch the file writes differently (`    ` for `\t`, `"` for `“`): the file's
    /// stretch, and the model's stretch it stands for.
    Differs { file: (usize, usize), old: (usize, usize) },
    /// Only the model has it.
    Missing,
}

/// Replays the model's edit of one line (`old` → `new`) on the file's version of it (`file`): where
/// the model kept characters, the file's own characters for them are written (its tabs, quotes,
/// extra spaces); where it changed them, its new characters are.
fn transport_line(file: &str, old: &str, new: &str) -> String {
    let f: Vec<char> = file.chars().collect();
    let o: Vec<char> = old.chars().collect();
    let n: Vec<char> = new.chars().collect();
    let mut slots = vec![Slot::Missing; o.len()];
    for op in anchored_diff(&o, &f) {
        match op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for k in 0..len {
                    slots[old_index + k] = Slot::Same(new_index + k);
                }
            }
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let slot = Slot::Differs {
                    file: (new_index, new_index + new_len),
                    old: (old_index, old_index + old_len),
                };
                for s in &mut slots[old_index..old_index + old_len] {
                    *s = slot;
                }
            }
            _ => {}
        }
    }
    // File-only characters (those no character of `old` maps to) stick to the character before
    // them: `run_end[j]` is where the file-only run starting at `j` ends.
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
    let mut out = String::with_capacity(file.len() + new.len());
    let mut at = 0; // next file character not yet written or dropped
    for op in anchored_diff(&o, &n) {
        let kept = op.old_range();
        let is_kept = matches!(op, similar::DiffOp::Equal { .. });
        let mut k = kept.start;
        while k < kept.end {
            match slots[k] {
                Slot::Same(j) if j >= at => {
                    if is_kept {
                        let end = run_end[j + 1];
                        out.extend(&f[at..end]);
                        at = end;
                    } else {
                        // File-only characters before a removed one (extra spaces) stay.
                        out.extend(&f[at..j]);
                        at = j + 1;
                    }
                    k += 1;
                }
                Slot::Differs {
                    file: (fa, fb),
                    old: (oa, ob),
                } if fa >= at && oa == k => {
                    let whole = ob <= kept.end;
                    if is_kept && whole {
                        let end = run_end[fb];
                        out.extend(&f[at..end]);
                        at = end;
                        k = ob;
                        continue;
                    } else {
                        out.extend(&f[at..fa]);
                        if is_kept {
                            out.extend(&o[k..ob.min(kept.end)]);
                        }
                        k = ob.min(kept.end);
                    }
                    at = fb;
                }
                _ => {
                    if is_kept {
                        out.push(o[k]);
                    }
                    k += 1;
                }
            }
        }
        if !is_kept {
            out.extend(&n[op.new_range()]);
        }
    }
    out.extend(f.get(at..).unwrap_or(&[]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tier: Tier, text: &str, old: &str, new: &str) -> Option<(String, Forgiven)> {
        let file = FileLines::new(text.as_bytes());
        match find(tier, &file, old, &Scope::default()) {
            Found::One(c) => {
                let m = transport(&file, old, new, &c);
                let span = c.span(&file, old.ends_with('\n'));
                let mut out = text.to_string();
                let replaced =
                    crate::align::align(&text.as_bytes()[span.clone()], &m.old, &m.new, Fold::EXACT, b"\n").bytes;
                out.replace_range(span, &String::from_utf8(replaced).unwrap());
                Some((out, c.forgiven))
            }
            Found::None => None,
            Found::Many(lines) => panic!("ambiguous: {lines:?}"),
        }
    }

    #[test]
    fn indentation_shift_and_tabs() {
        let text = "fn a() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n";
        let (out, note) = run(
            Tier::Indentation,
            text,
            "if x {\n    return 1;\n}\n",
            "if x {\n    log();\n    return 1;\n}\n",
        )
        .unwrap();
        assert_eq!(out, "fn a() {\n\tif x {\n\t\tlog();\n\t\treturn 1;\n\t}\n}\n");
        assert!(
            matches!(
                note,
                Forgiven::Reindented {
                    shift: 4,
                    tab_width: Some(4),
                    ..
                }
            ),
            "{note:?}"
        );
    }

    #[test]
    fn whitespace_runs_and_blank_lines() {
        let text = "a  =   1;\n\n\nb = 2;\nc = 3;\n";
        let (out, _) = run(Tier::WhitespaceRuns, text, "a = 1;\nb = 2;", "a = 1;\nb = 20;").unwrap();
        assert_eq!(out, "a  =   1;\n\n\nb = 20;\nc = 3;\n");
    }

    #[test]
    fn edited_lines_keep_the_files_spacing() {
        assert_eq!(
            transport_line("let  a   =  1;  ", "let a = 1;", "let a = 2;"),
            "let  a   =  2;  "
        );
        assert_eq!(
            transport_line("\tx = \u{201C}a\u{201D}", "x = \"a\"", "x = \"b\""),
            "\tx = \u{201C}b\u{201D}"
        );
        assert_eq!(
            transport_line("compute(items)", "compute(item)", "compute(item, x)"),
            "compute(items, x)"
        );
        assert_eq!(
            transport_line("\tfoo(a,  b)", "    foo(a, b)", "    foo(a, b) /*E*/"),
            "\tfoo(a,  b) /*E*/"
        );
        assert_eq!(transport_line("x = \u{2014}1", "x = -1", "x = -2"), "x = \u{2014}2");
    }

    #[test]
    fn similar_needs_anchor_and_margin() {
        let text = "fn main() {\n    let total = compute(items);\n    println!(\"{}\", total);\n}\n";
        let old = "fn main() {\n    let total = compute(item);\n    println!(\"{}\", total);\n}\n";
        let new = "fn main() {\n    let total = compute(item);\n    println!(\"total: {}\", total);\n}\n";
        let (out, note) = run(Tier::Similar, text, old, new).unwrap();
        assert_eq!(
            out,
            "fn main() {\n    let total = compute(items);\n    println!(\"total: {}\", total);\n}\n"
        );
        assert!(matches!(note, Forgiven::Similar { .. }), "{note:?}");
        // A lone paraphrased line has no anchor: refused.
        assert!(run(Tier::Similar, text, "    let total = compute(item);", "x").is_none());
    }
}
