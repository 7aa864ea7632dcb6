//! What the misremembered tiers (`typo`, `extra_line`, `missing_line`) found when they refused a
//! region that almost matched, as data for a `not_found` message: the region, the needle's lines
//! paired with it one by one, and why it was not taken.
//!
//! Built only on a refusal, from the region the search already chose as its best reading: the
//! needle's non-blank lines are paired with the file's non-blank lines around that region by the
//! longest common run of equal lines (weighted by characters), and the lines between equal ones are
//! named as what they most likely are (a mistyped word, a line the file lacks, a file line left
//! out). The pairing costs at most [`MAX_CELLS`] comparisons; past that, the search's own equal
//! pairs are used. Nothing here decides what is placed.

use std::ops::Range;

use crate::find::line_tiers::{FileLines, NeedleLine};
use crate::find::mistakes::{typo, MISREMEMBERED_MIN_ANCHOR_CHARS, MISREMEMBERED_MIN_EQUAL_LINES};

/// A region the misremembered tiers refused, and why (see [`crate::EditError::NotFound`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NearMiss {
    /// One-based first and last file line of the region.
    pub lines: (usize, usize),
    /// The needle's non-blank lines and the region's, paired in order (blank lines left out; file
    /// lines before the first pair and after the last are not part of it).
    pub rows: Vec<NearRow>,
    /// Why the region was not taken.
    pub refused: Refusal,
}

/// One step of a [`NearMiss`]'s pairing. Line numbers are one-based.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NearRow {
    /// Needle line `needle_line` equals file line `line` (up to what a model cannot see).
    Equal {
        /// One-based needle line.
        needle_line: usize,
        /// One-based file line.
        line: usize,
    },
    /// Needle line `needle_line` is file line `line` but for one mistyped word.
    Typo {
        /// One-based needle line.
        needle_line: usize,
        /// One-based file line.
        line: usize,
        /// The word as the needle has it.
        wrote: String,
        /// The word as the file has it.
        file: String,
    },
    /// Needle line `needle_line` stands where file line `line` is, and differs from it by more than
    /// a mistyped word.
    Differs {
        /// One-based needle line.
        needle_line: usize,
        /// One-based file line.
        line: usize,
        /// The needle line, trimmed.
        needle: String,
        /// The file line, trimmed.
        file: String,
    },
    /// Needle line `needle_line` is not in the file there.
    Extra {
        /// One-based needle line.
        needle_line: usize,
        /// The needle line, trimmed.
        text: String,
    },
    /// File line `line` lies between needle lines `between.0` and `between.1`, which leave it out.
    Missing {
        /// One-based file line.
        line: usize,
        /// The file line, trimmed.
        text: String,
        /// The one-based needle lines before and after it.
        between: (usize, usize),
    },
}

/// Why the misremembered tiers did not take a [`NearMiss`]'s region.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// More than one mistake of a kind (mistyped words, extra lines, missing lines), or a line that
    /// differs by more than one mistyped word: the tiers forgive at most one of each.
    TooManyMistakes,
    /// Too little of the needle is identical to the region to be sure it is the place: fewer than
    /// [`crate::MISREMEMBERED_MIN_EQUAL_LINES`] equal lines, or fewer than
    /// [`crate::MISREMEMBERED_MIN_ANCHOR_CHARS`] characters in them, or not more than half of the
    /// needle's characters.
    WeakAnchor {
        /// Needle lines equal to their file line.
        equal_lines: usize,
        /// Characters in those lines (as compared: blanks collapsed).
        equal_chars: usize,
        /// Characters in the needle's non-blank lines (as compared).
        needle_chars: usize,
    },
    /// Another reading of the file, at these one-based lines, fits within
    /// [`crate::MISREMEMBERED_MARGIN`] of this one: neither was taken.
    Rival {
        /// One-based first and last line of the other region.
        lines: (usize, usize),
    },
    /// The needle's lines pair with the region in too many equally good ways to tell which file
    /// line each stands for.
    Repetitive,
    /// The needle's one extra line is a line the file has nearby, outside the region, at this
    /// one-based line: the needle may leave out more lines than one rather than add one.
    ExtraLineNearby {
        /// One-based file line holding the same text.
        line: usize,
    },
    /// The search's work budget ran out before every candidate region was compared.
    BudgetSpent,
}

