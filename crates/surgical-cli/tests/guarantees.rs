//! The guarantees of docs/guarantees.md, each proved on the real binary: the
//! workspace sandbox, crash safety under SIGKILL, no lost update between concurrent processes,
//! stale-version refusal, undo, hard links, and limits.

#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Child, Output};
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::{bin, spawn_with_input, Run};

fn spawn_call(tool: &str, root: &Path, input: &Value) -> Child {
    let mut cmd = bin();
    cmd.args(["call", tool, "--root"]).arg(root);
    spawn_with_input(cmd, input.to_string().as_bytes())
}

fn call(tool: &str, root: &Path, input: &Value) -> (Output, Value) {
    let out = spawn_call(tool, root, input).wait_with_output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, v)
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

/// Names in `dir` that look like surgical's temporary files.
fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".surgical-") && n.ends_with(".tmp"))
        .collect()
}

struct Workspace {
    _tmp: tempfile::TempDir,
    outside: PathBuf,
    root: PathBuf,
}

fn workspace() -> Workspace {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    let outside = tmp.path().join("outside.txt");
    std::fs::write(&outside, "secret = 1\n").unwrap();
    std::fs::write(root.join("inside.txt"), "value = 1\n").unwrap();
    Workspace {
        root,
        outside,
        _tmp: tmp,
    }
}

#[test]
fn sandbox_refuses_every_way_out() {
    let ws = workspace();
    let outside = ws.outside.to_string_lossy().into_owned();
    let mut paths = vec![
        "../outside.txt".to_string(),
        outside.clone(),
        "sub/../../outside.txt".to_string(),
    ];
    #[cfg(unix)]
    {
        symlink(&ws.outside, ws.root.join("link-out.txt")).unwrap();
        symlink(ws.outside.parent().unwrap(), ws.root.join("dir-out")).unwrap();
        paths.extend(["link-out.txt".to_string(), "dir-out/outside.txt".to_string()]);
    }
    // The other spellings of a Windows path: another case, the `\\?\` form, `/` separators.
    #[cfg(windows)]
    paths.extend([
        outside.to_uppercase(),
        format!(r"\\?\{outside}"),
        outside.replace('\\', "/"),
        r"..\outside.txt".to_string(),
    ]);
    for path in &paths {
        let path = path.as_str();
        let (out, v) = call(
            "edit",
            &ws.root,
            &json!({"path": path, "oldText": "secret = 1", "newText": "secret = 2"}),
        );
        assert_eq!(out.status.code(), Some(1), "{path}");
        assert_eq!(code(&v), "outside_root", "{path}: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains(path), "{v}");
    }
    assert_eq!(std::fs::read_to_string(&ws.outside).unwrap(), "secret = 1\n");
    // Undo is sandboxed the same way.
    let (_, v) = call("undo", &ws.root, &json!({"path": "../outside.txt"}));
    assert_eq!(code(&v), "outside_root");
}

#[test]
#[cfg(unix)]
fn sandbox_allows_links_that_stay_inside_and_a_symlinked_root() {
    let ws = workspace();
    symlink("inside.txt", ws.root.join("link-in.txt")).unwrap();
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "link-in.txt", "oldText": "value = 1", "newText": "value = 2"}),
    );
    assert_eq!(v["ok"], json!(true), "{v}");
    assert!(std::fs::symlink_metadata(ws.root.join("link-in.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(ws.root.join("inside.txt")).unwrap(),
        "value = 2\n"
    );
    // The root itself reached through a link.
    let linked_root = ws.root.with_file_name("ws-link");
    symlink(&ws.root, &linked_root).unwrap();
    let (_, v) = call(
        "edit",
        &linked_root,
        &json!({"path": "inside.txt", "oldText": "value = 2", "newText": "value = 3"}),
    );
    assert_eq!(v["ok"], json!(true), "{v}");
    // An absolute path inside the root is fine.
    let abs = ws.root.join("inside.txt").to_string_lossy().into_owned();
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": abs, "oldText": "value = 3", "newText": "value = 4"}),
    );
    assert_eq!(v["ok"], json!(true), "{v}");
}

