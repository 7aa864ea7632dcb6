//! The MCP server: surgical's tools behind `tools/list` and `tools/call`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest, CustomResult, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use surgical_tool::{Cancellation, Config, ErrorCode, ToolError, ToolResult};
use tokio::sync::RwLock;

use crate::control::CallControl;
use crate::definitions::mcp_tools;

/// A failure to start or run the server (not a tool failure: those are tool results).
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The server: the configuration every call runs with, and the tool list.
#[derive(Clone, Debug)]
pub struct SurgicalServer {
    config: Arc<Config>,
    tools: Arc<Vec<Tool>>,
    /// The root as the instructions name it: absolute, symlinks resolved.
    root: Arc<PathBuf>,
    /// Calls take turns here: reads together, a call that may change files alone (never two
    /// changes at once, nor a read in the middle of a change). A call cancelled while it waits
    /// for its turn is abandoned before it changes anything.
    turn: Arc<RwLock<()>>,
}

impl SurgicalServer {
    /// A server whose tool calls run with `config` (its root is where paths lead).
    pub fn new(config: Config) -> SurgicalServer {
        let root = std::fs::canonicalize(&config.root)
            .or_else(|_| std::path::absolute(&config.root))
            .unwrap_or_else(|_| config.root.clone());
        SurgicalServer {
            config: Arc::new(config),
            tools: Arc::new(mcp_tools()),
            root: Arc::new(root),
            turn: Arc::new(RwLock::new(())),
        }
    }

    /// The root paths lead into, absolute.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The server's instructions to the client (and its model): the workspace and every tool.
    pub fn instructions(&self) -> String {
        instructions(&self.root)
    }

    /// Runs one tool call, as `tools/call` does, without progress reports or cancellation.
    /// See [`SurgicalServer::call_with`].
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
    ) -> Result<CallToolResult, ErrorData> {
        self.call_with(name, arguments, &CallControl::new()).await
    }

    /// Runs one tool call, as `tools/call` does, on a blocking thread (file I/O and hashing),
    /// reporting its progress and honouring its cancellation through `control`.
    ///
    /// Every outcome of the tool itself, failures included (not found, ambiguous, stale, outside the
    /// root, malformed arguments, arguments outside what the input schema allows...), is a tool
    /// result with `isError` set, for the model to read; only a name that is not a tool is a
    /// protocol error (`invalid_params`). A call cancelled before its turn comes is abandoned and
    /// changes nothing (its result is the error `cancelled`); once the tool runs, it runs to its
    /// end and reports normally.
    pub async fn call_with(
        &self,
        name: &str,
        arguments: Option<serde_json::Map<String, Value>>,
        control: &CallControl,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(spec) = surgical_tool::schema::tool_spec(name) else {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{name}`; the tools are: {}",
                    surgical_tool::TOOLS.join(", ")
                ),
                None,
            ));
        };
        let started = Instant::now();
        // Missing arguments are an empty object: the tool then says what is missing.
        let arguments = arguments.unwrap_or_default();
        let what = match arguments.get("path").and_then(Value::as_str) {
            Some(path) => format!("{name} {path}"),
            None => name.to_string(),
        };
        control.report(format!("{what}: started"), false).await;
        let result = match crate::constraints::check(&spec.input_schema(), &arguments) {
            Err(e) => ToolResult::Error(e),
            Ok(()) => {
                self.run_in_turn(name, arguments, spec.read_only, &what, control)
                    .await?
            }
        };
        let out = call_tool_result(&result);
        let outcome = match &result {
            ToolResult::Error(e) => format!("failed ({})", e.code),
            _ => "done".to_string(),
        };
        control.report(format!("{what}: {outcome}"), true).await;
        log_call(name, out.structured_content.as_ref(), started);
        Ok(out)
    }

    /// Waits for the call's turn (or its cancellation), then runs the tool.
    async fn run_in_turn(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
        read_only: bool,
        what: &str,
        control: &CallControl,
    ) -> Result<ToolResult, ErrorData> {
        let path = arguments.get("path").and_then(Value::as_str).map(str::to_string);
        let cancelled = || {
            let mut error = ToolError::new(
                ErrorCode::Cancelled,
                format!("the client cancelled this call before it ran; nothing was changed ({what})"),
            );
            error.path = path.clone();
            ToolResult::Error(error)
        };
        if control.is_cancelled() {
            return Ok(cancelled());
        }
        // Shared for reads, exclusive for calls that may change files; in arrival order.
        let (_shared, _exclusive) = if read_only {
            let Some(guard) = take_turn(self.turn.try_read().ok(), self.turn.read(), control, what).await else {
                return Ok(cancelled());
            };
            (Some(guard), None)
        } else {
            let Some(guard) = take_turn(self.turn.try_write().ok(), self.turn.write(), control, what).await else {
                return Ok(cancelled());
            };
            (None, Some(guard))
        };
        if control.is_cancelled() {
            return Ok(cancelled());
        }
        control.report(format!("{what}: running"), false).await;
        // The tool checks this flag right before its first write: a cancellation that arrives while
        // it reads and matches abandons it with every file untouched; after that check it runs to
        // its end (it commits all of its change or none) and reports normally.
        let cancellation = Cancellation::new();
        let config = (*self.config).clone().cancellation(cancellation.clone());
        let watch = {
            let token = control.cancellation().clone();
            tokio::spawn(async move {
                token.cancelled().await;
                cancellation.cancel();
            })
        };
        let tool = name.to_string();
        let input = Value::Object(arguments);
        let mut task = tokio::task::spawn_blocking(move || surgical_tool::call_with(&tool, &input, &config));
        let result = if control.reports_progress() {
            // A heartbeat while the tool runs: a long call (a large file, a slow disk) is seen to go on.
            let started = tokio::time::Instant::now();
            let mut beat = tokio::time::interval_at(started + control.heartbeat(), control.heartbeat());
            beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    done = &mut task => break done,
                    _ = beat.tick() => {
                        let secs = started.elapsed().as_secs_f64();
                        control.report(format!("{what}: still running ({secs:.1} s)"), false).await;
                    }
                }
            }
        } else {
            task.await
        }
        .map_err(|e| ErrorData::internal_error(format!("the {name} tool stopped unexpectedly: {e}"), None));
        watch.abort();
        result
    }
}

/// A call's turn: `now` if it was free, else `later` once earlier calls are done (reported as
/// waiting); `None` when the client cancels the call while it waits.
async fn take_turn<G>(
    now: Option<G>,
    later: impl std::future::Future<Output = G>,
    control: &CallControl,
    what: &str,
) -> Option<G> {
    if now.is_some() {
        return now;
    }
    control
        .report(format!("{what}: waiting for earlier calls"), false)
        .await;
    tokio::select! {
        guard = later => Some(guard),
        () = control.cancellation().cancelled() => None,
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

fn instructions(root: &Path) -> String {
    format!(
        "File tools for the workspace at {root}. Paths are relative to it (absolute paths must lead inside \
         it). The tools: {tools}. Use read to see a file with line numbers and its hash; edit to change part \
         of a file by replacing text (exact, or tolerant of differences you cannot see, such as line endings, \
         trailing whitespace, typographic quotes and special spaces; everything else is written back byte \
         for byte); write to create a file or replace all of it; apply_patch to apply a patch (apply_patch \
         format, SEARCH/REPLACE blocks or a unified diff) to one or more files, all or nothing; apply_snippet \
         to merge a lazy snippet (the changed code, unchanged code left out behind marker lines such as \
         `// ... existing code ...`) into one file, refused when it fits more than one place; undo to \
         revert surgical's last change to a file; text_editor for the commands of Anthropic's text-editor \
         tool (view, create, str_replace, insert, undo_edit), with the same guarantees. Pass the hash from read as expectedHash to refuse a \
         change if the file changed meanwhile. A failed call changes nothing; its text says what to fix.",
        root = root.display(),
        tools = surgical_tool::TOOLS.join(", "),
    )
}

