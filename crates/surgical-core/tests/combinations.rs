//! Combinations of the first round's perturbations (issue 11): each alone is placed by one tier;
//! together they must still be placed, with only the model's change written and the file's own
//! characters (indentation, quotes, line endings, trailing blanks, alignment) kept everywhere else.

use surgical_core::{apply, Edit, Options, Tier};

fn placed(file: &str, old: &str, new: &str) -> (String, Tier) {
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new())
        .unwrap_or_else(|e| panic!("not placed: {e}\nold: {old:?}"));
    (String::from_utf8(a.text).unwrap(), a.edits[0].tier)
}

#[test]
fn indentation_shift_plus_smart_quotes() {
    let file =
        "fn f() {\n        let s = \u{201C}hello\u{201D};\n        let t = \u{2018}x\u{2019};\n        let n = 1;\n}\n";
    // A change on a line without quotes: the quoted lines are the file's.
    let (out, tier) = placed(
        file,
        "    let s = \"hello\";\n    let t = 'x';\n    let n = 1;\n",
        "    let s = \"hello\";\n    let t = 'x';\n    let n = 2;\n",
    );
    assert_eq!(out, file.replace("n = 1", "n = 2"));
    assert_eq!(tier, Tier::Indentation);
    // A change inside the quotes: the file's quotes stay around the new word.
    let (out, _) = placed(
        file,
        "    let s = \"hello\";\n    let t = 'x';\n",
        "    let s = \"bye\";\n    let t = 'x';\n",
    );
    assert_eq!(out, file.replace("hello", "bye"));
    // A line added: re-indented into the file's indentation.
    let (out, _) = placed(
        file,
        "let s = \"hello\";\nlet t = 'x';\n",
        "let s = \"hello\";\nlog(s);\nlet t = 'x';\n",
    );
    assert_eq!(out, file.replace("\u{201D};\n", "\u{201D};\n        log(s);\n"));
}

#[test]
fn crlf_plus_trailing_blanks_plus_tabs_written_as_spaces() {
    let file = "fn f() {\r\n\tif x {\r\n\t\tlet a = 1;  \r\n\t\tlet b = 2;\t\r\n\t}\r\n}\r\n";
    let (out, tier) = placed(
        file,
        "    if x {\n        let a = 1;\n        let b = 2;\n    }\n",
        "    if x {\n        let a = 1;\n        let b = 3;\n    }\n",
    );
    assert_eq!(out, file.replace("b = 2", "b = 3"));
    assert_eq!(tier, Tier::Indentation);
    // An added line takes the file's tabs and CRLF.
    let (out, _) = placed(
        file,
        "    if x {\n        let a = 1;\n",
        "    if x {\n        let z = 0;\n        let a = 1;\n",
    );
    assert_eq!(out, file.replace("{\r\n\t\tlet a", "{\r\n\t\tlet z = 0;\r\n\t\tlet a"));
    // Trailing blanks the model wrote and the file lacks, with smart quotes too.
    let file = "x = [\r\n\t\u{201C}a\u{201D},\r\n\t\u{201C}b\u{201D},\r\n]\r\n";
    let (out, _) = placed(file, "    \"a\",   \n    \"b\",\n", "    \"a\",\n    \"c\",\n");
    assert_eq!(out, file.replace("b\u{201D}", "c\u{201D}"));
}

#[test]
fn collapsed_alignment_runs() {
    let file = "let short     = 1;\nlet longer    = 2;\nlet longest   = 3;\n";
    let (out, tier) = placed(
        file,
        "let short = 1;\nlet longer = 2;\nlet longest = 3;\n",
        "let short = 1;\nlet longer = 20;\nlet longest = 3;\n",
    );
    assert_eq!(out, file.replace("= 2;", "= 20;"));
    assert_eq!(tier, Tier::WhitespaceRuns);
    // Aligned columns in a struct, indented with tabs, CRLF, a smart quote in a comment.
    let file = "struct S {\r\n\ta:      u8,   // \u{201C}first\u{201D}\r\n\tbb:     u16,\r\n\tccc:    u32,\r\n}\r\n";
    let (out, _) = placed(
        file,
        "    a: u8, // \"first\"\n    bb: u16,\n    ccc: u32,\n",
        "    a: u8, // \"first\"\n    bb: u64,\n    ccc: u32,\n",
    );
    assert_eq!(out, file.replace("u16", "u64"));
    // A change on the aligned line itself keeps the file's runs around it.
    let (out, _) = placed(file, "a: u8, // \"first\"\nbb: u16,", "a: i8, // \"first\"\nbb: u16,");
    assert_eq!(out, file.replace("a:      u8", "a:      i8"));
}

