//! `surgical apply` and `surgical call apply_patch` on real files: every format, exit codes, dry
//! runs, JSON, and many processes patching the same files at once.

use std::path::Path;
use std::process::{Child, Output};

use serde_json::{json, Value};

mod common;
use common::{bin, spawn_with_input};

fn run(args: &[&str], root: &Path, stdin: &str) -> Output {
    let mut cmd = bin();
    cmd.args(args).arg("--root").arg(root).env("NO_COLOR", "1");
    spawn_with_input(cmd, stdin.as_bytes()).wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/app.py"),
        "def greet():\r\n    return \u{201c}hi\u{201d}\r\n\r\ndef main():\r\n    greet()\r\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.md"), "\u{feff}# Notes\n\nfirst\n").unwrap();
    dir
}

const CODEX: &str =
    "*** Begin Patch\n*** Update File: src/app.py\n@@ def greet():\n-    return \"hi\"\n+    return \"hello\"\n*** \
                     Update File: notes.md\n@@\n first\n+second\n*** End Patch\n";
const BLOCKS: &str = "src/app.py\n```python\n<<<<<<< SEARCH\n    return \"hi\"\n=======\n    return \"hello\"\n>>>>>>> \
                      REPLACE\n```\n\nnotes.md\n```\n<<<<<<< SEARCH\nfirst\n=======\nfirst\nsecond\n>>>>>>> REPLACE\n```\n";
const DIFF: &str = "diff --git a/src/app.py b/src/app.py\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def \
                    greet():\n-    return \"hi\"\n+    return \"hello\"\ndiff --git a/notes.md b/notes.md\n--- a/notes.md\n+++ \
                    b/notes.md\n@@ -3 +3,2 @@\n first\n+second\n";

fn check_applied(root: &Path) {
    // CRLF, the file's typographic quotes (kept where the model typed ASCII ones), the BOM.
    assert_eq!(
        std::fs::read_to_string(root.join("src/app.py")).unwrap(),
        "def greet():\r\n    return \u{201c}hello\u{201d}\r\n\r\ndef main():\r\n    greet()\r\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("notes.md")).unwrap(),
        "\u{feff}# Notes\n\nfirst\nsecond\n"
    );
}

#[test]
fn every_format_through_apply_and_call() {
    for (patch, format) in [
        (CODEX, "apply_patch"),
        (BLOCKS, "search_replace"),
        (DIFF, "unified_diff"),
    ] {
        // `surgical apply -` (stdin), for people.
        let ws = workspace();
        let out = run(&["apply", "-"], ws.path(), patch);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", text(&out.stderr));
        let shown = text(&out.stdout);
        assert!(shown.contains(&format!("({format} format)")), "{shown}");
        assert!(
            shown.contains("--- src/app.py") && shown.contains("+2     return"),
            "{shown}"
        );
        assert!(!shown.contains('\x1b'), "NO_COLOR: {shown:?}");
        check_applied(ws.path());

        // `surgical call apply_patch`, the machine interface.
        let ws = workspace();
        let out = run(
            &["call", "apply_patch"],
            ws.path(),
            &json!({ "patch": patch }).to_string(),
        );
        assert_eq!(out.status.code(), Some(0), "{format}: {}", text(&out.stdout));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["ok"], true);
        assert_eq!(v["format"], format);
        assert_eq!(v["files"].as_array().unwrap().len(), 2);
        assert_eq!(v["files"][0]["hunks"][0]["strategy"], "unicode", "{v}");
        check_applied(ws.path());
    }
}

#[test]
fn patch_file_dry_run_json_and_failures() {
    let ws = workspace();
    let patch_file = ws.path().join("change.patch");
    std::fs::write(&patch_file, CODEX).unwrap();
    let p = patch_file.to_str().unwrap();

    let out = run(&["apply", p, "--dry-run"], ws.path(), "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("Dry run, nothing written."));
    let before = std::fs::read(ws.path().join("src/app.py")).unwrap();
    assert!(std::str::from_utf8(&before).unwrap().contains("\u{201c}hi\u{201d}"));

    let out = run(&["apply", p, "--json"], ws.path(), "");
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    check_applied(ws.path());

    // Applying it again fails (the old lines are gone), with exit 1 and nothing changed.
    let out = run(&["apply", p], ws.path(), "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with("error (not_found): src/app.py: hunk 0"), "{err}");
    check_applied(ws.path());

    let out = run(&["apply", "/nonexistent/patch.txt"], ws.path(), "");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["apply", "-", "--format", "bogus"], ws.path(), CODEX);
    assert_eq!(out.status.code(), Some(2));
}

/// Many processes apply two-file patches at once (half of them naming the files in the other order):
/// no process waits forever for another (directory locks are taken in one order), and no update is
/// lost (each patch's insertion is in both files).
#[test]
fn concurrent_multi_file_patches_lose_no_update_and_never_deadlock() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["a/x.txt", "b/y.txt", "a/z.txt"] {
        let p = dir.path().join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "HEAD\nTAIL\n").unwrap();
    }
    const N: usize = 8;
    let children: Vec<Child> = (0..N)
        .map(|i| {
            let files = if i % 2 == 0 {
                ["a/x.txt", "b/y.txt", "a/z.txt"]
            } else {
                ["a/z.txt", "b/y.txt", "a/x.txt"]
            };
            let mut patch = String::from("*** Begin Patch\n");
            for f in files {
                patch.push_str(&format!("*** Update File: {f}\n@@ HEAD\n+line {i}\n"));
            }
            patch.push_str("*** End Patch\n");
            let mut cmd = bin();
            cmd.args(["call", "apply_patch", "--root"]).arg(dir.path());
            spawn_with_input(cmd, json!({ "patch": patch }).to_string().as_bytes())
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    }
    for f in ["a/x.txt", "b/y.txt", "a/z.txt"] {
        let content = std::fs::read_to_string(dir.path().join(f)).unwrap();
        assert!(
            content.starts_with("HEAD\n") && content.ends_with("TAIL\n"),
            "{content}"
        );
        for i in 0..N {
            assert!(
                content.contains(&format!("line {i}\n")),
                "{f}: line {i} lost:\n{content}"
            );
        }
        assert_eq!(content.lines().count(), N + 2);
    }
}