/// Comparisons the pairing may make (needle lines times file lines); past that, the search's own
/// equal pairs anchor it.
const MAX_CELLS: usize = 1 << 18;
/// File lines taken on each side of the search's region, so that a needle line the search paired
/// off by one or two is still found.
const REACH: usize = 3;
/// Needle lines times file lines between two equal lines past which no mistyped word is looked for.
const MAX_TYPO_TRIES: usize = 64;

/// The needle's non-blank lines, as the misremembered search compares them.
pub(crate) struct Needle<'a> {
    /// All of the needle's lines.
    pub lines: &'a [NeedleLine<'a>],
    /// The needle line of each non-blank position.
    pub nb: &'a [usize],
    /// Each non-blank line as compared.
    pub keys: &'a [&'a str],
    /// Their characters.
    pub weight: &'a [usize],
}

/// A reading the misremembered search made of the file: its first and last non-blank positions,
/// and its equal pairs `(needle position, file position)`, in order.
pub(crate) struct Reading {
    pub region: (usize, usize),
    pub equal: Vec<(usize, usize)>,
}

/// Readings compared for a refusal without a region of its own (the best ones, as good as each
/// other); the rest are not paired.
const MAX_READINGS: usize = 4;

/// The near miss to report when the misremembered search refuses: of `readings` (the region it
/// refused, or its best readings), the one with the fewest mistakes once paired; `why` the
/// refusal, or (`None`) told from the pairing: too many mistakes of a kind, a weak anchor, or the
/// extra line also in the file nearby. `None` when more lines are wrong than right (text that
/// differs on most lines is no near miss), or when the pairing shows no reason.
pub(crate) fn refused(
    file: &FileLines<'_>,
    needle: &Needle<'_>,
    readings: &[Reading],
    why: Option<Refusal>,
) -> Option<NearMiss> {
    let mut seen = Vec::new();
    let explained = readings
        .iter()
        .filter(|r| {
            let new = !seen.contains(&r.region);
            seen.push(r.region);
            new
        })
        .take(MAX_READINGS)
        .filter_map(|r| {
            explain(
                file,
                needle,
                r.region,
                &r.equal,
                why.clone().unwrap_or(Refusal::TooManyMistakes),
            )
        });
    // Fewest lines that differ, then fewest mistakes, then the stricter kinds (typo, extra line,
    // missing line, as the search ranks them).
    let mut near = explained.min_by_key(|n| {
        let (typos, extras, missing, differs) = n.mistakes();
        let loosest = if missing > 0 { 2 } else { u8::from(extras > 0) };
        (differs, typos + extras + missing, loosest)
    })?;
    if let Some(Refusal::Rival { lines }) = why {
        if lines.0 <= near.lines.1 && near.lines.0 <= lines.1 {
            // Not another region: the same lines, paired another way.
            near.refused = Refusal::Repetitive;
        }
    }
    let weight_of = |line: usize| needle.nb.binary_search(&(line - 1)).map_or(0, |j| needle.weight[j]);
    let equal: Vec<usize> = near
        .rows
        .iter()
        .filter_map(|r| match *r {
            NearRow::Equal { needle_line, .. } => Some(weight_of(needle_line)),
            _ => None,
        })
        .collect();
    let (equal_lines, equal_chars) = (equal.len(), equal.iter().sum::<usize>());
    let (typos, extras, missing, differs) = near.mistakes();
    if typos + extras + differs > equal_lines || missing > equal_lines {
        return None;
    }
    if why.is_none() && differs == 0 && typos <= 1 && extras <= 1 && missing <= 1 {
        let needle_chars: usize = needle.weight.iter().sum();
        near.refused = if equal_lines >= MISREMEMBERED_MIN_EQUAL_LINES
            && equal_chars >= MISREMEMBERED_MIN_ANCHOR_CHARS
            && 2 * equal_chars > needle_chars
        {
            // Anchored: refused because the extra line is one the file has nearby (the search's
            // `extra_line_nearby`), or for a reason the pairing does not show.
            Refusal::ExtraLineNearby {
                line: extra_line_elsewhere(file, needle, &near)?,
            }
        } else {
            Refusal::WeakAnchor {
                equal_lines,
                equal_chars,
                needle_chars,
            }
        };
    }
    Some(near)
}

