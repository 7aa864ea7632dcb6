//! The matching tiers, strictest first, and what each one folds.

use crate::text::normalize::Fold;

/// A matching tier, strictest first. Each is tried only when the ones before it found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Tier {
    /// Bytes equal, except that line terminators never count (`\n` in `oldText` matches `\r\n`,
    /// `\r` or `\n`) and bytes that are not valid UTF-8 match U+FFFD.
    Exact,
    /// Also ignores spaces and tabs at the ends of lines.
    TrailingWhitespace,
    /// Also folds NFKC forms, typographic quotes and dashes, and special spaces to ASCII.
    Unicode,
    /// Whole lines that match after a uniform change of indentation, or with tabs and spaces
    /// exchanged; `newText` is re-indented the same way, in the file's own style.
    Indentation,
    /// Whole lines that match when runs of spaces and tabs count as one space, indentation is
    /// ignored, and blank lines are skipped on both sides.
    WhitespaceRuns,
    /// `oldText` arrived over-escaped (`\\n` for a newline, `\\t`, `\\"`): unescaped, it matches
    /// by one of the tiers above, and `newText` is unescaped the same way.
    Escapes,
    /// The middle of `oldText` is elided with a marker line (`...`, `// ... existing code ...`,
    /// `# ...`, `<!-- ... -->`) that `newText` keeps at the same place: the pieces between markers
    /// are found alone (each by one of the tiers above), uniquely and in order, and the file lines a
    /// marker stands for are kept as they are (see the `elision` module).
    Elision,
    /// One line of `oldText` differs from the file's by one mistyped word (a character dropped,
    /// added, changed, or two swapped); the region is anchored by equal lines and clearly better than
    /// any other (see the `MISREMEMBERED_*` constants, e.g. [`crate::MISREMEMBERED_MARGIN`]). The
    /// file's word is kept.
    Typo,
    /// Also one line of `oldText` that the file does not have there (a duplicated neighbour, an
    /// invented comment); it is not written.
    ExtraLine,
    /// Also one non-blank line of the file left out of `oldText`; it is kept.
    MissingLine,
    /// Opt-in: a near match for a paraphrased line or two, anchored by equal lines, with a
    /// similarity threshold and a margin over the next best region (see the `SIMILAR_*` constants).
    Similar,
}

impl Tier {
    /// Every tier, strictest first.
    pub const ALL: [Tier; 11] = [
        Tier::Exact,
        Tier::TrailingWhitespace,
        Tier::Unicode,
        Tier::Indentation,
        Tier::WhitespaceRuns,
        Tier::Escapes,
        Tier::Elision,
        Tier::Typo,
        Tier::ExtraLine,
        Tier::MissingLine,
        Tier::Similar,
    ];

    /// The loosest tier allowed when a caller names none: every tier but the opt-in
    /// [`Tier::Similar`].
    pub const DEFAULT_LOOSEST: Tier = Tier::MissingLine;

    /// The tiers that search text (the others work on lines or rewrite `oldText`).
    pub(crate) const TEXT: [Tier; 3] = [Tier::Exact, Tier::TrailingWhitespace, Tier::Unicode];

    /// The name used in results and options: `exact`, `trailing_whitespace`, `unicode`.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Exact => "exact",
            Tier::TrailingWhitespace => "trailing_whitespace",
            Tier::Unicode => "unicode",
            Tier::Indentation => "indentation",
            Tier::WhitespaceRuns => "whitespace_runs",
            Tier::Escapes => "escapes",
            Tier::Elision => "elision",
            Tier::Typo => "typo",
            Tier::ExtraLine => "extra_line",
            Tier::MissingLine => "missing_line",
            Tier::Similar => "similar",
        }
    }

    /// The tier with this name.
    pub fn from_name(name: &str) -> Option<Tier> {
        Tier::ALL.into_iter().find(|s| s.name() == name)
    }

    pub(crate) fn fold(self) -> Fold {
        match self {
            Tier::Exact => Fold::EXACT,
            Tier::TrailingWhitespace => Fold::TRAILING,
            _ => Fold::UNICODE,
        }
    }
}
