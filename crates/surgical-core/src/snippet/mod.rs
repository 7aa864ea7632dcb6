// Stage 6 of the core, lazy snippets (a comment, not docs: the module is public). May import:
// `text`, `find`, `error`, `changes`. Imported by: nothing but `lib.rs`'s re-export.

//! Lazy snippets: the changed code with unchanged stretches elided by marker lines
//! (`// ... existing code ...`), merged into a file deterministically, or refused.
//!
//! # Semantics
//!
//! - **Markers.** A snippet line is a marker when the one marker grammar of [`crate::marker`]
//!   reads it as one in the file's kind of text ([`is_marker_in`], [`apply_snippet_in`]): an
//!   omission phrase (`... existing code ...`, `... rest of the document ...`, `... 12 more lines
//!   ...`) in any comment syntax models use (`//`, `#`, `<!-- -->`, `/* */`, `{# #}`, `--`, `;`,
//!   `%`, `'`, `REM`, `::`, `!`, reStructuredText's `..`, ...), in brackets or with no syntax at all
//!   (plain text, CSV), or a bare ellipsis (`...`, `…`). Spread syntax (`...args`), an ellipsis
//!   inside code (`f(a...)`), a comment without an omission phrase (`// TODO ...`) and a doc
//!   comment's continuation line whose text is itself a comment (` *     // ...`, code quoted in
//!   the doc) are no markers. A marker stands for file lines kept exactly as they are. A line that
//!   reads as a marker is code when it matches the file there: when the file holds it (same
//!   indentation) next to a line equal to its neighbour in the snippet, or when it is a bare `...`
//!   under a line ending with `:` and the file holds `...` so indented (Python's stub body). A line
//!   read as a marker is never written into the file. A marker-like line the file holds is read
//!   both ways (up to `MAX_DOUBTFUL`, 3, such lines): when one way gives a single reading, the other
//!   way's spans that delete unshown lines with no anchor naming their place (counted only beside
//!   other readings, see "A deletion with no anchor naming its place") are counted beside it
//!   (issue 31 class 1'', content read as a marker beside a rewrite: a file ending with its own
//!   `// ...` line, the line before it rewritten, was an insertion that kept the old line). The
//!   two ways giving different files, the snippet is refused as `ambiguous`.
//! - **Segments.** The code lines between markers form segments (a segment of blank lines only is
//!   dropped; other blank lines are lines like any other). Lines are compared with their trailing blanks and line endings
//!   ignored and their indentation as written; when no reading fits that way, the whole snippet is
//!   tried again with indentation ignored, and new lines are then re-indented like the file's
//!   nearest kept line (tabs where the file uses tabs). A new line's own text, trailing blanks
//!   included, is written as the snippet has it: a line of blanks only too (re-indented like the
//!   others when indentation is ignored; an empty line stays empty).
//! - **Indentation re-keyed only on evidence** (issue 31 class 4c). When the snippet fits as
//!   written but indents with tabs where the file mostly indents with spaces (or the reverse), its
//!   lines are compared and written with the file's indentation only where the model's own context
//!   shows it sees the file's indentation otherwise: a segment line that pairs with a file line
//!   (indentation ignored) indented with other bytes (spaces for the file's tabs). Where its
//!   indented context lines are the file's byte for byte, its new lines are written as it wrote
//!   them (a Makefile's tab-indented recipes in a file whose other lines indent with spaces; new
//!   tab-indented lines in a space-indented script). With no indented context line, the file lines
//!   the snippet replaces vote against the snippet's lines; with none there either, the whole
//!   file's vote (the rule before). On the lines the model wrote, its bytes are written.
//! - **Placing a segment.** Its *head* is the longest run of its first lines found together in the
//!   file (at one place), its *tail* the longest run of its last lines found together after the
//!   head. The segment replaces the file lines from its head to the nearest tail after it: file
//!   lines between the two that the segment does not show are deleted, segment lines the file does
//!   not have are inserted, lines both have are kept byte for byte. A segment whose first lines are
//!   new (no head) is inserted before its tail; one whose last lines are new (no tail), after its
//!   head — unless that first (last) line is a strong line the file holds elsewhere; when the file
//!   line next to the anchor is alike the first new line (it may be rewritten, not joined), or the
//!   snippet has no marker there to say it is kept, replacing it counts as a reading too. When the
//!   head is made only of weak lines (blank, punctuation, or one word of six letters or digits or
//!   fewer: brackets, `end`, `child`, `.unwrap();`) and the replacement would delete lines,
//!   "insert before the tail" is counted as a reading too (unless that weak head is a run of two
//!   lines or more that the file holds once: the insertion would write the run again as new lines
//!   while the replacement anchors it where it is, so the replacement is the reading); likewise a weak tail and "insert after the head": insert versus replace in repetitive code
//!   is decided by strong anchors, else refused as ambiguous. A short word line that the file holds
//!   exactly once and that closes no block (`child`, `format!(`) is no weak line: found once, it
//!   names one place as well as a long line does, and a reading that would write it again beside
//!   the file's only copy is no insertion (closers such as `}`, `});`, `end` stay weak however
//!   often they occur, since a new block brings its own). A reading that would repeat the
//!   snippet's anchor lines where a reading without deletion keeps them is not counted.
//! - **Weak lines only.** A segment that starts with lines of the file but has no place anchored by
//!   a strong line (new code after `    }` then `}` at the end of a file) is searched again with weak
//!   lines anchoring, and then every reading they anchor is counted, as inside a header's block: a
//!   run of weak lines the file holds once places the segment, weak lines that also fit elsewhere
//!   (a shorter run of them included, the rest written as new) make it ambiguous. Counting only
//!   the unique run's reading would drop the rival readings and place one wrongly.
//! - **A last line repeating the head.** When a segment's last line repeats a line of its head
//!   (`A B` shown, new lines, then `B` again), that line is new where the head stands: the head
//!   with the rest inserted after it is a reading, beside the span to any farther copy of the line.
//!   Were the span the only reading, it would delete the lines between unseen. That concern is
//!   the span anchored by the repeated line (and weak lines) alone: where a span from the head
//!   ends at a tail holding a strong line that is not the head's, that tail anchors the segment's
//!   end as any strong tail does, and "the head with the rest after it" is not counted, as it is
//!   not for any segment whose strong last lines the file holds after the head.
//! - **An insertion beside a span that deletes nothing.** An insertion counted at a weak anchor
//!   ("insert before the tail", "insert after the head", or the head with the rest after it when
//!   the last line repeats the head) is not counted when the span from the same anchor to a tail
//!   deletes no file line (every file line from head to tail is shown, in order) and the file
//!   lines that the insertion would write again as new lines include a strong line the file holds
//!   exactly once. Both readings lose no line; the span is counted and shows that unique line once,
//!   where the insertion would write a second copy of it beside the original. (Without the unique
//!   line the insertion stays counted: a block ending with copies of `}` then `fn f() {`, inserted
//!   before the file's own, is the insertion, as the block property found.)
//! - **An insertion of punctuation only.** An insertion at a weak anchor whose new lines are all
//!   punctuation or blank (`},` then `]);`, `/>,` written again after the head) adds no code; the
//!   span between the same shown anchors, which deletes the lines the snippet leaves out between
//!   them (the documented meaning of lines left out between two anchors), is counted and the
//!   insertion is not. A new line holding a letter or digit keeps insert against replace open.
//! - **A closer that would close nothing.** "Insert before the tail" behind a weak head writes the
//!   head's lines again as new lines just before the tail. When the head's first line is a closer
//!   that would close nothing there, it is the file's line and the insertion is not counted: a
//!   bracket closer (`}`, `]`, `)`, `end`) after a line indented no deeper than it that opens no
//!   bracket and no keyword block (its last word `do` or `then`, or `do |x|`: `end` closes those;
//!   issue 31 class 3, a Ruby example's `end` written again after `factory :x do`), or a comment closer `*/` after a line that is no comment's (starting with neither
//!   `*` nor `/*`). New code does not start by closing a block that is not open where it goes.
//!   Likewise a comment opener (`/*`, `/**`) after a comment's continuation line (starting with
//!   `*`, not ending with `*/`): it would open a comment inside one.
//!   (Where the lines between head and tail are all indented deeper than both, the insertion was
//!   never counted: they are the body the anchors delimit.)
//! - **A closer that would strand the file's next line.** "Insert after the head" before a weak
//!   tail writes the segment's other lines, its tail's closers included, between the head and the
//!   file's next line. It is not counted beside the span from the same head to the tail when all of
//!   these hold: a new line closes a block (`}`, `)`, `]`, `end`) indented less than the file's
//!   next non-blank line, and the last new line is indented less than it too and opens no block
//!   (it ends with none of `{`, `(`, `[`, `:`), so that the file's next line would stand after
//!   the closer of the block it is in (`check(old);` after `}` and `@Test`); the file's brackets
//!   balance, the insertion would unbalance them and the span keeps them as they are; the span is
//!   counted and strands nothing itself; and every non-blank line the span deletes is alike a new
//!   line of the segment (the changed lines rewrite what it deletes: the evidence). Indentation is
//!   measured from the head's last line, in the snippet and in the file. Likewise new lines ending
//!   with a comment closer (`*/`) before the file's next line that continues a comment
//!   (` * old text`), the span rewriting what it deletes: that line would stand after the
//!   comment's end. The same holds for "the head with the rest after it" (a last line repeating
//!   the head). A new test inserted after its neighbour's closing line ends no shallower than the
//!   file's next line and keeps the brackets balanced: both readings stay. (The block property
//!   inserts blocks of random lines, a copied `}` among them; into a file whose brackets balance,
//!   one that unbalances them and strands the next line is the code this rule reads as a
//!   rewrite.)
//! - **A raw string left open.** Likewise "insert after the head" (or the head with the rest after
//!   it) is not counted beside the span from the same head when the file's backquotes pair up (an
//!   even number: Go's raw strings, JavaScript's template literals all closed), the lines after the
//!   head hold an odd number of them (a raw string's closing `` ` `` written again: the file's
//!   own closing line would then open a string), the span keeps them paired, it deletes a
//!   non-blank line, and every non-blank line it deletes is alike a new line (a line of the string
//!   rewritten, such as a typo fixed before the closing line). A span that deletes blank lines
//!   only rewrites nothing: both stay counted (the block property found that one).
//! - **A span whose anchors are common while the segment names another place** (issue 31 R2/R3,
//!   lock and project files' repeated stanzas). A span whose head lines are all common (held by
//!   the file more than once, or weak and not held once: `[[package]]`, `dependencies = [`) is not
//!   counted when the segment's first new line after that head is a strong line the file holds
//!   exactly once, outside the span (`name = "beta"`), and the file holds that line right after a
//!   copy of the whole head, inside the window: there the rival span, anchored by the head and
//!   the unique line together, is counted, and keeps the line as the file's where this span would
//!   write a second copy of it over a similar stanza. Likewise for the tail and the segment's last
//!   new line before it. A word line the file holds once (`# Polly` at a README's top, a lone
//!   `else`) is no common line, and without the rival next to the anchors (the unique line stands
//!   elsewhere in other company) the span stays counted: left out, it could leave a weaker reading
//!   alone (a README's paragraph written twice by "the head with the rest after it").
//! - **Rewrite the next line, or insert beside it** (issue 31 R2). An insertion at a weak anchor
//!   ("insert after the head" before a weak tail, "insert before the tail" behind a weak head) is
//!   not counted beside the span between the same anchors when its strong anchor holds a line the
//!   file holds once, the span rewrites one for one (as many non-blank lines deleted as written,
//!   each deleted line alike the new one in its place) and the insertion would break what the span
//!   keeps: a key set twice in one block (each rewritten line sets the same key at the same
//!   indentation: a YAML step's `uses:`, a lock file's `version =`, a struct literal's field), brackets
//!   unbalanced in a file where they balance and the span keeps them so (`if (new) {` inserted
//!   before `if (old) {`), or one long line left right after its near copy (at least
//!   `NEAR_COPY_MIN_BYTES` (24) on both sides and `NEAR_COPY_RATIO` (0.8) alike: a word or a letter's case
//!   changed in a comment or a sentence). Without such evidence both stay: `check(new(5));` after
//!   a unique `check(1);` may be a new call beside `check(old(5));`, a new test block may go
//!   before a test like it.
//! - **A deletion beside places that lose nothing** (issue 31 class 3). A reading that deletes a
//!   file line the snippet does not show (a non-blank line the alignment does not keep and no new
//!   line is alike) needs more evidence than one that loses none. Where every reading counted for
//!   a segment deletes such a line, the spans between weak anchors only (`{` ... `}`, not counted
//!   otherwise outside a header's block) that lose no line's text (each non-blank line they delete
//!   written again among the new lines, re-indented at most) are counted too: the snippet that
//!   drops a line of a block the file holds once, or expands a short form of it held between
//!   `{` and `}` elsewhere, is refused as ambiguous and lists them. A span that rewrites a line
//!   (`# v1.16.1` into `# v1.16.0`) loses its text too and rivals nothing: a deletion between a
//!   weak heading and a unique one stays placed. Spans longer than `LOSS_SCAN_LINES` (400) are
//!   taken as losing lines without a diff.
//! - **A deletion with no anchor naming its place** (issue 31 class 1'). A span that deletes a
//!   line the snippet does not show, anchored by lines none of which names one place (weak, or
//!   held by the file more than once: `  end`, `end`, a fence, then a paragraph the file holds
//!   twice), is counted only beside other readings of the segment: it can make the snippet
//!   ambiguous, it never places it alone (nothing else counted, the segment is not found). Inside a
//!   header's block a line the block holds once names the place (the header confines it); after
//!   the previous segment, the file's count decides: segments far apart need their own evidence
//!   (a Ruby example's own `    ...` lines read as markers split a snippet into segments placed
//!   1,600 lines apart, the last one deleting an example there). Left out rather than kept beside
//!   the others, it would leave a weaker reading placed alone.
//! - **A stray needs a rival; a pure insertion beside a lossy rival** (issue 31 phase G). A new
//!   line behind a weak head that the file holds elsewhere is no evidence of another place when the
//!   other edge holds a line the file holds once, no copy of the head stands right before the
//!   line's copies ahead of that edge, and the span loses no line (a new test between `}` and a
//!   unique doc comment). A pure insertion between adjacent anchors (`  )` then `}`) is counted
//!   beside a rival anchored by its next new line when the file holds that line once, the rival
//!   deletes lines it does not show, stands apart from the insertion and has a far edge naming no
//!   place: the snippet is refused as ambiguous. Where a segment's last lines are its first ones
//!   (a block copied right after itself), the head of just those lines is a reading beside the
//!   longest head; the file's brackets balancing, the reading whose new lines unbalance them gives
//!   way. A short word line the file holds once (`## Array`) is a strong line held elsewhere.
//! - **Readings not counted, and why that keeps "two results, ambiguous" true.** A reading is left
//!   out only where another one that is counted explains the same snippet with more of its lines
//!   as anchors: a shorter head or tail than the longest run at the same place (the longest one
//!   anchors a superset of its lines there; the shorter one only writes the rest again as new
//!   lines); a span whose head has a later copy before its tail (the later copy's own readings are
//!   counted); a span behind a weak head (before a weak tail) whose next new line is a strong line
//!   the file holds elsewhere, where the segment then anchors by that line too — unless that line
//!   repeats one of the segment's own anchors (the shape above), which is no evidence of another
//!   place, or unless (issue 31 class 2) the file holds that line more than once (`/// <summary>`),
//!   this span deletes no line it does not show, and a span anchored over that line, with no line
//!   the file holds once among its anchors, deletes lines the snippet does not show (both are then
//!   counted: a deletion of unshown lines needs more evidence than a line held many times); or
//!   unless (issue 31 class 1'') the file holds that line only between this span's head and tail,
//!   nowhere right next to a copy of its weak anchors (a DocC article's `_example() {` shown
//!   before the fenced example's own `    ...` line taken as the weak tail, lines apart: the span
//!   keeps it as the file's; a blank line right before `[testenv:docs]` makes it the longer
//!   head's line, still a stray); a span before a weak tail that would write again as new a strong line the segment
//!   shows between its anchors, the file holding that line once, after this tail, inside a farther
//!   span from the same head that is itself counted (not left out by the rules before this one):
//!   that span keeps the line as the file's. Were a rule to leave out a reading without such a counted rival, the one left could be
//!   placed alone and wrongly: the block property in tests/snippet_properties.rs (new lines, some
//!   copies of the window's, inserted anywhere) checks that none does.
//! - **Order and headers.** Segments are placed in order, each after the previous one. A segment
//!   whose last line opens a block in the file (the next file lines are indented more) is a header:
//!   the following segments whose lines are all indented more than it (closing lines such as `}`
//!   aside) are searched inside that block only (up to the first line indented no more than the
//!   header, a closing `}`, `)`, `]` or `end` included, and the blank lines after it); a segment
//!   that shows a closer indented less than the header (`  }` then `}`: it ends the header's block
//!   and an enclosing one) is searched up to the enclosing blocks' closers right after that closer
//!   too, each shallower than the one before, since it shows them (inside the block alone, every
//!   reading would write them again as new lines); a segment with no place there is searched
//!   in the rest of the file, as outside any header (the header narrows the search, it does not
//!   forbid the rest: `const KEYS = [` then code of a later function, indented as deep).
//! - **Edges.** A snippet without a marker before its first segment or after its last keeps the
//!   file's lines before or after them ("keep the rest": models forget edge markers); those kept
//!   lines are reported ([`Placement::kept_before`], [`Placement::kept_after`]), never
//!   deleted.
//! - **Readings.** Every way to place all segments is counted: more than one distinct result is
//!   [`SnippetError::Ambiguous`] (the readings, with their line numbers); none is
//!   [`SnippetError::NotFound`] with the closest region of each segment that did not land. A
//!   snippet that changes nothing is [`SnippetError::NoChange`].
//! - **Which alike line is the file's.** Inside a segment, which shown line is which file line is a
//!   diff of the two (lines compared as above), git's: Myers' algorithm as git runs it, each run of
//!   changed lines that can slide placed by git's indent heuristic (a deleted method between two
//!   `@Override` lines takes the first one with it; of two swapped lines the first is the moved,
//!   new one). Among alignments that keep as many lines, one that
//!   keeps only lines the model wrote byte for byte as the file has them, trailing blanks included,
//!   is taken (`# ` new, then `#` as the file has it: `#` is the file's line, `# ` is written with its
//!   blank). Then each kept file line is the earliest alike segment line after the previous kept
//!   one: of alike lines (a blank, `#`) the first is the file's and the later one is new, as git's
//!   diff of a commit shows it — unless taking the latest alike ones leaves fewer runs of changed
//!   lines (issue 31 class 4d): then the file's alike lines stay beside the strong line they stand
//!   next to in the file, and the new lines are one run, as the model wrote them (a method
//!   inserted before the blank line and doc opener of the next keeps the file's blank right before
//!   that doc). The model cannot see the bytes in which two alike lines may differ (a line ending
//!   in a file of mixed endings); fixed rules on what it wrote, never those bytes, decide.
//! - **Bytes.** The merge goes through a [`ChangeSet`], one replacement or insertion per run of
//!   changed lines: every byte outside those runs is the file's, the kept lines between them too
//!   (they are not rewritten, so their endings stay on the lines the alignment keeps); new lines
//!   take the file's line ending there: in an insertion, that of the line before; in a run that
//!   rewrites as many lines as it replaces or fewer, each new line that of the file line it stands
//!   in for; in a run that writes more lines than it replaces, where the file lines around the run
//!   end alike, all its lines take that ending (issue 31 class 4d: a mixed-ending file's odd line
//!   rewritten into a block does not lend its ending to the block), else the engine's rule (the
//!   lines past the replaced ones take the ending of the last one). Deleting the file's last lines where its last line has no
//!   line break is written with the segment's whole region, so that no final line break appears.
//!
//! Work is near-linear: the file's lines are keyed once; each segment looks up its first and last
//! lines in a map; the readings explored are capped ([`MAX_READINGS`]).

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::changes::{Applied, AppliedEdit, ChangeSet, Spliced};
use crate::error::EditError;
use crate::find::closest::{closest_regions, Closest};
use crate::find::haystack::Haystack;
use crate::find::needle::Match;
use crate::find::tier::Tier;
use crate::text::budget::Budget;
use crate::text::lines::{lines, model_newlines, Line};
use crate::text::marker::{self, TextKind};
use crate::text::normalize::Fold;

