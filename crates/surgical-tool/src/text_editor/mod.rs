//! The `text_editor` tool: Anthropic's client-side text-editor tool — the one Claude models are
//! trained on (`text_editor_20250728`, named `str_replace_based_edit_tool`; `text_editor_20250124`,
//! named `str_replace_editor`, which adds `undo_edit`) — with the input object as Claude sends it
//! (`{"command", "path", ...}`) and results worded as Claude reads them, run through surgical.
//!
//! The commands, and what surgical keeps of its promises in each:
//! * `view`: a file numbered like `cat -n` (surgical's lines: no empty line after a final line
//!   break, carriage returns never shown, tabs kept), or a directory two levels deep. Paged and
//!   cut as `read` is; `max_characters` limits it further.
//! * `create`: a new file holding `file_text` byte for byte; never replaces anything.
//! * `str_replace`: the `edit` tool's one replacement — the same tiers (a model is told when a
//!   tolerant match placed it), byte-faithful transport, encodings and journal.
//! * `insert`: whole lines after `insert_line`, with the line endings, BOM and encoding of the
//!   file, which keeps its final line break (or its lack of one).
//! * `undo_edit`: the last change surgical made to the file taken back, from the undo journal.
//!
//! SWE-agent's and OpenHands' `str_replace_editor` calls are the same object and are accepted as
//! they are (see [`parse_text_editor_request`]). Every path leads inside the root, as for every
//! tool. Failures are the tool's error objects (`not_found`, `ambiguous`, `invalid_input`,
//! `file_not_found`, `not_a_file`, `no_undo`, ...), their messages opening with the reference
//! implementation's sentence.

mod change;
mod request;
mod view;
mod wording;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub use request::{parse_text_editor_request, EditorCommand, TextEditorRequest, COMMANDS};
pub use view::DirectoryListing;

use crate::{Config, EditSuccess, ErrorCode, ReadSuccess, ToolError, ToolResult, WriteSuccess};

/// A successful `text_editor` call: the command, what the model reads, and the result object of
/// the tool that did the work.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextEditorSuccess {
    /// `view`, `create`, `str_replace`, `insert` or `undo_edit`.
    pub command: &'static str,
    /// What the model reads, worded as Anthropic's reference implementation words it.
    pub text: String,
    /// What was done, as the underlying tool reports it (its own `text` is replaced by the one
    /// above in the JSON).
    pub outcome: EditorOutcome,
}

/// What a `text_editor` command did, as the tool that did it reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditorOutcome {
    /// `view` of a file: `read`'s result (hash, encoding, line endings, lines shown).
    File(Box<ReadSuccess>),
    /// `view` of a directory.
    Directory(Box<DirectoryListing>),
    /// `str_replace`, `insert` and `undo_edit`: `edit`'s result (diff, patch, hashes, where the
    /// change landed) — for `undo_edit`, `undo`'s.
    Edit(Box<EditSuccess>),
    /// `create`: `write`'s result.
    Created(Box<WriteSuccess>),
}

impl TextEditorSuccess {
    /// The JSON object of the machine interface: the underlying result's fields, with `text`
    /// replaced by this tool's and `command` added (`"ok": true` included).
    pub fn to_json(&self) -> Value {
        let mut value = match &self.outcome {
            EditorOutcome::File(s) => serde_json::to_value(s),
            EditorOutcome::Directory(s) => serde_json::to_value(s),
            EditorOutcome::Edit(s) => serde_json::to_value(s),
            EditorOutcome::Created(s) => serde_json::to_value(s),
        }
        .expect("serializable");
        let obj = value.as_object_mut().expect("object");
        obj.insert("ok".into(), Value::Bool(true));
        obj.insert("command".into(), Value::String(self.command.to_string()));
        obj.insert("text".into(), Value::String(self.text.clone()));
        value
    }
}

/// Runs a parsed `text_editor` call. On any error, nothing was changed.
pub fn run_text_editor_with(req: &TextEditorRequest, config: &Config) -> ToolResult {
    let shown = req.path.as_str();
    let command = req.command.name();
    let outcome = match &req.command {
        EditorCommand::View { range, max_characters } => {
            view::view(shown, *range, *max_characters, config).map(|viewed| match viewed {
                view::Viewed::File(s) => EditorOutcome::File(s),
                view::Viewed::Directory(s) => EditorOutcome::Directory(s),
            })
        }
        EditorCommand::Create { file_text } => {
            change::create(shown, file_text, config).map(|s| EditorOutcome::Created(Box::new(s)))
        }
        EditorCommand::StrReplace { old_str, new_str } => {
            change::str_replace(shown, old_str, new_str, config).map(|s| EditorOutcome::Edit(Box::new(s.bounded())))
        }
        EditorCommand::Insert { insert_line, text } => {
            change::insert(shown, *insert_line, text, config).map(|s| EditorOutcome::Edit(Box::new(s.bounded())))
        }
        EditorCommand::UndoEdit => change::undo_edit(shown, config).map(|s| EditorOutcome::Edit(Box::new(s.bounded()))),
    };
    match outcome {
        Ok(outcome) => {
            let text = match &outcome {
                EditorOutcome::File(s) => s.text.clone(),
                EditorOutcome::Directory(s) => s.text.clone(),
                EditorOutcome::Edit(s) => s.text.clone(),
                EditorOutcome::Created(s) => s.text.clone(),
            };
            ToolResult::TextEditor(Box::new(TextEditorSuccess { command, text, outcome }))
        }
        Err(e) => ToolResult::Error(e),
    }
}