impl ServerHandler for SurgicalServer {
    fn get_info(&self) -> ServerConfig {
        let mut implementation = Implementation::new("surgical", env!("CARGO_PKG_VERSION"));
        implementation.title = Some("surgical: byte-faithful file edits".to_string());
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(implementation)
            .with_instructions(self.instructions())
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let control = CallControl::from_context(&context);
        self.call_with(&request.name, request.arguments, &control)
            .await
            .map(Into::into)
    }

    /// rmcp hands over as a custom request any request it could not read as the method it names:
    /// for a method of the protocol that means its params are malformed (JSON-RPC "invalid
    /// params", -32602, as the specification answers e.g. a `tools/call` whose arguments are not
    /// an object); any other method does not exist (-32601).
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.as_str();
        if method == "tools/call" {
            return Err(ErrorData::invalid_params(
                format!(
                    "malformed tools/call params: give {{\"name\": <tool name>, \"arguments\": {{...}}}}, with \
                     arguments a JSON object (got params {}); the tools are: {}",
                    abbreviate(request.params.as_ref()),
                    surgical_tool::TOOLS.join(", ")
                ),
                None,
            ));
        }
        if PROTOCOL_METHODS.contains(&method) {
            return Err(ErrorData::invalid_params(
                format!("malformed params for {method}: {}", abbreviate(request.params.as_ref())),
                None,
            ));
        }
        Err(ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
            None,
        ))
    }
}

/// The requests of the protocol a client may send (2025-06-18 and later).
const PROTOCOL_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// `params` as JSON, cut to a length an error message can carry.
fn abbreviate(params: Option<&Value>) -> String {
    let text = params.map_or_else(|| "none".to_string(), Value::to_string);
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
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
    let (transport, pumps) = crate::stdio::transport();
    let running = server.serve(transport).await?;
    let reason = running.waiting().await?;
    pumps.finish().await;
    eprintln!("surgical mcp: stopped ({reason:?})");
    Ok(())
}

/// [`serve_stdio`] on a runtime of its own, for callers that are not async (the `surgical` binary).
pub fn run_stdio(config: Config) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let served = runtime.block_on(serve_stdio(config));
    // A read of stdin may still be pending (when the server stopped before its input ended): do
    // not wait for it.
    runtime.shutdown_background();
    served
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
