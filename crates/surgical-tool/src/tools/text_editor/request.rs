//! Reading a `text_editor` call as models write it: Anthropic's input object for both versions of
//! its text-editor tool (`text_editor_20250728`, named `str_replace_based_edit_tool`, and
//! `text_editor_20250124`, named `str_replace_editor`), and the `str_replace_editor` calls of
//! SWE-agent and OpenHands, which use the same commands and parameter names.
//!
//! What differs between them is accepted from all: `insert`'s text as `insert_text` (20250728) or
//! `new_str` (20250124, SWE-agent, OpenHands); numbers as JSON numbers or quoted; `view_range` as an
//! array or the string of one. Keys a call may carry for its host (OpenHands' `security_risk`,
//! `impl_source`, ...) are ignored, as every tool ignores unknown keys. A JSON null is an absent
//! parameter (OpenAI's strict mode sends every optional one as null).

use serde_json::{Map, Value};

use super::wording;
use crate::tools::args;
use crate::wording::call::json_kind as kind;
use crate::ToolError;

pub use crate::contract::text_editor::COMMANDS;

/// A parsed `text_editor` call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextEditorRequest {
    /// The path as the model gave it (relative to the root, or absolute inside it).
    pub path: String,
    /// The command and its parameters.
    pub command: EditorCommand,
}

/// A command of the text-editor tool with its parameters, as given: line numbers are checked
/// against the file when the command runs (the messages name the file's line count).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditorCommand {
    /// Show a file numbered like `cat -n`, or list a directory two levels deep.
    View {
        /// `view_range`: the first and last line to show, one-based; a last line of -1 means the
        /// end of the file.
        range: Option<(i64, i64)>,
        /// `max_characters`: show at most this many characters of the file.
        max_characters: Option<usize>,
    },
    /// Create a file that does not exist yet, holding `file_text` exactly.
    Create {
        /// The new file's content.
        file_text: String,
    },
    /// Replace the one occurrence of `old_str` with `new_str`.
    StrReplace {
        /// The text to replace (`old_str`).
        old_str: String,
        /// What replaces it (`new_str`; empty when absent, which deletes `old_str`).
        new_str: String,
    },
    /// Insert lines after line `insert_line` (0: at the start).
    Insert {
        /// `insert_line`, as given.
        insert_line: i64,
        /// The text to insert (`insert_text`, or `new_str`).
        text: String,
    },
    /// Take back the last change surgical made to the file.
    UndoEdit,
}

impl EditorCommand {
    /// The command's name, as the model writes it.
    pub fn name(&self) -> &'static str {
        match self {
            EditorCommand::View { .. } => "view",
            EditorCommand::Create { .. } => "create",
            EditorCommand::StrReplace { .. } => "str_replace",
            EditorCommand::Insert { .. } => "insert",
            EditorCommand::UndoEdit => "undo_edit",
        }
    }
}

const COMMAND_KEYS: [&str; 1] = ["command"];
const VIEW_RANGE_KEYS: [&str; 2] = ["view_range", "viewRange"];
const MAX_CHARACTERS_KEYS: [&str; 2] = ["max_characters", "maxCharacters"];
const FILE_TEXT_KEYS: [&str; 3] = ["file_text", "fileText", "content"];
const OLD_STR_KEYS: [&str; 3] = ["old_str", "oldStr", "old_string"];
const NEW_STR_KEYS: [&str; 3] = ["new_str", "newStr", "new_string"];
const INSERT_LINE_KEYS: [&str; 2] = ["insert_line", "insertLine"];
const INSERT_TEXT_KEYS: [&str; 2] = ["insert_text", "insertText"];

/// Parses a `text_editor` call: `{"command", "path", ...}` with the parameters of the command (see
/// the module's documentation for the names accepted).
pub fn parse_text_editor_request(value: &Value) -> Result<TextEditorRequest, ToolError> {
    let obj = args::object(value, "text_editor")?;
    let command = match args::string(obj, &COMMAND_KEYS, "command")? {
        Some(c) => c,
        None => return Err(ToolError::invalid_input(wording::command_missing())),
    };
    let command = command.trim();
    if !COMMANDS.contains(&command) {
        return Err(ToolError::invalid_input(wording::unknown_command(command)));
    }
    let path = args::path(obj, "the file or directory")?;
    let command = match command {
        "view" => EditorCommand::View {
            range: view_range(obj)?,
            max_characters: match integer(obj, &MAX_CHARACTERS_KEYS, "max_characters")? {
                None => None,
                Some(n) if n >= 1 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
                Some(n) => return Err(ToolError::invalid_input(wording::max_characters_invalid(n))),
            },
        },
        "create" => EditorCommand::Create {
            file_text: required(obj, &FILE_TEXT_KEYS, "file_text", "create")?,
        },
        "str_replace" => EditorCommand::StrReplace {
            old_str: required(obj, &OLD_STR_KEYS, "old_str", "str_replace")?,
            new_str: args::string(obj, &NEW_STR_KEYS, "new_str")?.unwrap_or_default(),
        },
        "insert" => {
            let insert_line = integer(obj, &INSERT_LINE_KEYS, "insert_line")?
                .ok_or_else(|| ToolError::invalid_input(wording::parameter_missing("insert_line", "insert")))?;
            let text = match (
                args::string(obj, &INSERT_TEXT_KEYS, "insert_text")?,
                args::string(obj, &NEW_STR_KEYS, "new_str")?,
            ) {
                (Some(a), Some(b)) if a != b => return Err(ToolError::invalid_input(wording::insert_text_twice())),
                (Some(text), _) | (None, Some(text)) => text,
                (None, None) => return Err(ToolError::invalid_input(wording::insert_text_missing())),
            };
            EditorCommand::Insert { insert_line, text }
        }
        _ => EditorCommand::UndoEdit,
    };
    Ok(TextEditorRequest { path, command })
}

