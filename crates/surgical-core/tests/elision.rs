//! The `elision` tier: an `oldText` whose middle is left out with a marker line that `newText` keeps
//! at the same place.
//!
//! Examples (what is placed, what is refused and why), then properties over arbitrary files: for
//! any file (mixed line endings, invalid UTF-8, lines that look like markers), an `oldText` made of
//! a window's pieces and marker lines between them, and a `newText` that changes one line of a piece,
//! the result is the file with exactly that change — computed here from the file's own lines, never
//! from ranges the engine reports — or a refusal.

use proptest::prelude::*;
use surgical_core::{apply, ChangeSet, Edit, EditError, ElisionProblem, Forgiven, Haystack, Options, Scope, Tier};

fn edit(file: &str, old: &str, new: &str) -> Result<String, EditError> {
    apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).map(|a| String::from_utf8(a.text).unwrap())
}

const FILE: &str = "\
use std::io;

fn first() {
    let a = 1;
    let b = 2;
    let c = 3;
    let d = 4;
    println!(\"{a} {b} {c} {d}\");
}

fn second() -> u32 {
    let x = 10;
    let y = 20;
    x + y
}
";

#[test]
fn head_and_tail_around_an_elision() {
    for marker in [
        "...",
        "    // ...",
        "    // ... existing code ...",
        "/* ... */",
        "    # ...",
        "<!-- ... -->",
        "-- ...",
        "\t…",
    ] {
        let old = format!("fn first() {{\n    let a = 1;\n{marker}\n    println!(\"{{a}} {{b}} {{c}} {{d}}\");\n}}\n");
        let new =
            format!("fn first() {{\n    let a = 100;\n{marker}\n    println!(\"{{a}} {{b}} {{c}} {{d}}!\");\n}}\n");
        let out = edit(FILE, &old, &new).unwrap_or_else(|e| panic!("{marker}: {e}"));
        assert_eq!(
            out,
            FILE.replace("let a = 1;", "let a = 100;")
                .replace("{d}\");", "{d}!\");"),
            "{marker}"
        );
    }
}

#[test]
fn tier_and_forgiven_lines() {
    let old = "    let a = 1;\n    // ... existing code ...\n    let d = 4;\n";
    let new = "    let a = 1;\n    // ... existing code ...\n    let d = 40;\n";
    let a = apply(FILE.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Elision);
    assert_eq!(a.edits[0].occurrences.len(), 1);
    assert_eq!(a.edits[0].occurrences[0].old_lines, (4, 7));
    let Some(Forgiven::Elided { markers, also }) = a.edits[0].differences.iter().find_map(|d| match &d.kind {
        surgical_core::DifferenceKind::Forgiven(f) => Some(f.clone()),
        _ => None,
    }) else {
        panic!("no forgiven: {:?}", a.edits[0].differences)
    };
    // Reported once, on the occurrence's first line (the first piece's), not on a later piece's.
    let forgiven: Vec<usize> = a.edits[0]
        .differences
        .iter()
        .filter(|d| matches!(d.kind, surgical_core::DifferenceKind::Forgiven(_)))
        .map(|d| d.line)
        .collect();
    assert_eq!(forgiven, vec![4]);
    assert_eq!(markers.len(), 1);
    assert_eq!((markers[0].first, markers[0].count), (5, 2));
    assert_eq!(markers[0].marker, "// ... existing code ...");
    assert_eq!(markers[0].needle_line, 2);
    assert!(also.is_empty());
    // Strict tiers only: not found.
    let strict = Options::new().loosest_tier(Tier::Escapes);
    let e = apply(FILE.as_bytes(), &[Edit::new(old, new)], &strict).unwrap_err();
    assert_eq!(e.code(), "not_found");
}

#[test]
fn several_markers_and_pieces_found_by_looser_tiers() {
    // Head re-indented, a middle piece with a typographic quote in the file, CRLF everywhere.
    let file = "fn f() {\r\n\tlet a = 1;\r\n\tlet b = 2;\r\n\tlet s = \u{201C}x\u{201D};\r\n\tlet c = 3;\r\n\tlet d = 4;\r\n}\r\n";
    let old = "fn f() {\n    let a = 1;\n    // ...\n    let s = \"x\";\n    // ...\n    let d = 4;\n}\n";
    let new = "fn f() {\n    let a = 10;\n    // ...\n    let s = \"y\";\n    // ...\n    let d = 4;\n}\n";
    let out = edit(file, old, new).unwrap();
    assert_eq!(
        out,
        "fn f() {\r\n\tlet a = 10;\r\n\tlet b = 2;\r\n\tlet s = \u{201C}y\u{201D};\r\n\tlet c = 3;\r\n\tlet d = 4;\r\n}\r\n"
    );
}

#[test]
fn lines_around_the_marker_may_be_deleted_or_added() {
    let old = "fn second() -> u32 {\n    let x = 10;\n    ...\n    x + y\n}\n";
    let new = "fn second() -> u32 {\n    ...\n    x + y + 1\n}\n";
    assert_eq!(
        edit(FILE, old, new).unwrap(),
        FILE.replace(
            "    let x = 10;\n    let y = 20;\n    x + y\n",
            "    let y = 20;\n    x + y + 1\n"
        )
    );
    let new = "fn second() -> u32 {\n    let x = 10;\n    let w = 0;\n    ...\n    x + y\n}\n";
    assert_eq!(
        edit(FILE, old, new).unwrap(),
        FILE.replace("let x = 10;\n", "let x = 10;\n    let w = 0;\n")
    );
}

fn elision_problem(e: EditError) -> (usize, ElisionProblem) {
    match e {
        EditError::Elision { line, problem, .. } => (line, problem),
        other => panic!("not an elision error: {other:?}"),
    }
}

#[test]
fn refusals() {
    // The head occurs twice before the tail, and the model changes it.
    let old = "    let a = 1;\n    // ...\n    x + y\n";
    let file = FILE.replace("let y = 20;", "let a = 1;");
    let e = edit(&file, old, &old.replace("x + y", "x - y").replace("a = 1", "a = 2")).unwrap_err();
    assert_eq!(e.code(), "ambiguous");
    assert!(matches!(
        elision_problem(e),
        (
            2,
            ElisionProblem::Ambiguous {
                lines: (1, 1),
                total: 2,
                ..
            }
        )
    ));

    // The tail is found only before the head.
    let old = "    x + y\n    // ...\n    let a = 1;\n";
    let e = edit(FILE, old, &old.replace("x + y", "x - y")).unwrap_err();
    assert_eq!(e.code(), "not_found");
    assert!(matches!(
        elision_problem(e),
        (
            2,
            ElisionProblem::OutOfOrder {
                lines: (3, 3),
                at: 4,
                previous_ends: 14
            }
        )
    ));

    // A piece is missing.
    let old = "    let a = 1;\n    // ...\n    let e = 5;\n";
    let e = edit(FILE, old, &old.replace("let a", "let z")).unwrap_err();
    assert!(matches!(
        elision_problem(e),
        (2, ElisionProblem::NotFound { lines: (3, 3) })
    ));

    // A middle piece out of order.
    let old = "fn first() {\n...\n    let d = 4;\n...\n    let b = 2;\n...\n    x + y\n";
    let e = edit(FILE, old, &old.replace("x + y", "x - y")).unwrap_err();
    assert!(matches!(
        elision_problem(e),
        (4, ElisionProblem::OutOfOrder { lines: (5, 5), .. })
    ));

    // A marker with nothing of the file on one side.
    for old in [
        "// ...\n    let a = 1;\n",
        "    let a = 1;\n// ...\n",
        "let a = 1;\n...\n...\nx + y\n",
    ] {
        let e = edit(FILE, old, &old.replace("a = 1", "a = 2")).unwrap_err();
        assert!(matches!(elision_problem(e).1, ElisionProblem::Unanchored), "{old}");
    }

    // The marker only in oldText: the lines it stands for would be deleted unseen.
    let old = "    let a = 1;\n    // ...\n    let d = 4;\n";
    let e = edit(FILE, old, "    let a = 1;\n    let d = 4;\n").unwrap_err();
    assert_eq!(e.code(), "placeholder");
    assert!(matches!(
        elision_problem(e),
        (2, ElisionProblem::MarkersDiffer { old: 1, new: 0 })
    ));
    // A marker only in newText is the placeholder error.
    let e = edit(FILE, "    let a = 1;\n", "    let a = 1;\n    // ...\n").unwrap_err();
    assert!(matches!(e, EditError::Placeholder { .. }), "{e:?}");
}

/// Two readings place a piece the model changes differently only if the piece has two places in
/// order with the rest: a piece found several times in the file but once where the other pieces
/// allow is placed there.
#[test]
fn order_decides_between_occurrences_of_a_piece() {
    // The tail `}` closes both functions: only the second one comes after the head.
    let old = "fn second() -> u32 {\n    // ...\n}\n";
    let new = "fn second() -> u32 {\n    // ...\n} // second\n";
    assert_eq!(
        edit(FILE, old, new).unwrap(),
        FILE.replace("    x + y\n}\n", "    x + y\n} // second\n")
    );
    // The head `}` (weak, two occurrences): only the first one comes before the tail.
    let old = "}\n...\n    x + y\n";
    let new = "} // first\n...\n    x - y\n";
    assert_eq!(
        edit(FILE, old, new).unwrap(),
        FILE.replace("}\n\nfn second", "} // first\n\nfn second")
            .replace("x + y", "x - y")
    );
    // A middle piece found twice in the file but once between its neighbours.
    let file = FILE.replace("    x + y\n", "    let b = 2;\n    x + y\n");
    let old = "fn first() {\n    // ...\n    let b = 2;\n    // ...\n}\n\nfn second() -> u32 {\n";
    let new = old.replace("let b = 2;", "let b = 22;");
    assert_eq!(
        edit(&file, old, &new).unwrap(),
        file.replacen("let b = 2;", "let b = 22;", 1)
    );
}

/// A piece with several places in order that the model keeps as it is: every reading writes the
/// same bytes, so the edit is placed (the piece taken nearest the others); changed, it is refused.
#[test]
fn a_repeated_piece_the_model_keeps_does_not_decide() {
    // The head occurs twice before the tail.
    let file = FILE.replace("let y = 20;", "let a = 1;");
    let old = "    let a = 1;\n    // ...\n    x + y\n";
    let out = edit(&file, old, &old.replace("x + y", "x - y")).unwrap();
    assert_eq!(out, file.replace("x + y", "x - y"));
    let e = edit(&file, old, &old.replace("a = 1", "a = 2")).unwrap_err();
    assert_eq!(e.code(), "ambiguous");
    assert!(matches!(
        elision_problem(e),
        (
            2,
            ElisionProblem::Ambiguous {
                lines: (1, 1),
                total: 2,
                ..
            }
        )
    ));

    // A weak head (`}` and a blank line, 1 time in 2 before the tail), kept: the nearest one; the
    // lines between it and the tail stay as they are.
    let file = format!("{FILE}\nfn third() {{\n    let z = 0;\n}}\n");
    let old = "}\n\n// ...\n    let z = 0;\n";
    let a = apply(
        file.as_bytes(),
        &[Edit::new(old, old.replace("z = 0", "z = 1"))],
        &Options::new(),
    )
    .unwrap();
    assert_eq!(String::from_utf8(a.text).unwrap(), file.replace("z = 0", "z = 1"));
    assert_eq!(a.edits[0].occurrences[0].old_lines.0, 15);

    // The tail occurs twice after the head: kept, placed; changed, refused.
    let old = "fn first() {\n    // ...\n}\n";
    let new = "fn first() -> () {\n    // ...\n}\n";
    assert_eq!(
        edit(FILE, old, new).unwrap(),
        FILE.replace("fn first() {", "fn first() -> () {")
    );
    let e = edit(FILE, old, &old.replace("}\n", "} // end\n")).unwrap_err();
    assert!(matches!(
        elision_problem(e),
        (
            2,
            ElisionProblem::Ambiguous {
                lines: (3, 3),
                total: 2,
                ..
            }
        )
    ));

    // A middle piece twice between its neighbours.
    let file = FILE.replace("let c = 3;", "let b = 2;");
    let old = "fn first() {\n    // ...\n    let b = 2;\n    // ...\n    println!(\"{a} {b} {c} {d}\");\n";
    let new = old.replace("{d}\")", "{d}!\")");
    assert_eq!(edit(&file, old, &new).unwrap(), file.replace("{d}\")", "{d}!\")"));
    let e = edit(&file, old, &old.replace("let b = 2;", "let b = 3;")).unwrap_err();
    assert!(matches!(
        elision_problem(e),
        (
            2,
            ElisionProblem::Ambiguous {
                lines: (3, 3),
                total: 2,
                ..
            }
        )
    ));
}

/// An occurrence inside a line is passed over to the next line, whatever ends the line (here a lone
/// CR): the tail `b` at line 4 is not skipped, so it and line 6 are two places for a changed piece.
#[test]
fn a_lone_cr_ends_the_line_an_occurrence_is_passed_over_in() {
    let file = "let\n\nab\rb\n\nb\n";
    let e = edit(file, "let\n...\nb\n", "let\n...\nc\n").unwrap_err();
    assert_eq!(e.code(), "ambiguous", "{e:?}");
}

#[test]
fn a_marker_that_is_code_is_code() {
    let file = "class A:\n    def f(self):\n        ...\n\n    def g(self):\n        return 1\n";
    let old = "    def f(self):\n        ...\n";
    let new = "    def f(self):\n        return 0\n";
    assert_eq!(
        edit(file, old, new).unwrap(),
        file.replace("        ...\n\n", "        return 0\n\n")
    );
    // Kept on both sides where the file has it: exact, not an elision.
    let old = "    def f(self):\n        ...\n\n    def g(self):\n";
    let new = "    def f(self):\n        ...\n\n    def g(self, x):\n";
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Exact);
}

