//! The `apply_snippet` tool: the result object, aliases, dry run, `expectedHash`, errors that leave
//! the file untouched, undo, the sandbox, bytes kept (BOM, CRLF), cancellation, and the in-memory
//! variant giving the tool's bytes.

use serde_json::{json, Value};
use surgical_tool::{call, call_with, Cancellation, Config};

const FILE: &str = "\u{feff}use std::io;\r\n\r\nfn a() {\r\n    let x = 1;\r\n    println!(\"{x}\");\r\n}\r\n\r\nfn b() {\r\n    let y = 2;\r\n    println!(\"{y}\");\r\n}\r\n";

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.rs"), FILE).unwrap();
    dir
}

fn run(dir: &tempfile::TempDir, input: Value) -> Value {
    call("apply_snippet", &input, dir.path()).to_json()
}

const SNIPPET: &str = "// ... existing code ...\nfn b() {\n    let y = 3;\n    println!(\"{y}\");\n}\n";

#[test]
fn a_snippet_is_merged_with_every_byte_outside_kept_and_undone_in_one_step() {
    let dir = workspace();
    let r = run(&dir, json!({"path": "m.rs", "snippet": SNIPPET}));
    assert_eq!(r["ok"], json!(true), "{r}");
    let on_disk = std::fs::read_to_string(dir.path().join("m.rs")).unwrap();
    assert_eq!(on_disk, FILE.replace("let y = 2;", "let y = 3;"));
    assert_eq!(r["encoding"], json!("utf-8-bom"));
    assert_eq!(
        r["segments"],
        json!([{"startLine": 8, "endLine": 11, "deletedLines": 1, "oldStartLine": 8,
        "oldEndLine": 11, "snippetStartLine": 2, "snippetEndLine": 5, "changed": true}])
    );
    assert_eq!(r["edits"][0]["startLine"], json!(8));
    assert!(r["diff"].as_str().unwrap().contains("+ 9"), "{r}");
    assert!(r["patch"].as_str().unwrap().contains("+    let y = 3;\r"), "{r}");
    assert!(r["text"].as_str().unwrap().contains("segments[0]"), "{r}");
    assert!(r.get("keptBefore").is_none() && r.get("keptAfter").is_none(), "{r}");
    assert_eq!(r["undoAvailable"], json!(true));
    assert_eq!(r["hashAfter"], json!(surgical_tool::sha256_hex(&[on_disk.as_bytes()])));
    let u = call("undo", &json!({"path": "m.rs"}), dir.path()).to_json();
    assert_eq!(u["ok"], json!(true), "{u}");
    assert_eq!(std::fs::read_to_string(dir.path().join("m.rs")).unwrap(), FILE);
}

#[test]
fn agents_argument_names_are_accepted_and_instructions_recorded() {
    for (path_key, snippet_key) in [
        ("target_file", "code_edit"),
        ("file_path", "update"),
        ("path", "codeEdit"),
    ] {
        let dir = workspace();
        let r = run(
            &dir,
            json!({path_key: "m.rs", snippet_key: SNIPPET, "instructions": "I change y to 3."}),
        );
        assert_eq!(r["ok"], json!(true), "{path_key} {snippet_key}: {r}");
        assert_eq!(r["instructions"], json!("I change y to 3."));
    }
    let dir = workspace();
    let r = run(&dir, json!({"path": "m.rs"}));
    assert_eq!(r["error"]["code"], json!("invalid_input"), "{r}");
}

#[test]
fn the_edges_kept_without_markers_are_reported() {
    let dir = workspace();
    let r = run(&dir, json!({"path": "m.rs", "snippet": "fn a() {\n    let x = 10;\n"}));
    // `let x = 10;` may rewrite `let x = 1;` or follow it: refused, file untouched.
    assert_eq!(r["error"]["code"], json!("ambiguous"), "{r}");
    assert_eq!(std::fs::read_to_string(dir.path().join("m.rs")).unwrap(), FILE);
    let r = run(
        &dir,
        json!({"path": "m.rs", "snippet": "fn a() {\n    let x = 10;\n    println!(\"{x}\");\n"}),
    );
    assert_eq!(r["ok"], json!(true), "{r}");
    assert_eq!(r["keptBefore"], json!([1, 2]));
    assert_eq!(r["keptAfter"], json!([6, 11]));
    assert!(
        r["text"].as_str().unwrap().contains("no marker before its first line"),
        "{r}"
    );
}

