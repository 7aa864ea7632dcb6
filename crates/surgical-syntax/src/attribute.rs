//! Where an introduced problem really is. A parser that meets a dropped closing bracket reads on
//! and blames an outer opener (a class's `{`, far above the edit), and one that meets a string left
//! open reads the rest of the line, and the lines after, as the string: its errors show up where
//! the string ends, lines below. Indentation and the edit's place say better, as a person reading
//! the code would: these rules run only once the edit is known to have broken something.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use crate::problem::{Finding, Problem};
use crate::tokens::{role, Role};
use crate::Language;

/// `found` (the problems the edit introduced, not empty) with the ones these rules place better
/// put first, and the echoes of them dropped.
pub(crate) fn attribute(
    language: Language,
    tree: &Tree,
    text: &[u8],
    focus: &[Range<usize>],
    found: Vec<Finding>,
) -> Vec<Finding> {
    // The line index of this text, built afresh: another text may have had the same address
    // and length (an allocation reused), so a cached one is never trusted across calls.
    NEWLINES.with(|cell| {
        *cell.borrow_mut() = (
            text.as_ptr() as usize,
            text.len(),
            memchr::memchr_iter(b'\n', text).collect(),
        );
    });
    let found = if matches!(language, Language::C | Language::Cpp) {
        found.into_iter().filter(|f| !near_a_macro(text, f)).collect()
    } else {
        found
    };
    if found.is_empty() || matches!(language, Language::Markdown | Language::Yaml) {
        return found;
    }
    if language == Language::Html {
        // Only quotes: HTML's elements need no closing tag.
        return match quote_left_open(language, text, focus) {
            Some(quote) => {
                let mut out: Vec<Finding> = found.into_iter().filter(|f| f.at.start < quote.at.start).collect();
                out.push(quote);
                out
            }
            None => found,
        };
    }
    if let Some(string) = string_left_open(tree, text, focus, &found) {
        // What follows the string's start is read wrongly because of it.
        let mut out: Vec<Finding> = found.into_iter().filter(|f| f.at.start < string.at.start).collect();
        out.push(string);
        return out;
    }
    if let Some(quote) = quote_left_open(language, text, focus) {
        let mut out: Vec<Finding> = found.into_iter().filter(|f| f.at.start < quote.at.start).collect();
        out.push(quote);
        return out;
    }
    if let Some(bracket) =
        unbalanced_line(language, tree, text, focus).or_else(|| bracket_by_indentation(language, tree, text, focus))
    {
        let line = line_of(text, bracket.at.start);
        let mut out = vec![bracket];
        // Keep what is on the edit's own lines besides.
        out.extend(found.into_iter().filter(|f| {
            let l = line_of(text, f.at.start);
            l != line
                && focus
                    .iter()
                    .any(|r| line_of(text, r.start) <= l && l <= line_of(text, r.end))
        }));
        out.sort_by_key(|f| f.at.start);
        return out;
    }
    found
}

/// Where zero-based line `line` starts (the text's length past the last).
fn line_start(text: &[u8], line: usize) -> usize {
    if line == 0 {
        return 0;
    }
    line_of(text, 0);
    NEWLINES.with(|cell| cell.borrow().2.get(line - 1).map_or(text.len(), |p| p + 1))
}

thread_local! {
    /// The `\n` positions of the text being attributed (one text at a time per thread).
    static NEWLINES: std::cell::RefCell<(usize, usize, Vec<usize>)> = const { std::cell::RefCell::new((0, 0, Vec::new())) };
}

/// The zero-based `\n`-line of `at`: a binary search in the text's newline positions, indexed
/// once per text (keyed by its address and length).
fn line_of(text: &[u8], at: usize) -> usize {
    NEWLINES.with(|cell| {
        let mut cache = cell.borrow_mut();
        let key = (text.as_ptr() as usize, text.len());
        if (cache.0, cache.1) != key {
            *cache = (key.0, key.1, memchr::memchr_iter(b'\n', text).collect());
        }
        cache.2.partition_point(|&p| p < at.min(text.len()))
    })
}

fn touches(focus: &[Range<usize>], r: &Range<usize>) -> bool {
    focus.iter().any(|f| r.start <= f.end && f.start <= r.end)
}

