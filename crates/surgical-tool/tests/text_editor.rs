//! The `text_editor` tool: each command's result and errors, worded as Anthropic's reference
//! implementation words them; the byte-faithfulness fixtures through `str_replace` (the same bytes
//! as `edit`) and `insert` (against an independent oracle), and properties over arbitrary content.

use std::fs;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::{json, Value};

fn call(root: &Path, input: Value) -> Value {
    surgical_tool::call("text_editor", &input, root).to_json()
}

fn ok(root: &Path, input: Value) -> Value {
    let r = call(root, input.clone());
    assert_eq!(r["ok"], true, "{input}: {r}");
    r
}

fn fails(root: &Path, input: Value, code: &str) -> String {
    let r = call(root, input.clone());
    assert_eq!(r["ok"], false, "{input}: {r}");
    assert_eq!(r["error"]["code"], code, "{input}: {r}");
    r["error"]["message"].as_str().unwrap().to_string()
}

fn text(r: &Value) -> &str {
    r["text"].as_str().unwrap()
}

fn workspace(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        let p = dir.path().join(name);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
    dir
}

#[test]
fn view_numbers_lines_like_cat_n() {
    let dir = workspace(&[("a.py", b"\xef\xbb\xbfdef f():\r\n\treturn 1\r\n")]);
    let r = ok(dir.path(), json!({"command": "view", "path": "a.py"}));
    assert_eq!(
        text(&r),
        "Here's the result of running `cat -n` on a.py:\n     1\tdef f():\n     2\t\treturn 1\n"
    );
    assert_eq!(r["command"], "view");
    assert_eq!(
        (r["bom"].clone(), r["lineEnding"].clone()),
        (json!(true), json!("crlf"))
    );
    assert_eq!((r["totalLines"].clone(), r["endLine"].clone()), (json!(2), json!(2)));
    let r = ok(
        dir.path(),
        json!({"command": "view", "path": "a.py", "view_range": [2, -1]}),
    );
    assert_eq!(
        text(&r),
        "Here's the result of running `cat -n` on a.py:\n     2\t\treturn 1\n"
    );
    // Past the end: the lines up to it, with a note.
    let r = ok(
        dir.path(),
        json!({"command": "view", "path": "a.py", "view_range": [1, 10]}),
    );
    assert!(text(&r).starts_with("NOTE: a.py has only 2 lines"), "{}", text(&r));
    for (range, says) in [
        (
            json!([0, 1]),
            "Its first element `0` should be within the range of lines of the file: [1, 2]",
        ),
        (json!([3, 3]), "Its first element `3`"),
        (
            json!([2, 1]),
            "Its second element `1` should be larger or equal than its first `2`",
        ),
        (json!([1]), "It should be a list of two integers"),
    ] {
        let m = fails(
            dir.path(),
            json!({"command": "view", "path": "a.py", "view_range": range}),
            "invalid_input",
        );
        assert!(m.contains(says), "{m}");
    }
}

#[test]
fn view_pages_and_max_characters_clip_with_the_range_to_continue() {
    let body: String = (1..=3000).map(|n| format!("line {n}\n")).collect();
    let dir = workspace(&[("big.txt", body.as_bytes())]);
    let r = ok(dir.path(), json!({"command": "view", "path": "big.txt"}));
    assert_eq!(
        (r["endLine"].clone(), r["nextLine"].clone()),
        (json!(2000), json!(2001))
    );
    assert!(
        text(&r).ends_with(
            "<response clipped><NOTE>One view shows at most 2000 lines or 256 KiB. Lines 2001-3000 of 3000 are not \
             shown. To see them, view with view_range [2001, 3000].</NOTE>\n"
        ),
        "{}",
        &text(&r)[text(&r).len() - 300..]
    );
    let r = ok(
        dir.path(),
        json!({"command": "view", "path": "big.txt", "max_characters": 20}),
    );
    assert_eq!(r["endLine"], 2);
    assert!(text(&r).contains("     2\tline 2\n<response clipped><NOTE>The view is limited to 20 characters"));
    let r = ok(
        dir.path(),
        json!({"command": "view", "path": "big.txt", "view_range": [2999, -1]}),
    );
    assert_eq!(
        text(&r),
        "Here's the result of running `cat -n` on big.txt:\n  2999\tline 2999\n  3000\tline 3000\n"
    );
}

