//! Work budgets for the diffs inside the engine, and the coarser diff used past them.
//!
//! A minimal diff (Myers) costs about `(n + m) * d` steps for sequences of lengths `n` and `m` that
//! differ in `d` elements: quadratic when everything differs, as when a long line is compared with
//! another. Every such diff here draws from a [`Budget`], counted in steps, never in time, so that
//! results are the same on every machine. A diff that fits is computed exactly (the same as
//! without a budget); one that does not is replaced by [`coarse_diff`], which matches only elements
//! found once on each side and what extends those matches, in near-linear time. Both are real
//! diffs (every `Equal` pairs equal elements), so what is built from them keeps the file's bytes
//! wherever it says it does; the coarse one only finds fewer of them, and the budget records that it
//! was used.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Range;

use similar::{capture_diff_slices, Algorithm, DiffOp};

/// Steps any diff may take, whatever the sizes: small inputs are always diffed exactly.
const FLOOR: u64 = 40_000_000;
/// Further steps per byte of the inputs a budget is for.
const PER_BYTE: u64 = 32;
/// In the coarse diff, stretches between matches with at most this many elements on both sides
/// together are diffed exactly (cost at most this times the stretch: linear overall).
const SMALL_GAP: usize = 256;

thread_local! {
    /// A fixed budget for every task on this thread, set by [`with_work_budget`].
    static FIXED: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Runs `f` with every work budget of the engine on this thread set to `steps`, whatever the size
/// of the inputs: for tests of the coarse fallbacks, which `0` makes every diff take (any diff with
/// something on both sides after their common prefix and suffix). Not for production use: the
/// default budgets are what keeps the cost of an edit linear.
#[doc(hidden)]
pub fn with_work_budget<R>(steps: u64, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            FIXED.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FIXED.with(|c| c.replace(Some(steps))));
    f()
}

/// Steps left for the diffs of one task, and whether any had to be coarse.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    left: u64,
    /// Stretches of a coarse diff diffed exactly: [`SMALL_GAP`], or fewer in a smaller budget.
    small_gap: usize,
    exceeded: bool,
}

impl Budget {
    /// A budget for a task on inputs of `bytes` bytes in all: linear in them.
    pub(crate) fn for_bytes(bytes: usize) -> Budget {
        let left = FIXED
            .with(Cell::get)
            .unwrap_or_else(|| FLOOR.saturating_add(PER_BYTE.saturating_mul(bytes as u64)));
        Budget::of_steps(left)
    }

    /// A budget of exactly `steps` steps.
    fn of_steps(steps: u64) -> Budget {
        Budget {
            left: steps,
            small_gap: SMALL_GAP.min(usize::try_from(steps).unwrap_or(usize::MAX)),
            exceeded: false,
        }
    }

    /// Takes `steps` from the budget for work that has no coarse form: `false` (and the budget
    /// marked exceeded) when fewer are left, and the caller must fall back to refusing.
    pub(crate) fn spend(&mut self, steps: u64) -> bool {
        if steps > self.left {
            self.left = 0;
            self.exceeded = true;
            return false;
        }
        self.left -= steps;
        true
    }

