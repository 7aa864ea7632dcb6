//! Every way to place all segments, in order: each segment's readings in the window the previous
//! segment leaves (narrowed to a header's block where the previous segment ends with one), combined
//! and scored.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::snippet::cut::Segment;
use crate::snippet::keys::{exact_key, indent_of, is_closer, key, FileLines, Keying};
use crate::snippet::readings::{SegReading, SegmentLines};
use crate::snippet::scoring::Scoring;

/// At most this many complete readings are explored; past it the search stops and says so.
pub(crate) const MAX_EXPLORED: usize = 2048;
/// Of one segment's readings in one window, at most this many are combined with the next
/// segments' (the best first)...
const MAX_PER_SEGMENT: usize = 12;
/// ...and none scoring less than the segment's best by more than this (it could not come within
/// the margin of the best reading).
const PRUNE: f64 = 6.0;

/// What a reading of a segment indented as a header's block costs when it lies past that block.
pub(crate) const OUT_OF_BLOCK: f64 = 1.5;

/// A header's block: segments indented more than `indent` (in the snippet) are searched up to `end`,
/// or up to `outer_end` (past the closers of the enclosing blocks right after the block's own) for a
/// segment that shows a closer indented less than the header.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Block {
    indent: usize,
    end: usize,
    outer_end: usize,
}

/// A complete reading: one reading per segment, its total score and a hash of its result.
pub(crate) struct Found {
    pub(crate) places: Vec<SegReading>,
    pub(crate) score: f64,
    pub(crate) hash: u64,
}

/// What a search found.
pub(crate) struct Outcome {
    pub(crate) found: Vec<Found>,
    pub(crate) capped: bool,
    /// The furthest segment some branch failed at, with the window it was searched in.
    pub(crate) failed: Option<(usize, usize, usize)>,
}

pub(crate) struct Search<'a, 't, 's> {
    file: &'a FileLines<'t>,
    file_exact: Vec<&'t [u8]>,
    segments: &'a [Segment<'s>],
    keys: Vec<Vec<&'s [u8]>>,
    exact: Vec<Vec<&'s [u8]>>,
    scoring: &'a Scoring,
    memo: HashMap<(usize, usize, usize), Rc<Vec<SegReading>>>,
    found: Vec<Found>,
    explored: usize,
    capped: bool,
    failed: Option<(usize, usize, usize)>,
}

