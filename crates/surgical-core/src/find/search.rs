//! Finding needles in normalized text: every tier's search, and the invisible-difference count.

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use unicode_normalization::UnicodeNormalization;

use crate::find::anchors::{each_place, kind_for_pattern_bytes, rarest_window};
use crate::find::needle::MAX_LISTED;
use crate::find::scope::Scope;
use crate::text::fold::is_line_blank;
use crate::text::lines::{next_terminator, prev_terminator};
use crate::text::normalize::{normalize, normalize_into, Fold, Normalized};
use crate::text::rarity::Rarity;

/// A needle in one normalized space.
pub(crate) struct Pattern {
    pub text: String,
    /// Its last line lost trailing blanks to normalization, so a match must end at a line end.
    pub needs_line_end: bool,
    /// Its first line is empty once normalized by a fold that trims: under whole lines, a match may
    /// take a file line of blanks whole (see [`Scope::place`]).
    pub blank_first_line: bool,
    /// Only a match ending at the end of the text counts (a needle's last line break standing for the
    /// end of a text without one; see [`Scope::whole_lines`]).
    pub at_end_only: bool,
}

pub(crate) fn pattern(old: &str, fold: Fold) -> Pattern {
    let n = normalize(old.as_bytes(), fold);
    let needs_line_end = fold.trim_trailing && !n.text.ends_with('\n') && {
        let (_, tail) = old.rsplit_once('\n').unwrap_or(("", old));
        tail.ends_with(crate::text::fold::is_line_blank)
    };
    Pattern {
        blank_first_line: fold.trim_trailing && n.text.starts_with('\n'),
        text: n.text.into_owned(),
        needs_line_end,
        at_end_only: false,
    }
}

impl Pattern {
    /// Under whole lines, in a text whose last line has no terminator: the needle without its final
    /// line break, to be matched at the end of the text only. `None` when that does not apply.
    pub(crate) fn at_end_variant(&self, scope: &Scope, text: &[u8]) -> Option<Pattern> {
        let ends_open = crate::text::lines::ends_open(text);
        let stripped = self.text.strip_suffix('\n')?;
        (scope.whole_lines && ends_open && !stripped.is_empty()).then(|| Pattern {
            text: stripped.to_string(),
            needs_line_end: false,
            blank_first_line: self.blank_first_line && stripped.starts_with('\n'),
            at_end_only: true,
        })
    }
}

thread_local! {
    /// The size of the pieces a large text is normalized in for a search ([`find_all_in`]).
    static CHUNK: Cell<usize> = const { Cell::new(1 << 20) };
}

/// Sets the size in bytes of the pieces that a text tier normalizes a large text in for its search
/// (on this thread; 1 MiB unless set), and returns the previous size. A text longer than twice the
/// size whose normalized view would be a copy is searched piece by piece, so that no whole
/// normalized copy of it is ever in memory. For tests, which set a few bytes to make every text
/// large; the matches are the same whatever the size.
#[doc(hidden)]
pub fn set_search_chunk(bytes: usize) -> usize {
    CHUNK.with(|c| c.replace(bytes.max(1)))
}

/// Runs of needles (their anchors) and every place each occurs in a text, ascending, found by the
/// invisible-difference count: later tiers look them up rather than search the whole text again.
pub(crate) type KnownRuns = HashMap<String, Vec<usize>>;

fn known_places<'k>(known: &'k KnownRuns, run: &str) -> Option<&'k [usize]> {
    known.get(run).map(Vec::as_slice)
}

/// Every occurrence of each needle in `orig` normalized under `fold`, overlapping ones included, as
/// spans of `orig`: only those that map back exactly to the original and that `scope` accepts are
/// kept, at most `cap` spans per needle (`counts` counts them all). `view` builds the whole
/// normalized view. A large text whose view would be a copy (any
/// fold but the exact one, or a text with CRs) is normalized and searched in pieces
/// of whole lines instead ([`set_search_chunk`]): each piece is searched with enough of the text
/// before it for the longest needle and one line after it, and keeps the matches that end in it, so
/// every match is found once, in order.
pub(crate) fn find_all_in<'a>(
    orig: &'a [u8],
    fold: Fold,
    view: impl FnOnce() -> std::rc::Rc<Normalized<'a>>,
    needles: &[&Pattern],
    cap: &[usize],
    scope: &Scope,
    rarity: &Rarity,
) -> (Vec<Vec<Range<usize>>>, Vec<usize>) {
    let has_cr = || memchr::memchr(b'\r', orig).is_some();
    let (spans, counts, _) = find_all_probing(
        orig,
        fold,
        view,
        has_cr,
        needles,
        cap,
        scope,
        &[],
        &KnownRuns::new(),
        rarity,
    );
    (spans, counts)
}

/// [`find_all_in`], and in the same pass over the normalized text whether each of `probes` occurs
/// in it anywhere (scope aside): words that a later tier asks about, answered without normalizing
/// the text a second time (issue 12), in the order of the groups, flattened. The caller asks
/// whether any word of a group is missing: once one is, the group's others may be answered present
/// unsearched. The answers are `None` when the text was not searched (no needle to search for),
/// and for probes that are empty or longer than the longest needle. `has_cr` says whether `orig`
/// holds a CR (asked only under the exact fold; a haystack knows it from an earlier search).
/// `rarity` is the text's (see [`crate::find::anchors::rarest_window`]): the anchors of the
/// windowed searches are chosen with it, as the invisible count that found `known` chose them.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub(crate) fn find_all_probing<'a>(
    orig: &'a [u8],
    fold: Fold,
    view: impl FnOnce() -> std::rc::Rc<Normalized<'a>>,
    has_cr: impl FnOnce() -> bool,
    needles: &[&Pattern],
    cap: &[usize],
    scope: &Scope,
    groups: &[Vec<&str>],
    known: &KnownRuns,
    rarity: &Rarity,
) -> (Vec<Vec<Range<usize>>>, Vec<usize>, Option<Vec<bool>>) {
    let probes: Vec<&str> = groups.iter().flatten().copied().collect();
    let probes = probes.as_slice();
    let chunk = CHUNK.with(Cell::get);
    // The exact view of a text without CRs is the text itself (unless it holds invalid bytes: then
    // the view is a copy, which this does not validate the text again to avoid).
    let borrowed = fold == Fold::EXACT && !has_cr();
    let mut scan = Scan::new(needles, cap, scope, orig, fold.trim_trailing);
    let Some(ac) = &scan.automaton() else {
        let (spans, counts) = scan.finish();
        return (spans, counts, None);
    };
    let longest = needles.iter().map(|n| n.text.len()).max().unwrap_or(0);
    // Only probes that fit in the context each piece is searched with (see below) are answered.
    let probes_ok = !probes.is_empty() && probes.iter().all(|p| !p.is_empty() && p.len() <= longest);
    if fold == Fold::UNICODE {
        if let Some(plan) = Windows::plan(orig, needles, groups, known, rarity) {
            let mut buffer = String::new();
            for window in &plan.windows {
                let hay = normalize_into(&orig[window.clone()], fold, std::mem::take(&mut buffer));
                scan.scan(ac, &hay, window.start, None);
                if let std::borrow::Cow::Owned(text) = hay.text {
                    buffer = text;
                }
            }
            let (spans, counts) = scan.finish();
            return (spans, counts, (!probes.is_empty()).then_some(plan.seen));
        }
    }
    let mut probe = probes_ok.then(|| Probe::new(probes));
    // A text with CRs under the exact fold: the lines around the anchors' places, not a whole pass.
    if fold == Fold::EXACT && !borrowed && probe.is_none() {
        if let Some(windows) = exact_line_windows(orig, needles, known, rarity) {
            for w in windows {
                scan.scan(ac, &normalize(&orig[w.clone()], Fold::EXACT), w.start, None);
            }
            let (spans, counts) = scan.finish();
            return (spans, counts, None);
        }
    }
    if borrowed || orig.len() <= 2 * chunk {
        let hay = view();
        let windows = (borrowed && probe.is_none())
            .then(|| exact_windows(needles, known, rarity))
            .flatten();
        match (&hay.text, windows) {
            (std::borrow::Cow::Borrowed(whole), Some(windows)) => {
                for w in char_windows(whole, windows) {
                    scan.scan(ac, &normalize(&orig[w.clone()], Fold::EXACT), w.start, None);
                }
            }
            _ => scan.scan(ac, &hay, 0, None),
        }
        if let Some(p) = probe.as_mut() {
            p.scan(hay.text.as_bytes());
        }
        let (spans, counts) = scan.finish();
        return (spans, counts, probe.map(Probe::finish));
    }
    let after_line = |at: usize| memchr::memchr(b'\n', &orig[at..]).map_or(orig.len(), |i| at + i + 1);
    let line_start = |at: usize| memchr::memrchr(b'\n', &orig[..at]).map_or(0, |i| i + 1);
    let mut buffer = String::new();
    let mut start = 0;
    while start < orig.len() {
        let end = after_line((start + chunk).min(orig.len()));
        // Enough of the text before the piece that a match ending in it starts inside what is searched.
        let mut back = longest.max(1);
        let from = loop {
            let from = line_start(start.saturating_sub(back));
            if from == 0 || normalize(&orig[from..start], fold).text.len() >= longest {
                break from;
            }
            back *= 2;
        };
        // One line after it, so that what follows a match ending at the piece's end is seen.
        let to = if end < orig.len() { after_line(end) } else { end };
        let hay = normalize_into(&orig[from..to], fold, std::mem::take(&mut buffer));
        scan.scan(ac, &hay, from, Some(start..end));
        if let Some(p) = probe.as_mut() {
            // Each piece comes with at least `longest` normalized bytes of the text before it, so an
            // occurrence of a probe (no longer than that, and within a line) is inside some piece.
            p.scan(hay.text.as_bytes());
        }
        if let std::borrow::Cow::Owned(text) = hay.text {
            buffer = text;
        }
        start = end;
    }
    let (spans, counts) = scan.finish();
    (spans, counts, probe.map(Probe::finish))
}

/// The ranges of the text that hold every exact occurrence of the `needles`, from the places of
/// their anchors that the invisible-difference count found: an exact occurrence holds its needle's
/// anchor verbatim (its rarest part without blanks or line breaks, [`anchor`]) at the same
/// offset, and that count listed every place of the anchor in the text. So the exact tier searches
/// a few bytes around each instead of the whole text a second time (issue 12). `None`, for a pass
/// over the whole text, when a needle is empty or has no anchor, its anchor's places are not all
/// known (too common, or another search), or its match must end a line (not under the exact fold).
/// The ranges may overlap and may cut a character: see [`char_windows`].
fn exact_windows(needles: &[&Pattern], known: &KnownRuns, rarity: &Rarity) -> Option<Vec<Range<usize>>> {
    let mut windows = Vec::new();
    for n in needles {
        if n.text.is_empty() || n.needs_line_end {
            return None;
        }
        let (run, _) = anchor(&n.text, rarity)?;
        let offset = run.as_ptr() as usize - n.text.as_ptr() as usize;
        for &place in known_places(known, run)? {
            if let Some(start) = place.checked_sub(offset) {
                windows.push(start..start + n.text.len());
            }
        }
    }
    Some(windows)
}

