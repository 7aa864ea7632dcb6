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
