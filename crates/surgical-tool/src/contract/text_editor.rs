//! The `text_editor` tool's contract: its input (Anthropic's object, both versions), its
//! description, and its result (the command, the text worded as the reference implementation
//! words it, and the result object of the tool that did the work), with the JSON Schemas.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::{EditSuccess, ReadSuccess, WriteSuccess};

/// The commands, in the order tool definitions list them.
pub const COMMANDS: [&str; 5] = ["view", "create", "str_replace", "insert", "undo_edit"];

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

/// A directory listed by `view`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DirectoryListing {
    /// What the model reads: the listing, one path per line, directories ending in `/`.
    pub text: String,
    /// The path as the caller gave it.
    pub path: String,
    /// The entries, relative to the directory, in sorted order, two levels deep; directories end
    /// in `/`. Hidden entries (names starting with a dot) are left out, and so is what is inside a
    /// symbolic link to a directory (links are listed, not followed).
    pub entries: Vec<String>,
    /// How many hidden entries the directory itself holds (left out of `entries`).
    pub hidden: usize,
    /// True when the listing stopped at its limit (1000 entries).
    pub truncated: bool,
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
        crate::contract::schema::tool_spec(name)
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
