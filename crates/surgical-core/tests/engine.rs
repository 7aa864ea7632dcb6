//! Each tier, each error, and the examples from the issue, through the public API.

mod common;
use common::*;
use surgical_core::{apply, DifferenceKind, Edit, EditError, Options, Tier};

fn strategy_of(text: &str, old: &str, new: &str) -> Tier {
    apply(text.as_bytes(), &[Edit::new(old, new)], &Options::new())
        .unwrap()
        .edits[0]
        .tier
}

#[test]
fn seed_report_scenario_touches_only_the_target() {
    let original = "const label = \"a \u{2014} b\";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n";
    let got = edit1(original, "\u{a0}\u{a0}return 2;", "\u{a0}\u{a0}return 3;").unwrap();
    assert_eq!(got, original.replace("return 2;", "return 3;"));
    assert_eq!(
        strategy_of(original, "\u{a0}\u{a0}return 2;", "\u{a0}\u{a0}return 3;"),
        Tier::Unicode
    );
}

#[test]
fn exact_tier_ignores_line_endings_only() {
    assert_eq!(edit1("a\r\nb\r\nc\r\n", "a\nb\n", "a\nB\n").unwrap(), "a\r\nB\r\nc\r\n");
    assert_eq!(edit1("a\rb\rc\r", "b\nc", "x\ny\nz").unwrap(), "a\rx\ry\rz\r");
    assert_eq!(strategy_of("a\r\nb\r\n", "a\nb", "a\nc"), Tier::Exact);
}

#[test]
fn mixed_endings_stay_per_line() {
    let text = "one\r\ntwo\nthree\r\nfour\n";
    assert_eq!(
        edit1(text, "two\nthree\n", "two\n2.5\nthree\n").unwrap(),
        "one\r\ntwo\n2.5\nthree\r\nfour\n"
    );
}

#[test]
fn trailing_whitespace_tier() {
    let text = "line one   \nline two  \nline three\n";
    assert_eq!(
        edit1(text, "line one\nline two\n", "replaced\n").unwrap(),
        "replaced\nline three\n"
    );
    assert_eq!(
        strategy_of(text, "line one\nline two\n", "x\n"),
        Tier::TrailingWhitespace
    );
    // An unchanged line keeps its trailing blanks.
    assert_eq!(
        edit1(text, "line one\nline two", "line one\nline 2").unwrap(),
        "line one   \nline 2  \nline three\n"
    );
}

#[test]
fn unicode_tier_keeps_the_files_characters() {
    assert_eq!(
        edit1(
            "msg = \"a \u{2014} b\"; x = 1;   \n",
            "msg = \"a - b\"; x = 1;",
            "msg = \"a - b\"; x = 2;"
        )
        .unwrap(),
        "msg = \"a \u{2014} b\"; x = 2;   \n"
    );
    assert_eq!(
        edit1("range: 1\u{2013}5\n", "range: 1-5", "range: 10-50").unwrap(),
        "range: 10\u{2013}50\n"
    );
    assert_eq!(
        edit1("say(\u{201C}hi\u{201D});\n", "say(\"hi\");", "say(\"hello\");").unwrap(),
        "say(\u{201C}hello\u{201D});\n"
    );
    // NFKC: a full-width letter and a ligature in the file.
    assert_eq!(
        edit1("x = \u{FF21}1; e\u{FB01}x\n", "x = A1; efix", "x = A2; efix").unwrap(),
        "x = \u{FF21}2; e\u{FB01}x\n"
    );
}

#[test]
fn unicode_tier_reports_what_it_normalized() {
    let a = apply(
        "  return\u{a0}2;\n".as_bytes(),
        &[Edit::new("return 2;", "return 3;")],
        &Options::new(),
    )
    .unwrap();
    let d = &a.edits[0].differences;
    assert!(
        d.iter().any(|d| d.line == 1
            && matches!(&d.kind, DifferenceKind::Text { file, model, kept: true } if file == "\u{a0}" && model == " ")),
        "{d:?}"
    );
}

