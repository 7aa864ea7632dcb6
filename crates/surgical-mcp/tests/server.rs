//! The server's tool calls in process: tool failures are tool results with `isError`; only a tool
//! that does not exist is a protocol error.

use serde_json::{json, Map, Value};
use surgical_mcp::SurgicalServer;
use surgical_tool::Config;

fn args(v: Value) -> Option<Map<String, Value>> {
    match v {
        Value::Object(m) => Some(m),
        _ => None,
    }
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
        .block_on(f)
}

fn text_of(result: &rmcp::model::CallToolResult) -> String {
    serde_json::to_value(&result.content).unwrap()[0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn tool_results_and_protocol_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), b"one\r\ntwo\r\n").unwrap();
    let server = SurgicalServer::new(Config::new(dir.path()));

    let ok = block_on(server.call("edit", args(json!({"path": "a.txt", "oldText": "two", "newText": "2"})))).unwrap();
    assert_eq!(ok.is_error, Some(false));
    let structured = ok.structured_content.clone().unwrap();
    assert_eq!(structured["ok"], true);
    assert_eq!(structured["text"], text_of(&ok));
    assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"one\r\n2\r\n");

    // Failures of the tool: results the model reads.
    for (tool, arguments, code) in [
        (
            "edit",
            json!({"path": "a.txt", "oldText": "zzz", "newText": "y"}),
            "not_found",
        ),
        ("read", json!({"path": "missing.txt"}), "file_not_found"),
        ("read", json!({"path": "../x"}), "outside_root"),
        ("write", json!({"path": "a.txt"}), "invalid_input"),
    ] {
        let r = block_on(server.call(tool, args(arguments))).unwrap();
        assert_eq!(r.is_error, Some(true), "{tool}");
        let s = r.structured_content.clone().unwrap();
        assert_eq!(s["error"]["code"], code, "{s}");
        assert!(text_of(&r).starts_with(&format!("Error ({code}): ")), "{}", text_of(&r));
    }
    // No arguments at all: the tool says what is missing.
    let r = block_on(server.call("read", None)).unwrap();
    assert_eq!(r.structured_content.unwrap()["error"]["code"], "invalid_input");
    assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"one\r\n2\r\n");

    // A tool that does not exist: a protocol error (invalid params).
    let err = block_on(server.call("rm", args(json!({"path": "a.txt"})))).unwrap_err();
    assert_eq!(err.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    assert!(
        err.message.contains("read, edit, write, apply_patch, undo"),
        "{}",
        err.message
    );
}

#[test]
fn declared_constraints_are_enforced_and_the_instructions_name_the_absolute_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), b"one\n").unwrap();
    // A relative root, as `--root .` gives it: the instructions name it absolute.
    let server = SurgicalServer::new(Config::new(dir.path()));
    let root = dir.path().canonicalize().unwrap();
    assert_eq!(server.root(), root);
    let instructions = server.instructions();
    assert!(instructions.contains(&root.display().to_string()), "{instructions}");
    for tool in surgical_tool::TOOLS {
        assert!(instructions.contains(tool), "{tool}: {instructions}");
    }
    for (tool, arguments) in [
        ("read", json!({"path": "a.txt", "startLine": 0})),
        ("read", json!({"path": "a.txt", "limit": 0})),
        ("write", json!({"path": "a.txt", "content": "x", "lineEnding": "CRLF"})),
    ] {
        let r = block_on(server.call(tool, args(arguments.clone()))).unwrap();
        assert_eq!(r.is_error, Some(true), "{arguments}");
        assert_eq!(r.structured_content.unwrap()["error"]["code"], "invalid_input");
    }
    assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"one\n");
}

#[test]
fn a_call_cancelled_before_its_turn_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), b"one\r\n").unwrap();
    let server = SurgicalServer::new(Config::new(dir.path()));
    let control = surgical_mcp::CallControl::new();
    control.cancellation().cancel();
    let r = block_on(server.call_with(
        "edit",
        args(json!({"path": "a.txt", "oldText": "one", "newText": "1"})),
        &control,
    ))
    .unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(r.structured_content.clone().unwrap()["error"]["code"], "cancelled");
    assert!(text_of(&r).starts_with("Error (cancelled): "), "{}", text_of(&r));
    assert_eq!(std::fs::read(dir.path().join("a.txt")).unwrap(), b"one\r\n");
}

/// Every structured result conforms to the tool's output schema: the success shape and the error
/// shape are both in it (`oneOf`, discriminated by `ok`).
#[test]
fn output_schemas_describe_successes_and_errors() {
    for spec in surgical_tool::schema::TOOL_SPECS.iter() {
        let schema = surgical_mcp::output_schema(spec);
        assert_eq!(schema["type"], "object");
        let branches = schema["oneOf"].as_array().unwrap();
        assert_eq!(branches[0]["properties"]["ok"]["const"], true, "{}", spec.name);
        assert_eq!(branches[1], surgical_mcp::error_schema());
        assert_eq!(branches[1]["required"], json!(["ok", "text", "error"]));
    }
}