#[test]
fn dry_run_and_expected_hash() {
    let dir = workspace();
    let r = run(&dir, json!({"path": "m.rs", "snippet": SNIPPET, "dryRun": true}));
    assert_eq!(r["ok"], json!(true), "{r}");
    assert_eq!(r["dryRun"], json!(true));
    assert_eq!(std::fs::read_to_string(dir.path().join("m.rs")).unwrap(), FILE);
    let r = run(
        &dir,
        json!({"path": "m.rs", "snippet": SNIPPET, "expectedHash": "0".repeat(64)}),
    );
    assert_eq!(r["error"]["code"], json!("stale"), "{r}");
    let hash = surgical_tool::sha256_hex(&[FILE.as_bytes()]);
    let r = run(&dir, json!({"path": "m.rs", "snippet": SNIPPET, "expectedHash": hash}));
    assert_eq!(r["ok"], json!(true), "{r}");
}

#[test]
fn refusals_name_the_places_and_leave_the_file_untouched() {
    let dir = workspace();
    // `println!` segments fit both functions.
    let r = run(
        &dir,
        json!({"path": "m.rs", "snippet": "// ...\n}\n\nfn c() {}\n// ...\n"}),
    );
    assert_eq!(r["ok"], json!(false), "{r}");
    let r = run(
        &dir,
        json!({"path": "m.rs", "snippet": "// ...\n    println!(\"{v}\");\n}\n// ...\n"}),
    );
    assert_eq!(r["error"]["code"], json!("not_found"), "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("segments[0]"), "{r}");
    let r = run(
        &dir,
        json!({"path": "m.rs", "snippet": "// ...\nfn b() {\n    let y = 2;\n// ...\n"}),
    );
    assert_eq!(r["error"]["code"], json!("no_change"), "{r}");
    std::fs::write(
        dir.path().join("t.py"),
        "def f():\n    return 1\n\ndef g():\n    return 1\n\nx = 1\n",
    )
    .unwrap();
    let r = run(
        &dir,
        json!({"path": "t.py", "snippet": "# ...\n    return 1\n    log()\n\n# ...\n"}),
    );
    assert_eq!(r["error"]["code"], json!("ambiguous"), "{r}");
    assert_eq!(r["error"]["lines"], json!([2, 5]), "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("reading 2"), "{r}");
    assert_eq!(std::fs::read_to_string(dir.path().join("m.rs")).unwrap(), FILE);
}

#[test]
fn the_sandbox_and_the_journal_directory_are_refused() {
    let dir = workspace();
    let r = run(&dir, json!({"path": "../m.rs", "snippet": SNIPPET}));
    assert_eq!(r["error"]["code"], json!("outside_root"), "{r}");
    std::fs::create_dir_all(dir.path().join(".surgical")).unwrap();
    std::fs::write(dir.path().join(".surgical/x"), "a\n").unwrap();
    let r = run(&dir, json!({"path": ".surgical/x", "snippet": "a\nb\n"}));
    assert_eq!(r["ok"], json!(false), "{r}");
    assert_eq!(std::fs::read_to_string(dir.path().join(".surgical/x")).unwrap(), "a\n");
}

#[test]
fn a_cancelled_call_writes_nothing() {
    let dir = workspace();
    let cancellation = Cancellation::new();
    cancellation.cancel();
    let config = Config::new(dir.path()).cancellation(cancellation);
    let r = call_with("apply_snippet", &json!({"path": "m.rs", "snippet": SNIPPET}), &config).to_json();
    assert_eq!(r["error"]["code"], json!("cancelled"), "{r}");
    assert_eq!(std::fs::read_to_string(dir.path().join("m.rs")).unwrap(), FILE);
}

#[test]
fn the_memory_variant_gives_the_tools_bytes_and_report() {
    let dir = workspace();
    let call_json = json!({"path": "m.rs", "snippet": SNIPPET});
    let memory = surgical_tool::apply_snippet(FILE.as_bytes().to_vec(), &call_json).unwrap();
    let r = run(&dir, call_json);
    assert_eq!(memory.edit.content, std::fs::read(dir.path().join("m.rs")).unwrap());
    assert_eq!(json!(memory.edit.patch), r["patch"]);
    assert_eq!(json!(memory.edit.diff), r["diff"]);
    assert_eq!(serde_json::to_value(&memory.segments).unwrap(), r["segments"]);
    // No path: named `file`; errors are the tool's.
    let e = surgical_tool::apply_snippet(FILE.as_bytes().to_vec(), &json!({"snippet": "// ...\nnope\n// ...\n"}))
        .unwrap_err();
    assert_eq!(e.code.as_str(), "not_found");
    let e = surgical_tool::apply_snippet(b"a\0b".to_vec(), &json!({"snippet": "x"})).unwrap_err();
    assert_eq!(e.code.as_str(), "binary_file");
}

#[test]
fn a_utf16_file_is_merged_and_written_back_in_utf16() {
    let dir = tempfile::tempdir().unwrap();
    let text = "fn a() {\r\n    let x = 1;\r\n}\r\n\r\nfn b() {\r\n    let y = 2;\r\n}\r\n";
    let utf16 = |s: &str| -> Vec<u8> {
        [0xFF, 0xFE]
            .into_iter()
            .chain(s.encode_utf16().flat_map(u16::to_le_bytes))
            .collect()
    };
    std::fs::write(dir.path().join("w.rs"), utf16(text)).unwrap();
    let r = run(
        &dir,
        json!({"path": "w.rs", "snippet": "// ... existing code ...\nfn b() {\n    let y = 3;\n}\n"}),
    );
    assert_eq!(r["ok"], json!(true), "{r}");
    assert_eq!(r["encoding"], json!("utf-16le"), "{r}");
    let want = utf16(&text.replace("let y = 2;", "let y = 3;"));
    assert_eq!(std::fs::read(dir.path().join("w.rs")).unwrap(), want);
    assert_eq!(r["hashAfter"], json!(surgical_tool::sha256_hex(&[&want])));
    assert!(r["diff"].as_str().unwrap().contains("let y = 3;"), "{r}");
}

/// The result is bounded as `edit`'s: long lines cut in `text`, `diff` and `patch`, each capped,
/// `patchTruncated` when the patch was cut.
#[test]
fn a_snippet_result_is_bounded_as_an_edits() {
    let dir = tempfile::tempdir().unwrap();
    let line: String = (0..120_000).map(|i| format!("v{i}=1;")).collect();
    // Anchors strong enough for a segment's head and tail.
    let (head, tail) = ("const first = require('a');", "module.exports = { first };");
    let original = format!("{head}\n{line}\n{tail}\n");
    std::fs::write(dir.path().join("min.js"), &original).unwrap();
    let changed = line.replace("v60000=1;", "v60000=2;");
    let r = run(
        &dir,
        json!({"path": "min.js", "snippet": format!("{head}\n{changed}\n{tail}\n")}),
    );
    assert_eq!(r["ok"], json!(true), "{r}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("min.js")).unwrap(),
        original.replace("v60000=1;", "v60000=2;")
    );
    for field in ["text", "diff", "patch"] {
        let shown = r[field].as_str().unwrap();
        assert!(shown.len() < 20_000, "{field}: {} bytes", shown.len());
        assert!(shown.contains("[... line cut here: "), "{field}: {shown}");
    }
    assert_eq!(r["patchTruncated"], json!(true));
    assert!(r.to_string().len() < 100_000);
    // Many new lines: `text` within 64 KiB, `diff` and `patch` within 256 KiB.
    let added: String = (0..20_000).map(|i| format!("line {i} of the new text\n")).collect();
    std::fs::write(dir.path().join("f.txt"), format!("{head}\n{tail}\n")).unwrap();
    let r = run(
        &dir,
        json!({"path": "f.txt", "snippet": format!("{head}\n{added}{tail}\n")}),
    );
    assert_eq!(r["ok"], json!(true), "{r}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        format!("{head}\n{added}{tail}\n")
    );
    assert!(r["text"].as_str().unwrap().len() <= 64 * 1024 + 200);
    for field in ["diff", "patch"] {
        let shown = r[field].as_str().unwrap();
        assert!(shown.len() <= 256 * 1024 + 200, "{field}: {}", shown.len());
    }
    assert_eq!(r["patchTruncated"], json!(true));
    // A small merge: the whole patch.
    let dir = workspace();
    let r = run(&dir, json!({"path": "m.rs", "snippet": SNIPPET}));
    assert_eq!(r["patchTruncated"], json!(false), "{r}");
}
