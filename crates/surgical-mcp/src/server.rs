//! The MCP server: surgical's tools behind `tools/list` and `tools/call`.

use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use surgical_tool::{Config, ToolResult};

use crate::definitions::mcp_tools;

/// A failure to start or run the server (not a tool failure: those are tool results).
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The server: the configuration every call runs with, and the tool list.
#[derive(Clone, Debug)]
pub struct SurgicalServer {
    config: Arc<Config>,
    tools: Arc<Vec<Tool>>,
}

impl SurgicalServer {
    /// A server whose tool calls run with `config` (its root is where paths lead).
    pub fn new(config: Config) -> SurgicalServer {
        SurgicalServer {
            config: Arc::new(config),
            tools: Arc::new(mcp_tools()),
        }
    }

    /// Runs one tool call, as `tools/call` does, on a blocking thread (file I/O and hashing).
    ///
    /// Every outcome of the tool itself, failures included (not found, ambiguous, stale, outside the
    /// root, malformed arguments...), is a tool result with `isError` set, for the model to read;
    /// only a name that is not a tool is a protocol error (`invalid_params`).
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> Result<CallToolResult, ErrorData> {
        if surgical_tool::schema::tool_spec(name).is_none() {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{name}`; the tools are: {}",
                    surgical_tool::TOOLS.join(", ")
                ),
                None,
            ));
        }
        let config = Arc::clone(&self.config);
        let tool = name.to_string();
        // Missing arguments are an empty object: the tool then says what is missing.
        let input = Value::Object(arguments.unwrap_or_default());
        let started = Instant::now();
        let result = tokio::task::spawn_blocking(move || surgical_tool::call_with(&tool, &input, &config))
            .await
            .map_err(|e| ErrorData::internal_error(format!("the {name} tool stopped unexpectedly: {e}"), None))?;
        let out = call_tool_result(&result);
        log_call(name, out.structured_content.as_ref(), started);
        Ok(out)
    }
}

/// The MCP result of a tool result: the model-facing text as content, the result object (the same
/// JSON as `surgical call`) as `structuredContent`, and `isError` when the tool failed.
pub fn call_tool_result(result: &ToolResult) -> CallToolResult {
    let content = vec![ContentBlock::text(result.text())];
    let mut out = if result.is_ok() {
        CallToolResult::success(content)
    } else {
        CallToolResult::error(content)
    };
    out.structured_content = Some(result.to_json());
    out
}

/// One line per call on stderr, for the client's server log (stdout carries the protocol only):
/// the tool, the path, `ok` or the error code, the time taken.
fn log_call(name: &str, result: Option<&Value>, started: Instant) {
    let field = |pointer: &str| result.and_then(|r| r.pointer(pointer)).and_then(Value::as_str);
    let path = field("/path").or_else(|| field("/error/path")).unwrap_or("-");
    let outcome = field("/error/code").unwrap_or("ok");
    eprintln!(
        "surgical mcp: {name} {path}: {outcome} ({} ms)",
        started.elapsed().as_millis()
    );
}

fn instructions(config: &Config) -> String {
    format!(
        "File tools for the workspace at {root}. Paths are relative to it (absolute paths must lead inside \
         it). Use read to see a file with line numbers and its hash; edit to change part of a file by \
         replacing text (exact, or tolerant of differences you cannot see, such as line endings, trailing \
         whitespace, typographic quotes and special spaces; everything else is written back byte for \
         byte); write to create a file or replace all of it; undo to revert surgical's last change to a \
         file. Pass the hash from read as expectedHash to refuse a change if the file changed meanwhile.",
        root = config.root.display()
    )
}

impl ServerHandler for SurgicalServer {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new("surgical", env!("CARGO_PKG_VERSION"));
        implementation.title = Some("surgical: byte-faithful file edits".to_string());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(instructions(&self.config))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(&request.name, request.arguments).await.map(Into::into)
    }
}

/// Serves the tools over stdin/stdout until the client closes stdin. Tool calls run with `config`.
///
/// # Errors
///
/// When the root is not a directory, or the protocol handshake fails.
pub async fn serve_stdio(config: Config) -> Result<(), Error> {
    // Refuse a bad root at once, rather than in every tool call.
    let root = surgical_fs_root(&config)?;
    eprintln!(
        "surgical mcp {}: serving {} on stdio for {}",
        env!("CARGO_PKG_VERSION"),
        surgical_tool::TOOLS.join(", "),
        root.display()
    );
    let server = SurgicalServer::new(config);
    let running = server.serve(rmcp::transport::stdio()).await?;
    let reason = running.waiting().await?;
    eprintln!("surgical mcp: stopped ({reason:?})");
    Ok(())
}

/// [`serve_stdio`] on a runtime of its own, for callers that are not async (the `surgical` binary).
pub fn run_stdio(config: Config) -> Result<(), Error> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve_stdio(config))
}

/// The root, resolved, or an error saying why it cannot be one.
fn surgical_fs_root(config: &Config) -> Result<std::path::PathBuf, Error> {
    let meta = std::fs::metadata(&config.root)
        .map_err(|e| format!("the root {} cannot be used: {e}", config.root.display()))?;
    if !meta.is_dir() {
        return Err(format!("the root {} is not a directory", config.root.display()).into());
    }
    Ok(std::fs::canonicalize(&config.root)?)
}
