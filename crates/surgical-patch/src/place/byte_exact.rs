//! The byte-exact pass of [`super::place`] (unified diffs, and hunks whose lines carry CRs), as
//! `git apply` places hunks: each hunk's old lines, each with `\n`, found at a line start, after the
//! previous hunk, exactly once (or once on its line-number hint).
//!
//! Finding them costs one pass over the text for all hunks (issue 30): every line of the text whose
//! length is that of some old line of some hunk is hashed and looked up among those lines, and each
//! such line's places are kept (up to [`MAX_PLACES`]) and counted. A hunk is then looked for only at
//! the places of its *rarest* line (the old line the text holds least often), moved back by that
//! line's offset in the hunk, and each candidate compared whole. Only when even its rarest line is
//! on more than [`MAX_PLACES`] lines (a hunk of `}` and blank lines) is a hunk searched with a
//! substring finder from the previous hunk on. The places found are exactly those a comparison at
//! every line start finds (checked by property against that scan).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use surgical_core::lines::LineIndex;
use surgical_core::Tier;

use super::{How, Placed};
use crate::Hunk;

/// The places kept per distinct old line; a line found more often is too common to look from.
const MAX_PLACES: usize = 64;

/// [`super::place`]'s byte-exact pass; `None` when some hunk is not found exactly once (or adds
/// only).
pub(super) fn place_bytes(text: &[u8], hunks: &[Hunk]) -> Option<Vec<Placed>> {
    let mut olds = Vec::with_capacity(hunks.len());
    for hunk in hunks {
        let (old, new) = (hunk.old_lines(), hunk.new_lines());
        // Lines only added, or a hunk that changes nothing (refused, with its reason, as usual). Same
        // lines with a `\ No newline at end of file` marker may change the final line break: placed.
        if old.is_empty() || (old == new && hunk.final_newline.is_none()) {
            return None;
        }
        olds.push(old);
    }
    let places = LinePlaces::of(text, olds.iter().flatten().map(|l| l.as_bytes()));
    let mut index: Option<LineIndex> = None;
    let mut from = 0;
    let mut placed = Vec::with_capacity(hunks.len());
    for (k, (hunk, old)) in hunks.iter().zip(&olds).enumerate() {
        let mut needle = Vec::new();
        for l in old {
            needle.extend_from_slice(l.as_bytes());
            needle.push(b'\n');
        }
        let mut found = places.starts(text, old, &needle, from, false);
        let mut open_end = false;
        if found.is_empty() && !text.ends_with(b"\n") {
            // The old lines end the file, which has no final line break.
            needle.pop();
            found = places.starts(text, old, &needle, from, true);
            open_end = true;
        }
        let at = match found.as_slice() {
            [one] => *one,
            [] => return None,
            many => {
                let hint = hunk.hint.filter(|&h| h > 0)?;
                let index = index.get_or_insert_with(|| LineIndex::new(text));
                *many.iter().find(|&&at| index.line_of(at) + 1 == hint)?
            }
        };
        let new = hunk.new_lines();
        let final_break = hunk.final_newline.unwrap_or(!open_end);
        let ends_file = at + needle.len() == text.len();
        let mut bytes = Vec::new();
        for l in &new {
            bytes.extend_from_slice(l.as_bytes());
            bytes.push(b'\n');
        }
        if !new.is_empty() && ends_file && !final_break {
            bytes.pop();
        }
        from = at + needle.len();
        placed.push(Placed {
            index: k,
            span: at..at + needle.len(),
            bytes,
            strategy: Tier::Exact,
            differences: Vec::new(),
            fuzz: 0,
            dropped: (0, 0),
            how: How::Unique,
            unnumbered: false,
        });
    }
    Some(placed)
}

