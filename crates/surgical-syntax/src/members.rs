//! Windows inside a block, for languages whose code is indented under a namespace or a class (C#,
//! Java), where a change has no top-level line near it: the window runs between lines at the
//! block body's indentation (after a blank line, or the block's first or last line), and is
//! parsed in the context of its enclosing blocks, each the lines of its header (from the
//! declaration's first line to the `{` that opens it) and its closing `}`. The parser reads only
//! those stretches of the text (tree-sitter's included ranges), so its tree and problems are in
//! the text's own positions.
//!
//! Found from lines and indentation only: the text before is parsed in that context and must be
//! clean for the window to decide anything, which a context read wrong (a misindented brace, a
//! boundary inside a multi-line string) does not pass.

use std::ops::Range;

/// How far (in lines) a window's boundary is looked for from a change before giving up.
const REACH: usize = 3000;

/// A window inside nested blocks, with its context, all in positions of one text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Nested {
    /// The enclosing blocks' headers, outermost first: each from its declaration's first line to
    /// just past its `{`.
    pub headers: Vec<Range<usize>>,
    /// The window: whole lines, between items of the innermost block.
    pub window: Range<usize>,
    /// The enclosing blocks' closing `}`, innermost first (so in text order).
    pub closers: Vec<Range<usize>>,
    /// The indentation of the window's items.
    pub level: usize,
    /// The indentation of each header's block (its first line and closer), outermost first.
    indents: Vec<usize>,
}

impl Nested {
    /// The stretches the parser reads, in text order.
    pub fn ranges(&self) -> Vec<Range<usize>> {
        let mut out = self.headers.clone();
        out.push(self.window.clone());
        out.extend(self.closers.iter().cloned());
        out
    }
}

/// The start of the line holding `at`.
fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at.min(text.len())]).map_or(0, |p| p + 1)
}

/// The start of the line after the one starting at `start`, if there is one.
fn next_line(text: &[u8], start: usize) -> Option<usize> {
    memchr::memchr(b'\n', &text[start.min(text.len())..])
        .map(|p| start + p + 1)
        .filter(|&n| n < text.len())
}

/// The start of the line before the one starting at `start`, if there is one.
fn prev_line(text: &[u8], start: usize) -> Option<usize> {
    (start > 0).then(|| line_start(text, start - 1))
}

/// The line starting at `start`, without its terminator.
fn line(text: &[u8], start: usize) -> &[u8] {
    let rest = &text[start.min(text.len())..];
    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let l = &rest[..end];
    l.strip_suffix(b"\r").unwrap_or(l)
}

/// The indentation of the line starting at `start` (a tab counts 4), `None` for a blank line.
fn indent(text: &[u8], start: usize) -> Option<usize> {
    let mut n = 0;
    for &b in line(text, start) {
        match b {
            b' ' => n += 1,
            b'\t' => n += 4,
            b'\x0c' | b'\r' => {}
            _ => return Some(n),
        }
    }
    None
}

/// The line's code: trimmed, without a `//` comment when the line holds no quote.
fn code(text: &[u8], start: usize) -> &[u8] {
    let l = line(text, start);
    let l = match memchr::memmem::find(l, b"//") {
        Some(p) if !l.iter().any(|&b| b == b'"' || b == b'\'') => &l[..p],
        _ => l,
    };
    l.trim_ascii()
}

/// Whether the line says nothing about the blocks: blank, a preprocessor line or a `//` comment
/// (which may stand at any indentation).
fn ignorable(text: &[u8], start: usize) -> bool {
    let t = line(text, start).trim_ascii_start();
    t.is_empty() || t.starts_with(b"#") || t.starts_with(b"//")
}

/// Whether the line starting at `start` is blank.
fn blank(text: &[u8], start: usize) -> bool {
    line(text, start).iter().all(|b| b.is_ascii_whitespace())
}