/// At most this many complete readings are explored; past it the snippet is ambiguous.
pub const MAX_READINGS: usize = 32;
/// At most this many readings are listed in [`SnippetError::Ambiguous`].
const MAX_LISTED_READINGS: usize = 5;
/// A segment with more places than this for its head is ambiguous without further search.
const MAX_PLACES: usize = 256;

/// Whether `line` is a marker line in code ([`is_marker_in`] with [`TextKind::Code`]).
pub fn is_marker(line: &str) -> bool {
    is_marker_in(line, TextKind::Code)
}

/// Whether `line` reads as a marker line (code left out, kept as the file has it) in a file of
/// `kind`: the one marker grammar of [`crate::marker`], strong or weak (`// ... existing code ...`,
/// `.. ... existing content ...` in reStructuredText, `... existing rows ...` with no comment
/// syntax, a bare `...`). Spread syntax (`...args`), an ellipsis inside code (`f(a...)`), a comment
/// without an omission phrase (`// TODO ...`) are not. Where the file holds the line next to the
/// snippet's neighbour, or a bare `...` is a Python stub's body, the merge reads it as content (see
/// the module docs).
pub fn is_marker_in(line: &str, kind: TextKind) -> bool {
    marker::read(line, kind).is_some()
}

/// Where one segment of the snippet landed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SegmentPlacement {
    /// One-based first and last line of the snippet the segment is made of.
    pub snippet_lines: (usize, usize),
    /// One-based first and last line of the file the segment replaced (before the merge).
    pub old_lines: (usize, usize),
    /// One-based first and last line of the segment in the merged text.
    pub new_lines: (usize, usize),
    /// How many file lines the segment deleted: lines of the replaced region it does not show as
    /// they are (a line it rewrites counts).
    pub deleted_lines: usize,
    /// Whether the segment changed anything (a segment of anchors only does not).
    pub changed: bool,
}

/// A merged snippet: the new text and where each segment went.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SnippetApplied {
    /// The change set's result: the new text, and one applied edit per segment that changed
    /// something (its `index` is the segment's).
    pub applied: Applied,
    /// Where the segments went.
    pub placement: Placement,
}

/// A snippet merged, as replacements of the text ([`apply_snippet_spliced`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SnippetSpliced {
    /// The change set's replacements, and one applied edit per segment that changed something
    /// (its `index` is the segment's): the edits of [`SnippetApplied::applied`].
    pub spliced: Spliced,
    /// Where the segments went.
    pub placement: Placement,
}

/// Where a snippet's segments went.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Placement {
    /// Every segment, in snippet order.
    pub segments: Vec<SegmentPlacement>,
    /// One-based first and last file line kept before the first segment although the snippet shows
    /// no marker there (the snippet's edge read as "keep the rest"); `None` when the snippet starts
    /// with a marker or its first segment starts at line 1.
    pub kept_before: Option<(usize, usize)>,
    /// The same after the last segment, in lines of the file before the merge.
    pub kept_after: Option<(usize, usize)>,
    /// Whether lines were compared with their indentation ignored (none fit as written); new lines
    /// were then re-indented like the file's.
    pub indentation_ignored: bool,
}

/// One way to place every segment: per segment, the one-based first and last file line it replaces
/// (for an insertion, the anchor lines it keeps).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reading {
    /// Per segment, in snippet order.
    pub segments: Vec<(usize, usize)>,
}

/// A segment that could not be placed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SegmentMiss {
    /// The segment's index, from 0.
    pub index: usize,
    /// One-based first and last snippet line of the segment.
    pub snippet_lines: (usize, usize),
    /// One-based file lines after which it was searched (0: from the start) and up to which.
    pub searched: (usize, usize),
    /// The regions of the file most like it.
    pub closest: Closest,
}

/// Why a snippet was not merged. Nothing was changed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SnippetError {
    /// The snippet holds no code line (empty, or markers only).
    Empty,
    /// No reading places every segment: the segments that did not land in the reading that went
    /// furthest.
    NotFound {
        /// In snippet order.
        segments: Vec<SegmentMiss>,
    },
    /// Several readings give different results.
    Ambiguous {
        /// The first few readings (at most five).
        readings: Vec<Reading>,
        /// How many distinct results were found (at least; the search stops at [`MAX_READINGS`]).
        total: usize,
        /// Whether the search stopped at its cap.
        capped: bool,
    },
    /// More than three snippet lines look like markers and are lines of the file too (`...`,
    /// `// ...`): each could be either, too many readings to count.
    MarkerLike {
        /// Their one-based lines in the snippet.
        lines: Vec<usize>,
    },
    /// The only reading changes nothing.
    NoChange,
    /// The change set refused the merge (invalid bytes, a legacy encoding).
    Engine(EditError),
}

impl std::fmt::Display for SnippetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnippetError::Empty => write!(f, "the snippet holds no code"),
            SnippetError::NotFound { segments } => write!(f, "{} segment(s) not found", segments.len()),
            SnippetError::Ambiguous { total, .. } => write!(f, "{total} readings"),
            SnippetError::NoChange => write!(f, "the snippet changes nothing"),
            SnippetError::MarkerLike { lines } => write!(f, "{} marker-like lines", lines.len()),
            SnippetError::Engine(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SnippetError {}

/// One line of the snippet.
struct SnippetLine<'s> {
    text: &'s str,
    /// One-based line in the snippet.
    number: usize,
}

struct Segment<'s> {
    lines: Vec<SnippetLine<'s>>,
}

/// How lines are compared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keying {
    /// Trailing blanks ignored, indentation as written.
    Indented,
    /// Leading and trailing blanks ignored.
    Trimmed,
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0c' | b'\x0b')
}

fn key(bytes: &[u8], keying: Keying) -> &[u8] {
    let end = bytes.iter().rposition(|&b| !is_blank(b)).map_or(0, |p| p + 1);
    let start = match keying {
        Keying::Indented => 0,
        Keying::Trimmed => bytes[..end].iter().position(|&b| !is_blank(b)).unwrap_or(end),
    };
    &bytes[start..end]
}

/// A line as [`key`] compares it, its trailing blanks kept.
fn exact_key(bytes: &[u8], keying: Keying) -> &[u8] {
    match keying {
        Keying::Indented => bytes,
        Keying::Trimmed => &bytes[bytes.iter().position(|&b| !is_blank(b)).unwrap_or(bytes.len())..],
    }
}

fn indent_of(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().position(|&b| !is_blank(b)).unwrap_or(bytes.len());
    &bytes[..n]
}

/// A weak line anchors nothing by itself: blank, only punctuation, or one word of six letters or
/// fewer with punctuation (`}`, `end`, `pass`, `});`, `} else {`, `return;`).
fn is_weak(key: &[u8]) -> bool {
    let mut words = key
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80))
        .filter(|w| !w.is_empty());
    match (words.next(), words.next()) {
        (None, _) => true,
        (Some(w), None) => w.len() <= 6,
        _ => false,
    }
}

/// A line that closes a block: it starts with `}`, `)`, `]` or the word `end`.
fn is_closer(trimmed: &[u8]) -> bool {
    trimmed.first().is_some_and(|b| b"}])".contains(b))
        || trimmed
            .strip_prefix(b"end")
            .is_some_and(|r| r.first().is_none_or(|b| !b.is_ascii_alphanumeric()))
}

/// Whether `trimmed` opens a block that a keyword closes (`end` in Ruby, Elixir, Lua): its last
/// word is `do` or `then`, or it ends with a block's parameters after `do` (`do |user, context|`).
/// Issue 31 class 3 (factory-bot 75244d8960b0): `end` written again after `factory :x do` closes
/// that block, it does not "close nothing".
fn opens_keyword_block(trimmed: &[u8]) -> bool {
    let code = match trimmed.strip_suffix(b"|") {
        Some(rest) => match rest.iter().rposition(|&b| b == b'|') {
            Some(open) => rest[..open].trim_ascii_end(),
            None => return false,
        },
        None => trimmed,
    };
    [&b"do"[..], b"then"].iter().any(|w| {
        code.strip_suffix(*w)
            .is_some_and(|r| r.last().is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_')))
    })
}

/// Whether `trimmed` is a block comment's continuation line (` * text`): it starts with `*` and
/// does not close the comment.
fn in_open_comment(trimmed: &[u8]) -> bool {
    trimmed.starts_with(b"*") && !trimmed.ends_with(b"*/")
}

/// How many `{`, `(`, `[` a line opens less how many `}`, `)`, `]` it closes, per kind.
fn bracket_delta(line: &[u8]) -> [i64; 3] {
    let mut d = [0i64; 3];
    for (kind, step) in line.iter().filter_map(|&b| bracket(b)) {
        d[kind] += step;
    }
    d
}

/// [`bracket_delta`] summed over `lines`: what they open less what they close, per kind.
fn brackets_net<'l>(lines: impl IntoIterator<Item = &'l [u8]>) -> [i64; 3] {
    lines
        .into_iter()
        .map(bracket_delta)
        .fold([0i64; 3], |a, d| [a[0] + d[0], a[1] + d[1], a[2] + d[2]])
}

/// Which kind of bracket `b` is (0 for `{}`, 1 for `()`, 2 for `[]`) and whether it opens (1) or
/// closes (-1) one.
fn bracket(b: u8) -> Option<(usize, i64)> {
    match b {
        b'{' => Some((0, 1)),
        b'}' => Some((0, -1)),
        b'(' => Some((1, 1)),
        b')' => Some((1, -1)),
        b'[' => Some((2, 1)),
        b']' => Some((2, -1)),
        _ => None,
    }
}

/// Whether each kind of bracket balances over `lines`: never more closed than opened so far, and
/// as many closed as opened at the end (brackets inside strings and comments count as well, so a
/// file with an unmatched one in a string is not balanced: the rules that need balance then do not
/// apply).
fn brackets_balance<'l>(lines: impl Iterator<Item = &'l [u8]>) -> bool {
    let mut open = [0i64; 3];
    for (kind, step) in lines.flat_map(|line| line.iter().filter_map(|&b| bracket(b))) {
        open[kind] += step;
        if open[kind] < 0 {
            return false;
        }
    }
    open == [0; 3]
}

