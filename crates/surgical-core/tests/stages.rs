//! The stages one by one: a haystack, `find` with a scope, a change set, applied. Above all the
//! three cases of whole-line placement that a plain "starts and ends a line" test gets wrong, which
//! patch placement needs.

// Spans are lists of ranges; a list of one is what a single match has.
#![allow(clippy::single_range_in_vec_init)]

use surgical_core::{ChangeSet, EditError, Haystack, Miss, Needle, Scope, Tier};

fn replaced(text: &[u8], old: &str, new: &str, scope: &Scope, loosest: Tier) -> Result<Vec<u8>, String> {
    let hay = Haystack::new(text);
    let found = hay.find(old, scope, loosest).map_err(|m| format!("{m:?}"))?;
    let mut changes = ChangeSet::new(&hay);
    changes.replace(&found, new).map_err(|e| e.to_string())?;
    Ok(changes.apply().map_err(|e| e.to_string())?.text)
}

/// (a) A needle whose first line is blank, under the tiers that trim: the file's blank line holds
/// blanks the needle's does not, and the match takes that line whole.
#[test]
fn blank_first_line_is_a_whole_line_under_the_trimming_tiers() {
    let text = b"fn a() {\n    \n    x();\n}\n";
    let hay = Haystack::new(text);
    let lines = Scope::everywhere().whole_lines();
    let m = hay.find("\n    x();\n", &lines, Tier::Unicode).unwrap();
    assert_eq!(m.tier, Tier::TrailingWhitespace);
    assert_eq!(m.spans, vec![9..23]);
    let m = hay.find("  \n    x();\n", &lines, Tier::Unicode).unwrap();
    assert_eq!(m.spans, vec![9..23]);
    let out = replaced(text, "\n    x();\n", "\n    y();\n", &lines, Tier::Unicode).unwrap();
    assert_eq!(out, b"fn a() {\n    \n    y();\n}\n");
    // Exact matching does not trim: the file's blank line differs, and only a match inside it remains,
    // which is not whole lines.
    assert!(matches!(
        hay.find("\n    x();\n", &lines, Tier::Exact),
        Err(Miss::NotFound { .. })
    ));
    // Without whole lines, exact matching finds the needle from the blank line's terminator, and
    // takes in the blanks before it on that line: the needle's empty first line stands for that
    // line, so the model's first line decides about its blanks (kept, or replaced by its own, never
    // both: issue 28, trailing whitespace doubled).
    assert_eq!(
        hay.find("\n    x();\n", &Scope::everywhere(), Tier::Exact)
            .unwrap()
            .spans,
        vec![9..23]
    );
    let everywhere = Scope::everywhere();
    let out = replaced(text, "\n    x();\n", "\n    y();\n", &everywhere, Tier::Exact).unwrap();
    assert_eq!(out, b"fn a() {\n    \n    y();\n}\n");
    let out = replaced(text, "\n    x();\n", "  \n    y();\n", &everywhere, Tier::Exact).unwrap();
    assert_eq!(out, b"fn a() {\n  \n    y();\n}\n");
}

/// (b) A needle ending with a line break, at the end of a file without one: the line break stands
/// for the end of the file, and the file still ends without one after the replacement.
#[test]
fn final_line_break_matches_the_end_of_a_file_without_one() {
    let lines = Scope::everywhere().whole_lines();
    for (text, want) in [(&b"a\nfoo"[..], &b"a\nbar"[..]), (b"a\r\nfoo", b"a\r\nbar")] {
        let hay = Haystack::new(text);
        let m = hay.find("foo\n", &lines, Tier::Exact).unwrap();
        assert_eq!(m.spans, vec![text.len() - 3..text.len()]);
        assert_eq!(replaced(text, "foo\n", "bar\n", &lines, Tier::Exact).unwrap(), want);
    }
    // Two lines, the last one open; removing it leaves the line before it whole.
    assert_eq!(replaced(b"a\nb\nc", "b\nc\n", "", &lines, Tier::Exact).unwrap(), b"a\n");
    // A replacement without the final line break keeps the file's ending as it is.
    assert_eq!(
        replaced(b"a\nfoo", "foo\n", "bar", &lines, Tier::Exact).unwrap(),
        b"a\nbar"
    );
    // The open end counts for uniqueness like any other place.
    let hay = Haystack::new(b"foo\nfoo");
    assert!(matches!(
        hay.find("foo\n", &lines, Tier::Exact),
        Err(Miss::Ambiguous { total: 2, .. })
    ));
    // Outside whole lines, a needle's line break still needs a terminator in the file.
    assert!(hay.find("x\nfoo\n", &Scope::everywhere(), Tier::Exact).is_err());
    let plain = Haystack::new(b"a\nfoo");
    assert!(matches!(
        plain.find("foo\n", &Scope::everywhere(), Tier::Exact),
        Err(Miss::NotFound { .. })
    ));
}

