//! The `surgical` binary on real files: exit codes, usage errors, metadata, links, dry runs, output.

#[cfg(unix)]
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::Output;

use serde_json::{json, Value};

mod common;
use common::{bin, spawn_with_input, Run};

fn call(root: &Path, input: &str) -> (Output, Value) {
    let mut cmd = bin();
    cmd.args(["call", "edit", "--root"]).arg(root);
    let out = spawn_with_input(cmd, input.as_bytes()).wait_with_output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, v)
}

#[test]
fn success_result_has_the_contract_fields() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.ts"), "a\r\nb\r\n").unwrap();
    let (out, v) = call(
        dir.path(),
        r#"{"path": "x.ts", "edits": [{"oldText": "b", "newText": "c"}]}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    for key in [
        "ok",
        "text",
        "path",
        "diff",
        "patch",
        "firstChangedLine",
        "edits",
        "hashBefore",
        "hashAfter",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["firstChangedLine"], json!(2));
    assert_eq!(
        v["edits"][0],
        json!({"index": 0, "strategy": "exact", "startLine": 2, "endLine": 2,
        "oldStartLine": 2, "oldEndLine": 2, "occurrences": 1})
    );
    assert_eq!(std::fs::read(dir.path().join("x.ts")).unwrap(), b"a\r\nc\r\n");
}

#[test]
fn tool_errors_exit_1_and_leave_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.txt");
    std::fs::write(&file, "one\ntwo\n").unwrap();
    let (out, v) = call(dir.path(), r#"{"path": "x.txt", "oldText": "twoo", "newText": "3"}"#);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(v["ok"], json!(false));
    assert_eq!(v["error"]["code"], json!("not_found"));
    assert_eq!(v["error"]["editIndex"], json!(0));
    assert!(v["text"].as_str().unwrap().contains("Closest region"), "{v}");
    assert_eq!(std::fs::read(&file).unwrap(), b"one\ntwo\n");

    let (out, v) = call(dir.path(), "{not json");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(v["error"]["code"], json!("invalid_input"));
    let (_, v) = call(dir.path(), r#"{"path": "missing.txt", "oldText": "a", "newText": "b"}"#);
    assert_eq!(v["error"]["code"], json!("file_not_found"));
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let (_, v) = call(dir.path(), r#"{"path": "sub", "oldText": "a", "newText": "b"}"#);
    assert_eq!(v["error"]["code"], json!("not_a_file"));
    let (_, v) = call(
        dir.path(),
        &format!(
            r#"{{"path": "x.txt", "oldText": "one", "newText": "1", "expectedHash": "{}"}}"#,
            "0".repeat(64)
        ),
    );
    assert_eq!(v["error"]["code"], json!("stale"));
    // A hash that is no SHA-256 could never match: the call is wrong, not the file.
    let (_, v) = call(
        dir.path(),
        r#"{"path": "x.txt", "oldText": "one", "newText": "1", "expectedHash": "00"}"#,
    );
    assert_eq!(v["error"]["code"], json!("invalid_input"));
    let (_, v) = call(
        dir.path(),
        r#"{"path": "x\u0000.txt", "oldText": "one", "newText": "1"}"#,
    );
    assert_eq!(v["error"]["code"], json!("invalid_input"));
    assert_eq!(std::fs::read(&file).unwrap(), b"one\ntwo\n");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(bin().run().status.code(), Some(2));
    assert_eq!(bin().args(["call", "nosuchtool"]).run().status.code(), Some(2));
    assert_eq!(bin().args(["edit", "f.txt"]).run().status.code(), Some(2));
    assert_eq!(bin().args(["edit", "f.txt", "--old", "a"]).run().status.code(), Some(2));
    let help = bin().arg("--help").run();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit status"));
}

#[test]
#[cfg(unix)]
fn mode_and_symlinks_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.sh");
    std::fs::write(&target, "echo 1\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o751)).unwrap();
    symlink("real.sh", dir.path().join("link.sh")).unwrap();
    let (out, _) = call(
        dir.path(),
        r#"{"path": "link.sh", "oldText": "echo 1", "newText": "echo 2"}"#,
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::symlink_metadata(dir.path().join("link.sh"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), b"echo 2\n");
    assert_eq!(std::fs::metadata(&target).unwrap().permissions().mode() & 0o7777, 0o751);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != ".surgical")
        .collect();
    assert_eq!(leftovers.len(), 2, "temp files left behind: {leftovers:?}");
}

#[test]
fn edit_command_for_people() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.txt");
    std::fs::write(&file, "x = 1   \ny = 2\n").unwrap();
    let out = bin()
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .args(["edit", "a.txt", "--old", "x = 1", "--new", "x = 10", "--dry-run"])
        .run();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Dry run"), "{stdout}");
    assert!(
        stdout.contains("1 edit would apply.") && stdout.contains("edits[0]: would be at line 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("-1 x = 1···") && stdout.contains("+1 x = 10···"),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "no color when piped");
    assert_eq!(std::fs::read(&file).unwrap(), b"x = 1   \ny = 2\n");
    let out = bin()
        .current_dir(dir.path())
        .args(["edit", "a.txt", "--old", "y = 2", "--new", "y = 3"])
        .run();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read(&file).unwrap(), b"x = 1   \ny = 3\n");
    let out = bin()
        .current_dir(dir.path())
        .args(["edit", "a.txt", "--old", "nope", "--new", "y"])
        .run();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not_found"));
}

#[test]
fn demo_runs_and_checks_itself() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin().args(["demo", "--dir"]).arg(dir.path()).run();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("NO") && !stdout.contains("UNEXPECTED"), "{stdout}");
}

