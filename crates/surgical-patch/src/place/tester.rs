//! The placement tester, in the manner of ripgrep's searcher tester: every case (a text, one hunk,
//! and the bytes expected or the kind of failure) runs through every path placement can take, and
//! each path must meet the same expectation:
//!
//! - `single`: the hunk alone ([`place`], apply_patch rules);
//! - `blocks`: the hunk alone under SEARCH/REPLACE rules (unordered, no fuzz);
//! - `batched`: with a second hunk elsewhere in the text, so both are searched in one pass
//!   (`Placer::locate_all`, `Haystack::find_all`);
//! - `loose`: the line-based pass alone (`locate` and `attempt` with [`Pass::Loose`]);
//! - `anchored`: after an `@@` line naming a line before the hunk;
//! - `end_of_file`: marked `*** End of File` (tried at the end of the text first);
//! - `fuzz`: under unified-diff rules, with a context line the text does not have at each end,
//!   which fuzz 1 ignores.
//!
//! Paths that add a line to the text (`batched`, `anchored`) add it before the text, with the
//! text's first terminator, and take it off the result again.

use surgical_core::{EditError, Options, Tier};

use super::{attempt, final_newline, locate, place, Attempt, FailureKind, Lines, Locate, Pass, Rules};
use crate::{Hunk, PatchFormat, Tag};

/// What a case expects: the new text, or the kind of failure.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expect {
    Bytes(Vec<u8>),
    Fails(&'static str),
}

/// A hunk from lines as a diff writes them: ` ` context, `-` removed, `+` added.
fn hunk(body: &[&str]) -> Hunk {
    let lines = body
        .iter()
        .map(|l| {
            let (tag, rest) = l.split_at(1);
            let tag = match tag {
                " " => Tag::Context,
                "-" => Tag::Removed,
                "+" => Tag::Added,
                _ => panic!("bad hunk line {l:?}"),
            };
            (tag, rest.to_string())
        })
        .collect();
    Hunk {
        lines,
        ..Hunk::default()
    }
}

fn kind(f: &FailureKind) -> &'static str {
    match f {
        FailureKind::Ambiguous { .. } | FailureKind::AnchorAmbiguous { .. } => "ambiguous",
        FailureKind::NotFound { .. } | FailureKind::AnchorNotFound { .. } => "not_found",
        FailureKind::Engine {
            error: EditError::NoChange { .. },
            ..
        } => "no_change",
        FailureKind::Engine { .. } => "engine",
        FailureKind::Overlap { .. } => "overlap",
        _ => "other",
    }
}

fn loosest() -> Tier {
    Options::new().get_loosest_tier()
}

/// `hunks` placed on `text` under `format`'s rules: the new text, or the failure's kind.
fn placed(text: &[u8], hunks: &[Hunk], format: PatchFormat) -> Result<Vec<u8>, &'static str> {
    place(text, hunks, &Rules::new(format, loosest()))
        .map(|p| p.text)
        .map_err(|f| kind(&f.kind))
}

/// `line` (without terminator) put before `text`, with the text's first terminator.
fn with_line_before(line: &str, text: &[u8]) -> Vec<u8> {
    let lines = Lines::new(text);
    let eol: &[u8] = if lines.count() > 0 && lines.start(1) > lines.content(0).len() {
        &text[lines.content(0).len()..lines.start(1)]
    } else {
        b"\n"
    };
    [line.as_bytes(), eol, text].concat()
}

/// The result without its first line, which must be `line` (with any terminator).
fn without_line_before(line: &str, out: Vec<u8>) -> Vec<u8> {
    assert!(out.starts_with(line.as_bytes()), "{:?}", String::from_utf8_lossy(&out));
    let lines = Lines::new(&out);
    out[lines.start(1)..].to_vec()
}

/// Every path, by name, with what it gave.
fn run_paths(text: &[u8], h: &Hunk) -> Vec<(&'static str, Result<Vec<u8>, &'static str>)> {
    let mut out = Vec::new();
    out.push(("single", placed(text, std::slice::from_ref(h), PatchFormat::Codex)));
    out.push((
        "blocks",
        placed(text, std::slice::from_ref(h), PatchFormat::SearchReplace),
    ));

    // Batched: a second hunk on a line of its own before the text; both search the whole text.
    const OTHER: &str = "\u{27e8}other hunk\u{27e9}";
    let other = hunk(&[&format!("-{OTHER}"), &format!("+{OTHER}")[..]]);
    let mut other = other;
    other.lines[1].1.push_str(" changed");
    let batched = placed(&with_line_before(OTHER, text), &[h.clone(), other], PatchFormat::Codex)
        .map(|out| without_line_before(&format!("{OTHER} changed"), out));
    out.push(("batched", batched));

    // The line-based pass alone, on the whole text.
    let lines = Lines::new(text);
    let (old, new) = (h.old_lines(), h.new_lines());
    let loose = Options::new().loosest_tier(loosest().min(Tier::WhitespaceRuns));
    let result = match locate(&lines, 0..lines.count(), &old, &loose, Pass::Loose) {
        Ok((first, n)) => {
            match attempt(
                &lines,
                first..first + n,
                0,
                &old,
                &new,
                final_newline(&h.lines, h.final_newline, &Rules::new(PatchFormat::Codex, loosest())),
                &loose,
                Pass::Loose,
            ) {
                Attempt::Placed(p) => Ok([&text[..p.span.start], &p.bytes[..], &text[p.span.end..]].concat()),
                Attempt::Failed(f) => Err(kind(&f.kind)),
                Attempt::NotFound => Err("not_found"),
            }
        }
        Err(Locate::NotFound) => Err("not_found"),
        Err(Locate::Many { .. }) => Err("ambiguous"),
    };
    out.push(("loose", result));

    // Anchored: after an `@@` line naming a line put before the text.
    const ANCHOR: &str = "\u{27e8}anchor\u{27e9}";
    let mut anchored = h.clone();
    anchored.anchors = vec![ANCHOR.to_string()];
    let result = placed(&with_line_before(ANCHOR, text), &[anchored], PatchFormat::Codex)
        .map(|out| without_line_before(ANCHOR, out));
    out.push(("anchored", result));

    // `*** End of File`: tried at the end first, then as usual.
    let mut eof = h.clone();
    eof.at_eof = true;
    out.push(("end_of_file", placed(text, &[eof], PatchFormat::Codex)));

    // Unified-diff fuzz: a context line the text does not have at each end.
    let mut fuzzed = h.clone();
    fuzzed
        .lines
        .insert(0, (Tag::Context, "\u{27e8}not in the file\u{27e9}".to_string()));
    fuzzed
        .lines
        .push((Tag::Context, "\u{27e8}nor this\u{27e9}".to_string()));
    out.push(("fuzz", placed(text, &[fuzzed], PatchFormat::Unified)));
    out
}

/// Runs one case through every path and checks each against `expect`.
fn check(name: &str, text: &[u8], body: &[&str], expect: Expect) {
    expect_everywhere(name, run_paths(text, &hunk(body)), &expect);
}

