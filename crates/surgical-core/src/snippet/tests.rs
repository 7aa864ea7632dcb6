use super::*;

fn merged(file: &str, snippet: &str) -> String {
    match apply_snippet(file.as_bytes(), snippet) {
        Ok(a) => {
            // The merge as replacements is the same merge: its changes one per segment, as
            // `into_spliced` gives them, and the same new text.
            let spliced = apply_snippet_spliced(file.as_bytes(), snippet).unwrap();
            assert_eq!(spliced.spliced.text(file.as_bytes()), a.applied.text);
            assert_eq!(spliced.placement, a.placement);
            assert_eq!(spliced.spliced, a.applied.clone().into_spliced());
            String::from_utf8(a.applied.text).unwrap()
        }
        Err(e) => panic!("{e:?}"),
    }
}

fn refused(file: &str, snippet: &str) -> SnippetError {
    match apply_snippet(file.as_bytes(), snippet) {
        Ok(a) => panic!("merged: {}", String::from_utf8_lossy(&a.applied.text)),
        Err(e) => e,
    }
}

const RUST: &str = "use std::io;\n\nfn a() {\n    let x = 1;\n    println!(\"{x}\");\n}\n\nfn b() {\n    let y = 2;\n    println!(\"{y}\");\n}\n\nfn c() {\n    todo!()\n}\n";

#[test]
fn marker_forms_are_recognized() {
    for m in [
        "// ... existing code ...",
        "    // ... existing code ...",
        "# ... existing code ...",
        "# ...",
        "<!-- ... existing code ... -->",
        "/* ... */",
        "{/* ... existing code ... */}",
        "...",
        "  …",
        "// ... keep validate() ...",
        "// ... rest of code ...",
        "-- ...",
        "// rest of the file ...",
        " * ...",
        " * ... existing docs ...",
    ] {
        assert!(is_marker(m), "{m}");
    }
    for code in [
        "f(...args);",
        "...props",
        "// ...other",
        "// see a...b",
        "x = 1",
        "// TODO",
        "print('...')",
        // Code quoted in a doc comment: the doc's line (fresh public set, junit4 ClassRule.java).
        " *     // ...",
        " * # ...",
    ] {
        assert!(!is_marker(code), "{code}");
    }
}

#[test]
fn a_changed_line_between_anchors_is_replaced() {
    let snippet =
        "// ... existing code ...\nfn b() {\n    let y = 3;\n    println!(\"{y}\");\n// ... existing code ...\n";
    assert_eq!(merged(RUST, snippet), RUST.replace("let y = 2;", "let y = 3;"));
}

#[test]
fn lines_between_two_anchors_left_out_are_deleted() {
    let snippet = "// ...\nfn b() {\n    println!(\"{y}\");\n}\n// ...\n";
    let out = apply_snippet(RUST.as_bytes(), snippet).unwrap();
    assert_eq!(
        String::from_utf8(out.applied.text).unwrap(),
        RUST.replace("    let y = 2;\n", "")
    );
    assert_eq!(out.placement.segments[0].deleted_lines, 1);
    assert_eq!(out.placement.segments[0].old_lines, (8, 11));
    assert_eq!(out.placement.segments[0].new_lines, (8, 10));
}

#[test]
fn new_lines_after_a_head_are_inserted() {
    let snippet = "// ...\nfn c() {\n    log();\n// ...\n";
    // The tail is new: inserted after the head, nothing deleted.
    assert_eq!(
        merged(RUST, snippet),
        RUST.replace("fn c() {\n", "fn c() {\n    log();\n")
    );
}

#[test]
fn new_lines_before_a_tail_are_inserted() {
    // The blank line before `fn c` is part of the tail: the new line goes before it.
    let snippet = "// ...\nfn new() {}\n\nfn c() {\n// ...\n";
    assert_eq!(
        merged(RUST, snippet),
        RUST.replace("}\n\nfn c() {", "}\nfn new() {}\n\nfn c() {")
    );
}

#[test]
fn several_segments_in_order() {
    let snippet = "use std::io;\nuse std::fs;\n// ... existing code ...\n    let y = 20;\n// ... existing code ...\nfn c() {\n    unimplemented!()\n}\n";
    let want = RUST
        .replace("use std::io;\n", "use std::io;\nuse std::fs;\n")
        .replace("let y = 2;", "let y = 20;")
        .replace("todo!()", "unimplemented!()");
    // `    let y = 20;` alone has no anchor: refused, not guessed.
    assert!(matches!(refused(RUST, snippet), SnippetError::NotFound { .. }));
    // After its head alone, `let y = 20;` may rewrite `let y = 2;` or join it: refused.
    let snippet = snippet.replace("    let y = 20;\n", "fn b() {\n    let y = 20;\n");
    assert!(matches!(refused(RUST, &snippet), SnippetError::Ambiguous { .. }));
    let snippet = snippet.replace("    let y = 20;\n", "    let y = 20;\n    println!(\"{y}\");\n");
    assert_eq!(merged(RUST, &snippet), want);
}

