//! Stage 5, the change set: matches with their replacement texts, refused when they overlap,
//! then applied in one pass that keeps the file's own characters wherever the replaced and
//! replacing texts agree.
//!
//! May import: `text`, `find`, `error`, `diff`. Imported by: `snippet`, `edit`.
//!
//! * `align` — aligning `oldText` with `newText` on the file's span: the bytes written and what
//!   differed (`Difference`), line diff then character diff.
//! * `transport` — a line-based tier's match: the model's change replayed on the file's own lines
//!   (imports `align`).
//! * `change_set` — `ChangeSet`: replacements added, checked, aligned and written (`apply`), or
//!   only their bytes and places (`apply_spliced`, whose new lines `diff::Windows` counts) (imports
//!   `align`, `transport`).

pub(crate) mod align;
mod change_set;
pub(crate) mod transport;

pub use change_set::{Applied, AppliedEdit, ChangeSet, Occurrence, Spliced};
