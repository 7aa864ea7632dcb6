//! Issue 28 (round 3), at the engine: each class of wrong result found on fresh data, reduced to our
//! own text and named after its class (the tool-level tests are `surgical-tool/tests/round3.rs`).

use surgical_core::{apply, Edit, EditError, Options, Tier};

/// The file after one edit, and the tier that placed it.
fn edit(text: &str, old: &str, new: &str) -> Result<(String, Tier), EditError> {
    let a = apply(text.as_bytes(), &[Edit::new(old, new)], &Options::new())?;
    Ok((String::from_utf8(a.text).unwrap(), a.edits[0].tier))
}

fn placed(text: &str, old: &str, new: &str) -> String {
    match edit(text, old, new) {
        Ok((out, _)) => out,
        Err(e) => panic!("{old:?} -> {new:?}: {e:?}"),
    }
}

const TWO_FUNCTIONS: &str = "fn a() {\n    let total = compute(x);\n    log(total);\n}\n\nfn b() {\n    other();\n}\n";

/// Class 1: an edge line one word from the file's line just outside the region is that line (the
/// needle running one line further), never a line the model invented: the model's change beside it
/// lands on the right side of the file's line, and the file's line is kept.
#[test]
fn an_edge_line_one_word_off_is_the_files_line() {
    // The last line renamed (`sum` for `total`): not a typo, one word.
    let (out, tier) = edit(
        TWO_FUNCTIONS,
        "fn a() {\n    let total = compute(x);\n    log(sum);\n",
        "fn a() {\n    let total = compute(x);\n    log(sum);\n    extra();\n",
    )
    .unwrap();
    assert_eq!(
        out,
        TWO_FUNCTIONS.replace("log(total);\n", "log(total);\n    extra();\n")
    );
    assert_eq!(tier, Tier::Typo);
    // The first line.
    assert_eq!(
        placed(
            TWO_FUNCTIONS,
            "fn alpha() {\n    let total = compute(x);\n    log(total);\n",
            "// note\nfn alpha() {\n    let total = compute(x);\n    log(total);\n",
        ),
        format!("// note\n{TWO_FUNCTIONS}")
    );
    // A change to the renamed word itself: what to write there is unclear.
    assert!(matches!(
        edit(
            TWO_FUNCTIONS,
            "fn a() {\n    let total = compute(x);\n    log(sum);\n",
            "fn a() {\n    let total = compute(x);\n    log(sum2);\n",
        ),
        Err(EditError::Conflict { .. })
    ));
    // A renamed line in the middle is no misremembered line: refused, as before.
    assert!(edit(
        TWO_FUNCTIONS,
        "fn a() {\n    let sum = compute(x);\n    log(total);\n}\n",
        "fn a() {\n    let sum = compute(x);\n    log(total);\n    extra();\n}\n",
    )
    .is_err());
}

/// Class 1, the `typo` counterpart: where the region's one misremembered word is taken already, an
/// edge line one word from the file's line outside the region is still not read as an extra line
/// (which would put the change beside it on the wrong side): refused.
#[test]
fn an_edge_line_one_word_off_is_never_extra_when_the_word_is_taken() {
    let file = "fn load() {\n    let rows = read_rows(path);\n    let count = rows.len();\n    report(count);\n}\n";
    // `read_rowz` is the typo; `report(total)` one word from `report(count)`.
    let old = "    let rows = read_rowz(path);\n    let count = rows.len();\n    report(total);\n";
    let new = "    let rows = read_rowz(path);\n    let count = rows.len();\n    report(total);\n    done();\n";
    match edit(file, old, new) {
        Ok((out, _)) => assert_eq!(out, file.replace("report(count);\n", "report(count);\n    done();\n")),
        Err(e) => assert!(matches!(e, EditError::NotFound { .. }), "{e:?}"),
    }
    // The same with the edge line mistyped (one character): the file's line, on either side.
    let old = "    let rows = read_rowz(path);\n    let count = rows.len();\n    reprot(count);\n";
    let new = "    let rows = read_rowz(path);\n    let count = rows.len();\n    reprot(count);\n    done();\n";
    match edit(file, old, new) {
        Ok((out, _)) => assert_eq!(out, file.replace("report(count);\n", "report(count);\n    done();\n")),
        Err(e) => assert!(matches!(e, EditError::NotFound { .. }), "{e:?}"),
    }
    let old = "    let rows = read_rows(path);\n    let count = rows.len();\n    reprot(count);\n";
    let new = "    let rows = read_rows(path);\n    let count = rows.len();\n    reprot(count);\n    done();\n";
    assert_eq!(
        placed(file, old, new),
        file.replace("report(count);\n", "report(count);\n    done();\n")
    );
}

/// Class 2: trailing whitespace the model wrote replaces the file's, never adds to it. oldText
/// starts with an empty line (a read view shows the file's blank line without its blanks), so the
/// match starts after the file's blanks; the model's first line decides about them.
#[test]
fn a_needle_starting_with_an_empty_line_takes_the_blanks_before_it() {
    let crlf = |s: &str| s.replace('\n', "\r\n");
    assert_eq!(
        placed(&crlf("y\n    \nx\n"), "\nx\n", "    \nz\n"),
        crlf("y\n    \nz\n")
    );
    assert_eq!(placed("  \nx\n", "\nx\n", "\t\nz\n"), "\t\nz\n");
    // Kept as the model kept it.
    assert_eq!(placed("y\n    \nx\n", "\nx\n", "\nz\n"), "y\n    \nz\n");
    // After a line's text: its trailing blanks are the model's to keep or replace, not to double.
    assert_eq!(placed("a = 1;  \nx\n", "\nx\n", "\ny\n"), "a = 1;  \ny\n");
    assert_eq!(placed("a = 1;  \nx\n", "\nx\n", " \ny\n"), "a = 1; \ny\n");
}