/// Asserts that every path's result is `expect`, naming each path that differs.
fn expect_everywhere(name: &str, results: Vec<(&'static str, Result<Vec<u8>, &'static str>)>, expect: &Expect) {
    let mut wrong = Vec::new();
    for (path, got) in results {
        let got = match got {
            Ok(bytes) => Expect::Bytes(bytes),
            Err(kind) => Expect::Fails(kind),
        };
        if got != *expect {
            wrong.push(format!("  {path}: {}", show(&got)));
        }
    }
    assert!(
        wrong.is_empty(),
        "case `{name}`: expected {}, but\n{}",
        show(expect),
        wrong.join("\n")
    );
}

fn show(e: &Expect) -> String {
    match e {
        Expect::Bytes(b) => format!("{:?}", String::from_utf8_lossy(b)),
        Expect::Fails(k) => format!("failure `{k}`"),
    }
}

fn bytes(b: &[u8]) -> Expect {
    Expect::Bytes(b.to_vec())
}

#[test]
fn lf_middle_line() {
    check("lf", b"a\nb\nc\n", &[" a", "-b", "+B", " c"], bytes(b"a\nB\nc\n"));
}

#[test]
fn crlf_kept_and_given_to_new_lines() {
    check(
        "crlf",
        b"a\r\nb\r\nc\r\n",
        &[" a", "-b", "+B", "+B2", " c"],
        bytes(b"a\r\nB\r\nB2\r\nc\r\n"),
    );
}

#[test]
fn lone_cr_lines() {
    check("cr", b"a\rb\rc\r", &[" a", "-b", "+x", "+y"], bytes(b"a\rx\ry\rc\r"));
}

#[test]
fn mixed_endings_each_line_keeps_its_own() {
    check(
        "mixed",
        b"a\r\nb\nc\rd\n",
        &[" a", "-b", "+B", " c"],
        bytes(b"a\r\nB\nc\rd\n"),
    );
}

#[test]
fn last_line_without_newline_kept_open() {
    check("open end kept", b"a\nb\nc", &["-b", "+B", " c"], bytes(b"a\nB\nc"));
}

#[test]
fn last_line_without_newline_rewritten_stays_without() {
    check("open end rewritten", b"a\nb\nc", &[" b", "-c", "+C"], bytes(b"a\nb\nC"));
}

#[test]
fn crlf_single_line_at_open_end_takes_crlf_and_stays_open() {
    check("crlf open end", b"a\r\nb", &["-b", "+B", "+C"], bytes(b"a\r\nB\r\nC"));
}

#[test]
fn single_line_file_without_newline() {
    check(
        "one line",
        b"only",
        &["-only", "+first", "+second"],
        bytes(b"first\nsecond"),
    );
}

#[test]
fn blank_line_between_context() {
    check(
        "blank",
        b"fn a() {\n\n    x();\n}\n",
        &[" fn a() {", " ", "-    x();", "+    y();"],
        bytes(b"fn a() {\n\n    y();\n}\n"),
    );
}

#[test]
fn blank_first_line_with_trailing_blanks_in_file() {
    check(
        "blank with blanks",
        b"fn a() {\n    \n    x();\n}\n",
        &[" ", "-    x();", "+    y();"],
        bytes(b"fn a() {\n    \n    y();\n}\n"),
    );
}

#[test]
fn trailing_whitespace_in_file_is_kept() {
    check(
        "trailing ws",
        b"a  \nb\t\nc\n",
        &[" a", "-b", "+B", " c"],
        bytes(b"a  \nB\nc\n"),
    );
}

#[test]
fn smart_quotes_in_file_are_kept() {
    check(
        "quotes",
        "let s = \u{2018}x\u{2019};\nlet n = 1;\n".as_bytes(),
        &[" let s = 'x';", "-let n = 1;", "+let n = 2;"],
        bytes("let s = \u{2018}x\u{2019};\nlet n = 2;\n".as_bytes()),
    );
}

#[test]
fn nbsp_in_file_is_kept() {
    check(
        "nbsp",
        "a\u{a0}b\nc\n".as_bytes(),
        &[" a b", "-c", "+C"],
        bytes("a\u{a0}b\nC\n".as_bytes()),
    );
}

#[test]
fn invalid_utf8_outside_the_hunk() {
    check(
        "invalid",
        b"\xff\xfe\nb\n\xc3\n",
        &["-b", "+B"],
        bytes(b"\xff\xfe\nB\n\xc3\n"),
    );
}

#[test]
fn ambiguous_repeat() {
    check(
        "repeat",
        b"x = 1\ny\nx = 1\ny\nend\n",
        &["-x = 1", "+x = 2"],
        Expect::Fails("ambiguous"),
    );
}

#[test]
fn ambiguous_repeat_differing_only_in_endings() {
    check(
        "repeat crlf",
        b"x = 1\r\nmid\nx = 1\nend\n",
        &["-x = 1", "+x = 2"],
        Expect::Fails("ambiguous"),
    );
}

#[test]
fn near_duplicate_decided_by_context() {
    check(
        "near duplicate",
        b"if a {\n    go();\n}\nif b {\n    go();\n}\n",
        &[" if b {", "-    go();", "+    stop();"],
        bytes(b"if a {\n    go();\n}\nif b {\n    stop();\n}\n"),
    );
}

#[test]
fn near_duplicate_prefix_is_not_a_whole_line() {
    check(
        "prefix",
        b"value = 10\nvalue = 1\n",
        &["-value = 1", "+value = 2"],
        bytes(b"value = 10\nvalue = 2\n"),
    );
}

#[test]
fn not_found() {
    check("missing", b"a\nb\n", &["-zzz", "+y"], Expect::Fails("not_found"));
}

#[test]
fn not_found_inside_a_line_only() {
    check("inside", b"abc\n", &["-b", "+B"], Expect::Fails("not_found"));
}

#[test]
fn changes_nothing() {
    check("no change", b"a\nb\n", &["-b", "+b"], Expect::Fails("no_change"));
}

#[test]
fn indentation_forgiven_and_kept() {
    check(
        "indentation",
        b"fn a() {\n        x();\n        y();\n}\n",
        &["-    x();", "-    y();", "+    z();"],
        bytes(b"fn a() {\n        z();\n}\n"),
    );
}

#[test]
fn deleting_lines_at_the_end() {
    check("delete end", b"a\nb\nc\n", &[" a", "-b", "-c"], bytes(b"a\n"));
}

/// The file's last lines deleted, the file without a final line break: apply_patch and unified
/// diffs leave the line before them as it was, with its line break (a unified diff says otherwise
/// with `\ No newline at end of file`); a SEARCH/REPLACE block, which cannot say either way, keeps
/// the file's state (issue 28: as Roo, Cline and Aider do).
#[test]
fn deleting_the_open_last_line() {
    let results = run_paths(b"a\nb\nc", &hunk(&[" a", "-b", "-c"]));
    let (blocks, others): (Vec<_>, Vec<_>) = results.into_iter().partition(|(path, _)| *path == "blocks");
    expect_everywhere("delete open end", others, &bytes(b"a\n"));
    expect_everywhere("delete open end, SEARCH/REPLACE", blocks, &bytes(b"a"));
}

