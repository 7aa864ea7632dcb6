//! Properties of `surgical_core::snippet`: a snippet derived from a window of arbitrary content
//! (mixed line endings, repeated and weak lines, marker-like lines, no final newline) with one
//! change — a line rewritten, inserted or deleted — either gives the content with exactly that
//! change (every byte before and after the changed line kept) or is refused. Never a wrong merge.
//! Likewise a block of new lines, some copies of the window's own lines, inserted anywhere in
//! the window, its end included (the shape of a merge that once deleted the lines between two
//! copies of the snippet's head).

use proptest::prelude::*;
use surgical_core::lines::lines;
use surgical_core::snippet::{apply_snippet, apply_snippet_spliced};

/// Lines as code has them: repeated ones, weak ones (`}`, blank, a raw string's closing `` ` ``), a
/// marker-like one, words.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("}".to_string()),
        2 => Just(String::new()),
        2 => Just("fn f() {".to_string()),
        2 => Just("    let x = 1;".to_string()),
        1 => Just("`".to_string()),
        1 => Just("    ...".to_string()),
        1 => Just("// ...".to_string()),
        6 => "[a-z]{1,6}( [a-z0-9]{1,6}){0,3}",
        2 => "    [a-z]{1,6}\\([a-z0-9]{0,3}\\);",
    ]
}

fn ending() -> impl Strategy<Value = &'static str> {
    prop_oneof![4 => Just("\n"), 2 => Just("\r\n"), 1 => Just("\r")]
}

#[derive(Clone, Debug)]
enum Change {
    Rewrite(usize, String),
    Insert(usize, String),
    Delete(usize),
}

/// The lines as the text they join into reads them back (a `\r` before an empty line's `\n` is a
/// CRLF; an empty last line without a terminator is none).
fn as_read(file: Vec<(String, &'static str)>, final_newline: bool) -> (Vec<(String, &'static str)>, bool) {
    let text = joined(&file, final_newline);
    let read: Vec<(String, &'static str)> = lines(&text)
        .map(|l| {
            let eol = match l.eol {
                b"\r\n" => "\r\n",
                b"\r" => "\r",
                b"\n" => "\n",
                _ => "",
            };
            (String::from_utf8(l.content.to_vec()).unwrap(), eol)
        })
        .collect();
    let final_newline = read.last().is_some_and(|(_, e)| !e.is_empty());
    (read, final_newline)
}

fn case() -> impl Strategy<Value = (Vec<(String, &'static str)>, bool, usize, usize, Change, u8)> {
    (prop::collection::vec((line(), ending()), 3..40), any::<bool>())
        .prop_map(|(file, final_newline)| as_read(file, final_newline))
        .prop_filter("three lines", |(file, _)| file.len() >= 3)
        .prop_flat_map(|(file, final_newline)| {
            let n = file.len();
            (Just(file), Just(final_newline), 0..n - 2).prop_flat_map(move |(file, fin, a)| {
                let n = file.len();
                (Just(file), Just(fin), Just(a), (a + 3)..=n.min(a + 12)).prop_flat_map(|(file, fin, a, b)| {
                    // The change is inside the window, with at least one shown line on each side.
                    let change = prop_oneof![
                        ((a + 1)..(b - 1), "new [a-z]{1,8}\\(\\);").prop_map(|(i, t)| Change::Rewrite(i, t)),
                        ((a + 1)..b, "added [a-z]{1,8};").prop_map(|(i, t)| Change::Insert(i, t)),
                        ((a + 1)..(b - 1)).prop_map(Change::Delete),
                    ];
                    (Just(file), Just(fin), Just(a), Just(b), change, any::<u8>())
                })
            })
        })
}

fn joined(file: &[(String, &str)], final_newline: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (l, e)) in file.iter().enumerate() {
        out.extend_from_slice(l.as_bytes());
        if i + 1 < file.len() || final_newline {
            out.extend_from_slice(e.as_bytes());
        }
    }
    out
}

/// A file, its final newline, a window `a..b`, where a block goes in (`a < i <= b`), and the
/// block: per line, a copy of the window's line (`Ok(offset)`) or a new line (`Err(text)`).
type BlockCase = (
    Vec<(String, &'static str)>,
    bool,
    usize,
    usize,
    usize,
    Vec<Result<usize, String>>,
    u8,
);

/// Lines as code has them (a raw string's closing `` ` `` among them), marker-like ones aside.
fn code_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("}".to_string()),
        2 => Just(String::new()),
        2 => Just("fn f() {".to_string()),
        2 => Just("    let x = 1;".to_string()),
        1 => Just("`".to_string()),
        6 => "[a-z]{1,6}( [a-z0-9]{1,6}){0,3}",
        2 => "    [a-z]{1,6}\\([a-z0-9]{0,3}\\);",
    ]
}

