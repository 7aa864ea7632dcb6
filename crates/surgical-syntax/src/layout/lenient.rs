//! Breaks a grammar reads without an error that the language itself refuses: the shell's `}` where
//! a command's name stands (bash reads it as the reserved word, closing nothing: the `{` was
//! dropped), and a function whose body is a `[ ... ]` command (bash wants a compound command:
//! `f() [ -n "$x" ]` is refused, the `{` after `f()` was dropped); CSS's string running past its
//! line's end (CSS ends a string at a line break: its closing quote was dropped); Rust's macro call
//! with `(...)` or `[...]` standing as a statement or an item, followed by another one without its
//! `;` (tree-sitter-rust reads `tri!(x)` then `Ok(y)` as two statements; rustc refuses it: such a
//! call needs its `;` unless it is a block's last expression, and as an item always).

use tree_sitter::{Node, Tree};

use crate::problem::{Finding, Problem};
use crate::Language;

/// The problems of `tree` (of `text`, positions shifted by `offset`) that its grammar accepts.
pub(crate) fn check(language: Language, tree: &Tree, text: &[u8], offset: usize) -> Vec<Finding> {
    if !matches!(language, Language::Bash | Language::Css | Language::Rust) {
        return Vec::new();
    }
    let mut findings = Vec::new();
    let mut cursor = tree.walk();
    let mut stack: Vec<Node> = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let bytes = &text[node.start_byte()..node.end_byte()];
        match (language, node.kind()) {
            (Language::Bash, "command_name") if bytes == b"}" => findings.push(Finding {
                at: offset + node.start_byte()..offset + node.end_byte(),
                problem: Problem::ClosesNothing { closer: "}".into() },
                hint: None,
            }),
            (Language::Bash, "function_definition") => {
                let body = node.child_by_field_name("body");
                if let Some(body) = body.filter(|b| {
                    b.kind() == "test_command"
                        && text[b.start_byte()..].starts_with(b"[")
                        && !text[b.start_byte()..].starts_with(b"[[")
                }) {
                    findings.push(Finding {
                        at: offset + body.start_byte()..offset + body.start_byte(),
                        problem: Problem::Missing { token: "{".into() },
                        hint: None,
                    });
                }
            }
            (Language::Rust, "macro_invocation") if needs_semicolon(node) => findings.push(Finding {
                at: offset + node.end_byte()..offset + node.end_byte(),
                problem: Problem::Missing { token: ";".into() },
                hint: None,
            }),
            (Language::Css, "string_value") if spans_lines(bytes) => findings.push(Finding {
                at: offset + node.start_byte()..offset + node.start_byte() + 1,
                problem: Problem::UnclosedString {
                    quote: String::from_utf8_lossy(&bytes[..1]).into_owned(),
                },
                hint: None,
            }),
            // A macro's arguments and an attribute hold no statement.
            (Language::Rust, "token_tree" | "attribute_item" | "string_literal" | "raw_string_literal") => continue,
            _ => {}
        }
        stack.extend(node.children(&mut cursor));
    }
    findings.sort_by_key(|f| (f.at.start, f.at.end));
    findings
}

/// Whether a Rust macro call is a statement (or an item) delimited with `(` or `[` and followed
/// by another statement or item of its block without a `;` between: tree-sitter-rust reads it as
/// complete, rustc wants the `;`. The last one of a block is its value (`{ format!("x") }`).
fn needs_semicolon(node: Node) -> bool {
    if !node
        .parent()
        .is_some_and(|p| matches!(p.kind(), "block" | "declaration_list" | "source_file"))
    {
        return false;
    }
    // The token tree's delimiter: `m! { ... }` needs no `;`.
    let mut cursor = node.walk();
    let braces = node
        .children(&mut cursor)
        .last()
        .is_none_or(|t| t.kind() != "token_tree" || t.child(0).is_none_or(|d| d.kind() == "{"));
    if braces {
        return false;
    }
    let mut next = node.next_sibling();
    while let Some(n) = next.filter(|n| n.is_extra()) {
        next = n.next_sibling();
    }
    next.is_some_and(|n| n.is_named() && !n.is_error() && n.kind() != "empty_statement")
}

/// Whether a string's text holds a line break not escaped (CSS continues a string over a line only
/// after a backslash).
fn spans_lines(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().any(|(i, &b)| {
        let before = &bytes[..i];
        b == b'\n' && !before.ends_with(b"\\") && !before.ends_with(b"\\\r")
    })
}

#[cfg(test)]
mod tests {
    use super::spans_lines;

    #[test]
    fn a_line_break_escaped_with_a_backslash_goes_on_with_the_string() {
        // tree-sitter-css itself reads an escaped line break as an error (a grammar limit); this
        // rule does not add a second report for it.
        assert!(!spans_lines(b"\"x\\\ny\""));
        assert!(!spans_lines(b"\"x\\\r\ny\""));
        assert!(spans_lines(b"\"x\ny\""));
    }
}