/// [`exact_windows`] for a text with CRs, whose exact view is not the text (a CRLF is one line
/// break there): the whole lines around each known place of a needle's anchor that an occurrence
/// holding it there spans (the anchor holds no line break, so it is in the original verbatim, as
/// many line breaks after the needle's start as before it in the needle), disjoint and ascending.
/// Whole lines normalize as the same lines do in the whole text. `None` as [`exact_windows`], or
/// when a window is too large to be worth it.
fn exact_line_windows(
    orig: &[u8],
    needles: &[&Pattern],
    known: &KnownRuns,
    rarity: &Rarity,
) -> Option<Vec<Range<usize>>> {
    let mut windows = Vec::new();
    for n in needles {
        if n.text.is_empty() || n.needs_line_end {
            return None;
        }
        let (run, _) = anchor(&n.text, rarity)?;
        let offset = run.as_ptr() as usize - n.text.as_ptr() as usize;
        let before = n.text[..offset].matches('\n').count();
        let after = n.text[offset..].matches('\n').count();
        for &place in known_places(known, run)? {
            windows.push(window_around(orig, place, before, after + 1)?);
        }
    }
    windows.sort_unstable_by_key(|w| w.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(windows.len());
    for w in windows {
        match merged.last_mut() {
            Some(last) if w.start <= last.end => last.end = last.end.max(w.end),
            _ => merged.push(w),
        }
    }
    Some(merged)
}

/// `windows` cut to `text`, widened to its character boundaries, sorted, and the overlapping or
/// touching ones merged: disjoint and ascending, so that each match lies in exactly one, and
/// searching them in order reports the matches in the order a pass over the whole text does.
fn char_windows(text: &str, mut windows: Vec<Range<usize>>) -> Vec<Range<usize>> {
    for w in &mut windows {
        w.end = w.end.min(text.len());
        w.start = w.start.min(w.end);
        while !text.is_char_boundary(w.start) {
            w.start -= 1;
        }
        while !text.is_char_boundary(w.end) {
            w.end += 1;
        }
    }
    windows.sort_unstable_by_key(|w| w.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(windows.len());
    for w in windows {
        match merged.last_mut() {
            Some(last) if w.start <= last.end => last.end = last.end.max(w.end),
            _ => merged.push(w),
        }
    }
    merged
}

/// The `unicode` tier's search without normalizing the whole text (issue 12: that was most of what
/// a fuzzy edit costs beyond an exact one): only the lines around the places a needle could match.
///
/// Every match holds its needle's *anchor*, a part of a run of ASCII without blanks (its rarest in
/// the text, [`ascii_anchor`]), on one line of
/// the normalized text. On an ASCII line, normalizing changes nothing but trailing blanks and the
/// terminator, so the anchor is there in the original bytes. On another line, the ASCII in its
/// normalized form comes from the line's own ASCII, in order and adjacent as it was (NFKC composes
/// but never yields ASCII, and removes nothing), unless a character of the line folds to ASCII
/// (a typographic quote or dash, a special space, a compatibility form such as a full-width letter
/// or a ligature: [`may_fold_to_ascii`]). So the lines that can hold the anchor are those holding
/// it in the original, and those with such a character whose normalized form holds it; the lines
/// around them (as many as the needle has, one more each side) are normalized and searched, whole
/// lines, which normalize as the same lines do in the whole text. Each match lies in the window of
/// its anchor's line, and windows that overlap are merged, so every match is found once, in order.
///
/// The words of `probes` are answered the same way: in the original, on an ASCII line, or in the
/// normalized form of a line that holds them or that has a character folding to ASCII. A word
/// that is not ASCII, or found on too many lines that normalize it away, counts as present (the
/// caller only rules tiers out with a missing word; one taken for present rules out nothing).
struct Windows {
    /// Disjoint, ascending, whole lines.
    windows: Vec<Range<usize>>,
    seen: Vec<bool>,
}

/// Anchor hits beyond this many for one needle (or one per KiB of a larger text: [`hit_limit`]), or
/// windows covering more than half the text, make the windowed search dearer than normalizing
/// everything: the full pass is used instead.
const MAX_WINDOWED_HITS: usize = 1024;

/// A limit on anchor hits for a text of `len` bytes: `least`, or one hit per KiB of a larger text
/// (each hit costs a window of a few lines, a far smaller share of a large text's pass).
fn hit_limit(least: usize, len: usize) -> usize {
    least.max(len >> 10)
}
/// The most a windowed search normalizes (lines checked for the anchor, then windows) before the
/// whole pass is cheaper: half the text, and any small text whole.
fn windowed_max_bytes(len: usize) -> usize {
    len / 2 + (1 << 16)
}

/// Lines holding a word in the original but not once normalized (a letter composing with a mark
/// after it) checked per word before the word counts as present.
const MAX_PROBE_RECHECKS: usize = 64;

impl Windows {
    fn plan(
        orig: &[u8],
        needles: &[&Pattern],
        groups: &[Vec<&str>],
        known: &KnownRuns,
        rarity: &Rarity,
    ) -> Option<Windows> {
        let probes: Vec<&str> = groups.iter().flatten().copied().collect();
        // Per needle: its anchor, the line breaks before it and in all.
        let mut anchors: Vec<(&str, usize, usize)> = Vec::new();
        for n in needles.iter().filter(|n| !n.text.is_empty()) {
            let (run, before) = ascii_anchor(&n.text, rarity)?;
            anchors.push((run, before, n.text.matches('\n').count()));
        }
        // One pass over the original for every anchor (the needles that share one share its hits).
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut runs: Vec<&str> = Vec::new();
        let owner: Vec<usize> = anchors
            .iter()
            .map(|a| {
                *ids.entry(a.0).or_insert_with(|| {
                    runs.push(a.0);
                    runs.len() - 1
                })
            })
            .collect();
        // Runs whose every place the invisible count found are not searched again.
        let mut lines_of: Vec<Vec<usize>> = runs
            .iter()
            .map(|r| known_places(known, r).map_or_else(Vec::new, <[usize]>::to_vec))
            .collect();
        let unknown: Vec<bool> = runs.iter().map(|r| known_places(known, r).is_none()).collect();
        // A run the sample finds too common gives the windows up before any pass over the text.
        let max_hits = hit_limit(MAX_WINDOWED_HITS, orig.len());
        let too_common = |r: &&str| rarity.estimate(r.as_bytes()) > COMMON_ESTIMATE * max_hits;
        if runs.iter().zip(&unknown).any(|(r, &u)| u && too_common(r)) {
            return None;
        }
        if unknown.contains(&true) {
            let patterns: Vec<&[u8]> = runs
                .iter()
                .zip(&unknown)
                .map(|(r, &u)| if u { r.as_bytes() } else { &[][..] })
                .collect();
            let mut over = false;
            each_place(orig, &patterns, rarity, |id, start| {
                if lines_of[id].len() == max_hits {
                    over = true;
                    return false;
                }
                lines_of[id].push(start);
                true
            });
            if over {
                return None;
            }
        }
        if lines_of.iter().any(|hits| hits.len() > max_hits) {
            return None;
        }
        // The normalized lines are short: the automaton searches them.
        let ac = Searcher::new(&runs);
        let mut seen: Vec<bool> = probes.iter().map(|p| !p.is_ascii() || p.is_empty()).collect();
        let word_finders: Vec<memchr::memmem::Finder<'_>> = probes
            .iter()
            .map(|p| memchr::memmem::Finder::new(p.as_bytes()))
            .collect();
        // Lines with a character that may fold to ASCII: normalized, and searched for the anchors
        // and the words.
        let mut buffer = String::new();
        let mut normalized = 0;
        let mut at = 0;
        while let Some(off) = first_non_ascii(&orig[at..]) {
            let p = at + off;
            let line = crate::text::lines::line_start(orig, p)..next_line(orig, p);
            at = line.end;
            if !folds_to_ascii(&orig[line.clone()]) {
                continue;
            }
            // A large text most of whose lines need normalizing anyway (prose with typographic
            // quotes) takes the whole pass, told from its first sixteenth (one line at a time
            // costs a little more than the whole pass).
            normalized += line.len();
            if orig.len() > 1 << 20 && at >= orig.len() / 16 && 2 * normalized > at {
                return None;
            }
            let hay = normalize_into(&orig[line.clone()], Fold::UNICODE, std::mem::take(&mut buffer));
            let text = hay.text.as_bytes();
            let mut here: Vec<usize> = ac.overlapping(text).map(|(id, _, _)| id).collect();
            here.sort_unstable();
            here.dedup();
            for id in here {
                if lines_of[id].len() == max_hits {
                    return None;
                }
                lines_of[id].push(line.start);
            }
            for (found, finder) in seen.iter_mut().zip(&word_finders) {
                *found = *found || finder.find(text).is_some();
            }
            if let std::borrow::Cow::Owned(text) = hay.text {
                buffer = text;
            }
        }
        // Words not seen yet: a pass over the text each, until one of their group is missing.
        let mut k = 0;
        for group in groups {
            let mut missing = false;
            for (found, finder) in seen[k..k + group.len()].iter_mut().zip(&word_finders[k..]) {
                if !*found && !missing {
                    *found = word_present(orig, finder, &mut buffer);
                    missing = !*found;
                } else if missing {
                    *found = true;
                }
            }
            k += group.len();
        }
        let mut windows: Vec<Range<usize>> = Vec::new();
        for (k, &(_, before, breaks)) in anchors.iter().enumerate() {
            for &p in &lines_of[owner[k]] {
                windows.push(window_around(orig, p, before + 1, breaks - before + 2)?);
            }
        }
        windows.sort_unstable_by_key(|w| w.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(windows.len());
        let mut covered = 0;
        for w in windows {
            match merged.last_mut() {
                Some(last) if w.start < last.end => {
                    covered += w.end.saturating_sub(last.end);
                    last.end = last.end.max(w.end);
                }
                _ => {
                    covered += w.len();
                    merged.push(w);
                }
            }
        }
        (covered <= windowed_max_bytes(orig.len())).then_some(Windows { windows: merged, seen })
    }
}

/// The anchor of a normalized needle in the `unicode` tier's windowed search: its rarest window
/// inside a run of ASCII other than blanks and line breaks ([`rarest_window`]), and how many line
/// breaks come before it; `None` when it has none.
fn ascii_anchor<'n>(text: &'n str, rarity: &Rarity) -> Option<(&'n str, usize)> {
    rarest_window(text, |c| c.is_ascii() && !matches!(c, ' ' | '\t' | '\n' | '\r'), rarity)
}

/// Where the first byte that is not ASCII is, tested 32 bytes at a time (a test the compiler
/// vectorizes).
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    for chunk in bytes.chunks_exact(32) {
        if chunk.iter().fold(0u8, |any, &b| any | b) >= 0x80 {
            break;
        }
        at += 32;
    }
    bytes[at..].iter().position(|&b| b >= 0x80).map(|i| at + i)
}

/// The end of the line holding `p`, its terminator included.
fn next_line(text: &[u8], p: usize) -> usize {
    next_terminator(text, p).map_or(text.len(), |t| t.end)
}

/// Whether any character of `line` may fold to ASCII under the `unicode` fold (invalid bytes
/// become U+FFFD, which is not ASCII).
fn folds_to_ascii(line: &[u8]) -> bool {
    crate::text::lines::utf8_pieces(line).any(|(valid, _)| valid.chars().any(|c| !c.is_ascii() && may_fold_to_ascii(c)))
}

/// Whether `c` (not ASCII) may become or hold ASCII under the `unicode` fold: a typographic quote,
/// dash or special space, or a character whose NFKC form holds ASCII or one of those (a
/// compatibility form: `ﬁ`, `Ａ`, `™`). A letter whose decomposition starts with ASCII (`é`) does
/// not: NFKC composes it again, also beside the marks that follow it in a segment (canonical
/// order puts a mark between them only if it composes with the letter first or does not block
/// it), and composition never yields ASCII or those characters. Answers are kept per code point as
/// [`crate::text::normalize::safe_before`] keeps its own: the Unicode tables are slow to ask.
fn may_fold_to_ascii(c: char) -> bool {
    thread_local! {
        static ANSWERS: crate::text::normalize::PerCodePoint =
            const { [const { std::cell::Cell::new(u32::MAX) }; 256] };
    }
    crate::text::normalize::asked_once(&ANSWERS, c, |c| {
        let folds = |d: char| d.is_ascii() || crate::text::fold::fold_typographic(d).is_some();
        folds(c) || std::iter::once(c).nfkc().any(folds)
    })
}

/// Whether an ASCII word is in the `unicode` view of `orig`, line by line: on an ASCII line where
/// the original holds it, or in the normalized form of a line that holds it in the original and is
/// not ASCII (a letter of it may compose with a mark after it). Lines with a character that folds
/// to ASCII are searched by the caller. Past [`MAX_PROBE_RECHECKS`] such lines, present.
fn word_present(orig: &[u8], finder: &memchr::memmem::Finder<'_>, buffer: &mut String) -> bool {
    let mut rechecks = 0;
    let mut at = 0;
    while let Some(off) = finder.find(&orig[at..]) {
        let p = at + off;
        let line = crate::text::lines::line_start(orig, p)..next_line(orig, p);
        if orig[line.clone()].is_ascii() {
            return true;
        }
        rechecks += 1;
        if rechecks > MAX_PROBE_RECHECKS {
            return true;
        }
        let hay = normalize_into(&orig[line.clone()], Fold::UNICODE, std::mem::take(buffer));
        let found = finder.find(hay.text.as_bytes()).is_some();
        if let std::borrow::Cow::Owned(text) = hay.text {
            *buffer = text;
        }
        if found {
            return true;
        }
        at = line.end.max(p + 1);
    }
    false
}

/// Which of a few words occur in a text searched piece by piece: one substring search per piece for
/// each word not seen yet (a common word is seen at once, and is not looked for again).
struct Probe<'w> {
    words: Vec<&'w str>,
    found: Vec<bool>,
}

