//! `apply_edits` (the in-memory engine of the language bindings) gives exactly what the `edit` tool
//! gives for a file holding the same bytes: the same new bytes, diff, patch and reports, or the
//! same error; over arbitrary content (line endings, BOMs, UTF-16, invalid UTF-8, special spaces).

use proptest::prelude::*;
use serde_json::{json, Value};
use surgical_tool::{apply_edits, call_with, Config, ToolResult};

/// Pieces content is built from: what files really hold, and what surgical must keep.
const PIECES: [&[u8]; 16] = [
    b"let x = 1;",
    b"  return 2;",
    b"\n",
    b"\r\n",
    b"\r",
    b"   ",
    b"\t",
    "\u{a0}".as_bytes(),
    "\u{201c}q\u{201d}".as_bytes(),
    "a \u{2014} b".as_bytes(),
    b"\xff\xfe",
    b"\xc3(",
    b"\xef\xbb\xbf",
    b"foo",
    b"foo",
    b"x",
];

fn content() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES.to_vec()), 0..24).prop_map(|p| p.concat())
}

/// An oldText taken from the content (so it often matches, exactly or loosely), or made up.
fn old_text(content: &[u8], start: usize, len: usize, loosen: bool) -> String {
    let text = String::from_utf8_lossy(content).into_owned();
    let chars: Vec<char> = text.chars().collect();
    let start = start % (chars.len() + 1);
    let end = (start + len).min(chars.len());
    let mut old: String = chars[start..end].iter().collect();
    if loosen {
        old = old
            .replace('\u{a0}', " ")
            .replace("\r\n", "\n")
            .replace('\u{2014}', "-");
    }
    if old.is_empty() {
        old = "foo".into();
    }
    old
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn apply_edits_is_the_edit_tool_without_the_file(
        bytes in content(),
        start in 0usize..200,
        len in 1usize..40,
        loosen in any::<bool>(),
        replace_all in any::<bool>(),
        new in "[a-z \n\u{a0}\u{201c}-]{0,12}",
    ) {
        let old = old_text(&bytes, start, len, loosen);
        let call = json!({"path": "f.txt", "edits": [{"oldText": old, "newText": new, "replaceAll": replace_all}]});
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f.txt"), &bytes).unwrap();
        let on_disk = call_with("edit", &call, &Config::new(dir.path()).undo(false));
        let in_memory = apply_edits(bytes.clone(), &call);
        match (on_disk, in_memory) {
            (ToolResult::Edit(file), Ok(memory)) => {
                prop_assert_eq!(std::fs::read(dir.path().join("f.txt")).unwrap(), memory.content);
                prop_assert_eq!(&file.diff, &memory.diff);
                prop_assert_eq!(&file.patch, &memory.patch);
                prop_assert_eq!(file.first_changed_line, memory.first_changed_line);
                prop_assert_eq!(&file.edits, &memory.edits);
                prop_assert_eq!(file.encoding, memory.encoding);
            }
            (ToolResult::Error(file), Err(memory)) => {
                prop_assert_eq!(std::fs::read(dir.path().join("f.txt")).unwrap(), bytes);
                prop_assert_eq!(file, memory);
            }
            (file, memory) => prop_assert!(false, "edit tool: {}\napply_edits: {:?}", file.to_json(), memory),
        }
    }
}

#[test]
fn a_call_without_a_path_names_the_content_file() {
    let done = apply_edits(
        b"a\r\nb\r\n".to_vec(),
        &json!({"edits": [{"oldText": "b\n", "newText": "c\n"}]}),
    )
    .unwrap();
    assert_eq!(done.content, b"a\r\nc\r\n");
    assert!(done.patch.starts_with("--- a/file\n+++ b/file\n"), "{}", done.patch);
}

#[test]
fn undecodable_content_is_refused_as_the_tool_refuses_such_a_file() {
    let err = apply_edits(vec![0, 1, 2, 0, 0, 0, 5], &json!({"oldText": "a", "newText": "b"})).unwrap_err();
    assert_eq!(err.code.as_str(), "binary_file");
    let _: Value = serde_json::to_value(&err).unwrap();
}