/// How many backquotes (`` ` ``: Go's raw strings, JavaScript's template literals) a line holds.
fn backquotes(line: &[u8]) -> usize {
    line.iter().filter(|&&b| b == b'`').count()
}

/// The key a line sets, with its indentation and list dash (`  - name:` gives `  - name`): an
/// identifier, dotted or quoted name, then `:` or `=` followed by a blank or the line's end (`a::b`,
/// `==`, `=>` and `:=` set nothing). YAML and TOML mappings, INI and properties files, struct
/// literals: a block sets each key once.
fn key_name(line: &[u8]) -> Option<&[u8]> {
    let start = line.iter().position(|&b| !is_blank(b))?;
    let mut i = start;
    if line[i..].starts_with(b"- ") {
        i += 2;
    }
    let name = i;
    while i < line.len() && (line[i].is_ascii_alphanumeric() || b"_-.\"'$@".contains(&line[i])) {
        i += 1;
    }
    if i == name {
        return None;
    }
    let end = i;
    while i < line.len() && is_blank(line[i]) {
        i += 1;
    }
    let sets = match (line.get(i), line.get(i + 1)) {
        (Some(b':'), next) | (Some(b'='), next) => next.is_none_or(|&b| is_blank(b)),
        _ => false,
    };
    sets.then_some(&line[..end])
}

/// The file's lines, keyed.
struct FileLines<'t> {
    /// Shared by the file's keyings (a copy would be 32 bytes a line).
    lines: Rc<Vec<Line<'t>>>,
    keys: Rc<[&'t [u8]]>,
    /// How the keys were made.
    keying: Keying,
    /// Where each key occurs, ascending.
    places: Places<'t>,
    /// Whether the file's brackets balance ([`brackets_balance`]), when first asked: a pass over
    /// every byte that few merges need.
    balanced: OnceCell<bool>,
    /// Whether the file holds an even number of backquotes (its raw strings are all closed), when
    /// first asked.
    backquotes_pair: OnceCell<bool>,
}

/// Where each key occurs, ascending. Indexed first for the keys the snippet's lines have (a large
/// file's every line in one hash map was most of a merge, issue 30): the file's lines with another
/// key are indexed, all of them, only when one such key is asked for, so every answer is the whole
/// file's.
struct Places<'t> {
    keys: Rc<[&'t [u8]]>,
    /// The keys indexed in `wanted` (`None`: every key).
    asked: Option<AskedKeys>,
    wanted: Index<'t>,
    all: OnceCell<Index<'t>>,
}

/// A set of keys, and which lengths they have: most lines have none of them, and are told apart
/// by their length without hashing.
struct AskedKeys {
    set: HashSet<Vec<u8>, foldhash::fast::RandomState>,
    lengths: Vec<bool>,
}

impl AskedKeys {
    fn new<'a>(keys: impl Iterator<Item = &'a [u8]>) -> AskedKeys {
        let mut set = HashSet::with_hasher(foldhash::fast::RandomState::default());
        let mut lengths = Vec::new();
        for k in keys {
            if lengths.len() <= k.len() {
                lengths.resize(k.len() + 1, false);
            }
            lengths[k.len()] = true;
            set.insert(k.to_vec());
        }
        AskedKeys { set, lengths }
    }

    fn contains(&self, k: &[u8]) -> bool {
        self.lengths.get(k.len()) == Some(&true) && self.set.contains(k)
    }
}

/// Where each distinct key of some lines occurs, ascending: one list per key, all in one array (a
/// list per key allocated on its own cost most of a large file's merge in `malloc` and `free`,
/// issue 30).
struct Index<'t> {
    /// Each distinct key's list: `order[starts[g]..starts[g + 1]]`. Hashed with `foldhash` (seeded
    /// per process): a large file's every line may be hashed here, and SipHash was a quarter of
    /// the merge.
    group: HashMap<&'t [u8], usize, foldhash::quality::RandomState>,
    starts: Vec<usize>,
    order: Vec<usize>,
}

impl<'t> Index<'t> {
    /// The index of the lines whose key `keep` accepts.
    fn new(keys: &[&'t [u8]], keep: impl Fn(&[u8]) -> bool) -> Index<'t> {
        let mut group = HashMap::with_hasher(foldhash::quality::RandomState::default());
        let mut group_of = Vec::new();
        let mut counts: Vec<usize> = Vec::new();
        for (i, &k) in keys.iter().enumerate() {
            if !keep(k) {
                continue;
            }
            let next = counts.len();
            let g = *group.entry(k).or_insert(next);
            if g == next {
                counts.push(0);
            }
            counts[g] += 1;
            group_of.push((i, g));
        }
        let mut starts = Vec::with_capacity(counts.len() + 1);
        let mut total = 0;
        starts.push(0);
        for c in counts {
            total += c;
            starts.push(total);
        }
        // Lines in file order: each list comes out ascending.
        let mut next: Vec<usize> = starts[..starts.len() - 1].to_vec();
        let mut order = vec![0; group_of.len()];
        for (i, g) in group_of {
            let at = &mut next[g];
            order[*at] = i;
            *at += 1;
        }
        Index { group, starts, order }
    }

    fn get(&self, k: &[u8]) -> Option<&[usize]> {
        let g = *self.group.get(k)?;
        Some(&self.order[self.starts[g]..self.starts[g + 1]])
    }
}

impl<'t> Places<'t> {
    /// The places of `keys`, indexed for the keys of `asked` first (every key at once when `None`).
    fn new<'a>(keys: &Rc<[&'t [u8]]>, asked: Option<impl Iterator<Item = &'a [u8]>>) -> Places<'t> {
        let asked = asked.map(AskedKeys::new);
        let wanted = match &asked {
            Some(asked) => Index::new(keys, |k| asked.contains(k)),
            None => Index::new(keys, |_| true),
        };
        Places {
            keys: Rc::clone(keys),
            asked,
            wanted,
            all: OnceCell::new(),
        }
    }

    /// The index that answers for `k`.
    fn index_for(&self, k: &[u8]) -> &Index<'t> {
        match &self.asked {
            Some(asked) if !asked.contains(k) => self.all.get_or_init(|| Index::new(&self.keys, |_| true)),
            _ => &self.wanted,
        }
    }

    /// Where `k` occurs, ascending (`None` for a key no line has).
    fn get(&self, k: &[u8]) -> Option<&[usize]> {
        self.index_for(k).get(k)
    }

    fn contains_key(&self, k: &[u8]) -> bool {
        self.get(k).is_some()
    }
}

impl<'t> FileLines<'t> {
    /// Every line of `all` keyed and indexed.
    #[cfg(test)]
    fn new(all: &Rc<Vec<Line<'t>>>, keying: Keying) -> FileLines<'t> {
        FileLines::of(all, keying, None::<std::iter::Empty<&[u8]>>)
    }

    /// Every line of `all` keyed, indexed first for the keys of `asked` (the snippet's lines, in
    /// the same keying): lines with another key are indexed when one is asked for.
    fn asking<'a>(all: &Rc<Vec<Line<'t>>>, keying: Keying, asked: impl Iterator<Item = &'a [u8]>) -> FileLines<'t> {
        FileLines::of(all, keying, Some(asked))
    }

    fn of<'a>(all: &Rc<Vec<Line<'t>>>, keying: Keying, asked: Option<impl Iterator<Item = &'a [u8]>>) -> FileLines<'t> {
        let keys: Rc<[&[u8]]> = all.iter().map(|l| key(l.content, keying)).collect();
        let places = Places::new(&keys, asked);
        FileLines {
            lines: Rc::clone(all),
            keys,
            keying,
            places,
            balanced: OnceCell::new(),
            backquotes_pair: OnceCell::new(),
        }
    }

    /// Whether the file's brackets balance ([`brackets_balance`]).
    fn balanced(&self) -> bool {
        *self
            .balanced
            .get_or_init(|| brackets_balance(self.lines.iter().map(|l| l.content)))
    }

    /// Whether the file holds an even number of backquotes (its raw strings are all closed).
    fn backquotes_pair(&self) -> bool {
        *self
            .backquotes_pair
            .get_or_init(|| self.lines.iter().map(|l| backquotes(l.content)).sum::<usize>() % 2 == 0)
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    /// Places of `k` in `lo..hi`.
    fn places_in(&self, k: &[u8], lo: usize, hi: usize) -> &[usize] {
        match self.places.get(k) {
            Some(v) => {
                let from = v.partition_point(|&p| p < lo);
                let to = v.partition_point(|&p| p < hi);
                &v[from..to]
            }
            None => &[],
        }
    }
}

/// One segment placed: file lines `start..end` are replaced by the segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    start: usize,
    end: usize,
}

/// A header's block: segments indented more than `indent` (in the snippet) are searched up to `end`,
/// or up to `outer_end` (past the closers of the enclosing blocks right after the block's own) for a
/// segment that shows a closer indented less than the header.
#[derive(Clone, Copy)]
struct Block {
    indent: usize,
    end: usize,
    outer_end: usize,
}

struct Search<'a, 't, 's> {
    file: &'a FileLines<'t>,
    segments: &'a [Segment<'s>],
    keys: Vec<Vec<&'s [u8]>>,
    /// No marker before the first segment, after the last.
    open: (bool, bool),
    /// Deletions with no anchor naming their place are counted alone too (another variant's
    /// rivals; see [`Search::run`]).
    rivals: bool,
    readings: Vec<Vec<Place>>,
    hashes: Vec<u64>,
    capped: bool,
    /// The furthest segment some branch failed at, with the window it was searched in.
    failed: Option<(usize, usize, usize)>,
}

/// Merges `snippet` into `text`, a file of unknown name: [`apply_snippet_in`] for code
/// ([`TextKind::Code`], the safe assumption: markers in every comment syntax are read).
pub fn apply_snippet(text: &[u8], snippet: &str) -> Result<SnippetApplied, SnippetError> {
    apply_snippet_in(text, snippet, TextKind::Code)
}

/// Merges `snippet` into `text`, a file of `kind` ([`TextKind::of_path`] of its name; it decides
/// which lines read as markers), by the rules of the module's documentation. Nothing is changed on
/// error.
pub fn apply_snippet_in(text: &[u8], snippet: &str, kind: TextKind) -> Result<SnippetApplied, SnippetError> {
    let (applied, placement) = merged::<Applied>(text, snippet, kind)?;
    Ok(SnippetApplied { applied, placement })
}

/// [`apply_snippet_in`] without building the new text: the same merge, returned as the replacements
/// of `text` ([`Spliced`], as [`crate::apply_spliced`] returns an edit's; one change per segment
/// that changed something, as [`Applied::into_spliced`] gives from [`apply_snippet`]'s result),
/// for a caller that writes, hashes and diffs the new version from the text it read.
pub fn apply_snippet_spliced(text: &[u8], snippet: &str) -> Result<SnippetSpliced, SnippetError> {
    apply_snippet_spliced_in(text, snippet, TextKind::Code)
}

/// [`apply_snippet_spliced`] for a file of `kind`, as [`apply_snippet_in`] is [`apply_snippet`]'s.
pub fn apply_snippet_spliced_in(text: &[u8], snippet: &str, kind: TextKind) -> Result<SnippetSpliced, SnippetError> {
    let (spliced, placement) = merged::<Spliced>(text, snippet, kind)?;
    Ok(SnippetSpliced {
        spliced: spliced.by_occurrence(text),
        placement,
    })
}

/// What a merge's change set becomes: the new text whole ([`Applied`]) or its replacements
/// ([`Spliced`]); both report the same edits.
trait Merged: Sized {
    fn finish(set: ChangeSet<'_, '_>) -> Result<Self, EditError>;
    fn edits(&mut self) -> &mut Vec<AppliedEdit>;
}

impl Merged for Applied {
    fn finish(set: ChangeSet<'_, '_>) -> Result<Self, EditError> {
        set.apply()
    }

    fn edits(&mut self) -> &mut Vec<AppliedEdit> {
        &mut self.edits
    }
}

impl Merged for Spliced {
    fn finish(set: ChangeSet<'_, '_>) -> Result<Self, EditError> {
        set.apply_spliced()
    }

    fn edits(&mut self) -> &mut Vec<AppliedEdit> {
        &mut self.edits
    }
}

/// The merge of `snippet` into `text`, as `M`, and where its segments went.
fn merged<M: Merged>(text: &[u8], snippet: &str, kind: TextKind) -> Result<(M, Placement), SnippetError> {
    let snippet = model_newlines(snippet);
    let all: Rc<Vec<Line<'_>>> = Rc::new(lines(text).collect());
    let asked = |keying: Keying| snippet.split('\n').map(move |l| key(l.as_bytes(), keying));
    let exact = FileLines::asking(&all, Keying::Indented, asked(Keying::Indented));
    let readings_of = |variants: &[Variant<'_>], file: &FileLines<'_>, keying: Keying| {
        let mut pool = Pool::default();
        for (v, variant) in variants.iter().enumerate() {
            let edges = (!variant.first_is_marker, !variant.last_is_marker);
            let outcome = Search::run(file, &variant.segments, keying, edges, false);
            pool.capped |= outcome.capped;
            if pool.failed.is_none() {
                pool.failed = outcome.failed.map(|f| (v, f));
            }
            for (hash, places) in outcome.hashes.into_iter().zip(outcome.readings) {
                if !pool.hashes.contains(&hash) {
                    pool.hashes.push(hash);
                    pool.readings.push((v, places));
                }
            }
        }
        // Issue 31 class 1'' (content read as a marker beside a rewrite): a marker-like line the
        // file holds is read both ways (the variants). A reading of the other way whose only
        // evidence is a deletion between anchors that name no place (not counted alone inside its
        // own variant) still rivals the one reading found: the line may be the file's content
        // there, and the two readings give different files. Counted beside it, never alone.
        if pool.readings.len() == 1 && variants.len() > 1 {
            let winner = pool.readings[0].0;
            for (v, variant) in variants.iter().enumerate().filter(|&(v, _)| v != winner) {
                let edges = (!variant.first_is_marker, !variant.last_is_marker);
                let outcome = Search::run(file, &variant.segments, keying, edges, true);
                for (hash, places) in outcome.hashes.into_iter().zip(outcome.readings) {
                    if !pool.hashes.contains(&hash) {
                        pool.hashes.push(hash);
                        pool.readings.push((v, places));
                    }
                }
            }
        }
        pool
    };
    let variants: Vec<Variant<'_>> = variants(&snippet, &exact, kind)?
        .into_iter()
        .filter(|v| !v.segments.is_empty())
        .collect();
    if variants.is_empty() {
        return Err(SnippetError::Empty);
    }
    let mut keying = Keying::Indented;
    let mut pool = readings_of(&variants, &exact, keying);
    let mut trimmed_file = None;
    if pool.readings.is_empty() {
        let trimmed = FileLines::asking(&all, Keying::Trimmed, asked(Keying::Trimmed));
        let retry = readings_of(&variants, &trimmed, Keying::Trimmed);
        if !retry.readings.is_empty() {
            pool = retry;
            keying = Keying::Trimmed;
            trimmed_file = Some(trimmed);
        }
    }
    let file = trimmed_file.as_ref().unwrap_or(&exact);
    if pool.readings.is_empty() {
        let (v, (index, lo, hi)) = pool.failed.unwrap_or((0, (0, 0, file.len())));
        let segments = &variants[v].segments;
        let missing = (index..segments.len().min(index + 1))
            .map(|i| {
                let seg = &segments[i];
                let body: String = seg.lines.iter().map(|l| format!("{}\n", l.text)).collect();
                SegmentMiss {
                    index: i,
                    snippet_lines: (seg.lines[0].number, seg.lines.last().map_or(0, |l| l.number)),
                    searched: (lo, hi),
                    closest: closest_regions(text, &body),
                }
            })
            .collect();
        return Err(SnippetError::NotFound { segments: missing });
    }
    if pool.readings.len() > 1 {
        let readings = pool
            .readings
            .iter()
            .take(MAX_LISTED_READINGS)
            .map(|(_, r)| Reading {
                segments: r.iter().map(|p| (p.start + 1, p.end)).collect(),
            })
            .collect();
        return Err(SnippetError::Ambiguous {
            readings,
            total: pool.readings.len(),
            capped: pool.capped,
        });
    }
    let (v, places) = pool.readings.pop().expect("one reading");
    let variant = &variants[v];
    merge(
        text,
        file,
        &variant.segments,
        &places,
        keying,
        variant.first_is_marker,
        variant.last_is_marker,
    )
}

/// Readings of every variant of the snippet, with distinct results.
#[derive(Default)]
struct Pool {
    hashes: Vec<u64>,
    /// The variant and the places of each segment.
    readings: Vec<(usize, Vec<Place>)>,
    capped: bool,
    /// The first variant's furthest failure.
    failed: Option<(usize, (usize, usize, usize))>,
}

/// One way to read the snippet's marker-like lines: its segments, and whether it starts and ends
/// with a marker.
struct Variant<'s> {
    segments: Vec<Segment<'s>>,
    first_is_marker: bool,
    last_is_marker: bool,
}

