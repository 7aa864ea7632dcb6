//! One segment's readings: the file regions it may replace, each aligned with the segment and
//! scored ([`crate::snippet::scoring`]).

use crate::snippet::align::pairing;
use crate::snippet::keys::{content_weight, is_blank_key, FileLines, FULL};
use crate::snippet::scoring::{Scoring, Terms};
use crate::text::budget::Budget;

/// A segment with more places than this for every line it could anchor by has no reading worth
/// counting one by one: two of them are kept, so that the snippet is refused as ambiguous.
pub(crate) const MAX_PLACES: usize = 256;
/// At most this many tails are paired with one head (the nearest, then each farther one whose run
/// is longer), and as many heads with one tail.
const MAX_PARTNERS: usize = 4;
/// A region longer than the segment by more than this many lines is no reading: it would delete
/// that many lines the snippet does not show.
pub(crate) const MAX_UNSHOWN: usize = 500;
/// A reading that rewrites the file lines next to an anchor run (instead of inserting the
/// segment's other lines beside it) rewrites at most this many.
const MAX_EDGE_REWRITE: usize = 3;

/// A run of segment lines equal to consecutive file lines: segment lines `seg`, file lines `file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    seg: (usize, usize),
    file: (usize, usize),
}

/// One way to place a segment: the file lines `start..end` it replaces, which segment line is which
/// file line (`kept`, absolute file lines), and its score.
#[derive(Clone, Debug)]
pub(crate) struct SegReading {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) kept: Vec<Option<usize>>,
    pub(crate) terms: Terms,
    pub(crate) score: f64,
}

impl SegReading {
    /// Whether the reading changes nothing (every segment line is the file's, nothing deleted).
    pub(crate) fn unchanged(&self) -> bool {
        self.kept.iter().all(Option::is_some) && self.kept.len() == self.end - self.start
    }
}

/// A segment's keys and the file, for the readings of one segment.
pub(crate) struct SegmentLines<'a, 't, 's> {
    pub(crate) file: &'a FileLines<'t>,
    /// The file's lines as compared for the exact preference (trailing blanks kept).
    pub(crate) file_exact: &'a [&'t [u8]],
    pub(crate) keys: &'a [&'s [u8]],
    pub(crate) exact: &'a [&'s [u8]],
}