#[test]
fn view_lists_a_directory_two_levels_deep_without_hidden_entries() {
    let dir = workspace(&[
        ("src/lib.rs", b"x"),
        ("src/deep/more/far.rs", b"x"),
        ("README.md", b"x"),
        (".git/config", b"x"),
        ("src/.hidden", b"x"),
    ]);
    let r = ok(dir.path(), json!({"command": "view", "path": "."}));
    assert_eq!(r["entries"], json!(["README.md", "src/", "src/deep/", "src/lib.rs"]));
    assert_eq!(r["hidden"], 1);
    assert!(text(&r).starts_with(
        "Here's the files and directories up to 2 levels deep in ., excluding hidden items:\n./\n./README.md\n./src/\n"
    ));
    let m = fails(
        dir.path(),
        json!({"command": "view", "path": "src", "view_range": [1, 2]}),
        "invalid_input",
    );
    assert_eq!(
        m,
        "The `view_range` parameter is not allowed when `path` points to a directory."
    );
    let m = fails(
        dir.path(),
        json!({"command": "insert", "path": "src", "insert_line": 0, "insert_text": "x"}),
        "not_a_file",
    );
    assert_eq!(
        m,
        "The path src is a directory and only the `view` command can be used on directories."
    );
}

#[test]
fn str_replace_reports_a_snippet_and_says_when_a_tolerant_match_placed_it() {
    let file = "a\nb\nc\nd\ne\nf\nlet s = \"x — y\";   \ng\nh\ni\nj\nk\n";
    let dir = workspace(&[("f.rs", file.as_bytes())]);
    let r = ok(
        dir.path(),
        json!({"command": "str_replace", "path": "f.rs", "old_str": "let s = \"x - y\";", "new_str": "let s = \"x - z\";"}),
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("f.rs")).unwrap(),
        file.replace("x — y", "x — z"),
        "the em dash and the trailing blanks are the file's"
    );
    let t = text(&r);
    assert!(
        t.starts_with(
            "The file f.rs has been edited. Here's the result of running `cat -n` on a snippet of f.rs:\n     3\tc\n     \
             4\td\n     5\te\n     6\tf\n     7\tlet s = \"x — z\";   \n     8\tg\n     9\th\n    10\ti\n    11\tj\n\
             Note: old_str did not appear verbatim; surgical placed it at line 7 (now) by its `unicode` matching"
        ),
        "{t}"
    );
    assert!(t.ends_with("Review the changes and make sure they are as expected. Edit the file again if necessary."));
    assert_eq!(r["edits"][0]["strategy"], "unicode");
    assert!(
        r["edits"][0]["normalized"][0].as_str().unwrap().contains("em dash"),
        "{r}"
    );
    // Exact: no note.
    let r = ok(
        dir.path(),
        json!({"command": "str_replace", "path": "f.rs", "old_str": "a\n", "new_str": ""}),
    );
    assert!(!text(&r).contains("Note:"));
    assert!(text(&r).contains("snippet of f.rs:\n     1\tb\n"), "{}", text(&r));
}