/// (c) A needle whose first line the file indents more: with `indented_first_line`, the match starts
/// after the file's extra indentation, which is kept.
#[test]
fn first_line_indented_more_keeps_the_files_indentation() {
    let text = b"fn a() {\n        x();\n    z();\n}\n";
    let hay = Haystack::new(text);
    let lines = Scope::everywhere().whole_lines();
    assert!(matches!(
        hay.find("    x();\n    z();\n", &lines, Tier::Unicode),
        Err(Miss::NotFound { .. })
    ));
    let indented = lines.clone().indented_first_line();
    let m = hay.find("    x();\n    z();\n", &indented, Tier::Unicode).unwrap();
    assert_eq!(
        (m.tier, m.spans.clone(), m.indented_first_line),
        (Tier::Exact, vec![13..31], true)
    );
    let out = replaced(
        text,
        "    x();\n    z();\n",
        "    y();\n    z();\n",
        &indented,
        Tier::Unicode,
    )
    .unwrap();
    assert_eq!(out, b"fn a() {\n        y();\n    z();\n}\n");
    // A match at its line's start is as written even with the option, and one inside a line
    // without it: nothing forgiven either way.
    let m = hay.find("        x();\n    z();\n", &indented, Tier::Unicode).unwrap();
    assert_eq!((m.indented_first_line, m.forgiven), (false, None));
    let m = hay.find("x();", &Scope::everywhere(), Tier::Unicode).unwrap();
    assert_eq!((m.tier, m.indented_first_line, m.forgiven), (Tier::Exact, false, None));
    // Only blanks may come before the match on its line.
    let hay = Haystack::new(b"let a = x();\n");
    assert!(hay.find("x();\n", &indented, Tier::Unicode).is_err());
}

