//! Issue 10's engine classes, each pinned by the input that exposed it.

use surgical_core::{apply, Edit, EditError, Options, Tier};

fn edit(text: &str, old: &str, new: &str) -> Result<String, EditError> {
    edit_up_to(text, old, new, Tier::Escapes)
}

fn edit_up_to(text: &str, old: &str, new: &str, loosest: Tier) -> Result<String, EditError> {
    apply(
        text.as_bytes(),
        &[Edit::new(old, new)],
        &Options::new().loosest_tier(loosest),
    )
    .map(|a| String::from_utf8(a.text).unwrap())
}

fn tier_of(text: &str, old: &str, new: &str) -> Tier {
    apply(
        text.as_bytes(),
        &[Edit::new(old, new)],
        &Options::new().loosest_tier(Tier::Similar),
    )
    .unwrap()
    .edits[0]
        .tier
}

#[test]
fn escapes_unescape_dollar_and_backtick() {
    let file = "echo \"$HOME\"\nconst s = `${a}`;\n";
    let old = "echo \\\"\\$HOME\\\"\\nconst s = \\`${a}\\`;";
    let new = "echo \\\"\\$USER\\\"\\nconst s = \\`${b}\\`;";
    assert_eq!(edit(file, old, new).unwrap(), "echo \"$USER\"\nconst s = `${b}`;\n");
    assert_eq!(tier_of(file, old, new), Tier::Escapes);
}

/// Each escape the tier undoes, alone in its needle: `\t`, `\r` (a line break, like `\n`: the file's
/// own terminators are kept), `\'` and `\\`.
#[test]
fn escapes_unescape_tab_return_quote_and_backslash() {
    let cases = [
        ("a\tb = 1;\n", "a\\tb = 1;", "a\\tb = 2;", "a\tb = 2;\n"),
        (
            "one();\r\ntwo();\r\n",
            "one();\\rtwo();",
            "one();\\rthree();",
            "one();\r\nthree();\r\n",
        ),
        (
            "one();\ntwo();\n",
            "one();\\rtwo();",
            "one();\\rthree();",
            "one();\nthree();\n",
        ),
        ("say('hi');\n", "say(\\'hi\\');", "say(\\'bye\\');", "say('bye');\n"),
        (
            "p = \"C:\\\\dir\";\n",
            "p = \"C:\\\\\\\\dir\";",
            "p = \"D:\\\\\\\\dir\";",
            "p = \"D:\\\\dir\";\n",
        ),
    ];
    for (file, old, new, expected) in cases {
        assert_eq!(edit(file, old, new).unwrap(), expected, "{old:?}");
        assert_eq!(tier_of(file, old, new), Tier::Escapes, "{old:?}");
    }
}

#[test]
fn omission_placeholders_are_refused() {
    let file = "fn a() {\n    one();\n    two();\n    three();\n}\n";
    for new in [
        "fn a() {\n    one();\n    // ... existing code ...\n}\n",
        "fn a() {\n    one();\n    ...\n}\n",
        "fn a() {\n    # ... rest of the file ...\n}\n",
        "fn a() {\n    (rest of methods ...)\n}\n",
    ] {
        let err = edit(file, file, new).unwrap_err();
        assert!(matches!(err, EditError::Placeholder { index: 0, .. }), "{new}: {err:?}");
        assert_eq!(err.code(), "placeholder");
    }
    // The marker kept in oldText is the file's text; spread syntax is code.
    let file = "a();\n// ... existing code ...\nb();\n";
    assert_eq!(
        edit(file, "a();\n// ... existing code ...", "z();\n// ... existing code ...").unwrap(),
        "z();\n// ... existing code ...\nb();\n"
    );
    assert_eq!(edit("f(a);\n", "f(a);", "f(...args);").unwrap(), "f(...args);\n");
}

#[test]
fn whitespace_runs_transport_writes_no_bytes_neither_had() {
    // A word inserted beside a character lands there, not after the file's run of spaces.
    assert_eq!(
        edit("let a    = 1;\n", "let a = 1;", "let ab = 1;").unwrap(),
        "let ab    = 1;\n"
    );
    // A run the model shortened goes whole; one it lengthened is the model's.
    assert_eq!(edit("foo(a,    b)\n", "foo(a, b)", "foo(a,b)").unwrap(), "foo(a,b)\n");
    assert_eq!(edit("a    b\n", "a b", "a  b").unwrap(), "a  b\n");
    // A line the model rewrote, or added, takes the file's indentation.
    let file = "    let  a =  1;\n    b  = 2;\n";
    assert_eq!(
        edit(file, "let a = 1;\nb = 2;", "let a = 1;\ncompletely different();").unwrap(),
        "    let  a =  1;\n    completely different();\n"
    );
    assert_eq!(
        edit(file, "let a = 1;\nb = 2;", "let a = 1;\nb = 2;\nc = 3;").unwrap(),
        "    let  a =  1;\n    b  = 2;\n    c = 3;\n"
    );
    assert_eq!(
        tier_of(file, "let a = 1;\nb = 2;", "let a = 1;\nb = 3;"),
        Tier::WhitespaceRuns
    );
}