#[test]
fn str_replace_errors_open_with_the_reference_sentence() {
    let dir = workspace(&[("t.txt", b"This is a test file.\nThis file is for testing purposes.")]);
    let m = fails(
        dir.path(),
        json!({"command": "str_replace", "path": "t.txt", "old_str": "test", "new_str": "sample"}),
        "ambiguous",
    );
    assert!(m.starts_with("No replacement was performed. Multiple occurrences of old_str `test` in lines [1, 2]. Please ensure it is unique."), "{m}");
    let r = call(
        dir.path(),
        json!({"command": "str_replace", "path": "t.txt", "old_str": "test", "new_str": "x"}),
    );
    assert_eq!(r["error"]["lines"], json!([1, 2]));
    let m = fails(
        dir.path(),
        json!({"command": "str_replace", "path": "t.txt", "old_str": "This is a tset file.", "new_str": "x"}),
        "not_found",
    );
    assert!(
        m.starts_with("No replacement was performed, old_str `This is a tset file.` did not appear verbatim in t.txt."),
        "{m}"
    );
    assert!(m.contains("Closest region"), "{m}");
    let m = fails(
        dir.path(),
        json!({"command": "str_replace", "path": "t.txt", "old_str": "test file", "new_str": "test file"}),
        "no_change",
    );
    assert!(
        m.starts_with("No replacement was performed, old_str `test file` is the same as new_str `test file`"),
        "{m}"
    );
    fails(
        dir.path(),
        json!({"command": "str_replace", "path": "t.txt", "old_str": ""}),
        "empty_old_text",
    );
    let m = fails(
        dir.path(),
        json!({"command": "str_replace", "path": "nope.txt", "old_str": "a"}),
        "file_not_found",
    );
    assert!(
        m.starts_with("The path nope.txt does not exist. Please provide a valid path."),
        "{m}"
    );
    fails(
        dir.path(),
        json!({"command": "str_replace", "path": "../x.txt", "old_str": "a"}),
        "outside_root",
    );
    assert_eq!(
        fs::read(dir.path().join("t.txt")).unwrap(),
        b"This is a test file.\nThis file is for testing purposes."
    );
}

#[test]
fn insert_takes_the_files_line_endings_bom_and_final_line_break() {
    let dir = workspace(&[("w.txt", b"\xef\xbb\xbfone\r\ntwo\r\n"), ("open.txt", b"a\nb")]);
    let r = ok(
        dir.path(),
        json!({"command": "insert", "path": "w.txt", "insert_line": 1, "insert_text": "x\ny"}),
    );
    assert_eq!(
        fs::read(dir.path().join("w.txt")).unwrap(),
        b"\xef\xbb\xbfone\r\nx\r\ny\r\ntwo\r\n"
    );
    assert_eq!(
        text(&r),
        "The file w.txt has been edited. Here's the result of running `cat -n` on a snippet of the edited file:\n     \
         1\tone\n     2\tx\n     3\ty\n     4\ttwo\nReview the changes and make sure they are as expected (correct \
         indentation, no duplicate lines, etc). Edit the file again if necessary."
    );
    // The 20250124 name of the text, at the end of the file.
    ok(
        dir.path(),
        json!({"command": "insert", "path": "w.txt", "insert_line": 4, "new_str": "end"}),
    );
    assert_eq!(
        fs::read(dir.path().join("w.txt")).unwrap(),
        b"\xef\xbb\xbfone\r\nx\r\ny\r\ntwo\r\nend\r\n"
    );
    ok(
        dir.path(),
        json!({"command": "insert", "path": "open.txt", "insert_line": 2, "insert_text": "c"}),
    );
    assert_eq!(fs::read(dir.path().join("open.txt")).unwrap(), b"a\nb\nc");
    let m = fails(
        dir.path(),
        json!({"command": "insert", "path": "open.txt", "insert_line": 4, "insert_text": "c"}),
        "invalid_input",
    );
    assert_eq!(
        m,
        "Invalid `insert_line` parameter: 4. It should be within the range of lines of the file: [0, 3] (0 inserts \
         before the first line, 3 after the last)."
    );
    fails(
        dir.path(),
        json!({"command": "insert", "path": "open.txt", "insert_line": -1, "insert_text": "c"}),
        "invalid_input",
    );
}

