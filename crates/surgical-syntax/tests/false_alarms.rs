//! The classes of false alarm found on real commits (docs/syntax-check.md, "False alarms on real
//! commits"), one test each, with the real break next to it that must still be reported: C and
//! C++ macros a parser without the preprocessor cannot read, and blocks that indentation alone
//! misjudges when the check places a problem where the edit is. (The macro rules' false alarms need
//! a whole header's context to appear: they are tested on the rule itself, in `attribute.rs`.)
//! Then the classes of breaks reported on the wrong line in the detection set ("Detection of
//! breaking edits"): a dropped closer blamed on the outermost opener.

use surgical_core::Change;
use surgical_syntax::{check, Check, Limits, Problem};

/// The errors the rewrite of `before` into `after` introduced, as (line, problem).
fn introduced(path: &str, before: &str, after: &str) -> Vec<(usize, Problem)> {
    let (old, new) = (before.as_bytes(), after.as_bytes());
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let change = Change::new(prefix..old.len() - suffix, prefix..new.len() - suffix);
    match check(path, old, new, &[change], &Limits::default()) {
        Check::Checked { errors, .. } => errors.into_iter().map(|e| (e.line, e.problem)).collect(),
        other => panic!("not checked: {other:?}"),
    }
}

fn missing_semicolon() -> Problem {
    Problem::Missing { token: ";".into() }
}

const STATEMENT_MACRO: &str = "#define test_cond(_c) if(_c) printf(\"PASSED\\n\"); else {printf(\"FAILED\\n\"); fails++;}\n#define twice(x) ((x) * 2)\n\nstatic int fails;\n\nstatic void t(int x) {\n    int y = twice(x);\n    test_cond(x == 1)\n}\n";

#[test]
fn an_expression_macro_call_that_lost_its_semicolon_is_reported() {
    let after = STATEMENT_MACRO.replace("int y = twice(x);", "int y = twice(x)");
    assert!(!introduced("x.c", STATEMENT_MACRO, &after).is_empty());
}

#[test]
fn a_macro_call_after_a_line_that_lost_its_semicolon_is_reported() {
    let before = "TEST(std_test, path) {\n  using std::filesystem::path;\n  EXPECT_EQ(fmt::format(\"{}\", path(\"/usr/bin\")), \"/usr/bin\");\n}\n";
    let after = before.replace("path;", "path");
    assert!(!introduced("x.cc", before, &after).is_empty());
}

#[test]
fn a_namespace_body_not_indented_is_no_block_by_indentation() {
    let before = "namespace detail {\nclass file_buffer {\n  int x;\n};\n\n}  // namespace detail\n";
    let after = "namespace detail {\nclass file_buffer {\n  int x;\n};\nint y = 1\n\n}  // namespace detail\n";
    assert_eq!(introduced("x.cc", before, after), vec![(5, missing_semicolon())]);
}

#[test]
fn a_brace_ending_a_condition_over_several_lines_opens_the_block() {
    let before = "int f(int a, int b) {\n  if (a != 1 ||\n      b != 2) {\n    return 1;\n  }\n  return 0;\n}\n";
    let after = before.replace("return 1;", "return 1");
    assert_eq!(introduced("x.c", before, &after), vec![(4, missing_semicolon())]);
}

#[test]
fn a_parameter_list_closed_at_the_end_of_its_last_line_is_closed() {
    let before = "int make(\n    int a,\n    int b) {\n  return a + b;\n}\n";
    let after = before.replace("a + b;", "a + b");
    assert_eq!(introduced("x.c", before, &after), vec![(4, missing_semicolon())]);
}

#[test]
fn a_shell_parameter_expansion_does_not_close_a_function_body() {
    let before = "f() {\n  echo \"${x}\"\n  echo done\n}\n\ng() {\n  echo g\n}\n";
    let after = "f() {\n  echo \"${x}\"\n  echo done\n\ng() {\n  echo g\n}\n";
    let found = introduced("x.sh", before, after);
    assert!(
        found
            .iter()
            .any(|(line, p)| *line == 1 && matches!(p, Problem::NeverClosed { .. })),
        "{found:?}"
    );
}