#[test]
fn concurrent_processes_lose_no_update() {
    let ws = workspace();
    const N: usize = 8;
    let original: String = (0..N).map(|i| format!("line {i} = 0\n")).collect();
    let file = ws.root.join("shared.txt");
    std::fs::write(&file, &original).unwrap();
    let children: Vec<Child> = (0..N)
        .map(|i| {
            let edit = json!({"path": "shared.txt", "oldText": format!("line {i} = 0"), "newText": format!("line {i} = {}", i + 1)});
            spawn_call("edit", &ws.root, &edit)
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    }
    let expected: String = (0..N).map(|i| format!("line {i} = {}\n", i + 1)).collect();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    assert!(temp_files(&ws.root).is_empty());
}

#[test]
fn an_edit_planned_on_an_old_version_is_refused() {
    let ws = workspace();
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "inside.txt", "oldText": "value = 1", "newText": "value = 2"}),
    );
    let before = v["hashBefore"].as_str().unwrap().to_string();
    let after = v["hashAfter"].as_str().unwrap().to_string();
    assert_ne!(before, after);
    // Planned against the version that hashed to `before`: refused, file untouched.
    let (out, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "inside.txt", "oldText": "value = 2", "newText": "value = 3", "expectedHash": before}),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(code(&v), "stale");
    assert_eq!(
        std::fs::read_to_string(ws.root.join("inside.txt")).unwrap(),
        "value = 2\n"
    );
    // Against the current version: applied.
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "inside.txt", "oldText": "value = 2", "newText": "value = 3", "expectedHash": after}),
    );
    assert_eq!(v["ok"], json!(true), "{v}");
}

/// A tiny deterministic generator: the seed is printed so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

#[test]
fn sigkill_at_any_moment_leaves_old_or_new_never_partial() {
    let ws = workspace();
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("crash test seed: {seed}");
    let mut rng = Lcg(seed);
    // Big enough that writing takes a while, so kills land in every phase.
    let line = "let value = compute(\"some text to make the file larger\");\r\n";
    let body = line.repeat((8 << 20) / line.len());
    let old = format!("\u{feff}// header\r\nmarker = 0\r\n{body}");
    let new = old.replace("marker = 0", "marker = 1");
    let file = ws.root.join("big.rs");
    let mut outcomes = [0usize; 2];
    for _ in 0..24 {
        std::fs::write(&file, &old).unwrap();
        let mut child = spawn_call(
            "edit",
            &ws.root,
            &json!({"path": "big.rs", "oldText": "marker = 0", "newText": "marker = 1"}),
        );
        std::thread::sleep(Duration::from_micros(rng.next(60_000)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let now = std::fs::read(&file).unwrap();
        if now == old.as_bytes() {
            outcomes[0] += 1;
        } else if now == new.as_bytes() {
            outcomes[1] += 1;
        } else {
            panic!("partial file after SIGKILL (seed {seed}): {} bytes", now.len());
        }
    }
    eprintln!("old: {}, new: {}", outcomes[0], outcomes[1]);
    // Kills that provably land in the in-flight window: the writer parks right before its rename
    // (surgical-fs's `testing` hook) and says so; the temporary file is complete, the target is not
    // replaced yet. Each kill there must leave the old file.
    let signal = ws.root.parent().unwrap().join("in-flight");
    for _ in 0..3 {
        // A fresh file: a kill above may have left it hard-linked (then it is rewritten in place).
        std::fs::remove_file(&file).unwrap();
        std::fs::write(&file, &old).unwrap();
        let _ = std::fs::remove_file(&signal);
        let mut cmd = bin();
        cmd.env("SURGICAL_TEST_BEFORE_RENAME", &signal);
        cmd.args(["call", "edit", "--root"]).arg(&ws.root);
        let input = json!({"path": "big.rs", "oldText": "marker = 0", "newText": "marker = 1"});
        let mut child = spawn_with_input(cmd, input.to_string().as_bytes());
        let started = std::time::Instant::now();
        while !signal.exists() {
            if child.try_wait().unwrap().is_some() {
                let out = child.wait_with_output().unwrap();
                panic!(
                    "the writer ended before its rename: {}",
                    String::from_utf8_lossy(&out.stdout)
                );
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the writer never reached its rename"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let in_flight = temp_files(&ws.root);
        assert_eq!(in_flight.len(), 1, "no temporary file while the write is in flight");
        let temp = std::fs::read(ws.root.join(&in_flight[0])).unwrap();
        assert_eq!(temp, new.as_bytes(), "the temporary file is not the new content yet");
        let _ = child.kill(); // SIGKILL, between the temporary file's creation and the rename
        let _ = child.wait();
        assert_eq!(
            std::fs::read(&file).unwrap(),
            old.as_bytes(),
            "a kill before the rename changed the file"
        );
    }
    // The next run cleans up what killed writers left behind.
    std::fs::write(&file, &old).unwrap();
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "big.rs", "oldText": "marker = 0", "newText": "marker = 1"}),
    );
    assert_eq!(v["ok"], json!(true));
    assert_eq!(std::fs::read(&file).unwrap(), new.as_bytes());
    assert_eq!(temp_files(&ws.root), Vec::<String>::new());
}

#[test]
fn undo_restores_byte_for_byte_and_refuses_after_outside_changes() {
    let ws = workspace();
    let file = ws.root.join("undo.txt");
    let original = b"\xef\xbb\xbfone\r\ntwo\nthree \xe2\x80\x94 x\r\n";
    std::fs::write(&file, original).unwrap();
    let (_, v) = call("undo", &ws.root, &json!({"path": "undo.txt"}));
    assert_eq!(code(&v), "no_undo", "{v}");
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "undo.txt", "oldText": "two", "newText": "2"}),
    );
    assert_eq!(v["undoAvailable"], json!(true));
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "undo.txt", "oldText": "one", "newText": "1"}),
    );
    assert_eq!(v["ok"], json!(true));
    // Two undos walk back two edits.
    let (out, v) = call("undo", &ws.root, &json!({"path": "undo.txt"}));
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        b"\xef\xbb\xbfone\r\n2\nthree \xe2\x80\x94 x\r\n"
    );
    assert!(v["diff"].as_str().unwrap().contains("+1 one"), "{v}");
    let (_, v) = call("undo", &ws.root, &json!({"path": "undo.txt"}));
    assert_eq!(v["ok"], json!(true));
    assert_eq!(std::fs::read(&file).unwrap(), original);
    // Changed by someone else since the last edit: refused.
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "undo.txt", "oldText": "two", "newText": "2"}),
    );
    assert_eq!(v["ok"], json!(true));
    std::fs::write(&file, b"someone else's content\n").unwrap();
    let (out, v) = call("undo", &ws.root, &json!({"path": "undo.txt"}));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(code(&v), "stale");
    assert_eq!(std::fs::read(&file).unwrap(), b"someone else's content\n");
    // The command for people.
    std::fs::write(&file, b"a\n").unwrap();
    let out = bin()
        .current_dir(&ws.root)
        .args(["edit", "undo.txt", "--old", "a", "--new", "b"])
        .run();
    assert_eq!(out.status.code(), Some(0));
    let out = bin().args(["undo", "undo.txt", "--root"]).arg(&ws.root).run();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), b"a\n");
    // The journal ignores itself in version control.
    assert!(std::fs::read_to_string(ws.root.join(".surgical/.gitignore"))
        .unwrap()
        .contains('*'));
}

