//! The tool definitions: each tool's name, description for a model, behaviour hints, and the JSON
//! Schemas of its input and of its successful result, generated from Rust types.
//!
//! This is the one source every front end uses: the MCP server lists these tools, and `surgical
//! tools` prints them for Anthropic's or OpenAI's tool formats. The input types here describe the
//! canonical shape of each call; the parsers ([`crate::parse_edit_request`] and the others) accept
//! it and, more leniently, the aliases models also send. They are `Serialize`, so a Rust caller can
//! build a call from them.

use schemars::generate::{Contract, SchemaSettings};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::contract::eol::LineEnding;
use crate::{EditSuccess, ReadSuccess, WriteSuccess};

/// The arguments of `read`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadInput {
    /// Path of the file: relative to the workspace root, or absolute inside it.
    pub path: String,
    /// First line to show, 1-based. Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// Last line to show, inclusive. Default: as far as `limit` allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
    /// Most lines to show. Default 2000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
}

/// The arguments of `edit`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditInput {
    /// Path of the file to edit: relative to the workspace root, or absolute inside it.
    pub path: String,
    /// The replacements. All are matched against the file as it was before this call and applied
    /// together: either all apply or none does.
    #[schemars(length(min = 1))]
    pub edits: Vec<EditItem>,
    /// Only report what would change; write nothing. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// The loosest matching tier allowed; the tiers are listed strictest first. `exact` tolerates only
    /// different line endings, `trailing_whitespace` also trailing spaces and tabs, `unicode` also
    /// typographic quotes and dashes, special spaces and Unicode compatibility forms. Leave it out
    /// for the default.
    // A name from `surgical_core::Tier::ALL`; the schema's `enum` is filled in from there, so
    // it lists every tier the engine has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_strategy: Option<String>,
    /// The file's SHA-256 as you last saw it (`hash` from read, `hashAfter` from edit or write). The
    /// edit fails with `stale` if the file changed since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_hash: Option<String>,
    /// What to do if the call would introduce syntax errors (found by parsing the file before and
    /// after in its language): `report` (default: write, and list them in `syntaxErrors`),
    /// `refuse` (write nothing; the call fails with `syntax_error`) or `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_syntax_error: Option<crate::OnSyntaxError>,
}

/// One replacement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditItem {
    /// The text to replace, copied from the file without the line numbers read shows, with enough
    /// surrounding lines to occur only once. Not empty.
    #[schemars(length(min = 1))]
    pub old_text: String,
    /// The text to put in its place (empty to delete `oldText`).
    pub new_text: String,
    /// Replace every occurrence of `oldText` instead of requiring exactly one. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replace_all: Option<bool>,
}

/// The arguments of `write`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteInput {
    /// Path of the file: relative to the workspace root, or absolute inside it. Missing parent
    /// directories are created.
    pub path: String,
    /// The complete new text of the file, with `\n` line breaks; each is written with the file's line
    /// ending (see `lineEnding`).
    pub content: String,
    /// Line ending to write: `lf`, `crlf` or `cr`. Default: the existing file's (its most frequent, if
    /// mixed), or `lf` for a new file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_ending: Option<LineEnding>,
    /// Encoding to write. Default: the existing file's (BOM included), or `utf-8` for a new file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<EncodingName>,
    /// The file's SHA-256 as you last saw it (`hash` from read, `hashAfter` from edit or write). The
    /// write fails with `stale` if the file changed since (or no longer exists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_hash: Option<String>,
    /// Only report what would change; write nothing. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// What to do if the call would introduce syntax errors (found by parsing the file before and
    /// after in its language): `report` (default: write, and list them in `syntaxErrors`),
    /// `refuse` (write nothing; the call fails with `syntax_error`) or `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_syntax_error: Option<crate::OnSyntaxError>,
}