#[test]
fn crlf_hunk_lines_in_lf_file_and_back() {
    check(
        "crlf in the middle",
        b"a\nb\r\nc\n",
        &["-b", "+b2", "+b3"],
        bytes(b"a\nb2\r\nb3\r\nc\n"),
    );
}

/// Where an insert-only hunk (added lines, no old lines) goes.
#[derive(Clone, Copy)]
enum At {
    /// After the one line that reads so (an `@@` anchor).
    After(&'static str),
    /// Before the first line (a line hint of 0).
    Start,
    /// After the last line (apply_patch without an anchor).
    End,
}

/// An insert-only hunk of `added` lines, placed at `at`.
fn insert_hunk(added: &[&str], at: At) -> Hunk {
    let body: Vec<String> = added.iter().map(|l| format!("+{l}")).collect();
    let mut h = hunk(&body.iter().map(String::as_str).collect::<Vec<_>>());
    match at {
        At::After(anchor) => h.anchors = vec![anchor.to_string()],
        At::Start => h.hint = Some(0),
        At::End => {}
    }
    h
}

/// Every path an insert-only hunk can take, by name, with what it gave. The paths of [`run_paths`]
/// that search for old lines (`loose`, `fuzz`) have none to search for; the others become:
///
/// - `single`: the hunk alone, apply_patch rules;
/// - `blocks`: the hunk alone under SEARCH/REPLACE rules (which append no bare additions: not for
///   [`At::End`]);
/// - `batched`: with a second hunk on a line of its own before the text (after it, for
///   [`At::Start`]);
/// - `anchored`: after an anchor line put before the text, named first (for [`At::Start`], the
///   only anchor: its lines then start the text); for [`At::End`], after the text's last line named
///   as the anchor;
/// - `end_of_file`: marked `*** End of File`;
/// - `unified`: the hunk alone under unified-diff rules (not for [`At::End`]).
fn run_insert_paths(text: &[u8], added: &[&str], at: At) -> Vec<(&'static str, Result<Vec<u8>, &'static str>)> {
    let h = insert_hunk(added, at);
    let mut out = Vec::new();
    out.push(("single", placed(text, std::slice::from_ref(&h), PatchFormat::Codex)));
    if !matches!(at, At::End) {
        out.push((
            "blocks",
            placed(text, std::slice::from_ref(&h), PatchFormat::SearchReplace),
        ));
        out.push(("unified", placed(text, std::slice::from_ref(&h), PatchFormat::Unified)));
    }

    const OTHER: &str = "\u{27e8}other hunk\u{27e9}";
    let mut other = hunk(&[&format!("-{OTHER}"), &format!("+{OTHER} changed")[..]]);
    other.patch_line = 1;
    let batched = if matches!(at, At::Start) {
        assert!(
            matches!(text.last(), Some(b'\n' | b'\r')),
            "a start case ends with a line break"
        );
        let suffix = format!("{OTHER} changed\n");
        placed(
            &[text, OTHER.as_bytes(), b"\n"].concat(),
            &[h.clone(), other],
            PatchFormat::Codex,
        )
        .map(|out| {
            assert!(out.ends_with(suffix.as_bytes()), "{:?}", String::from_utf8_lossy(&out));
            out[..out.len() - suffix.len()].to_vec()
        })
    } else {
        placed(&with_line_before(OTHER, text), &[h.clone(), other], PatchFormat::Codex)
            .map(|out| without_line_before(&format!("{OTHER} changed"), out))
    };
    out.push(("batched", batched));

    const ANCHOR: &str = "\u{27e8}anchor\u{27e9}";
    let anchored = match at {
        At::End => {
            let lines = Lines::new(text);
            let last = String::from_utf8_lossy(lines.content(lines.count() - 1)).into_owned();
            let mut a = insert_hunk(added, At::After("unused"));
            a.anchors = vec![last];
            placed(text, &[a], PatchFormat::Codex)
        }
        At::Start | At::After(_) => {
            let mut a = insert_hunk(added, at);
            a.hint = None;
            a.anchors.insert(0, ANCHOR.to_string());
            placed(&with_line_before(ANCHOR, text), &[a], PatchFormat::Codex)
                .map(|out| without_line_before(ANCHOR, out))
        }
    };
    out.push(("anchored", anchored));

    let mut eof = h.clone();
    eof.at_eof = true;
    out.push(("end_of_file", placed(text, &[eof], PatchFormat::Codex)));
    out
}

/// Runs one insert-only case through every path and checks each against `expect`.
fn check_insert(name: &str, text: &[u8], added: &[&str], at: At, expect: &[u8]) {
    expect_everywhere(name, run_insert_paths(text, added, at), &bytes(expect));
}

#[test]
fn insert_only_after_a_crlf_line() {
    check_insert(
        "insert after crlf",
        b"a\r\nb\nc\n",
        &["x", "y"],
        At::After("a"),
        b"a\r\nx\r\ny\r\nb\nc\n",
    );
}

#[test]
fn insert_only_after_a_lone_cr_line() {
    check_insert("insert after cr", b"a\rb\nc\n", &["x"], At::After("a"), b"a\rx\rb\nc\n");
}

#[test]
fn insert_only_at_the_start() {
    check_insert(
        "insert at start",
        b"a\r\nb\n",
        &["x", "y"],
        At::Start,
        b"x\r\ny\r\na\r\nb\n",
    );
}

#[test]
fn insert_only_at_the_end_without_a_final_newline() {
    check_insert(
        "insert at open end",
        b"a\r\nb",
        &["x", "y"],
        At::End,
        b"a\r\nb\r\nx\r\ny",
    );
}

/// Hunk lines that carry CR bytes (git's lines of a CRLF file, a change of line endings) are the
/// change: applied byte for byte, as `git apply` does.
#[test]
fn lines_carrying_cr_are_applied_exactly() {
    let cases: [(&[u8], &[&str], &[u8]); 5] = [
        (b"a\r\nb\r\nc\r\n", &[" a\r", "-b\r", "+b", " c\r"], b"a\r\nb\nc\r\n"),
        (b"a\nb\nc\n", &[" a", "-b", "+b\r", " c"], b"a\nb\r\nc\n"),
        (b"a\r\nb\r\n", &["-a\r", "-b\r", "+a", "+b"], b"a\nb\n"),
        (b"x\na\r\nb", &[" a\r", "-b", "+B\r"], b"x\na\r\nB\r"),
        // Not found byte for byte: the CRs are read as line breaks and placed as usual.
        (b"a\nb\nc\n", &[" a\r", "-b\r", "+B\r", " c\r"], b"a\nB\nc\n"),
    ];
    for (text, body, want) in cases {
        for format in [PatchFormat::Unified, PatchFormat::Codex, PatchFormat::SearchReplace] {
            assert_eq!(
                placed(text, &[hunk(body)], format).map(|b| String::from_utf8_lossy(&b).into_owned()),
                Ok(String::from_utf8_lossy(want).into_owned()),
                "{body:?} {format:?}"
            );
        }
    }
}

/// SEARCH lines copied from a read view with their line numbers: left out only when the lines as
/// written are not in the file and the stripped ones are.
#[test]
fn line_numbers_copied_from_a_read_view() {
    let sr = PatchFormat::SearchReplace;
    let text = b"fn a() {\n    x();\n}\n";
    for body in [
        &["-2\t    x();", "+    y();"][..],
        &["-2 |     x();", "+2 |     y();"],
        &["-     2\u{2192}    x();", "+    y();"],
    ] {
        assert_eq!(
            placed(text, &[hunk(body)], sr),
            Ok(b"fn a() {\n    y();\n}\n".to_vec()),
            "{body:?}"
        );
    }
    let p = place(
        text,
        &[hunk(&["-2\t    x();", "+    y();"])],
        &Rules::new(sr, loosest()),
    )
    .unwrap();
    assert!(p.hunks[0].unnumbered);
    // The file holds the numbered text itself: matched as written.
    let numbered = b"1\tx\n2\ty\nx\ny\n";
    assert_eq!(
        placed(numbered, &[hunk(&["-1\tx", "-2\ty", "+z"])], sr),
        Ok(b"z\nx\ny\n".to_vec())
    );
    // Not every line numbered, numbers out of order, or other formats: not stripped.
    assert_eq!(
        placed(text, &[hunk(&["-1\tfn a() {", "-    x();", "+y"])], sr),
        Err("not_found")
    );
    assert_eq!(
        placed(text, &[hunk(&["-2\t    x();", "-1\t}", "+y"])], sr),
        Err("not_found")
    );
    assert_eq!(
        placed(text, &[hunk(&["-2\t    x();", "+    y();"])], PatchFormat::Unified),
        Err("not_found")
    );
}

/// A BOM written as part of a hunk's first line (as git writes it) is the file's BOM.
#[test]
fn bom_in_the_first_line() {
    let kept = crate::strip_bom(&[hunk(&["-\u{feff}a", "+\u{feff}A", " b"])]);
    assert!(!kept.removes_bom);
    assert_eq!(kept.hunks[0].1.old_lines(), vec!["a", "b"]);
    assert_eq!(kept.hunks[0].1.new_lines(), vec!["A", "b"]);
    let removed = crate::strip_bom(&[hunk(&[" x", "-y", "+Y"]), hunk(&["-\u{feff}a", "+a"])]);
    assert!(removed.removes_bom);
    assert_eq!(removed.hunks.len(), 1);
    assert_eq!(removed.hunks[0].0, 0);
    let context = crate::strip_bom(&[hunk(&[" \u{feff}a", "-b", "+c"])]);
    assert!(!context.removes_bom);
    assert_eq!(context.hunks[0].1.new_lines(), vec!["a", "c"]);
}

/// A one-line hunk the file indents more: deleting it takes the whole line (its indentation is not
/// glued onto the next line), and lines inserted before it take the file's indentation, which the
/// kept line keeps (found by the oracle properties of issue 16).
#[test]
fn a_line_the_file_indents_more_is_deleted_or_preceded_whole() {
    let text = b"a\n        L0 jvw\n=\n";
    for format in [PatchFormat::Codex, PatchFormat::SearchReplace] {
        assert_eq!(
            placed(text, &[hunk(&["-L0 jvw"])], format),
            Ok(b"a\n=\n".to_vec()),
            "{format:?}"
        );
        assert_eq!(
            placed(text, &[hunk(&["+new", " L0 jvw"])], format),
            Ok(b"a\n        new\n        L0 jvw\n=\n".to_vec()),
            "{format:?}"
        );
        assert_eq!(
            placed(text, &[hunk(&["-L0 jvw", "+L1 jvw", " ="])], format),
            Ok(b"a\n        L1 jvw\n=\n".to_vec()),
            "{format:?}"
        );
    }
}

/// Hunk lines that carry CR bytes, at several places that read alike: the byte-exact pass takes
/// the one on the hunk's header line (each hunk here changes a line ending, which the line pass,
/// reading CRs as line breaks, could not write: a place taken there would show).
#[test]
fn lines_carrying_cr_at_repeated_places_take_the_one_on_the_header_line() {
    let text = b"x\r\nb\r\nx\r\nb\r\n";
    let mut h = hunk(&["-b\r", "+b"]);
    for (hint, want) in [(4, &b"x\r\nb\r\nx\r\nb\n"[..]), (2, b"x\r\nb\nx\r\nb\r\n")] {
        h.hint = Some(hint);
        for format in [PatchFormat::Unified, PatchFormat::Codex, PatchFormat::SearchReplace] {
            assert_eq!(
                placed(text, std::slice::from_ref(&h), format).map(|b| String::from_utf8_lossy(&b).into_owned()),
                Ok(String::from_utf8_lossy(want).into_owned()),
                "hint {hint} {format:?}"
            );
        }
    }
    // No hint, or one on neither line: not placed byte for byte (the line pass, the CRs read as
    // line breaks, then finds the two places as far from the hint).
    for hint in [None, Some(0), Some(3)] {
        h.hint = hint;
        assert_eq!(
            placed(text, std::slice::from_ref(&h), PatchFormat::Unified),
            Err("ambiguous"),
            "{hint:?}"
        );
    }
}

/// The byte-exact pass looks for each hunk after the one before: the second hunk's line also stands
/// before the first hunk, and only the one after it is meant.
#[test]
fn lines_carrying_cr_are_found_after_the_previous_hunk() {
    let text = b"b\r\na\r\nb\r\n";
    let hunks = [hunk(&["-a\r", "+A\r"]), hunk(&["-b\r", "+B"])];
    for format in [PatchFormat::Unified, PatchFormat::Codex, PatchFormat::SearchReplace] {
        assert_eq!(
            placed(text, &hunks, format).map(|b| String::from_utf8_lossy(&b).into_owned()),
            Ok("b\r\nA\r\nB\n".to_string()),
            "{format:?}"
        );
    }
}

/// `*** End of File`: the old lines end the file, blank lines after them forgiven (up to three),
/// which singles out the last of several places; without the marker the same hunk is ambiguous.
#[test]
fn end_of_file_forgives_blank_lines_after_the_last_place() {
    let mut h = hunk(&["-b", "+c"]);
    h.at_eof = true;
    for (text, want) in [
        (&b"a\nb\na\nb\n\n"[..], &b"a\nb\na\nc\n\n"[..]),
        (b"a\nb\na\nb\n \n\t\n", b"a\nb\na\nc\n \n\t\n"),
        (b"b\r\nb\r\n\r\n", b"b\r\nc\r\n\r\n"),
    ] {
        assert_eq!(
            placed(text, std::slice::from_ref(&h), PatchFormat::Codex)
                .map(|b| String::from_utf8_lossy(&b).into_owned()),
            Ok(String::from_utf8_lossy(want).into_owned()),
            "{:?}",
            String::from_utf8_lossy(text)
        );
    }
    h.at_eof = false;
    assert_eq!(placed(b"a\nb\na\nb\n\n", &[h], PatchFormat::Codex), Err("ambiguous"));
}

/// The names results give each way a hunk's place was decided (part of the result contract).
#[test]
fn each_way_of_placing_has_its_documented_name() {
    use super::How;
    let names: Vec<&str> = [
        How::Unique,
        How::Anchor(0),
        How::AfterPrevious,
        How::LineHint(1),
        How::AfterAnchor(0),
        How::EndOfFile,
        How::StartOfFile,
    ]
    .into_iter()
    .map(How::name)
    .collect();
    assert_eq!(
        names,
        [
            "unique",
            "anchor",
            "after_previous_hunk",
            "line_hint",
            "after_anchor",
            "end_of_file",
            "start_of_file"
        ]
    );
}

/// `hunks` placed under `format`'s rules with `loosest` the loosest tier: the new text (as a string,
/// for readable diffs) or the failure's kind.
fn placed_up_to(text: &[u8], hunks: &[Hunk], format: PatchFormat, loosest: Tier) -> Result<String, &'static str> {
    place(text, hunks, &Rules::new(format, loosest))
        .map(|p| String::from_utf8_lossy(&p.text).into_owned())
        .map_err(|f| kind(&f.kind))
}