/// A rewritten line at least this long (bytes, blanks at both ends aside), on both sides, whose
/// new text is at least [`NEAR_COPY_RATIO`] alike the old, is a near copy: "insert it before the
/// old line" is no reading beside the one-for-one rewrite ([`Search::rewrite_named_once`]).
/// 24: a comment line with one word's case fixed (`// macOS, DragonFlyBSD, FreeBSD`, 31 bytes,
/// fd) counts; `check(old(5));` (14 bytes, the unit tests' "no evidence" shape) does not, a new
/// short call beside an old one being plausible. Measured (docs/snippets-fresh.md, "Phase D"): 6
/// `thin` cases placed on the development and phase-C sets, no negative applied, nothing wrong.
const NEAR_COPY_MIN_BYTES: usize = 24;
/// How alike a near copy is to the line it rewrites ([`NEAR_COPY_MIN_BYTES`]): above the 0.6 at
/// which two lines count as alike at all (one may be the other rewritten), since here the
/// likeness alone decides between two readings.
const NEAR_COPY_RATIO: f32 = 0.8;

/// A span longer than this many file lines is taken to delete lines the segment does not show
/// without diffing it ([`Search::loses_lines`]): a segment is a few dozen lines (a model's snippet),
/// so such a span deletes far more than it shows, and the diff's cost stays bounded.
const LOSS_SCAN_LINES: usize = 400;

/// At most this many marker-like lines the file holds are read both ways (2^n variants); a snippet
/// with more is refused ([`SnippetError::MarkerLike`]).
const MAX_DOUBTFUL: usize = 3;

/// The readings of the snippet's lines: a marker-like line the file holds too (`...`, `// ...`)
/// may be either, so each is tried both ways (up to [`MAX_DOUBTFUL`] of them), the way its
/// neighbours in the file suggest first.
fn variants<'s>(snippet: &'s str, file: &FileLines<'_>, kind: TextKind) -> Result<Vec<Variant<'s>>, SnippetError> {
    let mut all: Vec<&str> = snippet.split('\n').collect();
    if snippet.ends_with('\n') {
        all.pop();
    }
    let first = marker_mask(&all, file, kind);
    let doubtful: Vec<usize> = (0..all.len())
        .filter(|&i| {
            is_marker_in(all[i], kind)
                && !file
                    .places_in(key(all[i].as_bytes(), Keying::Indented), 0, file.len())
                    .is_empty()
        })
        .collect();
    if doubtful.len() > MAX_DOUBTFUL {
        return Err(SnippetError::MarkerLike {
            lines: doubtful.iter().map(|i| i + 1).collect(),
        });
    }
    let mut masks = vec![first.clone()];
    {
        for bits in 0..1usize << doubtful.len() {
            let mut mask = first.clone();
            for (b, &i) in doubtful.iter().enumerate() {
                mask[i] = bits >> b & 1 == 1;
            }
            if !masks.contains(&mask) {
                masks.push(mask);
            }
        }
    }
    Ok(masks
        .into_iter()
        .map(|mask| {
            let edge = |mut it: Box<dyn Iterator<Item = usize>>| {
                it.find(|&i| !all[i].trim().is_empty()).is_some_and(|i| mask[i])
            };
            Variant {
                first_is_marker: edge(Box::new(0..all.len())),
                last_is_marker: edge(Box::new((0..all.len()).rev())),
                segments: segments_of(&all, &mask),
            }
        })
        .collect())
}

/// Which snippet lines are markers, as their neighbours suggest: a line that looks like a marker is
/// code where the file holds it next to a line equal to its neighbour in the snippet.
fn marker_mask(all: &[&str], file: &FileLines<'_>, kind: TextKind) -> Vec<bool> {
    let k = |s: &str| key(s.as_bytes(), Keying::Indented).to_vec();
    // A bare `...` under a line opening a Python block, where the file holds `...` so indented:
    // a stub's body.
    let stub_body = |i: usize| -> bool {
        let opener = all[..i].iter().rev().find(|l| !l.trim().is_empty());
        all[i].trim() == "..."
            && opener.is_some_and(|o| {
                o.trim_end().ends_with(':') && indent_of(o.as_bytes()).len() < indent_of(all[i].as_bytes()).len()
            })
            && !file.places_in(&k(all[i]), 0, file.len()).is_empty()
    };
    let code_here = |i: usize| -> bool {
        let me = k(all[i]);
        file.places_in(&me, 0, file.len()).iter().any(|&j| {
            let before = i > 0 && j > 0 && !all[i - 1].trim().is_empty() && file.keys[j - 1] == k(all[i - 1]);
            let after = i + 1 < all.len()
                && j + 1 < file.len()
                && !all[i + 1].trim().is_empty()
                && file.keys[j + 1] == k(all[i + 1]);
            before || after
        }) || stub_body(i)
    };
    (0..all.len())
        .map(|i| is_marker_in(all[i], kind) && !code_here(i))
        .collect()
}

/// The snippet's segments: runs of code lines between markers (`marker[i]`).
fn segments_of<'s>(all: &[&'s str], marker: &[bool]) -> Vec<Segment<'s>> {
    let mut out = Vec::new();
    let mut current: Vec<SnippetLine<'s>> = Vec::new();
    for (i, line) in all.iter().enumerate() {
        if marker[i] {
            if !current.is_empty() {
                out.push(Segment {
                    lines: std::mem::take(&mut current),
                });
            }
        } else {
            current.push(SnippetLine {
                text: line,
                number: i + 1,
            });
        }
    }
    if !current.is_empty() {
        out.push(Segment { lines: current });
    }
    // Segments of blank lines only carry nothing.
    out.retain(|s| s.lines.iter().any(|l| !l.text.trim().is_empty()));
    out
}

/// What a search found.
struct Outcome {
    /// The result hash of each reading.
    hashes: Vec<u64>,
    /// Readings with distinct results.
    readings: Vec<Vec<Place>>,
    capped: bool,
    failed: Option<(usize, usize, usize)>,
}