    /// Whether some diff drawn from this budget was coarse.
    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded
    }

    /// Diff of `old` against `new` that first sets aside their common prefix and suffix
    /// ([`common_affixes`]): minimal when the budget allows, else coarse.
    pub(crate) fn anchored_diff<T: Eq + Hash>(&mut self, old: &[T], new: &[T]) -> Vec<DiffOp> {
        let (pre, post) = common_affixes(old, new);
        let mut ops = Vec::new();
        push_equal(&mut ops, 0, 0, pre);
        let (o_mid, n_mid) = (&old[pre..old.len() - post], &new[pre..new.len() - post]);
        for op in self.diff(o_mid, n_mid) {
            ops.push(shift(op, pre, pre));
        }
        push_equal(&mut ops, old.len() - post, new.len() - post, post);
        ops
    }

    /// How alike two strings are, character by character: `2 * matched / (chars of both)` (similar's
    /// ratio), 1 for two empty strings. An estimate from below once the budget is spent.
    pub(crate) fn char_ratio(&mut self, a: &str, b: &str) -> f32 {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let total = a.len() + b.len();
        if total == 0 {
            return 1.0;
        }
        let matched: usize = self
            .anchored_diff(&a, &b)
            .iter()
            .map(|op| match *op {
                DiffOp::Equal { len, .. } => len,
                _ => 0,
            })
            .sum();
        2.0 * matched as f32 / total as f32
    }

    /// A diff of the whole of `old` and `new` (no prefix or suffix in common is assumed).
    fn diff<T: Eq + Hash>(&mut self, old: &[T], new: &[T]) -> Vec<DiffOp> {
        let (n, m) = (old.len(), new.len());
        match (n, m) {
            (0, 0) => return Vec::new(),
            (0, _) => {
                return vec![DiffOp::Insert {
                    old_index: 0,
                    new_index: 0,
                    new_len: m,
                }]
            }
            (_, 0) => {
                return vec![DiffOp::Delete {
                    old_index: 0,
                    old_len: n,
                    new_index: 0,
                }]
            }
            _ => {}
        }
        // Interned, an element costs one hash, and every comparison after it one step.
        let (a, b) = interned(old, new);
        let size = (n + m) as u64;
        if size.saturating_mul(size) <= self.left {
            // Whatever the distance, the exact diff fits.
            let ops = myers(&a, &b);
            self.left -= size * distance(&ops) as u64;
            return ops;
        }
        let max_d = (self.left / size / 2) as usize;
        if let Some(d) = distance_at_most(&a, &b, max_d) {
            // Checked at `size * d` steps, computed at about as many.
            self.left -= 2 * size * d as u64;
            return myers(&a, &b);
        }
        self.left -= size * max_d as u64;
        self.exceeded = true;
        coarse_diff(&a, &b, self.small_gap)
    }
}

/// similar's minimal diff, with every op's indices where the ops before it end: its Myers can give
/// a deletion a `new_index` one short (an insertion likewise), and a change block read from such
/// an op would start on a line already written.
fn myers(a: &[u32], b: &[u32]) -> Vec<DiffOp> {
    let (mut i, mut j) = (0, 0);
    capture_diff_slices(Algorithm::Myers, a, b)
        .into_iter()
        .map(|op| {
            let (o, n) = (op.old_range().len(), op.new_range().len());
            let op = match op {
                DiffOp::Equal { len, .. } => DiffOp::Equal {
                    old_index: i,
                    new_index: j,
                    len,
                },
                DiffOp::Delete { old_len, .. } => DiffOp::Delete {
                    old_index: i,
                    old_len,
                    new_index: j,
                },
                DiffOp::Insert { new_len, .. } => DiffOp::Insert {
                    old_index: i,
                    new_index: j,
                    new_len,
                },
                DiffOp::Replace { old_len, new_len, .. } => DiffOp::Replace {
                    old_index: i,
                    old_len,
                    new_index: j,
                    new_len,
                },
            };
            (i, j) = (i + o, j + n);
            op
        })
        .collect()
}

/// The number of elements a diff deletes or inserts.
fn distance(ops: &[DiffOp]) -> usize {
    ops.iter()
        .map(|op| match *op {
            DiffOp::Equal { .. } => 0,
            DiffOp::Delete { old_len, .. } => old_len,
            DiffOp::Insert { new_len, .. } => new_len,
            DiffOp::Replace { old_len, new_len, .. } => old_len + new_len,
        })
        .sum()
}

/// Both sequences as small numbers, equal where the elements are (comparisons then cost one step).
fn interned<T: Eq + Hash>(old: &[T], new: &[T]) -> (Vec<u32>, Vec<u32>) {
    if old.len() + new.len() <= FEW_TO_COMPARE {
        // The same ids, by comparing: hashing costs a pass over each element, comparing stops at
        // the first difference (a change inside a line of megabytes: one line against one).
        let mut seen: Vec<&T> = Vec::new();
        let mut id = |t| match seen.iter().position(|s| *s == t) {
            Some(k) => k as u32,
            None => {
                seen.push(t);
                (seen.len() - 1) as u32
            }
        };
        let a = old.iter().map(&mut id).collect();
        let b = new.iter().map(&mut id).collect();
        return (a, b);
    }
    let mut ids: HashMap<&T, u32> = HashMap::new();
    let mut id = |t| {
        let next = ids.len() as u32;
        *ids.entry(t).or_insert(next)
    };
    let a = old.iter().map(&mut id).collect();
    let b = new.iter().map(&mut id).collect();
    (a, b)
}

/// Up to this many elements in all, [`interned`] compares them rather than hashing them (at most
/// six comparisons).
const FEW_TO_COMPARE: usize = 4;