impl<'w> Probe<'w> {
    fn new(words: &[&'w str]) -> Probe<'w> {
        Probe {
            words: words.to_vec(),
            found: vec![false; words.len()],
        }
    }

    fn scan(&mut self, text: &[u8]) {
        for (word, found) in self.words.iter().zip(self.found.iter_mut()) {
            if !*found {
                *found = memchr::memmem::find(text, word.as_bytes()).is_some();
            }
        }
    }

    fn finish(self) -> Vec<bool> {
        self.found
    }
}

/// The state of [`find_all_in`]: the needles grouped by normalized text, the spans and counts so far.
struct Scan<'n, 'p> {
    needles: &'n [&'p Pattern],
    cap: &'n [usize],
    scope: &'n Scope,
    orig: &'n [u8],
    take_trailing: bool,
    patterns: Vec<&'p str>,
    by_pattern: Vec<Vec<usize>>,
    spans: Vec<Vec<Range<usize>>>,
    counts: Vec<usize>,
}

impl<'n, 'p> Scan<'n, 'p> {
    fn new(
        needles: &'n [&'p Pattern],
        cap: &'n [usize],
        scope: &'n Scope,
        orig: &'n [u8],
        take_trailing: bool,
    ) -> Self {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut patterns: Vec<&'p str> = Vec::new();
        let mut by_pattern: Vec<Vec<usize>> = Vec::new();
        for (k, n) in needles.iter().enumerate() {
            if n.text.is_empty() {
                continue;
            }
            let id = *ids.entry(n.text.as_str()).or_insert_with(|| {
                patterns.push(n.text.as_str());
                by_pattern.push(Vec::new());
                patterns.len() - 1
            });
            by_pattern[id].push(k);
        }
        Scan {
            needles,
            cap,
            scope,
            orig,
            take_trailing,
            patterns,
            by_pattern,
            spans: vec![Vec::new(); needles.len()],
            counts: vec![0; needles.len()],
        }
    }

    /// The searcher of all needles; `None` when there is none to search.
    fn automaton(&self) -> Option<Searcher> {
        (!self.patterns.is_empty()).then(|| Searcher::new(&self.patterns))
    }

    /// Searches `hay`, the normalized text of the original from `offset` on; with `own`, keeps only
    /// the matches whose end maps into it, past its start and up to its end (in the original).
    fn scan(&mut self, ac: &Searcher, hay: &Normalized, offset: usize, own: Option<Range<usize>>) {
        let text = hay.text.as_bytes();
        for (id, start, end) in ac.overlapping(text) {
            if let Some(own) = &own {
                match hay.orig_end(end, false) {
                    Some(at) if own.start < offset + at && offset + at <= own.end => {}
                    _ => continue,
                }
            }
            let (Some(o_start), Some(o_end)) = (hay.orig_start(start), hay.orig_end(end, self.take_trailing)) else {
                continue;
            };
            let (o_start, o_end) = (offset + o_start, offset + o_end.max(o_start));
            let at_line_end = end == text.len() || text[end] == b'\n';
            for &k in &self.by_pattern[id] {
                let n = self.needles[k];
                if n.needs_line_end && !at_line_end || n.at_end_only && o_end != self.orig.len() {
                    continue;
                }
                let span = if self.scope.is_everything() {
                    o_start..o_end
                } else {
                    match self.scope.place(self.orig, o_start, o_end, n.blank_first_line) {
                        Some(span) => span,
                        None => continue,
                    }
                };
                self.counts[k] += 1;
                if self.spans[k].len() < self.cap[k] {
                    self.spans[k].push(span);
                }
            }
        }
    }

    fn finish(self) -> (Vec<Vec<Range<usize>>>, Vec<usize>) {
        (self.spans, self.counts)
    }
}

/// Anchor hits beyond this many for one needle (or one per KiB of a larger text: [`hit_limit`])
/// make the windowed search dearer than one pass over the whole normalized text, which is then
/// used instead.
const MAX_ANCHOR_HITS: usize = 256;
/// A window (the lines an occurrence could span) larger than this also falls back to the full pass,
/// so a file of very long lines never costs more than one pass per needle.
const MAX_WINDOW: usize = 1 << 16;
/// An anchor the text's sample says occurs more than this many times the hit limit (of the
/// invisible count, or of the `unicode` windows) is not searched for: the whole pass it would end
/// in is taken at once. An estimate too low only costs the search.
const COMMON_ESTIMATE: usize = 4;

/// Whether `c` is left alone by the invisible fold: not a line break, a blank (special spaces
/// included) or U+FFFD.
fn kept_by_invisible_fold(c: char) -> bool {
    !(c == '\n' || c == '\r' || c == '\u{FFFD}' || is_line_blank(c))
}

/// The anchor of `old` for the invisible-difference count and the exact tier: its rarest window in
/// the text inside a run that invisible folding leaves alone (no blanks, line breaks, special
/// spaces or U+FFFD: [`rarest_window`]), and how many line breaks come before it.
fn anchor<'o>(old: &'o str, rarity: &Rarity) -> Option<(&'o str, usize)> {
    rarest_window(old, kept_by_invisible_fold, rarity)
}

/// For each needle, its occurrences when everything a model cannot see is ignored (line endings,
/// trailing blanks, special spaces): the count, and the first [`MAX_LISTED`] starts in the original,
/// ascending.
///
/// Every such occurrence contains the needle's anchor (a part of it that this folding leaves
/// alone, chosen rarest in the text by `rarity`: [`anchor`]) verbatim, so one search of the
/// original for every anchor at once finds the candidates ([`each_place`]), and only the text
/// around each is normalized: the bytes an occurrence holding it there could span for a needle of
/// one line ([`byte_window_around`]), the lines around it otherwise. Needles without a usable
/// anchor, or whose anchor is too common (estimated so, or found so), share one pass over the
/// fully normalized text instead. Either way the cost is linear in the file, and the common case
/// copies nothing.
///
/// Under whole lines, in a text whose last line has no terminator, a needle ending with a line break
/// also counts where it ends the text without it (see [`Scope::whole_lines`]).
///
/// Also returns the anchors whose every place it found, with those places (see [`KnownRuns`]).
pub(crate) fn invisible_occurrences(
    text: &[u8],
    olds: &[&str],
    scope: &Scope,
    rarity: &Rarity,
) -> (Vec<(usize, Vec<usize>)>, KnownRuns) {
    let ends_open = crate::text::lines::ends_open(text);
    let mut expanded: Vec<(&str, bool)> = olds.iter().map(|o| (*o, false)).collect();
    let mut owners: Vec<usize> = (0..olds.len()).collect();
    if scope.whole_lines && ends_open {
        for (k, old) in olds.iter().enumerate() {
            if let Some(open) = old.strip_suffix('\n').filter(|o| !o.is_empty()) {
                expanded.push((open, true));
                owners.push(k);
            }
        }
    }
    let (found, known) = occurrences_of(text, &expanded, scope, rarity);
    let mut result: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); olds.len()];
    // The at-end variants come after every original needle, and their one possible match starts after
    // any of the original's: appending keeps the starts ascending.
    for ((count, starts), owner) in found.into_iter().zip(owners) {
        let r = &mut result[owner];
        r.0 += count;
        r.1.extend(starts);
        r.1.truncate(MAX_LISTED);
    }
    (result, known)
}

