//! The syntax check's words (issue 34): a problem the check found, the line that shows it, why a
//! file was not checked, and the headline and refusal around them.

use std::fmt::Write as _;

use surgical_syntax::{Problem, Skip};

use crate::contract::syntax::SyntaxErrorReport;

/// `Syntax: this call introduced N syntax errors (LANGUAGE):`.
pub(crate) fn headline(count: usize, language: &str) -> String {
    format!(
        "Syntax: this call introduced {} ({language}):",
        plural(count, "syntax error")
    )
}

/// The note after the errors listed: how many the file had before.
pub(crate) fn preexisting(count: usize) -> String {
    format!(
        "  (the file had {} there before this call; not listed)",
        plural(count, "other syntax error")
    )
}

/// `Syntax not checked: WHY.`
pub(crate) fn not_checked(why: &str) -> String {
    format!("Syntax not checked: {why}.")
}

/// The first line of a refusal, for one file.
pub(crate) fn refused(shown: &str, count: usize) -> String {
    format!(
        "{shown}: the call would introduce {}, so nothing was written:",
        plural(count, "syntax error")
    )
}

/// What a refused call should do.
pub(crate) const REFUSED_HINT: &str =
    "Fix the text you send so that it keeps the file's syntax whole (every bracket, quote and \
     block it opens closed), or call again with onSyntaxError: \"report\" to write it anyway.";

/// A bad `onSyntaxError`.
pub(crate) fn bad_option(value: &serde_json::Value) -> String {
    format!(
        "onSyntaxError must be \"report\" (write and list the syntax errors the call introduces), \"refuse\" \
         (write nothing if it introduces any) or \"off\"; got {value}"
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// One error on one line: where, what, and the line itself.
pub(crate) fn line(r: &SyntaxErrorReport, source: &str) -> String {
    let shown: String = source.trim().chars().take(120).collect();
    let cut = if shown.chars().count() < source.trim().chars().count() {
        "…"
    } else {
        ""
    };
    format!("line {}: {}: `{shown}{cut}`", r.line, r.message)
}

/// A problem in plain words.
pub(crate) fn problem(p: &Problem) -> String {
    match p {
        Problem::NeverClosed {
            opener,
            closer,
            before_line,
        } => {
            let mut s = format!("`{opener}` opened here is never closed");
            if let Some(line) = before_line {
                let _ = write!(s, " (its `{closer}` probably belongs before line {line})");
            } else {
                let _ = write!(s, " (no `{closer}` for it)");
            }
            s
        }
        Problem::ClosesNothing { closer } => {
            if closer.chars().all(|c| c.is_ascii_alphabetic()) {
                format!("`{closer}` closes nothing: no block is open here")
            } else {
                format!("`{closer}` closes nothing: no bracket is open here")
            }
        }
        Problem::UnclosedString { quote } => format!("the string opened here with `{quote}` is never closed"),
        Problem::Missing { token } => format!("missing `{token}` here"),
        Problem::Expected { what } => format!("expected {what} here"),
        Problem::Unexpected { token } => format!("unexpected `{token}`: it cannot stand here"),
        Problem::UnexpectedEnd => "the file ends in the middle of a statement".to_string(),
        Problem::UnexpectedIndent => {
            "unexpected indent: this line is indented deeper than its block, and no line ending with `:` opened \
             a new one"
                .to_string()
        }
        Problem::UnindentMatchesNothing => {
            "this line's indentation matches no enclosing block (unindent does not match any outer indentation \
             level)"
                .to_string()
        }
        Problem::ExpectedIndentedBlock { after_line } => {
            format!("expected an indented block after line {after_line}, which ends with `:`")
        }
        Problem::BadIndentation => "this line's indentation fits no block around it".to_string(),
        Problem::UnclosedFence { fence } => {
            format!("the code fence opened here ({fence}) is never closed: the rest of the document is code")
        }
        other => format!("{other:?}"),
    }
}

/// Why a file was not checked.
pub(crate) fn skipped(reason: Skip) -> String {
    match reason {
        Skip::UnknownLanguage => "no grammar for this file's language".to_string(),
        Skip::NotBuilt(language) => format!("this build has no {} grammar", language.name()),
        Skip::TooLarge { limit, .. } => format!("file over {} MiB ({limit} bytes)", limit >> 20),
        Skip::OverBudget { budget } => format!("parsing took over {} ms", budget.as_millis()),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One sentence per kind of problem.
    #[test]
    fn every_problem_in_words() {
        let cases = [
            (
                Problem::NeverClosed {
                    opener: "{".into(),
                    closer: "}".into(),
                    before_line: Some(57),
                },
                "`{` opened here is never closed (its `}` probably belongs before line 57)",
            ),
            (
                Problem::NeverClosed {
                    opener: "def".into(),
                    closer: "end".into(),
                    before_line: None,
                },
                "`def` opened here is never closed (no `end` for it)",
            ),
            (
                Problem::ClosesNothing { closer: "}".into() },
                "`}` closes nothing: no bracket is open here",
            ),
            (
                Problem::ClosesNothing { closer: "fi".into() },
                "`fi` closes nothing: no block is open here",
            ),
            (
                Problem::UnclosedString { quote: "\"".into() },
                "the string opened here with `\"` is never closed",
            ),
            (Problem::Missing { token: ";".into() }, "missing `;` here"),
            (
                Problem::Expected {
                    what: "an expression".into(),
                },
                "expected an expression here",
            ),
            (
                Problem::Unexpected { token: "=>".into() },
                "unexpected `=>`: it cannot stand here",
            ),
            (Problem::UnexpectedEnd, "the file ends in the middle of a statement"),
            (
                Problem::UnexpectedIndent,
                "unexpected indent: this line is indented deeper than its block, and no line ending with `:` \
                 opened a new one",
            ),
            (
                Problem::UnindentMatchesNothing,
                "this line's indentation matches no enclosing block (unindent does not match any outer \
                 indentation level)",
            ),
            (
                Problem::ExpectedIndentedBlock { after_line: 3 },
                "expected an indented block after line 3, which ends with `:`",
            ),
            (
                Problem::BadIndentation,
                "this line's indentation fits no block around it",
            ),
            (
                Problem::UnclosedFence { fence: "```".into() },
                "the code fence opened here (```) is never closed: the rest of the document is code",
            ),
        ];
        for (p, want) in cases {
            assert_eq!(problem(&p), want, "{p:?}");
        }
    }

    #[test]
    fn one_line_per_error_with_the_line_shown() {
        let r = SyntaxErrorReport {
            line: 42,
            column: 10,
            end_line: 42,
            end_column: 11,
            message: problem(&Problem::NeverClosed {
                opener: "{".into(),
                closer: "}".into(),
                before_line: None,
            }),
        };
        assert_eq!(
            line(&r, "    fn foo() {"),
            "line 42: `{` opened here is never closed (no `}` for it): `fn foo() {`"
        );
    }
}