// Placement: where a dropped closer is reported (the right line, not the outermost opener).

#[test]
fn a_one_line_object_that_lost_its_brace_before_a_comma_is_reported_on_its_line() {
    let before = "{\n    \"version\": \"4.0.0\",\n\n    \"options\": { \"keyFile\": \"a.snk\" },\n\n    \"frameworks\": {\n        \"net45\": {}\n    }\n}\n";
    let after = before.replace("\"a.snk\" },", "\"a.snk\" ,");
    let found = introduced("x.json", before, &after);
    assert_eq!(found.first().map(|f| f.0), Some(4), "{found:?}");
}

#[test]
fn a_closer_indented_less_than_its_opener_closes_an_outer_block() {
    let before = "{\n  \"name\": \"x\",\n  \"devDependencies\": {\n    \"eclint\": \"^2.8.1\",\n    \"urchin\": \"^0.0.5\"\n  }\n}\n";
    let after = before.replace("\"^0.0.5\"\n  }\n", "\"^0.0.5\"\n");
    let found = introduced("x.json", before, &after);
    assert_eq!(
        found.first(),
        Some(&(
            3,
            Problem::NeverClosed {
                opener: "{".into(),
                closer: "}".into(),
                before_line: Some(6)
            }
        )),
        "{found:?}"
    );
}

#[test]
fn a_start_tag_that_lost_its_angle_bracket_is_reported_on_its_line() {
    let before = "<html>\n<body>\n<p>Hi</p>\n<script type=\"text/javascript\">\n  var t = document.createElement('script');\n</script>\n</body>\n</html>\n";
    let after = before.replace("\"text/javascript\">", "\"text/javascript\"");
    assert_eq!(
        introduced("x.html", before, &after),
        vec![(4, Problem::Missing { token: ">".into() })]
    );
    // A tag whose attributes go on over lines is not one.
    let over_lines = before.replace("<p>Hi</p>", "<p\n  class=\"a\">Hi</p>");
    let broken = over_lines.replace("\"text/javascript\">", "\"text/javascript\"");
    assert_eq!(
        introduced("x.html", &over_lines, &broken),
        vec![(5, Problem::Missing { token: ">".into() })]
    );
}

#[test]
fn a_yaml_key_indented_out_of_its_mapping_is_reported_on_its_line() {
    let before = "name: doc\n\non:\n  push:\n    branches: [main]\n\njobs:\n  build:\n    runs-on: ubuntu-20.04\n";
    let after = before.replace("\non:", "\n on:");
    assert_eq!(introduced("x.yml", before, &after), vec![(3, Problem::BadIndentation)]);
}

/// A Rust text over the size the check parses in windows (16 KiB): `n` functions, each after a
/// blank line, with `middle` put before function `n / 2`.
fn large_rust(n: usize, middle: &str) -> String {
    let mut text = String::new();
    for i in 0..n {
        if i == n / 2 {
            text.push_str(middle);
        }
        text.push_str(&format!(
            "fn item_{i}(x: u32) -> u32 {{\n    let y = x + {i};\n    y * 2\n}}\n\n"
        ));
    }
    text
}

#[test]
fn a_break_in_a_large_file_is_reported_from_its_window_on_its_line() {
    let before = large_rust(600, "");
    assert!(before.len() > 32 * 1024);
    let after = before.replacen("    y * 2\n}\n\nfn item_300", "    y * 2\n\nfn item_300", 1);
    let line = after[..after.find("fn item_299").unwrap()].lines().count() + 1;
    let errors = introduced("big.rs", &before, &after);
    assert!(
        errors
            .iter()
            .any(|(l, p)| *l == line && matches!(p, Problem::NeverClosed { opener, .. } if opener == "{")),
        "{errors:?}"
    );
}