/// The one-based first and last file lines of `reading` as a near miss pairs them (its region's,
/// when there is no mistake to name).
pub(crate) fn lines_of(file: &FileLines<'_>, needle: &Needle<'_>, reading: &Reading) -> (usize, usize) {
    let positions = file.non_blank();
    explain(file, needle, reading.region, &reading.equal, Refusal::Repetitive).map_or(
        (
            positions[reading.region.0] as usize + 1,
            positions[reading.region.1] as usize + 1,
        ),
        |n| n.lines,
    )
}

/// The one-based file line nearest to a near miss's region, outside it, that holds its extra line.
fn extra_line_elsewhere(file: &FileLines<'_>, needle: &Needle<'_>, near: &NearMiss) -> Option<usize> {
    let needle_line = near.rows.iter().find_map(|r| match *r {
        NearRow::Extra { needle_line, .. } => Some(needle_line),
        _ => None,
    })?;
    let j = needle.nb.binary_search(&(needle_line - 1)).ok()?;
    let (first, last) = near.lines;
    file.with_collapsed(needle.keys[j])
        .map(|l| l + 1)
        .filter(|&l| l < first || l > last)
        .min_by_key(|&l| if l < first { first - l } else { l - last })
}

/// The near miss for the region whose first and last non-blank positions are `region`, with the
/// search's equal pairs `(needle position, file position)` in order (used when the pairing would
/// cost too much). `None` when the pairing shows no mistake to name.
pub(crate) fn explain(
    file: &FileLines<'_>,
    needle: &Needle<'_>,
    region: (usize, usize),
    equal_pairs: &[(usize, usize)],
    refused: Refusal,
) -> Option<NearMiss> {
    let positions = file.non_blank();
    if positions.is_empty() {
        return None;
    }
    let lo = region.0.saturating_sub(REACH);
    let hi = (region.1 + REACH).min(positions.len() - 1);
    let file_keys: Vec<String> = (lo..=hi).map(|q| file.collapsed(positions[q] as usize)).collect();
    let n = needle.keys.len();
    let anchors = if n * file_keys.len() <= MAX_CELLS {
        heaviest_common(needle.keys, needle.weight, &file_keys, lo)
    } else {
        equal_pairs.to_vec()
    };
    let (&(j_first, q_first), &(j_last, q_last)) = (anchors.first()?, anchors.last()?);
    let mut rows = Rows {
        file,
        needle,
        file_keys: &file_keys,
        lo,
        rows: Vec::new(),
    };
    rows.leading(0..j_first, lo..q_first);
    for (k, &(j, q)) in anchors.iter().enumerate() {
        if k > 0 {
            let (pj, pq) = anchors[k - 1];
            rows.between(pj + 1..j, pq + 1..q);
        }
        rows.rows.push(NearRow::Equal {
            needle_line: needle.nb[j] + 1,
            line: positions[q] as usize + 1,
        });
    }
    rows.trailing(j_last + 1..n, q_last + 1..hi + 1);
    let rows = rows.rows;
    if rows.iter().all(|r| matches!(r, NearRow::Equal { .. })) {
        return None;
    }
    let paired = rows.iter().filter_map(|r| match *r {
        NearRow::Equal { line, .. }
        | NearRow::Typo { line, .. }
        | NearRow::Differs { line, .. }
        | NearRow::Missing { line, .. } => Some(line),
        NearRow::Extra { .. } => None,
    });
    let first = paired.clone().min()?;
    let last = paired.max()?;
    Some(NearMiss {
        lines: (first, last),
        rows,
        refused,
    })
}

impl NearMiss {
    /// How many rows of each kind of mistake: mistyped words, extra lines, missing lines, lines
    /// that differ otherwise.
    pub fn mistakes(&self) -> (usize, usize, usize, usize) {
        let count = |f: fn(&NearRow) -> bool| self.rows.iter().filter(|r| f(r)).count();
        (
            count(|r| matches!(r, NearRow::Typo { .. })),
            count(|r| matches!(r, NearRow::Extra { .. })),
            count(|r| matches!(r, NearRow::Missing { .. })),
            count(|r| matches!(r, NearRow::Differs { .. })),
        )
    }
}