/// Where the text holds each of a set of lines (between `\n`s: a CR is part of a line here, as
/// for `git apply`), from one pass over it.
struct LinePlaces<'l> {
    /// Each distinct line: its id.
    ids: HashMap<&'l [u8], usize, BuildHasherDefault<LineHasher>>,
    /// Per id: how many lines of the text are this line, and the starts of the first
    /// [`MAX_PLACES`] of them, ascending.
    found: Vec<(usize, Vec<usize>)>,
}

impl<'l> LinePlaces<'l> {
    fn of(text: &[u8], lines: impl Iterator<Item = &'l [u8]>) -> LinePlaces<'l> {
        let mut ids: HashMap<&'l [u8], usize, BuildHasherDefault<LineHasher>> = HashMap::default();
        // Lengths the lines have: most text lines are skipped on their length alone.
        let mut lengths = vec![false; 1];
        for line in lines {
            let next = ids.len();
            ids.entry(line).or_insert(next);
            if line.len() >= lengths.len() {
                lengths.resize(line.len() + 1, false);
            }
            lengths[line.len()] = true;
        }
        let mut found = vec![(0, Vec::new()); ids.len()];
        let mut start = 0;
        let mut note = |start: usize, end: usize| {
            if lengths.get(end - start) == Some(&true) {
                if let Some(&id) = ids.get(&text[start..end]) {
                    let (count, places) = &mut found[id];
                    *count += 1;
                    if places.len() < MAX_PLACES {
                        places.push(start);
                    }
                }
            }
        };
        for end in memchr::memchr_iter(b'\n', text) {
            note(start, end);
            start = end + 1;
        }
        if start < text.len() {
            note(start, text.len());
        }
        LinePlaces { ids, found }
    }

    /// Every line start from `from` on where `text` continues with `needle` (the lines `old`, each
    /// followed by `\n`), ascending; with `at_end`, `needle` is those lines without the last line
    /// break, looked for only where it ends the text.
    fn starts(&self, text: &[u8], old: &[&str], needle: &[u8], from: usize, at_end: bool) -> Vec<usize> {
        let matches_at = |at: usize| (at == 0 || text[at - 1] == b'\n') && text[at..].starts_with(needle);
        if at_end {
            let at = text.len().checked_sub(needle.len());
            return at.filter(|&at| at >= from && matches_at(at)).into_iter().collect();
        }
        // The rarest line of the hunk, and where it starts in the needle.
        let mut offset = 0;
        let mut rarest: Option<(usize, usize)> = None;
        for line in old {
            let count = self.ids.get(line.as_bytes()).map_or(0, |&id| self.found[id].0);
            if rarest.is_none_or(|(c, _)| count < c) {
                rarest = Some((count, offset));
            }
            offset += line.len() + 1;
        }
        let Some((count, offset)) = rarest else {
            return Vec::new();
        };
        if count > MAX_PLACES {
            // Every line of the hunk is common: look for the whole of it.
            // Overlapping occurrences count too (`}` twice is in `}` three times, twice).
            let finder = memchr::memmem::Finder::new(needle);
            let mut found = Vec::new();
            let mut at = from;
            while let Some(i) = text.get(at..).and_then(|rest| finder.find(rest)) {
                if matches_at(at + i) {
                    found.push(at + i);
                }
                at += i + 1;
            }
            return found;
        }
        let line = old
            .iter()
            .scan(0, |o, l| {
                let here = *o;
                *o += l.len() + 1;
                Some((here, l))
            })
            .find(|(o, _)| *o == offset)
            .map(|(_, l)| l.as_bytes())
            .expect("the rarest line is one of them");
        let Some(&id) = self.ids.get(line) else {
            return Vec::new();
        };
        self.found[id]
            .1
            .iter()
            .filter_map(|&p| p.checked_sub(offset))
            .filter(|&at| at >= from && matches_at(at))
            .collect()
    }
}

/// FxHash-style hashing of a line's bytes, eight at a time: the lines hashed are short and many
/// (every text line of a length some old line has), and none of them is an adversary's choice of
/// hash-table key that could degrade more than this call.
#[derive(Default)]
struct LineHasher(u64);

impl Hasher for LineHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let word = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain way (the pass this replaced): every line start from `from` on, compared whole;
    /// with `at_end`, only where the needle ends the text.
    fn scan(text: &[u8], needle: &[u8], from: usize, at_end: bool) -> Vec<usize> {
        (from..text.len().saturating_sub(needle.len()) + 1)
            .filter(|&at| (at == 0 || text[at - 1] == b'\n') && text[at..].starts_with(needle))
            .filter(|&at| !at_end || at + needle.len() == text.len())
            .collect()
    }

