//! Which segment line is which file line inside a segment's region: a diff of the two, git's.

/// Which segment line is which region line (absolute file line, from `start`), and how many lines
/// are kept: a diff of the keys (git's, see [`diff_lines`]); among the alignments keeping as many
/// lines, one keeping only lines the model wrote byte for byte as the file has them (`exact`: the
/// keys with trailing blanks) is taken, since a line written exactly so is the file's line where its
/// alike neighbour with other trailing blanks is a new one. Then blank lines, weak anchors, are
/// paired by position between the others ([`float_blank_lines`]).
pub(crate) fn pairing(
    region: &[&[u8]],
    region_exact: &[&[u8]],
    seg: &[&[u8]],
    seg_exact: &[&[u8]],
    start: usize,
) -> Vec<Option<usize>> {
    let (mut kept, count) = diff_lines(region, seg, start);
    if region_exact != region || seg_exact != seg {
        let (exact_kept, exact_count) = diff_lines(region_exact, seg_exact, start);
        if exact_count == count {
            kept = exact_kept;
        }
    }
    float_blank_lines(&mut kept, region, seg, start);
    kept
}

/// Blank lines are weak anchors: a run of blank lines the diff kept in the middle of a change (no
/// kept line with text right before or after it, in both) anchors nothing, so it is let go; then in
/// each run of changed lines, the blank lines right after the kept line before it (in both) are
/// paired top down, and those right before the kept line after it bottom up. So a blank line that
/// separates two new paragraphs is new, and the file's blank line stays beside the strong line it
/// was beside (its bytes with it).
pub(crate) fn float_blank_lines(kept: &mut [Option<usize>], region: &[&[u8]], seg: &[&[u8]], start: usize) {
    let m = kept.len();
    let blank = |k: &[u8]| k.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\x0c' | b'\x0b'));
    let follows =
        |kept: &[Option<usize>], a: usize, b: usize| matches!((kept[a], kept[b]), (Some(f), Some(g)) if g == f + 1);
    // Let go of floating runs of kept blank lines.
    let mut i = 0;
    let mut changed = false;
    while i < m {
        if kept[i].is_none() || !blank(seg[i]) {
            i += 1;
            continue;
        }
        let a = i;
        while i + 1 < m && kept[i + 1].is_some() && blank(seg[i + 1]) && follows(kept, i, i + 1) {
            i += 1;
        }
        let b = i + 1;
        // Attached to a kept line with text, or at the segment's edge paired with the region's edge
        // (where the snippet's blank line stands for the file's by position).
        let attached = (a > 0 && follows(kept, a - 1, a))
            || (b < m && follows(kept, b - 1, b))
            || (a == 0 && kept[0] == Some(start))
            || (b == m && kept[m - 1] == Some(start + region.len() - 1));
        if !attached {
            kept[a..b].fill(None);
            changed = true;
        }
        i = b;
    }
    if !changed {
        return;
    }
    // Pair blank lines by position in each run of changed lines.
    let mut i = 0;
    let mut f = start;
    while i <= m {
        let next = (i..m).find(|&x| kept[x].is_some());
        let (i_end, f_end) = match next {
            Some(x) => (x, kept[x].expect("kept")),
            None => (m, start + region.len()),
        };
        let (mut s0, mut f0) = (i, f);
        if i > 0 {
            while s0 < i_end && f0 < f_end && blank(seg[s0]) && blank(region[f0 - start]) {
                kept[s0] = Some(f0);
                s0 += 1;
                f0 += 1;
            }
        }
        let (mut s1, mut f1) = (i_end, f_end);
        if next.is_some() {
            while s1 > s0 && f1 > f0 && blank(seg[s1 - 1]) && blank(region[f1 - 1 - start]) {
                kept[s1 - 1] = Some(f1 - 1);
                s1 -= 1;
                f1 -= 1;
            }
        }
        match next {
            Some(x) => {
                i = x + 1;
                f = f_end + 1;
            }
            None => break,
        }
    }
}

/// Which segment line is which region line (absolute file line, from `start`), by a diff of their
/// keys, and how many lines are kept.
///
/// The diff is git's: Myers' algorithm as git's xdiff runs it, then each run of changed lines that
/// can slide (a deleted run whose first line equals the kept line after it, or the reverse) placed
/// where git's indent heuristic places it. Where two alike lines could each be the kept one, which
/// one is the file's decides bytes a model cannot see (a line ending in a file of mixed endings); the
/// choice follows one fixed rule, the one git's diffs make (the commits' hunks a model reads). The
/// diff is linear in space, and its Myers gives up on the minimal script past a cost bound, as git's.
pub(crate) fn diff_lines(region: &[&[u8]], seg: &[&[u8]], start: usize) -> (Vec<Option<usize>>, usize) {
    let mut input: imara_diff::InternedInput<&[u8]> = imara_diff::InternedInput::default();
    input.update_before(region.iter().copied());
    input.update_after(seg.iter().copied());
    let mut diff = imara_diff::Diff::compute(imara_diff::Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    let mut kept: Vec<Option<usize>> = vec![None; seg.len()];
    let (mut old, mut new) = (0usize, 0usize);
    let mut count = 0;
    let mut keep_to = |old_end: usize, old: &mut usize, new: &mut usize| {
        while *old < old_end {
            kept[*new] = Some(start + *old);
            *old += 1;
            *new += 1;
            count += 1;
        }
    };
    for hunk in diff.hunks() {
        keep_to(hunk.before.start as usize, &mut old, &mut new);
        old = hunk.before.end as usize;
        new = hunk.after.end as usize;
    }
    keep_to(region.len(), &mut old, &mut new);
    (kept, count)
}