#[test]
fn create_writes_the_text_as_given_and_never_replaces_a_file() {
    let dir = workspace(&[("there.txt", b"keep")]);
    let r = ok(
        dir.path(),
        json!({"command": "create", "path": "new/dir/n.txt", "file_text": "a\r\nb"}),
    );
    assert_eq!(text(&r), "File created successfully at: new/dir/n.txt");
    assert_eq!(fs::read(dir.path().join("new/dir/n.txt")).unwrap(), b"a\r\nb");
    assert_eq!((r["created"].clone(), r["totalLines"].clone()), (json!(true), json!(2)));
    let m = fails(
        dir.path(),
        json!({"command": "create", "path": "there.txt", "file_text": "x"}),
        "invalid_input",
    );
    assert!(m.starts_with("File already exists at: there.txt. Cannot overwrite files using command `create`."));
    assert_eq!(fs::read(dir.path().join("there.txt")).unwrap(), b"keep");
    fails(
        dir.path(),
        json!({"command": "create", "path": "nul.txt", "file_text": "a\0b"}),
        "invalid_input",
    );
    fails(
        dir.path(),
        json!({"command": "create", "path": "no-text.txt"}),
        "invalid_input",
    );
    fails(
        dir.path(),
        json!({"command": "create", "path": ".surgical/x", "file_text": "x"}),
        "outside_root",
    );
    assert!(!dir.path().join("nul.txt").exists());
}

#[test]
fn undo_edit_takes_back_each_change_through_the_journal() {
    let dir = workspace(&[("u.txt", b"a\r\nb\r\n")]);
    ok(
        dir.path(),
        json!({"command": "str_replace", "path": "u.txt", "old_str": "b", "new_str": "B"}),
    );
    ok(
        dir.path(),
        json!({"command": "insert", "path": "u.txt", "insert_line": 0, "insert_text": "top"}),
    );
    let r = ok(dir.path(), json!({"command": "undo_edit", "path": "u.txt"}));
    assert!(
        text(&r).starts_with("Last edit to u.txt undone successfully. Restored u.txt"),
        "{}",
        text(&r)
    );
    assert!(
        text(&r).contains("on a snippet of u.txt:\n     1\ta\n     2\tB\n"),
        "{}",
        text(&r)
    );
    assert_eq!(fs::read(dir.path().join("u.txt")).unwrap(), b"a\r\nB\r\n");
    ok(dir.path(), json!({"command": "undo_edit", "path": "u.txt"}));
    assert_eq!(fs::read(dir.path().join("u.txt")).unwrap(), b"a\r\nb\r\n");
    let m = fails(dir.path(), json!({"command": "undo_edit", "path": "u.txt"}), "no_undo");
    assert!(m.starts_with("No edit history found for u.txt."), "{m}");
    // A created file is removed.
    ok(
        dir.path(),
        json!({"command": "create", "path": "c.txt", "file_text": "x"}),
    );
    let r = ok(dir.path(), json!({"command": "undo_edit", "path": "c.txt"}));
    assert!(text(&r).contains("Removed c.txt"), "{}", text(&r));
    assert!(!dir.path().join("c.txt").exists());
}

#[test]
fn the_names_of_anthropics_tool_run_it_too() {
    let dir = workspace(&[("a.txt", b"x\n")]);
    for name in surgical_tool::TEXT_EDITOR_ALIASES {
        let r = surgical_tool::call(name, &json!({"command": "view", "path": "a.txt"}), dir.path()).to_json();
        assert_eq!(r["command"], "view", "{name}");
    }
}

// --- The byte-faithfulness fixtures.

struct Fixture {
    name: String,
    input: Vec<u8>,
    call: Value,
    expected: Result<Vec<u8>, String>,
}

fn fixtures() -> Vec<Fixture> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut all: Vec<Fixture> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|d: PathBuf| Fixture {
            name: d.file_name().unwrap().to_string_lossy().into_owned(),
            input: fs::read(d.join("input")).unwrap(),
            call: serde_json::from_str(&fs::read_to_string(d.join("edit.json")).unwrap()).unwrap(),
            expected: fs::read(d.join("expected"))
                .map_err(|_| fs::read_to_string(d.join("error")).unwrap().trim().to_string()),
        })
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(all.len() >= 20);
    all
}

