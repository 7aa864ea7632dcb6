//! The `read` and `write` tools on real files, byte for byte: line endings of every kind, BOMs,
//! UTF-16, invalid UTF-8, paging, new files, overwrites, refusals, and `surgical call`-style JSON.

use std::fs;
use std::path::Path;

use serde_json::{json, Value};
use surgical_tool::{call, sha256_hex, ToolResult};

fn ok(tool: &str, root: &Path, input: Value) -> Value {
    let result = call(tool, &input, root);
    assert!(result.is_ok(), "{tool} {input}: {}", result.text());
    let v = result.to_json();
    assert_eq!(v["ok"], true);
    assert_eq!(v["text"], result.text());
    v
}

fn fails(tool: &str, root: &Path, input: Value, code: &str) -> Value {
    let result = call(tool, &input, root);
    let ToolResult::Error(e) = &result else {
        panic!("{tool} {input} should fail with {code}: {}", result.text());
    };
    assert_eq!(e.code, code, "{}", e.message);
    result.to_json()
}

fn utf16le(s: &str) -> Vec<u8> {
    let mut out = vec![0xff, 0xfe];
    for u in s.encode_utf16() {
        out.extend_from_slice(&u.to_le_bytes());
    }
    out
}

fn utf16be(s: &str) -> Vec<u8> {
    let mut out = vec![0xfe, 0xff];
    for u in s.encode_utf16() {
        out.extend_from_slice(&u.to_be_bytes());
    }
    out
}

/// The numbered lines of a read's text (the header line left out, notes too).
fn shown_lines(text: &str) -> Vec<String> {
    text.lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn read_counts_every_terminator_and_never_shows_a_cr() {
    let dir = tempfile::tempdir().unwrap();
    let data = b"\xef\xbb\xbfa\r\nb\rc\n\nd   ";
    fs::write(dir.path().join("m.txt"), data).unwrap();
    let v = ok("read", dir.path(), json!({"path": "m.txt"}));
    let text = v["text"].as_str().unwrap();
    assert!(!text.contains('\r') && !text.contains('\u{feff}'), "{text:?}");
    assert_eq!(shown_lines(text), ["1\ta", "2\tb", "3\tc", "4\t", "5\td   "]);
    assert_eq!(v["hash"], sha256_hex(&[data]));
    assert!(text.lines().next().unwrap().contains(&sha256_hex(&[data])));
    assert_eq!(
        (&v["encoding"], &v["bom"], &v["lineEnding"], &v["totalLines"]),
        (&json!("utf-8-bom"), &json!(true), &json!("mixed"), &json!(5))
    );
    assert!(text.contains("mixed line endings (1 CRLF, 2 LF, 1 CR)"), "{text}");
    // Reading changes nothing.
    assert_eq!(fs::read(dir.path().join("m.txt")).unwrap(), data);
}

#[test]
fn read_reports_each_encoding_and_style() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<u8>, &str, bool, &str); 6] = [
        ("lf.txt", b"x\ny\n".to_vec(), "utf-8", false, "lf"),
        ("crlf.txt", b"x\r\ny\r\n".to_vec(), "utf-8", false, "crlf"),
        ("cr.txt", b"x\ry\r".to_vec(), "utf-8", false, "cr"),
        ("none.txt", b"just one line".to_vec(), "utf-8", false, "none"),
        ("le.txt", utf16le("x\r\ny\r\n"), "utf-16le", true, "crlf"),
        ("be.txt", utf16be("x\ny\n"), "utf-16be", true, "lf"),
    ];
    for (name, data, encoding, bom, style) in cases {
        fs::write(dir.path().join(name), &data).unwrap();
        let v = ok("read", dir.path(), json!({"path": name}));
        assert_eq!(v["encoding"], encoding, "{name}");
        assert_eq!(v["bom"], bom, "{name}");
        assert_eq!(v["lineEnding"], style, "{name}");
        assert_eq!(
            v["hash"],
            sha256_hex(&[&data]),
            "{name}: the hash is of the bytes on disk"
        );
        if name != "none.txt" {
            assert_eq!(shown_lines(v["text"].as_str().unwrap()), ["1\tx", "2\ty"], "{name}");
        }
    }
}