#[test]
fn spacing_left_out_beside_punctuation_is_forgiven() {
    assert_eq!(edit("f( a, b );\n", "f(a, b);", "f(a, c);").unwrap(), "f( a, c );\n");
    assert_eq!(
        edit("x = [1,2];\n", "x = [1, 2];", "x = [1, 3];").unwrap(),
        "x = [1,3];\n"
    );
    assert_eq!(tier_of("f( a, b );\n", "f(a, b);", "f(a, c);"), Tier::WhitespaceRuns);
    // Between two words the space is visible: `foobar` is not `foo bar`.
    assert_eq!(edit("foo bar\n", "foobar", "foobaz").unwrap_err().code(), "not_found");
}

#[test]
fn trailing_blanks_at_the_end_of_a_match_are_never_doubled_or_moved() {
    // newText's own blanks replace the file's.
    assert_eq!(edit("foo  \nbar\n", "foo", "baz  ").unwrap(), "baz  \nbar\n");
    // A line the model edited keeps them; a line it rewrote takes them away with it.
    assert_eq!(edit("foo  \nbar\n", "foo", "fooo").unwrap(), "fooo  \nbar\n");
    assert_eq!(edit("foo  \nbar\n", "foo", "x\ny").unwrap(), "x\ny\nbar\n");
    // Under trailing_whitespace too.
    assert_eq!(edit("a \t\nb  \nc\n", "a\nb", "a\nB  ").unwrap(), "a \t\nB  \nc\n");
    // Mid-line matches are untouched by this.
    assert_eq!(edit("foo  bar\n", "foo", "baz  ").unwrap(), "baz    bar\n");
    // Every occurrence of a replaceAll decides about its own line's blanks, not only the last one.
    let all = |new: &str| {
        let edits = [Edit::new("foo", new).replace_all(true)];
        let a = apply(b"foo  \nfoo \t\nfoo\n", &edits, &Options::new()).unwrap();
        String::from_utf8(a.text).unwrap()
    };
    assert_eq!(all("x\ny"), "x\ny\nx\ny\nx\ny\n");
    assert_eq!(all("fooo"), "fooo  \nfooo \t\nfooo\n");
}

#[test]
fn a_block_written_less_indented_is_rebased_whole() {
    // Matched by whitespace_runs (spacing differs inside a line): the new body and closing brace keep
    // their indentation relative to the block, shifted into the file's.
    let file = "impl A {\n    fn f() {\n        let  x = 1;\n    }\n}\n";
    let old = "fn f() {\n    let x = 1;\n}";
    let new = "fn f() {\n    let x = 1;\n    if x {\n        y();\n    }\n}";
    assert_eq!(
        edit(file, old, new).unwrap(),
        "impl A {\n    fn f() {\n        let  x = 1;\n        if x {\n            y();\n        }\n    }\n}\n"
    );
    // oldText copied without its first line's indentation (the rest as the file has it), newText
    // written consistently from column 0: re-based whole, not replayed line by line.
    assert_eq!(
        edit(
            "\n  function oldFunc() {\n    // some code\n  }",
            "function  oldFunc() {\n    // some code\n  }",
            "function newFunc() {\n  // new code\n}"
        )
        .unwrap(),
        "\n  function newFunc() {\n    // new code\n  }"
    );
    // In a tab-indented file, in tabs.
    let file = "impl A {\n\tfn f() {\n\t\tlet  x = 1;\n\t}\n}\n";
    assert_eq!(
        edit(file, old, new).unwrap(),
        "impl A {\n\tfn f() {\n\t\tlet  x = 1;\n\t\tif x {\n\t\t\ty();\n\t\t}\n\t}\n}\n"
    );
}

#[test]
fn similar_writes_only_what_the_model_changed() {
    let file = "first line = 1;\nlet total = compute(items, x);\nsecond line = 2;\n";
    let similar = |old: &str, new: &str| edit_up_to(file, old, new, Tier::Similar);
    // A duplicated comma the model misremembered is not written; its change is.
    assert_eq!(
        similar(
            "first line = 1;\nlet total = compute(items,, x);\nsecond line = 2;",
            "first line = 1;\nlet total = compute(items,, y);\nsecond line = 2;"
        )
        .unwrap(),
        "first line = 1;\nlet total = compute(items, y);\nsecond line = 2;\n"
    );
    // A change on the very characters it misremembered: refused, naming the line.
    let err = similar(
        "first line = 1;\nlet total = compute(itemz, x);\nsecond line = 2;",
        "first line = 1;\nlet total = compute(itemq, x);\nsecond line = 2;",
    )
    .unwrap_err();
    assert_eq!(
        err,
        EditError::Conflict {
            index: 0,
            line: 2,
            file: "let total = compute(items, x);".into(),
            expected: "let total = compute(itemz, x);".into(),
        }
    );
    assert_eq!(err.code(), "conflict");
    // A misremembered line rewritten wholesale: refused too; deleted as well (the line that differs
    // may be another writer's newer change, which the model never saw: issue 11).
    assert_eq!(
        similar(
            "first line = 1;\nlet total = compute(itemz, x);\nsecond line = 2;",
            "first line = 1;\nreturn;\nsecond line = 2;"
        )
        .unwrap_err()
        .code(),
        "conflict"
    );
    assert_eq!(
        similar(
            "first line = 1;\nlet total = compute(itemz, x);\nsecond line = 2;",
            "first line = 1;\nsecond line = 2;"
        )
        .unwrap_err()
        .code(),
        "conflict"
    );
}