/// The arguments of `apply_patch`, for its JSON Schema (the parser, [`crate::parse_patch_request`], also
/// accepts `input`/`diff` for `patch`, the path aliases of `edit`, and `maxStrategy`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchInput {
    /// The patch: an apply_patch patch (`*** Begin Patch` ... `*** End Patch`), SEARCH/REPLACE blocks
    /// (the file's path alone on the line before each `<<<<<<< SEARCH`), or a unified diff (`--- a/path`,
    /// `+++ b/path`, `@@` hunks). It may change several files: all change, or none does.
    pub patch: String,
    /// The patch's format. Default: detected from the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<PatchFormatName>,
    /// The file for SEARCH/REPLACE blocks or diff hunks that name no file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Only report what would change; write nothing. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
}

/// The formats' names.
// No doc comments on the variants: with them, the schema becomes a `oneOf` of constants.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PatchFormatName {
    ApplyPatch,
    SearchReplace,
    UnifiedDiff,
    Auto,
}

/// The arguments of `apply_snippet`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SnippetInput {
    /// Path of the file to change: relative to the workspace root, or absolute inside it.
    pub path: String,
    /// The changed code, in file order, with each unchanged stretch left out behind one marker line
    /// such as `// ... existing code ...` (`# ...`, `<!-- ... -->`, `{/* ... */}` or a bare `...`,
    /// as the language comments). Begin and end each changed part with one to three lines copied
    /// unchanged from the file.
    #[schemars(length(min = 1))]
    pub snippet: String,
    /// One sentence on what the snippet changes (recorded in the result; not needed to place it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Only report what would change; write nothing. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// The file's SHA-256 as you last saw it (`hash` from read, `hashAfter` from edit or write). The
    /// call fails with `stale` if the file changed since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_hash: Option<String>,
    /// What to do if the call would introduce syntax errors (found by parsing the file before and
    /// after in its language): `report` (default: write, and list them in `syntaxErrors`),
    /// `refuse` (write nothing; the call fails with `syntax_error`) or `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_syntax_error: Option<crate::OnSyntaxError>,
}

/// The arguments of `undo`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoInput {
    /// Path of the file whose last change through surgical to undo: relative to the workspace root,
    /// or absolute inside it.
    pub path: String,
}

/// The encodings `write` writes.
// No doc comments on the variants: with them, the schema becomes a `oneOf` of constants instead of
// a plain `enum` of names that every model and client understands.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum EncodingName {
    #[serde(rename = "utf-8")]
    Utf8,
    #[serde(rename = "utf-8-bom")]
    Utf8Bom,
    #[serde(rename = "utf-16le")]
    Utf16Le,
    #[serde(rename = "utf-16be")]
    Utf16Be,
}

/// One tool: what a model is told about it and what clients are told about its behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolSpec {
    /// The tool's name, as called (`read`, `edit`, `write`, `apply_patch`, `undo`).
    pub name: &'static str,
    /// A short human-readable name.
    pub title: &'static str,
    /// What the tool does, for a model.
    pub description: &'static str,
    /// The tool changes nothing.
    pub read_only: bool,
    /// The tool may change or delete what is there (not only add).
    pub destructive: bool,
    /// Calling it again with the same arguments has no further effect.
    pub idempotent: bool,
}

impl ToolSpec {
    /// The JSON Schema of the tool's arguments (draft 2020-12, every subschema inlined, optional
    /// fields simply not required rather than nullable).
    pub fn input_schema(&self) -> Value {
        match self.name {
            "read" => input_schema::<ReadInput>(),
            "edit" => {
                let mut schema = input_schema::<EditInput>();
                let tiers: Vec<Value> = surgical_core::Tier::ALL.iter().map(|s| json!(s.name())).collect();
                schema["properties"]["maxStrategy"]["enum"] = Value::Array(tiers);
                schema
            }
            "write" => input_schema::<WriteInput>(),
            "apply_patch" => input_schema::<PatchInput>(),
            "apply_snippet" => input_schema::<SnippetInput>(),
            "undo" => input_schema::<UndoInput>(),
            "text_editor" => input_schema::<crate::contract::text_editor::TextEditorInput>(),
            other => unreachable!("no input type for tool {other}"),
        }
    }

