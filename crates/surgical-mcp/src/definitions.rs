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
    tool.output_schema = Some(object(spec.output_schema()));
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
        assert_eq!(mcp[1]["outputSchema"]["properties"]["ok"]["const"], true);
        let anthropic = definitions(Format::Anthropic);
        assert_eq!(anthropic[2]["input_schema"]["required"], json!(["path", "content"]));
        let openai = definitions(Format::OpenAi);
        assert_eq!(openai[0]["type"], "function");
        assert_eq!(openai[0]["function"]["parameters"]["type"], "object");
    }
}