#[test]
fn code_inside_a_multiline_string_of_a_large_file_is_no_break() {
    // A raw string holding code, with blank lines and unindented lines: lines a window can start
    // at. Breaking that "code" breaks nothing.
    let fixture =
        "const FIXTURE: &str = r#\"\nfn a() {\n    1\n}\n\nfn b() {\n    2\n}\n\nfn c() {\n    3\n}\n\"#;\n\n";
    let before = large_rust(600, fixture);
    let after = before.replacen("fn b() {\n    2\n}", "fn b() {\n    2\n", 1);
    assert_eq!(introduced("big.rs", &before, &after), vec![]);
}

#[test]
fn a_comment_opened_and_closed_far_apart_in_a_large_file_is_no_break() {
    // Two windows, each broken alone, the whole text clean.
    let before = large_rust(600, "");
    let (open_at, close_at) = (
        before.find("fn item_100(").unwrap(),
        before.find("fn item_500(").unwrap(),
    );
    let mut after = before.clone();
    after.insert_str(close_at, "*/\n");
    after.insert_str(open_at, "/*\n");
    let changes = [
        Change::new(open_at..open_at, open_at..open_at + 3),
        Change::new(close_at..close_at, close_at + 3..close_at + 6),
    ];
    match check(
        "big.rs",
        before.as_bytes(),
        after.as_bytes(),
        &changes,
        &Limits::default(),
    ) {
        Check::Checked { errors, .. } => assert_eq!(errors, vec![]),
        other => panic!("not checked: {other:?}"),
    }
}

// The fifth pass (docs/syntax-check.md): the detection set's misses in Rust and TSX, and the C#
// replay's false alarms.

#[test]
fn a_rust_macro_call_that_lost_its_semicolon_before_the_next_statement_is_reported() {
    // tree-sitter-rust reads `tri!(x)` then `Ok(y)` as two statements; rustc wants the `;`.
    let before = "fn f() -> R {\n    tri!(self.parse());\n    Ok(self)\n}\n\nimpl D {\n    number!(de_u8);\n    number!(de_u16);\n}\n";
    let after = before.replace("tri!(self.parse());", "tri!(self.parse())");
    assert_eq!(introduced("x.rs", before, &after), vec![(2, missing_semicolon())]);
    // An item macro among items likewise.
    let after = before.replace("number!(de_u8);", "number!(de_u8)");
    assert_eq!(introduced("x.rs", before, &after), vec![(7, missing_semicolon())]);
    // A block's last expression needs none; a call with braces needs none.
    let tail = "fn f() -> String {\n    let x = 1;\n    format!(\"{x}\")\n}\n";
    let edited = tail.replace("let x = 1;", "let x = 2;");
    assert_eq!(introduced("x.rs", tail, &edited), vec![]);
    let braces = "fn f() {\n    m! { a }\n    let x = 1;\n}\n";
    assert_eq!(introduced("x.rs", braces, &braces.replace("x = 1", "x = 2")), vec![]);
}

#[test]
fn a_dropped_semicolon_far_inside_a_module_is_not_a_closer_closing_nothing() {
    // The block's opening line (`mod small {`) lay past the lines read around the edit: the
    // module's `}` was said to close nothing, 20 lines below the edit.
    let mut before = String::from("mod small {\n");
    // 280 lines: past the 200 read around the edit, within the 400 searched for the block's start.
    for i in 0..70 {
        before.push_str(&format!("    fn f{i}(x: u64) -> u64 {{\n        x + {i}\n    }}\n\n"));
    }
    before.push_str(
        "    fn g(n: usize) {\n        let rem = n % 8;\n        let div = n / 8;\n        h(rem, div);\n    }\n",
    );
    for i in 0..5 {
        before.push_str(&format!("\n    fn k{i}() {{\n        h(0, 0);\n    }}\n"));
    }
    before.push_str("} // small\n");
    let after = before.replace("let rem = n % 8;", "let rem = n % 8");
    let found = introduced("x.rs", &before, &after);
    let line = before.lines().position(|l| l.contains("let rem")).unwrap() + 1;
    assert!(
        !found.is_empty() && found.iter().all(|(l, _)| l.abs_diff(line) <= 1),
        "line {line}: {found:?}"
    );
}

