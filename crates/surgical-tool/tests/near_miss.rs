//! Issue 11: a `not_found` whose region the misremembered tiers refused explains the near miss in
//! the terms they forgive — the mistyped word, the extra line, the missing line — says why it was
//! not taken, and what to do. Each refusal leaves the file as it was.

use std::fs;

use serde_json::json;
use surgical_tool::{call, ToolResult};

const LOAD: &str = "def load(path):\n    with open(path) as handle:\n        rows = handle.readlines()\n    \
                    cleaned = [r.strip() for r in rows]\n    return cleaned\n\n\ndef save(path, rows):\n    \
                    with open(path, \"w\") as handle:\n        handle.write(\"\\n\".join(rows))\n";

/// The `not_found` message for `old` in a file holding `text`; the file is checked unchanged.
fn not_found(text: &str, old: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.py"), text).unwrap();
    let result = call(
        "edit",
        &json!({"path": "f.py", "oldText": old, "newText": "replaced()"}),
        dir.path(),
    );
    let ToolResult::Error(e) = &result else {
        panic!("should fail: {}", result.text());
    };
    assert_eq!(e.code, "not_found", "{}", e.message);
    assert_eq!(fs::read_to_string(dir.path().join("f.py")).unwrap(), text);
    e.message.clone()
}

/// The near-miss part of a message: from "Almost matched" to the closest regions.
fn near_part(message: &str) -> &str {
    let start = message
        .find("Almost matched")
        .unwrap_or_else(|| panic!("no near miss: {message}"));
    let end = message.find("Closest region").unwrap_or(message.len());
    &message[start..end]
}

#[test]
fn two_typos_are_both_named() {
    let m = not_found(
        LOAD,
        "    with open(path) as handel:\n        rows = handle.readlinez()\n    cleaned = [r.strip() for r in rows]\n    return cleaned",
    );
    let near = near_part(&m);
    assert!(
        near.starts_with("Almost matched at lines 2-5, not taken: it has 2 mistyped words;"),
        "{near}"
    );
    assert!(
        near.contains("line 2 (oldText line 1): you wrote `handel`, the file has `handle`"),
        "{near}"
    );
    assert!(
        near.contains("line 3 (oldText line 2): you wrote `readlinez`, the file has `readlines`"),
        "{near}"
    );
    assert!(
        near.contains("Correct these lines of oldText to what the file has (lines 2-5) and retry."),
        "{near}"
    );
    // A few lines per edit.
    assert!(near.lines().count() <= 6, "{near}");
}

#[test]
fn two_extra_lines_are_both_named() {
    let m = not_found(
        LOAD,
        "def load(path):\n    with open(path) as handle:\n        # read\n        # every row\n        rows = handle.readlines()\n    cleaned = [r.strip() for r in rows]",
    );
    let near = near_part(&m);
    assert!(near.contains("not taken: it has 2 extra lines;"), "{near}");
    assert!(
        near.contains("oldText line 3 (`# read`) is not in the file there (an extra line?)"),
        "{near}"
    );
    assert!(
        near.contains("oldText line 4 (`# every row`) is not in the file there (an extra line?)"),
        "{near}"
    );
}

#[test]
fn a_missing_line_and_a_typo_are_named() {
    // One typo and one line left out are forgiven together, but not on so short an anchor.
    let text = "fn a() {\n    x = compute(items);\n    y = 1;\n}\n";
    let m = not_found(text, "fn a() {\n    x = compute(itemz);\n}");
    let near = near_part(&m);
    assert!(
        near.contains("line 2 (oldText line 2): you wrote `itemz`, the file has `items`"),
        "{near}"
    );
    assert!(
        near.contains(
            "the file has line 3 (`y = 1;`) between your oldText lines 2 and 3, which your oldText leaves out"
        ),
        "{near}"
    );
    // And with a second line left out, too many of a kind.
    let m = not_found(
        LOAD,
        "def load(path):\n    with open(path) as handel:\n    return cleaned",
    );
    let near = near_part(&m);
    assert!(near.contains("it has 1 mistyped word, 2 lines left out;"), "{near}");
    assert!(
        near.contains("line 2 (oldText line 2): you wrote `handel`, the file has `handle`"),
        "{near}"
    );
    assert!(
        near.contains("the file has line 3 (`rows = handle.readlines()`) between your oldText lines 2 and 3"),
        "{near}"
    );
}

#[test]
fn a_near_duplicate_second_region_is_named() {
    let block = |a: &str| {
        format!(
            "    let count = items.len();\n    report(count, total);\n    audit({a});\n    finish(count);\n    \
             close(handle);\n    flush(output);\n"
        )
    };
    let text = format!(
        "fn first() {{\n{}}}\n\nfn second() {{\n{}}}\n",
        block("count"),
        block("other")
    );
    let m = not_found(
        &text,
        "    let count = itemz.len();\n    report(count, total);\n    audit(count);\n    finish(count);\n    close(handle);\n    flush(output);",
    );
    let near = near_part(&m);
    assert!(
        near.starts_with(
            "Almost matched at lines 2-7, not taken: a second region at lines 11-16 fits almost as well, so neither was taken."
        ),
        "{near}"
    );
    assert!(
        near.contains("line 2 (oldText line 1): you wrote `itemz`, the file has `items`"),
        "{near}"
    );
    assert!(
        near.contains("Add lines to oldText that tell the two regions apart"),
        "{near}"
    );
}

#[test]
fn a_weak_anchor_is_named() {
    let text = "fn a() {\n    proceed(counter);\n}\n";
    let m = not_found(text, "fn a() {\n    proceed(countr);\n}");
    let near = near_part(&m);
    assert!(
        near.contains("not taken: only 2 lines of oldText (") && near.contains("are identical there, too little"),
        "{near}"
    );
    assert!(
        near.contains("line 2 (oldText line 2): you wrote `countr`, the file has `counter`"),
        "{near}"
    );
    assert!(
        near.contains("Copy oldText exactly from lines 1-3, with more unchanged lines around your change"),
        "{near}"
    );
}

#[test]
fn an_extra_line_the_file_has_nearby_is_named() {
    let text = "fn a() {\n    lock(state);\n    counter = counter + 1;\n    unlock(state);\n}\n\
                fn b() {\n    lock(state);\n    total = total + 2;\n    unlock(state);\n}\n";
    let m = not_found(
        text,
        "fn a() {\n    lock(state);\n    lock(state);\n    counter = counter + 1;\n    unlock(state);",
    );
    let near = near_part(&m);
    assert!(
        near.starts_with(
            "Almost matched at lines 1-4, not taken: its extra line is also in the file nearby (line 7), so oldText \
             may leave out more lines instead."
        ),
        "{near}"
    );
    assert!(
        near.contains("oldText line 3 (`lock(state);`) is not in the file there (an extra line?)"),
        "{near}"
    );
}

#[test]
fn no_near_miss_when_nothing_almost_matched() {
    // Most lines differ: the closest region is shown, but no near miss is claimed.
    let m = not_found(
        LOAD,
        "    with open(path) as handle:\n        lines = handle.read()\n    stripped = [x.strip() for x in lines]\n    return stripped",
    );
    assert!(!m.contains("Almost matched"), "{m}");
    assert!(m.contains("Closest region"), "{m}");
}