#[test]
fn rewritten_lines_take_new_text() {
    assert_eq!(
        edit1("a \u{2014} b\nkeep\n", "a - b\nkeep", "totally new content here\nkeep").unwrap(),
        "totally new content here\nkeep\n"
    );
}

#[test]
fn invisible_differences_never_disambiguate() {
    // Byte-exact match exists once, but a copy differing only by trailing blanks exists too.
    let err = edit1("x = 1;\nx = 1;  \n", "x = 1;", "x = 2;").unwrap_err();
    assert!(
        matches!(
            err,
            EditError::Ambiguous {
                tier: None,
                total: 2,
                ..
            }
        ),
        "{err:?}"
    );
    // Only a line ending differs.
    let err = edit1("x = 1;\r\nx = 1;\n", "x = 1;\n", "x = 2;\n").unwrap_err();
    assert!(matches!(err, EditError::Ambiguous { .. }));
    // Only a no-break space differs.
    let err = edit1("a b\na\u{a0}b\n", "a b", "c").unwrap_err();
    assert!(matches!(err, EditError::Ambiguous { .. }));
    assert!(
        err.to_string().contains("line 1") && err.to_string().contains("line 2"),
        "{err}"
    );
}

#[test]
fn visible_differences_do_disambiguate() {
    assert_eq!(
        edit1("s = \"a\";\ns = \u{201C}a\u{201D};\n", "s = \"a\";", "s = \"b\";").unwrap(),
        "s = \"b\";\ns = \u{201C}a\u{201D};\n"
    );
    assert_eq!(
        edit1("a - b\na \u{2014} b\n", "a - b", "c").unwrap(),
        "c\na \u{2014} b\n"
    );
}

