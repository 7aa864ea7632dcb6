//! The problems a syntax tree holds, found from its ERROR and MISSING nodes and worded as data:
//! an opener never closed (and where its closer probably belongs), a closer that closes nothing,
//! a string left open, a missing token, an unexpected one.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use crate::problem::{Finding, Problem};
use crate::tokens::{closes, in_words, role, Role};
use crate::Language;

/// What a tree says is wrong with `text`.
pub(crate) struct Broken {
    /// The problems, in text order.
    pub findings: Vec<Finding>,
    /// The byte ranges of the parts the parser could not read (ERROR nodes) and the places where it
    /// assumed a missing token: what a later version may still have wrong without being new.
    pub regions: Vec<Range<usize>>,
}

/// The problems of `tree`, a tree of `text` (shifted by `offset`: the tree may be of a window of a
/// larger text, whose positions the findings are given in). `focus` is where an edit changed the
/// text (in the larger text's positions): a stretch the parser could not read is reported at its
/// first token there, when it has one.
pub(crate) fn broken(language: Language, tree: &Tree, text: &[u8], offset: usize, focus: &[Range<usize>]) -> Broken {
    let mut out = Broken {
        findings: Vec::new(),
        regions: Vec::new(),
    };
    let root = tree.root_node();
    if !root.has_error() {
        return out;
    }
    // The edit's lines, whole: a token on them is the edit's.
    let lines: Vec<Range<usize>> = focus
        .iter()
        .map(|f| {
            let (s, e) = (
                f.start.saturating_sub(offset).min(text.len()),
                f.end.saturating_sub(offset).min(text.len()),
            );
            let s = text[..s].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let e = text[e..].iter().position(|&b| b == b'\n').map_or(text.len(), |p| e + p);
            offset + s..offset + e
        })
        .collect();
    let walker = Walker {
        language,
        text,
        offset,
        focus: &lines,
    };
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() {
            out.regions.push(walker.range(node));
            walker.error(node, &mut out.findings, &mut stack);
        } else if node.is_missing() {
            let at = walker.range(node);
            out.regions.push(at.start.saturating_sub(1)..at.end + 1);
            out.findings.push(walker.missing(node));
        } else {
            let mut cursor = node.walk();
            let children: Vec<Node> = node
                .children(&mut cursor)
                .filter(|c| c.has_error() || c.is_missing())
                .collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out.findings.sort_by_key(|f| (f.at.start, f.at.end));
    out.findings.dedup();
    out
}

struct Walker<'a> {
    language: Language,
    text: &'a [u8],
    offset: usize,
    focus: &'a [Range<usize>],
}

/// A token of a stretch the parser could not read, for bracket matching.
struct Token<'t> {
    node: Node<'t>,
    kind: &'static str,
}

impl<'a> Walker<'a> {
    fn range(&self, node: Node) -> Range<usize> {
        self.offset + node.start_byte()..self.offset + node.end_byte()
    }

