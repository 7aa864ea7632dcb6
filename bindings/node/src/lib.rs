//! Node.js bindings of surgical's tool layer (napi-rs).
//!
//! Every tool takes the call object of `surgical call TOOL` and returns its result object: the
//! same functions (`surgical_tool::call_with`), so the same JSON. The async functions run the call
//! on libuv's thread pool and resolve with the result; the `Sync` ones block the calling thread.
//! Tool failures are results (`{ok: false, error}`), never exceptions; only a malformed `options`
//! throws. `applyEdits` runs the engine on content the host holds (`surgical_tool::apply_edits`)
//! and throws on failure, with the tool's error code as the exception's `code`.

#![deny(clippy::all)]

use std::path::PathBuf;

use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::Value;

/// Options shared by the tools.
#[napi(object)]
#[derive(Default)]
pub struct Options {
    /// The directory relative paths resolve against; paths leading outside it are refused
    /// (`outside_root`). Default: the process's working directory.
    pub root: Option<String>,
    /// Refuse files larger than this many bytes (`too_large`). Default: 1 GiB.
    pub max_file_size: Option<f64>,
    /// Keep the undo journal in `<root>/.surgical/` (default true).
    pub undo: Option<bool>,
    /// What a writing call that would introduce syntax errors does: `"report"` (default: write, and
    /// list them in `syntaxErrors`), `"refuse"` (write nothing: `syntax_error`) or `"off"`. A call's
    /// `onSyntaxError` overrides it.
    pub on_syntax_error: Option<String>,
}

impl Options {
    fn config(self) -> Result<surgical_tool::Config> {
        let root = PathBuf::from(self.root.unwrap_or_else(|| ".".to_string()));
        let mut config = surgical_tool::Config::new(&root).undo(self.undo.unwrap_or(true));
        if let Some(on) = self.on_syntax_error {
            let parsed = surgical_tool::OnSyntaxError::parse(&on).ok_or_else(|| {
                Error::new(
                    Status::InvalidArg,
                    format!("options.onSyntaxError must be \"report\", \"refuse\" or \"off\", not {on:?}"),
                )
            })?;
            config = config.on_syntax_error(parsed);
        }
        if let Some(bytes) = self.max_file_size {
            if !(bytes.is_finite() && bytes >= 0.0 && bytes.fract() == 0.0) {
                return Err(Error::new(
                    Status::InvalidArg,
                    format!("options.maxFileSize must be a whole number of bytes, not {bytes}"),
                ));
            }
            config = config.max_file_size(bytes as u64);
        }
        Ok(config)
    }
}

/// A JSON value crossing into JavaScript (a result object).
pub struct Json(Value);

impl TypeName for Json {
    fn type_name() -> &'static str {
        "Object"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Json {
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        // SAFETY: forwarded with the caller's guarantee about `env`.
        unsafe { Value::to_napi_value(env, val.0) }
    }
}

/// One tool call, run on the thread pool.
pub struct Call {
    tool: &'static str,
    input: Value,
    config: surgical_tool::Config,
}

impl Call {
    fn new(tool: &'static str, input: Value, options: Option<Options>) -> Result<Call> {
        Ok(Call {
            tool,
            input,
            config: options.unwrap_or_default().config()?,
        })
    }

    fn run(&self) -> Value {
        surgical_tool::call_with(self.tool, &self.input, &self.config).to_json()
    }
}

impl Task for Call {
    type Output = Value;
    type JsValue = Json;

    fn compute(&mut self) -> Result<Value> {
        Ok(self.run())
    }

    fn resolve(&mut self, _env: Env, output: Value) -> Result<Json> {
        Ok(Json(output))
    }
}

/// The call as a task on the thread pool. With a `signal`, aborting it cancels the call: one that
/// has not passed its last check before writing resolves with the `cancelled` error and changes
/// nothing (a call already writing completes); a signal aborted already cancels it at once.
fn run_async(
    env: Env,
    tool: &'static str,
    call: Value,
    options: Option<Options>,
    signal: Option<Object<'_>>,
) -> Result<AsyncTask<Call>> {
    let mut task = Call::new(tool, call, options)?;
    if let Some(signal) = signal {
        let cancellation = surgical_tool::Cancellation::new();
        task.config = task.config.cancellation(cancellation.clone());
        if signal.get_named_property::<Option<bool>>("aborted")?.unwrap_or(false) {
            cancellation.cancel();
        } else {
            // SAFETY: `signal` is a live value of this call's `env`.
            let signal = unsafe { AbortSignal::from_napi_value(env.raw(), signal.raw())? };
            signal.on_abort(move || cancellation.cancel());
        }
    }
    Ok(AsyncTask::new(task))
}