#[test]
fn other_edits_may_not_touch_the_elided_lines() {
    let old = "    let a = 1;\n    // ...\n    let d = 4;\n";
    let edits = [
        Edit::new(old, old.replace("let d = 4", "let d = 5")),
        Edit::new("let c = 3;", "let c = 30;"),
    ];
    let e = apply(FILE.as_bytes(), &edits, &Options::new()).unwrap_err();
    assert_eq!(e.code(), "overlap");
    // Outside, they may.
    let edits = [
        Edit::new(old, old.replace("let d = 4", "let d = 5")),
        Edit::new("let x = 10;", "let x = 11;"),
    ];
    let a = apply(FILE.as_bytes(), &edits, &Options::new()).unwrap();
    assert_eq!(
        String::from_utf8(a.text).unwrap(),
        FILE.replace("let d = 4", "let d = 5")
            .replace("let x = 10", "let x = 11")
    );
}

#[test]
fn staged_api_find_then_replace() {
    let hay = Haystack::new(FILE.as_bytes());
    let old = "fn first() {\n// ...\n}\n\nfn second() -> u32 {\n";
    let found = hay.find(old, &Scope::everywhere(), Tier::DEFAULT_LOOSEST).unwrap();
    assert_eq!(found.tier, Tier::Elision);
    let mut changes = ChangeSet::new(&hay);
    changes
        .replace(&found, "fn first() {\n// ...\n}\n\nfn second() -> u64 {\n")
        .unwrap();
    let out = changes.apply().unwrap();
    assert_eq!(String::from_utf8(out.text).unwrap(), FILE.replace("-> u32", "-> u64"));
}

