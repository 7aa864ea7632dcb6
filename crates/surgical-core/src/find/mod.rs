//! Stage 2, find: where a needle matches in a [`Haystack`](haystack::Haystack), by which tier, or
//! why it has no single place. Nothing is edited here.
//!
//! May import: `text`. Imported by: `error`, `changes`, `snippet`, `edit`.
//!
//! Inside, lowest first (a file imports only files above it in this list):
//!
//! * `tier` — the tiers, strictest first; `scope` — where a needle may match; `forgiven` — what a
//!   tier past `unicode` forgave; `mistakes` — one mistyped or renamed word, and the thresholds of
//!   the misremembered tiers.
//! * `line_tiers` — the file's lines keyed as the line-based tiers compare them (`FileLines`), the
//!   needle's lines, and the searches of `indentation`, `whitespace_runs` and `similar`.
//! * `haystack` — the searched text and the views built from it once; `near_miss` — what the
//!   misremembered tiers report when they refuse; `closest` — the regions most like a needle found
//!   nowhere.
//! * `misremembered` — the search of `typo`, `extra_line`, `missing_line`; `needle` — a needle and
//!   what finding it gives (`Match`, `Miss`, `Missed`), and the ladder as a tier receives it
//!   (`SearchAgain`).
//! * `anchors` — which part of a needle to look for first (its rarest in the text) and the search
//!   for many such parts at once.
//! * `search` — the substring search of the text tiers (Aho–Corasick over a normalized view);
//!   `text_tiers` — one text tier for every needle still unplaced; `rewrites` — `escapes` and
//!   line-number prefixes, which rewrite the needle and search it again; `elision` — a needle whose
//!   middle is left out with marker lines, found piece by piece.
//! * `ladder` — the tier ladder: the one place that decides which tier runs (`Haystack::locate`),
//!   and the public `Haystack::find` and `Haystack::find_all`.

pub(crate) mod anchors;
pub(crate) mod closest;
pub(crate) mod elision;
pub(crate) mod forgiven;
pub(crate) mod haystack;
mod ladder;
pub(crate) mod line_tiers;
pub(crate) mod misremembered;
pub(crate) mod mistakes;
pub(crate) mod near_miss;
pub(crate) mod needle;
pub(crate) mod rewrites;
pub(crate) mod scope;
pub(crate) mod search;
pub(crate) mod text_tiers;
pub(crate) mod tier;