/// Whether a C or C++ problem may be a macro's doing, which a parser without the preprocessor
/// cannot read: a missing or unexpected token on a line that names an identifier in capitals
/// with an underscore (`FMT_NOEXCEPT x;`, `Q_OBJECT`), or any problem in a `#define` (a line
/// ending with `\\`) or within 10 lines of preprocessor alternatives (`#else`, `#elif`: two
/// headers for one body). Brackets and strings left open elsewhere are never a macro's.
fn near_a_macro(text: &[u8], f: &Finding) -> bool {
    let line = line_of(text, f.at.start);
    let span = |l: usize| {
        let s = line_start(text, l);
        let e = line_start(text, l + 1);
        &text[s..e.max(s)]
    };
    let macro_like = |bytes: &[u8]| {
        bytes.split(|b| !(b.is_ascii_alphanumeric() || *b == b'_')).any(|w| {
            w.len() >= 4 && w.contains(&b'_') && w[0].is_ascii_uppercase() && w.iter().all(|b| !b.is_ascii_lowercase())
        })
    };
    let continued = |bytes: &[u8]| bytes.trim_ascii_end().ends_with(b"\\");
    let token_level = matches!(
        f.problem,
        Problem::Missing { .. } | Problem::Unexpected { .. } | Problem::Expected { .. }
    );
    if token_level && macro_like(span(line)) {
        return true;
    }
    if (line.saturating_sub(1)..=line).any(|l| continued(span(l))) {
        return true;
    }
    (line.saturating_sub(10)..line + 10).any(|l| {
        let t = span(l).trim_ascii_start();
        t.starts_with(b"#else") || t.starts_with(b"#elif")
    })
}