/// Whether the line starting at `start` starts an item at indentation `level`: indented so,
/// after a blank line, and not a line that continues something (a closing bracket, a `{`, an
/// operator, `else`, `catch`, ...).
fn starts_item(text: &[u8], start: usize, level: usize) -> bool {
    if indent(text, start) != Some(level) || !prev_line(text, start).is_some_and(|p| blank(text, p)) {
        return false;
    }
    let t = line(text, start).trim_ascii_start();
    let continues = [
        &b"else"[..],
        b"catch",
        b"finally",
        b"where",
        b"while",
        b"case",
        b"default",
    ]
    .iter()
    .any(|w| t.starts_with(w) && !t.get(w.len()).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_'));
    !continues
        && !matches!(
            t[0],
            b')' | b']' | b'}' | b'{' | b'.' | b'?' | b':' | b'+' | b'-' | b'*' | b'/' | b'&' | b'|' | b'=' | b','
        )
}

/// Whether the line's code ends with a `{` opening a block.
fn opens(text: &[u8], start: usize) -> bool {
    code(text, start).ends_with(b"{")
}

/// The window around the stretch `a..b` of `text` (the changes' span), inside nested blocks, with
/// its context; `None` when there is none within reach (the change is at the top level, the
/// indentation does not say where blocks start and end, ...).
pub(crate) fn window(text: &[u8], a: usize, b: usize) -> Option<Nested> {
    // The window's first line: from the line holding the byte before the change (a change at a
    // line's start can join it to the item above), up to a line starting an item at an
    // indentation no deeper than any line passed, or the block's first line.
    let first = line_start(text, a.saturating_sub(1));
    let mut level = usize::MAX;
    let mut l = first;
    let mut start = None;
    for _ in 0..REACH {
        if !ignorable(text, l) {
            let i = indent(text, l)?;
            level = level.min(i);
            if level == 0 {
                return None;
            }
            if i == level && starts_item(text, l, level) {
                start = Some(l);
                break;
            }
        }
        let p = prev_line(text, l)?;
        // The line before at a shallower indentation opening a block: this is the block's
        // first line.
        if !ignorable(text, p) && indent(text, p).is_some_and(|i| i < level) && opens(text, p) {
            start = Some(l);
            break;
        }
        l = p;
    }
    let start = start?;
    // Its end: the next line starting an item at that indentation, or the block's last line
    // (a closer indented less); every line between indented no less.
    let mut l = next_line(text, line_start(text, b.min(text.len().saturating_sub(1))))?;
    let mut end = None;
    for _ in 0..REACH {
        if !ignorable(text, l) {
            let i = indent(text, l)?;
            if i < level {
                if !line(text, l).trim_ascii_start().starts_with(b"}") {
                    return None;
                }
                end = Some(l);
                break;
            }
            if starts_item(text, l, level) {
                end = Some(l);
                break;
            }
        }
        l = next_line(text, l)?;
    }
    let end = end?;
    // Every line of the window indented at least as its items (the changed lines too).
    let mut l = start;
    while l < end {
        if !ignorable(text, l) && indent(text, l)? < level {
            return None;
        }
        l = next_line(text, l)?;
    }
    let (headers, indents) = headers(text, start, level)?;
    let closers = closers(text, end, &indents)?;
    Some(Nested {
        headers,
        window: start..end,
        closers,
        level,
        indents,
    })
}

/// The headers of the blocks enclosing the line at `start` (indented `level`), outermost first,
/// and each block's indentation.
fn headers(text: &[u8], start: usize, level: usize) -> Option<(Vec<Range<usize>>, Vec<usize>)> {
    let mut headers = Vec::new();
    let mut indents = Vec::new();
    let (mut at, mut level) = (start, level);
    while level > 0 {
        // The nearest line before indented less: the block's header (or its `{` line).
        let mut o = prev_line(text, at)?;
        while ignorable(text, o) || indent(text, o)? >= level {
            o = prev_line(text, o)?;
        }
        let block = indent(text, o)?;
        // The line whose `{` opens the block: that one, or a continuation of it indented deeper.
        let mut open = o;
        while !opens(text, open) {
            open = next_line(text, open).filter(|&n| n < at)?;
            if !ignorable(text, open) && indent(text, open)? <= block {
                return None;
            }
        }
        let brace = open + memchr::memrchr(b'{', line(text, open))? + 1;
        // The declaration's first line: back over the lines (attributes, doc comments, a
        // signature over lines) that end no statement or block.
        let mut first = o;
        while let Some(p) = prev_line(text, first) {
            let c = code(text, p);
            if blank(text, p)
                || c.starts_with(b"#")
                || c.ends_with(b";")
                || c.ends_with(b"{")
                || c.ends_with(b"}")
                || indent(text, p)? < block
            {
                break;
            }
            first = p;
        }
        headers.push(first..brace);
        indents.push(block);
        at = first;
        level = block.min(indent(text, first)?);
    }
    headers.reverse();
    indents.reverse();
    Some((headers, indents))
}

/// The closing `}` of each block (indentations `indents`, outermost first) after `from`,
/// innermost first: the first line after `from` indented no deeper than the block, which must
/// start with `}` at the block's indentation.
fn closers(text: &[u8], from: usize, indents: &[usize]) -> Option<Vec<Range<usize>>> {
    let mut out = Vec::new();
    let mut l = from;
    for &block in indents.iter().rev() {
        loop {
            if !ignorable(text, l) {
                let i = indent(text, l)?;
                if i < block {
                    return None;
                }
                if i == block {
                    if line(text, l).trim_ascii_start().starts_with(b"}") {
                        let at = l + line(text, l).iter().position(|&b| b == b'}')?;
                        out.push(at..at + 1);
                        break;
                    }
                    return None;
                }
            }
            l = next_line(text, l)?;
        }
        l = next_line(text, l).unwrap_or(text.len());
        if l >= text.len() && out.len() < indents.len() {
            return None;
        }
    }
    Some(out)
}

/// `n` with its window widened by at least `lines` lines each way, to lines starting items at
/// its level; a block passed whole on one side before that becomes an item of the block around
/// it (its header and closer leave the context, the window takes them), up to the top level.
pub(crate) fn widened(text: &[u8], n: &Nested, lines: usize) -> Option<Nested> {
    let mut n = n.clone();
    let (mut up, mut down) = (0, 0);
    loop {
        let block_first = match n.headers.last() {
            Some(h) => next_line(text, line_start(text, h.end))?,
            None => 0,
        };
        let block_end = n.closers.first().map_or(text.len(), |c| line_start(text, c.start));
        let mut start = n.window.start;
        while start > block_first && !(up >= lines && starts_item(text, start, n.level)) {
            start = prev_line(text, start)?;
            up += 1;
        }
        let mut end = n.window.end;
        while end < block_end && !(down >= lines && starts_item(text, end, n.level)) {
            end = next_line(text, end).unwrap_or(text.len());
            down += 1;
        }
        n.window = start..end;
        if (up >= lines && down >= lines) || n.headers.is_empty() {
            break;
        }
        let header = n.headers.pop()?;
        let closer = n.closers.remove(0);
        n.indents.pop();
        n.window = header.start..next_line(text, line_start(text, closer.start)).unwrap_or(text.len());
        n.level = indent(text, header.start)?;
    }
    let mut l = n.window.start;
    while l < n.window.end {
        if !ignorable(text, l) && indent(text, l)? < n.level {
            return None;
        }
        l = match next_line(text, l) {
            Some(next) => next,
            None => break,
        };
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_member_window_with_its_namespace_and_class() {
        let text = b"using System;\n\nnamespace N\n{\n    [Serializable]\n    public class C : B\n        where T : class\n    {\n        int a;\n\n        void M()\n        {\n            x();\n        }\n\n        int b;\n    }\n}\n";
        let s = std::str::from_utf8(text).unwrap();
        let at = s.find("x()").unwrap();
        let n = window(text, at, at + 1).unwrap();
        let part = |r: &Range<usize>| &s[r.clone()];
        assert_eq!(part(&n.headers[0]), "namespace N\n{");
        assert_eq!(
            part(&n.headers[1]),
            "    [Serializable]\n    public class C : B\n        where T : class\n    {"
        );
        // Inside the method: its body's one line, in the method's block.
        assert_eq!(n.headers.len(), 3);
        assert_eq!(part(&n.window), "            x();\n");
        assert_eq!(n.closers.len(), 3);
        assert!(n.closers.iter().all(|c| part(c) == "}"));
        assert!(n.closers.windows(2).all(|w| w[0].end <= w[1].start));
        let at = s.find("int a").unwrap();
        let n = window(text, at, at + 1).unwrap();
        assert_eq!(part(&n.window), "        int a;\n\n");
        assert_eq!(n.headers.len(), 2);
        // The block passed whole: the class and then the namespace become the window.
        let w = widened(text, &n, 3).unwrap();
        assert!(w.headers.is_empty() && w.closers.is_empty());
        assert_eq!(part(&w.window), s);
        // Lines enough in the block: its context kept.
        let at = s.find("x()").unwrap();
        let n = window(text, at, at + 1).unwrap();
        let w = widened(text, &n, 0).unwrap();
        assert_eq!(w.headers.len(), 3);
    }

    #[test]
    fn java_k_and_r_with_a_continued_header() {
        let text = b"package p;\n\npublic final class C\n    extends B {\n  int a;\n\n  int b;\n}\n";
        let s = std::str::from_utf8(text).unwrap();
        let at = s.find("int b").unwrap();
        let n = window(text, at, at + 1).unwrap();
        assert_eq!(&s[n.headers[0].clone()], "public final class C\n    extends B {");
        assert_eq!(&s[n.window.clone()], "  int b;\n");
        assert_eq!(&s[n.closers[0].clone()], "}");
    }

    #[test]
    fn top_level_changes_have_no_nested_window() {
        let text = b"class A {\n}\n\nclass B {\n}\n";
        assert!(window(text, 13, 14).is_none());
    }
}