#[test]
fn read_shows_invalid_utf8_as_replacement_characters() {
    let dir = tempfile::tempdir().unwrap();
    let data = b"caf\xe9\nok\n";
    fs::write(dir.path().join("l1.txt"), data).unwrap();
    let v = ok("read", dir.path(), json!({"path": "l1.txt"}));
    let text = v["text"].as_str().unwrap();
    assert_eq!(shown_lines(text), ["1\tcaf\u{fffd}", "2\tok"]);
    assert!(
        text.contains("[Line 1 holds bytes that are not valid UTF-8, shown as U+FFFD"),
        "{text}"
    );
    // The edit tool matches U+FFFD against those bytes and keeps them.
    ok(
        "edit",
        dir.path(),
        json!({"path": "l1.txt", "oldText": "caf\u{fffd}\nok", "newText": "caf\u{fffd}\nfine"}),
    );
    assert_eq!(fs::read(dir.path().join("l1.txt")).unwrap(), b"caf\xe9\nfine\n");
}

#[test]
fn read_pages_long_files() {
    let dir = tempfile::tempdir().unwrap();
    let data: String = (1..=4500).map(|n| format!("line {n}\r\n")).collect();
    fs::write(dir.path().join("long.txt"), &data).unwrap();
    let mut start = 1;
    let mut seen = Vec::new();
    loop {
        let v = ok("read", dir.path(), json!({"path": "long.txt", "startLine": start}));
        let text = v["text"].as_str().unwrap();
        seen.extend(shown_lines(text));
        match v["nextLine"].as_u64() {
            Some(next) => {
                assert!(
                    text.contains(&format!("call read with startLine {next}")),
                    "{}",
                    &text[text.len() - 200..]
                );
                assert_eq!(v["endLine"].as_u64().unwrap() + 1, next);
                start = next;
            }
            None => break,
        }
    }
    assert_eq!(seen.len(), 4500);
    assert_eq!(seen[0], "   1\tline 1");
    assert_eq!(seen[4499], "4500\tline 4500");
    let v = ok(
        "read",
        dir.path(),
        json!({"path": "long.txt", "startLine": "4499", "limit": 5}),
    );
    assert_eq!(
        shown_lines(v["text"].as_str().unwrap()),
        ["4499\tline 4499", "4500\tline 4500"]
    );
    assert!(v.get("nextLine").is_none());
    fails(
        "read",
        dir.path(),
        json!({"path": "long.txt", "startLine": 4501}),
        "invalid_input",
    );
}

#[test]
fn read_refuses_what_it_cannot_show() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("bin"), b"PK\x03\x04\x00\x00").unwrap();
    let v = fails("read", dir.path(), json!({"path": "bin"}), "binary_file");
    assert!(v["error"]["message"].as_str().unwrap().contains("bin"), "{v}");
    fs::write(dir.path().join("u32"), b"\xff\xfe\x00\x00a\x00\x00\x00").unwrap();
    fails("read", dir.path(), json!({"path": "u32"}), "unsupported_encoding");
    let v = fails("read", dir.path(), json!({"path": "nope.rs"}), "file_not_found");
    assert!(v["error"]["message"].as_str().unwrap().contains("write tool"), "{v}");
    fails("read", dir.path(), json!({"path": "."}), "not_a_file");
    fails("read", dir.path(), json!({"path": "../../etc/passwd"}), "outside_root");
}

