//! The `surgical` command: the machine interface (`surgical call`), an edit command for people,
//! and a demo of the promise.

mod demo;
mod progress;
mod root;
mod term;

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use serde_json::{json, Value};
use surgical_tool::ToolResult;
use term::{ColorChoice, Painter};

const ABOUT: &str = "Byte-faithful edits for coding agents.

surgical finds what each edit targets (exactly, or through line endings, trailing whitespace, \
quotes, dashes and special spaces a model cannot see or gets wrong), applies it, and writes back \
every byte the edit does not target unchanged: CRLF, lone CR, mixed endings, BOMs, UTF-16, invalid \
UTF-8, smart quotes, no-break spaces, trailing whitespace. Inside a fuzzy match only what the model \
changed is changed; the file's own characters stay. Diffs and patches are computed from the real \
bytes before and after.";

const AFTER: &str = "Examples:
  surgical demo
  echo '{\"path\":\"src/x.ts\",\"edits\":[{\"oldText\":\"a\",\"newText\":\"b\"}]}' | surgical call edit --root .
  surgical edit src/x.ts --old 'return 2;' --new 'return 3;' --dry-run
  surgical edit src/x.ts --edits edits.json
  surgical mcp --root /path/to/project          (an MCP server on stdio, for agents and IDEs)
  surgical tools --format anthropic             (the tool definitions, to wire them by hand)
  surgical apply fix.patch --dry-run            (apply_patch, SEARCH/REPLACE or unified diff; all files or none)

Exit status: 0 when the edit applied, 1 when the tool reports an error (the file is untouched), \
2 for usage errors.";

#[derive(Parser)]
#[command(name = "surgical", version, about = ABOUT, after_help = AFTER, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour output for people: auto (a terminal, unless NO_COLOR is set or TERM=dumb;
    /// CLICOLOR_FORCE=1 forces it), always or never. Decided for stdout and stderr apart.
    #[arg(long, global = true, value_enum, default_value_t = term::ColorChoice::Auto, value_name = "WHEN")]
    color: term::ColorChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Machine interface: read a tool call as JSON on stdin, print the result object as JSON.
    ///
    /// The edit call is {"path": "...", "edits": [{"oldText": "...", "newText": "...", "replaceAll"?: bool}]},
    /// or a single top-level oldText/newText; aliases file_path, old_string/new_string and
    /// oldString/newString are accepted; optional "dryRun", "maxStrategy" (exact, trailing_whitespace,
    /// unicode, indentation, whitespace_runs, escapes, typo, extra_line, missing_line [default], similar) and "expectedHash". The result is {"ok": true, "text", "path", "diff", "patch",
    /// "firstChangedLine", "edits": [{"index", "strategy", "startLine", "endLine", ...}], ...} or
    /// {"ok": false, "text", "error": {"code", "message", "editIndex"?}}.
    /// The read call is {"path", "startLine"?, "endLine"?, "limit"?}; the write call is {"path",
    /// "content", "lineEnding"?, "encoding"?, "expectedHash"?, "dryRun"?}; the apply_snippet call is
    /// {"path", "snippet", "instructions"?, "dryRun"?, "expectedHash"?} (aliases target_file,
    /// code_edit, update) and its result adds "segments": [{"startLine", "endLine", "deletedLines",
    /// ...}]; `surgical tools` prints every tool's JSON Schema.
    Call(CallArgs),
    /// Edit a file from the command line and show a colored diff.
    ///
    /// --old/--new (one edit) and --edits (several, as JSON) exclude each other.
    #[command(
        override_usage = "surgical edit <FILE> --old <OLD> --new <NEW> [--replace-all] [OPTIONS]\n       \
                                surgical edit <FILE> --edits <FILE.json|-> [OPTIONS]"
    )]
    Edit(EditArgs),
    /// Merge a lazy snippet into a file and show a colored diff: the changed code, with unchanged
    /// code left out behind marker lines such as `// ... existing code ...`.
    ///
    /// Each changed part begins and ends with lines copied unchanged from the file; file lines left
    /// out between two shown lines are deleted; a snippet that fits in more than one place, or
    /// nowhere, is refused (exit 1) and nothing is written.
    Snippet(SnippetArgs),
    /// Replay the seed bug report's scenario on a sample file and show the faithful result.
    Demo(DemoArgs),
    /// Undo the last change made through surgical to a file: edit, write or apply (a patch is undone
    /// whole: changed files restored, created ones removed, deleted or moved ones recreated).
    ///
    /// Refused (exit 1, code "stale") if any of those files changed since; nothing is touched then.
    /// Each undo goes one call further back; --list shows what can be undone. The journal lives in
    /// <root>/.surgical/ (the last 100 calls, files up to 16 MiB); for files directly in the home
    /// directory or in /, in ~/.local/state/surgical/ instead.
    #[command(override_usage = "surgical undo <FILE> [--root <DIR>] [--json]\n       \
                                surgical undo --list [--root <DIR>] [--json]")]
    Undo(UndoArgs),
    /// Serve the tools (read, edit, write, apply_patch, apply_snippet, undo) to MCP clients over stdio (Model Context Protocol).
    ///
    /// Register the command `surgical mcp --root /path/to/project` with the client (see the README).
    /// Stdout carries the protocol only; one log line per call goes to stderr. Tool failures are
    /// tool results the model sees. Exit status: 0 when the client closes the connection, 1 if the
    /// server fails, 2 for usage errors.
    Mcp(McpArgs),
    /// Print the tool definitions (names, descriptions, JSON Schemas) as a JSON array, for people
    /// who wire the tools into an API call by hand.
    Tools(ToolsArgs),
    /// Apply a patch: an apply_patch patch (*** Begin Patch), SEARCH/REPLACE blocks, or a unified diff
    /// (git diff, diff -u); the format is detected.
    ///
    /// All files or none: if any hunk of any file fails, nothing is written. Prints where each hunk
    /// landed and a colored diff per file (or the JSON result with --json). Exit status: 0 applied, 1
    /// the patch failed (no file changed), 2 usage errors.
    Apply(ApplyArgs),
}