    fn needle_of(old: &[&str]) -> Vec<u8> {
        old.iter().flat_map(|l| l.bytes().chain([b'\n'])).collect()
    }

    #[test]
    fn a_hunk_is_found_from_its_rarest_line() {
        let text = b"}\n}\nfn a() {\n}\n}\nfn b() {\n}\n".repeat(3);
        let old = ["}", "fn b() {", "}"];
        let needle = needle_of(&old);
        let places = LinePlaces::of(&text, old.iter().map(|l| l.as_bytes()));
        for from in [0, 1, 20, 40] {
            assert_eq!(
                places.starts(&text, &old, &needle, from, false),
                scan(&text, &needle, from, false),
                "{from}"
            );
        }
    }

    #[test]
    fn a_hunk_of_common_lines_only_is_searched_whole() {
        let mut text = "}\n".repeat(3 * MAX_PLACES);
        text.push_str("x\n}\n");
        let text = text.into_bytes();
        for old in [vec!["}", "}"], vec!["}", "x", "}"], vec!["x"]] {
            let needle = needle_of(&old);
            let places = LinePlaces::of(&text, old.iter().map(|l| l.as_bytes()));
            assert_eq!(
                places.starts(&text, &old, &needle, 3, false),
                scan(&text, &needle, 3, false),
                "{old:?}"
            );
        }
    }

    #[test]
    fn lines_with_crs_and_an_open_end_are_lines_too() {
        let text = b"a\r\nb\na\r\nb";
        let old = ["a\r", "b"];
        let mut needle = needle_of(&old);
        let places = LinePlaces::of(text, old.iter().map(|l| l.as_bytes()));
        assert_eq!(places.starts(text, &old, &needle, 0, false), vec![0]);
        assert_eq!(places.starts(text, &old, &needle, 1, false), Vec::<usize>::new());
        needle.pop();
        assert_eq!(places.starts(text, &old, &needle, 0, true), vec![5]);
        assert_eq!(scan(text, &needle, 0, true), vec![5]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// Over texts of few distinct lines (so that lines repeat, past the kept places too), the
        /// places found from the rarest line are the places a scan of every line start finds, for
        /// hunks made of lines of the text or not, with or without their last line break.
        #[test]
        fn the_places_are_those_of_a_scan(
            lines in proptest::collection::vec(prop_oneof![
                Just(""), Just("}"), Just("a"), Just("a\r"), Just("b c"), Just("x"),
            ], 0..300),
            open in any::<bool>(),
            hunk in proptest::collection::vec(prop_oneof![
                Just(""), Just("}"), Just("a"), Just("a\r"), Just("b c"), Just("y"),
            ], 1..4),
            from_frac in 0.0f64..1.0,
        ) {
            let mut text = lines.join("\n");
            if !open && !lines.is_empty() {
                text.push('\n');
            }
            let text = text.into_bytes();
            let mut needle = needle_of(&hunk);
            let places = LinePlaces::of(&text, hunk.iter().map(|l| l.as_bytes()));
            let from = (from_frac * text.len() as f64) as usize;
            prop_assert_eq!(places.starts(&text, &hunk, &needle, from, false), scan(&text, &needle, from, false));
            needle.pop();
            prop_assert_eq!(places.starts(&text, &hunk, &needle, from, true), scan(&text, &needle, from, true));
        }
    }
}