#[test]
fn ambiguous_at_a_fuzzy_tier_lists_every_occurrence() {
    let err = edit1(
        "s = \u{201C}a\u{201D};\ns = \u{2018}a\u{2019};\nt\ns = \u{201E}a\u{201F};\n",
        "s = \"a\";",
        "x",
    )
    .unwrap_err();
    // Quotes of two kinds: the double-quoted ones match, the single-quoted one does not.
    match err {
        EditError::Ambiguous {
            tier: Some(Tier::Unicode),
            occurrences,
            total: 2,
            ..
        } => {
            assert_eq!(occurrences.iter().map(|o| o.0).collect::<Vec<_>>(), vec![1, 4]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn replace_all() {
    let edits = [Edit::new("foo", "bar").replace_all(true)];
    let a = apply(b"foo foo\nfoo\n", &edits, &Options::new()).unwrap();
    assert_eq!(a.text, b"bar bar\nbar\n");
    assert_eq!(a.edits[0].occurrences.len(), 3);
    // Occurrences that differ only invisibly are all replaced.
    let edits = [Edit::new("x = 1;", "x = 2;").replace_all(true)];
    let a = apply(b"x = 1;\nx = 1;  \n", &edits, &Options::new()).unwrap();
    assert_eq!(a.text, b"x = 2;\nx = 2;  \n");
    // Also when the exact tier finds only some of them (here the line break after trailing blanks):
    // the tier that finds them all places them.
    let edits = [Edit::new("x = 1;\ny = 2;", "x = 3;\ny = 2;").replace_all(true)];
    let a = apply(b"x = 1;\ny = 2;\nx = 1;  \ny = 2;\n", &edits, &Options::new()).unwrap();
    assert_eq!(a.text, b"x = 3;\ny = 2;\nx = 3;  \ny = 2;\n");
    assert_eq!(
        (a.edits[0].tier, a.edits[0].occurrences.len()),
        (Tier::TrailingWhitespace, 2)
    );
    // Overlapping candidates are taken left to right.
    let a = apply(b"aaa", &[Edit::new("aa", "b").replace_all(true)], &Options::new()).unwrap();
    assert_eq!(a.text, b"ba");
}

#[test]
fn errors() {
    assert!(matches!(
        edit1("abc", "", "x"),
        Err(EditError::EmptyOldText { index: 0 })
    ));
    let err = edit1(
        "fn main() {\n    let x = 1;\n}\n",
        "    let x = 2;\n",
        "    let x = 3;\n",
    )
    .unwrap_err();
    assert_eq!(err.code(), "not_found");
    assert!(err.to_string().contains("line"), "{err}");
    let err = edit1("abc\n", "abc", "abc").unwrap_err();
    assert!(matches!(err, EditError::NoChange { index: 0, line: 1 }));
    let edits = [Edit::new("abc", "x"), Edit::new("bcd", "y")];
    let err = apply(b"abcd\n", &edits, &Options::new()).unwrap_err();
    assert!(
        matches!(
            err,
            EditError::Overlap {
                first: 0,
                second: 1,
                line: 1
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.code(), "overlap");
}

#[test]
fn edits_match_the_original_not_each_other() {
    let edits = [Edit::new("a", "b"), Edit::new("b", "c")];
    let a = apply(b"a\nb\n", &edits, &Options::new()).unwrap();
    assert_eq!(a.text, b"b\nc\n");
}

#[test]
fn max_strategy_caps_the_tiers() {
    let opts = Options::new().loosest_tier(Tier::Exact);
    let err = apply("a\u{a0}b\n".as_bytes(), &[Edit::new("a b", "c")], &opts).unwrap_err();
    assert_eq!(err.code(), "not_found");
}

#[test]
fn invalid_utf8_is_carried_through() {
    let text = b"caf\xe9 = 1;\nname = \"x\";\n";
    assert_eq!(
        edit1_bytes(text, "name = \"x\";", "name = \"y\";").unwrap(),
        b"caf\xe9 = 1;\nname = \"y\";\n"
    );
    // An edit next to the invalid byte, oldText copied from lossy output.
    assert_eq!(
        edit1_bytes(text, "caf\u{FFFD} = 1;", "caf\u{FFFD} = 2;").unwrap(),
        b"caf\xe9 = 2;\nname = \"x\";\n"
    );
    // newText never fabricates U+FFFD in text it rewrites.
    let err = edit1_bytes(text, "caf\u{FFFD} = 1;", "completely \u{FFFD} different").unwrap_err();
    assert_eq!(err.code(), "invalid_input");
    // Nor on a line whose file bytes are oldText's own (written whole), nor on a line it adds (in a
    // file with UTF-8 text, which is not legacy 8-bit).
    let text = b"caf\xe9 = 1;\nname = \"\xc3\xa9\";\n";
    for (old, new) in [
        ("name = \"\u{e9}\";", "name = \"\u{FFFD}\";"),
        ("name = \"\u{e9}\";\n", "name = \"\u{e9}\";\nz = \"\u{FFFD}\";\n"),
    ] {
        let err = edit1_bytes(text, old, new).unwrap_err();
        assert!(
            matches!(err, EditError::FabricatedReplacementChar { index: 0, line: 2.. }),
            "{new:?}: {err:?}"
        );
    }
}

/// In a text that is valid UTF-8 a model was shown no U+FFFD for invalid bytes: one it writes is the
/// character itself, written as given whether the line is edited, rewritten or added.
#[test]
fn a_replacement_char_is_written_into_valid_utf8() {
    let text = b"a = 1;\nb = 2;\n";
    for (old, new, expected) in [
        ("a = 1;", "a = \"\u{FFFD}\";", "a = \"\u{FFFD}\";\nb = 2;\n"),
        (
            "b = 2;",
            "\u{FFFD} completely different",
            "a = 1;\n\u{FFFD} completely different\n",
        ),
        (
            "b = 2;\n",
            "b = 2;\nc = \"\u{FFFD}\";\n",
            "a = 1;\nb = 2;\nc = \"\u{FFFD}\";\n",
        ),
    ] {
        assert_eq!(edit1_bytes(text, old, new).unwrap(), expected.as_bytes(), "{new:?}");
    }
}

#[test]
fn legacy_8bit_files_refuse_non_ascii_insertions() {
    let latin1 = b"caf\xe9\nname\n";
    assert_eq!(edit1_bytes(latin1, "name", "nom").unwrap(), b"caf\xe9\nnom\n");
    let err = edit1_bytes(latin1, "name", "n\u{e9}e").unwrap_err();
    assert!(matches!(err, EditError::LegacyEncoding { .. }));
    // A UTF-8 file with one stray byte is not legacy.
    assert!(edit1_bytes(b"\xc3\xa9\xff\nname\n", "name", "n\u{e9}e").is_ok());
}

#[test]
fn final_newline_presence_is_kept() {
    assert_eq!(edit1("a\nb", "b", "c").unwrap(), "a\nc");
    assert_eq!(edit1("a\r\nb", "a\nb", "x\ny\nz").unwrap(), "x\r\ny\r\nz");
}

#[test]
fn line_numbers_are_reported() {
    let a = apply(b"l1\nl2\nl3\nl4\n", &[Edit::new("l3\n", "x\ny\n")], &Options::new()).unwrap();
    let o = &a.edits[0].occurrences[0];
    assert_eq!(o.old_lines, (3, 3));
    assert_eq!(o.new_lines, (3, 4));
}

#[test]
fn matches_inside_a_combined_character_are_refused() {
    // "fi" occurs only inside the ligature: no exact counterpart, so not found rather than widened.
    let err = edit1("e\u{FB01}x\n", "i", "j").unwrap_err();
    assert_eq!(err.code(), "not_found");
}

#[test]
fn identical_neighbour_lines_keep_their_terminators() {
    let file = b"\nkaz\rkaz\nkaz\nkaz\n";
    let a = apply(
        file,
        &[Edit::new("kaz\nkaz\nkaz\nkaz", "kaz\nkx = 1;z\nkaz\nkaz")],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&a.text), "\nkaz\rkx = 1;z\nkaz\nkaz\n");
}

#[test]
fn indentation_tier_reindents_in_the_files_style() {
    let file = "impl A {\r\n\tfn f(&self) {\r\n\t\tlet x = 1;\r\n\t\tx\r\n\t}\r\n}\r\n";
    let old = "fn f(&self) {\n    let x = 1;\n    x\n}";
    let new = "fn f(&self) {\n    let x = 1;\n    if x > 0 {\n        return x;\n    }\n    x\n}";
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Indentation);
    assert_eq!(
        String::from_utf8(a.text).unwrap(),
        "impl A {\r\n\tfn f(&self) {\r\n\t\tlet x = 1;\r\n\t\tif x > 0 {\r\n\t\t\treturn x;\r\n\t\t}\r\n\t\tx\r\n\t}\r\n}\r\n"
    );
    assert!(matches!(
        &a.edits[0].differences[0].kind,
        DifferenceKind::Forgiven(surgical_core::Forgiven::Reindented { tab_width: Some(_), .. })
    ));
}

#[test]
fn whitespace_runs_tier() {
    let file = "let  a   =  1;\n\n\nlet b = 2;\n";
    let a = apply(
        file.as_bytes(),
        &[Edit::new("let a = 1;\nlet b = 2;", "let a = 1;\nlet b = 3;")],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(a.edits[0].tier, Tier::WhitespaceRuns);
    assert_eq!(a.text, b"let  a   =  1;\n\n\nlet b = 3;\n");
}

#[test]
fn escapes_tier_unescapes_both_sides() {
    let file = "fn f() {\n    println!(\"hi\");\n}\n";
    let old = "fn f() {\\n    println!(\\\"hi\\\");\\n}";
    let new = "fn f() {\\n    println!(\\\"hello\\\");\\n}";
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Escapes);
    assert_eq!(a.text, b"fn f() {\n    println!(\"hello\");\n}\n");
    // The report says what was forgiven: escapes, the unescaped needle matching exactly.
    assert_eq!(
        a.edits[0].differences[0].kind,
        DifferenceKind::Forgiven(surgical_core::Forgiven::Escapes {
            tier: Tier::Exact,
            also: None
        })
    );
}

#[test]
fn an_over_escaped_needle_with_line_numbers_writes_new_text_without_them() {
    // Copied from a numbered read view and over-escaped: unescaped, the needle matches without its
    // line numbers, and newText loses the same prefixes (they were written into the file).
    let file = "fn f() {\n    println!(\"hi\");\n}\n";
    let old = "1 | fn f() {\\n2 |     println!(\\\"hi\\\");\\n3 | }";
    let new = "1 | fn f() {\\n2 |     println!(\\\"hello\\\");\\n3 | }";
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Escapes);
    assert_eq!(
        String::from_utf8(a.text).unwrap(),
        "fn f() {\n    println!(\"hello\");\n}\n"
    );
    assert_eq!(
        a.edits[0].differences[0].kind,
        DifferenceKind::Forgiven(surgical_core::Forgiven::Escapes {
            tier: Tier::Exact,
            also: Some(Box::new(surgical_core::Forgiven::LineNumbers { also: None }))
        })
    );
}

#[test]
fn similar_tier_is_opt_in() {
    let file = "fn main() {\n    let total = compute(items);\n    println!(\"{}\", total);\n}\n";
    // One word misremembered by one character is the default `typo` tier's.
    let old = "fn main() {\n    let total = compute(item);\n    println!(\"{}\", total);\n}\n";
    let new = "fn main() {\n    let total = compute(item);\n    println!(\"sum {}\", total);\n}\n";
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Typo);
    // A word paraphrased is `similar`'s, opt-in.
    let old = "fn main() {\n    let total = compute(all_items);\n    println!(\"{}\", total);\n}\n";
    let new = "fn main() {\n    let total = compute(all_items);\n    println!(\"sum {}\", total);\n}\n";
    let err = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap_err();
    assert_eq!(err.code(), "not_found");
    let opts = Options::new().loosest_tier(Tier::Similar);
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &opts).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Similar);
    assert_eq!(
        a.text,
        b"fn main() {\n    let total = compute(items);\n    println!(\"sum {}\", total);\n}\n"
    );
}

