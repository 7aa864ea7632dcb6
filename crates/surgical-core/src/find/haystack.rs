//! The searched text, with everything a search builds from it, built once and only when needed.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use crate::find::line_tiers::FileLines;
use crate::find::tier::Tier;
use crate::text::lines::LineIndex;
use crate::text::normalize::{exact_view_without_cr, normalize, Fold, Normalized};
use crate::text::rarity::Rarity;

/// A text to search (UTF-8 that may hold invalid sequences, any line terminators), with its line
/// index and the normalized view each text tier searches, built on first use and reused by the
/// searches that follow.
///
/// Build one per text and run every search on it: [`Haystack::find`] for one needle,
/// [`Haystack::find_all`] for several (one pass per tier for all of them). A view costs one copy of
/// the text (the exact view of an LF-only UTF-8 text is borrowed, not copied), so the haystack keeps
/// only the view used last: memory stays at one copy of the text whatever the tiers reached, a search
/// builds each view it needs once (tiers run strictest first), and searches at the same tier share
/// it. The line index and the line-based tiers' keyed lines are kept once built.
///
/// Not `Sync`: the lazy parts are built in place. Share the text, not the haystack, across threads.
pub struct Haystack<'a> {
    text: &'a [u8],
    lines: OnceCell<LineIndex>,
    /// The view used last, and the tier whose fold built it.
    view: RefCell<Option<(Tier, Rc<Normalized<'a>>)>>,
    file_lines: OnceCell<FileLines<'a>>,
    legacy: OnceCell<bool>,
    /// Whether the text holds a CR, once a search had to know (see [`Haystack::has_cr`]).
    has_cr: OnceCell<bool>,
    /// How common short strings are in the text, estimated from a sample on first use.
    rarity: OnceCell<Rarity>,
}

impl<'a> Haystack<'a> {
    /// A haystack over `text`. Builds nothing yet.
    pub fn new(text: &'a [u8]) -> Haystack<'a> {
        Haystack {
            text,
            lines: OnceCell::new(),
            view: RefCell::new(None),
            file_lines: OnceCell::new(),
            legacy: OnceCell::new(),
            has_cr: OnceCell::new(),
            rarity: OnceCell::new(),
        }
    }

    /// A haystack over `text` with its line index built already (by a caller that needs it too:
    /// the index of a large text is a pass over it and 8 bytes a line, built once this way);
    /// [`Haystack::into_lines`] hands it back.
    ///
    /// # Panics
    ///
    /// When `lines` is not the index of a text as long as `text`.
    pub fn with_lines(text: &'a [u8], lines: LineIndex) -> Haystack<'a> {
        assert_eq!(lines.len(), text.len(), "the line index of the text searched");
        let hay = Haystack::new(text);
        let _ = hay.lines.set(lines);
        hay
    }

    /// The line index, if it was built or given ([`Haystack::with_lines`]).
    pub fn into_lines(self) -> Option<LineIndex> {
        self.lines.into_inner()
    }

    /// The text searched.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The text's line index (built on first use).
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(self.text))
    }

    /// Whether the text holds a CR (looked up once, then kept): the exact tier's view of a text
    /// without one is the text itself, and its lines are counted by their `\n` alone.
    pub(crate) fn has_cr(&self) -> bool {
        *self.has_cr.get_or_init(|| memchr::memchr(b'\r', self.text).is_some())
    }

    /// [`Haystack::has_cr`] when it was looked up already; `None` otherwise (not worth a pass over
    /// the text on its own).
    pub(crate) fn has_cr_known(&self) -> Option<bool> {
        self.has_cr.get().copied()
    }

    /// How common short strings are in the text (sampled on first use, about 0.1 ms): which part
    /// of a needle its searches look for first.
    pub(crate) fn rarity(&self) -> &Rarity {
        self.rarity.get_or_init(|| Rarity::of(self.text))
    }

    /// The normalized view a text tier searches (tiers past `unicode` search the `unicode` view).
    pub(crate) fn view(&self, tier: Tier) -> Rc<Normalized<'a>> {
        let tier = tier.min(Tier::Unicode);
        let mut view = self.view.borrow_mut();
        if let Some((built, v)) = view.as_ref() {
            if *built == tier {
                return Rc::clone(v);
            }
        }
        // The previous view goes first, so that two copies of the text never coexist here.
        *view = None;
        // The exact view of a text known to hold no CR skips normalize's own search for one.
        let without_cr = || (tier.fold() == Fold::EXACT && !self.has_cr()).then(|| exact_view_without_cr(self.text));
        let v = Rc::new(
            without_cr()
                .flatten()
                .unwrap_or_else(|| normalize(self.text, tier.fold())),
        );
        if matches!(v.text, std::borrow::Cow::Borrowed(_)) {
            // A borrowed view is a text found to be valid UTF-8: not a legacy 8-bit one, which
            // saves validating the whole text again.
            let _ = self.legacy.set(false);
        }
        *view = Some((tier, Rc::clone(&v)));
        v
    }

    /// Drops the normalized view (a later search builds it again): the change set does this before it
    /// writes the new text, so that a view and the new text are never in memory together.
    pub(crate) fn release_view(&self) {
        self.view.borrow_mut().take();
    }

    /// The text's lines with the keys the line-based tiers compare. Building them drops the
    /// normalized view first (the line-based tiers do not search it), so that the two are never in
    /// memory together.
    pub(crate) fn file_lines(&self) -> &FileLines<'a> {
        self.file_lines.get_or_init(|| {
            self.release_view();
            FileLines::new(self.text)
        })
    }

    /// The line-based tiers' lines, if a search built them.
    pub(crate) fn built_file_lines(&self) -> Option<&FileLines<'a>> {
        self.file_lines.get()
    }

    /// Whether the text is in a legacy 8-bit encoding: not valid UTF-8, and no UTF-8 multi-byte text at
    /// all (so the bytes of a new non-ASCII character there cannot be known).
    pub(crate) fn is_legacy_8bit(&self) -> bool {
        *self.legacy.get_or_init(|| {
            if crate::text::lines::utf8_str(self.text).is_some() {
                return false;
            }
            let mut invalid = false;
            for (valid, bad) in crate::text::lines::utf8_pieces(self.text) {
                if !valid.is_ascii() {
                    return false;
                }
                invalid |= !bad.is_empty();
            }
            invalid
        })
    }
}

impl std::fmt::Debug for Haystack<'_> {
    /// The text's length and what has been built so far (the text itself can be large).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Haystack")
            .field("len", &self.text.len())
            .field("lines", &self.lines.get().map(LineIndex::count))
            .field("view", &self.view.borrow().as_ref().map(|(tier, _)| *tier))
            .finish_non_exhaustive()
    }
}