/// Unified-diff rules (ordered, fuzz 2, byte-exact first) over `hunks`, every tier allowed.
fn unified(text: &[u8], hunks: &[Hunk]) -> Result<String, &'static str> {
    placed_up_to(text, hunks, PatchFormat::Unified, loosest())
}

/// `hunks` placed under `format`'s rules: the new text and how each hunk's place was decided, or
/// the failure's kind.
fn placed_how(text: &[u8], hunks: &[Hunk], format: PatchFormat) -> Result<(String, Vec<super::How>), &'static str> {
    place(text, hunks, &Rules::new(format, loosest()))
        .map(|p| {
            let hows = p.hunks.iter().map(|h| h.how).collect();
            (String::from_utf8_lossy(&p.text).into_owned(), hows)
        })
        .map_err(|f| kind(&f.kind))
}

/// A hunk with a line hint (the one-based old start its header claims).
fn hinted(body: &[&str], hint: usize) -> Hunk {
    Hunk {
        hint: Some(hint),
        ..hunk(body)
    }
}

/// The batched first pass (`Placer::locate_all`) takes exactly the hunks that search the whole file
/// (no anchor but blank ones, not `*** End of File`, some old line), and gives each its first line
/// and line count; one such hunk alone, or places that overlap, are left to the search per hunk.
/// (The batch decides nothing the search per hunk would not: this pins that it runs at all, which
/// only the cost of many hunks would show otherwise.)
#[test]
fn the_batched_pass_takes_the_hunks_that_search_the_whole_file() {
    use super::Placer;
    let text = b"a\nb\nc\nd\ne\nf\n";
    let rules = Rules::new(PatchFormat::Codex, loosest());
    let mut placer = Placer {
        lines: Lines::new(text),
        rules: &rules,
        prev_end: None,
        offset: 0,
    };
    let mut anchored = hunk(&["-c", "+C"]);
    anchored.anchors = vec!["a".to_string()];
    let mut blank_anchor = hunk(&["-d", "+D"]);
    blank_anchor.anchors = vec!["  ".to_string()];
    let mut eof = hunk(&["-f", "+F"]);
    eof.at_eof = true;
    let hunks = [
        hunk(&[" a", "-b", "+B"]),
        anchored,
        blank_anchor,
        eof,
        hunk(&["+new"]),
        hunk(&["-e"]),
    ];
    assert_eq!(
        placer.locate_all(&hunks),
        [Some((0, 2)), None, Some((3, 1)), None, None, Some((4, 1))]
    );
    // Places that touch are not an overlap.
    assert_eq!(
        placer.locate_all(&[hunk(&["-a", "+A"]), hunk(&["-b", "+B"])]),
        [Some((0, 1)), Some((1, 1))]
    );
    // Nothing to batch: one hunk, places that overlap, a line found twice.
    assert_eq!(placer.locate_all(&[hunk(&["-b", "+B"])]), []);
    assert_eq!(
        placer.locate_all(&[hunk(&["-a", "-b", "+x"]), hunk(&["-b", "-c", "+y"])]),
        []
    );
    let twice = b"a\nb\na\n";
    let mut placer = Placer {
        lines: Lines::new(twice),
        ..placer
    };
    assert_eq!(placer.locate_all(&[hunk(&["-a", "+A"]), hunk(&["-b", "+B"])]), []);
}