    fn text_of(&self, node: Node) -> &'a str {
        std::str::from_utf8(&self.text[node.start_byte()..node.end_byte()]).unwrap_or("")
    }

    /// An ERROR node: its leaves (those of ERROR nodes inside it too) bracket-matched; what stays
    /// open or closes nothing is reported, else its first unexpected token. Complete nodes inside
    /// it that hold errors of their own are walked later.
    fn error<'t>(&self, node: Node<'t>, findings: &mut Vec<Finding>, stack: &mut Vec<Node<'t>>) {
        let mut tokens = Vec::new();
        let mut leaves = Vec::new();
        self.flatten(node, &mut tokens, &mut leaves, stack);
        let before = findings.len();
        // Openers waiting for their closer: (token index, closer).
        let mut open: Vec<(usize, &'static str, bool)> = Vec::new();
        for (i, token) in tokens.iter().enumerate() {
            match role(self.language, token.kind) {
                Role::Opens(closer) => open.push((i, closer, false)),
                Role::Quote(closer) => {
                    // A quote closes the quote it matches if one is open, else opens.
                    if let Some(at) = open.iter().rposition(|&(_, c, quote)| quote && closes(token.kind, c)) {
                        open.truncate(at);
                    } else {
                        open.push((i, closer, true));
                    }
                }
                Role::Closes => {
                    if let Some(at) = open.iter().rposition(|&(_, c, _)| closes(token.kind, c)) {
                        // Openers between are never closed; they stay reported.
                        let unclosed: Vec<_> = open.drain(at..).skip(1).collect();
                        for (j, closer, quote) in unclosed {
                            findings.push(self.never_closed(tokens[j].node, closer, quote));
                        }
                    } else {
                        findings.push(Finding {
                            at: self.range(token.node),
                            problem: Problem::ClosesNothing {
                                closer: self.text_of(token.node).to_string(),
                            },
                            hint: None,
                        });
                    }
                }
                Role::Plain => {}
            }
        }
        for (j, closer, quote) in open {
            findings.push(self.never_closed(tokens[j].node, closer, quote));
        }
        if findings.len() > before {
            return;
        }
        if let Some(finding) = self.missing_comma(node) {
            findings.push(finding);
            return;
        }
        // Nothing unbalanced: the first token the parser could not place, preferably in what the
        // edit changed.
        let in_focus = |r: Range<usize>| {
            self.focus
                .iter()
                .any(|f| r.start < f.end.max(f.start + 1) && f.start < r.end.max(r.start + 1))
        };
        // The token right after the stretch, when the edit wrote it: where the parser gave up.
        let after = {
            let mut p = node.end_byte();
            while p < self.text.len() && self.text[p].is_ascii_whitespace() {
                p += 1;
            }
            let mut root = node;
            while let Some(up) = root.parent() {
                root = up;
            }
            (p < self.text.len())
                .then(|| root.descendant_for_byte_range(p, p + 1))
                .flatten()
                .filter(|n| n.child_count() == 0 && in_focus(self.range(*n)))
        };
        let anchor = leaves
            .iter()
            .find(|leaf| in_focus(self.range(**leaf)))
            .copied()
            .or(after);
        if anchor.is_none() {
            // The parser stopped at the stretch's end and left the rest out of the tree (YAML
            // does): the text after it, when the edit wrote it, is what it could not read.
            let mut p = node.end_byte();
            while p < self.text.len() && self.text[p].is_ascii_whitespace() {
                p += 1;
            }
            let word_end = p + self.text[p..].iter().take_while(|b| !b.is_ascii_whitespace()).count();
            if p < self.text.len() && in_focus(self.offset + p..self.offset + word_end) {
                let line_start = self.text[..p].iter().rposition(|&b| b == b'\n').map_or(0, |q| q + 1);
                let starts_line = self.text[line_start..p].iter().all(|&b| b == b' ' || b == b'\t');
                let problem = if starts_line && self.language == Language::Yaml {
                    Problem::BadIndentation
                } else {
                    Problem::Unexpected {
                        token: shown_token(std::str::from_utf8(&self.text[p..word_end]).unwrap_or("")),
                    }
                };
                findings.push(Finding {
                    at: self.offset + p..self.offset + word_end,
                    problem,
                    hint: None,
                });
                return;
            }
        }
        let anchor = anchor.or(leaves.first().copied());
        if let Some(leaf) = anchor.filter(|_| self.language == Language::Yaml) {
            // YAML nests by indentation: a token the parser cannot place that starts its line is
            // indented wrongly.
            let line_start = self.text[..leaf.start_byte()]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            if self.text[line_start..leaf.start_byte()].iter().all(|&b| b == b' ') {
                findings.push(Finding {
                    at: self.range(leaf),
                    problem: Problem::BadIndentation,
                    hint: None,
                });
                return;
            }
        }
        let finding = match anchor {
            Some(leaf) => Finding {
                at: self.range(leaf),
                problem: Problem::Unexpected {
                    token: shown_token(self.text_of(leaf)),
                },
                hint: None,
            },
            None if node.end_byte() >= self.text.len() && node.start_byte() == node.end_byte() => Finding {
                at: self.range(node),
                problem: Problem::UnexpectedEnd,
                hint: None,
            },
            None => Finding {
                at: self.range(node),
                problem: Problem::Unexpected {
                    token: shown_token(self.text_of(node)),
                },
                hint: None,
            },
        };
        findings.push(finding);
    }

    /// The leaves of `node` (an ERROR node) and of the ERROR nodes in it, in order: `tokens` those
    /// directly in ERROR nodes (bracket matching), `leaves` every leaf including those of complete
    /// nodes inside (the unexpected token).
    fn flatten<'t>(
        &self,
        node: Node<'t>,
        tokens: &mut Vec<Token<'t>>,
        leaves: &mut Vec<Node<'t>>,
        stack: &mut Vec<Node<'t>>,
    ) {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.is_error() {
                self.flatten(child, tokens, leaves, stack);
            } else if child.is_missing() {
                stack.push(child);
            } else if child.child_count() == 0 {
                if child.end_byte() > child.start_byte() {
                    tokens.push(Token {
                        node: child,
                        kind: child.kind(),
                    });
                    leaves.push(child);
                }
            } else {
                if child.has_error() {
                    stack.push(child);
                }
                collect_leaves(child, leaves);
            }
        }
    }

    /// An ERROR node made of whole elements only, standing in a comma-separated list next to
    /// another element: the comma between them is missing (JSON's `"a": 1 "b": 2`, `f(a b)`).
    fn missing_comma(&self, node: Node) -> Option<Finding> {
        let mut cursor = node.walk();
        let whole = node.named_child_count() > 0
            && node
                .children(&mut cursor)
                .all(|c| c.is_named() && !c.is_error() && !c.is_missing() && !c.is_extra());
        if !whole {
            return None;
        }
        let parent = node.parent()?;
        let mut cursor = parent.walk();
        let commas = parent.children(&mut cursor).any(|c| c.kind() == ",");
        let listy = [
            "argument",
            "array",
            "list",
            "object",
            "parameter",
            "tuple",
            "dictionary",
            "set",
            "initializer",
        ]
        .iter()
        .any(|k| parent.kind().contains(k));
        if !commas && !listy {
            return None;
        }
        let element = |n: Option<Node>| n.is_some_and(|n| n.is_named() && !n.is_extra() && !n.is_error());
        let at = if element(node.prev_sibling()) {
            node.start_byte()
        } else if element(node.next_sibling()) {
            node.end_byte()
        } else {
            return None;
        };
        Some(Finding {
            at: self.offset + at..self.offset + at,
            problem: Problem::Missing { token: ",".into() },
            hint: None,
        })
    }

    fn never_closed(&self, opener: Node, closer: &'static str, quote: bool) -> Finding {
        let written = self.text_of(opener).to_string();
        let at = self.range(opener);
        if quote {
            return Finding {
                at,
                problem: Problem::UnclosedString { quote: written },
                hint: None,
            };
        }
        Finding {
            problem: Problem::NeverClosed {
                before_line: None,
                opener: written,
                closer: closer.to_string(),
            },
            hint: before_line(self.text, opener.start_byte(), closer).map(|p| p + self.offset),
            at,
        }
    }

    /// A MISSING node: a closer (reported at its opener), the end of a string, or a token or a
    /// named thing the parser assumed.
    fn missing(&self, node: Node) -> Finding {
        let kind = node.kind();
        let at = self.range(node);
        if let Some(parent) = node.parent() {
            // The opener this closer would close: the last one before it in its parent left open.
            let mut cursor = parent.walk();
            let mut open: Vec<(Node, &'static str, bool)> = Vec::new();
            for sibling in parent.children(&mut cursor) {
                if sibling.id() == node.id() {
                    break;
                }
                if sibling.child_count() > 0 || sibling.is_missing() {
                    continue;
                }
                match role(self.language, sibling.kind()) {
                    Role::Opens(closer) => open.push((sibling, closer, false)),
                    Role::Quote(closer) => open.push((sibling, closer, true)),
                    Role::Closes => {
                        if let Some(i) = open.iter().rposition(|(_, c, _)| closes(sibling.kind(), c)) {
                            open.truncate(i);
                        }
                    }
                    Role::Plain => {}
                }
            }
            if let Some(&(opener, closer, quote)) = open.iter().rev().find(|(_, c, _)| closes(kind, c)) {
                return self.never_closed(opener, closer, quote);
            }
        }
        let problem = if node.is_named() {
            Problem::Expected { what: in_words(kind) }
        } else {
            Problem::Missing {
                token: kind.to_string(),
            }
        };
        Finding {
            at,
            problem,
            hint: None,
        }
    }
}

