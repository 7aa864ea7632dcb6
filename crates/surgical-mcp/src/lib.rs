//! surgical's file tools over the Model Context Protocol: `read`, `edit`, `write`, `apply_patch`,
//! `apply_snippet` and `undo`, served on stdio to any MCP client (Claude Desktop, Claude Code, Cursor, VS Code, ...).
//!
//! This crate is a thin front end over `surgical-tool`: a `tools/call` runs
//! `surgical_tool::call_with` and returns its result object as `structuredContent` and its text as
//! the content the model reads, with `isError` set when the tool failed. Tool failures (not found,
//! ambiguous, stale, outside the root, malformed arguments) are tool results the model sees and
//! can act on, and conform to the tool's output schema, which describes successes and errors;
//! only protocol faults (a tool name that does not exist, malformed params: -32602; a line that is
//! not JSON: -32700) are protocol errors. Progress notifications and cancellation go through
//! [`CallControl`]. The tool definitions come from `surgical_tool::schema` ([`mod@definitions`] also
//! prints them for Anthropic's and OpenAI's APIs). Nothing but the protocol is written to stdout;
//! the server logs one line per call on stderr.
//!
//! ```no_run
//! # fn main() -> Result<(), surgical_mcp::Error> {
//! surgical_mcp::run_stdio(surgical_tool::Config::new(std::path::Path::new(".")))
//! # }
//! ```

#![deny(missing_docs)]

mod constraints;
pub mod control;
pub mod definitions;
mod server;
mod stdio;

pub use crate::control::CallControl;
pub use crate::definitions::{definitions, error_schema, mcp_tool, mcp_tools, output_schema, Format};
pub use crate::server::{call_tool_result, run_stdio, serve_stdio, Error, SurgicalServer};