/// The pairs `(needle position, file position)` of equal lines that hold the most characters, in
/// order; file positions start at `lo`. Of equally heavy pairings, the one with the most pairs on
/// the file line right after the previous pair's (a `}` closing a block pairs with the one next to
/// the lines it closes, not with another a line away, which would leave a file line out between).
fn heaviest_common(keys: &[&str], weight: &[usize], file_keys: &[String], lo: usize) -> Vec<(usize, usize)> {
    let (n, m) = (keys.len(), file_keys.len());
    // Characters weigh more than any count of adjacent pairs.
    let unit = (n as u64 + 1).next_power_of_two();
    // best[(j, k, after)]: the most lines j.. and k.. can gain, `after` a pair on file line k - 1.
    let at = |j: usize, k: usize, after: bool| (j * (m + 1) + k) * 2 + usize::from(after);
    let mut best = vec![0u64; (n + 1) * (m + 1) * 2];
    let gain = |j: usize, after: bool| weight[j] as u64 * unit + u64::from(after);
    for j in (0..n).rev() {
        for k in (0..m).rev() {
            for after in [false, true] {
                let mut v = best[at(j + 1, k, after)].max(best[at(j, k + 1, false)]);
                if keys[j] == file_keys[k] {
                    v = v.max(gain(j, after) + best[at(j + 1, k + 1, true)]);
                }
                best[at(j, k, after)] = v;
            }
        }
    }
    let mut out = Vec::new();
    let (mut j, mut k, mut after) = (0, 0, false);
    while j < n && k < m {
        let here = best[at(j, k, after)];
        if keys[j] == file_keys[k] && here == gain(j, after) + best[at(j + 1, k + 1, true)] {
            out.push((j, lo + k));
            (j, k, after) = (j + 1, k + 1, true);
        } else if here == best[at(j, k + 1, false)] {
            (k, after) = (k + 1, false);
        } else {
            j += 1;
        }
    }
    out
}

/// The rows being built.
struct Rows<'r, 'f> {
    file: &'r FileLines<'f>,
    needle: &'r Needle<'r>,
    file_keys: &'r [String],
    lo: usize,
    rows: Vec<NearRow>,
}

impl Rows<'_, '_> {
    fn file_key(&self, q: usize) -> &str {
        &self.file_keys[q - self.lo]
    }

    fn typo(&self, j: usize, q: usize) -> Option<(String, String)> {
        typo(self.needle.keys[j], self.file_key(q))
    }

    fn line(&self, q: usize) -> usize {
        self.file.non_blank()[q] as usize
    }

    fn needle_line(&self, j: usize) -> usize {
        self.needle.nb[j] + 1
    }

    fn extra(&mut self, j: usize) {
        let text = self.needle.lines[self.needle.nb[j]].shown().to_string();
        self.rows.push(NearRow::Extra {
            needle_line: self.needle_line(j),
            text,
        });
    }

    fn pair(&mut self, j: usize, q: usize) {
        let (needle_line, line) = (self.needle_line(j), self.line(q) + 1);
        self.rows.push(match self.typo(j, q) {
            Some((wrote, file)) => NearRow::Typo {
                needle_line,
                line,
                wrote,
                file,
            },
            None => NearRow::Differs {
                needle_line,
                line,
                needle: self.needle.lines[self.needle.nb[j]].shown().to_string(),
                file: self.file.shown(self.line(q)),
            },
        });
    }

    /// Needle lines before the first equal one: paired backwards with the file lines before it while
    /// they are mistyped versions of them; the rest are lines the file lacks there.
    fn leading(&mut self, js: Range<usize>, qs: Range<usize>) {
        let paired = js
            .clone()
            .rev()
            .zip(qs.clone().rev())
            .take_while(|&(j, q)| self.typo(j, q).is_some())
            .count();
        let split = js.end - paired;
        for j in js.start..split {
            self.extra(j);
        }
        for (j, q) in (split..js.end).zip(qs.end - paired..qs.end) {
            self.pair(j, q);
        }
    }

