//! The edit tool writes a UTF-8 file (with or without BOM) as the old file with the changed ranges
//! replaced, never assembling the new version in memory; UTF-16 is encoded whole. Either way the
//! file on disk must be byte for byte what the engine's in-memory result, encoded, is.

use proptest::prelude::*;
use serde_json::{json, Value};
use surgical_core::{apply, Edit, Options};
use surgical_fs::{decode, encode, Encoding};
use surgical_tool::sha256_hex;

/// Text pieces that matter to the byte-faithfulness promise: every line terminator, invalid bytes,
/// non-ASCII and invisible characters, trailing blanks.
fn content() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"a".to_vec()),
        Just(b"line one".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"  ".to_vec()),
        Just(b"\xE9".to_vec()),
        Just("\u{a0}".as_bytes().to_vec()),
        Just("\u{201C}q\u{201D}".as_bytes().to_vec()),
        "[ -~]{0,8}".prop_map(String::into_bytes),
    ];
    prop::collection::vec(piece, 1..12).prop_map(|v| v.concat())
}

/// The file's bytes for `text` in `encoding`, when the text can be written in it.
fn on_disk(encoding: Encoding, text: &[u8]) -> Option<Vec<u8>> {
    encode(encoding, text).ok()
}

/// A valid UTF-8 stretch of `text` starting near `start`, at most `len` bytes, not empty.
fn stretch(text: &[u8], start: usize, len: usize) -> Option<String> {
    let lossy = String::from_utf8_lossy(text);
    if lossy.is_empty() {
        return None;
    }
    let mut from = start % lossy.len();
    while !lossy.is_char_boundary(from) {
        from -= 1;
    }
    let mut to = (from + len.max(1)).min(lossy.len());
    while !lossy.is_char_boundary(to) {
        to += 1;
    }
    let s = &lossy[from..to];
    (!s.is_empty() && !s.contains('\u{FFFD}')).then(|| s.to_string())
}

/// Runs the edit on `text` written in `encoding` and compares the file with the engine's result;
/// returns whether the edit was applied.
fn check_edit(encoding: Encoding, text: &[u8], call_edits: Value, edits: &[Edit]) -> Result<bool, TestCaseError> {
    let Some(bytes) = on_disk(encoding, text) else {
        return Ok(false);
    };
    let decoded = match decode(bytes.clone()) {
        Ok(d) if d.encoding == encoding => d,
        _ => return Ok(false), // Content that reads as another encoding (NUL bytes, a UTF-32 BOM).
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.txt");
    std::fs::write(&path, &bytes).unwrap();
    let result = surgical_tool::call("edit", &json!({"path": "f.txt", "edits": call_edits}), dir.path()).to_json();
    let expected = apply(&decoded.text, edits, &Options::new());
    let now = std::fs::read(&path).unwrap();
    match expected {
        Ok(applied) if result["ok"] == Value::Bool(true) => {
            let want = encode(encoding, &applied.text).unwrap();
            prop_assert_eq!(&now, &want, "{}", result);
            prop_assert_eq!(result["hashAfter"].as_str().unwrap(), sha256_hex(&[&want]));
            Ok(true)
        }
        _ => {
            prop_assert_eq!(result["ok"].clone(), Value::Bool(false), "{}", result);
            prop_assert_eq!(&now, &bytes);
            Ok(false)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn the_file_written_is_the_engines_result_encoded(
        text in content(),
        encoding in prop::sample::select(vec![Encoding::Utf8, Encoding::Utf8Bom, Encoding::Utf16Le, Encoding::Utf16Be]),
        picks in prop::collection::vec((any::<usize>(), 1usize..12, "[a-z\n ]{0,6}", any::<bool>()), 1..4),
    ) {
        // UTF-16 holds only valid text.
        let text = match encoding {
            Encoding::Utf16Le | Encoding::Utf16Be => String::from_utf8_lossy(&text).into_owned().into_bytes(),
            _ => text,
        };
        let mut call_edits = Vec::new();
        let mut edits = Vec::new();
        for (start, len, new, all) in picks {
            if let Some(old) = stretch(&text, start, len) {
                call_edits.push(json!({"oldText": old, "newText": new, "replaceAll": all}));
                edits.push(Edit::new(&old, &new).replace_all(all));
            }
        }
        if !edits.is_empty() {
            check_edit(encoding, &text, Value::Array(call_edits), &edits)?;
        }
    }
}

#[test]
fn an_edit_keeps_every_byte_around_the_change_in_each_encoding() {
    let text = "caf\u{e9}\r\nline one\rline two\n\u{a0}end".as_bytes();
    for encoding in [Encoding::Utf8, Encoding::Utf8Bom, Encoding::Utf16Le, Encoding::Utf16Be] {
        let applied = check_edit(
            encoding,
            text,
            json!([{"oldText": "line one", "newText": "line 1"}]),
            &[Edit::new("line one", "line 1")],
        )
        .unwrap();
        assert!(applied, "{encoding}");
    }
}
