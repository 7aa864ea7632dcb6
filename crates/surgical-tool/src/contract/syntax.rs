//! The syntax check's part of the contract: what a writing call does about the syntax errors it
//! would introduce ([`OnSyntaxError`], a call's `onSyntaxError` and the [`crate::Config`]'s), and
//! one error as results list it ([`SyntaxErrorReport`], in `syntaxErrors`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