/// Every fixture of one replacement, through `str_replace`: the bytes `edit` writes, or its error.
#[test]
fn every_single_replacement_fixture_through_str_replace() {
    let mut ran = 0;
    for f in fixtures() {
        let (old, new) = match (&f.call["oldText"], &f.call["newText"], &f.call["replaceAll"]) {
            (Value::String(o), Value::String(n), Value::Null) => (o.clone(), n.clone()),
            _ => match f.call["edits"].as_array().map(Vec::as_slice) {
                Some([one]) => (
                    one["oldText"].as_str().unwrap().to_string(),
                    one["newText"].as_str().unwrap().to_string(),
                ),
                _ => continue,
            },
        };
        ran += 1;
        let dir = workspace(&[("target.txt", &f.input)]);
        let r = call(
            dir.path(),
            json!({"command": "str_replace", "path": "target.txt", "old_str": old, "new_str": new}),
        );
        let after = fs::read(dir.path().join("target.txt")).unwrap();
        match &f.expected {
            Ok(expected) => {
                assert_eq!(r["ok"], true, "{}: {r}", f.name);
                assert_eq!(&after, expected, "{}: bytes", f.name);
            }
            Err(code) => {
                assert_eq!(r["error"]["code"], code.as_str(), "{}: {r}", f.name);
                assert_eq!(after, f.input, "{}: untouched", f.name);
            }
        }
    }
    assert!(ran >= 20, "{ran}");
}

/// The text `insert` must produce, by the rule it documents (an oracle independent of the engine):
/// `insert`'s lines (one final line break of the text ends its last line; an empty text is one
/// empty line) go after line `after` with the terminator of the line they follow (at the start,
/// of the first line; after an open last line, of the last terminator; in a text without any, LF);
/// the file keeps its final line break, or its lack of one (unless the one line inserted there is
/// empty: an empty line is then ended, or it would be no line).
fn inserted_oracle(old: &[u8], after: usize, insert: &str) -> Vec<u8> {
    let lines: Vec<&str> = insert.strip_suffix('\n').unwrap_or(insert).split('\n').collect();
    let whole: Vec<&[u8]> = surgical_core::lines::whole_lines(old).collect();
    let terminator = |l: &[u8]| -> Vec<u8> {
        let n = surgical_core::lines::terminator_len(l);
        l[l.len() - n..].to_vec()
    };
    let last_terminator = whole.iter().rev().map(|l| terminator(l)).find(|t| !t.is_empty());
    let eol = match after {
        0 => whole.first().map(|l| terminator(l)).filter(|t| !t.is_empty()),
        n => Some(terminator(whole[n - 1])).filter(|t| !t.is_empty()),
    }
    .or(last_terminator)
    .unwrap_or_else(|| b"\n".to_vec());
    let prefix: Vec<u8> = whole[..after].concat();
    let suffix: Vec<u8> = whole[after..].concat();
    let open_end = after == whole.len() && !old.is_empty() && surgical_core::lines::ends_open(old);
    let mut out = prefix;
    if open_end {
        out.extend_from_slice(&eol);
        out.extend_from_slice(lines.join(std::str::from_utf8(&eol).unwrap()).as_bytes());
        if lines == [""] {
            out.extend_from_slice(&eol);
        }
    } else {
        for line in lines {
            out.extend_from_slice(line.as_bytes());
            out.extend_from_slice(&eol);
        }
    }
    out.extend_from_slice(&suffix);
    out
}

fn decoded(bytes: Vec<u8>) -> Option<(String, Vec<u8>)> {
    match surgical_fs::decode_keeping(bytes) {
        surgical_fs::Decoding::Text(d) | surgical_fs::Decoding::Transcoded(d, _) => {
            Some((d.encoding.name().to_string(), d.text))
        }
        surgical_fs::Decoding::Refused(..) => None,
    }
}