impl SegmentLines<'_, '_, '_> {
    /// Every reading of the segment in file lines `lo..hi`, scored, best first. Empty when no line
    /// of the segment anchors there. `weak_ok`: a reading anchored by weak lines only counts (inside
    /// a header's block, or where nothing stronger anchors).
    pub(crate) fn readings(&self, lo: usize, hi: usize, scoring: &Scoring) -> Vec<SegReading> {
        let m = self.keys.len();
        let file = self.file;
        let anchored: Vec<usize> = (0..m)
            .filter(|&i| !is_blank_key(self.keys[i]) && !file.places_in(self.keys[i], lo, hi).is_empty())
            .collect();
        if anchored.is_empty() {
            return Vec::new();
        }
        let few = |i: &&usize| file.places_in(self.keys[**i], lo, hi).len() <= MAX_PLACES;
        let strong = |i: &&usize| content_weight(self.keys[**i]) >= FULL;
        // Heads start from the first line that anchors (and the first strong one, when it differs:
        // a new first line the file holds elsewhere must not hide the head after it); tails end at
        // the last ones.
        let mut head_anchors: Vec<usize> = Vec::new();
        let mut tail_anchors: Vec<usize> = Vec::new();
        for pick in [anchored.iter().find(few), anchored.iter().filter(few).find(strong)]
            .into_iter()
            .flatten()
        {
            if !head_anchors.contains(pick) {
                head_anchors.push(*pick);
            }
        }
        for pick in [
            anchored.iter().rev().find(few),
            anchored.iter().rev().filter(few).find(strong),
        ]
        .into_iter()
        .flatten()
        {
            if !tail_anchors.contains(pick) {
                tail_anchors.push(*pick);
            }
        }
        if head_anchors.is_empty() {
            // Every line that anchors does so in more places than can be told apart: two readings,
            // so that the snippet is refused as ambiguous.
            let i = anchored[0];
            return file.places_in(self.keys[i], lo, hi)[..2]
                .iter()
                .map(|&j| self.scored(j, j + 1, lo, hi, scoring))
                .collect();
        }
        let mut runs: Vec<Run> = Vec::new();
        for &i in head_anchors.iter().chain(&tail_anchors) {
            for &j in file.places_in(self.keys[i], lo, hi) {
                let run = self.run_through(i, j, lo, hi);
                if !runs.contains(&run) {
                    runs.push(run);
                }
            }
        }
        let heads: Vec<Run> = runs
            .iter()
            .copied()
            .filter(|r| head_anchors.iter().any(|&i| r.seg.0 <= i && i < r.seg.1))
            .collect();
        let tails: Vec<Run> = runs
            .iter()
            .copied()
            .filter(|r| tail_anchors.iter().any(|&i| r.seg.0 <= i && i < r.seg.1))
            .collect();
        let mut regions: Vec<(usize, usize)> = Vec::new();
        let push = |r: (usize, usize), regions: &mut Vec<(usize, usize)>| {
            if r.0 < r.1 && r.1 - r.0 <= m + MAX_UNSHOWN && !regions.contains(&r) {
                regions.push(r);
            }
        };
        // A run covering the whole segment: it changes nothing there.
        for r in &runs {
            if r.seg == (0, m) {
                push(r.file, &mut regions);
            }
        }
        // Spans from a head to a tail: per head, the nearest tails after it (and farther ones with
        // longer runs); per tail, the nearest heads before it.
        let mut spans: Vec<(Run, Run)> = Vec::new();
        for h in &heads {
            for t in frontier(
                tails
                    .iter()
                    .filter(|t| t.file.0 >= h.file.0 && t.file.1 > h.file.1 && t.seg.1 > h.seg.1),
                |t| t.file.0,
                |t| t.seg.1 - t.seg.0,
            ) {
                if !spans.contains(&(*h, *t)) {
                    spans.push((*h, *t));
                }
            }
        }
        for t in &tails {
            for h in frontier(
                heads
                    .iter()
                    .filter(|h| h.file.0 <= t.file.0 && h.file.1 < t.file.1 && h.seg.0 < t.seg.0),
                |h| usize::MAX - h.file.1,
                |h| h.seg.1 - h.seg.0,
            ) {
                if !spans.contains(&(*h, *t)) {
                    spans.push((*h, *t));
                }
            }
        }
        for (h, t) in spans {
            push((h.file.0, t.file.1), &mut regions);
        }
        // A head alone: the segment's other lines inserted after it, or rewriting the next lines.
        for h in &heads {
            if h.seg.1 < m {
                for d in 0..=MAX_EDGE_REWRITE.min(m - h.seg.1) {
                    if h.file.1 + d <= hi {
                        push((h.file.0, h.file.1 + d), &mut regions);
                    }
                }
            }
        }
        // A tail alone: the segment's other lines inserted before it, or rewriting the lines before.
        for t in &tails {
            if t.seg.0 > 0 {
                for d in 0..=MAX_EDGE_REWRITE.min(t.seg.0) {
                    if t.file.0 >= lo + d {
                        push((t.file.0 - d, t.file.1), &mut regions);
                    }
                }
            }
        }
        let mut out: Vec<SegReading> = regions
            .into_iter()
            .map(|(start, end)| self.scored(start, end, lo, hi, scoring))
            .filter(|r| !r.terms.outside)
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)));
        out
    }

    /// The run of segment lines equal to consecutive file lines through segment line `i` at file
    /// line `j`, extended both ways inside `lo..hi`.
    fn run_through(&self, i: usize, j: usize, lo: usize, hi: usize) -> Run {
        let keys = self.keys;
        let file = &self.file.keys;
        let (mut s0, mut f0) = (i, j);
        while s0 > 0 && f0 > lo && keys[s0 - 1] == file[f0 - 1] {
            s0 -= 1;
            f0 -= 1;
        }
        let (mut s1, mut f1) = (i + 1, j + 1);
        while s1 < keys.len() && f1 < hi && keys[s1] == file[f1] {
            s1 += 1;
            f1 += 1;
        }
        Run {
            seg: (s0, s1),
            file: (f0, f1),
        }
    }

    /// The reading that replaces file lines `start..end`, aligned and scored.
    pub(crate) fn scored(&self, start: usize, end: usize, lo: usize, hi: usize, scoring: &Scoring) -> SegReading {
        let region = &self.file.keys[start..end];
        let region_exact = &self.file_exact[start..end];
        let kept = pairing(region, region_exact, self.keys, self.exact, start);
        let terms = self.terms(start, end, &kept, lo, hi, scoring);
        let score = scoring.score(&terms);
        SegReading {
            start,
            end,
            kept,
            terms,
            score,
        }
    }

    /// The terms of a reading's score (see [`Terms`]).
    fn terms(
        &self,
        start: usize,
        end: usize,
        kept: &[Option<usize>],
        lo: usize,
        hi: usize,
        scoring: &Scoring,
    ) -> Terms {
        let file = self.file;
        let keys = self.keys;
        let m = keys.len();
        let mut t = Terms::default();
        // Runs of kept lines (consecutive in both): the first and the last are the edge runs.
        let kept_idx: Vec<usize> = (0..m).filter(|&i| kept[i].is_some()).collect();
        let follows = |a: usize, b: usize| a + 1 == b && kept[a].map(|f| f + 1) == kept[b];
        if !kept_idx.is_empty() {
            let mut first_run_end = 0;
            while first_run_end + 1 < kept_idx.len() && follows(kept_idx[first_run_end], kept_idx[first_run_end + 1]) {
                first_run_end += 1;
            }
            let mut last_run_start = kept_idx.len() - 1;
            while last_run_start > 0 && follows(kept_idx[last_run_start - 1], kept_idx[last_run_start]) {
                last_run_start -= 1;
            }
            let first_run = &keys[kept_idx[0]..=kept_idx[first_run_end]];
            t.edge_runs += self.run_evidence(first_run);
            if last_run_start > first_run_end {
                let last_run = &keys[kept_idx[last_run_start]..=kept_idx[kept_idx.len() - 1]];
                t.edge_runs += self.run_evidence(last_run);
            }
            for &i in &kept_idx[first_run_end + 1..last_run_start.max(first_run_end + 1)] {
                t.inner += file.weight(keys[i]);
            }
        }
        // The changed blocks: between kept lines, the file lines deleted and the segment lines new.
        // Before the first kept line and after the last, outside the anchors, a file line is only
        // ever rewritten by a new line in its place: deleting more there than the segment writes
        // deletes lines the snippet does not show on either side of a change (no reading).
        let mut f = start;
        let mut i = 0;
        let (mut lead_old, mut trail_old) = (0, 0);
        loop {
            let next_kept = (i..m).find(|&x| kept[x].is_some());
            let f_end = next_kept.and_then(|x| kept[x]).unwrap_or(end);
            let i_end = next_kept.unwrap_or(m);
            let old = &file.keys[f..f_end];
            let new = &keys[i..i_end];
            if i == 0 {
                lead_old = old.len();
            }
            if next_kept.is_none() {
                trail_old = old.len();
            }
            let outside = i == 0 || next_kept.is_none();
            if outside && old.len() > new.len() {
                t.outside = true;
            }
            if !old.is_empty() || !new.is_empty() {
                let unalike = block_terms(
                    &mut t,
                    old,
                    new,
                    file,
                    (start.saturating_sub(NEAR_COPY), (end + NEAR_COPY).min(file.len())),
                );
                // Outside the anchors the snippet shows nothing of the file: a line there is only
                // rewritten by a new line alike it.
                if outside && unalike > 0 {
                    t.outside = true;
                }
            }
            // A blank line written as new beside the file's own blank line at the region's edge:
            // the blank lines pair by position, so a reading that does not pair them writes one more.
            if i == 0
                && old.is_empty()
                && new.first().is_some_and(|k| is_blank_key(k))
                && (start.saturating_sub(NEAR).max(lo)..start).any(|f| is_blank_key(file.keys[f]))
            {
                t.edge_new += 0.5;
            }
            if next_kept.is_none()
                && old.is_empty()
                && new.last().is_some_and(|k| is_blank_key(k))
                && (end..(end + NEAR).min(hi)).any(|f| is_blank_key(file.keys[f]))
            {
                t.edge_new += 0.5;
            }
            match next_kept {
                Some(x) => {
                    f = f_end + 1;
                    i = x + 1;
                }
                None => break,
            }
        }
        // The segment's edges: its first and last lines with text (blank lines are weak anchors).
        // An edge counts as kept where the diff kept the alike line it slides to: the first kept
        // line after it has its text, nothing kept between and no file line deleted before it
        // (which of two alike lines is the file's is the diff's choice; the result is the same).
        let first = (0..m).find(|&i| !is_blank_key(keys[i]));
        let last = (0..m).rev().find(|&i| !is_blank_key(keys[i]));
        let edge_kept = |e: usize| -> Option<usize> {
            if let Some(f) = kept[e] {
                return Some(f);
            }
            let slide = |x: Option<usize>, deleted: usize| {
                x.filter(|&x| keys[x] == keys[e] && deleted == 0).and_then(|x| kept[x])
            };
            if Some(e) == first {
                slide((e + 1..m).find(|&x| kept[x].is_some()), lead_old)
            } else {
                slide((0..e).rev().find(|&x| kept[x].is_some()), trail_old)
            }
        };
        let edges: Vec<usize> = match (first, last) {
            (Some(a), Some(b)) if a != b => vec![a, b],
            (Some(a), _) => vec![a],
            _ => Vec::new(),
        };
        for &i in &edges {
            if edge_kept(i).is_some() {
                t.edges += file.weight(keys[i]);
                t.edges_kept_count += 1;
                continue;
            }
            // An edge written as a new line although the file holds it: right beside the region
            // (the context a model showed, read as new), or farther on that side, where the
            // evidence its run there would have given is forgone.
            let before = Some(i) == first;
            let (near_from, near_to, side_from, side_to) = if before {
                (start.saturating_sub(NEAR).max(lo), start.min(hi), lo, start.min(hi))
            } else {
                (end.max(lo), (end + NEAR).min(hi), end.max(lo), hi)
            };
            if near_from < near_to && !file.places_in(keys[i], near_from, near_to).is_empty() {
                t.edge_new += 1.0;
                continue;
            }
            // (Elsewhere in the window, on either side: the context may be past the region.)
            let _ = (side_from, side_to);
            {
                let places: Vec<usize> = file
                    .places_in(keys[i], lo, hi)
                    .iter()
                    .copied()
                    .filter(|&j| j < start || j >= end)
                    .collect();
                if places.is_empty() {
                    continue;
                }
                let forgone = if places.len() > MAX_PLACES {
                    file.weight(keys[i])
                } else {
                    places
                        .iter()
                        .map(|&j| {
                            let run = self.run_through(i, j, lo, hi);
                            self.run_evidence(&keys[run.seg.0..run.seg.1])
                        })
                        .fold(0.0, f64::max)
                };
                t.edge_new += forgone.clamp(scoring.edge_floor, 1.0);
            }
        }
        // Not the minimal window: an edge kept at one copy of its line while the region holds a
        // nearer copy, kept as another segment line outside the edge's own run (the first line `),`
        // kept at one entry's closer, the next entry's `),` kept as the new entry's): the snippet's
        // context is usually right beside its change, at the nearer copy.
        // A strong edge whose copy the region deletes is not at the minimal window either (the
        // region runs from one copy of the snippet's context past another).
        // An edge run holding a line the file holds once is pinned there, whatever copies of its
        // weak lines the region holds (`}`, blank, `func f() {` found once: the window is that).
        let is_pin = |k: &[u8]| file.count(k) == 1 && content_weight(k) >= FULL;
        if let (Some(&e), false) = (edges.first(), kept_idx.is_empty()) {
            if let Some(fe) = edge_kept(e) {
                let run_end = kept_idx
                    .iter()
                    .position(|&x| x > e && !follows(x - 1, x))
                    .map_or(m, |p| kept_idx[p]);
                let pinned = kept_idx.iter().any(|&x| x >= e && x < run_end && is_pin(keys[x]));
                let other_kept = !pinned
                    && kept_idx
                        .iter()
                        .any(|&x| x >= run_end && keys[x] == keys[e] && kept[x].is_some_and(|f| f > fe));
                // (A copy deleted with its neighbour: a copy of the edge's run, not a duplicated
                // line the snippet deletes.)
                let deleted_copy = content_weight(keys[e]) >= FULL
                    && e + 1 < m
                    && (fe + 1..end.saturating_sub(1)).any(|f| {
                        file.keys[f] == keys[e] && file.keys[f + 1] == keys[e + 1] && !kept.contains(&Some(f))
                    });
                if other_kept || deleted_copy {
                    t.not_minimal += 1;
                }
            }
        }
        if let (Some(&e), true) = (edges.last(), edges.len() == 2 && !kept_idx.is_empty()) {
            if let Some(fe) = edge_kept(e) {
                let run_start = kept_idx
                    .iter()
                    .rposition(|&x| x < e && kept_idx.contains(&(x + 1)) && !follows(x, x + 1))
                    .map_or(0, |p| kept_idx[p] + 1);
                let pinned = kept_idx.iter().any(|&x| x >= run_start && x <= e && is_pin(keys[x]));
                let other_kept = !pinned
                    && kept_idx
                        .iter()
                        .any(|&x| x < run_start && keys[x] == keys[e] && kept[x].is_some_and(|f| f < fe));
                let deleted_copy = content_weight(keys[e]) >= FULL
                    && e > 0
                    && (start + 1..fe).any(|f| {
                        file.keys[f] == keys[e] && file.keys[f - 1] == keys[e - 1] && !kept.contains(&Some(f))
                    });
                if other_kept || deleted_copy {
                    t.not_minimal += 1;
                }
            }
        }
        t.edges_kept = !edges.is_empty() && edges.iter().all(|&e| edge_kept(e).is_some());
        t.edge_insertion = edges.len() == 2
            && end == start + 2
            && edge_kept(edges[0]) == Some(start)
            && edge_kept(edges[1]) == Some(start + 1)
            && edges[1] - edges[0] >= 2;
        t.region = end - start;
        t
    }

    /// The evidence of a run of consecutive lines kept as the file's: the sum of their weights.
    fn run_evidence(&self, run: &[&[u8]]) -> f64 {
        run.iter().map(|k| self.file.weight(k)).sum()
    }
}

