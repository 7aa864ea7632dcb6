//! The syntax check after every writing call (issue 34), through `call_with` as `surgical call`
//! runs it: reported by default, refused on request (nothing written), off on request; for
//! `edit`, `write` over a file, `apply_patch` and `apply_snippet`.

use serde_json::{json, Value};
use surgical_tool::{call_with, Config, OnSyntaxError};

const RUST: &str = "fn a() {\n    let x = 1;\n}\n\nfn b() {}\n";

fn setup(name: &str, text: &str) -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let config = Config::new(dir.path());
    (dir, config)
}

fn run(tool: &str, input: Value, config: &Config) -> Value {
    call_with(tool, &input, config).to_json()
}

fn breaking_edit() -> Value {
    json!({"path": "x.rs", "oldText": "    let x = 1;\n}", "newText": "    let x = 2;"})
}

#[test]
fn an_edit_that_breaks_the_syntax_is_written_and_reported() {
    let (dir, config) = setup("x.rs", RUST);
    let r = run("edit", breaking_edit(), &config);
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["syntaxCheck"], "checked: rust");
    let errors = r["syntaxErrors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{r}");
    assert_eq!(errors[0]["line"], 1);
    assert_eq!(errors[0]["column"], 8);
    assert_eq!(
        errors[0]["message"],
        "`{` opened here is never closed (its `}` probably belongs before line 4)"
    );
    let text = r["text"].as_str().unwrap();
    assert!(
        text.contains("Syntax: this call introduced 1 syntax error (rust):\n  line 1: `{` opened here is never closed"),
        "{text}"
    );
    // Before the diff, which follows a blank line.
    assert!(text.find("Syntax:").unwrap() < text.find("\n\n").unwrap(), "{text}");
    let written = std::fs::read_to_string(dir.path().join("x.rs")).unwrap();
    assert_eq!(written, "fn a() {\n    let x = 2;\n\nfn b() {}\n");
}

#[test]
fn a_clean_edit_reports_an_empty_list() {
    let (_dir, config) = setup("x.rs", RUST);
    let r = run(
        "edit",
        json!({"path": "x.rs", "oldText": "let x = 1;", "newText": "let x = (1 + 2);"}),
        &config,
    );
    assert_eq!(r["syntaxErrors"], json!([]));
    assert_eq!(r["syntaxCheck"], "checked: rust");
    assert!(!r["text"].as_str().unwrap().contains("Syntax"));
}

#[test]
fn refuse_writes_nothing_and_lists_the_errors() {
    let (dir, config) = setup("x.rs", RUST);
    let mut input = breaking_edit();
    input["onSyntaxError"] = json!("refuse");
    let r = run("edit", input, &config);
    assert_eq!(r["ok"], false);
    assert_eq!(r["error"]["code"], "syntax_error");
    assert_eq!(r["error"]["lines"], json!([1]));
    // The errors as a report lists them, for a harness to read without parsing the message.
    let mut report = breaking_edit();
    report["dryRun"] = json!(true);
    let reported = run("edit", report, &config);
    assert_eq!(reported["ok"], true, "{reported}");
    assert_eq!(r["error"]["syntaxErrors"], reported["syntaxErrors"]);
    assert_eq!(r["error"]["syntaxErrors"][0]["line"], 1);
    assert!(r["error"].get("files").is_none(), "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("x.rs: the call would introduce 1 syntax error, so nothing was written:\n  line 1: `{`"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("x.rs")).unwrap(), RUST);
    // The same from the config (the server's or command line's option).
    let r = run(
        "edit",
        breaking_edit(),
        &config.clone().on_syntax_error(OnSyntaxError::Refuse),
    );
    assert_eq!(r["error"]["code"], "syntax_error");
    assert_eq!(std::fs::read_to_string(dir.path().join("x.rs")).unwrap(), RUST);
    // A call's option wins over the config's.
    let mut input = breaking_edit();
    input["onSyntaxError"] = json!("report");
    let r = run("edit", input, &config.on_syntax_error(OnSyntaxError::Refuse));
    assert_eq!(r["ok"], true);
}

#[test]
fn off_checks_nothing() {
    let (_dir, config) = setup("x.rs", RUST);
    let mut input = breaking_edit();
    input["onSyntaxError"] = json!("off");
    let r = run("edit", input, &config);
    assert_eq!(r["ok"], true);
    assert!(r.get("syntaxErrors").is_none() && r.get("syntaxCheck").is_none(), "{r}");
}

#[test]
fn a_null_option_is_the_option_left_out() {
    // Strict-mode clients (OpenAI's) send null for every optional argument they leave out.
    let (_dir, config) = setup("x.rs", RUST);
    let mut input = breaking_edit();
    input["onSyntaxError"] = Value::Null;
    let r = run(
        "edit",
        input.clone(),
        &config.clone().on_syntax_error(OnSyntaxError::Refuse),
    );
    assert_eq!(r["error"]["code"], "syntax_error", "{r}");
    let r = run("edit", input, &config);
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["syntaxErrors"].as_array().map(Vec::len), Some(1), "{r}");
}

#[test]
fn a_bad_option_is_invalid_input() {
    let (_dir, config) = setup("x.rs", RUST);
    let mut input = breaking_edit();
    input["onSyntaxError"] = json!("warn");
    let r = run("edit", input, &config);
    assert_eq!(r["error"]["code"], "invalid_input");
}

