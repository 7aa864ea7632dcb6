//! Fuzzing the request parser and the engine behind it: arbitrary JSON shaped like tool calls,
//! and arbitrary bytes, never panic, and every failure carries a known error code.
//!
//! CI runs the default number of cases. For a long run (minutes to hours):
//!
//! ```sh
//! PROPTEST_CASES=200000 cargo test --release -p surgical-tool --test fuzz
//! ```

use proptest::prelude::*;
use serde_json::{Map, Value};

fn is_known_code(code: &str) -> bool {
    surgical_tool::ErrorCode::ALL.iter().any(|c| c.as_str() == code)
}

const KEYS: [&str; 16] = [
    "path",
    "file_path",
    "edits",
    "oldText",
    "newText",
    "old_string",
    "new_string",
    "oldString",
    "newString",
    "replaceAll",
    "replace_all",
    "dryRun",
    "maxStrategy",
    "expectedHash",
    "x",
    "",
];

/// Strings that matter to the engine: pieces of the target file, line breaks, invisible and
/// typographic characters, escapes, and other paths.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("a".to_string()),
        Just("line one".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\u{a0}".to_string()),
        Just("\u{2014}".to_string()),
        Just("\u{FFFD}".to_string()),
        Just("\u{301}".to_string()),
        Just("f.txt".to_string()),
        Just("../f.txt".to_string()),
        Just("exact".to_string()),
        Just("unicode".to_string()),
        "[ -~]{0,8}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| v.concat())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS.to_vec()), inner.clone()), 0..6).prop_map(|kv| {
                let mut m = Map::new();
                for (k, v) in kv {
                    m.insert(k.to_string(), v);
                }
                Value::Object(m)
            }),
            // Edits given as a JSON string.
            prop::collection::vec(inner, 0..3).prop_map(|v| Value::String(Value::Array(v).to_string())),
        ]
    })
}

fn check(result: surgical_tool::ToolResult) -> Result<(), TestCaseError> {
    let json = result.to_json();
    if json["ok"] == Value::Bool(false) {
        let code = json["error"]["code"].as_str().unwrap_or("");
        prop_assert!(is_known_code(code), "unknown code {code}: {json}");
        prop_assert!(!json["error"]["message"].as_str().unwrap_or("").is_empty());
    }
    Ok(())
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("f.txt"),
        "line one\r\nline\u{a0}two \u{2014} a\nline one  \n\u{FFFD}a",
    )
    .unwrap();
    dir
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn shaped_calls_never_panic(mut call in json_value(), old in text(), new in text(), path in prop::sample::select(vec!["f.txt", "../f.txt", "missing", ".", ""])) {
        let dir = workspace();
        for tool in ["edit", "undo", "nope"] {
            check(surgical_tool::call(tool, &call, dir.path()))?;
        }
        // Also with a valid path and edit, so the engine sees arbitrary oldText/newText.
        if let Value::Object(m) = &mut call {
            m.insert("path".into(), Value::String(path.into()));
            m.insert("oldText".into(), Value::String(old));
            m.insert("newText".into(), Value::String(new));
            m.remove("edits");
        }
        check(surgical_tool::call("edit", &call, dir.path()))?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let dir = workspace();
        if let Ok(v) = serde_json::from_slice::<Value>(&bytes) {
            check(surgical_tool::call("edit", &v, dir.path()))?;
        }
    }
}