/// Every escape character in `out` starts one of the SGR colour codes the CLI adds itself.
fn only_colour_escapes(out: &[u8]) -> bool {
    let text = String::from_utf8_lossy(out);
    text.match_indices('\x1b').all(|(at, _)| {
        let rest = &text[at + 1..];
        rest.starts_with('[')
            && rest[1..]
                .find('m')
                .is_some_and(|end| rest[1..1 + end].bytes().all(|b| b.is_ascii_digit() || b == b';'))
    })
}

#[test]
fn file_content_cannot_drive_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    // An OSC title change, a screen clear, a C1 CSI, a bidi override and a bare CR on context lines;
    // the same on a changed line and in an `ambiguous` error's listing.
    let content =
        "title \x1b]0;pwned\x07\nclear \x1b[2J\u{9b}31m\nrtl \u{202e}x\r\nkeep = 1\ndup \x1b[5m\ndup \x1b[5m\n";
    let file = dir.path().join("evil.txt");
    std::fs::write(&file, content).unwrap();
    for color in ["always", "never"] {
        let out = bin()
            .args([
                "edit",
                "--dry-run",
                "--color",
                color,
                "--old",
                "keep = 1",
                "--new",
                "keep = 2 \x1b[8m",
            ])
            .arg(&file)
            .run();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert!(
            only_colour_escapes(&out.stdout),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(shown.contains("title \\u{1b}]0;pwned\\u{7}"), "{shown}");
        assert!(
            shown.contains("\\u{9b}31m") && shown.contains("rtl \\u{202e}x"),
            "{shown}"
        );
        assert!(!shown.contains('\r') && !shown.contains('\u{202e}') && !shown.contains('\u{9b}'));
        assert_eq!(color == "always", shown.contains("\x1b[31m"), "{shown}");

        let out = bin()
            .args(["edit", "--color", color, "--old", "dup \x1b[5m", "--new", "x"])
            .arg(&file)
            .run();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("ambiguous") && err.contains("dup \\u{1b}[5m"), "{err}");
        assert!(only_colour_escapes(&out.stderr), "{err}");
    }
    assert_eq!(std::fs::read(&file).unwrap(), content.as_bytes());
}

#[test]
fn colour_is_decided_per_stream() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.txt");
    std::fs::write(&file, "a\n").unwrap();
    let run = |envs: &[(&str, &str)], args: &[&str]| {
        let mut cmd = bin();
        cmd.env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("TERM");
        cmd.envs(envs.iter().copied()).args(args).arg(&file);
        cmd.run()
    };
    let missing = ["edit", "--old", "zz", "--new", "b"];
    // Piped streams are not terminals: no colour on either.
    let out = run(&[], &missing);
    assert!(!out.stderr.contains(&0x1b), "{out:?}");
    // Forced: both streams; NO_COLOR and --color never win over it, --color always over NO_COLOR.
    assert!(run(&[("CLICOLOR_FORCE", "1")], &missing)
        .stderr
        .starts_with(b"\x1b[1;31m"));
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], &missing)
        .stderr
        .contains(&0x1b));
    let never = ["edit", "--color", "never", "--old", "zz", "--new", "b"];
    assert!(!run(&[("CLICOLOR_FORCE", "1")], &never).stderr.contains(&0x1b));
    let always = ["edit", "--color", "always", "--old", "zz", "--new", "b"];
    assert!(run(&[("NO_COLOR", "1"), ("TERM", "dumb")], &always)
        .stderr
        .starts_with(b"\x1b[1;31m"));
    let ok = ["edit", "--dry-run", "--old", "a", "--new", "b"];
    assert!(run(&[("CLICOLOR_FORCE", "1")], &ok).stdout.starts_with(b"\x1b[1m"));
    assert!(!run(&[], &ok).stdout.contains(&0x1b));
}