// ---------------------------------------------------------------------------------------------
// Properties.

/// A file line's content: words from a small vocabulary (so lines repeat now and then), blanks,
/// non-ASCII, invalid UTF-8, and lines that look like markers.
fn content() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec!["let", "x", "foo", "bar", "baz", "qux", "=", "1;", "{", "}", "(a, b)"])
            .prop_map(|w| w.as_bytes().to_vec()),
        2 => "[a-z]{1,8}".prop_map(|w| w.into_bytes()),
        1 => Just(b" ".to_vec()),
        1 => Just(b"\t".to_vec()),
        1 => Just("\u{201C}q\u{201D} \u{2014} \u{a0}".as_bytes().to_vec()),
        1 => Just(b"\xff\xfe".to_vec()),
        1 => Just(b"...".to_vec()),
        1 => Just(b"// ...".to_vec()),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|v| v.concat())
}

fn terminator() -> impl Strategy<Value = &'static [u8]> {
    prop::sample::select(vec![&b"\n"[..], b"\n", b"\r\n", b"\r"])
}

/// The file's lines as the line model reads them: content and terminator (`\r\n`, `\r`, `\n`).
fn split(file: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < file.len() {
        let mut e = at;
        while e < file.len() && file[e] != b'\n' && file[e] != b'\r' {
            e += 1;
        }
        let t = if file[e..].starts_with(b"\r\n") {
            2
        } else {
            usize::from(e < file.len())
        };
        out.push((file[at..e].to_vec(), file[e..e + t].to_vec()));
        at = e + t;
    }
    out
}

