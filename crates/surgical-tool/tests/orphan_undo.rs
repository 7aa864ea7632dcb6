//! A writer killed between hard-linking the replaced file into the undo journal and the rename
//! leaves that link behind (issue 16). The next call removes it before reading the file, so the
//! file is again replaced atomically (a new inode), not rewritten in place for having two links.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde_json::json;
use surgical_tool::{call, ToolResult};

/// The step directory a killed writer of pid `pid` leaves: a link to `file`, no metadata.
fn leave_orphan(root: &Path, file: &Path, pid: u32) -> PathBuf {
    // Started now: the ten-minute prune of incomplete steps does not apply.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    let step = root
        .join(".surgical/undo")
        .join(format!("{:023}-{pid}", now.as_nanos()));
    fs::create_dir_all(&step).unwrap();
    fs::hard_link(file, step.join("before")).unwrap();
    step
}

/// The pid of a process that has exited (and been reaped).
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[test]
fn a_killed_writers_link_does_not_make_later_writes_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let file = root.join("a.rs");
    for (tool, input) in [
        ("edit", json!({"path": "a.rs", "oldText": "one", "newText": "two"})),
        ("write", json!({"path": "a.rs", "content": "three\n"})),
    ] {
        if !file.exists() {
            fs::write(&file, "one\n").unwrap();
        }
        let orphan = leave_orphan(root, &file, dead_pid());
        let before = fs::metadata(&file).unwrap();
        assert_eq!(before.nlink(), 2);
        let result = call(tool, &input, root);
        assert!(!matches!(result, ToolResult::Error(_)), "{tool}: {}", result.text());
        let after = fs::metadata(&file).unwrap();
        assert_ne!(after.ino(), before.ino(), "{tool} rewrote the file in place");
        assert_eq!(after.nlink(), 1, "{tool}");
        assert!(!orphan.exists(), "{tool} left the orphan step");
    }
    assert_eq!(fs::read_to_string(&file).unwrap(), "three\n");
    // The calls' own steps were kept: undo takes back the write, then the edit, each time past
    // another orphan.
    for expected in ["two\n", "one\n"] {
        let orphan = leave_orphan(root, &file, dead_pid());
        let before = fs::metadata(&file).unwrap();
        let result = call("undo", &json!({"path": "a.rs"}), root);
        assert!(!matches!(result, ToolResult::Error(_)), "undo: {}", result.text());
        assert_eq!(fs::read_to_string(&file).unwrap(), expected);
        assert_ne!(
            fs::metadata(&file).unwrap().ino(),
            before.ino(),
            "undo rewrote the file in place"
        );
        assert!(!orphan.exists(), "undo left the orphan step");
    }
}

#[test]
fn a_live_writers_step_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let file = root.join("a.rs");
    fs::write(&file, "one\n").unwrap();
    // Our own pid: a step this process may still complete.
    let step = leave_orphan(root, &file, std::process::id());
    let result = call(
        "edit",
        &json!({"path": "a.rs", "oldText": "one", "newText": "two"}),
        root,
    );
    assert!(!matches!(result, ToolResult::Error(_)), "{}", result.text());
    assert!(step.join("before").exists());
    assert_eq!(fs::read_to_string(step.join("before")).unwrap(), "two\n");
}