#[test]
fn an_enclosing_header_narrows_the_search() {
    let file =
        "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n\nx = 1\n";
    // The blank line before the marker is the file's, after the method's body.
    let snippet = "class B:\n    # ... existing code ...\n    def f(self):\n        return 2\n\n# ...\n";
    assert_eq!(merged(file, snippet), file.replace("return 1\n\nx", "return 2\n\nx"));
    // Without it, the new last line may rewrite `return 1` or follow it: refused.
    let snippet = "class B:\n    # ... existing code ...\n    def f(self):\n        return 2\n# ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
    let snippet = "class B:\n    # ... existing code ...\n    def f(self):\n        return 2\n\nx = 1\n";
    assert_eq!(merged(file, snippet), file.replace("return 1\n\nx", "return 2\n\nx"));
    // Without the header both methods fit: ambiguous, listing both.
    let snippet = "# ...\n    def f(self):\n        return 2\n\n# ...\n";
    match refused(file, snippet) {
        SnippetError::Ambiguous { readings, .. } => {
            assert_eq!(readings.len(), 2);
            assert_eq!((readings[0].segments[0].0, readings[1].segments[0].0), (2, 6));
        }
        other => panic!("{other:?}"),
    }
    let snippet = "# ...\n    def f(self):\n        return 2\n\nclass B:\n# ...\n";
    assert_eq!(merged(file, snippet), file.replacen("return 1", "return 2", 1));
    let snippet = "# ...\n    def f(self):\n        return 2\n\nx = 1\n";
    assert_eq!(merged(file, snippet), file.replace("return 1\n\nx", "return 2\n\nx"));
}

#[test]
fn a_header_block_holds_an_insertion_before_its_closing_brace() {
    let snippet = "fn b() {\n    // ... existing code ...\n    done();\n}\n// ... existing code ...\n";
    assert_eq!(
        merged(RUST, snippet),
        RUST.replace("println!(\"{y}\");\n}", "println!(\"{y}\");\n    done();\n}")
    );
}

#[test]
fn python_ellipsis_that_matches_the_file_is_code() {
    let file = "class P:\n    def f(self) -> int:\n        ...\n\n    def g(self) -> int:\n        return 0\n\nx = 1\n";
    let snippet = "# ...\n    def f(self) -> int:\n        ...\n\n    def g(self) -> int:\n        return 1\n\nx = 1\n";
    let out = apply_snippet(file.as_bytes(), snippet).unwrap();
    assert_eq!(out.placement.segments.len(), 1);
    assert_eq!(
        String::from_utf8(out.applied.text).unwrap(),
        file.replace("return 0", "return 1")
    );
    // A stub's body under a header the snippet changes.
    let keyed = FileLines::new(&std::rc::Rc::new(lines(file.as_bytes()).collect()), Keying::Indented);
    let read = variants(
        "class P:\n    def f(self) -> str:\n        ...\n",
        &keyed,
        TextKind::Code,
    )
    .unwrap();
    assert_eq!(read[0].segments.len(), 1);
    // Where the file has no such line, a bare `...` is a marker.
    let file = "def f():\n    return 1\n";
    let keyed = FileLines::new(&std::rc::Rc::new(lines(file.as_bytes()).collect()), Keying::Indented);
    let read = variants("def f():\n    ...\n    return 2\n", &keyed, TextKind::Code).unwrap();
    assert_eq!((read.len(), read[0].segments.len()), (1, 2));
}

#[test]
fn edges_without_markers_keep_the_rest_and_say_so() {
    let snippet = "fn b() {\n    let y = 3;\n    println!(\"{y}\");\n}\n";
    let out = apply_snippet(RUST.as_bytes(), snippet).unwrap();
    assert_eq!(
        String::from_utf8(out.applied.text).unwrap(),
        RUST.replace("let y = 2;", "let y = 3;")
    );
    assert_eq!(out.placement.kept_before, Some((1, 7)));
    assert_eq!(out.placement.kept_after, Some((12, 15)));
    let marked = format!("// ...\n{snippet}// ...\n");
    let out = apply_snippet(RUST.as_bytes(), &marked).unwrap();
    assert_eq!((out.placement.kept_before, out.placement.kept_after), (None, None));
}

#[test]
fn line_endings_bom_free_bytes_and_final_newline_are_kept() {
    let file = "alpha one\r\nbeta two\r\ngamma three\ndelta four\repsilon five";
    let out = merged(file, "alpha one\r\nbeta two\r\nnew line\r\ngamma three\n...\n");
    assert_eq!(
        out,
        "alpha one\r\nbeta two\r\nnew line\r\ngamma three\ndelta four\repsilon five"
    );
    // Appending after the last line of a file without a final newline.
    assert_eq!(
        merged(file, "...\ndelta four\nepsilon five\nzeta six\n"),
        "alpha one\r\nbeta two\r\ngamma three\ndelta four\repsilon five\rzeta six"
    );
}