    /// The JSON Schema of the tool's successful result object (the `to_json` of
    /// [`crate::ToolResult`], `"ok": true` included). Errors have the shape `{"ok": false, "text",
    /// "error": {"code", "message", ...}}`.
    pub fn output_schema(&self) -> Value {
        match self.name {
            "read" => output_schema::<ReadSuccess>(),
            "edit" => output_schema::<EditSuccess>(),
            "write" => output_schema::<WriteSuccess>(),
            "apply_patch" => output_schema::<crate::PatchSuccess>(),
            "apply_snippet" => output_schema::<crate::SnippetSuccess>(),
            // An undo reports like an edit: the diff of what it put back.
            "undo" => output_schema::<EditSuccess>(),
            // The result of the tool that did the work, with `command`.
            "text_editor" => crate::contract::text_editor::output_schema(),
            other => unreachable!("no result type for tool {other}"),
        }
    }
}

/// Every tool, in the order they are listed (the order of [`crate::TOOLS`]).
pub const TOOL_SPECS: [ToolSpec; 7] = [
    ToolSpec {
        name: "read",
        title: "Read file",
        description: READ_DESCRIPTION,
        read_only: true,
        destructive: false,
        idempotent: true,
    },
    ToolSpec {
        name: "edit",
        title: "Edit file",
        description: EDIT_DESCRIPTION,
        read_only: false,
        destructive: true,
        // Applying the same replacement twice can change the file twice (newText may contain oldText).
        idempotent: false,
    },
    ToolSpec {
        name: "write",
        title: "Write file",
        description: WRITE_DESCRIPTION,
        read_only: false,
        destructive: true,
        idempotent: true,
    },
    ToolSpec {
        name: "apply_patch",
        title: "Apply patch",
        description: APPLY_PATCH_DESCRIPTION,
        read_only: false,
        destructive: true,
        // Applying the same patch twice fails the second time (or changes the files twice).
        idempotent: false,
    },
    ToolSpec {
        name: "apply_snippet",
        title: "Apply snippet",
        description: SNIPPET_DESCRIPTION,
        read_only: false,
        destructive: true,
        // A snippet that inserts lines inserts them again.
        idempotent: false,
    },
    ToolSpec {
        name: "undo",
        title: "Undo last change",
        description: UNDO_DESCRIPTION,
        read_only: false,
        destructive: true,
        // Each call goes one change further back.
        idempotent: false,
    },
    ToolSpec {
        name: "text_editor",
        title: "Text editor",
        description: crate::contract::text_editor::TEXT_EDITOR_DESCRIPTION,
        // `view` changes nothing; the other commands do.
        read_only: false,
        destructive: true,
        // `insert` inserts again; `create` fails the second time.
        idempotent: false,
    },
];

/// The spec of tool `name`.
pub fn tool_spec(name: &str) -> Option<&'static ToolSpec> {
    TOOL_SPECS.iter().find(|s| s.name == name)
}

const READ_DESCRIPTION: &str = "\
Read a text file, or a range of its lines, with line numbers.

Each line is shown as <line number><TAB><text>. The numbers are not part of the file: leave them out of \
oldText. Lines are counted at every line terminator (LF, CRLF or a lone CR), the same numbers edit reports. \
Carriage returns are never shown; bytes that are not valid UTF-8 show as U+FFFD. The first line of the \
result gives the file's encoding, line endings and SHA-256 hash (pass it as expectedHash to edit or write to \
make sure the file has not changed since).

Files are shown up to 2000 lines at a time; when more follow, the result ends with the startLine to \
continue at. Lines longer than 2000 characters are cut where marked. Binary files are refused.";

const EDIT_DESCRIPTION: &str = "\
Edit a text file by replacing text: each edit gives oldText, copied from the file with enough surrounding \
lines to occur only once, and newText. All edits in one call are matched against the file as it was before \
the call, and either all apply or none does.