#[derive(Debug, Clone)]
struct Case {
    file: Vec<u8>,
    /// First line of the window, and the lengths of its pieces and gaps, alternating (piece, gap,
    /// piece, ...).
    start: usize,
    segments: Vec<usize>,
    markers: Vec<&'static str>,
    /// Which line of the pieces (counted over the pieces only) changes, and how.
    target: prop::sample::Index,
    delete: bool,
    old_ends_with_newline: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec((content(), terminator()), 3..40),
        prop::option::of(Just(())),
        any::<prop::sample::Index>(),
        prop::collection::vec(1usize..4, 2..4),
        prop::collection::vec(0usize..5, 1..3),
        prop::collection::vec(
            prop::sample::select(vec![
                "...",
                "// ...",
                "    // ... existing code ...",
                "# ...",
                "/* ... */",
                "<!-- ... -->",
                "-- ...",
                "  (rest of methods ...)",
            ]),
            2,
        ),
        any::<prop::sample::Index>(),
        any::<bool>(),
        any::<bool>(),
        (0usize..3, any::<prop::sample::Index>()),
    )
        .prop_map(
            |(mut lines, open_end, start, pieces, gaps, markers, target, delete, old_ends_with_newline, copy)| {
                let n = pieces.len().min(gaps.len() + 1);
                let mut segments = Vec::new();
                for k in 0..n {
                    segments.push(pieces[k]);
                    if k + 1 < n {
                        segments.push(gaps[k]);
                    }
                }
                let mut start = start.index(lines.len());
                // A copy of the first (1) or last (2) piece elsewhere in the file: only the order of
                // the pieces, or the model keeping the piece as it is, may place the edit then.
                let total: usize = segments.iter().sum();
                if copy.0 > 0 && start + total <= lines.len() {
                    let len = if copy.0 == 1 {
                        segments[0]
                    } else {
                        segments[segments.len() - 1]
                    };
                    let from = if copy.0 == 1 { start } else { start + total - len };
                    let at = copy.1.index(lines.len() + 1);
                    let run: Vec<_> = lines[from..from + len].to_vec();
                    lines.splice(at..at, run);
                    if at <= start {
                        start += len;
                    }
                }
                let mut file = Vec::new();
                for (k, (content, eol)) in lines.iter().enumerate() {
                    file.extend_from_slice(content);
                    if k + 1 < lines.len() || open_end.is_none() {
                        file.extend_from_slice(eol);
                    }
                }
                Case {
                    file,
                    start,
                    segments,
                    markers,
                    target,
                    delete,
                    old_ends_with_newline,
                }
            },
        )
}

