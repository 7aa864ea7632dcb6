//! The syntax errors an edit introduced, found with tree-sitter.
//!
//! [`check`] takes a file's text before and after an edit and the edit's changes (the byte ranges
//! replaced, as `surgical_core::Change`s), parses both in the file's language ([`Language::detect`]:
//! its name, a modeline or its shebang) and returns the problems of the text after that the text
//! before did not have: a problem in a stretch that was already broken, or one that only moved
//! with the edit, is not reported. Each is a [`SyntaxError`]: where (one-based lines and columns of
//! the text after) and what, as data ([`Problem`]): an opener never closed, a string left open, a
//! missing token, an unexpected one, a Python indentation error, a Markdown fence never closed.
//! The words a model reads are the tool layer's.
//!
//! The cost is bounded: texts over [`Limits::max_bytes`] are not checked, parsing stops at
//! [`Limits::budget`], and a large text is parsed in windows around the changes (each from a line
//! that starts a top-level item to the next such line after the change; in C# and Java, whose code
//! is indented under a namespace or class, first a window inside the blocks around the change,
//! parsed with their headers and closers): a window clean before
//! and after is a change that broke nothing; one clean before and broken after, its boundaries
//! confirmed by a wider parse of the text before, holds what the change broke when the same wider
//! parse of the text after keeps the problems in it. Only when the windows cannot decide (the
//! text was broken there already, a window's boundary falls in a string, changes in several
//! windows, a string left open) are the whole texts parsed, the text after incrementally from the
//! tree before edited by the changes.
//!
//! Each language's grammar is a cargo feature (`rust`, `python`, ..., all in the default
//! `grammars`); a build without one skips its files ([`Skip::NotBuilt`]).
#![deny(missing_docs)]

#[cfg(feature = "parser")]
mod attribute;
#[cfg(feature = "parser")]
mod check;
#[cfg(feature = "parser")]
mod findings;
mod grammar;
mod language;
#[cfg(feature = "parser")]
mod layout;
#[cfg(feature = "parser")]
mod members;
mod problem;
#[cfg(feature = "parser")]
mod tokens;

use std::time::Duration;

use surgical_core::lines::LineIndex;
use surgical_core::Change;

pub use crate::language::Language;
pub use crate::problem::Problem;

/// How much the check may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Texts (before or after) longer than this are not checked ([`Skip::TooLarge`]).
    pub max_bytes: usize,
    /// Parsing stops after this long ([`Skip::OverBudget`]); a check that needs the whole texts
    /// parses them both within it.
    pub budget: Duration,
}

/// The default [`Limits::max_bytes`]: 1 MiB.
pub const DEFAULT_MAX_BYTES: usize = 1 << 20;

/// The default [`Limits::budget`]: 200 ms, which the whole-text parses of a 1 MiB file fit in on
/// the development machine (a check of a clean edit takes a few milliseconds).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(200);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: DEFAULT_MAX_BYTES,
            budget: DEFAULT_BUDGET,
        }
    }
}

/// One syntax error an edit introduced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// One-based line in the text after the edit (lines end at `\r\n`, `\r` or `\n`, as surgical
    /// counts them everywhere).
    pub line: usize,
    /// One-based column: characters (Unicode scalar values; an invalid byte counts as one) from
    /// the line's start.
    pub column: usize,
    /// Where it ends: the line of its last byte, or `line` for an empty one (something missing).
    pub end_line: usize,
    /// The column just after its last character (`column` for an empty one).
    pub end_column: usize,
    /// What is wrong.
    pub problem: Problem,
    /// The text of `line` (without its terminator, invalid bytes as U+FFFD).
    pub source: String,
}

/// Why a text was not checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skip {
    /// Neither the file's name nor a modeline or shebang names a language the check knows.
    UnknownLanguage,
    /// The language's grammar is not in this build (its cargo feature was left out).
    NotBuilt(Language),
    /// The text before or after is longer than the limit.
    TooLarge {
        /// The longer text's length.
        bytes: usize,
        /// [`Limits::max_bytes`].
        limit: usize,
    },
    /// Parsing did not finish within the budget.
    OverBudget {
        /// [`Limits::budget`].
        budget: Duration,
    },
}

/// The outcome of [`check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The texts were parsed.
    Checked {
        /// Their language.
        language: Language,
        /// The errors the edit introduced, in text order (empty when none).
        errors: Vec<SyntaxError>,
        /// How many problems the text after has that the text before had already (not listed).
        preexisting: usize,
    },
    /// The texts were not checked.
    Skipped {
        /// Their language, when known.
        language: Option<Language>,
        /// Why.
        reason: Skip,
    },
}

/// Whether `language`'s grammar is in this build.
pub fn available(language: Language) -> bool {
    grammar::available(language)
}