    /// Needle lines after the last equal one: paired forwards with the file lines after it while
    /// they are mistyped versions of them; the rest are lines the file lacks there.
    fn trailing(&mut self, js: Range<usize>, qs: Range<usize>) {
        let paired = js
            .clone()
            .zip(qs.clone())
            .take_while(|&(j, q)| self.typo(j, q).is_some())
            .count();
        for (j, q) in js.clone().zip(qs).take(paired) {
            self.pair(j, q);
        }
        for j in js.start + paired..js.end {
            self.extra(j);
        }
    }

    /// Needle lines and file lines between two equal pairs: mistyped versions paired first (in
    /// order), then what is left between them paired one to one (lines that differ), the surplus
    /// being extra needle lines or missing file lines.
    fn between(&mut self, js: Range<usize>, qs: Range<usize>) {
        let mut typos = Vec::new();
        if js.len() * qs.len() <= MAX_TYPO_TRIES {
            let mut from = qs.start;
            for j in js.clone() {
                if let Some(q) = (from..qs.end).find(|&q| self.typo(j, q).is_some()) {
                    typos.push((j, q));
                    from = q + 1;
                }
            }
        }
        let (mut j0, mut q0) = (js.start, qs.start);
        for (j, q) in typos.into_iter().chain([(js.end, qs.end)]) {
            let common = (j - j0).min(q - q0);
            for t in 0..common {
                self.pair(j0 + t, q0 + t);
            }
            for jj in j0 + common..j {
                self.extra(jj);
            }
            // Left out between the needle lines around this stretch (an equal or mistyped one).
            let between = (self.needle_line(j0 - 1), self.needle_line(j));
            for qq in q0 + common..q {
                let line = self.line(qq);
                self.rows.push(NearRow::Missing {
                    line: line + 1,
                    text: self.file.shown(line),
                    between,
                });
            }
            if j < js.end {
                self.pair(j, q);
            }
            (j0, q0) = (j + 1, q + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{apply, Edit, EditError, Options};

    const FILE: &str = "def load(path):\n    with open(path) as handle:\n        rows = handle.readlines()\n    \
                        cleaned = [r.strip() for r in rows]\n    return cleaned\n\n\ndef save(path, rows):\n    \
                        with open(path, \"w\") as handle:\n        handle.write(\"\\n\".join(rows))\n";

    fn near(text: &str, old: &str) -> Option<NearMiss> {
        match apply(text.as_bytes(), &[Edit::new(old, "x")], &Options::new()) {
            Err(EditError::NotFound { near_miss, .. }) => near_miss.map(|n| *n),
            other => panic!("{other:?}"),
        }
    }

    fn mistakes(n: &NearMiss) -> Vec<&NearRow> {
        n.rows.iter().filter(|r| !matches!(r, NearRow::Equal { .. })).collect()
    }

    #[test]
    fn two_typos_are_paired_with_their_words() {
        let old = "    with open(path) as handel:\n        rows = handle.readlinez()\n    cleaned = [r.strip() for r in rows]\n    return cleaned";
        let n = near(FILE, old).expect("a near miss");
        assert_eq!(n.refused, Refusal::TooManyMistakes);
        assert_eq!(n.lines, (2, 5));
        assert_eq!(n.mistakes(), (2, 0, 0, 0));
        assert_eq!(
            mistakes(&n),
            [
                &NearRow::Typo {
                    needle_line: 1,
                    line: 2,
                    wrote: "handel".into(),
                    file: "handle".into()
                },
                &NearRow::Typo {
                    needle_line: 2,
                    line: 3,
                    wrote: "readlinez".into(),
                    file: "readlines".into()
                },
            ]
        );
        assert!(n.rows.contains(&NearRow::Equal {
            needle_line: 4,
            line: 5
        }));
    }

    #[test]
    fn extra_and_missing_lines_are_placed_between_their_neighbours() {
        let old = "def load(path):\n    with open(path) as handle:\n        # read\n        # every row\n        rows = handle.readlines()\n    cleaned = [r.strip() for r in rows]";
        let n = near(FILE, old).expect("a near miss");
        assert_eq!(n.refused, Refusal::TooManyMistakes);
        assert_eq!(
            mistakes(&n),
            [
                &NearRow::Extra {
                    needle_line: 3,
                    text: "# read".into()
                },
                &NearRow::Extra {
                    needle_line: 4,
                    text: "# every row".into()
                },
            ]
        );
        assert_eq!(n.lines, (1, 4));

        // Blank lines in the needle keep their numbers; two file lines left out, after a typo.
        let old = "def load(path):\n\n    with open(path) as handel:\n    return cleaned";
        let n = near(FILE, old).expect("a near miss");
        assert_eq!(n.mistakes(), (1, 0, 2, 0));
        assert!(
            n.rows.contains(&NearRow::Missing {
                line: 4,
                text: "cleaned = [r.strip() for r in rows]".into(),
                between: (3, 4)
            }),
            "{:?}",
            n.rows
        );
    }

    #[test]
    fn a_weak_anchor_is_counted() {
        let text = "fn a() {\n    x = compute(items);\n    y = 1;\n}\n";
        let n = near(text, "fn a() {\n    x = compute(itemz);\n}").expect("a near miss");
        assert_eq!(n.mistakes(), (1, 0, 1, 0));
        let Refusal::WeakAnchor {
            equal_lines,
            equal_chars,
            needle_chars,
        } = n.refused
        else {
            panic!("{:?}", n.refused)
        };
        assert_eq!(equal_lines, 2);
        assert!(equal_chars < crate::MISREMEMBERED_MIN_ANCHOR_CHARS && equal_chars < needle_chars);
    }

    #[test]
    fn a_rival_region_is_named_by_its_equal_lines() {
        let (text, old) = crate::find::misremembered::tests::near_duplicate_functions();
        let n = near(&text, old).expect("a near miss");
        assert_eq!(n.refused, Refusal::Rival { lines: (11, 16) });
        assert_eq!(n.lines, (2, 7));
        assert_eq!(n.mistakes(), (1, 0, 0, 0));
    }

    #[test]
    fn an_extra_line_the_file_has_nearby_is_named() {
        let text = "fn a() {\n    lock(state);\n    counter = counter + 1;\n    unlock(state);\n}\n\
                    fn b() {\n    lock(state);\n    total = total + 2;\n    unlock(state);\n}\n";
        let old = "fn a() {\n    lock(state);\n    lock(state);\n    counter = counter + 1;\n    unlock(state);";
        let n = near(text, old).expect("a near miss");
        assert_eq!(n.refused, Refusal::ExtraLineNearby { line: 7 });
        assert_eq!(n.lines, (1, 4));
        assert_eq!(
            mistakes(&n),
            [&NearRow::Extra {
                needle_line: 3,
                text: "lock(state);".into()
            }]
        );
    }

    #[test]
    fn text_unlike_the_region_is_no_near_miss() {
        let old = "    with open(path) as handle:\n        lines = handle.read()\n    stripped = [x.strip() for x in lines]\n    return stripped";
        assert_eq!(near(FILE, old), None);
        // Nor is a needle the tiers never search (one line).
        assert_eq!(near(FILE, "    with open(path) as handel:"), None);
    }

    #[test]
    fn a_closing_line_pairs_next_to_the_lines_it_closes() {
        let file: Vec<String> = ["}", "}", "/// doc", "pub struct A {", "}", "}"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let weight = |keys: &[&str]| keys.iter().map(|k| k.len()).collect::<Vec<_>>();
        // Leading: the second `}`, right before the doc line.
        let keys = ["}", "/// doc", "/// doc", "pub struct A {"];
        assert_eq!(
            heaviest_common(&keys, &weight(&keys), &file, 0),
            [(0, 1), (1, 2), (3, 3)]
        );
        // Trailing: the first `}`, right after the struct line.
        let keys = ["pub struct A {", "}"];
        assert_eq!(heaviest_common(&keys, &weight(&keys), &file, 0), [(0, 3), (1, 4)]);
    }

    #[test]
    fn the_heaviest_common_lines_win() {
        // `}` twice could pair with either closing line; the long line decides.
        let keys = ["}", "let total = compute(items);", "}"];
        let weight: Vec<usize> = keys.iter().map(|k| k.len()).collect();
        let file: Vec<String> = ["}", "x", "let total = compute(items);", "}"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(heaviest_common(&keys, &weight, &file, 10), [(0, 10), (1, 12), (2, 13)]);
    }
}