/// An anchored hunk whose old lines stand once in the file, but before the anchor: not found (the
/// anchor narrows the search), with a second hunk that could have batched them both.
#[test]
fn an_anchor_after_the_only_place_is_not_skipped_by_the_batch() {
    let text = b"x\nanchor\ny\n";
    let mut anchored = hunk(&["-x", "+X"]);
    anchored.anchors = vec!["anchor".to_string()];
    let hunks = [hunk(&["-y", "+Y"]), anchored];
    assert_eq!(placed(text, &hunks, PatchFormat::Codex), Err("not_found"));
}

/// Hunks come in file order: a hunk found at several places takes the one place at or after the
/// previous hunk's last line (here right after it; the previous hunk's own last line, and the line
/// before, read the same).
#[test]
fn the_next_place_after_the_previous_hunk_is_taken() {
    use super::How;
    let text = b"c\na\nc\nc\n";
    let hunks = [hunk(&[" a", "-c", "+C"]), hunk(&["-c", "+D"])];
    assert_eq!(
        placed_how(text, &hunks, PatchFormat::Codex),
        Ok(("c\na\nC\nD\n".to_string(), vec![How::Unique, How::AfterPrevious]))
    );
    // (A unified diff's byte-exact pass, as `git apply`, only looks after the previous hunk.)
    assert_eq!(unified(text, &hunks), Ok("c\na\nC\nD\n".to_string()));
    // Blocks are unordered: the same second block is ambiguous.
    assert_eq!(placed(text, &hunks, PatchFormat::SearchReplace), Err("ambiguous"));
}

/// How far off a hunk's line number was carries to the next hunk: here the file has a line the
/// patch does not count before the first hunk, whose leading context line is not in the file either
/// (fuzz leaves it out, and it still counts for where the hunk claimed to start). The second hunk's
/// line is at two adjacent places after the first; only the carried offset puts its line number
/// exactly on one of them.
#[test]
fn a_line_number_off_by_some_lines_carries_to_the_next_hunk() {
    use super::How;
    let text = b"h0\nh1\nh2\none\np\nx\nx\nq\n";
    let first = hinted(&[" WRONG", "-one", "+ONE"], 2);
    let want = "h0\nh1\nh2\nONE\np\ny\nx\nq\n";
    assert_eq!(
        placed_how(text, &[first.clone(), hinted(&["-x", "+y"], 5)], PatchFormat::Unified),
        Ok((want.to_string(), vec![How::Unique, How::LineHint(5)]))
    );
    // The second place, one line on, with its own number one line on.
    assert_eq!(
        unified(text, &[first.clone(), hinted(&["-x", "+y"], 6)]),
        Ok("h0\nh1\nh2\nONE\np\nx\ny\nq\n".into())
    );
    // Without the first hunk's offset, the number is a line before both places: ambiguous.
    assert_eq!(unified(text, &[hinted(&["-x", "+y"], 5)]), Err("ambiguous"));
}