/// The syntax errors that `changes` introduced into `old`, making it `new`, for a file named `path`
/// (whose name, else the modeline or shebang of `new`, says its language).
///
/// `changes` are in file order, their `old` ranges not overlapping, and `new` is `old` with each
/// `old` range replaced by the bytes at the change's `new` range of `new` (as
/// `surgical_core::Spliced::changes` gives them; a whole rewrite is one change of everything, or
/// of what lies between the common prefix and suffix).
pub fn check(path: &str, old: &[u8], new: &[u8], changes: &[Change], limits: &Limits) -> Check {
    let Some(language) = Language::detect(path, new) else {
        return Check::Skipped {
            language: None,
            reason: Skip::UnknownLanguage,
        };
    };
    check_as(language, old, new, changes, limits)
}

/// [`check`] for a text known to be in `language`.
pub fn check_as(language: Language, old: &[u8], new: &[u8], changes: &[Change], limits: &Limits) -> Check {
    let skipped = |reason| Check::Skipped {
        language: Some(language),
        reason,
    };
    if !available(language) {
        return skipped(Skip::NotBuilt(language));
    }
    let bytes = old.len().max(new.len());
    if bytes > limits.max_bytes {
        return skipped(Skip::TooLarge {
            bytes,
            limit: limits.max_bytes,
        });
    }
    run(language, old, new, changes, limits, true).unwrap_or_else(skipped)
}

/// [`check_as`] from the whole texts, never from windows of them: the reference the windowed
/// check is tested against (not part of the API).
#[doc(hidden)]
pub fn check_whole_as(language: Language, old: &[u8], new: &[u8], changes: &[Change], limits: &Limits) -> Check {
    if !available(language) || old.len().max(new.len()) > limits.max_bytes {
        return check_as(language, old, new, changes, limits);
    }
    run(language, old, new, changes, limits, false).unwrap_or_else(|reason| Check::Skipped {
        language: Some(language),
        reason,
    })
}

#[cfg(feature = "parser")]
fn run(
    language: Language,
    old: &[u8],
    new: &[u8],
    changes: &[Change],
    limits: &Limits,
    windowed: bool,
) -> Result<Check, Skip> {
    let deadline = std::time::Instant::now() + limits.budget;
    let found = check::introduced(language, old, new, changes, deadline, windowed)
        .map_err(|check::OverBudget| Skip::OverBudget { budget: limits.budget })?;
    Ok(Check::Checked {
        language,
        errors: located(new, found.introduced),
        preexisting: found.preexisting,
    })
}

#[cfg(not(feature = "parser"))]
fn run(language: Language, _: &[u8], _: &[u8], _: &[Change], _: &Limits, _: bool) -> Result<Check, Skip> {
    Err(Skip::NotBuilt(language))
}

/// At most this many errors are listed: past the first few, a broken edit's errors are echoes.
pub const MAX_ERRORS: usize = 10;

/// The findings as errors with lines and columns of `text`.
#[cfg_attr(not(feature = "parser"), allow(dead_code))]
fn located(text: &[u8], findings: Vec<problem::Finding>) -> Vec<SyntaxError> {
    if findings.is_empty() {
        return Vec::new();
    }
    let index = LineIndex::new(text);
    let position = |at: usize| {
        let line = index.line_of(at.min(text.len()));
        let start = index.start(line);
        let column = 1 + count_chars(&text[start.min(at)..at]);
        (line, column)
    };
    findings
        .into_iter()
        .take(MAX_ERRORS)
        .map(|f| {
            let (line, column) = position(f.at.start);
            let (end_line, end_column) = if f.at.is_empty() {
                (line, column)
            } else {
                let (l, _) = position(f.at.end - 1);
                let c = 1 + count_chars(&text[index.start(l).min(f.at.end)..f.at.end]);
                (l, c)
            };
            let hint_line = f.hint.map(|h| 1 + index.line_of(h.min(text.len())));
            let problem = match f.problem {
                Problem::NeverClosed { opener, closer, .. } => Problem::NeverClosed {
                    opener,
                    closer,
                    before_line: hint_line,
                },
                Problem::ExpectedIndentedBlock { .. } => Problem::ExpectedIndentedBlock {
                    after_line: hint_line.unwrap_or(line),
                },
                other => other,
            };
            let shown = index.line(text, line.min(index.count().saturating_sub(1)));
            SyntaxError {
                line: line + 1,
                column,
                end_line: end_line + 1,
                end_column,
                problem,
                source: String::from_utf8_lossy(shown.content).into_owned(),
            }
        })
        .collect()
}

fn count_chars(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes).chars().count()
}

/// The tree-sitter grammar of `language` in this build (for the examples and the evaluation's
/// tools; not part of the API).
#[cfg(feature = "parser")]
#[doc(hidden)]
pub fn tree_sitter_language(language: Language) -> Option<tree_sitter::Language> {
    grammar::grammar(language)
}
