//! Where a needle most nearly is, for a miss: the regions, and line by line what differs — as data.
//!
//! Lines are compared after the loosest normalization (Unicode folds, blanks trimmed at both ends),
//! so that indentation, quotes and spacing do not hide a region that is otherwise right. Candidate
//! regions come from needle lines found verbatim; when no line is, the needle's longest line is
//! compared with every file line by shared character bigrams. Both passes are linear in the file and
//! keep only a line index and the votes, not a copy of its lines: ASCII lines are compared where
//! they lie (normalizing changes nothing there but the trimming), and lines too unlike the needle's
//! in length to score are skipped unread. The comparison of a region works within a budget linear in
//! its size (see [`crate::text::budget`]). The words for a model are the caller's (surgical-tool's
//! `wording` module).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::find::line_tiers::FileLines;
use crate::text::budget::Budget;
use crate::text::lines::{lines, terminator_len, trim_ascii, Line};
use crate::text::normalize::{normalize, Fold};

/// What is closest to a needle that was not found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Closest {
    /// The text is empty: nothing can be close.
    EmptyText,
    /// No line of the text resembles any line of the needle.
    NothingAlike,
    /// One to three regions, the likeliest first.
    Regions(Vec<Region>),
}

/// A region of the text close to the needle, compared line by line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Region {
    /// One-based first and last text line of the region.
    pub lines: (usize, usize),
    /// How many needle lines are identical to their text line.
    pub identical: usize,
    /// How many lines the needle has.
    pub needle_lines: usize,
    /// The comparison, in order (text lines that only the extra context brought in at the end are left
    /// out).
    pub rows: Vec<Row>,
}

/// One row of a region's comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Row {
    /// Text line `line` (one-based), `text`, paired with a needle line; `differs` says how they differ
    /// (`None`: identical).
    Paired {
        /// One-based text line.
        line: usize,
        /// The text line (invalid bytes as U+FFFD).
        text: String,
        /// How the needle's line differs, if it does.
        differs: Option<LineDifference>,
    },
    /// Needle line `needle_line` (one-based) is not in the text here.
    Missing {
        /// One-based needle line.
        needle_line: usize,
        /// The needle line.
        text: String,
    },
    /// Text line `line` (one-based) is not in the needle.
    Extra {
        /// One-based text line.
        line: usize,
        /// The text line.
        text: String,
    },
}

/// How a needle line differs from the text line it is paired with.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineDifference {
    /// Only the trailing blanks differ.
    TrailingWhitespace {
        /// The text line's trailing blanks.
        file: String,
        /// The needle line's.
        needle: String,
    },
    /// Only the indentation differs.
    Indentation {
        /// The text line's indentation.
        file: String,
        /// The needle line's.
        needle: String,
    },
    /// They first differ at one-based character `column`.
    Column {
        /// The needle line.
        needle: String,
        /// One-based character column.
        column: usize,
        /// The text's character there.
        file_char: char,
        /// The needle's.
        needle_char: char,
    },
    /// They differ in one word only, by a character dropped, added, changed, or two swapped: a
    /// mistyped word.
    Typo {
        /// The needle line.
        needle: String,
        /// The word as the needle has it.
        wrote: String,
        /// The word as the text has it.
        file: String,
    },
    /// The needle line is a prefix of the text line, which continues after `column` characters.
    FileContinues {
        /// The needle line.
        needle: String,
        /// Characters in common.
        column: usize,
    },
    /// The text line is a prefix of the needle line and ends after `column` characters.
    FileEnds {
        /// The needle line.
        needle: String,
        /// Characters in common.
        column: usize,
    },
}

fn key(line: &[u8]) -> String {
    normalize(line, Fold::UNICODE).text.trim().to_string()
}

/// [`key`] without a copy where normalizing would change nothing but the trimming: ASCII lines.
fn file_key(line: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(line) {
        Ok(ascii) if line.is_ascii() => Cow::Borrowed(ascii.trim()),
        _ => Cow::Owned(key(line)),
    }
}

/// At most this many regions are given.
const MAX_REGIONS: usize = 3;
/// A needle line found many times in the needle votes for its first this many places only, so that
/// voting costs at most this many steps per file line.
const MAX_VOTES_PER_LINE: usize = 16;

/// The one to three text regions closest to `old`, and line by line how each differs.
pub(crate) fn closest_regions(text: &[u8], old: &str) -> Closest {
    closest_regions_in(text, old, None)
}