#[test]
fn line_numbers_copied_from_a_read_view_are_left_out() {
    let file = "fn a() {\n    one();\n    two();\n}\n";
    for (old, new) in [
        ("2 |     one();\n3 |     two();", "2 |     one();\n3 |     three();"),
        (
            "     2→    one();\n     3→    two();",
            "     2→    one();\n    three();",
        ),
        ("2\t    one();\n3\t    two();", "2\t    one();\n3\t    three();"),
    ] {
        let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
        assert_eq!(
            String::from_utf8(a.text).unwrap(),
            "fn a() {\n    one();\n    three();\n}\n",
            "{old}"
        );
        assert!(
            matches!(
                &a.edits[0].differences[0].kind,
                surgical_core::DifferenceKind::Forgiven(surgical_core::Forgiven::LineNumbers { .. })
            ),
            "{:?}",
            a.edits[0].differences
        );
    }
    // A file that holds numbered lines is matched as it is, numbers and all.
    let file = "1 | a\n2 | b\n";
    assert_eq!(edit(file, "1 | a\n2 | b", "1 | a\n2 | c").unwrap(), "1 | a\n2 | c\n");
    // Lines not all numbered, or out of order: not a read view.
    let file = "one\ntwo\n";
    assert_eq!(edit(file, "1 | one\ntwo", "x").unwrap_err().code(), "not_found");
    assert_eq!(edit(file, "1 | one\n3 | two", "x").unwrap_err().code(), "not_found");
}

/// A misremembered line the model deletes is refused at either end of the region too (where a
/// region cut inside a line would be let through: its part of the line matched byte for byte).
#[test]
fn a_misremembered_first_or_last_line_deleted_is_refused() {
    let file = "let total = compute(items, x);\nfirst line = 1;\nsecond line = 2;\nlet other = compute(items, y);\n";
    let similar = |old: &str, new: &str| edit_up_to(file, old, new, Tier::Similar);
    let kept = "first line = 1;\nsecond line = 2;";
    for old in [
        format!("let total = compute(itemz, x);\n{kept}"),
        format!("{kept}\nlet other = compute(itemz, y);"),
    ] {
        assert_eq!(similar(&old, kept).unwrap_err().code(), "conflict", "{old}");
    }
    // Kept, the misremembered line stays the file's.
    let old = format!("let total = compute(itemz, x);\n{kept}");
    assert_eq!(
        similar(
            &old,
            "let total = compute(itemz, x);\nfirst line = 10;\nsecond line = 2;"
        )
        .unwrap(),
        "let total = compute(items, x);\nfirst line = 10;\nsecond line = 2;\nlet other = compute(items, y);\n"
    );
}

/// `indentation` from mid-line takes a needle of two lines or more whose first and last lines hold
/// text: a single line found only inside a file line that also starts with it, or a needle ending
/// with a line of blanks (where newText's blanks would go onto the next line's indentation), is
/// not placed there; the same needle without the blank line is.
#[test]
fn a_copy_from_mid_line_needs_two_lines_with_text_at_both_ends() {
    let text = "a\nx = x\nlet v = call(foo,\n    bar);\nnext();\n";
    for (old, new) in [("  x  ", "  y  "), ("foo,\n  bar);\n  ", "foo,\n  baz);\n  ")] {
        assert_eq!(edit(text, old, new).unwrap_err().code(), "not_found", "{old:?}");
    }
    assert_eq!(
        edit(text, "foo,\n  bar);", "foo,\n  baz);").unwrap(),
        "a\nx = x\nlet v = call(foo,\n    baz);\nnext();\n"
    );
    // Stopped inside the last line: there, and never where the needle has a line break of its own.
    let text = "let v = call(foo,\n    bar); more();\nnext();\n";
    assert_eq!(
        edit(text, "foo,\n  bar);", "foo,\n  baz);").unwrap(),
        "let v = call(foo,\n    baz); more();\nnext();\n"
    );
    assert_eq!(
        edit(text, "foo,\n  bar);\n", "foo,\n  baz);\n").unwrap_err().code(),
        "not_found"
    );
}
