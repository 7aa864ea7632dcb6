//! The tool definitions in the shapes clients want: MCP `Tool` objects (what `tools/list` returns),
//! Anthropic's Messages API `tools`, and OpenAI's Chat Completions `tools`.
//!
//! All of them are built from `surgical_tool::schema`: the names, descriptions, hints and JSON
//! Schemas are written once, there.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};
use surgical_tool::schema::{ToolSpec, TOOL_SPECS};

/// A tool-definition format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// MCP `Tool` objects: `name`, `title`, `description`, `inputSchema`, `outputSchema`,
    /// `annotations`.
    Mcp,
    /// Anthropic's Messages API: `name`, `description`, `input_schema`.
    Anthropic,
    /// OpenAI's Chat Completions API: `{"type": "function", "function": {"name", "description",
    /// "parameters"}}`.
    OpenAi,
}

impl Format {
    /// The names `--format` takes.
    pub const NAMES: [&'static str; 3] = ["mcp", "anthropic", "openai"];

    /// The format named `name` (one of [`Format::NAMES`]).
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "mcp" => Some(Format::Mcp),
            "anthropic" => Some(Format::Anthropic),
            "openai" => Some(Format::OpenAi),
            _ => None,
        }
    }
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(obj) => Arc::new(obj),
        other => unreachable!("schemas are objects, not {other}"),
    }
}

/// The MCP definition of one tool.
pub fn mcp_tool(spec: &ToolSpec) -> Tool {
    let mut tool = Tool::new(spec.name, spec.description, object(spec.input_schema()));
    tool.title = Some(spec.title.to_string());
    tool.output_schema = Some(object(output_schema(spec)));
    tool.annotations = Some(
        ToolAnnotations::with_title(spec.title)
            .read_only(spec.read_only)
            .destructive(spec.destructive)
            .idempotent(spec.idempotent)
            // Local files only: nothing outside the workspace root is reached.
            .open_world(false),
    );
    tool
}

/// The JSON Schema of a tool's `structuredContent`: its result object, success or failure.
///
/// The MCP specification (2025-06-18, "Output Schema"): "If an output schema is provided: Servers
/// MUST provide structured results that conform to this schema. Clients SHOULD validate structured
/// results against this schema." Failed calls return their result object (`{"ok": false, "text",
/// "error": {...}}`) as `structuredContent` too, so the schema describes both shapes: an object
/// (clients require `"type": "object"` at the top) that is `oneOf` the success object (`"ok":
/// true`, from `surgical_tool::schema`) and the error object (`"ok": false`).
pub fn output_schema(spec: &ToolSpec) -> Value {
    let success = spec.output_schema();
    json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "description": "True when the call succeeded; false when it failed (then see `error`)."},
            "text": {"type": "string", "description": "What the model reads: the result, or `Error (<code>): <what to do>`."},
        },
        "required": ["ok", "text"],
        "oneOf": [success, error_schema()],
    })
}

/// The result object of a failed call (`surgical_tool::ToolError` under `error`).
pub fn error_schema() -> Value {
    let index = |description: &str| json!({"type": "integer", "minimum": 0, "description": description});
    json!({
        "type": "object",
        "properties": {
            "ok": {"type": "boolean", "const": false, "description": "False: the call failed and changed nothing."},
            "text": {"type": "string", "description": "What the model reads: `Error (<code>): <message>`."},
            "error": {
                "type": "object",
                "properties": {
                    "code": {
                        "type": "string",
                        "description": "A stable code: `not_found`, `ambiguous`, `overlap`, `no_change`, `empty_old_text`, \
                            `file_not_found`, `permission_denied`, `not_a_file`, `binary_file`, `unsupported_encoding`, \
                            `too_large`, `stale`, `outside_root`, `no_undo`, `invalid_input`, `placeholder`, `conflict`, `cancelled`, \
                            `io`, ..."
                    },
                    "message": {"type": "string", "description": "What went wrong and what to do about it."},
                    "editIndex": index("The edit (index into `edits`) the error concerns."),
                    "path": {"type": "string", "description": "The file the error concerns."},
                    "lines": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1},
                        "description": "For `ambiguous`: the one-based line of each occurrence listed."
                    },
                    "hunkIndex": index("For `apply_patch`: the failing hunk's index among its file's hunks."),
                    "patchLine": {"type": "integer", "minimum": 1, "description": "For `apply_patch`: the one-based line of the patch text the error concerns."},
                    "syntaxErrors": {
                        "type": "array",
                        "items": {"type": "object"},
                        "description": "For `syntax_error`: the errors the call would have introduced into `path`, as `syntaxErrors` lists them in a result ({line, column, endLine, endColumn, message})."
                    },
                    "files": {
                        "type": "array",
                        "items": {"type": "object"},
                        "description": "For `apply_patch`'s `syntax_error`: each file the patch would have broken, {path, syntaxErrors}."
                    },
                },
                "required": ["code", "message"],
            },
        },
        "required": ["ok", "text", "error"],
    })
}

/// Every tool's MCP definition, in the order of `surgical_tool::TOOLS`.
pub fn mcp_tools() -> Vec<Tool> {
    TOOL_SPECS.iter().map(mcp_tool).collect()
}

/// Every tool's definition in `format`, as a JSON array ready to paste as a request's `tools`.
pub fn definitions(format: Format) -> Value {
    let tools = TOOL_SPECS.iter().map(|spec| match format {
        Format::Mcp => serde_json::to_value(mcp_tool(spec)).expect("tools serialize"),
        Format::Anthropic => json!({
            "name": spec.name,
            "description": spec.description,
            "input_schema": spec.input_schema(),
        }),
        Format::OpenAi => json!({
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.input_schema(),
            },
        }),
    });
    Value::Array(tools.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        for name in Format::NAMES {
            let format = Format::parse(name).unwrap();
            let defs = definitions(format);
            let defs = defs.as_array().unwrap();
            assert_eq!(defs.len(), surgical_tool::TOOLS.len(), "{name}");
            let names: Vec<&str> = defs
                .iter()
                .map(|d| d.get("name").or(d.pointer("/function/name")).unwrap().as_str().unwrap())
                .collect();
            assert_eq!(names, surgical_tool::TOOLS, "{name}");
        }
        assert_eq!(Format::parse("claude"), None);
        let mcp = definitions(Format::Mcp);
        assert_eq!(mcp[0]["annotations"]["readOnlyHint"], true);
        assert_eq!(mcp[1]["annotations"]["idempotentHint"], false);
        assert_eq!(mcp[2]["annotations"]["destructiveHint"], true);
        assert_eq!(mcp[1]["inputSchema"]["required"], json!(["path", "edits"]));
        assert_eq!(mcp[1]["outputSchema"]["type"], "object");
        assert_eq!(mcp[1]["outputSchema"]["required"], json!(["ok", "text"]));
        assert_eq!(mcp[1]["outputSchema"]["oneOf"][0]["properties"]["ok"]["const"], true);
        assert_eq!(mcp[1]["outputSchema"]["oneOf"][1]["properties"]["ok"]["const"], false);
        let anthropic = definitions(Format::Anthropic);
        assert_eq!(anthropic[2]["input_schema"]["required"], json!(["path", "content"]));
        let openai = definitions(Format::OpenAi);
        assert_eq!(openai[0]["type"], "function");
        assert_eq!(openai[0]["function"]["parameters"]["type"], "object");
    }
}