/// `oldText` copied from the middle of a line, its later lines de-indented (issue 11): placed by
/// `indentation`, which keeps the bytes before the start and after the end.
#[test]
fn old_text_starting_and_ending_mid_line() {
    let file = "fn f() {\n    let total = compute(alpha,\n                        beta,\n                        gamma); // sum\n}\n";
    // Started mid-line, the following lines lost their indentation, stopped mid-line.
    let (out, tier) = placed(
        file,
        "compute(alpha,\nbeta,\ngamma);",
        "compute(alpha,\nbeta2,\ngamma);",
    );
    assert_eq!(out, file.replace("beta,", "beta2,"));
    assert_eq!(tier, Tier::Indentation);
    // A line added is indented as the file indents the lines after the first.
    let (out, _) = placed(file, "compute(alpha,\nbeta,\n", "compute(alpha,\nbeta,\ndelta,\n");
    assert_eq!(out, file.replace("beta,\n", "beta,\n                        delta,\n"));
    // A change on the cut lines keeps what lies outside the match.
    let (out, _) = placed(
        file,
        "compute(alpha,\nbeta,\ngamma);",
        "compute2(alpha,\nbeta,\ngamma, 0);",
    );
    assert_eq!(
        out,
        file.replace("compute(alpha", "compute2(alpha")
            .replace("gamma);", "gamma, 0);")
    );
    // Without de-indentation, the text tiers already find it.
    let (out, tier) = placed(
        file,
        "compute(alpha,\n                        beta,\n                        gam",
        "compute(alpha,\n                        beta,\n                        gam2",
    );
    assert_eq!(out, file.replace("gamma)", "gam2ma)"));
    assert_eq!(tier, Tier::Exact);
    // Ambiguous where two lines end the same way: refused.
    let twice = format!("{file}{file}");
    let e = apply(
        twice.as_bytes(),
        &[Edit::new("compute(alpha,\nbeta,", "compute(alpha,\nb,")],
        &Options::new(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "ambiguous");
    // Lines after the first that do not shift as one block: not placed.
    let e = apply(
        file.as_bytes(),
        &[Edit::new(
            "compute(alpha,\nbeta,\n  gamma);",
            "compute(alpha,\nbeta,\n  gamma2);",
        )],
        &Options::new(),
    )
    .unwrap_err();
    assert_eq!(e.code(), "not_found");
}

mod mid_line_property {
    use proptest::prelude::*;
    use surgical_core::{apply, Edit, Options};

    /// A block of lines: indentation level and words; the first line has text before the copied part
    /// and the last may have text after it.
    #[derive(Debug, Clone)]
    struct Block {
        before: Vec<u8>,
        lines: Vec<(usize, String)>,
        lead: String,
        trail: String,
        indent: usize,
        tabs: bool,
        crlf: bool,
        after: Vec<u8>,
        changed: prop::sample::Index,
    }

    fn block() -> impl Strategy<Value = Block> {
        let noise = prop::collection::vec(
            prop_oneof![
                Just(b"\n".to_vec()),
                Just(b"\r\n".to_vec()),
                Just(b"{}();".to_vec()),
                Just(b"\xff".to_vec()),
                Just("\u{201C}".as_bytes().to_vec())
            ],
            0..8,
        )
        .prop_map(|v| v.concat());
        (
            noise.clone(),
            prop::collection::vec((0usize..3, "[a-z]{1,5}( [a-z]{1,5}){0,2}"), 2..6),
            "[a-z]{1,4} = ",
            prop::sample::select(vec!["", " // c", ";"]),
            1usize..3,
            any::<bool>(),
            any::<bool>(),
            noise,
            any::<prop::sample::Index>(),
        )
            .prop_map(
                |(before, lines, lead, trail, indent, tabs, crlf, after, changed)| Block {
                    before,
                    lines,
                    lead,
                    trail: trail.to_string(),
                    indent,
                    tabs,
                    crlf,
                    after,
                    changed,
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        /// `oldText` copied from mid-line with its later lines de-indented: the result is the file
        /// with exactly the changed line rewritten in the file's indentation (the text before the
        /// start and after the end kept), or a refusal.
        #[test]
        fn mid_line_copies_change_exactly_one_line(b in block()) {
            let eol = if b.crlf { "\r\n" } else { "\n" };
            let ind = |level: usize| if b.tabs { "\t".repeat(level) } else { "    ".repeat(level) };
            let m = b.lines.len();
            // Distinct lines (a numbered suffix), the first one deeper than the rest never matters.
            let text = |k: usize| format!("{} n{k}", b.lines[k].1);
            let file_line = |k: usize, body: &str| -> String {
                match k {
                    0 => format!("{}{}{body}", ind(b.indent), b.lead),
                    _ if k + 1 == m => format!("{}{body}{}", ind(b.indent + 1 + b.lines[k].0), b.trail),
                    _ => format!("{}{body}", ind(b.indent + 1 + b.lines[k].0)),
                }
            };
            let build = |changed: Option<usize>| -> Vec<u8> {
                let mut f = b.before.clone();
                f.extend_from_slice(b"\n");
                for k in 0..m {
                    let body = if Some(k) == changed { "CHANGED".to_string() } else { text(k) };
                    f.extend_from_slice(file_line(k, &body).as_bytes());
                    f.extend_from_slice(eol.as_bytes());
                }
                f.extend_from_slice(&b.after);
                f
            };
            let file = build(None);
            // The model's copy: from the first line's text on, later lines lost the block's indentation.
            let model = |k: usize, body: &str| match k {
                0 => body.to_string(),
                _ => format!("{}{body}", "    ".repeat(b.lines[k].0)),
            };
            let changed = b.changed.index(m);
            let old: Vec<String> = (0..m).map(|k| model(k, &text(k))).collect();
            let mut new = old.clone();
            new[changed] = model(changed, "CHANGED");
            let result = apply(&file, &[Edit::new(old.join("\n"), new.join("\n"))], &Options::new());
            match result {
                Ok(a) => {
                    let expected = build(Some(changed));
                    prop_assert_eq!(String::from_utf8_lossy(&a.text), String::from_utf8_lossy(&expected));
                }
                Err(e) => prop_assert!(matches!(e.code(), "not_found" | "ambiguous"), "{e:?}"),
            }
        }
    }
}
