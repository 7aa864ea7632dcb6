//! The syntax check after every writing call (issue 34): the file parsed before and after in its
//! language (`surgical-syntax`), the errors the call introduced reported (`syntaxErrors`, one line
//! each in `text`), or the call refused with `syntax_error` when it asked for that
//! (`onSyntaxError: "refuse"`, per call or in the [`Config`]).
//!
//! The words of the errors are at the end of this module (`words`), the one place they are
//! written.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use surgical_core::{Change, Spliced};
use surgical_syntax::{Check, Limits, Problem, Skip};

use crate::{Config, ErrorCode, ToolError};

/// What a writing call does about syntax errors it would introduce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OnSyntaxError {
    /// Write, and list the errors in the result (the default).
    #[default]
    Report,
    /// Write nothing: the call fails with `syntax_error`, the errors listed.
    Refuse,
    /// Do not check.
    Off,
}

impl OnSyntaxError {
    /// `report`, `refuse` or `off` (ASCII case ignored).
    pub fn parse(name: &str) -> Option<OnSyntaxError> {
        match name.to_ascii_lowercase().as_str() {
            "report" => Some(OnSyntaxError::Report),
            "refuse" => Some(OnSyntaxError::Refuse),
            "off" => Some(OnSyntaxError::Off),
            _ => None,
        }
    }

    /// The name [`OnSyntaxError::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            OnSyntaxError::Report => "report",
            OnSyntaxError::Refuse => "refuse",
            OnSyntaxError::Off => "off",
        }
    }
}

/// One syntax error a call introduced, as the result lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxErrorReport {
    /// One-based line in the file after the call.
    pub line: usize,
    /// One-based column (characters from the line's start).
    pub column: usize,
    /// The line where it ends (equal to `line` for something missing).
    pub end_line: usize,
    /// The column just after its end (equal to `column` for something missing).
    pub end_column: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// The check of one file: what the result object and its text say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// The errors introduced (empty when none); `None` when the file was not checked.
    pub errors: Option<Vec<SyntaxErrorReport>>,
    /// `checked: LANGUAGE` or `skipped: WHY`; `None` when checks are off.
    pub note: Option<String>,
    /// The lines `text` gets (empty when there is nothing to say).
    pub text: String,
}

/// The `onSyntaxError` of a call's JSON (`on_syntax_error` too), over the config's.
pub(crate) fn with_call_option(input: &Value, config: &Config) -> Result<Option<Config>, ToolError> {
    let Some(value) = input.get("onSyntaxError").or_else(|| input.get("on_syntax_error")) else {
        return Ok(None);
    };
    let parsed = value.as_str().and_then(OnSyntaxError::parse).ok_or_else(|| {
        ToolError::invalid_input(format!(
            "onSyntaxError must be \"report\" (write and list the syntax errors the call introduces), \"refuse\" \
             (write nothing if it introduces any) or \"off\"; got {value}"
        ))
    })?;
    Ok(Some(config.clone().on_syntax_error(parsed)))
}

/// The check of an in-place edit (`edit`, `apply_snippet`): `old` and the replacements. The new
/// text is built only when it is within the size limit.
pub(crate) fn check_spliced(config: &Config, shown: &str, old: &[u8], spliced: &Spliced) -> Outcome {
    if config.on_syntax_error == OnSyntaxError::Off {
        return Outcome::default();
    }
    let limits = Limits::default();
    let bytes = old.len().max(spliced.new_len());
    if bytes > limits.max_bytes {
        // Not built: the size alone decides, if the language is one the check knows.
        let language = surgical_syntax::Language::detect(shown, old);
        return outcome(
            config,
            shown,
            Check::Skipped {
                language,
                reason: match language {
                    Some(_) => Skip::TooLarge {
                        bytes,
                        limit: limits.max_bytes,
                    },
                    None => Skip::UnknownLanguage,
                },
            },
        );
    }
    let new = spliced.text(old);
    check(config, shown, old, &new, spliced.changes())
}

/// The check of `old` made `new` by `changes` (the file's name says its language).
pub(crate) fn check(config: &Config, shown: &str, old: &[u8], new: &[u8], changes: &[Change]) -> Outcome {
    if config.on_syntax_error == OnSyntaxError::Off {
        return Outcome::default();
    }
    let began = std::time::Instant::now();
    let check = surgical_syntax::check(shown, old, new, changes, &Limits::default());
    crate::timings::took("syntax check", began);
    outcome(config, shown, check)
}

