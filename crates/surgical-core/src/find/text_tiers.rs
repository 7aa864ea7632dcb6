//! The text tiers — `exact`, `trailing_whitespace`, `unicode` — for the needles still unplaced:
//! one search of the tier's normalized view for all of them (the `search` module's Aho–Corasick
//! pass), then each needle's spans shaped into a [`Match`]. Searching only: what a count of
//! occurrences means (nothing, a match, an ambiguity) is the tier ladder's to decide.

use std::borrow::Cow;
use std::ops::Range;

use crate::find::forgiven::Forgiven;
use crate::find::haystack::Haystack;
use crate::find::needle::{Match, MAX_LISTED};
use crate::find::scope::Scope;
use crate::find::search::{find_all_probing, pattern, KnownRuns, Pattern};
use crate::find::tier::Tier;
use crate::text::lines::is_line_start;
use crate::text::normalize::Fold;

/// One text tier for the `pending` needles: each one's spans in scope (all of them for `every`,
/// else the first [`MAX_LISTED`]) and count, and whether its last span is an open end.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub(crate) fn search(
    hay: &Haystack<'_>,
    tier: Tier,
    olds: &[Cow<'_, str>],
    every: &[bool],
    pending: &[usize],
    scope: &Scope,
    probes: &[Vec<&str>],
    known: &KnownRuns,
) -> ((Vec<(Vec<Range<usize>>, usize)>, Vec<bool>), Option<Vec<bool>>) {
    let text = hay.text();
    let fold = tier.fold();
    let mut patterns: Vec<Pattern> = pending.iter().map(|&i| pattern(&olds[i], fold)).collect();
    if fold == Fold::TRAILING && patterns.iter().all(|p| absent_under_trailing(text, &p.text, known)) {
        // Nothing to find: the view is not built.
        return ((vec![(Vec::new(), 0); pending.len()], vec![false; pending.len()]), None);
    }
    let mut caps: Vec<usize> = pending
        .iter()
        .map(|&i| if every[i] { usize::MAX } else { MAX_LISTED })
        .collect();
    // A needle's last line break may stand for the end of a text without one (whole lines only).
    let mut owners: Vec<usize> = (0..pending.len()).collect();
    for k in 0..pending.len() {
        if let Some(open) = patterns[k].at_end_variant(scope, text) {
            patterns.push(open);
            caps.push(caps[k]);
            owners.push(k);
        }
    }
    let refs: Vec<&Pattern> = patterns.iter().collect();
    let (spans, counts, seen) = find_all_probing(
        text,
        fold,
        || hay.view(tier),
        || hay.has_cr(),
        &refs,
        &caps,
        scope,
        probes,
        known,
        hay.rarity(),
    );
    let mut hits: Vec<(Vec<Range<usize>>, usize)> = vec![(Vec::new(), 0); pending.len()];
    let mut open_end = vec![false; pending.len()];
    for (p, (spans, count)) in spans.into_iter().zip(counts).enumerate() {
        let k = owners[p];
        open_end[k] |= p >= pending.len() && count > 0;
        // The open-end variant's one match starts after all of the needle's own: order holds.
        hits[k].0.extend(spans);
        hits[k].0.truncate(caps[k]);
        hits[k].1 += count;
    }
    ((hits, open_end), seen)
}

/// The match of needle `old` that tier `tier` found at `spans` (`open_end`: its last span is an
/// open end): occurrences overlapping an earlier one dropped, a last line's trailing blanks taken
/// in, and under [`Scope::indented_first_line`] a first line the text indents more, noted.
pub(crate) fn matched(
    text: &[u8],
    tier: Tier,
    spans: Vec<Range<usize>>,
    old: &str,
    open_end: bool,
    scope: &Scope,
) -> Match {
    let mut spans = disjoint(spans);
    for k in 0..spans.len() {
        let wider = over_trailing_blanks(text, spans[k].clone(), old, scope);
        // Never into the next occurrence (a needle that starts with a blank).
        if spans.get(k + 1).is_none_or(|next| wider.end <= next.start) {
            spans[k] = wider;
        }
    }
    let mut m = Match::text(tier, spans, old, open_end);
    if scope.indented_first_line && !is_line_start(text, m.spans[0].start) {
        m.indented_first_line = true;
        m.forgiven = Some(Forgiven::IndentedFirstLine);
    }
    m
}

/// A span whose last line stops where only blanks are left on the file's line (`foo` in `foo  `)
/// takes those blanks in, so the replacement decides about them as it does for a whole line: kept
/// when the model kept the line, its own when it wrote blanks there, gone when it rewrote the line.
/// Left out, they would follow whatever `newText` ends with (doubling blanks it wrote itself, or
/// moving onto an unrelated new line). Not past the scope's range.
fn over_trailing_blanks(text: &[u8], span: Range<usize>, old: &str, scope: &Scope) -> Range<usize> {
    if old.ends_with(['\n', ' ', '\t']) || span.is_empty() {
        return span;
    }
    let blanks = text[span.end..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let end = span.end + blanks;
    let at_line_end = matches!(text.get(end), None | Some(b'\n' | b'\r'));
    let in_scope = scope.within.as_ref().is_none_or(|r| end <= r.end);
    if blanks > 0 && at_line_end && in_scope {
        span.start..end
    } else {
        span
    }
}

/// Occurrences that overlap an earlier one are dropped (every occurrence of `aa` in `aaa`: one).
fn disjoint(spans: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut kept: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    let mut last_end = 0;
    for span in spans {
        if span.start >= last_end {
            last_end = span.end;
            kept.push(span);
        }
    }
    kept
}

/// Whether `needle`, normalized under the `trailing_whitespace` fold, certainly matches nowhere in
/// `text` under that fold. That fold changes only line terminators, the blanks that end a line and
/// invalid bytes (into U+FFFD), so every non-empty line of a match, short of a U+FFFD, is in the
/// text as it is: one pass looking for the needle's longest such line decides it (a text tier that
/// cannot match saves building its view of the whole text). When that line holds a run whose
/// every place in the text is `known`, only those places are looked at.
fn absent_under_trailing(text: &[u8], needle: &str, known: &KnownRuns) -> bool {
    let Some(line) = needle
        .split('\n')
        .filter(|line| !line.is_empty() && !line.contains('\u{FFFD}'))
        .max_by_key(|line| line.len())
    else {
        return false;
    };
    // A known run is a needle's anchor, a part of it without blanks or line breaks: if one is on
    // this line, its places hold every place of the line. (The first such in the runs' order, so
    // that the answer does not depend on the map's.)
    let mut runs: Vec<(&String, &Vec<usize>)> = known.iter().filter(|(run, _)| line.contains(run.as_str())).collect();
    runs.sort_unstable();
    if let Some((run, places)) = runs.first() {
        let at = line.find(run.as_str()).expect("the line holds the run");
        // Wherever the line is, its first place of the run is `at` bytes into it.
        return !places.iter().any(|&p| {
            p.checked_sub(at)
                .and_then(|start| text.get(start..start + line.len()))
                .is_some_and(|t| t == line.as_bytes())
        });
    }
    memchr::memmem::find(text, line.as_bytes()).is_none()
}