fn occurrences_of(
    text: &[u8],
    expanded: &[(&str, bool)],
    scope: &Scope,
    rarity: &Rarity,
) -> (Vec<(usize, Vec<usize>)>, KnownRuns) {
    let olds: Vec<&str> = expanded.iter().map(|e| e.0).collect();
    let needles: Vec<Pattern> = expanded
        .iter()
        .map(|&(o, at_end_only)| Pattern {
            at_end_only,
            ..pattern(o, Fold::INVISIBLE)
        })
        .collect();
    let anchors: Vec<Option<(&str, usize)>> = olds.iter().map(|o| anchor(o, rarity)).collect();
    let mut windowed: Vec<bool> = vec![true; olds.len()];
    let max_hits = hit_limit(MAX_ANCHOR_HITS, text.len());
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut patterns: Vec<&[u8]> = Vec::new();
    let mut by_pattern: Vec<Vec<usize>> = Vec::new();
    for (k, a) in anchors.iter().enumerate() {
        match a {
            Some((run, _))
                if !needles[k].text.is_empty() && rarity.estimate(run.as_bytes()) <= COMMON_ESTIMATE * max_hits =>
            {
                let id = *ids.entry(run).or_insert_with(|| {
                    patterns.push(run.as_bytes());
                    by_pattern.push(Vec::new());
                    patterns.len() - 1
                });
                by_pattern[id].push(k);
            }
            _ => windowed[k] = false,
        }
    }
    let mut hits: Vec<Vec<usize>> = vec![Vec::new(); olds.len()];
    each_place(text, &patterns, rarity, |id, start| {
        let mut wanted = false;
        for &k in &by_pattern[id] {
            if !windowed[k] {
                continue;
            }
            if hits[k].len() == max_hits {
                windowed[k] = false;
                hits[k] = Vec::new();
            } else {
                hits[k].push(start);
                wanted = true;
            }
        }
        wanted
    });

    let mut known = KnownRuns::new();
    for (k, a) in anchors.iter().enumerate() {
        if let Some((run, _)) = a.filter(|_| windowed[k]) {
            known.entry(run.to_string()).or_insert_with(|| hits[k].clone());
        }
    }
    let mut found: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); olds.len()];
    for k in 0..olds.len() {
        if !windowed[k] {
            continue;
        }
        let (run, before) = anchors[k].expect("windowed needles have anchors");
        let breaks = olds[k].matches('\n').count();
        // Where the anchor is in the needle, for a window of bytes (a needle of one line).
        let offset = run.as_ptr() as usize - olds[k].as_ptr() as usize;
        let in_bytes = byte_windows_apply(olds[k], &needles[k]);
        for &p in &hits[k] {
            let window = if in_bytes {
                byte_window_around(text, p, offset, olds[k].len())
            } else {
                window_around(text, p, before, breaks - before + 2)
            };
            let Some(window) = window else {
                windowed[k] = false;
                break;
            };
            search_window(text, window, &needles[k], scope, &mut found[k]);
        }
    }

    let fallback: Vec<usize> = (0..olds.len()).filter(|&k| !windowed[k]).collect();
    let mut result: Vec<(usize, Vec<usize>)> = found
        .into_iter()
        .map(|set| (set.len(), set.into_iter().take(MAX_LISTED).collect()))
        .collect();
    if !fallback.is_empty() {
        let refs: Vec<&Pattern> = fallback.iter().map(|&k| &needles[k]).collect();
        let caps = vec![MAX_LISTED; refs.len()];
        let view = || std::rc::Rc::new(normalize(text, Fold::INVISIBLE));
        let (spans, counts) = find_all_in(text, Fold::INVISIBLE, view, &refs, &caps, scope, rarity);
        for (i, &k) in fallback.iter().enumerate() {
            result[k] = (counts[i], spans[i].iter().map(|s| s.start).collect());
        }
    }
    (result, known)
}

/// Whether the invisible count may look for `old`'s occurrences in a window of bytes around each
/// place of its anchor ([`byte_window_around`]) rather than in whole lines: when an occurrence is
/// inside one line and no longer than three times `old` in bytes. So `old` has no line break, and
/// its normalized form (`needle`) need not end a line (whose trailing blanks the original may have
/// any number of) and holds no U+FFFD (which stands for any run of invalid bytes). Every other
/// character of it stands for one of the original's: itself, or for a space, a special space (at
/// most three bytes).
fn byte_windows_apply(old: &str, needle: &Pattern) -> bool {
    !old.contains('\n') && !needle.needs_line_end && !needle.text.contains('\u{FFFD}')
}

/// Whether a window of the text may start or end at `q` and normalize under any fold as the same
/// bytes do in the whole text: at the text's ends, after a `\n`, or between two ASCII characters
/// that are neither blanks nor controls (each is a unit of its own: no terminator, trailing blank,
/// invalid run or combining sequence is cut there).
fn is_safe_cut(text: &[u8], q: usize) -> bool {
    let graphic = |b: u8| (0x21..=0x7e).contains(&b);
    q == 0 || q >= text.len() || text[q - 1] == b'\n' || (graphic(text[q - 1]) && graphic(text[q]))
}

/// The bytes around the anchor place `p` that hold every occurrence of a needle of `len` bytes, of
/// one line, whose anchor is `offset` bytes into it (see [`byte_windows_apply`]: an occurrence spans
/// at most three times as many bytes before and after the anchor), widened to safe cuts
/// ([`is_safe_cut`]) so that the window normalizes as the same bytes do in the whole text; `None`
/// when that is larger than [`MAX_WINDOW`]. A line of 8 MiB (minified code) costs the needle's
/// size, not the line's.
fn byte_window_around(text: &[u8], p: usize, offset: usize, len: usize) -> Option<Range<usize>> {
    let mut start = p.saturating_sub(3 * offset);
    let mut end = p.saturating_add(3 * (len - offset)).min(text.len());
    while !is_safe_cut(text, start) {
        start -= 1;
        if end - start > MAX_WINDOW {
            return None;
        }
    }
    while !is_safe_cut(text, end) {
        end += 1;
        if end - start > MAX_WINDOW {
            return None;
        }
    }
    (end - start <= MAX_WINDOW).then_some(start..end)
}

/// The whole lines from `up` lines above position `p`'s line to `down` lines below it (each line with
/// its terminator), or `None` when that is too large to be worth a window.
fn window_around(text: &[u8], p: usize, up: usize, down: usize) -> Option<Range<usize>> {
    let mut start = prev_terminator(text, p).map_or(0, |t| t.end);
    for _ in 0..up {
        let Some(t) = prev_terminator(text, start) else { break };
        start = prev_terminator(text, t.start).map_or(0, |u| u.end);
    }
    let mut end = p;
    for _ in 0..down {
        match next_terminator(text, end) {
            Some(t) => end = t.end,
            None => {
                end = text.len();
                break;
            }
        }
    }
    (end - start <= MAX_WINDOW).then_some(start..end)
}

/// Adds the original starts of the needle's occurrences inside `window` to `found`. The window is
/// whole lines, so it normalizes exactly as the same lines do in the whole text.
fn search_window(text: &[u8], window: Range<usize>, needle: &Pattern, scope: &Scope, found: &mut BTreeSet<usize>) {
    let at_eof = window.end == text.len();
    let hay = normalize(&text[window.clone()], Fold::INVISIBLE);
    let h = hay.text.as_bytes();
    let n = needle.text.as_bytes();
    let finder = memchr::memmem::Finder::new(n);
    let mut from = 0;
    while let Some(off) = finder.find(&h[from..]) {
        let (q, end) = (from + off, from + off + n.len());
        from = q + 1;
        let at_line_end = if end == h.len() { at_eof } else { h[end] == b'\n' };
        if needle.needs_line_end && !at_line_end {
            continue;
        }
        if let (Some(start), Some(stop)) = (hay.orig_start(q), hay.orig_end(end, true)) {
            let (start, stop) = (window.start + start, window.start + stop.max(start));
            if needle.at_end_only && stop != text.len() {
                continue;
            }
            if let Some(span) = scope.place(text, start, stop, needle.blank_first_line) {
                found.insert(span.start);
            }
        }
    }
}

/// Every occurrence of a few patterns in a text, overlapping ones included, reported by their ends
/// (as Aho-Corasick's overlapping search does). One long pattern is looked for with a substring
/// finder instead of an automaton: building the automaton costs time and memory in proportion to
/// the pattern (a 300 KB needle, edited in a file that writes its quotes typographically, spent
/// most of its call building automata: issue 12), the finder almost nothing. Only a pattern whose
/// shortest period is at least half its length gets the finder: its occurrences lie at least that
/// far apart, so finding each from one past the last costs a linear pass in all; a periodic one
/// (`xxxx…`), which can occur at every position, keeps the automaton, which reports those in one pass.
pub(crate) enum Searcher {
    /// One long aperiodic pattern.
    One(Box<memchr::memmem::Finder<'static>>),
    /// Several patterns, or a short or periodic one.
    Many(AhoCorasick),
}

/// From this length, one aperiodic pattern is looked for with the substring finder.
const FINDER_FROM_BYTES: usize = 256;

impl Searcher {
    pub(crate) fn new(patterns: &[&str]) -> Searcher {
        if let [one] = patterns {
            if one.len() >= FINDER_FROM_BYTES && 2 * shortest_period(one.as_bytes()) >= one.len() {
                return Searcher::One(Box::new(memchr::memmem::Finder::new(one.as_bytes()).into_owned()));
            }
        }
        Searcher::Many(
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .kind(automaton_kind(patterns))
                .build(patterns)
                .expect("patterns are small enough for an automaton"),
        )
    }

    /// Every occurrence in `hay` as (pattern index, start, end), ascending by end.
    pub(crate) fn overlapping<'s>(&'s self, hay: &'s [u8]) -> Occurrences<'s> {
        match self {
            Searcher::One(finder) => Occurrences::One { finder, hay, at: 0 },
            Searcher::Many(ac) => Occurrences::Many(ac.find_overlapping_iter(hay)),
        }
    }
}

/// The iterator of [`Searcher::overlapping`].
pub(crate) enum Occurrences<'s> {
    One {
        finder: &'s memchr::memmem::Finder<'static>,
        hay: &'s [u8],
        at: usize,
    },
    Many(aho_corasick::FindOverlappingIter<'s, 's>),
}

impl Iterator for Occurrences<'_> {
    type Item = (usize, usize, usize);

    fn next(&mut self) -> Option<(usize, usize, usize)> {
        match self {
            Occurrences::One { finder, hay, at } => {
                let start = *at + finder.find(hay.get(*at..)?)?;
                *at = start + 1;
                Some((0, start, start + finder.needle().len()))
            }
            Occurrences::Many(it) => it.next().map(|m| (m.pattern().as_usize(), m.start(), m.end())),
        }
    }
}

/// The length of the shortest period of `s` (the least `p` with `s[i] == s[i + p]` throughout;
/// `s.len()` for an aperiodic one), from the prefix function, in linear time.
fn shortest_period(s: &[u8]) -> usize {
    if s.is_empty() {
        return 0;
    }
    let mut border = vec![0u32; s.len()];
    let mut k = 0usize;
    for i in 1..s.len() {
        while k > 0 && s[i] != s[k] {
            k = border[k - 1] as usize;
        }
        if s[i] == s[k] {
            k += 1;
        }
        border[i] = k as u32;
    }
    s.len() - border[s.len() - 1] as usize
}