/// How near a region a new line's only copy in the file must be for writing it again to count
/// against a reading (`dup_unique`).
const NEAR_COPY: usize = 10;

/// How near a region the file must hold a segment's edge line written as new for the reading to
/// count as one that read the context a model showed as new.
const NEAR: usize = 3;

/// The terms of one changed block: file lines `old` deleted, segment lines `new` written. Returns
/// how many deleted lines no new line is alike.
fn block_terms(t: &mut Terms, old: &[&[u8]], new: &[&[u8]], file: &FileLines<'_>, near: (usize, usize)) -> usize {
    let old_lines: Vec<&[u8]> = old.iter().copied().filter(|l| !is_blank_key(l)).collect();
    let new_lines: Vec<&[u8]> = new.iter().copied().filter(|l| !is_blank_key(l)).collect();
    if old_lines.is_empty() && new_lines.is_empty() {
        t.blank_blocks += 1;
    } else {
        t.blocks += 1;
    }
    let blank_deleted = old.len() - old_lines.len();
    let blank_new = new.len() - new_lines.len();
    t.blank_deleted += blank_deleted.saturating_sub(blank_new);
    let rewritten = old_lines.len().min(new_lines.len());
    let excess = old_lines.len() - rewritten;
    t.deleted_excess += excess;
    t.excess_log += (1.0 + excess as f64).ln();
    t.new_lines += new_lines.len();
    // A new line the file holds once (a line that says all it can): written again beside its only
    // copy, where the model more likely showed that line as context.
    t.dup_unique += new_lines
        .iter()
        .filter(|l| {
            file.count(l) == 1
                && content_weight(l) >= FULL
                && !old_lines.contains(l)
                && file.places_in(l, near.0, near.1).len() == 1
        })
        .count();
    // Which deleted lines are alike a new line (one to one, in order): rewritten, not replaced.
    let mut used = vec![false; new_lines.len()];
    let mut alike = 0;
    for o in &old_lines {
        let o = String::from_utf8_lossy(o.trim_ascii());
        for (n, u) in new_lines.iter().zip(used.iter_mut()) {
            if *u {
                continue;
            }
            let n = String::from_utf8_lossy(n.trim_ascii());
            let mut budget = Budget::for_bytes(o.len() + n.len());
            if budget.char_ratio(&o, &n) >= 0.6 {
                *u = true;
                alike += 1;
                break;
            }
        }
    }
    let alike_rewritten = alike.min(rewritten);
    t.rewritten_alike += alike_rewritten;
    t.rewritten_unalike += rewritten - alike_rewritten;
    old_lines.len() - alike
}

/// The items of `it` nearest first (by `distance`), keeping the nearest two and then each one
/// whose `length` is longer than every nearer one's, at most [`MAX_PARTNERS`].
fn frontier<T: Copy>(
    it: impl Iterator<Item = T>,
    distance: impl Fn(&T) -> usize,
    length: impl Fn(&T) -> usize,
) -> Vec<T> {
    let mut all: Vec<T> = it.collect();
    all.sort_by_key(|x| distance(x));
    let mut out = Vec::new();
    let mut best = 0;
    for x in all {
        if out.len() < 2 || length(&x) > best {
            best = best.max(length(&x));
            out.push(x);
            if out.len() >= MAX_PARTNERS {
                break;
            }
        }
    }
    out
}
