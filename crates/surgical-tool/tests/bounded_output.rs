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

/// A one-line minified file of about 1.2 MB, and the same file with one statement changed.
fn minified_pair() -> (String, String) {
    let line: String = (0..120_000).map(|i| format!("v{i}=1;")).collect();
    let original = format!("{line}\n");
    assert!(original.len() > 1_000_000);
    let changed = original.replace("v60000=1;", "v60000=2;");
    (original, changed)
}

fn assert_bounded(result: &Value, fields: &[&str]) {
    for field in fields {
        let shown = result[field].as_str().unwrap();
        assert!(shown.len() < 20_000, "{field}: {} bytes", shown.len());
        assert!(shown.contains("[... line cut here: "), "{field}: {shown}");
        assert!(shown.lines().all(|l| l.chars().count() < 2100), "{field}");
    }
}

#[test]
fn a_write_of_a_one_line_minified_file_returns_bounded_output() {
    let dir = tempfile::tempdir().unwrap();
    let (original, changed) = minified_pair();
    let write = |content: &str| {
        let result = surgical_tool::call("write", &json!({"path": "min.js", "content": content}), dir.path()).to_json();
        assert_eq!(result["ok"], Value::Bool(true), "{result}");
        result
    };
    // Created: the result tells how much was written, never the content.
    let created = write(&original);
    assert_eq!(std::fs::read_to_string(dir.path().join("min.js")).unwrap(), original);
    assert!(created.to_string().len() < 10_000, "{created}");
    assert_eq!(created["patchTruncated"], Value::Bool(false));
    // Replaced: diff and patch of the one line, cut.
    let replaced = write(&changed);
    assert_eq!(std::fs::read_to_string(dir.path().join("min.js")).unwrap(), changed);
    assert_bounded(&replaced, &["text", "diff", "patch"]);
    assert_eq!(replaced["patchTruncated"], Value::Bool(true));
    // The structured result (MCP's structuredContent) repeats no megabytes either.
    assert!(replaced.to_string().len() < 100_000);
}

#[test]
fn a_patch_of_a_one_line_minified_file_returns_bounded_output() {
    let dir = tempfile::tempdir().unwrap();
    let (original, changed) = minified_pair();
    std::fs::write(dir.path().join("min.js"), &original).unwrap();
    let patch = format!(
        "*** Begin Patch\n*** Update File: min.js\n@@\n-{}\n+{}\n*** End Patch\n",
        original.trim_end(),
        changed.trim_end()
    );
    let result = surgical_tool::call("apply_patch", &json!({ "patch": patch }), dir.path()).to_json();
    assert_eq!(result["ok"], Value::Bool(true), "{result}");
    assert_eq!(std::fs::read_to_string(dir.path().join("min.js")).unwrap(), changed);
    assert_bounded(&result, &["text", "patch"]);
    assert_bounded(&result["files"][0], &["diff", "patch"]);
    assert_eq!(result["patchTruncated"], Value::Bool(true));
    assert_eq!(result["files"][0]["patchTruncated"], Value::Bool(true));
    assert!(result.to_string().len() < 100_000);
}

#[test]
fn the_files_of_a_patch_share_one_cap_and_small_patches_stay_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Eight files, each given about 100 KiB of new lines: 800 KiB of diffs in all.
    let added: String = (0..4_000).map(|i| format!("line {i} of the new text\n")).collect();
    let mut patch = String::from("*** Begin Patch\n");
    for f in 0..8 {
        patch.push_str(&format!("*** Add File: f{f}.txt\n"));
        for line in added.lines() {
            patch.push_str(&format!("+{line}\n"));
        }
    }
    patch.push_str("*** Update File: small.txt\n@@\n-two\n+2\n*** End Patch\n");
    std::fs::write(dir.path().join("small.txt"), "one\ntwo\n").unwrap();
    let result = surgical_tool::call("apply_patch", &json!({ "patch": patch }), dir.path()).to_json();
    assert_eq!(result["ok"], Value::Bool(true), "{result}");
    for f in 0..8 {
        assert_eq!(
            std::fs::read_to_string(dir.path().join(format!("f{f}.txt"))).unwrap(),
            added
        );
    }
    let files = result["files"].as_array().unwrap();
    let total = |field: &str| files.iter().map(|f| f[field].as_str().unwrap().len()).sum::<usize>();
    assert!(total("diff") <= 256 * 1024 + 9 * 2200, "{}", total("diff"));
    assert!(total("patch") <= 256 * 1024 + 9 * 2200, "{}", total("patch"));
    for file in &files[..8] {
        assert_eq!(file["patchTruncated"], Value::Bool(true));
    }
    // The small file's diff and patch are whole beside the large ones.
    assert_eq!(files[8]["patchTruncated"], Value::Bool(false));
    assert!(
        files[8]["patch"].as_str().unwrap().contains("-two\n+2\n"),
        "{}",
        files[8]
    );
    assert!(files[8]["diff"].as_str().unwrap().contains("two"), "{}", files[8]);
    assert_eq!(result["patchTruncated"], Value::Bool(true));
    assert!(result.to_string().len() < 1_000_000);
}
