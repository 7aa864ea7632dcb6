//! A needle's *anchor* — a part of it that every occurrence holds verbatim, chosen rarest in the
//! text — and the search for the places of many anchors at once (issue 30).
//!
//! The invisible-difference count, the exact tier and the `unicode` tier's windows look for each
//! needle's anchor first and look closer only around its places, so they cost what those places
//! cost. Which part of a needle is its anchor decides that cost and nothing else: every occurrence
//! holds any part of the needle that its fold leaves alone, so the places found are the same
//! whatever part is chosen (the property tests of `search` force every choice). Before, the anchor
//! was the needle's longest run without blanks, which in code is often on every line
//! (`println!("{}`, `map.insert("`) while the needle's rare part (its number, its name) was shorter.
//!
//! The search does not leave the choice of what to look for first to Aho–Corasick's prefilter,
//! which keys on bytes that are rare in typical text (a quote, a digit) and so stops on every line
//! of code: one anchor is looked for with `memchr`'s substring finder ranking bytes by this text's
//! own counts, up to [`PACKED_MAX`] at once with a packed (Teddy) searcher, whose fingerprints are
//! the anchors' first bytes (chosen rare), and more with the automaton without its prefilter.

use std::cmp::Reverse;
use std::ops::Range;

use aho_corasick::packed;
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind, Span};

use crate::text::rarity::Rarity;

/// The longest anchor taken: a window of a longer run, starting at its rarest 4 bytes.
const MAX_ANCHOR_BYTES: usize = 32;

/// The most anchors searched at once with the packed searcher (its own limit).
const PACKED_MAX: usize = 128;

/// How a window ranks as an anchor, lowest first: its count in the sample, then more 4-byte
/// strings the sample lacks, then more bytes.
type Rank = (u32, Reverse<usize>, Reverse<usize>);