/// A line number counts the leading context lines that fuzz leaves out: the old lines then start
/// that many lines later, here on the first of two adjacent places.
#[test]
fn a_line_number_counts_the_context_fuzz_left_out() {
    let text = b"a\nb\nc\nx\nx\nd\n";
    assert_eq!(
        unified(text, &[hinted(&[" WRONG", "-x", "+y"], 3)]),
        Ok("a\nb\nc\ny\nx\nd\n".into())
    );
    assert_eq!(
        unified(text, &[hinted(&[" WRONG", "-x", "+y"], 4)]),
        Ok("a\nb\nc\nx\ny\nd\n".into())
    );
}

/// The last thing tried is the hunk without the blank context lines at its ends (models add an
/// empty line around a block that the file does not have); other context lines are never left
/// out that way, and a blank line the hunk removes is kept. (With the text tiers only: the
/// line-based ones pass over blank lines anyway.)
#[test]
fn blank_context_at_the_ends_is_left_out_last() {
    let text = b"fn a() {\n    x();\n}\n";
    for format in [PatchFormat::Codex, PatchFormat::SearchReplace] {
        let with = |body: &[&str], tier: Tier| placed_up_to(text, &[hunk(body)], format, tier);
        let want = Ok("fn a() {\n    y();\n}\n".to_string());
        for tier in [Tier::Unicode, loosest()] {
            assert_eq!(with(&[" ", "-    x();", "+    y();", " "], tier), want, "{format:?}");
            assert_eq!(with(&["-    x();", "+    y();", " "], tier), want, "{format:?}");
            // A context line the file does not have is not left out (no fuzz in these formats).
            assert_eq!(
                with(&[" fn b() {", "-    x();", "+    y();"], tier),
                Err("not_found"),
                "{format:?}"
            );
            // A hunk of blank context lines alone changes nothing and is nowhere.
            assert_eq!(with(&[" ", " "], tier), Err("not_found"), "{format:?}");
        }
        // A blank line the hunk removes must be there.
        assert_eq!(
            with(&["-", "-    x();", "+    y();"], Tier::Unicode),
            Err("not_found"),
            "{format:?}"
        );
    }
}

/// An added line keeps a line-number prefix of another style than the read view's (it is text the
/// model means, such as a table row), while one of the same style is left out.
#[test]
fn an_added_line_numbered_in_another_style_is_kept() {
    let text = b"fn a() {\n    x();\n}\n";
    assert_eq!(
        placed(
            text,
            &[hunk(&["-2\t    x();", "+    3 | y();"])],
            PatchFormat::SearchReplace
        ),
        Ok(b"fn a() {\n    3 | y();\n}\n".to_vec())
    );
    assert_eq!(
        placed(
            text,
            &[hunk(&["-2\t    x();", "+2\t    y();"])],
            PatchFormat::SearchReplace
        ),
        Ok(b"fn a() {\n    y();\n}\n".to_vec())
    );
}

/// The line-based pass runs when the loosest tier allowed reaches it, and no further than runs of
/// whitespace: a line the model misspelled is not placed (patches state their old lines; the typo
/// tiers are for `edit`).
#[test]
fn the_line_based_pass_stops_at_whitespace_runs() {
    let text = b"a\nlet  x  =  1;\nb\n";
    let body = ["-let x = 1;", "+let x = 2;"];
    let with = |tier: Tier| placed_up_to(text, &[hunk(&body)], PatchFormat::Codex, tier);
    let want = with(Tier::WhitespaceRuns).expect("placed by the line-based pass");
    assert!(want.starts_with("a\nlet  x  =  2;"), "{want:?}");
    assert_eq!(with(loosest()), Ok(want));
    assert_eq!(with(Tier::Unicode), Err("not_found"));
    let typo = hunk(&["-let  x  =  l;", "+let  x  =  2;"]);
    assert_eq!(placed(text, &[typo], PatchFormat::Codex), Err("not_found"));
}

/// A unified hunk that only adds lines and carries CRs, with a line number but no anchor, is
/// refused as it is without CRs (no place is said), never put at a line start the byte-exact pass
/// happens to find.
#[test]
fn lines_only_added_carrying_cr_are_not_placed_byte_for_byte() {
    let text = b"a\r\nb\r\n";
    assert_eq!(unified(text, &[hinted(&["+n\r"], 2)]), Err("other"));
    assert_eq!(unified(text, &[hinted(&["+n"], 2)]), Err("other"));
}

/// New lines end with a line break unless they end the file and the hunk (or the file's own state)
/// says not: a hunk that deletes all its lines writes nothing in their place, and a `\ No newline`
/// marker on a hunk that does not reach the end of the file changes no line break.
#[test]
fn the_final_line_break_of_new_lines() {
    for text in [&b"a\nb\nc\n"[..], b"a\nb\nc"] {
        for format in [PatchFormat::Codex, PatchFormat::SearchReplace, PatchFormat::Unified] {
            let got = placed(text, &[hunk(&["-b"])], format);
            assert_eq!(got.as_deref(), Ok(&[b"a\n", &text[4..]].concat()[..]), "{format:?}");
        }
    }
    let mut marked = hunk(&["-b", "+B"]);
    marked.final_newline = Some(false);
    assert_eq!(unified(b"a\nb\nc\n", &[marked.clone()]), Ok("a\nB\nc\n".into()));
    // The same off the byte-exact pass: with fuzz, and under other rules.
    let mut fuzzed = hunk(&[" WRONG", "-b", "+B"]);
    fuzzed.final_newline = Some(false);
    assert_eq!(unified(b"a\nb\nc\n", &[fuzzed]), Ok("a\nB\nc\n".into()));
    assert_eq!(
        placed(b"a\nb\nc\n", &[marked.clone()], PatchFormat::Codex),
        Ok(b"a\nB\nc\n".to_vec())
    );
    assert_eq!(unified(b"a\nb\n", &[marked.clone()]), Ok("a\nB".into()));
    marked.final_newline = Some(true);
    assert_eq!(unified(b"a\nb", &[marked.clone()]), Ok("a\nB\n".into()));
    marked.final_newline = None;
    assert_eq!(unified(b"a\nb", &[marked.clone()]), Ok("a\nB".into()));
    assert_eq!(unified(b"a\nb\n", &[marked]), Ok("a\nB\n".into()));
}

