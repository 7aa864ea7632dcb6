//! The `apply_patch` tool as a transaction over files: all or nothing, rollback of a write that
//! fails midway, the sandbox, the undo journal, encodings, and the result object's fields.

use std::path::Path;

use serde_json::{json, Value};
use surgical_tool::{call, call_with, Config};

fn setup(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

fn apply(root: &Path, patch: &str) -> Value {
    call("apply_patch", &json!({ "patch": patch }), root).to_json()
}

fn read(root: &Path, name: &str) -> Vec<u8> {
    std::fs::read(root.join(name)).unwrap()
}

#[test]
fn result_object_fields() {
    let dir = setup(&[("src/a.rs", b"fn a() {\n    1\n}\n"), ("old.txt", b"bye\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: src/a.rs\n@@ fn a() {\n-    1\n+    2\n*** Add File: new.txt\n+hi\n*** Delete \
         File: old.txt\n*** End Patch\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["format"], "apply_patch");
    assert_eq!(r["dryRun"], false);
    let files = r["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    let a = &files[0];
    assert_eq!(
        (a["path"].as_str(), a["action"].as_str()),
        (Some("src/a.rs"), Some("update"))
    );
    let h = &a["hunks"][0];
    assert_eq!(h["index"], 0);
    assert_eq!(h["strategy"], "exact");
    assert_eq!(h["placement"], "anchor");
    assert_eq!((h["startLine"].as_u64(), h["endLine"].as_u64()), (Some(2), Some(2)));
    assert!(h.get("fuzz").is_none(), "fuzz is for unified diffs: {h}");
    assert!(a["diff"].as_str().unwrap().contains("-2     1\n+2     2\n"), "{a}");
    assert!(a["patch"]
        .as_str()
        .unwrap()
        .starts_with("--- a/src/a.rs\n+++ b/src/a.rs\n"));
    assert_eq!(a["hashBefore"].as_str().unwrap().len(), 64);
    assert_eq!(a["undoAvailable"], true);
    assert_eq!(files[1]["action"], "add");
    assert!(files[1].get("hashBefore").is_none());
    // The patch is one undo step: every file of it can be undone, the new and the deleted too.
    assert_eq!(files[1]["undoAvailable"], true);
    assert_eq!(files[2]["undoAvailable"], true);
    assert_eq!(files[2]["action"], "delete");
    assert!(files[2].get("hashAfter").is_none());
    let patch = r["patch"].as_str().unwrap();
    assert!(
        patch.contains("new file mode") && patch.contains("+++ /dev/null"),
        "{patch}"
    );
    let text = r["text"].as_str().unwrap();
    assert!(
        text.contains("M src/a.rs: 1 hunk applied.") && text.contains("A new.txt: created (1 line)."),
        "{text}"
    );
    assert!(!dir.path().join("old.txt").exists());
    assert_eq!(read(dir.path(), "new.txt"), b"hi\n");
}

#[test]
fn errors_name_file_and_hunk() {
    let dir = setup(&[("a.txt", b"one\ntwo\n"), ("b.txt", b"three\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-three\n+3\n@@\n-four\n+4\n*** \
         End Patch\n",
    );
    assert_eq!(r["ok"], false);
    let e = &r["error"];
    assert_eq!(e["code"], "not_found", "{r}");
    assert_eq!(e["path"], "b.txt");
    assert_eq!(e["hunkIndex"], 1);
    assert_eq!(e["patchLine"], 10);
    let message = e["message"].as_str().unwrap();
    assert!(message.starts_with("b.txt: hunk 1 (patch line 10):"), "{message}");
    assert!(message.contains("No file was changed"), "{message}");
    assert_eq!(read(dir.path(), "a.txt"), b"one\ntwo\n");
    assert_eq!(read(dir.path(), "b.txt"), b"three\n");

    let r = apply(dir.path(), "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n");
    assert_eq!(r["error"]["code"], "invalid_input");
    assert!(r["error"]["message"].as_str().unwrap().contains("*** End Patch"), "{r}");
    let r = apply(dir.path(), "just some text");
    assert_eq!(r["error"]["code"], "invalid_input");
    let r = call("apply_patch", &json!({"patch": "x", "format": "nope"}), dir.path()).to_json();
    assert_eq!(r["error"]["code"], "invalid_input");
    let r = call("apply_patch", &json!({"diff": 3}), dir.path()).to_json();
    assert_eq!(r["error"]["code"], "invalid_input");
}

#[test]
fn overlapping_hunks_are_refused() {
    let dir = setup(&[("a.txt", b"1\n2\n3\n4\n")]);
    let r = apply(
        dir.path(),
        "a.txt\n<<<<<<< SEARCH\n1\n2\n=======\nx\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n2\n3\n=======\ny\n>>>>>>> REPLACE\n",
    );
    assert_eq!(r["error"]["code"], "overlap", "{r}");
    assert_eq!(r["error"]["hunkIndex"], 1);
    assert_eq!(read(dir.path(), "a.txt"), b"1\n2\n3\n4\n");
}

#[test]
fn a_write_failing_midway_is_rolled_back() {
    // `d/f.txt` creates the directory `d`; `d` as a file then cannot be created. Nothing can tell
    // before writing (both paths are free), so the commit fails on its third step and undoes the
    // first two: x.txt gets its bytes back (and no undo entry), d/f.txt and the directory go.
    let dir = setup(&[("x.txt", b"keep\r\nme\r\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: x.txt\n@@\n-keep\n+changed\n*** Add File: d/f.txt\n+f\n*** Add File: d\n+d\n*** End \
         Patch\n",
    );
    assert_eq!(r["ok"], false, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("no file was changed"),
        "{r}"
    );
    assert_eq!(read(dir.path(), "x.txt"), b"keep\r\nme\r\n");
    assert!(!dir.path().join("d").exists());
    let undo = call("undo", &json!({"path": "x.txt"}), dir.path()).to_json();
    assert_eq!(undo["error"]["code"], "no_undo", "{undo}");
}

#[test]
fn outside_root_and_directories_are_refused() {
    let outer = setup(&[("secret.txt", b"s\n"), ("ws/a.txt", b"a\n"), ("ws/dir/f", b"f\n")]);
    let root = outer.path().join("ws");
    for patch in [
        "*** Begin Patch\n*** Update File: ../secret.txt\n@@\n-s\n+S\n*** End Patch\n",
        "*** Begin Patch\n*** Add File: ../new.txt\n+x\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../moved.txt\n@@\n-a\n+b\n*** End Patch\n",
    ] {
        let r = apply(&root, patch);
        assert_eq!(r["error"]["code"], "outside_root", "{r}");
    }
    let r = apply(&root, "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n");
    assert_eq!(r["error"]["code"], "not_a_file", "{r}");
    assert_eq!(read(&outer.path().join("ws"), "a.txt"), b"a\n");
    assert!(!outer.path().join("new.txt").exists() && !outer.path().join("moved.txt").exists());
}

#[test]
fn undo_takes_back_a_whole_patch_in_one_step() {
    let dir = setup(&[("a/x.txt", b"x1\n"), ("b/y.txt", b"y1\n"), ("a/z.txt", b"z1\n")]);
    let r = apply(
        dir.path(),
        "--- a/a/x.txt\n+++ b/a/x.txt\n@@ -1 +1 @@\n-x1\n+x2\n--- a/b/y.txt\n+++ b/b/y.txt\n@@ -1 +1 @@\n-y1\n+y2\n--- \
         a/a/z.txt\n+++ b/a/z.txt\n@@ -1 +1 @@\n-z1\n+z2\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    let u = call("undo", &json!({"path": "b/y.txt"}), dir.path()).to_json();
    assert_eq!(u["ok"], true, "{u}");
    assert!(
        u["text"].as_str().unwrap().contains("other files were undone too"),
        "{u}"
    );
    for (f, before) in [("a/x.txt", b"x1\n"), ("b/y.txt", b"y1\n"), ("a/z.txt", b"z1\n")] {
        assert_eq!(read(dir.path(), f), before);
    }
    let again = call("undo", &json!({"path": "a/x.txt"}), dir.path()).to_json();
    assert_eq!(again["error"]["code"], "no_undo", "{again}");
}

/// Undo of each operation of apply_patch: add (removed), update (restored), delete (recreated,
/// with its mode), move (the source recreated, the destination removed or restored).
#[test]
fn undo_takes_back_add_update_delete_and_move() {
    let dir = setup(&[
        ("up.txt", b"u1\r\n"),
        ("gone.txt", b"bytes \xff kept\n"),
        ("from.txt", b"m1\n"),
        ("over.txt", b"o1\n"),
        ("src.txt", b"s1\n"),
    ]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path().join("gone.txt"), std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Add File: new/n.txt\n+n\n*** Update File: up.txt\n@@\n-u1\n+u2\n*** Delete File: gone.txt\n\
         *** Update File: from.txt\n*** Move to: to.txt\n@@\n-m1\n+m2\n*** Update File: src.txt\n*** Move to: over.txt\n@@\n-s1\n+s2\n\
         *** End Patch\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    for f in r["files"].as_array().unwrap() {
        assert_eq!(f["undoAvailable"], true, "{f}");
    }
    assert!(!dir.path().join("gone.txt").exists() && !dir.path().join("from.txt").exists());
    let u = call("undo", &json!({"path": "gone.txt"}), dir.path()).to_json();
    assert_eq!(u["ok"], true, "{u}");
    assert!(u["text"].as_str().unwrap().starts_with("Recreated gone.txt"), "{u}");
    assert_eq!(read(dir.path(), "up.txt"), b"u1\r\n");
    assert_eq!(read(dir.path(), "gone.txt"), b"bytes \xff kept\n");
    assert_eq!(read(dir.path(), "from.txt"), b"m1\n");
    assert_eq!(read(dir.path(), "over.txt"), b"o1\n");
    assert_eq!(read(dir.path(), "src.txt"), b"s1\n");
    assert!(!dir.path().join("to.txt").exists());
    assert!(!dir.path().join("new/n.txt").exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("gone.txt"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}

/// Undoing a patch is all or nothing: one of its files changed since, so nothing is touched.
#[test]
fn undo_of_a_patch_one_of_whose_files_changed_touches_nothing() {
    let dir = setup(&[("a.txt", b"a1\n"), ("b.txt", b"b1\n"), ("c.txt", b"c1\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a1\n+a2\n*** Update File: b.txt\n@@\n-b1\n+b2\n*** Add File: n.txt\n+n\n\
         *** Delete File: c.txt\n*** End Patch\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    std::fs::write(dir.path().join("b.txt"), "someone else\n").unwrap();
    let u = call("undo", &json!({"path": "a.txt"}), dir.path()).to_json();
    assert_eq!(u["error"]["code"], "stale", "{u}");
    assert_eq!(u["error"]["path"], "b.txt", "{u}");
    assert_eq!(read(dir.path(), "a.txt"), b"a2\n");
    assert_eq!(read(dir.path(), "n.txt"), b"n\n");
    assert!(!dir.path().join("c.txt").exists());
    // A deleted file that reappeared is a change too.
    std::fs::write(dir.path().join("b.txt"), "b2\n").unwrap();
    std::fs::write(dir.path().join("c.txt"), "new c\n").unwrap();
    let u = call("undo", &json!({"path": "n.txt"}), dir.path()).to_json();
    assert_eq!(u["error"]["code"], "stale", "{u}");
    assert_eq!(read(dir.path(), "c.txt"), b"new c\n");
    // Put back as the patch left it: the undo goes through.
    std::fs::remove_file(dir.path().join("c.txt")).unwrap();
    let u = call("undo", &json!({"path": "c.txt"}), dir.path()).to_json();
    assert_eq!(u["ok"], true, "{u}");
    assert_eq!(read(dir.path(), "c.txt"), b"c1\n");
    assert!(!dir.path().join("n.txt").exists());
}

#[test]
fn the_journal_is_reserved() {
    let dir = setup(&[("a.txt", b"a\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    assert!(dir.path().join(".surgical/.gitignore").exists());
    for patch in [
        "*** Begin Patch\n*** Add File: .surgical/x\n+x\n*** End Patch\n",
        "*** Begin Patch\n*** Delete File: .surgical/.gitignore\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: sub/.surgical/a.txt\n@@\n-b\n+c\n*** End Patch\n",
    ] {
        let r = apply(dir.path(), patch);
        assert_eq!(r["error"]["code"], "outside_root", "{r}");
        assert!(r["error"]["message"].as_str().unwrap().contains("undo journal"), "{r}");
    }
    for (tool, args) in [
        ("read", json!({"path": ".surgical/.gitignore"})),
        ("write", json!({"path": ".surgical/.gitignore", "content": ""})),
        (
            "edit",
            json!({"path": ".surgical/.gitignore", "oldText": "*", "newText": "x"}),
        ),
        ("undo", json!({"path": ".surgical/.gitignore"})),
    ] {
        let r = call(tool, &args, dir.path()).to_json();
        assert_eq!(r["error"]["code"], "outside_root", "{tool}: {r}");
    }
    assert_eq!(read(dir.path(), "a.txt"), b"b\n");
    assert!(read(dir.path(), ".surgical/.gitignore").ends_with(b"*\n"));
}

#[test]
fn dry_run_writes_nothing() {
    let dir = setup(&[("a.txt", b"a\n")]);
    let r = call(
        "apply_patch",
        &json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Add File: n.txt\n+n\n*** End Patch\n", "dryRun": true}),
        dir.path(),
    )
    .to_json();
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["dryRun"], true);
    assert!(r["text"].as_str().unwrap().starts_with("Dry run, nothing written."));
    // A dry run says what would happen, never that it happened.
    let text = r["text"].as_str().unwrap();
    assert!(
        text.contains("M a.txt: 1 hunk would apply.")
            && text.contains("hunk 0: would be at line 1")
            && text.contains("A n.txt: would be created (1 line)."),
        "{text}"
    );
    assert!(!text.contains("applied") && !text.contains("now at"), "{text}");
    assert!(r["files"][0]["diff"].as_str().unwrap().contains("+1 b"));
    assert_eq!(read(dir.path(), "a.txt"), b"a\n");
    assert!(!dir.path().join("n.txt").exists());
    assert!(!dir.path().join(".surgical").exists());
}

#[test]
fn operations_see_earlier_ones() {
    // Codex applies operations in order: the second update sees the first; a move then an update
    // of the new name; add then delete leaves nothing.
    let dir = setup(&[("a.txt", b"1\n2\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-1\n+one\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n one\n-2\n+two\n*** \
         Update File: b.txt\n@@\n+three\n*** Add File: tmp.txt\n+t\n*** Delete File: tmp.txt\n*** End Patch\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    assert!(!dir.path().join("a.txt").exists() && !dir.path().join("tmp.txt").exists());
    assert_eq!(read(dir.path(), "b.txt"), b"one\ntwo\nthree\n");
    assert_eq!(r["files"][1]["action"], "move");
    assert_eq!(r["files"][1]["movedTo"], "b.txt");
}

#[test]
fn encodings_binary_and_symlinks() {
    let utf16: Vec<u8> = std::iter::once([0xFF, 0xFE])
        .chain("one\r\ntwo\r\n".encode_utf16().map(u16::to_le_bytes))
        .flatten()
        .collect();
    let dir = setup(&[("w.txt", &utf16), ("bin.dat", b"\x00\x01\x02"), ("real.txt", b"r\n")]);
    let r = apply(
        dir.path(),
        "w.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["files"][0]["encoding"], "utf-16le");
    let expected: Vec<u8> = std::iter::once([0xFF, 0xFE])
        .chain("one\r\nTWO\r\n".encode_utf16().map(u16::to_le_bytes))
        .flatten()
        .collect();
    assert_eq!(read(dir.path(), "w.txt"), expected);

    let r = apply(dir.path(), "bin.dat\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n");
    assert_eq!(r["error"]["code"], "binary_file", "{r}");
    let r = apply(dir.path(), "*** Begin Patch\n*** Delete File: bin.dat\n*** End Patch\n");
    assert_eq!(r["ok"], true, "{r}");

    // Symbolic links need a privilege on Windows; there they are tested by surgical-fs itself.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("real.txt", dir.path().join("link.txt")).unwrap();
        let r = apply(
            dir.path(),
            "*** Begin Patch\n*** Update File: link.txt\n@@\n-r\n+R\n*** End Patch\n",
        );
        assert_eq!(r["ok"], true, "{r}");
        assert_eq!(read(dir.path(), "real.txt"), b"R\n");
        assert!(std::fs::symlink_metadata(dir.path().join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink());
    }
}

#[test]
fn pure_additions_and_final_newlines() {
    // After an anchor that is the last line (no final newline); at the end of the file; at the
    // start of an empty file (unified diff); refused without any context in a non-empty file.
    let dir = setup(&[("a.txt", b"x\nlast"), ("e.txt", b""), ("f.txt", b"1\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: a.txt\n@@ last\n+after\n*** End Patch\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    // The file had no final newline and the patch does not say to add one: it still has none (as
    // `edit` gives for the same change).
    assert_eq!(read(dir.path(), "a.txt"), b"x\nlast\nafter");
    assert_eq!(r["files"][0]["hunks"][0]["startLine"], 3, "{r}");
    let r = apply(dir.path(), "--- a/e.txt\n+++ b/e.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(read(dir.path(), "e.txt"), b"a\nb\n");
    let r = apply(dir.path(), "--- a/f.txt\n+++ b/f.txt\n@@ -5,0 +6 @@\n+z\n");
    assert_eq!(r["error"]["code"], "invalid_input", "{r}");
}

#[test]
fn config_limits_apply() {
    let dir = setup(&[("big.txt", &[b'a'; 100])]);
    let config = Config::new(dir.path()).max_file_size(10).undo(false);
    let r = call_with(
        "apply_patch",
        &json!({"patch": "*** Begin Patch\n*** Delete File: big.txt\n*** End Patch\n"}),
        &config,
    )
    .to_json();
    assert_eq!(r["error"]["code"], "too_large", "{r}");
    assert!(dir.path().join("big.txt").exists());
}

/// A hunk that changes nothing names its own first line (line 3 here), not the line before it.
#[test]
fn a_hunk_that_changes_nothing_names_its_line() {
    let dir = setup(&[("a.txt", b"one\ntwo\nthree\nfour\n")]);
    let r = apply(
        dir.path(),
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-three\n+three\n*** End Patch\n",
    );
    assert_eq!(r["error"]["code"], "no_change", "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("(line 3)"), "{message}");
    assert_eq!(read(dir.path(), "a.txt"), b"one\ntwo\nthree\nfour\n");
}

/// The placement messages, word for word (their sentences live in `wording.rs`; the failures come
/// from surgical-patch as data).
#[test]
fn placement_messages_word_for_word() {
    let dir = setup(&[("a.txt", b"x = 1\ny\nx = 1\nabc\n")]);
    let message = |patch: &str| -> (String, String) {
        let r = apply(dir.path(), patch);
        let e = &r["error"];
        (
            e["code"].as_str().unwrap().to_string(),
            e["message"].as_str().unwrap().to_string(),
        )
    };
    let (code, m) = message("*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 2\n*** End Patch\n");
    assert_eq!(code, "ambiguous");
    assert!(
        m.starts_with(
            "a.txt: hunk 0 (patch line 3): The hunk's unchanged and `-` lines occur 2 times if line endings, \
             trailing whitespace and special spaces are ignored (differences you cannot see), so where it goes is \
             unclear:\n  line 1: x = 1\n  line 3: x = 1\nAdd unchanged lines around the change (or an @@ line \
             naming the function or class it is in) until they match only one place.\n"
        ),
        "{m}"
    );
    let (code, m) = message("*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n*** End Patch\n");
    assert_eq!(code, "not_found");
    assert!(
        m.starts_with(
            "a.txt: hunk 0 (patch line 3): The hunk's unchanged and `-` lines were not found in the file.\nThey do \
             occur at line 4 (abc), but not as whole lines. Copy the lines whole, as the file has them.\n"
        ),
        "{m}"
    );
    let (code, m) = message("*** Begin Patch\n*** Update File: a.txt\n@@ abc\n-x = 1\n+x = 2\n*** End Patch\n");
    assert_eq!(code, "not_found");
    assert!(
        m.starts_with(
            "a.txt: hunk 0 (patch line 3): The hunk's unchanged and `-` lines were not found after its @@ line (line \
             4: abc).\nThey occur (at lines 1, 3), but not as whole lines where the hunk may go."
        ),
        "{m}"
    );
    let (code, m) = message("*** Begin Patch\n*** Update File: a.txt\n@@ x = 1\n-y\n+Y\n*** End Patch\n");
    assert_eq!(code, "ambiguous");
    assert!(
        m.starts_with(
            "a.txt: hunk 0 (patch line 3): its @@ line `x = 1` occurs 2 times, so where it points is unclear:\n  \
             line 1: x = 1\n  line 3: x = 1\nUse a line that occurs once (the whole signature of the function or \
             class), or add another @@ line before it naming the enclosing scope.\n"
        ),
        "{m}"
    );
    let (code, m) = message("*** Begin Patch\n*** Update File: a.txt\n@@ abc\n@@ y\n-x = 1\n+x = 2\n*** End Patch\n");
    assert_eq!(code, "not_found");
    assert!(
        m.starts_with(
            "a.txt: hunk 0 (patch line 3): its @@ line `y` was not found after the @@ line before it (line 4). It \
             occurs only before that point.\n"
        ),
        "{m}"
    );
    let (code, m) = message("a.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n");
    assert_eq!(code, "invalid_input");
    assert!(
        m.contains(
            "it only adds lines and has no the SEARCH lines to show where: the file is not empty, so its place \
             cannot be checked. Include at least one unchanged line before or after the added lines."
        ),
        "{m}"
    );
    let (code, m) = message(
        "a.txt\n<<<<<<< SEARCH\nx = 1\ny\n=======\nz\n>>>>>>> REPLACE\n<<<<<<< SEARCH\ny\nx = 1\nabc\n=======\nw\n>>>>>>> \
         REPLACE\n",
    );
    assert_eq!(code, "overlap");
    assert!(
        m.contains(
            "hunks 0 and 1 change overlapping lines (near line 2); each line may be changed by one hunk only. Merge \
             them into one hunk."
        ),
        "{m}"
    );
    assert_eq!(read(dir.path(), "a.txt"), b"x = 1\ny\nx = 1\nabc\n");
}

#[test]
fn a_git_diff_removing_the_bom_says_so() {
    let dir = setup(&[("f.txt", b"\xef\xbb\xbfa\nb\n")]);
    let r = apply(
        dir.path(),
        "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-\u{feff}a\n+a\n b\n",
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(read(dir.path(), "f.txt"), b"a\nb\n");
    assert_eq!(r["files"][0]["hunks"].as_array().unwrap().len(), 1, "{r}");
    assert!(r["text"].as_str().unwrap().contains("BOM was removed"), "{r}");
    assert!(r["patch"].as_str().unwrap().contains("\u{feff}"), "{r}");
}
