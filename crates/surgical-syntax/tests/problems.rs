//! One test per kind of problem, per language where the grammar words it its own way: the edit
//! (a text before and after), the line reported and the problem as data.

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

fn never_closed(opener: &str, closer: &str, before_line: Option<usize>) -> Problem {
    Problem::NeverClosed {
        opener: opener.into(),
        closer: closer.into(),
        before_line,
    }
}

#[test]
fn a_dropped_closing_brace_is_an_opener_never_closed() {
    let before = "fn a() {\n    let x = 1;\n}\n\nfn b() -> i32 {\n    2\n}\n";
    let after = "fn a() {\n    let x = 1;\n\nfn b() -> i32 {\n    2\n}\n";
    assert_eq!(
        introduced("x.rs", before, after),
        vec![(1, never_closed("{", "}", Some(4)))]
    );
}

#[test]
fn an_extra_closing_brace_closes_nothing() {
    let before = "fn a() {\n    let x = 1;\n}\nfn b() {}\n";
    let after = "fn a() {\n    let x = 1;\n}\n}\nfn b() {}\n";
    assert_eq!(
        introduced("x.rs", before, after),
        vec![(4, Problem::ClosesNothing { closer: "}".into() })]
    );
}

#[test]
fn a_missing_parenthesis_names_its_opener() {
    let before = "fn a() {\n    let x = foo(1, 2);\n}\n";
    let after = "fn a() {\n    let x = foo(1, 2;\n}\n";
    assert_eq!(
        introduced("x.rs", before, after),
        vec![(2, never_closed("(", ")", Some(3)))]
    );
}

#[test]
fn a_missing_semicolon() {
    let before = "fn a() {\n    let y = 2;\n    let z = 3;\n}\n";
    let after = "fn a() {\n    let y = 2\n    let z = 3;\n}\n";
    assert_eq!(
        introduced("x.rs", before, after),
        vec![(2, Problem::Missing { token: ";".into() })]
    );
}

#[test]
fn an_unclosed_string() {
    let before = "def f():\n    return \"abc\"\n\nclass A:\n    pass\n";
    let after = "def f():\n    return \"abc\n\nclass A:\n    pass\n";
    assert_eq!(
        introduced("x.py", before, after),
        vec![(2, Problem::UnclosedString { quote: "\"".into() })]
    );
}

#[test]
fn python_unexpected_indent() {
    let before = "def f():\n    x = 1\n    y = 2\n    return x\n";
    let after = "def f():\n    x = 1\n        y = 2\n    return x\n";
    assert_eq!(introduced("x.py", before, after), vec![(3, Problem::UnexpectedIndent)]);
}

#[test]
fn python_dedent_to_no_level() {
    let before = "def f():\n    if x:\n        y = 1\n    z = 2\n    return 3\n";
    let after = "def f():\n    if x:\n        y = 1\n      z = 2\n    return 3\n";
    assert_eq!(
        introduced("x.py", before, after),
        vec![(4, Problem::UnindentMatchesNothing)]
    );
}

#[test]
fn python_block_not_indented() {
    let before = "def f():\n    if x:\n        y = 1\n    return 3\n";
    let after = "def f():\n    if x:\n    y = 1\n    return 3\n";
    assert_eq!(
        introduced("x.py", before, after),
        vec![(3, Problem::ExpectedIndentedBlock { after_line: 2 })]
    );
}

#[test]
fn json_missing_comma() {
    let before = "{\n  \"a\": 1,\n  \"b\": 2\n}\n";
    let after = "{\n  \"a\": 1\n  \"b\": 2\n}\n";
    assert_eq!(
        introduced("x.json", before, after),
        vec![(2, Problem::Missing { token: ",".into() })]
    );
}

#[test]
fn markdown_fence_never_closed() {
    let before = "# T\n\n```rust\nfn main() {}\n```\n\ntext\n";
    let after = "# T\n\n```rust\nfn main() {}\n\ntext\n";
    assert_eq!(
        introduced("x.md", before, after),
        vec![(3, Problem::UnclosedFence { fence: "```".into() })]
    );
}

#[test]
fn an_old_error_that_moved_is_not_reported() {
    // The file has an unclosed string already; the edit adds lines above it.
    let before = "fn a() {\n    let s = \"abc;\n}\n";
    let after = "// new\n// lines\nfn a() {\n    let s = \"abc;\n}\n";
    assert_eq!(introduced("x.rs", before, after), vec![]);
}

#[test]
fn shell_a_dropped_brace_the_grammar_accepts_is_reported() {
    // tree-sitter-bash reads `f()` followed by a `[ ... ]` command as a function, and the `}`
    // after it as a command's name; bash refuses both.
    let before = "f() {\n  [ -n \"$1\" ] && echo yes\n}\n\ng() [[ -n $1 ]]\n";
    let after = before.replacen("f() {\n", "f()\n", 1);
    let errors = introduced("x.sh", before, &after);
    assert!(
        errors
            .iter()
            .any(|(l, p)| *l == 2 && *p == Problem::Missing { token: "{".into() }),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|(l, p)| *l == 3 && *p == Problem::ClosesNothing { closer: "}".into() }),
        "{errors:?}"
    );
    // `[[ ... ]]` is a compound command: a body bash takes.
    let edited = before.replacen("echo yes", "echo no", 1);
    assert_eq!(introduced("x.sh", before, &edited), vec![]);
}

#[test]
fn css_a_string_over_a_line_break_is_left_open() {
    let before = "a::before {\n  content: \"x\";\n}\n\nb {\n  font-family: \"Mono\";\n}\n";
    let after = before.replacen("\"x\";", "\"x;", 1);
    let errors = introduced("x.css", before, &after);
    assert!(
        errors
            .iter()
            .any(|(l, p)| *l == 2 && *p == Problem::UnclosedString { quote: "\"".into() }),
        "{errors:?}"
    );
    // A string that keeps its closing quote on its line is not reported.
    let edited = before.replacen("\"x\";", "\"x y\";", 1);
    assert_eq!(introduced("x.css", before, &edited), vec![]);
}