Matching is exact first. If that finds nothing, differences that are invisible or easy to get wrong are \
tolerated, tier by tier (see maxStrategy): line endings, trailing whitespace, typographic quotes and dashes, \
no-break and other special spaces, Unicode compatibility forms, and where allowed a shifted indentation, \
runs of whitespace, over-escaped text, and one mistyped word, one extra line or one left-out line when a \
single region clearly matches (the file's version of those lines is kept). Lines left out of a long oldText with a \
marker line (`// ... existing code ...`, `...`) are kept when newText has the same marker at the same place, provided \
the lines on each side of it are found, once and in order. The file's own characters are kept wherever oldText and newText \
agree, and every byte outside the replaced text is written back unchanged. Several matches are an error, never a \
guess: add context to oldText, or set replaceAll.

The result says where each edit landed and what was tolerated, with a numbered diff. On any error the file \
is untouched and the message says what to fix. To create a file or replace all of it, use write.";

const WRITE_DESCRIPTION: &str = "\
Create a file, or replace the whole content of one. content is the complete new text, with \\n line breaks.

A new file is written as UTF-8 with LF line endings unless encoding or lineEnding say otherwise; missing \
parent directories are created. An existing file keeps its encoding (BOM, UTF-16) and its line-ending style \
unless you set them, and the result shows a diff of what changed. Pass expectedHash (from read) to refuse \
the write if the file changed since you read it.

To change part of a file, use edit instead: it touches only the text it targets.";

const APPLY_PATCH_DESCRIPTION: &str = "\
Apply a patch to one or more files, in the format you know best: an apply_patch patch (*** Begin Patch / \
*** Update File: path / @@ / *** End Patch), SEARCH/REPLACE blocks (the file path on the line before \
<<<<<<< SEARCH ... ======= ... >>>>>>> REPLACE), or a unified diff (git diff or diff -u). The format is \
detected.

Each hunk is located by its unchanged and removed lines, which must match exactly one place (exactly, or \
through line endings, trailing whitespace, typographic quotes and dashes, special spaces or indentation you \
could not see or got wrong); an @@ line naming the enclosing function or class narrows the search. Several \
matches are an error, never a guess. Lines you did not change keep the file's own bytes; new lines take the \
file's line endings.

The whole patch applies or nothing does: if any hunk of any file fails, no file is changed, and the error \
names the file and hunk and shows the closest region. The result says where every hunk landed, with a \
numbered diff per file.";

const SNIPPET_DESCRIPTION: &str = "\
Change a file by sending only the changed code: write the new version of each changed part, leave out \
unchanged code behind one marker line such as `// ... existing code ...` (`# ... existing code ...`, \
`<!-- ... -->`, `{/* ... */}`, or a bare `...`), and begin and end each part with one to three lines \
copied unchanged from the file (an enclosing function or class header also narrows where what follows \
goes). Parts must be in file order.

A marker keeps the file's lines it stands for exactly. Between two lines you show, file lines you leave out \
are deleted; new lines are inserted with the file's line endings. Without a marker at the start or end, the \
rest of the file is kept (the result says so). The merge never guesses: if the snippet fits in more than one \
place, or a new part could either replace or join its neighbour, it is refused as ambiguous, listing the \
places; if a part fits nowhere, the error shows the closest lines. Every byte outside the changed lines is \
written back unchanged. The result says where each segment landed and how many lines it deleted, with a \
numbered diff. For a change inside one spot, edit is more precise.";

const UNDO_DESCRIPTION: &str = "\
Undo the last change surgical made to a file (through edit, write or apply_patch), putting back what it \
held before, byte for byte: a changed file gets its old content, a created one is removed, a deleted or \
moved one comes back. A patch is undone whole, every file it touched. Refused if any of those files changed \
since (undoing would throw the newer change away; nothing is touched) or if there is nothing to undo. Each \
call goes one change further back. The result shows a diff of what was put back.";

fn settings(contract: Contract) -> SchemaSettings {
    let mut settings = SchemaSettings::draft2020_12();
    // Some clients and model APIs do not resolve `$ref`: every subschema is written out in place.
    settings.inline_subschemas = true;
    settings.contract = contract;
    settings
}

fn root_schema<T: JsonSchema>(contract: Contract) -> Value {
    let schema = settings(contract).into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).expect("schemas serialize");
    let obj = value.as_object_mut().expect("a struct's schema is an object");
    // The Rust type's name and doc comment are noise to a model; the tool has its own.
    for key in ["$schema", "title", "description"] {
        obj.remove(key);
    }
    tidy(&mut value);
    value
}

