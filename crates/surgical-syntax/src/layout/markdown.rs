//! Markdown has no syntax errors: any text is a document. What an edit can break is a code fence
//! opened and never closed, which turns the rest of the document (or of its list item or quote)
//! into code.

use tree_sitter::{Node, Tree};

use crate::problem::{Finding, Problem};

/// The fenced code blocks of `tree` (of `text`, positions shifted by `offset`) that have no
/// closing fence.
pub(crate) fn check(tree: &Tree, text: &[u8], offset: usize) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "fenced_code_block" {
            if let Some(opening) = unclosed(node) {
                let fence = String::from_utf8_lossy(&text[opening.start_byte()..opening.end_byte()]).into_owned();
                findings.push(Finding {
                    at: offset + opening.start_byte()..offset + opening.end_byte(),
                    problem: Problem::UnclosedFence { fence },
                    hint: None,
                });
            }
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).filter(|c| c.child_count() > 0).collect();
        stack.extend(children.into_iter().rev());
    }
    findings.sort_by_key(|f| f.at.start);
    findings
}

/// The opening fence of a fenced code block that has only that one.
fn unclosed(block: Node) -> Option<Node> {
    let mut cursor = block.walk();
    let fences: Vec<Node> = block
        .children(&mut cursor)
        .filter(|c| c.kind() == "fenced_code_block_delimiter")
        .collect();
    (fences.len() == 1).then(|| fences[0])
}