fn run_sync(tool: &'static str, call: Value, options: Option<Options>) -> Result<Json> {
    Ok(Json(Call::new(tool, call, options)?.run()))
}

/// Replaces text in a file: `{path, edits: [{oldText, newText, replaceAll?}], dryRun?,
/// maxStrategy?, expectedHash?}` (or a top-level `oldText`/`newText`). Resolves with the result
/// object of `surgical call edit`.
#[napi(
    ts_args_type = "call: EditCall, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<EditResult | ErrorResult>"
)]
pub fn edit(env: Env, call: Value, options: Option<Options>, signal: Option<Object<'_>>) -> Result<AsyncTask<Call>> {
    run_async(env, "edit", call, options, signal)
}

/// `edit`, blocking the calling thread.
#[napi(
    ts_args_type = "call: EditCall, options?: Options",
    ts_return_type = "EditResult | ErrorResult"
)]
pub fn edit_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("edit", call, options)
}

/// Applies a patch (apply_patch envelope, SEARCH/REPLACE blocks or unified diff) to one or more
/// files, all or nothing: the result object of `surgical call apply_patch`.
#[napi(
    ts_args_type = "call: PatchCall, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<ToolResult>"
)]
pub fn apply_patch(
    env: Env,
    call: Value,
    options: Option<Options>,
    signal: Option<Object<'_>>,
) -> Result<AsyncTask<Call>> {
    run_async(env, "apply_patch", call, options, signal)
}

/// `applyPatch`, blocking the calling thread.
#[napi(ts_args_type = "call: PatchCall, options?: Options", ts_return_type = "ToolResult")]
pub fn apply_patch_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("apply_patch", call, options)
}

/// Merges a lazy snippet into a file: `{path, snippet, instructions?, dryRun?, expectedHash?}`
/// (the changed code, unchanged code left out behind marker lines such as `// ... existing code
/// ...`). Resolves with the result object of `surgical call apply_snippet`: `edit`'s fields plus
/// `segments`.
#[napi(
    ts_args_type = "call: SnippetCall, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<SnippetResult | ErrorResult>"
)]
pub fn apply_snippet(
    env: Env,
    call: Value,
    options: Option<Options>,
    signal: Option<Object<'_>>,
) -> Result<AsyncTask<Call>> {
    run_async(env, "apply_snippet", call, options, signal)
}

/// `applySnippet`, blocking the calling thread.
#[napi(
    ts_args_type = "call: SnippetCall, options?: Options",
    ts_return_type = "SnippetResult | ErrorResult"
)]
pub fn apply_snippet_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("apply_snippet", call, options)
}

/// Reads a file with line numbers: `{path, startLine?, endLine?, limit?}`; the result object of
/// `surgical call read`.
#[napi(
    ts_args_type = "call: ReadCall, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<ToolResult>"
)]
pub fn read(env: Env, call: Value, options: Option<Options>, signal: Option<Object<'_>>) -> Result<AsyncTask<Call>> {
    run_async(env, "read", call, options, signal)
}

/// `read`, blocking the calling thread.
#[napi(ts_args_type = "call: ReadCall, options?: Options", ts_return_type = "ToolResult")]
pub fn read_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("read", call, options)
}

/// Creates or replaces a file: `{path, content}`; the result object of `surgical call write`.
#[napi(
    ts_args_type = "call: WriteCall, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<ToolResult>"
)]
pub fn write(env: Env, call: Value, options: Option<Options>, signal: Option<Object<'_>>) -> Result<AsyncTask<Call>> {
    run_async(env, "write", call, options, signal)
}

/// `write`, blocking the calling thread.
#[napi(ts_args_type = "call: WriteCall, options?: Options", ts_return_type = "ToolResult")]
pub fn write_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("write", call, options)
}

/// Restores a file to its content before surgical's last change to it: `{path}`; the result
/// object of `surgical call undo`.
#[napi(
    ts_args_type = "call: { path: string }, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<EditResult | ErrorResult>"
)]
pub fn undo(env: Env, call: Value, options: Option<Options>, signal: Option<Object<'_>>) -> Result<AsyncTask<Call>> {
    run_async(env, "undo", call, options, signal)
}

/// `undo`, blocking the calling thread.
#[napi(
    ts_args_type = "call: { path: string }, options?: Options",
    ts_return_type = "EditResult | ErrorResult"
)]
pub fn undo_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("undo", call, options)
}

