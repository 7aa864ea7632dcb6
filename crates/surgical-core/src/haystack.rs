//! The searched text, with everything a search builds from it, built once and only when needed.

use std::cell::OnceCell;

use crate::lines::LineIndex;
use crate::loose::FileLines;
use crate::normalize::{normalize, Normalized};
use crate::tier::Tier;

/// A text to search (UTF-8 that may hold invalid sequences, any line terminators), with its line
/// index and its normalized view for each text tier, each built on first use and then reused by every
/// search on it.
///
/// Build one per text and run every search on it: [`Haystack::find`] for one needle,
/// [`Haystack::find_all`] for several (one pass per tier for all of them). The views cost one copy of
/// the text each (the exact view of an LF-only UTF-8 text is borrowed, not copied), so a haystack of a
/// large text is worth keeping only while searching it.
///
/// Not `Sync`: the lazy views are built in place. Share the text, not the haystack, across threads.
pub struct Haystack<'a> {
    text: &'a [u8],
    lines: OnceCell<LineIndex>,
    views: [OnceCell<Normalized<'a>>; 3],
    file_lines: OnceCell<FileLines<'a>>,
    legacy: OnceCell<bool>,
}

impl<'a> Haystack<'a> {
    /// A haystack over `text`. Builds nothing yet.
    pub fn new(text: &'a [u8]) -> Haystack<'a> {
        Haystack {
            text,
            lines: OnceCell::new(),
            views: [OnceCell::new(), OnceCell::new(), OnceCell::new()],
            file_lines: OnceCell::new(),
            legacy: OnceCell::new(),
        }
    }

    /// The text searched.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The text's line index (built on first use).
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(self.text))
    }

    /// The normalized view a text tier searches. Tiers past `unicode` search the `unicode` view.
    pub(crate) fn view(&self, tier: Tier) -> &Normalized<'a> {
        let slot = match tier {
            Tier::Exact => 0,
            Tier::TrailingWhitespace => 1,
            _ => 2,
        };
        self.views[slot].get_or_init(|| normalize(self.text, tier.fold()))
    }

    /// The text's lines with the keys the line-based tiers compare.
    pub(crate) fn file_lines(&self) -> &FileLines<'a> {
        self.file_lines.get_or_init(|| FileLines::new(self.text))
    }

    /// Whether the text is in a legacy 8-bit encoding: not valid UTF-8, and no UTF-8 multi-byte text at
    /// all (so the bytes of a new non-ASCII character there cannot be known).
    pub(crate) fn is_legacy_8bit(&self) -> bool {
        *self.legacy.get_or_init(|| {
            if std::str::from_utf8(self.text).is_ok() {
                return false;
            }
            let mut invalid = false;
            for (valid, bad) in crate::lines::utf8_pieces(self.text) {
                if !valid.is_ascii() {
                    return false;
                }
                invalid |= !bad.is_empty();
            }
            invalid
        })
    }
}