/// Every decodable fixture, lines inserted after each of its lines: the file's text is the oracle's
/// and its encoding (BOM, UTF-16) is kept.
#[test]
fn every_fixture_takes_inserted_lines_at_every_line() {
    let mut ran = 0;
    for f in fixtures() {
        let Some((encoding, text)) = decoded(f.input.clone()) else {
            continue;
        };
        let total = surgical_core::lines::count_lines(&text);
        for after in 0..=total.min(12) {
            let dir = workspace(&[("target.txt", &f.input)]);
            let r = call(
                dir.path(),
                json!({"command": "insert", "path": "target.txt", "insert_line": after, "insert_text": "NEW one\nNEW two"}),
            );
            let what = format!("{} after line {after}", f.name);
            if r["ok"] != true {
                // A legacy 8-bit file takes ASCII only: this text is ASCII, so nothing may fail.
                panic!("{what}: {r}");
            }
            let (now_encoding, now) = decoded(fs::read(dir.path().join("target.txt")).unwrap()).unwrap();
            assert_eq!(now_encoding, encoding, "{what}");
            assert_eq!(
                String::from_utf8_lossy(&now),
                String::from_utf8_lossy(&inserted_oracle(&text, after, "NEW one\nNEW two")),
                "{what}"
            );
            ran += 1;
        }
    }
    assert!(ran > 100, "{ran}");
}

fn content() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("a"),
            Just("b"),
            Just(" "),
            Just("\t"),
            Just("\r"),
            Just("\n"),
            Just("\r\n"),
            Just("é"),
            Just("—"),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Whatever the file holds, `insert` writes the oracle's bytes: every byte of the file kept,
    /// the new lines with the file's terminator at that place.
    #[test]
    fn insert_keeps_every_byte_and_takes_the_local_line_ending(
        file in content(),
        pick in 0usize..100,
        lines in proptest::collection::vec("[a-z ]{0,4}", 1..3),
    ) {
        let total = surgical_core::lines::count_lines(file.as_bytes());
        let after = pick % (total + 1);
        let dir = workspace(&[("p.txt", file.as_bytes())]);
        let r = call(dir.path(), json!({"command": "insert", "path": "p.txt", "insert_line": after,
            "insert_text": lines.join("\n")}));
        prop_assert_eq!(&r["ok"], &json!(true), "{}", r);
        let expected = inserted_oracle(file.as_bytes(), after, &lines.join("\n"));
        prop_assert_eq!(fs::read(dir.path().join("p.txt")).unwrap(), expected);
    }

    /// `str_replace` writes what `edit` writes for the same replacement, and fails where it fails.
    #[test]
    fn str_replace_is_edit(file in content(), start in 0usize..40, len in 1usize..8, new in "[a-z\n]{0,4}") {
        let chars: Vec<char> = file.chars().collect();
        prop_assume!(!chars.is_empty());
        let start = start % chars.len();
        let old: String = chars[start..(start + len).min(chars.len())].iter().collect();
        let a = workspace(&[("f.txt", file.as_bytes())]);
        let b = workspace(&[("f.txt", file.as_bytes())]);
        let edited = surgical_tool::call("edit", &json!({"path": "f.txt", "oldText": old, "newText": new}), a.path()).to_json();
        let replaced = call(b.path(), json!({"command": "str_replace", "path": "f.txt", "old_str": old, "new_str": new}));
        prop_assert_eq!(&edited["ok"], &replaced["ok"]);
        prop_assert_eq!(&edited["error"]["code"], &replaced["error"]["code"]);
        prop_assert_eq!(fs::read(a.path().join("f.txt")).unwrap(), fs::read(b.path().join("f.txt")).unwrap());
        if replaced["ok"] == true {
            prop_assert_eq!(&edited["edits"][0]["strategy"], &replaced["edits"][0]["strategy"]);
            prop_assert_eq!(&edited["patch"], &replaced["patch"]);
        }
    }
}