/// The window of `needle` to look for first: inside a run of characters for which `inside` holds
/// (those the search's fold leaves alone), the one the text's sample has fewest of
/// ([`Rarity::sample_count`]); among equally rare ones, the one with more 4-byte strings the sample
/// lacks, then the longer, then the first. A run longer than [`MAX_ANCHOR_BYTES`] gives its window
/// of that length (on character boundaries) starting at its rarest 4 bytes, so that a searcher
/// keying on an anchor's first bytes keys on rare ones. Also returns how many line breaks come
/// before the window. `None` when no character of `needle` is `inside`.
pub(crate) fn rarest_window<'n>(
    needle: &'n str,
    inside: impl Fn(char) -> bool,
    rarity: &Rarity,
) -> Option<(&'n str, usize)> {
    #[cfg(test)]
    if let Some(forced) = forced::window(needle, &inside) {
        return Some((&needle[forced.clone()], needle[..forced.start].matches('\n').count()));
    }
    let bytes = needle.as_bytes();
    let mut best: Option<(Rank, Range<usize>)> = None;
    let mut consider = |run: Range<usize>| {
        let mut window = run.clone();
        let mut absent = 0;
        if run.len() >= 4 {
            let mut rarest = (u16::MAX, run.start);
            for p in run.start..=run.end - 4 {
                let count = rarity.gram_count(&bytes[p..p + 4]);
                absent += usize::from(count == 0);
                if count < rarest.0 {
                    rarest = (count, p);
                }
            }
            let mut start = keyed_start(bytes, run.clone(), rarest.1, rarity);
            while !needle.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + MAX_ANCHOR_BYTES).min(run.end);
            while !needle.is_char_boundary(end) {
                end -= 1;
            }
            window = start..end;
        }
        let key = (
            rarity.sample_count(&bytes[window.clone()]),
            Reverse(absent),
            Reverse(window.len()),
        );
        if best.as_ref().is_none_or(|(b, _)| key < *b) {
            best = Some((key, window));
        }
    };
    let mut start: Option<usize> = None;
    for (i, c) in needle.char_indices() {
        match (inside(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                consider(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        consider(s..needle.len());
    }
    let (_, window) = best?;
    Some((&needle[window.clone()], needle[..window.start].matches('\n').count()))
}

/// Where a window holding the rarest 4 bytes of a run (at `rarest`) starts: at them, or up to
/// [`MAX_ANCHOR_BYTES`] before them in the run, wherever the window's first bytes are rarer by
/// [`start_cost`]. A packed (Teddy) searcher stops wherever a window's first bytes (its
/// fingerprint, shared with the other windows of its bucket) are: the rarest 4 bytes of a line of
/// data are often the digits of its number (`"item-5714"`), which, mixed with the other anchors'
/// digits, stop it at every number of the file, while the window from the byte before them
/// (`m-5714"…`) holds the same rare bytes and stops it only where that byte is (100 needles of
/// 64 MB of code: issue 30). Every window holding the rarest 4 bytes is as rare by the sample, so
/// nothing else about the choice changes; a start past `rarest` would lose them.
fn keyed_start(bytes: &[u8], run: Range<usize>, rarest: usize, rarity: &Rarity) -> usize {
    let earliest = (rarest + 4).saturating_sub(MAX_ANCHOR_BYTES).max(run.start);
    let mut best = (start_cost(&bytes[rarest..run.end], rarity), rarest);
    for p in (earliest..rarest).rev() {
        let cost = start_cost(&bytes[p..run.end], rarity);
        if cost < best.0 {
            best = (cost, p);
        }
    }
    best.1
}

/// How often a searcher keying on the first bytes of `window` (at least 4) may stop in the text,
/// relatively: the sample's count of its first 4 bytes, weighed by the counts of its first two
/// bytes with the digits as one class ([`Rarity::class_count`]).
fn start_cost(window: &[u8], rarity: &Rarity) -> u128 {
    let class = |b: u8| u128::from(rarity.class_count(b)) + 1;
    (u128::from(rarity.gram_count(&window[..4])) + 1) * class(window[0]) * class(window[1])
}

/// Needles of this many bytes in all or more are searched with a contiguous NFA, built in time and
/// memory linear in them, rather than the crate's choice (a DFA for few patterns). Building a DFA
/// follows failure links for every state and byte class, so a periodic needle (`xxxx…`, a repeated
/// statement) costs the square of its length: 0.6 s for 8 KB, 2.5 s for 16 KB at the test profile's
/// opt-level, more in a debug build (issue 16); a table per state also cost 180 MB for a 300 KB
/// needle (issue 12). Under 1 KB the square stays under a million steps; above, the NFA searches
/// as linearly, a little slower per byte.
pub(crate) const DFA_MAX_PATTERN_BYTES: usize = 1024;

/// The automaton for patterns of `bytes` bytes in all: the crate's choice under
/// [`DFA_MAX_PATTERN_BYTES`], else a contiguous NFA.
pub(crate) fn kind_for_pattern_bytes(bytes: usize) -> Option<AhoCorasickKind> {
    (bytes >= DFA_MAX_PATTERN_BYTES).then_some(AhoCorasickKind::ContiguousNFA)
}

/// Visits every place of every pattern in `hay`, overlapping ones included: `visit(pattern, start)`
/// returns whether that pattern's places are still wanted. Each pattern's places come in ascending
/// order; a pattern no longer wanted is not reported again (the searcher is built again without
/// it), and once none is wanted the search ends. Empty patterns are never reported.
///
/// One pattern is looked for with `memchr`'s substring finder (its two rarest bytes first, ranked
/// by `rarity`); up to [`PACKED_MAX`], with one packed searcher, which reports the leftmost place of
/// any pattern, where every pattern is then checked, and resumes one byte after it; more, with an
/// Aho–Corasick automaton without its prefilter.
pub(crate) fn each_place(hay: &[u8], patterns: &[&[u8]], rarity: &Rarity, mut visit: impl FnMut(usize, usize) -> bool) {
    let mut wanted: Vec<bool> = patterns.iter().map(|p| !p.is_empty()).collect();
    let mut from = 0;
    'rebuilt: loop {
        let live: Vec<usize> = (0..patterns.len()).filter(|&i| wanted[i]).collect();
        match live.len() {
            0 => return,
            1 => {
                let id = live[0];
                let finder = memchr::memmem::FinderBuilder::new().build_forward_with_ranker(rarity, patterns[id]);
                let mut at = from;
                while let Some(off) = hay.get(at..).and_then(|rest| finder.find(rest)) {
                    if !visit(id, at + off) {
                        return;
                    }
                    at += off + 1;
                }
                return;
            }
            n if n <= PACKED_MAX => {
                let mut config = packed::Config::new();
                config
                    .match_kind(packed::MatchKind::LeftmostFirst)
                    .heuristic_pattern_limits(false);
                let Some(searcher) = config.builder().extend(bucketed(&live, patterns)).build() else {
                    break 'rebuilt;
                };
                let mut at = from;
                while at < hay.len() {
                    let Some(m) = searcher.find_in(hay, Span::from(at..hay.len())) else {
                        return;
                    };
                    let start = m.start();
                    let mut dropped = false;
                    for &id in &live {
                        if hay[start..].starts_with(patterns[id]) && !visit(id, start) {
                            wanted[id] = false;
                            dropped = true;
                        }
                    }
                    at = start + 1;
                    if dropped {
                        from = at;
                        continue 'rebuilt;
                    }
                }
                return;
            }
            _ => break 'rebuilt,
        }
    }
    // Many patterns (or no packed searcher on this machine): one automaton pass.
    let live: Vec<usize> = (0..patterns.len()).filter(|&i| wanted[i]).collect();
    let automaton = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .kind(kind_for_pattern_bytes(live.iter().map(|&i| patterns[i].len()).sum()))
        .prefilter(false)
        .build(live.iter().map(|&i| patterns[i]))
        .expect("patterns are small enough for an automaton");
    let mut left = live.len();
    for m in automaton.find_overlapping_iter(&hay[from.min(hay.len())..]) {
        let id = live[m.pattern().as_usize()];
        if wanted[id] && !visit(id, from + m.start()) {
            wanted[id] = false;
            left -= 1;
            if left == 0 {
                return;
            }
        }
    }
}

/// The patterns `live` in the order to give the packed searcher: lexicographic neighbours in one
/// bucket. Teddy puts each pattern in a bucket by its index, in turn (the last bucket first), and
/// stops wherever some bucket's fingerprint masks match, which are the union of its patterns'
/// first bytes, nybble by nybble: patterns that start alike make narrow masks, patterns that do
/// not (`m-57…` and `a.1…`) make masks that match strings neither starts with. So the sorted
/// patterns are cut into as many runs as there are buckets (8, or 16 past 32 patterns on AVX2),
/// and the `j`th run is dealt to the indexes `j`, `j + buckets`, … (the first runs one longer when
/// the count is not a multiple). Only the cost depends on this: every place the searcher reports
/// is checked against every live pattern.
fn bucketed<'p>(live: &[usize], patterns: &[&'p [u8]]) -> Vec<&'p [u8]> {
    let mut sorted: Vec<&[u8]> = live.iter().map(|&i| patterns[i]).collect();
    sorted.sort_unstable();
    let n = sorted.len();
    let buckets = if n > 32 { 16 } else { 8 };
    let (base, extra) = (n / buckets, n % buckets);
    let mut order: Vec<&[u8]> = vec![&[]; n];
    let mut next = sorted.into_iter();
    for j in 0..buckets {
        for m in 0..base + usize::from(j < extra) {
            order[m * buckets + j] = next.next().expect("as many places as patterns");
        }
    }
    order
}