/// The edit distance (deletions plus insertions) of `a` and `b` if it is at most `max_d`: Myers'
/// greedy forward search, about `(n + m) * max_d` steps and `max_d` memory.
fn distance_at_most(a: &[u32], b: &[u32], max_d: usize) -> Option<usize> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let offset = max_d as isize + 1;
    // Furthest x reached on each diagonal k = x - y.
    let mut v = vec![0isize; 2 * max_d + 3];
    for d in 0..=max_d as isize {
        for k in (-d..=d).step_by(2) {
            let at = (offset + k) as usize;
            let mut x = if k == -d || (k != d && v[at - 1] < v[at + 1]) {
                v[at + 1]
            } else {
                v[at - 1] + 1
            };
            let mut y = x - k;
            // Off the grid (x past n, y below 0 or past m) a path only stands for a longer one
            // inside it, so it never ends the search early.
            while x < n && y >= 0 && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at] = x;
            if x >= n && y >= m {
                return Some(d as usize);
            }
        }
    }
    None
}

/// A diff of `a` and `b` in about `(n + m) log(n + m)` steps: elements found exactly once on each
/// side are matched where their order agrees (the longest increasing run, as patience diff does),
/// each match is extended over equal neighbours, and what lies between matches is diffed exactly
/// when it has at most `small_gap` elements, else replaced whole.
fn coarse_diff(a: &[u32], b: &[u32], small_gap: usize) -> Vec<DiffOp> {
    // (count in a, count in b, position in a, position in b)
    let mut seen: HashMap<u32, (u32, u32, usize, usize)> = HashMap::new();
    for (i, &x) in a.iter().enumerate() {
        let e = seen.entry(x).or_insert((0, 0, i, 0));
        e.0 += 1;
    }
    for (j, &x) in b.iter().enumerate() {
        if let Some(e) = seen.get_mut(&x) {
            e.1 += 1;
            e.3 = j;
        }
    }
    let mut unique: Vec<(usize, usize)> = seen
        .values()
        .filter(|e| e.0 == 1 && e.1 == 1)
        .map(|e| (e.2, e.3))
        .collect();
    unique.sort_unstable();
    let anchors = longest_increasing(&unique);

    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    for (ai, aj) in anchors {
        if ai < i || aj < j {
            continue; // inside a stretch an earlier match was extended over
        }
        // Extend the match backwards over equal neighbours, within the gap.
        let mut back = 0;
        while ai - back > i && aj - back > j && a[ai - back - 1] == b[aj - back - 1] {
            back += 1;
        }
        gap(&mut ops, a, b, i..ai - back, j..aj - back, small_gap);
        let mut len = back + 1;
        while ai + len - back < a.len() && aj + len - back < b.len() && a[ai + len - back] == b[aj + len - back] {
            len += 1;
        }
        push_equal(&mut ops, ai - back, aj - back, len);
        i = ai - back + len;
        j = aj - back + len;
    }
    gap(&mut ops, a, b, i..a.len(), j..b.len(), small_gap);
    ops
}

/// The ops for a stretch between matches: exact when small, else one replacement.
fn gap(ops: &mut Vec<DiffOp>, a: &[u32], b: &[u32], o: Range<usize>, n: Range<usize>, small_gap: usize) {
    match (o.is_empty(), n.is_empty()) {
        (true, true) => {}
        (true, false) => ops.push(DiffOp::Insert {
            old_index: o.start,
            new_index: n.start,
            new_len: n.len(),
        }),
        (false, true) => ops.push(DiffOp::Delete {
            old_index: o.start,
            old_len: o.len(),
            new_index: n.start,
        }),
        (false, false) if o.len() + n.len() <= small_gap => {
            for op in myers(&a[o.clone()], &b[n.clone()]) {
                ops.push(shift(op, o.start, n.start));
            }
        }
        (false, false) => ops.push(DiffOp::Replace {
            old_index: o.start,
            old_len: o.len(),
            new_index: n.start,
            new_len: n.len(),
        }),
    }
}