/// [`closest_regions`], with the line-based tiers' lines of `text` when they were built: the lines
/// equal to a needle line are then those their hashes point to (no pass over the text), and the
/// lines are not split again (issue 12).
pub(crate) fn closest_regions_in(text: &[u8], old: &str, file: Option<&FileLines<'_>>) -> Closest {
    let old_lines: Vec<&str> = old.strip_suffix('\n').unwrap_or(old).split('\n').collect();
    let old_keys: Vec<String> = old_lines.iter().map(|l| key(l.as_bytes())).collect();
    if text.is_empty() {
        return Closest::EmptyText;
    }

    // Vote for region starts: file line i equal to needle line k suggests a start at i - k.
    let mut wanted: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, key) in old_keys.iter().enumerate() {
        if key.chars().count() >= 3 {
            let places = wanted.entry(key.as_str()).or_default();
            if places.len() < MAX_VOTES_PER_LINE {
                places.push(k);
            }
        }
    }
    // A file line can only equal a needle key if, trimmed, it is no shorter than the shortest key
    // (normalizing never lengthens ASCII; other lines are normalized to see).
    let shortest = wanted.keys().map(|k| k.len()).min().unwrap_or(usize::MAX);
    // An ASCII line's key is the line trimmed: it can equal a key only at that key's length, which
    // rules most lines out before they are hashed (issue 12: this pass is much of a miss).
    let mut key_lengths: Vec<bool> = Vec::new();
    for k in wanted.keys() {
        if key_lengths.len() <= k.len() {
            key_lengths.resize(k.len() + 1, false);
        }
        key_lengths[k.len()] = true;
    }
    let mut votes: HashMap<usize, usize> = HashMap::new();
    let mut vote = |i: usize, content: &[u8]| {
        let k = file_key(content);
        if let Some(ks) = wanted.get(k.as_ref()) {
            for &kk in ks {
                *votes.entry(i.saturating_sub(kk)).or_default() += k.len();
            }
        }
    };
    let lines_at = match file {
        Some(file) => {
            let keys: Vec<&str> = wanted.keys().copied().collect();
            if !keys.is_empty() {
                for i in file.maybe_keyed(&keys) {
                    vote(i, file.content(i));
                }
            }
            LinesAt {
                text,
                starts: Cow::Borrowed(file.starts()),
            }
        }
        None => {
            // Where each line starts (then the text's length), kept by this pass so that no other
            // pass splits the text into lines again.
            let mut starts: Vec<u32> = Vec::new();
            let mut all = lines(text);
            loop {
                let i = starts.len();
                // Texts are under 4 GiB (see `normalize`).
                starts.push(all.offset() as u32);
                let Some(line) = all.next() else { break };
                if wanted.is_empty() {
                    continue;
                }
                if line.content.len() < shortest && line.content.is_ascii() {
                    continue;
                }
                if line.content.is_ascii()
                    && !key_lengths
                        .get(trim_ascii(line.content).len())
                        .copied()
                        .unwrap_or(false)
                {
                    continue;
                }
                vote(i, line.content);
            }
            LinesAt {
                text,
                starts: Cow::Owned(starts),
            }
        }
    };
    let mut ranked: Vec<(usize, usize)> = votes.into_iter().map(|(start, v)| (v, start)).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let best = ranked.first().map_or(0, |r| r.0);
    let mut starts: Vec<usize> = Vec::new();
    for &(v, start) in &ranked {
        if starts.len() == MAX_REGIONS || v * 2 < best {
            break;
        }
        if starts.iter().all(|&s| s.abs_diff(start) >= old_lines.len().max(1)) {
            starts.push(start);
        }
    }
    if starts.is_empty() {
        match best_by_bigrams(&lines_at, &old_keys) {
            Some((i, k)) => starts.push(i.saturating_sub(k)),
            None => return Closest::NothingAlike,
        }
    }
    let regions = starts
        .into_iter()
        .map(|start| {
            let end = (start + old_lines.len() + 2).min(lines_at.count());
            let file_lines: Vec<Line<'_>> = (start..end).map(|i| lines_at.line(i)).collect();
            region(&file_lines, start, &old_lines, &old_keys)
        })
        .collect();
    Closest::Regions(regions)
}

/// A text's lines by where they start (then the text's length).
struct LinesAt<'t> {
    text: &'t [u8],
    starts: Cow<'t, [u32]>,
}