#[test]
fn indentation_ignored_when_nothing_fits_as_written_and_tabs_kept() {
    let file = "fn a() {\n\tif x {\n\t\tgo();\n\t}\n}\n";
    let snippet = "fn a() {\n    if x {\n        go();\n        stop();\n    }\n}\n";
    assert_eq!(
        merged(file, snippet),
        "fn a() {\n\tif x {\n\t\tgo();\n\t\tstop();\n\t}\n}\n"
    );
    // Indented less than the file throughout: placed with indentation ignored, re-indented.
    let file = "mod m {\n    fn a() {\n        go();\n    }\n    fn b() {}\n}\n";
    let out = apply_snippet(file.as_bytes(), "fn a() {\n    go();\n    stop();\n}\nfn b() {}\n").unwrap();
    assert!(out.placement.indentation_ignored);
    assert_eq!(
        String::from_utf8(out.applied.text).unwrap(),
        file.replace("go();\n", "go();\n        stop();\n")
    );
}

#[test]
fn insert_versus_replace_is_refused_without_evidence() {
    // A new test after test a whose tail `});` is weak: replacing test b or inserting both fit.
    let file = "test('a', () => {\n  run(1);\n});\n\ntest('b', () => {\n  run(2);\n});\n";
    let snippet = "// ...\n  run(1);\n});\n\ntest('c', () => {\n  run(3);\n});\n// ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
    // Weak lines alone anchor nothing.
    let snippet = "// ...\n});\n\ntest('c', () => {\n  run(3);\n});\n// ...\n";
    assert!(apply_snippet(file.as_bytes(), snippet).is_err());
    // With the next test's header as a strong tail, it is an insertion.
    let snippet = "// ...\n});\n\ntest('c', () => {\n  run(3);\n});\n\ntest('b', () => {\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("\ntest('b'", "\ntest('c', () => {\n  run(3);\n});\n\ntest('b'")
    );
    // Lines deleted inside the block the anchors delimit are a replacement: evidence.
    let snippet = "// ...\ntest('b', () => {\n  run(4);\n});\n";
    assert_eq!(merged(file, snippet), file.replace("run(2)", "run(4)"));
}

#[test]
fn not_found_names_the_segment_and_its_closest_region() {
    match refused(RUST, "// ...\nfn zz() {\n    let y = 3;\n}\n// ...\n") {
        SnippetError::NotFound { segments } => {
            assert_eq!(segments[0].index, 0);
            assert_eq!(segments[0].snippet_lines, (2, 4));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_change_and_empty_are_refused() {
    assert_eq!(refused(RUST, "// ...\nfn b() {\n// ...\n"), SnippetError::NoChange);
    assert_eq!(refused(RUST, "// ...\n\n"), SnippetError::Empty);
}

#[test]
fn repeated_context_is_ambiguous() {
    let file = "x = 1\ny = 2\n\nx = 1\ny = 2\n";
    match refused(file, "# ...\nx = 1\nz = 0\ny = 2\n# ...\n") {
        SnippetError::Ambiguous { total, .. } => assert_eq!(total, 2),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_last_line_repeating_the_head_is_no_far_tail() {
    // The snippet's first two lines occur twice; its last line repeats its second. Reading one
    // segment from the first head to the second copy of the last line would delete the lines
    // between unseen (eval case javascript/6d1156a613b2/ambiguous-natural): each head with the new
    // lines after it is a reading too, so the snippet is ambiguous.
    let file = "fn edit() {\n    queue(async {\n        check(signal);\n        edit_it();\n    });\n}\n\nfn write() {\n    queue(async {\n        check(signal);\n        write_it();\n    });\n}\n";
    let snippet =
        "// ...\n    queue(async {\n        check(signal);\n        make_dirs(path);\n        check(signal);\n// ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
    // With one head only, the new lines go after it.
    let single = &file[..file.find("fn write").unwrap()];
    assert_eq!(
        merged(single, snippet),
        single.replace(
            "check(signal);\n",
            "check(signal);\n        make_dirs(path);\n        check(signal);\n"
        )
    );
}

#[test]
fn a_short_line_the_file_holds_once_anchors() {
    // `.unwrap();` and `child` are short, but each is found once: together they name one place,
    // and the line between them that the snippet rewrites is replaced, not kept beside a copy of
    // `child` (eval cases rust/17a3690cef6d, rust/615298b3f933, rust/0596d28ee0f2).
    let file = "fn spawn() -> Child {\n    let mut child = cmd()\n        .unwrap();\n    child.write(input).unwrap();\n    child\n}\n";
    let snippet = "// ...\n        .unwrap();\n    if let Err(e) = child.write(input) {\n        check(e);\n    }\n    child\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace(
            "    child.write(input).unwrap();\n",
            "    if let Err(e) = child.write(input) {\n        check(e);\n    }\n"
        )
    );
    // Found twice, the same short lines anchor nothing alone.
    let twice = format!("{file}\n{file}");
    assert!(apply_snippet(twice.as_bytes(), snippet).is_err());
    // A closer found once stays weak: inserting a new block before it or replacing up to it are
    // both readings.
    let file = "test('a', () => {\n  run(1);\n});\n\ntest('b', () => {\n  run(2);\n}\n";
    let snippet = "// ...\n  run(1);\n});\n\ntest('c', () => {\n  run(3);\n}\n// ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_tail_that_starts_a_later_head_is_no_stray_evidence() {
    // `let x = 1;` at line 2 and twice at lines 13-14: a span from line 2 to the tail would delete
    // lines 3-12 unseen, and the span from the later head is a reading too (its short tail
    // `zzeijl();` is found once, so the new `let x` lines before it are no stray): ambiguous, not
    // the far span alone (found by the block property).
    let file = "fn f() {\n    let x = 1;\n\n    uib(yn);\n}\n\nbveepg\n}\n}\nltpu 783\n    let x = 1;\n    let x = 1;\n    zzeijl();\nxjs\n";
    let snippet =
        "// ...\n    let x = 1;\n    let x = 1;\nnew a();\n    let x = 1;\n    let x = 1;\n    zzeijl();\n// ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_segment_not_inside_a_headers_block_is_searched_after_it() {
    // The first segment ends with a line opening a block (`= [`); the next is indented more, so it
    // is searched in that block first; not found there, the rest of the file is searched (eval
    // cases rust/b2bf7aab25da/*).
    let file = "const KEYS: [&str; 2] = [\n    \"a\",\n    \"b\",\n];\n\nfn check() {\n    for k in KEYS {\n        let code = lookup(k);\n        assert!(known(code));\n    }\n}\n";
    let snippet = "// ...\nconst KEYS: [&str; 2] = [\n    // ...\n    for k in KEYS {\n        let code = lookup(k).unwrap();\n        assert!(known(code));\n// ...\n";
    assert_eq!(merged(file, snippet), file.replace("lookup(k);", "lookup(k).unwrap();"));
}

#[test]
fn weak_lines_anchor_where_no_strong_line_does_and_every_reading_they_anchor_counts() {
    // New code after `        })`, `    }`, `}`: weak lines only, the first found once. With no strong
    // anchor anywhere, weak lines anchor, every reading they give counted: one here, so it places
    // (eval cases rust/a280d7e418f5, rust/a9f8724506f3, rust/f09fbecb8a8b).
    let file = "impl Hay {\n    fn ok(&self) -> bool {\n        self.lines.iter().all(|l| {\n            l.is_empty()\n        })\n    }\n}\n";
    let snippet = "// ...\n        })\n    }\n}\n\nimpl Debug for Hay {\n    fn fmt(&self) {}\n}\n";
    assert_eq!(
        merged(file, snippet),
        format!("{file}\nimpl Debug for Hay {{\n    fn fmt(&self) {{}}\n}}\n")
    );
    // The same weak lines found at two places: both readings are counted, so it is refused.
    let twice = format!("{file}\n{file}");
    assert!(matches!(refused(&twice, snippet), SnippetError::Ambiguous { .. }));
    // Only the run is unique, its first line is not: the reading anchored by that line alone
    // (the rest written as new after it) is counted too.
    let file = "fn a() {\n    go(\n        1,\n    );\n    stop();\n}\n\nfn b() {\n    go(\n        2,\n    );\n}\n";
    let snippet = "// ...\n    );\n}\n\nfn c() {\n    run();\n}\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_weak_head_run_the_file_holds_once_decides_replace_over_insert() {
    // `        },` then `    };` is weak, but the file holds that run once: the snippet shows it
    // as the place, and the line after it that the snippet leaves out before the strong tail is
    // replaced; inserting the run again before the tail is no reading (eval cases
    // rust/56a9ce535215, rust/c84fc1d54565).
    let file = "fn run() {\n    let dir = match make() {\n        Ok(d) => d,\n        Err(e) => {\n            return 1;\n        },\n    };\n    let color = old_color();\n    let mut out = stdout();\n    out.flush();\n}\n";
    let snippet =
        "// ...\n        },\n    };\n    let color = crate::use_color();\n    let mut out = stdout();\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace(
            "    let color = old_color();\n",
            "    let color = crate::use_color();\n"
        )
    );
    // The run found twice: insert against replace stays open (the line before the tail indented
    // deeper than `        },`, so that a second `},` inserted there could close a block).
    let twice = file.replace(
        "    let color = old_color();",
        "    let color = old_color(\n            1);",
    );
    let twice = twice.replace(
        "    out.flush();\n",
        "    out.flush();\n    let e = match f() {\n        Err(e) => {\n            return 2;\n        },\n    };\n",
    );
    assert!(matches!(refused(&twice, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_header_block_ends_with_its_closer_and_the_blank_lines_after_it() {
    // A segment inside a header's block that ends with the block's closer and the blank line after
    // it (then a marker): the closer and the blank are the file's, not new lines after the head.
    // The block once stopped right after the closer, so the blank line fell outside it, the span to
    // the closer was not counted, and "insert after the head" was placed alone: a second `}`.
    let file = "import { a } from 'a';\n\nexport interface Actions {\n  open: () => void;\n  close: () => void;\n  reset: (\n    hard: boolean,\n  ) => void;\n  getEditor: () => Editor | undefined;\n  clearState: () => void;\n}\n\nexport const Context = create<Actions | null>(null);\n";
    let snippet = "// ... existing code ...\nexport interface Actions {\n  // ... existing code ...\n  getEditor: () => Editor | undefined;\n  clearState: () => void;\n  setMode: (value: boolean) => void;\n}\n\n// ... existing code ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace(
            "  clearState: () => void;\n",
            "  clearState: () => void;\n  setMode: (value: boolean) => void;\n"
        )
    );
}

#[test]
fn a_segment_showing_the_enclosing_blocks_closer_reaches_past_the_headers_block() {
    // After a header, a segment that ends with the header's closer and the enclosing block's
    // (`  }` then `}` at the end of a file): the header's block ended at its own closer, so the
    // file's `}` was out of reach and both readings left inside it (insert after the head, or span
    // to `  }`) wrote a second `}`: refused. The block now reaches over the enclosing blocks'
    // closers right after it for a segment that shows one indented less than the header.
    let file = "class T {\n  void f() {\n    a(1);\n\n    b(2);\n  }\n}\n";
    let snippet = "// ...\n  void f() {\n    // ...\n    b(2);\n    c(3);\n  }\n}\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("    b(2);\n", "    b(2);\n    c(3);\n")
    );
    // Not shown, the enclosing closer stays outside: the same segment without `}` places as before.
    let snippet = "// ...\n  void f() {\n    // ...\n    b(2);\n    c(3);\n  }\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("    b(2);\n", "    b(2);\n    c(3);\n")
    );
}

#[test]
fn an_insertion_that_leaves_a_raw_string_open_is_no_reading() {
    // A line of a Go raw string rewritten (a typo fixed) before the string's closing backquote, a
    // weak tail: "insert after the head" would write a second closing line and leave a raw string
    // open in a file whose backquotes pair up, where the span rewrites the line it deletes.
    let file = "package main\n\nconst help = `\nUsage: tool [flags]\nRun it an see.\n`\n\nfunc main() {}\n";
    let snippet = "// ...\nUsage: tool [flags]\nRun it and see.\n`\n// ...\n";
    assert_eq!(merged(file, snippet), file.replace("it an see", "it and see"));
    // Deleted lines that no new line rewrites keep insert against replace open.
    let other = file.replace("Run it an see.", "Flags come first, always.");
    assert!(matches!(refused(&other, snippet), SnippetError::Ambiguous { .. }));
    // So does a span that deletes blank lines only (it rewrites nothing): found by the block
    // property, a `` ` `` line inserted before a blank line and a copy of it, the head holding one.
    let blank = "x := 1\n`\nUsage: tool [flags]\n\n`\ny := 2\n";
    let snippet = "// ...\n`\nUsage: tool [flags]\nRun it and see.\n`\n// ...\n";
    assert!(matches!(refused(blank, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_changed_line_keeps_the_trailing_blanks_the_model_wrote() {
    // A line the file ends with a space, changed by the snippet with the space kept: written as the
    // model wrote it (it once lost the space, a byte the model did not change).
    let file = "<head>\n  <script src=\"a-1.6.1.js\"></script> \n  <script src=\"b.js\"></script>\n</head>\n";
    let snippet = "<!-- ... -->\n<head>\n  <script src=\"a-1.6.2.js\"></script> \n  <script src=\"b.js\"></script>\n<!-- ... -->\n";
    assert_eq!(merged(file, snippet), file.replace("1.6.1", "1.6.2"));
}

#[test]
fn a_new_line_of_blanks_only_is_written_as_the_model_wrote_it() {
    // A new line of four spaces between two new lines (as a commit of linenoise has it): written
    // with its blanks, not emptied (the model wrote them; emptying them was a hidden change).
    let file = "int f(void) {\n    a();\n    z();\n}\n";
    let snippet = "// ...\n    a();\n    b();\n    \n    c();\n    z();\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        "int f(void) {\n    a();\n    b();\n    \n    c();\n    z();\n}\n"
    );
    // An empty new line stays empty.
    let snippet = "// ...\n    a();\n    b();\n\n    c();\n    z();\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        "int f(void) {\n    a();\n    b();\n\n    c();\n    z();\n}\n"
    );
    // With the snippet's indentation ignored (the file indents with tabs), the blank line is
    // indentation like any other new line: it takes the file's style.
    let file = "int f(void) {\n\ta();\n\tz();\n}\n";
    assert_eq!(
        merged(file, "// ...\n    a();\n    b();\n    \n    z();\n// ...\n"),
        "int f(void) {\n\ta();\n\tb();\n\t\n\tz();\n}\n"
    );
    assert_eq!(
        merged(file, "// ...\n    a();\n    b();\n\n    z();\n// ...\n"),
        "int f(void) {\n\ta();\n\tb();\n\n\tz();\n}\n"
    );
}

#[test]
fn an_insertion_beside_a_span_that_deletes_nothing_is_no_reading() {
    // The segment's last line (blank) repeats a line of its head, and `let s` ... `Ok(())`, `}`
    // are shown as the file has them (`Ok(())` twice in the file, so the tail is weak): the span
    // from the head to the tail deletes no line, so
    // writing everything after the head again as new lines (the repeat rule's insertion) is no
    // reading; the span places (eval cases anyhow/79d1684cd33e, mcp-typescript-sdk/9f8ba6127989,
    // markdown/76750e98bb38).
    let file = "fn t() -> R {\n    struct S {\n        on: bool,\n    }\n\n    let s = S { on: true };\n    check(&s);\n\n    Ok(())\n}\n\nfn u() -> R {\n    Ok(())\n}\n";
    let snippet = "// ...\n        on: bool,\n    }\n\n    impl S {}\n\n    let s = S { on: true };\n    check(&s);\n\n    ensure!(s);\n\n    Ok(())\n}\n\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("    }\n\n", "    }\n\n    impl S {}\n\n")
            .replace("check(&s);\n\n", "check(&s);\n\n    ensure!(s);\n\n")
    );
    // Where the span deletes a line (`    log(&s);`, not shown, alike no new line), insert against
    // replace stays open.
    let file = file.replace("    check(&s);\n", "    check(&s);\n    log(&s);\n");
    assert!(matches!(refused(&file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn an_insertion_of_punctuation_only_is_no_reading() {
    // The snippet shows `inverse: false,` then `},` and `]);`, leaving out the line between: the
    // span deletes it. Inserting `},` and `]);` again after the head would add no code, so it is no
    // reading (eval cases gemini-cli/ec35ebbe5779, gemini-cli/7311e242ec29,
    // gemini-cli/2e0641c83b01, all deletion-revert).
    let file = "expect(lines).toEqual([\n  {\n    dim: false,\n    inverse: false,\n    ready: false,\n  },\n]);\n\nexpect(x).toBe(1);\n";
    let snippet = "// ...\n    dim: false,\n    inverse: false,\n  },\n]);\n// ...\n";
    assert_eq!(merged(file, snippet), file.replace("    ready: false,\n", ""));
    // A new line that is code among them leaves insert against replace open.
    let snippet = "// ...\n    dim: false,\n    inverse: false,\n  },\n  other,\n]);\n// ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_closer_that_would_close_nothing_is_the_files_line() {
    // The segment starts with `    ],`, a weak line; inserting it again before the strong tail
    // would put it after `    format: ['esm'],`, indented no deeper, where it closes no block:
    // the head is the file's `],` and the line between is rewritten (eval cases
    // mcp-typescript-sdk/f172626a8e98, 561c6d83456e, 78fabea44557).
    let file = "export default {\n    entry: [\n        'src/a.ts',\n    ],\n    format: ['esm'],\n    outDir: 'dist',\n};\n\nconst other = [\n    1,\n    ],\n];\n";
    let snippet = "// ...\n    ],\n    format: ['esm', 'cjs'],\n    outDir: 'dist',\n// ...\n";
    assert_eq!(merged(file, snippet), file.replace("['esm']", "['esm', 'cjs']"));
    // After a line indented deeper, a second `],` could close a block there: both readings.
    let file = file.replace("    format: ['esm'],\n", "    format: ['esm',\n        'cjs'],\n");
    assert!(matches!(refused(&file, snippet), SnippetError::Ambiguous { .. }));
    // A comment closer after a comment's line may close it: both readings; after code, the
    // closer is the file's.
    let file = "/**\n * Docs.\n */\nimport a from 'a';\nimport b from 'b';\nimport c from 'c';\n/*\n * more\n */\n";
    let snippet = "// ...\n */\nimport a2 from 'a2';\nimport c from 'c';\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("import a from 'a';\nimport b from 'b';\n", "import a2 from 'a2';\n")
    );
    let file = "/**\n * Docs.\n */\nimport a from 'a';\n * b\nimport c from 'c';\n/*\n * more\n */\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_strong_tail_after_a_repeated_head_line_is_the_segments_end() {
    // The segment's last line (blank) repeats its head's, but its tail `use std::error::Request;`
    // then blank is found after the head with a strong line of its own: the span to it rewrites
    // `#[cfg(backtrace)]`, and "the head with the rest after it" is no reading, as for any segment
    // with a strong tail (eval cases anyhow/49eeec1cdcb9, anyhow/53d6076743c9, cjson/79f30800ec03).
    let file = "use core::fmt::{self, Debug};\n\n#[cfg(backtrace)]\nuse std::error::Request;\n\nfn main() {}\n";
    let snippet = "// ...\nuse core::fmt::{self, Debug};\n\n#[cfg(error_generic_member_access)]\nuse std::error::Request;\n\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("#[cfg(backtrace)]", "#[cfg(error_generic_member_access)]")
    );
    // A tail of the repeated line alone (with weak lines) leaves the insertion counted.
    let file = "use core::fmt::{self, Debug};\n\n#[cfg(backtrace)]\n}\n\nfn main() {}\n";
    let snippet = "// ...\nuse core::fmt::{self, Debug};\n\n#[cfg(error_generic_member_access)]\n}\n\n// ...\n";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_strong_line_kept_after_a_nearer_weak_tail_is_no_new_line() {
    // The segment ends with a weak tail (blank line); its nearest place, line 7, would make the
    // span delete `impl Not` and write `let s = ...`, which the file holds once, right after it,
    // again as new. The farther span (counted: its tail holds `Ok(())`, found once) keeps it, so
    // the nearer one is no reading (eval cases anyhow/cbd91b854f9c,
    // anyhow/79d1684cd33e/deletion-revert).
    let file = "fn t() -> R {\n    struct S {\n        on: bool,\n    }\n\n    impl Not for S {}\n\n    let s = S { on: true };\n    match &s {\n        S { on } => go(on),\n    }\n\n    ensure!(s);\n\n    Ok(())\n}\n\nfn u() {}\n";
    let snippet = "// ...\n        on: bool,\n    }\n\n    let s = S { on: true };\n    match &s {\n        S { on } => go(on),\n    }\n\n    Ok(())\n}\n\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("    impl Not for S {}\n\n", "")
            .replace("    ensure!(s);\n\n", "")
    );
    // Where the farther span is itself no reading (the strong line before its weak tail is
    // `check(&s);`, and `Ok(())` is found twice), the nearer one stays: refused, not placed as
    // "the head with the rest after it" alone.
    let file = "fn t() -> R {\n    struct S {\n        on: bool,\n    }\n\n    impl Not for S {}\n\n    let s = S { on: true };\n    check(&s);\n\n    ensure!(s);\n\n    Ok(())\n}\n\nfn u() -> R {\n    Ok(())\n}\n";
    let snippet =
        "// ...\n        on: bool,\n    }\n\n    let s = S { on: true };\n    check(&s);\n\n    Ok(())\n}\n\n// ...\n";
    assert!(apply_snippet(file.as_bytes(), snippet).is_err());
}

#[test]
fn of_alike_lines_the_first_is_the_files() {
    // The model shows one blank line where the file has it and a second one after new lines: the
    // first is the file's (its CRLF stays on it), the second is new, as git's diff of the commit
    // shows it (fresh public set, express examples/downloads mixed). Kept lines are not rewritten,
    // so the ending stays on the line the alignment keeps.
    let file = "let a = 1;\nlet z = 0;\n\r\nlet c = 3;\nlet d = 4;\n";
    let snippet = "// ...\nlet z = 0;\n\nlet b = 2;\n\nlet c = 3;\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        "let a = 1;\nlet z = 0;\n\r\nlet b = 2;\r\n\r\nlet c = 3;\nlet d = 4;\n"
    );
    // Alike lines apart (new lines between, none alike): the first one is still the file's.
    let file = "# Title\n# old\n#\r\n# more\nclass A\n";
    let snippet = "# Title\n# new\n#\n# == Options\n#\n# more2\nclass A\n";
    assert_eq!(
        merged(file, snippet),
        "# Title\n# new\n#\r\n# == Options\n#\n# more2\nclass A\n"
    );
}

#[test]
fn a_line_written_with_the_files_trailing_blanks_is_the_files() {
    // `# ` (a new line with a trailing blank) and `#` (as the file has it): `#` is the file's line
    // and `# ` is new, written with its blank (fresh public set, sinatra referrer_policy.rb).
    let file = "# Title\n# old\n#\nclass A\n";
    let snippet = "# Title\n# \n# new\n#\nclass A\n";
    assert_eq!(merged(file, snippet), "# Title\n# \n# new\n#\nclass A\n");
}

#[test]
fn which_alike_line_is_kept_follows_gits_diff() {
    // Two swapped lines: git's diff deletes the first and writes it again after the second, so the
    // second keeps its own bytes (its LF here) and the moved line is new, taking the file's ending
    // there (fresh public set, phpdotenv src/Parser/Parser.php mixed).
    let file = "use A;\r\nuse S;\r\nuse R;\nuse Z;\n";
    let snippet = "// ...\nuse A;\nuse R;\nuse S;\nuse Z;\n";
    assert_eq!(merged(file, snippet), "use A;\r\nuse R;\nuse S;\nuse Z;\n");
    // A deleted method between two `@Override` lines: git's indent heuristic deletes the first
    // `@Override` with the method it annotates (the block ends at the blank line), so the second,
    // CRLF-ended, is the one kept (fresh public set, junit4 FrameworkMethod.java mixed).
    let file = "class F {\n    void a() {\n        x();\n    }\n\n    @Override\n    void b() {\n        y();\n    }\n\n    @Override\r\n    void c() {\n        z();\n    }\n}\n";
    let snippet = "// ...\n    void a() {\n        x();\n    }\n\n    @Override\n    void c() {\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        "class F {\n    void a() {\n        x();\n    }\n\n    @Override\r\n    void c() {\n        z();\n    }\n}\n"
    );
}

#[test]
fn a_comment_quoted_in_a_doc_comment_is_the_docs_line() {
    // New doc lines holding an example whose `// ...` is the example's: written as new lines, not
    // read as a marker standing for nothing (fresh public set, junit4 ClassRule.java).
    let file = "/**\n * Rules.\n *\n * @since 4.9\n */\nclass R {}\n";
    let snippet = "/**\n * Rules.\n *\n * <pre>\n *     // ...\n * </pre>\n *\n * @since 4.9\n */\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        "/**\n * Rules.\n *\n * <pre>\n *     // ...\n * </pre>\n *\n * @since 4.9\n */\nclass R {}\n"
    );
}