/// The longest subsequence of `pairs` (sorted by first) whose seconds increase: patience sorting.
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tops[k]: index in `pairs` of the smallest second ending an increasing run of length k + 1.
    let mut tops: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; pairs.len()];
    for (idx, &(_, second)) in pairs.iter().enumerate() {
        let k = tops.partition_point(|&t| pairs[t].1 < second);
        before[idx] = k.checked_sub(1).map(|p| tops[p]);
        if k == tops.len() {
            tops.push(idx);
        } else {
            tops[k] = idx;
        }
    }
    let mut out = Vec::with_capacity(tops.len());
    let mut at = tops.last().copied();
    while let Some(idx) = at {
        out.push(pairs[idx]);
        at = before[idx];
    }
    out.reverse();
    out
}

fn push_equal(ops: &mut Vec<DiffOp>, old_index: usize, new_index: usize, len: usize) {
    if len > 0 {
        ops.push(DiffOp::Equal {
            old_index,
            new_index,
            len,
        });
    }
}

/// `op` with its old indices moved by `by_old` and its new ones by `by_new`.
pub(crate) fn shift(op: DiffOp, by_old: usize, by_new: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + by_old,
            new_index: new_index + by_new,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + by_old,
            old_len,
            new_index: new_index + by_new,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + by_old,
            new_index: new_index + by_new,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + by_old,
            old_len,
            new_index: new_index + by_new,
            new_len,
        },
    }
}