#[test]
fn an_unknown_language_is_skipped_and_said_so() {
    let (_dir, config) = setup("notes.txt", "a {\nb\n");
    let r = run(
        "edit",
        json!({"path": "notes.txt", "oldText": "b", "newText": "c"}),
        &config,
    );
    assert!(r.get("syntaxErrors").is_none(), "{r}");
    assert_eq!(r["syntaxCheck"], "skipped: no grammar for this file's language");
}

#[test]
fn a_file_over_the_limit_is_skipped_and_said_so() {
    let big = format!("fn a() {{}}\n{}", "// filler line\n".repeat(80_000));
    let (_dir, config) = setup("big.rs", &big);
    let r = run(
        "edit",
        json!({"path": "big.rs", "oldText": "fn a() {}", "newText": "fn a() {"}),
        &config,
    );
    assert_eq!(r["ok"], true);
    assert!(r.get("syntaxErrors").is_none(), "{r}");
    assert_eq!(r["syntaxCheck"], "skipped: file over 1 MiB (1048576 bytes)");
    assert!(r["text"]
        .as_str()
        .unwrap()
        .contains("Syntax not checked: file over 1 MiB"));
}

#[test]
fn write_over_a_file_is_checked_and_a_new_file_is_not() {
    let (dir, config) = setup("x.py", "def f():\n    return 1\n");
    let r = run(
        "write",
        json!({"path": "x.py", "content": "def f():\n    return (1\n"}),
        &config,
    );
    assert_eq!(r["ok"], true);
    assert_eq!(r["syntaxErrors"].as_array().unwrap().len(), 1, "{r}");
    assert_eq!(r["syntaxErrors"][0]["line"], 2);
    let r = run(
        "write",
        json!({"path": "x.py", "content": "def f(:\n", "onSyntaxError": "refuse"}),
        &config,
    );
    assert_eq!(r["error"]["code"], "syntax_error");
    assert_eq!(r["error"]["syntaxErrors"][0]["line"], 1, "{r}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("x.py")).unwrap(),
        "def f():\n    return (1\n"
    );
    let r = run("write", json!({"path": "new.py", "content": "def f(:\n"}), &config);
    assert_eq!(r["ok"], true);
    assert!(r.get("syntaxErrors").is_none() && r.get("syntaxCheck").is_none(), "{r}");
}

#[test]
fn apply_patch_reports_per_file_and_refuses_the_whole_call() {
    let (dir, config) = setup("x.rs", RUST);
    std::fs::write(dir.path().join("y.json"), "{\n  \"a\": 1,\n  \"b\": 2\n}\n").unwrap();
    let patch = "*** Begin Patch\n*** Update File: x.rs\n@@\n-    let x = 1;\n+    let x = 3;\n*** Update File: y.json\n@@\n-  \"a\": 1,\n+  \"a\": 1\n*** End Patch\n";
    let r = run("apply_patch", json!({"patch": patch, "dryRun": true}), &config);
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["files"][0]["syntaxErrors"], json!([]));
    assert_eq!(r["files"][1]["syntaxCheck"], "checked: json");
    assert_eq!(r["files"][1]["syntaxErrors"][0]["message"], "missing `,` here");
    assert!(r["text"]
        .as_str()
        .unwrap()
        .contains("  Syntax: this call introduced 1 syntax error (json):"));
    let r = run(
        "apply_patch",
        json!({"patch": patch, "onSyntaxError": "refuse"}),
        &config,
    );
    assert_eq!(r["error"]["code"], "syntax_error", "{r}");
    assert_eq!(r["error"]["path"], "y.json");
    // Each refused file with its errors, as the report's `files[]` lists them.
    assert_eq!(r["error"]["syntaxErrors"][0]["message"], "missing `,` here");
    assert_eq!(
        r["error"]["files"],
        json!([{"path": "y.json", "syntaxErrors": r["error"]["syntaxErrors"]}])
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("x.rs")).unwrap(), RUST);
}

#[test]
fn apply_snippet_is_checked() {
    let (_dir, config) = setup("x.rs", RUST);
    let snippet = "fn a() {\n    let x = 1;\n    if x > 0 {\n}\n";
    let r = run(
        "apply_snippet",
        json!({"path": "x.rs", "snippet": snippet, "dryRun": true}),
        &config,
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["syntaxCheck"], "checked: rust");
    assert_eq!(r["syntaxErrors"].as_array().unwrap().len(), 1, "{r}");
}

#[test]
fn the_text_editor_tool_is_checked() {
    let (dir, config) = setup("x.rs", RUST);
    let r = run(
        "text_editor",
        json!({"command": "str_replace", "path": "x.rs", "old_str": "    let x = 1;\n}", "new_str": "    let x = 2;"}),
        &config,
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["syntaxErrors"].as_array().map(Vec::len), Some(1), "{r}");
    assert!(
        r["text"]
            .as_str()
            .unwrap()
            .contains("Syntax: this call introduced 1 syntax error (rust):"),
        "{r}"
    );
    // On a clean file (the one above is broken now: what is new there is in a stretch it had).
    std::fs::write(dir.path().join("y.rs"), RUST).unwrap();
    let r = run(
        "text_editor",
        json!({"command": "insert", "path": "y.rs", "insert_line": 0, "new_str": "fn c( {}", "onSyntaxError": "refuse"}),
        &config,
    );
    assert_eq!(r["error"]["code"], "syntax_error", "{r}");
    assert_eq!(r["error"]["syntaxErrors"][0]["line"], 1, "{r}");
    assert_eq!(std::fs::read_to_string(dir.path().join("y.rs")).unwrap(), RUST);
}