#[test]
fn write_creates_files_with_lf_and_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let v = ok(
        "write",
        dir.path(),
        json!({"path": "a/b/new.rs", "content": "fn f() {}\r\n\nfn g() {}"}),
    );
    assert_eq!(
        fs::read(dir.path().join("a/b/new.rs")).unwrap(),
        b"fn f() {}\n\nfn g() {}"
    );
    assert_eq!(v["created"], true);
    assert_eq!(v["hashBefore"], Value::Null);
    assert_eq!(v["hashAfter"], sha256_hex(&[b"fn f() {}\n\nfn g() {}"]));
    assert_eq!(
        (&v["encoding"], &v["lineEnding"], &v["totalLines"]),
        (&json!("utf-8"), &json!("lf"), &json!(3))
    );
    assert_eq!(v["diff"], "");
    // Undoing a creation removes the file.
    assert_eq!(v["undoAvailable"], true);

    for (name, ending, encoding, expected) in [
        ("crlf.txt", "crlf", "utf-8", b"x\r\ny\r\n".to_vec()),
        ("cr.txt", "cr", "utf-8-bom", b"\xef\xbb\xbfx\ry\r".to_vec()),
        ("le.txt", "crlf", "utf-16le", utf16le("x\r\ny\r\n")),
        ("be.txt", "lf", "utf-16be", utf16be("x\ny\n")),
    ] {
        ok(
            "write",
            dir.path(),
            json!({"path": name, "content": "x\ny\n", "lineEnding": ending, "encoding": encoding}),
        );
        assert_eq!(fs::read(dir.path().join(name)).unwrap(), expected, "{name}");
        // What write wrote, read reads back.
        let v = ok("read", dir.path(), json!({"path": name}));
        assert_eq!(
            (&v["lineEnding"], &v["encoding"]),
            (&json!(ending), &json!(encoding)),
            "{name}"
        );
    }
    // A leading U+FEFF in content does not double the BOM.
    ok(
        "write",
        dir.path(),
        json!({"path": "bom.txt", "content": "\u{feff}x", "encoding": "utf-8-bom"}),
    );
    assert_eq!(fs::read(dir.path().join("bom.txt")).unwrap(), b"\xef\xbb\xbfx");
}

#[test]
fn write_over_a_file_keeps_its_bom_and_line_endings() {
    let dir = tempfile::tempdir().unwrap();
    let old = b"\xef\xbb\xbfone\r\ntwo\r\nthree\r\n";
    fs::write(dir.path().join("k.txt"), old).unwrap();
    let v = ok(
        "write",
        dir.path(),
        json!({"path": "k.txt", "content": "one\nTWO\nthree\n"}),
    );
    let new = b"\xef\xbb\xbfone\r\nTWO\r\nthree\r\n";
    assert_eq!(fs::read(dir.path().join("k.txt")).unwrap(), new);
    assert_eq!(v["created"], false);
    assert_eq!(v["hashBefore"], sha256_hex(&[old]));
    assert_eq!(v["hashAfter"], sha256_hex(&[new]));
    assert_eq!(
        (&v["lineEnding"], &v["encoding"], &v["bom"]),
        (&json!("crlf"), &json!("utf-8-bom"), &json!(true))
    );
    assert_eq!(v["diff"], " 1 one\n-2 two\n+2 TWO\n 3 three\n");
    assert_eq!(v["firstChangedLine"], 2);
    assert_eq!(
        v["patch"],
        "--- a/k.txt\n+++ b/k.txt\n@@ -1,3 +1,3 @@\n \u{feff}one\r\n-two\r\n+TWO\r\n three\r\n"
    );
    assert!(
        v["text"].as_str().unwrap().contains("CRLF, kept from the file"),
        "{}",
        v["text"]
    );
    assert_eq!(v["undoAvailable"], true);
    // Undo puts the old bytes back.
    ok("undo", dir.path(), json!({"path": "k.txt"}));
    assert_eq!(fs::read(dir.path().join("k.txt")).unwrap(), old);

    // UTF-16 and a lone-CR file keep theirs too; an explicit choice wins.
    fs::write(dir.path().join("u.txt"), utf16be("a\rb\r")).unwrap();
    ok("write", dir.path(), json!({"path": "u.txt", "content": "a\nc\n"}));
    assert_eq!(fs::read(dir.path().join("u.txt")).unwrap(), utf16be("a\rc\r"));
    ok(
        "write",
        dir.path(),
        json!({"path": "u.txt", "content": "a\nc\n", "lineEnding": "lf", "encoding": "utf-8"}),
    );
    assert_eq!(fs::read(dir.path().join("u.txt")).unwrap(), b"a\nc\n");

    // Mixed endings: the most frequent one.
    fs::write(dir.path().join("mix.txt"), b"a\r\nb\r\nc\n").unwrap();
    let v = ok(
        "write",
        dir.path(),
        json!({"path": "mix.txt", "content": "a\nb\nc\nd\n"}),
    );
    assert_eq!(fs::read(dir.path().join("mix.txt")).unwrap(), b"a\r\nb\r\nc\r\nd\r\n");
    assert!(v["text"].as_str().unwrap().contains("mixed"), "{}", v["text"]);
}