#[derive(Args)]
struct ApplyArgs {
    /// The patch file, or - for stdin.
    patch: PathBuf,
    /// Directory the patch's paths resolve against (and that holds the undo journal); paths leading
    /// outside it are refused ("outside_root"). Default: the nearest directory above the current one
    /// holding .git, .hg, .jj or .surgical (the home directory and / excepted), else the current
    /// directory; so paths are relative to the project, as `git diff` writes them.
    #[arg(long)]
    root: Option<PathBuf>,
    /// Show what would change without writing.
    #[arg(long)]
    dry_run: bool,
    /// Print the JSON result object instead of a diff.
    #[arg(long)]
    json: bool,
    /// The format, if detection should not decide: apply_patch, search_replace or unified_diff.
    #[arg(long, value_parser = ["apply_patch", "search_replace", "unified_diff", "auto"])]
    format: Option<String>,
    /// The file for SEARCH/REPLACE blocks or diff hunks that name none.
    #[arg(long, value_name = "FILE")]
    path: Option<String>,
    /// The loosest matching tier allowed (exact, trailing_whitespace, unicode, indentation, whitespace_runs).
    #[arg(long, value_name = "TIER")]
    max_strategy: Option<String>,
    #[command(flatten)]
    limits: Limits,
}

#[derive(Args)]
struct McpArgs {
    /// The workspace root: relative paths in tool calls resolve against it, and paths leading outside
    /// it are refused (code "outside_root").
    #[arg(long, default_value = ".")]
    root: PathBuf,
    #[command(flatten)]
    limits: Limits,
}

#[derive(Args)]
struct ToolsArgs {
    /// mcp: MCP Tool objects (as tools/list returns them); anthropic: Messages API tools; openai:
    /// Chat Completions tools.
    #[arg(long, default_value = "mcp", value_parser = surgical_mcp::Format::NAMES)]
    format: String,
}

/// Limits shared by the commands that edit.
#[derive(Args)]
struct Limits {
    /// Refuse files larger than this (code "too_large"): bytes, or with a suffix K, M, G or T
    /// (powers of 1024; KiB/KB and the like accepted too), e.g. 64M. Default: 1G.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_file_size: Option<u64>,
    /// Do not keep the undo journal in <root>/.surgical/.
    #[arg(long)]
    no_undo: bool,
    /// What an edit that would introduce syntax errors does (the file is parsed before and after in
    /// its language): report (write it and list them), refuse (write nothing: code "syntax_error")
    /// or off (no check). A call's "onSyntaxError" overrides it.
    #[arg(long, value_name = "WHAT", default_value = "report", value_parser = ["report", "refuse", "off"])]
    on_syntax_error: String,
}