/// The engine's result for a case, and the expected text.
type Outcome = (Result<Vec<u8>, EditError>, Vec<u8>);

/// Runs a case: `None` when the window does not fit the file (or the case proves nothing); else the
/// engine's result and the expected text.
fn run(case: &Case) -> Option<Outcome> {
    let lines = split(&case.file);
    let total: usize = case.segments.iter().sum();
    if case.start + total > lines.len() {
        return None;
    }
    let shown = |k: usize| String::from_utf8_lossy(&lines[k].0).into_owned();
    // The pieces' file lines, in order, and the oldText lines (pieces and markers).
    let mut piece_lines: Vec<usize> = Vec::new();
    let mut old: Vec<String> = Vec::new();
    let mut at = case.start;
    for (s, &len) in case.segments.iter().enumerate() {
        if s % 2 == 0 {
            for k in at..at + len {
                piece_lines.push(k);
                old.push(shown(k));
            }
        } else {
            old.push(case.markers[(s / 2) % case.markers.len()].to_string());
        }
        at += len;
    }
    let target = piece_lines[case.target.index(piece_lines.len())];
    let last = *piece_lines.last().expect("a piece");
    // The change: the target line rewritten (a line without trailing blanks, so what the file keeps
    // there is not in question) or deleted (not the last line: its line break is the needle's end).
    let delete = case.delete && target != last;
    if !delete && lines[target].0.ends_with(b" ") | lines[target].0.ends_with(b"\t") {
        return None;
    }
    // Beside a line of the same text, which of the two the model changed is anyone's guess (and
    // their line endings may differ).
    let same_as = |k: Option<usize>| k.and_then(|k| lines.get(k)).is_some_and(|l| l.0 == lines[target].0);
    if same_as(target.checked_sub(1)) || same_as(Some(target + 1)) {
        return None;
    }
    let replacement = format!("CHANGED{target}");
    let mut new: Vec<String> = Vec::new();
    let mut k = 0;
    for (s, &len) in case.segments.iter().enumerate() {
        if s % 2 == 0 {
            for line in at_piece(&piece_lines, &mut k, len) {
                if line == target {
                    if !delete {
                        new.push(replacement.clone());
                    }
                } else {
                    new.push(shown(line));
                }
            }
        } else {
            new.push(case.markers[(s / 2) % case.markers.len()].to_string());
        }
    }
    // The needle ends with a line break only where the file's last line has one.
    let newline = case.old_ends_with_newline && !lines[last].1.is_empty();
    let join = |v: &[String]| v.join("\n") + if newline { "\n" } else { "" };
    let (old, new) = (join(&old), join(&new));
    // An oldText that is the file's own text (its marker lines are the file's lines, `...` as code)
    // matches as written, by a stricter tier, wherever it is: not this property's business. (Blank
    // lines and runs of blanks do not count, as under `whitespace_runs`.)
    let trimmed = |t: &str| -> String {
        let lines = t
            .split('\n')
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "));
        lines.filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
    };
    let as_seen: Vec<String> = lines
        .iter()
        .map(|(c, _)| String::from_utf8_lossy(c).into_owned())
        .collect();
    if trimmed(&as_seen.join("\n")).contains(&trimmed(&old)) {
        return None;
    }
    let result = apply(&case.file, &[Edit::new(&old, &new)], &Options::new()).map(|a| a.text);
    // The reference: the file's lines, with the target's content replaced or the whole line gone.
    let mut expected = Vec::new();
    for (k, (content, eol)) in lines.iter().enumerate() {
        if k == target {
            if !delete {
                expected.extend_from_slice(replacement.as_bytes());
                expected.extend_from_slice(eol);
            }
            continue;
        }
        expected.extend_from_slice(content);
        expected.extend_from_slice(eol);
    }
    Some((result, expected))
}