#[test]
fn hard_links_all_see_the_edit() {
    let ws = workspace();
    std::fs::hard_link(ws.root.join("inside.txt"), ws.root.join("second-name.txt")).unwrap();
    let (_, v) = call(
        "edit",
        &ws.root,
        &json!({"path": "inside.txt", "oldText": "value = 1", "newText": "value = 9"}),
    );
    assert_eq!(v["ok"], json!(true), "{v}");
    assert_eq!(
        std::fs::read_to_string(ws.root.join("second-name.txt")).unwrap(),
        "value = 9\n"
    );
}

#[test]
fn limits_and_bad_input() {
    let ws = workspace();
    std::fs::write(ws.root.join("big.txt"), "x".repeat(2000)).unwrap();
    let out = spawn_call(
        "edit",
        &ws.root,
        &json!({"path": "big.txt", "oldText": "x", "newText": "y"}),
    );
    let v: Value = serde_json::from_slice(&out.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(code(&v), "ambiguous"); // under the default limit it is read fine
    let mut cmd = bin();
    cmd.args(["call", "edit", "--max-file-size", "1000", "--root"])
        .arg(&ws.root);
    let child = spawn_with_input(cmd, br#"{"path": "big.txt", "oldText": "x", "newText": "y"}"#);
    let v: Value = serde_json::from_slice(&child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(code(&v), "too_large", "{v}");
    // A FIFO is refused without blocking (Windows has no FIFOs in the file system).
    #[cfg(unix)]
    {
        let fifo = ws.root.join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: valid C string.
        assert_eq!(unsafe { libc_mkfifo(c.as_ptr(), 0o644) }, 0);
        let start = std::time::Instant::now();
        let (_, v) = call(
            "edit",
            &ws.root,
            &json!({"path": "pipe", "oldText": "a", "newText": "b"}),
        );
        assert_eq!(code(&v), "not_a_file");
        assert!(start.elapsed() < Duration::from_secs(20));
    }
    // Requests that are not valid UTF-8 or not JSON, or have wrong types.
    for raw in [
        &b"\xff\xfe{"[..],
        b"{\"path\": ",
        b"[]",
        b"{\"path\": \"inside.txt\", \"edits\": 5}",
    ] {
        let mut cmd = bin();
        cmd.args(["call", "edit", "--root"]).arg(&ws.root);
        let out = spawn_with_input(cmd, raw).wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(code(&v), "invalid_input", "{v}");
    }
}

#[cfg(unix)]
extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}