/// The lengths of the longest common prefix and, after it, the longest common suffix.
pub(crate) fn common_affixes<T: PartialEq>(old: &[T], new: &[T]) -> (usize, usize) {
    let pre = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let post = old[pre..]
        .iter()
        .rev()
        .zip(new[pre..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (pre, post)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_elements_compared_get_the_ids_hashing_gives() {
        fn hashed(old: &[&'static str], new: &[&'static str]) -> (Vec<u32>, Vec<u32>) {
            let mut ids: HashMap<&str, u32> = HashMap::new();
            let mut id = |t: &&'static str| {
                let next = ids.len() as u32;
                *ids.entry(*t).or_insert(next)
            };
            let a: Vec<u32> = old.iter().map(&mut id).collect();
            let b: Vec<u32> = new.iter().map(&mut id).collect();
            (a, b)
        }
        let words = ["a", "b", "c"];
        for n in 0..=FEW_TO_COMPARE {
            for m in 0..=FEW_TO_COMPARE - n {
                for pick in 0..3usize.pow((n + m) as u32) {
                    let all: Vec<&str> = (0..n + m).map(|k| words[pick / 3usize.pow(k as u32) % 3]).collect();
                    let (old, new) = all.split_at(n);
                    assert_eq!(interned(old, new), hashed(old, new), "{old:?} {new:?}");
                }
            }
        }
    }

    /// `spend` takes what is asked while that many steps are left, the last of them included; past
    /// that it refuses, empties the budget and marks it exceeded.
    #[test]
    fn spending_takes_steps_until_fewer_are_left() {
        let mut budget = Budget::of_steps(10);
        assert!(budget.spend(4));
        assert!(budget.spend(6), "exactly what is left");
        assert!(!budget.exceeded());
        assert!(budget.spend(0));
        assert!(!budget.spend(1));
        assert!(budget.exceeded());
        let mut budget = Budget::of_steps(10);
        assert!(!budget.spend(11));
        assert!(budget.exceeded());
        assert!(!budget.spend(1), "a refusal empties the budget");
    }

    /// A diff that fits takes its steps and leaves the rest to the next: two diffs that together
    /// fit are both exact. One side empty takes none and is never coarse (`coarseAlignment` would
    /// say so of a plain insertion or deletion).
    #[test]
    fn a_diff_takes_its_steps_and_leaves_the_rest() {
        let (a, b) = (sequence(1, 10, 4), sequence(2, 10, 4));
        let first = Budget::of_steps(u64::MAX).diff(&a, &b);
        let d = distance(&first) as u64;
        assert!(d > 0);
        // The first diff fits whole (20 * 20 steps at most) and takes 20 * d; the 400 left are
        // exactly what the second needs to be exact.
        let mut budget = Budget::of_steps(400 + 20 * d);
        assert_eq!(budget.diff(&a, &b), first);
        assert_eq!(budget.left, 400);
        let (c, e) = (sequence(3, 10, 4), sequence(4, 10, 4));
        assert_valid(&c, &e, &budget.diff(&c, &e));
        assert!(!budget.exceeded());

        let mut budget = Budget::of_steps(0);
        let insert = DiffOp::Insert {
            old_index: 0,
            new_index: 0,
            new_len: 3,
        };
        assert_eq!(budget.diff::<u32>(&[], &[1, 2, 3]), vec![insert]);
        let delete = DiffOp::Delete {
            old_index: 0,
            old_len: 2,
            new_index: 0,
        };
        assert_eq!(budget.diff::<u32>(&[1, 2], &[]), vec![delete]);
        assert!(!budget.exceeded());
    }

    /// What each way of diffing takes from the budget: past `(n + m)^2` steps, a distance checked
    /// within what is left takes twice `(n + m) * d` and is exact; one past it takes `(n + m)` times
    /// the distance it could afford, and the diff is coarse.
    #[test]
    fn each_way_of_diffing_takes_what_it_costs() {
        let a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        b[10] = 100;
        b[30] = 101;
        // 100 elements: 10,000 steps for the whole diff, more than the 1,000 left; the distance (4)
        // is within 1,000 / 100 / 2 = 5.
        let mut budget = Budget::of_steps(1_000);
        let ops = budget.diff(&a, &b);
        assert_valid(&a, &b, &ops);
        assert_eq!(distance(&ops), 4);
        assert!(!budget.exceeded());
        assert_eq!(budget.left, 1_000 - 2 * 100 * 4);

        // Reversed, they differ in nearly everything: past the 5 the budget affords.
        let reversed: Vec<u32> = a.iter().rev().copied().collect();
        let mut budget = Budget::of_steps(1_000);
        assert_valid(&a, &reversed, &budget.diff(&a, &reversed));
        assert!(budget.exceeded());
        assert_eq!(budget.left, 1_000 - 100 * 5);
    }

    /// The coarse diff extends a match of an element found once on each side (`9`) over the equal
    /// neighbours before and after it (the repeated `5`s and `7`s, found twice on each side), and
    /// replaces what lies between matches when it is past the small gap.
    #[test]
    fn coarse_matches_extend_over_equal_neighbours() {
        let a = [1, 5, 5, 9, 7, 7, 2];
        let b = [3, 5, 5, 9, 7, 7, 4];
        let ops = coarse_diff(&a, &b, 0);
        assert_valid(&a, &b, &ops);
        let replace = |at| DiffOp::Replace {
            old_index: at,
            old_len: 1,
            new_index: at,
            new_len: 1,
        };
        let equal = DiffOp::Equal {
            old_index: 1,
            new_index: 1,
            len: 5,
        };
        assert_eq!(ops, vec![replace(0), equal, replace(6)]);
    }

    /// Past the budget, a stretch between matches is still diffed exactly when both sides together
    /// hold at most the small gap: the two `7`s before the one match (`9`) are kept; with a gap one
    /// smaller the stretch is replaced whole. The common prefix and suffix set aside first add no
    /// empty op.
    #[test]
    fn a_small_gap_is_diffed_exactly() {
        let (a, b) = ([7, 7, 1, 9], [7, 2, 7, 9]);
        let kept = |ops: &[DiffOp]| -> usize {
            assert_valid(&a, &b, ops);
            matched(ops)
        };
        assert_eq!(kept(&coarse_diff(&a, &b, 6)), 3);
        assert_eq!(kept(&coarse_diff(&a, &b, 5)), 1);
        // A common prefix and suffix of one (`7`, `9`), and the `7` the middles share (once each).
        assert_eq!(kept(&Budget::of_steps(0).anchored_diff(&a, &b)), 3);
        // No common prefix or suffix: `anchored_diff` pushes none.
        let (c, e) = ([1, 2, 3], [4, 5, 6]);
        assert_valid(&c, &e, &Budget::of_steps(0).anchored_diff(&c, &e));
    }

    /// Deterministic pseudo-random sequences over a small alphabet (many repeats, few unique).
    fn sequence(seed: u64, len: usize, alphabet: u32) -> Vec<u32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % u64::from(alphabet)) as u32
            })
            .collect()
    }

    /// The ops cover both sequences in order, each starting where the one before ended, and every
    /// `Equal` pairs equal elements.
    fn assert_valid(a: &[u32], b: &[u32], ops: &[DiffOp]) {
        let (mut i, mut j) = (0, 0);
        for op in ops {
            let (o, n) = (op.old_range(), op.new_range());
            assert_eq!((o.start, n.start), (i, j), "{ops:?}");
            assert!(!o.is_empty() || !n.is_empty(), "an empty op: {ops:?}");
            if let DiffOp::Equal { .. } = op {
                assert_eq!(&a[o.clone()], &b[n.clone()]);
            }
            (i, j) = (o.end, n.end);
        }
        assert_eq!((i, j), (a.len(), b.len()));
    }

    fn matched(ops: &[DiffOp]) -> usize {
        ops.iter()
            .map(|op| match *op {
                DiffOp::Equal { len, .. } => len,
                _ => 0,
            })
            .sum()
    }

    #[test]
    fn distance_is_myers_distance() {
        for seed in 0..200 {
            let a = sequence(seed, (seed % 40) as usize, 1 + (seed % 5) as u32);
            let b = sequence(seed + 1000, (seed % 33) as usize, 1 + (seed % 5) as u32);
            let exact = distance(&capture_diff_slices(Algorithm::Myers, &a, &b));
            assert_eq!(distance_at_most(&a, &b, a.len() + b.len()), Some(exact), "{a:?} {b:?}");
            if exact > 0 {
                assert_eq!(distance_at_most(&a, &b, exact - 1), None);
            }
        }
    }

    #[test]
    fn within_budget_the_diff_is_exact() {
        for seed in 0..100 {
            let a = sequence(seed, 50, 4);
            let b = sequence(seed + 7, 60, 4);
            let mut budget = Budget::of_steps(u64::MAX / 4);
            let ops = budget.anchored_diff(&a, &b);
            assert!(!budget.exceeded());
            assert_valid(&a, &b, &ops);
            assert_eq!(matched(&ops), matched(&capture_diff_slices(Algorithm::Myers, &a, &b)));
        }
    }

    #[test]
    fn past_the_budget_the_diff_is_coarse_but_valid() {
        for seed in 0..100 {
            let a = sequence(seed, 400 + seed as usize, 2 + (seed % 300) as u32);
            let b = sequence(seed + 13, 380, 2 + (seed % 300) as u32);
            let mut budget = Budget::of_steps(0);
            let ops = budget.anchored_diff(&a, &b);
            assert!(budget.exceeded());
            assert_valid(&a, &b, &ops);
        }
    }

    #[test]
    fn coarse_diff_keeps_unique_lines_and_their_neighbours() {
        // Lines moved and edited around unique anchors: every line equal in place is found.
        let a: Vec<u32> = (0..1000).collect();
        let mut b = a.clone();
        b[10] = 5000; // an edited line
        b.insert(500, 6000); // an inserted one
        b.remove(900); // a removed one
        let ops = coarse_diff(&a, &b, 0);
        assert_valid(&a, &b, &ops);
        assert_eq!(matched(&ops), 998);
        // Repeats (no unique element) between anchors are matched by extension from them.
        let a = [1, 7, 7, 7, 7, 2];
        let b = [1, 7, 7, 9, 7, 7, 2];
        let ops = coarse_diff(&a, &b, 0);
        assert_valid(&a, &b, &ops);
        assert_eq!(matched(&ops), 6);
    }

    #[test]
    fn budget_is_spent_across_diffs() {
        let a = sequence(1, 3000, 1000);
        let b = sequence(2, 3000, 1000);
        // Enough for the first diff exactly, not for both.
        let mut budget = Budget::of_steps(6000 * 6000);
        let first = budget.anchored_diff(&a, &b);
        assert!(!budget.exceeded());
        let second = budget.anchored_diff(&a, &b);
        assert!(budget.exceeded());
        assert_valid(&a, &b, &first);
        assert_valid(&a, &b, &second);
        assert!(matched(&second) <= matched(&first));
    }

    #[test]
    fn ratio_matches_similar_within_budget() {
        for (a, b) in [
            ("abc", "abd"),
            ("", ""),
            ("x", ""),
            ("hello world", "yellow word"),
            ("ñandú", "nandu"),
        ] {
            let want = similar::TextDiff::from_chars(a, b).ratio();
            assert_eq!(Budget::for_bytes(0).char_ratio(a, b), want, "{a} {b}");
        }
    }

    #[test]
    fn fixed_budget_applies_on_this_thread_only_while_set() {
        with_work_budget(0, || {
            let mut b = Budget::for_bytes(1 << 20);
            b.anchored_diff(&[1, 2, 3], &[1, 4, 3]);
            assert!(b.exceeded());
        });
        let mut b = Budget::for_bytes(0);
        b.anchored_diff(&[1, 2, 3], &[1, 4, 3]);
        assert!(!b.exceeded());
    }
}