fn input_schema<T: JsonSchema>() -> Value {
    let mut value = root_schema::<T>(Contract::Deserialize);
    not_nullable(&mut value);
    value
}

fn output_schema<T: JsonSchema>() -> Value {
    let mut value = root_schema::<T>(Contract::Serialize);
    let obj = value.as_object_mut().expect("object");
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        props.insert(
            "ok".into(),
            json!({"type": "boolean", "const": true, "description": "True: the call succeeded."}),
        );
    }
    match obj.get_mut("required") {
        Some(Value::Array(required)) => required.insert(0, json!("ok")),
        _ => {
            obj.insert("required".into(), json!(["ok"]));
        }
    }
    value
}

/// Drops `format` annotations (`uint`, `uint64`: Rust's integer types, meaningless to a model; the
/// `minimum` says what matters) and joins the lines of descriptions (doc comments wrap at 100
/// columns; a model should read sentences), everywhere.
fn tidy(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::String(d)) = obj.get_mut("description") {
                *d = d
                    .split("\n\n")
                    .map(|p| p.replace('\n', " "))
                    .collect::<Vec<_>>()
                    .join("\n\n");
            }
            if obj.get("format").is_some_and(|f| {
                f.as_str()
                    .is_some_and(|f| f.starts_with("uint") || f.starts_with("int"))
            }) {
                obj.remove("format");
            }
            obj.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// An optional argument is one left out, not one sent as null: `"type": ["string", "null"]` becomes
/// `"type": "string"`, `anyOf: [X, {"type": "null"}]` becomes X, and null leaves `enum`s, everywhere.
fn not_nullable(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::Array(types)) = obj.get("type") {
                let kept: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
                let kept = if kept.len() == 1 {
                    kept[0].clone()
                } else {
                    Value::Array(kept)
                };
                obj.insert("type".into(), kept);
            }
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(options)) = obj.get(key) {
                    let kept: Vec<&Value> = options
                        .iter()
                        .filter(|o| o.get("type") != Some(&json!("null")))
                        .collect();
                    if kept.len() == 1 && options.len() == 2 {
                        let Value::Object(inner) = kept[0].clone() else {
                            continue;
                        };
                        obj.remove(key);
                        merge(obj, inner);
                    }
                }
            }
            if let Some(Value::Array(names)) = obj.get_mut("enum") {
                names.retain(|n| !n.is_null());
            }
            if obj.get("default") == Some(&Value::Null) {
                obj.remove("default");
            }
            obj.values_mut().for_each(not_nullable);
        }
        Value::Array(items) => items.iter_mut().for_each(not_nullable),
        _ => {}
    }
}