#[test]
fn inputs_from_stdin_sizes_and_empty_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.txt");
    std::fs::write(&file, "one\r\ntwo\r\n").unwrap();

    // --edits - reads the edits from stdin.
    let mut cmd = bin();
    cmd.args(["edit", "--edits", "-"]).arg(&file);
    let out = spawn_with_input(cmd, br#"[{"oldText": "two", "newText": "2"}]"#)
        .wait_with_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::read(&file).unwrap(), b"one\r\n2\r\n");

    // Empty inputs are named as such.
    let mut cmd = bin();
    cmd.args(["edit", "--edits", "-"]).arg(&file);
    let out = spawn_with_input(cmd, b" \n").wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("stdin is empty"),
        "{out:?}"
    );
    let mut cmd = bin();
    cmd.args(["apply", "-", "--root"]).arg(dir.path());
    let out = spawn_with_input(cmd, b"").wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("stdin is empty: expected a patch"),
        "{out:?}"
    );
    let mut cmd = bin();
    cmd.args(["call", "edit", "--root"]).arg(dir.path());
    let out = spawn_with_input(cmd, b"").wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], json!("invalid_input"));
    assert!(
        v["error"]["message"].as_str().unwrap().starts_with("stdin is empty"),
        "{v}"
    );

    // Sizes take suffixes; a bad one is a usage error.
    let size = |limit: &str| {
        bin()
            .args([
                "edit",
                "--dry-run",
                "--old",
                "one",
                "--new",
                "1",
                "--max-file-size",
                limit,
            ])
            .arg(&file)
            .run()
    };
    assert_eq!(size("1K").status.code(), Some(0));
    assert_eq!(size("1kib").status.code(), Some(0));
    let small = size("4");
    assert_eq!(small.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&small.stderr).contains("too_large"));
    let bad = size("1X");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("unknown size suffix"),
        "{bad:?}"
    );
}

#[test]
fn usage_lines_show_which_options_exclude_each_other() {
    let out = bin()
        .args(["edit", "f.txt", "--old", "a", "--new", "b", "--edits", "e.json"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot be used with"), "{err}");
    assert!(
        err.contains("surgical edit <FILE> --old <OLD> --new <NEW>") && err.contains("surgical edit <FILE> --edits"),
        "{err}"
    );
}

#[test]
fn hints_name_the_flags_of_the_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.txt"), "x\nx\n").unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["edit", "d.txt", "--old", "x", "--new", "y"])
        .run();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the --old text occurs 2 times") && err.contains("pass --replace-all"),
        "{err}"
    );
    assert!(!err.contains("oldText") && !err.contains("replaceAll"), "{err}");
    // Too large: the flag that raises the limit.
    let out = bin()
        .current_dir(dir.path())
        .args(["edit", "d.txt", "--old", "x", "--new", "y", "--max-file-size", "1"])
        .run();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("too_large") && err.contains("--max-file-size"), "{err}");
    // The tool call keeps its own words.
    let (_, v) = call(dir.path(), r#"{"path": "d.txt", "oldText": "x", "newText": "y"}"#);
    assert!(
        v["error"]["message"].as_str().unwrap().contains("replaceAll: true"),
        "{v}"
    );
}

#[test]
fn on_syntax_error_refuse_writes_nothing_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let before = "fn a() {\n    let x = 1;\n}\n\nfn b() {}\n";
    std::fs::write(dir.path().join("x.rs"), before).unwrap();
    let input = r#"{"path": "x.rs", "oldText": "    let x = 1;\n}", "newText": "    let x = 2;"}"#;
    let mut cmd = bin();
    cmd.args(["call", "edit", "--on-syntax-error", "refuse", "--root"])
        .arg(dir.path());
    let out = spawn_with_input(cmd, input.as_bytes()).wait_with_output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{v}");
    assert_eq!(v["error"]["code"], "syntax_error");
    assert_eq!(std::fs::read_to_string(dir.path().join("x.rs")).unwrap(), before);
    // The default reports and writes.
    let (out, v) = call(dir.path(), input);
    assert_eq!(out.status.code(), Some(0), "{v}");
    assert_eq!(v["syntaxErrors"][0]["line"], 1);
    // A bad value is a usage error.
    let out = bin()
        .args(["call", "edit", "--on-syntax-error", "warn", "--root"])
        .arg(dir.path())
        .run();
    assert_eq!(out.status.code(), Some(2));
}