/// A required string parameter of `command`.
fn required(obj: &Map<String, Value>, keys: &[&'static str], name: &str, command: &str) -> Result<String, ToolError> {
    args::string(obj, keys, name)?.ok_or_else(|| ToolError::invalid_input(wording::parameter_missing(name, command)))
}

/// An optional whole number, negative ones included (the messages about a line out of range name
/// the number given); quoted numbers and whole floats are accepted.
fn integer(obj: &Map<String, Value>, keys: &[&'static str], name: &str) -> Result<Option<i64>, ToolError> {
    let Some((key, value)) = keys.iter().find_map(|k| obj.get(*k).map(|v| (*k, v))) else {
        return Ok(None);
    };
    match value {
        Value::Null => Ok(None),
        other => whole(other)
            .map(Some)
            .ok_or_else(|| ToolError::invalid_input(wording::not_an_integer(name, key, &describe(other)))),
    }
}

/// A JSON value as a whole number, if it is one (or a string holding one).
fn whole(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    }
}

/// What a value is, for a message: the value itself when it is short, else its kind.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        text
    } else {
        kind(value).to_string()
    }
}

/// `view_range`: two whole numbers, as an array (of numbers or quoted numbers) or as a string
/// holding one (`"[10, 20]"`, `"10 20"`, `"10,20"`), as hosts that pass arguments as text send it.
fn view_range(obj: &Map<String, Value>) -> Result<Option<(i64, i64)>, ToolError> {
    let Some(value) = VIEW_RANGE_KEYS.iter().find_map(|k| obj.get(*k)) else {
        return Ok(None);
    };
    let items: Vec<Value> = match value {
        Value::Null => return Ok(None),
        Value::Array(items) => items.clone(),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Array(items)) => items,
            _ => s
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|part| !part.is_empty())
                .map(|part| Value::String(part.to_string()))
                .collect(),
        },
        _ => Vec::new(),
    };
    match items.as_slice() {
        [a, b] => match (whole(a), whole(b)) {
            (Some(a), Some(b)) => Ok(Some((a, b))),
            _ => Err(ToolError::invalid_input(wording::view_range_not_two_integers(
                &describe(value),
            ))),
        },
        _ => Err(ToolError::invalid_input(wording::view_range_not_two_integers(
            &describe(value),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> EditorCommand {
        parse_text_editor_request(&v).unwrap().command
    }

    #[test]
    fn each_version_and_agent_is_understood() {
        assert_eq!(
            parse(json!({"command": "view", "path": "a", "view_range": [3, -1], "max_characters": 100})),
            EditorCommand::View {
                range: Some((3, -1)),
                max_characters: Some(100)
            }
        );
        // 20250728 names insert's text insert_text; 20250124, SWE-agent and OpenHands new_str.
        for key in ["insert_text", "new_str"] {
            assert_eq!(
                parse(json!({"command": "insert", "path": "a", "insert_line": "2", key: "x"})),
                EditorCommand::Insert {
                    insert_line: 2,
                    text: "x".into()
                }
            );
        }
        // OpenHands sends a security_risk; strict-mode hosts send null for what is absent.
        assert_eq!(
            parse(
                json!({"command": "str_replace", "path": "/r/a.py", "old_str": "a", "new_str": null,
                "security_risk": "LOW", "view_range": null})
            ),
            EditorCommand::StrReplace {
                old_str: "a".into(),
                new_str: String::new()
            }
        );
        for range in [json!("[1, 2]"), json!("1 2"), json!("1,2"), json!(["1", 2.0])] {
            assert_eq!(
                parse(json!({"command": "view", "path": "a", "view_range": range})),
                EditorCommand::View {
                    range: Some((1, 2)),
                    max_characters: None
                },
                "{range}"
            );
        }
        assert_eq!(
            parse(json!({"command": "undo_edit", "file_path": "a"})),
            EditorCommand::UndoEdit
        );
    }

    #[test]
    fn wrong_calls_say_what_is_wrong() {
        for (bad, says) in [
            (json!({"path": "a"}), "`command` is required"),
            (json!({"command": "delete", "path": "a"}), "Unrecognized command delete"),
            (json!({"command": "view"}), "path is missing"),
            (
                json!({"command": "create", "path": "a"}),
                "Parameter `file_text` is required for command: create",
            ),
            (
                json!({"command": "str_replace", "path": "a", "new_str": "x"}),
                "Parameter `old_str` is required",
            ),
            (
                json!({"command": "insert", "path": "a", "new_str": "x"}),
                "Parameter `insert_line` is required",
            ),
            (
                json!({"command": "insert", "path": "a", "insert_line": 1}),
                "Parameter `insert_text` is required",
            ),
            (
                json!({"command": "insert", "path": "a", "insert_line": 1.5, "new_str": "x"}),
                "whole number",
            ),
            (
                json!({"command": "insert", "path": "a", "insert_line": 1, "new_str": "x", "insert_text": "y"}),
                "not both",
            ),
            (
                json!({"command": "view", "path": "a", "view_range": [1]}),
                "two integers",
            ),
            (
                json!({"command": "view", "path": "a", "view_range": "all"}),
                "two integers",
            ),
            (
                json!({"command": "view", "path": "a", "max_characters": 0}),
                "max_characters",
            ),
        ] {
            let err = parse_text_editor_request(&bad).unwrap_err();
            assert_eq!(err.code, "invalid_input", "{bad}");
            assert!(err.message.contains(says), "{bad}: {}", err.message);
        }
    }
}
