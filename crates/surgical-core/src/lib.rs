/*!
The edit engine of surgical, with no I/O: find what each edit targets, exactly or fuzzily, splice
it in, and say precisely what changed.

The promise this crate keeps: **every byte outside the spans an edit targets comes back
identical**, whatever the text holds — CRLF, lone CR, mixed line endings, invalid UTF-8, smart
quotes, no-break spaces, trailing whitespace — and inside a fuzzily matched span only what the
model changed is changed.

# Overview

An edit runs in three stages, each a public value that can be used alone:

1. **A [`Haystack`]**: the text (bytes: UTF-8 that may contain invalid sequences; the file layer
   strips BOMs and transcodes UTF-16), with its [`lines::LineIndex`] and one normalized view per
   text tier, each built on first use and reused by every search.
2. **[`Haystack::find`]** (one needle) or [`Haystack::find_all`] (several, one pass per tier):
   where a needle matches in a [`Scope`] (anywhere, a byte or line range, whole lines only), as a
   [`Match`] — the [`Tier`] that found it, its byte spans, what the tier forgave — or a [`Miss`]:
   not found (with the closest regions) or ambiguous (with every candidate). Nothing is edited.
3. **A [`ChangeSet`]**: matches with their replacement texts, refused with
   [`EditError::Overlap`] as they are added when they overlap; [`ChangeSet::apply`] writes them in
   one pass and returns an [`Applied`]: the new text and, for each replacement, the old and new
   byte range and lines of every occurrence and what differed ([`Difference`]); its
   [`Applied::changes`] (one [`Change`] per occurrence) is what [`diff`] renders.
   [`ChangeSet::apply_spliced`] is the same pass without the new text, for a caller that writes
   the old bytes plus the changed ranges: a [`Spliced`] holds the replacements, and its
   [`Spliced::windows`] the new text as windows around them ([`diff::Windows`]), enough for the
   diffs and line numbers of a large file without a copy of it.

[`apply`] is those three stages for a list of [`Edit`]s (`oldText` → `newText`, as a model sends
them) under [`Options`]; [`apply_spliced`] the same ending in [`ChangeSet::apply_spliced`].

* Tiers run strictest first: [`Tier::Exact`] (line terminators never count),
  [`Tier::TrailingWhitespace`], [`Tier::Unicode`] (NFKC, typographic quotes and dashes, special
  spaces), then the line-based [`Tier::Indentation`] and [`Tier::WhitespaceRuns`],
  [`Tier::Escapes`], the tiers for content the model misremembered ([`Tier::Typo`],
  [`Tier::ExtraLine`], [`Tier::MissingLine`], which place only with evidence and a margin), and
  the opt-in [`Tier::Similar`]. A tier applies only when it finds exactly one
  occurrence, and differences a model cannot see (line endings, trailing blanks, special spaces)
  never decide between occurrences.
* Every failure of [`apply`] is an [`EditError`]: which edit, what went wrong, what to do. On error
  nothing is returned but the error; the caller writes nothing.
* [`diff::numbered_diff`] and [`diff::unified_patch`] render what changed, from the real bytes
  before and after.

# Example

Find, then apply: the needle is found by a looser tier than exact (the file has `\r\n` line
endings and a typographic quote), and only what the model changed is changed.

```
use surgical_core::{ChangeSet, Haystack, Scope, Tier};

let file = "let s = \u{2018}a\u{2019};\r\nlet n = 1;\r\n".as_bytes();
let hay = Haystack::new(file);
let found = hay.find("let s = 'a';\nlet n = 1;", &Scope::everywhere(), Tier::Unicode).unwrap();
let mut changes = ChangeSet::new(&hay);
changes.replace(&found, "let s = 'a';\nlet n = 2;")?;
let applied = changes.apply()?;

assert_eq!(found.tier, Tier::Unicode);
// The file's quotes and CRLF line endings are kept; only `1` became `2`.
assert_eq!(applied.text, "let s = \u{2018}a\u{2019};\r\nlet n = 2;\r\n".as_bytes());
# Ok::<(), surgical_core::EditError>(())
```

The same with [`apply`], on the scenario of the bug report this project answers: the model copied
`oldText` from rendered output, where two spaces of indentation came out as no-break spaces. The
file has an em dash and trailing spaces on lines no edit targets.

```
use surgical_core::{apply, diff, Edit, Options, Tier};

let file = "const label = \"a \u{2014} b\";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n";
let edit = Edit::new("\u{a0}\u{a0}return 2;", "\u{a0}\u{a0}return 3;");
let applied = apply(file.as_bytes(), &[edit], &Options::new())?;

// Only `2` became `3`: the em dash, the trailing spaces and the file's own spaces are intact.
assert_eq!(applied.text, file.replace("return 2;", "return 3;").as_bytes());
assert_eq!(applied.edits[0].tier, Tier::Unicode);
assert_eq!(applied.edits[0].occurrences[0].new_lines, (5, 5));

// The diff is computed from the real bytes before and after.
let shown = diff::numbered_diff(file.as_bytes(), &applied.text, &applied.changes());
assert!(shown.text.contains("-5   return 2;\n+5   return 3;\n"));
# Ok::<(), surgical_core::EditError>(())
```

# Trade-offs

* Matching is done in normalized copies of the text, each with an exact map back to the original
  bytes (see the `normalize` module): that keeps every tier a plain substring search (one
  Aho–Corasick pass for all edits), linear in the file, at the price of one normalized copy per
  fuzzy tier. The exact view of an LF-only UTF-8 text is borrowed, not copied.
* A match that would start or end inside a unit that normalization combined (a ligature, a base
  letter with its combining accent) has no exact counterpart in the original; it is refused
  rather than widened, so an edit never swallows a character the model did not include.
* Keeping the file's characters inside a span relies on aligning `oldText` with `newText` (line
  diff, then character diff on lines the model edited). When the model rewrote a line (less than
  half alike), the new line is written as given: guessing further would risk putting a file
  character where the model meant its own.
*/