impl<'t> LinesAt<'t> {
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` (below `count()`): its content and terminator.
    fn line(&self, i: usize) -> Line<'t> {
        let whole = &self.text[self.starts[i] as usize..self.starts[i + 1] as usize];
        let cut = terminator_len(whole);
        Line {
            content: &whole[..whole.len() - cut],
            eol: &whole[whole.len() - cut..],
        }
    }
}

/// One region, diffed line by line against the needle so that a missing or extra line shows as one.
/// `file_lines` are the region's lines, the first being text line `start` (zero-based).
fn region(file_lines: &[Line<'_>], start: usize, old_lines: &[&str], old_keys: &[String]) -> Region {
    let file_keys: Vec<Cow<'_, str>> = file_lines.iter().map(|l| file_key(l.content)).collect();
    let fk: Vec<&str> = file_keys.iter().map(|k| k.as_ref()).collect();
    let ok: Vec<&str> = old_keys.iter().map(String::as_str).collect();
    let bytes =
        file_lines.iter().map(|l| l.content.len()).sum::<usize>() + old_lines.iter().map(|l| l.len()).sum::<usize>();
    let mut budget = Budget::for_bytes(bytes);
    let mut rows: Vec<Row> = Vec::new();
    let mut identical = 0;
    let mut last_file = start;
    let file_text = |i: usize| String::from_utf8_lossy(file_lines[i - start].content).into_owned();
    let missing = |k: usize| Row::Missing {
        needle_line: k + 1,
        text: old_lines[k].to_string(),
    };
    let extra = |i: usize| Row::Extra {
        line: i + 1,
        text: file_text(i),
    };
    for op in budget.anchored_diff(&ok, &fk) {
        let (o, f) = (op.old_range(), op.new_range());
        let pairs = o.len().min(f.len());
        for j in 0..pairs {
            let (k, i) = (o.start + j, start + f.start + j);
            let file = file_text(i);
            if budget.char_ratio(file.as_str(), old_lines[k]) < 0.5 {
                // Too unlike to be the same line: one is missing, the other extra.
                rows.push(missing(k));
                rows.push(extra(i));
                continue;
            }
            let differs = line_difference(&file, old_lines[k]);
            identical += usize::from(file == old_lines[k]);
            rows.push(Row::Paired {
                line: i + 1,
                text: file,
                differs,
            });
            last_file = i;
        }
        rows.extend((o.start + pairs..o.end).map(missing));
        rows.extend((start + f.start + pairs..start + f.end).map(extra));
    }
    // Trailing file lines that only the extra context brought in are not part of the region.
    while matches!(rows.last(), Some(Row::Extra { .. })) {
        rows.pop();
    }
    Region {
        lines: (start + 1, last_file.max(start) + 1),
        identical,
        needle_lines: old_lines.len(),
        rows,
    }
}

/// How a text line and a needle line differ; `None` when they are equal.
fn line_difference(file: &str, mine: &str) -> Option<LineDifference> {
    if file == mine {
        return None;
    }
    let (f_lead, m_lead) = (leading(file), leading(mine));
    if file.trim_end() == mine.trim_end() {
        return Some(LineDifference::TrailingWhitespace {
            file: file[file.trim_end().len()..].to_string(),
            needle: mine[mine.trim_end().len()..].to_string(),
        });
    }
    if file[f_lead.len()..] == mine[m_lead.len()..] {
        return Some(LineDifference::Indentation {
            file: f_lead.to_string(),
            needle: m_lead.to_string(),
        });
    }
    if let Some((wrote, file)) = crate::find::mistakes::typo(mine.trim(), file.trim()) {
        return Some(LineDifference::Typo {
            needle: mine.to_string(),
            wrote,
            file,
        });
    }
    let f: Vec<char> = file.chars().collect();
    let m: Vec<char> = mine.chars().collect();
    let col = f.iter().zip(&m).take_while(|(a, b)| a == b).count();
    let needle = mine.to_string();
    match (f.get(col), m.get(col)) {
        (Some(&file_char), Some(&needle_char)) => Some(LineDifference::Column {
            needle,
            column: col + 1,
            file_char,
            needle_char,
        }),
        (Some(_), None) => Some(LineDifference::FileContinues { needle, column: col }),
        (None, Some(_)) => Some(LineDifference::FileEnds { needle, column: col }),
        // Equal characters but unequal strings cannot happen; treat as equal.
        (None, None) => None,
    }
}

fn leading(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

fn bigrams(s: &str) -> HashSet<(char, char)> {
    let cs: Vec<char> = s.chars().collect();
    cs.windows(2).map(|w| (w[0], w[1])).collect()
}

/// The file line most like the needle's longest line, and that line's index in the needle.
///
/// A line scores `2 * shared / (needle's bigrams + its own)`, at most `2 * min / (sum)` of the two
/// counts: lines whose length alone keeps them at or under the threshold, or under the best score
/// so far (only a higher one replaces it), are not read further, and a line is left as soon as its
/// bigrams still unread could not lift it above that (issue 12: this pass was a fifth of a miss).
/// Lines are scored in place (a table of seen bigrams, stamped per line, no copy of an ASCII line),
/// so the pass costs a few steps per byte at most.
fn best_by_bigrams(lines_at: &LinesAt<'_>, old_keys: &[String]) -> Option<(usize, usize)> {
    const THRESHOLD: f32 = 0.3;
    let (k, longest) = old_keys.iter().enumerate().max_by_key(|(_, l)| l.len())?;
    let want = bigrams(longest);
    if want.is_empty() {
        return None;
    }
    let w = want.len();
    // Shared bigrams are at most the line's own, so the denominator is the two counts' sum; a
    // score grows with `common`, so a bound on `common` bounds the score.
    let score_of = |common: usize, windows: usize| 2.0 * common as f32 / (w + common.max(windows)) as f32;
    // Per ASCII bigram: `UNWANTED`, or the last line that had it plus one (0: none yet), so that one
    // small table is both the wanted set and the set seen on this line, cleared for free. Other
    // wanted bigrams get a number, and the same stamps.
    const UNWANTED: u32 = u32::MAX;
    let ascii_index = |a: u8, b: u8| usize::from(a) << 7 | usize::from(b);
    let mut seen_on = vec![UNWANTED; 1 << 14];
    let mut other: HashMap<(char, char), usize> = HashMap::new();
    for &(a, b) in &want {
        if a.is_ascii() && b.is_ascii() {
            seen_on[ascii_index(a as u8, b as u8)] = 0;
        } else {
            let n = other.len();
            other.insert((a, b), n);
        }
    }
    let mut other_seen = vec![0u32; other.len()];
    let mut chars: Vec<char> = Vec::new();
    let mut best: Option<(f32, usize)> = None;
    'lines: for i in 0..lines_at.count() {
        // What a line must score above to count.
        let floor = best.map_or(THRESHOLD, |(b, _)| b);
        let line = lines_at.line(i);
        // Texts are under 4 GiB (see `normalize`), so line numbers fit.
        let stamp = i as u32 + 1;
        let (common, windows) = if line.content.is_ascii() {
            let t = trim_ascii(line.content);
            if t.len() < 2 || score_of(w.min(t.len() - 1), t.len() - 1) <= floor {
                continue;
            }
            let windows = t.len() - 1;
            let mut common = 0;
            for (n, pair) in t.windows(2).enumerate() {
                let seen = &mut seen_on[ascii_index(pair[0], pair[1])];
                if *seen != UNWANTED && *seen != stamp {
                    *seen = stamp;
                    common += 1;
                }
                if n % 16 == 15 && score_of(common + (windows - n - 1), windows) <= floor {
                    continue 'lines;
                }
            }
            (common, windows)
        } else {
            let text = String::from_utf8_lossy(line.content);
            chars.clear();
            chars.extend(text.trim().chars());
            if chars.len() < 2 || score_of(w.min(chars.len() - 1), chars.len() - 1) <= floor {
                continue;
            }
            let windows = chars.len() - 1;
            let mut common = 0;
            for pair in chars.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let seen = if a.is_ascii() && b.is_ascii() {
                    match &mut seen_on[ascii_index(a as u8, b as u8)] {
                        s if *s == UNWANTED => continue,
                        s => s,
                    }
                } else {
                    match other.get(&(a, b)) {
                        Some(&n) => &mut other_seen[n],
                        None => continue,
                    }
                };
                if *seen != stamp {
                    *seen = stamp;
                    common += 1;
                }
            }
            (common, windows)
        };
        let score = score_of(common, windows);
        if score > THRESHOLD && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| (i, k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regions(text: &[u8], old: &str) -> Vec<Region> {
        match closest_regions(text, old) {
            Closest::Regions(r) => r,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn points_at_the_differing_line() {
        let text = b"fn a() {\n    let x = 1;\n    call(x);\n}\n";
        let r = regions(text, "fn a() {\n    let x = 2;\n    call(x);\n");
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].lines, r[0].identical, r[0].needle_lines), ((1, 3), 2, 3));
        assert!(matches!(
            &r[0].rows[1],
            Row::Paired {
                line: 2,
                differs: Some(LineDifference::Column {
                    column: 13,
                    file_char: '1',
                    needle_char: '2',
                    ..
                }),
                ..
            }
        ));
    }

    #[test]
    fn missing_lines_and_several_regions() {
        let text = b"fn a() {\n    one();\n    two();\n}\nfn b() {\n    one();\n    two();\n}\n";
        let r = regions(text, "fn a() {\n    one();\n    three();\n    two();\n}\n");
        assert!(r[0].rows.contains(&Row::Missing {
            needle_line: 3,
            text: "    three();".into()
        }));
        let r = regions(text, "    one();\n    two();\n    zzz();\n");
        let lines: Vec<_> = r.iter().map(|r| r.lines).collect();
        assert_eq!(lines, vec![(2, 3), (6, 7)]);
    }

    #[test]
    fn indentation_is_named() {
        let r = regions(b"\tif x:\n\t\treturn 1\n", "    if x:\n        return 1");
        assert!(matches!(
            &r[0].rows[0],
            Row::Paired {
                differs: Some(LineDifference::Indentation { .. }),
                ..
            }
        ));
    }

    /// The bigram pass without leaving any line early: every line scored in full.
    fn best_by_bigrams_in_full(lines_at: &LinesAt<'_>, old_keys: &[String]) -> Option<(usize, usize)> {
        let (k, longest) = old_keys.iter().enumerate().max_by_key(|(_, l)| l.len())?;
        let want = bigrams(longest);
        let w = want.len();
        let mut best: Option<(f32, usize)> = None;
        for i in 0..lines_at.count() {
            let text = String::from_utf8_lossy(lines_at.line(i).content);
            let cs: Vec<char> = text.trim().chars().collect();
            if cs.len() < 2 || want.is_empty() {
                continue;
            }
            let mut seen = HashSet::new();
            let common = cs
                .windows(2)
                .filter(|p| want.contains(&(p[0], p[1])) && seen.insert((p[0], p[1])))
                .count();
            let windows = cs.len() - 1;
            let score = 2.0 * common as f32 / (w + common.max(windows)) as f32;
            if score > 0.3 && best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| (i, k))
    }

    proptest::proptest! {
        /// Lines left early by the bigram pass could not have won.
        #[test]
        fn bigrams_leave_only_lines_that_cannot_win(
            lines in proptest::collection::vec("[a-c =;(x)\u{e9}\u{201C}]{0,40}", 0..30),
            longest in "[a-c =;(x)\u{e9}\u{201C}]{2,30}",
        ) {
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let mut starts: Vec<u32> = vec![0];
            for (i, b) in text.bytes().enumerate() {
                if b == b'\n' {
                    starts.push(i as u32 + 1);
                }
            }
            let lines_at = LinesAt { text: text.as_bytes(), starts: Cow::Owned(starts) };
            let keys = vec![key(longest.as_bytes())];
            proptest::prop_assert_eq!(best_by_bigrams(&lines_at, &keys), best_by_bigrams_in_full(&lines_at, &keys));
        }

        /// With the line-based tiers' lines or without, the same regions (the hashes find every
        /// line equal to a needle line, and the bigram pass leaves out only lines that cannot win).
        #[test]
        fn the_line_index_finds_the_same_regions(
            lines in proptest::collection::vec(proptest::sample::select(vec![
                "", "  ", "fn a() {", "    let x = 1;", "\tlet  x = 1;", "let x = 2;", "    call(x);", "}",
                "  \u{201C}q\u{201D} \u{a0}", "\"q\"", "caf\u{e9} x", "cafe\u{301} x", "x\u{c}", "\u{FF41}bc",
            ]), 0..24),
            ends in proptest::collection::vec(proptest::sample::select(vec!["\n", "\r\n", "\r"]), 24),
            needle in proptest::collection::vec(proptest::sample::select(vec![
                "let x = 1;", "  call(x);", "\"q\"", "abc", "cafe x", "let y = 3;", "fn b() {", "zzz",
            ]), 1..5),
        ) {
            let text: String = lines.iter().zip(&ends).map(|(l, e)| format!("{l}{e}")).collect();
            let old = needle.join("\n");
            let file = FileLines::new(text.as_bytes());
            proptest::prop_assert_eq!(
                closest_regions_in(text.as_bytes(), &old, Some(&file)),
                closest_regions_in(text.as_bytes(), &old, None)
            );
        }
    }

    #[test]
    fn falls_back_to_bigrams() {
        let r = regions(
            b"alpha\nconst total = compute(a, b);\nomega\n",
            "const totl = compute(a,b)",
        );
        assert_eq!(r[0].lines, (2, 2));
        assert_eq!(closest_regions(b"", "x"), Closest::EmptyText);
        assert_eq!(closest_regions(b"abc\n", "zzzzzz"), Closest::NothingAlike);
    }
}