fn at_piece(lines: &[usize], k: &mut usize, len: usize) -> Vec<usize> {
    let out = lines[*k..*k + len].to_vec();
    *k += len;
    out
}

/// Number of proptest cases: `PROPTEST_CASES` if set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(1024), ..ProptestConfig::default() })]

    /// Placed exactly as the reference says, or refused as not found or ambiguous (repeated lines,
    /// blank pieces, a marker-looking line of the file changed); never anything else.
    #[test]
    fn elided_edits_change_exactly_the_changed_line(case in case()) {
        let Some((result, expected)) = run(&case) else { return Ok(()) };
        match result {
            Ok(text) => prop_assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&expected)
            ),
            Err(e) => prop_assert!(
                matches!(e.code(), "not_found" | "ambiguous" | "placeholder"),
                "{e:?}"
            ),
        }
    }
}

/// The properties must place most cases, or they would prove little: count them on a fixed sample.
#[test]
fn most_generated_cases_are_placed() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut placed, mut ran) = (0, 0);
    for _ in 0..400 {
        let case = case().new_tree(&mut runner).unwrap().current();
        if let Some((result, _)) = run(&case) {
            ran += 1;
            placed += usize::from(result.is_ok());
        }
    }
    eprintln!("placed {placed} of {ran} cases that fit");
    assert!(ran > 100 && placed * 3 > ran, "placed {placed} of {ran}");
}