/// The test hook that forces every choice of anchor (`search`'s property tests): with a seed set,
/// [`rarest_window`] takes a window of some run, chosen by the seed and the needle, instead of the
/// rarest.
#[cfg(test)]
pub(crate) mod forced {
    use std::cell::Cell;
    use std::ops::Range;

    thread_local! {
        static SEED: Cell<Option<u64>> = const { Cell::new(None) };
    }

    /// Forces the anchors chosen on this thread by `seed` while `f` runs.
    pub(crate) fn with_seed<T>(seed: u64, f: impl FnOnce() -> T) -> T {
        let before = SEED.with(|s| s.replace(Some(seed)));
        let out = f();
        SEED.with(|s| s.set(before));
        out
    }

    pub(super) fn window(needle: &str, inside: &dyn Fn(char) -> bool) -> Option<Range<usize>> {
        let seed = SEED.with(Cell::get)?;
        let mut runs: Vec<Range<usize>> = Vec::new();
        let mut start: Option<usize> = None;
        for (i, c) in needle.char_indices() {
            match (inside(c), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    runs.push(s..i);
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push(s..needle.len());
        }
        // The same needle gets the same window under one seed, whoever asks.
        let mut x = seed
            ^ needle.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        if runs.is_empty() {
            return None;
        }
        let run = runs[next(runs.len())].clone();
        let chars: Vec<usize> = needle[run.clone()].char_indices().map(|(i, _)| run.start + i).collect();
        let first = next(chars.len());
        let last = first + next(chars.len() - first);
        let end = chars.get(last + 1).copied().unwrap_or(run.end);
        Some(chars[first]..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_blank(c: char) -> bool {
        !matches!(c, ' ' | '\t' | '\n' | '\r')
    }

    #[test]
    fn the_anchor_is_the_rarest_window_not_the_longest_run() {
        // `println!("{}` is on every line; the number is once in the text.
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(&format!("    println!(\"{{}} => {{:?}}\", \"row {i}\", 'x');\n"));
        }
        let rarity = Rarity::of(text.as_bytes());
        let needle = "    println!(\"{} => {:?}\", \"row 1234\", 'x');";
        assert_eq!(rarest_window(needle, not_blank, &rarity), Some(("1234\",", 0)));
        // With nothing counted (an empty text), every window ties on its counts: the run with the
        // most 4-byte strings, the longest, wins.
        let empty = Rarity::of(b"");
        assert_eq!(rarest_window("  return x;\n}", not_blank, &empty), Some(("return", 0)));
        assert_eq!(rarest_window("a\nbb\nccc dd", not_blank, &empty), Some(("ccc", 2)));
        assert_eq!(rarest_window(" \n\t", not_blank, &empty), None);
    }

    #[test]
    fn a_long_run_gives_a_window_at_its_rarest_bytes_on_character_boundaries() {
        let text = "abcdefgh".repeat(100);
        let rarity = Rarity::of(text.as_bytes());
        let needle = format!("{}\u{e9}XYZW{}", "abcdefgh".repeat(3), "abcdefgh".repeat(6));
        let (window, before) = rarest_window(&needle, not_blank, &rarity).unwrap();
        assert_eq!(before, 0);
        assert!(window.len() <= MAX_ANCHOR_BYTES);
        assert!(window.contains("XYZW"), "{window}");
    }

    #[test]
    fn every_place_of_every_pattern_whatever_the_searcher() {
        let hay = b"aaaa abcabc xyz aaaa-abcab xyzxyz";
        let rarity = Rarity::of(hay);
        let naive = |patterns: &[&[u8]]| {
            let mut all: Vec<(usize, usize)> = Vec::new();
            for (id, p) in patterns.iter().enumerate() {
                for s in 0..hay.len() {
                    if !p.is_empty() && hay[s..].starts_with(p) {
                        all.push((id, s));
                    }
                }
            }
            all.sort_unstable();
            all
        };
        let found = |patterns: &[&[u8]]| {
            let mut all = Vec::new();
            each_place(hay, patterns, &rarity, |id, s| {
                all.push((id, s));
                true
            });
            all.sort_unstable();
            all
        };
        let one: &[&[u8]] = &[b"aa"];
        assert_eq!(found(one), naive(one));
        let few: &[&[u8]] = &[b"abc", b"abcab", b"bca", b"aa", b"", b"xyz", b"q"];
        assert_eq!(found(few), naive(few));
        // Past 32 patterns (16 buckets on AVX2), in an order the buckets change.
        let packed: Vec<Vec<u8>> = (0..100)
            .map(|i| format!("{}", (i * 37) % 101).into_bytes())
            .chain([b"abc".to_vec(), b"xyz".to_vec(), b"a".to_vec()])
            .collect();
        let packed: Vec<&[u8]> = packed.iter().map(Vec::as_slice).collect();
        assert_eq!(found(&packed), naive(&packed));
        let many: Vec<Vec<u8>> = (0..300)
            .map(|i| format!("{}", i % 7).into_bytes())
            .chain([b"xyz".to_vec()])
            .collect();
        let many: Vec<&[u8]> = many.iter().map(Vec::as_slice).collect();
        assert_eq!(found(&many), naive(&many));
    }

    #[test]
    fn the_packed_searcher_gets_every_pattern_once_sorted_runs_dealt_to_its_buckets() {
        for n in [1, 5, 8, 9, 32, 33, 100, 128] {
            let owned: Vec<Vec<u8>> = (0..n)
                .map(|i| format!("p{:03}", (i * 7919) % 1000).into_bytes())
                .collect();
            let patterns: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
            let live: Vec<usize> = (0..n).collect();
            let order = bucketed(&live, &patterns);
            let (mut got, mut want) = (order.clone(), patterns.clone());
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{n} patterns");
            // Index `i` is in bucket `i % buckets`; each bucket holds a run of the sorted patterns.
            let buckets = if n > 32 { 16 } else { 8 };
            for b in 0..buckets {
                let of_bucket: Vec<&[u8]> = order.iter().skip(b).step_by(buckets).copied().collect();
                let Some(first) = want.iter().position(|p| Some(p) == of_bucket.first()) else {
                    continue;
                };
                assert_eq!(
                    of_bucket,
                    want[first..first + of_bucket.len()],
                    "{n} patterns, bucket {b}"
                );
            }
        }
    }

    #[test]
    fn a_window_of_digits_starts_at_the_rarer_byte_before_them() {
        // Lines of data whose numbers are their rare part: the window starts before the digits
        // (`m-`, on one line in four), not at them (digits are on every line).
        let mut text = String::new();
        for i in 0..4000 {
            text.push_str(&format!("    map.insert(\"item-{i}\".to_string(), 'x');\n"));
            text.push_str(&format!("    let v{i} = lookup(\"key {i}\", {i});\n"));
            text.push_str(&format!("    // {i} of {}\n", 7 * i));
            text.push_str(&format!("    assert_eq!(v{i}, {});\n", i + 1));
        }
        let rarity = Rarity::of(text.as_bytes());
        let needle = "    map.insert(\"item-98765\".to_string(), 'x');";
        let (window, _) = rarest_window(needle, not_blank, &rarity).unwrap();
        assert!(window.contains("98765"), "{window}");
        assert!(!window.starts_with(|c: char| c.is_ascii_digit()), "{window}");
    }

    #[test]
    fn a_pattern_no_longer_wanted_is_not_reported_again() {
        let hay = b"ab ab ab cd cd cd";
        let rarity = Rarity::of(hay);
        for patterns in [
            &[&b"ab"[..], b"cd"][..],
            &[b"ab"],
            &(0..200).map(|_| &b"ab"[..]).collect::<Vec<_>>(),
        ] {
            let mut seen = vec![0; patterns.len()];
            each_place(hay, patterns, &rarity, |id, _| {
                seen[id] += 1;
                seen[id] < 2
            });
            assert!(seen.iter().all(|&n| n <= 2), "{seen:?}");
            if patterns.len() == 2 {
                assert_eq!(seen, [2, 2]);
            }
        }
    }
}