/// A path that does not exist, in the reference implementation's words.
fn path_missing(shown: &str, command: &str) -> ToolError {
    ToolError {
        path: Some(shown.to_string()),
        ..ToolError::new(ErrorCode::FileNotFound, wording::path_missing(shown, command))
    }
}

/// The commands, for the input schema.
// No doc comments on the variants: with them, the schema becomes a `oneOf` of constants instead of
// a plain `enum` of names.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommandName {
    View,
    Create,
    StrReplace,
    Insert,
    UndoEdit,
}

/// The arguments of `text_editor`: Anthropic's input object (both versions), with the names
/// SWE-agent and OpenHands use too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TextEditorInput {
    /// The command: `view`, `create`, `str_replace`, `insert` or `undo_edit`.
    pub command: CommandName,
    /// The file or directory: relative to the workspace root, or absolute inside it.
    pub path: String,
    /// `view` of a file: the first and last line to show, 1-based (`[11, 12]` shows lines 11 and
    /// 12; `[start, -1]` shows from `start` to the end). Default: the whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 2, max = 2))]
    pub view_range: Option<Vec<i64>>,
    /// `view` of a file: show at most this many characters of it. Default: the whole file (up to
    /// 2000 lines or 256 KiB at a time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_characters: Option<u64>,
    /// `create`: the content of the new file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_text: Option<String>,
    /// `str_replace`: the text to replace, copied from the file with enough lines around it to
    /// occur only once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_str: Option<String>,
    /// `str_replace`: the text that replaces old_str (empty or absent deletes it). `insert`, in the
    /// text_editor_20250124 version: the text to insert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_str: Option<String>,
    /// `insert`: the line after which the text goes (0 puts it before the first line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insert_line: Option<i64>,
    /// `insert`: the text to insert, as whole lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insert_text: Option<String>,
}

/// The tool's description for a model.
pub const TEXT_EDITOR_DESCRIPTION: &str = "\
View, create and edit files with the commands of Anthropic's text-editor tool.

* `view`: a file with line numbers, as `cat -n` shows it (view_range [start, end] for some lines, -1 as end \
for the rest of the file), or a directory's files and subdirectories up to 2 levels deep, hidden ones left out.
* `create`: a new file holding file_text. It cannot overwrite a file that exists.
* `str_replace`: replace old_str with new_str. old_str must match one place in the file: copy it from the file, \
with enough lines around it to be unique. Differences you cannot see (line endings, trailing whitespace, \
typographic quotes and dashes, special spaces, shifted indentation) are tolerated, and the result says so; \
every byte outside the replaced text is written back unchanged.
* `insert`: insert insert_text (new_str in the earlier version) as whole lines after line insert_line (0 for \
the start of the file), with the file's line endings.
* `undo_edit`: undo the last change made to the file.

Paths are relative to the workspace root, or absolute inside it. On any error nothing is changed, and the \
message says what to do.";

/// The JSON Schema of the tool's successful result: `ok`, `text`, `command` and `path`, and the
/// rest of the result object of the tool that did the work (`read` for a file, `edit` for
/// `str_replace`, `insert` and `undo_edit`, `write` for `create`, or a directory listing): `anyOf`
/// those four shapes, each with the commands it answers.
pub(crate) fn output_schema() -> Value {
    let with_command = |mut schema: Value, commands: &[&str]| {
        schema["properties"]["command"] = json!({"type": "string", "enum": commands});
        if let Some(Value::Array(required)) = schema.get_mut("required") {
            required.push(json!("command"));
        }
        schema
    };
    let spec = |name: &str| {
        crate::schema::tool_spec(name)
            .expect("a tool of this crate")
            .output_schema()
    };
    let directory = json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "const": true},
            "text": {"type": "string"},
            "path": {"type": "string"},
            "entries": {"type": "array", "items": {"type": "string"}, "description": "The entries, relative to the directory, sorted, two levels deep; directories end in `/`; hidden ones left out."},
            "hidden": {"type": "integer", "minimum": 0, "description": "How many hidden entries the directory itself holds."},
            "truncated": {"type": "boolean", "description": "True when the listing stopped at its limit (1000 entries)."},
        },
        "required": ["ok", "text", "path", "entries", "hidden", "truncated"],
    });
    json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "const": true, "description": "True: the call succeeded."},
            "text": {"type": "string", "description": "What the model reads, worded as Anthropic's reference implementation words it."},
            "command": {"type": "string", "enum": COMMANDS, "description": "The command that ran."},
            "path": {"type": "string", "description": "The path as the caller gave it."},
        },
        "required": ["ok", "text", "command", "path"],
        "anyOf": [
            with_command(spec("read"), &["view"]),
            with_command(directory, &["view"]),
            with_command(spec("edit"), &["str_replace", "insert", "undo_edit"]),
            with_command(spec("write"), &["create"]),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_type_serializes_to_a_call_the_parser_accepts() {
        let input = TextEditorInput {
            command: CommandName::View,
            path: "a".into(),
            view_range: Some(vec![2, -1]),
            max_characters: Some(10),
            file_text: None,
            old_str: None,
            new_str: None,
            insert_line: None,
            insert_text: None,
        };
        let req = parse_text_editor_request(&serde_json::to_value(input).unwrap()).unwrap();
        assert_eq!(
            req.command,
            EditorCommand::View {
                range: Some((2, -1)),
                max_characters: Some(10)
            }
        );
    }
}
