//! The breaking edits the detection test and the windows' oracle make: from a clean file's tree,
//! a closing bracket dropped, an opening one dropped, a string's closing quote dropped, a `;` or a
//! `,` between elements dropped, a Python line dedented to no level or indented, a YAML key
//! indented out of its mapping, a block's `end` or `fi`/`done` dropped, a Markdown fence's closing
//! line dropped; and whether a report is on the right line for one.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use surgical_syntax::{tree_sitter_language, Language, Problem, SyntaxError};
use tree_sitter::{Node, Parser};

/// How many edits of each kind a file gives at most (spread over it).
const PER_KIND: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    DropCloser,
    DropOpener,
    UncloseString,
    DropSemicolon,
    DropComma,
    DropEnd,
    PythonDedent,
    PythonIndent,
    YamlIndent,
    DropFence,
    DropTagEnd,
}

pub struct Mutation {
    pub kind: Kind,
    /// The bytes removed or replaced, and what replaces them.
    pub at: Range<usize>,
    pub with: Vec<u8>,
    /// The zero-based lines (of the text after; the edits keep line numbers) a report may be on.
    pub lines: Vec<usize>,
}

pub fn line_of(text: &[u8], at: usize) -> usize {
    text[..at].iter().filter(|&&b| b == b'\n').count()
}

pub fn leaves<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    if children.is_empty() {
        out.push(node);
    }
    for c in children {
        leaves(c, out);
    }
}

fn all_nodes<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    out.push(node);
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    for c in children {
        all_nodes(c, out);
    }
}

/// The leaf among `node`'s children that `closer` closes, before it.
fn opener_of<'t>(closer: Node<'t>, opener: &str) -> Option<Node<'t>> {
    let parent = closer.parent()?;
    let mut cursor = parent.walk();
    let found = parent
        .children(&mut cursor)
        .take_while(|c| c.id() != closer.id())
        .filter(|c| c.kind() == opener)
        .last();
    found
}

fn closer_of<'t>(opener: Node<'t>, closer: &str) -> Option<Node<'t>> {
    let parent = opener.parent()?;
    let mut cursor = parent.walk();
    let found = parent
        .children(&mut cursor)
        .skip_while(|c| c.id() != opener.id())
        .find(|c| c.kind() == closer);
    found
}