#[test]
fn scope_after_a_line_and_within_a_line_range() {
    let text = b"x = 1;\nx = 1;\nx = 1;\n";
    let hay = Haystack::new(text);
    let index = hay.lines();
    let after_second = Scope::everywhere().within(index.start(2)..text.len());
    assert_eq!(
        hay.find("x = 1;", &after_second, Tier::Exact).unwrap().spans,
        vec![14..20]
    );
    let second = Scope::everywhere().within(index.range(1..2));
    assert_eq!(hay.find("x = 1;", &second, Tier::Exact).unwrap().spans, vec![7..13]);
    match hay.find("x = 1;", &Scope::everywhere(), Tier::Exact) {
        Err(Miss::Ambiguous { tier, starts, total }) => {
            // They differ in nothing: ambiguous before any tier runs.
            assert_eq!((tier, starts, total), (None, vec![0, 7, 14], 3));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn change_set_refuses_overlaps_as_they_are_added() {
    let text = b"alpha beta gamma\n";
    let hay = Haystack::new(text);
    let all = Scope::everywhere();
    let found = hay
        .find_all(
            &[Needle::new("alpha beta"), Needle::new("beta gamma")],
            &all,
            Tier::Exact,
        )
        .unwrap();
    let mut changes = ChangeSet::new(&hay);
    assert_eq!(changes.replace(&found[0], "A B").unwrap(), 0);
    let err = changes.replace(&found[1], "B G").unwrap_err();
    assert_eq!(
        err,
        EditError::Overlap {
            first: 0,
            second: 1,
            line: 1
        }
    );
    // The refused replacement was not added: the set still applies.
    assert_eq!(changes.len(), 1);
    let applied = changes.apply().unwrap();
    assert_eq!(applied.text, b"A B gamma\n");
    assert_eq!(applied.changes()[0].old, 0..10);
}

#[test]
fn every_occurrence_and_the_lines_of_each_change() {
    let text = b"a = 1;\r\nb = 2;\r\na = 1;\r\n";
    let hay = Haystack::new(text);
    let found = hay
        .find_all(
            &[Needle::new("a = 1;\n").every(true)],
            &Scope::everywhere(),
            Tier::Exact,
        )
        .unwrap();
    assert_eq!(found[0].spans, vec![0..8, 16..24]);
    let mut changes = ChangeSet::new(&hay);
    changes.replace(&found[0], "a = 1;\nc = 3;\n").unwrap();
    let applied = changes.apply().unwrap();
    assert_eq!(applied.text, b"a = 1;\r\nc = 3;\r\nb = 2;\r\na = 1;\r\nc = 3;\r\n");
    let lines: Vec<_> = applied.edits[0]
        .occurrences
        .iter()
        .map(|o| (o.old_lines, o.new_lines))
        .collect();
    assert_eq!(lines, vec![((1, 1), (1, 2)), ((3, 3), (4, 5))]);
}

#[test]
fn change_set_takes_replacements_in_any_order() {
    let text = b"a b c d\n";
    let hay = Haystack::new(text);
    let all = Scope::everywhere();
    let needles = [Needle::new("d"), Needle::new("b"), Needle::new("a")];
    let found = hay.find_all(&needles, &all, Tier::Exact).unwrap();
    let mut changes = ChangeSet::new(&hay);
    assert!(changes.is_empty());
    assert_eq!(changes.len(), 0);
    for (m, new) in found.iter().zip(["D", "B", "A"]) {
        changes.replace(m, new).unwrap();
    }
    assert!(!changes.is_empty());
    assert_eq!(changes.len(), 3);
    // What a set shows when debugged: how many replacements, and their spans in file order (start,
    // end, replacement).
    let shown = format!("{changes:?}");
    assert_eq!(
        shown,
        "ChangeSet { replacements: 3, spans: {(0, 1, 2), (2, 3, 1), (6, 7, 0)}, .. }"
    );
    // Overlapping the span before it in file order, then the one after it.
    let b_c = hay.find("b c", &all, Tier::Exact).unwrap();
    let overlap = EditError::Overlap {
        first: 1,
        second: 3,
        line: 1,
    };
    assert_eq!(changes.replace(&b_c, "x").unwrap_err(), overlap);
    let c_d = hay.find("c d", &all, Tier::Exact).unwrap();
    let overlap = EditError::Overlap {
        first: 0,
        second: 3,
        line: 1,
    };
    assert_eq!(changes.replace(&c_d, "x").unwrap_err(), overlap);
    let applied = changes.apply().unwrap();
    assert_eq!(applied.text, b"A B c D\n");
    // Reported in the order added; changes() in file order.
    assert_eq!(applied.edits[0].occurrences[0].old, 6..7);
    let olds: Vec<_> = applied.changes().into_iter().map(|c| c.old).collect();
    assert_eq!(olds, vec![0..1, 2..3, 6..7]);
}

/// A haystack over a window of a larger text (one line at the end of a CRLF file without a final
/// line break): new lines take the terminator before the window, as in the whole text.
#[test]
fn a_window_takes_the_terminator_before_it() {
    let file = b"a\r\nb";
    let window = &file[3..];
    let lines = Scope::everywhere().whole_lines();
    let hay = Haystack::new(window);
    let found = hay.find("b\n", &lines, Tier::Exact).unwrap();
    // Without the terminator before the window, the window alone has none: `\n`.
    let mut plain = ChangeSet::new(&hay);
    plain.replace_ending_text(&found, "b\nc\n").unwrap();
    assert_eq!(plain.apply().unwrap().text, b"b\nc\n");
    let mut changes = ChangeSet::new(&hay).terminator_before(b"\r\n");
    changes.replace(&found, "b\nc\n").unwrap();
    assert_eq!(changes.apply().unwrap().text, b"b\r\nc");
    // A terminator inside the window wins over the one before it.
    let hay = Haystack::new(b"x\ny");
    let found = hay.find("x\ny\n", &lines, Tier::Exact).unwrap();
    let mut changes = ChangeSet::new(&hay).terminator_before(b"\r\n");
    changes.replace(&found, "x\ny\nz\n").unwrap();
    assert_eq!(changes.apply().unwrap().text, b"x\ny\nz");
}

/// `replace_ending_text`: at the end of a text without a final line break, a replacement ending with
/// one gives the text one; a replacement without keeps it open; elsewhere it is `replace`.
#[test]
fn replace_ending_text_writes_the_final_line_break() {
    let lines = Scope::everywhere().whole_lines();
    // The text, the needle, the replacement, and the text after `replace_ending_text` and `replace`.
    type Case = (&'static [u8], &'static str, &'static str, &'static [u8], &'static [u8]);
    let cases: [Case; 4] = [
        (b"a\r\nfoo", "foo\n", "bar\n", b"a\r\nbar\r\n", b"a\r\nbar"),
        (b"a\r\nfoo", "foo\n", "bar", b"a\r\nbar", b"a\r\nbar"),
        (b"a\nfoo\n", "foo\n", "bar\n", b"a\nbar\n", b"a\nbar\n"),
        (b"foo\nz", "foo\n", "bar\n", b"bar\nz", b"bar\nz"),
    ];
    for (text, old, new, ending, plain) in cases {
        let hay = Haystack::new(text);
        let found = hay.find(old, &lines, Tier::Exact).unwrap();
        let mut changes = ChangeSet::new(&hay);
        changes.replace_ending_text(&found, new).unwrap();
        assert_eq!(changes.apply().unwrap().text, ending, "{old:?} -> {new:?} in {text:?}");
        let mut changes = ChangeSet::new(&hay);
        changes.replace(&found, new).unwrap();
        assert_eq!(changes.apply().unwrap().text, plain, "{old:?} -> {new:?} in {text:?}");
    }
}

/// `new` inserted at `at` in `text` with [`ChangeSet::insert_lines`], applied.
fn inserted(text: &[u8], at: usize, new: &str) -> Result<Vec<u8>, EditError> {
    let hay = Haystack::new(text);
    let mut changes = ChangeSet::new(&hay);
    changes.insert_lines(at, new)?;
    Ok(changes.apply()?.text)
}

/// An insertion after a CRLF line starts after the `\n` and takes `\r\n`; the lines around it are
/// not touched, whatever their own endings.
#[test]
fn insert_lines_at_a_crlf_boundary() {
    assert_eq!(inserted(b"a\r\nb\nc\n", 3, "x\ny\n").unwrap(), b"a\r\nx\r\ny\r\nb\nc\n");
    // After a lone CR, a CR; after an LF, an LF (the line before decides, not the line after).
    assert_eq!(inserted(b"a\rb\r\n", 2, "x\n").unwrap(), b"a\rx\rb\r\n");
    assert_eq!(inserted(b"a\nb\r\n", 2, "x\n").unwrap(), b"a\nx\nb\r\n");
    // The new text's own line breaks, any of them, are written with the local one.
    assert_eq!(inserted(b"a\r\nb\r\n", 3, "x\ry\r\n").unwrap(), b"a\r\nx\r\ny\r\nb\r\n");
    // Before a following line, a missing final line break is added.
    assert_eq!(inserted(b"a\r\nb\r\n", 3, "x").unwrap(), b"a\r\nx\r\nb\r\n");
}

/// At the start of a text, the first line's terminator.
#[test]
fn insert_lines_at_the_start() {
    assert_eq!(inserted(b"a\r\nb\n", 0, "x\n").unwrap(), b"x\r\na\r\nb\n");
    // A single line without a terminator: `\n`, and the line stays as it is.
    assert_eq!(inserted(b"only", 0, "x\ny").unwrap(), b"x\ny\nonly");
}

/// At the end of a text: the last line is ended first when it has no line break, and the new text's
/// final line break is written as given.
#[test]
fn insert_lines_at_the_end_without_a_final_newline() {
    assert_eq!(inserted(b"a\r\nb", 4, "x\n").unwrap(), b"a\r\nb\r\nx\r\n");
    assert_eq!(inserted(b"a\r\nb", 4, "x").unwrap(), b"a\r\nb\r\nx");
    // No terminator anywhere: the fallback, `\n` or the one before a window.
    assert_eq!(inserted(b"b", 1, "x\n").unwrap(), b"b\nx\n");
    let hay = Haystack::new(b"b");
    let mut changes = ChangeSet::new(&hay).terminator_before(b"\r");
    changes.insert_lines(1, "x\n").unwrap();
    assert_eq!(changes.apply().unwrap().text, b"b\rx\r");
    // At the end of a text that has its final line break, the last line's terminator.
    assert_eq!(inserted(b"a\r\n", 3, "x").unwrap(), b"a\r\nx");
}

/// Into an empty text: the new text is the whole text, with the fallback terminator.
#[test]
fn insert_lines_into_an_empty_text() {
    assert_eq!(inserted(b"", 0, "x\r\ny\n").unwrap(), b"x\ny\n");
    assert_eq!(inserted(b"", 0, "x").unwrap(), b"x");
    // Nothing inserted changes nothing.
    assert!(matches!(
        inserted(b"", 0, ""),
        Err(EditError::NoChange { index: 0, .. })
    ));
}

/// An insertion is an empty span: at either end of a replacement it is no overlap, inside one it is;
/// its occurrence replaces nothing, and the lines around are copied as they are.
#[test]
fn insert_lines_beside_a_replacement() {
    let text = b"a\nb\nc\nd\n";
    let hay = Haystack::new(text);
    let found = hay
        .find("b\nc\n", &Scope::everywhere().whole_lines(), Tier::Exact)
        .unwrap();
    let mut changes = ChangeSet::new(&hay);
    changes.replace(&found, "B\n").unwrap();
    changes.insert_lines(2, "x\n").unwrap();
    changes.insert_lines(6, "y\n").unwrap();
    assert!(matches!(
        changes.insert_lines(4, "z\n"),
        Err(EditError::Overlap {
            first: 0,
            second: 3,
            line: 3
        })
    ));
    let applied = changes.apply().unwrap();
    assert_eq!(applied.text, b"a\nx\nB\ny\nd\n");
    let occ = &applied.edits[1].occurrences[0];
    assert_eq!((occ.old.clone(), occ.new.clone()), (2..2, 2..4));
    assert_eq!((occ.old_lines, occ.new_lines), ((2, 2), (2, 2)));
}

/// `insert_lines` takes line starts only: after a lone CR is one, between a CR and its LF is not,
/// nor is the middle of a line.
#[test]
fn lines_are_inserted_at_line_starts_only() {
    let text = b"a\rb\n";
    let hay = Haystack::new(text);
    let mut changes = ChangeSet::new(&hay);
    changes.insert_lines(2, "x\n").unwrap();
    assert_eq!(changes.apply().unwrap().text, b"a\rx\rb\n");
    let inside = |text: &'static [u8], at: usize| {
        std::panic::catch_unwind(move || {
            let hay = Haystack::new(text);
            let _ = ChangeSet::new(&hay).insert_lines(at, "x\n");
        })
        .is_err()
    };
    assert!(inside(b"a\r\nb\n", 2), "between a CR and its LF");
    assert!(inside(b"ab\n", 1), "inside a line");
    assert!(!inside(b"a\r\nb\n", 3), "after a CRLF");
}

/// A rewritten line holding U+FFFD, in a text where U+FFFD stands for bytes a model could not see,
/// is refused, on the line of the text where it would be written.
#[test]
fn a_fabricated_replacement_char_is_refused_on_its_line() {
    let text = b"a\xff\nb\nc\n";
    let hay = Haystack::new(text);
    let found = hay.find("b\nc\n", &Scope::everywhere(), Tier::Exact).unwrap();
    let mut changes = ChangeSet::new(&hay);
    changes.replace(&found, "b\nX\u{FFFD}Y\n").unwrap();
    assert_eq!(
        changes.apply().unwrap_err(),
        EditError::FabricatedReplacementChar { index: 0, line: 3 }
    );
}

/// Lines inserted after an open last line are counted from the line break that ends it: a U+FFFD
/// among them is refused on the line it would be written on.
#[test]
fn a_fabricated_replacement_char_after_an_open_last_line_is_refused_on_its_line() {
    let text = b"a\xff\nb";
    let hay = Haystack::new(text);
    let mut changes = ChangeSet::new(&hay);
    changes.insert_lines(text.len(), "X\u{FFFD}Y\n").unwrap();
    assert_eq!(
        changes.apply().unwrap_err(),
        EditError::FabricatedReplacementChar { index: 0, line: 3 }
    );
}

/// An `oldText` copied with line numbers of one style: `newText`'s prefixes of that style are left
/// out, a line that only looks numbered in another style is the model's text and is written as given.
#[test]
fn only_the_old_texts_number_style_is_left_out() {
    let edits = [surgical_core::Edit::new(
        "1 | a = 1\n2 | b = 2\n",
        "1 | a = 1\n2 | b = 3\n3\tc\n",
    )];
    let out = surgical_core::apply(b"a = 1\nb = 2\n", &edits, &surgical_core::Options::new()).unwrap();
    assert_eq!(out.text, b"a = 1\nb = 3\n3\tc\n");
}

/// Two replacements in one set, on an LF line then a CRLF line: each line break written inside a
/// line takes that line's terminator (the terminator found for the first is not reused).
#[test]
fn each_span_takes_its_own_lines_terminator() {
    let text = b"x\ny\r\n";
    let hay = Haystack::new(text);
    let all = Scope::everywhere();
    let mut changes = ChangeSet::new(&hay);
    changes
        .replace(&hay.find("x", &all, Tier::Exact).unwrap(), "P\nQ")
        .unwrap();
    changes
        .replace(&hay.find("y", &all, Tier::Exact).unwrap(), "R\nS")
        .unwrap();
    assert_eq!(changes.apply().unwrap().text, b"P\nQ\nR\r\nS\r\n");
}