impl Limits {
    fn config(&self, root: &std::path::Path) -> surgical_tool::Config {
        let on = surgical_tool::OnSyntaxError::parse(&self.on_syntax_error).expect("clap checked the value");
        let mut config = surgical_tool::Config::new(root).undo(!self.no_undo).on_syntax_error(on);
        if let Some(bytes) = self.max_file_size {
            config = config.max_file_size(bytes);
        }
        config
    }
}

#[derive(Args)]
struct UndoArgs {
    /// The file whose last change to undo (with every other file the same call changed).
    #[arg(required_unless_present = "list")]
    file: Option<PathBuf>,
    /// List what the journal holds instead, newest first: each call's tool, time and files, what
    /// undoing it would do to each, and whether each is still as the call left it.
    #[arg(long, conflicts_with = "file")]
    list: bool,
    /// The workspace root, which holds the journal. Default: the root rule (see `surgical edit
    /// --help`); for --list, the project of the current directory.
    #[arg(long)]
    root: Option<PathBuf>,
    /// Print the JSON result object (with --list, the steps as a JSON array) instead of a diff.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct CallArgs {
    /// The tool to call.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(surgical_tool::TOOLS))]
    tool: String,
    /// Directory that relative paths in the call resolve against; paths leading outside it are
    /// refused (code "outside_root").
    #[arg(long, default_value = ".")]
    root: PathBuf,
    #[command(flatten)]
    limits: Limits,
}

#[derive(Args)]
struct EditArgs {
    /// The file to edit.
    file: PathBuf,
    /// The text to replace (copied from the file; line breaks match any line ending).
    #[arg(long, requires = "new", conflicts_with = "edits", allow_hyphen_values = true)]
    old: Option<String>,
    /// The replacement text.
    #[arg(long, requires = "old", allow_hyphen_values = true)]
    new: Option<String>,
    /// Replace every occurrence of --old instead of requiring exactly one.
    #[arg(long, requires = "old")]
    replace_all: bool,
    /// A JSON file with the edits, or - for stdin: an array of {"oldText", "newText"} or an object
    /// with "edits".
    #[arg(long, value_name = "FILE.json", required_unless_present = "old")]
    edits: Option<PathBuf>,
    /// Show what would change without writing.
    #[arg(long)]
    dry_run: bool,
    /// The loosest matching tier allowed: exact, trailing_whitespace, unicode, indentation,
    /// whitespace_runs, escapes, elision, typo, extra_line, missing_line (the default) or similar (opt-in
    /// near matches).
    #[arg(long, value_name = "TIER", value_parser = ["exact", "trailing_whitespace", "unicode", "indentation", "whitespace_runs", "escapes", "elision", "typo", "extra_line", "missing_line", "similar"])]
    max_strategy: Option<String>,
    /// Print the JSON result object instead of a diff.
    #[arg(long)]
    json: bool,
    /// The workspace root, which holds the undo journal; FILE is then relative to it, and a file
    /// outside it is refused ("outside_root"). Default, from any working directory alike: the nearest directory above the
    /// file (links resolved) holding .git, .hg, .jj or .surgical, the home directory and / excepted;
    /// else the file's own directory. `surgical undo` finds the same root from the same file.
    #[arg(long)]
    root: Option<PathBuf>,
    #[command(flatten)]
    limits: Limits,
}

#[derive(Args)]
struct SnippetArgs {
    /// The file to change.
    file: PathBuf,
    /// The file holding the snippet, or - (the default) for stdin.
    #[arg(default_value = "-")]
    snippet: PathBuf,
    /// Show what would change without writing.
    #[arg(long)]
    dry_run: bool,
    /// Print the JSON result object instead of a diff.
    #[arg(long)]
    json: bool,
    /// The workspace root, which holds the undo journal (see `surgical edit --help`).
    #[arg(long)]
    root: Option<PathBuf>,
    #[command(flatten)]
    limits: Limits,
}

#[derive(Args)]
struct DemoArgs {
    /// Where to write the sample file (default: a new temporary directory).
    #[arg(long)]
    dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = cli.color;
    match cli.command {
        Command::Call(args) => run_call(args),
        Command::Edit(args) => run_edit(args, color),
        Command::Snippet(args) => run_snippet(args, color),
        Command::Demo(args) => demo::run(args.dir, color),
        Command::Undo(args) => run_undo(args, color),
        Command::Mcp(args) => run_mcp(args),
        Command::Tools(args) => run_tools(args),
        Command::Apply(args) => run_apply(args, color),
    }
}