/// Adds `inner`'s keys to `obj`, keeping `obj`'s where both have one (its description is the
/// field's).
fn merge(obj: &mut Map<String, Value>, inner: Map<String, Value>) {
    for (k, v) in inner {
        obj.entry(k).or_insert(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(schema: &Value) -> Vec<String> {
        schema["properties"].as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn every_tool_has_a_spec() {
        let names: Vec<&str> = TOOL_SPECS.iter().map(|s| s.name).collect();
        assert_eq!(names, crate::TOOLS);
    }

    #[test]
    fn input_schemas_are_plain() {
        let read = tool_spec("read").unwrap().input_schema();
        assert_eq!(read["type"], "object");
        assert_eq!(read["required"], json!(["path"]));
        assert_eq!(props(&read), ["endLine", "limit", "path", "startLine"]);
        assert_eq!(read["properties"]["startLine"]["type"], "integer");
        assert_eq!(read["properties"]["startLine"]["minimum"], 1);

        let edit = tool_spec("edit").unwrap().input_schema();
        assert_eq!(edit["required"], json!(["path", "edits"]));
        let item = &edit["properties"]["edits"]["items"];
        assert_eq!(item["required"], json!(["oldText", "newText"]));
        assert_eq!(item["properties"]["replaceAll"]["type"], "boolean");
        let tiers = edit["properties"]["maxStrategy"]["enum"].as_array().unwrap();
        assert_eq!(tiers.len(), surgical_core::Tier::ALL.len());
        assert_eq!(
            tiers[..3],
            [json!("exact"), json!("trailing_whitespace"), json!("unicode")]
        );

        let write = tool_spec("write").unwrap().input_schema();
        assert_eq!(write["required"], json!(["path", "content"]));
        assert_eq!(write["properties"]["lineEnding"]["enum"], json!(["lf", "crlf", "cr"]));
        assert_eq!(
            write["properties"]["encoding"]["enum"],
            json!(["utf-8", "utf-8-bom", "utf-16le", "utf-16be"])
        );
        let undo = tool_spec("undo").unwrap().input_schema();
        assert_eq!(undo["required"], json!(["path"]));
        for schema in [&read, &edit, &write, &undo] {
            let text = schema.to_string();
            for absent in ["$ref", "$defs", "null", "format", "$schema"] {
                assert!(!text.contains(absent), "{absent} in {text}");
            }
            for (name, prop) in schema["properties"].as_object().unwrap() {
                let d = prop["description"].as_str().unwrap_or_default();
                assert!(d.len() > 10 && !d.contains('\n'), "{name}: {d:?}");
            }
        }
    }

    #[test]
    fn output_schemas_require_ok_and_the_contract_fields() {
        let edit = tool_spec("edit").unwrap().output_schema();
        let required: Vec<&str> = edit["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        for key in [
            "ok",
            "text",
            "path",
            "diff",
            "patch",
            "edits",
            "hashBefore",
            "hashAfter",
            "dryRun",
        ] {
            assert!(required.contains(&key), "{key}: {edit}");
        }
        let write = tool_spec("write").unwrap().output_schema();
        assert_eq!(write["properties"]["hashBefore"]["type"], json!(["string", "null"]));
        let read = tool_spec("read").unwrap().output_schema();
        assert!(!read["required"].as_array().unwrap().contains(&json!("nextLine")));
    }

    #[test]
    fn input_types_serialize_to_calls_the_parsers_accept() {
        let read = serde_json::to_value(ReadInput {
            path: "a".into(),
            start_line: Some(3),
            end_line: Some(4),
            limit: Some(2),
        })
        .unwrap();
        let r = crate::parse_read_request(&read).unwrap();
        assert_eq!((r.start_line, r.end_line, r.limit), (3, Some(4), Some(2)));

        let edit = serde_json::to_value(EditInput {
            path: "a".into(),
            edits: vec![EditItem {
                old_text: "x".into(),
                new_text: "y".into(),
                replace_all: Some(true),
            }],
            dry_run: Some(true),
            max_strategy: Some("trailing_whitespace".into()),
            expected_hash: Some("ab".repeat(32)),
            on_syntax_error: Some(crate::OnSyntaxError::Refuse),
        })
        .unwrap();
        assert_eq!(edit["onSyntaxError"], "refuse");
        let r = crate::parse_edit_request(&edit).unwrap();
        assert!(r.dry_run && r.edits[0].replace_all && r.expected_hash == Some("ab".repeat(32)));
        assert_eq!(r.max_tier, Some(surgical_core::Tier::TrailingWhitespace));

        let write = serde_json::to_value(WriteInput {
            path: "a".into(),
            content: "c".into(),
            line_ending: Some(LineEnding::Crlf),
            encoding: Some(EncodingName::Utf16Be),
            expected_hash: Some("ab".repeat(32)),
            dry_run: Some(true),
            on_syntax_error: None,
        })
        .unwrap();
        let r = crate::parse_write_request(&write).unwrap();
        assert_eq!(r.line_ending, Some(LineEnding::Crlf));
        assert_eq!(r.encoding, Some(surgical_fs::Encoding::Utf16Be));
        assert!(r.dry_run && r.expected_hash == Some("ab".repeat(32)));
    }
}