fn outcome(_config: &Config, _shown: &str, check: Check) -> Outcome {
    match check {
        Check::Checked {
            language,
            errors,
            preexisting,
        } => {
            let reports: Vec<SyntaxErrorReport> = errors
                .iter()
                .map(|e| SyntaxErrorReport {
                    line: e.line,
                    column: e.column,
                    end_line: e.end_line,
                    end_column: e.end_column,
                    message: words::problem(&e.problem),
                })
                .collect();
            let mut text = String::new();
            if !errors.is_empty() {
                let _ = writeln!(
                    text,
                    "Syntax: this call introduced {} ({}):",
                    plural(errors.len(), "syntax error"),
                    language.name()
                );
                for (e, r) in errors.iter().zip(&reports) {
                    let _ = writeln!(text, "  {}", words::line(r, &e.source));
                }
                if preexisting > 0 {
                    let _ = writeln!(
                        text,
                        "  (the file had {} there before this call; not listed)",
                        plural(preexisting, "other syntax error")
                    );
                }
            }
            Outcome {
                errors: Some(reports),
                note: Some(format!("checked: {}", language.name())),
                text,
            }
        }
        Check::Skipped { reason, .. } => {
            let why = words::skipped(reason);
            let text = match reason {
                Skip::TooLarge { .. } | Skip::OverBudget { .. } => format!("Syntax not checked: {why}.\n"),
                _ => String::new(),
            };
            Outcome {
                errors: None,
                note: Some(format!("skipped: {why}")),
                text,
            }
        }
    }
}

impl Outcome {
    /// Whether the call must be refused: it introduces errors and the config says refuse.
    pub(crate) fn refuses(&self, config: &Config) -> bool {
        config.on_syntax_error == OnSyntaxError::Refuse && self.errors.as_ref().is_some_and(|e| !e.is_empty())
    }
}

/// The `syntax_error` refusal of a call whose files `outcomes` (path, outcome) introduce errors.
pub(crate) fn refusal<'a>(outcomes: impl IntoIterator<Item = (&'a str, &'a Outcome)>) -> ToolError {
    let mut message = String::new();
    let mut lines = Vec::new();
    let mut path = None;
    for (shown, o) in outcomes {
        let Some(errors) = o.errors.as_ref().filter(|e| !e.is_empty()) else {
            continue;
        };
        path.get_or_insert_with(|| shown.to_string());
        let _ = writeln!(
            message,
            "{shown}: the call would introduce {}, so nothing was written:",
            plural(errors.len(), "syntax error")
        );
        for line in o
            .text
            .lines()
            .skip(1)
            .filter(|l| !l.trim_start().starts_with("(the file had"))
        {
            let _ = writeln!(message, "{line}");
        }
        lines.extend(errors.iter().map(|e| e.line));
    }
    message.push_str(
        "Fix the text you send so that it keeps the file's syntax whole (every bracket, quote and block it opens \
         closed), or call again with onSyntaxError: \"report\" to write it anyway.",
    );
    ToolError {
        path,
        lines,
        ..ToolError::new(ErrorCode::SyntaxError, message)
    }
}

/// `text` with `block` inserted before its diff (the first blank line), or at its end.
pub(crate) fn insert_before_diff(text: &mut String, block: &str) {
    if block.is_empty() {
        return;
    }
    match text.find("\n\n") {
        Some(at) => text.insert_str(at + 1, block),
        None => {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(block);
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The words of the syntax check.
mod words {
    use super::*;

    /// One error on one line: where, what, and the line itself.
    pub(super) fn line(r: &SyntaxErrorReport, source: &str) -> String {
        let shown: String = source.trim().chars().take(120).collect();
        let cut = if shown.chars().count() < source.trim().chars().count() {
            "…"
        } else {
            ""
        };
        format!("line {}: {}: `{shown}{cut}`", r.line, r.message)
    }

    /// A problem in plain words.
    pub(super) fn problem(p: &Problem) -> String {
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
    pub(super) fn skipped(reason: Skip) -> String {
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
}
