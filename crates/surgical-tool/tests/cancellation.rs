//! A call whose cancellation is set before its first write changes nothing and says `cancelled`,
//! in every tool that writes; a dry run, which writes nothing, is not affected.

use serde_json::{json, Value};
use surgical_tool::{call_with, Cancellation, Config};

fn tree(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_cancelled_call_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(&a, "\u{feff}one\r\ntwo\r\n").unwrap();
    std::fs::write(&b, "x\ny\n").unwrap();
    let live = Config::new(dir.path());
    // Something to undo, made before cancelling.
    let r = call_with(
        "edit",
        &json!({"path": "a.txt", "oldText": "two", "newText": "2"}),
        &live,
    );
    assert!(r.is_ok(), "{}", r.to_json());

    let cancellation = Cancellation::new();
    let config = live.clone().cancellation(cancellation.clone());
    cancellation.cancel();
    let before = tree(dir.path());
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Update File: b.txt\n@@\n-y\n+z\n*** Add File: c.txt\n+new\n*** End Patch\n";
    let calls: [(&str, Value); 5] = [
        ("edit", json!({"path": "b.txt", "oldText": "x", "newText": "X"})),
        ("write", json!({"path": "b.txt", "content": "whole\n"})),
        ("write", json!({"path": "new.txt", "content": "fresh\n"})),
        ("undo", json!({"path": "a.txt"})),
        ("apply_patch", json!({"patch": patch})),
    ];
    for (tool, input) in &calls {
        let result = call_with(tool, input, &config).to_json();
        assert_eq!(result["ok"], json!(false), "{tool}: {result}");
        assert_eq!(result["error"]["code"], json!("cancelled"), "{tool}: {result}");
        assert!(
            result["text"].as_str().unwrap().contains("no file was changed"),
            "{tool}: {result}"
        );
        assert_eq!(tree(dir.path()), before, "{tool} changed a file");
    }

    // A dry run writes nothing anyway and still answers.
    let dry = call_with(
        "edit",
        &json!({"path": "b.txt", "oldText": "x", "newText": "X", "dryRun": true}),
        &config,
    );
    assert!(dry.is_ok(), "{}", dry.to_json());
    // The same calls without the flag set still work, and the undo entry survived.
    let r = call_with("undo", &json!({"path": "a.txt"}), &live);
    assert!(r.is_ok(), "{}", r.to_json());
    assert_eq!(std::fs::read(&a).unwrap(), b"\xef\xbb\xbfone\r\ntwo\r\n");
}