impl<'a, 't, 's> Search<'a, 't, 's> {
    /// `open` says whether the snippet has no marker before its first segment and after its last.
    /// `rivals`: spans that delete unshown lines with no anchor naming their place count alone
    /// too (they are readings beside another variant's, never placed alone).
    fn run(
        file: &'a FileLines<'t>,
        segments: &'a [Segment<'s>],
        keying: Keying,
        open: (bool, bool),
        rivals: bool,
    ) -> Outcome {
        let keys = segments
            .iter()
            .map(|s| s.lines.iter().map(|l| key(l.text.as_bytes(), keying)).collect())
            .collect();
        let mut search = Search {
            file,
            segments,
            keys,
            open,
            rivals,
            readings: Vec::new(),
            hashes: Vec::new(),
            capped: false,
            failed: None,
        };
        let mut placed = Vec::with_capacity(segments.len());
        search.place(0, 0, &mut Vec::new(), &mut placed);
        Outcome {
            hashes: search.hashes,
            readings: search.readings,
            capped: search.capped,
            failed: search.failed,
        }
    }

    /// Places segment `k` and the ones after it from file line `lo`, inside the innermost block of
    /// `blocks` that encloses it.
    fn place(&mut self, k: usize, lo: usize, blocks: &mut Vec<Block>, placed: &mut Vec<Place>) {
        if self.capped {
            return;
        }
        if k == self.segments.len() {
            let hash = self.result_hash(placed);
            if !self.hashes.contains(&hash) {
                self.hashes.push(hash);
                self.readings.push(placed.clone());
                if self.readings.len() >= MAX_READINGS {
                    self.capped = true;
                }
            }
            return;
        }
        let indent = self.segment_indent(k);
        let saved = blocks.clone();
        while blocks.last().is_some_and(|b| b.indent >= indent) {
            blocks.pop();
        }
        let mut hi = blocks
            .last()
            .map_or(self.file.len(), |b| {
                if self.closes_outer_block(k, b.indent) {
                    b.outer_end
                } else {
                    b.end
                }
            })
            .max(lo);
        let mut candidates = self.candidates(k, lo, hi, !blocks.is_empty(), !blocks.is_empty());
        if candidates.is_empty() && !blocks.is_empty() {
            // Nowhere inside the header's block: the header narrowed the search, it does not forbid
            // the rest of the file (the segment's indentation only looked like the block's body).
            // Every place there is counted as outside any header.
            blocks.clear();
            hi = self.file.len().max(lo);
            candidates = self.candidates(k, lo, hi, false, false);
        }
        if candidates.is_empty() && !self.file.places_in(self.keys[k][0], lo, hi).is_empty() {
            // No strong anchor in the window, but the segment starts with lines of the file: weak
            // lines may anchor, then every reading they anchor is counted (as inside a header's
            // block), so a run of weak lines found once places and one whose lines anchor elsewhere
            // too is ambiguous. (A segment whose first line is new stays not found: a closer as its
            // only anchor is no evidence worth listing readings for.)
            candidates = self.candidates(k, lo, hi, true, !blocks.is_empty());
        }
        if candidates.is_empty() && self.failed.is_none_or(|(f, _, _)| f <= k) {
            self.failed = Some((k, lo, hi));
        }
        for place in candidates {
            placed.push(place);
            let depth = blocks.len();
            if let Some(block) = self.header_block(k, place) {
                blocks.push(block);
            }
            self.place(k + 1, place.end, blocks, placed);
            blocks.truncate(depth);
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

    /// When segment `k`, placed at `place`, ends with a header (its last line is a file line that
    /// the following non-blank file lines indent more), the block it opens.
    fn header_block(&self, k: usize, place: Place) -> Option<Block> {
        let seg = &self.segments[k];
        let last = seg.lines.last()?;
        if place.end == 0 || self.file.keys[place.end - 1] != self.keys[k][seg.lines.len() - 1] {
            return None;
        }
        let file = self.file;
        let header_indent = indent_of(file.lines[place.end - 1].content).len();
        let next = (place.end..file.len()).find(|&j| !file.keys[j].trim_ascii().is_empty())?;
        if indent_of(file.lines[next].content).len() <= header_indent {
            return None;
        }
        let mut end = (next..file.len())
            .find(|&j| !file.keys[j].trim_ascii().is_empty() && indent_of(file.lines[j].content).len() <= header_indent)
            .unwrap_or(file.len());
        let skip_blanks = |mut i: usize| {
            while i < file.len() && file.keys[i].trim_ascii().is_empty() {
                i += 1;
            }
            i
        };
        let mut outer_end = end;
        if end < file.len() && is_closer(file.lines[end].content.trim_ascii()) {
            // The blank lines after the closer go with it: a segment that ends with the closer and
            // a blank line must be able to span them here, or only "insert after the head" would
            // be left to count (a second closer written).
            let mut width = indent_of(file.lines[end].content).len();
            end = skip_blanks(end + 1);
            // The closers of the enclosing blocks right after it, each shallower than the one
            // before (`  }` then `}`), for a segment that shows them.
            outer_end = end;
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
            end,
            outer_end,
        })
    }

    /// Every place for segment `k` in file lines `lo..hi`; `narrowed` when weak anchors alone count
    /// (the window is a header's block, or no strong line anchors anywhere), `header` when the
    /// window is a header's block (it names the place: a line it holds once is evidence).
    fn candidates(&self, k: usize, lo: usize, hi: usize, narrowed: bool, header: bool) -> Vec<Place> {
        let file = self.file;
        let keys = &self.keys[k];
        let m = keys.len();
        let mut out: Vec<Place> = Vec::new();
        // A reading anchored by weak lines only counts inside a header's block.
        let anchored = |anchors: &[&[u8]]| narrowed || anchors.iter().any(|a| !self.weak(a));
        let push = |p: Place, out: &mut Vec<Place>| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        let heads = file.places_in(keys[0], lo, hi);
        if heads.len() > MAX_PLACES {
            // As many places as this cannot be told apart; keep the first ones so that the search
            // reports the snippet ambiguous.
            return heads[..2].iter().map(|&j| Place { start: j, end: j + 1 }).collect();
        }
        // Each head: its longest run of the segment's first lines.
        let runs: Vec<(usize, usize)> = heads
            .iter()
            .map(|&j| {
                let p = (0..m.min(hi - j)).take_while(|&i| file.keys[j + i] == keys[i]).count();
                (j, p)
            })
            .collect();
        // Replacements from a head to a tail: (head start, head length, tail start, tail length).
        let mut spans: Vec<(usize, usize, usize, usize)> = Vec::new();
        // Insertions after a head whose segment ends with a line of it: (head start, head end).
        let mut repeats: Vec<(usize, usize)> = Vec::new();
        for &(j, p) in &runs {
            let head = &keys[..p];
            if p == m {
                if anchored(head) {
                    push(Place { start: j, end: j + m }, &mut out);
                }
                continue;
            }
            let x = j + p;
            // A last line that repeats a line of the head (`A B` shown, new lines, then `B` again)
            // is a new line where the head stands: the head with the rest inserted after it is a
            // reading, beside any span to a farther copy of that line (which alone would delete
            // the lines between unseen).
            if keys[..p].contains(&keys[m - 1]) && anchored(head) {
                repeats.push((j, x));
            }
            let tails = self.tail_frontier(k, p, x, hi);
            if tails.is_empty() {
                // A strong last line the file has elsewhere is an anchor this place does not reach.
                if anchored(head) && !self.anchors_elsewhere(keys[m - 1]) {
                    push(Place { start: j, end: x }, &mut out);
                    // The first new line may rewrite the file's next line rather than add one: where
                    // they are alike, or where no marker follows to say the next line is kept.
                    let open_end = self.open.1 && k + 1 == self.segments.len();
                    if x < hi && (open_end || self.alike(file.keys[x], keys[p])) {
                        push(Place { start: j, end: x + 1 }, &mut out);
                    }
                }
                continue;
            }
            // Lines that may stand between two places of the head with either being it.
            let copies = |r: std::ops::Range<usize>| file.keys[r].iter().all(|l| is_weak(l) || head.contains(l));
            for (y, q) in tails {
                // Minimal window: a later place of the same head before the tail takes it, unless
                // only weak lines or copies of the head lie between (`}` then `}`: either may be it).
                let later_head = runs
                    .iter()
                    .any(|&(j2, p2)| j2 > j && p2 >= p && j2 + p <= y && !copies(x..j2 + p));
                if !later_head {
                    spans.push((j, p, y, q));
                }
            }
        }
        // A reading that deletes the same lines as another but keeps fewer of the segment's lines as
        // the file's (a shorter head or tail, the rest written again as new lines) is not one.
        let dominated = |&(j, p, y, q): &(usize, usize, usize, usize)| {
            spans
                .iter()
                .any(|&(j2, p2, y2, q2)| j2 + p2 == j + p && y2 == y && p2 >= p && q2 >= q && (p2, q2) != (p, q))
        };
        // Behind a weak head (or before a weak tail), a new line the file holds elsewhere as a strong
        // line says the segment belongs there, not here.
        let own_of = |p: usize, q: usize, l: &[u8]| keys[..p].contains(&l) || keys[m - q..].contains(&l);
        let strays_near = |&(j, p, y, q): &(usize, usize, usize, usize)| {
            // (A new line that repeats one of the segment's own anchors here is no such evidence:
            // `A B` shown, new lines, `B` again.)
            let own = |l: &[u8]| own_of(p, q, l);
            // Nor is a line the file holds only between this span's head and tail, nowhere next
            // to a copy of the weak anchors (issue 31 class 1'': `_example() {` shown before a
            // fenced example's own `    ...` line taken as the weak tail, lines apart): the span
            // keeps it as the file's, and no longer run of anchors holds it. (Next to a copy of
            // the weak head, a blank then `[testenv:docs]`, it is the longer head's line.)
            let held = |l: &[u8], next_to: &dyn Fn(usize) -> bool| {
                self.anchors_elsewhere(l)
                    && file
                        .places
                        .get(l)
                        .is_some_and(|v| v.iter().any(|&i| i < j + p || i >= y || next_to(i)))
            };
            let after_head = |i: usize| i >= p && file.keys[i - p..i] == keys[..p];
            let before_tail = |i: usize| i + 1 + q <= file.len() && file.keys[i + 1..i + 1 + q] == keys[m - q..];
            // Nor, when the other edge holds a strong line the file holds once (every reading of
            // the segment ends, or starts, there), is a line held only where no rival reaches:
            // nowhere right after a copy of the weak head before that tail (right before a copy
            // of the weak tail after that head), the span losing no line. Issue 31 class 2' (rust-lang/log 25f49fe3d31e, a
            // new test between `}, "hello");` `}` and a unique doc comment, its `#[cfg(...)]`
            // held by other tests; terraform-aws-vpc 41348d36b3fe, `tags = merge(` held further
            // down): no span anchors the segment at those copies, and leaving this one out left
            // the segment not found, or placed by the indentation-blind retry at a wrong `}`.
            let names_one_place = |l: &&[u8]| !self.weak(l) && file.places.get(l).is_some_and(|v| v.len() == 1);
            // (Only for a span that loses no line: one that deletes unshown lines, 120 of them
            // between `help: help)` `  }` and a far `  }` `}` in swift-argument-parser
            // a544331c431f, needs the evidence the stray denies it.)
            let loses = || self.loses_lines(k, j, y + q, false);
            let rival_after_head = |l: &[u8]| {
                !keys[m - q..].iter().any(names_one_place)
                    || file
                        .places
                        .get(l)
                        .is_some_and(|v| v.iter().any(|&i| i < y && after_head(i)))
                    || loses()
            };
            let rival_before_tail = |l: &[u8]| {
                !keys[..p].iter().any(names_one_place)
                    || loses()
                    || file
                        .places
                        .get(l)
                        .is_some_and(|v| v.iter().any(|&i| i >= j + p && before_tail(i)))
            };
            (keys[..p].iter().all(|h| self.weak(h))
                && p + q < m
                && held(keys[p], &after_head)
                && !own(keys[p])
                && rival_after_head(keys[p]))
                || (keys[m - q..].iter().all(|t| self.weak(t))
                    && p + q < m
                    && held(keys[m - q - 1], &before_tail)
                    && !own(keys[m - q - 1])
                    && rival_before_tail(keys[m - q - 1]))
        };
        // Issue 31 class 2: the new line next to the weak anchors is no evidence of another place
        // when the file holds it more than once (`/// <summary>`, a doc comment's opener), this
        // span deletes no line it does not show, and a span that anchors by that line (its head
        // or tail reaching over it, with no line the file holds once among them) deletes lines
        // the snippet does not show: a deletion of
        // unshown lines needs more evidence than a reading that loses none, and a line held many
        // times gives little. Both are counted (ambiguous, unless another rule decides).
        //
        // Issue 31 class 3' (terraform-aws-vpc 5f5df5719258, shellcheck 99a94421ab77: natural
        // negatives placed): the same when the line is held once, the rival anchoring by it, and
        // this span is a pure insertion between adjacent anchors (it deletes no file line at all:
        // `  )` then `}`, `steps:` then `- name: Checkout`). The rival, however well its head
        // names its place, deletes lines the snippet does not show (the lifecycle block's
        // `ignore_changes` written over, two install lines dropped): it needs more evidence than
        // an insertion that loses nothing, and the snippet is refused as ambiguous.
        let stray_is_common = |l: &[u8]| file.places.get(l).is_some_and(|v| v.len() > 1);
        let lossless_beside_lossy = |&(j, p, y, q): &(usize, usize, usize, usize)| {
            let insertion = y == j + p;
            let counts = |l: &[u8]| stray_is_common(l) || (insertion && !is_weak(l));
            let head_side = keys[..p].iter().all(|h| self.weak(h)) && p + q < m && counts(keys[p]);
            let tail_side = keys[m - q..].iter().all(|t| self.weak(t)) && p + q < m && counts(keys[m - q - 1]);
            (head_side || tail_side)
                && !self.loses_lines(k, j, y + q, false)
                && spans.iter().any(|s2 @ &(j2, p2, y2, q2)| {
                    // The rival's anchors name no place: none is a line the file holds once (a
                    // function's unique signature in its head is evidence of its place) — for a
                    // line held once, next to this pure insertion (above), the far edge instead.
                    let held_once = |l: &&[u8]| !self.weak(l) && file.places.get(l).is_some_and(|v| v.len() == 1);
                    // For a pure insertion, the rival's far edge (its tail beside a longer head)
                    // must name no place: a deletion between two lines the file holds once each
                    // (a paragraph reflowed between a unique first line and a unique heading) is
                    // bracketed on both sides.
                    // (The far edge counted in a header's block when the segment is searched
                    // there: the block confines the place, as for a deletion's anchors below.)
                    let far_once = |l: &&[u8]| {
                        let (from, to) = if header { (lo, hi) } else { (0, file.len()) };
                        !self.weak(l) && file.places_in(l, from, to).len() == 1
                    };
                    // Nor may the rival's lines reach this insertion's (viper 196113234fe0: a
                    // rewritten `if` block, the insertion writing it again right after the
                    // file's own, between its closing `}` and the next line): one place, two
                    // ways of reading it, the longer anchoring more of the segment.
                    let apart = y2 + q2 <= j || j2 >= y + q;
                    let named = |stray: &[u8], anchors: &[&[u8]], far: &[&[u8]]| {
                        if stray_is_common(stray) {
                            anchors.iter().any(held_once)
                        } else {
                            !apart || far.iter().any(far_once)
                        }
                    };
                    ((head_side && p2 > p && !named(keys[p], &keys[..p2], &keys[m - q2..]))
                        || (tail_side && q2 > q && !named(keys[m - q - 1], &keys[m - q2..], &keys[..p2])))
                        && !dominated(s2)
                        && self.loses_lines(k, j2, y2 + q2, false)
                })
        };
        let strays = |&(j, p, y, q): &(usize, usize, usize, usize)| {
            let own = |l: &[u8]| own_of(p, q, l);
            // Before a weak tail, a strong line the segment shows between its anchors that the
            // file holds once, after this tail and inside a farther span from the same head: that
            // span keeps it as the file's, where this one would write it again before it.
            let kept_farther = |l: &&[u8]| {
                !is_weak(l)
                    && !own(l)
                    && file.places.get(l).is_some_and(|v| {
                        v.len() == 1
                            && v[0] >= y + q
                            && spans.iter().any(|s2 @ &(j2, p2, y2, q2)| {
                                j2 == j && p2 == p && y2 > y && v[0] < y2 + q2 && !dominated(s2) && !strays_near(s2)
                            })
                    })
            };
            let weak_tail = keys[m - q..].iter().all(|t| self.weak(t));
            (strays_near(&(j, p, y, q)) && !lossless_beside_lossy(&(j, p, y, q)))
                || (weak_tail && p + q < m && keys[p..m - q].iter().any(kept_farther))
                || (self.unique_line_elsewhere(k, (j, p, y, q), lo, hi) && !lossless_beside_lossy(&(j, p, y, q)))
        };
        // Spans counted that delete no file line (the file's lines from head to tail are all
        // shown, in order, among the segment's): (head start, head end, tail start, tail end).
        let mut lossless: Vec<(usize, usize, usize, usize)> = Vec::new();
        // Insertions at a weak anchor, with the span they rival.
        let mut insertions: Vec<(Place, (usize, usize, usize, usize))> = Vec::new();
        // Heads (start, end) of counted spans whose tail holds a strong line of its own.
        let mut strong_tailed: Vec<(usize, usize)> = Vec::new();
        // Spans that delete unshown lines without an anchor naming their place.
        let mut unanchored: Vec<Place> = Vec::new();
        // Issue 31 class 1': a span that deletes lines the snippet does not show needs an anchor
        // line that names one place: no weak line, held once by the file (by the window when it is
        // a header's block, which names the place; a window that only starts after the previous
        // segment names none: segments far apart need their own evidence). Anchored by weak and
        // repeated lines alone (`  end`, `end`, a fence, then a paragraph the file holds twice),
        // the deletion has no evidence of its place: it can make the snippet ambiguous beside
        // other readings, never place it alone.
        let names_one_place = |l: &&[u8]| {
            let (from, to) = if header { (lo, hi) } else { (0, file.len()) };
            !self.weak(l) && file.places_in(l, from, to).len() == 1
        };
        let unanchored_deletion = |&(j, p, y, q): &(usize, usize, usize, usize)| {
            !keys[..p].iter().any(names_one_place)
                && !keys[m - q..].iter().any(names_one_place)
                && self.loses_lines(k, j, y + q, false)
        };
        for s @ &(j, p, y, q) in spans.iter().filter(|s| !dominated(s) && !strays(s)) {
            let (head, tail, x) = (&keys[..p], &keys[m - q..], j + p);
            // (The insertions beside it below stay counted: they delete nothing.)
            if (anchored(head) || anchored(tail)) && unanchored_deletion(s) {
                unanchored.push(Place { start: j, end: y + q });
            } else if anchored(head) || anchored(tail) {
                push(Place { start: j, end: y + q }, &mut out);
                if tail.iter().any(|t| !self.weak(t) && !head.contains(t)) {
                    strong_tailed.push((j, x));
                }
                if is_subsequence(&file.keys[j..y + q], keys) {
                    lossless.push((j, x, y, y + q));
                }
            }
            // Lines deleted that are not the body of the block the anchors delimit leave insert
            // against replace open where an anchor is weak.
            let open = y > x && !self.body_between(j, x, y, q);
            if open && tail.iter().all(|t| self.weak(t)) && anchored(head) {
                insertions.push((Place { start: j, end: x }, (j, x, y, y + q)));
            }
            // (Unless the weak head is a run of two lines or more that the file holds once: the
            // insertion would write that run again as new lines while the replacement anchors it.)
            if open && head.iter().all(|h| self.weak(h)) && anchored(tail) && !self.run_found_once(head) {
                insertions.push((Place { start: y, end: y + q }, (j, x, y, y + q)));
            }
        }
        // An insertion beside a counted span that shares its anchor and deletes no file line is no
        // reading when among the file lines it would write again as new (the span keeps them as
        // the file's) is a strong line the file holds once: both lose no line, and the insertion
        // would write a second copy of a line that is unique, shown once in the snippet.
        let written_again_unique = |r: std::ops::Range<usize>| {
            file.keys[r]
                .iter()
                .any(|l| !is_weak(l) && file.places.get(l).is_some_and(|v| v.len() == 1))
        };
        // An insertion whose new lines are only punctuation and blank lines (`},` then `]);`, or
        // `/>,`, written again after the head) adds no code: beside the counted span between the
        // same shown anchors, which deletes the lines the snippet leaves out between them, it is
        // no reading.
        let punctuation_only = |lines: &[&[u8]]| {
            lines
                .iter()
                .all(|l| !l.iter().any(|b| b.is_ascii_alphanumeric() || *b >= 0x80))
        };
        for (place, span @ (j, x, y, end)) in insertions {
            let (again, new) = if place.start == j {
                (x..end, &keys[x - j..])
            } else {
                (j..y, &keys[..m - (end - y)])
            };
            if lossless.contains(&span) && written_again_unique(again) {
                continue;
            }
            if punctuation_only(new) {
                continue;
            }
            if place.start != j && self.closes_nothing_before(j, y) {
                continue;
            }
            if place.start == j && self.stranding_insertion(k, j, x - j, end) {
                continue;
            }
            if self.rewrite_named_once(k, place.start == j, j, x - j, y, end) {
                continue;
            }
            push(place, &mut out);
        }
        // The head with the rest after it is counted only where the spans from it end at a copy of
        // the repeated line with weak lines at most: a span whose tail holds a strong line that is
        // not the head's is anchored there as any strong tail is, and "insert after the head" is
        // then no reading, as for any segment with a strong tail.
        for (j, x) in repeats {
            if strong_tailed.contains(&(j, x)) {
                continue;
            }
            // Beside a counted span from the same head, an insertion that would strand the file's
            // next line is no reading (as for "insert after the head" above).
            if out
                .iter()
                .any(|pl| pl.start == j && pl.end > x && self.stranding_insertion(k, j, x - j, pl.end))
            {
                continue;
            }
            if !lossless
                .iter()
                .any(|&(j2, x2, _, end)| j2 == j && x2 == x && written_again_unique(x..end))
            {
                // Issue 31 class 2'' (terraform-aws-vpc f8cd1681837c: a module block copied after
                // the one it copies, its first shown lines `suffix`, `class`, blank, `tags`, `}`,
                // the copy ending with `suffix`, `class`): where the segment's last lines are its
                // first ones, a shorter head of just those lines is a reading too, the rest of the
                // head then new lines of the copy, the file's own lines after the copy. The file's
                // brackets balancing, a reading whose new lines leave them unbalanced (`module
                // "x" {` opened and the file's next block taken for its end) gives way to one
                // that keeps them balanced; otherwise both are counted (ambiguous).
                let p = x - j;
                let short = (1..p)
                    .rev()
                    .find(|&r| keys[m - r..] == keys[..r] && keys[..r].iter().any(|l| !self.weak(l)));
                let sums_to_zero = |from: usize| brackets_net(keys[from..].iter().copied()) == [0; 3];
                match short {
                    Some(r) => {
                        let (long_ok, short_ok) = if file.balanced() {
                            (sums_to_zero(p), sums_to_zero(r))
                        } else {
                            (true, true)
                        };
                        if long_ok || !short_ok {
                            push(Place { start: j, end: x }, &mut out);
                        }
                        if short_ok || !long_ok {
                            push(Place { start: j, end: j + r }, &mut out);
                        }
                    }
                    None => push(Place { start: j, end: x }, &mut out),
                }
            }
        }
        if runs.is_empty() && !self.anchors_elsewhere(keys[0]) {
            // No head: the segment's first lines are new; inserted before each place of its tail.
            for (y, q) in self.tails(k, lo, hi) {
                if !anchored(&keys[m - q..]) {
                    continue;
                }
                push(Place { start: y, end: y + q }, &mut out);
                let open_start = self.open.0 && k == 0;
                if y > lo && (open_start || self.alike(file.keys[y - 1], keys[m - q - 1])) {
                    push(
                        Place {
                            start: y - 1,
                            end: y + q,
                        },
                        &mut out,
                    );
                }
            }
        }
        if !out.is_empty() || self.rivals {
            for place in unanchored {
                push(place, &mut out);
            }
        }
        // Issue 31 class 3: a reading that deletes file lines the snippet does not show needs
        // more evidence than one that loses none. Where every reading counted here deletes such a
        // line, a span between weak anchors (not counted otherwise outside a header's block) that
        // loses no line's text, every non-blank line it deletes written again among the new lines
        // (re-indented), is counted too: two readings giving different files, the snippet is
        // refused as ambiguous. (A span that rewrites a line, `# v1.16.1` into `# v1.16.0`, loses
        // that line's text too: no rival to a deletion between a strong anchor and a weak one.)
        if !narrowed && !out.is_empty() && out.iter().all(|pl| self.loses_lines(k, pl.start, pl.end, false)) {
            for s @ &(j, p, y, q) in &spans {
                let (head, tail) = (&keys[..p], &keys[m - q..]);
                // (A pure insertion between adjacent weak anchors counts too beside a rival that
                // deletes unshown lines, class 3' above: `  )` then `}`, a block inserted, against
                // a unique `  lifecycle {` whose line the snippet writes over.)
                if (y > j + p || lossless_beside_lossy(s))
                    && !anchored(head)
                    && !anchored(tail)
                    && !dominated(s)
                    && !self.loses_lines(k, j, y + q, true)
                {
                    push(Place { start: j, end: y + q }, &mut out);
                }
            }
        }
        if out.len() > MAX_PLACES {
            out.truncate(2);
        }
        out
    }

    /// Whether segment `k` placed over file lines `start..end` deletes a line it does not show: a
    /// non-blank file line the alignment does not keep and that no new line of the segment is
    /// alike (a rewrite keeps its line's place; a deletion loses it); with `text`, that no new line
    /// equals, blanks at both ends aside (any change of its text loses it). A region longer than
    /// [`LOSS_SCAN_LINES`] counts as losing lines unseen without being diffed.
    fn loses_lines(&self, k: usize, start: usize, end: usize, text: bool) -> bool {
        let keys = &self.keys[k];
        if end - start > LOSS_SCAN_LINES {
            return true;
        }
        let region = &self.file.keys[start..end];
        let (kept, _) = align_lines(region, keys, 0);
        let mut is_kept = vec![false; region.len()];
        for f in kept.iter().flatten() {
            is_kept[*f] = true;
        }
        let new: Vec<&[u8]> = (0..keys.len())
            .filter(|&i| kept[i].is_none())
            .map(|i| keys[i])
            .collect();
        region.iter().zip(&is_kept).any(|(l, kept)| {
            let same = |n: &&[u8]| {
                if text {
                    n.trim_ascii() == l.trim_ascii()
                } else {
                    self.alike(l, n)
                }
            };
            !kept && !l.trim_ascii().is_empty() && !new.iter().any(same)
        })
    }

    /// Whether `key` anchors nothing alone: a weak line ([`is_weak`]) unless it is a word line (not
    /// a closer) that the file holds exactly once — such a line names one place as well as any.
    fn weak(&self, key: &[u8]) -> bool {
        is_weak(key) && !self.unique_word(key)
    }

    /// Whether the span from a head of `p` lines at `j` to a tail of `q` lines at `y` (window
    /// `lo..hi`) is no reading because the segment names another place (issue 31 R2/R3: a lock
    /// file's or a project file's repeated stanzas). All of these hold, on the head's side (or
    /// likewise on the tail's):
    /// - every head line is common: held by the file more than once (`[[package]]`,
    ///   `dependencies = [`), or weak and not held once (a word line the file holds once names one
    ///   place, as `# Polly` at the top of a README or a lone `else` does: [`Search::weak`]);
    /// - the segment's first new line after the head is a strong line the file holds exactly once,
    ///   outside this span (`name = "serde_json"` in a Cargo.lock);
    /// - the file holds that line right after a copy of the whole head, inside the window: the
    ///   rival reading, anchored by the head and the unique line together, is there to be counted.
    ///
    /// This span would write a second copy of the unique line over a similar block, where the rival
    /// keeps it as the file's. Without the rival (the unique line stands elsewhere in other
    /// company: a README's `> [!IMPORTANT]` further down), leaving this span out would leave
    /// weaker readings alone, such as an insertion that writes the span's tail again.
    fn unique_line_elsewhere(
        &self,
        k: usize,
        (j, p, y, q): (usize, usize, usize, usize),
        lo: usize,
        hi: usize,
    ) -> bool {
        let keys = &self.keys[k];
        let m = keys.len();
        if p + q >= m {
            return false;
        }
        let file = self.file;
        let common = |l: &&[u8]| self.weak(l) || file.places.get(l).is_some_and(|v| v.len() > 1);
        let unique_at = |l: &[u8]| {
            if is_weak(l) || keys[..p].contains(&l) || keys[m - q..].contains(&l) {
                return None;
            }
            match file.places.get(l) {
                Some(&[v]) if !(j..y + q).contains(&v) => Some(v),
                _ => None,
            }
        };
        let head_rival =
            || unique_at(keys[p]).is_some_and(|v| v >= lo + p && v < hi && file.keys[v - p..v] == keys[..p]);
        let tail_rival = || {
            unique_at(keys[m - q - 1])
                .is_some_and(|v| v >= lo && v + 1 + q <= hi && file.keys[v + 1..v + 1 + q] == keys[m - q..])
        };
        (keys[..p].iter().all(common) && head_rival()) || (keys[m - q..].iter().all(common) && tail_rival())
    }

    /// Whether `key` holds a letter or digit, closes no block, and occurs once in the file.
    fn unique_word(&self, key: &[u8]) -> bool {
        key.iter().any(u8::is_ascii_alphanumeric)
            && !is_closer(key.trim_ascii())
            && self.file.places.get(key).is_some_and(|v| v.len() == 1)
    }

    /// Whether `run` is two lines or more and the file holds it (as consecutive lines) exactly once.
    fn run_found_once(&self, run: &[&[u8]]) -> bool {
        let file = self.file;
        run.len() >= 2
            && file
                .places_in(run[0], 0, file.len())
                .iter()
                .filter(|&&j| j + run.len() <= file.len() && file.keys[j..j + run.len()] == *run)
                .take(2)
                .count()
                == 1
    }

    /// Whether `key` is a strong line the file holds (a segment edge that is then no new line): a
    /// short word line the file holds once (`## Array`, a heading) counts, as for any anchor
    /// ([`Search::weak`]); issue 31 phase G, toml-lang/toml 6d0c5c6c4c05: behind a blank head, a
    /// span writing such a heading a second time was counted beside the rewrite under it.
    fn anchors_elsewhere(&self, key: &[u8]) -> bool {
        !self.weak(key) && self.file.places.contains_key(key)
    }

    /// Whether the file lines `x..y` between a head ending at `x` (starting at `j`) and a tail at
    /// `y` (of `q` lines) are all blank or indented more than both the head's last line and the
    /// tail's first: the body of the block they delimit.
    fn body_between(&self, j: usize, x: usize, y: usize, q: usize) -> bool {
        let lines = &self.file.lines;
        let width = |i: usize| indent_of(lines[i].content).len();
        let blank = |i: usize| lines[i].content.trim_ascii().is_empty();
        let head = (j..x).rev().find(|&i| !blank(i)).map_or(0, width);
        let tail = (y..y + q).find(|&i| !blank(i)).map_or(0, width);
        let bound = head.max(tail);
        (x..y).all(|i| blank(i) || width(i) > bound)
    }

    /// Whether the file line `j` (a weak head's first line) is a closer that would close nothing if
    /// written again before line `y`, judged by the last non-blank file line before `y`: a bracket
    /// closer (`}`, `]`, `)`, `end`) after a line indented no deeper than it that opens no bracket
    /// (no block it could close is open there); a comment closer `*/` after a line that is no
    /// comment's (it starts with neither `*` nor `/*`).
    fn closes_nothing_before(&self, j: usize, y: usize) -> bool {
        let lines = &self.file.lines;
        let first = lines[j].content.trim_ascii();
        let Some(before) = (j + 1..y).rev().find(|&i| !lines[i].content.trim_ascii().is_empty()) else {
            return false;
        };
        let prev = lines[before].content.trim_ascii();
        if first.starts_with(b"*/") {
            return !(prev.starts_with(b"*") || prev.starts_with(b"/*"));
        }
        if first.starts_with(b"/*") {
            // A comment opener after a comment's continuation line would open a comment inside one.
            return in_open_comment(prev);
        }
        is_closer(first)
            && !prev.ends_with(b"{")
            && !prev.ends_with(b"[")
            && !prev.ends_with(b"(")
            && !opens_keyword_block(prev)
            && indent_of(lines[before].content).len() <= indent_of(lines[j].content).len()
    }

    /// Whether "insert after the head" (segment `k`'s head of `p` lines at file line `j`) is no
    /// reading beside the counted span from that head to `end` (module docs, "A closer that would
    /// strand the file's next line"): the insertion would strand the file's next line
    /// ([`Search::strands_next_line`], brackets unbalanced in a file where they balance and kept by
    /// the span) or close a comment before it ([`Search::closes_comment_before`]), the span would
    /// strand nothing, and every non-blank file line the span deletes is alike a new line of the
    /// segment (rewritten, not lost): the changed lines are the evidence.
    fn stranding_insertion(&self, k: usize, j: usize, p: usize, end: usize) -> bool {
        let keys = &self.keys[k];
        let comment = self.closes_comment_before(k, j + p);
        // A raw string left open: the file's backquotes pair up and the lines after the head hold
        // an odd number of them (a raw string's closing line written again).
        let count = |ls: &[&[u8]]| ls.iter().map(|l| backquotes(l)).sum::<usize>();
        let quotes = count(&keys[p..]) % 2 == 1 && self.file.backquotes_pair();
        let strands = (comment || self.strands_next_line(k, j, p, j + p)) && !self.strands_next_line(k, j, p, end);
        if !strands && !quotes {
            return false;
        }
        let region = &self.file.keys[j..end];
        let (kept, _) = align_lines(region, keys, 0);
        let mut is_kept = vec![false; region.len()];
        for f in kept.iter().flatten() {
            is_kept[*f] = true;
        }
        let new: Vec<&[u8]> = (0..keys.len())
            .filter(|&i| kept[i].is_none())
            .map(|i| keys[i])
            .collect();
        let deleted: Vec<&[u8]> = region
            .iter()
            .zip(&is_kept)
            .filter(|(_, kept)| !**kept)
            .map(|(l, _)| *l)
            .collect();
        let rewritten = deleted
            .iter()
            .filter(|l| !l.trim_ascii().is_empty())
            .all(|l| new.iter().any(|n| self.alike(l, n)));
        // Brackets: in a file whose brackets balance, the insertion unbalances them and the span
        // keeps them balanced.
        let sum = |ls: &[&[u8]]| brackets_net(ls.iter().copied());
        let inserted = sum(&keys[p..]);
        let (added, removed) = (sum(&new), sum(&deleted));
        let unbalances = inserted != [0; 3] && added == removed && self.file.balanced();
        // The span keeps the backquotes paired (it writes as many as it deletes, modulo two) and
        // rewrites a line it deletes (a span deleting blank lines only shows no rewrite: the block
        // property found a lone `` ` `` inserted before a blank line and a copy of it).
        let rewrites_one = deleted.iter().any(|l| !l.trim_ascii().is_empty());
        let unpairs = quotes && rewrites_one && (count(&new) + count(&deleted)) % 2 == 0;
        rewritten && (strands && (comment || unbalances) || unpairs)
    }

    /// Whether an insertion at a weak anchor is no reading beside the span it rivals (issue 31 R2,
    /// "rewrite the next line or insert after it"). All of these hold:
    /// - the insertion's other anchor, the strong one (the head when `after_head`, else the tail),
    ///   holds a line the file holds exactly once (no similar block elsewhere is in play);
    /// - the span from head (`j`, `p` lines) through tail (`y` to `end`) rewrites one for one: it
    ///   deletes as many non-blank file lines as it writes new non-blank lines, at least one, each
    ///   deleted line alike the new one in its place;
    /// - the insertion would break what the span keeps: every deleted line and its new one set the
    ///   same key at the same indentation ([`key_name`]: a YAML step's `uses:`, a TOML or lock
    ///   file's `version =`, a struct literal's `command:`), which the insertion would leave set
    ///   twice in one block; or, in a file whose brackets balance, the span writes as many brackets
    ///   as it deletes while the lines the insertion writes do not balance (`if (new) {` inserted
    ///   before the file's `if (old) {`).
    ///
    /// Without such evidence both readings stay, and the snippet is ambiguous: `check(new(5));`
    /// after a unique `check(1);` may be a new call beside `check(old(5));`, and a new test block
    /// may be inserted before a test like it (the unit tests' "no evidence" shapes).
    fn rewrite_named_once(&self, k: usize, after_head: bool, j: usize, p: usize, y: usize, end: usize) -> bool {
        let keys = &self.keys[k];
        let m = keys.len();
        let q = end - y;
        let file = self.file;
        let once = |l: &&[u8]| !is_weak(l) && file.places.get(l).is_some_and(|v| v.len() == 1);
        let strong = if after_head { &keys[..p] } else { &keys[m - q..] };
        if !strong.iter().any(once) {
            return false;
        }
        let region = &file.keys[j..end];
        let (kept, _) = align_lines(region, keys, 0);
        let mut is_kept = vec![false; region.len()];
        for f in kept.iter().flatten() {
            is_kept[*f] = true;
        }
        let new: Vec<&[u8]> = (0..m)
            .filter(|&i| kept[i].is_none() && !keys[i].trim_ascii().is_empty())
            .map(|i| keys[i])
            .collect();
        let deleted: Vec<&[u8]> = region
            .iter()
            .zip(&is_kept)
            .filter(|(l, kept)| !**kept && !l.trim_ascii().is_empty())
            .map(|(l, _)| *l)
            .collect();
        let one_for_one = !deleted.is_empty()
            && deleted.len() == new.len()
            && deleted.iter().zip(&new).all(|(d, n)| self.alike(d, n));
        if !one_for_one {
            return false;
        }
        let same_keys = deleted
            .iter()
            .zip(&new)
            .all(|(d, n)| key_name(d).is_some() && key_name(d) == key_name(n));
        let sum = |ls: &[&[u8]]| brackets_net(ls.iter().copied());
        let inserted = if after_head { &keys[p..] } else { &keys[..m - q] };
        let unbalances = sum(inserted) != [0; 3] && sum(&new) == sum(&deleted) && file.balanced();
        // One long line rewritten into a near copy of itself (a word or a letter's case changed):
        // inserting would leave the old line right after its near copy.
        let near_copy = deleted.len() == 1 && {
            let (d, n) = (deleted[0].trim_ascii(), new[0].trim_ascii());
            d.len().min(n.len()) >= NEAR_COPY_MIN_BYTES && self.ratio(d, n) >= NEAR_COPY_RATIO
        };
        same_keys || unbalances || near_copy
    }

    /// Whether segment `k`'s last non-blank line closes a comment (`*/`, not opening one on the
    /// same line) and the file's next non-blank line from `end` continues a comment (` * text`).
    fn closes_comment_before(&self, k: usize, end: usize) -> bool {
        let file = self.file;
        let seg = &self.segments[k].lines;
        let Some(last) = seg
            .iter()
            .rev()
            .map(|l| l.text.trim().as_bytes())
            .find(|t| !t.is_empty())
        else {
            return false;
        };
        let Some(next) = (end..file.len()).find(|&i| !file.lines[i].content.trim_ascii().is_empty()) else {
            return false;
        };
        last.ends_with(b"*/") && !last.starts_with(b"/*") && in_open_comment(file.lines[next].content.trim_ascii())
    }

    /// Whether writing segment `k`'s lines after its head (`p` lines, at file line `j`) in place of
    /// the file lines up to `end` (`j + p`: an insertion) would strand the file's next line (from
    /// `end`) outside its block: a line after the head closes a block (`}`, `)`, `]`, `end`)
    /// indented less than the file's next non-blank line, and the segment's last non-blank line is
    /// indented less than that line too and opens no block (it ends with none of `{`, `(`, `[`,
    /// `:`).
    /// Indentation is compared from the head's last non-blank line, in the snippet and in the file
    /// (the snippet may be indented otherwise when indentation is ignored).
    fn strands_next_line(&self, k: usize, j: usize, p: usize, end: usize) -> bool {
        let (file, seg) = (self.file, &self.segments[k].lines);
        let width = |b: &[u8]| indent_of(b).len() as isize;
        let blank = |b: &[u8]| b.trim_ascii().is_empty();
        let Some(h) = (0..p).rev().find(|&i| !blank(seg[i].text.as_bytes())) else {
            return false;
        };
        let shift = width(file.lines[j + h].content) - width(seg[h].text.as_bytes());
        let Some(next) = (end..file.len()).find(|&i| !blank(file.lines[i].content)) else {
            return false;
        };
        let next_width = width(file.lines[next].content);
        let new: Vec<&[u8]> = seg[p..]
            .iter()
            .map(|l| l.text.as_bytes())
            .filter(|b| !blank(b))
            .collect();
        let shallower = |b: &[u8]| width(b) + shift < next_width;
        let Some(last) = new.last() else {
            return false;
        };
        let opens = [b'{', b'(', b'[', b':']
            .iter()
            .any(|c| last.trim_ascii().ends_with(&[*c]));
        new.iter().any(|b| is_closer(b.trim_ascii()) && shallower(b)) && shallower(last) && !opens
    }

    /// Whether two lines are alike enough that one may be the other rewritten.
    fn alike(&self, a: &[u8], b: &[u8]) -> bool {
        self.ratio(a, b) >= 0.6
    }

    /// How alike two lines are, their blanks at both ends aside: the budgeted character ratio, 0
    /// when either is blank.
    fn ratio(&self, a: &[u8], b: &[u8]) -> f32 {
        let (a, b) = (
            String::from_utf8_lossy(a.trim_ascii()),
            String::from_utf8_lossy(b.trim_ascii()),
        );
        if a.is_empty() || b.is_empty() {
            return 0.0;
        }
        let mut budget = Budget::for_bytes(a.len() + b.len());
        budget.char_ratio(&a, &b)
    }

    /// The places `y >= x` (below `hi`) where a run of segment `k`'s last lines (not reaching into
    /// its first `p`) starts, as `(y, run length)`: the nearest, then each farther one whose run is
    /// longer than every nearer one's (a shorter run nearer and a longer one farther are both
    /// readings).
    fn tail_frontier(&self, k: usize, p: usize, x: usize, hi: usize) -> Vec<(usize, usize)> {
        let keys = &self.keys[k];
        let m = keys.len();
        let mut out: Vec<(usize, usize)> = Vec::new();
        let mut best = 0;
        // One next place per run length.
        let mut next_taken = false;
        for &e in self.file.places_in(keys[m - 1], x, hi).iter().take(MAX_PLACES * 16) {
            let q = self.tail_run(k, p, x, e);
            // The tail's next place, past weak lines or copies of the tail only, may be it as well
            // (`}` then `}`, a line repeated).
            let tail = &keys[m - best.max(1)..];
            let next = !next_taken
                && q == best
                && out.last().is_some_and(|&(y, _)| {
                    y <= e + 1 - q
                        && self.file.keys[y..e + 1 - q]
                            .iter()
                            .all(|l| is_weak(l) || tail.contains(l))
                });
            next_taken = next || (next_taken && q == best);
            if q > best || next {
                best = q;
                out.push((e + 1 - q, q));
                if q == m - p {
                    break;
                }
            }
        }
        out
    }

    /// Every place in `lo..hi` of a run of segment `k`'s last lines: `(start, run length)`.
    fn tails(&self, k: usize, lo: usize, hi: usize) -> Vec<(usize, usize)> {
        let keys = &self.keys[k];
        let last = keys[keys.len() - 1];
        let ends = self.file.places_in(last, lo, hi);
        if ends.len() > MAX_PLACES {
            return ends[..2].iter().map(|&e| (e, 1)).collect();
        }
        ends.iter()
            .map(|&e| {
                let q = self.tail_run(k, 0, lo, e);
                (e + 1 - q, q)
            })
            .collect()
    }

    /// How many of segment `k`'s last lines (not reaching into its first `p`) equal the file lines
    /// ending at line `e` (not before line `x`).
    fn tail_run(&self, k: usize, p: usize, x: usize, e: usize) -> usize {
        let keys = &self.keys[k];
        let m = keys.len();
        (0..m - p)
            .take_while(|&i| e >= x + i && self.file.keys[e - i] == keys[m - 1 - i])
            .count()
    }

    /// A hash of the merged text a reading gives, by line keys. It hashes every line of the file
    /// once per reading compared: foldhash (fixed seed: the hashes are only compared with each
    /// other), where SipHash was a quarter of a 16 MB file's merge (issue 30).
    fn result_hash(&self, placed: &[Place]) -> u64 {
        use std::hash::BuildHasher;
        let mut h = foldhash::fast::FixedState::default().build_hasher();
        let mut at = 0;
        for (k, place) in placed.iter().enumerate() {
            for key in &self.file.keys[at..place.start] {
                key.hash(&mut h);
            }
            for key in &self.keys[k] {
                key.hash(&mut h);
            }
            at = place.end;
        }
        for key in &self.file.keys[at..] {
            key.hash(&mut h);
        }
        h.finish()
    }
}