#[test]
fn write_same_content_and_dry_run_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("same.txt");
    fs::write(&path, b"a\r\nb\r\n").unwrap();
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    let v = ok("write", dir.path(), json!({"path": "same.txt", "content": "a\nb\n"}));
    assert!(
        v["text"].as_str().unwrap().contains("nothing was written"),
        "{}",
        v["text"]
    );
    assert_eq!(v["hashBefore"], v["hashAfter"]);
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
    let v = ok(
        "write",
        dir.path(),
        json!({"path": "same.txt", "content": "changed\n", "dryRun": true}),
    );
    assert_eq!(v["dryRun"], true);
    assert!(v["diff"].as_str().unwrap().contains("+1 changed"), "{}", v["diff"]);
    assert_eq!(fs::read(&path).unwrap(), b"a\r\nb\r\n");
    ok(
        "write",
        dir.path(),
        json!({"path": "new.txt", "content": "x", "dryRun": true}),
    );
    assert!(!dir.path().join("new.txt").exists());
}

#[test]
fn write_refusals_leave_everything_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), b"keep\n").unwrap();
    fs::write(dir.path().join("bin"), b"\x00\x01").unwrap();
    fails(
        "write",
        dir.path(),
        json!({"path": "f.txt", "content": "x", "expectedHash": "0".repeat(64)}),
        "stale",
    );
    // The right hash lets it through.
    let hash = sha256_hex(&[b"keep\n"]);
    ok(
        "write",
        dir.path(),
        json!({"path": "f.txt", "content": "keep\n", "expectedHash": hash.to_uppercase()}),
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "gone.txt", "content": "x", "expectedHash": hash}),
        "stale",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "bin", "content": "text"}),
        "binary_file",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "f.txt", "content": "a\u{0}b"}),
        "invalid_input",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "f.txt", "content": "x", "encoding": "latin-1"}),
        "invalid_input",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "f.txt", "content": "\u{0}x", "encoding": "utf-16le"}),
        "unsupported_encoding",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "../out.txt", "content": "x"}),
        "outside_root",
    );
    fails(
        "write",
        dir.path(),
        json!({"path": "f.txt/inner.txt", "content": "x"}),
        "io",
    );
    assert_eq!(fs::read(dir.path().join("f.txt")).unwrap(), b"keep\n");
    assert_eq!(fs::read(dir.path().join("bin")).unwrap(), b"\x00\x01");
    assert!(!dir.path().join("gone.txt").exists());
    assert!(!dir.path().parent().unwrap().join("out.txt").exists());
    // No temporary files left behind.
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".surgical")
        .collect();
    names.sort();
    assert_eq!(names, ["bin", "f.txt"]);
}

#[test]
#[cfg(unix)]
fn write_keeps_the_mode_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.sh");
    fs::write(&path, b"#!/bin/sh\necho a\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o750)).unwrap();
    ok(
        "write",
        dir.path(),
        json!({"path": "run.sh", "content": "#!/bin/sh\necho b\n"}),
    );
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o750);
    assert_eq!(fs::read(&path).unwrap(), b"#!/bin/sh\necho b\n");
}

/// `git apply` of `patch` onto `old` (as file `name`) gives `new`.
fn git_apply_reproduces(name: &str, old: &[u8], patch: &str, new: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(name), old).unwrap();
    fs::write(dir.path().join("p.patch"), patch).unwrap();
    let out = std::process::Command::new("git")
        .current_dir(dir.path())
        .args(["apply", "--whitespace=nowarn", "p.patch"])
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git apply: {}\n{patch}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fs::read(dir.path().join(name)).unwrap(), new, "git apply result");
}

#[test]
#[cfg_attr(windows, ignore = "runs `git apply`, which the Windows CI (Wine) does not have")]
fn write_patches_apply_with_git() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[u8], &str, &[u8]); 4] = [
        (b"\xef\xbb\xbfa\r\nb\r\nc", "a\nB\nc", b"\xef\xbb\xbfa\r\nB\r\nc"),
        (b"x\ny\n", "x\ny", b"x\ny"),
        (b"one\rtwo\r", "one\n2\n", b"one\r2\r"),
        (b"", "new\n", b"new\n"),
    ];
    for (k, (old, content, new)) in cases.into_iter().enumerate() {
        let name = format!("f{k}.txt");
        fs::write(dir.path().join(&name), old).unwrap();
        let v = ok("write", dir.path(), json!({"path": name, "content": content}));
        assert_eq!(fs::read(dir.path().join(&name)).unwrap(), new, "{name}");
        git_apply_reproduces(&name, old, v["patch"].as_str().unwrap(), new);
    }
}