/// The last piece ends a CRLF file that has no final line break: its lines are aligned with the
/// model's, as the exact tier aligns the same lines (the file's trailing blank kept, its CRLF kept).
/// The needle's final line break stood for the end of the file and `newText` keeps it as it was, so
/// none is written (it once was, `newText` written as given over the piece).
#[test]
fn last_piece_at_an_open_end() {
    let file = "fn f() {\r\n    let a = 1;\r\n    let b = 2;\r\n    let c = 3;\r\n} ";
    let old = "fn f() {\n    // ...\n    let c = 3;\n}\n";
    let new = "fn f() {\n    // ...\n    let c = 30;\n}\n";
    let a = apply(file.as_bytes(), &[Edit::new(old, new)], &Options::new()).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Elision);
    let exact = "fn f() {\r\n    let a = 1;\r\n    let b = 2;\r\n    let c = 30;\r\n} ";
    assert_eq!(String::from_utf8(a.text).unwrap(), exact);
}

/// Under whole lines, the last piece ends a file without a final line break and the needle's final
/// line break stands for that end: neither side's is aligned with the file's last line, so `replace`
/// keeps the file open and `replace_ending_text` gives it the file's own terminator, as the exact
/// tier does for a needle without a marker.
#[test]
fn last_piece_at_an_open_end_of_whole_lines() {
    let file = b"fn f() {\r\n    let a = 1;\r\n    let c = 3;\r\n}";
    let old = "fn f() {\n    // ...\n    let c = 3;\n}\n";
    let new = "fn f() {\n    // ...\n    let c = 30;\n}\n";
    let (open, ending) = (
        b"fn f() {\r\n    let a = 1;\r\n    let c = 30;\r\n}",
        b"fn f() {\r\n    let a = 1;\r\n    let c = 30;\r\n}\r\n",
    );
    let a = apply(file, &[Edit::new(old, new)], &Options::new().whole_lines(true)).unwrap();
    assert_eq!(a.edits[0].tier, Tier::Elision);
    assert_eq!(a.text, open);
    let hay = Haystack::new(file);
    let found = hay
        .find(old, &Scope::everywhere().whole_lines(), Tier::Elision)
        .unwrap();
    let mut changes = ChangeSet::new(&hay);
    changes.replace(&found, new).unwrap();
    assert_eq!(changes.apply().unwrap().text, open);
    let mut changes = ChangeSet::new(&hay);
    changes.replace_ending_text(&found, new).unwrap();
    assert_eq!(changes.apply().unwrap().text, ending);
    // The same edit without the marker, in the exact tier: the same bytes.
    let whole = "fn f() {\n    let a = 1;\n    let c = 3;\n}\n";
    let found = hay
        .find(whole, &Scope::everywhere().whole_lines(), Tier::Exact)
        .unwrap();
    let mut changes = ChangeSet::new(&hay);
    changes.replace(&found, &whole.replace("= 3", "= 30")).unwrap();
    assert_eq!(changes.apply().unwrap().text, open);
}