#![deny(missing_docs)]

// The stages, lowest first; each imports only the ones before it (tests/layering.rs checks it, and
// docs/ARCHITECTURE.md walks the tree): text (kernels), find (haystack, tiers, the tier ladder),
// error, diff (rendering), changes (change set, alignment, transport), snippet, edit (the entry
// point for a list of edits).
mod changes;
pub mod diff;
mod edit;
mod error;
mod find;
pub mod snippet;
mod text;

pub use changes::align::{line_destinations, Difference, DifferenceKind};
pub use changes::{Applied, AppliedEdit, ChangeSet, Occurrence, Spliced};
pub use diff::change::Change;
pub use edit::{apply, apply_spliced, Edit, Options};
pub use error::EditError;
pub use find::closest::{Closest, LineDifference, Region, Row};
pub use find::forgiven::{ElidedLines, ExtraLine, Forgiven, MissingLine, Typo};
pub use find::haystack::Haystack;
pub use find::line_tiers::{
    SIMILAR_MARGIN, SIMILAR_MAX_DIFFERING_LINES, SIMILAR_MIN_ANCHOR_CHARS, SIMILAR_MIN_EQUAL_LINES,
    SIMILAR_MIN_LINE_RATIO, SIMILAR_THRESHOLD,
};
pub use find::mistakes::{MISREMEMBERED_MARGIN, MISREMEMBERED_MIN_ANCHOR_CHARS, MISREMEMBERED_MIN_EQUAL_LINES};
pub use find::near_miss::{NearMiss, NearRow, Refusal};
pub use find::needle::{ElisionProblem, Match, Miss, Missed, Needle, MAX_LISTED};
pub use find::scope::Scope;
#[doc(hidden)]
pub use find::search::set_search_chunk;
pub use find::tier::Tier;
#[doc(hidden)]
pub use text::budget::with_work_budget;
pub use text::placeholder::{omission_placeholder, omission_placeholder_in};
pub use text::{fold, line_numbers, lines, marker};
