//! Work budgets (issue 12): inputs whose alignment or search once cost the square of a line's
//! length or more finish, write the right bytes, and say when a coarser alignment was used. No test
//! here times anything: each would take minutes without its budget.

mod common;
use common::*;
use surgical_core::{apply, diff, Closest, DifferenceKind, Edit, EditError, Options, Row};

/// A deterministic blob of printable ASCII without line breaks.
fn blob(len: usize, seed: u64) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ALPHABET[(x % 64) as usize] as char
        })
        .collect()
}

#[test]
fn long_new_line_is_written_whole() {
    // A short line replaced by a 300 KB one: the two are never compared character by character.
    let text = "a\n    let data = None;\nb\n";
    let new = format!("    let data = Some(\"{}\");", blob(300_000, 1));
    let applied = apply_checked(
        text.as_bytes(),
        &[Edit::new("    let data = None;", new.as_str())],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(applied.text, format!("a\n{new}\nb\n").into_bytes());
    assert!(!applied.edits[0].coarse_alignment);
}

#[test]
fn long_line_edited_throughout_falls_back_and_says_so() {
    // Two 100 KB lines differing every third character: comparing them exactly would take about
    // 10^10 steps. The line before keeps the file's quotes (whole lines equal stay the file's); the
    // long line is written as the model gave it, and the edit says the alignment was coarse.
    let old_long = blob(100_000, 2);
    let new_long: String = old_long
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 3 == 0 { '!' } else { c })
        .collect();
    let text = format!("head\nx = \u{201C}q\u{201D};\r\n{old_long}\r\ntail\n");
    let old = format!("x = \"q\";\n{old_long}\n");
    let new = format!("x = \"q\";\n{new_long}\n");
    let applied = apply_checked(text.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(
        applied.text,
        format!("head\nx = \u{201C}q\u{201D};\r\n{new_long}\r\ntail\n").into_bytes()
    );
    assert!(applied.edits[0].coarse_alignment);
}

#[test]
fn past_the_budget_a_line_keeps_the_file_characters_around_the_change() {
    // With no budget at all, the characters the old and new line share at both ends are still the
    // file's (here its typographic quotes); only the middle is the model's.
    let text = "let s = \u{201C}a\u{201D} + b + \u{201C}z\u{201D};\n";
    let edit = Edit::new("let s = \"a\" + b + \"z\";", "let s = \"a\" + c + \"z\";");
    let applied =
        surgical_core::with_work_budget(0, || apply_checked(text.as_bytes(), &[edit], &Options::new())).unwrap();
    assert_eq!(
        String::from_utf8(applied.text).unwrap(),
        "let s = \u{201C}a\u{201D} + c + \u{201C}z\u{201D};\n"
    );
    assert!(applied.edits[0].coarse_alignment);
    // The file's quotes are reported kept.
    assert!(applied.edits[0]
        .differences
        .iter()
        .any(|d| matches!(&d.kind, DifferenceKind::Text { kept: true, .. })));
}

#[test]
fn long_line_split_into_many() {
    // One 32 KB minified line split into 128 lines, as a formatter does.
    let mut line = String::new();
    let mut i = 0;
    while line.len() < 32 * 1024 {
        line.push_str(&format!("f(a{i},b{i});"));
        i += 1;
    }
    let split: String = line
        .as_bytes()
        .chunks(256)
        .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
        .collect();
    let text = format!("// head\r\n{line}\r\n// tail\r\n");
    let applied = apply_checked(
        text.as_bytes(),
        &[Edit::new(format!("{line}\n"), split.replace("\r\n", "\n"))],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(applied.text, format!("// head\r\n{split}// tail\r\n").into_bytes());
}

#[test]
fn large_rewrite_keeps_equal_lines_and_terminators() {
    // 6,000 lines, every other one changed: more than a minimal line diff may cost here, so the line
    // diff is coarse; lines equal in both are still found, and keep their own (mixed) terminators.
    let old: Vec<String> = (0..6000).map(|i| format!("line {i} {}", blob(20, i))).collect();
    let new: Vec<String> = old
        .iter()
        .enumerate()
        .map(|(i, l)| if i % 2 == 0 { format!("changed {i}") } else { l.clone() })
        .collect();
    let text: String = old
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{l}{}", if i % 3 == 0 { "\r\n" } else { "\n" }))
        .collect();
    let want: String = new
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{l}{}", if i % 3 == 0 { "\r\n" } else { "\n" }))
        .collect();
    let applied = apply_checked(
        text.as_bytes(),
        &[Edit::new(old.join("\n") + "\n", new.join("\n") + "\n")],
        &Options::new(),
    )
    .unwrap();
    assert!(applied.edits[0].coarse_alignment);
    assert_eq!(String::from_utf8(applied.text).unwrap(), want);
}

#[test]
fn diff_of_a_huge_rewrite_is_real() {
    // A line diff past its budget shows more lines as removed and added, never wrong ones: the
    // patch still reproduces the new text.
    let old: String = (0..20_000).map(|i| format!("{i} {}\n", blob(8, i))).collect();
    let new: String = (0..20_000)
        .map(|i| {
            if i % 2 == 0 {
                format!("{i} x\n")
            } else {
                format!("{i} {}\n", blob(8, i))
            }
        })
        .collect();
    let changes = diff::whole_change(old.as_bytes(), new.as_bytes());
    let patch = diff::unified_patch(old.as_bytes(), new.as_bytes(), &changes, "f");
    let rebuilt = apply_patch(old.as_bytes(), &patch).unwrap();
    assert_eq!(String::from_utf8(rebuilt).unwrap(), new);
}

#[test]
fn not_found_near_a_long_line() {
    // The closest region holds a 200 KB line that the needle's line resembles only in part.
    let long = blob(200_000, 3);
    let text = format!("fn a() {{\n    let x = \"{long}\";\n    call(x);\n}}\n");
    let needle = format!("fn a() {{\n    let x = \"{}\";\n    call(y);\n", blob(150_000, 4));
    match apply(text.as_bytes(), &[Edit::new(needle, "z")], &Options::new()) {
        Err(EditError::NotFound {
            closest: Closest::Regions(r),
            ..
        }) => {
            assert_eq!(r[0].lines.0, 1);
            assert!(matches!(r[0].rows[0], Row::Paired { line: 1, .. }));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn line_tiers_still_match_when_every_word_is_there() {
    // The word check before the line-based tiers must not hide their matches: every word of this
    // needle is in the file, only indentation and spacing differ.
    let text = "fn f() {\n\tif  ready {\n\t\tgo(1);\n\t}\n}\n";
    let applied = apply(
        text.as_bytes(),
        &[Edit::new(
            "    if ready {\n        go(1);\n",
            "    if ready {\n        go(2);\n",
        )],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(applied.text).unwrap(),
        "fn f() {\n\tif  ready {\n\t\tgo(2);\n\t}\n}\n"
    );
    // One word missing: not found (and the line tiers were skipped).
    assert!(matches!(
        apply(
            text.as_bytes(),
            &[Edit::new("    if steady {\n        go(1);\n", "x")],
            &Options::new()
        ),
        Err(EditError::NotFound { .. })
    ));
}

#[test]
fn long_periodic_needle_is_not_found_in_linear_time() {
    // 15 KB of one repeated statement against a three-line file: the search automaton for it once
    // cost the square of its length to build (seconds; issue 16). The closest region is still named.
    let text = b"fn a() {\n    let x = 1;\n}\n";
    let old = "    let x = 1;\n".repeat(1000);
    match apply(text, &[Edit::new(old.as_str(), "y")], &Options::new()) {
        Err(EditError::NotFound {
            closest: Closest::Regions(regions),
            ..
        }) => assert_eq!(regions[0].lines.0, 1),
        other => panic!("{other:?}"),
    }
}