impl<'a, 't, 's> Search<'a, 't, 's> {
    /// Every reading of `segments` in `file`.
    pub(crate) fn run(
        file: &'a FileLines<'t>,
        segments: &'a [Segment<'s>],
        keying: Keying,
        scoring: &'a Scoring,
    ) -> Outcome {
        let keys = segments
            .iter()
            .map(|s| s.lines.iter().map(|l| key(l.text.as_bytes(), keying)).collect())
            .collect();
        let exact = segments
            .iter()
            .map(|s| s.lines.iter().map(|l| exact_key(l.text.as_bytes(), keying)).collect())
            .collect();
        let file_exact = file.lines.iter().map(|l| exact_key(l.content, keying)).collect();
        let mut search = Search {
            file,
            file_exact,
            segments,
            keys,
            exact,
            scoring,
            memo: HashMap::new(),
            found: Vec::new(),
            explored: 0,
            capped: false,
            failed: None,
        };
        let mut placed = Vec::with_capacity(segments.len());
        search.place(0, 0, &mut Vec::new(), &mut placed);
        Outcome {
            found: search.found,
            capped: search.capped,
            failed: search.failed,
        }
    }

    /// Segment `k`'s readings in file lines `lo..hi`, best first (computed once per window).
    fn readings(&mut self, k: usize, lo: usize, hi: usize) -> Rc<Vec<SegReading>> {
        if let Some(r) = self.memo.get(&(k, lo, hi)) {
            return r.clone();
        }
        let lines = SegmentLines {
            file: self.file,
            file_exact: &self.file_exact,
            keys: &self.keys[k],
            exact: &self.exact[k],
        };
        let mut all = lines.readings(lo, hi, self.scoring);
        if let Some(best) = all.first().map(|r| r.score) {
            let mut n = 0;
            all.retain(|r| {
                n += 1;
                n <= MAX_PER_SEGMENT && r.score >= best - PRUNE
            });
        }
        let all = Rc::new(all);
        self.memo.insert((k, lo, hi), all.clone());
        all
    }

    /// Places segment `k` and the ones after it from file line `lo`, inside the innermost block of
    /// `blocks` that encloses it.
    fn place(&mut self, k: usize, lo: usize, blocks: &mut Vec<Block>, placed: &mut Vec<SegReading>) {
        if self.capped {
            return;
        }
        if k == self.segments.len() {
            self.explored += 1;
            if self.explored > MAX_EXPLORED {
                self.capped = true;
                return;
            }
            let score = placed.iter().map(|p| p.score).sum();
            let hash = self.result_hash(placed);
            self.found.push(Found {
                places: placed.clone(),
                score,
                hash,
            });
            return;
        }
        let indent = self.segment_indent(k);
        let saved = blocks.clone();
        while blocks.last().is_some_and(|b| b.indent >= indent) {
            blocks.pop();
        }
        let file_len = self.file.len();
        let hi = blocks
            .last()
            .map_or(file_len, |b| {
                if self.closes_outer_block(k, b.indent) {
                    b.outer_end
                } else {
                    b.end
                }
            })
            .max(lo);
        // Inside a header's block first; the header narrows the search, it does not forbid the rest
        // of the file (the segment's indentation only looked like the block's body): readings
        // after the block count too, at a cost ([`OUT_OF_BLOCK`]).
        let mut candidates = self.readings(k, lo, hi);
        if !blocks.is_empty() && hi < file_len {
            let outside = self.readings(k, lo, file_len.max(lo));
            let mut all: Vec<SegReading> = candidates.as_ref().clone();
            for r in outside.iter() {
                if r.end > hi && !all.iter().any(|a| a.start == r.start && a.end == r.end) {
                    let mut r = r.clone();
                    r.score -= OUT_OF_BLOCK;
                    all.push(r);
                }
            }
            all.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)));
            all.truncate(MAX_PER_SEGMENT);
            candidates = Rc::new(all);
        }
        for reading in candidates.iter() {
            placed.push(reading.clone());
            // A reading past the header's block leaves it: the next segments are searched as
            // outside any header.
            let kept_blocks = if reading.end > hi {
                std::mem::take(blocks)
            } else {
                Vec::new()
            };
            let depth = blocks.len();
            if let Some(block) = self.header_block(k, reading) {
                blocks.push(block);
            }
            self.place(k + 1, reading.end, blocks, placed);
            blocks.truncate(depth);
            if reading.end > hi {
                *blocks = kept_blocks;
            }
            placed.pop();
            if self.capped {
                break;
            }
        }
        *blocks = saved;
    }

    /// Whether segment `k` shows a closer (`}`, `)`, `]`, `end`) indented less than a header indented
    /// `indent` (in the snippet): it closes a block that encloses the header's, after the header's
    /// own block ends.
    fn closes_outer_block(&self, k: usize, indent: usize) -> bool {
        self.segments[k].lines.iter().any(|l| {
            let t = l.text.trim().as_bytes();
            !t.is_empty() && is_closer(t) && indent_of(l.text.as_bytes()).len() < indent
        })
    }

    /// The least indentation (in characters, as the snippet writes it) of segment `k`'s lines,
    /// blank lines and closing lines (`}`, `)`, `]`, `end`: a block holds its closer) aside.
    fn segment_indent(&self, k: usize) -> usize {
        self.segments[k]
            .lines
            .iter()
            .filter(|l| !l.text.trim().is_empty() && !is_closer(l.text.trim().as_bytes()))
            .map(|l| indent_of(l.text.as_bytes()).len())
            .min()
            .unwrap_or(0)
    }

    /// When segment `k`, placed as `reading`, ends with a header (its last line is a file line that
    /// the following non-blank file lines indent more), the block it opens.
    fn header_block(&self, k: usize, reading: &SegReading) -> Option<Block> {
        let seg = &self.segments[k];
        let last = seg.lines.last()?;
        let end = reading.end;
        if end == 0 || reading.kept.last().copied().flatten() != Some(end - 1) {
            return None;
        }
        let file = self.file;
        let header_indent = indent_of(file.lines[end - 1].content).len();
        let next = (end..file.len()).find(|&j| !file.keys[j].trim_ascii().is_empty())?;
        if indent_of(file.lines[next].content).len() <= header_indent {
            return None;
        }
        let mut block_end = (next..file.len())
            .find(|&j| !file.keys[j].trim_ascii().is_empty() && indent_of(file.lines[j].content).len() <= header_indent)
            .unwrap_or(file.len());
        let skip_blanks = |mut i: usize| {
            while i < file.len() && file.keys[i].trim_ascii().is_empty() {
                i += 1;
            }
            i
        };
        let mut outer_end = block_end;
        if block_end < file.len() && is_closer(file.lines[block_end].content.trim_ascii()) {
            // The blank lines after the closer go with it (a segment that ends with the closer and
            // a blank line spans them here).
            let mut width = indent_of(file.lines[block_end].content).len();
            block_end = skip_blanks(block_end + 1);
            // The closers of the enclosing blocks right after it, each shallower than the one
            // before (`  }` then `}`), for a segment that shows them.
            outer_end = block_end;
            while outer_end < file.len()
                && is_closer(file.lines[outer_end].content.trim_ascii())
                && indent_of(file.lines[outer_end].content).len() < width
            {
                width = indent_of(file.lines[outer_end].content).len();
                outer_end = skip_blanks(outer_end + 1);
            }
        }
        Some(Block {
            indent: indent_of(last.text.as_bytes()).len(),
            end: block_end,
            outer_end,
        })
    }

    /// A hash of the merged text a reading gives, by line keys.
    fn result_hash(&self, placed: &[SegReading]) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut at = 0;
        for (k, p) in placed.iter().enumerate() {
            for key in &self.file.keys[at..p.start] {
                key.hash(&mut h);
            }
            for key in &self.keys[k] {
                key.hash(&mut h);
            }
            at = p.end;
        }
        for key in &self.file.keys[at..] {
            key.hash(&mut h);
        }
        h.finish()
    }
}