#[test]
fn a_closer_that_would_strand_the_files_next_line_is_no_insertion() {
    // A strong head, a rewritten line, then a weak tail (`    }`, a blank, `    @Test`): inserting
    // the lines after the head would leave the file's `check(old(5));` after the method's closer
    // and `@Test`, outside any method; the rewrite is the reading (fresh public set, junit4
    // SuiteDescriptionTest.java, phpdotenv Validator.php, spdlog logger-inl.h).
    let file = "class T {\n    @Test\n    void a() {\n        check(1);\n        check(old(5));\n    }\n\n    @Test\n    void b() {\n        run();\n    }\n}\n";
    let snippet = "// ...\n        check(1);\n        check(new(5));\n    }\n\n    @Test\n// ...\n";
    assert_eq!(merged(file, snippet), file.replace("check(old(5));", "check(new(5));"));
    // Indentation ignored (the snippet indented one level less): measured from the head's line.
    let shallow = "// ...\n    check(1);\n    check(new(5));\n}\n\n@Test\n// ...\n";
    assert_eq!(merged(file, shallow), file.replace("check(old(5));", "check(new(5));"));
    // A file whose brackets do not balance (a `{` in a string) gives no evidence: both readings.
    let unbalanced = file.replace("        run();\n", "        run(\"{\");\n");
    assert!(matches!(refused(&unbalanced, snippet), SnippetError::Ambiguous { .. }));
    // A line the span would delete that no new line rewrites (`check(old(5));` against `zap();`):
    // no evidence that the span rewrites it, both readings stay.
    let unlike = "// ...\n        check(1);\n        zap();\n    }\n\n    @Test\n// ...\n";
    assert!(matches!(refused(file, unlike), SnippetError::Ambiguous { .. }));
    // New lines ending with a line that opens a block strand nothing: both readings stay.
    let file = "class T {\n    void a() {\n        check(1);\n        check(old(5));\n    }\n\n    static {\n        run();\n    }\n\n    static {\n        stop();\n    }\n}\n";
    let split = "// ...\n        check(1);\n        check(new(5));\n    }\n\n    static {\n// ...\n";
    assert!(matches!(refused(file, split), SnippetError::Ambiguous { .. }));
}

