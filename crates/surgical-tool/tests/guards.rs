//! Issue 10's guards through the tools: omission placeholders, conflicts under `similar`, a NUL in a
//! path, an `expectedHash` that is no SHA-256. Each refusal leaves the file as it was.

use std::fs;
use std::path::Path;

use serde_json::{json, Value};
use surgical_tool::{call, ToolResult};

fn fails(tool: &str, root: &Path, input: Value, code: &str) -> String {
    let result = call(tool, &input, root);
    let ToolResult::Error(e) = &result else {
        panic!("{tool} {input} should fail with {code}: {}", result.text());
    };
    assert_eq!(e.code, code, "{}", e.message);
    e.message.clone()
}

#[test]
fn placeholder_in_new_text_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let before = "fn a() {\n    one();\n    two();\n}\n";
    fs::write(dir.path().join("a.rs"), before).unwrap();
    let message = fails(
        "edit",
        dir.path(),
        json!({"path": "a.rs", "oldText": "    one();\n    two();", "newText": "    one();\n    // ... existing code ..."}),
        "placeholder",
    );
    assert!(
        message.contains("// ... existing code ...") && message.contains("line 2"),
        "{message}"
    );
    assert_eq!(fs::read_to_string(dir.path().join("a.rs")).unwrap(), before);
}

#[test]
fn similar_conflict_names_the_line_and_both_versions() {
    let dir = tempfile::tempdir().unwrap();
    let before = "first line = 1;\nlet total = compute(items, x);\nsecond line = 2;\n";
    fs::write(dir.path().join("a.rs"), before).unwrap();
    let message = fails(
        "edit",
        dir.path(),
        json!({
            "path": "a.rs",
            "oldText": "first line = 1;\nlet total = compute(itemz, x);\nsecond line = 2;",
            "newText": "first line = 1;\nlet total = compute(itemq, x);\nsecond line = 2;",
            "maxStrategy": "similar"
        }),
        "conflict",
    );
    assert!(
        message.contains("line 2") && message.contains("compute(items, x)") && message.contains("compute(itemz, x)"),
        "{message}"
    );
    assert_eq!(fs::read_to_string(dir.path().join("a.rs")).unwrap(), before);
}

#[test]
fn malformed_paths_and_hashes_are_invalid_input() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "x\n").unwrap();
    for tool in ["read", "undo"] {
        fails(tool, dir.path(), json!({"path": "a\u{0}.txt"}), "invalid_input");
    }
    fails(
        "edit",
        dir.path(),
        json!({"path": "a\u{0}.txt", "oldText": "x", "newText": "y"}),
        "invalid_input",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "b\u{0}.txt", "content": "y"}),
        "invalid_input",
    );
    for hash in ["00", "not a hash", &"g".repeat(64), &"0".repeat(65)] {
        fails(
            "edit",
            dir.path(),
            json!({"path": "a.txt", "oldText": "x", "newText": "y", "expectedHash": hash}),
            "invalid_input",
        );
        fails(
            "write",
            dir.path(),
            json!({"path": "a.txt", "content": "y", "expectedHash": hash}),
            "invalid_input",
        );
    }
    // A well-formed hash that differs is still `stale`.
    fails(
        "edit",
        dir.path(),
        json!({"path": "a.txt", "oldText": "x", "newText": "y", "expectedHash": "0".repeat(64)}),
        "stale",
    );
    assert_eq!(fs::read_to_string(dir.path().join("a.txt")).unwrap(), "x\n");
}

#[test]
fn lines_pasted_from_surgicals_own_read_view_are_found() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.rs"), "fn a() {\r\n    one();\r\n    two();\r\n}\r\n").unwrap();
    let read = call("read", &json!({"path": "a.rs"}), dir.path());
    assert!(read.is_ok(), "{}", read.text());
    let text = read.text();
    // The view's lines 2 and 3, numbers and all, as a model copies them.
    let view: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("2\t") || l.starts_with("3\t"))
        .collect();
    assert_eq!(view.len(), 2, "{text}");
    let old = view.join("\n");
    let new = format!("{}\n3\t    three();", view[0]);
    let result = call(
        "edit",
        &json!({"path": "a.rs", "oldText": old, "newText": new}),
        dir.path(),
    );
    assert!(result.is_ok(), "{}", result.text());
    assert!(result.text().contains("line number"), "{}", result.text());
    assert_eq!(
        fs::read_to_string(dir.path().join("a.rs")).unwrap(),
        "fn a() {\r\n    one();\r\n    three();\r\n}\r\n"
    );
}