/// A string literal opened with a one-character quote in what the edit wrote that runs on past its
/// line, with the first problem the edit introduced at or after its start.
fn string_left_open(tree: &Tree, text: &[u8], focus: &[Range<usize>], found: &[Finding]) -> Option<Finding> {
    let first_problem = found.iter().map(|f| f.at.start).min()?;
    let mut best: Option<Node> = None;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let r = node.start_byte()..node.end_byte();
        if !focus.iter().any(|f| r.start <= f.end.max(f.start) && f.start <= r.end) {
            continue;
        }
        let kind = node.kind();
        let stringy = kind.contains("string") && !kind.contains("content") && !kind.contains("fragment");
        if stringy && node.child_count() > 0 {
            let quote = &text[node.start_byte()..node.start_byte() + 1];
            let one_char = matches!(quote, b"\"" | b"'") && !text[node.start_byte()..].starts_with(b"\"\"\"");
            let spans = line_of(text, node.start_byte()) < line_of(text, node.end_byte());
            let opened_in_edit = focus
                .iter()
                .any(|f| f.start <= node.start_byte() + 1 && node.start_byte() <= f.end)
                || touches(focus, &(node.start_byte()..node.start_byte() + 1));
            if one_char && spans && node.start_byte() <= first_problem && (opened_in_edit || touches(focus, &r)) {
                // The string that opened last before the first problem.
                if best.is_none_or(|b| b.start_byte() < node.start_byte()) {
                    best = Some(node);
                }
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    let node = best?;
    // Only when the string starts on a line the edit wrote.
    if !focus.iter().any(|f| {
        line_of(text, f.start) <= line_of(text, node.start_byte())
            && line_of(text, node.start_byte()) <= line_of(text, f.end)
    }) {
        return None;
    }
    Some(Finding {
        at: node.start_byte()..node.start_byte() + 1,
        problem: Problem::UnclosedString {
            quote: String::from_utf8_lossy(&text[node.start_byte()..node.start_byte() + 1]).into_owned(),
        },
        hint: None,
    })
}

/// A line the edit wrote holding an odd number of `"` (outside a `"""`, not escaped), or of `'`
/// where that quotes strings and the line has no `"`: a string on it is left open.
fn quote_left_open(language: Language, text: &[u8], focus: &[Range<usize>]) -> Option<Finding> {
    // `'` quotes strings in these; elsewhere it is a character literal, or an apostrophe.
    let singles = matches!(
        language,
        Language::Python
            | Language::JavaScript
            | Language::TypeScript
            | Language::Tsx
            | Language::Ruby
            | Language::Php
            | Language::Bash
            | Language::Toml
            | Language::Yaml
            | Language::Css
            | Language::Html
    );
    for f in focus {
        let mut start = text[..f.start.min(text.len())]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let end = text[f.end.min(text.len())..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| f.end + p);
        while start < end {
            let line_end = text[start..end]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(end, |p| start + p);
            let line = &text[start..line_end];
            if !line.windows(3).any(|w| w == b"\"\"\"" || w == b"'''") {
                let quotes = |q: u8| -> Vec<usize> {
                    let mut at = Vec::new();
                    let mut i = 0;
                    while i < line.len() {
                        if line[i] == b'\\' {
                            i += 2;
                            continue;
                        }
                        if line[i] == q {
                            at.push(i);
                        }
                        i += 1;
                    }
                    at
                };
                let doubles = quotes(b'"');
                let odd = if doubles.len() % 2 == 1 {
                    Some((b'"', doubles[doubles.len() - 1]))
                } else if doubles.is_empty() && singles {
                    let s = quotes(b'\'');
                    (s.len() % 2 == 1).then(|| (b'\'', s[s.len() - 1]))
                } else {
                    None
                };
                if let Some((q, at)) = odd {
                    return Some(Finding {
                        at: start + at..start + at + 1,
                        problem: Problem::UnclosedString {
                            quote: (q as char).to_string(),
                        },
                        hint: None,
                    });
                }
            }
            start = line_end + 1;
        }
    }
    None
}

/// A line the edit wrote with a `{` it does not close that is not the line's last token (a
/// one-line block that lost its `}`), or a `}` it does not open that is not its first.
fn unbalanced_line(language: Language, tree: &Tree, text: &[u8], focus: &[Range<usize>]) -> Option<Finding> {
    for f in focus {
        let (first, last) = (line_of(text, f.start), line_of(text, f.end));
        // The leaves of the edit's lines only.
        let mut leaves = Vec::new();
        collect_in(
            tree.root_node(),
            line_start(text, first)..line_start(text, last + 1),
            &mut leaves,
        );
        for line in first..=last {
            let on: Vec<&Node> = leaves
                .iter()
                .filter(|n| line_of(text, n.start_byte()) == line && !n.kind().contains("comment"))
                .collect();
            for (opener, closer) in [("{", "}"), ("[", "]"), ("(", ")")] {
                let mut open: Vec<usize> = Vec::new();
                for (i, n) in on.iter().enumerate() {
                    if n.kind() == opener {
                        open.push(i);
                    } else if n.kind() == closer && open.pop().is_none() && i > 0 && opener == "{" {
                        return Some(Finding {
                            at: n.start_byte()..n.end_byte(),
                            problem: Problem::ClosesNothing { closer: "}".into() },
                            hint: None,
                        });
                    }
                }
                let Some(&i) = open.last() else { continue };
                // Not the line's last token, and the line does not go on with a `,` or an
                // operator: a one-line block or list that lost its closer.
                let last_token = i + 1 == on.len();
                let tail = on[on.len() - 1].kind();
                let goes_on = matches!(tail, "," | "(" | "[" | "{" | "=" | "+" | "-" | "&&" | "||" | "." | "\\");
                // Or the last, with the next line at the same indentation: no block follows (a
                // `{}` that lost its `}`; a line indented less may be a signature's body).
                let indent = |l: usize| {
                    let start = line_start(text, l);
                    text[start..].iter().take_while(|&&b| b == b' ' || b == b'\t').count()
                };
                let next_line = (line + 1..line + 50).find(|&l| {
                    let s = line_start(text, l);
                    s < text.len()
                        && !text[s..]
                            .iter()
                            .take_while(|&&b| b != b'\n')
                            .all(|b| b.is_ascii_whitespace())
                });
                let no_block = opener == "{" && last_token && next_line.is_some_and(|n| indent(n) == indent(line));
                if (!last_token && !goes_on) || no_block {
                    let _ = language;
                    let n = on[i];
                    return Some(Finding {
                        at: n.start_byte()..n.end_byte(),
                        problem: Problem::NeverClosed {
                            opener: opener.into(),
                            closer: closer.into(),
                            before_line: None,
                        },
                        hint: text[n.end_byte()..]
                            .iter()
                            .position(|&b| b == b'\n')
                            .map(|p| n.end_byte() + p + 1),
                    });
                }
            }
        }
    }
    None
}

/// The lines of `text` with their indentation (`None` for a blank line).
fn indents(text: &[u8]) -> Vec<(usize, Option<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text).chain(std::iter::once(text.len())) {
        let line = &text[start..end];
        let n = line.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let blank = line[n..].iter().all(|b| b.is_ascii_whitespace());
        out.push((start, (!blank).then_some(n)));
        start = end + 1;
        if start > text.len() {
            break;
        }
    }
    out
}

/// By indentation, around the edit: an opener ending its line whose block (the lines indented
/// deeper after it) is not followed by its closer at its own indentation, or a closer starting its
/// line whose block is not preceded by an opener. The innermost one whose block holds the edit.
fn bracket_by_indentation(language: Language, tree: &Tree, text: &[u8], focus: &[Range<usize>]) -> Option<Finding> {
    let lines = indents(text);
    let focus_lines: Vec<(usize, usize)> = focus
        .iter()
        .map(|f| (line_of(text, f.start), line_of(text, f.end)))
        .collect();
    let (first, last) = (
        focus_lines.iter().map(|f| f.0).min()?,
        focus_lines.iter().map(|f| f.1).max()?,
    );
    // The leaves of the lines around the edit (a block this far from it is not the edit's).
    let reach = 200;
    let (from, to) = (first.saturating_sub(reach), last + reach);
    let mut leaves = Vec::new();
    collect_in(
        tree.root_node(),
        line_start(text, from)..line_start(text, to + 1),
        &mut leaves,
    );
    let mut best: Option<(usize, Finding)> = None;
    for (i, leaf) in leaves.iter().enumerate() {
        let line = line_of(text, leaf.start_byte());
        let Some(indent) = lines.get(line).and_then(|l| l.1) else {
            continue;
        };
        match role(language, leaf.kind()) {
            Role::Opens(closer) => {
                // Last token of its line (a comment may follow); a keyword that opens a block
                // (`def`, `if`) first on its line.
                let keyword = closer.chars().all(|c| c.is_ascii_alphabetic());
                let next = leaves.get(i + 1);
                let last_on_line =
                    !next.is_some_and(|n| line_of(text, n.start_byte()) == line && !n.kind().contains("comment"));
                let first_on_line = lines[line].0 + indent == leaf.start_byte();
                if !(last_on_line || keyword && first_on_line) {
                    continue;
                }
                // The block: the lines after it indented deeper; then the line that ends it.
                let Some(end) =
                    (line + 1..lines.len().min(to + reach)).find(|&l| lines[l].1.is_some_and(|n| n <= indent))
                else {
                    continue;
                };
                if !(line <= last && first <= end) {
                    continue;
                }
                let at = lines[end].0 + lines[end].1.unwrap_or(0);
                if text[at..].starts_with(closer.as_bytes()) || end == line + 1 {
                    continue;
                }
                if best.as_ref().is_none_or(|(l, _)| *l < line) {
                    best = Some((
                        line,
                        Finding {
                            at: leaf.start_byte()..leaf.end_byte(),
                            problem: Problem::NeverClosed {
                                opener: leaf.kind().to_string(),
                                closer: closer.to_string(),
                                before_line: None,
                            },
                            hint: Some(lines[end].0),
                        },
                    ));
                }
            }
            Role::Closes => {
                // First token of its line.
                if lines[line].0 + indent != leaf.start_byte() {
                    continue;
                }
                let Some(start) = (from.saturating_sub(reach)..line)
                    .rev()
                    .find(|&l| lines[l].1.is_some_and(|n| n <= indent))
                else {
                    continue;
                };
                if !(start <= last && first <= line) || start + 1 == line {
                    continue;
                }
                // The line that opened the block must end with an opener.
                let opened = leaves
                    .iter()
                    .rev()
                    .find(|n| line_of(text, n.start_byte()) == start && !n.kind().contains("comment"));
                if opened.is_some_and(|n| matches!(role(language, n.kind()), Role::Opens(_))) {
                    continue;
                }
                if best.as_ref().is_none_or(|(l, _)| *l < start) {
                    best = Some((
                        start,
                        Finding {
                            at: leaf.start_byte()..leaf.end_byte(),
                            problem: Problem::ClosesNothing {
                                closer: leaf.kind().to_string(),
                            },
                            hint: None,
                        },
                    ));
                }
            }
            _ => {}
        }
    }
    best.map(|(_, f)| f)
}

/// The leaves of `node` that overlap `range`.
fn collect_in<'t>(node: Node<'t>, range: Range<usize>, out: &mut Vec<Node<'t>>) {
    if node.end_byte() < range.start || node.start_byte() > range.end {
        return;
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    if children.is_empty() {
        if node.end_byte() > node.start_byte() {
            out.push(node);
        }
        return;
    }
    for c in children {
        collect_in(c, range.clone(), out);
    }
}