#[test]
fn a_comment_opened_or_closed_around_a_comments_line_is_no_insertion() {
    // `/**`, a rewritten doc line, ` */`: inserting `/**` and the new line before the file's ` */`
    // would open a comment inside the doc; inserting the new line and ` */` after `/**` would leave
    // the old doc line after the comment's end. The rewrite is the reading (fresh public set,
    // junit4 Comparators.java, ThrowingRunnable.java).
    let file = "import a;\n\n/**\n * Factory metods.\n */\nclass C {}\n\n// Other.\nclass D {}\n";
    let snippet = "// ...\n/**\n * Factory methods.\n */\n// ...\n";
    assert_eq!(merged(file, snippet), file.replace("metods", "methods"));
    // A strong tail: only "insert before the tail" rivals the rewrite.
    let file = "/**\n * Runs a thing\n * without wrapping.\n */\nclass R {}\n\n// Other.\nclass D {}\n";
    let snippet = "// ...\n/**\n * Runs a thing well\n * without wrapping.\n// ...\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("Runs a thing\n", "Runs a thing well\n")
    );
}

#[test]
fn a_repeated_head_line_inserted_that_strands_the_next_line_is_no_reading() {
    // The segment starts and ends with a blank line: "the head with the rest after it" would leave
    // the file's old `$failing[] = ...` after the two closers; the span to the blank is the reading
    // (fresh public set, phpdotenv Validator.php).
    let file = "    {\n        $x = 1;\n\n        foreach ($vs as $v) {\n            if (f($v)) {\n                $failing[] = g($v, $m ?? 'x');\n            }\n        }\n\n        return $failing;\n    }\n";
    let snippet = "// ...\n\n        foreach ($vs as $v) {\n            if (f($v)) {\n                $failing[] = g($v, $m);\n            }\n        }\n\n        // ...\n";
    assert_eq!(merged(file, snippet), file.replace("$m ?? 'x'", "$m"));
}