fn run_mcp(args: McpArgs) -> ExitCode {
    if !args.root.is_dir() {
        return usage_error(&format!("--root {} is not a directory", args.root.display()));
    }
    match surgical_mcp::run_stdio(args.limits.config(&args.root)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("surgical mcp: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_tools(args: ToolsArgs) -> ExitCode {
    let format = surgical_mcp::Format::parse(&args.format).expect("clap checked the format name");
    let defs = serde_json::to_string_pretty(&surgical_mcp::definitions(format)).expect("definitions serialize");
    println!("{defs}");
    ExitCode::SUCCESS
}

fn exit_for(result: &ToolResult) -> ExitCode {
    if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Tool calls larger than this are refused as `invalid_input` without being parsed.
const MAX_REQUEST_BYTES: u64 = 256 << 20;

fn run_call(args: CallArgs) -> ExitCode {
    let result = match read_stdin("the tool call") {
        Err(e) => e.into_result(),
        Ok(input) => match std::str::from_utf8(&input) {
            Err(e) => ToolResult::Error(surgical_tool::ToolError::invalid_input(format!(
                "the tool call on stdin is not valid UTF-8 ({e})"
            ))),
            Ok(text) if text.trim().is_empty() => ToolResult::Error(surgical_tool::ToolError::invalid_input(
                "stdin is empty: pipe the tool call as a JSON object, e.g. {\"path\": \"src/x.ts\", \"edits\": [...]}"
                    .to_string(),
            )),
            Ok(text) => match serde_json::from_str::<Value>(text) {
                Err(e) => ToolResult::Error(surgical_tool::ToolError::invalid_input(format!(
                    "the tool call on stdin is not valid JSON: {e}"
                ))),
                Ok(v) => surgical_tool::call_with(&args.tool, &v, &args.limits.config(&args.root)),
            },
        },
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", result.to_json());
    exit_for(&result)
}

/// How an input named on the command line is called in messages: `stdin` for `-`.
fn shown_name(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads a text input named on the command line: a file, or stdin for `-` (up to
/// [`MAX_REQUEST_BYTES`]). When stdin is a terminal, says on stderr what it waits for.
fn read_input(path: &std::path::Path) -> Result<String, String> {
    let bytes = if path.as_os_str() == "-" {
        read_stdin("the input").map_err(StdinError::message)?
    } else {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
    };
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", shown_name(path)))
}

/// Reads stdin whole, refusing more than [`MAX_REQUEST_BYTES`]. On a terminal (nothing piped), first
/// says on stderr what is expected and how to end it, so the command does not seem to hang.
fn read_stdin(what: &str) -> Result<Vec<u8>, StdinError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("surgical: reading {what} from stdin; end it with Ctrl-D (Ctrl-Z then Enter on Windows)");
    }
    let mut input = Vec::new();
    match stdin.take(MAX_REQUEST_BYTES + 1).read_to_end(&mut input) {
        Ok(n) if n as u64 > MAX_REQUEST_BYTES => Err(StdinError::TooLarge(format!(
            "{what} on stdin is over {} MiB; split it into several calls",
            MAX_REQUEST_BYTES >> 20
        ))),
        Ok(_) => Ok(input),
        Err(e) => Err(StdinError::Io(format!("could not read stdin: {e}"))),
    }
}

/// Why stdin could not be read: too much of it (the caller's input is at fault), or I/O.
enum StdinError {
    TooLarge(String),
    Io(String),
}

impl StdinError {
    /// As a tool result of `surgical call`: `invalid_input` or `io`.
    fn into_result(self) -> ToolResult {
        ToolResult::Error(match self {
            StdinError::TooLarge(message) => surgical_tool::ToolError::invalid_input(message),
            StdinError::Io(message) => surgical_tool::ToolError::new(surgical_tool::ErrorCode::Io, message),
        })
    }

    fn message(self) -> String {
        match self {
            StdinError::TooLarge(message) | StdinError::Io(message) => message,
        }
    }
}

/// Parses a size: a number of bytes, optionally followed by K, M, G or T (powers of 1024), with
/// or without `B`/`iB` after it and in either case (`64M`, `64MiB`, `64mb`, `1g`).
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, suffix) = text.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size: give bytes or a number with K, M, G or T (e.g. 64M)"))?;
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        other => {
            return Err(format!(
                "unknown size suffix `{other}`: use K, M, G or T (powers of 1024)"
            ))
        }
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large a size"))
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {}", term::escape_controls(message));
    ExitCode::from(2)
}

fn run_edit(args: EditArgs, color: ColorChoice) -> ExitCode {
    let (root, path) = match root::for_file(&args.file, args.root.as_deref()) {
        Ok(found) => found,
        Err(message) => return usage_error(&message),
    };
    let mut request = match (&args.old, &args.new, &args.edits) {
        (Some(old), Some(new), _) => {
            json!({"path": path, "oldText": old, "newText": new, "replaceAll": args.replace_all})
        }
        (_, _, Some(file)) => {
            let text = match read_input(file) {
                Ok(t) => t,
                Err(message) => return usage_error(&message),
            };
            if text.trim().is_empty() {
                return usage_error(&format!("{} is empty: expected the edits as JSON", shown_name(file)));
            }
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Array(edits)) => json!({"path": path, "edits": edits}),
                Ok(Value::Object(mut obj)) => {
                    obj.insert("path".into(), Value::String(path.clone()));
                    Value::Object(obj)
                }
                Ok(_) => {
                    return usage_error(&format!(
                        "{}: expected an array of edits or an object",
                        shown_name(file)
                    ))
                }
                Err(e) => return usage_error(&format!("{} is not valid JSON: {e}", shown_name(file))),
            }
        }
        _ => return usage_error("give --old and --new, or --edits FILE.json"),
    };
    if args.dry_run {
        request["dryRun"] = Value::Bool(true);
    }
    if let Some(tier) = &args.max_strategy {
        request["maxStrategy"] = Value::String(tier.clone());
    }
    // --old/--new: hints name the flags; --edits is JSON, whose keys the tool's words name.
    let mut config = args.limits.config(&root);
    if args.old.is_some() {
        config = config.words(surgical_tool::Words::CommandLine);
    }
    let result = {
        let _spinner = progress::Spinner::start(format!("editing {path}"));
        surgical_tool::call_with("edit", &request, &config)
    };
    show(&result, args.json, color, &root)
}