/// Every breaking edit of `text` (a clean file in `language`), at most [`PER_KIND`] of each kind,
/// spread over the file.
pub fn mutations(language: Language, text: &[u8]) -> Vec<Mutation> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_language(language).unwrap()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut nodes = Vec::new();
    all_nodes(tree.root_node(), &mut nodes);
    let mut tokens = Vec::new();
    leaves(tree.root_node(), &mut tokens);
    let mut found: Vec<Mutation> = Vec::new();
    let remove = |n: Node, kind: Kind, lines: Vec<usize>| Mutation {
        kind,
        at: n.start_byte()..n.end_byte(),
        with: Vec::new(),
        lines,
    };
    let pairs = [("(", ")"), ("[", "]"), ("{", "}")];
    for t in &tokens {
        let k = t.kind();
        if t.start_byte() == t.end_byte() {
            continue;
        }
        let here = line_of(text, t.start_byte());
        if language == Language::Markdown
            || language == Language::Bash && matches!(k, "[" | "]")
            || language == Language::Yaml && matches!(k, "[" | "{")
        {
            // Brackets are text in Markdown, the shell's `[` is a command, and YAML's flow
            // collection without its opener is a plain scalar: dropping one breaks nothing.
            continue;
        }
        if let Some((open, _)) = pairs.iter().find(|(_, c)| *c == k) {
            if let Some(o) = opener_of(*t, open) {
                found.push(remove(*t, Kind::DropCloser, vec![here, line_of(text, o.start_byte())]));
            }
        }
        if let Some((_, close)) = pairs.iter().find(|(o, _)| *o == k) {
            if let Some(c) = closer_of(*t, close) {
                found.push(remove(*t, Kind::DropOpener, vec![here, line_of(text, c.start_byte())]));
            }
        }
        let statement_end = matches!(
            language,
            Language::Rust | Language::Java | Language::C | Language::Cpp | Language::CSharp | Language::Php
        );
        if statement_end && k == ";" {
            // A `;` between two statements of a block (not the last: Rust reads that as the
            // block's value), not in a `for (;;)`.
            let parent = t.parent();
            let next = t.next_sibling().or_else(|| parent.and_then(|p| p.next_sibling()));
            let in_for = parent.is_some_and(|p| p.kind().contains("for"));
            if let Some(next) = next.filter(|n| n.is_named() && !n.is_extra() && !in_for) {
                if line_of(text, next.start_byte()) > here && !next.kind().contains("comment") {
                    found.push(remove(*t, Kind::DropSemicolon, vec![here, here + 1]));
                }
            }
        }
        if k == ","
            && matches!(
                language,
                Language::Json | Language::JavaScript | Language::Python | Language::Toml
            )
        {
            let (prev, next) = (t.prev_sibling(), t.next_sibling());
            let element = |n: Option<Node>| n.is_some_and(|n| n.is_named() && !n.is_extra());
            if element(prev) && element(next) && line_of(text, next.unwrap().start_byte()) > here {
                found.push(remove(*t, Kind::DropComma, vec![here, here + 1]));
            }
        }
        if language == Language::Html && k == ">" && t.parent().is_some_and(|p| p.kind() == "start_tag") {
            found.push(remove(*t, Kind::DropTagEnd, vec![here, here + 1]));
        }
        let block_end = match language {
            Language::Ruby => k == "end",
            Language::Bash => matches!(k, "fi" | "done" | "esac"),
            _ => false,
        };
        if block_end {
            found.push(remove(*t, Kind::DropEnd, vec![here]));
            if let Some(parent) = t.parent() {
                found.last_mut().unwrap().lines.push(line_of(text, parent.start_byte()));
            }
        }
    }
    for n in &nodes {
        let kind = n.kind();
        // A one-line string literal: its closing quote dropped.
        let stringy = kind.contains("string") && !kind.contains("content") && !kind.contains("fragment")
            || kind == "quoted_attribute_value"
            || kind == "double_quote_scalar"
            || kind == "single_quote_scalar"
            || kind == "char_literal"
            || kind == "character_literal";
        if stringy && n.child_count() >= 2 && line_of(text, n.start_byte()) == line_of(text, n.end_byte()) {
            let last = n.child(n.child_count() as u32 - 1).unwrap();
            let first = n.child(0).unwrap();
            let quote = |k: &str| matches!(k, "\"" | "'" | "`" | "string_end");
            let bytes = &text[last.start_byte()..last.end_byte()];
            let quoted = quote(last.kind()) && quote(first.kind()) || (last.kind() == "string_end" && bytes.len() == 1);
            if quoted && last.end_byte() > last.start_byte() && last.end_byte() - last.start_byte() == 1 {
                found.push(remove(last, Kind::UncloseString, vec![line_of(text, n.start_byte())]));
            }
        }
        if language == Language::Markdown && kind == "fenced_code_block" {
            let mut cursor = n.walk();
            let fences: Vec<Node> = n
                .children(&mut cursor)
                .filter(|c| c.kind() == "fenced_code_block_delimiter")
                .collect();
            if fences.len() == 2 {
                let open = line_of(text, fences[0].start_byte());
                found.push(remove(fences[1], Kind::DropFence, vec![open]));
            }
        }
        if language == Language::Python && kind == "block" && n.named_child_count() >= 2 {
            // The second statement of a block of at least two.
            let second = n.named_child(1).unwrap();
            let line_start = text[..second.start_byte()]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let indent = second.start_byte() - line_start;
            let first = n.named_child(0).unwrap();
            let starts_line = text[line_start..second.start_byte()].iter().all(|&b| b == b' ');
            // The statement before is one line long: indenting this one cannot make it that
            // statement's block.
            let same_level = line_of(text, first.start_byte()) < line_of(text, second.start_byte())
                && line_of(text, first.start_byte()) == line_of(text, first.end_byte());
            if starts_line && same_level && indent >= 4 && !second.kind().contains("comment") {
                let line = line_of(text, second.start_byte());
                found.push(Mutation {
                    kind: Kind::PythonIndent,
                    at: line_start..line_start,
                    with: b"    ".to_vec(),
                    lines: vec![line],
                });
                if indent >= 8 {
                    found.push(Mutation {
                        kind: Kind::PythonDedent,
                        at: line_start..line_start + 2,
                        with: Vec::new(),
                        lines: vec![line],
                    });
                }
            }
        }
        if language == Language::Yaml && kind == "block_mapping" && n.named_child_count() >= 2 {
            let second = n.named_child(1).unwrap();
            let line_start = text[..second.start_byte()]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            if text[line_start..second.start_byte()].iter().all(|&b| b == b' ') {
                let line = line_of(text, second.start_byte());
                found.push(Mutation {
                    kind: Kind::YamlIndent,
                    at: line_start..line_start,
                    with: b" ".to_vec(),
                    lines: vec![line],
                });
            }
        }
    }
    // At most PER_KIND of each kind, spread evenly over the file.
    let mut by_kind: BTreeMap<Kind, Vec<Mutation>> = BTreeMap::new();
    for m in found {
        by_kind.entry(m.kind).or_default().push(m);
    }
    let mut out = Vec::new();
    for (_, mut list) in by_kind {
        list.sort_by_key(|m| m.at.start);
        let n = list.len();
        let take = n.min(PER_KIND);
        let picks: Vec<usize> = (0..take).map(|i| i * n / take).collect();
        for (i, m) in list.into_iter().enumerate() {
            if picks.contains(&i) {
                out.push(m);
            }
        }
    }
    out
}

/// Whether `errors` report the mutation on the right line.
pub fn on_the_right_line(errors: &[SyntaxError], m: &Mutation) -> bool {
    let near = |line: usize| m.lines.iter().any(|&l| (l + 1).abs_diff(line) <= 1);
    errors.iter().any(|e| {
        near(e.line)
            || match &e.problem {
                Problem::NeverClosed {
                    before_line: Some(b), ..
                } => near(*b) || near(*b - 1),
                _ => false,
            }
    })
}

/// Every file under `dir`, in name order (recursively).
pub fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}