/// `*** End of File` is tried at the end first, within the search the anchors leave: old lines that
/// are the whole file, or that start on the anchor line, are placed there (and say so); old lines
/// longer than the file, or that would start before the anchor line, are not.
#[test]
fn end_of_file_is_tried_within_the_anchors_search() {
    use super::How;
    let codex = Rules::new(PatchFormat::Codex, loosest());
    let how = |text: &[u8], h: &Hunk| place(text, std::slice::from_ref(h), &codex).map(|p| (p.text, p.hunks[0].how));
    let mut whole = hunk(&[" a", "-b", "+B"]);
    whole.at_eof = true;
    assert_eq!(how(b"a\nb\n", &whole), Ok((b"a\nB\n".to_vec(), How::EndOfFile)));
    assert_eq!(how(b"a\nb\n\n", &whole), Ok((b"a\nB\n\n".to_vec(), How::EndOfFile)));
    let mut longer = hunk(&[" z", " a", "-b", "+B"]);
    longer.at_eof = true;
    assert_eq!(how(b"a\nb\n", &longer).map_err(|f| kind(&f.kind)), Err("not_found"));
    let mut anchored = hunk(&[" anchor", "-b", "+B"]);
    anchored.at_eof = true;
    anchored.anchors = vec!["anchor".to_string()];
    assert_eq!(
        how(b"a\nanchor\nb\n", &anchored),
        Ok((b"a\nanchor\nB\n".to_vec(), How::EndOfFile))
    );
    let mut before = hunk(&[" a", " anchor", "-b", "+B"]);
    before.at_eof = true;
    before.anchors = vec!["anchor".to_string()];
    assert_eq!(
        how(b"a\nanchor\nb\n", &before).map_err(|f| kind(&f.kind)),
        Err("not_found")
    );
}

/// The line-based pass decides among several places as the text pass does (here the one after the
/// previous hunk, the other line with the same runs of whitespace before it), writes on the lines
/// of the place chosen, says how it was chosen and, for a hunk that changes nothing there, says
/// that.
#[test]
fn the_line_based_pass_takes_the_place_after_the_previous_hunk() {
    use super::How;
    let text = b"let  x  =  1;\nmid\nlet  x  =  1;\nend\n";
    let hunks = [hunk(&["-mid", "+MID"]), hunk(&["-let x = 1;", "+let x = 2;"])];
    assert_eq!(
        placed_how(text, &hunks, PatchFormat::Codex),
        Ok((
            "let  x  =  1;\nMID\nlet  x  =  2;\nend\n".to_string(),
            vec![How::Unique, How::AfterPrevious]
        ))
    );
    let third = b"let  x  =  1;\nmid\nlet  x  =  1;\nlet  x  =  1;\n";
    assert_eq!(placed_how(third, &hunks, PatchFormat::Codex), Err("ambiguous"));
    let mut anchored = hunk(&["-let x = 1;", "+let x = 2;"]);
    anchored.anchors = vec!["mid".to_string()];
    assert_eq!(
        placed_how(text, &[anchored], PatchFormat::Codex),
        Ok((
            "let  x  =  1;\nmid\nlet  x  =  2;\nend\n".to_string(),
            vec![How::Anchor(1)]
        ))
    );
    let unchanged = [hunk(&["-mid", "+MID"]), hunk(&["-let x = 1;", "+let x = 1;"])];
    assert_eq!(placed_how(text, &unchanged, PatchFormat::Codex), Err("no_change"));
}

/// Among places listed only in part (more than `MAX_LISTED`), none is picked: the one listed after
/// the previous hunk need not be the only one after it.
#[test]
fn places_listed_in_part_are_not_chosen_among() {
    let mut text = "x\n".repeat(surgical_core::MAX_LISTED - 1);
    text.push_str("mid\nx\nx\nx\n");
    let hunks = [hunk(&["-mid", "+MID"]), hunk(&["-x", "+y"])];
    assert_eq!(placed(text.as_bytes(), &hunks, PatchFormat::Codex), Err("ambiguous"));
    // Listed in full, the same order picks nothing either (three places after the previous hunk),
    // and a single place after it is taken.
    let short = b"x\nmid\nx\nz\n";
    assert_eq!(
        placed(short, &hunks, PatchFormat::Codex),
        Ok(b"x\nMID\ny\nz\n".to_vec())
    );
}

/// A line number picks a place only when it is at least twice as near as any other, among the
/// places after the previous hunk when there are some, else among all.
#[test]
fn a_line_number_picks_a_place_twice_as_near() {
    let text = b"a\nb\nx\nx\nd\n";
    // One line before the first place: one line from it, two from the other.
    assert_eq!(unified(text, &[hinted(&["-x", "+y"], 2)]), Err("ambiguous"));
    assert_eq!(unified(text, &[hinted(&["-x", "+y"], 3)]), Ok("a\nb\ny\nx\nd\n".into()));
    // Both places before the previous hunk: the line number decides among all of them.
    let before = b"x\nb\nc\nd\nx\nmid\n";
    let hunks = [hinted(&["-mid", "+MID"], 6), hinted(&["-x", "+y"], 1)];
    assert_eq!(unified(before, &hunks), Ok("y\nb\nc\nd\nx\nMID\n".into()));
    // Two places after the previous hunk and one before, the line number nearest the one before:
    // the two after are the pool, and it is not twice as near either of them.
    let around = b"x\nmid\nq\nx\nr\nx\n";
    let hunks = [hinted(&["-mid", "+MID"], 2), hinted(&["-x", "+y"], 1)];
    assert_eq!(unified(around, &hunks), Err("ambiguous"));
}

/// A hunk not found where it may go says what the whole file holds: the one place (before its
/// anchor), the several places, or the closest region.
#[test]
fn not_found_says_what_the_file_holds_instead() {
    use super::Elsewhere;
    let codex = Rules::new(PatchFormat::Codex, loosest());
    let elsewhere = |text: &[u8], h: Hunk| match place(text, &[h], &codex).map_err(|f| f.kind) {
        Err(FailureKind::NotFound { elsewhere, .. }) => elsewhere,
        other => panic!("{other:?}"),
    };
    let mut before = hunk(&["-x", "+y"]);
    before.anchors = vec!["mid".to_string()];
    assert!(matches!(elsewhere(b"x\nmid\nz\n", before.clone()), Elsewhere::Once(0)));
    assert!(matches!(elsewhere(b"x\nx\nmid\nz\n", before), Elsewhere::Several(l) if l == [0, 1]));
    let missing = hunk(&["-fn alpha_beta() {", "+fn gamma() {"]);
    assert!(matches!(
        elsewhere(b"a\nfn alpha_betx() {\nb\n", missing),
        Elsewhere::Closest(_)
    ));
}

/// The lines each hunk reports (one-based, old text and new text), also for lines added after a
/// last line without a line break, which the hunk's bytes start by ending.
#[test]
fn each_hunk_reports_its_old_and_new_lines() {
    let codex = Rules::new(PatchFormat::Codex, loosest());
    let lines = |text: &[u8], h: Hunk| {
        let p = place(text, &[h], &codex).unwrap();
        (
            String::from_utf8_lossy(&p.text).into_owned(),
            p.hunks[0].old_lines,
            p.hunks[0].new_lines,
        )
    };
    assert_eq!(
        lines(b"a\nb\nc\n", hunk(&["-b", "+B1", "+B2"])),
        ("a\nB1\nB2\nc\n".to_string(), (2, 2), (2, 3))
    );
    assert_eq!(
        lines(b"a\nb\nc\nd\n", hunk(&["-b", "-c", "+B"])),
        ("a\nB\nd\n".to_string(), (2, 3), (2, 2))
    );
    for (text, want) in [(&b"a\nb"[..], "a\nb\nc1\nc2"), (b"a\r\nb", "a\r\nb\r\nc1\r\nc2")] {
        assert_eq!(
            lines(text, hunk(&["+c1", "+c2"])),
            (want.to_string(), (2, 2), (3, 4)),
            "{text:?}"
        );
    }
}

