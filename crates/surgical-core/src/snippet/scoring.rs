//! The score of a reading: the evidence of its anchor lines less the cost of what it deletes (see
//! the module docs of `snippet`, "Scoring", for the constants and the measurements behind them).

/// What a segment reading is scored on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Terms {
    /// The weights of the kept lines in the first and the last run of kept lines (the edges: the
    /// context a model shows around a change).
    pub(crate) edge_runs: f64,
    /// The weights of the other kept lines (inside the segment, between changes).
    pub(crate) inner: f64,
    /// The weights of the segment's first and last lines, where kept.
    pub(crate) edges: f64,
    /// Changed blocks (runs of deleted and new lines between kept ones) with a non-blank line.
    pub(crate) blocks: usize,
    /// Changed blocks of blank lines only.
    pub(crate) blank_blocks: usize,
    /// Non-blank file lines deleted beyond the new lines written in their place.
    pub(crate) deleted_excess: usize,
    /// Per block, the log of one more than its excess deletions, summed.
    pub(crate) excess_log: f64,
    /// Non-blank file lines replaced by a new line alike them (a line rewritten).
    pub(crate) rewritten_alike: usize,
    /// Non-blank file lines replaced by a new line unlike them.
    pub(crate) rewritten_unalike: usize,
    /// Blank file lines deleted beyond the blank lines written in their place.
    pub(crate) blank_deleted: usize,
    /// Non-blank new lines written.
    pub(crate) new_lines: usize,
    /// The segment's first or last line written as new although the file holds it: 1 right beside
    /// the region (the context a model showed, read as new), else the evidence its run farther on
    /// that side would have given (at most 1), per edge.
    pub(crate) edge_new: f64,
    /// The reading keeps the segment's first and last lines, adjacent in the file, and writes every
    /// line between them as new (the snippet read as "insert these between these two").
    pub(crate) edge_insertion: bool,
    /// Edges kept at a copy of their line farther than another copy the region keeps as another
    /// segment line (see `readings`: not the minimal window).
    pub(crate) not_minimal: usize,
    /// New lines the file holds exactly once (lines that say all they can).
    pub(crate) dup_unique: usize,
    /// How many of the segment's edges (its first and last lines with text) are kept.
    pub(crate) edges_kept_count: usize,
    /// Both edges (the segment's first and last lines with text) are kept.
    pub(crate) edges_kept: bool,
    /// The region's length in lines.
    pub(crate) region: usize,
    /// File lines deleted before the first kept line or after the last beyond the new lines
    /// written there: no reading.
    pub(crate) outside: bool,
}

/// The constants of the score.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scoring {
    /// What a kept line inside the segment (not in an edge run) counts, as a share of its weight.
    pub(crate) inner: f64,
    /// The cost of a changed block.
    pub(crate) block: f64,
    /// The cost of a changed block of blank lines only.
    pub(crate) blank_block: f64,
    /// The cost of a block's excess deletions, per unit of `ln(1 + excess)`.
    pub(crate) excess: f64,
    /// The cost of a non-blank file line replaced by a new line unlike it.
    pub(crate) unalike: f64,
    /// The cost of a non-blank file line replaced by a new line alike it.
    pub(crate) alike: f64,
    /// The cost of a blank file line deleted beyond the blank lines written in its place.
    pub(crate) blank: f64,
    /// The cost of an edge line written as new although the file holds it right there (and, times
    /// the line's weight, elsewhere in the window).
    pub(crate) edge_new: f64,
    /// Readings whose scores differ by less than this, with different results, are ambiguous.
    pub(crate) margin: f64,
    /// The cost of an edge kept at the farther of two copies (not the minimal window).
    pub(crate) not_minimal: f64,
    /// The cost of a new line the file holds once.
    pub(crate) dup_unique: f64,
    /// What each kept edge counts, whatever its weight.
    pub(crate) edge_kept: f64,
    /// The cost of each excess deletion, beyond the log term.
    pub(crate) excess_line: f64,
    /// What the weights of the segment's first and last lines, where kept, count beyond their run.
    pub(crate) edge_weight: f64,
    /// The cost of each non-blank new line.
    pub(crate) new_line: f64,
    /// The least an edge held on its side and written as new counts in `edge_new`.
    pub(crate) edge_floor: f64,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            inner: INNER,
            block: BLOCK,
            blank_block: BLANK_BLOCK,
            excess: EXCESS,
            unalike: UNALIKE,
            alike: ALIKE,
            blank: BLANK,
            edge_new: EDGE_NEW,
            margin: crate::snippet::MARGIN,
            not_minimal: NOT_MINIMAL,
            dup_unique: DUP_UNIQUE,
            edge_weight: EDGE_WEIGHT,
            new_line: NEW_LINE,
            edge_kept: EDGE_KEPT,
            excess_line: EXCESS_LINE,
            edge_floor: 0.5,
        }
    }
}

/// See [`Scoring::inner`].
pub(crate) const INNER: f64 = 0.25;
/// See [`Scoring::block`].
pub(crate) const BLOCK: f64 = 1.0;
/// See [`Scoring::blank_block`].
pub(crate) const BLANK_BLOCK: f64 = 0.5;
/// See [`Scoring::excess`].
pub(crate) const EXCESS: f64 = 0.4;
/// See [`Scoring::unalike`].
pub(crate) const UNALIKE: f64 = 0.3;
/// See [`Scoring::alike`].
pub(crate) const ALIKE: f64 = 0.05;
/// See [`Scoring::blank`].
pub(crate) const BLANK: f64 = 0.0;
/// See [`Scoring::not_minimal`].
pub(crate) const NOT_MINIMAL: f64 = 1.0;
/// See [`Scoring::dup_unique`].
pub(crate) const DUP_UNIQUE: f64 = 0.25;
/// See [`Scoring::edge_weight`].
pub(crate) const EDGE_WEIGHT: f64 = 1.0;
/// See [`Scoring::new_line`].
pub(crate) const NEW_LINE: f64 = 0.3;
/// See [`Scoring::edge_kept`].
pub(crate) const EDGE_KEPT: f64 = 2.0;
/// See [`Scoring::excess_line`].
pub(crate) const EXCESS_LINE: f64 = 0.05;
/// See [`Scoring::edge_new`].
pub(crate) const EDGE_NEW: f64 = 4.0;

impl Scoring {
    /// The score of a reading with these terms.
    pub(crate) fn score(&self, t: &Terms) -> f64 {
        t.edge_runs + self.inner * t.inner + self.edge_kept * t.edges_kept_count as f64
            - self.excess_line * t.deleted_excess as f64
            + self.edge_weight * t.edges
            - self.new_line * t.new_lines as f64
            - self.block * t.blocks as f64
            - self.blank_block * t.blank_blocks as f64
            - self.excess * t.excess_log
            - self.unalike * t.rewritten_unalike as f64
            - self.alike * t.rewritten_alike as f64
            - self.blank * t.blank_deleted as f64
            - self.edge_new * t.edge_new
            - self.not_minimal * t.not_minimal as f64
            - self.dup_unique * t.dup_unique as f64
    }
}