fn run_snippet(args: SnippetArgs, color: ColorChoice) -> ExitCode {
    let (root, path) = match root::for_file(&args.file, args.root.as_deref()) {
        Ok(found) => found,
        Err(message) => return usage_error(&message),
    };
    let snippet = match read_input(&args.snippet) {
        Ok(t) => t,
        Err(message) => return usage_error(&message),
    };
    let request = json!({"path": path, "snippet": snippet, "dryRun": args.dry_run});
    let config = args.limits.config(&root);
    let result = {
        let _spinner = progress::Spinner::start(format!("merging into {path}"));
        surgical_tool::call_with("apply_snippet", &request, &config)
    };
    show(&result, args.json, color, &root)
}

fn run_undo(args: UndoArgs, color: ColorChoice) -> ExitCode {
    let Some(file) = &args.file else {
        return run_undo_list(&args);
    };
    let (root, path) = match root::for_file(file, args.root.as_deref()) {
        Ok(found) => found,
        Err(message) => return usage_error(&message),
    };
    let result = surgical_tool::call("undo", &json!({ "path": path }), &root);
    show(&result, args.json, color, &root)
}

fn run_undo_list(args: &UndoArgs) -> ExitCode {
    let root = match root::for_cwd(args.root.as_deref()) {
        Ok(root) => root,
        Err(message) => return usage_error(&message),
    };
    let steps = match surgical_tool::undo_history(&surgical_tool::Config::new(&root)) {
        Ok(steps) => steps,
        Err(e) => return usage_error(&e.message),
    };
    if args.json {
        println!("{}", serde_json::to_string(&steps).expect("steps serialize"));
        return ExitCode::SUCCESS;
    }
    let mut out = std::io::stdout().lock();
    if steps.is_empty() {
        let _ = writeln!(
            out,
            "Nothing to undo in {}.",
            term::escape_controls(&root.display().to_string())
        );
        return ExitCode::SUCCESS;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let _ = writeln!(
        out,
        "What `surgical undo FILE` can take back in {}, newest first (one call per undo):",
        term::escape_controls(&root.display().to_string())
    );
    for step in &steps {
        let _ = writeln!(out, "\n{} ({} ago):", step.tool, ago(now.saturating_sub(step.time)));
        for f in &step.files {
            let state = if f.unchanged {
                ""
            } else {
                "  [changed since: undo refused]"
            };
            let _ = writeln!(out, "  {:<8} {}{state}", f.undo, term::escape_controls(&f.path));
        }
    }
    ExitCode::SUCCESS
}

/// A duration in words, roughly.
fn ago(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min", secs / 60),
        3600..=86_399 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}

fn run_apply(args: ApplyArgs, color: ColorChoice) -> ExitCode {
    let patch = match read_input(&args.patch) {
        Ok(patch) => patch,
        Err(message) => return usage_error(&message),
    };
    if patch.trim().is_empty() {
        return usage_error(&format!("{} is empty: expected a patch", shown_name(&args.patch)));
    }
    let mut request = json!({"patch": patch, "dryRun": args.dry_run});
    for (key, value) in [
        ("format", &args.format),
        ("path", &args.path),
        ("maxStrategy", &args.max_strategy),
    ] {
        if let Some(v) = value {
            request[key] = Value::String(v.clone());
        }
    }
    let root = match root::for_cwd(args.root.as_deref()) {
        Ok(root) => root,
        Err(message) => return usage_error(&message),
    };
    let result = {
        let _spinner = progress::Spinner::start("applying the patch".to_string());
        surgical_tool::call_with("apply_patch", &request, &args.limits.config(&root))
    };
    show(&result, args.json, color, &root)
}

/// What a person at the command line can do about an error, in the command's flags: the tool's
/// message speaks to a model, which has no flags.
fn cli_hint(e: &surgical_tool::ToolError, root: &std::path::Path) -> String {
    match e.code {
        surgical_tool::ErrorCode::OutsideRoot if !e.message.contains("undo journal") => format!(
            "\nThe root is {}; to allow this path, give --root DIR with a directory that holds it.",
            root.display()
        ),
        surgical_tool::ErrorCode::TooLarge => {
            "\nRaise the limit with --max-file-size SIZE (e.g. --max-file-size 2G).".to_string()
        }
        _ => String::new(),
    }
}

/// Prints a result for a person (the summary and colored diffs; errors on stderr), or the JSON
/// result object with `--json`, and returns the exit status. Everything printed for a person goes
/// through a [`term::Painter`], which escapes the control characters a file may hold.
fn show(result: &ToolResult, json: bool, color: ColorChoice, root: &std::path::Path) -> ExitCode {
    if json {
        println!("{}", result.to_json());
        return exit_for(result);
    }
    let painter = Painter::stdout(color);
    let mut out = std::io::stdout().lock();
    match result {
        ToolResult::Edit(s) => {
            let (summary, _) = s.text.split_once("\n\n").unwrap_or((&s.text, ""));
            let _ = writeln!(out, "{}\n", painter.paint(summary, "1"));
            let _ = write!(out, "{}", painter.diff(&s.diff));
        }
        ToolResult::Snippet(s) => {
            let (summary, _) = s.edit.text.split_once("\n\n").unwrap_or((&s.edit.text, ""));
            let _ = writeln!(out, "{}\n", painter.paint(summary, "1"));
            let _ = write!(out, "{}", painter.diff(&s.edit.diff));
        }
        ToolResult::Patch(s) => {
            let (summary, _) = s.text.split_once("\n\n").unwrap_or((&s.text, ""));
            let _ = writeln!(out, "{}", painter.paint(summary.trim_end(), "1"));
            let shown = s
                .files
                .iter()
                .filter(|f| !f.diff.is_empty() && f.action != "add" && f.action != "delete");
            for file in shown {
                let name = format!("--- {}", file.moved_to.as_ref().unwrap_or(&file.path));
                let _ = writeln!(out, "\n{}", painter.paint(&name, "1"));
                let _ = write!(out, "{}", painter.diff(&file.diff));
            }
        }
        ToolResult::Error(e) => {
            let painter = Painter::stderr(color);
            eprintln!(
                "{} {}{}",
                painter.paint(&format!("error ({}):", e.code), "1;31"),
                painter.paint(&e.message, ""),
                painter.paint(&cli_hint(e, root), "")
            );
        }
        _ => {
            let _ = write!(out, "{}", painter.paint(&result.text(), ""));
        }
    }
    exit_for(result)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_binary_suffixes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("64mib"), Ok(64 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("2 KB"), Ok(2048));
        assert!(parse_size("1X").unwrap_err().contains("unknown size suffix"));
        assert!(parse_size("M").is_err() && parse_size("").is_err());
        assert!(parse_size("99999999999T").unwrap_err().contains("too large"));
    }
}