#[test]
#[cfg_attr(windows, ignore = "runs `git apply`, which the Windows CI (Wine) does not have")]
fn write_a_huge_rewrite_stays_fast_and_its_patch_applies() {
    let dir = tempfile::tempdir().unwrap();
    // Short lines, so that the patch replacing every one (about 180 KiB) is within what a result
    // shows whole (256 KiB).
    let old = "a\n".repeat(30_000);
    let new = "b\n".repeat(30_000);
    fs::write(dir.path().join("big.txt"), &old).unwrap();
    let start = std::time::Instant::now();
    let v = ok("write", dir.path(), json!({"path": "big.txt", "content": new}));
    let took = start.elapsed();
    // A line diff of this would take tens of seconds (every line differs); the trial diff gives up.
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    assert_eq!(fs::read(dir.path().join("big.txt")).unwrap(), new.as_bytes());
    assert_eq!(v["diff"], "");
    assert_eq!(v["firstChangedLine"], 1);
    assert!(v["text"].as_str().unwrap().contains("No diff"), "{}", v["text"]);
    assert_eq!(v["patchTruncated"], false);
    git_apply_reproduces("big.txt", old.as_bytes(), v["patch"].as_str().unwrap(), new.as_bytes());
    // Longer lines: the patch is past what a result shows, cut, and says so.
    let old: String = (0..40_000).map(|n| format!("old line {n}\n")).collect();
    let new: String = (0..40_000).map(|n| format!("new line {n}\n")).collect();
    fs::write(dir.path().join("big.txt"), &old).unwrap();
    let v = ok("write", dir.path(), json!({"path": "big.txt", "content": new}));
    assert_eq!(fs::read(dir.path().join("big.txt")).unwrap(), new.as_bytes());
    assert_eq!(v["patchTruncated"], true);
    let patch = v["patch"].as_str().unwrap();
    assert!(patch.starts_with("--- a/big.txt\n+++ b/big.txt\n@@ -1,40000 +1,40000 @@\n-old line 0\n"));
    assert!(patch.len() <= 256 * 1024 + 200, "{}", patch.len());
    assert!(patch.ends_with("more lines not shown: this output is capped at 256 KiB]\n"));
}

/// The rule for what a patch shows of a version of a file is one rule for every tool: UTF-8 shows
/// its bytes on disk (a BOM included), UTF-16 its text, each version on its own.
#[test]
fn every_tool_shows_the_same_bytes_in_its_patch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let bom_patch = "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n \u{feff}one\n-two\n+2\n";
    let reset = || fs::write(root.join("f.txt"), b"\xEF\xBB\xBFone\ntwo\n").unwrap();

    reset();
    let v = ok("edit", root, json!({"path": "f.txt", "oldText": "two", "newText": "2"}));
    assert_eq!(v["patch"], bom_patch);
    let v = ok("undo", root, json!({"path": "f.txt"}));
    assert_eq!(v["patch"], bom_patch.replace("-two\n+2\n", "-2\n+two\n"));
    let v = ok("write", root, json!({"path": "f.txt", "content": "one\n2\n"}));
    assert_eq!(v["patch"], bom_patch);
    reset();
    let v = ok(
        "apply_patch",
        root,
        json!({"patch": "*** Begin Patch\n*** Update File: f.txt\n one\n-two\n+2\n*** End Patch\n"}),
    );
    assert!(v["files"][0]["patch"]
        .as_str()
        .unwrap()
        .ends_with(bom_patch.split_once("@@").unwrap().1));

    // UTF-16 shows its text in every tool.
    fs::write(root.join("w.txt"), utf16le("one\ntwo\n")).unwrap();
    let text_patch = "--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n";
    let v = ok("edit", root, json!({"path": "w.txt", "oldText": "two", "newText": "2"}));
    assert_eq!(v["patch"], text_patch);
    ok("undo", root, json!({"path": "w.txt"}));
    let v = ok("write", root, json!({"path": "w.txt", "content": "one\n2\n"}));
    assert_eq!(v["patch"], text_patch);

    // Each version on its own: from UTF-8 with a BOM to UTF-16, the old version shows its BOM and
    // the new one its text; undoing it shows the reverse (it used to show no diff at all).
    reset();
    let v = ok(
        "write",
        root,
        json!({"path": "f.txt", "content": "one\ntwo\n", "encoding": "utf-16le"}),
    );
    assert_eq!(
        v["patch"],
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-\u{feff}one\n+one\n two\n"
    );
    let v = ok("undo", root, json!({"path": "f.txt"}));
    assert_eq!(
        v["patch"],
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-one\n+\u{feff}one\n two\n"
    );
    assert_eq!(fs::read(root.join("f.txt")).unwrap(), b"\xEF\xBB\xBFone\ntwo\n");
}

