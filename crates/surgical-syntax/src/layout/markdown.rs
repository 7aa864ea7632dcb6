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
            if let Some((opening, inner)) = swallows_a_block(node, text) {
                let fence = String::from_utf8_lossy(&text[opening.start_byte()..opening.end_byte()]).into_owned();
                findings.push(Finding {
                    at: offset + opening.start_byte()..offset + opening.end_byte(),
                    problem: Problem::UnclosedFence { fence },
                    hint: Some(offset + inner),
                });
            } else if let Some(opening) = unclosed(node) {
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

/// The opening fence of a fenced code block whose content holds a line that opens another block
/// (a fence of the same kind with an info string, such as ```` ```rust ````, which cannot close
/// one): the block's own closing fence is missing before it, and it swallowed the text between.
/// With where that line starts.
fn swallows_a_block<'t>(block: Node<'t>, text: &[u8]) -> Option<(Node<'t>, usize)> {
    let mut cursor = block.walk();
    let children: Vec<Node> = block.children(&mut cursor).collect();
    let opening = *children.iter().find(|c| c.kind() == "fenced_code_block_delimiter")?;
    let fence = &text[opening.start_byte()..opening.end_byte()];
    let content = children.iter().find(|c| c.kind() == "code_fence_content")?;
    let body = &text[content.start_byte()..content.end_byte()];
    let mut at = 0;
    for line in body.split(|&b| b == b'\n') {
        let trimmed = line
            .iter()
            .position(|&b| b != b' ')
            .map_or(&line[line.len()..], |p| &line[p..]);
        if trimmed.starts_with(fence) {
            let rest = &trimmed[fence.len()..];
            let info = rest
                .iter()
                .skip_while(|&&b| b == fence[0])
                .copied()
                .collect::<Vec<u8>>();
            if info.iter().any(|b| b.is_ascii_alphanumeric()) && !info.contains(&fence[0]) {
                return Some((opening, content.start_byte() + at));
            }
        }
        at += line.len() + 1;
    }
    None
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
