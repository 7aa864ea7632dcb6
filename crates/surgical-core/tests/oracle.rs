//! Byte-faithfulness against an independent oracle: multi-line rewrites across mixed endings.
//!
//! Each case plants a window of lines with mixed terminators (LF, CRLF, lone CR) in arbitrary
//! surroundings and makes the model keep, edit, rewrite, delete and insert several of its lines at
//! once (see `oracle/model.rs`). The result must equal, byte for byte, the file the reference model
//! builds from the window and the operations; nothing the engine reports about itself (its ranges,
//! its tier) enters the comparison. One property per family of tiers. `PROPTEST_CASES` sets the
//! number of cases (docs/testing.md's long runs).

#[path = "oracle/model.rs"]
mod model;

use model::{case, cases, planted, surroundings, Case, Style};
use proptest::prelude::*;
use surgical_core::{apply, Edit, Options};

/// Applies the case's edit to the planted window and compares with the model's bytes.
fn check(c: &Case, prefix: &[u8], suffix: &[u8]) -> Result<(), TestCaseError> {
    let file = planted(prefix, &c.window(), suffix);
    let want = planted(prefix, &c.expected_window(), suffix);
    let edit = Edit::new(c.old_text(), c.new_text());
    // A re-indented window may also occur inside its first line (after the file's deeper
    // indentation), where the exact tier rightly takes it as text; the model writes whole lines here.
    let options = Options::new().whole_lines(c.style == Style::Indented);
    let got = apply(&file, &[edit], &options);
    let got = match got {
        Ok(a) => a.text,
        Err(e) => return Err(TestCaseError::fail(format!("refused: {e}\nold:\n{}", c.old_text()))),
    };
    prop_assert_eq!(
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want),
        "old:\n{}\nnew:\n{}",
        c.old_text(),
        c.new_text()
    );
    prop_assert_eq!(got, want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(128), ..ProptestConfig::default() })]

    /// The exact tier: a plain replacement, with each line's terminator as the model states.
    #[test]
    fn exact_multi_line_rewrites_match_the_model(c in case(Style::Exact), pre in surroundings(), post in surroundings()) {
        check(&c, &pre, &post)?;
    }

    /// `trailing_whitespace` and `unicode`: the file's look-alikes and trailing blanks stay on every
    /// line the model kept or edited.
    #[test]
    fn look_alike_multi_line_rewrites_match_the_model(c in case(Style::LookAlike), pre in surroundings(), post in surroundings()) {
        check(&c, &pre, &post)?;
    }

    /// `indentation`: kept and edited lines keep the file's indentation; written lines take it.
    #[test]
    fn indented_multi_line_rewrites_match_the_model(c in case(Style::Indented), pre in surroundings(), post in surroundings()) {
        check(&c, &pre, &post)?;
    }

    /// `whitespace_runs`: kept and edited lines keep the file's runs of blanks.
    #[test]
    fn wider_runs_multi_line_rewrites_match_the_model(c in case(Style::WiderRuns), pre in surroundings(), post in surroundings()) {
        check(&c, &pre, &post)?;
    }
}

/// The case, by hand: several lines rewritten in a mixed file keep each its own terminator
/// (a CRLF line does not come back LF), and inserted lines take the one where they land.
#[test]
fn rewriting_several_lines_keeps_each_ones_terminator() {
    let file = b"keep\r\nbeta one\ngamma two\r\ndelta\rlast\n";
    let edit = Edit::new(
        "beta one\ngamma two\ndelta\n",
        "BETA ONE REWRITTEN\nGAMMA TWO REWRITTEN\nINSERTED\ndelta!\n",
    );
    let got = apply(file, &[edit], &Options::new()).unwrap().text;
    assert_eq!(
        String::from_utf8_lossy(&got),
        "keep\r\nBETA ONE REWRITTEN\nGAMMA TWO REWRITTEN\r\nINSERTED\rdelta!\rlast\n"
    );
}

/// What differed is reported on the line of the result where it is (found by mutation testing:
/// the line count of a span and its shift to the file's numbering went unchecked).
#[test]
fn differences_are_reported_on_their_own_line() {
    let file = "zero\none\ntwo \u{201c}q\u{201d}\nthree\n";
    let edit = Edit::new("one\ntwo \"q\"\nthree\n", "one!\ntwo \"q\"\nthree\n");
    let applied = apply(file.as_bytes(), &[edit], &Options::new()).unwrap();
    assert_eq!(applied.text, "zero\none!\ntwo \u{201c}q\u{201d}\nthree\n".as_bytes());
    let lines: Vec<usize> = applied.edits[0]
        .differences
        .iter()
        .filter(|d| matches!(d.kind, surgical_core::DifferenceKind::Text { .. }))
        .map(|d| d.line)
        .collect();
    assert_eq!(lines, [3, 3], "{:?}", applied.edits[0].differences);
}
