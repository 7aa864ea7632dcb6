//! The syntax check after every writing call (issue 34): the file parsed before and after in its
//! language (`surgical-syntax`), the errors the call introduced reported (`syntaxErrors`, one line
//! each in `text`), or the call refused with `syntax_error` when it asked for that
//! (`onSyntaxError: "refuse"`, per call or in the [`Config`]). Called by every writing tool before
//! it writes: the in-place pipeline (`edit`, `apply_snippet`, `text_editor`'s `str_replace` and
//! `insert`), `write` over a file, and the patch transaction before its commit.

use std::fmt::Write as _;

use serde_json::Value;
use surgical_core::{Change, Spliced};
use surgical_syntax::{Check, Limits, Skip};

use crate::contract::syntax::{OnSyntaxError, SyntaxErrorReport};
use crate::wording;
use crate::{Config, ErrorCode, ToolError};

/// The check of one file: what the result object and its text say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// The errors introduced (empty when none); `None` when the file was not checked.
    pub errors: Option<Vec<SyntaxErrorReport>>,
    /// `checked: LANGUAGE` or `skipped: WHY`; `None` when checks are off.
    pub note: Option<String>,
    /// The lines `text` gets (empty when there is nothing to say).
    pub text: String,
    /// One line per error (as `text` lists them, without the indent).
    pub listed: Vec<String>,
}

/// The `onSyntaxError` of a call's JSON (`on_syntax_error` too), over the config's. `null` is
/// the option left out, as for every optional argument (strict-mode clients send it).
pub(crate) fn with_call_option(input: &Value, config: &Config) -> Result<Option<Config>, ToolError> {
    let Some(value) = input
        .get("onSyntaxError")
        .or_else(|| input.get("on_syntax_error"))
        .filter(|value| !value.is_null())
    else {
        return Ok(None);
    };
    let parsed = value
        .as_str()
        .and_then(OnSyntaxError::parse)
        .ok_or_else(|| ToolError::invalid_input(wording::syntax::bad_option(value)))?;
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
    crate::pipeline::timings::took("syntax check", began);
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
                    message: wording::syntax::problem(&e.problem),
                })
                .collect();
            let listed: Vec<String> = errors
                .iter()
                .zip(&reports)
                .map(|(e, r)| wording::syntax::line(r, &e.source))
                .collect();
            let mut text = String::new();
            if !errors.is_empty() {
                let _ = writeln!(text, "{}", wording::syntax::headline(errors.len(), language.name()));
                for line in &listed {
                    let _ = writeln!(text, "  {line}");
                }
                if preexisting > 0 {
                    let _ = writeln!(text, "{}", wording::syntax::preexisting(preexisting));
                }
            }
            Outcome {
                errors: Some(reports),
                note: Some(format!("checked: {}", language.name())),
                text,
                listed,
            }
        }
        Check::Skipped { reason, .. } => {
            let why = wording::syntax::skipped(reason);
            let text = match reason {
                Skip::TooLarge { .. } | Skip::OverBudget { .. } => format!("{}\n", wording::syntax::not_checked(&why)),
                _ => String::new(),
            };
            Outcome {
                errors: None,
                note: Some(format!("skipped: {why}")),
                text,
                listed: Vec::new(),
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

/// The `syntax_error` refusal of a call whose files `outcomes` (path, outcome) introduce errors:
/// the errors listed in its message and, as a report lists them, in `syntaxErrors` (the first
/// such file's, the one `path` names) and, for a patch (`per_file`), in `files`.
pub(crate) fn refusal<'a>(outcomes: impl IntoIterator<Item = (&'a str, &'a Outcome)>, per_file: bool) -> ToolError {
    let mut message = String::new();
    let mut lines = Vec::new();
    let mut path = None;
    let mut syntax_errors = None;
    let mut files = Vec::new();
    for (shown, o) in outcomes {
        let Some(errors) = o.errors.as_ref().filter(|e| !e.is_empty()) else {
            continue;
        };
        path.get_or_insert_with(|| shown.to_string());
        syntax_errors.get_or_insert_with(|| errors.clone());
        if per_file {
            files.push(crate::contract::error::FileSyntaxErrors {
                path: shown.to_string(),
                syntax_errors: errors.clone(),
            });
        }
        let _ = writeln!(message, "{}", wording::syntax::refused(shown, errors.len()));
        for line in &o.listed {
            let _ = writeln!(message, "  {line}");
        }
        lines.extend(errors.iter().map(|e| e.line));
    }
    message.push_str(wording::syntax::REFUSED_HINT);
    ToolError {
        path,
        lines,
        syntax_errors,
        files,
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