#[test]
fn loose_tiers_refuse_ambiguity() {
    let file = "\tif x {\n\t\ty();\n\t}\n\tif x {\n\t\ty();\n\t}\n";
    let err = apply(
        file.as_bytes(),
        &[Edit::new("if x {\n    y();\n}", "z")],
        &Options::new(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            EditError::Ambiguous {
                tier: Some(Tier::Indentation),
                total: 2,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn scope_narrows_where_edits_may_land() {
    // Whole lines: `bar` inside `foo bar` no longer competes with the line `bar`.
    let text = b"foo bar\nbar\n";
    let err = apply(text, &[Edit::new("bar", "baz")], &Options::new()).unwrap_err();
    assert_eq!(err.code(), "ambiguous");
    let a = apply(text, &[Edit::new("bar", "baz")], &Options::new().whole_lines(true)).unwrap();
    assert_eq!(a.text, b"foo bar\nbaz\n");
    let a = apply(text, &[Edit::new("bar\n", "baz\n")], &Options::new().whole_lines(true)).unwrap();
    assert_eq!(a.text, b"foo bar\nbaz\n");
    // Within a range: the second of two identical lines.
    let text = b"x = 1;\r\nx = 1;\r\n";
    let a = apply(text, &[Edit::new("x = 1;", "x = 2;")], &Options::new().within(8..16)).unwrap();
    assert_eq!(a.text, b"x = 1;\r\nx = 2;\r\n");
    let err = apply(text, &[Edit::new("x = 1;", "x = 2;")], &Options::new().within(9..16)).unwrap_err();
    assert_eq!(err.code(), "not_found");
    // The line-based tiers respect the range too.
    let text = b"\tif a {\n\t\tb();\n\t}\n\tif a {\n\t\tb();\n\t}\n";
    let a = apply(
        text,
        &[Edit::new("if a {\n    b();\n}", "if a {\n    c();\n}")],
        &Options::new().within(18..36),
    )
    .unwrap();
    assert_eq!(a.edits[0].tier, Tier::Indentation);
    assert_eq!(a.text, b"\tif a {\n\t\tb();\n\t}\n\tif a {\n\t\tc();\n\t}\n");
    // Blanks that end the matched line are taken in as without a range (here the line rewritten,
    // so they go with it), when the range holds them, and left where they are when it does not.
    let text = b"a\nfoo  \nb\n";
    let edit = [Edit::new("foo", "bar")];
    let whole = apply(text, &edit, &Options::new()).unwrap();
    assert_eq!(
        apply(text, &edit, &Options::new().within(0..text.len())).unwrap().text,
        whole.text
    );
    assert_eq!(
        apply(text, &edit, &Options::new().within(2..7)).unwrap().text,
        whole.text
    );
    assert_eq!(whole.text, b"a\nbar\nb\n", "{:?}", String::from_utf8_lossy(&whole.text));
    assert_eq!(
        apply(text, &edit, &Options::new().within(2..6)).unwrap().text,
        b"a\nbar  \nb\n"
    );
}

#[test]
fn a_match_ending_in_a_line_break_never_swallows_a_blank_line_after_it() {
    // Found by the patch formats' property tests: the tab-only line 2 must survive.
    let a = apply(b"foo  \n\t\nbar\n", &[Edit::new("foo\n", "FOO\n")], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::TrailingWhitespace);
    assert_eq!(a.text, b"FOO\n\t\nbar\n");
    let a = apply(
        "x \u{a0}\n \nz\n".as_bytes(),
        &[Edit::new("x\n", "y\n")],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(a.text, b"y\n \nz\n");
}

/// The `trailing_whitespace` tier is skipped when a line of the needle is nowhere in the text
/// (`absent_under_trailing`): a needle whose lines are all in the text, mid-line first line and
/// CRLF file included, is still found there, and one whose only line holds U+FFFD still matches
/// invalid bytes.
#[test]
fn trailing_tier_finds_what_its_lines_promise() {
    let text = "fn a() {  \r\n    let x = 1;\t\r\n}\r\n";
    assert_eq!(
        strategy_of(text, "a() {\n    let x = 1;\n}", "b() {\n    let x = 2;\n}"),
        Tier::TrailingWhitespace
    );
    assert_eq!(
        edit1(text, "a() {\n    let x = 1;\n}", "b() {\n    let x = 2;\n}").unwrap(),
        "fn b() {  \r\n    let x = 2;\t\r\n}\r\n"
    );
    let invalid = b"x\xffy  \nz\n";
    let applied = apply(invalid, &[Edit::new("x\u{FFFD}y\n", "x\u{FFFD}y\n")], &Options::new());
    let exact_fold = apply(
        b"x\xffy\nz\n",
        &[Edit::new("x\u{FFFD}y\n", "x\u{FFFD}y\n")],
        &Options::new(),
    );
    assert_eq!(applied.is_ok(), exact_fold.is_ok());
    if let Ok(a) = applied {
        assert_eq!(a.edits[0].tier, Tier::TrailingWhitespace);
    }
    // A needle line the text lacks: found by a looser tier, not this one.
    assert_eq!(
        strategy_of("let s = \u{201C}a\u{201D};  \n", "let s = \"a\";", "let s = \"b\";"),
        Tier::Unicode
    );
}

/// oldText and newText both end with the same begun line of blanks after their last line break; the
/// file has an empty line there. A trimming tier matches those blanks to nothing, so the span ends at
/// the start of the empty line, one line short of oldText, and alignment once gave up on it and wrote
/// newText as given: the blanks onto the empty line, and the model's quotes over the file's.
#[test]
fn a_blank_last_line_the_model_kept_is_not_written() {
    let file = "let\n\n1;\n\nz\n";
    assert_eq!(edit1(file, "1;\n ", "2;\n ").unwrap(), "let\n\n2;\n\nz\n");
    let a = apply(file.as_bytes(), &[Edit::new("1;\n ", "2;\n ")], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::TrailingWhitespace);
    // What differed is said: the model's blank against the file's empty line, kept.
    assert!(a.edits[0].differences.iter().any(|d| d.line == 4
        && d.kind
            == DifferenceKind::TrailingWhitespace {
                file: String::new(),
                model: " ".into(),
                kept: true
            }));
    // Tabs, special spaces, several blanks.
    for tail in ["\t", "\u{a0}", "  \t", "\u{3000}"] {
        let (old, new) = (format!("1;\n{tail}"), format!("2;\n{tail}"));
        assert_eq!(edit1(file, &old, &new).unwrap(), "let\n\n2;\n\nz\n", "{tail:?}");
    }
    // CRLF, lone CR: the file's terminators stay.
    assert_eq!(
        edit1("let\r\n\r\n1;\r\n\r\nz\r\n", "1;\n ", "2;\n ").unwrap(),
        "let\r\n\r\n2;\r\n\r\nz\r\n"
    );
    assert_eq!(edit1("let\r\r1;\r\rz\r", "1;\n ", "2;\n ").unwrap(), "let\r\r2;\r\rz\r");
    // A line that holds other blanks, or text after them, keeps them (a space was written before them).
    assert_eq!(
        edit1("let\n\n1;\n\t\nz\n", "1;\n ", "2;\n ").unwrap(),
        "let\n\n2;\n\t\nz\n"
    );
    assert_eq!(edit1("1;\n\tz\n", "1;\n ", "2;\n ").unwrap(), "2;\n\tz\n");
    // Where the file has the blanks (the next line's indentation), they stay as they are.
    assert_eq!(edit1("1;\n    z\n", "1;\n ", "2;\n ").unwrap(), "2;\n    z\n");
    // The rest of the span keeps the file's characters (quotes, a no-break space).
    assert_eq!(
        edit1("let\n\n\u{201c}1\u{201d};\n\nz\n", "\"1\";\n ", "\"2\";\n ").unwrap(),
        "let\n\n\u{201c}2\u{201d};\n\nz\n"
    );
    assert_eq!(
        edit1("let\n\n1;\u{a0}\n\nz\n", "1; \n ", "2; \n ").unwrap(),
        "let\n\n2;\u{a0}\n\nz\n"
    );
    // Several blank lines, the last begun.
    assert_eq!(
        edit1("let\n\n1;\n\n\nz\n", "1;\n \n ", "2;\n \n ").unwrap(),
        "let\n\n2;\n\n\nz\n"
    );
    // Every occurrence.
    let all = apply(
        b"x\n1;\n\n1;\n\n",
        &[Edit::new("1;\n ", "2;\n ").replace_all(true)],
        &Options::new(),
    );
    assert_eq!(all.unwrap().text, b"x\n2;\n\n2;\n\n");
    // An elided needle's last piece.
    assert_eq!(
        edit1("a1;\nb;\nc;\nd1;\n\nz\n", "a1;\n// ...\nd1;\n ", "a1;\n// ...\nd2;\n ").unwrap(),
        "a1;\nb;\nc;\nd2;\n\nz\n"
    );
    // Nothing changed is no change, not a blank written.
    assert!(matches!(
        apply(file.as_bytes(), &[Edit::new("1;\n ", "1;\n ")], &Options::new()),
        Err(EditError::NoChange { .. })
    ));
    // The model deleted its blank line: nothing of the file's is deleted for it.
    assert_eq!(edit1(file, "1;\n ", "2;\n").unwrap(), "let\n\n2;\n\nz\n");
    assert_eq!(edit1(file, "1;\n ", "").unwrap(), "let\n\n\nz\n");
    // The model wrote on that line: what it wrote is written there.
    assert_eq!(edit1(file, "1;\n ", "2;\n  x").unwrap(), "let\n\n2;\n  x\nz\n");
    // At the end of a file: with a final line break, and without one (whole lines, where the
    // needle's line break stands for the end).
    assert_eq!(edit1("x\n1;\n", "1;\n ", "2;\n ").unwrap(), "x\n2;\n");
    let whole = Options::new().whole_lines(true);
    for (new, after) in [("2;\n ", "x\n2;"), ("2;\n", "x\n2;"), ("2;\n  x", "x\n2;\n  x")] {
        let a = apply(b"x\n1;", &[Edit::new("1;\n ", new)], &whole).unwrap();
        assert_eq!(String::from_utf8(a.text).unwrap(), after, "{new:?}");
    }
}

/// The same class at the first line: oldText and newText both start with the same blanks before
/// their first line break, matched to an empty (or other blank) line.
#[test]
fn a_blank_first_line_the_model_kept_is_not_written() {
    assert_eq!(edit1("let\n\n1;\n", " \n1;", " \n2;").unwrap(), "let\n\n2;\n");
    assert_eq!(edit1("let\n  \n1;\n", "\t\n1;", "\t\n2;").unwrap(), "let\n  \n2;\n");
    assert_eq!(
        edit1("let\r\n\r\n1;\r\n", "\u{a0}\n1;", "\u{a0}\n2;").unwrap(),
        "let\r\n\r\n2;\r\n"
    );
}

/// A line-based tier's match whose last line is the file's unterminated last line: the needle's final
/// line break stood for the end of the file, as under whole lines in the text tiers. An unchanged
/// line break is not written (it once was, a final line break the model never asked for).
#[test]
fn a_loose_match_of_an_unterminated_last_line_writes_no_line_break() {
    let cases = [
        (
            "{\n    a(x,y);\n    c;",
            "a( x, y );\nc;\n",
            "a( x, z );\nc;\n",
            "{\n    a(x,z);\n    c;",
        ),
        ("{\r\n    a;\r\n    c;", "a;\nc;\n", "a;\nd;\n", "{\r\n    a;\r\n    d;"),
        (
            "{\n    a;   \n    c;  ",
            "  a;\n  c;\n",
            "  a;\n  d;\n",
            "{\n    a;   \n    d;  ",
        ),
        ("x\n  a", "a\n", "b\n", "x\n  b"),
        // The model wrote a line after it: the line break is then its own.
        ("x\n  a", "a\n", "a\nb\n", "x\n  a\n  b"),
    ];
    for (file, old, new, after) in cases {
        let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
        assert!(a.edits[0].tier > Tier::Unicode, "{file:?}: {:?}", a.edits[0].tier);
        assert_eq!(String::from_utf8(a.text).unwrap(), after, "{file:?}");
    }
}

/// A needle that differs from the file only in blanks ending its lines is found by
/// `trailing_whitespace` itself (the pass that rules that tier out before building its view must
/// never rule out a real match): with the line found at a place the exact pass already knows, and
/// with a line holding U+FFFD where the file has an invalid byte.
#[test]
fn trailing_whitespace_finds_what_only_it_can() {
    let text = b"fn main() {\n    foo_bar();  \n}\n";
    let a = apply(
        text,
        &[Edit::new("    foo_bar();\n}", "    baz();\n}")],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(a.edits[0].tier, Tier::TrailingWhitespace);
    assert_eq!(a.text, b"fn main() {\n    baz();  \n}\n");
    let text = b"x\na\xff  \nb\n";
    let a = apply(text, &[Edit::new("a\u{FFFD}\nb", "a\u{FFFD}\nc")], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::TrailingWhitespace);
    assert_eq!(a.text, b"x\na\xff  \nc\n");
}
