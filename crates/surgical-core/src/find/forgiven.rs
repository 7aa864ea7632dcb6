//! What a tier past `unicode` forgave, as data (the tool layer words it).

use crate::find::tier::Tier;

/// What a looser tier forgave to find a needle, reported with the replacement (as a
/// [`crate::DifferenceKind::Forgiven`] on its first line) and on the [`crate::Match`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Forgiven {
    /// [`Tier::Indentation`]: the text's indentation differs from the needle's by `shift` columns (by
    /// level when `units` is set); the replacement was re-indented the same way.
    Reindented {
        /// Columns added (or removed, when negative) at every line.
        shift: isize,
        /// Indentation units, the needle's and the text's (e.g. 4 and 2 columns per level), when they
        /// differ; `None` when columns map one to one.
        units: Option<(usize, usize)>,
        /// The text indents with tabs there, of this many columns each.
        tab_width: Option<usize>,
    },
    /// [`Tier::WhitespaceRuns`]: runs of spaces and tabs, indentation or blank lines differ; unchanged
    /// lines kept the text's bytes, changed lines were written as given.
    WhitespaceRuns,
    /// [`Tier::Similar`]: no exact match; the region matches at `similarity` percent, the next best at
    /// `runner_up` percent (both rounded as `{:.0}` prints them).
    Similar {
        /// Mean line similarity of the region, in percent.
        similarity: u32,
        /// The next best region's, in percent.
        runner_up: u32,
    },
    /// [`Tier::Escapes`]: the needle was over-escaped; unescaped, it matched with `tier`, which forgave
    /// `also` if anything; the replacement was unescaped the same way.
    Escapes {
        /// The tier the unescaped needle matched with.
        tier: Tier,
        /// What that tier forgave.
        also: Option<Box<Forgiven>>,
    },
    /// Every line of the needle carried a line-number prefix copied from a read view (`12 | `, `12→`,
    /// `12<TAB>`), which the text does not have: left out, the needle matched, forgiving `also` if
    /// anything; `newText`'s lines lost the same prefixes.
    LineNumbers {
        /// What the tier that matched the needle without its numbers forgave.
        also: Option<Box<Forgiven>>,
    },
    /// [`Tier::Typo`], [`Tier::ExtraLine`], [`Tier::MissingLine`]: the needle misremembered the
    /// region's content, at most one mistake of each kind. Lines the model left unchanged kept the
    /// file's text; see each part for what was written.
    Misremembered {
        /// One line differed by one mistyped word; the file's word was kept.
        typo: Option<Typo>,
        /// One needle line the file does not have there; it was not written.
        extra_line: Option<ExtraLine>,
        /// One file line the needle left out; it was kept.
        missing_line: Option<MissingLine>,
    },
    /// [`Tier::Elision`]: marker lines of the needle stood for file lines left out; those lines were
    /// kept as the text has them, and the pieces around the markers were matched alone.
    Elided {
        /// One per marker line, in order.
        markers: Vec<ElidedLines>,
        /// What the tiers that found the pieces forgave, in piece order, each once.
        also: Vec<Forgiven>,
    },
    /// The text indents the match's first line more than the needle does (whole-line placement with
    /// [`crate::Scope::indented_first_line`]); the text's indentation was kept.
    IndentedFirstLine,
}

/// A word the needle mistyped (see [`Forgiven::Misremembered`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Typo {
    /// One-based line of the text.
    pub line: usize,
    /// One-based line of the needle.
    pub needle_line: usize,
    /// The word as the needle has it.
    pub wrote: String,
    /// The word as the text has it.
    pub file: String,
}

/// A needle line the text does not have there (see [`Forgiven::Misremembered`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExtraLine {
    /// One-based line of the needle.
    pub needle_line: usize,
    /// The line, trimmed.
    pub text: String,
}

/// A text line the needle left out (see [`Forgiven::Misremembered`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MissingLine {
    /// One-based line of the text.
    pub line: usize,
    /// The line, trimmed.
    pub text: String,
}

impl Forgiven {
    /// The tier whose forgiveness this is, for the tiers a kind of forgiveness tells apart
    /// ([`Forgiven::Misremembered`]: the loosest of its mistakes).
    pub(crate) fn misremembered_tier(&self) -> Option<Tier> {
        match self {
            Forgiven::Misremembered {
                extra_line,
                missing_line,
                ..
            } => Some(if missing_line.is_some() {
                Tier::MissingLine
            } else if extra_line.is_some() {
                Tier::ExtraLine
            } else {
                Tier::Typo
            }),
            _ => None,
        }
    }
}

/// A similarity (0 to 1) in whole percent, rounded exactly as `format!("{:.0}", x * 100.0)` rounds it,
/// so that a message built from the number reads as one built from the float.
pub(crate) fn percent(x: f32) -> u32 {
    format!("{:.0}", x * 100.0).parse().unwrap_or(0)
}

/// The text lines one marker line of a needle stood for (see [`Forgiven::Elided`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElidedLines {
    /// The marker line as the needle has it, trimmed (`// ... existing code ...`).
    pub marker: String,
    /// The marker's one-based line in the needle.
    pub needle_line: usize,
    /// The first text line it stands for (one-based, numbered before the edit).
    pub first: usize,
    /// How many text lines it stands for (0 when the pieces around it are adjacent in the text).
    pub count: usize,
}