/// The automaton for `patterns`: the crate's choice for small ones, else a contiguous NFA.
fn automaton_kind(patterns: &[&str]) -> Option<AhoCorasickKind> {
    kind_for_pattern_bytes(patterns.iter().map(|p| p.len()).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::anchors::DFA_MAX_PATTERN_BYTES;
    use proptest::prelude::*;

    /// The plain way: normalize everything, search everything.
    fn reference(text: &[u8], old: &str) -> (usize, Vec<usize>) {
        let hay = std::rc::Rc::new(normalize(text, Fold::INVISIBLE));
        let n = pattern(old, Fold::INVISIBLE);
        let (spans, counts) = find_all_in(
            text,
            Fold::INVISIBLE,
            || hay,
            &[&n],
            &[MAX_LISTED],
            &Scope::default(),
            &Rarity::of(text),
        );
        (counts[0], spans[0].iter().map(|s| s.start).collect())
    }

    #[test]
    fn a_needle_whose_dfa_would_cost_its_square_gets_an_nfa() {
        // A periodic needle under the old 16 KB limit: its DFA took seconds to build (issue 16).
        let periodic = "let x = 1; ".repeat(1400);
        let ac = AhoCorasick::builder()
            .kind(automaton_kind(&[periodic.as_str()]))
            .build([periodic.as_str()])
            .unwrap();
        assert_eq!(ac.kind(), AhoCorasickKind::ContiguousNFA);
        // Small needles, where the square is cheap, keep the crate's choice.
        assert_eq!(automaton_kind(&["fn a() {", "let x = 1;"]), None);
        assert_eq!(automaton_kind(&[&"x".repeat(DFA_MAX_PATTERN_BYTES - 1)]), None);
    }

    #[test]
    fn one_long_aperiodic_pattern_gets_the_substring_finder() {
        assert_eq!(shortest_period(b"abcab"), 3);
        assert_eq!(shortest_period(b"aaaa"), 1);
        assert_eq!(shortest_period(b"abcd"), 4);
        assert_eq!(shortest_period(b"a"), 1);
        let mut x = 88172645463325252u64;
        let blob: String = (0..400)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                char::from(b'a' + (x % 26) as u8)
            })
            .collect();
        assert!(matches!(Searcher::new(&[blob.as_str()]), Searcher::One(_)));
        // Periodic, short, or several: the automaton.
        let periodic = "let x = 1; ".repeat(40);
        assert!(matches!(Searcher::new(&[periodic.as_str()]), Searcher::Many(_)));
        assert!(matches!(Searcher::new(&["fn a() {"]), Searcher::Many(_)));
        assert!(matches!(Searcher::new(&[blob.as_str(), "x"]), Searcher::Many(_)));
    }

    #[test]
    fn anchors() {
        assert_eq!(anchor("  return x;\n}", &Rarity::of(b"")), Some(("return", 0)));
        assert_eq!(anchor("a\nbb\nccc dd", &Rarity::of(b"")), Some(("ccc", 2)));
        assert_eq!(anchor(" \n\t", &Rarity::of(b"")), None);
    }

    #[test]
    fn finds_what_differs_only_invisibly() {
        let text = b"x = 1;\r\nx = 1;  \nx\xc2\xa0= 1;\n";
        let (got, known) = invisible_occurrences(text, &["x = 1;"], &Scope::default(), &Rarity::of(text));
        assert_eq!(known, KnownRuns::from([("1;".to_string(), vec![4, 12, 22])]));
        assert_eq!(got[0], reference(text, "x = 1;"));
        assert_eq!(got[0].0, 3);
    }

    #[test]
    fn a_needle_ending_with_blanks_counts_at_line_ends_only() {
        // Its trailing blank is invisible, so it occurs where its text ends a line: before a CRLF,
        // before trailing blanks, and at the end of the text without a terminator (the last
        // window ends there), but not inside a line. Issue 16's mutation run over `search_window`.
        let text = b"x = 1;\r\nx = 1;y\nx = 1;  \nx = 1;";
        for (old, want) in [("x = 1; ", (3, vec![0, 16, 25])), ("= 1;\t", (3, vec![2, 18, 27]))] {
            let (got, _) = invisible_occurrences(text, &[old], &Scope::default(), &Rarity::of(text));
            assert_eq!(got[0], want, "{old:?}");
            assert_eq!(got[0], reference(text, old), "{old:?}");
        }
    }

    #[test]
    fn an_open_end_variant_takes_a_blank_first_line_whole_under_a_trimming_fold_only() {
        // Under whole lines the variant matches where the text ends without a line break. Its
        // empty first line may take a file line of blanks whole only when the fold trims them;
        // under the exact fold the blanks are text the needle lacks. Issue 16's mutation run: the
        // variant's `blank_first_line` taken from its own text alone (`&&` as `||`).
        let whole = Scope::default().whole_lines();
        let text = b"  \nfoo";
        for (fold, want) in [(Fold::EXACT, vec![]), (Fold::TRAILING, vec![(0, 6)])] {
            let n = pattern("\nfoo\n", fold);
            let open = n
                .at_end_variant(&whole, text)
                .expect("the text ends without a line break");
            let view = || std::rc::Rc::new(normalize(text, fold));
            let (spans, _) = find_all_in(text, fold, view, &[&open], &[MAX_LISTED], &whole, &Rarity::of(text));
            let spans: Vec<(usize, usize)> = spans[0].iter().map(|s| (s.start, s.end)).collect();
            assert_eq!(spans, want, "{fold:?}");
        }
    }

    #[test]
    fn the_search_chunk_setter_returns_the_previous_size() {
        // Tests restore the size they found (issue 16's mutation run: the previous size as a
        // constant); zero stands for one byte.
        let before = set_search_chunk(7);
        assert_eq!(set_search_chunk(0), 7);
        assert_eq!(set_search_chunk(before), 1);
    }

    #[test]
    fn the_windowed_search_takes_the_places_the_invisible_count_found() {
        // A run whose places the invisible count found is not searched for again (issue 12): told
        // it occurs nowhere, the plan has no window for it; told where, it has that window.
        // Issue 16's mutation run: `known_places` as `None` (the text searched again).
        let text = b"let x = 1;\nlet y = 2;\n";
        let n = pattern("let x = 1;", Fold::UNICODE);
        let (run, _) = ascii_anchor(&n.text, &Rarity::of(text)).expect("an ASCII anchor");
        let plan = |known: KnownRuns| -> Vec<(usize, usize)> {
            let plan = Windows::plan(text, &[&n], &[], &known, &Rarity::of(text)).expect("a plan");
            plan.windows.iter().map(|w| (w.start, w.end)).collect()
        };
        assert_eq!(plan(KnownRuns::new()), [(0, 22)]);
        assert_eq!(plan(KnownRuns::from([(run.to_string(), vec![])])), []);
        assert_eq!(plan(KnownRuns::from([(run.to_string(), vec![11])])), [(0, 22)]);
    }

    /// The exact tier's windows are the known places of each needle's anchor, moved back by the
    /// anchor's offset in the needle (none where the needle would start before the text); `None`,
    /// for the full pass, when a place list is missing.
    #[test]
    fn exact_windows_are_the_known_places_of_each_anchor() {
        let n = pattern("x = value;", Fold::EXACT);
        let (run, _) = anchor(&n.text, &Rarity::of(b"")).expect("an anchor");
        assert_eq!(run, "value;");
        let len = n.text.len();
        let known = KnownRuns::from([(run.to_string(), vec![2, 4, 30])]);
        assert_eq!(
            exact_windows(&[&n], &known, &Rarity::of(b"")),
            Some(vec![0..len, 26..26 + len])
        );
        assert_eq!(exact_windows(&[&n], &KnownRuns::new(), &Rarity::of(b"")), None);
        let empty = KnownRuns::from([(run.to_string(), vec![])]);
        assert_eq!(exact_windows(&[&n], &empty, &Rarity::of(b"")), Some(vec![]));
    }

    #[test]
    fn the_ascii_anchor_is_the_first_longest_run() {
        assert_eq!(ascii_anchor("ab cde\nfg", &Rarity::of(b"")), Some(("cde", 0)));
        assert_eq!(ascii_anchor("x\nab\tcd\nxyz", &Rarity::of(b"")), Some(("xyz", 2)));
        assert_eq!(ascii_anchor("abc d\nefg", &Rarity::of(b"")), Some(("abc", 0)));
        assert_eq!(
            ascii_anchor("caf\u{e9} \u{e9}t\u{e9}", &Rarity::of(b"")),
            Some(("caf", 0))
        );
        assert_eq!(ascii_anchor(" \u{e9} \n", &Rarity::of(b"")), None);
    }

    #[test]
    fn probes_are_answered_only_when_every_one_fits_in_the_longest_needle() {
        // A probe longer than every needle could straddle two pieces unseen, and an empty one is
        // no question: the answers are `None` then, and without probes (issue 16's mutation run:
        // either `&&` of the condition as `||`).
        let text = b"let value = 1;\nlet other = 2;\n";
        let n = pattern("value = 1;", Fold::TRAILING);
        for chunk in [7, 1 << 20] {
            let before = set_search_chunk(chunk);
            let answers = |probes: &[&str]| {
                let groups: Vec<Vec<&str>> = probes.iter().map(|p| vec![*p]).collect();
                let view = || std::rc::Rc::new(normalize(text, Fold::TRAILING));
                let got = find_all_probing(
                    text,
                    Fold::TRAILING,
                    view,
                    || false,
                    &[&n],
                    &[MAX_LISTED],
                    &Scope::default(),
                    &groups,
                    &KnownRuns::new(),
                    &Rarity::of(text),
                );
                assert_eq!(got.1, [1], "pieces of {chunk} bytes");
                got.2
            };
            assert_eq!(answers(&["other", "absent"]), Some(vec![true, false]), "{chunk}");
            assert_eq!(answers(&[]), None, "{chunk}");
            assert_eq!(answers(&["other", "value = 1;\nlet"]), None, "{chunk}");
            assert_eq!(answers(&["other", ""]), None, "{chunk}");
            set_search_chunk(before);
        }
    }

    #[test]
    fn spans_stop_at_the_cap_and_the_count_goes_on() {
        // Every caller truncates to the cap again, so only this contract of `find_all_in` tells a
        // span too many apart (issue 16's mutation run: `len() < cap` as `<=`).
        let n = pattern("ab", Fold::INVISIBLE);
        let text = b"ab ab\nab\r\nab ab";
        for (cap, listed) in [(0, 0), (2, 2), (5, 5), (6, 5)] {
            let view = || std::rc::Rc::new(normalize(text, Fold::INVISIBLE));
            let (spans, counts) = find_all_in(
                text,
                Fold::INVISIBLE,
                view,
                &[&n],
                &[cap],
                &Scope::default(),
                &Rarity::of(text),
            );
            assert_eq!(counts, [5], "cap {cap}");
            assert_eq!(spans[0], [0..2, 3..5, 6..8, 10..12, 13..15][..listed], "cap {cap}");
        }
    }

    #[test]
    fn a_last_line_break_stands_for_an_open_end_under_whole_lines_only() {
        // The needle's line break stands for the end of a text without one (`Scope::whole_lines`);
        // its first occurrence differs only by a trailing blank. Issue 16's mutation run: the
        // at-end variant never added (`!o.is_empty()` without `!`).
        let whole = Scope::default().whole_lines();
        let (got, _) = invisible_occurrences(b"foo \nbar\nfoo", &["foo\n"], &whole, &Rarity::of(b"foo \nbar\nfoo"));
        assert_eq!(got[0], (2, vec![0, 9]));
        // Anywhere, the line break is one: the last line does not hold it.
        let (got, _) = invisible_occurrences(
            b"foo \nbar\nfoo",
            &["foo\n"],
            &Scope::default(),
            &Rarity::of(b"foo \nbar\nfoo"),
        );
        assert_eq!(got[0], (1, vec![0]));
        // A text ending with a terminator has no open end: the last line counts once.
        let (got, _) = invisible_occurrences(
            b"foo \nbar\nfoo\n",
            &["foo\n"],
            &whole,
            &Rarity::of(b"foo \nbar\nfoo\n"),
        );
        assert_eq!(got[0], (2, vec![0, 9]));
        // A needle that is only a line break has no variant (an empty needle finds nothing).
        let (got, _) = invisible_occurrences(b"a\n\nb", &["\n"], &whole, &Rarity::of(b"a\n\nb"));
        assert_eq!(got[0].0, 1);
    }

    #[test]
    fn an_anchor_too_common_to_window_is_not_known() {
        // Past MAX_ANCHOR_HITS the needle is searched in one full pass and its anchor's places are
        // dropped: they must not be handed on as every place of the run (an empty list would tell
        // later tiers it occurs nowhere). Issue 16's mutation run: the filter's `&&` as `||`.
        let text = "x;\n".repeat(MAX_ANCHOR_HITS + 1) + "y = 1;\n";
        let (got, known) = invisible_occurrences(
            text.as_bytes(),
            &["x;", "y = 1;"],
            &Scope::default(),
            &Rarity::of(text.as_bytes()),
        );
        assert_eq!(got[0].0, MAX_ANCHOR_HITS + 1);
        assert_eq!(got[0].1, (0..MAX_LISTED).map(|i| 3 * i).collect::<Vec<_>>());
        assert_eq!(got[1], (1, vec![3 * (MAX_ANCHOR_HITS + 1)]));
        assert_eq!(
            known,
            KnownRuns::from([("1;".to_string(), vec![3 * (MAX_ANCHOR_HITS + 1) + 4])])
        );
    }

    #[test]
    fn probes_in_pieces_agree_with_the_whole_view() {
        // Words split across piece boundaries, typographic characters folded into them, and one
        // word found nowhere.
        let mut text = String::new();
        for i in 0..200 {
            text.push_str(&format!(
                "let value_{i} = \u{201C}caf\u{e9}\u{201D}; // r\u{e9}sum\u{e9} {i}\n"
            ));
        }
        let needle = pattern("let value_7 = \"caf\u{e9}\";", Fold::UNICODE);
        let probes = ["value_199", "\"caf\u{e9}\"", "value_7 ", "absent_word", "resum"];
        let whole = normalize(text.as_bytes(), Fold::UNICODE);
        let expected: Vec<bool> = probes.iter().map(|p| whole.text.contains(p)).collect();
        assert_eq!(expected, [true, true, true, false, false]);
        for chunk in [7, 64, 1 << 20] {
            let before = set_search_chunk(chunk);
            let view = || std::rc::Rc::new(normalize(text.as_bytes(), Fold::UNICODE));
            let got = find_all_probing(
                text.as_bytes(),
                Fold::UNICODE,
                view,
                || true,
                &[&needle],
                &[MAX_LISTED],
                &Scope::default(),
                &probes.iter().map(|p| vec![*p]).collect::<Vec<_>>(),
                &KnownRuns::new(),
                &Rarity::of(text.as_bytes()),
            );
            set_search_chunk(before);
            assert_eq!(got.2.as_deref(), Some(&expected[..]), "pieces of {chunk} bytes");
            assert_eq!(got.1, vec![1]);
        }
    }

    /// The unicode tier the plain way: the whole text normalized, searched in one pass, and the
    /// probes looked up in the whole view.
    /// The unicode tier's search of `text` for `n`, each probe a group of its own, which must take
    /// the windowed path (it builds no whole view).
    #[allow(clippy::type_complexity)]
    fn windowed_unicode_search(
        text: &str,
        n: &Pattern,
        probes: &[&str],
    ) -> (Vec<Vec<Range<usize>>>, Vec<usize>, Option<Vec<bool>>) {
        find_all_probing(
            text.as_bytes(),
            Fold::UNICODE,
            || unreachable!("the whole view is not built"),
            || unreachable!("asked under the exact fold only"),
            &[n],
            &[MAX_LISTED],
            &Scope::default(),
            &probes.iter().map(|p| vec![*p]).collect::<Vec<_>>(),
            &KnownRuns::new(),
            &Rarity::of(text.as_bytes()),
        )
    }

    fn unicode_reference(
        text: &[u8],
        needles: &[&Pattern],
        probes: &[&str],
    ) -> (Vec<Vec<Range<usize>>>, Vec<usize>, Vec<bool>) {
        let scope = Scope::default();
        let caps = vec![MAX_LISTED; needles.len()];
        let mut scan = Scan::new(needles, &caps, &scope, text, true);
        let hay = normalize(text, Fold::UNICODE);
        if let Some(ac) = scan.automaton() {
            scan.scan(&ac, &hay, 0, None);
        }
        let (spans, counts) = scan.finish();
        let seen = probes.iter().map(|p| hay.text.contains(p)).collect();
        (spans, counts, seen)
    }

    #[test]
    fn windowed_unicode_search_finds_compatibility_forms_and_skips_composed_letters() {
        // A full-width letter and a ligature fold to ASCII; `e` + U+0301 composes to `é`, so `cafe`
        // is in the original but not in the view.
        let text = "let \u{FF21}lpha = 1;\nlet \u{FB01}le = \u{201C}x\u{201D};\nlet cafe\u{301} = 2;\nlet cafe = 3;\n";
        for (old, probes) in [
            ("let Alpha = 1;", vec!["Alpha"]),
            ("let file = \"x\";", vec!["file"]),
            ("let cafe = 3;", vec!["cafe"]),
            ("let cafe", vec!["cafe", "zzz"]),
        ] {
            let n = pattern(old, Fold::UNICODE);
            let got = windowed_unicode_search(text, &n, &probes);
            let want = unicode_reference(text.as_bytes(), &[&n], &probes);
            assert_eq!((got.0, got.1, got.2.unwrap()), want, "{old}");
        }
        assert!(may_fold_to_ascii('\u{FF21}') && may_fold_to_ascii('\u{2014}') && may_fold_to_ascii('\u{A0}'));
        assert!(!may_fold_to_ascii('\u{E9}') && !may_fold_to_ascii('\u{4E2D}'));
    }

    #[test]
    fn a_probe_that_is_not_ascii_counts_as_present() {
        // `cafe` + U+0301 composes to `café` in the view, which the original does not hold as such:
        // a word that is not ASCII is not looked for in the original (it would be missed there and
        // rule a tier out wrongly). Issue 16's mutation run: `!p.is_ascii() || p.is_empty()` as `&&`.
        let text = "let cafe\u{301} = 1;\n";
        let n = pattern("let", Fold::UNICODE);
        let probes = ["caf\u{e9}"];
        let got = windowed_unicode_search(text, &n, &probes);
        let want = unicode_reference(text.as_bytes(), &[&n], &probes);
        assert_eq!(want.2, [true]);
        assert_eq!((got.0, got.1, got.2.unwrap()), want);
    }

    #[test]
    fn first_non_ascii_agrees_with_a_byte_by_byte_search() {
        // Texts shorter and longer than the 32-byte blocks tested at once, the first non-ASCII byte
        // anywhere in them: a character of two bytes (`é`, whose high bits cancel under xor), of
        // three, or U+0080, with another after it. Issue 16's mutation run over `first_non_ascii`.
        for len in 0..100 {
            let ascii = "a".repeat(len);
            assert_eq!(first_non_ascii(ascii.as_bytes()), None, "{len}");
            for at in 0..=len {
                for first in ["\u{e9}", "\u{201C}", "\u{80}"] {
                    let text = format!("{}{first}{}\u{e9}", &ascii[..at], &ascii[at..]);
                    assert_eq!(first_non_ascii(text.as_bytes()), Some(at), "{first:?} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn a_word_is_present_on_an_ascii_line_or_where_a_line_keeps_it_normalized() {
        // `cafe` + U+0301 composes to `café`: such a line holds `cafe` in the original only, and is
        // normalized to tell (at the start of the text too). Up to MAX_PROBE_RECHECKS such lines are
        // checked; past them the word counts as present unchecked (the caller only rules tiers out
        // with a missing word). Issue 16's mutation run over `word_present`.
        let present = |text: &str| {
            let finder = memchr::memmem::Finder::new("cafe");
            word_present(text.as_bytes(), &finder, &mut String::new())
        };
        let in_view = |text: &str| normalize(text.as_bytes(), Fold::UNICODE).text.contains("cafe");
        let composed = "cafe\u{301} = 1;\n";
        for text in [
            composed.to_string(),
            format!("{composed}let cafe = 2;\n"),
            format!("{composed}let \u{4E2D} = cafe;\n"),
            format!("x\n{composed}{composed}cafe\u{301}"),
            "x\n".to_string(),
            composed.repeat(MAX_PROBE_RECHECKS),
            composed.repeat(MAX_PROBE_RECHECKS) + "cafe\n",
        ] {
            assert_eq!(present(&text), in_view(&text), "{text:?}");
        }
        let many = composed.repeat(MAX_PROBE_RECHECKS + 1);
        assert!(!in_view(&many));
        assert!(present(&many), "given up past MAX_PROBE_RECHECKS lines: present");
    }

    #[test]
    fn a_group_has_a_missing_word_when_the_view_lacks_one_of_its_words() {
        // Words answered by passes over the text (found on an ASCII line, or nowhere) and on a line
        // that folds to ASCII, in groups of one to three: a group has a word answered missing
        // exactly when the whole view lacks one of its words, and no word the view holds is
        // answered missing. Issue 16's mutation run over `Windows::plan`: `missing = !*found`
        // without `!`, the group's offset not moved on (`k += group.len()` as `*=`).
        let text = "let present = 1;\nlet other = \u{201C}2\u{201D};\n";
        let n = pattern("let other = \"2\";", Fold::UNICODE);
        let groups: Vec<Vec<&str>> = vec![
            vec!["present", "absent"],
            vec!["absent", "present"],
            vec!["gone", "absent"],
            vec!["present"],
            vec!["let", "present", "other"],
            vec!["nowhere"],
            vec!["other", "absent", "let"],
        ];
        let plan = Windows::plan(
            text.as_bytes(),
            &[&n],
            &groups,
            &KnownRuns::new(),
            &Rarity::of(text.as_bytes()),
        )
        .expect("a plan");
        let view = normalize(text.as_bytes(), Fold::UNICODE);
        assert_eq!(plan.seen.len(), groups.iter().map(Vec::len).sum::<usize>());
        let mut answers = plan.seen.iter();
        for group in &groups {
            let got: Vec<bool> = group.iter().map(|_| *answers.next().unwrap()).collect();
            let held: Vec<bool> = group.iter().map(|w| view.text.contains(w)).collect();
            assert_eq!(got.contains(&false), held.contains(&false), "{group:?}: {got:?}");
            assert!(got.iter().zip(&held).all(|(g, h)| *g || !*h), "{group:?}: {got:?}");
        }
    }

    #[test]
    fn windows_are_the_merged_neighbourhoods_of_the_anchor_lines() {
        // A one-line needle's window runs from the line above its anchor's line to the line below;
        // the windows of adjacent hits overlap and merge into one, a distant hit keeps its own, and
        // the bytes covered are counted once (six overlapping windows of long lines are well under
        // the limit). Issue 16's mutation run over `Windows::plan`'s merge.
        let (filler, hit) = ("short\n", "key = value_of_something_long;\n");
        let lines: Vec<&str> = [
            vec![filler; 3],
            vec![hit; 6],
            vec![filler; 10],
            vec![hit],
            vec![filler; 3],
        ]
        .concat();
        let text = lines.concat();
        let mut starts = vec![0];
        for l in &lines {
            starts.push(starts.last().unwrap() + l.len());
        }
        let n = pattern(hit.trim_end(), Fold::UNICODE);
        let plan = Windows::plan(
            text.as_bytes(),
            &[&n],
            &[],
            &KnownRuns::new(),
            &Rarity::of(text.as_bytes()),
        )
        .expect("a plan");
        // Hits on lines 3 to 8 and 19: lines 2 to 9 and 18 to 20.
        assert_eq!(plan.windows, [starts[2]..starts[10], starts[18]..starts[21]]);
        let got = windowed_unicode_search(&text, &n, &[]);
        let want = unicode_reference(text.as_bytes(), &[&n], &[]);
        assert_eq!((got.0, got.1), (want.0, want.1));
    }

    #[test]
    fn a_large_text_takes_the_whole_pass_when_most_of_its_start_needs_normalizing() {
        // Told from the first sixteenth of a text over 1 MiB: more than half of its bytes on lines
        // that need normalizing (every other line, the longer ones) gives the windows up; one such
        // line at the start of a text otherwise ASCII does not. Issue 16's mutation run over the
        // condition in `Windows::plan`.
        let n = pattern("end - here", Fold::UNICODE);
        let plan = |text: &str| {
            Windows::plan(
                text.as_bytes(),
                &[&n],
                &[],
                &KnownRuns::new(),
                &Rarity::of(text.as_bytes()),
            )
            .is_some()
        };
        let (ascii, quoted, last) = (
            "0123456789 abcdefghij\n",
            "She said \u{201C}hello\u{201D} and left at once.\n",
            "end \u{2014} here\n",
        );
        let one_quote = quoted.to_string() + &ascii.repeat((1 << 21) / ascii.len()) + last;
        assert!(plan(&one_quote), "one line to normalize");
        let alternating = (quoted.to_string() + ascii).repeat((1 << 21) / (quoted.len() + ascii.len())) + last;
        assert!(
            !plan(&alternating),
            "{} of {} bytes to normalize",
            quoted.len(),
            quoted.len() + ascii.len()
        );
        // Lines whose characters do not fold to ASCII (CJK) are not normalized at all.
        let cjk = "let \u{540D}\u{524D} = 1;\n".repeat((1 << 21) / 16) + last;
        assert!(plan(&cjk), "no line folds to ASCII");
    }

    /// The exact tier's search of `n` in `text`, told the anchor places in `known` (`has_crs`: what
    /// the caller says of the text's CRs), as (spans, count).
    fn exact_search_told(text: &[u8], n: &Pattern, known: &KnownRuns, has_crs: bool) -> (Vec<(usize, usize)>, usize) {
        let view = || std::rc::Rc::new(normalize(text, Fold::EXACT));
        let (spans, counts, _) = find_all_probing(
            text,
            Fold::EXACT,
            view,
            || has_crs,
            &[n],
            &[MAX_LISTED],
            &Scope::default(),
            &[],
            known,
            &Rarity::of(text),
        );
        (spans[0].iter().map(|s| (s.start, s.end)).collect(), counts[0])
    }

    #[test]
    fn the_exact_tier_searches_only_around_the_known_places_of_its_anchor() {
        // Without probes, the exact search of a text without CRs takes the places of the needle's
        // anchor that the invisible count found rather than scanning the whole text again (issue
        // 12): told the run occurs nowhere, it finds nothing; told one place, the occurrence there
        // only; told two, those two and not the one between them (the windows are searched apart).
        // Issue 16's mutation run: `find_all_probing`'s arm for the windows deleted, `char_windows`
        // merging every window (its guard as `true`).
        let text = b"x = value;\ny = value;\nz = value;\n";
        let n = pattern("= value;", Fold::EXACT);
        let (run, _) = anchor(&n.text, &Rarity::of(text)).expect("an anchor");
        assert_eq!(run, "value;");
        let search = |known: KnownRuns| exact_search_told(text, &n, &known, false);
        assert_eq!(search(KnownRuns::new()), (vec![(2, 10), (13, 21), (24, 32)], 3));
        assert_eq!(search(KnownRuns::from([(run.to_string(), vec![])])), (vec![], 0));
        assert_eq!(
            search(KnownRuns::from([(run.to_string(), vec![15])])),
            (vec![(13, 21)], 1)
        );
        assert_eq!(
            search(KnownRuns::from([(run.to_string(), vec![4, 26])])),
            (vec![(2, 10), (24, 32)], 2)
        );
    }

    #[test]
    fn the_exact_tier_of_a_text_with_crs_searches_the_lines_around_the_known_places() {
        // A text with CRs: its exact view is not the text, so the windows are the whole lines
        // around each known place of the anchor (issue 30). Told every place, the search finds
        // what the whole pass finds (a needle over a CRLF, its span in the original's bytes); told
        // none, nothing; told one place, the occurrence holding the anchor there or nothing. Every
        // run of the needle is in the text more than once, so some place holds no occurrence.
        let text = b"a = value;\r\nb = value;\r\nb = other;\r\nvalue;\r\n";
        let n = pattern("value;\nb = value;", Fold::EXACT);
        let (run, _) = anchor(&n.text, &Rarity::of(text)).expect("an anchor");
        let places: Vec<usize> = (0..text.len())
            .filter(|&i| text[i..].starts_with(run.as_bytes()))
            .collect();
        assert!(places.len() > 1, "{run:?}");
        let search =
            |places: Vec<usize>| exact_search_told(text, &n, &KnownRuns::from([(run.to_string(), places)]), true);
        let whole = {
            let view = || std::rc::Rc::new(normalize(text, Fold::EXACT));
            let (spans, counts) = find_all_in(
                text,
                Fold::EXACT,
                view,
                &[&n],
                &[MAX_LISTED],
                &Scope::default(),
                &Rarity::of(text),
            );
            (spans[0].iter().map(|s| (s.start, s.end)).collect::<Vec<_>>(), counts[0])
        };
        assert_eq!(whole, (vec![(4, 22)], 1));
        assert_eq!(search(places.clone()), whole);
        assert_eq!(search(vec![]), (vec![], 0));
        let one_by_one: Vec<_> = places.iter().map(|&p| search(vec![p])).collect();
        assert_eq!(
            one_by_one.iter().filter(|got| **got == whole).count(),
            1,
            "{one_by_one:?}"
        );
        assert!(
            one_by_one.iter().all(|got| *got == whole || *got == (vec![], 0)),
            "{one_by_one:?}"
        );
    }

    #[test]
    fn shortest_period_agrees_with_its_definition() {
        // Every text over two letters up to 12 bytes and over three up to 7, against the least `p`
        // with `s[i] == s[i + p]` throughout (issue 16's mutation run over the prefix function).
        let naive = |s: &[u8]| {
            (1..=s.len())
                .find(|&p| (0..s.len() - p).all(|i| s[i] == s[i + p]))
                .unwrap_or(0)
        };
        for (letters, longest) in [(2u32, 12u32), (3, 7)] {
            for len in 0..=longest {
                for mut code in 0..letters.pow(len) {
                    let s: Vec<u8> = (0..len)
                        .map(|_| {
                            let letter = b'a' + (code % letters) as u8;
                            code /= letters;
                            letter
                        })
                        .collect();
                    assert_eq!(shortest_period(&s), naive(&s), "{:?}", String::from_utf8_lossy(&s));
                }
            }
        }
    }

    /// Each way the windowed unicode search gives up for the whole pass: the plan says so, and the
    /// result is the whole view's.
    #[test]
    fn every_fallback_of_the_windowed_search_gives_the_whole_views_result() {
        let check = |text: &str, old: &str, probes: &[&str]| {
            let n = pattern(old, Fold::UNICODE);
            let groups: Vec<Vec<&str>> = probes.iter().map(|p| vec![*p]).collect();
            assert!(
                Windows::plan(
                    text.as_bytes(),
                    &[&n],
                    &groups,
                    &KnownRuns::new(),
                    &Rarity::of(text.as_bytes())
                )
                .is_none(),
                "the windowed plan is given up for {old:?}"
            );
            let view = || std::rc::Rc::new(normalize(text.as_bytes(), Fold::UNICODE));
            let caps = [MAX_LISTED];
            let got = find_all_probing(
                text.as_bytes(),
                Fold::UNICODE,
                view,
                || true,
                &[&n],
                &caps,
                &Scope::default(),
                &groups,
                &KnownRuns::new(),
                &Rarity::of(text.as_bytes()),
            );
            let want = unicode_reference(text.as_bytes(), &[&n], probes);
            assert_eq!((got.0, got.1, got.2.unwrap()), want, "{old:?}");
        };
        // No ASCII anchor: the needle, once normalized, holds no ASCII but blanks.
        check(
            "a \u{4E2D}\u{A0}\u{6587} b\n\u{4E2D} \u{6587}\n",
            "\u{4E2D} \u{6587}",
            &["b"],
        );
        // The anchor occurs more often than the windows are worth: found so (every part of the
        // needle is on every line), and estimated so from the sample of a larger text.
        let many = "let value = \"1\";\n".repeat(MAX_WINDOWED_HITS + 1) + "let value = \u{201C}1\u{201D};\n";
        check(&many, "let value = \"1\";", &["value"]);
        let more = "let value = \"1\";\n".repeat(1 << 16) + "let value = \u{201C}1\u{201D};\n";
        check(&more, "let value = \"1\";", &["value"]);
        // The window around an anchor's place is too large to be worth one (long lines).
        let wide = format!("{}\n", "w".repeat(MAX_WINDOW)).repeat(2) + "key \u{2014} k\n";
        check(&wide, "key - k", &["key"]);
        // The windows around the anchor's places (fewer than the hit limit) cover more than half
        // the text.
        // (Every part of the needle is on those lines, so whichever is its anchor.)
        let covering = format!("key - k {}\n", "w".repeat(191)).repeat(1000) + "key \u{2014} k\n";
        check(&covering, "key - k", &["key"]);
        // So do windows apart from each other (the anchor on every third line: each window its own,
        // none merged), counted one by one. Issue 16's mutation run: `covered += w.len()` as `*=`.
        let apart = format!("key - k {}\n{}\n{}\n", "w".repeat(91), "v".repeat(99), "u".repeat(99)).repeat(1000)
            + "key \u{2014} k\n";
        check(&apart, "key - k", &["key"]);
        // A large text most of whose first lines need normalizing (prose with typographic quotes).
        let prose = "She said \u{201C}hello\u{201D} and left.\n".repeat((1 << 21) / 36) + "end \u{2014} here\n";
        check(&prose, "end - here", &["end"]);
    }

    /// `pieces` concatenated, with each of `invalid` spliced in where the text so far is valid UTF-8.
    fn with_invalid_bytes(pieces: &[&str], invalid: &[&[u8]]) -> Vec<u8> {
        let mut text = pieces.concat().into_bytes();
        for (i, bad) in invalid.iter().enumerate() {
            let at = (i * 7) % (text.len() + 1);
            if std::str::from_utf8(&text[..at]).is_ok() {
                text.splice(at..at, bad.iter().copied());
            }
        }
        text
    }

    proptest! {
        /// Whichever part of a needle is its anchor (a window of any run its fold leaves alone,
        /// forced by the seed; issue 30), the invisible count, the exact tier searching around the
        /// anchor places that count found, and the `unicode` tier's windows find what the whole
        /// pass finds. Lines long and short, special spaces in the text where the needle has a
        /// space (windows of bytes must hold the wider occurrence), invalid bytes and U+FFFD.
        #[test]
        fn every_choice_of_anchor_finds_what_the_whole_pass_finds(
            pieces in prop::collection::vec(prop::sample::select(vec![
                "a", "b", "ab", "aba", " ", "\t", "\n", "\r\n", "\r", "\u{a0}", "\u{3000}", "\u{2014}", "\u{201C}",
                "\"", "\u{e9}", "\u{FFFD}", "x = 1;", "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww", "-",
            ]), 0..80),
            invalid in prop::collection::vec(prop::sample::select(vec![&b"\xff"[..], b"\xe2\x82", b""]), 0..3),
            start in any::<prop::sample::Index>(),
            len in 1usize..24,
            spaces in any::<bool>(),
            seed in any::<u64>(),
            scope_kind in 0usize..3,
        ) {
            let text = with_invalid_bytes(&pieces, &invalid);
            let source = pieces.concat();
            let chars: Vec<char> = source.chars().collect();
            if chars.is_empty() {
                return Ok(());
            }
            let s = start.index(chars.len());
            let mut old: String = chars[s..(s + len).min(chars.len())].iter().collect();
            old = old.replace("\r\n", "\n").replace('\r', "\n");
            if spaces {
                // The model typed a space where the text has a special one.
                old = old.replace(['\u{a0}', '\u{3000}'], " ");
            }
            if old.is_empty() {
                return Ok(());
            }
            let scope = match scope_kind {
                0 => Scope::default(),
                1 => Scope::default().whole_lines(),
                _ => Scope::default().within(text.len() / 3..text.len()),
            };
            let rarity = Rarity::of(&text);
            let (got, known) = crate::find::anchors::forced::with_seed(seed, || {
                invisible_occurrences(&text, &[&old], &scope, &rarity)
            });
            let whole = {
                let hay = std::rc::Rc::new(normalize(&text, Fold::INVISIBLE));
                let n = pattern(&old, Fold::INVISIBLE);
                let mut needles = vec![pattern(&old, Fold::INVISIBLE)];
                needles.extend(n.at_end_variant(&scope, &text).map(|v| Pattern { at_end_only: true, ..v }));
                let refs: Vec<&Pattern> = needles.iter().collect();
                let caps = vec![MAX_LISTED; refs.len()];
                let (spans, counts) = find_all_in(&text, Fold::INVISIBLE, || hay, &refs, &caps, &scope, &rarity);
                let mut starts: Vec<usize> = spans.iter().flatten().map(|s| s.start).collect();
                starts.truncate(MAX_LISTED);
                (counts.iter().sum::<usize>(), starts)
            };
            prop_assert_eq!(&got[0], &whole, "{:?} in {:?}", old, String::from_utf8_lossy(&text));
            // The exact tier around the places found, against its whole pass (texts with CRs are
            // windowed by whole lines).
            if std::str::from_utf8(&text).is_ok() {
                let has_cr = text.contains(&b'\r');
                let n = pattern(&old, Fold::EXACT);
                let mut needles = vec![pattern(&old, Fold::EXACT)];
                needles.extend(n.at_end_variant(&scope, &text));
                let refs: Vec<&Pattern> = needles.iter().collect();
                let caps = vec![usize::MAX; refs.len()];
                let search = |known: &KnownRuns| {
                    let view = || std::rc::Rc::new(normalize(&text, Fold::EXACT));
                    let got = crate::find::anchors::forced::with_seed(seed, || {
                        find_all_probing(&text, Fold::EXACT, view, || has_cr, &refs, &caps, &scope, &[], known, &rarity)
                    });
                    (got.0, got.1)
                };
                prop_assert_eq!(search(&known), search(&KnownRuns::new()), "exact: {:?}", old);
            }
            // The unicode tier's windows, their anchors forced too.
            let n = pattern(&old, Fold::UNICODE);
            let view = || std::rc::Rc::new(normalize(&text, Fold::UNICODE));
            let got = crate::find::anchors::forced::with_seed(seed, || {
                find_all_probing(&text, Fold::UNICODE, view, || true, &[&n], &[MAX_LISTED], &Scope::default(), &[], &known, &rarity)
            });
            let want = unicode_reference(&text, &[&n], &[]);
            prop_assert_eq!((got.0, got.1), (want.0, want.1), "unicode: {:?}", old);
        }

        #[test]
        fn windows_agree_with_the_full_pass(
            pieces in prop::collection::vec(prop::sample::select(vec![
                "a", "b", "ab", " ", "\t", "\n", "\r\n", "\r", "\u{a0}", "\u{2014}", "\u{FFFD}", "x = 1;",
            ]), 0..60),
            invalid in prop::collection::vec(prop::sample::select(vec![&b"\xff"[..], b"\xe2\x82", b""]), 0..3),
            start in any::<prop::sample::Index>(),
            len in 1usize..12,
        ) {
            let text = with_invalid_bytes(&pieces, &invalid);
            let source = pieces.concat();
            let chars: Vec<char> = source.chars().collect();
            if chars.is_empty() {
                return Ok(());
            }
            let s = start.index(chars.len());
            let old: String = chars[s..(s + len).min(chars.len())].iter().collect();
            let old = old.replace("\r\n", "\n").replace('\r', "\n");
            if old.is_empty() {
                return Ok(());
            }
            prop_assert_eq!(&invisible_occurrences(&text, &[&old], &Scope::default(), &Rarity::of(&text)).0[0], &reference(&text, &old), "{:?} in {:?}", old, String::from_utf8_lossy(&text));
        }

        /// The substring finder reports what the automaton reports: every occurrence, overlapping
        /// ones included, in the same order, for long patterns periodic or not.
        #[test]
        fn the_substring_finder_agrees_with_the_automaton(
            unit in prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c']), 1..40),
            tail in prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c']), 0..300),
            cut in any::<prop::sample::Index>(),
            gaps in prop::collection::vec(prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c']), 0..50), 0..6),
        ) {
            // `base` then a prefix of it: a needle with a period of `base`'s length (at least half of
            // it), which occurs twice, overlapping, in `base` twice then the prefix.
            let unit: String = unit.into_iter().collect();
            let mut base = unit.repeat(FINDER_FROM_BYTES / unit.len() + 1);
            base.extend(tail);
            let needle = format!("{base}{}", &base[..cut.index(base.len())]);
            let mut text = String::new();
            for gap in &gaps {
                text.extend(gap.iter());
                text.push_str(&base);
                text.push_str(&needle);
                text.push_str(&needle[needle.len() / 3..]);
            }
            let automaton = AhoCorasick::builder().match_kind(MatchKind::Standard).build([needle.as_str()]).unwrap();
            let expected: Vec<(usize, usize, usize)> = automaton
                .find_overlapping_iter(text.as_bytes())
                .map(|m| (m.pattern().as_usize(), m.start(), m.end()))
                .collect();
            let got: Vec<(usize, usize, usize)> = Searcher::new(&[needle.as_str()]).overlapping(text.as_bytes()).collect();
            prop_assert_eq!(got, expected);
        }

        /// The exact tier searching only around the anchor places the invisible count found
        /// ([`exact_windows`]) finds what a pass over the whole text finds: the same spans in the
        /// same order and the same counts, for a needle and its open-end variant, in every scope.
        #[test]
        fn exact_search_around_known_anchors_agrees_with_the_full_pass(
            pieces in prop::collection::vec(prop::sample::select(vec![
                "a", "b", "ab", "aba", " ", "\t", "\n", "\r\n", "\r", "\u{a0}", "\u{2014}", "\u{e9}", "x = 1;",
            ]), 0..60),
            start in any::<prop::sample::Index>(),
            len in 1usize..14,
            scope_kind in 0usize..4,
        ) {
            let text = pieces.concat();
            let chars: Vec<char> = text.chars().collect();
            if chars.is_empty() {
                return Ok(());
            }
            let s = start.index(chars.len());
            let old: String = chars[s..(s + len).min(chars.len())].iter().collect();
            let scope = match scope_kind {
                0 => Scope::default(),
                1 => Scope::default().whole_lines(),
                2 => Scope::default().within(text.len() / 3..text.len()),
                _ => Scope::everywhere(),
            };
            let (_, known) = invisible_occurrences(text.as_bytes(), &[&old], &scope, &Rarity::of(text.as_bytes()));
            let needle = pattern(&old, Fold::EXACT);
            let mut needles = vec![pattern(&old, Fold::EXACT)];
            needles.extend(needle.at_end_variant(&scope, text.as_bytes()));
            let refs: Vec<&Pattern> = needles.iter().collect();
            let caps = vec![usize::MAX; refs.len()];
            let search = |known: &KnownRuns| {
                let view = || std::rc::Rc::new(normalize(text.as_bytes(), Fold::EXACT));
                let got = find_all_probing(text.as_bytes(), Fold::EXACT, view, || text.contains('\r'), &refs, &caps, &scope, &[], known, &Rarity::of(text.as_bytes()));
                (got.0, got.1)
            };
            prop_assert_eq!(search(&known), search(&KnownRuns::new()), "{:?} in {:?}", old, text);
        }

        #[test]
        fn windowed_unicode_search_agrees_with_the_whole_view(
            pieces in prop::collection::vec(prop::sample::select(vec![
                "a", "b", "ab", "fi", "e", " ", "\t", "\n", "\r\n", "\r", "\u{a0}", "\u{2014}", "-", "\"",
                "\u{201C}", "\u{FB01}", "\u{FF41}", "\u{301}", "\u{E9}", "\u{2122}", "\u{212A}", "K", "\u{FFFD}",
                "\u{4E2D}", "x = 1;",
            ]), 0..60),
            invalid in prop::collection::vec(prop::sample::select(vec![&b"\xff"[..], b"\xe2\x82", b""]), 0..3),
            start in any::<prop::sample::Index>(),
            len in 1usize..14,
            other in prop::collection::vec(prop::sample::select(vec!["a", "b", "fi", "K", "-", "\"", " ", "\n", "x"]), 1..6),
        ) {
            let text = with_invalid_bytes(&pieces, &invalid);
            let source = pieces.concat();
            let chars: Vec<char> = source.chars().collect();
            let s = if chars.is_empty() { 0 } else { start.index(chars.len()) };
            let taken: String = chars[s..(s + len).min(chars.len())].iter().collect();
            let taken = taken.replace("\r\n", "\n").replace('\r', "\n");
            let made_up = other.concat();
            let olds = [taken.as_str(), made_up.as_str()];
            let needles: Vec<Pattern> = olds.iter().map(|o| pattern(o, Fold::UNICODE)).collect();
            let refs: Vec<&Pattern> = needles.iter().collect();
            let probes = ["ab", "fi", "file", "ea", "KK", "x = 1"];
            let scope = Scope::default();
            let caps = vec![MAX_LISTED; refs.len()];
            let view = || std::rc::Rc::new(normalize(&text, Fold::UNICODE));
            // The anchors' places as the invisible count found them, reused.
            let (_, known) = invisible_occurrences(&text, &olds, &scope, &Rarity::of(&text));
            let got = find_all_probing(&text, Fold::UNICODE, view, || true, &refs, &caps, &scope, &probes.map(|p| vec![p]), &known, &Rarity::of(&text));
            let want = unicode_reference(&text, &refs, &probes);
            prop_assert_eq!(&got.0, &want.0, "{:?} in {:?}", olds, String::from_utf8_lossy(&text));
            prop_assert_eq!(&got.1, &want.1);
            if let Some(seen) = got.2 {
                prop_assert_eq!(seen, want.2);
            }
        }
    }
}
