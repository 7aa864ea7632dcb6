//! What an edit returns stays within a model's context whatever the file: lines in `text`, `diff`
//! and `patch` cut with a marker, the whole of each capped, and `patchTruncated` when the patch no
//! longer applies.

use serde_json::{json, Value};

fn edit(dir: &std::path::Path, call: Value) -> Value {
    let result = surgical_tool::call("edit", &call, dir).to_json();
    assert_eq!(result["ok"], Value::Bool(true), "{result}");
    result
}

#[test]
fn an_edit_of_a_one_line_minified_file_returns_bounded_output() {
    let dir = tempfile::tempdir().unwrap();
    let line: String = (0..120_000).map(|i| format!("v{i}=1;")).collect();
    let original = format!("{line}\n");
    assert!(original.len() > 1_000_000);
    std::fs::write(dir.path().join("min.js"), &original).unwrap();
    let result = edit(
        dir.path(),
        json!({"path": "min.js", "oldText": "v60000=1;", "newText": "v60000=2;"}),
    );
    // The file is edited in full.
    let now = std::fs::read_to_string(dir.path().join("min.js")).unwrap();
    assert_eq!(now, original.replace("v60000=1;", "v60000=2;"));
    for field in ["text", "diff", "patch"] {
        let shown = result[field].as_str().unwrap();
        assert!(shown.len() < 20_000, "{field}: {} bytes", shown.len());
        assert!(shown.contains("[... line cut here: "), "{field}: {shown}");
        assert!(shown.lines().all(|l| l.chars().count() < 2100), "{field}");
    }
    assert_eq!(result["patchTruncated"], Value::Bool(true));
    // The structured result repeats no megabytes either.
    assert!(result.to_string().len() < 100_000);
}

#[test]
fn an_edit_of_many_lines_caps_text_diff_and_patch() {
    let dir = tempfile::tempdir().unwrap();
    // Lines added after one line of the file: a diff and a patch of about 600 KiB.
    let added: String = (0..20_000).map(|i| format!("line {i} of the new text\n")).collect();
    std::fs::write(dir.path().join("f.txt"), "start\nend\n").unwrap();
    let result = edit(
        dir.path(),
        json!({"path": "f.txt", "oldText": "start\n", "newText": format!("start\n{added}")}),
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        format!("start\n{added}end\n")
    );
    assert!(result["text"].as_str().unwrap().len() <= 64 * 1024 + 200);
    for field in ["diff", "patch"] {
        let shown = result[field].as_str().unwrap();
        assert!(shown.len() <= 256 * 1024 + 200, "{field}: {}", shown.len());
        assert!(
            shown.contains("more lines not shown: this output is capped at 256 KiB"),
            "{field}"
        );
    }
    assert_eq!(result["patchTruncated"], Value::Bool(true));
}

#[test]
fn a_small_edit_returns_a_whole_patch() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "one\ntwo\n").unwrap();
    let result = edit(dir.path(), json!({"path": "f.txt", "oldText": "two", "newText": "2"}));
    assert_eq!(result["patchTruncated"], Value::Bool(false));
    assert!(result["patch"].as_str().unwrap().contains("-two\n+2\n"));
}

/// Past the work budget (forced to nothing here) the engine aligns coarsely: the result says so in
/// `coarseAlignment` and in words, and lines the model did not change keep the file's bytes.
#[test]
fn a_coarse_alignment_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let original = "let s = “a”;\r\nlet n = 1; let m = 2;\r\nend\r\n";
    std::fs::write(dir.path().join("f.js"), original).unwrap();
    let call = json!({"path": "f.js", "oldText": "let s = \"a\";\nlet n = 1; let m = 2;", "newText": "let s = \"a\";\nlet n = 3; let m = 4;"});
    let result = surgical_core::with_work_budget(0, || edit(dir.path(), call));
    let report = &result["edits"][0];
    assert_eq!(report["coarseAlignment"], Value::Bool(true), "{result}");
    let notes = report["normalized"].to_string();
    assert!(notes.contains("coarser"), "{notes}");
    assert!(result["text"].as_str().unwrap().contains("coarser"), "{result}");
    let now = std::fs::read_to_string(dir.path().join("f.js")).unwrap();
    assert_eq!(now, "let s = “a”;\r\nlet n = 3; let m = 4;\r\nend\r\n");
    // With the default budget the same edit is aligned in detail and says nothing of it.
    std::fs::write(dir.path().join("f.js"), original).unwrap();
    let call = json!({"path": "f.js", "oldText": "let s = \"a\";\nlet n = 1; let m = 2;", "newText": "let s = \"a\";\nlet n = 3; let m = 4;"});
    let result = edit(dir.path(), call);
    assert!(result["edits"][0].get("coarseAlignment").is_none(), "{result}");
}