/// Class 5: spaces the model left out inside brackets (`( a, b )` for its `(a, b)`): placed, the
/// file's padding kept against the bracket, before or after what the model adds there.
#[test]
fn padding_inside_brackets_stays_against_the_brackets() {
    for (file, old, new, want) in [
        ("call( a, b )\n", "call(a, b)\n", "call(a, b, c)\n", "call( a, b, c )\n"),
        ("call( a, b )\n", "call(a, b)\n", "call(z, a, b)\n", "call( z, a, b )\n"),
        ("x = [ 1, 2 ]\n", "x = [1, 2]\n", "x = [1, 2, 3]\n", "x = [ 1, 2, 3 ]\n"),
        (
            "if ( ok ) {\n",
            "if (ok) {\n",
            "if (ok && ready) {\n",
            "if ( ok && ready ) {\n",
        ),
        // Deleting the last argument keeps the padding too.
        ("call( a, b )\n", "call(a, b)\n", "call(a)\n", "call( a )\n"),
        // Not a bracket: the file's blanks stay with the unit before them.
        ("x = a ;\n", "x = a;\n", "x = a.b;\n", "x = a.b ;\n"),
    ] {
        assert_eq!(placed(file, old, new), want, "{file:?} -> {new:?}");
    }
}

/// The indentation class: a shifted copy keeps the characters the model wrote. With one prefix
/// added to (or removed from) every copied line, the new lines lose (or gain) that prefix as text;
/// the rest of their indentation is the model's own, in a file that mixes tabs and spaces too.
#[test]
fn a_shifted_copy_keeps_the_models_own_indentation() {
    // Four spaces added to every line of a Go file indented with tabs.
    let file = "package a\n\nimport \"os\"\n\nfunc f() {\n\tg()\n}\n";
    assert_eq!(
        placed(
            file,
            "    package a\n\n    import \"os\"\n",
            "    package a\n\n    import (\n    \t\"io\"\n    \t\"os\"\n    )\n",
        ),
        "package a\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\nfunc f() {\n\tg()\n}\n"
    );
    // A file mixing both: the model adds a space-indented line among tab-indented ones, all shifted
    // by four spaces: its spaces stay spaces.
    let file = "class A\n{\n\tvoid F()\n\t{\n\t\tG();\n\t}\n}\n";
    assert_eq!(
        placed(
            file,
            "    \tvoid F()\n    \t{\n    \t\tG();\n",
            "    \tvoid F()\n    \t{\n    \t\tG();\n            H();\n",
        ),
        "class A\n{\n\tvoid F()\n\t{\n\t\tG();\n        H();\n\t}\n}\n"
    );
    // The common indentation left out: put back as the file writes it, before the model's own.
    let file = "\t\tif (x)\n\t\t\ty();\n\t\tz();\n";
    assert_eq!(
        placed(file, "if (x)\n\ty();\n", "if (x)\n\ty();\n    w();\n"),
        "\t\tif (x)\n\t\t\ty();\n\t\t    w();\n\t\tz();\n"
    );
}

/// The indentation class, when the model misremembered the characters themselves (tabs typed as
/// spaces): a new line's indentation is the file's, as a matched line writes that many columns
/// (a tab and four spaces here, the file's continuation style), else in the file's style.
#[test]
fn tabs_typed_as_spaces_take_the_files_characters() {
    let file = "fn f() {\n\tfoo(a,\n\t    b);\n}\n";
    assert_eq!(
        placed(
            file,
            "    foo(a,\n        b);\n",
            "    foo(a,\n        b,\n        c);\n"
        ),
        "fn f() {\n\tfoo(a,\n\t    b,\n\t    c);\n}\n"
    );
    // A level no matched line shows: in the file's style.
    let file = "fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n";
    assert_eq!(
        placed(
            file,
            "    if x {\n        y();\n    }\n",
            "    if x {\n        y();\n        if z {\n            w();\n        }\n    }\n"
        ),
        "fn f() {\n\tif x {\n\t\ty();\n\t\tif z {\n\t\t\tw();\n\t\t}\n\t}\n}\n"
    );
}

/// The misremembered-characters class: a line the model copied keeps the file's characters
/// wherever the line alignment puts it (here deleted where it was and written elsewhere), under a
/// text tier and a line-based one.
#[test]
fn a_moved_copied_line_keeps_the_files_characters() {
    assert_eq!(
        placed(
            "a = 1\nb = 2\nsay(\"hi\")\nend\n",
            "a = 1\nb = 2\nsay(\u{201c}hi\u{201d})\nend\n",
            "z\nsay(\u{201c}hi\u{201d})\nx\na = 1\n",
        ),
        "z\nsay(\"hi\")\nx\na = 1\n"
    );
    // Its trailing blanks come with it; a line the model wrote anew is written as given.
    assert_eq!(
        placed(
            "a = 1\nb = 2\nsay(\u{201c}hi\u{201d})  \nend\n",
            "a = 1\nb = 2\nsay(\"hi\")\nend\n",
            "z\nsay(\"hi\")\nx\na = 1\nsay(\"new\")\n",
        ),
        "z\nsay(\u{201c}hi\u{201d})  \nx\na = 1\nsay(\"new\")\n"
    );
    // Under `whitespace_runs`: the file's spacing.
    assert_eq!(
        placed(
            "a  =  1\nb = 2\nsay( 'hi' )\nend\n",
            "a = 1\nb = 2\nsay('hi')\nend\n",
            "z\nsay('hi')\nx\na = 1\n",
        ),
        "z\nsay( 'hi' )\nx\na  =  1\n"
    );
}