/// Whether every line of `region` occurs in `lines`, in order (the region loses no line when
/// replaced by `lines`).
fn is_subsequence(region: &[&[u8]], lines: &[&[u8]]) -> bool {
    let mut rest = lines.iter();
    region.iter().all(|r| rest.any(|l| l == r))
}

/// Writes the one reading.
fn merge<M: Merged>(
    text: &[u8],
    file: &FileLines<'_>,
    segments: &[Segment<'_>],
    places: &[Place],
    keying: Keying,
    first_is_marker: bool,
    last_is_marker: bool,
) -> Result<(M, Placement), SnippetError> {
    let indentation_ignored = keying == Keying::Trimmed;
    let hay = Haystack::new(text);
    let index = hay.lines();
    let mut set = ChangeSet::new(&hay);
    let tabs = uses_tabs(file.lines.iter().map(|l| l.content));
    // A snippet indented with spaces for a file indented with tabs (or the reverse) is compared
    // and written with the file's indentation; otherwise its indentation is kept as written. The
    // votes of the whole file and the whole snippet differing is not enough (issue 31 class 4c):
    // its own context lines must show that the model sees the file's indentation otherwise.
    let snippet_tabs = uses_tabs(segments.iter().flat_map(|s| s.lines.iter().map(|l| l.text.as_bytes())));
    let keying = if keying == Keying::Indented
        && tabs != snippet_tabs
        && sees_other_indentation(file, segments, places, snippet_tabs)
    {
        Keying::Trimmed
    } else {
        keying
    };
    // The lines keyed again only when the keying differs (a whole pass and index of the file).
    let rekeyed;
    let file = if keying == file.keying {
        file
    } else {
        let asked = segments
            .iter()
            .flat_map(|s| s.lines.iter().map(move |l| key(l.text.as_bytes(), keying)));
        rekeyed = FileLines::asking(&file.lines, keying, asked);
        &rekeyed
    };
    let mut reports = Vec::with_capacity(segments.len());
    let mut changed_ids = Vec::new();
    let mut delta: isize = 0;
    for (k, (seg, place)) in segments.iter().zip(places).enumerate() {
        let region_keys = &file.keys[place.start..place.end];
        let seg_keys: Vec<&[u8]> = seg.lines.iter().map(|l| key(l.text.as_bytes(), keying)).collect();
        // Which segment line is which file line: a diff of the region and the segment.
        let (mut kept, kept_count) = align_lines(region_keys, &seg_keys, place.start);
        // Lines compare with trailing blanks ignored; among the alignments keeping as many lines,
        // one keeping only lines the model wrote byte for byte as the file has them (trailing
        // blanks included) is taken: a line written exactly so is the file's line, where its
        // alike neighbour with other trailing blanks is a new one.
        let region_exact: Vec<&[u8]> = file.lines[place.start..place.end]
            .iter()
            .map(|l| exact_key(l.content, keying))
            .collect();
        let seg_exact: Vec<&[u8]> = seg.lines.iter().map(|l| exact_key(l.text.as_bytes(), keying)).collect();
        let (exact_kept, exact_count) = align_lines(&region_exact, &seg_exact, place.start);
        if exact_count == kept_count {
            kept = exact_kept;
            keep_alike_by_position(&mut kept, &seg_exact, &region_exact, place.start);
        } else {
            keep_alike_by_position(&mut kept, &seg_keys, region_keys, place.start);
        }
        model_blank_lines(&mut kept, seg, file);
        let deleted = region_keys.len() - kept.iter().flatten().count();
        let lossy = |j: usize| String::from_utf8_lossy(file.lines[j].content).into_owned();
        let mut old = String::new();
        for j in place.start..place.end {
            old.push_str(&lossy(j));
            if !file.lines[j].eol.is_empty() {
                old.push('\n');
            }
        }
        // The nearest kept line before each new line sets its indentation (trimmed keying only).
        let mut anchor: Option<(usize, usize)> = kept.iter().enumerate().find_map(|(i, j)| j.map(|j| (i, j)));
        let mut written: Vec<String> = Vec::with_capacity(seg.lines.len());
        for (i, line) in seg.lines.iter().enumerate() {
            written.push(match kept[i] {
                Some(j) => {
                    anchor = Some((i, j));
                    lossy(j)
                }
                None if keying == Keying::Trimmed => reindent(
                    line.text,
                    anchor.map(|(a, j)| (seg.lines[a].text, file.lines[j].content)),
                    tabs,
                ),
                // The model's line as written, trailing blanks included (a changed line that keeps
                // the file's trailing space, a line of blanks only the model wrote so).
                None => line.text.to_string(),
            });
        }
        let mut new = written.join("\n");
        if !file.lines[place.end - 1].eol.is_empty() {
            new.push('\n');
        }
        let changed = new != old;
        let new_start = (place.start as isize + delta) as usize;
        if changed {
            // One replacement per run of changed lines: the kept lines between them are not
            // rewritten, so the file line the alignment keeps is the one whose bytes (line ending,
            // trailing blanks) stay, whatever alignment a diff of the whole region would choose.
            for block in change_blocks(&kept, place, file) {
                let new_lines = &written[block.new.clone()];
                if block.old.is_empty() {
                    let at = index.start(block.old.start);
                    let mut text = new_lines.join("\n");
                    if at < hay.text().len() || file.lines.last().is_some_and(|l| !l.eol.is_empty()) {
                        text.push('\n');
                    }
                    set.insert_lines(at, &text).map_err(SnippetError::Engine)?;
                } else {
                    let mut old = String::new();
                    for j in block.old.clone() {
                        old.push_str(&lossy(j));
                        if !file.lines[j].eol.is_empty() {
                            old.push('\n');
                        }
                    }
                    let mut text = new_lines.join("\n");
                    if !new_lines.is_empty() && !file.lines[block.old.end - 1].eol.is_empty() {
                        text.push('\n');
                    }
                    let found = Match {
                        tier: Tier::Exact,
                        spans: vec![index.range(block.old.clone())],
                        forgiven: None,
                        indented_first_line: false,
                        old,
                        fold: Fold::EXACT,
                        unescape_new: false,
                        unnumber_new: None,
                        lines: None,
                        open_end: false,
                        pieces: Vec::new(),
                        unpinned: Vec::new(),
                    };
                    match run_ending(file, &block) {
                        Some(eol) => set.replace_lines_ending(&found, &text, eol),
                        None => set.replace(&found, &text),
                    }
                    .map_err(SnippetError::Engine)?;
                }
                changed_ids.push(k);
            }
        }
        delta += seg.lines.len() as isize - (place.end - place.start) as isize;
        reports.push(SegmentPlacement {
            snippet_lines: (seg.lines[0].number, seg.lines.last().map_or(0, |l| l.number)),
            old_lines: (place.start + 1, place.end),
            new_lines: (new_start + 1, new_start + seg.lines.len()),
            deleted_lines: deleted,
            changed,
        });
    }
    if changed_ids.is_empty() {
        return Err(SnippetError::NoChange);
    }
    let mut applied = M::finish(set).map_err(|e| SnippetError::Engine(renumber(e, &changed_ids)))?;
    for edit in applied.edits().iter_mut() {
        edit.index = changed_ids[edit.index];
    }
    let regions: Vec<_> = places
        .iter()
        .zip(&reports)
        .map(|(place, report)| Region {
            old: index.range(place.start..place.end),
            old_lines: report.old_lines,
            new_lines: report.new_lines,
        })
        .collect();
    *applied.edits() = one_edit_per_segment(std::mem::take(applied.edits()), &regions);
    let first = places.first().expect("a segment");
    let last = places.last().expect("a segment");
    Ok((
        applied,
        Placement {
            segments: reports,
            kept_before: (!first_is_marker && first.start > 0).then_some((1, first.start)),
            kept_after: (!last_is_marker && last.end < file.len()).then_some((last.end + 1, file.len())),
            indentation_ignored,
        },
    ))
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
fn align_lines(region: &[&[u8]], seg: &[&[u8]], start: usize) -> (Vec<Option<usize>>, usize) {
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

/// Among alignments of a segment with its region that keep as many lines, the one git's diffs show
/// (the hunks of the commits the snippets come from): each kept file line is the earliest segment
/// line alike it after the previous kept one, so that of alike lines the first is the file's and
/// the later one is new (new lines after `#`, then `#` again: the first `#` is kept). A model
/// cannot see which of two alike lines it meant as the file's, yet their bytes may differ in what
/// it cannot see (a line ending in a file of mixed endings); the choice follows one fixed rule, the
/// one the diffs it reads make. Linear: the scans between kept lines do not overlap.
fn keep_earliest(kept: &mut [Option<usize>], seg: &[&[u8]], region: &[&[u8]], start: usize) {
    let mut from = 0;
    for i in 0..kept.len() {
        let Some(f) = kept[i] else { continue };
        let earliest = (from..i).find(|&e| kept[e].is_none() && seg[e] == region[f - start]);
        if let Some(e) = earliest {
            kept[e] = kept[i].take();
        }
        from = earliest.unwrap_or(i) + 1;
    }
}

/// The mirror of [`keep_earliest`]: each kept file line is the latest segment line alike it before
/// the next kept one. Linear as it is.
fn keep_latest(kept: &mut [Option<usize>], seg: &[&[u8]], region: &[&[u8]], start: usize) {
    let mut to = kept.len();
    for i in (0..kept.len()).rev() {
        let Some(f) = kept[i] else { continue };
        let latest = (i + 1..to)
            .rev()
            .find(|&e| kept[e].is_none() && seg[e] == region[f - start]);
        if let Some(e) = latest {
            kept[e] = kept[i].take();
        }
        to = latest.unwrap_or(i);
    }
}

/// How many runs of changed lines an alignment leaves: places where the kept lines are not
/// consecutive in both the segment and the file, or a changed line at an end.
fn change_runs(kept: &[Option<usize>]) -> usize {
    let mut runs = 0;
    let mut previous: Option<Option<usize>> = None;
    for &k in kept {
        let consecutive = match (previous, k) {
            (Some(Some(p)), Some(f)) => f == p + 1,
            (None, Some(_)) => true,
            _ => false,
        };
        // A run starts at a changed line after a kept one (or the start), or where two kept lines
        // are not consecutive in the file (lines deleted between them); `consecutive` is false for
        // a changed line.
        if !consecutive && !matches!(previous, Some(None)) {
            runs += 1;
        }
        previous = Some(k);
    }
    runs
}

/// Which of alike segment lines are the file's (issue 31 class 4d, "blank lines paired by position,
/// not content"): of the alignments keeping the same lines, git's (each kept line the earliest alike
/// one, [`keep_earliest`]) unless the latest alike ones ([`keep_latest`]) leave fewer runs of
/// changed lines: then the file's alike lines (a blank, `/// <summary>`) stay next to the strong
/// line they stand beside in the file, and the new lines are written as one run, as the model wrote
/// them, before them. A method inserted before the blank line and doc opener of the next one keeps
/// the file's blank (its CRLF in a mixed-ending file) right before that doc, where the earliest
/// rule moved it up to the first new blank line. Ties keep git's choice.
fn keep_alike_by_position(kept: &mut [Option<usize>], seg: &[&[u8]], region: &[&[u8]], start: usize) {
    let mut latest = kept.to_vec();
    keep_earliest(kept, seg, region, start);
    keep_latest(&mut latest, seg, region, start);
    if change_runs(&latest) < change_runs(kept) {
        kept.copy_from_slice(&latest);
    }
}

/// A run of changed lines of a segment: file lines `old` (absolute) written as segment lines `new`.
struct ChangeBlock {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// The runs of changed lines between the kept ones, in order. A deletion of the file's last lines
/// where its last line has no line break is written with the kept line before it (as the whole
/// region), so that the file does not gain a final line break.
fn change_blocks(kept: &[Option<usize>], place: &Place, file: &FileLines<'_>) -> Vec<ChangeBlock> {
    let mut blocks = Vec::new();
    let (mut i, mut f) = (0, place.start);
    while i < kept.len() || f < place.end {
        if i < kept.len() && kept[i] == Some(f) {
            i += 1;
            f += 1;
            continue;
        }
        let mut i2 = i;
        while i2 < kept.len() && kept[i2].is_none() {
            i2 += 1;
        }
        let f2 = kept.get(i2).copied().flatten().unwrap_or(place.end);
        let unterminated_end = f2 == file.lines.len() && file.lines[f2 - 1].eol.is_empty();
        if i == i2 && f < f2 && unterminated_end {
            return vec![ChangeBlock {
                old: place.start..place.end,
                new: 0..kept.len(),
            }];
        }
        blocks.push(ChangeBlock { old: f..f2, new: i..i2 });
        i = i2;
        f = f2;
    }
    blocks
}

/// The line ending of a run of changed lines that writes more lines than it replaces, where the
/// file's lines around it (the kept or unchanged line before the run and the one after it) end
/// alike and a line it replaces ends otherwise (issue 31 class 4d, a file of mixed endings): the
/// run's lines take their neighbours' ending. The engine's own rule (a new line takes the ending
/// of the file line it stands in for, the lines past the replaced ones that of the last replaced
/// line) would give every added line the ending of the one odd line the model rewrote, and a line
/// the model wrote that the file's history keeps (a `env:` line the alignment took as new) would
/// then change its ending. A one-for-one rewrite keeps each line's own ending; `None` where the
/// engine's rule stands.
fn run_ending<'f>(file: &FileLines<'f>, block: &ChangeBlock) -> Option<&'f [u8]> {
    let old = block.old.clone();
    if old.is_empty() || block.new.len() <= old.len() || old.start == 0 || old.end >= file.lines.len() {
        return None;
    }
    let (before, after) = (file.lines[old.start - 1].eol, file.lines[old.end].eol);
    if before.is_empty() || before != after {
        return None;
    }
    file.lines[old]
        .iter()
        .any(|l| !l.eol.is_empty() && l.eol != before)
        .then_some(before)
}

/// A segment's region: its bytes before, its one-based lines before and after.
#[derive(Clone)]
struct Region {
    old: std::ops::Range<usize>,
    old_lines: (usize, usize),
    new_lines: (usize, usize),
}

/// The engine's edits merged per segment: one edit whose occurrence is the segment's region
/// (`regions[k]`: its bytes before, its lines before and after), as the result reports segments. The
/// lines of the region around the runs of changed lines are kept byte for byte, so the region's new
/// bytes are the runs' new bytes widened by as many bytes as the old ones.
fn one_edit_per_segment(
    edits: Vec<crate::changes::AppliedEdit>,
    regions: &[Region],
) -> Vec<crate::changes::AppliedEdit> {
    let mut merged: Vec<crate::changes::AppliedEdit> = Vec::with_capacity(edits.len());
    for edit in edits {
        match merged.last_mut() {
            Some(last) if last.index == edit.index => {
                last.occurrences.extend(edit.occurrences);
                last.differences.extend(edit.differences);
                last.coarse_alignment |= edit.coarse_alignment;
            }
            _ => merged.push(edit),
        }
    }
    for edit in &mut merged {
        let (Some(first), Some(last)) = (edit.occurrences.first(), edit.occurrences.last()) else {
            continue;
        };
        let Region {
            old,
            old_lines,
            new_lines,
        } = regions[edit.index].clone();
        let new = first.new.start - (first.old.start - old.start)..last.new.end + (old.end - last.old.end);
        edit.occurrences = vec![crate::changes::Occurrence {
            old,
            new,
            old_lines,
            new_lines,
        }];
    }
    merged
}

/// An engine error about replacement `i` names segment `ids[i]`.
fn renumber(e: EditError, ids: &[usize]) -> EditError {
    match e {
        EditError::NoChange { index, line } => EditError::NoChange {
            index: ids.get(index).copied().unwrap_or(index),
            line,
        },
        other => other,
    }
}

/// Whether these lines indent with tabs (more lines start with a tab than with a space; a block
/// comment's ` *` continuation lines are not counted).
fn uses_tabs<'l>(lines: impl Iterator<Item = &'l [u8]>) -> bool {
    let (mut tabs, mut spaces) = (0usize, 0usize);
    for line in lines {
        // A block comment's continuation (` * text`, ` */`) is aligned under its opener by one
        // space whatever the file indents with: it casts no vote (a licence header and javadoc
        // would otherwise outvote a tab-indented class).
        if line.trim_ascii_start().starts_with(b"*") {
            continue;
        }
        match line.first() {
            Some(b'\t') => tabs += 1,
            Some(b' ') => spaces += 1,
            _ => {}
        }
    }
    tabs > spaces
}

/// Whether the model sees the file's indentation otherwise than the file has it, so that its lines
/// are compared and written with the file's indentation (issue 31 class 4c), when the votes of the
/// file and the snippet ([`uses_tabs`]) differ. The evidence, in order:
///
/// 1. The segment lines that pair with file lines, indentation ignored (a diff of each segment
///    with its region): where one of them is indented, or its file line is, and the two
///    indentations differ, the model wrote the file's indentation otherwise (spaces for its tabs):
///    yes. Where such pairs exist and all of them are indented byte for byte as the file's: no,
///    the model sees the file's indentation as it is, and the lines it wrote are written as it
///    wrote them (a Makefile's tab-indented recipe lines in a file whose other lines indent with
///    spaces; a PHP script's new tab-indented lines between space-indented context lines).
/// 2. No indented pair (context lines at the left margin only): the file lines the segments
///    replace vote, against the snippet: the model's tab-indented recipe lines rewrite the file's
///    tab-indented ones.
/// 3. No indented file line there either: the file's vote against the snippet's, as given.
fn sees_other_indentation(
    file: &FileLines<'_>,
    segments: &[Segment<'_>],
    places: &[Place],
    snippet_tabs: bool,
) -> bool {
    let mut paired = false;
    for (seg, place) in segments.iter().zip(places) {
        let region: Vec<&[u8]> = file.lines[place.start..place.end]
            .iter()
            .map(|l| key(l.content, Keying::Trimmed))
            .collect();
        let lines: Vec<&[u8]> = seg
            .lines
            .iter()
            .map(|l| key(l.text.as_bytes(), Keying::Trimmed))
            .collect();
        let (kept, _) = align_lines(&region, &lines, place.start);
        for (i, j) in kept.iter().enumerate() {
            let Some(j) = *j else { continue };
            if lines[i].is_empty() {
                continue;
            }
            let (own, theirs) = (
                indent_of(seg.lines[i].text.as_bytes()),
                indent_of(file.lines[j].content),
            );
            if own.is_empty() && theirs.is_empty() {
                continue;
            }
            if own != theirs {
                return true;
            }
            paired = true;
        }
    }
    if paired {
        return false;
    }
    let mut region = places
        .iter()
        .flat_map(|p| file.lines[p.start..p.end].iter().map(|l| l.content))
        .filter(|l| matches!(l.first(), Some(b' ' | b'\t')) && !l.trim_ascii().is_empty())
        .peekable();
    if region.peek().is_some() {
        return uses_tabs(region) != snippet_tabs;
    }
    true
}

/// `line` (a new line of the snippet) re-indented like the file: the indentation its nearest kept
/// line (`anchor`: the snippet's line and the file's) has in the snippet is replaced by the file's,
/// and what it indents beyond that is written with tabs in a file indented with tabs.
fn reindent(line: &str, anchor: Option<(&str, &[u8])>, tabs: bool) -> String {
    // Trailing blanks are the model's, kept as written. An empty line stays empty; a line of
    // blanks only is indentation like any other, so it takes the file's indentation style.
    if line.is_empty() {
        return String::new();
    }
    let body = line.trim_start_matches([' ', '\t']);
    let own = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    let Some((snippet_anchor, file_anchor)) = anchor else {
        return format!("{own}{body}");
    };
    let s_ind = &snippet_anchor[..snippet_anchor.len() - snippet_anchor.trim_start_matches([' ', '\t']).len()];
    let f_ind = String::from_utf8_lossy(indent_of(file_anchor)).into_owned();
    let width = |s: &str| s.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum::<usize>();
    let (own_w, s_w) = (width(own), width(s_ind));
    if own_w >= s_w {
        let extra = own_w - s_w;
        let extra = if tabs {
            "\t".repeat(extra / 4) + &" ".repeat(extra % 4)
        } else {
            " ".repeat(extra)
        };
        format!("{f_ind}{extra}{body}")
    } else {
        // Less indented than its anchor: as much less as in the snippet, from the file's indentation.
        let less = s_w - own_w;
        let f_w = width(&f_ind);
        let target = f_w.saturating_sub(less);
        let indent = if tabs {
            "\t".repeat(target / 4) + &" ".repeat(target % 4)
        } else {
            " ".repeat(target)
        };
        format!("{indent}{body}")
    }
}

/// The whitespace rule for blank lines: the file's invisible bytes are kept only on lines that pair
/// one to one with unchanged context; on lines the model wrote, its bytes are written.
///
/// A blank segment line (blanks only, or nothing) kept as a file blank line whose bytes differ from
/// the model's is taken as a line the model wrote (the file's line replaced by the model's) when
/// - it is in the changed part: the run of blank lines it is in touches a line the segment writes
///   or a file line it deletes (the model wrote the blank lines of a change, `    ` for four lines it
///   deleted, an emptied line beside the line it changed); or
/// - the model wrote blanks on it (`    ` where the file's line is empty): a model that writes
///   whitespace on a blank line wrote it.
///
/// A blank line the model wrote empty, among unchanged context, keeps the file's blanks: the model
/// may not have seen them (read views and models drop trailing whitespace), and what a model
/// cannot see is never what it changed.
fn model_blank_lines(kept: &mut [Option<usize>], seg: &Segment<'_>, file: &FileLines<'_>) {
    let m = kept.len();
    let blank = |i: usize| seg.lines[i].text.bytes().all(is_blank);
    let mut i = 0;
    while i < m {
        if !blank(i) {
            i += 1;
            continue;
        }
        let a = i;
        while i < m && blank(i) {
            i += 1;
        }
        let b = i;
        // The run a..b of blank segment lines: does it touch a change?
        let contiguous = |x: usize, y: usize| matches!((kept[x], kept[y]), (Some(f), Some(g)) if g == f + 1);
        let touches = (a..b).any(|x| kept[x].is_none())
            || (a > 0 && !contiguous(a - 1, a))
            || (b < m && !contiguous(b - 1, b))
            || (a + 1..b).any(|x| !contiguous(x - 1, x));
        for (slot, line) in kept[a..b].iter_mut().zip(&seg.lines[a..b]) {
            let Some(f) = *slot else { continue };
            let model = line.text.as_bytes();
            if model == file.lines[f].content {
                continue;
            }
            if touches || !model.is_empty() {
                *slot = None;
            }
        }
    }
}

#[cfg(test)]
mod tests;
