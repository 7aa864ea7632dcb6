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
        err.message
            .contains("read, edit, write, apply_patch, apply_snippet, undo"),
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

/// A runtime with timers (the heartbeat needs them), as `run_stdio`'s.
fn block_on_timed<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// A file of about `mb` MB whose lines are all alike but for their number.
fn big_file(dir: &std::path::Path, mb: usize) -> Vec<u8> {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < mb << 20 {
        text.push_str(&format!("    let value_{i} = compute({i}, \"item-{i}\");\n"));
        i += 1;
    }
    std::fs::write(dir.join("big.txt"), &text).unwrap();
    text.into_bytes()
}

/// While a call runs, a heartbeat says it still runs (here every millisecond, so that a call of a
/// few milliseconds shows it): started, running, still running..., done, in increasing steps.
#[test]
fn a_running_call_reports_a_heartbeat() {
    let dir = tempfile::tempdir().unwrap();
    let before = big_file(dir.path(), 2);
    let server = SurgicalServer::new(Config::new(dir.path()));
    let (control, mut progress) = surgical_mcp::CallControl::recording(std::time::Duration::from_millis(1));
    // A miss whose every word is in the file: every tier runs, and the closest regions are sought.
    let old = "    let value_1 = compute(2, \"item-1\");\n    let value_3 = compute(3, \"item-2\");";
    let r = block_on_timed(server.call_with(
        "edit",
        args(json!({"path": "big.txt", "oldText": old, "newText": "x"})),
        &control,
    ))
    .unwrap();
    assert_eq!(r.structured_content.clone().unwrap()["error"]["code"], "not_found");
    assert_eq!(std::fs::read(dir.path().join("big.txt")).unwrap(), before);
    let mut seen = Vec::new();
    while let Ok(p) = progress.try_recv() {
        seen.push(p);
    }
    let messages: Vec<&str> = seen.iter().map(|p| p.message.as_deref().unwrap()).collect();
    assert_eq!(
        messages[..2],
        ["edit big.txt: started", "edit big.txt: running"],
        "{messages:?}"
    );
    assert_eq!(
        messages.last(),
        Some(&"edit big.txt: failed (not_found)"),
        "{messages:?}"
    );
    let beats = &messages[2..messages.len() - 1];
    assert!(!beats.is_empty(), "{messages:?}");
    assert!(beats
        .iter()
        .all(|m| m.starts_with("edit big.txt: still running (") && m.ends_with(" s)")));
    assert!(seen.windows(2).all(|w| w[1].progress > w[0].progress));
    let last = seen.last().unwrap();
    assert_eq!(last.total, Some(last.progress));
    assert!(seen[..seen.len() - 1].iter().all(|p| p.total.is_none()));
}

/// A call cancelled while it runs (here as soon as it says it runs) ends `cancelled`, and the file
/// is untouched: the tool checks the cancellation before its first write.
#[test]
fn a_call_cancelled_while_it_runs_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let before = big_file(dir.path(), 2);
    let server = SurgicalServer::new(Config::new(dir.path()));
    let (control, mut progress) = surgical_mcp::CallControl::recording(std::time::Duration::from_millis(50));
    // Found only by the `indentation` tier: every text tier runs first.
    let edit = json!({"path": "big.txt", "oldText": "\tlet value_1000 = compute(1000, \"item-1000\");", "newText": "\tlet value_1000 = 0;"});
    let cancel = async {
        while let Some(p) = progress.recv().await {
            if p.message.as_deref() == Some("edit big.txt: running") {
                control.cancellation().cancel();
                break;
            }
        }
    };
    let (r, ()) = block_on_timed(async { tokio::join!(server.call_with("edit", args(edit), &control), cancel) });
    let r = r.unwrap();
    assert_eq!(r.is_error, Some(true));
    assert_eq!(
        r.structured_content.clone().unwrap()["error"]["code"],
        "cancelled",
        "{}",
        text_of(&r)
    );
    assert_eq!(std::fs::read(dir.path().join("big.txt")).unwrap(), before);
    // Not cancelled, the same edit is made.
    let r = block_on_timed(server.call(
        "edit",
        args(json!({"path": "big.txt", "oldText": "\tlet value_1000 = compute(1000, \"item-1000\");", "newText": "\tlet value_1000 = 0;"})),
    ))
    .unwrap();
    assert_eq!(r.is_error, Some(false), "{}", text_of(&r));
    let after = std::fs::read_to_string(dir.path().join("big.txt")).unwrap();
    assert!(after.contains("\n    let value_1000 = 0;\n"), "{}", &after[..200]);
}