#[test]
fn one_of_two_closers_ending_a_block_dropped_is_reported_on_its_opening_line() {
    // JSX: `onClick={() => {` ... `}}` that lost a `}`: the parser blames lines below.
    let before = "export function Page() {\n  return (\n    <div>\n      <button\n        onClick={() => {\n          trigger()\n        }}\n      >\n        go\n      </button>\n      <p>{data}</p>\n    </div>\n  )\n}\n";
    let after = before.replace("        }}\n", "        }\n");
    let found = introduced("x.tsx", before, &after);
    assert!(found.first().is_some_and(|f| f.0 == 5), "{found:?}");
}

#[test]
fn a_call_left_open_before_a_line_indented_as_it_is_reported_on_its_line() {
    // `const key = createKey(` before `function Page() {`: the `)` was dropped.
    let before = "describe('x', () => {\n  it('a', async () => {\n    const key = createKey()\n    function Page() {\n      return <div>{key}</div>\n    }\n    render(<Page />)\n  })\n})\n";
    let after = before.replace("createKey()", "createKey(");
    let found = introduced("x.tsx", before, &after);
    assert!(found.first().is_some_and(|f| f.0 == 3), "{found:?}");
    // A call whose arguments go on over lines indented deeper is not one.
    let over_lines = before.replace("createKey()", "createKey(\n      1,\n    )");
    let edited = over_lines.replace("render(<Page />)", "render(<Page  />)");
    assert_eq!(introduced("x.tsx", &over_lines, &edited), vec![]);
}

#[test]
fn an_opener_of_two_left_open_on_a_line_closed_by_one_is_reported_on_its_line() {
    // `expect(loggedData).toEqual([` ... `])` that lost the `)` of `expect(loggedData)`.
    let before = "it('a', async () => {\n  await sleep(200)\n\n  expect(loggedData).toEqual([\n    undefined,\n    'foo',\n  ])\n  done()\n})\n\nit('b', () => {\n  done()\n})\n";
    let after = before.replace("expect(loggedData)", "expect(loggedData");
    let found = introduced("x.ts", before, &after);
    assert!(found.first().is_some_and(|f| f.0 == 4), "{found:?}");
}

#[test]
fn a_directive_group_the_csharp_grammar_cannot_read_where_the_edit_wrote_it_is_no_alarm() {
    // tree-sitter-c-sharp reads `#if` only where its grammar places one: not inside a class's
    // header, nor around switch sections. The compiler takes both.
    let before = "namespace N\n{\n    public partial class R\n    {\n        int F(char c)\n        {\n            switch (c)\n            {\n                case 'x':\n                    return 1;\n            }\n            return 0;\n        }\n    }\n}\n";
    let header = before.replace(
        "    public partial class R\n",
        "    public partial class R\n#if HAVE_ASYNC_DISPOSABLE\n        : IAsyncDisposable\n#endif\n",
    );
    assert_eq!(introduced("x.cs", before, &header), vec![]);
    let sections = before.replace(
        "                    return 1;\n",
        "                    return 1;\n#if HAVE_REGEX\n                    case 'c':\n                        return 2;\n#endif\n",
    );
    assert_eq!(introduced("x.cs", before, &sections), vec![]);
    // A break the edit made away from a directive is still reported.
    let broken = before.replace("return 0;", "return 0");
    assert_eq!(introduced("x.cs", before, &broken), vec![(12, missing_semicolon())]);
    // And one inside a group the grammar reads (statements in a method's body).
    let group = before.replace(
        "            return 0;
",
        "#if DEBUG
            Log(c)
#endif
            return 0;
",
    );
    let found = introduced("x.cs", before, &group);
    assert!(found.first().is_some_and(|f| (12..=13).contains(&f.0)), "{found:?}");
}