fn collect_leaves<'t>(node: Node<'t>, leaves: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.child_count() == 0 {
            if n.end_byte() > n.start_byte() {
                leaves.push(n);
            }
            continue;
        }
        let children: Vec<Node> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// A token as the message shows it: its first line, at most 40 characters.
fn shown_token(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim_end();
    let mut shown: String = line.chars().take(40).collect();
    if shown.len() < line.len() {
        shown.push('…');
    }
    shown
}

/// Where the first line after the one holding `at` starts that is indented no deeper than it,
/// does not start with `closer`, and is not blank: where the closer of an opener at `at` probably
/// belongs. `None` when no line qualifies.
pub(crate) fn before_line(text: &[u8], at: usize, closer: &str) -> Option<usize> {
    let line_start = text[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let indent = |line: &[u8]| line.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    let own = indent(&text[line_start..]);
    let mut start = text[at..].iter().position(|&b| b == b'\n').map(|p| at + p + 1)?;
    while start < text.len() {
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| start + p);
        let line = &text[start..end];
        let content = &line[indent(line)..];
        let blank = content.iter().all(|b| b.is_ascii_whitespace());
        if !blank && indent(line) <= own && !content.starts_with(closer.as_bytes()) {
            return Some(start);
        }
        start = end + 1;
    }
    None
}