/// An `@@` line found on several whole lines names the only one at or after the previous hunk; one
/// found nowhere says which regions are most like it.
#[test]
fn an_anchor_at_several_lines_is_the_one_after_the_previous_hunk() {
    let text = b"a\nsec\nx\nmid\nsec\nx\n";
    let mut anchored = hunk(&["-x", "+y"]);
    anchored.anchors = vec!["sec".to_string()];
    let hunks = [hunk(&["-mid", "+MID"]), anchored.clone()];
    assert_eq!(
        placed(text, &hunks, PatchFormat::Codex),
        Ok(b"a\nsec\nx\nMID\nsec\ny\n".to_vec())
    );
    assert_eq!(placed(text, &[anchored.clone()], PatchFormat::Codex), Err("ambiguous"));
    let codex = Rules::new(PatchFormat::Codex, loosest());
    anchored.anchors = vec!["fn alpha_beta() {".to_string()];
    let missing = place(b"a\nfn alpha_betx() {\nx\n", &[anchored], &codex).unwrap_err();
    assert!(
        matches!(missing.kind, FailureKind::AnchorNotFound { closest: Some(_), .. }),
        "{:?}",
        missing.kind
    );
}

/// Lines added to an empty file are its whole text, with a final line break unless the hunk says
/// not.
#[test]
fn lines_added_to_an_empty_file() {
    let mut h = hunk(&["+a", "+b"]);
    for (final_newline, want) in [(None, &b"a\nb\n"[..]), (Some(true), b"a\nb\n"), (Some(false), b"a\nb")] {
        h.final_newline = final_newline;
        for format in [PatchFormat::Codex, PatchFormat::Unified] {
            assert_eq!(
                placed(b"", std::slice::from_ref(&h), format),
                Ok(want.to_vec()),
                "{final_newline:?} {format:?}"
            );
        }
    }
}

/// Fuzz leaves out context lines only, never a line the hunk removes or adds, and up to its limit
/// (two) at each end.
#[test]
fn fuzz_leaves_out_context_lines_only() {
    let text = b"a\nb\nc\n";
    assert_eq!(unified(text, &[hunk(&["-X", "-b", "+B", " c"])]), Err("not_found"));
    assert_eq!(unified(text, &[hunk(&[" a", "-b", "+B", "-X"])]), Err("not_found"));
    assert_eq!(
        unified(text, &[hunk(&[" W1", " W2", "-b", "+B", " V1", " V2"])]),
        Ok("a\nB\nc\n".into())
    );
    assert_eq!(
        unified(text, &[hunk(&[" W1", " W2", " W3", "-b", "+B"])]),
        Err("not_found")
    );
}

/// What differed is reported on the lines of the new text where it stands.
#[test]
fn differences_are_reported_on_their_lines_of_the_new_text() {
    let codex = Rules::new(PatchFormat::Codex, loosest());
    let text = b"a\nb\nc  \nd\ne \nf\n";
    let p = place(text, &[hunk(&[" c", "-d", "+D1", "+D2", " e"])], &codex).unwrap();
    assert_eq!(p.text, b"a\nb\nc  \nD1\nD2\ne \nf\n");
    let on: Vec<usize> = p.hunks[0].differences.iter().map(|d| d.line).collect();
    assert_eq!(on, [3, 6], "{:?}", p.hunks[0].differences);
}

/// The new text's line numbers of every hunk counted as before `place_spliced` (over the new text
/// built whole, with a `LineCounter`), for texts whose hunks meet lone CRs, CRLFs and a last line
/// without a terminator at their edges: the count from the old text and the replacements agrees,
/// and `place_spliced` gives `place`'s text and outcomes.
#[test]
fn new_lines_counted_without_the_new_text_agree_with_the_new_text() {
    use surgical_core::lines::LineCounter;
    let texts: [&[u8]; 6] = [
        b"a\nb\nc\nd\ne\nf\n",
        b"a\rb\rc\rd\re\rf\r",
        b"a\r\nb\r\nc\r\nd\r\ne\r\nf\r\n",
        b"a\rb\nc\r\nd\re\nf",
        b"a\n\nb\r\nc\rd\n\ne\rf",
        b"a\r\n\nb\r\r\nc\nd\re\r\nf",
    ];
    let hunk_sets: [&[&[&str]]; 4] = [
        &[&[" a", "-b", "+B", "+B2"], &[" e", "-f", "+F"]],
        &[&["-a", "+A"], &["-c", "+C1", "+C2", "+C3"], &[" e", "+E"]],
        &[&[" b", "-c", "-d"], &["-f", "+F", "+G"]],
        &[&["-b", "-c", "-d", "+x"], &[" e", " f", "+g"]],
    ];
    for text in texts {
        for set in hunk_sets {
            let hunks: Vec<Hunk> = set.iter().map(|h| hunk(h)).collect();
            let rules = Rules::new(PatchFormat::Codex, Tier::WhitespaceRuns);
            let Ok(patched) = place(text, &hunks, &rules) else {
                continue;
            };
            let spliced = super::place_spliced(text, &hunks, &rules).expect("placed as by place");
            assert_eq!(spliced.spliced.text(text), patched.text, "{text:?} {set:?}");
            assert_eq!(spliced.spliced.changes(), &patched.changes[..]);
            let mut counter = LineCounter::new(&patched.text);
            let mut by_order: Vec<_> = patched.hunks.iter().zip(&patched.changes).collect();
            by_order.sort_by_key(|(_, c)| c.new.start);
            for (h, c) in by_order {
                let first_line = counter.line_at(c.new.start);
                assert!(
                    h.new_lines.0 == first_line || h.new_lines.0 == first_line + 1,
                    "{text:?} {set:?}"
                );
                if c.new.len() > 1 {
                    assert_eq!(
                        h.new_lines.1,
                        counter.line_at(c.new.end - 1).max(h.new_lines.0),
                        "{text:?} {set:?}"
                    );
                }
            }
        }
    }
}

/// The old text's lines of the hunks, looked up in the placement's line index, are numbered as the
/// counter numbers them, at every position, the end and past it included, whatever the terminators
/// and whether the last line has one.
#[test]
fn old_lines_looked_up_in_the_index_are_the_counted_ones() {
    use super::OldLines;
    use surgical_core::lines::{LineCounter, LineIndex};
    let texts: [&[u8]; 9] = [
        b"",
        b"a",
        b"\n",
        b"\r",
        b"\r\n",
        b"a\nb\r\nc\rd",
        b"a\r\n\nb\r\r\nc\nd\re\r\nf\r",
        b"\r\r\n\n\r",
        b"x\n\ny",
    ];
    for text in texts {
        let index = LineIndex::new(text);
        let mut indexed = OldLines::Indexed(text, &index);
        let mut counted = OldLines::Counted(LineCounter::new(text));
        for at in 0..=text.len() + 2 {
            assert_eq!(indexed.line_at(at), counted.line_at(at), "{text:?} at {at}");
        }
    }
}