fn block_case() -> impl Strategy<Value = BlockCase> {
    (prop::collection::vec((code_line(), ending()), 3..40), any::<bool>())
        .prop_map(|(file, final_newline)| as_read(file, final_newline))
        .prop_filter("three lines", |(file, _)| file.len() >= 3)
        .prop_flat_map(|(file, final_newline)| {
            let n = file.len();
            (Just(file), Just(final_newline), 0..n - 1).prop_flat_map(move |(file, fin, a)| {
                let n = file.len();
                (Just(file), Just(fin), Just(a), (a + 2)..=n.min(a + 8)).prop_flat_map(|(file, fin, a, b)| {
                    let line = prop_oneof![
                        2 => (0..b - a).prop_map(Ok),
                        1 => "new [a-z]{1,6}\\(\\);".prop_map(Err),
                    ];
                    (
                        Just(file),
                        Just(fin),
                        Just(a),
                        Just(b),
                        (a + 1)..=b,
                        ("new [a-z]{1,6}\\(\\);", prop::collection::vec(line, 1..4)).prop_map(|(first, rest)| {
                            let mut block = vec![Err(first)];
                            block.extend(rest);
                            block
                        }),
                        any::<u8>(),
                    )
                })
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("SNIPPET_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(400)
    ))]

    #[test]
    fn a_window_with_one_change_merges_exactly_or_is_refused(
        (file, final_newline, a, b, change, style) in case()
    ) {
        let text = joined(&file, final_newline);
        // The window's lines with the change, as the model would show them.
        let mut shown: Vec<String> = file[a..b].iter().map(|(l, _)| l.clone()).collect();
        let mut expected: Vec<String> = file.iter().map(|(l, _)| l.clone()).collect();
        let changed_at;
        match &change {
            Change::Rewrite(i, t) => {
                shown[i - a] = t.clone();
                expected[*i] = t.clone();
                changed_at = *i;
            }
            Change::Insert(i, t) => {
                shown.insert(i - a, t.clone());
                expected.insert(*i, t.clone());
                changed_at = *i;
            }
            Change::Delete(i) => {
                // A lone CR before an empty LF line would join them into one CRLF: no text a model
                // can ask for (known limit of the change set, as for `edit`).
                // The same holds where the deleted line is one of equal lines next to each other
                // (any of them may go).
                let mut first = *i;
                while first > 0 && file[first - 1].0 == file[*i].0 {
                    first -= 1;
                }
                let mut end = *i + 1;
                while end < file.len() && file[end].0 == file[*i].0 {
                    end += 1;
                }
                prop_assume!(!((first.max(1) - 1..end).any(|k| file[k].1 == "\r") && file.get(end).is_some_and(|(l, e)| l.is_empty() && e.starts_with('\n'))));
                shown.remove(i - a);
                expected.remove(*i);
                changed_at = *i;
            }
        }
        let marker = if style % 2 == 0 { "// ... existing code ..." } else { "# ..." };
        let mut snippet = String::new();
        // Edge markers, sometimes forgotten.
        if style & 2 == 0 || a > 0 {
            snippet.push_str(marker);
            snippet.push('\n');
        }
        for l in &shown {
            snippet.push_str(l);
            snippet.push_str(if style & 4 == 0 { "\n" } else { "\r\n" });
        }
        if style & 8 == 0 {
            snippet.push_str(marker);
            snippet.push('\n');
        }
        // A last line that is empty and unterminated is no line.
        if !final_newline && expected.last().is_some_and(String::is_empty) {
            expected.pop();
        }
        // The merge returned as replacements is the same merge.
        let spliced = apply_snippet_spliced(&text, &snippet).ok().map(|s| (s.spliced, s.placement));
        let whole = apply_snippet(&text, &snippet).ok().map(|m| (m.applied.into_spliced(), m.placement));
        prop_assert_eq!(spliced, whole, "snippet {:?}", snippet);
        if let Ok(merged) = apply_snippet(&text, &snippet) {
            let out = merged.applied.text;
            let got: Vec<String> = lines(&out).map(|l| String::from_utf8(l.content.to_vec()).unwrap()).collect();
            prop_assert_eq!(&got, &expected, "snippet {:?}", snippet);
            // Bytes before the changed line and after it are the file's. Deleting one of equal
            // lines next to each other deletes any of them: the run of them counts as changed.
            let (mut first, mut end) = match change {
                Change::Insert(..) => (changed_at, changed_at),
                _ => (changed_at, changed_at + 1),
            };
            if let Change::Delete(i) = change {
                while first > 0 && file[first - 1].0 == file[i].0 {
                    first -= 1;
                }
                while end < file.len() && file[end].0 == file[i].0 {
                    end += 1;
                }
            }
            let start = |k: usize| file[..k].iter().map(|(l, e)| l.len() + e.len()).sum::<usize>();
            let before = start(first);
            prop_assert_eq!(&out[..before], &text[..before]);
            let after = text.len() - start(end);
            prop_assert!(out.len() >= after);
            prop_assert_eq!(&out[out.len() - after..], &text[text.len() - after..]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        max_global_rejects: 1 << 20,
        ..ProptestConfig::with_cases(std::env::var("SNIPPET_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(400))
    })]

    #[test]
    fn a_block_with_copied_lines_merges_exactly_or_is_refused(
        (file, final_newline, a, b, i, block, style) in block_case()
    ) {
        let text = joined(&file, final_newline);
        let block: Vec<String> = block
            .into_iter()
            .map(|l| match l { Ok(o) => file[a + o].0.clone(), Err(t) => t })
            .collect();
        // The block starts with a new line (by construction) and does not end with copies of the
        // lines after it, so that where it goes is one place: a block starting with a copy slides
        // (a longer head takes the copy as the file's line), one ending with the next lines is read
        // as ending at the file's lines (the longest tail: `new } fn` before `} fn` is read as `new`
        // inserted; no file line is lost either way).
        prop_assume!((1..=block.len()).all(|n| {
            let after: Vec<&String> = file[i..].iter().take(n).map(|(l, _)| l).collect();
            after.len() < n || block[block.len() - n..].iter().collect::<Vec<_>>() != after
        }));
        let mut shown: Vec<String> = file[a..b].iter().map(|(l, _)| l.clone()).collect();
        let mut expected: Vec<String> = file.iter().map(|(l, _)| l.clone()).collect();
        for (k, l) in block.iter().enumerate() {
            shown.insert(i - a + k, l.clone());
            expected.insert(i + k, l.clone());
        }
        let marker = if style % 2 == 0 { "// ... existing code ..." } else { "# ..." };
        let mut snippet = String::new();
        if style & 2 == 0 || a > 0 {
            snippet.push_str(marker);
            snippet.push('\n');
        }
        for l in &shown {
            snippet.push_str(l);
            snippet.push('\n');
        }
        if style & 8 == 0 || b < file.len() {
            snippet.push_str(marker);
            snippet.push('\n');
        }
        if !final_newline && expected.last().is_some_and(String::is_empty) {
            expected.pop();
        }
        // The merge returned as replacements is the same merge.
        let spliced = apply_snippet_spliced(&text, &snippet).ok().map(|s| (s.spliced, s.placement));
        let whole = apply_snippet(&text, &snippet).ok().map(|m| (m.applied.into_spliced(), m.placement));
        prop_assert_eq!(spliced, whole, "snippet {:?}", snippet);
        if let Ok(merged) = apply_snippet(&text, &snippet) {
            let out = merged.applied.text;
            let got: Vec<String> = lines(&out).map(|l| String::from_utf8(l.content.to_vec()).unwrap()).collect();
            prop_assert_eq!(&got, &expected, "snippet {:?}", snippet);
            // Bytes outside the window are the file's.
            let start = |k: usize| file[..k].iter().map(|(l, e)| l.len() + e.len()).sum::<usize>();
            let before = start(a);
            prop_assert_eq!(&out[..before], &text[..before]);
            let after = text.len() - start(b);
            prop_assert!(out.len() >= after);
            prop_assert_eq!(&out[out.len() - after..], &text[text.len() - after..]);
        }
    }
}