/// Anthropic's text-editor tool: the `input` of Claude's `tool_use` block as it is (`{command:
/// 'view' | 'create' | 'str_replace' | 'insert' | 'undo_edit', path, ...}`), or a SWE-agent or
/// OpenHands `str_replace_editor` call. Resolves with the result object of `surgical call
/// text_editor`: its `text` is the `tool_result` to send back (`is_error: !ok`).
#[napi(
    ts_args_type = "call: TextEditorCall, options?: Options, signal?: AbortSignal",
    ts_return_type = "Promise<TextEditorResult | ErrorResult>"
)]
pub fn text_editor(
    env: Env,
    call: Value,
    options: Option<Options>,
    signal: Option<Object<'_>>,
) -> Result<AsyncTask<Call>> {
    run_async(env, "text_editor", call, options, signal)
}

/// `textEditor`, blocking the calling thread.
#[napi(
    ts_args_type = "call: TextEditorCall, options?: Options",
    ts_return_type = "TextEditorResult | ErrorResult"
)]
pub fn text_editor_sync(call: Value, options: Option<Options>) -> Result<Json> {
    run_sync("text_editor", call, options)
}

/// Options of `applyEdits`.
#[napi(object)]
#[derive(Default)]
pub struct ApplyEditsOptions {
    /// The name the diff and patch give the content (default `file`).
    pub path: Option<String>,
    /// The loosest matching tier allowed: `exact`, `trailing_whitespace`, `unicode`,
    /// `indentation`, `whitespace_runs`, `escapes` (the default) or `similar`.
    pub max_strategy: Option<String>,
}

/// What `applyEdits` returns.
#[napi(object)]
pub struct AppliedEdits {
    /// The new content: a string for a string, a Buffer for a Buffer (invalid UTF-8, BOMs and
    /// UTF-16 survive only in a Buffer).
    pub text: Either<String, Buffer>,
    /// Numbered diff for display, as the edit tool's `diff`.
    pub diff: String,
    /// Unified diff of the real bytes, as the edit tool's `patch`.
    pub patch: String,
    /// Where each edit landed, as the edit tool's `edits`.
    #[napi(ts_type = "EditReport[]")]
    pub edits: Value,
    /// The one-based line of the first change in the new content (null when nothing changed).
    pub first_changed_line: Option<u32>,
    /// `utf-8`, `utf-8-bom`, `utf-16le` or `utf-16be`.
    pub encoding: String,
}

/// Runs the edit engine on content the host holds (nothing is read or written): `edits` as in
/// the edit call (`[{oldText, newText, replaceAll?}]`). The bytes come out as `surgical call
/// edit` would write them. Throws on failure: the message is the text the edit tool gives the
/// model, `code` its error code (`no_match`, `ambiguous`, `invalid_input`, ...).
#[napi(ts_args_type = "text: string | Buffer, edits: Edit[], options?: ApplyEditsOptions")]
pub fn apply_edits(
    text: Either<String, Buffer>,
    edits: Value,
    options: Option<ApplyEditsOptions>,
) -> std::result::Result<AppliedEdits, Error<String>> {
    let options = options.unwrap_or_default();
    let mut call = serde_json::Map::new();
    call.insert("edits".into(), edits);
    if let Some(path) = options.path {
        call.insert("path".into(), Value::String(path));
    }
    if let Some(max) = options.max_strategy {
        call.insert("maxStrategy".into(), Value::String(max));
    }
    let (bytes, as_string) = match text {
        Either::A(s) => (s.into_bytes(), true),
        Either::B(b) => (b.to_vec(), false),
    };
    match surgical_tool::apply_edits(bytes, &Value::Object(call)) {
        Ok(done) => {
            let text = if as_string {
                match String::from_utf8(done.content) {
                    Ok(s) => Either::A(s),
                    // UTF-8 in gives UTF-8 out; kept as bytes should that ever not hold.
                    Err(e) => Either::B(e.into_bytes().into()),
                }
            } else {
                Either::B(done.content.into())
            };
            Ok(AppliedEdits {
                text,
                diff: done.diff,
                patch: done.patch,
                edits: serde_json::to_value(&done.edits).map_err(|e| Error::new("io".to_string(), e.to_string()))?,
                first_changed_line: done.first_changed_line.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
                encoding: done.encoding.to_string(),
            })
        }
        Err(e) => {
            let code = e.code.to_string();
            let message = surgical_tool::ToolResult::Error(e).text();
            Err(Error::new(code, message))
        }
    }
}