/// Undo of write: a created file is removed while unchanged since (`stale` otherwise), an
/// overwritten one gets its bytes back; each undo is one call further back.
#[test]
fn undo_of_write_removes_a_created_file_and_restores_a_replaced_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    ok("write", root, json!({"path": "n/new.txt", "content": "one\n"}));
    ok("write", root, json!({"path": "n/new.txt", "content": "two\n"}));
    let v = ok("undo", root, json!({"path": "n/new.txt"}));
    assert!(v["text"].as_str().unwrap().starts_with("Restored n/new.txt"), "{v}");
    assert_eq!(v["undoAvailable"], true, "{v}");
    assert_eq!(fs::read(root.join("n/new.txt")).unwrap(), b"one\n");
    let v = ok("undo", root, json!({"path": "n/new.txt"}));
    assert!(v["text"].as_str().unwrap().starts_with("Removed n/new.txt"), "{v}");
    assert_eq!(v["hashAfter"], "");
    assert!(!root.join("n/new.txt").exists());
    fails("undo", root, json!({"path": "n/new.txt"}), "no_undo");

    // A created file changed since is not removed.
    ok("write", root, json!({"path": "c.txt", "content": "mine\n"}));
    fs::write(root.join("c.txt"), "theirs\n").unwrap();
    let e = fails("undo", root, json!({"path": "c.txt"}), "stale");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("Nothing was restored"),
        "{e}"
    );
    assert_eq!(fs::read(root.join("c.txt")).unwrap(), b"theirs\n");

    // The no_undo message speaks of every tool, not only edit.
    fs::write(root.join("plain.txt"), "p\n").unwrap();
    let e = fails("undo", root, json!({"path": "plain.txt"}), "no_undo");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(message.contains("edit, write and apply_patch"), "{message}");
}

/// A read-only file is refused with `permission_denied` by every tool that would change it, and
/// left as it was, mode included. The rule is the mode (no write bit), so it holds as root too,
/// which the system would let write the file.
#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_by_every_tool_that_would_change_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let file = root.join("ro.txt");
    let set_mode = |mode: u32| fs::set_permissions(&file, fs::Permissions::from_mode(mode)).unwrap();
    fs::write(&file, "one\n").unwrap();
    // An undo journaled while it was writable.
    ok(
        "edit",
        root,
        json!({"path": "ro.txt", "oldText": "one", "newText": "two"}),
    );
    set_mode(0o444);
    let calls = [
        ("edit", json!({"path": "ro.txt", "oldText": "two", "newText": "three"})),
        ("write", json!({"path": "ro.txt", "content": "three\n"})),
        ("undo", json!({"path": "ro.txt"})),
    ];
    for (tool, args) in calls {
        let e = fails(tool, root, args, "permission_denied");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("read-only"),
            "{tool}: {e}"
        );
    }
    for patch in [
        "*** Begin Patch\n*** Update File: ro.txt\n@@\n-two\n+three\n*** End Patch\n",
        "*** Begin Patch\n*** Add File: other.txt\n+x\n*** Delete File: ro.txt\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: ro.txt\n*** Move to: moved.txt\n@@\n-two\n+three\n*** End Patch\n",
    ] {
        fails("apply_patch", root, json!({ "patch": patch }), "permission_denied");
    }
    assert_eq!(fs::read(&file).unwrap(), b"two\n");
    assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o444);
    assert!(!root.join("other.txt").exists() && !root.join("moved.txt").exists());
    // Made writable again, the journaled undo goes through.
    set_mode(0o644);
    ok("undo", root, json!({"path": "ro.txt"}));
    assert_eq!(fs::read(&file).unwrap(), b"one\n");
}
